/* test_circles.c — the circle world (planner/world/circles.h): strict validation naming the bad field,
 * the closed-disc rule at exact distances, and the bucket grid agreeing with a scan of every disc on random
 * lines, arcs and points (with overlapping, huge and off-world discs). */
#include <math.h>
#include <string.h>

#include "../../../planner/base/status.h"
#include "../../../planner/world/circles.h"
#include "../suites.h"

START_TEST(validation_names_the_field)
{
    ap_circle_world *cw;
    char field[64], msg[128];
    ap_circle c[3] = {{1, 1, 1}, {2, 2, 0}, {3, 3, 1}};
    ck_assert_int_eq(ap_circle_world_create(0, 10, c, 3, &cw, field, sizeof field, msg, sizeof msg), AP_E_MAP_FORMAT);
    ck_assert_str_eq(field, "width");
    ck_assert_int_eq(ap_circle_world_create(10, NAN, c, 3, &cw, field, sizeof field, msg, sizeof msg),
                     AP_E_MAP_FORMAT);
    ck_assert_str_eq(field, "height");
    c[2].r = -0.5;
    ck_assert_int_eq(ap_circle_world_create(10, 10, c, 3, &cw, field, sizeof field, msg, sizeof msg),
                     AP_E_MAP_FORMAT);
    ck_assert_str_eq(field, "circles[2].r");
    ck_assert_str_eq(msg, "must be a finite number in [0, 1e7]");
    ck_assert_ptr_null(cw);
    c[2].r = 1;
    c[1].x = INFINITY;
    ck_assert_int_eq(ap_circle_world_create(10, 10, c, 3, &cw, field, sizeof field, msg, sizeof msg),
                     AP_E_MAP_FORMAT);
    ck_assert_str_eq(field, "circles[1].x");
    c[1].x = -50; /* a centre may lie anywhere */
    c[0].y = NAN;
    ck_assert_int_eq(ap_circle_world_create(10, 10, c, 3, &cw, NULL, 0, NULL, 0), AP_E_MAP_FORMAT);
    c[0].y = 1;
    ck_assert_int_eq(ap_circle_world_create(10, 10, c, 3, &cw, NULL, 0, NULL, 0), AP_OK);
    ck_assert_uint_eq(ap_circle_world_count(cw), 3);
    ck_assert_double_eq(ap_circle_world_circles(cw)[1].x, -50);
    ap_circle_world_free(cw);
    ck_assert_int_eq(ap_circle_world_create(10, 10, NULL, 0, &cw, NULL, 0, NULL, 0), AP_OK);
    ap_world w;
    ap_circle_world_view(cw, &w);
    ck_assert(ap_world_line_clear(&w, 1, 1, 9, 9, 0.5));
    ck_assert(!ap_world_line_clear(&w, 1, 1, 9, 9.6, 0.5));
    ap_circle_world_free(cw);
}
END_TEST

START_TEST(closed_disc_rule_at_exact_distances)
{
    ap_circle c[] = {{5, 5, 1}};
    ap_circle_world *cw;
    ck_assert_int_eq(ap_circle_world_create(10, 10, c, 1, &cw, NULL, 0, NULL, 0), AP_OK);
    ap_world w;
    ap_circle_world_view(cw, &w);
    ck_assert_double_eq(w.width, 10.0);
    /* A line at distance 1.5 from the centre: clear below r = 0.5, touching at 0.5. */
    ck_assert(ap_world_line_clear(&w, 0.5, 6.5, 9.5, 6.5, 0.49));
    ck_assert(!ap_world_line_clear(&w, 0.5, 6.5, 9.5, 6.5, 0.5));
    ck_assert(ap_circle_world_line_tol(cw, 0.5, 6.5, 9.5, 6.5, 0.5, -AP_CIRCLES_EPS)); /* closure: touching ok */
    /* The foot of the perpendicular off the segment: the end point's distance counts (Red Blob's clamp). */
    ck_assert(ap_world_line_clear(&w, 0.5, 5, 3.9, 5, 0.0));
    ck_assert(!ap_world_line_clear(&w, 0.5, 5, 4.0, 5, 0.0));
    ck_assert(ap_world_point_clear(&w, 5, 7.01, 1.0));
    ck_assert(!ap_world_point_clear(&w, 5, 7.0, 1.0));
    ck_assert(!ap_world_point_clear(&w, 0.3, 3, 0.3));
    /* An arc of radius 2 round (5, 5): the disc of radius 1 at distance 2 touches it at r = 1. */
    ap_segment a = ap_segment_arc(7, 5, M_PI / 2, 2, M_PI / 2);
    ck_assert_double_eq_tol(a.cx, 5, 1e-12);
    ck_assert(ap_world_segment_clear(&w, &a, 0.99));
    ck_assert(!ap_world_segment_clear(&w, &a, 1.0));
    /* An arc that turns away from the disc: only its ends are near. */
    ap_segment b = ap_segment_arc(7.5, 5, M_PI / 2, 1, -M_PI / 2); /* centre (8.5, 5), from (7.5,5) to (8.5,6) */
    ck_assert_double_eq_tol(b.cx, 8.5, 1e-12);
    ck_assert(ap_world_segment_clear(&w, &b, 1.49));
    ck_assert(!ap_world_segment_clear(&w, &b, 1.5));
    ck_assert_uint_eq(ap_world_region(&w, 1, 1), 1);
    ck_assert_uint_eq(ap_world_region(&w, 5, 5), 0);
    ck_assert_ptr_null(ap_world_table(&w, "jps_plus"));
    ap_circle_world_free(cw);
}
END_TEST

