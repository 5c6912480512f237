/* ciat.c — Configuration Independent Analysis Tool (docs/ciat-report.md).
 *
 * The shared scheduler (common/scheduler) interleaves the traces; ciat's
 * hooks count the instruction mix and calls (stats.c), run the communication
 * analysis on each location (below, with locmap.c and reader_sets.c) and keep
 * the memory usage (usage.c), and with --locks or --intervals the locks'
 * and markers' figures (locks.c), with --timeline the picture of the threads'
 * states (timeline.c). Each phase's lines are written when it ends;
 * the aggregate block and memory usage at the end of the run. Outputs appear
 * only when the whole run succeeds. */
#include "install_dirs.h"
#include "c2c.h"
#include "comm_matrix.h"
#include "locks.h"
#include "barriers.h"
#include "critpath.h"
#include "timeline.h"
#include "locmap.h"
#include "reader_sets.h"
#include "shard.h"
#include "sharing.h"
#include "stats.h"
#include "usage.h"
#include "../common/attribution.h"
#include "../base/decimal.h"
#include "../base/diag.h"
#include "../common/fanout.h"
#include "../common/consumer_loops.h"
#include "../common/out_file.h"
#include "../common/path.h"
#include "../common/report.h"
#include "../common/scheduler.h"
#include "../common/tool.h"
#include "../formats/memusage.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char usage_text[] =
    "Usage: ciat [options] [calls.P] trace.P\n"
    "       ciat [options] [-c call_list] -t trace_list\n"
    "\n"
    "Configuration independent analysis of a trace set: instruction mix, load and\n"
    "store strings, instruction stream, call summaries, communication patterns\n"
    "(RAW/WAR/WAW/RAR with sharing and invalidation degrees) and memory usage.\n"
    "Writes <prefix>.ciat_report, <prefix>.memory and, with -ciat_events,\n"
    "<prefix>.ciat_events (--events FILE: to FILE; '-': standard output), beside\n"
    "the traces or into -o DIR (an existing directory). Every report line is\n"
    "described in " DSM_DOCDIR "/docs/ciat-report.md (docs/ in the source\n"
    "tree); --json: docs/json.md; --shard, --merge, --jobs: docs/sharding.md.\n"
    "Exit status: 0 ok, 1 usage error, 2 bad input, 3 internal error.\n";

typedef struct ciat_options {
    bool events;
    const char *events_path;    /* --events FILE ("-": standard output); NULL: <prefix>.ciat_events */
    bool matrix;                /* --comm-matrix: lines L16 and L17 */
    const char *matrix_svg;     /* --matrix-svg FILE (implies --comm-matrix) */
    const char *matrix_title;   /* --matrix-title TEXT (default: "RAW accesses of SET") */
    uint64_t matrix_size;       /* --matrix-size PX (0: by the thread count) */
    bool false_sharing;         /* --false-sharing (or --line-size): lines L18 and L19 */
    uint64_t line_size, false_lines, migratory_pct;
    uint64_t grain, page_size;
    bool hpux;
    private_ranges ranges;
    attr_options attr;          /* --by-code, --by-data (lines L50, L51), --map */
    uint32_t locks;             /* --locks[=N]: the top N of L52-L55, L61-L62 (0: off) */
    bool intervals;             /* --intervals: L56 */
    uint32_t barriers;          /* --barriers[=N]: the top N of L57, and L58 (0: off) */
    uint32_t critical_path;     /* --critical-path[=N]: L59 and the top N of L60, L63 (0: off) */
    const char *timeline;       /* --timeline FILE: the threads' states as SVG (timeline.h) */
    const char *timeline_title; /* --timeline-title TEXT (default: "Where the time goes in SET") */
    unsigned timeline_size[2];  /* --timeline-size WxH in points (0: the default) */
} ciat_options;

/* Fetch memo: per thread, the last fetches by address (direct-mapped). The
 * first fetch of an address does the full work (touched bits, owners, count);
 * a repeat by the same thread can only add one to its location's count, so it
 * is added to `pending` and given to the location when the entry is replaced
 * or the run ends. Counts are read only at the end (usage.c). */
typedef struct fetch_memo {
    uint32_t addr;              /* an address of another slot when empty */
    uint32_t pending;           /* fetches of addr not yet counted (its record is looked up at the
                                   flush: 8-byte entries keep a thread's memo in 8 lines) */
} fetch_memo;

/* Run memo: per thread, the last gap fills (fetch_run) by first address. A
 * repeat of a run (same address and length) by the same thread adds one to
 * every location of the run, deferred the same way. */
typedef struct run_memo {
    uint32_t addr, n;           /* n = 0: empty */
    uint32_t pending;           /* repeats not yet counted in the run's locations */
} run_memo;

/* A thread's block of its last fetch and that block's number. */
typedef struct code_ref {
    block *b;                   /* NULL: none yet */
    uint32_t n;
} code_ref;

enum { FETCH_MEMO = 64, RUN_MEMO = 16, RUN_SHORT = 16, FETCH_PENDING_MAX = 0x7FFFFFFF };

typedef struct ciat {
    ciat_options o;
    int n;
    scheduler *s;
    trace_reader **readers;
    thread_stats *phase;        /* per thread, current phase */
    thread_stats *total;        /* per thread, whole run */
    uint8_t *string_kind;       /* per thread: 0 none, 1 in a load string, 2 in a store string */
    uint64_t *string_len;
    code_ref *code_block;       /* per thread: block of the last fetch */
    fetch_memo *memo;           /* per thread: FETCH_MEMO entries */
    run_memo *runs;             /* per thread: RUN_MEMO entries */
    locmap map;
    reader_sets rs;
    comm_matrix *mphase, *mtotal;   /* with --comm-matrix, else NULL */
    sharing *fs;                /* with --false-sharing, else NULL */
    uint64_t data_sizes;        /* Σ sizes of data accesses (data locality) */
    report *rep;
    out_file *events;
    FILE *part_events;          /* --shard: the part's events, "SEQ ADDR " before each line */
    uint64_t seq;               /* --shard: accesses delivered so far (every part sees them all) */
    char evbuf[128];             /* an event line: clock, name (a few letters), thread, degree */
    int phases;
    uint64_t end_clock;
    /* --by-code / --by-data: figures per pc and data address, the map, and
     * per thread the pc of the last fetch and its clock (an access's pc when
     * the clocks agree) */
    attr *acode, *adata;
    addr_map *amap;
    attr_pcs pcs;               /* pcs.pc NULL: attribution off */
    locks *lk;                  /* --locks, --intervals (locks.h), else NULL */
    barriers *br;               /* --barriers (barriers.h), else NULL */
    critpath *cp;               /* --critical-path (critpath.h), else NULL */
    timeline *tl;               /* --timeline (timeline.h), else NULL */
    /* --locks, --critical-path: per thread, a call was made and no
     * instruction fetched since (the next fetch gives the call's site,
     * L61, L63); NULL: no sites */
    bool *site_wait;
    /* --shard: the part analysed (shard.h) and its partial result */
    ciat_part part;
    out_file *partial;
    /* --merge with --false-sharing: the L19 lines chosen from the parts' and
     * the L40-L44 sums (else NULL: from c->fs) */
    struct fs_tops *merged_top;
    uint64_t (*merged_patterns)[FS_PATTERNS];
    /* What the report lines take from the run beside ciat's own counts: per
     * thread the current phase's counts; slice mode's processors. */
    sched_counts *sc;
    const sched_cpu_counts *cpus;
    int ncpus;
} ciat;

enum { FIG_RAW, FIG_WAR, FIG_FALSE };
static const char *const fig_names[] = { "raw", "war", "false_sharing" };

/* ---- options ---- */

static bool power_of_two(uint64_t v) { return v && !(v & (v - 1)); }

/* ---- attribution (--by-code, --by-data: L50, L51) ---- */

/* One RAW, WAR or false sharing miss: to its pc and its location. */
static void attribute(ciat *c, int fig, uint64_t pc, uint32_t addr)
{
    if (c->acode) attr_add(c->acode, pc, fig);
    if (c->adata) attr_add(c->adata, attr_data_key(c->amap, addr, (uint32_t)c->o.line_size), fig);
}

static void on_false_miss(void *ctx, int t, uint64_t pc, uint32_t addr)
{
    (void)t;
    attribute(ctx, FIG_FALSE, pc, addr);
}

/* ---- communication analysis (docs/ciat-report.md, L10–L15) --- */

static void event(ciat *c, uint64_t clock, uint32_t addr, const char *name, int t, uint32_t degree)
{
    if (!c->events && !c->part_events) return;
    char *e = c->evbuf;
    if (c->part_events) {       /* its place in the whole run: the access, then the location */
        e = decimal_u64(e, c->seq);
        *e++ = ' ';
        e = decimal_u64(e, addr);
        *e++ = ' ';
    }
    e = decimal_u64(e, clock);
    *e++ = ' ';
    size_t n = strlen(name);
    memcpy(e, name, n);
    e += n;
    *e++ = ' ';
    e = decimal_i64(e, t);
    *e++ = ' ';
    e = decimal_u64(e, degree);
    *e++ = '\n';
    if (c->part_events) fwrite(c->evbuf, 1, (size_t)(e - c->evbuf), c->part_events);
    else out_file_write(c->events, c->evbuf, (size_t)(e - c->evbuf));
}

static inline void comm_load(ciat *c, loc *l, int p, uint64_t clock, uint32_t addr)
{
    if (l->writer == (uint16_t)p) return;       /* own value: nothing */
    uint32_t r = l->readers;
    if (rs_contains(&c->rs, r, p)) return;
    if (l->writer != LOC_NONE) {
        c->phase[p].raw++;
        if (c->mphase) cm_raw(c->mphase, p, l->writer);
        if (c->pcs.pc) attribute(c, FIG_RAW, attr_pcs_at(&c->pcs, p, clock), addr);
        event(c, clock, addr, "RAW", p, 0);
    } else if (r != 0) {
        c->phase[p].rar++;
        event(c, clock, addr, "RAR", p, 0);
    }
    l->readers = rs_add(&c->rs, r, p);
}

static inline void comm_store(ciat *c, loc *l, int p, uint64_t clock, uint32_t addr)
{
    uint32_t r = l->readers;
    uint32_t size = rs_size(&c->rs, r);
    uint32_t k = size - (rs_contains(&c->rs, r, p) ? 1 : 0);
    if (k >= 1) {
        c->phase[p].war++;
        degree_add(&c->phase[p].invalidation, k, 1);
        if (c->mphase) cm_inval(c->mphase, &c->rs, r, p);
        if (c->pcs.pc) attribute(c, FIG_WAR, attr_pcs_at(&c->pcs, p, clock), addr);
        event(c, clock, addr, "WAR", p, k);
    } else if (l->writer != LOC_NONE && l->writer != (uint16_t)p) {
        c->phase[p].waw++;
        event(c, clock, addr, "WAW", p, 1);
    }
    if (l->writer != LOC_NONE && size >= 1)
        degree_add(&c->phase[l->writer].sharing, size, 1);
    l->writer = (uint16_t)p;
    rs_release(&c->rs, r);
    l->readers = 0;
}

/* The event trace's header lines (formats/CIAT-EVENTS.md). */
static void events_header(out_file *f, const char *set_name)
{
    out_file_printf(f, "# ciat communication events of %s\n", set_name);
    out_file_printf(f, "# fields: clock event thread degree\n");
    out_file_printf(f, "# clock = the thread's pseudo clock after the access; event RAW WAR"
                    " WAW RAR; degree = invalidation degree for WAR, 1 for WAW, 0 for RAW and RAR\n");
}

/* ---- hooks ---- */

static void close_string(ciat *c, int t)
{
    if (c->string_kind[t] == 1) string_add(&c->phase[t].load_strings, c->string_len[t]);
    else if (c->string_kind[t] == 2) string_add(&c->phase[t].store_strings, c->string_len[t]);
    c->string_kind[t] = 0;
    c->string_len[t] = 0;
}

static inline void string_step(ciat *c, int t, uint8_t kind)
{
    if (c->string_kind[t] != kind) {
        close_string(c, t);
        c->string_kind[t] = kind;
    }
    c->string_len[t]++;
}

/* ciat_stats_load_class / ciat_stats_store_class as tables [register type][size code]. */
static uint8_t load_class_of[3][16], store_class_of[3][16];

static void class_tables(void)
{
    for (unsigned rt = 0; rt < 3; rt++)
        for (unsigned sc = 0; sc < 16; sc++) {
            load_class_of[rt][sc] = (uint8_t)ciat_stats_load_class(sc, rt);
            store_class_of[rt][sc] = (uint8_t)ciat_stats_store_class(sc, rt);
        }
}

/* The communication analysis of one location an access covers: the first
 * counts the access, the others note its thread (locmap.h, "the locations an
 * access covers"); an atomic is a load then a store of each. */
static inline void comm_location(ciat *c, block *b, uint32_t a, bool first, bool load, bool store, int t,
                                 uint64_t clock)
{
    loc *l = locmap_loc(&c->map, b, a);
    if (load) {
        if (first) locmap_count_access(&c->map, b, l, a, false, t);
        else locmap_note_access(b, l, false, t);
        comm_load(c, l, t, clock, a);
    }
    if (store) {
        if (first) locmap_count_access(&c->map, b, l, a, false, t);
        else locmap_note_access(b, l, false, t);
        comm_store(c, l, t, clock, a);
    }
}

/* What an access adds to its thread's counts: its class, its thread's
 * string, the data sizes. */
static inline void thread_side(ciat *c, int t, uint32_t f1)
{
    thread_stats *st = &c->phase[t];
    unsigned access = smait_mem_access(f1), code = smait_mem_size_code(f1), rt = smait_mem_regtype(f1);
    unsigned size = smait_size_bytes(code);
    bool load = access != SMAIT_STORE, store = access != SMAIT_LOAD;
    if (load) {
        st->load_class[load_class_of[rt][code]]++;
        string_step(c, t, 1);
        c->data_sizes += size;
    }
    if (store) {
        st->store_class[store_class_of[rt][code]]++;
        string_step(c, t, 2);
        c->data_sizes += size;
    }
    if (load && store) st->atomics++;
}

