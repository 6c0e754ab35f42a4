/* landmarks.c — farthest-first landmark distances over an undirected search domain (landmarks.h). */
#include "landmarks.h"

#include <math.h>
#include <stdlib.h>

#include "../base/mem.h"
#include "../base/status.h"

/* Dijkstra from src over dom (on ws, to exhaustion: node n is never reached) into dist (n entries). */
static int dijkstra(const ap_domain *dom, ap_workspace *ws, uint32_t n, uint32_t src, double *dist)
{
    ap_search s;
    int st = ap_search_begin(&s, ws, dom, src, n, 0);
    if (st == AP_OK)
        st = ap_search_run(&s, 0);
    if (st != AP_NO_PATH)
        return st == AP_OK ? AP_E_INTERNAL : st;
    for (uint32_t v = 0; v < n; v++)
        dist[v] = ap_search_g(&s, v);
    return AP_OK;
}

/* The lowest node of the component of dom with the most nodes (ties: the lowest such node), by depth-first
 * walks over the successors; out of memory: node 0. */
static uint32_t largest_component(const ap_domain *dom, uint32_t n)
{
    uint8_t *seen = calloc(n, 1);
    uint32_t *stack = malloc((size_t)n * sizeof *stack);
    ap_succ *succ = malloc((size_t)dom->max_succ * sizeof *succ);
    uint32_t best = 0;
    if (seen == NULL || stack == NULL || succ == NULL) {
        AP_FREE_ALL(seen, stack, succ);
        return best;
    }
    size_t best_size = 0;
    for (uint32_t r = 0; r < n; r++) {
        if (seen[r])
            continue;
        size_t top = 0, size = 0;
        stack[top++] = r;
        seen[r] = 1;
        while (top > 0) {
            const uint32_t v = stack[--top];
            size++;
            const int k = dom->successors(dom->ctx, v, succ);
            for (int i = 0; i < k; i++) {
                const uint32_t w = succ[i].node;
                if (w < n && !seen[w]) {
                    seen[w] = 1;
                    stack[top++] = w;
                }
            }
        }
        if (size > best_size) {
            best_size = size;
            best = r;
        }
    }
    AP_FREE_ALL(seen, stack, succ);
    return best;
}

int ap_landmarks_farthest(const ap_domain *dom, uint32_t n, uint32_t k, double *d, uint32_t *made)
{
    *made = 0;
    if (n == 0 || k == 0)
        return AP_OK;
    ap_workspace ws;
    double *near = malloc((size_t)n * sizeof *near);
    int st = near != NULL ? ap_workspace_init(&ws, n + 1, dom->max_succ > 0 ? dom->max_succ : 1) : AP_E_NOMEM;
    if (st != AP_OK) {
        free(near);
        return st;
    }
    /* near[v]: the smallest distance from v to a landmark so far (before the first: from the lowest node of
     * the largest component, which the landmarks then serve). */
    st = dijkstra(dom, &ws, n, largest_component(dom, n), near);
    uint32_t i = 0;
    for (; st == AP_OK && i < k; i++) {
        uint32_t best = UINT32_MAX;
        for (uint32_t v = 0; v < n; v++)
            if (isfinite(near[v]) && near[v] > 0.0 && (best == UINT32_MAX || near[v] > near[best]))
                best = v;
        if (best == UINT32_MAX) /* every reachable node is a landmark already */
            break;
        double *di = d + (size_t)i * n;
        if ((st = dijkstra(dom, &ws, n, best, di)) != AP_OK)
            break;
        for (uint32_t v = 0; v < n; v++)
            near[v] = i == 0 ? di[v] : fmin(near[v], di[v]);
    }
    free(near);
    ap_workspace_free(&ws);
    *made = st == AP_OK ? i : 0;
    return st;
}
