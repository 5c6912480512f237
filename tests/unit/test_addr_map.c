/* test_addr_map.c — formats/addr_map (formats/ADDRESS-MAP.md): a map of every
 * kind of line read back, names with blanks, comments and blank lines; the
 * lookups at range edges and in gaps, the data order object, heap, data,
 * none; random maps against a linear search; the format versions (3's end
 * line; a version 3 map cut short); and every bad input: the error am_load
 * returns (where, why, the map left empty), and as the tools report it
 * (common/attribution.c, run in a child with tu_run) its exact
 * "TOOL: FILE:LINE: reason" message and exit status 2. */
#include "suites.h"
#include "../../formats/addr_map.h"
#include "../../base/diag.h"
#include "../../common/attribution.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *write_map(const char *text)
{
    static char path[4096];
    static unsigned serial;
    snprintf(path, sizeof path, "%s/map-%ld-%u.map", tu_dir, (long)getpid(), serial++);
    tu_write_str(path, text);
    return path;
}

/* am_load that must succeed. */
static void load_ok(addr_map *m, const char *path)
{
    am_error err;
    ck_assert_msg(am_load(m, path, &err), "%s: %s", err.where, err.why);
}

static const char good[] =
    "# smait address map v2\n"
    "code 0x00001000 0x00001010 memcpy (runtime)\n"
    "code 0x00010000 0x00010040 main /src/my prog.c\n"
    "code 0x00010040 0x00010060 reader /src/toy.c\n"
    "\n"
    "line 0x00010000 0x00010010 12 /src/my prog.c\n"
    "line 0x00010010 0x00010040 13 /src/my prog.c\n"
    "data 0x5555d000 0x5555e000 0x000055555555d000 /tmp/t/toy\n"
    "data 0x55587000 0x55589000 0x0000555555587000 [anonymous]\n"
    "data 0xfffee000 0xfffef000 0x00007ffffffee000 [stack]\n"
    "object 0x5555d010 0x5555d018 counter toy.c:7\n"
    "object 0x5555d040 0x5555d080 table /tmp/t/toy\n"
    "heap 0x55587000 0x55587100 3 0x00010010,0x00010044\n"
    "heap 0x55587100 0x55587140 1 0x00010020\n"
    "  # an indented comment\n";

START_TEST(reads_every_kind)
{
    addr_map m;
    load_ok(&m, write_map(good));
    ck_assert_uint_eq(m.n[AM_CODE], 3);
    ck_assert_uint_eq(m.n[AM_LINE], 2);
    ck_assert_uint_eq(m.n[AM_DATA], 3);
    ck_assert_uint_eq(m.n[AM_OBJECT], 2);
    ck_assert_uint_eq(m.n[AM_HEAP], 2);
    const am_entry *e = &m.e[AM_CODE][1];
    ck_assert_uint_eq(e->start, 0x10000);
    ck_assert_uint_eq(e->end, 0x10040);
    ck_assert_str_eq(e->a, "main");
    ck_assert_str_eq(e->b, "/src/my prog.c");         /* the rest of the line, blanks and all */
    ck_assert_str_eq(m.e[AM_CODE][0].b, "(runtime)");
    e = &m.e[AM_LINE][0];
    ck_assert_uint_eq(e->num, 12);
    ck_assert_str_eq(e->a, "/src/my prog.c");
    e = &m.e[AM_DATA][2];
    ck_assert_uint_eq(e->num, 0x00007ffffffee000ull);
    ck_assert_str_eq(e->a, "[stack]");
    ck_assert_str_eq(m.e[AM_OBJECT][0].a, "counter");
    ck_assert_str_eq(m.e[AM_OBJECT][0].b, "toy.c:7");
    e = &m.e[AM_HEAP][0];
    ck_assert_uint_eq(e->num, 3);
    ck_assert_uint_eq(e->nsites, 2);
    ck_assert_uint_eq(e->sites[0], 0x10010);
    ck_assert_uint_eq(e->sites[1], 0x10044);
    ck_assert_uint_eq(m.e[AM_HEAP][1].nsites, 1);
    am_free(&m);
}
END_TEST

