/* rt_omp.c — OpenMP parallel regions onto SMAIT's thread model (SPEC §5.1).
 *
 * smait-cc compiles OpenMP with clang, whose code calls the LLVM OpenMP
 * runtime (libomp) through its __kmpc_* entry points; smait-cc wraps them
 * (ld --wrap) when it is given -fopenmp. A parallel region entered by trace 0
 * while no region is open becomes a region: trace 0 gets `spawn region=r
 * threads=n` (n = the team size) and team thread i (omp_get_thread_num())
 * writes trace i; its part ends when its share of the region's body returns
 * (the region's implicit barrier): thread 0 then gets `join`, the others get
 * theirs when their trace is next used (the end of a trace is a join), as
 * pthreads' workers do. Every __kmpc_barrier
 * (an explicit `omp barrier` and the implicit ones at the end of `for`,
 * `single`, `sections`) is a barrier of the team on one runtime-owned key;
 * `critical` is a critical section keyed by its lock variable's address (the
 * unnamed critical: 0, SPEC §2.2's anonymous lock); a reduction's combining
 * step, when the runtime lets the thread do it, is a critical section on the
 * reduction's lock variable. Nested regions and regions entered by other
 * threads are not new regions (docs/collector.md §4).
 *
 * The libomp symbols are weak: this file is in every traced program, and
 * only OpenMP programs (linked with the wraps) have them. */
#include <stdarg.h>
#include <stdint.h>

#include "rt.h"

typedef struct ident ident_t;          /* libomp's source location: opaque here */
typedef int32_t kmp_critical_name[8];
typedef void (*kmpc_micro)(int32_t *gtid, int32_t *btid, ...);

enum { MAX_ARGS = 32 };                /* captured variables of one region */

void __real___kmpc_fork_call(ident_t *, int32_t, kmpc_micro, ...) __attribute__((weak));
void __real___kmpc_push_num_threads(ident_t *, int32_t, int32_t) __attribute__((weak));
void __real___kmpc_barrier(ident_t *, int32_t) __attribute__((weak));
void __real___kmpc_critical(ident_t *, int32_t, kmp_critical_name *) __attribute__((weak));
void __real___kmpc_critical_with_hint(ident_t *, int32_t, kmp_critical_name *, uintptr_t) __attribute__((weak));
void __real___kmpc_end_critical(ident_t *, int32_t, kmp_critical_name *) __attribute__((weak));
int32_t __real___kmpc_reduce(ident_t *, int32_t, int32_t, size_t, void *, void (*)(void *, void *),
                             kmp_critical_name *) __attribute__((weak));
int32_t __real___kmpc_reduce_nowait(ident_t *, int32_t, int32_t, size_t, void *, void (*)(void *, void *),
                                    kmp_critical_name *) __attribute__((weak));
void __real___kmpc_end_reduce(ident_t *, int32_t, kmp_critical_name *) __attribute__((weak));
void __real___kmpc_end_reduce_nowait(ident_t *, int32_t, kmp_critical_name *) __attribute__((weak));
int omp_get_thread_num(void) __attribute__((weak));
int omp_get_num_threads(void) __attribute__((weak));
int omp_get_max_threads(void) __attribute__((weak));
int omp_get_level(void) __attribute__((weak));

/* clang's lock variable of the unnamed critical (common: one per program). */
extern kmp_critical_name anon_critical __asm__(".gomp_critical_user_.var") __attribute__((weak));

static uint64_t barrier_key;           /* the key of every team barrier */
static _Thread_local int pushed;       /* num_threads clause of the next region */
static _Thread_local bool in_team;     /* this thread runs a traced region's body */

typedef struct region_ctx {
    kmpc_micro fn;
    int argc;
    void *argv[MAX_ARGS];
    unsigned region;                   /* 0: not a traced region */
    uint32_t forked, done0;            /* times: fork call, thread 0's body returned */
} region_ctx;

/* Each team thread runs the region's body through here. */
static void trampoline(int32_t *gtid, int32_t *btid, region_ctx *c)
{
    void **a = c->argv;
    if (!c->region) {
        c->fn(gtid, btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
              a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23],
              a[24], a[25], a[26], a[27], a[28], a[29], a[30], a[31]);
        return;
    }
    int id = omp_get_thread_num(), n = omp_get_num_threads();
    if (id == 0)
        rt_team_size(c->region, n);
    rt_slot *t = id == 0 ? rt_self : rt_team_enter(id, c->region);
    uint32_t now = rt_now_us();
    rt_call(t, SMAIT_CT_SPAWN, c->forked, now, c->region, false, (uint32_t)n);
    in_team = true;
    /* The callee ignores the arguments it does not have (as libomp's own
     * invocation does): one call for any number up to MAX_ARGS. */
    c->fn(gtid, btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
          a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23],
          a[24], a[25], a[26], a[27], a[28], a[29], a[30], a[31]);
    in_team = false;
    now = rt_now_us();
    if (id == 0) {
        c->done0 = now;                 /* its join follows when the team has joined */
        return;
    }
    rt_team_leave(t, now);
}

