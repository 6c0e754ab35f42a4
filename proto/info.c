/* info.c — GET /v1/info's answer (info.h). Cold route: one jansson tree per request. */
#include "info.h"

#include <jansson.h>
#include <string.h>

#include "../planner/base/limits.h"
#include "../planner/kino/vehicle.h"
#include "../planner/plan/algorithms.h"

/* The built-in vehicle kinds (planner/kino/vehicle.h), in the table's order: {NAME: {"max_speed",
 * "max_accel", "max_brake", "max_lateral_accel", "max_reverse_speed", "turning_radius" (metres), and
 * "max_turn_rate" for kinds that turn on the spot}}, or NULL when out of memory. */
static json_t *vehicles_json(void)
{
    json_t *o = json_object();
    for (size_t i = 0; o != NULL && i < ap_vehicle_profile_count; i++) {
        const ap_vehicle_profile *p = &ap_vehicle_profiles[i];
        json_t *v = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "max_speed", p->v.max_speed, "max_accel",
                              p->v.max_accel, "max_brake", p->v.max_brake, "max_lateral_accel",
                              p->v.max_lateral_accel, "max_reverse_speed", p->v.max_reverse_speed, "turning_radius",
                              p->turning_radius);
        if (v != NULL && p->v.max_turn_rate > 0.0 &&
            json_object_set_new(v, "max_turn_rate", json_real(p->v.max_turn_rate)) != 0) {
            json_decref(v);
            v = NULL;
        }
        if (v == NULL || json_object_set_new(o, p->name, v) != 0) {
            json_decref(o);
            o = NULL;
        }
    }
    return o;
}

char *ap_wire_encode_info(const ap_wire_info *info, size_t *len)
{
    json_t *algorithms = json_array();
    for (size_t i = 0; algorithms != NULL && i < ap_algorithm_count; i++)
        if (json_array_append_new(algorithms, json_string(ap_algorithms[i].name)) != 0) {
            json_decref(algorithms);
            algorithms = NULL;
        }
    if (algorithms == NULL)
        return NULL;
    /* "o" steals algorithms, on failure too (jansson >= 2.11). */
    json_t *root = json_pack("{s:s, s:s, s:{s:s}, s:{s:I, s:I, s:I, s:I, s:i, s:i, s:f, s:f, s:f, s:f, s:I, s:i, s:I}, s:o, s:I}",
                             "name", "arcpath", "version", info->version, "build", "compiler", info->compiler,
                             "limits", "max_body_bytes", (json_int_t)info->max_body_bytes, "max_batch",
                             (json_int_t)info->max_batch, "max_samples", (json_int_t)info->max_samples,
                             "max_answer_bytes", (json_int_t)info->max_answer_bytes, "default_deadline_ms",
                             info->default_deadline_ms, "max_deadline_ms", info->max_deadline_ms,
                             "max_unit_radius", AP_MAX_UNIT_RADIUS, "min_turning_radius", AP_MIN_TURNING_RADIUS,
                             "max_turning_radius", AP_MAX_TURNING_RADIUS,
                             "min_sample_step", AP_MIN_SAMPLE_STEP, "workspace_nodes",
                             (json_int_t)info->workspace_nodes, "max_connections", info->max_connections,
                             "max_maps", (json_int_t)info->max_maps, "algorithms", algorithms, "maps",
                             (json_int_t)info->maps);
    if (root == NULL)
        return NULL;
    json_t *units = info->units != NULL ? json_loads(info->units, 0, NULL) : json_object();
    json_t *vehicles = vehicles_json();
    json_t *terrains = json_pack("[s,s,s,s]", "ground", "swamp", "water", "trees");
    if (units == NULL || vehicles == NULL || terrains == NULL || json_object_set_new(root, "units", units) != 0 ||
        json_object_set_new(root, "vehicles", vehicles) != 0 || json_object_set_new(root, "terrains", terrains) != 0) {
        json_decref(root);
        return NULL;
    }
    char *s = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(17) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (s != NULL && len != NULL)
        *len = strlen(s);
    return s;
}
