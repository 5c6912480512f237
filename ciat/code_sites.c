/* code_sites.c — figures per code address, merged per source line and
 * ranked (code_sites.h). */
#include "code_sites.h"
#include "../base/diag.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_name(const void *pa, const void *pb)
{
    const code_site *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    return c ? c : a->pc < b->pc ? -1 : a->pc > b->pc;
}

static int by_figures(const void *pa, const void *pb)
{
    const code_site *a = pa, *b = pb;
    for (int f = 0; f < CODE_SITE_FIGURES; f++)
        if (a->n[f] != b->n[f]) return a->n[f] > b->n[f] ? -1 : 1;
    return a->pc < b->pc ? -1 : a->pc > b->pc;
}

size_t code_sites_rank(code_site *v, size_t n, const addr_map *m)
{
    char name[2600];
    for (size_t i = 0; i < n; i++) {
        if (v[i].pc == CODE_SITE_NONE) snprintf(name, sizeof name, "none - where -");
        else attr_code_name(name, sizeof name, m, v[i].pc);
        v[i].name = xstrdup(name);
    }
    if (n) qsort(v, n, sizeof *v, by_name);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && strcmp(v[k - 1].name, v[i].name) == 0) {    /* sorted by pc within a name: the first is lowest */
            for (int f = 0; f < CODE_SITE_FIGURES; f++) v[k - 1].n[f] += v[i].n[f];
            free(v[i].name);
            continue;
        }
        v[k++] = v[i];
    }
    if (k) qsort(v, k, sizeof *v, by_figures);
    return k;
}

void code_sites_free(code_site *v, size_t n)
{
    for (size_t i = 0; i < n; i++) free(v[i].name);
}

void code_site_text(char *buf, size_t cap, const code_site *s)
{
    char pc[16] = "-";
    if (s->pc < ((uint64_t)1 << 32)) snprintf(pc, sizeof pc, "0x%08" PRIx32, (uint32_t)s->pc);
    const char *label = strchr(s->name, ' ');
    int kl = label ? (int)(label - s->name) : (int)strlen(s->name);
    snprintf(buf, cap, "pc %s kind %.*s name %s", pc, kl, s->name, label ? label + 1 : "-");
}
