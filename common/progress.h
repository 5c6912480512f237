/* progress.h — a one-line progress meter on stderr (README.md, "Exit status and messages").
 *
 * Shown only when stderr is a terminal (and the tool was not given -q):
 * records/s and, when file sizes are known, the share of the input read and
 * the time left at the rate so far.
 * Never written into output files. */
#ifndef DSM_COMMON_PROGRESS_H
#define DSM_COMMON_PROGRESS_H

#include <stddef.h>
#include <stdint.h>
#include "trace_reader.h"

typedef struct progress_meter progress_meter;

/* NULL when stderr is not a terminal. The readers are watched, not owned. */
progress_meter *progress_start(trace_reader *const *readers, int n);
/* Called every so often with the number of records processed so far. */
void progress_tick(progress_meter *m, uint64_t records);
/* Clears the line. */
void progress_done(progress_meter *m);
void progress_free(progress_meter *m);

/* ", about T left" for done of total bytes read in elapsed seconds, at the
 * rate so far (T: "12 s", "3 min 20 s", "2 h 05 min"); "" when it cannot be
 * told yet (under a second, nothing read, or all of it). Returns buf. */
const char *progress_eta_text(char *buf, size_t n, double elapsed, uint64_t done, uint64_t total);

#endif
