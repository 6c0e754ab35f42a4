/* wire.c — POST /v1/path and POST /v1/paths: request schemas (read with json_in.h) and answers (written
 * with json_out.h), plus the error bodies every route answers with.
 *
 * Each object is checked for unknown keys first, then its fields in schema order, so the reported field is
 * deterministic for a given body. The wire checks JSON types and shapes only; ranges, combinations and
 * what each algorithm accepts are the planner's (ap_query_validate, plan.h), which names the field and says
 * why. Algorithm names come from the planner's algorithm table (algorithms.h).
 */
#include "wire.h"

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../planner/plan/algorithms.h"
#include "circles.h"
#include "../planner/plan/unit_kind.h"
#include "../planner/world/capability.h"
#include "json_in.h"
#include "json_out.h"
#include "json_scratch.h"

#define AP_WIRE_MAX_DEADLINE_MS 600000

/* ---------------------------------------------------------------------------------------------------------
 * The /v1/path query schema */

static const ap_json_enum ap_smoothing_names[] = {
    {"none", AP_SMOOTH_NONE},
    {"los", AP_SMOOTH_LOS},
    {"taut", AP_SMOOTH_TAUT},
};

/* "start" and "goal" are poses (ap_json_get_pose); goal.heading serves the legal-turn searches. */
static const char *const ap_keys_body[] = {"map",     "start",     "goal",          "unit",           "search",
                                           "deadline_ms", "samples", "obstacles", "goal_tolerance", "corridor", NULL};
static const char *const ap_keys_unit[] = {"kind",           "radius",          "size",           "capability",
                                           "turning_radius", "reverse",         "reverse_penalty", "art_directions",
                                           "max_speed",      "max_accel",       "max_brake",       "max_lateral_accel",
                                           "max_reverse_speed", "max_turn_rate", NULL};
static const char *const ap_keys_search[] = {"algorithm", "connectivity", "smoothing", "turn_penalty",
                                             "headings",  "max_expansions", "probe", "weight", NULL};
static const char *const ap_keys_tolerance[] = {"position", "heading", "speed", NULL};
static const char *const ap_keys_samples[] = {"step", "dt", NULL};
static const char *const ap_keys_corridor[] = {"points", "usable_width", NULL};

/* The defaults of a /v1/path request and of every batch query: no start or goal heading, radii 0,
 * algorithm "auto", connectivity 8, smoothing "los", no samples, no deadline (-1); q.map NULL and
 * q.max_samples 0 (the caller sets them). The other zeroed fields mean the planner's defaults (plan.h). */
static void path_request_defaults(ap_path_request *req)
{
    /* Not the obstacles array (6 KiB): only its first q.n_obstacles entries are ever written or read. */
    memset(req, 0, offsetof(ap_path_request, obstacles));
    req->q.algorithm = AP_ALG_AUTO;
    req->q.connectivity = 8;
    req->q.smoothing = AP_SMOOTH_LOS;
    req->q.vehicle = ap_vehicle_profile_find("car")->v; /* the default vehicle (kino/vehicle.h) */
    req->deadline_ms = -1;
}

/* "map": a required 1..63-byte string, copied to out; *v (if non-NULL) gets the JSON value (borrowed). */
static int get_map_id(const ap_json_reader *r, json_t *root, char out[AP_MAP_ID_MAX], json_t **v)
{
    json_t *s;
    int rc = ap_json_get_string(r, root, "", "map", true, &s);
    if (rc != AP_OK)
        return rc;
    size_t mlen = json_string_length(s);
    const char *mid = json_string_value(s);
    /* Embedded NULs cannot reach us (no JSON_ALLOW_NUL), but the strlen check keeps it obvious. */
    if (mlen < 1 || mlen >= AP_MAP_ID_MAX || strlen(mid) != mlen)
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, "map", "\"map\" must be 1 to %d bytes long",
                            AP_MAP_ID_MAX - 1);
    memcpy(out, mid, mlen + 1);
    if (v != NULL)
        *v = s;
    return AP_OK;
}

/* "deadline_ms": an optional integer 1..600000; *out is left as it is when absent. */
static int get_deadline(const ap_json_reader *r, json_t *root, int64_t *out)
{
    long long dl = *out;
    int rc = ap_json_get_integer(r, root, "", "deadline_ms", false, 1, AP_WIRE_MAX_DEADLINE_MS, &dl, NULL);
    if (rc == AP_OK)
        *out = dl;
    return rc;
}

/* Numbers the query keeps as "0 = absent, use the default" (unit.reverse_penalty, samples.step, and the
 * integers search.headings, unit.art_directions): an explicit 0 on the wire is not "absent", so it goes on
 * as -1, which the planner refuses with its range message. Integers outside int go the same way. */
static double given_real(double v)
{
    return v == 0.0 ? -1.0 : v;
}

static int given_int(long long v)
{
    return v == 0 || v < INT_MIN || v > INT_MAX ? -1 : (int)v;
}

/* A JSON number of any value; the planner judges its range. */
static int get_real(const ap_json_reader *r, json_t *o, const char *prefix, const char *key, double *out,
                    bool *present)
{
    return ap_json_get_number(r, o, prefix, key, false, -INFINITY, INFINITY, out, present);
}

