/* test_kino.c — the kinodynamic planner (planner/kino, plan_kino.c): the time bound's exact values, its
 * admissibility on exhaustive small instances, every answer re-simulated by an independent checker (limits
 * to 1e-6, G1 joins, the swept disc by its own sampling, start and goal within tolerance), the thesis's
 * turn-around loop (Figure 5.2), validation and the expansion cap. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/kino/analytic.h"
#include "../../../planner/kino/kino.h"
#include "../../../planner/plan/plan_kind.h"
#include "../../../planner/world/lattice.h"
#include "../../../planner/plan/plan_steps.h"
#include "../../../planner/plan/unit_kind.h"
#include "../../../planner/world/grid_world.h"
#include "../../../planner/world/zone.h"
#include "../../util.h"
#include "../suites.h"

static const ap_vehicle test_car = {4.0, 2.0, 3.0, 4.0, 2.0, 0.0};

/* An open map of w x h cells with a border of blocked cells. */
static ap_map *open_map(int w, int h, const char *extra_blocked)
{
    size_t cap = (size_t)(w + 1) * h + 64;
    char *s = malloc(cap + 64);
    int n = sprintf(s, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            bool wall = x == 0 || y == 0 || x == w - 1 || y == h - 1;
            s[n++] = wall ? '@' : '.';
        }
        s[n++] = '\n';
    }
    s[n] = '\0';
    /* extra: "x,y;x,y;..." */
    for (const char *p = extra_blocked; p != NULL && *p;) {
        int x, y, used;
        if (sscanf(p, "%d,%d%n", &x, &y, &used) != 2)
            break;
        s[strlen(s) - (size_t)((h - y) * (w + 1)) + (size_t)x] = '@';
        p += used;
        if (*p == ';')
            p++;
    }
    ap_map *m = ap_test_map_from_string(s);
    free(s);
    return m;
}

static ap_query kq(const ap_map *m, double sx, double sy, double sh, double sv, double gx, double gy)
{
    return (ap_query){.map = m, .sx = sx, .sy = sy, .sheading = sh, .has_sheading = true, .start_speed = sv,
                      .gx = gx, .gy = gy, .algorithm = AP_ALG_KINODYNAMIC, .connectivity = 8,
                      .turning_radius = 2.0, .vehicle = test_car};
}

/* q planned to its end on a workspace of `capacity` nodes (the state limit: ids up to the capacity), in
 * slices of `slice` expansions (0: one). The status; r is the answer when it is ok, no_path or timeout. */
static int run_plan_on(const ap_query *q, ap_result *r, uint64_t slice, uint32_t capacity)
{
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, capacity, AP_PLAN_MAX_SUCC), AP_OK);
    ap_plan p;
    int st = ap_plan_begin(&p, q, &ws, 0);
    for (int i = 0; st == AP_IN_PROGRESS && i < 10000000; i++)
        st = ap_plan_step(&p, slice);
    if (st == AP_OK || st == AP_NO_PATH || st == AP_TIMEOUT)
        ap_plan_finish(&p, r);
    else
        r->field = ap_plan_field(&p);
    ap_workspace_free(&ws);
    return st;
}

static int run_plan(const ap_query *q, ap_result *r, uint64_t slice)
{
    return run_plan_on(q, r, slice, 1u << 18);
}

/* ---- the independent checker: nothing of planner/kino is used below, only the answer's numbers. */

/* Distance from (x, y) to the cell [cx, cx+1] x [cy, cy+1]. */
static double cell_dist(double x, double y, int cx, int cy)
{
    double dx = x < cx ? cx - x : (x > cx + 1 ? x - cx - 1 : 0.0);
    double dy = y < cy ? cy - y : (y > cy + 1 ? y - cy - 1 : 0.0);
    return hypot(dx, dy);
}

static bool disc_clear(const ap_map *m, double x, double y, double r)
{
    int r0 = (int)floor(y - r - 1), r1 = (int)ceil(y + r + 1), c0 = (int)floor(x - r - 1), c1 = (int)ceil(x + r + 1);
    for (int cy = r0; cy <= r1; cy++)
        for (int cx = c0; cx <= c1; cx++) {
            bool blocked = cx < 0 || cy < 0 || cx >= m->width || cy >= m->height || !ap_map_passable(m, cx, cy);
            if (blocked && cell_dist(x, y, cx, cy) <= r + 1e-12)
                return false;
        }
    return true;
}

static double wrap(double a)
{
    while (a >= M_PI)
        a -= 2 * M_PI;
    while (a < -M_PI)
        a += 2 * M_PI;
    return a;
}

/* Re-simulate r against q's limits; returns the total heading change (radians, absolute). Backwards
 * segments (reverse: the heading is the way the unit faces, it moves the other way; an arc's centre on the
 * steering side of that heading, sweep the change of it) keep max_reverse_speed and need q->reverse; the
 * direction changes only at speed 0; a turn on the spot (AP_SEG_TURN) is at rest, in place, takes at least
 * |sweep| / max_turn_rate and needs a turn rate. */
static double check_trajectory(const ap_query *q, const ap_result *r)
{
    const ap_vehicle *v = &q->vehicle;
    const double mpt = q->meters_per_tile > 0 ? q->meters_per_tile : 1.0, e = 1e-6;
    ck_assert_ptr_nonnull(r->timing);
    ck_assert_uint_ge(r->n_segments, 1);
    double x = q->sx, y = q->sy, h = q->sheading, sp = q->start_speed, t = 0.0, turned = 0.0;
    int way = 0; /* the driving direction so far: +1 forward, -1 backwards, 0 at rest since the last change */
    for (size_t i = 0; i < r->n_segments; i++) {
        const ap_segment *s = &r->segments[i];
        const ap_seg_time *tm = &r->timing[i];
        /* G1 and speed continuity */
        ck_assert_double_eq_tol(s->x0, x, 1e-9);
        ck_assert_double_eq_tol(s->y0, y, 1e-9);
        ck_assert_double_eq_tol(wrap(s->heading - h), 0.0, 1e-9);
        ck_assert_double_eq_tol(tm->v_start, sp, 1e-9);
        ck_assert_double_eq_tol(tm->t_start, t, 1e-9);
        ck_assert(tm->duration > 0.0);
        if (s->type == AP_SEG_TURN) {
            ck_assert_msg(v->max_turn_rate > 0.0, "segment %zu: a turn on the spot without a turn rate", i);
            /* turns the same way in a row are one segment; a turn back is its own */
            ck_assert_msg(i == 0 || r->segments[i - 1].type != AP_SEG_TURN ||
                              (r->segments[i - 1].sweep > 0) != (s->sweep > 0),
                          "segment %zu: two turns the same way in a row", i);
            ck_assert(s->sweep != 0.0);
            ck_assert(tm->v_start == 0.0 && tm->v_end == 0.0 && s->length == 0.0 && !s->reverse);
            ck_assert(s->x1 == s->x0 && s->y1 == s->y0);
            /* at the constant rate the answer's samples.dt draws it with */
            ck_assert_msg(fabs(tm->duration - fabs(s->sweep) / v->max_turn_rate) <= e,
                          "segment %zu: turns %g rad in %g s", i, s->sweep, tm->duration);
            h += s->sweep;
            turned += fabs(s->sweep);
            t += tm->duration;
            way = 0;
            continue;
        }
        const int dir = s->reverse ? -1 : 1;
        if (s->reverse)
            ck_assert_msg(q->reverse, "segment %zu: backwards without unit.reverse", i);
        if (way != 0 && dir != way) /* a cusp: only at rest */
            ck_assert_msg(tm->v_start == 0.0, "segment %zu: changes direction at %g m/s", i, tm->v_start);
        way = dir;
        /* speed, acceleration, braking: constant acceleration over the segment's length */
        const double vtop = s->reverse ? v->max_reverse_speed : v->max_speed;
        ck_assert(tm->v_start >= -e && tm->v_start <= vtop + e);
        ck_assert(tm->v_end >= -e && tm->v_end <= vtop + e);
        double acc = (tm->v_end - tm->v_start) / tm->duration;
        ck_assert_msg(acc <= v->max_accel + e && acc >= -v->max_brake - e, "segment %zu: acceleration %g", i, acc);
        double dist = 0.5 * (tm->v_start + tm->v_end) * tm->duration;
        ck_assert_msg(fabs(dist - s->length * mpt) <= e, "segment %zu: drives %g m in %g s, length %g m", i, dist,
                      tm->duration, s->length * mpt);
        double len = s->length;
        double endh = h;
        if (s->type == AP_SEG_ARC) {
            ck_assert(s->radius >= q->turning_radius - 1e-9);
            double vmax = fmax(tm->v_start, tm->v_end);
            ck_assert_msg(vmax * vmax / (s->radius * mpt) <= v->max_lateral_accel + e, "segment %zu: lateral %g", i,
                          vmax * vmax / (s->radius * mpt));
            ck_assert_double_eq_tol(fabs(s->sweep) * s->radius, len, 1e-9);
            endh = h + s->sweep;
            turned += fabs(s->sweep);
        }
        /* the swept disc, sampled every 0.02 tiles along the segment, with our own pose formula: the centre
         * on the steering side of the facing heading, the point's angle on the circle turning with it */
        int k = (int)ceil(len / 0.02);
        for (int j = 0; j <= k; j++) {
            double d = len * j / (k > 0 ? k : 1), px, py;
            if (s->type == AP_SEG_ARC) {
                double steer = (s->sweep > 0 ? 1.0 : -1.0) * dir, rr = s->radius;
                double cx = x - steer * rr * sin(h), cy = y + steer * rr * cos(h);
                double a = h - steer * M_PI_2 + s->sweep * d / len;
                px = cx + rr * cos(a);
                py = cy + rr * sin(a);
            } else {
                px = x + dir * d * cos(h);
                py = y + dir * d * sin(h);
            }
            if (!disc_clear(q->map, px, py, q->unit_radius))
                ck_abort_msg("segment %zu at %g: (%g, %g) not clear", i, d, px, py);
            if (j == k) {
                ck_assert_double_eq_tol(px, s->x1, 1e-9);
                ck_assert_double_eq_tol(py, s->y1, 1e-9);
            }
        }
        x = s->x1;
        y = s->y1;
        h = endh;
        sp = tm->v_end;
        t += tm->duration;
    }
    ck_assert_double_eq_tol(r->duration_s, t, 1e-9);
    const double tp = q->tol_position > 0 ? q->tol_position : AP_DEFAULT_TOL_POSITION;
    const double ts = q->tol_speed > 0 ? q->tol_speed : AP_DEFAULT_TOL_SPEED;
    const double th = q->tol_heading > 0 ? q->tol_heading : AP_DEFAULT_TOL_HEADING;
    ck_assert_msg(hypot(x - q->gx, y - q->gy) <= tp + 1e-9, "ends at (%g, %g)", x, y);
    /* the goal's speed is forward: a backwards end speed u counts as -u */
    const double vend = way < 0 ? -sp : sp;
    ck_assert(fabs(vend - q->goal_speed) <= ts + 1e-9);
    if (q->has_gheading)
        ck_assert(fabs(wrap(h - q->gheading)) <= th + 1e-9);
    return turned;
}

/* How many of r's segments are backwards, and how many are turns on the spot. */
static void count_kinds(const ap_result *r, int *rev, int *turns)
{
    *rev = *turns = 0;
    for (size_t i = 0; i < r->n_segments; i++) {
        *rev += r->segments[i].reverse;
        *turns += r->segments[i].type == AP_SEG_TURN;
    }
}

/* ---- the time bound */

START_TEST(test_time_bound_values)
{
    const ap_vehicle v = {10.0, 1.0, 1.0, 1.0, 0.0, 0.0};
    ck_assert_double_eq_tol(ap_vehicle_time_bound(&v, 100.0, 0.0, 0.0), 20.0, 1e-12); /* peak exactly 10 */
    ck_assert_double_eq_tol(ap_vehicle_time_bound(&v, 200.0, 0.0, 0.0), 30.0, 1e-12); /* 10 s cruise */
    /* from 5 m/s: 5 s to 10 m/s (37.5 m), 10 s braking (50 m), 112.5 m at 10 m/s: 26.25 s. The thesis's eq.
     * 4.1 says s / v_max + (t_acc + t_dec) / 2 = 27.5 s, more than the motion takes. */
    ck_assert_double_eq_tol(ap_vehicle_time_bound(&v, 200.0, 5.0, 0.0), 26.25, 1e-12);
    /* overshooting: 10 m/s, 10 m to stop needs 50 m; the braking time 10 s is still needed */
    ck_assert_double_eq_tol(ap_vehicle_time_bound(&v, 10.0, 10.0, 0.0), 10.0, 1e-12);
    /* end speed only bounded above: accelerate throughout, sqrt(2 * 8) = 4 m/s after 4 s */
    ck_assert_double_eq_tol(ap_vehicle_time_bound(&v, 8.0, 0.0, 10.0), 4.0, 1e-12);
    ck_assert_double_eq_tol(ap_vehicle_time_bound(&v, 0.0, 3.0, 1.0), 2.0, 1e-12);
}
END_TEST

/* The bound against a fine 1-D simulation of many speed profiles: never above any feasible motion's time. */
START_TEST(test_time_bound_below_simulated_profiles)
{
    const ap_vehicle v = {6.0, 2.0, 3.0, 1.0, 0.0, 0.0};
    ap_test_rng rng = {7};
    for (int it = 0; it < 2000; it++) {
        double v0 = 6.0 * ap_test_rand01(&rng), dt = 0.01, x = 0.0, sp = v0, t = 0.0;
        /* a random piecewise-constant acceleration profile within the limits, until 30 m or 60 s */
        while (x < 30.0 && t < 60.0) {
            double a = -3.0 + 5.0 * ap_test_rand01(&rng);
            for (int k = 0; k < 50 && x < 30.0; k++) {
                double ns = fmin(6.0, fmax(0.0, sp + a * dt));
                x += 0.5 * (sp + ns) * dt;
                sp = ns;
                t += dt;
                double h = ap_vehicle_time_bound(&v, x, v0, sp);
                if (!(h <= t + 1e-9)) /* not ck_assert: each one costs Check a pipe write */
                    ck_abort_msg("bound %g above the simulated %g (x %g, v0 %g, v %g)", h, t, x, v0, sp);
            }
        }
    }
}
END_TEST

/* ---- exhaustive admissibility: every action sequence up to depth D from the start; wherever one reaches
 * the goal, the heuristic at every state along it is at most the time that remains. */
typedef struct exh {
    const ap_kino_params *p;
    double best;
    long reached;
    ap_kino_state stack[8];
    double g[8];
} exh;

static void dfs(exh *e, int depth, int max_depth)
{
    const ap_kino_state *st = &e->stack[depth];
    if (depth > 0 && ap_kino_at_goal(e->p, st->x, st->y, st->h, st->v)) {
        double total = e->g[depth];
        e->best = fmin(e->best, total);
        e->reached++;
        for (int i = 0; i <= depth; i++) {
            double h = ap_kino_heuristic(e->p, e->stack[i].x, e->stack[i].y, e->stack[i].h, e->stack[i].v);
            if (!(h <= total - e->g[i] + 1e-9)) /* not ck_assert: each one costs Check a pipe write */
                ck_abort_msg("h %g > remaining %g at depth %d", h, total - e->g[i], i);
        }
        return;
    }
    if (depth == max_depth)
        return;
    ap_kino_state out[AP_KINO_MAX_SUCC];
    int n = ap_kino_expand(e->p, st, out);
    for (int k = 0; k < n; k++) {
        e->stack[depth + 1] = out[k];
        e->g[depth + 1] = e->g[depth] + out[k].dt;
        dfs(e, depth + 1, max_depth);
    }
}

