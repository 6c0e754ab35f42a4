/* path.h — path geometry: segments (lines and circular arcs) and poses along them.
 *
 * Units: positions in tiles (x = column, y = row), headings in radians from +x toward +y, lengths in tiles.
 * A path is an ordered array of segments, each starting where the previous one ends.
 */
#ifndef AP_PATH_H
#define AP_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* AP_SEG_TURN: a turn on the spot (kinodynamic units with a turn rate): x1 = x0, y1 = y0, `heading` the
 * heading at its start, `sweep` the signed rotation (radians, > 0 toward +y), length 0, radius 0. */
typedef enum ap_seg_type { AP_SEG_LINE = 0, AP_SEG_ARC = 1, AP_SEG_TURN = 2 } ap_seg_type;

typedef struct ap_segment {
    ap_seg_type type;
    double x0, y0;       /* start point */
    double x1, y1;       /* end point */
    double heading;      /* line: its heading; arc, turn: the heading at its start (start_heading) */
    double cx, cy;       /* arc only: centre */
    double radius;       /* arc only: radius (> 0) */
    double sweep;        /* arc, turn: signed radians, > 0 when the heading increases (turning toward +y) */
    double length;       /* line: |end - start|; arc: radius * |sweep| */
    bool reverse;        /* driven backwards (Reeds-Shepp): see ap_segment_drive for how heading, sweep and
                          * centre are encoded then */
} ap_segment;

/* A pose: position and heading. */
typedef struct ap_pose {
    double x, y, heading;
} ap_pose;

/* Make a line segment from (x0, y0) to (x1, y1); heading = atan2(dy, dx) (0 for a zero-length line).
 * Pure; thread-safe. */
ap_segment ap_segment_line(double x0, double y0, double x1, double y1);

/* Make an arc of radius r > 0 starting at (x0, y0) with heading h0, turning by sweep radians (sign = turn
 * direction: > 0 left in the y-down sense, i.e. heading increases). Centre and end point are derived (Pinter,
 * "Adding Realistic Turns": centre a quarter turn from the heading toward the turn side). Pure; thread-safe. */
ap_segment ap_segment_arc(double x0, double y0, double h0, double r, double sweep);

/* ap_segment_arc with sin(h0) and cos(h0) given (the same numbers when they are sin(h0) and cos(h0)), for
 * callers that make many arcs from one pose (the kinodynamic search's successors). Pure; thread-safe. */
ap_segment ap_segment_arc_sc(double x0, double y0, double h0, double sin_h0, double cos_h0, double r, double sweep);

/* A turn on the spot at (x, y) (tiles) from heading h (radians, stored wrapped) by sweep radians (AP_SEG_TURN,
 * length 0). Pure; thread-safe. */
ap_segment ap_segment_turn(double x, double y, double h, double sweep);

/* One driven piece of a Dubins or Reeds-Shepp word as a segment, starting at pose *p, which is advanced to
 * the piece's end. steer: +1 left (heading increases when driving forward), -1 right, 0 straight. len:
 * signed length in tiles, < 0 = driven in reverse (reverse = true). r > 0: turning radius (tiles; unused for
 * lines). Encoding of a reverse piece: `heading` is the direction the unit FACES (not the direction it
 * moves); a line's end is start - |len| (cos heading, sin heading); an arc's centre is on the steering side
 * of the facing heading (left for steer +1) exactly as when driving forward, and its sweep is the signed
 * change of the facing heading, steer * len / r (so a reverse left arc has a negative sweep with its centre
 * on the left). Start and end points are in driving order. Pure; thread-safe. */
ap_segment ap_segment_drive(ap_pose *p, int steer, double len, double r);

/* Snap a path's last segment onto the goal pose it reaches up to rounding: its end point becomes the
 * goal's; an arc's sweep (and length) absorbs the heading residue so start heading + sweep equals the goal
 * heading modulo 2pi to rounding; a line's length is recomputed. Pure; thread-safe. */
