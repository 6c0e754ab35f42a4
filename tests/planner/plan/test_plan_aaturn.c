/* test_plan_aaturn.c — any_angle for turning units (plan_anyangle.c, anyangle/turning.h) through the public
 * plan API. Every answer is checked by exact geometry (check_turning): arcs of radius >= the turning radius,
 * G1 at every join, the start and goal poses, every segment clear for the unit's disc by collide.c's strict
 * rule, never shorter than the unit's own disc's any_angle path. Hand-made cases: an open map (one line; a
 * Dubins curve with both headings), a corner hug (an arc of radius exactly rho, the closed-form length), a
 * gap narrower than 2 rho but wider than 2 r (any_angle: no_path not_found; auto: legal turns), headings at
 * both ends; and sampled Moving AI lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/anyangle/turning.h"
#include "../../../planner/geom/dubins.h"
#include "../../../planner/world/collide.h"
#include "../../util.h"
#include "../suites.h"

/* A w x h map, open but for the blocked rectangles blocks[k] = {x0, y0, x1, y1} (cells x0 <= x < x1). */
static ap_map *map_with_blocks(int w, int h, const int (*blocks)[4], size_t nb)
{
    size_t cap = 64 + (size_t)(w + 1) * (size_t)h;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    int k = snprintf(s, cap, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            char c = '.';
            for (size_t b = 0; b < nb; b++)
                if (x >= blocks[b][0] && x < blocks[b][2] && y >= blocks[b][1] && y < blocks[b][3])
                    c = '@';
            s[k++] = c;
        }
        s[k++] = '\n';
    }
    s[k] = '\0';
    ap_map *m = ap_test_map_from_string(s);
    free(s);
    return m;
}

static ap_query turn_query(const ap_map *m, double sx, double sy, double gx, double gy, double r, double R)
{
    return (ap_query){.map = m, .sx = sx, .sy = sy, .gx = gx, .gy = gy, .algorithm = AP_ALG_ANY_ANGLE,
                      .connectivity = 8, .smoothing = AP_SMOOTH_LOS, .unit_radius = r, .turning_radius = R};
}

/* Run q to its end on ws and build the result; returns the status. */
static int run_on(const ap_query *q, ap_workspace *ws, ap_result *r)
{
    ap_plan p;
    int st = ap_plan_begin(&p, q, ws, 0);
    for (int i = 0; st == AP_IN_PROGRESS && i < 1000000; i++)
        st = ap_plan_step(&p, 0);
    ap_plan_finish(&p, r);
    return st;
}

/* run_on with a workspace for q's map. */
static int run_plan(const ap_query *q, ap_result *r)
{
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, q->map != NULL ? ap_map_node_count(q->map) : 64, AP_PLAN_MAX_SUCC),
                     AP_OK);
    int st = run_on(q, &ws, r);
    ap_workspace_free(&ws);
    return st;
}

/* The any_angle length of the unit's disc alone (no turning radius) on the same query. */
static double disc_length(const ap_query *q)
{
    ap_query d = *q;
    d.turning_radius = 0.0;
    ap_result r;
    ck_assert_int_eq(run_plan(&d, &r), AP_OK);
    double len = r.length;
    ap_result_free(&r);
    return len;
}

static double heading_diff(double a, double b)
{
    return fabs(ap_angle_wrap(a - b));
}

