/* config.c — cdat configuration: inih callbacks, value parsing, validation. */
#include "config.h"
#include "config_lookup.h"
#include "cache.h"
#include "../base/diag.h"
#include "../common/path.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct parse_state {
    cdat_config *c;
    unsigned line;              /* line the reader handed to inih last */
    FILE *f;
    char err[256];              /* the first error */
    unsigned err_line;
    unsigned line_of[24];       /* line of each checked key, for validation errors */
    unsigned *map_line;         /* line of each thread.N (validation errors name it) */
    bool in_set;                /* applying a --set: a later one replaces an earlier entry */
} parse_state;

/* The k-th --set counts as line SET_LINE + k: after every line of the file,
 * so "the last of the keys involved" is the setting when one is involved. */
#define SET_LINE 0x40000000u

enum { L_NODES, L_PPN, L_BANKS, L_LINE, L_PAGE, L_PROTO, L_ALLOC, L_MEMUSE,
       L_DSIZE, L_DASSOC, L_ISIZE, L_IASSOC, L_CSIZE, L_CASSOC, L_L2SIZE, L_L2ASSOC, L_L2HIT,
       L_L3SIZE, L_L3ASSOC, L_L3HIT, L_DWRITE, L_L2INCL, L_SLOTS };
_Static_assert(L_SLOTS <= 24, "parse_state.line_of has a slot for each key checked");

static int fail(parse_state *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int handler(void *user, const char *section, const char *key, const char *v);
static void read_file(cdat_config *c, parse_state *p, const char *given);
static void check_config(cdat_config *c, parse_state *p);

static const char *const sections[] = { "system", "output", "dcache", "icache",
                                        "interconnect_cache", "l2", "l3", "mapping", "timing" };
#define SECTION_NAMES "system, output, dcache, icache, interconnect_cache, l2, l3, mapping, timing"

static bool known_section(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof sections / sizeof *sections; i++)
        if (strlen(sections[i]) == len && memcmp(sections[i], name, len) == 0) return true;
    return false;
}

/* inih reads lines through this, so we know the line of every callback.
 * It also reports what inih would pass over silently: a line longer than
 * inih's buffer (inih would read the rest as a new line, shifting every line
 * number after it), and an unknown [section] with no keys (inih calls the
 * handler only for keys). */
static char *counting_reader(char *str, int num, void *stream)
{
    parse_state *p = stream;
    char *r = fgets(str, num, p->f);
    if (!r) return r;
    p->line++;
    if (!strchr(str, '\n')) {
        int ch = getc(p->f);
        if (ch != '\n' && ch != EOF) {     /* more than fits: an error; drop the rest */
            while (ch != '\n' && ch != EOF) ch = getc(p->f);
            fail(p, "line longer than %d characters", num - 1);
            strcpy(str, "\n");
            return str;
        }
    }
    char *s = str;
    if (p->line == 1 && strncmp(s, "\xEF\xBB\xBF", 3) == 0) s += 3;    /* inih skips a BOM */
    if (*s == '[') {        /* an unindented '[' always starts a section for inih */
        char *end = strchr(s, ']');
        if (end && !memchr(s, ';', (size_t)(end - s)) && !known_section(s + 1, (size_t)(end - s - 1)))
            fail(p, "unknown section [%.*s] (" SECTION_NAMES ")", (int)(end - s - 1), s + 1);
    }
    return r;
}

static int fail(parse_state *p, const char *fmt, ...)
{
    if (!p->err_line) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err, sizeof p->err, fmt, ap);
        va_end(ap);
        p->err_line = p->line;
    }
    return 0;
}

static bool parse_uint(const char *v, uint64_t *out)
{
    if (!isdigit((unsigned char)*v)) return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || *end) return false;
    *out = x;
    return true;
}

/* A size with an optional K, M or G suffix (powers of 1024). */
static bool parse_size(const char *v, uint64_t *out)
{
    if (!isdigit((unsigned char)*v)) return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno) return false;
    unsigned shift = 0;
    if (*end == 'K' || *end == 'k') shift = 10;
    else if (*end == 'M' || *end == 'm') shift = 20;
    else if (*end == 'G' || *end == 'g') shift = 30;
    if (shift) end++;
    if (*end || x > (UINT64_MAX >> shift)) return false;
    *out = (uint64_t)x << shift;
    return true;
}

static bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

static int set_uint(parse_state *p, const char *key, const char *v, unsigned *dst, uint64_t lo,
                    uint64_t hi, int slot)
{
    uint64_t x;
    if (!parse_uint(v, &x)) return fail(p, "%s: '%s' is not a whole number", key, v);
    if (x < lo || x > hi)
        return fail(p, "%s: %s is out of range (%llu..%llu)", key, v, (unsigned long long)lo,
                    (unsigned long long)hi);
    *dst = (unsigned)x;
    if (slot >= 0) p->line_of[slot] = p->line;
    return 1;
}

static int set_bool(parse_state *p, const char *key, const char *v, bool *dst)
{
    if (strcmp(v, "0") == 0) *dst = false;
    else if (strcmp(v, "1") == 0) *dst = true;
    else return fail(p, "%s: '%s' must be 0 or 1", key, v);
    return 1;
}

/* The names of replacement policies, by cache_config.replacement. */
static const char *const replacement_names[] = { "lru", "fifo", "random" };
enum { REPLACEMENTS = sizeof replacement_names / sizeof replacement_names[0] };

/* A key of a cache's section; more_keys: the section's other keys, for the
 * unknown-key message (e.g. ", inclusion"), which the caller handled. */
static int set_cache(parse_state *p, const char *section, const char *key, const char *v,
                     cache_config *cc, int size_slot, int assoc_slot, const char *more_keys)
{
    if (strcmp(key, "size") == 0) {
        if (!parse_size(v, &cc->size)) return fail(p, "[%s] size: '%s' is not a size (e.g. 64K, 1M)", section, v);
        if (cc->size > CFG_MAX_CACHE_SIZE)
            return fail(p, "[%s] size: %s is larger than 4G, the whole 32-bit address space", section, v);
        p->line_of[size_slot] = p->line;
        return 1;
    }
    if (strcmp(key, "assoc") == 0) {
        if (strcasecmp(v, "full") == 0) {
            cc->assoc = 0;
        } else {
            uint64_t x;
            if (!parse_uint(v, &x) || x < 1 || x > 64)
                return fail(p, "[%s] assoc: '%s' must be 1..64 or full", section, v);
            cc->assoc = (unsigned)x;
        }
        p->line_of[assoc_slot] = p->line;
        return 1;
    }
    if (strcmp(key, "replacement") == 0) {
        unsigned r = 0;
        while (r < REPLACEMENTS && strcmp(v, replacement_names[r]) != 0) r++;
        if (r == REPLACEMENTS) return fail(p, "[%s] replacement: '%s' must be lru, fifo or random", section, v);
        cc->replacement = r;
        return 1;
    }
    return fail(p, "[%s]: unknown key '%s' (size, assoc, replacement%s)", section, key, more_keys);
}

/* [dcache]: the keys of a cache, and write_policy (docs/cdat-protocol.md §12). */
static int set_dcache(parse_state *p, const char *key, const char *v)
{
    cdat_config *c = p->c;
    if (strcmp(key, "write_policy") == 0) {
        if (strcmp(v, "back") == 0) c->dcache_write_through = false;
        else if (strcmp(v, "through") == 0) c->dcache_write_through = true;
        else return fail(p, "[dcache] write_policy: '%s' must be back or through", v);
        p->line_of[L_DWRITE] = p->line;
        return 1;
    }
    return set_cache(p, "dcache", key, v, &c->dcache, L_DSIZE, L_DASSOC, ", write_policy");
}

