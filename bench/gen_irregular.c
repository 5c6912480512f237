/* gen_irregular.c — a synthetic trace set with an irregular footprint, for
 * benchmarks (the mix of issue 15: databases, hash tables, sparse data).
 *
 *   gen_irregular [-s MIB] [-w BYTES] PREFIX [THREADS [KACCESSES [SEED]]]
 *
 * writes PREFIX.THREADS.0 … (-p style; defaults 4 threads, 5000 K data
 * accesses per thread, seed 1) and prints its parameters. Per thread, each
 * data access is with probability
 *   70%  the thread's private sequential stream: 8-byte elements walked in
 *        order through a buffer of its own of -s MiB (default 1; wrapping);
 *   20%  a hot shared 64 KiB region, 8-byte element chosen uniformly;
 *   10%  a -w-byte word (4 or 8, default 4) chosen uniformly in a 256 MiB
 *        region every thread reaches;
 * (-s 8 -w 8: the held-out mix of issue 42, streams larger than the
 * last-level cache and 8-byte random words);
 * one access in three is a store, and after every 1–11 accesses (6 on
 * average) a taken branch closes a loop body in a small shared code region.
 * The choices come from a fixed pseudo-random sequence per thread and seed,
 * so the same arguments give the same files. A benchmark input, not a test. */
#include "gen_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t PRIVATE = 0x40000000u;
static const uint32_t HOT = 0x30000000u, HOT_BYTES = 64u << 10;
static const uint32_t RANDOM = 0x10000000u, RANDOM_BYTES = 256u << 20;
static const uint32_t CODE = 0x00010000u;

int main(int argc, char **argv)
{
    uint32_t stream_mib = 1, word = 4;
    while (argc > 2 && (strcmp(argv[1], "-s") == 0 || strcmp(argv[1], "-w") == 0)) {
        unsigned long v = strtoul(argv[2], NULL, 10);
        if (argv[1][1] == 's') stream_mib = (uint32_t)v;
        else word = (uint32_t)v;
        argv += 2;
        argc -= 2;
    }
    if (argc < 2 || argc > 5) {
        fprintf(stderr, "usage: gen_irregular [-s MIB] [-w BYTES] PREFIX [THREADS [KACCESSES [SEED]]]\n");
        return 1;
    }
    if (stream_mib == 0 || stream_mib > 64 || (stream_mib & (stream_mib - 1)) || (word != 4 && word != 8)) {
        fprintf(stderr, "gen_irregular: -s must be a power of two 1..64 (MiB), -w 4 or 8\n");
        return 1;
    }
    const uint32_t PRIVATE_BYTES = stream_mib << 20;
    int threads = argc > 2 ? atoi(argv[2]) : 4;
    uint64_t per_thread = (argc > 3 ? strtoull(argv[3], NULL, 10) : 5000) * 1000ull;
    uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
    if (threads < 1 || threads > 4096 || per_thread == 0 || (uint64_t)threads * PRIVATE_BYTES > 0xC0000000u) {
        fprintf(stderr, "gen_irregular: THREADS must be 1..4096 (and THREADS x -s at most 3 GiB), KACCESSES > 0\n");
        return 1;
    }
    printf("irregular: %d threads x %llu data accesses (seed %llu): 70%% private sequential"
           " (8 B in %u MiB each), 20%% hot shared 64 KiB (8 B), 10%% random over 256 MiB (%u B);"
           " 1/3 stores; a branch every 1-11 (avg 6) accesses\n",
           threads, (unsigned long long)per_thread, (unsigned long long)seed, stream_mib, word);
    for (int t = 0; t < threads; t++) {
        gen_out o;
        if (!gen_open(&o, argv[1], threads, t)) { return 2; }
        uint64_t s = seed * 0x100000001B3ull + (uint64_t)t;
        uint32_t stream = PRIVATE + (uint32_t)t * PRIVATE_BYTES, pos = 0;
        uint32_t body = 0, until_branch = 1 + (uint32_t)(gen_next(&s) % 11);
        gen_put(&o, 0x40000000u, CODE);                     /* procedure start */
        for (uint64_t i = 0; i < per_thread; i++) {
            uint64_t r = gen_next(&s);
            unsigned pick = (unsigned)(r % 100);
            bool store = (r >> 32) % 3 == 0;
            uint32_t addr, size_code = 8;
            if (pick < 70) {
                addr = stream + pos;
                pos = (pos + 8) & (PRIVATE_BYTES - 1);
            } else if (pick < 90) {
                addr = HOT + (uint32_t)((r >> 40) % (HOT_BYTES / 8)) * 8;
            } else {
                addr = RANDOM + (uint32_t)(gen_next(&s) % (RANDOM_BYTES / word)) * word;
                size_code = word;
            }
            gen_put(&o, smait_mem_f1(store ? SMAIT_STORE : SMAIT_LOAD, size_code, SMAIT_REG_FIXED), addr);
            body++;
            if (--until_branch == 0) {
                /* a loop body of one instruction per access, back to its head */
                gen_put(&o, 0x80000000u | (CODE + 0x100 + 4 * body), CODE + 0x100);
                body = 0;
                until_branch = 1 + (uint32_t)(gen_next(&s) % 11);
            }
        }
        if (!gen_close(&o)) { return 2; }
    }
    return 0;
}
