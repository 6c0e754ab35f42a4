/* test_turning.c — any-angle paths for turning units (planner/anyangle/turning.h): the radii, the graph's
 * grown hug circles, and the Dubins joins at the ends (ap_aa_turn_join) on hand-made paths with chosen
 * clearance tests. */
#include <math.h>
#include <stdlib.h>

#include "../../../planner/anyangle/graph.h"
#include "../../../planner/anyangle/turning.h"
#include "../../../planner/base/status.h"
#include "../../../planner/geom/dubins.h"
#include "../../util.h"
#include "../suites.h"

static bool always(void *ctx, const ap_segment *s, size_t n)
{
    (*(int *)ctx)++;
    return true;
}

static bool never(void *ctx, const ap_segment *s, size_t n)
{
    return false;
}

/* Clear when the curve ends at x <= 12 (a stand-in for obstacles beside the path): counts the refusals. */
static bool ends_near(void *ctx, const ap_segment *s, size_t n)
{
    if (s[n - 1].x1 <= 12.0)
        return true;
    (*(int *)ctx)++;
    return false;
}

/* Joined, G1, from (sx, sy, sh) to (gx, gy, gh) (a NAN heading: not checked), arcs of radius R or the
 * path's own (>= R), lengths adding up. Returns the total. */
static double check_joined(const ap_segment *s, size_t n, double sx, double sy, double sh, double gx, double gy,
                           double gh, double R)
{
    ck_assert_uint_ge(n, 1);
    ck_assert_double_eq_tol(s[0].x0, sx, 1e-9);
    ck_assert_double_eq_tol(s[0].y0, sy, 1e-9);
    if (!isnan(sh))
        ck_assert_double_le(fabs(ap_angle_wrap(s[0].heading - sh)), 1e-9);
    double total = 0.0;
    for (size_t i = 0; i < n; i++) {
        total += s[i].length;
        ck_assert_double_ge(s[i].length, 0.0);
        if (s[i].type == AP_SEG_ARC)
            ck_assert_double_ge(s[i].radius, R - 1e-12);
        if (i > 0) {
            ck_assert_double_le(hypot(s[i].x0 - s[i - 1].x1, s[i].y0 - s[i - 1].y1), 1e-9);
            ck_assert_double_le(fabs(ap_angle_wrap(s[i].heading - ap_segment_end_heading(&s[i - 1]))), 1e-9);
        }
    }
    ck_assert_double_eq_tol(s[n - 1].x1, gx, 1e-9);
    ck_assert_double_eq_tol(s[n - 1].y1, gy, 1e-9);
    if (!isnan(gh))
        ck_assert_double_le(fabs(ap_angle_wrap(ap_segment_end_heading(&s[n - 1]) - gh)), 1e-9);
    return total;
}

START_TEST(radii)
{
    ck_assert_double_eq(ap_aa_turn_clearance(0.4), 0.4 + AP_AA_TURN_MARGIN);
    ck_assert_double_eq(ap_aa_turn_clearance(0.0), AP_AA_GRID_MIN_RADIUS);
    ck_assert_double_eq(ap_aa_turn_radius(0.4, 2.0), 2.0);
    ck_assert_double_eq(ap_aa_turn_radius(0.4, 0.3), 0.4 + AP_AA_TURN_MARGIN);
    ck_assert_double_eq(ap_aa_turn_radius(0.0, 1e-7), AP_AA_GRID_MIN_RADIUS);
}
END_TEST

