/* graph.h — what the any-angle search (anyangle.h) needs of a world: the circles a shortest path may hug
 * and line-of-sight tests, built once per world and unit radius and shared read-only by every query.
 *
 * Source: Red Blob Games, "Circular Obstacle Pathfinding", "Minkowski expansion" (grow every obstacle by the
 * unit's radius r_u and plan for a point), "Surfing edge line of sight", "Hugging edge line of sight".
 *
 * The model (closure of free space): the planner returns the infimum of the lengths of clear paths, which
 * is attained only by paths that touch obstacles. So every test here allows touching: a line or arc is
 * usable when the unit's disc along it never overlaps an obstacle's interior (distance >= r_u up to a
 * tolerance), and the answer's `clear` verdict under world.h's strict rule is "clear for every radius
 * below r_u" (ap_aa_graph_path_ok checks it with this graph's own tests). Per world kind:
 *
 *  - Circle world (ap_aa_graph_circles): hug circles = the obstacles grown by r_u (radius r_k + r_u), tests
 *    = ap_circle_world_line_tol / _segment_tol with tolerance -AP_CIRCLES_EPS (touching allowed); for a
 *    point unit (r_u = 0) ap_circle_world_point_segment_ok, which also refuses a squeeze through a gap of
 *    width 0 (two touching circles, a circle touching a side): the limit r_u -> 0+ of the disc rule, as on
 *    grids below.
 *  - Grid map, r_u > 0 (ap_aa_graph_grid): free space for the centre is the complement of the blocked
 *    squares grown by r_u: straight edges offset by r_u and quarter circles of radius r_u at the convex
 *    corners. A shortest path touches only those arcs, so the hug circles are the convex corners (grid
 *    vertices with exactly one blocked incident cell, off-map cells blocked) with radius r_u, and lines and
 *    arcs are checked by collide.c's exact ap_line_clear / ap_segment_clear at radius r_u - AP_AA_GRID_TOL
 *    (so a tangent touch passes and any real overlap deeper than the tolerance fails). r_u must be 0 or at
 *    least AP_AA_GRID_MIN_RADIUS.
 *  - Grid map, r_u = 0 (a point unit): the closed-disc rule with r = 0 forbids touching a blocked square at
 *    all, so no shortest path would exist. The rule chosen: a point path may touch the boundaries of blocked
 *    squares (run along walls, pass through corners) but may not enter the interior of the union of blocked
 *    squares (so not along an edge shared by two blocked squares), and may not squeeze through the shared
 *    corner of two diagonally adjacent blocked squares. Why: this is the limit r_u -> 0+ of the disc rule
 *    (a disc of any radius > 0 cannot pass a diagonal squeeze), and it matches the grid searches' "no
 *    corner cutting" (a diagonal step between two blocked cells is illegal, grid.c), so any-angle never
 *    takes a passage the grid answer may not; units in games do not slip through a zero-width gap. The hug
 *    points are the same convex corners (radius 0); ap_aa_grid_point_line_ok is the verdict.
 */
#ifndef AP_AA_GRAPH_H
#define AP_AA_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/path.h"
#include "tangent.h"
#include "../world/circles.h"
#include "../world/map.h"
#include "../world/tables.h"

/* ap_aa_graph_grid builds the eager table itself up to this many corners (a point unit's grid: one
 * visibility scan per corner and a line-of-sight test per pair the scan cannot rule out, visibility.h:
 * den520d's 912 corners about 10 ms, Paris_1_1024's 11,638 about 0.5 s and 35 MB, random512-40-0's 64,047
 * about 0.4 s and 39 MB on the shared test machine; before the scan, O(n^2) tests: 0.1 s and 25 s for the
 * first two). */
#define AP_AA_EAGER_AUTO_MAX 131072
/* The most departures an eager table holds (67 MB of them): a build that reaches more stops and leaves the
 * graph lazy (random512-10-0's 76,173 corners see each other across its open space: 5.8 M lines, 330 MB). */
#define AP_AA_EAGER_MAX_DEPS 1200000

/* quad[k] of a hug circle that is no grid corner (no corner rules apply to it). */
#define AP_AA_QUAD_NONE 0xffu

