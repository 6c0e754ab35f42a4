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
 *  - a line A -> B whose heading is not legal becomes pieces at the two nearest legal headings lo and hi
 *    (B - A = tl u_lo + th u_hi): the first of these routes whose swept disc is clear, in this order (few
 *    pieces first; at most 2 + 126 routes of up to three pieces, 4 per staircase fineness, then one lattice
 *    search; steps 2-4 are ours, for lines that pass obstacles on both sides):
 *     1. Pinter's two lines meeting at one point (his slope/intercept intersection), one route on each side
 *        of the line; the one whose first frame the unit shows already first, as in every step below;
 *     2. three lines that switch sides: f a, g t_g, f (t_f - a) (f, g = lo, hi or hi, lo), leaving A on f's
 *        side, crossing the line once at the share sigma = a / t_f of the way (1/2, then 1/4, 3/4, 1/8, ...
 *        63/64) and reaching B from g's side. Why: a one-sided route leaves A and reaches B on the same side,
 *        so it cannot follow a line that touches obstacles on opposite sides at its two ends (an any-angle
 *        path's internal bitangent): near such an end it deviates linearly toward the obstacle, which curves
 *        away only quadratically. The finer shares find the crossing when a third obstacle nearly touches
 *        the line close to one end;
 *     3. staircases of m = 2, 4, ... 64 steps while pieces stay at least ART_MIN_STAIR (1/4 tile) long: 2m
 *        alternating pieces on one side, which hug the line within L*tan(pi/N)/(2m) tiles, then the
 *        switching staircase (the same shifted by half a step: 2m + 1 pieces, the end ones half as long and
 *        also at least 1/4 tile);
 *     4. the lattice route: the monotone path in steps of tl / ml along lo and th / mh along hi (ml, mh at
 *        most 64, steps at least 1/4 tile unless one step covers a heading's whole extent) whose every step
 *        is clear, with the fewest pieces (dynamic programming, at most 2 (ml + 1) (mh + 1) line tests): it
 *        crosses the line wherever and as often as the obstacles beside it ask.
 *    If still nothing is clear (or there is no world: route 1 is taken untested), Pinter's two lines are
 *    kept and the answer reports clear = false.
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
 * output segment stays clear of w's obstacles and bounds (true when w is NULL). w is the world of the
 * answer's own model (plan_kind.h art_world): world.h's strict rule for most answers; for an any_angle
 * answer of a unit without a turning radius a view of its graph (anyangle/graph.h: touching allowed), so
 * that *clear says every output line is usable in the model the path itself is clear in. Arcs are drawn
 * without a test (the N-gon stays outside the arc's circle). *out is malloc'd (caller frees; NULL with
 * *n_out = 0 when n is 0). Returns AP_OK, AP_E_INVALID_REQUEST for directions not 8|16, or AP_E_NOMEM.
 * Pure apart from the allocation and w's reads; thread-safe when w is (world.h: an immutable context). */
int ap_art_convert(const ap_world *w, double unit_radius, int directions, const ap_segment *in, size_t n,
                   ap_segment **out, size_t *n_out, bool *clear);

/* The index k in [0, N) of heading h (radians) when h is a legal art angle, i.e. |h - 2*pi*k/N| <= tol
 * modulo 2*pi; -1 otherwise. Pure. */
int ap_art_heading_index(double h, int directions, double tol);

#endif
