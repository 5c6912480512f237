/* addr_map.h — the collector's address map NAME.P.map as the tools read it
 * (formats/ADDRESS-MAP.md): code, line, data, object and heap lines, each kind
 * sorted and without overlaps, looked up by binary search.
 *
 * A bad map is an error am_load returns: the tools print it as
 * "PATH:LINE: reason" and exit with status 2 (common/attribution.c). */
#ifndef DSM_FORMATS_ADDR_MAP_H
#define DSM_FORMATS_ADDR_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { AM_CODE, AM_LINE, AM_DATA, AM_OBJECT, AM_HEAP, AM_KINDS };

/* The format's version and the lines that give it (formats/ADDRESS-MAP.md):
 * a map of version 3 begins with "# smait address map v3" and ends with
 * AM_END_LINE; without it the map is cut. Versions 1 (no version line) and
 * 2 have no end line. */
enum { AM_VERSION = 3 };
#define AM_VERSION_LINE "# smait address map v3"
#define AM_END_LINE "# end of address map"

/* One line of the map: the folded range [start, end) and its fields.
 *   code:   a = FUNCTION, b = MODULE
 *   line:   a = FILE, num = LINE
 *   data:   a = MAPPING, num = ORIGINAL_START
 *   object: a = NAME, b = SOURCE
 *   heap:   num = COUNT, sites[0 .. nsites-1] = SITE, most blocks first */
typedef struct am_entry {
    uint32_t start;
    uint64_t end;               /* up to 2^32 */
    uint64_t num;
    char *a, *b;
    uint32_t *sites;
    uint32_t nsites;
} am_entry;

typedef struct addr_map {
    char *path;
    am_entry *e[AM_KINDS];
    size_t n[AM_KINDS];
} addr_map;

/* Why a map was refused: the tools' message is "TOOL: WHERE: WHY" (exit 2). */
typedef struct am_error {
    const char *where;          /* "PATH:LINE" (in at) for a bad line or a map cut
                                 * short; PATH itself (am_load's argument) when the
                                 * file cannot be read ("cannot read: ..." or
                                 * "line N: ..." in why) */
    char why[512];
    char at[4200];
} am_error;

/* Reads path (plain or compressed text) into m. A bad line, a map cut short
 * (version 3 without its end line) or a file that cannot be read gives false,
 * with m empty (am_free'd) and the reason in err. Out of memory still exits
 * (base/diag.h). */
bool am_load(addr_map *m, const char *path, am_error *err);
void am_free(addr_map *m);

/* The entry of kind k holding addr, or NULL. */
const am_entry *am_find(const addr_map *m, int kind, uint32_t addr);

/* What a data address is, in the order of formats/ADDRESS-MAP.md. */
typedef enum am_data_kind { AMD_OBJECT, AMD_HEAP, AMD_MAPPING, AMD_NONE } am_data_kind;
am_data_kind am_data(const addr_map *m, uint32_t addr, const am_entry **e);

#endif
