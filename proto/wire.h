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
 * AP_E_INVALID_JSON the 1-based line and column in the body (0 otherwise). message and field are always
 * NUL-terminated valid UTF-8 (over-long names are cut at a character boundary), so they can be passed
 * straight to ap_wire_encode_error. */
typedef struct ap_wire_error {
    int status;
    char message[256];
    char field[64];
    int line, col;
} ap_wire_error;

/* A parsed POST /v1/path body. q.map is NULL: the caller resolves `map` and sets q.map. q.max_samples is
 * 0: the caller sets it from the configuration. */
typedef struct ap_path_request {
    char map[AP_MAP_ID_MAX];
    ap_query q;
    int64_t deadline_ms;  /* -1 when absent (the server default applies); else 1 .. 600000 */
} ap_path_request;

/* Parse and validate a POST /v1/path body of len bytes (need not be NUL-terminated; body may be NULL when
 * len is 0). Defaults: start.heading absent (face the first waypoint), unit.radius 0, unit.turning_radius
 * 0, search.algorithm "astar", search.connectivity 8, search.smoothing "los", no samples (q.sample_step 0).
 * Ranges: map 1..63 bytes; coordinates and heading any finite number; unit.radius 0..AP_MAX_UNIT_RADIUS;
 * unit.turning_radius 0..AP_MAX_TURNING_RADIUS; connectivity the integer 4 or 8; deadline_ms an integer
 * 1..600000; samples.step >= AP_MIN_SAMPLE_STEP (required inside "samples"). JSON null is a wrong type.
 * Errors: malformed JSON, duplicate keys or an empty body are AP_E_INVALID_JSON with err->line/col
 * (1-based); a body that is not an object is AP_E_INVALID_REQUEST with field ""; unknown fields, wrong
 * types, missing required fields, out-of-range numbers are AP_E_INVALID_REQUEST with err->field naming the
 * field as a dotted path ("search.connectivity"). Objects are checked for unknown keys first, then their
 * fields in schema order, so the first problem reported is deterministic. Map-dependent checks (bounds,
 * blocked cells) are not done here (see ap_query_check). *req is always initialised (defaults, deadline
 * -1) and is meaningful only on AP_OK. Returns AP_OK or the error status (also in err->status).
 * Thread-safe; allocates only temporarily (jansson), nothing is left for the caller to free. */
int ap_wire_parse_path_request(const char *body, size_t len, ap_path_request *req, ap_wire_error *err);

/* Per-request figures reported in "stats", plus what the encoder needs from the request. */
typedef struct ap_path_stats {
    const char *lane;   /* "fast" or "slow" (NULL = "fast") */
    uint64_t queue_us;  /* time from hand-off to the first slice starting */
    uint64_t search_us; /* time spent in search slices and path building */
    double sample_step; /* the request's samples.step (q.sample_step), tiles: gives each sample's "d" as
                         * min(i * step, length) (the last one = length); 0 = no samples requested. */
} ap_path_stats;

/* Encode the 200 answer for a finished plan: for r->status AP_OK the full body ({"status":"ok", "map",
 * "grid_cost", "length", "clear", "waypoints", "segments", ["samples"], "stats"}); for AP_NO_PATH /
 * AP_TIMEOUT {"status": "no_path"|"timeout", "map", "stats"}. "samples" appears when r has samples or
 * st->sample_step > 0. st may be NULL: "stats" then carries only "expanded". Numbers are written with 17
 * significant digits (they round-trip bit-exactly). Any other r->status (an AP_E_* error, e.g.
 * invalid_request "samples.step" from ap_plan_finish) is encoded as the error body of
 * ap_wire_encode_error(r->status, NULL, r->field, 0, 0, ...); its HTTP status is
 * ap_error_lookup(r->status)->http. Returns NULL on allocation failure or when r holds a non-finite
 * number (a planner bug: the server answers 500). *len (if non-NULL) gets the byte length. */
char *ap_wire_encode_path(const char *map_id, const ap_result *r, const ap_path_stats *st, size_t *len);

/* Encode an error body {"error": {"code", "message", "field"?, "line"?, "column"?}} for status (any int;
 * out-of-range = internal). message NULL = the table's default; field NULL or "" = omitted; line/col <= 0 =
 * omitted. Invalid UTF-8 in message/field is replaced by '?'. *http (if non-NULL) gets the HTTP status from
 * the error table. Returns NULL on allocation failure; *len (if non-NULL) gets the byte length. */
char *ap_wire_encode_error(int status, const char *message, const char *field, int line, int col,
                           int *http, size_t *len);

/* Encode one map's info: {"id", "width", "height", "passable_cells", "load_ms", "tables": [{"name":
 * "region", "bytes", "build_ms", "regions"}]}. load_ms/build_ms are milliseconds (reals). m is only read.
 * Returns NULL on allocation failure; *len (if non-NULL) gets the byte length. */
char *ap_wire_encode_map(const ap_map *m, size_t *len);

/* Encode {"maps": [map info, ...]} for the n maps (in the given order; n may be 0). Returns NULL on
 * allocation failure; *len (if non-NULL) gets the byte length. */
char *ap_wire_encode_maps(const ap_map *const *maps, size_t n, size_t *len);

#endif
