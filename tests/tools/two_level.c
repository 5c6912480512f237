/* two_level.c — an independent two-level cache model, for the tests'
 * comparison with cdat's [l2] (tests/cli/cdat-l2.sh), with an optional
 * third level for cdat's memory-side [l3] (tests/cli/cdat-l3.sh).
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
 * With L3_SIZE L3_ASSOC, memory is a third level of the same kind, below the
 * L2: an L2 read miss reads it, a dirty L2 victim is written into it (a
 * write miss takes a line without reading below), in the order they happen.
 * L2_SIZE 0 (only with an L3): no L2, the L1s' misses and dirty victims go
 * to the third level directly.
 * Nothing of cdat is used: only the C library.
 *
 * With -r POLICY first (lru, the default, fifo or random; -lN-Xrepl l or f
 * in Dinero IV, whose random differs), every level replaces by it: under
 * FIFO and random a hit moves nothing, so a set's order is the order its
 * lines came in; FIFO evicts the line that came first, random the line at
 * position (splitmix64's finaliser of (line << 32 | the newest line's)) mod
 * ways, newest first, as cdat's cache.h specifies.
 *
 * With -w, the L1 d-cache is write-through (Dinero IV's -l1-dwback n, still
 * write-allocate): no line of it is ever dirty, and every write, after the
 * miss it may have made (the read of the line from below, then its clean
 * victim, which goes nowhere), is also a write into the level below it.
 *
 * With -c, the L2's read misses are also classified by Hill's rule
 * (cdat's L25): cold, the first reference of the L2 to the line (a read or a
 * written victim); conflict, one a fully associative LRU cache of the L2's
 * lines, seeing the same reads and writes, would have hit; capacity, the
 * rest.
 *
 * Output, one line each:
 *   l1d refs N misses N
 *   l1i refs N misses N
 *   l2 reads N read_misses N writes N write_misses N write_backs N   (with an L2)
 *   l2_classes cold N capacity N conflict N                          (with -c)
 *   l3 reads N read_misses N writes N write_misses N write_backs N   (with an L3)
 * Usage: two_level [-r POLICY] [-w] [-c] LINE L1I_SIZE L1I_ASSOC L1D_SIZE L1D_ASSOC L2_SIZE L2_ASSOC [L3_SIZE L3_ASSOC] [FILE]
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

enum { REPL_LRU, REPL_FIFO, REPL_RANDOM };

typedef struct level {
    way *w;                     /* sets * ways, each set in the policy's order, most recent first */
    uint64_t sets, ways;
    int repl;
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
    if (hit && c->repl != REPL_LRU) {   /* FIFO, random: the line keeps its place */
        s[i].dirty = s[i].dirty || write;
        return true;
    }
    if (hit) {
        x.dirty = s[i].dirty || write;
    } else {
        i = c->ways - 1;
        if (c->repl == REPL_RANDOM && s[i].valid) {
            uint64_t z = (b << 32 | s[0].tag) + 0x9E3779B97F4A7C15ull;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            i = (z ^ (z >> 31)) % c->ways;
        }
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

/* -c: the L2 being classified, its fully associative shadow, the lines it
 * ever referenced (an open-addressing set of line + 1), and the counts. */
static const level *classified;
static level shadow;
static uint64_t *seen, seen_cap, seen_n, cls_cold, cls_capacity, cls_conflict;

/* Whether b was referenced before; it is from now on. */
static bool seen_before(uint64_t b)
{
    if (2 * (seen_n + 1) > seen_cap) {
        uint64_t *old = seen, cap = seen_cap;
        seen_cap = cap ? 2 * cap : 1024;
        seen = calloc(seen_cap, sizeof *seen);
        if (!seen) die("out of memory", 0);
        seen_n = 0;
        for (uint64_t i = 0; i < cap; i++)
            if (old[i]) (void)seen_before(old[i] - 1);
        free(old);
    }
    uint64_t i = (b * 0x9e3779b97f4a7c15ull) & (seen_cap - 1);
    while (seen[i] && seen[i] != b + 1) i = (i + 1) & (seen_cap - 1);
    if (seen[i]) return true;
    seen[i] = b + 1;
    seen_n++;
    return false;
}

/* A reference of the classified level to b (missed: a read that missed). */
static void classify(uint64_t b, bool missed)
{
    bool ev, vd;
    uint64_t v;
    bool before = seen_before(b), shadow_hit = level_access(&shadow, b, false, &ev, &v, &vd);
    if (!missed) return;
    if (!before) cls_cold++;
    else if (shadow_hit) cls_conflict++;
    else cls_capacity++;
}

/* A level below the L1s: a read (a miss above) or a write (a dirty victim
 * from above). below: the next level, or NULL (memory). */
static void lower_ref(level *c, level *below, uint64_t b, bool write)
{
    bool ev, vd;
    uint64_t v;
    bool hit = level_access(c, b, write, &ev, &v, &vd);
    if (c == classified) classify(b, !write && !hit);
    if (write) {
        c->writes++;
        c->write_misses += !hit;
    } else {
        c->reads++;
        c->read_misses += !hit;
        if (!hit && below) lower_ref(below, NULL, b, false);     /* the line is read from below first … */
    }
    if (ev && vd) {
        c->write_backs++;
        if (below) lower_ref(below, NULL, v, true);             /* … then the victim written into it */
    }
}

static void print_level(const char *name, const level *c)
{
    printf("%s reads %" PRIu64 " read_misses %" PRIu64 " writes %" PRIu64 " write_misses %" PRIu64 " write_backs %"
           PRIu64 "\n", name, c->reads, c->read_misses, c->writes, c->write_misses, c->write_backs);
}

int main(int argc, char **argv)
{
    int repl = REPL_LRU;
    bool classes = false, through = false;
    for (; argc > 1 && argv[1][0] == '-'; argv++, argc--) {
        if (strcmp(argv[1], "-c") == 0) {
            classes = true;
        } else if (strcmp(argv[1], "-w") == 0) {
            through = true;
        } else if (strcmp(argv[1], "-r") == 0 && argc > 2) {
            if (strcmp(argv[2], "fifo") == 0) repl = REPL_FIFO;
            else if (strcmp(argv[2], "random") == 0) repl = REPL_RANDOM;
            else if (strcmp(argv[2], "lru") != 0) die("-r: the policy is lru, fifo or random", 0);
            argv++;
            argc--;
        } else {
            die("unknown option (-r POLICY, -w, -c)", 0);
        }
    }
    if (argc < 8 || argc > 11) {
        fprintf(stderr, "usage: two_level [-r POLICY] [-w] [-c] LINE L1I_SIZE L1I_ASSOC L1D_SIZE L1D_ASSOC L2_SIZE L2_ASSOC"
                " [L3_SIZE L3_ASSOC] [FILE]\n");
        return 1;
    }
    bool three = argc >= 10;
    uint64_t a[9] = { 0 };
    for (int k = 0; k < (three ? 9 : 7); k++) a[k] = strtoull(argv[k + 1], NULL, 10);
    uint64_t line = a[0];
    if (!line || (line & (line - 1))) die("the line size is not a power of two", 0);
    level l1i = { 0 }, l1d = { 0 }, l2 = { 0 }, l3 = { 0 };
    level_init(&l1i, a[1], a[2], line);
    level_init(&l1d, a[3], a[4], line);
    bool two = a[5] != 0;
    if (!two && !three) die("no L2 and no L3", 0);
    if (two) level_init(&l2, a[5], a[6], line);
    if (classes && !two) die("-c needs an L2", 0);
    if (classes) {
        classified = &l2;
        level_init(&shadow, a[5], 0, line);
    }
    if (three) level_init(&l3, a[7], a[8], line);
    l1i.repl = l1d.repl = l2.repl = l3.repl = repl;    /* the shadow stays LRU (Hill's rule) */
    /* The level below the L1s, and the one below it. */
    level *next = two ? &l2 : &l3, *below = two && three ? &l3 : NULL;
    FILE *f = argc == 9 || argc == 11 ? fopen(argv[argc - 1], "r") : stdin;
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
        bool hit = level_access(c, b, label == 1 && !through, &ev, &v, &vd);
        if (label == 2) {
            irefs++;
            imiss += !hit;
        } else {
            drefs++;
            dmiss += !hit;
        }
        if (!hit) {
            lower_ref(next, below, b, false);               /* the fetch first … */
            if (ev && vd) lower_ref(next, below, v, true);  /* … then the victim's write-back */
        }
        if (through && label == 1) lower_ref(next, below, b, true);  /* -w: the write goes on below */
    }
    printf("l1d refs %" PRIu64 " misses %" PRIu64 "\n", drefs, dmiss);
    printf("l1i refs %" PRIu64 " misses %" PRIu64 "\n", irefs, imiss);
    if (two) print_level("l2", &l2);
    if (classes)
        printf("l2_classes cold %" PRIu64 " capacity %" PRIu64 " conflict %" PRIu64 "\n", cls_cold, cls_capacity,
               cls_conflict);
    if (three) print_level("l3", &l3);
    if (f != stdin) fclose(f);
    free(l1i.w);
    free(l1d.w);
    free(l2.w);
    free(l3.w);
    free(shadow.w);
    free(seen);
    return fflush(stdout) == 0 ? 0 : 2;
}
