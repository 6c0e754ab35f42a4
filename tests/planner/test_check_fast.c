/* test_check_fast.c — tests/check_fast.h: assertions that pass cost no write, and ones that fail still fail
 * their test with the file, the line and the values, in a runner of its own (a forked child per test, so a
 * failing inner test ends its child, not this test). */
#include <stdlib.h>
#include <string.h>

#include "suites.h"

START_TEST(passes)
{
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(i * 2, i + i);
    ck_assert_double_eq_tol(0.1 + 0.2, 0.3, 1e-12);
    ck_assert_str_eq("arc", "arc");
    ck_assert(1);
}
END_TEST

enum { THIRD_VALUE_LINE = __LINE__ + 4 }; /* the assertion's line below */
START_TEST(fails_on_the_third_value)
{
    for (int i = 0; i < 5; i++)
        ck_assert_int_ne(i, 2);
}
END_TEST

START_TEST(fails_with_a_message)
{
    ck_assert_msg(strlen("arc") == 4, "the length is %zu", strlen("arc"));
}
END_TEST

START_TEST(failures_are_reported_with_line_and_values)
{
    Suite *s = suite_create("inner");
    TCase *tc = tcase_create("inner");
    tcase_add_test(tc, passes);
    tcase_add_test(tc, fails_on_the_third_value);
    tcase_add_test(tc, fails_with_a_message);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_FORK);
    /* its logs nowhere: CK_XML_LOG_FILE_NAME and the like name the outer runner's, which this would replace */
    srunner_set_log(sr, "/dev/null");
    srunner_set_xml(sr, "/dev/null");
    srunner_set_tap(sr, "/dev/null");
    srunner_run(sr, "inner", "inner", CK_SILENT); /* by name: CK_RUN_SUITE names the outer suite */
    ck_assert_int_eq(srunner_ntests_run(sr), 3);
    ck_assert_int_eq(srunner_ntests_failed(sr), 2);
    TestResult **f = srunner_failures(sr);
    ck_assert_ptr_nonnull(f);
    /* in the order they ran: the loop's third value, then the message */
    ck_assert_int_eq(tr_rtype(f[0]), CK_FAILURE);
    ck_assert_str_eq(tr_tcname(f[0]), "inner");
    ck_assert_ptr_nonnull(strstr(tr_lfile(f[0]), "test_check_fast.c"));
    ck_assert_int_eq(tr_lno(f[0]), THIRD_VALUE_LINE);
    ck_assert_str_eq(tr_msg(f[0]), "Assertion 'i != 2' failed: i == 2, 2 == 2");
    ck_assert_int_eq(tr_rtype(f[1]), CK_FAILURE);
    ck_assert_str_eq(tr_msg(f[1]), "the length is 3");
    free(f);
    srunner_free(sr);
}
END_TEST

Suite *check_fast_suite(void)
{
    Suite *s = suite_create("check_fast");
    TCase *tc = tcase_create("assertions");
    tcase_add_test(tc, failures_are_reported_with_line_and_values);
    suite_add_tcase(s, tc);
    return s;
}
