/* fuzz_memusage.c — the memory usage reader (formats/memusage, written by
 * ciat, read by cdat's rr2 and oracle placement).
 *
 * Input: a memory usage file (formats/MEMORY-USAGE.md).
 *
 * Checks: a file that is read has a page size and pages in strictly
 * ascending order with owners >= -1, each found again by memusage_find, and
 * written back with memusage_write_page it reads back the same; a refusal
 * says why, with "line N: " unless it is about the whole file. */
#include "fuzz_support.h"
#include "../formats/memusage.h"

#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_write("usage.memory", data, size);
    memusage m;
    char why[256] = "";
    if (!memusage_read(path, &m, why, sizeof why)) {
        FZ_CHECK(why[0], "refused without a reason");
        FZ_CHECK(strncmp(why, "line ", 5) == 0 || strcmp(why, "no '# page_size N' header line") == 0 ||
                 strncmp(why, "read error", 10) == 0, "a reason without a line: %s", why);
        FZ_CHECK(m.pages == NULL && m.count == 0, "a refused file left pages");
        return 0;
    }
    FZ_CHECK(m.page_size > 0, "page size 0");
    for (size_t i = 0; i < m.count; i++) {
        FZ_CHECK(i == 0 || m.pages[i].page > m.pages[i - 1].page, "pages out of order at %zu", i);
        FZ_CHECK(m.pages[i].owner >= -1, "owner %lld", (long long)m.pages[i].owner);
        FZ_CHECK(memusage_find(&m, m.pages[i].page) == &m.pages[i], "page %zu not found", i);
    }
    /* What is read is written back the same way ciat writes it. */
    char name[64];
    snprintf(name, sizeof name, "again.memory");
    FILE *f = fopen(fz_path(name), "w");
    FZ_CHECK(f != NULL, "cannot write %s", name);
    memusage_write_header(f, m.page_size);
    for (size_t i = 0; i < m.count; i++) memusage_write_page(f, &m.pages[i]);
    fclose(f);
    memusage back;
    FZ_CHECK(memusage_read(fz_path(name), &back, why, sizeof why), "written back, refused: %s", why);
    FZ_CHECK(back.page_size == m.page_size && back.count == m.count &&
             (m.count == 0 || memcmp(back.pages, m.pages, m.count * sizeof *m.pages) == 0),
             "written back, read differently");
    memusage_free(&back);
    memusage_free(&m);
    return 0;
}
