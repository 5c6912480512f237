/* directory.h — the homes' full-map directory (docs/cdat-protocol.md): per line, the
 * home's view of it (state and recorded holders), which may be stale.
 *
 * A holder is a "slot": global processor p (0..127) is slot p; the
 * interconnect cache of node n (docs/cdat-protocol.md §6) is slot DIR_ICC_SLOT + n. I/O
 * processors never hold lines. Entries live in an open-addressing hash table
 * keyed by line number, created on a line's first request, so memory grows
 * with the lines that missed somewhere, not with the address space or the
 * trace length. */
#ifndef DSM_CDAT_DIRECTORY_H
#define DSM_CDAT_DIRECTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { DIR_ICC_SLOT = 128, DIR_SLOTS = 160 };

typedef struct holder_set { uint64_t w[3]; } holder_set;

static inline bool hs_has(const holder_set *h, unsigned s) { return h->w[s >> 6] >> (s & 63) & 1; }
static inline void hs_add(holder_set *h, unsigned s) { h->w[s >> 6] |= 1ull << (s & 63); }
static inline void hs_del(holder_set *h, unsigned s) { h->w[s >> 6] &= ~(1ull << (s & 63)); }
static inline bool hs_empty(const holder_set *h) { return !(h->w[0] | h->w[1] | h->w[2]); }
static inline void hs_clear(holder_set *h) { h->w[0] = h->w[1] = h->w[2] = 0; }
static inline unsigned hs_count(const holder_set *h)
{
    return (unsigned)(__builtin_popcountll(h->w[0]) + __builtin_popcountll(h->w[1]) + __builtin_popcountll(h->w[2]));
}

/* The view's state; values are the general trace's status numbers. */
typedef enum dir_state { DIR_IDLE = 1, DIR_SHARED = 2, DIR_EXCLUSIVE = 3, DIR_DIRTY = 4 } dir_state;

/* dir_entry.home of a new entry. */
enum { DIR_HOME_UNSET = INT8_MIN };

typedef struct dir_entry {
    uint32_t key;               /* line + 1; 0 = free slot */
    uint8_t state;              /* dir_state */
    uint8_t owner;              /* slot of the owner when exclusive or dirty */
    int8_t home;                /* the user's note of the line's home (the machine keeps its page's
                                 * placement there); DIR_HOME_UNSET in a new entry */
    holder_set holders;         /* recorded holders (the owner alone when exclusive or dirty) */
} dir_entry;

typedef struct directory {
    dir_entry *e;
    size_t cap, used;           /* cap a power of two, at least 32 */
    unsigned group_shift;       /* 32 - log2(cap / 16): a group hash's bits */
} directory;

void dir_init(directory *d);
void dir_free(directory *d);

/* The entry of line, created idle when absent. The pointer is valid until the
 * next dir_get (the table may grow). */
dir_entry *dir_get(directory *d, uint32_t line);

/* The table slot where line's entry is looked for first: the 16 lines of a
 * group side by side in a block of 16 slots, the block chosen by Fibonacci
 * hashing of the group number (its product's high bits). */
static inline size_t dir_slot_of(const directory *d, uint32_t line)
{
    uint32_t group = line >> 4;
    return (size_t)((group * 0x9E3779B1u) >> d->group_shift) << 4 | (line & 15);
}

/* Start loading the table's memory for line, ahead of a dir_get of it (a
 * hint only: nothing changes). */
static inline void dir_prefetch(const directory *d, uint32_t line)
{
    __builtin_prefetch(&d->e[dir_slot_of(d, line)], 1);
}

/* The entry of line, or NULL (for tests and statistics). */
const dir_entry *dir_find(const directory *d, uint32_t line);

/* Entries in use and bytes held (for benchmarks). */
static inline size_t dir_lines(const directory *d) { return d->used; }
static inline size_t dir_bytes(const directory *d) { return d->cap * sizeof(dir_entry); }

#endif