/* Grid maps: the margin below r_u at which collide.c's strict tests are run, and the least r_u > 0. */
#define AP_AA_GRID_TOL 1e-7
#define AP_AA_GRID_MIN_RADIUS 1e-5

/* A usable surfing edge leaving a circle: the line t, toward hug circle `to` (index in the graph, or the
 * goal's index in a query) entered with sense s_to (tangent.h). */
typedef struct ap_aa_dep {
    ap_bitangent t;
    uint32_t to;
    int32_t s_to;
} ap_aa_dep;

/* Line-of-sight tests in the closure model above, over the world held in ctx (borrowed). */
typedef struct ap_aa_space {
    const void *ctx;
    /* The centre path A -> B (a zero-length line is the point) is usable. */
    bool (*line_ok)(const void *ctx, double ax, double ay, double bx, double by);
    /* The arc s (path.h, radius > 0) is usable. */
    bool (*arc_ok)(const void *ctx, const ap_segment *s);
} ap_aa_space;

/* A hug-circle set with its tests. Immutable once built; any number of queries may share it. */
typedef struct ap_aa_graph {
    ap_aa_space space;
    double width, height; /* the world's bounds, tiles */
    double unit_radius;   /* r_u, tiles: the radius the tests run at */
    double hug_grow;      /* tiles every hug circle's radius is at least beyond r_u (ap_aa_graph_grow_hugs), else 0 */
    size_t n;             /* hug circles: centre (x[k], y[k]), radius R[k] */
    double *x, *y, *R;    /* owned */
    /* Grid corners only (else NULL): per circle, the blocked cell's quadrant seen from the corner, bit 0 set
     * when it lies toward +x, bit 1 toward +y. A shortest path only touches a corner circle on the quarter
     * facing away from that cell, and at a radius-0 corner only along lines that do not enter the cell's
     * quadrant on either side of the corner (tangent lines), turning toward the cell (anyangle.c uses both
     * to skip lines before their line-of-sight test). */
    uint8_t *quad;        /* AP_AA_QUAD_NONE for a circle that is not a corner (ap_aa_graph_grid_circles) */
    void *owned;          /* per-kind context held by space.ctx when the graph owns it, else NULL */
    /* The eager part (ap_aa_graph_precompute), or NULL: the departures of circle k with sense s toward the
     * other hug circles are deps[dep_start[2k + (s > 0)] .. dep_start[2k + (s > 0) + 1]). */
    uint32_t *dep_start;
    ap_aa_dep *deps;
    size_t n_deps;
    bool corner_points;   /* set with the eager part: every hug circle a radius-0 grid corner (a point unit's grid) */
    /* Landmark distances over the table (landmarks.h; owned), n_marks of them per circle
     * (mark_d[v * n_marks + i]), for the search's heuristic: built with the eager table of a point unit's
     * grid graph (corner_points) and of a disc's grid graph of corners (every circle a convex corner of
     * radius r_u > 0, no grown hugs, no extra circles); 0 and NULL otherwise. */
    uint32_t n_marks;
    double *mark_d;
    /* A point unit's grid graph with its eager table (r_u = 0, corners in row-major order; built by
     * ap_aa_graph_precompute and ap_aa_graph_grid_update), or a disc's grid graph of corners with its eager
     * table (as for the landmarks above; ap_aa_graph_precompute): the visibility scan's index over its
     * corners (visibility.h; owned), else NULL. The point table's build and the search ask it which corners
     * a point may see before testing lines. A disc uses the point rule's scan as a filter: when the disc
     * (radius r) sweeps clear along a line from P to a point T at distance r from corner c, every point of
     * the segment P -> c but c lies within r (1 - t) of the line's point at the same fraction t, so strictly
     * outside every blocked square less the lines' 1e-7 tolerance, and the scan (which drops only rays
     * entering squares shrunk by AP_AA_VIS_SHRINK) returns c: corners the scan does not return have no
     * usable tangent line from P. */
    struct ap_aa_vis *vis;
    /* A disc's grid graph of corners with its eager table (as for the landmarks above), else NULL: per
     * circle 1 when the disc may hug the whole quarter of it that faces away from the corner's blocked cell
     * (widened by AP_AA_HUG_SLACK radians at both ends: one arc test at build), else 0. Every hug the
     * search takes touches only that quarter at both ends (ap_aa_corner_ok) and sweeps at most its pi / 2,
     * so it is part of that arc and clear when the arc is: the search skips its test. */
    uint8_t *hug_clear;
    /* Set with hug_clear: each circle's departures per sense are sorted by where their heading lies on the
     * circle's free quarter (ap_aa_quarter_key), so the search skips those behind an arrival by a binary
     * search and those a cheaper arrival ahead of it covers (anyangle.c); else in target order. */
    bool dep_sorted;
    /* With dep_sorted (owned): per departure i, dep_key[2 i] its key on its own circle's quarter (the sort
     * key) and dep_key[2 i + 1] its key on its target's (circle to, sense s_to), ap_aa_quarter_key. */
    double *dep_key;
} ap_aa_graph;

