/* maps.c — map info to JSON (jansson: these routes are cold, the tree costs nothing that matters). */
#include "maps.h"

#include <jansson.h>
#include <stdbool.h>
#include <string.h>

#include "../planner/world/tables.h"
#include "circles.h"
#include "utf8.h"

#define AP_MAPS_DUMP_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(17) | JSON_PRESERVE_ORDER)

/* Add members; on any failure the object is freed and NULL returned. Values are stolen either way. */
static json_t *set(json_t *obj, const char *key, json_t *value)
{
    if (obj == NULL) {
        json_decref(value);
        return NULL;
    }
    if (json_object_set_new(obj, key, value) != 0) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static char *dump(json_t *root, size_t *len)
{
    if (root == NULL)
        return NULL;
    char *s = json_dumps(root, AP_MAPS_DUMP_FLAGS);
    json_decref(root);
    if (s != NULL && len != NULL)
        *len = strlen(s);
    return s;
}

/* One table slot: {"name", "bytes", "build_ms"}, "incremental": true when a tile update made it from the
 * previous version's table, and, when the kind reports a count, that count under its
 * name (the region table's "regions"). */
static json_t *table_json(const ap_map_table *t)
{
    json_t *x = json_object();
    x = set(x, "name", json_string(t->name));
    uint64_t count = t->count;
    const size_t bytes = t->kind != NULL && t->kind->live != NULL ? t->kind->live(t->data, &count) : t->bytes;
    x = set(x, "bytes", json_integer((json_int_t)bytes));
    x = set(x, "build_ms", json_real(t->build_seconds * 1000.0));
    if (t->incremental)
        x = set(x, "incremental", json_true());
    if (t->count_name != NULL)
        x = set(x, t->count_name, json_integer((json_int_t)count));
    return x;
}

/* "map_version" right after "id" when version is not 0 (the registry's version, server/registry.h). */
static json_t *set_version(json_t *o, uint64_t version)
{
    return version != 0 ? set(o, "map_version", json_integer((json_int_t)version)) : o;
}

static json_t *map_json(const ap_map *m, uint64_t version)
{
    char id[AP_MAP_ID_MAX];
    ap_utf8_copy(id, sizeof id, m->id);
    /* Every table the registered kinds built (world/tables.h), in registration order: "region" first. */
    json_t *tables = json_array();
    for (int i = 0; i < m->n_tables && tables != NULL; i++) {
        if (json_array_append_new(tables, table_json(&m->tables[i])) != 0) {
            json_decref(tables);
            tables = NULL;
        }
    }
    json_t *o = json_object();
    o = set(o, "id", json_string(id));
    o = set_version(o, version);
    o = set(o, "kind", json_string("grid"));
    o = set(o, "width", json_integer(m->width));
    o = set(o, "height", json_integer(m->height));
    o = set(o, "passable_cells", json_integer(m->passable_cells));
    o = set(o, "weighted", json_boolean(m->weighted));
    /* Every passable terrain with its cost multiplier (map.h): what a move into or out of it costs per tile. */
    json_t *costs = json_object();
    for (int k = 0; k < AP_TERRAIN_KINDS && costs != NULL; k++)
        if (m->cost_of[k] > 0.0)
            costs = set(costs, (char[]){AP_TERRAIN_CHARS[k], '\0'}, json_real(m->cost_of[k]));
    o = set(o, "terrain_costs", costs);
    o = set(o, "meters_per_tile", json_real(m->meters_per_tile > 0.0 ? m->meters_per_tile : 1.0));
    o = set(o, "load_ms", json_real(m->load_seconds * 1000.0));
    o = set(o, "tables", tables);
    return o;
}

char *ap_wire_encode_map(const ap_map *m, uint64_t version, size_t *len)
{
    return dump(map_json(m, version), len);
}

/* A circle map: {"id", "kind": "circles", "width", "height", "circles", "meters_per_tile", "load_ms",
 * "tables": []}. */
static json_t *circle_map_json(const ap_circle_map *c, uint64_t version)
{
    char id[AP_MAP_ID_MAX];
    ap_utf8_copy(id, sizeof id, c->id);
    json_t *o = json_object();
    o = set(o, "id", json_string(id));
    o = set_version(o, version);
    o = set(o, "kind", json_string("circles"));
    o = set(o, "width", json_real(ap_circle_world_width(c->world)));
    o = set(o, "height", json_real(ap_circle_world_height(c->world)));
    o = set(o, "circles", json_integer((json_int_t)ap_circle_world_count(c->world)));
    o = set(o, "meters_per_tile", json_real(c->meters_per_tile > 0.0 ? c->meters_per_tile : 1.0));
    o = set(o, "load_ms", json_real(c->load_seconds * 1000.0));
    o = set(o, "tables", json_array());
    return o;
}

char *ap_wire_encode_circle_map(const ap_circle_map *c, uint64_t version, size_t *len)
{
    return dump(circle_map_json(c, version), len);
}

char *ap_wire_encode_map_list(const ap_wire_map_ref *maps, size_t n, size_t *len)
{
    json_t *a = json_array();
    for (size_t i = 0; a != NULL && i < n; i++) {
        json_t *o = maps[i].grid ? map_json(maps[i].grid, maps[i].version)
                                 : circle_map_json(maps[i].circles, maps[i].version);
        if (json_array_append_new(a, o) != 0) {
            json_decref(a);
            a = NULL;
        }
    }
    return dump(set(json_object(), "maps", a), len);
}

char *ap_wire_encode_maps(const ap_map *const *maps, const uint64_t *versions, size_t n, size_t *len)
{
    json_t *a = json_array();
    for (size_t i = 0; a != NULL && i < n; i++) {
        if (json_array_append_new(a, map_json(maps[i], versions ? versions[i] : 0)) != 0) {
            json_decref(a);
            a = NULL;
        }
    }
    return dump(set(json_object(), "maps", a), len);
}
