/* atomics.c — C11 atomics that synchronise, for the collector test
 * (docs/collector.md §3): a producer hands 1024 ints to 3 consumers with a
 * release store of a flag, which they wait for with acquire loads; each
 * consumer then adds to a seq_cst counter, to a counter by a compare-and-swap
 * loop (acq_rel on success, relaxed on failure) and to a relaxed counter;
 * the producer makes one seq_cst fence and finally reads the counters.
 * Acquires of a version the thread already has make no record: a
 * consumer's second load of the flag, the producer's load of its own
 * release.
 * Every consumer loads the flag once (it is still 0) before a barrier that
 * the producer passes before it starts writing, so that each consumer's
 * records are the same in every run up to the length of its spin loop. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

enum { N = 1024, C = 3 };

int data[N];
atomic_int flag;
atomic_long counter;
atomic_int cas;
atomic_int relaxed;
int sums[C];
pthread_barrier_t ready;

static void *consumer(void *arg)
{
    int id = (int)(long)arg;
    int seen = atomic_load_explicit(&flag, memory_order_acquire);     /* 0: no record */
    pthread_barrier_wait(&ready);
    while (!seen)
        seen = atomic_load_explicit(&flag, memory_order_acquire);
    int s = 0;
    for (int i = 0; i < N; i++)
        s += data[i];
    sums[id] = s;
    if (atomic_load_explicit(&flag, memory_order_acquire) != 1)        /* seen: no record */
        return NULL;
    atomic_fetch_add(&counter, 1);                                      /* seq_cst */
    int e = atomic_load_explicit(&cas, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&cas, &e, e + 1, memory_order_acq_rel,
                                                  memory_order_relaxed))
        ;
    atomic_fetch_add_explicit(&relaxed, 1, memory_order_relaxed);
    return NULL;
}

int main(void)
{
    pthread_t t[C];
    pthread_barrier_init(&ready, NULL, C + 1);
    for (long i = 0; i < C; i++)
        pthread_create(&t[i], NULL, consumer, (void *)i);
    pthread_barrier_wait(&ready);
    for (int i = 0; i < N; i++)
        data[i] = i;
    atomic_store_explicit(&flag, 1, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst);
    int mine = atomic_load_explicit(&flag, memory_order_acquire);      /* its own release: no record */
    for (int i = 0; i < C; i++)
        pthread_join(t[i], NULL);
    long n = atomic_load(&counter);
    int c = atomic_load_explicit(&cas, memory_order_acquire);
    int r = atomic_load_explicit(&relaxed, memory_order_relaxed);
    printf("flag %p\ndata %p 4096\ncounter %p\ncas %p\nrelaxed %p\nsums %p\nready %p\n", (void *)&flag,
           (void *)data, (void *)&counter, (void *)&cas, (void *)&relaxed, (void *)sums, (void *)&ready);
    return !(n == C && c == C && r == C && mine == 1 && sums[0] == N * (N - 1) / 2);
}
