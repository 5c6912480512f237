/* rt_pthread_sync.c — recorded synchronisation of POSIX threads
 * (formats/SMAIT.md §5.1, docs/collector.md §4): mutexes, condition
 * variables, semaphores, reader-writer locks, spin locks, pthread_once and
 * raw futex system calls.
 *
 * Every number is taken so that it is atomic with the real operation: a
 * release takes its number (rt_sync_release_seq) while the caller still
 * excludes everyone it could hand over to (before the real unlock, signal or
 * post), an acquire reads the count (rt_sync_seq) once the real operation has
 * let it through (after the real lock or wait). So an acquire of seq s never
 * names a release that had not begun, and every release an acquire depends
 * on has a smaller or equal number.
 *
 * Only traced threads (rt_self set) count: a release numbered by a thread
 * without a trace would be one that no trace holds, and the replay would
 * wait for it for ever. What untraced threads do is counted as unmodelled.
 * The wrappers come from ld --wrap (smait-cc); rt_cxx.c points libstdc++'s
 * calls at them too. */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <semaphore.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt.h"

int __real_pthread_mutex_lock(pthread_mutex_t *);
int __real_pthread_mutex_trylock(pthread_mutex_t *);
int __real_pthread_mutex_timedlock(pthread_mutex_t *, const struct timespec *);
int __real_pthread_mutex_clocklock(pthread_mutex_t *, clockid_t, const struct timespec *);
int __real_pthread_mutex_unlock(pthread_mutex_t *);
int __real_pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
int __real_pthread_cond_timedwait(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
int __real_pthread_cond_clockwait(pthread_cond_t *, pthread_mutex_t *, clockid_t,
                                  const struct timespec *);
int __real_pthread_cond_signal(pthread_cond_t *);
int __real_pthread_cond_broadcast(pthread_cond_t *);
int __real_sem_init(sem_t *, int, unsigned);
sem_t *__real_sem_open(const char *, int, ...);
int __real_sem_post(sem_t *);
int __real_sem_wait(sem_t *);
int __real_sem_trywait(sem_t *);
int __real_sem_timedwait(sem_t *, const struct timespec *);
int __real_sem_clockwait(sem_t *, clockid_t, const struct timespec *);
int __real_pthread_rwlock_rdlock(pthread_rwlock_t *);
int __real_pthread_rwlock_wrlock(pthread_rwlock_t *);
int __real_pthread_rwlock_tryrdlock(pthread_rwlock_t *);
int __real_pthread_rwlock_trywrlock(pthread_rwlock_t *);
int __real_pthread_rwlock_timedrdlock(pthread_rwlock_t *, const struct timespec *);
int __real_pthread_rwlock_timedwrlock(pthread_rwlock_t *, const struct timespec *);
int __real_pthread_rwlock_clockrdlock(pthread_rwlock_t *, clockid_t, const struct timespec *);
int __real_pthread_rwlock_clockwrlock(pthread_rwlock_t *, clockid_t, const struct timespec *);
int __real_pthread_rwlock_unlock(pthread_rwlock_t *);
int __real_pthread_spin_lock(pthread_spinlock_t *);
int __real_pthread_spin_trylock(pthread_spinlock_t *);
int __real_pthread_spin_unlock(pthread_spinlock_t *);
int __real_pthread_once(pthread_once_t *, void (*)(void));
long __real_syscall(long, ...);

/* A semaphore's successful waits are counted under this tag on its address
 * (user addresses are below 2^47). */
#define SEM_WAITS(s) ((uint64_t)(uintptr_t)(s) | (1ull << 63))

static inline uint64_t key(const volatile void *p) { return (uintptr_t)p; }

static inline void untraced(void) { rt_unmodelled(NULL, SMAIT_UM_UNTRACED); }

static inline void section(rt_slot *t, unsigned type, const volatile void *lock, uint32_t seq,
                           unsigned kind, uint32_t start)
{
    rt_call4(t, type, start, rt_now_us(), key(lock), true, seq, kind, 0);
}

/* ---- mutexes: critical sections (06/07) with seq, kind 1 ---------------
 * A recursive mutex taken again by its holder is recorded only at its
 * outermost lock and unlock: glibc keeps the holder's depth in __count
 * (and the type in the low bits of __kind; the holder alone changes them). */
static inline bool mutex_nested(const pthread_mutex_t *m)
{
    return (m->__data.__kind & 3) == PTHREAD_MUTEX_RECURSIVE_NP && m->__data.__count > 1;
}

/* Would unlocking fail (EPERM)? Error-checking, recursive, robust and
 * priority mutexes refuse an unlock by a thread that does not hold them; a
 * number taken for it would be one that no end_critical carries. */
static bool mutex_not_mine(const pthread_mutex_t *m)
{
    int kind = m->__data.__kind;
    if ((kind & 3) != PTHREAD_MUTEX_RECURSIVE_NP && (kind & 3) != PTHREAD_MUTEX_ERRORCHECK_NP &&
        !(kind & 0x70))
        return false;
    return __atomic_load_n(&m->__data.__owner, __ATOMIC_RELAXED) != gettid();
}

static int mutex_locked(pthread_mutex_t *m, int rc, uint32_t t0)
{
    rt_slot *t = rt_self;
    if (rc == ETIMEDOUT) {
        rt_unmodelled(t, SMAIT_UM_TIMEOUT);
        return rc;
    }
    if (rc != 0 && rc != EOWNERDEAD)        /* EOWNERDEAD: held all the same */
        return rc;
    if (!t)
        untraced();
    else if (!mutex_nested(m))
        section(t, SMAIT_CT_BEGIN_CRITICAL, m, rt_sync_seq(key(m)), SMAIT_SK_MUTEX, t0);
    return rc;
}

int __wrap_pthread_mutex_lock(pthread_mutex_t *m)
{
    uint32_t t0 = rt_now_us();
    return mutex_locked(m, __real_pthread_mutex_lock(m), t0);
}

int __wrap_pthread_mutex_trylock(pthread_mutex_t *m)
{
    uint32_t t0 = rt_now_us();
    int rc = __real_pthread_mutex_trylock(m);
    return rc == EBUSY ? rc : mutex_locked(m, rc, t0);
}

int __wrap_pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *ts)
{
    uint32_t t0 = rt_now_us();
    return mutex_locked(m, __real_pthread_mutex_timedlock(m, ts), t0);
}

