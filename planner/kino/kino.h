/* kino.h — the kinodynamic search domain: A* (the core of search.h) in the (x, y, heading, speed) state
 * space of a vehicle (vehicle.h), with cost in seconds.
 *
 * States: a discretised state is a (cell, heading bin, speed bin) tuple; each keeps the exact continuous
 * pose and speed it was last reached with on its best path (the search core's per-node payload), so motion
 * is never snapped to the grid (thesis 4.3.2, the Hybrid A* idea). Ids are handed out on demand through an
 * open-addressing hash table (the state space is unbounded in speed and heading, a dense matrix would not
 * fit): id 0 is the goal (a virtual node every state within the goal tolerance leads to), id 1 the start.
 *
 * Actions (thesis 3.1, 4.3.4, 4.3.5): accelerate at max_accel / keep speed / brake at max_brake / the
 * in-between intensities that end the step exactly at the goal speed and at the corner speed
 * sqrt(max_lateral_accel * turning radius), the fastest the tightest turn allows (when within the limits),
 * each combined with steering straight, at the tightest admissible curvature left and right, at half of it, and
 * at the one curvature that ends the step at the goal heading (when the goal has one and it is within);
 * the tightest curvature is min(1 / turning_radius, a_lat / v_peak^2), so every arc keeps v^2 / r <=
 * max_lateral_accel at the segment's highest speed. Each action is one segment (line or arc) driven with
 * constant acceleration over `step` tiles, shortened where the speed reaches max_speed (accelerating) or 0
 * (braking) so those limits are exact intensities. Keeping zero speed and braking at rest are not actions.
 * A path does not depend on the speed it is driven at, so the intensities of one state that share the
 * tightest curvature and the step length share their paths: ends, headings and clearance are made once.
 * Each segment's swept disc is checked with the world's exact test (world.h), except where the map's disc
 * clearance table proves it clear (a plain grid world, or the one below a corridor's zone: fast_map /
 * fast_clear below, clearance.h ap_clearance_reach) and, in a corridor, except the zone's test where the
 * distances from the zone's centre line at the state and at the action's end prove it (zone.h
 * ap_zone_proves, ap_zone_proves_piece); the exact test would say clear there too: the same successors,
 * cheaper.
 *
 * Reverse (p.reverse; thesis 2.1's backwards limits, 4.2.3's backing up): a state's speed v is signed, < 0
 * when driving backwards. A state moving backwards has the mirrored actions: accelerate backwards at
 * max_accel up to max_reverse_speed, keep, brake at max_brake to 0; the direction changes only at rest
 * (a cusp: braking ends exactly at 0, then the actions of both directions apply), never by a jump of speed.
 * A backwards action is a segment with reverse set (ap_segment_drive's encoding: the heading is the way the
 * unit faces), its heading changing by curv * (-len). The goal-speed intensity serves forward actions only
 * (goal.speed is a forward speed); the corner speed's serves both, where it is below the direction's top
 * speed. Turning on the spot (p.veh.max_turn_rate > 0): at rest the unit may also rotate in place by
 * +-pi/8, +-pi/4, +-pi/2, pi, to face the goal and to the goal heading, taking |angle| / max_turn_rate
 * seconds: an action of length 0 (ap_kino_state.rot), a zero-length AP_SEG_TURN segment in the answer.
 *
 * Heuristic: ap_vehicle_time_bound over a lower bound on the remaining path length, from the state's speed to
 * goal.speed + the speed tolerance: a lower bound on the remaining time (admissible). The length bound is
 * the straight distance to the goal minus the position tolerance; on a grid map where a wall hides the goal
 * from the start, also the obstacle-aware lattice bound (world/lattice.h: shortest paths on the lattice of
 * cell corners and centres / 1.0824, a lower bound on any path of the unit's centre through free space; the
 * region is the start/goal box plus max(16, 8 R) tiles, states outside it keep the other terms); for a
 * forward-only unit that does not turn on the spot, also the shortest curvature-bounded path from the state's pose to the goal's tolerance disc
 * (its final heading free), and, with a goal heading, the same from the goal pose turned back (pi added) to
 * the state's position, with a slack for the goal's tolerances (geom/dubins.h ap_dubins_point_bound; kino.c
 * heading_length_bound proves the slack). With a goal heading the time is also at least the heading change
 * still needed (less the heading tolerance) over the fastest turn rate the turning radius and the lateral
 * limit allow (kino.c max_heading_rate). With reverse the bound is taken from |v| with the top speed
 * max(max_speed, max_reverse_speed) (vehicle.h says why that stays a lower bound) and keeps only the
 * straight distance, the lattice bound and the turn time; turning on the spot only adds time (the turn rate then is at least
 * max_turn_rate).
 * Dubins lengths between the two poses are not used: they bound the path to the exact goal pose, not to a
 * pose within a position and heading tolerance, so with any tolerance > 0 (always: a continuous pose never
 * hits a point) they may overestimate (near the goal by up to a loop, 2 pi R); the point bounds above keep
 * one heading each and are exact lower bounds. Not consistent in general (the exact poses differ per path),
 * so A* is optimal only over the
 * states it keeps (the thesis says the same, 4.2).
 *
 * Source: Schnieders, "AIPATH: Movement Planning in Physically Constrained Domains", 2014, chapters 3-4.
 */
