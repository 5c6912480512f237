/* c2c.c — perf c2c's view of the falsely shared lines (c2c.h). */
#include "c2c.h"

#include "../base/diag.h"
#include "../common/attribution.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct c2c_row {
    char where[1200];           /* "function F where FILE:LINE", "address …", "other code" */
    uint64_t pc, loads, stores, mask;
    uint32_t pcs;               /* the pcs the row sums (several: one source line) */
    uint32_t order;             /* its place in the input, for ties */
} c2c_row;

struct c2c_view {
    out_file *f;
    const addr_map *m;
    const sharing *s;
    c2c_row rows[FS_TOUCH_PCS + 1];
    uint32_t n;
};

c2c_view *c2c_view_new(out_file *f, const addr_map *m, const sharing *s)
{
    c2c_view *v = xcalloc(1, sizeof *v);
    v->f = f;
    v->m = m;
    v->s = s;
    out_file_printf(f, "\n-- cache lines with the most false sharing misses (L19): each thread's bytes, then its"
                    " loads and stores of the line by source line or pc (the most first; at most %d pcs per"
                    " thread, the rest as 'other code')\n", FS_TOUCH_PCS);
    return v;
}

/* Most accesses first; other code last; then the input order. */
static int by_accesses(const void *a, const void *b)
{
    const c2c_row *x = a, *y = b;
    bool ox = x->pc == FS_OTHER_PC, oy = y->pc == FS_OTHER_PC;
    if (ox != oy) return ox ? 1 : -1;
    uint64_t nx = x->loads + x->stores, ny = y->loads + y->stores;
    if (nx != ny) return nx > ny ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static void flush(c2c_view *v)
{
    qsort(v->rows, v->n, sizeof *v->rows, by_accesses);
    char bytes[64 * 24];
    for (uint32_t i = 0; i < v->n; i++) {
        const c2c_row *r = &v->rows[i];
        char at[40] = "";
        if (r->pcs > 1) snprintf(at, sizeof at, "pcs %" PRIu32 " ", r->pcs);
        else if (strncmp(r->where, "function ", 9) == 0) snprintf(at, sizeof at, "pc 0x%08" PRIx64 " ", r->pc);
        fs_ranges(bytes, sizeof bytes, v->s, r->mask);
        out_file_printf(v->f, "    loads %" PRIu64 " stores %" PRIu64 " bytes %s %s%s\n", r->loads, r->stores, bytes,
                        at, r->where);
    }
    v->n = 0;
}

static void on_line(void *ctx, uint64_t addr, uint64_t misses)
{
    c2c_view *v = ctx;
    flush(v);
    out_file_printf(v->f, "0x%08" PRIx64 " false_sharing %" PRIu64 "\n", addr, misses);
}

static void on_thread(void *ctx, int t, uint64_t mask)
{
    c2c_view *v = ctx;
    flush(v);
    char bytes[64 * 24];
    fs_ranges(bytes, sizeof bytes, v->s, mask);
    out_file_printf(v->f, "  thread %d bytes %s\n", t, bytes);
}

static void on_code(void *ctx, uint64_t pc, uint64_t loads, uint64_t stores, uint64_t mask)
{
    c2c_view *v = ctx;
    char where[sizeof v->rows[0].where] = "other code";
    if (pc != FS_OTHER_PC) attr_code_name(where, sizeof where, v->m, pc);
    c2c_row *r = NULL;
    if (strncmp(where, "function ", 9) == 0 && strstr(where, " where ") && !strstr(where, " where -"))
        for (uint32_t i = 0; i < v->n && !r; i++)
            if (v->rows[i].pc != FS_OTHER_PC && strcmp(v->rows[i].where, where) == 0) r = &v->rows[i];
    if (!r) {
        if (v->n == FS_TOUCH_PCS + 1) flush(v);     /* not from fs_top_threads: never more */
        r = &v->rows[v->n];
        *r = (c2c_row){ .pc = pc, .order = v->n };
        v->n++;
        memcpy(r->where, where, sizeof where);
    }
    r->loads += loads;
    r->stores += stores;
    r->mask |= mask;
    r->pcs++;
}

const fs_c2c_fns c2c_view_fns = { on_line, on_thread, on_code };

void c2c_view_end(c2c_view *v)
{
    if (!v) return;
    flush(v);
    free(v);
}
