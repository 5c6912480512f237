/* lock_classes.h — which locks hand nothing over (--sync=handovers,
 * docs/scheduler.md §6.2).
 *
 * A lock is *plain* when none of its critical sections, in any trace, holds
 * anything but memory accesses, branches and procedure starts: no other
 * lock's section, no acquire or release, barrier, join, marker or other call,
 * and it is never taken again after a condition wait (wake=1). A thread in a
 * plain section never waits for anything before it lets the lock go, so the
 * replay may hand a plain lock over in pseudo-clock order (§6) while every
 * other lock and hand-over keeps its recorded order (§6.1) — without ever
 * making a deadlock the recorded order would not have. Finding the plain
 * locks takes one reading of every trace before the analysis. */
#ifndef DSM_COMMON_LOCK_CLASSES_H
#define DSM_COMMON_LOCK_CLASSES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_reader.h"
#include "trace_set.h"

typedef struct lock_classes {
    uint32_t *keys;                 /* open addressing; slot value key + 1, 0 = empty */
    uint8_t *plain;                 /* per slot: 1 = plain */
    size_t cap, used;
    uint64_t plain_locks, locks;    /* counts, for the report header */
} lock_classes;

/* Read every trace of set (opts: as the analysis reads them; quiet) and
 * classify the lock of every critical section. */
void lock_classes_scan(lock_classes *c, const trace_set *set, const trace_reader_opts *opts);
void lock_classes_free(lock_classes *c);

/* Whether lock (the address of begin_critical/end_critical) is plain. */
bool lock_classes_plain(const lock_classes *c, uint32_t lock);

#endif
