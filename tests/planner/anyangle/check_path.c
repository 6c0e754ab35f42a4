/* check_path.c — the invariants of an any-angle answer (check_path.h). */
#include "check_path.h"

#include "tests/check_fast.h"
#include <math.h>

#include "../../../planner/base/status.h"

static double angle_diff(double a, double b)
{
    double d = fmod(a - b, 2 * M_PI);
    if (d > M_PI)
        d -= 2 * M_PI;
    if (d < -M_PI)
        d += 2 * M_PI;
    return fabs(d);
}

/* The independent sampled test at one point: the oracle's zero-length line with the unit's radius lowered
 * by 1e-6 (so a touch passes and a real overlap fails). */
static bool sample_ok(const aa_oracle_world *ow, double x, double y)
{
    aa_oracle_world w = *ow;
    if (w.r >= 1e-6)
        w.r -= 1e-6;
    else if (w.m == NULL) {
        /* A point unit among circles: shrink the obstacles' reach through the unit radius is impossible, so
         * test the distance directly. */
        for (size_t k = 0; k < w.n; k++)
            if (hypot(x - w.c[k].x, y - w.c[k].y) < w.c[k].r - 1e-6)
                return false;
        return x > -1e-6 && y > -1e-6 && x < w.w + 1e-6 && y < w.h + 1e-6;
    } else {
        /* Point unit on a grid: not deeper than 1e-6 inside a blocked cell. */
        int i = (int)floor(x), j = (int)floor(y);
        double fx = x - i, fy = y - j;
        if (fx > 1e-6 && fx < 1 - 1e-6 && fy > 1e-6 && fy < 1 - 1e-6)
            return ap_map_passable(w.m, i, j);
        return x > -1e-6 && y > -1e-6 && x < w.m->width + 1e-6 && y < w.m->height + 1e-6;
    }
    return aa_oracle_line_ok(&w, x, y, x, y);
}

void aa_check_path(const ap_aa_result *res, const ap_aa_graph *g, const aa_oracle_world *ow, const ap_world *world,
                   double sx, double sy, double gx, double gy)
{
    ck_assert_int_eq(res->status, AP_OK);
    const ap_segment *s = res->segs;
    size_t n = res->n_segs;
    if (n == 0) {
        ck_assert(sx == gx && sy == gy);
        return;
    }
    ck_assert_double_eq_tol(s[0].x0, sx, 1e-9);
    ck_assert_double_eq_tol(s[0].y0, sy, 1e-9);
    ck_assert_double_eq_tol(s[n - 1].x1, gx, 1e-9);
    ck_assert_double_eq_tol(s[n - 1].y1, gy, 1e-9);
    double total = 0.0;
    for (size_t i = 0; i < n; i++) {
        total += s[i].length;
        if (i + 1 < n) {
            ck_assert_msg(hypot(s[i].x1 - s[i + 1].x0, s[i].y1 - s[i + 1].y0) < 1e-7, "gap after segment %zu", i);
            /* A turn without an arc is only allowed on a radius-0 hug circle (a point unit's corner). */
            bool corner = false;
            for (size_t k = 0; k < g->n && !corner; k++)
                corner = g->R[k] == 0.0 && hypot(s[i].x1 - g->x[k], s[i].y1 - g->y[k]) < 1e-9;
            ck_assert_msg(corner || angle_diff(ap_segment_end_heading(&s[i]), s[i + 1].heading) < 1e-7,
                          "heading jump after segment %zu: %.12f vs %.12f", i, ap_segment_end_heading(&s[i]),
                          s[i + 1].heading);
        }
        if (s[i].type == AP_SEG_ARC) {
            bool found = false;
            for (size_t k = 0; k < g->n && !found; k++)
                found = hypot(s[i].cx - g->x[k], s[i].cy - g->y[k]) < 1e-7 && fabs(s[i].radius - g->R[k]) < 1e-12;
            ck_assert_msg(found, "arc %zu (centre %.9f, %.9f, radius %.9f) is on no hug circle", i, s[i].cx,
                          s[i].cy, s[i].radius);
            ck_assert_double_eq_tol(s[i].length, s[i].radius * fabs(s[i].sweep), 1e-12);
        } else {
            ck_assert_double_eq_tol(s[i].length, hypot(s[i].x1 - s[i].x0, s[i].y1 - s[i].y0), 1e-12);
        }
        for (double d = 0.0; d <= s[i].length; d += 0.02) {
            ap_pose p = ap_segment_pose(&s[i], d);
            ck_assert_msg(sample_ok(ow, p.x, p.y), "segment %zu at %.3f: (%.9f, %.9f) overlaps an obstacle", i, d,
                          p.x, p.y);
        }
    }
    ck_assert_double_eq_tol(total, res->length, 1e-9 * fmax(1.0, total));
    ck_assert(ap_aa_graph_path_ok(g, s, n, sx, sy));
    if (world != NULL && ow->r >= 1e-6)
        ck_assert(ap_world_segments_clear(world, s, n, ow->r - 1e-6));
}
