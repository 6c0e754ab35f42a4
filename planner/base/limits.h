/* limits.h — the request limits shared by the planner, the configuration and the wire format: one place for
 * every number a query, a unit profile or a config file is checked against (README "Limits and memory",
 * proto/openapi.yaml). The planner validates queries against these (ap_query_validate, plan.h); config.c
 * validates unit profiles and defaults with them; nothing else restates them.
 *
 * Lengths in tiles, angles in radians, penalties as the search charges them (multipliers or tiles per
 * radian). Header-only constants; no state.
 */
#ifndef AP_LIMITS_H
#define AP_LIMITS_H

/* The unit's disc: radius in [0, AP_MAX_UNIT_RADIUS] tiles (unit.radius, profiles[].radius). Bounded so the
 * swept-disc checks and the hit-check tables (profile.h) stay a few cells wide. */
#define AP_MAX_UNIT_RADIUS 16.0

/* A square unit's side: unit.size k in [1, AP_MAX_UNIT_SIZE] cells (Harabor's true clearance, stored up to
 * 255 per cell; world/clearance.h). */
#define AP_MAX_UNIT_SIZE 64

/* Minimum turning radius (unit.turning_radius, tiles): 0 (turns on the spot), or in [AP_MIN_TURNING_RADIUS,
 * AP_MAX_TURNING_RADIUS] (> 0 for unit profiles and the legal-turn searches). Bounded above by the directional
 * lattice: an edge's arc must fit the profile's window. Bounded below because an arc of a few 1e-12 tiles is
 * lost to rounding beside the tile coordinates it joins: a legal-turn answer at 1e-12 kept a line whose stated
 * heading was 0.44 rad off its direction, and at 1e-200 two distinct points were joined by no segment at all
 * (a helper, "ok" and "clear": true both times); a thousandth of a tile is below any unit's turn. */
#define AP_MIN_TURNING_RADIUS 1e-3
#define AP_MAX_TURNING_RADIUS 64.0

/* samples.step: 0 (no samples) or at least this many tiles, so a long path cannot ask for billions of poses
 * by a tiny step; the count is capped separately by max_samples. */
#define AP_MIN_SAMPLE_STEP 0.01

/* Most poses one answer may carry when the query leaves max_samples 0 (config max_samples' default). */
#define AP_DEFAULT_MAX_SAMPLES 100000

/* unit.reverse_penalty: a multiplier in [AP_MIN_REVERSE_PENALTY, AP_MAX_REVERSE_PENALTY] on lengths driven
 * backwards (Pinter, "Other options: backing up"); 0 in a query = AP_DEFAULT_REVERSE_PENALTY. Below 1 would
 * make reversing cheaper than driving forwards. */
#define AP_MIN_REVERSE_PENALTY 1.0
#define AP_MAX_REVERSE_PENALTY 100.0
#define AP_DEFAULT_REVERSE_PENALTY 2.0

/* search.turn_penalty: tiles charged per radian turned (Pinter's turn penalty), in [0, AP_MAX_TURN_PENALTY]. */
#define AP_MAX_TURN_PENALTY 100.0

/* Compass headings of the directional lattice (search.headings, profiles[].headings): AP_HEADINGS_COARSE
 * (the default; also 0 in a query) or AP_HEADINGS_FINE. */
#define AP_HEADINGS_COARSE 8
#define AP_HEADINGS_FINE 16

/* Fixed-angle art (unit.art_directions, art.h): 0 = free angles, else AP_ART_COARSE or AP_ART_FINE legal
 * line headings (multiples of 2 pi / N). */
#define AP_ART_COARSE 8
#define AP_ART_FINE 16

/* Per-request obstacles ("obstacles", plan.h q->obstacles): at most AP_MAX_OBSTACLES circles, each with a
 * finite centre within AP_MAX_OBSTACLE_COORD tiles of the origin on both axes and a radius in
 * (0, AP_MAX_OBSTACLE_RADIUS]. */
#define AP_MAX_OBSTACLES 256
#define AP_MAX_OBSTACLE_COORD 1e6
#define AP_MAX_OBSTACLE_RADIUS 1e4

/* Kinodynamic searches (search.algorithm "kinodynamic", plan_kino.c). search.max_expansions in
 * [1, AP_MAX_KINO_EXPANSIONS], default AP_DEFAULT_KINO_EXPANSIONS (the thesis's cap, 5.1); goal tolerances
 * (tiles, radians, m/s) > 0 and at most the maxima; speeds (m/s) and accelerations (m/s^2) at least
 * AP_MIN_KINO_LIMIT and at most AP_MAX_KINO_SPEED / AP_MAX_KINO_ACCEL (a turn rate, rad/s, in [AP_MIN_KINO_LIMIT,
 * AP_MAX_KINO_TURN_RATE]); meters_per_tile in [AP_MIN_METERS_PER_TILE, AP_MAX_METERS_PER_TILE]. The floor keeps every time an answer
 * can hold finite and its numbers consistent: a subnormal acceleration (4.9e-324 m/s^2) gave a 1e162-second
 * answer whose segments no longer met length = (v_start + v_end) / 2 * duration. */
#define AP_DEFAULT_KINO_EXPANSIONS 100000
#define AP_MAX_KINO_EXPANSIONS 2000000
#define AP_MAX_KINO_WEIGHT 10.0 /* search.weight in [1, AP_MAX_KINO_WEIGHT] (weighted A*, kino.h) */
#define AP_DEFAULT_TOL_POSITION 0.5
#define AP_DEFAULT_TOL_HEADING 0.1
#define AP_DEFAULT_TOL_SPEED 0.5
#define AP_MAX_TOL_POSITION 64.0
#define AP_MIN_KINO_LIMIT 0.001 /* the least speed, acceleration or turn rate a vehicle limit may be */
#define AP_MAX_KINO_SPEED 1000.0
#define AP_MAX_KINO_ACCEL 1000.0
#define AP_MAX_KINO_TURN_RATE 100.0 /* unit.max_turn_rate, rad/s */
#define AP_MIN_METERS_PER_TILE 1e-6 /* a micrometre: a subnormal scale (5e-324) answered 500 out of memory */
#define AP_MAX_METERS_PER_TILE 1000.0

/* The kinodynamic "corridor" (corridor mode, world/zone.h): 2 .. AP_ZONE_MAX_POINTS centre-line points, a
 * usable width in (0, AP_ZONE_MAX_HALF] tiles. Bounded so a zone's per-piece arrays live on the stack. */
#define AP_ZONE_MAX_POINTS 64
#define AP_ZONE_MAX_HALF 1000.0

#endif
