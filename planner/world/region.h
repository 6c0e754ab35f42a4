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
 * of a passable cell, 1 .. count (dense: every id in that range names one component; a fresh build numbers
 * them in row-major order of first cells, a tile update keeps ids but may number the components it creates,
 * joins or removes otherwise, so no reader may rely on the order), 0 for blocked ones; count = the number
 * of components ("regions"); bytes = 4 per padded cell. Required (a map without it does not load).
 * Updated incrementally after a tile update (ap_region_update on m->pass). */
extern const ap_table_kind ap_region_table_kind;

/* Label the connected components of mask (ap_map_node_count(m) bytes in m's padded layout, non-zero =
 * free, padded border zero; borrowed) into a table slot: on AP_OK out->data gets a new array (freed with
 * free(), the kinds' free_fn) of one uint32_t per padded cell, the component id 1 .. out->count of a free
 * cell in row-major order of first cells and 0 for the others, and out->bytes its size; other fields are
 * left alone. 4-connectivity, which equals 8-connectivity without corner cutting. Returns AP_E_NOMEM
 * (nothing allocated) when memory runs out. O(cells). Pure; thread-safe. The "region" table is this on
 * m->pass; capability.h's per-capability region tables are this on a capability's mask. */
int ap_region_label(const ap_map *m, const uint8_t *mask, ap_map_table *out);

/* ap_region_label of m's own passability (cap 0: m->pass) or of capability cap's mask (1 .. 15,
 * capability.h ap_capability_mask, made in a temporary array). Same outputs and errors. Pure; thread-safe. */
int ap_region_build(const ap_map *m, unsigned cap, ap_map_table *out);

/* ap_region_update falls back to ap_region_build when more than 1/AP_REGION_UPDATE_MAX_CHANGED of the
 * padded cells changed, or when the searches that decide whether a closed cell split a region expand more
 * than 1/AP_REGION_UPDATE_MAX_VISITED of the padded cells in one update: a full labelling costs about one
 * breadth-first visit of every free cell (most of the cells on real maps), so beyond that share the
 * incremental work would be close to it (the cells visited until then are the update's loss). */
#define AP_REGION_UPDATE_MAX_CHANGED 16
#define AP_REGION_UPDATE_MAX_VISITED 4

/* The region table of m (cap 0: on m->pass; 1 .. 15: on capability cap's mask) from old, the table of the
 * same mask on the previous version of the map, which differed from m only at the n `changed` cells (cell
 * coordinates, each once; tables.h). On AP_OK out->data gets a new array (free()) labelling the same
 * partition as ap_region_build(m, cap) with ids 1 .. out->count (dense, the numbering possibly different),
 * out->count and out->bytes set as by the build; old is only read. Cost: a copy of old's labels, then per
 * changed cell whose mask bit flipped O(1) (a union of its neighbours' ids when it opened; an 8-ring test
 * when it closed), plus, when a closed cell may split its region, lockstep breadth-first fronts from its
 * separated neighbours that stop when they meet or when all but one piece is exhausted (cost about the
 * number of fronts times the smaller pieces), plus one renumbering pass over the cells when ids were joined
 * or freed below the count (details in region.c). Falls back to ap_region_build (AP_REGION_UPDATE_MAX_*).
 * Returns AP_OK or AP_E_NOMEM (nothing allocated). Pure; thread-safe (old may be read by others). */
int ap_region_update(const ap_map *m, const ap_map_table *old, const ap_cell_pos *changed, size_t n, unsigned cap,
                     ap_map_table *out);

#endif
