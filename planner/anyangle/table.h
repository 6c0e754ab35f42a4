/* table.h — the "any_angle" per-map table kind (world/tables.h): the point unit's graph of a grid map
 * (ap_aa_graph_grid at r_u = 0: every convex corner, with the eager table of usable corner bitangents,
 * graph.h), built once at load on uniform-cost maps and shared read-only by every point-unit any_angle
 * query of the map.
 *
 * Limits: built only for maps with at most AP_AA_TABLE_MAX_CORNERS convex corners (the eager table costs
 * O(corners^2) line-of-sight tests: den520d's 912 corners about 0.1 s, graph.h) and kept only when it
 * holds at most AP_AA_TABLE_MAX_BYTES; a map beyond either gets no slot and its queries build a lazy graph
 * each (O(cells), departures computed as the search reaches corners). GET /v1/maps/{id} lists the slot
 * with its bytes, build time and "corners" count.
 */
#ifndef AP_AA_TABLE_H
#define AP_AA_TABLE_H

#include "../world/tables.h"
#include "graph.h"

#define AP_AA_TABLE_NAME "any_angle"
#define AP_AA_TABLE_MAX_CORNERS AP_AA_EAGER_AUTO_MAX
#define AP_AA_TABLE_MAX_BYTES (64u << 20)

/* The kind (listed in planner/plan/table_kinds.c): optional, uniform-cost maps only. */
extern const ap_table_kind ap_aa_table_kind;

/* The point unit's shared graph of m, or NULL when m has no "any_angle" slot. Pure; thread-safe. */
const ap_aa_graph *ap_aa_table_of(const ap_map *m);

#endif
