/* fuzz_ciat_sched.c — the scheduler with ciat on top, end to end (ciat's
 * main on a small trace set), with invariant checks on every scheduler event.
 *
 * Input: two option bytes, then up to MAX_TRACES traces separated by
 * "#TRACE#\n" (the set t.P.0 … t.P.(P-1)).
 *   byte 0: 0x01 --lenient, 0x02 -p, 0x04 slice mode (-i), 0x08 -a,
 *           0x10 -k, 0x20 -rr_interleaving, 0x40 -ciat_events, 0x80 --gap-limit 16
 *   byte 1: 0x03 processors for -i (1..4), 0x0c -s (default, 1, 7, 100),
 *           0x30 byte order (auto, little, big, auto), 0x40 a second run
 *           with --workers 2 (below)
 * Option combinations that are usage errors (-p with -i, -k with -s or with
 * -rr_interleaving, -a/-k/-s/-rr without -i) are left out, so every run
 * reads the traces.
 *
 * The harness links with --wrap=sched_create: ciat's hooks reach the
 * scheduler through the checking hooks below, which pass every event on.
 * Checks, on every event:
 *   - clocks never go back: per processor (a thread is its own processor in
 *     thread mode), each event's clock is at least the last one's;
 *   - one at a time: events come only from a thread that runs (resumed, not
 *     stopped), a processor runs one thread and a thread one processor;
 *   - one thread at a time in a lock (thread mode, simulated
 *     synchronisation: --sync=simulated, or auto on traces that do not
 *     record it): a thread that begins a
 *     critical or ordered section without being stopped holds the lock, which
 *     must be free; a waiter resumed by the holder's end of section takes it
 *     over; a waiter resumed any other way (--lenient's deadlock release)
 *     does not hold it;
 *   - counts add up: at every phase end, each thread's phase counts from the
 *     scheduler (records, executed, fetched, branches, calls, procedure
 *     starts, sync idle) equal what the hooks saw in the phase, and at the
 *     last phase the totals equal the sums; in slice mode each processor's
 *     dispatches and active cycles equal its resumes and the cycles between
 *     resume and stop.
 * And after the run: a successful one wrote the report and memory file (and
 * the events with -ciat_events); a failed one exits 2 naming a trace with
 * an offset, or is a deadlock naming every blocked thread's trace, and
 * leaves no output. With byte 1's 0x40 the set is analysed again with
 * --workers 2: the analysis then replays the scheduler's events from
 * batches (common/fanout.c; under the harness on the same thread, with the
 * fuzz build's small batches), and the run must end as the first did, with
 * the same outputs byte for byte but for the report's "# command:" line.
 *
 * Not used yet: -s beyond 100 (issue 14 item 4: -s 18446744073709551615
 * wraps the swap clock). */
#include "fuzz_support.h"
#include "../base/diag.h"
#include "../common/scheduler.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ciat_main(int argc, char **argv);
scheduler *__real_sched_create(const trace_set *set, trace_reader **readers, const sched_options *opts,
                               const sched_hooks *hooks);

enum { MAX_TRACES = 8, MAX_CPUS = 4, MAX_LOCKS = 256 };
#define TRACE_SEP "#TRACE#\n"

/* What the hooks saw of one thread in the current phase, and in all. */
typedef struct seen {
    uint64_t records, executed, fetched, branches, calls, instrumented, sync_idle;
} seen;

typedef struct lock { uint64_t key; int holder; } lock;

typedef struct checker {
    sched_hooks inner;          /* ciat's */
    scheduler *s;
    bool slice, lenient;
    bool lock_model;            /* thread mode with simulated synchronisation */
    int n, cpus;
    uint64_t last_clock[MAX_TRACES > MAX_CPUS ? MAX_TRACES : MAX_CPUS];
    int cpu_runs[MAX_TRACES];   /* thread running on the processor, -1 */
    int runs_on[MAX_TRACES];    /* processor running the thread, -1 */
    uint64_t since[MAX_CPUS];   /* slice mode: clock of the processor's last resume */
    sched_cpu_counts cpu[MAX_CPUS];
    seen phase[MAX_TRACES], total[MAX_TRACES];
    /* thread mode locks */
    lock locks[MAX_LOCKS];
    int nlocks;
    int pending;                /* thread that began a section in the call just seen, -1 */
    uint64_t pending_key;
    int handover;               /* lock index released by the call just seen, -1 */
    int waiting[MAX_TRACES];    /* lock index a stopped thread waits for, -1 */
    bool phases_done;
} checker;

