/* plan_kino.c — the kinodynamic plan kind (ap_plan_kind_kino, plan_kind.h): A* in (x, y, heading, speed)
 * over the domain of planner/kino (kino.h), cost in seconds, on the plan's workspace with per-node payload.
 * The answer's segments are the actions driven (one line or arc each, constant acceleration along it; with
 * unit.reverse a backwards one marked reverse; a turn on the spot an AP_SEG_TURN of length 0), with their
 * speeds (magnitudes, m/s) and times in ap_result.timing and the total in duration_s. unit.reverse_penalty
 * does not apply: the cost is time, and backwards limits are the vehicle's own (max_reverse_speed).
 *
 * The expansion cap (search.max_expansions) ends the search, and so does the deadline (inside a slice, or
 * between slices through ap_plan_stop). When the goal has been reached by then (a path through the lattice,
 * or an analytic edge, whose g is the best found) that path is the answer, marked ap_result.capped:
 * physically valid like every answer, the fastest found, but not proven the fastest (the open list still
 * held states whose bound was lower). Otherwise the answer is no_path "not_found" (the cap)
 * or timeout (the deadline); the search is not complete (its states are discretised and it keeps one exact
 * pose per state), so a no_path proves nothing.
 *
 * corridor (5.3): a query's zone (world/zone.h) is laid over the map's world, so every action and analytic edge
 * stays within the usable width of the centre line; start and goal outside it are refused.
 *
 * search.probe (thesis 4.1, Algorithm 1): begin runs the probing search first (ap_kino_probe, at most
 * AP_KINO_PROBE_STEPS steps and never more than the expansion cap; its expansions count towards the cap and
 * the answer's expanded). When it reaches the goal its trajectory is the answer (ap_result.probe) and no A*
 * runs; otherwise A* starts with the probe's states in its open list (ap_kino_seed, Algorithm 1 lines 7-8),
 * seeded again when a restart moves the search to another workspace.
 *
 * search.weight: weighted A* (kino.h ap_kino_params.weight): A* orders by g + weight * h, so it ends far
 * sooner and its answer may be slower, by about the factor at most (measured, not proven: the heuristic is not
 * consistent). The answer is marked neither capped nor probe: it is what the query asked for.
 *
 * Source: Schnieders, "AIPATH: Movement Planning in Physically Constrained Domains", 2014, chapters 3-5
 * (5.1: the iteration cap and goal tolerances).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kino/analytic.h"
#include "../kino/kino.h"
#include "../world/zone.h"
#include "plan_kind.h"
#include "plan_steps.h"

typedef struct kino_plan {
    ap_kino_domain d;
    uint32_t limit; /* ids the expansion cap can use; each workspace caps it at its capacity */
    bool trivial; /* the start is within the goal tolerance: no motion */
    bool probe_path;      /* the probe reached the goal: its states are the answer */
    bool capped;          /* the cap or the deadline stopped A* after it had reached the goal: its best path
                           * is the answer */
    ap_kino_state *probe; /* the probe's states (search.probe), or NULL */
    int probe_n;
    ap_kino_tail probe_tail; /* the probe's analytic last edge, when its last state is marked so */
    uint64_t discarded;   /* expansions of searches ap_plan_move restarted (a fast-lane slice): in the
                           * answer's stats, not charged to search.max_expansions, so an answer does not
                           * depend on the lane it began in (a batch's later items begin in the slow one) */
    ap_zone zone;         /* corridor mode: the query's zone laid over the map's world (the search's world) */
    struct ap_zone_grid *zone_grid; /* zone's piece grid (zone.h ap_zone_grid_build; owned), or NULL */
} kino_plan;

static void kino_release(ap_plan *p)
{
    kino_plan *k = p->kind_state;
    if (k == NULL)
        return;
    ap_kino_free(&k->d);
    free(k->probe);
    free(k->zone_grid);
    free(k);
    p->kind_state = NULL;
}

static double or_default(double v, double d)
{
    return v > 0.0 ? v : d;
}

/* Where a start without start.heading faces before the search chooses (kino.h free_sh): the goal heading
 * within the position tolerance of the goal (so a start that is there facing it answers at once: the probe
 * drove a 3.7 s loop from the goal's direction first), else towards the goal (its turns to the compass
 * headings, the goal and the goal heading are the search's). */
