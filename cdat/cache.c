/* cache.c — set-associative / fully associative cache, LRU, FIFO or random (see cache.h for the layouts). */
#include "cache.h"
#include "../base/diag.h"
#include "../common/fast_paths.h"
#include "../common/huge_arena.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif


/* One line of the hashed layout: 16 bytes, so a lookup touches one host cache line. */
struct cache_slot {
    uint32_t entry;         /* line << 2 | state */
    uint32_t prev, next;    /* LRU list (prev toward MRU); next also chains free slots */
    uint32_t hnext;         /* hash chain */
};

static bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

static inline uint32_t entry_of(uint32_t line, cache_state st) { return line << 2 | (uint32_t)st; }
static inline uint32_t entry_line(uint32_t e) { return e >> 2; }
static inline cache_state entry_state(uint32_t e) { return (cache_state)(e & 3); }

/* An entry holds line iff it is line << 2 | s with s in 1..3; empty entries (0)
 * never match, so one unsigned compare tests tag and validity together. */
static inline bool entry_is(uint32_t e, uint32_t line) { return e - ((line << 2) | 1) < 3u; }

/* Whether an array of lines entries goes on huge pages (common/huge_arena.h):
 * a tag array of at least one huge page (an L3 of 32 MiB in lines of 64
 * bytes: 2 MiB) is read at random set by set, and on 4 KiB pages nearly
 * every set also missed the TLB (docs/cdat-protocol.md §10). */
static bool on_huge_pages(uint64_t lines) { return lines * sizeof(uint32_t) >= HUGE_ARENA_CHUNK; }

bool cache_init(cache *c, uint64_t size, unsigned assoc, unsigned line_size)
{
    memset(c, 0, sizeof *c);
    if (!pow2(line_size) || line_size < 4 || size == 0 || size % line_size) return false;
    uint64_t lines = size / line_size;
    if (lines > (1u << 30)) return false;       /* more lines than line addresses */
    uint64_t ways = assoc ? assoc : lines;
    if (ways > lines || lines % ways || !pow2(lines / ways)) return false;
    if (assoc > CACHE_MAX_ARRAY_WAYS) return false;

    c->ways = (unsigned)ways;
    c->sets = (unsigned)(lines / ways);
    c->set_mask = c->sets - 1;
    c->lines = (unsigned)lines;
    c->line_size = line_size;
    c->absent = CACHE_NIL;      /* no line address is that large */
    if (ways <= CACHE_MAX_ARRAY_WAYS) {
        c->entries = on_huge_pages(lines) ? huge_map(lines * sizeof *c->entries)
                                          : xcalloc(lines, sizeof *c->entries);
        c->lru_array = true;
        return true;
    }

    /* Fully associative and large: hash + LRU list. Buckets: the power of two
     * at or above the number of lines, so chains stay short (load <= 1). */
    c->hashed = true;
    unsigned bits = 0;
    while ((1ull << bits) < lines) bits++;
    c->hash_shift = 32 - bits;
    c->bucket = xmalloc(((size_t)1 << bits) * sizeof *c->bucket);
    memset(c->bucket, 0xff, ((size_t)1 << bits) * sizeof *c->bucket);
    c->slot = xmalloc(lines * sizeof *c->slot);
    for (uint32_t i = 0; i < lines; i++)
        c->slot[i] = (struct cache_slot){ 0, CACHE_NIL, i + 1 < lines ? i + 1 : CACHE_NIL, CACHE_NIL };
    c->free_head = 0;
    c->mru = c->lru = CACHE_NIL;
    return true;
}

void cache_set_replacement(cache *c, cache_replacement r)
{
    c->replacement = (uint8_t)r;
    c->lru_array = !c->hashed && r == CACHE_LRU;
}

/* Random replacement's victim among n ways (or slots): a hash of the line
 * filled and the line at the front (splitmix64's finaliser), so that it
 * depends on the set alone and repeats from run to run. */
static unsigned random_way(uint32_t line, uint32_t front, unsigned n)
{
    uint64_t z = ((uint64_t)line << 32 | front) + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (unsigned)(z % n);
}

