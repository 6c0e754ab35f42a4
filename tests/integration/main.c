/* main.c — integration tests: real arcpathd processes on loopback ports, queried over HTTP with libcurl.
 *
 * Two servers are shared by the suites: one on the demo maps (config/maps, always), one on the Moving AI
 * folder (only when the data is there; in CI it must be). Suites that start servers of their own (lanes
 * under overload, shutdown) do so themselves. */
#include <check.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>

#include "../util.h"
#include "harness.h"

Suite *api_suite(void);
Suite *errors_suite(void);
Suite *lanes_suite(void);
Suite *lifecycle_suite(void);
Suite *batch_suite(void);
Suite *profiles_suite(void);
Suite *terrain_suite(void);
Suite *units_suite(void);
Suite *viewer_suite(void);
Suite *spec_suite(void);
Suite *hardening_suite(void);
Suite *live_maps_suite(void);
Suite *render_suite(void);
Suite *conventions_suite(void);
Suite *anyangle_suite(void);
Suite *kino_suite(void);
Suite *timing_suite(void);

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    static ap_srv demo, mai;
    if (ap_srv_start(&demo, "config/maps", NULL, NULL) != 0) {
        fprintf(stderr, "cannot start arcpathd on config/maps\n");
        return 1;
    }
    ap_demo_srv = &demo;
    ap_mai_dir = ap_test_data_dir();
    if (ap_mai_dir) {
        if (ap_srv_start(&mai, ap_mai_dir, NULL, NULL) != 0) {
            fprintf(stderr, "cannot start arcpathd on %s\n", ap_mai_dir);
            ap_srv_stop(&demo);
            return 1;
        }
        ap_mai_srv = &mai;
    } else {
        ap_test_skip_no_data("integration tests on Moving AI maps");
    }

    SRunner *sr = srunner_create(api_suite());
    srunner_add_suite(sr, errors_suite());
    srunner_add_suite(sr, lanes_suite());
    srunner_add_suite(sr, lifecycle_suite());
    srunner_add_suite(sr, batch_suite());
    srunner_add_suite(sr, profiles_suite());
    srunner_add_suite(sr, terrain_suite());
    srunner_add_suite(sr, units_suite());
    srunner_add_suite(sr, viewer_suite());
    srunner_add_suite(sr, spec_suite());
    srunner_add_suite(sr, hardening_suite());
    srunner_add_suite(sr, live_maps_suite());
    srunner_add_suite(sr, render_suite());
    srunner_add_suite(sr, conventions_suite());
    srunner_add_suite(sr, anyangle_suite());
    srunner_add_suite(sr, kino_suite());
    srunner_add_suite(sr, timing_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);

    /* A clean SIGTERM shutdown of the shared servers is itself a test: exit status must be 0. */
    int st = ap_srv_stop(&demo);
    if (st != 0) {
        fprintf(stderr, "demo arcpathd exited with %d after SIGTERM, want 0\n", st);
        failed++;
    }
    if (ap_mai_srv && (st = ap_srv_stop(&mai)) != 0) {
        fprintf(stderr, "Moving AI arcpathd exited with %d after SIGTERM, want 0\n", st);
        failed++;
    }
    curl_global_cleanup();
    return failed ? 1 : 0;
}