/* Exact geometry of a turning unit's answer (status AP_OK): see the file comment. */
static void check_turning(const ap_result *r, const ap_query *q, const char *what)
{
    ck_assert_msg(r->clear, "%s: not clear", what);
    ck_assert_uint_eq(r->n_waypoints, r->n_segments + 1);
    double total = 0.0;
    for (size_t i = 0; i < r->n_segments; i++) {
        const ap_segment *s = &r->segments[i];
        total += s->length;
        ck_assert(!s->reverse);
        if (s->type == AP_SEG_ARC)
            ck_assert_msg(s->radius >= q->turning_radius - 1e-9, "%s: arc %zu radius %.12f < %g", what, i,
                          s->radius, q->turning_radius);
        if (q->map != NULL)
            ck_assert_msg(ap_segment_clear(q->map, s, q->unit_radius), "%s: segment %zu not clear for r %g", what,
                          i, q->unit_radius);
        else /* a circle world: sampled every 1e-3 tiles, the disc inside the world and off every circle */
            for (double d = 0.0; d <= s->length + 1e-12; d += 1e-3) {
                const ap_pose p = ap_segment_pose(s, d < s->length ? d : s->length);
                const ap_circle *c = ap_circle_world_circles(q->circles);
                for (size_t k = 0; k < ap_circle_world_count(q->circles); k++)
                    ck_assert_msg(hypot(p.x - c[k].x, p.y - c[k].y) > c[k].r + q->unit_radius,
                                  "%s: segment %zu at %g meets circle %zu", what, i, d, k);
                ck_assert(p.x >= q->unit_radius && p.y >= q->unit_radius &&
                          p.x <= ap_circle_world_width(q->circles) - q->unit_radius &&
                          p.y <= ap_circle_world_height(q->circles) - q->unit_radius);
            }
        if (i > 0) {
            const ap_segment *p = &r->segments[i - 1];
            ck_assert_msg(hypot(s->x0 - p->x1, s->y0 - p->y1) <= 1e-9, "%s: gap at join %zu", what, i);
            ck_assert_msg(heading_diff(s->heading, ap_segment_end_heading(p)) <= 1e-6, "%s: not G1 at join %zu",
                          what, i);
        }
    }
    ck_assert_double_eq_tol(total, r->length, 1e-9);
    if (r->n_segments == 0)
        return;
    const ap_segment *a = &r->segments[0], *b = &r->segments[r->n_segments - 1];
    ck_assert_msg(a->x0 == q->sx && a->y0 == q->sy, "%s: start (%.17g, %.17g)", what, a->x0, a->y0);
    ck_assert_msg(b->x1 == q->gx && b->y1 == q->gy, "%s: goal (%.17g, %.17g)", what, b->x1, b->y1);
    if (q->has_sheading)
        ck_assert_msg(heading_diff(a->heading, q->sheading) <= 1e-6, "%s: start heading %.9f, want %.9f", what,
                      a->heading, q->sheading);
    if (q->has_gheading)
        ck_assert_msg(heading_diff(ap_segment_end_heading(b), q->gheading) <= 1e-6, "%s: goal heading", what);
    ck_assert_msg(r->length >= disc_length(q) - 1e-9, "%s: shorter than the disc's any_angle path", what);
}

START_TEST(open_map_line_and_dubins)
{
    ap_map *m = map_with_blocks(40, 40, NULL, 0);
    /* No headings: one line. */
    ap_query q = turn_query(m, 5.5, 20.5, 30.5, 20.5, 0.4, 3.0);
    ap_result r;
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    ck_assert_uint_eq(r.n_segments, 1);
    ck_assert_int_eq(r.segments[0].type, AP_SEG_LINE);
    ck_assert_double_eq_tol(r.length, 25.0, 1e-12);
    check_turning(&r, &q, "open line");
    ap_result_free(&r);
    /* Both headings: the one Dubins curve from pose to pose, exactly. */
    q.has_sheading = q.has_gheading = true;
    q.sheading = M_PI_2;
    q.gheading = -M_PI_2;
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    const ap_pose a = {q.sx, q.sy, q.sheading}, b = {q.gx, q.gy, q.gheading};
    ck_assert_double_eq_tol(r.length, ap_dubins_length(&a, &b, 3.0), 1e-9);
    check_turning(&r, &q, "open dubins");
    ap_result_free(&r);
    /* A start heading alone along the line: nothing to join. */
    q.has_gheading = false;
    q.sheading = 0.0;
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    ck_assert_double_eq_tol(r.length, 25.0, 1e-12);
    check_turning(&r, &q, "open heading along");
    ap_result_free(&r);
    /* start == goal with two headings: a loop; with one: nothing to drive. */
    q = turn_query(m, 20.5, 20.5, 20.5, 20.5, 0.4, 3.0);
    q.has_sheading = q.has_gheading = true;
    q.sheading = 0.0;
    q.gheading = M_PI;
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    const ap_pose c = {q.sx, q.sy, 0.0}, d = {q.gx, q.gy, M_PI};
    ck_assert_double_eq_tol(r.length, ap_dubins_length(&c, &d, 3.0), 1e-9);
    check_turning(&r, &q, "loop");
    ap_result_free(&r);
    q.has_gheading = false;
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    ck_assert_uint_eq(r.n_segments, 0);
    ap_result_free(&r);
    ap_map_free(m);
}
END_TEST

