/* rt_atomic.c — the calls around atomic instructions that synchronise, and
 * around fences (docs/collector.md §3, formats/SMAIT.md §5.1).
 *
 * The version of an address is the count of its releases (rt_sync.c). A
 * release takes the next number, an acquire records the number it saw; both
 * must be taken atomically with the instruction itself, or a consumer could
 * record a version older than the value it read. So every bracketed atomic
 * holds a spin lock for its address across the instruction: one of
 * ATOMIC_STRIPES locks, chosen by a hash of the address (two addresses may
 * share a lock; that only serialises them).
 *
 * Order of the records: acquire, access, release. The acquire comes first so
 * that the replay lets the access (the load that read the released value)
 * happen only after the release; the release comes after the access so that
 * whoever acquires it finds the store already replayed.
 *
 * Fences (C11 7.17.4, [atomics.fences]). A release fence F makes every later
 * atomic write W of its thread carry F's release: whoever reads W (or the
 * release sequence W would head) with an acquire operation, or with a
 * relaxed read followed by an acquire fence, synchronises with F. So after a
 * release fence every write of the thread that is not a release already —
 * a relaxed store, RMW or cmpxchg that succeeded, an acquire-only RMW — is
 * numbered as a release of its object, under its lock (a release record
 * publishes every earlier record of the thread, the accesses before F
 * among them). Only the first such write of an object after each release
 * fence needs a number: a later write W2 of the same object by the thread
 * is read only by someone whose count already holds the first one's (the
 * first was numbered under the lock before W2 was made, and whoever reads
 * W2 reads the count under that lock after reading W2: locking first would
 * make its read happen before W2), so the replay orders it after F too.
 *
 * An acquire fence B makes every atomic read R before it (since the
 * thread's last acquire fence) acquire what R read: the release it read
 * from, or the release heading the release sequence it read from, or the
 * release fence before the write it read. The relaxed reads note their
 * objects here (up to RT_FENCE_READS of them); B reads each one's count
 * under its lock and acquires it, as an acquire load would. The count read
 * at B holds the release R read, by the argument above (had B's lock come
 * before the write's, R would have happened before the write it read), and
 * may hold releases made between R and B, which really came before B too
 * (the stronger edge, as everywhere, docs/collector.md §4.2). The acquire
 * record goes before the access record of the last read of the object — an
 * acquire load's place: the replay puts the read that carried the value
 * after the release, as it was — when the records since it are still in
 * the buffer and hold no call record (nothing of the thread that another
 * thread could wait for comes between, so moving the acquire back cannot
 * make the replay wait in a circle); otherwise at B. More objects than the
 * set holds are counted as an unmodelled fence. */
#include <sched.h>
#include <string.h>

#include "rt.h"

#define HOT __attribute__((hot, visibility("default")))

enum { ATOMIC_STRIPES = 1024, READ_BITS = 7, READ_INDEX = 1 << READ_BITS, INSERT_REACH = 4096 };
_Static_assert(READ_INDEX >= 2 * RT_FENCE_READS && RT_FENCE_READS < 256, "the read set's index");
#define NO_POS UINT64_MAX

static struct {
    atomic_flag f;
} __attribute__((aligned(64))) stripes[ATOMIC_STRIPES];

/* A thread's state, per thread and trace slot (a thread that writes another
 * trace starts afresh):
 * - the versions it has acquired or released last, per address (a small
 *   direct-mapped cache): an acquire that sees the version it already has
 *   writes nothing, so a spin loop makes one record, not one per turn; and
 *   the release fence after which it last released the address (relgen);
 * - its release fences so far (fences), and whether it made one in this
 *   phase (fenced: its writes are releases);
 * - the objects it read with relaxed atomics since its last acquire fence,
 *   in the order first read, with the buffer position of the last read's
 *   access record (its index among the slot's records; NO_POS: none).
 * The fence state lasts one phase (phase: the slot's phases when it began):
 * the spawn or join that begins the next one orders everything before it
 * for every thread (docs/scheduler.md §4), fences included, so an OpenMP
 * worker's flush in one region does not make its atomic writes in the next
 * ones releases. */
