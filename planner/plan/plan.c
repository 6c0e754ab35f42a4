/* plan.c — one path query from validation to segments: the public API of plan.h, dispatching to the plan
 * kinds (plan_kind.h) and doing what every plan shares: validation (query_check.c), the region check,
 * fixed-angle art and pose samples.
 *
 * Sources: Pinter, "Toward More Realistic Pathfinding": "Path Failure and Timeslicing" (region table to
 * answer unreachable goals without searching; fast matrix, then the slow matrix in slices), "Fixed-Angle
 * Character Art" (art.h) and "Adding Realistic Turns" (Listing 2, plan_steps.c).
 */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "../grid/jps.h"
#include "../world/grid_world.h"
#include "algorithms.h"
#include "fields.h"
#include "art.h"
#include "plan_kind.h"
#include "plan_steps.h"
#include "../base/mem.h"

/* Start loading the cache lines the first steps of a query read at its ends, so that their misses overlap
 * instead of coming one after another: each end's passability (validation) and region (the reachability
 * test below), its search node (ap_search_begin, the goal test), and the start's JPS+ jump row and forced
 * byte (its first expansion) when the map has them. On a large map every one of them is a cache miss for a
 * new query; a short query spends more on them than on its search (BENCHMARKS.md "Grid search", the
 * twenty-eighth session). Only a hint: nothing is read, and a prefetch never faults. node[0] and node[1]
 * get the start's and the goal's node on the map the query sees (ap_query_map, ap_query_cell), which
 * ap_plan_begin_with keeps once validation has passed; UINT32_MAX for an end off that map (validation refuses
 * it) or when there is no such map (a circle world). */
static void prefetch_ends(const ap_query *q, const ap_workspace *ws, uint32_t node[2])
{
    node[0] = node[1] = UINT32_MAX;
    const ap_map *m = q->map != NULL ? ap_query_map(q) : NULL;
    if (m == NULL)
        return;
    const ap_jps_table *jt = ap_jps_table_of(m);
    const double pt[2][2] = {{q->sx, q->sy}, {q->gx, q->gy}};
    for (int i = 0; i < 2; i++) {
        if (!(pt[i][0] >= 0.0 && pt[i][1] >= 0.0 && pt[i][0] < m->width && pt[i][1] < m->height))
            continue;
        int32_t cx, cy;
        ap_query_cell(q, pt[i][0], pt[i][1], &cx, &cy);
        if (cx < 0 || cy < 0)
            continue;
        const uint32_t v = node[i] = ap_map_index(m, cx, cy);
        __builtin_prefetch(&m->pass[v]);
        __builtin_prefetch(&m->region[v]);
        if (ws != NULL && v < ws->capacity)
            __builtin_prefetch(&ws->nodes[v], 1);
        if (i == 0 && jt != NULL && v < jt->cells) {
            __builtin_prefetch(jt->dist8 != NULL ? (const void *)(jt->dist8 + (size_t)v * 8)
                                                 : (const void *)(jt->dist + (size_t)v * 8));
            __builtin_prefetch(&jt->forced[v]);
        }
    }
}