int __wrap_pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clk, const struct timespec *ts)
{
    uint32_t t0 = rt_now_us();
    return mutex_locked(m, __real_pthread_mutex_clocklock(m, clk, ts), t0);
}

int __wrap_pthread_mutex_unlock(pthread_mutex_t *m)
{
    rt_slot *t = rt_self;
    if (!t) {
        untraced();
        return __real_pthread_mutex_unlock(m);
    }
    if (mutex_nested(m) || mutex_not_mine(m))
        return __real_pthread_mutex_unlock(m);
    uint32_t t0 = rt_now_us();
    uint32_t r = rt_sync_release_seq(key(m));
    int rc = __real_pthread_mutex_unlock(m);
    section(t, SMAIT_CT_END_CRITICAL, m, r, SMAIT_SK_MUTEX, t0);
    return rc;
}

/* ---- condition variables: kind 4 ----------------------------------------
 * A wait ends its mutex's section (the number taken while the mutex is
 * still held), sleeps, and begins it again; if a signal or broadcast was
 * numbered meanwhile, the wake-up is an acquire of the first one numbered
 * after the wait began (it woke the thread or came before the one that
 * did). The mutex is taken again with seq 0: the unlocks between the wait
 * and the wake-up are ordered by the machine's scheduling, not by the
 * program (docs/collector.md §4.2). A wait that timed out consumed no
 * signal: no acquire, and it is counted. */
typedef struct cond_wait {
    rt_slot *t;
    uint32_t t0, c0;
} cond_wait;