/* The general memory hook: every case. */
static __attribute__((noinline)) void on_mem_slow(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    (void)cpu;
    ciat *c = ctx;
    uint32_t f1 = rec->f1, addr = rec->f2;
    unsigned access = smait_mem_access(f1), size = smait_size_bytes(smait_mem_size_code(f1));
    bool load = access != SMAIT_STORE, store = access != SMAIT_LOAD;
    block *b = locmap_block(&c->map, addr, t);
    if (size) locmap_touch(&c->map, b, addr, size, false, t);
    if (c->fs && c->pcs.pc) c->fs->cur_pc = attr_pcs_at(&c->pcs, t, clock);
    if (c->fs && load) fs_access(c->fs, t, addr, size, false);
    if (c->fs && store) fs_access(c->fs, t, addr, size, true);
    thread_side(c, t, f1);
    /* Every location the access covers, in address order (after the touch,
     * which may move records). */
    comm_location(c, b, addr, true, load, store, t, clock);
    uint32_t last = locmap_last_loc(&c->map, addr, size);
    for (uint32_t a = addr & ~(c->map.grain - 1); a != last;) {
        a += c->map.grain;
        comm_location(c, locmap_block_near(&c->map, b, addr, a, t), a, false, load, store, t, clock);
    }
    if (size) locmap_cache_note(&c->map, b, addr, t);   /* for on_mem's inline part */
}

/* What on_mem's inline part changes: the access's class counter, its
 * thread's string, its touched bits and count. */
static inline void fast_commit(ciat *c, int t, uint32_t f1, const locmap_hit *h, loc *l)
{
    unsigned code = smait_mem_size_code(f1), rt = smait_mem_regtype(f1);
    thread_stats *st = &c->phase[t];
    if (smait_mem_access(f1) == SMAIT_LOAD) st->load_class[load_class_of[rt][code]]++;
    else st->store_class[store_class_of[rt][code]]++;
    c->string_len[t]++;
    locmap_fast_commit(h, l);
    c->data_sizes += smait_size_bytes(code);
}

/* The same for a load after stores or a store after loads: the thread's
 * string ends first. Apart (and a tail call) so that on_mem keeps no stack
 * frame. */
static __attribute__((noinline)) void fast_switch(ciat *c, int t, uint32_t f1, uint64_t *word, uint64_t mask, loc *l)
{
    close_string(c, t);
    c->string_kind[t] = (uint8_t)(smait_mem_access(f1) + 1);
    locmap_hit h = { word, mask };
    fast_commit(c, t, f1, &h, l);
}

/* Whether a load (a store) by t leaves l's sharing state as it is: t wrote
 * it or already read it (t wrote it and nobody read it since). */
static inline bool fast_unchanged(const ciat *c, const loc *l, int t, unsigned access)
{
    if (access == SMAIT_LOAD) return l->writer == (uint16_t)t || rs_contains(&c->rs, l->readers, t);
    return l->writer == (uint16_t)t && l->readers == 0;
}

/* The memory hook. Its inline part handles the common access that changes no
 * sharing state: a load or store in the location map's fast case
 * (locmap_fast_data: one touched-bitmap word of a dense block, a block and
 * locations the thread already owns or that are shared, a data count), that
 * for every location it covers loads a value the thread wrote or already
 * read, or stores to a location it wrote and nobody read since (a load after
 * stores, or a store after loads, ends the thread's string on the way:
 * fast_switch). It checks all that
 * before it changes anything and leaves every other access to on_mem_slow (a
 * tail call), so it needs few registers and no stack frame. */
static inline __attribute__((always_inline)) loc *fast_case(ciat *c, int t, uint32_t f1, uint32_t addr,
                                                             locmap_hit *h)
{
    unsigned access = smait_mem_access(f1);
    if (!FAST_PATHS || access == SMAIT_ATOMIC || c->fs) return NULL;
    unsigned size = smait_size_bytes(smait_mem_size_code(f1));
    loc *l = locmap_fast_data(&c->map, addr, size, t, h);
    if (!l || !fast_unchanged(c, l, t, access)) return NULL;
    /* The further locations of a wide access: in the same touched word of one
     * dense block, so their records follow l's. */
    uint32_t n = locmap_locs_covered(&c->map, addr, size);
    for (uint32_t i = 1; i < n; i++)
        if (!locmap_noted(l + i, t) || !fast_unchanged(c, l + i, t, access)) return NULL;
    return l;
}

static void on_mem(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    ciat *c = ctx;
    uint32_t f1 = rec->f1, addr = rec->f2;
    unsigned access = smait_mem_access(f1);
    locmap_hit h;
    loc *l = fast_case(c, t, f1, addr, &h);
    if (!l) goto slow;
    /* Nothing changes but counts, touched bits and strings. */
    if (c->string_kind[t] != access + 1) {
        fast_switch(c, t, f1, h.word, h.mask, l);
        return;
    }
    fast_commit(c, t, f1, &h, l);
    return;
slow:
    on_mem_slow(ctx, t, cpu, clock, rec);
}

/* The look-ahead, with the analysis beside the scheduler only (where the
 * replay decides, batch by batch, whether each hint pays:
 * common/ahead_tuner.h), in two steps: AHEAD_FAR_EVENTS events on, an access
 * starts loading its block's header; AHEAD_EVENTS on, the header is read
 * and the location's record and touched word start loading. In one step the
 * header's load stalled the replay on footprints with more headers than the
 * caches hold (the irregular mix of make bench), which the far step hides.
 * Where headers stay cached the far step only costs (pointer chasing), and
 * its tuner keeps it off. 32 events for the near step cost the FFT-like set
 * with 64 threads more than 16 (what was compared and measured:
 * bench/README.md E13; make bench's "ciat irregular irr.4" lines). */
enum { AHEAD_EVENTS = 16, AHEAD_FAR_EVENTS = 32 };

static void on_ahead(void *ctx, int t, int cpu, const smait_raw *rec)
{
    (void)t;
    (void)cpu;
    FANOUT_HINT_KEEP();
    ciat *c = ctx;
    locmap_prefetch(&c->map, rec->f2);
}

static void on_ahead_far(void *ctx, int t, int cpu, const smait_raw *rec)
{
    (void)t;
    (void)cpu;
    FANOUT_HINT_KEEP();
    ciat *c = ctx;
    locmap_prefetch_block(&c->map, rec->f2);
}

/* The block of a thread's code: kept apart from the data blocks, which would
 * keep evicting it from the shared block cache. */
static inline block *code_block(ciat *c, uint32_t addr, int t)
{
    code_ref *r = &c->code_block[t];
    uint32_t n = addr >> c->map.block_shift;
    if (r->b && r->n == n) return r->b;
    r->n = n;
    return r->b = locmap_block(&c->map, addr, t);
}

static void memo_flush(ciat *c, fetch_memo *e, int t)
{
    if (e->pending) {
        block *b = code_block(c, e->addr, t);
        locmap_count_add(&c->map, locmap_loc(&c->map, b, e->addr), e->addr, true, e->pending);
    }
    e->pending = 0;
}

/* A fetch the memo does not know (or whose pending count is full). */
/* The whole work of one fetch: touched bits, owners, count. */
static inline __attribute__((always_inline)) void fetch_full(ciat *c, uint32_t addr, int t)
{
    block *b = code_block(c, addr, t);
    locmap_touch(&c->map, b, addr, ISTREAM_INSN_BYTES, true, t);
    loc *l = locmap_loc(&c->map, b, addr);
    locmap_count_access(&c->map, b, l, addr, true, t);
    /* grains 1 and 2: the instruction's 4 bytes cover 2 or 4 locations */
    if (c->map.grain < ISTREAM_INSN_BYTES) locmap_note_covered(&c->map, b, addr, ISTREAM_INSN_BYTES, true, t);
}

static __attribute__((noinline)) void fetch_miss(ciat *c, fetch_memo *e, uint32_t addr, int t)
{
    memo_flush(c, e, t);
    fetch_full(c, addr, t);
    e->addr = addr;
}

static inline void fetch_one(ciat *c, fetch_memo *memo, uint32_t addr, int t)
{
    fetch_memo *e = &memo[(addr >> 2) & (FETCH_MEMO - 1)];
    if (FAST_PATHS && e->addr == addr && e->pending < FETCH_PENDING_MAX) {
        e->pending++;
        return;
    }
    fetch_miss(c, e, addr, t);
}

static void memo_init(ciat *c)
{
    c->memo = xcalloc((size_t)c->n * FETCH_MEMO, sizeof *c->memo);
    for (size_t i = 0; i < (size_t)c->n * FETCH_MEMO; i++)
        c->memo[i].addr = (uint32_t)((i ^ 1) & (FETCH_MEMO - 1)) << 2;   /* maps to slot i ^ 1 */
    c->runs = xcalloc((size_t)c->n * RUN_MEMO, sizeof *c->runs);
}

/* Give a run's repeats to its locations (the first time through, fetch_one
 * did the rest of the work of every address). */
static void run_flush(ciat *c, run_memo *e, int t)
{
    if (!e->pending) return;
    uint32_t a = e->addr;
    for (uint32_t i = 0; i < e->n; i++, a += ISTREAM_INSN_BYTES) {
        block *b = code_block(c, a, t);
        locmap_count_add(&c->map, locmap_loc(&c->map, b, a), a, true, e->pending);
    }
    e->pending = 0;
}

static void memo_flush_all(ciat *c)
{
    for (size_t i = 0; i < (size_t)c->n * RUN_MEMO; i++) run_flush(c, &c->runs[i], (int)(i / RUN_MEMO));
    for (size_t i = 0; i < (size_t)c->n * FETCH_MEMO; i++) memo_flush(c, &c->memo[i], (int)(i / FETCH_MEMO));
}

static void on_fetch(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    (void)cpu; (void)clock;
    ciat *c = ctx;
    fetch_one(c, c->memo + (size_t)t * FETCH_MEMO, addr, t);
}

/* A run the run memo does not know. A short one goes through the fetch memo;
 * a long one does the whole work of each fetch and leaves the fetch memo alone
 * (it would evict every entry, with a flush each, for addresses that seldom
 * come again in the same order). */
static __attribute__((noinline)) void run_miss(ciat *c, run_memo *e, int t, uint32_t addr, uint32_t n)
{
    run_flush(c, e, t);
    fetch_memo *memo = c->memo + (size_t)t * FETCH_MEMO;
    e->addr = addr;
    e->n = n;
    if (n <= RUN_SHORT) {
        for (uint32_t i = 0; i < n; i++, addr += ISTREAM_INSN_BYTES) fetch_one(c, memo, addr, t);
        return;
    }
    for (uint32_t i = 0; i < n; i++, addr += ISTREAM_INSN_BYTES) fetch_full(c, addr, t);
}

static void on_fetch_run(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n)
{
    (void)cpu; (void)clock;
    ciat *c = ctx;
    run_memo *e = &c->runs[(size_t)t * RUN_MEMO + ((addr >> 2) & (RUN_MEMO - 1))];
    if (FAST_PATHS && e->addr == addr && e->n == n && e->pending < FETCH_PENDING_MAX) {
        e->pending++;
        return;
    }
    run_miss(c, e, t, addr, n);
}

/* --locks, --critical-path: thread t fetches at addr; the first fetch
 * since its last call is that call's site (docs/ciat-report.md, L61). */
static inline void sync_site(ciat *c, int t, uint32_t addr)
{
    if (!c->site_wait || !c->site_wait[t]) return;
    c->site_wait[t] = false;
    if (c->lk) locks_site(c->lk, t, addr);
    if (c->cp) critpath_site(c->cp, t, addr);
}

/* --by-code/--by-data (and the sites of --locks, --critical-path): the same
 * fetch hooks, noting each thread's pc first (the plain hooks stay as they
 * are). */
static void on_fetch_pc(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    ciat *c = ctx;
    if (c->pcs.pc) attr_pcs_fetch(&c->pcs, t, clock, addr);
    sync_site(c, t, addr);
    on_fetch(ctx, t, cpu, clock, addr);
}

static void on_fetch_run_pc(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n)
{
    ciat *c = ctx;
    if (c->pcs.pc) attr_pcs_run(&c->pcs, t, clock, addr, n);
    if (n) sync_site(c, t, addr);
    on_fetch_run(ctx, t, cpu, clock, addr, n);
}

/* A call: its thread's L07 counts. */
static void call_stats(ciat *c, int t, const smait_raw *rec)
{
    unsigned type = smait_call_type(rec->f1);
    uint32_t bytes = type == SMAIT_CT_READ || type == SMAIT_CT_WRITE ? rec[SMAIT_CALL_ARG1 + 1].f2 : 0;
    ciat_stats_call(&c->phase[t], type, rec[SMAIT_CALL_START].f2, rec[SMAIT_CALL_END].f2, bytes);
}

static uint64_t on_call(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    (void)cpu;
    ciat *c = ctx;
    call_stats(c, t, rec);
    if (c->lk) locks_call(c->lk, t, clock, rec);
    if (c->br) barriers_call(c->br, t, clock, rec);
    if (c->cp) critpath_call(c->cp, t, clock, rec);
    if (c->tl) timeline_call(c->tl, t, clock, rec);
    if (c->site_wait) c->site_wait[t] = true;
    return 0;
}

/* --locks, --barriers, --critical-path, --timeline: a thread stops or
 * resumes (what it waited for a lock or at a barrier). */
static void on_stop(void *ctx, int t, int cpu, uint64_t clock, sched_wait why)
{
    (void)cpu;
    ciat *c = ctx;
    if (c->lk) locks_stop(c->lk, t, why);
    if (c->br) barriers_stop(c->br, t, why);
    if (c->cp) critpath_stop(c->cp, t, clock, why);
    if (c->tl) timeline_stop(c->tl, t, clock, why);
}

