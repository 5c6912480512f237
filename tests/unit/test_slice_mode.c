/* test_slice_mode.c — slice mode of the shared scheduler (docs/scheduler.md §13).
 *
 * The goldens of tests/cli/slice.sh pin small schedules line by line; here
 * random process sets (fixed seeds) run through the real scheduler with
 * random -i, -a, -s, -k and -rr_interleaving, and hooks check what must hold
 * for every schedule:
 *   - each trace's records are processed once each, in order, all of them;
 *   - a process runs on at most one processor, a processor runs at most one
 *     process, and every record comes from the process its processor runs;
 *   - rule (b): a slice is never dispatched while a running slice ended (in
 *     the real run) at or before its start — the test cuts the slices itself
 *     and replays the swap-out start-time formula;
 *   - -a: a process never changes processor; -rr_interleaving: process i
 *     runs on processor i mod p; -k: no swap-out; -s v: a dispatch runs at
 *     most v instructions before a swap-out (plus the record that crossed);
 *   - each processor's clock never goes back; at the end active + idle is
 *     the end clock for every processor, and Σ active = Σ executed;
 *   - an idle processor waits for a slice to complete: a processor other
 *     than the one that just stopped takes a process only after a slice
 *     completed (its tail processed, or its trace ended) or when a disk
 *     read ends at its clock — never after a swap-out or a disk wait alone;
 *   - every other run goes through the consumer's own copy of the batch
 *     loop (sched_hints.records), which must be used.
 * Plus hand-checked cases of the call hook's wait (a synchronous disk read):
 * in thread mode the thread's clock jumps; in slice mode the processor is
 * given up and idles until the read ends. */
#include "suites.h"
#include "../../common/consumer_loops.h"
#include "../../common/fast_paths.h"
#include "../../common/scheduler.h"
#include "../../common/trace_set.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

typedef struct rng { uint64_t s; } rng;
static uint32_t rbelow(rng *r, uint32_t n)
{
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return n ? (uint32_t)((r->s >> 33) % n) : 0;
}

enum { MAXP = 8, MAXREC = 400 };

/* One process as generated: its logical records' kinds and slice numbers. */
typedef struct gen_proc {
    int n;                          /* logical records */
    bool call[MAXREC], sync[MAXREC];
    uint32_t tstart[MAXREC], tend[MAXREC];  /* call times */
    uint64_t index[MAXREC];         /* simple-record index of each logical record */
} gen_proc;

typedef struct slice_ref {
    uint64_t start, end;            /* µs; end UINT64_MAX when there is no tail */
    int first, last;                /* logical records [first, last] (last = the tail) */
} slice_ref;

typedef struct check_ctx {
    int T, p;
    sched_options so;
    gen_proc *g;
    slice_ref (*sl)[MAXREC];
    int *nslices;
    trace_reader **rd;
    int next[MAXP];                 /* next logical record expected per process */
    int on[MAXP];                   /* processor running each process, -1 */
    int runs[MAXP];                 /* process each processor runs, -1 */
    int first_cpu[MAXP];
    uint64_t cpu_clock[MAXP];
    uint64_t dispatch_clock[MAXP];
    uint64_t cur_start[MAXP];       /* the start time the process's queued rest has */
    uint64_t executed[MAXP];
    uint64_t ready[MAXP];           /* when each process's last disk read ends */
    bool waited[MAXP];
    int last_cpu;                   /* the last stop: its processor (-1: none yet) and why */
    sched_wait last_why;
    int swaps, dispatches, io_waits;
    sched_hooks own_hooks;          /* what the consumer's own batch loop delivers to */
    uint64_t own_batches;           /* … and the batches it ran */
} check_ctx;

static int slice_of(const check_ctx *c, int t, int rec)
{
    for (int k = 0; k < c->nslices[t]; k++)
        if (rec >= c->sl[t][k].first && rec <= c->sl[t][k].last) return k;
    return -1;
}

static void see_record(check_ctx *c, int t, int cpu, uint64_t clock)
{
    ck_assert_int_eq(c->on[t], cpu);
    ck_assert_int_eq(c->runs[cpu], t);
    ck_assert_uint_ge(clock, c->cpu_clock[cpu]);
    c->cpu_clock[cpu] = clock;
    uint64_t idx = trace_reader_index(c->rd[t]);
    ck_assert_int_lt(c->next[t], c->g[t].n);
    ck_assert_uint_eq(idx, c->g[t].index[c->next[t]]);
    c->next[t]++;
}

static void h_mem(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    (void)rec;
    see_record(ctx, t, cpu, clock);
}

