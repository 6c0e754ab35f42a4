/* plan_kino.c — the kinodynamic plan kind (ap_plan_kind_kino, plan_kind.h): A* in (x, y, heading, speed)
 * over the domain of planner/kino (kino.h), cost in seconds, on the plan's workspace with per-node payload.
 * The answer's segments are the actions driven (one line or arc each, constant acceleration along it), with
 * their speeds and times in ap_result.timing and the total in duration_s.
 *
 * The expansion cap (search.max_expansions) ends the search as no_path "not_found"; the search is not
 * complete (its states are discretised and it keeps one exact pose per state), so a no_path proves nothing.
 *
 * Source: Schnieders, "AIPATH: Movement Planning in Physically Constrained Domains", 2014, chapters 3-5
 * (5.1: the iteration cap and goal tolerances).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../kino/kino.h"
#include "plan_kind.h"
#include "plan_steps.h"

typedef struct kino_plan {
    ap_kino_domain d;
    uint32_t limit; /* ids the expansion cap can use; each workspace caps it at its capacity */
    bool trivial; /* the start is within the goal tolerance: no motion */
} kino_plan;

static void kino_release(ap_plan *p)
{
    kino_plan *k = p->kind_state;
    if (k == NULL)
        return;
    ap_kino_free(&k->d);
    free(k);
    p->kind_state = NULL;
}

static double or_default(double v, double d)
{
    return v > 0.0 ? v : d;
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
    if (st == AP_IN_PROGRESS)
        ap_kino_bind(&k->d, &p->search);
    return st;
}

static int kino_begin(ap_plan *p, const ap_algorithm_row *row, ap_workspace *ws)
{
    p->alg = row->id;
    kino_plan *k = calloc(1, sizeof *k);
    if (k == NULL)
        return p->state = AP_E_NOMEM;
    p->kind_state = k;
    const ap_query *q = &p->q;
    ap_kino_params kp = {
        .veh = q->vehicle,
        .meters_per_tile = or_default(q->meters_per_tile, 1.0),
        .turning_radius = q->turning_radius,
        .sx = q->sx, .sy = q->sy, .sh = q->has_sheading ? q->sheading : 0.0, .sv = q->start_speed,
        .gx = q->gx, .gy = q->gy, .gh = q->gheading, .gv = q->goal_speed, .has_gh = q->has_gheading,
        .tol_pos = or_default(q->tol_position, AP_DEFAULT_TOL_POSITION),
        .tol_heading = or_default(q->tol_heading, AP_DEFAULT_TOL_HEADING),
        .tol_speed = or_default(q->tol_speed, AP_DEFAULT_TOL_SPEED),
    };
    ap_plan_world(q, false, &kp.world, &kp.radius);
    if (!ap_world_point_clear(&kp.world, q->sx, q->sy, kp.radius)) {
        p->field = "start";
        return p->state = AP_E_START_BLOCKED;
    }
    if (ap_kino_at_goal(&kp, kp.sx, kp.sy, ap_angle_wrap(kp.sh), kp.sv)) {
        k->trivial = true;
        return p->state = AP_OK;
    }
    /* Ids: at most every expansion's successors, within the workspace. */
    uint64_t limit = cap_of(q) * AP_KINO_MAX_SUCC + 2;
    k->limit = limit < UINT32_MAX ? (uint32_t)limit : UINT32_MAX;
    int st = ap_kino_init(&k->d, &p->dom, &kp, ws->capacity < k->limit ? ws->capacity : k->limit);
    if (st != AP_OK)
        return p->state = st;
    p->start_node = AP_KINO_START;
    p->goal_node = AP_KINO_GOAL;
    return kino_start(p, ws);
}

static int kino_step(ap_plan *p, uint64_t max_expansions)
{
    const uint64_t cap = cap_of(&p->q), spent = ap_plan_expanded(p); /* restarts included */
    if (spent >= cap)
        return p->state = AP_NO_PATH;
    uint64_t run = cap - spent;
    if (max_expansions != 0 && max_expansions < run)
        run = max_expansions;
    int st = ap_plan_search_step(p, run);
    if (st == AP_IN_PROGRESS && ap_plan_expanded(p) >= cap)
        st = p->state = AP_NO_PATH;
    return st;
}

static int kino_move(ap_plan *p, ap_workspace *ws)
{
    p->expanded_before += p->search.expanded;
    return kino_start(p, ws);
}

static int kino_finish(ap_plan *p, ap_result *r)
{
    kino_plan *k = p->kind_state;
    const ap_query *q = &p->q;
    size_t n = 0;
    uint32_t *nodes = NULL;
    if (!k->trivial && (nodes = ap_plan_path_nodes(&p->search, &n)) == NULL)
        return AP_E_NOMEM;
    const size_t ns = n > 1 ? n - 1 : 0;
    ap_segment *segs = malloc((ns ? ns : 1) * sizeof *segs);
    r->timing = malloc((ns ? ns : 1) * sizeof *r->timing);
    r->waypoints = malloc((ns + 1 > 2 ? ns + 1 : 2) * sizeof *r->waypoints);
    if (segs == NULL || r->timing == NULL || r->waypoints == NULL) {
        free(nodes);
        free(segs);
        return AP_E_NOMEM;
    }
    r->waypoints[0][0] = q->sx;
    r->waypoints[0][1] = q->sy;
    double t = 0.0;
    for (size_t i = 0; i < ns; i++) {
        const ap_kino_state *from = ap_search_payload(&p->search, nodes[i]);
        const ap_kino_state *to = ap_search_payload(&p->search, nodes[i + 1]);
        segs[i] = ap_kino_segment(from->x, from->y, from->h, to->curv, to->len);
        r->timing[i] = (ap_seg_time){from->v, to->v, t, to->dt};
        t += to->dt;
        r->waypoints[i + 1][0] = segs[i].x1;
        r->waypoints[i + 1][1] = segs[i].y1;
    }
    free(nodes);
    r->n_waypoints = ns + 1;
    if (ns == 0) {
        r->waypoints[1][0] = q->sx;
        r->waypoints[1][1] = q->sy;
        r->n_waypoints = 2;
    }
    r->duration_s = t;
    ap_plan_set_segments(r, q, segs, ns);
    r->grid_cost = r->length;
    return AP_OK;
}

const ap_plan_kind ap_plan_kind_kino = {"kinodynamic", kino_begin, kino_step, kino_move, kino_finish, kino_release,
                                        false,         false,      false,     false};
