/* test_plan.c — query validation, region pruning, waypoints, smoothing + curves + clearance, samples. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/base/clock.h"
#include "../../../planner/world/collide.h"
#include "../../../planner/plan/plan.h"
#include "../../../planner/plan/plan_steps.h"
#include "../../../planner/turns/profile.h"
#include "../../util.h"
#include "../suites.h"

/* 8x6; (3,0..3) is a wall with a gap at the bottom; (6,1) is walled in on its own. */
static const char *walls = "type octile\nheight 6\nwidth 8\nmap\n"
                           "...@..@.\n"
                           "...@.@.@\n"
                           "...@..@.\n"
                           "...@....\n"
                           "........\n"
                           "........\n";

static ap_query base_query(const ap_map *m)
{
    ap_query q = {.map = m, .sx = 0.5, .sy = 0.5, .gx = 7.5, .gy = 5.5, .connectivity = 8,
                  .smoothing = AP_SMOOTH_LOS};
    return q;
}

START_TEST(query_check)
{
    ap_map *m = ap_test_map_from_string(walls);
    const char *f;
    ap_query q = base_query(m);
    ck_assert_int_eq(ap_query_check(&q, &f), AP_OK);
    ck_assert_ptr_null(f);
#define CASE(stmt, st, fld)                                                                                     \
    do {                                                                                                        \
        ap_query c = base_query(m);                                                                             \
        stmt;                                                                                                   \
        f = NULL;                                                                                               \
        ck_assert_int_eq(ap_query_check(&c, &f), st);                                                           \
        ck_assert_str_eq(f, fld);                                                                               \
        ap_plan p;                                                                                              \
        ck_assert_int_eq(ap_plan_begin(&p, &c, NULL, 0), st);                                                   \
    } while (0)
    CASE(c.sx = -0.01, AP_E_OUT_OF_BOUNDS, "start");
    CASE(c.sx = 8.0, AP_E_OUT_OF_BOUNDS, "start");
    CASE(c.sy = 6.0, AP_E_OUT_OF_BOUNDS, "start");
    CASE(c.sx = NAN, AP_E_OUT_OF_BOUNDS, "start");
    CASE(c.sy = INFINITY, AP_E_OUT_OF_BOUNDS, "start");
    CASE(c.gx = 1e300, AP_E_OUT_OF_BOUNDS, "goal");
    CASE(c.gy = -1e-300, AP_E_OUT_OF_BOUNDS, "goal");
    CASE(c.gx = NAN, AP_E_OUT_OF_BOUNDS, "goal");
    CASE(c.sx = 3.5, AP_E_START_BLOCKED, "start");
    CASE((c.gx = 3.0, c.gy = 2.99), AP_E_GOAL_BLOCKED, "goal");
    CASE(c.unit_radius = -0.1, AP_E_INVALID_REQUEST, "unit.radius");
    CASE(c.unit_radius = NAN, AP_E_INVALID_REQUEST, "unit.radius");
    CASE(c.unit_radius = AP_MAX_UNIT_RADIUS + 0.001, AP_E_INVALID_REQUEST, "unit.radius");
    CASE(c.turning_radius = -1, AP_E_INVALID_REQUEST, "unit.turning_radius");
    CASE(c.turning_radius = AP_MAX_TURNING_RADIUS * 2, AP_E_INVALID_REQUEST, "unit.turning_radius");
    CASE(c.connectivity = 6, AP_E_INVALID_REQUEST, "search.connectivity");
    CASE(c.connectivity = 0, AP_E_INVALID_REQUEST, "search.connectivity");
    CASE(c.sample_step = 0.001, AP_E_INVALID_REQUEST, "samples.step");
    CASE(c.sample_step = -1.0, AP_E_INVALID_REQUEST, "samples.step");
    CASE(c.sample_step = NAN, AP_E_INVALID_REQUEST, "samples.step");
    /* Precedence: the request's own faults before the world's verdict on its points (a blocked start with
     * an algorithm that cannot take the query is invalid_request, as with a free start), but off-map
     * points before the algorithm's checks, which read their cells. */
    CASE((c.sx = 3.5, c.algorithm = AP_ALG_JPS, c.connectivity = 4), AP_E_INVALID_REQUEST, "search.algorithm");
    CASE((c.sx = 3.5, c.algorithm = AP_ALG_DIRECTIONAL8), AP_E_INVALID_REQUEST, "unit.turning_radius");
    CASE((c.sx = 3.5, c.algorithm = AP_ALG_ANY_ANGLE, c.unit_size = 2), AP_E_INVALID_REQUEST, "unit.size");
    CASE((c.gx = 3.0, c.gy = 2.99, c.smoothing = 7), AP_E_INVALID_REQUEST, "search.smoothing");
    CASE((c.sx = 3.5, c.gx = 1e300, c.algorithm = AP_ALG_JPS, c.connectivity = 4), AP_E_OUT_OF_BOUNDS, "goal");
    CASE((c.gx = 1e300, c.connectivity = 6), AP_E_INVALID_REQUEST, "search.connectivity");
    CASE((c.sx = -1.0, c.unit_radius = -0.1), AP_E_INVALID_REQUEST, "unit.radius");
#undef CASE
    /* boundary values are fine */
    q.unit_radius = AP_MAX_UNIT_RADIUS;
    q.turning_radius = AP_MAX_TURNING_RADIUS;
    q.sample_step = AP_MIN_SAMPLE_STEP;
    q.connectivity = 4;
    q.sx = 0.0;
    q.gx = 7.999;
    ck_assert_int_eq(ap_query_check(&q, NULL), AP_OK);
    ap_map_free(m);
}
END_TEST


START_TEST(region_and_trivial)
{
    ap_map *m = ap_test_map_from_string(walls);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    ap_query q = base_query(m);
    q.gx = 6.5;
    q.gy = 1.5;
    ap_result r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_NO_PATH);
    ck_assert(r.region_pruned);
    ck_assert_int_eq(r.no_path_reason, AP_NO_PATH_UNREACHABLE); /* proven by the region table */
    ck_assert_uint_eq(r.expanded, 0);
    ap_result_free(&r);
    /* the same cell: OK at once, grid cost 0, the two exact points */
    q.sx = 2.1;
    q.sy = 4.2;
    q.gx = 2.9;
    q.gy = 4.6;
    q.sample_step = 0.25;
    r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_OK);
    ck_assert_double_eq(r.grid_cost, 0.0);
    ck_assert_uint_eq(r.n_waypoints, 2);
    ck_assert_double_eq(r.waypoints[0][0], 2.1);
    ck_assert_double_eq(r.waypoints[1][1], 4.6);
    ck_assert_uint_eq(r.n_segments, 1);
    ck_assert_double_eq_tol(r.length, hypot(0.8, 0.4), 1e-12);
    ck_assert(r.clear);
    ck_assert_uint_eq(r.n_samples, 5); /* 0, .25, .5, .75 and the end at 0.894 */
    ck_assert_double_eq_tol(r.samples[4].x, 2.9, 1e-12);
    ap_result_free(&r);
    ap_result_free(NULL);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