/* Radians the quarter arc of hug_clear is widened by at each end (far above the corner rule's 1e-9 R). */
#define AP_AA_HUG_SLACK 1e-6

/* The graph of circle world cw (borrowed: must outlive the graph) for unit radius r_u (finite, >= 0):
 * cw's circles grown by r_u. Returns AP_OK with *out the caller's (free with ap_aa_graph_free),
 * AP_E_INVALID_REQUEST (bad r_u: not finite, negative or above 1e7) or AP_E_NOMEM (*out NULL on errors).
 * Cost O(n). Thread-safe (cw only read); the graph is immutable once returned. */
int ap_aa_graph_circles(const ap_circle_world *cw, double r_u, ap_aa_graph **out);

/* The graph of grid map m (borrowed) for unit radius r_u (0, or finite in [AP_AA_GRID_MIN_RADIUS, 1e3]):
 * every convex corner of the blocked cells (exactly one of the four incident cells blocked, off-map cells
 * blocked) as a circle of radius r_u, with the eager table (ap_aa_graph_precompute) when there are at most
 * AP_AA_EAGER_AUTO_MAX corners. Returns AP_OK with *out the caller's (free with ap_aa_graph_free),
 * AP_E_INVALID_REQUEST (bad r_u) or AP_E_NOMEM (*out NULL on errors); a table that fails to build leaves the
 * graph lazy, not an error. Cost O(cells) plus the table's (ap_aa_graph_precompute: one visibility scan per
 * corner and the lines the scans cannot rule out). Thread-safe (m only read). */
int ap_aa_graph_grid(const ap_map *m, double r_u, ap_aa_graph **out);

/* ap_aa_graph_grid without the eager table (every departure computed per query, Red Blob's lazy
 * neighbours()): what a query builds for itself when no shared graph fits it (a unit radius > 0). Cost
 * O(cells). Same returns, ownership and thread safety. */
int ap_aa_graph_grid_lazy(const ap_map *m, double r_u, ap_aa_graph **out);

/* A grid map m with extra circular obstacles cw (both borrowed; cw's bounds should be m's): the hug circles
 * are m's convex corners (as ap_aa_graph_grid_lazy) followed by cw's circles grown by r_u; a line or arc is
 * usable when both worlds' tests pass (grid: as above; circles: as ap_aa_graph_circles). For a point unit
 * an arc round an extra circle is checked against the grid by collide.c's strict rule at radius 0, less
 * 1e-7 tiles at each end (it may not touch a blocked square but where it begins or ends, a start where the
 * circle crosses a wall: the point rule has no arc form, so such an answer may be slightly longer than the
 * closure's infimum). Lazy. Returns (and owns) as ap_aa_graph_grid; thread-safe (m and cw only read). Used
 * for per-request obstacles. */
int ap_aa_graph_grid_circles(const ap_map *m, const ap_circle_world *cw, double r_u, ap_aa_graph **out);

