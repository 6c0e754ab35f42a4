/* clearance.h — exact clearance tables per terrain capability: for discs (the largest radius a disc-shaped
 * unit may have at a cell centre, or swept along a move between neighbouring cell centres) and for squares
 * (Harabor's true clearance). A registered, per-capability table kind (tables.h), "clearance:<capability>".
 *
 * Sources: Harabor, "Clearance-based Pathfinding": "The True Clearance Metric" (square units; the k x k
 * footprint grows down and to the right of its top-left cell) and "Dealing With Multiple Terrain Types"
 * (one annotation per capability). For discs the rule is the `clear` verdict's (collide.h): the closed disc
 * and the closed square of a cell outside the capability (or off the map) may not share a point.
 *
 * Disc clearance. Let v be the Euclidean distance from a cell centre (or from the segment between two
 * neighbouring cell centres) to the nearest closed square outside the capability, off-map squares
 * included. A disc of radius r there (swept along the segment) is clear iff r < v: v itself is a supremum,
 * never clear, since the disc of radius v touches that square.
 *
 * Levels (exact values in a byte). v takes few values: from a cell centre to a square the gap per axis is 0
 * or a half-odd number of tiles, so (2 v)^2 = a^2 + b^2 with a, b in {0, 1, 3, 5, ..}; from a diagonal
 * segment the nearest point pair is an end (a cell centre: the same values) or a lattice corner at
 * sqrt 2 n tiles from the segment, (2 v)^2 = 8 n^2. Below the cap of AP_CLEARANCE_CAP_TILES = 17 tiles
 * there are 123 such values; with the cap ("at least 17 tiles") they are the AP_CLEARANCE_LEVELS = 124
 * levels, numbered in increasing order (ap_clearance_level_d4 holds (2 v)^2 of each, ap_clearance_level_tiles
 * v). The tables store a value's level: exact, no rounding. A disc of radius r is clear where the level is
 * above ap_clearance_level(r), the highest level whose v <= r + AP_CLEARANCE_TOUCH: so the table says clear
 * iff v > r + 1e-7 tiles, never where collide.c's exact tests (which call a disc touching within r + 1e-9)
 * do not, and "not clear" only for r in [v - 1e-7, v) short of the truth. Capped values (v >= 17) are
 * AP_CLEARANCE_LEVEL_MAX, which still serves every unit radius up to AP_MAX_UNIT_RADIUS (16, plan.h).
 *
 * Moves (8 directions, no corner cutting): an orthogonal move's v is the smaller of its two cells' v
 * (exact: for an axis-parallel segment and axis-parallel squares the distance separates per axis), so it
 * is not stored. A diagonal move's v is not a function of the cells' values (the nearest square may face
 * the middle of the segment), so the two diagonal moves leaving each cell downwards (+y) are stored; the
 * upward ones are the downward ones of the cell they reach. A corner-cutting diagonal has v = 0. A diagonal
 * move's v lies within sqrt 2 / 2 below the smaller of its ends' (every point of the segment is that near an
 * end, and distance is 1-Lipschitz), and no window of that width holds more than 10 levels below its top
 * (tests/planner/world/test_clearance.c counts them), so a move is stored as how many levels it lies below
 * the smaller of its ends': 4 bits, both downward moves of a cell in one byte.
 *
 * Memory: per padded cell ((width+2) x (height+2), m's layout) the cell's level, the byte of its two
 * diagonal moves and a uint8 true clearance: 3 bytes (plus a small header). 7 bytes before levels (a uint16
 * in 1/256 tile per value, rounded down): the HAA* graph and this table now take less than 8 bytes a cell
 * together on a 1024^2 map (BENCHMARKS.md).
 *
 * Tile updates (the kind's update, tables.h): a copy of the previous version's table, then the same passes
 * on frames around each group of changed cells (letters whose capability bit may differ). Exact because
 * the values are capped: a cell's bit changes disc values only within 17 cells of it and the diagonal moves
 * stored within AP_CLEARANCE_REACH = 18, and a frame of 36 cells around a group holds every input those
 * need (clearance.c proves the bounds); true clearance changes only above and left of a change (within
 * 254), and is recomputed there only while a value it reads changed. Cost: about 75 x 75 cells a group
 * plus the 3-bytes-a-cell copy, against the whole map for the full build, which an update falls back to
 * above 1024 changed cells or when the frames cover more than half the map.
 */
#ifndef AP_CLEARANCE_H
#define AP_CLEARANCE_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/path.h"
#include "capability.h"
#include "tables.h"

#define AP_CLEARANCE_CAP_TILES 17 /* disc clearances at or above this are stored as AP_CLEARANCE_LEVEL_MAX */
#define AP_CLEARANCE_LEVELS 124   /* distinct stored values (levels 0 .. 123) */
#define AP_CLEARANCE_LEVEL_MAX (AP_CLEARANCE_LEVELS - 1) /* "v >= 17 tiles" */
#define AP_CLEARANCE_DIAG_BELOW 15 /* the most levels a stored diagonal move may lie below its ends' (4 bits) */
#define AP_CLEARANCE_TOUCH 1e-7   /* tiles: a disc within this of a square counts as touching it (see above) */

