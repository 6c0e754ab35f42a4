/* landmarks.h — landmark distances over a point unit's eager corner table, for the point search's ALT
 * heuristic (anyangle.c).
 *
 * Source: Goldberg & Harrelson, "Computing the shortest path: A* search meets graph theory" (SODA 2005), ALT:
 * with d(L, v) the shortest-path distance from landmark L in a graph, |d(L, u) - d(L, v)| <= the length of
 * any edge u-v, so bounds built from d are consistent heuristics.
 *
 * Here the graph is the table itself, undirected (a table edge k -> j of length |kj| exists exactly when
 * j -> k does: the same line, tested once, and the same quadrant rules read from both ends), so for every
 * edge the point search takes between corners, d(L, .) changes by at most its length. The search's goal is
 * not a corner: for the corners C the goal's visibility scan returned (a superset of those with a line to
 * the goal), lb = min over C of d(L, c) + |c goal| and ub = max over C of d(L, c) - |c goal| make
 * h(v) = max(lb - d(L, v), d(L, v) - ub) consistent on every corner edge and at most |c goal| on every line
 * c -> goal, as A* needs (anyangle.c takes the max of these and the Euclidean distance). Corners in another
 * component than L (d infinite) skip L.
 */
#ifndef AP_AA_LANDMARKS_H
#define AP_AA_LANDMARKS_H

#include "graph.h"

/* Landmarks per point table. */
#define AP_AA_LANDMARKS 8

/* The landmark distances of g (an eager graph of radius-0 corners, g->corner_points): g->n_marks landmarks
 * chosen farthest-first in the table's largest component (the first: the corner farthest from that
 * component's lowest corner, then each the corner farthest from the landmarks so far, by their smallest distance), g->mark_d[v * n_marks + i] = d(landmark i, corner v) over the
 * table's edges (INFINITY when not connected). Deterministic (the same table gives the same distances).
 * Returns AP_OK or AP_E_NOMEM (g->n_marks stays 0: the search uses the Euclidean distance alone). Cost
 * (AP_AA_LANDMARKS + 1) Dijkstra runs over the table on the search core (search.h, a zero heuristic, run
 * to exhaustion), O(E log V), on a workspace of n + 1 nodes made for the call. Not thread-safe on g: call before sharing. */
int ap_aa_landmarks_build(ap_aa_graph *g);

#endif
