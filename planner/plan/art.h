/* art.h — fixed-angle character art: turn a path of lines and arcs into lines whose headings are all legal
 * art angles (multiples of 2*pi/N for N = 8 or 16 pre-rendered frames).
 *
 * Source: Pinter, "Toward More Realistic Pathfinding" (Game Developer, 2001), "Fixed-Angle Character Art",
 * Figures 14-15. Rounding the heading only when drawing makes the unit "slide"; instead the path itself is
 * rewritten so that the unit always moves in the direction it is drawn facing:
 *  - an arc becomes a polyline that follows the regular N-gon circumscribing the turning circle (each edge
 *    touches the circle at the point where the heading is a legal angle; Pinter's "bases of two right
 *    triangles" of inside angle pi/N), so it stays just outside the circle and the unit never turns tighter
 *    than its turning radius. The arc's own end points are kept: the polyline leaves the arc's start point
 *    at the legal heading just outside the circle (the one turned away from the centre) and reaches the
 *    arc's end point at the legal heading just past the end heading, so consecutive pieces still join;
 *  - a line whose heading is not legal becomes two lines at the two nearest legal headings meeting at one
 *    point (Pinter's slope/intercept intersection); of the two such routes (one on each side of the line)
 *    the one whose swept disc is clear is kept. When neither is, the line is replaced by a staircase of
 *    2m alternating pieces (m = 2, 4, ... while pieces stay at least 1/4 tile long), which hugs the
 *    original line within L*tan(pi/N)/(2m) tiles; if still nothing is clear, the two-line route Pinter
 *    uses is kept and the answer reports clear = false.
 * Reverse pieces stay reverse: the facing heading is legal exactly when the motion direction is (N is even).
 * The result is position-continuous; at every vertex the heading changes by at most 2*pi/N when the input
 * is G1 (reverse cusps excepted, where the facing heading is unchanged).
 */
#ifndef AP_ART_H
#define AP_ART_H

#include <stdbool.h>
#include <stddef.h>

#include "../world/world.h"
#include "../base/path.h"

/* Convert n segments (in, any mix of lines and arcs, forward or reverse) for N = directions (8 or 16) legal
 * art angles. Every output segment is a line (AP_SEG_LINE) whose heading is exactly
 * ap_angle_wrap(2*pi*k/N) for an integer k (computed, not measured, so it is a legal angle to within one
 * rounding step); lines shorter than 1e-12 tiles are dropped. The first output point is in[0]'s start and
 * the last is in[n-1]'s end, bit for bit. Clearance: w (any world, world.h; may be NULL = no world, then
 * the first of the two line routes is taken) and unit_radius (tiles, >= 0) choose between the line routes
 * with the exact ap_world_segment_clear; *clear (may be NULL) is set to whether the disc swept along every
 * output segment stays clear of w's obstacles and bounds (true when w is NULL). *out is malloc'd (caller frees; NULL with
 * *n_out = 0 when n is 0). Returns AP_OK, AP_E_INVALID_REQUEST for directions not 8|16, or AP_E_NOMEM.
 * Pure apart from the allocation; thread-safe. */
int ap_art_convert(const ap_world *w, double unit_radius, int directions, const ap_segment *in, size_t n,
                   ap_segment **out, size_t *n_out, bool *clear);

/* The index k in [0, N) of heading h (radians) when h is a legal art angle, i.e. |h - 2*pi*k/N| <= tol
 * modulo 2*pi; -1 otherwise. Pure. */
int ap_art_heading_index(double h, int directions, double tol);

#endif