/* [l2]: the keys of a cache, and inclusion. */
static int set_l2(parse_state *p, const char *key, const char *v)
{
    cdat_config *c = p->c;
    if (strcmp(key, "inclusion") == 0) {
        if (strcmp(v, "non_inclusive") == 0) c->l2_inclusion = INCL_NON_INCLUSIVE;
        else if (strcmp(v, "inclusive") == 0) c->l2_inclusion = INCL_INCLUSIVE;
        else if (strcmp(v, "exclusive") == 0) c->l2_inclusion = INCL_EXCLUSIVE;
        else return fail(p, "[l2] inclusion: '%s' must be non_inclusive, inclusive or exclusive", v);
        p->line_of[L_L2INCL] = p->line;
        return 1;
    }
    return set_cache(p, "l2", key, v, &c->l2, L_L2SIZE, L_L2ASSOC, ", inclusion");
}

/* [l3]: the keys of a cache. No inclusion: the L3 is memory-side (it holds
 * the home's memory, never a copy the directory tracks), so it includes or
 * excludes nothing (docs/cdat-protocol.md §10). */
static int set_l3(parse_state *p, const char *key, const char *v)
{
    if (strcmp(key, "inclusion") == 0)
        return fail(p, "[l3] inclusion: the L3 is memory-side (each node's L3 holds its own memory's lines, never a"
                    " copy the directory tracks), so no inclusion policy applies; remove the key");
    return set_cache(p, "l3", key, v, &p->c->l3, L_L3SIZE, L_L3ASSOC, "");
}

static int set_mapping(parse_state *p, const char *key, const char *v)
{
    cdat_config *c = p->c;
    uint64_t t, node, proc;
    if (strcmp(key, "policy") == 0) {
        if (strcmp(v, "balanced") == 0) c->map_policy = MAP_BALANCED;
        else if (strcmp(v, "compact") == 0) c->map_policy = MAP_COMPACT;
        else if (strcmp(v, "spread") == 0) c->map_policy = MAP_SPREAD;
        else return fail(p, "policy: '%s' must be balanced, compact or spread", v);
        return 1;
    }
    if (strncmp(key, "thread.", 7) != 0 || !parse_uint(key + 7, &t) || t >= CFG_MAX_PROCS * 512)
        return fail(p, "[mapping]: key '%s' must be thread.N or policy", key);
    const char *dot = strchr(v, '.');
    char nodebuf[32];
    if (!dot || (size_t)(dot - v) >= sizeof nodebuf) return fail(p, "%s: '%s' must be node.proc", key, v);
    memcpy(nodebuf, v, (size_t)(dot - v));
    nodebuf[dot - v] = '\0';
    if (!parse_uint(nodebuf, &node) || !parse_uint(dot + 1, &proc))
        return fail(p, "%s: '%s' must be node.proc (two whole numbers)", key, v);
    if (t >= c->map_len) {
        unsigned n = (unsigned)t + 1;
        c->map_node = xrealloc(c->map_node, n * sizeof *c->map_node);
        c->map_proc = xrealloc(c->map_proc, n * sizeof *c->map_proc);
        p->map_line = xrealloc(p->map_line, n * sizeof *p->map_line);
        for (unsigned i = c->map_len; i < n; i++) c->map_node[i] = c->map_proc[i] = -1;
        c->map_len = n;
    }
    if (c->map_node[t] >= 0 && !p->in_set) return fail(p, "%s is mapped twice", key);
    if (node > CFG_MAX_NODES || proc > CFG_MAX_PROCS) return fail(p, "%s: %s is out of range", key, v);
    c->map_node[t] = (int)node;
    c->map_proc[t] = (int)proc;
    p->map_line[t] = p->line;
    if (p->line > c->map_line_max) c->map_line_max = p->line;
    return 1;
}

