/* square.h — exact clearance tests of a square unit (axis-aligned, side 2h tiles) against the cells outside
 * a map's passability: the footprint Harabor's true clearance serves ("Clearance-based Pathfinding",
 * reference 004; clearance.h, unit.size).
 *
 * The rule (Harabor's model: a unit occupies whole cells, so it may stand against a wall): the OPEN square
 * footprint may not overlap the open square of a blocked cell, and must stay inside [0, width] x
 * [0, height]; touching along an edge or at a corner is allowed. Overlaps of at most 1e-9 tiles count as
 * touching, so footprints placed at exact cell boundaries by floating arithmetic are judged as meant.
 */
#ifndef AP_SQUARE_H
#define AP_SQUARE_H

#include <stdbool.h>

#include "map.h"

/* True when the square of half side h (tiles, >= 0), centred on each point of the straight line from
 * (ax, ay) to (bx, by), overlaps no blocked cell and stays on the map (the rule above). Exact: walks the
 * columns the swept square spans and, in each, the rows its centre's range reaches; O(length * (1 + h))
 * cell visits. False for non-finite input or h < 0. Pure; thread-safe. */
bool ap_square_line_clear(const ap_map *m, double ax, double ay, double bx, double by, double h);

#endif
