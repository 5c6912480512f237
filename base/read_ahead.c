/* read_ahead.c — a ring of chunks filled by a producer thread. */
#include "read_ahead.h"
#include "diag.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct chunk {
    unsigned char *data;
    size_t len;             /* bytes made */
    long result;            /* the fill's last result: > 0 more may follow, 0 end, -1 failure */
    const char *why;
    uint64_t mark;
} chunk;

struct read_ahead {
    read_ahead_fill fill;
    void *ctx;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t filled, emptied;
    chunk ring[RA_CHUNKS];
    unsigned head, tail;    /* consumer takes ring[head % N]; producer fills ring[tail % N] */
    bool stop;              /* consumer: stop producing */
    bool waiting;           /* the producer sleeps on a full ring */
    /* consumer only */
    size_t pos;             /* bytes of ring[head] handed out */
    uint64_t mark;
    bool over;              /* the end or a failure was handed out */
    const char *error;
};

/* Fill one chunk outside the lock; the chunk ends with the first result
 * that is not a full read, so an end or a failure ends the thread. */
static void *produce(void *arg)
{
    read_ahead *ra = arg;
    for (;;) {
        pthread_mutex_lock(&ra->lock);
        while (ra->tail - ra->head == RA_CHUNKS && !ra->stop) {
            ra->waiting = true;
            pthread_cond_wait(&ra->emptied, &ra->lock);
        }
        ra->waiting = false;
        bool stop = ra->stop;
        chunk *c = &ra->ring[ra->tail % RA_CHUNKS];
        pthread_mutex_unlock(&ra->lock);
        if (stop) return NULL;
        c->len = 0;
        c->result = 1;
        c->why = NULL;
        while (c->len < RA_CHUNK) {
            long k = ra->fill(ra->ctx, c->data + c->len, RA_CHUNK - c->len, &c->why, &c->mark);
            if (k <= 0) {
                c->result = k;
                break;
            }
            c->len += (size_t)k;
        }
        long result = c->result;    /* once handed over, the chunk is the consumer's */
        pthread_mutex_lock(&ra->lock);
        ra->tail++;
        pthread_cond_signal(&ra->filled);
        pthread_mutex_unlock(&ra->lock);
        if (result <= 0) return NULL;
    }
}

read_ahead *read_ahead_start(read_ahead_fill fill, void *ctx)
{
#ifdef DSM_FUZZING
    /* The fuzz harnesses go on after a fatal error and free what the failed
     * run allocated, glibc's own allocations for a new thread included: no
     * threads there (the bytes are the same; test_read_ahead covers the ring). */
    (void)fill;
    (void)ctx;
    return NULL;
#endif
    read_ahead *ra = xcalloc(1, sizeof *ra);
    ra->fill = fill;
    ra->ctx = ctx;
    for (int i = 0; i < RA_CHUNKS; i++) ra->ring[i].data = xmalloc(RA_CHUNK);
    pthread_mutex_init(&ra->lock, NULL);
    pthread_cond_init(&ra->filled, NULL);
    pthread_cond_init(&ra->emptied, NULL);
    if (pthread_create(&ra->thread, NULL, produce, ra) != 0) {
        for (int i = 0; i < RA_CHUNKS; i++) free(ra->ring[i].data);
        pthread_mutex_destroy(&ra->lock);
        pthread_cond_destroy(&ra->filled);
        pthread_cond_destroy(&ra->emptied);
        free(ra);
        return NULL;
    }
    return ra;
}

long read_ahead_read(read_ahead *ra, void *buf, size_t n, const char **why)
{
    size_t got = 0;
    while (got < n && !ra->over) {
        pthread_mutex_lock(&ra->lock);
        while (ra->tail == ra->head)
            pthread_cond_wait(&ra->filled, &ra->lock);
        pthread_mutex_unlock(&ra->lock);
        chunk *c = &ra->ring[ra->head % RA_CHUNKS];
        ra->mark = c->mark;
        size_t k = c->len - ra->pos < n - got ? c->len - ra->pos : n - got;
        memcpy((unsigned char *)buf + got, c->data + ra->pos, k);
        got += k;
        ra->pos += k;
        if (ra->pos < c->len) break;
        if (c->result <= 0) {
            ra->over = true;
            ra->error = c->result < 0 ? c->why : NULL;
        }
        ra->pos = 0;
        pthread_mutex_lock(&ra->lock);
        ra->head++;
        /* A producer asleep on a full ring is woken once half of it is free,
         * so that each wake-up fills several chunks. */
        if (ra->waiting && ra->tail - ra->head <= RA_CHUNKS / 2) pthread_cond_signal(&ra->emptied);
        pthread_mutex_unlock(&ra->lock);
    }
    if (got == 0 && ra->error) {
        *why = ra->error;
        return -1;
    }
    return (long)got;
}

uint64_t read_ahead_mark(const read_ahead *ra) { return ra->mark; }

void read_ahead_stop(read_ahead *ra)
{
    if (!ra) return;
    pthread_mutex_lock(&ra->lock);
    ra->stop = true;
    pthread_cond_signal(&ra->emptied);
    pthread_mutex_unlock(&ra->lock);
    pthread_join(ra->thread, NULL);
    for (int i = 0; i < RA_CHUNKS; i++) free(ra->ring[i].data);
    pthread_mutex_destroy(&ra->lock);
    pthread_cond_destroy(&ra->filled);
    pthread_cond_destroy(&ra->emptied);
    free(ra);
}
