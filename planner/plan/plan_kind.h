/* plan_kind.h — a plan kind: the ops table behind ap_plan_begin/step/move/finish/release (plan.h).
 *
 * plan.c keeps the public API and what every plan shares (validation, the region check, fixed-angle art,
 * samples) and dispatches the rest through p->kind. A kind is one file and one value of this struct; the
 * algorithm table (algorithms.h) says which kind runs which algorithm. Kinds today: the grid kind
 * (plan_grid.c: astar, jps, jps_plus and caller grid-domain rows), the legal-turn kind (plan_dir.c:
 * directional8/24/48, hybrid, auto for turning units), the any-angle kind (plan_anyangle.c), the
 * kinodynamic kind (plan_kino.c), the hierarchical kind (plan_hier.c: HAA*) and auto (algorithms.c: picks
 * one of the others at begin).
 *
 * Contract, every op running on the plan's owner thread:
 *  begin(p, row, ws): p is zeroed but for q, deadline_ns, cancel, start_node / goal_node (the start and goal
 *    cells) and kind / row (= this kind, the row); the query is valid and start and goal share a region.
 *    Start the work (usually a search on ws via ap_plan_start_search, plan_steps.h), set p->alg, and
 *    return the plan state (AP_IN_PROGRESS, AP_OK, AP_NO_PATH or an AP_E_* refusal with p->field /
 *    p->message). A kind may hand the plan to another kind by setting p->kind (and p->row) and calling its
 *    begin (auto does).
 *  step(p, max_expansions): run at most max_expansions expansions (0 = to the end); return the state.
 *  move(p, ws): restart the unfinished work on ws; expansions spent go to p->expanded_before.
 *  finish(p, r): for an AP_OK plan, fill r's geometry: waypoints, segments (ap_plan_set_segments),
 *    grid_cost, length, clear; return AP_OK or an AP_E_* status (r is then freed by the caller).
 *  art_world(p, w, r): optional, for an AP_OK plan after finish and before release: the world fixed-angle
 *    art is judged in (below).
 *  release(p): free what the kind holds outside the workspace (kind_state); idempotent; may be NULL.
 */
#ifndef AP_PLAN_KIND_H
#define AP_PLAN_KIND_H

#include <stdbool.h>
#include <stdint.h>

#include "algorithms.h"
#include "plan.h"
#include "../world/world.h"

typedef struct ap_plan_kind {
    const char *name; /* for messages and debugging: "grid", "turns", "auto", ... */
    int (*begin)(ap_plan *p, const ap_algorithm_row *row, ap_workspace *ws);
    int (*step)(ap_plan *p, uint64_t max_expansions);
    int (*move)(ap_plan *p, ap_workspace *ws);
    int (*finish)(ap_plan *p, ap_result *r);
    void (*release)(ap_plan *p);
    /* Its expansions are cheap and it builds no per-unit tables at begin, so a slice of a few thousand
     * expansions takes well under a millisecond (grid searches): callers may run such a slice on a
     * latency-critical thread (ap_query_slice_is_cheap). */
    bool cheap_slice;
    /* Its search is complete (it explores everything reachable before it gives up: the grid kind over the
     * whole map), so AP_NO_PATH proves the goal unreachable (ap_result.no_path_reason). */
    bool complete;
    /* Its search cost charges search.turn_penalty (its states have a heading); the validation refuses a
     * turn penalty for kinds without it rather than ignore it. */
    bool turn_penalty;
    /* It plans on circle worlds (q->circles) and with per-query obstacles (q->obstacles); the validation
     * refuses both for the other kinds. */
    bool circle_worlds;
    /* Optional (NULL: AP_TIMEOUT): stop the search now and set p->state to AP_OK when the kind can answer
     * with what it has found (ap_plan_stop), else AP_TIMEOUT; returns the state. */
    int (*stop)(ap_plan *p);
    /* Optional (NULL: ap_plan_world, world.h's strict rule at the unit's radius): the world *w and radius
     * *r (tiles) fixed-angle art (art.h) chooses its routes in and takes its `clear` verdict from, for a
     * finished plan (after finish, before release, so *w may borrow what the kind still holds: valid until
     * release). The plan's owner thread. Why: a kind whose answers live in another model (any_angle's
     * closure of free space, where a path may touch obstacles) must judge their art in that model, or every
     * art line that touches where the path touches fails. */
    void (*art_world)(const ap_plan *p, ap_world *w, double *r);
} ap_plan_kind;

/* Grid-domain searches (plan_grid.c): runs row->domain_init's domain with A*, then cell waypoints,
 * smoothing (Pinter Listing 1) and turning-radius curves (Pinter Figures 5-6). */
extern const ap_plan_kind ap_plan_kind_grid;