/* Build the eager part: every usable surfing edge between two hug circles, per circle and sense (the work
 * the lazy search would repeat per query; start and goal lines stay per query). A point unit's grid graph
 * with its visibility index: one scan per corner (visibility.h) and one line-of-sight test per pair of
 * corners the scans cannot rule out, the same table as testing every pair; then its landmarks
 * (landmarks.h: 8 doubles per corner). A disc's grid graph of corners (no grown hugs, no extra circles):
 * its own index, per corner the departures toward the corners the point rule's scan from it returns (the
 * same table as testing every pair: the vis field's note above), then its landmarks, its clear quarters
 * (hug_clear) and its departures sorted along them with their keys (dep_sorted, dep_key: 16 more bytes per
 * edge). Other graphs: O(n^2) line-of-sight tests (radius-0 circles: one per pair, remembered in a
 * temporary byte per pair). Memory 56 bytes per edge kept plus 4 (2n + 1).
 * ap_aa_graph_grid calls it for up to AP_AA_EAGER_AUTO_MAX corners; other graphs stay lazy unless the
 * caller asks. Calling it again is a no-op. Returns AP_OK, or AP_E_NOMEM (out of memory, or more than
 * AP_AA_EAGER_MAX_DEPS departures: the graph then stays lazy). Not thread-safe: call before sharing the
 * graph. */
int ap_aa_graph_precompute(ap_aa_graph *g);

/* ap_aa_graph_precompute in pieces, for a caller that must not spend the whole build at once (the map
 * table's graphs of discs and turning units, table.h: up to ~2.5 s on the Moving AI maps, built in the
 * time its queries can spare). Owns its buffers; borrows g, which must not be read or shared until the
 * build is done. Not thread-safe: one thread at a time on a build and its graph. */
typedef struct ap_aa_build ap_aa_build;

/* Start building g's eager table: what ap_aa_graph_precompute does before its first circle (a point or
 * disc graph's visibility index, the buffers; tens of ms on 1024^2 maps). *out: the build (NULL when out of
 * memory), to be run and freed. Returns AP_OK or AP_E_NOMEM. A graph that has its table already gives a
 * build that is done. */
int ap_aa_build_start(ap_aa_graph *g, ap_aa_build **out);

/* Run build b until its table is done or the clock (CLOCK_MONOTONIC ns, ap_clock_ns) has passed until_ns
 * (0: to the end), checked after each step (at least one a call): a circle's departures (a turning unit's
 * takes up to ~1 ms, O(circles) line tests), then the finish's: a landmark's Dijkstra run (up to ~20-40 ms
 * on Paris_1_1024's disc graph), a disc's clear quarters, 64 circles' sorted departures. Returns
 * AP_IN_PROGRESS (call again to go on), AP_OK (g has the same table as ap_aa_graph_precompute builds in one
 * go) or AP_E_NOMEM (out of memory, or more than AP_AA_EAGER_MAX_DEPS departures: g lazy). Once done it
 * returns the same state on every call. */
int ap_aa_build_run(ap_aa_build *b, uint64_t until_ns);

/* Free build b (NULL: nothing); an unfinished build's part of the table is dropped (g lazy again, as
 * before the start). g itself stays the caller's. */
void ap_aa_build_free(ap_aa_build *b);

/* The slot of the unordered pair {a, b} of hug circles (a != b) in a triangular table of n (n - 1) / 2
 * entries: b (b - 1) / 2 + a for a < b. Pure. */
size_t ap_aa_pair_slot(uint32_t a, uint32_t b);

/* Receives one departure; returns false to stop (out of memory). */
typedef bool (*ap_aa_dep_sink)(void *ctx, const ap_aa_dep *d);

/* The departures of hug circle c of g with sense s toward circle j != c, in the order
 * ap_aa_graph_departures gives them (s_to = +1 first). memo: NULL, or the pair's byte of a pair table
 * (0 = line not tested yet, 1 = usable, 2 = not; radius-0 pairs only): the line is tested once for both
 * ends and senses. Returns false when the sink did. Pure apart from sink and memo. */
bool ap_aa_graph_pair_departures(const ap_aa_graph *g, uint32_t c, int s, uint32_t j, uint8_t *memo,
                                 ap_aa_dep_sink sink, void *ctx);

/* Produces every departure of circle k with sense s, in target order (as ap_aa_graph_departures), into
 * sink; memo as given to ap_aa_graph_precompute_with. Returns false when the sink did. */
