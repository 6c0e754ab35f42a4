/* test_smooth.c — Listing 1 smoothing on Moving AI maps, every new segment re-checked by an independent
 * exact distance computation written here (not planner/world/collide.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/world/collide.h"
#include "../../../planner/world/grid_world.h"
#include "../../../planner/plan/plan.h"
#include "../../../planner/plan/smooth.h"
#include "../../util.h"
#include "../suites.h"

/* Distance from point p to the closed square of cell (i, j). */
static double point_cell(double px, double py, int i, int j)
{
    double dx = fmax(fmax(i - px, 0.0), px - (i + 1.0));
    double dy = fmax(fmax(j - py, 0.0), py - (j + 1.0));
    return hypot(dx, dy);
}

/* Minimum over blocked/off-map cells near the segment of the distance from P(t) to the cell, minimised by
 * ternary search over t (the distance to a convex set along a line is convex). */
static double independent_min_dist(const ap_map *m, const double *a, const double *b, double r)
{
    double best = INFINITY;
    int i0 = (int)floor(fmin(a[0], b[0]) - r) - 1, i1 = (int)floor(fmax(a[0], b[0]) + r) + 1;
    int j0 = (int)floor(fmin(a[1], b[1]) - r) - 1, j1 = (int)floor(fmax(a[1], b[1]) + r) + 1;
    for (int j = j0; j <= j1; j++)
        for (int i = i0; i <= i1; i++) {
            if (ap_map_passable(m, i, j))
                continue;
            double lo = 0.0, hi = 1.0;
            while (hi - lo > 1e-12) {
                double t1 = lo + (hi - lo) / 3, t2 = hi - (hi - lo) / 3;
                double d1 = point_cell(a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1, i, j);
                double d2 = point_cell(a[0] + (b[0] - a[0]) * t2, a[1] + (b[1] - a[1]) * t2, i, j);
                if (d1 <= d2)
                    hi = t2;
                else
                    lo = t1;
            }
            double t = 0.5 * (lo + hi);
            best = fmin(best, point_cell(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, i, j));
            best = fmin(best, fmin(point_cell(a[0], a[1], i, j), point_cell(b[0], b[1], i, j)));
        }
    return best;
}

static bool is_raw_step(double (*raw)[2], size_t nraw, const double *a, const double *b)
{
    for (size_t i = 0; i + 1 < nraw; i++)
        if (raw[i][0] == a[0] && raw[i][1] == a[1] && raw[i + 1][0] == b[0] && raw[i + 1][1] == b[1])
            return true;
    return false;
}