static cond_wait cond_before(pthread_cond_t *c, pthread_mutex_t *m)
{
    cond_wait w = { rt_self, rt_now_us(), 0 };
    if (!w.t) {
        untraced();
        return w;
    }
    uint32_t r = rt_sync_release_seq(key(m));
    rt_call4(w.t, SMAIT_CT_END_CRITICAL, w.t0, w.t0, key(m), true, r, SMAIT_SK_MUTEX, 0);
    w.c0 = rt_sync_seq(key(c));
    return w;
}

static int cond_after(const cond_wait *w, pthread_cond_t *c, pthread_mutex_t *m, int rc)
{
    if (!w->t)
        return rc;
    if (rc == ETIMEDOUT) {
        rt_unmodelled(w->t, SMAIT_UM_TIMEOUT);
    } else {
        uint32_t n = rt_sync_seq(key(c));
        if (n != w->c0)
            rt_sync_acquire(w->t, key(c), w->c0 + 1, SMAIT_SK_COND, w->t0, rt_now_us());
    }
    /* The mutex is held again (whatever rc says: an error leaves it held). */
    section(w->t, SMAIT_CT_BEGIN_CRITICAL, m, 0, SMAIT_SK_MUTEX, w->t0);
    return rc;
}

int __wrap_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
    cond_wait w = cond_before(c, m);
    return cond_after(&w, c, m, __real_pthread_cond_wait(c, m));
}

int __wrap_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *ts)
{
    cond_wait w = cond_before(c, m);
    return cond_after(&w, c, m, __real_pthread_cond_timedwait(c, m, ts));
}

int __wrap_pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk,
                                  const struct timespec *ts)
{
    cond_wait w = cond_before(c, m);
    return cond_after(&w, c, m, __real_pthread_cond_clockwait(c, m, clk, ts));
}

static int cond_wake(pthread_cond_t *c, int (*real)(pthread_cond_t *))
{
    rt_slot *t = rt_self;
    if (!t) {
        untraced();
        return real(c);
    }
    uint32_t t0 = rt_now_us();
    uint32_t r = rt_sync_release_seq(key(c));
    int rc = real(c);
    rt_sync_release(t, key(c), r, SMAIT_SK_COND, t0, rt_now_us());
    return rc;
}

int __wrap_pthread_cond_signal(pthread_cond_t *c) { return cond_wake(c, __real_pthread_cond_signal); }
int __wrap_pthread_cond_broadcast(pthread_cond_t *c)
{
    return cond_wake(c, __real_pthread_cond_broadcast);
}

/* ---- semaphores: kind 5 ---------------------------------------------------
 * Posts are releases 1, 2, … of the semaphore. The m-th successful wait (in
 * the order the waits count themselves, after they return) found at least
 * m - k posts done, k = the initial value: it acquires post m - k. A
 * semaphore initialised again continues both counts, so its base is
 * k + waits - posts at that moment (base: k for a new one). Posts by
 * untraced threads are tokens no trace releases: they raise the base. The
 * bases live in a table of their own (claimed by compare-and-swap, never
 * moved); a semaphore the runtime did not see initialised (sem_init or
 * sem_open outside the traced code) has no base, and its waits are counted
 * as unmodelled. */
enum { SEM_TABLE = 4096 };
static struct sem_base {
    _Atomic uint64_t key;               /* address + 1, 0 = free */
    _Atomic int64_t base;
} sem_table[SEM_TABLE];

static struct sem_base *sem_find(const sem_t *s, bool add)
{
    uint64_t k = key(s) + 1;
    size_t i = (size_t)((k * 0x9E3779B97F4A7C15ull) >> 52) & (SEM_TABLE - 1);
    for (size_t n = 0; n < SEM_TABLE; n++, i = (i + 1) & (SEM_TABLE - 1)) {
        uint64_t have = atomic_load_explicit(&sem_table[i].key, memory_order_acquire);
        if (have == k)
            return &sem_table[i];
        if (have == 0) {
            if (!add)
                return NULL;
            uint64_t expected = 0;
            if (atomic_compare_exchange_strong(&sem_table[i].key, &expected, k) || expected == k)
                return &sem_table[i];
        }
    }
    return NULL;            /* full: such semaphores are counted as unmodelled */
}

