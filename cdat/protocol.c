/* protocol.c — the full-map directory protocol of docs/cdat-protocol.md in
 * its 8 variants, the local snoop, the interconnect cache, replacements,
 * I/O processor requests, and each processor's L2 under its three inclusion
 * policies (§9). Each function builds one sequence of transactions
 * in m->seq, updates the caches and the home's view, and hands the sequence
 * to m->on_seq. docs/cdat-protocol.md gives every case as a table. */
#include "machine.h"
#include "miss_class.h"
#include "../base/diag.h"

#include <stdlib.h>
#include <string.h>

void mach_protocol_switches(unsigned n, bool *rl_a, bool *er_announced, bool *dt)
{
    /* The HP Labs report's Table 2 (docs/cdat-protocol.md): RL (A = may load
     * remote lines exclusive), ER, DT. */
    static const bool t[9][3] = {
        { 0, 0, 0 }, { 1, 1, 1 }, { 0, 1, 0 }, { 0, 0, 0 }, { 1, 0, 0 },
        { 1, 0, 1 }, { 1, 1, 0 }, { 0, 0, 1 }, { 0, 1, 1 },
    };
    if (n < 1 || n > 8) n = 1;
    *rl_a = t[n][0];
    *er_announced = t[n][1];
    *dt = t[n][2];
}

/* One cache of the configuration's geometry cc, with its replacement policy. */
static void init_cache(cache *c, const cache_config *cc, const cdat_config *cfg)
{
    if (!cache_init(c, cc->size, cc->assoc, cfg->line_size))
        diag_fatal(EXIT_INTERNAL, cfg->path, DIAG_NO_OFFSET, "cache geometry not checked by the configuration");
    cache_set_replacement(c, (cache_replacement)cc->replacement);
}

void mach_init(machine *m, const cdat_config *cfg, placement *pl, mach_seq_fn on_seq, void *ctx)
{
    memset(m, 0, sizeof *m);
    m->nodes = cfg->nodes;
    m->ppn = cfg->procs_per_node;
    m->nprocs = cfg->nodes * cfg->procs_per_node;
    m->banks = cfg->banks_per_node;
    m->line_shift = (unsigned)__builtin_ctz(cfg->line_size);
    mach_protocol_switches(cfg->protocol, &m->rl_a, &m->er_announced, &m->dt);
    m->p = xcalloc(m->nprocs, sizeof *m->p);
    for (unsigned i = 0; i < m->nprocs; i++) {
        m->p[i].node = (int)(i / m->ppn);
        m->p[i].proc = (int)(i % m->ppn);
        init_cache(&m->p[i].d, &cfg->dcache, cfg);
        init_cache(&m->p[i].i, &cfg->icache, cfg);
        if (cfg->l2.size > 0) init_cache(&m->p[i].l2, &cfg->l2, cfg);
    }
    m->l2 = cfg->l2.size > 0;
    m->l2_inclusion = (uint8_t)cfg->l2_inclusion;
    m->store_through = cfg->dcache_write_through;
    if (cfg->l3.size > 0) {
        m->l3 = true;
        m->l3c = xcalloc(m->nodes, sizeof *m->l3c);
        for (unsigned n = 0; n < m->nodes; n++) init_cache(&m->l3c[n], &cfg->l3, cfg);
    }
    if (cfg->icc.size > 0) {
        m->icc = xcalloc(m->nodes, sizeof *m->icc);
        for (unsigned n = 0; n < m->nodes; n++) init_cache(&m->icc[n], &cfg->icc, cfg);
    }
    m->node_slots = xcalloc(m->nodes, sizeof *m->node_slots);
    for (unsigned s = 0; s < m->nprocs; s++) hs_add(&m->node_slots[m->p[s].node], s);
    for (unsigned n = 0; n < m->nodes; n++) hs_add(&m->node_slots[n], DIR_ICC_SLOT + n);
    dir_init(&m->dir, m->nprocs, m->line_shift);
    m->pl = pl;
    m->on_seq = on_seq;
    m->ctx = ctx;
    m->tx_fields = true;
    m->simple_misses = true;
    m->seq.tx = xmalloc((2 * DIR_SLOTS + 8) * sizeof *m->seq.tx);
}

void mach_free(machine *m)
{
    for (unsigned i = 0; i < m->nprocs; i++) {
        cache_free(&m->p[i].d);
        cache_free(&m->p[i].i);
        if (m->l2) cache_free(&m->p[i].l2);
    }
    if (m->icc)
        for (unsigned n = 0; n < m->nodes; n++) cache_free(&m->icc[n]);
    free(m->icc);
    if (m->l3c)
        for (unsigned n = 0; n < m->nodes; n++) cache_free(&m->l3c[n]);
    free(m->l3c);
    free(m->node_slots);
    free(m->p);
    dir_free(&m->dir);
    free(m->seq.tx);
    memset(m, 0, sizeof *m);
}

uint64_t mach_cached_lines(const machine *m)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < m->nprocs; i++)
        n += cache_count(&m->p[i].d) + cache_count(&m->p[i].i) + (m->l2 ? cache_count(&m->p[i].l2) : 0);
    for (unsigned k = 0; m->icc && k < m->nodes; k++) n += cache_count(&m->icc[k]);
    for (unsigned k = 0; m->l3c && k < m->nodes; k++) n += cache_count(&m->l3c[k]);
    return n;
}

/* An impossible protocol state: a bug, never bad input. */
static _Noreturn void bug(const machine *m, uint32_t line, const char *what)
{
    diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "internal error: protocol: %s (line 0x%x)", what,
               (unsigned)(line << m->line_shift));
}

/* ---- holders ---- */

static inline int slot_node(const machine *m, unsigned s)
{
    return s >= DIR_ICC_SLOT ? (int)(s - DIR_ICC_SLOT) : m->p[s].node;
}