START_TEST(full_pipeline)
{
    ap_map *m = ap_test_map_from_string(walls);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    /* raw path: length equals the grid cost with centres and no smoothing */
    ap_query q = base_query(m);
    q.smoothing = AP_SMOOTH_NONE;
    ap_result raw = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(raw.status, AP_OK);
    ck_assert_double_eq_tol(raw.length, raw.grid_cost, 1e-9);
    ck_assert_double_eq_tol(raw.grid_cost, 6 + 3 * M_SQRT2, 1e-12); /* to (2,4), past the wall's foot, on */
    ck_assert_uint_eq(raw.n_waypoints, raw.n_segments + 1);
    ck_assert(raw.clear);
    ck_assert_double_eq(raw.waypoints[0][0], 0.5);
    ck_assert_double_eq(raw.waypoints[raw.n_waypoints - 1][1], 5.5);
    /* smoothed: fewer waypoints, shorter or equal, still clear for r = 0 */
    q.smoothing = AP_SMOOTH_LOS;
    ap_result sm = ap_test_run_plan(&q, &ws);
    ck_assert_uint_lt(sm.n_waypoints, raw.n_waypoints);
    ck_assert(sm.length <= raw.length + 1e-9);
    ck_assert(sm.clear);
    ck_assert_double_eq(sm.grid_cost, raw.grid_cost);
    /* a wide unit: the smoothed path must keep its distance; the verdict says whether it could */
    q.unit_radius = 0.45;
    ap_result wide = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(wide.status, AP_OK);
    for (size_t i = 0; i < wide.n_segments; i++)
        if (wide.clear)
            ck_assert(ap_segment_clear(m, &wide.segments[i], 0.45));
    /* turning radius: arcs appear, the geometry is continuous, length is the sum of the segments */
    q.unit_radius = 0.0;
    q.turning_radius = 1.0;
    q.has_sheading = true;
    q.sheading = M_PI_2;
    q.sample_step = 0.1;
    ap_result cv = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(cv.status, AP_OK);
    int arcs = 0;
    double L = 0.0;
    for (size_t i = 0; i < cv.n_segments; i++) {
        arcs += cv.segments[i].type == AP_SEG_ARC;
        L += cv.segments[i].length;
        if (i + 1 < cv.n_segments) {
            ck_assert_double_eq_tol(cv.segments[i + 1].x0, cv.segments[i].x1, 1e-9);
            ck_assert_double_eq_tol(fabs(ap_angle_wrap(ap_segment_end_heading(&cv.segments[i]) -
                                                       cv.segments[i + 1].heading)),
                                    0.0, 1e-9);
        }
    }
    ck_assert_int_gt(arcs, 0);
    ck_assert_double_eq_tol(cv.length, L, 1e-12);
    ck_assert_double_eq_tol(cv.segments[0].heading, M_PI_2, 1e-12);
    ck_assert_uint_eq(cv.n_samples, (size_t)floor(L / 0.1) + 1 + (L - floor(L / 0.1) * 0.1 > 1e-9));
    ck_assert_double_eq_tol(cv.samples[cv.n_samples - 1].x, 7.5, 1e-9);
    ck_assert_double_eq_tol(cv.samples[cv.n_samples - 1].y, 5.5, 1e-9);
    for (size_t i = 1; i < cv.n_samples; i++) {
        /* consecutive samples are at most one step apart along the path (chord <= arc) */
        double dd = hypot(cv.samples[i].x - cv.samples[i - 1].x, cv.samples[i].y - cv.samples[i - 1].y);
        ck_assert(dd <= 0.1 + 1e-9);
        ap_pose pp = ap_path_pose(cv.segments, cv.n_segments, (double)i * 0.1 < L ? (double)i * 0.1 : L);
        ck_assert_double_eq_tol(pp.x, cv.samples[i].x, 1e-9);
        ck_assert_double_eq_tol(pp.y, cv.samples[i].y, 1e-9);
    }
    /* too many samples */
    q.sample_step = 0.01;
    q.max_samples = 10;
    ap_result many = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(many.status, AP_E_INVALID_REQUEST);
    ck_assert_str_eq(many.field, "samples.step");
    ck_assert_ptr_null(many.samples);
    ap_result_free(&many);
    ap_result_free(&raw);
    ap_result_free(&sm);
    ap_result_free(&wide);
    ap_result_free(&cv);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

START_TEST(exact_points)
{
    ap_map *m = ap_test_map_from_string(walls);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    ap_query q = base_query(m);
    q.smoothing = AP_SMOOTH_NONE;
    q.sx = 0.1;
    q.sy = 0.9;
    q.gx = 7.75;
    q.gy = 5.01;
    ap_result r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_OK);
    ck_assert_double_eq(r.waypoints[0][0], 0.1);
    ck_assert_double_eq(r.waypoints[0][1], 0.9);
    ck_assert_double_eq(r.waypoints[r.n_waypoints - 1][0], 7.75);
    ck_assert_double_eq(r.waypoints[r.n_waypoints - 1][1], 5.01);
    for (size_t i = 1; i + 1 < r.n_waypoints; i++) {
        ck_assert_double_eq(r.waypoints[i][0] - floor(r.waypoints[i][0]), 0.5);
        ck_assert_double_eq(r.waypoints[i][1] - floor(r.waypoints[i][1]), 0.5);
    }
    ck_assert_double_eq_tol(r.length, ap_path_length(r.segments, r.n_segments), 1e-12);
    ap_result_free(&r);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* A legal-turn search that gives up says so: a unit of turning radius 3 that may not reverse, facing into a
 * dead-end corridor one cell wide with its goal behind it, has no legal path in the lattice, though start
 * and goal share a region: no_path with reason "not found", never "unreachable". */
START_TEST(no_path_reason_of_an_incomplete_search)
{
    ap_map *m = ap_test_map_from_string("type octile\nheight 3\nwidth 12\nmap\n"
                                        "@@@@@@@@@@@@\n"
                                        "............\n"
                                        "@@@@@@@@@@@@\n");
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, AP_PLAN_MIN_WORKSPACE_NODES, AP_PLAN_MAX_SUCC), AP_OK);
    ap_query q = {.map = m, .sx = 5.5, .sy = 1.5, .gx = 2.5, .gy = 1.5, .connectivity = 8,
                  .smoothing = AP_SMOOTH_LOS, .algorithm = AP_ALG_DIRECTIONAL24, .turning_radius = 3.0,
                  .has_sheading = true, .sheading = 0.0};
    ap_result r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_NO_PATH);
    ck_assert(!r.region_pruned);
    ck_assert_int_eq(r.no_path_reason, AP_NO_PATH_NOT_FOUND);
    ap_result_free(&r);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* A free start at the goal point with a goal heading that is no compass heading: the unit faces it where
 * it stands, a path of no length, for every turning algorithm (directional8/24, hybrid, auto drove a whole
 * turning circle, 2 pi R = 18.85 tiles, to come back facing it); with both headings given and different the
 * unit must still drive round (no turn on the spot at a turning radius). */
START_TEST(free_start_at_the_goal_faces_its_heading)
{
    ap_map *m = ap_test_map_from_string("type octile\nheight 20\nwidth 20\nmap\n"
                                        "....................\n....................\n....................\n"
                                        "....................\n....................\n....................\n"
                                        "....................\n....................\n....................\n"
                                        "....................\n....................\n....................\n"
                                        "....................\n....................\n....................\n"
                                        "....................\n....................\n....................\n"
                                        "....................\n....................\n");
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, AP_PLAN_MIN_WORKSPACE_NODES, AP_PLAN_MAX_SUCC), AP_OK);
    const ap_algorithm algs[] = {AP_ALG_DIRECTIONAL8, AP_ALG_DIRECTIONAL24, AP_ALG_HYBRID, AP_ALG_AUTO,
                                 AP_ALG_ANY_ANGLE};
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
        ap_query q = {.map = m, .sx = 10.5, .sy = 10.5, .gx = 10.5, .gy = 10.5, .connectivity = 8,
                      .smoothing = AP_SMOOTH_LOS, .algorithm = algs[i], .turning_radius = 3.0,
                      .has_gheading = true, .gheading = 2.0};
        ap_result r = ap_test_run_plan(&q, &ws);
        ck_assert_msg(r.status == AP_OK && r.n_segments == 0 && r.length == 0.0, "algorithm %d: status %d, %zu segments, %g tiles",
                      (int)algs[i], r.status, r.n_segments, r.length);
        ap_result_free(&r);
        q.has_sheading = true;
        q.sheading = 0.0;
        r = ap_test_run_plan(&q, &ws);
        ck_assert_msg(r.status == AP_OK && r.length > 2.0 * 3.0, "algorithm %d, headings 0 and 2: %g tiles",
                      (int)algs[i], r.length);
        ap_result_free(&r);
    }
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* A unit profile's first build honours the plan's deadline: with a deadline already past, the plan answers
 * timeout and builds (and caches) nothing, where it used to build the whole table first; without one the
 * same query builds it, caches it and finds the path. */
START_TEST(profile_build_honours_the_deadline)
{
    ap_map *m = ap_test_map_from_string(walls);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, AP_PLAN_MIN_WORKSPACE_NODES, AP_PLAN_MAX_SUCC), AP_OK);
    ap_profile_cache cache = {0};
    ap_query q = base_query(m);
    q.algorithm = AP_ALG_DIRECTIONAL24;
    q.turning_radius = 0.5;
    q.profiles = &cache;
    ap_plan p;
    int st = ap_plan_begin(&p, &q, &ws, ap_clock_ns() - 1);
    if (st == AP_IN_PROGRESS)
        st = ap_plan_step(&p, 0);
    ck_assert_int_eq(st, AP_TIMEOUT);
    ap_result r;
    ck_assert_int_eq(ap_plan_finish(&p, &r), AP_TIMEOUT);
    ap_result_free(&r);
    ck_assert_uint_eq(ap_profile_cache_stats(&cache, NULL), 0);
    uint64_t builds = 0;
    ap_profile_cache_build_seconds(&cache, &builds);
    ck_assert_uint_eq(builds, 0);
    r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_OK);
    ck_assert_uint_eq(ap_profile_cache_stats(&cache, NULL), 1);
    ap_result_free(&r);
    ap_profile_cache_clear(&cache);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* The map: a wall at x = 10 with a one-cell gap on the direct line (row 3) and a four-cell opening
 * further down (rows 8-11). A point unit (and radius 0.4) goes through the gap; radius 0.9 cannot and takes
 * the opening, with every move clear (smoothing none, start and goal at cell centres); radius 1.5 fits
 * nowhere (the opening's clearance is exactly 1.5) and gets no_path, proven unreachable by the complete
 * search; JPS refuses a unit that large with the reason. */
static const char *gap_map = "type octile\nheight 14\nwidth 20\nmap\n"
                             "....................\n"
                             "....................\n"
                             "..........@.........\n"
                             "....................\n"
                             "..........@.........\n"
                             "..........@.........\n"
                             "..........@.........\n"
                             "..........@.........\n"
                             "....................\n"
                             "....................\n"
                             "....................\n"
                             "....................\n"
                             "..........@.........\n"
                             "..........@.........\n";

START_TEST(unit_size_shapes_the_grid_route)
{
    /* rows 0-1 open above the gap too: close them so the gap and the opening are the only ways through */
    char text[1024];
    snprintf(text, sizeof text, "%s", gap_map);
    char *rows = strstr(text, "map\n") + 4;
    rows[10] = '@';
    rows[21 + 10] = '@';
    ap_map *m = ap_test_map_from_string(text);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    ap_query q = {.map = m, .sx = 3.5, .sy = 3.5, .gx = 16.5, .gy = 3.5, .connectivity = 8,
                  .smoothing = AP_SMOOTH_NONE, .algorithm = AP_ALG_ASTAR};
    const double small[] = {0.0, 0.4};
    for (int i = 0; i < 2; i++) {
        q.unit_radius = small[i];
        ap_result r = ap_test_run_plan(&q, &ws);
        ck_assert_int_eq(r.status, AP_OK);
        ck_assert_double_eq_tol(r.grid_cost, 13.0, 1e-12); /* straight through the gap */
        ck_assert(r.clear);
        ap_result_free(&r);
    }
    const ap_algorithm algs[] = {AP_ALG_ASTAR, AP_ALG_AUTO, AP_ALG_JPS, AP_ALG_JPS_PLUS};
    double detour = 0.0;
    for (int a = 0; a < 4; a++) {
        q.algorithm = algs[a];
        q.unit_radius = 0.9;
        ap_result r = ap_test_run_plan(&q, &ws);
        ck_assert_int_eq(r.status, AP_OK);
        ck_assert(r.clear);
        ck_assert(r.grid_cost > 13.0 + 1.0);
        if (a == 0)
            detour = r.grid_cost;
        ck_assert_double_eq_tol(r.grid_cost, detour, 1e-9); /* the same optimum for every algorithm */
        for (size_t k = 0; k + 1 < r.n_waypoints; k++) /* it crosses x = 10 in the opening, rows 8-11 */
            if ((r.waypoints[k][0] - 10.5) * (r.waypoints[k + 1][0] - 10.5) <= 0.0)
                ck_assert_msg(r.waypoints[k][1] > 8.0 && r.waypoints[k][1] < 12.0, "crosses at y %g",
                              r.waypoints[k][1]);
        for (size_t k = 0; k < r.n_segments; k++)
            ck_assert(ap_segment_clear(m, &r.segments[k], 0.9));
        ap_result_free(&r);
        q.unit_radius = 1.5;
        r = ap_test_run_plan(&q, &ws);
        ck_assert_int_eq(r.status, AP_NO_PATH);
        ck_assert_int_eq(r.no_path_reason, AP_NO_PATH_UNREACHABLE);
        ap_result_free(&r);
    }
    /* jump point searches serve discs and squares (jps_sized.h) */
    q.unit_radius = 0.0;
    q.unit_size = 2;
    q.algorithm = AP_ALG_JPS_PLUS;
    ap_query_error e;
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_OK);
    q.unit_size = 0;
    q.unit_radius = 0.9;
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_OK);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* Annotated A* against an independent search on random maps: Dijkstra whose moves between neighbouring
 * cell centres are kept when collide.c's exact swept-disc test says the unit clears them; radii away from
 * the exact values (the table calls a disc within 1e-7 tile of touching not clear). Same status, same
 * optimal cost. */
