/* zone.c — corridor mode's free space over another world (zone.h). */
#include "zone.h"

#include <math.h>

double ap_zone_distance(const ap_zone *z, double x, double y)
{
    double best = INFINITY;
    for (size_t i = 0; i + 1 < z->n; i++) {
        const double ax = z->pts[i][0], ay = z->pts[i][1], dx = z->pts[i + 1][0] - ax, dy = z->pts[i + 1][1] - ay;
        const double len2 = dx * dx + dy * dy;
        double t = len2 > 0.0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0.0;
        t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
        const double d = hypot(x - (ax + t * dx), y - (ay + t * dy));
        if (d < best)
            best = d;
    }
    return best;
}

static bool zone_point(const ap_zone *z, double x, double y, double r)
{
    return isfinite(x) && isfinite(y) && r >= 0.0 && ap_zone_distance(z, x, y) + r < z->half;
}

/* The zone's rule along segment s (zone.h): from a pose whose slack (half - r - distance) is g > 0 the next
 * g tiles along s cannot reach the limit (the distance is 1-Lipschitz along s), so the walk jumps by g;
 * a slack of AP_ZONE_MARGIN or less is "not clear". */
static bool zone_segment(const ap_zone *z, const ap_segment *s, double r)
{
    if (!(s->length >= 0.0) || !isfinite(s->length) || !(r >= 0.0))
        return false;
    for (double d = 0.0, steps = 0.0;; steps++) {
        if (steps > 1e6)
            return false; /* a curve hugging the limit for kilometres: not clear rather than a long walk */
        const ap_pose p = ap_segment_pose(s, d);
        const double slack = z->half - r - ap_zone_distance(z, p.x, p.y);
        if (!(slack > AP_ZONE_MARGIN))
            return false;
        if (d >= s->length)
            return true;
        d = fmin(d + slack, s->length);
    }
}

static bool zw_point(const void *ctx, double x, double y, double r)
{
    const ap_zone *z = ctx;
    return zone_point(z, x, y, r) && ap_world_point_clear(&z->inner, x, y, r);
}

static bool zw_line(const void *ctx, double ax, double ay, double bx, double by, double r)
{
    const ap_zone *z = ctx;
    const ap_segment s = ap_segment_line(ax, ay, bx, by);
    return zone_segment(z, &s, r) && ap_world_line_clear(&z->inner, ax, ay, bx, by, r);
}

static bool zw_segment(const void *ctx, const ap_segment *s, double r)
{
    const ap_zone *z = ctx;
    return zone_segment(z, s, r) && ap_world_segment_clear(&z->inner, s, r);
}

/* Outside the zone 0; inside it the inner world's region. Different ids still prove that no path joins two
 * points (the zone lies inside the inner world), but, unlike world.h's contract, equal ids do not promise a
 * path inside the zone: nothing reads this world's regions for a proof (corridor mode plans kinodynamic
 * searches only, whose no_path is always not_found). */
static uint32_t zw_region(const void *ctx, double x, double y)
{
    const ap_zone *z = ctx;
    return zone_point(z, x, y, 0.0) ? z->inner.ops->region(z->inner.ctx, x, y) : 0;
}

static const void *zw_table(const void *ctx, const char *name)
{
    (void)ctx;
    (void)name;
    return NULL; /* the inner world's tables do not know the zone */
}

static const ap_world_ops zone_ops = {zw_point, zw_line, zw_segment, zw_region, zw_table};

void ap_zone_world(ap_zone *z, const ap_world *inner, ap_world *out)
{
    z->inner = *inner;
    *out = (ap_world){&zone_ops, z, inner->width, inner->height};
}
