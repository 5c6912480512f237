/* gen_chase.c — a pointer-chasing trace set, for benchmarks (linked
 * structures: lists, trees, hash chains walked through pointers).
 *
 *   gen_chase PREFIX [THREADS [KSTEPS [SEED]]]
 *
 * writes PREFIX.THREADS.0 … (-p style; defaults 4 threads, 2500 K steps per
 * thread, seed 1) and prints its parameters. 2^18 nodes of 32 bytes (8 MiB)
 * form one random cycle, shared by every thread; each thread starts at its
 * own node and follows the cycle: per step a load of the node's next pointer
 * (8 bytes), a load of its key (8 bytes), every eighth step a store to its
 * value (8 bytes), and a taken branch back to the loop head. The same
 * arguments give the same files. A benchmark input, not a test. */
#include "gen_out.h"

#include <stdio.h>
#include <stdlib.h>

enum { NODES = 1 << 18, NODE_BYTES = 32 };
static const uint32_t POOL = 0x20000000u, CODE = 0x00010000u;

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 5) {
        fprintf(stderr, "usage: gen_chase PREFIX [THREADS [KSTEPS [SEED]]]\n");
        return 1;
    }
    int threads = argc > 2 ? atoi(argv[2]) : 4;
    uint64_t steps = (argc > 3 ? strtoull(argv[3], NULL, 10) : 2500) * 1000ull;
    uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
    if (threads < 1 || threads > 4096 || steps == 0) {
        fprintf(stderr, "gen_chase: THREADS must be 1..4096 and KSTEPS > 0\n");
        return 1;
    }
    printf("pointer chasing: %d threads x %llu steps (seed %llu) around one random cycle of %d"
           " shared 32-byte nodes (8 MiB): load next, load key, every 8th step a store, a branch\n",
           threads, (unsigned long long)steps, (unsigned long long)seed, NODES);
    /* Sattolo's shuffle: a single cycle through every node. */
    uint32_t *succ = malloc(NODES * sizeof *succ);
    if (!succ) { perror("gen_chase"); return 2; }
    for (uint32_t i = 0; i < NODES; i++) succ[i] = i;
    uint64_t s = seed;
    for (uint32_t i = NODES - 1; i > 0; i--) {
        uint32_t j = (uint32_t)(gen_next(&s) % i), t = succ[i];
        succ[i] = succ[j];
        succ[j] = t;
    }
    for (int t = 0; t < threads; t++) {
        gen_out o;
        if (!gen_open(&o, argv[1], threads, t)) { free(succ); return 2; }
        gen_put(&o, 0x40000000u, CODE);                     /* procedure start */
        uint32_t node = (uint32_t)((uint64_t)t * NODES / (uint64_t)threads);
        for (uint64_t i = 0; i < steps; i++) {
            uint32_t a = POOL + node * NODE_BYTES;
            gen_put(&o, smait_mem_f1(SMAIT_LOAD, 8, SMAIT_REG_FIXED), a);          /* next */
            gen_put(&o, smait_mem_f1(SMAIT_LOAD, 8, SMAIT_REG_FIXED), a + 8);      /* key */
            if (i % 8 == 7) gen_put(&o, smait_mem_f1(SMAIT_STORE, 8, SMAIT_REG_FIXED), a + 16);
            gen_put(&o, 0x80000000u | (CODE + 0x10 + 4 * (i % 8 == 7 ? 4 : 3)), CODE + 0x10);
            node = succ[node];
        }
        if (!gen_close(&o)) { free(succ); return 2; }
    }
    free(succ);
    return 0;
}
