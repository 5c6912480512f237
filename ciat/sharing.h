/* sharing.h — true and false sharing at a line size (report lines L18, L19).
 *
 * Every thread has an infinite write-invalidate cache of lines of `line`
 * bytes (MSI: a load miss brings a shared copy, a store invalidates every
 * other copy). Each miss is cold (the thread's first access to the line),
 * true sharing or false sharing as Dubois et al. define them: a miss is
 * essential (true sharing) when, during the lifetime of the copy it brings,
 * the thread accesses a location another thread wrote since the thread's
 * last essential miss to the line; otherwise it is useless (false sharing).
 * So a miss stays pending until its copy is invalidated or the run ends,
 * unless an access proves it essential first. A store to a line the thread
 * holds without owning it is an upgrade.
 *
 * Memory: per line touched, a record, its holders (one bit per thread) and,
 * once written, the last writer and time of each location; per thread and
 * line it touched, a small state (time of its last essential miss, the
 * pending miss, the locations it touched). */
#ifndef DSM_CIAT_SHARING_H
#define DSM_CIAT_SHARING_H

#include "../common/report.h"

#include <stdbool.h>
#include <stdint.h>

enum { FS_COLD, FS_TRUE, FS_FALSE, FS_UPGRADE, FS_KINDS };

typedef struct fs_line fs_line;
typedef struct fs_state fs_state;

typedef struct sharing {
    int n, words;               /* threads; uint64 words of a holder bitmap */
    uint32_t line_size, grain, locs;   /* locs = line_size / grain (<= 64) */
    uint32_t line_shift, grain_shift;
    uint64_t clock;             /* one tick per line access */
    uint64_t (*phase)[FS_KINDS];    /* per thread, current phase */
    uint64_t (*total)[FS_KINDS];    /* per thread, whole run */
    /* lines: hash of line number + 1 -> index into `lines` */
    uint32_t *line_table, line_cap;
    fs_line *lines;
    uint64_t *holders;          /* words per line */
    uint32_t nlines, lines_cap;
    /* location writers of written lines: locs entries per block */
    uint64_t *wstamp;
    uint16_t *wwriter;
    uint32_t nwblocks, wblocks_cap;
    /* thread-line states: hash of (line, thread) -> index into `states` */
    uint32_t *state_table, state_cap;
    fs_state *states;
    uint32_t nstates, states_cap;
    /* Attribution (ciat --by-code/--by-data): on_false, when set, hears of
     * every false sharing miss, with the pc (cur_pc when the miss happened;
     * ATTR_UNKNOWN-style values pass through) and the address of its first
     * location; kept per state in miss_pc/miss_addr. */
    void (*on_false)(void *ctx, int t, uint64_t pc, uint32_t addr);
    void *false_ctx;
    uint64_t cur_pc;
    uint64_t *miss_pc;
    uint32_t *miss_addr, miss_cap;
    /* per state: the code of the thread's accesses to the line, a chain in
     * `touches` (head index + 1; 0 none) of at most FS_TOUCH_PCS pcs, then
     * FS_OTHER_PC for the rest (attribution only) */
    bool keep_touches;          /* keep them (ciat --annotate; with on_false, so cur_pc is set) */
    uint32_t *touch_head, touch_cap;
    struct fs_touch *touches;
    uint32_t ntouches, touches_cap;
} sharing;

/* The distinct pcs kept per thread and line; the accesses of any further
 * pc count under FS_OTHER_PC. */
enum { FS_TOUCH_PCS = 16 };
#define FS_OTHER_PC UINT64_MAX

/* The accesses of one thread to one line from one pc. */
typedef struct fs_touch {
    uint64_t pc;
    uint64_t mask;              /* locations they touched */
    uint64_t loads, stores;
    uint32_t next;              /* index + 1 of the next of the chain; 0 none */
} fs_touch;

void fs_init(sharing *s, int nthreads, uint32_t line_size, uint32_t grain);
void fs_free(sharing *s);
/* A data access of t: size bytes at addr (0 bytes: the byte at addr). */
void fs_access(sharing *s, int t, uint32_t addr, unsigned size, bool store);
void fs_phase_begin(sharing *s);
/* The end of the run: pending misses are false sharing (their copies live to the end). */
void fs_end_of_run(sharing *s);
/* Move thread t's phase counts into its run counts. */
void fs_phase_done(sharing *s, int t);
bool fs_any(const sharing *s, int t);
/* Line L18 of thread t (phase counts, or run counts when `total`). */
void fs_report(report *r, int phase, int thread, const sharing *s, int t, bool total);
/* Line L18 of Tx: the sum over the threads marked in use. */
void fs_report_sum(report *r, int phase, const sharing *s, const bool *use, bool total);
/* Lines L19: the `top` lines with the most false sharing misses. */
void fs_report_top(report *r, const sharing *s, uint32_t top);
/* The same lines, ranked (false sharing misses descending, then address):
 * fn(ctx, line address, misses, " T:BYTES…" of each thread that touched it). */
void fs_top_lines(const sharing *s, uint32_t top,
                  void (*fn)(void *ctx, uint64_t addr, uint64_t false_misses, const char *threads), void *ctx);
/* One L19 line. */
void fs_line19(report *r, uint64_t addr, uint64_t false_misses, const char *threads);
/* The same top lines, thread by thread and code by code (perf c2c's view,
 * ciat/c2c.h; attribution on): line(ctx, addr, misses) for each, then
 * thread(ctx, t, mask) for each thread that touched it, in thread order,
 * with the locations it touched, then code(ctx, pc, loads, stores, mask) for
 * each pc of its accesses to the line (FS_OTHER_PC last), the most accesses
 * first (ties by pc). */
typedef struct fs_c2c_fns {
    void (*line)(void *ctx, uint64_t addr, uint64_t misses);
    void (*thread)(void *ctx, int t, uint64_t mask);
    void (*code)(void *ctx, uint64_t pc, uint64_t loads, uint64_t stores, uint64_t mask);
} fs_c2c_fns;
void fs_top_threads(const sharing *s, uint32_t top, const fs_c2c_fns *fn, void *ctx);
/* "0-7,16-23": the byte ranges of the locations in a mask, at s's grain. */
void fs_ranges(char *buf, size_t cap, const sharing *s, uint64_t mask);

/* Sharing patterns of the lines at the end of the run (L40-L44):
 * private: one thread accessed it; read_only_shared: more, none stored;
 * producer_consumer: more, exactly one stored; migratory: several stored and
 * at least migratory_pct % of the stores that took the line from its last
 * writer found it in exactly two caches, the storer's one of them
 * (Stenström et al. 1993); other_shared: the rest. */
enum { FS_PRIVATE, FS_READ_ONLY, FS_MIGRATORY, FS_PRODUCER_CONSUMER, FS_OTHER_SHARED, FS_PATTERNS };
int fs_pattern(const sharing *s, uint32_t line_index, uint32_t migratory_pct);
void fs_report_patterns(report *r, const sharing *s, uint32_t migratory_pct);
/* What L40-L44 print, per pattern: lines, bytes touched, accesses (sums
 * over lines: ciat --merge adds its parts'). */
enum { FS_SUMS = 3 };
void fs_pattern_sums(const sharing *s, uint32_t migratory_pct, uint64_t sums[FS_SUMS][FS_PATTERNS]);
void fs_report_pattern_sums(report *r, uint64_t sums[FS_SUMS][FS_PATTERNS]);

#endif
