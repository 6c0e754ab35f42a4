/* cells.c — GET /v1/maps/{id}/cells (cells.h). */
#include "cells.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

static const char ROWS_KEY[] = ",\"rows\":[";

char *ap_wire_encode_cells(const ap_map *m, size_t *len)
{
    /* The head goes through jansson (it escapes the id); the rows are written straight into the answer: a
     * map may hold 16 M cells, and a tree of row strings would copy them twice more for nothing. */
    char id[AP_MAP_ID_MAX];
    ap_utf8_copy(id, sizeof id, m->id);
    json_t *o = json_pack("{s:s, s:i, s:i}", "map", id, "width", (int)m->width, "height", (int)m->height);
    char *head = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(o);
    if (head == NULL)
        return NULL;
    size_t hn = strlen(head) - 1; /* without its closing brace */
    size_t w = (size_t)m->width, h = (size_t)m->height;
    size_t cap = hn + sizeof ROWS_KEY - 1 + h * (w + 3) + 3;
    char *s = malloc(cap);
    if (s == NULL) {
        free(head);
        return NULL;
    }
    memcpy(s, head, hn);
    free(head);
    size_t at = hn;
    memcpy(s + at, ROWS_KEY, sizeof ROWS_KEY - 1);
    at += sizeof ROWS_KEY - 1;
    for (size_t y = 0; y < h; y++) {
        if (y > 0)
            s[at++] = ',';
        s[at++] = '"';
        const uint8_t *row = m->terrain + y * w;
        for (size_t x = 0; x < w; x++) {
            /* The loader admits only terrain letters; anything a JSON string could not hold as it is
             * would be a loader bug, shown as '?' rather than sent as broken JSON. */
            uint8_t c = row[x];
            s[at++] = (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') ? (char)c : '?';
        }
        s[at++] = '"';
    }
    s[at++] = ']';
    s[at++] = '}';
    s[at] = '\0';
    if (len != NULL)
        *len = at;
    return s;
}
