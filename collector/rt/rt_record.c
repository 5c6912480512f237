/* rt_record.c — the calls instrumented code makes (hot path: one buffer
 * append, no lock), call records, and flushing a buffer to its sink. */
#include <stdlib.h>
#include <string.h>

#include "rt.h"
#include "../../formats/smait_delta.h"

#define HOT __attribute__((hot, visibility("default")))

static inline void put(rt_slot *t, uint32_t f1, uint64_t v, uint32_t fold)
{
    if (__builtin_expect(t != NULL && t->cur < t->lim, 1)) {
        rt_ent *e = t->cur++;
        e->f1 = f1;
        e->fold = fold;
        e->v = v;
    } else {
        rt_slow_mem(t, f1, v, fold);
    }
}

HOT void __smait_mem(uint32_t f1, const void *addr)
{
    put(rt_self, f1, (uint64_t)(uintptr_t)addr, 1);
}

/* Before a call of a (possibly) instrumented function: the callee's entry
 * turns it into a procedure-call record. While the call is under way, its
 * site is also the frame's outstanding call (site[], for callbacks). */
HOT void __smait_call(rt_module *m, uint32_t next_rel)
{
    rt_slot *t = rt_self;
    if (t) {
        t->pending = m->base + next_rel;
        if (t->depth - 1 < RT_STACK)    /* (depth 0: no frame) */
            t->site[t->depth - 1] = t->pending;
    }
}

/* After a call (dest = next) or on the normal edge of an invoke (dest = its
 * normal destination; next 0 when the destination was reached by another
 * edge). When no instrumented function was entered through the call (a
 * library function, a wrapped pthread, semaphore, OpenMP or allocation
 * call), nothing has walked over the call's own slot: a branch from the call
 * to dest executes it, so that the accesses after it are fetched at their
 * own slots (docs/collector.md §5). An instrumented callee's return already
 * went to next: a branch on only when dest is elsewhere. */
HOT void __smait_called(rt_module *m, uint32_t next_rel, uint32_t dest_rel)
{
    rt_slot *t = rt_self;
    if (!t || !next_rel)
        return;
    uint32_t next = m->base + next_rel, dest = m->base + dest_rel;
    if (t->depth - 1 < RT_STACK)        /* (depth 0: no frame) */
        t->site[t->depth - 1] = 0;
    bool entered = t->pending != next;
    t->pending = 0;
    if (!entered || dest != next)
        put(t, 0x80000000u | (next & SMAIT_BRANCH_ADDR_MASK), dest, 0);
}

/* The entry of an instrumented function: from an instrumented call (the
 * pending site), or from code that is not instrumented during a call of
 * the frame below (a callback: qsort's comparator, an OpenMP task run in a
 * barrier, the second and later callbacks of one call) — a procedure call
 * from that call's site, so that its return comes back there — or neither
 * (a thread's start, a signal handler outside any call): a procedure start
 * only. */
HOT void __smait_enter(rt_module *m, uint32_t rel)
{
    rt_slot *t = rt_self;
    if (!t)
        return;
    uint32_t fn = m->base + rel, ret = t->pending;
    t->pending = 0;
    if (!ret && t->depth - 1 < RT_STACK)        /* (depth 0: no frame) */
        ret = t->site[t->depth - 1];
    if (ret)
        put(t, 0xC0000000u | (ret & SMAIT_BRANCH_ADDR_MASK), fn, 0);
    if (t->depth < RT_STACK) {
        t->stack[t->depth] = ret;
        t->site[t->depth] = 0;
    }
    t->depth++;
    put(t, 0x40000000u, fn, 0);
}

HOT void __smait_ret(rt_module *m, uint32_t src_rel)
{
    rt_slot *t = rt_self;
    if (!t || t->depth == 0)
        return;
    t->depth--;
    uint32_t ret = t->depth < RT_STACK ? t->stack[t->depth] : 0;
    if (ret)
        put(t, 0x80000000u | ((m->base + src_rel) & SMAIT_BRANCH_ADDR_MASK), ret, 0);
}

/* A taken branch; tgt_rel 0 = falls through (no record). */
HOT void __smait_br(rt_module *m, uint32_t src_rel, uint32_t tgt_rel)
{
    if (tgt_rel)
        put(rt_self, 0x80000000u | ((m->base + src_rel) & SMAIT_BRANCH_ADDR_MASK),
            m->base + tgt_rel, 0);
}

/* memcpy/memmove/memset as the loop they are: a call of a pseudo-procedure
 * whose body is "load 8; store 8; branch back" (memset: no load), 8 bytes a
 * turn and the tail in 4/2/1-byte turns, then a return to the call site.
 * next_rel 0 (level 2): the accesses only. */
void __smait_xfer(rt_module *m, uint32_t next_rel, uint32_t kind, void *dst,
                  const void *src, uint64_t n)
{
    rt_slot *t = rt_self;
    if (!t)
        return;
    uint32_t code = kind == 0 ? RT_CODE_MEMCPY : kind == 1 ? RT_CODE_MEMMOVE : RT_CODE_MEMSET;
    uint32_t next = m->base + next_rel;
    bool stream = next_rel != 0;
    if (stream)
        put(t, 0xC0000000u | (next & SMAIT_BRANCH_ADDR_MASK), code, 0);
    uint64_t d = (uintptr_t)dst, s = (uintptr_t)src, off = 0;
    uint32_t pc = code;
    while (off < n) {
        uint64_t left = n - off;
        unsigned sz = left >= 8 ? 8 : left >= 4 ? 4 : left >= 2 ? 2 : 1;
        if (off > 0 && stream)
            put(t, 0x80000000u | (pc + 4), code, 0);
        pc = code;
        if (kind != 2) {
            put(t, smait_mem_f1(SMAIT_LOAD, sz, SMAIT_REG_FIXED), s + off, 1);
            pc += 4;
        }
        put(t, smait_mem_f1(SMAIT_STORE, sz, SMAIT_REG_FIXED), d + off, 1);
        pc += 4;
        off += sz;
    }
    if (stream)
        put(t, 0x80000000u | (pc + 4), next, 0);
}

