/* smooth.c — waypoint-skipping smoothing.
 *
 * Source: Pinter, "Toward More Realistic Pathfinding", "Smoothing the A* Path", Listing 1: keep a checkpoint;
 * while the unit can walk straight from the checkpoint to the waypoint after the current one, drop the
 * current one; otherwise the current one becomes the checkpoint. Segments the exact test rejects (A* paths
 * ignore the unit's size) are left as they are, as in Pinter's Figure 4.
 */
#include "smooth.h"

#include <stdbool.h>

#include "../world/collide.h"

typedef bool (*walkable_fn)(const void *ctx, double ax, double ay, double bx, double by, double r);

static size_t smooth_with(const void *ctx, double (*pts)[2], size_t n, double r, walkable_fn walkable)
{
    if (n <= 2)
        return n;
    /* pts[0 .. k-1] is the kept prefix; pts[k-1] is the checkpoint; cur walks the input. Writing never
     * overtakes reading (k <= cur), so in-place is safe. */
    size_t k = 1;
    for (size_t cur = 1; cur + 1 < n; cur++) {
        const double *check = pts[k - 1];
        if (walkable(ctx, check[0], check[1], pts[cur + 1][0], pts[cur + 1][1], r))
            continue; /* drop pts[cur] */
        pts[k][0] = pts[cur][0];
        pts[k][1] = pts[cur][1];
        k++;
    }
    pts[k][0] = pts[n - 1][0];
    pts[k][1] = pts[n - 1][1];
    return k + 1;
}

static bool world_walkable(const void *ctx, double ax, double ay, double bx, double by, double r)
{
    return ap_world_line_clear(ctx, ax, ay, bx, by, r);
}

static bool sampled_walkable(const void *ctx, double ax, double ay, double bx, double by, double r)
{
    return ap_line_clear_sampled(ctx, ax, ay, bx, by, r);
}

size_t ap_smooth_los(const ap_world *w, double (*pts)[2], size_t n, double r)
{
    return smooth_with(w, pts, n, r, world_walkable);
}

size_t ap_smooth_los_sampled(const ap_map *m, double (*pts)[2], size_t n, double r)
{
    return smooth_with(m, pts, n, r, sampled_walkable);
}