/* An optional JSON integer into *out (given_int); left as it is when absent. */
static int get_int(const ap_json_reader *r, json_t *o, const char *prefix, const char *key, int *out)
{
    long long v = 0;
    bool present = false;
    int rc = ap_json_get_integer(r, o, prefix, key, false, LLONG_MIN, LLONG_MAX, &v, &present);
    if (rc == AP_OK && present)
        *out = given_int(v);
    return rc;
}

/* "unit.capability": a non-empty array of distinct terrain names ("ground", "swamp", "water", "trees");
 * an element that is not one names its index ("unit.capability[1]"). */
static int get_capability(const ap_json_reader *r, json_t *o, uint8_t *out, bool *present)
{
    json_t *v = json_object_get(o, "capability");
    if (v == NULL)
        return AP_OK;
    *present = true;
    const char *f = "unit.capability";
    if (!json_is_array(v) || json_array_size(v) == 0)
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, f,
                            "\"unit.capability\" must be a non-empty array of terrain names: ground, swamp, water, "
                            "trees");
    unsigned set = 0;
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *e = json_array_get(v, i);
        char ef[64];
        snprintf(ef, sizeof ef, "unit.capability[%zu]", i);
        ap_capability bit = json_is_string(e) ? ap_capability_from_name(json_string_value(e), json_string_length(e)) : 0;
        if (bit == 0)
            return ap_json_fail(r->err, AP_E_INVALID_REQUEST, ef,
                                "\"%s\" must be one of: ground, swamp, water, trees", ef);
        if (set & bit)
            return ap_json_fail(r->err, AP_E_INVALID_REQUEST, ef, "\"%s\" names a terrain twice", ef);
        set |= bit;
    }
    *out = (uint8_t)set;
    return AP_OK;
}

/* "unit.kind": a name of 1 .. AP_UNIT_KIND_NAME_MAX - 1 bytes, kept for ap_wire_apply_unit_kind. */
static int get_kind(const ap_json_reader *r, json_t *o, char out[AP_UNIT_KIND_NAME_MAX])
{
    json_t *v;
    int rc = ap_json_get_string(r, o, "unit", "kind", false, &v);
    if (rc != AP_OK || v == NULL)
        return rc;
    size_t n = json_string_length(v);
    if (n < 1 || n >= AP_UNIT_KIND_NAME_MAX || strlen(json_string_value(v)) != n)
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, "unit.kind", "\"unit.kind\" must be 1 to %d bytes long",
                            AP_UNIT_KIND_NAME_MAX - 1);
    memcpy(out, json_string_value(v), n + 1);
    return AP_OK;
}

static int parse_unit(const ap_json_reader *r, json_t *o, ap_query *q, ap_wire_unit *u)
{
    int rc;
    bool has[12] = {false};
    if ((rc = ap_json_check_known(r, o, "unit", ap_keys_unit)) != AP_OK || (rc = get_kind(r, o, u->kind)) != AP_OK ||
        (rc = get_real(r, o, "unit", "max_speed", &q->vehicle.max_speed, &has[6])) != AP_OK ||
        (rc = get_real(r, o, "unit", "max_accel", &q->vehicle.max_accel, &has[7])) != AP_OK ||
        (rc = get_real(r, o, "unit", "max_brake", &q->vehicle.max_brake, &has[8])) != AP_OK ||
        (rc = get_real(r, o, "unit", "max_lateral_accel", &q->vehicle.max_lateral_accel, &has[9])) != AP_OK ||
        (rc = get_real(r, o, "unit", "max_reverse_speed", &q->vehicle.max_reverse_speed, &has[10])) != AP_OK ||
        (rc = get_real(r, o, "unit", "max_turn_rate", &q->vehicle.max_turn_rate, &has[11])) != AP_OK ||
        (rc = get_real(r, o, "unit", "radius", &q->unit_radius, &has[0])) != AP_OK ||
        (rc = get_int(r, o, "unit", "size", &q->unit_size)) != AP_OK ||
        (rc = get_capability(r, o, &q->capability, &has[4])) != AP_OK ||
        (rc = get_real(r, o, "unit", "turning_radius", &q->turning_radius, &has[1])) != AP_OK ||
        (rc = ap_json_get_bool(r, o, "unit", "reverse", &q->reverse)) != AP_OK ||
        (rc = get_real(r, o, "unit", "reverse_penalty", &q->reverse_penalty, &has[3])) != AP_OK)
        return rc;
    if (has[3])
        q->reverse_penalty = given_real(q->reverse_penalty);
    /* 0 is "this kind cannot" inside (vehicle.h), never a value a request gives: refused as -1 */
    if (has[10])
        q->vehicle.max_reverse_speed = given_real(q->vehicle.max_reverse_speed);
    if (has[11])
        q->vehicle.max_turn_rate = given_real(q->vehicle.max_turn_rate);
    has[2] = json_object_get(o, "reverse") != NULL;
    has[5] = json_object_get(o, "size") != NULL;
    const unsigned bits[12] = {AP_UNIT_F_RADIUS,      AP_UNIT_F_TURNING,     AP_UNIT_F_REVERSE,
                               AP_UNIT_F_REVERSE_PENALTY, AP_UNIT_F_CAPABILITY, AP_UNIT_F_SIZE,
                               AP_UNIT_F_MAX_SPEED,   AP_UNIT_F_MAX_ACCEL,   AP_UNIT_F_MAX_BRAKE,
                               AP_UNIT_F_MAX_LATERAL, AP_UNIT_F_MAX_REVERSE, AP_UNIT_F_MAX_TURN_RATE};
    for (int i = 0; i < 12; i++)
        u->given |= has[i] ? bits[i] : 0u;
    if (u->given & AP_UNIT_F_VEHICLE)
        q->timed = true; /* vehicle limits named: every answer gets its speed profile (plan.h timed) */
    return get_int(r, o, "unit", "art_directions", &q->art_directions);
}