/* The tests' own swept-disc test, written apart from collide.c (whose ap_line_clear the searches use, so
 * an oracle built on it would share its bugs): the disc of radius r swept along the segment from a to b is
 * clear when the segment keeps a distance of at least r (less 1e-9: touching is allowed, overlapping is not)
 * from every blocked cell's closed square and the disc stays inside the map's rectangle [0, W] x [0, H]. The
 * distance between a segment and a square is 0 when they meet (the segment clipped to the square), else
 * the least of its ends' distances to the square and the square's corners' distances to it. */
static double ref_point_segment(double px, double py, double ax, double ay, double bx, double by)
{
    const double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    double t = len2 > 0.0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return hypot(px - (ax + t * dx), py - (ay + t * dy));
}

static double ref_segment_square(double ax, double ay, double bx, double by, double x0, double y0)
{
    const double x1 = x0 + 1.0, y1 = y0 + 1.0;
    /* Liang-Barsky: does the segment meet the closed square? */
    double t0 = 0.0, t1 = 1.0;
    const double p[4] = {-(bx - ax), bx - ax, -(by - ay), by - ay}, q[4] = {ax - x0, x1 - ax, ay - y0, y1 - ay};
    bool meets = true;
    for (int k = 0; k < 4 && meets; k++) {
        if (p[k] == 0.0) {
            meets = q[k] >= 0.0;
            continue;
        }
        const double t = q[k] / p[k];
        if (p[k] < 0.0)
            t0 = t > t0 ? t : t0;
        else
            t1 = t < t1 ? t : t1;
        meets = t0 <= t1;
    }
    if (meets)
        return 0.0;
    const double ends[2][2] = {{ax, ay}, {bx, by}};
    double best = INFINITY;
    for (int e = 0; e < 2; e++) {
        const double cx = ends[e][0] < x0 ? x0 : ends[e][0] > x1 ? x1 : ends[e][0];
        const double cy = ends[e][1] < y0 ? y0 : ends[e][1] > y1 ? y1 : ends[e][1];
        best = fmin(best, hypot(ends[e][0] - cx, ends[e][1] - cy));
    }
    const double corners[4][2] = {{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}};
    for (int k = 0; k < 4; k++)
        best = fmin(best, ref_point_segment(corners[k][0], corners[k][1], ax, ay, bx, by));
    return best;
}

static bool ref_line_clear(const ap_map *m, double ax, double ay, double bx, double by, double r)
{
    const double lo_x = fmin(ax, bx) - r, hi_x = fmax(ax, bx) + r, lo_y = fmin(ay, by) - r, hi_y = fmax(ay, by) + r;
    if (lo_x < -1e-9 || lo_y < -1e-9 || hi_x > m->width + 1e-9 || hi_y > m->height + 1e-9)
        return false;
    for (int y = (int)floor(lo_y) - 1; y <= (int)floor(hi_y) + 1; y++)
        for (int x = (int)floor(lo_x) - 1; x <= (int)floor(hi_x) + 1; x++)
            if (x >= 0 && y >= 0 && x < m->width && y < m->height && !ap_map_passable(m, x, y) &&
                ref_segment_square(ax, ay, bx, by, x, y) < r - 1e-9)
                return false;
    return true;
}

/* A move is the unit's when collide.c's exact swept-disc test clears it (radius in ctx). */
static double disc_move_cost(const ap_map *m, int ux, int uy, int vx, int vy, const void *ctx)
{
    const double r = *(const double *)ctx;
    if (!ref_line_clear(m, ux + 0.5, uy + 0.5, vx + 0.5, vy + 0.5, r))
        return INFINITY;
    return ux != vx && uy != vy ? M_SQRT2 : 1.0;
}

/* A point's move: both cells passable, a diagonal's two orthogonal neighbours too (no corner cutting). */
static double point_move_cost(const ap_map *m, int ux, int uy, int vx, int vy, const void *ctx)
{
    (void)ctx;
    if (!ap_map_passable(m, ux, uy) || !ap_map_passable(m, vx, vy) ||
        (ux != vx && uy != vy && (!ap_map_passable(m, vx, uy) || !ap_map_passable(m, ux, vy))))
        return INFINITY;
    return ux != vx && uy != vy ? M_SQRT2 : 1.0;
}

/* A 14 x 14 map, each cell blocked with probability 0.06 (drawn from g in row order). */
static ap_map *random_map14(ap_test_rng *g)
{
    char text[1024];
    int used = snprintf(text, sizeof text, "type octile\nheight 14\nwidth 14\nmap\n");
    for (int y = 0; y < 14; y++) {
        for (int x = 0; x < 14; x++)
            text[used++] = ap_test_rand01(g) < 0.06 ? '@' : '.';
        text[used++] = '\n';
    }
    text[used] = '\0';
    return ap_test_map_from_string(text);
}

START_TEST(annotated_astar_matches_exact_geometry)
{
    ap_test_rng g = {20261124};
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 24 * 24, 8), AP_OK);
    const double radii[] = {0.6, 1.0, 1.4};
    int found = 0, none = 0, blocked = 0;
    for (int it = 0; it < 240; it++) {
        ap_map *m = random_map14(&g);
        double r = radii[it % 3];
        /* Three times in four, ends where the disc fits (drawn again up to 50 times), so that the searches'
         * own outcomes dominate; else any passable cells. */
        int sx, sy, gx, gy;
        for (int tries = 0; tries < 50; tries++) {
            sx = (int)(ap_test_rand(&g) % 14), sy = (int)(ap_test_rand(&g) % 14);
            gx = (int)(ap_test_rand(&g) % 14), gy = (int)(ap_test_rand(&g) % 14);
            if (it % 4 == 3 || (disc_move_cost(m, sx, sy, sx, sy, &r) < INFINITY &&
                                disc_move_cost(m, gx, gy, gx, gy, &r) < INFINITY))
                break;
        }
        if (!ap_map_passable(m, sx, sy) || !ap_map_passable(m, gx, gy) || (sx == gx && sy == gy)) {
            ap_map_free(m);
            continue;
        }
        ap_query q = {.map = m, .sx = sx + 0.5, .sy = sy + 0.5, .gx = gx + 0.5, .gy = gy + 0.5, .connectivity = 8,
                      .smoothing = AP_SMOOTH_NONE, .algorithm = AP_ALG_ASTAR, .unit_radius = r};
        ap_result res = ap_test_run_plan(&q, &ws);
        double want = ap_test_ref_dijkstra(m, sx, sy, gx, gy, disc_move_cost, &r);
        /* A disc that does not fit at its start or goal cell's centre is refused before searching, unless a
         * point could not reach the goal either (the region check answers first: no_path). */
        const bool s_fits = disc_move_cost(m, sx, sy, sx, sy, &r) < INFINITY;
        const bool g_fits = disc_move_cost(m, gx, gy, gx, gy, &r) < INFINITY;
        if (want >= 0.0) {
            ck_assert_int_eq(res.status, AP_OK);
            ck_assert_double_eq_tol(res.grid_cost, want, 1e-9);
            ck_assert(res.clear);
            found++;
        } else if ((!s_fits || !g_fits) && ap_test_ref_dijkstra(m, sx, sy, gx, gy, point_move_cost, NULL) >= 0.0) {
            ck_assert_int_eq(res.status, !s_fits ? AP_E_START_BLOCKED : AP_E_GOAL_BLOCKED);
            ck_assert_uint_eq(res.expanded, 0);
            blocked++;
        } else {
            ck_assert_int_eq(res.status, AP_NO_PATH);
            none++;
        }
        ap_result_free(&res);
        ap_map_free(m);
    }
    printf("annotated A*: %d paths, %d proven no_path, %d ends refused matched exact geometry\n", found, none,
           blocked);
    /* each outcome occurs often enough for the comparison to mean something */
    ck_assert_msg(found > 10 && none > 10 && blocked > 10, "%d found, %d no_path, %d refused", found, none, blocked);
    ap_workspace_free(&ws);
}
END_TEST

/* A sized disc's end off its cell's centre. A disc of 0.6 beside a block at (4, 4): cell (4, 3)'s centre is
 * 0.5 tiles from it, but at (4.5, 3.05) the disc fits (0.95 away): every grid search starts at a neighbour
 * cell whose centre holds it, joined to the point by a clear line, and passes that centre — one answer,
 * clear, for astar, jps, jps_plus, hierarchical and auto. At (4.5, 3.5) the disc itself overlaps the block:
 * refused by all, as any_angle refuses it. In a corridor two cells wide (radius 0.9) no centre holds the disc
 * while a point between the rows does: a named grid search refuses the cell, and so does auto for a short
 * query; for one 128 tiles long (with smoothing) auto answers with any_angle, which starts at the point and
 * drives the corridor's middle, so its grid search (past the deadline, the disc's graph not built) must not
 * refuse that query either. */
