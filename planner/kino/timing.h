/* timing.h — the time-optimal speed profile of a vehicle (vehicle.h) along a fixed path of segments (lines
 * and arcs, base/path.h), for answers whose geometry another search made (grid, legal-turn, any-angle):
 * the classic forward / backward velocity-limit pass over the path's arc length.
 *
 * The model (README "Speed along any path" states it for users):
 *  - speed cap per segment: max_speed on a line; min(max_speed, sqrt(max_lateral_accel * r)) on an arc of
 *    radius r (metres), so v^2 / r <= max_lateral_accel holds everywhere on it. On a reverse segment
 *    max_reverse_speed takes max_speed's place (when the vehicle has one, else max_speed);
 *  - a corner (a heading discontinuity between consecutive segments, more than AP_TIMING_CORNER radians: the
 *    corners of grid and any-angle paths) and a cusp (forward followed by reverse or the other way round)
 *    are driven through at speed 0: the unit stops there and turns on the spot;
 *  - the start speed is given; the end speed is at most v_end_max (the goal's speed, 0 by default);
 *  - speeding up at most max_accel, slowing down at most max_brake, along the arc length.
 * The fastest profile under these limits is min(forward, backward) at every point, where forward is the
 * speed reached by accelerating as hard as allowed from the start (capped by each segment and corner) and
 * backward the speed from which the vehicle can still brake to every later cap (Formula 2.3: v1^2 =
 * v0^2 + 2 a s). On one segment with boundary speeds u and w and cap c that is min(c, sqrt(u^2 + 2 a s),
 * sqrt(w^2 + 2 b (L - s))): an accelerating piece, a cruising piece at c, a braking piece, each with
 * constant acceleration, which become the output's pieces (a segment is split where its acceleration
 * changes; a piece shorter than AP_TIMING_TINY tiles is merged into its neighbour, or into the neighbour's
 * nearest AP_TIMING_TINY tiles when it is longer, whose acceleration the merge averages, so every limit still
 * holds and the time stays within microseconds of the fastest at a metre a tile). A segment shorter than
 * AP_TIMING_TINY tiles is driven at the speed of its ends (from rest: accelerate, then brake), and a join's
 * heading change is measured between the nearest segments of at least that length on either side.
 *
 * Sources: Schnieders, "AIPATH: Movement Planning in Physically Constrained Domains", 2014, chapter 2
 * (Formulas 2.1-2.3, uniformly accelerated motion: v = v0 + a t, s = v0 t + a t^2 / 2, v^2 = v0^2 + 2 a s);
 * the forward / backward velocity-limit pass of time-optimal path following (Bobrow, Dubowsky and Gibson,
 * "Time-optimal control of robotic manipulators along specified paths", IJRR 1985, in its point-mass form).
 *
 * Units: lengths of segments in tiles, converted with meters_per_tile; speeds in m/s, accelerations in
 * m/s^2, times in seconds. Pure functions; thread-safe.
 */
#ifndef AP_KINO_TIMING_H
#define AP_KINO_TIMING_H
#include <stdbool.h>
#include <stddef.h>

#include "../base/path.h"
#include "vehicle.h"

/* The time along one segment of a timed answer: constant acceleration from v_start to v_end. */
typedef struct ap_seg_time {
    double v_start, v_end; /* m/s */
    double t_start;        /* seconds from the start of the path */
    double duration;       /* seconds */
} ap_seg_time;

/* Heading change (radians) between consecutive segments above which the join is a corner (speed 0). The
 * joins of curved paths (Pinter's curves, Dubins and Reeds-Shepp words, legal-turn edges) agree to ~1e-9. */
#define AP_TIMING_CORNER 1e-6

/* Pieces and segments shorter than this (tiles, whatever meters_per_tile: the heading and length a client
 * measures from a segment's printed tile coordinates are noise below it) are merged or driven at their ends'
 * speed, and their headings do not make corners (see above). */