START_TEST(corner_hug_radius_rho)
{
    /* A 4 x 4 block at cells [6, 10) x [6, 10); the line (8, 12) -> (12, 8) runs through its corner
     * C = (10, 10). With turning radius 2 > r = 0.3, rho = 2: the path leaves along y = 12 to (10, 12), hugs
     * the circle of radius exactly 2 round C for a quarter turn to (12, 10) and runs up to the goal:
     * 2 + pi + 2. The end headings are the path's own (0 and -pi/2), so no end is joined or shortcut. */
    const int blocks[][4] = {{6, 6, 10, 10}};
    ap_map *m = map_with_blocks(30, 30, blocks, 1);
    ap_query q = turn_query(m, 8.0, 12.0, 12.0, 8.0, 0.3, 2.0);
    q.has_sheading = q.has_gheading = true;
    q.sheading = 0.0;
    q.gheading = -M_PI_2;
    ck_assert_double_eq(ap_aa_turn_radius(0.3, 2.0), 2.0);
    ap_result r;
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    ck_assert_double_eq_tol(r.length, 4.0 + M_PI, 1e-9);
    ck_assert_uint_eq(r.n_segments, 3);
    ck_assert_int_eq(r.segments[1].type, AP_SEG_ARC);
    ck_assert_double_eq_tol(r.segments[1].radius, 2.0, 1e-12);
    ck_assert_double_eq_tol(r.segments[1].cx, 10.0, 1e-9);
    ck_assert_double_eq_tol(r.segments[1].cy, 10.0, 1e-9);
    ck_assert_double_eq_tol(r.segments[1].sweep, -M_PI_2, 1e-9);
    check_turning(&r, &q, "corner hug");
    ap_result_free(&r);
    /* The same ends with a turning radius of 0.75, free headings: a tighter bend, shorter. */
    q.turning_radius = 0.75;
    q.has_sheading = q.has_gheading = false;
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    ck_assert_double_lt(r.length, 4.0 + M_PI - 0.5);
    check_turning(&r, &q, "corner hug R 0.75");
    ap_result_free(&r);
    /* Free end headings: the unit may curve away on its own radius-2 circle instead of hugging the corner's;
     * the arc+line shortcut at the ends is shorter than 4 + pi and as legal. */
    q.turning_radius = 2.0;
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    ck_assert_double_lt(r.length, 4.0 + M_PI - 0.5);
    check_turning(&r, &q, "corner, free ends");
    ap_result_free(&r);
    /* R <= r: the graph of the unit's own disc (rho = r + the margin): the disc's path within the margin. */
    q = turn_query(m, 8.0, 12.0, 12.0, 8.0, 0.8, 0.5);
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    check_turning(&r, &q, "R below r");
    ck_assert_double_eq_tol(r.length, disc_length(&q), 1e-5);
    ck_assert_int_eq(r.segments[1].type, AP_SEG_ARC);
    ck_assert_double_eq_tol(r.segments[1].radius, 0.8 + AP_AA_TURN_MARGIN, 1e-12);
    ap_result_free(&r);
    /* Headings at both ends: a curve joins each end to the path. */
    q = turn_query(m, 8.0, 16.0, 16.0, 8.0, 0.3, 2.0);
    q.has_sheading = q.has_gheading = true;
    q.sheading = M_PI;        /* facing away from the goal */
    q.gheading = M_PI_2;      /* arriving downward */
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    check_turning(&r, &q, "both headings");
    ck_assert(r.n_segments >= 4);
    ap_result_free(&r);
    ap_map_free(m);
}
END_TEST

