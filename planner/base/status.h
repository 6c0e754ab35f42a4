/* status.h — the planner's status enum: planner outcomes and planner/loader errors.
 *
 * Everything the planner and the map/config loaders can answer has one value here. Errors that only the
 * HTTP front and the wire parsers produce (invalid JSON, body too large, overloaded, bad method, no such
 * route, not ready) are not the planner's business: proto/errors.h continues this enum from
 * AP_STATUS_COUNT, so one int carries either kind. proto/errors.c holds the single table that maps every
 * value of both to an HTTP status, a stable wire code and a default message; no other place invents a code.
 * Values are stable within a release; never reorder, only append before AP_STATUS_COUNT (which renumbers
 * proto's codes, harmless since numbers never reach the wire or the logs).
 */
#ifndef AP_STATUS_H
#define AP_STATUS_H

typedef enum ap_status {
    AP_OK = 0,               /* path found (wire "ok", HTTP 200) */
    AP_NO_PATH,              /* goal unreachable (wire status "no_path", HTTP 200) */
    AP_TIMEOUT,              /* deadline_ms passed before the search ended (wire status "timeout", HTTP 200) */
    AP_IN_PROGRESS,          /* internal: a time-sliced search wants another slice; never on the wire */
    AP_E_INVALID_REQUEST,    /* 400 invalid_request: JSON is well formed but a field is wrong/missing/unknown */
    AP_E_UNKNOWN_MAP,        /* 404 unknown_map */
    AP_E_OUT_OF_BOUNDS,      /* 422 out_of_bounds: start or goal outside the map */
    AP_E_START_BLOCKED,      /* 422 start_blocked */
    AP_E_GOAL_BLOCKED,       /* 422 goal_blocked */
    AP_E_INTERNAL,           /* 500 internal */
    AP_E_NOMEM,              /* 500 internal: allocation failed */
    AP_E_IO,                 /* file could not be read (map/config loading; 500 if it ever reaches the wire) */
    AP_E_MAP_FORMAT,         /* malformed map file (loading only) */
    AP_E_MAP_TOO_LARGE,      /* map dimensions above the configured maximum or overflowing (loading only) */
    AP_E_CONFIG,             /* malformed configuration (start-up only) */
    AP_STATUS_COUNT
} ap_status;

/* A short stable lower-case name for a planner status ("ok", "no_path", "map_format", ...), for logs and
 * tests. Pure; thread-safe. Returns "unknown" for values outside [0, AP_STATUS_COUNT), proto's codes
 * included (ap_error_name in proto/errors.h names those). */
const char *ap_status_name(int status);

/* v written for an error message into buf (32 bytes): as few digits as read back as v (15, else 17), so
 * that a value a hair past a limit (x = 10.0000001 on a 10-wide map, a speed of 13.999999999) is not
 * printed as the limit itself. Returns buf. Pure; thread-safe. */
const char *ap_status_number(char buf[32], double v);

#endif
