/* directional.h — Pinter's Directional A* as a search domain of the one A* core (search.h).
 *
 * Source: Pinter, "Toward More Realistic Pathfinding" (Game Developer, 2001), "Legal Turns: The Directional
 * A* Algorithm" through "Correctness of Directional A*", and "Speed and Other Movement Restrictions".
 *
 * States: (cell, heading index, direction bit) inside a window of the map (Pinter's fixed matrix, centred on
 * the start/goal midpoint), node id = (window row * window width + window column) * H' + heading index +
 * H * direction bit, where H' = H (forward only) or 2H (with reverse: the direction the unit last drove).
 * Two virtual nodes follow the window's: the exact start pose and the exact goal pose. In corridor mode
 * (a turning unit's long-range plan: ap_dir_query.corridor) the cell part of the id is the cell's number in
 * the corridor (corridor.h) instead of its window index, so the node count is members * H' + 2.
 *
 * Edges (profile.h): from a cell centre at a compass heading to the cells up to k = 1/2/3 away at every
 * heading, along the shortest Dubins (or Reeds-Shepp) curve; an edge exists only if no cell of its
 * hit-check mask is blocked (off-map counts as blocked). The first move, from the exact non-discrete start
 * pose, is computed in full (curve + exact ap_segment_clear), as Pinter prescribes. The goal pose is
 * reached by analytic expansion: from every expanded node near the goal, every 8th one elsewhere, and every
 * one within the memoised curve bounds whose heuristic the lattice bound does not raise (its final curve may
 * well be clear; tried only every 8th, the answer depended on the expansion order) the
 * exact shortest curve to the goal pose is tried with ap_segment_clear and, if clear, becomes an edge to
 * the goal node. Because the heuristic at that node is that same curve's length, the goal then has the
 * node's f and larger g, so it is taken next: the search stops as soon as a clear final curve exists
 * from the best node (Hybrid-A*-style analytic expansion) without giving up A*'s ordering.
 *
 * Edge cost (tiles): forward length + reverse_penalty * reverse length + turn_penalty * radians turned +
 * change_penalty * direction changes (cusps inside the curve, and between the parent's last direction and
 * the edge's first). On a map with terrain costs the lengths are weighted by the most expensive terrain the
 * swept unit covers along the edge: the largest cost multiplier of the cells in the edge's hit-check mask
 * (for the exact first and final curves, of the cells ap_segment_cells lists) — a unit that brushes a
 * swamp pays swamp for that curve. Multipliers are >= 1, so every length bound below stays admissible.
 *
 * Heuristic, admissible: the larger of
 *  - the exact obstacle-free curve length to the goal pose (Dubins with a goal heading, Reeds-Shepp with
 *    reverse; with a free goal heading, the arc+line length when the goal lies outside both turning circles
 *    — then it is optimal — else the straight distance), memoised per (offset to the goal cell, heading);
 *  - an obstacle-aware lower bound: shortest paths on the lattice of cell corners and centres (spacing 1/2,
 *    8-connected, an edge allowed when it lies in or on a free cell) divided by sqrt(4 - 2 sqrt 2) =
 *    1.0824, the largest ratio of octile to Euclidean length, minus the goal's offset from its cell centre.
 *    Why this is a lower bound: the unit's centre follows a curve in free space; the shortest such curve
 *    bends only at blocked-cell corners (lattice points), and each straight piece between lattice points
 *    has a lattice path of octile length along the cells it crosses, at most 1.0824 times as long. Plain
 *    8-connected grid distance is NOT a bound (a one-cell staircase corridor makes it sqrt 2 times the true
 *    distance), nor is grid distance / 1.0824 (each corner a curve cuts saves up to 0.586 tiles). The
 *    lattice covers the start/goal bounding box plus a margin; cells on its border ring count as free, so
 *    paths that leave it are never overestimated (a detour outside a rectangle is no shorter than its
 *    border).
 *  Both parts are consistent for a goal with a heading; with a free goal heading the curve part switches
 *  between two bounds near the goal and may be slightly inconsistent, which can cost optimality (the core
 *  never reopens closed nodes) but never validity.
 *
 * Correctness of answers: every edge is checked against the exact disc/cell geometry (conservative masks or
 * ap_segment_clear), so every path found is drivable and clear; as Pinter notes, the search is not
 * complete (compass headings, cell centres, shortest curves only).
 */
