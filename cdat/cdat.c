/* cdat.c — Configuration Dependent Analysis Tool (docs/cdat-protocol.md,
 * docs/cdat-report.md): a trace-driven
 * simulator of a distributed-shared-memory machine.
 *
 * The shared scheduler (common/scheduler) interleaves the traces; cdat's
 * hooks turn each instruction fetch and data access into references of the
 * thread's processor (machine.h, protocol.c), and, under -handle_io, file
 * reads and writes into I/O processor requests (io.c); count them per
 * processor (stats.c) and write the traces (traces.c). Each phase's lines are written
 * when it ends, the aggregate block at the end of the run; outputs appear only
 * when the whole run succeeds. */
#include "config.h"
#include "io.h"
#include "machine.h"
#include "placement.h"
#include "stats.h"
#include "traces.h"
#include "../common/diag.h"
#include "../common/out_file.h"
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
    "docs/cdat-protocol.md; I/O simulation (-handle_io): docs/cdat-io.md; trace\n"
    "formats: formats/CDAT-TRACES.md.\n"
    "Exit status: 0 ok, 1 usage error, 2 bad input, 3 internal error.\n";

typedef struct cdat {
    cdat_config cfg;
    machine m;
    placement pl;
    memusage mu;
    private_ranges ranges;
    int n;                      /* threads (slice mode: processes) */
    int slice_cpus;             /* slice mode (-i p): p; 0 in thread mode */
    int *proc_of;               /* the scheduler's cpu (thread mode: the thread) → global processor */
    int *slot_of;               /* global processor → its stats slot: itself; slice mode: the
                                 * process it runs (per-trace figures, docs/scheduler.md §13) */
    int *running;               /* per processor: its threads that are running (thread mode) */
    uint64_t *idle_from;        /* slice mode: clock + 1 of a processor's 92 not yet written */
    scheduler *s;
    cpu_stats *phase, *total;   /* per stats slot */
    cpu_stats *io_phase, *io_total;     /* per I/O processor k, at k - 1 */
    io_options io_opt;
    io_sim io;
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
    stats_seq(q->requester >= 0 ? &c->phase[c->slot_of[q->requester]] : &c->io_phase[-q->requester - 1], q);
    if (c->m.tx_fields) traces_seq(&c->tr, q);
}

static inline cpu_stats *stats_of(cdat *c, int p) { return &c->phase[c->slot_of[p]]; }

/* A reference's counts; hits (most references) touch nothing else. */
static inline void count_ref(cpu_stats *st, ref_counts *rc, mach_ref r)
{
    ref_count(rc, r);
    if (__builtin_expect(r.silent != 0, 0)) st->silent += r.silent;
}

/* The hooks below handle the common reference inline: one that hits among
 * the two most recently used lines of its set (cache_hit) and needs no
 * transaction only adds to the hit count. Everything else goes through the
 * machine in the out-of-line *_slow functions, so the hit path stays a small
 * leaf function. */

static __attribute__((noinline)) void fetch_slow(cdat *c, int p, uint64_t clock, uint32_t line)
{
    cpu_stats *st = stats_of(c, p);
    count_ref(st, &st->instr, mach_fetch(&c->m, p, clock, line));
}

static void on_fetch(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    (void)t;
    cdat *c = ctx;
    int p = c->proc_of[cpu];
    uint32_t line = mach_line(&c->m, addr);
    if (__builtin_expect(cache_hit(&c->m.p[p].i, line) != CS_INVALID, 1)) {
        stats_of(c, p)->instr.hits++;
        return;
    }
    fetch_slow(c, p, clock, line);
}

/* n instructions at addr, addr+4, …: after the first fetch of a line the
 * rest of the line hits (only fetches change the i-cache). */
