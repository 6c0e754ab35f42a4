/* test_batch.c — POST /v1/paths against a real arcpathd: every item answers exactly what /v1/path answers
 * for the same query (and the scenario's optimal cost), per-item errors do not fail the batch, the cap on
 * the number of queries, whole-batch errors, and a batch whose items outgrow the fast budget finishing on
 * the slow lane. All traffic goes to 127.0.0.1; every loop is bounded. */
#include "tests/check_fast.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util.h"
#include "harness.h"

/* A small body must not make a huge answer: with max_answer_bytes 65536, eight queries with dense samples
 * (about 20 KB each) are answered until the next one would pass the cap; that one and every later one get
 * answer_too_large (not searched), the body stays within the cap, error items included, and the answers
 * given are complete (samples to the end). */
START_TEST(answer_bytes_cap_over_the_whole_batch)
{
    ap_srv srv;
    const char *env[] = {"ARCPATH_MAX_ANSWER_BYTES=65536", NULL};
    ck_assert_int_eq(ap_srv_start(&srv, "config/maps", NULL, env), 0);
    char body[4096];
    size_t used = (size_t)snprintf(body, sizeof body, "{\"map\":\"arena\",\"queries\":[");
    for (int i = 0; i < 8; i++)
        used += (size_t)snprintf(body + used, sizeof body - used,
                                 "%s{\"start\":{\"x\":3.5,\"y\":3.5},\"goal\":{\"x\":90.5,\"y\":88.5},"
                                 "\"samples\":{\"step\":0.5}}",
                                 i ? "," : "");
    snprintf(body + used, sizeof body - used, "]}");
    ap_resp r;
    ck_assert_int_eq(ap_post(&srv, "/v1/paths", body, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ck_assert_msg(r.len <= 65536, "answer of %zu bytes", r.len);
    json_t *b = ap_resp_json(&r);
    ck_assert_ptr_nonnull(b);
    json_t *res = json_object_get(b, "results");
    ck_assert_uint_eq(json_array_size(res), 8);
    size_t ok = 0;
    for (size_t i = 0; i < 8; i++) {
        json_t *it = json_array_get(res, i);
        const char *st = json_string_value(json_object_get(it, "status"));
        if (i == ok && strcmp(st, "ok") == 0) {
            json_t *smp = json_object_get(it, "samples");
            double L = json_number_value(json_object_get(it, "length"));
            ck_assert_uint_eq(json_array_size(smp), (size_t)floor(L / 0.5) + 2);
            ok++;
            continue;
        }
        ck_assert_str_eq(st, "error");
        ck_assert_str_eq(json_string_value(json_object_get(json_object_get(it, "error"), "code")),
                         "answer_too_large");
    }
    ck_assert_msg(ok >= 1 && ok < 8, "%zu items answered", ok);
    json_decref(b);
    ap_resp_free(&r);
    /* answer_too_large items are errors, not answers: arcpath_path_answers_total counts the ok items alone
     * (it counted the first refused one as ok too) */
    ck_assert_int_eq(ap_http(&srv, "GET", "/metrics", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ck_assert_double_eq(ap_metric(r.body, "arcpath_path_answers_total", "outcome=\"ok\""), (double)ok);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_srv_stop(&srv), 0);
}
END_TEST

/* The cap holds with many small items too. A helper's case: 256 short queries on maze (round a wall, 32 +
 * 6 sqrt 2) with the cap at 65536 answered 92,246 bytes, 62 ok and then 194 answer_too_large items written
 * past the cap. Room is now kept for every later item as an error (here about 30 are answered). A batch that
 * cannot fit even so is refused whole, unsearched: 413 answer_too_large, field queries. */
START_TEST(answer_bytes_cap_with_many_items)
{
    ap_srv srv;
    const char *env[] = {"ARCPATH_MAX_ANSWER_BYTES=65536", "ARCPATH_MAX_BATCH=1000", NULL};
    ck_assert_int_eq(ap_srv_start(&srv, "config/maps", NULL, env), 0);
    static const char q[] = "{\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":5.5,\"y\":1.5}}";
    char *body = malloc(64 + 1000 * sizeof q);
    ck_assert_ptr_nonnull(body);
    for (int n = 256; n <= 1000; n += 744) {
        size_t used = (size_t)sprintf(body, "{\"map\":\"maze\",\"queries\":[");
        for (int i = 0; i < n; i++)
            used += (size_t)sprintf(body + used, "%s%s", i ? "," : "", q);
        sprintf(body + used, "]}");
        ap_resp r;
        ck_assert_int_eq(ap_post(&srv, "/v1/paths", body, &r), 0);
        if (n == 1000) {
            ck_assert_int_eq(r.status, 413);
            json_t *j = ap_resp_json(&r), *e = json_object_get(j, "error");
            ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "answer_too_large");
            ck_assert_str_eq(json_string_value(json_object_get(e, "field")), "queries");
            json_decref(j);
            ap_resp_free(&r);
            continue;
        }
        ck_assert_int_eq(r.status, 200);
        ck_assert_msg(r.len <= 65536, "answer of %zu bytes", r.len);
        json_t *b = ap_resp_json(&r);
        ck_assert_ptr_nonnull(b);
        json_t *res = json_object_get(b, "results");
        ck_assert_uint_eq(json_array_size(res), (size_t)n);
        size_t ok = 0;
        for (size_t i = 0; i < (size_t)n; i++) {
            json_t *it = json_array_get(res, i);
            if (i == ok && strcmp(json_string_value(json_object_get(it, "status")), "ok") == 0) {
                ck_assert_double_eq_tol(json_number_value(json_object_get(it, "grid_cost")), 32.0 + 6.0 * M_SQRT2, 1e-9);
                ok++;
                continue;
            }
            ck_assert_str_eq(json_string_value(json_object_get(json_object_get(it, "error"), "code")),
                             "answer_too_large");
        }
        ck_assert_msg(ok >= 20 && ok < (size_t)n, "%zu items answered", ok);
        json_decref(b);
        ap_resp_free(&r);
    }
    free(body);
    ck_assert_int_eq(ap_srv_stop(&srv), 0);
}
END_TEST

Suite *batch_suite(void);

static json_t *post_json(const ap_srv *s, const char *path, const char *body, long want_status)
{
    ap_resp r;
    ck_assert_int_eq(ap_post(s, path, body, &r), 0);
    ck_assert_msg(r.status == want_status, "%s: HTTP %ld, want %ld: %.300s", path, r.status, want_status, r.body);
    json_t *j = ap_resp_json(&r);
    ck_assert_msg(j != NULL, "not JSON: %.300s", r.body);
    ap_resp_free(&r);
    return j;
}

/* The parts of an answer that must not depend on how it was asked for (stats carry timings). */
static void assert_same_answer(json_t *item, json_t *single)
{
    static const char *const keys[] = {"status", "grid_cost", "length", "clear", "waypoints", "segments", "samples"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        json_t *a = json_object_get(item, keys[k]), *b = json_object_get(single, keys[k]);
        ck_assert_msg((a == NULL) == (b == NULL), "\"%s\" present in only one answer", keys[k]);
        ck_assert_msg(a == NULL || json_equal(a, b), "\"%s\" differs between batch item and /v1/path", keys[k]);
    }
    ck_assert_ptr_null(json_object_get(item, "map"));
    /* Expansions match when both ran on the fast lane; a search that moved restarts on the slow lane, and a
     * batch item after the batch moved starts there directly, so the counts then differ by design. */
    json_t *si = json_object_get(item, "stats"), *ss = json_object_get(single, "stats");
    if (strcmp(json_string_value(json_object_get(si, "lane")), "fast") == 0 &&
        strcmp(json_string_value(json_object_get(ss, "lane")), "fast") == 0)
        ck_assert_int_eq(json_integer_value(json_object_get(si, "expanded")),
                         json_integer_value(json_object_get(ss, "expanded")));
}

START_TEST(items_equal_single_answers_and_optimal_costs)
{
    if (!ap_mai_srv) {
        ap_test_skip_no_data("batch test");
        return;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/den520d.map.scen", ap_mai_dir);
    ap_test_scen *sc = NULL;
    size_t n = 0;
    ck_assert_int_eq(ap_test_load_scen(path, &sc, &n), 0);
    /* 40 queries spread over the file (short and long), one with samples and a unit, to exercise every
     * part of the per-item answer. */
    enum { NQ = 40 };
    size_t cap = 64 * 1024, used = 0;
    char *body = malloc(cap);
    char singles[NQ][320];
    size_t idx[NQ];
    used += (size_t)snprintf(body + used, cap - used, "{\"map\":\"den520d\",\"queries\":[");
    for (size_t i = 0; i < NQ; i++) {
        idx[i] = (i * (n - 1)) / (NQ - 1);
        const ap_test_scen *s = &sc[idx[i]];
        char q[256];
        if (i == 7)
            snprintf(q, sizeof q,
                     "\"start\":{\"x\":%d.5,\"y\":%d.5},\"goal\":{\"x\":%d.5,\"y\":%d.5},"
                     "\"unit\":{\"radius\":0.3,\"turning_radius\":1.5},\"samples\":{\"step\":0.5},"
                     "\"search\":{\"algorithm\":\"astar\"}",
                     s->sx, s->sy, s->gx, s->gy);
        else /* every fourth item auto (a point unit's exact any-angle path), the others the grid optimum */
            snprintf(q, sizeof q, "\"start\":{\"x\":%d.5,\"y\":%d.5},\"goal\":{\"x\":%d.5,\"y\":%d.5}%s", s->sx,
                     s->sy, s->gx, s->gy, i % 4 == 1 ? "" : ",\"search\":{\"algorithm\":\"jps_plus\"}");
        used += (size_t)snprintf(body + used, cap - used, "%s{%s}", i ? "," : "", q);
        snprintf(singles[i], sizeof singles[i], "{\"map\":\"den520d\",%s}", q);
    }
    snprintf(body + used, cap - used, "]}");

    json_t *b = post_json(ap_mai_srv, "/v1/paths", body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(b, "status")), "ok");
    ck_assert_str_eq(json_string_value(json_object_get(b, "map")), "den520d");
    json_t *res = json_object_get(b, "results");
    ck_assert_uint_eq(json_array_size(res), NQ);
    json_int_t total = 0;
    for (size_t i = 0; i < NQ; i++) {
        json_t *item = json_array_get(res, i);
        ck_assert_str_eq(json_string_value(json_object_get(item, "status")), "ok");
        double cost = json_number_value(json_object_get(item, "grid_cost"));
        const ap_test_scen *s = &sc[idx[i]];
        if (i % 4 == 1 && i != 7) /* auto: any_angle's length, between the straight line and the grid optimum */
            ck_assert_msg(cost <= s->optimal + ap_test_tolerance(s) && cost >= hypot(s->gx - s->sx, s->gy - s->sy) - 1e-9,
                          "item %zu (line %d): any-angle cost %.10f, grid optimum %.10f", i, s->line, cost, s->optimal);
        else
            ck_assert_msg(fabs(cost - s->optimal) <= ap_test_tolerance(s), "item %zu (line %d): cost %.10f, optimal %.10f",
                          i, s->line, cost, s->optimal);
        json_t *one = post_json(ap_mai_srv, "/v1/path", singles[i], 200);
        assert_same_answer(item, one);
        json_decref(one);
        total += json_integer_value(json_object_get(json_object_get(item, "stats"), "expanded"));
    }
    json_t *st = json_object_get(b, "stats");
    ck_assert_int_eq(json_integer_value(json_object_get(st, "expanded")), total);
    ck_assert_ptr_nonnull(json_object_get(st, "lane"));
    json_decref(b);
    free(body);
    free(sc);
}
END_TEST

START_TEST(errors_are_per_item)
{
    /* arena (demo map): ok, blocked start? out of bounds, a bad field, not an object, a field the batch
     * owns, and ok again: the batch answers 200 with one result per query, in order. */
    const char *body = "{\"map\":\"arena\",\"queries\":["
                       "{\"start\":{\"x\":3.5,\"y\":10.5},\"goal\":{\"x\":9.5,\"y\":10.5},\"search\":{\"smoothing\":\"none\"}},"
                       "{\"start\":{\"x\":-1,\"y\":3},\"goal\":{\"x\":9.5,\"y\":10.5}},"
                       "{\"start\":{\"x\":3.5,\"y\":10.5},\"goal\":{\"x\":9.5}},"
                       "{\"start\":{\"x\":3.5,\"y\":10.5},\"goal\":{\"x\":9.5,\"y\":10.5},\"serach\":{}},"
                       "42,"
                       "{\"map\":\"maze\",\"start\":{\"x\":3.5,\"y\":10.5},\"goal\":{\"x\":9.5,\"y\":10.5}},"
                       "{\"start\":{\"x\":3.5,\"y\":10.5},\"goal\":{\"x\":3.5,\"y\":10.5}}]}";
    json_t *b = post_json(ap_demo_srv, "/v1/paths", body, 200);
    json_t *res = json_object_get(b, "results");
    ck_assert_uint_eq(json_array_size(res), 7);
    static const struct {
        const char *status, *code, *field;
    } want[] = {
        {"ok", NULL, NULL},
        {"error", "out_of_bounds", "start"},
        {"error", "invalid_request", "goal.y"},
        {"error", "invalid_request", "serach"},
        {"error", "invalid_request", NULL},
        {"error", "invalid_request", "map"},
        {"ok", NULL, NULL},
    };
    for (size_t i = 0; i < 7; i++) {
        json_t *it = json_array_get(res, i);
        ck_assert_msg(strcmp(json_string_value(json_object_get(it, "status")), want[i].status) == 0, "item %zu: %s",
                      i, json_dumps(it, 0));
        if (!want[i].code)
            continue;
        json_t *e = json_object_get(it, "error");
        ck_assert_str_eq(json_string_value(json_object_get(e, "code")), want[i].code);
        ck_assert_ptr_nonnull(json_string_value(json_object_get(e, "message")));
        if (want[i].field)
            ck_assert_str_eq(json_string_value(json_object_get(e, "field")), want[i].field);
        else
            ck_assert_ptr_null(json_object_get(e, "field"));
    }
    ck_assert(json_number_value(json_object_get(json_array_get(res, 0), "grid_cost")) == 6.0);
    json_decref(b);
}
END_TEST

START_TEST(whole_batch_errors_and_the_cap)
{
    static const struct {
        const char *body;
        long http;
        const char *code, *field;
    } cases[] = {
        {"{\"map\":\"arena\",\"queries\":[", 400, "invalid_json", NULL},
        {"[1]", 400, "invalid_request", NULL},
        {"{\"map\":\"arena\"}", 400, "invalid_request", "queries"},
        {"{\"map\":\"arena\",\"queries\":{}}", 400, "invalid_request", "queries"},
        {"{\"map\":\"arena\",\"queries\":[]}", 400, "invalid_request", "queries"},
        {"{\"map\":\"arena\",\"queries\":[],\"extra\":1}", 400, "invalid_request", "extra"},
        {"{\"queries\":[{}]}", 400, "invalid_request", "map"},
        {"{\"map\":\"nope\",\"queries\":[{}]}", 404, "unknown_map", "map"},
        {"{\"map\":\"arena\",\"queries\":[{}],\"deadline_ms\":0}", 400, "invalid_request", "deadline_ms"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *j = post_json(ap_demo_srv, "/v1/paths", cases[i].body, cases[i].http);
        json_t *e = json_object_get(j, "error");
        ck_assert_msg(e != NULL, "case %zu: no error object", i);
        ck_assert_str_eq(json_string_value(json_object_get(e, "code")), cases[i].code);
        if (cases[i].field)
            ck_assert_str_eq(json_string_value(json_object_get(e, "field")), cases[i].field);
        json_decref(j);
    }

    /* The cap: a server with max_batch 3 takes 3 queries and refuses 4 on "queries". */
    ap_srv s;
    const char *env[] = {"ARCPATH_MAX_BATCH=3", NULL};
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, env), 0);
    const char *q = "{\"start\":{\"x\":3.5,\"y\":10.5},\"goal\":{\"x\":9.5,\"y\":10.5}}";
    char body[1024];
    snprintf(body, sizeof body, "{\"map\":\"arena\",\"queries\":[%s,%s,%s]}", q, q, q);
    json_t *ok = post_json(&s, "/v1/paths", body, 200);
    ck_assert_uint_eq(json_array_size(json_object_get(ok, "results")), 3);
    json_decref(ok);
    snprintf(body, sizeof body, "{\"map\":\"arena\",\"queries\":[%s,%s,%s,%s]}", q, q, q, q);
    json_t *over = post_json(&s, "/v1/paths", body, 400);
    json_t *e = json_object_get(over, "error");
    ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "invalid_request");
    ck_assert_str_eq(json_string_value(json_object_get(e, "field")), "queries");
    json_decref(over);

    /* Wrong method: 405 with Allow: POST, OPTIONS. */
    ap_resp r;
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/paths", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 405);
    ck_assert_str_eq(r.allow, "POST, OPTIONS");
    ap_resp_free(&r);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

/* A legal-turn query across Paris_1_1024 (its corridor's set-up alone, 13-41 ms) begins on the slow lane,
 * alone and as a batch item after a short one, which stays on the fast lane (server/lanes.c begin_slow,
 * planner ap_query_setup_is_heavy). */
START_TEST(heavy_setup_items_begin_on_the_slow_lane)
{
    if (!ap_mai_srv) {
        ap_test_skip_no_data("batch heavy set-up test");
        return;
    }
    static const char far[] = "{\"start\":{\"x\":320.5,\"y\":1010.5,\"heading\":0},\"goal\":{\"x\":991.5,"
                              "\"y\":89.5},\"unit\":{\"radius\":0.4,\"turning_radius\":2},"
                              "\"search\":{\"algorithm\":\"directional24\"}}";
    static const char near[] = "{\"start\":{\"x\":320.5,\"y\":1010.5,\"heading\":0},\"goal\":{\"x\":330.5,"
                               "\"y\":1010.5},\"unit\":{\"radius\":0.4,\"turning_radius\":2},"
                               "\"search\":{\"algorithm\":\"directional24\"}}";
    char body[1024];
    snprintf(body, sizeof body, "{\"map\":\"Paris_1_1024\",\"deadline_ms\":30000,%s", far + 1);
    json_t *one = post_json(ap_mai_srv, "/v1/path", body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(one, "status")), "ok");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(one, "stats"), "lane")), "slow");
    json_decref(one);
    snprintf(body, sizeof body, "{\"map\":\"Paris_1_1024\",\"deadline_ms\":30000,\"queries\":[%s,%s]}", near, far);
    json_t *b = post_json(ap_mai_srv, "/v1/paths", body, 200);
    json_t *res = json_object_get(b, "results");
    ck_assert_uint_eq(json_array_size(res), 2);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(res, 0), "status")), "ok");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(json_array_get(res, 0), "stats"), "lane")),
                     "fast");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(res, 1), "status")), "ok");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(json_array_get(res, 1), "stats"), "lane")),
                     "slow");
    json_decref(b);
}
END_TEST

