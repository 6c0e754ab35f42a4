/* landmarks.h — farthest-first landmark distances over any undirected search domain, for ALT heuristics.
 *
 * Source: Goldberg & Harrelson, "Computing the shortest path: A* search meets graph theory" (SODA 2005),
 * ALT: with d(L, v) the shortest-path distance from a landmark L in an undirected graph, |d(L, u) - d(L, v)|
 * is at most d(u, v), so max over landmarks of |d(L, goal) - d(L, v)| is a consistent heuristic. Landmarks
 * are chosen farthest-first ("farthest" selection, their section 6): the node farthest from the start of
 * the largest component, then each the node farthest from the landmarks so far, by its smallest distance to
 * them. Users: the any-angle corner tables (anyangle/landmarks.h) and the hierarchical abstract graph
 * (hier/hier.h).
 */
#ifndef AP_SEARCH_LANDMARKS_H
#define AP_SEARCH_LANDMARKS_H

#include <stdbool.h>
#include <stdint.h>

#include "search.h"

/* Landmark distances over dom, whose nodes 0 .. n-1 form an undirected graph (each edge listed from both
 * ends with the same cost; dom->node_count must be n + 1: node n is reached by no edge, the goal of the
 * exhaustive Dijkstra runs) and whose heuristic is 0: up to k landmarks (fewer when the largest component
 * has fewer nodes), chosen farthest-first in the component with the most nodes (ties: the one holding the
 * lowest node; its lowest node starts the choice). d (k * n doubles, caller-owned) receives
 * d[i * n + v] = the distance (the domain's cost unit) from landmark i to node v, INFINITY when v is in
 * another component; *made the number of landmarks written. Deterministic. Cost: (made + 1) Dijkstra runs
 * on the search core (O(E log V) each) on a workspace of n + 1 nodes made for the call. Returns AP_OK,
 * AP_E_NOMEM or AP_E_INTERNAL (dom->node_count not n + 1), *made 0 on failure. Thread-safe as dom's callbacks
 * are. */
int ap_landmarks_farthest(const ap_domain *dom, uint32_t n, uint32_t k, double *d, uint32_t *made);

/* ap_landmarks_farthest in steps, for a caller that must not spend all its Dijkstra runs at once (the
 * any_angle table's graphs built in the time queries can spare, anyangle/graph.h ap_aa_build_run).
 * Caller-owned; dom and d borrowed until ap_landmarks_end. */
typedef struct ap_landmarks_run {
    const ap_domain *dom;
    uint32_t n, k;
    double *d;
    double *near;    /* n: each node's distance to the nearest landmark so far */
    ap_workspace ws; /* n + 1 nodes, made by ap_landmarks_begin */
    bool ws_ok;
    bool started;    /* the first run (from the largest component's lowest node) is done */
    uint32_t i;      /* landmarks written */
    int st;          /* AP_IN_PROGRESS, then the result */
} ap_landmarks_run;

/* Set up r for ap_landmarks_farthest(dom, n, k, d, ...): allocates r's buffers (each node's nearest distance
 * and a workspace of n + 1 nodes), freed by ap_landmarks_end; n or k 0 is done at once (AP_OK). Returns AP_OK or
 * AP_E_NOMEM (r then done with that state; ap_landmarks_end still to be called). r belongs to one thread at a
 * time; dom's callbacks as for ap_landmarks_farthest. */
int ap_landmarks_begin(ap_landmarks_run *r, const ap_domain *dom, uint32_t n, uint32_t k, double *d);

/* Run r's Dijkstra runs until all are done or the clock (ap_clock_ns) has passed until_ns (0: no limit),
 * read after each run (at least one a call while any is left). Writes r->d's rows. Returns AP_IN_PROGRESS, AP_OK,
 * or r's failure (AP_E_NOMEM, AP_E_INTERNAL as for ap_landmarks_farthest), again on every later call. Not
 * thread-safe on r. */
int ap_landmarks_step(ap_landmarks_run *r, uint64_t until_ns);

/* Free r's buffers (r may be run no more; d stays the caller's); *made (may be NULL): the landmarks written when
 * r ended AP_OK, else 0. Not thread-safe on r. */
void ap_landmarks_end(ap_landmarks_run *r, uint32_t *made);

#endif
