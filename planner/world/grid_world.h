/* grid_world.h — a Moving AI grid map (map.h) as a world (world.h).
 *
 * Obstacles are the closed squares of blocked cells; the clearance tests are collide.h's exact swept-disc
 * tests, regions are the map's region table, tables the map's table slots (ap_map_find_table).
 */
#ifndef AP_GRID_WORLD_H
#define AP_GRID_WORLD_H

#include "clearance.h"
#include "map.h"
#include "world.h"

/* Fill *out with the world of map m: bounds width x height tiles, obstacles = blocked cells (map.h).
 * m is borrowed (must outlive *out) and only read, so the world is thread-safe like the map. */
void ap_map_world(const ap_map *m, ap_world *out);

/* The cheap-terrain view of a weighted map m (m->weighted; map.h): the same world, except that the
 * clearance tests treat every cell whose cost is not m->cost_min as blocked. Smoothing on weighted maps
 * uses it so that a shortcut only crosses the cheapest terrain, which never costs more than the cells it
 * replaces. Regions and tables are the map's own. On a uniform map (m->cheap == NULL) this is
 * ap_map_world. Borrowing and thread safety as ap_map_world. */
void ap_map_world_cheap(const ap_map *m, ap_world *out);

/* The world of map m as a square unit sees it (square.h): the clearance tests take r as the square's half
 * side (a k x k unit: r = k / 2) and apply square.h's rule (the open footprint may not overlap a blocked
 * cell; it may touch one). Lines only: an arc is never clear for a square (square units move on the grid).
 * Regions and tables are the map's. Borrowing and thread safety as ap_map_world. */
void ap_square_world(const ap_map *m, ap_world *out);

/* When w is a plain grid world (filled by ap_map_world: collide.h's exact tests over its map's passability,
 * nothing laid over it) whose map has the disc clearance table of its passability (clearance.h,
 * ap_clearance_of(m, m->capability)): true, with the map in *m and the table in *t, both borrowed from the
 * world. Otherwise (the cheap-terrain or square world, a circle world, a corridor zone laid over a grid,
 * any other world, or a map without the optional table) false, *m and *t NULL: the table does not describe
 * that world's obstacles. For ap_clearance_reach, the shortcut past the exact tests. Pure; thread-safe. */
bool ap_map_world_clearance(const ap_world *w, const ap_map **m, const ap_clearance_table **t);

#endif
