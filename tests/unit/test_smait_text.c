/* test_smait_text.c — formats/smait_text: the canonical text of every record
 * kind, parsing it back to the same bits, the parser's other spellings and
 * its error messages. */
#include "suites.h"
#include "../../formats/smait_text.h"

#include <stdio.h>
#include <string.h>

typedef struct fmt_case {
    smait_raw r[6];
    const char *text;
} fmt_case;

#define CALL(type, start, end, a1, a2, a3, a4) \
    { { 0x1000 | (type) << 4, start }, { 0x1001 | (type) << 4, end }, \
      { 0x1002 | (type) << 4, a1 }, { 0x1003 | (type) << 4, a2 }, \
      { 0x1004 | (type) << 4, a3 }, { 0x1005 | (type) << 4, a4 } }

static const fmt_case cases[] = {
    /* memory: every access, register type, and the size codes */
    { { { 0x00000040, 0x1000 } }, "load 4 0x00001000" },
    { { { 0x00000181, 0x2000 } }, "store 8 0x00002000 fp" },
    { { { 0x00000042, 0x3000 } }, "atomic 4 0x00003000" },
    { { { 0x00000290, 0x4000 } }, "load 16 0x00004000 vec" },
    { { { 0x000002A1, 0x4020 } }, "store 32 0x00004020 vec" },
    { { { 0x000002B2, 0x4040 } }, "atomic 64 0x00004040 vec" },
    { { { 0x00000001, 0x0 } }, "store 0 0x00000000" },
    { { { 0x00000110, 0xFFFFFFFF } }, "load 1 0xffffffff fp" },
    { { { 0x00000021, 0x10 } }, "store 2 0x00000010" },
    { { { 0x00000230, 0x10 } }, "load 3 0x00000010 vec" },
    /* procedure start, with and without low bits in f1 */
    { { { 0x40000000, 0x4c00 } }, "proc 0x00004c00" },
    { { { 0x40000005, 0x4c00 } }, "proc 0x00004c00 low=0x0000005" },
    { { { 0x4FFFFFFF, 0xFFFFFFFF } }, "proc 0xffffffff low=0xfffffff" },
    /* branch and procedure call */
    { { { 0x80004c18, 0x4d20 } }, "branch 0x00004c18 0x00004d20" },
    { { { 0x8FFFFFFF, 0x0 } }, "branch 0x0fffffff 0x00000000" },
    { { { 0xC000542c, 0x5630 } }, "pcall 0x0000542c 0x00005630" },
    { { { 0xC0000000, 0xFFFFFFFF } }, "pcall 0x00000000 0xffffffff" },
    /* every named call type, named arguments (hex for addresses) */
    { CALL(0x01, 0, 0, 1, 4, 0, 0), "spawn region=1 threads=4" },
    { CALL(0x02, 10, 20, 0, 0, 0, 0), "join @10:20" },
    { CALL(0x03, 100, 120, 0x8000, 4, 0, 0), "barrier var=0x00008000 threads=4 @100:120" },
    { CALL(0x04, 0, 0, 0x10, 0, 0, 0), "begin_order lock=0x00000010" },
    { CALL(0x05, 0, 0, 0x10, 0, 0, 0), "end_order lock=0x00000010" },
    { CALL(0x06, 0, 0, 0, 0, 0, 0), "begin_critical lock=0x00000000" },
    { CALL(0x07, 5, 5, 0x20, 0, 0, 0), "end_critical lock=0x00000020 @5:5" },
    { CALL(0x10, 0, 0, 2, 7, 0, 0), "marker cmd=2 num=7" },
    { CALL(0x11, 0, 0, 0xA000, 100, 3, 0), "read buf=0x0000a000 bytes=100 fd=3" },
    { CALL(0x12, 0, 0, 0xA000, 0, 1, 0), "write buf=0x0000a000 bytes=0 fd=1" },
    { CALL(0x13, 0, 0, 0xB000, 0, 0, 0), "ldcw addr=0x0000b000" },
    { CALL(0x14, 0, 0, 1, 2, 3, 4), "semop semid=1 semnum=2 op=3 flags=4" },
    { CALL(0x15, 0, 0, 1, 0, 16, 0), "semctl semid=1 semnum=0 cmd=16 value=0" },
    { CALL(0x16, 0, 0, 60, 0, 0, 0), "syscall num=60" },
    { CALL(0x17, 0, 0, 0, 0, 0, 0), "start_trace" },
    { CALL(0x18, 4294967295u, 0, 0, 0, 0, 0), "end_trace @4294967295:0" },
    /* recorded synchronisation: seq/kind of sections and start_trace's sync
     * flag only when not 0; acquire/release/unmodelled always named */
    { CALL(0x17, 0, 0, 1, 0, 0, 0), "start_trace sync=1" },
    { CALL(0x06, 0, 0, 0x9000, 4, 1, 0), "begin_critical lock=0x00009000 seq=4 kind=1" },
    { CALL(0x07, 0, 0, 0x9000, 5, 1, 0), "end_critical lock=0x00009000 seq=5 kind=1" },
    { CALL(0x04, 0, 0, 0x10, 0, 9, 0), "begin_order lock=0x00000010 kind=9" },
    { CALL(0x05, 0, 0, 0x10, 3, 0, 7), "end_order lock=0x00000010 seq=3 arg4=7" },
    { CALL(0x20, 1, 2, 0x7000, 2, 5, 0), "acquire obj=0x00007000 seq=2 kind=5 @1:2" },
    { CALL(0x21, 0, 0, 0x7000, 0, 0, 0), "release obj=0x00007000 seq=0 kind=0" },
    { CALL(0x22, 0, 0, 1, 3, 0, 0), "unmodelled what=1 count=3" },
    /* unnamed arguments print as argN, and only when not 0 */
    { CALL(0x02, 0, 0, 5, 0, 0, 9), "join arg1=5 arg4=9" },
    { CALL(0x16, 0, 7, 60, 0, 8, 0), "syscall num=60 arg3=8 @0:7" },
    { CALL(0x03, 0, 0, 0, 0, 0, 1), "barrier var=0x00000000 threads=0 arg4=1" },
    /* call types without a name */
    { CALL(0x42, 7, 7, 1, 2, 3, 4), "type_0x42 arg1=1 arg2=2 arg3=3 arg4=4 @7:7" },
    { CALL(0x00, 0, 0, 0, 0, 0, 0), "type_0x00" },
    { CALL(0x08, 0, 0, 0, 0, 0, 0), "type_0x08" },
    { CALL(0xFF, 1, 0, 0, 0, 0, 4294967295u), "type_0xff arg4=4294967295 @1:0" },
    /* invalid records print raw */
    { { { 0xFFFFFFFF, 0 } }, "raw 0xffffffff 0x00000000" },
    { { { 0x20000000, 0x12345678 } }, "raw 0x20000000 0x12345678" },
    { { { 0x00000043, 1 } }, "raw 0x00000043 0x00000001" },
    { { { 0x000000C0, 1 } }, "raw 0x000000c0 0x00000001" },
    { { { 0x00000340, 1 } }, "raw 0x00000340 0x00000001" },
    { { { 0x00001036, 1 } }, "raw 0x00001036 0x00000001" },
    { { { 0x00002000, 1 } }, "raw 0x00002000 0x00000001" },
};
enum { NCASES = sizeof cases / sizeof cases[0] };

