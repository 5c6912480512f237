/* usage.h — memory usage (docs/ciat-report.md): the RxTx L20–L39 lines and the
 * memory usage file, from one pass over ciat's blocks in address order. */
#ifndef DSM_CIAT_USAGE_H
#define DSM_CIAT_USAGE_H

#include <stdint.h>
#include <stdio.h>

#include "locmap.h"
#include "../common/private_ranges.h"
#include "../common/report.h"


typedef struct usage_totals {
    uint64_t pages, shared_pages, range_shared_pages;
    uint64_t touched_bytes, data_bytes, code_bytes, shared_bytes, page_shared_bytes,
             range_shared_bytes;
    uint64_t data_accesses, shared_data_accesses, page_shared_data_accesses,
             range_shared_data_accesses;
    uint64_t code_accesses, shared_code_accesses, page_shared_code_accesses,
             range_shared_code_accesses;
} usage_totals;

/* Scan the blocks; write one memory-file line per page to mem (if not NULL). */
void usage_scan(const locmap *m, uint64_t page_size, const private_ranges *ranges,
                FILE *mem, usage_totals *out);

/* Print L20–L39; data_sizes = Σ sizes of all data accesses, fetched = fetched
 * instructions. */
void usage_report(report *r, const usage_totals *u, uint64_t data_sizes, uint64_t fetched);

#endif
