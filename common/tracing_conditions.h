/* tracing_conditions.h — what the traces say about the machine they were
 * taken on (tracing records, formats/SMAIT.md §5.2): its processors, and per
 * thread how long it ran and how long it was ready to run but waited for a
 * processor. The replay of recorded lock hand-overs is the order the tracing
 * machine really gave the locks; when the threads waited for processors,
 * that order is partly the machine's time-slicing, not the program's
 * (docs/scheduler.md §6.1). This module keeps the records and says so: a
 * header line of the figures and, past the thresholds below, a warning. */
#ifndef DSM_COMMON_TRACING_CONDITIONS_H
#define DSM_COMMON_TRACING_CONDITIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../formats/smait.h"

/* One trace's record (the last one if it has several). */
typedef struct tracing_cond {
    bool seen;
    uint32_t cpus, allowed;         /* processors online; those the process could run on */
    uint32_t ran_us, waited_us;     /* SMAIT_TRACING_UNKNOWN: not told */
} tracing_cond;

typedef struct tracing_conditions {
    int n;
    tracing_cond *t;                /* per trace; NULL until the first record */
    uint64_t locks;                 /* lock acquisitions whose order is recorded */
} tracing_conditions;

/* The warning is given when the traces have lock acquisitions in a recorded
 * order and the threads together waited at least TC_WARN_PERMILLE / 10 % of
 * the time they were ready to run for a processor (a share of the time, so
 * a thread that ran for a few microseconds does not decide it). Barriers,
 * joins and the other hand-overs are the program's order whatever the
 * machine did. */
enum { TC_WARN_PERMILLE = 50 };

void tc_init(tracing_conditions *c, int ntraces);
void tc_free(tracing_conditions *c);

/* Thread t's tracing record (a call record, SMAIT_CALL_PARTS raw records). */
void tc_note(tracing_conditions *c, int t, const smait_raw *rec);
/* A lock acquisition (begin_critical, begin_order) with a recorded order. */
static inline void tc_lock(tracing_conditions *c) { c->locks++; }

/* The figures for the report header ("processors 2 online 4 traces 8
 * ran_us 1234 waited_us 56 waited 4.34% most trace 3 9.10%": the processors
 * the process could use, those online, the traces with a record, their time
 * running and waiting for a processor, the share waited of the time they
 * were ready to run, and the trace that waited the largest share), or NULL
 * when no trace has a record. */
const char *tc_summary(const tracing_conditions *c, char *buf, size_t n);

/* The warning when the waits pass the thresholds above and the replay
 * follows the recorded order (recorded), else NULL. */
const char *tc_warning(const tracing_conditions *c, bool recorded, char *buf, size_t n);

#endif
