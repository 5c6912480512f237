/* stats.c — counting sequences and writing cdat's report lines. */
#include "stats.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const uint8_t state_codes[STATE_CODES] = {
    TX_READ_SHAR, TX_READ_SHAR_OR_PRIV, TX_READ_PRIV_OWN, TX_REQ_INV,
    TX_READ_CURRENT, TX_WRITE_PURGE, TX_WRITE_BACK, TX_UPDATE_TAG
};

const uint8_t stats_code_class[CDAT_CODE_LIMIT] = {
    [TX_READ_SHAR] = 1 | STATS_REQUEST, [TX_READ_SHAR_OR_PRIV] = 2 | STATS_REQUEST,
    [TX_READ_PRIV_OWN] = 3 | STATS_REQUEST, [TX_REQ_INV] = 4 | STATS_REQUEST,
    [TX_READ_CURRENT] = 5 | STATS_REQUEST, [TX_WRITE_PURGE] = 6 | STATS_REQUEST,
    [TX_WRITE_BACK] = 7 | STATS_WRITE_BACK, [TX_UPDATE_TAG] = 8 | STATS_UPDATE_TAG,
};

void stats_seq_rare(cpu_stats *s, const mach_seq *q)
{
    if (q->requester < 0) {
        /* An I/O request (L05): where its data came from, or for a
         * write_purge, which memory received it. */
        int src = q->source != SRC_NONE ? q->source
                : q->home == q->req_node ? SRC_LOCAL_MEMORY : SRC_REMOTE_MEMORY;
        s->io.misses++;
        s->io.src[src]++;
    } else if (q->status == DIR_SHARED && (q->presence == PRES_HOME || q->presence == PRES_REMOTE)) {
        holder_set h = q->holders;
        hs_del(&h, (unsigned)q->requester);
        s->rs_requests++;
        s->rs_degree += hs_count(&h);
    }
}

void stats_seq_l3(cpu_stats *s, const mach_seq *q)
{
    uint64_t *n = s->l3[q->home];
    unsigned a = q->l3 & L3_ACCESS;
    bool write = a == L3_WRITE_HIT || a == L3_WRITE_MISS;
    n[write ? L3_WRITES : L3_READS]++;
    n[L3_READ_MISSES] += a == L3_READ_MISS;
    n[L3_WRITE_MISSES] += a == L3_WRITE_MISS;
    n[L3_WRITE_BACKS] += (q->l3 & L3_WRITE_BACK) != 0;
}

bool stats_any(const cpu_stats *s)
{
    return ref_total(&s->data) || ref_total(&s->instr) || ref_total(&s->io) || s->transactions || s->active ||
           s->idle;
}

static void ref_add(ref_counts *a, const ref_counts *b)
{
    a->hits += b->hits;
    a->misses += b->misses;
    a->upgrades += b->upgrades;
    for (int i = 0; i < SRC_COUNT; i++) a->src[i] += b->src[i];
}

void stats_add(cpu_stats *into, const cpu_stats *from)
{
    ref_add(&into->data, &from->data);
    ref_add(&into->instr, &from->instr);
    ref_add(&into->io, &from->io);
    into->transactions += from->transactions;
    into->requests += from->requests;
    into->critical += from->critical;
    for (int i = 0; i < CDAT_CODE_LIMIT; i++) into->txn[i] += from->txn[i];
    uint64_t *a = &into->state[0][0][0][0];
    const uint64_t *b = &from->state[0][0][0][0];
    for (size_t i = 0; i < sizeof into->state / sizeof *a; i++) a[i] += b[i];
    into->rs_requests += from->rs_requests;
    into->rs_degree += from->rs_degree;
    into->active += from->active;
    into->idle += from->idle;
    into->write_back += from->write_back;
    into->update_tag += from->update_tag;
    into->silent += from->silent;
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < MC_CLASSES; k++) into->cls[i][k] += from->cls[i][k];
    into->l2_hits += from->l2_hits;
    into->l2_misses += from->l2_misses;
    into->l2_upgrades += from->l2_upgrades;
    into->l2_writes += from->l2_writes;
    into->l2_write_misses += from->l2_write_misses;
    into->l2_write_backs += from->l2_write_backs;
    into->l2_back_inv += from->l2_back_inv;
    for (int k = 0; k < MC_CLASSES; k++) into->l2cls[k] += from->l2cls[k];
    into->queue += from->queue;
    uint64_t *a3 = &into->l3[0][0];
    const uint64_t *b3 = &from->l3[0][0];
    for (size_t i = 0; i < sizeof into->l3 / sizeof *a3; i++) a3[i] += b3[i];
}

