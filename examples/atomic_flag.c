/* atomic_flag.c — a hand-off by C11 atomics: a producer computes 1024 values
 * (long work), stores them, and publishes them with a release store of a
 * flag; three consumers wait for the flag with acquire loads and then read
 * every value. No lock, no barrier: the trace records the flag's release and
 * the version each consumer's acquire saw (docs/collector.md §3), so the
 * analysis replays every consumer's reads after the producer's writes — each
 * value written once and read by 3 consumers, as with a barrier. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

#define N 1024
#define CONSUMERS 3

static int data[N];
static atomic_int ready;
static long sums[CONSUMERS];

/* The long work: arithmetic in registers, no memory accesses. */
static int work(int i)
{
    unsigned x = (unsigned)i + 1;
    for (int k = 0; k < 500; k++)
        x = x * 1664525u + 1013904223u;
    return (int)(x % 1000);
}

static void *consumer(void *arg)
{
    long id = (long)arg, s = 0;
    while (!atomic_load_explicit(&ready, memory_order_acquire))
        sched_yield();
    for (int i = 0; i < N; i++)
        s += data[i];
    sums[id] = s;
    return NULL;
}

int main(void)
{
    pthread_t t[CONSUMERS];
    for (long i = 0; i < CONSUMERS; i++)
        pthread_create(&t[i], NULL, consumer, (void *)i);
    for (int i = 0; i < N; i++)
        data[i] = work(i);
    atomic_store_explicit(&ready, 1, memory_order_release);
    for (int i = 0; i < CONSUMERS; i++)
        pthread_join(t[i], NULL);
    for (int i = 1; i < CONSUMERS; i++)
        if (sums[i] != sums[0])
            return 1;
    printf("atomic_flag: sum %ld, read by %d consumers\n", sums[0], CONSUMERS);
    return 0;
}