static void on_resume(void *ctx, int t, int cpu, uint64_t clock, uint64_t idle)
{
    (void)cpu;
    ciat *c = ctx;
    if (c->lk) locks_resume(c->lk, t, clock, idle);
    if (c->br) barriers_resume(c->br, t, idle);
    if (c->cp) critpath_resume(c->cp, t, clock, idle);
    if (c->tl) timeline_resume(c->tl, t, clock, idle);
}

/* ---- one part of the analysis (--shard I/N: shard.h) ---- */

/* The pieces of [addr, addr + len), cut at the top of the address space,
 * one per page: the end of the piece that starts at a. */
static inline uint64_t span_end(uint32_t addr, unsigned len)
{
    uint64_t end = (uint64_t)addr + len;
    return end > 0x100000000ull ? 0x100000000ull : end;
}

static inline uint64_t piece_end(const ciat *c, uint64_t a, uint64_t end)
{
    uint64_t next = ((a >> c->part.page_shift) + 1) << c->part.page_shift;
    return next < end ? next : end;
}

/* Touch the bytes of [addr, addr + size) that lie in the part's pages. */
static void touch_part(ciat *c, uint32_t addr, unsigned size, bool code, int t)
{
    for (uint64_t a = addr, end = span_end(addr, size), next; a < end; a = next) {
        next = piece_end(c, a, end);
        if (part_page(&c->part, (uint32_t)a))
            locmap_touch(&c->map, locmap_block(&c->map, (uint32_t)a, t), (uint32_t)a, (uint32_t)(next - a), code, t);
    }
}

/* An access's locations and bytes in the part's pages: what on_mem_slow
 * does to them, page by page (a false sharing line lies in one page:
 * --line-size <= --page-size). */
static void location_side_part(ciat *c, int t, uint64_t clock, uint32_t addr, unsigned size, bool load, bool store)
{
    if (c->fs && c->pcs.pc) c->fs->cur_pc = attr_pcs_at(&c->pcs, t, clock);
    for (uint64_t a = addr, end = span_end(addr, size ? size : 1), next; a < end; a = next) {
        next = piece_end(c, a, end);
        if (!part_page(&c->part, (uint32_t)a)) continue;
        unsigned n = size ? (unsigned)(next - a) : 0;
        if (n) locmap_touch(&c->map, locmap_block(&c->map, (uint32_t)a, t), (uint32_t)a, n, false, t);
        if (c->fs && load) fs_access(c->fs, t, (uint32_t)a, n, false);
        if (c->fs && store) fs_access(c->fs, t, (uint32_t)a, n, true);
    }
    uint32_t last = locmap_last_loc(&c->map, addr, size);
    for (uint32_t a = addr, first = 1;; first = 0) {
        if (part_page(&c->part, a)) comm_location(c, locmap_block(&c->map, a, t), a, first, load, store, t, clock);
        a &= ~(c->map.grain - 1);
        if (a == last) break;
        a += c->map.grain;
    }
}

/* An access in one page: whether the part owns the page and the thread
 * decides what it does; across pages, the thread's side if it owns the
 * thread and what location_side_part finds in its pages. */
static void on_mem_part(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    ciat *c = ctx;
    uint32_t f1 = rec->f1, addr = rec->f2;
    unsigned access = smait_mem_access(f1), size = smait_size_bytes(smait_mem_size_code(f1));
    uint64_t end = (uint64_t)addr + (size ? size - 1 : 0);
    bool thread = part_thread(&c->part, t);
    c->seq++;
    if (end <= UINT32_MAX && (addr >> c->part.page_shift) == (end >> c->part.page_shift)) {
        if (!part_page(&c->part, addr)) {
            if (thread) thread_side(c, t, f1);
            return;
        }
        if (thread) {
            on_mem(ctx, t, cpu, clock, rec);    /* the whole run's work on it */
            return;
        }
        locmap_hit h;
        loc *l = fast_case(c, t, f1, addr, &h);
        if (l) {                                /* on_mem's fast case without the thread's side */
            locmap_fast_commit(&h, l);
            return;
        }
    } else if (thread) {
        thread_side(c, t, f1);
    }
    location_side_part(c, t, clock, addr, size, access != SMAIT_STORE, access != SMAIT_LOAD);
}

/* A fetch: in one page, the plain hook's work if the part owns it; across
 * two (an instruction at an unaligned address), fetch_full's work on the
 * part's pages. */
static void on_fetch_part(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    ciat *c = ctx;
    uint64_t end = (uint64_t)addr + ISTREAM_INSN_BYTES - 1;
    if (end <= UINT32_MAX && (addr >> c->part.page_shift) == (end >> c->part.page_shift)) {
        if (part_page(&c->part, addr)) on_fetch(ctx, t, cpu, clock, addr);
        return;
    }
    touch_part(c, addr, ISTREAM_INSN_BYTES, true, t);
    if (part_page(&c->part, addr)) {
        block *b = locmap_block(&c->map, addr, t);
        locmap_count_access(&c->map, b, locmap_loc(&c->map, b, addr), addr, true, t);
    }
    if (c->map.grain >= ISTREAM_INSN_BYTES) return;
    uint32_t last = locmap_last_loc(&c->map, addr, ISTREAM_INSN_BYTES);
    for (uint32_t a = addr & ~(c->map.grain - 1); a != last;) {
        a += c->map.grain;
        if (!part_page(&c->part, a)) continue;
        block *b = locmap_block(&c->map, a, t);
        locmap_note_access(b, locmap_loc(&c->map, b, a), true, t);
    }
}

/* A gap fill: in one page, the plain hook's work if the part owns it; else
 * fetch by fetch. */
static void on_fetch_run_part(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n)
{
    ciat *c = ctx;
    uint64_t end = (uint64_t)addr + (uint64_t)n * ISTREAM_INSN_BYTES - 1;
    if (end <= UINT32_MAX && (addr >> c->part.page_shift) == (end >> c->part.page_shift)) {
        if (part_page(&c->part, addr)) on_fetch_run(ctx, t, cpu, clock, addr, n);
        return;
    }
    for (uint32_t i = 0; i < n; i++) on_fetch_part(ctx, t, cpu, clock + i, addr + i * ISTREAM_INSN_BYTES);
}

/* --by-code, --by-data: the same, noting each thread's pc first (every
 * part, for every thread: an access's pc is its own part's to attribute);
 * part 0's sites of --locks and --critical-path too. */
static void on_fetch_part_pc(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    ciat *c = ctx;
    if (c->pcs.pc) attr_pcs_fetch(&c->pcs, t, clock, addr);
    sync_site(c, t, addr);
    on_fetch_part(ctx, t, cpu, clock, addr);
}

static void on_fetch_run_part_pc(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n)
{
    ciat *c = ctx;
    if (c->pcs.pc) attr_pcs_run(&c->pcs, t, clock, addr, n);
    if (n) sync_site(c, t, addr);
    on_fetch_run_part(ctx, t, cpu, clock, addr, n);
}

/* The look-ahead hints, for the part's pages only. */
static void on_ahead_part(void *ctx, int t, int cpu, const smait_raw *rec)
{
    if (part_page(&((ciat *)ctx)->part, rec->f2)) on_ahead(ctx, t, cpu, rec);
}

static void on_ahead_far_part(void *ctx, int t, int cpu, const smait_raw *rec)
{
    if (part_page(&((ciat *)ctx)->part, rec->f2)) on_ahead_far(ctx, t, cpu, rec);
}

static uint64_t on_call_part(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    (void)cpu;
    ciat *c = ctx;
    if (part_thread(&c->part, t)) call_stats(c, t, rec);
    if (c->lk) locks_call(c->lk, t, clock, rec);    /* part 0 only: every thread's locks and markers */
    if (c->br) barriers_call(c->br, t, clock, rec); /* … and barriers */
    if (c->cp) critpath_call(c->cp, t, clock, rec); /* … and hand-overs */
    if (c->tl) timeline_call(c->tl, t, clock, rec); /* part 0 only: every thread's states */
    if (c->site_wait) c->site_wait[t] = true;       /* part 0 only: the sites of L61, L63 */
    return 0;
}

static void on_phase_begin(void *ctx, const sched_phase *ph)
{
    ciat *c = ctx;
    if (c->cp) critpath_phase_begin(c->cp, ph);
    for (int t = 0; t < c->n; t++) ciat_stats_clear(&c->phase[t]);
    if (c->mphase) cm_clear(c->mphase);
    if (c->fs) fs_phase_begin(c->fs);
}

/* L16/L17 of Tx: the sum of the rows of the threads marked in `use`. */
static void matrix_sum_lines(ciat *c, int phase, const comm_matrix *m, const bool *use)
{
    if (!m) return;
    comm_matrix sum;
    cm_init(&sum, 1);
    cm_sum_rows(&sum, m, use);
    cm_report(c->rep, phase, REPORT_ALL_THREADS, &sum, 0);
    cm_free(&sum);
}

/* At the end of the last phase: each location with a writer and readers
 * completes a sharing instance (docs/ciat-report.md, L10–L15). */
static void final_sharing(void *ctx, const block *b, uint32_t base)
{
    (void)base;
    ciat *c = ctx;
    uint32_t slots = locmap_slots(&c->map, b), index;
    uint64_t data, code;
    for (uint32_t i = 0; i < slots; i++) {
        const loc *l = locmap_slot(&c->map, b, i, &index, &data, &code);
        if (!l) continue;
        uint32_t k = rs_size(&c->rs, l->readers);
        if (l->writer != LOC_NONE && k >= 1) degree_add(&c->phase[l->writer].sharing, k, 1);
    }
}

/* Slice mode: one L09 line per processor (T = processor number), then their
 * sum as Tx (printed after the Tx block's other lines). Slice mode has one
 * phase, so the phase's lines and the aggregate's are the same. */
static void cpu_lines(ciat *c, int phase, bool sum_only)
{
    uint64_t active = 0, idle = 0;
    for (int p = 0; p < c->ncpus; p++) {
        sched_cpu_counts n = c->cpus[p];
        if (!sum_only) report_cpu_line(c->rep, phase, p, 9, n.active, n.idle);
        active += n.active;
        idle += n.idle;
    }
    if (sum_only) report_cpu_line(c->rep, phase, REPORT_ALL_THREADS, 9, active, idle);
}

/* A phase's lines: ciat's counts of the phase (c->phase), the scheduler's
 * (c->sc) and the processors' (c->cpus). */
static void phase_report(ciat *c, const sched_phase *ph)
{
    tool_phase_line(c->rep, ph);
    thread_stats sum = { 0 };
    sched_counts ssum = { 0 };
    bool *use = xcalloc((size_t)c->n, sizeof *use);
    for (int t = 0; t < c->n; t++) {
        const sched_counts *sc = &c->sc[t];
        if (t >= ph->active && !ciat_stats_any(&c->phase[t]) && sc->records == 0 && !(c->fs && fs_any(c->fs, t)))
            continue;
        use[t] = true;
        if (c->mphase) cm_add_thread(c->mtotal, c->mphase, t);
        ciat_stats_report(c->rep, ph->number, t, &c->phase[t], sc);
        if (c->mphase) cm_report(c->rep, ph->number, t, c->mphase, t);
        if (c->fs) {
            fs_report(c->rep, ph->number, t, c->fs, t, false);
            fs_phase_done(c->fs, t);
        }
        ciat_stats_add(&sum, &c->phase[t]);
        sched_counts_add(&ssum, sc);
        ciat_stats_add(&c->total[t], &c->phase[t]);
    }
    if (c->ncpus) cpu_lines(c, ph->number, false);
    ciat_stats_report(c->rep, ph->number, REPORT_ALL_THREADS, &sum, &ssum);
    matrix_sum_lines(c, ph->number, c->mphase, use);
    if (c->fs) fs_report_sum(c->rep, ph->number, c->fs, use, false);
    free(use);
    if (c->ncpus) cpu_lines(c, ph->number, true);
    ciat_stats_free(&sum);
    c->phases = ph->number;
    c->end_clock = ph->end_clock;
}

/* The processors' counts (slice mode; none in thread mode), from the scheduler. */
static void take_cpus(ciat *c)
{
    c->ncpus = sched_cpus(c->s);
    if (!c->ncpus) return;
    sched_cpu_counts *v = c->cpus ? (sched_cpu_counts *)c->cpus : xcalloc((size_t)c->ncpus, sizeof *v);
    for (int p = 0; p < c->ncpus; p++) v[p] = sched_cpu_counts_of(c->s, p);
    c->cpus = v;
}

/* --shard: the phase's records of the partial result (shard.h). */
static void phase_partial(ciat *c, const sched_phase *ph)
{
    uint64_t v[] = { (uint64_t)ph->number, ph->kind, ph->by, (uint64_t)ph->active, ph->start_clock,
                     ph->end_clock, ph->last };
    partial_u64s(c->partial, "phase", -1, v, sizeof v / sizeof *v);
    for (int t = 0; t < c->n; t++) {
        partial_counts(c->partial, "counts", t, &c->sc[t]);
        partial_stats(c->partial, t, &c->phase[t]);
        if (c->fs) {
            uint64_t *v = c->fs->phase[t];
            partial_u64s(c->partial, "fs", t, v, FS_KINDS);
        }
        if (!c->mphase) continue;
        FILE *f = out_file_stream(c->partial);
        fprintf(f, "comm %d", t);
        cm_write_row(f, &c->mphase->comm[t]);
        fprintf(f, "\ninval %d", t);
        cm_write_row(f, &c->mphase->inval[t]);
        fputc('\n', f);
    }
    for (int p = 0; p < c->ncpus; p++) {
        uint64_t w[] = { c->cpus[p].active, c->cpus[p].idle, c->cpus[p].dispatches };
        partial_u64s(c->partial, "cpu", p, w, 3);
    }
    partial_text(c->partial, "end-phase", NULL);
}

