/* status.h — the one arcpath status enum.
 *
 * Every outcome of the planner and every way a request can fail has one value here. proto/errors.c holds
 * the single table that maps each value to an HTTP status, a stable wire code and a default message; no
 * other place invents a code. Values are stable within a release; never reorder, only append before
 * AP_STATUS_COUNT.
 */
#ifndef AP_STATUS_H
#define AP_STATUS_H

typedef enum ap_status {
    AP_OK = 0,               /* path found (wire "ok", HTTP 200) */
    AP_NO_PATH,              /* goal unreachable (wire status "no_path", HTTP 200) */
    AP_TIMEOUT,              /* deadline_ms passed before the search ended (wire status "timeout", HTTP 200) */
    AP_IN_PROGRESS,          /* internal: a time-sliced search wants another slice; never on the wire */
    AP_E_INVALID_JSON,       /* 400 invalid_json: body is not JSON (message carries line/column) */
    AP_E_INVALID_REQUEST,    /* 400 invalid_request: JSON is well formed but a field is wrong/missing/unknown */
    AP_E_UNKNOWN_MAP,        /* 404 unknown_map */
    AP_E_OUT_OF_BOUNDS,      /* 422 out_of_bounds: start or goal outside the map */
    AP_E_START_BLOCKED,      /* 422 start_blocked */
    AP_E_GOAL_BLOCKED,       /* 422 goal_blocked */
    AP_E_PAYLOAD_TOO_LARGE,  /* 413 payload_too_large */
    AP_E_OVERLOADED,         /* 503 overloaded (with Retry-After) */
    AP_E_METHOD_NOT_ALLOWED, /* 405 method_not_allowed (with Allow) */
    AP_E_NOT_FOUND,          /* 404 not_found: no such route */
    AP_E_NOT_READY,          /* 503 not_ready: draining or maps not loaded */
    AP_E_INTERNAL,           /* 500 internal */
    AP_E_NOMEM,              /* 500 internal: allocation failed */
    AP_E_IO,                 /* file could not be read (map/config loading; 500 if it ever reaches the wire) */
    AP_E_MAP_FORMAT,         /* malformed map file (loading only) */
    AP_E_MAP_TOO_LARGE,      /* map dimensions above the configured maximum or overflowing (loading only) */
    AP_E_CONFIG,             /* malformed configuration (start-up only) */
    AP_STATUS_COUNT
} ap_status;

/* A short stable lower-case name for a status ("ok", "no_path", "map_format", ...), for logs and tests.
 * Pure; thread-safe. Returns "unknown" for out-of-range values. */
const char *ap_status_name(int status);

#endif