START_TEST(grow_hugs)
{
    /* One blocked square: four convex corners, radius 0.25 grown to 1.5; tests stay at 0.25. */
    ap_map *m = ap_test_map_from_string("type octile\nheight 5\nwidth 5\nmap\n.....\n.....\n..@..\n.....\n.....\n");
    ap_aa_graph *g;
    ck_assert_int_eq(ap_aa_graph_grid_lazy(m, 0.25, &g), AP_OK);
    ck_assert_uint_eq(g->n, 4);
    ck_assert_int_eq(ap_aa_graph_grow_hugs(g, 1.25), AP_OK);
    for (size_t k = 0; k < g->n; k++)
        ck_assert_double_eq(g->R[k], 1.5);
    ck_assert_double_eq(g->hug_grow, 1.25);
    ck_assert_double_eq(g->unit_radius, 0.25);
    ck_assert(g->space.line_ok(g->space.ctx, 0.5, 1.7, 4.5, 1.7)); /* 0.3 from the square: clear for 0.25 */
    ck_assert_int_eq(ap_aa_graph_grow_hugs(g, -1.0), AP_E_INVALID_REQUEST);
    ck_assert_int_eq(ap_aa_graph_grow_hugs(g, NAN), AP_E_INVALID_REQUEST);
    ck_assert_int_eq(ap_aa_graph_precompute(g), AP_OK);
    ck_assert_int_eq(ap_aa_graph_grow_hugs(g, 1.0), AP_E_INVALID_REQUEST); /* eager: its table read the radii */
    ap_aa_graph_free(g);
    ap_map_free(m);
}
END_TEST

START_TEST(join_start_heading_on_a_line)
{
    const ap_segment line = ap_segment_line(0.0, 0.0, 20.0, 0.0);
    ap_segment *out;
    size_t n;
    int calls = 0;
    /* Facing +y: a curve to a pose on the line, then the rest of the line; never longer than the one curve to
     * the end pose (a candidate), never shorter than the line. */
    ck_assert_int_eq(ap_aa_turn_join(&line, 1, 0, 0, 20, 0, true, M_PI_2, false, 0, 2.0, always, &calls, &out, &n),
                     AP_OK);
    const double len = check_joined(out, n, 0, 0, M_PI_2, 20, 0, 0.0, 2.0);
    const ap_pose a = {0, 0, M_PI_2}, b = {20, 0, 0};
    ck_assert_double_le(len, ap_dubins_length(&a, &b, 2.0) + 1e-9);
    ck_assert_double_gt(len, 20.0);
    ck_assert_int_eq(calls, 1); /* the cheapest candidate was clear */
    free(out);
    /* The cheapest candidate is the curve to the goal pose itself (cutting the corner beats joining the line).
     * Curves ending beyond x = 12 refused: the answer joins the line at x <= 12 and runs along it, longer. */
    int refused = 0;
    ck_assert_int_eq(ap_aa_turn_join(&line, 1, 0, 0, 20, 0, true, M_PI_2, false, 0, 2.0, ends_near, &refused, &out,
                                     &n), AP_OK);
    ck_assert_double_gt(check_joined(out, n, 0, 0, M_PI_2, 20, 0, 0.0, 2.0), len + 1e-6);
    ck_assert_int_ge(refused, 1);
    ck_assert_int_eq(out[n - 1].type, AP_SEG_LINE); /* the rest of the path's line */
    ck_assert_double_le(out[n - 1].x0, 12.0 + 1e-9);
    ck_assert_double_eq_tol(out[n - 1].y0, 0.0, 1e-9);
    ck_assert_double_eq_tol(out[n - 1].heading, 0.0, 1e-12);
    free(out);
    /* Nothing clear: no path. */
    ck_assert_int_eq(ap_aa_turn_join(&line, 1, 0, 0, 20, 0, true, M_PI_2, false, 0, 2.0, never, NULL, &out, &n),
                     AP_NO_PATH);
    ck_assert_ptr_null(out);
    /* Headings the path has already: the path itself, no test run. */
    calls = 0;
    ck_assert_int_eq(ap_aa_turn_join(&line, 1, 0, 0, 20, 0, true, 0.0, true, 0.0, 2.0, always, &calls, &out, &n),
                     AP_OK);
    ck_assert_uint_eq(n, 1);
    ck_assert_double_eq(out[0].length, 20.0);
    ck_assert_int_eq(calls, 0);
    free(out);
}
END_TEST

