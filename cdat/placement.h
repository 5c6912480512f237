/* placement.h — page → home node (docs/cdat-placement.md), decided at a page's first
 * access in the simulation and kept for the rest of the run.
 *
 *   rr1          page number mod nodes; with private ranges (-HPUX,
 *                -private_range) a page in a range goes to the node of the
 *                first processor that touches it.
 *   rr2          like rr1, but code pages (code_bytes > 0 in the memory usage
 *                file) are replicated: every node is the home of its own copy.
 *   oracle       from the memory usage file: code pages replicated, private
 *                pages (owner >= 0) at the node of the owner thread's
 *                processor, shared pages page number mod nodes.
 *   first_touch  the node of the first processor that touches the page.
 * A page missing from a required memory usage file is placed as rr1 and
 * counted (placement_unlisted). Decisions live in a two-level table indexed
 * by page number: memory grows with the touched pages. */
#ifndef DSM_CDAT_PLACEMENT_H
#define DSM_CDAT_PLACEMENT_H

#include <stdint.h>

#include "config.h"
#include "../common/private_ranges.h"
#include "../formats/memusage.h"

enum { PLACE_REPLICATED = -1, PLACE_UNSET = -2 };

typedef struct placement {
    cfg_allocation policy;
    unsigned nodes, page_shift;
    const private_ranges *ranges;       /* rr1, rr2 */
    const memusage *mu;                 /* rr2, oracle */
    const int *thread_node;             /* oracle: node of each thread's processor */
    int nthreads;
    int8_t **chunk;                     /* page >> PLACE_CHUNK_BITS → home per page */
    unsigned nchunks;
    uint64_t *pages;                    /* per node: pages placed there */
    uint64_t replicated, unlisted;
} placement;

enum { PLACE_CHUNK_BITS = 12 };         /* pages per chunk of decisions: 4096 */

/* mu must be given for rr2 and oracle. thread_node[t] for t < nthreads. */
void placement_init(placement *pl, cfg_allocation policy, unsigned nodes, unsigned page_size,
                    const private_ranges *ranges, const memusage *mu, const int *thread_node, int nthreads);
void placement_free(placement *pl);

/* Home node of addr for a requester on req_node (a replicated page's home is
 * the requester's node); places the page on its first access. */
int placement_home(placement *pl, uint32_t addr, int req_node);

/* The same decision as placement_home, undecoded: a node, or PLACE_REPLICATED
 * (whose home is always the requester's node). It never changes once made, so
 * callers may keep it. Inline: a page already placed costs two loads (every
 * miss and every returned victim asks); the first access places it in
 * placement_place. */
int placement_place(placement *pl, uint32_t page, int req_node);
static inline int placement_page(placement *pl, uint32_t addr, int req_node)
{
    uint32_t page = addr >> pl->page_shift;
    const int8_t *c = pl->chunk[page >> PLACE_CHUNK_BITS];
    if (__builtin_expect(c != NULL, 1)) {
        int h = c[page & ((1u << PLACE_CHUNK_BITS) - 1)];
        if (__builtin_expect(h != PLACE_UNSET, 1)) return h;
    }
    return placement_place(pl, page, req_node);
}

#endif