void ap_segment_snap_end(ap_segment *s, const ap_pose *goal);

/* Heading (radians) at the end of a segment (an arc's or a turn's start heading + sweep, wrapped to [-pi, pi);
 * a line's own heading). Pure; thread-safe. */
double ap_segment_end_heading(const ap_segment *s);

/* Pose at distance d (tiles, clamped to [0, length]) along one segment; a turn's is its point with its start
 * heading (ap_path_pose steps over turns: a distance past one gets the heading after it). An arc advances its
 * angle on the circle by d / r (Pinter, "Adding Realistic Turns", Listing 2); a line interpolates its stored
 * end points, so d = length gives the end point exactly. Pure; thread-safe. */
ap_pose ap_segment_pose(const ap_segment *s, double d);

/* The piece of segment s between distances d0 and d1 along it (tiles, 0 <= d0 <= d1 <= s->length): same
 * kind, radius, centre, turn direction and reverse flag; starts at ap_segment_pose(s, d0) with that pose's
 * heading and ends at ap_segment_pose(s, d1) (exactly s's start point when d0 = 0 and its end point when
 * d1 = s->length); length d1 - d0 (an arc's sweep carries s's sign). Pure; thread-safe. */
ap_segment ap_segment_sub(const ap_segment *s, double d0, double d1);

/* Pose at distance d along a whole path of n segments (Pinter, "Adding Realistic Turns", Listing 2:
 * walk the segments subtracting their lengths; on an arc the angle on the circle advances by d / r).
 * d is clamped to [0, total length]; d >= ap_path_length(segs, n) gives the last segment's stored end point
 * and end heading. n must be >= 1. Pure; thread-safe. */
ap_pose ap_path_pose(const ap_segment *segs, size_t n, double d);

/* Sum of the n segments' lengths (tiles; 0 for n = 0). Pure; thread-safe. */
double ap_path_length(const ap_segment *segs, size_t n);

/* An answer's waypoints w (n points [x, y], tiles) with every point equal to the one before dropped, in
 * place, but at least two kept when n >= 2 (start = goal: that point twice). Returns the new count. Pure. */
size_t ap_waypoints_dedupe(double (*w)[2], size_t n);

/* Poses closer than this are the same pose to the Dubins and Reeds-Shepp solvers (the empty path): positions
 * within AP_SAME_POSE turning radii and headings within AP_SAME_POSE radians of each other. Why: their closed
 * forms snap angles within 1e-12 of 2pi to 0 (so rounding never adds a loop), and below ~3e-12 radii the
 * loop a goal just behind the start needs is lost in that snap: without this tolerance such a goal got a
 * line of its own tiny length pointing the wrong way (a goal 1e-12 radii behind) instead of the loop. */
#define AP_SAME_POSE 1e-11

/* Above this magnitude (radians) ap_angle_wrap reduces through sin/cos instead of a - 2pi * k. Below it the
 * cheap form is within 1e-13 of the exact value (k * ulp(2pi) stays under 2e-14), and the curve code's hot
 * paths only ever pass angles of a few turns. */
#define AP_ANGLE_WRAP_FAST_MAX 1024.0

/* ap_angle_wrap for |a| > 3 (or NaN): the division and floor (and for huge a the exact reduction); right for
 * every a, radians in, [-pi, pi) out, non-finite a returned as it is. Pure; thread-safe. */
double ap_angle_wrap_far(double a);

/* Normalise an angle a (radians, any finite double) to [-pi, pi): the remainder of a by the true 2pi, not
 * by the double nearest it, so huge inputs (1e16, 1e308) still give the right direction (to about 1e-15).
 * Non-finite a is returned as it is. Inline for |a| <= 3, which is already inside and returned bit for bit
 * (the kinodynamic search wraps every successor's heading, millions a second). Pure; thread-safe. */
static inline double ap_angle_wrap(double a)
{
    return a >= -3.0 && a <= 3.0 ? a : ap_angle_wrap_far(a);
}

#endif
