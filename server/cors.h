/* cors.h — Cross-Origin Resource Sharing (the Fetch standard's CORS protocol) for browser pages on other
 * origins: which origins may call (config "cors_origins"), the headers of an answer to an allowed origin,
 * and the answer to a preflight. Off (no CORS header at all) while the list is empty. Pure apart from the
 * one function that adds headers to a libmicrohttpd response. */
#ifndef AP_SERVER_CORS_H
#define AP_SERVER_CORS_H

#include <stdbool.h>
#include <stddef.h>

#include "../config/config.h"

struct MHD_Response;

/* Response headers a cross-origin page may read besides the safelisted ones (Access-Control-Expose-Headers):
 * the request id to quote in a bug report, Retry-After of a 503, Allow of a 405, ETag of the embedded files. */
#define AP_CORS_EXPOSE "X-Request-ID, Retry-After, Allow, ETag"

/* Seconds a browser may cache a preflight's answer (Access-Control-Max-Age); browsers cap it lower
 * (Chromium at 7200). */
#define AP_CORS_MAX_AGE "600"

/* The Access-Control-Allow-Origin value for a request from origin (its Origin header; NULL = none) under
 * c's list: "*" when the list is ["*"], origin itself when listed exactly (byte for byte), else NULL (CORS
 * off, no Origin, or an origin not listed: the answer carries no CORS headers and the browser withholds it
 * from the page). The result is origin or a static string. Pure; thread-safe. */
const char *ap_cors_allow_origin(const ap_config *c, const char *origin);

/* True when answers differ by Origin (the list names origins rather than "*"), so every answer must carry
 * "Vary: Origin" for caches. Pure. */
bool ap_cors_varies(const ap_config *c);

/* The request headers a preflight may be granted (Access-Control-Allow-Headers): of the comma-separated
 * names in requested (Access-Control-Request-Headers; NULL or "" = none), those the API reads or lets
 * through — content-type, authorization (for a gateway in front), traceparent, tracestate, x-request-id,
 * if-none-match, accept, accept-language — written lowercase, joined by ", ", into buf (cap bytes,
 * NUL-terminated; names that would not fit are left out). Others are left out, and the browser then refuses
 * the real request. Returns the length written. Pure; thread-safe. */
size_t ap_cors_allow_headers(const char *requested, char *buf, size_t cap);

/* Add the headers of an answer to an allowed cross-origin request (allow_origin from ap_cors_allow_origin,
 * not NULL): Access-Control-Allow-Origin and Access-Control-Expose-Headers. Any thread. */
void ap_cors_add_headers(struct MHD_Response *resp, const char *allow_origin);

/* Add the headers of a preflight's answer (an OPTIONS request with Access-Control-Request-Method, from an
 * allowed origin) to resp besides those of ap_cors_add_headers: Access-Control-Allow-Methods (methods,
 * the route's "GET, HEAD" or "POST"), Access-Control-Allow-Headers (ap_cors_allow_headers of
 * requested_headers, the request's Access-Control-Request-Headers; left out when none is granted) and
 * Access-Control-Max-Age (AP_CORS_MAX_AGE). Any thread. */
void ap_cors_add_preflight(struct MHD_Response *resp, const char *methods, const char *requested_headers);

#endif
