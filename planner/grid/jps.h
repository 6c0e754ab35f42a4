/* jps.h — Jump Point Search on uniform-cost 8-connected grids without corner cutting, as a search domain of
 * the one A* core (search.h): online JPS, and JPS+ over jump-distance tables built once at map load.
 *
 * Sources: Harabor & Grastien, "Online Graph Pruning for Pathfinding on Grid Maps" (AAAI 2011), sections
 * 3-4 (neighbour pruning, forced neighbours, the jump procedure, Theorem 1: optimality); Harabor &
 * Grastien, "Improving Jump Point Search" (ICAPS 2014), section 3 (the variant that forbids corner cutting)
 * and section 5 (jump points precomputed per cell and direction, "JPS+"); Rabin, "JPS+: Over 100x Faster
 * than A*" (GDC 2015 / Game AI Pro 2, ch. 14) for the signed distance encoding and the goal-bounding
 * "target jump point" on diagonals.
 *
 * Movement rules (identical to grid.h's 8-connected domain): straight steps cost 1, diagonal steps sqrt(2)
 * and need both orthogonal neighbours passable. Without corner cutting, a diagonal move has no forced
 * neighbours, and a straight move (say east, from cell b behind to cell x) has a forced neighbour north
 * exactly when the cell north of x is free and the cell north of b ("behind-side") is blocked: only then
 * can no path avoid x to reach it as cheaply. Jump points are cells with a forced neighbour, the goal, and
 * diagonal cells from which a straight jump finds a jump point.
 *
 * Domain: states are padded map indices (as the grid domain), successors are jump points with their octile
 * cost, the heuristic is the octile distance. Because a node's pruned directions depend on the direction
 * it was reached from, the domain reads parents from the workspace it is bound to (ap_jps_domain_bind);
 * everything else (slicing, deadlines, workspaces) is the core's, unchanged. ap_search_path returns jump
 * points; ap_jps_expand_path turns them into the full cell path, so costs, smoothing and "none" waypoints
 * are the same as A*'s.
 *
 * Validity: only for uniform-cost terrain and 8-connectivity. Maps with terrain costs exist (map.h: a
 * weighted map, ap_map_move_cost); jump points are not optimal there, so plan.c refuses JPS and JPS+ on a
 * weighted map and runs A* instead.
 */
#ifndef AP_JPS_H
#define AP_JPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../world/map.h"
#include "../world/tables.h"
#include "../search/search.h"

/* Names of the tables in the map's table slots (map.h ap_map_table): JPS+ jump distances, and the
 * passability bit lines (rows and columns, 2 bits per cell) that online JPS scans 64 cells at a time. */
#define AP_JPS_TABLE_NAME "jps_plus"
#define AP_JPS_BITS_NAME "jps_bits"

/* ap_jps_table.dist8's escape: the distance does not fit in a byte, ap_jps_table.dist has it. */
#define AP_JPS_FAR8 (-128)

/* JPS+ jump-distance table: for every padded cell and each of the 8 directions (N, NE, E, SE, S, SW, W, NW
 * in that order), a signed step count. d > 0: the d-th cell in that direction is a jump point (reached by
 * legal steps). d <= 0: -d legal steps are possible before a wall or an illegal diagonal, with no jump point
 * on the way. 17 bytes per padded cell with the forced-neighbour byte, 25 with the one-byte copy. */
typedef struct ap_jps_table {
    int16_t *dist;    /* 8 * cells entries, cell-major */
    int8_t *dist8;    /* the same distances in one byte each, AP_JPS_FAR8 where |d| > 127 (read dist
                       * there), or NULL when more than 1% of the non-zero ones do not fit: the search
                       * reads these when present, half the cache footprint
                       * (docs/search-measurements.md, sixth round) */
    uint8_t *forced;  /* per padded cell, the forced neighbours of a straight arrival in direction d
                       * (even): bit d = the side at d+2 (90 degrees clockwise), bit d+1 = the side at
                       * d+6; so the JPS+ pruning reads one byte instead of four cells on three rows */
    uint32_t cells;   /* padded cells of the map */
    size_t nonzero, far; /* how many distances are non-zero, and do not fit in a byte (dist8's rule: kept
                          * while far <= 1% of nonzero); kept so a tile update decides without a recount */
} ap_jps_table;

/* Build the JPS+ table of map m (reads m->pass only). Returns AP_OK and a new table in *out (free with
 * ap_jps_table_free), AP_E_NOMEM, or AP_E_MAP_TOO_LARGE when a side exceeds 32000 cells (int16 distances).
 * O(cells), single pass per direction. Thread-safe (no shared state). */
int ap_jps_table_build(const ap_map *m, ap_jps_table **out);

/* Free a table from ap_jps_table_build; NULL is ignored. Signature fits ap_map_table.free_fn. Not while other
 * threads still read it. */
void ap_jps_table_free(void *table);

/* Passability as bits for online JPS's block scans (ICAPS 2014 section 4), the data of the AP_JPS_BITS_NAME
 * table: one bit line per row and one per column (the transpose), and per straight direction an event line
 * (rows for E and W, columns for S and N) whose bit is 1 where a straight jump in that direction stops (a
 * blocked cell, or a cell with a forced neighbour when entered in that direction). Bit (pos + 64) of a line
 * is the cell at padded position pos; the 64 spare bits on each side are 0 in the bit lines and 1 in the
 * event lines. Built and updated in jps.c (the layout and why is explained there). */
typedef struct ap_jps_bits {
    uint64_t *rows;     /* (height + 2) lines of row_words words */
    uint64_t *cols;     /* (width + 2) lines of col_words words */
    uint64_t *ev;       /* one block: ev_e, ev_w (rows), ev_s, ev_n (columns) */
    const uint64_t *ev_e, *ev_w, *ev_s, *ev_n;
    uint32_t row_words, col_words;
} ap_jps_bits;

