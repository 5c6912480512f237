/* config.h — cdat's machine configuration file (configs/README.md), parsed with inih.
 *
 * Every section and key is checked: unknown ones, malformed values and values
 * out of range are errors naming file:line. Omitted keys take the defaults
 * documented in configs/README.md. */
#ifndef DSM_CDAT_CONFIG_H
#define DSM_CDAT_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

enum { CFG_MAX_NODES = 32, CFG_MAX_PROCS = 128, CFG_MAX_BANKS = 32 };

/* The largest cache: the whole 32-bit address space (a larger one could
 * never fill). */
#define CFG_MAX_CACHE_SIZE ((uint64_t)1 << 32)
/* What the caches of the whole machine may take of cdat's memory
 * (cache_memory summed over every processor's and node's caches): a
 * machine beyond it is refused here instead of failing, or swapping,
 * at set-up. */
#define CFG_MAX_CACHE_MEMORY ((uint64_t)1 << 30)

typedef enum cfg_allocation { ALLOC_RR1, ALLOC_RR2, ALLOC_ORACLE, ALLOC_FIRST_TOUCH } cfg_allocation;

typedef struct cache_config {
    uint64_t size;          /* bytes; 0 = no cache (interconnect cache, L2 only) */
    unsigned assoc;         /* ways; 0 = fully associative */
    unsigned replacement;   /* cache_replacement (cache.h): lru (0), fifo, random */
} cache_config;

/* [l2] inclusion: how a processor's L2 relates to its L1 d-cache
 * (docs/cdat-protocol.md §9). */
typedef enum cfg_inclusion {
    INCL_NON_INCLUSIVE,     /* the default: independent; an L2 victim leaves the L1 alone */
    INCL_INCLUSIVE,         /* every L1 line is in the L2; an L2 victim is back-invalidated in the L1s */
    INCL_EXCLUSIVE          /* no line is in both the L1 d-cache and the L2; L1 victims move into the L2 */
} cfg_inclusion;

/* [mapping] policy: where threads without an entry go. */
typedef enum cfg_map_policy {
    MAP_BALANCED,       /* the default: T threads in N contiguous blocks of
                         * ceil or floor T / N, one per node; = compact on a full machine */
    MAP_COMPACT,        /* thread t -> processor t: fill node 0, then node 1, … */
    MAP_SPREAD          /* round robin over nodes: node t mod nodes, proc t / nodes */
} cfg_map_policy;

/* [timing]: the timing model (docs/cdat-report.md, L19): cycles per miss by
 * where it was satisfied, per upgrade, and per critical transaction (a
 * network hop). mode accounting (the default) changes no interleaving;
 * feedback moves each processor's clock on by its stalls. */
enum { TIMING_LOCAL_MEMORY, TIMING_LOCAL_CACHE, TIMING_REMOTE_MEMORY, TIMING_REMOTE_CACHE, TIMING_UPGRADE,
       TIMING_HOP, TIMING_L2_HIT, TIMING_LOCAL_L3, TIMING_REMOTE_L3, TIMING_KEYS };
enum { TIMING_MAX = 1000000 };
typedef struct cdat_timing {
    bool on;
    unsigned cycles[TIMING_KEYS];
    /* Contention (cdat/contention.h): the cycles a sequence occupies its
     * home bank, and a node's network link; both 0 (the default): none. */
    unsigned bank_busy, link_busy;
    /* mode = feedback: the stalls move the threads' clocks (sched_stall),
     * so the interleaving follows the simulated machine. */
    bool feedback;
} cdat_timing;
extern const char *const config_timing_keys[TIMING_KEYS];
/* Whether tm asks for contention (a busy key not 0). */
static inline bool config_contention(const cdat_timing *tm)
{
    return tm->on && (tm->bank_busy | tm->link_busy) != 0;
}

typedef struct cdat_config {
    char *path;                         /* NULL: no file, only --set */
    char **sets;                        /* the --set SECTION.KEY=VALUE applied, in order */
    unsigned nsets;
    unsigned nodes, procs_per_node, banks_per_node;
    unsigned line_size, page_size;
    unsigned protocol;                  /* 1..8, docs/cdat-protocol.md */
    cfg_allocation allocation;
    char *memory_usage;                 /* resolved against the file's directory; NULL if none */
    bool general, detailed;
    cache_config dcache, icache, icc;
    bool dcache_write_through;          /* [dcache] write_policy = through (only with an L2 that is not
                                         * exclusive: docs/cdat-protocol.md §12) */
    cache_config l2;                    /* [l2]: size 0 = none */
    cfg_inclusion l2_inclusion;
    cache_config l3;                    /* [l3]: each node's memory-side L3; size 0 = none
                                         * (docs/cdat-protocol.md §10) */
    /* [mapping] thread.N = node.proc: per thread, or -1 for the policy's
     * choice. */
    cfg_map_policy map_policy;
    int *map_node, *map_proc;
    unsigned map_len;
    unsigned map_line_max;              /* line of the highest thread mapped (for errors) */
    cdat_timing timing;                 /* [timing]; on: the section was given */
} cdat_config;

/* Parse path; on error prints "cdat: file:line: reason" and exits with status 2. */
void config_load(const char *path, cdat_config *c);
/* The same, then nsets settings "SECTION.KEY=VALUE" (--set) applied in order
 * over the file's (path NULL: over the defaults alone), with the same checks.
 * An error that a setting causes names it instead of file:line
 * ("cdat: --set system.protocol=9: protocol: 9 is out of range (1..8)") and
 * exits with status 1, a usage error. */
void config_load_sets(const char *path, char *const *sets, unsigned nsets, cdat_config *c);
void config_free(cdat_config *c);

/* nodes × procs_per_node. */
unsigned config_total_procs(const cdat_config *c);
/* Processor (global number) that runs thread t: its [mapping] entry, else
 * the policy's (compact: t itself; spread: node t mod nodes, proc t / nodes);
 * -1 when t has no entry and the policy has no processor left for it. */
int config_thread_proc(const cdat_config *c, int t, int nthreads);

const char *config_allocation_name(cfg_allocation a);
const char *config_map_policy_name(cfg_map_policy m);
const char *config_inclusion_name(cfg_inclusion i);
/* "lru", "fifo" or "random" (cache_config.replacement). */
const char *config_replacement_name(unsigned r);

#endif