/* The holders of h other than except, in sharing-list order (each node's
 * processors in ascending order, then its interconnect cache). */
static unsigned ordered(const machine *m, const holder_set *h, int except, unsigned *out)
{
    unsigned k = 0;
    for (unsigned n = 0; n < m->nodes; n++) {
        for (unsigned i = 0; i < m->ppn; i++) {
            unsigned s = n * m->ppn + i;
            if ((int)s != except && hs_has(h, s)) out[k++] = s;
        }
        if (hs_has(h, DIR_ICC_SLOT + n) && (int)(DIR_ICC_SLOT + n) != except) out[k++] = DIR_ICC_SLOT + n;
    }
    return k;
}

static inline bool hs_meets(const holder_set *a, const holder_set *b)
{
    return ((a->w[0] & b->w[0]) | (a->w[1] & b->w[1]) | (a->w[2] & b->w[2])) != 0;
}

/* Where the holders of h other than except are: on node, else on home, else elsewhere. */
static inline mach_presence presence(const machine *m, const holder_set *h, int except, int node, int home)
{
    holder_set o = *h;
    if (except >= 0) hs_del(&o, (unsigned)except);
    if (__builtin_expect(hs_empty(&o), 1)) return PRES_NONE;
    if (hs_meets(&o, &m->node_slots[node])) return PRES_LOCAL;
    return hs_meets(&o, &m->node_slots[home]) ? PRES_HOME : PRES_REMOTE;
}

/* ---- building a sequence ---- */

static inline int bank_of(const machine *m, uint32_t line) { return (int)(line % m->banks); }

/* The home node of line for a requester on req_node. The page's placement
 * is decided at the first request for any of its lines and never changes. */
static inline int line_home(machine *m, uint32_t line, int req_node)
{
    int h = placement_page(m->pl, line << m->line_shift, req_node);
    return h == PLACE_REPLICATED ? req_node : h;
}

/* The fields every sequence starts with: who asks, when, for which line of
 * which home, with which code. */
static inline __attribute__((always_inline)) void seq_head(machine *m, int requester, int req_node, uint64_t clock,
                                                           uint32_t line, int home, uint8_t code)
{
    mach_seq *s = &m->seq;
    s->clock = clock;
    s->requester = requester;
    s->req_node = req_node;
    s->code = code;
    s->addr = line << m->line_shift;
    s->home = home;
}

static inline __attribute__((always_inline)) void seq_begin(machine *m, int requester, int req_node, uint64_t clock, uint32_t line, int home,
                      const dir_view *e, uint8_t code)
{
    mach_seq *s = &m->seq;
    seq_head(m, requester, req_node, clock, line, home, code);
    s->bank = m->tx_fields ? bank_of(m, line) : 0;
    s->status = e->state;
    s->holders = e->holders;
    s->presence = (uint8_t)presence(m, &e->holders, requester, req_node, home);
    s->source = SRC_NONE;
    s->critical = 0;
    s->n = 0;
}

/* The next transaction: its code, and when the machine fills every field,
 * those known from the sequence (the caller names the endpoints); NULL when
 * only codes are kept. */
static inline cdat_txn *tx_add(machine *m, uint8_t code)
{
    mach_seq *s = &m->seq;
    cdat_txn *t = &s->tx[s->n++];
    t->code = code;
    if (!m->tx_fields) return NULL;
    t->clock = s->clock;
    t->addr = s->addr;
    t->bank = s->bank;
    t->hnode = s->home;
    return t;
}

/* The (proc, node) naming of a holder slot and of the requester. */
static void slot_name(const machine *m, unsigned s, int *proc, int *node)
{
    if (s >= DIR_ICC_SLOT) {
        *proc = (int)m->ppn;
        *node = (int)(s - DIR_ICC_SLOT);
    } else {
        *proc = m->p[s].proc;
        *node = m->p[s].node;
    }
}

static void requester_name(const machine *m, int *proc, int *node)
{
    int r = m->seq.requester;
    if (r < 0) {
        *proc = r;
        *node = m->seq.req_node;
    } else {
        *proc = m->p[r].proc;
        *node = m->p[r].node;
    }
}

/* A transaction between the home and the requester (classes 0, 1, 2, 5 of the requester). */
static inline void tx_requester(machine *m, uint8_t code)
{
    cdat_txn *t = tx_add(m, code);
    if (t) requester_name(m, &t->proc, &t->node);
}

/* A transaction between the home and a holder slot. */
static inline void tx_slot(machine *m, uint8_t code, unsigned s)
{
    cdat_txn *t = tx_add(m, code);
    if (t) slot_name(m, s, &t->proc, &t->node);
}

/* Cache-to-cache from owner q to the requester. */
static void tx_c2c(machine *m, uint8_t code, unsigned q)
{
    cdat_txn *t = tx_add(m, code);
    if (!t) return;
    slot_name(m, q, &t->proc, &t->node);
    requester_name(m, &t->proc2, &t->node2);
}

static inline mach_source memory_source(const machine *m)
{
    return m->seq.home == m->seq.req_node ? SRC_LOCAL_MEMORY : SRC_REMOTE_MEMORY;
}

static inline mach_source cache_source(const machine *m, unsigned q)
{
    return slot_node(m, q) == m->seq.req_node ? SRC_LOCAL_CACHE : SRC_REMOTE_CACHE;
}

/* ---- copies ---- */

/* Processor q's copy in cache s (MC_DATA, MC_INSTR) goes: the miss
 * taxonomy hears of it when it was there. The L2 counts as the data side:
 * its copy goes with the d-cache's. */
static inline void lose(machine *m, unsigned q, int s, uint32_t line)
{
    cache *c = s == MC_DATA ? &m->p[q].d : &m->p[q].i;
    if (cache_invalidate(c, line) != CS_INVALID && m->mc) mc_invalidated(m->mc, q, s, line);
    if (s == MC_DATA && m->l2 && cache_invalidate(&m->p[q].l2, line) != CS_INVALID && m->mc2)
        mc_invalidated(m->mc2, q, MC_DATA, line);
}