static checker ck;

static lock *find_lock(uint64_t key)
{
    for (int i = 0; i < ck.nlocks; i++)
        if (ck.locks[i].key == key) return &ck.locks[i];
    FZ_CHECK(ck.nlocks < MAX_LOCKS, "more than %d locks", MAX_LOCKS);
    ck.locks[ck.nlocks] = (lock){ key, -1 };
    return &ck.locks[ck.nlocks++];
}

/* Every event but the stop that follows a section's begin settles it: the
 * thread got the lock. */
static void settle(bool stop_of_pending)
{
    if (ck.pending >= 0 && !stop_of_pending) {
        lock *l = find_lock(ck.pending_key);
        FZ_CHECK(l->holder < 0, "thread %d entered lock %08" PRIx64 " held by thread %d", ck.pending,
                 ck.pending_key, l->holder);
        l->holder = ck.pending;
    }
    ck.pending = -1;
}

static void event(int t, int cpu, uint64_t clock, const char *what)
{
    FZ_CHECK(t >= 0 && t < ck.n && cpu >= 0 && cpu < (ck.slice ? ck.cpus : ck.n), "%s: thread %d cpu %d", what, t, cpu);
    FZ_CHECK(ck.cpu_runs[cpu] == t && ck.runs_on[t] == cpu, "%s of thread %d on processor %d, which runs %d"
             " (the thread runs on %d)", what, t, cpu, ck.cpu_runs[cpu], ck.runs_on[t]);
    FZ_CHECK(clock >= ck.last_clock[cpu], "%s: processor %d's clock went back from %" PRIu64 " to %" PRIu64,
             what, cpu, ck.last_clock[cpu], clock);
    ck.last_clock[cpu] = clock;
}

static void h_fetch(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    (void)ctx;
    settle(false);
    ck.handover = -1;
    event(t, cpu, clock, "fetch");
    ck.phase[t].fetched++;
    ck.inner.fetch(ck.inner.ctx, t, cpu, clock, addr);
}

static void h_fetch_run(void *ctx, int t, int cpu, uint64_t first, uint32_t addr, uint32_t n)
{
    (void)ctx;
    settle(false);
    ck.handover = -1;
    FZ_CHECK(n > 0, "fetch_run of 0 instructions");
    event(t, cpu, first, "fetch_run");
    ck.last_clock[cpu] = first + n - 1;
    ck.phase[t].fetched += n;
    ck.phase[t].executed += n;
    ck.inner.hint.fetch_run(ck.inner.ctx, t, cpu, first, addr, n);
}

static void h_mem(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    (void)ctx;
    settle(false);
    ck.handover = -1;
    event(t, cpu, clock, "memory access");
    ck.phase[t].records++;
    ck.phase[t].executed++;
    ck.inner.mem(ck.inner.ctx, t, cpu, clock, rec);
}

static void h_branch(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    (void)ctx;
    settle(false);
    ck.handover = -1;
    event(t, cpu, clock, "branch");
    ck.phase[t].records++;
    unsigned kind = rec->f1 >> 28;
    ck.phase[t].branches += kind == 0x8;
    ck.phase[t].calls += kind == 0xC;
    ck.phase[t].instrumented += kind == 0x4;
    if (ck.inner.branch) ck.inner.branch(ck.inner.ctx, t, cpu, clock, rec);
}

static uint64_t h_call(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    (void)ctx;
    settle(false);
    ck.handover = -1;
    event(t, cpu, clock, "call");
    ck.phase[t].records++;
    uint64_t wait = ck.inner.call ? ck.inner.call(ck.inner.ctx, t, cpu, clock, rec) : 0;
    FZ_CHECK(wait == 0, "ciat asked for a wait");
    if (!ck.lock_model) return wait;
    unsigned type = smait_call_type(rec->f1);
    uint64_t key = (uint64_t)(type == SMAIT_CT_BEGIN_ORDER || type == SMAIT_CT_END_ORDER) << 32 |
                   rec[SMAIT_CALL_ARG1].f2;
    if (type == SMAIT_CT_BEGIN_CRITICAL || type == SMAIT_CT_BEGIN_ORDER) {
        ck.pending = t;
        ck.pending_key = key;
    } else if (type == SMAIT_CT_END_CRITICAL || type == SMAIT_CT_END_ORDER) {
        lock *l = find_lock(key);
        if (l->holder == t) {       /* else a bad unlock: an error, or ignored with --lenient */
            l->holder = -1;
            ck.handover = (int)(l - ck.locks);
        }
    }
    return wait;
}