#ifndef AP_KINO_H
#define AP_KINO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/path.h"
#include "../search/search.h"
#include "../world/map.h"
#include "../world/world.h"
#include "vehicle.h"

/* The heuristic. AP_KINO_H_TIME: ap_vehicle_time_bound over the length bound of the file comment, and the
 * turn time (admissible, see the file comment). AP_KINO_H_DUBINS: the same bound over max(straight, Dubins
 * length to the goal pose at the turning radius) minus the position tolerance, when the goal has a heading:
 * the thesis's distance estimate (4.2.1) in its time heuristic; NOT admissible with tolerances (a pose within
 * the tolerance can be much nearer along a Dubins path than the goal pose itself), so its paths may be
 * slower than optimal; with reverse the Reeds-Shepp length replaces the Dubins length (a Dubins path assumes
 * forward motion), and a unit that turns on the spot has no curve term (a turn in place covers no length).
 * AP_KINO_H_DISTANCE: straight distance / max_speed (admissible, weaker; the
 * benchmark's comparison with the thesis's distance heuristic). */
typedef enum ap_kino_heuristic_kind { AP_KINO_H_TIME = 0, AP_KINO_H_DUBINS, AP_KINO_H_DISTANCE } ap_kino_heuristic_kind;

/* The obstacle-aware part of the heuristic (see the file comment): per cell of a region of the map, a lower
 * bound (tiles) on the length of any free-space path from the cell's centre to the goal point. Built by
 * the first ap_kino_bind (owned by the domain), read through ap_kino_params.lattice. */
typedef struct ap_kino_lattice {
    float *bound;          /* w x h, row-major; rounded down to float */
    int32_t x0, y0, w, h;  /* the region, map cells */
} ap_kino_lattice;

