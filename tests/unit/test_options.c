/* test_options.c — common/options: both spellings of docs/trace-sets.md §4 (-ciat_events and
 * --ciat-events, -HPUX and --hpux, -dma_bw 20 and --dma-bw=20), short options
 * with separate or attached values, operands, usage errors, --help/--version. */
#include "suites.h"
#include "../../common/options.h"
#include "../../base/diag.h"

#include <stdio.h>
#include <string.h>

static bool events, hpux, quiet;
static const char *outdir, *calls, *list;
static uint64_t slice, dma_bw, minimum;
static smait_order order;

static const char *odd_only(void *target, const char *value)
{
    if (value[0] && (value[strlen(value) - 1] - '0') % 2 == 1) {
        *(const char **)target = value;
        return NULL;
    }
    return "must end in an odd digit";
}
static const char *odd;

/* An optional value ("[=N]"): NULL when the option comes without one. */
static const char *top_value;
static int top_calls;
static const char *top(void *target, const char *value)
{
    (void)target;
    top_value = value;
    top_calls++;
    return value && strcmp(value, "0") == 0 ? "N must be at least 1" : NULL;
}

static const option_spec specs[] = {
    { "ciat-events", 0, NULL, OPT_FLAG, NULL, &events, NULL, 0, 0, "write the event trace" },
    { "hpux", 0, "HPUX", OPT_FLAG, NULL, &hpux, NULL, 0, 0, "HP-UX traces" },
    { NULL, 'q', NULL, OPT_FLAG, NULL, &quiet, NULL, 0, 0, "quiet" },
    { "output-dir", 'o', NULL, OPT_STRING, "DIR", &outdir, NULL, 0, 0, "where outputs go" },
    { "call-list", 'c', NULL, OPT_STRING, "FILE", &calls, NULL, 0, 0, "call traces" },
    { "trace-list", 't', NULL, OPT_STRING, "FILE", &list, NULL, 0, 0, "detailed traces" },
    { "slice", 's', NULL, OPT_UINT, "N", &slice, NULL, 1, 1000000, "slice length" },
    { "dma-bw", 0, NULL, OPT_UINT, "N", &dma_bw, NULL, 0, 0, "DMA bandwidth" },
    { "minimum", 0, NULL, OPT_UINT, "N", &minimum, NULL, 5, 0, "at least 5" },
    { "byte-order", 0, NULL, OPT_CALL, "ORDER", &order, options_byte_order, 0, 0, "byte order" },
    { "odd", 0, NULL, OPT_CALL, "X", &odd, odd_only, 0, 0, "an odd value" },
    { "by-code", 0, "by_code", OPT_CALL, "[=N]", &top_value, top, 0, 0, "the top N (default 10)" },
    { 0 }
};

static void reset(void)
{
    events = hpux = quiet = false;
    outdir = calls = list = odd = NULL;
    slice = dma_bw = minimum = 0;
    order = SMAIT_ORDER_AUTO;
    top_value = NULL;
    top_calls = 0;
}

/* Parse a NULL-terminated word list (argv[0] = "tool"); returns the operand count. */
static int parse(const char **words, char **ops)
{
    static char *argv[32];
    int argc = 0;
    argv[argc++] = "tool";
    for (; *words; words++) argv[argc++] = (char *)*words;
    argv[argc] = NULL;
    return options_parse(specs, argc, argv, "Usage: tool [options] FILE\n", ops);
}

#define PARSE(ops, ...) parse((const char *[]){ __VA_ARGS__, NULL }, ops)

START_TEST(report_spelling)
{
    reset();
    char *ops[32];
    int n = PARSE(ops, "-ciat_events", "-HPUX", "-dma_bw", "20", "-output_dir", "out", "a", "b");
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(ops[0], "a");
    ck_assert_str_eq(ops[1], "b");
    ck_assert(events);
    ck_assert(hpux);
    ck_assert_uint_eq(dma_bw, 20);
    ck_assert_str_eq(outdir, "out");
}
END_TEST