START_TEST(narrow_gap_not_found_auto_answers)
{
    /* A wall across row 20 with a gap of two cells (x in [19, 21)): wider than 2 r = 0.6, narrower than
     * 2 rho = 4. Straight through it: one line. */
    const int blocks[][4] = {{0, 20, 19, 21}, {21, 20, 40, 21}};
    ap_map *m = map_with_blocks(40, 41, blocks, 2);
    ap_query q = turn_query(m, 20.0, 5.5, 20.0, 35.5, 0.3, 2.0);
    ap_result r;
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    ck_assert_double_eq_tol(r.length, 30.0, 1e-12);
    check_turning(&r, &q, "straight through the gap");
    ap_result_free(&r);
    /* Through the gap and sharply left below it: the bend would hug a gap corner on a circle of radius 2,
     * which meets the other side of the gap: no path in the graph (not_found: a legal path exists). */
    q = turn_query(m, 20.0, 5.5, 5.5, 27.5, 0.3, 2.0);
    ck_assert_int_eq(run_plan(&q, &r), AP_NO_PATH);
    ck_assert_int_eq(r.no_path_reason, AP_NO_PATH_NOT_FOUND);
    ap_result_free(&r);
    /* The same unit without a turning radius bends round the corner (19, 21). */
    q.turning_radius = 0.0;
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    ap_result_free(&r);
    /* auto: the legal-turn searches answer. */
    q.turning_radius = 2.0;
    q.algorithm = AP_ALG_AUTO;
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    ck_assert(r.clear);
    ck_assert_double_eq_tol(r.segments[r.n_segments - 1].x1, 5.5, 1e-9);
    ap_result_free(&r);
    /* A start beside the wall, clear for the unit's disc (0.3000005 from it) but not for the graph's test
     * radius r + 1e-6: no_path, not_found (not start_blocked). */
    q = turn_query(m, 10.5, 19.7 - 5e-7, 10.5, 5.5, 0.3, 2.0);
    ck_assert_int_eq(run_plan(&q, &r), AP_NO_PATH);
    ck_assert_int_eq(r.no_path_reason, AP_NO_PATH_NOT_FOUND);
    ap_result_free(&r);
    /* ... and one 0.1 from the wall, which the unit's disc does not fit: start_blocked as for any disc. */
    q.sy = 19.9;
    ck_assert_int_eq(run_plan(&q, &r), AP_E_START_BLOCKED);
    ck_assert_str_eq(r.field, "start");
    ck_assert_str_eq(r.message, "\"start\": the unit's disc (radius 0.3) at (10.5, 19.9) overlaps an obstacle or the "
                                "map's edge");
    ap_result_free(&r);
    /* 0.5 from the wall (closer than rho = 2): a line straight up. */
    q.sy = 19.5;
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    ck_assert_double_eq_tol(r.length, 14.0, 1e-12);
    ap_result_free(&r);
    ap_map_free(m);
}
END_TEST