typedef bool (*ap_aa_fill)(void *ctx, const ap_aa_graph *g, uint32_t k, int s, uint8_t *memo, ap_aa_dep_sink sink,
                           void *sink_ctx);

/* ap_aa_graph_precompute with the caller's pair table memo (NULL, or n (n - 1) / 2 bytes indexed by
 * ap_aa_pair_slot, zeroed, for radius-0 circles; the caller frees it) and departures produced by fill
 * (NULL: ap_aa_graph_departures for every circle; a tile update copies most from the old table,
 * ap_aa_graph_grid_update). Returns AP_OK or AP_E_NOMEM (g stays lazy). Not thread-safe on g. */
int ap_aa_graph_precompute_with(ap_aa_graph *g, uint8_t *memo, ap_aa_fill fill, void *ctx);

/* The quadrant of the blocked cell (as ap_aa_graph.quad) when grid vertex (c, k) (0 <= c <= width,
 * 0 <= k <= height) is a convex corner of m (exactly one of its four cells blocked, off-map cells
 * blocked), else -1. Pure. */
int ap_aa_grid_vertex_quad(const ap_map *m, int32_t c, int32_t k);

/* A grid graph of m (borrowed) for unit radius r_u (as ap_aa_graph_grid) with room for cap circles and none
 * yet (n = 0, lazy): the caller fills x, y, R, quad and n. Returns AP_OK with *out the caller's (free with
 * ap_aa_graph_free), AP_E_INVALID_REQUEST (bad r_u) or AP_E_NOMEM (*out NULL). Thread-safe (m only read). */
int ap_aa_graph_grid_empty(const ap_map *m, double r_u, size_t cap, ap_aa_graph **out);

/* Most cells whose passability a tile update may change for ap_aa_graph_grid_update to update the graph
 * rather than build it (above: ap_aa_graph_grid; each changed cell costs a clip test per pair of corners
 * near it, and a wide change touches most pairs anyway). */
#define AP_AA_UPDATE_MAX_CELLS 64
/* Most lines between kept corners near the changes, per corner, for ap_aa_graph_grid_update to test them
 * again rather than build: each costs a line-of-sight test (~0.65 µs on den520d) where the build's
 * visibility scan costs ~15 µs a corner. Scattered changes pass near most long lines: 16 doors spread over
 * the map put 15-50 lines a corner near them on the Moving AI maps, and testing those was 1.1-3.3 times
 * slower than the build; a 4 x 4 wall or a door 1-8 (BENCHMARKS.md "Tile updates"). */
#define AP_AA_UPDATE_MAX_LINES_PER_CORNER 12u
/* Most corners (old plus new) for ap_aa_graph_grid_update to update the graph rather than build it: the
 * update holds a byte per pair of corners and visits every pair (8 MB and 8 M pairs here), while the
 * build's visibility scan is near linear (Paris_1_1024's 11,638 corners: about 1.1 s). */
#define AP_AA_UPDATE_MAX_CORNERS 4096

/* The point unit's graph of grid map m, ap_aa_graph_grid(m, 0, out) exactly (same corners in the same
 * order, same eager table), computed from old = ap_aa_graph_grid(prev, 0) (eager) where m differs from prev
 * only at the n cells `changed` (x = column, y = row; any order; cells whose passability is the same in
 * both are ignored). Corners change only at the vertices of cells whose passability changed: old's other
 * corners are kept in order and the new ones merged in (row-major order of vertices). A line between two
 * kept corners keeps old's verdict unless it passes within 1e-6 tiles of a changed cell's square (the
 * point rule, ap_aa_grid_point_line_ok, reads only cells whose squares are within 1e-9 tiles of the line:
 * the squares it may enter, the cells beside an edge it runs along, the four cells of a vertex on it), and
 * the corner rules (quad) of a kept corner are the same; those lines, and every line of a new corner, are
 * tested again as the build does. More than AP_AA_UPDATE_MAX_CELLS changed cells, more than
 * AP_AA_UPDATE_MAX_CORNERS old corners and changed cells' vertices, more than
 * AP_AA_UPDATE_MAX_LINES_PER_CORNER lines to test again a corner, or an old graph that is not an eager
 * point graph of grid corners: AP_OK with *out NULL, the caller builds (the table's build, whose visibility
 * scans are faster than ap_aa_graph_grid's pairwise precompute); more than AP_AA_EAGER_AUTO_MAX corners
 * now: a lazy graph, as ap_aa_graph_grid gives. The new graph gets its own visibility index (visibility.h). Cost O(corners^2) cheap steps (a box test per pair, a
 * copy per kept departure) plus the tested lines. prev and old are only read (other threads may read
 * them). *updated (when not NULL) is set true when the graph was updated, false otherwise (the cases
 * above). Returns AP_OK (*out the caller's, or NULL: build), AP_E_NOMEM. */
