/* test_profiles.c — unit-profile tables over HTTP: GET /v1/profiles lists the profiles a turning query
 * built (bytes > 0, hits counted), the profile metrics, config-preloaded profiles listed before any query,
 * and --check-config verdicts on the "profiles" key. */
#include "tests/check_fast.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../util.h"
#include "harness.h"

Suite *profiles_suite(void);

/* A temp file holding text; returns its malloc'd path (caller unlinks and frees). */
static char *temp_conf(const char *text)
{
    char *path = ap_test_temp_file("arcpath-profiles-conf", text);
    ck_assert_ptr_nonnull(path);
    return path;
}

/* The /v1/profiles entry with this key, or NULL (borrowed from list). */
static json_t *find_profile(json_t *list, double radius, double R, int headings, int nb, bool reverse)
{
    size_t i;
    json_t *p;
    json_array_foreach(list, i, p) {
        if (json_number_value(json_object_get(p, "radius")) == radius &&
            json_number_value(json_object_get(p, "turning_radius")) == R &&
            json_integer_value(json_object_get(p, "headings")) == headings &&
            json_integer_value(json_object_get(p, "neighbourhood")) == nb &&
            json_is_true(json_object_get(p, "reverse")) == reverse)
            return p;
    }
    return NULL;
}

static json_t *get_profiles(const ap_srv *s)
{
    ap_resp r;
    ck_assert_int_eq(ap_http(s, "GET", "/v1/profiles", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.content_type, "application/json");
    json_t *j = ap_resp_json(&r);
    ap_resp_free(&r);
    ck_assert_ptr_nonnull(j);
    ck_assert(json_is_array(json_object_get(j, "profiles")));
    ck_assert_int_eq(json_integer_value(json_object_get(j, "count")),
                     (json_int_t)json_array_size(json_object_get(j, "profiles")));
    ck_assert_int_eq(json_integer_value(json_object_get(j, "capacity")), 32);
    return j;
}

START_TEST(turning_query_creates_profile)
{
    const ap_srv *s = ap_demo_srv;
    /* A profile no other suite uses: unit radius 0.35, turning radius 1.75, Directional8. */
    json_t *before = get_profiles(s);
    ck_assert_ptr_null(find_profile(json_object_get(before, "profiles"), 0.35, 1.75, 8, 8, false));
    json_decref(before);
    const char *q = "{\"map\":\"rooms\",\"start\":{\"x\":3.5,\"y\":3.5,\"heading\":0},\"goal\":{\"x\":20.5,\"y\":15.5},"
                    "\"unit\":{\"radius\":0.35,\"turning_radius\":1.75},\"search\":{\"algorithm\":\"directional8\"}}";
    for (int i = 0; i < 2; i++) {
        ap_resp r;
        ck_assert_int_eq(ap_post(s, "/v1/path", q, &r), 0);
        ck_assert_msg(r.status == 200, "status %ld: %s", r.status, r.body);
        ap_resp_free(&r);
    }
    json_t *after = get_profiles(s);
    json_t *p = find_profile(json_object_get(after, "profiles"), 0.35, 1.75, 8, 8, false);
    ck_assert_msg(p != NULL, "profile not listed");
    ck_assert_int_gt(json_integer_value(json_object_get(p, "bytes")), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(p, "edges")), 8 * 8 * 8);
    ck_assert_double_gt(json_number_value(json_object_get(p, "build_ms")), 0.0);
    ck_assert_int_ge(json_integer_value(json_object_get(p, "hits")), 1); /* the second query found it */
    ck_assert_int_ge(json_integer_value(json_object_get(after, "bytes")), json_integer_value(json_object_get(p, "bytes")));
    json_decref(after);

    /* The metrics show the cache. */
    ap_resp m;
    ck_assert_int_eq(ap_http(s, "GET", "/metrics", NULL, 0, NULL, &m), 0);
    ck_assert_int_eq(m.status, 200);
    ck_assert_double_ge(ap_metric(m.body, "arcpath_profiles_cached", ""), 1.0);
    ck_assert_double_gt(ap_metric(m.body, "arcpath_profile_table_bytes", ""), 0.0);
    ck_assert_double_gt(ap_metric(m.body, "arcpath_profile_build_seconds_total", ""), 0.0);
    ck_assert_double_ge(ap_metric(m.body, "arcpath_requests_total", "route=\"/v1/profiles\",code=\"200\""), 2.0);
    ap_resp_free(&m);

    /* Wrong method: 405 with Allow. */
    ap_resp r;
    ck_assert_int_eq(ap_post(s, "/v1/profiles", "{}", &r), 0);
    ck_assert_int_eq(r.status, 405);
    ap_resp_free(&r);
}
END_TEST

