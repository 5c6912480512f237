/* cdat_check.c — the protocol checker of the tests: replays a cdat detailed
 * trace and verifies it against docs/cdat-protocol.md and docs/cdat-report.md, written
 * from those documents, not from cdat's code, so that the two can disagree.
 *
 *   cdat_check [--report R.cdat_report] [--nodes N --ppn P --protocol K
 *              [--icc] [--banks B] [--line-size L]] DETAILED
 *
 * The machine (nodes, processors per node, banks, line size, protocol,
 * interconnect cache present) comes from the report's header lines
 * (`# machine:`, `# protocol:`, `# interconnect_cache:`), or from the options
 * when there is no report (the hand-written traces of the unit tests).
 *
 * Checks:
 *  - every record parses (else: the line and the reason, exit 2 at once);
 *    lines starting with '#' and empty lines are skipped (cdat writes none:
 *    they are the comments of the tests' hand-written traces);
 *  - sequences: a request (01-06), a return (21, 23) or a flush (24) starts one; each has
 *    one of the forms of docs/cdat-protocol.md for its request, protocol and home, with
 *    one clock, addr, bank and home node; bank = (addr / line_size) mod banks;
 *  - a model of the home's view of every line (holders, owner), changed only
 *    by what the trace shows (and by interconnect-cache fills, §8.4): at most
 *    one owner (exclusive or dirty), no holder beside it; every grant of
 *    ownership finds no other holder once the invs and the recall are done;
 *    a shared grant finds no owner; recalls and invs go to recorded holders,
 *    returns come from the owner; answers fit the owner's state;
 *  - with --report: the RxTxL10/L11 lines and the per-processor RxT<p>L10/L11
 *    lines (not in slice mode, where they are per process) equal the trace's counts (transactions, requests, Σ critical path
 *    / requests as %.4f, per code count and share).
 * Exit status: 0 all holds; 1 usage error; 2 a malformed trace or report, or
 * violations (the first ones printed as `cdat_check: FILE: line N: reason`). */
#include "../../base/diag.h"
#include "../../base/line_reader.h"
#include "../../common/options.h"
#include "../../formats/cdat_trace.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SHOWN = 10, MAX_IO = 64, MAX_SLOTS = 160 };

/* ---- the machine ---- */

typedef struct mach {
    unsigned nodes, ppn, banks, line_size, protocol;
    bool icc;
    bool rl_a, er, dt;          /* Table 2's switches */
} mach;

static void switches(mach *m)
{
    /* docs/cdat-protocol.md (the HP Labs report's Table 2): RL A?, ER announced?, DT? */
    static const char *const t[9] = { "", "AEY", "BEN", "B.N", "A.N", "A.Y", "AEN", "B.Y", "BEY" };
    m->rl_a = t[m->protocol][0] == 'A';
    m->er = t[m->protocol][1] == 'E';
    m->dt = t[m->protocol][2] == 'Y';
}

/* ---- violations ---- */

static const char *trace_path;
static uint64_t violations;

static void violation(const char *file, uint64_t line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void violation(const char *file, uint64_t line, const char *fmt, ...)
{
    if (++violations > SHOWN) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line) fprintf(stderr, "cdat_check: %s: line %" PRIu64 ": %s\n", file, line, msg);
    else fprintf(stderr, "cdat_check: %s: %s\n", file, msg);
}

/* ---- parties ---- */

/* A party is a processor (0 <= proc < ppn) or a node's interconnect cache
 * (proc = ppn); slot node*(ppn+1)+proc, so ascending slots are the sharing
 * list's order. I/O processors (proc < 0) hold nothing and have no slot. */
typedef struct party { int proc, node; } party;

static const mach *M;

static bool is_proc(party p) { return p.node >= 0 && (unsigned)p.node < M->nodes && p.proc >= 0 && (unsigned)p.proc < M->ppn; }
static bool is_icc(party p) { return M->icc && p.node >= 0 && (unsigned)p.node < M->nodes && (unsigned)p.proc == M->ppn; }
static bool is_io(party p) { return p.node >= 0 && (unsigned)p.node < M->nodes && p.proc < 0; }
static int slot(party p) { return p.node * (int)(M->ppn + 1) + p.proc; }
static bool same(party a, party b) { return a.proc == b.proc && a.node == b.node; }

static const char *name(party p, char *buf)
{
    if (p.proc < 0) snprintf(buf, 48, "I/O processor %d of node %d", -p.proc, p.node);
    else if ((unsigned)p.proc == M->ppn) snprintf(buf, 48, "node %d's interconnect cache", p.node);
    else snprintf(buf, 48, "processor %d of node %d", p.proc, p.node);
    return buf;
}

static party slot_party(int s) { return (party){ s % (int)(M->ppn + 1), s / (int)(M->ppn + 1) }; }

/* ---- the model of the home's view, per line ---- */

typedef struct view {
    uint32_t addr;
    bool used;
    bool lost;                  /* a malformed sequence: no model checks any more */
    bool dirty;                 /* the owner surely holds it dirty */
    int16_t owner;              /* slot, or -1 */
    uint64_t h[3];              /* holder slots (the owner alone while there is one) */
} view;

