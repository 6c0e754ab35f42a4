/* test_curve.c — arc+line curves (Pinter Figs 5-6) and chained legs: geometry invariants, hand cases,
 * the loop the other way round when the target is inside the near turning circle. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../../planner/geom/curve.h"
#include "../../../planner/base/path.h"
#include "../../util.h"
#include "../suites.h"

static void assert_heading_eq(double a, double b, double tol)
{
    ck_assert_msg(fabs(ap_angle_wrap(a - b)) < tol, "heading %.15f != %.15f", a, b);
}

/* The invariants every curve must keep: arcs on their circle with length r|sweep|, joined end to start,
 * headings continuous, starting at the pose and ending at the target. */
static void check_chain(const ap_segment *s, size_t n, double x, double y, double heading, int check_heading,
                        double tx, double ty)
{
    ck_assert_uint_ge(n, 1);
    ck_assert_double_eq_tol(s[0].x0, x, 1e-9);
    ck_assert_double_eq_tol(s[0].y0, y, 1e-9);
    if (check_heading)
        assert_heading_eq(s[0].heading, heading, 1e-9);
    double total = 0.0;
    for (size_t i = 0; i < n; i++) {
        const ap_segment *g = &s[i];
        total += g->length;
        if (g->type == AP_SEG_ARC) {
            ck_assert(g->radius > 0.0);
            ck_assert_double_eq_tol(hypot(g->x0 - g->cx, g->y0 - g->cy), g->radius, 1e-9);
            ck_assert_double_eq_tol(hypot(g->x1 - g->cx, g->y1 - g->cy), g->radius, 1e-9);
            ck_assert_double_eq_tol(g->length, g->radius * fabs(g->sweep), 1e-12);
            /* the heading at the start is tangent to the circle: perpendicular to the radius */
            double rx = g->x0 - g->cx, ry = g->y0 - g->cy;
            ck_assert_double_eq_tol((rx * cos(g->heading) + ry * sin(g->heading)) / g->radius, 0.0, 1e-9);
            /* the end pose from Listing 2 is the stored end point */
            ap_pose e = ap_segment_pose(g, g->length);
            ck_assert_double_eq_tol(e.x, g->x1, 1e-9);
            ck_assert_double_eq_tol(e.y, g->y1, 1e-9);
        } else {
            ck_assert_double_eq_tol(g->length, hypot(g->x1 - g->x0, g->y1 - g->y0), 1e-12);
            if (g->length > 1e-6)
                assert_heading_eq(g->heading, atan2(g->y1 - g->y0, g->x1 - g->x0), 1e-9 / fmin(1.0, g->length) + 1e-12);
            /* driven along its heading, the line ends at its end point: sideways by at most 1e-9 tiles (a long
             * line's heading off by 1e-9 rad misses by a turning radius at 10^6 tiles) */
            const double side = (g->x1 - g->x0) * sin(g->heading) - (g->y1 - g->y0) * cos(g->heading);
            ck_assert_msg(fabs(side) <= 1e-9, "line of %g tiles at heading %.17g ends %g tiles aside", g->length,
                          g->heading, side);
        }
        if (i + 1 < n) {
            ck_assert_double_eq_tol(s[i + 1].x0, g->x1, 1e-9);
            ck_assert_double_eq_tol(s[i + 1].y0, g->y1, 1e-9);
        }
    }
    ck_assert_double_eq_tol(s[n - 1].x1, tx, 1e-9);
    ck_assert_double_eq_tol(s[n - 1].y1, ty, 1e-9);
    ck_assert_double_eq_tol(ap_path_length(s, n), total, 1e-12);
}

static void check_g1(const ap_segment *s, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++)
        assert_heading_eq(ap_segment_end_heading(&s[i]), s[i + 1].heading, 1e-9);
}

