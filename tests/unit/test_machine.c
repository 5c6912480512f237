/* test_machine.c — cdat's machine and protocol driven directly (cdat/machine.h),
 * without traces: the I/O processor requests of docs/cdat-protocol.md §7
 * (write_purge, read_current), which no trace can drive yet, and a few
 * processor cases per switch, checking each sequence's codes, critical path,
 * source, and the caches and the home's view afterwards.
 *
 * The machine: 2 nodes × 2 processors, 64-byte lines, 4 KiB pages, rr1
 * placement (page number mod 2: page 0 lives on node 0, page 1 on node 1),
 * 1 KiB 2-way caches (the short-path comparisons also use 1 × 1, and 2 × 2
 * with 1 KiB interconnect caches). */
#include "suites.h"
#include "../../cdat/machine.h"
#include "../../cdat/placement.h"
#include "../../base/diag.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct rig {
    cdat_config cfg;
    placement pl;
    private_ranges pr;
    machine m;
    char log[4096];             /* one line per sequence: "codes | cp N src S" */
    bool counted;               /* log also what cdat counts of a sequence (stats_seq) */
} rig;

static void on_seq(void *ctx, const mach_seq *s)
{
    rig *r = ctx;
    size_t n = strlen(r->log);
    for (unsigned i = 0; i < s->n; i++)
        n += (size_t)snprintf(r->log + n, sizeof r->log - n, "%s%02u", i ? " " : "", s->tx[i].code);
    if (r->counted)
        n += (size_t)snprintf(r->log + n, sizeof r->log - n, " | req %d node %d home %d status %u presence %u holders %llx %llx %llx",
                              s->requester, s->req_node, s->home, s->status, s->presence,
                              (unsigned long long)s->holders.w[0], (unsigned long long)s->holders.w[1],
                              (unsigned long long)s->holders.w[2]);
    snprintf(r->log + n, sizeof r->log - n, " | cp %u src %d%s", s->critical, s->source, s->l3 ? "" : "\n");
    if (s->l3) snprintf(r->log + strlen(r->log), sizeof r->log - strlen(r->log), " l3 %u\n", s->l3);
}

/* The rig of nodes x ppn processors with d-caches of dassoc ways ("2",
 * "full", ...). */
static void rig_init_l2(rig *r, unsigned nodes, unsigned ppn, unsigned icc_kib, unsigned protocol,
                        const char *dassoc, const char *extra)
{
    static unsigned serial;
    memset(r, 0, sizeof *r);
    char path[256], text[768];
    snprintf(path, sizeof path, "%s/machine-%ld-%u.ini", tu_dir, (long)getpid(), serial++);
    snprintf(text, sizeof text, "[system]\nnodes = %u\nprocs_per_node = %u\nline_size = 64\npage_size = 4K\n"
             "protocol = %u\nallocation = rr1\n[dcache]\nsize = 1K\nassoc = %s\n[icache]\nsize = 1K\nassoc = 2\n"
             "[interconnect_cache]\nsize = %uK\nassoc = 2\n%s",
             nodes, ppn, protocol, dassoc, icc_kib, extra);
    tu_write_str(path, text);
    config_load(path, &r->cfg);
    placement_init(&r->pl, ALLOC_RR1, nodes, 4096, &r->pr, NULL, NULL, 0);
    mach_init(&r->m, &r->cfg, &r->pl, on_seq, r);
}

static void rig_init_machine(rig *r, unsigned nodes, unsigned ppn, unsigned icc_kib, unsigned protocol,
                             const char *dassoc)
{
    rig_init_l2(r, nodes, ppn, icc_kib, protocol, dassoc, "");
}

static void rig_init_dcache(rig *r, unsigned protocol, const char *dassoc)
{
    rig_init_machine(r, 2, 2, 0, protocol, dassoc);
}

static void rig_init(rig *r, unsigned protocol) { rig_init_dcache(r, protocol, "2"); }

static void rig_free(rig *r)
{
    mach_free(&r->m);
    placement_free(&r->pl);
    config_free(&r->cfg);
}

/* The log so far, then cleared. */
static const char *take(rig *r)
{
    static char out[4096];
    strcpy(out, r->log);
    r->log[0] = 0;
    return out;
}

enum { L0 = 0x0000 >> 6, L1 = 0x1000 >> 6 };   /* a line of page 0 (home node 0), of page 1 (home node 1) */

/* The home's view of line (the line must have been requested). */
static const dir_view *view(rig *r, uint32_t line)
{
    static dir_view v;
    ck_assert(dir_peek(&r->m.dir, line, &v));
    return &v;
}

