/* landmarks.c — landmark distances over a point unit's eager corner table (landmarks.h). */
#include "landmarks.h"

#include <math.h>
#include <stdlib.h>

#include "../base/status.h"
#include "../search/search.h"

/* The table as a search domain (search.h): nodes are the corners, plus one node n that no edge reaches,
 * the goal of a search run to exhaustion with a zero heuristic, which is Dijkstra over the table. */
static int table_succ(const void *ctx, uint32_t v, ap_succ *out)
{
    const ap_aa_graph *g = ctx;
    int k = 0;
    /* Both senses' departures: every table edge leaving the corner. */
    for (uint32_t i = g->dep_start[2 * v]; i < g->dep_start[2 * v + 2]; i++)
        if (g->deps[i].to < g->n)
            out[k++] = (ap_succ){g->deps[i].to, g->deps[i].t.len};
    return k;
}

static double zero_h(const void *ctx, uint32_t v, uint32_t goal)
{
    return 0.0;
}

/* Dijkstra from corner src over the table (dom, on ws) into dist (n entries). */
static int dijkstra(const ap_aa_graph *g, const ap_domain *dom, ap_workspace *ws, uint32_t src, double *dist)
{
    ap_search s;
    int st = ap_search_begin(&s, ws, dom, src, (uint32_t)g->n, 0);
    if (st == AP_OK)
        st = ap_search_run(&s, 0);
    if (st != AP_NO_PATH)
        return st == AP_OK ? AP_E_INTERNAL : st;
    for (size_t v = 0; v < g->n; v++)
        dist[v] = ap_search_g(&s, (uint32_t)v);
    return AP_OK;
}

/* The lowest corner of the component of g's table with the most corners (ties: the lowest such corner; out
 * of memory: corner 0). */
static uint32_t largest_component(const ap_aa_graph *g)
{
    const size_t n = g->n;
    uint8_t *seen = calloc(n, 1);
    uint32_t *stack = malloc(n * sizeof *stack);
    if (seen == NULL || stack == NULL) {
        free(seen);
        free(stack);
        return 0;
    }
    uint32_t best = 0;
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
            for (uint32_t i = g->dep_start[2 * v]; i < g->dep_start[2 * v + 2]; i++) {
                const uint32_t w = g->deps[i].to;
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
    free(seen);
    free(stack);
    return best;
}

int ap_aa_landmarks_build(ap_aa_graph *g)
{
    g->n_marks = 0;
    free(g->mark_d);
    g->mark_d = NULL;
    if (g->dep_start == NULL || g->n == 0)
        return AP_OK;
    const size_t n = g->n;
    int max_deg = 1;
    for (size_t v = 0; v < n; v++) {
        const uint32_t deg = g->dep_start[2 * v + 2] - g->dep_start[2 * v];
        max_deg = deg > (uint32_t)max_deg ? (int)deg : max_deg;
    }
    const ap_domain dom = {.ctx = g, .node_count = (uint32_t)n + 1, .max_succ = max_deg,
                           .successors = table_succ, .heuristic = zero_h};
    ap_workspace ws;
    double *d = malloc(AP_AA_LANDMARKS * n * sizeof *d), *near = malloc(n * sizeof *near);
    int st = d != NULL && near != NULL ? ap_workspace_init(&ws, (uint32_t)n + 1, max_deg) : AP_E_NOMEM;
    if (st != AP_OK) {
        free(d);
        free(near);
        return st;
    }
    /* near[v]: the smallest distance from v to a landmark so far (before the first: from a corner of the
     * largest component, which the landmarks then serve). */
    st = dijkstra(g, &dom, &ws, largest_component(g), near);
    uint32_t k = 0;
    for (; st == AP_OK && k < AP_AA_LANDMARKS; k++) {
        uint32_t best = UINT32_MAX;
        for (uint32_t v = 0; v < n; v++)
            if (isfinite(near[v]) && near[v] > 0.0 && (best == UINT32_MAX || near[v] > near[best]))
                best = v;
        if (best == UINT32_MAX) /* every reachable corner is a landmark already */
            break;
        double *dk = d + (size_t)k * n;
        if ((st = dijkstra(g, &dom, &ws, best, dk)) != AP_OK)
            break;
        for (uint32_t v = 0; v < n; v++)
            near[v] = k == 0 ? dk[v] : fmin(near[v], dk[v]);
    }
    free(near);
    ap_workspace_free(&ws);
    if (st != AP_OK || k == 0) {
        free(d);
        return st;
    }
    /* Corner-major for the search (one corner's distances side by side). */
    double *t = malloc((size_t)k * n * sizeof *t);
    if (t == NULL) {
        free(d);
        return AP_E_NOMEM;
    }
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t i = 0; i < k; i++)
            t[(size_t)v * k + i] = d[(size_t)i * n + v];
    free(d);
    g->mark_d = t;
    g->n_marks = k;
    return AP_OK;
}
