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

#include <stdint.h>

#include "search.h"

/* Landmark distances over dom, whose nodes 0 .. n-1 form an undirected graph (each edge listed from both
 * ends with the same cost; dom->node_count must be n + 1: node n is reached by no edge, the goal of the
 * exhaustive Dijkstra runs) and whose heuristic is 0: up to k landmarks (fewer when the largest component
 * has fewer nodes), chosen farthest-first in the component with the most nodes (ties: the one holding the
 * lowest node; its lowest node starts the choice). d (k * n doubles, caller-owned) receives
 * d[i * n + v] = the distance (the domain's cost unit) from landmark i to node v, INFINITY when v is in
 * another component; *made the number of landmarks written. Deterministic. Cost: (made + 1) Dijkstra runs
 * on the search core (O(E log V) each) on a workspace of n + 1 nodes made for the call. Returns AP_OK or
 * AP_E_NOMEM (*made 0). Thread-safe as dom's callbacks are. */
int ap_landmarks_farthest(const ap_domain *dom, uint32_t n, uint32_t k, double *d, uint32_t *made);

#endif