static void h_stop(void *ctx, int t, int cpu, uint64_t clock, sched_wait why)
{
    (void)ctx;
    bool lock_wait = ck.lock_model && (why == WAIT_CRITICAL || why == WAIT_ORDERED);
    bool of_pending = lock_wait && ck.pending == t;
    uint64_t key = ck.pending_key;
    settle(of_pending);
    ck.handover = -1;
    event(t, cpu, clock, "stop");
    if (of_pending) {
        lock *l = find_lock(key);
        FZ_CHECK(l->holder >= 0, "thread %d waits for lock %08" PRIx64 ", which nobody holds", t, key);
        ck.waiting[t] = (int)(l - ck.locks);
    } else {
        FZ_CHECK(!lock_wait, "thread %d stopped for a lock without beginning a section", t);
    }
    ck.cpu_runs[cpu] = -1;
    ck.runs_on[t] = -1;
    if (ck.slice) {
        ck.cpu[cpu].active += clock - ck.since[cpu];
    }
    if (ck.inner.thread_stop) ck.inner.thread_stop(ck.inner.ctx, t, cpu, clock, why);
}

static void h_resume(void *ctx, int t, int cpu, uint64_t clock, uint64_t idle)
{
    (void)ctx;
    settle(false);
    int handover = ck.handover;
    ck.handover = -1;
    FZ_CHECK(t >= 0 && t < ck.n && cpu >= 0 && cpu < (ck.slice ? ck.cpus : ck.n), "resume: thread %d cpu %d", t, cpu);
    FZ_CHECK(ck.cpu_runs[cpu] < 0 && ck.runs_on[t] < 0, "thread %d resumed on processor %d, which runs %d"
             " (the thread runs on %d)", t, cpu, ck.cpu_runs[cpu], ck.runs_on[t]);
    ck.cpu_runs[cpu] = t;
    ck.runs_on[t] = cpu;
    event(t, cpu, clock, "resume");
    ck.phase[t].sync_idle += idle;
    if (ck.waiting[t] >= 0) {
        lock *l = &ck.locks[ck.waiting[t]];
        if (handover == ck.waiting[t]) {
            FZ_CHECK(l->holder < 0, "thread %d took over lock %08" PRIx64 " held by %d", t, l->key, l->holder);
            l->holder = t;
        } else {
            FZ_CHECK(ck.lenient, "thread %d left its wait for lock %08" PRIx64 " without it", t, l->key);
        }
        ck.waiting[t] = -1;
    }
    if (ck.slice) {
        ck.since[cpu] = clock;
        ck.cpu[cpu].dispatches++;
    }
    if (ck.inner.thread_resume) ck.inner.thread_resume(ck.inner.ctx, t, cpu, clock, idle);
}

static void h_phase_begin(void *ctx, const sched_phase *ph)
{
    (void)ctx;
    settle(false);
    ck.handover = -1;
    memset(ck.phase, 0, sizeof ck.phase);
    ck.inner.phase_begin(ck.inner.ctx, ph);
}

#define SAME(sfield, wfield, what) FZ_CHECK(sc->sfield == w->wfield, "phase %d thread %d: %s %" PRIu64 " by the" \
                                            " scheduler, %" PRIu64 " by the hooks", ph->number, t, what, \
                                            (uint64_t)sc->sfield, (uint64_t)w->wfield)

static void compare(const sched_phase *ph, int t, const sched_counts *sc, const seen *w)
{
    SAME(records, records, "records");
    SAME(is.executed, executed, "executed");
    SAME(is.fetched, fetched, "fetched");
    SAME(is.branches, branches, "branches");
    SAME(is.calls, calls, "procedure calls");
    SAME(is.instrumented, instrumented, "procedure starts");
    if (!ck.slice) SAME(sync_idle, sync_idle, "sync idle");
    FZ_CHECK(sc->io_idle == 0, "io idle without waits");
}