/* One search's inputs. Positions and lengths in tiles, headings in radians, speeds in m/s. */
typedef struct ap_kino_params {
    ap_vehicle veh;
    double meters_per_tile;   /* > 0 */
    double turning_radius;    /* tiles, > 0 */
    ap_world world;           /* borrowed */
    double radius;            /* disc radius for the world's tests (tiles) */
    bool reverse;             /* backwards actions (veh.max_reverse_speed > 0) */
    double sx, sy, sh, sv;    /* start pose and speed (sv >= 0: forward) */
    /* The start's heading is free (no start.heading): the start state, at sh, also leads in no time to the
     * same position and speed facing each of AP_KINO_FREE_HEADINGS compass headings, the goal and gh
     * (kino.c expand_free), so the search picks the fastest of them; the answer shows no turn there. */
    bool free_sh;
    double gx, gy, gh, gv;    /* goal pose (gh only with has_gh) and speed */
    bool has_gh;
    double tol_pos, tol_heading, tol_speed; /* goal tolerances, > 0 */
    double step;              /* tiles per action (0 = AP_KINO_STEP) */
    double cell;              /* tiles per position bin (0 = AP_KINO_CELL) */
    int heading_bins;         /* 0 = AP_KINO_HEADING_BINS */
    int speed_bins;           /* over [0, max_speed] (and [0, max_reverse_speed]); 1 .. 128, 0 = AP_KINO_SPEED_BINS */
    ap_kino_heuristic_kind heuristic; /* AP_KINO_H_TIME (0, admissible) unless said otherwise */
    /* Weighted A* (Pohl 1970): the A* domain orders its open list by f = g + weight * h. 0 or 1: plain A*
     * (arcpath's optimal answers); above 1 the search stops far sooner (it trusts the bound more) and its
     * answer is at most about weight times slower than A*'s: a proven factor for a consistent heuristic
     * without re-expansions; this one is admissible but not consistent (above), so the factor is measured
     * (BENCHMARKS.md "Weighted A*"), not proven. The probe and the analytic edge do not use it. */
    double weight;
    /* CLOCK_MONOTONIC ns (ap_clock_ns) at which the lattice bound's build gives up (the search goes on without
     * it: admissible, weaker), and past which the state id table does not double (it fills to 3/4, then new
     * bins are dropped: a doubling is one step the search's deadline is not read in); 0 = never. The plan's
     * deadline: a region of a million cells took 70 ms and a query with a 1 ms deadline answered its timeout
     * then. */
    uint64_t deadline_ns;
    /* Derived, not inputs (leave them zero): ap_kino_init, ap_kino_probe and ap_kino_prepare set them from
     * world. zone: world's zone when world is a corridor (zone.h ap_zone_of), else NULL. fast_map /
     * fast_clear: the map and its disc clearance table (grid_world.h ap_map_world_clearance) of world, or
     * of the zone's inner world with a zone, when that is a plain grid world, else NULL. With them the
     * successors and the analytic edge skip each half of the exact swept-disc test that is proven: the
     * grid world's test where clearance.h's reach covers the action (ap_clearance_reach_covers), the zone's
     * where the distances at the state and the action's end do (zone.h ap_zone_proves,
     * ap_zone_proves_piece; the successors only); the exact test would call those clear too: the same
     * successors, cheaper. */
    const struct ap_zone *zone;
    const struct ap_map *fast_map;
    const struct ap_clearance_table *fast_clear;
    /* Derived too: the heuristic's time-bound constants (vehicle.h ap_vehicle_bound of the vehicle the bound
     * sees, ap_kino_time_bound), set by ap_kino_prepare; used only while they match p's limits (else made per
     * call), so the values are the same either way. */
    ap_vehicle_bound hbound;
    /* Derived too: the fastest heading rate (rad/s) of the heuristic's turn time, set by ap_kino_prepare
     * from the limits (0: computed per call). */
    double heading_rate;
    /* Derived too: sin and cos (fastmath.h fast_sincos) of the reversed goal heading gh + pi, the pose the
     * heuristic's goal-side point bound starts from (kino.c heading_length_bound), set by ap_kino_prepare
     * (gback_set; else computed per call, the same values). */
    double gback_sin, gback_cos;
    bool gback_set;
    /* Derived too (borrowed): the obstacle-aware lattice bound of ap_kino_bind's domain, or NULL (then the
     * heuristic has no obstacle term; the probe and a plain ap_kino_heuristic caller may leave it NULL). */
    const ap_kino_lattice *lattice;
} ap_kino_params;

#define AP_KINO_STEP 1.25
#define AP_KINO_CELL 1.0
#define AP_KINO_HEADING_BINS 180 /* 2 degrees */
#define AP_KINO_SPEED_BINS 16
/* Intensities of one driving direction at most: full acceleration, none, full braking, the goal speed's and
 * the corner speed's (kino.c expand_dir). */
#define AP_KINO_INTENSITIES 5
/* A free start heading's compass headings (every 22.5 degrees), and its turns at most: those, facing the goal
 * and the goal heading. */
#define AP_KINO_FREE_HEADINGS 16
#define AP_KINO_FREE_TURNS (AP_KINO_FREE_HEADINGS + 2)
/* At rest: 3 forward intensities x 6 curvatures + 2 backwards x 6 + 9 rotations = 39; moving: 5 x 6 = 30;
 * plus the analytic edge (analytic.h); plus a free start heading's turns at the start. */
#define AP_KINO_MAX_SUCC (40 + AP_KINO_FREE_TURNS)
#define AP_KINO_GOAL 0u
#define AP_KINO_START 1u

