/* circles.h — a world of circular obstacles (world.h's second kind beside the grid).
 *
 * The world is [0, width] x [0, height] tiles; obstacles are closed discs (x, y, r), which may overlap,
 * touch or stick out of the world (a centre may lie anywhere). Free space is inside the rectangle and
 * outside every closed disc. Source: Red Blob Games, "Circular Obstacle Pathfinding" (obstacle forests of
 * circles; "Line of sight" with the point-line distance, "Hugging edge line of sight" for arcs).
 *
 * Clearance (world.h): the closed disc of radius r around the unit's centre may not share a point with any
 * obstacle disc nor leave the rectangle, i.e. the centre stays more than r_k + r from every centre and more
 * than r from every side. The tests are exact (point-to-segment and point-to-arc distances) with world.h's
 * conservative tolerance AP_CIRCLES_EPS. A uniform bucket grid (spatial index) lists, per bucket, the discs
 * whose bounding box meets it, so a test only reads discs near the swept shape; discs covering more than
 * AP_CIRCLES_BIG_BUCKETS buckets sit in one list read by every test.
 *
 * Region (world.h allows a safe answer): one id, 1, for every clear point (radius 0), 0 for the rest. Equal
 * non-zero ids therefore do NOT prove that two points are connected here; a planner must search to answer
 * no_path. Tables: none (NULL).
 *
 * An ap_circle_world is immutable after ap_circle_world_create: any number of threads may read it at once.
 */
#ifndef AP_CIRCLES_H
#define AP_CIRCLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/path.h"
#include "world.h"

/* World.h's tolerance (tiles): a distance within r + eps counts as touching (conservative side). */
#define AP_CIRCLES_EPS 1e-9
/* A disc whose bounding box covers more buckets than this is kept in the always-read list instead. */
#define AP_CIRCLES_BIG_BUCKETS 64
/* Most obstacles a circle world may hold (ids stay far below 2^30 for the any-angle node keys). */
#define AP_CIRCLES_MAX (1u << 24)

/* One circular obstacle: centre (x, y) and radius r, tiles. */
typedef struct ap_circle {
    double x, y, r;
} ap_circle;

typedef struct ap_circle_world ap_circle_world;

/* Build a circle world of width x height tiles (finite, > 0, at most 1e7) from n circles (copied; c may be
 * NULL when n == 0; n <= AP_CIRCLES_MAX). Validation names the first bad input: "width", "height", or
 * "circles[i].x" / ".y" / ".r" (each must be finite; r >= 0 and at most 1e7; |x|, |y| at most 1e7).
 * On success stores a new world in *out (caller owns; ap_circle_world_free) and returns AP_OK; on bad input
 * returns AP_E_MAP_FORMAT with the field in field[0 .. field_size) and a message in msg[0 .. msg_size)
 * (either may be NULL when its size is 0); AP_E_NOMEM when allocation fails. Thread-safe. */
int ap_circle_world_create(double width, double height, const ap_circle *c, size_t n, ap_circle_world **out,
                           char *field, size_t field_size, char *msg, size_t msg_size);

/* Free a world (NULL is ignored). No other thread may be reading it. */
void ap_circle_world_free(ap_circle_world *cw);

/* Fill *out with the world interface of cw (world.h): ops, ctx = cw (borrowed: cw must outlive *out), bounds in
 * tiles. Pure; the world is thread-safe like cw. */
void ap_circle_world_view(const ap_circle_world *cw, ap_world *out);

/* The circles (borrowed, n = ap_circle_world_count), in the caller's order; the bounds in tiles. Pure;
 * thread-safe. */
const ap_circle *ap_circle_world_circles(const ap_circle_world *cw);
size_t ap_circle_world_count(const ap_circle_world *cw);
double ap_circle_world_width(const ap_circle_world *cw);
double ap_circle_world_height(const ap_circle_world *cw);

/* The swept tests with a chosen tolerance tol (tiles, either sign): the disc of radius r swept along the
 * line A -> B (or segment s: line or arc) is clear when its centre stays more than r_k + r + tol from every
 * obstacle centre k and more than r + tol inside every side of the rectangle. tol = AP_CIRCLES_EPS is the
 * world.h rule (what the ops use); a negative tol (e.g. -AP_CIRCLES_EPS) allows touching, the closure of
 * free space, which the any-angle planner's exact shortest paths need (anyangle.h). Non-finite input or
 * r < 0 is never clear. Pure; thread-safe. */