static int handler(void *user, const char *section, const char *key, const char *v)
{
    parse_state *p = user;
    cdat_config *c = p->c;
    if (!key) {     /* a section header (inih with INI_CALL_HANDLER_ON_NEW_SECTION) */
        return 1;
    }
    if (strcmp(section, "system") == 0) {
        if (strcmp(key, "nodes") == 0) return set_uint(p, key, v, &c->nodes, 1, CFG_MAX_NODES, L_NODES);
        if (strcmp(key, "procs_per_node") == 0) return set_uint(p, key, v, &c->procs_per_node, 1, CFG_MAX_PROCS, L_PPN);
        if (strcmp(key, "banks_per_node") == 0) return set_uint(p, key, v, &c->banks_per_node, 1, CFG_MAX_BANKS, L_BANKS);
        if (strcmp(key, "line_size") == 0) {
            uint64_t x;
            if (!parse_size(v, &x) || !pow2(x) || x < 4 || x > 4096)
                return fail(p, "line_size: '%s' must be a power of two from 4 to 4096 bytes", v);
            c->line_size = (unsigned)x;
            p->line_of[L_LINE] = p->line;
            return 1;
        }
        if (strcmp(key, "page_size") == 0) {
            uint64_t x;
            if (!parse_size(v, &x) || !pow2(x) || x < 64 || x > (1ull << 30))
                return fail(p, "page_size: '%s' must be a power of two from 64 bytes to 1G", v);
            c->page_size = (unsigned)x;
            p->line_of[L_PAGE] = p->line;
            return 1;
        }
        if (strcmp(key, "protocol") == 0) return set_uint(p, key, v, &c->protocol, 1, 8, L_PROTO);
        if (strcmp(key, "allocation") == 0) {
            if (strcmp(v, "rr1") == 0) c->allocation = ALLOC_RR1;
            else if (strcmp(v, "rr2") == 0) c->allocation = ALLOC_RR2;
            else if (strcmp(v, "oracle") == 0) c->allocation = ALLOC_ORACLE;
            else if (strcmp(v, "first_touch") == 0) c->allocation = ALLOC_FIRST_TOUCH;
            else return fail(p, "allocation: '%s' must be rr1, rr2, oracle or first_touch", v);
            p->line_of[L_ALLOC] = p->line;
            return 1;
        }
        if (strcmp(key, "memory_usage") == 0) {
            if (!*v) return fail(p, "memory_usage: empty path");
            free(c->memory_usage);
            c->memory_usage = p->in_set || !c->path ? xstrdup(v) : path_beside(c->path, v);
            p->line_of[L_MEMUSE] = p->line;
            return 1;
        }
        return fail(p, "[system]: unknown key '%s'", key);
    }
    if (strcmp(section, "output") == 0) {
        if (strcmp(key, "general") == 0) return set_bool(p, key, v, &c->general);
        if (strcmp(key, "detailed") == 0) return set_bool(p, key, v, &c->detailed);
        return fail(p, "[output]: unknown key '%s' (general, detailed)", key);
    }
    if (strcmp(section, "dcache") == 0) return set_dcache(p, key, v);
    if (strcmp(section, "icache") == 0) return set_cache(p, section, key, v, &c->icache, L_ISIZE, L_IASSOC, "");
    if (strcmp(section, "interconnect_cache") == 0)
        return set_cache(p, section, key, v, &c->icc, L_CSIZE, L_CASSOC, "");
    if (strcmp(section, "l2") == 0) return set_l2(p, key, v);
    if (strcmp(section, "l3") == 0) return set_l3(p, key, v);
    if (strcmp(section, "mapping") == 0) return set_mapping(p, key, v);
    if (strcmp(section, "timing") == 0) {
        for (int k = 0; k < TIMING_KEYS; k++)
            if (strcmp(key, config_timing_keys[k]) == 0) {
                c->timing.on = true;
                return set_uint(p, key, v, &c->timing.cycles[k], 0, TIMING_MAX, k == TIMING_L2_HIT ? L_L2HIT
                                : k == TIMING_LOCAL_L3 || k == TIMING_REMOTE_L3 ? L_L3HIT : -1);
            }
        if (strcmp(key, "mode") == 0) {
            c->timing.on = true;
            if (strcmp(v, "accounting") == 0) c->timing.feedback = false;
            else if (strcmp(v, "feedback") == 0) c->timing.feedback = true;
            else return fail(p, "[timing] mode: '%s' must be accounting or feedback", v);
            return 1;
        }
        if (strcmp(key, "bank_busy") == 0 || strcmp(key, "link_busy") == 0) {
            c->timing.on = true;
            return set_uint(p, key, v, key[0] == 'b' ? &c->timing.bank_busy : &c->timing.link_busy, 0, TIMING_MAX, -1);
        }
        return fail(p, "[timing]: unknown key '%s' (local_memory, local_cache, remote_memory, remote_cache, upgrade,"
                    " hop, l2_hit, local_l3, remote_l3, bank_busy, link_busy, mode)", key);
    }
    if (!*section) return fail(p, "'%s' is outside any section", key);
    return fail(p, "unknown section [%s] (" SECTION_NAMES ")", section);
}

