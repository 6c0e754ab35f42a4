/* analytic.c — the kinodynamic search's analytic final expansion (analytic.h). */
#include "analytic.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/fastmath.h"
#include "../base/status.h"
#include "../geom/curve.h"
#include "../geom/dubins.h"
#include "../world/clearance.h"

/* True when the disc swept along the n pieces is clear (kino.h ap_kino_segment_clear, each piece). */
static bool curve_clear(const ap_kino_params *p, const ap_segment *segs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!ap_kino_segment_clear(p, &segs[i]))
            return false;
    return true;
}

/* The curve of turning radius R (tiles) from st to p's goal (see ap_kino_analytic): its length first, its
 * segments only when made (curve_make; a Dubins word's pieces cost a sin and cos each). */
typedef struct curve {
    ap_segment seg[3];
    size_t n;      /* segments, once made */
    bool made;
    bool exists;   /* false: no curve (then n = 0) */
    double length; /* tiles */
    ap_dubins dd;  /* with a goal heading: the word, until made */
} curve;

static void curve_plan(const ap_kino_params *p, const ap_kino_state *st, double R, curve *c)
{
    c->n = 0;
    c->made = false;
    c->exists = false;
    c->length = 0.0;
    if (p->has_gh) {
        const ap_pose a = {st->x, st->y, st->h}, b = {p->gx, p->gy, p->gh};
        c->exists = ap_dubins_shortest(&a, &b, R, &c->dd) == 0;
        c->length = c->exists ? c->dd.length : 0.0;
        return;
    }
    int tight = 0;
    c->n = ap_curve_arc_line(st->x, st->y, st->h, p->gx, p->gy, R, c->seg, &tight);
    c->made = true;
    if (tight)
        c->n = 0;
    c->exists = c->n > 0;
    c->length = ap_path_length(c->seg, c->n);
}

/* c's segments (0 of them when there is no curve). */
static void curve_make(const ap_kino_params *p, curve *c)
{
    if (c->made)
        return;
    c->made = true;
    if (c->exists) {
        const ap_pose b = {p->gx, p->gy, p->gh};
        c->n = ap_dubins_segments(&c->dd, &b, c->seg);
    }
}

/* True when no motion over len tiles from speed v can take less than budget seconds: the time bound
 * (kino.h ap_kino_time_bound, a lower bound on any motion over that length ending at most at the goal's top
 * speed; with reverse its top speed may be the backwards one, higher, which only lowers it) is at least
 * budget, with a margin of 1e-9 relative for the rounding of the profile's sums. */
static bool surely_not_below(const ap_kino_params *p, double len, double v, double budget)
{
    if (!(budget < INFINITY))
        return false;
    const double lb = ap_kino_time_bound(p, len * p->meters_per_tile, v, p->gv + p->tol_speed);
    return lb - 1e-9 * (1.0 + lb) >= budget;
}


/* What edge_at found. */
typedef enum edge_result { EDGE_NONE = 0, EDGE_WORSE, EDGE_BETTER } edge_result;

/* The edge along curve c (made here) from st: EDGE_NONE when it does not exist (no curve, a wall, a goal
 * speed the profile cannot meet), EDGE_WORSE when it exists and g + its duration >= best (then *out is left
 * alone), EDGE_BETTER with *out filled when it exists and g + its duration < best. The profile's times come
 * first (ap_timing_profile_times, no geometry), the clearance test next, the pieces' segments last and only
 * for a better edge. With exists false the caller asks only whether the edge is better: then an edge whose
 * duration is no improvement is EDGE_WORSE before its clearance test (whether a wall is in its way does not
 * matter; in a corridor that test is the dearest part). */
