/* rt_sync.c — release counts of synchronisation objects, and the records of
 * recorded synchronisation (formats/SMAIT.md §5.1).
 *
 * The counts live in one open-addressing table keyed by the object's
 * unfolded address, reserved once (virtual memory; only touched pages cost)
 * and never moved, so lookups need no lock: a slot's key is claimed with a
 * compare-and-swap and then never changes. An object whose memory is reused
 * by another object keeps counting, which is harmless: numbers only have to
 * grow in the order releases really happen. */
#include <stdlib.h>
#include <sys/mman.h>

#include "rt.h"

enum { TABLE_BITS = 22 };                  /* 4 M objects, 64 MiB reserved */
#define TABLE_SIZE ((size_t)1 << TABLE_BITS)

typedef struct sync_slot {
    _Atomic uint64_t key;                  /* address + 1; 0 = free */
    _Atomic uint32_t count;
    uint32_t pad;
} sync_slot;

static sync_slot *table;
static atomic_flag table_once = ATOMIC_FLAG_INIT;
static _Atomic(sync_slot *) table_ready;
static _Atomic uint64_t um_total[SMAIT_UM_COUNT];

static sync_slot *get_table(void)
{
    sync_slot *t = atomic_load_explicit(&table_ready, memory_order_acquire);
    if (t)
        return t;
    rt_spin_lock(&table_once);
    if (!table) {
        void *p = mmap(NULL, TABLE_SIZE * sizeof(sync_slot), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            rt_fatal("cannot reserve the synchronisation table");
        table = p;
        atomic_store_explicit(&table_ready, table, memory_order_release);
    }
    rt_spin_unlock(&table_once);
    return table;
}

static sync_slot *slot_of(uint64_t obj)
{
    sync_slot *t = get_table();
    uint64_t key = obj + 1;
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - TABLE_BITS));
    for (size_t probes = 0; probes < TABLE_SIZE; probes++, i = (i + 1) & (TABLE_SIZE - 1)) {
        uint64_t k = atomic_load_explicit(&t[i].key, memory_order_acquire);
        if (k == key)
            return &t[i];
        if (k == 0) {
            uint64_t expected = 0;
            if (atomic_compare_exchange_strong(&t[i].key, &expected, key) || expected == key)
                return &t[i];
        }
    }
    rt_fatal("more than %zu synchronisation objects", TABLE_SIZE);
}

uint32_t rt_sync_release_seq(uint64_t obj)
{
    return atomic_fetch_add_explicit(&slot_of(obj)->count, 1, memory_order_acq_rel) + 1;
}

uint32_t rt_sync_seq(uint64_t obj)
{
    return atomic_load_explicit(&slot_of(obj)->count, memory_order_acquire);
}

void rt_sync_acquire(rt_slot *t, uint64_t obj, uint32_t seq, unsigned kind,
                     uint32_t start, uint32_t end)
{
    rt_call4(t, SMAIT_CT_ACQUIRE, start, end, obj, true, seq, kind, 0);
}

void rt_sync_release(rt_slot *t, uint64_t obj, uint32_t seq, unsigned kind,
                     uint32_t start, uint32_t end)
{
    rt_call4(t, SMAIT_CT_RELEASE, start, end, obj, true, seq, kind, 0);
}

void rt_unmodelled(rt_slot *t, unsigned what)
{
    if (what >= SMAIT_UM_COUNT)
        what = SMAIT_UM_OTHER;
    atomic_fetch_add_explicit(&um_total[what], 1, memory_order_relaxed);
    if (t)
        t->unmodelled[what]++;
}

void rt_unmodelled_write(rt_slot *t, uint32_t now)
{
    for (unsigned w = 1; w < SMAIT_UM_COUNT; w++) {
        uint64_t n = t->unmodelled[w];
        if (n)
            rt_call4(t, SMAIT_CT_UNMODELLED, now, now, w, false,
                     n > UINT32_MAX ? UINT32_MAX : (uint32_t)n, 0, 0);
        t->unmodelled[w] = 0;
    }
}

void rt_unmodelled_summary(FILE *f)
{
    static const char *const what[SMAIT_UM_COUNT] = {
        [SMAIT_UM_FUTEX] = "raw futex system calls",
        [SMAIT_UM_TIMEOUT] = "timed waits that timed out",
        [SMAIT_UM_FENCE] = "acquire fences after relaxed reads the collector could not note",
        [SMAIT_UM_ORDERING] = "atomic operations with an ordering not recorded",
        [SMAIT_UM_UNTRACED] = "synchronisations by untraced threads",
        [SMAIT_UM_OMP] = "OpenMP constructs not recorded",
        [SMAIT_UM_OTHER] = "other synchronisations not recorded",
    };
    for (unsigned w = 1; w < SMAIT_UM_COUNT; w++) {
        uint64_t n = atomic_load_explicit(&um_total[w], memory_order_relaxed);
        if (n)
            fprintf(f, "smait: warning: %llu %s: the analysis may not replay their order\n",
                    (unsigned long long)n, what[w]);
    }
}
