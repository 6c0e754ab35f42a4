/* curve.c — arc+line curves for a unit with a turning radius.
 *
 * Source: Pinter, "Toward More Realistic Pathfinding", "Adding Realistic Turns", Figures 5-6 (turn on the
 * circle of radius r beside the unit until it faces the destination, then go straight; try both sides, keep
 * the shorter), and "Legal Turns: The Basic Methods": "Simple solution: ignoring blocked tiles" (each
 * waypoint is reached with a free heading, which becomes the start heading of the next leg). A target inside
 * the turning circle on its own side is reached by turning the other way round, never by a tighter turn.
 */
#include "curve.h"

#include <math.h>

/* Below this distance (tiles) a target counts as reached and a bearing as straight ahead. */
#define AP_CURVE_TINY 1e-12

/* One side of Figure 6. side = +1 turns with increasing heading (centre at heading + 90 degrees), -1 the
 * other way. Returns false when the target is inside that circle (h < r: no tangent). */
static bool one_side(double x, double y, double heading, double tx, double ty, double r, double side,
                     ap_segment out[2], size_t *count, double *total)
{
    /* From the unit, not in map coordinates: tx - x is exact for a near target, where the circle's centre
     * in map coordinates is rounded at the coordinates' scale (a target an ulp away at x = 1e6 came out
     * inside both circles, and the fallback below turned on a radius of 2e-10 for r 0.1). */
    double dx = (tx - x) - r * cos(heading + side * M_PI_2), dy = (ty - y) - r * sin(heading + side * M_PI_2);
    double h = hypot(dx, dy);
    /* A target on the circle (h = r) may come out a rounding step inside (the centre's cos(heading + pi/2)
     * is ~6e-17 off): it is on it, reached by the arc alone. Refusing that side turned (0, 0, 0) -> (1, 1),
     * r 1, the left quarter arc of pi/2, into 7.64 tiles the other way round. */
    if (h < r - 1e-12 * fmax(1.0, r))
        return false;
    double d = sqrt(fmax(h * h - r * r, 0.0));
    double theta = acos(fmin(r / h, 1.0));
    double phi = atan2(dy, dx);
    /* Moving with increasing angle around P, the tangent toward T leaves at phi - theta; the other way at
     * phi + theta (Pinter writes the right turn with + in his axes). */
    double q = phi - side * theta;
    double a0 = heading - side * M_PI_2; /* the unit's angle on the circle now */
    double sweep = side * (q - a0);      /* angle to turn through, in the turn direction */
    sweep -= 2.0 * M_PI * floor(sweep / (2.0 * M_PI));
    /* A target dead ahead gives q == a0 up to rounding, which must not become a full circle; one a hair behind
     * needs the circle (the unit drives forward only), and snapping it away drove the line backwards under a
     * forward heading (r 1000, a target 4e-7 behind). */
    if (sweep > 2.0 * M_PI - 1e-9 && (tx - x) * cos(heading) + (ty - y) * sin(heading) >= 0.0)
        sweep = 0.0;
    size_t k = 0;
    double sx = x, sy = y;
    /* The arc goes unless it is negligible both as a distance and as a turn: one shorter than AP_CURVE_TINY
     * still turns the line after it, which would end sweep * d tiles aside of where it drives (a target
     * 10^6 tiles off, 1e-9 rad to one side, r 0.001: a whole turning radius). */
    if (sweep * r > AP_CURVE_TINY || sweep * d > AP_CURVE_TINY) {
        out[k] = ap_segment_arc(x, y, heading, r, side * sweep);
        sx = out[k].x1;
        sy = out[k].y1;
        k++;
    }
    if (hypot(tx - sx, ty - sy) > AP_CURVE_TINY) {
        out[k] = ap_segment_line(sx, sy, tx, ty);
        /* The line leaves along the circle's tangent: keep the arc's end heading exactly (G1 continuity);
         * atan2 of a very short line would only add rounding noise. */
        out[k].heading = k > 0 ? ap_segment_end_heading(&out[0]) : ap_angle_wrap(heading);
        k++;
    }
    *count = k;
    *total = r * sweep + d;
    return true;
}