/* Processor q's state of line over its data levels, the d-cache and the L2:
 * the dirtiest copy (the copies of a processor share one permission, shared
 * or owned; docs/cdat-protocol.md §9). */
static inline cache_state proc_state(const machine *m, unsigned q, uint32_t line)
{
    cache_state s = cache_probe(&m->p[q].d, line);
    if (m->l2 && s != CS_DIRTY) {
        cache_state t = cache_probe(&m->p[q].l2, line);
        if (t > s) s = t;
    }
    return s;
}

/* Processor q keeps line shared: each of its data copies becomes shared
 * (the dirty data went with the answer). */
static inline void proc_share(machine *m, unsigned q, uint32_t line)
{
    cache_set_state(&m->p[q].d, line, CS_SHARED);
    if (m->l2) cache_set_state(&m->p[q].l2, line, CS_SHARED);
}

/* Processor q loses line from both caches. */
static void drop_proc(machine *m, unsigned q, uint32_t line)
{
    lose(m, q, MC_DATA, line);
    lose(m, q, MC_INSTR, line);
}

/* An inv reaches slot s. A node's interconnect cache answers for the node:
 * the shared copies it handed to the node's processors (the directory does
 * not record them) go too, except the requester's own. */
static void drop_slot(machine *m, unsigned s, uint32_t line, int except)
{
    if (s < DIR_ICC_SLOT) {
        drop_proc(m, s, line);
        return;
    }
    unsigned n = s - DIR_ICC_SLOT;
    cache_invalidate(&m->icc[n], line);
    for (unsigned i = 0; i < m->ppn; i++) {
        unsigned q = n * m->ppn + i;
        if ((int)q == except) continue;
        if (proc_state(m, q, line) == CS_SHARED) lose(m, q, MC_DATA, line);
        lose(m, q, MC_INSTR, line);
    }
}

/* inv (34) to every recorded holder but except, in order, then inv_done (53)
 * from each in the same order. Returns whether there was any. */
static bool invalidate_holders(machine *m, const holder_set *h, int except, uint32_t line)
{
    unsigned slots[DIR_SLOTS];
    unsigned k = ordered(m, h, except, slots);
    for (unsigned i = 0; i < k; i++) tx_slot(m, TX_INV, slots[i]);
    for (unsigned i = 0; i < k; i++) tx_slot(m, TX_INV_DONE, slots[i]);
    for (unsigned i = 0; i < k; i++) drop_slot(m, slots[i], line, except);
    return k > 0;
}

/* ---- the home's memory and its L3 (docs/cdat-protocol.md §10) ----
 *
 * Every sequence makes at most one access to its home's memory, and which
 * follows from the sequence alone: a read when the memory supplied the data
 * (the source is local or remote memory: sections 2, 3, 4b, 4c and the I/O
 * read_current), else a write when a transaction carried data into it:
 * write_back (21), update_data (22), flush (24), recall_c2c_data (51),
 * recall_data (56), write_purge (06). recall_c2c_done (52), update_tag (23),
 * req_inv (04) carry none. With an L3, the access goes through the home's L3
 * here, the one place, just before the sequence is handed on; the source of a
 * read it served becomes local_l3 or remote_l3. */

static inline bool writes_memory(uint8_t code)
{
    return code == TX_WRITE_BACK || code == TX_UPDATE_DATA || code == TX_FLUSH || code == TX_RECALL_C2C_DATA ||
           code == TX_RECALL_DATA || code == TX_WRITE_PURGE;
}

static void l3_access(machine *m)
{
    mach_seq *s = &m->seq;
    cache *c = &m->l3c[s->home];
    uint32_t line = s->addr >> m->line_shift, victim;
    cache_state vst = CS_INVALID;
    bool read = s->source == SRC_LOCAL_MEMORY || s->source == SRC_REMOTE_MEMORY;
    if (!read) {
        unsigned i = 0;
        while (i < s->n && !writes_memory(s->tx[i].code)) i++;
        if (i == s->n) return;
    }
    if (cache_access(c, line) != CS_INVALID) {          /* a hit: now the most recent of its set */
        if (read) {
            s->l3 = L3_READ_HIT;
            s->source = (int8_t)(s->source == SRC_LOCAL_MEMORY ? SRC_LOCAL_L3 : SRC_REMOTE_L3);
        } else {
            s->l3 = L3_WRITE_HIT;
            cache_set_mru_state(c, line, CS_DIRTY);
        }
        return;
    }
    /* A miss: a read fills clean from DRAM; a write takes a line, dirty (the
     * whole line is written: no DRAM read). A dirty victim goes to DRAM. */
    s->l3 = read ? L3_READ_MISS : L3_WRITE_MISS;
    if (cache_fill(c, line, read ? CS_EXCLUSIVE : CS_DIRTY, &victim, &vst) && vst == CS_DIRTY) s->l3 |= L3_WRITE_BACK;
}

static inline void emit(machine *m)
{
    if (__builtin_expect(m->l3, 0)) {
        m->seq.l3 = 0;
        l3_access(m);
    }
    m->on_seq(m->ctx, &m->seq);
}

/* seq_begin for the commonest views when only codes are counted
 * (!tx_fields): the line's view st is idle, or held by owner alone, and
 * owner is the requester cpu (on node n), so no other holder is present. */
static inline void simple_seq(machine *m, int cpu, int n, uint64_t clock, uint32_t line, int home, unsigned st,
                              uint8_t code)
{
    mach_seq *s = &m->seq;
    seq_head(m, cpu, n, clock, line, home, code);
    s->bank = 0;
    s->status = (uint8_t)st;
    hs_clear(&s->holders);
    if (st != DIR_IDLE) hs_add(&s->holders, (unsigned)cpu);
    s->presence = PRES_NONE;
    s->tx[0].code = code;
}

