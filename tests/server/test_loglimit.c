/* test_loglimit.c — server/loglimit.h: burst lines per window pass, the rest are dropped and counted, and
 * the first line of a later window carries the count. */
#include "tests/check_fast.h"
#include <stdint.h>

#include "server/loglimit.h"

Suite *loglimit_suite(void);

START_TEST(burst_then_drop_then_report)
{
    ap_loglimit l;
    ap_loglimit_init(&l, 3, 1000000000ull);
    uint64_t d = 99;
    const uint64_t t = 5000000000ull;
    for (int i = 0; i < 3; i++) {
        ck_assert(ap_loglimit_take(&l, t + (uint64_t)i, &d));
        ck_assert_uint_eq(d, 0);
    }
    for (int i = 0; i < 1000; i++)
        ck_assert(!ap_loglimit_take(&l, t + 10 + (uint64_t)i, &d));
    ck_assert_uint_eq(ap_loglimit_dropped(&l), 1000);
    ck_assert(!ap_loglimit_take(&l, t + 999999999ull, NULL)); /* still the same window */
    ck_assert(ap_loglimit_take(&l, t + 1000000000ull, &d));  /* a new one: says what it dropped */
    ck_assert_uint_eq(d, 1001);
    ck_assert(ap_loglimit_take(&l, t + 1000000001ull, &d));
    ck_assert_uint_eq(d, 0);
    ck_assert_uint_eq(ap_loglimit_dropped(&l), 1001);
    ap_loglimit_destroy(&l);
}
END_TEST

Suite *loglimit_suite(void)
{
    Suite *s = suite_create("loglimit");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, burst_then_drop_then_report);
    suite_add_tcase(s, tc);
    return s;
}