static double free_start_heading(const ap_query *q, double tol_pos)
{
    const double d = hypot(q->gx - q->sx, q->gy - q->sy);
    if (q->has_gheading && d <= tol_pos)
        return q->gheading;
    return d > 1e-9 ? atan2(q->gy - q->sy, q->gx - q->sx) : 0.0;
}

static uint64_t cap_of(const ap_query *q)
{
    return q->max_expansions > 0 ? q->max_expansions : AP_DEFAULT_KINO_EXPANSIONS;
}

/* Start (or restart) the search on ws. */
static int kino_start(ap_plan *p, ap_workspace *ws)
{
    kino_plan *k = p->kind_state;
    /* a restart may land on a smaller workspace: ids must stay below its capacity */
    k->d.node_limit = p->dom.node_count = ws->capacity < k->limit ? ws->capacity : k->limit;
    int st = ap_plan_start_search(p, ws);
    if (st == AP_IN_PROGRESS) {
        ap_kino_bind(&k->d, &p->search);
        ap_kino_seed(&k->d, &p->search, k->probe, k->probe_n);
    }
    return st;
}

/* The probing search (Algorithm 6) before A* (Algorithm 1): true when its trajectory reached the goal. Its
 * states are kept for the answer or for seeding A*. Returns AP_OK or AP_E_NOMEM. */
static int kino_probe(ap_plan *p, kino_plan *k, bool *reached)
{
    const uint64_t cap = cap_of(&p->q);
    const int steps = cap < AP_KINO_PROBE_STEPS ? (int)cap : AP_KINO_PROBE_STEPS;
    if ((k->probe = malloc((size_t)(steps + 2) * sizeof *k->probe)) == NULL) /* (+1: the analytic edge) */
        return AP_E_NOMEM;
    /* guided by the thesis's heuristic (the time bound over the Dubins length, kino.h): the admissible one
     * ignores the goal heading, so a probe guided by it ends at the goal facing any way */
    ap_kino_params pp = k->d.p;
    pp.heuristic = AP_KINO_H_DUBINS;
    int expanded = 0;
    k->probe_n = ap_kino_probe(&pp, k->probe, steps + 1, reached, &expanded, &k->probe_tail);
    p->expanded_before += (uint64_t)expanded;
    return AP_OK;
}

/* Point tests disc_fits_near may spend before it gives up deciding (and lets the search answer). */
enum { GOAL_FIT_TESTS = 1024, GOAL_FIT_STACK = 192 };

/* Whether the disc of radius r (tiles) fits somewhere within tol tiles of (gx, gy) in world w: a branch and
 * bound over squares covering the tolerance disc D. The distance to the nearest obstacle changes by at most
 * the distance moved, and every point of D in a square of half diagonal d lies within reach = min(2 d,
 * tol + |p - g|) of the square's point p (its centre, or the point of D nearest it); so a p whose disc of
 * radius r - reach already overlaps an obstacle rules the square out, and a p whose disc of radius r is
 * clear proves a fit. The first square's p is the goal itself, reach tol: a state within tol of the goal
 * holds the disc of radius r - tol about it. False only when every square is ruled out; true also when
 * GOAL_FIT_TESTS point tests (or the stack) do not decide (a largest clearance within a hair of r), so the
 * search, not this test, answers then. */
static bool disc_fits_near(const ap_world *w, double gx, double gy, double tol, double r)
{
    struct box {
        double x, y, s; /* centre, half side (tiles) */
    } stack[GOAL_FIT_STACK];
    int top = 0, tests = 0;
    stack[top++] = (struct box){gx, gy, tol};
    while (top > 0) {
        const struct box b = stack[--top];
        const double d = b.s * M_SQRT2, dc = hypot(b.x - gx, b.y - gy);
        if (dc - d > tol) /* the square misses D */
            continue;
        double px = b.x, py = b.y;
        if (dc > tol) {
            px = gx + (b.x - gx) * (tol / dc);
            py = gy + (b.y - gy) * (tol / dc);
        }
        if (tests + 2 > GOAL_FIT_TESTS || top + 4 > GOAL_FIT_STACK)
            return true;
        tests++;
        if (ap_world_point_clear(w, px, py, r))
            return true;
        const double reach = fmin(2.0 * d, tol + hypot(px - gx, py - gy));
        if (r - reach > 0.0) {
            tests++;
            if (!ap_world_point_clear(w, px, py, r - reach))
                continue;
        }
        const double h = 0.5 * b.s;
        stack[top++] = (struct box){b.x - h, b.y - h, h};
        stack[top++] = (struct box){b.x + h, b.y - h, h};
        stack[top++] = (struct box){b.x - h, b.y + h, h};
        stack[top++] = (struct box){b.x + h, b.y + h, h};
    }
    return false;
}