typedef struct atomic_state {
    rt_slot *owner;
    uint32_t phase;
    uint64_t addr[RT_ACQ_CACHE];
    uint32_t seq[RT_ACQ_CACHE];
    uint64_t relgen[RT_ACQ_CACHE];
    uint64_t fences;
    bool fenced;
    unsigned nread, last;
    bool overflow;
    struct {
        uint64_t obj, pos;
    } read[RT_FENCE_READS];
    uint8_t index[READ_INDEX];          /* by hash of the object: read[] index + 1; 0 free */
} atomic_state;
static _Thread_local atomic_state state __attribute__((tls_model("initial-exec")));
/* Whether any thread has made a release fence: until one does, no relaxed
 * write is a release, and __smait_relaxed_begin looks no further. A thread
 * that made one reads its own store. */
static atomic_bool any_release_fence;
/* Whether the program has acquire fences (a module's constructor says so,
 * before main): only then are relaxed reads noted. A thread that read
 * relaxed before (a constructor that ran earlier, a module loaded later by
 * dlopen) counts its next acquire fence as unmodelled. */
static atomic_bool acquire_fences;
static _Thread_local bool reads_unnoted __attribute__((tls_model("initial-exec")));

void __smait_acquire_fences(void)
{
    atomic_store_explicit(&acquire_fences, true, memory_order_relaxed);
}

