/* errors.h — the request-level error codes only the HTTP front and the wire parsers produce (they continue
 * the planner's ap_status, planner/base/status.h); the single table from every status value to HTTP status,
 * stable wire code and default message; and ap_wire_error, the record of a request-level error that the
 * parsers fill and the encoders write. */
#ifndef AP_PROTO_ERRORS_H
#define AP_PROTO_ERRORS_H

#include <stddef.h>

#include "../planner/base/status.h"

/* Errors the planner never produces: they are about the HTTP request (its body, method, route, the
 * server's load or state), not about a query. Numbered after ap_status so an int status may hold either;
 * values are stable within a release, append only before AP_ERROR_COUNT. */
typedef enum ap_wire_status {
    AP_E_INVALID_JSON = AP_STATUS_COUNT, /* 400 invalid_json: body is not JSON (message carries line/column) */
    AP_E_PAYLOAD_TOO_LARGE,              /* 413 payload_too_large */
    AP_E_OVERLOADED,                     /* 503 overloaded (with Retry-After) */
    AP_E_METHOD_NOT_ALLOWED,             /* 405 method_not_allowed (with Allow) */
    AP_E_NOT_FOUND,                      /* 404 not_found: no such route */
    AP_E_NOT_READY,                      /* 503 not_ready: draining or maps not loaded */
    AP_E_ANSWER_TOO_LARGE,               /* 413 answer_too_large: a batch item left unanswered because the
                                          * batch's answer reached max_answer_bytes (per item, in a 200) */
    AP_E_BAD_REQUEST,                    /* 400 bad_request: the HTTP message itself is malformed (RFC 9112:
                                          * conflicting Content-Length headers, Transfer-Encoding beside
                                          * Content-Length or on HTTP/1.0, whitespace in a field name,
                                          * HTTP/1.1 without Host) */
    AP_E_NOT_IMPLEMENTED,                /* 501 not_implemented: a transfer coding other than chunked */
    AP_E_BAD_MAP,                        /* 400 map_format: an uploaded map file (PUT /v1/maps/{id}) or a
                                          * map file being reloaded is not a valid map (line/column say
                                          * where); the registry is unchanged */
    AP_E_MAP_REFUSED,                    /* 413 map_too_large: the map exceeds the map limits
                                          * (max_map_width/height/cells) or the search workspaces
                                          * (max_workspace_cells) */
    AP_E_ADMIN_DISABLED,                 /* 403 admin_disabled: a mutating map route with no admin_token set */
    AP_E_UNAUTHORIZED,                   /* 401 unauthorized: no "Authorization: Bearer" credentials (with
                                          * WWW-Authenticate: Bearer) */
    AP_E_FORBIDDEN,                      /* 403 forbidden: the bearer token is wrong */
    AP_E_CLIENT_CLOSED,                  /* 499 client_closed: the client closed its connection while its
                                          * path job waited or searched; the job was stopped. Not waited
                                          * for (a client that only half-closed reads it): it names the
                                          * outcome in the access log and the request metrics (nginx's 499) */
    AP_E_HEADER_TOO_LARGE,               /* 431 header_too_large: the request head (request line and header
                                          * fields, as http.c counts it) is over 16 KiB; the connection is
                                          * closed */
    AP_E_MAP_LIMIT,                      /* 409 map_limit: a new map id while the server holds max_maps
                                          * maps (PUT, reload of a new file); nothing changes */
    AP_E_PRECONDITION_FAILED,            /* 412 precondition_failed: a map-changing request's If-Match or
                                          * If-None-Match does not hold for the map's current version
                                          * (its ETag); nothing changes */
    AP_E_UNSUPPORTED_MEDIA_TYPE,         /* 415 unsupported_media_type: a request body in a Content-Encoding
                                          * other than identity (arcpath reads bodies as sent: a gzip body
                                          * would be invalid_json); the connection is closed */
    AP_ERROR_COUNT                       /* status values the table covers: [0, AP_ERROR_COUNT) */
} ap_wire_status;

typedef struct ap_error_info {
    int http;            /* HTTP status code */
    const char *code;    /* stable wire code: "invalid_json", "no_path", ... */
    const char *message; /* default human-readable message */
} ap_error_info;

/* The entry for status (any ap_status or ap_wire_status value; out-of-range values give the AP_E_INTERNAL
 * entry). Returns a pointer into a static const table. Thread-safe. */
const ap_error_info *ap_error_lookup(int status);

/* A short stable lower-case name for any status value, for logs and tests: ap_status_name for the
 * planner's values, the wire code for proto's own (which is their name), "unknown" out of range. Pure;
 * thread-safe. */
const char *ap_error_name(int status);

/* The unknown_map message for the map id asked for (printable, as the routes copy it): "no map \"ID\" is
 * loaded (GET /v1/maps lists them)", so a typo shows in the answer; the table's default message serves
 * where the id is not at hand. Written to buf (cap bytes, NUL-terminated, cut to fit). Pure; thread-safe. */
void ap_error_unknown_map_message(char *buf, size_t cap, const char *id);

/* A request-level error: status (AP_E_*), message, the offending field (dotted path, "" if none), and for
 * AP_E_INVALID_JSON the 1-based line and column in the body (0 otherwise). message and field are always
 * NUL-terminated valid UTF-8 (over-long names are cut at a character boundary), so they can be passed
 * straight to ap_wire_encode_error. Filled by the parsers (proto/json_in.h records it). */
typedef struct ap_wire_error {
    int status;
    char message[256];
    char field[64];
    int line, col;
} ap_wire_error;

#endif