static uint64_t h_call(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    check_ctx *c = ctx;
    see_record(c, t, cpu, clock);
    /* A file read waits 0..30 cycles (as cdat -handle_io would have it). */
    if (smait_call_type(rec->f1) == SMAIT_CT_READ) {
        c->io_waits++;
        uint64_t wait = rec[SMAIT_CALL_ARG1 + 1].f2 % 31;
        if (wait) {
            c->ready[t] = clock + wait;
            c->waited[t] = true;
        }
        return wait;
    }
    return 0;
}

static void h_resume(void *ctx, int t, int cpu, uint64_t clock, uint64_t idle)
{
    check_ctx *c = ctx;
    ck_assert_uint_eq(idle, 0);
    ck_assert_int_eq(c->on[t], -1);
    ck_assert_int_eq(c->runs[cpu], -1);
    ck_assert_uint_ge(clock, c->cpu_clock[cpu]);
    c->cpu_clock[cpu] = clock;
    if (c->first_cpu[t] < 0) c->first_cpu[t] = cpu;
    if (c->last_cpu >= 0 && cpu != c->last_cpu) {
        /* Another processor than the one that stopped last: it was idle. */
        bool completed = c->last_why == WAIT_SLICE_END || c->last_why == WAIT_NONE;
        bool read_ended = false;
        for (int u = 0; u < c->T; u++) read_ended |= c->waited[u] && c->ready[u] == clock;
        ck_assert_msg(completed || read_ended, "idle processor %d took process %d at clock %" PRIu64
                      " after processor %d's %s, which completes no slice", cpu, t, clock, c->last_cpu,
                      sched_wait_name(c->last_why));
    }
    if (c->so.affinity) ck_assert_int_eq(cpu, c->first_cpu[t]);
    if (c->so.rr_interleaving) ck_assert_int_eq(cpu, t % c->p);
    if (!c->so.rr_interleaving) {
        /* Rule (b) against every running slice. */
        /* (A process whose last record was a disk read comes back only to end.) */
        int h = slice_of(c, t, c->next[t]);
        ck_assert(h >= 0 || c->next[t] == c->g[t].n);
        uint64_t hstart = h < 0 ? UINT64_MAX : c->next[t] == c->sl[t][h].first ? c->sl[t][h].start
                                                                                : c->cur_start[t];
        for (int u = 0; u < c->T && h >= 0; u++) {
            if (c->on[u] < 0) continue;
            int s = slice_of(c, u, c->next[u]);
            if (s < 0) continue;        /* its records are done; the end of its trace is not seen yet */
            ck_assert_msg(c->sl[u][s].end > hstart, "rule (b): process %d's slice (start %" PRIu64 ") dispatched"
                          " while process %d's slice ending at %" PRIu64 " runs", t, hstart, u, c->sl[u][s].end);
        }
    }
    c->on[t] = cpu;
    c->runs[cpu] = t;
    c->dispatch_clock[cpu] = clock;
    c->dispatches++;
}

static void h_stop(void *ctx, int t, int cpu, uint64_t clock, sched_wait why)
{
    check_ctx *c = ctx;
    ck_assert_int_eq(c->on[t], cpu);
    ck_assert_uint_ge(clock, c->cpu_clock[cpu]);
    c->cpu_clock[cpu] = clock;
    uint64_t len = sched_slice_length(&c->so);
    if (why == WAIT_SWAPPED) {
        ck_assert(!c->so.keep_slices || c->so.rr_interleaving);
        ck_assert_uint_ge(clock - c->dispatch_clock[cpu], len);
        c->swaps++;
    }
    /* Any dispatch ran at most len instructions, plus the record that crossed
     * (a branch fills at most 1024). */
    if (!c->so.keep_slices || c->so.rr_interleaving)
        ck_assert_uint_le(clock - c->dispatch_clock[cpu], len + 1024);
    if (!c->so.rr_interleaving && c->next[t] < c->g[t].n && why != WAIT_SLICE_END) {
        /* The rest of a slice: start + (end - start) × done / body. */
        int h = slice_of(c, t, c->next[t]);
        const slice_ref *s = &c->sl[t][h];
        uint64_t body = (uint64_t)(s->last - s->first) + (s->end == UINT64_MAX ? 1 : 0);
        uint64_t done = (uint64_t)(c->next[t] - s->first);
        if (s->end != UINT64_MAX && s->end > s->start && body)
            c->cur_start[t] = s->start + (uint64_t)((unsigned __int128)(s->end - s->start) *
                                                    (done < body ? done : body) / body);
        else c->cur_start[t] = s->start;
    }
    c->on[t] = -1;
    c->runs[cpu] = -1;
    c->last_cpu = cpu;
    c->last_why = why;
}