/* (2 v)^2 of each level, increasing: 0 (outside the capability), 1 (v = 1/2), 2, 8, .. 1156 (the cap). */
extern const uint16_t ap_clearance_level_d4[AP_CLEARANCE_LEVELS];
/* v (tiles) of each level: sqrt(ap_clearance_level_d4) / 2 correctly rounded; 17 for the cap ("at least"). */
extern const double ap_clearance_level_tiles[AP_CLEARANCE_LEVELS];
/* A cell whose mask bit changes alters disc and diag only at cells within this Chebyshev
 * distance of it (the cap: clearance.c proves it); square only above and left of it, within 254. */
#define AP_CLEARANCE_REACH (AP_CLEARANCE_CAP_TILES + 1)

/* One capability's clearance table. Arrays are indexed by padded cell (ap_map_index); border cells hold 0. */
typedef struct ap_clearance_table {
    ap_capability capability;
    int32_t stride;   /* the map's stride (width + 2), for the neighbour of a move */
    uint32_t cells;   /* padded cells, ap_map_node_count(m) */
    uint8_t *disc;    /* level of the cell centre (0 outside the capability) */
    uint8_t *diag;    /* its two downward diagonal moves, levels below the smaller of their ends' levels: the
                       * move to (x + 1, y + 1) in the low 4 bits, to (x - 1, y + 1) in the high 4 */
    uint8_t *square;  /* true clearance: the largest k (0 .. 255) such that the k x k block of cells with this
                       * one as its top-left corner lies inside the capability (0 outside it; capped 255) */
} ap_clearance_table;

/* Build capability c's table for map m (c in 1 .. AP_CAP_ALL). Exact integer arithmetic in half tiles: a
 * row-wise distance pass, a capped column pass (|dy| <= AP_CLEARANCE_CAP_TILES), and for diagonal moves
 * nearest blocked cell corners along the anti-diagonals; O(cells x AP_CLEARANCE_CAP_TILES) worst case, with
 * about 8 bytes per padded cell of temporary memory. On AP_OK *out is a new table (free with
 * ap_clearance_free); AP_E_NOMEM otherwise (nothing allocated). Pure; thread-safe. */
int ap_clearance_build(const ap_map *m, ap_capability c, ap_clearance_table **out);

/* Free a table from ap_clearance_build (one block: header and arrays). NULL is ignored. Not while other threads
 * still read it. */
void ap_clearance_free(void *table);

/* Bytes held by a table of a map with `cells` padded cells: the header and 3 bytes per padded cell. Pure;
 * thread-safe. */
size_t ap_clearance_bytes(uint32_t cells);

/* The threshold of a disc of radius r (tiles, >= 0): the highest level whose v <= r + AP_CLEARANCE_TOUCH, so
 * that a stored level q lets the disc through iff q > ap_clearance_level(r) (see above). 0 for r below 1/2,
 * AP_CLEARANCE_LEVEL_MAX from 17 tiles on. A binary search of 7 steps: searches take it once per query.
 * Pure. */
uint8_t ap_clearance_level(double r);

/* True when a disc of radius r (tiles) is clear where the stored level is q: q > ap_clearance_level(r). Pure. */
static inline bool ap_clearance_allows(uint8_t q, double r)
{
    return q > ap_clearance_level(r);
}

/* The level of the move from padded cell p to (x + 1, y + 1) (the low 4 bits of diag[p]) and to (x - 1, y + 1)
 * (the high 4): the smaller of the two ends' levels, less the stored difference. p must be a map cell. Pure. */
static inline uint8_t ap_clearance_diag_se(const ap_clearance_table *t, uint32_t p)
{
    const uint8_t a = t->disc[p], b = t->disc[p + (uint32_t)t->stride + 1];
    return (uint8_t)((a < b ? a : b) - (t->diag[p] & 15u));
}

/* The level of the move from padded cell p to (x - 1, y + 1), as ap_clearance_diag_se (the high 4 bits of
 * diag[p]). p must be a map cell. Pure. */
static inline uint8_t ap_clearance_diag_sw(const ap_clearance_table *t, uint32_t p)
{
    const uint8_t a = t->disc[p], b = t->disc[p + (uint32_t)t->stride - 1];
    return (uint8_t)((a < b ? a : b) - (t->diag[p] >> 4));
}

/* The level of the move from padded cell `from` to its neighbour (dx, dy), dx, dy in {-1, 0, 1}, not both 0;
 * `from` must be a map cell (its neighbour may be a border cell: then 0). Pure; thread-safe. */
static inline uint8_t ap_clearance_move(const ap_clearance_table *t, uint32_t from, int dx, int dy)
{
    const uint32_t to = (uint32_t)((int64_t)from + dx + (int64_t)dy * t->stride);
    if (dx == 0 || dy == 0)
        return t->disc[from] < t->disc[to] ? t->disc[from] : t->disc[to];
    if (dy > 0)
        return dx > 0 ? ap_clearance_diag_se(t, from) : ap_clearance_diag_sw(t, from);
    /* the downward move back from `to` (a border cell: its level and stored difference are 0) */
    return dx > 0 ? ap_clearance_diag_sw(t, to) : ap_clearance_diag_se(t, to);
}