START_TEST(off_centre_ends_snap_to_a_neighbour_cell)
{
    ap_map *m = ap_test_map_from_string("type octile\nheight 9\nwidth 9\nmap\n.........\n.........\n.........\n"
                                        ".........\n....@....\n.........\n.........\n.........\n.........\n");
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 64 * 64, AP_PLAN_MAX_SUCC), AP_OK);
    const ap_algorithm algs[] = {AP_ALG_ASTAR, AP_ALG_JPS, AP_ALG_JPS_PLUS, AP_ALG_HIERARCHICAL, AP_ALG_AUTO};
    double cost0 = -1.0;
    for (size_t a = 0; a < sizeof algs / sizeof *algs; a++) {
        ap_query q = {.map = m, .sx = 4.5, .sy = 3.05, .gx = 1.5, .gy = 7.5, .connectivity = 8,
                      .smoothing = AP_SMOOTH_NONE, .algorithm = algs[a], .unit_radius = 0.6};
        ap_result r = ap_test_run_plan(&q, &ws);
        ck_assert_msg(r.status == AP_OK, "alg %d: status %d", (int)algs[a], r.status);
        ck_assert(r.clear);
        ck_assert_uint_ge(r.n_waypoints, 3);
        ck_assert_double_eq(r.waypoints[0][0], 4.5);
        ck_assert_double_eq(r.waypoints[0][1], 3.05);
        /* the second waypoint: a neighbour's centre of (4, 3), the disc clear there and on the way */
        const double cx = r.waypoints[1][0], cy = r.waypoints[1][1];
        ck_assert(fabs(cx - 4.5) <= 1.0 && fabs(cy - 3.5) <= 1.0 && !(cx == 4.5 && cy == 3.5));
        ck_assert_double_eq(cx - floor(cx), 0.5);
        ck_assert(ref_line_clear(m, 4.5, 3.05, cx, cy, 0.6));
        if (cost0 < 0.0)
            cost0 = r.length;
        else if (algs[a] != AP_ALG_HIERARCHICAL && algs[a] != AP_ALG_AUTO)
            ck_assert_double_eq_tol(r.length, cost0, 1e-9);
        ap_result_free(&r);
        q.sy = 3.5;
        r = ap_test_run_plan(&q, &ws);
        ck_assert_msg(r.status == AP_E_START_BLOCKED, "alg %d: status %d", (int)algs[a], r.status);
        ap_result_free(&r);
    }
    ap_map_free(m);
    m = ap_test_map_from_string("type octile\nheight 8\nwidth 12\nmap\n............\n............\n"
                                "@@@@@@@@@@@.\n............\n............\n@@@@@@@@@@@.\n............\n"
                                "............\n");
    ap_query q = {.map = m, .sx = 2.5, .sy = 4.0, .gx = 9.5, .gy = 4.0, .connectivity = 8,
                  .smoothing = AP_SMOOTH_NONE, .algorithm = AP_ALG_ASTAR, .unit_radius = 0.9};
    ap_result r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_E_START_BLOCKED);
    ap_result_free(&r);
    q.algorithm = AP_ALG_AUTO;
    r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_E_START_BLOCKED);
    ap_result_free(&r);
    ap_map_free(m);
    /* the same corridor 140 tiles long, open (3 tiles wide) at its east end; the goal below it, 134 columns
     * east */
    char text[2048];
    int used = snprintf(text, sizeof text, "type octile\nheight 8\nwidth 140\nmap\n");
    for (int y = 0; y < 8; y++) {
        for (int x = 0; x < 140; x++)
            text[used++] = (y == 2 || y == 5) && x < 137 ? '@' : '.';
        text[used++] = '\n';
    }
    text[used] = '\0';
    m = ap_test_map_from_string(text);
    ap_workspace_free(&ws);
    ck_assert_int_eq(ap_workspace_init(&ws, 150 * 10, 8), AP_OK);
    q.map = m;
    q.gx = 136.5;
    q.gy = 7.0;
    q.smoothing = AP_SMOOTH_LOS;
    /* a deadline already past: auto cannot build the disc's graph and falls back to its grid search, which
     * does not refuse the start any_angle would take (it runs out of time instead) */
    ap_plan p;
    int st = ap_plan_begin(&p, &q, &ws, ap_clock_ns() + 1);
    while (st == AP_IN_PROGRESS)
        st = ap_plan_step(&p, 0);
    ck_assert_msg(st == AP_TIMEOUT || st == AP_NO_PATH, "auto past its deadline: status %d", st);
    ap_plan_release(&p);
    r = ap_test_run_plan(&q, &ws);
    ck_assert_msg(r.status == AP_OK, "auto: status %d %s", r.status, r.message);
    ck_assert(r.clear);
    ck_assert_double_eq(r.waypoints[0][0], 2.5);
    ck_assert_double_eq(r.waypoints[0][1], 4.0);
    ap_result_free(&r);
    q.algorithm = AP_ALG_ASTAR;
    r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_E_START_BLOCKED);
    ap_result_free(&r);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* A grid path too long for Smoothing48's (waypoint, heading) nodes in the workspace (a serpentine of 3-4 wide
 * lanes, ~400 waypoints x 8 headings in a workspace of the map's size): the hybrid has failed, it answers
 * no_path and auto goes on to Directional24 (here no_path too: its corridor does not fit such a workspace
 * either). Both answered 500 internal (the search's capacity check; a helper's 1-wide spiral on a 1024 x 1024
 * map). With a larger workspace auto answers. */
START_TEST(hybrid_grid_path_beyond_the_workspace)
{
    char cells[40 * 40];
    memset(cells, '.', sizeof cells);
    for (int wall = 1; wall <= 9; wall++) { /* rows 4, 8, .. 36, open at the east and west end in turn */
        const int y = 4 * wall;
        for (int x = 0; x < 40; x++)
            if (wall % 2 ? x < 36 : x >= 4)
                cells[y * 40 + x] = '@';
    }
    ap_map *m = ap_test_map_from_cells(cells, 40, 40, 40);
    ap_query q = base_query(m);
    q.sx = 1.5;
    q.sy = 1.5;
    q.has_sheading = true;
    q.sheading = 0.0;
    q.gx = 1.5;
    q.gy = 38.5;
    q.turning_radius = 1.0;
    for (int big = 0; big < 2; big++) {
        ap_workspace ws;
        ck_assert_int_eq(ap_workspace_init(&ws, big ? 100 * 42 * 42 : 42 * 42, AP_PLAN_MAX_SUCC), AP_OK);
        for (int k = 0; k < 2; k++) {
            q.algorithm = k == 0 ? AP_ALG_AUTO : AP_ALG_HYBRID;
            ap_plan p;
            int st = ap_plan_begin(&p, &q, &ws, 0);
            while (st == AP_IN_PROGRESS)
                st = ap_plan_step(&p, 0);
            ap_result r;
            ck_assert_int_eq(ap_plan_finish(&p, &r), st);
            if (big && k == 0) {
                ck_assert_msg(st == AP_OK, "auto: status %d %s", st, r.message);
                ck_assert(r.clear);
                ck_assert_double_gt(ap_path_length(r.segments, r.n_segments), 9 * 32.0);
            } else {
                ck_assert_msg(st == AP_NO_PATH, "%s, workspace %d: status %d %s", k ? "hybrid" : "auto", big, st,
                              r.message);
                /* hybrid's own: a larger workspace may find it; auto's is Directional24's */
                ck_assert_int_eq(r.no_path_reason, k == 1 && !big ? AP_NO_PATH_STATE_LIMIT : AP_NO_PATH_NOT_FOUND);
            }
            ap_result_free(&r);
        }
        ap_workspace_free(&ws);
    }
    ap_map_free(m);
}
END_TEST

/* ap_plan_finish_is_cheap: false for a finished grid search whose path costs more than
 * AP_PLAN_CHEAP_FINISH_TILES (a serpentine of 1-wide lanes: 5,183 tiles) or would give more than
 * AP_PLAN_CHEAP_FINISH_SAMPLES samples, or samples in time; true for a short one and for a plan that
 * did not find a path. */
START_TEST(finish_is_cheap_for_short_paths)
{
    enum { W = 161, H = 64 };
    static char cells[W * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            cells[y * W + x] = x % 2 == 1 && y != ((x / 2) % 2 == 0 ? H - 1 : 0) ? '@' : '.';
    ap_map *m = ap_test_map_from_cells(cells, W, W, H);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, (W + 2) * (H + 2), AP_PLAN_MAX_SUCC), AP_OK);
    struct {
        double gx, gy, step;
        int cheap;
    } cases[] = {
        {160.5, 63.5, 0.0, 0}, /* 5,183 tiles */
        {0.5, 63.5, 0.0, 1},   /* 63 tiles */
        {0.5, 63.5, 0.01, 0},  /* 6,300 samples */
        {0.5, 63.5, 0.5, 1},   /* 126 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ap_query q = base_query(m);
        q.gx = cases[i].gx;
        q.gy = cases[i].gy;
        q.smoothing = AP_SMOOTH_NONE;
        q.sample_step = cases[i].step;
        q.algorithm = AP_ALG_ASTAR;
        ap_plan p;
        int st = ap_plan_begin(&p, &q, &ws, 0);
        while (st == AP_IN_PROGRESS)
            st = ap_plan_step(&p, 0);
        ck_assert_int_eq(st, AP_OK);
        ck_assert_msg(ap_plan_finish_is_cheap(&p) == (cases[i].cheap != 0), "case %zu", i);
        ap_result r;
        ck_assert_int_eq(ap_plan_finish(&p, &r), AP_OK);
        ap_result_free(&r);
    }
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* A workspace just the size of the map (max_workspace_cells at its floor): the hybrid's Directional8 leg
 * window may not fit it. That is the pipeline's failure, not a bad query: auto goes on to Directional24 (in
 * a corridor) and answers, clear; hybrid answers ok or no_path (whether its leg's window fits depends on
 * where Smoothing48 failed), never an error. Both answered 400 invalid_request "too far apart for
 * directional search" (a helper). */
START_TEST(hybrid_leg_beyond_a_small_workspace)
{
    char cells[40 * 40];
    memset(cells, '.', sizeof cells);
    ap_map *m = ap_test_map_from_cells(cells, 40, 40, 40);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 42 * 42, AP_PLAN_MAX_SUCC), AP_OK);
    ap_query q = base_query(m);
    q.sx = 2.5;
    q.sy = 2.5;
    q.has_sheading = true;
    q.sheading = 0.0;
    q.gx = 14.5;
    q.gy = 14.5;
    q.turning_radius = 2.0;
    q.algorithm = AP_ALG_AUTO;
    for (int k = 0; k < 2; k++) {
        q.algorithm = k == 0 ? AP_ALG_AUTO : AP_ALG_HYBRID;
        ap_plan p;
        int st = ap_plan_begin(&p, &q, &ws, 0);
        while (st == AP_IN_PROGRESS) /* (auto's escalation is a stage of its own) */
            st = ap_plan_step(&p, 0);
        ap_result r;
        ck_assert_int_eq(ap_plan_finish(&p, &r), st);
        if (k == 0) {
            ck_assert_msg(st == AP_OK, "auto: status %d %s", st, r.message);
            ck_assert(r.clear);
        } else {
            ck_assert_msg(st == AP_OK || st == AP_NO_PATH, "hybrid: status %d %s", st, r.message);
        }
        ap_result_free(&r);
    }
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* A sized disc whose cell's centre holds it and whose point holds it, but not the line between: radius 0.6 at
 * (3.6, 2.05) in cell (3, 2), whose diagonal neighbour (2, 1) is blocked. The point is 0.6021 tiles from
 * that block's corner (3, 2), the centre 0.7071, the line between passes 0.5969 from it. Every grid search
 * leaves from a neighbour's centre joined by a clear line instead, and the whole path is clear, towards a
 * goal in the east and one in the west (whose first grid move, to (2, 3), the point could not take
 * directly either: its line passes 0.508 from the corner). */
