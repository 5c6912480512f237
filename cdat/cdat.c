/* cdat.c — Configuration Dependent Analysis Tool (SPEC §8): a trace-driven
 * simulator of a distributed-shared-memory machine.
 *
 * The shared scheduler (common/scheduler) interleaves the traces; cdat's
 * hooks turn each instruction fetch and data access into references of the
 * thread's processor (machine.h, protocol.c), count them per processor
 * (stats.c) and write the traces (traces.c). Each phase's lines are written
 * when it ends, the aggregate block at the end of the run; outputs appear only
 * when the whole run succeeds. */
#include "config.h"
#include "machine.h"
#include "placement.h"
#include "stats.h"
#include "traces.h"
#include "../common/diag.h"
#include "../common/private_ranges.h"
#include "../common/report.h"
#include "../common/run_options.h"
#include "../common/scheduler.h"
#include "../formats/memusage.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "Usage: cdat [options] [calls.P] trace.P cfg_file\n"
    "       cdat [options] [-c call_list] -t trace_list cfg_file\n"
    "\n"
    "Simulates a distributed-shared-memory machine (cfg_file, an INI file:\n"
    "configs/README.md) running the trace set: per-processor caches, a full-map\n"
    "directory protocol (8 variants), page placement. Writes <prefix>.cdat_report\n"
    "and, as the configuration's [output] asks, the general traces\n"
    "<prefix>.general.<n> and the detailed trace <prefix>.detailed, beside the\n"
    "traces or into -o DIR. Report lines: docs/cdat-report.md; protocol:\n"
    "docs/cdat-protocol.md; trace formats: formats/CDAT-TRACES.md.\n"
    "Exit status: 0 ok, 1 usage error, 2 bad input, 3 internal error.\n";

typedef struct cdat {
    cdat_config cfg;
    machine m;
    placement pl;
    memusage mu;
    private_ranges ranges;
    int n;                      /* threads */
    int *proc_of;               /* thread → global processor */
    int *running;               /* per processor: its threads that are running */
    scheduler *s;
    cpu_stats *phase, *total;   /* per processor */
    int seq_cpu;                /* processor whose reference is being simulated */
    cdat_traces tr;
    report *rep;
    const trace_set *ts;
    const char *out_dir;
    int phases;
    uint64_t end_clock;
} cdat;

/* ---- simulation hooks ---- */

static void on_seq(void *ctx, const mach_seq *q)
{
    cdat *c = ctx;
    stats_seq(&c->phase[q->requester], q);
    traces_seq(&c->tr, q);
}

static inline void count_silent(cdat *c, int p, mach_ref r) { c->phase[p].silent += r.silent; }

static void on_fetch(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    (void)cpu;
    cdat *c = ctx;
    int p = c->proc_of[t];
    mach_ref r = mach_fetch(&c->m, p, clock, mach_line(&c->m, addr));
    ref_count(&c->phase[p].instr, r);
    count_silent(c, p, r);
}

/* n instructions at addr, addr+4, …: after the first fetch of a line the
 * rest of the line hits (only fetches change the i-cache). */
static void on_fetch_run(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n)
{
    (void)cpu;
    cdat *c = ctx;
    int p = c->proc_of[t];
    ref_counts *rc = &c->phase[p].instr;
    unsigned shift = c->m.line_shift;
    while (n) {
        uint32_t line = addr >> shift;
        uint64_t in_line = (((uint64_t)line + 1) << shift) - addr;
        uint32_t k = (uint32_t)((in_line + ISTREAM_INSN_BYTES - 1) / ISTREAM_INSN_BYTES);
        if (k > n) k = n;
        mach_ref r = mach_fetch(&c->m, p, clock, line);
        ref_count(rc, r);
        count_silent(c, p, r);
        rc->refs += k - 1;
        rc->hits += k - 1;
        n -= k;
        clock += k;
        addr += k * ISTREAM_INSN_BYTES;
    }
}