START_TEST(obstacles_and_circle_worlds)
{
    /* One obstacle of radius 1 at (10, 10) on an open grid, (4, 9.9) -> (16, 9.9), over its top (y < 10):
     * the hug circle has radius max(1 + r', rho) = 2 (rho = R = 2, r' = 0.3 + 1e-6: no tighter than R, and
     * as close as that allows; it was 1 + rho = 3 before 2026-12-08); with d = |SC|, delta = atan(0.1 / 6),
     * two tangents of sqrt(d^2 - 4) and an arc of 2 (pi - 2 delta - 2 acos(2 / d)). The end headings are the
     * path's own (delta - asin(2 / d) and its mirror), so no end is joined or shortcut. */
    ap_map *m = map_with_blocks(20, 20, NULL, 0);
    const ap_circle obs[1] = {{10.0, 10.0, 1.0}};
    const double dd = hypot(6.0, 0.1), delta = atan2(0.1, 6.0), h0 = delta - asin(2.0 / dd);
    ap_query q = turn_query(m, 4.0, 9.9, 16.0, 9.9, 0.3, 2.0);
    q.obstacles = obs;
    q.n_obstacles = 1;
    q.has_sheading = q.has_gheading = true;
    q.sheading = h0;
    q.gheading = -h0;
    ap_result r;
    const double want = 2.0 * sqrt(dd * dd - 4.0) + 2.0 * (M_PI - 2.0 * delta - 2.0 * acos(2.0 / dd));
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    ck_assert_double_eq_tol(r.length, want, 1e-9);
    ck_assert_uint_eq(r.n_segments, 3);
    ck_assert_double_eq_tol(r.segments[1].radius, 2.0, 1e-12);
    check_turning(&r, &q, "obstacle");
    for (size_t i = 0; i < r.n_segments; i++) /* the obstacle kept at more than 1 + r from the centre */
        for (double d = 0.0; d <= r.segments[i].length; d += 0.01) {
            const ap_pose p = ap_segment_pose(&r.segments[i], d);
            ck_assert_double_gt(hypot(p.x - 10.0, p.y - 10.0), 1.3);
        }
    ap_result_free(&r);
    /* auto plans a turning unit with obstacles the same way (only any_angle serves obstacles). */
    q.algorithm = AP_ALG_AUTO;
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    ck_assert_double_eq_tol(r.length, want, 1e-9);
    ap_result_free(&r);
    /* A start heading facing the obstacle (+x): a curve joins the path; every point still clears it. */
    q.algorithm = AP_ALG_ANY_ANGLE;
    q.has_sheading = true;
    q.sheading = 0.0;
    q.sx = 4.0;
    q.sy = 11.0;
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    check_turning(&r, &q, "obstacle, start heading");
    for (size_t i = 0; i < r.n_segments; i++)
        for (double d = 0.0; d <= r.segments[i].length; d += 0.01) {
            const ap_pose p = ap_segment_pose(&r.segments[i], d);
            ck_assert_double_gt(hypot(p.x - 10.0, p.y - 10.0), 1.3);
        }
    ap_result_free(&r);
    ap_map_free(m);
    /* A circle world: the same circle, the same answer. */
    ap_circle_world *cw;
    ck_assert_int_eq(ap_circle_world_create(20.0, 20.0, obs, 1, &cw, NULL, 0, NULL, 0), AP_OK);
    ap_query c = {.circles = cw, .sx = 4.0, .sy = 9.9, .gx = 16.0, .gy = 9.9, .algorithm = AP_ALG_AUTO,
                  .connectivity = 8, .smoothing = AP_SMOOTH_LOS, .unit_radius = 0.3, .turning_radius = 2.0,
                  .has_sheading = true, .sheading = h0, .has_gheading = true, .gheading = -h0};
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 64, AP_PLAN_MAX_SUCC), AP_OK);
    ap_plan p;
    int st = ap_plan_begin(&p, &c, &ws, 0);
    for (int i = 0; st == AP_IN_PROGRESS && i < 1000; i++)
        st = ap_plan_step(&p, 0);
    ap_plan_finish(&p, &r);
    ck_assert_int_eq(st, AP_OK);
    ck_assert_double_eq_tol(r.length, want, 1e-9);
    ck_assert(r.clear);
    ap_result_free(&r);
    ap_workspace_free(&ws);
    ap_circle_world_free(cw);
}
END_TEST

/* A circle no tighter than the turning radius is hugged as a disc hugs it: a turning unit (R = 1) starting
 * 0.1 tiles below the forest's circle (8, 6, radius 3) heads off round it (it was inside that circle's
 * grown hug, 3 + R, and answered no_path: a helper, 2026-12-08), and in a world of that one circle the
 * answer is the r'-disc's any-angle path (r' = ap_aa_turn_clearance(0): every hug circle 3 + r' >= R). */
START_TEST(big_circles_hugged_at_their_own_radius)
{
    ap_circle_world *forest = ap_test_forest_world();
    const ap_circle one[1] = {{8.0, 6.0, 3.0}};
    ap_circle_world *alone;
    ck_assert_int_eq(ap_circle_world_create(40.0, 24.0, one, 1, &alone, NULL, 0, NULL, 0), AP_OK);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 64, AP_PLAN_MAX_SUCC), AP_OK);
    for (int w = 0; w < 2; w++)
        for (int k = 0; k < 3; k++) {
            const double sy = k == 0 ? 2.9 : k == 1 ? 2.99 : 2.5;
            ap_query q = {.circles = w ? alone : forest, .algorithm = AP_ALG_ANY_ANGLE, .connectivity = 8,
                          .smoothing = AP_SMOOTH_LOS, .sx = 8.0, .sy = sy, .gx = 38.0, .gy = 22.0,
                          .turning_radius = 1.0};
            ap_result r = ap_test_run_plan(&q, &ws);
            ck_assert_msg(r.status == AP_OK, "world %d, start y %g: status %d", w, sy, r.status);
            ck_assert(r.clear);
            check_turning(&r, &q, "beside a big circle");
            if (w == 1) {
                ap_query d = q;
                d.turning_radius = 0.0;
                d.unit_radius = ap_aa_turn_clearance(0.0);
                ap_result e = ap_test_run_plan(&d, &ws);
                ck_assert_int_eq(e.status, AP_OK);
                ck_assert_msg(fabs(r.length - e.length) <= 1e-9, "start y %g: turning %.12f, disc %.12f", sy,
                              r.length, e.length);
                ap_result_free(&e);
            }
            ap_result_free(&r);
        }
    ap_workspace_free(&ws);
    ap_circle_world_free(alone);
    ap_circle_world_free(forest);
}
END_TEST

