/* hier.h — the hierarchical abstraction of a grid map (HAA*): clusters, entrances on cluster borders
 * annotated by clearance class, intra-cluster edges with exact costs per class, one abstract graph for every
 * disc size. A registered table kind ("hier", tables.h); searched by the plan kind plan_hier.c.
 *
 * Source: Harabor & Botea, "Hierarchical Path Planning for Multi-Size Agents in Heterogeneous Environments"
 * (CIG 2008) as summarised in Harabor, "Clearance-based Pathfinding" (reference 004, "Hierarchical
 * Abstraction"): the map is cut into square clusters; each maximal run of passable cell pairs across a
 * border (an entrance) gets transition points; transition points of one cluster are joined by intra-cluster
 * edges whose costs are exact shortest paths inside the cluster, one per clearance class, so one graph
 * serves units of several sizes; a query inserts start and goal into the graph, searches it, and refines.
 *
 * Choices (measured in BENCHMARKS.md, "Hierarchical (HAA*)"):
 *  - clusters of AP_HIER_CLUSTER x AP_HIER_CLUSTER = 16 x 16 cells: the refinement searches one cluster per
 *    abstract edge (ap_hier_path), so a cluster's 256 cells bound each refinement search; larger clusters
 *    give fewer abstract nodes but slower insertion and refinement.
 *  - per entrance (maximal run) and per class k: each maximal stretch of the run whose crossings let class
 *    k through gets a transition at its middle when shorter than 6 cells, else at both ends (Botea et al.'s
 *    HPA* rule, applied to the entrance as class k sees it), and the crossing of largest clearance serves
 *    every class that fits it. A transition belongs to the graphs of the classes it was placed for
 *    (ap_hier.classes): class k's abstract search sees only those. With one set for all classes (the ends of
 *    the run plus the widest crossing) a disc crossed every entrance at its widest point and its smoothed
 *    paths were 1.5 % longer than A*'s on average; with every class's transitions in every class's graph
 *    the searches were ~1.5x slower.
 *  - a border crossing that a class can make only diagonally (a corridor just wide enough for the class running
 *    diagonally across the border: neither orthogonal pair beside the diagonal move lets it through) gets a
 *    transition of its own for those classes, the diagonal move as its inter-cluster edge (hier.c
 *    diagonal_classes): without them a radius-2 disc's abstract path on Paris_1_1024 was up to 10.6 % longer
 *    than A*'s (BENCHMARKS.md "Hierarchical (HAA*)", eleventh session). With them every move a class may make
 *    across a border is served, by its own transition or along a stretch of orthogonal crossings.
 *  - clearance classes (AP_HIER_CLASSES): 0 = the point unit (every legal grid move: passable, no corner
 *    cutting), then discs of radius up to 1, 2 and 4 tiles (a move belongs to class k > 0 when its exact disc
 *    clearance, clearance.h, exceeds the class radius). A disc of radius r uses the smallest class whose
 *    radius is >= r (class 0 below AP_GRID_SIZED_MIN_RADIUS); larger discs have no class.
 *  - costs are those of the map's moves (terrain costs included), computed by Dijkstra over the cluster's
 *    cells (cluster.h): exact shortest paths restricted to the cluster. So the
 *    refined path's cost is the abstract path's. Transitions are placed by passability and clearance, not
 *    terrain cost: on weighted maps a cheap route may cross a border away from them (up to 11 % longer
 *    than A*'s measured on battleground; auto keeps A* there).
 *
 * The abstract search's heuristic: the octile distance to the goal, and (graphs of at most
 * AP_HIER_LANDMARK_MAX_NODES nodes) the ALT bound of AP_HIER_LANDMARKS landmarks per class (Goldberg &
 * Harrelson 2005; search/landmarks.h), whichever is larger: both consistent, so the abstract path is as short
 * as before, found with fewer expansions (BENCHMARKS.md "Hierarchical (HAA*)", ninth session). The goal is
 * inserted per query, so its landmark distances are min over its cluster's transitions e of d(L, e) + the
 * insertion's cost e -> goal: every abstract path to the goal ends with one of those edges.
 *
 * Stored detours (ap_hier.paths, ap_hier_edge_path): the refinement's searches were ~40 % of a point unit's
 * query on the small DAO maps (an A* inside a cluster for every edge whose shortest path is neither straight
 * octile path). The build already has each such path in its cluster Dijkstra's costs, so it reads it back
 * (per class; for a class whose cost came from a lower class's search, through that search's reach) and stores
 * its moves, a byte each, for both directions: 0.2-1.6 bytes a map cell on most Moving AI maps, at most
 * AP_HIER_PATH_BYTES_PER_CELL (reached by random512-*, maze512-1-0, 8room_000: clusters beyond it keep the
 * search). Queries then 1.3-1.8x faster where they refined by search most (BENCHMARKS.md "Stored detours",
 * tenth session). Botea, Mueller & Schaeffer (HPA*, 2004) name this trade of memory for refinement time
 * (caching the intra-cluster paths); here only the paths a search would have had to find are kept.
 *
 * Tile updates (the kind's update, tables.h): a cluster's intra-cluster edges depend only on its own cells
 * (passability, costs, clearance) and its transition cells, so the update redoes the clusters holding a
 * changed cell or a cell whose clearance changed (compared over AP_CLEARANCE_REACH around the changes) and
 * those whose transitions changed; entrances, nodes and inter-cluster edges are derived again from the
 * whole map (a border scan), and every other cluster's edges are copied, renumbered, with their stored
 * detours (the budget decided per cluster, in order, as the full build does). The result is the
 * full build's graph, node numbering and edge order included (nodes are numbered by cluster, so a changed
 * count shifts the later numbers: renumbering is one pass over the edges, far below the searches). A map
 * turning between uniform and weighted (every cost changes) is built again.
 */
