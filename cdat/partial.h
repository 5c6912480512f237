/* partial.h — cdat's partial results (--shard I/N) and reading them back for
 * --merge (formats/CDAT-PARTIAL.md, docs/sharding.md §9).
 *
 * A part simulates the lines whose number mod N is its own, as a --jobs part
 * does. Its file holds, per phase, every stats slot's counters as a counted
 * array of words (cpu_stats is all uint64_t: a counter added to it changes
 * the word count, which the merge checks, and nothing else), the phase's
 * processor time (from the interleaving, alike in every part), and at the
 * end the directory's lines (summed), the L16 placement lines and the
 * report's header lines (alike: every part places every page). The merge
 * sums the slots' counters with stats_add, as --jobs sums its parts. The
 * framing and the first records are common/partial.h's. */
#ifndef DSM_CDAT_PARTIAL_H
#define DSM_CDAT_PARTIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "stats.h"
#include "../common/out_file.h"
#include "../common/partial.h"
#include "../common/sched_hooks.h"

/* The words of a stats slot's counters. */
enum { CDAT_STATS_WORDS = sizeof(cpu_stats) / sizeof(uint64_t) };

/* ---- writing (a shard) ---- */

/* Which general and detailed traces a run writes, and how compressed. */
typedef struct cdat_trace_outputs {
    bool general, detailed;
    out_format format;
} cdat_trace_outputs;

/* The first records (common/partial.h's), then cdat's: the word count, the
 * stats slots, the processors' cache levels (1, or 2 with an [l2]), the
 * nodes with an L3 (0 without an [l3]), the [timing] cycles, the traces
 * written; config_lines (n of them) are the resolved configuration's and
 * options' header lines. */
void cdat_partial_begin(out_file *f, uint32_t i, uint32_t n, const char *command, bool json,
                        const char *const *paths, int ntraces, unsigned slots, unsigned levels,
                        unsigned l3_nodes, const cdat_timing *tm, const cdat_trace_outputs *to,
                        const char *const *config_lines, size_t nconfig);
/* A phase: its record, the slots' counters (the part's), then the slots'
 * active and idle cycles (the interleaving's). */
void cdat_partial_phase(out_file *f, const sched_phase *ph, const cpu_stats *st, unsigned slots,
                        const uint64_t *active, const uint64_t *idle);
/* With traces: the part's keyed trace records (traces.h) from keyed, a
 * temporary file, which is closed. */
void cdat_partial_traces(out_file *f, FILE *keyed);
/* The end: the part's directory lines, the L16 placement lines' texts, the
 * header lines after the summary block. */
void cdat_partial_end(out_file *f, uint64_t directory_lines, const char *const *placement, size_t nplacement,
                      const char *const *header, size_t nheader);

/* ---- reading (--merge) ---- */

typedef struct cdat_merge cdat_merge;

/* Opens the parts and reads their first records (exit 2 naming a part that
 * does not belong: common/partial.h, and another word count, slot count,
 * timing or configuration). */
cdat_merge *cdat_merge_open(char **paths, int n);
const partial_in *cdat_merge_in(const cdat_merge *m);
unsigned cdat_merge_slots(const cdat_merge *m);
unsigned cdat_merge_levels(const cdat_merge *m);
/* The nodes with an L3 (L23's lines), 0 without an [l3]. */
unsigned cdat_merge_l3_nodes(const cdat_merge *m);
const cdat_timing *cdat_merge_timing(const cdat_merge *m);
const cdat_trace_outputs *cdat_merge_trace_outputs(const cdat_merge *m);
/* The next phase: true with ph and st (slots of them: the parts' counters
 * summed, the processor time added); false when the phases have ended. */
bool cdat_merge_phase(cdat_merge *m, sched_phase *ph, cpu_stats *st);
/* After the phases, when the parts wrote traces: every part's keyed records
 * in the whole run's order, put(ctx, file, record, len) for each (file: the
 * FILE field; put returns false when there is no such file: exit 2). */
void cdat_merge_traces(cdat_merge *m, bool (*put)(void *ctx, const char *file, const char *record, size_t len),
                       void *ctx);
/* After the phases (and traces): the directory lines (summed), the placement lines and
 * the header lines (valid until cdat_merge_close). */
void cdat_merge_end(cdat_merge *m, uint64_t *directory_lines, char ***placement, size_t *nplacement,
                    char ***header, size_t *nheader);
void cdat_merge_close(cdat_merge *m);

#endif