/* Every action sequence up to depth from p's start (the world of q's map): the heuristic along each that
 * reaches the goal is checked (dfs), and at the start against the best time. Returns the sequences that
 * reached the goal. */
static long exhaust(ap_kino_params *p, const ap_query *q, int depth)
{
    ap_plan_world(q, false, &p->world, &p->radius);
    exh e = {.p = p, .best = INFINITY};
    e.stack[0] = (ap_kino_state){p->sx, p->sy, wrap(p->sh), p->sv, 0, 0, 0, 0, 0, 0, false};
    dfs(&e, 0, depth);
    if (e.reached > 0)
        ck_assert(ap_kino_heuristic(p, p->sx, p->sy, p->sh, p->sv) <= e.best + 1e-9);
    return e.reached;
}

START_TEST(test_heuristic_admissible_exhaustive)
{
    ap_map *m = open_map(16, 16, NULL);
    ap_test_rng rng = {11};
    int tested = 0, tested_gh = 0;
    /* quick mode (the sanitizer pass) the first half: each instance is ~750,000 sequences of the same code */
    const int n = ap_test_quick() ? 12 : 24;
    for (int it = 0; it < n; it++) {
        ap_query q = kq(m, 8.0, 8.0, 2 * M_PI * ap_test_rand01(&rng), 4.0 * ap_test_rand01(&rng), 0, 0);
        double ang = 2 * M_PI * ap_test_rand01(&rng), dist = 1.5 + 3.0 * ap_test_rand01(&rng);
        ap_kino_params p = {.veh = test_car, .meters_per_tile = 1.0, .turning_radius = 2.0, .sx = q.sx,
                            .sy = q.sy, .sh = q.sheading, .sv = q.start_speed, .gx = 8.0 + dist * cos(ang),
                            .gy = 8.0 + dist * sin(ang), .gv = 4.0 * ap_test_rand01(&rng), .tol_pos = 0.75,
                            .tol_heading = 0.5, .tol_speed = 1.0, .step = 1.25};
        /* half with a goal heading: the heading terms (the reversed goal's point bound, the turn time) */
        p.has_gh = it % 2 == 1;
        p.gh = 2 * M_PI * ap_test_rand01(&rng) - M_PI;
        const long reached = exhaust(&p, &q, 5);
        tested += reached > 0;
        tested_gh += reached > 0 && p.has_gh;
    }
    printf("kino heuristic: %d of %d instances reach the goal within 5 actions, %d with a goal heading\n", tested, n,
           tested_gh);
    ck_assert_int_ge(tested, ap_test_quick() ? 2 : 6);
    ck_assert_int_ge(tested_gh, ap_test_quick() ? 1 : 3);
    ap_map_free(m);
}
END_TEST

/* The heading terms of the time heuristic against driven paths: a forward path of length L (random words,
 * the near-optimal LS / RS / LSR / LSL shapes most often, radius >= the turning radius) from the state, the
 * goal put anywhere within the tolerances of its end (position and heading): the heuristic is at most the
 * time bound over L, the least time any motion over L can take. The lateral limit is made huge so the
 * turn-time term is never the larger one: this checks the path-length terms (the state's point bound, the
 * reversed goal's with its slack). */
START_TEST(test_heading_bound_below_driven_paths)
{
    ap_test_rng g = {25};
    static const char *const words[] = {"LS", "RS", "LSR", "RSL", "LSL", "SL", "LR", "SRS"};
    const int n = ap_test_quick() ? 20000 : 100000;
    int tight = 0;
    for (int i = 0; i < n; i++) {
        const double R = 1.0 + 3.0 * ap_test_rand01(&g);
        ap_pose a = {0.0, 0.0, 2.0 * M_PI * ap_test_rand01(&g) - M_PI};
        const char *w = words[ap_test_rand(&g) % 8];
        double len[3], total = 0.0;
        for (int j = 0; w[j] != '\0'; j++) {
            len[j] = (w[j] == 'S' ? 15.0 : 1.5 * M_PI * R) * ap_test_rand01(&g);
            total += len[j];
        }
        const double r = R * (i % 4 == 0 ? 1.0 + ap_test_rand01(&g) : 1.0);
        ap_pose e = ap_test_drive(a, w, len, r);
        ap_kino_params p = {.veh = test_car, .meters_per_tile = 1.0, .turning_radius = R, .sx = 0, .sy = 0,
                            .sh = a.heading, .sv = 4.0 * ap_test_rand01(&g), .gv = 4.0 * ap_test_rand01(&g),
                            .has_gh = true, .tol_pos = ap_test_rand01(&g), .tol_heading = 0.5 * ap_test_rand01(&g),
                            .tol_speed = 0.5, .step = 1.25};
        p.veh.max_lateral_accel = 1e9;
        const double ang = 2.0 * M_PI * ap_test_rand01(&g), off = p.tol_pos * sqrt(ap_test_rand01(&g));
        p.gx = e.x + off * cos(ang);
        p.gy = e.y + off * sin(ang);
        p.gh = e.heading + p.tol_heading * (2.0 * ap_test_rand01(&g) - 1.0);
        const ap_kino_params q = ap_kino_prepare(&p);
        const double h = ap_kino_heuristic(&q, 0.0, 0.0, a.heading, p.sv);
        const double t = ap_kino_time_bound(&q, total, p.sv, p.gv + p.tol_speed); /* ending as the goal allows */
        if (!(h <= t + 1e-9))
            ck_abort_msg("case %d %s: h %.12g > %.12g over the driven %.12g tiles", i, w, h, t, total);
        /* tight: the heading terms beat the straight distance by a margin and come near the path */
        const double straight = hypot(p.gx, p.gy) - p.tol_pos;
        tight += h > ap_kino_time_bound(&q, straight, p.sv, p.gv + p.tol_speed) + 0.05 && h > t - 0.2;
    }
    ck_assert_int_gt(tight, n / 50);
}
END_TEST

/* A start already within the goal's tolerances (position, heading, speed) is answered at once: ok, no
 * segment, no time, no search; the waypoints are the start twice. Just outside the position tolerance a
 * search runs and drives. */
START_TEST(test_start_within_goal_tolerance)
{
    ap_map *m = open_map(20, 20, NULL);
    ap_query q = kq(m, 10.0, 10.0, 0.5, 1.0, 10.3, 10.2);
    q.has_gheading = true;
    q.gheading = 0.45;
    q.goal_speed = 1.2;
    q.tol_position = 0.5;
    q.tol_heading = 0.1;
    q.tol_speed = 0.5;
    ap_result r;
    ck_assert_int_eq(run_plan(&q, &r, 0), AP_OK);
    ck_assert_uint_eq(r.n_segments, 0);
    ck_assert(r.duration_s == 0.0 && r.length == 0.0 && r.grid_cost == 0.0);
    ck_assert_uint_eq(r.expanded, 0);
    ck_assert(!r.capped && !r.probe);
    ck_assert_uint_eq(r.n_waypoints, 2);
    for (int i = 0; i < 2; i++)
        ck_assert(r.waypoints[i][0] == q.sx && r.waypoints[i][1] == q.sy);
    ap_result_free(&r);
    q.gx = 10.6; /* 0.63 tiles away: outside the 0.5 */
    ck_assert_int_eq(run_plan(&q, &r, 0), AP_OK);
    ck_assert_uint_ge(r.n_segments, 1);
    ck_assert_uint_gt(r.expanded, 0);
    ck_assert_double_gt(r.duration_s, 0.0);
    ap_result_free(&r);
    ap_map_free(m);
}
END_TEST

/* A random query on open_map(60, 60) from its centre: a goal 4-16 tiles away with a required heading and
 * tight tolerances, capped at 400 expansions (most such queries reach the goal by the analytic edge long
 * before A* can prove a path the fastest). */
static ap_query capped_query(const ap_map *m, ap_test_rng *rng)
{
    double ang = 2 * M_PI * ap_test_rand01(rng), dist = 4.0 + 12.0 * ap_test_rand01(rng);
    ap_query q = kq(m, 30.0, 30.0, 2 * M_PI * ap_test_rand01(rng) - M_PI, 4.0 * ap_test_rand01(rng),
                    30.0 + dist * cos(ang), 30.0 + dist * sin(ang));
    q.has_gheading = true;
    q.gheading = 2 * M_PI * ap_test_rand01(rng) - M_PI;
    q.goal_speed = 2.0 * ap_test_rand01(rng);
    q.tol_heading = 0.05;
    q.tol_position = 0.3;
    q.tol_speed = 0.2;
    q.unit_radius = 0.3;
    q.max_expansions = 400;
    return q;
}

/* The expansion cap: a query that has reached the goal by the cap answers its best path, capped, valid by the
 * independent checker, never faster than the finished search's answer; with nothing reached it is no_path
 * not_found. Random goals with a required heading on an open field (most reach the goal by the analytic edge
 * long before A* can prove it the fastest). */
START_TEST(test_cap_answers_the_best_found)
{
    ap_map *m = open_map(60, 60, NULL);
    ap_test_rng rng = {31};
    int capped = 0, compared = 0, faster = 0;
    for (int it = 0; it < (ap_test_quick() ? 6 : 12); it++) { /* the first 6: 4 capped, 3 of them faster */
        ap_query q = capped_query(m, &rng);
        ap_result rc = {0}, rf = {0};
        int st = run_plan(&q, &rc, 97); /* in slices: the cap is met between slices too */
        if (st == AP_OK && rc.capped) {
            capped++;
            ck_assert_uint_eq(rc.expanded, 400);
            check_trajectory(&q, &rc);
            ck_assert(rc.clear);
            q.max_expansions = 200000;
            ck_assert_int_eq(run_plan(&q, &rf, 0), AP_OK);
            /* the same search run on: the goal's g only falls, so the proven answer is never slower */
            if (!rf.capped) {
                compared++;
                ck_assert(rf.duration_s <= rc.duration_s + 1e-9);
                faster += rf.duration_s < rc.duration_s - 1e-6;
            }
        } else if (st == AP_NO_PATH) {
            ck_assert_int_eq(rc.no_path_reason, AP_NO_PATH_NOT_FOUND);
        }
        ap_result_free(&rc);
        ap_result_free(&rf);
    }
    /* measured: 9 of 12 capped at 400 expansions, all 9 proven by 6,463-50,012, 5 of them faster by 1-5 % */
    ck_assert_int_ge(capped, 3);
    ck_assert_int_ge(compared, 3);
    ck_assert_int_ge(faster, 1);
    /* nothing reached by the cap: no_path, not_found (a far goal, one expansion, no analytic edge tried) */
    ap_query q = kq(m, 10.0, 10.0, 0.0, 0.0, 50.0, 50.0);
    q.max_expansions = 1;
    ap_result r = {0};
    ck_assert_int_eq(run_plan(&q, &r, 0), AP_NO_PATH);
    ck_assert_int_eq(r.no_path_reason, AP_NO_PATH_NOT_FOUND);
    ck_assert(!r.capped);
    ap_result_free(&r);
    ap_map_free(m);
}
END_TEST

/* search.weight (weighted A*): on the same random goals with a required heading, weight 1.5 answers every
 * query plain A* proves, each answer valid by the independent checker and at most 1.5 times plain A*'s time
 * (measured here, not a proven bound: the heuristic is not consistent), with far fewer expansions. */
START_TEST(test_weight_answers_sooner)
{
    ap_map *m = open_map(60, 60, NULL);
    ap_test_rng rng = {31};
    int compared = 0;
    uint64_t exp_plain = 0, exp_weighted = 0;
    double t_plain = 0.0, t_weighted = 0.0;
    for (int it = 0; it < (ap_test_quick() ? 4 : 8); it++) {
        ap_query q = capped_query(m, &rng);
        q.max_expansions = 200000;
        ap_result rp = {0}, rw = {0};
        const int sp = run_plan(&q, &rp, 0);
        q.weight = 1.5;
        const int sw = run_plan(&q, &rw, 0);
        if (sp == AP_OK && !rp.capped) {
            ck_assert_int_eq(sw, AP_OK);
            ck_assert(!rw.capped && !rw.probe);
            check_trajectory(&q, &rw);
            ck_assert(rw.clear);
            ck_assert_msg(rw.duration_s <= 1.5 * rp.duration_s, "query %d: %.4f s against %.4f s", it, rw.duration_s,
                          rp.duration_s);
            compared++;
            exp_plain += rp.expanded;
            exp_weighted += rw.expanded;
            t_plain += rp.duration_s;
            t_weighted += rw.duration_s;
        }
        ap_result_free(&rp);
        ap_result_free(&rw);
    }
    /* measured: 8 of 8 compared, 50 expansions against 119,153 in all, 7.1 % more time in all (quick: 4) */
    ck_assert_int_ge(compared, 4);
    ck_assert_uint_lt(exp_weighted * 10, exp_plain);
    ck_assert(t_weighted <= 1.15 * t_plain);
    fprintf(stderr, "kino weight 1.5: %d queries, %llu expansions against %llu, time %+.2f %%\n", compared,
            (unsigned long long)exp_weighted, (unsigned long long)exp_plain, 100.0 * (t_weighted / t_plain - 1.0));
    ap_map_free(m);
}
END_TEST

/* Stopping a search early otherwise than by its cap: ap_plan_stop between slices (the server's deadline
 * between slices) and the deadline or cancel inside a slice answer the best path found as the cap does, or
 * timeout when the goal was not reached. */
START_TEST(test_stop_answers_the_best_found)
{
    ap_map *m = open_map(60, 60, NULL);
    ap_test_rng rng = {31}; /* test_cap_answers_the_best_found's first query: capped at 400, proven at 6,463 */
    ap_query q = capped_query(m, &rng);
    ap_result rc = {0};
    ck_assert_int_eq(run_plan(&q, &rc, 0), AP_OK);
    ck_assert(rc.capped);
    q.max_expansions = 0; /* the default cap, far away */
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 1u << 18, AP_PLAN_MAX_SUCC), AP_OK);
    /* between slices: the same search, the same answer as the cap's */
    ap_plan p;
    ck_assert_int_eq(ap_plan_begin(&p, &q, &ws, 0), AP_IN_PROGRESS);
    ck_assert_int_eq(ap_plan_step(&p, 400), AP_IN_PROGRESS);
    ck_assert_int_eq(ap_plan_stop(&p), AP_OK);
    ck_assert_int_eq(ap_plan_stop(&p), AP_OK); /* no longer in progress: its state */
    ap_result r = {0};
    ck_assert_int_eq(ap_plan_finish(&p, &r), AP_OK);
    ck_assert(r.capped);
    ck_assert_uint_eq(r.expanded, 400);
    ck_assert(r.duration_s == rc.duration_s);
    check_trajectory(&q, &r);
    ap_result_free(&r);
    /* inside a slice (the server's cancel flag stops the core as a deadline does): the best found by then */
    atomic_int cancel = 0;
    ck_assert_int_eq(ap_plan_begin(&p, &q, &ws, 0), AP_IN_PROGRESS);
    ap_plan_set_cancel(&p, &cancel);
    ck_assert_int_eq(ap_plan_step(&p, 400), AP_IN_PROGRESS);
    atomic_store(&cancel, 1);
    ck_assert_int_eq(ap_plan_step(&p, 0), AP_OK);
    ck_assert_int_eq(ap_plan_finish(&p, &r), AP_OK);
    ck_assert(r.capped);
    ck_assert(r.duration_s <= rc.duration_s);
    check_trajectory(&q, &r);
    ap_result_free(&r);
    /* a deadline already past: stopped at once, the goal not reached: timeout */
    ck_assert_int_eq(ap_plan_begin(&p, &q, &ws, 1), AP_IN_PROGRESS);
    ck_assert_int_eq(ap_plan_step(&p, 0), AP_TIMEOUT);
    ck_assert_int_eq(ap_plan_finish(&p, &r), AP_TIMEOUT);
    ck_assert(!r.capped);
    ap_result_free(&r);
    /* stopped before the goal was reached: timeout */
    ck_assert_int_eq(ap_plan_begin(&p, &q, &ws, 0), AP_IN_PROGRESS);
    ck_assert_int_eq(ap_plan_step(&p, 1), AP_IN_PROGRESS);
    ck_assert_int_eq(ap_plan_stop(&p), AP_TIMEOUT);
    ck_assert_int_eq(ap_plan_finish(&p, &r), AP_TIMEOUT);
    ap_result_free(&r);
    ap_result_free(&rc);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* ---- plans, re-simulated */

