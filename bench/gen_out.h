/* gen_out.h — what the benchmark generators share: one trace file of a set
 * written through a buffer (little-endian records), and their pseudo-random
 * sequence. Header-only: each generator is one program of its own. */
#ifndef DSM_BENCH_GEN_OUT_H
#define DSM_BENCH_GEN_OUT_H

#include "../formats/smait.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct gen_out {
    FILE *f;
    char path[4096];
    unsigned char buf[8 * 4096];
    size_t n;
    uint64_t records;
} gen_out;

/* Opens PREFIX.THREADS.T for writing; false (and the reason on stderr) when it cannot. */
static inline bool gen_open(gen_out *o, const char *prefix, int threads, int t)
{
    o->n = 0;
    o->records = 0;
    snprintf(o->path, sizeof o->path, "%s.%d.%d", prefix, threads, t);
    o->f = fopen(o->path, "wb");
    if (!o->f) perror(o->path);
    return o->f != NULL;
}

static inline void gen_put(gen_out *o, uint32_t f1, uint32_t f2)
{
    smait_store_raw(o->buf + o->n, (smait_raw){ f1, f2 }, SMAIT_ORDER_LITTLE);
    o->n += 8;
    o->records++;
    if (o->n == sizeof o->buf) {
        fwrite(o->buf, 1, o->n, o->f);
        o->n = 0;
    }
}

/* Writes what is buffered and closes; false (and the reason) on a write error. */
static inline bool gen_close(gen_out *o)
{
    fwrite(o->buf, 1, o->n, o->f);
    if (fclose(o->f) == 0) return true;
    perror(o->path);
    return false;
}

static inline uint64_t gen_next(uint64_t *s)      /* splitmix64 */
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#endif
