/* tangent.c — bitangents, hugging sweeps and crossings (tangent.h).
 *
 * Source: Red Blob Games, "Circular Obstacle Pathfinding", "Generating surfing edges": Red Blob derives the
 * internal bitangents from the angle theta = acos((rA + rB) / d) and the external ones from
 * acos((rA - rB) / d); here both come from one formula indexed by the senses at the two ends, which is what
 * cusp culling needs (each directed surfing edge knows how it leaves and enters its circles).
 */
#include "tangent.h"

#include <math.h>

bool ap_bitangent_of(double x1, double y1, double r1, int s1, double x2, double y2, double r2, int s2,
                     ap_bitangent *out)
{
    double dx = x2 - x1, dy = y2 - y1;
    double d = hypot(dx, dy);
    double q = (double)s2 * r2 - (double)s1 * r1;
    if (!(d > 0.0) || fabs(q) > d + AP_TANGENT_SLACK)
        return false;
    if (fabs(q) > d)
        q = q > 0.0 ? d : -d;
    /* The centre sits on the sense's side of the line at distance r: c = P + s r n with n = (-sin h, cos h),
     * so n . (c2 - c1) = s2 r2 - s1 r1 = q, i.e. d sin(phi - h) = q, and travel from P1 to P2 needs
     * cos(phi - h) >= 0. */
    double h = atan2(dy, dx) - asin(q / d);
    double nx = -sin(h), ny = cos(h);
    out->h = atan2(sin(h), cos(h));
    out->x0 = x1 - (double)s1 * r1 * nx;
    out->y0 = y1 - (double)s1 * r1 * ny;
    out->x1 = x2 - (double)s2 * r2 * nx;
    out->y1 = y2 - (double)s2 * r2 * ny;
    out->len = sqrt(fmax(d * d - q * q, 0.0));
    return true;
}

double ap_hug_sweep(double h_in, double h_out, int s)
{
    /* fmod returns its argument exactly when |t| < 2 pi (headings from atan2 always): skip the libm call
     * there (~5 % of a point query's instructions), the same value. */
    double t = (double)s * (h_out - h_in);
    if (!(t < 2.0 * M_PI && t > -2.0 * M_PI))
        t = fmod(t, 2.0 * M_PI);
    if (t < 0.0)
        t += 2.0 * M_PI;
    if (t > 2.0 * M_PI - 1e-9 || t >= 2.0 * M_PI)
        t = 0.0;
    return t;
}

static double cross3(double ax, double ay, double bx, double by, double px, double py)
{
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

bool ap_segments_cross(double x1, double y1, double x2, double y2, double x3, double y3, double x4, double y4)
{
    double o1 = cross3(x1, y1, x2, y2, x3, y3), o2 = cross3(x1, y1, x2, y2, x4, y4);
    /* Most pairs the search asks about do not cross: without strictly opposite signs no tolerance can make
     * them a crossing, so the lengths (two hypot calls) wait until they can matter. */
    if (!((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0)))
        return false;
    double o3 = cross3(x3, y3, x4, y4, x1, y1), o4 = cross3(x3, y3, x4, y4, x2, y2);
    if (!((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0)))
        return false;
    double l1 = hypot(x2 - x1, y2 - y1), l2 = hypot(x4 - x3, y4 - y3);
    double tiny = 1e-12 * (l1 * l2 + l1 * l1 + l2 * l2);
    return ((o1 > tiny && o2 < -tiny) || (o1 < -tiny && o2 > tiny)) &&
           ((o3 > tiny && o4 < -tiny) || (o3 < -tiny && o4 > tiny));
}