/* A replacement in cpu's d-cache (docs/cdat-protocol.md §5). An exclusive or
 * dirty victim leaves the i-cache too: the home forgets (or may forget) the
 * processor, so no copy of it may stay behind. */
static void evict_data(machine *m, int cpu, uint64_t clock, uint32_t victim, cache_state vst, mach_ref *r)
{
    if (vst == CS_SHARED) {
        r->silent++;
        return;
    }
    if (cache_holds(&m->p[cpu].i, victim)) cache_invalidate(&m->p[cpu].i, victim);
    if (vst == CS_EXCLUSIVE && !m->er_announced) {
        r->silent++;
        return;
    }
    uint8_t code = vst == CS_DIRTY ? TX_WRITE_BACK : TX_UPDATE_TAG;
    int node = m->p[cpu].node;
    uint8_t *code_at;
    unsigned owner = 0, st = m->tx_fields ? 0 : dir_peek_simple(&m->dir, victim, &code_at, &owner);
    if (st) {                           /* only codes counted, the view in the map: no view built */
        if (st == DIR_IDLE || owner != (unsigned)cpu) bug(m, victim, "a returned line is not recorded as the processor's");
        simple_seq(m, cpu, node, clock, victim, line_home(m, victim, node), st, code);
        m->seq.source = SRC_NONE;
        m->seq.critical = 0;
        m->seq.n = 1;
        dir_store_simple(&m->dir, victim, code_at, DIR_IDLE, 0);
        emit(m);
        return;
    }
    dir_view v, *e = &v;
    code_at = dir_load(&m->dir, victim, e);
    int home = line_home(m, victim, node);
    if ((e->state != DIR_EXCLUSIVE && e->state != DIR_DIRTY) || e->owner != cpu)
        bug(m, victim, "a returned line is not recorded as the processor's");
    seq_begin(m, cpu, node, clock, victim, home, e, code);
    tx_requester(m, code);
    dir_store_simple(&m->dir, victim, code_at, DIR_IDLE, 0);
    emit(m);
}

/* ---- the L2 (docs/cdat-protocol.md §9) ----
 *
 * A processor's d-cache, i-cache and L2 are one holder for the directory:
 * the processor holds a line while any of them does, and its copies share
 * one permission (shared, or owned: exclusive or dirty), while each level
 * has its own dirty bit. A line leaves the processor, with the return of §5,
 * only when its last data copy (d-cache or L2) goes. */

static inline bool data_holds(const machine *m, int cpu, uint32_t line)
{
    return cache_holds(&m->p[cpu].d, line) || cache_holds(&m->p[cpu].l2, line);
}

/* flush (24): cpu's dirty data of line goes home, and cpu keeps the line;
 * the home records it exclusive (clean) at cpu. */
static void flush(machine *m, int cpu, uint64_t clock, uint32_t line)
{
    int node = m->p[cpu].node;
    dir_view v, *e = &v;
    uint8_t *code_at = dir_load(&m->dir, line, e);
    if ((e->state != DIR_EXCLUSIVE && e->state != DIR_DIRTY) || e->owner != cpu)
        bug(m, line, "a flushed line is not recorded as the processor's");
    seq_begin(m, cpu, node, clock, line, line_home(m, line, node), e, TX_FLUSH);
    tx_requester(m, TX_FLUSH);
    dir_store_simple(&m->dir, line, code_at, DIR_EXCLUSIVE, (unsigned)cpu);
    emit(m);
}

/* A line the L2 evicted (state wst). */
static void l2_victim(machine *m, int cpu, uint64_t clock, uint32_t w, cache_state wst, mach_ref *r)
{
    mach_proc *P = &m->p[cpu];
    if (m->l2_inclusion == INCL_INCLUSIVE) {
        /* Back-invalidation: the L1 copies go with it, a dirty one's data too. */
        cache_state s1 = cache_invalidate(&P->d, w);
        r->l2 += (uint8_t)(((s1 != CS_INVALID) + (cache_invalidate(&P->i, w) != CS_INVALID)) * L2_BACK_INV_1);
        if (s1 > wst) wst = s1;
    } else if (m->l2_inclusion == INCL_NON_INCLUSIVE && cache_holds(&P->d, w)) {
        /* The d-cache keeps the line, so the processor does: no return. A
         * dirty victim's data goes home as a flush; the processor stays the owner. */
        if (wst == CS_DIRTY) {
            r->l2 += L2_WRITE_BACK_1;
            flush(m, cpu, clock, w);
        }
        return;
    }
    if (wst == CS_DIRTY) r->l2 += L2_WRITE_BACK_1;
    evict_data(m, cpu, clock, w, wst, r);
}

/* Put line into cpu's L2 in state st (an L2 of an exclusive policy only
 * takes L1 victims). */
static void l2_put(machine *m, int cpu, uint64_t clock, uint32_t line, cache_state st, mach_ref *r)
{
    uint32_t w;
    cache_state wst;
    if (cache_fill(&m->p[cpu].l2, line, st, &w, &wst)) l2_victim(m, cpu, clock, w, wst, r);
}

/* Data of line, which cpu owns, written into its L2 (not exclusive): a
 * dirty d-cache victim, or a store through the d-cache. A hit marks the L2's
 * copy dirty; a miss (a non-inclusive L2 that let it go) takes an L2 line,
 * dirty. Either way a reference of the L2 (r->l2's write bits), which its
 * classification's shadow cache sees (no miss to classify). */
