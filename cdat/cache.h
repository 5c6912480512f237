/* cache.h — one processor cache of cdat's machine model (docs/cdat-protocol.md).
 *
 * Set-associative (1..64 ways) or fully associative, write-back,
 * write-allocate, with a replacement policy per cache (cache_replacement):
 * LRU (the default), FIFO or random. The cache only keeps tags, states and
 * the order of its lines: the coherence protocol decides the states and what
 * a victim costs. Lines are
 * named by their line address (a 32-bit address / line_size), so with a line
 * size of at least 4 every line address is below 2^30 (the state lives in the
 * two low bits of each stored entry).
 *
 * Two layouts, chosen by cache_init:
 *  - ways <= 64 (every set-associative cache, and fully associative caches of
 *    up to 64 lines): each set is a contiguous array of entries kept in LRU
 *    order, most recently used first, valid entries packed at the front. A hit
 *    on the MRU line (the common case) is one load and one compare; moving a
 *    line to the front shifts the few entries before it. The order itself is
 *    the LRU state (no age stamps): the victim is the last entry, and an
 *    invalidated way just closes up.
 *  - more ways (a fully associative cache of thousands of lines): a hash table
 *    from line to slot plus a doubly linked LRU list, so every operation is
 *    O(1) instead of a scan of the whole cache.
 * The cache remembers the line of its last missed access, so the fill that
 * follows a miss (the simulator's usual pair) does not search the set again.
 * Memory is proportional to the number of lines: 4 bytes a line, or at most
 * 24 (a 16-byte slot and up to two 4-byte hash buckets) in the hashed layout.
 *
 * The order is the replacement policy's (docs/cdat-protocol.md §11): under
 * LRU a hit moves its line to the front; under FIFO and random nothing moves
 * on a hit, so the front is the line filled last. The victim of a full set
 * is the last line (LRU, FIFO), or under random the line at a way chosen by
 * a hash of the line filled and the line at the front (of the set, or of the
 * whole cache in the hashed layout, whose "way" is then its slot): the same
 * references give the same victims, and a set's victims depend only on that
 * set, as a split of the sets (cdat --jobs) needs. The inline fast paths
 * below are LRU's in the array layout; the other policies take the general
 * functions. */
#ifndef DSM_CDAT_CACHE_H
#define DSM_CDAT_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The 2-bit line state; the values are stored in the entries (INVALID = not present). */
typedef enum cache_state { CS_INVALID = 0, CS_SHARED = 1, CS_EXCLUSIVE = 2, CS_DIRTY = 3 } cache_state;

/* No line (absent: none) and no slot of the hashed layout: no line address is that large. */
#define CACHE_NIL UINT32_MAX

/* Largest associativity kept as a per-set array; beyond it, the hashed layout. */
enum { CACHE_MAX_ARRAY_WAYS = 64 };

/* The replacement policy (cache_set_replacement). */
typedef enum cache_replacement { CACHE_LRU = 0, CACHE_FIFO = 1, CACHE_RANDOM = 2 } cache_replacement;

/* The fields are private; the struct is public so caches can be embedded. */
typedef struct cache {
    uint32_t *entries;      /* array layout: sets * ways entries, line << 2 | state, 0 = empty */
    uint32_t set_mask;      /* sets - 1 (sets is a power of two) */
    unsigned ways;          /* lines per set */
    unsigned sets;
    unsigned lines;         /* sets * ways */
    unsigned line_size;
    bool hashed;            /* hashed layout (one set) */
    bool lru_array;         /* the array layout under LRU: the inline fast paths apply */
    uint8_t replacement;    /* cache_replacement */
    uint32_t absent;        /* the line of the last access that missed, while no fill has
                             * happened since: the fill after a miss skips its search */
    /* hashed layout */
    struct cache_slot *slot;    /* one slot per line */
    uint32_t *bucket;           /* heads of the hash chains (slot index; all ones = none) */
    unsigned hash_shift;        /* 32 - log2(buckets) */
    uint32_t mru, lru;          /* ends of the LRU list (all ones when empty) */
    uint32_t free_head;         /* unused slots, chained through next */
    unsigned used;              /* slots in use */
} cache;

/* Geometry check and set-up: size bytes, assoc ways (0 = fully associative),
 * line_size a power of two >= 4. Returns false (and leaves *c empty) when the
 * size is not a whole number of lines, the lines do not split into a
 * power-of-two number of sets of assoc lines, or assoc > 64 (not full). */
bool cache_init(cache *c, uint64_t size, unsigned assoc, unsigned line_size);
void cache_free(cache *c);

/* The replacement policy, set once after cache_init while the cache is
 * still empty (cache_init gives LRU). */
void cache_set_replacement(cache *c, cache_replacement r);

/* Bytes cache_init allocates for that geometry (0 for size 0): 4 a line in
 * the array layout; in the hashed layout 16 a line plus 4 a hash bucket (the
 * power of two at or above the number of lines). The configuration checks
 * the machine's total with it. */
uint64_t cache_memory(uint64_t size, unsigned assoc, unsigned line_size);

/* State of line (CS_INVALID when absent); the LRU order is not touched.
 * For snoops and the protocol's view of another processor's cache. */
cache_state cache_probe(const cache *c, uint32_t line);

/* The common case of cache_access, inline: a hit on one of the two most
 * recently used lines of line's set (array layout, LRU), which becomes the
 * MRU line. Anything else returns CS_INVALID and changes nothing
 * (cache_access then knows: the line may still be present further down the
 * set). */
