/* placement.c — the page placement policies of docs/cdat-placement.md. */
#include "placement.h"
#include "../base/diag.h"

#include <stdlib.h>
#include <string.h>

void placement_init(placement *pl, cfg_allocation policy, unsigned nodes, unsigned page_size,
                    const private_ranges *ranges, const memusage *mu, const int *thread_node, int nthreads)
{
    memset(pl, 0, sizeof *pl);
    pl->policy = policy;
    pl->nodes = nodes;
    pl->page_shift = (unsigned)__builtin_ctz(page_size);
    pl->ranges = ranges;
    pl->mu = mu;
    pl->thread_node = thread_node;
    pl->nthreads = nthreads;
    uint64_t pages = (1ull << 32) >> pl->page_shift;
    pl->nchunks = (unsigned)((pages + (1u << PLACE_CHUNK_BITS) - 1) >> PLACE_CHUNK_BITS);
    pl->chunk = xcalloc(pl->nchunks, sizeof *pl->chunk);
    pl->pages = xcalloc(nodes, sizeof *pl->pages);
}

void placement_free(placement *pl)
{
    for (unsigned i = 0; i < pl->nchunks; i++) free(pl->chunk[i]);
    free(pl->chunk);
    free(pl->pages);
    memset(pl, 0, sizeof *pl);
}

/* The decision for a page touched first from req_node. */
static int decide(placement *pl, uint32_t page, int req_node)
{
    int rr = (int)(page % pl->nodes);
    uint64_t first_addr = (uint64_t)page << pl->page_shift;
    switch (pl->policy) {
    case ALLOC_FIRST_TOUCH:
        return req_node;
    case ALLOC_RR1:
        return private_ranges_contain(pl->ranges, first_addr) ? req_node : rr;
    case ALLOC_RR2: {
        const memusage_page *p = memusage_find(pl->mu, page);
        if (!p) pl->unlisted++;
        if (p && p->code_bytes > 0) return PLACE_REPLICATED;
        return private_ranges_contain(pl->ranges, first_addr) ? req_node : rr;
    }
    case ALLOC_ORACLE: {
        const memusage_page *p = memusage_find(pl->mu, page);
        if (!p) {
            pl->unlisted++;
            return rr;
        }
        if (p->code_bytes > 0) return PLACE_REPLICATED;
        if (p->owner >= 0 && p->owner < pl->nthreads) return pl->thread_node[p->owner];
        return rr;
    }
    }
    return rr;
}

int placement_place(placement *pl, uint32_t page, int req_node)
{
    int8_t **c = &pl->chunk[page >> PLACE_CHUNK_BITS];
    if (!*c) {
        *c = xmalloc(1u << PLACE_CHUNK_BITS);
        memset(*c, PLACE_UNSET, 1u << PLACE_CHUNK_BITS);
    }
    int8_t *h = &(*c)[page & ((1u << PLACE_CHUNK_BITS) - 1)];
    if (*h == PLACE_UNSET) {
        int home = decide(pl, page, req_node);
        *h = (int8_t)home;
        if (home == PLACE_REPLICATED) pl->replicated++;
        else pl->pages[home]++;
    }
    return *h;
}

int placement_home(placement *pl, uint32_t addr, int req_node)
{
    int h = placement_page(pl, addr, req_node);
    return h == PLACE_REPLICATED ? req_node : h;
}
