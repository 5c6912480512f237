/* machine.h — cdat's simulated DSM machine (docs/cdat-protocol.md): processors with
 * an i-cache and a d-cache (and an optional L2 behind them), nodes with an
 * optional interconnect cache, the homes' directory, and the coherence
 * protocol in its 8 variants.
 *
 * The machine only simulates. Each sequence of transactions it generates (a
 * request with everything that serves it, or a replacement's return) is
 * handed to the on_seq callback, which counts it and writes the traces; each
 * reference returns whether it hit, missed or upgraded and where a miss was
 * satisfied from. The rules, case by case, are in docs/cdat-protocol.md.
 *
 * The common case, a cache hit, is inline below (mach_hit, mach_data_probe
 * and mach_data_hits, then mach_fetch, mach_load, mach_store) and touches
 * only the processor's cache; a data reference that is not such a hit goes on
 * from what the check found (mach_data_rest); everything else is in
 * protocol.c. */
#ifndef DSM_CDAT_MACHINE_H
#define DSM_CDAT_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "cache.h"
#include "../common/fast_paths.h"
#include "config.h"
#include "directory.h"
#include "placement.h"
#include "../formats/cdat_trace.h"

/* Where a miss was satisfied from (docs/cdat-report.md, L02). */
typedef enum mach_source {
    SRC_NONE = -1, SRC_LOCAL_MEMORY = 0, SRC_LOCAL_CACHE = 1, SRC_REMOTE_MEMORY = 2, SRC_REMOTE_CACHE = 3,
    SRC_L2 = 4,                 /* an L1 miss the processor's own L2 served */
    SRC_LOCAL_L3 = 5, SRC_REMOTE_L3 = 6,    /* [l3]: what the home's memory supplied, its L3 served
                                             * (the memory sources then count what DRAM served) */
    SRC_COUNT
} mach_source;

/* Where the recorded holders other than the requester are (docs/cdat-protocol.md). */
typedef enum mach_presence { PRES_NONE, PRES_LOCAL, PRES_HOME, PRES_REMOTE } mach_presence;

typedef enum mach_outcome { REF_HIT, REF_MISS, REF_UPGRADE } mach_outcome;

/* What a reference did in the processor's L2 (docs/cdat-report.md, L22), in
 * mach_ref.l2, so that the reference stays 4 bytes (one register): bits 0-1
 * the L1 miss's access to the L2 (L2_HIT, L2_MISS, L2_UPGRADE), bits 2-3
 * the L1 victim written (moved) into it (L2_WRITE: found there, L2_WRITE_MISS:
 * not), bits 4-5 its victims returned dirty (at most 2 a reference), bits 6-7
 * the L1 copies its victims removed (inclusive: at most 2). 0 without an L2. */
enum { L2_HIT = 1, L2_MISS = 2, L2_UPGRADE = 3, L2_ACCESS = 3,
       L2_WRITE = 1 << 2, L2_WRITE_MISS = 2 << 2, L2_WRITES = 3 << 2,
       L2_WRITE_BACK_1 = 1 << 4, L2_BACK_INV_1 = 1 << 6 };

typedef struct mach_ref {
    uint8_t outcome;            /* mach_outcome (of the L1 cache the reference went to) */
    int8_t source;              /* mach_source of a miss */
    uint8_t silent;             /* lines that left the processor without a transaction */
    uint8_t l2;                 /* the L2's part, above */
} mach_ref;

#define MACH_REF(o, s) ((mach_ref){ .outcome = (o), .source = (s) })

/* What a sequence did in its home's L3 (docs/cdat-protocol.md §10), in
 * mach_seq.l3: at most one access a sequence (bits 0-2), and whether its
 * victim was dirty, written to DRAM (bit 3). 0 without an L3. */
enum { L3_READ_HIT = 1, L3_READ_MISS = 2, L3_WRITE_HIT = 3, L3_WRITE_MISS = 4, L3_ACCESS = 7, L3_WRITE_BACK = 8 };

/* One sequence of transactions, as handed to on_seq. */
typedef struct mach_seq {
    uint64_t clock;
    int requester;              /* global processor, or -k for I/O processor k */
    int req_node;
    uint8_t code;               /* the first transaction: a request (01-06) or return (21, 23) */
    uint32_t addr;              /* the line's first byte */
    int home, bank;             /* bank: only when the machine fills every transaction field */
    uint8_t status;             /* the home's view before the sequence (dir_state) */
    uint8_t presence;           /* mach_presence of the holders other than the requester */
    holder_set holders;         /* the recorded holders before the sequence */
    int8_t source;              /* requests that bring data: mach_source; else SRC_NONE */
    unsigned critical;          /* critical-path transactions (0 for returns) */
    unsigned n;                 /* transactions */
    uint8_t l3;                 /* [l3]: the home L3's part, above (set by the machine before on_seq) */
    cdat_txn *tx;               /* their codes; every other field only when the machine's tx_fields */
} mach_seq;

