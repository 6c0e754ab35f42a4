/* cluster.h — one HAA* cluster as the clearance classes see it (its legal moves per cell and class), and the
 * exact one-to-many costs inside it that the abstract graph's intra-cluster edges and a query's start and
 * goal insertion are made of. Private to planner/hier (hier.c); not a public interface of the planner.
 *
 * Why not the A* core (search.h): the build runs one search per transition and class, tens of thousands of
 * searches of at most AP_HIER_CLUSTER^2 = 256 cells on a 1024^2 map; through the core each expansion
 * tested its 8 moves again (passability, corner cutting, clearance) and each search set up a workspace.
 * Here the moves of every cell are computed once per cluster, bit-parallel per row, into one byte per cell
 * and class, and the search is Dijkstra's algorithm on arrays of 256 cells (Dial's buckets of width 1 on
 * uniform maps, an indexed binary heap on weighted ones) that stops as soon as the cells it was asked for
 * are settled, skipping the moves into cells already settled (they can change nothing; half of a full
 * search's relaxations). One search also says, per cell, up to which higher class some cheapest path uses
 * only that class's moves (reach): there the higher class's cost is the same, and its search is skipped. On uniform
 * maps a pair whose bounding box is open for the class (every move between its cells legal) needs no
 * search at all: its cost is the open lattice's (ap_hier_octile_costs). Measured in BENCHMARKS.md,
 * "Hierarchical (HAA*)", 2026-11-24 (build time).
 *
 * Exactness: a cell's Dijkstra cost is the minimum over its neighbours u of cost(u) + move cost (every
 * neighbour that can lower it is settled first, since move costs are positive and rounding is monotone),
 * whatever order ties are taken in, so these costs are bit for bit those of any other exact Dijkstra on
 * the same moves with the same double sums (the A* core's, which built the graph before): the graph is
 * unchanged (tests/planner/hier compares every edge with an independent search; bench_hier --build prints
 * a digest to compare binaries). Reach: let d_k be class k's costs, k > c. Then d_k(v) >= d_c(v) in
 * doubles (induction in pop order: d_k(v) = fl(d_k(w) + move) for a neighbour w popped before v, >=
 * fl(d_c(w) + move) >= d_c(v), rounding being monotone); and when a neighbour u has d_c(u) + move == d_c(v)
 * exactly, a class-k move u -> v and d_k(u) == d_c(u), then d_k(v) <= d_c(v). So reach[v] >= k gives
 * d_k(v) == d_c(v) bit for bit. Open boxes (uniform maps): inside the box from a to v every cell's cost is
 * the minimum over its neighbours, and a neighbour that is not on a monotone path from a (one that does not
 * lie in the box from a to that cell) offers at least 2 - sqrt 2 more than the octile distance, far above
 * rounding; so by induction over the box every cost is the lattice's recurrence
 * D(x, y) = min(D(x-1, y) + 1, D(x, y-1) + 1, D(x-1, y-1) + sqrt 2), the same double sums in the same order.
 */
#ifndef AP_HIER_CLUSTER_H
#define AP_HIER_CLUSTER_H

#include <stdbool.h>
#include <stdint.h>

#include "../world/clearance.h"
#include "../world/map.h"
#include "hier.h"

#define AP_HIER_LOCAL_N (AP_HIER_CLUSTER * AP_HIER_CLUSTER) /* local cell ids 0 .. 255, row-major in the cluster */

/* The 8 moves: (ap_hier_dx[i], ap_hier_dy[i]); 0-3 orthogonal, 4-7 diagonal. */
extern const int ap_hier_dx[8], ap_hier_dy[8];

/* Per class k > 0 the level (clearance.h) of its radius: a move or cell lets class k through iff its level is
 * above it (ap_clearance_allows(q, ap_hier_class_radius[k])). Entry 0 (the point unit) is unused. */
extern const uint8_t ap_hier_class_threshold[AP_HIER_CLASSES];

/* How many classes > 0 a stored clearance level q lets through: the largest k < AP_HIER_CLASSES with
 * ap_clearance_allows(q, ap_hier_class_radius[k]), 0 when none (the classes are nested: radius 1 < 2 < 4).
 * Pure. */
static inline int ap_hier_class_level(uint8_t q)
{
    _Static_assert(AP_HIER_CLASSES == 4, "three disc classes");
    return (q > ap_hier_class_threshold[1]) + (q > ap_hier_class_threshold[2]) + (q > ap_hier_class_threshold[3]);
}

/* Is the move from padded cell a of m by (dx, dy) legal for class cls: passable, no corner cutting, and for
 * cls > 0 clear for the class's disc (t's exact clearance; t must not be NULL then)? Pure. */
