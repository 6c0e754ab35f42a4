/* world.h — what a planner needs of a world apart from how it is stored: bounds, exact clearance of a disc
 * at a point and swept along lines and arcs, connectivity regions, and per-world tables by name.
 *
 * Shape (libuv style): an ops table plus an opaque context, held in a caller-owned ap_world value. There
 * are no hidden globals: every call reads only *ctx, so a world may be used from any number of threads at
 * once as long as its context is immutable (a loaded map is). Implementations: the Moving AI grid
 * (grid_world.h, over ap_map and collide.h) and its square-unit view (ap_square_world, grid_world.h), worlds
 * of circles (circles.h, ap_circle_world_view), the kinodynamic corridor laid over another world (zone.h,
 * ap_zone_world) and the any-angle graph's view for fixed-angle art (plan_anyangle.c); tests add others
 * (tests/planner/world/test_world.c has disc obstacles with analytic tests).
 *
 * The clearance rule every implementation follows (the `clear` verdict of a path answer): the closed disc
 * of radius r (tiles, >= 0) around the unit's centre and the closed obstacle set may not share a point, and
 * everything outside [0, width] x [0, height] counts as an obstacle. Swept tests apply the rule to every
 * position along the line or arc. Non-finite input, or r < 0, is never clear.
 *
 * Units: positions in tiles (x = column, y = row), headings in radians from +x toward +y.
 */
#ifndef AP_WORLD_H
#define AP_WORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/path.h"

/* One implementation's operations. Every function receives the world's ctx unchanged; all are pure reads
 * (thread-safe on an immutable context). */
typedef struct ap_world_ops {
    /* True when the closed disc of radius r centred at (x, y) touches no obstacle and stays inside. */
    bool (*point_clear)(const void *ctx, double x, double y, double r);
    /* True when the disc swept along the straight line from (ax, ay) to (bx, by) stays clear (Pinter's
     * Walkable(A, B), exact). A zero-length line is point_clear. */
    bool (*line_clear)(const void *ctx, double ax, double ay, double bx, double by, double r);
    /* True when the disc swept along segment s (line or arc, path.h) stays clear. */
    bool (*segment_clear)(const void *ctx, const ap_segment *s, double r);
    /* Connectivity region of the point (x, y): two points with the same non-zero id are joined by a path of
     * the world's own moves; 0 = the point is blocked or off the world. Ids are only compared, never
     * ordered. Used to answer no_path without searching (Pinter, "Path Failure and Timeslicing"). */
    uint32_t (*region)(const void *ctx, double x, double y);
    /* The data of the per-world table called name (e.g. "jps_plus"), or NULL when the world has none. The
     * data is borrowed from the world and immutable. */
    const void *(*table)(const void *ctx, const char *name);
} ap_world_ops;

/* A world: its operations, its context (borrowed: must outlive every use of the world) and its bounds in
 * tiles. Fill it with an implementation's constructor (e.g. ap_map_world); copying the value is fine. */
typedef struct ap_world {
    const ap_world_ops *ops;
    const void *ctx;
    double width, height; /* tiles: the world is [0, width] x [0, height] */
} ap_world;

/* Disc of radius r (tiles) at (x, y) clear of obstacles and inside the world (see the rule above). */
static inline bool ap_world_point_clear(const ap_world *w, double x, double y, double r)
{
    return w->ops->point_clear(w->ctx, x, y, r);
}

/* Disc of radius r swept along the line A -> B clear (exact). */
static inline bool ap_world_line_clear(const ap_world *w, double ax, double ay, double bx, double by, double r)
{
    return w->ops->line_clear(w->ctx, ax, ay, bx, by, r);
}

/* Disc of radius r swept along segment s (line or arc) clear (exact). */
static inline bool ap_world_segment_clear(const ap_world *w, const ap_segment *s, double r)
{
    return w->ops->segment_clear(w->ctx, s, r);
}

/* True when every one of the n segments is clear for radius r (n = 0: true). */
static inline bool ap_world_segments_clear(const ap_world *w, const ap_segment *s, size_t n, double r)
{
    for (size_t i = 0; i < n; i++)
        if (!ap_world_segment_clear(w, &s[i], r))
            return false;
    return true;
}

/* The `clear` verdict of a path answer: every one of its n segments clear for radius r or, for a path of
 * no segments (start = goal), the disc at the start point (x, y). */
static inline bool ap_world_path_clear(const ap_world *w, const ap_segment *s, size_t n, double x, double y,
                                       double r)
{
    return n > 0 ? ap_world_segments_clear(w, s, n, r) : ap_world_point_clear(w, x, y, r);
}

/* Region id of point (x, y); 0 when blocked or off the world. */
static inline uint32_t ap_world_region(const ap_world *w, double x, double y)
{
    return w->ops->region(w->ctx, x, y);
}

/* Data of the table called name, or NULL; borrowed from the world and immutable (as ops->table). */
static inline const void *ap_world_table(const ap_world *w, const char *name)
{
    return w->ops->table(w->ctx, name);
}

#endif
