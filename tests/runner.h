/* runner.h — how the test programs whose tests share no process-wide state run a Check runner. */
#ifndef AP_TEST_RUNNER_H
#define AP_TEST_RUNNER_H

#include <check.h>

/* srunner_run_all(sr, CK_NORMAL), except that under AddressSanitizer the tests run in this process
 * (CK_NOFORK) unless $CK_FORK says otherwise: with a child per test, LeakSanitizer's scan at every child's
 * exit cost ~0.3 s a test (95 of test-planner's 300 s of one core in the sanitizer pass, 2026-12-03), and
 * the one scan at this process's exit finds the same leaks (its report names where each was allocated).
 * Only for programs whose tests set no environment, signal handler or other process-wide state (test-planner,
 * test-proto; test-config's tests set environment variables and keep a child each). The plain build keeps a
 * child per test, and with it Check's timeouts. */
void ap_test_srunner_run(SRunner *sr);

#endif
