/* wire_error.h — the promise every request parser of proto/ makes about its errors, checked by the fuzz
 * targets that fuzz one: the status is invalid_json or invalid_request and equals err->status, the message
 * and field are NUL-terminated, and the error body encodes (valid UTF-8) with HTTP 400. Aborts otherwise. */
#ifndef AP_TEST_FUZZ_WIRE_ERROR_H
#define AP_TEST_FUZZ_WIRE_ERROR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/wire.h"

static inline void ap_fuzz_check_wire_error(int rc, const ap_wire_error *err)
{
    if (rc != err->status || (rc != AP_E_INVALID_JSON && rc != AP_E_INVALID_REQUEST))
        abort();
    if (memchr(err->message, '\0', sizeof err->message) == NULL || memchr(err->field, '\0', sizeof err->field) == NULL)
        abort();
    int http = 0;
    char *body = ap_wire_encode_error(err->status, err->message, err->field, err->line, err->col, &http, NULL);
    if (body == NULL || http != 400)
        abort();
    free(body);
}

/* ap_wire_parse_path_request on data[0 .. size-1] into *req: true when it parsed (then err->status is AP_OK,
 * else abort), false after checking its error as above. For the targets that start from a path body. */
static inline bool ap_fuzz_parse_path_request(const uint8_t *data, size_t size, ap_path_request *req)
{
    ap_wire_error err;
    int rc = ap_wire_parse_path_request((const char *)data, size, req, &err);
    if (rc != AP_OK) {
        ap_fuzz_check_wire_error(rc, &err);
        return false;
    }
    if (err.status != AP_OK)
        abort();
    return true;
}

#endif
