/* attribution.h — counts per code or data address, reported per function and
 * source line or per data object (ciat --by-code/--by-data, cdat --by-code/
 * --by-data; docs/ciat-report.md, docs/cdat-report.md).
 *
 * A tool adds one to a figure (RAW, WAR, misses, …) of a raw key: the pc of
 * the access, or its data address at the tool's grain. At the end the keys
 * are named through the address map (formats/ADDRESS-MAP.md), or by their
 * address when there is none, keys with the same name merge, and each
 * figure's top N are written, count descending, then by name. */
#ifndef DSM_COMMON_ATTRIBUTION_H
#define DSM_COMMON_ATTRIBUTION_H

#include <stdbool.h>
#include <stdint.h>

#include "istream.h"
#include "out_file.h"
#include "report.h"
#include "tool.h"
#include "../formats/addr_map.h"

/* A pc the instruction stream does not know (no procedure start yet). */
#define ATTR_UNKNOWN ((uint64_t)1 << 32)

enum { ATTR_MAX_FIGURES = 4, ATTR_DEFAULT_TOP = 10 };

typedef struct attr attr;

/* names: the figures, nfig of them (at most ATTR_MAX_FIGURES). */
attr *attr_new(int nfig, const char *const *names);
void attr_free(attr *a);

/* One more of figure fig for key (a 32-bit address, or ATTR_UNKNOWN). */
void attr_add(attr *a, uint64_t key, int fig);

/* n[0..nfig-1] more of each figure for key (ciat --merge adds its parts'). */
void attr_add_counts(attr *a, uint64_t key, const uint64_t *n);
/* fn(ctx, key, counts) for every key, in no order. */
void attr_each(const attr *a, void (*fn)(void *ctx, uint64_t key, const uint64_t *counts), void *ctx);
int attr_figures(const attr *a);
/* The key of a data address: the map's object, heap or data line holding it
 * (so the table grows with the map, not with the addresses touched), else
 * its line at line_size (a power of two). m may be NULL. */
uint64_t attr_data_key(const addr_map *m, uint32_t addr, uint32_t line_size);

/* Lines "RxTxL<ll>: <table>_<figure> rank R count N <kind> <label> where <where>",
 * the top `top` keys of every figure in turn. code: keys are pcs; else
 * attr_data_key's keys of the same map. m may be NULL (no map). Empties the
 * table (it sorts it in place). */
void attr_report(attr *a, report *r, int ll, const char *table, bool code, const addr_map *m, uint32_t top);

/* The map of a run: `given` (--map FILE), else NAME.map beside the traces
 * when it exists (trace set NAME), else none (NULL). A bad map exits 2. */
addr_map *attr_map_open(const tool *t, const char *given);
/* The annotated source view of the code table a (docs/annotate.md) into f:
 * the figures per source line (the map's line lines), the lines hottest
 * first, then each source file with the figures beside its lines (the lines
 * around those that have any). A source file is read at the map's path,
 * else (a relative one) beside the map; one that cannot be read is named.
 * title: "ciat annotated source of pc.4". Leaves a as it was. */
void attr_annotate(const attr *a, const addr_map *m, out_file *f, const char *title);

/* "function F where FILE:LINE" (or "address 0x…", "address unknown") of a pc. */
void attr_code_name(char *buf, size_t cap, const addr_map *m, uint64_t pc);

/* "object NAME where SOURCE", "heap F where FILE:LINE", "mapping M where -"
 * or "address 0x… where -" of one data address (ciat --locks). */
void attr_data_name(char *buf, size_t cap, const addr_map *m, uint32_t addr);

/* The map at path (a bad map exits 2). */
addr_map *attr_map_load(const char *path);
/* The header line "# attribution: map PATH" (or "map none"). */
void attr_header(report *r, const addr_map *m);
void attr_map_free(addr_map *m);

/* Which instruction made an access: per thread, the pc of its last fetched
 * instruction and the clock it ran at. An access at clock C was made by the
 * instruction fetched at C; any other (no fetch yet, or a gap in the
 * instruction stream) has no known pc. */
typedef struct attr_pcs {
    uint64_t *pc, *clock;
} attr_pcs;

void attr_pcs_init(attr_pcs *p, int nthreads);
void attr_pcs_free(attr_pcs *p);           /* also one never made (all zero) */

static inline void attr_pcs_fetch(attr_pcs *p, int t, uint64_t clock, uint32_t addr)
{
    p->pc[t] = addr;
    p->clock[t] = clock;
}

/* n instructions from addr, one per clock from clock on: the last counts. */
static inline void attr_pcs_run(attr_pcs *p, int t, uint64_t clock, uint32_t addr, uint32_t n)
{
    if (n) {
        p->pc[t] = addr + (uint64_t)(n - 1) * ISTREAM_INSN_BYTES;
        p->clock[t] = clock + n - 1;
    }
}

static inline uint64_t attr_pcs_at(const attr_pcs *p, int t, uint64_t clock)
{
    return p->clock[t] == clock ? p->pc[t] : ATTR_UNKNOWN;
}

/* The options both tools take: --by-code[=N], --by-data[=N] (0 = off) and
 * --map FILE. The two tables' rows (each tool's help says what it counts)
 * and attr_options_check, which refuses --map without an option that reads it. */
typedef struct attr_options {
    uint32_t by_code, by_data;
    const char *map_path;
    bool annotate;              /* --annotate: the annotated source view */
} attr_options;

#define ATTR_MAP_OPTION_ROW(target, users)                                                                  \
    { { "map", 0, NULL, OPT_STRING, "FILE", (target), NULL, 0, 0,                                           \
        "the address map for " users " (default: <prefix>.map beside the traces when it exists;"           \
        " without one, addresses)" }, "map", NULL, true }

/* --annotate: the figures per source line, and the source files with them
 * (attr_annotate). */
#define ATTR_ANNOTATE_OPTION_ROW(target, suffix)                                                            \
    { { "annotate", 0, NULL, OPT_FLAG, NULL, (target), NULL, 0, 0,                                          \
        "also write <prefix>." suffix ": the figures of --by-code per source line, hottest first, then each" \
        " source file with them beside its lines (cg_annotate's view; the map and the sources must be"      \
        " there: docs/annotate.md)" }, "annotate", NULL, true }

/* --by-code, --by-data or --annotate given. */
static inline bool attr_options_any(const attr_options *o) { return o->by_code || o->by_data || o->annotate; }

/* users: the options that read the map, for the message ("--by-code,
 * --by-data or --annotate"); others_on: one of the tool's other such options is given. */
void attr_options_check(const attr_options *o, const char *users, bool others_on);

/* The --by-code[=N] / --by-data[=N] option: target is a uint32_t, 0 = off;
 * no value gives ATTR_DEFAULT_TOP. */
const char *attr_top_parse(void *target, const char *value);
void attr_top_show(const void *target, char *buf, size_t cap);

#endif
