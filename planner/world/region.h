/* region.h — the region-connectivity table of a grid map, a registered table kind (tables.h).
 *
 * Source: Pinter, "Toward More Realistic Pathfinding", "Path Failure and Timeslicing": a component id per
 * cell answers "unreachable" without searching. The loader keeps m->region pointing at the table's data
 * (map.h), so the check every query makes is one array read.
 */
#ifndef AP_REGION_H
#define AP_REGION_H

#include "tables.h"

#define AP_REGION_TABLE_NAME "region"

/* "region": data = uint32_t per padded cell (ap_map_node_count(m) entries): the 4-connected component id
 * of a passable cell, 1 .. count in row-major order of first cells, 0 for blocked ones; count = the number
 * of components ("regions"); bytes = 4 per padded cell. Required (a map without it does not load). */
extern const ap_table_kind ap_region_table_kind;

/* Label the connected components of mask (ap_map_node_count(m) bytes in m's padded layout, non-zero =
 * free, padded border zero; borrowed) into a table slot: on AP_OK out->data gets a new array (freed with
 * free(), the kinds' free_fn) of one uint32_t per padded cell, the component id 1 .. out->count of a free
 * cell in row-major order of first cells and 0 for the others, and out->bytes its size; other fields are
 * left alone. 4-connectivity, which equals 8-connectivity without corner cutting. Returns AP_E_NOMEM
 * (nothing allocated) when memory runs out. O(cells). Pure; thread-safe. The "region" table is this on
 * m->pass; capability.h's per-capability region tables are this on a capability's mask. */
int ap_region_label(const ap_map *m, const uint8_t *mask, ap_map_table *out);

#endif