/* Start and goal at one point with only the goal's heading given: nothing to drive (the free start heading
 * is the goal's), and the one sample faces the goal's heading (it said 0: a helper's any_angle query); with
 * the start's heading too it keeps that one. */
START_TEST(standing_still_faces_the_goal_heading)
{
    ap_circle_world *cw = ap_test_forest_world();
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 64, AP_PLAN_MAX_SUCC), AP_OK);
    for (int turning = 0; turning < 2; turning++) {
        ap_query q = {.circles = cw, .algorithm = AP_ALG_ANY_ANGLE, .connectivity = 8, .smoothing = AP_SMOOTH_LOS,
                      .sx = 1.0, .sy = 12.0, .gx = 1.0, .gy = 12.0, .has_gheading = true, .gheading = -2.5,
                      .turning_radius = turning ? 2.0 : 0.0, .sample_step = 0.5};
        ap_result r = ap_test_run_plan(&q, &ws);
        ck_assert_int_eq(r.status, AP_OK);
        ck_assert_uint_eq(r.n_segments, 0);
        ck_assert_uint_eq(r.n_samples, 1); /* ap_plan_finish made them (ap_plan_samples) */
        ck_assert(r.samples[0].x == 1.0 && r.samples[0].y == 12.0 && r.samples[0].heading == -2.5);
        ap_result_free(&r);
    }
    ap_query q = {.circles = cw, .algorithm = AP_ALG_ANY_ANGLE, .connectivity = 8, .smoothing = AP_SMOOTH_LOS,
                  .sx = 1.0, .sy = 12.0, .gx = 1.0, .gy = 12.0, .has_sheading = true, .sheading = 0.25,
                  .sample_step = 0.5};
    ap_result r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_OK);
    ck_assert(r.n_samples == 1 && r.samples[0].heading == 0.25);
    ap_result_free(&r);
    ap_workspace_free(&ws);
    ap_circle_world_free(cw);
}
END_TEST

/* A turning unit's answer starts at the start and ends at the goal bit for bit, with fixed-angle art too
 * (art keeps the path's ends). Before, the goal end came out a rounding step off (about 4e-15 tiles) where
 * the path's own end was cut by running sums of lengths, or where a start join reached the path's far end
 * (ap_path_pose stops a rounding step short of it). The demo forest: three such queries, then 100 pairs with
 * every mix of end headings. */