/* The payload of a node: the exact state it was reached in and the action from its parent's state. */
typedef struct ap_kino_state {
    double x, y, h, v;   /* tiles, radians (the way the unit faces), m/s (< 0: backwards) */
    double curv;         /* signed curvature of the action, 1/tiles (> 0: heading increases driving forward) */
    double len;          /* tiles driven, signed: < 0 backwards; 0 for a turn on the spot */
    double accel;        /* m/s^2, the rate of change of |v| (> 0 speeding up, forward or backwards) */
    double dt;           /* seconds */
    double hval;         /* the heuristic at this state (seconds); the A* domain fills it in a node's payload
                          * when the core keeps the node (its successors carry 0; times p.weight when that is
                          * above 1), ap_kino_probe in its states */
    double rot;          /* radians turned on the spot by the action (len 0, v 0), else 0 */
    bool analytic;       /* reached by the analytic edge (analytic.h): the domain's tail holds its pieces */
} ap_kino_state;

struct ap_kino_table;
struct ap_kino_tail;


/* A speed magnitude at most this (m/s) is at rest for the search: both directions and turns on the spot
 * start from it, at 0 m/s (the answer's segments start at 0 there). */
#define AP_KINO_AT_REST 1e-9

/* Analytic final expansion (analytic.h): tried from every expanded state within this many turning radii
 * (plus AP_KINO_ANALYTIC_NEAR tiles) of the goal, and from every AP_KINO_ANALYTIC_EVERY-th elsewhere; once
 * the A* domain keeps an edge, from every AP_KINO_ANALYTIC_KEPT_EVERY-th expansion of those only (the probe
 * ends at its first edge). */
#define AP_KINO_ANALYTIC_NEAR 4.0
#define AP_KINO_ANALYTIC_EVERY 8
#define AP_KINO_ANALYTIC_KEPT_EVERY 4

/* One pose's remaining-length bound (kino.c length_part), kept while its state's successors are relaxed. */
typedef struct ap_kino_hmemo {
    double x, y, h, s;
} ap_kino_hmemo;
#define AP_KINO_HMEMO 8

/* Bytes of the state id table a state can take while its search runs: 16-byte slots, 2 to 4 a state (the
 * table doubles at half load). For memory budgets (server/main.c). */
#define AP_KINO_TABLE_BYTES_PER_STATE 64.0

/* The domain's context. Caller-owned; one search at a time. */
typedef struct ap_kino_domain {
    ap_kino_params p;
    struct ap_kino_table *tab; /* state ids (owned) */
    const ap_workspace *ws;    /* the workspace whose payload the heuristic reads (set by ap_kino_bind) */
    uint32_t node_limit;
    /* The analytic final expansion: an expanded state whose analytic edge (analytic.h) exists and beats the
     * kept one (g(parent) + duration < tail_total; ap_kino_analytic_below, which skips most of the work for
     * edges that cannot) gets the goal as one more successor, its payload marked `analytic` (the pieces are
     * not one action); that edge, of the smallest g(parent) + duration so far, is kept here, which is the
     * goal's edge whenever the goal's payload is so marked (the core keeps the goal's best g by the same
     * comparison; an edge no better than the kept one could not have lowered it). */
    struct ap_kino_tail *tail; /* owned */
    ap_kino_lattice lattice;   /* owned; bound NULL when there is none (p.lattice points here otherwise) */
    bool lattice_tried;        /* ap_kino_bind has built it (or found it would not pay) */
    uint32_t tail_parent;
    double tail_total;         /* INFINITY: none yet */
    uint64_t expanded;         /* expansions seen (the analytic period) */
    /* Successors dropped since ap_kino_bind because their bin was new and no id was left for it (node_limit
     * reached: the workspace's capacity) or the id table could not grow. Nonzero: the search is no longer
     * A* over every bin, so its path is not proven the fastest and its no_path is the state limit's. */
    uint64_t dropped;
    /* The heuristic's length parts of the poses kept from the current expansion (kino_h): successors along
     * one path at different speeds share them. Emptied by each expansion. */
    ap_kino_hmemo hmemo[AP_KINO_HMEMO];
    int hmemo_n;
} ap_kino_domain;

