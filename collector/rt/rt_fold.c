/* rt_fold.c — 64-bit data addresses folded into SMAIT's 32 bits.
 *
 * A page keeps its offset and, when it can, the low 32 bits of its address
 * (with ASLR off, rt_main.c, those are the same in every run). A page whose
 * low bits fall into the synthetic code range (below 2^28) or onto a folded
 * page already taken by another page moves to the next free page from 2^28 up
 * (in the order pages are first flushed). So distinct pages stay distinct.
 * The map file lists every folded page run (docs/collector.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

enum { PAGE_SHIFT = RT_PAGE_SHIFT, FOLD_PAGES = 1u << 20, CODE_PAGES = RT_CODE_LIMIT >> PAGE_SHIFT };

/* page32 0 (a code page, never assigned): the slot is free. next: the slot
 * taken after this one (the slots in use form a list in the order they
 * were taken, so the map reads only those). */
typedef struct { uint64_t page64; uint32_t page32, next; } fold_slot;

static atomic_flag fold_lock_flag = ATOMIC_FLAG_INIT;
static fold_slot *table;                /* open addressing, 2^21 slots (rt_fold_init) */
static size_t table_cap, table_n;
static uint32_t first_slot, last_slot;  /* the list of slots in use (table_n of them) */
static uint8_t taken[FOLD_PAGES / 8];   /* folded pages in use */
static uint32_t overflow_next = CODE_PAGES;

void rt_fold_lock(void) { rt_spin_lock(&fold_lock_flag); }
void rt_fold_unlock(void) { rt_spin_unlock(&fold_lock_flag); }
void rt_fold_locks_after_fork(void) { rt_spin_unlock(&fold_lock_flag); }

static size_t hash(uint64_t p) { return (size_t)((p * 0x9E3779B97F4A7C15ull) >> 20); }

static bool is_taken(uint32_t p) { return taken[p >> 3] >> (p & 7) & 1; }

/* The table is made once, before main, at its largest size (2^21 slots for
 * 2^20 pages: 32 MiB of address space, touched only where used): growing it
 * at a flush would allocate in whichever thread flushes, at a moment that
 * depends on timing, and move the program's later mmaps (thread stacks,
 * large blocks), which would change their folded addresses. */
void rt_fold_init(void)
{
    table_cap = (size_t)FOLD_PAGES * 2;
    table = calloc(table_cap, sizeof *table);
    if (!table)
        rt_fatal("out of memory for the address map");
}

static uint32_t assign(uint64_t page64)
{
    uint32_t p = (uint32_t)(page64 & (FOLD_PAGES - 1));
    if (p < CODE_PAGES || is_taken(p)) {
        while (overflow_next < FOLD_PAGES && is_taken(overflow_next))
            overflow_next++;
        if (overflow_next == FOLD_PAGES)
            rt_fatal("more than 2^20 distinct data pages: the 32-bit address space is full");
        p = overflow_next;
    }
    taken[p >> 3] |= (uint8_t)(1u << (p & 7));
    return p;
}

/* The table slot of page64: its own, or the free one where it would go. */
static size_t probe(uint64_t page64)
{
    size_t j = hash(page64) & (table_cap - 1);
    while (table[j].page32 && table[j].page64 != page64)
        j = (j + 1) & (table_cap - 1);
    return j;
}

/* rt_fold (rt.h) when the thread's page cache has not the page: the
 * table, under its lock. */
uint32_t rt_fold_slow(rt_slot *t, uint64_t addr)
{
    uint64_t page64 = addr >> PAGE_SHIFT;
    uint32_t off = (uint32_t)(addr & ((1u << PAGE_SHIFT) - 1));
    rt_fold_entry *c = &t->fold_cache[page64 & (RT_FOLD_CACHE - 1)];
    rt_fold_lock();
    size_t j = probe(page64);
    if (!table[j].page32) {
        table[j] = (fold_slot){ page64, assign(page64), 0 };
        if (table_n++)
            table[last_slot].next = (uint32_t)j;
        else
            first_slot = (uint32_t)j;
        last_slot = (uint32_t)j;
    }
    uint32_t page32 = table[j].page32;
    rt_fold_unlock();
    c->page64 = page64;
    c->page32 = page32;
    return page32 << PAGE_SHIFT | off;
}

bool rt_fold_peek(uint64_t page64, uint32_t *page32)
{
    size_t j = probe(page64);
    *page32 = table[j].page32;
    return table[j].page32 != 0;
}

