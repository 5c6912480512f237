/* stats.h — cdat's counters per processor (and I/O processor) and their
 * report lines L01–L16 (every field in docs/cdat-report.md). */
#ifndef DSM_CDAT_STATS_H
#define DSM_CDAT_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "machine.h"
#include "miss_class.h"
#include "../common/report.h"

/* References of one stream (data, instructions, or an I/O processor's
 * requests): each is a hit, a miss or an upgrade (ref_total). */
typedef struct ref_counts {
    uint64_t hits, misses, upgrades;
    uint64_t src[SRC_COUNT];            /* by mach_source */
} ref_counts;

static inline uint64_t ref_total(const ref_counts *c) { return c->hits + c->misses + c->upgrades; }

/* The misses satisfied in the requester's node (L02's local: its memory, a
 * cache there, its L3) and in another (remote). */
static inline uint64_t ref_local(const ref_counts *c)
{
    return c->src[SRC_LOCAL_MEMORY] + c->src[SRC_LOCAL_CACHE] + c->src[SRC_LOCAL_L3];
}

static inline uint64_t ref_remote(const ref_counts *c)
{
    return c->src[SRC_REMOTE_MEMORY] + c->src[SRC_REMOTE_CACHE] + c->src[SRC_REMOTE_L3];
}

/* The counts of a node's L3 in cpu_stats.l3. */
enum { L3_READS, L3_READ_MISSES, L3_WRITES, L3_WRITE_MISSES, L3_WRITE_BACKS, STATS_L3_COUNTS };

/* The request and return codes of the L12 state table, in column order. */
enum { STATE_CODES = 8 };

typedef struct cpu_stats {
    ref_counts data, instr, io;
    uint64_t transactions, requests, critical;
    uint64_t txn[CDAT_CODE_LIMIT];
    uint64_t state[2][4][4][STATE_CODES];   /* [home remote][presence][status-1][code column] */
    uint64_t rs_requests, rs_degree;        /* requests that found the line remotely shared */
    uint64_t active, idle;
    uint64_t write_back, update_tag, silent;
    uint64_t cls[2][MC_CLASSES];            /* --miss-classes: [MC_DATA, MC_INSTR][class] of the misses */
    /* [l2] (L22): the L1 misses' accesses (hits, misses, upgrades), the L1
     * victims written (moved) into it and those that found no copy there,
     * its victims returned dirty, the L1 copies its victims removed. */
    uint64_t l2_hits, l2_misses, l2_upgrades, l2_writes, l2_write_misses, l2_write_backs, l2_back_inv;
    uint64_t l2cls[MC_CLASSES];             /* --miss-classes with an [l2] (L25): the classes of its misses */
    /* [timing] with contention (contention.h): the cycles its requests
     * waited at the home banks and links (L19 queue); else 0. */
    uint64_t queue;
    /* [l3] (L23): per home node, what the sequences this processor started
     * did in that node's L3 (mach_seq.l3): reads, read misses, writes,
     * write misses, dirty victims written to DRAM. */
    uint64_t l3[CFG_MAX_NODES][STATS_L3_COUNTS];
} cpu_stats;

static inline void ref_count(ref_counts *c, mach_ref r)
{
    if (r.outcome == REF_HIT) c->hits++;
    else if (r.outcome == REF_UPGRADE) c->upgrades++;
    else {
        c->misses++;
        c->src[r.source]++;
    }
}

/* What a sequence's first code counts (stats.c): 1 + its column in the L12
 * state table in the low bits (0: not in the table), and whether it is a
 * request, a write_back or an update_tag. */
enum { STATS_COLUMN = 15, STATS_REQUEST = 16, STATS_WRITE_BACK = 32, STATS_UPDATE_TAG = 64 };
extern const uint8_t stats_code_class[CDAT_CODE_LIMIT];

/* The rare part of a request's counts: an I/O processor's (L05), or one
 * that found the line shared (L13). */
