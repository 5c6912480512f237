/* test_decimal.c — base/decimal.h against printf's %llu and %lld: the
 * limits, every power of ten and its neighbours, and random values. */
#include "suites.h"
#include "../../base/decimal.h"

#include <inttypes.h>
#include <stdio.h>

#define REQUIRE(cond, ...) do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)

static void same_u(uint64_t v)
{
    char want[32], got[32];
    snprintf(want, sizeof want, "%" PRIu64, v);
    *decimal_u64(got, v) = '\0';
    REQUIRE(strcmp(want, got) == 0, "decimal_u64(%s) gave %s", want, got);
}

static void same_i(int64_t v)
{
    char want[32], got[32];
    snprintf(want, sizeof want, "%" PRId64, v);
    *decimal_i64(got, v) = '\0';
    REQUIRE(strcmp(want, got) == 0, "decimal_i64(%s) gave %s", want, got);
}

START_TEST(like_printf)
{
    same_u(0);
    same_u(UINT64_MAX);
    same_i(0);
    same_i(-1);
    same_i(INT64_MIN);
    same_i(INT64_MAX);
    for (uint64_t p = 1; p <= UINT64_MAX / 10; p *= 10) {
        same_u(p - 1);
        same_u(p);
        same_u(p + 1);
        same_i(-(int64_t)p);
    }
    uint64_t s = 1;
    for (int i = 0; i < 100000; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        same_u(s >> (s & 63));
        same_i((int64_t)s >> (s & 31));
    }
}
END_TEST

Suite *decimal_suite(void)
{
    Suite *s = suite_create("decimal");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, like_printf);
    suite_add_tcase(s, tc);
    return s;
}