START_TEST(left_turn_hand)
{
    ap_segment out[2];
    int tight = -1;
    size_t n = ap_curve_arc_line(0.0, 0.0, 0.0, 0.0, 10.0, 2.0, out, &tight);
    ck_assert_int_eq(tight, 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(out[0].type, AP_SEG_ARC);
    ck_assert_int_eq(out[1].type, AP_SEG_LINE);
    /* turning toward +y: centre (0, 2); h = 8, d = sqrt(60); tangent angle on the circle phi - theta */
    ck_assert_double_eq_tol(out[0].cx, 0.0, 1e-12);
    ck_assert_double_eq_tol(out[0].cy, 2.0, 1e-12);
    ck_assert(out[0].sweep > 0.0);
    double theta = acos(2.0 / 8.0);
    double q = M_PI_2 - theta;                      /* leaving angle on the circle */
    ck_assert_double_eq_tol(out[0].sweep, q + M_PI_2, 1e-12); /* from -pi/2 to q */
    ck_assert_double_eq_tol(out[1].length, sqrt(60.0), 1e-12);
    check_chain(out, n, 0, 0, 0, 1, 0, 10);
    check_g1(out, n);
    /* mirror: the target at -y turns the other way with the same length */
    ap_segment m2[2];
    size_t n2 = ap_curve_arc_line(0.0, 0.0, 0.0, 0.0, -10.0, 2.0, m2, NULL);
    ck_assert_uint_eq(n2, 2);
    ck_assert_double_eq_tol(m2[0].sweep, -out[0].sweep, 1e-12);
    ck_assert_double_eq_tol(ap_path_length(m2, 2), ap_path_length(out, 2), 1e-12);
}
END_TEST

START_TEST(straight_and_degenerate)
{
    ap_segment out[2];
    int tight;
    /* dead ahead: one line, no arc */
    ck_assert_uint_eq(ap_curve_arc_line(1.0, 1.0, 0.0, 9.0, 1.0, 3.0, out, &tight), 1);
    ck_assert_int_eq(out[0].type, AP_SEG_LINE);
    ck_assert_double_eq_tol(out[0].length, 8.0, 1e-12);
    /* the target at the pose: nothing */
    ck_assert_uint_eq(ap_curve_arc_line(1.0, 1.0, 0.3, 1.0, 1.0, 3.0, out, &tight), 0);
    /* r = 0: a straight line whatever the heading */
    ck_assert_uint_eq(ap_curve_arc_line(1.0, 1.0, 2.0, 4.0, 5.0, 0.0, out, &tight), 1);
    ck_assert_int_eq(out[0].type, AP_SEG_LINE);
    ck_assert_double_eq_tol(out[0].length, 5.0, 1e-12);
    /* straight behind: a U-turn on the radius-r circle, then the line back */
    size_t n = ap_curve_arc_line(0.0, 0.0, 0.0, -6.0, 0.0, 1.0, out, &tight);
    ck_assert_int_eq(tight, 0);
    check_chain(out, n, 0, 0, 0, 1, -6, 0);
    check_g1(out, n);
}
END_TEST

/* A far target a hair off the heading: the arc toward it is shorter than 1e-12 tiles but not negligible, for
 * the line after it points along the arc's end heading (a helper: (0, 0, 0) -> (10^6, 0.001) at r 0.001 was
 * one line from the pose under heading 0, ending a whole turning radius aside of where it drives). */
START_TEST(far_target_a_hair_off_the_heading)
{
    const double cases[][4] = {{1e6, 1e-3, 1e-3, 0.0}, {1000.0, 1e-6, 1e-3, 0.0}, {1e6, 1e-6, 1.0, 0.0},
                               {1e6, -1e-3, 1e-3, 0.0}, {-1e6, 1e-3, 1e-3, M_PI}, {3.0, 4.0 + 1e-9, 1e-4, atan2(4.0, 3.0)}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const double tx = cases[i][0], ty = cases[i][1], r = cases[i][2], h = cases[i][3];
        ap_segment out[2];
        int tight = -1;
        const size_t n = ap_curve_arc_line(0.0, 0.0, h, tx, ty, r, out, &tight);
        ck_assert_int_eq(tight, 0);
        check_chain(out, n, 0, 0, h, 1, tx, ty);
        check_g1(out, n);
    }
}
END_TEST

/* A target on the turning circle came out a rounding step inside it (the centre's cos(heading + pi/2) is
 * ~6e-17 off) and that side was refused: (0, 0, 0) -> (1, 1) at r 1 went 7.64 tiles the other way round
 * instead of the left quarter arc. And a target a hair behind needs a full circle (forward only): snapping
 * the circle away drove the line backwards under a forward heading (r 1000, 4e-7 behind). */
START_TEST(targets_on_the_circle_and_a_hair_behind)
{
    ap_segment out[2];
    int tight = -1;
    size_t n = ap_curve_arc_line(0.0, 0.0, 0.0, 1.0, 1.0, 1.0, out, &tight);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(out[0].type, AP_SEG_ARC);
    ck_assert_double_eq_tol(out[0].sweep, M_PI_2, 1e-12);
    check_chain(out, n, 0, 0, 0, 1, 1, 1);
    /* points of the left circle all round (radius 1, centre (0, 1)): the arc alone, sweep = their angle */
    for (int i = 1; i < 64; i++) {
        const double a = 2.0 * M_PI * i / 64.0, tx = sin(a), ty = 1.0 - cos(a);
        n = ap_curve_arc_line(0.0, 0.0, 0.0, tx, ty, 1.0, out, &tight);
        ck_assert_int_eq(tight, 0);
        check_chain(out, n, 0, 0, 0, 1, tx, ty);
        ck_assert_msg(ap_path_length(out, n) <= a + 1e-9, "angle %g: %g tiles", a, ap_path_length(out, n));
    }
    n = ap_curve_arc_line(0.0, 0.0, 0.0, -4e-7, 0.0, 1000.0, out, &tight);
    check_chain(out, n, 0, 0, 0, 1, -4e-7, 0);
    check_g1(out, n);
    ck_assert_double_eq_tol(ap_path_length(out, n), 2000.0 * M_PI, 1e-3);
    /* a hair ahead stays a line */
    n = ap_curve_arc_line(0.0, 0.0, 0.0, 4e-7, 0.0, 1000.0, out, &tight);
    ck_assert_uint_eq(n, 1);
    ck_assert_double_eq_tol(out[0].length, 4e-7, 1e-15);
}
END_TEST

START_TEST(target_inside_near_circle_loops_the_other_way)
{
    ap_segment out[2];
    int tight = -1;
    /* (1, 1) lies inside the left circle of radius 5 (centre (0, 5), distance sqrt(17) < 5): the unit turns
     * right round the circle centred (0, -5) (distance sqrt(37) > 5) instead of turning tighter than 5. */
    size_t n = ap_curve_arc_line(0.0, 0.0, 0.0, 1.0, 1.0, 5.0, out, &tight);
    ck_assert_int_eq(tight, 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(out[0].type, AP_SEG_ARC);
    ck_assert_double_eq_tol(out[0].radius, 5.0, 1e-12);
    ck_assert(out[0].sweep < -M_PI);
    ck_assert_double_eq_tol(out[0].cx, 0.0, 1e-12);
    ck_assert_double_eq_tol(out[0].cy, -5.0, 1e-12);
    /* the tangent length from the centre: sqrt(37 - 25) */
    ck_assert_double_eq_tol(out[1].length, sqrt(12.0), 1e-9);
    check_chain(out, n, 0, 0, 0, 1, 1, 1);
    check_g1(out, n);
    const double pts[3][2] = {{0.0, 0.0}, {10.0, 0.0}, {10.5, 0.5}};
    ap_segment segs[4];
    size_t t = 9;
    size_t k = ap_curve_path(pts, 3, 0.0, 1, 4.0, segs, &t);
    ck_assert_uint_eq(t, 0);
    for (size_t q = 0; q < k; q++)
        if (segs[q].type == AP_SEG_ARC)
            ck_assert_double_eq_tol(segs[q].radius, 4.0, 1e-12);
    check_chain(segs, k, 0, 0, 0, 1, 10.5, 0.5);
    check_g1(segs, k);
}
END_TEST

/* Targets an ulp or two from the unit at large coordinates (a helper's cases): every arc at the turning
 * radius, never the tightened fallback (the circles' centres were rounded at the coordinates' scale, both
 * sides refused, and an arc of radius 2e-10 came out for r 0.1). A target within AP_SAME_POSE turning radii
 * is the unit's own point: no segment (a loop of 628 tiles for a target 1e-10 behind at r 100). */
START_TEST(near_targets_at_large_coordinates)
{
    const double cases[][6] = {
        {999999.5, -999999.5, 0.3, 999999.5000000001, -999999.5, 0.1},
        {729229.7847889683, 118398.03256038856, 1.1279990757389111, 729229.7847889683, 118398.03256038851,
         0.019037348100523963},
    };
    for (size_t i = 0; i < 2; i++) {
        const double *c = cases[i];
        ap_segment s[2];
        int tight = -1;
        size_t n = ap_curve_arc_line(c[0], c[1], c[2], c[3], c[4], c[5], s, &tight);
        ck_assert_int_eq(tight, 0);
        ck_assert_uint_ge(n, 1);
        for (size_t k = 0; k < n; k++)
            if (s[k].type == AP_SEG_ARC)
                ck_assert_double_eq_tol(s[k].radius, c[5], 1e-12);
    }
    ap_segment s[2];
    ck_assert_uint_eq(ap_curve_arc_line(0, 0, 0, -1e-10, 0, 100.0, s, NULL), 0);
    ck_assert_uint_eq(ap_curve_arc_line(0, 0, 0, -3e-9, 0, 100.0, s, NULL), 1); /* 3e-11 radii: the loop */
    ck_assert_double_eq_tol(s[0].radius, 100.0, 1e-12);
}
END_TEST

START_TEST(random_invariants)
{
    ap_test_rng rng = {42};
    int count = ap_test_quick() ? 500 : 5000, tight_seen = 0;
    for (int i = 0; i < count; i++) {
        double x = 20 * ap_test_rand01(&rng), y = 20 * ap_test_rand01(&rng);
        double h = 4 * M_PI * (ap_test_rand01(&rng) - 0.5);
        double tx = 20 * ap_test_rand01(&rng), ty = 20 * ap_test_rand01(&rng);
        double r = 6 * ap_test_rand01(&rng);
        ap_segment out[2];
        int tight;
        size_t n = ap_curve_arc_line(x, y, h, tx, ty, r, out, &tight);
        tight_seen += tight;
        check_chain(out, n, x, y, h, r > 0.0, tx, ty);
        for (size_t q = 0; q < n; q++)
            if (out[q].type == AP_SEG_ARC)
                ck_assert_double_eq_tol(out[q].radius, r, 1e-12);
        if (r > 0.0)
            check_g1(out, n);
        /* never longer than the loop the other way would be: the chosen curve is at most r * 2pi + dist */
        ck_assert(ap_path_length(out, n) <= r * 2 * M_PI + hypot(tx - x, ty - y) + 1e-9);
    }
    ck_assert_int_eq(tight_seen, 0);
    /* chained paths with duplicates */
    for (int i = 0; i < (ap_test_quick() ? 100 : 1000); i++) {
        double pts[8][2];
        for (int k = 0; k < 8; k++) {
            pts[k][0] = 30 * ap_test_rand01(&rng);
            pts[k][1] = 30 * ap_test_rand01(&rng);
        }
        pts[3][0] = pts[2][0]; /* a duplicate waypoint */
        pts[3][1] = pts[2][1];
        double r = (i % 4 == 0) ? 0.0 : 3 * ap_test_rand01(&rng);
        double h0 = 2 * M_PI * ap_test_rand01(&rng);
        ap_segment segs[14];
        size_t n = ap_curve_path((const double(*)[2])pts, 8, h0, 1, r, segs, NULL);
        check_chain(segs, n, pts[0][0], pts[0][1], h0, r > 0, pts[7][0], pts[7][1]);
        if (r > 0.0) {
            check_g1(segs, n);
        } else {
            ck_assert_uint_eq(n, 6);
            for (size_t k = 0; k < n; k++)
                ck_assert_int_eq(segs[k].type, AP_SEG_LINE);
        }
        /* every leg ends exactly on its waypoint */
        size_t leg = 1;
        for (size_t k = 0; k < n; k++)
            if (segs[k].x1 == pts[leg][0] && segs[k].y1 == pts[leg][1]) {
                leg++;
                if (leg == 3)
                    leg = 4; /* the duplicate */
            }
        ck_assert_uint_eq(leg, 8);
    }
}
END_TEST

START_TEST(no_heading_faces_first_leg)
{
    const double pts[3][2] = {{1.0, 1.0}, {1.0, 1.0}, {1.0, 6.0}};
    ap_segment segs[4];
    size_t n = ap_curve_path(pts, 3, 123.0, 0, 2.0, segs, NULL);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(segs[0].type, AP_SEG_LINE);
    ck_assert_double_eq_tol(segs[0].heading, M_PI_2, 1e-12);
    ck_assert_uint_eq(ap_curve_path(pts, 1, 0.0, 0, 2.0, segs, NULL), 0);
}
END_TEST

Suite *curve_suite(void)
{
    Suite *s = suite_create("curve");
    TCase *tc = tcase_create("arc_line");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, left_turn_hand);
    tcase_add_test(tc, straight_and_degenerate);
    tcase_add_test(tc, target_inside_near_circle_loops_the_other_way);
    tcase_add_test(tc, targets_on_the_circle_and_a_hair_behind);
    tcase_add_test(tc, random_invariants);
    tcase_add_test(tc, near_targets_at_large_coordinates);
    tcase_add_test(tc, far_target_a_hair_off_the_heading);
    tcase_add_test(tc, no_heading_faces_first_leg);
    suite_add_tcase(s, tc);
    return s;
}