void stats_seq_rare(cpu_stats *s, const mach_seq *q);

/* A sequence's access to its home's L3 (q->l3 not 0), out of line. */
void stats_seq_l3(cpu_stats *s, const mach_seq *q);

/* A sequence, counted for the processor (or I/O processor) that started it;
 * an I/O processor's request is also one L05 request. Inline: every miss
 * and every announced replacement comes here. */
static inline void stats_seq(cpu_stats *s, const mach_seq *q)
{
    if (__builtin_expect(q->l3 != 0, 0)) stats_seq_l3(s, q);
    s->transactions += q->n;
    for (unsigned i = 0; i < q->n; i++) s->txn[q->tx[i].code]++;
    unsigned k = stats_code_class[q->code];
    if (k & STATS_REQUEST) {
        s->requests++;
        s->critical += q->critical;
        if (__builtin_expect(q->requester < 0 || q->status == DIR_SHARED, 0)) stats_seq_rare(s, q);
    } else {
        s->write_back += (k & STATS_WRITE_BACK) != 0;
        s->update_tag += (k & STATS_UPDATE_TAG) != 0;
    }
    if (k & STATS_COLUMN) s->state[q->home != q->req_node][q->presence][q->status - 1][(k & STATS_COLUMN) - 1]++;
}

bool stats_any(const cpu_stats *s);
void stats_add(cpu_stats *into, const cpu_stats *from);

/* A reference's L2 counts (mach_ref's l2 fields), out of line: only misses have any. */
void stats_l2(cpu_stats *s, mach_ref r);

/* Which lines stats_report writes: a processor's L01–L04 and L13–L15, an I/O
 * processor's L05; L10–L12 always. Tx under -handle_io: both. STATS_NO_CPU
 * leaves L14 out (slice mode: a process's lines; L14 is per processor).
 * STATS_CLASSES (with STATS_PROC): also L17 and L18, the miss classes.
 * STATS_L2 (with STATS_PROC): the machine has an L2: L02 and L04 end with
 * the misses it served, and L22 follows L15. STATS_L2_CLASSES (with
 * STATS_L2): L25, the classes of the L2's misses, follows L22. */
enum { STATS_PROC = 1, STATS_IO = 2, STATS_NO_CPU = 4, STATS_CLASSES = 8, STATS_L2 = 16, STATS_L3 = 32,
       STATS_L2_CLASSES = 64 };
/* STATS_L3: the machine has an L3: L02, L04 (and L05) end with the misses
 * (requests) the home's L3 served, local_l3 and remote_l3. */

/* The lines for phase (or REPORT_ALL_PHASES) and tag t, in L order. */
void stats_report(report *r, int phase, int t, const cpu_stats *s, unsigned lines);
/* L23, with an L3 (Tx only): one line per node's L3 of nodes, then their sum. */
void stats_l3_lines(report *r, int phase, const cpu_stats *s, unsigned nodes);

/* [timing] (docs/cdat-report.md, L19): the stall cycles of s's references,
 * by cause (the misses by source, the upgrades, the critical transactions'
 * hops: TIMING_KEYS of them), and their sum, s's queueing waits included. */
uint64_t stats_stall(const cpu_stats *s, const cdat_timing *tm, uint64_t by_cause[TIMING_KEYS]);
/* Line L19: busy (the instructions executed, L14's active), the stall by
 * cause, busy + stall, L14's idle; estimate (Tx only, else UINT64_MAX: none)
 * the phase's (or run's) estimated time; l2: the machine has an L2 (the L2
 * hits' stall is a field of its own); l3: it has an L3 (so have the misses
 * the home's L3 served, local_l3 and remote_l3); with contention (tm's busy
 * keys), the queueing waits are one too. Returns busy + stall. */
uint64_t stats_time_line(report *r, int phase, int t, const cpu_stats *s, const cdat_timing *tm, uint64_t estimate,
                         bool l2, bool l3);

#endif