int ap_wire_apply_unit_kind(const ap_wire_unit *u, const ap_unit_kind *kinds, size_t n, ap_query *q,
                            ap_wire_error *err)
{
    if (u->kind[0] == '\0')
        return AP_OK;
    const ap_unit_kind *k = ap_unit_kind_find(kinds, n, u->kind);
    ap_unit_kind builtin;
    if (k == NULL && ap_unit_kind_builtin(u->kind, &builtin))
        k = &builtin;
    if (k == NULL) {
#define NAMED "unknown unit kind \"%s\": the config names %s; built in: pedestrian, car, tank, ship"
        char list[AP_UNIT_KIND_NAME_MAX * 34 + 2] = ""; /* (the config holds at most 32 kinds) */
        size_t used = 0;
        for (size_t i = 0; i < n && used < sizeof list; i++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", kinds[i].name);
        if (n == 0)
            return ap_json_fail(err, AP_E_INVALID_REQUEST, "unit.kind",
                                "unknown unit kind \"%s\": the config names no unit kinds; built in: pedestrian, car, "
                                "tank, ship", u->kind);
        /* every name, or where they do not fit in an error's message their number and where to read them (the
         * list was cut mid-name, and the built-in kinds with it: a helper) */
        if (used < sizeof list && (size_t)snprintf(NULL, 0, NAMED, u->kind, list) < sizeof err->message)
            return ap_json_fail(err, AP_E_INVALID_REQUEST, "unit.kind", NAMED, u->kind, list);
#undef NAMED
        return ap_json_fail(err, AP_E_INVALID_REQUEST, "unit.kind",
                            "unknown unit kind \"%s\": the config names %zu kinds (GET /v1/info lists them); built "
                            "in: pedestrian, car, tank, ship", u->kind, n);
    }
    ap_unit_kind_apply(k, u->given, q);
    /* a kind's turning radius in metres, scaled to this map's tiles, can fall outside the tiles' range: say so
     * on unit.kind with the numbers (it was refused on unit.turning_radius, a field the request never sent) */
    const double tr = q->turning_radius;
    if (k->turning_metres && (k->has & AP_UNIT_F_TURNING) && !(u->given & AP_UNIT_F_TURNING) && tr > 0.0 &&
        !(tr >= AP_MIN_TURNING_RADIUS && tr <= AP_MAX_TURNING_RADIUS))
        return ap_json_fail(err, AP_E_INVALID_REQUEST, "unit.kind",
                            "unit kind \"%s\": its turning radius of %g m is %g tiles at %g m a tile, outside "
                            "%g ... %g tiles; give unit.turning_radius in tiles", u->kind, k->turning_radius, tr,
                            ap_query_meters_per_tile(q), AP_MIN_TURNING_RADIUS, AP_MAX_TURNING_RADIUS);
    if (k->has & AP_UNIT_F_VEHICLE)
        q->timed = true; /* a vehicle kind names vehicle limits */
    if (q->map == NULL && q->circles != NULL) {
        /* A circle world has no terrains: the kind's capability is for grid maps, and the rest of the kind
         * (radius, turning radius, limits) applies (a tank was refused on "unit.capability", which the request
         * never sent). A kind's square has no disc to stand for it: refused on unit.kind. */
        if (!(u->given & AP_UNIT_F_CAPABILITY))
            q->capability = 0;
        if ((k->has & AP_UNIT_F_SIZE) && !(u->given & AP_UNIT_F_SIZE) && q->unit_size != 0)
            return ap_json_fail(err, AP_E_INVALID_REQUEST, "unit.kind",
                                "unit kind \"%s\" is a square of %d x %d tiles, and square units move on grid "
                                "cells: a circle map takes discs (unit.radius)",
                                u->kind, q->unit_size, q->unit_size);
    }
    return AP_OK;
}

/* "search.algorithm": a name from the planner's algorithm table; the error lists the table's names. */
static int get_algorithm(const ap_json_reader *r, json_t *o, ap_query *q)
{
    json_t *v;
    int rc = ap_json_get_string(r, o, "search", "algorithm", false, &v);
    if (rc != AP_OK || v == NULL)
        return rc;
    const ap_algorithm_row *row = ap_algorithm_find(json_string_value(v));
    if (row != NULL) {
        q->algorithm = row->id;
        return AP_OK;
    }
    char list[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < ap_algorithm_count && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", ap_algorithms[i].name);
    return ap_json_fail(r->err, AP_E_INVALID_REQUEST, "search.algorithm", "\"search.algorithm\" must be one of: %s",
                        list);
}

/* Record the first kinodynamic-only field a request gives (plan.h kino_field): other kinds refuse it. */
static void kino_given(ap_query *q, const char *field)
{
    if (q->kino_field == NULL)
        q->kino_field = field;
}

/* "goal_tolerance": {"position" (tiles), "heading" (radians), "speed" (m/s)}, each optional; an explicit 0
 * goes on as -1 (given_real) for the planner's range message. */
static int parse_tolerance(const ap_json_reader *r, json_t *o, ap_query *q)
{
    int rc;
    bool has[3] = {false};
    if ((rc = ap_json_check_known(r, o, "goal_tolerance", ap_keys_tolerance)) != AP_OK ||
        (rc = get_real(r, o, "goal_tolerance", "position", &q->tol_position, &has[0])) != AP_OK ||
        (rc = get_real(r, o, "goal_tolerance", "heading", &q->tol_heading, &has[1])) != AP_OK ||
        (rc = get_real(r, o, "goal_tolerance", "speed", &q->tol_speed, &has[2])) != AP_OK)
        return rc;
    double *v[3] = {&q->tol_position, &q->tol_heading, &q->tol_speed};
    for (int i = 0; i < 3; i++)
        if (has[i])
            *v[i] = given_real(*v[i]);
    kino_given(q, "goal_tolerance");
    return AP_OK;
}

static int parse_search(const ap_json_reader *r, json_t *o, ap_query *q)
{
    int smooth = (int)q->smoothing;
    int rc;
    if ((rc = ap_json_check_known(r, o, "search", ap_keys_search)) != AP_OK ||
        (rc = get_algorithm(r, o, q)) != AP_OK ||
        (rc = get_int(r, o, "search", "connectivity", &q->connectivity)) != AP_OK ||
        (rc = ap_json_get_enum(r, o, "search", "smoothing", ap_smoothing_names,
                               sizeof ap_smoothing_names / sizeof ap_smoothing_names[0], &smooth)) != AP_OK ||
        (rc = get_real(r, o, "search", "turn_penalty", &q->turn_penalty, NULL)) != AP_OK ||
        (rc = get_int(r, o, "search", "headings", &q->headings)) != AP_OK)
        return rc;
    q->smoothing = (ap_smoothing)smooth;
    long long cap = 0;
    bool has_cap = false;
    rc = ap_json_get_integer(r, o, "search", "max_expansions", false, LLONG_MIN, LLONG_MAX, &cap, &has_cap);
    if (rc == AP_OK && has_cap) {
        /* 0 and negatives go on as a value above the limit, which the planner refuses with its range */
        q->max_expansions = cap >= 1 ? (uint64_t)cap : UINT64_MAX;
        kino_given(q, "search.max_expansions");
    }
    if (rc == AP_OK && (rc = ap_json_get_bool(r, o, "search", "probe", &q->probe)) == AP_OK &&
        json_object_get(o, "probe") != NULL)
        kino_given(q, "search.probe");
    bool has_weight = false;
    if (rc == AP_OK && (rc = get_real(r, o, "search", "weight", &q->weight, &has_weight)) == AP_OK && has_weight) {
        q->weight = given_real(q->weight); /* an explicit 0 goes on as -1, for the planner's range message */
        kino_given(q, "search.weight");
    }
    return rc;
}

/* "obstacles": an optional array of at most AP_MAX_OBSTACLES circles (finite centres within
 * AP_MAX_OBSTACLE_COORD, radius in (0, AP_MAX_OBSTACLE_RADIUS]), copied into req->obstacles. */
static int get_obstacles(const ap_json_reader *r, json_t *root, ap_path_request *req)
{
    static const ap_circle_limits lim = {AP_MAX_OBSTACLES, AP_MAX_OBSTACLE_COORD, AP_MAX_OBSTACLE_RADIUS, true};
    ap_circle *c;
    size_t n;
    int rc = ap_json_get_circles(r, root, "", "obstacles", false, &lim, &c, &n);
    if (rc == AP_E_NOMEM)
        return ap_json_fail(r->err, AP_E_NOMEM, "", "out of memory");
    if (rc != AP_OK)
        return rc;
    if (n > 0)
        memcpy(req->obstacles, c, n * sizeof *c);
    free(c);
    req->q.obstacles = n > 0 ? req->obstacles : NULL;
    req->q.n_obstacles = n;
    return AP_OK;
}

/* "corridor" (corridor mode, world/zone.h): {"points": [[x, y], ...] (2 .. AP_ZONE_MAX_POINTS finite
 * coordinates within AP_MAX_OBSTACLE_COORD, tiles), "usable_width": tiles in (0, AP_ZONE_MAX_HALF]} into
 * req->zone; q.zone points at it. Kinodynamic only (kino_given). Errors name "corridor.points[i]" etc. */
static int get_corridor(const ap_json_reader *r, json_t *root, ap_path_request *req)
{
    json_t *o, *pts;
    int rc;
    if ((rc = ap_json_get_object(r, root, "", "corridor", false, &o)) != AP_OK || o == NULL)
        return rc;
    /* the zone lies past the defaults' memset: its world and piece grid are the planner's to set */
    req->zone.grid = NULL;
    req->zone.inner = (ap_world){0};
    if ((rc = ap_json_check_known(r, o, "corridor", ap_keys_corridor)) != AP_OK ||
        (rc = ap_json_get_number(r, o, "corridor", "usable_width", true, 0.0, AP_ZONE_MAX_HALF, &req->zone.half,
                                 NULL)) != AP_OK)
        return rc;
    if (!(req->zone.half > 0.0))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, "corridor.usable_width", "must be above 0 (tiles)");
    pts = json_object_get(o, "points");
    if (!json_is_array(pts) || json_array_size(pts) < 2 || json_array_size(pts) > AP_ZONE_MAX_POINTS)
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, "corridor.points",
                            "must be an array of 2 to %d points [x, y]", AP_ZONE_MAX_POINTS);
    req->zone.n = json_array_size(pts);
    for (size_t i = 0; i < req->zone.n; i++) {
        json_t *p = json_array_get(pts, i), *x = json_array_get(p, 0), *y = json_array_get(p, 1);
        char field[48];
        snprintf(field, sizeof field, "corridor.points[%u]", (unsigned)i); /* i < AP_ZONE_MAX_POINTS */
        if (!json_is_array(p) || json_array_size(p) != 2 || !json_is_number(x) || !json_is_number(y) ||
            !(fabs(json_number_value(x)) <= AP_MAX_OBSTACLE_COORD) ||
            !(fabs(json_number_value(y)) <= AP_MAX_OBSTACLE_COORD))
            return ap_json_fail(r->err, AP_E_INVALID_REQUEST, field, "must be [x, y], finite numbers within %g",
                                (double)AP_MAX_OBSTACLE_COORD);
        req->zone.pts[i][0] = json_number_value(x);
        req->zone.pts[i][1] = json_number_value(y);
    }
    req->q.zone = &req->zone;
    kino_given(&req->q, "corridor");
    return AP_OK;
}