static void sem_set_base(sem_t *s, int64_t value)
{
    struct sem_base *b = sem_find(s, true);
    if (b)
        atomic_store(&b->base, value + (int64_t)rt_sync_seq(SEM_WAITS(s)) -
                                   (int64_t)rt_sync_seq(key(s)));
}

int __wrap_sem_init(sem_t *s, int pshared, unsigned value)
{
    int rc = __real_sem_init(s, pshared, value);
    if (rc == 0)
        sem_set_base(s, value);
    return rc;
}

/* A named semaphore's base is its value when this process first opens it
 * (sem_open returns the same address for each open of a name). */
sem_t *__wrap_sem_open(const char *name, int oflag, ...)
{
    sem_t *s;
    if (oflag & O_CREAT) {
        va_list ap;
        va_start(ap, oflag);
        unsigned mode = va_arg(ap, unsigned);
        unsigned value = va_arg(ap, unsigned);
        va_end(ap);
        s = __real_sem_open(name, oflag, mode, value);
    } else {
        s = __real_sem_open(name, oflag);
    }
    int value;
    if (s != SEM_FAILED && !sem_find(s, false) && sem_getvalue(s, &value) == 0)
        sem_set_base(s, value);
    return s;
}

int __wrap_sem_post(sem_t *s)
{
    rt_slot *t = rt_self;
    if (!t) {
        untraced();
        struct sem_base *b = sem_find(s, false);
        if (b)
            atomic_fetch_add(&b->base, 1);
        return __real_sem_post(s);
    }
    uint32_t t0 = rt_now_us();
    uint32_t r = rt_sync_release_seq(key(s));
    int rc = __real_sem_post(s);
    /* Written even if the post failed: the number is taken, and a wait
     * for a number no trace holds would never end in the replay. */
    rt_sync_release(t, key(s), r, SMAIT_SK_SEM, t0, rt_now_us());
    return rc;
}

static int sem_waited(sem_t *s, int rc, uint32_t t0)
{
    rt_slot *t = rt_self;
    if (rc != 0) {
        if (errno == ETIMEDOUT)
            rt_unmodelled(t, SMAIT_UM_TIMEOUT);
        return rc;
    }
    int saved = errno;
    uint32_t m = rt_sync_release_seq(SEM_WAITS(s));
    struct sem_base *b = sem_find(s, false);
    if (!t) {
        untraced();
    } else if (!b) {
        rt_unmodelled(t, SMAIT_UM_OTHER);
    } else {
        int64_t seq = (int64_t)m - atomic_load(&b->base);
        if (seq > 0)
            rt_sync_acquire(t, key(s), (uint32_t)seq, SMAIT_SK_SEM, t0, rt_now_us());
    }
    errno = saved;
    return rc;
}

int __wrap_sem_wait(sem_t *s)
{
    uint32_t t0 = rt_now_us();
    return sem_waited(s, __real_sem_wait(s), t0);
}

int __wrap_sem_trywait(sem_t *s)
{
    uint32_t t0 = rt_now_us();
    return sem_waited(s, __real_sem_trywait(s), t0);
}

int __wrap_sem_timedwait(sem_t *s, const struct timespec *ts)
{
    uint32_t t0 = rt_now_us();
    return sem_waited(s, __real_sem_timedwait(s, ts), t0);
}

int __wrap_sem_clockwait(sem_t *s, clockid_t clk, const struct timespec *ts)
{
    uint32_t t0 = rt_now_us();
    return sem_waited(s, __real_sem_clockwait(s, clk, ts), t0);
}

/* ---- reader-writer locks: acquire/release, kind 3 ------------------------
 * Not critical sections: readers share the lock. Every unlock (reader's or
 * writer's) is a release; a lock, read or write, acquires all the releases
 * before it (a reader needs only the writers', but the count does not tell
 * them apart; the extra edges are to releases that really came first). */
static int rw_locked(pthread_rwlock_t *rw, int rc, uint32_t t0)
{
    rt_slot *t = rt_self;
    if (rc == ETIMEDOUT)
        rt_unmodelled(t, SMAIT_UM_TIMEOUT);
    if (rc != 0)
        return rc;
    if (!t)
        untraced();
    else
        rt_sync_acquire(t, key(rw), rt_sync_seq(key(rw)), SMAIT_SK_RWLOCK, t0, rt_now_us());
    return rc;
}