static view *tab;
static size_t cap, used;

static uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    return x ^ (x >> 16);
}

static view *view_of(uint32_t addr)
{
    if (2 * (used + 1) > cap) {
        view *old = tab;
        size_t oc = cap;
        cap = cap ? 2 * cap : 1024;
        tab = xcalloc(cap, sizeof *tab);
        used = 0;
        for (size_t i = 0; i < oc; i++)
            if (old[i].used) {
                view *v = view_of(old[i].addr);
                *v = old[i];
            }
        free(old);
    }
    size_t i = hash32(addr) & (cap - 1);
    while (tab[i].used && tab[i].addr != addr) i = (i + 1) & (cap - 1);
    if (!tab[i].used) {
        tab[i] = (view){ .addr = addr, .used = true, .owner = -1 };
        used++;
    }
    return &tab[i];
}

static bool has(const view *v, int s) { return v->h[s >> 6] >> (s & 63) & 1; }
static void add(view *v, int s) { v->h[s >> 6] |= 1ull << (s & 63); }
static void del(view *v, int s) { v->h[s >> 6] &= ~(1ull << (s & 63)); }
static void clear(view *v) { v->h[0] = v->h[1] = v->h[2] = 0; v->owner = -1; v->dirty = false; }
static bool empty(const view *v) { return !(v->h[0] | v->h[1] | v->h[2]); }

/* The first holder other than except (-1: none), or -1. */
static int other_holder(const view *v, int except)
{
    for (int s = 0; s < MAX_SLOTS; s++)
        if (s != except && has(v, s)) return s;
    return -1;
}

/* ---- counts, per requester ---- */

typedef struct counts {
    uint64_t txn[CDAT_CODE_LIMIT];
    uint64_t transactions, requests, critical;
} counts;

static counts total, procs[128], ios[MAX_IO + 1];

static counts *counts_of(party p)
{
    if (is_proc(p)) return &procs[p.node * (int)M->ppn + p.proc];
    if (is_io(p) && -p.proc <= MAX_IO) return &ios[-p.proc];
    return NULL;
}

/* ---- sequences ---- */

typedef struct rec {
    cdat_txn t;
    uint64_t line;
} rec;

static const char *cn(unsigned code) { return cdat_code_name(code); }

/* The record's party: the processor side (sender of classes 0, 2, 5, 4;
 * receiver of 1, 3), and for class 4 the receiver. */
static party who(const rec *r) { return (party){ r->t.proc, r->t.node }; }
static party to(const rec *r) { return (party){ r->t.proc2, r->t.node2 }; }

typedef struct seqctx {
    const rec *r;
    size_t n;
    party P;                    /* the requester */
    view *v;                    /* the line's model */
    bool may_excl;              /* P may load exclusive: home = P's node or RL = A */
    bool bad;                   /* a violation of the form: the model is lost */
    bool ruled;                 /* a violation of the model's rules: the grant's checks are skipped */
} seqctx;

/* A violation of the sequence's form (the model of the line is given up). */
#define FORM(S, I, ...) do { violation(trace_path, (S)->r[I].line, __VA_ARGS__); (S)->bad = true; } while (0)
/* A violation of the model's rules (the model goes on). */
#define RULE(S, I, ...) do { violation(trace_path, (S)->r[I].line, __VA_ARGS__); (S)->ruled = true; } while (0)

/* A shared copy granted to P: P joins the holders; a remote line received
 * from outside P's node (11, 41) fills its interconnect cache (§8.4). */
static void grant_shared(seqctx *s, size_t i, bool from_outside)
{
    view *v = s->v;
    char b1[48], b2[48];
    if (!s->ruled && v->owner >= 0 && v->owner != slot(s->P))
        RULE(s, i, "%s gets a shared copy (%s) while %s owns the line", name(s->P, b1), cn(s->r[i].t.code),
             name(slot_party(v->owner), b2));
    v->owner = -1;
    v->dirty = false;
    add(v, slot(s->P));
    if (from_outside && M->icc && s->r[0].t.hnode != s->P.node) add(v, slot((party){ (int)M->ppn, s->P.node }));
}

/* Ownership granted to P: no other holder may remain. */
static void grant_owner(seqctx *s, size_t i, bool dirty)
{
    view *v = s->v;
    char b1[48], b2[48];
    int o = other_holder(v, slot(s->P));
    if (!s->ruled && o >= 0)
        RULE(s, i, "%s gets ownership (%s) while %s still holds the line", name(s->P, b1), cn(s->r[i].t.code),
             name(slot_party(o), b2));
    clear(v);
    add(v, slot(s->P));
    v->owner = (int16_t)slot(s->P);
    v->dirty = dirty;
}

/* The home's view is idle for P: no holders, or P itself as the owner. */
static bool idle_for(const seqctx *s) { return empty(s->v) || s->v->owner == slot(s->P); }

