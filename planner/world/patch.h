/* patch.h — tile updates: the next version of a loaded grid map after a few cells change (a door opens, a
 * wall is built), with its per-map tables updated incrementally where the table kind can (tables.h
 * ap_table_kind.update) and built from scratch where it cannot.
 *
 * The previous version is only read: queries may keep using it while the next one is made, and until the
 * caller swaps them (server/registry.c). The map info lists, per table, whether it was updated
 * (ap_map_table.incremental) and how long it took.
 */
#ifndef AP_PATCH_H
#define AP_PATCH_H

#include <stddef.h>
#include <stdint.h>

#include "map.h"
#include "tables.h"

/* One changed cell of a tile update: (x, y) gets the terrain letter (map.h: '.', 'G', '@', 'O', 'T', 'S',
 * 'W'). */
typedef struct ap_cell_edit {
    int32_t x, y;
    char terrain;
} ap_cell_edit;

/* Most cells one tile update may change. */
#define AP_MAX_CELL_EDITS 4096

/* The next version of prev with the n edits applied in order (a later edit of the same cell wins), as a
 * new map with prev's id, size and cost rules (terrain costs, capabilities): the same map ap_map_parse
 * would give for prev's file with those letters changed, tables included (a table kind's incremental
 * update must equal its full build; region ids may be numbered differently, region.h). prev: a loaded map
 * (not a capability view), only read; edits: 1 .. AP_MAX_CELL_EDITS cells inside the map (borrowed).
 * On AP_OK *out is the new map (caller owns; ap_map_free). Errors: AP_E_INVALID_REQUEST (an edit outside
 * the map, or a letter that is not terrain: diag->file "cells[i]" and the reason), AP_E_NOMEM, or a
 * required table's failure (diag names it). Thread-safe (prev is only read; other threads may read it). */
int ap_map_patch(const ap_map *prev, const ap_cell_edit *edits, size_t n, ap_map **out, ap_diag *diag);

/* Whether the n edits (as ap_map_patch takes them, applied in order) change any cell's letter of prev:
 * false when every cell they name ends with the letter it has (a client re-sending a door's state), so no
 * version need be made and no table rebuilt; true also for an edit ap_map_patch refuses (it says why).
 * O(n) when the edits name distinct cells, O(n^2) at worst (n <= AP_MAX_CELL_EDITS); pure, thread-safe. */
bool ap_map_patch_changes(const ap_map *prev, const ap_cell_edit *edits, size_t n);

#endif
