/* fencemisc.c — what the collector records for fences, case by case
 * (collector-fences.sh, docs/collector.md §3). A worker (trace 1) releases
 * objects with release stores and, after release fences, with relaxed
 * writes; the main thread (trace 0), after joining it, reads them with
 * relaxed atomics before acquire fences. One thread at a time: the records
 * are the same in every run. Prints "name 0xADDRESS [BYTES]" for the objects
 * the test names. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

enum { MANY = 65 };

atomic_int a, b, c, d, e, g;
atomic_int many[MANY];
int plain;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    (void)arg;
    atomic_store_explicit(&a, 1, memory_order_release);            /* release a 1 */
    atomic_store_explicit(&b, 1, memory_order_release);            /* release b 1 */
    atomic_store_explicit(&c, 1, memory_order_relaxed);            /* no fence yet: nothing */
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&c, 2, memory_order_relaxed);            /* release c 1 */
    atomic_store_explicit(&c, 3, memory_order_relaxed);            /* c released since the fence */
    atomic_fetch_add_explicit(&d, 1, memory_order_relaxed);        /* release d 1 */
    int x = 5;
    atomic_compare_exchange_strong_explicit(&e, &x, 1, memory_order_relaxed,
                                            memory_order_relaxed);  /* fails: nothing */
    x = 0;
    atomic_compare_exchange_strong_explicit(&e, &x, 1, memory_order_relaxed,
                                            memory_order_relaxed);  /* release e 1 */
    atomic_fetch_add_explicit(&a, 1, memory_order_acquire);        /* release a 2 */
    plain = 1;                                                      /* not atomic: nothing */
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&c, 4, memory_order_relaxed);            /* a new fence: release c 2 */
    for (int i = 0; i < MANY; i++)
        atomic_store_explicit(&many[i], 1, memory_order_release);  /* release many[i] 1 */
    return NULL;
}

int main(void)
{
    pthread_t th;
    pthread_create(&th, NULL, worker, NULL);
    pthread_join(th, NULL);
    int s = 0;
    /* 1: reads of a, b, a, a relaxed RMW of d, then an acquire fence */
    s += atomic_load_explicit(&a, memory_order_relaxed);
    s += atomic_load_explicit(&b, memory_order_relaxed);
    s += atomic_load_explicit(&a, memory_order_relaxed);
    s += atomic_fetch_add_explicit(&d, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    /* 2: a read of c, a call record, the fence */
    s += atomic_load_explicit(&c, memory_order_relaxed);
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    atomic_thread_fence(memory_order_acquire);
    /* 3: reads of g, never released, and of a, already acquired, then a
     * seq_cst fence */
    s += atomic_load_explicit(&g, memory_order_relaxed);
    s += atomic_load_explicit(&a, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    /* 4: 65 objects read before one fence: one more than the runtime notes */
    for (int i = 0; i < MANY; i++)
        s += atomic_load_explicit(&many[i], memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    /* 5: a release fence, then a plain store (SPLASH-3's BARNES): nothing */
    atomic_thread_fence(memory_order_release);
    plain = 2;
    printf("a %p 4\nb %p 4\nc %p 4\nd %p 4\ne %p 4\ng %p 4\nmany %p %d\nplain %p 4\nm %p 40\n", (void *)&a,
           (void *)&b, (void *)&c, (void *)&d, (void *)&e, (void *)&g, (void *)many,
           (int)sizeof many, (void *)&plain, (void *)&m);
    return s == 2 + 1 + 2 + 1 + 4 + 0 + 2 + MANY ? 0 : 1;
}