/* [R, 22 Q]: the local snoop. */
static unsigned form_snoop(seqctx *s)
{
    const rec *r = s->r;
    party Q = who(&r[1]);
    char b1[48];
    unsigned R = r[0].t.code;
    if (s->n != 2) FORM(s, 2, "%s after update_data: a local snoop is [request, 22]", cn(r[2].t.code));
    if (R > TX_READ_PRIV_OWN) FORM(s, 1, "update_data answers %s (only 01-03 are snooped)", cn(R));
    if (!is_proc(Q) || same(Q, s->P) || Q.node != s->P.node)
        FORM(s, 1, "update_data from %s, not from another processor of the requester's node %d", name(Q, b1),
             s->P.node);
    if (s->bad || s->v->lost) return 2;
    if (s->v->owner != slot(Q)) RULE(s, 1, "update_data from %s, which does not own the line", name(Q, b1));
    if (R == TX_READ_PRIV_OWN) {
        del(s->v, slot(Q));
        s->v->owner = -1;
        grant_owner(s, 1, true);
    } else {
        /* Both end shared; the copy came from inside the node: no fill. */
        s->v->owner = -1;
        s->v->dirty = false;
        add(s->v, slot(Q));
        grant_shared(s, 1, false);
    }
    return 2;
}

/* [01|02|05, 11|12]: the home answers from memory. */
static unsigned form_memory(seqctx *s)
{
    const rec *r = s->r;
    unsigned R = r[0].t.code, A = r[1].t.code;
    char b1[48], b2[48];
    if (s->n != 2) FORM(s, 2, "%s after %s: the answer ends the sequence", cn(r[2].t.code), cn(A));
    if (!same(who(&r[1]), s->P)) FORM(s, 1, "%s to %s, not to the requester", cn(A), name(who(&r[1]), b1));
    bool ok = A == TX_DATA_SHAR ? R != TX_READ_PRIV_OWN : A == TX_DATA_PRIV && R == TX_READ_SHAR_OR_PRIV;
    if (!ok) FORM(s, 1, "%s answers %s", cn(A), cn(R));
    if (R == TX_READ_SHAR_OR_PRIV && A == TX_DATA_PRIV && !s->may_excl)
        FORM(s, 1, "data_priv answers read_shar_or_priv of a line of node %d to node %d under RL = B",
             r[0].t.hnode, s->P.node);
    if (s->bad || s->v->lost) return 2;
    view *v = s->v;
    if (R == TX_READ_CURRENT) {
        if (v->owner >= 0)
            RULE(s, 1, "data_shar answers read_current while %s owns the line (no recall)",
                 name(slot_party(v->owner), b1));
        return 2;
    }
    if (v->owner >= 0 && v->owner != slot(s->P)) {
        RULE(s, 1, "%s answers %s while %s owns the line (no recall or snoop)", cn(A), cn(R),
             name(slot_party(v->owner), b1));
    } else if (R == TX_READ_SHAR_OR_PRIV) {
        bool idle = idle_for(s);
        if (A == TX_DATA_PRIV && !idle)
            RULE(s, 1, "data_priv answers read_shar_or_priv of a line the home records as shared (%s holds it)",
                 name(slot_party(other_holder(v, -1)), b2));
        if (A == TX_DATA_SHAR && idle && s->may_excl)
            RULE(s, 1, "data_shar answers read_shar_or_priv of a line idle at the home, which %s may load exclusive",
                 name(s->P, b2));
    }
    if (A == TX_DATA_SHAR) grant_shared(s, 1, true);
    else grant_owner(s, 1, false);
    return 2;
}

