/* traceparent.c — W3C traceparent, version 00 (traceparent.h). */
#include "traceparent.h"

#include <string.h>

/* True when s[0, n) is lowercase hex; *nonzero gets whether any digit is not '0'. */
static bool lower_hex(const char *s, size_t n, bool *nonzero)
{
    *nonzero = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
        if (c != '0')
            *nonzero = true;
    }
    return true;
}

bool ap_traceparent_parse(const char *v, ap_traceparent *out)
{
    bool nz_trace, nz_parent, nz;
    size_t n = v != NULL ? strlen(v) : 0;
    while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t')) /* trailing whitespace is not the value's (RFC 9110 5.5) */
        n--;
    /* version(2) '-' trace-id(32) '-' parent-id(16) '-' flags(2) = 55 */
    if (v == NULL || n != 55 || v[2] != '-' || v[35] != '-' || v[52] != '-')
        return false;
    if (v[0] != '0' || v[1] != '0' || !lower_hex(v + 3, 32, &nz_trace) || !lower_hex(v + 36, 16, &nz_parent) ||
        !lower_hex(v + 53, 2, &nz) || !nz_trace || !nz_parent)
        return false;
    memcpy(out->trace_id, v + 3, 32);
    out->trace_id[32] = '\0';
    memcpy(out->parent_id, v + 36, 16);
    out->parent_id[16] = '\0';
    memcpy(out->flags, v + 53, 2);
    out->flags[2] = '\0';
    return true;
}
