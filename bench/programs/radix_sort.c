/* radix_sort.c — a benchmark program for the tools (bench/run-programs-bench.sh
 * traces it with smait-cc): a parallel least-significant-digit radix sort of
 * KEYS 32-bit keys, 8 bits a pass, as in SPLASH's RADIX. Per pass, each of
 * NTHREADS workers counts the digits of its contiguous share of the keys
 * into its own histogram; after a barrier every worker computes where its
 * keys of each digit go from all the histograms (read-shared data written by
 * the others); then it scatters its keys to those places in the other array
 * (writes spread over the whole array, next to other threads' writes: false
 * sharing at the edges); a barrier, and the arrays swap roles. Sizes:
 * -DKEYS=… -DNTHREADS=… */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef KEYS
#define KEYS (1 << 20)
#endif
#ifndef NTHREADS
#define NTHREADS 4
#endif
#define DIGITS 256

static uint32_t *keys[2];
static unsigned hist[NTHREADS][DIGITS];
static pthread_barrier_t bar;

static void *worker(void *arg)
{
    int me = (int)(intptr_t)arg;
    size_t from = (size_t)KEYS * (size_t)me / NTHREADS, to = (size_t)KEYS * (size_t)(me + 1) / NTHREADS;
    for (int pass = 0; pass < 4; pass++) {
        const uint32_t *in = keys[pass & 1];
        uint32_t *out = keys[!(pass & 1)];
        int shift = 8 * pass;
        for (int d = 0; d < DIGITS; d++) hist[me][d] = 0;
        for (size_t i = from; i < to; i++) hist[me][in[i] >> shift & 0xFF]++;
        pthread_barrier_wait(&bar);
        /* where this worker's keys of digit d start: all keys of smaller
         * digits, then those of digit d held by the workers before it */
        size_t place[DIGITS], at = 0;
        for (int d = 0; d < DIGITS; d++)
            for (int t = 0; t < NTHREADS; t++) {
                if (t == me) place[d] = at;
                at += hist[t][d];
            }
        for (size_t i = from; i < to; i++) out[place[in[i] >> shift & 0xFF]++] = in[i];
        pthread_barrier_wait(&bar);
    }
    return NULL;
}

int main(void)
{
    keys[0] = malloc(KEYS * sizeof *keys[0]);
    keys[1] = malloc(KEYS * sizeof *keys[1]);
    if (!keys[0] || !keys[1]) {
        perror("radix_sort: malloc");
        return 1;
    }
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < KEYS; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        keys[0][i] = (uint32_t)x;
    }
    pthread_barrier_init(&bar, NULL, NTHREADS);
    pthread_t t[NTHREADS];
    for (intptr_t i = 0; i < NTHREADS; i++) pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < NTHREADS; i++) pthread_join(t[i], NULL);
    size_t bad = 0;
    for (size_t i = 1; i < KEYS; i++) bad += keys[0][i - 1] > keys[0][i];
    printf("radix_sort: %d keys, %d threads: %s\n", KEYS, NTHREADS, bad ? "NOT sorted" : "sorted");
    return bad != 0;
}
