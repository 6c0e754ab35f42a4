/* cells_route.h — GET /v1/maps/{id}/cells: which URLs it serves and its answer (proto/cells.h encodes the
 * body). The registry is only read: thread-safe once the maps are loaded (registry.h).
 */
#ifndef AP_SERVER_CELLS_ROUTE_H
#define AP_SERVER_CELLS_ROUTE_H

#include <stdbool.h>
#include <stddef.h>

#include "registry.h"

/* Whether url is "/v1/maps/{id}/cells" with a non-empty id holding no '/'. Pure. */
bool ap_cells_route_match(const char *url);

/* Answer GET url (a match of ap_cells_route_match) from reg. The id is written into map_id (map_cap bytes,
 * for the access log; bytes outside printable ASCII become '?'). Returns AP_OK with *body (malloc'd JSON,
 * the caller frees it) and *len set; AP_E_UNKNOWN_MAP when no map has that id (or url does not match);
 * AP_E_NOMEM. */
int ap_cells_route(const ap_registry *reg, const char *url, char *map_id, size_t map_cap, char **body, size_t *len);

#endif