/* Random process traces: memory accesses, branches, synchronising and other
 * calls with non-decreasing times (and sometimes none at all). */
static void gen(rng *r, tu_recs *t, gen_proc *g)
{
    memset(g, 0, sizeof *g);
    uint32_t now = rbelow(r, 50);
    int want = 1 + (int)rbelow(r, MAXREC - 2);
    bool framed = rbelow(r, 4) != 0;        /* start_trace ... end_trace */
    if (framed && want < 2) want = 2;       /* both (start_trace alone: a cut trace) */
    uint64_t simple = 0;
    for (int i = 0; i < want; i++) {
        unsigned kind = rbelow(r, 100);
        bool first = i == 0 && framed, last = i == want - 1 && framed;
        g->index[g->n] = simple;
        if (first || last || kind < 12) {
            static const unsigned types[] = { SMAIT_CT_SEMOP, SMAIT_CT_BARRIER, SMAIT_CT_LDCW,
                SMAIT_CT_BEGIN_CRITICAL, SMAIT_CT_END_CRITICAL, SMAIT_CT_READ, SMAIT_CT_WRITE,
                SMAIT_CT_MARKER, SMAIT_CT_SYSCALL, SMAIT_CT_SEMCTL, 0x33 };
            unsigned type = first ? SMAIT_CT_START_TRACE : last ? SMAIT_CT_END_TRACE : types[rbelow(r, 11)];
            uint32_t s = now + rbelow(r, 40), e = s + rbelow(r, 40);
            now = e;
            tu_add_call(t, type, s, e, 0x1000, rbelow(r, 200), 0, 0);
            g->call[g->n] = true;
            g->sync[g->n] = (type >= SMAIT_CT_SPAWN && type <= SMAIT_CT_END_CRITICAL) ||
                            type == SMAIT_CT_LDCW || type == SMAIT_CT_SEMOP || type == SMAIT_CT_SEMCTL ||
                            type == SMAIT_CT_START_TRACE || type == SMAIT_CT_END_TRACE;
            g->tstart[g->n] = s;
            g->tend[g->n] = e;
            simple += SMAIT_CALL_PARTS;
        } else if (kind < 20) {
            tu_add(t, 0x80000000u | (0x10000u + rbelow(r, 64) * 4), 0x10000u + rbelow(r, 64) * 4);
            simple++;
        } else {
            tu_add_mem(t, rbelow(r, 2), 4, 0, 0x2000u + rbelow(r, 256) * 4);
            simple++;
        }
        g->n++;
    }
}

/* Cut a generated process into slices as docs/scheduler.md §13 says. */
static int cut(const gen_proc *g, slice_ref *out)
{
    int n = 0, first = 0;
    uint64_t start = 0;                 /* the first slice starts at 0 */
    for (int i = 0; i < g->n; i++) {
        if (!(g->call[i] && g->sync[i])) continue;
        out[n] = (slice_ref){ start, g->tstart[i], first, i };
        start = g->tend[i];
        first = i + 1;
        n++;
    }
    if (first < g->n) {
        out[n] = (slice_ref){ start, UINT64_MAX, first, g->n - 1 };
        n++;
    }
    return n;
}

/* The consumer's own copy of the scheduler's batch loop (consumer_loops.h),
 * made from the run's hooks, counting the batches it runs. */
static inline __attribute__((always_inline)) sched_hooks own_hooks(void *ctx)
{
    return ((check_ctx *)ctx)->own_hooks;
}
CONSUMER_LOOPS_DEFINE(direct_own_hooks, own_hooks)

static uint64_t counted_records(void *ctx, sched_lane *lane, uint64_t limit, const smait_raw **last, bool look)
{
    ((check_ctx *)ctx)->own_batches++;
    return direct_own_hooks_records(ctx, lane, limit, last, look);
}

