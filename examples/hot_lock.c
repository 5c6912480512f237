/* hot_lock.c — where the time goes: one hot lock among cold ones. NTHREADS
 * workers each do ITEMS items; every item updates the shared totals under
 * one lock (totals_lock: the hot one, taken by every thread for every item,
 * with a little work inside), and every 32nd item also its own bucket under
 * that bucket's lock (bucket_locks[]: cold, each taken by one thread only).
 * ciat --locks ranks totals_lock first (waits, hand-offs, hold time) and
 * names it through the address map; the cold locks never wait. */
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 4
#define ITEMS 256
#define BUCKETS 8

static struct { long items, sum, max; } totals;
static pthread_mutex_t totals_lock = PTHREAD_MUTEX_INITIALIZER;
static long buckets[BUCKETS];
static pthread_mutex_t bucket_locks[BUCKETS];

static void *worker(void *arg)
{
    long id = (long)arg, value = id;
    for (int i = 0; i < ITEMS; i++) {
        for (int k = 0; k < 16; k++) value = value * 1103515245 + 12345;   /* private work */
        long v = (value >> 16) & 1023;
        pthread_mutex_lock(&totals_lock);
        totals.items++;
        totals.sum += v;
        if (v > totals.max) totals.max = v;
        pthread_mutex_unlock(&totals_lock);
        if (i % 32 == 31) {
            int b = (int)(id % BUCKETS);
            pthread_mutex_lock(&bucket_locks[b]);
            buckets[b] += v;
            pthread_mutex_unlock(&bucket_locks[b]);
        }
    }
    return NULL;
}

int main(void)
{
    pthread_t t[NTHREADS];
    for (int b = 0; b < BUCKETS; b++) pthread_mutex_init(&bucket_locks[b], NULL);
    for (long i = 0; i < NTHREADS; i++) pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < NTHREADS; i++) pthread_join(t[i], NULL);
    printf("hot_lock: %ld items\n", totals.items);
    return 0;
}