static void l2_write(machine *m, int cpu, uint64_t clock, uint32_t line, mach_ref *r)
{
    mach_proc *P = &m->p[cpu];
    if (m->mc2) mc_ref(m->mc2, (unsigned)cpu, MC_DATA, line, 0, 0);
    r->l2 |= L2_WRITE;
    if (cache_access(&P->l2, line) != CS_INVALID) {
        cache_set_mru_state(&P->l2, line, CS_DIRTY);
        return;
    }
    if (m->l2_inclusion == INCL_INCLUSIVE) bug(m, line, "an inclusive L2 lacks a line of the d-cache");
    r->l2 = (uint8_t)((r->l2 & ~L2_WRITES) | L2_WRITE_MISS);
    l2_put(m, cpu, clock, line, CS_DIRTY, r);
}

/* A line the d-cache evicted (state vst), with an L2. */
static void l1d_victim(machine *m, int cpu, uint64_t clock, uint32_t v, cache_state vst, mach_ref *r)
{
    mach_proc *P = &m->p[cpu];
    if (m->l2_inclusion == INCL_EXCLUSIVE) {             /* every victim moves down, its dirt with it */
        /* A victim moved into the L2 is a reference of it, as l2_write's writes are. */
        if (m->mc2) mc_ref(m->mc2, (unsigned)cpu, MC_DATA, v, 0, 0);
        r->l2 |= L2_WRITE_MISS;
        l2_put(m, cpu, clock, v, vst, r);
        return;
    }
    if (vst == CS_DIRTY) {                              /* written back into the L2 */
        l2_write(m, cpu, clock, v, r);
        return;
    }
    if (!cache_holds(&P->l2, v)) evict_data(m, cpu, clock, v, vst, r);  /* a clean line leaves the processor */
}

/* Put line into cpu's L1 for kind in state st (the i-cache: shared). An
 * i-cache victim leaves silently; it counts when the line leaves the
 * processor with it. */
static void l1_put(machine *m, int cpu, uint64_t clock, uint32_t line, int kind, cache_state st, mach_ref *r)
{
    uint32_t v;
    cache_state vst;
    if (kind == MACH_IFETCH) {
        if (cache_fill(&m->p[cpu].i, line, CS_SHARED, &v, &vst) && !data_holds(m, cpu, v)) r->silent++;
    } else if (cache_fill(&m->p[cpu].d, line, st, &v, &vst)) {
        l1d_victim(m, cpu, clock, v, vst, r);
    }
}

/* A line that came from outside the processor (or from its d-cache to its
 * i-cache): the L2 first, with the permission and a clean copy (unless it
 * is exclusive of the d-cache), then the L1. */
static void fill_levels(machine *m, int cpu, uint64_t clock, uint32_t line, int kind, cache_state st, mach_ref *r)
{
    if (m->l2_inclusion != INCL_EXCLUSIVE) l2_put(m, cpu, clock, line, st == CS_DIRTY ? CS_EXCLUSIVE : st, r);
    l1_put(m, cpu, clock, line, kind, st, r);
}

/* Put line into cpu's cache for kind in state st, with the victim's return. */
static void fill(machine *m, int cpu, uint64_t clock, uint32_t line, int kind, cache_state st, mach_ref *r)
{
    if (m->l2) {
        fill_levels(m, cpu, clock, line, kind, st, r);
        return;
    }
    uint32_t victim;
    cache_state vst;
    if (kind == MACH_IFETCH) {
        if (cache_fill(&m->p[cpu].i, line, CS_SHARED, &victim, &vst)) r->silent++;
    } else if (cache_fill(&m->p[cpu].d, line, st, &victim, &vst)) {
        evict_data(m, cpu, clock, victim, vst, r);
    }
}

/* A remote line reached node n in shared state from outside: the node's
 * interconnect cache keeps it and the home records it (docs/cdat-protocol.md §6). Its own
 * victims go silently (the home keeps a stale holder). */
static void icc_keep(machine *m, dir_view *e, int n, uint32_t line)
{
    if (!m->icc || m->seq.home == n) return;
    cache_fill(&m->icc[n], line, CS_SHARED, NULL, NULL);
    hs_add(&e->holders, DIR_ICC_SLOT + (unsigned)n);
}

static void set_owner(dir_view *e, dir_state st, unsigned owner)
{
    e->state = (uint8_t)st;
    e->owner = (uint8_t)owner;
    hs_clear(&e->holders);
    hs_add(&e->holders, owner);
}

/* The view after processor p got the line in state pst: owned by p, or shared
 * by p and, when q >= 0, by q (the former owner that kept a shared copy). */
static void set_view(dir_view *e, cache_state pst, unsigned p, int q)
{
    if (pst != CS_SHARED) {
        set_owner(e, pst == CS_DIRTY ? DIR_DIRTY : DIR_EXCLUSIVE, p);
        return;
    }
    e->state = DIR_SHARED;
    hs_clear(&e->holders);
    if (q >= 0) hs_add(&e->holders, (unsigned)q);
    hs_add(&e->holders, p);
}

/* ---- requests ---- */

/* The state a request gets from memory when no other copy matters. */
static cache_state from_memory(uint8_t request, bool may_excl)
{
    if (request == TX_READ_PRIV_OWN) return CS_DIRTY;
    if (request == TX_READ_SHAR_OR_PRIV && may_excl) return CS_EXCLUSIVE;
    return CS_SHARED;
}

/* The owner q's answer to a recall (31, 32, 33) for the requester, who ends
 * in state *pst (set here); the directory entry follows. io: an I/O
 * read_current (no c2c, the I/O processor never holds the line). */
