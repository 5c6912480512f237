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
#include "install_dirs.h"
#include "config.h"
#include "contention.h"
#include "io.h"
#include "machine.h"
#include "partial.h"
#include "placement.h"
#include "stats.h"
#include "traces.h"
#include "../common/attribution.h"
#include "../base/diag.h"
#include "../common/out_file.h"
#include "../common/path.h"
#include "../common/private_ranges.h"
#include "../common/report.h"
#include "../common/fanout.h"
#include "../common/consumer_loops.h"
#include "../common/scheduler.h"
#include "../common/tool.h"
#include "../formats/memusage.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "Usage: cdat [options] [calls.P] trace.P cfg_file [cfg_file ...]\n"
    "       cdat [options] [-c call_list] -t trace_list cfg_file [cfg_file ...]\n"
    "       cdat --merge [-o DIR] PREFIX.cdat_partial.I-of-N ...\n"
    "\n"
    "Simulates a distributed-shared-memory machine (cfg_file, an INI file,\n"
    "cdat-config(5); a name like 4x4 is also looked up as 4x4.ini in\n"
    "" DSM_DATADIR "/configs and then in the source tree's configs/;\n"
    "--set SECTION.KEY=VALUE sets a key over it, or makes the whole machine\n"
    "without one) running the trace set: per-processor caches, a\n"
    "full-map directory protocol (8 variants), page placement. Writes\n"
    "<prefix>.cdat_report and, as the configuration's [output] asks, the general\n"
    "traces <prefix>.general.<n> and the detailed trace <prefix>.detailed, beside\n"
    "the traces or into -o DIR (an existing directory). Several configurations\n"
    "(or --sweep) are simulated in one pass over the traces, each machine on its\n"
    "own thread while processors are free, with the results of separate runs;\n"
    "their outputs are named <prefix>.<cfg name>.cdat_report, ... (--name NAME\n"
    "names one run's). A [timing] section prices the misses (line L19); with\n"
    "mode = feedback the stalls also move the processors' clocks, so the order\n"
    "of the references is the simulated machine's (one configuration a run).\n"
    "Documents (in " DSM_DOCDIR ", or the source\n"
    "tree): report lines docs/cdat-report.md; protocol docs/cdat-protocol.md;\n"
    "I/O simulation (-handle_io) docs/cdat-io.md; trace formats\n"
    "formats/CDAT-TRACES.md (cdat-traces(5)); --json docs/json.md; --jobs,\n"
    "--shard, --merge docs/sharding.md, formats/CDAT-PARTIAL.md (cdat-partial(5)).\n"
    "Exit status: 0 ok, 1 usage error, 2 bad input, 3 internal error.\n";

typedef struct cdat cdat;
struct cdat {
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
    int *thread_node;           /* per thread: the node of its processor (placement by owner) */
    scheduler *s;
    miss_class *mc;             /* --miss-classes, else NULL */
    cpu_stats *phase, *total;   /* per stats slot */
    cpu_stats *io_phase, *io_total;     /* per I/O processor k, at k - 1 */
    io_options io_opt;
    io_sim io;
    cdat_traces tr;
    report *rep;
    const tool *t;
    const char *name;           /* the name part of the outputs; NULL: none */
    int phases;
    uint64_t end_clock;
    uint64_t est_time;          /* [timing]: the phases' estimated times so far */
    uint64_t phase_clock;       /* the pseudo clock at the phase's start */
    contention *ct;             /* [timing] bank_busy, link_busy: the queues (L19 queue, L24); else NULL */
    /* [timing] mode = feedback: each reference's stall moves its thread's
     * clock on (sched_stall); fb_prev: per stats slot, the stall of the
     * phase's references priced so far. */
    bool feedback;
    uint64_t *fb_prev;
    /* --by-code, --by-data, --miss-trace (they classify misses, so c->mc is
     * set; L17/L18 only with --miss-classes): figures per pc and address,
     * the miss stream, per thread the pc of the last fetch and its clock, and
     * the pc of the data access being simulated. */
    bool show_classes;
    miss_class *mc2;            /* --miss-classes with an L2: its misses' classes (L25); else NULL */
    bool attr_on;
    attr *acode, *adata;
    const addr_map *amap;
    out_file *mtrace;
    out_file *din;              /* --din FILE: every reference, in Dinero IV's din format */
    out_file *annotated;        /* --annotate */
    attr_pcs pcs;
    uint64_t cur_pc;
    /* --jobs N: this machine simulates the lines whose number mod N is
     * part_i (part_mask = N - 1, N a power of two dividing every cache's
     * sets); parts[0 … N-1] are all of them, parts[0] writes the report. */
    uint32_t part_i, part_n, part_mask;
    cdat *parts;
    /* --shard I/N: this process simulates part I of N as a --jobs part
     * does (parts NULL) and writes its partial result (partial.h). */
    bool shard;
    out_file *partial;
    /* A part's place in the whole run's order, for its keyed traces
     * (traces.h): the references so far (instruction fetches and data
     * accesses, every part's, alike in every part whatever the scheduler's
     * batching) and the line's index in the reference being simulated. */
    uint64_t ord_ref;
    uint32_t ord_line;
    FILE *part_traces;          /* --shard with traces: the keyed records so far */
    /* --speedup: uni marks the machine of one processor beside a
     * configuration's (no outputs; its report is detached), simulated in a
     * second pass in turns (docs/scheduler.md §14), whose estimated time the
     * configuration's machine gets as uni_time at the end, with the turn's
     * length as uni_turn. */
    bool uni;
    uint64_t uni_time, uni_turn;
};

enum { FIG_MISSES, FIG_REMOTE, FIG_FALSE, FIG_L2_MISSES };
enum { CDAT_JOBS_MAX = 64 };
/* With an L2 a fourth figure: the L1 misses the L2 missed too (L22's misses). */
static const char *const fig_names[] = { "misses", "remote", "false_sharing", "l2_misses" };
static const char *const class_names[MC_CLASSES] = { "cold", "capacity", "conflict", "true_sharing", "false_sharing" };
static const char *const source_names[SRC_COUNT] = { "local_memory", "local_cache", "remote_memory", "remote_cache",
                                                     "l2", "local_l3", "remote_l3" };

/* ---- simulation hooks ---- */

static void on_seq(void *ctx, const mach_seq *q)
{
    cdat *c = ctx;
    stats_seq(q->requester >= 0 ? &c->phase[c->slot_of[q->requester]] : &c->io_phase[-q->requester - 1], q);
    if (c->m.tx_fields) traces_seq(&c->tr, q);
}

/* With contention (set once, at mach_init: without it nothing here runs): a
 * processor's request arrives at the banks and links at its accounted time:
 * the phase's start (the estimated time of the ended phases: every
 * processor starts a phase together, as after a barrier), plus its pseudo
 * clock since, plus the stall of its earlier references and waits in the
 * phase; its waits join its stall (feedback: its clock, which holds all
 * that, plus what the reference being made has counted so far). Slice mode
 * and -handle_io are refused with contention, so the requester is a
 * processor and its slot is itself. */
static void on_seq_contention(void *ctx, const mach_seq *q)
{
    cdat *c = ctx;
    cpu_stats *st = &c->phase[q->requester];
    uint64_t by[TIMING_KEYS];
    uint64_t stall = stats_stall(st, &c->cfg.timing, by);
    /* Feedback: the clock is the processor's time, less this reference's stall so far. */
    uint64_t t = c->feedback ? q->clock + (stall - c->fb_prev[q->requester])
                             : c->est_time + (q->clock > c->phase_clock ? q->clock - c->phase_clock : 0) + stall;
    st->queue += contention_seq(c->ct, q, t);
    on_seq(ctx, q);
}

static inline cpu_stats *stats_of(cdat *c, int p) { return &c->phase[c->slot_of[p]]; }

/* A reference's counts; hits (most references) touch nothing else. */
static inline void count_ref(cpu_stats *st, ref_counts *rc, mach_ref r)
{
    ref_count(rc, r);
    if (__builtin_expect((r.silent | r.l2) != 0, 0)) {     /* one test for the rare fields */
        st->silent += r.silent;
        if (r.l2) stats_l2(st, r);
    }
}

/* The hooks below handle the common reference inline: one the machine calls
 * a hit (mach_hit) only adds to the hit count. Everything else goes through
 * the machine in the out-of-line *_slow functions, so the hit path stays a
 * small leaf function. */

static __attribute__((noinline)) void fetch_slow(cdat *c, int p, uint64_t clock, uint32_t line)
{
    cpu_stats *st = stats_of(c, p);
    count_ref(st, &st->instr, mach_fetch(&c->m, p, clock, line));
}

/* Feedback ([timing] mode = feedback): after a reference of thread t on
 * processor p that was no plain hit, its stall (what it added to the
 * processor's priced stall, L19) moves t's clock on. Returns it. A hit adds
 * nothing, so the hit paths skip this. */
static __attribute__((noinline)) uint64_t feedback_stall(cdat *c, int t, int p)
{
    uint64_t by[TIMING_KEYS];
    int slot = c->slot_of[p];
    uint64_t now = stats_stall(&c->phase[slot], &c->cfg.timing, by), d = now - c->fb_prev[slot];
    c->fb_prev[slot] = now;
    if (d) sched_stall(c->s, t, d);
    return d;
}

/* fb: a constant, true in the feedback hooks only (the others compile as
 * without it). */
static inline __attribute__((always_inline)) void
on_fetch_with(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, const bool fb)
{
    cdat *c = ctx;
    int p = c->proc_of[cpu];
    uint32_t line = mach_line(&c->m, addr);
    if (__builtin_expect(mach_hit(&c->m, p, line, MACH_IFETCH), 1)) {
        stats_of(c, p)->instr.hits++;
        return;
    }
    fetch_slow(c, p, clock, line);
    if (fb) feedback_stall(c, t, p);
}

static inline __attribute__((always_inline)) void on_fetch(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    on_fetch_with(ctx, t, cpu, clock, addr, false);
}

/* n instructions at addr, addr+4, …: after the first fetch of a line the
 * rest of the line hits (only fetches change the i-cache). */
static inline __attribute__((always_inline)) void
on_fetch_run_with(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n, const bool fb)
{
    cdat *c = ctx;
    int p = c->proc_of[cpu];
    unsigned shift = c->m.line_shift;
    uint64_t hits = 0;
    while (n) {
        uint32_t line = addr >> shift;
        uint64_t in_line = (((uint64_t)line + 1) << shift) - addr;
        uint32_t k = (uint32_t)((in_line + ISTREAM_INSN_BYTES - 1) / ISTREAM_INSN_BYTES);
        if (k > n) k = n;
        if (!FAST_PATHS) k = 1;                 /* every fetch through the machine */
        if (__builtin_expect(mach_hit(&c->m, p, line, MACH_IFETCH), 1)) {
            hits += k;
        } else {
            fetch_slow(c, p, clock, line);
            if (fb) clock += feedback_stall(c, t, p);   /* the run's later fetches wait for it */
            hits += k - 1;
        }
        n -= k;
        clock += k;
        addr += k * ISTREAM_INSN_BYTES;
    }
    stats_of(c, p)->instr.hits += hits;
}

