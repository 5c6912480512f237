/* directory.h — the homes' full-map directory (docs/cdat-protocol.md): per line, the
 * home's view of it (state and recorded holders), which may be stale.
 *
 * A holder is a "slot": global processor p (0..127) is slot p; the
 * interconnect cache of node n (docs/cdat-protocol.md §6) is slot DIR_ICC_SLOT + n. I/O
 * processors never hold lines.
 *
 * Two levels, so memory follows the views that need more than a byte:
 *  - a line map, one byte per line in 4 KiB chunks allocated on demand (from
 *    an arena on huge pages from its first chunk, common/huge_arena.h: a
 *    miss on a footprint touched at random reads one byte of a map of
 *    megabytes, and with 4 KiB pages that was a TLB miss too): never
 *    requested, idle, exclusive or dirty at one owner (the owner in the byte),
 *    or "in the table". Most views are one of these, so a miss reads one byte
 *    (an idle line costs nothing more than its byte).
 *  - a hash table of full entries for the other views: shared (any holders,
 *    stale ones included) and, on machines of more than 126 processors,
 *    dirty. An entry is removed when its line's view fits the map again, so
 *    the table holds about the lines the caches hold plus the stale sharers
 *    the protocol must remember.
 * The protocol reads a view with dir_load, changes its copy, and writes it
 * back with dir_store. */
#ifndef DSM_CDAT_DIRECTORY_H
#define DSM_CDAT_DIRECTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/huge_arena.h"

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
/* Whether h is exactly { s }. */
static inline bool hs_only(const holder_set *h, unsigned s)
{
    holder_set o = { { 0, 0, 0 } };
    hs_add(&o, s);
    return h->w[0] == o.w[0] && h->w[1] == o.w[1] && h->w[2] == o.w[2];
}

/* The view's state; values are the general trace's status numbers. */
typedef enum dir_state { DIR_IDLE = 1, DIR_SHARED = 2, DIR_EXCLUSIVE = 3, DIR_DIRTY = 4 } dir_state;

/* The home's view of one line, as the protocol works on it. */
typedef struct dir_view {
    uint8_t state;              /* dir_state */
    uint8_t owner;              /* slot of the owner when exclusive or dirty (else meaningless) */
    holder_set holders;         /* recorded holders (the owner alone when exclusive or dirty) */
} dir_view;

/* A table entry: a view and its line (32 bytes). */
typedef struct dir_entry {
    holder_set holders;
    uint32_t key;               /* line + 1; 0 = free slot */
    uint8_t state, owner;
} dir_entry;

enum { DIR_CHUNK_BITS = 12 };   /* lines per line-map chunk: 4096 (4 KiB) */

typedef struct directory {
    uint8_t **chunk;            /* line >> DIR_CHUNK_BITS → the chunk's line codes, or NULL */
    size_t nchunks, chunks_used;
    unsigned dirty_base;        /* code of "dirty at owner p": dirty_base + p; 0: dirty views go
                                 * to the table (too many processors for a byte) */
    dir_entry *e;               /* the table: open addressing (directory.c) */
    size_t cap, used;           /* cap a power of two, at least 64 */
    unsigned shift;             /* 32 - log2(cap / 16): a group hash's bits */
    uint64_t step_inverse;      /* the probe step's inverse mod 2^64 */
    size_t last;                /* the slot of the last entry dir_load read */
    size_t lines;               /* lines ever requested */
    huge_arena arena;           /* the line map's chunks */
} directory;

/* nprocs processors (1..128); line_shift: log2 of the line size. */
void dir_init(directory *d, unsigned nprocs, unsigned line_shift);
void dir_free(directory *d);

/* A line's code in the map (private to directory.c and the inline functions). */
enum { DIR_CODE_NEW = 0, DIR_CODE_IDLE = 1, DIR_CODE_TABLE = 2, DIR_CODE_EXCL = 3 };

uint8_t *dir_new_chunk(directory *d, uint32_t line);
void dir_load_table(directory *d, uint32_t line, dir_view *v);

/* Where line's code lives (its chunk allocated when absent). Stable for the
 * directory's life: dir_store takes it back. */
static inline uint8_t *dir_code(directory *d, uint32_t line)
{
    uint8_t *c = d->chunk[line >> DIR_CHUNK_BITS];
    if (__builtin_expect(!c, 0)) c = dir_new_chunk(d, line);
    return c + (line & ((1u << DIR_CHUNK_BITS) - 1));
}

/* The view a line-map code other than DIR_CODE_TABLE stands for (NEW reads
 * as idle): idle, or exclusive or dirty at one owner. */
static inline void dir_view_of_code(const directory *d, unsigned c, dir_view *v)
{
    v->holders.w[0] = v->holders.w[1] = v->holders.w[2] = 0;
    if (c <= DIR_CODE_IDLE) {
        v->state = DIR_IDLE;
        v->owner = 0;
        return;
    }
    bool dirty = d->dirty_base && c >= d->dirty_base;
    v->state = dirty ? DIR_DIRTY : DIR_EXCLUSIVE;
    v->owner = (uint8_t)(c - (dirty ? d->dirty_base : DIR_CODE_EXCL));
    hs_add(&v->holders, v->owner);
}