static inline cache_state cache_hit(cache *c, uint32_t line)
{
    if (!c->lru_array) return CS_INVALID;
    uint32_t *s = c->entries + (size_t)(line & c->set_mask) * c->ways;
    uint32_t tag = (line << 2) | 1, e = s[0];
    if (e - tag < 3u) return (cache_state)(e & 3);
    if (c->ways < 2) return CS_INVALID;
    uint32_t e1 = s[1];
    if (e1 - tag >= 3u) return CS_INVALID;
    s[1] = e;                   /* the second becomes the first: valid entries stay packed */
    s[0] = e1;
    return (cache_state)(e1 & 3);
}

/* The owner's reference: state of line, and on a hit under LRU the line
 * becomes the most recently used of its set. cache_hit's cases are inline;
 * everything else is cache_access_slow. */
cache_state cache_access_slow(cache *c, uint32_t line);
static inline cache_state cache_access(cache *c, uint32_t line)
{
    cache_state st = cache_hit(c, line);
    return st != CS_INVALID ? st : cache_access_slow(c, line);
}

/* cache_access after cache_hit found nothing: the rest of the set. A set of
 * at most two ways has none (cache_hit looked at both), so then only the
 * line is remembered for the fill. */
static inline cache_state cache_access_rest(cache *c, uint32_t line)
{
    if (c->lru_array && c->ways <= 2) {
        c->absent = line;
        return CS_INVALID;
    }
    return cache_access_slow(c, line);
}

/* Put line in the cache in state st (not CS_INVALID) as the most recently used
 * (filled) of its set. When the set was full, the policy's victim is evicted:
 * returns true with *victim and *victim_state (either pointer may be NULL).
 * If line is already present it only gets st (no victim), and under LRU
 * becomes MRU. */
bool cache_fill_slow(cache *c, uint32_t line, cache_state st, uint32_t *victim, cache_state *victim_state);
static inline bool cache_fill(cache *c, uint32_t line, cache_state st, uint32_t *victim, cache_state *victim_state)
{
    /* The usual fill, inline: after a miss (cache_access_slow remembered the
     * line), in a full set of the array layout of up to 16 ways: the LRU way
     * goes, the others move down one. */
    if (c->lru_array && line == c->absent && c->ways <= 16) {
        uint32_t *s = c->entries + (size_t)(line & c->set_mask) * c->ways;
        unsigned last = c->ways - 1;
        uint32_t e = s[last];
        if (e != 0) {
            c->absent = CACHE_NIL;
            if (victim) *victim = e >> 2;
            if (victim_state) *victim_state = (cache_state)(e & 3);
            if (last == 1) s[1] = s[0];
            else for (unsigned j = last; j > 0; j--) s[j] = s[j - 1];
            s[0] = line << 2 | (uint32_t)st;
            return true;
        }
    }
    return cache_fill_slow(c, line, st, victim, victim_state);
}

/* The line a fill of the absent line would evict: when line's set is full,
 * the state of the policy's victim (*victim); else CS_INVALID. */
cache_state cache_lru_general(const cache *c, uint32_t line, uint32_t *victim);
static inline cache_state cache_lru(const cache *c, uint32_t line, uint32_t *victim)
{
    if (!c->lru_array) return cache_lru_general(c, line, victim);
    uint32_t e = c->entries[(size_t)(line & c->set_mask) * c->ways + c->ways - 1];
    *victim = e >> 2;
    return (cache_state)(e & 3);
}

/* A hint: start loading line's set (array layout; nothing in the hashed
 * one). Changes nothing. */
static inline void cache_prefetch_set(const cache *c, uint32_t line)
{
    if (!c->hashed) __builtin_prefetch(c->entries + (size_t)(line & c->set_mask) * c->ways);
}

/* Whether line is present (cache_probe's answer, inline for the array layout). */
static inline bool cache_holds(const cache *c, uint32_t line)
{
    if (c->hashed) return cache_probe(c, line) != CS_INVALID;
    const uint32_t *s = c->entries + (size_t)(line & c->set_mask) * c->ways;
    uint32_t tag = (line << 2) | 1;
    for (unsigned i = 0; i < c->ways && s[i] != 0; i++)
        if (s[i] - tag < 3u) return true;
    return false;
}

/* Change the state of a present line without touching the order; st =
 * CS_INVALID removes it. Returns the previous state (CS_INVALID: absent, nothing done). */
cache_state cache_set_state(cache *c, uint32_t line, cache_state st);

/* cache_set_state for the line a hit of cache_access just made the most
 * recently used of its set (st not CS_INVALID): no search under LRU in the
 * array layout; elsewhere the line may be anywhere in its set. */
static inline void cache_set_mru_state(cache *c, uint32_t line, cache_state st)
{
    if (!c->lru_array) {
        cache_set_state(c, line, st);
        return;
    }
    c->entries[(size_t)(line & c->set_mask) * c->ways] = (line << 2) | (uint32_t)st;
}

/* Remove line; returns its previous state (CS_INVALID when it was absent). */
cache_state cache_invalidate(cache *c, uint32_t line);

/* Geometry. */
static inline unsigned cache_sets(const cache *c) { return c->sets; }
static inline unsigned cache_ways(const cache *c) { return c->ways; }
static inline unsigned cache_set_of(const cache *c, uint32_t line) { return line & c->set_mask; }

/* Iteration (tests, statistics): the lines of one set in the policy's order
 * (LRU: most recently used first; FIFO, random: filled last first), into
 * lines[] and states[] (room for cache_ways(c) each; either may be NULL).
 * Returns how many. */
unsigned cache_set_contents(const cache *c, unsigned set, uint32_t *lines, cache_state *states);

/* Number of valid lines in the whole cache (O(lines); for tests). */
unsigned cache_count(const cache *c);

#endif
