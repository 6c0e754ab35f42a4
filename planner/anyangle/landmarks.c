/* landmarks.c — landmark distances over a point unit's eager corner table (landmarks.h). */
#include "landmarks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/status.h"
#include "../base/mem.h"
#include "../search/landmarks.h"
#include "../search/search.h"

/* The table as an undirected graph of circles: adj[start[v] .. start[v + 1]) the neighbours of circle v
 * with the line's length. A point table lists each edge from both ends already (landmarks.h); a disc's
 * table lists both directions of a bitangent too, but each tested on its own, so its edges are added in
 * both directions (the metric must be symmetric for both of the heuristic's bounds). */
typedef struct lm_graph {
    uint32_t n;
    uint32_t *start;
    ap_succ *adj;
} lm_graph;

static int lm_build(const ap_aa_graph *g, lm_graph *a)
{
    const uint32_t n = (uint32_t)g->n;
    const bool both = !g->corner_points;
    a->n = n;
    a->start = calloc((size_t)n + 2, sizeof *a->start);
    a->adj = malloc((both ? 2 : 1) * (g->n_deps + 1) * sizeof *a->adj);
    if (a->start == NULL || a->adj == NULL)
        return AP_E_NOMEM;
    /* Counts at start[v + 2], prefix sums to start[v + 1], then filled through start[v + 1]. */
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t i = g->dep_start[2 * v]; i < g->dep_start[2 * v + 2]; i++)
            if (g->deps[i].to < n) {
                a->start[v + 2]++;
                if (both)
                    a->start[g->deps[i].to + 2]++;
            }
    for (uint32_t v = 0; v < n; v++)
        a->start[v + 2] += a->start[v + 1];
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t i = g->dep_start[2 * v]; i < g->dep_start[2 * v + 2]; i++) {
            const uint32_t w = g->deps[i].to;
            if (w >= n)
                continue;
            a->adj[a->start[v + 1]++] = (ap_succ){w, g->deps[i].t.len};
            if (both)
                a->adj[a->start[w + 1]++] = (ap_succ){v, g->deps[i].t.len};
        }
    return AP_OK;
}

/* The graph as a search domain (search.h): nodes are the circles, plus one node n that no edge reaches, the
 * goal of a search run to exhaustion with a zero heuristic, which is Dijkstra over the table. */
static int table_succ(const void *ctx, uint32_t v, ap_succ *out)
{
    const lm_graph *a = ctx;
    const uint32_t k = a->start[v + 1] - a->start[v];
    memcpy(out, a->adj + a->start[v], k * sizeof *out);
    return (int)k;
}

static double zero_h(const void *ctx, uint32_t v, uint32_t goal)
{
    return 0.0;
}

/* A landmark build in steps (landmarks.h). */
struct ap_aa_marks {
    ap_aa_graph *g;
    lm_graph a;
    ap_domain dom;         /* over a; its address stays put for run */
    double *d;             /* AP_AA_LANDMARKS * n, landmark-major */
    ap_landmarks_run run;
    bool begun;            /* run holds buffers */
    int st;                /* AP_IN_PROGRESS, then the result */
};

int ap_aa_landmarks_start(ap_aa_graph *g, ap_aa_marks **out)
{
    g->n_marks = 0;
    free(g->mark_d);
    g->mark_d = NULL;
    ap_aa_marks *b = calloc(1, sizeof *b);
    if ((*out = b) == NULL)
        return AP_E_NOMEM;
    b->g = g;
    b->st = AP_OK;
    if (g->dep_start == NULL || g->n == 0)
        return AP_OK;
    const size_t n = g->n;
    b->st = AP_E_NOMEM;
    if (lm_build(g, &b->a) != AP_OK || (b->d = malloc(AP_AA_LANDMARKS * n * sizeof *b->d)) == NULL)
        return AP_OK;
    int max_deg = 1;
    for (size_t v = 0; v < n; v++) {
        const uint32_t deg = b->a.start[v + 1] - b->a.start[v];
        max_deg = deg > (uint32_t)max_deg ? (int)deg : max_deg;
    }
    b->dom = (ap_domain){.ctx = &b->a, .node_count = (uint32_t)n + 1, .max_succ = max_deg,
                         .successors = table_succ, .heuristic = zero_h};
    b->begun = true;
    if (ap_landmarks_begin(&b->run, &b->dom, (uint32_t)n, AP_AA_LANDMARKS, b->d) == AP_OK)
        b->st = AP_IN_PROGRESS;
    return AP_OK;
}

/* b's Dijkstra runs ended (b->run.st): g's distances corner-major for the search (one corner's distances
 * side by side), the buffers freed. */
static void marks_done(ap_aa_marks *b)
{
    uint32_t k = 0;
    ap_landmarks_end(&b->run, &k);
    b->begun = false;
    b->st = b->run.st;
    const size_t n = b->g->n;
    double *t = b->st == AP_OK && k > 0 ? malloc((size_t)k * n * sizeof *t) : NULL;
    if (b->st == AP_OK && k > 0 && t == NULL)
        b->st = AP_E_NOMEM;
    if (t != NULL) {
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t i = 0; i < k; i++)
                t[(size_t)v * k + i] = b->d[(size_t)i * n + v];
        b->g->mark_d = t;
        b->g->n_marks = k;
    }
    AP_FREE_ALL(b->a.start, b->a.adj, b->d);
    b->a.start = NULL;
    b->a.adj = NULL;
    b->d = NULL;
}

int ap_aa_landmarks_run(ap_aa_marks *b, uint64_t until_ns)
{
    if (b->st == AP_IN_PROGRESS && ap_landmarks_step(&b->run, until_ns) != AP_IN_PROGRESS)
        marks_done(b);
    return b->st;
}

void ap_aa_landmarks_free(ap_aa_marks *b)
{
    if (b == NULL)
        return;
    if (b->begun)
        ap_landmarks_end(&b->run, NULL);
    AP_FREE_ALL(b->a.start, b->a.adj, b->d);
    free(b);
}
