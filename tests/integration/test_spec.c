/* test_spec.c — what arcpathd says about itself: GET /openapi.yaml (the very bytes of proto/openapi.yaml,
 * embedded at build time) and GET /v1/info (version, limits, algorithm names and map count, each held to
 * its one source: config/version.h, the configuration in force, planner/base/limits.h, the algorithm
 * table, the maps the server lists). */
#include "tests/check_fast.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../config/version.h"
#include "../../planner/base/limits.h"
#include "../../planner/plan/algorithms.h"
#include "../util.h"
#include "harness.h"

Suite *spec_suite(void);

/* One exchange with the demo server about /openapi.yaml (header: one extra request line or NULL); fails
 * the test unless the answer has want_status. The caller frees *r. */
static void spec_request(const char *method, const char *header, long want_status, ap_resp *r)
{
    const char *headers[] = {header, NULL};
    if (strcmp(method, "POST") == 0)
        ck_assert_int_eq(ap_post(ap_demo_srv, "/openapi.yaml", "{}", r), 0);
    else
        ck_assert_int_eq(ap_http(ap_demo_srv, method, "/openapi.yaml", NULL, 0, header ? headers : NULL, r), 0);
    ck_assert_msg(r->status == want_status, "%s /openapi.yaml: HTTP %ld, want %ld", method, r->status, want_status);
}

START_TEST(openapi_yaml_is_the_file)
{
    size_t len = 0;
    char *file = ap_test_read_file("proto/openapi.yaml", &len);
    ck_assert_ptr_nonnull(file);
    ck_assert_uint_gt(len, 1000);

    ap_resp r;
    spec_request("GET", NULL, 200, &r);
    ck_assert_str_eq(r.content_type, "application/yaml");
    ck_assert_uint_eq(r.len, len);
    ck_assert_int_eq(memcmp(r.body, file, len), 0);
    ap_resp_free(&r);
    free(file);

    /* HEAD: the headers of a GET, no body. */
    spec_request("HEAD", NULL, 200, &r);
    ck_assert_str_eq(r.content_type, "application/yaml");
    ck_assert_uint_eq(r.len, 0);
    ap_resp_free(&r);

    /* A write method: 405 with the route's methods. */
    spec_request("POST", NULL, 405, &r);
    ck_assert_str_eq(r.allow, "GET, HEAD, OPTIONS");
    ap_resp_free(&r);
}
END_TEST

/* The spec is an embedded file like the viewer's: a client holding its ETag gets a 304 without a body.
 * The harness keeps no ETag; ask with one the file cannot have (200, the whole file) and with "*" (any
 * current entity: 304). */
START_TEST(openapi_yaml_revalidates)
{
    ap_resp r;
    spec_request("GET", "If-None-Match: \"1-1\"", 200, &r);
    ck_assert_uint_gt(r.len, 1000);
    ap_resp_free(&r);
    spec_request("GET", "If-None-Match: *", 304, &r);
    ck_assert_uint_eq(r.len, 0);
    ap_resp_free(&r);
}
END_TEST

static json_t *get_info(const ap_srv *s)
{
    ap_resp r;
    ck_assert_int_eq(ap_http(s, "GET", "/v1/info", NULL, 0, NULL, &r), 0);
    ck_assert_msg(r.status == 200, "GET /v1/info: HTTP %ld: %s", r.status, r.body);
    ck_assert_str_eq(r.content_type, "application/json");
    json_t *j = ap_resp_json(&r);
    ap_resp_free(&r);
    ck_assert_ptr_nonnull(j);
    return j;
}