/* Scan every disc (no index): the rule of circles.h. */
static bool brute_line(const ap_circle *c, size_t n, double W, double H, double ax, double ay, double bx, double by,
                       double r)
{
    if (!(fmin(ax, bx) > r + 1e-9 && fmin(ay, by) > r + 1e-9 && fmax(ax, bx) < W - r - 1e-9 &&
          fmax(ay, by) < H - r - 1e-9))
        return false;
    for (size_t k = 0; k < n; k++) {
        double dx = bx - ax, dy = by - ay, L = dx * dx + dy * dy;
        double t = L > 0 ? ((c[k].x - ax) * dx + (c[k].y - ay) * dy) / L : 0;
        t = fmin(fmax(t, 0), 1);
        if (hypot(ax + t * dx - c[k].x, ay + t * dy - c[k].y) <= c[k].r + r + 1e-9)
            return false;
    }
    return true;
}

START_TEST(bucket_index_agrees_with_a_full_scan)
{
    ap_test_rng g = {4242};
    int agree = 0, clear = 0;
    for (int t = 0; t < 40; t++) {
        size_t n = 1 + ap_test_rand(&g) % 300;
        ap_circle c[300];
        for (size_t i = 0; i < n; i++) {
            double big = ap_test_rand(&g) % 50 == 0 ? 20.0 : 1.0; /* a few huge discs (the always-read list) */
            c[i] = (ap_circle){ap_test_rand01(&g) * 120 - 10, ap_test_rand01(&g) * 120 - 10,
                               ap_test_rand01(&g) * 1.5 * big};
        }
        ap_circle_world *cw;
        ck_assert_int_eq(ap_circle_world_create(100, 100, c, n, &cw, NULL, 0, NULL, 0), AP_OK);
        ap_world w;
        ap_circle_world_view(cw, &w);
        for (int k = 0; k < 100; k++) {
            double ax = ap_test_rand01(&g) * 100, ay = ap_test_rand01(&g) * 100;
            double len = ap_test_rand01(&g) * 30, h = ap_test_rand01(&g) * 2 * M_PI;
            double bx = ax + len * cos(h), by = ay + len * sin(h), r = ap_test_rand01(&g) * 2;
            bool want = brute_line(c, n, 100, 100, ax, ay, bx, by, r);
            ck_assert_int_eq(ap_world_line_clear(&w, ax, ay, bx, by, r), want);
            clear += want;
            agree++;
        }
        ap_circle_world_free(cw);
    }
    ck_assert_int_eq(agree, 4000);
    ck_assert_int_ge(clear, 200); /* both verdicts occur */
    ck_assert_int_le(clear, 3800);
}
END_TEST

/* A world of subnormal size (width and height in (0, 1e7] allow it) divided into buckets of size 0, and a
 * disc's edge at 0 then computed bucket 0 / 0 = NaN: an index of INT_MIN and a write far out of bounds
 * (the server died on such a map file at start or on PUT). It builds and answers like any world. */
START_TEST(subnormal_world_builds)
{
    const ap_circle c[] = {{0.0, 0.0, 0.0}, {1.0, 1.0, 1.0}, {0.0, 0.0, 1e-323}};
    const double sizes[] = {1e-322, 4.9e-324, 2.5e-321};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        ap_circle_world *cw = NULL;
        ck_assert_int_eq(ap_circle_world_create(sizes[i], sizes[i], c, 3, &cw, NULL, 0, NULL, 0), AP_OK);
        ap_world w;
        ap_circle_world_view(cw, &w);
        ck_assert(!ap_world_line_clear(&w, 0.0, 0.0, sizes[i], sizes[i], 0.0)); /* the discs at the origin */
        ap_circle_world_free(cw);
    }
}
END_TEST

