/* analytic.h — the analytic final expansion of the kinodynamic search: from a state, the shortest curve to
 * the goal pose driven with the time-optimal speed profile along it, as one edge to the goal.
 *
 * Why: the search's actions are one-step segments on a lattice of intensities, and its admissible bound
 * ignores the goal heading (kino.h), so A* fills the (x, y, heading, speed) space around the goal before a
 * sequence of actions happens to end within a tight heading tolerance (BENCHMARKS: 27-80 % of Table 5.3
 * queries missed at 100,000 iterations). Hybrid A* (Dolgov, Thrun, Montemerlo and Diebel, "Practical
 * Search Techniques in Path Planning for Autonomous Driving", 2008, "analytic expansions"; the thesis lists
 * the same idea in 5.6's outlook) shoots an exact obstacle-free curve from expanded states and takes it when
 * it is clear. Here the curve is the shortest Dubins path to the goal pose at the turning radius (arc + line
 * to the goal point when the goal has no heading), checked with the world's exact swept-disc test (or proven
 * clear piece by piece by the clearance table on a plain grid world: clearance.h
 * ap_clearance_proves_segment, the same verdict), and its
 * time is the time-optimal profile of timing.h from the state's speed, ending within the goal's speed
 * tolerance. The edge is a real trajectory within every limit (timing.h: lateral limit on its arcs,
 * acceleration and braking), so answers stay valid; A* remains optimal over the edges it has.
 *
 * Units: tiles, radians, m/s, seconds. Pure; thread-safe.
 */
#ifndef AP_KINO_ANALYTIC_H
#define AP_KINO_ANALYTIC_H
#include <stdbool.h>

#include "kino.h"
#include "timing.h"

/* Most constant-acceleration pieces of one analytic edge (3 curve segments, each split at most into
 * accelerate / cruise / brake). */
#define AP_KINO_TAIL_MAX 12

/* An analytic edge: its pieces (segments and their timing, t_start from the edge's start) and duration. */
typedef struct ap_kino_tail {
    ap_segment seg[AP_KINO_TAIL_MAX];
    ap_seg_time time[AP_KINO_TAIL_MAX];
    int n;
    double duration; /* seconds */
} ap_kino_tail;

/* Try the analytic edge from state st (position, heading, speed) to p's goal: the shortest Dubins curve at
 * p->turning_radius to (gx, gy, gh) when p->has_gh, else the arc + line to (gx, gy); clear for a disc of
 * p->radius in p->world; the time-optimal speed profile from st->v ending at a speed within
 * [gv - tol_speed, gv + tol_speed]. When that fails, the same at the radius the state's speed allows,
 * v^2 / a_lat (metres, in tiles), if wider: a fast state cannot enter a tight first arc at once. True and
 * *out filled when one holds; false otherwise (a wall, a goal speed the curve is too short to reach, ...).
 * Pure. */
bool ap_kino_analytic(const ap_kino_params *p, const ap_kino_state *st, ap_kino_tail *out);

/* ap_kino_analytic for a search that already holds an edge to the goal of total time best (seconds; INFINITY:
 * none yet) and reaches st at time g: true and *out filled exactly when ap_kino_analytic would give an edge
 * with g + duration < best (the same edge: same pieces, same duration); false otherwise, *out untouched.
 * Cheaper where the answer is false: when the time bound (kino.h ap_kino_time_bound, a lower bound on
 * the duration, less a 1e-9 relative margin) over a lower bound on the curve's length (the straight distance
 * to the goal, and turning_radius * |gh - h| with a goal heading) already reaches best - g, no curve is made;
 * a curve whose time bound over its own length reaches it is neither timed nor tested against the world;
 * and the pieces' segments are cut only for an edge that is better. The
 * A* domain (kino.c) asks with its best edge so far: an edge no better would change neither the goal's g nor
 * the kept edge. Pure. */
bool ap_kino_analytic_below(const ap_kino_params *p, const ap_kino_state *st, double g, double best,
                            ap_kino_tail *out);

#endif