void __wrap___kmpc_push_num_threads(ident_t *loc, int32_t gtid, int32_t n)
{
    pushed = n;
    __real___kmpc_push_num_threads(loc, gtid, n);
}

void __wrap___kmpc_fork_call(ident_t *loc, int32_t argc, kmpc_micro fn, ...)
{
    if (argc < 0 || argc > MAX_ARGS)
        rt_fatal("an OpenMP parallel region with %d captured variables (at most %d are traced)",
                 (int)argc, MAX_ARGS);
    region_ctx c = { .fn = fn, .argc = argc, .forked = rt_now_us() };
    va_list ap;
    va_start(ap, fn);
    for (int i = 0; i < argc; i++)
        c.argv[i] = va_arg(ap, void *);
    va_end(ap);
    rt_slot *self = rt_self;
    int n = pushed > 0 ? pushed : omp_get_max_threads();
    pushed = 0;
    /* Traced: trace 0, outside any region (nested and orphaned ones are not). */
    if (self && self->slot == 0 && omp_get_level() == 0)
        c.region = rt_team_begin(n);
    __real___kmpc_fork_call(loc, 1, (kmpc_micro)trampoline, &c);
    if (c.region)
        rt_call(self, SMAIT_CT_JOIN, c.done0, rt_now_us(), 0, false, 0);
}

void __wrap___kmpc_barrier(ident_t *loc, int32_t gtid)
{
    uint32_t t0 = rt_now_us();
    __real___kmpc_barrier(loc, gtid);
    rt_slot *t = rt_self;
    if (t && in_team && omp_get_level() == 1)
        rt_call(t, SMAIT_CT_BARRIER, t0, rt_now_us(), (uintptr_t)&barrier_key, true,
                (uint32_t)omp_get_num_threads());
}

/* A critical section's key: its lock variable, 0 for the unnamed one. */
static void critical(unsigned type, uint32_t t0, kmp_critical_name *crit)
{
    rt_slot *t = rt_self;
    if (!t || (t->slot != 0 && !in_team))
        return;
    bool anon = crit == &anon_critical;
    rt_call(t, type, t0, rt_now_us(), anon ? 0 : (uintptr_t)crit, !anon, 0);
}

void __wrap___kmpc_critical(ident_t *loc, int32_t gtid, kmp_critical_name *crit)
{
    uint32_t t0 = rt_now_us();
    __real___kmpc_critical(loc, gtid, crit);
    critical(SMAIT_CT_BEGIN_CRITICAL, t0, crit);
}

void __wrap___kmpc_critical_with_hint(ident_t *loc, int32_t gtid, kmp_critical_name *crit, uintptr_t hint)
{
    uint32_t t0 = rt_now_us();
    __real___kmpc_critical_with_hint(loc, gtid, crit, hint);
    critical(SMAIT_CT_BEGIN_CRITICAL, t0, crit);
}

void __wrap___kmpc_end_critical(ident_t *loc, int32_t gtid, kmp_critical_name *crit)
{
    uint32_t t0 = rt_now_us();
    __real___kmpc_end_critical(loc, gtid, crit);
    critical(SMAIT_CT_END_CRITICAL, t0, crit);
}

/* Reductions: 1 = this thread combines now and ends with __kmpc_end_reduce*
 * (a critical section on lck); 2 = atomically (recorded as atomics); 0 = done. */
int32_t __wrap___kmpc_reduce(ident_t *loc, int32_t gtid, int32_t nv, size_t sz, void *data,
                             void (*fn)(void *, void *), kmp_critical_name *lck)
{
    uint32_t t0 = rt_now_us();
    int32_t rc = __real___kmpc_reduce(loc, gtid, nv, sz, data, fn, lck);
    if (rc == 1)
        critical(SMAIT_CT_BEGIN_CRITICAL, t0, lck);
    return rc;
}

int32_t __wrap___kmpc_reduce_nowait(ident_t *loc, int32_t gtid, int32_t nv, size_t sz, void *data,
                                    void (*fn)(void *, void *), kmp_critical_name *lck)
{
    uint32_t t0 = rt_now_us();
    int32_t rc = __real___kmpc_reduce_nowait(loc, gtid, nv, sz, data, fn, lck);
    if (rc == 1)
        critical(SMAIT_CT_BEGIN_CRITICAL, t0, lck);
    return rc;
}

void __wrap___kmpc_end_reduce(ident_t *loc, int32_t gtid, kmp_critical_name *lck)
{
    critical(SMAIT_CT_END_CRITICAL, rt_now_us(), lck);
    __real___kmpc_end_reduce(loc, gtid, lck);
}

void __wrap___kmpc_end_reduce_nowait(ident_t *loc, int32_t gtid, kmp_critical_name *lck)
{
    critical(SMAIT_CT_END_CRITICAL, rt_now_us(), lck);
    __real___kmpc_end_reduce_nowait(loc, gtid, lck);
}