START_TEST(smooth_movingai)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("smooth: Moving AI maps");
        return;
    }
    const char *maps[] = {"den520d", "arena2", "AR0011SR", "random512-40-0", "32room_000"};
    int pairs = ap_test_quick() ? 4 : 12;
    int segments_checked = 0;
    for (size_t k = 0; k < sizeof maps / sizeof maps[0]; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.map", dir, maps[k]);
        ap_map *m;
        ap_diag d;
        if (ap_map_load(path, NULL, &m, &d) != AP_OK)
            continue;
        ap_world w;
        ap_map_world(m, &w);
        ap_workspace ws;
        ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
        ap_test_rng rng = {1234 + k};
        int done = 0;
        for (int tries = 0; done < pairs && tries < 10000; tries++) {
            int sx = (int)(ap_test_rand(&rng) % (unsigned)m->width), sy = (int)(ap_test_rand(&rng) % (unsigned)m->height);
            int gx = (int)(ap_test_rand(&rng) % (unsigned)m->width), gy = (int)(ap_test_rand(&rng) % (unsigned)m->height);
            if (!ap_map_passable(m, sx, sy) || !ap_map_passable(m, gx, gy) ||
                m->region[ap_map_index(m, sx, sy)] != m->region[ap_map_index(m, gx, gy)] || (sx == gx && sy == gy))
                continue;
            done++;
            double r = (done % 2 == 0) ? 0.0 : 0.35;
            ap_query q = {.map = m, .sx = sx + 0.5, .sy = sy + 0.5, .gx = gx + 0.5, .gy = gy + 0.5,
                          .connectivity = 8, .smoothing = AP_SMOOTH_NONE, .unit_radius = r};
            ap_plan p;
            ck_assert_int_eq(ap_plan_begin(&p, &q, &ws, 0), AP_IN_PROGRESS);
            ck_assert_int_eq(ap_plan_step(&p, 0), AP_OK);
            ap_result raw;
            ck_assert_int_eq(ap_plan_finish(&p, &raw), AP_OK);
            ck_assert_double_eq_tol(raw.length, raw.grid_cost, 1e-9);
            size_t n = raw.n_waypoints;
            double(*pts)[2] = malloc(n * sizeof *pts);
            memcpy(pts, raw.waypoints, n * sizeof *pts);
            size_t k2 = ap_smooth_los(&w, pts, n, r);
            ck_assert_uint_le(k2, n);
            ck_assert_uint_ge(k2, 2);
            ck_assert(pts[0][0] == raw.waypoints[0][0] && pts[0][1] == raw.waypoints[0][1]);
            ck_assert(pts[k2 - 1][0] == raw.waypoints[n - 1][0] && pts[k2 - 1][1] == raw.waypoints[n - 1][1]);
            double len = 0.0;
            for (size_t i = 0; i + 1 < k2; i++) {
                len += hypot(pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1]);
                if (r > 0.0 && is_raw_step(raw.waypoints, n, pts[i], pts[i + 1]))
                    continue; /* an A* step the smoother could not improve; A* ignores the unit's width */
                double dist = independent_min_dist(m, pts[i], pts[i + 1], r);
                segments_checked++;
                ck_assert_msg(dist > r - 1e-7, "%s: smoothed segment (%.3f,%.3f)-(%.3f,%.3f) comes %.12f from a "
                              "blocked cell, r = %.3f", maps[k], pts[i][0], pts[i][1], pts[i + 1][0], pts[i + 1][1],
                              dist, r);
            }
            ck_assert_msg(len <= raw.grid_cost + 1e-9, "smoothed %.9f > grid %.9f", len, raw.grid_cost);
            /* the planner's own smoothing gives the same polyline */
            q.smoothing = AP_SMOOTH_LOS;
            ck_assert_int_eq(ap_plan_begin(&p, &q, &ws, 0), AP_IN_PROGRESS);
            ck_assert_int_eq(ap_plan_step(&p, 0), AP_OK);
            ap_result sm;
            ck_assert_int_eq(ap_plan_finish(&p, &sm), AP_OK);
            ck_assert_uint_eq(sm.n_waypoints, k2);
            ck_assert_double_eq_tol(sm.length, len, 1e-9);
            if (r == 0.0)
                ck_assert(sm.clear);
            ap_result_free(&sm);
            /* the sampled Walkable never keeps more waypoints than the exact one drops (it is laxer) */
            memcpy(pts, raw.waypoints, n * sizeof *pts);
            size_t ks = ap_smooth_los_sampled(m, pts, n, r);
            ck_assert_uint_le(ks, n);
            free(pts);
            ap_result_free(&raw);
        }
        ck_assert_int_eq(done, pairs);
        ap_workspace_free(&ws);
        ap_map_free(m);
    }
    ck_assert_int_gt(segments_checked, 20);
}
END_TEST

START_TEST(smooth_hand)
{
    ap_map *m = ap_test_map_from_string("type octile\nheight 7\nwidth 7\nmap\n"
                                        ".......\n.......\n.......\n...@...\n.......\n.......\n.......\n");
    ap_world w;
    ap_map_world(m, &w);
    double pts[3][2] = {{0.5, 0.5}, {0.5, 6.5}, {6.5, 6.5}};
    ck_assert_uint_eq(ap_smooth_los(&w, pts, 3, 0.0), 3); /* the diagonal crosses the block */
    /* the shortcut y = x + 2 passes 1/sqrt(2) from the block's corner (3, 4) */
    double pts2[3][2] = {{1.5, 3.5}, {1.5, 5.5}, {3.5, 5.5}};
    ck_assert_uint_eq(ap_smooth_los(&w, pts2, 3, 0.7), 2);
    ck_assert_double_eq(pts2[1][0], 3.5);
    ck_assert_double_eq(pts2[1][1], 5.5);
    double pts3[3][2] = {{1.5, 3.5}, {1.5, 5.5}, {3.5, 5.5}};
    ck_assert_uint_eq(ap_smooth_los(&w, pts3, 3, 0.71), 3);
    ck_assert_double_eq(pts3[1][0], 1.5);
    /* in place with several drops: a straight row of centres collapses to its ends */
    double row[5][2] = {{0.5, 1.5}, {1.5, 1.5}, {2.5, 1.5}, {3.5, 1.5}, {4.5, 1.5}};
    ck_assert_uint_eq(ap_smooth_los(&w, row, 5, 0.4), 2);
    ck_assert_double_eq(row[1][0], 4.5);
    double one[1][2] = {{1.0, 1.0}};
    ck_assert_uint_eq(ap_smooth_los(&w, one, 1, 0.0), 1);
    ap_map_free(m);
}
END_TEST