START_TEST(preloaded_profile_listed_before_any_query)
{
    char *conf = temp_conf("{\"profiles\": [{\"radius\": 0.3, \"turning_radius\": 2, \"neighbourhood\": 48},"
                           " {\"radius\": 0.25, \"turning_radius\": 1.5, \"headings\": 16, \"neighbourhood\": 8,"
                           " \"reverse\": true}]}");
    const char *args[] = {"--config", conf, NULL};
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", args, NULL), 0);
    json_t *j = get_profiles(&s);
    json_t *list = json_object_get(j, "profiles");
    ck_assert_uint_eq(json_array_size(list), 2);
    json_t *a = find_profile(list, 0.3, 2.0, 8, 48, false), *b = find_profile(list, 0.25, 1.5, 16, 8, true);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_gt(json_integer_value(json_object_get(a, "bytes")), 0);
    ck_assert_int_gt(json_integer_value(json_object_get(b, "bytes")), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(a, "hits")), 0);
    json_decref(j);

    /* A hybrid query of that unit uses the preloaded Smoothing48 table: a hit, no new build of it. */
    ap_resp r;
    ck_assert_int_eq(ap_post(&s, "/v1/path",
                             "{\"map\":\"arena\",\"start\":{\"x\":3.5,\"y\":3.5,\"heading\":0},\"goal\":{\"x\":20.5,"
                             "\"y\":12.5},\"unit\":{\"radius\":0.3,\"turning_radius\":2},\"search\":{\"algorithm\":"
                             "\"hybrid\"}}",
                             &r),
                     0);
    ck_assert_int_eq(r.status, 200);
    ap_resp_free(&r);
    j = get_profiles(&s);
    a = find_profile(json_object_get(j, "profiles"), 0.3, 2.0, 8, 48, false);
    ck_assert_ptr_nonnull(a);
    ck_assert_int_ge(json_integer_value(json_object_get(a, "hits")), 1);
    json_decref(j);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    unlink(conf);
    free(conf);
}
END_TEST

START_TEST(check_config_profiles)
{
    static char out[65536];
    char *good = temp_conf("{\"profiles\": [{\"radius\": 0.3, \"turning_radius\": 2}, {\"radius\": 0.3, "
                           "\"turning_radius\": 2, \"headings\": 8}]}");
    const char *ok_args[] = {"--check-config", "--maps", "config/maps", "--config", good, NULL};
    ck_assert_int_eq(ap_run_cli(ok_args, 1, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "profile 0: radius 0.3, turning_radius 2, headings 8, neighbourhood 24: ") != NULL,
                  "report does not list the profile: %s", out);
    /* the second entry is the first's key: cached once, not reported as built again (an ops helper) */
    ck_assert_msg(strstr(out, "profile 1: radius 0.3, turning_radius 2, headings 8, neighbourhood 24: the same as "
                              "entry 0 (cached once)\n") != NULL,
                  "report does not say the entry repeats one: %s", out);
    unlink(good);
    free(good);

    char *bad = temp_conf("{\"profiles\": [{\"turning_radius\": 2}, {\"turning_radius\": 2, \"headings\": 12}]}");
    const char *bad_args[] = {"--check-config", "--maps", "config/maps", "--config", bad, NULL};
    ck_assert_int_eq(ap_run_cli(bad_args, 1, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "\"profiles[1].headings\"") != NULL, "error does not name the entry: %s", out);
    unlink(bad);
    free(bad);
}
END_TEST

