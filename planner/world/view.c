/* view.c — capability views (view.h): a copy of the map's header with the capability's cells, regions and
 * terrain costs. */
#include "view.h"

#include <stdlib.h>
#include <string.h>

#include "../base/status.h"
#include "region.h"

static const char *const view_names[AP_CAPABILITY_COUNT] = AP_CAPABILITY_NAMES("view:");
static const char *const region_names[AP_CAPABILITY_COUNT] = AP_CAPABILITY_NAMES("region:");

/* The view and the arrays it owns (the map header's pointers point into these or into the base), and how
 * many of its cells hold each terrain kind (what a tile update needs to redo the cost range). */
typedef struct view {
    ap_map map;
    uint8_t *pass, *kind, *cheap;
    int64_t present[AP_TERRAIN_KINDS];
} view;

static void free_view(void *data)
{
    view *v = data;
    if (v == NULL)
        return;
    free(v->pass);
    free(v->map.pass_bits);
    free(v->kind);
    free(v->cheap);
    free(v);
}

/* Index of terrain letter t in AP_TERRAIN_CHARS, or -1. */
static int kind_of(unsigned char t)
{
    const char *p = t != 0 ? strchr(AP_TERRAIN_CHARS, t) : NULL;
    return p != NULL ? (int)(p - AP_TERRAIN_CHARS) : -1;
}

/* Capability c's cost of each terrain kind: 0 outside c, else cap_cost, else the map's cost, else 1. */
static void view_costs(const ap_map *m, ap_capability c, double cost[AP_TERRAIN_KINDS])
{
    for (int k = 0; k < AP_TERRAIN_KINDS; k++) {
        double v = m->cap_cost[c][k] != 0.0 ? m->cap_cost[c][k] : m->cost_of[k] > 0.0 ? m->cost_of[k] : 1.0;
        cost[k] = (ap_capability_of_terrain((unsigned char)AP_TERRAIN_CHARS[k]) & c) ? v : 0.0;
    }
}

/* A view of n padded cells with its pass array (contents unset), or NULL. */
static view *new_view(size_t n)
{
    view *v = calloc(1, sizeof *v);
    if (v != NULL && (v->pass = malloc(n)) == NULL) {
        free(v);
        v = NULL;
    }
    return v;
}

/* The rest of a view of m for capability c whose pass, present and `cells` (its passable cells) are set:
 * no slot when its cells and costs are m's, else the header, the region table of m (the capability's or,
 * when c's cells are m's, the map's) and the cost arrays. When old (the previous version's view, whose
 * map differed only at the n changed cells) is given and had arrays for the same cheapest cost, they are
 * copied and redone at the changed cells only (kind and cheap depend on the cell, its letter and
 * cost_min alone); otherwise derived over the whole map. Consumes v. */