static void random_run(uint64_t seed, int *swaps, int *waits, uint64_t *own_batches)
{
    rng r = { seed * 0x9e3779b97f4a7c15ull + 1 };
    int T = 1 + (int)rbelow(&r, MAXP), p = 1 + (int)rbelow(&r, 5);
    check_ctx c = { .T = T, .p = p, .last_cpu = -1 };
    c.so.slice_cpus = p;
    c.so.gap_limit = ISTREAM_DEFAULT_GAP_LIMIT;
    c.so.affinity = rbelow(&r, 3) == 0;
    c.so.rr_interleaving = rbelow(&r, 4) == 0;
    c.so.keep_slices = !c.so.rr_interleaving && rbelow(&r, 5) == 0;
    if (!c.so.keep_slices) c.so.slice_length = 1 + rbelow(&r, 60);
    static gen_proc g[MAXP];
    static slice_ref sl[MAXP][MAXREC];
    int nslices[MAXP];
    c.g = g;
    c.sl = sl;
    c.nslices = nslices;

    char dir[4096], list[4200];
    snprintf(dir, sizeof dir, "%s/slice-%" PRIu64, tu_dir, seed);
    tu_rmtree(dir);
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    snprintf(list, sizeof list, "%s/set.list", dir);
    FILE *lf = fopen(list, "w");
    ck_assert_ptr_nonnull(lf);
    for (int t = 0; t < T; t++) {
        tu_recs rec = { 0 };
        gen(&r, &rec, &g[t]);
        nslices[t] = cut(&g[t], sl[t]);
        char path[4300];
        snprintf(path, sizeof path, "%s/p%d", dir, t);
        tu_write_trace(path, &rec, SMAIT_ORDER_LITTLE);
        tu_recs_free(&rec);
        fprintf(lf, "p%d\n", t);
        c.on[t] = -1;
        c.first_cpu[t] = -1;
    }
    fclose(lf);
    for (int k = 0; k < MAXP; k++) c.runs[k] = -1;

    trace_set ts;
    trace_set_from_list(&ts, list);
    trace_reader_opts ro = { .order = SMAIT_ORDER_LITTLE, .buffer_records = 7 };
    c.rd = trace_set_open(&ts, &ro);
    sched_hooks h = { .ctx = &c, .mem = h_mem, .branch = h_mem, .call = h_call,
                      .thread_stop = h_stop, .thread_resume = h_resume };
    if (seed % 2) {                 /* every other run through the consumer's own batch loop */
        c.own_hooks = h;
        h.hint.records = counted_records;
    }
    scheduler *s = sched_create(&ts, c.rd, &c.so, &h);
    sched_run(s);

    uint64_t end = 0, active = 0, executed = 0;
    for (int k = 0; k < p; k++) {
        sched_cpu_counts n = sched_cpu_counts_of(s, k);
        if (k == 0) end = n.active + n.idle;
        ck_assert_uint_eq(n.active + n.idle, end);
        active += n.active;
    }
    for (int t = 0; t < T; t++) {
        ck_assert_int_eq(c.next[t], g[t].n);
        ck_assert_int_eq(c.on[t], -1);
        executed += sched_total_counts(s, t)->is.executed;
        ck_assert_uint_eq(sched_total_counts(s, t)->records, (uint64_t)g[t].n);
    }
    ck_assert_uint_eq(active, executed);
    ck_assert_uint_eq(sched_problem_counts(s).unprocessed, 0);
    ck_assert_int_eq(sched_cpus(s), p);
    *swaps += c.swaps;
    *waits += c.io_waits;
    if (!(seed % 2)) ck_assert_uint_eq(c.own_batches, 0);
    *own_batches += c.own_batches;
    sched_free(s);
    trace_set_close_readers(&ts, c.rd);
    trace_set_free(&ts);
    tu_rmtree(dir);
}

START_TEST(random_sets_keep_the_invariants)
{
    int swaps = 0, waits = 0;
    uint64_t own_batches = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) random_run(seed, &swaps, &waits, &own_batches);
    /* The runs did swap processes out and did wait for the disk, and the
     * consumer's own loop ran batches. */
    ck_assert_int_gt(swaps, 100);
    ck_assert_int_gt(waits, 100);
    if (FAST_PATHS) ck_assert_uint_gt(own_batches, 1000);  /* the general paths ignore the hints */
}
END_TEST

/* ---- the call hook's wait, by hand ---- */

typedef struct wait_log {
    char text[4096];
    size_t len;
} wait_log;

static uint64_t w_call(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    (void)ctx; (void)t; (void)cpu; (void)clock;
    return smait_call_type(rec->f1) == SMAIT_CT_READ ? 50 : 0;
}

static void w_stop(void *ctx, int t, int cpu, uint64_t clock, sched_wait why)
{
    wait_log *l = ctx;
    l->len += (size_t)snprintf(l->text + l->len, sizeof l->text - l->len, "%" PRIu64 " P%d T%d stop %s\n",
                               clock, cpu, t, sched_wait_name(why));
}

static void w_resume(void *ctx, int t, int cpu, uint64_t clock, uint64_t idle)
{
    wait_log *l = ctx;
    l->len += (size_t)snprintf(l->text + l->len, sizeof l->text - l->len, "%" PRIu64 " P%d T%d resume %" PRIu64 "\n",
                               clock, cpu, t, idle);
}

