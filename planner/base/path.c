/* path.c — segment geometry and poses along a path.
 *
 * Source: Pinter, "Toward More Realistic Pathfinding", "Adding Realistic Turns": segments are lines or arcs;
 * an arc keeps its centre, starting angle on the circle and swept radians; Listing 2 walks the segments to
 * find the pose at a distance.
 */
#include "path.h"

#include <math.h>

double ap_angle_wrap_far(double a)
{
    /* (|a| <= 3 is inside already: path.h returns it; for it the formula below gives floor(...) = 0 and a
     * itself, bit for bit, so this function is right for every a.) */
    if (!isfinite(a))
        return a;
    if (fabs(a) > AP_ANGLE_WRAP_FAST_MAX) {
        /* a - 2pi * k loses every digit once k * ulp(2pi) nears pi (1e16 rad came back ~1 rad off, and a
         * wrong heading drew a wrong path). libm's sin and cos reduce their argument exactly (Payne-Hanek),
         * so atan2 of them is the angle mod the true 2pi, correctly rounded to about an ulp. */
        double r = atan2(sin(a), cos(a));
        return r >= M_PI ? -M_PI : r;
    }
    double r = a - 2.0 * M_PI * floor((a + M_PI) / (2.0 * M_PI));
    /* floor() can leave r a rounding step outside [-pi, pi) for a just below an odd multiple of pi. */
    if (r >= M_PI)
        r -= 2.0 * M_PI;
    if (r < -M_PI)
        r += 2.0 * M_PI;
    return r;
}

ap_segment ap_segment_line(double x0, double y0, double x1, double y1)
{
    const double dx = x1 - x0, dy = y1 - y0, len = hypot(dx, dy);
    return (ap_segment){.type = AP_SEG_LINE, .x0 = x0, .y0 = y0, .x1 = x1, .y1 = y1, .length = len,
                        .heading = len > 0.0 ? atan2(dy, dx) : 0.0};
}

ap_segment ap_segment_arc(double x0, double y0, double h0, double r, double sweep)
{
    return ap_segment_arc_sc(x0, y0, h0, sin(h0), cos(h0), r, sweep);
}

ap_segment ap_segment_arc_sc(double x0, double y0, double h0, double sin_h0, double cos_h0, double r, double sweep)
{
    ap_segment s = {.type = AP_SEG_ARC, .x0 = x0, .y0 = y0, .heading = h0, .radius = r, .sweep = sweep,
                    .length = r * fabs(sweep)};
    /* The centre lies a quarter turn from the heading toward the turn side; the unit sits at angle
     * h0 - side*pi/2 on the circle and that angle advances with the heading. */
    double side = sweep >= 0.0 ? 1.0 : -1.0;
    s.cx = x0 - side * r * sin_h0;
    s.cy = y0 + side * r * cos_h0;
    double a0 = h0 - side * M_PI_2;
    s.x1 = s.cx + r * cos(a0 + sweep);
    s.y1 = s.cy + r * sin(a0 + sweep);
    return s;
}

ap_segment ap_segment_turn(double x, double y, double h, double sweep)
{
    return (ap_segment){.type = AP_SEG_TURN, .x0 = x, .y0 = y, .x1 = x, .y1 = y, .heading = ap_angle_wrap(h),
                        .sweep = sweep};
}

ap_segment ap_segment_drive(ap_pose *p, int steer, double len, double r)
{
    ap_segment s = {0};
    s.x0 = p->x;
    s.y0 = p->y;
    s.heading = ap_angle_wrap(p->heading);
    s.reverse = len < 0.0;
    s.length = fabs(len);
    if (steer == 0) {
        s.type = AP_SEG_LINE;
        s.x1 = p->x + len * cos(p->heading);
        s.y1 = p->y + len * sin(p->heading);
    } else {
        s.type = AP_SEG_ARC;
        s.radius = r;
        s.sweep = steer * len / r;
        s.cx = p->x - steer * r * sin(p->heading);
        s.cy = p->y + steer * r * cos(p->heading);
        /* The unit sits at angle heading - steer*pi/2 on its circle; that angle turns with the heading,
         * forward or reverse alike. */
        double a1 = p->heading - steer * M_PI_2 + s.sweep;
        s.x1 = s.cx + r * cos(a1);
        s.y1 = s.cy + r * sin(a1);
        p->heading += s.sweep;
    }
    p->x = s.x1;
    p->y = s.y1;
    return s;
}

