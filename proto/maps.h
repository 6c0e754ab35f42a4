/* maps.h — the map-info answers of GET /v1/maps and GET /v1/maps/{id} (jansson; cold routes).
 *
 * Thread-safe (no shared state); the maps are only read. Returned strings are malloc'd, NUL-terminated,
 * and owned by the caller (free()).
 */
#ifndef AP_PROTO_MAPS_H
#define AP_PROTO_MAPS_H

#include <stddef.h>

#include "../planner/world/map.h"
#include "circles.h"

/* Encode one map's info: {"id", "kind": "grid", "width", "height", "passable_cells", "weighted", "terrain_costs",
 * "load_ms", "tables": [{"name", "bytes", "build_ms"} per slot of m->tables in order, plus the slot's count
 * under its count_name when it has one (the region table, first: "regions")]}. load_ms/build_ms are milliseconds (reals, 17 significant digits). An id that is not valid
 * UTF-8 has its bad bytes written as '?'. Returns NULL on allocation failure; *len (if non-NULL) gets the
 * byte length. */
char *ap_wire_encode_map(const ap_map *m, size_t *len);

/* Encode a circle map's info: {"id", "kind": "circles", "width", "height" (tiles, reals), "circles" (count),
 * "load_ms", "tables": []}. Returns as ap_wire_encode_map. */
char *ap_wire_encode_circle_map(const ap_circle_map *c, size_t *len);

/* Encode {"maps": [map info, ...]} for the n grid maps and nc circle maps, each list sorted by id (strcmp),
 * merged in id order (n, nc may be 0; the arrays may be NULL then). Returns NULL on allocation failure;
 * *len (if non-NULL) gets the byte length. */
char *ap_wire_encode_map_list(const ap_map *const *maps, size_t n, const ap_circle_map *circles, size_t nc,
                              size_t *len);

/* ap_wire_encode_map_list of grid maps alone. */
char *ap_wire_encode_maps(const ap_map *const *maps, size_t n, size_t *len);

#endif
