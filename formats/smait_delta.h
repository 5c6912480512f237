/* smait_delta.h — the delta coding of a SMAIT record stream (formats/SMAIT.md §11.1).
 *
 * A delta-coded stream begins with one marker record (SMAIT_DELTA_F1, then
 * the coding's version) and then holds the trace's records with every
 * memory record's address replaced by its difference from the address last
 * seen at the same place in the code: the same count of memory records
 * after the same branch target. A loop's accesses then become the same few
 * differences again and again, which zstd compresses at several times its
 * speed on the addresses themselves (mat_mul: 6 000 times smaller, not 24).
 *
 * Only f2 of records whose f1 is below 0x1000 changes, and f1 alone decides
 * which records those are, so decoding retraces the encoder's steps on any
 * bytes, damaged ones included (the reader validates after decoding). The
 * functions work on records in host order. */
#ifndef DSM_FORMATS_SMAIT_DELTA_H
#define DSM_FORMATS_SMAIT_DELTA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "smait.h"

/* The marker's f1: no record kind in either byte order (top nibble 7; swapped,
 * f1 >> 12 = 0x7AE), so a reader that does not know the coding stops at it. */
enum { SMAIT_DELTA_F1 = 0x7DE17A00u, SMAIT_DELTA_VERSION = 1 };
/* Places remembered (a hash of branch target and count), and the count at
 * which a run without branches stops counting: its accesses then each
 * follow the one before. */
enum { SMAIT_DELTA_SLOT_BITS = 12, SMAIT_DELTA_RUN_MAX = 63 };

typedef struct smait_delta {
    uint32_t target;            /* f2 of the last procedure start, branch or procedure call */
    uint32_t run;               /* memory records since then, at most SMAIT_DELTA_RUN_MAX */
    uint32_t last[1u << SMAIT_DELTA_SLOT_BITS];     /* the address last seen at each place */
} smait_delta;

static inline void smait_delta_init(smait_delta *d) { memset(d, 0, sizeof *d); }

/* The place of a memory record's address (a slot of last): a hash of the
 * target and the run, which then counts the record. */
static inline uint32_t smait_delta_place(uint32_t target, uint32_t *run)
{
    uint32_t slot = (target * 0x9E3779B1u + *run * 0x85EBCA6Bu) >> (32 - SMAIT_DELTA_SLOT_BITS);
    if (*run < SMAIT_DELTA_RUN_MAX) ++*run;
    return slot;
}

/* The stored f2 of the record (f1, f2), the state in *target, *run and
 * last: for a loop that makes records as it codes them (the collector's
 * flush); the caller keeps target and run in locals, since the records'
 * stores could otherwise alias them and each record would reload them. */
static inline __attribute__((always_inline)) uint32_t
smait_delta_code(uint32_t *target, uint32_t *run, uint32_t *last, uint32_t f1, uint32_t f2)
{
    if ((f1 >> 12) == 0) {                      /* a memory record */
        uint32_t slot = smait_delta_place(*target, run);
        uint32_t before = last[slot];
        last[slot] = f2;
        return f2 - before;
    }
    if (f1 >> 28) {                             /* procedure start, branch, procedure call */
        *target = f2;
        *run = 0;
    }                                           /* call parts change nothing */
    return f2;
}

/* out[i] = in[i] coded (out may be in). */
static inline void smait_delta_encode(smait_delta *d, smait_raw *out, const smait_raw *in, size_t n)
{
    uint32_t target = d->target, run = d->run;
    for (size_t i = 0; i < n; i++) {
        uint32_t f1 = in[i].f1, f2 = in[i].f2;
        out[i].f1 = f1;
        out[i].f2 = smait_delta_code(&target, &run, d->last, f1, f2);
    }
    d->target = target;
    d->run = run;
}

/* Undo smait_delta_encode in place. */
static inline void smait_delta_decode(smait_delta *d, smait_raw *r, size_t n)
{
    uint32_t target = d->target, run = d->run, *last = d->last;
    for (size_t i = 0; i < n; i++) {
        uint32_t f1 = r[i].f1;
        if ((f1 >> 12) == 0) {
            uint32_t slot = smait_delta_place(target, &run);
            uint32_t f2 = r[i].f2 + last[slot];
            r[i].f2 = f2;
            last[slot] = f2;
        } else if (f1 >> 28) {
            target = r[i].f2;
            run = 0;
        }
    }
    d->target = target;
    d->run = run;
}

#endif