static void on_phase_end(void *ctx, const sched_phase *ph)
{
    ciat *c = ctx;
    for (int t = 0; t < c->n; t++) close_string(c, t);
    if (ph->last) locmap_each(&c->map, final_sharing, c);
    if (ph->last && c->fs) fs_end_of_run(c->fs);
    for (int t = 0; t < c->n; t++) c->sc[t] = *sched_phase_counts(c->s, t);
    take_cpus(c);
    if (c->partial) phase_partial(c, ph);
    else phase_report(c, ph);
}

/* ---- the run ---- */

/* --merge: the L19 candidates of the parts (each part's top lines). */
typedef struct fs_top {
    uint64_t addr, misses;
    char *threads;
} fs_top;
typedef struct fs_tops {
    fs_top *v;
    size_t n, cap;
} fs_tops;

static int top_order(const void *a, const void *b)
{
    const fs_top *x = a, *y = b;
    if (x->misses != y->misses) return x->misses > y->misses ? -1 : 1;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The whole run's top lines are the first of the parts' (a line is in one part). */
static void merged_top_lines(ciat *c)
{
    fs_tops *t = c->merged_top;
    if (t->n) qsort(t->v, t->n, sizeof *t->v, top_order);
    for (size_t i = 0; i < t->n && i < c->o.false_lines; i++)
        fs_line19(c->rep, t->v[i].addr, t->v[i].misses, t->v[i].threads);
}

/* The whole run's lines; c->sc holds the scheduler's counts of the run. */
static void aggregate_report(ciat *c)
{
    tool_run_line(c->rep, c->phases, c->end_clock, c->n);
    thread_stats sum = { 0 };
    sched_counts ssum = { 0 };
    for (int t = 0; t < c->n; t++) {
        const sched_counts *sc = &c->sc[t];
        ciat_stats_report(c->rep, REPORT_ALL_PHASES, t, &c->total[t], sc);
        if (c->mtotal) cm_report(c->rep, REPORT_ALL_PHASES, t, c->mtotal, t);
        if (c->fs) fs_report(c->rep, REPORT_ALL_PHASES, t, c->fs, t, true);
        ciat_stats_add(&sum, &c->total[t]);
        sched_counts_add(&ssum, sc);
    }
    if (c->ncpus) cpu_lines(c, REPORT_ALL_PHASES, false);
    ciat_stats_report(c->rep, REPORT_ALL_PHASES, REPORT_ALL_THREADS, &sum, &ssum);
    bool *use = xcalloc((size_t)c->n, sizeof *use);
    for (int t = 0; t < c->n; t++) use[t] = true;
    matrix_sum_lines(c, REPORT_ALL_PHASES, c->mtotal, use);
    if (c->fs) {
        fs_report_sum(c->rep, REPORT_ALL_PHASES, c->fs, use, true);
        if (c->merged_top) merged_top_lines(c);
        else fs_report_top(c->rep, c->fs, (uint32_t)c->o.false_lines);
    }
    free(use);
    if (c->ncpus) cpu_lines(c, REPORT_ALL_PHASES, true);
    ciat_stats_free(&sum);
}

/* The summary block: the whole run's figures a reader looks for first. */
typedef struct ciat_summary {
    const ciat *c;
    const usage_totals *u;
} ciat_summary;

static void summary_lines(void *ctx, report *r)
{
    const ciat_summary *sm = ctx;
    const ciat *c = sm->c;
    uint64_t records = 0, raw = 0, war = 0, waw = 0, rar = 0;
    for (int k = 0; k < c->n; k++) {
        records += c->sc[k].records;
        raw += c->total[k].raw;
        war += c->total[k].war;
        waw += c->total[k].waw;
        rar += c->total[k].rar;
    }
    report_header(r, " summary: records %" PRIu64 " threads %d phases %d", records, c->n, c->phases);
    report_header(r, " summary: raw %" PRIu64 " war %" PRIu64 " waw %" PRIu64 " rar %" PRIu64 " shared_bytes %"
                  PRIu64, raw, war, waw, rar, sm->u->shared_bytes);
}

/* The hooks, with or without noting each thread's pc (--by-code,
 * --by-data); each set also has its own copies of the scheduler's and the
 * fanout's loops (common/consumer_loops.h), which call them directly. */
static inline __attribute__((always_inline)) sched_hooks plain_hooks(ciat *c)
{
    return (sched_hooks){ .ctx = c, .fetch = on_fetch, .mem = on_mem, .call = on_call, .call_never_waits = true,
                          .phase_begin = on_phase_begin, .phase_end = on_phase_end, .thread_stop = on_stop,
                          .thread_resume = on_resume,
                          .hint = { .fetch_run = on_fetch_run, .ahead = on_ahead, .ahead_distance = AHEAD_EVENTS,
                                    .ahead_far = on_ahead_far, .ahead_far_distance = AHEAD_FAR_EVENTS } };
}

static inline __attribute__((always_inline)) sched_hooks pc_hooks(ciat *c)
{
    sched_hooks h = plain_hooks(c);
    h.fetch = on_fetch_pc;
    h.hint.fetch_run = on_fetch_run_pc;
    return h;
}

/* --shard I/N: the part's hooks. */
static inline __attribute__((always_inline)) sched_hooks part_hooks(ciat *c)
{
    return (sched_hooks){ .ctx = c, .fetch = on_fetch_part, .mem = on_mem_part, .call = on_call_part,
                          .call_never_waits = true, .phase_begin = on_phase_begin, .phase_end = on_phase_end,
                          .thread_stop = on_stop, .thread_resume = on_resume,
                          .hint = { .fetch_run = on_fetch_run_part, .ahead = on_ahead_part,
                                    .ahead_distance = AHEAD_EVENTS, .ahead_far = on_ahead_far_part,
                                    .ahead_far_distance = AHEAD_FAR_EVENTS } };
}

CONSUMER_LOOPS_DEFINE(direct_plain_hooks, plain_hooks)
CONSUMER_LOOPS_DEFINE(direct_pc_hooks, pc_hooks)
static inline __attribute__((always_inline)) sched_hooks part_pc_hooks(ciat *c)
{
    sched_hooks h = part_hooks(c);
    h.fetch = on_fetch_part_pc;
    h.hint.fetch_run = on_fetch_run_part_pc;
    return h;
}

CONSUMER_LOOPS_DEFINE(direct_part_hooks, part_hooks)
CONSUMER_LOOPS_DEFINE(direct_part_pc_hooks, part_pc_hooks)

/* ---- --shard: the partial result; --merge: the report from the parts ---- */

/* An output a part's record names (the parts' --events FILE, --matrix-svg,
 * --timeline), opened where the merge runs: a directory that is missing or
 * not writable here is refused naming the part and its record (a part moved
 * from another machine, or a damaged record). */
static out_file *merge_output(const partial_in *in, const char *record, const char *path)
{
    char *dir = path_beside(path, ".");
    struct stat st;
    bool ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK) == 0;
    free(dir);
    if (!ok) partial_fail(in, 0, "%s '%s': no writable directory for it here", record, path);
    return out_file_open(path, false);
}

_Static_assert(sizeof(usage_totals) % sizeof(uint64_t) == 0, "usage totals are counters");
enum { USAGE_FIELDS = sizeof(usage_totals) / sizeof(uint64_t) };

/* The report's header lines after the summary block: the traces, options,
 * slice mode, problems and synchronisation. */
static void header_rest(ciat *c, const tool *t, report *r)
{
    report_traces_header(r, &t->ts, t->readers);
    tool_header_options(t, r, NULL);
    if (c->o.matrix) report_header(r, " comm_matrix: yes");
    if (c->fs) report_header(r, " false_sharing: line_size %" PRIu64 " false_lines %" PRIu64 " migratory %"
                             PRIu64, c->o.line_size, c->o.false_lines, c->o.migratory_pct);
    if (c->pcs.pc || c->o.locks || c->o.barriers || c->o.critical_path) attr_header(r, c->amap);
    tool_header_ranges(r, &c->o.ranges);
    tool_header_end(t, r, c->s);
}

/* One "fs-line ADDR MISSES THREADS" record per top line of the part. */
static void fs_line_record(void *ctx, uint64_t addr, uint64_t misses, const char *threads)
{
    out_file_printf(ctx, "fs-line %" PRIu64 " %" PRIu64 "%s\n", addr, misses, threads);
}

/* --annotate --false-sharing: per top line of the part, thread by thread,
 * "fs-thread ADDRESS THREAD MASK" and after each its "fs-code ADDRESS PC
 * LOADS STORES MASK" records (PC 2^64-1: other code; MASK the locations). */
typedef struct c2c_record_ctx {
    out_file *f;
    uint64_t addr;
} c2c_record_ctx;

static void c2c_record_line(void *ctx, uint64_t addr, uint64_t misses)
{
    (void)misses;
    ((c2c_record_ctx *)ctx)->addr = addr;
}

static void c2c_record_thread(void *ctx, int t, uint64_t mask)
{
    c2c_record_ctx *rc = ctx;
    out_file_printf(rc->f, "fs-thread %" PRIu64 " %d %" PRIu64 "\n", rc->addr, t, mask);
}

static void c2c_record_code(void *ctx, uint64_t pc, uint64_t loads, uint64_t stores, uint64_t mask)
{
    c2c_record_ctx *rc = ctx;
    out_file_printf(rc->f, "fs-code %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", rc->addr, pc,
                    loads, stores, mask);
}

/* One "attr KEY N N N" record per key of a (--by-code, --by-data). */
static void attr_line(void *ctx, uint64_t key, const uint64_t *n)
{
    out_file_printf(ctx, "attr %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", key, n[0], n[1], n[2]);
}

/* L52-L63: the lines of --locks, --intervals, --barriers and
 * --critical-path in the report's order, given to emit (the report, or part
 * 0's partial result). */
static void sync_lines(ciat *c, locks_emit emit, void *ctx)
{
    if (c->lk) locks_lines(c->lk, c->amap, emit, ctx);
    if (c->br) barriers_lines(c->br, c->amap, emit, ctx);
    if (c->cp) critpath_lines(c->cp, c->amap, emit, ctx);
    if (c->lk) locks_more_lines(c->lk, c->amap, emit, ctx);
    if (c->cp) critpath_site_lines(c->cp, c->amap, emit, ctx);
}

static void sync_line_to_report(void *ctx, int ll, const char *name, const char *text)
{
    report_line(ctx, REPORT_ALL_PHASES, REPORT_ALL_THREADS, ll, name, "%s", text);
}

/* Any of the options whose lines are part 0's. */
static bool sync_lines_asked(const ciat_options *o)
{
    return o->locks || o->intervals || o->barriers || o->critical_path;
}

/* One "lock-line LL NAME TEXT" record per line of L52-L63 (part 0). */
static void lock_record(void *ctx, int ll, const char *name, const char *text)
{
    out_file_printf(ctx, "lock-line %d %s %s\n", ll, name, text);
}

/* One record per piece of the --timeline picture's data (part 0). */
static void timeline_record(void *ctx, const char *tag, const char *text)
{
    partial_text(ctx, tag, text);
}

static void attr_partial(out_file *f, const attr *a, const char *table)
{
    if (!a) return;
    partial_text(f, "attr-begin", table);
    attr_each(a, attr_line, f);
    partial_text(f, "attr-end", NULL);
}

/* The records after the last phase: the run's counts, memory usage and the
 * report's header lines. */
static void finish_partial(ciat *c, const tool *t)
{
    out_file *f = c->partial;
    for (int k = 0; k < c->n; k++) partial_counts(f, "total", k, &c->sc[k]);
    for (int p = 0; p < c->ncpus; p++) {
        uint64_t w[] = { c->cpus[p].active, c->cpus[p].idle, c->cpus[p].dispatches };
        partial_u64s(f, "cpu-total", p, w, 3);
    }
    FILE *mem = tmpfile();
    if (!mem) diag_fatal(EXIT_DATA, NULL, DIAG_NO_OFFSET, "cannot create a temporary file");
    usage_totals u;
    usage_scan(&c->map, c->o.page_size, &c->o.ranges, mem, &u);
    partial_u64s(f, "usage", -1, (const uint64_t *)&u, USAGE_FIELDS);
    partial_u64s(f, "data_sizes", -1, &c->data_sizes, 1);
    partial_u64s(f, "memory-begin", -1, &c->o.page_size, 1);
    partial_lines(f, mem, "memory", "the memory usage lines");
    partial_text(f, "memory-end", NULL);
    if (c->part_events) {
        partial_text(f, "events-begin", NULL);
        partial_lines(f, c->part_events, "event", "the events");
        c->part_events = NULL;
        partial_text(f, "events-end", NULL);
    }
    if (c->fs) {
        partial_text(f, "fs-lines-begin", NULL);
        fs_top_lines(c->fs, (uint32_t)c->o.false_lines, fs_line_record, f);
        partial_text(f, "fs-lines-end", NULL);
        uint64_t sums[FS_SUMS][FS_PATTERNS];
        fs_pattern_sums(c->fs, (uint32_t)c->o.migratory_pct, sums);
        partial_u64s(f, "fs-patterns", -1, &sums[0][0], FS_SUMS * FS_PATTERNS);
    }
    if (c->fs && c->o.attr.annotate) {         /* the c2c view of the part's top lines */
        partial_text(f, "fs-threads-begin", NULL);
        c2c_record_ctx rc = { f, 0 };
        fs_top_threads(c->fs, (uint32_t)c->o.false_lines,
                       &(fs_c2c_fns){ c2c_record_line, c2c_record_thread, c2c_record_code }, &rc);
        partial_text(f, "fs-threads-end", NULL);
    }
    if (sync_lines_asked(&c->o)) {          /* L52-L63: part 0's lines, the others none */
        partial_text(f, "locks-begin", NULL);
        sync_lines(c, lock_record, f);
        partial_text(f, "locks-end", NULL);
    }
    if (c->o.timeline) {                      /* the picture's data: part 0's, the others none */
        partial_text(f, "timeline-begin", NULL);
        if (c->tl) timeline_records(c->tl, timeline_record, f);
        partial_text(f, "timeline-end", NULL);
    }
    attr_partial(f, c->acode, "code");
    attr_partial(f, c->adata, "data");
    report *r = report_open_detached();
    header_rest(c, t, r);
    for (size_t i = 0; i < report_header_count(r); i++) partial_text(f, "header", report_header_at(r, i));
    report_free(r);
    partial_text(f, "end", NULL);
}