static void on_mem(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    (void)cpu;
    cdat *c = ctx;
    int p = c->proc_of[t];
    uint32_t f1 = rec->f1, addr = rec->f2;
    unsigned access = smait_mem_access(f1);
    unsigned size = smait_size_bytes(smait_mem_size_code(f1));
    uint32_t first = mach_line(&c->m, addr);
    uint32_t last = mach_line(&c->m, (uint32_t)((uint64_t)addr + (size ? size - 1 : 0)));
    if (last < first) last = first;             /* wraps past 2^32: the first line only */
    ref_counts *dc = &c->phase[p].data;
    if (access != SMAIT_STORE)
        for (uint32_t l = first;; l++) {
            mach_ref r = mach_load(&c->m, p, clock, l);
            ref_count(dc, r);
            count_silent(c, p, r);
            if (l == last) break;
        }
    if (access != SMAIT_LOAD)
        for (uint32_t l = first;; l++) {
            mach_ref r = mach_store(&c->m, p, clock, l);
            ref_count(dc, r);
            count_silent(c, p, r);
            if (l == last) break;
        }
}

static void on_resume(void *ctx, int t, int cpu, uint64_t clock, uint64_t idle)
{
    (void)cpu; (void)idle;
    cdat *c = ctx;
    int p = c->proc_of[t];
    if (c->running[p]++ == 0) traces_status(&c->tr, p, clock, true);
}

static void on_stop(void *ctx, int t, int cpu, uint64_t clock, sched_wait why)
{
    (void)cpu; (void)why;
    cdat *c = ctx;
    int p = c->proc_of[t];
    if (c->running[p] > 0 && --c->running[p] == 0) traces_status(&c->tr, p, clock, false);
}

/* ---- reporting ---- */

static void on_phase_begin(void *ctx, const sched_phase *ph)
{
    cdat *c = ctx;
    (void)ph;
    memset(c->phase, 0, c->m.nprocs * sizeof *c->phase);
}

static void on_phase_end(void *ctx, const sched_phase *ph)
{
    cdat *c = ctx;
    for (int t = 0; t < c->n; t++) {
        const sched_counts *sc = sched_phase_counts(c->s, t);
        cpu_stats *st = &c->phase[c->proc_of[t]];
        st->active += sc->is.executed;
        st->idle += sc->sync_idle + sc->phase_end_idle;
    }
    report_line(c->rep, ph->number, REPORT_ALL_THREADS, 0, "phase", "kind %s by %s start %" PRIu64
                " end %" PRIu64 " threads %d", sched_phase_kind_name(ph->kind),
                sched_phase_cause_name(ph->by), ph->start_clock, ph->end_clock, ph->active);
    cpu_stats *sum = xcalloc(1, sizeof *sum);
    for (unsigned p = 0; p < c->m.nprocs; p++) {
        if (!stats_any(&c->phase[p])) continue;
        stats_report(c->rep, ph->number, (int)p, &c->phase[p], false);
        stats_add(sum, &c->phase[p]);
        stats_add(&c->total[p], &c->phase[p]);
    }
    stats_report(c->rep, ph->number, REPORT_ALL_THREADS, sum, false);
    free(sum);
    c->phases = ph->number;
    c->end_clock = ph->end_clock;
}

static void aggregate_report(cdat *c)
{
    report_line(c->rep, REPORT_ALL_PHASES, REPORT_ALL_THREADS, 0, "phase", "kind all phases %d start 0"
                " end %" PRIu64 " threads %d", c->phases, c->end_clock, c->n);
    cpu_stats *sum = xcalloc(1, sizeof *sum);
    for (unsigned p = 0; p < c->m.nprocs; p++) {
        if (!stats_any(&c->total[p])) continue;
        stats_report(c->rep, REPORT_ALL_PHASES, (int)p, &c->total[p], false);
        stats_add(sum, &c->total[p]);
    }
    stats_report(c->rep, REPORT_ALL_PHASES, REPORT_ALL_THREADS, sum, false);
    free(sum);
    for (unsigned n = 0; n < c->m.nodes; n++)
        report_line(c->rep, REPORT_ALL_PHASES, REPORT_ALL_THREADS, 16, "placement", "node %u pages %" PRIu64,
                    n, c->pl.pages[n]);
    if (c->cfg.allocation == ALLOC_RR2 || c->cfg.allocation == ALLOC_ORACLE) {
        report_line(c->rep, REPORT_ALL_PHASES, REPORT_ALL_THREADS, 16, "placement", "replicated pages %" PRIu64,
                    c->pl.replicated);
        report_line(c->rep, REPORT_ALL_PHASES, REPORT_ALL_THREADS, 16, "placement", "unlisted pages %" PRIu64,
                    c->pl.unlisted);
    }
}

