/* false_sharing.c — NTHREADS threads each update only their own counter, but
 * the counters share one cache line: no communication in ciat (no location is
 * shared), yet cdat sees the line bounce between the caches. The counters are
 * a struct per thread, as such code usually has them; with -g the collector's
 * address map names counters and this file's line of its declaration. */
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 4
#define UPDATES 500

static struct counter {
    volatile long value;
} counters[NTHREADS];                       /* 32 bytes: one line */

static void *worker(void *arg)
{
    long id = (long)arg;
    for (int i = 0; i < UPDATES; i++)
        counters[id].value++;
    return NULL;
}

int main(void)
{
    pthread_t t[NTHREADS];
    for (long i = 0; i < NTHREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    long sum = 0;
    for (int i = 0; i < NTHREADS; i++) {
        pthread_join(t[i], NULL);
        sum += counters[i].value;
    }
    printf("false_sharing: %ld updates\n", sum);
    return 0;
}