/* An error at line (SET_LINE + k: the k-th --set; 0: a default). */
static noreturn void config_error(const cdat_config *c, unsigned line, const char *msg)
{
    if (line >= SET_LINE) diag_usage_error("--set %s: %s", c->sets[line - SET_LINE], msg);
    if (!c->path) diag_usage_error("the configuration given by --set: %s", msg);
    char where[4096];
    snprintf(where, sizeof where, "%s:%u", c->path, line);
    diag_data_error(where, DIAG_NO_OFFSET, "%s", msg);
}

/* --set SECTION.KEY=VALUE: through the file's handler, as a line of its own. */
static void apply_set(parse_state *p, unsigned k)
{
    const char *s = p->c->sets[k];
    const char *dot = strchr(s, '.'), *eq = strchr(s, '=');
    if (!dot || !eq || dot > eq || dot == s || eq == dot + 1)
        diag_usage_error("--set %s: expected SECTION.KEY=VALUE (e.g. system.protocol=3)", s);
    char *section = xstrdup(s);
    section[dot - s] = '\0';
    char *key = section + (dot - s) + 1;
    key[eq - dot - 1] = '\0';
    const char *value = eq + 1;
    if (!known_section(section, strlen(section)))
        diag_usage_error("--set %s: unknown section [%s] (" SECTION_NAMES ")", s, section);
    p->line = SET_LINE + k;
    p->in_set = true;
    handler(p, section, key, value);
    free(section);
    if (p->err_line) config_error(p->c, p->err_line, p->err);
}

static unsigned later(unsigned a, unsigned b) { return a > b ? a : b; }

/* A cache must divide into whole sets of whole lines. An error names the line
 * of the last of the keys involved (size, assoc, line_size; a default counts
 * as line 0). */
static void check_cache(const cdat_config *c, const parse_state *p, const char *name,
                        const cache_config *cc, int size_slot, int assoc_slot, bool may_be_absent)
{
    char msg[256];
    if (cc->size == 0) {
        if (may_be_absent) return;
        snprintf(msg, sizeof msg, "[%s] size: a processor cache needs a size > 0", name);
        config_error(c, p->line_of[size_slot], msg);
    }
    uint64_t lines = cc->size / c->line_size;
    if (cc->size % c->line_size || lines == 0) {
        snprintf(msg, sizeof msg, "[%s] size: %llu bytes is not a whole number of %u-byte lines",
                 name, (unsigned long long)cc->size, c->line_size);
        config_error(c, later(p->line_of[size_slot], p->line_of[L_LINE]), msg);
    }
    uint64_t ways = cc->assoc ? cc->assoc : lines;     /* lines <= 2^30: size <= 4G, line_size >= 4 */
    if (lines % ways || !pow2(lines / ways)) {
        snprintf(msg, sizeof msg, "[%s]: %llu lines in %llu ways do not make a power-of-two number"
                 " of sets", name, (unsigned long long)lines, (unsigned long long)ways);
        unsigned at = later(p->line_of[size_slot], p->line_of[assoc_slot]);
        config_error(c, later(at, p->line_of[L_LINE]), msg);
    }
}

/* A byte count as the configuration writes sizes: in G, M or K when it is a
 * whole number of them, else "N bytes". */
static const char *size_text(uint64_t v, char *buf, size_t cap)
{
    static const char units[] = "GMK";
    for (int i = 0; i < 3; i++) {
        unsigned shift = 30 - 10 * (unsigned)i;
        if (v && v % (1ull << shift) == 0) {
            snprintf(buf, cap, "%llu%c", (unsigned long long)(v >> shift), units[i]);
            return buf;
        }
    }
    snprintf(buf, cap, "%llu bytes", (unsigned long long)v);
    return buf;
}

