/* lock_classes.c — the plain locks of a trace set, by one reading of it. */
#include "lock_classes.h"
#include "../base/diag.h"

#include <stdlib.h>
#include <string.h>

enum { OPEN_MAX = 64 };     /* nested sections followed; deeper ones make every open lock not plain */

static size_t slot_of(const lock_classes *c, uint32_t key)
{
    size_t i = (size_t)((key * 0x9E3779B1u) >> 7) & (c->cap - 1);
    while (c->keys[i] && c->keys[i] != key + 1) i = (i + 1) & (c->cap - 1);
    return i;
}

static void grow(lock_classes *c)
{
    lock_classes old = *c;
    c->cap = old.cap ? old.cap * 2 : 256;
    c->keys = xcalloc(c->cap, sizeof *c->keys);
    c->plain = xcalloc(c->cap, sizeof *c->plain);
    for (size_t i = 0; i < old.cap; i++)
        if (old.keys[i]) {
            size_t j = slot_of(c, old.keys[i] - 1);
            c->keys[j] = old.keys[i];
            c->plain[j] = old.plain[i];
        }
    free(old.keys);
    free(old.plain);
}

/* The lock's slot, made plain when new. */
static size_t lock_slot(lock_classes *c, uint32_t key)
{
    if (2 * (c->used + 1) > c->cap) grow(c);
    size_t i = slot_of(c, key);
    if (!c->keys[i]) {
        c->keys[i] = key + 1;
        c->plain[i] = 1;
        c->used++;
    }
    return i;
}

static void not_plain(lock_classes *c, uint32_t key) { c->plain[lock_slot(c, key)] = 0; }

/* One trace: a stack of its open sections; whatever happens in one but
 * memory, branches and procedure starts makes every open lock not plain. */
static void scan_trace(lock_classes *c, trace_reader *r)
{
    uint32_t open[OPEN_MAX];
    int depth = 0;
    const smait_raw *p;
    while ((p = trace_reader_next(r)) != NULL) {
        if (smait_classify(p->f1) != SMAIT_CALL_PART) continue;
        unsigned type = smait_call_type(p->f1);
        uint32_t lock = p[SMAIT_CALL_ARG1].f2;
        if (type == SMAIT_CT_END_CRITICAL) {
            int k = depth - 1;
            while (k >= 0 && open[k] != lock) k--;
            if (k < 0) {            /* not open here (a section begun past OPEN_MAX, or a bad unlock) */
                not_plain(c, lock);
                continue;
            }
            if (k != depth - 1)     /* released out of nesting order: the locks above it are held across */
                for (int i = k; i < depth; i++) not_plain(c, open[i]);
            memmove(&open[k], &open[k + 1], (size_t)(depth - k - 1) * sizeof open[0]);
            depth--;
            continue;
        }
        for (int i = 0; i < depth; i++) not_plain(c, open[i]);
        if (type != SMAIT_CT_BEGIN_CRITICAL) continue;
        size_t s = lock_slot(c, lock);
        if (p[SMAIT_CALL_ARG1 + 3].f2 & SMAIT_SECTION_WAKE) c->plain[s] = 0;   /* after a condition wait */
        if (depth == OPEN_MAX) {
            c->plain[s] = 0;
            continue;
        }
        open[depth++] = lock;
    }
    for (int i = 0; i < depth; i++) not_plain(c, open[i]);     /* held to the end of the trace */
}

void lock_classes_scan(lock_classes *c, const trace_set *set, const trace_reader_opts *opts)
{
    memset(c, 0, sizeof *c);
    trace_reader_opts o = *opts;
    o.quiet = true;
    for (int t = 0; t < set->count; t++) {
        if (strcmp(set->paths[t], "-") == 0)
            diag_usage_error("--sync=handovers reads every trace twice (once to find the plain locks):"
                             " not from standard input");
        trace_reader *r = trace_reader_open(set->paths[t], &o);
        scan_trace(c, r);
        trace_reader_close(r);
    }
    for (size_t i = 0; i < c->cap; i++)
        if (c->keys[i]) {
            c->locks++;
            c->plain_locks += c->plain[i];
        }
}

void lock_classes_free(lock_classes *c)
{
    free(c->keys);
    free(c->plain);
    memset(c, 0, sizeof *c);
}

bool lock_classes_plain(const lock_classes *c, uint32_t lock)
{
    if (!c->cap) return false;
    size_t i = slot_of(c, lock);
    return c->keys[i] && c->plain[i];
}