START_TEST(off_centre_end_leaves_by_a_clear_line)
{
    ap_map *m = ap_test_map_from_string("type octile\nheight 6\nwidth 8\nmap\n........\n..@.....\n........\n"
                                        "........\n........\n........\n");
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 24 * 24, 8), AP_OK);
    ck_assert(ref_line_clear(m, 3.6, 2.05, 3.6, 2.05, 0.6) && ref_line_clear(m, 3.5, 2.5, 3.5, 2.5, 0.6));
    ck_assert(!ref_line_clear(m, 3.6, 2.05, 3.5, 2.5, 0.6));
    const ap_algorithm algs[] = {AP_ALG_ASTAR, AP_ALG_JPS, AP_ALG_JPS_PLUS, AP_ALG_HIERARCHICAL, AP_ALG_AUTO};
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++) {
        for (int mirror = 0; mirror < 4; mirror++) {
            const double ox = mirror < 2 ? 6.5 : 1.5; /* the other end: east, then west */
            ap_query q = {.map = m, .sx = 3.6, .sy = 2.05, .gx = ox, .gy = 4.5, .connectivity = 8,
                          .smoothing = AP_SMOOTH_NONE, .algorithm = algs[a], .unit_radius = 0.6};
            if (mirror % 2) {
                q.sx = ox, q.sy = 4.5, q.gx = 3.6, q.gy = 2.05;
            }
            ap_result r = ap_test_run_plan(&q, &ws);
            ck_assert_msg(r.status == AP_OK, "alg %d: status %d", (int)algs[a], r.status);
            ck_assert_msg(r.clear, "alg %d mirror %d", (int)algs[a], mirror);
            const size_t k = mirror % 2 ? r.n_waypoints - 2 : 1;
            const double cx = r.waypoints[k][0], cy = r.waypoints[k][1];
            ck_assert(!(cx == 3.5 && cy == 2.5) && fabs(cx - 3.5) <= 1.0 && fabs(cy - 2.5) <= 1.0);
            ck_assert(ref_line_clear(m, 3.6, 2.05, cx, cy, 0.6));
            ap_result_free(&r);
        }
    }
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* No two consecutive waypoints of r alike (no zero-length piece). */
static void assert_waypoints_distinct(const ap_result *r)
{
    for (size_t i = 1; i < r->n_waypoints; i++)
        ck_assert_msg(r->waypoints[i][0] != r->waypoints[i - 1][0] || r->waypoints[i][1] != r->waypoints[i - 1][1],
                      "waypoints %zu and %zu alike", i - 1, i);
}

/* Whether a neighbour (8 around) of cell (cx, cy) has a centre that holds the disc of radius r and is joined
 * to the point (px, py) by a line the disc sweeps clear (the tests' own exact test, ref_line_clear): where the grid searches
 * may start or end instead of that cell. */
static bool neighbour_serves(const ap_map *m, int cx, int cy, double px, double py, double r)
{
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if ((dx || dy) && disc_move_cost(m, cx + dx, cy + dy, cx + dx, cy + dy, &r) < INFINITY &&
                ref_line_clear(m, px, py, cx + dx + 0.5, cy + dy + 0.5, r))
                return true;
    return false;
}

/* The cells (x, y pairs) the disc of radius r at the point (px, py) may leave from or arrive at: its own
 * cell's and its 8 neighbours' whose centre holds the disc and is joined to the point by a line the disc
 * sweeps clear (the tests' own exact check); returns the count. */
static int serving_cells(const ap_map *m, double px, double py, double r, int out[9][2])
{
    const int cx = (int)floor(px), cy = (int)floor(py);
    int n = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            const int x = cx + dx, y = cy + dy;
            if (x >= 0 && y >= 0 && x < m->width && y < m->height &&
                disc_move_cost(m, x, y, x, y, &r) < INFINITY && ref_line_clear(m, px, py, x + 0.5, y + 0.5, r)) {
                out[n][0] = x;
                out[n++][1] = y;
            }
        }
    return n;
}

/* Whether the disc of radius r can go from the point (sx, sy) to the point (gx, gy) the way the grid searches
 * go: to a cell serving the start, by the disc's grid moves (the reference Dijkstra) to a cell serving the
 * goal, to the goal: where no_path would be false. */
static bool ends_joined(const ap_map *m, double sx, double sy, double gx, double gy, double r)
{
    int a[9][2], b[9][2];
    const int na = serving_cells(m, sx, sy, r, a), nb = serving_cells(m, gx, gy, r, b);
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (ap_test_ref_dijkstra(m, a[i][0], a[i][1], b[j][0], b[j][1], disc_move_cost, &r) >= 0.0)
                return true;
    return false;
}

/* Off-centre starts (and goals, mirrored) of sized discs on random maps (14 x 14, 6 % walls, radius 0.6 or
 * 1.0), in cells whose centre does not hold the disc, goals at cell centres that do: the disc overlapping a
 * wall at the point is refused; otherwise, with a neighbour cell whose centre holds the disc and is joined to
 * the point by a clear line (the tests' own exact check), astar answers from such a neighbour — the second
 * waypoint — with the reference optimum from it, every piece clear (or no_path); with none it refuses. */
START_TEST(off_centre_starts_on_random_maps)
{
    ap_test_rng g = {20261204};
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 24 * 24, 8), AP_OK);
    int snapped = 0, refused_point = 0, refused_cell = 0, no_path = 0;
    for (int it = 0; it < 3000; it++) {
        ap_map *m = random_map14(&g);
        double r = it % 2 ? 0.6 : 1.0;
        int cx = (int)(ap_test_rand(&g) % 14), cy = (int)(ap_test_rand(&g) % 14);
        int gx = (int)(ap_test_rand(&g) % 14), gy = (int)(ap_test_rand(&g) % 14);
        const double sx = cx + 0.05 + 0.9 * ap_test_rand01(&g), sy = cy + 0.05 + 0.9 * ap_test_rand01(&g);
        /* a passable start cell whose centre does not hold the disc, a goal centre that does */
        if (!ap_map_passable(m, cx, cy) || disc_move_cost(m, cx, cy, cx, cy, &r) < INFINITY ||
            disc_move_cost(m, gx, gy, gx, gy, &r) == INFINITY || (cx == gx && cy == gy)) {
            ap_map_free(m);
            continue;
        }
        ap_query q = {.map = m, .sx = sx, .sy = sy, .gx = gx + 0.5, .gy = gy + 0.5, .connectivity = 8,
                      .smoothing = AP_SMOOTH_NONE, .algorithm = AP_ALG_ASTAR, .unit_radius = r};
        ap_result res = ap_test_run_plan(&q, &ws);
        const bool any = neighbour_serves(m, cx, cy, sx, sy, r);
        if (!ref_line_clear(m, sx, sy, sx, sy, r)) {
            ck_assert_int_eq(res.status, AP_E_START_BLOCKED);
            refused_point++;
        } else if (!any) {
            ck_assert_int_eq(res.status, AP_E_START_BLOCKED);
            refused_cell++;
        } else if (res.status == AP_OK) {
            const double nx = res.waypoints[1][0], ny = res.waypoints[1][1];
            const int ix = (int)floor(nx), iy = (int)floor(ny);
            ck_assert(nx - ix == 0.5 && ny - iy == 0.5 && abs(ix - cx) <= 1 && abs(iy - cy) <= 1);
            ck_assert(ref_line_clear(m, sx, sy, nx, ny, r));
            ck_assert(res.clear);
            assert_waypoints_distinct(&res);
            double want = ix == gx && iy == gy ? 0.0 : ap_test_ref_dijkstra(m, ix, iy, gx, gy, disc_move_cost, &r);
            ck_assert_double_eq_tol(res.grid_cost, want, 1e-9);
            snapped++;
        } else {
            ck_assert_int_eq(res.status, AP_NO_PATH);
            ck_assert(!ends_joined(m, sx, sy, gx + 0.5, gy + 0.5, r));
            no_path++;
        }
        ap_result_free(&res);
        /* The same point as the goal, from the other cell's centre: the mirror answer. */
        ap_query q2 = q;
        q2.sx = gx + 0.5;
        q2.sy = gy + 0.5;
        q2.gx = sx;
        q2.gy = sy;
        res = ap_test_run_plan(&q2, &ws);
        if (!ref_line_clear(m, sx, sy, sx, sy, r) || !any) {
            ck_assert_int_eq(res.status, AP_E_GOAL_BLOCKED);
        } else if (res.status == AP_OK) {
            const size_t k = res.n_waypoints - 2;
            const double nx = res.waypoints[k][0], ny = res.waypoints[k][1];
            const int ix = (int)floor(nx), iy = (int)floor(ny);
            ck_assert(nx - ix == 0.5 && ny - iy == 0.5 && abs(ix - cx) <= 1 && abs(iy - cy) <= 1);
            ck_assert(ref_line_clear(m, nx, ny, sx, sy, r));
            ck_assert(res.clear);
            assert_waypoints_distinct(&res);
            double want = ix == gx && iy == gy ? 0.0 : ap_test_ref_dijkstra(m, gx, gy, ix, iy, disc_move_cost, &r);
            ck_assert_double_eq_tol(res.grid_cost, want, 1e-9);
        } else {
            ck_assert_int_eq(res.status, AP_NO_PATH);
            ck_assert(!ends_joined(m, sx, sy, gx + 0.5, gy + 0.5, r));
        }
        ap_result_free(&res);
        ap_map_free(m);
    }
    printf("off-centre starts: %d answered from a neighbour, %d refused at the point, %d with no neighbour, "
           "%d proven no_path\n", snapped, refused_point, refused_cell, no_path);
    ck_assert_msg(snapped > 20 && refused_point > 20 && refused_cell > 2 && no_path > 2, "%d / %d / %d / %d", snapped,
                  refused_point, refused_cell, no_path); /* every branch's check ran (11 no_path on 2026-12-08) */
    ap_workspace_free(&ws);
}
END_TEST

