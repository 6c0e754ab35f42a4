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
 * never clear, since the disc of radius v touches that square. The tables store q = ceil(256 v) - 1 (at
 * least 0), i.e. v rounded DOWN to 1/256 tile and strictly below it: q / 256 < v <= (q + 1) / 256. So
 * "r < q / 256" (ap_clearance_allows) implies r < v, with a margin v - q / 256 that is 1/256 when 256 v is
 * an integer and otherwise at least 1 / (512 * 256 v) >= 4.4e-7 tiles for v <= 17 (v^2 is a multiple of
 * 1/4, so (256 v)^2 is an integer): far above collide.c's 1e-9 tolerance, so the table never says clear
 * where ap_line_clear does not. It answers "not clear" for r in [q / 256, v), at most 1/256 tile short.
 * Values are capped: v >= AP_CLEARANCE_CAP_TILES is stored as AP_CLEARANCE_Q_MAX ("at least 17 tiles"),
 * which still serves every unit radius up to AP_MAX_UNIT_RADIUS (16, plan.h) exactly as above.
 *
 * Moves (8 directions, no corner cutting): an orthogonal move's v is the smaller of its two cells' v
 * (exact: for an axis-parallel segment and axis-parallel squares the distance separates per axis), so it
 * is not stored. A diagonal move's v is not a function of the cells' values (the nearest square may face
 * the middle of the segment), so the two diagonal moves leaving each cell downwards (+y) are stored; the
 * upward ones are the downward ones of the cell they reach. A corner-cutting diagonal has v = 0.
 *
 * Memory: per padded cell ((width+2) x (height+2), m's layout) a uint16 cell value, two uint16 diagonal
 * move values and a uint8 true clearance: 7 bytes (plus a small header). *
 * Tile updates (the kind's update, tables.h): a copy of the previous version's table, then the same passes
 * on frames around each group of changed cells (letters whose capability bit may differ). Exact because
 * the values are capped: a cell's bit changes disc values only within 17 cells of it and the diagonal moves
 * stored within AP_CLEARANCE_REACH = 18, and a frame of 36 cells around a group holds every input those
 * need (clearance.c proves the bounds); true clearance changes only above and left of a change (within
 * 254), and is recomputed there only while a value it reads changed. Cost: about 75 x 75 cells a group
 * plus the 7-bytes-a-cell copy, against the whole map for the full build, which an update falls back to
 * above 1024 changed cells or when the frames cover more than half the map.
 */
#ifndef AP_CLEARANCE_H
#define AP_CLEARANCE_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/path.h"
#include "capability.h"
#include "tables.h"

#define AP_CLEARANCE_SCALE 256    /* stored units per tile */
#define AP_CLEARANCE_CAP_TILES 17 /* disc clearances at or above this are stored as AP_CLEARANCE_Q_MAX */
#define AP_CLEARANCE_Q_MAX (AP_CLEARANCE_CAP_TILES * AP_CLEARANCE_SCALE - 1) /* 4351: "v >= 17 tiles" */
/* A cell whose mask bit changes alters disc, diag_se and diag_sw only at cells within this Chebyshev
 * distance of it (the cap: clearance.c proves it); square only above and left of it, within 254. */
#define AP_CLEARANCE_REACH (AP_CLEARANCE_CAP_TILES + 1)

/* One capability's clearance table. Arrays are indexed by padded cell (ap_map_index); border cells hold 0. */
typedef struct ap_clearance_table {
    ap_capability capability;
    int32_t stride;   /* the map's stride (width + 2), for the neighbour of a move */
    uint32_t cells;   /* padded cells, ap_map_node_count(m) */
    uint16_t *disc;   /* q of the cell centre (0 outside the capability) */
    uint16_t *diag_se; /* q of the move from the cell to (x + 1, y + 1) */
    uint16_t *diag_sw; /* q of the move from the cell to (x - 1, y + 1) */
    uint8_t *square;  /* true clearance: the largest k (0 .. 255) such that the k x k block of cells with this
                       * one as its top-left corner lies inside the capability (0 outside it; capped 255) */
} ap_clearance_table;

/* Build capability c's table for map m (c in 1 .. AP_CAP_ALL). Exact integer arithmetic in half tiles: a
 * row-wise distance pass, a capped column pass (|dy| <= AP_CLEARANCE_CAP_TILES), and for diagonal moves
 * nearest blocked cell corners along the anti-diagonals; O(cells x AP_CLEARANCE_CAP_TILES) worst case, with
 * about 8 bytes per padded cell of temporary memory. On AP_OK *out is a new table (free with
 * ap_clearance_free); AP_E_NOMEM otherwise (nothing allocated). Pure; thread-safe. */
int ap_clearance_build(const ap_map *m, ap_capability c, ap_clearance_table **out);

/* Free a table from ap_clearance_build. NULL is ignored. */
void ap_clearance_free(void *table);

/* Bytes held by a table of a map with `cells` padded cells: the header and 7 bytes per padded cell. */
size_t ap_clearance_bytes(uint32_t cells);

/* True when a disc of radius r (tiles) is clear where the stored value is q: r < q / 256 (see above: then
 * r < v). Pure. */
static inline bool ap_clearance_allows(uint16_t q, double r)
{
    return r < (double)q / (double)AP_CLEARANCE_SCALE;
}

/* q of the move from padded cell `from` to its neighbour (dx, dy), dx, dy in {-1, 0, 1}, not both 0;
 * `from` must be a map cell (its neighbour may be a border cell: then 0). Pure; thread-safe. */
static inline uint16_t ap_clearance_move(const ap_clearance_table *t, uint32_t from, int dx, int dy)
{
    const uint32_t to = (uint32_t)((int64_t)from + dx + (int64_t)dy * t->stride);
    if (dx == 0 || dy == 0)
        return t->disc[from] < t->disc[to] ? t->disc[from] : t->disc[to];
    if (dy > 0)
        return dx > 0 ? t->diag_se[from] : t->diag_sw[from];
    return dx > 0 ? t->diag_sw[to] : t->diag_se[to]; /* the downward move back from `to` */
}

/* Swept paths proven clear by the table alone (the kinodynamic search's shortcut past the exact tests, kino.c).
 *
 * Let p = (x, y) lie in map cell (i, j) with centre c and stored value q, so q / 256 < v, the distance from c
 * to the nearest closed square outside the capability (off-map squares included). Every point z within
 * distance L of p then has dist(z, obstacles) >= v - |p - c| - L > q / 256 - |p - c| - L. The reach of p for
 * radius r is reach = q / 256 - |p - c| - r - AP_CLEARANCE_SWEEP_MARGIN: a disc of radius r swept along any
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

/* The reach (tiles) of point (x, y) for a disc of radius r (see above): q / 256 - |p - c| - r -
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
