/* fuzz_cdat_merge.c — cdat --merge: the reader of partial results
 * (formats/CDAT-PARTIAL.md, cdat/partial.c, common/partial.c) and the merge
 * (cdat/cdat.c).
 *
 * Input: up to 4 partial results separated by lines "#PART#"; part K is
 * written as p.cdat_partial.K-of-N (N the number of parts given) and
 * `cdat --merge` runs on them all.
 *
 * Checks: a merge that succeeds writes p.cdat_report, beginning with cdat's
 * tool line; one that fails is bad input (exit status 2) naming one of the
 * parts or a usage error (exit status 1), and leaves no report behind; no
 * input crashes, hangs or leaks. */
#include "fuzz_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cdat_main(int argc, char **argv);

enum { MAX_PARTS = 4 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *part[MAX_PARTS];
    size_t len[MAX_PARTS];
    int n = fz_split(data, size, "#PART#\n", 7, MAX_PARTS, part, len);
    static char paths[MAX_PARTS][FZ_PATH];
    fz_job j = { .main = cdat_main };
    j.argv[j.argc++] = "cdat";
    j.argv[j.argc++] = "--merge";
    for (int k = 0; k < n; k++) {
        char name[64];
        snprintf(name, sizeof name, "p.cdat_partial.%d-of-%d", k, n);
        snprintf(paths[k], sizeof paths[k], "%s", fz_write(name, part[k], len[k]));
        j.argv[j.argc++] = paths[k];
    }
    j.argv[j.argc] = NULL;
    fz_result res;
    fz_run(fz_job_run, &j, &res);
    size_t rlen = 0;
    unsigned char *rep = fz_read("p.cdat_report", &rlen);
    fz_remove("p.cdat_report");
    fz_remove("p.cdat_report.json");
    for (int k = 0; k < n; k++) {
        char name[64];
        snprintf(name, sizeof name, "p.cdat_partial.%d-of-%d", k, n);
        fz_remove(name);
    }
    if (res.status) {
        FZ_CHECK(res.status == 1 || res.status == 2, "%s", fz_describe(&res));
        if (res.status == 2) {
            bool named = false;
            for (int k = 0; k < n; k++) named |= strcmp(res.file, paths[k]) == 0;
            FZ_CHECK(named, "the error names none of the parts: %s", fz_describe(&res));
        }
        FZ_CHECK(!rep, "a failed merge left a report");
        return 0;
    }
    FZ_CHECK(rep && rlen > 0 && memcmp(rep, "# cdat (dsmtrace) ", rlen < 18 ? rlen : 18) == 0,
             "a merge without a report");
    free(rep);
    return 0;
}