START_TEST(turning_ends_bit_for_bit)
{
    ap_circle_world *cw = ap_test_forest_world();
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 64, AP_PLAN_MAX_SUCC), AP_OK);
    ap_query q = {.circles = cw, .algorithm = AP_ALG_ANY_ANGLE, .connectivity = 8, .smoothing = AP_SMOOTH_LOS};
    static const struct {
        double sx, sy, gx, gy, R, sheading;
        bool has_sheading;
    } known[3] = {{25.73, 1.8, 20.02, 19.48, 1.0, -0.28, true},
                  {22.84, 13.45, 27.28, 2.47, 2.0, -0.77, true},
                  {19.18, 15.67, 31.99, 2.03, 1.0, 0.0, false}};
    ap_test_rng g = {4242};
    ap_world w;
    ap_circle_world_view(cw, &w);
    int answered = 0;
    for (int i = 0; i < 3 + 100; i++) {
        if (i < 3) {
            q.sx = known[i].sx;
            q.sy = known[i].sy;
            q.gx = known[i].gx;
            q.gy = known[i].gy;
            q.turning_radius = known[i].R;
            q.has_sheading = known[i].has_sheading;
            q.sheading = known[i].sheading;
            q.has_gheading = false;
            q.unit_radius = 0.0;
        } else {
            q.unit_radius = i % 2 == 0 ? 0.0 : 0.3;
            q.turning_radius = 0.5 * (1 + i % 3);
            do {
                q.sx = 40.0 * ap_test_rand01(&g);
                q.sy = 24.0 * ap_test_rand01(&g);
            } while (!ap_world_point_clear(&w, q.sx, q.sy, q.unit_radius + 1e-5));
            do {
                q.gx = 40.0 * ap_test_rand01(&g);
                q.gy = 24.0 * ap_test_rand01(&g);
            } while (!ap_world_point_clear(&w, q.gx, q.gy, q.unit_radius + 1e-5));
            q.has_sheading = i % 4 >= 2;
            q.has_gheading = i % 8 >= 4;
            q.sheading = 6.0 * ap_test_rand01(&g) - 3.0;
            q.gheading = 6.0 * ap_test_rand01(&g) - 3.0;
        }
        for (int art = 0; art <= 8; art += 8) {
            q.art_directions = art;
            ap_result r;
            const int st = run_on(&q, &ws, &r);
            ck_assert_msg(i >= 3 || st == AP_OK, "known query %d: status %d", i, st);
            if (st == AP_OK && r.n_segments > 0) {
                const ap_segment *a = &r.segments[0], *b = &r.segments[r.n_segments - 1];
                ck_assert_msg(a->x0 == q.sx && a->y0 == q.sy, "query %d art %d: start (%.17g, %.17g)", i, art, a->x0,
                              a->y0);
                ck_assert_msg(b->x1 == q.gx && b->y1 == q.gy,
                              "query %d art %d: goal (%.17g, %.17g), want (%.17g, %.17g)", i, art, b->x1, b->y1, q.gx,
                              q.gy);
                if (art == 0)
                    ck_assert(r.waypoints[r.n_waypoints - 1][0] == q.gx && r.waypoints[r.n_waypoints - 1][1] == q.gy);
                answered++;
            }
            ap_result_free(&r);
        }
    }
    ck_assert_int_ge(answered, 150);
    ap_workspace_free(&ws);
    ap_circle_world_free(cw);
}
END_TEST

/* A start the graph refuses only at its wider clearance (within ap_aa_turn_clearance's margin of a wall) and a
 * goal the unit's own disc does not fit (arena's border): the refusal is goal_blocked, not a no_path of a
 * search that never looked at the goal. */
START_TEST(goal_blocked_behind_a_start_in_the_margin)
{
    ap_map *m;
    ap_diag dg;
    ck_assert_int_eq(ap_map_load("config/maps/arena.map", NULL, &m, &dg), AP_OK);
    ap_query q = turn_query(m, 2.0000001, 5.5, 1.5, 50.5, 1.0, 2.0);
    ap_result r;
    ck_assert_int_eq(run_plan(&q, &r), AP_E_GOAL_BLOCKED);
    ck_assert_str_eq(r.field, "goal");
    ap_result_free(&r);
    q.gx = 40.5; /* a goal that fits: the start alone was refused by the graph, so no_path, not found */
    ck_assert_int_eq(run_plan(&q, &r), AP_NO_PATH);
    ck_assert_int_eq(r.no_path_reason, AP_NO_PATH_NOT_FOUND);
    ap_result_free(&r);
    ap_map_free(m);
}
END_TEST

START_TEST(validation_accepts_turning)
{
    ap_map *m = map_with_blocks(10, 10, NULL, 0);
    ap_query q = turn_query(m, 2.5, 2.5, 7.5, 7.5, 0.0, 1.0);
    ap_query_error e;
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_OK);
    q.turn_penalty = 1.0; /* still refused: no headings in the cost */
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "search.turn_penalty");
    q.turn_penalty = 0.0;
    /* below the floor (limits.h AP_MIN_TURNING_RADIUS) refused; a point unit at the floor answered */
    q.turning_radius = 1e-7;
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "unit.turning_radius");
    q.turning_radius = AP_MIN_TURNING_RADIUS;
    ap_result r;
    ck_assert_int_eq(run_plan(&q, &r), AP_OK);
    check_turning(&r, &q, "tiny R");
    ap_result_free(&r);
    ap_map_free(m);
}
END_TEST

