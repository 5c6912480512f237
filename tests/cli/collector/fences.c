/* fences.c — a producer hands 1024 ints to 3 consumers through a flag, with
 * C11 fences (collector-fences.sh, docs/collector.md §3); argv[1] says how:
 *   barrier      the twin: the producer stores the flag (relaxed) and passes
 *                a barrier with the consumers, which then read the flag once
 *                (relaxed): the same data flow, handed over by the barrier
 *   fence        atomic_thread_fence(release), a relaxed store of the flag;
 *                the consumers spin on relaxed loads of it, then
 *                atomic_thread_fence(acquire)
 *   fence-load   the producer as in fence; the consumers spin on acquire
 *                loads (a release fence synchronises with an acquire load)
 *   store-fence  a release store of the flag; the consumers as in fence (a
 *                release store synchronises with an acquire fence)
 *   seq_cst      both fences seq_cst
 *   rmw          the producer's release fence, then a relaxed fetch_add of
 *                the flag; the consumers as in fence
 * Every consumer loads the flag once (it is still 0) before a barrier that
 * the producer passes before it starts working, so that each consumer's
 * first load comes before the producer's store in every run and the flag's
 * own communication is the same in every run and mode. The main thread
 * (trace 0) is the producer; consumer i (trace i + 1) sums the ints into
 * result[i], which the main thread reads after the joins. Prints
 * "name 0xADDRESS [BYTES]" for the objects the test names. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { N = 1024, C = 3, WORK = 20000 };
enum { BARRIER, FENCE, FENCE_LOAD, STORE_FENCE, SEQ_CST, RMW };

int data[N];
int result[C];
atomic_int flag;
int kind;
static int work[64];            /* the producer's own: its long computation */
static pthread_barrier_t ready, done;

static void *consumer(void *arg)
{
    int i = (int)(intptr_t)arg;
    int k = kind;
    int seen = atomic_load_explicit(&flag, memory_order_relaxed);     /* 0 */
    pthread_barrier_wait(&ready);
    switch (k) {
    case BARRIER:
        pthread_barrier_wait(&done);
        seen = atomic_load_explicit(&flag, memory_order_relaxed);
        break;
    case FENCE:
    case STORE_FENCE:
    case RMW:
        while (!seen)
            seen = atomic_load_explicit(&flag, memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        break;
    case FENCE_LOAD:
        while (!seen)
            seen = atomic_load_explicit(&flag, memory_order_acquire);
        break;
    case SEQ_CST:
        while (!seen)
            seen = atomic_load_explicit(&flag, memory_order_relaxed);
        atomic_thread_fence(memory_order_seq_cst);
        break;
    }
    int sum = 0;
    for (int j = 0; j < N; j++)
        sum += data[j];
    result[i] = seen == 1 ? sum : -1;
    return NULL;
}

int main(int argc, char **argv)
{
    static const char *const names[] = { "barrier", "fence", "fence-load", "store-fence", "seq_cst", "rmw" };
    const char *m = argc > 1 ? argv[1] : "fence";
    kind = -1;
    for (int i = 0; i < 6; i++)
        if (!strcmp(m, names[i]))
            kind = i;
    if (kind < 0) {
        fprintf(stderr, "fences: unknown mode %s\n", m);
        return 2;
    }
    pthread_barrier_init(&ready, NULL, C + 1);
    pthread_barrier_init(&done, NULL, C + 1);
    pthread_t th[C];
    for (int i = 0; i < C; i++)
        pthread_create(&th[i], NULL, consumer, (void *)(intptr_t)i);
    pthread_barrier_wait(&ready);

    for (int i = 0; i < WORK; i++)
        work[i & 63] += i;
    for (int j = 0; j < N; j++)
        data[j] = j + work[j & 63];

    switch (kind) {
    case BARRIER:
        atomic_store_explicit(&flag, 1, memory_order_relaxed);
        pthread_barrier_wait(&done);
        break;
    case FENCE:
    case FENCE_LOAD:
        atomic_thread_fence(memory_order_release);
        atomic_store_explicit(&flag, 1, memory_order_relaxed);
        break;
    case STORE_FENCE:
        atomic_store_explicit(&flag, 1, memory_order_release);
        break;
    case SEQ_CST:
        atomic_thread_fence(memory_order_seq_cst);
        atomic_store_explicit(&flag, 1, memory_order_relaxed);
        break;
    case RMW:
        atomic_thread_fence(memory_order_release);
        atomic_fetch_add_explicit(&flag, 1, memory_order_relaxed);
        break;
    }
    for (int i = 0; i < C; i++)
        pthread_join(th[i], NULL);
    int ok = 1;
    for (int i = 0; i < C; i++)
        ok &= result[i] == result[0] && result[i] != -1;
    printf("data %p 4096\nresult %p 12\nflag %p 4\nkind %p 4\nwork %p 256\nready %p\ndone %p\n",
           (void *)data, (void *)result, (void *)&flag, (void *)&kind, (void *)work, (void *)&ready,
           (void *)&done);
    return ok ? 0 : 1;
}