/* The least distance (tiles) from the point (x, y) to a blocked cell of m or the map's edge: the test's own
 * geometry (clamping to each blocked square), independent of collide.c. */
static double obstacle_distance(const ap_map *m, double x, double y)
{
    double d = fmin(fmin(x, m->width - x), fmin(y, m->height - y));
    for (int cy = 0; cy < m->height; cy++)
        for (int cx = 0; cx < m->width; cx++)
            if (!ap_map_passable(m, cx, cy))
                d = fmin(d, hypot(x - fmax(cx, fmin(x, cx + 1.0)), y - fmax(cy, fmin(y, cy + 1.0))));
    return d;
}

/* Small discs (radius below AP_GRID_SIZED_MIN_RADIUS: every grid move is theirs) at random off-centre
 * points of random maps, for every grid algorithm: a disc that overlaps a wall or the map's edge where it
 * starts or ends is refused (start_blocked / goal_blocked, the message naming the disc), also when start and
 * goal share a cell; one that fits is answered as its cell centre would be (astar, jps and jps_plus with the
 * plain grid's optimum from the reference, hierarchical and auto with the same status), clear (smoothing none,
 * los or taut by turns). Draws within 1e-6 tiles of touching are skipped. */
START_TEST(small_discs_are_refused_where_they_overlap_at_an_end)
{
    ap_test_rng g = {20261205};
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 24 * 24, 8), AP_OK);
    const ap_algorithm algs[] = {AP_ALG_ASTAR, AP_ALG_JPS, AP_ALG_JPS_PLUS, AP_ALG_HIERARCHICAL, AP_ALG_AUTO};
    int refused = 0, answered = 0, same_cell = 0;
    for (int it = 0; it < 600; it++) {
        ap_map *m = random_map14(&g);
        const double r = 0.05 + 0.44 * ap_test_rand01(&g);
        const int cx = (int)(ap_test_rand(&g) % 14), cy = (int)(ap_test_rand(&g) % 14);
        int gx = (int)(ap_test_rand(&g) % 14), gy = (int)(ap_test_rand(&g) % 14);
        if (it % 10 == 0) { /* start and goal in one cell */
            gx = cx;
            gy = cy;
        }
        const double sx = cx + ap_test_rand01(&g), sy = cy + ap_test_rand01(&g);
        const double ex = gx + ap_test_rand01(&g), ey = gy + ap_test_rand01(&g);
        const double ds = obstacle_distance(m, sx, sy), dg = obstacle_distance(m, ex, ey);
        if (!ap_map_passable(m, cx, cy) || !ap_map_passable(m, gx, gy) || fabs(ds - r) < 1e-6 ||
            fabs(dg - r) < 1e-6) {
            ap_map_free(m);
            continue;
        }
        const double want = cx == gx && cy == gy ? 0.0 : ap_test_ref_dijkstra(m, cx, cy, gx, gy, point_move_cost, NULL);
        for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++) {
            ap_query q = {.map = m, .sx = sx, .sy = sy, .gx = ex, .gy = ey, .connectivity = 8,
                          .smoothing = (ap_smoothing)(it % 3), .algorithm = algs[a], .unit_radius = r};
            ap_result res = ap_test_run_plan(&q, &ws);
            if (ds < r || dg < r) {
                ck_assert_msg(res.status == (ds < r ? AP_E_START_BLOCKED : AP_E_GOAL_BLOCKED),
                              "alg %d r %g (%g, %g)->(%g, %g): status %d", (int)algs[a], r, sx, sy, ex, ey, res.status);
                ck_assert_ptr_nonnull(strstr(res.message, "overlaps an obstacle"));
                refused++;
            } else if (want >= 0.0) {
                ck_assert_msg(res.status == AP_OK, "alg %d: status %d %s", (int)algs[a], res.status, res.message);
                if (algs[a] != AP_ALG_HIERARCHICAL && algs[a] != AP_ALG_AUTO)
                    ck_assert_double_eq_tol(res.grid_cost, want, 1e-9);
                ck_assert_double_eq(res.waypoints[0][0], sx);
                ck_assert_double_eq(res.waypoints[res.n_waypoints - 1][1], ey);
                ck_assert_msg(res.clear, "alg %d r %g (%g, %g)->(%g, %g)", (int)algs[a], r, sx, sy, ex, ey);
                answered++;
                same_cell += cx == gx && cy == gy;
            } else {
                ck_assert_int_eq(res.status, AP_NO_PATH);
            }
            ap_result_free(&res);
        }
        ap_map_free(m);
    }
    printf("small discs at off-centre ends: %d refused, %d answered (%d in one cell)\n", refused, answered,
           same_cell);
    ck_assert_msg(refused > 200 && answered > 500 && same_cell > 50, "%d / %d / %d", refused, answered, same_cell);
    ap_workspace_free(&ws);
}
END_TEST

/* A helper's map: the disc of radius 0.5 at (3.9, 4.8) cannot stand at its cell (3, 4)'s centre (the wall
 * (3, 3) is 0.5 away); two neighbours serve it, (2, 4) at the end of a two-cell dead end and (4, 4). Every
 * grid algorithm answered no_path `unreachable` from the pocket (both ways); the path leaves by (4, 4), whose
 * optimum to (1, 2) is 4 diagonals and a straight move. */
START_TEST(off_centre_start_beside_a_pocket)
{
    ap_map *m = ap_test_map_from_string("type octile\nheight 6\nwidth 8\nmap\n@....@..\n........\n........\n"
                                        "@..@....\n........\n@.......\n");
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
    const ap_algorithm algs[] = {AP_ALG_ASTAR, AP_ALG_JPS, AP_ALG_JPS_PLUS, AP_ALG_AUTO, AP_ALG_HIERARCHICAL};
    for (size_t a = 0; a < 2 * sizeof algs / sizeof algs[0]; a++) {
        const bool back = a % 2;
        ap_query q = {.map = m, .sx = 3.9, .sy = 4.8, .gx = 1.5, .gy = 2.5, .connectivity = 8,
                      .smoothing = AP_SMOOTH_NONE, .algorithm = algs[a / 2], .unit_radius = 0.5};
        if (back) {
            q.sx = 1.5, q.sy = 2.5;
            q.gx = 3.9, q.gy = 4.8;
        }
        ap_result r = ap_test_run_plan(&q, &ws);
        ck_assert_msg(r.status == AP_OK, "alg %d back %d: status %d", (int)algs[a / 2], back, r.status);
        ck_assert_double_eq_tol(r.grid_cost, 1.0 + 4.0 * M_SQRT2, 1e-12);
        const double *via = back ? r.waypoints[r.n_waypoints - 2] : r.waypoints[1];
        ck_assert(via[0] == 4.5 && via[1] == 4.5);
        ck_assert(r.clear);
        ap_result_free(&r);
    }
    ap_workspace_free(&ws);
    ap_map_free(m);
    /* 4-connected, the other cells tried are the 4 neighbours only (a reviewer's map: the diagonal (2, 2),
     * joined to the start's centre by a clear line, made a 4-connected answer with a diagonal step whose
     * grid_cost left it out); 8-connected, the one diagonal move is the path. */
    m = ap_test_map_from_string("type octile\nheight 5\nwidth 5\nmap\n@@@..\n@....\n@...@\n....@\n....@\n");
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
    ap_query q = {.map = m, .sx = 3.5, .sy = 1.5, .gx = 2.5, .gy = 3.5, .connectivity = 4,
                  .smoothing = AP_SMOOTH_NONE, .algorithm = AP_ALG_ASTAR, .unit_radius = 0.5};
    ap_result r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_NO_PATH);
    ck_assert_int_eq(r.no_path_reason, AP_NO_PATH_UNREACHABLE);
    ap_result_free(&r);
    q.connectivity = 8;
    r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_OK);
    ck_assert_double_eq_tol(r.grid_cost, 1.0 + M_SQRT2, 1e-12);
    ap_result_free(&r);
    ap_workspace_free(&ws);
    ap_map_free(m);
    /* Nor does the first cell a 4-connected search takes for an off-centre end lie diagonally (a helper's
     * map): from (9.2, 5.3) it took (8, 4), then stepped back to (8, 5) (grid_cost 12 where 11 is the path
     * from (8, 5), an orthogonal neighbour); from (9.091, 3.686), whose cell (9, 3) has no orthogonal
     * neighbour holding the disc, it took the diagonal (8, 2), a dead end, and answered unreachable: the end
     * is refused like one without a neighbour. */
    m = ap_test_map_from_string("type octile\nheight 10\nwidth 10\nmap\n.....@.@..\n..........\n@.........\n"
                                ".......@..\n.@........\n..@.......\n..........\n.@........\n....@.....\n"
                                "...@@.@..@\n");
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
    q = (ap_query){.map = m, .sx = 9.2, .sy = 5.3, .gx = 1.5, .gy = 1.5, .connectivity = 4,
                   .smoothing = AP_SMOOTH_NONE, .algorithm = AP_ALG_ASTAR, .unit_radius = 0.5};
    r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_OK);
    ck_assert_double_eq_tol(r.grid_cost, 11.0, 1e-12);
    ck_assert(r.waypoints[1][0] == 8.5 && r.waypoints[1][1] == 5.5);
    ap_result_free(&r);
    q.sx = 9.091;
    q.sy = 3.686;
    r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_E_START_BLOCKED);
    ap_result_free(&r);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* Sized discs (radius 0.6, 1.0 or 1.4) at random points of random maps, start and goal anywhere the disc
 * fits: every answer of astar, jps_plus and hierarchical is clear for the disc, its first and last lines
 * included (smoothing none) — unless the point's own cell centre holds the disc, the line to it does not
 * (it passes a corner), and no neighbour's centre serves either, where the search keeps that centre; the
 * test's own exact check (collide.c) decides each. Each with smoothing none, los and taut. */