static void h_phase_end(void *ctx, const sched_phase *ph)
{
    (void)ctx;
    settle(false);
    ck.handover = -1;
    FZ_CHECK(ph->end_clock >= ph->start_clock, "phase %d ends at %" PRIu64 " before its start %" PRIu64,
             ph->number, ph->end_clock, ph->start_clock);
    for (int t = 0; t < ck.n; t++) {
        compare(ph, t, sched_phase_counts(ck.s, t), &ck.phase[t]);
        seen *a = &ck.total[t], *b = &ck.phase[t];
        a->records += b->records;
        a->executed += b->executed;
        a->fetched += b->fetched;
        a->branches += b->branches;
        a->calls += b->calls;
        a->instrumented += b->instrumented;
        a->sync_idle += b->sync_idle;
    }
    if (ph->last) {
        for (int t = 0; t < ck.n; t++) compare(ph, t, sched_total_counts(ck.s, t), &ck.total[t]);
        for (int c = 0; ck.slice && c < ck.cpus; c++) {
            sched_cpu_counts got = sched_cpu_counts_of(ck.s, c);
            FZ_CHECK(ck.cpu_runs[c] < 0, "processor %d still runs thread %d at the end", c, ck.cpu_runs[c]);
            FZ_CHECK(got.dispatches == ck.cpu[c].dispatches && got.active == ck.cpu[c].active,
                     "processor %d: %" PRIu64 " dispatches, %" PRIu64 " active by the scheduler; %" PRIu64
                     ", %" PRIu64 " by the hooks", c, got.dispatches, got.active, ck.cpu[c].dispatches,
                     ck.cpu[c].active);
        }
        ck.phases_done = true;
    }
    ck.inner.phase_end(ck.inner.ctx, ph);
}

scheduler *__wrap_sched_create(const trace_set *set, trace_reader **readers, const sched_options *opts,
                               const sched_hooks *hooks)
{
    memset(&ck, 0, sizeof ck);
    ck.inner = *hooks;
    ck.n = set->count;
    ck.slice = opts->slice_cpus > 0;
    ck.cpus = opts->slice_cpus;
    ck.lenient = opts->lenient;
    ck.pending = ck.handover = -1;
    for (int i = 0; i < MAX_TRACES; i++) ck.cpu_runs[i] = ck.runs_on[i] = ck.waiting[i] = -1;
    /* ciat's hooks, each passed on; the stop and resume hooks added. */
    FZ_CHECK(hooks->fetch && hooks->hint.fetch_run && hooks->mem && hooks->call && hooks->phase_begin &&
             hooks->phase_end, "ciat's hooks changed: update the harness");
    sched_hooks mine = { .ctx = &ck, .fetch = h_fetch, .mem = h_mem, .call = h_call, .branch = h_branch,
                         .phase_begin = h_phase_begin, .phase_end = h_phase_end, .thread_stop = h_stop,
                         .thread_resume = h_resume, .hint = { .fetch_run = h_fetch_run } };
    ck.s = __real_sched_create(set, readers, opts, &mine);
    /* Recorded synchronisation (docs/scheduler.md §6.1) replays the order
     * the traces record instead of ordering locks by the clock. */
    ck.lock_model = !ck.slice && strncmp(sched_sync_mode(ck.s), "simulated", 9) == 0;
    return ck.s;
}

/* ---- the run ---- */

/* What a run wrote: report (without its "# command: " line), memory
 * usage, events; NULL when missing. Read and removed. */
static const char *const output_names[3] = { "ciat_report", "memory", "ciat_events" };
typedef struct outputs {
    unsigned char *data[3];
    size_t len[3];
} outputs;

static void take_outputs(int n, outputs *o)
{
    char name[64];
    for (int k = 0; k < 3; k++) {
        snprintf(name, sizeof name, "t.%d.%s", n, output_names[k]);
        o->len[k] = 0;
        o->data[k] = fz_read(name, &o->len[k]);
        fz_remove(name);
    }
    if (o->data[0]) o->len[0] = fz_drop_line(o->data[0], o->len[0], "# command: ");
}

