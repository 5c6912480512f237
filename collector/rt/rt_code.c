/* rt_code.c — the synthetic code space: each instrumented module (one per
 * translation unit) registers from its constructor and gets the next range,
 * in constructor (link) order, so code addresses are the same in every run. */
#include <stdlib.h>
#include <string.h>

#include "rt.h"

enum { MAX_MODULES = 4096 };

static rt_module *modules[MAX_MODULES];
static unsigned nmodules;
static uint32_t next_base = RT_CODE_BASE;
static atomic_flag code_lock = ATOMIC_FLAG_INIT;

void rt_code_locks_after_fork(void) { rt_spin_unlock(&code_lock); }

__attribute__((visibility("default"))) void __smait_register(rt_module *m)
{
    rt_spin_lock(&code_lock);
    if (m->base == 0) {
        if ((uint64_t)next_base + m->size > RT_CODE_LIMIT)
            rt_fatal("%s: the synthetic code does not fit below 2^28", m->modname);
        m->base = next_base;
        next_base += (m->size + 255) & ~255u;
        if (nmodules < MAX_MODULES)
            modules[nmodules++] = m;
    }
    rt_spin_unlock(&code_lock);
}

void rt_code_map_write(FILE *f)
{
    fprintf(f, "code 0x%08x 0x%08x memcpy (runtime)\n", RT_CODE_MEMCPY, RT_CODE_MEMCPY + 16);
    fprintf(f, "code 0x%08x 0x%08x memmove (runtime)\n", RT_CODE_MEMMOVE, RT_CODE_MEMMOVE + 16);
    fprintf(f, "code 0x%08x 0x%08x memset (runtime)\n", RT_CODE_MEMSET, RT_CODE_MEMSET + 16);
    for (unsigned i = 0; i < nmodules; i++) {
        const rt_module *m = modules[i];
        for (uint32_t k = 0; k < m->nfunc; k++) {
            uint32_t end = k + 1 < m->nfunc ? m->offs[k + 1] : m->size;
            fprintf(f, "code 0x%08x 0x%08x %s %s\n", m->base + m->offs[k], m->base + end,
                    m->names[k], m->modname);
        }
    }
}

/* line lines: the runs of each module's table (smait-instrument merged
 * adjacent slots of one line), the runs of no line left out. */
void rt_line_map_write(FILE *f)
{
    for (unsigned i = 0; i < nmodules; i++) {
        const rt_module *m = modules[i];
        if (m->version < 2)
            continue;
        for (uint32_t k = 0; k < m->nlines; k++) {
            const rt_line *l = &m->lines[k];
            if (l->line == 0)
                continue;
            uint32_t end = k + 1 < m->nlines ? m->lines[k + 1].off : m->size;
            fprintf(f, "line 0x%08x 0x%08x %u %s\n", m->base + l->off, m->base + end, l->line,
                    l->file < m->nfiles ? m->files[l->file] : "?");
        }
    }
}

typedef struct piece { uint32_t start; uint64_t end; const rt_object *o; } piece;   /* end: up to 2^32 */

static int by_start(const void *a, const void *b)
{
    const piece *x = a, *y = b;
    if (x->start != y->start)
        return (x->start > y->start) - (x->start < y->start);
    if (x->end != y->end)
        return (x->end > y->end) - (x->end < y->end);
    int c = strcmp(x->o->name, y->o->name);
    return c ? c : strcmp(x->o->source, y->o->source);
}

/* object lines: each variable's touched pages, folded, cut where they are
 * not contiguous. A variable defined in several modules (C++ inline and
 * template variables) is listed once; of two that overlap (aliases), the
 * first in the order of the lines. */
typedef struct pieces { piece *v; size_t n, cap; const rt_object *o; } pieces;

static int add_piece(void *ctx, uint64_t start, uint64_t end)
{
    pieces *p = ctx;
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 256;
        piece *w = realloc(p->v, cap * sizeof *w);
        if (!w)
            return -1;
        p->v = w, p->cap = cap;
    }
    p->v[p->n++] = (piece){ (uint32_t)start, end, p->o };
    return 0;
}

void rt_object_map_write(FILE *f)
{
    pieces p = { 0 };
    for (unsigned i = 0; i < nmodules; i++) {
        const rt_module *m = modules[i];
        for (uint32_t k = 0; m->version >= 2 && k < m->nobjs; k++) {
            p.o = &m->objs[k];
            uint64_t lo = (uintptr_t)p.o->addr;
            if (rt_fold_range(lo, lo + p.o->size, add_piece, &p)) {
                free(p.v);
                fputs("# object lines missing: out of memory\n", f);
                return;
            }
        }
    }
    piece *v = p.v;
    size_t n = p.n;
    if (n)
        qsort(v, n, sizeof *v, by_start);
    uint64_t last_end = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && v[i].start < last_end)
            continue;
        fprintf(f, "object 0x%08x 0x%08llx %s %s\n", v[i].start, (unsigned long long)v[i].end, v[i].o->name, v[i].o->source);
        last_end = v[i].end;
    }
    free(v);
}
