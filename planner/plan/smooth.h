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

/* The same on a grid map with Pinter's sampled Walkable (collide.h ap_line_clear_sampled; the bench only). */
size_t ap_smooth_los_sampled(const ap_map *m, double (*pts)[2], size_t n, double r);

#endif
