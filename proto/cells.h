/* cells.h — the answer of GET /v1/maps/{id}/cells: a map's raw Moving AI terrain letters, row by row, for
 * clients that draw the map (the viewer at GET /).
 *
 * Thread-safe (no shared state); the map is only read. The returned string is malloc'd, NUL-terminated
 * and owned by the caller (free()).
 */
#ifndef AP_PROTO_CELLS_H
#define AP_PROTO_CELLS_H

#include <stddef.h>
#include <stdint.h>

#include "../planner/world/map.h"
#include "../planner/world/patch.h" /* ap_cell_edit, AP_MAX_CELL_EDITS */
#include "errors.h"

/* Encode {"map": id, "width": W, "height": H, "rows": [row 0, ..., row H-1]}: W and H in cells; row y is
 * the W letters of cells (0, y) .. (W-1, y) exactly as in the map file (m->terrain: '.', 'G', 'S', 'T',
 * 'W', '@', 'O'; Moving AI format, "type octile" maps), so x = column = index in the string, y = row = index
 * in the array. An id that is not valid UTF-8 has its bad bytes written as '?'. About W*H + 4*H + 64
 * bytes. Returns NULL on allocation failure; *len (if non-NULL) gets the byte length. */
char *ap_wire_encode_cells(const ap_map *m, size_t *len);

/* Parse a PATCH /v1/maps/{id}/cells body {"cells": [{"x": int, "y": int, "terrain": "@"}, ...]} (1 ..
 * max_cells entries; x, y integers in [0, 65535], checked against the map later; terrain one Moving AI
 * letter; unknown keys refused) into *out (malloc'd array of *n; caller frees). Returns AP_OK, or
 * AP_E_INVALID_JSON / AP_E_INVALID_REQUEST with err naming the field ("cells[2].terrain") or AP_E_NOMEM.
 * Thread-safe. */
int ap_wire_parse_cell_edits(const char *body, size_t len, size_t max_cells, ap_cell_edit **out, size_t *n,
                             ap_wire_error *err);

#endif
