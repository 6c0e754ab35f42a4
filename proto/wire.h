/* wire.h — the JSON wire format of POST /v1/path and POST /v1/paths: request parsing and validation
 * (jansson, proto/json_in.h), answers and error bodies (the direct writer, proto/json_out.h).
 *
 * Contract: proto/openapi.yaml and README.md. All functions are thread-safe (no shared state); returned
 * strings are malloc'd, NUL-terminated, and owned by the caller (free()). Also included from here for the
 * callers of this header: ap_wire_error (errors.h), ap_jbuf (json_out.h) and the map-info encoders
 * (maps.h).
 */
#ifndef AP_PROTO_WIRE_H
#define AP_PROTO_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../planner/world/map.h"
#include "../planner/plan/plan.h"
#include "../planner/world/zone.h"
#include "errors.h"
#include "json_in.h"
#include "json_out.h"
#include "maps.h"

struct ap_unit_kind; /* planner/plan/unit_kind.h */

/* What the request said of its unit beyond the query's fields: the kind it names ("unit.kind", "" = none)
 * and which unit fields it gave (AP_UNIT_F_* bits, unit_kind.h), so a kind fills only the others. */
typedef struct ap_wire_unit {
    char kind[32]; /* AP_UNIT_KIND_NAME_MAX */
    unsigned given;
} ap_wire_unit;

/* Apply the kind u names (if any) to q: the kind's fields that the request did not give (unit_kind.h
 * precedence: request > kind > default); a kind that sets vehicle limits makes q timed (plan.h), as the
 * unit's own max_speed, max_accel, max_brake or max_lateral_accel do at parse time. kinds: the server's n
 * configured kinds. On a circle map (q->circles set, q->map NULL: the caller resolves the map first) a
 * kind's capability is not applied (no terrains there). Returns AP_OK, or
 * AP_E_INVALID_REQUEST with err naming "unit.kind" and listing the configured kinds when the name is neither
 * a configured kind nor a built-in one (unit_kind.h ap_unit_kind_builtin: pedestrian, car, tank, ship; a
 * configured kind of the same name wins), when the kind's turning radius in metres is out of range in this
 * map's tiles, or when a kind's square (unit.size) meets a circle map. Pure; thread-safe. */
int ap_wire_apply_unit_kind(const ap_wire_unit *u, const struct ap_unit_kind *kinds, size_t n, ap_query *q,
                            ap_wire_error *err);

/* A parsed POST /v1/path body. q.map is NULL: the caller resolves `map` and sets q.map. q.max_samples is
 * 0: the caller sets it from the configuration. */
typedef struct ap_path_request {
    char map[AP_MAP_ID_MAX];
    ap_query q;           /* q.obstacles points into obstacles below (NULL when none): a copy of the request
                           * must point it at its own copy of the array */
    ap_wire_unit unit;    /* unit.kind and the unit fields given (ap_wire_apply_unit_kind) */
    int64_t deadline_ms;  /* -1 when absent (the server default applies); else 1 .. 600000 */
    ap_circle obstacles[AP_MAX_OBSTACLES]; /* "obstacles", q.n_obstacles of them (the parsers leave the rest
                                            * unwritten: copy only what is used) */
    ap_zone zone;         /* "corridor" when q.zone points at it (written only then) */
} ap_path_request;

/* Parse and validate a POST /v1/path body of len bytes (need not be NUL-terminated; body may be NULL when
 * len is 0). Defaults: start.heading absent (face the first waypoint), unit.radius 0, unit.turning_radius
 * 0, search.algorithm "auto", search.connectivity 8, search.smoothing "los", no samples (q.sample_step 0).
 * Types and shapes only: map a 1..63-byte string; coordinates, headings, radii, penalties and samples.step
 * finite numbers (inside "samples" step, or dt (seconds) with step optional: both are the planner's
 * refusal); connectivity, headings and art_directions
 * integers (unit.size too); unit.capability a non-empty array of distinct terrain names ("ground", "swamp",
 * "water", "trees"; a bad element is named "unit.capability[i]") into q.capability; unit.kind a 1..31-byte
 * string kept in req->unit (ap_wire_apply_unit_kind applies it); algorithm a name from the planner's
 * algorithm table (algorithms.h), smoothing "none", "los" or "taut"; deadline_ms an integer 1..600000 (the
 * server's, not the planner's); obstacles an array of at most AP_MAX_OBSTACLES objects {"x", "y", "r"} of
 * finite numbers (|x|, |y| <= AP_MAX_OBSTACLE_COORD, r in (0, AP_MAX_OBSTACLE_RADIUS]; errors name the
 * value, e.g. "obstacles[3].r"). JSON null is a wrong type. Ranges,
 * combinations and algorithm acceptance are the planner's one validation pass (ap_query_validate, plan.h),
 * which the caller runs once q.map is set; an explicit 0 where the query's 0 means "absent"
 * (reverse_penalty, samples.step, headings, art_directions) and integers outside int are passed on as -1 so
 * that pass refuses them. Errors: malformed JSON, duplicate keys or an empty body are AP_E_INVALID_JSON
 * with err->line/col (1-based); a body that is not an object is AP_E_INVALID_REQUEST with field "";
 * unknown fields, wrong types, missing required fields, unknown names are AP_E_INVALID_REQUEST with
 * err->field naming the field as a dotted path ("search.algorithm"). Objects are checked for unknown keys
 * first, then their fields in schema order, so the first problem reported is deterministic. *req is always
 * initialised (defaults, deadline -1) and is meaningful only on AP_OK. Returns AP_OK or the error status
 * (also in err->status).
 * Thread-safe; allocates only temporarily (jansson), nothing is left for the caller to free. */
