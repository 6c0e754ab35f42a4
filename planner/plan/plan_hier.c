/* plan_hier.c — the hierarchical plan kind (ap_plan_kind_hier, plan_kind.h): "hierarchical", HAA*.
 *
 * begin: the abstract graph of the map (hier.h) answers the query for the unit's clearance class: start and
 * goal inserted, A* on the abstract graph, each abstract edge refined by a search inside one cluster
 * (ap_hier_path, HPA*'s refinement), all at begin (its cost is a few cluster-sized searches, far below a
 * slice of a whole-map search); finish is the grid kind's over that cell path (cell waypoints, smoothing,
 * curves, verdict).
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

#include "../hier/hier.h"
#include "plan_kind.h"
#include "plan_steps.h"

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

/* The graph's answer for the unit's class into s->path: AP_OK, AP_NO_PATH (no graph, no class, or no
 * abstract path: the caller falls back to the whole map), or an error (timeout, memory). */
static int graph_path(ap_plan *p, hier_state *s, ap_workspace *ws)
{
    const ap_map *m = p->q.map; /* the unit's capability's view (plan.c): a view has no graph of its own */
    const ap_hier *h = ap_hier_of(m);
    const int cls =
        h != NULL && p->q.unit_size == 0 && p->q.connectivity == 8 ? ap_hier_class_of(h, p->q.unit_radius) : -1;
    if (cls < 0)
        return AP_NO_PATH;
    int st = ap_hier_path(m, h, cls, p->start_node, p->goal_node, ws, p->deadline_ns, &s->path);
    p->expanded_before += s->path.expanded;
    return st;
}

static int hier_begin(ap_plan *p, const ap_algorithm_row *row, ap_workspace *ws)
{
    if (ap_plan_grid_decided(p, row))
        return p->state;
    hier_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return p->state = AP_E_NOMEM;
    p->kind_state = s;
    int st = graph_path(p, s, ws);
    if (st == AP_OK)
        return p->state = AP_OK;
    if (st != AP_NO_PATH)
        return p->state = st;
    /* The whole-map fallback is the grid kind's search from here on (a complete one: its no_path proves the
     * goal unreachable for the unit, plan.c), reported as this row's. */
    hier_release(p);
    p->kind = &ap_plan_kind_grid;
    st = ap_algorithm_row_of(AP_ALG_ASTAR)->domain_init(&p->dom_ctx, &p->dom, &p->q, p->goal_node, p->deadline_ns);
    if (st != AP_OK)
        return p->state = st;
    return ap_plan_start_search(p, ws);
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
