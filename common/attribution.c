/* attribution.c — counts per address, named through the address map (attribution.h). */
#include "attribution.h"
#include "../base/diag.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct attr_slot {
    uint64_t key;               /* key + 1; 0 = empty */
    uint64_t n[ATTR_MAX_FIGURES];
} attr_slot;

struct attr {
    int nfig;
    const char *const *names;
    attr_slot *slot;            /* open addressing (linear probing), a power of two, at most 3/4 full */
    size_t cap, used;
};

attr *attr_new(int nfig, const char *const *names)
{
    if (nfig < 1 || nfig > ATTR_MAX_FIGURES) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "attr_new: %d figures", nfig);
    attr *a = xcalloc(1, sizeof *a);
    a->nfig = nfig;
    a->names = names;
    a->cap = 1024;
    a->slot = xcalloc(a->cap, sizeof *a->slot);
    return a;
}

void attr_free(attr *a)
{
    if (!a) return;
    free(a->slot);
    free(a);
}

static inline size_t hash(uint64_t k, size_t cap) { return (size_t)((k * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1); }

static attr_slot *slot_of(attr *a, uint64_t key)
{
    size_t j = hash(key, a->cap);
    while (a->slot[j].key && a->slot[j].key != key + 1) j = (j + 1) & (a->cap - 1);
    return &a->slot[j];
}

void attr_add(attr *a, uint64_t key, int fig)
{
    attr_slot *s = slot_of(a, key);
    if (!s->key) {
        if (4 * (a->used + 1) > 3 * a->cap) {   /* at 3/4 full: grow, then find the key's place again */
            attr_slot *old = a->slot;
            size_t oldcap = a->cap;
            a->cap *= 2;
            a->slot = xcalloc(a->cap, sizeof *a->slot);
            for (size_t i = 0; i < oldcap; i++)
                if (old[i].key) *slot_of(a, old[i].key - 1) = old[i];
            free(old);
            s = slot_of(a, key);
        }
        s->key = key + 1;
        a->used++;
    }
    s->n[fig]++;
}

void attr_add_counts(attr *a, uint64_t key, const uint64_t *n)
{
    for (int f = 0; f < a->nfig; f++) {
        if (!n[f]) continue;
        attr_add(a, key, f);                /* makes the slot (once) */
        slot_of(a, key)->n[f] += n[f] - 1;
    }
}

void attr_each(const attr *a, void (*fn)(void *ctx, uint64_t key, const uint64_t *counts), void *ctx)
{
    for (size_t i = 0; i < a->cap; i++)
        if (a->slot[i].key) fn(ctx, a->slot[i].key - 1, a->slot[i].n);
}

int attr_figures(const attr *a) { return a->nfig; }

/* ---- naming ---- */

/* A name as one report field: blanks and control characters become '_'. */
static void field(char *dst, size_t cap, const char *src)
{
    size_t i = 0;
    for (; src[i] && i + 1 < cap; i++) dst[i] = (unsigned char)src[i] <= ' ' || src[i] == 0x7f ? '_' : src[i];
    dst[i] = '\0';
    if (!i && cap > 1) snprintf(dst, cap, "-");
}

/* "function F where FILE:LINE" of a code address. */
static void name_code(char *buf, size_t cap, const addr_map *m, uint64_t pc)
{
    if (pc == ATTR_UNKNOWN) {
        snprintf(buf, cap, "address unknown where -");
        return;
    }
    const am_entry *c = m ? am_find(m, AM_CODE, (uint32_t)pc) : NULL;
    const am_entry *l = m ? am_find(m, AM_LINE, (uint32_t)pc) : NULL;
    if (!c && !l) {
        snprintf(buf, cap, "address 0x%08" PRIx32 " where -", (uint32_t)pc);
        return;
    }
    char f[512], w[1024];
    field(f, sizeof f, c ? c->a : "?");
    if (l) {
        char file[1000];
        field(file, sizeof file, l->a);
        snprintf(w, sizeof w, "%s:%" PRIu64, file, l->num);
    } else {
        snprintf(w, sizeof w, "-");
    }
    snprintf(buf, cap, "function %s where %s", f, w);
}

void attr_code_name(char *buf, size_t cap, const addr_map *m, uint64_t pc) { name_code(buf, cap, m, pc); }

/* Data keys: a line address (< 2^32), or an entry of the map: its kind
 * (am_data_kind) above bit 40, its index below. */
enum { KEY_ENTRY_SHIFT = 40 };
static const int entry_kind[] = { AM_OBJECT, AM_HEAP, AM_DATA };

uint64_t attr_data_key(const addr_map *m, uint32_t addr, uint32_t line_size)
{
    const am_entry *e;
    am_data_kind k = m ? am_data(m, addr, &e) : AMD_NONE;
    if (k == AMD_NONE) return addr & ~(line_size - 1);
    return ((uint64_t)(k + 1) << KEY_ENTRY_SHIFT) | (uint64_t)(e - m->e[entry_kind[k]]);
}

static void name_data(char *buf, size_t cap, const addr_map *m, uint64_t key)
{
    const am_entry *e = NULL;
    am_data_kind k = AMD_NONE;
    if (key >> KEY_ENTRY_SHIFT) {
        k = (am_data_kind)((key >> KEY_ENTRY_SHIFT) - 1);
        e = &m->e[entry_kind[k]][key & (((uint64_t)1 << KEY_ENTRY_SHIFT) - 1)];
    }
    char a[512], b[1024];
    switch (k) {
    case AMD_OBJECT:
        field(a, sizeof a, e->a);
        field(b, sizeof b, e->b);
        snprintf(buf, cap, "object %s where %s", a, b);
        return;
    case AMD_HEAP: {
        /* the allocation site, named as code: "function F where FILE:LINE" */
        char site[1200];
        name_code(site, sizeof site, m, e->sites[0]);
        if (strncmp(site, "function ", 9) == 0) snprintf(buf, cap, "heap %s", site + 9);
        else snprintf(buf, cap, "heap ? where 0x%08" PRIx32, e->sites[0]);
        return;
    }
    case AMD_MAPPING:
        field(a, sizeof a, e->a);
        snprintf(buf, cap, "mapping %s where -", a);
        return;
    case AMD_NONE:
        break;
    }
    snprintf(buf, cap, "address 0x%08" PRIx32 " where -", (uint32_t)key);
}

void attr_data_name(char *buf, size_t cap, const addr_map *m, uint32_t addr)
{
    name_data(buf, cap, m, attr_data_key(m, addr, 1));
}

typedef struct named {
    char *name;
    uint64_t n[ATTR_MAX_FIGURES];
} named;

static int by_name(const void *x, const void *y)
{
    return strcmp(((const named *)x)->name, ((const named *)y)->name);
}

static int sort_fig;
static int by_count(const void *x, const void *y)
{
    const named *a = x, *b = y;
    if (a->n[sort_fig] != b->n[sort_fig]) return a->n[sort_fig] > b->n[sort_fig] ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* Raw keys by count, then key: the order of their names ("address 0x%08x"
 * has a fixed width, and "address unknown", key 2^32, sorts after them). */
static int raw_by_count(const void *x, const void *y)
{
    const attr_slot *a = x, *b = y;
    if (a->n[sort_fig] != b->n[sort_fig]) return a->n[sort_fig] > b->n[sort_fig] ? -1 : 1;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* A key named by its own address: no other key has its name. */
static bool raw_key(bool code, const addr_map *m, uint64_t key)
{
    if (!code) return key < ((uint64_t)1 << KEY_ENTRY_SHIFT);
    return !m || key == ATTR_UNKNOWN || (!am_find(m, AM_CODE, (uint32_t)key) && !am_find(m, AM_LINE, (uint32_t)key));
}

static void name_of(char *buf, size_t cap, bool code, const addr_map *m, uint64_t key)
{
    if (code) name_code(buf, cap, m, key);
    else name_data(buf, cap, m, key);
}

/* Keys that share a name (a function's pcs, an object's addresses) are
 * merged by name; the others, possibly millions of lines or pcs, keep no
 * name: each figure takes only its top `top` of them, which is all of them
 * that can make its list, and names those. The table is sorted in place. */
void attr_report(attr *a, report *r, int ll, const char *table, bool code, const addr_map *m, uint32_t top)
{
    size_t nraw = 0, n = 0;
    named *v = NULL;
    size_t vcap = 0;
    char buf[2600];
    for (size_t i = 0; i < a->cap; i++) {
        attr_slot *s = &a->slot[i];
        if (!s->key) continue;
        if (raw_key(code, m, s->key - 1)) {
            a->slot[nraw++] = *s;           /* nraw <= i: compacted to the front */
            continue;
        }
        if (n == vcap) v = xrealloc(v, (vcap = vcap ? 2 * vcap : 64) * sizeof *v);
        name_of(buf, sizeof buf, code, m, s->key - 1);
        v[n].name = xstrdup(buf);
        memcpy(v[n].n, s->n, sizeof v[n].n);
        n++;
    }
    if (n) qsort(v, n, sizeof *v, by_name);          /* v is NULL when every key is unnamed */
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && strcmp(v[k - 1].name, v[i].name) == 0) {
            for (int f = 0; f < a->nfig; f++) v[k - 1].n[f] += v[i].n[f];
            free(v[i].name);
            continue;
        }
        v[k++] = v[i];
    }
    size_t take = nraw < top ? nraw : top;
    named *list = xcalloc(k + take + 1, sizeof *list);
    char **rawnames = xcalloc(take + 1, sizeof *rawnames);
    for (int f = 0; f < a->nfig; f++) {
        sort_fig = f;
        qsort(a->slot, nraw, sizeof *a->slot, raw_by_count);
        if (k) memcpy(list, v, k * sizeof *list);
        for (size_t i = 0; i < take; i++) {
            name_of(buf, sizeof buf, code, m, a->slot[i].key - 1);
            list[k + i].name = rawnames[i] = xstrdup(buf);
            memcpy(list[k + i].n, a->slot[i].n, sizeof list[k + i].n);
        }
        qsort(list, k + take, sizeof *list, by_count);
        char nm[64];
        snprintf(nm, sizeof nm, "%s_%s", table, a->names[f]);
        /* "kind KIND name LABEL where WHERE": the same keys whatever the kind
         * (a function, an object, a heap site, a mapping, an address) */
        for (size_t i = 0; i < k + take && i < top && list[i].n[f]; i++) {
            const char *label = strchr(list[i].name, ' ');
            int kl = label ? (int)(label - list[i].name) : (int)strlen(list[i].name);
            report_line(r, REPORT_ALL_PHASES, REPORT_ALL_THREADS, ll, nm, "rank %zu count %" PRIu64 " kind %.*s name %s",
                        i + 1, list[i].n[f], kl, list[i].name, label ? label + 1 : "-");
        }
        for (size_t i = 0; i < take; i++) free(rawnames[i]);
    }
    free(rawnames);
    free(list);
    for (size_t i = 0; i < k; i++) free(v[i].name);
    free(v);
    /* the table is no longer a hash table */
    memset(a->slot, 0, a->cap * sizeof *a->slot);
    a->used = 0;
}

/* ---- the map and the options ---- */

addr_map *attr_map_open(const tool *t, const char *given)
{
    char *auto_path = NULL;
    if (!given) {
        size_t len = strlen(t->ts.name) + 5;
        auto_path = xmalloc(len);
        snprintf(auto_path, len, "%s.map", t->ts.name);
        if (access(auto_path, F_OK) != 0) {
            free(auto_path);
            return NULL;
        }
    }
    addr_map *m = attr_map_load(given ? given : auto_path);
    free(auto_path);
    return m;
}

addr_map *attr_map_load(const char *path)
{
    addr_map *m = xcalloc(1, sizeof *m);
    am_error err;
    if (!am_load(m, path, &err)) diag_data_error(err.where, DIAG_NO_OFFSET, "%s", err.why);
    return m;
}

void attr_header(report *r, const addr_map *m)
{
    if (m) report_header(r, " attribution: map %s", m->path);
    else report_header(r, " attribution: map none (addresses)");
}

void attr_map_free(addr_map *m)
{
    if (!m) return;
    am_free(m);
    free(m);
}

const char *attr_top_parse(void *target, const char *value)
{
    uint32_t *top = target;
    if (!value) {
        *top = ATTR_DEFAULT_TOP;
        return NULL;
    }
    char *end;
    unsigned long long v = value[0] >= '0' && value[0] <= '9' ? strtoull(value, &end, 10) : 0;
    if (value[0] < '0' || value[0] > '9' || *end || v < 1 || v > 1000000)
        return "N must be a number of lines, 1..1000000";
    *top = (uint32_t)v;
    return NULL;
}

void attr_top_show(const void *target, char *buf, size_t cap)
{
    uint32_t top = *(const uint32_t *)target;
    if (top) snprintf(buf, cap, "%" PRIu32, top);
    else snprintf(buf, cap, "no");
}

void attr_pcs_init(attr_pcs *p, int nthreads)
{
    p->pc = xcalloc((size_t)nthreads, sizeof *p->pc);
    p->clock = xcalloc((size_t)nthreads, sizeof *p->clock);
}

void attr_pcs_free(attr_pcs *p)
{
    free(p->pc);
    free(p->clock);
    p->pc = p->clock = NULL;
}

/* ---- the annotated source view (--annotate, docs/annotate.md) ---- */

typedef struct src_line {
    const char *file;           /* the map's string */
    uint64_t line;
    uint64_t n[ATTR_MAX_FIGURES];
} src_line;

static uint64_t src_sum(const src_line *l, int nfig)
{
    uint64_t s = 0;
    for (int f = 0; f < nfig; f++) s += l->n[f];
    return s;
}

static int by_file_line(const void *a, const void *b)
{
    const src_line *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    if (c) return c;
    return x->line < y->line ? -1 : x->line > y->line;
}

static int annotate_nfig;
static int by_heat(const void *a, const void *b)
{
    const src_line *x = a, *y = b;
    uint64_t sx = src_sum(x, annotate_nfig), sy = src_sum(y, annotate_nfig);
    if (sx != sy) return sx > sy ? -1 : 1;
    return by_file_line(a, b);
}

/* The columns of one line: each figure right-aligned in 14, '.' for 0. */
static void columns(out_file *f, const uint64_t *n, int nfig)
{
    for (int k = 0; k < nfig; k++) {
        if (n && n[k]) out_file_printf(f, "%14" PRIu64, n[k]);
        else out_file_printf(f, "%14s", ".");
    }
}

/* The source file named file in the map at map_path: as given, else (when
 * relative) beside the map. NULL when neither can be read. */
static FILE *open_source(const char *file, const char *map_path, char *used, size_t cap)
{
    snprintf(used, cap, "%s", file);
    FILE *src = fopen(used, "r");
    if (src || file[0] == '/') return src;
    const char *slash = strrchr(map_path, '/');
    if (!slash) return NULL;
    snprintf(used, cap, "%.*s/%s", (int)(slash - map_path), map_path, file);
    return fopen(used, "r");
}

enum { ANNOTATE_CONTEXT = 3 };

/* File fl[0..n) (one file's lines, in line order) with its source. */
static void annotate_file(out_file *f, const src_line *fl, size_t n, int nfig, const char *map_path)
{
    char used[4200];
    FILE *src = open_source(fl[0].file, map_path ? map_path : "", used, sizeof used);
    out_file_printf(f, "\n-- %s", fl[0].file);
    if (!src) {
        out_file_printf(f, ": the source cannot be read here (the figures of its lines are above)\n");
        return;
    }
    if (strcmp(used, fl[0].file) != 0) out_file_printf(f, " (read as %s)", used);
    out_file_printf(f, "\n");
    char *text = NULL;
    size_t cap = 0, k = 0;
    ssize_t len;
    uint64_t no = 0, shown_to = 0;
    bool gap = false;
    while ((len = getline(&text, &cap, src)) > 0) {
        no++;
        if (text[len - 1] == '\n') text[--len] = '\0';
        while (k < n && fl[k].line < no) k++;
        /* shown: within ANNOTATE_CONTEXT lines of a line with figures */
        bool near = false;
        for (size_t j = k; j < n && fl[j].line <= no + ANNOTATE_CONTEXT && !near; j++) near = true;
        for (size_t j = k; j-- > 0 && !near;) near = fl[j].line + ANNOTATE_CONTEXT >= no;
        if (!near) {
            gap = shown_to > 0;
            continue;
        }
        if (gap) out_file_printf(f, "%*s  | ...\n", 14 * nfig, "");
        gap = false;
        columns(f, k < n && fl[k].line == no ? fl[k].n : NULL, nfig);
        out_file_printf(f, "  | %s\n", text);
        shown_to = no;
    }
    free(text);
    fclose(src);
    for (; k < n; k++)          /* lines past the end of the file as it is now */
        if (fl[k].line > no) {
            columns(f, fl[k].n, nfig);
            out_file_printf(f, "  | (line %" PRIu64 ": past the end of the file as it is now)\n", fl[k].line);
        }
}

void attr_annotate(const attr *a, const addr_map *m, out_file *f, const char *title)
{
    size_t n = 0;
    src_line *v = xcalloc(a->used + 1, sizeof *v);
    uint64_t total[ATTR_MAX_FIGURES] = { 0 }, unplaced[ATTR_MAX_FIGURES] = { 0 };
    for (size_t i = 0; i < a->cap; i++) {
        const attr_slot *sl = &a->slot[i];
        if (!sl->key) continue;
        uint64_t pc = sl->key - 1;
        const am_entry *l = m && pc != ATTR_UNKNOWN ? am_find(m, AM_LINE, (uint32_t)pc) : NULL;
        for (int k = 0; k < a->nfig; k++) {
            total[k] += sl->n[k];
            if (!l) unplaced[k] += sl->n[k];
        }
        if (!l) continue;
        v[n].file = l->a;
        v[n].line = l->num;
        memcpy(v[n].n, sl->n, sizeof v[n].n);
        n++;
    }
    /* one entry per source line */
    if (n) qsort(v, n, sizeof *v, by_file_line);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && strcmp(v[k - 1].file, v[i].file) == 0 && v[k - 1].line == v[i].line) {
            for (int j = 0; j < a->nfig; j++) v[k - 1].n[j] += v[i].n[j];
        } else {
            v[k++] = v[i];
        }
    }
    n = k;
    out_file_printf(f, "# %s (docs/annotate.md)\n# map: %s\n# totals:", title, m ? m->path : "none");
    for (int j = 0; j < a->nfig; j++) out_file_printf(f, " %s %" PRIu64, a->names[j], total[j]);
    out_file_printf(f, "\n# without a source line:");
    for (int j = 0; j < a->nfig; j++) out_file_printf(f, " %s %" PRIu64, a->names[j], unplaced[j]);
    out_file_printf(f, "\n\n-- source lines, hottest first\n");
    for (int j = 0; j < a->nfig; j++) out_file_printf(f, "%14s", a->names[j]);
    out_file_printf(f, "  file:line\n");
    src_line *hot = xmalloc((n + 1) * sizeof *hot);
    if (n) memcpy(hot, v, n * sizeof *hot);
    annotate_nfig = a->nfig;
    if (n) qsort(hot, n, sizeof *hot, by_heat);
    for (size_t i = 0; i < n; i++) {
        if (!src_sum(&hot[i], a->nfig)) continue;
        columns(f, hot[i].n, a->nfig);
        out_file_printf(f, "  %s:%" PRIu64 "\n", hot[i].file, hot[i].line);
    }
    /* the files, the hottest first */
    size_t nfiles = 0;
    src_line *files = xmalloc((n + 1) * sizeof *files);    /* per file: its first entry's index, its sum */
    for (size_t i = 0; i < n;) {
        size_t e = i;
        uint64_t sum = 0;
        while (e < n && strcmp(v[e].file, v[i].file) == 0) sum += src_sum(&v[e++], a->nfig);
        if (sum) files[nfiles++] = (src_line){ .file = v[i].file, .line = i, .n = { sum, e - i } };
        i = e;
    }
    annotate_nfig = 1;
    if (nfiles) qsort(files, nfiles, sizeof *files, by_heat);
    for (size_t i = 0; i < nfiles; i++)
        annotate_file(f, v + files[i].line, (size_t)files[i].n[1], a->nfig, m ? m->path : NULL);
    free(files);
    free(hot);
    free(v);
}

void attr_options_check(const attr_options *o, const char *users, bool others_on)
{
    if (o->map_path && !attr_options_any(o) && !others_on) diag_usage_error("--map works only with %s", users);
}