/* The caches of every processor and node together must fit in
 * CFG_MAX_CACHE_MEMORY. The error names the line of the last of the keys
 * involved and the sum, term by term, so the user sees what to shrink. */
static void check_cache_memory(const cdat_config *c, const parse_state *p)
{
    unsigned procs = config_total_procs(c);
    uint64_t d = cache_memory(c->dcache.size, c->dcache.assoc, c->line_size);
    uint64_t i = cache_memory(c->icache.size, c->icache.assoc, c->line_size);
    uint64_t n = cache_memory(c->icc.size, c->icc.assoc, c->line_size);
    uint64_t l2 = cache_memory(c->l2.size, c->l2.assoc, c->line_size);
    uint64_t l3 = cache_memory(c->l3.size, c->l3.assoc, c->line_size);
    uint64_t total = procs * (d + i + l2) + c->nodes * (n + l3);  /* < 2^7 * 3 * 2^35 + 2^5 * 2 * 2^35: no overflow */
    if (total <= CFG_MAX_CACHE_MEMORY) return;
    static const int slots[] = { L_NODES, L_PPN, L_LINE, L_DSIZE, L_DASSOC, L_ISIZE, L_IASSOC, L_CSIZE, L_CASSOC,
                                 L_L2SIZE, L_L2ASSOC, L_L3SIZE, L_L3ASSOC };
    unsigned at = 0;
    for (size_t k = 0; k < sizeof slots / sizeof *slots; k++)
        if ((c->icc.size || (slots[k] != L_CSIZE && slots[k] != L_CASSOC)) &&
            (c->l2.size || (slots[k] != L_L2SIZE && slots[k] != L_L2ASSOC)) &&
            (c->l3.size || (slots[k] != L_L3SIZE && slots[k] != L_L3ASSOC)))
            at = later(at, p->line_of[slots[k]]);
    char t[40], ds[40], is[40], ns[40], ls[40], l3s[40], msg[512];
    int len = snprintf(msg, sizeof msg, "the caches need %s of cdat's memory, more than the 1G it"
                       " allows: %u processor%s x (dcache %s + icache %s%s%s)", size_text(total, t, sizeof t),
                       procs, procs == 1 ? "" : "s", size_text(d, ds, sizeof ds), size_text(i, is, sizeof is),
                       c->l2.size ? " + l2 " : "", c->l2.size ? size_text(l2, ls, sizeof ls) : "");
    if (c->icc.size)
        len += snprintf(msg + len, sizeof msg - (size_t)len, " + %u node%s x interconnect_cache %s", c->nodes,
                        c->nodes == 1 ? "" : "s", size_text(n, ns, sizeof ns));
    if (c->l3.size)
        snprintf(msg + len, sizeof msg - (size_t)len, " + %u node%s x l3 %s", c->nodes, c->nodes == 1 ? "" : "s",
                 size_text(l3, l3s, sizeof l3s));
    config_error(c, at, msg);
}

void config_load(const char *path, cdat_config *c)
{
    config_load_sets(path, NULL, 0, c);
}

void config_load_sets(const char *path, char *const *sets, unsigned nsets, cdat_config *c)
{
    memset(c, 0, sizeof *c);
    c->path = path ? config_lookup(path) : NULL;
    c->nsets = nsets;
    c->sets = xcalloc(nsets ? nsets : 1, sizeof *c->sets);
    for (unsigned k = 0; k < nsets; k++) c->sets[k] = xstrdup(sets[k]);
    c->nodes = c->procs_per_node = c->banks_per_node = 1;
    c->line_size = 64;
    c->page_size = 4096;
    c->protocol = 1;
    c->allocation = ALLOC_RR1;
    c->dcache = (cache_config){ .size = 64 * 1024, .assoc = 2 };
    c->icache = (cache_config){ .size = 64 * 1024, .assoc = 2 };
    c->icc = (cache_config){ .size = 0, .assoc = 4 };
    c->l2 = (cache_config){ .size = 0, .assoc = 8 };
    c->l3 = (cache_config){ .size = 0, .assoc = 16 };
    parse_state p = { .c = c };
    if (path) read_file(c, &p, path);
    for (unsigned k = 0; k < nsets; k++) apply_set(&p, k);
    check_config(c, &p);
}