static void put_memory(void *ctx, int part, const char *text)
{
    (void)part;
    fprintf(ctx, "%s\n", text);
}

static void put_event(void *ctx, int part, const char *text)
{
    (void)part;
    out_file_printf(ctx, "%s\n", text);
}

/* The memory usage lines of every part, merged in page order (each part
 * holds its own pages). */
static void merge_memory(partial_in *in, FILE *mem)
{
    static const partial_sorted sr = { "memory", "memory-end", 1, true, "a memory usage line expected",
                                       "a memory usage line without a page number", "page", NULL };
    partial_merge_sorted(in, &sr, put_memory, mem);
}

/* The events of every part, merged in the whole run's order: by access,
 * then location (each location's events are in one part). */
static void merge_events(partial_in *in, out_file *out)
{
    static const partial_sorted sr = { "event", "events-end", 2, false, "an event record expected",
                                       "an event record expected: ACCESS LOCATION CLOCK EVENT THREAD DEGREE", NULL,
                                       "an event out of order" };
    partial_merge_sorted(in, &sr, put_event, out);
}

static int merge_run(ciat *c, tool *t, partial_in *in, const char *out_dir);

/* The partial result of part i of n: where --shard I/N writes it. */
static char *jobs_part_path(const tool *t, uint32_t i, uint32_t n)
{
    char suffix[64];
    snprintf(suffix, sizeof suffix, "ciat_partial.%" PRIu32 "-of-%" PRIu32, i, n);
    return tool_output_path(t, suffix);
}

/* --jobs N: run the N parts as child processes of this one, each reading
 * the traces itself (the checks above ran once, here). Returns true in the
 * parent once every part succeeded (when one failed, its message is shown
 * once and the parent exits with its status, removing the parts written);
 * false in a child, which goes on as --shard I/N. */
static bool run_jobs(ciat *c, tool *t, uint32_t n)
{
    for (int k = 0; k < t->ts.count; k++)
        if (strcmp(t->ts.paths[k], "-") == 0 || (t->ts.call_paths && strcmp(t->ts.call_paths[k], "-") == 0))
            diag_usage_error("--jobs: every part reads the traces, so none can be standard input ('-')");
    trace_set_close_readers(&t->ts, t->readers);
    t->readers = NULL;
    fflush(NULL);
    /* Part 0 writes on standard error (its progress meter, warnings and
     * errors: what one run would write); the others into files of their
     * own, shown only when such a part fails and part 0 did not. So every
     * message appears once. */
    pid_t *kid = xcalloc(n, sizeof *kid);
    FILE **err = xcalloc(n, sizeof *err);
    for (uint32_t i = 1; i < n; i++)
        if (!(err[i] = tmpfile())) diag_fatal(EXIT_DATA, NULL, DIAG_NO_OFFSET, "cannot create a temporary file");
    for (uint32_t i = 0; i < n; i++) {
        kid[i] = fork();
        if (kid[i] < 0) diag_fatal(EXIT_DATA, NULL, DIAG_NO_OFFSET, "--jobs: cannot start part %" PRIu32 ": %s", i,
                                   strerror(errno));
        if (kid[i] == 0) {
            if (i) {
                dup2(fileno(err[i]), STDERR_FILENO);
                t->ro.quiet = true;             /* one progress meter */
            }
            for (uint32_t j = 1; j < n; j++) fclose(err[j]);
            free(err);
            free(kid);
            c->part.i = i;
            trace_set_free(&t->ts);             /* made again, with its own readers */
            tool_open(t, t->ops, t->nops);
            return false;
        }
    }
    int status = EXIT_OK, shown = -1;
    for (uint32_t i = 0; i < n; i++) {
        int st;
        while (waitpid(kid[i], &st, 0) < 0 && errno == EINTR) {}
        int code = WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_INTERNAL;
        if (code != EXIT_OK && status == EXIT_OK) {
            status = code;
            shown = (int)i;
        }
    }
    if (shown > 0) {                            /* part 0 ran through: this part's messages */
        char buf[4096];
        size_t k;
        rewind(err[shown]);
        while ((k = fread(buf, 1, sizeof buf, err[shown])) > 0) fwrite(buf, 1, k, stderr);
    }
    for (uint32_t i = 1; i < n; i++) fclose(err[i]);
    free(err);
    free(kid);
    if (status == EXIT_OK) return true;
    for (uint32_t i = 0; i < n; i++) {         /* what the parts that finished wrote */
        char *p = jobs_part_path(t, i, n);
        unlink(p);
        free(p);
    }
    exit(status);
}

/* --jobs N, once every part succeeded: the parts' results are opened, then
 * removed (nothing of them is left, whatever happens next), and merged. */
static int merge_jobs(ciat *c, tool *t)
{
    uint32_t n = c->part.n;
    char **paths = xcalloc(n, sizeof *paths);
    for (uint32_t i = 0; i < n; i++) paths[i] = jobs_part_path(t, i, n);
    partial_in *in = partial_open("ciat", paths, (int)n);
    for (uint32_t i = 0; i < n; i++) {
        unlink(paths[i]);
        free(paths[i]);
    }
    free(paths);
    memset(&c->part, 0, sizeof c->part);
    return merge_run(c, t, in, NULL);
}

/* ciat --merge PART...: the report and memory usage file of the whole run. */
static int merge_main(ciat *c, tool *t)
{
    partial_merge_args(t->argc, t->argv);
    partial_in *in = partial_open("ciat", t->ops, t->nops);
    partial_merge_out_dir(t->ro.out_dir);
    return merge_run(c, t, in, t->ro.out_dir);
}

