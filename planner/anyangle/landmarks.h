/* landmarks.h — landmark distances over an eager grid table (a point unit's corners, or a disc's corner
 * circles), for the search's ALT heuristic (anyangle.c).
 *
 * Source: Goldberg & Harrelson, "Computing the shortest path: A* search meets graph theory" (SODA 2005), ALT:
 * with d(L, v) the shortest-path distance from landmark L in a graph, |d(L, u) - d(L, v)| <= the length of
 * any edge u-v, so bounds built from d are consistent heuristics.
 *
 * Here the graph has the table's circles as vertices and its lines as undirected edges of the lines'
 * lengths (a point table lists each edge from both ends, the same line tested once and the same quadrant
 * rules read from both ends; a disc's table is made undirected by adding each line in both directions). Every
 * edge the search takes between two circles costs its hug plus a table line, so at least that line's length,
 * and d(L, .) changes along it by at most that. The search's goal is not a circle: for the circles C the
 * goal's visibility scan returned (a superset of those with a line to the goal, graph.h), with l_c at most
 * the length of any line from circle c to the goal (a point: |c goal|; a disc of radius R: the tangent
 * length sqrt(|c goal|^2 - R^2), less 1e-9), lb = min over C of d(L, c) + l_c and ub = max over C of
 * d(L, c) - l_c make h(v) = max(lb - d(L, v), d(L, v) - ub) consistent on every circle edge and at most
 * l_c on every line c -> goal, as A* needs (anyangle.c takes the max of these and the Euclidean distance).
 * Circles in another component than L (d infinite) skip L.
 */
#ifndef AP_AA_LANDMARKS_H
#define AP_AA_LANDMARKS_H

#include "graph.h"

/* Landmarks per table. */
#define AP_AA_LANDMARKS 8

/* The landmark distances of g (an eager graph: a point unit's grid corners, g->corner_points, or a disc's
 * corner circles, graph.h): g->n_marks landmarks chosen farthest-first in the graph's largest component
 * (the first: the circle farthest from that component's lowest circle, then each the circle farthest from
 * the landmarks so far, by their smallest distance), g->mark_d[v * n_marks + i] = d(landmark i, circle v)
 * over the undirected graph above (INFINITY when not connected). Deterministic (the same table gives the
 * same distances). Cost (AP_AA_LANDMARKS + 1) Dijkstra runs over the table (search/landmarks.h
 * ap_landmarks_farthest, shared with the hierarchical graph's), made in steps (a Dijkstra run each at least;
 * one run over Paris_1_1024's disc table takes some 15 ms) for the table built in pieces (graph.h
 * ap_aa_build_run). Start drops g's distances and makes the build in *out (NULL when out of memory:
 * AP_E_NOMEM); run goes on until the distances are set or the clock (ap_clock_ns) has passed until_ns (0: no
 * limit), returning AP_IN_PROGRESS, AP_OK, or AP_E_NOMEM (g->n_marks stays 0: the search uses the Euclidean
 * distance alone); free drops an unfinished build (g without distances). The build *out is the caller's: free it
 * with ap_aa_landmarks_free whatever run returned (NULL is ignored); the distances it sets are g's. Not
 * thread-safe on g: finish before sharing it. */
typedef struct ap_aa_marks ap_aa_marks;
int ap_aa_landmarks_start(ap_aa_graph *g, ap_aa_marks **out);
int ap_aa_landmarks_run(ap_aa_marks *b, uint64_t until_ns);
void ap_aa_landmarks_free(ap_aa_marks *b);

#endif