static void drop_outputs(outputs *o)
{
    for (int k = 0; k < 3; k++) free(o->data[k]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    uint8_t a = data[0], b = data[1];
    const uint8_t *part[MAX_TRACES];
    size_t len[MAX_TRACES];
    int n = fz_split(data + 2, size - 2, TRACE_SEP, sizeof TRACE_SEP - 1, MAX_TRACES, part, len);

    static char prefix[FZ_PATH], paths[MAX_TRACES][FZ_PATH], name[64], cpus[8], gap[8];
    for (int t = 0; t < n; t++) {
        snprintf(name, sizeof name, "t.%d.%d", n, t);
        snprintf(paths[t], sizeof paths[t], "%s", fz_write(name, part[t], len[t]));
    }
    snprintf(name, sizeof name, "t.%d", n);
    snprintf(prefix, sizeof prefix, "%s", fz_path(name));

    fz_job j = { .main = ciat_main };
    j.argv[j.argc++] = "ciat";
    j.argv[j.argc++] = "-q";
    bool slice = a & 0x04, rr = slice && (a & 0x20), keep = slice && !rr && (a & 0x10);
    static const char *const lengths[] = { NULL, "1", "7", "100" };
    const char *s_len = keep ? NULL : lengths[(b >> 2) & 3];
    if (a & 0x01) j.argv[j.argc++] = "--lenient";
    if (!slice && (a & 0x02)) j.argv[j.argc++] = "-p";
    if (slice) {
        snprintf(cpus, sizeof cpus, "%d", 1 + (b & 3));
        j.argv[j.argc++] = "-i";
        j.argv[j.argc++] = cpus;
        if (a & 0x08) j.argv[j.argc++] = "-a";
        if (keep) j.argv[j.argc++] = "-k";
        if (rr) j.argv[j.argc++] = "-rr_interleaving";
        if (s_len) {
            j.argv[j.argc++] = "-s";
            j.argv[j.argc++] = (char *)s_len;
        }
    }
    if (a & 0x40) j.argv[j.argc++] = "-ciat_events";
    if (a & 0x80) {
        snprintf(gap, sizeof gap, "16");
        j.argv[j.argc++] = "--gap-limit";
        j.argv[j.argc++] = gap;
    }
    static const char *const orders[] = { NULL, "little", "big", NULL };
    if (orders[(b >> 4) & 3]) {
        j.argv[j.argc++] = "--byte-order";
        j.argv[j.argc++] = (char *)orders[(b >> 4) & 3];
    }
    j.argv[j.argc++] = prefix;
    j.argv[j.argc] = NULL;

    fz_result res;
    fz_run(fz_job_run, &j, &res);
    outputs o;
    take_outputs(n, &o);
    if (b & 0x40) {
        /* The same analysis replayed from the fanout's batches. */
        bool phases_done = ck.phases_done;
        j.argv[j.argc - 1] = "--workers";
        j.argv[j.argc++] = "2";
        j.argv[j.argc++] = prefix;
        j.argv[j.argc] = NULL;
        fz_result res2;
        fz_run(fz_job_run, &j, &res2);
        outputs o2;
        take_outputs(n, &o2);
        FZ_CHECK(fz_same_end(&res, &res2), "--workers 2 ended otherwise: %s", fz_describe(&res2));
        for (int k = 0; k < 3; k++)
            FZ_CHECK(o.len[k] == o2.len[k] && (!o.len[k] || memcmp(o.data[k], o2.data[k], o.len[k]) == 0),
                     "%s differs with --workers 2", output_names[k]);
        drop_outputs(&o2);
        ck.phases_done = phases_done;
    }
    unsigned char *rep = o.data[0], *mem = o.data[1], *ev = o.data[2];
    size_t rlen = o.len[0], mlen = o.len[1];
    for (int t = 0; t < n; t++) {
        snprintf(name, sizeof name, "t.%d.%d", n, t);
        fz_remove(name);
    }
    if (res.status) {
        fz_check_set_error(&res, paths, n);
        FZ_CHECK(!rep && !mem && !ev, "a failed run left an output");
        return 0;
    }
    FZ_CHECK(ck.phases_done, "the run ended without its last phase");
    FZ_CHECK(rep && rlen && mem && mlen, "outputs missing");
    FZ_CHECK(!(a & 0x40) == !ev, "events file %s", ev ? "without -ciat_events" : "missing");
    free(rep);
    free(mem);
    free(ev);
    return 0;
}