START_TEST(sized_disc_answers_are_clear_from_off_centre_ends)
{
    ap_test_rng g = {20261206};
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 24 * 24, 8), AP_OK);
    const ap_algorithm algs[] = {AP_ALG_ASTAR, AP_ALG_JPS_PLUS, AP_ALG_HIERARCHICAL};
    int clear = 0, kept = 0, no_path = 0;
    for (int it = 0; it < 1500; it++) {
        ap_map *m = random_map14(&g);
        double r = it % 3 == 0 ? 0.6 : it % 3 == 1 ? 1.0 : 1.4;
        const double sx = 14 * ap_test_rand01(&g), sy = 14 * ap_test_rand01(&g);
        const double ex = 14 * ap_test_rand01(&g), ey = 14 * ap_test_rand01(&g);
        if (!ref_line_clear(m, sx, sy, sx, sy, r) || !ref_line_clear(m, ex, ey, ex, ey, r)) {
            ap_map_free(m);
            continue;
        }
        /* an end whose own centre the search may keep though the line to it is not clear */
        bool may_keep = false;
        const double pt[2][2] = {{sx, sy}, {ex, ey}};
        for (int e = 0; e < 2; e++) {
            const int cx = (int)floor(pt[e][0]), cy = (int)floor(pt[e][1]);
            if (!ref_line_clear(m, cx + 0.5, cy + 0.5, cx + 0.5, cy + 0.5, r) ||
                ref_line_clear(m, pt[e][0], pt[e][1], cx + 0.5, cy + 0.5, r))
                continue;
            may_keep = may_keep || !neighbour_serves(m, cx, cy, pt[e][0], pt[e][1], r);
        }
        for (size_t a = 0; a < 3 * sizeof algs / sizeof algs[0]; a++) {
            const ap_smoothing sm[] = {AP_SMOOTH_NONE, AP_SMOOTH_LOS, AP_SMOOTH_TAUT};
            ap_query q = {.map = m, .sx = sx, .sy = sy, .gx = ex, .gy = ey, .connectivity = 8,
                          .smoothing = sm[a % 3], .algorithm = algs[a / 3], .unit_radius = r};
            ap_result res = ap_test_run_plan(&q, &ws);
            if (res.status == AP_OK && !may_keep) {
                ck_assert_msg(res.clear, "alg %d smoothing %d r %g (%g, %g)->(%g, %g)", (int)algs[a / 3],
                              (int)sm[a % 3], r, sx, sy, ex, ey);
                clear++;
            } else if (res.status == AP_OK) {
                kept++;
            } else if (res.status == AP_NO_PATH) {
                /* a proof: no cell serving the start reaches one serving the goal (a start beside a pocket
                 * was answered no_path from the pocket while another neighbour led out) */
                ck_assert_msg(!ends_joined(m, sx, sy, ex, ey, r), "alg %d r %g (%.17g, %.17g)->(%.17g, %.17g)",
                              (int)algs[a / 3], r, sx, sy, ex, ey);
                no_path++;
            }
            ap_result_free(&res);
        }
        ap_map_free(m);
    }
    printf("sized discs from off-centre ends: %d answers clear, %d from a kept centre, %d proven no_path\n", clear,
           kept, no_path);
    ck_assert_int_gt(clear, 500);
    ck_assert_int_gt(no_path, 20); /* the no_path proof ran too (180 on 2026-12-08) */
    ap_workspace_free(&ws);
}
END_TEST

/* Whether the open square of half side h about (x, y) overlaps a blocked cell's open square or leaves the
 * map: the test's own geometry (interval overlaps), independent of square.c. */
static bool square_overlaps(const ap_map *m, double x, double y, double h)
{
    if (x - h < 0.0 || y - h < 0.0 || x + h > m->width || y + h > m->height)
        return true;
    for (int cy = 0; cy < m->height; cy++)
        for (int cx = 0; cx < m->width; cx++)
            if (!ap_map_passable(m, cx, cy) && x - h < cx + 1 && x + h > cx && y - h < cy + 1 && y + h > cy)
                return true;
    return false;
}

/* The distance (tiles, per axis) from x to the nearest integer: draws this close to a cell border are
 * skipped (a square edge on a border touches, which the model allows, and rounding decides it). */
static double border_gap(double x)
{
    return fabs(x - floor(x + 0.5));
}

/* Square units (size 1, 2 or 3) at random points of random maps, off their footprints' centres: a square
 * that overlaps a cell outside its terrain or the map's edge where it starts or ends is refused
 * (start_blocked / goal_blocked), though its footprint (the cells the point names) may be inside; one that
 * does not is answered as from its footprint's centre (astar and jps: the same status and grid_cost) with
 * every piece clear for the square, the first and last lines included (smoothing none, los or taut by turns). */
START_TEST(square_units_at_off_centre_ends)
{
    ap_test_rng g = {20261207};
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 24 * 24, 8), AP_OK);
    int refused = 0, answered = 0, footprint_inside = 0;
    for (int it = 0; it < 1500; it++) {
        ap_map *m = random_map14(&g);
        const int k = 1 + it % 3;
        const double h = 0.5 * k;
        const double sx = 14 * ap_test_rand01(&g), sy = 14 * ap_test_rand01(&g);
        const double ex = 14 * ap_test_rand01(&g), ey = 14 * ap_test_rand01(&g);
        if (border_gap(sx - h) < 1e-6 || border_gap(sy - h) < 1e-6 || border_gap(ex - h) < 1e-6 ||
            border_gap(ey - h) < 1e-6) {
            ap_map_free(m);
            continue;
        }
        const bool s_over = square_overlaps(m, sx, sy, h), g_over = square_overlaps(m, ex, ey, h);
        /* the footprints' centres, the anchors' cells (query_check.c ap_query_cell) */
        const double fsx = floor(sx - (h - 0.5)) + h, fsy = floor(sy - (h - 0.5)) + h;
        const double fex = floor(ex - (h - 0.5)) + h, fey = floor(ey - (h - 0.5)) + h;
        for (int a = 0; a < 2; a++) {
            ap_query q = {.map = m, .sx = sx, .sy = sy, .gx = ex, .gy = ey, .connectivity = 8,
                          .smoothing = (ap_smoothing)(it / 3 % 3), .algorithm = a ? AP_ALG_JPS : AP_ALG_ASTAR,
                          .unit_size = k};
            ap_result res = ap_test_run_plan(&q, &ws);
            if (s_over || g_over) {
                ck_assert_msg(res.status == (s_over ? AP_E_START_BLOCKED : AP_E_GOAL_BLOCKED),
                              "k %d (%g, %g)->(%g, %g): status %d", k, sx, sy, ex, ey, res.status);
                ap_query c = q; /* the footprint alone: inside or not */
                c.sx = fsx, c.sy = fsy, c.gx = fex, c.gy = fey;
                ap_query_error e;
                footprint_inside += ap_query_validate(&c, NULL, &e) == AP_OK;
                refused++;
                ap_result_free(&res);
                continue;
            }
            ap_query c = q;
            c.sx = fsx, c.sy = fsy, c.gx = fex, c.gy = fey;
            ap_result ref = ap_test_run_plan(&c, &ws);
            ck_assert_int_eq(res.status, ref.status);
            if (res.status == AP_OK) {
                ck_assert_double_eq_tol(res.grid_cost, ref.grid_cost, 1e-9);
                ck_assert_msg(res.clear, "k %d (%g, %g)->(%g, %g)", k, sx, sy, ex, ey);
                answered++;
            }
            ap_result_free(&ref);
            ap_result_free(&res);
        }
        ap_map_free(m);
    }
    printf("square units at off-centre ends: %d refused (%d with the footprint inside), %d answered clear\n",
           refused, footprint_inside, answered);
    ck_assert_msg(refused > 200 && footprint_inside > 50 && answered > 300, "%d / %d / %d", refused,
                  footprint_inside, answered);
    ap_workspace_free(&ws);
}
END_TEST

/* A square that overlaps a wall or the map's edge by at most 1e-9 tiles (square.c's EPS) touches it: its start
 * and goal are taken, and a path that ends there is clear (the end's test and the line's test once disagreed
 * at exactly 1e-9, answering ok with clear false for smoothing none); 2e-9 is refused. */
