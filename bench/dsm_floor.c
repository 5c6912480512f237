/* dsm_floor.c — a bare model of a small directory machine's data side, to
 * show what that alone costs on this machine: the yardstick beside cdat's
 * 4x4 irregular-mix line in make bench (bench/run-cdat-bench.sh).
 *
 *   dsm_floor SET
 *
 * reads a little-endian trace set (SET = PREFIX.P, P <= 16; the threads in
 * turn a block at a time, bench/floor_in.h); thread t runs on processor t,
 * each with a 64 KiB 2-way LRU d-cache of 64-byte lines (configs/4x4.ini's),
 * and a full-map directory keeps per line its state (idle, shared,
 * exclusive), owner and sharers (4 bytes a line, indexed by the line:
 * floor_reserve). A load miss of a line another holds exclusive makes both
 * shared, of an idle line exclusive; a store miss or a store to a shared line
 * invalidates every other copy and makes it the writer's; a victim leaves
 * the directory's record. Nothing else: no instruction fetches, i-caches,
 * nodes, homes, transactions, statistics, protocol variants, scheduler or
 * validation; an access is one reference to its first line. It prints its
 * counts; they are not cdat's (another order).
 *
 * A benchmark helper, not a tool. */
#include "floor_in.h"

#include <inttypes.h>

enum { PROCS = 16, SETS = 512, WAYS = 2 };
enum { IDLE, SHARED, EXCLUSIVE };                   /* directory states */
enum { C_SHARED = 1, C_EXCLUSIVE = 2, C_DIRTY = 3 }; /* cache entry states: line << 2 | state */

typedef struct dir_line { uint16_t sharers; uint8_t owner, state; } dir_line;

static uint32_t cache[PROCS][SETS * WAYS];
static dir_line *dir_map;      /* indexed by line: 2^26 lines of 64 bytes (floor_reserve) */
static uint64_t hits, misses, upgrades, invalidations, write_backs;

static inline dir_line *dir(uint32_t line) { return &dir_map[line]; }

/* The entry of line in processor q's cache, or NULL. */
static uint32_t *find(unsigned q, uint32_t line)
{
    uint32_t *s = cache[q] + (line & (SETS - 1)) * WAYS;
    for (unsigned w = 0; w < WAYS; w++)
        if ((s[w] & 3) && s[w] >> 2 == line) return &s[w];
    return NULL;
}

/* Every copy but p's goes; p is the line's only holder, owner, dirty. */
static void take(dir_line *d, unsigned p, uint32_t line)
{
    for (unsigned o = d->sharers & ~(1u << p); o; o &= o - 1) {
        uint32_t *e = find((unsigned)__builtin_ctz(o), line);
        if (e) *e = 0;
        invalidations++;
    }
    d->sharers = (uint16_t)(1u << p);
    d->owner = (uint8_t)p;
    d->state = EXCLUSIVE;
}

static void reference(unsigned p, uint32_t line, int store)
{
    uint32_t *s = cache[p] + (line & (SETS - 1)) * WAYS;
    unsigned w = (s[0] & 3) && s[0] >> 2 == line ? 0 : (s[1] & 3) && s[1] >> 2 == line ? 1 : WAYS;
    if (w < WAYS) {
        uint32_t e = s[w];
        s[w] = s[0];
        s[0] = e;
        if (store && (e & 3) == C_SHARED) {
            upgrades++;
            take(dir(line), p, line);
        } else {
            hits++;
        }
        if (store) s[0] = line << 2 | C_DIRTY;
        return;
    }
    misses++;
    uint32_t v = s[WAYS - 1];
    if (v & 3) {
        dir_line *dv = dir(v >> 2);
        if ((v & 3) == C_DIRTY) write_backs++;
        dv->sharers &= (uint16_t)~(1u << p);
        if (!dv->sharers) dv->state = IDLE;
    }
    dir_line *d = dir(line);
    unsigned st;
    if (store) {
        take(d, p, line);
        st = C_DIRTY;
    } else if (d->state == EXCLUSIVE && d->owner != p) {
        uint32_t *e = find(d->owner, line);
        if (e) *e = line << 2 | C_SHARED;
        d->state = SHARED;
        d->sharers |= (uint16_t)(1u << p);
        st = C_SHARED;
    } else if (d->state == SHARED) {
        d->sharers |= (uint16_t)(1u << p);
        st = C_SHARED;
    } else {
        d->state = EXCLUSIVE;
        d->owner = (uint8_t)p;
        d->sharers = (uint16_t)(1u << p);
        st = C_EXCLUSIVE;
    }
    s[1] = s[0];
    s[0] = line << 2 | st;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: dsm_floor SET\n");
        return 1;
    }
    floor_in in;
    floor_open(&in, argv[1], PROCS);         /* thread t on processor t */
    dir_map = floor_reserve(sizeof(dir_line) << 26);
    uint32_t rec[2 * FLOOR_BLOCK];
    int t;
    unsigned n;
    while ((n = floor_block(&in, &t, rec)) > 0)
        for (unsigned k = 0; k < n; k++)
            if (smait_classify(rec[2 * k]) == SMAIT_MEM)
                reference((unsigned)t, rec[2 * k + 1] >> 6, smait_mem_access(rec[2 * k]) != SMAIT_LOAD);
    printf("dsm_floor: %" PRIu64 " data references, %" PRIu64 " misses, %" PRIu64 " upgrades, %" PRIu64
           " invalidations, %" PRIu64 " write-backs\n", hits + misses + upgrades, misses, upgrades, invalidations,
           write_backs);
    return 0;
}
