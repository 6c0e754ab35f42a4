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

int ap_landmarks_begin(ap_landmarks_run *r, const ap_domain *dom, uint32_t n, uint32_t k, double *d)
{
    *r = (ap_landmarks_run){.dom = dom, .n = n, .k = k, .d = d, .st = AP_IN_PROGRESS};
    if (n == 0 || k == 0) {
        r->st = AP_OK;
        return AP_OK;
    }
    r->near = malloc((size_t)n * sizeof *r->near);
    int st = r->near != NULL ? ap_workspace_init(&r->ws, n + 1, dom->max_succ > 0 ? dom->max_succ : 1) : AP_E_NOMEM;
    if (st != AP_OK) {
        free(r->near);
        r->near = NULL;
        r->st = st;
        return st;
    }
    r->ws_ok = true;
    return AP_OK;
}

/* One Dijkstra run of r: the first from the lowest node of the largest component into near, then each from
 * the node farthest from the landmarks so far. */
static int landmarks_next(ap_landmarks_run *r)
{
    const uint32_t n = r->n;
    if (!r->started) {
        /* near[v]: the smallest distance from v to a landmark so far (before the first: from the lowest node
         * of the largest component, which the landmarks then serve). */
        r->started = true;
        const int st = dijkstra(r->dom, &r->ws, n, largest_component(r->dom, n), r->near);
        return st == AP_OK && r->k > 0 ? AP_IN_PROGRESS : st;
    }
    uint32_t best = UINT32_MAX;
    for (uint32_t v = 0; v < n; v++)
        if (isfinite(r->near[v]) && r->near[v] > 0.0 && (best == UINT32_MAX || r->near[v] > r->near[best]))
            best = v;
    if (best == UINT32_MAX) /* every reachable node is a landmark already */
        return AP_OK;
    double *di = r->d + (size_t)r->i * n;
    const int st = dijkstra(r->dom, &r->ws, n, best, di);
    if (st != AP_OK)
        return st;
    for (uint32_t v = 0; v < n; v++)
        r->near[v] = r->i == 0 ? di[v] : fmin(r->near[v], di[v]);
    return ++r->i < r->k ? AP_IN_PROGRESS : AP_OK;
}

int ap_landmarks_step(ap_landmarks_run *r, uint64_t until_ns)
{
    while (r->st == AP_IN_PROGRESS) {
        r->st = landmarks_next(r);
        if (r->st == AP_IN_PROGRESS && ap_deadline_passed(until_ns))
            break;
    }
    return r->st;
}

void ap_landmarks_end(ap_landmarks_run *r, uint32_t *made)
{
    if (made != NULL)
        *made = r->st == AP_OK ? r->i : 0;
    free(r->near);
    r->near = NULL;
    if (r->ws_ok)
        ap_workspace_free(&r->ws);
    r->ws_ok = false;
}

int ap_landmarks_farthest(const ap_domain *dom, uint32_t n, uint32_t k, double *d, uint32_t *made)
{
    ap_landmarks_run r;
    int st = ap_landmarks_begin(&r, dom, n, k, d);
    if (st == AP_OK)
        st = ap_landmarks_step(&r, 0);
    ap_landmarks_end(&r, made);
    return st;
}