#define RW_LOCK(name, ...)                                                        \
    {                                                                             \
        uint32_t t0 = rt_now_us();                                                \
        return rw_locked(rw, __real_pthread_rwlock_##name(__VA_ARGS__), t0);      \
    }
int __wrap_pthread_rwlock_rdlock(pthread_rwlock_t *rw) RW_LOCK(rdlock, rw)
int __wrap_pthread_rwlock_wrlock(pthread_rwlock_t *rw) RW_LOCK(wrlock, rw)
int __wrap_pthread_rwlock_tryrdlock(pthread_rwlock_t *rw) RW_LOCK(tryrdlock, rw)
int __wrap_pthread_rwlock_trywrlock(pthread_rwlock_t *rw) RW_LOCK(trywrlock, rw)
int __wrap_pthread_rwlock_timedrdlock(pthread_rwlock_t *rw, const struct timespec *ts)
    RW_LOCK(timedrdlock, rw, ts)
int __wrap_pthread_rwlock_timedwrlock(pthread_rwlock_t *rw, const struct timespec *ts)
    RW_LOCK(timedwrlock, rw, ts)
int __wrap_pthread_rwlock_clockrdlock(pthread_rwlock_t *rw, clockid_t clk, const struct timespec *ts)
    RW_LOCK(clockrdlock, rw, clk, ts)
int __wrap_pthread_rwlock_clockwrlock(pthread_rwlock_t *rw, clockid_t clk, const struct timespec *ts)
    RW_LOCK(clockwrlock, rw, clk, ts)

int __wrap_pthread_rwlock_unlock(pthread_rwlock_t *rw)
{
    rt_slot *t = rt_self;
    if (!t) {
        untraced();
        return __real_pthread_rwlock_unlock(rw);
    }
    uint32_t t0 = rt_now_us();
    uint32_t r = rt_sync_release_seq(key(rw));
    int rc = __real_pthread_rwlock_unlock(rw);
    rt_sync_release(t, key(rw), r, SMAIT_SK_RWLOCK, t0, rt_now_us());
    return rc;
}

/* ---- spin locks: critical sections, kind 2 -------------------------------- */
static int spin_locked(pthread_spinlock_t *l, int rc, uint32_t t0)
{
    rt_slot *t = rt_self;
    if (rc != 0)
        return rc;
    if (!t)
        untraced();
    else
        section(t, SMAIT_CT_BEGIN_CRITICAL, l, rt_sync_seq(key(l)), SMAIT_SK_SPIN, t0);
    return rc;
}

int __wrap_pthread_spin_lock(pthread_spinlock_t *l)
{
    uint32_t t0 = rt_now_us();
    return spin_locked(l, __real_pthread_spin_lock(l), t0);
}

int __wrap_pthread_spin_trylock(pthread_spinlock_t *l)
{
    uint32_t t0 = rt_now_us();
    return spin_locked(l, __real_pthread_spin_trylock(l), t0);
}

int __wrap_pthread_spin_unlock(pthread_spinlock_t *l)
{
    rt_slot *t = rt_self;
    if (!t) {
        untraced();
        return __real_pthread_spin_unlock(l);
    }
    uint32_t t0 = rt_now_us();
    uint32_t r = rt_sync_release_seq(key(l));
    int rc = __real_pthread_spin_unlock(l);
    section(t, SMAIT_CT_END_CRITICAL, l, r, SMAIT_SK_SPIN, t0);
    return rc;
}

/* ---- one-time initialisation: kind 11 --------------------------------------
 * The end of the init routine is release 1 of the once object (numbered
 * before pthread_once lets the others through); a caller that did not run
 * it acquires that release. The routine takes no argument, so the runtime's
 * own routine finds the user's in thread-local variables (saved around a
 * nested pthread_once). Each thread records an object's acquire once (a
 * small per-thread cache): a pthread_once on a hot path makes one record. */
typedef struct once_call {
    void (*fn)(void);
    const void *obj;
    bool ran;
} once_call;
static _Thread_local once_call once_now __attribute__((tls_model("initial-exec")));

enum { ONCE_CACHE = 16 };
static _Thread_local struct {
    rt_slot *owner;
    const void *obj[ONCE_CACHE];
} once_seen __attribute__((tls_model("initial-exec")));

/* Does this thread have obj's release already (its own, or acquired)?
 * Notes it if not. */
static bool once_known(rt_slot *t, const void *obj)
{
    if (once_seen.owner != t) {
        memset(&once_seen, 0, sizeof once_seen);
        once_seen.owner = t;
    }
    unsigned h = (unsigned)((key(obj) * 0x9E3779B97F4A7C15ull) >> 60);
    if (once_seen.obj[h] == obj)
        return true;
    once_seen.obj[h] = obj;
    return false;
}

/* An acquire of release 1 of a one-time initialisation (pthread_once, a C++
 * guarded static) that another thread ran, unless this thread has it. */
void rt_once_acquire(rt_slot *t, const void *obj, uint32_t t0)
{
    if (!t || rt_sync_seq(key(obj)) == 0)
        return;                 /* run by an untraced thread: nothing to wait for */
    if (!once_known(t, obj))
        rt_sync_acquire(t, key(obj), 1, SMAIT_SK_ONCE, t0, rt_now_us());
}

/* The end of a one-time initialisation on obj (before others are let through). */
void rt_once_release(const void *obj, uint32_t t0)
{
    rt_slot *t = rt_self;
    if (!t) {
        untraced();
        return;
    }
    uint32_t r = rt_sync_release_seq(key(obj));
    once_known(t, obj);
    rt_sync_release(t, key(obj), r, SMAIT_SK_ONCE, t0, rt_now_us());
}

static void once_routine(void)
{
    void (*fn)(void) = once_now.fn;
    const void *obj = once_now.obj;
    uint32_t t0 = rt_now_us();
    fn();
    once_now.ran = true;
    rt_once_release(obj, t0);
}

int __wrap_pthread_once(pthread_once_t *o, void (*fn)(void))
{
    uint32_t t0 = rt_now_us();
    once_call saved = once_now;
    once_now.fn = fn;
    once_now.obj = o;
    once_now.ran = false;
    int rc = __real_pthread_once(o, once_routine);
    bool ran = once_now.ran;
    once_now = saved;
    if (rc == 0 && !ran)
        rt_once_acquire(rt_self, o, t0);
    return rc;
}

/* ---- raw futex system calls -------------------------------------------------
 * A futex wait only sleeps: what it waited for, the thread learns from the
 * loads after it. A wake hands nothing over by itself either; the word's
 * new value does. When that value was published by a recorded atomic (the
 * word has releases: an atomic store or read-modify-write with release
 * semantics, as in libstdc++'s std::atomic::wait/notify, std::barrier,
 * std::counting_semaphore), the atomics carry the order. A wake on a word
 * with no recorded release, and every other futex operation (requeue,
 * wake-op, priority inheritance), is counted as unmodelled. */
long __wrap_syscall(long nr, ...)
{
    /* Six arguments, as the kernel takes (and as glibc's syscall reads). */
    va_list ap;
    va_start(ap, nr);
    long a1 = va_arg(ap, long), a2 = va_arg(ap, long), a3 = va_arg(ap, long);
    long a4 = va_arg(ap, long), a5 = va_arg(ap, long), a6 = va_arg(ap, long);
    va_end(ap);
    if (nr == SYS_futex) {
        int op = (int)a2 & FUTEX_CMD_MASK;
        bool wait = op == FUTEX_WAIT || op == FUTEX_WAIT_BITSET;
        bool wake = op == FUTEX_WAKE || op == FUTEX_WAKE_BITSET;
        if (!wait && !(wake && rt_sync_seq((uint64_t)a1) != 0))
            rt_unmodelled(rt_self, SMAIT_UM_FUTEX);
    }
    return __real_syscall(nr, a1, a2, a3, a4, a5, a6);
}
