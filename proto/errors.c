/* errors.c — the one table from every status value (ap_status and ap_wire_status) to HTTP status, wire
 * code and default message.
 *
 * Indexed by the enum value with designated initialisers so a reordering of status.h or errors.h cannot
 * silently shift rows; the _Static_assert catches a status appended without a row, and the test suite
 * checks that no row was left empty.
 */
#include "errors.h"

#include <stddef.h>
#include <stdio.h>

static const ap_error_info ap_error_table[] = {
    [AP_OK] = {200, "ok", "path found"},
    [AP_NO_PATH] = {200, "no_path", "the goal cannot be reached from the start"},
    [AP_TIMEOUT] = {200, "timeout", "the deadline passed before the search ended"},
    /* A sliced search that is still running must never be answered; if it leaks out it is our bug. */
    [AP_IN_PROGRESS] = {500, "internal", "internal error"},
    [AP_E_INVALID_REQUEST] = {400, "invalid_request", "the request is not valid"},
    [AP_E_UNKNOWN_MAP] = {404, "unknown_map", "no map with this id is loaded"},
    [AP_E_OUT_OF_BOUNDS] = {422, "out_of_bounds", "start or goal is outside the map"},
    [AP_E_START_BLOCKED] = {422, "start_blocked", "the start cell is blocked"},
    [AP_E_GOAL_BLOCKED] = {422, "goal_blocked", "the goal cell is blocked"},
    [AP_E_INTERNAL] = {500, "internal", "internal error"},
    /* Load-time and resource failures are not the client's fault and their details are not its business:
     * they all surface as a plain 500 "internal" (the log has the specifics). */
    [AP_E_NOMEM] = {500, "internal", "internal error (out of memory)"},
    [AP_E_IO] = {500, "internal", "internal error (I/O)"},
    [AP_E_MAP_FORMAT] = {500, "internal", "internal error (map format)"},
    [AP_E_MAP_TOO_LARGE] = {500, "internal", "internal error (map too large)"},
    [AP_E_CONFIG] = {500, "internal", "internal error (configuration)"},
    /* proto's own codes (errors.h): the HTTP request itself, not a query, is at fault or refused. */
    [AP_E_INVALID_JSON] = {400, "invalid_json", "the request body is not valid JSON"},
    [AP_E_PAYLOAD_TOO_LARGE] = {413, "payload_too_large", "the request body is too large"},
    [AP_E_OVERLOADED] = {503, "overloaded", "the server is overloaded; retry later"},
    [AP_E_METHOD_NOT_ALLOWED] = {405, "method_not_allowed", "method not allowed for this route"},
    [AP_E_NOT_FOUND] = {404, "not_found", "no such route"},
    [AP_E_NOT_READY] = {503, "not_ready", "the server is not ready"},
    [AP_E_ANSWER_TOO_LARGE] = {413, "answer_too_large",
                               "not answered: the batch's answer reached the server's max_answer_bytes"},
    /* The HTTP message's framing or headers break RFC 9112; the connection is closed after the answer,
     * since the server cannot know where the message ends. */
    [AP_E_BAD_REQUEST] = {400, "bad_request", "the HTTP request is malformed"},
    [AP_E_NOT_IMPLEMENTED] = {501, "not_implemented", "the request's transfer coding is not supported"},
    /* The map lifecycle routes (PUT, DELETE, reload, PATCH of /v1/maps/{id}): here a bad map file is the
     * client's, so the loader's statuses are answered under these codes, with the loader's message. */
    [AP_E_BAD_MAP] = {400, "map_format", "the map file is not a valid Moving AI map"},
    [AP_E_MAP_REFUSED] = {413, "map_too_large", "the map is larger than this server accepts"},
    [AP_E_ADMIN_DISABLED] = {403, "admin_disabled",
                             "map changes are disabled: the server has no admin_token (ARCPATH_ADMIN_TOKEN)"},
    [AP_E_UNAUTHORIZED] = {401, "unauthorized", "this route needs an \"Authorization: Bearer <token>\" header"},
    [AP_E_FORBIDDEN] = {403, "forbidden", "the bearer token is not the server's admin token"},
    /* Not a standard status: nginx's, for a request its client abandoned. The answer goes nowhere; the code
     * is what the access log and arcpath_requests_total show for such a request. */
    [AP_E_CLIENT_CLOSED] = {499, "client_closed", "the client closed its connection before the answer"},
    [AP_E_HEADER_TOO_LARGE] = {431, "header_too_large",
                               "the request head (request line and header fields) is over 16 KiB"},
    /* A quota, not a bad request: the same body is answered once an id is deleted (or max_maps raised), so
     * 409, not a 4xx that says the request itself is wrong nor a 5xx a client would retry as it is. */
    [AP_E_MAP_LIMIT] = {409, "map_limit", "the server holds max_maps maps: delete one before adding another"},
    /* RFC 9110 13.1.1-13.1.2: a compare-and-set on the map's version (its ETag) that lost to another change */
    [AP_E_PRECONDITION_FAILED] = {412, "precondition_failed",
                                  "the map's current version does not meet the request's If-Match or If-None-Match"},
    /* RFC 9110 15.5.16 (and 8.4): a content coding the server does not decode */
    [AP_E_UNSUPPORTED_MEDIA_TYPE] = {415, "unsupported_media_type",
                                     "the request body's Content-Encoding is not supported: send it unencoded"},
};

_Static_assert(sizeof ap_error_table / sizeof ap_error_table[0] == AP_ERROR_COUNT,
               "proto/errors.c: ap_error_table needs exactly one row per status value");

const ap_error_info *ap_error_lookup(int status)
{
    if (status < 0 || status >= AP_ERROR_COUNT || ap_error_table[status].code == NULL)
        return &ap_error_table[AP_E_INTERNAL];
    return &ap_error_table[status];
}

const char *ap_error_name(int status)
{
    if (status >= AP_STATUS_COUNT && status < AP_ERROR_COUNT && ap_error_table[status].code != NULL)
        return ap_error_table[status].code;
    return ap_status_name(status);
}

void ap_error_unknown_map_message(char *buf, size_t cap, const char *id)
{
    snprintf(buf, cap, "no map \"%s\" is loaded (GET /v1/maps lists them)", id);
}