#ifndef AP_DIRECTIONAL_H
#define AP_DIRECTIONAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../world/map.h"
#include "../base/path.h"
#include "profile.h"
#include "corridor.h"
#include "../search/search.h"

/* Tiles charged per change of driving direction (a cusp) when reversing is allowed: the unit must stop. */
#define AP_DIR_CHANGE_PENALTY 2.0

/* Corridor mode's heuristic weight (weighted A*: f = g + w h). Measured on Paris_1_1024 (bench_longrange,
 * turning radius 4): w = 1 took 175 ms a query, 1.5 113 ms, 2 25 ms, at +2-9 % length before the plan's
 * final smoothing (which takes it back: plan_dir.c). The corridor already gives up optimality. */
#define AP_DIR_CORRIDOR_WEIGHT 2.0

/* A directional search problem. Positions in tiles, headings in radians. */
typedef struct ap_dir_query {
    const ap_map *map;       /* borrowed */
    const ap_profile *prof;  /* borrowed; turning radius, unit radius, headings, neighbourhood, reverse */
    ap_pose start;           /* exact start pose (heading used only if start_heading) */
    bool start_heading;      /* false: the unit may leave the start in any direction */
    ap_pose goal;            /* exact goal pose (heading used only if goal_heading) */
    bool goal_heading;
    double reverse_penalty;  /* >= 1: multiplier on lengths driven backwards */
    double change_penalty;   /* >= 0 tiles per change of direction */
    double turn_penalty;     /* >= 0 tiles per radian turned (Pinter's "Speed and Other Movement Restrictions") */
    uint32_t capacity;       /* node capacity of the workspace the search will use */
    /* Corridor mode (corridor_n > 0): states only on the corridor of corridor_half cells around this
     * polyline (tiles, borrowed for ap_dir_init only; typically a grid path from start to goal), at any
     * distance. 0 = window mode. */
    const double (*corridor)[2];
    size_t corridor_n;
    int corridor_half;
    /* CLOCK_MONOTONIC ns (ap_clock_ns) after which ap_dir_init gives up (AP_TIMEOUT), 0 = none: the lattice
     * bound over a long corridor's cells takes a Dijkstra run of up to ~0.2 s (a 4096^2 maze's corridor). */
    uint64_t deadline_ns;
} ap_dir_query;

/* The domain context. Owned by one plan/thread; ap_dir_free releases it. */
typedef struct ap_dir {
    ap_dir_query q;
    int H, Hp, S, k;
    int32_t wx0, wy0, ww, wh;     /* window: map cells [wx0, wx0 + ww) x [wy0, wy0 + wh) */
    uint32_t start_node, goal_node;
    int32_t scx, scy, gcx, gcy;   /* start and goal cells (window coordinates) */
    uint64_t *bits;               /* blocked bitmap of the window plus S on each side */
    uint64_t *xbits;              /* weighted maps: same layout, the passable cells costing more than 1 */
    uint32_t bw;                  /* 64-bit words per bitmap row */
    float *memo;                  /* curve lower bounds by (offset to goal cell, heading); < 0 = not yet */
    int T;                        /* memo covers offsets -T .. T */
    float *lat;                   /* obstacle-aware lower bound per lattice-region cell centre */
    int32_t rx0, ry0, rw, rh;     /* lattice region (window coordinates) */
    double goal_slack, start_slack;
    uint64_t expanded_seen;       /* expansions seen by successors() (analytic-expansion period) */
    uint64_t analytic_tries, analytic_hits;
    double start_h;               /* free start heading: the heading of the start's own final curve (the
                                   * cheapest clear one of the lattice headings and the goal's direction) */
    char message[128];            /* why ap_dir_init refused, for the error body */
    ap_corridor cor;              /* corridor mode: the members; node cell numbers are member numbers */
    bool has_cor;
    double weight;                /* corridor mode: the heuristic's weight (weighted A*) */
} ap_dir;