int rt_fold_range(uint64_t lo, uint64_t hi, int (*piece)(void *ctx, uint64_t start, uint64_t end), void *ctx)
{
    uint64_t ps = 0, pe = 0;                    /* the piece being joined (none: ps == pe) */
    for (uint64_t a = lo; a < hi;) {
        uint64_t next = ((a >> RT_PAGE_SHIFT) + 1) << RT_PAGE_SHIFT;
        if (next > hi)
            next = hi;
        uint32_t p32;
        if (rt_fold_peek(a >> RT_PAGE_SHIFT, &p32)) {
            uint64_t s = (uint64_t)p32 << RT_PAGE_SHIFT | (a & ((1u << RT_PAGE_SHIFT) - 1));
            if (ps == pe || s != pe) {
                if (ps != pe && piece(ctx, ps, pe))
                    return -1;
                ps = s;
            }
            pe = s + (next - a);
        }
        a = next;
    }
    return ps != pe && piece(ctx, ps, pe) ? -1 : 0;
}

static int by_page32(const void *a, const void *b)
{
    const fold_slot *x = a, *y = b;
    return (x->page32 > y->page32) - (x->page32 < y->page32);
}

/* The process's mappings, read once from /proc/self/maps (ascending and
 * disjoint, as the kernel lists them): naming each run of data pages by
 * reading the file again took seconds for tens of thousands of runs. */
typedef struct { uint64_t lo, hi; char *name; } mapping;
typedef struct { mapping *v; size_t n, cap; } mappings;

static void mappings_read(mappings *m)
{
    *m = (mappings){ 0 };
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        unsigned long long lo, hi;
        int pos = 0;
        if (sscanf(line, "%llx-%llx %*s %*s %*s %*s %n", &lo, &hi, &pos) < 2 || pos == 0)
            continue;
        char *nl = strchr(line + pos, '\n');
        if (nl)
            *nl = 0;
        if (m->n == m->cap) {
            size_t cap = m->cap ? 2 * m->cap : 64;
            mapping *v = realloc(m->v, cap * sizeof *v);
            if (!v)
                break;
            m->v = v, m->cap = cap;
        }
        char *name = strdup(line[pos] ? line + pos : "[anonymous]");
        if (!name)
            break;
        m->v[m->n++] = (mapping){ lo, hi, name };
    }
    fclose(f);
}

static void mappings_free(mappings *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->v[i].name);
    free(m->v);
}

/* The name of the mapping holding addr ("" if none). */
static void mapping_name(const mappings *m, uint64_t addr, char *name, size_t cap)
{
    name[0] = 0;
    size_t lo = 0, hi = m->n;                   /* the first mapping ending above addr */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->v[mid].hi <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < m->n && m->v[lo].lo <= addr)
        snprintf(name, cap, "%s", m->v[lo].name);
}

int rt_fold_write_map(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return errno;
    fprintf(f, "# smait address map v3\n"
               "# folded 32-bit addresses -> code, source lines and data (docs/collector.md)\n"
               "# code FOLDED_START FOLDED_END FUNCTION MODULE   (synthetic code, 4 bytes an instruction)\n"
               "# line START END LINE FILE   (synthetic code from a source line; -g only)\n"
               "# data FOLDED_START FOLDED_END ORIGINAL_START MAPPING   (runs of 4096-byte pages)\n"
               "# object START END NAME SOURCE   (a global or static variable, touched pages)\n"
               "# heap START END COUNT SITE[,SITE...]   (heap blocks by allocation site, touched pages)\n");
    rt_code_map_write(f);
    rt_line_map_write(f);
    /* the pages folded so far, read under the lock: a thread still running
     * may be flushing (the list only grows, so its first `total` stay) */
    rt_fold_lock();
    size_t n = 0, total = table_n;
    rt_fold_unlock();
    fold_slot *v = malloc((total + 1) * sizeof *v);
    rt_fold_lock();
    for (uint32_t j = first_slot; v && n < total; j = table[j].next)
        v[n++] = table[j];
    rt_fold_unlock();
    if (v) {
        qsort(v, n, sizeof *v, by_page32);
        mappings maps;
        mappings_read(&maps);
        for (size_t i = 0; i < n;) {
            size_t k = i + 1;
            while (k < n && v[k].page32 == v[k - 1].page32 + 1 && v[k].page64 == v[k - 1].page64 + 1)
                k++;
            char name[512];
            mapping_name(&maps, v[i].page64 << PAGE_SHIFT, name, sizeof name);
            fprintf(f, "data 0x%08x 0x%08llx 0x%016llx %s\n", v[i].page32 << PAGE_SHIFT,
                    ((unsigned long long)v[k - 1].page32 + 1) << PAGE_SHIFT,
                    (unsigned long long)v[i].page64 << PAGE_SHIFT, name[0] ? name : "-");
            i = k;
        }
        mappings_free(&maps);
        free(v);
    }
    rt_fold_lock();
    rt_object_map_write(f);
    rt_heap_map_write(f);
    rt_fold_unlock();
    fputs("# end of address map\n", f);     /* v3: without it the map is cut (formats/ADDRESS-MAP.md) */
    int err = ferror(f) ? EIO : 0;
    if (fclose(f) != 0 && !err)
        err = errno;
    return err;
}