/* [03|04|06, 34×k, 53×k, 12|13|14]: invalidations (k >= 0). */
static unsigned form_inv(seqctx *s)
{
    const rec *r = s->r;
    unsigned R = r[0].t.code;
    char b1[48], b2[48];
    size_t k = 0;
    while (1 + k < s->n && r[1 + k].t.code == TX_INV) k++;
    for (size_t i = 0; i < k; i++) {
        party T = who(&r[1 + i]);
        if (!is_proc(T) && !is_icc(T)) FORM(s, 1 + i, "inv to %s, which cannot hold lines", name(T, b1));
        else if (same(T, s->P)) FORM(s, 1 + i, "inv to the requester");
        else if (i > 0 && slot(T) <= slot(who(&r[i])))
            FORM(s, 1 + i, "inv to %s after %s: not in ascending sharing-list order", name(T, b1),
                 name(who(&r[i]), b2));
    }
    for (size_t i = 0; i < k && !s->bad; i++) {
        if (1 + k + i >= s->n) {
            FORM(s, s->n - 1, "%zu inv but only %zu inv_done", k, i);
        } else if (r[1 + k + i].t.code != TX_INV_DONE) {
            FORM(s, 1 + k + i, "%s where inv_done from %s is due", cn(r[1 + k + i].t.code),
                 name(who(&r[1 + i]), b1));
        } else if (!same(who(&r[1 + k + i]), who(&r[1 + i]))) {
            FORM(s, 1 + k + i, "inv_done from %s where %s's is due (the order of the invs)",
                 name(who(&r[1 + k + i]), b1), name(who(&r[1 + i]), b2));
        }
    }
    if (s->bad) return 4;
    size_t last = 1 + 2 * k;
    unsigned want = R == TX_READ_PRIV_OWN ? TX_DATA_PRIV : R == TX_REQ_INV ? TX_ALLOC_DONE : TX_WRITE_PURGE_DONE;
    if (last >= s->n) FORM(s, s->n - 1, "%s ends without %s", cn(R), cn(want));
    else if (r[last].t.code != want) FORM(s, last, "%s where %s is due", cn(r[last].t.code), cn(want));
    else if (!same(who(&r[last]), s->P)) FORM(s, last, "%s to %s, not to the requester", cn(want), name(who(&r[last]), b1));
    else if (last + 1 < s->n) FORM(s, last + 1, "%s after %s: the answer ends the sequence", cn(r[last + 1].t.code), cn(want));
    unsigned cp = k ? 4 : 2;
    if (s->bad || s->v->lost) return cp;

    view *v = s->v;
    int ps = R == TX_WRITE_PURGE ? -1 : slot(s->P);
    if (R == TX_REQ_INV) {
        if (v->owner >= 0)
            RULE(s, 0, "req_inv for a line %s owns", name(slot_party(v->owner), b1));
        else if (!has(v, ps) && !(M->icc && has(v, slot((party){ (int)M->ppn, s->P.node }))))
            RULE(s, 0, "req_inv from %s, which holds no copy (nor does its node's interconnect cache)", name(s->P, b1));
    } else if (R == TX_READ_PRIV_OWN && v->owner >= 0 && v->owner != ps) {
        RULE(s, 0, "read_priv_own of a line %s owns: a recall (33) is due, not invs", name(slot_party(v->owner), b1));
    }
    for (size_t i = 0; i < k; i++) {
        int t = slot(who(&r[1 + i]));
        if (!has(v, t)) RULE(s, 1 + i, "inv to %s, which the home does not record as a holder", name(who(&r[1 + i]), b1));
        del(v, t);
    }
    if (R == TX_WRITE_PURGE) {
        int o = other_holder(v, -1);
        if (o >= 0) RULE(s, last, "write_purge_done while %s still holds the line", name(slot_party(o), b1));
        clear(v);
    } else {
        if (v->owner >= 0 && !has(v, v->owner)) v->owner = -1;
        grant_owner(s, last, true);
    }
    return cp;
}

/* [R, 3x Q, 4x Q→P, 5x Q] (DT) or [R, 3x Q, 54|55|56 Q, 11|12]: a recall. */
static unsigned form_recall(seqctx *s)
{
    const rec *r = s->r;
    unsigned R = r[0].t.code, C = r[1].t.code;
    party Q = who(&r[1]);
    char b1[48], b2[48];
    bool io = R == TX_READ_CURRENT;
    unsigned want = R == TX_READ_SHAR_OR_PRIV ? TX_RECALL_SHAR_OR_PRIV : R == TX_READ_PRIV_OWN ? TX_RECALL_PRIV_OWN
                  : R == TX_REQ_INV || R == TX_WRITE_PURGE ? 0 : TX_RECALL_SHAR;
    if (C != want) {
        FORM(s, 1, "%s answers %s", cn(C), cn(R));
        return 0;
    }
    if (!is_proc(Q)) FORM(s, 1, "%s to %s, which cannot own lines", cn(C), name(Q, b1));
    else if (same(Q, s->P)) FORM(s, 1, "%s to the requester", cn(C));
    if (s->n != 4) {
        FORM(s, s->n < 4 ? s->n - 1 : 4, "a recall sequence has 4 transactions, this one %zu", s->n);
        return 0;
    }
    unsigned A = r[2].t.code, D = r[3].t.code;
    bool c2c = cdat_code_class(A) == 4;
    bool p_shared;              /* P ends shared (io: the I/O processor gets data_shar) */
    if (!same(who(&r[2]), Q)) FORM(s, 2, "%s from %s, not from the recalled %s", cn(A), name(who(&r[2]), b1), name(Q, b2));
    if (c2c) {
        unsigned a = R == TX_READ_SHAR ? TX_C2C_DATA_SHAR : R == TX_READ_PRIV_OWN ? TX_C2C_DATA_PRIV_OWN
                   : s->may_excl ? TX_C2C_DATA_PRIV : TX_C2C_DATA_SHAR;
        if (!M->dt) FORM(s, 2, "%s under protocol %u, which has no direct transactions", cn(A), M->protocol);
        else if (io) FORM(s, 2, "%s to an I/O processor (DT does not apply)", cn(A));
        else if (A != a) FORM(s, 2, "%s answers %s%s (%s is due)", cn(A), cn(C),
                              R == TX_READ_SHAR_OR_PRIV ? (s->may_excl ? " for a requester that may load exclusive"
                                                                       : " for a requester that may not load exclusive") : "",
                              cn(a));
        else if (!same(to(&r[2]), s->P)) FORM(s, 2, "%s to %s, not to the requester", cn(A), name(to(&r[2]), b1));
        else if (Q.node == s->P.node) FORM(s, 2, "%s from %s, in the requester's node: the local snoop (22) is due", cn(A), name(Q, b1));
        unsigned d = A == TX_C2C_DATA_PRIV_OWN ? TX_RECALL_C2C_DONE : TX_RECALL_C2C_DATA;
        if (D != d) FORM(s, 3, "%s after %s (%s is due)", cn(D), cn(A), cn(d));
        else if (!same(who(&r[3]), Q)) FORM(s, 3, "%s from %s, not from %s", cn(D), name(who(&r[3]), b1), name(Q, b2));
        p_shared = A == TX_C2C_DATA_SHAR;
    } else {
        if (A != TX_RECALL_NACK_SHAR && A != TX_RECALL_NACK_INV && A != TX_RECALL_DATA)
            FORM(s, 2, "%s answers %s", cn(A), cn(C));
        else if (A == TX_RECALL_DATA && M->dt && !io)
            FORM(s, 2, "recall_data under protocol %u, which has direct transactions (c2c is due)", M->protocol);
        else if (A == TX_RECALL_DATA && !io && Q.node == s->P.node)
            FORM(s, 2, "recall_data from %s, in the requester's node: the local snoop (22) is due", name(Q, b1));
        else if (A == TX_RECALL_NACK_INV && M->er)
            FORM(s, 2, "recall_nack_inv under protocol %u, which announces exclusive replacements", M->protocol);
        /* The home's answer: 01, 05 → 11; 03 → 12; 02 → 11 after 54 (Q keeps a
         * copy), else 12 when P may load exclusive. */
        unsigned d = io || R == TX_READ_SHAR ? TX_DATA_SHAR : R == TX_READ_PRIV_OWN ? TX_DATA_PRIV
                   : A == TX_RECALL_NACK_SHAR || !s->may_excl ? TX_DATA_SHAR : TX_DATA_PRIV;
        if (!s->bad && D != d) FORM(s, 3, "%s after %s answers %s (%s is due)", cn(D), cn(A), cn(R), cn(d));
        else if (!s->bad && !same(who(&r[3]), s->P)) FORM(s, 3, "%s to %s, not to the requester", cn(D), name(who(&r[3]), b1));
        p_shared = D == TX_DATA_SHAR;
    }
    unsigned cp = c2c ? 3 : 4;
    if (s->bad || s->v->lost) return cp;

    view *v = s->v;
    if (v->owner != slot(Q)) {
        RULE(s, 1, "%s to %s, which does not own the line", cn(C), name(Q, b1));
    } else if (v->dirty && (A == TX_RECALL_NACK_SHAR || A == TX_RECALL_NACK_INV)) {
        RULE(s, 2, "%s from %s, which holds the line dirty", cn(A), name(Q, b1));
    }
    /* Q keeps a shared copy when it answered with data or 54 and P ends shared. */
    bool q_keeps = A != TX_RECALL_NACK_INV && p_shared;
    del(v, slot(Q));
    v->owner = -1;
    v->dirty = false;
    if (q_keeps) add(v, slot(Q));
    if (io) return cp;
    if (p_shared) grant_shared(s, 3, true);
    else grant_owner(s, 3, R == TX_READ_PRIV_OWN);
    return cp;
}