/* Moving AI maps: every answered line legal by exact geometry; the share answered; against Directional24
 * on the lines both answer: never more than AA_D24_MAX times its length, on average at most AA_D24_MEAN
 * (BENCHMARKS.md "Turning units at any angle" measured max 1.08-1.86, mean 0.99-1.02 over 100 lines each). */
#define AA_D24_MAX 2.0
#define AA_D24_MEAN 1.05
START_TEST(movingai_turning_legal)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("plan any_angle turning: Moving AI");
        return;
    }
    const char *maps[] = {"den520d", "arena2", "Berlin_0_256"};
    const int want = ap_test_quick() ? 6 : 25;
    for (size_t mi = 0; mi < 3; mi++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.map", dir, maps[mi]);
        ap_map *m;
        ap_diag d;
        ck_assert_int_eq(ap_map_load(path, NULL, &m, &d), AP_OK);
        snprintf(path, sizeof path, "%s/%s.map.scen", dir, maps[mi]);
        ap_test_scen *sc;
        size_t n;
        ck_assert_int_eq(ap_test_load_scen(path, &sc, &n), 0);
        size_t step = n / (size_t)want > 0 ? n / (size_t)want : 1;
        int done = 0, ok = 0, both = 0;
        double sum = 0.0;
        ap_workspace ws; /* sized as the server sizes its workspaces: Directional24's window fits */
        const uint32_t cap = ap_map_node_count(m) > AP_PLAN_MIN_WORKSPACE_NODES ? ap_map_node_count(m)
                                                                              : AP_PLAN_MIN_WORKSPACE_NODES;
        ck_assert_int_eq(ap_workspace_init(&ws, cap, AP_PLAN_MAX_SUCC), AP_OK);
        for (size_t i = 0; i < n && done < want; i += step, done++) {
            const ap_test_scen *s = &sc[i];
            ap_query q = turn_query(m, s->sx + 0.5, s->sy + 0.5, s->gx + 0.5, s->gy + 0.5, 0.3, 1.0);
            q.has_sheading = done % 2 == 1;
            q.sheading = 0.7 * done;
            q.has_gheading = done % 3 == 1;
            q.gheading = -0.4 * done;
            ap_result r, rd;
            int st = run_on(&q, &ws, &r);
            ck_assert_msg(st == AP_OK || (st == AP_NO_PATH && r.no_path_reason == AP_NO_PATH_NOT_FOUND),
                          "%s line %d: status %d", maps[mi], s->line, st);
            if (st == AP_OK) {
                char what[96];
                snprintf(what, sizeof what, "%s line %d", maps[mi], s->line);
                check_turning(&r, &q, what);
                ok++;
                q.algorithm = AP_ALG_DIRECTIONAL24;
                if (run_on(&q, &ws, &rd) == AP_OK) {
                    const double ratio = r.length / rd.length;
                    ck_assert_msg(ratio <= AA_D24_MAX, "%s: %.4f x Directional24", what, ratio);
                    sum += ratio;
                    both++;
                }
                ap_result_free(&rd);
            }
            ap_result_free(&r);
        }
        printf("plan any_angle turning: %s: %d of %d lines answered (r 0.3, R 1), %.4f x Directional24's length "
               "on average (%d lines)\n", maps[mi], ok, done, both ? sum / both : 0.0, both);
        ck_assert_int_ge(ok, done / 2);
        ck_assert_int_ge(both, ok / 2);
        ck_assert_double_le(sum / both, AA_D24_MEAN);
        ap_workspace_free(&ws);
        free(sc);
        ap_map_free(m);
    }
}
END_TEST

Suite *plan_aaturn_suite(void)
{
    Suite *s = suite_create("plan_aaturn");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, open_map_line_and_dubins);
    tcase_add_test(tc, big_circles_hugged_at_their_own_radius);
    tcase_add_test(tc, goal_blocked_behind_a_start_in_the_margin);
    tcase_add_test(tc, corner_hug_radius_rho);
    tcase_add_test(tc, narrow_gap_not_found_auto_answers);
    tcase_add_test(tc, obstacles_and_circle_worlds);
    tcase_add_test(tc, turning_ends_bit_for_bit);
    tcase_add_test(tc, standing_still_faces_the_goal_heading);
    tcase_add_test(tc, validation_accepts_turning);
    tcase_add_test(tc, movingai_turning_legal);
    suite_add_tcase(s, tc);
    return s;
}