static inline bool ap_hier_move_ok(const ap_map *m, const ap_clearance_table *t, int cls, uint32_t a, int dx, int dy)
{
    const uint32_t b = (uint32_t)((int64_t)a + dx + (int64_t)dy * m->stride);
    if (!m->pass[b])
        return false;
    if (dx != 0 && dy != 0 &&
        (!m->pass[a + (uint32_t)dx] || !m->pass[(uint32_t)((int64_t)a + (int64_t)dy * m->stride)]))
        return false;
    return cls == 0 || ap_clearance_move(t, a, dx, dy) > ap_hier_class_threshold[cls];
}

/* One cluster's cells [x0, x0 + w) x [y0, y0 + h) of m and the moves between them. */
typedef struct ap_hier_cluster {
    const ap_map *m;
    int32_t x0, y0, w, h;
    /* moves[k][v]: bit i set when the move (ap_hier_dx[i], ap_hier_dy[i]) from local cell v stays in the
     * cluster and is legal for class k (ap_hier_move_ok); classes above 0 only when the map has a
     * clearance table (else 0). */
    uint8_t moves[AP_HIER_CLASSES][AP_HIER_LOCAL_N];
    /* open[k][0][y]: bit x set when cell (x0 + x, y0 + y) is passable and (k > 0) its disc clearance lets
     * class k through; open[k][1][y] / [2][y]: likewise its move to (x + 1, y + 1) / (x - 1, y + 1) for k > 0
     * (all bits for k = 0: between passable cells of a box the point unit's moves are legal). */
    uint16_t open[AP_HIER_CLASSES][3][AP_HIER_CLUSTER];
} ap_hier_cluster;

/* Fill c for the cluster of m whose top-left cell is (x0, y0) (a multiple of AP_HIER_CLUSTER; w and h are
 * cut at the map's edge), t = m's clearance table or NULL (class 0 only). Bit-parallel per row of the cluster.
 * only < 0: every field; only = k (a query's insertion): moves[k] alone (the other fields are left
 * undefined). Pure; thread-safe (writes only *c). */
void ap_hier_cluster_init(ap_hier_cluster *c, const ap_map *m, const ap_clearance_table *t, int32_t x0, int32_t y0,
                          int only);

/* Is every move between two cells of the box with local corners a and b (either order) legal for class cls?
 * Then on a uniform-cost map the cost from a to b is octile[|dx|][|dy|] (ap_hier_octile_costs; see above).
 * Pure. */
bool ap_hier_cluster_box_open(const ap_hier_cluster *c, int cls, uint32_t a, uint32_t b);

/* Is one of the two straight octile paths from local cell a to local cell b (diagonal moves first, or straight
 * ones first) made of moves legal for class cls (c->moves)? Then on a uniform-cost map the cost from a to b is
 * octile[|dx|][|dy|] (every path costs at least that), as for an open box, which it generalises: an open box
 * holds both paths. Pure. */
bool ap_hier_cluster_octile_path(const ap_hier_cluster *c, int cls, uint32_t a, uint32_t b);

/* The costs of the open 8-connected lattice of unit and sqrt 2 moves, d[x][y] from (0, 0) to (x, y), by the
 * recurrence above (the same doubles a Dijkstra over open cells gives). Pure. */
void ap_hier_octile_costs(double d[AP_HIER_CLUSTER][AP_HIER_CLUSTER]);

/* Local id of padded cell `cell` of c's map (it must lie in c). Pure. */
static inline uint32_t ap_hier_cluster_local(const ap_hier_cluster *c, uint32_t cell)
{
    int32_t x, y;
    ap_map_coords(c->m, cell, &x, &y);
    return (uint32_t)((y - c->y0) * AP_HIER_CLUSTER + (x - c->x0));
}

/* Dijkstra inside c for class cls from local cell src: dist[v] (AP_HIER_LOCAL_N doubles, caller's) gets the
 * exact cost of the cheapest path of class-cls moves from src to v inside the cluster (ap_map_move_cost per
 * move, summed in double along the path; INFINITY when none). With want (AP_HIER_LOCAL_N flags) and
 * n_want > 0 it stops once the n_want flagged cells are settled: then only theirs (and src's) are final;
 * want NULL: every cell. reach (AP_HIER_LOCAL_N bytes, or NULL): per settled cell v, the highest class
 * k >= cls such that some cheapest class-cls path to v uses only class-k moves (so class k's cost to v is
 * dist[v] exactly, see above); AP_HIER_CLASSES - 1 at src. Pure; thread-safe (writes only dist and reach).
 * Source: Dijkstra (1959); Dial (1969) for the buckets (cluster.c). */
void ap_hier_cluster_dijkstra(const ap_hier_cluster *c, int cls, uint32_t src, const uint8_t *want, int n_want,
                              double *dist, uint8_t *reach);

#endif
