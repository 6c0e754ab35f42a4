/* vehicle.h — a vehicle's physical limits (speed, acceleration, braking, lateral acceleration), the four
 * built-in profiles and the admissible traversal-time lower bound the kinodynamic search uses as heuristic.
 *
 * Units: speeds in m/s, accelerations in m/s^2 (all positive), distances in metres here (the search converts
 * tiles with meters_per_tile), times in seconds. Pure values and functions; thread-safe.
 *
 * Source: Schnieders, "AIPATH: Movement Planning in Physically Constrained Domains" (MSc thesis, Maastricht
 * 2014): section 3.1.1 (the vehicle descriptions behind the profiles), section 2 (Formulas 2.1-2.3, uniformly
 * accelerated motion) and section 4.2.2 (eq. 4.1 and Algorithm 2, the traversal time estimate).
 */
#ifndef AP_KINO_VEHICLE_H
#define AP_KINO_VEHICLE_H
#include <stdbool.h>
#include <stddef.h>

/* The limits of one vehicle. The first four finite and >= AP_MIN_KINO_LIMIT (limits.h) in a valid query, the
 * last two that or 0 (ap_vehicle_check); on the wire every limit a request gives is > 0 (0 is only "this kind
 * cannot"). */
typedef struct ap_vehicle {
    double max_speed;         /* m/s, forward */
    double max_accel;         /* m/s^2, speeding up (forward or backwards) */
    double max_brake;         /* m/s^2, slowing down (positive; forward or backwards) */
    double max_lateral_accel; /* m/s^2: v^2 / r <= this on every arc */
    double max_reverse_speed; /* m/s, backwards (used with unit.reverse); 0 = cannot drive backwards */
    double max_turn_rate;     /* rad/s turning on the spot at speed 0; 0 = cannot turn on the spot */
} ap_vehicle;

/* A built-in vehicle profile: its limits and its turning radius in metres (thesis 3.1.1; the thesis gives
 * no numbers, these are arcpath's choices, documented in README "Kinodynamic paths"). Every profile may
 * drive backwards (max_reverse_speed > 0, with unit.reverse); the pedestrian and the tank turn on the spot
 * (max_turn_rate > 0), the car and the ship do not (3.1.1). */
typedef struct ap_vehicle_profile {
    const char *name;      /* "pedestrian", "car", "tank", "ship" */
    ap_vehicle v;
    double turning_radius; /* metres (tiles on a map of meters_per_tile 1) */
} ap_vehicle_profile;

/* The four built-in profiles, in that order; the car is the default of a query that names none. */
extern const ap_vehicle_profile ap_vehicle_profiles[];
extern const size_t ap_vehicle_profile_count;

/* The built-in profile called name, or NULL. Pure. */
const ap_vehicle_profile *ap_vehicle_profile_find(const char *name);

/* The first limit of v that is not finite and >= AP_MIN_KINO_LIMIT (max_reverse_speed and max_turn_rate: nor
 * 0), as its wire field ("unit.max_speed", "unit.max_accel", "unit.max_brake",
 * "unit.max_lateral_accel", "unit.max_reverse_speed", "unit.max_turn_rate"), or NULL when all are valid.
 * Pure. */
const char *ap_vehicle_check(const ap_vehicle *v);

/* A lower bound (seconds) on the time any motion of v needs to drive a path of length >= s metres, starting
 * at speed v0 (0 <= v0 <= max_speed) and ending at a speed <= v1 (>= 0), with speed in [0, max_speed],
 * dv/dt <= max_accel and -dv/dt <= max_brake. It is the exact minimum of the 1-D problem (bang-bang:
 * accelerate, cruise at max_speed, brake), i.e. eq. 4.1 / Algorithm 2 of the thesis with two corrections
 * that keep it admissible:
 *  - the cruise case is t_acc + t_dec + (s - d_acc - d_dec) / v_max, tested by s >= d_acc + d_dec; the
 *    thesis's s / v_max + (t_acc + t_dec) / 2, tested by s / v_max >= t_acc + t_dec, overestimates the
 *    time whenever v0 > 0 or v1 > 0 (it assumes both ramps start from rest);
 *  - overshooting (v0^2 - v1^2 > 2 d s: the vehicle cannot brake to v1 within s) returns the braking time
 *    (v0 - v1) / d, which every motion needs, instead of Algorithms 3-5's loop or turn-around estimates
 *    (those assume a manoeuvre shape and are not proven lower bounds); undershooting (v1 not reachable
 *    within s) needs no case because the end speed is only bounded above.
 * s <= 0 gives the braking time max(0, v0 - v1) / d.
 * Reverse driving (kino.h): the same function bounds a motion that may change direction at rest when it is
 * given the speed magnitude |v0| and a vehicle whose max_speed is max(max_speed, max_reverse_speed): the
 * magnitude of any such motion is a 1-D profile under the same limits (it falls at most at max_brake, to 0
 * at a cusp, and rises at most at max_accel, forward or backwards), and the path length it covers is still
 * at least s. Turning on the spot takes time at speed 0 and covers no distance, so it only adds time. Pure. */
double ap_vehicle_time_bound(const ap_vehicle *v, double s, double v0, double v1);

/* ap_vehicle_time_bound's constants for one vehicle, so a search that bounds many states divides only once:
 * the limits and their reciprocals. Fill with ap_vehicle_bound_init; a plain value, thread-safe to share. */
typedef struct ap_vehicle_bound {
    double a, d, vm;                       /* max_accel, max_brake, max_speed */
    double inv_a, inv_d, inv_vm, inv_ad;   /* 1 / a, 1 / d, 1 / vm, 1 / (a + d) */
    double inv_2a, inv_2d;                 /* 1 / (2 a), 1 / (2 d) */
} ap_vehicle_bound;

/* *b for vehicle v (limits > 0 and finite). Pure. */
void ap_vehicle_bound_init(ap_vehicle_bound *b, const ap_vehicle *v);

/* ap_vehicle_time_bound(v, s, v0, v1) for the v b was made from: the same closed form, each division by a
 * limit a multiplication by its reciprocal (so the value may differ from an exact evaluation in the last
 * bits, ~1e-16 relative; ap_vehicle_time_bound itself is this function). Pure. */
double ap_vehicle_bound_time(const ap_vehicle_bound *b, double s, double v0, double v1);

#endif
