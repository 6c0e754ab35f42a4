/* units.c — the config keys "units", "capabilities" and "capability_costs" (units.h). */
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../planner/base/limits.h"
#include "../planner/base/status.h"
#include "../planner/world/capability.h"
#include "fail.h"

bool ap_config_is_unit_key(const char *key)
{
    return strcmp(key, "units") == 0 || strcmp(key, "capabilities") == 0 || strcmp(key, "capability_costs") == 0;
}

int ap_config_parse_capability(const char *label, const char *path, json_t *v, uint8_t *out, char *err,
                               size_t errlen)
{
    if (!json_is_array(v) || json_array_size(v) == 0)
        return ap_config_fail(err, errlen,
                              "%s: \"%s\": must be a non-empty array of terrain names (ground, swamp, water, trees)",
                              label, path);
    unsigned set = 0;
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
        ap_capability b = json_is_string(e) ? ap_capability_from_name(json_string_value(e), json_string_length(e)) : 0;
        if (b == 0 || (set & b))
            return ap_config_fail(err, errlen, "%s: \"%s[%zu]\": %s", label, path, i,
                                  b == 0 ? "must be one of: ground, swamp, water, trees" : "names a terrain twice");
        set |= b;
    }
    *out = (uint8_t)set;
    return AP_OK;
}

/* A number in [lo, hi] at path; else the error naming path and the range. */
static int number(const char *label, const char *path, json_t *x, double lo, double hi, double *out, char *err,
                  size_t errlen)
{
    double v = json_is_number(x) ? json_number_value(x) : NAN;
    if (!(v >= lo && v <= hi))
        return ap_config_fail(err, errlen, "%s: \"%s\": must be a number in [%g, %g]", label, path, lo, hi);
    *out = v;
    return AP_OK;
}

/* A vehicle limit: a number in [AP_MIN_KINO_LIMIT, hi] (limits.h: the floor keeps every answer's time finite). */
static int positive(const char *label, const char *path, json_t *x, double hi, double *out, char *err,
                    size_t errlen)
{
    return number(label, path, x, AP_MIN_KINO_LIMIT, hi, out, err, errlen);
}

/* One kind: {"radius", "size", "capability", "turning_radius" (tiles) or "turning_radius_m" (metres,
 * turned into tiles with the map's scale where a query applies the kind), "reverse", "reverse_penalty",
 * "max_speed", "max_accel", "max_brake", "max_lateral_accel", "max_reverse_speed", "max_turn_rate"}. */
