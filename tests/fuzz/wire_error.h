/* wire_error.h — the promise every request parser of proto/ makes about its errors, checked by the fuzz
 * targets that fuzz one: the status is invalid_json or invalid_request and equals err->status, the message
 * and field are NUL-terminated, and the error body encodes (valid UTF-8) with HTTP 400. Aborts otherwise. */
#ifndef AP_TEST_FUZZ_WIRE_ERROR_H
#define AP_TEST_FUZZ_WIRE_ERROR_H

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

#endif