START_TEST(lookups)
{
    addr_map m;
    load_ok(&m, write_map(good));
    /* code: the first byte, the last, the end (half-open), gaps, before the first */
    ck_assert_ptr_null(am_find(&m, AM_CODE, 0xfff));
    ck_assert_str_eq(am_find(&m, AM_CODE, 0x1000)->a, "memcpy");
    ck_assert_str_eq(am_find(&m, AM_CODE, 0x100f)->a, "memcpy");
    ck_assert_ptr_null(am_find(&m, AM_CODE, 0x1010));
    ck_assert_str_eq(am_find(&m, AM_CODE, 0x1003f)->a, "main");
    ck_assert_str_eq(am_find(&m, AM_CODE, 0x10040)->a, "reader");
    ck_assert_ptr_null(am_find(&m, AM_CODE, 0x10060));
    ck_assert_ptr_null(am_find(&m, AM_CODE, 0xffffffff));
    ck_assert_uint_eq(am_find(&m, AM_LINE, 0x10014)->num, 13);
    ck_assert_ptr_null(am_find(&m, AM_LINE, 0x10044));
    /* data: object first, then heap, then the mapping, else none */
    const am_entry *e;
    ck_assert_int_eq(am_data(&m, 0x5555d014, &e), AMD_OBJECT);
    ck_assert_str_eq(e->a, "counter");
    ck_assert_int_eq(am_data(&m, 0x5555d018, &e), AMD_MAPPING);
    ck_assert_str_eq(e->a, "/tmp/t/toy");
    ck_assert_int_eq(am_data(&m, 0x55587000, &e), AMD_HEAP);
    ck_assert_uint_eq(e->sites[0], 0x10010);
    ck_assert_int_eq(am_data(&m, 0x5558713f, &e), AMD_HEAP);
    ck_assert_uint_eq(e->sites[0], 0x10020);
    ck_assert_int_eq(am_data(&m, 0x55587140, &e), AMD_MAPPING);
    ck_assert_str_eq(e->a, "[anonymous]");
    ck_assert_int_eq(am_data(&m, 0x55589000, &e), AMD_NONE);
    ck_assert_ptr_null(e);
    ck_assert_int_eq(am_data(&m, 0xfffeefff, &e), AMD_MAPPING);
    am_free(&m);
}
END_TEST

/* A map without the v2 comment (a v1 map: code and data only), and an END of
 * 2^32 (the top of the folded space). */
START_TEST(v1_and_top)
{
    addr_map m;
    load_ok(&m, write_map("code 0x00001000 0x00001010 f m\ndata 0xfffff000 0x100000000 0x0000000000001000 [stack]\n"));
    ck_assert_uint_eq(m.n[AM_CODE], 1);
    ck_assert_uint_eq(m.e[AM_DATA][0].end, 0x100000000ull);
    const am_entry *e;
    ck_assert_int_eq(am_data(&m, 0xffffffff, &e), AMD_MAPPING);
    am_free(&m);
    load_ok(&m, write_map(""));
    ck_assert_ptr_null(am_find(&m, AM_CODE, 0));
    ck_assert_int_eq(am_data(&m, 0, &e), AMD_NONE);
    am_free(&m);
}
END_TEST

/* Random sorted, non-overlapping ranges: the binary search against a linear one. */
START_TEST(random_against_linear)
{
    uint64_t x = 12345;
    for (int round = 0; round < 20; round++) {
        size_t cap = 64 * 1024, len = 0;
        char *text = malloc(cap);
        uint64_t a = 0;
        int n = 1 + round * 37;
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            a += (x >> 40) % 64;                    /* a gap, often none */
            uint64_t len_r = 1 + (x >> 20) % 32;
            if (a + len_r > 0xffffffffull) break;
            len += (size_t)snprintf(text + len, cap - len, "code 0x%08llx 0x%08llx f%d m\n", (unsigned long long)a,
                                    (unsigned long long)(a + len_r), i);
            a += len_r;
        }
        addr_map m;
        load_ok(&m, write_map(text));
        for (uint32_t q = 0; q < a + 70; q++) {
            const am_entry *want = NULL;
            for (size_t i = 0; i < m.n[AM_CODE]; i++)
                if (q >= m.e[AM_CODE][i].start && q < m.e[AM_CODE][i].end) want = &m.e[AM_CODE][i];
            ck_assert_ptr_eq(am_find(&m, AM_CODE, q), want);
        }
        am_free(&m);
        free(text);
    }
}
END_TEST