/* Swept paths proven clear by the table alone (the kinodynamic search's shortcut past the exact tests, kino.c).
 *
 * Let p = (x, y) lie in map cell (i, j) with centre c and stored level q, so V = ap_clearance_level_tiles[q]
 * is v, the distance from c to the nearest closed square outside the capability (off-map squares included),
 * to 1/2 ulp (or 17 <= v when capped). Every point z within distance L of p then has dist(z, obstacles) >= v -
 * |p - c| - L. The reach of p for radius r is reach = V - |p - c| - r - AP_CLEARANCE_SWEEP_MARGIN: a disc of radius r swept along any
 * curve that stays within distance reach of p keeps more than AP_CLEARANCE_SWEEP_MARGIN (1e-6 tiles) from
 * every obstacle and from the map's edge. collide.c's exact tests (ap_segment_clear, ap_line_clear) call a
 * shape touching only within r + 1e-9, and their arc tests accept points up to 1e-9 rad beyond the arc's
 * ends, which lie within 1e-9 R (R the arc's radius) further along the circle; their rounding is ~1e-11
 * tiles on maps below 1e4 tiles. So a line of length len from p (R = 0), or an arc of radius R and length
 * len from p, is called clear by those exact tests whenever len + AP_CLEARANCE_ARC_SLACK R < reach
 * (ap_clearance_reach_covers): the shortcut never says clear where the exact test would not, so a search that
 * skips the exact test on its word takes exactly the same decisions. It says nothing (falls back to the exact
 * test) near walls; on open ground the reach is up to 17 tiles minus the offset from the cell centre. */
#define AP_CLEARANCE_SWEEP_MARGIN 1e-6 /* tiles: far above collide.c's 1e-9 and its rounding */
#define AP_CLEARANCE_ARC_SLACK 4e-9    /* per tile of arc radius: covers the exact arc test's 1e-9 rad per end */

/* The reach (tiles) of point (x, y) for a disc of radius r (see above): V - |p - c| - r -
 * AP_CLEARANCE_SWEEP_MARGIN for the map cell holding (x, y) (floor of each coordinate); -1 when (x, y) is
 * off the map or not finite, or r is negative or not finite (nothing proven). t must be the clearance table
 * of the capability whose cells are m's passability (ap_clearance_of(m, m->capability): grid_world.h
 * ap_map_world_clearance hands out the pair for a plain grid world). Pure; thread-safe. */
double ap_clearance_reach(const ap_map *m, const ap_clearance_table *t, double x, double y, double r);

/* True when a line (R = 0) or an arc of radius R (tiles) and length len (tiles) that starts at a point of
 * the given reach (ap_clearance_reach) is proven clear, i.e. len + AP_CLEARANCE_ARC_SLACK R < reach: then
 * collide.c's exact test of that segment says clear too. False for NaN. Pure. */
static inline bool ap_clearance_reach_covers(double reach, double len, double R)
{
    return len + AP_CLEARANCE_ARC_SLACK * R < reach;
}

/* Most pieces ap_clearance_proves_segment walks before it gives up. */
#define AP_CLEARANCE_TRACE_PIECES 64

/* True when t proves the disc of radius r swept along segment s (line or arc, path.h) clear, so that
 * collide.c's exact test of s says clear too: s is walked from its start (ap_segment_pose) in pieces, each
 * piece of length L from a point of reach rh (ap_clearance_reach) with L + AP_CLEARANCE_ARC_SLACK R < rh
 * (R the arc's radius, 0 for a line), so every point of s (and of the exact test's slack beyond its ends)
 * lies within the reach of a piece's first point; the points ap_segment_pose computes are within ~1e-12 tiles
 * of the true curve, far inside AP_CLEARANCE_SWEEP_MARGIN. False (nothing proven: run the exact test) when a
 * piece's first point has less than 1/16 tile of reach, after AP_CLEARANCE_TRACE_PIECES pieces, and for
 * non-finite input. m and t as for ap_clearance_reach. The kinodynamic search's analytic edge (a Dubins curve
 * of tens of tiles) uses it. Pure; thread-safe. */
bool ap_clearance_proves_segment(const ap_map *m, const ap_clearance_table *t, const ap_segment *s, double r);

/* "clearance:<capability>" (per capability, tables.h AP_TABLE_PER_CAPABILITY): data = ap_clearance_table,
 * bytes = ap_clearance_bytes. Optional: a map loads without it when memory runs out; then sized discs plan on
 * the plain grid (algorithms.c) and HAA* has class 0 only. */
extern const ap_table_kind ap_clearance_table_kind;

/* Capability c's clearance table of m, or NULL when the map has none (c not in m->capabilities, or the
 * optional build failed). Borrowed from m; thread-safe on a loaded map. */
const ap_clearance_table *ap_clearance_of(const ap_map *m, ap_capability c);

#endif
