/* code_sites.h — figures per code address, merged per source line and
 * ranked (the sites of ciat --locks' L61 and --critical-path's L63;
 * docs/ciat-report.md).
 *
 * A site is the pc of a synchronisation call as ciat sees it: the first
 * instruction its thread fetches after the call record (sync_site in
 * ciat.c), ATTR_UNKNOWN when the thread fetched none before its next call
 * or its end, or CODE_SITE_NONE for what no call began (the start of a
 * thread, a spawn, a join). Rows are named as L50 names code (function and
 * file:line through the address map, else the address); rows with the
 * same name merge. */
#ifndef DSM_CIAT_CODE_SITES_H
#define DSM_CIAT_CODE_SITES_H

#include <stddef.h>
#include <stdint.h>

#include "../common/attribution.h"

/* A site that no call began: named "none - where -". */
#define CODE_SITE_NONE ((uint64_t)1 << 33)

enum { CODE_SITE_FIGURES = 3 };

typedef struct code_site {
    uint64_t pc;                /* merged rows: the lowest */
    uint64_t n[CODE_SITE_FIGURES];
    char *name;                 /* "KIND NAME where WHERE" (code_sites_rank) */
} code_site;

/* Names the n rows of v through m (NULL: by address), merges those with the
 * same name (figures summed, the lowest pc kept) and sorts them by n[0],
 * n[1], n[2] descending, then pc. Returns the rows left (at the front of v;
 * each owns its name: code_sites_free). */
size_t code_sites_rank(code_site *v, size_t n, const addr_map *m);
void code_sites_free(code_site *v, size_t n);

/* The site's text "pc 0x… kind K name N where W" (pc -: unknown or none). */
void code_site_text(char *buf, size_t cap, const code_site *s);

#endif