/* given: the name on the command line (c->path is what it was found as). */
static void read_file(cdat_config *c, parse_state *p_, const char *given)
{
    const char *path = c->path;
    parse_state p = *p_;
    p.f = fopen(path, "r");
    if (!p.f) {
        int e = errno;
        if (strcmp(given, path) == 0 && e == ENOENT && !strchr(given, '/') && !strstr(given, ".ini")) {
            char *dirs = config_lookup_dirs();
            diag_data_error(path, DIAG_NO_OFFSET, "no such configuration file, nor %s.ini in %s", given, dirs);
        }
        diag_data_error(path, DIAG_NO_OFFSET, "cannot read the configuration: %s", strerror(e));
    }
    int rc = ini_parse_stream(counting_reader, &p, handler, &p);
    /* fgets fails the same way at the end and on a read error (a directory:
     * EISDIR); only ferror tells them apart. */
    if (ferror(p.f)) {
        int e = errno;
        fclose(p.f);
        diag_data_error(path, DIAG_NO_OFFSET, "cannot read the configuration: %s", strerror(e));
    }
    fclose(p.f);
    /* rc is inih's first error line: a handler error or a syntax error; report
     * whichever came first. */
    if (rc > 0 && (!p.err_line || (unsigned)rc < p.err_line))
        config_error(c, (unsigned)rc, "syntax error (expected [section], key = value, or ; comment)");
    if (p.err_line) config_error(c, p.err_line, p.err);
    if (rc < 0) diag_data_error(path, DIAG_NO_OFFSET, "cannot parse the configuration (error %d)", rc);
    *p_ = p;
}

/* What no single key can check: keys together, and the mapping. */
static void check_config(cdat_config *c, parse_state *p_)
{
    parse_state p = *p_;
    char msg[256];
    if (c->nodes * c->procs_per_node > CFG_MAX_PROCS) {
        snprintf(msg, sizeof msg, "nodes x procs_per_node = %u x %u = %u processors; at most %d",
                 c->nodes, c->procs_per_node, c->nodes * c->procs_per_node, CFG_MAX_PROCS);
        config_error(c, p.line_of[L_PPN] > p.line_of[L_NODES] ? p.line_of[L_PPN] : p.line_of[L_NODES], msg);
    }
    if (c->page_size < c->line_size) {
        snprintf(msg, sizeof msg, "page_size %u is smaller than line_size %u", c->page_size, c->line_size);
        config_error(c, later(p.line_of[L_PAGE], p.line_of[L_LINE]), msg);
    }
    if ((c->allocation == ALLOC_RR2 || c->allocation == ALLOC_ORACLE) && !c->memory_usage) {
        snprintf(msg, sizeof msg, "allocation %s needs memory_usage = <file written by ciat>",
                 config_allocation_name(c->allocation));
        config_error(c, p.line_of[L_ALLOC], msg);
    }
    check_cache(c, &p, "dcache", &c->dcache, L_DSIZE, L_DASSOC, false);
    check_cache(c, &p, "icache", &c->icache, L_ISIZE, L_IASSOC, false);
    check_cache(c, &p, "interconnect_cache", &c->icc, L_CSIZE, L_CASSOC, true);
    check_cache(c, &p, "l2", &c->l2, L_L2SIZE, L_L2ASSOC, true);
    /* A write-through d-cache writes into its processor's L2, which must hold its lines' data. */
    if (c->dcache_write_through && !c->l2.size)
        config_error(c, later(p.line_of[L_DWRITE], p.line_of[L_L2SIZE]),
                     "[dcache] write_policy = through: the machine has no L2 ([l2] size = 0); a write-through"
                     " d-cache writes into its processor's L2 (docs/cdat-protocol.md §12)");
    if (c->dcache_write_through && c->l2.size && c->l2_inclusion == INCL_EXCLUSIVE)
        config_error(c, later(p.line_of[L_DWRITE], p.line_of[L_L2INCL]),
                     "[dcache] write_policy = through: an exclusive L2 does not hold the d-cache's lines, so it"
                     " cannot take their stores; use [l2] inclusion = inclusive or non_inclusive");
    if (c->timing.cycles[TIMING_L2_HIT] && !c->l2.size)
        config_error(c, later(p.line_of[L_L2HIT], p.line_of[L_L2SIZE]),
                     "[timing] l2_hit: the machine has no L2 ([l2] size = 0)");
    check_cache(c, &p, "l3", &c->l3, L_L3SIZE, L_L3ASSOC, true);
    if ((c->timing.cycles[TIMING_LOCAL_L3] || c->timing.cycles[TIMING_REMOTE_L3]) && !c->l3.size)
        config_error(c, later(p.line_of[L_L3HIT], p.line_of[L_L3SIZE]),
                     c->timing.cycles[TIMING_LOCAL_L3] ? "[timing] local_l3: the machine has no L3 ([l3] size = 0)"
                     : "[timing] remote_l3: the machine has no L3 ([l3] size = 0)");
    check_cache_memory(c, &p);
    /* A mapping to a processor the machine lacks: the first such line of the file. */
    unsigned bad = UINT32_MAX;
    for (unsigned t = 0; t < c->map_len; t++) {
        if (c->map_node[t] < 0) continue;
        if ((unsigned)c->map_node[t] >= c->nodes || (unsigned)c->map_proc[t] >= c->procs_per_node)
            if (bad == UINT32_MAX || p.map_line[t] < p.map_line[bad]) bad = t;
    }
    if (bad != UINT32_MAX) {
        snprintf(msg, sizeof msg, "thread.%u = %d.%d: the machine has nodes 0..%u with processors"
                 " 0..%u", bad, c->map_node[bad], c->map_proc[bad], c->nodes - 1, c->procs_per_node - 1);
        config_error(c, p.map_line[bad], msg);
    }
    free(p.map_line);
}

