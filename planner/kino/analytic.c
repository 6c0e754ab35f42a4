/* analytic.c — the kinodynamic search's analytic final expansion (analytic.h). */
#include "analytic.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/status.h"
#include "../geom/curve.h"
#include "../geom/dubins.h"
#include "../world/clearance.h"

/* True when the disc swept along the n pieces is clear: each piece proven clear by the clearance table
 * (clearance.h ap_clearance_proves_segment: then the exact test would say clear too) or by the world's exact
 * test. */
static bool curve_clear(const ap_kino_params *p, const ap_segment *segs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(p->fast_clear != NULL && ap_clearance_proves_segment(p->fast_map, p->fast_clear, &segs[i], p->radius)) &&
            !ap_world_segment_clear(&p->world, &segs[i], p->radius))
            return false;
    return true;
}

/* The edge along the curve of turning radius R (tiles); see ap_kino_analytic. */
static bool edge_at(const ap_kino_params *p, const ap_kino_state *st, double R, ap_kino_tail *out)
{
    ap_segment segs[3];
    size_t n;
    if (p->has_gh) {
        const ap_pose a = {st->x, st->y, st->h}, b = {p->gx, p->gy, p->gh};
        ap_dubins dd;
        if (ap_dubins_shortest(&a, &b, R, &dd) != 0)
            return false;
        n = ap_dubins_segments(&dd, &b, segs);
    } else {
        int tight = 0;
        n = ap_curve_arc_line(st->x, st->y, st->h, p->gx, p->gy, R, segs, &tight);
        if (tight)
            return false;
    }
    if (n == 0 || !curve_clear(p, segs, n))
        return false;
    ap_segment os[3 * 3 + 1];
    ap_seg_time ot[3 * 3 + 1];
    size_t on = 0;
    double dur = 0.0;
    int st_ok = ap_timing_profile_into(&p->veh, p->meters_per_tile, segs, n, st->v, p->gv + p->tol_speed, os, ot,
                                       &on, &dur, NULL);
    bool ok = st_ok == AP_OK && on > 0 && on <= AP_KINO_TAIL_MAX && dur > 0.0 &&
              ot[on - 1].v_end >= p->gv - p->tol_speed;
    if (ok) {
        memcpy(out->seg, os, on * sizeof *os);
        memcpy(out->time, ot, on * sizeof *ot);
        out->n = (int)on;
        out->duration = dur;
    }
    return ok;
}

bool ap_kino_analytic(const ap_kino_params *p, const ap_kino_state *st, ap_kino_tail *out)
{
    if (edge_at(p, st, p->turning_radius, out))
        return true;
    /* At speed v an arc that starts at once must have v^2 / r <= a_lat: the curve at the radius the state's
     * speed allows (wider than the turning radius) can be entered without braking first. */
    const double r_speed = st->v * st->v / (p->veh.max_lateral_accel * p->meters_per_tile);
    return r_speed > p->turning_radius * (1.0 + 1e-9) && edge_at(p, st, r_speed, out);
}
