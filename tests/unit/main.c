/* main.c — the unit-test runner: every suite of suites.h in one Check runner.
 *
 *   build/tests/unit_tests            run everything (CK_VERBOSITY=verbose lists each test)
 *   CK_RUN_SUITE=trace_reader ...      one suite; CK_RUN_CASE=... one test case
 *
 * Tests run in forked children (Check's default), so a crash fails one test,
 * not the run. Scratch files go to one mkdtemp directory removed at the end. */
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    char templ[4096];
    snprintf(templ, sizeof templ, "%s/dsm-unit.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    tu_dir = mkdtemp(templ);
    if (!tu_dir) {
        perror("unit_tests: mkdtemp");
        return 3;
    }

    SRunner *sr = srunner_create(smait_suite());
    srunner_add_suite(sr, smait_text_suite());
    srunner_add_suite(sr, trace_reader_suite());
    srunner_add_suite(sr, trace_set_suite());
    srunner_add_suite(sr, options_suite());
    srunner_add_suite(sr, io_suite());
    srunner_add_suite(sr, clock_queue_suite());
    srunner_add_suite(sr, scheduler_suite());
    srunner_add_suite(sr, slice_mode_suite());
    srunner_add_suite(sr, report_suite());
    srunner_add_suite(sr, fanout_suite());
    srunner_add_suite(sr, cache_suite());
    srunner_add_suite(sr, cdat_config_suite());
    srunner_add_suite(sr, machine_suite());
    srunner_add_suite(sr, cdat_io_suite());
    srunner_add_suite(sr, tdat_suite());
    srunner_add_suite(sr, read_ahead_suite());
    srunner_add_suite(sr, ciat_suite());
    srunner_add_suite(sr, miss_class_suite());
    srunner_add_suite(sr, addr_map_suite());
    srunner_add_suite(sr, attribution_suite());
    srunner_add_suite(sr, huge_arena_suite());
    srunner_add_suite(sr, decimal_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);

    tu_rmtree(tu_dir);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
