/* rt_omp.c — OpenMP onto SMAIT's thread model and recorded synchronisation
 * (docs/collector.md §4.1).
 *
 * smait-cc compiles OpenMP with clang, whose code calls the LLVM OpenMP
 * runtime (libomp) through its __kmpc_* entry points and the omp_* lock
 * routines; smait-cc wraps them (ld --wrap) when it is given -fopenmp.
 *
 * Regions: a parallel region entered by trace 0 while no region is open
 * becomes a region: trace 0 gets `spawn region=r threads=n` (n = the team
 * size) and team thread i (omp_get_thread_num()) writes trace i; its part
 * ends when its share of the body returns: thread 0 then gets `join`, the
 * others get theirs when their trace is next used (the end of a trace is a
 * join), as pthreads' workers do. Nested regions and regions entered by
 * other threads are not new regions.
 *
 * Synchronisation, with release numbers taken at run time (rt_sync.c):
 * every team barrier (explicit, implicit, the ones inside a blocking
 * reduction and copyprivate) is a barrier of the team on one runtime-owned
 * key; critical sections, reductions combined under libomp's lock and
 * OpenMP locks are critical sections with seq; the ordered sections of one
 * loop form one chain of ordered sections with seq; a task's creation is a
 * release that its start acquires, its end a release that taskwait (its
 * parent's children) and taskgroup (its group) acquire, and its depend()
 * addresses are released at its end and acquired at the start of later
 * tasks. What synchronises and is not recorded is counted (unmodelled).
 *
 * The libomp symbols are weak: this file is in every traced program, and
 * only OpenMP programs (linked with the wraps) have them. */
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

#include "rt.h"

typedef struct ident {                 /* libomp's source location */
    int32_t reserved_1, flags, reserved_2, reserved_3;
    const char *psource;
} ident_t;
typedef int32_t kmp_critical_name[8];
typedef void (*kmpc_micro)(int32_t *gtid, int32_t *btid, ...);
typedef int32_t (*kmp_routine)(int32_t gtid, void *task);
typedef struct kmp_task {              /* the start of libomp's kmp_task_t */
    void *shareds;
    kmp_routine routine;
    int32_t part_id;
} kmp_task;
typedef struct kmp_depend_info {
    intptr_t base_addr;
    size_t len;
    uint8_t flags;
} kmp_depend_info;
typedef struct omp_lock { void *lk; } omp_lock;
typedef void (*task_dup_fn)(kmp_task *dst, kmp_task *src, int32_t lastpriv);

enum {
    MAX_ARGS = 32,                     /* captured variables of one region */
    ORDERED_KEYS = 64,                 /* loops in flight (libomp: 7 dispatch buffers) */
    MAX_GROUPS = 4,                    /* nested taskgroups recorded per task */
    MAX_DEPS = 8,                      /* depend() addresses recorded per task */
    MAX_NEST_HELD = 16,                /* nestable locks a thread holds at once */
    CTX_SLOTS = 4096,                  /* traces (rt_thread.c's limit) */
    KMP_IDENT_KMPC = 2,
    TASK_TIED = 1,
};
/* Release counts of depend() addresses: their own counters (the address may
 * also be a lock or an atomic variable, whose numbers are another's). */
#define DEP_TAG (1ull << 62)

void __real___kmpc_fork_call(ident_t *, int32_t, kmpc_micro, ...) __attribute__((weak));
void __real___kmpc_fork_teams(ident_t *, int32_t, kmpc_micro, ...) __attribute__((weak));
void __real___kmpc_push_num_threads(ident_t *, int32_t, int32_t) __attribute__((weak));
void __real___kmpc_barrier(ident_t *, int32_t) __attribute__((weak));
int32_t __real___kmpc_cancel_barrier(ident_t *, int32_t) __attribute__((weak));
int32_t __real___kmpc_cancel(ident_t *, int32_t, int32_t) __attribute__((weak));
int32_t __real___kmpc_cancellationpoint(ident_t *, int32_t, int32_t) __attribute__((weak));
void __real___kmpc_critical(ident_t *, int32_t, kmp_critical_name *) __attribute__((weak));
void __real___kmpc_critical_with_hint(ident_t *, int32_t, kmp_critical_name *, uintptr_t) __attribute__((weak));
void __real___kmpc_end_critical(ident_t *, int32_t, kmp_critical_name *) __attribute__((weak));
int32_t __real___kmpc_reduce(ident_t *, int32_t, int32_t, size_t, void *, void (*)(void *, void *),
                             kmp_critical_name *) __attribute__((weak));
int32_t __real___kmpc_reduce_nowait(ident_t *, int32_t, int32_t, size_t, void *, void (*)(void *, void *),
                                    kmp_critical_name *) __attribute__((weak));
void __real___kmpc_end_reduce(ident_t *, int32_t, kmp_critical_name *) __attribute__((weak));
void __real___kmpc_end_reduce_nowait(ident_t *, int32_t, kmp_critical_name *) __attribute__((weak));
void __real___kmpc_ordered(ident_t *, int32_t) __attribute__((weak));
void __real___kmpc_end_ordered(ident_t *, int32_t) __attribute__((weak));
void __real___kmpc_dispatch_init_4(ident_t *, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t)
    __attribute__((weak));
void __real___kmpc_dispatch_init_4u(ident_t *, int32_t, int32_t, uint32_t, uint32_t, int32_t, int32_t)
    __attribute__((weak));