/* The whole sequence r[0..n-1]; returns its critical path. */
static unsigned check_seq(const rec *r, size_t n)
{
    char b1[48];
    unsigned R = r[0].t.code;
    seqctx s = { .r = r, .n = n, .P = who(&r[0]) };
    /* One clock, addr, bank and home node; the bank from the address. */
    for (size_t i = 1; i < n; i++) {
        const cdat_txn *t = &r[i].t;
        if (t->clock != r[0].t.clock) FORM(&s, i, "clock %" PRIu64 " in a sequence of clock %" PRIu64, t->clock, r[0].t.clock);
        if (t->addr != r[0].t.addr) FORM(&s, i, "addr %" PRIu32 " in a sequence of addr %" PRIu32, t->addr, r[0].t.addr);
        if (cdat_code_class(t->code) != 4 && (t->bank != r[0].t.bank || t->hnode != r[0].t.hnode))
            FORM(&s, i, "bank %d hnode %d in a sequence of bank %d hnode %d", t->bank, t->hnode, r[0].t.bank,
                 r[0].t.hnode);
    }
    if (r[0].t.hnode < 0 || (unsigned)r[0].t.hnode >= M->nodes) FORM(&s, 0, "home node %d out of range", r[0].t.hnode);
    if (M->line_size && r[0].t.addr % M->line_size)
        FORM(&s, 0, "addr %" PRIu32 " is not the first byte of a %u-byte line", r[0].t.addr, M->line_size);
    if (M->banks && (r[0].t.bank < 0 || (unsigned)r[0].t.bank != r[0].t.addr / M->line_size % M->banks))
        FORM(&s, 0, "bank %d, but the line's home bank is %u", r[0].t.bank, r[0].t.addr / M->line_size % M->banks);
    bool io_req = R == TX_READ_CURRENT || R == TX_WRITE_PURGE;
    if (io_req ? !is_io(s.P) : !is_proc(s.P)) {
        FORM(&s, 0, "%s from %s", cn(R), name(s.P, b1));
        return 0;
    }
    s.v = view_of(r[0].t.addr);
    s.may_excl = r[0].t.hnode == s.P.node || M->rl_a;

    unsigned cp = 0;
    if (R == TX_FLUSH) {
        /* The owner's dirty data home; it keeps the line, clean (docs/cdat-protocol.md §9). */
        if (n > 1) FORM(&s, 1, "%s after flush: a flush is alone", cn(r[1].t.code));
        if (!s.bad && !s.v->lost) {
            if (s.v->owner != slot(s.P)) RULE(&s, 0, "flush from %s, which does not own the line", name(s.P, b1));
            s.v->dirty = false;
        }
    } else if (cdat_code_is_return(R)) {
        if (n > 1) FORM(&s, 1, "%s after %s: a return is alone", cn(r[1].t.code), cn(R));
        if (R == TX_UPDATE_TAG && !M->er)
            FORM(&s, 0, "update_tag under protocol %u, which does not announce exclusive replacements", M->protocol);
        if (!s.bad && !s.v->lost) {
            if (s.v->owner != slot(s.P)) RULE(&s, 0, "%s from %s, which does not own the line", cn(R), name(s.P, b1));
            else if (R == TX_UPDATE_TAG && s.v->dirty) RULE(&s, 0, "update_tag from %s, which holds the line dirty", name(s.P, b1));
            clear(s.v);
        }
    } else if (n < 2) {
        FORM(&s, 0, "%s without an answer", cn(R));
    } else {
        if (!s.v->lost && !io_req && R != TX_REQ_INV && s.v->owner == slot(s.P) && (M->er || s.v->dirty))
            RULE(&s, 0, "%s from %s, which owns the line (%s)", cn(R), name(s.P, b1),
                 s.v->dirty ? "a dirty line is never dropped silently" : "exclusive replacements are announced");
        unsigned c = r[1].t.code;
        if (c == TX_UPDATE_DATA) cp = form_snoop(&s);
        else if (R == TX_REQ_INV || R == TX_WRITE_PURGE || (R == TX_READ_PRIV_OWN && (c == TX_INV || cdat_code_class(c) == 1)))
            cp = form_inv(&s);
        else if (cdat_code_class(c) == 1) cp = form_memory(&s);
        else if (cdat_code_class(c) == 3 && c != TX_INV) cp = form_recall(&s);
        else FORM(&s, 1, "%s answers %s", cn(c), cn(R));
    }
    if (s.bad) s.v->lost = true;
    return cp;
}

