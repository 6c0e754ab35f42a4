/* test_etag.c — entity-tag lists and If-Match / If-None-Match (server/etag.h, RFC 9110 8.8.3, 13.1.1,
 * 13.1.2, 13.2.2). */
#include "tests/check_fast.h"
#include <string.h>

#include "server/etag.h"

Suite *etag_suite(void);

/* Strong comparison (If-Match) never takes a weak tag; weak comparison (If-None-Match) takes both; lists
 * with blanks and commas; a tag that is a prefix of another is not it. */
START_TEST(lists_compare_strong_and_weak)
{
    const char *t = "\"7.0000beef\"";
    ck_assert(ap_etag_list_has("\"7.0000beef\"", t, true));
    ck_assert(ap_etag_list_has("\"1.0\", \"7.0000beef\"", t, true));
    ck_assert(ap_etag_list_has(" \"1.0\" ,\t\"7.0000beef\" ", t, true));
    ck_assert(!ap_etag_list_has("W/\"7.0000beef\"", t, true));
    ck_assert(ap_etag_list_has("W/\"7.0000beef\"", t, false));
    ck_assert(!ap_etag_list_has("\"7.0000bee\"", t, false));
    ck_assert(!ap_etag_list_has("\"7.0000beefx\"", t, false));
    ck_assert(!ap_etag_list_has("7.0000beef", t, false)); /* unquoted: not the tag */
    ck_assert(!ap_etag_list_has(NULL, t, false));
    ck_assert(!ap_etag_list_has("", t, false));
    ck_assert(ap_etag_is_any("*"));
    ck_assert(ap_etag_is_any(" * "));
    ck_assert(!ap_etag_is_any("\"*\""));
    ck_assert(!ap_etag_is_any("*, \"1.0\""));
    ck_assert(!ap_etag_is_any(NULL));
}
END_TEST

/* The map ETag: version and boot tag, quoted; versions and processes differ. */
START_TEST(map_etags)
{
    char a[AP_MAP_ETAG_MAX], b[AP_MAP_ETAG_MAX];
    ap_map_etag(a, 7, 0xbeef);
    ck_assert_str_eq(a, "\"7.0000beef\"");
    ap_map_etag(b, 18446744073709551615u, 0xffffffffu);
    ck_assert_str_eq(b, "\"18446744073709551615.ffffffff\"");
    ap_map_etag(b, 7, 0xbeee);
    ck_assert_str_ne(a, b);
}
END_TEST

/* The outcomes, If-Match first: 412 when it names no current tag (or there is no current representation);
 * If-None-Match naming the current tag or "*" with one: 304 to a GET, 412 to a change; absent headers 200. */
START_TEST(preconditions)
{
    const char *t = "\"3.00000001\"";
    ck_assert_int_eq(ap_etag_precondition(NULL, NULL, t, false), 200);
    ck_assert_int_eq(ap_etag_precondition(NULL, NULL, NULL, false), 200);
    ck_assert_int_eq(ap_etag_precondition(t, NULL, t, false), 200);
    ck_assert_int_eq(ap_etag_precondition("\"2.00000001\"", NULL, t, false), 412);
    ck_assert_int_eq(ap_etag_precondition("W/\"3.00000001\"", NULL, t, false), 412);
    ck_assert_int_eq(ap_etag_precondition("*", NULL, t, false), 200);
    ck_assert_int_eq(ap_etag_precondition("*", NULL, NULL, false), 412);
    ck_assert_int_eq(ap_etag_precondition(t, NULL, NULL, false), 412);
    ck_assert_int_eq(ap_etag_precondition(NULL, "*", t, false), 412);
    ck_assert_int_eq(ap_etag_precondition(NULL, "*", NULL, false), 200);
    ck_assert_int_eq(ap_etag_precondition(NULL, "*", t, true), 304);
    ck_assert_int_eq(ap_etag_precondition(NULL, "W/\"3.00000001\"", t, true), 304);
    ck_assert_int_eq(ap_etag_precondition(NULL, "\"2.00000001\"", t, true), 200);
    /* If-Match decides first: a failing If-Match is 412 even where If-None-Match would give 304 */
    ck_assert_int_eq(ap_etag_precondition("\"2.00000001\"", t, t, true), 412);
    ck_assert_int_eq(ap_etag_precondition(t, "\"2.00000001\"", t, false), 200);
}
END_TEST

Suite *etag_suite(void)
{
    Suite *s = suite_create("server/etag");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, lists_compare_strong_and_weak);
    tcase_add_test(tc, map_etags);
    tcase_add_test(tc, preconditions);
    suite_add_tcase(s, tc);
    return s;
}
