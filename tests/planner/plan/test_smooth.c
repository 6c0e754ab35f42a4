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

Suite *smooth_suite(void)
{
    Suite *s = suite_create("smooth");
    TCase *tc = tcase_create("los");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, smooth_hand);
    tcase_add_test(tc, smooth_movingai);
    suite_add_tcase(s, tc);
    return s;
}
