/* rt_heap.c — heap blocks by allocation site: the map's heap lines.
 *
 * smait-instrument sends every direct call of malloc, calloc, realloc,
 * aligned_alloc and posix_memalign (C++'s operator new: cxx/rt_new.c) to a
 * wrapper here, after storing the call's code address in rt_alloc_site
 * (__smait_alloc_site). The wrapper calls the real function and notes the
 * block. One entry per (site, start address) keeps the number of blocks and
 * the largest size: the union of those blocks. So the table grows with the
 * addresses the heap covers, not with the number of allocations (malloc and
 * free in a loop at one place is one entry), and a free needs no record: the
 * map is about the whole run, and a range that several sites used lists them
 * all.
 *
 * The table is mapped once, before main, at a fixed address far below the
 * program's own mappings and above nothing it grows into, and is touched
 * only where used: no malloc in the program's threads (rt_main.c), and the
 * program's mappings (thread stacks, large blocks) stay where they were
 * without it, so the records do not change. Under one lock, as the folding:
 * allocations are rare beside memory accesses. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "rt.h"

#define WRAP __attribute__((visibility("default")))

/* Entries are appended to a dense array (the map reads only those) and found
 * through an index of open addressing that doubles when half full, each new
 * index after the last in the mapping (the old one's pages are given back). */
enum { ENTS_MAX = 1u << 22, IDX_FIRST = 1u << 12, IDX_MAX = 2 * ENTS_MAX };
#define HEAP_HINT ((void *)0x200000000000ull)

typedef struct heap_ent {
    uint64_t start, size;               /* the largest block of the site at start */
    uint32_t site, count;
} heap_ent;

_Thread_local uint32_t rt_alloc_site __attribute__((tls_model("initial-exec")));

static heap_ent *ents;                  /* ENTS_MAX, then the indexes: 2 * IDX_MAX slots */
static size_t used;
static uint32_t *idx;                   /* entry + 1, or 0 */
static size_t idx_cap, idx_next;        /* capacity; offset of the next index */
static uint64_t lost;                   /* blocks not noted: the table was full */
static atomic_flag heap_lock = ATOMIC_FLAG_INIT;

static size_t map_bytes(void) { return (size_t)ENTS_MAX * sizeof *ents + (size_t)2 * IDX_MAX * sizeof *idx; }

