/* plan_hier.c — the hierarchical plan kind (ap_plan_kind_hier, plan_kind.h): "hierarchical", HAA*.
 *
 * begin: the abstract graph of the map (hier.h) gives the corridor of clusters between start and goal for the
 * unit's clearance class (start and goal inserted, A* on the abstract graph); the refinement is the astar
 * row's own domain (plain, or Annotated A* for sized discs: algorithms.c) restricted to that corridor, run and
 * time-sliced as the plan's search; finish is the grid kind's (cell waypoints, smoothing, curves, verdict).
 * Without a graph (a capability view, a map above AP_HIER_MAX_CELLS, an optional build that failed), for a
 * square unit or a disc above the largest class, or when the abstract search finds no path (its entrances are
 * incomplete for sized units), the refinement runs over the whole map: the answer is then annotated A*'s.
 *
 * Source: Harabor & Botea, CIG 2008, via Harabor, "Clearance-based Pathfinding" (reference 004): "refine the
 * abstract path into a low-level one". Not complete (a corridor can miss a path) so no_path says not_found
 * unless the region table proved it (plan.c).
 */
#include <stdlib.h>

#include "../hier/hier.h"
#include "plan_kind.h"
#include "plan_steps.h"

typedef struct hier_state {
    ap_domain inner; /* the astar row's domain; its ctx is p->dom_ctx */
    const ap_map *m;
    const ap_hier *h;
    uint8_t *mask;   /* per cluster: in the corridor */
} hier_state;

static int corr_succ(const void *ctx, uint32_t u, ap_succ *out)
{
    const hier_state *s = ctx;
    const int n = s->inner.successors(s->inner.ctx, u, out);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (s->mask[ap_hier_cluster_of(s->m, s->h, out[i].node)])
            out[k++] = out[i];
    return k;
}

static double corr_h(const void *ctx, uint32_t u, uint32_t g)
{
    const hier_state *s = ctx;
    return s->inner.heuristic(s->inner.ctx, u, g);
}

static void hier_release(ap_plan *p)
{
    hier_state *s = p->kind_state;
    if (s == NULL)
        return;
    free(s->mask);
    free(s);
    p->kind_state = NULL;
}

static int hier_begin(ap_plan *p, const ap_algorithm_row *row, ap_workspace *ws)
{
    p->alg = row->id;
    if (p->start_node == p->goal_node)
        return p->state = AP_OK;
    hier_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return p->state = AP_E_NOMEM;
    p->kind_state = s;
    int st = ap_algorithm_row_of(AP_ALG_ASTAR)->domain_init(&p->dom_ctx, &s->inner, &p->q, p->goal_node);
    if (st != AP_OK)
        return p->state = st;
    p->dom = s->inner;
    s->m = p->q.map;
    s->h = ap_hier_of(s->m);
    const int cls = s->h != NULL && p->q.unit_size == 0 ? ap_hier_class_of(s->h, p->q.unit_radius) : -1;
    if (cls >= 0) {
        ap_hier_scratch scr;
        s->mask = calloc((size_t)s->h->cw * (size_t)s->h->ch, 1);
        if (s->mask == NULL || ap_hier_scratch_init(&scr) != AP_OK)
            return p->state = AP_E_NOMEM;
        double cost;
        uint64_t expanded;
        st = ap_hier_corridor(s->m, s->h, cls, p->start_node, p->goal_node, ws, &scr, p->deadline_ns, s->mask, &cost,
                              &expanded);
        ap_hier_scratch_free(&scr);
        p->expanded_before += expanded;
        if (st == AP_OK) {
            p->dom.ctx = s;
            p->dom.successors = corr_succ;
            p->dom.heuristic = corr_h;
            p->dom.run = NULL; /* a wrapper: the generic loop over the filtered successors */
        } else if (st != AP_NO_PATH) {
            return p->state = st;
        }
    }
    return ap_plan_start_search(p, ws);
}

const ap_plan_kind ap_plan_kind_hier = {"hierarchical", hier_begin,     ap_plan_search_step, ap_plan_search_move,
                                        ap_plan_grid_finish, hier_release, false, false, false, false};
