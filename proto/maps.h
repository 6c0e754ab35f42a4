/* maps.h — the map-info answers of GET /v1/maps and GET /v1/maps/{id} (jansson; cold routes).
 *
 * Thread-safe (no shared state); the maps are only read. Returned strings are malloc'd, NUL-terminated,
 * and owned by the caller (free()).
 */
#ifndef AP_PROTO_MAPS_H
#define AP_PROTO_MAPS_H

#include <stddef.h>
#include <stdint.h>

#include "../planner/world/map.h"

/* Encode one map's info: {"id", "map_version" (when version is not 0: the registry's version number,
 * server/registry.h), "width", "height", "passable_cells", "weighted", "terrain_costs",
 * "load_ms", "tables": [{"name", "bytes", "build_ms"} per slot of m->tables in order, plus the slot's count
 * under its count_name when it has one (the region table, first: "regions")]}. load_ms/build_ms are milliseconds (reals, 17 significant digits). An id that is not valid
 * UTF-8 has its bad bytes written as '?'. Returns NULL on allocation failure; *len (if non-NULL) gets the
 * byte length. */
char *ap_wire_encode_map(const ap_map *m, uint64_t version, size_t *len);

/* Encode {"maps": [map info, ...]} for the n maps (in the given order; n may be 0; maps may be NULL then),
 * map i with versions[i] (versions NULL = no "map_version").
 * Returns NULL on allocation failure; *len (if non-NULL) gets the byte length. */
char *ap_wire_encode_maps(const ap_map *const *maps, const uint64_t *versions, size_t n, size_t *len);

#endif