START_TEST(format_every_kind)
{
    const fmt_case *c = &cases[_i];
    char buf[SMAIT_TEXT_MAX];
    size_t n = smait_text_format(c->r, buf, sizeof buf);
    ck_assert_str_eq(buf, c->text);
    ck_assert_uint_eq(n, strlen(c->text));
}
END_TEST

START_TEST(parse_canonical_round_trip)
{
    const fmt_case *c = &cases[_i];
    smait_raw out[6];
    memset(out, 0xAB, sizeof out);
    char err[200] = "";
    int n = smait_text_parse(c->text, out, err, sizeof err);
    int want = smait_classify(c->r[0].f1) == SMAIT_CALL_PART ? 6 : 1;
    ck_assert_msg(n == want, "'%s': %d records (%s)", c->text, n, err);
    for (int i = 0; i < n; i++) {
        ck_assert_uint_eq(out[i].f1, c->r[i].f1);
        ck_assert_uint_eq(out[i].f2, c->r[i].f2);
    }
}
END_TEST

/* format → parse → same bits, over every valid memory f1, every call type,
 * all proc low bits patterns and some invalid records. */
static void round_trip(const smait_raw *r)
{
    char buf[SMAIT_TEXT_MAX], err[200] = "";
    smait_text_format(r, buf, sizeof buf);
    smait_raw out[6];
    int n = smait_text_parse(buf, out, err, sizeof err);
    int want = (int)smait_record_span(r->f1);
    ck_assert_msg(n == want, "'%s' parsed to %d records: %s", buf, n, err);
    for (int i = 0; i < n; i++) {
        ck_assert_msg(out[i].f1 == r[i].f1 && out[i].f2 == r[i].f2,
                      "'%s' part %d: %08x %08x, want %08x %08x", buf, i,
                      out[i].f1, out[i].f2, r[i].f1, r[i].f2);
    }
}

