/* wire.h — the JSON wire format (jansson): request parsing and validation, response encoding.
 *
 * Contract: proto/openapi.yaml and README.md. All functions are thread-safe (no shared state); returned
 * strings are malloc'd, NUL-terminated, and owned by the caller (free()).
 */
#ifndef AP_PROTO_WIRE_H
#define AP_PROTO_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "../planner/map.h"
#include "../planner/plan.h"
#include "errors.h"

/* A request-level error: status (AP_E_*), message, the offending field (dotted path, "" if none), and for
 * AP_E_INVALID_JSON the 1-based line and column in the body. */
typedef struct ap_wire_error {
    int status;
    char message[256];
    char field[64];
    int line, col;
} ap_wire_error;

/* A parsed POST /v1/path body. q.map is NULL: the caller resolves `map` and sets q.map. */
typedef struct ap_path_request {
    char map[AP_MAP_ID_MAX];
    ap_query q;
    int64_t deadline_ms;  /* -1 when absent (the server default applies); else 1 .. 600000 */
} ap_path_request;

/* Parse and validate a POST /v1/path body of len bytes (need not be NUL-terminated).
 * Defaults: start.heading absent (face the first waypoint), unit.radius 0, unit.turning_radius 0,
 * search.algorithm "astar", search.connectivity 8, search.smoothing "los", no samples.
 * Unknown fields anywhere, wrong types, non-finite or out-of-range numbers are AP_E_INVALID_REQUEST with
 * err->field naming the field; malformed JSON is AP_E_INVALID_JSON with line/column. Map-dependent checks
 * (bounds, blocked cells) are not done here (see ap_query_check). Returns AP_OK or the error status. */
int ap_wire_parse_path_request(const char *body, size_t len, ap_path_request *req, ap_wire_error *err);

/* Per-request figures reported in "stats". */
typedef struct ap_path_stats {
    const char *lane;  /* "fast" or "slow" */
    uint64_t queue_us; /* time from hand-off to the first slice starting */
    uint64_t search_us;/* time spent in search slices and path building */
} ap_path_stats;

/* Encode the 200 answer for a finished plan: for r->status AP_OK the full body ({"status":"ok", "map",
 * "grid_cost", "length", "clear", "waypoints", "segments", ["samples"], "stats"}); for AP_NO_PATH /
 * AP_TIMEOUT {"status": "no_path"|"timeout", "map", "stats"}. Numbers are written with 17 significant
 * digits. Returns NULL on allocation failure; *len (if non-NULL) gets the byte length. */
char *ap_wire_encode_path(const char *map_id, const ap_result *r, const ap_path_stats *st, size_t *len);

/* Encode an error body {"error": {"code", "message", "field"?, "line"?, "column"?}} for status.
 * message NULL = the table's default; field NULL or "" = omitted; line/col <= 0 = omitted. *http (if
 * non-NULL) gets the HTTP status from the error table. */
char *ap_wire_encode_error(int status, const char *message, const char *field, int line, int col,
                           int *http, size_t *len);

/* Encode one map's info: {"id", "width", "height", "passable_cells", "load_ms", "tables": [{"name":
 * "region", "bytes", "build_ms", "regions"}]}. */
char *ap_wire_encode_map(const ap_map *m, size_t *len);

/* Encode {"maps": [map info, ...]} for n maps. */
char *ap_wire_encode_maps(const ap_map *const *maps, size_t n, size_t *len);

#endif
