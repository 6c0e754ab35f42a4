/* patch.c — tile updates (patch.h): copy the map's letters, apply the edits, derive passability and costs
 * with the loader's rule, then update or rebuild each table kind (tables.c). */
#include "patch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/clock.h"
#include "../base/status.h"

static bool valid_terrain(char c)
{
    return c != '\0' && strchr(".G@OTSW", c) != NULL;
}

static int cmp_pos(const void *a, const void *b)
{
    const ap_cell_pos *p = a, *q = b;
    if (p->y != q->y)
        return p->y < q->y ? -1 : 1;
    return (p->x > q->x) - (p->x < q->x);
}

/* The distinct cells whose letter differs between prev and m (row-major order), into a new array. */
static ap_cell_pos *changed_cells(const ap_map *prev, const ap_map *m, const ap_cell_edit *edits, size_t n,
                                  size_t *n_out)
{
    ap_cell_pos *c = malloc((n > 0 ? n : 1) * sizeof *c);
    if (c == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++)
        c[i] = (ap_cell_pos){edits[i].x, edits[i].y};
    qsort(c, n, sizeof *c, cmp_pos);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        size_t at = (size_t)c[i].y * (size_t)m->width + (size_t)c[i].x;
        bool dup = k > 0 && c[k - 1].x == c[i].x && c[k - 1].y == c[i].y;
        if (!dup && m->terrain[at] != prev->terrain[at])
            c[k++] = c[i];
    }
    *n_out = k;
    return c;
}

bool ap_map_patch_changes(const ap_map *prev, const ap_cell_edit *edits, size_t n)
{
    /* A cell's letter is its last edit's: an edit another one of the same cell follows decides nothing. */
    for (size_t i = n; i-- > 0;) {
        const ap_cell_edit *e = &edits[i];
        if (e->x < 0 || e->y < 0 || e->x >= prev->width || e->y >= prev->height || !valid_terrain(e->terrain))
            return true; /* ap_map_patch says what is wrong */
        if (prev->terrain[(size_t)e->y * (size_t)prev->width + (size_t)e->x] == (uint8_t)e->terrain)
            continue;
        bool later = false;
        for (size_t j = i + 1; j < n && !later; j++)
            later = edits[j].x == e->x && edits[j].y == e->y;
        if (!later)
            return true;
    }
    return false;
}

int ap_map_patch(const ap_map *prev, const ap_cell_edit *edits, size_t n, ap_map **out, ap_diag *diag)
{
    *out = NULL;
    if (diag != NULL)
        memset(diag, 0, sizeof *diag);
    for (size_t i = 0; i < n; i++) {
        const ap_cell_edit *e = &edits[i];
        bool inside = e->x >= 0 && e->y >= 0 && e->x < prev->width && e->y < prev->height;
        if (!inside || !valid_terrain(e->terrain)) {
            if (diag != NULL) {
                snprintf(diag->file, sizeof diag->file, "cells[%zu]", i);
                snprintf(diag->msg, sizeof diag->msg, "%s",
                         inside ? "terrain must be one of the Moving AI letters . G @ O T S W"
                                : "the cell is outside the map");
            }
            return AP_E_INVALID_REQUEST;
        }
    }
    double t0 = ap_monotonic_seconds();
    size_t cells = (size_t)prev->width * (size_t)prev->height;
    ap_map *m = calloc(1, sizeof *m);
    if (m == NULL)
        return AP_E_NOMEM;
    memcpy(m->id, prev->id, sizeof m->id);
    m->width = prev->width;
    m->height = prev->height;
    m->stride = prev->stride;
    m->capabilities = prev->capabilities;
    m->capability = prev->capability;
    m->meters_per_tile = prev->meters_per_tile;
    m->skip_tables = prev->skip_tables;
    memcpy(m->cost_of, prev->cost_of, sizeof m->cost_of);
    memcpy(m->cap_cost, prev->cap_cost, sizeof m->cap_cost);
    m->pass = calloc(ap_map_node_count(prev), 1);
    m->terrain = malloc(cells);
    int st = AP_E_NOMEM;
    ap_cell_pos *changed = NULL;
    size_t n_changed = 0;
    if (m->pass != NULL && m->terrain != NULL) {
        memcpy(m->terrain, prev->terrain, cells);
        for (size_t i = 0; i < n; i++)
            m->terrain[(size_t)edits[i].y * (size_t)m->width + (size_t)edits[i].x] = (uint8_t)edits[i].terrain;
        changed = changed_cells(prev, m, edits, n, &n_changed);
        if (changed != NULL)
            st = ap_map_derive_pass(m);
    }
    if (st == AP_OK) {
        m->load_seconds = ap_monotonic_seconds() - t0;
        st = ap_map_attach_tables(m, prev, changed, n_changed, diag);
    } else if (diag != NULL) {
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
    }
    free(changed);
    if (st != AP_OK) {
        ap_map_free(m);
        return st;
    }
    *out = m;
    return AP_OK;
}