static int kino_begin(ap_plan *p, const ap_algorithm_row *row, ap_workspace *ws)
{
    p->alg = row->id;
    kino_plan *k = calloc(1, sizeof *k);
    if (k == NULL)
        return p->state = AP_E_NOMEM;
    p->kind_state = k;
    const ap_query *q = &p->q;
    const double tol_pos = or_default(q->tol_position, AP_DEFAULT_TOL_POSITION);
    ap_kino_params kp = {
        .veh = q->vehicle,
        .meters_per_tile = ap_query_meters_per_tile(q),
        .turning_radius = q->turning_radius,
        .reverse = q->reverse,
        .sx = q->sx, .sy = q->sy, .sh = q->has_sheading ? q->sheading : free_start_heading(q, tol_pos),
        .sv = q->start_speed, .free_sh = !q->has_sheading,
        .gx = q->gx, .gy = q->gy, .gh = q->gheading, .gv = q->goal_speed, .has_gh = q->has_gheading,
        .tol_pos = tol_pos,
        .tol_heading = or_default(q->tol_heading, AP_DEFAULT_TOL_HEADING),
        .tol_speed = or_default(q->tol_speed, AP_DEFAULT_TOL_SPEED),
        .weight = q->weight,
        .deadline_ns = p->deadline_ns,
    };
    ap_plan_world(q, false, &kp.world, &kp.radius);
    if (q->zone != NULL) { /* corridor mode: the zone is the only free space besides the map's */
        k->zone = *q->zone;
        k->zone_grid = ap_zone_grid_build(&k->zone); /* NULL (out of memory): every piece is measured */
        k->zone.grid = k->zone_grid;
        ap_zone_world(&k->zone, &kp.world, &kp.world); /* its width leaves room: query_check.c check_kino */
    }
    if (!ap_world_point_clear(&kp.world, q->sx, q->sy, kp.radius)) {
        if (q->zone == NULL)
            return p->state = ap_plan_end_blocked(p, AP_E_START_BLOCKED);
        p->field = "start";
        snprintf(p->message, sizeof p->message, "\"start\": the unit's disc (radius %.10g) at (%.10g, %.10g) is "
                 "outside the corridor or overlaps an obstacle", kp.radius, q->sx, q->sy);
        return p->state = AP_E_START_BLOCKED;
    }
    if (q->zone != NULL && !ap_world_point_clear(&kp.world, q->gx, q->gy, kp.radius)) {
        p->field = "goal";
        snprintf(p->message, sizeof p->message, "\"goal\": the unit's disc (radius %.10g) at (%.10g, %.10g) is "
                 "outside the corridor or overlaps an obstacle", kp.radius, q->gx, q->gy);
        return p->state = AP_E_GOAL_BLOCKED;
    }
    /* Where no point within tol_pos of the goal holds the disc, no state is a goal, and the search would only
     * end at its cap (a goal beside a wall, or between two). */
    if (kp.radius > 0.0 && !disc_fits_near(&kp.world, q->gx, q->gy, kp.tol_pos, kp.radius)) {
        p->field = "goal";
        snprintf(p->message, sizeof p->message,
                 "\"goal\": the unit's disc (radius %.10g) overlaps an obstacle wherever it ends within %g tiles of it",
                 kp.radius, kp.tol_pos);
        return p->state = AP_E_GOAL_BLOCKED;
    }
    if (ap_kino_at_goal(&kp, kp.sx, kp.sy, ap_angle_wrap(kp.sh), kp.sv)) {
        k->trivial = true;
        return p->state = AP_OK;
    }
    /* Ids: at most every expansion's successors (a free start heading's turns only at the start), within the
     * workspace. */
    uint64_t limit = cap_of(q) * (AP_KINO_MAX_SUCC - AP_KINO_FREE_TURNS) + AP_KINO_FREE_TURNS + 2;
    k->limit = limit < UINT32_MAX ? (uint32_t)limit : UINT32_MAX;
    int st = ap_kino_init(&k->d, &p->dom, &kp, ws->capacity < k->limit ? ws->capacity : k->limit);
    if (st != AP_OK)
        return p->state = st;
    if (q->probe) {
        bool reached = false;
        if ((st = kino_probe(p, k, &reached)) != AP_OK)
            return p->state = st;
        if (reached) {
            k->probe_path = true;
            return p->state = AP_OK;
        }
    }
    p->start_node = AP_KINO_START;
    p->goal_node = AP_KINO_GOAL;
    return kino_start(p, ws);
}