void stats_l2(cpu_stats *s, mach_ref r)
{
    unsigned a = r.l2 & L2_ACCESS, w = r.l2 & L2_WRITES;
    s->l2_hits += a == L2_HIT;
    s->l2_misses += a == L2_MISS;
    s->l2_upgrades += a == L2_UPGRADE;
    s->l2_writes += w != 0;
    s->l2_write_misses += w == L2_WRITE_MISS;
    s->l2_write_backs += (r.l2 >> 4) & 3;
    s->l2_back_inv += r.l2 >> 6;
}

/* L22: the L2, in L01's form for the L1 misses that reached it, then what
 * the L1 victims, and its own, did. */
static void l2_line(report *r, int phase, int t, const cpu_stats *s)
{
    char p1[REPORT_NUM], p2[REPORT_NUM], p3[REPORT_NUM];
    uint64_t refs = s->l2_hits + s->l2_misses + s->l2_upgrades;
    report_line(r, phase, t, 22, "l2", "refs %" PRIu64 " hits %" PRIu64 " %s misses %" PRIu64 " %s upgrades %"
                PRIu64 " %s writes %" PRIu64 " write_misses %" PRIu64 " write_backs %" PRIu64 " back_invalidations %"
                PRIu64, refs, s->l2_hits, report_pct(p1, s->l2_hits, refs), s->l2_misses,
                report_pct(p2, s->l2_misses, refs), s->l2_upgrades, report_pct(p3, s->l2_upgrades, refs),
                s->l2_writes, s->l2_write_misses, s->l2_write_backs, s->l2_back_inv);
}

/* The fields of the miss classes cls (L17, L18, L25), into buf. */
enum { CLASSES_TEXT = 160 };
static const char *classes_text(char buf[CLASSES_TEXT], const uint64_t *cls)
{
    snprintf(buf, CLASSES_TEXT, "cold %" PRIu64 " capacity %" PRIu64 " conflict %" PRIu64 " true_sharing %" PRIu64
             " false_sharing %" PRIu64, cls[MC_COLD], cls[MC_CAPACITY], cls[MC_CONFLICT], cls[MC_TRUE], cls[MC_FALSE]);
    return buf;
}

/* L17, L18: the classes of the misses, the upgrades, and misses per thousand instructions. */
static void classes_line(report *r, int phase, int t, int ll, const char *name, const uint64_t *cls,
                         const ref_counts *c, uint64_t instructions)
{
    char p[REPORT_NUM], f[CLASSES_TEXT];
    report_line(r, phase, t, ll, name, "%s upgrades %" PRIu64 " mpki %s", classes_text(f, cls), c->upgrades,
                report_ratio(p, 1000.0 * (double)c->misses, (double)instructions));
}

static void refs_line(report *r, int phase, int t, int ll, const char *name, const ref_counts *c)
{
    char p1[REPORT_NUM], p2[REPORT_NUM], p3[REPORT_NUM];
    uint64_t refs = ref_total(c);
    report_line(r, phase, t, ll, name, "refs %" PRIu64 " hits %" PRIu64 " %s misses %" PRIu64 " %s upgrades %"
                PRIu64 " %s", refs, c->hits, report_pct(p1, c->hits, refs), c->misses,
                report_pct(p2, c->misses, refs), c->upgrades, report_pct(p3, c->upgrades, refs));
}

/* The six sources, as L02/L04 fields, after prefix; l2: then the misses the
 * L2 served; l3: then those the home's L3 served, local and remote. */
static void sources_line(report *r, int phase, int t, int ll, const char *name, const char *prefix,
                         const ref_counts *c, bool l2, bool l3)
{
    const uint64_t *s = c->src;
    uint64_t local = ref_local(c), remote = ref_remote(c);
    uint64_t d = c->misses;
    char p[9][REPORT_NUM], l2s[160] = "";
    int len = 0;
    if (l2) len = snprintf(l2s, sizeof l2s, " l2 %" PRIu64 " %s", s[SRC_L2], report_pct(p[6], s[SRC_L2], d));
    if (l3)
        snprintf(l2s + len, sizeof l2s - (size_t)len, " local_l3 %" PRIu64 " %s remote_l3 %" PRIu64 " %s",
                 s[SRC_LOCAL_L3], report_pct(p[7], s[SRC_LOCAL_L3], d), s[SRC_REMOTE_L3],
                 report_pct(p[8], s[SRC_REMOTE_L3], d));
    report_line(r, phase, t, ll, name, "%slocal %" PRIu64 " %s remote %" PRIu64 " %s local_memory %" PRIu64
                " %s local_cache %" PRIu64 " %s remote_memory %" PRIu64 " %s remote_cache %" PRIu64 " %s%s",
                prefix, local, report_pct(p[0], local, d), remote, report_pct(p[1], remote, d),
                s[SRC_LOCAL_MEMORY], report_pct(p[2], s[SRC_LOCAL_MEMORY], d),
                s[SRC_LOCAL_CACHE], report_pct(p[3], s[SRC_LOCAL_CACHE], d),
                s[SRC_REMOTE_MEMORY], report_pct(p[4], s[SRC_REMOTE_MEMORY], d),
                s[SRC_REMOTE_CACHE], report_pct(p[5], s[SRC_REMOTE_CACHE], d), l2s);
}