void rt_heap_init(void)
{
    void *p = mmap(HEAP_HINT, map_bytes(), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return;                         /* no heap lines */
    ents = p;
    idx = (uint32_t *)(ents + ENTS_MAX);
    idx_cap = IDX_FIRST;
    idx_next = IDX_FIRST;
}

static size_t slot_of(uint64_t start, uint32_t site, size_t cap)
{
    return (size_t)(((start >> 4) * 0x9E3779B97F4A7C15ull ^ site * 0xC2B2AE3D27D4EB4Full) >> 32) & (cap - 1);
}

static void idx_put(uint32_t *ix, size_t cap, size_t e)
{
    size_t j = slot_of(ents[e].start, ents[e].site, cap);
    while (ix[j])
        j = (j + 1) & (cap - 1);
    ix[j] = (uint32_t)e + 1;
}

static void idx_grow(void)
{
    uint32_t *base = (uint32_t *)(ents + ENTS_MAX), *old = idx;
    size_t old_cap = idx_cap;
    idx = base + idx_next;
    idx_cap *= 2;
    idx_next += idx_cap;
    for (size_t e = 0; e < used; e++)
        idx_put(idx, idx_cap, e);
    madvise(old, old_cap * sizeof *old, MADV_DONTNEED);
}

/* The table may be half updated by a thread the child does not have; the
 * child writes no map, so it notes nothing. */
void rt_heap_locks_after_fork(void) { rt_spin_unlock(&heap_lock); }

void rt_heap_note(uint32_t site, uintptr_t p, uint64_t size)
{
    if (!ents || !site || !p || !size || rt_type == RT_TYPE_SUPPRESSED || rt_child)
        return;
    uint64_t a = p;
    rt_spin_lock(&heap_lock);
    size_t j = slot_of(a, site, idx_cap);
    while (idx[j] && !(ents[idx[j] - 1].start == a && ents[idx[j] - 1].site == site))
        j = (j + 1) & (idx_cap - 1);
    if (idx[j]) {
        heap_ent *e = &ents[idx[j] - 1];
        if (e->count < UINT32_MAX)
            e->count++;
        if (size > e->size)
            e->size = size;
    } else if (used < ENTS_MAX) {
        ents[used] = (heap_ent){ a, size, site, 1 };
        idx[j] = (uint32_t)++used;
        if (2 * used > idx_cap && idx_cap < IDX_MAX)
            idx_grow();
    } else {
        lost++;
    }
    rt_spin_unlock(&heap_lock);
}

/* ---- the wrappers ---------------------------------------------------------------- */

WRAP void __smait_alloc_site(rt_module *m, uint32_t rel)
{
    rt_alloc_site = m->base + rel;
}

static uint32_t take_site(void)
{
    uint32_t s = rt_alloc_site;
    rt_alloc_site = 0;
    return s;
}

WRAP void *__smait_malloc(size_t n)
{
    uint32_t site = take_site();
    void *p = malloc(n);
    rt_heap_note(site, (uintptr_t)p, n);
    return p;
}

WRAP void *__smait_calloc(size_t n, size_t k)
{
    uint32_t site = take_site();
    void *p = calloc(n, k);
    rt_heap_note(site, (uintptr_t)p, (uint64_t)n * k);     /* no overflow: calloc said NULL */
    return p;
}

WRAP void *__smait_realloc(void *q, size_t n)
{
    uint32_t site = take_site();
    void *p = realloc(q, n);
    rt_heap_note(site, (uintptr_t)p, n);
    return p;
}

WRAP void *__smait_aligned_alloc(size_t align, size_t n)
{
    uint32_t site = take_site();
    void *p = aligned_alloc(align, n);
    rt_heap_note(site, (uintptr_t)p, n);
    return p;
}

WRAP int __smait_posix_memalign(void **pp, size_t align, size_t n)
{
    uint32_t site = take_site();
    void *p = NULL;
    int rc = posix_memalign(&p, align, n);
    if (rc == 0) {
        *pp = p;
        rt_heap_note(site, (uintptr_t)p, n);
    }
    return rc;
}

/* ---- the heap lines ---------------------------------------------------------------- */

/* A block's piece on one run of folded pages (entry e of the copy). */
typedef struct hpiece { uint64_t start, end; uint32_t e; } hpiece;

static int by_start(const void *a, const void *b)
{
    const hpiece *x = a, *y = b;
    if (x->start != y->start)
        return (x->start > y->start) - (x->start < y->start);
    return (x->e > y->e) - (x->e < y->e);
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

typedef struct site_n { uint32_t site; uint64_t n; } site_n;

static int by_site(const void *a, const void *b)
{
    const site_n *x = a, *y = b;
    return (x->site > y->site) - (x->site < y->site);
}

static int by_blocks(const void *a, const void *b)
{
    const site_n *x = a, *y = b;
    if (x->n != y->n)
        return (x->n < y->n) - (x->n > y->n);
    return by_site(a, b);
}

typedef struct vec { void *v; size_t n, cap, size; } vec;

static void *vec_push(vec *v)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 256;
        void *w = realloc(v->v, cap * v->size);
        if (!w)
            return NULL;
        v->v = w;
        v->cap = cap;
    }
    return (char *)v->v + v->n++ * v->size;
}

/* Sites of the pieces active now, sorted, each once (its blocks summed over
 * its entries: one piece of an entry is active at a time). */
static size_t active_sites(const hpiece *act, size_t nact, const heap_ent *e, site_n *out)
{
    size_t k = 0;
    for (size_t i = 0; i < nact; i++)
        out[k++] = (site_n){ e[act[i].e].site, 0 };
    qsort(out, k, sizeof *out, by_site);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (!u || out[u - 1].site != out[i].site)
            out[u++] = out[i];
    return u;
}

static void print_range(FILE *f, uint64_t start, uint64_t end, uint64_t count, site_n *sites, size_t ns)
{
    qsort(sites, ns, sizeof *sites, by_blocks);
    fprintf(f, "heap 0x%08llx 0x%08llx %llu ", (unsigned long long)start, (unsigned long long)end,
            (unsigned long long)count);
    for (size_t i = 0; i < ns; i++)
        fprintf(f, "%s0x%08x", i ? "," : "", sites[i].site);
    fputc('\n', f);
}

