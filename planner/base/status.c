/* status.c — names of the ap_status values, for logs and tests; numbers for error messages. */
#include "status.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* Indexed by status value; kept in the enum's order so a new value appended to status.h shows up as
 * "unknown" (and fails the status test) until it is named here. */
static const char *const status_names[AP_STATUS_COUNT] = {
    [AP_OK] = "ok",
    [AP_NO_PATH] = "no_path",
    [AP_TIMEOUT] = "timeout",
    [AP_IN_PROGRESS] = "in_progress",
    [AP_E_INVALID_REQUEST] = "invalid_request",
    [AP_E_UNKNOWN_MAP] = "unknown_map",
    [AP_E_OUT_OF_BOUNDS] = "out_of_bounds",
    [AP_E_START_BLOCKED] = "start_blocked",
    [AP_E_GOAL_BLOCKED] = "goal_blocked",
    [AP_E_INTERNAL] = "internal",
    [AP_E_NOMEM] = "nomem",
    [AP_E_IO] = "io",
    [AP_E_MAP_FORMAT] = "map_format",
    [AP_E_MAP_TOO_LARGE] = "map_too_large",
    [AP_E_CONFIG] = "config",
};

const char *ap_status_name(int status)
{
    if (status < 0 || status >= AP_STATUS_COUNT || status_names[status] == NULL)
        return "unknown";
    return status_names[status];
}

const char *ap_status_number(char buf[32], double v)
{
    snprintf(buf, 32, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, 32, "%.17g", v);
    return buf;
}