#define AP_TIMING_TINY 1e-6

/* Seconds to drive len metres at constant acceleration from v0 to v1 m/s (v0 + v1 > 0): 2 len / (v0 + v1)
 * (Formulas 2.1 and 2.2 with a eliminated). Pure. */
double ap_timing_duration(double len, double v0, double v1);

/* The speed cap (m/s) of segment s for vehicle v on a map of meters_per_tile: top on a line,
 * min(top, sqrt(max_lateral_accel * radius * meters_per_tile)) on an arc, where top is max_reverse_speed on a
 * reverse segment of a vehicle that has one, else max_speed. Pure. */
double ap_timing_cap(const ap_vehicle *v, double meters_per_tile, const ap_segment *s);

/* True when the join from segment a to segment b is a corner or cusp the unit stops at: |heading change| >
 * AP_TIMING_CORNER, or a.reverse != b.reverse. Pure. */
bool ap_timing_is_corner(const ap_segment *a, const ap_segment *b);

/* The time-optimal speed profile of vehicle v (limits > 0 and finite) along segs[0 .. n-1] (each starting
 * where the previous one ends; meters_per_tile > 0), starting at v_start m/s (>= 0) and ending at a speed
 * <= v_end_max m/s (>= 0), as described in the file comment.
 * Output: *out_segs and *out_time (malloc'd, caller frees both; also on n = 0) get *out_n pieces: the input
 * segments in order, split where the acceleration changes (ap_segment_sub), zero-length segments (below
 * 1e-12 tiles) left out; piece i drives out_segs[i] with constant acceleration from out_time[i].v_start to
 * v_end, starting out_time[i].t_start seconds after the start, for duration > 0 seconds. *duration gets the
 * total time.
 * Returns AP_OK; AP_E_NOMEM (outputs NULL); AP_E_INVALID_REQUEST when no motion within the limits starts at
 * v_start (above the first segment's cap, too fast to brake for the first corner or lower cap, or above
 * v_end_max on a path of no length): then
 * *v_start_max (optional) gets the highest start speed that works and the outputs are NULL. */
int ap_timing_profile(const ap_vehicle *v, double meters_per_tile, const ap_segment *segs, size_t n, double v_start,
                      double v_end_max, ap_segment **out_segs, ap_seg_time **out_time, size_t *out_n,
                      double *duration, double *v_start_max);

/* ap_timing_profile into caller-owned buffers: os and ot hold at least 3 n + 1 entries each (a segment splits
 * into at most 3 pieces); *out_n gets how many were written (0 on an error). The same numbers as
 * ap_timing_profile, without its allocations for up to 8 segments (the kinodynamic search's analytic edge
 * times a 3-piece curve per expansion near the goal). Returns AP_OK, AP_E_INVALID_REQUEST (as
 * ap_timing_profile) or AP_E_NOMEM (scratch for more than 8 segments). Pure; thread-safe. */
int ap_timing_profile_into(const ap_vehicle *v, double meters_per_tile, const ap_segment *segs, size_t n,
                           double v_start, double v_end_max, ap_segment *os, ap_seg_time *ot, size_t *out_n,
                           double *duration, double *v_start_max);

/* ap_timing_profile_into without the pieces' segments: ot (at least 3 n + 1 entries), *out_n, *duration and
 * *v_start_max get exactly what ap_timing_profile_into writes there (the same code path), but no piece is cut
 * out of its segment (each arc piece's end point costs a sin and cos). For callers that need the time or the
 * feasibility first and the geometry only sometimes (the kinodynamic search's analytic edge, analytic.h).
 * Same returns as ap_timing_profile_into. Pure; thread-safe. */
int ap_timing_profile_times(const ap_vehicle *v, double meters_per_tile, const ap_segment *segs, size_t n,
                            double v_start, double v_end_max, ap_seg_time *ot, size_t *out_n, double *duration,
                            double *v_start_max);

#endif
