/* timeline.h — where the time goes, as a picture (ciat --timeline FILE; docs/timeline.md).
 *
 * One row per thread over the pseudo clock, coloured by what the thread did:
 * busy (running its records), lock wait (WAIT_CRITICAL; WAIT_ACQUIRE after an
 * acquire of a lock-kind object), barrier wait, other synchronisation wait
 * (join, ordered sections, other acquires), I/O wait; blank before its first
 * resume and after its last stop. The states come from the scheduler's
 * thread_stop and thread_resume hooks and ciat's call hook, in the order the
 * scheduler delivers them (also through the fanout).
 *
 * Memory and output are bounded: each thread has a fixed number of columns
 * (timeline_columns) holding the cycles per state, all of one power-of-two
 * width that doubles (merging pairs) when the clock outgrows the range; a
 * column is drawn by its dominant state. The hand-offs of the hottest lock
 * (the one L52 ranks first: the most wait in pseudo cycles) are kept per lock
 * in at most TIMELINE_MARKS columns of a power-of-two width of their own, one
 * mark each. */
#ifndef DSM_CIAT_TIMELINE_H
#define DSM_CIAT_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/out_file.h"
#include "../common/sched_hooks.h"

/* The states, in the order ties of the dominant state are broken. */
enum { TL_BUSY, TL_LOCK, TL_BARRIER, TL_SYNC, TL_IO, TL_STATES };
/* At most this many hand-off marks (occupied mark columns) per lock. */
#define TIMELINE_MARKS 64

typedef struct timeline timeline;

/* Columns per thread for n threads: 32768 / n rounded down to a power of
 * two, from 16 to 1024. */
unsigned timeline_columns(int nthreads);

timeline *timeline_new(int nthreads);
void timeline_free(timeline *tl);

/* The hooks' events, as the scheduler delivers them. */
void timeline_call(timeline *tl, int t, uint64_t clock, const smait_raw *rec);
void timeline_stop(timeline *tl, int t, uint64_t clock, sched_wait why);
void timeline_resume(timeline *tl, int t, uint64_t clock, uint64_t idle);
/* After the run: settles the last hand-offs and picks the hottest lock. */
void timeline_finish(timeline *tl);

/* The picture's size in points: w x h, w = h = 0 for the default (245
 * points wide, the height by the thread count). false when the rows or the
 * axis do not fit, with why (a usage error). */
bool timeline_size_check(int nthreads, unsigned w, unsigned h, char *why, size_t cap);
/* "WxH" into sz[2] (OPT_CALL handler of --timeline-size). */
const char *timeline_size_parse(void *target, const char *value);

/* The SVG (after timeline_finish or the records), w x h points (0 x 0: the default). */
void timeline_write_svg(const timeline *tl, out_file *f, const char *title, unsigned w, unsigned h);

/* Partial results (formats/CIAT-PARTIAL.md): the records that rebuild tl,
 * each a tag and its text; timeline_load takes them back in order (NULL:
 * fine, else what is wrong). */
typedef void (*timeline_emit)(void *ctx, const char *tag, const char *text);
void timeline_records(const timeline *tl, timeline_emit emit, void *ctx);
const char *timeline_load(timeline *tl, const char *tag, const char *text);

#endif