START_TEST(test_plan_open_resimulated)
{
    ap_map *m = open_map(40, 40, NULL);
    ap_test_rng rng = {3};
    for (int it = 0; it < 20; it++) {
        double ang = 2 * M_PI * ap_test_rand01(&rng), dist = 16.0 * ap_test_rand01(&rng);
        ap_query q = kq(m, 20.0, 20.0, 2 * M_PI * ap_test_rand01(&rng) - M_PI, 4.0 * ap_test_rand01(&rng),
                        20.0 + dist * cos(ang), 20.0 + dist * sin(ang));
        q.goal_speed = 2.0 * ap_test_rand01(&rng);
        q.unit_radius = 0.3;
        ap_result r = {0};
        int st = run_plan(&q, &r, 500);
        ck_assert_int_eq(st, AP_OK);
        if (r.n_segments > 0) {
            check_trajectory(&q, &r);
            ck_assert(r.clear);
            /* the heuristic is a lower bound of the found time */
            double s = hypot(q.gx - q.sx, q.gy - q.sy) - AP_DEFAULT_TOL_POSITION;
            ck_assert(ap_vehicle_time_bound(&q.vehicle, s, q.start_speed, q.goal_speed + AP_DEFAULT_TOL_SPEED) <=
                      r.duration_s + 1e-9);
        }
        ap_result_free(&r);
    }
    ap_map_free(m);
}
END_TEST

/* A 24 x 24 map with a wall at x = 12 from y = 4 to 19, and the query from (6, 12) across it to (18, 12),
 * facing it, at rest, a disc of radius 0.4. */
static ap_query wall_query(ap_map **m)
{
    char walls[512] = "";
    for (int y = 4; y < 20; y++)
        sprintf(walls + strlen(walls), "12,%d;", y);
    *m = open_map(24, 24, walls);
    ap_query q = kq(*m, 6.0, 12.0, 0.0, 0.0, 18.0, 12.0);
    q.unit_radius = 0.4;
    return q;
}

/* wall_query with the goal to be reached facing +x (heading tolerance 0.3). */
static ap_query wall_query_facing(ap_map **m)
{
    ap_query q = wall_query(m);
    q.has_gheading = true;
    q.gheading = 0.0;
    q.tol_heading = 0.3;
    return q;
}

/* A wall between start and goal: the path goes round it, clear, within the limits. */
START_TEST(test_plan_wall_resimulated)
{
    ap_map *m;
    ap_query q = wall_query_facing(&m);
    ap_result r = {0};
    ck_assert_int_eq(run_plan(&q, &r, 0), AP_OK);
    check_trajectory(&q, &r);
    ck_assert(r.clear);
    ck_assert(r.length > 12.0);
    ap_result_free(&r);
    ap_map_free(m);
}
END_TEST

static ap_kino_params probe_params(const ap_query *q);

/* The obstacle-aware lattice term on the wall map: the domain builds it; A* with it finds a path of the same
 * time in fewer expansions than with it switched off; along the answer the heuristic (with it) never
 * exceeds the time that remains; and at the start it is above the straight-line bound (the wall is in the
 * way). */
START_TEST(test_lattice_term_on_the_wall)
{
    ap_map *m;
    ap_query q = wall_query_facing(&m);
    ap_kino_params kp = probe_params(&q);
    kp.heuristic = AP_KINO_H_TIME;
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 1u << 20, AP_PLAN_MAX_SUCC), AP_OK);
    double cost[2] = {0, 0};
    uint64_t exp[2] = {0, 0};
    for (int with = 0; with < 2; with++) {
        ap_kino_domain d;
        ap_domain dom;
        ap_search s;
        ck_assert_int_eq(ap_kino_init(&d, &dom, &kp, ws.capacity), AP_OK);
        ck_assert_ptr_null(d.p.lattice); /* built by the first bind */
        ck_assert_int_eq(ap_search_begin(&s, &ws, &dom, AP_KINO_START, AP_KINO_GOAL, 0), AP_OK);
        ap_kino_bind(&d, &s);
        ck_assert_ptr_nonnull(d.p.lattice);
        if (!with)
            d.p.lattice = NULL;
        ck_assert_int_eq(ap_search_run(&s, 0), AP_OK);
        cost[with] = s.cost;
        exp[with] = s.expanded;
        if (with) {
            /* the start: the wall (x = 12, y 4..19) makes the straight 12 tiles at least ~14.6 */
            ap_kino_params plain = d.p;
            plain.lattice = NULL;
            ck_assert(ap_kino_heuristic(&d.p, q.sx, q.sy, 0.0, 0.0) >
                      ap_kino_heuristic(&plain, q.sx, q.sy, 0.0, 0.0) + 0.3);
            /* along the path found: h <= the time that remains */
            size_t n = ap_search_path(&s, NULL, 0);
            uint32_t *nodes = malloc(n * sizeof *nodes);
            ap_search_path(&s, nodes, n);
            for (size_t i = 0; i + 1 < n; i++) {
                const ap_kino_state *st = ap_search_payload(&s, nodes[i]);
                const double rest = s.cost - ap_search_g(&s, nodes[i]);
                ck_assert(ap_kino_heuristic(&d.p, st->x, st->y, st->h, st->v) <= rest + 1e-9);
            }
            free(nodes);
        }
        ap_kino_free(&d);
    }
    ck_assert(fabs(cost[0] - cost[1]) <= 1e-9 * cost[0] || cost[1] <= cost[0]);
    /* measured: 32,717 expansions without the lattice term, 27,404 with it (7.678 s and 7.630 s) */
    ck_assert_uint_lt(exp[1], exp[0]);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* A kinodynamic domain of kp over ws, a search begun from its start and the domain bound to it. */
static void begin_bound(const ap_kino_params *kp, ap_workspace *ws, ap_kino_domain *d, ap_domain *dom, ap_search *s)
{
    ck_assert_int_eq(ap_kino_init(d, dom, kp, ws->capacity), AP_OK);
    ck_assert_int_eq(ap_search_begin(s, ws, dom, AP_KINO_START, AP_KINO_GOAL, 0), AP_OK);
    ap_kino_bind(d, s);
}

/* The lattice bound's build gives up at the plan's deadline (a million-cell region took 70 ms; a query
 * with a 1 ms deadline answered its timeout then): with the deadline already past the domain has no bound,
 * with none it has; and ap_lattice_distances_until itself answers AP_TIMEOUT. Likewise the state id table
 * does not double once the doubling would end past the deadline (one step the deadline is not read in:
 * answers came up to 230 ms late): past it, the table keeps its first size and new bins past 3/4 of it are
 * dropped, while without a deadline the same search grows it and drops none. */
START_TEST(test_lattice_build_keeps_the_deadline)
{
    ap_map *m;
    ap_query q = wall_query_facing(&m);
    ap_kino_params kp = probe_params(&q);
    kp.heuristic = AP_KINO_H_TIME;
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 1u << 20, AP_PLAN_MAX_SUCC), AP_OK);
    for (int past = 0; past < 2; past++) {
        kp.deadline_ns = past ? 1 : 0; /* 1 ns after the clock's origin: long past */
        ap_kino_domain d;
        ap_domain dom;
        ap_search s;
        begin_bound(&kp, &ws, &d, &dom, &s);
        if (past)
            ck_assert_ptr_null(d.p.lattice);
        else
            ck_assert_ptr_nonnull(d.p.lattice);
        (void)ap_search_run(&s, 0);
        if (past)
            ck_assert_uint_gt(d.dropped, 0);
        else
            ck_assert_uint_eq(d.dropped, 0); /* (27,404 expansions: far more bins than 3,072) */
        ap_kino_free(&d);
    }
    const uint8_t cfree[4] = {1, 1, 1, 1};
    float dist[25];
    ck_assert_int_eq(ap_lattice_distances_until(cfree, 2, 2, 0, 0, 0, dist, 1), AP_TIMEOUT);
    ck_assert_int_eq(ap_lattice_distances_until(cfree, 2, 2, 0, 0, 0, dist, 0), AP_OK);
    ck_assert_float_eq(dist[1 * 5 + 1], 0.0f);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* A start at (20, 20) facing +x at speed sv and a goal 3 tiles behind it, to be reached facing +x (heading
 * tolerance 0.3): thesis Figure 5.2. */
static ap_query behind_query(const ap_map *m, double sv)
{
    ap_query q = kq(m, 20.0, 20.0, 0.0, sv, 17.0, 20.0);
    q.has_gheading = true;
    q.gheading = 0.0;
    q.tol_heading = 0.3;
    return q;
}

/* Thesis Figure 5.2: a goal close behind a start driving at full speed, to be reached facing the start's
 * direction; without reverse the vehicle must brake and turn a full loop. */
START_TEST(test_goal_behind_fast_start_loops)
{
    ap_map *m = open_map(40, 40, NULL);
    ap_query q = behind_query(m, 4.0);
    ap_result r = {0};
    ck_assert_int_eq(run_plan(&q, &r, 0), AP_OK);
    double turned = check_trajectory(&q, &r);
    ck_assert_msg(turned >= 2 * M_PI - 2 * 0.3, "turned %g rad", turned);
    ck_assert(r.length > 2 * M_PI * q.turning_radius - 1.0);
    ap_result_free(&r);
    ap_map_free(m);
}
END_TEST

/* ---- reverse and turning on the spot */


/* The bound with reverse (vehicle.h): for random motions whose signed speed may change sign at rest (speeding
 * up at most max_accel, slowing at most max_brake, either way), the bound from |v0| over the distance
 * driven (forward and backwards alike) with the top speed max(max_speed, max_reverse_speed) is never above
 * the motion's time. The reverse limit (8) is above the forward one (6), so the larger one must be used. */
START_TEST(test_time_bound_reverse_profiles)
{
    const ap_vehicle v = {6.0, 2.0, 3.0, 1.0, 8.0, 0.0};
    ap_vehicle vb = v;
    vb.max_speed = fmax(v.max_speed, v.max_reverse_speed);
    ap_test_rng rng = {17};
    long cusps = 0;
    for (int it = 0; it < 2000; it++) {
        double v0 = 6.0 * ap_test_rand01(&rng), dt = 0.01, x = 0.0, sp = v0, t = 0.0;
        while (x < 30.0 && t < 60.0) {
            const double want = -3.0 + 6.0 * ap_test_rand01(&rng); /* signed dv/dt */
            for (int k = 0; k < 50 && x < 30.0; k++) {
                double a = want;
                if (sp > 0.0 || (sp == 0.0 && a > 0.0))
                    a = fmax(-v.max_brake, fmin(a, v.max_accel)); /* forward: speed up <= 2, brake <= 3 */
                else
                    a = fmin(v.max_brake, fmax(a, -v.max_accel)); /* backwards: mirrored */
                double ns = fmin(v.max_speed, fmax(-v.max_reverse_speed, sp + a * dt));
                if ((sp > 0.0 && ns < 0.0) || (sp < 0.0 && ns > 0.0)) {
                    ns = 0.0; /* a cusp: the direction changes only at rest */
                    cusps++;
                }
                x += 0.5 * fabs(sp + ns) * dt;
                sp = ns;
                t += dt;
                double h = ap_vehicle_time_bound(&vb, x, v0, fabs(sp));
                if (!(h <= t + 1e-9)) /* not ck_assert: each one costs Check a pipe write */
                    ck_abort_msg("bound %g above the simulated %g (x %g, v0 %g, v %g)", h, t, x, v0, sp);
            }
        }
    }
    ck_assert_int_gt(cusps, 100);
}
END_TEST

/* Exhaustive admissibility with reverse and turning on the spot: every action sequence up to depth 4 on
 * random small instances (start speeds forward, some at rest); the reverse limit above the forward one. */
START_TEST(test_heuristic_admissible_exhaustive_reverse)
{
    ap_map *m = open_map(16, 16, NULL);
    ap_test_rng rng = {23};
    const ap_vehicle car = {4.0, 2.0, 3.0, 4.0, 5.0, 1.5};
    int tested = 0;
    long reached = 0;
    for (int it = 0; it < 16; it++) {
        ap_query q = kq(m, 8.0, 8.0, 2 * M_PI * ap_test_rand01(&rng), it % 2 ? 0.0 : 4.0 * ap_test_rand01(&rng), 0, 0);
        double ang = 2 * M_PI * ap_test_rand01(&rng), dist = 1.0 + 2.5 * ap_test_rand01(&rng);
        ap_kino_params p = {.veh = car, .meters_per_tile = 1.0, .turning_radius = 2.0, .reverse = true,
                            .sx = q.sx, .sy = q.sy, .sh = q.sheading, .sv = q.start_speed,
                            .gx = 8.0 + dist * cos(ang), .gy = 8.0 + dist * sin(ang), .gv = 2.0 * ap_test_rand01(&rng),
                            .has_gh = it % 3 == 0, .gh = 2 * M_PI * ap_test_rand01(&rng), .tol_pos = 0.75,
                            .tol_heading = 0.5, .tol_speed = 1.0, .step = 1.25};
        const long n = exhaust(&p, &q, 4);
        tested += n > 0;
        reached += n;
    }
    ck_assert_int_ge(tested, 8);
    ck_assert_int_gt(reached, 1000);
    ap_map_free(m);
}
END_TEST

/* The expansion of a state at rest with reverse and a turn rate: forward and backwards actions (backwards:
 * negative speed, reverse segments) and the turns on the spot, 0 m/s, in place, |angle| / rate seconds. */
START_TEST(test_expand_reverse_and_turns)
{
    ap_map *m = open_map(30, 30, NULL);
    ap_query q = kq(m, 15.0, 15.0, 0.0, 0.0, 25.0, 15.0);
    ap_kino_params p = {.veh = {4.0, 2.0, 3.0, 4.0, 2.0, 1.0}, .meters_per_tile = 1.0, .turning_radius = 2.0,
                        .reverse = true, .sx = 15.0, .sy = 15.0, .gx = 25.0, .gy = 15.0, .gv = 0.0, .tol_pos = 0.5,
                        .tol_heading = 0.1, .tol_speed = 0.5, .step = 1.25};
    ap_plan_world(&q, false, &p.world, &p.radius);
    ap_kino_state st = {15.0, 15.0, 0.0, 0.0, 0, 0, 0, 0, 0, 0, false}, out[AP_KINO_MAX_SUCC];
    int n = ap_kino_expand(&p, &st, out), fwd = 0, back = 0, turns = 0;
    for (int k = 0; k < n; k++) {
        if (out[k].len > 0.0) {
            fwd++;
            ck_assert(out[k].v > 0.0);
        } else if (out[k].len < 0.0) {
            back++;
            ck_assert(out[k].v < 0.0 && out[k].v >= -2.0);
            ap_segment sg = ap_kino_segment(st.x, st.y, st.h, &out[k]);
            ck_assert(sg.reverse);
            ck_assert_double_eq_tol(sg.x1, out[k].x, 1e-12);
            ck_assert(out[k].x < 15.0); /* facing +x, it moved toward -x */
        } else {
            turns++;
            ck_assert(out[k].v == 0.0 && out[k].x == 15.0 && out[k].y == 15.0);
            ck_assert_double_eq_tol(out[k].dt, fabs(out[k].rot) / 1.0, 1e-12);
            ck_assert_double_eq_tol(out[k].h, wrap(out[k].rot), 1e-12);
        }
    }
    /* forward: full acceleration x 5 curvatures (the goal speed 0 has no intensity from rest); backwards the
     * same 5; turns: +-pi/8, +-pi/4, +-pi/2, pi (facing the goal already: no turn) */
    ck_assert_int_eq(fwd, 5);
    ck_assert_int_eq(back, 5);
    ck_assert_int_eq(turns, 7);
    /* moving backwards: only backwards actions (accelerate, keep, brake), no turns */
    st.v = -1.0;
    n = ap_kino_expand(&p, &st, out);
    ck_assert_int_eq(n, 15);
    for (int k = 0; k < n; k++)
        ck_assert(out[k].len < 0.0 && out[k].v <= 0.0);
    /* without reverse and turn rate: no backwards actions and no turns from rest */
    p.reverse = false;
    p.veh.max_turn_rate = 0.0;
    st.v = 0.0;
    ck_assert_int_eq(ap_kino_expand(&p, &st, out), 5);
    ap_map_free(m);
}
END_TEST

