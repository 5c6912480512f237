/* rt_thread.c — pthreads onto SMAIT's thread model (docs/scheduler.md §4).
 *
 * The main thread is trace 0. A region begins when trace 0 creates a thread
 * while no created thread is live (spawn region=r threads=0: all traces);
 * it ends when the last live thread is joined (join in the joiner's trace).
 * A created thread takes the lowest slot (trace) not used yet in the region;
 * its trace gets: for each earlier region it missed, spawn+join; then
 * spawn region=r, its records, and the join of the region when the slot is
 * next used (the end of a trace counts as a join). pthread_create and
 * pthread_join are also two-thread barriers (keys: g_keys[slot]) between
 * creator and created thread and between thread and joiner, so the analysis
 * keeps their real order. pthread_barrier_wait is a barrier of the count
 * given to its init. Every trace begins with start_trace sync=1: the other
 * synchronisation is recorded with sequence numbers (rt_pthread_sync.c for
 * pthreads), and the trace ends with the counts of what was not.
 *
 * The wrappers are linked with ld --wrap (smait-cc), so the program's own
 * calls are recorded (and libstdc++'s: rt_cxx.c); the runtime locks with
 * spinlocks, never mutexes. */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

enum { MAX_SLOTS = 4096, MAX_BARRIERS = 256 };

static atomic_flag slots_lock = ATOMIC_FLAG_INIT;
static rt_slot *slots[MAX_SLOTS];
static int nslots;
static unsigned region, live;
static struct { uint64_t start, end; } g_keys[MAX_SLOTS];    /* barrier keys */
static struct { const void *b; unsigned count; } barriers[MAX_BARRIERS];
static uint32_t *region_n;             /* per region: its spawn's threads (0 = all) */
static size_t region_cap;
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

int __real_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int __real_pthread_join(pthread_t, void **);
int __real_pthread_detach(pthread_t);
int __real_pthread_barrier_init(pthread_barrier_t *, const pthread_barrierattr_t *, unsigned);
int __real_pthread_barrier_wait(pthread_barrier_t *);
int __real_pthread_once(pthread_once_t *, void (*)(void));

void rt_spin_lock(atomic_flag *f)
{
    while (atomic_flag_test_and_set_explicit(f, memory_order_acquire))
        sched_yield();
}
void rt_spin_unlock(atomic_flag *f) { atomic_flag_clear_explicit(f, memory_order_release); }

void rt_locks_after_fork(void)
{
    rt_spin_unlock(&slots_lock);
    rt_atomic_locks_after_fork();
    rt_fold_locks_after_fork();
    rt_heap_locks_after_fork();
    rt_code_locks_after_fork();
}

int rt_slot_count(void) { return nslots; }
rt_slot *rt_slot_get(int i) { return slots[i]; }

/* A new region, numbered from 1, whose spawn names n threads (0 = all
 * traces); under slots_lock, while no region is open (so no thread reads
 * region_n while it moves). */
static unsigned new_region(uint32_t n)
{
    if (++region >= region_cap) {
        size_t cap = region_cap ? region_cap * 2 : 1024;
        uint32_t *v = realloc(region_n, cap * sizeof *v);
        if (!v)
            rt_fatal("out of memory");
        region_n = v;
        region_cap = cap;
    }
    region_n[region] = n;
    return region;
}

/* A slot's first records in region r: the join of its last region (written
 * only now, the end of a trace being a join), and spawn+join for each region
 * it had no part in but that ciat makes it active in (all threads, or more
 * than its number), so its trace stays in step. The caller writes the spawn. */
static void catch_up(rt_slot *t, unsigned r, uint32_t now)
{
    if (t->join_pending)
        rt_call(t, SMAIT_CT_JOIN, t->join_time, t->join_time, 0, false, 0);
    t->join_pending = false;
    for (unsigned q = t->done_region + 1; q < r; q++) {
        if (region_n[q] != 0 && region_n[q] <= (uint32_t)t->slot)
            continue;
        rt_call(t, SMAIT_CT_SPAWN, now, now, q, false, 0);
        rt_call(t, SMAIT_CT_JOIN, now, now, 0, false, 0);
    }
    t->done_region = r;
}

/* A new trace file (under slots_lock, or at start-up). */
rt_slot *rt_slot_new(int i)
{
    rt_slot *t = calloc(1, sizeof *t);
    if (!t)
        rt_fatal("out of memory");
    t->slot = i;
    rt_buffer_init(t);
    const char *p = rt_partial_path(i);
    t->path = p ? strdup(p) : NULL;
    int err;
    t->sink = rt_sink_open(rt_type, t->path, &err);
    if (!t->sink)
        rt_fatal("%s: cannot create trace file: %s", t->path ? t->path : "trace", strerror(err));
    slots[i] = t;
    if (i >= nslots)
        nslots = i + 1;
    uint32_t now = rt_now_us();
    rt_call(t, SMAIT_CT_START_TRACE, now, now, SMAIT_START_SYNC, false, 0);
    return t;
}

