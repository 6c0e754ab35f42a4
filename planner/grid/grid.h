/* grid.h — the grid search domain: cells of a Moving AI map, 8-connected (octile) or 4-connected.
 *
 * Node ids are padded map indices (see map.h). 8-connected: straight steps cost 1, diagonal steps sqrt(2)
 * and need both orthogonal neighbours passable (no corner cutting — the Moving AI rule); heuristic = octile
 * distance. 4-connected: unit steps; heuristic = Manhattan distance. Both heuristics are consistent, so
 * A* returns optimal costs. On a map with terrain costs (map.h, ap_map_move_cost) each step costs its
 * length times the mean cost of the two cells, and the heuristics are scaled by the map's cheapest cost.
 */
#ifndef AP_GRID_H
#define AP_GRID_H

#include <stdbool.h>
#include <stdint.h>

#include "../world/map.h"
#include "../search/search.h"

typedef struct ap_grid_domain {
    const ap_map *map;
    int connectivity; /* 4 or 8 */
    int32_t goal_x, goal_y;
    /* Hot-path copies of map fields (added with the implementation): padded passability, its stride, and
     * the goal's padded column/row so the heuristic works on padded indices without the -1 offsets. */
    const uint8_t *pass;
    uint32_t stride;
    uint32_t goal_px, goal_py;
    /* Sized units (ap_grid_domain_init_sized): the clearance table the moves are checked against and the
     * unit's disc radius (tiles) and its threshold level (clearance.h ap_clearance_level: a move is clear
     * when its level is above it); NULL / 0 / 0 for point units. */
    const struct ap_clearance_table *clear;
    double radius;
    uint32_t level;
    /* Square units (ap_grid_domain_init_square): the side k in cells; 0 otherwise. */
    unsigned size;
} ap_grid_domain;

/* Whether every f value a search on uniform-cost map m can reach has a bucket number at per_tile buckets a
 * tile (search/open_bucket.h ap_bq_fits, over m's passable cells and longer side): the grid and JPS+ domains
 * take their bucketed loops only then, else the generic one. Pure. */
bool ap_grid_bucket_fits(const ap_map *m, uint32_t per_tile);

/* Fill dom with the grid domain over map m (borrowed, must outlive the search) for the given connectivity
 * (4 or 8) and goal cell node id (padded index). gd is the domain's context and must outlive dom. Every
 * field of dom is written; on a uniform map the 8-connected domain sets dom->run to its own copy of the A*
 * loop (successors and octile heuristic inlined, bucketed open list: grid.c), which expands the same nodes
 * in the same order as the generic loop.
 * Returns AP_OK, AP_E_INVALID_REQUEST for a bad connectivity, or AP_E_INTERNAL for a NULL m or a goal beyond
 * the padded grid. Thread-safe: writes only gd and dom. */
int ap_grid_domain_init(ap_grid_domain *gd, ap_domain *dom, const ap_map *m, int connectivity, uint32_t goal);

/* Below this radius (tiles) every legal grid move is clear for the unit's disc, so the plain grid domain
 * is already the annotated one: the nearest blocked square to a move between passable neighbours (no corner
 * cutting) is at least 0.5 tiles away, stored rounded down as 127/256 (world/clearance.h). */
#define AP_GRID_SIZED_MIN_RADIUS (127.0 / 256.0)

/* The grid domain for a disc unit of radius r (tiles) — Harabor's Annotated A* ("Clearance-based
 * Pathfinding", reference 004), with exact disc clearance instead of square clearance: a move between
 * neighbouring cell centres is a successor only when the disc swept along it touches no cell outside the
 * table's capability (r + 1e-7 below the move's exact clearance in t, clearance.h: a unit within 1e-7 tile
 * of touching is kept out). Same costs and
 * heuristic as ap_grid_domain_init; 8-connected, its own copy of the loop (dom->run: the same moves in the
 * same order as the generic loop over dom->successors, inlined, bucketed open list; on a map with terrain
 * costs the generic loop with ap_map_move_cost's costs). t must be the table of m's capability (map.h
 * ap_map.capability: its cells are m's passable ones). An exhausted search proves the goal unreachable for
 * that disc. m and t are borrowed (must outlive the search). Returns as ap_grid_domain_init; AP_E_INTERNAL for a
 * NULL t. Thread-safe: writes only gd and dom. */
int ap_grid_domain_init_sized(ap_grid_domain *gd, ap_domain *dom, const ap_map *m, int connectivity, uint32_t goal,
                              const struct ap_clearance_table *t, double r);

/* The grid domain for a square unit of k x k cells (k in 1 .. 255) — Harabor's Annotated A* with true
 * clearance ("Clearance-based Pathfinding", reference 004: a tile is traversable when its terrain is in the
 * unit's capability and its clearance is at least the unit's size). Nodes are footprint anchors, the
 * top-left cell of the footprint (padded index); `goal` is the goal's anchor. A move to an anchor is legal
 * when its true clearance in t (t->square) is >= k; a diagonal move also needs both orthogonal neighbours'
 * (no corner cutting for the footprint: together they are the (k + 1) x (k + 1) block the square sweeps).
 * Costs and heuristic as ap_grid_domain_init on a uniform map, which m must be (AP_E_INTERNAL otherwise, or
 * for a NULL t or k out of range); 8-connected, its own copy of the loop (dom->run, the grid loop's moves over
 * the anchors that fit), 4-connected the generic loop. t must be the table of m's capability. An exhausted
 * search proves the goal unreachable for the square. Thread-safe: writes only gd and dom. */
int ap_grid_domain_init_square(ap_grid_domain *gd, ap_domain *dom, const ap_map *m, int connectivity, uint32_t goal,
                               const struct ap_clearance_table *t, int k);

/* Octile distance between cells dx columns and dy rows apart (either sign): max(|dx|,|dy|) + (sqrt(2)-1) *
 * min(|dx|,|dy|), tiles. Pure; thread-safe. */
double ap_octile(int32_t dx, int32_t dy);

#endif