uint64_t cache_memory(uint64_t size, unsigned assoc, unsigned line_size)
{
    uint64_t lines = size / line_size;
    uint64_t ways = assoc ? assoc : lines;
    if (ways <= CACHE_MAX_ARRAY_WAYS) return lines * sizeof(uint32_t);
    uint64_t buckets = 1;
    while (buckets < lines) buckets *= 2;
    return lines * sizeof(struct cache_slot) + buckets * sizeof(uint32_t);
}

void cache_free(cache *c)
{
    if (c->entries && on_huge_pages(c->lines)) huge_unmap(c->entries, (size_t)c->lines * sizeof *c->entries);
    else free(c->entries);
    free(c->slot);
    free(c->bucket);
    memset(c, 0, sizeof *c);
}

/* ---- array layout ------------------------------------------------------------------ */

static inline uint32_t *set_of(const cache *c, uint32_t line)
{
    return c->entries + (size_t)(line & c->set_mask) * c->ways;
}

/* Way of line in set s, or -1. Valid entries are packed at the front and
 * empties never match, so the scan needs no separate count. */
static inline int find_way(const uint32_t *s, unsigned ways, uint32_t line)
{
#ifdef __SSE2__
    /* Four entries a compare (ways is then a multiple of 4): an entry holds
     * line iff its tag bits are line's and it is not empty, and line 0's tag
     * bits are an empty entry's, so line 0 takes the loop below. A fast path
     * of the loop (common/fast_paths.h); a set of 16 ways, an L2's or L3's
     * on a miss, is 4 compares instead of 16. */
    if (FAST_PATHS && ways >= 8 && line != 0) {
        const __m128i want = _mm_set1_epi32((int)(line << 2)), tags = _mm_set1_epi32(~3);
        for (unsigned i = 0; i < ways; i += 4) {
            __m128i v = _mm_and_si128(_mm_loadu_si128((const __m128i *)(s + i)), tags);
            int m = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, want)));
            if (m) return (int)i + __builtin_ctz((unsigned)m);
        }
        return -1;
    }
#endif
    for (unsigned i = 0; i < ways; i++)
        if (entry_is(s[i], line)) return (int)i;
    return -1;
}

/* The first empty way of set s, which has one (ways >= 8: a multiple of 4). */
static inline unsigned first_empty(const uint32_t *s, unsigned ways)
{
#ifdef __SSE2__
    for (unsigned i = 0; i < ways; i += 4) {
        int m = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(s + i)),
                                                                 _mm_setzero_si128())));
        if (m) return i + (unsigned)__builtin_ctz((unsigned)m);
    }
#endif
    unsigned i = 0;
    while (s[i] != 0) i++;
    return i;
}

/* s[1..n] = s[0..n-1]. A plain loop when n is small: there a memmove call
 * costs more than the copy. (Four entries an instruction with SSE2 took as
 * many instructions as the loop: the lanes past n must keep theirs.) */
static inline void shift_down(uint32_t *s, unsigned n)
{
    if (n >= 16) {
        memmove(s + 1, s, n * sizeof *s);
        return;
    }
    for (unsigned j = n; j > 0; j--) s[j] = s[j - 1];
}

/* Move way i to the front, keeping the order of the others. */
static inline void to_front(uint32_t *s, unsigned i)
{
    uint32_t e = s[i];
    shift_down(s, i);
    s[0] = e;
}

/* Remove way i; the ways after it move up so valid entries stay packed. */
static void remove_way(uint32_t *s, unsigned ways, unsigned i)
{
    memmove(s + i, s + i + 1, (ways - 1 - i) * sizeof *s);
    s[ways - 1] = 0;
}

/* ---- hashed layout ----------------------------------------------------------------- */

static inline uint32_t hash_of(const cache *c, uint32_t line)
{
    return (line * 0x9E3779B1u) >> c->hash_shift;   /* Fibonacci hashing: spreads runs of lines */
}

static uint32_t hfind(const cache *c, uint32_t line)
{
    uint32_t i = c->bucket[hash_of(c, line)];
    while (i != CACHE_NIL && !entry_is(c->slot[i].entry, line)) i = c->slot[i].hnext;
    return i;
}