static int parse_kind(const char *label, const char *name, json_t *o, ap_unit_kind *k, char *err, size_t errlen)
{
    char path[128];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    if (!json_is_object(o))
        return ap_config_fail(err, errlen, "%s: \"units.%s\": must be an object {\"radius\", \"capability\", ...}",
                              label, name);
    const char *key;
    json_t *x;
    json_object_foreach(o, key, x) {
        snprintf(path, sizeof path, "units.%s.%.24s", name, key);
        int rc = AP_OK;
        if (strcmp(key, "radius") == 0) {
            rc = number(label, path, x, 0.0, AP_MAX_UNIT_RADIUS, &k->radius, err, errlen);
            k->has |= AP_UNIT_F_RADIUS;
        } else if (strcmp(key, "turning_radius") == 0 || strcmp(key, "turning_radius_m") == 0) {
            const bool m = strcmp(key, "turning_radius_m") == 0;
            if (k->has & AP_UNIT_F_TURNING)
                return ap_config_fail(err, errlen,
                                      "%s: \"%s\": give \"turning_radius\" (tiles) or \"turning_radius_m\" (metres), "
                                      "not both",
                                      label, path);
            rc = number(label, path, x, 0.0, m ? AP_MAX_TURNING_RADIUS * AP_MAX_METERS_PER_TILE : AP_MAX_TURNING_RADIUS,
                        &k->turning_radius, err, errlen);
            /* in tiles, as the request's field: 0 or from the floor up (a kind's metres are checked per query) */
            if (rc == AP_OK && !m && k->turning_radius > 0.0 && k->turning_radius < AP_MIN_TURNING_RADIUS)
                rc = ap_config_fail(err, errlen, "%s: \"%s\": must be 0 or a number in [%g, %g]", label, path,
                                    AP_MIN_TURNING_RADIUS, AP_MAX_TURNING_RADIUS);
            k->turning_metres = m;
            k->has |= AP_UNIT_F_TURNING;
        } else if (strcmp(key, "reverse_penalty") == 0) {
            rc = number(label, path, x, AP_MIN_REVERSE_PENALTY, AP_MAX_REVERSE_PENALTY, &k->reverse_penalty, err,
                        errlen);
            k->has |= AP_UNIT_F_REVERSE_PENALTY;
        } else if (strcmp(key, "size") == 0) {
            if (!json_is_integer(x) || json_integer_value(x) < 1 || json_integer_value(x) > AP_MAX_UNIT_SIZE)
                return ap_config_fail(err, errlen, "%s: \"%s\": must be an integer in [1, %d]", label, path,
                                      AP_MAX_UNIT_SIZE);
            k->size = (int)json_integer_value(x);
            k->has |= AP_UNIT_F_SIZE;
        } else if (strcmp(key, "reverse") == 0) {
            if (!json_is_boolean(x))
                return ap_config_fail(err, errlen, "%s: \"%s\": must be true or false", label, path);
            k->reverse = json_is_true(x);
            k->has |= AP_UNIT_F_REVERSE;
        } else if (strcmp(key, "capability") == 0) {
            rc = ap_config_parse_capability(label, path, x, &k->capability, err, errlen);
            k->has |= AP_UNIT_F_CAPABILITY;
        } else if (strcmp(key, "max_speed") == 0) {
            rc = positive(label, path, x, AP_MAX_KINO_SPEED, &k->vehicle.max_speed, err, errlen);
            k->has |= AP_UNIT_F_MAX_SPEED;
        } else if (strcmp(key, "max_accel") == 0) {
            rc = positive(label, path, x, AP_MAX_KINO_ACCEL, &k->vehicle.max_accel, err, errlen);
            k->has |= AP_UNIT_F_MAX_ACCEL;
        } else if (strcmp(key, "max_brake") == 0) {
            rc = positive(label, path, x, AP_MAX_KINO_ACCEL, &k->vehicle.max_brake, err, errlen);
            k->has |= AP_UNIT_F_MAX_BRAKE;
        } else if (strcmp(key, "max_lateral_accel") == 0) {
            rc = positive(label, path, x, AP_MAX_KINO_ACCEL, &k->vehicle.max_lateral_accel, err, errlen);
            k->has |= AP_UNIT_F_MAX_LATERAL;
        } else if (strcmp(key, "max_reverse_speed") == 0) {
            rc = positive(label, path, x, AP_MAX_KINO_SPEED, &k->vehicle.max_reverse_speed, err, errlen);
            k->has |= AP_UNIT_F_MAX_REVERSE;
        } else if (strcmp(key, "max_turn_rate") == 0) {
            rc = positive(label, path, x, AP_MAX_KINO_TURN_RATE, &k->vehicle.max_turn_rate, err, errlen);
            k->has |= AP_UNIT_F_MAX_TURN_RATE;
        } else {
            return ap_config_fail(
                err, errlen,
                "%s: \"%s\": unknown key (radius, size, capability, turning_radius, turning_radius_m, reverse, "
                "reverse_penalty, max_speed, max_accel, max_brake, max_lateral_accel, max_reverse_speed, "
                "max_turn_rate)",
                label, path);
        }
        if (rc != AP_OK)
            return rc;
    }
    if ((k->has & AP_UNIT_F_SIZE) && k->radius != 0.0)
        return ap_config_fail(err, errlen,
                              "%s: \"units.%s\": give \"size\" (a square unit) or \"radius\" (a disc), not both", label,
                              name);
    if ((k->has & AP_UNIT_F_SIZE) && k->turning_radius != 0.0)
        return ap_config_fail(err, errlen, "%s: \"units.%s\": a square unit (\"size\") has no \"%s\" (it must be 0)",
                              label, name, k->turning_metres ? "turning_radius_m" : "turning_radius");
    return AP_OK;
}

