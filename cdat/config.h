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
    uint64_t size;          /* bytes; 0 = no cache (interconnect cache only) */
    unsigned assoc;         /* ways; 0 = fully associative */
} cache_config;

typedef struct cdat_config {
    char *path;
    unsigned nodes, procs_per_node, banks_per_node;
    unsigned line_size, page_size;
    unsigned protocol;                  /* 1..8, docs/cdat-protocol.md */
    cfg_allocation allocation;
    char *memory_usage;                 /* resolved against the file's directory; NULL if none */
    bool general, detailed;
    cache_config dcache, icache, icc;
    /* [mapping] thread.N = node.proc: per thread, or -1 for the default
     * (thread t -> node t / procs_per_node, proc t % procs_per_node). */
    int *map_node, *map_proc;
    unsigned map_len;
    unsigned map_line_max;              /* line of the highest thread mapped (for errors) */
} cdat_config;

/* Parse path; on error prints "cdat: file:line: reason" and exits with status 2. */
void config_load(const char *path, cdat_config *c);
void config_free(cdat_config *c);

/* nodes × procs_per_node. */
unsigned config_total_procs(const cdat_config *c);
/* Processor (global number) that runs thread t: its [mapping] entry, else
 * t itself; -1 when t has no mapping and t >= the number of processors. */
int config_thread_proc(const cdat_config *c, int t, int nthreads);

const char *config_allocation_name(cfg_allocation a);

#endif