int ap_wire_parse_path_request(const char *body, size_t len, ap_path_request *req, ap_wire_error *err);

struct json_t; /* jansson's */

/* The same parse on a JSON value already decoded (borrowed; not changed): the query of POST /v1/render
 * ({"query": <a /v1/path body>}). A value that is not an object is AP_E_INVALID_REQUEST, field "". Fields
 * in err are relative to obj ("start.x"); the caller adds its prefix. Thread-safe. */
int ap_wire_parse_path_object(struct json_t *obj, ap_path_request *req, ap_wire_error *err);

/* Per-request figures reported in "stats", plus what the encoder needs from the request. */
typedef struct ap_path_stats {
    const char *lane;   /* "fast" or "slow" (NULL = "fast") */
    uint64_t queue_us;  /* time from hand-off to the first slice starting */
    uint64_t search_us; /* time spent in search slices and path building */
    double sample_step; /* the request's samples.step (q.sample_step), tiles: gives each sample's "d" as
                         * min(i * step, length) (the last one = length); 0 = no samples requested. */
    uint64_t map_version; /* the version of the map the query ran on (server/registry.h), written as
                           * "map_version" after "map"; 0 = left out */
} ap_path_stats;

/* The wire names of a no_path answer's "reason" (openapi PathNotFound), indexed by ap_no_path_reason (value =
 * index): the one table the path encoder writes and the render parser of stored answers reads. */
#define AP_WIRE_NO_PATH_REASONS 3
extern const ap_json_enum ap_wire_no_path_reasons[AP_WIRE_NO_PATH_REASONS];

/* Write the /v1/path answer (the body ap_wire_encode_path returns) to b. Returns AP_OK, or AP_E_NOMEM when
 * b->failed (allocation failure or a non-finite number: the planner's bug; b->len is then meaningless). */
int ap_wire_write_path(ap_jbuf *b, const char *map_id, const ap_result *r, const ap_path_stats *st);

/* Write the error body of ap_wire_encode_error to b; *http (if non-NULL) gets the HTTP status. Returns
 * AP_OK or AP_E_NOMEM (b->failed). */
int ap_wire_write_error(ap_jbuf *b, int status, const char *message, const char *field, int line, int col,
                        int *http);

/* The error body of a query that met its map (POST /v1/path): as ap_wire_write_error, and when status is a 422
 * (out_of_bounds, start_blocked, goal_blocked: findings about the map's cells) and map_version is not 0, the
 * error object gains "map_version", so that a client can tell which version of a live map found its start
 * blocked and wait for its own edit to land. Returns AP_OK or AP_E_NOMEM (b->failed). */
int ap_wire_write_query_error(ap_jbuf *b, int status, const char *message, const char *field, uint64_t map_version,
                              int *http);

/* ---- POST /v1/paths (batch) ---------------------------------------------------------------------------- */

/* One query of a batch: its own status after parsing (AP_OK, or the AP_E_* of the first problem found in it,
 * with err naming the field relative to the item, e.g. "start.x"). */
typedef struct ap_batch_item {
    int status;
    ap_query q;          /* meaningful when status == AP_OK; q.map NULL, q.max_samples 0 (caller sets);
                          * q.obstacles is `obstacles` */
    ap_circle *obstacles; /* the query's "obstacles", malloc'd (NULL when none); ap_wire_batch_free frees it */
    ap_zone *zone;        /* the query's "corridor", malloc'd (NULL when none); ap_wire_batch_free frees it */
    ap_wire_unit unit;   /* unit.kind and the unit fields given (ap_wire_apply_unit_kind) */
    ap_wire_error err;   /* meaningful when status != AP_OK */
} ap_batch_item;