/* The /v1/path body (root, an object) into req, which holds the defaults. */
static int parse_body(const ap_json_reader *r, json_t *root, ap_path_request *req)
{
    ap_query *q = &req->q;
    json_t *o;
    int rc;
    bool has_speed[2] = {false, false};

    if ((rc = ap_json_check_known(r, root, "", ap_keys_body)) != AP_OK ||
        (rc = get_map_id(r, root, req->map, NULL)) != AP_OK ||
        (rc = ap_json_get_pose_speed(r, root, "", "start", &q->sx, &q->sy, &q->sheading, &q->has_sheading,
                                     &q->start_speed, &has_speed[0])) != AP_OK ||
        (rc = ap_json_get_pose_speed(r, root, "", "goal", &q->gx, &q->gy, &q->gheading, &q->has_gheading,
                                     &q->goal_speed, &has_speed[1])) != AP_OK)
        return rc;
    /* accepted by kinodynamic and timed queries (plan.h speed_field) */
    if (has_speed[0] || has_speed[1])
        q->speed_field = has_speed[0] ? "start.speed" : "goal.speed";
    /* Every key is known (checked above) and map, start and goal are read: when they are all the body holds
     * (most short queries), each optional member below is absent and its default stands. */
    if (json_object_size(root) == 3)
        return AP_OK;
    if ((rc = ap_json_get_object(r, root, "", "goal_tolerance", false, &o)) != AP_OK ||
        (o != NULL && (rc = parse_tolerance(r, o, q)) != AP_OK))
        return rc;

    if ((rc = ap_json_get_object(r, root, "", "unit", false, &o)) != AP_OK ||
        (o != NULL && (rc = parse_unit(r, o, q, &req->unit)) != AP_OK))
        return rc;

    if ((rc = ap_json_get_object(r, root, "", "search", false, &o)) != AP_OK ||
        (o != NULL && (rc = parse_search(r, o, q)) != AP_OK))
        return rc;

    if ((rc = get_deadline(r, root, &req->deadline_ms)) != AP_OK)
        return rc;

    /* samples: one of step (tiles) and dt (seconds); without dt, step is required. Both: the planner refuses. */
    bool has_step = false, has_dt = false;
    if ((rc = ap_json_get_object(r, root, "", "samples", false, &o)) != AP_OK ||
        (o != NULL &&
         ((rc = ap_json_check_known(r, o, "samples", ap_keys_samples)) != AP_OK ||
          (rc = get_real(r, o, "samples", "dt", &q->sample_dt, &has_dt)) != AP_OK ||
          (rc = ap_json_get_number(r, o, "samples", "step", !has_dt, -INFINITY, INFINITY, &q->sample_step,
                                   &has_step)) != AP_OK)))
        return rc;
    if (has_step)
        q->sample_step = given_real(q->sample_step);
    if (has_dt)
        q->sample_dt = given_real(q->sample_dt);
    if ((rc = get_corridor(r, root, req)) != AP_OK)
        return rc;
    return get_obstacles(r, root, req);
}

