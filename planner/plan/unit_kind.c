/* unit_kind.c — named unit kinds (unit_kind.h). */
#include "unit_kind.h"

#include <stdio.h>
#include <string.h>

const ap_unit_kind *ap_unit_kind_find(const ap_unit_kind *kinds, size_t n, const char *name)
{
    for (size_t i = 0; name != NULL && i < n; i++)
        if (strcmp(kinds[i].name, name) == 0)
            return &kinds[i];
    return NULL;
}

void ap_unit_kind_apply(const ap_unit_kind *k, unsigned given, ap_query *q)
{
    unsigned take = k->has & ~given;
    /* The shape is one property: a request's disc (radius) or square (size) replaces the kind's shape whole,
     * else a crate kind's size beside a request's radius would be refused as "not both". */
    if (given & (AP_UNIT_F_RADIUS | AP_UNIT_F_SIZE))
        take &= ~(AP_UNIT_F_RADIUS | AP_UNIT_F_SIZE);
    if (take & AP_UNIT_F_RADIUS)
        q->unit_radius = k->radius;
    if (take & AP_UNIT_F_TURNING)
        q->turning_radius = k->turning_metres ? k->turning_radius / ap_query_meters_per_tile(q) : k->turning_radius;
    if (take & AP_UNIT_F_REVERSE)
        q->reverse = k->reverse;
    if (take & AP_UNIT_F_REVERSE_PENALTY)
        q->reverse_penalty = k->reverse_penalty;
    if (take & AP_UNIT_F_CAPABILITY)
        q->capability = k->capability;
    if (take & AP_UNIT_F_SIZE)
        q->unit_size = k->size;
    if (take & AP_UNIT_F_MAX_SPEED)
        q->vehicle.max_speed = k->vehicle.max_speed;
    if (take & AP_UNIT_F_MAX_ACCEL)
        q->vehicle.max_accel = k->vehicle.max_accel;
    if (take & AP_UNIT_F_MAX_BRAKE)
        q->vehicle.max_brake = k->vehicle.max_brake;
    if (take & AP_UNIT_F_MAX_LATERAL)
        q->vehicle.max_lateral_accel = k->vehicle.max_lateral_accel;
    if (take & AP_UNIT_F_MAX_REVERSE)
        q->vehicle.max_reverse_speed = k->vehicle.max_reverse_speed;
    if (take & AP_UNIT_F_MAX_TURN_RATE)
        q->vehicle.max_turn_rate = k->vehicle.max_turn_rate;
}

bool ap_unit_kind_builtin(const char *name, ap_unit_kind *out)
{
    const ap_vehicle_profile *p = ap_vehicle_profile_find(name);
    if (p == NULL)
        return false;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", p->name);
    out->has = AP_UNIT_F_TURNING | AP_UNIT_F_VEHICLE;
    out->turning_radius = p->turning_radius;
    out->turning_metres = true;
    out->vehicle = p->v;
    return true;
}