int ap_aa_graph_grid_update(const ap_aa_graph *old, const ap_map *prev, const ap_map *m, const ap_cell_pos *changed,
                            size_t n, ap_aa_graph **out, bool *updated);

/* Every usable surfing edge leaving the circle (cx, cy, cr) with sense s toward the hug circles j != c
 * (c: the circle's index, or UINT32_MAX for a query's start), both senses at each target (one line of
 * sight test when the target has radius 0), passed to sink in target order (Red Blob: the bitangents
 * between the circle and every other, thrown away without line of sight; grid-corner rules drop lines
 * before their test, ap_aa_corner_ok). O(circles): on a graph without its eager table, one call is a
 * search's expansion, 0.1-0.5 s on a 4096^2 map or a world of 450,000 circles, so until_ns (CLOCK_MONOTONIC
 * ns, 0 = none) is read every 1,024 targets and the call gives up after it. Returns false when the sink
 * did or the clock passed until_ns (the caller tells them apart). Pure apart from the sink. */
bool ap_aa_graph_departures(const ap_aa_graph *g, uint32_t c, double cx, double cy, double cr, int s,
                            uint64_t until_ns, ap_aa_dep_sink sink, void *ctx);

/* ap_aa_graph_departures without the line-of-sight test: every surfing edge the geometry and the corner
 * rules allow, usable or not (the search tests each line only when it expands the arrival at its end:
 * anyangle.h, lazy line of sight). Same order, sink, until_ns and returns. */
bool ap_aa_graph_candidates(const ap_aa_graph *g, uint32_t c, double cx, double cy, double cr, int s,
                            uint64_t until_ns, ap_aa_dep_sink sink, void *ctx);

/* ap_aa_graph_candidates for a query's start (c = UINT32_MAX) toward the hug circles js[0 .. nj) only, in
 * that order (the circles a visibility scan returned, increasing: the same edges in the same order as
 * ap_aa_graph_candidates minus those toward the other circles). Same sink, until_ns and returns. */
bool ap_aa_graph_candidates_among(const ap_aa_graph *g, double cx, double cy, double cr, int s, const uint32_t *js,
                                  size_t nj, uint64_t until_ns, ap_aa_dep_sink sink, void *ctx);

/* Whether the surfing edge t may touch hug circle k at (px, py) travelling round it with sense s, by the
 * grid-corner rules (quad): on a circle of radius > 0 the touching point lies on the quarter facing away
 * from the blocked cell; at a radius-0 corner the line does not enter the cell's quadrant on either side of
 * the corner (a shortest path bends round the corner with the cell inside the bend, so both its lines
 * there are tangent) and the cell lies on the side the path turns to (sense s; on the line itself,
 * either). k >= n (start, goal) or a graph without quad: always true. Tiles; pure, thread-safe. */
bool ap_aa_corner_ok(const ap_aa_graph *g, uint32_t k, const ap_bitangent *t, double px, double py, int s);

/* Raise every hug circle of g to a radius of at least r_u + extra (extra finite, >= 0; tiles) while its tests
 * keep running at r_u: the graph of a turning unit (turning.h), whose arcs hug circles of radius r_u + extra
 * around the corners and max(r_k + r_u, r_u + extra) around a circle of radius r_k, so never tighter than
 * r_u + extra, and whose lines and arcs are clear for r_u. Only on a lazy graph (before
 * ap_aa_graph_precompute, which reads the radii); sets g->hug_grow. Returns AP_OK, or AP_E_INVALID_REQUEST
 * (bad extra, or g already eager). Not thread-safe: call before sharing g. */
