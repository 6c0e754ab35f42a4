/* main.c — runs every server/ suite (metrics, route, registry, lanes, curve route, budget, log limit, HTTP
 * conventions, lifecycle, access log, table work, entity tags, profile preload). */
#include "tests/check_fast.h"
#include <stdlib.h>

#include "tests/runner.h"

Suite *metrics_suite(void);
Suite *route_suite(void);
Suite *registry_suite(void);
Suite *lanes_suite(void);
Suite *curve_route_suite(void);
Suite *budget_suite(void);
Suite *loglimit_suite(void);
Suite *lifecycle_suite(void);
Suite *conventions_suite(void);
Suite *accesslog_suite(void);
Suite *tablework_suite(void);
Suite *etag_suite(void);
Suite *profiles_route_suite(void);

int main(void)
{
    SRunner *sr = srunner_create(metrics_suite());
    srunner_add_suite(sr, profiles_route_suite());
    srunner_add_suite(sr, route_suite());
    srunner_add_suite(sr, registry_suite());
    srunner_add_suite(sr, lanes_suite());
    srunner_add_suite(sr, curve_route_suite());
    srunner_add_suite(sr, budget_suite());
    srunner_add_suite(sr, loglimit_suite());
    srunner_add_suite(sr, lifecycle_suite());
    srunner_add_suite(sr, conventions_suite());
    srunner_add_suite(sr, accesslog_suite());
    srunner_add_suite(sr, tablework_suite());
    srunner_add_suite(sr, etag_suite());
    ap_test_srunner_run(sr);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