/* Room for jansson's tree of a short body (some 2 KiB for start and goal); a larger one spills to malloc. */
#define AP_WIRE_SCRATCH 4096

int ap_wire_parse_path_request(const char *body, size_t len, ap_path_request *req, ap_wire_error *err)
{
    ap_json_reader r;
    json_t *root;
    path_request_defaults(req);
    ap_json_reader_init(&r, err, 0);
    _Alignas(16) char buf[AP_WIRE_SCRATCH];
    ap_json_scratch scratch;
    ap_json_scratch_begin(&scratch, buf, sizeof buf); /* the tree is released below, before the end */
    int rc = ap_json_load_object(&r, body, len, &root);
    if (rc == AP_OK) {
        rc = parse_body(&r, root, req);
        json_decref(root);
    }
    ap_json_scratch_end(&scratch);
    return rc;
}

int ap_wire_parse_path_object(struct json_t *obj, ap_path_request *req, ap_wire_error *err)
{
    ap_json_reader r;
    path_request_defaults(req);
    ap_json_reader_init(&r, err, 0);
    if (!json_is_object(obj))
        return ap_json_fail(err, AP_E_INVALID_REQUEST, "", "the query must be a JSON object");
    return parse_body(&r, obj, req);
}

/* ---------------------------------------------------------------------------------------------------------
 * POST /v1/paths (batch). Each query goes through parse_body, the very validator of /v1/path, on a shallow
 * copy of the element with the batch's "map" added, so the two endpoints can never disagree about a field
 * (and a field added to /v1/path is accepted in batches at once). */