static void list_unlink(cache *c, uint32_t i)
{
    struct cache_slot *s = &c->slot[i];
    if (s->prev != CACHE_NIL) c->slot[s->prev].next = s->next; else c->mru = s->next;
    if (s->next != CACHE_NIL) c->slot[s->next].prev = s->prev; else c->lru = s->prev;
}

static void list_push_front(cache *c, uint32_t i)
{
    struct cache_slot *s = &c->slot[i];
    s->prev = CACHE_NIL;
    s->next = c->mru;
    if (c->mru != CACHE_NIL) c->slot[c->mru].prev = i; else c->lru = i;
    c->mru = i;
}

static void hash_remove(cache *c, uint32_t i)
{
    uint32_t *p = &c->bucket[hash_of(c, entry_line(c->slot[i].entry))];
    while (*p != i) p = &c->slot[*p].hnext;
    *p = c->slot[i].hnext;
}

/* Take slot i out of the cache and give it back to the free list. */
static void hslot_release(cache *c, uint32_t i)
{
    hash_remove(c, i);
    list_unlink(c, i);
    c->slot[i].entry = 0;
    c->slot[i].next = c->free_head;
    c->free_head = i;
    c->used--;
}

/* The way a fill of line evicts from its full set s (array layout): the
 * last (LRU, FIFO), or under random the one random_way picks. */
static unsigned array_victim(const cache *c, const uint32_t *s, uint32_t line)
{
    return c->replacement == CACHE_RANDOM ? random_way(line, entry_line(s[0]), c->ways) : c->ways - 1;
}

/* The slot a fill of line evicts from the full hashed layout: the end of
 * the list (LRU, FIFO), or under random a slot chosen as random_way does. */
static uint32_t hashed_victim(const cache *c, uint32_t line)
{
    if (c->replacement != CACHE_RANDOM) return c->lru;
    return random_way(line, entry_line(c->slot[c->mru].entry), c->lines);
}

/* ---- the operations ---------------------------------------------------------------- */

cache_state cache_probe(const cache *c, uint32_t line)
{
    if (!c->hashed) {
        const uint32_t *s = set_of(c, line);
        int w = find_way(s, c->ways, line);
        return w < 0 ? CS_INVALID : entry_state(s[w]);
    }
    uint32_t i = hfind(c, line);
    return i == CACHE_NIL ? CS_INVALID : entry_state(c->slot[i].entry);
}

cache_state cache_access_slow(cache *c, uint32_t line)
{
    if (!c->hashed) {
        uint32_t *s = set_of(c, line);
        if (entry_is(s[0], line)) return entry_state(s[0]);     /* MRU hit: nothing moves */
        int w = find_way(s, c->ways, line);
        if (w < 0) {
            c->absent = line;   /* only a fill can make it present */
            return CS_INVALID;
        }
        if (c->replacement != CACHE_LRU) return entry_state(s[w]);   /* FIFO, random: a hit moves nothing */
        to_front(s, (unsigned)w);
        return entry_state(s[0]);
    }
    uint32_t i = hfind(c, line);
    if (i == CACHE_NIL) {
        c->absent = line;
        return CS_INVALID;
    }
    if (c->replacement == CACHE_LRU && c->mru != i) {
        list_unlink(c, i);
        list_push_front(c, i);
    }
    return entry_state(c->slot[i].entry);
}