typedef void (*mach_seq_fn)(void *ctx, const mach_seq *s);

typedef struct mach_proc {
    cache d, i;
    cache l2;                   /* only when machine.l2 */
    int node, proc;             /* its node, and its number in the node */
} mach_proc;

typedef struct machine {
    unsigned nodes, ppn, nprocs, banks;
    unsigned line_shift;
    bool rl_a;                  /* RL = A: remote lines may be loaded exclusive */
    bool er_announced;          /* ER: exclusive replacements announced (update_tag) */
    bool dt;                    /* DT: direct cache-to-cache transactions */
    bool l2;                    /* [l2]: every processor has an L2 (mach_proc.l2) */
    uint8_t l2_inclusion;       /* cfg_inclusion */
    bool store_through;         /* [dcache] write_policy = through: a store writes into the L2,
                                 * the d-cache's copies stay clean (mach_store_through) */
    bool l3;                    /* [l3]: every node has a memory-side L3 (l3c) */
    cache *l3c;                 /* per node, or NULL: the L3s in front of the nodes' memories */
    bool simple_misses;         /* the commonest data misses take protocol.c's short path when
                                 * only codes are counted (simple_data_miss; tests turn it off) */
    mach_proc *p;               /* nprocs */
    cache *icc;                 /* per node, or NULL: the interconnect caches */
    holder_set *node_slots;     /* per node: the holder slots on it (its processors, its
                                 * interconnect cache) */
    directory dir;
    placement *pl;
    mach_seq seq;               /* the sequence being built */
    bool tx_fields;             /* fill every field of seq.tx and seq.bank (true after mach_init);
                                 * false: only the codes (counting needs no more; the traces do) */
    mach_seq_fn on_seq;
    void *ctx;
    struct miss_class *mc;      /* --miss-classes: told of every copy another's request invalidates; else NULL */
    /* --miss-classes with an L2: the L2's classification (every L2 lookup,
     * victim written into it and copy invalidated in it goes there); the
     * words of the reference being made (mc_words), which the caller sets
     * before each reference; and the class + 1 of the L2 miss it made (0:
     * none), which the caller reads after it and clears (not in mach_ref,
     * which the hit paths return in a register). Else NULL, unused. */
    struct miss_class *mc2;
    uint64_t ref_words;
    uint8_t l2_class;
} machine;

/* Protocol variant n (1..8) as its three switches (docs/cdat-protocol.md;
 * numbered as in the HP Labs report's Table 2). */
void mach_protocol_switches(unsigned n, bool *rl_a, bool *er_announced, bool *dt);

/* Build the machine of cfg (caches empty, directory idle); pl decides homes. */
void mach_init(machine *m, const cdat_config *cfg, placement *pl, mach_seq_fn on_seq, void *ctx);
void mach_free(machine *m);

static inline uint32_t mach_line(const machine *m, uint32_t addr) { return addr >> m->line_shift; }

/* Lines the caches hold now (every processor's caches and the
 * interconnect caches), for the directory's memory beside them. */
uint64_t mach_cached_lines(const machine *m);

/* References that miss, upgrade or need the directory (protocol.c). */
enum { MACH_IFETCH, MACH_LOAD, MACH_STORE };
mach_ref mach_miss(machine *m, int cpu, uint64_t clock, uint32_t line, int kind);
/* mach_miss of a load or store (the only way to it for data), trying the
 * commonest miss's short path first (simple_data_miss in protocol.c). */
mach_ref mach_data_miss(machine *m, int cpu, uint64_t clock, uint32_t line, bool store);
mach_ref mach_upgrade(machine *m, int cpu, uint64_t clock, uint32_t line);
/* A store of cpu with a write-through d-cache (machine.store_through), st:
 * the line's state in the d-cache, now the most recent of its set
 * (CS_INVALID: absent; the access already made). It gets the line owned as
 * any store does, keeps the d-cache's copy clean and writes into the L2
 * (docs/cdat-protocol.md §12). */
mach_ref mach_store_through(machine *m, int cpu, uint64_t clock, uint32_t line, cache_state st);

/* An I/O processor's request for one line (docs/cdat-protocol.md): write_purge (a file
 * read lands in memory) or read_current (a file write reads memory). io is
 * the I/O processor's number k >= 1 (named -k), on node io_node. */
void mach_io(machine *m, int io, int io_node, uint64_t clock, uint32_t line, bool write_purge);