static void thread_end(void *p)
{
    rt_slot *t = p;
    if (!t || t->ended)
        return;
    t->ended = true;
    t->exit_time = rt_now_us();
    rt_sched_end(t);
    rt_flush(t);
    rt_self = NULL;
    rt_spin_lock(&slots_lock);
    t->running = false;
    rt_spin_unlock(&slots_lock);
}

static void make_exit_key(void)
{
    if (pthread_key_create(&exit_key, thread_end) != 0)
        rt_fatal("pthread_key_create failed");
}

/* The new thread's start. It must not touch the heap: a thread's first
 * malloc or free makes glibc create the thread's arena (an mmap), and an mmap
 * racing with the creator's next thread stack would move that stack, so the
 * folded stack addresses would depend on timing. So the start (function,
 * argument, time) is in the slot, not in a malloc'd block. */
static void *trampoline(void *p)
{
    rt_slot *t = p;
    void *(*fn)(void *) = t->start_fn;
    void *arg = t->start_arg;
    rt_self = t;
    rt_sched_begin(t);
    pthread_setspecific(exit_key, t);
    uint32_t now = rt_now_us();
    catch_up(t, t->used_region, now);
    rt_call(t, SMAIT_CT_SPAWN, t->created, now, t->used_region, false, 0);
    rt_call(t, SMAIT_CT_BARRIER, t->created, now, (uintptr_t)&g_keys[t->slot].start, true, 2);
    void *ret = fn(arg);
    thread_end(t);
    return ret;
}

int __wrap_pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    rt_slot *self = rt_self;
    if (!self)
        return __real_pthread_create(th, attr, fn, arg);
    __real_pthread_once(&exit_key_once, make_exit_key);   /* not a recorded once */
    uint32_t t0 = rt_now_us();
    int detached = PTHREAD_CREATE_JOINABLE;
    if (attr)
        pthread_attr_getdetachstate(attr, &detached);

    rt_spin_lock(&slots_lock);
    if (live == 0) {
        new_region(0);
        rt_call(self, SMAIT_CT_SPAWN, t0, t0, region, false, 0);
    }
    int s = 1;
    while (s < nslots && (slots[s]->used_region == region || slots[s]->running))
        s++;
    if (s == MAX_SLOTS) {
        rt_spin_unlock(&slots_lock);
        rt_fatal("more than %d threads", MAX_SLOTS - 1);
    }
    rt_slot *t = s < nslots ? slots[s] : rt_slot_new(s);
    t->used_region = region;
    t->running = true;
    t->ended = false;
    t->live = detached == PTHREAD_CREATE_JOINABLE;
    t->detached = !t->live;
    t->depth = 0;
    t->pending = 0;
    t->start_fn = fn;
    t->start_arg = arg;
    t->created = t0;
    live++;
    rt_spin_unlock(&slots_lock);

    int rc = __real_pthread_create(th, attr, trampoline, t);
    rt_spin_lock(&slots_lock);
    if (rc != 0) {
        t->running = t->live = false;
        t->used_region = 0;
        live--;
    } else {
        t->tid = *th;
    }
    rt_spin_unlock(&slots_lock);
    if (rc == 0)
        rt_call(self, SMAIT_CT_BARRIER, t0, rt_now_us(), (uintptr_t)&g_keys[s].start, true, 2);
    return rc;
}

static rt_slot *slot_of(pthread_t th)
{
    for (int i = 1; i < nslots; i++)
        if (slots[i]->live && pthread_equal(slots[i]->tid, th))
            return slots[i];
    return NULL;
}

int __wrap_pthread_join(pthread_t th, void **ret)
{
    rt_slot *self = rt_self;
    uint32_t t0 = rt_now_us();
    int rc = __real_pthread_join(th, ret);
    if (rc != 0 || !self)
        return rc;
    uint32_t t1 = rt_now_us();
    rt_spin_lock(&slots_lock);
    rt_slot *t = slot_of(th);
    bool region_end = false;
    if (t) {
        t->live = false;
        /* The thread has ended: its buffer is ours now. */
        rt_call(t, SMAIT_CT_BARRIER, t->exit_time, t1, (uintptr_t)&g_keys[t->slot].end, true, 2);
        t->join_pending = true;
        t->join_time = t1;
        region_end = --live == 0;
    }
    rt_spin_unlock(&slots_lock);
    if (t) {
        rt_flush(t);
        rt_call(self, SMAIT_CT_BARRIER, t0, t1, (uintptr_t)&g_keys[t->slot].end, true, 2);
        if (region_end)
            rt_call(self, SMAIT_CT_JOIN, t1, t1, 0, false, 0);
    }
    return rc;
}