/* The whole run's outputs from the parts opened in `in` (partial_merge_prefix's names). */
static int merge_run(ciat *c, tool *t, partial_in *in, const char *out_dir)
{
    c->n = partial_traces(in);
    char *prefix = partial_merge_prefix(partial_path(in, 0), "ciat", out_dir);
    size_t plen = strlen(prefix) + 32;
    char *rep_path = xmalloc(plen), *mem_path = xmalloc(plen);
    snprintf(rep_path, plen, "%s.ciat_report", prefix);
    snprintf(mem_path, plen, "%s.memory", prefix);
    c->rep = report_open(rep_path);
    if (partial_json(in)) report_add_json(c->rep);
    out_file *mem = out_file_open(mem_path, false);
    c->phase = xcalloc((size_t)c->n, sizeof *c->phase);
    c->total = xcalloc((size_t)c->n, sizeof *c->total);
    c->sc = xcalloc((size_t)c->n, sizeof *c->sc);
    sched_cpu_counts *cpus = NULL;
    usage_totals u = { 0 };
    char **header = NULL;
    size_t nheader = 0, hcap = 0;
    sched_phase ph = { 0 };
    bool in_phase = false, memory = false, usage = false, sizes = false;
    out_file *events = NULL, *svg = NULL;
    char *svg_title = NULL;
    unsigned svg_size = 0;
    bool attribution = false;
    out_file *annotated = NULL;
    /* the fs-thread (code false) and fs-code records, in the parts' order */
    struct { uint64_t addr, pc, loads, stores, mask; int t; bool code; } *c2c = NULL;
    size_t nc2c = 0, c2c_cap = 0;
    char *set_name = NULL;
    struct { int ll; char *line; } *locks_lines_v = NULL;     /* L52-L63 of part 0: "NAME TEXT" */
    size_t nlocks_lines = 0, locks_cap = 0;
    bool locks_seen = false;
    out_file *tl_svg = NULL;                /* --timeline: the picture, its title and size, part 0's data */
    char *tl_title = NULL;
    unsigned tl_size[2] = { 0, 0 };
    timeline *tl = NULL;
    for (;;) {
        partial_rec r = partial_next(in, 0);
        bool bare = strcmp(r.tag, "end-phase") == 0 || strcmp(r.tag, "memory-end") == 0 || strcmp(r.tag, "end") == 0 ||
                    strcmp(r.tag, "comm-matrix") == 0 || strcmp(r.tag, "events-begin") == 0 ||
                    strcmp(r.tag, "fs-lines-begin") == 0 || strcmp(r.tag, "fs-threads-begin") == 0 ||
                    strcmp(r.tag, "annotate") == 0 || strcmp(r.tag, "locks-begin") == 0 ||
                    strcmp(r.tag, "timeline-begin") == 0;
        if (bare != !*r.rest) partial_fail(in, 0, bare ? "'%s' has no fields" : "'%s' without its fields", r.tag);
        bool phase_rec = strcmp(r.tag, "counts") == 0 || strcmp(r.tag, "stats") == 0 || strcmp(r.tag, "cpu") == 0 ||
                         strcmp(r.tag, "comm") == 0 || strcmp(r.tag, "inval") == 0 || strcmp(r.tag, "fs") == 0 ||
                         strcmp(r.tag, "end-phase") == 0;
        if (phase_rec != in_phase && !(strcmp(r.tag, "phase") == 0 && !in_phase))
            partial_fail(in, 0, in_phase ? "'%s' inside a phase" : "'%s' outside a phase", r.tag);
        if (strcmp(r.tag, "fs") == 0 || strcmp(r.tag, "fs-patterns") == 0) {
            bool line = r.tag[2] == '\0';
            if (!c->fs) partial_fail(in, 0, "false sharing counts, but no false-sharing record");
            for (int k = 0; k < partial_parts(in); k++) {
                partial_rec rk = partial_beside(in, k, &r);
                uint64_t v[1 + FS_SUMS * FS_PATTERNS];
                if (line) {
                    partial_parse_u64s(in, k, rk.rest, v, 1 + FS_KINDS);
                    if (v[0] >= (uint64_t)c->n) partial_fail(in, k, "no such thread");
                    for (int j = 0; j < FS_KINDS; j++) c->fs->phase[v[0]][j] += v[1 + j];
                } else {
                    partial_parse_u64s(in, k, rk.rest, v, FS_SUMS * FS_PATTERNS);
                    for (int j = 0; j < FS_SUMS * FS_PATTERNS; j++) (&c->merged_patterns[0][0])[j] += v[j];
                }
            }
            continue;
        }
        if (strcmp(r.tag, "fs-lines-begin") == 0) {
            if (!c->fs) partial_fail(in, 0, "false sharing lines, but no false-sharing record");
            partial_expect_alike(in, &r);
            fs_tops *tops = c->merged_top;
            for (int k = 0; k < partial_parts(in); k++)
                for (uint64_t got = 0;; got++) {
                    partial_rec rk = partial_next(in, k);
                    if (strcmp(rk.tag, "fs-lines-end") == 0 && !*rk.rest) break;
                    if (strcmp(rk.tag, "fs-line") != 0 || got >= c->o.false_lines)
                        partial_fail(in, k, "at most %" PRIu64 " fs-line records expected", c->o.false_lines);
                    uint64_t v[2];          /* the threads keep their leading blank (as L19 prints them) */
                    const char *text = partial_lead_u64s(in, k, rk.rest, v, 2, "fs-line ADDRESS MISSES THREADS expected");
                    tops->cap = xgrow((void **)&tops->v, tops->cap, tops->n + 1, sizeof *tops->v);
                    tops->v[tops->n++] = (fs_top){ v[0], v[1], xstrdup(text) };
                }
            continue;
        }
        bool row = strcmp(r.tag, "comm") == 0 || strcmp(r.tag, "inval") == 0;
        if (strcmp(r.tag, "stats") == 0 || row) {
            if (row && !c->mphase) partial_fail(in, 0, "a matrix row, but no comm-matrix record");
            for (int k = 0; k < partial_parts(in); k++) {
                partial_rec rk = partial_beside(in, k, &r);
                if (!row) {
                    partial_add_stats(in, k, rk.rest, c->phase, c->n);
                    continue;
                }
                char *end;
                unsigned long t = strtoul(rk.rest, &end, 10);
                if (end == rk.rest || t >= (unsigned long)c->n ||
                    !cm_add_row_text(r.tag[0] == 'c' ? &c->mphase->comm[t] : &c->mphase->inval[t], end, c->n))
                    partial_fail(in, k, "a matrix row expected: THREAD PARTNER:COUNT...");
            }
            continue;
        }
        if (strcmp(r.tag, "usage") == 0 || strcmp(r.tag, "data_sizes") == 0) {
            bool is_usage = r.tag[0] == 'u';
            if (is_usage ? usage : sizes) partial_fail(in, 0, "a second '%s' record", r.tag);
            if (is_usage) usage = true;
            else sizes = true;
            size_t n = is_usage ? USAGE_FIELDS : 1;
            uint64_t *into = is_usage ? (uint64_t *)&u : &c->data_sizes, v[USAGE_FIELDS];
            for (int k = 0; k < partial_parts(in); k++) {
                partial_rec rk = partial_beside(in, k, &r);
                partial_parse_u64s(in, k, rk.rest, v, n);
                for (size_t i = 0; i < n; i++) into[i] += v[i];
            }
            continue;
        }
        if (strcmp(r.tag, "attr-begin") == 0) {
            attr *a = strcmp(r.rest, "code") == 0 ? c->acode : strcmp(r.rest, "data") == 0 ? c->adata : NULL;
            if (!a) partial_fail(in, 0, "a table the run has not: '%s'", r.rest);
            partial_expect_alike(in, &r);
            for (int k = 0; k < partial_parts(in); k++)
                for (;;) {
                    partial_rec rk = partial_next(in, k);
                    if (strcmp(rk.tag, "attr-end") == 0 && !*rk.rest) break;
                    uint64_t v[4];
                    if (strcmp(rk.tag, "attr") != 0) partial_fail(in, k, "an attr record expected");
                    partial_parse_u64s(in, k, rk.rest, v, 4);
                    if (v[0] > ATTR_UNKNOWN && a == c->acode) partial_fail(in, k, "no such pc");
                    attr_add_counts(a, v[0], v + 1);
                }
            continue;
        }
        if (strcmp(r.tag, "fs-threads-begin") == 0) {
            if (!c->fs || !annotated) partial_fail(in, 0, "fs-thread records, but no false-sharing or annotate record");
            partial_expect_alike(in, &r);
            for (int k = 0; k < partial_parts(in); k++)
                for (;;) {
                    partial_rec rk = partial_next(in, k);
                    if (strcmp(rk.tag, "fs-threads-end") == 0 && !*rk.rest) break;
                    bool code = strcmp(rk.tag, "fs-code") == 0;
                    if (!code && strcmp(rk.tag, "fs-thread") != 0)
                        partial_fail(in, k, "an fs-thread or fs-code record expected");
                    uint64_t v[5] = { 0 };
                    partial_parse_u64s(in, k, rk.rest, v, code ? 5 : 3);
                    if (!code && v[1] >= (uint64_t)c->n) partial_fail(in, k, "no such thread");
                    if (code && (!nc2c || c2c[nc2c - 1].addr != v[0]))
                        partial_fail(in, k, "an fs-code record not after the fs-thread of its line");
                    c2c_cap = xgrow((void **)&c2c, c2c_cap, nc2c + 1, sizeof *c2c);
                    c2c[nc2c].addr = v[0];
                    c2c[nc2c].code = code;
                    c2c[nc2c].t = code ? 0 : (int)v[1];
                    c2c[nc2c].pc = code ? v[1] : 0;
                    c2c[nc2c].loads = code ? v[2] : 0;
                    c2c[nc2c].stores = code ? v[3] : 0;
                    c2c[nc2c++].mask = code ? v[4] : v[2];
                }
            continue;
        }
        if (strcmp(r.tag, "locks-begin") == 0) {
            if (locks_seen) partial_fail(in, 0, "a second locks-begin record");
            locks_seen = true;
            partial_expect_alike(in, &r);
            for (int k = 0; k < partial_parts(in); k++)
                for (;;) {
                    partial_rec rk = partial_next(in, k);
                    if (strcmp(rk.tag, "locks-end") == 0 && !*rk.rest) break;
                    uint64_t ll;
                    const char *p = k || strcmp(rk.tag, "lock-line") != 0 ? NULL :
                                    partial_lead_u64s(in, k, rk.rest, &ll, 1, "lock-line LL NAME TEXT expected");
                    const char *sp = p ? strchr(p + 1, ' ') : NULL;
                    if (!p || ll < 52 || ll > 63 || !sp || sp == p + 1)
                        partial_fail(in, k, k ? "locks-end expected: the lock lines are part 0's"
                                              : "lock-line LL NAME TEXT expected, LL 52-63");
                    locks_cap = xgrow((void **)&locks_lines_v, locks_cap, nlocks_lines + 1, sizeof *locks_lines_v);
                    locks_lines_v[nlocks_lines].ll = (int)ll;
                    locks_lines_v[nlocks_lines++].line = xstrdup(p + 1);    /* NAME TEXT */
                }
            continue;
        }
        if (strcmp(r.tag, "timeline-begin") == 0) {
            if (tl) partial_fail(in, 0, "a second timeline-begin record");
            tl = timeline_new(c->n);
            partial_expect_alike(in, &r);
            for (int k = 0; k < partial_parts(in); k++)
                for (;;) {
                    partial_rec rk = partial_next(in, k);
                    bool last = strcmp(rk.tag, "timeline-end") == 0 && !*rk.rest;
                    if (k && !last) partial_fail(in, k, "timeline-end expected: the timeline records are part 0's");
                    if (k && last) break;
                    const char *why = timeline_load(tl, rk.tag, rk.rest);
                    if (why) partial_fail(in, k, "%s", why);
                    if (last) break;
                }
            continue;
        }
        if (strcmp(r.tag, "memory-begin") == 0) {
            if (memory) partial_fail(in, 0, "a second memory-begin record");
            memory = true;
            uint64_t page_size;
            partial_parse_u64s(in, 0, r.rest, &page_size, 1);
            partial_expect_alike(in, &r);
            memusage_write_header(out_file_stream(mem), page_size);
            merge_memory(in, out_file_stream(mem));
            continue;
        }
        partial_expect_alike(in, &r);
        if (strcmp(r.tag, "events-begin") == 0) {
            if (!events || !set_name) partial_fail(in, 0, "events, but no events and set records");
            events_header(events, set_name);
            merge_events(in, events);
            continue;
        }
        if (strcmp(r.tag, "end") == 0) {
            if (!memory || !usage || !sizes)
                partial_fail(in, 0, "the end, without its %s", !memory ? "memory usage lines" : "usage totals");
            if ((events || svg || annotated) && !set_name) partial_fail(in, 0, "the end, without the set's name");
            if (attribution && !c->o.attr.by_code && !c->o.attr.by_data && !annotated)
                partial_fail(in, 0, "attribution of nothing (no --by-code, --by-data or --annotate)");
            if (svg && !c->mtotal) partial_fail(in, 0, "a matrix picture, but no comm-matrix record");
            if (!tl_svg != !tl) partial_fail(in, 0, "the end, with a timeline-svg record but no timeline records or"
                                                    " the other way round");
            if (tl_svg && !set_name) partial_fail(in, 0, "the end, without the set's name");
            break;
        }
        if (strcmp(r.tag, "matrix-title") == 0 || strcmp(r.tag, "matrix-size") == 0) {
            if (r.tag[7] == 't') {
                free(svg_title);
                svg_title = xstrdup(r.rest);
            } else {
                uint64_t v;
                partial_parse_u64s(in, 0, r.rest, &v, 1);
                if (v < 16 || v > 8192) partial_fail(in, 0, "no such matrix size");
                svg_size = (unsigned)v;
            }
            continue;
        }
        if (strcmp(r.tag, "timeline-title") == 0) {
            free(tl_title);
            tl_title = xstrdup(r.rest);
            continue;
        }
        if (strcmp(r.tag, "timeline-size") == 0) {
            uint64_t v[2];
            partial_parse_u64s(in, 0, r.rest, v, 2);
            char why[160];
            if (v[0] < 100 || v[0] > 5000 || v[1] < 50 || v[1] > 5000 ||
                !timeline_size_check(c->n, (unsigned)v[0], (unsigned)v[1], why, sizeof why))
                partial_fail(in, 0, "no such timeline size");
            tl_size[0] = (unsigned)v[0];
            tl_size[1] = (unsigned)v[1];
            continue;
        }
        if (strcmp(r.tag, "timeline-svg") == 0) {
            if (tl_svg) partial_fail(in, 0, "a second timeline-svg record");
            tl_svg = merge_output(in, "timeline-svg", r.rest);
        } else if (strcmp(r.tag, "matrix-svg") == 0) {
            if (svg) partial_fail(in, 0, "a second matrix-svg record");
            svg = merge_output(in, "matrix-svg", r.rest);
        } else if (strcmp(r.tag, "false-sharing") == 0) {
            uint64_t v[4];
            partial_parse_u64s(in, 0, r.rest, v, 4);
            if (c->fs || v[1] < 1 || v[1] > 64 || (v[1] & (v[1] - 1)) || v[0] < v[1] || v[0] > 64 * v[1] ||
                (v[0] & (v[0] - 1)) || v[2] > 1000000 || v[3] > 100)
                partial_fail(in, 0, "false-sharing LINE_SIZE GRAIN LINES MIGRATORY expected, once");
            c->o.false_sharing = true;
            c->o.line_size = v[0];
            c->o.grain = v[1];
            c->o.false_lines = v[2];
            c->o.migratory_pct = v[3];
            c->fs = xcalloc(1, sizeof *c->fs);
            fs_init(c->fs, c->n, (uint32_t)v[0], (uint32_t)v[1]);
            c->merged_top = xcalloc(1, sizeof *c->merged_top);
            c->merged_patterns = xcalloc(FS_SUMS, sizeof *c->merged_patterns);
        } else if (strcmp(r.tag, "attribution") == 0) {
            uint64_t v[2];
            partial_parse_u64s(in, 0, r.rest, v, 2);
            if (attribution || v[0] > 1000000 || v[1] > 1000000)
                partial_fail(in, 0, "attribution BY_CODE BY_DATA expected, once");
            attribution = true;
            c->o.attr.by_code = (uint32_t)v[0];
            c->o.attr.by_data = (uint32_t)v[1];
            if (v[0]) c->acode = attr_new(3, fig_names);
            if (v[1]) c->adata = attr_new(3, fig_names);
        } else if (strcmp(r.tag, "annotate") == 0) {
            if (!attribution || annotated) partial_fail(in, 0, "annotate without attribution, or twice");
            c->o.attr.annotate = true;
            if (!c->acode) c->acode = attr_new(3, fig_names);
            size_t al = strlen(prefix) + 32;
            char *ap = xmalloc(al);
            snprintf(ap, al, "%s.ciat_annotated", prefix);
            annotated = out_file_open(ap, false);
            free(ap);
        } else if (strcmp(r.tag, "attr-map") == 0) {
            if (!attribution || c->amap) partial_fail(in, 0, "attr-map without attribution, or twice");
            c->amap = attr_map_load(r.rest);
        } else if (strcmp(r.tag, "events") == 0 || strcmp(r.tag, "set") == 0) {
            if (events && r.tag[0] == 'e') partial_fail(in, 0, "a second events record");
            if (r.tag[0] == 's') {
                free(set_name);
                set_name = xstrdup(r.rest);
            } else if (strcmp(r.rest, "beside") == 0) {
                size_t elen = strlen(prefix) + 16;
                char *ev_path = xmalloc(elen);
                snprintf(ev_path, elen, "%s.ciat_events", prefix);
                events = out_file_open(ev_path, false);
                free(ev_path);
            } else if (strncmp(r.rest, "file ", 5) == 0 && r.rest[5]) {
                events = merge_output(in, "events file", r.rest + 5);
            } else {
                partial_fail(in, 0, "events beside or events file PATH expected");
            }
        } else if (strcmp(r.tag, "comm-matrix") == 0) {
            if (c->mphase) partial_fail(in, 0, "a second comm-matrix record");
            c->mphase = xcalloc(1, sizeof *c->mphase);
            c->mtotal = xcalloc(1, sizeof *c->mtotal);
            cm_init(c->mphase, c->n);
            cm_init(c->mtotal, c->n);
        } else if (strcmp(r.tag, "header") == 0) {
            hcap = xgrow((void **)&header, hcap, nheader + 1, sizeof *header);
            header[nheader++] = xstrdup(r.rest);
        } else if (strcmp(r.tag, "phase") == 0) {
            uint64_t v[7];
            partial_parse_u64s(in, 0, r.rest, v, 7);
            if (v[1] > PHASE_PARALLEL || v[2] > PHASE_BY_MARKER || v[3] > (uint64_t)c->n || v[6] > 1)
                partial_fail(in, 0, "no such phase");
            ph = (sched_phase){ .number = (int)v[0], .kind = (sched_phase_kind)v[1], .by = (sched_phase_cause)v[2],
                                .active = (int)v[3], .start_clock = v[4], .end_clock = v[5], .last = v[6] };
            for (int k = 0; k < c->n; k++) ciat_stats_clear(&c->phase[k]);
            if (c->mphase) cm_clear(c->mphase);
            if (c->fs) fs_phase_begin(c->fs);
            in_phase = true;
        } else if (strcmp(r.tag, "counts") == 0 || strcmp(r.tag, "total") == 0) {
            int k;
            sched_counts sc;
            partial_parse_counts(in, 0, r.rest, &k, &sc);
            c->sc[k] = sc;
        } else if (strcmp(r.tag, "cpu") == 0 || strcmp(r.tag, "cpu-total") == 0) {
            uint64_t v[4];
            partial_parse_u64s(in, 0, r.rest, v, 4);
            if (v[0] >= 4096) partial_fail(in, 0, "no such processor");
            if ((int)v[0] >= c->ncpus) {
                cpus = xrealloc(cpus, (v[0] + 1) * sizeof *cpus);
                c->ncpus = (int)v[0] + 1;
            }
            cpus[v[0]] = (sched_cpu_counts){ v[1], v[2], v[3] };
            c->cpus = cpus;
        } else if (strcmp(r.tag, "end-phase") == 0) {
            phase_report(c, &ph);
            in_phase = false;
        } else if (strcmp(r.tag, "trace") != 0) {
            partial_fail(in, 0, "no such record: '%s'", r.tag);
        }
    }
    aggregate_report(c);
    uint64_t fetched = 0;
    for (int k = 0; k < c->n; k++) fetched += c->sc[k].is.fetched;
    usage_report(c->rep, &u, c->data_sizes, fetched);
    if (c->fs) fs_report_pattern_sums(c->rep, c->merged_patterns);
    if (annotated) {
        char title[4200];
        snprintf(title, sizeof title, "ciat annotated source of %s", set_name);
        attr_annotate(c->acode, c->amap, annotated, title);
        if (c->fs) {                /* the merged top lines (ranked by aggregate_report), thread by thread */
            c2c_view *o = c2c_view_new(annotated, c->amap, c->fs);
            const fs_c2c_fns *fn = &c2c_view_fns;
            for (size_t i = 0; i < c->merged_top->n && i < c->o.false_lines; i++) {
                fn->line(o, c->merged_top->v[i].addr, c->merged_top->v[i].misses);
                for (size_t j = 0; j < nc2c; j++) {
                    if (c2c[j].addr != c->merged_top->v[i].addr) continue;
                    if (c2c[j].code) fn->code(o, c2c[j].pc, c2c[j].loads, c2c[j].stores, c2c[j].mask);
                    else fn->thread(o, c2c[j].t, c2c[j].mask);
                }
            }
            c2c_view_end(o);
        }
    }
    free(c2c);
    if (c->o.attr.by_code) attr_report(c->acode, c->rep, 50, "code", true, c->amap, c->o.attr.by_code);
    if (c->adata) attr_report(c->adata, c->rep, 51, "data", false, c->amap, c->o.attr.by_data);
    for (size_t i = 0; i < nlocks_lines; i++) {
        char *name = locks_lines_v[i].line, *text = strchr(name, ' ');
        *text++ = '\0';                        /* checked when read */
        report_line(c->rep, REPORT_ALL_PHASES, REPORT_ALL_THREADS, locks_lines_v[i].ll, name, "%s", text);
        free(name);
    }
    free(locks_lines_v);
    if (svg) {
        char title[4200];
        snprintf(title, sizeof title, "RAW accesses of %s", set_name);
        cm_write_svg(svg, c->mtotal, svg_title ? svg_title : title, svg_size);
    }
    if (tl_svg) {
        char title[4200];
        snprintf(title, sizeof title, "Where the time goes in %s", set_name);
        timeline_write_svg(tl, tl_svg, tl_title ? tl_title : title, tl_size[0], tl_size[1]);
    }
    timeline_free(tl);
    free(tl_title);
    ciat_summary sm = { c, &u };
    report_tool_header_command(c->rep, partial_command(in));
    summary_lines(&sm, c->rep);
    for (size_t i = 0; i < nheader; i++) {
        report_header(c->rep, "%s", header[i]);
        free(header[i]);
    }
    free(header);
    report_finish(c->rep);
    tool_commit(t);
    for (int k = 0; k < c->n; k++) {
        ciat_stats_free(&c->phase[k]);
        ciat_stats_free(&c->total[k]);
    }
    free(c->phase);
    free(c->total);
    free(c->sc);
    free(cpus);
    if (c->mphase) {
        cm_free(c->mphase);
        cm_free(c->mtotal);
        free(c->mphase);
        free(c->mtotal);
    }
    partial_close(in);
    if (c->fs) {
        fs_tops *tops = c->merged_top;
        for (size_t i = 0; i < tops->n; i++) free(tops->v[i].threads);
        free(tops->v);
        free(tops);
        free(c->merged_patterns);
        fs_free(c->fs);
        free(c->fs);
    }
    attr_free(c->acode);
    attr_free(c->adata);
    attr_map_free(c->amap);
    free(set_name);
    free(svg_title);
    free(prefix);
    free(rep_path);
    free(mem_path);
    tool_free(t);
    return EXIT_OK;
}

