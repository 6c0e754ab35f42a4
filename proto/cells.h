/* cells.h — the answer of GET /v1/maps/{id}/cells: a map's raw Moving AI terrain letters, row by row, for
 * clients that draw the map (the viewer at GET /).
 *
 * Thread-safe (no shared state); the map is only read. The returned string is malloc'd, NUL-terminated
 * and owned by the caller (free()).
 */
#ifndef AP_PROTO_CELLS_H
#define AP_PROTO_CELLS_H

#include <stddef.h>

#include "../planner/world/map.h"

/* Encode {"map": id, "width": W, "height": H, "rows": [row 0, ..., row H-1]}: W and H in cells; row y is
 * the W letters of cells (0, y) .. (W-1, y) exactly as in the map file (m->terrain: '.', 'G', 'S', 'T',
 * 'W', '@', 'O'; Moving AI format, "type octile" maps), so x = column = index in the string, y = row = index
 * in the array. An id that is not valid UTF-8 has its bad bytes written as '?'. About W*H + 4*H + 64
 * bytes. Returns NULL on allocation failure; *len (if non-NULL) gets the byte length. */
char *ap_wire_encode_cells(const ap_map *m, size_t *len);

#endif
