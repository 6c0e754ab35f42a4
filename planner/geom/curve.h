/* curve.h — turning-radius curves (Pinter, "Adding Realistic Turns", Figures 5-6, and "Legal Turns: The
 * Basic Methods", "Simple solution: ignoring blocked tiles").
 */
#ifndef AP_CURVE_H
#define AP_CURVE_H

#include <stddef.h>

#include "../base/path.h"

/* Shortest arc+line from pose (x, y, heading) to point (tx, ty) for turning radius r > 0 with a free final
 * heading (Pinter, "Adding Realistic Turns", Figures 5-6): turn left or right on the circle of radius r,
 * leave it on the tangent through the target, go straight; both sides are computed and the shorter one that
 * exists is kept. A target inside the circle on its own side is reached by the loop the other way round, so
 * every arc has radius exactly r. Writes 1 or 2 segments into out (an arc of zero sweep is dropped) and
 * returns their count. *tightened (may be NULL) is set to 1 only in the degenerate case rounding leaves no
 * tangent on either side, when a single arc of smaller radius through the target is used instead ("Making
 * tighter turns"); else 0. A target at the current position (within 1e-12 tiles, or AP_SAME_POSE turning
 * radii: path.h) gives 0 segments. Pure; thread-safe. */
size_t ap_curve_arc_line(double x, double y, double heading, double tx, double ty, double r, ap_segment out[2],
                         int *tightened);

/* Turn a waypoint polyline into segments for a unit with turning radius r (0 = straight lines, turning on
 * the spot). From each waypoint the unit keeps the heading it arrived with (start_heading at the first,
 * or, if has_heading is 0, the direction of the first leg) and follows ap_curve_arc_line to the next.
 * out must hold 2 * (n - 1) segments; returns the count written. Sets *tightened to the number of legs that
 * needed a radius below r (may be NULL). Pure; thread-safe. */
size_t ap_curve_path(const double (*pts)[2], size_t n, double start_heading, int has_heading, double r,
                     ap_segment *out, size_t *tightened);

#endif