/* p with its zero step, cell and bins replaced by the defaults and its derived fields (zone, fast_map,
 * fast_clear, ...) set from p->world: what ap_kino_init and ap_kino_probe search with, and what ap_kino_expand and
 * ap_kino_analytic expect (unprepared params work too, with the exact tests alone). Pure. */
ap_kino_params ap_kino_prepare(const ap_kino_params *p);

/* Fill *d and *dom for a search from the start state to the goal on a workspace of `capacity` nodes (ids
 * are handed out up to min(capacity, node_limit)); d keeps a prepared copy of *p (ap_kino_prepare; its world
 * stays borrowed) and dom->ctx = d (d must stay at its address). Returns AP_OK or AP_E_NOMEM (d's allocations
 * released). Free with ap_kino_free in either case. Writes only d and dom: thread-safe. */
int ap_kino_init(ap_kino_domain *d, ap_domain *dom, const ap_kino_params *p, uint32_t capacity);

/* Cells of the obstacle-aware lattice bound's region for a query from (sx, sy) to (gx, gy) on m (tiles): the
 * start/goal box grown by max(16, 8 turning_radius) tiles, clipped to the map (0 when empty). What the bound's
 * build costs, ~100 ns a cell (regions above 2^20 cells get no bound). Pure; thread-safe. */
uint64_t ap_kino_lattice_cells(const ap_map *m, double sx, double sy, double gx, double gy, double turning_radius);

/* After ap_search_begin on ws: forget earlier ids (keep only the start), point the heuristic at ws's payload
 * and write the start's payload. Call again after restarting on another workspace. The first call also
 * builds the obstacle-aware lattice bound (the file comment) when p's world is a plain grid world, the
 * unit's disc does not see the goal straight from the start, and the region (at most 2^20 cells) has
 * blocked cells; then d->p.lattice points to it, owned by d (the probe, run before, never needs it; out of
 * memory leaves it out, an admissible heuristic either way). Writes d and s's workspace payload: the search's
 * thread. */
void ap_kino_bind(ap_kino_domain *d, const ap_search *s);

/* Release d's id table, analytic tail and lattice bound. NULL and a zeroed d are fine. Not while a search on d
 * runs (the owner's thread). */
void ap_kino_free(ap_kino_domain *d);

/* The heuristic (p->heuristic) from state (x, y, h, v) to the goal (seconds); see the file comment. Pure. */
double ap_kino_heuristic(const ap_kino_params *p, double x, double y, double h, double v);

/* The time bound the heuristic uses (vehicle.h ap_vehicle_bound_time), for the vehicle it sees: p->veh, with
 * reverse the top speed max(max_speed, max_reverse_speed); s in metres, v0 and v1 in m/s. A lower bound on
 * any motion of p's vehicle over s metres from speed |v0| <= top to a speed <= v1, forward or backwards.
 * Pure. */
double ap_kino_time_bound(const ap_kino_params *p, double s, double v0, double v1);

/* True when state (x, y, h, v) is within the goal tolerances. Pure. */
bool ap_kino_at_goal(const ap_kino_params *p, double x, double y, double h, double v);

/* The segment of the action that reached st, from pose (x, y, h): drive st->len tiles (< 0: backwards, the
 * segment marked reverse as ap_segment_drive encodes it) with signed curvature st->curv (0 = a line), or
 * for a turn on the spot (st->len == 0, st->rot != 0) an AP_SEG_TURN segment at (x, y) from heading h by
 * st->rot. Its end point is computed exactly as ap_kino_expand computes the successor's position (forward
 * arcs by angle addition from the sweep's sine and 1 - cosine, fastmath.h's sin and cos of h), so a
 * successor's (x, y) is its segment's end to the bit; within ~1e-13 tiles of ap_segment_arc's. Pure. */
ap_segment ap_kino_segment(double x, double y, double h, const ap_kino_state *st);

/* True when the disc of radius p->radius swept along s (a line or arc, tiles) is clear in p's world: the
 * world's exact test, with the half a clearance table proves skipped (prepared params: the grid world's
 * test where clearance.h ap_clearance_proves_segment walks s clear, which the exact test would call clear
 * too; in a corridor the zone's test, zone.h ap_zone_segment_clear, always runs). The analytic edge's test
 * of its pieces. Thread safety as
 * the world's tests (a corridor's zone fills its piece grid on first use: one search's thread). */
