/* turning.h — any-angle paths for turning units (a unit of radius r_u with a minimum turning radius R > 0):
 * the tangent visibility graph with hug circles never tighter than R, and Dubins curves joined at the ends
 * for start and goal headings.
 *
 * The model (docs/anyangle.md "Turning units"). The graph (graph.h) runs its line-of-sight tests for a disc
 * of radius r' = ap_aa_turn_clearance(r_u) (just above r_u) while its hug circles are grown to
 * rho = ap_aa_turn_radius(r_u, R) = max(R, r') (ap_aa_graph_grow_hugs: a grid corner's circle has radius
 * rho, a circle world's obstacle max(r_k + r', rho)). So every arc of an answer hugs a circle of radius >= rho >= R,
 * every join is G1 (a surfing edge leaves an arc along its heading; start and goal are radius-0 circles,
 * where the path leaves and arrives along a line), and every line and arc keeps the centre at least
 * r' - 1e-7 > r_u from every obstacle, so the unit's disc is clear by world.h's strict rule. A line may pass
 * anywhere the unit's disc fits (a gap wider than 2 r_u, a start beside a wall); only the bends are held to
 * circles of radius rho round the corners. The answer is the shortest path of that graph with free end
 * headings: legal for the turning unit, never shorter than the r_u-disc's shortest path, never longer than the
 * rho-disc's (docs/anyangle.md), but not the shortest legal path (which may bend round a corner on
 * a circle of radius R not centred on it, or turn back in a loop: crossing-edge culling drops self-crossing
 * paths). When R <= r' it is the r'-disc's shortest path.
 *
 * Headings (ap_aa_turn_join): a start heading is honoured by the shortest Dubins curve (dubins.h, radius R)
 * from the start pose to a pose on the graph path (its point and heading at distance d along it), the rest
 * of the path kept from there; a goal heading likewise from a pose on the path to the goal pose. Candidate
 * distances every R / 4 along the path (at most AP_AA_JOIN_CANDIDATES, evenly spread beyond that) and the
 * ends of its segments, tried in order of the joined path's length, the first whose curve the caller's
 * clearance test passes is taken; with both headings the single Dubins curve from start pose to goal pose is
 * a candidate too. Not optimal: the shortest of these candidates only. An end without a heading may be
 * shortcut the same way by Pinter's arc+line (curve.h, radius R: from the start with a free heading to a pose
 * on the path, or from a pose on the path to the goal with a free final heading) when that is shorter and
 * clear (at most AP_AA_FREE_TESTS candidates tested per end; else the path's own end): a start or goal
 * inside the circle of radius rho round a corner cannot leave along a tangent of it, and the graph then
 * detours where the unit may simply curve away.
 */
#ifndef AP_AA_TURNING_H
#define AP_AA_TURNING_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/path.h"

/* How much more than r_u the graph's tests' radius is (tiles): they allow touching up to 1e-7 (graph.h), so
 * the answer clears r_u by world.h's strict rule. */
#define AP_AA_TURN_MARGIN 1e-6
/* Most candidate join distances per end. */
#define AP_AA_JOIN_CANDIDATES 512
/* Most shortcut candidates (ends without a heading) tested for clearance per end. */
#define AP_AA_FREE_TESTS 64

/* The radius a turning unit's graph tests lines and arcs at: max(r_u + AP_AA_TURN_MARGIN,
 * AP_AA_GRID_MIN_RADIUS) (tiles; r_u >= 0). Pure. */
double ap_aa_turn_clearance(double r_u);

/* The radius of a turning unit's hug circles round grid corners (circle worlds: added to each obstacle's):
 * rho = max(R, ap_aa_turn_clearance(r_u)) (tiles; R > 0). Pure. */
double ap_aa_turn_radius(double r_u, double R);

/* Does the path s[0 .. n) (n >= 1; lines and arcs) keep the unit clear? (the caller's exact test) */
typedef bool (*ap_aa_clear_fn)(void *ctx, const ap_segment *s, size_t n);

/* The graph path segs[0 .. n) (lines and arcs from (sx, sy) to (gx, gy); n = 0 when start == goal) with the
 * end headings honoured: sheading (radians) when has_sh, gheading when has_gh, by Dubins curves of radius
 * R > 0 (tiles) checked with clear(ctx, ...) as above; an end without a heading keeps the path's own end
 * or takes a shorter clear arc+line shortcut (above). *out: malloc'd segments (caller frees; NULL when *n_out is 0), starting at
 * (sx, sy) with heading sheading (within rounding) and ending at (gx, gy) with heading gheading, both
 * points bit for bit when segs starts and ends there.
 * Returns AP_OK, AP_NO_PATH (no candidate's curve is clear for an end with a heading) or AP_E_NOMEM.
 * O(candidates) curves and at most that many clearance tests per end. Pure apart from clear; thread-safe. */
int ap_aa_turn_join(const ap_segment *segs, size_t n, double sx, double sy, double gx, double gy, bool has_sh,
                    double sheading, bool has_gh, double gheading, double R, ap_aa_clear_fn clear, void *ctx,
                    ap_segment **out, size_t *n_out);

#endif