static void on_fetch_run(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n)
{
    (void)t;
    cdat *c = ctx;
    int p = c->proc_of[cpu];
    cache *ic = &c->m.p[p].i;
    unsigned shift = c->m.line_shift;
    uint64_t hits = 0;
    while (n) {
        uint32_t line = addr >> shift;
        uint64_t in_line = (((uint64_t)line + 1) << shift) - addr;
        uint32_t k = (uint32_t)((in_line + ISTREAM_INSN_BYTES - 1) / ISTREAM_INSN_BYTES);
        if (k > n) k = n;
        if (__builtin_expect(cache_hit(ic, line) != CS_INVALID, 1)) {
            hits += k;
        } else {
            fetch_slow(c, p, clock, line);
            hits += k - 1;
        }
        n -= k;
        clock += k;
        addr += k * ISTREAM_INSN_BYTES;
    }
    stats_of(c, p)->instr.hits += hits;
}

/* A data access of processor p: size bytes at addr, one reference per line;
 * store: it needs the line owned (a store, or an atomic read-modify-write,
 * which the machine makes as one ownership request: read_priv_own on a miss,
 * req_inv on a shared line — not a load followed by a store). */
static inline __attribute__((always_inline)) void
data_access(cdat *c, int p, uint64_t clock, uint32_t addr, unsigned size, bool store)
{
    uint32_t first = mach_line(&c->m, addr);
    uint32_t last = mach_line(&c->m, (uint32_t)((uint64_t)addr + (size ? size - 1 : 0)));
    if (last < first) last = first;             /* wraps past 2^32: the first line only */
    cpu_stats *st = stats_of(c, p);
    ref_counts *dc = &st->data;
    for (uint32_t l = first;; l++) {
        count_ref(st, dc, store ? mach_store(&c->m, p, clock, l) : mach_load(&c->m, p, clock, l));
        if (l == last) break;
    }
}

static __attribute__((noinline)) void mem_slow(cdat *c, int p, uint64_t clock, uint32_t addr, unsigned size,
                                               unsigned access)
{
    data_access(c, p, clock, addr, size, access != SMAIT_LOAD);
}

static void on_mem(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    (void)t;
    cdat *c = ctx;
    uint32_t f1 = rec->f1, addr = rec->f2;
    unsigned access = smait_mem_access(f1);
    unsigned size = smait_size_bytes(smait_mem_size_code(f1));
    int p = c->proc_of[cpu];
    /* A load, or a store or atomic to a dirty line, within one line: a hit needs nothing else. */
    uint32_t line = mach_line(&c->m, addr);
    if (mach_line(&c->m, addr + (size ? size - 1 : 0)) == line) {
        cache_state st = cache_hit(&c->m.p[p].d, line);
        if (__builtin_expect(st == CS_DIRTY || (st != CS_INVALID && access == SMAIT_LOAD), 1)) {
            stats_of(c, p)->data.hits++;
            return;
        }
    }
    mem_slow(c, p, clock, addr, size, access);
}

/* -buffered_io: one access of a processor's copy to or from a kernel buffer. */
static void on_io_copy(void *ctx, int p, uint64_t clock, uint32_t addr, unsigned size, bool store)
{
    data_access(ctx, p, clock, addr, size, store);
}

/* File reads and writes (-handle_io): the I/O requests now; the wait goes
 * back to the scheduler. */
static uint64_t on_call(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    cdat *c = ctx;
    unsigned type = smait_call_type(rec->f1);
    uint32_t buf = rec[SMAIT_CALL_ARG1].f2, bytes = rec[SMAIT_CALL_ARG1 + 1].f2;
    const char *why = io_refusal(&c->io, type, buf, bytes);
    if (why) sched_record_error(c->s, t, "%s", why);
    return io_call(&c->io, c->proc_of[cpu], clock, type, buf, bytes);
}

