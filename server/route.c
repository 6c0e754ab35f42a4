/* route.c — matching requests against a route table (route.h). */
#include "route.h"

#include <stdio.h>
#include <string.h>

static const struct {
    unsigned bit;
    const char *name;
} methods[] = {
    {AP_METHOD_GET, "GET"},
    {AP_METHOD_HEAD, "HEAD"},
    {AP_METHOD_POST, "POST"},
    {AP_METHOD_PUT, "PUT"},
    {AP_METHOD_DELETE, "DELETE"},
    {AP_METHOD_PATCH, "PATCH"},
    {AP_METHOD_OPTIONS, "OPTIONS"},
};

#define N_METHODS (sizeof methods / sizeof methods[0])

unsigned ap_method_bit(const char *method)
{
    for (size_t i = 0; method && i < N_METHODS; i++)
        if (strcmp(method, methods[i].name) == 0)
            return methods[i].bit;
    return 0;
}

/* The part of the pattern after "{id}" that stays in the id's segment (".svg" of "/v1/maps/{id}.svg"; empty
 * for "/v1/maps/{id}/cells"): its length. */
static size_t in_segment_suffix(const char *after)
{
    const char *slash = strchr(after, '/');
    return slash != NULL ? (size_t)(slash - after) : strlen(after);
}

int ap_route_matches(const char *pattern, const char *path, const char **id)
{
    static const char param[] = "{id}";
    if (id)
        *id = NULL;
    /* Walk the literal prefix (up to the first "{id}") together with the path: most rows of a table differ
     * from a path within a few characters, so they are refused here without a scan of the pattern. */
    const char *at = pattern;
    while (*at == *path || *at == '{') {
        if (*at == '{' && strncmp(at, param, sizeof param - 1) == 0)
            break;
        if (*at != *path)
            return 0;
        if (*at == '\0')
            return 1; /* no "{id}": the whole pattern equals the path */
        at++;
        path++;
    }
    if (*at != '{')
        return 0;
    const char *suffix = at + sizeof param - 1;
    size_t k = in_segment_suffix(suffix);
    const char *seg = path, *end = strchr(seg, '/');
    size_t seglen = end != NULL ? (size_t)(end - seg) : strlen(seg);
    /* The segment is the id and then the suffix's in-segment part; the id is not empty. */
    if (seglen <= k || memcmp(seg + seglen - k, suffix, k) != 0 || strcmp(seg + seglen, suffix + k) != 0)
        return 0;
    if (id)
        *id = seg;
    return 1;
}

size_t ap_route_id_len(const char *pattern, const char *id)
{
    if (id == NULL)
        return 0;
    const char *at = strstr(pattern, "{id}");
    size_t k = at != NULL ? in_segment_suffix(at + 4) : 0;
    const char *end = strchr(id, '/');
    size_t seglen = end != NULL ? (size_t)(end - id) : strlen(id);
    return seglen > k ? seglen - k : 0;
}

/* How specific a row is: its pattern's length (literal characters, "{id}" counting the same in every
 * pattern), 0 for a row with a match function. */
static size_t specificity(const ap_route *row)
{
    return row->match != NULL ? 0 : strlen(row->pattern);
}

int ap_route_find(const ap_route *table, size_t n, unsigned method, const char *path, unsigned *allowed,
                  const char **id)
{
    int found = -1, first = -1;
    const char *found_id = NULL, *first_id = NULL;
    unsigned all = 0;
    for (size_t i = 0; i < n; i++) {
        const char *seg = NULL;
        if (table[i].match != NULL ? !table[i].match(path) : !ap_route_matches(table[i].pattern, path, &seg))
            continue;
        all |= table[i].methods;
        if (first < 0 || specificity(&table[i]) > specificity(&table[first])) {
            first = (int)i;
            first_id = seg;
        }
        if ((table[i].methods & method) != 0 && (found < 0 || specificity(&table[i]) > specificity(&table[found]))) {
            found = (int)i;
            found_id = seg;
        }
    }
    if (allowed)
        *allowed = all;
    if (found < 0) {
        found = first;
        found_id = first_id;
    }
    if (id)
        *id = found_id;
    return found;
}

size_t ap_route_allow(unsigned set, char *buf, size_t cap)
{
    size_t n = 0;
    if (cap > 0)
        buf[0] = '\0';
    for (size_t i = 0; i < N_METHODS; i++) {
        if (!(set & methods[i].bit))
            continue;
        int w = snprintf(cap > n ? buf + n : NULL, cap > n ? cap - n : 0, "%s%s", n ? ", " : "", methods[i].name);
        n += (size_t)w;
    }
    return n;
}
