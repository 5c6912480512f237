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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_result res;
    fz_merge_parts(cdat_main, "cdat", data, size, &res);
    size_t rlen = 0;
    unsigned char *rep = fz_read("p.cdat_report", &rlen);
    fz_remove("p.cdat_report");
    fz_remove("p.cdat_report.json");
    if (res.status) {
        FZ_CHECK(!rep, "a failed merge left a report");
        return 0;
    }
    FZ_CHECK(rep && rlen > 0 && memcmp(rep, "# cdat (dsmtrace) ", rlen < 18 ? rlen : 18) == 0,
             "a merge without a report");
    free(rep);
    return 0;
}
