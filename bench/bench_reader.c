/* bench_reader.c — throughput of a plain scan with common/trace_reader.
 *
 *   bench_reader gen FILE MRECORDS [little|big [SEED]]  write a synthetic trace (typical mix:
 *                                          loads, stores, branches, a call record
 *                                          every 1000 records)
 *   bench_reader scan FILE...              scan, count kinds, print records/s
 *
 * A timing program, not a test: make bench runs it; nothing asserts on time. */
#include "../base/diag.h"
#include "../common/trace_reader.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int gen(const char *path, uint64_t n, smait_order order, uint64_t seed)
{
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); return 2; }
    enum { CHUNK = 1 << 16 };
    unsigned char *buf = xmalloc(CHUNK * 8);
    uint64_t x = 88172645463325252ull ^ (seed * 0x9E3779B97F4A7C15ull), written = 0;
    uint32_t pc = 0x10000;
    /* Like SMAIT, begin with a start_trace call record (it also decides the
     * byte order of the file unambiguously, formats/SMAIT.md §2) and end
     * with end_trace (without it the trace is cut, §12). */
    bool started = false;
    uint64_t body = n >= 2 * SMAIT_CALL_PARTS ? n - SMAIT_CALL_PARTS : n;  /* records before end_trace */
    while (written < n) {
        size_t k = 0;
        if (!started && n >= 2 * SMAIT_CALL_PARTS) {
            for (unsigned j = 0; j < SMAIT_CALL_PARTS; j++)
                smait_store_raw(buf + 8 * k++, (smait_raw){ smait_call_f1(SMAIT_CT_START_TRACE, j), 0 }, order);
            started = true;
        }
        if (started && written + k == body) {
            for (unsigned j = 0; j < SMAIT_CALL_PARTS; j++)
                smait_store_raw(buf + 8 * k++, (smait_raw){ smait_call_f1(SMAIT_CT_END_TRACE, j), 0 }, order);
        }
        while (k < CHUNK - SMAIT_CALL_PARTS && written + k < body) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            uint64_t i = written + k;
            smait_raw r;
            if (i % 1000 == 999 && written + k + SMAIT_CALL_PARTS <= body) {
                for (unsigned j = 0; j < SMAIT_CALL_PARTS; j++) {
                    r.f1 = smait_call_f1(SMAIT_CT_SYSCALL, j);
                    r.f2 = j;
                    smait_store_raw(buf + 8 * k++, r, order);
                }
                continue;
            }
            unsigned sel = (unsigned)(x % 10);
            if (sel < 5) { r.f1 = smait_mem_f1(0, 4, 0); r.f2 = 0x40000000u + (uint32_t)(x >> 40) * 4; }
            else if (sel < 8) { r.f1 = smait_mem_f1(1, 8, 1); r.f2 = 0x40000000u + (uint32_t)(x >> 44) * 8; }
            else { pc += 64; r.f1 = 0x80000000u | (pc & SMAIT_BRANCH_ADDR_MASK); r.f2 = pc + 16; }
            smait_store_raw(buf + 8 * k++, r, order);
        }
        fwrite(buf, 8, k, f);
        written += k;
    }
    free(buf);
    return fclose(f) == 0 ? 0 : 2;
}

static void report(const char *api, uint64_t records, uint64_t simple, double dt, uint64_t acc)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("scan (%s): %" PRIu64 " records (%" PRIu64 " simple) in %.3f s: %.1f M records/s,"
           " %.2f GB/s, peak RSS %ld KiB, checksum %016" PRIx64 "\n", api, records, simple, dt,
           records / dt / 1e6, simple * 8.0 / dt / 1e9, ru.ru_maxrss, acc);
}

/* The same scan through trace_reader_next_run. */
static void scan_runs(char **paths, int n)
{
    uint64_t records = 0, simple = 0, acc = 0;
    double t0 = now();
    for (int i = 0; i < n; i++) {
        trace_reader *r = trace_reader_open(paths[i], NULL);
        const smait_raw *p, *end;
        while ((p = trace_reader_next_run(r, &end)) != NULL) {
            simple += (uint64_t)(end - p);
            while (p < end) {
                acc += p->f1 ^ p->f2;
                records++;
                p += smait_record_span(p->f1);
            }
        }
        trace_reader_close(r);
    }
    report("next_run", records, simple, now() - t0, acc);
}

static int scan(char **paths, int n)
{
    uint64_t records = 0, simple = 0, acc = 0, branches = 0;
    double t0 = now();
    for (int i = 0; i < n; i++) {
        trace_reader *r = trace_reader_open(paths[i], NULL);
        const smait_raw *p;
        while ((p = trace_reader_next(r)) != NULL) {
            acc += p->f1 ^ p->f2;   /* touch every record, cheaply */
            branches += p->f1 >> 31;    /* branch and procedure-call records */
            records++;
        }
        simple += trace_reader_index(r) + 1;
        trace_reader_close(r);
    }
    report("next", records, simple, now() - t0, acc);
    printf("scan: branch and procedure-call records %" PRIu64 "\n", branches);
    scan_runs(paths, n);
    return 0;
}

int main(int argc, char **argv)
{
    diag_set_tool("bench_reader");
    if (argc >= 4 && strcmp(argv[1], "gen") == 0)
        return gen(argv[2], strtoull(argv[3], NULL, 10) * 1000000ull,
                   argc > 4 && strcmp(argv[4], "big") == 0 ? SMAIT_ORDER_BIG : SMAIT_ORDER_LITTLE,
                   argc > 5 ? strtoull(argv[5], NULL, 10) : 0);
    if (argc >= 3 && strcmp(argv[1], "scan") == 0)
        return scan(argv + 2, argc - 2);
    fprintf(stderr, "usage: bench_reader gen FILE MRECORDS [little|big [SEED]] | scan FILE...\n");
    return 1;
}