START_TEST(long_items_finish_on_the_slow_lane)
{
    if (!ap_mai_srv) {
        ap_test_skip_no_data("batch slow-lane test");
        return;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/Paris_1_1024.map.scen", ap_mai_dir);
    ap_test_scen *sc = NULL;
    size_t n = 0;
    ck_assert_int_eq(ap_test_load_scen(path, &sc, &n), 0);
    /* a short query, two of the longest, a short one again: each keeps its own optimal cost. */
    const size_t pick[4] = {0, n - 1, n - 2, 1};
    char body[2048];
    size_t used = (size_t)snprintf(body, sizeof body, "{\"map\":\"Paris_1_1024\",\"deadline_ms\":60000,\"queries\":[");
    for (int i = 0; i < 4; i++) {
        const ap_test_scen *s = &sc[pick[i]];
        used += (size_t)snprintf(body + used, sizeof body - used,
                                 "%s{\"start\":{\"x\":%d.5,\"y\":%d.5},\"goal\":{\"x\":%d.5,\"y\":%d.5},"
                                 "\"search\":{\"algorithm\":\"jps_plus\"}}", /* grid optima (auto: any_angle) */
                                 i ? "," : "", s->sx, s->sy, s->gx, s->gy);
    }
    snprintf(body + used, sizeof body - used, "]}");
    json_t *b = post_json(ap_mai_srv, "/v1/paths", body, 200);
    json_t *res = json_object_get(b, "results");
    ck_assert_uint_eq(json_array_size(res), 4);
    for (int i = 0; i < 4; i++) {
        json_t *it = json_array_get(res, (size_t)i);
        const ap_test_scen *s = &sc[pick[i]];
        ck_assert_str_eq(json_string_value(json_object_get(it, "status")), "ok");
        ck_assert_msg(fabs(json_number_value(json_object_get(it, "grid_cost")) - s->optimal) <= ap_test_tolerance(s),
                      "item %d", i);
    }
    /* the long items outgrow the default fast budget: the batch ends on the slow lane */
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(json_array_get(res, 1), "stats"), "lane")),
                     "slow");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(b, "stats"), "lane")), "slow");
    json_decref(b);

    /* a deadline that passes mid-search answers every item "timeout", still 200. The items run A*: auto's
     * JPS+ answers even the longest Paris lines in well under the 1 ms deadline, which made this flaky. */
    used = (size_t)snprintf(body, sizeof body, "{\"map\":\"Paris_1_1024\",\"deadline_ms\":1,\"queries\":[");
    for (int i = 0; i < 3; i++) {
        const ap_test_scen *s = &sc[n - 1 - (size_t)i];
        used += (size_t)snprintf(body + used, sizeof body - used,
                                 "%s{\"start\":{\"x\":%d.5,\"y\":%d.5},\"goal\":{\"x\":%d.5,\"y\":%d.5},"
                                 "\"search\":{\"algorithm\":\"astar\"}}",
                                 i ? "," : "", s->sx, s->sy, s->gx, s->gy);
    }
    snprintf(body + used, sizeof body - used, "]}");
    b = post_json(ap_mai_srv, "/v1/paths", body, 200);
    res = json_object_get(b, "results");
    ck_assert_uint_eq(json_array_size(res), 3);
    for (size_t i = 0; i < 3; i++)
        ck_assert_str_eq(json_string_value(json_object_get(json_array_get(res, i), "status")), "timeout");
    json_decref(b);
    free(sc);
}
END_TEST

Suite *batch_suite(void)
{
    Suite *s = suite_create("batch");
    TCase *tc = tcase_create("batch");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, items_equal_single_answers_and_optimal_costs);
    tcase_add_test(tc, errors_are_per_item);
    tcase_add_test(tc, whole_batch_errors_and_the_cap);
    tcase_add_test(tc, long_items_finish_on_the_slow_lane);
    tcase_add_test(tc, heavy_setup_items_begin_on_the_slow_lane);
    tcase_add_test(tc, answer_bytes_cap_over_the_whole_batch);
    tcase_add_test(tc, answer_bytes_cap_with_many_items);
    suite_add_tcase(s, tc);
    return s;
}