START_TEST(round_trip_exhaustive)
{
    smait_raw r[6];
    for (uint32_t f1 = 0; f1 < 0x1000; f1++) {
        r[0].f1 = f1;
        r[0].f2 = f1 * 2654435761u;
        round_trip(r);
    }
    uint32_t v = 12345;
    for (unsigned type = 0; type < 256; type++) {
        for (unsigned i = 0; i < 6; i++) {
            v = v * 1103515245u + 12345u;
            r[i].f1 = smait_call_f1(type, i);
            /* mix zeros in: zero arguments and times are left out of the text */
            r[i].f2 = (v >> 7) % 3 == 0 ? 0 : v;
        }
        round_trip(r);
    }
    const uint32_t tops[] = { 0x40000000, 0x80000000, 0xC0000000 };
    for (int k = 0; k < 3; k++)
        for (uint32_t low = 0; low < 0x10000000; low = low * 3 + 1) {
            r[0].f1 = tops[k] | low;
            r[0].f2 = ~low;
            round_trip(r);
        }
    const uint32_t bad[] = { 0x10000000, 0x20000000, 0x30000000, 0x50000000, 0x60000000,
                             0x70000000, 0x90000000, 0xA0000000, 0xB0000000, 0xD0000000,
                             0xE0000000, 0xF0000000, 0x00001006, 0x0000100F, 0x00003000,
                             0x0000FFFF, 0x00010000, 0x0FFFFFFF };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        r[0].f1 = bad[k];
        r[0].f2 = 7;
        round_trip(r);
    }
}
END_TEST

/* ---- other accepted spellings ---------------------------------------------------- */

static void expect_parse(const char *line, int n, const smait_raw *want)
{
    smait_raw out[6];
    char err[200] = "";
    int k = smait_text_parse(line, out, err, sizeof err);
    ck_assert_msg(k == n, "'%s': %d records, want %d (%s)", line, k, n, err);
    for (int i = 0; i < n; i++)
        ck_assert_msg(out[i].f1 == want[i].f1 && out[i].f2 == want[i].f2,
                      "'%s' part %d: %08x %08x, want %08x %08x", line, i,
                      out[i].f1, out[i].f2, want[i].f1, want[i].f2);
}

START_TEST(parse_spellings)
{
    const smait_raw load = { 0x40, 4096 };
    expect_parse("load 4 4096", 1, &load);
    expect_parse("load 4 0x1000", 1, &load);
    expect_parse("load 4 0X1000", 1, &load);
    expect_parse("load 4 0x1000 fix", 1, &load);
    expect_parse("  load\t4   0x1000  ", 1, &load);
    expect_parse("17: load 4 0x1000", 1, &load);           /* dump's index label */
    expect_parse("load 4 0x1000   # a comment", 1, &load);
    expect_parse("load 4 0x1000#comment", 1, &load);
    const smait_raw dec = { 0x40, 10 };
    expect_parse("load 4 010", 1, &dec);                    /* leading 0: decimal */
    const smait_raw proc = { 0x40000000, 0 };
    expect_parse("proc 0", 1, &proc);
    const smait_raw raw = { 0x00001030, 5 };
    expect_parse("raw 0x00001030 5", 1, &raw);              /* one simple record */

    const smait_raw none[1] = { { 0, 0 } };
    expect_parse("", 0, none);
    expect_parse("   \t ", 0, none);
    expect_parse("# only a comment", 0, none);
    expect_parse("12:", 0, none);
    expect_parse("12: # labelled comment", 0, none);
}
END_TEST