static inline __attribute__((always_inline)) void
on_fetch_run(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n)
{
    on_fetch_run_with(ctx, t, cpu, clock, addr, n, false);
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

/* A reference within one line that the hit check did not make a hit (st:
 * what mach_data_probe found): the rest goes on from there. */
static __attribute__((noinline)) void mem_line_slow(cdat *c, int p, uint64_t clock, uint32_t line, bool store,
                                                    cache_state st)
{
    cpu_stats *s = stats_of(c, p);
    count_ref(s, &s->data, mach_data_rest(&c->m, p, clock, line, store, st));
}

static inline __attribute__((always_inline)) void
on_mem_with(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec, const bool fb)
{
    cdat *c = ctx;
    uint32_t f1 = rec->f1, addr = rec->f2;
    unsigned access = smait_mem_access(f1);
    int p = c->proc_of[cpu];
    uint32_t line = mach_line(&c->m, addr);
    /* The first and last byte (wrapping past 2^32 as mem_slow does) in different lines? */
    if (!FAST_PATHS ||
        __builtin_expect(((addr + smait_size_last_byte(smait_mem_size_code(f1))) ^ addr) >> c->m.line_shift, 0)) {
        mem_slow(c, p, clock, addr, smait_size_bytes(smait_mem_size_code(f1)), access);
        if (fb) feedback_stall(c, t, p);
        return;
    }
    /* Within one line: a load, or a store or atomic to a dirty line, that hits needs nothing else. */
    bool store = access != SMAIT_LOAD;
    cache_state st = mach_data_probe(&c->m, p, line);
    if (__builtin_expect(mach_data_hits(st, store), 1)) {
        stats_of(c, p)->data.hits++;
        return;
    }
    mem_line_slow(c, p, clock, line, store, st);
    if (fb) feedback_stall(c, t, p);
}

static inline __attribute__((always_inline)) void on_mem(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    on_mem_with(ctx, t, cpu, clock, rec, false);
}

/* The feedback hooks: the plain ones, each stall sent back to the scheduler. */
static inline __attribute__((always_inline)) void on_fetch_fb(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    on_fetch_with(ctx, t, cpu, clock, addr, true);
}

static inline __attribute__((always_inline)) void
on_fetch_run_fb(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n)
{
    on_fetch_run_with(ctx, t, cpu, clock, addr, n, true);
}

static inline __attribute__((always_inline)) void on_mem_fb(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    on_mem_with(ctx, t, cpu, clock, rec, true);
}

/* The look-ahead: a data access AHEAD_RECORDS records on in the same trace
 * (on one thread: the scheduler's), or events on in the order the machine
 * sees them (beside the scheduler: common/fanout.h). Its miss, if it misses,
 * will read the directory first. */
enum { AHEAD_RECORDS = 16 };
static void on_ahead(void *ctx, int t, int cpu, const smait_raw *rec)
{
    (void)t;
    FANOUT_HINT_KEEP();
    cdat *c = ctx;
    uint32_t line = mach_line(&c->m, rec->f2);
    mach_prefetch(&c->m, line);
    if (c->m.l2) mach_prefetch_l2(&c->m, c->proc_of[cpu], line);
}

/* ---- --jobs N: one part of the lines ---- */

/* Whether line is this part's; a line of another part still places its
 * page at the page's first access, as the whole run does at that access's
 * miss (placement.h), so every part places every page alike. */
static inline bool part_line(cdat *c, int p, uint32_t line)
{
    if ((line & c->part_mask) == c->part_i) return true;
    placement_page(&c->pl, line << c->m.line_shift, c->m.p[p].node);
    return false;
}

static void on_fetch_part(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    cdat *c = ctx;
    int p = c->proc_of[cpu];
    c->ord_ref++;
    c->ord_line = 0;
    if (part_line(c, p, mach_line(&c->m, addr))) on_fetch(ctx, t, cpu, clock, addr);
}

/* As on_fetch_run, line by line: the part's lines as there. */
static void on_fetch_run_part(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n)
{
    cdat *c = ctx;
    int p = c->proc_of[cpu];
    unsigned shift = c->m.line_shift;
    while (n) {
        uint32_t line = addr >> shift;
        uint64_t in_line = (((uint64_t)line + 1) << shift) - addr;
        uint32_t k = (uint32_t)((in_line + ISTREAM_INSN_BYTES - 1) / ISTREAM_INSN_BYTES);
        if (k > n) k = n;
        c->ord_ref++;                           /* the line's first fetch, the one that may miss */
        c->ord_line = 0;
        if (part_line(c, p, line)) on_fetch_run(ctx, t, cpu, clock, addr, k);
        c->ord_ref += k - 1;
        n -= k;
        clock += k;
        addr += k * ISTREAM_INSN_BYTES;
    }
}

/* As data_access, the part's lines only. */
static void on_mem_part(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    (void)t;
    cdat *c = ctx;
    int p = c->proc_of[cpu];
    uint32_t addr = rec->f2;
    unsigned size = smait_size_bytes(smait_mem_size_code(rec->f1));
    bool store = smait_mem_access(rec->f1) != SMAIT_LOAD;
    uint32_t first = mach_line(&c->m, addr);
    uint32_t last = mach_line(&c->m, (uint32_t)((uint64_t)addr + (size ? size - 1 : 0)));
    if (last < first) last = first;             /* wraps past 2^32: the first line only */
    cpu_stats *st = stats_of(c, p);
    c->ord_ref++;
    for (uint32_t l = first;; l++) {
        c->ord_line = l - first;
        if (part_line(c, p, l))
            count_ref(st, &st->data, store ? mach_store(&c->m, p, clock, l) : mach_load(&c->m, p, clock, l));
        if (l == last) break;
    }
}

static void on_ahead_part(void *ctx, int t, int cpu, const smait_raw *rec)
{
    cdat *c = ctx;
    if ((mach_line(&c->m, rec->f2) & c->part_mask) == c->part_i) on_ahead(ctx, t, cpu, rec);
}

/* ---- --din FILE: the references, as Dinero IV reads them ----
 *
 * One line "LABEL ADDRESS" per reference the machine sees, in simulation
 * order: LABEL 0 a load, 1 a store (or atomic), 2 an instruction fetch;
 * ADDRESS in hex, the first byte the reference touches in its line (a data
 * access spanning lines is a reference per line). Then the plain hooks. */

static void din_line(cdat *c, int label, uint32_t addr)
{
    out_file_printf(c->din, "%d %" PRIx32 "\n", label, addr);
}

static void on_fetch_din(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    din_line(ctx, 2, addr);
    on_fetch(ctx, t, cpu, clock, addr);
}

static void on_fetch_run_din(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) din_line(ctx, 2, addr + k * ISTREAM_INSN_BYTES);
    on_fetch_run(ctx, t, cpu, clock, addr, n);
}

static void on_mem_din(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    cdat *c = ctx;
    uint32_t addr = rec->f2;
    unsigned size = smait_size_bytes(smait_mem_size_code(rec->f1));
    int label = smait_mem_access(rec->f1) != SMAIT_LOAD;
    uint32_t first = mach_line(&c->m, addr);
    uint32_t last = mach_line(&c->m, (uint32_t)((uint64_t)addr + (size ? size - 1 : 0)));
    if (last < first) last = first;             /* wraps past 2^32: the first line only, as data_access */
    for (uint32_t l = first;; l++) {
        din_line(c, label, l == first ? addr : l << c->m.line_shift);
        if (l == last) break;
    }
    on_mem(ctx, t, cpu, clock, rec);
}

/* -buffered_io: one access of a processor's copy to or from a kernel buffer. */
static void data_access_classified(cdat *c, int p, uint64_t clock, uint32_t addr, unsigned size, bool store);

static void on_io_copy(void *ctx, int p, uint64_t clock, uint32_t addr, unsigned size, bool store)
{
    cdat *c = ctx;
    c->cur_pc = ATTR_UNKNOWN;                   /* the kernel's copy: no pc of the program */
    if (c->mc) data_access_classified(c, p, clock, addr, size, store);
    else data_access(c, p, clock, addr, size, store);
}

/* A miss of processor p (stream MC_DATA or MC_INSTR) of class cls: to the
 * tables of --by-code (the pc) and --by-data (data misses: the address), and
 * a line of --miss-trace. */
static __attribute__((noinline)) void note_miss(cdat *c, int p, uint64_t clock, int stream, uint64_t pc,
                                                 uint32_t addr, int cls, mach_ref r)
{
    bool remote = r.source == SRC_REMOTE_MEMORY || r.source == SRC_REMOTE_CACHE || r.source == SRC_REMOTE_L3;
    bool l2_miss = c->m.l2 && (r.l2 & L2_ACCESS) == L2_MISS;
    if (c->acode) {
        attr_add(c->acode, pc, FIG_MISSES);
        if (remote) attr_add(c->acode, pc, FIG_REMOTE);
        if (cls == MC_FALSE) attr_add(c->acode, pc, FIG_FALSE);
        if (l2_miss) attr_add(c->acode, pc, FIG_L2_MISSES);
    }
    if (c->adata && stream == MC_DATA) {
        uint64_t key = attr_data_key(c->amap, addr, c->cfg.line_size);
        attr_add(c->adata, key, FIG_MISSES);
        if (remote) attr_add(c->adata, key, FIG_REMOTE);
        if (cls == MC_FALSE) attr_add(c->adata, key, FIG_FALSE);
        if (l2_miss) attr_add(c->adata, key, FIG_L2_MISSES);
    }
    if (c->mtrace) {
        char pcs[16];
        if (pc == ATTR_UNKNOWN) snprintf(pcs, sizeof pcs, "-");
        else snprintf(pcs, sizeof pcs, "0x%08" PRIx32, (uint32_t)pc);
        out_file_printf(c->mtrace, "%" PRIu64 " %d %s %s 0x%08" PRIx32 " %s %s\n", clock, p,
                        stream == MC_DATA ? "d" : "i", pcs, addr, class_names[cls], source_names[r.source]);
    }
}

/* --miss-classes: the same references, each also shown to the miss
 * taxonomy (miss_class.h), which must see hits too (its shadow LRU cache).
 * These hooks replace the ones above, so those stay as they are. */

/* The class of the L2 miss the reference just made, if it made one (L25). */
static inline void l2_classified(cdat *c, cpu_stats *st)
{
    if (c->m.l2_class) st->l2cls[c->m.l2_class - 1]++;
    c->m.l2_class = 0;
}

static void fetch_classified(cdat *c, int p, uint64_t clock, uint32_t addr)
{
    cpu_stats *st = stats_of(c, p);
    uint32_t line = mach_line(&c->m, addr);
    unsigned off = addr & ((1u << c->m.line_shift) - 1);
    uint64_t words = mc_words(c->mc, off, off + ISTREAM_INSN_BYTES - 1);
    c->m.ref_words = words;                     /* for the L2's classification (L25) */
    mach_ref r = mach_fetch(&c->m, p, clock, line);
    count_ref(st, &st->instr, r);
    l2_classified(c, st);
    int cls = mc_ref(c->mc, (unsigned)p, MC_INSTR, line, words, r.outcome == REF_MISS);
    if (cls >= 0) st->cls[MC_INSTR][cls]++;
    if (cls >= 0 && c->attr_on) note_miss(c, p, clock, MC_INSTR, addr, addr, cls, r);
}

/* With feedback (no attribution then: its pcs are found by clock), every
 * reference's stall goes back to the scheduler: a hit's is 0. */
static void on_fetch_classified(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    cdat *c = ctx;
    if (c->attr_on) attr_pcs_fetch(&c->pcs, t, clock, addr);
    fetch_classified(c, c->proc_of[cpu], clock, addr);
    if (c->feedback) feedback_stall(c, t, c->proc_of[cpu]);
}

/* As on_fetch_run: the rest of a line after its first fetch hits, and
 * leaves both the cache and the shadow as they are (the line is their MRU). */