#ifndef AP_HIER_H
#define AP_HIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../search/search.h"
#include "../world/clearance.h"
#include "../world/tables.h"

#define AP_HIER_CLUSTER 16
#define AP_HIER_CLASSES 4
/* Maps above this many cells get no graph (optional kind; `hierarchical` then runs A* over the whole map).
 * 1024^2: the build takes 50-80 ms on Paris_1_1024 and 30-45 ms on AcrosstheCape (768^2), 4-30 ms at 512^2
 * (cluster.h; BENCHMARKS.md, "Hierarchical (HAA*)", 2026-11-24), within the 100 ms budget, at about
 * 4 bytes a cell. Above it the build's time (a cost every server start pays) is unmeasured. */
#define AP_HIER_MAX_CELLS (1024LL * 1024LL)

/* Landmarks per class of the abstract search's ALT bound (ap_hier.lm), and the largest graph that gets them:
 * their build is (AP_HIER_LANDMARKS + 1) Dijkstra runs over the graph per class, a few milliseconds at
 * 16,384 nodes; larger graphs (1024^2 city maps: 17,000-30,000 nodes) keep the octile bound alone, within
 * their 100 ms build budget, where the abstract search is already 13-22x faster than A* (BENCHMARKS.md). */
#define AP_HIER_LANDMARKS 4
#define AP_HIER_LANDMARK_MAX_NODES 16384
#define AP_HIER_LM_UNIT 0.125 /* tiles per unit of ap_hier.lm: distances up to 8191.75 tiles */
#define AP_HIER_LM_NONE UINT16_MAX

/* The largest disc radius (tiles) of class k (k >= 1); class 0 is the point unit. */
extern const double ap_hier_class_radius[AP_HIER_CLASSES];

/* One abstract edge: to node `to`, cost per class (tiles times terrain cost; INFINITY = not usable). */
typedef struct ap_hier_edge {
    uint32_t to;
    float cost[AP_HIER_CLASSES];
} ap_hier_edge;

/* No stored path (ap_hier_edge_path). */
#define AP_HIER_NO_PATH UINT32_MAX
/* The stored detours' budget: at most this many bytes a map cell (the moves and their index), taken cluster
 * by cluster in order; the clusters beyond it are refined by search (hier.h ap_hier_path). */