/* Thesis Figure 5.2 and 4.2.3 with reverse: a goal 3 tiles just behind a start at rest, to be reached facing
 * the start's way. Without reverse the unit must drive a loop; with it, backing up is faster: the answer has
 * backwards segments and a shorter duration, and passes the re-simulation. */
START_TEST(test_goal_behind_at_rest_backs_up)
{
    ap_map *m = open_map(40, 40, NULL);
    ap_query q = behind_query(m, 0.0);
    ap_result loop = {0}, back = {0};
    ck_assert_int_eq(run_plan(&q, &loop, 0), AP_OK);
    double turned = check_trajectory(&q, &loop);
    ck_assert_msg(turned >= 2 * M_PI - 2 * 0.3, "turned %g rad", turned);
    q.reverse = true;
    ck_assert_int_eq(run_plan(&q, &back, 0), AP_OK);
    check_trajectory(&q, &back);
    ck_assert(back.clear);
    int rev, turns;
    count_kinds(&back, &rev, &turns);
    ck_assert_int_ge(rev, 1);
    ck_assert_int_eq(turns, 0);
    ck_assert_msg(back.duration_s < loop.duration_s, "backing up %g s, loop %g s", back.duration_s, loop.duration_s);
    /* 3 tiles less the 0.5 tolerance backwards at most 2 m/s from rest to rest (a = 2, d = 3): the 1-D bound */
    ck_assert(back.duration_s >= ap_vehicle_time_bound(&(ap_vehicle){2.0, 2.0, 3.0, 4.0, 0.0, 0.0}, 2.5, 0.0, 0.5) - 1e-9);
    ap_result_free(&loop);
    ap_result_free(&back);
    ap_map_free(m);
}
END_TEST

/* Without start.heading the start's heading is free (README "start.heading"): the search may start facing
 * any compass heading, the goal or the goal heading, at no time and with no turn in the answer. A goal 8
 * tiles west of a car at rest: the answer drives straight west, as fast as with start.heading pi given and
 * faster than facing east (it looped there: the heading was taken as 0); in a corridor one tile wide the goal
 * behind is reached (no_path before). The answers pass the checker from their own first heading. */
START_TEST(test_free_start_heading)
{
    static const struct {
        int w, h;
        double sx, sy, gx, gy, R;
        int facing_east; /* the status facing east */
    } cases[] = {{40, 40, 20.5, 20.5, 12.5, 20.5, 2.0, AP_OK}, {30, 3, 20.5, 1.5, 5.5, 1.5, 1.0, AP_NO_PATH}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        ap_map *m = open_map(cases[c].w, cases[c].h, NULL);
        ap_query q = kq(m, cases[c].sx, cases[c].sy, 0.0, 0.0, cases[c].gx, cases[c].gy);
        q.turning_radius = cases[c].R;
        ap_result east = {0}, west = {0}, free_ = {0};
        ck_assert_int_eq(run_plan(&q, &east, 0), cases[c].facing_east);
        q.sheading = M_PI;
        ck_assert_int_eq(run_plan(&q, &west, 0), AP_OK);
        q.has_sheading = false;
        q.sheading = 0.0;
        ck_assert_int_eq(run_plan(&q, &free_, 0), AP_OK);
        ck_assert(free_.n_segments >= 1 && free_.segments[0].type == AP_SEG_LINE);
        ck_assert_double_eq_tol(fabs(free_.segments[0].heading), M_PI, 1e-12);
        ck_assert_double_eq_tol(free_.duration_s, west.duration_s, 1e-9);
        if (east.status == AP_OK)
            ck_assert_msg(free_.duration_s < east.duration_s - 0.1, "free %g s, facing east %g s", free_.duration_s,
                          east.duration_s);
        ap_query as_driven = q;
        as_driven.has_sheading = true;
        as_driven.sheading = free_.segments[0].heading;
        check_trajectory(&as_driven, &free_);
        ap_result_free(&east);
        ap_result_free(&west);
        ap_result_free(&free_);
        ap_map_free(m);
    }
    /* a start within the goal's position tolerance, free to face goal.heading: there at once, also for the
     * probe (which drove a 3.7 s loop from the goal's direction) */
    ap_map *m = open_map(20, 20, NULL);
    for (int probe = 0; probe < 2; probe++) {
        ap_query q = kq(m, 10.5, 10.5, 0.0, 0.0, 10.6, 10.5);
        q.has_sheading = false;
        q.has_gheading = true;
        q.gheading = 2.0;
        q.probe = probe == 1;
        ap_result r = {0};
        ck_assert_int_eq(run_plan(&q, &r, 0), AP_OK);
        ck_assert_msg(r.n_segments == 0 && r.duration_s == 0.0, "probe %d: %zu segments, %g s", probe, r.n_segments,
                      r.duration_s);
        ap_result_free(&r);
    }
    ap_map_free(m);
}
END_TEST

/* The corner speed's intensity (thesis 4.3.4's in-between intensity): a car with max_accel 100 m/s^2 reached
 * the top speed within its first step from rest, where v^2 / r <= 8 m/s^2 forbids any tight turn, and drove
 * 12.5 s of loops on the demo arena to a goal 16.6 tiles away that 30 m/s^2 reached in 2.5 s. From rest one
 * forward intensity now ends the step at sqrt(a_lat R) = sqrt(24) m/s, turning at the turning radius. */
START_TEST(test_corner_speed_intensity)
{
    ap_map *m = open_map(40, 30, NULL);
    ap_query q = kq(m, 5.5, 5.5, 0.0, 0.0, 20.5, 12.5);
    q.vehicle = (ap_vehicle){14.0, 100.0, 6.0, 8.0, 4.0, 0.0};
    q.turning_radius = 3.0;
    ap_kino_params p = {.veh = q.vehicle, .meters_per_tile = 1.0, .turning_radius = 3.0, .sx = 5.5, .sy = 5.5,
                        .gx = 20.5, .gy = 12.5, .gv = 0.0, .tol_pos = 0.5, .tol_heading = 0.1, .tol_speed = 0.5,
                        .step = AP_KINO_STEP};
    ap_plan_world(&q, false, &p.world, &p.radius);
    ap_kino_state st = {5.5, 5.5, 0.0, 0.0, 0, 0, 0, 0, 0, 0, false}, out[AP_KINO_MAX_SUCC];
    const int n = ap_kino_expand(&p, &st, out);
    int corner = 0, tight = 0;
    for (int k = 0; k < n; k++) {
        if (fabs(out[k].v - sqrt(24.0)) > 1e-12)
            continue;
        corner++;
        ck_assert_double_eq_tol(out[k].accel, 24.0 / (2.0 * AP_KINO_STEP), 1e-9);
        tight += fabs(fabs(out[k].curv) - 1.0 / 3.0) < 1e-12;
    }
    ck_assert_int_ge(corner, 5); /* its curvatures: straight, tightest and half of it both ways */
    ck_assert_int_eq(tight, 2);
    ap_result r100 = {0}, r30 = {0};
    ck_assert_int_eq(run_plan(&q, &r100, 0), AP_OK);
    check_trajectory(&q, &r100);
    q.vehicle.max_accel = 30.0;
    ck_assert_int_eq(run_plan(&q, &r30, 0), AP_OK);
    check_trajectory(&q, &r30);
    /* measured: 2.73 s and 2.52 s (without the intensity the 100 m/s^2 car found no path here within the
     * default cap, and took 12.46 s on the demo arena) */
    ck_assert_msg(r100.duration_s < 1.2 * r30.duration_s, "max_accel 100: %g s, 30: %g s", r100.duration_s,
                  r30.duration_s);
    ap_result_free(&r100);
    ap_result_free(&r30);
    ap_map_free(m);
}
END_TEST

/* A unit that turns on the spot (max_turn_rate): a goal behind it, to be reached facing it, at rest. The
 * answer turns in place (zero-length AP_SEG_TURN segments at rest), passes the re-simulation and is faster
 * than the loop the same unit drives without a turn rate. */
START_TEST(test_turn_on_the_spot)
{
    ap_map *m = open_map(40, 40, NULL);
    ap_query q = kq(m, 20.0, 20.0, 0.0, 0.0, 14.0, 20.0);
    q.has_gheading = true;
    q.gheading = M_PI;
    q.tol_heading = 0.2;
    ap_result loop = {0}, spot = {0};
    ck_assert_int_eq(run_plan(&q, &loop, 0), AP_OK);
    check_trajectory(&q, &loop);
    q.vehicle.max_turn_rate = 1.5;
    ck_assert_int_eq(run_plan(&q, &spot, 0), AP_OK);
    check_trajectory(&q, &spot);
    ck_assert(spot.clear);
    int rev, turns;
    count_kinds(&spot, &rev, &turns);
    ck_assert_int_ge(turns, 1);
    ck_assert_int_eq(rev, 0);
    ck_assert_msg(spot.duration_s < loop.duration_s, "turning in place %g s, loop %g s", spot.duration_s,
                  loop.duration_s);
    /* it starts by turning in place, then drives arcs (turning while moving costs less time at speed) */
    ck_assert_int_eq(spot.segments[0].type, AP_SEG_TURN);
    double rot = 0.0;
    for (size_t i = 0; i < spot.n_segments; i++)
        if (spot.segments[i].type == AP_SEG_TURN)
            rot += spot.segments[i].sweep;
    /* measured: 5 pi / 8 in place (one turn segment, 1.31 s), then arcs as it speeds up: 4.64 s against the
     * loop's 5.85 s */
    ck_assert(fabs(rot) >= M_PI / 2);
    ap_result_free(&loop);
    ap_result_free(&spot);
    ap_map_free(m);
}
END_TEST

/* A pedestrian one tile from its goal, facing away from the goal's heading: it turns toward the goal, walks,
 * and turns on the spot again. Turns in a row that go opposite ways stay two segments (merged, the demo
 * rooms' (91.5, 8.5) -> (91.5, 7.5) answered one turn of -0.971 rad lasting 0.585 s: the time of -1.364
 * and +0.393 rad, so samples.dt turned it at the wrong rate); each turn lasts |sweep| / max_turn_rate. */
START_TEST(test_turns_back_stay_apart)
{
    ap_map *m = NULL;
    ap_diag dg;
    ck_assert_int_eq(ap_map_load("config/maps/rooms.map", NULL, &m, &dg), AP_OK);
    ap_unit_kind ped;
    ck_assert(ap_unit_kind_builtin("pedestrian", &ped));
    ap_query q = kq(m, 91.5, 8.5, -0.207, 0.0, 91.5, 7.5);
    ap_unit_kind_apply(&ped, 0, &q);
    q.has_gheading = true;
    q.gheading = -1.021;
    q.max_expansions = 1000;
    ap_result r = {0};
    ck_assert_int_eq(run_plan(&q, &r, 0), AP_OK);
    check_trajectory(&q, &r);
    int rev, turns;
    count_kinds(&r, &rev, &turns);
    ck_assert_int_ge(turns, 1);
    ap_result_free(&r);
    ap_map_free(m);
}
END_TEST

/* Random open-field queries with reverse and a turn rate, re-simulated; the start's heuristic is below the
 * answer's time. */
START_TEST(test_plan_reverse_turns_resimulated)
{
    ap_map *m = open_map(40, 40, NULL);
    ap_test_rng rng = {5};
    int rev_total = 0, turn_total = 0;
    for (int it = 0; it < 12; it++) {
        double ang = 2 * M_PI * ap_test_rand01(&rng), dist = 10.0 * ap_test_rand01(&rng);
        ap_query q = kq(m, 20.0, 20.0, 2 * M_PI * ap_test_rand01(&rng) - M_PI, it % 2 ? 0.0 : 3.0 * ap_test_rand01(&rng),
                        20.0 + dist * cos(ang), 20.0 + dist * sin(ang));
        q.reverse = true;
        q.vehicle.max_turn_rate = it % 3 == 0 ? 0.0 : 1.0;
        q.has_gheading = it % 2 == 1;
        q.gheading = 2 * M_PI * ap_test_rand01(&rng) - M_PI;
        q.tol_heading = 0.3;
        q.unit_radius = 0.3;
        ap_result r = {0};
        ck_assert_int_eq(run_plan(&q, &r, 500), AP_OK);
        if (r.n_segments > 0) {
            check_trajectory(&q, &r);
            ck_assert(r.clear);
            int rev, turns;
            count_kinds(&r, &rev, &turns);
            rev_total += rev;
            turn_total += turns;
            ap_kino_params kp = probe_params(&q);
            kp.heuristic = AP_KINO_H_TIME;
            kp.reverse = true;
            ck_assert(ap_kino_heuristic(&kp, q.sx, q.sy, q.sheading, q.start_speed) <= r.duration_s + 1e-9);
        }
        ap_result_free(&r);
    }
    ck_assert_int_gt(rev_total, 0);
    ck_assert_int_gt(turn_total, 0);
    ap_map_free(m);
}
END_TEST