static inline unsigned hash(uintptr_t a, unsigned bits)
{
    return (unsigned)(((uint64_t)a * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

static inline atomic_flag *stripe(const void *addr)
{
    return &stripes[hash((uintptr_t)addr, 10)].f;
}

static inline void lock(const void *addr)
{
    atomic_flag *f = stripe(addr);
    while (atomic_flag_test_and_set_explicit(f, memory_order_acquire))
        sched_yield();
}

static inline void unlock(const void *addr)
{
    atomic_flag_clear_explicit(stripe(addr), memory_order_release);
}

void rt_atomic_locks_after_fork(void)
{
    for (unsigned i = 0; i < ATOMIC_STRIPES; i++)
        atomic_flag_clear_explicit(&stripes[i].f, memory_order_relaxed);
}

static inline void reads_clear(atomic_state *st)
{
    st->nread = 0;
    st->overflow = false;
    memset(st->index, 0, sizeof st->index);
}

static inline atomic_state *state_of(rt_slot *t)
{
    atomic_state *st = &state;
    if (__builtin_expect(st->owner != t, 0)) {
        memset(st, 0, sizeof *st);
        st->owner = t;
        st->phase = t ? t->phases : 0;
    } else if (t && __builtin_expect(st->phase != t->phases, 0)) {
        st->phase = t->phases;
        st->fenced = false;
        reads_clear(st);
    }
    return st;
}

/* The cache entry of obj: slot c now holds version seq of obj; released:
 * by this thread, after its latest release fence. */
static inline void cache_put(atomic_state *st, unsigned c, uint64_t obj, uint32_t seq, bool released)
{
    if (st->addr[c] != obj)
        st->relgen[c] = 0;
    st->addr[c] = obj;
    st->seq[c] = seq;
    if (released)
        st->relgen[c] = st->fences;
}

/* Whether a write of obj now has to be numbered as a release because of a
 * release fence: the thread made one, and has not released obj since. */
static inline bool fence_release(const atomic_state *st, uint64_t obj)
{
    unsigned c = hash(obj, 6);
    return st->fenced && !(st->addr[c] == obj && st->relgen[c] == st->fences);
}

/* The index among t's records of the access record just written for obj
 * (f1), or NO_POS when it was not written (level 1, detail off). */
static inline uint64_t last_pos(const rt_slot *t, uint64_t obj, uint32_t f1, uint32_t mode)
{
    if (mode & RT_AT_NO_ACCESS || t->cur == t->buf)
        return NO_POS;
    const rt_ent *e = t->cur - 1;
    if (e->f1 != f1 || e->v != obj || !e->fold)
        return NO_POS;
    return t->records + (uint64_t)(e - t->buf);
}

/* The access record of a relaxed atomic (__smait_mem's, inline); its index
 * among t's records, or NO_POS when it is not written (detail off). */
static inline uint64_t relaxed_record(rt_slot *t, uint32_t f1, uint64_t obj)
{
    if (__builtin_expect(t->cur < t->lim, 1)) {
        rt_ent *e = t->cur++;
        e->f1 = f1;
        e->fold = 1;
        e->v = obj;
        return t->records + (uint64_t)(e - t->buf);
    }
    rt_slow_mem(t, f1, obj, 1);
    return last_pos(t, obj, f1, 0);
}

/* A relaxed read of obj (its access record at pos): noted for the next
 * acquire fence. */
static inline void note_read(atomic_state *st, uint64_t obj, uint64_t pos)
{
    if (st->nread && st->read[st->last].obj == obj) {
        st->read[st->last].pos = pos;
        return;
    }
    unsigned h = hash(obj, READ_BITS);
    for (;; h = (h + 1) & (READ_INDEX - 1)) {
        unsigned i = st->index[h];
        if (i == 0)
            break;
        if (st->read[i - 1].obj == obj) {
            st->last = i - 1;
            st->read[i - 1].pos = pos;
            return;
        }
    }
    if (st->nread == RT_FENCE_READS) {
        st->overflow = true;
        return;
    }
    st->index[h] = (uint8_t)(st->nread + 1);
    st->read[st->nread].obj = obj;
    st->read[st->nread].pos = pos;
    st->last = st->nread++;
}

/* A relaxed read of obj by t (its access record at pos) for the next
 * acquire fence, when the program has acquire fences. */
static void relaxed_read(rt_slot *t, uint64_t obj, uint64_t pos)
{
    if (!atomic_load_explicit(&acquire_fences, memory_order_relaxed)) {
        if (!reads_unnoted)
            reads_unnoted = true;
        return;
    }
    note_read(state_of(t), obj, pos);
}

HOT void __smait_atomic_begin(const void *addr)
{
    lock(addr);
}

HOT void __smait_atomic_end(const void *addr, uint32_t f1, uint32_t mode)
{
    rt_slot *t = rt_self;
    atomic_state *st = state_of(t);
    uint64_t obj = (uintptr_t)addr;
    bool ok = mode & RT_AT_OK;
    bool acq = mode & (ok ? RT_AT_ACQ_OK : RT_AT_ACQ_FAIL);
    bool rel = ok && ((mode & RT_AT_REL) || ((mode & RT_AT_WRITES) && fence_release(st, obj)));
    /* The numbers under the lock; the records (which may flush the buffer
     * to its file) after it. */
    uint32_t s = 0, r = 0;
    if (t && acq)
        s = rt_sync_seq(obj);
    if (t && rel)
        r = rt_sync_release_seq(obj);
    unlock(addr);
    if (!t) {
        /* An untraced thread: its accesses are not recorded, and a release
         * numbered here would be one no trace holds. */
        if (rel)
            rt_unmodelled(NULL, SMAIT_UM_UNTRACED);
        return;
    }
    unsigned c = hash(obj, 6);
    if (s != 0 && !(st->addr[c] == obj && st->seq[c] == s)) {
        uint32_t now = rt_now_us();
        rt_sync_acquire(t, obj, s, SMAIT_SK_ATOMIC, now, now);
        cache_put(st, c, obj, s, false);
    }
    if (!(mode & RT_AT_NO_ACCESS))
        __smait_mem(f1, addr);
    if ((mode & RT_AT_READS) && !acq)
        relaxed_read(t, obj, last_pos(t, obj, f1, mode));  /* a read that acquires nothing */
    if (rel) {
        uint32_t now = rt_now_us();
        rt_sync_release(t, obj, r, SMAIT_SK_ATOMIC, now, now);
        cache_put(st, c, obj, r, true);        /* its own release needs no acquire */
    }
}

HOT uint32_t __smait_relaxed_begin(const void *addr)
{
    if (__builtin_expect(!atomic_load_explicit(&any_release_fence, memory_order_relaxed), 1))
        return 0;
    rt_slot *t = rt_self;
    atomic_state *st = state_of(t);
    if (__builtin_expect(!st->fenced, 1) || !fence_release(st, (uintptr_t)addr))
        return 0;
    if (!t) {
        rt_unmodelled(NULL, SMAIT_UM_UNTRACED);         /* a release no trace holds */
        return 0;
    }
    lock(addr);
    return RT_AT_LOCKED;
}

static __attribute__((noinline)) void relaxed_end_slow(rt_slot *t, uint64_t obj, uint32_t f1, uint32_t mode)
{
    uint32_t r = 0;
    bool rel = (mode & RT_AT_LOCKED) && (mode & RT_AT_OK) && (mode & RT_AT_WRITES);
    if (mode & RT_AT_LOCKED) {
        if (rel)
            r = rt_sync_release_seq(obj);
        unlock((const void *)(uintptr_t)obj);
    }
    if (!t)
        return;
    uint64_t pos = mode & RT_AT_NO_ACCESS ? NO_POS : relaxed_record(t, f1, obj);
    if (mode & RT_AT_READS)
        relaxed_read(t, obj, pos);
    if (rel) {
        uint32_t now = rt_now_us();
        rt_sync_release(t, obj, r, SMAIT_SK_ATOMIC, now, now);
        cache_put(state_of(t), hash(obj, 6), obj, r, true);
    }
}

/* The common case inline: no release, the record fits the buffer, and no
 * read to note unless the program has acquire fences. */
HOT void __smait_relaxed_end(const void *addr, uint32_t f1, uint32_t mode)
{
    rt_slot *t = rt_self;
    uint64_t obj = (uintptr_t)addr;
    if (__builtin_expect(t != NULL && !(mode & (RT_AT_LOCKED | RT_AT_NO_ACCESS)) && t->cur < t->lim, 1)) {
        rt_ent *e = t->cur++;
        e->f1 = f1;
        e->fold = 1;
        e->v = obj;
        if (mode & RT_AT_READS)
            relaxed_read(t, obj, t->records + (uint64_t)(e - t->buf));
        return;
    }
    relaxed_end_slow(t, obj, f1, mode);
}

/* An acquire fence of traced thread t: an acquire of each object read
 * relaxed since the last one, at its last read or here. */
static void fence_acquire(rt_slot *t, atomic_state *st)
{
    struct {
        uint64_t obj;
        uint32_t seq;
        size_t at;              /* buffer index to put it before; SIZE_MAX: here */
    } acq[RT_FENCE_READS];
    unsigned n = 0;
    size_t used = (size_t)(t->cur - t->buf), lowest = used;
    for (unsigned i = 0; i < st->nread; i++) {
        uint64_t obj = st->read[i].obj, pos = st->read[i].pos;
        lock((const void *)(uintptr_t)obj);
        uint32_t s = rt_sync_seq(obj);
        unlock((const void *)(uintptr_t)obj);
        unsigned c = hash(obj, 6);
        if (s == 0 || (st->addr[c] == obj && st->seq[c] == s))
            continue;
        cache_put(st, c, obj, s, false);
        size_t at = SIZE_MAX;
        if (pos != NO_POS && pos >= t->records && pos - t->records < used &&
            used - (pos - t->records) <= INSERT_REACH) {
            at = (size_t)(pos - t->records);
            if (at < lowest)
                lowest = at;
        }
        acq[n].obj = obj;
        acq[n].seq = s;
        acq[n++].at = at;
    }
    /* Nothing another thread could wait for may come between a read and
     * its acquire moved back to it: only records after the last call
     * record take one. */
    size_t floor = lowest;
    for (size_t i = used; i > lowest; i--)
        if (smait_classify(t->buf[i - 1].f1) == SMAIT_CALL_PART) {
            floor = i;
            break;
        }
    uint32_t now = rt_now_us();
    /* Highest position first, so that the lower ones stay where they were. */
    for (;;) {
        unsigned best = n;
        for (unsigned i = 0; i < n; i++)
            if (acq[i].at != SIZE_MAX && acq[i].at >= floor && (best == n || acq[i].at > acq[best].at))
                best = i;
        if (best == n)
            break;
        size_t at = acq[best].at;
        acq[best].at = SIZE_MAX;        /* done, or left for here */
        if (rt_call4_before(t, at, SMAIT_CT_ACQUIRE, now, now, acq[best].obj, true, acq[best].seq,
                            SMAIT_SK_ATOMIC, 0))
            acq[best].seq = 0;
    }
    for (unsigned i = 0; i < n; i++)
        if (acq[i].seq)
            rt_sync_acquire(t, acq[i].obj, acq[i].seq, SMAIT_SK_ATOMIC, now, now);
    if (st->overflow || reads_unnoted)
        rt_unmodelled(t, SMAIT_UM_FENCE);
    reads_unnoted = false;
}

HOT void __smait_fence(uint32_t kind)
{
    rt_slot *t = rt_self;
    atomic_state *st = state_of(t);
    if (kind & RT_FENCE_ACQ) {
        if (t)
            fence_acquire(t, st);
        reads_clear(st);
    }
    if (kind & RT_FENCE_REL) {
        st->fences++;
        st->fenced = true;
        if (!atomic_load_explicit(&any_release_fence, memory_order_relaxed))
            atomic_store_explicit(&any_release_fence, true, memory_order_relaxed);
    }
}

HOT void __smait_unmodelled(uint32_t what)
{
    rt_unmodelled(rt_self, what);
}
