/* dijkstra_domain.c — the Dijkstra test domain (fixtures.h). Its own move rules, written from the
 * Moving AI benchmark's definition, not shared with planner/grid. */
#include "fixtures.h"

#include <math.h>
#include <string.h>

static int dijkstra_successors(const void *ctx, uint32_t u, ap_succ *out)
{
    const ap_map *m = ctx;
    const uint8_t *p = m->pass;
    const int32_t S = m->stride;
    int k = 0;
    /* straight moves first, then a diagonal only where both cells beside it are free */
    static const int dx[8] = {0, 0, -1, 1, -1, 1, -1, 1}, dy[8] = {-1, 1, 0, 0, -1, -1, 1, 1};
    for (int d = 0; d < 8; d++) {
        const uint32_t v = (uint32_t)((int32_t)u + dx[d] + dy[d] * S);
        if (!p[v])
            continue;
        if (d >= 4 && !(p[(uint32_t)((int32_t)u + dx[d])] && p[(uint32_t)((int32_t)u + dy[d] * S)]))
            continue;
        out[k++] = (ap_succ){v, d >= 4 ? M_SQRT2 : 1.0};
    }
    return k;
}

static double dijkstra_zero_h(const void *ctx, uint32_t node, uint32_t goal)
{
    (void)ctx;
    (void)node;
    (void)goal;
    return 0.0;
}

static int dijkstra_successors_hops(const void *ctx, uint32_t u, const void *payload, ap_succ *out,
                                    void *out_payload)
{
    uint32_t h;
    memcpy(&h, payload, sizeof h);
    h++;
    int n = dijkstra_successors(ctx, u, out);
    for (int k = 0; k < n; k++)
        memcpy((char *)out_payload + (size_t)k * sizeof h, &h, sizeof h);
    return n;
}

void ap_test_dijkstra_domain(ap_domain *dom, const ap_map *m, bool hops)
{
    *dom = (ap_domain){.ctx = m,
                       .node_count = ap_map_node_count(m),
                       .max_succ = 8,
                       .successors = dijkstra_successors,
                       .heuristic = dijkstra_zero_h,
                       .payload_bytes = hops ? sizeof(uint32_t) : 0,
                       .successors_payload = hops ? dijkstra_successors_hops : NULL};
}