/* The single-dash form with an attached value: -dma_bw=20 as --dma-bw=20;
 * "=" after a short option stays part of its value. */
START_TEST(report_spelling_with_equals)
{
    reset();
    char *ops[32];
    ck_assert_int_eq(PARSE(ops, "-dma_bw=20", "-output_dir=o=ut", "-slice=7", "x"), 1);
    ck_assert_uint_eq(dma_bw, 20);
    ck_assert_str_eq(outdir, "o=ut");
    ck_assert_uint_eq(slice, 7);
    reset();
    ck_assert_int_eq(PARSE(ops, "-o=dir"), 0);
    ck_assert_str_eq(outdir, "=dir");
}
END_TEST

START_TEST(gnu_spelling)
{
    reset();
    char *ops[32];
    int n = PARSE(ops, "--ciat-events", "--hpux", "--dma-bw=20", "--output-dir=out",
                  "--slice", "300", "x");
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(ops[0], "x");
    ck_assert(events && hpux);
    ck_assert_uint_eq(dma_bw, 20);
    ck_assert_uint_eq(slice, 300);
    ck_assert_str_eq(outdir, "out");
}
END_TEST

START_TEST(case_and_underscore_folding)
{
    reset();
    char *ops[32];
    ck_assert_int_eq(PARSE(ops, "--CIAT_EVENTS", "-hpux", "--Dma_Bw=3", "--hpux"), 0);
    ck_assert(events && hpux);
    ck_assert_uint_eq(dma_bw, 3);
    reset();
    ck_assert_int_eq(PARSE(ops, "-ciat-events", "--HPUX"), 0);
    ck_assert(events && hpux);
}
END_TEST

START_TEST(short_options)
{
    reset();
    char *ops[32];
    ck_assert_int_eq(PARSE(ops, "-s20000", "-oout", "-q", "-t", "list", "op"), 1);
    ck_assert_uint_eq(slice, 20000);
    ck_assert_str_eq(outdir, "out");
    ck_assert(quiet);
    ck_assert_str_eq(list, "list");
    ck_assert_str_eq(ops[0], "op");
    /* -c takes a value, yet -ciat_events is the long option, not -c "iat_events". */
    reset();
    ck_assert_int_eq(PARSE(ops, "-ciat_events", "-cfoo", "-slice", "7"), 0);
    ck_assert(events);
    ck_assert_str_eq(calls, "foo");
    ck_assert_uint_eq(slice, 7);
    reset();
    ck_assert_int_eq(PARSE(ops, "-c", "calls.4", "-s", "0x10", "--slice=010"), 0);
    ck_assert_str_eq(calls, "calls.4");
    ck_assert_uint_eq(slice, 10);       /* a leading 0 is not octal */
    /* A value may start with '-'. */
    reset();
    ck_assert_int_eq(PARSE(ops, "-o", "-dir", "--trace-list=-"), 0);
    ck_assert_str_eq(outdir, "-dir");
    ck_assert_str_eq(list, "-");
}
END_TEST

START_TEST(operands)
{
    reset();
    char *ops[32];
    int n = PARSE(ops, "a", "-q", "-", "b", "--", "-q", "--hpux", "-");
    ck_assert_int_eq(n, 6);
    const char *want[] = { "a", "-", "b", "-q", "--hpux", "-" };
    for (int i = 0; i < n; i++) ck_assert_str_eq(ops[i], want[i]);
    ck_assert(quiet);
    ck_assert(!hpux);
    reset();
    ck_assert_int_eq(PARSE(ops, "--"), 0);
}
END_TEST

