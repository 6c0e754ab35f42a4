/* fixture_dijkstra.c — a trivial algorithm plugged into the planner from outside its table, to show the
 * mechanism algorithms.h describes: this file holds the whole algorithm (a caller-owned ap_algorithm_row),
 * suites.h one registration line, and ap_plan_begin_with runs it.
 *
 * Dijkstra (1959) is A* with a zero heuristic: the grid domain (grid.h) with its heuristic replaced, so the
 * grid kind (plan_grid.c) runs it and builds waypoints, curves and samples as for astar. The A* core's
 * octile fast path recognises the grid domain by both callbacks, so this domain runs the generic loop.
 */
#include "../../../planner/grid/grid.h"
#include "../../../planner/plan/plan_kind.h"
#include "../suites.h"

/* A zero estimate is admissible and consistent: the search settles nodes in order of g alone. */
static double zero_heuristic(const void *ctx, uint32_t node, uint32_t goal)
{
    (void)ctx;
    (void)node;
    (void)goal;
    return 0.0;
}

static int dijkstra_domain_init(ap_plan_dom_ctx *ctx, ap_domain *dom, const ap_query *q, uint32_t goal,
                                uint64_t deadline_ns)
{
    int st = ap_grid_domain_init(&ctx->grid, dom, q->map, q->connectivity, goal);
    dom->heuristic = zero_heuristic;
    /* The grid's specialised loop inlines the octile heuristic: a domain whose callbacks are replaced runs
     * the generic loop (search.h, ap_domain.run). */
    dom->run = NULL;
    return st;
}

const ap_algorithm_row ap_test_dijkstra = {
    .name = "dijkstra", .id = AP_ALG_COUNT, .kind = &ap_plan_kind_grid, .domain_init = dijkstra_domain_init};