START_TEST(test_validation)
{
    ap_map *m = open_map(20, 20, NULL);
    ap_query q = kq(m, 5, 5, 0, 0, 10, 10);
    const char *f = NULL;
    ck_assert_int_eq(ap_query_check(&q, &f), AP_OK);
    struct {
        size_t off;
        double val;
        const char *field;
    } bad[] = {
        {offsetof(ap_query, vehicle.max_speed), 0.0, "unit.max_speed"},
        {offsetof(ap_query, vehicle.max_accel), -1.0, "unit.max_accel"},
        {offsetof(ap_query, vehicle.max_brake), NAN, "unit.max_brake"},
        {offsetof(ap_query, vehicle.max_lateral_accel), INFINITY, "unit.max_lateral_accel"},
        {offsetof(ap_query, start_speed), 4.5, "start.speed"},
        {offsetof(ap_query, goal_speed), -0.5, "goal.speed"},
        {offsetof(ap_query, tol_position), -1.0, "goal_tolerance.position"},
        {offsetof(ap_query, tol_heading), 4.0, "goal_tolerance.heading"},
        {offsetof(ap_query, tol_speed), NAN, "goal_tolerance.speed"},
        {offsetof(ap_query, turning_radius), 0.0, "unit.turning_radius"},
        {offsetof(ap_query, sample_dt), -1.0, "samples.dt"},
        {offsetof(ap_query, sample_dt), NAN, "samples.dt"},
        {offsetof(ap_query, sample_dt), INFINITY, "samples.dt"},
        {offsetof(ap_query, vehicle.max_reverse_speed), -1.0, "unit.max_reverse_speed"},
        {offsetof(ap_query, vehicle.max_reverse_speed), NAN, "unit.max_reverse_speed"},
        {offsetof(ap_query, vehicle.max_reverse_speed), INFINITY, "unit.max_reverse_speed"},
        {offsetof(ap_query, vehicle.max_reverse_speed), 1001.0, "unit.max_reverse_speed"},
        {offsetof(ap_query, vehicle.max_turn_rate), -1.0, "unit.max_turn_rate"},
        {offsetof(ap_query, vehicle.max_turn_rate), NAN, "unit.max_turn_rate"},
        {offsetof(ap_query, vehicle.max_turn_rate), INFINITY, "unit.max_turn_rate"},
        {offsetof(ap_query, vehicle.max_turn_rate), 100.5, "unit.max_turn_rate"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ap_query b = q;
        memcpy((char *)&b + bad[i].off, &bad[i].val, sizeof(double));
        ck_assert_int_eq(ap_query_check(&b, &f), AP_E_INVALID_REQUEST);
        ck_assert_str_eq(f, bad[i].field);
    }
    ap_query b = q;
    /* reverse needs a reverse speed; 0 (a kind that cannot) is valid without reverse */
    b.vehicle.max_reverse_speed = 0.0;
    ck_assert_int_eq(ap_query_check(&b, &f), AP_OK);
    b.reverse = true;
    ck_assert_int_eq(ap_query_check(&b, &f), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(f, "unit.max_reverse_speed");
    b = q;
    b.max_expansions = AP_MAX_KINO_EXPANSIONS + 1;
    ck_assert_int_eq(ap_query_check(&b, &f), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(f, "search.max_expansions");
    /* kinodynamic-only fields on another algorithm */
    b = q;
    b.algorithm = AP_ALG_ASTAR;
    ck_assert_int_eq(ap_query_check(&b, &f), AP_OK);
    b.kino_field = "start.speed";
    ck_assert_int_eq(ap_query_check(&b, &f), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(f, "start.speed");
    b.kino_field = "search.probe";
    b.probe = true;
    ck_assert_int_eq(ap_query_check(&b, &f), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(f, "search.probe");
    /* a start on a free cell where the unit's disc meets the border wall: refused by the plan, saying why */
    b = q;
    b.sx = 1.5;
    b.sy = 1.5;
    b.unit_radius = 0.6;
    ck_assert_int_eq(ap_query_check(&b, &f), AP_OK);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 4096, AP_PLAN_MAX_SUCC), AP_OK);
    ap_plan p;
    ck_assert_int_eq(ap_plan_begin(&p, &b, &ws, 0), AP_E_START_BLOCKED);
    ck_assert_str_eq(ap_plan_field(&p), "start");
    ck_assert_str_eq(ap_plan_message(&p), "\"start\": the unit's disc (radius 0.6) at (1.5, 1.5) overlaps an "
                                          "obstacle or the map's edge");
    ap_plan_release(&p);
    /* A goal the disc cannot reach within the position tolerance: every point within 0.5 of (1.2, 10.5) holds
     * the disc of radius 0.9 - 0.5 about it, which crosses the wall at x = 1. At (1.5, 10.5) that disc
     * clears the wall (0.5 away): searched; with a tolerance of 0.3 it does not (0.6): refused. */
    b = q;
    b.unit_radius = 0.9;
    b.gx = 1.2;
    b.gy = 10.5;
    ck_assert_int_eq(ap_plan_begin(&p, &b, &ws, 0), AP_E_GOAL_BLOCKED);
    ck_assert_str_eq(ap_plan_field(&p), "goal");
    ck_assert_str_eq(ap_plan_message(&p), "\"goal\": the unit's disc (radius 0.9) overlaps an obstacle wherever it "
                                          "ends within 0.5 tiles of it");
    ap_plan_release(&p);
    b.gx = 1.5;
    ck_assert_int_eq(ap_plan_begin(&p, &b, &ws, 0), AP_IN_PROGRESS);
    ap_plan_release(&p);
    b.tol_position = 0.3;
    ck_assert_int_eq(ap_plan_begin(&p, &b, &ws, 0), AP_E_GOAL_BLOCKED);
    ck_assert_str_eq(ap_plan_message(&p), "\"goal\": the unit's disc (radius 0.9) overlaps an obstacle wherever it "
                                          "ends within 0.3 tiles of it");
    ap_plan_release(&p);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* A goal in a dead-end corridor one tile wide (column 15, rows 12-18, of a 30 x 20 room): no point within
 * the position tolerance holds the disc of radius 0.9 (the corridor's clearance is 0.5 at most), though the
 * disc of radius 0.9 - 0.5 fits about the goal (15.5, 16.5), so the quick proof passes it; the branch and
 * bound refuses it before any search. Up the corridor the room begins at y = 12: the disc fits at
 * (15.5, 11.25) (1.118 tiles from the corridor's corners at y = 11, 0.9 at y = 11.25), 5.25 tiles from the
 * goal: a tolerance of 5.5 is searched, one of 5.0 (reaching y = 11.5, 0.707 from the corners) refused. */
START_TEST(test_goal_in_a_narrow_dead_end)
{
    char extra[4096];
    int used = 0;
    for (int y = 12; y <= 18; y++)
        for (int x = 1; x <= 28; x++)
            if (x != 15)
                used += snprintf(extra + used, sizeof extra - (size_t)used, "%d,%d;", x, y);
    ap_map *m = open_map(30, 20, extra);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 1u << 16, AP_PLAN_MAX_SUCC), AP_OK);
    ap_query q = kq(m, 5.5, 5.5, 0.0, 0.0, 15.5, 16.5);
    q.unit_radius = 0.9;
    ap_plan p;
    const double tols[] = {0.5, 2.0, 5.0, 5.5};
    const int want[] = {AP_E_GOAL_BLOCKED, AP_E_GOAL_BLOCKED, AP_E_GOAL_BLOCKED, AP_IN_PROGRESS};
    for (int i = 0; i < 4; i++) {
        q.tol_position = tols[i];
        ck_assert_msg(ap_plan_begin(&p, &q, &ws, 0) == want[i], "tolerance %g", tols[i]);
        if (want[i] == AP_E_GOAL_BLOCKED) {
            ck_assert_str_eq(ap_plan_field(&p), "goal");
            ck_assert_ptr_nonnull(strstr(ap_plan_message(&p), "overlaps an obstacle wherever it ends within"));
        }
        ap_plan_release(&p);
    }
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* The goal refusal never refuses a goal some point within the tolerance holds the disc at: on random 14 x 14
 * rooms (8 % walls), random radii (0.3-1.4) and tolerances (0.05-2), against a brute force over points of
 * the tolerance disc 0.04 tiles apart, then 0.01 where none fits (exact point tests, collide.c). Where the
 * brute force finds no point the refusal may still search (a fit between its samples, or a largest clearance
 * so close to the radius that the bound's budget runs out first): counted, rare. */
START_TEST(test_goal_refusal_matches_brute_force)
{
    ap_test_rng g = {20261208};
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 1u << 12, AP_PLAN_MAX_SUCC), AP_OK);
    int refused = 0, searched = 0, unsampled = 0;
    for (int it = 0; it < 400; it++) {
        char extra[2048];
        int used = 0;
        for (int y = 1; y < 13; y++)
            for (int x = 1; x < 13; x++)
                if (ap_test_rand01(&g) < 0.08)
                    used += snprintf(extra + used, sizeof extra - (size_t)used, "%d,%d;", x, y);
        ap_map *m = open_map(14, 14, used > 0 ? extra : NULL);
        ap_world w;
        ap_map_world(m, &w);
        const double r = 0.3 + 1.1 * ap_test_rand01(&g), tol = 0.05 + 1.95 * ap_test_rand01(&g);
        const double gx = 1.0 + 12.0 * ap_test_rand01(&g), gy = 1.0 + 12.0 * ap_test_rand01(&g);
        double sx = -1.0, sy = -1.0; /* a start the disc fits, far from the goal */
        for (int k = 0; k < 200 && sx < 0.0; k++) {
            const double x = 1.0 + 12.0 * ap_test_rand01(&g), y = 1.0 + 12.0 * ap_test_rand01(&g);
            if (hypot(x - gx, y - gy) > tol + 1.0 && ap_world_point_clear(&w, x, y, r))
                sx = x, sy = y;
        }
        if (sx < 0.0 || !ap_map_passable(m, (int)gx, (int)gy)) {
            ap_map_free(m);
            continue;
        }
        bool fits = false;
        for (double step = 0.04; step > 0.005 && !fits; step /= 4.0) /* 0.04, then 0.01 where none fit */
            for (double dy = -tol; dy <= tol && !fits; dy += step)
                for (double dx = -tol; dx <= tol && !fits; dx += step)
                    fits = hypot(dx, dy) <= tol && ap_world_point_clear(&w, gx + dx, gy + dy, r);
        ap_query q = kq(m, sx, sy, 0.0, 0.0, gx, gy);
        q.unit_radius = r;
        q.tol_position = tol;
        ap_plan p;
        const int st = ap_plan_begin(&p, &q, &ws, 0);
        ap_plan_release(&p);
        if (fits) {
            ck_assert_msg(st != AP_E_GOAL_BLOCKED, "r %g tol %g goal (%g, %g) refused, but a point fits", r, tol, gx,
                          gy);
            searched++;
        } else if (st == AP_E_GOAL_BLOCKED) {
            refused++;
        } else {
            unsampled++;
        }
        ap_map_free(m);
    }
    printf("kino goal refusal: %d refused, %d searched with a sampled fit, %d searched without one\n", refused,
           searched, unsampled);
    ck_assert_msg(refused > 30 && searched > 100 && unsampled * 10 < refused, "%d / %d / %d", refused, searched,
                  unsampled);
    ap_workspace_free(&ws);
}
END_TEST

/* The expansion cap ends the search as not found; a higher cap finds the path. */
START_TEST(test_expansion_cap)
{
    ap_map *m = open_map(40, 40, NULL);
    ap_query q = kq(m, 5.0, 5.0, 0.0, 0.0, 30.0, 30.0);
    q.max_expansions = 5;
    ap_result r = {0};
    ck_assert_int_eq(run_plan(&q, &r, 2), AP_NO_PATH);
    ck_assert_int_eq(r.no_path_reason, AP_NO_PATH_NOT_FOUND);
    ck_assert_uint_eq(r.expanded, 5);
    ap_result_free(&r);
    q.max_expansions = 0;
    memset(&r, 0, sizeof r);
    ck_assert_int_eq(run_plan(&q, &r, 0), AP_OK);
    check_trajectory(&q, &r);
    ap_result_free(&r);
    ap_map_free(m);
}
END_TEST

/* A plan moved to another, smaller workspace (the server's slow lane) restarts there within its capacity. */
START_TEST(test_move_to_smaller_workspace)
{
    ap_map *m = open_map(40, 40, NULL);
    ap_query q = kq(m, 5.5, 20.5, 0.0, 1.0, 17.5, 20.5);
    ap_workspace big, small;
    ck_assert_int_eq(ap_workspace_init(&big, 1u << 18, AP_PLAN_MAX_SUCC), AP_OK);
    ck_assert_int_eq(ap_workspace_init(&small, 4096, AP_PLAN_MAX_SUCC), AP_OK);
    ap_plan p;
    ck_assert_int_eq(ap_plan_begin(&p, &q, &big, 0), AP_IN_PROGRESS);
    ck_assert_int_eq(ap_plan_step(&p, 3), AP_IN_PROGRESS);
    int st = ap_plan_move(&p, &small);
    for (int i = 0; st == AP_IN_PROGRESS && i < 100000; i++)
        st = ap_plan_step(&p, 100);
    ck_assert_int_eq(st, AP_OK);
    ap_result r = {0};
    ck_assert_int_eq(ap_plan_finish(&p, &r), AP_OK);
    ck_assert_uint_gt(r.expanded, 3);
    check_trajectory(&q, &r);
    ap_result_free(&r);
    ap_workspace_free(&big);
    ap_workspace_free(&small);
    ap_map_free(m);
}
END_TEST

/* The state limit: a search that has no id left for a new state drops it and goes on; its path is then marked
 * capped (not proven the fastest) and its no_path says state_limit, where the same query with ids to spare
 * finds its path (so the limit, not the map, was why). */
START_TEST(test_state_limit)
{
    /* a wall from the top border down to y = 12 at x = 15: no analytic edge from the start's side sees the goal */
    char wall[512];
    int n = 0;
    for (int y = 1; y <= 12; y++)
        n += snprintf(wall + n, sizeof wall - (size_t)n, "15,%d;", y);
    ap_map *m = open_map(30, 30, wall);
    ap_query q = kq(m, 5.5, 5.5, 0.0, 0.0, 25.5, 5.5);
    ap_result small = {0}, big = {0};
    ck_assert_int_eq(run_plan_on(&q, &small, 0, 400), AP_NO_PATH);
    ck_assert_int_eq(small.no_path_reason, AP_NO_PATH_STATE_LIMIT);
    ck_assert_uint_lt(small.expanded, 100000); /* it ran out of states, not into the cap */
    ck_assert_int_eq(run_plan(&q, &big, 0), AP_OK); /* (measured: 7,559 expansions) */
    ck_assert(!big.capped);
    check_trajectory(&q, &big);
    ap_result_free(&small);
    ap_result_free(&big);
    /* open field: the analytic edge reaches the goal early, the proof needs more states than 3,000 */
    ap_map_free(m);
    m = open_map(60, 60, NULL);
    q = kq(m, 10.5, 10.5, 0.0, 0.0, 40.5, 40.5);
    ck_assert_int_eq(run_plan_on(&q, &small, 0, 3000), AP_OK);
    ck_assert(small.capped);
    check_trajectory(&q, &small);
    ck_assert_int_eq(run_plan(&q, &big, 0), AP_OK);
    ck_assert(!big.capped);
    ck_assert(big.duration_s <= small.duration_s + 1e-9);
    ap_result_free(&small);
    ap_result_free(&big);
    ap_map_free(m);
}
END_TEST

/* ---- the probing search (Algorithms 1 and 6) */

/* The probe's params for q (what plan_kino.c builds). */
static ap_kino_params probe_params(const ap_query *q)
{
    ap_kino_params kp = {.veh = q->vehicle, .meters_per_tile = 1.0, .turning_radius = q->turning_radius,
                         .sx = q->sx, .sy = q->sy, .sh = q->sheading, .sv = q->start_speed, .gx = q->gx,
                         .gy = q->gy, .gh = q->gheading, .gv = q->goal_speed, .has_gh = q->has_gheading,
                         .tol_pos = q->tol_position > 0 ? q->tol_position : AP_DEFAULT_TOL_POSITION,
                         .tol_heading = q->tol_heading > 0 ? q->tol_heading : AP_DEFAULT_TOL_HEADING,
                         .tol_speed = q->tol_speed > 0 ? q->tol_speed : AP_DEFAULT_TOL_SPEED,
                         .heuristic = AP_KINO_H_DUBINS};
    ap_plan_world(q, false, &kp.world, &kp.radius);
    return kp;
}

/* Open field, goals without a heading 0-16 tiles away (8 turning radii), random start heading and speeds
 * (fixed seed). The plain probe (Algorithm 6): where it reaches the goal its trajectory is no faster than
 * A*'s and took far fewer iterations. The probe as search.probe runs it, with the analytic last edge
 * (analytic.h): it reaches more goals, and its answer is the probe's trajectory, which passes the
 * re-simulation. */
START_TEST(test_probe_open_field)
{
    ap_map *m = open_map(120, 120, NULL);
    ap_test_rng rng = {11};
    int reached_n = 0, reached_a = 0;
    uint64_t it_astar = 0, it_probe = 0;
    for (int it = 0; it < 40; it++) {
        double ang = 2 * M_PI * ap_test_rand01(&rng), dist = 16.0 * ap_test_rand01(&rng);
        ap_query q = kq(m, 60.0, 60.0, 2 * M_PI * ap_test_rand01(&rng) - M_PI, 4.0 * ap_test_rand01(&rng),
                        60.0 + dist * cos(ang), 60.0 + dist * sin(ang));
        q.goal_speed = 4.0 * ap_test_rand01(&rng);
        ap_kino_params kp = probe_params(&q);
        static ap_kino_state st[AP_KINO_PROBE_STEPS + 2];
        bool reached = false;
        int exp = -1;
        /* with the analytic edge, as the plan runs it */
        ap_kino_tail tail;
        const int na = ap_kino_probe(&kp, st, AP_KINO_PROBE_STEPS + 1, &reached, &exp, &tail);
        ck_assert_int_ge(na, 1);
        if (reached) {
            reached_a++;
            ap_result rp = {0};
            q.probe = true;
            ck_assert_int_eq(run_plan(&q, &rp, 0), AP_OK);
            ck_assert(rp.probe);
            ck_assert_uint_eq(rp.expanded, (uint64_t)exp);
            check_trajectory(&q, &rp);
            ck_assert(rp.clear);
            if (st[na - 1].analytic)
                ck_assert_double_eq_tol(rp.duration_s, rp.timing[rp.n_segments - 1].t_start +
                                                            rp.timing[rp.n_segments - 1].duration, 1e-9);
            ap_result_free(&rp);
            q.probe = false;
        }
        /* the plain probe */
        exp = -1;
        const int n = ap_kino_probe(&kp, st, AP_KINO_PROBE_STEPS + 1, &reached, &exp, NULL);
        ck_assert_int_ge(n, 1);
        ck_assert_int_eq(exp, reached ? n - 1 : n);
        ck_assert_double_eq(st[0].x, q.sx);
        ck_assert_double_eq(st[0].v, q.start_speed);
        if (!reached)
            continue;
        reached_n++;
        double probe_s = 0.0;
        for (int i = 1; i < n; i++)
            probe_s += st[i].dt;
        ap_result ra = {0};
        ck_assert_int_eq(run_plan(&q, &ra, 0), AP_OK);
        ck_assert(!ra.probe);
        ck_assert_msg(probe_s >= ra.duration_s - 1e-9, "query %d: probe %g s, A* %g s", it, probe_s, ra.duration_s);
        it_astar += ra.expanded;
        it_probe += (uint64_t)exp;
        ap_result_free(&ra);
    }
    /* measured: the plain probe reached 13 of 40 in 97 iterations against A*'s thousands; with the analytic
     * edge the probe reaches 37 */
    ck_assert_int_eq(reached_n, 13);
    ck_assert_uint_eq(it_probe, 97);
    ck_assert_msg(it_probe * 50 < it_astar, "probe %lu iterations, A* %lu", (unsigned long)it_probe,
                  (unsigned long)it_astar);
    ck_assert_int_eq(reached_a, 37); /* measured: 37 of 40 */
    ap_map_free(m);
}
END_TEST

/* A wall between start and goal: the probe runs into it and stops short; search.probe then answers A*'s
 * path, seeded with the probe's states, clear and within the limits. */
START_TEST(test_probe_wall_falls_back)
{
    ap_map *m;
    ap_query q = wall_query(&m);
    ap_kino_params kp = probe_params(&q);
    ap_kino_state st[AP_KINO_PROBE_STEPS + 1];
    bool reached = true;
    int exp = 0;
    const int n = ap_kino_probe(&kp, st, AP_KINO_PROBE_STEPS + 1, &reached, &exp, NULL);
    ck_assert(!reached);
    ck_assert_int_ge(n, 2);
    ck_assert(st[n - 1].x < 12.0 - q.unit_radius); /* stopped before the wall */
    /* the seeding: the probe's states go into the open list under ids of their own */
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 1u << 18, AP_PLAN_MAX_SUCC), AP_OK);
    ap_kino_domain d;
    ap_domain dom;
    ap_search s;
    kp.heuristic = AP_KINO_H_TIME;
    ck_assert_int_eq(ap_kino_init(&d, &dom, &kp, ws.capacity), AP_OK);
    ck_assert_int_eq(ap_search_begin(&s, &ws, &dom, AP_KINO_START, AP_KINO_GOAL, 0), AP_OK);
    ap_kino_bind(&d, &s);
    ck_assert_int_eq(ap_search_seed(&s, 5, 4, 1.0, &st[1]), AP_E_INTERNAL); /* parent not in the search */
    ck_assert_int_eq(ap_search_seed(&s, 5, AP_KINO_START, -1.0, &st[1]), AP_E_INTERNAL);
    ck_assert_int_eq(ap_search_seed(&s, 5, AP_KINO_START, 1.0, NULL), AP_E_INTERNAL);
    ck_assert_int_eq(ap_kino_seed(&d, &s, st, n), n - 1);
    ck_assert_uint_eq(ws.open_len, (uint32_t)n);
    ck_assert_int_eq(ap_search_run(&s, 0), AP_OK);
    ap_kino_free(&d);
    ap_workspace_free(&ws);
    /* the plan: probe, then seeded A* */
    ap_result ra = {0}, rp = {0};
    ck_assert_int_eq(run_plan(&q, &ra, 0), AP_OK);
    q.probe = true;
    ck_assert_int_eq(run_plan(&q, &rp, 0), AP_OK);
    ck_assert(!rp.probe);
    check_trajectory(&q, &rp);
    ck_assert(rp.clear);
    ck_assert(rp.length > 12.0);
    ck_assert_uint_gt(rp.expanded, (uint64_t)exp);
    ck_assert(rp.duration_s <= ra.duration_s + 1e-9); /* the same 7.4778 s; 44094 expansions against 47946 */
    ap_result_free(&ra);
    ap_result_free(&rp);
    ap_map_free(m);
}
END_TEST

START_TEST(test_profiles)
{
    ck_assert_uint_eq(ap_vehicle_profile_count, 4);
    const char *names[] = {"pedestrian", "car", "tank", "ship"};
    for (int i = 0; i < 4; i++) {
        const ap_vehicle_profile *p = ap_vehicle_profile_find(names[i]);
        ck_assert_ptr_nonnull(p);
        ck_assert_ptr_null(ap_vehicle_check(&p->v));
        ck_assert(p->turning_radius > 0.0);
    }
    ck_assert_ptr_null(ap_vehicle_profile_find("bicycle"));
    ck_assert_double_eq(ap_vehicle_profile_find("car")->v.max_speed, 14.0);
    /* the built-in kinds' turning radius is in metres: applied on a map of 2 m per tile, the car's 6 m are 3
     * tiles; at the default scale 6 tiles; a request's own unit.turning_radius (tiles) is never scaled */
    ap_unit_kind car;
    ck_assert(ap_unit_kind_builtin("car", &car));
    ck_assert(!ap_unit_kind_builtin("bicycle", &car) && ap_unit_kind_builtin("car", &car));
    ap_map *m = open_map(20, 20, NULL);
    m->meters_per_tile = 2.0;
    ap_query q = kq(m, 5, 5, 0, 0, 10, 10);
    ap_unit_kind_apply(&car, 0, &q);
    ck_assert_double_eq(q.turning_radius, 3.0);
    ck_assert_double_eq(q.vehicle.max_speed, 14.0);
    q.meters_per_tile = 4.0; /* the query's own scale wins over the map's */
    ap_unit_kind_apply(&car, 0, &q);
    ck_assert_double_eq(q.turning_radius, 1.5);
    q.turning_radius = 2.5;
    ap_unit_kind_apply(&car, AP_UNIT_F_TURNING, &q);
    ck_assert_double_eq(q.turning_radius, 2.5);
    m->meters_per_tile = 1.0;
    q.meters_per_tile = 0.0;
    ap_unit_kind_apply(&car, 0, &q);
    ck_assert_double_eq(q.turning_radius, 6.0);
    ap_map_free(m);
}
END_TEST

/* ---- samples in time (samples.dt) */

/* A hand-made timed answer: a straight line from (2, 3) accelerating from 1 to 3 m/s in 2 s (a = 1 m/s^2,
 * 4 m = 8 tiles at 0.5 m/tile), then 6 tiles at 3 m/s for 1 s. Sampled every 0.4 s: t = 0, 0.4, ..., 2.8 and
 * the end at 3 s; positions v0 t + a t^2 / 2 on the first segment, v0 + a t the speed. */
START_TEST(test_samples_dt_accelerating_line)
{
    const double mpt = 0.5;
    ap_segment segs[2] = {ap_segment_line(2.0, 3.0, 10.0, 3.0), ap_segment_line(10.0, 3.0, 16.0, 3.0)};
    ap_result r = {0};
    r.segments = segs;
    r.n_segments = 2;
    r.length = 14.0;
    r.timing = (ap_seg_time[2]){{1.0, 3.0, 0.0, 2.0}, {3.0, 3.0, 2.0, 1.0}};
    r.duration_s = 3.0;
    ap_query q = {.sample_dt = 0.4};
    ck_assert_int_eq(ap_plan_samples_timed(&r, &q), AP_OK);
    ck_assert_uint_eq(r.n_samples, 9);
    for (size_t i = 0; i < r.n_samples; i++) {
        double t = i + 1 < r.n_samples ? 0.4 * (double)i : 3.0, x, v;
        if (t <= 2.0) {
            x = 2.0 + (1.0 * t + 0.5 * 1.0 * t * t) / mpt;
            v = 1.0 + 1.0 * t;
        } else {
            x = 10.0 + 3.0 * (t - 2.0) / mpt;
            v = 3.0;
        }
        ck_assert_double_eq_tol(r.sample_times[i].t, t, 1e-12);
        ck_assert_double_eq_tol(r.samples[i].x, x, 1e-9);
        ck_assert_double_eq_tol(r.samples[i].y, 3.0, 1e-12);
        ck_assert_double_eq_tol(r.samples[i].heading, 0.0, 1e-12);
        ck_assert_double_eq_tol(r.sample_times[i].v, v, 1e-9);
        ck_assert_double_eq_tol(r.sample_times[i].d, x - 2.0, 1e-9);
    }
    /* t = 0.4: 0.4 + 0.08 = 0.48 m = 0.96 tiles; the end exactly at (16, 3), 3 s, 3 m/s */
    ck_assert_double_eq_tol(r.samples[1].x, 2.96, 1e-9);
    ck_assert_double_eq(r.samples[8].x, 16.0);
    ck_assert_double_eq(r.sample_times[8].t, 3.0);
    ck_assert_double_eq(r.sample_times[8].d, 14.0);
    ck_assert_double_eq(r.sample_times[8].v, 3.0);
    free(r.samples);
    free(r.sample_times);
    r.samples = NULL;
    r.sample_times = NULL;
    /* more samples than max_samples: refused with both counts */
    q.max_samples = 5;
    ck_assert_int_eq(ap_plan_samples_timed(&r, &q), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(r.message, "at most 5 samples (max_samples), this path needs 9");
    ck_assert_ptr_null(r.samples);
    /* a dt so small the count would have hundreds of digits, or be infinite: said, not printed */
    const double dt = q.sample_dt;
    for (int i = 0; i < 2; i++) {
        q.sample_dt = i == 0 ? 1e-300 : 4.9406564584124654e-324;
        ck_assert_int_eq(ap_plan_samples_timed(&r, &q), AP_E_INVALID_REQUEST);
        ck_assert_str_eq(r.message, "at most 5 samples (max_samples), this path needs more than 1e15");
        ck_assert_ptr_null(r.samples);
    }
    q.sample_dt = dt;
    /* an answer without timing cannot be sampled in time */
    r.timing = NULL;
    q.max_samples = 0;
    ck_assert_int_eq(ap_plan_samples_timed(&r, &q), AP_E_INVALID_REQUEST);
    ck_assert_ptr_null(r.samples);
}
END_TEST

/* samples.dt over a turn on the spot: at (2, 3), heading 0 turning by +pi/2 in 2 s at rest, then 4 tiles
 * at 2 m/s along +y (2 s). Every 0.5 s: the heading turns at a constant rate in place (pi/8 per sample),
 * then the unit moves; distances stay 0 during the turn. */
START_TEST(test_samples_dt_turn_on_the_spot)
{
    ap_segment segs[2] = {ap_segment_turn(2.0, 3.0, 0.0, M_PI / 2), ap_segment_line(2.0, 3.0, 2.0, 7.0)};
    ap_result r = {0};
    r.segments = segs;
    r.n_segments = 2;
    r.length = 4.0;
    r.timing = (ap_seg_time[2]){{0.0, 0.0, 0.0, 2.0}, {2.0, 2.0, 2.0, 2.0}};
    r.duration_s = 4.0;
    ap_query q = {.sample_dt = 0.5};
    ck_assert_int_eq(ap_plan_samples_timed(&r, &q), AP_OK);
    ck_assert_uint_eq(r.n_samples, 9);
    for (size_t i = 0; i < 9; i++) {
        double t = 0.5 * (double)i;
        ck_assert_double_eq_tol(r.sample_times[i].t, t, 1e-12);
        if (t < 2.0) {
            ck_assert_double_eq(r.samples[i].x, 2.0);
            ck_assert_double_eq(r.samples[i].y, 3.0);
            ck_assert_double_eq_tol(r.samples[i].heading, M_PI / 8 * (double)i, 1e-12);
            ck_assert_double_eq(r.sample_times[i].d, 0.0);
            ck_assert_double_eq(r.sample_times[i].v, 0.0);
        } else {
            ck_assert_double_eq_tol(r.samples[i].y, 3.0 + 2.0 * (t - 2.0), 1e-9);
            ck_assert_double_eq_tol(r.samples[i].heading, M_PI / 2, 1e-12);
            ck_assert_double_eq_tol(r.sample_times[i].d, 2.0 * (t - 2.0), 1e-9);
        }
    }
    /* the end heading of a turn and of a path ending with one */
    ck_assert_double_eq_tol(ap_segment_end_heading(&segs[0]), M_PI / 2, 1e-15);
    ck_assert_double_eq_tol(ap_path_pose(segs, 1, 0.0).heading, M_PI / 2, 1e-15);
    free(r.samples);
    free(r.sample_times);
}
END_TEST

/* A planned answer sampled every 0.5 s: times are multiples of dt, each pose is the path's pose at the
 * sample's distance, distances and speeds follow the segments' timing, and the last sample is the end pose
 * at duration_s with the last segment's end speed. */
START_TEST(test_samples_dt_planned)
{
    ap_map *m = open_map(40, 40, NULL);
    ap_query q = kq(m, 5.0, 5.0, 0.0, 1.0, 30.0, 20.0);
    q.sample_dt = 0.5;
    ap_result r = {0};
    ck_assert_int_eq(run_plan(&q, &r, 0), AP_OK);
    ck_assert_uint_gt(r.n_segments, 0);
    size_t k = (size_t)floor(r.duration_s / 0.5);
    bool extra = r.duration_s - 0.5 * (double)k > 1e-9;
    ck_assert_uint_eq(r.n_samples, k + 1 + (extra ? 1 : 0));
    ck_assert_ptr_nonnull(r.sample_times);
    for (size_t i = 0; i + 1 < r.n_samples; i++) {
        const ap_sample_time *st = &r.sample_times[i];
        ck_assert_double_eq_tol(st->t, 0.5 * (double)i, 1e-12);
        ap_pose p = ap_path_pose(r.segments, r.n_segments, st->d);
        ck_assert_double_eq_tol(r.samples[i].x, p.x, 1e-9);
        ck_assert_double_eq_tol(r.samples[i].y, p.y, 1e-9);
        ck_assert(st->v >= 0.0 && st->v <= q.vehicle.max_speed + 1e-9);
        if (i > 0)
            ck_assert(st->d >= r.sample_times[i - 1].d);
    }
    ck_assert_double_eq_tol(r.sample_times[0].v, 1.0, 1e-12);
    ck_assert_double_eq(r.sample_times[0].d, 0.0);
    const ap_sample_time *end = &r.sample_times[r.n_samples - 1];
    ap_pose pe = ap_path_pose(r.segments, r.n_segments, r.length);
    ck_assert_double_eq(end->t, r.duration_s);
    ck_assert_double_eq(end->d, r.length);
    ck_assert_double_eq(end->v, r.timing[r.n_segments - 1].v_end);
    ck_assert_double_eq(r.samples[r.n_samples - 1].x, pe.x);
    ck_assert_double_eq(r.samples[r.n_samples - 1].y, pe.y);
    ap_result_free(&r);
    /* too many samples for max_samples: refused on samples.dt */
    q.sample_dt = 0.01;
    q.max_samples = 10;
    memset(&r, 0, sizeof r);
    ck_assert_int_eq(run_plan(&q, &r, 0), AP_OK);
    ck_assert_int_eq(r.status, AP_E_INVALID_REQUEST);
    ck_assert_str_eq(r.field, "samples.dt");
    ck_assert_ptr_nonnull(strstr(r.message, "at most 10 samples (max_samples)"));
    ap_result_free(&r);
    ap_map_free(m);
}
END_TEST

START_TEST(test_samples_dt_validation)
{
    ap_map *m = open_map(20, 20, NULL);
    ap_query q = kq(m, 5, 5, 0, 0, 10, 10);
    const char *f = NULL;
    q.sample_dt = 0.25;
    ck_assert_int_eq(ap_query_check(&q, &f), AP_OK);
    /* negative and non-finite dt: test_validation's table */
    ap_query b = q; /* both step and dt */
    b.sample_step = 1.0;
    ck_assert_int_eq(ap_query_check(&b, &f), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(f, "samples.dt");
    b = q; /* an answer without timing */
    b.algorithm = AP_ALG_ASTAR;
    ck_assert_int_eq(ap_query_check(&b, &f), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(f, "samples.dt");
    b.algorithm = AP_ALG_DIRECTIONAL24;
    ck_assert_int_eq(ap_query_check(&b, &f), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(f, "samples.dt");
    b.sample_dt = 0.0;
    ck_assert_int_eq(ap_query_check(&b, &f), AP_OK);
    ap_map_free(m);
}
END_TEST

double ap_test_kino_check(const ap_query *q, const ap_result *r)
{
    return check_trajectory(q, r);
}

ap_map *ap_test_kino_field(int w, int h, const char *blocked)
{
    return open_map(w, h, blocked);
}

/* Expect ap_kino_expand and ap_kino_analytic from st to give the same to the bit with params fast (the
 * shortcuts on) and slow (the exact tests alone). Returns 1 when there is an analytic edge, else 0; *n gets
 * the successors' count. */
static int expect_same_expansion(const ap_kino_params *fast, const ap_kino_params *slow, const ap_kino_state *st,
                                 int *n)
{
    ap_kino_state a[AP_KINO_MAX_SUCC], b[AP_KINO_MAX_SUCC];
    const int na = ap_kino_expand(fast, st, a), nb = ap_kino_expand(slow, st, b);
    AP_EXPECT(na == nb, "state (%.17g, %.17g, %.17g, %.17g): %d successors with the shortcut, %d without", st->x,
              st->y, st->h, st->v, na, nb);
    for (int i = 0; i < na; i++) /* field by field (padding bytes are not compared) */
        AP_EXPECT(a[i].x == b[i].x && a[i].y == b[i].y && a[i].h == b[i].h && a[i].v == b[i].v &&
                      a[i].curv == b[i].curv && a[i].len == b[i].len && a[i].accel == b[i].accel &&
                      a[i].dt == b[i].dt && a[i].rot == b[i].rot && a[i].analytic == b[i].analytic,
                  "state (%.17g, %.17g): successor %d differs", st->x, st->y, i);
    *n = na;
    ap_kino_tail ta, tb;
    const bool ea = ap_kino_analytic(fast, st, &ta), eb = ap_kino_analytic(slow, st, &tb);
    AP_EXPECT(ea == eb, "state (%.17g, %.17g): analytic edge %d with the shortcut, %d without", st->x, st->y, ea, eb);
    if (!ea)
        return 0;
    AP_EXPECT(ta.n == tb.n && ta.duration == tb.duration, "analytic edges differ");
    for (int i = 0; i < ta.n; i++) { /* field by field: the timing pass copies padding bytes too */
        const ap_segment *x = &ta.seg[i], *y = &tb.seg[i];
        AP_EXPECT(x->type == y->type && x->x0 == y->x0 && x->y0 == y->y0 && x->x1 == y->x1 && x->y1 == y->y1 &&
                      x->heading == y->heading && x->sweep == y->sweep && x->length == y->length &&
                      x->reverse == y->reverse && memcmp(&ta.time[i], &tb.time[i], sizeof ta.time[i]) == 0,
                  "analytic edges differ in piece %d", i);
    }
    return 1;
}

/* The clearance shortcut (kino.h fast_map / fast_clear, clearance.h) changes no successor: on speckled maps,
 * from random states near and far from walls (forward, backwards with reverse, at rest with turns on the
 * spot), ap_kino_expand with prepared params gives the same successors to the bit as with the shortcut off,
 * and ap_kino_analytic the same edge. The samples must include states whose actions walls cut (fewer
 * successors than on open ground) and many the shortcut decides alone. */
START_TEST(test_clearance_shortcut_same_successors)
{
    ap_test_rng g = {2024};
    int states = 0, cut = 0, edges = 0, proven_states = 0;
    ap_map *plain = ap_test_speckled_map(&g, 60, 60, 0.0);
    ap_world plain_world;
    ap_map_world(plain, &plain_world);
    for (int mi = 0; mi < 6; mi++) {
        ap_map *m = ap_test_speckled_map(&g, 60, 60, mi % 2 ? 0.02 : 0.08);
        ap_kino_params raw = {.veh = test_car, .meters_per_tile = 1.0, .turning_radius = 2.0, .radius = 0.3 * (mi % 3),
                              .reverse = mi % 2 == 1, .gx = 30.5, .gy = 30.5, .gh = 1.0, .has_gh = true,
                              .gv = 1.0, .tol_pos = 0.5, .tol_heading = 0.1, .tol_speed = 0.5};
        raw.veh.max_turn_rate = mi >= 4 ? 1.5 : 0.0;
        ap_map_world(m, &raw.world);
        const ap_kino_params fast = ap_kino_prepare(&raw);
        ck_assert_ptr_eq(fast.fast_map, m);
        ck_assert_ptr_eq(fast.fast_clear, ap_clearance_of(m, m->capability));
        ap_kino_params slow = fast;
        slow.fast_map = NULL;
        slow.fast_clear = NULL;
        for (int k = 0; k < 1500; k++) {
            ap_kino_state st = {.x = 1.0 + 58.0 * ap_test_rand01(&g), .y = 1.0 + 58.0 * ap_test_rand01(&g),
                                .h = 2.0 * M_PI * ap_test_rand01(&g) - M_PI};
            if (!ap_world_point_clear(&raw.world, st.x, st.y, raw.radius))
                continue;
            const double u = ap_test_rand01(&g);
            st.v = u < 0.15 ? 0.0 : (raw.reverse && u < 0.35 ? -2.0 * ap_test_rand01(&g) : 4.0 * ap_test_rand01(&g));
            int na;
            edges += expect_same_expansion(&fast, &slow, &st, &na);
            ap_kino_state open[AP_KINO_MAX_SUCC];
            ap_kino_params none = slow; /* the same actions with no obstacle: how many walls cut */
            none.world = plain_world;
            cut += ap_kino_expand(&none, &st, open) > na;
            proven_states += ap_clearance_reach(m, fast.fast_clear, st.x, st.y, raw.radius) > 1.25;
            states++;
        }
        ap_map_free(m);
    }
    ap_map_free(plain);
    printf("kino shortcut: %d states, %d with actions cut by walls, %d with reach over one step, %d analytic edges\n",
           states, cut, proven_states, edges);
    ck_assert_int_gt(states, 6000);
    ck_assert_int_gt(cut, states / 10);
    ck_assert_int_gt(proven_states, states / 10);
    ck_assert_int_gt(edges, 100);
}
END_TEST

/* The same in corridor mode (zone.h, kino.h zone): a curved street's zone laid over a speckled map and over
 * an open one; the prepared params prove actions by the inner map's clearance table and by the zone's
 * distances at each state and action end (ap_zone_proves), the slow ones run the zone world's exact test on
 * every action. States inside the zone, from its centre line to its limit, facing along it and across;
 * the zone must cut many states' actions, and many must be proven whole. */
START_TEST(test_zone_shortcut_same_successors)
{
    ap_test_rng g = {99};
    int states = 0, cut = 0, edges = 0, proven = 0;
    for (int mi = 0; mi < 4; mi++) {
        ap_map *m = ap_test_speckled_map(&g, 80, 80, mi < 2 ? 0.0 : 0.01);
        ap_world inner;
        ap_map_world(m, &inner);
        const double rc = 6.0 + 3.0 * mi, sign = mi % 2 ? -1.0 : 1.0;
        ap_zone z = {.n = 34, .half = 1.2 + 0.4 * mi};
        z.pts[0][0] = 10, z.pts[0][1] = 40;
        for (int i = 0; i <= 32; i++) {
            const double a = -sign * M_PI / 2 + sign * i * (M_PI / 2) / 32;
            z.pts[i + 1][0] = 40 + rc * cos(a);
            z.pts[i + 1][1] = 40 + sign * rc + rc * sin(a);
        }
        struct ap_zone_grid *grid = ap_zone_grid_build(&z);
        z.grid = grid;
        ap_kino_params raw = {.veh = test_car, .meters_per_tile = 1.0, .turning_radius = 3.0, .radius = 0.2 * (mi % 2),
                              .gx = z.pts[33][0], .gy = z.pts[33][1], .gh = sign * M_PI / 2, .has_gh = true,
                              .gv = 2.0, .tol_pos = 0.5, .tol_heading = 0.1, .tol_speed = 0.5};
        ap_zone_world(&z, &inner, &raw.world);
        const ap_kino_params fast = ap_kino_prepare(&raw);
        ck_assert_ptr_eq(fast.zone, &z);
        ck_assert_ptr_eq(fast.fast_map, m);
        ap_kino_params slow = fast;
        slow.zone = NULL;
        slow.fast_map = NULL;
        slow.fast_clear = NULL;
        ap_kino_params open = slow; /* the inner map alone: how many actions the zone cuts */
        open.world = inner;
        for (int k = 0; k < 1500; k++) {
            const size_t i = ap_test_rand(&g) % 33;
            const double t = ap_test_rand01(&g), off = z.half * (2.0 * ap_test_rand01(&g) - 1.0);
            const double dx = z.pts[i + 1][0] - z.pts[i][0], dy = z.pts[i + 1][1] - z.pts[i][1], l = hypot(dx, dy);
            ap_kino_state st = {.x = z.pts[i][0] + t * dx - off * dy / l, .y = z.pts[i][1] + t * dy + off * dx / l,
                                .h = atan2(dy, dx) + (k % 4 == 0 ? 2.0 * M_PI * ap_test_rand01(&g) : 0.5 * (ap_test_rand01(&g) - 0.5))};
            st.h = ap_angle_wrap(st.h);
            if (!ap_world_point_clear(&raw.world, st.x, st.y, raw.radius))
                continue;
            st.v = k % 5 == 0 ? 0.0 : 6.0 * ap_test_rand01(&g);
            int n;
            edges += expect_same_expansion(&fast, &slow, &st, &n);
            ap_kino_state succ[AP_KINO_MAX_SUCC];
            const int n_open = ap_kino_expand(&open, &st, succ);
            cut += n_open > n;
            const double d0 = ap_zone_distance(&z, st.x, st.y);
            proven += n == n_open && ap_zone_proves(&z, d0, d0 + 1.25, 1.25, 0.0, raw.radius);
            states++;
        }
        free(grid);
        ap_map_free(m);
    }
    printf("kino zone shortcut: %d states, %d with actions cut by the zone or walls, %d proven whole from the state, %d analytic edges\n",
           states, cut, proven, edges);
    ck_assert_int_gt(states, 5000);
    ck_assert_int_gt(cut, states / 10);
    ck_assert_int_gt(proven, states / 20);
    ck_assert_int_gt(edges, 20);
}
END_TEST

/* Which worlds get the shortcut: a plain grid world, and a corridor's zone laid over one (its inner map's
 * table, and the zone); the square world and a circle world's own tests are not described by the table. */
START_TEST(test_clearance_shortcut_worlds)
{
    ap_test_rng g = {5};
    ap_map *m = ap_test_speckled_map(&g, 20, 20, 0.0);
    ap_kino_params p = {.veh = test_car, .meters_per_tile = 1.0, .turning_radius = 2.0};
    ap_map_world(m, &p.world);
    ap_kino_params q = ap_kino_prepare(&p);
    ck_assert_ptr_eq(q.fast_map, m);
    ck_assert_ptr_nonnull(q.fast_clear);
    ck_assert_ptr_null(q.zone);
    ck_assert_double_eq(q.step, AP_KINO_STEP);
    ck_assert_int_eq(q.heading_bins, AP_KINO_HEADING_BINS);
    ap_zone z = {.pts = {{1.0, 10.0}, {19.0, 10.0}}, .n = 2, .half = 2.0};
    ap_zone_world(&z, &p.world, &p.world);
    q = ap_kino_prepare(&p);
    ck_assert_ptr_eq(q.zone, &z);
    ck_assert_ptr_eq(q.fast_map, m);
    ck_assert_ptr_eq(q.fast_clear, ap_clearance_of(m, m->capability));
    ap_world square;
    ap_square_world(m, &square);
    ap_zone_world(&z, &square, &p.world); /* a zone over the square world: the zone's shortcut alone */
    q = ap_kino_prepare(&p);
    ck_assert_ptr_eq(q.zone, &z);
    ck_assert_ptr_null(q.fast_clear);
    ap_square_world(m, &p.world);
    q = ap_kino_prepare(&p);
    ck_assert_ptr_null(q.fast_clear);
    ck_assert_ptr_null(q.zone);
    ap_map_free(m);
}
END_TEST

/* Forward arcs end by angle addition (kino.c arc_end, from sin and 1 - cos of the sweep) instead of libm's
 * cos and sin of the end angle, from fastmath.h's sin and cos of the start heading: ap_kino_segment's arc is
 * ap_segment_arc's in every field but the centre and the end point, and those within 1e-12 tiles (positions
 * up to 500 tiles, radii 0.25-100 tiles, sweeps up to 8 rad). */
START_TEST(test_arc_end_angle_addition)
{
    ap_test_rng g = {77};
    double worst = 0.0;
    for (int it = 0; it < 200000; it++) {
        const double x = 500.0 * ap_test_rand01(&g), y = 500.0 * ap_test_rand01(&g);
        const double h = 2.0 * M_PI * ap_test_rand01(&g) - M_PI;
        const double k = (ap_test_rand01(&g) < 0.5 ? -1.0 : 1.0) * pow(10.0, -2.0 + 2.6 * ap_test_rand01(&g));
        const double len = fmin(2.0 * ap_test_rand01(&g) + 1e-9, 8.0 / fabs(k));
        const ap_kino_state st = {.curv = k, .len = len};
        const ap_segment a = ap_kino_segment(x, y, h, &st), b = ap_segment_arc(x, y, h, 1.0 / fabs(k), k * len);
        AP_EXPECT(a.type == AP_SEG_ARC && a.x0 == b.x0 && a.y0 == b.y0 && a.heading == b.heading &&
                      fabs(a.cx - b.cx) <= 1e-12 && fabs(a.cy - b.cy) <= 1e-12 && a.radius == b.radius &&
                      a.sweep == b.sweep && a.length == b.length && !a.reverse,
                  "arc %d: a field other than the end differs", it);
        worst = fmax(worst, fmax(fabs(a.x1 - b.x1), fabs(a.y1 - b.y1)));
        AP_EXPECT(fabs(a.x1 - b.x1) <= 1e-12 && fabs(a.y1 - b.y1) <= 1e-12,
                  "arc %d from (%.17g, %.17g, %.17g) k %.17g len %.17g: end (%.17g, %.17g), libm (%.17g, %.17g)", it, x,
                  y, h, k, len, a.x1, a.y1, b.x1, b.y1);
    }
    printf("kino arc ends: largest difference from libm's %.3g tiles\n", worst);
}
END_TEST

/* Every successor's pose is the end of the segment ap_kino_segment makes for its action, to the bit (the
 * answer's segments are rebuilt that way and meet the states exactly), whether the clearance table proved
 * the action or the exact test ran (prepared params on a speckled map, and unprepared ones). */
START_TEST(test_successors_meet_their_segments)
{
    ap_test_rng g = {31};
    ap_map *m = ap_test_speckled_map(&g, 60, 60, 0.04);
    int arcs = 0;
    for (int mode = 0; mode < 4; mode++) {
        ap_kino_params raw = {.veh = test_car, .meters_per_tile = 1.0, .turning_radius = 2.0, .radius = 0.3,
                              .reverse = mode % 2 == 1, .gx = 30.5, .gy = 30.5, .gh = 1.0, .has_gh = true, .gv = 1.0,
                              .tol_pos = 0.5, .tol_heading = 0.1, .tol_speed = 0.5};
        ap_map_world(m, &raw.world);
        const ap_kino_params p = mode < 2 ? ap_kino_prepare(&raw) : raw;
        for (int k = 0; k < 2000; k++) {
            ap_kino_state st = {.x = 1.0 + 58.0 * ap_test_rand01(&g), .y = 1.0 + 58.0 * ap_test_rand01(&g),
                                .h = 2.0 * M_PI * ap_test_rand01(&g) - M_PI};
            if (!ap_world_point_clear(&raw.world, st.x, st.y, raw.radius))
                continue;
            st.v = raw.reverse && ap_test_rand01(&g) < 0.3 ? -2.0 * ap_test_rand01(&g) : 4.0 * ap_test_rand01(&g);
            ap_kino_state out[AP_KINO_MAX_SUCC];
            const int n = ap_kino_expand(&p, &st, out);
            for (int i = 0; i < n; i++) {
                const ap_segment sg = ap_kino_segment(st.x, st.y, st.h, &out[i]);
                AP_EXPECT(sg.x1 == out[i].x && sg.y1 == out[i].y,
                          "state (%.17g, %.17g, %.17g, %.17g) successor %d at (%.17g, %.17g), its segment ends at "
                          "(%.17g, %.17g)", st.x, st.y, st.h, st.v, i, out[i].x, out[i].y, sg.x1, sg.y1);
                arcs += sg.type == AP_SEG_ARC;
            }
        }
    }
    ap_map_free(m);
    ck_assert_int_gt(arcs, 20000);
}
END_TEST

/* ap_kino_analytic_below is ap_kino_analytic plus the comparison g + duration < best, with the same edge:
 * from random states on a speckled map (walls cut some curves, fast states take the wider radius), with and
 * without a goal heading, against bests just below, at and just above g + duration, far off, and none. */
START_TEST(test_analytic_below_matches)
{
    ap_test_rng g = {909};
    ap_map *m = ap_test_speckled_map(&g, 60, 60, 0.03);
    int edges = 0, wide = 0, checks = 0;
    for (int mode = 0; mode < 2; mode++) {
        ap_kino_params raw = {.veh = {14.0, 3.0, 6.0, 10.0, 0.0, 0.0}, .meters_per_tile = 1.0, .turning_radius = 3.0,
                              .radius = 0.3, .gx = 30.5, .gy = 30.5, .gh = 2.0, .has_gh = mode == 0, .gv = 3.0,
                              .tol_pos = 0.5, .tol_heading = 0.1, .tol_speed = 0.5};
        ap_map_world(m, &raw.world);
        const ap_kino_params p = ap_kino_prepare(&raw);
        for (int k = 0; k < 3000; k++) {
            const ap_kino_state st = {.x = 1.0 + 58.0 * ap_test_rand01(&g), .y = 1.0 + 58.0 * ap_test_rand01(&g),
                                      .h = 2.0 * M_PI * ap_test_rand01(&g) - M_PI, .v = 14.0 * ap_test_rand01(&g)};
            if (!ap_world_point_clear(&raw.world, st.x, st.y, raw.radius))
                continue;
            ap_kino_tail ta;
            const bool ea = ap_kino_analytic(&p, &st, &ta);
            const double g0 = 10.0 * ap_test_rand01(&g);
            if (ea) {
                edges++;
                wide += ta.seg[0].type == AP_SEG_ARC && ta.seg[0].radius > raw.turning_radius * (1.0 + 1e-9);
            }
            const double d = ea ? ta.duration : 1.0;
            const double bests[] = {g0 + 0.5 * d, g0 + d * (1.0 - 1e-12), g0 + d, g0 + d * (1.0 + 1e-12),
                                    g0 + 2.0 * d, g0 + 100.0, INFINITY};
            for (size_t b = 0; b < sizeof bests / sizeof bests[0]; b++) {
                ap_kino_tail tb;
                tb.n = -7;
                const bool below = ap_kino_analytic_below(&p, &st, g0, bests[b], &tb);
                const bool want = ea && g0 + ta.duration < bests[b];
                AP_EXPECT(below == want, "state (%.17g, %.17g, %.17g, %.17g) best %d: %d, expected %d", st.x, st.y,
                          st.h, st.v, (int)b, below, want);
                if (below) {
                    AP_EXPECT(tb.n == ta.n && tb.duration == ta.duration, "edge differs");
                    for (int i = 0; i < ta.n; i++)
                        AP_EXPECT(memcmp(&ta.time[i], &tb.time[i], sizeof ta.time[i]) == 0 &&
                                      ta.seg[i].x0 == tb.seg[i].x0 && ta.seg[i].y0 == tb.seg[i].y0 &&
                                      ta.seg[i].x1 == tb.seg[i].x1 && ta.seg[i].y1 == tb.seg[i].y1 &&
                                      ta.seg[i].heading == tb.seg[i].heading && ta.seg[i].sweep == tb.seg[i].sweep,
                                  "edge differs in piece %d", i);
                } else
                    AP_EXPECT(tb.n == -7, "out written without an edge");
                checks++;
            }
        }
    }
    ap_map_free(m);
    printf("kino analytic below: %d checks, %d edges, %d at the speed's wider radius\n", checks, edges, wide);
    ck_assert_int_gt(edges, 1000);
    ck_assert_int_gt(wide, 100);
}
END_TEST

/* The heuristic's prepared time-bound constants (kino.h hbound, set by ap_kino_prepare) give the same values
 * as the bound made per call: ap_kino_heuristic with prepared and raw params, ap_kino_time_bound against
 * ap_vehicle_time_bound of the vehicle it sees (with reverse the top speed of both directions), and params
 * whose limits changed after prepare (the stale constants are not used). */
START_TEST(test_prepared_time_bound_same)
{
    ap_test_rng g = {4711};
    for (int it = 0; it < 20000; it++) {
        ap_kino_params raw = {.veh = {1.0 + 20.0 * ap_test_rand01(&g), 0.5 + 4.0 * ap_test_rand01(&g),
                                      0.5 + 8.0 * ap_test_rand01(&g), 1.0 + 10.0 * ap_test_rand01(&g),
                                      25.0 * ap_test_rand01(&g), 0.0},
                              .meters_per_tile = 0.5 + ap_test_rand01(&g), .turning_radius = 3.0,
                              .reverse = it % 2 == 1, .gx = 50.0 * ap_test_rand01(&g), .gy = 50.0 * ap_test_rand01(&g),
                              .gh = 1.0, .has_gh = it % 3 != 0, .gv = 5.0 * ap_test_rand01(&g), .tol_pos = 0.5,
                              .tol_heading = 0.1, .tol_speed = 0.5, .heuristic = (ap_kino_heuristic_kind)(it % 3)};
        ap_kino_params prep = ap_kino_prepare(&raw);
        const double x = 50.0 * ap_test_rand01(&g), y = 50.0 * ap_test_rand01(&g), h = 6.0 * ap_test_rand01(&g) - 3.0;
        const double v = raw.veh.max_speed * ap_test_rand01(&g) * (raw.reverse && it % 4 == 1 ? -1.0 : 1.0);
        const double a = ap_kino_heuristic(&prep, x, y, h, v), b = ap_kino_heuristic(&raw, x, y, h, v);
        AP_EXPECT(a == b, "query %d: heuristic %.17g prepared, %.17g raw", it, a, b);
        ap_vehicle vb = raw.veh;
        if (raw.reverse && vb.max_reverse_speed > vb.max_speed)
            vb.max_speed = vb.max_reverse_speed;
        const double s = 40.0 * ap_test_rand01(&g) - 5.0, v0 = vb.max_speed * ap_test_rand01(&g),
                     v1 = vb.max_speed * ap_test_rand01(&g);
        const double c = ap_kino_time_bound(&prep, s, v0, v1), d = ap_vehicle_time_bound(&vb, s, v0, v1);
        AP_EXPECT(c == d, "query %d: bound %.17g prepared, %.17g per call", it, c, d);
        prep.veh.max_accel *= 1.5; /* limits changed after prepare: the bound of the new limits */
        vb.max_accel = prep.veh.max_accel;
        const double e = ap_kino_time_bound(&prep, s, v0, v1), f = ap_vehicle_time_bound(&vb, s, v0, v1);
        AP_EXPECT(e == f, "query %d: bound %.17g after a change, %.17g per call", it, e, f);
    }
}
END_TEST

/* The heuristic a search keeps in each state's payload is the heuristic of that state, to the bit: the
 * domain computes the length part once for the successors of one state along the same path (kino.c's
 * memo) and the bin key's pose part once per path; here every state of searches on speckled maps (forward,
 * with reverse, with turns on the spot, the Dubins heuristic) is checked against ap_kino_heuristic. */
START_TEST(test_domain_heuristic_is_the_states)
{
    ap_test_rng g = {77};
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 1u << 16, AP_KINO_MAX_SUCC), AP_OK);
    int checked = 0;
    for (int mi = 0; mi < 4; mi++) {
        ap_map *m = ap_test_speckled_map(&g, 50, 50, mi == 0 ? 0.0 : 0.05);
        ap_kino_params kp = {.veh = test_car, .meters_per_tile = 1.0, .turning_radius = 2.0, .radius = 0.3,
                             .reverse = mi == 1, .sx = 10.5, .sy = 10.5, .sh = 0.3, .sv = mi == 2 ? 0.0 : 2.0,
                             .gx = 35.5, .gy = 30.5, .gh = 2.0, .has_gh = true, .gv = 1.0, .tol_pos = 0.5,
                             .tol_heading = 0.1, .tol_speed = 0.5,
                             .heuristic = mi == 3 ? AP_KINO_H_DUBINS : AP_KINO_H_TIME};
        kp.veh.max_turn_rate = mi == 2 ? 1.5 : 0.0;
        ap_map_world(m, &kp.world);
        if (!ap_world_point_clear(&kp.world, kp.sx, kp.sy, kp.radius)) {
            ap_map_free(m);
            continue;
        }
        ap_kino_domain d;
        ap_domain dom;
        ap_search s;
        ck_assert_int_eq(ap_kino_init(&d, &dom, &kp, ws.capacity), AP_OK);
        ck_assert_int_eq(ap_search_begin(&s, &ws, &dom, AP_KINO_START, AP_KINO_GOAL, 0), AP_OK);
        ap_kino_bind(&d, &s);
        (void)ap_search_run(&s, 400);
        /* the ids are handed out densely from AP_KINO_START + 1: every one below the first unseen was kept */
        uint32_t ids = AP_KINO_START + 1;
        while (ids < ws.capacity && ap_search_g(&s, ids) < INFINITY)
            ids++;
        ck_assert_uint_gt(ids, 1000);
        for (uint32_t id = AP_KINO_START + 1; id < ids; id++) {
            const ap_kino_state *st = ap_search_payload(&s, id);
            const double h = ap_kino_heuristic(&d.p, st->x, st->y, st->h, st->v);
            AP_EXPECT(st->hval == h, "map %d, state %u: kept h %.17g, its heuristic %.17g", mi, id, st->hval, h);
            checked++;
        }
        ap_kino_free(&d);
        ap_map_free(m);
    }
    ck_assert_int_gt(checked, 3000);
    ap_workspace_free(&ws);
}
END_TEST

Suite *kino_suite(void)
{
    Suite *s = suite_create("kino");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_time_bound_values);
    tcase_add_test(tc, test_time_bound_below_simulated_profiles);
    tcase_add_test(tc, test_heuristic_admissible_exhaustive);
    tcase_add_test(tc, test_heading_bound_below_driven_paths);
    tcase_add_test(tc, test_cap_answers_the_best_found);
    tcase_add_test(tc, test_start_within_goal_tolerance);
    tcase_add_test(tc, test_weight_answers_sooner);
    tcase_add_test(tc, test_stop_answers_the_best_found);
    tcase_add_test(tc, test_lattice_term_on_the_wall);
    tcase_add_test(tc, test_plan_open_resimulated);
    tcase_add_test(tc, test_plan_wall_resimulated);
    tcase_add_test(tc, test_goal_behind_fast_start_loops);
    tcase_add_test(tc, test_time_bound_reverse_profiles);
    tcase_add_test(tc, test_heuristic_admissible_exhaustive_reverse);
    tcase_add_test(tc, test_expand_reverse_and_turns);
    tcase_add_test(tc, test_goal_behind_at_rest_backs_up);
    tcase_add_test(tc, test_free_start_heading);
    tcase_add_test(tc, test_turn_on_the_spot);
    tcase_add_test(tc, test_turns_back_stay_apart);
    tcase_add_test(tc, test_corner_speed_intensity);
    tcase_add_test(tc, test_lattice_build_keeps_the_deadline);
    tcase_add_test(tc, test_plan_reverse_turns_resimulated);
    tcase_add_test(tc, test_validation);
    tcase_add_test(tc, test_goal_in_a_narrow_dead_end);
    tcase_add_test(tc, test_goal_refusal_matches_brute_force);
    tcase_add_test(tc, test_expansion_cap);
    tcase_add_test(tc, test_move_to_smaller_workspace);
    tcase_add_test(tc, test_state_limit);
    tcase_add_test(tc, test_profiles);
    tcase_add_test(tc, test_probe_open_field);
    tcase_add_test(tc, test_probe_wall_falls_back);
    tcase_add_test(tc, test_samples_dt_accelerating_line);
    tcase_add_test(tc, test_samples_dt_planned);
    tcase_add_test(tc, test_samples_dt_turn_on_the_spot);
    tcase_add_test(tc, test_samples_dt_validation);
    tcase_add_test(tc, test_clearance_shortcut_same_successors);
    tcase_add_test(tc, test_zone_shortcut_same_successors);
    tcase_add_test(tc, test_clearance_shortcut_worlds);
    tcase_add_test(tc, test_arc_end_angle_addition);
    tcase_add_test(tc, test_successors_meet_their_segments);
    tcase_add_test(tc, test_analytic_below_matches);
    tcase_add_test(tc, test_prepared_time_bound_same);
    tcase_add_test(tc, test_domain_heuristic_is_the_states);
    suite_add_tcase(s, tc);
    return s;
}