/* mach_hit for a data reference, split so that a miss does not look again:
 * mach_data_probe gives the line's state among the two most recently used
 * lines of its set (CS_INVALID: not there), mach_data_hits whether that
 * state is a hit needing no transaction (a load of a present line, a store
 * to a dirty one), and mach_data_rest does the rest of a reference that it
 * did not make a hit, exactly as mach_load or mach_store would (protocol.c;
 * a unit test compares them). */
static inline cache_state mach_data_probe(machine *m, int cpu, uint32_t line)
{
    return cache_hit(&m->p[cpu].d, line);
}

static inline bool mach_data_hits(cache_state st, bool store)
{
    return (unsigned)st + (store ? 0 : 2) >= 3;      /* a store: dirty; a load: any valid state */
}

static inline mach_ref mach_data_rest(machine *m, int cpu, uint64_t clock, uint32_t line, bool store, cache_state st)
{
    cache *d = &m->p[cpu].d;
    /* Not among the two most recent lines: the rest of the set (cache_access's slow half). */
    if (st == CS_INVALID) st = cache_access_rest(d, line);
    if (store && __builtin_expect(m->store_through, 0)) return mach_store_through(m, cpu, clock, line, st);
    if (st == CS_INVALID) return mach_data_miss(m, cpu, clock, line, store);
    /* Present, and now the most recently used line of its set: mach_load's or mach_store's hit. */
    if (!store || st == CS_DIRTY) return MACH_REF(REF_HIT, SRC_NONE);
    if (st == CS_EXCLUSIVE) {
        cache_set_mru_state(d, line, CS_DIRTY);
        return MACH_REF(REF_HIT, SRC_NONE);
    }
    return mach_upgrade(m, cpu, clock, line);
}

/* The common case of a reference of processor cpu to one line, inline: kind
 * (MACH_IFETCH, MACH_LOAD, MACH_STORE) hits among the two most recently used
 * lines of its set and needs no transaction (a fetch or load of a present
 * line, a store to a dirty one). Returns false otherwise, when the reference
 * needs mach_fetch, mach_load or mach_store; nothing the protocol sees has
 * changed then (the set's two most recent lines may have swapped, as those
 * calls' own hit would swap them). */
static inline bool mach_hit(machine *m, int cpu, uint32_t line, int kind)
{
    if (!FAST_PATHS) return false;
    if (kind == MACH_IFETCH) return cache_hit(&m->p[cpu].i, line) != CS_INVALID;
    return mach_data_hits(mach_data_probe(m, cpu, line), kind == MACH_STORE);
}

/* A hint some records ahead of a reference to line: start loading the
 * line's directory code, which a miss reads first (a random access into a
 * map of a byte per line: a host cache miss on a large footprint). Nothing
 * else: checking the processor's cache first, or loading its set too, cost
 * more than it saved (docs/cdat-protocol.md §8). Changes nothing. */
static inline void mach_prefetch(const machine *m, uint32_t line)
{
    dir_prefetch(&m->dir, line);
}

/* With an L2, the same hint for processor cpu's L2 set of line, which an L1
 * miss reads first: a large L2's sets are far from the host's caches too. */
static inline void mach_prefetch_l2(const machine *m, int cpu, uint32_t line)
{
    cache_prefetch_set(&m->p[cpu].l2, line);
}

/* One reference of processor cpu to one line. */
static inline mach_ref mach_fetch(machine *m, int cpu, uint64_t clock, uint32_t line)
{
    if (cache_access(&m->p[cpu].i, line) != CS_INVALID) return MACH_REF(REF_HIT, SRC_NONE);
    return mach_miss(m, cpu, clock, line, MACH_IFETCH);
}

static inline mach_ref mach_load(machine *m, int cpu, uint64_t clock, uint32_t line)
{
    if (cache_access(&m->p[cpu].d, line) != CS_INVALID) return MACH_REF(REF_HIT, SRC_NONE);
    return mach_data_miss(m, cpu, clock, line, false);
}

static inline mach_ref mach_store(machine *m, int cpu, uint64_t clock, uint32_t line)
{
    cache *d = &m->p[cpu].d;
    if (__builtin_expect(m->store_through, 0)) return mach_store_through(m, cpu, clock, line, cache_access(d, line));
    switch (cache_access(d, line)) {
    case CS_DIRTY: return MACH_REF(REF_HIT, SRC_NONE);
    case CS_EXCLUSIVE:                  /* silently dirty; the view stays "exclusive" */
        cache_set_mru_state(d, line, CS_DIRTY);
        return MACH_REF(REF_HIT, SRC_NONE);
    case CS_SHARED: return mach_upgrade(m, cpu, clock, line);
    default: return mach_data_miss(m, cpu, clock, line, true);
    }
}

#endif
