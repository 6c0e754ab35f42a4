/* test_curve_route.c — POST /v1/curve end to end through ap_curve_route (parse, curve, encode): every request
 * inside the documented bounds answers 200 with a curve that ends at the goal, including the corners of the
 * bounds (turning radius 1e-3 with goals 2e6 tiles away, headings of 1e300), which once answered 500.
 * ap_curve_route returns the ap status it answered (AP_OK = HTTP 200). */
#include "tests/check_fast.h"
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/base/status.h"
#include "proto/curve.h"
#include "server/curve_route.h"

static const char *const models[] = {"dubins", "reeds_shepp", "pinter"};

/* Run one request; on AP_OK check the end of the last segment against the goal (tolerance relative to the
 * distance travelled) and return the answer's word in word (cap bytes). Returns the ap status. */
static int run(double sx, double sy, double sh, double gx, double gy, double gh, double r, int model, char *word,
               size_t cap)
{
    char body[512];
    snprintf(body, sizeof body,
             "{\"start\":{\"x\":%.17g,\"y\":%.17g,\"heading\":%.17g},\"goal\":{\"x\":%.17g,\"y\":%.17g,"
             "\"heading\":%.17g},\"turning_radius\":%.17g,\"model\":\"%s\"}",
             sx, sy, sh, gx, gy, gh, r, models[model]);
    char *out = NULL;
    size_t len = 0;
    int st = ap_curve_route(body, strlen(body), &out, &len);
    ck_assert_ptr_nonnull(out);
    if (st == AP_OK) {
        json_error_t je;
        json_t *root = json_loadb(out, len, 0, &je);
        ck_assert_ptr_nonnull(root);
        double length = json_real_value(json_object_get(root, "length"));
        ck_assert(isfinite(length));
        json_t *segs = json_object_get(root, "segments");
        size_t n = json_array_size(segs);
        if (n > 0) {
            json_t *end = json_object_get(json_array_get(segs, n - 1), "end");
            double ex = json_real_value(json_array_get(end, 0)), ey = json_real_value(json_array_get(end, 1));
            double tol = 1e-9 * (1.0 + length + fabs(gx) + fabs(gy));
            ck_assert_msg(fabs(ex - gx) <= tol && fabs(ey - gy) <= tol, "%s ends at (%g, %g), goal (%g, %g)", body,
                          ex, ey, gx, gy);
        }
        snprintf(word, cap, "%s", json_string_value(json_object_get(root, "word")));
        json_decref(root);
    }
    free(out);
    return st;
}

START_TEST(in_bounds_never_500)
{
    char word[32];
    const double B = AP_CURVE_MAX_COORD, rmin = AP_CURVE_MIN_TURNING_RADIUS, rmax = AP_CURVE_MAX_TURNING_RADIUS;
    /* The corners of the bounds, every model. */
    const double corners[][7] = {
        {0, 0, 0, 4, 4, 1.5708, rmin},  {-B, -B, 1e300, B, B, -1e300, rmin}, {-B, B, 1e16, B, -B, 3, rmin},
        {-B, -B, 0, B, B, 0, rmax},     {0, 0, 0, 1e-9, 0, 0, rmin},         {B, B, -1e308, B, B, 1e308, rmax},
    };
    for (size_t i = 0; i < sizeof corners / sizeof corners[0]; i++)
        for (int m = 0; m < 3; m++) {
            const double *c = corners[i];
            ck_assert_int_eq(run(c[0], c[1], c[2], c[3], c[4], c[5], c[6], m, word, sizeof word), AP_OK);
        }
    /* Random requests over the whole range (log-uniform radii and distances). */
    srand(7);
    for (int i = 0; i < 600; i++) {
        double u[8];
        for (int k = 0; k < 8; k++)
            u[k] = rand() / (double)RAND_MAX;
        double scale = pow(10.0, -3.0 + 9.0 * u[0]);
        double sx = (u[1] * 2 - 1) * fmin(scale, B), sy = (u[2] * 2 - 1) * fmin(scale, B);
        double gx = (u[3] * 2 - 1) * fmin(scale, B), gy = (u[4] * 2 - 1) * fmin(scale, B);
        double r = rmin * pow(rmax / rmin, u[5]);
        double sh = (u[6] * 2 - 1) * pow(10.0, 20.0 * u[7]), gh = -sh * 0.37;
        ck_assert_int_eq(run(sx, sy, sh, gx, gy, gh, r, i % 3, word, sizeof word), AP_OK);
    }
}
END_TEST

/* start == goal: no curve, so no word (the spec's promise), for every model. */
START_TEST(same_pose_has_empty_word)
{
    char word[32];
    for (int m = 0; m < 3; m++) {
        ck_assert_int_eq(run(3, 4, 0.5, 3, 4, 0.5, 2, m, word, sizeof word), AP_OK);
        ck_assert_str_eq(word, "");
    }
}
END_TEST

/* The word names the pieces driven, in every model: a Dubins curve that is one line is "S" (it said RSL,
 * LSL or LSR, by rounding, for the same line, where Reeds-Shepp said S+), and one of a line then an arc "SL". */
START_TEST(word_names_the_pieces_driven)
{
    char word[32];
    ck_assert_int_eq(run(53.81, 14.1, -0.7335, 53.81 + 3.7 * cos(-0.7335), 14.1 + 3.7 * sin(-0.7335), -0.7335, 3.7, 0,
                         word, sizeof word),
                     AP_OK);
    ck_assert_str_eq(word, "S");
    ck_assert_int_eq(run(0, 0, 0, 5, 0, 0, 1, 1, word, sizeof word), AP_OK);
    ck_assert_str_eq(word, "S+");
    /* a line of 3, then a quarter turn left round (3, 1): ends at (4, 1) facing +y */
    ck_assert_int_eq(run(0, 0, 0, 4, 1, M_PI / 2, 1, 0, word, sizeof word), AP_OK);
    ck_assert_str_eq(word, "SL");
    ck_assert_int_eq(run(0, 0, 0, 0, 4, M_PI, 1, 0, word, sizeof word), AP_OK);
    ck_assert_str_eq(word, "LSL");
    ck_assert_int_eq(run(0, 0, 0, 4, 1, 0, 1, 2, word, sizeof word), AP_OK);
    ck_assert_str_eq(word, "LS");
}
END_TEST

Suite *curve_route_suite(void);
Suite *curve_route_suite(void)
{
    Suite *s = suite_create("curve_route");
    TCase *tc = tcase_create("curve_route");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, in_bounds_never_500);
    tcase_add_test(tc, same_pose_has_empty_word);
    tcase_add_test(tc, word_names_the_pieces_driven);
    suite_add_tcase(s, tc);
    return s;
}