START_TEST(write_purge_idle)
{
    rig r;
    rig_init(&r, 1);
    mach_io(&r.m, 1, 0, 5, L0, true);
    ck_assert_str_eq(take(&r), "06 14 | cp 2 src -1\n");
    ck_assert_int_eq(view(&r, L0)->state, DIR_IDLE);
    rig_free(&r);
}
END_TEST

START_TEST(write_purge_invalidates_every_holder)
{
    rig r;
    rig_init(&r, 1);
    mach_load(&r.m, 0, 1, L1);              /* processor 0 (node 0): remote line, idle → exclusive (RL = A) */
    mach_load(&r.m, 3, 2, L1);              /* processor 3 (node 1): recall from the clean owner → both shared */
    take(&r);
    mach_io(&r.m, 1, 0, 9, L1, true);       /* inv to 0 and 3 in order, inv_done in order, done */
    ck_assert_str_eq(take(&r), "06 34 34 53 53 14 | cp 4 src -1\n");
    ck_assert_int_eq(cache_probe(&r.m.p[0].d, L1), CS_INVALID);
    ck_assert_int_eq(cache_probe(&r.m.p[3].d, L1), CS_INVALID);
    ck_assert_int_eq(view(&r, L1)->state, DIR_IDLE);
    ck_assert(hs_empty(&view(&r, L1)->holders));
    rig_free(&r);
}
END_TEST

START_TEST(write_purge_discards_a_dirty_owner)
{
    rig r;
    rig_init(&r, 2);
    mach_store(&r.m, 2, 1, L0);             /* processor 2 (node 1) store miss: dirty */
    ck_assert_str_eq(take(&r), "03 12 | cp 2 src 2\n");
    mach_io(&r.m, 1, 0, 3, L0, true);
    ck_assert_str_eq(take(&r), "06 34 53 14 | cp 4 src -1\n");
    ck_assert_int_eq(cache_probe(&r.m.p[2].d, L0), CS_INVALID);
    /* the next load finds the line idle at its home: no recall */
    mach_load(&r.m, 2, 4, L0);
    ck_assert_str_eq(take(&r), "02 11 | cp 2 src 2\n");   /* RL = B, remote: shared */
    rig_free(&r);
}
END_TEST

START_TEST(read_current_cases)
{
    rig r;
    rig_init(&r, 1);                        /* DT supported, but not for I/O processors */
    mach_io(&r.m, 1, 0, 1, L0, false);
    ck_assert_str_eq(take(&r), "05 11 | cp 2 src 0\n");
    ck_assert_int_eq(view(&r, L0)->state, DIR_IDLE);      /* never joins the sharing list */
    mach_store(&r.m, 1, 2, L0);             /* processor 1 dirty */
    take(&r);
    mach_io(&r.m, 1, 0, 3, L0, false);      /* a dirty owner: recall_data, keeps a shared copy */
    ck_assert_str_eq(take(&r), "05 31 56 11 | cp 4 src 1\n");
    ck_assert_int_eq(cache_probe(&r.m.p[1].d, L0), CS_SHARED);
    ck_assert_int_eq(view(&r, L0)->state, DIR_SHARED);
    ck_assert(hs_has(&view(&r, L0)->holders, 1));
    ck_assert_int_eq(hs_count(&view(&r, L0)->holders), 1);
    mach_io(&r.m, 1, 0, 4, L0, false);      /* shared: memory answers */
    ck_assert_str_eq(take(&r), "05 11 | cp 2 src 0\n");
    mach_load(&r.m, 0, 5, L1);              /* processor 0: exclusive (clean) */
    take(&r);
    mach_io(&r.m, 2, 1, 6, L1, false);      /* I/O processor 2 on node 1: nack_shar, owner keeps it shared */
    ck_assert_str_eq(take(&r), "05 31 54 11 | cp 4 src 0\n");
    ck_assert_int_eq(cache_probe(&r.m.p[0].d, L1), CS_SHARED);
    rig_free(&r);
}
END_TEST

START_TEST(read_current_after_a_silent_drop)
{
    rig r;
    rig_init(&r, 3);                        /* exclusive replacement not announced */
    mach_load(&r.m, 0, 1, L0);              /* local line: exclusive */
    /* fill processor 0's set of L0 (1 KiB 2-way: 8 sets) with two more lines */
    mach_load(&r.m, 0, 2, L0 + 8);
    mach_load(&r.m, 0, 3, L0 + 16);         /* L0 leaves silently; the home keeps processor 0 */
    ck_assert_int_eq(cache_probe(&r.m.p[0].d, L0), CS_INVALID);
    ck_assert_int_eq(view(&r, L0)->state, DIR_EXCLUSIVE);
    take(&r);
    mach_io(&r.m, 1, 0, 4, L0, false);
    ck_assert_str_eq(take(&r), "05 31 55 11 | cp 4 src 0\n");
    ck_assert_int_eq(view(&r, L0)->state, DIR_IDLE);
    rig_free(&r);
}
END_TEST