static const char *const presence_names[4] = { "none", "local", "home", "remote" };
static const char *const status_names[4] = { "idle", "shared", "exclusive", "dirty" };

static void traffic_lines(report *r, int phase, int t, const cpu_stats *s)
{
    char p[REPORT_NUM];
    report_line(r, phase, t, 10, "traffic", "transactions %" PRIu64 " requests %" PRIu64 " avg_latency %s",
                s->transactions, s->requests, report_ratio(p, (double)s->critical, (double)s->requests));
    for (unsigned code = 0; code < CDAT_CODE_LIMIT; code++)
        if (s->txn[code])
            report_line(r, phase, t, 11, "txn", "%02u %s %" PRIu64 " %s", code, cdat_code_name(code), s->txn[code],
                        report_pct(p, s->txn[code], s->transactions));
    for (int h = 0; h < 2; h++)
        for (int pr = 0; pr < 4; pr++)
            for (int st = 0; st < 4; st++) {
                const uint64_t *row = s->state[h][pr][st];
                uint64_t any = 0;
                for (int i = 0; i < STATE_CODES; i++) any |= row[i];
                if (!any) continue;
                char buf[STATE_CODES * 28], *b = buf;
                for (int i = 0; i < STATE_CODES; i++)
                    b += snprintf(b, sizeof buf - (size_t)(b - buf), " %02u:%" PRIu64, state_codes[i], row[i]);
                report_line(r, phase, t, 12, "state", "home %s presence %s status %s%s", h ? "remote" : "local",
                            presence_names[pr], status_names[st], buf);
            }
}

void stats_report(report *r, int phase, int t, const cpu_stats *s, unsigned lines)
{
    char p[REPORT_NUM];
    if (lines & STATS_PROC) {
        bool l2 = lines & STATS_L2, l3 = lines & STATS_L3;
        refs_line(r, phase, t, 1, "data", &s->data);
        sources_line(r, phase, t, 2, "data_miss_src", "", &s->data, l2, l3);
        refs_line(r, phase, t, 3, "instr", &s->instr);
        sources_line(r, phase, t, 4, "instr_miss_src", "", &s->instr, l2, l3);
    }
    if (lines & STATS_IO) {
        char prefix[48];
        snprintf(prefix, sizeof prefix, "requests %" PRIu64 " ", ref_total(&s->io));
        sources_line(r, phase, t, 5, "io", prefix, &s->io, false, lines & STATS_L3);
    }
    traffic_lines(r, phase, t, s);
    if (!(lines & STATS_PROC)) return;
    report_line(r, phase, t, 13, "remote_sharing", "lines %" PRIu64 " avg_degree %s", s->rs_requests,
                report_ratio(p, (double)s->rs_degree, (double)s->rs_requests));
    if (!(lines & STATS_NO_CPU)) report_cpu_line(r, phase, t, 14, s->active, s->idle);
    report_line(r, phase, t, 15, "evictions", "write_back %" PRIu64 " update_tag %" PRIu64 " silent %" PRIu64,
                s->write_back, s->update_tag, s->silent);
    if (lines & STATS_CLASSES) {
        classes_line(r, phase, t, 17, "data_classes", s->cls[MC_DATA], &s->data, ref_total(&s->instr));
        classes_line(r, phase, t, 18, "instr_classes", s->cls[MC_INSTR], &s->instr, ref_total(&s->instr));
    }
    if (lines & STATS_L2) l2_line(r, phase, t, s);
    if (lines & STATS_L2_CLASSES) {
        char f[CLASSES_TEXT];
        report_line(r, phase, t, 25, "l2_classes", "%s", classes_text(f, s->l2cls));
    }
}

