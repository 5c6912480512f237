/* gen_events.c — a synthetic ciat event trace for the tdat benchmark.
 *
 *   gen_events OUT MEVENTS [THREADS]
 *
 * Writes MEVENTS million lines "clock event thread degree" in ciat's format
 * (formats/CIAT-EVENTS.md, with its three header lines): threads (default 8)
 * take turns at random, each with its own clock that advances by 0..3 per
 * event, so clocks are interleaved out of order as in a real trace. Events:
 * RAW 50%, RAR 20%, WAR 20% (degree 1..threads-1), WAW 10%. Deterministic
 * (a fixed xorshift seed). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state = 0x9e3779b97f4a7c15ull;

static inline uint64_t next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static inline char *put_u64(char *p, uint64_t v)
{
    char tmp[20];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) *p++ = tmp[--n];
    return p;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: gen_events OUT MEVENTS [THREADS]\n");
        return 1;
    }
    uint64_t n = strtoull(argv[2], NULL, 10) * 1000000ull;
    unsigned threads = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 8;
    if (threads < 2 || threads > 1024) {
        fprintf(stderr, "gen_events: THREADS must be 2..1024\n");
        return 1;
    }
    FILE *f = fopen(argv[1], "wb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    fprintf(f, "# ciat communication events of bench.%u\n# fields: clock event thread degree\n"
            "# clock = the thread's pseudo clock after the access; event RAW WAR WAW RAR; degree ="
            " invalidation degree for WAR, 1 for WAW, 0 for RAW and RAR\n", threads);
    uint64_t *clock = calloc(threads, sizeof *clock);
    enum { BUF = 1 << 20 };
    char *buf = malloc(BUF + 128), *p = buf;
    uint64_t bytes = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = next();
        unsigned t = (unsigned)(r % threads);
        clock[t] += (r >> 16) & 3;
        unsigned kind = (unsigned)((r >> 20) % 10), degree = 0;
        const char *ev;
        if (kind < 5) ev = "RAW";
        else if (kind < 7) ev = "RAR";
        else if (kind < 9) ev = "WAR", degree = 1 + (unsigned)((r >> 32) % (threads - 1));
        else ev = "WAW", degree = 1;
        p = put_u64(p, clock[t]);
        *p++ = ' ';
        memcpy(p, ev, 3);
        p += 3;
        *p++ = ' ';
        p = put_u64(p, t);
        *p++ = ' ';
        p = put_u64(p, degree);
        *p++ = '\n';
        if (p - buf >= BUF) {
            fwrite(buf, 1, (size_t)(p - buf), f);
            bytes += (uint64_t)(p - buf);
            p = buf;
        }
    }
    fwrite(buf, 1, (size_t)(p - buf), f);
    bytes += (uint64_t)(p - buf);
    if (fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    printf("gen_events: %llu events, %llu bytes\n", (unsigned long long)n, (unsigned long long)bytes);
    free(clock);
    free(buf);
    return 0;
}
