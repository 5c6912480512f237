/* contend.c — many threads contending for locks, one running far ahead
 * (tests/cli/collector-onthefly.sh).
 *
 * Thread 1 takes lock 0 first and, holding it, makes a long private run of
 * accesses (megabytes of trace) while the other threads queue for that lock;
 * then every thread takes the two locks in turn many times, updating shared
 * counters. An analysis fed through bounded pipes would deadlock here if a
 * thread blocked on a full pipe while holding a lock the analysis waits on. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { THREADS = 12, ROUNDS = 200, AHEAD = 400000 };

static pthread_mutex_t lock[2] = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER };
static pthread_barrier_t start;
static long counter[2];
static volatile long priv[THREADS][64];

static void *work(void *arg)
{
    long id = (long)arg;
    if (id == 1) {
        pthread_mutex_lock(&lock[0]);
        pthread_barrier_wait(&start);
        for (long i = 0; i < AHEAD; i++)
            priv[id][i & 63] += i;
        counter[0]++;
        pthread_mutex_unlock(&lock[0]);
    } else {
        pthread_barrier_wait(&start);
    }
    for (int r = 0; r < ROUNDS; r++) {
        pthread_mutex_t *m = &lock[(r + id) & 1];
        pthread_mutex_lock(m);
        counter[(r + id) & 1] += id;
        pthread_mutex_unlock(m);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (long i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, work, (void *)i))
            return 1;
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    printf("contend: %ld\n", counter[0] + counter[1]);
    return 0;
}
