/* test_errors.c — every error code over HTTP, with its status, stable code and field; after each bad
 * request the server still answers. */
#include "tests/check_fast.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

Suite *errors_suite(void);

static void still_serving(void)
{
    ap_resp r;
    ck_assert_int_eq(ap_http(ap_demo_srv, "GET", "/healthz", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ap_resp_free(&r);
}

/* Send, and check HTTP status, error.code and (when want_field is non-NULL) error.field. */
static json_t *expect_error(const char *method, const char *path, const char *body, size_t len, long http,
                            const char *code, const char *want_field, ap_resp *r)
{
    ck_assert_int_eq(ap_http(ap_demo_srv, method, path, body, len, NULL, r), 0);
    ck_assert_msg(r->status == http, "%s %s: HTTP %ld, want %ld: %s", method, path, r->status, http, r->body);
    json_t *j = ap_resp_json(r);
    if (strcmp(method, "HEAD") == 0)
        return j;
    ck_assert_msg(j != NULL, "error body is not JSON: %s", r->body);
    json_t *e = json_object_get(j, "error");
    ck_assert_str_eq(json_string_value(json_object_get(e, "code")), code);
    ck_assert(json_string_length(json_object_get(e, "message")) > 0);
    if (want_field)
        ck_assert_str_eq(json_string_value(json_object_get(e, "field")), want_field);
    ck_assert_uint_gt(strlen(r->request_id), 0);
    return j;
}

static void post_error(const char *body, long http, const char *code, const char *field)
{
    ap_resp r;
    json_t *j = expect_error("POST", "/v1/path", body, strlen(body), http, code, field, &r);
    json_decref(j);
    ap_resp_free(&r);
    still_serving();
}

START_TEST(invalid_json_with_position)
{
    ap_resp r;
    const char *body = "{\n  \"map\": \"arena\",\n  \"start\": {\"x\": 1.5,, \"y\": 2}\n}";
    json_t *j = expect_error("POST", "/v1/path", body, strlen(body), 400, "invalid_json", NULL, &r);
    json_t *e = json_object_get(j, "error");
    ck_assert_int_eq(json_integer_value(json_object_get(e, "line")), 3);
    ck_assert_int_gt(json_integer_value(json_object_get(e, "column")), 0);
    json_decref(j);
    ap_resp_free(&r);
    still_serving();
    post_error("", 400, "invalid_json", NULL);
    post_error("not json", 400, "invalid_json", NULL);
}
END_TEST

START_TEST(invalid_request_names_the_field)
{
    post_error("[1,2]", 400, "invalid_request", NULL);
    post_error("{\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":2.5,\"y\":2.5}}", 400, "invalid_request", "map");
    post_error("{\"map\":\"arena\",\"goal\":{\"x\":2.5,\"y\":2.5}}", 400, "invalid_request", "start");
    post_error("{\"map\":\"arena\",\"start\":{\"x\":1.5},\"goal\":{\"x\":2.5,\"y\":2.5}}", 400, "invalid_request",
               "start.y");
    post_error("{\"map\":\"arena\",\"start\":{\"x\":\"1\",\"y\":1.5},\"goal\":{\"x\":2.5,\"y\":2.5}}", 400,
               "invalid_request", "start.x");
    post_error("{\"map\":\"arena\",\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":2.5,\"y\":2.5},\"colour\":1}", 400,
               "invalid_request", "colour");
    post_error("{\"map\":\"arena\",\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":2.5,\"y\":2.5},"
               "\"search\":{\"connectivity\":6}}",
               400, "invalid_request", "search.connectivity");
    post_error("{\"map\":\"arena\",\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":2.5,\"y\":2.5},"
               "\"search\":{\"smoothing\":\"spline\"}}",
               400, "invalid_request", "search.smoothing");
    post_error("{\"map\":\"arena\",\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":2.5,\"y\":2.5},"
               "\"search\":{\"algorithm\":\"dijkstra\"}}",
               400, "invalid_request", "search.algorithm");
    post_error("{\"map\":\"arena\",\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":2.5,\"y\":2.5},\"deadline_ms\":0}",
               400, "invalid_request", "deadline_ms");
    post_error("{\"map\":\"arena\",\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":2.5,\"y\":2.5},"
               "\"unit\":{\"radius\":-1}}",
               400, "invalid_request", "unit.radius");
    post_error("{\"map\":\"arena\",\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":2.5,\"y\":2.5},"
               "\"samples\":{\"step\":0}}",
               400, "invalid_request", "samples.step");
}
END_TEST

START_TEST(unknown_map_404)
{
    post_error("{\"map\":\"atlantis\",\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":2.5,\"y\":2.5}}", 404,
               "unknown_map", "map");
    ap_resp r;
    json_t *j = expect_error("GET", "/v1/maps/atlantis", NULL, 0, 404, "unknown_map", NULL, &r);
    /* the answer names the id asked for, so a typo shows in it */
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "message")),
                     "no map \"atlantis\" is loaded (GET /v1/maps lists them)");
    json_decref(j);
    ap_resp_free(&r);
    static const char typo[] = "{\"map\":\"Arena\",\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":2.5,\"y\":2.5}}";
    j = expect_error("POST", "/v1/path", typo, sizeof typo - 1, 404, "unknown_map", "map", &r);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "message")),
                     "no map \"Arena\" is loaded (GET /v1/maps lists them)");
    json_decref(j);
    ap_resp_free(&r);
}
END_TEST