static int apply_units(ap_config *c, const char *label, json_t *v, char *err, size_t errlen)
{
    if (!json_is_object(v))
        return ap_config_fail(err, errlen,
                              "%s: \"units\": must be an object {\"NAME\": {\"radius\", \"capability\", ...}}", label);
    if (json_object_size(v) > AP_CONFIG_MAX_UNITS)
        return ap_config_fail(err, errlen, "%s: \"units\": at most %d unit kinds", label, AP_CONFIG_MAX_UNITS);
    size_t n = 0;
    const char *name;
    json_t *o;
    json_object_foreach(v, name, o) {
        if (strlen(name) >= AP_UNIT_KIND_NAME_MAX || !ap_map_id_valid(name, strlen(name)))
            return ap_config_fail(err, errlen,
                                  "%s: \"units\": \"%.40s\" is not a unit kind name (1..%d of [A-Za-z0-9_.-], the first not '.')", label,
                                  name, AP_UNIT_KIND_NAME_MAX - 1);
        int rc = parse_kind(label, name, o, &c->units[n], err, errlen);
        if (rc != AP_OK)
            return rc;
        n++;
    }
    c->n_units = n;
    return AP_OK;
}

static int apply_capabilities(ap_config *c, const char *label, json_t *v, char *err, size_t errlen)
{
    if (!json_is_array(v) || json_array_size(v) > AP_CONFIG_MAX_CAPABILITIES)
        return ap_config_fail(err, errlen,
                              "%s: \"capabilities\": must be an array of at most %d capabilities, e.g. [[\"water\"]]",
                              label, AP_CONFIG_MAX_CAPABILITIES);
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
        char path[48];
        snprintf(path, sizeof path, "capabilities[%zu]", i);
        int rc = ap_config_parse_capability(label, path, e, &c->capabilities[i], err, errlen);
        if (rc != AP_OK)
            return rc;
        for (size_t j = 0; j < i; j++)
            if (c->capabilities[j] == c->capabilities[i])
                return ap_config_fail(err, errlen, "%s: \"%s\": the same capability as \"capabilities[%zu]\"",
                                      label, path, j);
    }
    c->n_capabilities = json_array_size(v);
    return AP_OK;
}

static int apply_cap_costs(ap_config *c, const char *label, json_t *v, char *err, size_t errlen)
{
    if (!json_is_object(v))
        return ap_config_fail(err, errlen,
                              "%s: \"capability_costs\": must be an object {\"ground+swamp\": {\"S\": 3}, ...}", label);
    size_t n = 0;
    const char *name;
    json_t *e;
    json_object_foreach(v, name, e) {
        ap_capability_costs cc;
        memset(&cc, 0, sizeof cc);
        if (ap_capability_parse(name, strlen(name), &cc.capability) != 0)
            return ap_config_fail(
                err, errlen,
                "%s: \"capability_costs\": \"%.40s\" is not a capability (terrain names joined by '+', e.g. "
                "\"ground+swamp\")",
                label, name);
        for (size_t i = 0; i < n; i++)
            if (c->cap_costs[i].capability == cc.capability) {
                /* the earlier key as the file spells it ("water+ground" and "ground+water" were reported as
                 * "ground+water" twice: a helper) */
                const char *earlier = ap_capability_name(cc.capability), *k2;
                json_t *e2;
                json_object_foreach(v, k2, e2) {
                    uint8_t c2;
                    if (strcmp(k2, name) == 0)
                        break;
                    if (ap_capability_parse(k2, strlen(k2), &c2) == 0 && c2 == cc.capability) {
                        earlier = k2;
                        break;
                    }
                }
                return ap_config_fail(err, errlen, "%s: \"capability_costs.%s\": the same capability as "
                                      "\"capability_costs.%s\"", label, name, earlier);
            }
        char path[96];
        snprintf(path, sizeof path, "capability_costs.%s", name);
        int rc = ap_config_parse_costs(label, path, e, cc.capability, cc.cost, err, errlen);
        if (rc != AP_OK)
            return rc;
        c->cap_costs[n++] = cc;
    }
    c->n_cap_costs = n;
    return AP_OK;
}