/* The map as the tools open it (--map PATH): an error exits. */
static void load_job(void *arg)
{
    diag_set_tool("ciat");
    attr_map_free(attr_map_open(NULL, arg));
}

/* am_load refuses path: where and why as given, the map left empty. */
static void expect_refused(int at, const char *path, const char *where, const char *why)
{
    addr_map m;
    am_error err;
    ck_assert_msg(!am_load(&m, path, &err), "test line %d: loaded", at);
    ck_assert_msg(strcmp(err.where, where) == 0 && strcmp(err.why, why) == 0,
                  "test line %d: refused with\n  %s: %s\nwanted\n  %s: %s", at, err.where, err.why, where, why);
    ck_assert_ptr_null(m.path);
    for (int k = 0; k < AM_KINDS; k++) {
        ck_assert_ptr_null(m.e[k]);
        ck_assert_uint_eq(m.n[k], 0);
    }
}

#define EXPECT_ERROR(text, line, reason) expect_error(__LINE__, (text), (line), (reason))

static void expect_error(int at, const char *text, unsigned line, const char *reason)
{
    char path[4096], where[4200], want[8192];
    snprintf(path, sizeof path, "%s", write_map(text));
    snprintf(where, sizeof where, "%s:%u", path, line);
    expect_refused(at, path, where, reason);
    snprintf(want, sizeof want, "ciat: %s:%u: %s\n", path, line, reason);
    char *err = NULL;
    int st = tu_run(load_job, path, NULL, NULL, &err);
    ck_assert_msg(strcmp(err, want) == 0 && st == 2, "test line %d: exit %d, stderr\n  %s  wanted\n  %s", at, st,
                  err, want);
    free(err);
}