/* The point unit's rule (circles.h, ap_circle_world_point_segment_ok): touching one obstacle is allowed,
 * passing a point within 1e-9 of two on opposite sides (a gap of width 0) is not. A (20, 6) and B (20, 18),
 * radius 6, touch each other at (20, 12) and the world's bottom and top sides at (20, 0) and (20, 24). */
START_TEST(point_rule_refuses_zero_width_gaps)
{
    ap_circle c[] = {{20, 6, 6}, {20, 18, 6}};
    ap_circle_world *cw;
    ck_assert_int_eq(ap_circle_world_create(40, 24, c, 2, &cw, NULL, 0, NULL, 0), AP_OK);
    ap_segment s = ap_segment_line(2, 12, 32, 12); /* through the touching point */
    ck_assert(ap_circle_world_line_tol(cw, 2, 12, 32, 12, 0.0, -AP_CIRCLES_EPS)); /* the closure allows it */
    ck_assert(!ap_circle_world_point_segment_ok(cw, &s, NULL, NULL));
    s = ap_segment_line(2, 0, 32, 0); /* along the bottom side, through A's touch with it */
    ck_assert(ap_circle_world_line_tol(cw, 2, 0, 32, 0, 0.0, -AP_CIRCLES_EPS));
    ck_assert(!ap_circle_world_point_segment_ok(cw, &s, NULL, NULL));
    s = ap_segment_line(2, 0, 10, 0); /* along the side, short of A: usable, no touches */
    ap_circle_touch t[AP_CIRCLES_MAX_TOUCHES];
    size_t n = 99;
    ck_assert(ap_circle_world_point_segment_ok(cw, &s, t, &n));
    ck_assert_uint_eq(n, 1); /* the bottom side only */
    ck_assert_uint_eq(t[0].id, UINT32_MAX - 2);
    ck_assert_int_eq(t[0].side, -1);
    /* Upward along x = 14, touching A at (14, 6) on its right: one touch about t = 0.5. */
    s = ap_segment_line(14, 2, 14, 10);
    ck_assert(ap_circle_world_point_segment_ok(cw, &s, t, &n));
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(t[0].id, 0);
    ck_assert_int_eq(t[0].side, -1);
    ck_assert(t[0].t0 < 0.5 && t[0].t1 > 0.5 && t[0].t1 - t[0].t0 < 1e-4);
    /* Hugging A: over its top (through the touch with B) or its bottom (the touch with the side) is refused,
     * a quarter turn short of either is not. */
    ap_segment a = ap_segment_arc(14, 6, M_PI / 2, 6, -M_PI);
    ck_assert_double_eq_tol(a.cx, 20, 1e-12);
    ck_assert(ap_circle_world_segment_tol(cw, &a, 0.0, -AP_CIRCLES_EPS));
    ck_assert(!ap_circle_world_point_segment_ok(cw, &a, NULL, NULL));
    a = ap_segment_arc(14, 6, M_PI / 2, 6, -M_PI / 4);
    ck_assert(ap_circle_world_point_segment_ok(cw, &a, NULL, NULL));
    a = ap_segment_arc(14, 6, -M_PI / 2, 6, M_PI);
    ck_assert(!ap_circle_world_point_segment_ok(cw, &a, NULL, NULL));
    a = ap_segment_arc(14, 6, -M_PI / 2, 6, M_PI / 4);
    ck_assert(ap_circle_world_point_segment_ok(cw, &a, NULL, NULL));
    /* The points themselves: where A touches B or a side no point path may start (a helper's start at two
     * touching circles was taken, then every line from it refused: no_path "unreachable", not the 422 the
     * grid's diagonal corner gets); touching A alone, or at the world's corner, it may. */
    ck_assert(!ap_circle_world_point_line_ok(cw, 20, 12, 20, 12, NULL, NULL));
    ck_assert(!ap_circle_world_point_line_ok(cw, 20, 0, 20, 0, NULL, NULL));
    ck_assert(!ap_circle_world_point_line_ok(cw, 20, 24, 20, 24, NULL, NULL));
    ck_assert(ap_circle_world_point_line_ok(cw, 14, 6, 14, 6, NULL, NULL));
    ck_assert(ap_circle_world_point_line_ok(cw, 0, 0, 0, 0, NULL, NULL));
    ck_assert(ap_circle_world_point_line_ok(cw, 20, 12.5, 20, 12.5, NULL, NULL) == false); /* inside B */
    ap_circle_world_free(cw);
    /* B moved up: a gap of 3e-9 lets a point through its middle (1.5e-9 from both, clear by world.h's rule
     * for radii below 0.5e-9), one of 1.5e-9 does not (no point is 1e-9 from both). */
    const double gap[2] = {3e-9, 1.5e-9};
    for (int i = 0; i < 2; i++) {
        c[1].y = 18 + gap[i];
        ck_assert_int_eq(ap_circle_world_create(40, 25, c, 2, &cw, NULL, 0, NULL, 0), AP_OK);
        s = ap_segment_line(2, 12 + gap[i] / 2, 32, 12 + gap[i] / 2);
        ck_assert_int_eq(ap_circle_world_point_segment_ok(cw, &s, NULL, NULL), i == 0);
        ap_circle_world_free(cw);
    }
}
END_TEST

