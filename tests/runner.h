/* runner.h — how the test programs whose tests share no process-wide state run a Check runner. */
#ifndef AP_TEST_RUNNER_H
#define AP_TEST_RUNNER_H

#include "tests/check_fast.h"

/* srunner_run_all(sr, CK_NORMAL), except that under AddressSanitizer the tests run in this process
 * (CK_NOFORK) unless $CK_FORK says otherwise: with a child per test, LeakSanitizer's scan at every child's
 * exit cost ~0.3 s a test (95 of test-planner's 300 s of one core in the sanitizer pass, 2026-12-03), and
 * the one scan at this process's exit finds the same leaks (its report names where each was allocated).
 * Only for programs whose tests leave no process-wide state behind: test-planner, test-proto, test-config
 * (its checked fixture unsets every ARCPATH_* variable before each test, and config.c resets getopt) and
 * test-server (its one SIGPIPE handler is restored by the test that sets it; the libuv pool stays the
 * process's, as many threads as the first test's lanes asked for, so its lanes tests that need their jobs in
 * order send them one by one: test_lanes.c send_settled); there a forked child per test
 * cost 12 s of test-config's 13 and 8 s of test-server's 20 (2026-12-07). Not test-integration, whose tests
 * set rlimits in their own process. The plain build keeps a child per test, and with it Check's timeouts
 * (it runs first: a test that hangs fails there). */
void ap_test_srunner_run(SRunner *sr);

#endif