/* The search stopped early (the expansion cap: otherwise AP_NO_PATH; the deadline: otherwise AP_TIMEOUT):
 * the best path to the goal found so far is the answer (capped) when there is one. */
static int kino_capped(ap_plan *p, int otherwise)
{
    kino_plan *k = p->kind_state;
    if (p->has_search && ap_search_g(&p->search, AP_KINO_GOAL) < INFINITY) {
        k->capped = true;
        return p->state = AP_OK;
    }
    return p->state = otherwise;
}

static int kino_stop(ap_plan *p)
{
    return kino_capped(p, AP_TIMEOUT);
}

/* A no_path of a search that dropped states for want of ids (ap_kino_domain.dropped) is the state limit's:
 * with more ids (max_workspace_cells) a path may be found. */
static int kino_no_path_reason(ap_plan *p, int st)
{
    const kino_plan *k = p->kind_state;
    if (st == AP_NO_PATH && k->d.dropped > 0)
        p->no_path_reason = AP_NO_PATH_STATE_LIMIT;
    return st;
}

static int kino_step(ap_plan *p, uint64_t max_expansions)
{
    kino_plan *k = p->kind_state;
    /* the probe's steps and this search's expansions; not those of a search restarted on another lane */
    const uint64_t cap = cap_of(&p->q), spent = ap_plan_expanded(p) - k->discarded;
    if (spent >= cap)
        return kino_no_path_reason(p, kino_capped(p, AP_NO_PATH));
    uint64_t run = cap - spent;
    if (max_expansions != 0 && max_expansions < run)
        run = max_expansions;
    int st = ap_plan_search_step(p, run);
    if (st == AP_IN_PROGRESS && ap_plan_expanded(p) - k->discarded >= cap)
        st = kino_capped(p, AP_NO_PATH);
    else if (st == AP_TIMEOUT) /* the deadline (or the server's cancel) inside the slice */
        st = kino_capped(p, AP_TIMEOUT);
    return kino_no_path_reason(p, st);
}

static int kino_move(ap_plan *p, ap_workspace *ws)
{
    kino_plan *k = p->kind_state;
    k->discarded += p->search.expanded;
    p->expanded_before += p->search.expanded;
    return kino_start(p, ws);
}

/* The answer of a trajectory: states[0] the start, states[i] reached from states[i-1] by its action (n = 0:
 * no motion), one segment per action except that turns on the spot the same way in a row become one turn; a last state
 * marked `analytic` was reached by the analytic edge `tail` (analytic.h), whose pieces replace it.
 * Segments, timing, waypoints, duration_s, length and clear into r. Returns AP_OK or AP_E_NOMEM. */
