/* scheduler_sync.h — the scheduler's synchronisation keys: for each (key
 * space, key), who holds it (sections, docs/scheduler.md §6) and which of its
 * releases the replay has processed (recorded synchronisation, §6.1).
 *
 * The releases of a key are numbered 1, 2, … in the order they really
 * happened (formats/SMAIT.md §5.1); numbers are 32-bit and compared modulo
 * 2^32. A key keeps its watermark `done` — releases 1..done are all
 * replayed — and the releases beyond it that were replayed out of order, in
 * a min-heap by distance from done (a release joins done when every number
 * below it has come). Memory grows with the releases replayed out of order,
 * never with the trace length. */
#ifndef DSM_COMMON_SCHEDULER_SYNC_H
#define DSM_COMMON_SCHEDULER_SYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Three separate key spaces: critical sections (06/07), ordered sections
 * (04/05) and objects (acquire/release, 0x20/0x21). */
enum { SYNC_SPACE_CRITICAL = 0, SYNC_SPACE_ORDERED = 1, SYNC_SPACE_OBJECT = 2 };

static inline uint64_t sync_key_of(unsigned space, uint32_t addr)
{
    return (uint64_t)space << 32 | addr;
}

/* A release replayed before one of the numbers below it. */
typedef struct sync_release {
    uint32_t seq;
    int thread;
    uint64_t index;             /* its record index, for messages */
} sync_release;

typedef struct sync_key {
    uint64_t key;
    bool used;
    int holder;                 /* sections: the thread that holds the lock, -1 = free */
    uint32_t done;              /* releases 1..done replayed (modulo 2^32) */
    uint32_t waiting;           /* threads blocked in an acquire of this key */
    uint32_t npending, cap;
    sync_release *pending;      /* min-heap by seq - done */
} sync_key;

typedef struct sync_table {
    sync_key *k;
    size_t cap, used;
} sync_table;

/* The key's entry; NULL when it has none and create is false. Entries move
 * when the table grows (create), so a pointer is valid until the next create. */
sync_key *sync_find(sync_table *t, uint64_t key, bool create);
void sync_table_free(sync_table *t);

/* Releases 1..seq of k are all replayed. seq 0 waits for nothing; k NULL is
 * a key without any release replayed. */
static inline bool sync_ready(const sync_key *k, uint32_t seq)
{
    uint32_t done = k ? k->done : 0;
    return seq == 0 || (uint32_t)(done - seq) < 0x80000000u;
}

/* Release r of k is replayed (by thread, at record index). A number that is
 * already replayed is handed to dup and otherwise ignored; dup sees the
 * release met again (the current one, or one replayed out of order before
 * with the same number). Returns true when done moved forward. */
typedef void sync_dup_fn(void *ctx, const sync_release *again);
bool sync_mark(sync_key *k, uint32_t r, int thread, uint64_t index, sync_dup_fn *dup, void *ctx);

/* Count releases 1..seq as replayed (--lenient gives up waiting for them);
 * releases replayed out of order up to seq are absorbed. */
void sync_force(sync_key *k, uint32_t seq);

/* "releases 1..5 replayed", "release 1 replayed", "no release replayed",
 * with ", 2 later ones out of order" when some are pending. */
void sync_done_text(const sync_key *k, char *buf, size_t n);

#endif