void __real___kmpc_dispatch_init_8(ident_t *, int32_t, int32_t, int64_t, int64_t, int64_t, int64_t)
    __attribute__((weak));
void __real___kmpc_dispatch_init_8u(ident_t *, int32_t, int32_t, uint64_t, uint64_t, int64_t, int64_t)
    __attribute__((weak));
void __real___kmpc_copyprivate(ident_t *, int32_t, size_t, void *, void (*)(void *, void *), int32_t)
    __attribute__((weak));
void __real___kmpc_flush(ident_t *) __attribute__((weak));
kmp_task *__real___kmpc_omp_task_alloc(ident_t *, int32_t, int32_t, size_t, size_t, kmp_routine)
    __attribute__((weak));
int32_t __real___kmpc_omp_task(ident_t *, int32_t, kmp_task *) __attribute__((weak));
int32_t __real___kmpc_omp_task_with_deps(ident_t *, int32_t, kmp_task *, int32_t, kmp_depend_info *,
                                         int32_t, kmp_depend_info *) __attribute__((weak));
void __real___kmpc_omp_wait_deps(ident_t *, int32_t, int32_t, kmp_depend_info *, int32_t,
                                 kmp_depend_info *) __attribute__((weak));
void __real___kmpc_omp_task_begin_if0(ident_t *, int32_t, kmp_task *) __attribute__((weak));
void __real___kmpc_omp_task_complete_if0(ident_t *, int32_t, kmp_task *) __attribute__((weak));
int32_t __real___kmpc_omp_taskwait(ident_t *, int32_t) __attribute__((weak));
void __real___kmpc_taskgroup(ident_t *, int32_t) __attribute__((weak));
void __real___kmpc_end_taskgroup(ident_t *, int32_t) __attribute__((weak));
void __real___kmpc_taskloop(ident_t *, int32_t, kmp_task *, int32_t, uint64_t *, uint64_t *, int64_t,
                            int32_t, int32_t, uint64_t, void *) __attribute__((weak));
void *__real___kmpc_taskred_init(int32_t, int32_t, void *) __attribute__((weak));
void *__real___kmpc_task_reduction_init(int32_t, int32_t, void *) __attribute__((weak));
void *__real___kmpc_taskred_modifier_init(ident_t *, int32_t, int32_t, int32_t, void *) __attribute__((weak));
void *__real___kmpc_task_reduction_modifier_init(ident_t *, int32_t, int32_t, int32_t, void *)
    __attribute__((weak));
void __real___kmpc_doacross_wait(ident_t *, int32_t, const int64_t *) __attribute__((weak));
void __real_omp_set_lock(omp_lock *) __attribute__((weak));
void __real_omp_unset_lock(omp_lock *) __attribute__((weak));
int __real_omp_test_lock(omp_lock *) __attribute__((weak));
void __real_omp_set_nest_lock(omp_lock *) __attribute__((weak));
void __real_omp_unset_nest_lock(omp_lock *) __attribute__((weak));
int __real_omp_test_nest_lock(omp_lock *) __attribute__((weak));
void __real_omp_fulfill_event(void *) __attribute__((weak));
int omp_get_thread_num(void) __attribute__((weak));
int omp_get_num_threads(void) __attribute__((weak));
int omp_get_max_threads(void) __attribute__((weak));
int omp_get_level(void) __attribute__((weak));

/* clang's lock variable of the unnamed critical (common: one per program). */
extern kmp_critical_name anon_critical __asm__(".gomp_critical_user_.var") __attribute__((weak));

static uint64_t barrier_key;           /* the key of every team barrier */
static uint8_t ordered_key[ORDERED_KEYS];  /* loop k of a region: ordered_key[k % 64] */
static ident_t runtime_loc = { 0, KMP_IDENT_KMPC, 0, 0, ";unknown;unknown;0;0;;" };
static _Thread_local int pushed;       /* num_threads clause of the next region */
static _Thread_local bool in_team;     /* this thread runs a traced region's body */
static _Thread_local unsigned loops;   /* dispatched loops of the region so far */

/* ---- libomp's threads -------------------------------------------------------- */

/* A libomp worker allocates as it starts (___kmp_allocate), so glibc maps
 * the thread's arena then: an mmap of twice 64 MiB and two munmaps that
 * trim it to an aligned 64 MiB. The creator meanwhile maps the next
 * worker's stack; landing before, between or after those calls, the stack
 * (and every folded address on it) moved with timing. So libomp's
 * pthread_create (pointed here by rt_cxx.c) lets the new thread make its
 * arena first and returns only then: each worker's stack, then its arena,
 * in creation order. */
int __real_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

typedef struct worker_start {
    void *(*fn)(void *);
    void *arg;
    atomic_int ready;
} worker_start;

static void *worker_trampoline(void *p)
{
    worker_start *w = p;
    void *(*fn)(void *) = w->fn;
    void *arg = w->arg;
    void *volatile block = malloc(1);   /* volatile: the pair must not be optimised away */
    free(block);
    atomic_store_explicit(&w->ready, 1, memory_order_release);     /* w is the creator's: gone after this */
    return fn(arg);
}

