/* cells.c — GET /v1/maps/{id}/cells (cells.h). jansson, like the other map routes: a cold route, asked
 * once per map by a viewer. */
#include "cells.h"

#include <jansson.h>
#include <string.h>

#include "utf8.h"

char *ap_wire_encode_cells(const ap_map *m, size_t *len)
{
    char id[AP_MAP_ID_MAX];
    ap_utf8_copy(id, sizeof id, m->id);
    json_t *rows = json_array();
    for (int32_t y = 0; rows != NULL && y < m->height; y++) {
        json_t *row = json_stringn((const char *)m->terrain + (size_t)y * (size_t)m->width, (size_t)m->width);
        if (json_array_append_new(rows, row) != 0) {
            json_decref(rows);
            rows = NULL;
        }
    }
    json_t *o = rows ? json_pack("{s:s, s:i, s:i, s:o}", "map", id, "width", (int)m->width, "height",
                                 (int)m->height, "rows", rows)
                     : NULL;
    char *s = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(o);
    if (s != NULL && len != NULL)
        *len = strlen(s);
    return s;
}