int __wrap_pthread_detach(pthread_t th)
{
    int rc = __real_pthread_detach(th);
    if (rc == 0) {
        rt_spin_lock(&slots_lock);
        rt_slot *t = slot_of(th);
        if (t) {
            t->live = false;
            t->detached = true;     /* stays counted in live: the region never ends */
        }
        rt_spin_unlock(&slots_lock);
    }
    return rc;
}

int __wrap_pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *a, unsigned count)
{
    int rc = __real_pthread_barrier_init(b, a, count);
    if (rc == 0) {
        rt_spin_lock(&slots_lock);
        int free_i = -1;
        for (int i = 0; i < MAX_BARRIERS; i++) {
            if (barriers[i].b == b) {
                free_i = i;
                break;
            }
            if (free_i < 0 && !barriers[i].b)
                free_i = i;
        }
        if (free_i >= 0)
            barriers[free_i].b = b, barriers[free_i].count = count;
        rt_spin_unlock(&slots_lock);
    }
    return rc;
}

int __wrap_pthread_barrier_wait(pthread_barrier_t *b)
{
    uint32_t t0 = rt_now_us();
    int rc = __real_pthread_barrier_wait(b);
    rt_slot *t = rt_self;
    if (!t)
        return rc;
    unsigned count = 0;         /* unknown: all threads of the phase (docs/scheduler.md §4) */
    rt_spin_lock(&slots_lock);
    for (int i = 0; i < MAX_BARRIERS; i++)
        if (barriers[i].b == b)
            count = barriers[i].count;
    rt_spin_unlock(&slots_lock);
    rt_call(t, SMAIT_CT_BARRIER, t0, rt_now_us(), (uintptr_t)b, true, count);
    return rc;
}

/* An OpenMP region of n team threads (rt_omp.c), in thread 0 before the
 * fork: a new region, unless a pthread region is open (then 0). Slots 1 …
 * n-1 are made here, in the program's order, not by the team's threads. */
unsigned rt_team_begin(int n)
{
    rt_spin_lock(&slots_lock);
    unsigned r = 0;
    if (live == 0) {
        r = new_region((uint32_t)n);
        for (int s = nslots; s < n && s < MAX_SLOTS; s++)
            rt_slot_new(s);
    }
    rt_spin_unlock(&slots_lock);
    return r;
}

/* Team thread `slot` begins its part of the region (catch_up); the caller
 * writes the spawn. */
rt_slot *rt_team_enter(int slot, unsigned r)
{
    if (slot >= MAX_SLOTS)
        rt_fatal("more than %d threads", MAX_SLOTS - 1);
    rt_spin_lock(&slots_lock);
    for (int s = nslots; s <= slot; s++)
        rt_slot_new(s);                 /* more threads than asked for */
    rt_slot *t = slots[slot];
    t->used_region = r;
    t->running = true;
    t->ended = false;
    t->depth = 0;
    t->pending = 0;
    rt_spin_unlock(&slots_lock);
    rt_self = t;
    rt_sched_begin(t);
    catch_up(t, r, rt_now_us());
    return t;
}

/* The team's real size, known in the region (thread 0, before its body). */
void rt_team_size(unsigned r, int n)
{
    region_n[r] = (uint32_t)n;
}

/* Its part has ended: the join is written when the slot is next used (or
 * the trace ends); the thread goes back to the OpenMP runtime's pool,
 * untraced until its next region. */
void rt_team_leave(rt_slot *t, uint32_t now)
{
    rt_sched_end(t);
    rt_self = NULL;
    rt_spin_lock(&slots_lock);
    t->join_pending = true;
    t->join_time = now;
    t->running = false;
    rt_spin_unlock(&slots_lock);
}

/* At exit: every trace that is not being written ends with end_trace (its
 * last region's join is the end of the trace). */
void rt_threads_finish(void)
{
    rt_spin_lock(&slots_lock);
    for (int i = 0; i < nslots; i++) {
        rt_slot *t = slots[i];
        if (t->running && t != rt_self) {
            fprintf(stderr, "smait: thread %d is still running at exit: its trace ends at its last flush\n", i);
            continue;
        }
        uint32_t now = rt_now_us();
        rt_unmodelled_write(t, now);
        rt_sched_end(t);
        rt_sched_write(t, now);
        rt_call(t, SMAIT_CT_END_TRACE, now, now, 0, false, 0);
        rt_flush(t);
    }
    rt_spin_unlock(&slots_lock);
}