int main(int argc, char **argv)
{
    ciat c = { .o = { .grain = 4, .page_size = 4096, .false_lines = 10, .migratory_pct = 50 } };
    bool json = false, merge = false, no_report = false;
    uint64_t workers = 0;       /* --workers; 0: one per processor */
    uint64_t jobs = 1;          /* --jobs */
    const tool_option own[] = {
        { { "ciat-events", 0, "ciat_events", OPT_FLAG, NULL, &c.o.events, NULL, 0, 0,
          "also write the communication event trace <prefix>.ciat_events" }, "events", NULL, false },
        { { "events", 0, NULL, OPT_STRING, "FILE", &c.o.events_path, NULL, 0, 0,
            "write the event trace to FILE instead ('-': standard output, so 'ciat --events - pc.4 |"
            " tdat - ...' works)" }, NULL, NULL, false },
        { { "grain", 0, NULL, OPT_UINT, "BYTES", &c.o.grain, NULL, 1, 64,
          "location size for the communication analysis: a power of two 1..64 (default 4)" }, "grain", NULL, false },
        { { "page-size", 0, "page_size", OPT_UINT, "BYTES", &c.o.page_size, NULL, 64, 1ull << 31,
          "page size for memory usage: a power of two >= 64 (default 4096)" }, "page_size", NULL, false },
        { { "hpux", 0, "HPUX", OPT_FLAG, NULL, &c.o.hpux, NULL, 0, 0,
          "addresses 0x40000000-0x7fffffff are private; other pages are range-shared" }, NULL, NULL, false },
        { { "comm-matrix", 0, "comm_matrix", OPT_FLAG, NULL, &c.o.matrix, NULL, 0, 0,
            "also report who communicates with whom: lines L16 comm and L17 inval" }, NULL, NULL, false },
        { { "matrix-svg", 0, "matrix_svg", OPT_STRING, "FILE", &c.o.matrix_svg, NULL, 0, 0,
            "also draw the run's L16 matrix as an SVG heatmap into FILE (implies --comm-matrix)" }, NULL, NULL, false },
        { { "matrix-title", 0, NULL, OPT_STRING, "TEXT", &c.o.matrix_title, NULL, 0, 0,
            "the --matrix-svg picture's title (default 'RAW accesses of SET')" }, NULL, NULL, false },
        { { "matrix-size", 0, NULL, OPT_UINT, "PX", &c.o.matrix_size, NULL, 16, 8192,
            "the --matrix-svg picture's matrix, PX pixels a side (default: 32-pixel cells up to 16 threads,"
            " smaller ones for more)" }, NULL, NULL, false },
        { { "false-sharing", 0, "false_sharing", OPT_FLAG, NULL, &c.o.false_sharing, NULL, 0, 0,
            "also classify the misses of per-thread infinite caches as cold, true or false sharing (L18, L19)" },
          NULL, NULL, false },
        { { "line-size", 0, "line_size", OPT_UINT, "BYTES", &c.o.line_size, NULL, 1, 1ull << 12,
            "line size for --false-sharing (implies it): a power of two, grain..64 x grain (default 64)" },
          NULL, NULL, false },
        { { "false-lines", 0, "false_lines", OPT_UINT, "N", &c.o.false_lines, NULL, 0, 1000000,
            "how many of the most falsely shared lines L19 lists (default 10)" }, NULL, NULL, false },
        { { "migratory", 0, NULL, OPT_UINT, "PCT", &c.o.migratory_pct, NULL, 0, 100,
            "a line written by several threads is migratory (L42) when PCT % of its hand-offs are (default 50)" },
          NULL, NULL, false },
        { { "private-range", 0, "private_range", OPT_CALL, "LO:HI", &c.o.ranges, private_ranges_parse, 0, 0,
          "an address range of private pages (repeatable); other pages are range-shared" }, NULL, NULL, false },
        { { "json", 0, NULL, OPT_FLAG, NULL, &json, NULL, 0, 0,
            "also write the report as JSON, <prefix>.ciat_report.json (docs/json.md)" }, NULL, NULL, false },
        { { "by-code", 0, NULL, OPT_CALL, "[=N]", &c.o.attr.by_code, attr_top_parse, 0, 0,
            "also list the N functions and source lines (default 10) with the most RAW, WAR and (with"
            " --false-sharing) false sharing misses: lines L50" }, "by_code", attr_top_show, true },
        { { "by-data", 0, NULL, OPT_CALL, "[=N]", &c.o.attr.by_data, attr_top_parse, 0, 0,
            "the same by data object, heap allocation site or mapping: lines L51" }, "by_data", attr_top_show, true },
        { { "locks", 0, NULL, OPT_CALL, "[=N]", &c.o.locks, attr_top_parse, 0, 0,
            "also list the N locks (default 10) with the most wait in the replay: acquisitions, contended ones,"
            " hand-offs, wait and hold times, each named through the address map (--map, or <prefix>.map when"
            " it exists; L52-L54), and the N pairs of locks most often nested (L55); per lock listed its 4"
            " source lines (the pc of the acquiring call) with the most wait (L61), and the N pairs (A, B) where B"
            " was a thread's next lock after it let A go (L62)" }, "locks", attr_top_show, true },
        { { "intervals", 0, NULL, OPT_FLAG, NULL, &c.o.intervals, NULL, 0, 0,
            "also list the time between consecutive markers of each thread, per pair of marker numbers, in"
            " pseudo cycles and recorded microseconds (L56)" }, "intervals", NULL, true },
        { { "barriers", 0, NULL, OPT_CALL, "[=N]", &c.o.barriers, attr_top_parse, 0, 0,
            "also list the N barriers (default 10) with the most wait in the replay: episodes, arrival spread in"
            " pseudo cycles and recorded microseconds, waits, the thread most often last, each named through the"
            " address map (L57), and per thread its barrier wait and times it arrived last (L58)" },
          "barriers", attr_top_show, true },
        { { "critical-path", 0, NULL, OPT_CALL, "[=N]", &c.o.critical_path, attr_top_parse, 0, 0,
            "also find the longest chain of the replay's happens-before graph (program order and every hand-over:"
            " locks, ordered sections, recorded releases, barriers, spawn, join): work, span and parallelism in"
            " executed instructions, and a speedup bound (L59); and the N objects and threads (default 10) whose"
            " hand-overs and instructions make up most of the chain, named through the address map (L60), and the N"
            " source lines of the calls (lock acquisitions, barrier waits) whose hand-overs began most of it (L63)" },
          "critical_path", attr_top_show, true },
        { { "timeline", 0, NULL, OPT_STRING, "FILE", &c.o.timeline, NULL, 0, 0,
            "also draw where the time goes as an SVG into FILE: per thread a row over the pseudo clock, coloured"
            " busy, lock wait, barrier wait, other sync wait or I/O wait, with the hand-offs of the lock with the"
            " most wait (docs/timeline.md; not in slice mode)" }, NULL, NULL, false },
        { { "timeline-title", 0, NULL, OPT_STRING, "TEXT", &c.o.timeline_title, NULL, 0, 0,
            "the --timeline picture's title (default 'Where the time goes in SET')" }, NULL, NULL, false },
        { { "timeline-size", 0, NULL, OPT_CALL, "WxH", c.o.timeline_size, timeline_size_parse, 0, 0,
            "the --timeline picture's width and height in points, W 100..5000, H 50..5000 (default 245 points"
            " = 3.4 in wide, the height by the thread count)" }, NULL, NULL, false },
        ATTR_MAP_OPTION_ROW(&c.o.attr.map_path, "--by-code/--by-data/--annotate/--locks/--barriers/--critical-path"),
        ATTR_ANNOTATE_OPTION_ROW(&c.o.attr.annotate, "ciat_annotated"),
        TOOL_WORKERS_OPTION_ROW(&workers),
        { { "shard", 0, NULL, OPT_CALL, "I/N", &c.part, ciat_part_parse, 0, 0,
            "analyse part I (0..N-1) of N and write <prefix>.ciat_partial.I-of-N instead of the report:"
            " each part owns the pages whose number mod N is I and the threads whose number mod N is I;"
            " --merge makes the whole run's outputs from the N parts (docs/sharding.md)" }, NULL, NULL, false },
        { { "jobs", 'j', NULL, OPT_UINT, "N", &jobs, NULL, 1, CIAT_PART_MAX,
            "run the analysis as N processes, each the part --shard I/N, and merge their results: the same"
            " outputs, each process with about 1/N of the location state (default 1; docs/sharding.md)" },
          NULL, NULL, false },
        { { "no-report", 0, NULL, OPT_FLAG, NULL, &no_report, NULL, 0, 0,
            "write the event trace only (with --events or -ciat_events): no report, no memory usage file, so"
            " 'ciat --no-report --events - pc.4 | tdat ...' leaves an earlier report as it was" }, NULL, NULL, false },
        { { "merge", 0, NULL, OPT_FLAG, NULL, &merge, NULL, 0, 0,
            "the operands are the N partial results of one run (ciat --shard I/N): write the report, memory"
            " usage file and JSON that run writes without --shard, beside them or into -o DIR" },
          NULL, NULL, false },
        { { 0 }, NULL, NULL, false }
    };
    tool t;
    tool_parse(&t, "ciat", own, argc, argv, usage_text);
    if (merge) return merge_main(&c, &t);
    if (!power_of_two(c.o.grain)) diag_usage_error("-grain must be a power of two (1..64), not %" PRIu64, c.o.grain);
    if (!power_of_two(c.o.page_size)) diag_usage_error("-page_size must be a power of two, not %" PRIu64, c.o.page_size);
    if (c.o.hpux) private_ranges_add_hpux(&c.o.ranges);
    if (c.o.events_path) c.o.events = true;
    if (c.o.matrix_svg) c.o.matrix = true;
    if (c.o.line_size) c.o.false_sharing = true;
    else c.o.line_size = 64 > c.o.grain ? 64 : c.o.grain;
    if (!power_of_two(c.o.line_size) || c.o.line_size < c.o.grain || c.o.line_size > 64 * c.o.grain)
        diag_usage_error("-line_size must be a power of two from the grain (%" PRIu64 ") to 64 x the grain"
                         " (%" PRIu64 "), not %" PRIu64, c.o.grain, 64 * c.o.grain, c.o.line_size);

    attr_options_check(&c.o.attr, "--by-code, --by-data, --annotate, --locks, --barriers or --critical-path",
                       c.o.locks || c.o.barriers || c.o.critical_path);
    if (sync_lines_asked(&c.o) && t.ro.slice_cpus)
        diag_usage_error("--%s is for thread mode: slice mode (-i) runs processes on processors, whose clocks and"
                         " waits are the processors'", c.o.locks ? "locks" : c.o.intervals ? "intervals" : c.o.barriers ? "barriers" : "critical-path");
    if (jobs > 1 && c.part.n) diag_usage_error("--jobs runs the parts itself: give --jobs or --shard, not both");
    if ((c.o.timeline_title || c.o.timeline_size[0]) && !c.o.timeline)
        diag_usage_error("--%s is the --timeline picture's: give --timeline FILE",
                         c.o.timeline_title ? "timeline-title" : "timeline-size");
    if (c.o.timeline && !*c.o.timeline) diag_usage_error("--timeline: the file name is empty");
    if (c.o.timeline_title && !*c.o.timeline_title) diag_usage_error("--timeline-title: the title is empty");
    if (c.o.timeline && t.ro.slice_cpus)
        diag_usage_error("--timeline is for thread mode: slice mode (-i) runs processes on processors, whose clocks"
                         " and waits are the processors'");
    if (no_report && c.o.timeline) diag_usage_error("--no-report writes the event trace only: not with --timeline");
    char *timeline_title = NULL;    /* the title, control characters as blanks (a partial record is one line) */
    if (c.o.timeline_title) {
        timeline_title = xstrdup(c.o.timeline_title);
        for (char *p = timeline_title; *p; p++)
            if ((unsigned char)*p < 0x20) *p = ' ';
        c.o.timeline_title = timeline_title;
    }
    if (no_report && !c.o.events)
        diag_usage_error("--no-report writes the event trace only: give --events FILE (or -) or -ciat_events");
    if (no_report && (json || c.o.matrix_svg || c.o.attr.annotate || c.part.n || jobs > 1))
        diag_usage_error("--no-report writes the event trace only: not with --json, --matrix-svg, --annotate,"
                         " --shard or --jobs");
    if (jobs > 1) c.part.n = (uint32_t)jobs;
    if (c.part.n) {
        if (c.o.false_sharing && c.o.line_size > c.o.page_size)
            diag_usage_error("--shard with --false-sharing: a line of %" PRIu64 " bytes spans pages of %" PRIu64
                             " (parts own pages): give --line-size at most --page-size", c.o.line_size, c.o.page_size);
        c.part.page_shift = (uint32_t)__builtin_ctzll(c.o.page_size);
    }

    tool_open(&t, t.ops, t.nops);
    if (t.ts.count > LOC_MAX_THREADS) diag_usage_error("at most %d traces", LOC_MAX_THREADS);
    if (c.o.timeline) {
        char why[160];
        if (!timeline_size_check(t.ts.count, c.o.timeline_size[0], c.o.timeline_size[1], why, sizeof why))
            diag_usage_error("--timeline-size %ux%u is too small for %d threads: %s", c.o.timeline_size[0],
                             c.o.timeline_size[1], t.ts.count, why);
    }
    if (jobs > 1 && run_jobs(&c, &t, (uint32_t)jobs)) {
        int rc = merge_jobs(&c, &t);
        free(timeline_title);
        return rc;
    }
    /* a part of --jobs: one thread, unless there are processors to spare */
    if (jobs > 1 && !workers) workers = (uint64_t)fanout_processors() >= 2 * jobs ? 0 : 1;
    c.n = t.ts.count;
    c.readers = t.readers;
    if (attr_options_any(&c.o.attr) || c.o.locks || c.o.barriers || c.o.critical_path) {
        c.amap = attr_map_open(&t, c.o.attr.map_path);      /* a bad map stops here, before any output */
    }
    if (attr_options_any(&c.o.attr)) {
        if (c.o.attr.by_code || c.o.attr.annotate) c.acode = attr_new(3, fig_names);
        if (c.o.attr.by_data) c.adata = attr_new(3, fig_names);
        attr_pcs_init(&c.pcs, c.n);
    }

    /* Every output is opened (so checked) before the first record is read. */
    char *rep_path = tool_output_path(&t, "ciat_report");
    char *mem_path = tool_output_path(&t, "memory");
    out_file *mem = NULL;
    if (c.o.events) {
        /* Standard output is one stream: the events go there as the run makes them. */
        char *ev_path = c.o.events_path ? xstrdup(c.o.events_path) : tool_output_path(&t, "ciat_events");
        if (c.part.n) {         /* the part's events go into its partial result */
            c.part_events = tmpfile();
            if (!c.part_events) diag_fatal(EXIT_DATA, NULL, DIAG_NO_OFFSET, "cannot create a temporary file");
        } else {
            c.events = out_file_open(ev_path, false);
            events_header(c.events, t.ts.name);
        }
        free(ev_path);
    }
    if (c.part.n) {
        char *part_path = jobs_part_path(&t, c.part.i, c.part.n);
        c.partial = out_file_open(part_path, false);
        free(part_path);
        char *whole = partial_whole_command(argc, argv);
        partial_begin(c.partial, "ciat", c.part.i, c.part.n, whole, json, (const char *const *)t.ts.paths, c.n);
        free(whole);
        if (c.o.matrix) partial_text(c.partial, "comm-matrix", NULL);
        if (c.o.events && c.o.events_path) out_file_printf(c.partial, "events file %s\n", c.o.events_path);
        else if (c.o.events) partial_text(c.partial, "events", "beside");
        if (c.o.matrix_svg) partial_text(c.partial, "matrix-svg", c.o.matrix_svg);
        if (c.o.matrix_title) partial_text(c.partial, "matrix-title", c.o.matrix_title);
        if (c.o.matrix_size) out_file_printf(c.partial, "matrix-size %" PRIu64 "\n", c.o.matrix_size);
        if (c.o.timeline) partial_text(c.partial, "timeline-svg", c.o.timeline);
        if (c.o.timeline_title) partial_text(c.partial, "timeline-title", c.o.timeline_title);
        if (c.o.timeline_size[0])
            out_file_printf(c.partial, "timeline-size %u %u\n", c.o.timeline_size[0], c.o.timeline_size[1]);
        if (c.o.false_sharing)
            out_file_printf(c.partial, "false-sharing %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", c.o.line_size,
                            c.o.grain, c.o.false_lines, c.o.migratory_pct);
        if (c.pcs.pc) {
            out_file_printf(c.partial, "attribution %" PRIu32 " %" PRIu32 "\n", c.o.attr.by_code, c.o.attr.by_data);
            if (c.amap) partial_text(c.partial, "attr-map", c.amap->path);
            if (c.o.attr.annotate) partial_text(c.partial, "annotate", NULL);
        }
        if (c.o.events || c.o.matrix_svg || c.o.attr.annotate || c.o.timeline) partial_text(c.partial, "set", t.ts.name);
    } else if (no_report) {     /* the report's lines are made, and dropped */
        c.rep = report_open_detached();
    } else {
        c.rep = report_open(rep_path);
        if (json) report_add_json(c.rep);
        mem = out_file_open(mem_path, false);
    }
    c.phase = xcalloc((size_t)c.n, sizeof *c.phase);
    c.sc = xcalloc((size_t)c.n, sizeof *c.sc);
    c.total = xcalloc((size_t)c.n, sizeof *c.total);
    c.string_kind = xcalloc((size_t)c.n, sizeof *c.string_kind);
    c.string_len = xcalloc((size_t)c.n, sizeof *c.string_len);
    c.code_block = xcalloc((size_t)c.n, sizeof *c.code_block);
    locmap_init(&c.map, (uint32_t)c.o.page_size, (uint32_t)c.o.grain, c.n);
    memo_init(&c);
    class_tables();
    rs_init(&c.rs, c.n);
    if (c.o.matrix) {
        c.mphase = xcalloc(1, sizeof *c.mphase);
        c.mtotal = xcalloc(1, sizeof *c.mtotal);
        cm_init(c.mphase, c.n);
        cm_init(c.mtotal, c.n);
    }
    if (c.o.false_sharing) {
        c.fs = xcalloc(1, sizeof *c.fs);
        fs_init(c.fs, c.n, (uint32_t)c.o.line_size, (uint32_t)c.o.grain);
        if (c.pcs.pc) {
            c.fs->on_false = on_false_miss;
            c.fs->false_ctx = &c;
            c.fs->keep_touches = c.o.attr.annotate;     /* the c2c view's rows */
        }
    }

    /* checked now; a part's merge writes it */
    out_file *matrix_svg = c.o.matrix_svg && !c.part.n ? out_file_open(c.o.matrix_svg, false) : NULL;
    out_file *timeline_svg = c.o.timeline && !c.part.n ? out_file_open(c.o.timeline, false) : NULL;
    out_file *annotated = NULL;
    if (c.o.attr.annotate) {
        char *ap = tool_output_path(&t, "ciat_annotated");
        annotated = out_file_open(ap, false);
        free(ap);
    }
    /* a sharded run's lock and marker figures are part 0's (docs/sharding.md §3) */
    if ((c.o.locks || c.o.intervals) && (!c.part.n || c.part.i == 0)) c.lk = locks_new(c.n, c.o.locks, c.o.intervals);
    if (c.o.barriers && (!c.part.n || c.part.i == 0)) c.br = barriers_new(c.n, c.o.barriers);
    if (c.o.critical_path && (!c.part.n || c.part.i == 0)) c.cp = critpath_new(c.n, c.o.critical_path);
    /* ... and so are its --timeline picture's data */
    if (c.o.timeline && (!c.part.n || c.part.i == 0)) c.tl = timeline_new(c.n);
    /* ... and the sites of their locks' acquisitions and of the chain's calls (L61, L63) */
    if ((c.lk && c.o.locks) || c.cp) c.site_wait = xcalloc((size_t)c.n, sizeof *c.site_wait);
    bool pcs = c.pcs.pc || c.site_wait;     /* the hooks that see each fetch's pc */
    sched_hooks h = c.part.n ? (pcs ? direct_part_pc_hooks(&c) : direct_part_hooks(&c))
                  : pcs      ? direct_pc_hooks(&c)
                             : direct_plain_hooks(&c);
    sched_hooks run;
    fanout *pipe = fanout_pipeline(&h, (int)workers, c.n, &run);
    if (!pipe) run.hint.ahead = NULL;       /* on one thread nothing would decide whether it pays */
    c.s = sched_create(&t.ts, c.readers, &t.so, &run);
    /* acquire/release hand over only when the replay follows them (docs/scheduler.md §6.1) */
    if (c.cp) critpath_objects(c.cp, strncmp(sched_sync_mode(c.s), "simulated", 9) != 0);
    sched_run(c.s);
    if (pipe) fanout_finish(pipe);
    if (c.tl) timeline_finish(c.tl);
    for (int k = 0; k < c.n; k++) c.sc[k] = *sched_total_counts(c.s, k);
    take_cpus(&c);
    memo_flush_all(&c);
    if (c.partial) {
        finish_partial(&c, &t);
        tool_commit(&t);
        goto done;
    }

    aggregate_report(&c);
    if (mem) memusage_write_header(out_file_stream(mem), c.o.page_size);
    usage_totals u;
    usage_scan(&c.map, c.o.page_size, &c.o.ranges, mem ? out_file_stream(mem) : NULL, &u);
    uint64_t fetched = 0;
    for (int k = 0; k < c.n; k++) fetched += c.sc[k].is.fetched;
    usage_report(c.rep, &u, c.data_sizes, fetched);
    if (c.fs) fs_report_patterns(c.rep, c.fs, (uint32_t)c.o.migratory_pct);
    /* false sharing lines only with --false-sharing (no counts without it) */
    if (annotated) {
        char title[4200];
        snprintf(title, sizeof title, "ciat annotated source of %s", t.ts.name);
        attr_annotate(c.acode, c.amap, annotated, title);
        if (c.fs) {                 /* perf c2c's view of the falsely shared lines */
            c2c_view *o = c2c_view_new(annotated, c.amap, c.fs);
            fs_top_threads(c.fs, (uint32_t)c.o.false_lines, &c2c_view_fns, o);
            c2c_view_end(o);
        }
    }
    if (c.o.attr.by_code) attr_report(c.acode, c.rep, 50, "code", true, c.amap, c.o.attr.by_code);
    if (c.adata) attr_report(c.adata, c.rep, 51, "data", false, c.amap, c.o.attr.by_data);
    sync_lines(&c, sync_line_to_report, c.rep);
    if (matrix_svg) {
        char title[4200];
        snprintf(title, sizeof title, "RAW accesses of %s", t.ts.name);
        cm_write_svg(matrix_svg, c.mtotal, c.o.matrix_title ? c.o.matrix_title : title, (unsigned)c.o.matrix_size);
    }
    if (timeline_svg) {
        char title[4200];
        snprintf(title, sizeof title, "Where the time goes in %s", t.ts.name);
        timeline_write_svg(c.tl, timeline_svg, c.o.timeline_title ? c.o.timeline_title : title,
                           c.o.timeline_size[0], c.o.timeline_size[1]);
    }

    ciat_summary sm = { &c, &u };
    report_tool_header(c.rep, t.argc, t.argv);
    summary_lines(&sm, c.rep);
    header_rest(&c, &t, c.rep);

    /* Everything succeeded: make the outputs appear, all or none. */
    if (no_report) report_free(c.rep);
    else report_finish(c.rep);
    tool_commit(&t);

done:
    sched_free(c.s);
    for (int k = 0; k < c.n; k++) {
        ciat_stats_free(&c.phase[k]);
        ciat_stats_free(&c.total[k]);
    }
    free(c.phase);
    free(c.total);
    free(c.sc);
    free((void *)c.cpus);
    free(c.string_kind);
    free(c.string_len);
    free(c.code_block);
    free(c.memo);
    free(c.runs);
    locmap_free(&c.map);
    rs_free(&c.rs);
    if (c.o.matrix) {
        cm_free(c.mphase);
        cm_free(c.mtotal);
        free(c.mphase);
        free(c.mtotal);
    }
    if (c.fs) {
        fs_free(c.fs);
        free(c.fs);
    }
    attr_free(c.acode);
    attr_free(c.adata);
    locks_free(c.lk);
    barriers_free(c.br);
    critpath_free(c.cp);
    timeline_free(c.tl);
    attr_map_free(c.amap);
    free(timeline_title);
    attr_pcs_free(&c.pcs);
    free(c.site_wait);
    private_ranges_free(&c.o.ranges);
    free(rep_path);
    free(mem_path);
    tool_free(&t);
    return EXIT_OK;
}