static edge_result edge_along(const ap_kino_params *p, const ap_kino_state *st, curve *c, double g, double best,
                              bool exists, ap_kino_tail *out)
{
    curve_make(p, c);
    const ap_segment *segs = c->seg;
    const size_t n = c->n;
    if (n == 0)
        return EDGE_NONE;
    ap_seg_time ot[3 * 3 + 1];
    size_t on = 0;
    double dur = 0.0;
    const double vmax_end = p->gv + p->tol_speed;
    const int st_ok = ap_timing_profile_times(&p->veh, p->meters_per_tile, segs, n, st->v, vmax_end, ot, &on, &dur, NULL);
    if (!(st_ok == AP_OK && on > 0 && on <= AP_KINO_TAIL_MAX && dur > 0.0 && ot[on - 1].v_end >= p->gv - p->tol_speed))
        return EDGE_NONE;
    if (!exists && !(g + dur < best))
        return EDGE_WORSE;
    if (!curve_clear(p, segs, n))
        return EDGE_NONE;
    if (!(g + dur < best))
        return EDGE_WORSE;
    ap_segment os[3 * 3 + 1];
    (void)ap_timing_profile_into(&p->veh, p->meters_per_tile, segs, n, st->v, vmax_end, os, ot, &on, &dur, NULL);
    memcpy(out->seg, os, on * sizeof *os);
    memcpy(out->time, ot, on * sizeof *ot);
    out->n = (int)on;
    out->duration = dur;
    return EDGE_BETTER;
}

/* Plan the curve of radius R from st into *c: true when it exists and its length alone does not show that it
 * cannot beat best - g. */
static bool curve_may_win(const ap_kino_params *p, const ap_kino_state *st, double R, double g, double best, curve *c)
{
    curve_plan(p, st, R, c);
    return c->exists && !surely_not_below(p, c->length, st->v, best - g);
}

bool ap_kino_analytic_below(const ap_kino_params *p, const ap_kino_state *st, double g, double best, ap_kino_tail *out)
{
    /* Either curve ends at the goal point, and with a goal heading it turns the heading from st->h to gh on
     * arcs of radius >= turning_radius: its length is at least the straight distance and at least
     * turning_radius * |gh - h| (wrapped). When the time over that already reaches best - g, neither curve is
     * made (most states an A* expands near the goal after its first edge end here). */
    const double dx = p->gx - st->x, dy = p->gy - st->y, dist = sqrt(dx * dx + dy * dy);
    const double turn = p->has_gh ? p->turning_radius * fabs(ap_angle_wrap(p->gh - st->h)) : 0.0;
    if (surely_not_below(p, fast_max(dist, turn), st->v, best - g))
        return false;
    curve a, b;
    /* At speed v an arc that starts at once must have v^2 / r <= a_lat: the curve at the radius the state's
     * speed allows (wider than the turning radius) can be entered without braking first; it is tried only
     * when the curve at the turning radius gives no edge. */
    const double r_speed = st->v * st->v / (p->veh.max_lateral_accel * p->meters_per_tile);
    const bool wider = r_speed > p->turning_radius * (1.0 + 1e-9);
    /* Both curves begin with an arc. A state faster than that arc's cap at the turning radius (the profile's
     * own test, timing.c: v > sqrt(a_lat R) + 1e-9) cannot enter it without braking in no distance, so the
     * profile refuses the first curve: it is not made, and the second one is tried at once. (Only an empty
     * first arc, the state heading exactly along the curve's tangent, would have let it through.) */
    if (st->v > sqrt(p->veh.max_lateral_accel * p->turning_radius * p->meters_per_tile) + 1e-9)
        return curve_may_win(p, st, r_speed, g, best, &b) && edge_along(p, st, &b, g, best, false, out) == EDGE_BETTER;
    curve_plan(p, st, p->turning_radius, &a);
    if (a.exists && surely_not_below(p, a.length, st->v, best - g)) {
        /* The first edge, if it exists, is no improvement; the second counts only where the first does not
         * exist, and it too is no improvement unless its own bound says it may be. */
        if (!wider || !curve_may_win(p, st, r_speed, g, best, &b))
            return false;
        if (edge_along(p, st, &a, g, -INFINITY, true, out) != EDGE_NONE)
            return false; /* (a best of -inf: whether the first edge exists, out untouched) */
        return edge_along(p, st, &b, g, best, false, out) == EDGE_BETTER;
    }
    const edge_result ra = edge_along(p, st, &a, g, best, wider, out);
    if (ra != EDGE_NONE || !wider)
        return ra == EDGE_BETTER;
    return curve_may_win(p, st, r_speed, g, best, &b) && edge_along(p, st, &b, g, best, false, out) == EDGE_BETTER;
}

bool ap_kino_analytic(const ap_kino_params *p, const ap_kino_state *st, ap_kino_tail *out)
{
    return ap_kino_analytic_below(p, st, 0.0, INFINITY, out);
}