int rt_omp_pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    worker_start w = { fn, arg, 0 };
    int rc = __real_pthread_create(th, attr, worker_trampoline, &w);
    if (rc == 0)
        while (!atomic_load_explicit(&w.ready, memory_order_acquire))
            sched_yield();
    return rc;
}

/* ---- regions ---------------------------------------------------------------- */

typedef struct region_ctx {
    kmpc_micro fn;
    int argc;
    void *argv[MAX_ARGS];
    unsigned region;                   /* 0: not a traced region */
    uint32_t forked, done0;            /* times: fork call, thread 0's body returned */
} region_ctx;

static void call_body(region_ctx *c, int32_t *gtid, int32_t *btid)
{
    /* The callee ignores the arguments it does not have (as libomp's own
     * invocation does): one call for any number up to MAX_ARGS. */
    void **a = c->argv;
    c->fn(gtid, btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
          a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23],
          a[24], a[25], a[26], a[27], a[28], a[29], a[30], a[31]);
}

typedef struct task_ctx task_ctx;
static task_ctx *team_task_begin(int id);
static void team_task_end(task_ctx *outer);

/* Each team thread runs the region's body through here. */
static void trampoline(int32_t *gtid, int32_t *btid, region_ctx *c)
{
    if (!c->region) {
        call_body(c, gtid, btid);
        return;
    }
    int id = omp_get_thread_num(), n = omp_get_num_threads();
    if (id == 0)
        rt_team_size(c->region, n);
    rt_slot *t = id == 0 ? rt_self : rt_team_enter(id, c->region);
    uint32_t now = rt_now_us();
    rt_call(t, SMAIT_CT_SPAWN, c->forked, now, c->region, false, (uint32_t)n);
    in_team = true;
    loops = 0;
    task_ctx *outer = team_task_begin(id);
    call_body(c, gtid, btid);
    /* Tasks still pending would run in libomp's join barrier, after this
     * thread's part has ended: a barrier of the runtime's own (not
     * recorded: the join is the region's end) runs them all here. */
    __real___kmpc_barrier(&runtime_loc, *gtid);
    team_task_end(outer);
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

static void capture(region_ctx *c, int32_t argc, va_list ap)
{
    if (argc < 0 || argc > MAX_ARGS)
        rt_fatal("an OpenMP parallel region with %d captured variables (at most %d are traced)",
                 (int)argc, MAX_ARGS);
    c->argc = argc;
    for (int i = 0; i < argc; i++)
        c->argv[i] = va_arg(ap, void *);
}

void __wrap___kmpc_fork_call(ident_t *loc, int32_t argc, kmpc_micro fn, ...)
{
    region_ctx c = { .fn = fn, .forked = rt_now_us() };
    va_list ap;
    va_start(ap, fn);
    capture(&c, argc, ap);
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

/* teams: a league of teams in threads that are not traced. */
void __wrap___kmpc_fork_teams(ident_t *loc, int32_t argc, kmpc_micro fn, ...)
{
    region_ctx c = { .fn = fn };
    va_list ap;
    va_start(ap, fn);
    capture(&c, argc, ap);
    va_end(ap);
    rt_unmodelled(rt_self, SMAIT_UM_OMP);
    __real___kmpc_fork_teams(loc, 1, (kmpc_micro)trampoline, &c);
}

/* ---- barriers --------------------------------------------------------------- */

/* The thread runs its part of a traced region (at the region's level: not in
 * a nested region), so the team's barriers are recorded. */
static rt_slot *team_member(void)
{
    rt_slot *t = rt_self;
    return t && in_team && omp_get_level() == 1 ? t : NULL;
}

/* A synchronisation of the team that is not recorded (the team is not
 * traced): counted when the team has other threads to synchronise with. */
static void team_untraced(void)
{
    if (omp_get_num_threads() > 1)
        rt_unmodelled(rt_self, SMAIT_UM_UNTRACED);
}

static void team_barrier(uint32_t start, uint32_t end)
{
    rt_slot *t = team_member();
    if (t)
        rt_call(t, SMAIT_CT_BARRIER, start, end, (uintptr_t)&barrier_key, true,
                (uint32_t)omp_get_num_threads());
    else
        team_untraced();
}

void __wrap___kmpc_barrier(ident_t *loc, int32_t gtid)
{
    uint32_t t0 = rt_now_us();
    __real___kmpc_barrier(loc, gtid);
    team_barrier(t0, rt_now_us());
}

/* clang's barrier in regions with `cancel`: a barrier; 1 = the region was
 * cancelled (the threads' jump to its end is not recorded). */
int32_t __wrap___kmpc_cancel_barrier(ident_t *loc, int32_t gtid)
{
    uint32_t t0 = rt_now_us();
    int32_t rc = __real___kmpc_cancel_barrier(loc, gtid);
    team_barrier(t0, rt_now_us());
    if (rc)
        rt_unmodelled(rt_self, SMAIT_UM_OMP);
    return rc;
}

int32_t __wrap___kmpc_cancel(ident_t *loc, int32_t gtid, int32_t kind)
{
    int32_t rc = __real___kmpc_cancel(loc, gtid, kind);
    if (rc)
        rt_unmodelled(rt_self, SMAIT_UM_OMP);
    return rc;
}

int32_t __wrap___kmpc_cancellationpoint(ident_t *loc, int32_t gtid, int32_t kind)
{
    int32_t rc = __real___kmpc_cancellationpoint(loc, gtid, kind);
    if (rc)
        rt_unmodelled(rt_self, SMAIT_UM_OMP);
    return rc;
}

/* ---- critical sections, reductions, locks ----------------------------------- */

/* begin_critical after the lock is held: the releases so far (none can
 * happen while it is held); end_critical's number is taken before the real
 * unlock lets anyone in. key: the lock's address, counted; rec: the key
 * written (0 for the unnamed critical, the anonymous lock). */
static void lock_begin(uint64_t key, uint64_t rec, unsigned kind, uint32_t t0)
{
    rt_slot *t = rt_self;
    if (!t) {
        rt_unmodelled(NULL, SMAIT_UM_UNTRACED);
        return;
    }
    rt_call4(t, SMAIT_CT_BEGIN_CRITICAL, t0, rt_now_us(), rec, rec != 0, rt_sync_seq(key), kind, 0);
}

static void lock_end(uint64_t key, uint64_t rec, unsigned kind)
{
    rt_slot *t = rt_self;
    if (!t)
        return;
    uint32_t now = rt_now_us();
    rt_call4(t, SMAIT_CT_END_CRITICAL, now, now, rec, rec != 0, rt_sync_release_seq(key), kind, 0);
}

static uint64_t crit_rec(kmp_critical_name *crit)
{
    return crit == &anon_critical ? 0 : (uintptr_t)crit;
}

void __wrap___kmpc_critical(ident_t *loc, int32_t gtid, kmp_critical_name *crit)
{
    uint32_t t0 = rt_now_us();
    __real___kmpc_critical(loc, gtid, crit);
    lock_begin((uintptr_t)crit, crit_rec(crit), SMAIT_SK_OMP_CRITICAL, t0);
}

void __wrap___kmpc_critical_with_hint(ident_t *loc, int32_t gtid, kmp_critical_name *crit, uintptr_t hint)
{
    uint32_t t0 = rt_now_us();
    __real___kmpc_critical_with_hint(loc, gtid, crit, hint);
    lock_begin((uintptr_t)crit, crit_rec(crit), SMAIT_SK_OMP_CRITICAL, t0);
}

void __wrap___kmpc_end_critical(ident_t *loc, int32_t gtid, kmp_critical_name *crit)
{
    lock_end((uintptr_t)crit, crit_rec(crit), SMAIT_SK_OMP_CRITICAL);
    __real___kmpc_end_critical(loc, gtid, crit);
}

/* Reductions. libomp returns 1 when this thread combines now (under the
 * reduction's lock, or alone in a team of one: no lock, nothing to order)
 * and ends with __kmpc_end_reduce*; 2 when it combines with atomics
 * (recorded as the atomic accesses they are). The combining function is not passed on, so
 * libomp never picks its tree method, whose combining runs inside its
 * barrier where no record can place it (it takes the atomic method
 * instead, as it does for teams of up to 4, or its lock). The blocking
 * __kmpc_end_reduce ends with a barrier of the team. */
static _Thread_local bool reduce_locked;

static int32_t reduce_began(int32_t rc, kmp_critical_name *lck, uint32_t t0)
{
    reduce_locked = rc == 1 && omp_get_num_threads() > 1;
    if (reduce_locked)
        lock_begin((uintptr_t)lck, (uintptr_t)lck, SMAIT_SK_OMP_CRITICAL, t0);
    return rc;
}

int32_t __wrap___kmpc_reduce(ident_t *loc, int32_t gtid, int32_t nv, size_t sz, void *data,
                             void (*fn)(void *, void *), kmp_critical_name *lck)
{
    (void)data, (void)fn;
    uint32_t t0 = rt_now_us();
    return reduce_began(__real___kmpc_reduce(loc, gtid, nv, sz, NULL, NULL, lck), lck, t0);
}

int32_t __wrap___kmpc_reduce_nowait(ident_t *loc, int32_t gtid, int32_t nv, size_t sz, void *data,
                                    void (*fn)(void *, void *), kmp_critical_name *lck)
{
    (void)data, (void)fn;
    uint32_t t0 = rt_now_us();
    return reduce_began(__real___kmpc_reduce_nowait(loc, gtid, nv, sz, NULL, NULL, lck), lck, t0);
}

void __wrap___kmpc_end_reduce(ident_t *loc, int32_t gtid, kmp_critical_name *lck)
{
    uint32_t t0 = rt_now_us();
    if (reduce_locked)
        lock_end((uintptr_t)lck, (uintptr_t)lck, SMAIT_SK_OMP_CRITICAL);
    reduce_locked = false;
    __real___kmpc_end_reduce(loc, gtid, lck);
    team_barrier(t0, rt_now_us());
}

void __wrap___kmpc_end_reduce_nowait(ident_t *loc, int32_t gtid, kmp_critical_name *lck)
{
    if (reduce_locked)
        lock_end((uintptr_t)lck, (uintptr_t)lck, SMAIT_SK_OMP_CRITICAL);
    reduce_locked = false;
    __real___kmpc_end_reduce_nowait(loc, gtid, lck);
}

/* OpenMP locks: critical sections on the lock variable (kind 7). */
void __wrap_omp_set_lock(omp_lock *l)
{
    uint32_t t0 = rt_now_us();
    __real_omp_set_lock(l);
    lock_begin((uintptr_t)l, (uintptr_t)l, SMAIT_SK_OMP_LOCK, t0);
}

int __wrap_omp_test_lock(omp_lock *l)
{
    uint32_t t0 = rt_now_us();
    int rc = __real_omp_test_lock(l);
    if (rc)
        lock_begin((uintptr_t)l, (uintptr_t)l, SMAIT_SK_OMP_LOCK, t0);
    return rc;
}

void __wrap_omp_unset_lock(omp_lock *l)
{
    lock_end((uintptr_t)l, (uintptr_t)l, SMAIT_SK_OMP_LOCK);
    __real_omp_unset_lock(l);
}

/* Nestable locks: only the outermost set and unset (libomp counts the depth
 * per owning thread; so does this table). */
static _Thread_local struct { omp_lock *l; unsigned depth; } nest_held[MAX_NEST_HELD];

static void nest_set(omp_lock *l, uint32_t t0)
{
    int free_i = -1;
    for (int i = 0; i < MAX_NEST_HELD; i++) {
        if (nest_held[i].l == l) {
            nest_held[i].depth++;
            return;
        }
        if (free_i < 0 && !nest_held[i].l)
            free_i = i;
    }
    if (free_i < 0) {
        rt_unmodelled(rt_self, SMAIT_UM_OMP);      /* held, not recorded */
        return;
    }
    nest_held[free_i].l = l;
    nest_held[free_i].depth = 1;
    lock_begin((uintptr_t)l, (uintptr_t)l, SMAIT_SK_OMP_LOCK, t0);
}

void __wrap_omp_set_nest_lock(omp_lock *l)
{
    uint32_t t0 = rt_now_us();
    __real_omp_set_nest_lock(l);
    nest_set(l, t0);
}

int __wrap_omp_test_nest_lock(omp_lock *l)
{
    uint32_t t0 = rt_now_us();
    int rc = __real_omp_test_nest_lock(l);
    if (rc > 0)
        nest_set(l, t0);
    return rc;
}

void __wrap_omp_unset_nest_lock(omp_lock *l)
{
    for (int i = 0; i < MAX_NEST_HELD; i++) {
        if (nest_held[i].l != l)
            continue;
        if (--nest_held[i].depth == 0) {
            nest_held[i].l = NULL;
            lock_end((uintptr_t)l, (uintptr_t)l, SMAIT_SK_OMP_LOCK);
        }
        break;
    }
    __real_omp_unset_nest_lock(l);
}

/* ---- ordered ------------------------------------------------------------------ */

/* Every thread of a team meets the team's loops in the same order, so the
 * number of dynamically dispatched loops (ordered loops are, whatever their
 * schedule) names the loop; libomp lets no thread run more than 7 of them
 * ahead, so 64 keys keep loops that overlap (nowait) apart. */
static void loop_begins(void)
{
    if (team_member())
        loops++;
}

void __wrap___kmpc_dispatch_init_4(ident_t *loc, int32_t gtid, int32_t sched, int32_t lb, int32_t ub,
                                   int32_t st, int32_t chunk)
{
    loop_begins();
    __real___kmpc_dispatch_init_4(loc, gtid, sched, lb, ub, st, chunk);
}

void __wrap___kmpc_dispatch_init_4u(ident_t *loc, int32_t gtid, int32_t sched, uint32_t lb, uint32_t ub,
                                    int32_t st, int32_t chunk)
{
    loop_begins();
    __real___kmpc_dispatch_init_4u(loc, gtid, sched, lb, ub, st, chunk);
}

void __wrap___kmpc_dispatch_init_8(ident_t *loc, int32_t gtid, int32_t sched, int64_t lb, int64_t ub,
                                   int64_t st, int64_t chunk)
{
    loop_begins();
    __real___kmpc_dispatch_init_8(loc, gtid, sched, lb, ub, st, chunk);
}

void __wrap___kmpc_dispatch_init_8u(ident_t *loc, int32_t gtid, int32_t sched, uint64_t lb, uint64_t ub,
                                    int64_t st, int64_t chunk)
{
    loop_begins();
    __real___kmpc_dispatch_init_8u(loc, gtid, sched, lb, ub, st, chunk);
}

/* An ordered section: one loop's sections run one at a time in iteration
 * order, a chain of ordered sections on the loop's key (kind 9). Outside a
 * traced team there is no one to order with, or no one traced. */
void __wrap___kmpc_ordered(ident_t *loc, int32_t gtid)
{
    uint32_t t0 = rt_now_us();
    __real___kmpc_ordered(loc, gtid);
    rt_slot *t = team_member();
    if (!t) {
        team_untraced();
        return;
    }
    uintptr_t key = (uintptr_t)&ordered_key[(loops - 1) % ORDERED_KEYS];
    rt_call4(t, SMAIT_CT_BEGIN_ORDER, t0, rt_now_us(), key, true, rt_sync_seq(key),
             SMAIT_SK_OMP_ORDERED, 0);
}

void __wrap___kmpc_end_ordered(ident_t *loc, int32_t gtid)
{
    rt_slot *t = team_member();
    if (t) {
        uintptr_t key = (uintptr_t)&ordered_key[(loops - 1) % ORDERED_KEYS];
        uint32_t now = rt_now_us();
        rt_call4(t, SMAIT_CT_END_ORDER, now, now, key, true, rt_sync_release_seq(key),
                 SMAIT_SK_OMP_ORDERED, 0);
    }
    __real___kmpc_end_ordered(loc, gtid);
}

/* ---- copyprivate ---------------------------------------------------------------- */

/* libomp: the single thread publishes its data, a barrier, the others copy
 * (cpy_func), a barrier. The copy runs inside the call, so the first
 * barrier is written by a stand-in for cpy_func before the copy's records. */
static _Thread_local struct {
    void (*fn)(void *, void *);
    uint32_t t0, t1;                   /* call; the copy's end */
    bool first_done;
} cp;

static void copy_entry(void *dst, void *src)
{
    if (!cp.first_done) {
        team_barrier(cp.t0, rt_now_us());
        cp.first_done = true;
    }
    cp.fn(dst, src);
    cp.t1 = rt_now_us();
}

void __wrap___kmpc_copyprivate(ident_t *loc, int32_t gtid, size_t size, void *data,
                               void (*fn)(void *, void *), int32_t didit)
{
    if (!team_member()) {
        __real___kmpc_copyprivate(loc, gtid, size, data, fn, didit);
        team_untraced();
        return;
    }
    uint32_t t0 = rt_now_us();
    cp.fn = fn;
    cp.t0 = cp.t1 = t0;
    cp.first_done = false;
    __real___kmpc_copyprivate(loc, gtid, size, data, copy_entry, didit);
    uint32_t t2 = rt_now_us();
    if (!cp.first_done)
        team_barrier(t0, t2);
    team_barrier(cp.first_done ? cp.t1 : t2, t2);
}

/* ---- flush and what is not recorded --------------------------------------------- */

/* A flush (OpenMP 5.1, the flush construct: without a list or a clause,
 * an acq_rel fence; clang calls it after seq_cst atomics too): a fence both
 * ways, as atomic_thread_fence(memory_order_seq_cst) (rt_atomic.c). */
void __wrap___kmpc_flush(ident_t *loc)
{
    __real___kmpc_flush(loc);
    __smait_fence(RT_FENCE_ACQ | RT_FENCE_REL);
}

void __wrap___kmpc_doacross_wait(ident_t *loc, int32_t gtid, const int64_t *vec)
{
    __real___kmpc_doacross_wait(loc, gtid, vec);
    rt_unmodelled(rt_self, SMAIT_UM_OMP);
}

/* Task reductions: the partial results are combined inside libomp's
 * taskgroup end, before the records of the wait could be placed. */
void *__wrap___kmpc_taskred_init(int32_t gtid, int32_t num, void *data)
{
    rt_unmodelled(rt_self, SMAIT_UM_OMP);
    return __real___kmpc_taskred_init(gtid, num, data);
}

void *__wrap___kmpc_task_reduction_init(int32_t gtid, int32_t num, void *data)
{
    rt_unmodelled(rt_self, SMAIT_UM_OMP);
    return __real___kmpc_task_reduction_init(gtid, num, data);
}

void *__wrap___kmpc_taskred_modifier_init(ident_t *loc, int32_t gtid, int32_t is_ws, int32_t num, void *data)
{
    rt_unmodelled(rt_self, SMAIT_UM_OMP);
    return __real___kmpc_taskred_modifier_init(loc, gtid, is_ws, num, data);
}

void *__wrap___kmpc_task_reduction_modifier_init(ident_t *loc, int32_t gtid, int32_t is_ws, int32_t num,
                                                 void *data)
{
    rt_unmodelled(rt_self, SMAIT_UM_OMP);
    return __real___kmpc_task_reduction_modifier_init(loc, gtid, is_ws, num, data);
}

/* detach: the task completes when omp_fulfill_event is called, in any thread. */
void __wrap_omp_fulfill_event(void *event)
{
    rt_unmodelled(rt_self, SMAIT_UM_OMP);
    __real_omp_fulfill_event(event);
}

/* ---- tasks ------------------------------------------------------------------------ */

/* A task context: the implicit task of a trace, or an explicit task while it
 * runs. Its keys are addresses inside it: `children` is released by the end
 * of each of its child tasks (taskwait acquires it), group[d] by the end of
 * each task of its d-th nested taskgroup (the taskgroup's end acquires it). */
struct task_ctx {
    uint64_t group_key;                /* the innermost taskgroup's key, 0 = none */
    uint64_t saved[MAX_GROUPS];        /* the enclosing ones */
    unsigned depth;
    uint8_t children;
    uint8_t group[MAX_GROUPS];
};

/* What the runtime keeps in a task: in front of its shareds (the
 * allocation is made larger and task->shareds moved on), so that it is
 * found from the task alone and copied with it (taskloop). */
typedef struct task_info {
    kmp_routine routine;               /* the task's own entry */
    task_dup_fn dup;                   /* taskloop: clang's copy function */
    uint64_t create_key;               /* released at creation, acquired at the start */
    uint64_t parent_key, group_key;    /* released at the end (0 = not recorded) */
    uint64_t deps[MAX_DEPS];
    unsigned ndeps;
    task_ctx ctx;                      /* while it runs */
    task_ctx *outer;                   /* the context it interrupted (if0) */
} task_info;

/* Implicit tasks: of team thread i in a traced region, and of a trace's
 * thread elsewhere (trace 0's serial part, a pthread). */
static task_ctx team_ctx[CTX_SLOTS], thread_ctx[CTX_SLOTS];
static _Thread_local task_ctx *cur_ctx;     /* NULL: thread_ctx of the trace */

static int32_t task_entry(int32_t gtid, void *task);

/* The last acquires this thread recorded, in the trace it writes now: the
 * same one again adds nothing (taskloop's copies made from one pattern, a
 * taskwait with no new ends). A release of its own is no such proof: the
 * releases before it may be other threads'. */
enum { SEEN = 4 };
static _Thread_local struct { uint64_t key; uint32_t seq; } seen[SEEN];
static _Thread_local unsigned seen_next;

/* A team thread's part begins (its trace may be another than last time). */
static task_ctx *team_task_begin(int id)
{
    for (unsigned i = 0; i < SEEN; i++)
        seen[i].key = 0;
    task_ctx *outer = cur_ctx;
    cur_ctx = id < CTX_SLOTS ? &team_ctx[id] : NULL;
    if (cur_ctx)
        cur_ctx->depth = 0, cur_ctx->group_key = 0;
    return outer;
}

static void team_task_end(task_ctx *outer)
{
    cur_ctx = outer;
}

static task_ctx *ctx_now(void)
{
    if (cur_ctx)
        return cur_ctx;
    rt_slot *t = rt_self;
    return t && t->slot < CTX_SLOTS ? &thread_ctx[t->slot] : NULL;
}

static task_info *info_of(kmp_task *task)
{
    return task && task->routine == task_entry ? (task_info *)task->shareds - 1 : NULL;
}

static void note_seen(uint64_t key, uint32_t seq)
{
    seen[seen_next].key = key;
    seen[seen_next].seq = seq;
    seen_next = (seen_next + 1) % SEEN;
}

static void release(uint64_t count_key, uint64_t obj)
{
    rt_slot *t = rt_self;
    if (!t || !obj)
        return;
    uint32_t now = rt_now_us(), r = rt_sync_release_seq(count_key);
    rt_sync_release(t, obj, r, SMAIT_SK_OMP_TASK, now, now);
}

/* The releases 1 … seq of obj happened before this point (nothing when
 * none did). */
static void acquire(uint64_t count_key, uint64_t obj, uint32_t t0)
{
    rt_slot *t = rt_self;
    if (!t || !obj)
        return;
    uint32_t s = rt_sync_seq(count_key);
    if (!s)
        return;
    for (unsigned i = 0; i < SEEN; i++)
        if (seen[i].key == count_key && seen[i].seq == s)
            return;
    rt_sync_acquire(t, obj, s, SMAIT_SK_OMP_TASK, t0, rt_now_us());
    note_seen(count_key, s);
}

kmp_task *__wrap___kmpc_omp_task_alloc(ident_t *loc, int32_t gtid, int32_t flags, size_t task_size,
                                       size_t shareds_size, kmp_routine entry)
{
    kmp_task *task = __real___kmpc_omp_task_alloc(loc, gtid, flags, task_size,
                                                  shareds_size + sizeof(task_info), task_entry);
    if (!task)
        return NULL;
    task_info *ti = task->shareds;
    task->shareds = ti + 1;
    *ti = (task_info){ .routine = entry, .create_key = (uintptr_t)task };
    task_ctx *c = rt_self ? ctx_now() : NULL;
    if (c) {
        ti->parent_key = (uintptr_t)&c->children;
        ti->group_key = c->group_key;
    }
    if (!(flags & TASK_TIED))
        rt_unmodelled(rt_self, SMAIT_UM_OMP);      /* parts may move between threads */
    return task;
}

/* Creation: the release the start acquires, before libomp lets any thread
 * run it (an untied task's next part is created again). */
static void task_created(kmp_task *task)
{
    task_info *ti = info_of(task);
    if (ti)
        release(ti->create_key, ti->create_key);
}

int32_t __wrap___kmpc_omp_task(ident_t *loc, int32_t gtid, kmp_task *task)
{
    task_created(task);
    return __real___kmpc_omp_task(loc, gtid, task);
}

static void note_deps(task_info *ti, int32_t n, const kmp_depend_info *d)
{
    for (int32_t i = 0; i < n; i++) {
        if (ti->ndeps == MAX_DEPS) {
            rt_unmodelled(rt_self, SMAIT_UM_OMP);
            return;
        }
        ti->deps[ti->ndeps++] = (uint64_t)d[i].base_addr;
    }
}

int32_t __wrap___kmpc_omp_task_with_deps(ident_t *loc, int32_t gtid, kmp_task *task, int32_t ndeps,
                                         kmp_depend_info *deps, int32_t ndeps_noalias,
                                         kmp_depend_info *noalias)
{
    task_info *ti = info_of(task);
    if (ti) {
        note_deps(ti, ndeps, deps);
        note_deps(ti, ndeps_noalias, noalias);
    }
    task_created(task);
    return __real___kmpc_omp_task_with_deps(loc, gtid, task, ndeps, deps, ndeps_noalias, noalias);
}

/* An undeferred task with depend(): it waits for the earlier tasks. */
void __wrap___kmpc_omp_wait_deps(ident_t *loc, int32_t gtid, int32_t ndeps, kmp_depend_info *deps,
                                 int32_t ndeps_noalias, kmp_depend_info *noalias)
{
    uint32_t t0 = rt_now_us();
    __real___kmpc_omp_wait_deps(loc, gtid, ndeps, deps, ndeps_noalias, noalias);
    for (int32_t i = 0; i < ndeps; i++)
        acquire(DEP_TAG | (uint64_t)deps[i].base_addr, (uint64_t)deps[i].base_addr, t0);
    for (int32_t i = 0; i < ndeps_noalias; i++)
        acquire(DEP_TAG | (uint64_t)noalias[i].base_addr, (uint64_t)noalias[i].base_addr, t0);
}

static void ctx_enter(task_info *ti)
{
    ti->outer = cur_ctx;
    ti->ctx.depth = 0;
    ti->ctx.group_key = ti->group_key;
    cur_ctx = &ti->ctx;
}

/* Every task libomp runs (deferred, included, taskloop's) starts here. */
static int32_t task_entry(int32_t gtid, void *p)
{
    kmp_task *task = p;
    task_info *ti = (task_info *)task->shareds - 1;
    rt_slot *t = rt_self;
    if (t) {
        uint32_t t0 = rt_now_us();
        acquire(ti->create_key, ti->create_key, t0);
        for (unsigned i = 0; i < ti->ndeps; i++)
            acquire(DEP_TAG | ti->deps[i], ti->deps[i], t0);
    } else if (ti->parent_key) {
        rt_unmodelled(NULL, SMAIT_UM_UNTRACED);     /* a traced thread's task */
    }
    ctx_enter(ti);
    int32_t rc = ti->routine(gtid, task);
    cur_ctx = ti->outer;
    release(ti->parent_key, ti->parent_key);
    release(ti->group_key, ti->group_key);
    for (unsigned i = 0; i < ti->ndeps; i++)
        release(DEP_TAG | ti->deps[i], ti->deps[i]);
    return rc;
}

/* if(0): the encountering thread runs the body between these two calls, in
 * program order (no edge needed); its children are its own. */
void __wrap___kmpc_omp_task_begin_if0(ident_t *loc, int32_t gtid, kmp_task *task)
{
    __real___kmpc_omp_task_begin_if0(loc, gtid, task);
    task_info *ti = info_of(task);
    if (ti)
        ctx_enter(ti);
}

void __wrap___kmpc_omp_task_complete_if0(ident_t *loc, int32_t gtid, kmp_task *task)
{
    task_info *ti = info_of(task);
    if (ti)
        cur_ctx = ti->outer;
    __real___kmpc_omp_task_complete_if0(loc, gtid, task);
}

int32_t __wrap___kmpc_omp_taskwait(ident_t *loc, int32_t gtid)
{
    uint32_t t0 = rt_now_us();
    int32_t rc = __real___kmpc_omp_taskwait(loc, gtid);
    task_ctx *c = ctx_now();
    if (c)
        acquire((uintptr_t)&c->children, (uintptr_t)&c->children, t0);
    return rc;
}

void __wrap___kmpc_taskgroup(ident_t *loc, int32_t gtid)
{
    __real___kmpc_taskgroup(loc, gtid);
    task_ctx *c = ctx_now();
    if (!c)
        return;
    if (c->depth < MAX_GROUPS) {
        c->saved[c->depth] = c->group_key;
        c->group_key = (uintptr_t)&c->group[c->depth];
    }
    c->depth++;
}

void __wrap___kmpc_end_taskgroup(ident_t *loc, int32_t gtid)
{
    uint32_t t0 = rt_now_us();
    __real___kmpc_end_taskgroup(loc, gtid);
    task_ctx *c = ctx_now();
    if (!c || c->depth == 0)
        return;
    c->depth--;
    if (c->depth < MAX_GROUPS) {
        acquire(c->group_key, c->group_key, t0);
        c->group_key = c->saved[c->depth];
    } else {
        rt_unmodelled(rt_self, SMAIT_UM_OMP);      /* its tasks count in an outer group */
    }
}

/* taskloop: libomp copies the pattern task once per chunk and calls the
 * copy function clang gave for each copy, in the thread that makes it: the
 * stand-in acquires the pattern's creation, copies, and releases the copy's
 * creation. clang wraps the loop in a taskgroup of its own (nogroup = 1). */
static void dup_entry(kmp_task *dst, kmp_task *src, int32_t lastpriv)
{
    task_info *si = (task_info *)src->shareds - 1, *di = (task_info *)dst->shareds - 1;
    acquire(si->create_key, si->create_key, rt_now_us());
    if (si->dup)
        si->dup(dst, src, lastpriv);
    di->create_key = (uintptr_t)dst;
    release(di->create_key, di->create_key);
}

void __wrap___kmpc_taskloop(ident_t *loc, int32_t gtid, kmp_task *task, int32_t if_val, uint64_t *lb,
                            uint64_t *ub, int64_t st, int32_t nogroup, int32_t sched, uint64_t grainsize,
                            void *task_dup)
{
    task_info *ti = info_of(task);
    if (!ti) {
        __real___kmpc_taskloop(loc, gtid, task, if_val, lb, ub, st, nogroup, sched, grainsize, task_dup);
        return;
    }
    if (!nogroup)
        rt_unmodelled(rt_self, SMAIT_UM_OMP);      /* libomp's own taskgroup */
    ti->dup = (task_dup_fn)task_dup;
    task_created(task);
    __real___kmpc_taskloop(loc, gtid, task, if_val, lb, ub, st, nogroup, sched, grainsize,
                           (void *)dup_entry);
}