/* True when window mode can hold q's start and goal (ap_dir_init would not refuse them as too far apart).
 * Pure. */
bool ap_dir_window_fits(const ap_dir_query *q);

/* Set up a directional search: window, bitmap, lattice bound. On success fills *dom (ctx = d; d must stay
 * at the same address until the search ends) and returns AP_OK. Errors: AP_E_INVALID_REQUEST with
 * *field = "goal" and d->message = "start and goal too far apart for directional search (window W tiles)"
 * when the largest window the workspace capacity allows (W * W * H' + 2 <= capacity) cannot hold both with
 * a margin of k + 1 cells; AP_E_INVALID_REQUEST on "unit.turning_radius" without a profile; AP_E_NOMEM.
 * Corridor mode (q->corridor_n > 0): the window is the corridor's bounding box and node cell numbers are
 * corridor member numbers (corridor.h), so any distance fits; AP_E_INVALID_REQUEST with *field = "goal"
 * and a message when the corridor has more members than the capacity allows ("corridor too large") or
 * misses the start or goal cell. The lattice bound then covers the corridor's cells only: a lower bound
 * for every path whose cells stay in the corridor, which is what the search can return up to curves
 * bulging between members (so corridor answers are valid, not optimal).
 * AP_TIMEOUT when q->deadline_ns passed (before the set-up or during the lattice bound's run).
 * Allocates (window bitmap, memo, lattice: about 0.1-1 MB); free with ap_dir_free even on error.
 * Thread-safe: touches only d and dom. */
int ap_dir_init(ap_dir *d, ap_domain *dom, const ap_dir_query *q, const char **field);

/* Release what ap_dir_init allocated (corridor included) and NULL its pointers; d may be zeroed (NULL is
 * ignored). The owner's thread, after the search on d has ended. */
void ap_dir_free(ap_dir *d);

/* After AP_OK: turn a node path (start node ... goal node, from ap_search_path) into segments, recomputing
 * each edge's curve at absolute coordinates (the same curve the tables checked). *segs and *wps are
 * malloc'd (caller frees): waypoints are the start point, each node's cell centre and the goal point, none
 * equal to the one before (a free start's node faced in place is the start point once), at least two (start =
 * goal: that point twice).
 * Returns AP_OK, AP_E_NOMEM, or AP_E_INTERNAL if an edge cannot be reproduced or n < 2 (outputs NULL and 0 on
 * every error). Reads d only; the owner's thread (the search writes d's counters and memo). Source: Pinter,
 * "Legal Turns: The Directional A* Algorithm" (each edge is the shortest curve between its poses). */
int ap_dir_path(const ap_dir *d, const uint32_t *nodes, size_t n, ap_segment **segs, size_t *n_segs,
                double (**wps)[2], size_t *n_wps);

/* The pose of a window node (cell centre in tiles, compass heading in radians; the start and goal nodes: their
 * exact poses) and in *reverse_bit (may be NULL) its driving direction bit (0 for start and goal). Reads d only;
 * the owner's thread. */
ap_pose ap_dir_node_pose(const ap_dir *d, uint32_t node, int *reverse_bit);

/* The heading (radians) the path leaves the start with when its first move goes to node next: the start's
 * own heading when it is given; with a free start heading, the first segment's (the final curve the start
 * chose, start_h, or the line toward next's curve), or next's own heading when next lies at the start point
 * (faced in place). For callers that turn the node path into poses (the hybrid's chain, Pinter's Figure 20
 * pipeline): the start node's pose carries heading 0 when free. Reads d only; the owner's thread. Source:
 * Pinter, "Legal Turns: The Directional A* Algorithm" (the first move's curve, as ap_dir_path makes it). */
double ap_dir_leave_heading(const ap_dir *d, uint32_t next);

/* Reverse a forward path in place: the same curve driven from its end to its start, facing the other way
 * (lines swap ends; an arc keeps its centre and its sweep changes sign). For curves computed backwards from
 * a goal. Pure. */
void ap_path_reverse(ap_segment *segs, size_t n);

/* Most successors one directional expansion yields (48 offsets x 16 headings x 2 variants + 1). */
#define AP_DIR_MAX_SUCC (49 * 16 * 2 + 1)

#endif