START_TEST(square_touch_tolerance)
{
    ap_map *m = ap_test_map_from_string("type octile\nheight 4\nwidth 6\nmap\n......\n......\n...@..\n......\n");
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    const double over[] = {0.0, 0.5e-9, 1e-9, 2e-9};
    for (int e = 0; e < 2; e++)
        for (size_t i = 0; i < 4; i++) {
            /* e 0: the goal's square overlaps blocked cell (3, 2) by over[i]; e 1: the map's right edge */
            const double gx = e == 0 ? 2.5 + over[i] : 5.5 + over[i];
            for (int sm = 0; sm < 3; sm++) {
                ap_query q = {.map = m, .sx = 0.5, .sy = 0.5, .gx = gx, .gy = 2.25, .connectivity = 8,
                              .smoothing = (ap_smoothing)sm, .algorithm = AP_ALG_ASTAR, .unit_size = 1};
                ap_result r = ap_test_run_plan(&q, &ws);
                if (i == 3) {
                    ck_assert_int_eq(r.status, AP_E_GOAL_BLOCKED);
                    /* the point as given, not rounded to the one that fits ("2.5" with %g) */
                    ck_assert_ptr_nonnull(strstr(r.message, e == 0 ? "(2.500000002, 2.25)" : "(5.500000002, 2.25)"));
                } else {
                    ck_assert_msg(r.status == AP_OK && r.clear, "edge %d overlap %g smoothing %d: status %d clear %d",
                                  e, over[i], sm, r.status, (int)r.clear);
                    ck_assert_double_eq(r.waypoints[r.n_waypoints - 1][0], gx);
                }
                ap_result_free(&r);
            }
        }
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* search.turn_penalty and search.headings are never ignored: the grid searches (no heading in their state) refuse it with the
 * reason, auto for a unit without a turning radius too; a turning unit's auto and the legal-turn searches
 * take it. */
START_TEST(turn_penalty_refused_where_it_would_be_ignored)
{
    ap_map *m = ap_test_map_from_string(walls);
    ap_query q = base_query(m);
    q.turn_penalty = 1.0;
    const ap_algorithm grid_algs[] = {AP_ALG_ASTAR, AP_ALG_JPS, AP_ALG_JPS_PLUS, AP_ALG_AUTO};
    for (size_t i = 0; i < 4; i++) {
        q.algorithm = grid_algs[i];
        ap_query_error e;
        ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_INVALID_REQUEST);
        ck_assert_str_eq(e.field, "search.turn_penalty");
        ck_assert_ptr_nonnull(strstr(e.message, "applies to the legal-turn searches"));
    }
    q.turning_radius = 1.0;
    const ap_algorithm turn_algs[] = {AP_ALG_AUTO, AP_ALG_DIRECTIONAL8, AP_ALG_HYBRID};
    for (size_t i = 0; i < 3; i++) {
        q.algorithm = turn_algs[i];
        ap_query_error e;
        ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_OK);
    }
    q.turn_penalty = 0.0;
    q.turning_radius = 0.0;
    q.algorithm = AP_ALG_ASTAR;
    ck_assert_int_eq(ap_query_check(&q, NULL), AP_OK);
    /* search.headings 16 likewise (the grid searches took it and answered as if obeyed); 8, every search's
     * default, is taken anywhere, as a turn_penalty of 0 is */
    q.headings = AP_HEADINGS_COARSE;
    for (size_t i = 0; i < 4; i++) {
        q.algorithm = grid_algs[i];
        ck_assert_int_eq(ap_query_validate(&q, NULL, NULL), AP_OK);
    }
    q.headings = AP_HEADINGS_FINE;
    for (size_t i = 0; i < 4; i++) {
        q.algorithm = grid_algs[i];
        ap_query_error e;
        ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_INVALID_REQUEST);
        ck_assert_str_eq(e.field, "search.headings");
        ck_assert_ptr_nonnull(strstr(e.message, "applies to the legal-turn searches"));
    }
    q.turning_radius = 1.0;
    for (size_t i = 0; i < 3; i++) {
        q.algorithm = turn_algs[i];
        ap_query_error e;
        ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_OK);
    }
    ap_map_free(m);
}
END_TEST

/* Huge headings are directions like any other: a start heading of 1e16 rad plans exactly as its wrapped
 * value 2.2474252491623665 (a 700-digit decimal reduction), for the grid kind's curves and for
 * Directional A* (whose goal heading 1e308 is 2.6710203145624654); before, 1e16 drew a line where an arc
 * belonged and 1e308 ended at heading 0. */
START_TEST(huge_headings_plan_as_wrapped)
{
    char text[1024];
    int used = snprintf(text, sizeof text, "type octile\nheight 24\nwidth 24\nmap\n");
    for (int y = 0; y < 24; y++)
        used += snprintf(text + used, sizeof text - (size_t)used, "%s\n", "........................");
    ap_map *m = ap_test_map_from_string(text);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, AP_PLAN_MIN_WORKSPACE_NODES, AP_PLAN_MAX_SUCC), AP_OK);
    const ap_algorithm algs[] = {AP_ALG_ASTAR, AP_ALG_DIRECTIONAL8};
    for (size_t a = 0; a < 2; a++) {
        ap_query q = {.map = m, .sx = 8.5, .sy = 8.5, .gx = 18.5, .gy = 16.5, .connectivity = 8,
                      .smoothing = AP_SMOOTH_LOS};
        q.algorithm = algs[a];
        q.turning_radius = 1.0;
        q.has_sheading = true;
        q.has_gheading = algs[a] == AP_ALG_DIRECTIONAL8;
        q.sheading = 1e16;
        q.gheading = 1e308;
        ap_result huge = ap_test_run_plan(&q, &ws);
        q.sheading = 2.2474252491623665;
        q.gheading = 2.6710203145624654;
        ap_result wrapped = ap_test_run_plan(&q, &ws);
        ck_assert_int_eq(huge.status, AP_OK);
        ck_assert_int_eq(wrapped.status, AP_OK);
        ck_assert_uint_eq(huge.n_segments, wrapped.n_segments);
        ck_assert_double_eq_tol(huge.length, wrapped.length, 1e-9);
        for (size_t i = 0; i < huge.n_segments; i++) {
            ck_assert_int_eq(huge.segments[i].type, wrapped.segments[i].type);
            ck_assert_double_eq_tol(huge.segments[i].x1, wrapped.segments[i].x1, 1e-9);
            ck_assert_double_eq_tol(huge.segments[i].y1, wrapped.segments[i].y1, 1e-9);
        }
        /* the path leaves along the start heading: an arc first, since 2.25 rad points away from the goal */
        ck_assert_int_eq(huge.segments[0].type, AP_SEG_ARC);
        ap_test_assert_heading_eq(huge.segments[0].heading, 2.2474252491623665, 1e-9);
        if (q.has_gheading)
            ap_test_assert_heading_eq(ap_segment_end_heading(&huge.segments[huge.n_segments - 1]),
                                      2.6710203145624654, 1e-9);
        ap_result_free(&huge);
        ap_result_free(&wrapped);
    }
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* The tolerances, both on the safe side (README "clear"): the exact swept-disc test (collide.c
 * AP_COLLIDE_EPS) counts a disc within 1e-9 tiles of a wall as touching it, the grid searches' clearance
 * table (clearance.h AP_CLEARANCE_TOUCH) within 1e-7. In a corridor one tile wide, radius 0.5 - 1e-9 is
 * refused at the point, 0.5 - 1e-7 by the table, 0.5 - 1e-6 fits; the refusals print the radius in full (they
 * printed 0.5, a radius that would not fit anyway). */
START_TEST(corridor_radius_within_the_tolerance)
{
    ap_map *m = ap_test_map_from_string("type octile\nheight 3\nwidth 6\nmap\n@@@@@@\n......\n@@@@@@\n");
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    ap_query q = {.map = m, .sx = 0.5, .sy = 1.5, .gx = 5.5, .gy = 1.5, .connectivity = 8,
                  .smoothing = AP_SMOOTH_NONE, .algorithm = AP_ALG_ASTAR, .unit_radius = 0.499999999};
    ap_result r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_E_START_BLOCKED);
    ck_assert_str_eq(r.message, "\"start\": the unit's disc (radius 0.499999999) at (0.5, 1.5) overlaps an obstacle "
                                "or the map's edge");
    ap_result_free(&r);
    q.unit_radius = 0.4999999;
    r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_E_START_BLOCKED);
    ck_assert_str_eq(r.message, "\"start\": cell (0, 1) is too narrow for the unit's disc (radius 0.4999999; "
                                "clearance 0.5 tiles, which a disc fits with more than 1e-07 to spare)");
    ap_result_free(&r);
    q.unit_radius = 0.499999;
    r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_OK);
    ck_assert_double_eq_tol(r.grid_cost, 5.0, 1e-12);
    ck_assert(r.clear);
    ap_result_free(&r);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* The last pose of samples.step is the path's end pose, also where the last multiple of step falls within
 * rounding of the length before a turn on the spot there (a helper: a pedestrian's kinodynamic answer of
 * 4.5000000000000036 tiles ending in a turn, step 0.25, gave the heading before the turn, 1.2 rad off). */
START_TEST(step_samples_end_after_a_turn_on_the_spot)
{
    const double L = 4.5000000000000036;
    ap_segment segs[2] = {ap_segment_line(0.0, 0.0, L, 0.0), ap_segment_turn(L, 0.0, 0.0, -1.2)};
    segs[0].length = L;
    const double steps[] = {0.25, 0.3, 0.5, 1.5, 0.7, 1.0};
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        ap_result r = {.segments = segs, .n_segments = 2, .length = L};
        ap_query q = {.sample_step = steps[i]};
        ck_assert_int_eq(ap_plan_samples(&r, &q), AP_OK);
        const ap_pose *e = &r.samples[r.n_samples - 1];
        ck_assert_msg(fabs(e->x - L) < 1e-12 && e->y == 0.0, "step %g: end at (%g, %g)", steps[i], e->x, e->y);
        ck_assert_msg(fabs(e->heading - -1.2) < 1e-12, "step %g: end heading %.17g, the turn ends at -1.2", steps[i],
                      e->heading);
        ck_assert_double_eq_tol(r.samples[1].heading, 0.0, 1e-15); /* on the line: before the turn */
        free(r.samples);
    }
}
END_TEST

Suite *plan_suite(void)
{
    Suite *s = suite_create("plan");
    TCase *tc = tcase_create("plan");
    tcase_add_test(tc, query_check);
    tcase_add_test(tc, region_and_trivial);
    tcase_add_test(tc, full_pipeline);
    tcase_add_test(tc, exact_points);
    tcase_add_test(tc, huge_headings_plan_as_wrapped);
    tcase_add_test(tc, no_path_reason_of_an_incomplete_search);
    tcase_add_test(tc, turn_penalty_refused_where_it_would_be_ignored);
    tcase_add_test(tc, profile_build_honours_the_deadline);
    tcase_add_test(tc, unit_size_shapes_the_grid_route);
    tcase_add_test(tc, annotated_astar_matches_exact_geometry);
    tcase_add_test(tc, off_centre_ends_snap_to_a_neighbour_cell);
    tcase_add_test(tc, off_centre_starts_on_random_maps);
    tcase_add_test(tc, off_centre_start_beside_a_pocket);
    tcase_add_test(tc, off_centre_end_leaves_by_a_clear_line);
    tcase_add_test(tc, sized_disc_answers_are_clear_from_off_centre_ends);
    tcase_add_test(tc, square_units_at_off_centre_ends);
    tcase_add_test(tc, square_touch_tolerance);
    tcase_add_test(tc, small_discs_are_refused_where_they_overlap_at_an_end);
    tcase_add_test(tc, corridor_radius_within_the_tolerance);
    tcase_add_test(tc, hybrid_leg_beyond_a_small_workspace);
    tcase_add_test(tc, finish_is_cheap_for_short_paths);
    tcase_add_test(tc, hybrid_grid_path_beyond_the_workspace);
    tcase_add_test(tc, free_start_at_the_goal_faces_its_heading);
    tcase_add_test(tc, step_samples_end_after_a_turn_on_the_spot);
    suite_add_tcase(s, tc);
    return s;
}
