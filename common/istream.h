/* istream.h — instruction-stream reconstruction of one thread (docs/scheduler.md §2).
 *
 * pc is valid or unknown (unknown at the start). A procedure start sets it; a
 * memory access executes one instruction, fetched at pc when pc is known; a
 * taken branch or procedure call executes the instructions between pc and the
 * branch (when pc <= src and src - pc <= gap_limit; otherwise it counts a
 * discontinuity), then jumps to the target. Call records execute nothing. */
#ifndef DSM_COMMON_ISTREAM_H
#define DSM_COMMON_ISTREAM_H

#include <stdbool.h>
#include <stdint.h>

enum { ISTREAM_DEFAULT_GAP_LIMIT = 4096, ISTREAM_INSN_BYTES = 4 };

/* Per-thread instruction counts (docs/scheduler.md §2 "Counts per thread"). */
typedef struct istream_counts {
    uint64_t executed;          /* drives the pseudo clock */
    uint64_t fetched;           /* instructions with a known address */
    uint64_t branches;          /* taken branch records (kind 8) */
    uint64_t calls;             /* procedure call records (kind C) */
    uint64_t instrumented;      /* procedure start records (kind 4) */
    uint64_t discontinuities;
} istream_counts;

typedef struct istream {
    uint32_t pc;
    bool valid;
    istream_counts n;
} istream;

static inline void istream_init(istream *s) { *s = (istream){ 0 }; }

#endif
