/* timing.c — the collector test's determinism program: its records must not
 * depend on thread timing or on the size of the environment. With
 * TIMING_SLOW=1, thread 0 sleeps 20 ms after each create, so each worker
 * has started (and the runtime's start of a thread has run) before the next
 * is created; with TIMING_SLOW=0 they start in whatever order. (The sleep is
 * always called, for 0 or 20 ms, and the variable must be set: the same
 * instrumented control flow, the same environment size.) Workers write their own
 * stack; thread 0 writes a large (mmap'd) and a small (heap) block, its own
 * stack, and reads everything the workers wrote. It exits with 1 if it
 * sees the runtime's SMAIT_STACK_PAD (which must not reach the program).
 * At the end malloc_stats() lists malloc's arenas on standard error: the
 * workers never allocate, so there must be one (the runtime must not make
 * arenas in the threads it starts: see rt_thread.c). */
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

enum { W = 3, BIG = 1 << 18 };     /* BIG: above malloc's mmap threshold */
static pthread_barrier_t bar;
static long *big, *small;
static volatile long *seen[W];

static void *work(void *p)
{
    long id = (long)p;
    volatile long loc[4];
    for (int i = 0; i < 4; i++)
        loc[i] = id + i;
    seen[id] = loc;
    pthread_barrier_wait(&bar);     /* thread 0 reads loc now */
    pthread_barrier_wait(&bar);
    return (void *)(big[id] + small[id]);
}

int main(void)
{
    long slow = atol(getenv("TIMING_SLOW"));       /* libc: no records */
    pthread_t t[W];
    volatile long here[2] = { 0, 0 };
    pthread_barrier_init(&bar, 0, W + 1);
    for (long i = 0; i < W; i++) {
        pthread_create(&t[i], 0, work, (void *)i);
        nanosleep(&(struct timespec){ 0, slow * 20 * 1000 * 1000 }, 0);
    }
    big = malloc(BIG);
    small = malloc(64);
    for (int i = 0; i < W; i++)
        big[i] = small[i] = i;
    pthread_barrier_wait(&bar);
    for (int i = 0; i < W; i++)
        here[0] += seen[i][1];
    pthread_barrier_wait(&bar);
    for (int i = 0; i < W; i++)
        pthread_join(t[i], 0);
    here[1] = here[0];
    int r = (int)here[1] - 6 + (getenv("SMAIT_STACK_PAD") != NULL);  /* 1 + 2 + 3 */
    free(small);
    free(big);
    malloc_stats();
    return r;
}
