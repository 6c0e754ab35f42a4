/* search.c — the A* core: preallocated search matrix, generation stamps, d-ary open list with
 * decrease-key, time slicing, deadline and cancellation.
 *
 * Source: Pinter, "Toward More Realistic Pathfinding" (Game Developer, 2001), section "A Faster
 * Implementation of the Standard A*" (fixed node matrix, no allocation per search, a "touched" mark instead
 * of clearing) and "Path Failure and Timeslicing" (bounded work per slice, resumable state).
 *
 * Open list. Pinter found an unsorted list faster than a tree for his 60x60 window; on whole Moving AI maps
 * open lists reach thousands of entries, so a heap (O(log n) pop, decrease-key through node.heap) wins.
 * AP_OPEN_ARITY selects the heap's arity. Measured with arcpath-bench --summary (A*, 8-connected, every
 * scenario line, -O2, 2-core Debian 12 box; two runs each, median / mean µs per query):
 *                 binary (2)                    4-ary
 *   den520d   308 / 469,  296 / 438      296 / 439,  298 / 435     (4698 mean expansions)
 *   arena2    370 / 605,  334 / 570      330 / 570,  334 / 579     (5704)
 *   brc202d  1520 / 1476, 1543 / 1457   1563 / 1450, 1528 / 1424   (15543)
 * The difference is within run-to-run noise (the cost is dominated by cache misses on the node matrix, not
 * by heap depth), so we keep the simpler binary heap the header documents.
 */
#include "search.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "status.h"

#ifndef AP_OPEN_ARITY
#define AP_OPEN_ARITY 2
#endif

uint64_t ap_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int ap_workspace_init(ap_workspace *ws, uint32_t capacity, int max_succ)
{
    memset(ws, 0, sizeof *ws);
    if (capacity == 0 || max_succ <= 0)
        return AP_E_INTERNAL;
    /* calloc: gen 0 everywhere and the first search uses gen 1, so every node starts out stale. */
    ws->nodes = calloc(capacity, sizeof *ws->nodes);
    ws->open = malloc((size_t)capacity * sizeof *ws->open);
    ws->succ = malloc((size_t)max_succ * sizeof *ws->succ);
    if (ws->nodes == NULL || ws->open == NULL || ws->succ == NULL) {
        ap_workspace_free(ws);
        return AP_E_NOMEM;
    }
    ws->capacity = capacity;
    ws->succ_cap = max_succ;
    return AP_OK;
}

void ap_workspace_free(ap_workspace *ws)
{
    if (ws == NULL)
        return;
    free(ws->nodes);
    free(ws->open);
    free(ws->succ);
    memset(ws, 0, sizeof *ws);
}

/* a comes out of the open list before b: smaller f, and on equal f larger g (deeper nodes first, which
 * reaches the goal sooner among the many equal-f nodes of a grid). */
static inline bool open_before(const ap_open_entry *a, const ap_open_entry *b)
{
    return a->f < b->f || (a->f == b->f && a->g > b->g);
}

static inline void sift_up(ap_workspace *ws, uint32_t i)
{
    ap_open_entry *open = ws->open;
    ap_node *nodes = ws->nodes;
    ap_open_entry e = open[i];
    while (i > 0) {
        uint32_t p = (i - 1) / AP_OPEN_ARITY;
        if (!open_before(&e, &open[p]))
            break;
        open[i] = open[p];
        nodes[open[i].node].heap = i;
        i = p;
    }
    open[i] = e;
    nodes[e.node].heap = i;
}

static inline void sift_down(ap_workspace *ws, uint32_t i)
{
    ap_open_entry *open = ws->open;
    ap_node *nodes = ws->nodes;
    const uint32_t len = ws->open_len;
    ap_open_entry e = open[i];
    for (;;) {
        uint32_t c = i * AP_OPEN_ARITY + 1;
        if (c >= len)
            break;
        uint32_t best = c;
        uint32_t end = c + AP_OPEN_ARITY < len ? c + AP_OPEN_ARITY : len;
        for (uint32_t k = c + 1; k < end; k++)
            if (open_before(&open[k], &open[best]))
                best = k;
        if (!open_before(&open[best], &e))
            break;
        open[i] = open[best];
        nodes[open[i].node].heap = i;
        i = best;
    }
    open[i] = e;
    nodes[e.node].heap = i;
}