START_TEST(handlers)
{
    reset();
    char *ops[32];
    ck_assert_int_eq(PARSE(ops, "--byte-order=big", "--odd", "13"), 0);
    ck_assert_int_eq(order, SMAIT_ORDER_BIG);
    ck_assert_str_eq(odd, "13");
    ck_assert_int_eq(PARSE(ops, "-byte_order", "little"), 0);
    ck_assert_int_eq(order, SMAIT_ORDER_LITTLE);
    ck_assert_ptr_null(options_byte_order(&order, "auto"));
    ck_assert_int_eq(order, SMAIT_ORDER_AUTO);
    ck_assert_str_eq(options_byte_order(&order, "pdp"), "must be little, big or auto");
    ck_assert_uint_eq(PARSE(ops, "--minimum", "5"), 0);
    ck_assert_uint_eq(minimum, 5);
    ck_assert_uint_eq(PARSE(ops, "--minimum", "18446744073709551615"), 0);
    ck_assert_uint_eq(minimum, UINT64_MAX);
}
END_TEST

/* An optional value is taken only attached with '=': a next word is an operand. */
START_TEST(optional_value)
{
    reset();
    char *ops[32];
    ck_assert_int_eq(PARSE(ops, "--by-code", "5"), 1);
    ck_assert_int_eq(top_calls, 1);
    ck_assert_ptr_null(top_value);
    ck_assert_str_eq(ops[0], "5");
    ck_assert_int_eq(PARSE(ops, "--by-code=7", "t.4"), 1);
    ck_assert_str_eq(top_value, "7");
    ck_assert_int_eq(PARSE(ops, "-by_code=3"), 0);
    ck_assert_str_eq(top_value, "3");
    ck_assert_int_eq(PARSE(ops, "-by_code"), 0);
    ck_assert_ptr_null(top_value);
    ck_assert_int_eq(top_calls, 4);
}
END_TEST

/* ---- usage errors: exit 1 and a message -------------------------------------------------- */

typedef struct usage_case {
    const char *words[6];
    const char *message;
} usage_case;

static const usage_case usage_cases[] = {
    { { "--frob" }, "unknown option '--frob'" },
    { { "-x" }, "unknown option '-x'" },
    { { "-qq" }, "unknown option '-qq'" },
    { { "--frob=1" }, "unknown option '--frob=1'" },
    { { "--ciat-event" }, "unknown option '--ciat-event'" },
    { { "--hpux=1" }, "option '--hpux' takes no value" },
    { { "--dma-bw" }, "option '--dma-bw' needs a value (N)" },
    { { "-s" }, "option '-s' needs a value (N)" },
    { { "a", "-output_dir" }, "option '-output_dir' needs a value (DIR)" },
    { { "-s", "abc" }, "option -s: 'abc' is not a non-negative integer" },
    { { "-s", "-5" }, "option -s: '-5' is not a non-negative integer" },
    { { "-s", "" }, "option -s: '' is not a non-negative integer" },
    { { "-s12x" }, "option -s12x: '12x' is not a non-negative integer" },
    { { "-s", "0" }, "option -s: 0 is out of range (1..1000000)" },
    { { "-s", "1000001" }, "option -s: 1000001 is out of range (1..1000000)" },
    { { "--minimum=4" }, "option --minimum=4: 4 is out of range (at least 5)" },
    { { "--dma-bw=99999999999999999999999" },
      "option --dma-bw=99999999999999999999999: 99999999999999999999999 is out of range"
      " (at most 18446744073709551615)" },
    { { "-s", "18446744073709551616" },
      "option -s: 18446744073709551616 is out of range (1..1000000)" },
    { { "-s", "0x1ffffffffffffffff" },
      "option -s: 0x1ffffffffffffffff is out of range (1..1000000)" },
    { { "--byte-order=middle" }, "option --byte-order=middle: must be little, big or auto" },
    { { "--odd", "4" }, "option --odd: must end in an odd digit" },
    { { "--by-code=0" }, "option --by-code=0: N must be at least 1" },
};
enum { NUSAGE = sizeof usage_cases / sizeof usage_cases[0] };

