/* pipeline.c — a producer/consumer pipeline: a producer fills a bounded ring
 * of 8 slots under a mutex and condition variables, a consumer empties it.
 * Every item moves from one thread to the other (RAW with one consumer). */
#include <pthread.h>
#include <stdio.h>

#define ITEMS 256
#define SLOTS 8

static int ring[SLOTS];
static int head, tail, count;
static long total;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER, not_empty = PTHREAD_COND_INITIALIZER;

static void *producer(void *arg)
{
    (void)arg;
    for (int i = 1; i <= ITEMS; i++) {
        pthread_mutex_lock(&lock);
        while (count == SLOTS)
            pthread_cond_wait(&not_full, &lock);
        ring[head] = i * i;
        head = (head + 1) % SLOTS;
        count++;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITEMS; i++) {
        pthread_mutex_lock(&lock);
        while (count == 0)
            pthread_cond_wait(&not_empty, &lock);
        total += ring[tail];
        tail = (tail + 1) % SLOTS;
        count--;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t p, c;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    printf("pipeline: total %ld\n", total);
    return 0;
}