START_TEST(parse_call_arguments)
{
    const smait_raw barrier[] = CALL(0x03, 100, 120, 0x8000, 4, 0, 0);
    expect_parse("barrier var=0x8000 threads=4 @100:120", 6, barrier);
    expect_parse("barrier threads=4 var=0x8000 @100:120", 6, barrier);     /* any order */
    expect_parse("barrier 0x8000 4 @100:120", 6, barrier);                 /* positional */
    expect_parse("barrier @100:120 0x8000 threads=4", 6, barrier);
    expect_parse("barrier arg1=0x8000 arg2=4 @100:120", 6, barrier);       /* argN alias */
    expect_parse("type_0x03 var=0x8000 threads=4 @100:120", 6, barrier);

    const smait_raw at[] = CALL(0x03, 7, 7, 0, 0, 0, 0);
    expect_parse("barrier @7", 6, at);                      /* @START = @START:START */
    const smait_raw semop[] = CALL(0x14, 0, 0, 1, 2, 3, 4);
    expect_parse("semop flags=4 op=3 semnum=2 semid=1", 6, semop);
    expect_parse("semop 1 2 3 4", 6, semop);
    const smait_raw unnamed[] = CALL(0x42, 0, 0, 1, 2, 3, 4);
    expect_parse("type_0x42 1 2 3 4", 6, unnamed);
    expect_parse("type_0x42 arg4=4 arg3=3 arg2=2 arg1=1", 6, unnamed);
    const smait_raw join[] = CALL(0x02, 0, 0, 0, 0, 0, 0);
    expect_parse("join", 6, join);
}
END_TEST

/* ---- errors --------------------------------------------------------------------- */

typedef struct err_case {
    const char *line, *err;
} err_case;

static const err_case errors[] = {
    { "lod 4 0x10", "unknown record 'lod'" },
    { "Load 4 0x10", "unknown record 'Load'" },
    { "type_0x4 1", "unknown record 'type_0x4'" },
    { "load 4", "'load' takes SIZE ADDR [fp|vec]" },
    { "store 4 0x10 fp x", "'store' takes SIZE ADDR [fp|vec]" },
    { "load 12 0x10", "bad size '12' (0..8, 16, 32 or 64 bytes)" },
    { "atomic x 0x10", "bad size 'x' (0..8, 16, 32 or 64 bytes)" },
    { "load 128 0x10", "bad size '128' (0..8, 16, 32 or 64 bytes)" },
    { "load 4 0x100000000", "bad address '0x100000000' (a 32-bit number)" },
    { "load 4 -1", "bad address '-1' (a 32-bit number)" },
    { "load 4 12abc", "bad address '12abc' (a 32-bit number)" },
    { "load 4 0x10 int", "bad register type 'int' (fix, fp or vec)" },
    { "branch 0x10", "'branch' takes NEXT_ADDR TARGET" },
    { "pcall 1 2 3", "'pcall' takes NEXT_ADDR TARGET" },
    { "branch 0x10000000 0x0", "bad address '0x10000000' (branch addresses hold 28 bits)" },
    { "pcall x 0x0", "bad address 'x' (branch addresses hold 28 bits)" },
    { "branch 0x10 zz", "bad target 'zz'" },
    { "proc", "'proc' takes ADDR [low=BITS]" },
    { "proc x", "'proc' takes ADDR [low=BITS]" },
    { "proc 1 low=1 x", "'proc' takes ADDR [low=BITS]" },
    { "proc 1 low=0x10000000", "bad 'low=0x10000000' (low=BITS, 28 bits)" },
    { "proc 1 high=3", "bad 'high=3' (low=BITS, 28 bits)" },
    { "raw 1", "'raw' takes F1 F2 (32-bit numbers)" },
    { "raw 1 x", "'raw' takes F1 F2 (32-bit numbers)" },
    { "raw 0x100000000 1", "'raw' takes F1 F2 (32-bit numbers)" },
    { "barrier lock=1", "'barrier' has no argument named 'lock'" },
    { "type_0x42 region=1", "'type_0x42' has no argument named 'region'" },
    { "join arg5=1", "'join' has no argument named 'arg5'" },
    { "join 1 2 3 4 5", "'join' takes at most 4 arguments" },
    { "barrier var=x", "bad value 'x' (a 32-bit number)" },
    { "barrier var=", "bad value '' (a 32-bit number)" },
    { "spawn 4294967296", "bad value '4294967296' (a 32-bit number)" },
    { "barrier @x", "bad time '@x' (@START or @START:END in microseconds)" },
    { "barrier @", "bad time '@' (@START or @START:END in microseconds)" },
    { "barrier @1:", "bad time '@1:' (@START or @START:END in microseconds)" },
    { "barrier @:1", "bad time '@:1' (@START or @START:END in microseconds)" },
    { "barrier @1:x", "bad time '@1:x' (@START or @START:END in microseconds)" },
    { "barrier @1:2:3", "bad time '@1:2:3' (@START or @START:END in microseconds)" },
    { "a b c d e f g h i j k l m", "too many words" },
};
enum { NERRORS = sizeof errors / sizeof errors[0] };