void rt_buffer_init(rt_slot *t)
{
    t->buf = malloc(RT_BUF_ENTS * sizeof *t->buf);
    if (!t->buf)
        rt_fatal("out of memory for a trace buffer");
    t->cur = t->buf;
    t->end = t->buf + RT_BUF_ENTS;
    t->lim = t->end;
    t->detail_on = true;
}

/* Not the hot path: buffer full, detail off, or an unknown thread. */
void rt_slow_mem(rt_slot *t, uint32_t f1, uint64_t v, uint32_t fold)
{
    if (!t)
        return;                         /* a thread our wrappers did not start */
    if (!t->detail_on || atomic_load_explicit(&rt_all_off, memory_order_relaxed)) {
        t->dropped++;
        return;
    }
    if (t->cur == t->end)
        rt_flush(t);
    rt_ent *e = t->cur++;
    e->f1 = f1;
    e->fold = fold;
    e->v = v;
}

/* Call records are written whatever the detail setting (report: markers only
 * stop detailed tracing). */
void rt_call(rt_slot *t, unsigned type, uint32_t start, uint32_t end,
             uint64_t arg1, bool fold1, uint32_t arg2)
{
    rt_call4(t, type, start, end, arg1, fold1, arg2, 0, 0);
}

void rt_call4(rt_slot *t, unsigned type, uint32_t start, uint32_t end,
              uint64_t arg1, bool fold1, uint32_t arg2, uint32_t arg3, uint32_t arg4)
{
    if (t->end - t->cur < SMAIT_CALL_PARTS)
        rt_flush(t);
    if (type == SMAIT_CT_SPAWN || type == SMAIT_CT_JOIN)
        t->phases++;
    uint64_t v[SMAIT_CALL_PARTS] = { start, end, arg1, arg2, arg3, arg4 };
    for (unsigned i = 0; i < SMAIT_CALL_PARTS; i++) {
        rt_ent *e = t->cur++;
        e->f1 = smait_call_f1(type, i);
        e->fold = i == 2 && fold1;
        e->v = v[i];
    }
    bool off = !t->detail_on || atomic_load_explicit(&rt_all_off, memory_order_relaxed);
    t->lim = off ? t->cur : t->end;
}

bool rt_call4_before(rt_slot *t, size_t at, unsigned type, uint32_t start, uint32_t end,
                     uint64_t arg1, bool fold1, uint32_t arg2, uint32_t arg3, uint32_t arg4)
{
    size_t n = (size_t)(t->cur - t->buf);
    if (at > n || t->end - t->cur < SMAIT_CALL_PARTS)
        return false;
    bool off = t->lim != t->end;        /* detail off: lim follows cur */
    memmove(t->buf + at + SMAIT_CALL_PARTS, t->buf + at, (n - at) * sizeof *t->buf);
    uint64_t v[SMAIT_CALL_PARTS] = { start, end, arg1, arg2, arg3, arg4 };
    for (unsigned i = 0; i < SMAIT_CALL_PARTS; i++) {
        rt_ent *e = &t->buf[at + i];
        e->f1 = smait_call_f1(type, i);
        e->fold = i == 2 && fold1;
        e->v = v[i];
    }
    t->cur += SMAIT_CALL_PARTS;
    if (off)
        t->lim = t->cur;
    return true;
}

void rt_flush(rt_slot *t)
{
    size_t n = (size_t)(t->cur - t->buf);
    t->cur = t->buf;
    if (t->lim != t->end)
        t->lim = t->cur;
    if (n == 0)
        return;
    t->records += n;
    if (!t->sink || !t->sink->wants_records)
        return;
    /* Fold (and code, for a sink that asks) and write in chunks (rt_fold
     * takes the table's lock only for a page its thread's cache has not).
     * Coding here, in the loop that makes each record, cost a third less
     * than a pass of its own over the chunk. */
    smait_raw out[4096];
    smait_delta *d = t->sink->delta;
    for (size_t i = 0; i < n;) {
        size_t k = 0;
        if (d) {
            uint32_t target = d->target, run = d->run;
            for (; i < n && k < sizeof out / sizeof out[0]; i++, k++) {
                const rt_ent *e = &t->buf[i];
                uint32_t f2 = e->fold ? rt_fold(t, e->v) : (uint32_t)e->v;
                out[k].f1 = e->f1;
                out[k].f2 = smait_delta_code(&target, &run, d->last, e->f1, f2);
            }
            d->target = target;
            d->run = run;
        } else {
            for (; i < n && k < sizeof out / sizeof out[0]; i++, k++) {
                const rt_ent *e = &t->buf[i];
                out[k].f1 = e->f1;
                out[k].f2 = e->fold ? rt_fold(t, e->v) : (uint32_t)e->v;
            }
        }
        int err = t->sink->write(t->sink, out, k);
        if (err)
            rt_fatal("%s: cannot write trace: %s", t->path ? t->path : "trace", strerror(err));
    }
}