/* ---- the report ---- */

typedef struct rep_tx {
    bool l10, l11[CDAT_CODE_LIMIT];
    uint64_t transactions, requests, line10, n[CDAT_CODE_LIMIT], line11[CDAT_CODE_LIMIT];
    char avg[64], pct[CDAT_CODE_LIMIT][64];
} rep_tx;

typedef struct report {
    const char *path;
    mach m;
    bool has_machine, has_protocol, has_icc;
    bool slices;                /* '# slice_mode:': RxT<n> lines are per process */
    rep_tx all, procs[128], ios[MAX_IO + 1];
} report;

static rep_tx *rep_slot(report *rp, const char *tag, const char **rest, int *t)
{
    /* RxTx / RxT<n> then L<nn>: */
    if (strncmp(tag, "RxT", 3)) return NULL;
    const char *p = tag + 3;
    if (*p == 'x') {
        *t = INT32_MIN;
        *rest = p + 1;
        return &rp->all;
    }
    char *end;
    long v = strtol(p, &end, 10);
    if (end == p) return NULL;
    *t = (int)v;
    *rest = end;
    if (v >= 0 && v < 128) return &rp->procs[v];
    if (v < 0 && v >= -MAX_IO) return &rp->ios[-v];
    return NULL;
}

static void read_report(report *rp)
{
    line_reader *lr = line_reader_open(rp->path);
    char *s;
    while ((s = line_reader_next(lr, NULL))) {
        uint64_t ln = line_reader_lineno(lr);
        unsigned a, b, c, d, e;
        unsigned long long x;
        if (sscanf(s, "# machine: nodes %u procs_per_node %u banks_per_node %u line_size %u page_size %u", &a, &b, &c,
                   &d, &e) == 5) {
            rp->m.nodes = a;
            rp->m.ppn = b;
            rp->m.banks = c;
            rp->m.line_size = d;
            rp->has_machine = true;
        } else if (sscanf(s, "# protocol: %u (", &a) == 1) {
            rp->m.protocol = a;
            rp->has_protocol = true;
        } else if (!strncmp(s, "# slice_mode:", 13)) {
            rp->slices = true;
        } else if (sscanf(s, "# interconnect_cache: size %llu", &x) == 1) {
            rp->m.icc = x > 0;
            rp->has_icc = true;
        }
        const char *rest;
        int t;
        rep_tx *r = rep_slot(rp, s, &rest, &t);
        if (!r) continue;
        unsigned long long n1, n2;
        char w1[64], w2[64];
        if (!strncmp(rest, "L10:", 4)) {
            if (sscanf(rest + 4, " traffic transactions %llu requests %llu avg_latency %31s", &n1, &n2, w1) != 3)
                diag_data_error(rp->path, DIAG_NO_OFFSET, "line %" PRIu64 ": malformed L10 line", ln);
            if (r->l10) diag_data_error(rp->path, DIAG_NO_OFFSET, "line %" PRIu64 ": a second L10 line of its T", ln);
            r->l10 = true;
            r->transactions = n1;
            r->requests = n2;
            r->line10 = ln;
            snprintf(r->avg, sizeof r->avg, "%s", w1);
        } else if (!strncmp(rest, "L11:", 4)) {
            unsigned code;
            if (sscanf(rest + 4, " txn %u %63s %llu %63s", &code, w1, &n1, w2) != 4 || code >= CDAT_CODE_LIMIT ||
                !cdat_code_valid(code) || strcmp(w1, cdat_code_name(code)))
                diag_data_error(rp->path, DIAG_NO_OFFSET, "line %" PRIu64 ": malformed L11 line", ln);
            if (r->l11[code]) diag_data_error(rp->path, DIAG_NO_OFFSET, "line %" PRIu64 ": a second L11 line of code %02u", ln, code);
            r->l11[code] = true;
            r->n[code] = n1;
            r->line11[code] = ln;
            snprintf(r->pct[code], sizeof r->pct[code], "%s", w2);
        }
    }
    line_reader_close(lr);
    if (!rp->has_machine || !rp->has_protocol || !rp->has_icc)
        diag_data_error(rp->path, DIAG_NO_OFFSET, "no '# %s' header line", !rp->has_machine ? "machine:"
                        : !rp->has_protocol ? "protocol:" : "interconnect_cache:");
}