static int finish_view(const ap_map *m, ap_capability c, view *v, int64_t cells, const view *old,
                       const ap_cell_pos *changed, size_t n_changed, ap_map_table *out)
{
    double cost[AP_TERRAIN_KINDS];
    view_costs(m, c, cost);
    const size_t n = ap_map_node_count(m);
    bool same_costs = true;
    for (int k = 0; k < AP_TERRAIN_KINDS; k++)
        same_costs &= v->present[k] == 0 || cost[k] == m->cost_of[k];
    if (same_costs && memcmp(v->pass, m->pass, n) == 0) {
        free_view(v);
        return AP_OK; /* the map serves c itself (ap_map_view) */
    }
    v->map = *m;
    v->map.n_tables = 0;
    v->map.base = m;
    v->map.capability = c;
    v->map.pass = v->pass;
    v->map.pass_bits = v->map.pass_cols = NULL; /* the view's own, below (optional: the byte loop serves) */
    (void)ap_map_pass_bits(&v->map);
    v->map.passable_cells = cells;
    v->map.pass_is_default_capability = c == AP_CAP_DEFAULT;
    memcpy(v->map.cost_of, cost, sizeof cost);
    v->map.kind = v->map.cheap = NULL;
    /* Regions: the capability's table, or the map's when c's cells are the map's (capability.h). */
    const ap_map_table *rt = ap_map_find_table(m, region_names[c]);
    if (rt == NULL)
        rt = ap_map_find_table(m, AP_REGION_TABLE_NAME);
    int st = rt != NULL ? AP_OK : AP_E_INTERNAL;
    if (st == AP_OK)
        ap_map_cost_range(&v->map, v->present);
    if (st == AP_OK && v->map.weighted && old != NULL && old->kind != NULL && old->map.cost_min == v->map.cost_min) {
        v->map.kind = v->kind = malloc(n);
        v->map.cheap = v->cheap = malloc(n);
        if (v->kind == NULL || v->cheap == NULL) {
            st = AP_E_NOMEM;
        } else {
            memcpy(v->kind, old->kind, n);
            memcpy(v->cheap, old->cheap, n);
            for (size_t i = 0; i < n_changed; i++)
                ap_map_cost_cell(&v->map, changed[i].x, changed[i].y);
        }
    } else if (st == AP_OK) {
        st = ap_map_derive_costs(&v->map, v->present);
        v->kind = v->map.kind;
        v->cheap = v->map.cheap;
    }
    if (st != AP_OK) {
        free_view(v);
        return st;
    }
    v->map.region = rt->data;
    v->map.region_count = (uint32_t)rt->count;
    out->data = v;
    out->bytes = sizeof *v + n * (v->kind != NULL ? 3 : 1) + ap_map_pass_bits_bytes(&v->map);
    return AP_OK;
}

static int build_view(const ap_map *m, ap_map_table *out)
{
    const ap_capability c = out->capability;
    out->name = view_names[c];
    view *v = new_view(ap_map_node_count(m));
    if (v == NULL)
        return AP_E_NOMEM;
    int64_t cells = ap_capability_mask(m, c, v->pass);
    for (int32_t y = 0; y < m->height; y++)
        for (int32_t x = 0; x < m->width; x++)
            if (v->pass[ap_map_index(m, x, y)])
                v->present[kind_of(m->terrain[(size_t)y * (size_t)m->width + (size_t)x])]++;
    return finish_view(m, c, v, cells, NULL, NULL, 0, out);
}

/* A tile update: the previous view's pass and terrain counts, corrected at the changed cells (the
 * capability's mask of a cell depends on its letter alone), then finish_view with the previous view's
 * cost arrays; the region table it points to is m's, already updated (capability.h, region.h). O(cells)
 * copying plus O(changed); exact: every field is what build_view computes from the same pass and counts. */
static int update_view(const ap_map *m, const ap_map *prev, const ap_map_table *old, const ap_cell_pos *changed,
                       size_t n, ap_map_table *out)
{
    const ap_capability c = out->capability;
    out->name = view_names[c];
    const view *o = old->data;
    view *v = new_view(ap_map_node_count(m));
    if (v == NULL)
        return AP_E_NOMEM;
    memcpy(v->pass, o->pass, ap_map_node_count(m));
    memcpy(v->present, o->present, sizeof v->present);
    int64_t cells = o->map.passable_cells;
    for (size_t i = 0; i < n; i++) {
        size_t at = (size_t)changed[i].y * (size_t)m->width + (size_t)changed[i].x;
        uint32_t p = ap_map_index(m, changed[i].x, changed[i].y);
        if (v->pass[p]) {
            v->present[kind_of(prev->terrain[at])]--;
            cells--;
        }
        v->pass[p] = (ap_capability_of_terrain(m->terrain[at]) & c) != 0;
        if (v->pass[p]) {
            v->present[kind_of(m->terrain[at])]++;
            cells++;
        }
    }
    return finish_view(m, c, v, cells, o, changed, n, out);
}

const ap_table_kind ap_view_table_kind = {"view:<capability>", NULL, AP_TABLE_PER_CAPABILITY, build_view,
                                          free_view, update_view, NULL, NULL, NULL};

const ap_map *ap_map_view(const ap_map *m, unsigned c)
{
    if (c == 0)
        return m;
    if (c > AP_CAP_ALL || !(m->capabilities & (1u << c)))
        return NULL;
    const ap_map_table *t = ap_map_find_table(m, view_names[c]);
    return t != NULL ? &((const view *)t->data)->map : m;
}