static void usage_job(void *arg)
{
    const usage_case *c = arg;
    char *ops[32];
    reset();
    parse((const char **)c->words, ops);
}

START_TEST(usage_errors)
{
    const usage_case *c = &usage_cases[_i];
    char want[512];
    snprintf(want, sizeof want, "dsmtrace: %s\ndsmtrace: try 'dsmtrace --help'\n", c->message);
    tu_assert_fatal(usage_job, (void *)c, 1, want);
}
END_TEST

/* ---- --help, --version ------------------------------------------------------------------- */

static void help_job(void *arg)
{
    char *ops[32];
    diag_set_tool("tool");
    parse((const char *[]){ arg, NULL }, ops);
}

START_TEST(help_and_version)
{
    static const char help[] =
        "Usage: tool [options] FILE\n"
        "\n"
        "Options (the report's single-dash spelling works too: -output_dir DIR = --output-dir=DIR):\n"
        "  --ciat-events                write the event trace\n"
        "  --hpux, -HPUX                HP-UX traces\n"
        "  -q                           quiet\n"
        "  -o, --output-dir DIR         where outputs go\n"
        "  -c, --call-list FILE         call traces\n"
        "  -t, --trace-list FILE        detailed traces\n"
        "  -s, --slice N                slice length\n"
        "  --dma-bw N                   DMA bandwidth\n"
        "  --minimum N                  at least 5\n"
        "  --byte-order ORDER           byte order\n"
        "  --odd X                      an odd value\n"
        "  --by-code, -by_code[=N]      the top N (default 10)\n"
        "  -h, --help                   print this help and exit\n"
        "  --version                    print the version and exit\n";
    const char *words[] = { "--help", "-h", "-help", "--HELP" };
    for (int i = 0; i < 4; i++) {
        char *out, *err;
        ck_assert_int_eq(tu_run(help_job, (void *)words[i], NULL, &out, &err), 0);
        ck_assert_str_eq(out, help);
        ck_assert_str_eq(err, "");
        free(out);
        free(err);
    }
    const char *vwords[] = { "--version", "-version" };
    for (int i = 0; i < 2; i++) {
        char *out, *err;
        ck_assert_int_eq(tu_run(help_job, (void *)vwords[i], NULL, &out, &err), 0);
        ck_assert_str_eq(out, "tool (dsmtrace) 0.1.0\n");
        ck_assert_str_eq(err, "");
        free(out);
        free(err);
    }
}
END_TEST

START_TEST(command_line)
{
    char *argv[] = { "ciat", "-o", "out dir", "trace.4" };
    char *s = options_command_line(4, argv);
    ck_assert_str_eq(s, "ciat -o 'out dir' trace.4");    /* quoted as a shell needs it */
    free(s);
    char *odd[] = { "/usr/bin/ciat", "", "it's", "a=b,c:d%e@f+g-h_i./j", "$x", "*" };
    s = options_command_line(6, odd);
    ck_assert_str_eq(s, "ciat '' 'it'\\''s' a=b,c:d%e@f+g-h_i./j '$x' '*'");
    free(s);
    s = options_command_line(1, argv);
    ck_assert_str_eq(s, "ciat");
    free(s);
    s = options_command_line(0, argv);
    ck_assert_str_eq(s, "");
    free(s);
}
END_TEST

Suite *options_suite(void)
{
    Suite *s = suite_create("options");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, report_spelling);
    tcase_add_test(tc, report_spelling_with_equals);
    tcase_add_test(tc, gnu_spelling);
    tcase_add_test(tc, case_and_underscore_folding);
    tcase_add_test(tc, short_options);
    tcase_add_test(tc, operands);
    tcase_add_test(tc, handlers);
    tcase_add_test(tc, optional_value);
    tcase_add_loop_test(tc, usage_errors, 0, NUSAGE);
    tcase_add_test(tc, help_and_version);
    tcase_add_test(tc, command_line);
    suite_add_tcase(s, tc);
    return s;
}
