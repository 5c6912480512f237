/* busylock.c — four threads that each alternate a stretch of their own work
 * with an increment of a shared counter under a mutex: all four are ready to
 * run nearly all the time, so on fewer processors than threads they wait
 * for one (tracing.sh runs it under taskset on one processor). */
#include <pthread.h>
#include <stdio.h>

enum { NTHREADS = 4, ROUNDS = 1000, WORK = 400 };

static long counter;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    long own = (long)arg;
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < WORK; i++)
            own = own * 31 + i;
        pthread_mutex_lock(&lock);
        counter += own & 1;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[NTHREADS];
    for (long i = 0; i < NTHREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    printf("done\n");
    return 0;
}
