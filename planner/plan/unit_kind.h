/* unit_kind.h — named unit kinds: a configured bundle of unit fields ("tank": radius, capability, turning
 * radius, ...) a request names as "unit": {"kind": "tank"}. The config reads them (config/config.c, key
 * "units"), the wire applies them (proto/wire.c); the planner sees only the resulting query fields.
 *
 * Precedence: a field the request gives wins over the kind's, which wins over the wire's default.
 */
#ifndef AP_UNIT_KIND_H
#define AP_UNIT_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"

#define AP_UNIT_KIND_NAME_MAX 32 /* bytes with the NUL: names are 1..31 of [A-Za-z0-9_.-], the first not '.' */

/* The unit fields a kind may set and a request may give (bit per field). */
enum {
    AP_UNIT_F_RADIUS = 1u << 0,          /* unit.radius */
    AP_UNIT_F_TURNING = 1u << 1,         /* unit.turning_radius */
    AP_UNIT_F_REVERSE = 1u << 2,         /* unit.reverse */
    AP_UNIT_F_REVERSE_PENALTY = 1u << 3, /* unit.reverse_penalty */
    AP_UNIT_F_CAPABILITY = 1u << 4,      /* unit.capability */
    AP_UNIT_F_SIZE = 1u << 5,            /* unit.size */
    AP_UNIT_F_MAX_SPEED = 1u << 6,       /* unit.max_speed (m/s) */
    AP_UNIT_F_MAX_ACCEL = 1u << 7,       /* unit.max_accel (m/s^2) */
    AP_UNIT_F_MAX_BRAKE = 1u << 8,       /* unit.max_brake (m/s^2) */
    AP_UNIT_F_MAX_LATERAL = 1u << 9,     /* unit.max_lateral_accel (m/s^2) */
    AP_UNIT_F_MAX_REVERSE = 1u << 10,    /* unit.max_reverse_speed (m/s) */
    AP_UNIT_F_MAX_TURN_RATE = 1u << 11,  /* unit.max_turn_rate (rad/s) */
};
#define AP_UNIT_F_VEHICLE                                                                                   \
    (AP_UNIT_F_MAX_SPEED | AP_UNIT_F_MAX_ACCEL | AP_UNIT_F_MAX_BRAKE | AP_UNIT_F_MAX_LATERAL |              \
     AP_UNIT_F_MAX_REVERSE | AP_UNIT_F_MAX_TURN_RATE)

/* One kind. The values are those of ap_query's fields of the same meaning (plan.h); `has` says which of them
 * the kind sets. */
typedef struct ap_unit_kind {
    char name[AP_UNIT_KIND_NAME_MAX];
    unsigned has; /* AP_UNIT_F_* */
    double radius, turning_radius, reverse_penalty;
    bool turning_metres; /* turning_radius is in metres (the built-in vehicle kinds, a config kind's
                          * "turning_radius_m"): ap_unit_kind_apply divides it by the query's scale */
    bool reverse;
    uint8_t capability;
    int size;
    ap_vehicle vehicle; /* the kinodynamic limits it sets (AP_UNIT_F_MAX_*) */
} ap_unit_kind;

/* The kind called name among the n kinds, or NULL. Pure. */
const ap_unit_kind *ap_unit_kind_find(const ap_unit_kind *kinds, size_t n, const char *name);

/* The built-in vehicle kind called name ("pedestrian", "car", "tank", "ship": kino/vehicle.h's profiles,
 * with their turning radius in metres, turning_metres set), written to *out; false when there is none.
 * Config kinds of the same name win (the wire looks there first). Pure. */
bool ap_unit_kind_builtin(const char *name, ap_unit_kind *out);

/* Set every field of q that k sets and the request did not give (given: AP_UNIT_F_* bits). The shape is taken
 * whole: a request that gives unit.radius or unit.size takes neither from the kind (a disc replaces a kind's
 * square and the other way round); a kind's turning radius still applies, so a square request on a turning
 * kind must give unit.turning_radius 0 (query_check.c refuses a turning square). A turning radius
 * in metres (k->turning_metres) becomes tiles: turning_radius / ap_query_meters_per_tile(q), so q->map (or
 * q->meters_per_tile) must be set before; a request's own unit.turning_radius is in tiles and never scaled.
 * Pure. */
void ap_unit_kind_apply(const ap_unit_kind *k, unsigned given, ap_query *q);

#endif
