/* bench_sched.c — per-record overhead of the shared scheduler (docs/scheduler.md §3–§10).
 *
 *   bench_sched PREFIX.P [fetch]   run the scheduler over a trace set in -p mode
 *                                  with no tool attached (or a no-op fetch hook)
 *                                  and print records/s.
 * A timing program, not a test. */
#include "../base/diag.h"
#include "../common/scheduler.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t sink;
static void on_fetch(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    (void)ctx; (void)t; (void)cpu;
    sink += clock ^ addr;
}
static void on_mem(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    (void)ctx; (void)t; (void)cpu;
    sink += clock ^ rec->f2;
}

int main(int argc, char **argv)
{
    diag_set_tool("bench_sched");
    if (argc < 2) {
        fprintf(stderr, "usage: bench_sched PREFIX.P [hooks]\n");
        return 1;
    }
    bool hooks = argc > 2 && strcmp(argv[2], "hooks") == 0;
    trace_set ts;
    trace_set_from_prefix(&ts, argv[1]);
    trace_reader_opts ro = { 0 };
    trace_reader **r = trace_set_open(&ts, &ro);
    sched_options so = { .parallel_start = true, .gap_limit = ISTREAM_DEFAULT_GAP_LIMIT };
    sched_hooks h = { 0 };
    if (hooks) {
        h.fetch = on_fetch;
        h.mem = on_mem;
    }
    scheduler *s = sched_create(&ts, r, &so, &h);
    double t0 = now();
    sched_run(s);
    double dt = now() - t0;
    uint64_t records = 0, executed = 0;
    for (int t = 0; t < ts.count; t++) {
        records += sched_total_counts(s, t)->records;
        executed += sched_total_counts(s, t)->is.executed;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("scheduler (%d threads, %s): %" PRIu64 " records, %" PRIu64 " instructions in %.3f s:"
           " %.1f M records/s, peak RSS %ld KiB\n", ts.count, hooks ? "no-op mem+fetch hooks" :
           "no hooks", records, executed, dt, records / dt / 1e6, ru.ru_maxrss);
    sched_free(s);
    trace_set_close_readers(&ts, r);
    trace_set_free(&ts);
    return 0;
}