typedef struct heap_pieces { vec pieces; uint32_t e; } heap_pieces;

static int add_hpiece(void *ctx, uint64_t start, uint64_t end)
{
    heap_pieces *hp = ctx;
    hpiece *h = vec_push(&hp->pieces);
    if (!h)
        return -1;
    *h = (hpiece){ start, end, hp->e };
    return 0;
}

/* The blocks' pieces on touched pages, folded; the folded space cut at every
 * piece's ends; consecutive cuts with the same sites joined into a range.
 * COUNT: the blocks (of the entries) with a piece in the range. */
static int write_heap(FILE *f, const heap_ent *blk, size_t nents)
{
    heap_pieces hp = { { .size = sizeof(hpiece) }, 0 };
    for (size_t i = 0; i < nents; i++) {
        hp.e = (uint32_t)i;
        if (rt_fold_range(blk[i].start, blk[i].start + blk[i].size, add_hpiece, &hp)) {
            free(hp.pieces.v);
            return -1;
        }
    }
    vec pieces = hp.pieces;
    hpiece *pv = pieces.v;
    size_t np = pieces.n;
    if (np)
        qsort(pv, np, sizeof *pv, by_start);
    /* the cut points: every start and end, sorted */
    uint64_t *cut = malloc((2 * np + 1) * sizeof *cut);
    hpiece *act = malloc((np + 1) * sizeof *act);
    site_n *now = malloc((np + 1) * sizeof *now), *cur = malloc((np + 1) * sizeof *cur);
    uint32_t *seen = malloc((nents + 1) * sizeof *seen);
    int rc = -1;
    if (!cut || !act || !now || !cur || !seen)
        goto out;
    size_t nc = 0;
    for (size_t i = 0; i < np; i++)
        cut[nc++] = pv[i].start, cut[nc++] = pv[i].end;
    qsort(cut, nc, sizeof *cut, by_u64);
    memset(seen, 0xff, (nents + 1) * sizeof *seen);
    size_t nact = 0, next = 0, ncur = 0;
    uint64_t rstart = 0, rend = 0, rcount = 0;
    uint32_t rid = 0;
    for (size_t c = 0; c + 1 < nc; c++) {
        uint64_t lo = cut[c], hi = cut[c + 1];
        if (lo == hi)
            continue;
        for (size_t i = 0; i < nact;)           /* pieces that ended */
            if (act[i].end <= lo)
                act[i] = act[--nact];
            else
                i++;
        while (next < np && pv[next].start <= lo)
            act[nact++] = pv[next++];
        size_t ns = active_sites(act, nact, blk, now);
        bool same = ns && ncur == ns && rend == lo;
        for (size_t i = 0; same && i < ns; i++)
            same = now[i].site == cur[i].site;
        if (!same) {
            if (ncur)
                print_range(f, rstart, rend, rcount, cur, ncur);
            ncur = ns;
            memcpy(cur, now, ns * sizeof *now);
            rstart = lo;
            rcount = 0;
            rid++;
        }
        if (!ns) {
            ncur = 0;
            continue;
        }
        rend = hi;
        for (size_t i = 0; i < nact; i++) {
            uint32_t e = act[i].e;
            if (seen[e] == rid)
                continue;
            seen[e] = rid;
            rcount += blk[e].count;
            for (size_t k = 0; k < ncur; k++)
                if (cur[k].site == blk[e].site)
                    cur[k].n += blk[e].count;
        }
    }
    if (ncur)
        print_range(f, rstart, rend, rcount, cur, ncur);
    rc = 0;
out:
    free(cut), free(act), free(now), free(cur), free(seen), free(pieces.v);
    return rc;
}

void rt_heap_map_write(FILE *f)
{
    if (!ents)
        return;
    rt_spin_lock(&heap_lock);
    size_t n = used;
    heap_ent *copy = malloc((n + 1) * sizeof *copy);
    if (copy)
        memcpy(copy, ents, n * sizeof *copy);
    uint64_t lost_now = lost;
    rt_spin_unlock(&heap_lock);
    if (lost_now)
        fprintf(f, "# heap: %llu blocks not listed (more than %u block places)\n",
                (unsigned long long)lost_now, ENTS_MAX);
    if (!copy || write_heap(f, copy, n) != 0)
        fputs("# heap lines missing: out of memory\n", f);
    free(copy);
}