bool cache_fill_slow(cache *c, uint32_t line, cache_state st, uint32_t *victim, cache_state *victim_state)
{
    assert(st != CS_INVALID && line < (1u << 30));
    if (!c->hashed) {
        uint32_t *s = set_of(c, line);
        unsigned ways = c->ways;
        unsigned i = 0;
        if (line == c->absent && s[ways - 1] != 0) {
            i = ways;           /* the usual fill after a miss, in a full set: no scan */
        } else if (FAST_PATHS && ways >= 8) {
            /* the line (refill), else the first empty way: the set is full
             * when its last way is not empty (valid entries are packed) */
            int w = find_way(s, ways, line);
            if (w >= 0) i = (unsigned)w;
            else if (s[ways - 1] != 0) i = ways;
            else i = first_empty(s, ways);
        } else {                /* one pass finds the line (refill) or the first empty way */
            while (i < ways && s[i] != 0 && !entry_is(s[i], line)) i++;
        }
        c->absent = CACHE_NIL;
        bool evicted = false;
        if (i == ways) {        /* full and absent: the policy's victim goes */
            i = array_victim(c, s, line);
            evicted = true;
            if (victim) *victim = entry_line(s[i]);
            if (victim_state) *victim_state = entry_state(s[i]);
        } else if (s[i] != 0 && c->replacement != CACHE_LRU) {
            s[i] = entry_of(line, st);  /* FIFO, random: a refill keeps its place */
            return false;
        }
        shift_down(s, i);       /* way i (empty, refilled or victim) is overwritten */
        s[0] = entry_of(line, st);
        return evicted;
    }
    uint32_t i = line == c->absent ? CACHE_NIL : hfind(c, line);
    c->absent = CACHE_NIL;
    if (i != CACHE_NIL) {       /* refill: new state; under LRU, MRU */
        c->slot[i].entry = entry_of(line, st);
        if (c->replacement == CACHE_LRU && c->mru != i) {
            list_unlink(c, i);
            list_push_front(c, i);
        }
        return false;
    }
    bool evicted = false;
    if (c->free_head == CACHE_NIL) {    /* full: the policy's victim's slot takes the new line */
        i = hashed_victim(c, line);
        evicted = true;
        if (victim) *victim = entry_line(c->slot[i].entry);
        if (victim_state) *victim_state = entry_state(c->slot[i].entry);
        hash_remove(c, i);
        list_unlink(c, i);
    } else {
        i = c->free_head;
        c->free_head = c->slot[i].next;
        c->used++;
    }
    c->slot[i].entry = entry_of(line, st);
    uint32_t *b = &c->bucket[hash_of(c, line)];
    c->slot[i].hnext = *b;
    *b = i;
    list_push_front(c, i);
    return evicted;
}

cache_state cache_lru_general(const cache *c, uint32_t line, uint32_t *victim)
{
    if (c->hashed) {
        if (c->free_head != CACHE_NIL) return CS_INVALID;
        uint32_t i = hashed_victim(c, line);
        *victim = entry_line(c->slot[i].entry);
        return entry_state(c->slot[i].entry);
    }
    const uint32_t *s = set_of(c, line);
    unsigned w = c->ways - 1;
    if (s[w] != 0) w = array_victim(c, s, line);      /* full; else no victim (an empty entry) */
    *victim = entry_line(s[w]);
    return entry_state(s[w]);
}

cache_state cache_set_state(cache *c, uint32_t line, cache_state st)
{
    if (!c->hashed) {
        uint32_t *s = set_of(c, line);
        int w = find_way(s, c->ways, line);
        if (w < 0) return CS_INVALID;
        cache_state old = entry_state(s[w]);
        if (st == CS_INVALID) remove_way(s, c->ways, (unsigned)w);
        else s[w] = entry_of(line, st);
        return old;
    }
    uint32_t i = hfind(c, line);
    if (i == CACHE_NIL) return CS_INVALID;
    cache_state old = entry_state(c->slot[i].entry);
    if (st == CS_INVALID) hslot_release(c, i);
    else c->slot[i].entry = entry_of(line, st);
    return old;
}

cache_state cache_invalidate(cache *c, uint32_t line) { return cache_set_state(c, line, CS_INVALID); }

unsigned cache_set_contents(const cache *c, unsigned set, uint32_t *lines, cache_state *states)
{
    unsigned n = 0;
    if (!c->hashed) {
        const uint32_t *s = c->entries + (size_t)set * c->ways;
        for (; n < c->ways && s[n] != 0; n++) {
            if (lines) lines[n] = entry_line(s[n]);
            if (states) states[n] = entry_state(s[n]);
        }
        return n;
    }
    for (uint32_t i = c->mru; i != CACHE_NIL; i = c->slot[i].next, n++) {
        if (lines) lines[n] = entry_line(c->slot[i].entry);
        if (states) states[n] = entry_state(c->slot[i].entry);
    }
    return n;
}

unsigned cache_count(const cache *c)
{
    if (c->hashed) return c->used;
    unsigned n = 0;
    for (unsigned s = 0; s < c->sets; s++) n += cache_set_contents(c, s, NULL, NULL);
    return n;
}
