/* view.c — capability views (view.h): a copy of the map's header with the capability's cells, regions and
 * terrain costs. */
#include "view.h"

#include <stdlib.h>
#include <string.h>

#include "../base/status.h"
#include "region.h"

static const char *const view_names[AP_CAPABILITY_COUNT] = AP_CAPABILITY_NAMES("view:");
static const char *const region_names[AP_CAPABILITY_COUNT] = AP_CAPABILITY_NAMES("region:");

/* The view and the arrays it owns (the map header's pointers point into these or into the base). */
typedef struct view {
    ap_map map;
    uint8_t *pass, *kind, *cheap;
} view;

static void free_view(void *data)
{
    view *v = data;
    if (v == NULL)
        return;
    free(v->pass);
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

static int build_view(const ap_map *m, ap_map_table *out)
{
    const ap_capability c = out->capability;
    out->name = view_names[c];
    double cost[AP_TERRAIN_KINDS];
    view_costs(m, c, cost);
    const size_t n = ap_map_node_count(m);
    view *v = calloc(1, sizeof *v);
    if (v == NULL || (v->pass = malloc(n)) == NULL) {
        free(v);
        return AP_E_NOMEM;
    }
    int64_t cells = ap_capability_mask(m, c, v->pass);
    int64_t present[AP_TERRAIN_KINDS] = {0};
    bool same_costs = true;
    for (int32_t y = 0; y < m->height; y++)
        for (int32_t x = 0; x < m->width; x++)
            if (v->pass[ap_map_index(m, x, y)]) {
                int k = kind_of(m->terrain[(size_t)y * (size_t)m->width + (size_t)x]);
                present[k]++;
                same_costs &= cost[k] == m->cost_of[k];
            }
    if (same_costs && memcmp(v->pass, m->pass, n) == 0) {
        free_view(v);
        return AP_OK; /* the map serves c itself (ap_map_view) */
    }
    v->map = *m;
    v->map.n_tables = 0;
    v->map.base = m;
    v->map.capability = c;
    v->map.pass = v->pass;
    v->map.passable_cells = cells;
    v->map.pass_is_default_capability = c == AP_CAP_DEFAULT;
    memcpy(v->map.cost_of, cost, sizeof cost);
    /* Regions: the capability's table, or the map's when c's cells are the map's (capability.h). */
    const ap_map_table *rt = ap_map_find_table(m, region_names[c]);
    if (rt == NULL)
        rt = ap_map_find_table(m, AP_REGION_TABLE_NAME);
    v->map.kind = v->map.cheap = NULL;
    int st = rt != NULL ? ap_map_derive_costs(&v->map, present) : AP_E_INTERNAL;
    v->kind = v->map.kind;
    v->cheap = v->map.cheap;
    if (st != AP_OK) {
        free_view(v);
        return st;
    }
    v->map.region = rt->data;
    v->map.region_count = (uint32_t)rt->count;
    out->data = v;
    out->bytes = sizeof *v + n * (v->kind != NULL ? 3 : 1);
    return AP_OK;
}

const ap_table_kind ap_view_table_kind = {"view:<capability>", NULL, AP_TABLE_PER_CAPABILITY, build_view,
                                          free_view, NULL};

const ap_map *ap_map_view(const ap_map *m, unsigned c)
{
    if (c == 0)
        return m;
    if (c > AP_CAP_ALL || !(m->capabilities & (1u << c)))
        return NULL;
    const ap_map_table *t = ap_map_find_table(m, view_names[c]);
    return t != NULL ? &((const view *)t->data)->map : m;
}
