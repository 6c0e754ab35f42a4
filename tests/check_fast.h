/* check_fast.h — Check (check.h) with assertions that cost nothing when they pass. Every test file includes
 * this instead of <check.h>.
 *
 * Check's ck_assert_msg, on which every ck_assert_* macro is built, calls _mark_point on each passing
 * assertion: one write(2) of the file and line to the runner's message file, so that a test that crashes is
 * reported "after" the last assertion it passed. The tests check millions of values in loops (every line of a
 * scenario file, every cell of a table), and those writes were a fifth of test-planner's time and most of its
 * system time. Here a passing assertion is only its comparison; a failing one reports as before (file, line,
 * the values). A crash is still reported with its test's name, and under the sanitizers with a stack. */
#ifndef AP_TEST_CHECK_FAST_H
#define AP_TEST_CHECK_FAST_H

#include <check.h>

#undef ck_assert_msg
#define ck_assert_msg(expr, ...)                                                                                 \
    ((expr) ? (void)0 : _ck_assert_failed(__FILE__, __LINE__, "Assertion '" #expr "' failed", ##__VA_ARGS__))

#endif
