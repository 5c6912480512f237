/* schedule.c — `smait schedule`: print the interleaving the shared scheduler
 * produces for a trace set, record by record, with phases, blocking and idle
 * time. ciat and cdat process the records in exactly this order. */
#include "smait_cmd.h"
#include "../base/diag.h"
#include "../common/scheduler.h"
#include "../formats/smait_text.h"

#include <inttypes.h>
#include <stdio.h>

typedef struct printer {
    scheduler *s;
    trace_reader **readers;
    bool fetches;
    bool slices;                /* slice mode: lines name the processor too */
} printer;

/* "T2" in thread mode, "P1 T2" (processor, process) in slice mode. */
static void who(const printer *p, int t, int cpu)
{
    if (p->slices) printf("P%d T%d", cpu, t);
    else printf("T%d", t);
}

static void print_record(printer *p, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    char text[SMAIT_TEXT_MAX];
    smait_text_format(rec, text, sizeof text);
    printf("%" PRIu64 " ", clock);
    who(p, t, cpu);
    printf(" %" PRIu64 ": %s\n", trace_reader_index(p->readers[t]), text);
}

static void on_fetch(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    printer *p = ctx;
    if (!p->fetches) return;
    printf("%" PRIu64 " ", clock);
    who(p, t, cpu);
    printf(" fetch 0x%08x\n", addr);
}

static void on_record(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    print_record(ctx, t, cpu, clock, rec);
}

static uint64_t on_call(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    on_record(ctx, t, cpu, clock, rec);
    return 0;
}

static void on_phase_begin(void *ctx, const sched_phase *ph)
{
    (void)ctx;
    printf("phase %d begin %s by %s threads %d clock %" PRIu64 "\n", ph->number,
           sched_phase_kind_name(ph->kind), sched_phase_cause_name(ph->by), ph->active,
           ph->start_clock);
}

static void on_phase_end(void *ctx, const sched_phase *ph)
{
    printer *p = ctx;
    printf("phase %d end clock %" PRIu64 "\n", ph->number, ph->end_clock);
    for (int t = 0; t < sched_threads(p->s); t++) {
        const sched_counts *c = sched_phase_counts(p->s, t);
        if (t >= ph->active && c->records == 0) continue;
        printf("  T%d records %" PRIu64 " executed %" PRIu64 " fetched %" PRIu64 " branches %"
               PRIu64 " calls %" PRIu64 " instrumented_calls %" PRIu64 " discontinuities %" PRIu64
               " sync_idle %" PRIu64 " phase_end_idle %" PRIu64 "\n", t, c->records,
               c->is.executed, c->is.fetched, c->is.branches, c->is.calls, c->is.instrumented,
               c->is.discontinuities, c->sync_idle, c->phase_end_idle);
        if (p->slices) printf("  T%d io_idle %" PRIu64 "\n", t, c->io_idle);
    }
    for (int c = 0; c < sched_cpus(p->s); c++) {
        sched_cpu_counts n = sched_cpu_counts_of(p->s, c);
        printf("  P%d active %" PRIu64 " idle %" PRIu64 " dispatches %" PRIu64 "\n", c, n.active,
               n.idle, n.dispatches);
    }
}

static void on_stop(void *ctx, int t, int cpu, uint64_t clock, sched_wait why)
{
    printf("%" PRIu64 " ", clock);
    who(ctx, t, cpu);
    printf(" stop %s\n", why == WAIT_NONE ? "end_of_trace" : sched_wait_name(why));
}

static void on_resume(void *ctx, int t, int cpu, uint64_t clock, uint64_t idle)
{
    printf("%" PRIu64 " ", clock);
    who(ctx, t, cpu);
    printf(" resume idle %" PRIu64 "\n", idle);
}

int smait_schedule(const trace_set *ts, const trace_reader_opts *ro, const sched_options *so,
                   bool fetches)
{
    trace_reader **readers = trace_set_open(ts, ro);
    printer p = { .readers = readers, .fetches = fetches, .slices = so->slice_cpus > 0 };
    sched_hooks h = {
        .ctx = &p, .fetch = on_fetch, .mem = on_record, .call = on_call, .branch = on_record,
        .phase_begin = on_phase_begin, .phase_end = on_phase_end,
        .thread_stop = on_stop, .thread_resume = on_resume,
    };
    p.s = sched_create(ts, readers, so, &h);    /* may refuse --sync=recorded: before any output */
    if (so->slice_cpus > 0)
        printf("# smait schedule of %s: processes %d processors %d (%s)\n", ts->name, ts->count,
               so->slice_cpus, so->rr_interleaving ? "round robin" : "slices");
    else if (so->turn_length)
        printf("# smait schedule of %s: threads %d (one processor, turns of %" PRIu64 ")\n", ts->name,
               ts->count, so->turn_length);
    else
        printf("# smait schedule of %s: threads %d\n", ts->name, ts->count);
    /* Traces without recorded synchronisation print as they always did. */
    if (so->sync != SCHED_SYNC_AUTO || sched_traces_record_sync(p.s))
        printf("# sync: %s\n", sched_sync_mode(p.s));
    sched_run(p.s);
    trace_reader_problems rp = trace_readers_problem_sum(readers, ts->count);
    printf("# bad_input: skipped_records %" PRIu64 " truncated_bytes %" PRIu64 " unpaired_calls %"
           PRIu64 " corrupt_streams %" PRIu64, rp.skipped_records, rp.truncated_bytes,
           rp.unpaired_calls, rp.corrupt_streams);
    if (rp.cut_traces) printf(" cut_traces %" PRIu64, rp.cut_traces);     /* only then: as before */
    printf("\n");
    sched_problems pr = sched_problem_counts(p.s);
    printf("# phases %d unprocessed_records %" PRIu64 " deadlocks_released %" PRIu64
           " bad_unlocks %" PRIu64 "\n", sched_phase_count(p.s), pr.unprocessed, pr.deadlocks,
           pr.bad_unlocks);
    sched_free(p.s);
    trace_set_close_readers(ts, readers);
    if (fflush(stdout) != 0) diag_data_error("(standard output)", DIAG_NO_OFFSET, "write failed");
    return EXIT_OK;
}