static void recall(machine *m, dir_view *e, uint32_t line, uint8_t request, bool may_excl)
{
    unsigned q = e->owner;
    int cpu = m->seq.requester;
    bool io = request == TX_READ_CURRENT;
    uint8_t rc = request == TX_READ_SHAR_OR_PRIV ? TX_RECALL_SHAR_OR_PRIV
               : request == TX_READ_PRIV_OWN ? TX_RECALL_PRIV_OWN : TX_RECALL_SHAR;
    tx_slot(m, rc, q);
    cache_state qst = proc_state(m, q, line);
    cache_state pst;                 /* the requester's state at the end (io: unused) */
    bool q_keeps;                    /* q ends shared (else invalid) */
    if (qst == CS_DIRTY) {
        m->seq.source = (int8_t)cache_source(m, q);
        pst = from_memory(request, may_excl);      /* the same end states as from memory */
        q_keeps = pst == CS_SHARED;
        if (m->dt && !io) {
            if (request == TX_READ_PRIV_OWN) {
                tx_c2c(m, TX_C2C_DATA_PRIV_OWN, q);
                tx_slot(m, TX_RECALL_C2C_DONE, q);
            } else {
                tx_c2c(m, pst == CS_EXCLUSIVE ? TX_C2C_DATA_PRIV : TX_C2C_DATA_SHAR, q);
                tx_slot(m, TX_RECALL_C2C_DATA, q);
            }
            m->seq.critical = 3;
        } else {
            tx_slot(m, TX_RECALL_DATA, q);
            tx_requester(m, pst == CS_SHARED ? TX_DATA_SHAR : TX_DATA_PRIV);
            m->seq.critical = 4;
        }
    } else if (qst == CS_EXCLUSIVE) {
        m->seq.source = (int8_t)memory_source(m);
        tx_slot(m, TX_RECALL_NACK_SHAR, q);
        pst = request == TX_READ_PRIV_OWN ? CS_DIRTY : CS_SHARED;
        q_keeps = pst == CS_SHARED;
        tx_requester(m, pst == CS_SHARED ? TX_DATA_SHAR : TX_DATA_PRIV);
        m->seq.critical = 4;
    } else if (qst == CS_INVALID) {
        m->seq.source = (int8_t)memory_source(m);
        tx_slot(m, TX_RECALL_NACK_INV, q);
        pst = from_memory(request, may_excl);      /* as if the line were idle */
        q_keeps = false;
        tx_requester(m, pst == CS_SHARED ? TX_DATA_SHAR : TX_DATA_PRIV);
        m->seq.critical = 4;
    } else {
        bug(m, line, "a recalled owner holds the line shared");
    }
    if (q_keeps) proc_share(m, q, line);
    else if (qst != CS_INVALID) drop_proc(m, q, line);
    if (io) {
        e->owner = 0;
        hs_clear(&e->holders);
        if (q_keeps) {
            e->state = DIR_SHARED;
            hs_add(&e->holders, q);
        } else {
            e->state = DIR_IDLE;
        }
        return;
    }
    set_view(e, pst, (unsigned)cpu, q_keeps ? (int)q : -1);
}

/* Whether data misses may try the short path below: the fast build, and
 * only the codes counted. */
static inline bool short_path_on(const machine *m) { return FAST_PATHS && m->simple_misses && !m->tx_fields; }

/* ---- the commonest miss ----
 *
 * A data miss whose line the map alone describes as idle, or as the
 * requester's own (exclusive or dirty, dropped silently since), and that
 * memory answers with the line exclusive or dirty: a store, or a load of a
 * local line or, under RL = A, of a remote one, and no interconnect cache to
 * look in first. Most misses are of this kind (every data miss of a
 * one-processor machine whose line the i-cache did not share; on the
 * irregular mix at 4x4 half of them). mach_miss below would send the
 * request (02 or 03) and data_priv (12) from the home's memory, record the
 * requester as the owner and fill; simple_data_miss does the same without
 * building a view, ordering holders or naming anyone, which is all the
 * machine does when only the codes are counted (!tx_fields). It returns false
 * having changed nothing but the page's placement (which mach_miss then finds
 * made) for any other miss. A unit test runs both paths on the same
 * references (test_machine.c). */
static bool simple_data_miss(machine *m, int cpu, uint64_t clock, uint32_t line, bool store, mach_ref *r)
{
    uint8_t *code_at;
    unsigned owner = 0, st = dir_peek_simple(&m->dir, line, &code_at, &owner);
    if (!st || (st != DIR_IDLE && owner != (unsigned)cpu)) return false;
    int n = m->p[cpu].node, home = line_home(m, line, n);
    if (!store && home != n && (!m->rl_a || m->icc)) return false;
    dir_note_request(&m->dir, code_at);
    uint8_t request = store ? TX_READ_PRIV_OWN : TX_READ_SHAR_OR_PRIV;
    mach_seq *s = &m->seq;
    simple_seq(m, cpu, n, clock, line, home, st, request);
    s->source = (int8_t)(home == n ? SRC_LOCAL_MEMORY : SRC_REMOTE_MEMORY);
    s->critical = 2;
    s->n = 2;
    s->tx[1].code = TX_DATA_PRIV;
    dir_store_simple(&m->dir, line, code_at, store ? DIR_DIRTY : DIR_EXCLUSIVE, (unsigned)cpu);
    emit(m);
    r->source = s->source;
    if (m->l2) {                                    /* through the L2 (§9): it and the d-cache take the line */
        fill_levels(m, cpu, clock, line, store ? MACH_STORE : MACH_LOAD, store ? CS_DIRTY : CS_EXCLUSIVE, r);
        return true;
    }
    uint32_t victim;
    cache_state vst;
    if (cache_fill(&m->p[cpu].d, line, store ? CS_DIRTY : CS_EXCLUSIVE, &victim, &vst))
        evict_data(m, cpu, clock, victim, vst, r);
    return true;
}