static void on_fetch_run_classified(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n)
{
    cdat *c = ctx;
    int p = c->proc_of[cpu];
    unsigned shift = c->m.line_shift;
    if (c->attr_on) attr_pcs_run(&c->pcs, t, clock, addr, n);
    while (n) {
        uint32_t line = addr >> shift;
        uint64_t in_line = (((uint64_t)line + 1) << shift) - addr;
        uint32_t k = (uint32_t)((in_line + ISTREAM_INSN_BYTES - 1) / ISTREAM_INSN_BYTES);
        if (k > n) k = n;
        fetch_classified(c, p, clock, addr);
        if (c->feedback) clock += feedback_stall(c, t, p);
        stats_of(c, p)->instr.hits += k - 1;
        n -= k;
        clock += k;
        addr += k * ISTREAM_INSN_BYTES;
    }
}

/* As data_access, one reference per line, each with the words it touches. */
static void data_access_classified(cdat *c, int p, uint64_t clock, uint32_t addr, unsigned size, bool store)
{
    unsigned shift = c->m.line_shift;
    uint32_t in_line = (1u << shift) - 1;
    uint64_t end = (uint64_t)addr + (size ? size - 1 : 0);
    if (end > UINT32_MAX) end = (uint64_t)addr | in_line;      /* wraps past 2^32: the first line only */
    uint32_t first = mach_line(&c->m, addr), last = mach_line(&c->m, (uint32_t)end);
    cpu_stats *st = stats_of(c, p);
    for (uint32_t l = first;; l++) {
        uint64_t base = (uint64_t)l << shift;
        unsigned lo = l == first ? addr & in_line : 0, hi = l == last ? (unsigned)(end - base) : in_line;
        uint64_t words = mc_words(c->mc, lo, hi);
        c->m.ref_words = words;
        mach_ref r = store ? mach_store(&c->m, p, clock, l) : mach_load(&c->m, p, clock, l);
        count_ref(st, &st->data, r);
        l2_classified(c, st);
        int cls = mc_ref(c->mc, (unsigned)p, MC_DATA, l, words, r.outcome == REF_MISS);
        if (cls >= 0) st->cls[MC_DATA][cls]++;
        if (cls >= 0 && c->attr_on) note_miss(c, p, clock, MC_DATA, c->cur_pc, (uint32_t)(base + lo), cls, r);
        if (store) mc_write(c->mc, (unsigned)p, l, words);
        if (store && c->mc2) mc_write(c->mc2, (unsigned)p, l, words);
        if (l == last) break;
    }
}

static void on_mem_classified(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    cdat *c = ctx;
    unsigned access = smait_mem_access(rec->f1);
    if (c->attr_on) c->cur_pc = attr_pcs_at(&c->pcs, t, clock);
    data_access_classified(c, c->proc_of[cpu], clock, rec->f2, smait_size_bytes(smait_mem_size_code(rec->f1)),
                           access != SMAIT_LOAD);
    if (c->feedback) feedback_stall(c, t, c->proc_of[cpu]);
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
    c->phase_clock = ph->start_clock;
    /* Every processor starts the phase together; with feedback at its clock,
     * but for a marker's phase, whose start moved no clock (the processors
     * behind it go on from theirs: their arrivals may come before it). */
    if (c->ct && !c->feedback) contention_phase(c->ct, c->est_time);
    if (c->ct && c->feedback && ph->by != PHASE_BY_MARKER) contention_phase(c->ct, ph->start_clock);
    memset(c->phase, 0, (size_t)stats_slots(c) * sizeof *c->phase);
    if (c->feedback) memset(c->fb_prev, 0, (size_t)stats_slots(c) * sizeof *c->fb_prev);
    memset(c->io_phase, 0, c->io.nio * sizeof *c->io_phase);
}

/* Tx's lines: L05 too under -handle_io (every I/O processor together). */
static unsigned tx_lines(const cdat *c)
{
    return STATS_PROC | (c->io_opt.handle ? STATS_IO : 0) | (c->show_classes ? STATS_CLASSES : 0) |
           (c->mc2 ? STATS_L2_CLASSES : 0) |
           (c->m.l2 ? STATS_L2 : 0) | (c->m.l3 ? STATS_L3 : 0);
}

/* Per processor, then per I/O processor (-1, -2, …), then Tx: the lines of
 * those with anything to show; total (when not NULL) gets them added. */
/* Per processor (slice mode: per process), then per I/O processor (-1, -2,
 * …), then, in slice mode, each processor's L14, then Tx: the lines of those
 * with anything to show; total (when not NULL) gets them added. */
