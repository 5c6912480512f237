/* main.c — the unit-test runner: every suite of suites.h in one Check runner.
 *
 *   build/tests/unit_tests            run everything (CK_VERBOSITY=verbose lists each test)
 *   CK_RUN_SUITE=trace_reader ...      one suite; CK_RUN_CASE=... one test case
 *   build/tests/unit_tests --list      the suites' names, one a line (tests/run-unit-tests.sh
 *                                      runs them side by side)
 *
 * Tests run in forked children (Check's default), so a crash fails one test,
 * not the run. Scratch files go to one mkdtemp directory removed at the end. */
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every suite, with the name its suite_create gives it (CK_RUN_SUITE). */
static const struct {
    const char *name;
    Suite *(*make)(void);
} suites[] = {
    { "smait", smait_suite }, { "smait_text", smait_text_suite }, { "trace_reader", trace_reader_suite },
    { "trace_set", trace_set_suite }, { "options", options_suite }, { "io", io_suite },
    { "clock_queue", clock_queue_suite }, { "scheduler", scheduler_suite },
    { "scheduler_replay", scheduler_replay_suite }, { "slice_mode", slice_mode_suite },
    { "report", report_suite }, { "fanout", fanout_suite }, { "cache", cache_suite },
    { "cdat_config", cdat_config_suite }, { "machine", machine_suite }, { "cdat_io", cdat_io_suite },
    { "tdat", tdat_suite }, { "read_ahead", read_ahead_suite }, { "ciat", ciat_suite },
    { "ciat_reader_sets", ciat_reader_sets_suite }, { "miss_class", miss_class_suite },
    { "addr_map", addr_map_suite }, { "attribution", attribution_suite },
    { "huge_arena", huge_arena_suite }, { "decimal", decimal_suite }, { "cdat_partial", cdat_partial_suite },
    { "contention", contention_suite },
};
enum { NSUITES = sizeof suites / sizeof suites[0] };

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < NSUITES; i++) printf("%s\n", suites[i].name);
        return EXIT_SUCCESS;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: unit_tests [--list]\n");
        return 1;
    }
    const char *tmp = getenv("TMPDIR");
    char templ[4096];
    snprintf(templ, sizeof templ, "%s/dsm-unit.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    tu_dir = mkdtemp(templ);
    if (!tu_dir) {
        perror("unit_tests: mkdtemp");
        return 3;
    }

    SRunner *sr = srunner_create(suites[0].make());
    for (int i = 1; i < NSUITES; i++) srunner_add_suite(sr, suites[i].make());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);

    tu_rmtree(tu_dir);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