int ap_search_begin(ap_search *s, ap_workspace *ws, const ap_domain *dom, uint32_t start, uint32_t goal,
                    uint64_t deadline_ns)
{
    memset(s, 0, sizeof *s);
    s->state = AP_E_INTERNAL;
    if (ws == NULL || dom == NULL || ws->nodes == NULL || dom->node_count > ws->capacity ||
        dom->max_succ > ws->succ_cap || start >= dom->node_count || goal >= dom->node_count)
        return AP_E_INTERNAL;
    s->ws = ws;
    s->dom = dom;
    s->start = start;
    s->goal = goal;
    s->deadline_ns = deadline_ns;
    s->state = AP_IN_PROGRESS;

    /* O(1) reset: every node whose stamp differs from the new generation is stale. After 2^32 - 1 searches
     * the counter wraps; nodes stamped long ago could then look current, so clear once and restart at 1. */
    ws->gen++;
    if (ws->gen == 0) {
        memset(ws->nodes, 0, (size_t)ws->capacity * sizeof *ws->nodes);
        ws->gen = 1;
    }
    ws->open_len = 0;
    ap_node *n = &ws->nodes[start];
    n->g = 0.0;
    n->parent = UINT32_MAX;
    n->gen = ws->gen;
    ws->open[0] = (ap_open_entry){dom->heuristic(dom->ctx, start, goal), 0.0, start};
    n->heap = 0;
    ws->open_len = 1;
    return AP_OK;
}

int ap_search_run(ap_search *s, uint64_t max_expansions)
{
    if (s->state != AP_IN_PROGRESS)
        return s->state;
    ap_workspace *ws = s->ws;
    const ap_domain *dom = s->dom;
    ap_node *nodes = ws->nodes;
    ap_open_entry *open = ws->open;
    ap_succ *succ = ws->succ;
    const uint32_t gen = ws->gen;
    const uint32_t goal = s->goal;
    const void *ctx = dom->ctx;
    uint64_t done = 0;

    while (max_expansions == 0 || done < max_expansions) {
        if (ws->open_len == 0)
            return s->state = AP_NO_PATH;
        /* Every 256 expansions (including the very first, so a deadline already past is honoured at once):
         * a clock read costs ~20 ns, an expansion ~50-100 ns, so this keeps the overhead well under 1%. */
        if ((s->expanded & 255u) == 0) {
            if (s->cancel != NULL && atomic_load_explicit(s->cancel, memory_order_relaxed) != 0)
                return s->state = AP_TIMEOUT;
            if (s->deadline_ns != 0 && ap_clock_ns() >= s->deadline_ns)
                return s->state = AP_TIMEOUT;
        }
        ap_open_entry top = open[0];
        ws->open_len--;
        if (ws->open_len > 0) {
            open[0] = open[ws->open_len];
            sift_down(ws, 0);
        }
        nodes[top.node].heap = AP_NODE_CLOSED;
        s->expanded++;
        done++;
        if (top.node == goal) {
            s->cost = nodes[goal].g;
            return s->state = AP_OK;
        }
        const double g = nodes[top.node].g;
        int ns = dom->successors(ctx, top.node, succ);
        s->generated += (uint64_t)ns;
        for (int k = 0; k < ns; k++) {
            uint32_t v = succ[k].node;
            double ng = g + succ[k].cost;
            ap_node *nv = &nodes[v];
            if (nv->gen != gen) {
                nv->gen = gen;
                nv->g = ng;
                nv->parent = top.node;
                uint32_t i = ws->open_len++;
                open[i] = (ap_open_entry){ng + dom->heuristic(ctx, v, goal), ng, v};
                sift_up(ws, i);
            } else if (nv->heap != AP_NODE_CLOSED && ng < nv->g) {
                /* Decrease-key. Closed nodes are final: the heuristics are consistent. The heuristic is
                 * called again rather than taken as f - g, which could drift by a rounding step. */
                uint32_t i = nv->heap;
                double h = dom->heuristic(ctx, v, goal);
                nv->g = ng;
                nv->parent = top.node;
                open[i].g = ng;
                open[i].f = ng + h;
                sift_up(ws, i);
            }
        }
    }
    return s->state;
}

size_t ap_search_path(const ap_search *s, uint32_t *out, size_t cap)
{
    if (s->state != AP_OK)
        return 0;
    const ap_node *nodes = s->ws->nodes;
    size_t count = 0;
    for (uint32_t u = s->goal; u != UINT32_MAX; u = nodes[u].parent)
        count++;
    if (out == NULL || cap < count)
        return count;
    size_t i = count;
    for (uint32_t u = s->goal; u != UINT32_MAX; u = nodes[u].parent)
        out[--i] = u;
    return count;
}
