/* algorithms.h — the algorithm table: one row per search algorithm, the single source of its wire name, its
 * ap_algorithm value, what it accepts and the plan kind that runs it.
 *
 * Readers: proto/wire.c parses search.algorithm through ap_algorithm_find (its error message lists the
 * table's names); ap_query_validate (plan.h) reads the `needs` column; ap_plan_begin runs row->kind
 * (plan_kind.h); tests check that proto/openapi.yaml's enum lists exactly these names.
 *
 * Adding an algorithm:
 *  - built in: its own file (e.g. a domain and a domain_init hook for a grid-domain search, or a new plan
 *    kind), one registration line (its value in ap_algorithm, plan.h) and one row in ap_algorithms[]
 *    (algorithms.c), plus its name in proto/openapi.yaml's enum (a test enforces it);
 *  - from outside the planner (a test fixture, an experiment): its own file holding a caller-owned
 *    ap_algorithm_row, handed to ap_plan_begin_with (plan.h), which validates against that row and runs its
 *    kind. A grid-domain algorithm names ap_plan_kind_grid and brings domain_init (and bind / expand_path
 *    when its search nodes need them); the grid kind does the rest (waypoints, smoothing, curves, samples).
 *    tests/planner/plan/fixture_dijkstra.c is such a row: Dijkstra = the grid domain with a zero heuristic.
 */
#ifndef AP_ALGORITHMS_H
#define AP_ALGORITHMS_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"

/* What an algorithm needs of a query (ap_algorithm_row.needs); ap_query_validate refuses the rest. */
enum {
    AP_NEEDS_TURNING = 1u << 0, /* unit.turning_radius > 0 (legal-turn searches); field unit.turning_radius */
    AP_NEEDS_CONN8 = 1u << 1,   /* search.connectivity 8 (jump point pruning is 8-connected); search.algorithm */
    AP_NEEDS_UNIFORM = 1u << 2, /* a uniform-cost map (!map->weighted): pruning / curve costs assume every move
                                 * of a given length costs the same; field search.algorithm */
};

/* One algorithm. Rows are immutable and shared by every thread. */
typedef struct ap_algorithm_row {
    const char *name;                   /* wire name, e.g. "jps_plus" */
    ap_algorithm id;                    /* the value q->algorithm names it by (plan.h); a caller row outside
                                         * the table uses AP_ALG_COUNT (p->alg then holds that) */
    unsigned needs;                     /* AP_NEEDS_* */
    const struct ap_plan_kind *kind;    /* who runs it (plan_kind.h) */
    int variant;                        /* the kind's parameter: for the turns kind the Directional A*
                                         * neighbourhood (8, 24, 48), 0 = the hybrid pipeline; else 0 */
    /* Grid-domain hooks (kind = &ap_plan_kind_grid; NULL for other kinds). domain_init fills *dom with a
     * domain over q->map toward the goal cell `goal` (padded index, map.h) whose context lives in *ctx
     * (the plan's inline storage); deadline_ns is the plan's (CLOCK_MONOTONIC ns, 0 = none): a domain
     * whose tables are built on first use (jps_plus for sized units) gives their build ap_build_until of it
     * and does without them when it is not done; returns AP_OK or an AP_E_* status. bind (optional)
     * points the domain at the workspace its search runs on, before every search start. expand_path
     * (optional) turns the
     * search's node path into every cell in between, as ap_jps_expand_path does (returns the count; writes
     * at most cap ids to out, none when out is NULL; 0 on a broken path). */
    int (*domain_init)(ap_plan_dom_ctx *ctx, ap_domain *dom, const ap_query *q, uint32_t goal, uint64_t deadline_ns);
    void (*bind)(ap_plan_dom_ctx *ctx, const ap_workspace *ws);
    size_t (*expand_path)(const ap_map *m, const uint32_t *nodes, size_t n, uint32_t *out, size_t cap);
} ap_algorithm_row;

/* The built-in table, in the order the wire lists the names in its error message. */
extern const ap_algorithm_row ap_algorithms[];
extern const size_t ap_algorithm_count;

/* The row whose wire name is name (exact, case-sensitive), or NULL. Pure. */
const ap_algorithm_row *ap_algorithm_find(const char *name);

/* The row of algorithm id, or NULL when no row has it. Pure. */
const ap_algorithm_row *ap_algorithm_row_of(ap_algorithm id);

/* The plan kind (plan_kind.h) that will run q: its algorithm's row's kind, with "auto" resolved for q's unit
 * and map (ap_plan_kind_anyangle when ap_query_auto_may_anyangle, ap_plan_kind_turns for turning units, else the
 * kind of the grid row auto picks: ap_plan_kind_grid, or ap_plan_kind_hier for long sized-disc queries). NULL
 * when q->algorithm has no row or q names neither a map nor a circle world. The kind is static. For callers
 * that treat kinds differently, e.g. the server runs only grid plans inline. Pure; thread-safe. */
const struct ap_plan_kind *ap_algorithm_kind(const ap_query *q);

/* True when q's unit is a square of side 2 or more, or a disc too large for some legal grid moves (radius >=
 * AP_GRID_SIZED_MIN_RADIUS, grid/grid.h) on a map whose clearance table applies: its grid searches are
 * Annotated A* over the clearance table (astar) and jump point search on the grid as the unit sees it
 * (jps, jps_plus: grid/jps_sized.h). Pure. */
bool ap_query_is_sized(const ap_query *q);

/* True when "auto" answers q with any_angle, or would once the map's disc graph is built: circle worlds,
 * per-query obstacles, and long queries (AP_AUTO_AA_MIN_TILES of octile distance, algorithms.c) of point
 * units and discs on maps whose any_angle table serves them. A grid search auto began for such a query must
 * not refuse what any_angle, which starts and ends at the points themselves, would answer. Pure. */
bool ap_query_auto_may_anyangle(const ap_query *q);

/* The clearance table a sized disc unit's grid search reads (its capability's: the map's or view's own,
 * map.h ap_map.capability), borrowed from the map; NULL when the unit is small enough for the plain grid
 * (radius below AP_GRID_SIZED_MIN_RADIUS), is a square, plans on a circle map, or the table could not be
 * built. Pure. */
const struct ap_clearance_table *ap_query_disc_table(const ap_query *q);

/* Octile distance (tiles, between start and goal cells) from which auto runs hierarchical for a sized disc
 * (algorithms.c auto_hier) and under which hierarchical itself tries A* first (plan_hier.c near_search). */
#define AP_AUTO_HIER_MIN_TILES 128.0

#endif
