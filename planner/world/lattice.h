/* lattice.h — an obstacle-aware lower bound on the length of paths through free space.
 *
 * Shortest paths on the lattice of cell corners and centres (spacing 1/2 tile, 8-connected; an edge is
 * allowed when it lies in or on a free cell) from one cell's centre to every lattice vertex of a rectangular
 * region of cells. A lattice distance divided by AP_LATTICE_OCTILE_RATIO = sqrt(4 - 2 sqrt 2) = 1.0824, the
 * largest ratio of octile to Euclidean length, is a lower bound on the length of any curve through free
 * space between the two points: the shortest such curve bends only at blocked-cell corners (lattice points),
 * and each straight piece between lattice points has a lattice path of octile length along the cells it
 * crosses, at most 1.0824 times as long. Plain 8-connected grid distance is NOT a bound (a one-cell
 * staircase corridor makes it sqrt 2 times the true distance), nor is grid distance / 1.0824 (each corner a
 * curve cuts saves up to 0.586 tiles). A caller marks its region's border ring free, so that paths which
 * leave the region are never overestimated (a detour outside a rectangle is no shorter than its border).
 *
 * Used by the legal-turn searches (turns/directional.h) and the kinodynamic heuristic (kino/kino.h), for a
 * unit's centre: a disc's centre keeps away from blocked cells, so its paths are such curves too.
 * Pure functions over caller-owned arrays; thread-safe.
 */
#ifndef AP_WORLD_LATTICE_H
#define AP_WORLD_LATTICE_H
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "map.h"

/* sqrt(4 - 2 sqrt 2): the largest ratio of an octile path's length to the Euclidean distance it spans. */
#define AP_LATTICE_OCTILE_RATIO 1.0823922003

/* Lattice distances (tiles) from the centre of region cell (gx, gy) (inside the region) over the free cells
 * cfree (rw x rh bytes, row-major, nonzero = free; rw, rh >= 1) into dist ((2 rw + 1) x (2 rh + 1) floats,
 * row-major; vertex (2 x + 1, 2 y + 1) is cell (x, y)'s centre, (2 x, 2 y) its top-left corner), INFINITY
 * where no lattice path reaches. nfree: at most how many vertices can be reached (sizes the queue; 0 = all).
 * Exact Dijkstra on Dial's buckets of width 1/2 tile (no heap). The float sums may exceed the exact distance
 * by a few ulps per step: use ap_lattice_bound to turn them into bounds. Returns AP_OK or AP_E_NOMEM. */
int ap_lattice_distances(const uint8_t *cfree, int32_t rw, int32_t rh, int32_t gx, int32_t gy, size_t nfree,
                         float *dist);

/* ap_lattice_distances that gives up at deadline_ns (CLOCK_MONOTONIC ns, ap_clock_ns; 0 = never), looked at
 * before it starts and every 4,096 settled vertices: then AP_TIMEOUT and dist is not usable. A region of a
 * million cells takes tens of milliseconds, more than a query's deadline may allow. */
int ap_lattice_distances_until(const uint8_t *cfree, int32_t rw, int32_t rh, int32_t gx, int32_t gy, size_t nfree,
                               float *dist, uint64_t deadline_ns);

/* The lower bound (tiles) that a lattice distance v (from ap_lattice_distances) gives on the length of a
 * curve through free space between the same two lattice points: v shaved by a relative 1e-6 (the float
 * sums' rounding) and divided by AP_LATTICE_OCTILE_RATIO; an unreached vertex (INFINITY) gives 1e30. */
static inline double ap_lattice_bound(float v)
{
    return v < INFINITY ? (double)v * (1.0 - 1e-6) / AP_LATTICE_OCTILE_RATIO : 1e30;
}

/* v as a float rounded down, so a lower bound stays one (a plain conversion may round it up). */
static inline float ap_float_below(double v)
{
    float f = (float)v;
    if ((double)f > v)
        f = nextafterf(f, -INFINITY);
    return f;
}

/* The bound (tiles, a float rounded down, >= 0) from the centre of region cell (x, y) to a source point
 * `slack` tiles from the centre of the cell the distances dist (ap_lattice_distances over rw columns) were
 * taken from: ap_lattice_bound less slack. */
static inline float ap_lattice_cell_bound(const float *dist, int32_t rw, int32_t x, int32_t y, double slack)
{
    const double l = ap_lattice_bound(dist[(size_t)(2 * y + 1) * (size_t)(2 * rw + 1) + (size_t)(2 * x + 1)]) - slack;
    return ap_float_below(l > 0.0 ? l : 0.0);
}

/* Fill cfree for the region of map cells [x0, x0 + rw) x [y0, y0 + rh) (inside the map): a passable cell
 * and every cell of the region's border ring on a side away from the map's edge are free (1), the others 0
 * (a path can leave the region only across such a side; a side on the map's edge keeps the map's cells).
 * Returns the number of blocked cells inside the ring (0: the lattice bound is the octile one, never above
 * the straight distance). */
size_t ap_lattice_region_free(const ap_map *m, int32_t x0, int32_t y0, int32_t rw, int32_t rh, uint8_t *cfree);

#endif