/* T0: load, read (waits 50), load. T1: five loads. */
static scheduler *wait_set(const char *name, const sched_options *so, wait_log *l, trace_set *ts,
                           trace_reader ***rd)
{
    char prefix[4096];
    snprintf(prefix, sizeof prefix, "%s/%s.2", tu_dir, name);
    tu_recs t0 = { 0 }, t1 = { 0 };
    tu_add_mem(&t0, SMAIT_LOAD, 4, 0, 0x1000);
    tu_add_call(&t0, SMAIT_CT_READ, 0, 0, 0x2000, 64, 3, 0);
    tu_add_mem(&t0, SMAIT_LOAD, 4, 0, 0x1004);
    for (int i = 0; i < 5; i++) tu_add_mem(&t1, SMAIT_LOAD, 4, 0, 0x3000u + 4u * (unsigned)i);
    char p[4200];
    snprintf(p, sizeof p, "%s.0", prefix);
    tu_write_trace(p, &t0, SMAIT_ORDER_LITTLE);
    snprintf(p, sizeof p, "%s.1", prefix);
    tu_write_trace(p, &t1, SMAIT_ORDER_LITTLE);
    tu_recs_free(&t0);
    tu_recs_free(&t1);
    trace_set_from_prefix(ts, prefix);
    *rd = trace_set_open(ts, NULL);
    sched_hooks h = { .ctx = l, .call = w_call, .thread_stop = w_stop, .thread_resume = w_resume };
    return sched_create(ts, *rd, so, &h);
}

START_TEST(thread_mode_read_waits)
{
    /* -p: T0 runs its load (clock 1) and the read: it stops at 1 and resumes
     * at 51; T1 runs its five loads meanwhile; T0's last load ends at 52. */
    sched_options so = { .parallel_start = true, .gap_limit = ISTREAM_DEFAULT_GAP_LIMIT };
    wait_log l = { 0 };
    trace_set ts;
    trace_reader **rd;
    scheduler *s = wait_set("tw", &so, &l, &ts, &rd);
    sched_run(s);
    ck_assert_str_eq(l.text, "0 P0 T0 resume 0\n"
                             "0 P1 T1 resume 0\n"
                             "1 P0 T0 stop io\n"
                             "51 P0 T0 resume 50\n"
                             "5 P1 T1 stop none\n"
                             "52 P0 T0 stop none\n");
    ck_assert_uint_eq(sched_total_counts(s, 0)->io_idle, 50);
    ck_assert_uint_eq(sched_clock(s, 0), 52);
    sched_free(s);
    trace_set_close_readers(&ts, rd);
    trace_set_free(&ts);
}
END_TEST

START_TEST(slice_mode_read_frees_the_processor)
{
    /* -i 1: no synchronising calls, so each trace is one slice starting at 0;
     * T0 goes first (trace order). Its load (clock 1), then the read: T0
     * gives P0 up until 51. T1 runs its five loads (clock 6) and ends; P0
     * has nothing it may run until 51: idle 45. T0 comes back, loads (52). */
    sched_options so = { .slice_cpus = 1, .gap_limit = ISTREAM_DEFAULT_GAP_LIMIT };
    wait_log l = { 0 };
    trace_set ts;
    trace_reader **rd;
    scheduler *s = wait_set("sw", &so, &l, &ts, &rd);
    sched_run(s);
    ck_assert_str_eq(l.text, "0 P0 T0 resume 0\n"
                             "1 P0 T0 stop io\n"
                             "1 P0 T1 resume 0\n"
                             "6 P0 T1 stop none\n"
                             "51 P0 T0 resume 0\n"
                             "52 P0 T0 stop none\n");
    sched_cpu_counts n = sched_cpu_counts_of(s, 0);
    ck_assert_uint_eq(n.active, 7);
    ck_assert_uint_eq(n.idle, 45);
    ck_assert_uint_eq(n.dispatches, 3);
    ck_assert_uint_eq(sched_total_counts(s, 0)->io_idle, 50);
    sched_free(s);
    trace_set_close_readers(&ts, rd);
    trace_set_free(&ts);
}
END_TEST

Suite *slice_mode_suite(void)
{
    Suite *s = suite_create("slice_mode");
    TCase *tc = tcase_create("slice_mode");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_sets_keep_the_invariants);
    tcase_add_test(tc, thread_mode_read_waits);
    tcase_add_test(tc, slice_mode_read_frees_the_processor);
    suite_add_tcase(s, tc);
    return s;
}
