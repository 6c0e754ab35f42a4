/* main.c — integration tests: real arcpathd processes on loopback ports, queried over HTTP with libcurl.
 *
 * Two servers are shared by the suites: one on the demo maps (config/maps, always), one on the Moving AI
 * folder (only when the data is there; in CI it must be). Suites that start servers of their own (lanes
 * under overload, shutdown) do so themselves. */
#include "tests/check_fast.h"
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

static char small_dir[64];
static char *small_conf; /* ap_mai_small_args's config file */
static const char *small_args[3];
static const char *const small_maps[] = {"Paris_1_1024.map", "den520d.map"};

/* ap_mai_small_dir: a new folder under /tmp with a symbolic link to each of small_maps in dir. 0 or -1. */
static int make_small_dir(const char *dir)
{
    snprintf(small_dir, sizeof small_dir, "/tmp/arcpath-mai-XXXXXX");
    if (mkdtemp(small_dir) == NULL)
        return -1;
    ap_mai_small_dir = small_dir;
    small_conf = ap_test_temp_file("arcpath-mai-conf",
                                    "{\"skip_tables\": {\"Paris_1_1024\": [\"any_angle\", \"hier\"], \"*\": [\"any_angle\"]}}\n");
    if (small_conf == NULL)
        return -1;
    small_args[0] = "--config";
    small_args[1] = small_conf;
    ap_mai_small_args = small_args;
    char *abs = realpath(dir, NULL);
    if (abs == NULL)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < sizeof small_maps / sizeof *small_maps && rc == 0; i++) {
        char to[4096], at[128];
        snprintf(to, sizeof to, "%s/%s", abs, small_maps[i]);
        snprintf(at, sizeof at, "%s/%s", small_dir, small_maps[i]);
        rc = symlink(to, at);
    }
    free(abs);
    return rc;
}

static void remove_small_dir(void)
{
    if (small_conf != NULL) {
        unlink(small_conf);
        free(small_conf);
        small_conf = NULL;
    }
    if (ap_mai_small_dir == NULL)
        return;
    for (size_t i = 0; i < sizeof small_maps / sizeof *small_maps; i++) {
        char at[128];
        snprintf(at, sizeof at, "%s/%s", small_dir, small_maps[i]);
        unlink(at);
    }
    rmdir(small_dir);
}

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
        /* loads while the suites on the demo maps run (ap_srv_spawn): they come first below */
        if (ap_srv_spawn(&mai, ap_mai_dir, NULL, NULL) != 0) {
            fprintf(stderr, "cannot start arcpathd on %s\n", ap_mai_dir);
            ap_srv_stop(&demo);
            return 1;
        }
        ap_mai_srv = &mai;
        if (make_small_dir(ap_mai_dir) != 0) {
            fprintf(stderr, "cannot make a folder of links to %s's maps\n", ap_mai_dir);
            remove_small_dir();
            ap_srv_stop(&mai);
            ap_srv_stop(&demo);
            return 1;
        }
    } else {
        ap_test_skip_no_data("integration tests on Moving AI maps");
    }

    /* The suites that never ask the shared Moving AI server first (lifecycle and hardening start servers of
     * their own, on its small folder too), so its maps load meanwhile; those that ask it (spec, api, batch,
     * lanes, anyangle) last. */
    SRunner *sr = srunner_create(errors_suite());
    srunner_add_suite(sr, lifecycle_suite());
    srunner_add_suite(sr, hardening_suite());
    srunner_add_suite(sr, profiles_suite());
    srunner_add_suite(sr, terrain_suite());
    srunner_add_suite(sr, units_suite());
    srunner_add_suite(sr, viewer_suite());
    srunner_add_suite(sr, live_maps_suite());
    srunner_add_suite(sr, render_suite());
    srunner_add_suite(sr, conventions_suite());
    srunner_add_suite(sr, kino_suite());
    srunner_add_suite(sr, timing_suite());
    srunner_add_suite(sr, spec_suite());
    srunner_add_suite(sr, api_suite());
    srunner_add_suite(sr, batch_suite());
    srunner_add_suite(sr, lanes_suite());
    srunner_add_suite(sr, anyangle_suite());
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
    remove_small_dir();
    curl_global_cleanup();
    return failed ? 1 : 0;
}
