/* fuzz.c — ap_wire_parse_curve_request (POST /v1/curve bodies) on arbitrary bytes, then what the route does
 * with an accepted request: the curve of its model and the answer's encoding. A valid request must never
 * make a 500 (the curve exists, is finite and encodable: issue "live worlds" item 5), and the curve must
 * start at the start pose and end at the goal point (and goal heading, for Dubins and Reeds-Shepp). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planner/geom/curve.h"
#include "planner/geom/dubins.h"
#include "planner/geom/reeds_shepp.h"
#include "proto/curve.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/wire_error.h"

#define PI 3.14159265358979323846

/* Distance tolerance for the curve's ends: relative to the scale of the request (coordinates up to 1e6). */
static double tol_for(const ap_curve_request *q)
{
    double s = fmax(fmax(fabs(q->start.x), fabs(q->start.y)), fmax(fabs(q->goal.x), fabs(q->goal.y)));
    return 1e-6 * fmax(1.0, fmax(s, q->turning_radius));
}

static double heading_gap(double a, double b)
{
    return fabs(ap_angle_wrap(a - b));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ap_curve_request q;
    ap_wire_error err;
    int rc = ap_wire_parse_curve_request((const char *)data, size, &q, &err);
    if (rc != AP_OK) {
        ap_fuzz_check_wire_error(rc, &err);
        return 0;
    }
    if (err.status != AP_OK)
        abort();
    /* the documented ranges: finite, |x|, |y| <= AP_CURVE_MAX_COORD, headings wrapped to [-pi, pi) */
    const ap_pose *ps[2] = {&q.start, &q.goal};
    for (int k = 0; k < 2; k++) {
        if (!(fabs(ps[k]->x) <= AP_CURVE_MAX_COORD) || !(fabs(ps[k]->y) <= AP_CURVE_MAX_COORD))
            abort();
        if ((k == 0 || q.has_goal_heading) && !(ps[k]->heading >= -PI && ps[k]->heading < PI))
            abort();
    }
    if (!(q.turning_radius >= AP_CURVE_MIN_TURNING_RADIUS && q.turning_radius <= AP_CURVE_MAX_TURNING_RADIUS))
        abort();
    if (q.model != AP_CURVE_PINTER && !q.has_goal_heading)
        abort();

    ap_segment segs[AP_RS_MAX_PIECES];
    size_t n;
    if (q.model == AP_CURVE_DUBINS) {
        ap_dubins d;
        if (ap_dubins_shortest(&q.start, &q.goal, q.turning_radius, &d) != 0)
            abort();
        n = ap_dubins_segments(&d, &q.goal, segs);
    } else if (q.model == AP_CURVE_REEDS_SHEPP) {
        ap_reeds_shepp p;
        if (ap_reeds_shepp_shortest(&q.start, &q.goal, q.turning_radius, &p) != 0)
            abort();
        n = ap_reeds_shepp_segments(&p, &q.goal, segs);
    } else {
        n = ap_curve_arc_line(q.start.x, q.start.y, q.start.heading, q.goal.x, q.goal.y, q.turning_radius, segs,
                              NULL);
    }
    double tol = tol_for(&q);
    if (n > 0) {
        if (hypot(segs[0].x0 - q.start.x, segs[0].y0 - q.start.y) > tol ||
            hypot(segs[n - 1].x1 - q.goal.x, segs[n - 1].y1 - q.goal.y) > tol)
            abort();
        if (q.model != AP_CURVE_PINTER && heading_gap(ap_segment_end_heading(&segs[n - 1]), q.goal.heading) > 1e-6)
            abort();
    }
    double length = ap_path_length(segs, n);
    if (!isfinite(length) || length < 0.0)
        abort();
    size_t len = 0;
    char *body = ap_wire_encode_curve(q.model, "", length, segs, n, &len);
    if (body == NULL || len == 0)
        abort();
    free(body);
    return 0;
}