static int kino_answer(ap_result *r, const ap_query *q, const ap_kino_state *states, size_t n,
                       const ap_kino_tail *tail)
{
    const bool analytic = n > 1 && states[n - 1].analytic && tail != NULL;
    const size_t nact = n > 1 ? n - 1 - (analytic ? 1 : 0) : 0; /* actions before the analytic edge */
    const size_t ns = nact + (analytic ? (size_t)tail->n : 0);
    ap_segment *segs = malloc((ns ? ns : 1) * sizeof *segs);
    r->timing = malloc((ns ? ns : 1) * sizeof *r->timing);
    r->waypoints = malloc((ns + 1 > 2 ? ns + 1 : 2) * sizeof *r->waypoints);
    if (segs == NULL || r->timing == NULL || r->waypoints == NULL) {
        free(segs);
        return AP_E_NOMEM;
    }
    r->waypoints[0][0] = q->sx;
    r->waypoints[0][1] = q->sy;
    double t = 0.0;
    size_t m = 0; /* segments written: turns on the spot in a row become one */
    for (size_t i = 0; i < ns; i++) {
        ap_segment sg;
        ap_seg_time tm;
        if (i < nact) {
            const ap_kino_state *from = &states[i], *to = &states[i + 1];
            if (to->len == 0.0 && to->dt == 0.0) /* a free start heading's turn (kino.h free_sh): no motion */
                continue;
            sg = ap_kino_segment(from->x, from->y, from->h, to);
            /* speeds (sg.reverse: backwards); a turn on the spot is at rest */
            tm = (ap_seg_time){sg.type == AP_SEG_TURN ? 0.0 : fabs(from->v), fabs(to->v), t, to->dt};
        } else {
            const ap_seg_time *pt = &tail->time[i - nact];
            sg = tail->seg[i - nact];
            tm = (ap_seg_time){pt->v_start, pt->v_end, t, pt->duration};
        }
        /* A free start heading: a turn on the spot before any motion only faces the unit the way it may
         * start facing anyway. The search can end so (a start state's turn to a heading that is none of its
         * start states, then its best path on from there: 0.63 s of a 4.66 s answer, a helper); dropped, the
         * answer starts facing where the turn ended, sooner by its duration. */
        if (m == 0 && !q->has_sheading && sg.type == AP_SEG_TURN)
            continue;
        /* a start speed the search takes as at rest (AP_KINO_AT_REST) is 0, as its actions were driven from */
        if (m == 0 && fabs(states[0].v) <= AP_KINO_AT_REST)
            tm.v_start = 0.0;
        t += tm.duration;
        /* Turns the same way in a row are one turn at the same rate; a turn back stays its own segment, or
         * the sum would hide a motion whose duration is not |sweep| / max_turn_rate. */
        if (sg.type == AP_SEG_TURN && m > 0 && segs[m - 1].type == AP_SEG_TURN &&
            (sg.sweep > 0.0) == (segs[m - 1].sweep > 0.0)) {
            segs[m - 1].sweep += sg.sweep;
            r->timing[m - 1].duration += tm.duration;
            continue;
        }
        segs[m] = sg;
        r->timing[m] = tm;
        r->waypoints[m + 1][0] = sg.x1;
        r->waypoints[m + 1][1] = sg.y1;
        m++;
    }
    r->n_waypoints = m + 1;
    if (m == 0) {
        r->waypoints[1][0] = q->sx;
        r->waypoints[1][1] = q->sy;
        r->n_waypoints = 2;
    }
    r->duration_s = t;
    ap_plan_set_segments(r, q, segs, m);
    r->grid_cost = r->length;
    return AP_OK;
}

static int kino_finish(ap_plan *p, ap_result *r)
{
    kino_plan *k = p->kind_state;
    if (k->trivial)
        return kino_answer(r, &p->q, NULL, 0, NULL);
    if (k->probe_path) {
        r->probe = true;
        return kino_answer(r, &p->q, k->probe, (size_t)k->probe_n, &k->probe_tail);
    }
    /* the proven path, or (capped) the best found by the stop or by a search that dropped states for want of
     * ids: the path to the goal either way */
    r->capped = k->capped || k->d.dropped > 0;
    size_t n = 0;
    uint32_t *nodes = ap_plan_path_nodes_to(&p->search, AP_KINO_GOAL, &n);
    ap_kino_state *states = nodes != NULL ? malloc((n ? n : 1) * sizeof *states) : NULL;
    int st = AP_E_NOMEM;
    if (states != NULL) {
        for (size_t i = 0; i < n; i++)
            states[i] = *(const ap_kino_state *)ap_search_payload(&p->search, nodes[i]);
        st = kino_answer(r, &p->q, states, n, k->d.tail);
    }
    free(nodes);
    free(states);
    return st;
}

const ap_plan_kind ap_plan_kind_kino = {"kinodynamic", kino_begin, kino_step, kino_move,  kino_finish, kino_release,
                                        false,         false,      false,     false,      kino_stop,
                                        NULL};
