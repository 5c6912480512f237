/* memusage.h — the memory usage file written by ciat and read by cdat
 * (docs/ciat-report.md, L20–L39; field by field in formats/MEMORY-USAGE.md).
 *
 *   # dsmtrace memory usage
 *   # page_size 4096
 *   # fields: page touched_bytes code_bytes shared_bytes data_accesses
 *   #   code_accesses shared_data_accesses shared_code_accesses owner
 *   <one line per touched page, ascending page number>
 *
 * page = address / page_size; owner = -1 for a shared page, else the one
 * thread that touched it. */
#ifndef DSM_FORMATS_MEMUSAGE_H
#define DSM_FORMATS_MEMUSAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct memusage_page {
    uint64_t page;
    uint64_t touched_bytes, code_bytes, shared_bytes;
    uint64_t data_accesses, code_accesses, shared_data_accesses, shared_code_accesses;
    int64_t owner;              /* -1 = shared */
} memusage_page;

/* Writing: the header, then pages in ascending order. */
void memusage_write_header(FILE *f, uint64_t page_size);
void memusage_write_page(FILE *f, const memusage_page *p);

/* A whole file in memory, pages sorted; lookups by page number. */
typedef struct memusage {
    uint64_t page_size;
    memusage_page *pages;
    size_t count;
} memusage;

/* Reads path; on a malformed file returns false with "line N: reason" in why. */
bool memusage_read(const char *path, memusage *out, char *why, size_t whycap);
const memusage_page *memusage_find(const memusage *m, uint64_t page);
void memusage_free(memusage *m);

#endif