/* A miss of the processor (with an L2: of its L1 and its L2). */
static mach_ref processor_miss(machine *m, int cpu, uint64_t clock, uint32_t line, int kind)
{
    mach_ref r = MACH_REF(REF_MISS, SRC_NONE);
    mach_proc *P = &m->p[cpu];
    int n = P->node;
    /* An instruction in a line of the processor's own d-cache: copied inside the processor. */
    if (kind == MACH_IFETCH && cache_probe(&P->d, line) != CS_INVALID) {
        r.source = SRC_LOCAL_CACHE;
        fill(m, cpu, clock, line, kind, CS_SHARED, &r);
        return r;
    }
    uint8_t request = kind == MACH_IFETCH ? TX_READ_SHAR : kind == MACH_LOAD ? TX_READ_SHAR_OR_PRIV : TX_READ_PRIV_OWN;
    dir_view v, *e = &v;
    uint8_t *code_at = dir_load(&m->dir, line, e);
    int home = line_home(m, line, n);
    bool owned = e->state == DIR_EXCLUSIVE || e->state == DIR_DIRTY;

    /* Local snoop: another processor of the node holds the line dirty. */
    if (owned && e->owner != cpu && m->p[e->owner].node == n && proc_state(m, e->owner, line) == CS_DIRTY) {
        unsigned q = e->owner;
        seq_begin(m, cpu, n, clock, line, home, e, request);
        tx_requester(m, request);
        tx_slot(m, TX_UPDATE_DATA, q);
        m->seq.critical = 2;
        m->seq.source = SRC_LOCAL_CACHE;
        cache_state pst = request == TX_READ_PRIV_OWN ? CS_DIRTY : CS_SHARED;
        if (pst == CS_DIRTY) drop_proc(m, q, line);
        else proc_share(m, q, line);
        set_view(e, pst, (unsigned)cpu, pst == CS_SHARED ? (int)q : -1);
        dir_store(&m->dir, line, code_at, e);
        emit(m);
        r.source = SRC_LOCAL_CACHE;
        fill(m, cpu, clock, line, kind, pst, &r);
        return r;
    }
    /* A read of a remote line the node's interconnect cache holds. */
    if (kind != MACH_STORE && m->icc && home != n && cache_access(&m->icc[n], line) != CS_INVALID) {
        r.source = SRC_LOCAL_CACHE;
        fill(m, cpu, clock, line, kind, CS_SHARED, &r);
        return r;
    }

    seq_begin(m, cpu, n, clock, line, home, e, request);
    tx_requester(m, request);
    bool may_excl = home == n || m->rl_a;
    dir_state st = (dir_state)e->state;
    if (owned && e->owner == cpu) st = DIR_IDLE;      /* it dropped the line silently */
    cache_state pst;
    if (st == DIR_IDLE) {
        pst = from_memory(request, may_excl);
        tx_requester(m, pst == CS_SHARED ? TX_DATA_SHAR : TX_DATA_PRIV);
        m->seq.critical = 2;
        m->seq.source = (int8_t)memory_source(m);
        if (pst == CS_SHARED) set_view(e, pst, (unsigned)cpu, -1);  /* else stored without a view below */
    } else if (st == DIR_SHARED) {
        m->seq.source = (int8_t)memory_source(m);
        if (request == TX_READ_PRIV_OWN) {
            bool any = invalidate_holders(m, &e->holders, cpu, line);
            tx_requester(m, TX_DATA_PRIV);
            m->seq.critical = any ? 4 : 2;
            set_owner(e, DIR_DIRTY, (unsigned)cpu);
            pst = CS_DIRTY;
        } else {
            tx_requester(m, TX_DATA_SHAR);
            m->seq.critical = 2;
            hs_add(&e->holders, (unsigned)cpu);
            pst = CS_SHARED;
        }
    } else {
        recall(m, e, line, request, may_excl);
        pst = e->state == DIR_SHARED ? CS_SHARED : e->state == DIR_DIRTY ? CS_DIRTY : CS_EXCLUSIVE;
    }
    /* Shared data from outside the node: the interconnect cache keeps a copy
     * (a snooped copy, handled above, never came from outside). */
    if (pst == CS_SHARED) icc_keep(m, e, n, line);
    if (st == DIR_IDLE && pst != CS_SHARED)     /* the commonest miss: the line is now the requester's alone */
        dir_store_simple(&m->dir, line, code_at, pst == CS_DIRTY ? DIR_DIRTY : DIR_EXCLUSIVE, (unsigned)cpu);
    else
        dir_store(&m->dir, line, code_at, e);
    emit(m);
    r.source = m->seq.source;
    fill(m, cpu, clock, line, kind, pst, &r);
    return r;
}

static void upgrade_seq(machine *m, int cpu, uint64_t clock, uint32_t line);

/* An L1 miss of cpu, with an L2 (docs/cdat-protocol.md §9). */
static mach_ref l2_miss(machine *m, int cpu, uint64_t clock, uint32_t line, int kind)
{
    mach_ref r = MACH_REF(REF_MISS, SRC_L2);
    r.l2 = L2_HIT;
    mach_proc *P = &m->p[cpu];
    cache_state s2 = cache_access(&P->l2, line);
    /* --miss-classes: the lookup, before the fills and victims it leads to. */
    if (m->mc2) m->l2_class = (uint8_t)(mc_ref(m->mc2, (unsigned)cpu, MC_DATA, line, m->ref_words, s2 == CS_INVALID) + 1);
    if (s2 != CS_INVALID) {
        cache_state s1 = s2 == CS_DIRTY ? CS_EXCLUSIVE : s2;    /* clean above the L2's copy */
        if (kind == MACH_STORE) {
            if (s2 == CS_SHARED) {                  /* the L2's copy is shared: an upgrade first */
                r.l2 = L2_UPGRADE;         /* set before anything else can add to r.l2 */
                upgrade_seq(m, cpu, clock, line);
                s2 = CS_EXCLUSIVE;
                cache_set_mru_state(&P->l2, line, s2);
            }
            s1 = CS_DIRTY;
        }
        if (kind == MACH_IFETCH) {
            s1 = CS_SHARED;
        } else if (m->l2_inclusion == INCL_EXCLUSIVE) {
            cache_invalidate(&P->l2, line);         /* the line moves up, its dirt with it */
            if (s2 == CS_DIRTY) s1 = CS_DIRTY;
        }
        l1_put(m, cpu, clock, line, kind, s1, &r);
        return r;
    }
    if (kind == MACH_IFETCH) {
        cache_state sd = cache_probe(&P->d, line);
        if (sd != CS_INVALID) {                     /* copied inside the processor, as without an L2 */
            r = MACH_REF(REF_MISS, SRC_LOCAL_CACHE);
            r.l2 = L2_MISS;
            fill_levels(m, cpu, clock, line, kind, sd, &r);
            return r;
        }
    }
    if (kind != MACH_IFETCH && short_path_on(m)) {
        r = MACH_REF(REF_MISS, SRC_NONE);
        r.l2 = L2_MISS;
        if (simple_data_miss(m, cpu, clock, line, kind == MACH_STORE, &r)) return r;
    }
    r = processor_miss(m, cpu, clock, line, kind);
    r.l2 |= L2_MISS;                                /* bits 0-1 are still 0: the fills touch the others */
    return r;
}