void ap_segment_snap_end(ap_segment *s, const ap_pose *goal)
{
    s->x1 = goal->x;
    s->y1 = goal->y;
    if (s->type == AP_SEG_ARC) {
        s->sweep += ap_angle_wrap(goal->heading - (s->heading + s->sweep));
        s->length = s->radius * fabs(s->sweep);
    } else {
        s->length = hypot(s->x1 - s->x0, s->y1 - s->y0);
    }
}

double ap_segment_end_heading(const ap_segment *s)
{
    return s->type != AP_SEG_LINE ? ap_angle_wrap(s->heading + s->sweep) : s->heading;
}

ap_pose ap_segment_pose(const ap_segment *s, double d)
{
    if (!(d > 0.0))
        d = 0.0;
    if (d > s->length)
        d = s->length;
    ap_pose p;
    if (s->type == AP_SEG_ARC && s->radius > 0.0) {
        /* Listing 2: the angle on the circle advances by d / r in the turn direction; the heading is that
         * angle plus a quarter turn toward the turn side (equivalently start heading + turned angle). */
        double dir = s->sweep >= 0.0 ? 1.0 : -1.0;
        /* The centre is on the side the heading turns toward when driving forward; a reverse arc turns
         * the facing heading the other way round the same centre (see ap_segment_drive). */
        double side = s->reverse ? -dir : dir;
        double t = dir * d / s->radius;
        double a = s->heading - side * M_PI_2 + t;
        p.x = s->cx + s->radius * cos(a);
        p.y = s->cy + s->radius * sin(a);
        p.heading = ap_angle_wrap(s->heading + t);
        if (d >= s->length) {
            p.x = s->x1;
            p.y = s->y1;
        }
    } else {
        /* Interpolating between the stored end points (instead of Listing 2's start + d * (cos, sin)) hits
         * the end point exactly, so consecutive segments join without rounding gaps. */
        double f = s->length > 0.0 ? d / s->length : 0.0;
        p.x = s->x0 + (s->x1 - s->x0) * f;
        p.y = s->y0 + (s->y1 - s->y0) * f;
        p.heading = s->heading;
        if (f >= 1.0) { /* x0 + (x1 - x0) need not round to x1 */
            p.x = s->x1;
            p.y = s->y1;
        }
    }
    return p;
}

ap_segment ap_segment_sub(const ap_segment *s, double d0, double d1)
{
    ap_segment o = *s;
    /* each end's pose only where it moves (a pose on an arc costs a sin and cos) */
    if (d0 > 0.0) {
        const ap_pose a = ap_segment_pose(s, d0);
        o.x0 = a.x;
        o.y0 = a.y;
        o.heading = a.heading;
    }
    if (d1 < s->length) {
        const ap_pose b = ap_segment_pose(s, d1);
        o.x1 = b.x;
        o.y1 = b.y;
    }
    o.length = d1 - d0;
    if (s->type == AP_SEG_ARC && s->radius > 0.0)
        o.sweep = (s->sweep >= 0.0 ? 1.0 : -1.0) * o.length / s->radius;
    return o;
}

ap_pose ap_path_pose(const ap_segment *segs, size_t n, double d)
{
    if (!(d > 0.0))
        d = 0.0;
    /* Listing 2: step over segment lengths until the distance falls inside one. The lengths are summed in
     * ap_path_length's order (not subtracted from d), so d = ap_path_length(segs, n) reaches the stored end
     * point exactly instead of stopping a rounding step short of it. */
    double c0 = 0.0;
    for (size_t i = 0; i < n; i++) {
        const double c1 = c0 + segs[i].length;
        if (d < c1)
            return ap_segment_pose(&segs[i], d - c0);
        c0 = c1;
    }
    ap_pose p = ap_segment_pose(&segs[n - 1], segs[n - 1].length);
    p.heading = ap_segment_end_heading(&segs[n - 1]);
    return p;
}

double ap_path_length(const ap_segment *segs, size_t n)
{
    double L = 0.0;
    for (size_t i = 0; i < n; i++)
        L += segs[i].length;
    return L;
}

size_t ap_waypoints_dedupe(double (*w)[2], size_t n)
{
    size_t k = n > 0 ? 1 : 0;
    for (size_t i = 1; i < n; i++) {
        if (w[i][0] == w[k - 1][0] && w[i][1] == w[k - 1][1] && !(i + 1 == n && k < 2))
            continue;
        w[k][0] = w[i][0];
        w[k][1] = w[i][1];
        k++;
    }
    return k;
}