int ap_aa_graph_grow_hugs(ap_aa_graph *g, double extra);

/* Where heading h (radians) of travel with sense s (+1 counter-clockwise) round grid-corner circle k (quad
 * set) lies on its free quarter (the quarter facing away from the corner's blocked cell): the sweep in
 * sense s from the heading at the quarter's start, h0 = atan2(-qy, -qx) + s pi / 4, to h (ap_hug_sweep),
 * less 2 pi when above pi. In [0, pi / 2] for a heading on the quarter, slightly below 0 for one just
 * before its start (within the corner rule's tolerance): increasing along the quarter in sense s. Pure. */
double ap_aa_quarter_key(const ap_aa_graph *g, uint32_t k, int s, double h);

/* Free a graph with everything it owns (eager table, landmarks, visibility index, owned context); NULL is
 * ignored. Not while queries still read it. */
void ap_aa_graph_free(ap_aa_graph *g);

/* The answer's verdict in this graph's model: every segment (lines; arcs of radius > 0) is usable, or for
 * n == 0 the point (x, y) is. Pure; thread-safe. */
bool ap_aa_graph_path_ok(const ap_aa_graph *g, const ap_segment *s, size_t n, double x, double y);

/* ap_aa_graph_path_ok for the arcs of s[0 .. n) only (lines are taken as usable: an answer whose lines the
 * search verified, anyangle.h). Pure; thread-safe. */
bool ap_aa_graph_arcs_ok(const ap_aa_graph *g, const ap_segment *s, size_t n);

/* The point unit's rule on grid map m (above): the segment A -> B (or the point when A == B) stays inside
 * [0, width] x [0, height], never meets the interior of the union of blocked squares, and never contains a
 * vertex whose four cells are blocked in a diagonal pair only. Exact up to 1e-9 tiles (a penetration or a
 * distance to such a vertex below that counts as touching). The same verdict for B -> A (the numbers are
 * computed from the ends in a fixed order; only the walk's order follows A -> B). Cost O(length) cells.
 * Pure; thread-safe. */
bool ap_aa_grid_point_line_ok(const ap_map *m, double ax, double ay, double bx, double by);

/* Does circle c (centre and radius in tiles) cross the square of cell (i, j), [i, i + 1] x [j, j + 1]: is
 * the square's nearest point less than c->r - 4e-9 tiles from its centre? False where it only touches the
 * square (within 4e-9) or stays outside. Where a circle touching a blocked square crosses one there, the
 * obstacles' meeting point is a corner of free space, not a gap (ap_aa_grid_point_pinch, the point rule of
 * ap_aa_graph_grid_circles). Pure; thread-safe. Source: the point rule of docs/anyangle.md. */
bool ap_aa_circle_crosses_square(const ap_circle *c, int32_t i, int32_t j);

/* Does a blocked cell's closed square of m come within 1e-9 tiles of the part t in [t0, t1] (fractions of
 * A -> B, 0 <= t0 <= t1 <= 1) of segment A -> B with its centre on side `side` of the line (+1 left of
 * A -> B, -1 right), while circle c (touching that part on the other side, ap_circle_touch) touches the
 * squares there without crossing any (each at least c->r - 4e-9 from its centre)? Then the segment squeezes
 * between them where they touch: refused by the point rule (ap_aa_graph_grid_circles); where the circle
 * crosses a square near that part, the blocked cells' edge crosses it, which leaves a corner of free space
 * a path may end in (circles.h), not a gap. Off-map cells do not count (the
 * circle world's sides stand for them). The box test widens the square by 1e-9 on each axis (within
 * 1.5e-9 at its corners). Cost O(cells of that part's box; at most 4,096 read, more count as a squeeze).
 * Pure; thread-safe. Source: the point rule of docs/anyangle.md (the limit r_u -> 0+ of the disc rule). */
bool ap_aa_grid_point_pinch(const ap_map *m, double ax, double ay, double bx, double by, double t0, double t1,
                            int side, const ap_circle *c);

#endif