mach_ref mach_miss(machine *m, int cpu, uint64_t clock, uint32_t line, int kind)
{
    return m->l2 ? l2_miss(m, cpu, clock, line, kind) : processor_miss(m, cpu, clock, line, kind);
}

mach_ref mach_data_miss(machine *m, int cpu, uint64_t clock, uint32_t line, bool store)
{
    /* The fill at the end may return a victim to its home: start loading its
     * directory entry now, so the two lookups overlap (on either path). */
    uint32_t victim;
    cache_state vst = cache_lru(&m->p[cpu].d, line, &victim);
    if (vst == CS_DIRTY || vst == CS_EXCLUSIVE) dir_prefetch(&m->dir, victim);
    mach_ref r = MACH_REF(REF_MISS, SRC_NONE);
    if (short_path_on(m) && !m->l2 && simple_data_miss(m, cpu, clock, line, store, &r))   /* with an L2: after its lookup */
        return r;
    return mach_miss(m, cpu, clock, line, store ? MACH_STORE : MACH_LOAD);
}

/* req_inv for cpu's shared copy of line: the home invalidates the other
 * holders and records cpu as the dirty owner. */
static void upgrade_seq(machine *m, int cpu, uint64_t clock, uint32_t line)
{
    int n = m->p[cpu].node;
    dir_view v, *e = &v;
    uint8_t *code_at = dir_load(&m->dir, line, e);
    int home = line_home(m, line, n);
    if (e->state != DIR_SHARED) bug(m, line, "req_inv for a line the home does not record as shared");
    seq_begin(m, cpu, n, clock, line, home, e, TX_REQ_INV);
    tx_requester(m, TX_REQ_INV);
    bool any = invalidate_holders(m, &e->holders, cpu, line);
    tx_requester(m, TX_ALLOC_DONE);
    m->seq.critical = any ? 4 : 2;
    set_owner(e, DIR_DIRTY, (unsigned)cpu);
    dir_store(&m->dir, line, code_at, e);
    emit(m);
}

mach_ref mach_upgrade(machine *m, int cpu, uint64_t clock, uint32_t line)
{
    upgrade_seq(m, cpu, clock, line);
    cache_set_state(&m->p[cpu].d, line, CS_DIRTY);
    if (m->l2) cache_set_state(&m->p[cpu].l2, line, CS_EXCLUSIVE);    /* owned, clean there */
    return MACH_REF(REF_UPGRADE, SRC_NONE);
}

/* docs/cdat-protocol.md §12: the store gets the line owned exactly as with a
 * write-back d-cache (a hit on an owned copy needs nothing, a shared copy an
 * upgrade, a miss the L2 and then the home), which leaves the d-cache's copy
 * dirty; here it is clean instead, and the store's data goes into the L2,
 * after everything the store led to. */
mach_ref mach_store_through(machine *m, int cpu, uint64_t clock, uint32_t line, cache_state st)
{
    mach_ref r;
    if (st == CS_EXCLUSIVE) r = MACH_REF(REF_HIT, SRC_NONE);
    else if (st == CS_SHARED) r = mach_upgrade(m, cpu, clock, line);
    else if (st == CS_INVALID) r = mach_data_miss(m, cpu, clock, line, true);
    else bug(m, line, "a write-through d-cache holds a line dirty");
    if (st != CS_EXCLUSIVE) cache_set_state(&m->p[cpu].d, line, CS_EXCLUSIVE);
    l2_write(m, cpu, clock, line, &r);
    return r;
}

void mach_io(machine *m, int io, int io_node, uint64_t clock, uint32_t line, bool write_purge)
{
    uint8_t request = write_purge ? TX_WRITE_PURGE : TX_READ_CURRENT;
    dir_view v, *e = &v;
    uint8_t *code_at = dir_load(&m->dir, line, e);
    int home = line_home(m, line, io_node);
    seq_begin(m, -io, io_node, clock, line, home, e, request);
    tx_requester(m, request);
    if (write_purge) {
        /* Every holder, a dirty owner included, is invalidated; its data is discarded. */
        bool any = invalidate_holders(m, &e->holders, -1, line);
        tx_requester(m, TX_WRITE_PURGE_DONE);
        m->seq.critical = any ? 4 : 2;
        e->state = DIR_IDLE;
        e->owner = 0;
        hs_clear(&e->holders);
    } else if (e->state == DIR_EXCLUSIVE || e->state == DIR_DIRTY) {
        recall(m, e, line, TX_READ_CURRENT, false);
    } else {
        tx_requester(m, TX_DATA_SHAR);
        m->seq.critical = 2;
        m->seq.source = (int8_t)memory_source(m);
    }
    dir_store(&m->dir, line, code_at, e);
    emit(m);
}
