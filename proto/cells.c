/* cells.c — GET /v1/maps/{id}/cells (cells.h). */
#include "cells.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "json_in.h"
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

static const char *const ap_keys_patch[] = {"cells", NULL};
static const char *const ap_keys_edit[] = {"x", "y", "terrain", NULL};

int ap_wire_parse_cell_edits(const char *body, size_t len, size_t max_cells, ap_cell_edit **out, size_t *n,
                             ap_wire_error *err)
{
    *out = NULL;
    *n = 0;
    ap_json_reader r;
    ap_json_reader_init(&r, err, 0);
    json_t *root = NULL;
    /* a valid body holds the object, the array and each cell's object and three values: more than twice that
     * many openings and commas is refused before jansson builds a tree of them (json_in.h) */
    if (ap_json_values_over(body, len, 2 * (2 + 4 * max_cells)))
        return ap_json_fail(err, AP_E_INVALID_REQUEST, "cells",
                            "\"cells\" must be an array of 1 to %zu cells {x, y, terrain}: the body holds more JSON "
                            "values than that many cells can",
                            max_cells);
    int rc = ap_json_load_object(&r, body, len, &root);
    json_t *cells = NULL;
    if (rc == AP_OK && (rc = ap_json_check_known(&r, root, "", ap_keys_patch)) == AP_OK) {
        char path[64];
        rc = ap_json_member(&r, root, "", "cells", true, &cells, path, sizeof path);
        if (rc == AP_OK && (!json_is_array(cells) || json_array_size(cells) == 0 || json_array_size(cells) > max_cells))
            rc = ap_json_fail(err, AP_E_INVALID_REQUEST, "cells", "\"cells\" must be an array of 1 to %zu cells",
                              max_cells);
    }
    ap_cell_edit *e = rc == AP_OK ? calloc(json_array_size(cells), sizeof *e) : NULL;
    if (rc == AP_OK && e == NULL)
        rc = AP_E_NOMEM;
    for (size_t i = 0; rc == AP_OK && i < json_array_size(cells); i++) {
        json_t *c = json_array_get(cells, i);
        char prefix[32];
        snprintf(prefix, sizeof prefix, "cells[%zu]", i);
        long long x = 0, y = 0;
        json_t *t = NULL;
        if (!json_is_object(c)) {
            rc = ap_json_fail(err, AP_E_INVALID_REQUEST, prefix, "\"%s\" must be an object {x, y, terrain}", prefix);
            break;
        }
        if ((rc = ap_json_check_known(&r, c, prefix, ap_keys_edit)) != AP_OK ||
            (rc = ap_json_get_integer(&r, c, prefix, "x", true, 0, 65535, &x, NULL)) != AP_OK ||
            (rc = ap_json_get_integer(&r, c, prefix, "y", true, 0, 65535, &y, NULL)) != AP_OK ||
            (rc = ap_json_get_string(&r, c, prefix, "terrain", true, &t)) != AP_OK)
            break;
        const char *s = json_string_value(t);
        if (strlen(s) != 1 || strchr(".G@OTSW", s[0]) == NULL) {
            char field[64];
            ap_json_join_path(field, sizeof field, prefix, "terrain");
            rc = ap_json_fail(err, AP_E_INVALID_REQUEST, field,
                              "\"%s\" must be one Moving AI terrain letter: . G @ O T S W", field);
            break;
        }
        e[i] = (ap_cell_edit){(int32_t)x, (int32_t)y, s[0]};
    }
    if (rc == AP_OK) {
        *out = e;
        *n = json_array_size(cells);
    } else {
        free(e);
    }
    json_decref(root);
    return rc;
}