/* The number of maps GET /v1/maps lists. */
static size_t listed_maps(const ap_srv *s)
{
    ap_resp r;
    ck_assert_int_eq(ap_http(s, "GET", "/v1/maps", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    json_t *j = ap_resp_json(&r);
    ap_resp_free(&r);
    ck_assert_ptr_nonnull(j);
    size_t n = json_array_size(json_object_get(j, "maps"));
    json_decref(j);
    return n;
}

/* Files named *.map or *.circles.json in dir: the maps a server on that folder loads. */
static size_t map_files(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if ((l > 4 && strcmp(e->d_name + l - 4, ".map") == 0) ||
            (l > 13 && strcmp(e->d_name + l - 13, ".circles.json") == 0))
            n++;
    }
    closedir(d);
    return n;
}

static json_int_t limit_int(json_t *info, const char *key)
{
    json_t *v = json_object_get(json_object_get(info, "limits"), key);
    ck_assert_msg(json_is_integer(v), "limits.%s is not an integer", key);
    return json_integer_value(v);
}

static double limit_real(json_t *info, const char *key)
{
    json_t *v = json_object_get(json_object_get(info, "limits"), key);
    ck_assert_msg(json_is_real(v), "limits.%s is not a real", key);
    return json_real_value(v);
}

START_TEST(info_on_the_demo_server)
{
    json_t *j = get_info(ap_demo_srv);
    ck_assert_uint_eq(json_object_size(j), 9);
    ck_assert_str_eq(json_string_value(json_object_get(j, "name")), "arcpath");
    /* the built-in vehicle kinds in their table's order, with README's values */
    json_t *veh = json_object_get(j, "vehicles");
    ck_assert_uint_eq(json_object_size(veh), 4);
    static const char *const vnames[] = {"pedestrian", "car", "tank", "ship"};
    /* max_turn_rate (the last) only for the kinds that turn on the spot (0 here: absent) */
    static const double vals[4][7] = {{2, 1.5, 3, 2, 0.5, 1, 3}, {14, 3, 6, 8, 6, 4, 0}, {10, 1.5, 3, 4, 3, 10, 0.8},
                                      {8, 0.3, 0.2, 1, 30, 2, 0}};
    static const char *const vkeys[] = {"max_speed",      "max_accel",         "max_brake",    "max_lateral_accel",
                                        "turning_radius", "max_reverse_speed", "max_turn_rate"};
    void *it = json_object_iter(veh);
    for (int i = 0; i < 4; i++, it = json_object_iter_next(veh, it)) {
        ck_assert_ptr_nonnull(it);
        ck_assert_str_eq(json_object_iter_key(it), vnames[i]);
        json_t *v = json_object_iter_value(it);
        ck_assert_uint_eq(json_object_size(v), vals[i][6] > 0 ? 7 : 6);
        for (int k = 0; k < 7; k++)
            ck_assert_double_eq(json_number_value(json_object_get(v, vkeys[k])), vals[i][k]);
    }
    ck_assert_uint_eq(json_object_size(json_object_get(j, "units")), 0); /* the demo config names no kinds */
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(j, "terrains"), 2)), "water");
    ck_assert_str_eq(json_string_value(json_object_get(j, "version")), ARCPATH_VERSION);
    const char *compiler = json_string_value(json_object_get(json_object_get(j, "build"), "compiler"));
    ck_assert_ptr_nonnull(compiler);
    ck_assert_msg(strncmp(compiler, "gcc ", 4) == 0 || strncmp(compiler, "clang ", 6) == 0, "compiler %s", compiler);

    /* The configured limits at their defaults (README "Configuration"), the planner's from limits.h. */
    ck_assert_uint_eq(json_object_size(json_object_get(j, "limits")), 13);
    ck_assert_int_eq(limit_int(j, "max_body_bytes"), 65536);
    ck_assert_int_eq(limit_int(j, "max_batch"), 256);
    ck_assert_int_eq(limit_int(j, "max_samples"), AP_DEFAULT_MAX_SAMPLES);
    ck_assert_int_eq(limit_int(j, "max_answer_bytes"), 33554432);
    ck_assert_int_eq(limit_int(j, "default_deadline_ms"), 5000);
    ck_assert_int_eq(limit_int(j, "max_deadline_ms"), 60000);
    ck_assert_double_eq(limit_real(j, "max_unit_radius"), AP_MAX_UNIT_RADIUS);
    ck_assert_double_eq(limit_real(j, "min_turning_radius"), 0.001);
    ck_assert_double_eq(limit_real(j, "max_turning_radius"), AP_MAX_TURNING_RADIUS);
    ck_assert_double_eq(limit_real(j, "min_sample_step"), AP_MIN_SAMPLE_STEP);
    /* the demo maps are small: the workspaces have the minimum size */
    ck_assert_int_eq(limit_int(j, "workspace_nodes"), AP_PLAN_MIN_WORKSPACE_NODES);
    ck_assert_int_eq(limit_int(j, "max_connections"), 512);
    ck_assert_int_eq(limit_int(j, "max_maps"), 4096);

    /* Exactly the algorithm table's names, in its order. */
    json_t *algs = json_object_get(j, "algorithms");
    ck_assert_uint_eq(json_array_size(algs), ap_algorithm_count);
    for (size_t i = 0; i < ap_algorithm_count; i++)
        ck_assert_str_eq(json_string_value(json_array_get(algs, i)), ap_algorithms[i].name);

    /* The maps loaded: every *.map and *.circles.json of config/maps, as GET /v1/maps lists them. */
    json_int_t maps = json_integer_value(json_object_get(j, "maps"));
    ck_assert_int_eq(maps, (json_int_t)map_files("config/maps"));
    ck_assert_int_eq(maps, (json_int_t)listed_maps(ap_demo_srv));
    json_decref(j);
}
END_TEST

/* The configured limits are the configuration in force, not the defaults restated. */
START_TEST(info_reports_the_configuration)
{
    const char *env[] = {"ARCPATH_MAX_BODY_BYTES=4096", "ARCPATH_MAX_BATCH=7", "ARCPATH_MAX_SAMPLES=123",
                         "ARCPATH_MAX_ANSWER_BYTES=131072", "ARCPATH_DEFAULT_DEADLINE_MS=250",
                         "ARCPATH_MAX_DEADLINE_MS=900", NULL};
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, env), 0);
    json_t *j = get_info(&s);
    ck_assert_int_eq(limit_int(j, "max_body_bytes"), 4096);
    ck_assert_int_eq(limit_int(j, "max_batch"), 7);
    ck_assert_int_eq(limit_int(j, "max_samples"), 123);
    ck_assert_int_eq(limit_int(j, "max_answer_bytes"), 131072);
    ck_assert_int_eq(limit_int(j, "default_deadline_ms"), 250);
    ck_assert_int_eq(limit_int(j, "max_deadline_ms"), 900);
    json_decref(j);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

/* Another folder, another count: the Moving AI server's maps (when the data is there). */
START_TEST(info_counts_the_moving_ai_maps)
{
    if (ap_mai_srv == NULL) {
        ap_test_skip_no_data("GET /v1/info on the Moving AI maps");
        return;
    }
    json_t *j = get_info(ap_mai_srv);
    json_int_t maps = json_integer_value(json_object_get(j, "maps"));
    ck_assert_int_eq(maps, (json_int_t)listed_maps(ap_mai_srv));
    ck_assert_int_ne(maps, (json_int_t)map_files("config/maps"));
    json_decref(j);
}
END_TEST

Suite *spec_suite(void)
{
    Suite *s = suite_create("spec");
    TCase *t = tcase_create("self");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, openapi_yaml_is_the_file);
    tcase_add_test(t, openapi_yaml_revalidates);
    tcase_add_test(t, info_on_the_demo_server);
    tcase_add_test(t, info_reports_the_configuration);
    tcase_add_test(t, info_counts_the_moving_ai_maps);
    suite_add_tcase(s, t);
    return s;
}
