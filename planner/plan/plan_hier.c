/* plan_hier.c — the hierarchical plan kind (ap_plan_kind_hier, plan_kind.h): "hierarchical", HAA*.
 *
 * begin: the abstract graph of the map (hier.h) answers the query for the unit's clearance class: start and
 * goal inserted, A* on the abstract graph, each abstract edge refined by a search inside one cluster
 * (ap_hier_path, HPA*'s refinement), all at begin (its cost is a few cluster-sized searches, far below a
 * slice of a whole-map search); finish is the grid kind's over that cell path (cell waypoints, smoothing,
 * curves, verdict). Start and goal under 128 tiles apart: whole-map A* first, for a few thousand
 * expansions (near_search: the graph detours to a border's entrances, A* answers such a query exactly).
 * Whole-map fallbacks: without a graph (a capability view, a map above AP_HIER_MAX_CELLS, an optional build
 * that failed), for a square unit, a disc above the largest class or a 4-connected query (the graph's
 * moves are 8-connected), or when the abstract search finds no
 * path (a class's graph is built for the class's largest radius: a smaller disc of the class may pass where
 * the graph has no way), the astar row's domain (plain, or Annotated A* for
 * sized discs: algorithms.c) runs over the whole map as the plan's time-sliced search, the plan handed to
 * the grid kind (complete: its no_path says unreachable): the answer is then annotated A*'s.
 *
 * Source: Harabor & Botea, CIG 2008, via Harabor, "Clearance-based Pathfinding" (reference 004): "refine the
 * abstract path into a low-level one"; Botea, Mueller & Schaeffer (HPA*, 2004) for the cluster-by-cluster
 * refinement.
 */
#include <stdlib.h>

#include "../grid/grid.h"
#include "../hier/hier.h"
#include "plan_kind.h"
#include "plan_steps.h"

/* Below AP_AUTO_HIER_MIN_TILES (algorithms.h: auto never runs hierarchical there) a query tries A* first
 * (near_search), for at most this many expansions: a 127-tile line in open ground takes a few hundred; ~0.1-0.3 ms on
 * the AMD machines of BENCHMARKS.md, about what the graph's insertion and abstract search cost. */
#define AP_HIER_NEAR_EXPANSIONS 4096

typedef struct hier_state {
    ap_hier_result path; /* the refined path when the graph answered (path.cells != NULL) */
} hier_state;

static void hier_release(ap_plan *p)
{
    hier_state *s = p->kind_state;
    if (s == NULL)
        return;
    free(s->path.cells);
    free(s);
    p->kind_state = NULL;
}

/* The unit's clearance class in m's graph, or -1 where the graph does not serve the query (no graph, a
 * square unit, a disc above the largest class, a 4-connected query: the graph's moves are 8-connected). */
static int graph_class(const ap_plan *p)
{
    const ap_hier *h = ap_hier_of(p->q.map); /* the unit's capability's view (plan.c): a view has no graph */
    return h != NULL && p->q.unit_size == 0 && p->q.connectivity == 8 ? ap_hier_class_of(h, p->q.unit_radius) : -1;
}

/* The graph's answer for class cls into s->path: AP_OK, AP_NO_PATH (no abstract path: the caller falls back
 * to the whole map), or an error (timeout, memory). */
static int graph_path(ap_plan *p, int cls, hier_state *s, ap_workspace *ws)
{
    const ap_map *m = p->q.map;
    int st = ap_hier_path(m, ap_hier_of(m), cls, p->start_node, p->goal_node, ws, p->deadline_ns, &s->path);
    p->expanded_before += s->path.expanded;
    return st;
}

/* Start the whole-map search of the astar row (plain, or Annotated A* for sized units) as the grid kind's:
 * from here on the plan is that search, reported as this row's. p->state: AP_IN_PROGRESS or an error. */