/* The grid kind's finish (plan_grid.c): p->search's cell path (expanded by p->row->expand_path when set) into
 * cell waypoints, smoothing, curves and the verdict; for kinds whose search is a grid domain (plan_hier.c).
 * Fills r's arrays (r owns them); returns AP_OK, AP_E_NOMEM, or AP_E_INTERNAL for a node path expand_path
 * cannot expand. The plan's owner thread, before its workspace is reused. */
int ap_plan_grid_finish(ap_plan *p, ap_result *r);

/* Before a grid search (every grid kind's begin, also for start and goal in one cell): first, for a disc of
 * any radius, the disc at the start and goal points themselves (plan_steps.h ap_plan_ends_fit: where it
 * overlaps an obstacle, AP_E_START_BLOCKED / AP_E_GOAL_BLOCKED with the exact message, as any_angle's). Then,
 * for a sized disc (algorithms.h ap_query_disc_table: radius from AP_GRID_SIZED_MIN_RADIUS up) whose ends
 * are in different cells: the search leaves from and ends at cell centres through moves whose swept disc is
 * clear (Harabor's Annotated A*), so an end cell whose centre's disc clearance does not let the unit through
 * could only end in no_path, after flooding the goal's component (Pinter, "Path Failure"). Such an end, and
 * one whose centre holds the disc but not the line from the point to it (a corner close by), moves to the
 * neighbour cell (8 around; 4 for a 4-connected search) whose centre holds the disc and is joined to the
 * point by a clear line,
 * nearest by line plus octile distance to the other end (p->start_node / goal_node, p->start_snapped /
 * goal_snapped: the path then passes that centre, ap_plan_cells_finish; where that search ends in no_path,
 * the grid kind's step tries the other cells serving either end before it proves no_path, plan_grid.c
 * other_ends); with none, the refusal names the
 * cell and its clearance (an end whose own centre holds the disc keeps it instead) — except under "auto"
 * for a query it may answer with any_angle later (algorithms.h ap_query_auto_may_anyangle), whose search
 * goes on. AP_OK otherwise (also for point and square units). Reads p->q; writes p->start_node,
 * p->goal_node, the snapped flags, p->field and p->message: the plan's owner thread. */
int ap_plan_grid_ends_fit(ap_plan *p);

/* The start of every grid kind's begin (plan_grid.c, plan_hier.c): sets p->alg from row, runs
 * ap_plan_grid_ends_fit, and returns true when that decides the plan without a search, p->state then
 * holding the answer: the refusal, or AP_OK when start and goal share a node (one cell, or both ends moved
 * to one). False when a search is needed (p->state untouched). Writes p: the plan's owner thread. */
bool ap_plan_grid_decided(ap_plan *p, const ap_algorithm_row *row);

/* The grid kind's finish from a cell path already found: nodes[0 .. n-1] (padded cell ids, start .. goal,
 * every move between neighbours; n = 1 or nodes NULL for start == goal) into cell waypoints (the start
 * point, the centres between, the goal point; an end cell's centre too where the path needs it: a snapped
 * end's, and a disc's whose line from the point to the next centre is not clear while the line to that
 * centre is), smoothing, curves and the verdict. r->grid_cost is the caller's to set. Returns AP_OK or AP_E_NOMEM.
 * nodes is borrowed; r's arrays are r's. Reads p only: the plan's owner thread. */
int ap_plan_cells_finish(const ap_plan *p, ap_result *r, const uint32_t *nodes, size_t n);

/* HAA* (plan_hier.c): the abstract graph's path refined cluster by cluster (hier.h ap_hier_path); the grid
 * kind's finish. */
extern const ap_plan_kind ap_plan_kind_hier;

/* Legal-turn searches (plan_dir.c): Directional8/24/48 and the hybrid pipeline with auto's escalation. */
extern const ap_plan_kind ap_plan_kind_turns;

/* Exact any-angle paths (plan_anyangle.c): the tangent visibility graph (anyangle.h) on grid maps and
 * circle worlds, per-query obstacles included; lines and arcs. */
extern const ap_plan_kind ap_plan_kind_anyangle;

/* Kinodynamic searches (plan_kino.c): A* in (x, y, heading, speed) with cost in seconds (kino.h). */
extern const ap_plan_kind ap_plan_kind_kino;
/* "auto" (algorithms.c): hands the plan to the any_angle kind for the queries ap_query_auto_may_anyangle names
 * (a disc's once its graph is built), to the turns kind for turning units, else to the grid kind with jps_plus
 * (8-connected, uniform-cost) or astar, or to the hier kind for long sized-disc queries (algorithms.c
 * auto_grid_row). */
extern const ap_plan_kind ap_plan_kind_auto;

#endif
