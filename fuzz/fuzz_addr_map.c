/* fuzz_addr_map.c — the address map reader (formats/addr_map, the map
 * smait-cc writes and ciat's and cdat's --by-code/--by-data read).
 *
 * Input: an address map (formats/ADDRESS-MAP.md).
 *
 * Checks: a map that is refused says where (the file, or "FILE:LINE") and
 * why, and leaves the map empty; a map that is read has each kind sorted,
 * without overlaps, with non-empty ranges, and every entry is found again by
 * am_find at its first and last address, with am_data agreeing for data. */
#include "fuzz_support.h"
#include "../formats/addr_map.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_write("t.4.map", data, size);
    addr_map m;
    am_error err;
    memset(&err, 0, sizeof err);
    if (!am_load(&m, path, &err)) {
        FZ_CHECK(err.where && err.why[0], "refused without saying where and why");
        FZ_CHECK(strncmp(err.where, path, strlen(path)) == 0, "the error names another file: %s", err.where);
        for (int k = 0; k < AM_KINDS; k++) FZ_CHECK(m.n[k] == 0 && m.e[k] == NULL, "a refused map kept entries");
        return 0;
    }
    for (int k = 0; k < AM_KINDS; k++)
        for (size_t i = 0; i < m.n[k]; i++) {
            const am_entry *e = &m.e[k][i];
            FZ_CHECK(e->end > e->start && e->end <= 0x100000000ull, "kind %d entry %zu: an empty or wild range", k, i);
            FZ_CHECK(i == 0 || e->start >= m.e[k][i - 1].end, "kind %d entry %zu: out of order or overlapping", k, i);
            FZ_CHECK(am_find(&m, k, e->start) == e, "kind %d entry %zu: not found at its start", k, i);
            FZ_CHECK(am_find(&m, k, (uint32_t)(e->end - 1)) == e, "kind %d entry %zu: not found at its end", k, i);
            if (k == AM_OBJECT) {
                const am_entry *d = NULL;
                FZ_CHECK(am_data(&m, e->start, &d) == AMD_OBJECT && d == e, "object %zu: am_data disagrees", i);
            }
        }
    am_free(&m);
    return 0;
}
