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
} ap_grid_domain;

/* Fill dom with the grid domain over map m (borrowed, must outlive the search) for the given connectivity
 * (4 or 8) and goal cell node id (padded index). gd is the domain's context and must outlive dom. Every
 * field of dom is written; on a uniform map the 8-connected domain sets dom->run to its own copy of the A*
 * loop (successors and octile heuristic inlined, bucketed open list: grid.c), which expands the same nodes
 * in the same order as the generic loop.
 * Returns AP_OK or AP_E_INVALID_REQUEST for a bad connectivity. Thread-safe: writes only gd and dom. */
int ap_grid_domain_init(ap_grid_domain *gd, ap_domain *dom, const ap_map *m, int connectivity, uint32_t goal);

/* Octile distance between cells: max(dx,dy) + (sqrt(2)-1) * min(dx,dy), tiles. */
double ap_octile(int32_t dx, int32_t dy);

#endif
