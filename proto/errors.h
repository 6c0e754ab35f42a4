/* errors.h — the single table from every ap_status to HTTP status, stable wire code and default message. */
#ifndef AP_PROTO_ERRORS_H
#define AP_PROTO_ERRORS_H

#include "../planner/status.h"

typedef struct ap_error_info {
    int http;            /* HTTP status code */
    const char *code;    /* stable wire code: "invalid_json", "no_path", ... */
    const char *message; /* default human-readable message */
} ap_error_info;

/* The entry for status (any ap_status value; out-of-range values give the AP_E_INTERNAL entry).
 * Returns a pointer into a static const table. Thread-safe. */
const ap_error_info *ap_error_lookup(int status);

#endif
