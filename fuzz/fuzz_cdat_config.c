/* fuzz_cdat_config.c — cdat's configuration loader (cdat/config, inih).
 *
 * Input: a configuration file (configs/README.md).
 *
 * Checks: a loaded configuration is one the simulator can describe —
 * 1..CFG_MAX_NODES nodes and at most CFG_MAX_PROCS processors, power-of-two
 * line and page sizes with page >= line, a protocol 1..8, caches of whole
 * lines in a power-of-two number of sets, mappings to processors the machine
 * has, memory_usage given for rr2 and oracle, the caches of all processors
 * and nodes within CFG_MAX_CACHE_MEMORY, and each cache one that cache_init
 * builds (those up to 16 MiB are built); an error is exit 2 naming
 * "file:line" (or the file alone when it cannot be read at all). */
#include "fuzz_support.h"
#include "../cdat/cache.h"
#include "../cdat/config.h"
#include "../base/diag.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct job {
    char path[4096];
    cdat_config c;
} job;

static int load(void *arg)
{
    job *j = arg;
    config_load(j->path, &j->c);
    return 0;
}

static bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

static void check_cache(const cdat_config *c, const char *name, const cache_config *cc, bool may_be_absent)
{
    if (cc->size == 0) {
        FZ_CHECK(may_be_absent, "[%s] accepted with size 0", name);
        return;
    }
    FZ_CHECK(cc->size % c->line_size == 0, "[%s] size %llu is not whole %u-byte lines", name,
             (unsigned long long)cc->size, c->line_size);
    uint64_t lines = cc->size / c->line_size;
    uint64_t ways = cc->assoc ? cc->assoc : lines;
    FZ_CHECK(lines % ways == 0 && pow2(lines / ways), "[%s] %llu lines in %llu ways: sets not a power of two",
             name, (unsigned long long)lines, (unsigned long long)ways);
    if (cache_memory(cc->size, cc->assoc, c->line_size) <= (16u << 20)) {
        cache k;
        FZ_CHECK(cache_init(&k, cc->size, cc->assoc, c->line_size), "[%s] accepted, but cache_init refuses it", name);
        cache_free(&k);
    }
}

static void check_loaded(const cdat_config *c)
{
    FZ_CHECK(c->nodes >= 1 && c->nodes <= CFG_MAX_NODES, "nodes %u", c->nodes);
    FZ_CHECK(c->procs_per_node >= 1 && config_total_procs(c) <= CFG_MAX_PROCS, "%u x %u processors",
             c->nodes, c->procs_per_node);
    FZ_CHECK(c->banks_per_node >= 1 && c->banks_per_node <= CFG_MAX_BANKS, "banks_per_node %u", c->banks_per_node);
    FZ_CHECK(pow2(c->line_size) && pow2(c->page_size) && c->page_size >= c->line_size,
             "line_size %u page_size %u", c->line_size, c->page_size);
    FZ_CHECK(c->protocol >= 1 && c->protocol <= 8, "protocol %u", c->protocol);
    FZ_CHECK((c->allocation != ALLOC_RR2 && c->allocation != ALLOC_ORACLE) || c->memory_usage,
             "%s without memory_usage", config_allocation_name(c->allocation));
    check_cache(c, "dcache", &c->dcache, false);
    check_cache(c, "icache", &c->icache, false);
    check_cache(c, "interconnect_cache", &c->icc, true);
    uint64_t total = config_total_procs(c) * (cache_memory(c->dcache.size, c->dcache.assoc, c->line_size) +
                                              cache_memory(c->icache.size, c->icache.assoc, c->line_size)) +
                     c->nodes * cache_memory(c->icc.size, c->icc.assoc, c->line_size);
    FZ_CHECK(total <= CFG_MAX_CACHE_MEMORY, "caches of %llu bytes accepted", (unsigned long long)total);
    int procs = (int)config_total_procs(c);
    for (int t = 0; t < (int)c->map_len + 2; t++) {
        int p = config_thread_proc(c, t, t + 1);
        FZ_CHECK(p >= -1 && p < procs, "thread %d on processor %d of %d", t, p, procs);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static job j;
    snprintf(j.path, sizeof j.path, "%s", fz_write("machine.ini", data, size));
    memset(&j.c, 0, sizeof j.c);
    fz_result res;
    fz_run(load, &j, &res);
    if (res.status) {
        FZ_CHECK(res.status == EXIT_DATA, "%s", fz_describe(&res));
        size_t n = strlen(j.path);
        bool at_line = strncmp(res.file, j.path, n) == 0 && res.file[n] == ':' && isdigit((unsigned char)res.file[n + 1]);
        bool whole = strcmp(res.file, j.path) == 0 && strncmp(res.text, "cannot ", 7) == 0;
        FZ_CHECK(at_line || whole, "the error names no file:line: %s", fz_describe(&res));
        return 0;
    }
    check_loaded(&j.c);
    config_free(&j.c);
    return 0;
}
