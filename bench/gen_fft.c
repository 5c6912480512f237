/* gen_fft.c — an FFT-like trace set, for thread-count scaling benchmarks.
 *
 *   gen_fft PREFIX THREADS [MRECORDS]
 *
 * writes PREFIX.THREADS.0 … (-p style) and prints its parameters: radix-2
 * butterfly stages over 2^18 complex doubles (4 MiB, shared), the N/2
 * butterflies of a stage split into equal contiguous parts, one per thread;
 * a butterfly loads both points (real and imaginary parts, 8 bytes each) and
 * its twiddle factor (a shared table of N/2 complex doubles), stores both
 * points, and branches back to the loop head; a barrier ends every stage, so
 * the later stages read what other threads wrote. Passes of 18 stages repeat
 * until about MRECORDS million records (default 16) are written in all,
 * whatever the thread count, so runs with different THREADS do the same work.
 * A benchmark input, not a test. */
#include "gen_out.h"

#include <stdio.h>
#include <stdlib.h>

enum { LOG_N = 18, N = 1 << LOG_N, PER_BUTTERFLY = 11 };
static const uint32_t DATA = 0x20000000u, TWIDDLE = 0x21000000u, CODE = 0x00010000u;

static void point(gen_out *o, unsigned access, uint32_t base, uint32_t i)
{
    gen_put(o, smait_mem_f1(access, 8, SMAIT_REG_FLOAT), base + i * 16);
    gen_put(o, smait_mem_f1(access, 8, SMAIT_REG_FLOAT), base + i * 16 + 8);
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: gen_fft PREFIX THREADS [MRECORDS]\n");
        return 1;
    }
    int threads = atoi(argv[2]);
    uint64_t total = (argc > 3 ? strtoull(argv[3], NULL, 10) : 16) * 1000000ull;
    if (threads < 1 || threads > N / 2 || total == 0) {
        fprintf(stderr, "gen_fft: THREADS must be 1..%d and MRECORDS > 0\n", N / 2);
        return 1;
    }
    uint64_t per_stage = (uint64_t)(N / 2) * PER_BUTTERFLY;
    uint64_t stages = (total + per_stage - 1) / per_stage;
    printf("fft: %d threads, %llu stages of 2^%d-point radix-2 butterflies (4 MiB of points, 2 MiB of"
           " twiddles, all shared), a barrier after each stage: %llu records\n", threads,
           (unsigned long long)stages, LOG_N, (unsigned long long)(stages * per_stage));
    for (int t = 0; t < threads; t++) {
        gen_out o;
        if (!gen_open(&o, argv[1], threads, t)) { return 2; }
        gen_put(&o, 0x40000000u, CODE);                     /* procedure start */
        uint32_t from = (uint32_t)((uint64_t)t * (N / 2) / (uint64_t)threads);
        uint32_t to = (uint32_t)((uint64_t)(t + 1) * (N / 2) / (uint64_t)threads);
        for (uint64_t st = 0; st < stages; st++) {
            uint32_t s = (uint32_t)(st % LOG_N), half = 1u << s;
            for (uint32_t b = from; b < to; b++) {
                uint32_t i = (b >> s << (s + 1)) | (b & (half - 1)), j = i + half;
                point(&o, SMAIT_LOAD, DATA, i);
                point(&o, SMAIT_LOAD, DATA, j);
                point(&o, SMAIT_LOAD, TWIDDLE, (b & (half - 1)) << (LOG_N - 1 - s));
                point(&o, SMAIT_STORE, DATA, i);
                point(&o, SMAIT_STORE, DATA, j);
                gen_put(&o, 0x80000000u | (CODE + 0x10 + 4 * 10), CODE + 0x10);
            }
            uint32_t us = (uint32_t)(st + 1) * 1000u;
            for (unsigned p = 0; p < SMAIT_CALL_PARTS; p++)    /* the stage's barrier */
                gen_put(&o, smait_call_f1(SMAIT_CT_BARRIER, p),
                    p == SMAIT_CALL_ARG1 ? 0x7000u : p <= SMAIT_CALL_END ? us : 0);
        }
        if (!gen_close(&o)) { return 2; }
    }
    return 0;
}
