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
    char eta[64];
    if (total)
        fprintf(stderr, ", %.1f%% read%s", 100.0 * (double)done / (double)total,
                progress_eta_text(eta, sizeof eta, t - m->start, done, total));
    fputs("   ", stderr);
    m->shown = true;
}

void progress_done(progress_meter *m)
{
    if (m && m->shown) fputs("\r\033[K", stderr);
}

void progress_free(progress_meter *m) { free(m); }

const char *progress_eta_text(char *buf, size_t n, double elapsed, uint64_t done, uint64_t total)
{
    buf[0] = '\0';
    if (elapsed < 1.0 || done == 0 || done >= total) return buf;
    double left = elapsed * (double)(total - done) / (double)done;
    if (left > 1e8) left = 1e8;                 /* some years: no more digits */
    uint64_t s = (uint64_t)(left + 0.5);
    if (s < 60) snprintf(buf, n, ", about %llu s left", (unsigned long long)s);
    else if (s < 3600) snprintf(buf, n, ", about %llu min %02llu s left", (unsigned long long)(s / 60),
                                (unsigned long long)(s % 60));
    else snprintf(buf, n, ", about %llu h %02llu min left", (unsigned long long)(s / 3600),
                  (unsigned long long)(s % 3600 / 60));
    return buf;
}