int ap_plan_begin_with(ap_plan *p, const ap_query *q, const ap_algorithm_row *row, ap_workspace *ws,
                       uint64_t deadline_ns)
{
    uint32_t ends[2];
    prefetch_ends(q, ws, ends);
    memset(p, 0, sizeof *p);
    ap_query_error e;
    int st = ap_query_validate(q, row, &e);
    if (st != AP_OK) {
        p->field = e.field;
        memcpy(p->message, e.message, sizeof p->message);
        return p->state = st;
    }
    if (row == NULL)
        row = ap_algorithm_row_of(q->algorithm); /* validated: it exists */
    p->q = *q;
    p->q.map = ap_query_map(q); /* the map as the unit's capability sees it (validated: it exists) */
    /* Headings are wrapped once here, by the true 2pi (ap_angle_wrap), so every kind sees [-pi, pi): a raw
     * 1e16 drew a straight line where an arc belonged, and a goal heading of 1e308 ended at heading 0. */
    if (p->q.has_sheading)
        p->q.sheading = ap_angle_wrap(p->q.sheading);
    if (p->q.has_gheading)
        p->q.gheading = ap_angle_wrap(p->q.gheading);
    /* A free start heading at the goal point: the unit faces the goal's heading where it stands (the free
     * heading is its own to choose), the answer a path of no length. The legal-turn searches (and auto,
     * hybrid through them) drove a whole turning circle, 2 pi R, to come back facing a goal heading that is
     * no compass heading (a helper). */
    if (!p->q.has_sheading && p->q.has_gheading && p->q.sx == p->q.gx && p->q.sy == p->q.gy) {
        p->q.has_sheading = true;
        p->q.sheading = p->q.gheading;
    }
    p->deadline_ns = deadline_ns;
    const ap_map *m = p->q.map;
    /* A circle world has no cells and no region table (circles.h: its regions prove nothing). */
    if (m != NULL) {
        /* validated: both ends are on m, where prefetch_ends found their nodes */
        if (ends[0] == UINT32_MAX || ends[1] == UINT32_MAX)
            return p->state = AP_E_INTERNAL;
        p->start_node = ends[0];
        p->goal_node = ends[1];
    }
    /* Pinter, "Path Failure": an unreachable goal would make A* flood the whole component first. The
     * capability's regions (view.h); for a square unit its anchors' (anchors joined by the square's moves
     * are joined by a point's). */
    if (m != NULL && m->region[p->start_node] != m->region[p->goal_node]) {
        p->region_pruned = true;
        return p->state = AP_NO_PATH;
    }
    p->row = row;
    p->kind = row->kind;
    st = p->kind->begin(p, row, ws);
    if (st != AP_IN_PROGRESS && st != AP_OK && st != AP_NO_PATH)
        ap_plan_release(p); /* refused: the caller will not call ap_plan_finish */
    return st;
}

int ap_plan_begin(ap_plan *p, const ap_query *q, ap_workspace *ws, uint64_t deadline_ns)
{
    return ap_plan_begin_with(p, q, NULL, ws, deadline_ns);
}

int ap_plan_step(ap_plan *p, uint64_t max_expansions)
{
    return ap_plan_step_for(p, max_expansions, 0);
}

int ap_plan_step_for(ap_plan *p, uint64_t max_expansions, uint64_t max_ns)
{
    if (p->state != AP_IN_PROGRESS)
        return p->state;
    p->slice_end_ns = max_ns != 0 ? ap_clock_ns() + max_ns : 0;
    return p->kind->step(p, max_expansions);
}

int ap_plan_stop(ap_plan *p)
{
    if (p->state != AP_IN_PROGRESS)
        return p->state;
    return p->state = p->kind->stop != NULL ? p->kind->stop(p) : AP_TIMEOUT;
}

int ap_plan_move(ap_plan *p, ap_workspace *ws)
{
    if (p->state != AP_IN_PROGRESS || !p->has_search)
        return p->state;
    return p->kind->move(p, ws);
}

uint64_t ap_plan_expanded(const ap_plan *p)
{
    return p->expanded_before + (p->has_search ? p->search.expanded : 0);
}

void ap_plan_set_cancel(ap_plan *p, const atomic_int *cancel)
{
    p->cancel = cancel;
    if (p->has_search)
        p->search.cancel = cancel;
}

void ap_plan_release(ap_plan *p)
{
    if (p != NULL && p->kind != NULL && p->kind->release != NULL)
        p->kind->release(p);
}

void ap_result_free(ap_result *r)
{
    if (r == NULL)
        return;
    AP_FREE_ALL(r->waypoints, r->segments, r->samples, r->sample_times, r->timing);
    memset(r, 0, sizeof *r);
}