static int start_whole_map(ap_plan *p, ap_workspace *ws)
{
    p->kind = &ap_plan_kind_grid;
    /* the astar row's search from here on (p->alg still names hierarchical): the grid kind's retries for
     * other end cells (plan_grid.c other_ends) know its floods reach whole components; with this row they
     * took it for a jump point search and flooded the map again (a helper: 84,486 expansions, A* 41,199) */
    p->row = ap_algorithm_row_of(AP_ALG_ASTAR);
    int st = p->row->domain_init(&p->dom_ctx, &p->dom, &p->q, p->goal_node, p->deadline_ns);
    if (st != AP_OK)
        return p->state = st;
    return ap_plan_start_search(p, ws);
}

/* A query whose start and goal cells are under AP_AUTO_HIER_MIN_TILES apart (octile) first runs the whole-map
 * A* for up to AP_HIER_NEAR_EXPANSIONS expansions: the graph's paths enter a cluster only at its border's
 * entrances, so a short query across a border detours to one (one step on AR0011SR cost 13, lines of 12-128
 * tiles up to 25 % over the optimum, a helper's 6,000 comparisons on 2026-12-07), while A* answers such a
 * query exactly in a few hundred expansions in open ground (HPA*, Botea, Mueller & Schaeffer 2004: nearby
 * ends are better served by a search of the low level). A path found within them (or the deadline) is the
 * answer, as the astar row's; else the expansions count in the plan's and the graph answers.
 * AP_IN_PROGRESS: go on with the graph; else p->state. */
static int near_search(ap_plan *p, ap_workspace *ws)
{
    int32_t sx, sy, gx, gy;
    ap_map_coords(p->q.map, p->start_node, &sx, &sy);
    ap_map_coords(p->q.map, p->goal_node, &gx, &gy);
    if (ap_octile(abs(gx - sx), abs(gy - sy)) >= AP_AUTO_HIER_MIN_TILES)
        return AP_IN_PROGRESS;
    int st = start_whole_map(p, ws);
    if (st != AP_IN_PROGRESS)
        return st;
    st = ap_plan_search_step(p, AP_HIER_NEAR_EXPANSIONS);
    if (st != AP_IN_PROGRESS && st != AP_NO_PATH)
        return st;
    /* Not ended, or no path from the cells the ends took (a sized disc's off-centre end may take another,
     * plan_grid.c other_ends): the graph, and its whole-map fallback with those retries, answer. */
    p->expanded_before += p->search.expanded;
    p->has_search = false;
    p->kind = &ap_plan_kind_hier;
    p->row = ap_algorithm_row_of(AP_ALG_HIERARCHICAL);
    return p->state = AP_IN_PROGRESS;
}

static int hier_begin(ap_plan *p, const ap_algorithm_row *row, ap_workspace *ws)
{
    if (ap_plan_grid_decided(p, row))
        return p->state;
    const int cls = graph_class(p);
    if (cls < 0) /* the whole map at once (below) */
        return start_whole_map(p, ws);
    if (near_search(p, ws) != AP_IN_PROGRESS)
        return p->state;
    hier_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return p->state = AP_E_NOMEM;
    p->kind_state = s;
    int st = graph_path(p, cls, s, ws);
    if (st == AP_OK)
        return p->state = AP_OK;
    if (st != AP_NO_PATH)
        return p->state = st;
    /* The whole-map fallback is the grid kind's search from here on (a complete one: its no_path proves the
     * goal unreachable for the unit, plan.c), reported as this row's. */
    hier_release(p);
    return start_whole_map(p, ws);
}

/* The refined path when the graph answered (begin ended the plan), else the whole-map search's. */
static int hier_finish(ap_plan *p, ap_result *r)
{
    const hier_state *s = p->kind_state;
    if (s == NULL || s->path.cells == NULL)
        return ap_plan_grid_finish(p, r);
    r->grid_cost = s->path.cost;
    return ap_plan_cells_finish(p, r, s->path.cells, s->path.n_cells);
}

const ap_plan_kind ap_plan_kind_hier = {"hierarchical", hier_begin,     ap_plan_search_step, ap_plan_search_move,
                                        hier_finish,    hier_release, false, false, false, false, NULL, NULL};