static const char *const ap_keys_batch[] = {"map", "queries", "deadline_ms", NULL};

static int parse_batch_item(json_t *elem, json_t *map, ap_batch_item *it)
{
    ap_path_request pr;
    ap_json_reader r;
    path_request_defaults(&pr);
    ap_json_reader_init(&r, &it->err, 0);
    if (!json_is_object(elem))
        return ap_json_fail(&it->err, AP_E_INVALID_REQUEST, "", "each query must be a JSON object");
    /* "map" and "deadline_ms" belong to the batch; parse_body would accept them, so refuse them here. */
    if (json_object_get(elem, "map") != NULL)
        return ap_json_fail(&it->err, AP_E_INVALID_REQUEST, "map", "unknown field \"map\" (the batch names the map)");
    if (json_object_get(elem, "deadline_ms") != NULL)
        return ap_json_fail(&it->err, AP_E_INVALID_REQUEST, "deadline_ms",
                            "unknown field \"deadline_ms\" (the batch has one deadline)");
    json_t *copy = json_copy(elem);
    if (copy == NULL || json_object_set(copy, "map", map) != 0) {
        json_decref(copy);
        return ap_json_fail(&it->err, AP_E_NOMEM, "", "out of memory");
    }
    int rc = parse_body(&r, copy, &pr);
    json_decref(copy);
    if (rc == AP_OK) {
        it->q = pr.q;
        /* pr is this function's: the item keeps its own copy of the obstacles. */
        if (pr.q.n_obstacles > 0) {
            it->obstacles = malloc(pr.q.n_obstacles * sizeof *it->obstacles);
            if (it->obstacles == NULL)
                return ap_json_fail(&it->err, AP_E_NOMEM, "", "out of memory");
            memcpy(it->obstacles, pr.obstacles, pr.q.n_obstacles * sizeof *it->obstacles);
            it->q.obstacles = it->obstacles;
        }
        if (pr.q.zone != NULL) { /* and of the corridor */
            if ((it->zone = malloc(sizeof *it->zone)) == NULL)
                return ap_json_fail(&it->err, AP_E_NOMEM, "", "out of memory");
            *it->zone = pr.zone;
            it->q.zone = it->zone;
        }
        it->unit = pr.unit;
    }
    return rc;
}

/* "queries": a required array of 1..max_items elements; *out (borrowed) gets it. */
static int get_queries(const ap_json_reader *r, json_t *root, size_t max_items, json_t **out)
{
    json_t *queries = json_object_get(root, "queries");
    if (queries == NULL)
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, "queries", "missing required field \"queries\"");
    if (!json_is_array(queries))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, "queries", "\"queries\" must be an array");
    if (json_array_size(queries) < 1 || json_array_size(queries) > max_items)
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, "queries",
                            "\"queries\" must hold 1 to %zu queries (got %zu)", max_items, json_array_size(queries));
    *out = queries;
    return AP_OK;
}

int ap_wire_parse_batch_request(const char *body, size_t len, size_t max_items, ap_batch_request *req,
                                ap_wire_error *err)
{
    ap_json_reader r;
    json_t *root, *map = NULL, *queries = NULL;
    memset(req, 0, sizeof *req);
    req->deadline_ms = -1;
    ap_json_reader_init(&r, err, 0);
    int rc = ap_json_load_object(&r, body, len, &root);
    if (rc != AP_OK)
        return rc;
    if ((rc = ap_json_check_known(&r, root, "", ap_keys_batch)) == AP_OK &&
        (rc = get_map_id(&r, root, req->map, &map)) == AP_OK &&
        (rc = get_queries(&r, root, max_items, &queries)) == AP_OK &&
        (rc = get_deadline(&r, root, &req->deadline_ms)) == AP_OK) {
        size_t n = json_array_size(queries);
        req->items = calloc(n, sizeof *req->items);
        if (req->items == NULL) {
            rc = ap_json_fail(err, AP_E_NOMEM, "", "out of memory");
        } else {
            req->n = n;
            for (size_t i = 0; i < n; i++)
                req->items[i].status = parse_batch_item(json_array_get(queries, i), map, &req->items[i]);
        }
    }
    json_decref(root);
    if (rc != AP_OK)
        ap_wire_batch_free(req);
    return rc;
}

void ap_wire_batch_free(ap_batch_request *req)
{
    if (req == NULL)
        return;
    for (size_t i = 0; i < req->n; i++) {
        free(req->items[i].obstacles);
        free(req->items[i].zone);
    }
    free(req->items);
    req->items = NULL;
    req->n = 0;
}

/* ---------------------------------------------------------------------------------------------------------
 * Answers and error bodies, written straight into an ap_jbuf (json_out.h). */

