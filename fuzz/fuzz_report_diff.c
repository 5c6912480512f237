/* fuzz_report_diff.c — the report reader behind smait diff (smait/diff.c:
 * ciat's and cdat's reports, tdat's frequency files, text or JSON).
 *
 * Input: a flag byte (bit 0 --whole-run, bit 1 --ignore-header), then two
 * reports separated by a line "#REPORT#"; `smait diff A B` runs on them, and
 * `smait diff A A`.
 *
 * Checks: the exit status is 0 (the same), 1 (different) or 2 (trouble); 2
 * comes with a message naming one of the files, or a usage error naming
 * none; a report compared with itself is the same (0), or refused as with
 * the other (2); no input crashes, hangs or leaks. */
#include "fuzz_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int smait_main(int argc, char **argv);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool quiet;
    if (!quiet && !getenv("FUZZ_VERBOSE")) quiet = freopen("/dev/null", "w", stdout) != NULL;   /* the diffs */
    if (size < 1) return 0;
    uint8_t flags = data[0];
    const uint8_t *part[2];
    size_t len[2];
    int n = fz_split(data + 1, size - 1, "#REPORT#\n", 9, 2, part, len);
    if (n < 2) {
        part[1] = part[0];
        len[1] = len[0];
    }
    static char a[FZ_PATH], b[FZ_PATH];
    snprintf(a, sizeof a, "%s", fz_write("a.ciat_report", part[0], len[0]));
    snprintf(b, sizeof b, "%s", fz_write("b.ciat_report", part[1], len[1]));
    fz_result res[2];
    for (int self = 0; self < 2; self++) {
        fz_job j = { .main = smait_main };
        j.argv[j.argc++] = "smait";
        j.argv[j.argc++] = "diff";
        if (flags & 1) j.argv[j.argc++] = "--whole-run";
        if (flags & 2) j.argv[j.argc++] = "--ignore-header";
        j.argv[j.argc++] = a;
        j.argv[j.argc++] = self ? a : b;
        j.argv[j.argc] = NULL;
        fz_run(fz_job_run, &j, &res[self]);
        int st = res[self].status;
        FZ_CHECK(st == 0 || st == 1 || st == 2, "exit status %d: %s", st, fz_describe(&res[self]));
        if (st == 2 && res[self].file[0])
            FZ_CHECK(strcmp(res[self].file, a) == 0 || strcmp(res[self].file, b) == 0,
                     "an error naming neither report: %s", fz_describe(&res[self]));
    }
    FZ_CHECK(res[1].status == 0 || res[1].status == 2, "a report differs from itself: %s", fz_describe(&res[1]));
    return 0;
}