START_TEST(remote_load_per_switch)
{
    static const struct { unsigned protocol; const char *want; } cases[] = {
        { 1, "02 12 | cp 2 src 2\n" },      /* RL = A: exclusive */
        { 2, "02 11 | cp 2 src 2\n" },      /* RL = B: shared */
        { 4, "02 12 | cp 2 src 2\n" },
        { 7, "02 11 | cp 2 src 2\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rig r;
        rig_init(&r, cases[i].protocol);
        mach_load(&r.m, 0, 1, L1);
        ck_assert_str_eq(take(&r), cases[i].want);
        rig_free(&r);
    }
}
END_TEST

START_TEST(recall_dirty_per_switch)
{
    /* The requester is on the line's home node, so it may load exclusive under
     * either RL; only DT changes the sequence. */
    static const struct { unsigned protocol; const char *want; } cases[] = {
        { 1, "02 32 42 51 | cp 3 src 3\n" },    /* DT: c2c to P, recall_c2c_data to the home */
        { 8, "02 32 42 51 | cp 3 src 3\n" },
        { 6, "02 32 56 12 | cp 4 src 3\n" },    /* no DT: the data goes through the home */
        { 2, "02 32 56 12 | cp 4 src 3\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rig r;
        rig_init(&r, cases[i].protocol);
        mach_store(&r.m, 2, 1, L0);             /* processor 2 (node 1) owns a node-0 line dirty */
        take(&r);
        mach_load(&r.m, 0, 3, L0);              /* processor 0 (node 0): no dirty copy in its node */
        ck_assert_str_eq(take(&r), cases[i].want);
        ck_assert_int_eq(cache_probe(&r.m.p[2].d, L0), CS_INVALID);
        ck_assert_int_eq(cache_probe(&r.m.p[0].d, L0), CS_EXCLUSIVE);
        rig_free(&r);
    }
}
END_TEST

START_TEST(recall_dirty_remote_line_rl_b)
{
    rig r;
    rig_init(&r, 8);                            /* RL = B, DT */
    mach_store(&r.m, 0, 1, L1);                 /* processor 0 (node 0) owns a node-1 line dirty */
    take(&r);
    mach_load(&r.m, 2, 2, L1 + 1);              /* nothing to do with it */
    take(&r);
    mach_load(&r.m, 1, 3, L1);                  /* processor 1, same node as the owner: local snoop */
    ck_assert_str_eq(take(&r), "02 22 | cp 2 src 1\n");
    rig_free(&r);
    rig_init(&r, 8);
    mach_store(&r.m, 0, 1, L0 + 2);             /* processor 0 owns a node-0 line dirty */
    take(&r);
    mach_load(&r.m, 3, 2, L0 + 2);              /* processor 3 (node 1): remote line, RL = B: shared */
    ck_assert_str_eq(take(&r), "02 32 41 51 | cp 3 src 3\n");
    ck_assert_int_eq(cache_probe(&r.m.p[0].d, L0 + 2), CS_SHARED);
    ck_assert_int_eq(cache_probe(&r.m.p[3].d, L0 + 2), CS_SHARED);
    rig_free(&r);
}
END_TEST

START_TEST(upgrade_invalidates_stale_sharers)
{
    rig r;
    rig_init(&r, 2);
    mach_load(&r.m, 2, 1, L0);                  /* remote for node 1, RL = B: shared */
    mach_load(&r.m, 0, 2, L0);                  /* shared, 0 added */
    take(&r);
    mach_store(&r.m, 0, 3, L0);                 /* upgrade: inv to 2 */
    ck_assert_str_eq(take(&r), "04 34 53 13 | cp 4 src -1\n");
    ck_assert_int_eq(cache_probe(&r.m.p[0].d, L0), CS_DIRTY);
    ck_assert_int_eq(view(&r, L0)->state, DIR_DIRTY);
    rig_free(&r);
}
END_TEST


/* mach_hit: what needs no transaction hits; everything else returns false,
 * emits nothing and leaves the states as they were, so the full reference
 * that follows sees what it would have seen. (A build without fast paths,
 * common/fast_paths.h, makes no hit there.) */
START_TEST(hit_path)
{
    rig r;
    rig_init(&r, 1);
    ck_assert(!mach_hit(&r.m, 0, L0, MACH_LOAD));           /* absent */
    ck_assert(!mach_hit(&r.m, 0, L0, MACH_STORE));
    ck_assert(!mach_hit(&r.m, 0, L0, MACH_IFETCH));
    ck_assert_str_eq(take(&r), "");
    mach_load(&r.m, 0, 1, L0);                              /* local, protocol 1: exclusive */
    take(&r);
    ck_assert(!FAST_PATHS || mach_hit(&r.m, 0, L0, MACH_LOAD));
    ck_assert(!mach_hit(&r.m, 0, L0, MACH_IFETCH));         /* the i-cache is another cache */
    ck_assert(!mach_hit(&r.m, 0, L0, MACH_STORE));          /* exclusive: the store turns it dirty */
    ck_assert_int_eq(cache_probe(&r.m.p[0].d, L0), CS_EXCLUSIVE);
    ck_assert_int_eq(mach_store(&r.m, 0, 2, L0).outcome, REF_HIT);
    ck_assert(!FAST_PATHS || mach_hit(&r.m, 0, L0, MACH_STORE));
    mach_load(&r.m, 1, 3, L0);                              /* processor 1 snoops: both shared */
    take(&r);
    ck_assert(!FAST_PATHS || mach_hit(&r.m, 0, L0, MACH_LOAD));
    ck_assert(!mach_hit(&r.m, 0, L0, MACH_STORE));          /* shared: an upgrade */
    ck_assert_str_eq(take(&r), "");
    ck_assert_int_eq(cache_probe(&r.m.p[0].d, L0), CS_SHARED);
    ck_assert_int_eq(mach_store(&r.m, 0, 4, L0).outcome, REF_UPGRADE);
    mach_fetch(&r.m, 2, 5, L1);
    ck_assert(!FAST_PATHS || mach_hit(&r.m, 2, L1, MACH_IFETCH));
    ck_assert(!mach_hit(&r.m, 2, L1, MACH_LOAD));
    rig_free(&r);
}
END_TEST

/* Both rigs' machines in the same state: every cache (same lines, states
 * and LRU order), the directory's views of lines 0..lines-1, the lines ever
 * requested and the pages placed on each node. */
static void same_machines(rig *g, rig *f, uint32_t lines)
{
    /* Plain comparisons, an assertion only on a difference: every Check
     * assertion writes to a pipe, and thousands of them made the test slow. */
    for (unsigned p = 0; p < g->m.nprocs; p++)
        for (int which = 0; which < (g->m.l2 ? 3 : 2); which++) {
            cache *cg = which == 2 ? &g->m.p[p].l2 : which ? &g->m.p[p].i : &g->m.p[p].d;
            cache *cf = which == 2 ? &f->m.p[p].l2 : which ? &f->m.p[p].i : &f->m.p[p].d;
            for (unsigned set = 0; set < cache_sets(cg); set++) {
                uint32_t lg[64], lf[64];
                cache_state sg[64], sf[64];
                unsigned ng = cache_set_contents(cg, set, lg, sg), nf = cache_set_contents(cf, set, lf, sf);
                bool same = ng == nf;
                for (unsigned k = 0; same && k < ng; k++) same = lg[k] == lf[k] && sg[k] == sf[k];
                if (!same) ck_abort_msg("processor %u %s set %u differs", p, which == 2 ? "L2" : which ? "i-cache" : "d-cache", set);
            }
        }
    for (uint32_t line = 0; line < lines; line++) {
        dir_view vg, vf;
        bool in_g = dir_peek(&g->m.dir, line, &vg), in_f = dir_peek(&f->m.dir, line, &vf);
        if (in_g != in_f || (in_g && (vg.state != vf.state || memcmp(&vg.holders, &vf.holders, sizeof vg.holders))))
            ck_abort_msg("the directory's view of line %u differs", (unsigned)line);
    }
    ck_assert_uint_eq(dir_lines(&g->m.dir), dir_lines(&f->m.dir));
    for (unsigned n = 0; g->m.l3 && n < g->m.nodes; n++)
        for (unsigned set = 0; set < cache_sets(&g->m.l3c[n]); set++) {
            uint32_t lg[64], lf[64];
            cache_state sg[64], sf[64];
            unsigned ng = cache_set_contents(&g->m.l3c[n], set, lg, sg), nf = cache_set_contents(&f->m.l3c[n], set, lf, sf);
            bool same = ng == nf;
            for (unsigned k = 0; same && k < ng; k++) same = lg[k] == lf[k] && sg[k] == sf[k];
            if (!same) ck_abort_msg("node %u's L3 set %u differs", n, set);
        }
    for (unsigned n = 0; n < g->m.nodes; n++) ck_assert_uint_eq(g->pl.pages[n], f->pl.pages[n]);
}

/* Two references' answers and sequences alike (a failure names reference i). */
static void same_answers(rig *g, rig *f, unsigned i, mach_ref rg, mach_ref rf)
{
    char seqs[4096];                /* take's answer is a static buffer */
    snprintf(seqs, sizeof seqs, "%s", take(g));
    const char *fs = take(f);
    if (rg.outcome != rf.outcome || rg.source != rf.source || rg.silent != rf.silent || rg.l2 != rf.l2 ||
        strcmp(seqs, fs))
        ck_abort_msg("reference %u: outcome %d/%d source %d/%d silent %d/%d l2 %d/%d, sequences\n%s/\n%s", i,
                     rg.outcome, rf.outcome, rg.source, rf.source, rg.silent, rf.silent, rg.l2, rf.l2, seqs, fs);
}

/* mach_data_probe, mach_data_hits and mach_data_rest (cdat's path for a
 * data reference within one line) against mach_load and mach_store: the
 * same random references on two machines give the same outcomes, sequences,
 * caches and directory views, for every protocol and for d-caches of 1, 2
 * and 4 ways and fully associative (the hashed layout), alone and (loop 1)
 * writing through to an L2 (§12). */
START_TEST(data_path_matches_load_store)
{
    static const char *const assoc[] = { "1", "2", "4", "full" };
    const char *l2 = _i ? "[l2]\nsize = 2K\nassoc = 2\n[dcache]\nwrite_policy = through\n" : "";
    for (unsigned protocol = 1; protocol <= 8; protocol++)
        for (unsigned a = 0; a < 4; a++) {
            rig g, f;                   /* general, fast */
            rig_init_l2(&g, 2, 2, 0, protocol, assoc[a], l2);
            rig_init_l2(&f, 2, 2, 0, protocol, assoc[a], l2);
            ck_assert(f.m.store_through == (_i == 1));
            uint32_t x = 777 + protocol * 31 + a;
            for (unsigned i = 0; i < 4000; i++) {
                x = x * 1103515245u + 12345u;
                int cpu = (int)(x >> 28) % 4;
                uint32_t line = (x >> 8) % 96;  /* 96 lines over 1 KiB caches: hits, misses, sharing */
                bool store = (x >> 4) % 3 == 0;
                mach_ref rg = store ? mach_store(&g.m, cpu, i, line) : mach_load(&g.m, cpu, i, line);
                cache_state st = mach_data_probe(&f.m, cpu, line);
                mach_ref rf = mach_data_hits(st, store) ? MACH_REF(REF_HIT, SRC_NONE)
                                                        : mach_data_rest(&f.m, cpu, i, line, store, st);
                same_answers(&g, &f, i, rg, rf);
            }
            same_machines(&g, &f, 96);
            rig_free(&g);
            rig_free(&f);
        }
}
END_TEST

/* The commonest data misses take protocol.c's short path (simple_data_miss)
 * when only codes are counted. The same random fetches, loads and stores on
 * two machines, one with the short path and one without, give the same
 * outcomes, the same sequences with every field cdat counts, and the same
 * caches, views, lines and pages: for every protocol (RL, announced
 * replacements), d-caches of 1, 2 and 4 ways and fully associative, on one
 * processor alone, on 2 nodes of 2 processors, and on those with a 1 KiB
 * interconnect cache, with L2s, and with memory-side L3s (1 x 1, and 2 x 2
 * with L2s and interconnect caches: each sequence's L3 access and the L3s'
 * contents too), and with write-through d-caches (§12). Fetches of data lines put shared views in the table,
 * and the processors share lines, which the short path leaves to the general
 * one. */
START_TEST(simple_miss_matches_general)
{
    static const char *const assoc[] = { "1", "2", "4", "full" };
    static const struct { unsigned nodes, ppn, icc; const char *l2; } shapes[] = {
        { 1, 1, 0, "" }, { 2, 2, 0, "" }, { 2, 2, 1, "" },
        { 1, 1, 0, "[l2]\nsize = 2K\nassoc = 2\ninclusion = non_inclusive\n" },
        { 2, 2, 0, "[l2]\nsize = 2K\nassoc = 4\ninclusion = inclusive\n" },
        { 2, 2, 1, "[l2]\nsize = 2K\nassoc = 2\ninclusion = exclusive\n" },
        { 1, 1, 0, "[l3]\nsize = 4K\nassoc = 2\n" },
        { 2, 2, 1, "[l2]\nsize = 2K\nassoc = 2\ninclusion = non_inclusive\n[l3]\nsize = 2K\nassoc = 4\n" },
        { 2, 2, 1, "[l2]\nsize = 2K\nassoc = 2\n[dcache]\nwrite_policy = through\n" },
        { 2, 2, 0, "[l2]\nsize = 2K\nassoc = 4\ninclusion = inclusive\n[l3]\nsize = 2K\nassoc = 4\n"
                   "[dcache]\nwrite_policy = through\n" } };
    const unsigned k = (unsigned)_i, nodes = shapes[k].nodes, nprocs = nodes * shapes[k].ppn;
    for (unsigned protocol = 1; protocol <= 8; protocol++)
        for (unsigned a = 0; a < 4; a++) {
            rig g, f;                   /* general, short path */
            rig_init_l2(&g, nodes, shapes[k].ppn, shapes[k].icc, protocol, assoc[a], shapes[k].l2);
            rig_init_l2(&f, nodes, shapes[k].ppn, shapes[k].icc, protocol, assoc[a], shapes[k].l2);
            ck_assert(f.m.simple_misses);
            g.m.simple_misses = false;
            g.m.tx_fields = f.m.tx_fields = false;
            g.counted = f.counted = true;
            uint32_t x = 4242 + protocol * 17 + a + k * 1001;
            unsigned misses = 0;
            for (unsigned i = 0; i < 6000; i++) {
                x = x * 1103515245u + 12345u;
                int cpu = (int)((x >> 28) % nprocs);
                uint32_t line = (x >> 8) % 200;     /* 200 lines (4 pages) over 1 KiB caches */
                unsigned what = (x >> 4) % 8;       /* 1/8 fetches, 2/8 stores, the rest loads */
                mach_ref rg, rf;
                if (what == 0) {
                    rg = mach_fetch(&g.m, cpu, i, line);
                    rf = mach_fetch(&f.m, cpu, i, line);
                } else {
                    bool store = what <= 2;
                    rg = store ? mach_store(&g.m, cpu, i, line) : mach_load(&g.m, cpu, i, line);
                    rf = store ? mach_store(&f.m, cpu, i, line) : mach_load(&f.m, cpu, i, line);
                    misses += rf.outcome == REF_MISS;
                }
                same_answers(&g, &f, i, rg, rf);
            }
            ck_assert_uint_gt(misses, 1000);
            same_machines(&g, &f, 200);
            rig_free(&g);
            rig_free(&f);
        }
}
END_TEST

/* ---- the directory alone ---- */

static dir_view mkview(unsigned state, unsigned owner, const unsigned *holders, unsigned n)
{
    dir_view v;
    memset(&v, 0, sizeof v);
    v.state = (uint8_t)state;
    v.owner = (uint8_t)owner;
    for (unsigned i = 0; i < n; i++) hs_add(&v.holders, holders[i]);
    return v;
}

static bool same_view(const dir_view *a, const dir_view *b)
{
    if (a->state != b->state) return false;
    if (memcmp(&a->holders, &b->holders, sizeof a->holders)) return false;
    return (a->state != DIR_EXCLUSIVE && a->state != DIR_DIRTY) || a->owner == b->owner;
}

/* Idle and single-owner views live in the line map; shared ones (and, past
 * 126 processors, dirty ones) take a table entry, which goes again when the
 * view fits the map. Lines count once, at their first load. */
START_TEST(directory_codes_and_entries)
{
    for (unsigned nprocs = 1; nprocs <= 128; nprocs += 127) {
        directory d;
        dir_init(&d, nprocs, 6);
        dir_view v, got;
        uint8_t *c = dir_load(&d, 1000, &v);
        ck_assert_int_eq(v.state, DIR_IDLE);
        ck_assert_uint_eq(dir_lines(&d), 1);
        ck_assert(!dir_peek(&d, 1001, &got));
        unsigned owner = nprocs - 1;
        v = mkview(DIR_EXCLUSIVE, owner, &owner, 1);
        dir_store(&d, 1000, c, &v);
        ck_assert_uint_eq(dir_entries(&d), 0);
        ck_assert(dir_peek(&d, 1000, &got) && same_view(&v, &got));
        v = mkview(DIR_DIRTY, owner, &owner, 1);
        dir_store(&d, 1000, c, &v);
        ck_assert_uint_eq(dir_entries(&d), nprocs > 126 ? 1 : 0);
        ck_assert(dir_peek(&d, 1000, &got) && same_view(&v, &got));
        unsigned sh[3] = { 0, owner, DIR_ICC_SLOT + 1 };
        v = mkview(DIR_SHARED, 0, sh, 3);
        dir_store(&d, 1000, c, &v);
        ck_assert_uint_eq(dir_entries(&d), 1);
        c = dir_load(&d, 1000, &got);
        ck_assert(same_view(&v, &got));
        ck_assert_uint_eq(dir_lines(&d), 1);
        v = mkview(DIR_IDLE, 0, NULL, 0);
        dir_store(&d, 1000, c, &v);
        ck_assert_uint_eq(dir_entries(&d), 0);
        ck_assert(dir_peek(&d, 1000, &got) && same_view(&v, &got));
        dir_free(&d);
    }
}
END_TEST

/* Random views of lines that collide in the table (a stride of its size),
 * stored and read back against a plain array: entries removed from the
 * middle of a probe run leave the others findable, and the table grows and
 * shrinks with the entries in use. */
/* _i = 0: 8 processors; 1: 128 (dirty views in the table). Idle and
 * single-owner views are stored by dir_store or dir_store_simple at random. */
START_TEST(directory_random_against_array)
{
    enum { N = 3000 };
    static dir_view ref[N];
    static bool seen[N];
    memset(seen, 0, sizeof seen);
    directory d;
    unsigned nprocs = _i ? 128 : 8;
    dir_init(&d, nprocs, 2);
    uint32_t x = 12345;
    size_t max_cap = 0;
    for (int round = 0; round < 100000; round++) {
        x = x * 1103515245u + 12345u;
        unsigned i = (x >> 8) % N;
        uint32_t line = i * 4096u + (x & 1);        /* many lines with one low part */
        unsigned k = i * 2 + (x & 1);
        if (k >= N) continue;
        dir_view v, got;
        uint8_t *c = dir_load(&d, line, &v);
        if (seen[k]) ck_assert(same_view(&ref[k], &v));
        else ck_assert_int_eq(v.state, DIR_IDLE);
        seen[k] = true;
        unsigned kind = (x >> 20) % 4, owner = (x >> 24) % 8, h[2] = { owner, DIR_ICC_SLOT + (x >> 27) % 4 };
        v = kind == 0 ? mkview(DIR_IDLE, 0, NULL, 0) : kind == 1 ? mkview(DIR_EXCLUSIVE, owner, h, 1)
          : kind == 2 ? mkview(DIR_DIRTY, owner, h, 1) : mkview(DIR_SHARED, 0, h, 1 + (x >> 30) % 2);
        if (kind < 3 && (x >> 16) % 2) dir_store_simple(&d, line, c, v.state, v.owner);
        else dir_store(&d, line, c, &v);
        ref[k] = v;
        ck_assert(dir_peek(&d, line, &got) && same_view(&v, &got));
        if (d.cap > max_cap) max_cap = d.cap;
    }
    size_t shared = 0, lines = 0;
    for (unsigned k = 0; k < N; k++) {
        if (!seen[k]) continue;
        lines++;
        dir_view got;
        ck_assert(dir_peek(&d, (k / 2) * 4096u + (k & 1), &got) && same_view(&ref[k], &got));
        shared += ref[k].state == DIR_SHARED || (nprocs > 126 && ref[k].state == DIR_DIRTY);
    }
    ck_assert_uint_eq(dir_entries(&d), shared);
    ck_assert_uint_eq(dir_lines(&d), lines);
    /* Every line idle again: the table is back to its first size. */
    for (unsigned k = 0; k < N; k++) {
        if (!seen[k]) continue;
        uint32_t line = (k / 2) * 4096u + (k & 1);
        dir_view v;
        uint8_t *c = dir_load(&d, line, &v);
        v = mkview(DIR_IDLE, 0, NULL, 0);
        dir_store(&d, line, c, &v);
    }
    ck_assert_uint_eq(dir_entries(&d), 0);
    ck_assert(max_cap >= 1024);
    ck_assert_uint_eq(d.cap, 64);
    dir_free(&d);
}
END_TEST

/* Each processor's L2 (docs/cdat-protocol.md §9), on random references of
 * 2 × 2 processors to 48 lines of 4 pages with 512-byte L2s, after every
 * reference: inclusive — every d- and i-cache line is in the L2; exclusive —
 * no line is in both the d-cache and the L2; every policy — a processor's
 * data copies share one permission (shared, or owned), and an owned copy is
 * the home's recorded owner's; a write-through d-cache (§12) — none of its
 * lines is dirty. Loop i: policy i / 2 mod 3, protocol 1 or 5, interconnect
 * caches with odd i; from 6 on, the d-cache writes through (non-inclusive
 * and inclusive L2s). */
static void check_l2_invariants(rig *r, unsigned incl, bool through, unsigned k)
{
    machine *m = &r->m;
    uint32_t lines[64];
    cache_state st[64];
    for (unsigned p = 0; p < m->nprocs; p++) {
        cache *cs[3] = { &m->p[p].d, &m->p[p].i, &m->p[p].l2 };
        for (int c = 0; c < 3; c++)
            for (unsigned set = 0; set < cache_sets(cs[c]); set++) {
                unsigned n = cache_set_contents(cs[c], set, lines, st);
                for (unsigned j = 0; j < n; j++) {
                    if (incl == INCL_INCLUSIVE && c < 2)
                        ck_assert_msg(cache_holds(&m->p[p].l2, lines[j]), "ref %u: P%u's %s line 0x%x not in its inclusive L2",
                                      k, p, c ? "i-cache" : "d-cache", lines[j]);
                    if (incl == INCL_EXCLUSIVE && c == 0)
                        ck_assert_msg(!cache_holds(&m->p[p].l2, lines[j]), "ref %u: P%u's line 0x%x in both d-cache and exclusive L2",
                                      k, p, lines[j]);
                    if (c == 1) continue;
                    ck_assert_msg(!through || c != 0 || st[j] != CS_DIRTY,
                                  "ref %u: P%u's write-through d-cache holds line 0x%x dirty", k, p, lines[j]);
                    cache_state other = cache_probe(c == 0 ? &m->p[p].l2 : &m->p[p].d, lines[j]);
                    ck_assert_msg(other == CS_INVALID || (other == CS_SHARED) == (st[j] == CS_SHARED),
                                  "ref %u: P%u's copies of line 0x%x disagree (%d, %d)", k, p, lines[j], st[j], other);
                    if (st[j] != CS_SHARED) {
                        dir_view v;
                        ck_assert(dir_peek(&m->dir, lines[j], &v));
                        ck_assert_msg((v.state == DIR_EXCLUSIVE || v.state == DIR_DIRTY) && v.owner == p,
                                      "ref %u: P%u owns line 0x%x, the home says state %u owner %u", k, p, lines[j],
                                      v.state, v.owner);
                    }
                }
            }
    }
}

START_TEST(l2_invariants)
{
    static const char *const names[3] = { "non_inclusive", "inclusive", "exclusive" };
    unsigned incl = (unsigned)_i / 2 % 3;
    bool through = _i >= 6;
    char extra[160];
    snprintf(extra, sizeof extra, "[l2]\nsize = 512\nassoc = 2\ninclusion = %s\n%s", names[incl],
             through ? "[dcache]\nwrite_policy = through\n" : "");
    rig r;
    rig_init_l2(&r, 2, 2, (unsigned)_i & 1, _i % 4 < 2 ? 1 : 5, "2", extra);
    ck_assert(r.m.l2 && r.m.l2_inclusion == incl && r.m.store_through == through);
    uint32_t x = 12345 + (uint32_t)_i;
    for (unsigned k = 0; k < 20000; k++) {
        x = x * 1103515245u + 12345u;
        unsigned cpu = (x >> 8) % 4, kind = (x >> 12) % 3;
        uint32_t line = ((x >> 16) % 4) * 64 + ((x >> 20) % 12);      /* 12 lines of each of pages 0-3 */
        if (kind == MACH_IFETCH) mach_fetch(&r.m, (int)cpu, k, line);
        else if (kind == MACH_LOAD) mach_load(&r.m, (int)cpu, k, line);
        else mach_store(&r.m, (int)cpu, k, line);
        r.log[0] = 0;
        check_l2_invariants(&r, incl, through, k);
    }
    rig_free(&r);
}
END_TEST

Suite *machine_suite(void)
{
    Suite *s = suite_create("machine");
    TCase *tc = tcase_create("io");
    tcase_add_test(tc, write_purge_idle);
    tcase_add_test(tc, write_purge_invalidates_every_holder);
    tcase_add_test(tc, write_purge_discards_a_dirty_owner);
    tcase_add_test(tc, read_current_cases);
    tcase_add_test(tc, read_current_after_a_silent_drop);
    suite_add_tcase(s, tc);
    tc = tcase_create("switches");
    tcase_add_test(tc, remote_load_per_switch);
    tcase_add_test(tc, recall_dirty_per_switch);
    tcase_add_test(tc, recall_dirty_remote_line_rl_b);
    tcase_add_test(tc, upgrade_invalidates_stale_sharers);
    suite_add_tcase(s, tc);
    tc = tcase_create("hit");
    tcase_set_timeout(tc, 60);      /* the random comparisons: a few seconds under ASan on a busy machine */
    tcase_add_test(tc, hit_path);
    tcase_add_loop_test(tc, data_path_matches_load_store, 0, 2);
    tcase_add_loop_test(tc, simple_miss_matches_general, 0, 10);
    suite_add_tcase(s, tc);
    tc = tcase_create("l2");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, l2_invariants, 0, 10);
    suite_add_tcase(s, tc);
    tc = tcase_create("directory");
    tcase_add_test(tc, directory_codes_and_entries);
    tcase_add_loop_test(tc, directory_random_against_array, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