static void write_samples(ap_jbuf *b, const ap_result *r, double step)
{
    double chord = 0.0;
    AP_JBUF_LIT(b, "[");
    for (size_t i = 0; i < r->n_samples && !b->failed; i++) {
        const ap_pose *p = &r->samples[i];
        double d;
        /* The planner samples at 0, step, 2*step, ... and once more at the end, so the distance is
         * implied; recomputing it as i*step (rather than summing) keeps it exact. */
        if (r->sample_times != NULL)
            d = r->sample_times[i].d;
        else if (i + 1 == r->n_samples)
            d = r->length;
        else if (step > 0.0)
            d = fmin((double)i * step, r->length);
        else {
            /* No step given: the best we can do is the distance along the chords between samples. */
            if (i > 0)
                chord += hypot(p->x - r->samples[i - 1].x, p->y - r->samples[i - 1].y);
            d = fmin(chord, r->length);
        }
        if (i > 0)
            AP_JBUF_LIT(b, ",");
        AP_JBUF_LIT(b, "{\"d\":");
        ap_jbuf_real(b, d);
        AP_JBUF_LIT(b, ",\"x\":");
        ap_jbuf_real(b, p->x);
        AP_JBUF_LIT(b, ",\"y\":");
        ap_jbuf_real(b, p->y);
        AP_JBUF_LIT(b, ",\"heading\":");
        ap_jbuf_real(b, p->heading);
        if (r->sample_times != NULL) {
            AP_JBUF_LIT(b, ",\"t\":");
            ap_jbuf_real(b, r->sample_times[i].t);
            AP_JBUF_LIT(b, ",\"v\":");
            ap_jbuf_real(b, r->sample_times[i].v);
        }
        AP_JBUF_LIT(b, "}");
    }
    AP_JBUF_LIT(b, "]");
}

/* {"expanded", "lane"?, "queue_us"?, "search_us"?}: lane and times when st is given, queue_us only when
 * queue (a whole request, not a batch item). */
static void write_stats(ap_jbuf *b, uint64_t expanded, const ap_path_stats *st, bool queue)
{
    AP_JBUF_LIT(b, "{\"expanded\":");
    ap_jbuf_u64(b, expanded);
    if (st != NULL) {
        AP_JBUF_LIT(b, ",\"lane\":");
        ap_jbuf_str(b, st->lane ? st->lane : "fast");
        if (queue) {
            AP_JBUF_LIT(b, ",\"queue_us\":");
            ap_jbuf_u64(b, st->queue_us);
        }
        AP_JBUF_LIT(b, ",\"search_us\":");
        ap_jbuf_u64(b, st->search_us);
    }
    AP_JBUF_LIT(b, "}");
}

const ap_json_enum ap_wire_no_path_reasons[AP_WIRE_NO_PATH_REASONS] = {
    [AP_NO_PATH_NOT_FOUND] = {"not_found", AP_NO_PATH_NOT_FOUND},
    [AP_NO_PATH_UNREACHABLE] = {"unreachable", AP_NO_PATH_UNREACHABLE},
    [AP_NO_PATH_STATE_LIMIT] = {"state_limit", AP_NO_PATH_STATE_LIMIT},
};

/* The answer object; map_id NULL leaves "map" out (batch items); item_stats writes the per-item stats
 * ("expanded", "lane", "search_us") instead of the request's. */
static void write_result(ap_jbuf *b, const char *map_id, const ap_result *r, const ap_path_stats *st, bool item_stats)
{
    AP_JBUF_LIT(b, "{\"status\":");
    ap_jbuf_str(b, ap_error_lookup(r->status)->code);
    if (map_id != NULL) {
        AP_JBUF_LIT(b, ",\"map\":");
        ap_jbuf_str(b, map_id);
        if (st != NULL && st->map_version != 0) {
            AP_JBUF_LIT(b, ",\"map_version\":");
            ap_jbuf_u64(b, st->map_version);
        }
    }
    if (r->status == AP_OK) {
        AP_JBUF_LIT(b, ",\"grid_cost\":");
        ap_jbuf_real(b, r->grid_cost);
        AP_JBUF_LIT(b, ",\"length\":");
        ap_jbuf_real(b, r->length);
        if (r->timing != NULL) {
            AP_JBUF_LIT(b, ",\"duration_s\":");
            ap_jbuf_real(b, r->duration_s);
        }
        if (r->probe)
            AP_JBUF_LIT(b, ",\"probe\":true");
        if (r->capped)
            AP_JBUF_LIT(b, ",\"capped\":true");
        if (r->clear)
            AP_JBUF_LIT(b, ",\"clear\":true,\"waypoints\":[");
        else
            AP_JBUF_LIT(b, ",\"clear\":false,\"waypoints\":[");
        for (size_t i = 0; i < r->n_waypoints; i++) {
            if (i > 0)
                AP_JBUF_LIT(b, ",");
            ap_jbuf_point(b, r->waypoints[i][0], r->waypoints[i][1]);
        }
        AP_JBUF_LIT(b, "],\"segments\":");
        ap_jbuf_segments_timed(b, r->segments, r->timing, r->n_segments);
        double step = st ? st->sample_step : 0.0;
        if (r->n_samples > 0 || step > 0.0) {
            AP_JBUF_LIT(b, ",\"samples\":");
            write_samples(b, r, step);
        }
    } else if (r->status == AP_NO_PATH) {
        const unsigned reason = (unsigned)r->no_path_reason; /* (out of range: the weaker claim) */
        AP_JBUF_LIT(b, ",\"reason\":");
        ap_jbuf_str(b, ap_wire_no_path_reasons[reason < AP_WIRE_NO_PATH_REASONS ? reason : 0].name);
    }
    AP_JBUF_LIT(b, ",\"stats\":");
    write_stats(b, r->expanded, st, !item_stats);
    AP_JBUF_LIT(b, "}");
}