static void config_header(cdat *c)
{
    const cdat_config *g = &c->cfg;
    bool a, er, dt;
    mach_protocol_switches(g->protocol, &a, &er, &dt);
    report_header(c->rep, " configuration: %s", g->path);
    report_header(c->rep, " machine: nodes %u procs_per_node %u banks_per_node %u line_size %u page_size %u",
                  g->nodes, g->procs_per_node, g->banks_per_node, g->line_size, g->page_size);
    report_header(c->rep, " protocol: %u (remote_lines %s exclusive_replacement %s direct_transactions %s)",
                  g->protocol, a ? "maybe_exclusive" : "shared", er ? "announced" : "not_announced",
                  dt ? "yes" : "no");
    report_header(c->rep, " allocation: %s%s%s", config_allocation_name(g->allocation),
                  g->memory_usage ? " memory_usage " : "", g->memory_usage ? g->memory_usage : "");
    const cache_config *cc[3] = { &g->dcache, &g->icache, &g->icc };
    static const char *const names[3] = { "dcache", "icache", "interconnect_cache" };
    for (int i = 0; i < 3; i++) {
        if (cc[i]->assoc) report_header(c->rep, " %s: size %" PRIu64 " assoc %u", names[i], cc[i]->size, cc[i]->assoc);
        else report_header(c->rep, " %s: size %" PRIu64 " assoc full", names[i], cc[i]->size);
    }
    for (int t = 0; t < c->n; t++)
        report_header(c->rep, " mapping: thread %d processor %d (node %d proc %d)", t, c->proc_of[t],
                      c->m.p[c->proc_of[t]].node, c->m.p[c->proc_of[t]].proc);
}

/* ---- set-up ---- */

static char *output_name(void *ctx, const char *suffix)
{
    cdat *c = ctx;
    return trace_set_output_path(c->ts, c->out_dir, suffix);
}

static void load_memory_usage(cdat *c)
{
    const char *path = c->cfg.memory_usage;
    char why[256];
    if (!memusage_read(path, &c->mu, why, sizeof why))
        diag_data_error(path, DIAG_NO_OFFSET, "memory usage file (allocation %s): %s",
                        config_allocation_name(c->cfg.allocation), why);
    if (c->mu.page_size != c->cfg.page_size)
        diag_data_error(path, DIAG_NO_OFFSET, "memory usage file has page_size %" PRIu64 " but %s has page_size %u;"
                        " run ciat with -page_size %u", c->mu.page_size, c->cfg.path, c->cfg.page_size,
                        c->cfg.page_size);
    for (size_t i = 0; i < c->mu.count; i++)
        if (c->mu.pages[i].owner >= c->n)
            diag_data_error(path, DIAG_NO_OFFSET, "page %" PRIu64 " is owned by thread %" PRId64
                            " but the trace set has %d threads (a file of another run?)", c->mu.pages[i].page,
                            c->mu.pages[i].owner, c->n);
}

