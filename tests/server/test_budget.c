/* test_budget.c — server/budget.h: per-client token buckets (a full bucket for a new client, an even
 * refill capped at the bucket size, clients independent, a zero budget never gives). */
#include "tests/check_fast.h"
#include <stdint.h>

#include "server/budget.h"

Suite *budget_suite(void);

#define SEC 1000000000ull

START_TEST(bucket_refills_evenly_per_client)
{
    ap_budget b;
    ck_assert_int_eq(ap_budget_init(&b, 6), 0); /* 6 a minute: one token per 10 s */
    const uint8_t a[4] = {10, 0, 0, 1}, c[4] = {10, 0, 0, 2};
    uint64_t t = 1000 * SEC;
    for (int i = 0; i < 6; i++)
        ck_assert(ap_budget_take(&b, a, 4, t));
    ck_assert(!ap_budget_take(&b, a, 4, t));
    ck_assert(ap_budget_take(&b, c, 4, t)); /* another client has its own bucket */
    ck_assert(!ap_budget_take(&b, a, 4, t + 9 * SEC));
    ck_assert(ap_budget_take(&b, a, 4, t + 10 * SEC + 1)); /* 10 s (+ the 9 s probe) gave one token */
    ck_assert(!ap_budget_take(&b, a, 4, t + 10 * SEC + 2));
    /* a long pause refills to the bucket size, not beyond */
    uint64_t later = t + 3600 * SEC;
    for (int i = 0; i < 6; i++)
        ck_assert(ap_budget_take(&b, a, 4, later));
    ck_assert(!ap_budget_take(&b, a, 4, later));
    /* an IPv6 address is its own client too; an empty address never gets a token */
    uint8_t v6[16] = {0x20, 0x01, 0x0d, 0xb8};
    ck_assert(ap_budget_take(&b, v6, 16, later));
    ck_assert(!ap_budget_take(&b, v6, 0, later));
    ap_budget_free(&b);
}
END_TEST

START_TEST(zero_budget_never_gives)
{
    ap_budget b;
    ck_assert_int_eq(ap_budget_init(&b, 0), 0);
    const uint8_t a[4] = {127, 0, 0, 1};
    ck_assert(!ap_budget_take(&b, a, 4, 5 * SEC));
    ck_assert(!ap_budget_take(&b, a, 4, 3600 * SEC));
    ap_budget_free(&b);
    ap_budget_free(&b); /* twice is harmless */
}
END_TEST

Suite *budget_suite(void)
{
    Suite *s = suite_create("budget");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, bucket_refills_evenly_per_client);
    tcase_add_test(tc, zero_budget_never_gives);
    suite_add_tcase(s, tc);
    return s;
}
