/* counter.c — migratory data: NTHREADS threads increment one counter under a
 * mutex; the counter's line moves from cache to cache with the lock. */
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 4
#define INCREMENTS 200

static long counter;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < INCREMENTS; i++) {
        pthread_mutex_lock(&lock);
        counter++;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    printf("counter: %ld\n", counter);
    return 0;
}
