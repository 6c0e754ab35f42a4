/* plan_steps.h — the steps every plan kind shares (plan_kind.h): starting a search on a workspace, copying
 * a node path out of it, cell waypoints, the swept-disc verdict over segments, the answer's geometry, and
 * pose samples. Each exists once here; kinds call them. Thread: the plan's owner (the functions on maps
 * and segments alone are pure).
 *
 * Source: Pinter, "Toward More Realistic Pathfinding": "Path Failure and Timeslicing" (searches on a
 * workspace, restarted elsewhere), "Adding Realistic Turns" (Listing 2: poses along the path).
 */
#ifndef AP_PLAN_STEPS_H
#define AP_PLAN_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../world/world.h"
#include "plan.h"
#include "../world/world.h"

/* Begin search s on ws over dom from start to goal with the plan's deadline and cancel flag. Returns AP_OK
 * or the ap_search_begin status. */
int ap_plan_search_begin(const ap_plan *p, ap_search *s, ap_workspace *ws, const ap_domain *dom, uint32_t start,
                         uint32_t goal);

/* The plan's own search: p->search on ws over p->dom from p->start_node to p->goal_node. Sets has_search
 * and the plan state; returns it (AP_IN_PROGRESS, or the ap_search_begin error). */
int ap_plan_start_search(ap_plan *p, ap_workspace *ws);

/* Run p->search for at most max_expansions expansions (0 = to the end); the plan state, returned. */
int ap_plan_search_step(ap_plan *p, uint64_t max_expansions);

/* Restart p->search on ws (Pinter's slow matrix): the expansions spent so far go to expanded_before. Returns
 * the plan state as ap_plan_start_search does. */
int ap_plan_search_move(ap_plan *p, ap_workspace *ws);

/* The node path of a finished search s (start .. goal), copied out of its workspace: malloc'd array of *n
 * ids (caller frees; *n 0 when s did not end AP_OK), or NULL when out of memory. */
uint32_t *ap_plan_path_nodes(const ap_search *s, size_t *n);

/* The same for the best path found so far to `node` in any state of s (search.h ap_search_path_to: *n 0 when
 * s has not reached it): what a search stopped by its cap answers. */
uint32_t *ap_plan_path_nodes_to(const ap_search *s, uint32_t node, size_t *n);

/* The point (tiles) a grid search's node stands for: the centre of cell `node` (padded id), or for a square
 * unit of size k (q->unit_size) the centre of the footprint anchored there, anchor + k / 2. Pure. */
void ap_plan_node_centre(const ap_query *q, uint32_t node, double *x, double *y);

/* Waypoints of a grid path of n cells (padded ids): the exact start point, the centres of the nodes in
 * between (ap_plan_node_centre), the exact goal point; max(n, 2) points [x, y] in tiles, malloc'd (caller
 * frees), count in *nw. NULL when out of memory. */
double (*ap_plan_cell_waypoints(const ap_query *q, const uint32_t *nodes, size_t n, size_t *nw))[2];

/* Give r the n segments (malloc'd; r owns them now), their total length, and the clearance verdict of the
 * query's world (ap_plan_world, ap_world_path_clear): the unit swept along every segment, or at the start
 * point when there is none. */
void ap_plan_set_segments(ap_result *r, const ap_query *q, ap_segment *segs, size_t n);

/* The world a query's unit is judged in (smoothing, the `clear` verdict, art), and the size to hand its
 * tests in *r: a circle world (q->map NULL) its own view (ap_circle_world_view; per-query obstacles are not
 * in it) with r = q->unit_radius; for a square unit (q->unit_size k > 0) the square world of q->map
 * (grid_world.h ap_square_world) with r = k / 2; else the grid world of q->map (its cheap-terrain view when
 * cheap, grid_world.h) with r = q->unit_radius. q->map is the capability's view in a plan. Writes only *w
 * and *r. Pure. */
void ap_plan_world(const ap_query *q, bool cheap, ap_world *w, double *r);