static void on_resume(void *ctx, int t, int cpu, uint64_t clock, uint64_t idle)
{
    (void)idle;
    cdat *c = ctx;
    int p = c->proc_of[cpu];
    if (c->slice_cpus) {
        c->slot_of[p] = t;                      /* what it does now counts for process t */
        /* A processor that takes its next slice at once was never idle. */
        uint64_t from = c->idle_from[p];
        c->idle_from[p] = 0;
        if (from && from - 1 == clock) return;
        if (from) traces_status(&c->tr, p, from - 1, false);
        traces_status(&c->tr, p, clock, true);
        return;
    }
    if (c->running[p]++ == 0) traces_status(&c->tr, p, clock, true);
}

/* Slice mode: write the 92 records still held back (at the end of the run). */
static void flush_idle(cdat *c)
{
    for (unsigned p = 0; c->slice_cpus && p < c->m.nprocs; p++)
        if (c->idle_from[p]) traces_status(&c->tr, (int)p, c->idle_from[p] - 1, false);
}

static void on_stop(void *ctx, int t, int cpu, uint64_t clock, sched_wait why)
{
    (void)t; (void)why;
    cdat *c = ctx;
    int p = c->proc_of[cpu];
    if (c->slice_cpus) {                        /* one process per processor: no count */
        c->idle_from[p] = clock + 1;            /* written when it turns out to be idle */
        return;
    }
    if (c->running[p] > 0 && --c->running[p] == 0) traces_status(&c->tr, p, clock, false);
}

/* ---- reporting ---- */

/* Stats slots: processors; slice mode: processes. */
static int stats_slots(const cdat *c) { return c->slice_cpus ? c->n : (int)c->m.nprocs; }

static void on_phase_begin(void *ctx, const sched_phase *ph)
{
    cdat *c = ctx;
    (void)ph;
    memset(c->phase, 0, (size_t)stats_slots(c) * sizeof *c->phase);
    memset(c->io_phase, 0, c->io.nio * sizeof *c->io_phase);
}

/* Tx's lines: L05 too under -handle_io (every I/O processor together). */
static unsigned tx_lines(const cdat *c) { return STATS_PROC | (c->io_opt.handle ? STATS_IO : 0); }

/* Per processor, then per I/O processor (-1, -2, …), then Tx: the lines of
 * those with anything to show; total (when not NULL) gets them added. */
/* Per processor (slice mode: per process), then per I/O processor (-1, -2,
 * …), then, in slice mode, each processor's L14, then Tx: the lines of those
 * with anything to show; total (when not NULL) gets them added. */
static void report_block(cdat *c, int phase, const cpu_stats *procs, const cpu_stats *ios, cpu_stats *total,
                         cpu_stats *io_total)
{
    cpu_stats *sum = xcalloc(1, sizeof *sum);
    unsigned own = STATS_PROC | (c->slice_cpus ? STATS_NO_CPU : 0);
    for (int p = 0; p < stats_slots(c); p++) {
        if (!stats_any(&procs[p])) continue;
        stats_report(c->rep, phase, p, &procs[p], own);
        stats_add(sum, &procs[p]);
        if (total) stats_add(&total[p], &procs[p]);
    }
    for (unsigned k = 0; k < c->io.nio; k++) {
        if (!stats_any(&ios[k])) continue;
        stats_report(c->rep, phase, -(int)k - 1, &ios[k], STATS_IO);
        stats_add(sum, &ios[k]);
        if (io_total) stats_add(&io_total[k], &ios[k]);
    }
    /* Slice mode has one phase: the scheduler's processor counts are its own
     * and the aggregate's. */
    for (int k = 0; k < c->slice_cpus; k++) {
        sched_cpu_counts n = sched_cpu_counts_of(c->s, k);
        report_cpu_line(c->rep, phase, c->proc_of[k], 14, n.active, n.idle);
        sum->active += n.active;
        sum->idle += n.idle;
    }
    stats_report(c->rep, phase, REPORT_ALL_THREADS, sum, tx_lines(c));
    free(sum);
}

