/* gen_kernel.c — synthetic trace sets with typical locality, for benchmarks.
 *
 *   gen_kernel PREFIX THREADS MRECORDS [blocked]   writes PREFIX.THREADS.0 … (-p style)
 *
 * Each thread runs the report's mat_mul kernel, C = A x B on 256 x 256 doubles,
 * rows of C divided among the threads: per inner iteration a load of A[i][k]
 * (private row), a load of B[k][j] (shared, column walk) and a taken branch
 * back to the loop head in a small shared code region; a store of C[i][j]
 * after each inner loop; a barrier (arg2 = 0) after every row, time-stamped
 * 1 ms per row (slice mode's slices are the rows). About
 * MRECORDS million records per thread. A benchmark input, not a test. */
#include "../base/diag.h"
#include "gen_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 256 };
static const uint32_t A = 0x40000000u, B = 0x40080000u, C = 0x40100000u, CODE = 0x00010000u;

/* "blocked": the same product in 32 x 32 tiles (kk, jj, then this thread's
 * rows i and the tile's j, k), as a tuned program would compute it: the tile
 * of B stays in a 64 KiB cache, so few references miss (typical locality). */
enum { TILE = 32 };

static void blocked(gen_out *o, int t, int threads, uint64_t want)
{
    for (uint32_t pass = 0; o->records < want; pass++)
        for (uint32_t kk = 0; kk < N && o->records < want; kk += TILE)
            for (uint32_t jj = 0; jj < N && o->records < want; jj += TILE) {
                for (uint32_t i = (uint32_t)t; i < N && o->records < want; i += (uint32_t)threads)
                    for (uint32_t j = jj; j < jj + TILE; j++) {
                        gen_put(o, smait_mem_f1(SMAIT_LOAD, 8, SMAIT_REG_FLOAT), C + (i * N + j) * 8);
                        for (uint32_t k = kk; k < kk + TILE; k++) {
                            gen_put(o, smait_mem_f1(SMAIT_LOAD, 8, SMAIT_REG_FLOAT), A + (i * N + k) * 8);
                            gen_put(o, smait_mem_f1(SMAIT_LOAD, 8, SMAIT_REG_FLOAT), B + (k * N + j) * 8);
                            gen_put(o, 0x80000000u | (CODE + 0x20 + 4), CODE + 0x10);
                        }
                        gen_put(o, smait_mem_f1(SMAIT_STORE, 8, SMAIT_REG_FLOAT), C + (i * N + j) * 8);
                        gen_put(o, 0x80000000u | (CODE + 0x40 + 4), CODE + 0x08);
                    }
                uint32_t us = (pass * (N / TILE) * (N / TILE) + (kk / TILE) * (N / TILE) + jj / TILE + 1) * 1000u;
                for (unsigned p = 0; p < SMAIT_CALL_PARTS; p++)    /* a barrier after each tile */
                    gen_put(o, smait_call_f1(SMAIT_CT_BARRIER, p),
                        p == SMAIT_CALL_ARG1 ? 0x7000u : p <= SMAIT_CALL_END ? us : 0);
            }
}

int main(int argc, char **argv)
{
    if (argc != 4 && !(argc == 5 && strcmp(argv[4], "blocked") == 0)) {
        fprintf(stderr, "usage: gen_kernel PREFIX THREADS MRECORDS [blocked]\n");
        return 1;
    }
    int threads = atoi(argv[2]);
    uint64_t want = strtoull(argv[3], NULL, 10) * 1000000ull;
    for (int t = 0; t < threads; t++) {
        gen_out o;
        if (!gen_open(&o, argv[1], threads, t)) { return 2; }
        gen_put(&o, 0x40000000u, CODE);                     /* procedure start */
        if (argc == 5) {
            blocked(&o, t, threads, want);
            if (!gen_close(&o)) return 2;
            continue;
        }
        for (uint32_t row = (uint32_t)t; o.records < want; row += (uint32_t)threads) {
            uint32_t i = row % N;
            for (uint32_t j = 0; j < N && o.records < want; j++) {
                for (uint32_t k = 0; k < N; k++) {
                    gen_put(&o, smait_mem_f1(SMAIT_LOAD, 8, SMAIT_REG_FLOAT), A + (i * N + k) * 8);
                    gen_put(&o, smait_mem_f1(SMAIT_LOAD, 8, SMAIT_REG_FLOAT), B + (k * N + j) * 8);
                    gen_put(&o, 0x80000000u | (CODE + 0x20 + 4), CODE + 0x10);    /* loop back */
                }
                gen_put(&o, smait_mem_f1(SMAIT_STORE, 8, SMAIT_REG_FLOAT), C + (i * N + j) * 8);
                gen_put(&o, 0x80000000u | (CODE + 0x40 + 4), CODE + 0x08);        /* next j */
            }
            /* A barrier after the row, at 1 ms per row in every thread, so that
             * slice mode (-i) runs the threads' rows side by side. */
            uint32_t us = (row / (uint32_t)threads + 1) * 1000u;
            for (unsigned p = 0; p < SMAIT_CALL_PARTS; p++)
                gen_put(&o, smait_call_f1(SMAIT_CT_BARRIER, p),
                    p == SMAIT_CALL_ARG1 ? 0x7000u : p <= SMAIT_CALL_END ? us : 0);
        }
        if (!gen_close(&o)) return 2;
    }
    return 0;
}
