/* cache_floor.c — a bare model of one processor's data cache, to show what
 * simulating the cache alone costs on this machine: the yardstick beside
 * cdat's 1x1 line in make bench (bench/run-cdat-bench.sh).
 *
 *   cache_floor SET [SIZE_KIB [WAYS [LINE]]]
 *
 * reads a little-endian trace set (SET = PREFIX.P, as the tools name it; its
 * memory-access records, every thread's through the one cache, the threads
 * in turn a block at a time: bench/floor_in.h) and simulates a write-back,
 * write-allocate LRU cache (defaults: 64 KiB, 2 ways, 64-byte lines, as
 * configs/1x1.ini's d-cache) plus one byte
 * per line ever missed, which is all a one-processor directory must keep
 * (cdat's line map is a byte a line too). It prints its references, misses
 * (which must equal cdat's data misses on the same configuration), write-
 * backs and lines ever missed. Nothing else: no protocol, no transactions,
 * no statistics by kind, no scheduler, no validation. An access that spans
 * lines is one reference per line, as in cdat.
 *
 * A benchmark helper, not a tool. */
#include "floor_in.h"

#include <inttypes.h>

typedef struct model {
    uint32_t *tag;              /* per set, ways entries MRU first: line << 2 | state (0 empty, 1 clean, 3 dirty) */
    uint32_t set_mask;
    unsigned ways;
    uint8_t *seen;              /* a byte per line: ever missed */
    uint64_t refs, misses, write_backs, lines;
} model;

static void reference(model *m, uint32_t line, int store)
{
    uint32_t *s = m->tag + (size_t)(line & m->set_mask) * m->ways, want = line << 2;
    m->refs++;
    /* e - (want | 1) < 3: e holds the line, clean or dirty (one compare). */
    if (s[0] - (want | 1) < 3) {                    /* the commonest case first: the MRU line */
        s[0] |= store ? 3u : 0u;
        return;
    }
    unsigned w = 1;
    while (w < m->ways && s[w] - (want | 1) >= 3) w++;
    uint32_t e;
    if (w < m->ways) {
        e = s[w] | (store ? 3u : 0u);               /* a hit: to the front */
    } else {
        m->misses++;
        w = m->ways - 1;                            /* the LRU way goes */
        if ((s[w] & 3) == 3) m->write_backs++;
        m->lines += !m->seen[line];                 /* no branch: nothing waits for the byte */
        m->seen[line] = 1;
        e = want | (store ? 3u : 1u);
    }
    for (; w > 0; w--) s[w] = s[w - 1];
    s[0] = e;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 5) {
        fprintf(stderr, "usage: cache_floor SET [SIZE_KIB [WAYS [LINE]]]\n");
        return 1;
    }
    unsigned kib = argc > 2 ? (unsigned)atoi(argv[2]) : 64, ways = argc > 3 ? (unsigned)atoi(argv[3]) : 2;
    unsigned line_bytes = argc > 4 ? (unsigned)atoi(argv[4]) : 64, shift = 0;
    while ((1u << shift) < line_bytes) shift++;
    uint64_t sets = (uint64_t)kib * 1024 / line_bytes / (ways ? ways : 1);
    if (!ways || (1u << shift) != line_bytes || shift < 2 || !sets || (sets & (sets - 1))) {
        fprintf(stderr, "cache_floor: size / (ways x line) must be a power of two, the line a power of two >= 4\n");
        return 1;
    }
    model m = { .tag = calloc(sets * ways, sizeof(uint32_t)), .set_mask = (uint32_t)(sets - 1), .ways = ways,
                .seen = floor_reserve((size_t)1 << (32 - shift)) };
    if (!m.tag || !m.seen) {
        fprintf(stderr, "cache_floor: out of memory\n");
        return 2;
    }
    floor_in in;
    floor_open(&in, argv[1], FLOOR_MAX_THREADS);
    uint32_t rec[2 * FLOOR_BLOCK];
    int t;
    unsigned n;
    while ((n = floor_block(&in, &t, rec)) > 0) {
        for (unsigned k = 0; k < n; k++) {
            uint32_t f1 = rec[2 * k], addr = rec[2 * k + 1];
            if (smait_classify(f1) != SMAIT_MEM) continue;
            uint64_t last_byte = (uint64_t)addr + smait_size_last_byte(smait_mem_size_code(f1));
            uint32_t first = addr >> shift, last = last_byte > UINT32_MAX ? first : (uint32_t)(last_byte >> shift);
            int store = smait_mem_access(f1) != SMAIT_LOAD;
            for (uint32_t l = first;; l++) {
                reference(&m, l, store);
                if (l == last) break;
            }
        }
    }
    printf("cache_floor: %" PRIu64 " references, %" PRIu64 " misses, %" PRIu64 " write-backs, %" PRIu64
           " lines ever missed\n", m.refs, m.misses, m.write_backs, m.lines);
    return 0;
}
