/* cells_route.c — GET /v1/maps/{id}/cells (cells_route.h). */
#include "cells_route.h"

#include <string.h>

#include "../planner/base/status.h"
#include "../proto/cells.h"

#define PREFIX "/v1/maps/"
#define SUFFIX "/cells"

/* The id's length in url, or 0 when url is not PREFIX id SUFFIX. */
static size_t id_len(const char *url)
{
    if (url == NULL || strncmp(url, PREFIX, strlen(PREFIX)) != 0)
        return 0;
    const char *id = url + strlen(PREFIX);
    const char *slash = strchr(id, '/');
    if (slash == NULL || slash == id || strcmp(slash, SUFFIX) != 0)
        return 0;
    return (size_t)(slash - id);
}

bool ap_cells_route_match(const char *url)
{
    return id_len(url) > 0;
}

int ap_cells_route(const ap_registry *reg, const char *url, char *map_id, size_t map_cap, char **body, size_t *len)
{
    *body = NULL;
    size_t n = id_len(url);
    char id[AP_MAP_ID_MAX];
    size_t k = 0;
    /* An id longer than any map's cannot be loaded; it is still logged (cut to map_cap). */
    for (; k < n && k + 1 < sizeof id; k++)
        id[k] = url[strlen(PREFIX) + k];
    id[k] = '\0';
    if (map_cap > 0) {
        size_t i = 0;
        for (; i < n && i + 1 < map_cap; i++) {
            unsigned char c = (unsigned char)url[strlen(PREFIX) + i];
            map_id[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
        }
        map_id[i] = '\0';
    }
    const ap_map *m = (n > 0 && n < sizeof id) ? ap_registry_find(reg, id) : NULL;
    if (m == NULL)
        return AP_E_UNKNOWN_MAP;
    *body = ap_wire_encode_cells(m, len);
    return *body ? AP_OK : AP_E_NOMEM;
}