/* The unit (its disc, or a square unit's square) at the point (x, y) tiles, clear in the query's world
 * (ap_plan_world, not the cheap view): the closed shape shares no point with an obstacle or the world's
 * edge (collide.h). Pure; thread-safe. */
bool ap_plan_unit_fits_at(const ap_query *q, double x, double y);

/* The unit swept along the line from (ax, ay) to (bx, by) tiles, clear in the query's world (as
 * ap_plan_unit_fits_at: the world's exact line test, collide.h / square.h). Pure; thread-safe. */
bool ap_plan_unit_line_clear(const ap_query *q, double ax, double ay, double bx, double by);

/* A refusal found while planning (st AP_E_START_BLOCKED or AP_E_GOAL_BLOCKED, any other st is returned as it
 * is): the unit's disc (q->unit_radius > 0 tiles) does not fit at the start or goal, whose cell or point
 * validation has found free, or a point there is not. Names the field in p->field and says why in
 * p->message (a disc that overlaps; a point inside or on an obstacle or edge). Returns st. */
int ap_plan_end_blocked(ap_plan *p, int st);

/* Both ends of a disc unit (q->unit_radius > 0 tiles, no square), and with points true of a point unit too:
 * the unit at the start point, then at the goal point, clear (ap_plan_unit_fits_at: closed, so a point on a
 * blocked cell's edge, the map's edge or an obstacle circle is not), else ap_plan_end_blocked's refusal. For
 * the kinds whose path begins and ends at the points themselves (the grid kinds' first and last lines, the
 * legal-turn curves, which pass points too): a unit that overlaps an obstacle where it stands could only get
 * a path it cannot drive, or no_path after a flood. AP_OK for square units, and for points unless points.
 * Reads p->q; writes p->field and p->message on refusal. */
int ap_plan_ends_fit(ap_plan *p, bool points);

/* Poses every q->sample_step tiles along r's segments from 0, and at the very end (Pinter Listing 2), at
 * most q->max_samples (0 = AP_DEFAULT_MAX_SAMPLES), into r->samples (malloc'd, owned by r). Returns AP_OK,
 * AP_E_NOMEM, or AP_E_INVALID_REQUEST with the counts in r->message when more poses would result. */
int ap_plan_samples(ap_result *r, const ap_query *q);

/* The time-optimal speed profile of q->vehicle along r's segments (kino/timing.h ap_timing_profile): from
 * q->start_speed to at most q->goal_speed, stopping at every corner and cusp, and at the start when
 * q->has_sheading and the first segment heads elsewhere (the unit turns on the spot: start.speed must then
 * be 0) and at the end when q->has_gheading and the last segment ends heading elsewhere; start and goal
 * speeds are forward speeds, so a first segment driven in reverse needs start.speed 0 and a last one ends
 * at rest. Replaces
 * r->segments by the pieces (split where the acceleration changes), sets r->timing, r->duration_s and
 * r->length (their sum); waypoints and `clear` stay (same geometry). Returns AP_OK, AP_E_NOMEM, or
 * AP_E_INVALID_REQUEST with the reason and the highest possible start speed in r->message when no motion
 * within the limits starts at q->start_speed (r unchanged then). */
int ap_plan_timing(ap_result *r, const ap_query *q);

/* Poses in time (Pinter Listing 2 in time): every q->sample_dt seconds from 0 along r's timed segments
 * (r->timing, constant acceleration along each: distance v0 t + a t^2 / 2, speed v0 + a t) and at the very
 * end (t = r->duration_s), at most q->max_samples (0 = AP_DEFAULT_MAX_SAMPLES); on a turn on the spot (AP_SEG_TURN) the
 * heading turns at a constant rate over its duration. Fills r->samples and
 * r->sample_times (distance, time, speed; both malloc'd, owned by r). Returns AP_OK, AP_E_NOMEM, or
 * AP_E_INVALID_REQUEST (message in r->message) for too many samples or an answer without timing. */
int ap_plan_samples_timed(ap_result *r, const ap_query *q);

#endif
