/* etag.c — entity tags and If-Match / If-None-Match (etag.h). */
#include "etag.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

bool ap_etag_list_has(const char *list, const char *etag, bool strong)
{
    if (list == NULL || etag == NULL)
        return false;
    const size_t n = strlen(etag);
    for (const char *p = list; *p;) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        bool weak = false;
        if (strncmp(p, "W/", 2) == 0) {
            weak = true;
            p += 2;
        }
        if ((!strong || !weak) && strncmp(p, etag, n) == 0 &&
            (p[n] == '\0' || p[n] == ',' || p[n] == ' ' || p[n] == '\t'))
            return true;
        while (*p && *p != ',')
            p++;
    }
    return false;
}

bool ap_etag_is_any(const char *value)
{
    if (value == NULL)
        return false;
    while (*value == ' ' || *value == '\t')
        value++;
    if (*value++ != '*')
        return false;
    while (*value == ' ' || *value == '\t')
        value++;
    return *value == '\0';
}

void ap_map_etag(char out[AP_MAP_ETAG_MAX], uint64_t version, uint32_t boot)
{
    snprintf(out, AP_MAP_ETAG_MAX, "\"%" PRIu64 ".%08" PRIx32 "\"", version, boot);
}

int ap_etag_precondition(const char *if_match, const char *if_none_match, const char *current, bool read_only)
{
    if (if_match != NULL && !(current != NULL && (ap_etag_is_any(if_match) || ap_etag_list_has(if_match, current, true))))
        return 412;
    if (if_none_match != NULL && current != NULL &&
        (ap_etag_is_any(if_none_match) || ap_etag_list_has(if_none_match, current, false)))
        return read_only ? 304 : 412;
    return 200;
}