/* {"code", "message", "field"?, "line"?, "column"?, "map_version"?} — the inside of an error body. */
static void write_error_object(ap_jbuf *b, int status, const char *message, const char *field, int line, int col,
                               uint64_t map_version)
{
    const ap_error_info *info = ap_error_lookup(status);
    AP_JBUF_LIT(b, "{\"code\":");
    ap_jbuf_str(b, info->code);
    AP_JBUF_LIT(b, ",\"message\":");
    ap_jbuf_str(b, message ? message : info->message);
    if (field != NULL && field[0] != '\0') {
        AP_JBUF_LIT(b, ",\"field\":");
        ap_jbuf_str(b, field);
    }
    if (line > 0) {
        AP_JBUF_LIT(b, ",\"line\":");
        ap_jbuf_int(b, line);
    }
    if (col > 0) {
        AP_JBUF_LIT(b, ",\"column\":");
        ap_jbuf_int(b, col);
    }
    if (map_version != 0) {
        AP_JBUF_LIT(b, ",\"map_version\":");
        ap_jbuf_u64(b, map_version);
    }
    AP_JBUF_LIT(b, "}");
}

static bool is_answer_status(int status)
{
    return status == AP_OK || status == AP_NO_PATH || status == AP_TIMEOUT;
}

static int write_error_body(ap_jbuf *b, int status, const char *message, const char *field, int line, int col,
                            uint64_t map_version, int *http)
{
    if (http != NULL)
        *http = ap_error_lookup(status)->http;
    AP_JBUF_LIT(b, "{\"error\":");
    write_error_object(b, status, message, field, line, col, map_version);
    AP_JBUF_LIT(b, "}");
    return ap_jbuf_status(b);
}

int ap_wire_write_error(ap_jbuf *b, int status, const char *message, const char *field, int line, int col,
                        int *http)
{
    return write_error_body(b, status, message, field, line, col, 0, http);
}

int ap_wire_write_query_error(ap_jbuf *b, int status, const char *message, const char *field, uint64_t map_version,
                              int *http)
{
    /* Only a 422 is a finding about the map's cells (outside it, on a blocked cell), which a client may have
     * just edited; a 400 is about the request whatever the map, a refusal (503, 499) about the server. */
    return write_error_body(b, status, message, field, 0, 0, ap_error_lookup(status)->http == 422 ? map_version : 0,
                            http);
}

int ap_wire_write_path(ap_jbuf *b, const char *map_id, const ap_result *r, const ap_path_stats *st)
{
    if (!is_answer_status(r->status))
        return ap_wire_write_query_error(b, r->status, r->message[0] ? r->message : NULL, r->field,
                                         st != NULL ? st->map_version : 0, NULL);
    write_result(b, map_id ? map_id : "", r, st, false);
    return ap_jbuf_status(b);
}

char *ap_wire_encode_path(const char *map_id, const ap_result *r, const ap_path_stats *st, size_t *len)
{
    ap_jbuf b;
    ap_jbuf_init(&b, NULL, 0);
    ap_wire_write_path(&b, map_id, r, st);
    return ap_jbuf_take(&b, len);
}

char *ap_wire_encode_error(int status, const char *message, const char *field, int line, int col, int *http,
                           size_t *len)
{
    ap_jbuf b;
    ap_jbuf_init(&b, NULL, 0);
    ap_wire_write_error(&b, status, message, field, line, col, http);
    return ap_jbuf_take(&b, len);
}

int ap_wire_write_batch_begin(ap_jbuf *b, const char *map_id, uint64_t map_version)
{
    AP_JBUF_LIT(b, "{\"status\":\"ok\",\"map\":");
    ap_jbuf_str(b, map_id);
    if (map_version != 0) {
        AP_JBUF_LIT(b, ",\"map_version\":");
        ap_jbuf_u64(b, map_version);
    }
    AP_JBUF_LIT(b, ",\"results\":[");
    return ap_jbuf_status(b);
}

int ap_wire_write_batch_item_error(ap_jbuf *b, bool first, int status, const char *message, const char *field)
{
    if (!first)
        AP_JBUF_LIT(b, ",");
    AP_JBUF_LIT(b, "{\"status\":\"error\",\"error\":");
    write_error_object(b, status, message, field, 0, 0, 0);
    AP_JBUF_LIT(b, "}");
    return ap_jbuf_status(b);
}

int ap_wire_write_batch_item(ap_jbuf *b, bool first, const ap_result *r, const ap_path_stats *st)
{
    if (!is_answer_status(r->status))
        return ap_wire_write_batch_item_error(b, first, r->status, r->message[0] ? r->message : NULL, r->field);
    if (!first)
        AP_JBUF_LIT(b, ",");
    /* A non-finite number (a planner bug) must not poison the whole batch: that item alone becomes an
     * internal error. */
    size_t mark = b->len;
    write_result(b, NULL, r, st, true);
    if (b->failed && b->bad_number) {
        b->len = mark;
        b->p[b->len] = '\0';
        b->failed = b->bad_number = false;
        ap_wire_write_batch_item_error(b, true, AP_E_INTERNAL, NULL, NULL); /* comma already written */
    }
    return ap_jbuf_status(b);
}

int ap_wire_write_batch_end(ap_jbuf *b, uint64_t expanded, const ap_path_stats *st)
{
    AP_JBUF_LIT(b, "],\"stats\":");
    write_stats(b, expanded, st, true);
    AP_JBUF_LIT(b, "}");
    return ap_jbuf_status(b);
}