/* Drop r's arrays and keep what says why: status, field, message, expansions and grid cost. */
static int fail_result(ap_result *r, int status, const char *field)
{
    ap_result keep = *r;
    ap_result_free(r);
    r->status = status;
    r->field = field;
    r->expanded = keep.expanded;
    r->grid_cost = keep.grid_cost;
    memcpy(r->message, keep.message, sizeof r->message);
    return status;
}

/* Fixed-angle art (art.h): the same path as legal-angle lines; `clear` is recomputed on them, in the world
 * the plan's kind names (its art_world: any_angle's own model) or else world.h's strict rule at the unit's
 * radius. Before ap_plan_release: the kind's world may view what the kind still holds. */
static int make_art(ap_result *r, const ap_plan *p)
{
    ap_segment *as;
    size_t nas;
    bool aclear;
    ap_world world;
    double rad;
    if (p->kind->art_world != NULL)
        p->kind->art_world(p, &world, &rad);
    else
        ap_plan_world(&p->q, false, &world, &rad);
    int st = ap_art_convert(&world, rad, p->q.art_directions, r->segments, r->n_segments, &as, &nas, &aclear);
    if (st != AP_OK)
        return st;
    free(r->segments);
    r->segments = as;
    r->n_segments = nas;
    r->length = ap_path_length(as, nas);
    r->clear = aclear;
    return AP_OK;
}

int ap_plan_finish(ap_plan *p, ap_result *r)
{
    memset(r, 0, sizeof *r);
    r->status = p->state;
    r->field = p->field;
    r->region_pruned = p->region_pruned;
    r->expanded = ap_plan_expanded(p);
    memcpy(r->message, p->message, sizeof r->message);
    if (p->state == AP_NO_PATH)
        r->no_path_reason = p->no_path_reason;
    if (p->state == AP_NO_PATH && (p->region_pruned || (p->kind != NULL && p->kind->complete)))
        r->no_path_reason = AP_NO_PATH_UNREACHABLE;
    if (p->state != AP_OK) {
        ap_plan_release(p);
        return r->status;
    }
    const ap_query *q = &p->q;
    int st = p->kind->finish(p, r);
    if (st == AP_OK && q->art_directions != 0 && r->n_segments > 0)
        st = make_art(r, p);
    ap_plan_release(p);
    if (st != AP_OK)
        return fail_result(r, st, NULL);
    if (q->timed && r->timing == NULL && (st = ap_plan_timing(r, q)) != AP_OK)
        return fail_result(r, st, st == AP_E_INVALID_REQUEST ? ap_qfield_name(AP_QF_START_SPEED) : NULL);
    if (q->sample_step > 0.0 && (st = ap_plan_samples(r, q)) != AP_OK)
        return fail_result(r, st, st == AP_E_INVALID_REQUEST ? ap_qfield_name(AP_QF_SAMPLE_STEP) : NULL);
    if (q->sample_dt > 0.0 && (st = ap_plan_samples_timed(r, q)) != AP_OK)
        return fail_result(r, st, st == AP_E_INVALID_REQUEST ? ap_qfield_name(AP_QF_SAMPLE_DT) : NULL);
    return r->status;
}

bool ap_plan_finish_is_cheap(const ap_plan *p)
{
    if (p->state != AP_OK || !p->has_search || p->search.state != AP_OK)
        return true;
    const double cost = p->search.cost; /* >= the answer's length: every move costs at least its length */
    return cost <= AP_PLAN_CHEAP_FINISH_TILES &&
           !(p->q.sample_step > 0.0 && cost / p->q.sample_step > AP_PLAN_CHEAP_FINISH_SAMPLES) &&
           !(p->q.sample_dt > 0.0);
}

const char *ap_plan_field(const ap_plan *p)
{
    return p->field;
}

const char *ap_plan_message(const ap_plan *p)
{
    return p->message;
}