size_t ap_curve_arc_line(double x, double y, double heading, double tx, double ty, double r, ap_segment out[2],
                         int *tightened)
{
    if (tightened != NULL)
        *tightened = 0;
    double dist = hypot(tx - x, ty - y);
    /* the same point: within AP_CURVE_TINY tiles, or AP_SAME_POSE turning radii as for Dubins (path.h) */
    if (!(dist > AP_CURVE_TINY) || (r > 0.0 && dist <= AP_SAME_POSE * r))
        return 0;
    double alpha = atan2(ty - y, tx - x) - heading;
    alpha -= 2.0 * M_PI * floor((alpha + M_PI) / (2.0 * M_PI)); /* [-pi, pi) */
    if (!(r > 0.0) || fabs(alpha) * dist < AP_CURVE_TINY) {
        out[0] = ap_segment_line(x, y, tx, ty);
        if (r > 0.0)
            out[0].heading = heading; /* dead ahead: no turn, keep the heading exactly */
        return 1;
    }
    /* Figure 5: compute both sides and keep the shorter one that exists. A side fails when the target is
     * inside its circle (h < r); the two circles touch only at the unit, so the other side always has a
     * tangent — a loop of more than half a turn, but one the unit can drive. We never turn tighter than r:
     * the answer promises arcs a unit with this turning radius can follow. */
    ap_segment left[2], right[2];
    size_t nl = 0, nr = 0;
    double ll = 0.0, lr = 0.0;
    bool okl = one_side(x, y, heading, tx, ty, r, 1.0, left, &nl, &ll);
    bool okr = one_side(x, y, heading, tx, ty, r, -1.0, right, &nr, &lr);
    if (okl || okr) {
        const ap_segment *best = okl && (!okr || ll <= lr) ? left : right;
        size_t n = best == left ? nl : nr;
        for (size_t i = 0; i < n; i++)
            out[i] = best[i];
        return n;
    }
    /* Only reachable through rounding (h < r on both sides at once): fall back to the single arc through
     * the target, Pinter's "Making tighter turns", and say so. */
    /* "Making tighter turns": the circle through the target tangent to the heading. By the tangent-chord
     * angle, it turns by 2 * alpha over a chord of length dist, so rho = dist / (2 sin|alpha|). A target
     * straight behind has no such circle; turn on a half circle of diameter dist instead. */
    if (tightened != NULL)
        *tightened = 1;
    double sweep, rho;
    if (fabs(sin(alpha)) < 1e-12) {
        sweep = M_PI;
        rho = dist / 2.0;
    } else {
        sweep = 2.0 * alpha;
        rho = dist / (2.0 * fabs(sin(alpha)));
    }
    out[0] = ap_segment_arc(x, y, heading, rho, sweep);
    /* The end point is the target up to rounding; make it exact so legs join exactly. */
    out[0].x1 = tx;
    out[0].y1 = ty;
    return 1;
}

size_t ap_curve_path(const double (*pts)[2], size_t n, double start_heading, int has_heading, double r,
                     ap_segment *out, size_t *tightened)
{
    if (tightened != NULL)
        *tightened = 0;
    if (n < 2)
        return 0;
    double heading = start_heading;
    if (!has_heading) {
        heading = 0.0;
        for (size_t i = 0; i + 1 < n; i++) {
            double dx = pts[i + 1][0] - pts[i][0], dy = pts[i + 1][1] - pts[i][1];
            if (hypot(dx, dy) > AP_CURVE_TINY) {
                heading = atan2(dy, dx);
                break;
            }
        }
    }
    size_t k = 0;
    double x = pts[0][0], y = pts[0][1];
    for (size_t i = 0; i + 1 < n; i++) {
        double tx = pts[i + 1][0], ty = pts[i + 1][1];
        if (!(hypot(tx - x, ty - y) > AP_CURVE_TINY))
            continue; /* duplicate waypoint */
        if (!(r > 0.0)) {
            out[k++] = ap_segment_line(x, y, tx, ty);
        } else {
            int tight = 0;
            size_t c = ap_curve_arc_line(x, y, heading, tx, ty, r, out + k, &tight);
            if (tight && tightened != NULL)
                (*tightened)++;
            if (c > 0)
                heading = ap_segment_end_heading(&out[k + c - 1]);
            k += c;
        }
        /* The next leg starts where this one ended (the target itself, exactly). */
        if (k > 0) {
            x = out[k - 1].x1;
            y = out[k - 1].y1;
        }
    }
    return k;
}
