/* test_curve.c — POST /v1/curve wire format: parsing (defaults, strictness, dotted fields) and encoding. */
#include "tests/check_fast.h"
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "proto/curve.h"
#include "planner/geom/dubins.h"
#include "planner/geom/reeds_shepp.h"
#include "tests/proto/suites.h"

static int parse(const char *body, ap_curve_request *req, ap_wire_error *err)
{
    return ap_wire_parse_curve_request(body, strlen(body), req, err);
}

START_TEST(parse_ok_and_defaults)
{
    ap_curve_request q;
    ap_wire_error e;
    ck_assert_int_eq(parse("{\"start\":{\"x\":1,\"y\":2.5,\"heading\":0},\"goal\":{\"x\":-3,\"y\":4,\"heading\":3.14},"
                           "\"turning_radius\":2}", &q, &e), AP_OK);
    ck_assert(q.model == AP_CURVE_DUBINS && q.has_goal_heading);
    ck_assert(q.start.x == 1.0 && q.start.y == 2.5 && q.goal.x == -3.0 && q.goal.heading == 3.14);
    ck_assert(q.turning_radius == 2.0);
    ck_assert_int_eq(parse("{\"start\":{\"x\":0,\"y\":0,\"heading\":0},\"goal\":{\"x\":5,\"y\":5},"
                           "\"turning_radius\":1000,\"model\":\"pinter\"}", &q, &e), AP_OK);
    ck_assert(q.model == AP_CURVE_PINTER && !q.has_goal_heading);
    ck_assert_int_eq(parse("{\"start\":{\"x\":0,\"y\":0,\"heading\":0},\"goal\":{\"x\":5,\"y\":5,\"heading\":1},"
                           "\"turning_radius\":0.5,\"model\":\"reeds_shepp\"}", &q, &e), AP_OK);
    ck_assert(q.model == AP_CURVE_REEDS_SHEPP);
}
END_TEST

static void bad(const char *body, int status, const char *field)
{
    ap_curve_request q;
    ap_wire_error e;
    ck_assert_int_eq(parse(body, &q, &e), status);
    ck_assert_int_eq(e.status, status);
    ck_assert_str_eq(e.field, field);
}

START_TEST(parse_errors)
{
    const char *S = "\"start\":{\"x\":0,\"y\":0,\"heading\":0}";
    char b[512];
    bad("", AP_E_INVALID_JSON, "");
    bad("{\"start\":", AP_E_INVALID_JSON, "");
    bad("[1]", AP_E_INVALID_REQUEST, "");
    snprintf(b, sizeof b, "{%s,\"goal\":{\"x\":1,\"y\":1,\"heading\":0},\"turning_radius\":1,\"modle\":\"x\"}", S);
    bad(b, AP_E_INVALID_REQUEST, "modle");
    snprintf(b, sizeof b, "{%s,\"goal\":{\"x\":1,\"y\":1,\"heading\":0,\"z\":1},\"turning_radius\":1}", S);
    bad(b, AP_E_INVALID_REQUEST, "goal.z");
    snprintf(b, sizeof b, "{%s,\"goal\":{\"x\":1,\"y\":1},\"turning_radius\":1}", S);
    bad(b, AP_E_INVALID_REQUEST, "goal.heading"); /* required for dubins */
    snprintf(b, sizeof b, "{%s,\"goal\":{\"x\":1,\"y\":1},\"turning_radius\":1,\"model\":\"reeds_shepp\"}", S);
    bad(b, AP_E_INVALID_REQUEST, "goal.heading");
    bad("{\"start\":{\"x\":0,\"y\":0},\"goal\":{\"x\":1,\"y\":1,\"heading\":0},\"turning_radius\":1}",
        AP_E_INVALID_REQUEST, "start.heading");
    snprintf(b, sizeof b, "{%s,\"goal\":{\"x\":\"1\",\"y\":1,\"heading\":0},\"turning_radius\":1}", S);
    bad(b, AP_E_INVALID_REQUEST, "goal.x");
    snprintf(b, sizeof b, "{%s,\"goal\":{\"x\":1,\"y\":1,\"heading\":0},\"turning_radius\":0}", S);
    bad(b, AP_E_INVALID_REQUEST, "turning_radius");
    snprintf(b, sizeof b, "{%s,\"goal\":{\"x\":1,\"y\":1,\"heading\":0},\"turning_radius\":1000.5}", S);
    bad(b, AP_E_INVALID_REQUEST, "turning_radius");
    snprintf(b, sizeof b, "{%s,\"goal\":{\"x\":1,\"y\":1,\"heading\":0}}", S);
    bad(b, AP_E_INVALID_REQUEST, "turning_radius");
    snprintf(b, sizeof b, "{%s,\"goal\":{\"x\":1,\"y\":1,\"heading\":0},\"turning_radius\":1,\"model\":\"rs\"}", S);
    bad(b, AP_E_INVALID_REQUEST, "model");
    snprintf(b, sizeof b, "{%s,\"goal\":[1,2],\"turning_radius\":1}", S);
    bad(b, AP_E_INVALID_REQUEST, "goal");
    bad("{\"goal\":{\"x\":1,\"y\":1,\"heading\":0},\"turning_radius\":1}", AP_E_INVALID_REQUEST, "start");
    /* The documented bounds: turning radius >= 1e-3, |x|, |y| <= 1e6 (beyond them the formulas overflowed). */
    snprintf(b, sizeof b, "{%s,\"goal\":{\"x\":1,\"y\":1,\"heading\":0},\"turning_radius\":1e-300}", S);
    bad(b, AP_E_INVALID_REQUEST, "turning_radius");
    snprintf(b, sizeof b, "{%s,\"goal\":{\"x\":1,\"y\":1,\"heading\":0},\"turning_radius\":0.00099}", S);
    bad(b, AP_E_INVALID_REQUEST, "turning_radius");
    snprintf(b, sizeof b, "{%s,\"goal\":{\"x\":1e155,\"y\":1,\"heading\":0},\"turning_radius\":1}", S);
    bad(b, AP_E_INVALID_REQUEST, "goal.x");
    snprintf(b, sizeof b, "{%s,\"goal\":{\"x\":1,\"y\":-1000000.5,\"heading\":0},\"turning_radius\":1}", S);
    bad(b, AP_E_INVALID_REQUEST, "goal.y");
    bad("{\"start\":{\"x\":2e6,\"y\":0,\"heading\":0},\"goal\":{\"x\":1,\"y\":1,\"heading\":0},"
        "\"turning_radius\":1}", AP_E_INVALID_REQUEST, "start.x");
}
END_TEST