START_TEST(bad_input)
{
    /* unknown kind */
    EXPECT_ERROR("# v2\nfunc 0x00001000 0x00001010 f m\n", 2,
                 "unknown kind of line 'func' (code, line, data, object or heap)");
    EXPECT_ERROR("Code 0x00001000 0x00001010 f m\n", 1,
                 "unknown kind of line 'Code' (code, line, data, object or heap)");
    /* bad numbers */
    EXPECT_ERROR("code 1000 0x00001010 f m\n", 1, "START '1000' is not a hexadecimal number 0x...");
    EXPECT_ERROR("code 0x 0x00001010 f m\n", 1, "START '0x' is not a hexadecimal number 0x...");
    EXPECT_ERROR("code 0x00001000 0x0000101g f m\n", 1, "END '0x0000101g' is not a hexadecimal number 0x...");
    EXPECT_ERROR("code 0x000001000 0x00001010 f m\n", 1, "START '0x000001000' is not a hexadecimal number 0x...");
    EXPECT_ERROR("data 0x00001000 0x100000001 0x0 m\n", 1, "END 0x100000001 is out of range (at most 0x100000000)");
    EXPECT_ERROR("line 0x00001000 0x00001010 x12 f.c\n", 1, "LINE 'x12' is not a decimal number");
    EXPECT_ERROR("line 0x00001000 0x00001010 0 f.c\n", 1, "LINE 0 is out of range (1..4294967295)");
    EXPECT_ERROR("heap 0x00001000 0x00001010 4294967296 0x00001000\n", 1,
                 "COUNT 4294967296 is out of range (1..4294967295)");
    EXPECT_ERROR("heap 0x00001000 0x00001010 2 0x00001000,\n", 1, "SITE '' is not a hexadecimal number 0x...");
    EXPECT_ERROR("heap 0x00001000 0x00001010 2 0x00001000,zz\n", 1, "SITE 'zz' is not a hexadecimal number 0x...");
    EXPECT_ERROR("data 0x00001000 0x00002000 0x12345678901234567 m\n", 1,
                 "ORIGINAL_START '0x12345678901234567' is not a hexadecimal number 0x...");
    /* missing and extra fields */
    EXPECT_ERROR("code 0x00001000\n", 1, "code line without END");
    EXPECT_ERROR("code 0x00001000 0x00001010 f\n", 1, "code line without MODULE");
    EXPECT_ERROR("object 0x00001000 0x00001010\n", 1, "object line without NAME");
    EXPECT_ERROR("line 0x00001000 0x00001010 3  \n", 1, "line line without FILE");
    EXPECT_ERROR("heap 0x00001000 0x00001010 1\n", 1, "heap line without SITE");
    EXPECT_ERROR("heap 0x00001000 0x00001010 1 0x00001000 0x00001004\n", 1,
                 "heap line with more than COUNT and SITE[,SITE...] after END");
    /* END <= START */
    EXPECT_ERROR("code 0x00001000 0x00001000 f m\n", 1, "END 0x00001000 is not above START 0x00001000");
    EXPECT_ERROR("object 0x00002000 0x00001000 v s\n", 1, "END 0x00001000 is not above START 0x00002000");
    /* unsorted and overlapping, per kind (other kinds may interleave and overlap) */
    EXPECT_ERROR("code 0x00002000 0x00002010 f m\nline 0x00001000 0x00001010 1 a.c\n"
                 "code 0x00001000 0x00001010 g m\n", 3,
                 "code lines not sorted: START 0x00001000 is below 0x00002000 of line 1");
    EXPECT_ERROR("heap 0x00001000 0x00001010 1 0x0\n# c\nheap 0x0000100f 0x00001020 1 0x0\n", 3,
                 "heap line 0x0000100f-0x00001020 overlaps line 1 (0x00001000-0x00001010)");
    EXPECT_ERROR("object 0x00001000 0x00001010 a s\nobject 0x00001000 0x00001010 b s\n", 2,
                 "object line 0x00001000-0x00001010 overlaps line 1 (0x00001000-0x00001010)");
}
END_TEST

/* Kinds interleave freely and ranges of different kinds overlap. */
START_TEST(kinds_independent)
{
    addr_map m;
    load_ok(&m, write_map("data 0x00001000 0x00003000 0x0 m\nobject 0x00001000 0x00001004 a s\n"
                          "heap 0x00002000 0x00002010 1 0x00000010\nobject 0x00001004 0x00001008 b s\n"));
    ck_assert_uint_eq(m.n[AM_OBJECT], 2);
    am_free(&m);
}
END_TEST

/* Version 3 (the collector's now): the end line closes the map; without it
 * the map is cut, whatever line it stops at. Blanks around the words of the
 * two lines are free; blank lines may follow the end line, nothing else. */
START_TEST(v3_end_line)
{
    addr_map m;
    char text[2048];
    snprintf(text, sizeof text, "%s%s%s\n", AM_VERSION_LINE "\n", good + strlen("# smait address map v2\n"),
             AM_END_LINE);
    load_ok(&m, write_map(text));
    ck_assert_uint_eq(m.n[AM_CODE], 3);
    ck_assert_uint_eq(m.n[AM_HEAP], 2);
    am_free(&m);
    load_ok(&m, write_map("  #smait  address map   v3 \ncode 0x00001000 0x00001010 f m\n\t#  end of  address map\n\n \n"));
    ck_assert_uint_eq(m.n[AM_CODE], 1);
    am_free(&m);
    load_ok(&m, write_map("# smait address map v3\n# end of address map"));     /* no final newline: whole */
    ck_assert_uint_eq(m.n[AM_CODE], 0);
    am_free(&m);
    /* Version 2 and 1 maps have no end line; in them it is a comment. */
    load_ok(&m, write_map("# smait address map v2\n# end of address map\ncode 0x00001000 0x00001010 f m\n"));
    ck_assert_uint_eq(m.n[AM_CODE], 1);
    am_free(&m);
    load_ok(&m, write_map("# smait address map v1\ncode 0x00001000 0x00001010 f m\n"));
    ck_assert_uint_eq(m.n[AM_CODE], 1);
    am_free(&m);
    /* Only line 1 gives the version; elsewhere such a line is a comment. */
    load_ok(&m, write_map("\n# smait address map v3\ncode 0x00001000 0x00001010 f m\n"));
    ck_assert_uint_eq(m.n[AM_CODE], 1);
    am_free(&m);
}
END_TEST

