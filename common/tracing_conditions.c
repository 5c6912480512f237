/* tracing_conditions.c — the tracing machine's processors and the threads'
 * waits for them, from the traces' tracing records. */
#include "tracing_conditions.h"
#include "../base/diag.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

void tc_init(tracing_conditions *c, int ntraces)
{
    c->n = ntraces;
    c->t = NULL;
    c->locks = 0;
}

void tc_free(tracing_conditions *c)
{
    free(c->t);
    c->t = NULL;
}

void tc_note(tracing_conditions *c, int t, const smait_raw *rec)
{
    if (!c->t) c->t = xcalloc((size_t)c->n, sizeof *c->t);
    c->t[t] = (tracing_cond){ true, rec[SMAIT_CALL_ARG1].f2, rec[SMAIT_CALL_ARG1 + 1].f2,
                              rec[SMAIT_CALL_ARG1 + 2].f2, rec[SMAIT_CALL_ARG1 + 3].f2 };
}

/* The figures over the traces with a record. */
typedef struct tc_totals {
    int traces;                     /* with a record */
    int timed;                      /* of them with known times */
    uint32_t cpus, allowed;         /* the most online, the fewest allowed */
    uint64_t ran, waited;           /* µs, over the timed traces */
    int most;                       /* the timed trace with the largest share waited, or -1 */
    double most_share;
} tc_totals;

static double share(uint64_t waited, uint64_t ran)
{
    return waited + ran ? (double)waited / (double)(waited + ran) : 0.0;
}

static tc_totals totals(const tracing_conditions *c)
{
    tc_totals s = { 0, 0, 0, UINT32_MAX, 0, 0, -1, 0.0 };
    for (int t = 0; c->t && t < c->n; t++) {
        const tracing_cond *x = &c->t[t];
        if (!x->seen) continue;
        s.traces++;
        if (x->cpus > s.cpus) s.cpus = x->cpus;
        if (x->allowed < s.allowed) s.allowed = x->allowed;
        if (x->ran_us == SMAIT_TRACING_UNKNOWN || x->waited_us == SMAIT_TRACING_UNKNOWN) continue;
        s.timed++;
        s.ran += x->ran_us;
        s.waited += x->waited_us;
        double sh = share(x->waited_us, x->ran_us);
        if (s.most < 0 || sh > s.most_share) {
            s.most = t;
            s.most_share = sh;
        }
    }
    return s;
}

const char *tc_summary(const tracing_conditions *c, char *buf, size_t n)
{
    tc_totals s = totals(c);
    if (!s.traces) return NULL;
    int len = snprintf(buf, n, "processors %" PRIu32 " online %" PRIu32 " traces %d", s.allowed, s.cpus,
                       s.traces);
    if (len < 0 || (size_t)len >= n) return buf;
    if (!s.timed) {
        snprintf(buf + len, n - (size_t)len, " times unknown (the tracing machine gave no scheduler statistics)");
        return buf;
    }
    snprintf(buf + len, n - (size_t)len, " ran_us %" PRIu64 " waited_us %" PRIu64 " waited %.2f%% most trace %d"
             " %.2f%%", s.ran, s.waited, 100.0 * share(s.waited, s.ran), s.most, 100.0 * s.most_share);
    return buf;
}

const char *tc_warning(const tracing_conditions *c, bool recorded, char *buf, size_t n)
{
    tc_totals s = totals(c);
    if (!recorded || !s.timed || !c->locks) return NULL;
    double all = share(s.waited, s.ran);
    if (all * 1000.0 < TC_WARN_PERMILLE) return NULL;
    snprintf(buf, n, "the traces were taken on %" PRIu32 " processor%s for %d threads, which waited %.2f%% of the"
             " time they were ready to run for a processor (trace %d: %.2f%%): the recorded order of their %"
             PRIu64 " lock acquisitions is then partly the tracing machine's time-slicing, not the program's;"
             " trace on at least as many free processors as threads, or compare with --sync=simulated"
             " (docs/scheduler.md §6.1)", s.allowed, s.allowed == 1 ? "" : "s", s.traces, 100.0 * all, s.most,
             100.0 * s.most_share, c->locks);
    return buf;
}
