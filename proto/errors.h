/* errors.h — the single table from every ap_status to HTTP status, stable wire code and default message;
 * and ap_wire_error, the record of a request-level error that the parsers fill and the encoders write. */
#ifndef AP_PROTO_ERRORS_H
#define AP_PROTO_ERRORS_H

#include "../planner/base/status.h"

typedef struct ap_error_info {
    int http;            /* HTTP status code */
    const char *code;    /* stable wire code: "invalid_json", "no_path", ... */
    const char *message; /* default human-readable message */
} ap_error_info;

/* The entry for status (any ap_status value; out-of-range values give the AP_E_INTERNAL entry).
 * Returns a pointer into a static const table. Thread-safe. */
const ap_error_info *ap_error_lookup(int status);

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
