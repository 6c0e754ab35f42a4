/* landmarks.c — landmark distances over a point unit's eager corner table (landmarks.h). */
#include "landmarks.h"

#include <math.h>
#include <stdlib.h>

#include "../base/status.h"

/* A binary min-heap of (distance, corner) with lazy deletion. */
typedef struct heap_item {
    double d;
    uint32_t v;
} heap_item;

typedef struct heap {
    heap_item *a;
    size_t n, cap;
} heap;

static bool heap_push(heap *h, double d, uint32_t v)
{
    if (h->n == h->cap) {
        size_t cap = h->cap > 0 ? 2 * h->cap : 1024;
        heap_item *p = realloc(h->a, cap * sizeof *p);
        if (p == NULL)
            return false;
        h->a = p;
        h->cap = cap;
    }
    size_t i = h->n++;
    while (i > 0 && h->a[(i - 1) / 2].d > d) {
        h->a[i] = h->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->a[i] = (heap_item){d, v};
    return true;
}

static heap_item heap_pop(heap *h)
{
    heap_item top = h->a[0], last = h->a[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->a[c + 1].d < h->a[c].d)
            c++;
        if (h->a[c].d >= last.d)
            break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (h->n > 0)
        h->a[i] = last;
    return top;
}

/* Dijkstra from corner src over g's table into dist (n entries). False when out of memory. */
static bool dijkstra(const ap_aa_graph *g, uint32_t src, double *dist, heap *h)
{
    for (size_t v = 0; v < g->n; v++)
        dist[v] = INFINITY;
    dist[src] = 0.0;
    h->n = 0;
    if (!heap_push(h, 0.0, src))
        return false;
    while (h->n > 0) {
        const heap_item it = heap_pop(h);
        if (it.d > dist[it.v])
            continue;
        /* Both senses' departures: every table edge leaving the corner. */
        for (uint32_t i = g->dep_start[2 * it.v]; i < g->dep_start[2 * it.v + 2]; i++) {
            const ap_aa_dep *e = &g->deps[i];
            const double nd = it.d + e->t.len;
            if (e->to < g->n && nd < dist[e->to]) {
                dist[e->to] = nd;
                if (!heap_push(h, nd, e->to))
                    return false;
            }
        }
    }
    return true;
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
    double *d = malloc(AP_AA_LANDMARKS * n * sizeof *d), *near = malloc(n * sizeof *near);
    heap h = {0};
    int st = d != NULL && near != NULL ? AP_OK : AP_E_NOMEM;
    /* near[v]: the smallest distance from v to a landmark so far (before the first: from a corner of the
     * largest component, which the landmarks then serve). */
    const uint32_t c0 = st == AP_OK ? largest_component(g) : 0;
    if (st == AP_OK && !dijkstra(g, c0, near, &h))
        st = AP_E_NOMEM;
    uint32_t k = 0;
    for (; st == AP_OK && k < AP_AA_LANDMARKS; k++) {
        uint32_t best = UINT32_MAX;
        for (uint32_t v = 0; v < n; v++)
            if (isfinite(near[v]) && near[v] > 0.0 && (best == UINT32_MAX || near[v] > near[best]))
                best = v;
        if (best == UINT32_MAX) /* every reachable corner is a landmark already */
            break;
        double *dk = d + (size_t)k * n;
        if (!dijkstra(g, best, dk, &h)) {
            st = AP_E_NOMEM;
            break;
        }
        for (uint32_t v = 0; v < n; v++)
            near[v] = k == 0 ? dk[v] : fmin(near[v], dk[v]);
    }
    free(near);
    free(h.a);
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
