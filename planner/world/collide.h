/* collide.h — exact clearance tests of a disc-shaped unit against the blocked cells of a map.
 *
 * "Touches" means the closed disc of radius r around the unit's centre and the closed square of a blocked
 * cell share at least one point (distance <= r). Cells off the map count as blocked. These are exact
 * geometric tests, not sampling: they enumerate every cell the swept disc could reach and compute the exact
 * segment/arc-to-square distance for each blocked one.
 */
#ifndef AP_COLLIDE_H
#define AP_COLLIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "map.h"
#include "../base/path.h"

/* True when the disc of radius r (tiles, >= 0) swept along the straight line from (ax, ay) to (bx, by)
 * touches no blocked or off-map cell. This is the exact Walkable(A, B) of Pinter's Listing 1.
 * Cost: O(length * (1 + r)) cell visits. Pure; thread-safe. */
bool ap_line_clear(const ap_map *m, double ax, double ay, double bx, double by, double r);

/* True when the disc of radius r (tiles, >= 0) swept along segment s (line or arc) touches no blocked/off-map
 * cell (an arc: the exact point-to-arc distance per cell). Pure; thread-safe. */
bool ap_segment_clear(const ap_map *m, const ap_segment *s, double r);

/* The same two tests against another passability mask of m's padded layout (ap_map_node_count(m) bytes,
 * non-zero = free; borrowed): m->cheap gives the cheap-terrain view that smoothing on weighted maps uses
 * (grid_world.h ap_map_world_cheap). m gives the bounds and layout only. Pure; thread-safe. */
bool ap_line_clear_mask(const ap_map *m, const uint8_t *pass, double ax, double ay, double bx, double by, double r);
bool ap_segment_clear_mask(const ap_map *m, const uint8_t *pass, const ap_segment *s, double r);

/* Every cell the closed disc of radius r (tiles, >= 0) swept along segment s (line or arc) touches, map
 * or no map: cell (i, j) is the closed square [i, i+1] x [j, j+1] in the segment's own coordinates, listed
 * iff its exact distance to the segment (or arc) is <= r + 1e-9 (the same conservative tolerance as the
 * clearance tests, so a cell ap_segment_clear would count as touched is always listed). Used to build
 * Directional A*'s hit-check tables (Pinter, "Legal Turns: The Directional A* Algorithm", "Using a
 * hit-check table"; profile.h), with the segment placed relative to an origin cell. Writes up to cap
 * cells as {i, j} into out (may be NULL when cap is 0) in row-major order and returns the total count,
 * which may exceed cap (call again with a bigger buffer). Returns 0 for non-finite input. Pure;
 * thread-safe. */
size_t ap_segment_cells(const ap_segment *s, double r, int32_t (*out)[2], size_t cap);

/* Pinter's original sampled Walkable(A, B) ("Smoothing the A* Path"): samples every 1/5 tile along AB and
 * tests the four diamond points at distance r around the centre. Can miss corners; kept for the bench's
 * comparison with ap_line_clear. Tiles in; true when clear. Pure; thread-safe. */
bool ap_line_clear_sampled(const ap_map *m, double ax, double ay, double bx, double by, double r);

#endif
