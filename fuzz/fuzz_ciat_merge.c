/* fuzz_ciat_merge.c — ciat --merge: the reader of partial results
 * (formats/CIAT-PARTIAL.md, ciat/shard.c) and the merge (ciat/ciat.c).
 *
 * Input: up to 4 partial results separated by lines "#PART#"; part K is
 * written as p.ciat_partial.K-of-N (N the number of parts given) and
 * `ciat --merge` runs on them all.
 *
 * Checks: a merge that succeeds writes p.ciat_report, beginning with ciat's
 * tool line, and p.memory, beginning with the memory usage header; one that
 * fails is bad input (exit status 2) naming one of the parts or a usage
 * error (exit status 1), and leaves neither output behind; no input crashes,
 * hangs or leaks. */
#include "fuzz_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ciat_main(int argc, char **argv);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_result res;
    fz_merge_parts(ciat_main, "ciat", data, size, &res);
    size_t rlen = 0, mlen = 0;
    unsigned char *rep = fz_read("p.ciat_report", &rlen);
    unsigned char *mem = fz_read("p.memory", &mlen);
    fz_remove("p.ciat_report");
    fz_remove("p.ciat_report.json");
    fz_remove("p.memory");
    if (res.status) {
        FZ_CHECK(!rep && !mem, "a failed merge left an output");
        return 0;
    }
    FZ_CHECK(rep && rlen > 0 && memcmp(rep, "# ciat (dsmtrace) ", rlen < 18 ? rlen : 18) == 0,
             "a merge without a report");
    FZ_CHECK(mem && mlen >= 24 && memcmp(mem, "# dsmtrace memory usage\n", 24) == 0,
             "a merge without a memory usage file");
    free(rep);
    free(mem);
    return 0;
}
