/* jps_sized.h — Jump Point Search for disc units: the grid as a disc of radius r sees it (Annotated A*'s
 * moves, grid.h ap_grid_domain_init_sized), with jump point pruning derived from that grid, and JPS+
 * jump distances per clearance threshold, built on a query's first use and kept for the map's lifetime.
 *
 * Sources: Harabor & Grastien, "Online Graph Pruning for Pathfinding on Grid Maps" (AAAI 2011), section 3:
 * the pruning rule itself, stated for any neighbourhood — a neighbour n of x reached from parent p is
 * pruned when some path from p to n that avoids x is no longer (x entered straight) or strictly shorter
 * (x entered diagonally) than p -> x -> n; forced neighbours are the non-natural ones it keeps. Harabor &
 * Grastien, ICAPS 2014, section 5 (JPS+: jump points precomputed per cell and direction); Harabor,
 * "Clearance-based Pathfinding" (reference 004) for the unit's grid.
 *
 * The unit's grid. With k = ap_clearance_level(r) (clearance.h: a stored level q allows the disc iff q > k), a
 * cell is free for the unit iff its disc level is above k, an orthogonal move iff both its cells are, and a
 * diagonal move iff its own level (ap_clearance_move) is. Measured on every Moving AI map (and argued from the
 * geometry: the segment between two diagonal cell centres stays within a half-diagonal of one of the four
 * cells' centres, and nearer to it than to any square outside the 2 x 2 block), a diagonal value lies
 * between the smallest of its four cells' values and the smaller of its two end cells': a diagonal whose
 * four cells are free is legal, as without corner cutting on the point grid — but a disc may also pass
 * diagonally round a cell it does not fit in (its centre too near a wall, the swept segment far enough), so
 * the unit's grid has diagonal moves the no-corner-cutting rule would forbid, and diagonal arrivals get
 * forced neighbours. The point grid's closed-form pruning (jps.h) does not hold there; the AAAI 2011 rule
 * above does for any neighbourhood, so it is evaluated as it is stated: the alternative paths from p to n
 * have at most two moves (a third costs at least 3 > 2 sqrt 2), so per cell and arrival direction the
 * directions to search ("successor masks") are a function of the 5 x 5 block around the cell. They are
 * computed once per threshold (8 bytes a padded cell), or per visited cell when no table can be had.
 *
 * Exactness is tested, not only argued: on random maps and every Moving AI map, JPS and JPS+ for radii 0.5
 * to 2 return Annotated A*'s optimal lengths (tests/planner/grid/test_jps_sized.c).
 */
#ifndef AP_JPS_SIZED_H
#define AP_JPS_SIZED_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "jps.h"
#include "../world/capability.h"
#include "../world/clearance.h"

/* A unit's key: its shape and threshold. A disc of radius r: k = ap_clearance_level(r) (0 .. 123), a cell
 * fits it when its disc level q > k (discs whose radii share a level share the tables). A square of side s
 * (Harabor's true clearance, clearance.h `square`): AP_JPS_SQUARE | (s - 1), a cell (the footprint's top-left
 * anchor) fits it when its square clearance > s - 1; a diagonal move of a
 * square needs its two orthogonal anchors to fit too (grid.h ap_grid_domain_init_square), so a square's grid
 * is the point grid's kind, without corner cutting, over the anchors that fit. */
#define AP_JPS_SQUARE 0x8000u

/* The table key of a disc of radius r (tiles, 0 < r <= 16): its clearance level. Pure. */
static inline uint16_t ap_jps_disc_key(double r)
{
    return ap_clearance_level(r);
}

/* The table key of a square unit of side cells (1 <= side <= AP_MAX_UNIT_SIZE). Pure. */
static inline uint16_t ap_jps_square_key(int side)
{
    return (uint16_t)(AP_JPS_SQUARE | (unsigned)(side - 1));
}

/* Does padded cell c fit the unit of key k (above)? Pure. */
static inline bool ap_jps_key_fits(const ap_clearance_table *t, uint16_t k, uint32_t c)
{
    return (k & AP_JPS_SQUARE) ? t->square[c] > (k & ~AP_JPS_SQUARE) : t->disc[c] > k;
}

/* Unit keys (above) kept per map, over every capability, and the bytes they may hold together (checked
 * before each build against the published keys' bytes plus the new key's at most: about 34 bytes a padded
 * cell, so 3 keys of a 1024^2 map, 8 of a 512^2 one; two builds racing may pass it together). A query with
 * another key once the places or the bytes are taken runs online JPS with masks computed per visited cell
 * (same answers, slower), and `auto` runs Annotated A* or hierarchical for it. */
#define AP_JPS_SIZED_CLASSES 8
#define AP_JPS_SIZED_MAX_BYTES ((size_t)128 << 20)

/* Online disc JPS without the tables (above) stops a jump after this many steps, as a jump point (optimal
 * all the same: jps_sized.c jump_straight), so an expansion costs at most ~1 ms on any map: a diagonal jump
 * then visits at most 64 cells and scans at most 2 × 64 from each. */
#define AP_JPS_ONLINE_JUMP_MAX 64u

/* The slot of the map-wide table kind below. */
#define AP_JPS_SIZED_TABLE_NAME "jps_sized"