void config_free(cdat_config *c)
{
    for (unsigned k = 0; k < c->nsets; k++) free(c->sets[k]);
    free(c->sets);
    free(c->path);
    free(c->memory_usage);
    free(c->map_node);
    free(c->map_proc);
    memset(c, 0, sizeof *c);
}

unsigned config_total_procs(const cdat_config *c) { return c->nodes * c->procs_per_node; }

int config_thread_proc(const cdat_config *c, int t, int nthreads)
{
    if ((unsigned)t < c->map_len && c->map_node[t] >= 0)
        return c->map_node[t] * (int)c->procs_per_node + c->map_proc[t];
    uint64_t n = c->nodes, total = config_total_procs(c), u = (unsigned)t, nt = nthreads > 0 ? (unsigned)nthreads : 0;
    if (u >= total) return -1;
    if (c->map_policy == MAP_SPREAD) return (int)(u % n * c->procs_per_node + u / n);
    if (c->map_policy == MAP_BALANCED && nt < total && u < nt) {
        /* Node k runs threads ceil(k T / N) … ceil((k+1) T / N) - 1: at most
         * ceil(T / N) <= procs_per_node of them, since T < N * procs_per_node. */
        uint64_t node = u * n / nt, first = (node * nt + n - 1) / n;
        return (int)(node * c->procs_per_node + (u - first));
    }
    return t;   /* compact (and balanced on a full machine): node t / ppn, proc t % ppn, i.e. global number t */
}

const char *const config_timing_keys[TIMING_KEYS] = { "local_memory", "local_cache", "remote_memory",
                                                      "remote_cache", "upgrade", "hop", "l2_hit",
                                                      "local_l3", "remote_l3" };

const char *config_inclusion_name(cfg_inclusion i)
{
    static const char *const names[] = { "non_inclusive", "inclusive", "exclusive" };
    return names[i];
}

const char *config_replacement_name(unsigned r) { return replacement_names[r]; }

const char *config_map_policy_name(cfg_map_policy m)
{
    return m == MAP_SPREAD ? "spread" : m == MAP_COMPACT ? "compact" : "balanced";
}

const char *config_allocation_name(cfg_allocation a)
{
    static const char *const names[] = { "rr1", "rr2", "oracle", "first_touch" };
    return names[a];
}