/* One T's lines against the trace's counts c. */
static void compare(const report *rp, const rep_tx *r, const counts *c, const char *tag)
{
    if (!r->l10) {
        if (c->transactions)
            violation(rp->path, 0, "no %sL10 line, but the trace has %" PRIu64 " transactions of it", tag, c->transactions);
        return;
    }
    char avg[32];
    snprintf(avg, sizeof avg, "%.4f", c->requests ? (double)c->critical / (double)c->requests : 0.0);
    if (r->transactions != c->transactions)
        violation(rp->path, r->line10, "%sL10: transactions %" PRIu64 ", the trace has %" PRIu64, tag, r->transactions,
                  c->transactions);
    if (r->requests != c->requests)
        violation(rp->path, r->line10, "%sL10: requests %" PRIu64 ", the trace has %" PRIu64, tag, r->requests, c->requests);
    if (strcmp(r->avg, avg))
        violation(rp->path, r->line10, "%sL10: avg_latency %s, the trace's critical paths give %s (%" PRIu64 " / %" PRIu64 ")",
                  tag, r->avg, avg, c->critical, c->requests);
    for (unsigned code = 0; code < CDAT_CODE_LIMIT; code++) {
        if (!r->l11[code]) {
            if (c->txn[code])
                violation(rp->path, 0, "no %sL11 line of code %02u, but the trace has %" PRIu64, tag, code, c->txn[code]);
            continue;
        }
        char pct[32];
        snprintf(pct, sizeof pct, "%.2f%%", c->transactions ? 100.0 * (double)c->txn[code] / (double)c->transactions : 0.0);
        if (r->n[code] != c->txn[code])
            violation(rp->path, r->line11[code], "%sL11: %02u %s %" PRIu64 ", the trace has %" PRIu64, tag, code,
                      cdat_code_name(code), r->n[code], c->txn[code]);
        else if (strcmp(r->pct[code], pct))
            violation(rp->path, r->line11[code], "%sL11: %02u %s %s, the trace gives %s", tag, code, cdat_code_name(code),
                      r->pct[code], pct);
    }
}

static void compare_report(const report *rp)
{
    compare(rp, &rp->all, &total, "RxTx");
    char tag[32];
    /* Slice mode: a processor's sequences count for the process it ran, which
     * the trace does not say; only Tx and the I/O processors compare. */
    for (unsigned p = 0; p < 128 && !rp->slices; p++) {
        if (p >= M->nodes * M->ppn && (rp->procs[p].l10 || procs[p].transactions)) {
            violation(rp->path, rp->procs[p].line10, "RxT%u: the machine has %u processors", p, M->nodes * M->ppn);
            continue;
        }
        snprintf(tag, sizeof tag, "RxT%u", p);
        compare(rp, &rp->procs[p], &procs[p], tag);
    }
    for (unsigned k = 1; k <= MAX_IO; k++) {
        snprintf(tag, sizeof tag, "RxT-%u", k);
        compare(rp, &rp->ios[k], &ios[k], tag);
    }
}

/* ---- main ---- */

static const char usage_text[] =
    "Usage: cdat_check --report R.cdat_report DETAILED\n"
    "       cdat_check --nodes N --ppn P --protocol K [--icc] [--banks B --line-size L] DETAILED\n"
    "\n"
    "Replays cdat's detailed trace DETAILED ('-' = stdin, gzip allowed) and checks\n"
    "the protocol's forms and invariants (docs/cdat-protocol.md); with --report, that the\n"
    "report's RxTxL10/L11 and RxT<p>L10/L11 lines count the trace's transactions.\n"
    "The machine comes from the report's header, or from the options.\n"
    "Exit status: 0 all holds, 1 usage error, 2 bad input or violations.\n";

/* A code that starts a sequence: a request, a return, or a flush. */
static bool starts_seq(unsigned code)
{
    return cdat_code_is_request(code) || cdat_code_is_return(code) || code == TX_FLUSH;
}

