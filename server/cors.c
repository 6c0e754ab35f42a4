/* cors.c — the CORS protocol's server side (cors.h). */
#include "cors.h"

#include <microhttpd.h>
#include <string.h>
#include <strings.h>

const char *ap_cors_allow_origin(const ap_config *c, const char *origin)
{
    if (origin == NULL || c->n_cors_origins == 0)
        return NULL;
    if (strcmp(c->cors_origins[0], "*") == 0)
        return "*";
    for (size_t i = 0; i < c->n_cors_origins; i++)
        if (strcmp(c->cors_origins[i], origin) == 0)
            return origin;
    return NULL;
}

bool ap_cors_varies(const ap_config *c)
{
    return c->n_cors_origins > 0 && strcmp(c->cors_origins[0], "*") != 0;
}

/* The request headers a preflight may grant, lowercase (cors.h). */
static const char *const grantable[] = {
    "content-type", "authorization", "traceparent", "tracestate", "x-request-id", "if-none-match", "if-match", "accept",
    "accept-language",
};

size_t ap_cors_allow_headers(const char *requested, char *buf, size_t cap)
{
    size_t n = 0;
    unsigned granted = 0; /* bit i: grantable[i] written already */
    if (cap > 0)
        buf[0] = '\0';
    if (requested == NULL)
        return 0;
    for (const char *p = requested; *p;) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        const char *name = p;
        while (*p && *p != ',' && *p != ' ' && *p != '\t')
            p++;
        size_t len = (size_t)(p - name);
        for (size_t i = 0; len > 0 && i < sizeof grantable / sizeof grantable[0]; i++) {
            if (strlen(grantable[i]) != len || strncasecmp(grantable[i], name, len) != 0)
                continue;
            size_t sep = n > 0 ? 2 : 0;
            if (n + sep + len + 1 <= cap && !(granted & (1u << i))) {
                granted |= 1u << i;
                memcpy(buf + n, ", ", sep);
                memcpy(buf + n + sep, grantable[i], len + 1);
                n += sep + len;
            }
            break;
        }
        while (*p && *p != ',')
            p++;
    }
    return n;
}

void ap_cors_add_headers(struct MHD_Response *resp, const char *allow_origin)
{
    MHD_add_response_header(resp, MHD_HTTP_HEADER_ACCESS_CONTROL_ALLOW_ORIGIN, allow_origin);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_ACCESS_CONTROL_EXPOSE_HEADERS, AP_CORS_EXPOSE);
}

void ap_cors_add_preflight(struct MHD_Response *resp, const char *methods, const char *requested_headers)
{
    char granted[256];
    MHD_add_response_header(resp, MHD_HTTP_HEADER_ACCESS_CONTROL_ALLOW_METHODS, methods);
    if (ap_cors_allow_headers(requested_headers, granted, sizeof granted) > 0)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ACCESS_CONTROL_ALLOW_HEADERS, granted);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_ACCESS_CONTROL_MAX_AGE, AP_CORS_MAX_AGE);
}
