/* usage.c — per-page memory usage from the block map. */
#include "usage.h"
#include "../formats/memusage.h"

#include <inttypes.h>
#include <string.h>

typedef struct page_acc {
    bool open;
    memusage_page p;
    uint64_t data_bytes;
    uint16_t owner;             /* who touched bytes, combined over the page's blocks */
    uint16_t accessor;          /* who accessed it (for pages without touched bytes) */
} page_acc;

typedef struct scan_ctx {
    const locmap *m;
    uint64_t page_size;
    const private_ranges *ranges;
    FILE *mem;
    usage_totals *u;
    page_acc cur;
} scan_ctx;

static bool in_private_range(const scan_ctx *s, uint64_t page)
{
    return private_ranges_contain(s->ranges, page * s->page_size);
}

static void close_page(scan_ctx *s)
{
    if (!s->cur.open) return;
    memusage_page *p = &s->cur.p;
    usage_totals *u = s->u;
    /* Sharing is decided by touched bytes (docs/ciat-report.md, L20–L39); a page whose accesses
     * touched no byte (zero-byte stores) belongs to who accessed it. */
    uint16_t owner = s->cur.owner != LOC_NONE ? s->cur.owner : s->cur.accessor;
    bool shared = owner == LOC_SHARED;
    bool range_shared = shared || (s->ranges->n > 0 && !in_private_range(s, p->page));
    p->owner = owner == LOC_SHARED ? -1 : owner;
    u->pages++;
    u->shared_pages += shared;
    u->range_shared_pages += range_shared;
    u->touched_bytes += p->touched_bytes;
    u->data_bytes += s->cur.data_bytes;
    u->code_bytes += p->code_bytes;
    u->shared_bytes += p->shared_bytes;
    u->data_accesses += p->data_accesses;
    u->code_accesses += p->code_accesses;
    u->shared_data_accesses += p->shared_data_accesses;
    u->shared_code_accesses += p->shared_code_accesses;
    if (shared) {
        u->page_shared_bytes += p->touched_bytes;
        u->page_shared_data_accesses += p->data_accesses;
        u->page_shared_code_accesses += p->code_accesses;
    }
    if (range_shared) {
        u->range_shared_bytes += p->touched_bytes;
        u->range_shared_data_accesses += p->data_accesses;
        u->range_shared_code_accesses += p->code_accesses;
    }
    if (s->mem) memusage_write_page(s->mem, p);
    s->cur.open = false;
}

static uint64_t popcount_range(const uint64_t *d, const uint64_t *c, uint32_t from, uint32_t n)
{
    uint64_t k = 0;
    while (n) {
        uint32_t w = from >> 6, off = from & 63, take = 64 - off < n ? 64 - off : n;
        uint64_t mask = take == 64 ? ~0ull : ((1ull << take) - 1) << off;
        k += (uint64_t)__builtin_popcountll((d[w] | c[w]) & mask);
        from += take;
        n -= take;
    }
    return k;
}

/* A dense block: touched bytes word by word, then its records. */
static void scan_dense(const locmap *m, const block *b, uint32_t base, page_acc *a)
{
    const uint64_t *td = locmap_dense_touched(m, b, false), *tc = locmap_dense_touched(m, b, true);
    for (uint32_t w = 0; w < m->words; w++) {
        a->p.touched_bytes += (uint64_t)__builtin_popcountll(td[w] | tc[w]);
        a->p.code_bytes += (uint64_t)__builtin_popcountll(tc[w]);
        a->data_bytes += (uint64_t)__builtin_popcountll(td[w]);
    }
    const loc *locs = locmap_dense_locs(m, b);
    for (uint32_t i = 0; i < m->nlocs; i++) {
        const loc *l = &locs[i];
        if (l->owner == LOC_NONE) continue;
        uint64_t d, c;
        locmap_counts(m, l, base + (i << m->grain_shift), &d, &c);
        a->p.data_accesses += d;
        a->p.code_accesses += c;
        if (l->owner == LOC_SHARED) {
            a->p.shared_bytes += popcount_range(td, tc, i << m->grain_shift, m->grain);
            a->p.shared_data_accesses += d;
            a->p.shared_code_accesses += c;
        }
    }
}