/* ---- taut smoothing */

static double poly_len(double (*pts)[2], size_t n)
{
    double len = 0.0;
    for (size_t i = 0; i + 1 < n; i++)
        len += hypot(pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1]);
    return len;
}

/* A block below the straight line: the shortest path from A to C runs over its two top corners (6, 9) and
 * (13, 9). Listing 1 cannot improve the polyline A -> B -> C over the block (A does not see C); taut
 * smoothing pulls it onto the corners, within its tolerance, and never below the optimum. */
START_TEST(taut_two_corners)
{
    char txt[512] = "type octile\nheight 16\nwidth 20\nmap\n";
    for (int y = 0; y < 16; y++) {
        for (int x = 0; x < 20; x++)
            strcat(txt, (x >= 6 && x < 13 && y >= 9) ? "@" : ".");
        strcat(txt, "\n");
    }
    ap_map *m = ap_test_map_from_string(txt);
    ap_world w;
    ap_map_world(m, &w);
    const double opt = hypot(4.5, 5.5) + 7.0 + hypot(5.5, 5.5);
    for (int rep = 0; rep < 2; rep++) {
        double(*pts)[2] = malloc(3 * sizeof *pts);
        pts[0][0] = 1.5, pts[0][1] = 14.5;
        pts[1][0] = rep == 0 ? 9.5 : 9.0, pts[1][1] = 1.5;
        pts[2][0] = 18.5, pts[2][1] = 14.5;
        ck_assert(ap_world_line_clear(&w, pts[0][0], pts[0][1], pts[1][0], pts[1][1], 0.0));
        ck_assert(ap_world_line_clear(&w, pts[1][0], pts[1][1], pts[2][0], pts[2][1], 0.0));
        const double before = poly_len(pts, 3);
        size_t n = ap_smooth_taut(&w, &pts, 3, 0.0);
        ck_assert_uint_ge(n, 4); /* the bend became one at each corner */
        ck_assert(pts[0][0] == 1.5 && pts[0][1] == 14.5 && pts[n - 1][0] == 18.5 && pts[n - 1][1] == 14.5);
        const double len = poly_len(pts, n);
        ck_assert_msg(len >= opt - 1e-9 && len <= opt + 0.1, "taut %.6f, shortest %.6f (from %.6f)", len, opt, before);
        for (size_t i = 0; i + 1 < n; i++)
            ck_assert_msg(independent_min_dist(m, pts[i], pts[i + 1], 0.0) > 0.0, "segment %zu touches the block", i);
        free(pts);
    }
    /* a disc of radius 0.5: round the corners at that distance (the shortest path hugs their quarter
     * circles, so it is at least the polyline through the corners and at most the polyline through points
     * 0.5 sqrt 2 out along the diagonals) */
    double(*pts)[2] = malloc(3 * sizeof *pts);
    pts[0][0] = 1.5, pts[0][1] = 14.5, pts[1][0] = 9.5, pts[1][1] = 1.5, pts[2][0] = 18.5, pts[2][1] = 14.5;
    size_t n = ap_smooth_taut(&w, &pts, 3, 0.5);
    const double len = poly_len(pts, n);
    const double d = 0.5;
    const double outer = hypot(6.0 - d - 1.5, 9.0 - d - 14.5) + (7.0 + 2 * d) + hypot(18.5 - 13.0 - d, 14.5 - 9.0 + d);
    ck_assert_msg(len >= opt && len <= outer + 0.1, "disc taut %.6f, bounds %.6f .. %.6f", len, opt, outer);
    for (size_t i = 0; i + 1 < n; i++)
        ck_assert(independent_min_dist(m, pts[i], pts[i + 1], 0.5) > 0.5 - 1e-7);
    free(pts);
    /* two points, and a straight line, are left alone */
    double(*two)[2] = malloc(2 * sizeof *two);
    two[0][0] = 0.5, two[0][1] = 0.5, two[1][0] = 19.5, two[1][1] = 0.5;
    ck_assert_uint_eq(ap_smooth_taut(&w, &two, 2, 0.0), 2);
    ck_assert(two[1][0] == 19.5);
    free(two);
    ap_map_free(m);
}
END_TEST