static void on_phase_end(void *ctx, const sched_phase *ph)
{
    cdat *c = ctx;
    for (int t = 0; t < c->n && !c->slice_cpus; t++) {
        const sched_counts *sc = sched_phase_counts(c->s, t);
        cpu_stats *st = &c->phase[c->proc_of[t]];
        st->active += sc->is.executed;
        st->idle += sc->sync_idle + sc->phase_end_idle + sc->io_idle;
    }
    report_line(c->rep, ph->number, REPORT_ALL_THREADS, 0, "phase", "kind %s by %s start %" PRIu64
                " end %" PRIu64 " threads %d", sched_phase_kind_name(ph->kind),
                sched_phase_cause_name(ph->by), ph->start_clock, ph->end_clock, ph->active);
    report_block(c, ph->number, c->phase, c->io_phase, c->total, c->io_total);
    c->phases = ph->number;
    c->end_clock = ph->end_clock;
}

static void aggregate_report(cdat *c)
{
    report_line(c->rep, REPORT_ALL_PHASES, REPORT_ALL_THREADS, 0, "phase", "kind all phases %d start 0"
                " end %" PRIu64 " threads %d", c->phases, c->end_clock, c->n);
    report_block(c, REPORT_ALL_PHASES, c->total, c->io_total, NULL, NULL);
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
    if (c->slice_cpus)
        for (int k = 0; k < c->slice_cpus; k++)
            report_header(c->rep, " mapping: slice-mode processor %d processor %d (node %d proc %d)", k,
                          c->proc_of[k], c->m.p[c->proc_of[k]].node, c->m.p[c->proc_of[k]].proc);
    else
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
    bool zstd = false, gzip = false, hpux = false;
    run_options ro;
    io_options *io = &c.io_opt;
    io_options_init(io);
    option_spec own[] = {
        { "compress", 'z', NULL, OPT_FLAG, NULL, &zstd, NULL, 0, 0,
          "write the general and detailed traces zstd-compressed (names end in .zst)" },
        { "gzip", 0, NULL, OPT_FLAG, NULL, &gzip, NULL, 0, 0,
          "write them gzip-compressed instead (names end in .gz)" },
        { "hpux", 0, "HPUX", OPT_FLAG, NULL, &hpux, NULL, 0, 0,
          "rr1/rr2 placement: pages in 0x40000000-0x7fffffff go to the first toucher's node" },
        { "private-range", 0, "private_range", OPT_CALL, "LO:HI", &c.ranges, private_ranges_parse, 0, 0,
          "rr1/rr2 placement: pages in LO:HI go to the first toucher's node (repeatable)" },
        { "handle-io", 0, NULL, OPT_FLAG, NULL, &io->handle, NULL, 0, 0,
          "simulate file reads and writes: I/O processors -1, -2, ... (docs/cdat-io.md)" },
        { "buffered-io", 0, NULL, OPT_FLAG, NULL, &io->buffered, NULL, 0, 0,
          "with -handle_io: DMA into a kernel buffer, the processor copies" },
        { "asynch-io", 0, NULL, OPT_FLAG, NULL, &io->asynch, NULL, 0, 0,
          "with -handle_io: processes never wait for the disk" },
        { "distributed-io", 0, NULL, OPT_FLAG, NULL, &io->distributed, NULL, 0, 0,
          "with -handle_io: each node's own I/O processor (default: node 0's for all)" },
        { "dma-bw", 0, NULL, OPT_CALL, "MB/S", &io->dma_bw, io_param_parse, 0, 0,
          "with -handle_io: DMA bandwidth, 1..1000000 MB/s (default 20)" },
        { "disk-latency", 0, NULL, OPT_CALL, "MS", &io->disk_latency, io_param_parse, 0, 0,
          "with -handle_io: disk latency, 0..1000000 ms (default 10)" },
        { "ipc", 0, NULL, OPT_CALL, "N", &io->ipc, io_param_parse, 0, 0,
          "with -handle_io: instructions per cycle, 1..1000 (default 2)" },
        { "mhz", 0, NULL, OPT_CALL, "N", &io->mhz, io_param_parse, 0, 0,
          "with -handle_io: processor clock, 1..100000 MHz (default 180)" },
        { "max-io-bytes", 0, NULL, OPT_CALL, "N", &io->max_bytes, io_param_parse, 0, 0,
          "with -handle_io: refuse a read or write of more than N bytes, 1..4294967296 (default 67108864)" },
        { 0 }
    };
    option_spec specs[RUN_OPTION_COUNT + sizeof own / sizeof *own];
    run_options_init(&ro, specs);
    memcpy(specs + RUN_OPTION_COUNT, own, sizeof own);
    char **ops = xcalloc((size_t)argc + 1, sizeof *ops);
    int nops = options_parse(specs, argc, argv, usage_text, ops);
    if (nops < (ro.trace_list ? 1 : 2))
        diag_usage_error("expects [calls.P] trace.P cfg_file, or -t trace_list cfg_file");
    const char *orphan = io_options_orphan(io);
    if (orphan) diag_usage_error("option %s works only with -handle_io", orphan);
    if (zstd && gzip) diag_usage_error("-z (zstd) and --gzip ask for two formats; give one");
    if (hpux) private_ranges_add_hpux(&c.ranges);

    trace_set ts;
    run_options_trace_set(&ro, ops, nops - 1, &ts);
    c.ts = &ts;
    c.out_dir = ro.out_dir;
    c.n = ts.count;
    config_load(ops[nops - 1], &c.cfg);
    unsigned nprocs = config_total_procs(&c.cfg);
    /* Thread mode maps threads to processors; slice mode maps its p
     * processors the same way (the [mapping] section numbers them). */
    c.slice_cpus = (int)ro.slice_cpus;
    int ncpu = c.slice_cpus ? c.slice_cpus : c.n;
    const char *what = c.slice_cpus ? "slice-mode processor" : "thread";
    c.proc_of = xcalloc((size_t)ncpu, sizeof *c.proc_of);
    for (int t = 0; t < ncpu; t++) {
        c.proc_of[t] = config_thread_proc(&c.cfg, t, ncpu);
        if (c.proc_of[t] < 0 && c.slice_cpus)
            diag_data_error(c.cfg.path, DIAG_NO_OFFSET, "-i %d but the machine has %u processor%s: map"
                            " %s %d (and every one from %u on) in [mapping], or give -i %u or less", ncpu,
                            nprocs, nprocs == 1 ? "" : "s", what, t, nprocs, nprocs);
        if (c.proc_of[t] < 0)
            diag_data_error(c.cfg.path, DIAG_NO_OFFSET, "%d traces but the machine has %u processor%s: map"
                            " thread %d (and every thread from %u on) in [mapping]", c.n, nprocs,
                            nprocs == 1 ? "" : "s", t, nprocs);
    }
    /* The node of each thread's processor, for placement by owner. A process
     * in slice mode may move: it counts as on processor t mod p, where
     * -rr_interleaving runs it. */
    int *thread_node = xcalloc((size_t)c.n, sizeof *thread_node);
    for (int t = 0; t < c.n; t++) thread_node[t] = c.proc_of[t % ncpu] / (int)c.cfg.procs_per_node;
    c.slot_of = xcalloc(nprocs, sizeof *c.slot_of);
    for (unsigned p = 0; p < nprocs; p++) c.slot_of[p] = c.slice_cpus ? 0 : (int)p;
    if (c.cfg.allocation == ALLOC_RR2 || c.cfg.allocation == ALLOC_ORACLE) load_memory_usage(&c);

    trace_reader_opts rdo = run_options_reader(&ro);
    trace_reader **readers = trace_set_open(&ts, &rdo);
    char *rep_path = trace_set_output_path(&ts, ro.out_dir, "cdat_report");

    placement_init(&c.pl, c.cfg.allocation, c.cfg.nodes, c.cfg.page_size, &c.ranges, &c.mu, thread_node, c.n);
    mach_init(&c.m, &c.cfg, &c.pl, on_seq, &c);
    c.m.tx_fields = c.cfg.general || c.cfg.detailed;    /* the counts need only the codes */
    io_init(&c.io, &c.m, io, on_io_copy, &c);
    traces_open(&c.tr, &c.m, io->handle ? c.io.nio : 0, c.cfg.general, c.cfg.detailed,
                zstd ? OUT_ZSTD : gzip ? OUT_GZIP : OUT_PLAIN, output_name, &c);
    c.rep = report_open(rep_path);
    c.phase = xcalloc((size_t)stats_slots(&c), sizeof *c.phase);
    c.total = xcalloc((size_t)stats_slots(&c), sizeof *c.total);
    c.running = xcalloc(nprocs, sizeof *c.running);
    c.idle_from = xcalloc(nprocs, sizeof *c.idle_from);
    c.io_phase = xcalloc(c.io.nio, sizeof *c.io_phase);
    c.io_total = xcalloc(c.io.nio, sizeof *c.io_total);

    sched_options so = run_options_sched(&ro);
    sched_hooks h = { .ctx = &c, .fetch = on_fetch, .fetch_run = on_fetch_run, .mem = on_mem,
                      .call = on_call, .phase_begin = on_phase_begin, .phase_end = on_phase_end,
                      .thread_stop = on_stop, .thread_resume = on_resume };
    c.s = sched_create(&ts, readers, &so, &h);
    sched_run(c.s);
    flush_idle(&c);
    aggregate_report(&c);

    report_standard_header(c.rep, argc, argv, &ts, readers);
    config_header(&c);
    report_slice_header(c.rep, &so);
    report_header(c.rep, " options: gap_limit %" PRIu64 " parallel_start %s lenient %s compress %s general %s"
                  " detailed %s", ro.gap_limit, ro.parallel_start ? "yes" : "no", ro.lenient ? "yes" : "no",
                  zstd ? "zstd" : gzip ? "gzip" : "no", c.cfg.general ? "yes" : "no",
                  c.cfg.detailed ? "yes" : "no");
    if (io->handle)
        report_header(c.rep, " io: handle_io yes buffered_io %s asynch_io %s distributed_io %s io_processors %u"
                      " dma_bw %" PRIu64 " disk_latency %" PRIu64 " ipc %" PRIu64 " mhz %" PRIu64,
                      io->buffered ? "yes" : "no", io->asynch ? "yes" : "no", io->distributed ? "yes" : "no",
                      c.io.nio, io->dma_bw.value, io->disk_latency.value, io->ipc.value, io->mhz.value);
    else
        report_header(c.rep, " io: handle_io no");
    for (int i = 0; i < c.ranges.n; i++)
        report_header(c.rep, " private_range 0x%08" PRIx32 ":0x%08" PRIx32, c.ranges.r[i].lo, c.ranges.r[i].hi);
    report_reader_problems(c.rep, &ts, readers);
    sched_problems sp = sched_problem_counts(c.s);
    report_header(c.rep, " scheduler: deadlocks_released %" PRIu64 " bad_unlocks %" PRIu64
                  " unprocessed_records %" PRIu64, sp.deadlocks, sp.bad_unlocks, sp.unprocessed);
    report_sync_header(c.rep, c.s);
    report_header(c.rep, " directory: lines %zu", dir_lines(&c.m.dir));

    /* Everything succeeded: make the outputs appear, all or none. */
    traces_finish(&c.tr);
    report_finish(c.rep);
    out_file_commit_all();

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
    free(c.idle_from);
    free(c.io_phase);
    free(c.io_total);
    free(c.proc_of);
    free(c.slot_of);
    free(thread_node);
    free(rep_path);
    trace_set_free(&ts);
    free(ops);
    return EXIT_OK;
}