bool ap_circle_world_line_tol(const ap_circle_world *cw, double ax, double ay, double bx, double by, double r,
                              double tol);
bool ap_circle_world_segment_tol(const ap_circle_world *cw, const ap_segment *s, double r, double tol);

/* Most touch intervals ap_circle_world_point_segment_ok gives (an arc's touch may take two pieces); a segment
 * that comes within AP_CIRCLES_EPS of more than half as many distinct obstacles and sides is refused
 * (conservative: 65 different circles all tangent to one line at one point; copies of a disc, same centre
 * and radius, count once). */
#define AP_CIRCLES_MAX_TOUCHES 128

/* Where a point path's segment comes within AP_CIRCLES_EPS of one obstacle (ap_circle_world_point_segment_ok):
 * the interval [t0, t1] of the segment's parameter (a line: fraction of A -> B in [0, 1]; an arc: radians
 * from its start along its sweep), the obstacle's side (a line: +1 left of A -> B, -1 right; an arc: +1
 * outside its circle, -1 inside) and id (the circle's index, or UINT32_MAX - k for the rectangle's side k:
 * left, right, bottom, top). */
typedef struct ap_circle_touch {
    double t0, t1;
    int side;
    uint32_t id;
} ap_circle_touch;

/* The point unit's rule (radius 0) in the any-angle closure model, the limit r -> 0+ of world.h's rule:
 * segment s (line, or arc of radius > 0; a zero-length line is the point) is usable when
 * ap_circle_world_segment_tol(cw, s, 0, -AP_CIRCLES_EPS) holds (touching allowed) and no point of it lies
 * within AP_CIRCLES_EPS of two obstacles (circles of radius above 2 AP_CIRCLES_EPS, or the rectangle's
 * sides) on opposite sides of it that touch each other from outside there (ap_circle_world_cusp): a gap of
 * width 0 that no disc of any radius > 0 passes (two touching circles, a circle touching a side); a point
 * (a start or goal) is refused within EPS of two such touching obstacles whatever their sides. Where
 * two obstacles cross (a circle over a side or over another circle; two sides at a world corner) free
 * space has a corner a disc fits into: a path may start or end there (passing through it enters an
 * obstacle, which the closure test refuses). A segment within EPS of more than AP_CIRCLES_MAX_TOUCHES / 2
 * distinct obstacles is refused. out (NULL, or room for AP_CIRCLES_MAX_TOUCHES) and
 * *n_out (may be NULL) receive the touches of a usable segment of positive length (none for a point), for a
 * caller that holds more obstacles (a grid's blocked squares) to test them against the same rule.
 * Non-finite input is never usable. Pure; thread-safe. Source: Red Blob Games, "Circular Obstacle
 * Pathfinding" (the closure model, docs/anyangle.md). */
bool ap_circle_world_point_segment_ok(const ap_circle_world *cw, const ap_segment *s, ap_circle_touch *out,
                                      size_t *n_out);
/* The same for the line A -> B (the any-angle search's line-of-sight test: no segment to build). */
bool ap_circle_world_point_line_ok(const ap_circle_world *cw, double ax, double ay, double bx, double by,
                                   ap_circle_touch *out, size_t *n_out);

/* Do obstacles a and b (ids as in ap_circle_touch) touch from outside, each within 4 AP_CIRCLES_EPS of
 * the other's boundary but not crossing it deeper: two discs whose centres lie at least r_a + r_b - 4 EPS
 * apart, a disc whose centre lies at least r - 4 EPS inside a side, two parallel sides. Crossing obstacles
 * leave a corner of free space instead (circles.h's point rule). Ids out of range (no such disc) are never a
 * cusp. Pure; thread-safe. Source: the closure model of docs/anyangle.md (the limit r -> 0+ of world.h's
 * rule), over Red Blob Games' "Circular Obstacle Pathfinding" obstacles. */
bool ap_circle_world_cusp(const ap_circle_world *cw, uint32_t a, uint32_t b);

#endif
