/* main.c — test-proto: runs every proto/ suite; exit status 0 only if all pass. */
#include "tests/check_fast.h"
#include <stdlib.h>

#include "tests/proto/suites.h"
#include "tests/runner.h"

int main(void)
{
    SRunner *sr = srunner_create(errors_suite());
    srunner_add_suite(sr, wire_suite());
    srunner_add_suite(sr, curve_wire_suite());
    srunner_add_suite(sr, json_suite());
    srunner_add_suite(sr, circles_file_suite());
    srunner_add_suite(sr, render_suite());
    ap_test_srunner_run(sr);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