/* The view of line into *v; a line never requested before becomes idle (and
 * counts in dir_lines). Returns the code's place for dir_store. */
static inline uint8_t *dir_load(directory *d, uint32_t line, dir_view *v)
{
    uint8_t *code = dir_code(d, line);
    unsigned c = *code;
    if (c == DIR_CODE_TABLE) {
        dir_load_table(d, line, v);
        return code;
    }
    if (c == DIR_CODE_NEW) {
        d->lines++;
        *code = DIR_CODE_IDLE;
    }
    dir_view_of_code(d, c, v);
    return code;
}

/* dir_load for a caller that wants only the commonest views, without
 * building one or changing anything: the line's state when the map alone
 * holds its view (DIR_IDLE, a line never requested included; or
 * DIR_EXCLUSIVE or DIR_DIRTY at *owner), or 0 when the view is in the table
 * (call dir_load). *code_at: the code's place. A caller that goes on calls
 * dir_note_request, then stores the line's new view with dir_store_simple. */
static inline unsigned dir_peek_simple(directory *d, uint32_t line, uint8_t **code_at, unsigned *owner)
{
    uint8_t *code = dir_code(d, line);
    unsigned c = *code;
    *code_at = code;
    if (c <= DIR_CODE_IDLE) return DIR_IDLE;
    if (c == DIR_CODE_TABLE) return 0;
    bool dirty = d->dirty_base && c >= d->dirty_base;
    *owner = c - (dirty ? d->dirty_base : DIR_CODE_EXCL);
    return dirty ? DIR_DIRTY : DIR_EXCLUSIVE;
}

/* What dir_load does to a line never requested before: it counts in
 * dir_lines (and reads as idle). code_at: dir_peek_simple's answer. */
static inline void dir_note_request(directory *d, const uint8_t *code_at)
{
    if (*code_at == DIR_CODE_NEW) d->lines++;
}

void dir_store_slow(directory *d, uint32_t line, uint8_t *code, const dir_view *v, unsigned c);

/* Write line's view back (code: dir_load's answer for line). */
static inline void dir_store(directory *d, uint32_t line, uint8_t *code, const dir_view *v)
{
    unsigned c;
    if (v->state == DIR_IDLE && hs_empty(&v->holders)) c = DIR_CODE_IDLE;
    else if (v->state == DIR_EXCLUSIVE && hs_only(&v->holders, v->owner)) c = DIR_CODE_EXCL + v->owner;
    else if (v->state == DIR_DIRTY && d->dirty_base && hs_only(&v->holders, v->owner)) c = d->dirty_base + v->owner;
    else c = DIR_CODE_TABLE;
    if (c == DIR_CODE_TABLE || *code == DIR_CODE_TABLE) {
        dir_store_slow(d, line, code, v, c);
        return;
    }
    *code = (uint8_t)c;
}

/* dir_store of the protocol's commonest views without building them: idle
 * (state DIR_IDLE; owner unused), or state DIR_EXCLUSIVE or DIR_DIRTY at
 * owner, a processor, alone. The same as dir_store of that view. */
static inline void dir_store_simple(directory *d, uint32_t line, uint8_t *code, unsigned state, unsigned owner)
{
    unsigned c = state == DIR_IDLE ? DIR_CODE_IDLE
               : state == DIR_EXCLUSIVE ? DIR_CODE_EXCL + owner
               : d->dirty_base ? d->dirty_base + owner : DIR_CODE_TABLE;
    if (__builtin_expect(c != DIR_CODE_TABLE && *code != DIR_CODE_TABLE, 1)) {
        *code = (uint8_t)c;
        return;
    }
    dir_view v = { .state = (uint8_t)state, .owner = (uint8_t)owner, .holders = { { 0, 0, 0 } } };
    if (state != DIR_IDLE) hs_add(&v.holders, owner);
    dir_store_slow(d, line, code, &v, c);
}

/* Start loading line's code, ahead of a dir_load of it (a hint only). */
static inline void dir_prefetch(const directory *d, uint32_t line)
{
    const uint8_t *c = d->chunk[line >> DIR_CHUNK_BITS];
    if (c) {
        __builtin_prefetch(c + (line & ((1u << DIR_CHUNK_BITS) - 1)));
        /* GCC at -O2 deleted the victim's prefetch in mach_miss, under a
         * condition, as dead code (bench/README.md E16): this keeps it. */
        __asm__ volatile("" : : "r"(c));
    }
}

/* The view of line without creating anything: false when it was never
 * requested (for tests and statistics). */
bool dir_peek(const directory *d, uint32_t line, dir_view *v);

/* Lines ever requested (the report's "directory: lines"). */
static inline size_t dir_lines(const directory *d) { return d->lines; }
/* Table entries in use, and bytes held: the table's, the line map's. */
static inline size_t dir_entries(const directory *d) { return d->used; }
static inline size_t dir_table_bytes(const directory *d) { return d->cap * sizeof(dir_entry); }
static inline size_t dir_map_bytes(const directory *d)
{
    return d->chunks_used << DIR_CHUNK_BITS;
}

#endif
