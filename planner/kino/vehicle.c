/* vehicle.c — vehicle limits, built-in profiles and the traversal-time bound (vehicle.h). */
#include "vehicle.h"

#include <math.h>
#include <string.h>

#include "../base/limits.h"

/* Thesis 3.1.1 describes the four kinds; the values are arcpath's: a walking pedestrian with a tight turn,
 * a town car (turning radius 6 m, inside the thesis's 5-8 m EM5 range; lateral limit 8 m/s^2, inside its
 * 10-20 m/s^2 test range scaled to comfort), a slow tracked vehicle, and a ship with weak acceleration,
 * weaker braking and a wide turn. */
/* Backwards (3.1.1): a pedestrian walks back at half speed and turns on the spot at 3 rad/s; a car
 * reverses at 4 m/s; a tracked vehicle backs up at full speed ("should not be artificially limited") and
 * pivots at 0.8 rad/s; a ship goes astern at a quarter of its speed and does not pivot. */
const ap_vehicle_profile ap_vehicle_profiles[] = {
    {"pedestrian", {2.0, 1.5, 3.0, 2.0, 1.0, 3.0}, 0.5},
    {"car", {14.0, 3.0, 6.0, 8.0, 4.0, 0.0}, 6.0},
    {"tank", {10.0, 1.5, 3.0, 4.0, 10.0, 0.8}, 3.0},
    {"ship", {8.0, 0.3, 0.2, 1.0, 2.0, 0.0}, 30.0},
};
const size_t ap_vehicle_profile_count = sizeof ap_vehicle_profiles / sizeof ap_vehicle_profiles[0];

const ap_vehicle_profile *ap_vehicle_profile_find(const char *name)
{
    for (size_t i = 0; name != NULL && i < ap_vehicle_profile_count; i++)
        if (strcmp(ap_vehicle_profiles[i].name, name) == 0)
            return &ap_vehicle_profiles[i];
    return NULL;
}

/* A limit a vehicle may have: finite and at least AP_MIN_KINO_LIMIT (limits.h). */
static bool positive(double x)
{
    return isfinite(x) && x >= AP_MIN_KINO_LIMIT;
}

const char *ap_vehicle_check(const ap_vehicle *v)
{
    if (!positive(v->max_speed))
        return "unit.max_speed";
    if (!positive(v->max_accel))
        return "unit.max_accel";
    if (!positive(v->max_brake))
        return "unit.max_brake";
    if (!positive(v->max_lateral_accel))
        return "unit.max_lateral_accel";
    if (!(v->max_reverse_speed == 0.0 || positive(v->max_reverse_speed)))
        return "unit.max_reverse_speed";
    if (!(v->max_turn_rate == 0.0 || positive(v->max_turn_rate)))
        return "unit.max_turn_rate";
    return NULL;
}

void ap_vehicle_bound_init(ap_vehicle_bound *b, const ap_vehicle *v)
{
    const double a = v->max_accel, d = v->max_brake, vm = v->max_speed;
    *b = (ap_vehicle_bound){a, d, vm, 1.0 / a, 1.0 / d, 1.0 / vm, 1.0 / (a + d), 0.5 / a, 0.5 / d};
}

double ap_vehicle_bound_time(const ap_vehicle_bound *b, double s, double v0, double v1)
{
    const double a = b->a, d = b->d, vm = b->vm;
    if (v1 > vm)
        v1 = vm;
    if (v0 > vm)
        v0 = vm;
    if (v1 < 0.0)
        v1 = 0.0;
    if (!(s > 0.0))
        return v0 > v1 ? (v0 - v1) * b->inv_d : 0.0;
    /* Overshooting: braking from v0 to v1 takes longer than s allows; the braking time is still needed. */
    if (v0 * v0 - v1 * v1 > 2.0 * d * s)
        return (v0 - v1) * b->inv_d;
    /* The end speed may be anything <= v1: when accelerating all the way never exceeds v1, do that. */
    double vend2 = v0 * v0 + 2.0 * a * s;
    if (vend2 <= v1 * v1) {
        double vend = sqrt(vend2);
        if (vend <= vm)
            return (vend - v0) * b->inv_a;
        double dacc = (vm * vm - v0 * v0) * b->inv_2a;
        return (vm - v0) * b->inv_a + (s - dacc) * b->inv_vm;
    }
    /* Accelerate to the peak vp, brake to v1 (Formula 2.3: the two distances add up to s). */
    double vp2 = (2.0 * a * d * s + d * v0 * v0 + a * v1 * v1) * b->inv_ad;
    double vp = sqrt(vp2);
    if (vp <= vm)
        return (vp - v0) * b->inv_a + (vp - v1) * b->inv_d;
    double dacc = (vm * vm - v0 * v0) * b->inv_2a, ddec = (vm * vm - v1 * v1) * b->inv_2d;
    return (vm - v0) * b->inv_a + (vm - v1) * b->inv_d + (s - dacc - ddec) * b->inv_vm;
}

double ap_vehicle_time_bound(const ap_vehicle *v, double s, double v0, double v1)
{
    ap_vehicle_bound b;
    ap_vehicle_bound_init(&b, v);
    return ap_vehicle_bound_time(&b, s, v0, v1);
}