#define CUT "address map is cut: no '# end of address map' line after line "
#define CUT_WHY " (a map of format version 3 ends with one: was the program killed while it wrote the map," \
                " or the disk full?)"

START_TEST(v3_cut)
{
    EXPECT_ERROR("# smait address map v3\ncode 0x00001000 0x00001010 f m\n", 2, CUT "2" CUT_WHY);
    EXPECT_ERROR("# smait address map v3\n", 1, CUT "1" CUT_WHY);
    /* cut inside a line: the line is read as it is (here still good) */
    EXPECT_ERROR("# smait address map v3\ncode 0x00001000 0x00001010 f m\ndata 0x00002000 0x00003000 0x2000 /li",
                 3, CUT "3" CUT_WHY);
    /* cut inside the end line */
    EXPECT_ERROR("# smait address map v3\ncode 0x00001000 0x00001010 f m\n# end of addr", 3, CUT "3" CUT_WHY);
    /* a bad line before the cut is found first */
    EXPECT_ERROR("# smait address map v3\ncode 0x00001000 0x0000", 2, "END 0x00000000 is not above START 0x00001000");
    /* lines after the end */
    EXPECT_ERROR("# smait address map v3\n# end of address map\ncode 0x00001000 0x00001010 f m\n", 3,
                 "a line after the end of the map ('# end of address map' at line 2)");
    EXPECT_ERROR("# smait address map v3\n# end of address map\n\n# a comment\n", 4,
                 "a line after the end of the map ('# end of address map' at line 2)");
    /* a version this reader does not know */
    EXPECT_ERROR("# smait address map v4\ncode 0x00001000 0x00001010 f m\n# end of address map\n", 1,
                 "address map of format version 4: this reader knows versions 1 to 3 (formats/ADDRESS-MAP.md)");
}
END_TEST

/* A map that is not there, or not text: the file named, exit 2. */
START_TEST(missing_file)
{
    char path[4096], want[8192];
    snprintf(path, sizeof path, "%s", tu_file("no-such.map"));
    expect_refused(__LINE__, path, path, "cannot read: No such file or directory");
    snprintf(want, sizeof want, "ciat: %s: cannot read: No such file or directory\n", path);
    tu_assert_fatal(load_job, (void *)path, 2, want);
    static const char nul[] = "code 0x00001000 0x00001010 f m\ncode 0x00002000 0x00002010 f\0 m\n";
    snprintf(path, sizeof path, "%s", tu_file("nul.map"));
    tu_write(path, nul, sizeof nul - 1);
    expect_refused(__LINE__, path, path, "line 2: a NUL byte (not a text file?)");
    snprintf(want, sizeof want, "ciat: %s: line 2: a NUL byte (not a text file?)\n", path);
    tu_assert_fatal(load_job, (void *)path, 2, want);
}
END_TEST

Suite *addr_map_suite(void)
{
    Suite *s = suite_create("addr_map");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, reads_every_kind);
    tcase_add_test(tc, lookups);
    tcase_add_test(tc, v1_and_top);
    tcase_add_test(tc, random_against_linear);
    tcase_add_test(tc, bad_input);
    tcase_add_test(tc, kinds_independent);
    tcase_add_test(tc, v3_end_line);
    tcase_add_test(tc, v3_cut);
    tcase_add_test(tc, missing_file);
    suite_add_tcase(s, tc);
    return s;
}
