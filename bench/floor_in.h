/* floor_in.h — what the floor models share (bench/cache_floor, ciat_floor,
 * dsm_floor): the files of a little-endian trace set read with read(), and
 * handed out a block of one thread's records at a time, the threads in turn.
 * That is not the scheduler's order by clock: a floor times the analysis of
 * the references, and its counts are not ciat's or cdat's (but for a single
 * thread, where the order is the trace's). The floors mean something at
 * make bench's default sizes: on a set of a tenth of that, zeroing the dense
 * state of ciat_floor and dsm_floor can cost more than the tools' sparse
 * state does. Header-only: each floor is one program of its own. */
#ifndef DSM_BENCH_FLOOR_IN_H
#define DSM_BENCH_FLOOR_IN_H

#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE         /* MAP_ANONYMOUS, MAP_NORESERVE, MADV_HUGEPAGE */
#endif

#include "../formats/smait.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { FLOOR_MAX_THREADS = 256, FLOOR_BUF_RECORDS = 8192, FLOOR_BLOCK = 64 };

typedef struct floor_thread {
    int fd;
    unsigned char buf[8 * FLOOR_BUF_RECORDS];
    size_t have, pos;           /* bytes in buf, and the next record's offset */
    int done;
} floor_thread;

typedef struct floor_in {
    int n, next, live;
    floor_thread *t;
} floor_in;

/* bytes of zeroed address space for state indexed directly by address:
 * memory only where touched, on huge pages where the kernel offers them (so
 * a random footprint costs few page faults, as the tools' arenas do). Exits
 * with status 2 when it cannot. */
static inline void *floor_reserve(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        perror("floor: mmap");
        exit(2);
    }
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

/* A little-endian word (one load on most hosts; smait_load_raw is a call). */
static inline uint32_t floor_le32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Opens the files of set (PREFIX.P, as the tools name a set: PREFIX.P.0 …),
 * a set of at most max_threads (<= FLOOR_MAX_THREADS) threads: a model's
 * limit. Exits with status 1 for a set it does not take, 2 (with the reason)
 * for a file it cannot open. */
static inline void floor_open(floor_in *in, const char *set, int max_threads)
{
    const char *dot = strrchr(set, '.');
    char *end;
    long threads = dot ? strtol(dot + 1, &end, 10) : 0;
    if (!dot || end == dot + 1 || *end || threads < 1 || threads > max_threads) {
        fprintf(stderr, "floor: %s: not a trace set PREFIX.P with P from 1 to %d\n", set, max_threads);
        exit(1);
    }
    in->n = in->live = (int)threads;
    in->next = 0;
    in->t = calloc((size_t)threads, sizeof *in->t);
    if (!in->t) exit(2);
    for (int k = 0; k < in->n; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s.%d", set, k);
        in->t[k].fd = open(path, O_RDONLY);
        if (in->t[k].fd < 0) {
            perror(path);
            exit(2);
        }
    }
}

/* The next block of up to FLOOR_BLOCK records, all of thread *thread, as
 * pairs of words (f1 at [2k], f2 at [2k + 1]) in out; their count, 0 at the
 * end of every file. A record cut by a read waits for the next read. */
static inline unsigned floor_block(floor_in *in, int *thread, uint32_t out[2 * FLOOR_BLOCK])
{
    while (in->live) {
        int k = in->next;
        in->next = (k + 1) % in->n;
        floor_thread *t = &in->t[k];
        if (t->done) continue;
        if (t->have - t->pos < 8) {
            size_t rest = t->have - t->pos;
            memmove(t->buf, t->buf + t->pos, rest);
            ssize_t got = read(t->fd, t->buf + rest, sizeof t->buf - rest);
            t->have = rest + (got > 0 ? (size_t)got : 0);
            t->pos = 0;
            if (got < 0) perror("floor: read");
            if (t->have < 8) {
                t->done = 1;
                in->live--;
                continue;
            }
        }
        unsigned m = 0;
        for (; m < FLOOR_BLOCK && t->have - t->pos >= 8; m++, t->pos += 8) {
            out[2 * m] = floor_le32(t->buf + t->pos);
            out[2 * m + 1] = floor_le32(t->buf + t->pos + 4);
        }
        *thread = k;
        return m;
    }
    return 0;
}

#endif