/* A parsed POST /v1/paths body: {"map", "queries": [query, ...], "deadline_ms"?}. */
typedef struct ap_batch_request {
    char map[AP_MAP_ID_MAX];
    int64_t deadline_ms;  /* -1 when absent */
    ap_batch_item *items; /* n items, malloc'd; ap_wire_batch_free */
    size_t n;
} ap_batch_request;

/* Parse a POST /v1/paths body of len bytes. Each element of "queries" is an object with the /v1/path body's
 * fields except "map" and "deadline_ms" (those are the batch's): "start", "goal", "unit", "search",
 * "samples", validated exactly as ap_wire_parse_path_request does; a bad element does not fail the batch:
 * its error is kept in items[i] (status, err). Whole-batch errors (returned, with err): the body is not
 * JSON (AP_E_INVALID_JSON), not an object, an unknown top-level key, "map" missing or not a 1..63-byte
 * string, "deadline_ms" out of 1..600000, "queries" missing, not an array, empty, or longer than max_items
 * (AP_E_INVALID_REQUEST, field "queries"). *req is initialised in every case; on AP_OK the caller frees it
 * with ap_wire_batch_free (on error there is nothing to free). Thread-safe. */
int ap_wire_parse_batch_request(const char *body, size_t len, size_t max_items, ap_batch_request *req,
                                ap_wire_error *err);

/* Free req's items and reset it. NULL is ignored. */
void ap_wire_batch_free(ap_batch_request *req);

/* Batch answer, written in pieces so the lanes can write each item as soon as it is answered:
 * ap_wire_write_batch_begin ({"status":"ok","map":…,"map_version":…,"results":[; "map_version" only when
 * map_version is not 0), then one ap_wire_write_batch_item or
 * ap_wire_write_batch_item_error per query in order (first = true for the first), then
 * ap_wire_write_batch_end ("],"stats":{…}}"). An item is the /v1/path answer without "map", its "stats"
 * holding "expanded", "lane" and "search_us"; an error item is {"status":"error","error":{"code",
 * "message","field"?}} (r->status not ok/no_path/timeout is written as an error item too). Return AP_OK or
 * AP_E_NOMEM (b->failed). */
int ap_wire_write_batch_begin(ap_jbuf *b, const char *map_id, uint64_t map_version);
int ap_wire_write_batch_item(ap_jbuf *b, bool first, const ap_result *r, const ap_path_stats *st);
int ap_wire_write_batch_item_error(ap_jbuf *b, bool first, int status, const char *message, const char *field);
int ap_wire_write_batch_end(ap_jbuf *b, uint64_t expanded, const ap_path_stats *st);

/* Encode the 200 answer for a finished plan: for r->status AP_OK the full body ({"status":"ok", "map",
 * "map_version" (when st->map_version is not 0), "grid_cost", "length", ["duration_s", per-segment times: r->timing],
 * ["probe": true: r->probe], ["capped": true: r->capped], "clear", "waypoints", "segments", ["samples"], "stats"});
 * for AP_NO_PATH /
 * AP_TIMEOUT {"status": "no_path"|"timeout", "map", ["map_version"], ["reason": no_path only], "stats"}. "samples" appears when r has samples or
 * st->sample_step > 0. st may be NULL: "stats" then carries only "expanded". Numbers are written with 17
 * significant digits (they round-trip bit-exactly). Any other r->status (an AP_E_* error, e.g.
 * invalid_request "samples.step" from ap_plan_finish) is encoded as the error body of
 * ap_wire_write_query_error(r->status, r->message or NULL when it is "", r->field, st->map_version or 0 when
 * st is NULL, ...); its HTTP status is
 * ap_error_lookup(r->status)->http. Returns NULL on allocation failure or when r holds a non-finite
 * number (a planner bug: the server answers 500). *len (if non-NULL) gets the byte length.
 * Written by a direct JSON writer (ap_wire_write_path), byte for byte what jansson's compact, ordered dump
 * with 17 significant digits gave before. */
char *ap_wire_encode_path(const char *map_id, const ap_result *r, const ap_path_stats *st, size_t *len);

/* Encode an error body {"error": {"code", "message", "field"?, "line"?, "column"?}} for status (any int;
 * out-of-range = internal). message NULL = the table's default; field NULL or "" = omitted; line/col <= 0 =
 * omitted. Invalid UTF-8 in message/field is replaced by '?'. *http (if non-NULL) gets the HTTP status from
 * the error table. Returns NULL on allocation failure; *len (if non-NULL) gets the byte length. */
char *ap_wire_encode_error(int status, const char *message, const char *field, int line, int col,
                           int *http, size_t *len);

#endif