bool ap_kino_segment_clear(const ap_kino_params *p, const ap_segment *s);

/* Every successor state of st (at most AP_KINO_MAX_SUCC), without ids: out[k] holds state and action. The
 * domain's successors use it, and so do the tests' exhaustive searches. Returns their number. Pure but for the
 * world's tests: thread-safe as they are (a corridor's zone with a piece grid fills it on first use: one search's
 * thread). Source: Schnieders, "AIPATH", 3.1, 4.3.4-4.3.5 (actions and intensities). */
int ap_kino_expand(const ap_kino_params *p, const ap_kino_state *st, ap_kino_state *out);

/* Most steps of the probing search (ap_kino_probe) a plan runs: 2048 steps of at most `step` tiles (2560
 * tiles at the default step), far beyond the thesis's longest probes (73 iterations, Table 5.7) and
 * bounded so a probe on any map ends in a few milliseconds. */
#define AP_KINO_PROBE_STEPS 2048

/* The probing search (thesis 4.4, Algorithm 6): a greedy descent on the heuristic without backtracking.
 * From the start state of p it repeatedly expands the current state (ap_kino_expand: the actions and the
 * world's exact swept-disc test, the same successors the A* domain gets) and moves to the successor with
 * the lowest heuristic (ap_kino_heuristic with p->heuristic: admissibility does not matter to a greedy
 * descent, and plan_kino.c guides it with AP_KINO_H_DUBINS, the thesis's heuristic, since the time bound
 * alone ignores the goal heading; a successor within the goal tolerances counts as 0 and beats
 * every other, as the domain's goal node does) if that is strictly lower than the lowest value seen so far.
 * It stops when the current state is within the goal tolerances (ap_kino_at_goal; *reached = true), when no
 * successor improves on the best value (a dead end, a wall, or a heading or speed the greedy descent cannot
 * correct: *reached = false), or after cap - 1 steps (*reached = false): never more than cap - 1
 * expansions, whatever the heuristic does. p's zero step, cell and bins mean the defaults, as for
 * ap_kino_init. out[0 .. n-1] (cap >= 1 entries, cap + 1 with tail non-NULL: the analytic edge from the
 * state the last step reached takes one more; caller-owned) receives the states: out[0] the start (its
 * action fields 0), out[i] the state reached from out[i-1] with its action (curv, len, accel, dt) and its
 * heuristic in hval, so out is a trajectory that starts at the start pose and speed, is G1 and keeps every
 * limit (each action does). With tail non-NULL the probe also tries the analytic edge (analytic.h) before
 * each step and after the last, as the A* domain does (near the goal, and every AP_KINO_ANALYTIC_EVERY-th step elsewhere): when
 * it exists the probe ends there, *reached = true, the last state is marked `analytic` and *tail holds the
 * edge's pieces (the edge is not counted as an expansion). Returns n (>= 1; 0 when cap < 1); *expanded (optional) gets the expansions
 * (the thesis's iterations). Pure: reads p and its world only; thread-safe as the world's tests are.
 * Source: Schnieders, "AIPATH", 2014, 4.4 (Algorithm 6) and 5.6. */
int ap_kino_probe(const ap_kino_params *p, ap_kino_state *out, int cap, bool *reached, int *expanded,
                  struct ap_kino_tail *tail);

/* Seed a begun search (after ap_kino_bind) with a probe's trajectory (ap_kino_probe's out[0 .. n-1], out[0]
 * being the start): Schnieders, "AIPATH", Algorithm 1 lines 7-8, each state inserted into the open list
 * (ap_search_seed) with the previous one as parent, g its time from the start, and its exact state as payload. The
 * seeded states get ids of their own, taken from d's id range but never entered in the bin table, so no successor
 * the search generates can ever be one of them: a seeded state's payload (the pose its seeded child was driven
 * from) never changes, and a path through seeded states replays the probe's actions exactly. A bin the probe and
 * the search both reach may so be expanded twice (at most n - 1 extra expansions). Each seeded state's heuristic is
 * d's (the probe may have been guided by another). Stops early when d's ids run out. Returns the number of states
 * seeded (at most n - 1). Same thread as the search. */
int ap_kino_seed(ap_kino_domain *d, ap_search *s, const ap_kino_state *states, int n);

#endif
