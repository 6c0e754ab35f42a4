/* oracle.h — an independent brute-force shortest-path oracle for the any-angle planner's tests: the eager
 * full tangent visibility graph (every bitangent of every pair of circles, Red Blob's acos construction;
 * every hugging arc between two tangent points of one circle in both directions, no cusp or crossing
 * culling) and Dijkstra. Its own line-of-sight tests (nothing from planner/ but map lookups), its own circle
 * set for grids (every vertex touching a blocked cell, not just convex corners). Small worlds only:
 * O(n^3) arcs. */
#ifndef AP_TEST_AA_ORACLE_H
#define AP_TEST_AA_ORACLE_H

#include <stddef.h>

#include "../../../planner/world/circles.h"
#include "../../../planner/world/map.h"

typedef struct aa_oracle_world {
    const ap_circle *c; /* circle world: its obstacles (grown here by r), or NULL */
    size_t n;
    double w, h;
    const ap_map *m;    /* grid map, or NULL */
    double r;           /* unit radius, tiles */
} aa_oracle_world;

/* Shortest length from (sx, sy) to (gx, gy) in the closure model of graph.h (touching allowed; for a point
 * unit on a grid no diagonal squeezes), or INFINITY when there is none. */
double aa_oracle_length(const aa_oracle_world *w, double sx, double sy, double gx, double gy);

/* The oracle's own test of a straight centre path (also used by the tests' sampled checks). */
int aa_oracle_line_ok(const aa_oracle_world *w, double ax, double ay, double bx, double by);

#endif