int main(int argc, char **argv)
{
    diag_set_tool("cdat");
    cdat c = { 0 };
    bool gzip = false, hpux = false;
    run_options ro;
    option_spec specs[RUN_OPTION_COUNT + 4];
    run_options_init(&ro, specs);
    option_spec own[] = {
        { "gzip", 'z', NULL, OPT_FLAG, NULL, &gzip, NULL, 0, 0,
          "write the general and detailed traces gzip-compressed (names end in .gz)" },
        { "hpux", 0, "HPUX", OPT_FLAG, NULL, &hpux, NULL, 0, 0,
          "rr1/rr2 placement: pages in 0x40000000-0x7fffffff go to the first toucher's node" },
        { "private-range", 0, "private_range", OPT_CALL, "LO:HI", &c.ranges, private_ranges_parse, 0, 0,
          "rr1/rr2 placement: pages in LO:HI go to the first toucher's node (repeatable)" },
        { 0 }
    };
    memcpy(specs + RUN_OPTION_COUNT, own, sizeof own);
    char **ops = xcalloc((size_t)argc + 1, sizeof *ops);
    int nops = options_parse(specs, argc, argv, usage_text, ops);
    if (nops < (ro.trace_list ? 1 : 2))
        diag_usage_error("expects [calls.P] trace.P cfg_file, or -t trace_list cfg_file");
    if (hpux) private_ranges_add_hpux(&c.ranges);

    trace_set ts;
    run_options_trace_set(&ro, ops, nops - 1, &ts);
    c.ts = &ts;
    c.out_dir = ro.out_dir;
    c.n = ts.count;
    config_load(ops[nops - 1], &c.cfg);
    unsigned nprocs = config_total_procs(&c.cfg);
    c.proc_of = xcalloc((size_t)c.n, sizeof *c.proc_of);
    int *thread_node = xcalloc((size_t)c.n, sizeof *thread_node);
    for (int t = 0; t < c.n; t++) {
        c.proc_of[t] = config_thread_proc(&c.cfg, t, c.n);
        if (c.proc_of[t] < 0)
            diag_data_error(c.cfg.path, DIAG_NO_OFFSET, "%d traces but the machine has %u processor%s: map"
                            " thread %d (and every thread from %u on) in [mapping]", c.n, nprocs,
                            nprocs == 1 ? "" : "s", t, nprocs);
        thread_node[t] = c.proc_of[t] / (int)c.cfg.procs_per_node;
    }
    if (c.cfg.allocation == ALLOC_RR2 || c.cfg.allocation == ALLOC_ORACLE) load_memory_usage(&c);

    trace_reader_opts rdo = run_options_reader(&ro);
    trace_reader **readers = trace_set_open(&ts, &rdo);
    char *rep_path = trace_set_output_path(&ts, ro.out_dir, "cdat_report");
    c.rep = report_open(rep_path);

    placement_init(&c.pl, c.cfg.allocation, c.cfg.nodes, c.cfg.page_size, &c.ranges, &c.mu, thread_node, c.n);
    mach_init(&c.m, &c.cfg, &c.pl, on_seq, &c);
    traces_open(&c.tr, &c.m, 0, c.cfg.general, c.cfg.detailed, gzip, output_name, &c);
    c.phase = xcalloc(nprocs, sizeof *c.phase);
    c.total = xcalloc(nprocs, sizeof *c.total);
    c.running = xcalloc(nprocs, sizeof *c.running);

    sched_options so = run_options_sched(&ro);
    sched_hooks h = { .ctx = &c, .fetch = on_fetch, .fetch_run = on_fetch_run, .mem = on_mem,
                      .phase_begin = on_phase_begin, .phase_end = on_phase_end,
                      .thread_stop = on_stop, .thread_resume = on_resume };
    c.s = sched_create(&ts, readers, &so, &h);
    sched_run(c.s);
    aggregate_report(&c);

    report_standard_header(c.rep, argc, argv, &ts, readers);
    config_header(&c);
    report_header(c.rep, " options: gap_limit %" PRIu64 " parallel_start %s lenient %s gzip %s general %s"
                  " detailed %s", ro.gap_limit, ro.parallel_start ? "yes" : "no", ro.lenient ? "yes" : "no",
                  gzip ? "yes" : "no", c.cfg.general ? "yes" : "no", c.cfg.detailed ? "yes" : "no");
    for (int i = 0; i < c.ranges.n; i++)
        report_header(c.rep, " private_range 0x%08" PRIx32 ":0x%08" PRIx32, c.ranges.r[i].lo, c.ranges.r[i].hi);
    report_reader_problems(c.rep, &ts, readers);
    sched_problems sp = sched_problem_counts(c.s);
    report_header(c.rep, " scheduler: deadlocks_released %" PRIu64 " bad_unlocks %" PRIu64
                  " unprocessed_records %" PRIu64, sp.deadlocks, sp.bad_unlocks, sp.unprocessed);
    report_header(c.rep, " directory: lines %zu", dir_lines(&c.m.dir));

    /* Everything succeeded: make the outputs appear. */
    traces_commit(&c.tr);
    report_commit(c.rep);

    sched_free(c.s);
    trace_set_close_readers(&ts, readers);
    traces_free(&c.tr);
    mach_free(&c.m);
    placement_free(&c.pl);
    memusage_free(&c.mu);
    private_ranges_free(&c.ranges);
    config_free(&c.cfg);
    free(c.phase);
    free(c.total);
    free(c.running);
    free(c.proc_of);
    free(thread_node);
    free(rep_path);
    trace_set_free(&ts);
    free(ops);
    return EXIT_OK;
}