/* Where two obstacles cross (a world corner, a circle over a side, two overlapping circles) free space has
 * a corner a disc fits into, not a gap: a point path may start there (the hunt's regressions of the first
 * point rule); copies of one disc count once toward the touch limit. */
START_TEST(point_rule_allows_corners_and_copies)
{
    ap_circle c[3] = {{27, 9, 2}, {29, 10.5, 2}, {40, 12, 4}};
    ap_circle_world *cw;
    ck_assert_int_eq(ap_circle_world_create(40, 24, c, 3, &cw, NULL, 0, NULL, 0), AP_OK);
    ck_assert(ap_circle_world_point_line_ok(cw, 0, 0, 5, 12, NULL, NULL));   /* from the world's corner */
    ck_assert(ap_circle_world_point_line_ok(cw, 40, 24, 30, 23, NULL, NULL)); /* to and from the far one */
    ck_assert(ap_circle_world_point_line_ok(cw, 30, 23, 40, 24, NULL, NULL));
    ck_assert(ap_circle_world_point_line_ok(cw, 40, 8, 30, 2, NULL, NULL)); /* where the circle crosses x = 40 */
    /* where circles 0 and 1 cross: (27, 9) + 2 (cos t, sin t) on both */
    const double qx = 27.06325030024024, qy = 10.99899959967968;
    ck_assert(ap_circle_world_point_line_ok(cw, qx, qy, 25, 14, NULL, NULL));
    ck_assert(ap_circle_world_point_line_ok(cw, qx, qy, qx, qy, NULL, NULL)); /* the corner as a point */
    ck_assert(ap_circle_world_point_line_ok(cw, 40, 8, 40, 8, NULL, NULL));
    ck_assert(!ap_circle_world_cusp(cw, 0, 1));
    ck_assert(!ap_circle_world_cusp(cw, 2, UINT32_MAX - 1)); /* crosses the right side */
    ck_assert(!ap_circle_world_cusp(cw, UINT32_MAX, UINT32_MAX - 2)); /* left and bottom: a corner */
    ck_assert(ap_circle_world_cusp(cw, UINT32_MAX, UINT32_MAX - 1));  /* left and right: parallel */
    ap_circle_world_free(cw);
    /* 40 copies of one disc, tangent to the line y = 22.5 + 1 from below (and its mirror, touching it at
     * (20, 21.5)): one obstacle, the line usable; the two touching ones are a cusp. */
    ap_circle many[41];
    for (int i = 0; i < 40; i++)
        many[i] = (ap_circle){20, 22.5, 1};
    many[40] = (ap_circle){20, 19.5, 2};
    ck_assert_int_eq(ap_circle_world_create(40, 30, many, 41, &cw, NULL, 0, NULL, 0), AP_OK);
    ck_assert(ap_circle_world_point_line_ok(cw, 10, 23.5, 30, 23.5, NULL, NULL));
    ck_assert(ap_circle_world_cusp(cw, 3, 40));
    ck_assert(!ap_circle_world_point_line_ok(cw, 10, 21.5, 30, 21.5, NULL, NULL));
    ap_circle_world_free(cw);
}
END_TEST

Suite *circles_suite(void)
{
    Suite *s = suite_create("circles");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, validation_names_the_field);
    tcase_add_test(tc, closed_disc_rule_at_exact_distances);
    tcase_add_test(tc, bucket_index_agrees_with_a_full_scan);
    tcase_add_test(tc, subnormal_world_builds);
    tcase_add_test(tc, point_rule_refuses_zero_width_gaps);
    tcase_add_test(tc, point_rule_allows_corners_and_copies);
    suite_add_tcase(s, tc);
    return s;
}
