/* test_attribution.c — common/attribution: the top N of every figure against a
 * plain model (every key named, merged by name, sorted by count then name),
 * for random keys with and without a map, N from 1 to more than the keys:
 * the tables name only the keys that can be listed, and must list exactly
 * what naming all of them would. Also the data keys (object, heap, mapping,
 * else the line) and the option's value. */
#include "suites.h"
#include "../../common/attribution.h"
#include "../../common/out_file.h"
#include "../../common/report.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const figs[] = { "a", "b", "c" };

/* The map: functions f0..f7 over 0x1000-0x1fff (512 bytes each), source
 * lines over the first half of each; objects and heap ranges in 0x10000-0x1ffff,
 * a mapping over 0x10000-0x17fff. */
static const char *write_map(void)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/attr-%ld.map", tu_dir, (long)getpid());
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 8; i++) fprintf(f, "code 0x%08x 0x%08x f%d m\n", 0x1000 + 512 * i, 0x1200 + 512 * i, i);
    for (int i = 0; i < 8; i++) fprintf(f, "line 0x%08x 0x%08x %d a.c\n", 0x1000 + 512 * i, 0x1100 + 512 * i, 10 + i % 3);
    fprintf(f, "data 0x00010000 0x00018000 0x0000000000010000 [anonymous]\n");
    for (int i = 0; i < 6; i++) fprintf(f, "object 0x%08x 0x%08x o%d a.c:%d\n", 0x10000 + 256 * i, 0x10040 + 256 * i, i % 4, i);
    for (int i = 0; i < 6; i++)
        fprintf(f, "heap 0x%08x 0x%08x 1 0x%08x\n", 0x14000 + 256 * i, 0x14080 + 256 * i, 0x1000 + 512 * (i % 3));
    fclose(f);
    return path;
}

typedef struct ent {
    char name[256];
    uint64_t n[3];
} ent;

static int fig_sort;
static int cmp_ent(const void *x, const void *y)
{
    const ent *a = x, *b = y;
    if (a->n[fig_sort] != b->n[fig_sort]) return a->n[fig_sort] > b->n[fig_sort] ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* The name the report gives a key, from the report's own naming (a one-key
 * table of that key). */
static void name_alone(const addr_map *m, bool code, uint64_t key, char *out, size_t cap)
{
    char path[4096];
    static unsigned serial;
    snprintf(path, sizeof path, "%s/one-%ld-%u", tu_dir, (long)getpid(), serial++);
    attr *a = attr_new(1, figs);
    attr_add(a, key, 0);
    report *r = report_open(path);
    attr_report(a, r, 50, "t", code, m, 1);
    report_finish(r);
    out_file_commit_all();
    attr_free(a);
    size_t n;
    char *text = (char *)tu_read(path, &n);
    const char *p = strstr(text, "count 1 ");
    ck_assert_ptr_nonnull(p);
    p += 8;
    size_t len = strcspn(p, "\n");
    ck_assert_uint_lt(len, cap);
    memcpy(out, p, len);
    out[len] = '\0';
    free(text);
}

static uint64_t key_of(const addr_map *m, bool code, uint32_t idx, int nkeys)
{
    if (code) return idx == (uint32_t)nkeys ? ATTR_UNKNOWN : 0x800 + 4 * idx;   /* some below the map */
    return attr_data_key(m, 0xf000 + 8 * idx, 64);
}

static void check_round(const addr_map *m, bool code, unsigned seed, int nkeys, uint32_t top)
{
    attr *a = attr_new(3, figs);
    ent *model = calloc((size_t)nkeys + 2, sizeof *model);
    char (*names)[256] = calloc((size_t)nkeys + 1, sizeof *names);
    for (int i = 0; i <= nkeys; i++) name_alone(m, code, key_of(m, code, (uint32_t)i, nkeys), names[i], sizeof names[i]);
    int nm = 0;
    uint64_t x = seed;
    for (int i = 0; i < nkeys * 40; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t idx = (uint32_t)(x >> 33) % (uint32_t)(nkeys + (code ? 1 : 0));
        int fig = (int)((x >> 20) % 3);
        attr_add(a, key_of(m, code, idx, nkeys), fig);
        int j = 0;
        while (j < nm && strcmp(model[j].name, names[idx]) != 0) j++;
        if (j == nm) snprintf(model[nm++].name, sizeof model[0].name, "%s", names[idx]);
        model[j].n[fig]++;
    }
    free(names);
    char path[4096];
    snprintf(path, sizeof path, "%s/round-%ld-%u", tu_dir, (long)getpid(), seed);
    report *r = report_open(path);
    attr_report(a, r, 50, "t", code, m, top);
    report_finish(r);
    out_file_commit_all();
    attr_free(a);
    /* the model's lines */
    size_t cap = 1 << 20, len = 0;
    char *want = malloc(cap);
    for (int f = 0; f < 3; f++) {
        fig_sort = f;
        qsort(model, (size_t)nm, sizeof *model, cmp_ent);
        for (int i = 0; i < nm && (uint32_t)i < top && model[i].n[f]; i++)
            len += (size_t)snprintf(want + len, cap - len, "RxTxL50: t_%s rank %d count %" PRIu64 " %s\n", figs[f],
                                    i + 1, model[i].n[f], model[i].name);
    }
    size_t n;
    char *got = (char *)tu_read(path, &n);
    const char *body = strstr(got, "RxTxL50:");
    ck_assert_ptr_nonnull(body);
    ck_assert_msg(strcmp(body, want) == 0, "seed %u top %u:\n%s\nwanted\n%s", seed, top, body, want);
    free(got);
    free(want);
    free(model);
}