int ap_config_apply_unit_key(ap_config *c, const char *label, const char *key, json_t *v, char *err,
                             size_t errlen)
{
    if (strcmp(key, "units") == 0)
        return apply_units(c, label, v, err, errlen);
    if (strcmp(key, "capabilities") == 0)
        return apply_capabilities(c, label, v, err, errlen);
    return apply_cap_costs(c, label, v, err, errlen);
}

/* A capability as the config writes it: an array of terrain names. */
static json_t *capability_json(uint8_t cap)
{
    static const char *const names[4] = {"ground", "swamp", "water", "trees"};
    json_t *a = json_array();
    for (int b = 0; b < 4; b++)
        if (cap & (1u << b))
            json_array_append_new(a, json_string(names[b]));
    return a;
}

json_t *ap_config_unit_kind_json(const ap_unit_kind *k)
{
    json_t *o = json_object();
    if (k->has & AP_UNIT_F_RADIUS)
        json_object_set_new(o, "radius", json_real(k->radius));
    if (k->has & AP_UNIT_F_SIZE)
        json_object_set_new(o, "size", json_integer(k->size));
    if (k->has & AP_UNIT_F_CAPABILITY)
        json_object_set_new(o, "capability", capability_json(k->capability));
    if (k->has & AP_UNIT_F_TURNING)
        json_object_set_new(o, k->turning_metres ? "turning_radius_m" : "turning_radius", json_real(k->turning_radius));
    if (k->has & AP_UNIT_F_REVERSE)
        json_object_set_new(o, "reverse", json_boolean(k->reverse));
    if (k->has & AP_UNIT_F_REVERSE_PENALTY)
        json_object_set_new(o, "reverse_penalty", json_real(k->reverse_penalty));
    if (k->has & AP_UNIT_F_MAX_SPEED)
        json_object_set_new(o, "max_speed", json_real(k->vehicle.max_speed));
    if (k->has & AP_UNIT_F_MAX_ACCEL)
        json_object_set_new(o, "max_accel", json_real(k->vehicle.max_accel));
    if (k->has & AP_UNIT_F_MAX_BRAKE)
        json_object_set_new(o, "max_brake", json_real(k->vehicle.max_brake));
    if (k->has & AP_UNIT_F_MAX_LATERAL)
        json_object_set_new(o, "max_lateral_accel", json_real(k->vehicle.max_lateral_accel));
    if (k->has & AP_UNIT_F_MAX_REVERSE)
        json_object_set_new(o, "max_reverse_speed", json_real(k->vehicle.max_reverse_speed));
    if (k->has & AP_UNIT_F_MAX_TURN_RATE)
        json_object_set_new(o, "max_turn_rate", json_real(k->vehicle.max_turn_rate));
    return o;
}

static json_t *units_json(const ap_config *c)
{
    json_t *units = json_object();
    for (size_t i = 0; i < c->n_units; i++)
        json_object_set_new(units, c->units[i].name, ap_config_unit_kind_json(&c->units[i]));
    return units;
}

char *ap_config_units_text(const ap_config *c)
{
    json_t *u = units_json(c);
    char *s = u != NULL ? json_dumps(u, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17)) : NULL;
    json_decref(u);
    return s;
}

void ap_config_print_units(const ap_config *c, json_t *o)
{
    json_object_set_new(o, "units", units_json(c));
    json_t *caps = json_array();
    for (size_t i = 0; i < c->n_capabilities; i++)
        json_array_append_new(caps, capability_json(c->capabilities[i]));
    json_object_set_new(o, "capabilities", caps);
    json_t *costs = json_object();
    for (size_t i = 0; i < c->n_cap_costs; i++) {
        json_t *t = json_object();
        for (int k = 0; k < AP_TERRAIN_KINDS; k++)
            if (c->cap_costs[i].cost[k] != 0.0)
                json_object_set_new(t, (char[]){AP_TERRAIN_CHARS[k], '\0'}, json_real(c->cap_costs[i].cost[k]));
        json_object_set_new(costs, ap_capability_name(c->cap_costs[i].capability), t);
    }
    json_object_set_new(o, "capability_costs", costs);
}