static void report_block(cdat *c, int phase, const cpu_stats *procs, const cpu_stats *ios, cpu_stats *total,
                         cpu_stats *io_total, uint64_t span)
{
    cpu_stats *sum = xcalloc(1, sizeof *sum);
    unsigned own = STATS_PROC | (c->slice_cpus ? STATS_NO_CPU : 0) | (c->show_classes ? STATS_CLASSES : 0) |
                   (c->mc2 ? STATS_L2_CLASSES : 0) |
                   (c->m.l2 ? STATS_L2 : 0) | (c->m.l3 ? STATS_L3 : 0);
    const cdat_timing *tm = c->cfg.timing.on ? &c->cfg.timing : NULL;
    uint64_t slowest = 0;                       /* [timing]: the largest busy + stall */
    for (int p = 0; p < stats_slots(c); p++) {
        if (!stats_any(&procs[p])) continue;
        stats_report(c->rep, phase, p, &procs[p], own);
        if (tm) {
            uint64_t x = stats_time_line(c->rep, phase, p, &procs[p], tm, UINT64_MAX, c->m.l2, c->m.l3);
            if (x > slowest) slowest = x;
        }
        stats_add(sum, &procs[p]);
        if (total) stats_add(&total[p], &procs[p]);
    }
    for (unsigned k = 0; k < c->io.nio; k++) {
        if (!stats_any(&ios[k])) continue;
        stats_report(c->rep, phase, -(int)k - 1, &ios[k], STATS_IO | (c->m.l3 ? STATS_L3 : 0));
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
    if (c->m.l3) stats_l3_lines(c->rep, phase, sum, c->m.nodes);
    if (tm) {
        /* A phase ends when its slowest processor does; the run is its phases
         * one after another. Feedback: the phase's span of the clocks, which
         * hold every stall and every wait for another processor. */
        if (c->feedback) slowest = span;
        if (phase != REPORT_ALL_PHASES) c->est_time += slowest;
        stats_time_line(c->rep, phase, REPORT_ALL_THREADS, sum, tm, phase == REPORT_ALL_PHASES ? c->est_time : slowest,
                        c->m.l2, c->m.l3);
    }
    free(sum);
}

/* A phase's lines from its counts (the processors' time added). */
static void phase_report(cdat *c, const sched_phase *ph)
{
    tool_phase_line(c->rep, ph);
    report_block(c, ph->number, c->phase, c->io_phase, c->total, c->io_total, ph->end_clock - ph->start_clock);
    c->phases = ph->number;
    c->end_clock = ph->end_clock;
}

static void on_phase_end(void *ctx, const sched_phase *ph)
{
    cdat *c = ctx;
    /* --jobs: the fanout calls the parts' phase hooks one after another, on
     * one thread (common/fanout.h); the last adds every part's counts to
     * part 0's, which writes them. The processors' time is part 0's alone. */
    if (c->parts) {
        if (c->part_i + 1 < c->part_n) return;
        cdat *lead = &c->parts[0];
        for (uint32_t k = 1; k < c->part_n; k++)
            for (int p = 0; p < stats_slots(c); p++) stats_add(&lead->phase[p], &c->parts[k].phase[p]);
        c = lead;
    }
    int slots = stats_slots(c);
    uint64_t *active = xcalloc(2 * (size_t)slots, sizeof *active), *idle = active + slots;
    for (int t = 0; t < c->n && !c->slice_cpus; t++) {
        const sched_counts *sc = sched_phase_counts(c->s, t);
        active[c->proc_of[t]] += sc->is.executed;
        idle[c->proc_of[t]] += sc->sync_idle + sc->phase_end_idle + sc->io_idle;
    }
    if (c->partial) {                           /* --shard: the part's counts, summed at --merge */
        cdat_partial_phase(c->partial, ph, c->phase, (unsigned)slots, active, idle);
    } else {
        for (int p = 0; p < slots; p++) {
            c->phase[p].active += active[p];
            c->phase[p].idle += idle[p];
        }
        phase_report(c, ph);
    }
    free(active);
}

/* Line L16's texts: the pages placed on each node, and with rr2 or oracle
 * the replicated and unlisted pages. */
static void placement_lines(const cdat *c, void (*emit)(void *ctx, const char *text), void *ctx)
{
    char buf[96];
    for (unsigned n = 0; n < c->m.nodes; n++) {
        snprintf(buf, sizeof buf, "node %u pages %" PRIu64, n, c->pl.pages[n]);
        emit(ctx, buf);
    }
    if (c->cfg.allocation == ALLOC_RR2 || c->cfg.allocation == ALLOC_ORACLE) {
        snprintf(buf, sizeof buf, "replicated pages %" PRIu64, c->pl.replicated);
        emit(ctx, buf);
        snprintf(buf, sizeof buf, "unlisted pages %" PRIu64, c->pl.unlisted);
        emit(ctx, buf);
    }
}

static void placement_to_report(void *ctx, const char *text)
{
    report_line(ctx, REPORT_ALL_PHASES, REPORT_ALL_THREADS, 16, "placement", "%s", text);
}

/* The whole run's L00 and block. */
static void run_block(cdat *c)
{
    tool_run_line(c->rep, c->phases, c->end_clock, c->n);
    report_block(c, REPORT_ALL_PHASES, c->total, c->io_total, NULL, NULL, 0);
}

static void aggregate_report(cdat *c)
{
    run_block(c);
    placement_lines(c, placement_to_report, c->rep);
    if (c->ct) contention_report(c->rep, c->ct, c->est_time);
}

/* The mapping in force: the policy, and the nodes no thread runs on (with
 * policy compact, a few threads on a big machine leave every other node idle: its
 * remote-miss figures are then no NUMA result). */
static void mapping_header(cdat *c)
{
    const cdat_config *g = &c->cfg;
    int ncpu = c->slice_cpus ? c->slice_cpus : c->n;
    bool *used = xcalloc(g->nodes, sizeof *used);
    unsigned nused = 0;
    for (int k = 0; k < ncpu; k++) {
        unsigned node = (unsigned)c->m.p[c->proc_of[k]].node;
        if (!used[node]) nused++;
        used[node] = true;
    }
    char list[CFG_MAX_NODES * 4 + 1] = "";
    size_t len = 0;
    for (unsigned n = 0; n < g->nodes; n++)
        if (!used[n]) len += (size_t)snprintf(list + len, sizeof list - len, "%s%u", len ? "," : "", n);
    bool explicit = false;
    for (unsigned k = 0; k < g->map_len; k++) explicit |= g->map_node[k] >= 0;
    report_header(c->rep, " mapping: policy %s%s nodes_used %u of %u%s%s", config_map_policy_name(g->map_policy),
                  explicit ? " with [mapping] entries" : "", nused, g->nodes,
                  nused < g->nodes ? " unused_nodes " : "", list);
    free(used);
}

/* One cache's header line: "# NAME: size N assoc W|full" then extra, then
 * its replacement policy unless LRU (a configuration without the key gives
 * the lines it always gave). */
static void cache_header(report *r, const char *name, const cache_config *cc, const char *extra)
{
    char ways[16] = "full";
    if (cc->assoc) snprintf(ways, sizeof ways, "%u", cc->assoc);
    report_header(r, " %s: size %" PRIu64 " assoc %s%s%s%s", name, cc->size, ways, extra,
                  cc->replacement ? " replacement " : "", cc->replacement ? config_replacement_name(cc->replacement) : "");
}

static void config_header(cdat *c)
{
    const cdat_config *g = &c->cfg;
    bool a, er, dt;
    mach_protocol_switches(g->protocol, &a, &er, &dt);
    if (g->path) report_header(c->rep, " configuration: %s", g->path);
    else report_header(c->rep, " configuration: none (--set only)");
    for (unsigned k = 0; k < g->nsets; k++) report_header(c->rep, " set: %s", g->sets[k]);
    report_header(c->rep, " machine: nodes %u procs_per_node %u banks_per_node %u line_size %u page_size %u",
                  g->nodes, g->procs_per_node, g->banks_per_node, g->line_size, g->page_size);
    report_header(c->rep, " protocol: %u (remote_lines %s exclusive_replacement %s direct_transactions %s)",
                  g->protocol, a ? "maybe_exclusive" : "shared", er ? "announced" : "not_announced",
                  dt ? "yes" : "no");
    report_header(c->rep, " allocation: %s%s%s", config_allocation_name(g->allocation),
                  g->memory_usage ? " memory_usage " : "", g->memory_usage ? g->memory_usage : "");
    const cache_config *cc[3] = { &g->dcache, &g->icache, &g->icc };
    static const char *const names[3] = { "dcache", "icache", "interconnect_cache" };
    for (int i = 0; i < 3; i++)
        cache_header(c->rep, names[i], cc[i], i == 0 && g->dcache_write_through ? " write_policy through" : "");
    if (g->l2.size) {
        char incl[48];
        snprintf(incl, sizeof incl, " inclusion %s", config_inclusion_name(g->l2_inclusion));
        cache_header(c->rep, "l2", &g->l2, incl);
    }
    if (g->l3.size) cache_header(c->rep, "l3", &g->l3, "");
    mapping_header(c);
    if (g->timing.on) {
        char buf[256];
        size_t len = 0;
        for (int k = 0; k < TIMING_KEYS; k++)
            if ((k != TIMING_L2_HIT || g->l2.size) && ((k != TIMING_LOCAL_L3 && k != TIMING_REMOTE_L3) || g->l3.size))
                len += (size_t)snprintf(buf + len, sizeof buf - len, " %s %u", config_timing_keys[k],
                                        g->timing.cycles[k]);
        if (config_contention(&g->timing))
            snprintf(buf + len, sizeof buf - len, " bank_busy %u link_busy %u", g->timing.bank_busy,
                     g->timing.link_busy);
        report_header(c->rep, " timing: %s%s", g->timing.feedback ? "feedback" : "accounting", buf);
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
    if (!c->name) return tool_output_path(c->t, suffix);
    size_t n = strlen(c->name) + strlen(suffix) + 2;
    char *named = xmalloc(n);
    snprintf(named, n, "%s.%s", c->name, suffix);
    char *path = tool_output_path(c->t, named);
    free(named);
    return path;
}

static void load_memory_usage(cdat *c)
{
    const char *path = c->cfg.memory_usage;
    const char *cfg_name = c->cfg.path ? c->cfg.path : "the configuration";
    char why[256];
    if (!memusage_read(path, &c->mu, why, sizeof why))
        diag_data_error(path, DIAG_NO_OFFSET, "memory usage file (allocation %s): %s",
                        config_allocation_name(c->cfg.allocation), why);
    if (c->mu.page_size != c->cfg.page_size)
        diag_data_error(path, DIAG_NO_OFFSET, "memory usage file has page_size %" PRIu64 " but %s has page_size %u;"
                        " run ciat with -page_size %u", c->mu.page_size, cfg_name, c->cfg.page_size,
                        c->cfg.page_size);
    for (size_t i = 0; i < c->mu.count; i++)
        if (c->mu.pages[i].owner >= c->n)
            diag_data_error(path, DIAG_NO_OFFSET, "page %" PRIu64 " is owned by thread %" PRId64
                            " but the trace set has %d threads (a file of another run?)", c->mu.pages[i].page,
                            c->mu.pages[i].owner, c->n);
}

/* What the machines of one run share: the options. */
typedef struct cdat_run {
    bool zstd, gzip, hpux;
    private_ranges ranges;
    io_options io;
    char **sets;                /* --set, in order */
    unsigned nsets;
    const char *name;           /* --name */
    const char *sweep;          /* --sweep SECTION.KEY=V1,V2,… */
    bool json;                  /* --json: every report also as JSON */
    bool miss_classes;          /* --miss-classes: L17 and L18 */
    attr_options attr;          /* --by-code, --by-data (lines L20, L21), --map */
    const char *miss_trace;     /* --miss-trace FILE */
    const char *din;            /* --din FILE */
    addr_map *amap;             /* the map found or given, or NULL */
    uint64_t workers;           /* --workers; 0: one per processor */
    uint64_t jobs;              /* --jobs N: the machine in N parts */
    uint32_t shard_i, shard_n;  /* --shard I/N: part I of N (shard_n 0: not given) */
    bool merge;                 /* --merge PART…: the report from the parts */
    bool speedup;               /* --speedup: each machine against its machine of one processor */
    uint64_t speedup_turn;      /* --speedup-turn V: that machine's turns (0: not given) */
} cdat_run;

/* --speedup's turns when --speedup-turn is not given: a million instructions,
 * a time slice of the order of a millisecond (docs/cdat-report.md). */
enum { CDAT_SPEEDUP_TURN = 1000000 };

/* How the general and detailed traces are compressed (-z, --gzip). */
static out_format trace_format(const cdat_run *r) { return r->zstd ? OUT_ZSTD : r->gzip ? OUT_GZIP : OUT_PLAIN; }

/* --shard I/N. */
static const char *parse_shard(void *target, const char *value)
{
    cdat_run *r = target;
    return partial_part_parse(value, &r->shard_i, &r->shard_n);
}

static const char *add_set(void *target, const char *value)
{
    cdat_run *r = target;
    r->sets = xrealloc(r->sets, (r->nsets + 1) * sizeof *r->sets);
    r->sets[r->nsets++] = (char *)value;
    return NULL;
}

static void config_options_header(cdat *c, const tool *t, const cdat_run *r);

/* --shard I/N: the partial result where the report would go
 * (<prefix>.cdat_partial.I-of-N), and its first records: the whole run's
 * command line, the trace set, the resolved configuration and options. */
static void shard_begin(cdat *c, const tool *t, const cdat_run *r)
{
    char suffix[64];
    snprintf(suffix, sizeof suffix, "cdat_partial.%" PRIu32 "-of-%" PRIu32, r->shard_i, r->shard_n);
    char *path = output_name(c, suffix);
    c->partial = out_file_open(path, false);
    free(path);
    c->rep = report_open_detached();
    config_options_header(c, t, r);
    size_t nh = report_header_count(c->rep);
    const char **h = xcalloc(nh + 1, sizeof *h);
    for (size_t k = 0; k < nh; k++) h[k] = report_header_at(c->rep, k);
    char *whole = partial_whole_command(t->argc, t->argv);
    cdat_trace_outputs to = { c->cfg.general, c->cfg.detailed, trace_format(r) };
    cdat_partial_begin(c->partial, r->shard_i, r->shard_n, whole, r->json, (const char *const *)t->ts.paths,
                       t->ts.count, (unsigned)stats_slots(c), c->m.l2 ? 2 : 1,
                       c->m.l3 ? c->m.nodes : 0, &c->cfg.timing, &to, h, nh);
    free(whole);
    free(h);
    report_free(c->rep);
    c->rep = NULL;
}

/* The machine of one configuration: its config (file, then --set), thread
 * mapping, placement, caches, traces and report, ready for the run. */
static void machine_setup(cdat *c, const tool *t, cdat_run *r, const char *cfg_path, char **sets, unsigned nsets,
                          const char *name)
{
    c->t = t;
    c->name = name;
    c->n = t->ts.count;
    c->io_opt = r->io;
    config_load_sets(cfg_path, sets, nsets, &c->cfg);
    const char *where = c->cfg.path ? c->cfg.path : "the configuration";
    unsigned nprocs = config_total_procs(&c->cfg);
    /* Thread mode maps threads to processors; slice mode maps its p
     * processors the same way (the [mapping] section numbers them). */
    c->slice_cpus = (int)t->ro.slice_cpus;
    if (c->slice_cpus && c->cfg.timing.on)
        diag_usage_error("[timing] in slice mode (-i): a process's stalls are not modelled there; run without -i"
                         " or without [timing]");
    if (c->io_opt.handle && config_contention(&c->cfg.timing))
        diag_usage_error("-handle_io with contention ([timing] bank_busy or link_busy): the I/O processors' requests"
                         " have no accounted time to queue at; run without -handle_io or with bank_busy = link_busy = 0");
    if (r->speedup && !c->uni && !c->cfg.timing.on)
        diag_usage_error("--speedup compares estimated times, and %s has no [timing] section (configs/README.md)",
                         where);
    c->feedback = c->cfg.timing.feedback && !c->uni;
    if (c->feedback) {
        /* The stalls move the clocks, so the interleaving is this machine's own. */
        const char *fb = "[timing] mode = feedback";
        if (r->jobs > 1 || r->shard_n)
            diag_usage_error("%s with %s: every reference's stall moves its processor's clock, so the order of"
                             " all the references depends on every line's, which a part that simulates some of"
                             " the lines cannot know; run it whole, or with mode = accounting", fb,
                             r->jobs > 1 ? "--jobs" : "--shard");
        if (c->io_opt.handle)
            diag_usage_error("%s with -handle_io: the kernel's copies are made within a file call, where a stall"
                             " cannot move the clock; run -handle_io with mode = accounting", fb);
        if (r->din)
            diag_usage_error("%s with --din: Dinero IV has no time, and its references are compared in the pseudo"
                             " clock's order; run --din with mode = accounting", fb);
        if (attr_options_any(&r->attr) || r->miss_trace)
            diag_usage_error("%s with %s: the pc of an access is found by its pseudo clock, which the stalls move;"
                             " run it with mode = accounting", fb,
                             r->miss_trace ? "--miss-trace" : "--by-code, --by-data or --annotate");
    }
    if (r->din && nprocs > 1)
        diag_usage_error("--din: Dinero IV simulates one processor, and %s has %u; give a machine of one"
                         " (--set system.nodes=1 --set system.procs_per_node=1)", where, nprocs);
    if (t->so.turn_length) {
        /* The machine --speedup compares with, on its own: one processor
         * that runs the threads in turns (docs/scheduler.md §14). */
        if (nprocs > 1)
            diag_usage_error("--turns runs the threads one at a time, as one processor does, and %s has %u"
                             " processors; give a machine of one (--set system.nodes=1 --set"
                             " system.procs_per_node=1), or compare with one by --speedup", where, nprocs);
        if (c->feedback)
            diag_usage_error("--turns with [timing] mode = feedback: one processor's time is its instructions"
                             " and stalls added up, which mode = accounting gives; run --turns with it");
        if (c->io_opt.handle)
            diag_usage_error("--turns with -handle_io: a thread that waits for the disk would give the processor"
                             " to another, which turns do not model; run -handle_io without --turns");
    }
    int ncpu = c->slice_cpus ? c->slice_cpus : c->n;
    const char *what = c->slice_cpus ? "slice-mode processor" : "thread";
    c->proc_of = xcalloc((size_t)ncpu, sizeof *c->proc_of);
    for (int k = 0; k < ncpu; k++) {
        c->proc_of[k] = config_thread_proc(&c->cfg, k, ncpu);
        if (t->so.turn_length) c->proc_of[k] = 0;      /* --turns: the one processor runs them all */
        if (c->proc_of[k] < 0 && c->slice_cpus)
            diag_data_error(where, DIAG_NO_OFFSET, "-i %d but the machine has %u processor%s: map"
                            " %s %d (and every one from %u on) in [mapping], or give -i %u or less", ncpu,
                            nprocs, nprocs == 1 ? "" : "s", what, k, nprocs, nprocs);
        if (c->proc_of[k] < 0)
            diag_data_error(where, DIAG_NO_OFFSET, "%d traces but the machine has %u processor%s: map"
                            " thread %d (and every thread from %u on) in [mapping]", c->n, nprocs,
                            nprocs == 1 ? "" : "s", k, nprocs);
    }
    /* The node of each thread's processor, for placement by owner. A process
     * in slice mode may move: it counts as on processor t mod p, where
     * -rr_interleaving runs it. */
    c->thread_node = xcalloc((size_t)c->n, sizeof *c->thread_node);
    for (int k = 0; k < c->n; k++) c->thread_node[k] = c->proc_of[k % ncpu] / (int)c->cfg.procs_per_node;
    c->slot_of = xcalloc(nprocs, sizeof *c->slot_of);
    if (c->feedback) c->fb_prev = xcalloc(nprocs, sizeof *c->fb_prev);
    for (unsigned p = 0; p < nprocs; p++) c->slot_of[p] = c->slice_cpus ? 0 : (int)p;
    if (c->cfg.allocation == ALLOC_RR2 || c->cfg.allocation == ALLOC_ORACLE) load_memory_usage(c);

    placement_init(&c->pl, c->cfg.allocation, c->cfg.nodes, c->cfg.page_size, &r->ranges, &c->mu, c->thread_node,
                   c->n);
    if (config_contention(&c->cfg.timing)) {
        c->ct = xcalloc(1, sizeof *c->ct);
        contention_init(c->ct, &c->cfg);
    }
    mach_init(&c->m, &c->cfg, &c->pl, c->ct ? on_seq_contention : on_seq, c);
    c->m.tx_fields = c->cfg.general || c->cfg.detailed;    /* the counts need only the codes */
    /* --speedup's machine of one processor gives its estimated time and
     * nothing else: no classes, attribution or miss trace of its own. */
    bool classes = r->miss_classes && !c->uni, annotate = r->attr.annotate && !c->uni;
    const char *miss_trace = c->uni ? NULL : r->miss_trace;
    c->show_classes = classes;
    c->attr_on = !c->uni && (attr_options_any(&r->attr) || miss_trace);
    if (classes || c->attr_on) {
        c->mc = mc_new(c->m.nprocs, &c->m.p[0].d, &c->m.p[0].i, c->m.line_shift);
        c->m.mc = c->mc;
        /* The L2's misses too (unified: one stream), but for an exclusive
         * one, which lines enter only as victims: a fully associative cache
         * seeing its references would hold lines it never got. */
        if (classes && c->m.l2 && c->cfg.l2_inclusion != INCL_EXCLUSIVE) {
            c->mc2 = mc_new(c->m.nprocs, &c->m.p[0].l2, &c->m.p[0].l2, c->m.line_shift);
            c->m.mc2 = c->mc2;
        }
    }
    if (c->attr_on) {
        c->amap = r->amap;
        int nfig = c->m.l2 ? 4 : 3;
        if (r->attr.by_code || r->attr.annotate) c->acode = attr_new(nfig, fig_names);
        if (r->attr.by_data) c->adata = attr_new(nfig, fig_names);
        attr_pcs_init(&c->pcs, c->n);
    }
    if (annotate) {
        char *ap = output_name(c, "cdat_annotated");
        c->annotated = out_file_open(ap, false);
        free(ap);
    }
    if (miss_trace) {
        c->mtrace = out_file_open(miss_trace, false);
        out_file_printf(c->mtrace, "# cdat miss trace of %s\n", t->ts.name);
        out_file_printf(c->mtrace, "# fields: clock processor stream pc address class source\n");
        out_file_printf(c->mtrace, "# one line per miss, in simulation order: clock = the processor's pseudo clock;"
                        " stream d (data) or i (instructions); pc of the access ('-': unknown); address = the"
                        " byte the access touches first in the missed line; class cold capacity conflict"
                        " true_sharing false_sharing; source local_memory local_cache remote_memory"
                        " remote_cache\n");
    }
    if (r->din) c->din = out_file_open(r->din, false);
    io_init(&c->io, &c->m, &c->io_opt, on_io_copy, c);
    /* Every output is opened (so checked) before the first record is read. */
    if ((c->shard || c->parts) && (c->cfg.general || c->cfg.detailed)) {
        /* keyed: into the partial result, or merged by part 0 at the end */
        c->part_traces = tmpfile();
        if (!c->part_traces) diag_fatal(EXIT_DATA, NULL, DIAG_NO_OFFSET, "cannot create a temporary file");
        traces_open_keyed(&c->tr, &c->m, c->part_traces, c->cfg.general, c->cfg.detailed, c->part_i == 0,
                          &c->ord_ref, &c->ord_line);
    } else {
        traces_open(&c->tr, &c->m, c->io_opt.handle ? c->io.nio : 0, c->cfg.general, c->cfg.detailed,
                    trace_format(r), output_name, c);
    }
    if (c->uni) {
        c->rep = report_open_detached();        /* computed, never written */
    } else if (c->shard) {
        shard_begin(c, t, r);
    } else if (c->part_i == 0) {                /* --jobs: part 0 writes the report */
        char *rep_path = output_name(c, "cdat_report");
        c->rep = report_open(rep_path);
        if (r->json) report_add_json(c->rep);
        free(rep_path);
    }
    c->phase = xcalloc((size_t)stats_slots(c), sizeof *c->phase);
    c->total = xcalloc((size_t)stats_slots(c), sizeof *c->total);
    c->running = xcalloc(nprocs, sizeof *c->running);
    c->idle_from = xcalloc(nprocs, sizeof *c->idle_from);
    c->io_phase = xcalloc(c->io.nio, sizeof *c->io_phase);
    c->io_total = xcalloc(c->io.nio, sizeof *c->io_total);
}

/* The hooks, with or without miss classification (-mc); each set also has
 * its own copies of the scheduler's and the fanout's loops
 * (common/consumer_loops.h), which call them directly. */
static inline __attribute__((always_inline)) sched_hooks classified_hooks(cdat *c)
{
    return (sched_hooks){ .ctx = c, .fetch = on_fetch_classified, .mem = on_mem_classified,
                          .call = c->io_opt.handle ? on_call : NULL, .phase_begin = on_phase_begin,
                          .phase_end = on_phase_end, .thread_stop = on_stop, .thread_resume = on_resume,
                          .hint = { .fetch_run = on_fetch_run_classified } };
}

static inline __attribute__((always_inline)) sched_hooks plain_hooks(cdat *c)
{
    return (sched_hooks){ .ctx = c, .fetch = on_fetch, .mem = on_mem, .call = c->io_opt.handle ? on_call : NULL,
                          .phase_begin = on_phase_begin, .phase_end = on_phase_end, .thread_stop = on_stop,
                          .thread_resume = on_resume,
                          .hint = { .fetch_run = on_fetch_run, .ahead = on_ahead, .ahead_distance = AHEAD_RECORDS } };
}

/* [timing] mode = feedback: the plain hooks, each stall sent back to the
 * scheduler (no I/O: refused with feedback). */
static inline __attribute__((always_inline)) sched_hooks feedback_hooks(cdat *c)
{
    return (sched_hooks){ .ctx = c, .fetch = on_fetch_fb, .mem = on_mem_fb, .phase_begin = on_phase_begin,
                          .phase_end = on_phase_end, .thread_stop = on_stop, .thread_resume = on_resume,
                          .hint = { .fetch_run = on_fetch_run_fb, .ahead = on_ahead, .ahead_distance = AHEAD_RECORDS } };
}

/* --jobs N: one part's hooks (no miss classes, no I/O: refused with --jobs). */
static inline __attribute__((always_inline)) sched_hooks part_hooks(cdat *c)
{
    return (sched_hooks){ .ctx = c, .fetch = on_fetch_part, .mem = on_mem_part, .phase_begin = on_phase_begin,
                          .phase_end = on_phase_end, .thread_stop = on_stop, .thread_resume = on_resume,
                          .hint = { .fetch_run = on_fetch_run_part, .ahead = on_ahead_part,
                                    .ahead_distance = AHEAD_RECORDS } };
}

/* --din: the plain hooks, each reference written first. */
static inline __attribute__((always_inline)) sched_hooks din_hooks(cdat *c)
{
    return (sched_hooks){ .ctx = c, .fetch = on_fetch_din, .mem = on_mem_din, .phase_begin = on_phase_begin,
                          .phase_end = on_phase_end, .thread_stop = on_stop, .thread_resume = on_resume,
                          .hint = { .fetch_run = on_fetch_run_din } };
}

CONSUMER_LOOPS_DEFINE(direct_classified_hooks, classified_hooks)
CONSUMER_LOOPS_DEFINE(direct_din_hooks, din_hooks)
CONSUMER_LOOPS_DEFINE(direct_plain_hooks, plain_hooks)
CONSUMER_LOOPS_DEFINE(direct_part_hooks, part_hooks)
CONSUMER_LOOPS_DEFINE(direct_feedback_hooks, feedback_hooks)

static sched_hooks machine_hooks(cdat *c)
{
    if (c->part_n > 1 || c->shard) return direct_part_hooks(c);     /* --shard 0/1 too: the keys */
    if (c->din) return direct_din_hooks(c);
    if (c->mc) return direct_classified_hooks(c);       /* feedback there too (c->feedback) */
    if (c->feedback) return direct_feedback_hooks(c);
    return direct_plain_hooks(c);
}

/* The summary block: the whole run's figures a reader looks for first. */
static void summary_lines(void *ctx, report *r)
{
    const cdat *c = ctx;
    cpu_stats *sum = xcalloc(1, sizeof *sum);
    for (int p = 0; p < stats_slots(c); p++) stats_add(sum, &c->total[p]);
    for (unsigned k = 0; k < c->io.nio; k++) stats_add(sum, &c->io_total[k]);
    char a[REPORT_NUM], b[REPORT_NUM], d[REPORT_NUM], e[REPORT_NUM], f[REPORT_NUM];
    uint64_t drefs = ref_total(&sum->data), irefs = ref_total(&sum->instr);
    report_header(r, " summary: data_refs %" PRIu64 " miss_rate %s upgrade_rate %s instr_refs %" PRIu64
                  " miss_rate %s", drefs, report_pct(a, sum->data.misses, drefs),
                  report_pct(b, sum->data.upgrades, drefs), irefs, report_pct(d, sum->instr.misses, irefs));
    uint64_t local = 0, remote = 0;
    const ref_counts *rc[2] = { &sum->data, &sum->instr };
    for (int i = 0; i < 2; i++) {
        local += ref_local(rc[i]);
        remote += ref_remote(rc[i]);
    }
    report_header(r, " summary: misses %" PRIu64 " local %" PRIu64 " %s remote %" PRIu64 " %s",
                  sum->data.misses + sum->instr.misses, local, report_pct(a, local, local + remote), remote,
                  report_pct(b, remote, local + remote));
    report_header(r, " summary: transactions %" PRIu64 " requests %" PRIu64 " transactions_per_request %s"
                  " critical_transactions_per_request %s", sum->transactions, sum->requests,
                  report_ratio(e, (double)sum->transactions, (double)sum->requests),
                  report_ratio(f, (double)sum->critical, (double)sum->requests));
    if (c->cfg.timing.on) {
        uint64_t by[TIMING_KEYS];
        report_header(r, " summary: estimated_time %" PRIu64 " busy %" PRIu64 " stall %" PRIu64, c->est_time,
                      sum->active, stats_stall(sum, &c->cfg.timing, by));
    }
    if (c->uni_time) {                          /* --speedup */
        char s[32];
        report_header(r, " summary: speedup %s one_processor_time %" PRIu64 " estimated_time %" PRIu64
                      " one_processor_turn %" PRIu64, report_ratio(s, (double)c->uni_time, (double)c->est_time),
                      c->uni_time, c->est_time, c->uni_turn);
    }
    free(sum);
}

/* Lines L20 and L21 (--by-code, --by-data), after every other line. */
static void attribution_report(cdat *c, const cdat_run *r)
{
    if (c->annotated) {
        char title[4200];
        snprintf(title, sizeof title, "cdat annotated source of %s%s%s", c->t->ts.name, c->name ? " on " : "",
                 c->name ? c->name : "");
        attr_annotate(c->acode, c->amap, c->annotated, title);
    }
    if (r->attr.by_code) attr_report(c->acode, c->rep, 20, "code", true, c->amap, r->attr.by_code);
    if (c->adata) attr_report(c->adata, c->rep, 21, "data", false, c->amap, r->attr.by_data);
}

/* The header lines of the configuration in force and the options. */
static void config_options_header(cdat *c, const tool *t, const cdat_run *r)
{
    config_header(c);
    tool_header_options(t, c->rep, "compress %s general %s detailed %s", r->zstd ? "zstd" : r->gzip ? "gzip" : "no",
                        c->cfg.general ? "yes" : "no", c->cfg.detailed ? "yes" : "no");
}

/* The header lines after the traces' up to the scheduler's (all but the
 * directory's). */
static void header_rest(cdat *c, const tool *t, const cdat_run *r)
{
    const io_options *io = &c->io_opt;
    config_options_header(c, t, r);
    if (io->handle)
        report_header(c->rep, " io: handle_io yes buffered_io %s asynch_io %s distributed_io %s io_processors %u"
                      " dma_bw %" PRIu64 " disk_latency %" PRIu64 " ipc %" PRIu64 " mhz %" PRIu64,
                      io->buffered ? "yes" : "no", io->asynch ? "yes" : "no", io->distributed ? "yes" : "no",
                      c->io.nio, io->dma_bw.value, io->disk_latency.value, io->ipc.value, io->mhz.value);
    else
        report_header(c->rep, " io: handle_io no");
    if (c->attr_on) attr_header(c->rep, c->amap);
    tool_header_ranges(c->rep, &r->ranges);
    tool_header_end(t, c->rep, c->s);
}

/* A list of texts (placement_lines' into a partial result). */
typedef struct text_list {
    char **v;
    size_t n, cap;
} text_list;

static void text_add(void *ctx, const char *text)
{
    text_list *l = ctx;
    l->cap = xgrow((void **)&l->v, l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n++] = xstrdup(text);
}

static void text_free(text_list *l)
{
    for (size_t k = 0; k < l->n; k++) free(l->v[k]);
    free(l->v);
}

/* --shard: the partial result's last records (partial.h): the part's
 * directory lines, the placement lines, the header lines after the summary. */
static void shard_report(cdat *c, const tool *t, const cdat_run *r)
{
    text_list pl = { 0 };
    placement_lines(c, text_add, &pl);
    c->rep = report_open_detached();
    report_traces_header(c->rep, &t->ts, t->readers);
    header_rest(c, t, r);
    size_t nh = report_header_count(c->rep);
    const char **h = xcalloc(nh + 1, sizeof *h);
    for (size_t k = 0; k < nh; k++) h[k] = report_header_at(c->rep, k);
    if (c->part_traces) {
        cdat_partial_traces(c->partial, c->part_traces);
        c->part_traces = NULL;
    }
    cdat_partial_end(c->partial, dir_lines(&c->m.dir), (const char *const *)pl.v, pl.n, h, nh);
    free(h);
    report_free(c->rep);
    c->rep = NULL;
    text_free(&pl);
}

/* --jobs with traces: part 0 writes the parts' keyed records, in the whole
 * run's order, into the trace files. */
static void jobs_traces(cdat *c, const cdat_run *r)
{
    FILE **f = xcalloc(c->part_n, sizeof *f);
    for (uint32_t k = 0; k < c->part_n; k++) f[k] = c->parts[k].part_traces;
    cdat_traces out;
    traces_open(&out, &c->m, 0, c->cfg.general, c->cfg.detailed, trace_format(r), output_name, c);
    traces_merge_keyed(&out, f, (int)c->part_n);
    traces_finish(&out);
    traces_free(&out);
    free(f);
}

/* After the run: the aggregate block and the header. */
static void machine_report(cdat *c, const tool *t, const cdat_run *r)
{
    flush_idle(c);
    if (c->partial) {
        shard_report(c, t, r);
        return;
    }
    aggregate_report(c);
    attribution_report(c, r);
    tool_header_begin(t, c->rep, summary_lines, c);
    header_rest(c, t, r);
    size_t lines = dir_lines(&c->m.dir);
    for (uint32_t k = 1; c->parts && k < c->part_n; k++) lines += dir_lines(&c->parts[k].m.dir);   /* each line in one part */
    report_header(c->rep, " directory: lines %zu", lines);
    /* For the benchmarks (bench/run-cdat-bench.sh): the directory's memory
     * beside the lines the caches hold at the end. Not part of any output file. */
    if (getenv("CDAT_DIRECTORY_STATS"))
        fprintf(stderr, "cdat: directory: lines %zu table_entries %zu table_bytes %zu map_bytes %zu"
                " cached_lines %" PRIu64 "\n", dir_lines(&c->m.dir), dir_entries(&c->m.dir),
                dir_table_bytes(&c->m.dir), dir_map_bytes(&c->m.dir), mach_cached_lines(&c->m));
    if (c->parts && c->part_traces) jobs_traces(c, r);
    traces_finish(&c->tr);
    report_finish(c->rep);
}


static void machine_free(cdat *c)
{
    traces_free(&c->tr);
    if (c->part_traces) fclose(c->part_traces);     /* --jobs: a part's keyed records */
    mach_free(&c->m);
    mc_free(c->mc);
    mc_free(c->mc2);
    attr_free(c->acode);
    attr_free(c->adata);
    attr_pcs_free(&c->pcs);
    placement_free(&c->pl);
    memusage_free(&c->mu);
    config_free(&c->cfg);
    if (c->ct) contention_free(c->ct);
    free(c->ct);
    free(c->phase);
    free(c->total);
    free(c->running);
    free(c->idle_from);
    free(c->io_phase);
    free(c->io_total);
    free(c->proc_of);
    free(c->slot_of);
    free(c->fb_prev);
    free(c->thread_node);
    if (c->uni) report_free(c->rep);
}

/* A trace prefix operand ends in ".P" (P a number) and is no file: what
 * follows the trace set's operands is configurations. */
static bool prefix_like(const char *s)
{
    const char *dot = strrchr(s, '.');
    if (!dot || !dot[1] || strspn(dot + 1, "0123456789") != strlen(dot + 1)) return false;
    FILE *f = fopen(s, "r");
    if (f) fclose(f);
    return !f;
}

/* One machine to simulate: configuration file (NULL: --set only), its own
 * extra setting (a --sweep value, or NULL) and the name part of its outputs. */
typedef struct job {
    const char *path;
    char *set;
    char *name;
} job;

/* One pass over the traces for machines m[0..nm): one schedule whose events
 * every machine gets (several: through a fanout; one: through a pipeline,
 * or at once with feedback, whose stalls the scheduler needs before the
 * next record). Returns the scheduler, which the reports read. */
static scheduler *run_machines(cdat *m, int nm, tool *t, trace_reader **readers, const sched_options *so,
                               int workers)
{
    scheduler *s;
    if (nm == 1) {
        sched_hooks h = machine_hooks(&m[0]), run = h;
        fanout *pipe = m[0].feedback ? NULL : fanout_pipeline(&h, workers, t->ts.count, &run);
        s = m[0].s = sched_create(&t->ts, readers, so, &run);
        sched_run(s);
        if (pipe) fanout_finish(pipe);
        return s;
    }
    sched_hooks *hs = xcalloc((size_t)nm, sizeof *hs);
    for (int k = 0; k < nm; k++) hs[k] = machine_hooks(&m[k]);
    fanout *f = fanout_create(hs, nm, workers);
    sched_hooks h = fanout_hooks(f);
    s = sched_create(&t->ts, readers, so, &h);
    for (int k = 0; k < nm; k++) m[k].s = s;
    sched_run(s);
    fanout_finish(f);
    free(hs);
    return s;
}

/* --speedup: the machine of one processor beside job j's: its configuration
 * and --set keys, then one node of one processor with every thread mapped
 * to it, and no traces. */
static void uni_setup(cdat *c, const tool *t, cdat_run *r, const job *j)
{
    int n = t->ts.count;
    size_t nsets = r->nsets + (j->set != NULL) + 5 + (size_t)n, k = 0;
    char **sets = xcalloc(nsets, sizeof *sets);
    for (unsigned i = 0; i < r->nsets; i++) sets[k++] = xstrdup(r->sets[i]);
    if (j->set) sets[k++] = xstrdup(j->set);
    sets[k++] = xstrdup("system.nodes=1");
    sets[k++] = xstrdup("system.procs_per_node=1");
    sets[k++] = xstrdup("output.general=0");
    sets[k++] = xstrdup("output.detailed=0");
    sets[k++] = xstrdup("timing.mode=accounting");     /* its time is a sum: no interleaving of its own */
    for (int i = 0; i < n; i++) {
        char buf[48];
        snprintf(buf, sizeof buf, "mapping.thread.%d=0.0", i);
        sets[k++] = xstrdup(buf);
    }
    *c = (cdat){ .uni = true };
    machine_setup(c, t, r, j->path, sets, (unsigned)k, j->name);
    for (size_t i = 0; i < k; i++) free(sets[i]);
    free(sets);
}

/* The name of a configuration in output names: its file name without
 * ".ini" (none: "set"). */
static char *config_name(const char *path)
{
    if (!path) return xstrdup("set");
    const char *b = path_base(path);
    size_t n = strlen(b);
    if (n > 4 && strcmp(b + n - 4, ".ini") == 0) n -= 4;
    char *name = xmalloc(n + 1);
    memcpy(name, b, n);
    name[n] = '\0';
    return name;
}

/* --sweep: one key per run (a second --sweep would be dropped without a
 * word, and two sweeps would need a product of machines). */
static const char *parse_sweep(void *target, const char *value)
{
    const char **sweep = target;
    if (*sweep) return "given twice: a run sweeps one key (several values: --sweep SECTION.KEY=V1,V2,...)";
    *sweep = value;
    return NULL;
}

static job *make_jobs(const cdat_run *r, char **cfgs, int ncfg, int *njobs)
{
    const char *eq = r->sweep ? strchr(r->sweep, '=') : NULL;
    if (r->sweep && (!eq || eq == r->sweep || !eq[1] || !strchr(r->sweep, '.') || strchr(r->sweep, '.') > eq))
        diag_usage_error("--sweep %s: expected SECTION.KEY=VALUE,VALUE,... (e.g. system.protocol=1,2,3)", r->sweep);
    int nvalues = 1;
    for (const char *v = eq; v && *v; v++) nvalues += *v == ',';
    int n = (ncfg ? ncfg : 1) * (r->sweep ? nvalues : 1);
    job *j = xcalloc((size_t)n, sizeof *j);
    int k = 0;
    for (int i = 0; i < (ncfg ? ncfg : 1); i++) {
        const char *path = ncfg ? cfgs[i] : NULL;
        const char *v = eq ? eq + 1 : NULL;
        for (int x = 0; x < (r->sweep ? nvalues : 1); x++, k++) {
            j[k].path = path;
            if (!r->sweep) {
                j[k].name = n > 1 ? config_name(path) : r->name ? xstrdup(r->name) : NULL;
                continue;
            }
            size_t len = strcspn(v, ",");
            if (len == 0) diag_usage_error("--sweep %s: an empty value", r->sweep);
            size_t klen = (size_t)(eq - r->sweep);
            j[k].set = xmalloc(klen + len + 2);
            snprintf(j[k].set, klen + len + 2, "%.*s=%.*s", (int)klen, r->sweep, (int)len, v);
            /* name: <configuration>-<section>.<key><value>, e.g. 4x4-system.protocol3
             * (the section too: dcache.size and icache.size sweeps must not share names) */
            char *cn = config_name(path);
            size_t nl = strlen(cn) + klen + len + 2;
            j[k].name = xmalloc(nl);
            snprintf(j[k].name, nl, "%s-%.*s%.*s", cn, (int)klen, r->sweep, (int)len, v);
            free(cn);
            v += len + (v[len] == ',');
        }
    }
    for (int a = 0; a < n; a++) {
        if (j[a].name && (!*j[a].name || strchr(j[a].name, '/')))
            diag_usage_error("the output name part '%s' must be non-empty and without '/'", j[a].name);
        for (int b = 0; b < a; b++)
            if (j[a].name && strcmp(j[a].name, j[b].name) == 0)
                diag_usage_error("two configurations would write the same outputs (name '%s'): give them"
                                 " files of different names", j[a].name);
    }
    *njobs = n;
    return j;
}

/* --jobs N or --shard I/N (opt, as the messages name it; label: the option
 * with its value): what cannot be split, refused before anything is read. */
static void jobs_usage(const cdat_run *r, int njobs, const tool *t, const char *opt, const char *label, uint64_t n)
{
    if (n <= 1 && !r->shard_n) return;          /* --shard 0/1 is a part too: its file has what a part has */
    if (n & (n - 1))
        diag_usage_error("%s: N must be a power of two (the parts own whole cache sets, and every"
                         " cache has a power of two of them)", label);
    if (njobs > 1)
        diag_usage_error("%s splits one machine: give one configuration (and no --sweep), or run each on its own", opt);
    if (r->miss_classes || attr_options_any(&r->attr) || r->miss_trace)
        diag_usage_error("%s with --miss-classes, --by-code, --by-data, --annotate or --miss-trace: they classify"
                         " the misses, and a capacity or conflict miss compares a processor's cache with a fully"
                         " associative one of all its lines, which no part holds; run them without %s", opt, opt);
    if (r->io.handle)
        diag_usage_error("%s with -handle_io: the I/O processors' buffers are not split; run without %s", opt, opt);
    if (t->ro.slice_cpus) diag_usage_error("%s in slice mode (-i): not split; run without %s", opt, opt);
}

/* The merge's outputs: <prefix>.<suffix>. */
static char *merge_output_name(void *ctx, const char *suffix)
{
    const char *prefix = ctx;
    size_t len = strlen(prefix) + strlen(suffix) + 2;
    char *path = xmalloc(len);
    snprintf(path, len, "%s.%s", prefix, suffix);
    return path;
}

/* --jobs N or --shard I/N, with part 0's machine built: N must divide every
 * cache's sets (so each set, and each directory entry, is one part's). */
static void jobs_check_machine(const cdat *c, const char *opt, const char *label, int n)
{
    const char *where = c->cfg.path ? c->cfg.path : "the configuration";
    if (n <= 1 && !c->shard) return;
    if (c->ct)
        diag_usage_error("%s with contention (%s has [timing] bank_busy or link_busy): requests to lines of"
                         " different parts queue at the same banks and links, which no part sees all of; run"
                         " without %s, or with bank_busy = link_busy = 0", label, where, opt);
    const cache *cs[5] = { &c->m.p[0].d, &c->m.p[0].i, c->m.icc ? &c->m.icc[0] : NULL, c->m.l2 ? &c->m.p[0].l2 : NULL,
                           c->m.l3c ? &c->m.l3c[0] : NULL };
    static const char *const names[5] = { "dcache", "icache", "interconnect_cache", "l2", "l3" };
    for (int k = 0; k < 5; k++)
        if (cs[k] && cache_sets(cs[k]) % (unsigned)n)
            diag_usage_error("%s: the %s of %s has %u set%s (fully associative: 1); N must divide every"
                             " cache's sets", label, names[k], where, cache_sets(cs[k]), cache_sets(cs[k]) == 1 ? "" : "s");
}

static bool merge_put_trace(void *ctx, const char *file, const char *record, size_t len)
{
    return traces_put(ctx, file, record, len);
}

/* cdat --merge PART…: the report (and its JSON), and the general and
 * detailed traces, of the whole run from its parts' partial results, where
 * the run would write them (-o DIR: there). */
static int merge_main(tool *t)
{
    partial_merge_args(t->argc, t->argv);
    cdat_merge *mg = cdat_merge_open(t->ops, t->nops);
    partial_merge_out_dir(t->ro.out_dir);
    const partial_in *in = cdat_merge_in(mg);
    char *prefix = partial_merge_prefix(partial_path(in, 0), "cdat", t->ro.out_dir);
    char *rep_path = merge_output_name(prefix, "cdat_report");
    cdat c = { .t = t, .n = partial_traces(in) };
    c.m.nprocs = cdat_merge_slots(mg);
    c.m.l2 = cdat_merge_levels(mg) == 2;
    c.m.nodes = cdat_merge_l3_nodes(mg);
    c.m.l3 = c.m.nodes > 0;
    c.cfg.timing = *cdat_merge_timing(mg);
    c.rep = report_open(rep_path);
    if (partial_json(in)) report_add_json(c.rep);
    c.phase = xcalloc(c.m.nprocs, sizeof *c.phase);
    c.total = xcalloc(c.m.nprocs, sizeof *c.total);
    sched_phase ph;
    while (cdat_merge_phase(mg, &ph, c.phase)) phase_report(&c, &ph);
    const cdat_trace_outputs *to = cdat_merge_trace_outputs(mg);
    if (to->general || to->detailed) {
        traces_open(&c.tr, &c.m, 0, to->general, to->detailed, to->format, merge_output_name, prefix);
        cdat_merge_traces(mg, merge_put_trace, &c.tr);
        traces_finish(&c.tr);
    }
    uint64_t lines;
    char **pl, **header;
    size_t npl, nheader;
    cdat_merge_end(mg, &lines, &pl, &npl, &header, &nheader);
    run_block(&c);
    for (size_t k = 0; k < npl; k++) placement_to_report(c.rep, pl[k]);
    report_tool_header_command(c.rep, partial_command(in));
    summary_lines(&c, c.rep);
    for (size_t k = 0; k < nheader; k++) report_header(c.rep, "%s", header[k]);
    report_header(c.rep, " directory: lines %" PRIu64, lines);
    report_finish(c.rep);
    tool_commit(t);
    traces_free(&c.tr);
    cdat_merge_close(mg);
    free(c.phase);
    free(c.total);
    free(rep_path);
    free(prefix);
    tool_free(t);
    return EXIT_OK;
}

int main(int argc, char **argv)
{
    cdat_run r = { 0 };
    io_options *io = &r.io;
    io_options_init(io);
    const tool_option own[] = {
        { { "set", 0, NULL, OPT_CALL, "SECTION.KEY=VALUE", &r, add_set, 0, 0,
            "set a configuration key over the files' (repeatable; e.g. system.protocol=3); with no"
            " configuration file the machine is the defaults and these" }, NULL, NULL, false },
        { { "sweep", 0, NULL, OPT_CALL, "SECTION.KEY=V1,V2,...", &r.sweep, parse_sweep, 0, 0,
            "simulate each configuration once per value, in the same pass (one key per run); outputs"
            " named <prefix>.<cfg>-<section>.<key><value>.cdat_report" }, NULL, NULL, false },
        { { "name", 0, NULL, OPT_STRING, "NAME", &r.name, NULL, 0, 0,
            "name the outputs <prefix>.NAME.cdat_report, … (one configuration)" }, NULL, NULL, false },
        { { "compress", 'z', NULL, OPT_FLAG, NULL, &r.zstd, NULL, 0, 0,
            "write the general and detailed traces zstd-compressed (names end in .zst)" }, NULL, NULL, false },
        { { "gzip", 0, NULL, OPT_FLAG, NULL, &r.gzip, NULL, 0, 0,
            "write them gzip-compressed instead (names end in .gz)" }, NULL, NULL, false },
        { { "hpux", 0, "HPUX", OPT_FLAG, NULL, &r.hpux, NULL, 0, 0,
            "rr1/rr2 placement: pages in 0x40000000-0x7fffffff go to the first toucher's node" }, NULL, NULL, false },
        { { "private-range", 0, "private_range", OPT_CALL, "LO:HI", &r.ranges, private_ranges_parse, 0, 0,
            "rr1/rr2 placement: pages in LO:HI go to the first toucher's node (repeatable)" }, NULL, NULL, false },
        { { "handle-io", 0, NULL, OPT_FLAG, NULL, &io->handle, NULL, 0, 0,
            "simulate file reads and writes: I/O processors -1, -2, ... (docs/cdat-io.md)" }, NULL, NULL, false },
        { { "buffered-io", 0, NULL, OPT_FLAG, NULL, &io->buffered, NULL, 0, 0,
            "with -handle_io: DMA into a kernel buffer, the processor copies" }, NULL, NULL, false },
        { { "asynch-io", 0, NULL, OPT_FLAG, NULL, &io->asynch, NULL, 0, 0,
            "with -handle_io: processes never wait for the disk" }, NULL, NULL, false },
        { { "distributed-io", 0, NULL, OPT_FLAG, NULL, &io->distributed, NULL, 0, 0,
            "with -handle_io: each node's own I/O processor (default: node 0's for all)" }, NULL, NULL, false },
        { { "dma-bw", 0, NULL, OPT_CALL, "MB/S", &io->dma_bw, io_param_parse, 0, 0,
            "with -handle_io: DMA bandwidth, 1..1000000 MB/s (default 20)" }, NULL, NULL, false },
        { { "disk-latency", 0, NULL, OPT_CALL, "MS", &io->disk_latency, io_param_parse, 0, 0,
            "with -handle_io: disk latency, 0..1000000 ms (default 10)" }, NULL, NULL, false },
        { { "ipc", 0, NULL, OPT_CALL, "N", &io->ipc, io_param_parse, 0, 0,
            "with -handle_io: instructions per cycle, 1..1000 (default 2)" }, NULL, NULL, false },
        { { "mhz", 0, NULL, OPT_CALL, "N", &io->mhz, io_param_parse, 0, 0,
            "with -handle_io: processor clock, 1..100000 MHz (default 180)" }, NULL, NULL, false },
        { { "max-io-bytes", 0, NULL, OPT_CALL, "N", &io->max_bytes, io_param_parse, 0, 0,
            "with -handle_io: refuse a read or write of more than N bytes, 1..4294967296 (default 67108864)" },
          NULL, NULL, false },
        { { "json", 0, NULL, OPT_FLAG, NULL, &r.json, NULL, 0, 0,
            "also write each report as JSON, <report>.json (docs/json.md)" }, NULL, NULL, false },
        { { "miss-classes", 0, NULL, OPT_FLAG, NULL, &r.miss_classes, NULL, 0, 0,
            "also classify every miss (cold, capacity, conflict, true and false sharing) and give"
            " misses per thousand instructions: lines L17 and L18, and with an [l2] its misses' classes, L25"
            " (slower)" }, "miss_classes", NULL, true },
        { { "by-code", 0, NULL, OPT_CALL, "[=N]", &r.attr.by_code, attr_top_parse, 0, 0,
            "also list the N functions and source lines (default 10) with the most misses, remote misses"
            " and false sharing misses, and with an [l2] L2 misses: lines L20 (classifies the misses as"
            " --miss-classes does: slower)" },
          "by_code", attr_top_show, true },
        { { "by-data", 0, NULL, OPT_CALL, "[=N]", &r.attr.by_data, attr_top_parse, 0, 0,
            "the same for data misses by data object, heap allocation site or mapping: lines L21" },
          "by_data", attr_top_show, true },
        ATTR_MAP_OPTION_ROW(&r.attr.map_path, "--by-code/--by-data/--annotate"),
        ATTR_ANNOTATE_OPTION_ROW(&r.attr.annotate, "cdat_annotated"),
        TOOL_WORKERS_OPTION_ROW(&r.workers),
        { { "jobs", 'j', NULL, OPT_UINT, "N", &r.jobs, NULL, 1, CDAT_JOBS_MAX,
            "simulate the machine in N parts on threads of this process, each the lines whose number mod N"
            " is its own (its cache sets and directory entries): the same report (N a power of two dividing"
            " every cache's sets; one configuration; not with miss classes, attribution, contention ([timing]"
            " bank_busy, link_busy), [timing] mode = feedback, -handle_io or slice mode; docs/sharding.md)" },
          NULL, NULL, false },
        { { "shard", 0, NULL, OPT_CALL, "I/N", &r, parse_shard, 0, 0,
            "simulate part I of N (the lines whose number mod N is I, as --jobs) and write its partial result"
            " <prefix>.cdat_partial.I-of-N where the report would go, for --merge (the same limits as --jobs;"
            " docs/sharding.md)" }, NULL, NULL, false },
        { { "merge", 0, NULL, OPT_FLAG, NULL, &r.merge, NULL, 0, 0,
            "write the report (and the general and detailed traces) of the whole run from the partial results"
            " of its --shard parts, given as the operands (each part once), where the run would write them;"
            " only -o DIR and -q beside them" },
          NULL, NULL, false },
        { { "miss-trace", 0, NULL, OPT_STRING, "FILE", &r.miss_trace, NULL, 0, 0,
            "also write one line per miss to FILE: clock, processor, stream, pc, address, class, source"
            " (one configuration)" }, "miss_trace", NULL, true },
        { { "speedup", 0, NULL, OPT_FLAG, NULL, &r.speedup, NULL, 0, 0,
            "also simulate each configuration's machine of one processor (one node, the same caches and"
            " [timing], every thread on it, running them in turns as --turns does) in a second pass over the"
            " traces, and report the speedup: its estimated time over the machine's (needs [timing] and"
            " trace files; not with --jobs, --shard, -handle_io, --din or slice mode; miss classes and"
            " attribution are the machine's only; twice the simulation)" }, "speedup", NULL, true },
        { { "speedup-turn", 0, NULL, OPT_UINT, "V", &r.speedup_turn, NULL, 1, 0,
            "the turns of --speedup's machine of one processor: V instructions at most (default 1000000)" },
          NULL, NULL, false },
        { { "din", 0, NULL, OPT_STRING, "FILE", &r.din, NULL, 0, 0,
            "also write every reference to FILE in Dinero IV's din format (0 load, 1 store, 2 fetch, hex"
            " address), to run Dinero IV on the same references (one configuration of one processor;"
            " not with --jobs, -handle_io, miss classes or attribution)" }, "din", NULL, true },
        { { 0 }, NULL, NULL, false }
    };
    tool t;
    tool_parse(&t, "cdat", own, argc, argv, usage_text);
    if (r.merge) return merge_main(&t);
    /* The trace operands: none with -t; else trace.P, or calls.P trace.P. */
    int ntrace = t.ro.trace_list ? 0 : t.nops >= 2 && prefix_like(t.ops[1]) ? 2 : 1;
    if (t.nops < ntrace + (r.nsets || r.sweep ? 0 : 1))
        diag_usage_error("expects [calls.P] trace.P cfg_file..., or -t trace_list cfg_file...");
    const char *orphan = io_options_orphan(io);
    if (orphan) diag_usage_error("option %s works only with -handle_io", orphan);
    if (r.zstd && r.gzip) diag_usage_error("-z (zstd) and --gzip ask for two formats; give one");
    int ncfg = t.nops - ntrace;
    for (int k = ntrace; k < t.nops; k++)
        if (prefix_like(t.ops[k])) {
            if (t.ro.trace_list) diag_usage_error("with -t, give no trace prefix ('%s')", t.ops[k]);
            diag_usage_error("too many operands ('%s'): the configurations follow the trace set", t.ops[k]);
        }
    if (r.name && (ncfg > 1 || r.sweep))
        diag_usage_error("--name names the outputs of one configuration; with several, each is named after"
                         " its file");
    int njobs;
    job *jobs = make_jobs(&r, t.ops + ntrace, ncfg, &njobs);
    if (io->handle && njobs > 1)
        diag_usage_error("-handle_io with several configurations: the simulated disk waits change the"
                         " schedule from machine to machine; run each configuration on its own");
    if (r.hpux) private_ranges_add_hpux(&r.ranges);
    if (r.miss_trace && njobs > 1)
        diag_usage_error("--miss-trace with several configurations: one miss trace is one machine's; run each"
                         " configuration on its own");
    if (r.din && (njobs > 1 || r.jobs > 1 || r.shard_n || io->handle || r.miss_classes || attr_options_any(&r.attr) ||
                  r.miss_trace || t.ro.slice_cpus))
        diag_usage_error("--din with %s: it writes one machine's references, as the plain simulation sees them;"
                         " give one configuration and none of --jobs, --shard, -handle_io, --miss-classes,"
                         " --miss-trace, --by-code, --by-data, --annotate or slice mode",
                         njobs > 1 ? "several configurations" : r.jobs > 1 ? "--jobs" : r.shard_n ? "--shard"
                         : io->handle ? "-handle_io" : t.ro.slice_cpus ? "slice mode (-i)" : "miss classes or attribution");
    if (r.speedup && (r.jobs > 1 || r.shard_n || io->handle || r.din || t.ro.slice_cpus))
        diag_usage_error("--speedup with %s: the machine of one processor beside each configuration's is"
                         " simulated whole, without outputs of its own; run that option without --speedup",
                         r.jobs > 1 ? "--jobs" : r.shard_n ? "--shard" : io->handle ? "-handle_io"
                         : t.ro.slice_cpus ? "slice mode (-i)" : "--din");
    if (r.speedup_turn && !r.speedup)
        diag_usage_error("--speedup-turn sets the turns of --speedup's machine of one processor: give --speedup"
                         " too (or --turns V to run the configuration's own machine of one processor in turns)");
    attr_options_check(&r.attr, "--by-code, --by-data or --annotate", false);
    char label[64];
    if (r.shard_n && r.jobs > 1)
        diag_usage_error("--jobs runs the parts in this process: give --jobs or --shard, not both");
    if (r.shard_n) snprintf(label, sizeof label, "--shard %" PRIu32 "/%" PRIu32, r.shard_i, r.shard_n);
    else snprintf(label, sizeof label, "--jobs %" PRIu64, r.jobs);
    const char *opt = r.shard_n ? "--shard" : "--jobs";
    uint64_t split = r.shard_n ? r.shard_n : r.jobs;
    jobs_usage(&r, njobs, &t, opt, label, split);

    tool_open(&t, t.ops, ntrace);
    if (r.speedup && trace_set_reads_stdin(&t.ts))
        diag_usage_error("--speedup reads the traces twice (its machine of one processor runs them in"
                         " an order of its own): not from standard input ('-')");
    if (attr_options_any(&r.attr)) r.amap = attr_map_open(&t, r.attr.map_path);   /* a bad map stops here */
    /* --jobs N: N machines of the one configuration, each a part of the lines. */
    int nparts = r.jobs > 1 ? (int)r.jobs : 1, nm = nparts > 1 ? nparts : njobs;
    int nuni = r.speedup ? njobs : 0;           /* --speedup: machines nm … nm + njobs - 1 */
    cdat *m = xcalloc((size_t)(nm + nuni), sizeof *m);
    char **sets = xcalloc(r.nsets + 1, sizeof *sets);
    for (int k = 0; k < nm; k++) {
        int j = nparts > 1 ? 0 : k;
        if (r.nsets) memcpy(sets, r.sets, r.nsets * sizeof *sets);
        sets[r.nsets] = jobs[j].set;
        if (nparts > 1) m[k] = (cdat){ .part_i = (uint32_t)k, .part_n = (uint32_t)nparts,
                                       .part_mask = (uint32_t)nparts - 1, .parts = m };
        if (r.shard_n) m[k] = (cdat){ .part_i = r.shard_i, .part_n = r.shard_n, .part_mask = r.shard_n - 1,
                                      .shard = true };
        machine_setup(&m[k], &t, &r, jobs[j].path, sets, r.nsets + (jobs[j].set != NULL), jobs[j].name);
        if (k == 0) jobs_check_machine(&m[0], opt, label, (int)split);
    }
    free(sets);
    for (int k = 0; k < nuni; k++) uni_setup(&m[nm + k], &t, &r, &jobs[k]);
    for (int k = 0; k < nm && njobs > 1; k++)
        if (m[k].feedback)
            diag_usage_error("[timing] mode = feedback with several configurations (%s): each machine's stalls"
                             " make its own interleaving, and one run reads the traces in one; run each"
                             " configuration on its own", r.sweep ? "--sweep" : "several files");
    scheduler *s = run_machines(m, nm, &t, t.readers, &t.so, (int)r.workers);
    if (nuni) {
        /* --speedup: the machines of one processor in a pass of their own,
         * the traces read again, run as one processor runs them: in turns. */
        trace_reader_opts ro = run_options_reader(&t.ro);
        ro.quiet = true;
        trace_reader **again = trace_set_open(&t.ts, &ro);
        sched_options so = t.so;
        so.turn_length = r.speedup_turn ? r.speedup_turn : CDAT_SPEEDUP_TURN;
        so.quiet = true;
        so.progress = false;
        scheduler *s1 = run_machines(m + nm, nuni, &t, again, &so, (int)r.workers);
        for (int k = 0; k < nuni; k++) {
            m[k].uni_time = m[nm + k].est_time;
            m[k].uni_turn = so.turn_length;
        }
        sched_free(s1);
        trace_set_close_readers(&t.ts, again);
    }
    nm += nuni;
    for (int k = 0; k < (nparts > 1 ? 1 : njobs); k++) machine_report(&m[k], &t, &r);   /* --jobs: part 0's */

    /* Everything succeeded: make the outputs appear, all or none. */
    tool_commit(&t);

    sched_free(s);
    for (int k = 0; k < nm; k++) machine_free(&m[k]);
    for (int k = 0; k < njobs; k++) {
        free(jobs[k].set);
        free(jobs[k].name);
    }
    free(m);
    free(jobs);
    free(r.sets);
    attr_map_free(r.amap);
    private_ranges_free(&r.ranges);
    tool_free(&t);
    return EXIT_OK;
}
