/* two_level.c — an independent two-level cache model, for the tests'
 * comparison with cdat's [l2] (tests/cli/cdat-l2.sh).
 *
 * It reads references in Dinero IV's din format (`LABEL ADDRESS`, hex; label
 * 0 read, 1 write, 2 instruction fetch; what `cdat --din` writes) and
 * simulates what Dinero IV does with
 *   -l1-isize I -l1-iassoc A -l1-dsize D -l1-dassoc A -l2-usize U -l2-uassoc A
 *   -lN-Xbsize LINE -lN-Xwalloc a -lN-Xwback a -lN-Xrepl l -lN-Xfetch d
 * on one processor: split L1 caches and a unified L2, LRU, write-back and
 * write-allocate, the L2 neither inclusive nor exclusive. An L1 miss reads
 * the line from the L2 (a write miss reads it too), then a dirty L1 victim is
 * written into the L2, in that order; a dirty L2 victim goes to memory.
 * Nothing of cdat is used: only the C library.
 *
 * Output, one line each:
 *   l1d refs N misses N
 *   l1i refs N misses N
 *   l2 reads N read_misses N writes N write_misses N write_backs N
 * Usage: two_level LINE L1I_SIZE L1I_ASSOC L1D_SIZE L1D_ASSOC L2_SIZE L2_ASSOC [FILE]
 * (sizes in bytes; assoc 0 = fully associative). Exit 2 on bad input. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct way {
    uint64_t tag;
    bool valid, dirty;
} way;

typedef struct level {
    way *w;                     /* sets * ways, each set in LRU order, most recent first */
    uint64_t sets, ways;
    uint64_t reads, read_misses, writes, write_misses, write_backs;
} level;

static void die(const char *msg, unsigned long line)
{
    fprintf(stderr, "two_level: %s (line %lu)\n", msg, line);
    exit(2);
}

static void level_init(level *c, uint64_t size, uint64_t assoc, uint64_t line)
{
    uint64_t lines = size / line;
    if (!lines || size % line) die("a cache size is not a whole number of lines", 0);
    c->ways = assoc ? assoc : lines;
    if (lines % c->ways) die("the lines do not divide into the ways", 0);
    c->sets = lines / c->ways;
    c->w = calloc(lines, sizeof *c->w);
    if (!c->w) die("out of memory", 0);
}

/* Access block b: returns whether it hit; on a miss the LRU way is replaced
 * (*victim, *victim_dirty when it was valid) and the block takes its place.
 * Either way the block becomes the most recent of its set; write: dirty. */
static bool level_access(level *c, uint64_t b, bool write, bool *evicted, uint64_t *victim, bool *victim_dirty)
{
    way *s = c->w + (b % c->sets) * c->ways;
    uint64_t i = 0;
    while (i < c->ways && !(s[i].valid && s[i].tag == b)) i++;
    bool hit = i < c->ways;
    way x = { b, true, write };
    *evicted = false;
    if (hit) {
        x.dirty = s[i].dirty || write;
    } else {
        i = c->ways - 1;
        if (s[i].valid) {
            *evicted = true;
            *victim = s[i].tag;
            *victim_dirty = s[i].dirty;
        }
    }
    memmove(s + 1, s, i * sizeof *s);
    s[0] = x;
    return hit;
}

/* The L2: a read (an L1 miss) or a write (a dirty L1 victim). */
static void l2_ref(level *l2, uint64_t b, bool write)
{
    bool ev, vd;
    uint64_t v;
    bool hit = level_access(l2, b, write, &ev, &v, &vd);
    if (write) {
        l2->writes++;
        l2->write_misses += !hit;
    } else {
        l2->reads++;
        l2->read_misses += !hit;
    }
    if (ev && vd) l2->write_backs++;
}

int main(int argc, char **argv)
{
    if (argc != 8 && argc != 9) {
        fprintf(stderr, "usage: two_level LINE L1I_SIZE L1I_ASSOC L1D_SIZE L1D_ASSOC L2_SIZE L2_ASSOC [FILE]\n");
        return 1;
    }
    uint64_t a[7];
    for (int k = 0; k < 7; k++) a[k] = strtoull(argv[k + 1], NULL, 10);
    uint64_t line = a[0];
    if (!line || (line & (line - 1))) die("the line size is not a power of two", 0);
    level l1i = { 0 }, l1d = { 0 }, l2 = { 0 };
    level_init(&l1i, a[1], a[2], line);
    level_init(&l1d, a[3], a[4], line);
    level_init(&l2, a[5], a[6], line);
    FILE *f = argc == 9 ? fopen(argv[8], "r") : stdin;
    if (!f) die("cannot open the input", 0);
    char buf[256];
    unsigned long n = 0;
    uint64_t irefs = 0, imiss = 0, drefs = 0, dmiss = 0;
    while (fgets(buf, sizeof buf, f)) {
        n++;
        unsigned label;
        uint64_t addr;
        if (sscanf(buf, "%u %" SCNx64, &label, &addr) != 2 || label > 2) die("not a din record", n);
        uint64_t b = addr / line;
        level *c = label == 2 ? &l1i : &l1d;
        bool ev, vd;
        uint64_t v;
        bool hit = level_access(c, b, label == 1, &ev, &v, &vd);
        if (label == 2) {
            irefs++;
            imiss += !hit;
        } else {
            drefs++;
            dmiss += !hit;
        }
        if (hit) continue;
        l2_ref(&l2, b, false);                  /* the fetch first … */
        if (ev && vd) l2_ref(&l2, v, true);     /* … then the victim's write-back */
    }
    printf("l1d refs %" PRIu64 " misses %" PRIu64 "\n", drefs, dmiss);
    printf("l1i refs %" PRIu64 " misses %" PRIu64 "\n", irefs, imiss);
    printf("l2 reads %" PRIu64 " read_misses %" PRIu64 " writes %" PRIu64 " write_misses %" PRIu64 " write_backs %"
           PRIu64 "\n", l2.reads, l2.read_misses, l2.writes, l2.write_misses, l2.write_backs);
    if (f != stdin) fclose(f);
    free(l1i.w);
    free(l1d.w);
    free(l2.w);
    return fflush(stdout) == 0 ? 0 : 2;
}
