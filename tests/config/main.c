/* main.c — test-config: runs every config/ suite; exit status 0 only if all pass. */
#include "tests/check_fast.h"
#include <stdlib.h>

#include "tests/config/suites.h"
#include "tests/runner.h"

int main(void)
{
    SRunner *sr = srunner_create(config_suite());
    ap_test_srunner_run(sr);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