START_TEST(out_of_bounds_and_blocked_422)
{
    /* arena is 96 x 96 with a wall on its border. */
    post_error("{\"map\":\"arena\",\"start\":{\"x\":96.0,\"y\":5.5},\"goal\":{\"x\":2.5,\"y\":2.5}}", 422,
               "out_of_bounds", "start");
    post_error("{\"map\":\"arena\",\"start\":{\"x\":5.5,\"y\":5.5},\"goal\":{\"x\":2.5,\"y\":-0.25}}", 422,
               "out_of_bounds", "goal");
    post_error("{\"map\":\"arena\",\"start\":{\"x\":0.5,\"y\":5.5},\"goal\":{\"x\":2.5,\"y\":2.5}}", 422,
               "start_blocked", "start");
    post_error("{\"map\":\"arena\",\"start\":{\"x\":5.5,\"y\":5.5},\"goal\":{\"x\":95.5,\"y\":2.5}}", 422,
               "goal_blocked", "goal");
}
END_TEST

START_TEST(payload_too_large_413)
{
    size_t n = 1 << 20;
    char *big = malloc(n + 1);
    ck_assert_ptr_nonnull(big);
    memset(big, ' ', n);
    big[0] = '{';
    big[n - 1] = '}';
    big[n] = 0;
    ap_resp r;
    json_t *j = expect_error("POST", "/v1/path", big, n, 413, "payload_too_large", NULL, &r);
    json_decref(j);
    ap_resp_free(&r);
    free(big);
    still_serving();
}
END_TEST

START_TEST(method_not_allowed_405_and_not_found_404)
{
    ap_resp r;
    json_t *j = expect_error("GET", "/v1/path", NULL, 0, 405, "method_not_allowed", NULL, &r);
    ck_assert_ptr_nonnull(strstr(r.allow, "POST"));
    json_decref(j);
    ap_resp_free(&r);
    j = expect_error("DELETE", "/v1/maps", NULL, 0, 405, "method_not_allowed", NULL, &r);
    ck_assert_ptr_nonnull(strstr(r.allow, "GET"));
    json_decref(j);
    ap_resp_free(&r);
    j = expect_error("GET", "/v2/anything", NULL, 0, 404, "not_found", NULL, &r);
    json_decref(j);
    ap_resp_free(&r);
    still_serving();
}
END_TEST

Suite *errors_suite(void)
{
    Suite *s = suite_create("errors");
    TCase *tc = tcase_create("codes");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, invalid_json_with_position);
    tcase_add_test(tc, invalid_request_names_the_field);
    tcase_add_test(tc, unknown_map_404);
    tcase_add_test(tc, out_of_bounds_and_blocked_422);
    tcase_add_test(tc, payload_too_large_413);
    tcase_add_test(tc, method_not_allowed_405_and_not_found_404);
    suite_add_tcase(s, tc);
    return s;
}
