/* progress.c — rate-limited progress line on a terminal. */
#include "progress.h"
#include "../base/diag.h"
#include "mono_time.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct progress_meter {
    trace_reader *const *readers;
    int n;
    double start, last;
    bool shown;
};

progress_meter *progress_start(trace_reader *const *readers, int n)
{
    if (!isatty(STDERR_FILENO)) return NULL;
    progress_meter *m = xcalloc(1, sizeof *m);
    m->readers = readers;
    m->n = n;
    m->start = m->last = mono_seconds();
    return m;
}

void progress_tick(progress_meter *m, uint64_t records)
{
    if (!m) return;
    double t = mono_seconds();
    if (t - m->last < 0.5) return;
    m->last = t;
    uint64_t done = 0, total = 0;
    for (int i = 0; i < m->n; i++) {
        uint64_t d, s;
        trace_reader_progress(m->readers[i], &d, &s);
        done += d;
        total += s;
    }
    fprintf(stderr, "\r%s: %llu records, %.1f M records/s", diag_tool(),
            (unsigned long long)records, (double)records / (t - m->start) / 1e6);
    if (total) fprintf(stderr, ", %.1f%% read", 100.0 * (double)done / (double)total);
    fputs("   ", stderr);
    m->shown = true;
}

void progress_done(progress_meter *m)
{
    if (m && m->shown) fputs("\r\033[K", stderr);
}

void progress_free(progress_meter *m) { free(m); }