START_TEST(join_goal_heading_through_an_arc)
{
    /* A line, a quarter arc of radius 3 and a line: (0, 0) -> (10, 0), round to (13, 3) facing +y, then down
     * to (13, 10). A goal heading of pi (facing -x) and a start heading of -pi/2. */
    ap_segment p[3];
    p[0] = ap_segment_line(0, 0, 10, 0);
    p[1] = ap_segment_arc(10, 0, 0.0, 3.0, M_PI_2);
    p[2] = ap_segment_line(p[1].x1, p[1].y1, 13, 10);
    ck_assert_double_eq_tol(p[1].x1, 13.0, 1e-12);
    ap_segment *out;
    size_t n;
    int calls = 0;
    ck_assert_int_eq(ap_aa_turn_join(p, 3, 0, 0, 13, 10, true, -M_PI_2, true, M_PI, 1.0, always, &calls, &out, &n),
                     AP_OK);
    const double len = check_joined(out, n, 0, 0, -M_PI_2, 13, 10, M_PI, 1.0);
    const ap_pose a = {0, 0, -M_PI_2}, b = {13, 10, M_PI};
    ck_assert_double_le(len, ap_dubins_length(&a, &b, 1.0) + 1e-9); /* the direct curve is a candidate */
    free(out);
    /* Only the goal heading, the start free: joined at the goal, no longer than the path's own start with
     * the goal's curve from the path's far end. */
    ck_assert_int_eq(ap_aa_turn_join(p, 3, 0, 0, 13, 10, false, 0, true, M_PI, 1.0, always, &calls, &out, &n), AP_OK);
    const ap_pose e = {13, 10, M_PI_2};
    ck_assert_double_le(check_joined(out, n, 0, 0, NAN, 13, 10, M_PI, 1.0),
                        ap_path_length(p, 3) + ap_dubins_length(&e, &b, 1.0) + 1e-9);
    free(out);
    /* Both ends free: shortcut by arc+line curves where shorter and clear; nothing clear: the path itself. */
    ck_assert_int_eq(ap_aa_turn_join(p, 3, 0, 0, 13, 10, false, 0, false, 0, 1.0, always, &calls, &out, &n), AP_OK);
    const double cut = check_joined(out, n, 0, 0, NAN, 13, 10, NAN, 1.0);
    ck_assert_double_lt(cut, ap_path_length(p, 3) - 1.0);
    ck_assert_double_ge(cut, hypot(13.0, 10.0));
    free(out);
    ck_assert_int_eq(ap_aa_turn_join(p, 3, 0, 0, 13, 10, false, 0, false, 0, 1.0, never, NULL, &out, &n), AP_OK);
    ck_assert_uint_eq(n, 3);
    for (int i = 0; i < 3; i++)
        ck_assert_double_eq_tol(out[i].length, p[i].length, 1e-12);
    free(out);
    /* start == goal: two different headings make a loop; one heading nothing. */
    ck_assert_int_eq(ap_aa_turn_join(NULL, 0, 5, 5, 5, 5, true, 0.0, true, M_PI, 1.0, always, &calls, &out, &n),
                     AP_OK);
    const ap_pose c = {5, 5, 0.0}, d = {5, 5, M_PI};
    ck_assert_double_eq_tol(check_joined(out, n, 5, 5, 0.0, 5, 5, M_PI, 1.0), ap_dubins_length(&c, &d, 1.0), 1e-9);
    free(out);
    ck_assert_int_eq(ap_aa_turn_join(NULL, 0, 5, 5, 5, 5, true, 0.0, false, 0, 1.0, always, &calls, &out, &n), AP_OK);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(ap_aa_turn_join(NULL, 0, 5, 5, 5, 5, true, 0.0, true, M_PI, 1.0, never, NULL, &out, &n),
                     AP_NO_PATH);
}
END_TEST

Suite *aa_turning_suite(void)
{
    Suite *s = suite_create("aa_turning");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, radii);
    tcase_add_test(tc, grow_hugs);
    tcase_add_test(tc, join_start_heading_on_a_line);
    tcase_add_test(tc, join_goal_heading_through_an_arc);
    suite_add_tcase(s, tc);
    return s;
}