#define AP_HIER_PATH_BYTES_PER_CELL 2

/* The abstract graph. Nodes are transition cells; their edges are in CSR form. */
typedef struct ap_hier {
    int32_t cw, ch;          /* clusters per row / column */
    uint32_t n_nodes;
    uint32_t max_deg;        /* most edges of one node */
    uint32_t *cell;          /* per node: its padded cell id */
    int32_t *xy;             /* per node: its cell's x and y (2 words; the abstract search's heuristic) */
    uint8_t *classes;        /* per node: bit k = a transition of class k's graph (placed for k) */
    uint32_t *first;         /* per node: its first edge; first[n_nodes] = edge count */
    ap_hier_edge *edges;
    uint32_t *cl_first;      /* per cluster: its first node (nodes are grouped by cluster); cw*ch + 1 */
    uint8_t *cl_stored;      /* per cluster: 1 when the stored detours' budget was open at it (its detours
                              * are stored); a tile update copies a cluster's detours only from a build
                              * that stored them, so it stores what a fresh build does */
    /* The open lattice's costs inside a cluster, octile[|dx|][|dy|] (cluster.h ap_hier_octile_costs), made once
     * at build: the cost between two cells of a cluster that a straight octile path of legal moves joins
     * (uniform maps), read by the build's intra-cluster edges and by a query's start and goal insertion. */
    double octile[AP_HIER_CLUSTER][AP_HIER_CLUSTER];
    const ap_clearance_table *clear; /* the map's capability's table the classes > 0 read; NULL = class 0 only */
    /* ALT (search/landmarks.h) per class: lm[(cls * n_nodes + v) * AP_HIER_LANDMARKS + i] = the abstract
     * distance from class cls's landmark i to node v over class cls's edges in units of AP_HIER_LM_UNIT tiles,
     * rounded down (AP_HIER_LM_NONE: another component, no such landmark, or too far to hold); classes
     * 0 .. lm_classes-1 (1 without a clearance table). 2 bytes a node, landmark and class: about 1 byte a map
     * cell at 4 classes. NULL when the graph has more than AP_HIER_LANDMARK_MAX_NODES nodes (or memory ran
     * out): then the abstract search uses the octile bound alone. */
    uint16_t *lm;
    int lm_classes;
    /* Stored detours (ap_hier_edge_path): for an intra-cluster edge and a class whose shortest path is neither
     * straight octile path (the refinement's first tries), that path, so the refinement reads it instead of
     * searching. path_edge[0 .. n_paths) are the keys edge * AP_HIER_CLASSES + class that have one,
     * ascending (edge indices fit: the key is below 2^32 for graphs of up to 2^30 edges, far above any
     * 1024^2 map's), and path_at[k] the offset in paths of path_edge[k]'s: a byte n, then n move codes (the
     * index i of the move (ap_hier_dx[i], ap_hier_dy[i]), cluster.h) from the edge's node to its `to`.
     * Within AP_HIER_PATH_BYTES_PER_CELL. */
    uint8_t *paths;
    size_t paths_len;
    uint32_t *path_edge, *path_at;
    uint32_t n_paths;
    size_t bytes;
} ap_hier;

