/* false_sharing.c — NTHREADS threads each update only their own counter, but
 * the counters share one cache line: no communication in ciat (no location is
 * shared), yet cdat sees the line bounce between the caches. */
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 4
#define UPDATES 500

static volatile long counts[NTHREADS];     /* 32 bytes: one line */

static void *worker(void *arg)
{
    long id = (long)arg;
    for (int i = 0; i < UPDATES; i++)
        counts[id]++;
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
        sum += counts[i];
    }
    printf("false_sharing: %ld updates\n", sum);
    return 0;
}
