/* traceparent.h — the W3C Trace Context "traceparent" request header (https://www.w3.org/TR/trace-context/,
 * section 3.2), read so a request's access-log line can be joined to the caller's trace. arcpathd creates
 * no spans of its own: it logs the caller's trace-id and parent-id and neither changes nor returns the
 * header. Pure. */
#ifndef AP_SERVER_TRACEPARENT_H
#define AP_SERVER_TRACEPARENT_H

#include <stdbool.h>

/* A parsed traceparent: lowercase hex strings, NUL-terminated. */
typedef struct ap_traceparent {
    char trace_id[33];  /* 16 bytes as 32 hex digits, not all zero */
    char parent_id[17]; /* 8 bytes as 16 hex digits, not all zero */
    char flags[3];      /* trace-flags, 2 hex digits ("01" = sampled) */
} ap_traceparent;

/* Parse a traceparent header value (NULL = absent) strictly as version 00: exactly 55 characters
 * "00-<32 hex>-<16 hex>-<2 hex>" (trailing spaces and tabs, optional whitespace in RFC 9110 5.5, ignored), lowercase hex only, trace-id and parent-id not all zeros. Anything else
 * (other versions included, which a version-00 reader cannot check) is not valid: returns false and the
 * header is to be ignored, never answered with an error. On success fills *out and returns true. Pure;
 * thread-safe. */
bool ap_traceparent_parse(const char *value, ap_traceparent *out);

#endif