/* The first index k of h->path_edge with path_edge[k] >= key (n_paths when none). Pure. */
static inline uint32_t ap_hier_path_lower(const ap_hier *h, uint64_t key)
{
    uint32_t lo = 0, hi = h->n_paths;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (h->path_edge[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The offset in h->paths of edge e's stored class-cls detour (see ap_hier), or AP_HIER_NO_PATH. Pure. */
static inline uint32_t ap_hier_edge_path(const ap_hier *h, uint32_t e, int cls)
{
    const uint64_t key = (uint64_t)e * AP_HIER_CLASSES + (uint64_t)cls;
    const uint32_t k = ap_hier_path_lower(h, key);
    return k < h->n_paths && h->path_edge[k] == key ? h->path_at[k] : AP_HIER_NO_PATH;
}

/* Build the graph of map m (its pass and costs; the clearance table of m->capability when it has one). On
 * AP_OK *out is new (free with ap_hier_free); AP_E_NOMEM, AP_E_MAP_TOO_LARGE (above AP_HIER_MAX_CELLS)
 * otherwise, nothing allocated. Pure; thread-safe. */
int ap_hier_build(const ap_map *m, ap_hier **out);

/* Free a graph from ap_hier_build (its arrays too). NULL is ignored. Not while other threads still read it. */
void ap_hier_free(void *h);

/* The class of a disc of radius r (tiles) on graph h: 0 .. AP_HIER_CLASSES-1, or -1 when no class holds it
 * (too large, or h has no clearance table and r >= AP_GRID_SIZED_MIN_RADIUS). Pure. */
int ap_hier_class_of(const ap_hier *h, double r);

/* The cluster of padded cell id of m. Pure. */
static inline uint32_t ap_hier_cluster_of(const ap_map *m, const ap_hier *h, uint32_t id)
{
    int32_t x = (int32_t)(id % (uint32_t)m->stride) - 1, y = (int32_t)(id / (uint32_t)m->stride) - 1;
    return (uint32_t)((y / AP_HIER_CLUSTER) * h->cw + x / AP_HIER_CLUSTER);
}

/* A refined hierarchical path (ap_hier_path). */
typedef struct ap_hier_result {
    uint32_t *cells;      /* padded cell ids from start to goal, every move between neighbours; malloc'd, the
                           * caller frees */
    size_t n_cells;
    double cost;          /* the refined path's cost (tiles times terrain cost: ap_map_move_cost per move) */
    double abstract_cost; /* the abstract path's cost: equal to cost up to the float rounding of the stored
                           * edge costs (relative 1e-7), since intra-cluster costs are exact per class */
    size_t abstract_nodes; /* nodes of the abstract path, inserted start and goal included */
    uint64_t expanded;    /* expansions of the abstract search */
} ap_hier_result;

/* HPA*-style query from padded cell start to padded cell goal for class cls on m's graph h: insert start and
 * goal (exact costs to their cluster's transitions: one Dijkstra inside each of the two clusters), A* over the
 * abstract graph on ws (any workspace of capacity >= n_nodes + 2 and >= AP_HIER_CLUSTER^2 + 1 and
 * succ_cap > max_deg: a plan's), then refine the
 * abstract path edge by edge: each intra-cluster edge (and the start and goal insertion edges) by a shortest
 * path confined to that one cluster with the class's moves (legal grid moves, and for cls > 0 clear for the
 * class's disc radius, exact clearance.h): a straight octile path when one is as short, else the edge's
 * stored detour (ap_hier_edge_path), else an A* search in the cluster; each inter-cluster edge as its single
 * orthogonal move; the pieces concatenated. Every move of the result is thus legal for the class (so clear
 * for every disc of radius <= ap_hier_class_radius[cls]), and its cost equals the abstract cost (hier.h:
 * exact intra-cluster costs). On AP_OK *out is filled (free out->cells); AP_NO_PATH (no abstract path for that class),
 * AP_TIMEOUT (deadline_ns passed), AP_E_NOMEM or AP_E_INTERNAL otherwise, *out zeroed. Thread-safe on a
 * loaded map (writes only ws and *out). Every search (insertion, abstract, refinement) runs on ws in turn.
 *
 * Source: Botea, Mueller & Schaeffer, "Near Optimal Hierarchical Path-Finding" (HPA*, 2004): "refine the
 * abstract path ... each abstract edge by a search restricted to one cluster"; classes after Harabor & Botea
 * (2008). */
int ap_hier_path(const ap_map *m, const ap_hier *h, int cls, uint32_t start, uint32_t goal, ap_workspace *ws,
                 uint64_t deadline_ns, ap_hier_result *out);

/* "hier" (optional): data = ap_hier, bytes = its memory, count = abstract nodes ("entrances"). */
extern const ap_table_kind ap_hier_table_kind;

/* m's graph, or NULL (none built; a capability view has none of its own). Borrowed; thread-safe. */
const ap_hier *ap_hier_of(const ap_map *m);

#endif