START_TEST(parse_errors)
{
    const err_case *c = &errors[_i];
    smait_raw out[6];
    char err[200] = "";
    ck_assert_int_eq(smait_text_parse(c->line, out, err, sizeof err), -1);
    ck_assert_str_eq(err, c->err);
}
END_TEST

START_TEST(parse_long_lines)
{
    char line[1100], err[200] = "";
    smait_raw out[6];
    /* 1023 characters fit (a comment pads the line) ... */
    memset(line, ' ', sizeof line);
    memcpy(line, "load 4 1 #", 10);
    line[1023] = '\0';
    ck_assert_int_eq(smait_text_parse(line, out, err, sizeof err), 1);
    /* ... 1024 do not. */
    memset(line, ' ', sizeof line);
    memcpy(line, "load 4 1 #", 10);
    line[1024] = '\0';
    ck_assert_int_eq(smait_text_parse(line, out, err, sizeof err), -1);
    ck_assert_str_eq(err, "line too long");
    /* A short error buffer gets a truncated, terminated message. */
    char small[8];
    ck_assert_int_eq(smait_text_parse("lod", out, small, sizeof small), -1);
    ck_assert_str_eq(small, "unknown");
}
END_TEST

START_TEST(u32_values)
{
    static const struct { const char *s; uint32_t v; } ok[] = {
        { "0", 0 }, { "7", 7 }, { "4294967295", 4294967295u }, { "0xffffffff", 0xFFFFFFFFu },
        { "0XFF", 255 }, { "010", 10 }, { "0009", 9 }, { "0x0", 0 }, { "0x00000010", 16 },
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        uint32_t v = 1;
        ck_assert_msg(smait_text_u32(ok[i].s, &v) == 0, "'%s' rejected", ok[i].s);
        ck_assert_uint_eq(v, ok[i].v);
    }
    static const char *const bad[] = {
        "", "x", "-1", "+1", " 1", "1 ", "1x", "0x", "0b1", "4294967296", "0x100000000",
        "99999999999999999999999", "1.5", "0x-1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint32_t v = 42;
        ck_assert_msg(smait_text_u32(bad[i], &v) == -1, "'%s' accepted", bad[i]);
        ck_assert_uint_eq(v, 42);
    }
}
END_TEST

START_TEST(split_words)
{
    char line[] = "12: load\t4  0x10 # comment words";
    char *w[8];
    ck_assert_int_eq(smait_text_words(line, w, 8), 3);
    ck_assert_str_eq(w[0], "load");
    ck_assert_str_eq(w[1], "4");
    ck_assert_str_eq(w[2], "0x10");

    char l2[] = "a: b 12: c";       /* only a leading all-digit label is dropped */
    ck_assert_int_eq(smait_text_words(l2, w, 8), 4);
    ck_assert_str_eq(w[0], "a:");
    ck_assert_str_eq(w[2], "12:");

    char l3[] = "a b c d e";        /* more words than room: counted, not stored */
    char *w2[2];
    ck_assert_int_eq(smait_text_words(l3, w2, 2), 5);
    ck_assert_str_eq(w2[0], "a");
    ck_assert_str_eq(w2[1], "b");

    char l4[] = ":";
    ck_assert_int_eq(smait_text_words(l4, w, 8), 1);
    ck_assert_str_eq(w[0], ":");
    char l5[] = "";
    ck_assert_int_eq(smait_text_words(l5, w, 8), 0);
}
END_TEST

Suite *smait_text_suite(void)
{
    Suite *s = suite_create("smait_text");
    TCase *tc = tcase_create("format");
    tcase_add_loop_test(tc, format_every_kind, 0, NCASES);
    tcase_add_loop_test(tc, parse_canonical_round_trip, 0, NCASES);
    tcase_add_test(tc, round_trip_exhaustive);
    suite_add_tcase(s, tc);

    tc = tcase_create("parse");
    tcase_add_test(tc, parse_spellings);
    tcase_add_test(tc, parse_call_arguments);
    tcase_add_loop_test(tc, parse_errors, 0, NERRORS);
    tcase_add_test(tc, parse_long_lines);
    tcase_add_test(tc, u32_values);
    tcase_add_test(tc, split_words);
    suite_add_tcase(s, tc);
    return s;
}