/* The profile cache is an LRU with a per-client eviction budget: with a budget of 1 a minute, the client
 * that filled all 32 slots may evict once; its next new profile is built for its query alone (the answer
 * is still right) and counted as refused, and the cache keeps 32 profiles. */
START_TEST(profile_cache_evicts_within_client_budget)
{
    ap_srv s;
    const char *const env[] = {"ARCPATH_PROFILE_EVICTIONS_PER_MINUTE=1", NULL};
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, env), 0);
    double first_len = -1.0;
    for (int i = 0; i < 34; i++) {
        char q[512];
        /* 34 distinct turning radii, one Directional8 profile each; a goal reachable for all of them */
        snprintf(q, sizeof q,
                 "{\"map\":\"arena\",\"start\":{\"x\":5.5,\"y\":5.5,\"heading\":0},\"goal\":{\"x\":12.5,"
                 "\"y\":5.5,\"heading\":0},\"unit\":{\"turning_radius\":%.5f},"
                 "\"search\":{\"algorithm\":\"directional8\"}}",
                 1.0 + 0.03125 * i);
        ap_resp r;
        ck_assert_int_eq(ap_post(&s, "/v1/path", q, &r), 0);
        ck_assert_msg(r.status == 200, "query %d: status %ld: %s", i, r.status, r.body);
        json_t *j = ap_resp_json(&r);
        ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
        /* a straight run east: every profile finds the same 7-tile line */
        double len = json_number_value(json_object_get(j, "length"));
        if (first_len < 0)
            first_len = len;
        ck_assert_double_eq_tol(len, 7.0, 1e-9);
        json_decref(j);
        ap_resp_free(&r);

        ap_resp m;
        ck_assert_int_eq(ap_http(&s, "GET", "/metrics", NULL, 0, NULL, &m), 0);
        double ev = ap_metric(m.body, "arcpath_profile_evictions_total", "");
        double ref = ap_metric(m.body, "arcpath_profile_refused_total", "");
        double cached = ap_metric(m.body, "arcpath_profiles_cached", "");
        ap_resp_free(&m);
        ck_assert_double_eq(cached, i < 32 ? i + 1 : 32);
        ck_assert_double_eq(ev, i < 32 ? 0 : 1);
        ck_assert_double_eq(ref, i < 33 ? 0 : 1);
    }
    /* the evicted one was the least recently used: the first profile built */
    json_t *list = get_profiles(&s);
    ck_assert_int_eq(json_integer_value(json_object_get(list, "count")), 32);
    ck_assert_ptr_null(find_profile(json_object_get(list, "profiles"), 0.0, 1.0, 8, 8, false));
    ck_assert_ptr_nonnull(find_profile(json_object_get(list, "profiles"), 0.0, 1.03125, 8, 8, false));
    ck_assert_ptr_nonnull(find_profile(json_object_get(list, "profiles"), 0.0, 1.0 + 0.03125 * 32, 8, 8, false));
    ck_assert_ptr_null(find_profile(json_object_get(list, "profiles"), 0.0, 1.0 + 0.03125 * 33, 8, 8, false));
    json_decref(list);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

Suite *profiles_suite(void)
{
    Suite *s = suite_create("profiles");
    TCase *tc = tcase_create("profiles");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, turning_query_creates_profile);
    tcase_add_test(tc, preloaded_profile_listed_before_any_query);
    tcase_add_test(tc, check_config_profiles);
    tcase_add_test(tc, profile_cache_evicts_within_client_budget);
    suite_add_tcase(s, tc);
    return s;
}
