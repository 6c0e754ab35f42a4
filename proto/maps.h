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
#include "circles.h"

/* Encode one map's info: {"id", "map_version" (when version is not 0: the registry's version number,
 * server/registry.h), "kind": "grid", "width", "height", "passable_cells", "weighted", "terrain_costs",
 * "meters_per_tile" (the map's scale, metres per tile), "load_ms", "tables": [{"name", "bytes", "build_ms", ["incremental": true when the slot's table was
 * kept from the previous version and updated cell by cell]} per slot of m->tables in order, plus the slot's count
 * under its count_name when it has one (the region table, first: "regions")]}. load_ms/build_ms are milliseconds (reals, 17 significant digits). An id that is not valid
 * UTF-8 has its bad bytes written as '?'. Returns NULL on allocation failure; *len (if non-NULL) gets the
 * byte length. */
char *ap_wire_encode_map(const ap_map *m, uint64_t version, size_t *len);

/* Encode a circle map's info: {"id", "map_version" (when version is not 0), "kind": "circles", "width", "height" (tiles, reals), "circles" (count),
 * "meters_per_tile", "load_ms", "tables": []}. Returns as ap_wire_encode_map. */
char *ap_wire_encode_circle_map(const ap_circle_map *c, uint64_t version, size_t *len);

/* One map of a list: a grid or a circle map (exactly one of them non-NULL) and its version (0 = none). */
typedef struct ap_wire_map_ref {
    const ap_map *grid;
    const ap_circle_map *circles;
    uint64_t version;
} ap_wire_map_ref;

/* Encode {"maps": [map info, ...]} for maps[0, n) in the given order (n may be 0; maps may be NULL then).
 * Returns NULL on allocation failure; *len (if non-NULL) gets the byte length. */
char *ap_wire_encode_map_list(const ap_wire_map_ref *maps, size_t n, size_t *len);

/* {"maps": [...]} of grid maps alone, map i with versions[i] (versions NULL = no "map_version"). Returns as
 * ap_wire_encode_map_list (a malloc'd string the caller frees, or NULL). */
char *ap_wire_encode_maps(const ap_map *const *maps, const uint64_t *versions, size_t n, size_t *len);

#endif
