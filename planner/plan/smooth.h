/* smooth.h — waypoint-skipping smoothing (Pinter, "Smoothing the A* Path", Listing 1). */
#ifndef AP_SMOOTH_H
#define AP_SMOOTH_H

#include <stddef.h>

#include "../world/map.h"
#include "../world/world.h"

/* Smooth a polyline in place: keep a checkpoint, drop each following waypoint while the unit's disc of
 * radius r can go straight from the checkpoint to the waypoint after it (ap_world_line_clear, exact, on
 * any world: world.h). pts: n points [x, y] in tiles; returns the new count (first and last points are
 * always kept). Pure; thread-safe as the world. Source: Pinter, "Toward More Realistic Pathfinding",
 * Listing 1. */
size_t ap_smooth_los(const ap_world *w, double (*pts)[2], size_t n, double r);

/* Bisection tolerance of taut smoothing (tiles), its most bisection steps per slide and its most rounds. */
#define AP_TAUT_TOL 5e-2
#define AP_TAUT_MAX_BISECT 24
#define AP_TAUT_MAX_ROUNDS 8

/* Taut smoothing: ap_smooth_los, then rounds that pull every bend toward the corner it goes round, until
 * no bend moves by more than AP_TAUT_TOL tiles (at most AP_TAUT_MAX_ROUNDS). A bend B between A and C
 * slides along B -> C to the farthest point A still sees (bisection to AP_TAUT_TOL tiles), then along the
 * new B -> A to the farthest point C still sees, and drops out when A sees C; a bend that cannot slide
 * (its two lines graze two different corners) is split in two, cut across as far as walkable, and the
 * halves are pulled in later rounds. Every step keeps each line walkable for the disc of radius r by
 * ap_world_line_clear (the tested lines, and parts of them) and never lengthens the path, which tends to
 * the shortest path among the same obstacles on the same side of each (measured: BENCHMARKS.md "Taut
 * smoothing"). *pts: n points [x, y] in tiles, malloc'd (the caller's; replaced by a new block when the
 * rounds run, the old one freed); returns the new count (first and last points kept). Out of memory: the
 * rounds so far stand (at worst Listing 1's answer). Cost: Listing 1 plus O(bends x log2(length / tol))
 * line tests a round. Pure apart from *pts; thread-safe as the world. Source: Pinter, Listing 1, then
 * arcpath's own pulling (the corner-hugging form of the shortest path: Red Blob, "Circular Obstacle
 * Pathfinding"). */
size_t ap_smooth_taut(const ap_world *w, double (**pts)[2], size_t n, double r);

/* ap_smooth_los on grid map m with Pinter's sampled Walkable (collide.h ap_line_clear_sampled; the bench only):
 * same inputs, outputs and returns. Pure apart from pts; thread-safe. Source: Pinter, Listing 1. */
size_t ap_smooth_los_sampled(const ap_map *m, double (*pts)[2], size_t n, double r);

#endif