static void account(const rec *r, size_t n, unsigned cp)
{
    party P = who(&r[0]);
    bool start = starts_seq(r[0].t.code);
    counts *pc = start ? counts_of(P) : NULL;
    counts *cs[2] = { &total, pc };
    for (int j = 0; j < 2; j++) {
        counts *c = cs[j];
        if (!c) continue;
        c->transactions += n;
        for (size_t i = 0; i < n; i++) c->txn[r[i].t.code]++;
        if (cdat_code_is_request(r[0].t.code)) {
            c->requests++;
            c->critical += cp;
        }
    }
}

int main(int argc, char **argv)
{
    diag_set_tool("cdat_check");
    const char *report_path = NULL;
    uint64_t nodes = 0, ppn = 0, protocol = 0, banks = 0, line_size = 0;
    bool icc = false;
    option_spec specs[] = {
        { "report", 0, NULL, OPT_STRING, "FILE", &report_path, NULL, 0, 0, "cdat's report: the machine, and counts to compare" },
        { "nodes", 0, NULL, OPT_UINT, "N", &nodes, NULL, 1, 32, "nodes (without --report)" },
        { "ppn", 0, NULL, OPT_UINT, "P", &ppn, NULL, 1, 128, "processors per node (without --report)" },
        { "protocol", 0, NULL, OPT_UINT, "K", &protocol, NULL, 1, 8, "protocol 1..8 (without --report)" },
        { "icc", 0, NULL, OPT_FLAG, NULL, &icc, NULL, 0, 0, "the nodes have interconnect caches (without --report)" },
        { "banks", 0, NULL, OPT_UINT, "B", &banks, NULL, 1, 32, "banks per node: check the bank fields (with --line-size)" },
        { "line-size", 0, NULL, OPT_UINT, "L", &line_size, NULL, 1, 4096, "line size: check the addresses" },
        { 0 }
    };
    char **ops = xcalloc((size_t)argc + 1, sizeof *ops);
    int nops = options_parse(specs, argc, argv, usage_text, ops);
    if (nops != 1) diag_usage_error("expected one detailed trace, got %d operands", nops);
    trace_path = ops[0];

    report *rp = NULL;
    mach m = { 0 };
    if (report_path) {
        if (nodes || ppn || protocol || icc || banks || line_size)
            diag_usage_error("--report gives the machine: no --nodes, --ppn, --protocol, --icc, --banks, --line-size");
        rp = xcalloc(1, sizeof *rp);
        rp->path = report_path;
        read_report(rp);
        m = rp->m;
        if (!m.nodes || m.nodes > 32 || !m.ppn || m.nodes * m.ppn > 128 || m.protocol < 1 || m.protocol > 8 ||
            !m.banks || !m.line_size || (m.line_size & (m.line_size - 1)))
            diag_data_error(report_path, DIAG_NO_OFFSET, "the machine of the header is out of range");
    } else {
        if (!nodes || !ppn || !protocol) diag_usage_error("without --report, give --nodes, --ppn and --protocol");
        if (nodes * ppn > 128) diag_usage_error("more than 128 processors");
        if (!banks != !line_size) diag_usage_error("--banks and --line-size go together");
        if (line_size & (line_size - 1)) diag_usage_error("--line-size must be a power of two");
        m = (mach){ (unsigned)nodes, (unsigned)ppn, (unsigned)banks, (unsigned)line_size, (unsigned)protocol, icc, 0, 0, 0 };
    }
    switches(&m);
    M = &m;

    line_reader *lr = line_reader_open(trace_path);
    rec *seq = NULL;
    size_t n = 0, seqcap = 0;
    char *s, why[128];
    for (;;) {
        s = line_reader_next(lr, NULL);
        if (s && (s[0] == '#' || s[0] == '\0')) continue;      /* hand-written traces' comments */
        rec r = { .line = s ? line_reader_lineno(lr) : 0 };
        if (s && !cdat_parse_detailed(s, &r.t, why, sizeof why))
            diag_data_error(trace_path, DIAG_NO_OFFSET, "line %" PRIu64 ": malformed record: %s", r.line, why);
        if (s && cdat_code_class(r.t.code) == 9)
            diag_data_error(trace_path, DIAG_NO_OFFSET, "line %" PRIu64 ": status record %02u in a detailed trace", r.line,
                            r.t.code);
        bool start = s && starts_seq(r.t.code);
        if (n && (!s || start)) {
            unsigned cp = 0;
            if (starts_seq(seq[0].t.code)) cp = check_seq(seq, n);
            account(seq, n, cp);
            n = 0;
        }
        if (!s) break;
        if (!n && !start)
            violation(trace_path, r.line, "%s does not start a sequence: a request (01-06), a return (21, 23) or a flush (24) is due",
                      cn(r.t.code));
        seqcap = xgrow((void **)&seq, seqcap, n + 1, sizeof *seq);
        seq[n++] = r;
    }
    line_reader_close(lr);
    if (rp) compare_report(rp);
    if (violations > SHOWN)
        fprintf(stderr, "cdat_check: %s: %" PRIu64 " violations in all (the first %d shown)\n", trace_path, violations, SHOWN);
    free(seq);
    free(tab);
    free(rp);
    free(ops);
    return violations ? EXIT_DATA : EXIT_OK;
}