/* Moving AI lines through the plan API: taut answers are clear by the independent distance above, never
 * longer than Listing 1's, never shorter than the exact Euclidean optimum (any_angle; its model allows
 * touching, taut's lines may not touch, so the optimum is a lower bound), and on average within 0.25 % of
 * it (measured 0.04-0.33 %; Listing 1: 1.3-2.2 %, BENCHMARKS.md "Taut smoothing"). */
START_TEST(taut_movingai)
{
    ap_map *m = ap_test_data_map("den520d", "taut: Moving AI maps");
    if (m == NULL)
        return;
    size_t ns;
    ap_test_scen *sc = ap_test_data_scen("den520d", &ns);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
    const size_t step = ap_test_quick() ? 97 : 23;
    double excess = 0.0;
    int lines = 0, improved = 0;
    for (size_t i = 0; i < ns; i += step) {
        ap_query q = {.map = m, .sx = sc[i].sx + 0.5, .sy = sc[i].sy + 0.5, .gx = sc[i].gx + 0.5, .gy = sc[i].gy + 0.5,
                      .connectivity = 8, .algorithm = AP_ALG_AUTO};
        ap_result r[3];
        const ap_smoothing sm[2] = {AP_SMOOTH_LOS, AP_SMOOTH_TAUT};
        for (int k = 0; k < 3; k++) {
            q.smoothing = k < 2 ? sm[k] : AP_SMOOTH_NONE;
            q.algorithm = k < 2 ? AP_ALG_JPS_PLUS : AP_ALG_ANY_ANGLE; /* auto would answer any_angle */
            ap_plan p;
            int st = ap_plan_begin(&p, &q, &ws, 0);
            while (st == AP_IN_PROGRESS)
                st = ap_plan_step(&p, 0);
            ck_assert_int_eq(ap_plan_finish(&p, &r[k]), AP_OK);
        }
        const double los = r[0].length, taut = r[1].length, opt = r[2].length;
        ck_assert_msg(taut <= los + 1e-9, "line %zu: taut %.9f > los %.9f", i, taut, los);
        ck_assert_msg(taut >= opt - 1e-9, "line %zu: taut %.9f < optimum %.9f", i, taut, opt);
        ck_assert(r[1].clear);
        for (size_t k = 0; k + 1 < r[1].n_waypoints; k++)
            ck_assert(independent_min_dist(m, r[1].waypoints[k], r[1].waypoints[k + 1], 0.0) > 0.0);
        excess += opt > 0.0 ? taut / opt - 1.0 : 0.0;
        improved += taut < los - 1e-6;
        lines++;
        for (int k = 0; k < 3; k++)
            ap_result_free(&r[k]);
    }
    ck_assert_int_ge(lines, 9);
    ck_assert_msg(excess / lines < 0.0025, "mean excess %.4f %%", 100.0 * excess / lines);
    ck_assert_int_ge(improved, lines / 2);
    free(sc);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* Random speckled maps, units of radius 0 to 1.2 (point grid below 0.496, Annotated A* above), A* between
 * random cells: taut never longer than los, its verdict los's, and where los's answer is clear (start and
 * goal clear for the unit: its A* moves are) every taut line clear by the independent distance, the ends kept; and degenerate polylines
 * (repeated and collinear points) come back without repeats, ends kept. */
START_TEST(taut_random_maps)
{
    ap_test_rng g = {77};
    static const double radii[] = {0.0, 0.3, 0.4, 0.7, 1.2};
    int compared = 0, shorter = 0, clear = 0;
    for (int it = 0; it < (ap_test_quick() ? 20 : 60); it++) {
        ap_map *m = ap_test_speckled_map(&g, 12 + (int)(ap_test_rand(&g) % 20), 12 + (int)(ap_test_rand(&g) % 20),
                                         0.1 + 0.25 * ap_test_rand01(&g));
        ap_workspace ws;
        ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
        for (int k = 0; k < 6; k++) {
            const double r = radii[(it + k) % 5];
            int sx = (int)(ap_test_rand(&g) % (unsigned)m->width), sy = (int)(ap_test_rand(&g) % (unsigned)m->height);
            int gx = (int)(ap_test_rand(&g) % (unsigned)m->width), gy = (int)(ap_test_rand(&g) % (unsigned)m->height);
            ap_query q = {.map = m, .sx = sx + 0.5, .sy = sy + 0.5, .gx = gx + 0.5, .gy = gy + 0.5, .connectivity = 8,
                          .algorithm = AP_ALG_ASTAR, .unit_radius = r, .smoothing = AP_SMOOTH_LOS};
            ap_result a = ap_test_run_plan(&q, &ws);
            q.smoothing = AP_SMOOTH_TAUT;
            ap_result b = ap_test_run_plan(&q, &ws);
            ck_assert_int_eq(a.status, b.status);
            if (a.status == AP_OK) {
                compared++;
                ck_assert_msg(b.length <= a.length + 1e-9, "taut %.9f > los %.9f (r %.1f)", b.length, a.length, r);
                shorter += b.length < a.length - 1e-6;
                ck_assert(b.waypoints[0][0] == q.sx && b.waypoints[0][1] == q.sy);
                ck_assert(b.waypoints[b.n_waypoints - 1][0] == q.gx && b.waypoints[b.n_waypoints - 1][1] == q.gy);
                for (size_t i = 0; a.clear && i + 1 < b.n_waypoints; i++)
                    ck_assert_msg(independent_min_dist(m, b.waypoints[i], b.waypoints[i + 1], r) > r - 1e-7,
                                  "segment %zu of a taut path too close (r %.1f)", i, r);
                ck_assert(b.clear == a.clear);
                clear += a.clear;
            }
            ap_result_free(&a);
            ap_result_free(&b);
        }
        ap_workspace_free(&ws);
        ap_map_free(m);
    }
    ck_assert_int_ge(compared, ap_test_quick() ? 30 : 100);
    ck_assert_int_ge(clear, compared / 2);
    ck_assert_int_ge(shorter, compared / 10);

    ap_map *open = ap_test_map_from_string("type octile\nheight 8\nwidth 8\nmap\n........\n........\n........\n"
                                           "........\n........\n........\n........\n........\n");
    ap_world w;
    ap_map_world(open, &w);
    double(*pts)[2] = malloc(5 * sizeof *pts);
    const double in[5][2] = {{0.5, 0.5}, {0.5, 0.5}, {2.5, 2.5}, {4.5, 4.5}, {7.5, 7.5}};
    memcpy(pts, in, sizeof in);
    size_t n = ap_smooth_taut(&w, &pts, 5, 0.3);
    ck_assert_uint_eq(n, 2);
    ck_assert(pts[0][0] == 0.5 && pts[1][0] == 7.5 && pts[1][1] == 7.5);
    free(pts);
    ap_map_free(open);
}
END_TEST

Suite *smooth_suite(void)
{
    Suite *s = suite_create("smooth");
    TCase *tc = tcase_create("los");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, smooth_hand);
    tcase_add_test(tc, smooth_movingai);
    suite_add_tcase(s, tc);
    TCase *tt = tcase_create("taut");
    tcase_set_timeout(tt, 300);
    tcase_add_test(tt, taut_two_corners);
    tcase_add_test(tt, taut_movingai);
    tcase_add_test(tt, taut_random_maps);
    suite_add_tcase(s, tt);
    return s;
}