/* Headings arrive wrapped to [-pi, pi) by the true 2pi, so 1e16 is the direction 2.2474252491623665 (a
 * 700-digit decimal reduction), not the raw number; the bounds themselves are accepted. */
START_TEST(parse_wraps_headings_and_accepts_bounds)
{
    ap_curve_request q;
    ap_wire_error e;
    ck_assert_int_eq(parse("{\"start\":{\"x\":-1e6,\"y\":1e6,\"heading\":1e16},\"goal\":{\"x\":1e6,\"y\":-1e6,"
                           "\"heading\":-7.5},\"turning_radius\":0.001}", &q, &e), AP_OK);
    ck_assert_double_eq_tol(q.start.heading, 2.2474252491623665, 1e-14);
    ck_assert_double_eq_tol(q.goal.heading, -7.5 + 2.0 * M_PI, 1e-15);
    ck_assert(q.turning_radius == 0.001 && q.start.x == -1e6 && q.goal.y == -1e6);
}
END_TEST

/* Encode a Reeds-Shepp answer for the pure reverse line and a Dubins U-turn; read the JSON back. */
START_TEST(encode_values)
{
    ap_pose a = {0, 0, 0}, b = {-5, 0, 0};
    ap_reeds_shepp p;
    ck_assert_int_eq(ap_reeds_shepp_shortest(&a, &b, 1.0, &p), 0);
    ap_segment s[AP_RS_MAX_PIECES];
    size_t n = ap_reeds_shepp_segments(&p, &b, s), len = 0;
    char *out = ap_wire_encode_curve(AP_CURVE_REEDS_SHEPP, p.word, p.length, s, n, &len);
    ck_assert_ptr_nonnull(out);
    ck_assert_uint_eq(len, strlen(out));
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert_str_eq(json_string_value(json_object_get(j, "model")), "reeds_shepp");
    ck_assert_str_eq(json_string_value(json_object_get(j, "word")), "S-");
    ck_assert(json_real_value(json_object_get(j, "length")) == 5.0);
    json_t *seg = json_array_get(json_object_get(j, "segments"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(seg, "type")), "line");
    ck_assert(json_is_true(json_object_get(seg, "reverse")));
    ck_assert(json_number_value(json_array_get(json_object_get(seg, "end"), 0)) == -5.0);
    ck_assert(json_number_value(json_object_get(seg, "heading")) == 0.0);
    json_decref(j);
    free(out);

    ap_pose g = {0, 0, M_PI};
    ap_dubins d;
    ck_assert_int_eq(ap_dubins_shortest(&a, &g, 1.0, &d), 0);
    n = ap_dubins_segments(&d, &g, s);
    ck_assert_uint_eq(n, 3);
    out = ap_wire_encode_curve(AP_CURVE_DUBINS, ap_dubins_word_name(d.word), d.length, s, n, NULL);
    j = json_loads(out, 0, &je);
    ck_assert_ptr_nonnull(j);
    ck_assert_double_eq_tol(json_real_value(json_object_get(j, "length")), 7.0 * M_PI / 3.0, 1e-12);
    json_t *segs = json_object_get(j, "segments");
    ck_assert_uint_eq(json_array_size(segs), 3);
    json_t *mid = json_array_get(segs, 1);
    ck_assert_str_eq(json_string_value(json_object_get(mid, "type")), "arc");
    ck_assert(json_object_get(mid, "reverse") == NULL); /* only on reverse segments */
    ck_assert_double_eq_tol(fabs(json_number_value(json_object_get(mid, "sweep"))), 5.0 * M_PI / 3.0, 1e-12);
    ck_assert(json_number_value(json_object_get(mid, "radius")) == 1.0);
    json_t *last = json_array_get(segs, 2);
    ck_assert(json_number_value(json_array_get(json_object_get(last, "end"), 0)) == 0.0);
    ck_assert(json_number_value(json_array_get(json_object_get(last, "end"), 1)) == 0.0);
    json_decref(j);
    free(out);
    ck_assert_str_eq(ap_curve_model_name(AP_CURVE_PINTER), "pinter");
}
END_TEST

Suite *curve_wire_suite(void)
{
    Suite *s = suite_create("curve_wire");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, parse_ok_and_defaults);
    tcase_add_test(tc, parse_errors);
    tcase_add_test(tc, parse_wraps_headings_and_accepts_bounds);
    tcase_add_test(tc, encode_values);
    suite_add_tcase(s, tc);
    return s;
}