START_TEST(top_against_model)
{
    addr_map m;
    am_error err;
    ck_assert(am_load(&m, write_map(), &err));
    static const uint32_t tops[] = { 1, 2, 3, 7, 1000 };
    unsigned seed = 1;
    for (int code = 0; code < 2; code++)
        for (int withmap = 0; withmap < 2; withmap++)
            for (int t = 0; t < 5; t++, seed++)
                check_round(withmap ? &m : NULL, code, seed, code ? 700 : 400, tops[t]);
    am_free(&m);
}
END_TEST

START_TEST(data_keys)
{
    addr_map m;
    am_error err;
    ck_assert(am_load(&m, write_map(), &err));
    /* no map, or nothing in it: the line */
    ck_assert_uint_eq(attr_data_key(NULL, 0x10044, 64), 0x10040);
    ck_assert_uint_eq(attr_data_key(&m, 0x18044, 32), 0x18040);
    /* object, heap, mapping: one key per entry, whatever the address in it */
    ck_assert_uint_eq(attr_data_key(&m, 0x10000, 64), attr_data_key(&m, 0x1003f, 64));
    ck_assert_uint_ne(attr_data_key(&m, 0x10000, 64), attr_data_key(&m, 0x10100, 64));
    ck_assert_uint_eq(attr_data_key(&m, 0x14000, 64), attr_data_key(&m, 0x1407f, 64));
    ck_assert_uint_eq(attr_data_key(&m, 0x10040, 64), attr_data_key(&m, 0x17fff, 64));
    ck_assert_uint_gt(attr_data_key(&m, 0x10040, 64), UINT32_MAX);
    am_free(&m);
}
END_TEST

START_TEST(option_value)
{
    uint32_t top = 0;
    char buf[32];
    attr_top_show(&top, buf, sizeof buf);
    ck_assert_str_eq(buf, "no");
    ck_assert_ptr_null(attr_top_parse(&top, NULL));
    ck_assert_uint_eq(top, ATTR_DEFAULT_TOP);
    ck_assert_ptr_null(attr_top_parse(&top, "25"));
    attr_top_show(&top, buf, sizeof buf);
    ck_assert_str_eq(buf, "25");
    ck_assert_ptr_nonnull(attr_top_parse(&top, "0"));
    ck_assert_ptr_nonnull(attr_top_parse(&top, "1000001"));
    ck_assert_ptr_nonnull(attr_top_parse(&top, "5x"));
    ck_assert_ptr_nonnull(attr_top_parse(&top, ""));
    ck_assert_uint_eq(top, 25);
}
END_TEST

/* An access's pc is the last fetched instruction's only at the clock that
 * instruction ran: a run of n ends at clock + n - 1, pc + 4(n - 1). */
START_TEST(pc_tracker)
{
    attr_pcs p;
    attr_pcs_init(&p, 3);
    attr_pcs_fetch(&p, 1, 10, 0x1000);
    ck_assert_uint_eq(attr_pcs_at(&p, 1, 10), 0x1000);
    ck_assert_uint_eq(attr_pcs_at(&p, 1, 11), ATTR_UNKNOWN);
    ck_assert_uint_eq(attr_pcs_at(&p, 2, 10), ATTR_UNKNOWN);   /* another thread: no fetch at 10 */
    attr_pcs_run(&p, 1, 20, 0x2000, 5);
    ck_assert_uint_eq(attr_pcs_at(&p, 1, 24), 0x2000 + 4 * ISTREAM_INSN_BYTES);
    ck_assert_uint_eq(attr_pcs_at(&p, 1, 20), ATTR_UNKNOWN);
    attr_pcs_run(&p, 1, 30, 0x3000, 0);                        /* an empty run changes nothing */
    ck_assert_uint_eq(attr_pcs_at(&p, 1, 24), 0x2000 + 4 * ISTREAM_INSN_BYTES);
    attr_pcs_run(&p, 0, 0xffffffffu, 0xfffffffcu, 2);          /* no 32-bit wrap of clock or pc */
    ck_assert_uint_eq(attr_pcs_at(&p, 0, 0x100000000u), 0x100000000u);
    attr_pcs_free(&p);
    ck_assert_ptr_null(p.pc);
    attr_pcs none = { 0 };                                     /* attribution off: never made */
    attr_pcs_free(&none);
    ck_assert_ptr_null(none.clock);
}
END_TEST

Suite *attribution_suite(void)
{
    Suite *s = suite_create("attribution");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, top_against_model);
    tcase_add_test(tc, data_keys);
    tcase_add_test(tc, option_value);
    tcase_add_test(tc, pc_tracker);
    suite_add_tcase(s, tc);
    return s;
}