static void scan_block(void *ctx, const block *b, uint32_t base)
{
    scan_ctx *s = ctx;
    const locmap *m = s->m;
    uint64_t page = base / s->page_size;
    if (s->cur.open && s->cur.p.page != page) close_page(s);
    if (!s->cur.open) {
        memset(&s->cur, 0, sizeof s->cur);
        s->cur.open = true;
        s->cur.p.page = page;
        s->cur.owner = LOC_NONE;
        s->cur.accessor = LOC_NONE;
    }
    page_acc *a = &s->cur;
    if (locmap_dense(b)) {
        scan_dense(m, b, base, a);
    } else {
        uint32_t slots = locmap_slots(m, b), index;
        for (uint32_t i = 0; i < slots; i++) {
            uint64_t td, tc;
            const loc *l = locmap_slot(m, b, i, &index, &td, &tc);
            if (!l) continue;
            uint64_t touched = (uint64_t)__builtin_popcountll(td | tc);
            a->p.touched_bytes += touched;
            a->p.code_bytes += (uint64_t)__builtin_popcountll(tc);
            a->data_bytes += (uint64_t)__builtin_popcountll(td);
            if (l->owner == LOC_NONE) continue;
            uint64_t d, c;
            locmap_counts(m, l, base + (index << m->grain_shift), &d, &c);
            a->p.data_accesses += d;
            a->p.code_accesses += c;
            if (l->owner == LOC_SHARED) {
                a->p.shared_bytes += touched;
                a->p.shared_data_accesses += d;
                a->p.shared_code_accesses += c;
            }
        }
    }
    if (b->owner != LOC_NONE && a->owner != LOC_SHARED)
        a->owner = a->owner == LOC_NONE || a->owner == b->owner ? b->owner : LOC_SHARED;
    if (b->accessor != LOC_NONE && a->accessor != LOC_SHARED)
        a->accessor = a->accessor == LOC_NONE || a->accessor == b->accessor ? b->accessor : LOC_SHARED;
}

void usage_scan(const locmap *m, uint64_t page_size, const private_ranges *ranges,
                FILE *mem, usage_totals *out)
{
    memset(out, 0, sizeof *out);
    scan_ctx s = { .m = m, .page_size = page_size, .ranges = ranges,
                   .mem = mem, .u = out };
    locmap_each(m, scan_block, &s);
    close_page(&s);
}

void usage_report(report *r, const usage_totals *u, uint64_t data_sizes, uint64_t fetched)
{
    const struct { int ll; const char *name; uint64_t value; } lines[] = {
        { 20, "pages", u->pages },
        { 21, "shared_pages", u->shared_pages },
        { 22, "range_shared_pages", u->range_shared_pages },
        { 23, "touched_bytes", u->touched_bytes },
        { 24, "data_bytes", u->data_bytes },
        { 25, "code_bytes", u->code_bytes },
        { 26, "shared_bytes", u->shared_bytes },
        { 27, "page_shared_bytes", u->page_shared_bytes },
        { 28, "range_shared_bytes", u->range_shared_bytes },
        { 29, "accesses", u->data_accesses + u->code_accesses },
        { 30, "data_accesses", u->data_accesses },
        { 31, "shared_data_accesses", u->shared_data_accesses },
        { 32, "page_shared_data_accesses", u->page_shared_data_accesses },
        { 33, "range_shared_data_accesses", u->range_shared_data_accesses },
        { 34, "code_accesses", u->code_accesses },
        { 35, "shared_code_accesses", u->shared_code_accesses },
        { 36, "page_shared_code_accesses", u->page_shared_code_accesses },
        { 37, "range_shared_code_accesses", u->range_shared_code_accesses },
    };
    const int R = REPORT_ALL_PHASES, T = REPORT_ALL_THREADS;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        report_line(r, R, T, lines[i].ll, lines[i].name, "%" PRIu64, lines[i].value);
    char n1[REPORT_NUM];
    report_line(r, R, T, 38, "data_locality", "%s", report_ratio(n1, (double)data_sizes, (double)u->data_bytes));
    report_line(r, R, T, 39, "code_locality", "%s", report_ratio(n1, (double)fetched, (double)u->code_bytes / 4.0));
}