void stats_l3_lines(report *r, int phase, const cpu_stats *s, unsigned nodes)
{
    uint64_t all[STATS_L3_COUNTS] = { 0 };
    for (unsigned n = 0; n <= nodes; n++) {
        const uint64_t *c = all;
        char node[16] = "all";
        if (n < nodes) {
            c = s->l3[n];
            snprintf(node, sizeof node, "%u", n);
            for (int k = 0; k < STATS_L3_COUNTS; k++) all[k] += c[k];
        }
        char p[4][REPORT_NUM];
        uint64_t rh = c[L3_READS] - c[L3_READ_MISSES], wh = c[L3_WRITES] - c[L3_WRITE_MISSES];
        report_line(r, phase, REPORT_ALL_THREADS, 23, "l3", "node %s reads %" PRIu64 " read_hits %" PRIu64 " %s"
                    " read_misses %" PRIu64 " %s writes %" PRIu64 " write_hits %" PRIu64 " %s write_misses %" PRIu64
                    " %s write_backs %" PRIu64, node, c[L3_READS], rh, report_pct(p[0], rh, c[L3_READS]),
                    c[L3_READ_MISSES], report_pct(p[1], c[L3_READ_MISSES], c[L3_READS]), c[L3_WRITES], wh,
                    report_pct(p[2], wh, c[L3_WRITES]), c[L3_WRITE_MISSES],
                    report_pct(p[3], c[L3_WRITE_MISSES], c[L3_WRITES]), c[L3_WRITE_BACKS]);
    }
}

uint64_t stats_stall(const cpu_stats *s, const cdat_timing *tm, uint64_t by_cause[TIMING_KEYS])
{
    /* The key that prices each mach_source. */
    static const int key_of_source[SRC_COUNT] = {
        [SRC_LOCAL_MEMORY] = TIMING_LOCAL_MEMORY, [SRC_LOCAL_CACHE] = TIMING_LOCAL_CACHE,
        [SRC_REMOTE_MEMORY] = TIMING_REMOTE_MEMORY, [SRC_REMOTE_CACHE] = TIMING_REMOTE_CACHE,
        [SRC_L2] = TIMING_L2_HIT, [SRC_LOCAL_L3] = TIMING_LOCAL_L3, [SRC_REMOTE_L3] = TIMING_REMOTE_L3 };
    for (int k = 0; k < TIMING_KEYS; k++) by_cause[k] = 0;
    const ref_counts *rc[2] = { &s->data, &s->instr };
    for (int i = 0; i < 2; i++)                 /* a processor's streams; an I/O processor never stalls one */
        for (int src = 0; src < SRC_COUNT; src++)
            by_cause[key_of_source[src]] += rc[i]->src[src] * tm->cycles[key_of_source[src]];
    by_cause[TIMING_UPGRADE] = (s->data.upgrades + s->instr.upgrades + s->l2_upgrades) * tm->cycles[TIMING_UPGRADE];
    by_cause[TIMING_HOP] = s->critical * tm->cycles[TIMING_HOP];
    uint64_t sum = 0;
    for (int k = 0; k < TIMING_KEYS; k++) sum += by_cause[k];
    return sum + s->queue;
}

uint64_t stats_time_line(report *r, int phase, int t, const cpu_stats *s, const cdat_timing *tm, uint64_t estimate,
                         bool l2, bool l3)
{
    uint64_t by[TIMING_KEYS];
    uint64_t stall = stats_stall(s, tm, by);
    char est[48] = "", more[112] = "";
    if (estimate != UINT64_MAX) snprintf(est, sizeof est, " estimated_time %" PRIu64, estimate);
    size_t n = l2 ? (size_t)snprintf(more, sizeof more, " l2 %" PRIu64, by[TIMING_L2_HIT]) : 0;
    if (l3)
        n += (size_t)snprintf(more + n, sizeof more - n, " local_l3 %" PRIu64 " remote_l3 %" PRIu64,
                              by[TIMING_LOCAL_L3], by[TIMING_REMOTE_L3]);
    if (config_contention(tm)) snprintf(more + n, sizeof more - n, " queue %" PRIu64, s->queue);
    report_line(r, phase, t, 19, "time", "busy %" PRIu64 " stall %" PRIu64 " local_memory %" PRIu64 " local_cache %"
                PRIu64 " remote_memory %" PRIu64 " remote_cache %" PRIu64 " upgrade %" PRIu64 " network %" PRIu64
                "%s busy_and_stall %" PRIu64 " idle %" PRIu64 "%s", s->active, stall, by[TIMING_LOCAL_MEMORY],
                by[TIMING_LOCAL_CACHE], by[TIMING_REMOTE_MEMORY], by[TIMING_REMOTE_CACHE], by[TIMING_UPGRADE],
                by[TIMING_HOP], more, s->active + stall, s->idle, est);
    return s->active + stall;
}
