/* rt_atomic.c — the calls around atomic instructions that synchronise
 * (docs/collector.md §3, formats/SMAIT.md §5.1).
 *
 * The version of an address is the count of its releases (rt_sync.c). A
 * release takes the next number, an acquire records the number it saw; both
 * must be taken atomically with the instruction itself, or a consumer could
 * record a version older than the value it read. So every bracketed atomic
 * holds a spin lock for its address across the instruction: one of
 * ATOMIC_STRIPES locks, chosen by a hash of the address (two addresses may
 * share a lock; that only serialises them). Atomics that do not synchronise
 * (relaxed) take no lock and make no call records.
 *
 * Order of the records: acquire, access, release. The acquire comes first so
 * that the replay lets the access (the load that read the released value)
 * happen only after the release; the release comes after the access so that
 * whoever acquires it finds the store already replayed. */
#include <sched.h>
#include <string.h>

#include "rt.h"

#define HOT __attribute__((hot, visibility("default")))

enum { ATOMIC_STRIPES = 1024 };

static struct {
    atomic_flag f;
} __attribute__((aligned(64))) stripes[ATOMIC_STRIPES];

/* Versions this thread has acquired or released last, per address (a small
 * direct-mapped cache): an acquire that sees the version it already has
 * writes nothing, so a spin loop makes one record, not one per turn. Per
 * thread and trace slot: a thread that writes another trace (an OpenMP
 * worker in a later region) starts afresh. */
typedef struct acq_cache {
    rt_slot *owner;
    uint64_t addr[RT_ACQ_CACHE];
    uint32_t seq[RT_ACQ_CACHE];
} acq_cache;
static _Thread_local acq_cache cache __attribute__((tls_model("initial-exec")));

static inline unsigned hash(uintptr_t a, unsigned bits)
{
    return (unsigned)(((uint64_t)a * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

static inline atomic_flag *stripe(const void *addr)
{
    return &stripes[hash((uintptr_t)addr, 10)].f;
}

void rt_atomic_locks_after_fork(void)
{
    for (unsigned i = 0; i < ATOMIC_STRIPES; i++)
        atomic_flag_clear_explicit(&stripes[i].f, memory_order_relaxed);
}

HOT void __smait_atomic_begin(const void *addr)
{
    atomic_flag *f = stripe(addr);
    while (atomic_flag_test_and_set_explicit(f, memory_order_acquire))
        sched_yield();
}

HOT void __smait_atomic_end(const void *addr, uint32_t f1, uint32_t mode)
{
    rt_slot *t = rt_self;
    uint64_t obj = (uintptr_t)addr;
    bool ok = mode & RT_AT_OK;
    bool acq = mode & (ok ? RT_AT_ACQ_OK : RT_AT_ACQ_FAIL);
    bool rel = ok && (mode & RT_AT_REL);
    /* The numbers under the lock; the records (which may flush the buffer
     * to its file) after it. */
    uint32_t s = 0, r = 0;
    if (t && acq)
        s = rt_sync_seq(obj);
    if (t && rel)
        r = rt_sync_release_seq(obj);
    atomic_flag_clear_explicit(stripe(addr), memory_order_release);
    if (!t) {
        /* An untraced thread: its accesses are not recorded, and a release
         * numbered here would be one no trace holds. */
        if (rel)
            rt_unmodelled(NULL, SMAIT_UM_UNTRACED);
        return;
    }
    if (cache.owner != t) {
        memset(&cache, 0, sizeof cache);
        cache.owner = t;
    }
    unsigned c = hash(obj, 6);
    if (s != 0 && !(cache.addr[c] == obj && cache.seq[c] == s)) {
        uint32_t now = rt_now_us();
        rt_sync_acquire(t, obj, s, SMAIT_SK_ATOMIC, now, now);
        cache.addr[c] = obj;
        cache.seq[c] = s;
    }
    if (!(mode & RT_AT_NO_ACCESS))
        __smait_mem(f1, addr);
    if (rel) {
        uint32_t now = rt_now_us();
        rt_sync_release(t, obj, r, SMAIT_SK_ATOMIC, now, now);
        cache.addr[c] = obj;        /* its own release needs no acquire */
        cache.seq[c] = r;
    }
}

HOT void __smait_unmodelled(uint32_t what)
{
    rt_unmodelled(rt_self, what);
}