/* One threshold's tables: immutable once published, shared read-only by every query of the map. */
typedef struct ap_jps_sized {
    ap_capability capability;
    uint16_t k;            /* the unit's key (AP_JPS_SQUARE and the threshold, above) */
    uint8_t *succ;         /* 8 bytes per padded cell: succ[c * 8 + a] = the directions to search from c
                            * entered in direction a (bit d = direction d, jps.h order N, NE, .. NW); 0 at
                            * cells the unit does not fit */
    ap_jps_table plus;     /* JPS+ distances over the unit's grid (jps.h semantics; forced = NULL) */
    struct ap_jps_bits *bits; /* online JPS's event lines over the unit's grid (jps.h: a bit where a straight
                               * jump entering the cell that way stops: the disc does not fit it, or it has
                               * a forced neighbour); the row and column lines hold the cells it fits */
    size_t bytes;          /* memory held */
    double build_seconds;  /* wall time of the build */
} ap_jps_sized;

/* The successor mask of padded cell c of t's capability entered in direction a (0..7), for threshold k:
 * the AAAI 2011 rule evaluated on the unit's grid (header). m is the map t belongs to (for its size). 0 when
 * the unit does not fit c. Pure; thread-safe. O(1) (at most 8 x 9 move tests). */
uint8_t ap_jps_sized_mask(const ap_map *m, const ap_clearance_table *t, uint16_t k, uint32_t c, int a);

/* Build the tables of threshold k for clearance table t of map m (successor masks, then the JPS+ distances
 * by one sweep per direction, then the event lines). *out gets a new ap_jps_sized (free with
 * ap_jps_sized_free). Returns AP_OK, AP_E_NOMEM, or AP_E_MAP_TOO_LARGE for a side above 32000 cells.
 * O(cells); about 25 bytes a padded cell (plus 8 when nearly every distance fits a byte). Thread-safe. */
int ap_jps_sized_build(const ap_map *m, const ap_clearance_table *t, uint16_t k, ap_jps_sized **out);

/* Free a table from ap_jps_sized_build (masks, distances and event lines); NULL is ignored. Never a published
 * one (the map's slot owns those); not while other threads read it. */
void ap_jps_sized_free(ap_jps_sized *s);

/* The map-wide kind (listed in planner/plan/table_kinds.c): optional; its slot holds the published
 * thresholds of every capability (empty after a load or a tile update: the tables are built again on first
 * use). */
extern const ap_table_kind ap_jps_sized_table_kind;

/* The tables of key k for clearance table t (its capability's: ap_clearance_of of the loaded map, which a
 * capability view shares) of m (m may be a capability view: the slot is the loaded map's), built now when
 * missing (O(cells): 15-20 ms at 256^2, up to 0.25 s at 512^2 and 0.3 s at 1024^2) and published in a free
 * place; NULL when t is NULL, m has no slot or is too large, the build failed, the places or
 * AP_JPS_SIZED_MAX_BYTES are taken by other keys, or another thread is building tables of m at the time.
 * Lives as long as m. Thread-safe: published with C11 atomics, one build at a time per map (a thread that
 * finds another building goes without the tables rather than wait). */
const ap_jps_sized *ap_jps_sized_get(const ap_map *m, const ap_clearance_table *t, uint16_t k);

/* ap_jps_sized_get in the time a query can spare: the build runs until the tables are done or the clock
 * (CLOCK_MONOTONIC ns, ap_clock_ns) has passed until_ns (0: no limit; read after each row of each of its
 * passes: the block test's, the masks', eight JPS+ sweeps', the event lines'), and an unfinished build is
 * kept in m's table for the next query that builds, which resumes it (a query of another key finishes and
 * publishes it first, then starts its own if time is left). NULL also while the build is unfinished or when
 * until_ns has passed before a build would start. Same thread safety. */
const ap_jps_sized *ap_jps_sized_get_until(const ap_map *m, const ap_clearance_table *t, uint16_t k, uint64_t until_ns);

/* The published tables of key k for clearance table t of m (as ap_jps_sized_get), or NULL (nothing is
 * built). Thread-safe. */
const ap_jps_sized *ap_jps_sized_find(const ap_map *m, const ap_clearance_table *t, uint16_t k);

/* Would ap_jps_sized_get(m, t, k) answer tables: are they published, or is there a free place and room in
 * the byte budget (and m's slot and t there)? Builds nothing (a build may still fail, or
 * another key take the last place first). Thread-safe. */
bool ap_jps_sized_ready(const ap_map *m, const ap_clearance_table *t, uint16_t k);

/* Fill dom with JPS over the unit's grid for threshold k of clearance table t (m's capability's), towards
 * goal (padded index). s: the threshold's tables (ap_jps_sized_get) or NULL (masks per visited cell).
 * plus: JPS+ (s required; dom->run is JPS+'s loop) or online JPS (the generic loop: with s, block scans of its
 * event lines, 64 cells a word, as the point unit's online JPS; without, cell by cell). Bind with
 * ap_jps_domain_bind as for ap_jps_domain_init. Returns AP_OK, or AP_E_INTERNAL for a bad goal or a plus
 * without s. Writes only jd and dom. */
int ap_jps_domain_init_sized(ap_jps_domain *jd, ap_domain *dom, const ap_map *m, const ap_clearance_table *t,
                             uint16_t k, const ap_jps_sized *s, bool plus, uint32_t goal);

#endif