/* The table kinds (world/tables.h; registered in planner/plan/table_kinds.c), both optional and built on
 * uniform-cost maps only. AP_JPS_TABLE_NAME: the JPS+ table (ap_jps_table_build; 17 or 25 bytes per padded
 * cell); a failure (AP_E_NOMEM, or AP_E_MAP_TOO_LARGE for a side above 32000 cells) leaves the map without
 * it and jps_plus runs online JPS (plan.c). AP_JPS_BITS_NAME: the bit lines online JPS scans (ICAPS 2014
 * section 4, block-based jumps; about 6 bits per cell); without them JPS steps cell by cell.
 *
 * Both are updated incrementally after a tile update (tables.h update; only the cells whose passability
 * m->pass changed matter, a letter change that keeps it changes neither table):
 * - jps_bits: a cell's bits in the row and column lines, and its event bits, read only the cell and its 8
 *   neighbours; so the lines are copied and the bits of the 3x3 block around each changed cell recomputed
 *   with the build's own per-cell function. Above one changed cell per 64 cells, a full build.
 * - jps_plus: the forced bytes read the 3x3 block around a cell, recomputed there. A distance is a
 *   function of a few passability cells next to it and of the distances of the NEXT cell in its direction
 *   (straight: that cell's own; diagonal: its own and its two straight components'). The update recomputes,
 *   with the build's per-cell function, the cells whose local inputs changed (the seeds), walking from
 *   each backwards along its line in dependency order as long as the value changes; straight directions
 *   first (the cells whose straight distances changed seed the diagonals). Exact: see the proof at
 *   jps_plus_walk in jps.c. Above one changed cell per 256 padded cells, or when the walks pass 2
 *   recomputations per padded cell (a quarter of the build's 8: then it gives up and builds), a full
 *   build. */
extern const ap_table_kind ap_jps_plus_table_kind;
extern const ap_table_kind ap_jps_bits_table_kind;

/* The JPS+ table stored with m (borrowed from m), or NULL. Thread-safe (the map is immutable after load). */
const ap_jps_table *ap_jps_table_of(const ap_map *m);

/* Domain context. Borrowed pointers must outlive the search. */
typedef struct ap_jps_domain {
    const ap_map *map;
    const uint8_t *pass;      /* padded passability */
    const int16_t *jump;      /* JPS+ distances, NULL for online JPS */
    const int8_t *jump8;      /* JPS+ distances in one byte (ap_jps_table.dist8), or NULL */
    const uint8_t *forced;    /* JPS+ forced-neighbour bytes (ap_jps_table), NULL for online JPS */
    const struct ap_jps_bits *bits; /* online JPS: bit lines for block scans, or NULL (cell by cell) */
    /* Disc units (jps_sized.h): the unit's successor masks (8 per padded cell, by arrival direction) or NULL
     * (point units; online disc JPS without a table computes them per visited cell), the clearance table
     * and threshold k its moves are tested against (NULL / 0 for point units). */
    const uint8_t *succ8;
    const struct ap_clearance_table *clear;
    uint16_t k;
    uint32_t jump_max;        /* online disc JPS without a table: a jump stops (as a jump point) after this
                               * many steps, 0 = unbounded (jps_sized.c AP_JPS_ONLINE_JUMP_MAX) */
    const ap_node *nodes;     /* the bound workspace's nodes: parents give the arrival direction */
    int succ_cap;             /* the bound workspace's successor slots (>= 8): online JPS's pruning room */
    uint32_t stride;
    int32_t off[8];           /* the index step of direction d: DX[d] + DY[d] * stride */
    uint32_t goal;
    int32_t goal_px, goal_py; /* padded column / row of the goal */
} ap_jps_domain;

/* Fill dom with the JPS domain over map m towards goal (padded index). table: JPS+ distances (e.g.
 * ap_jps_table_of(m)) or NULL for online JPS. Every field of dom is written; with a table dom->run is
 * JPS+'s own copy of the A* loop (jps_loop.c), without one online JPS runs the generic loop. The domain
 * must be bound to the workspace it runs on with ap_jps_domain_bind before ap_search_begin (and again
 * after moving to another workspace).
 * Returns AP_OK, or AP_E_INTERNAL for a bad goal or a table of another size. Writes only jd and dom. */
int ap_jps_domain_init(ap_jps_domain *jd, ap_domain *dom, const ap_map *m, const ap_jps_table *table,
                       uint32_t goal);

/* Point the domain at the workspace its search runs on (reads its parents during the search, and its
 * successor capacity now): ws is borrowed and must outlive the search. Writes only jd: thread-safe for distinct
 * domains; the search then runs on ws's thread. */
void ap_jps_domain_bind(ap_jps_domain *jd, const ap_workspace *ws);

/* Expand a jump-point path jp[0 .. n-1] into the full cell path. Each consecutive pair is joined by the
 * diagonal-first octile leg: min(|dx|, |dy|) diagonal steps, then straight ones (a pair on one line is the
 * special case with one part empty; JPS+ parents past a pruned intermediate jump point need both parts:
 * jps_impl.h). Writes up to cap node ids to out and returns the full count (call again with a bigger
 * buffer when it exceeds cap; out may be NULL with cap 0). Returns 0 if two consecutive points are equal.
 * Pure; checks no passability (the search only produces legal legs). */
size_t ap_jps_expand_path(const ap_map *m, const uint32_t *jp, size_t n, uint32_t *out, size_t cap);

#endif
