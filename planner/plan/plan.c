/* plan.c — one path query from validation to segments.
 *
 * Sources: Pinter, "Toward More Realistic Pathfinding": "Path Failure and Timeslicing" (region table to
 * answer unreachable goals without searching; fast matrix, then the slow matrix in slices), "Smoothing the
 * A* Path" (Listing 1), "Adding Realistic Turns" (Figures 5-6, Listing 2) and "Legal Turns: The Basic
 * Methods" ("ignoring blocked tiles": curves are added after the search and only reported by `clear`).
 */
#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "art.h"
#include "../world/grid_world.h"
#include "../geom/curve.h"
#include "plan_dir.h"
#include "smooth.h"

static int check_point(const ap_map *m, double x, double y)
{
    if (!isfinite(x) || !isfinite(y) || x < 0.0 || y < 0.0 || x >= (double)m->width || y >= (double)m->height)
        return AP_E_OUT_OF_BOUNDS;
    return ap_map_passable(m, (int32_t)x, (int32_t)y) ? AP_OK : AP_E_START_BLOCKED;
}

int ap_query_check(const ap_query *q, const char **field)
{
    const char *dummy;
    if (field == NULL)
        field = &dummy;
    *field = NULL;
    if (q == NULL || q->map == NULL)
        return AP_E_INTERNAL;
    int ss = check_point(q->map, q->sx, q->sy);
    if (ss == AP_E_OUT_OF_BOUNDS) {
        *field = "start";
        return ss;
    }
    int gs = check_point(q->map, q->gx, q->gy);
    if (gs == AP_E_OUT_OF_BOUNDS) {
        *field = "goal";
        return gs;
    }
    if (ss != AP_OK) {
        *field = "start";
        return AP_E_START_BLOCKED;
    }
    if (gs != AP_OK) {
        *field = "goal";
        return AP_E_GOAL_BLOCKED;
    }
    /* `!(v >= 0)` also rejects NaN. */
    if (!(q->unit_radius >= 0.0) || q->unit_radius > AP_MAX_UNIT_RADIUS) {
        *field = "unit.radius";
        return AP_E_INVALID_REQUEST;
    }
    if (!(q->turning_radius >= 0.0) || q->turning_radius > AP_MAX_TURNING_RADIUS) {
        *field = "unit.turning_radius";
        return AP_E_INVALID_REQUEST;
    }
    if (q->has_sheading && !isfinite(q->sheading)) {
        *field = "start.heading";
        return AP_E_INVALID_REQUEST;
    }
    if (q->algorithm != AP_ALG_ASTAR && q->algorithm != AP_ALG_JPS && q->algorithm != AP_ALG_JPS_PLUS &&
        q->algorithm != AP_ALG_AUTO && !ap_plan_dir_wanted(q)) {
        *field = "search.algorithm";
        return AP_E_INVALID_REQUEST;
    }
    if (q->art_directions != 0 && q->art_directions != 8 && q->art_directions != 16) {
        *field = "unit.art_directions";
        return AP_E_INVALID_REQUEST;
    }
    if (ap_plan_dir_wanted(q)) {
        /* Legal-turn searches (plan_dir.h): their own fields and ranges. */
        int dst = ap_plan_dir_check(q, field);
        if (dst != AP_OK)
            return dst;
    }
    if (q->connectivity != 4 && q->connectivity != 8) {
        *field = "search.connectivity";
        return AP_E_INVALID_REQUEST;
    }
    /* JPS prunes 8-connected symmetries (jps.h); there is no 4-connected variant yet. Maps with terrain
     * costs are refused by ap_plan_begin, which can say why in a message. */
    if ((q->algorithm == AP_ALG_JPS || q->algorithm == AP_ALG_JPS_PLUS) && q->connectivity != 8) {
        *field = "search.algorithm";
        return AP_E_INVALID_REQUEST;
    }
    if (q->smoothing != AP_SMOOTH_NONE && q->smoothing != AP_SMOOTH_LOS) {
        *field = "smoothing";
        return AP_E_INVALID_REQUEST;
    }
    if (!(q->sample_step >= 0.0) || !isfinite(q->sample_step) ||
        (q->sample_step != 0.0 && q->sample_step < AP_MIN_SAMPLE_STEP)) {
        *field = "samples.step";
        return AP_E_INVALID_REQUEST;
    }
    return AP_OK;
}

/* Terrain costs (map.h) leave A* as the one valid search: jump point pruning assumes every move of a given
 * length costs the same, and the legal-turn searches charge curve length only. Explicit requests for them
 * are refused with the reason; "auto" goes to A* (ap_plan_dir_wanted, ap_plan_begin). */
static int weighted_refusal(ap_plan *p)
{
    const ap_query *q = &p->q;
    const char *what = NULL;
    if (q->algorithm == AP_ALG_JPS || q->algorithm == AP_ALG_JPS_PLUS)
        what = "jps and jps_plus need";
    else if (ap_plan_dir_wanted(q))
        what = "directional8/24/48 and hybrid need";
    if (what == NULL)
        return AP_OK;
    p->field = "search.algorithm";
    snprintf(p->message, sizeof p->message, "%s a uniform-cost map; this map has terrain costs (use astar or auto)",
             what);
    return AP_E_INVALID_REQUEST;
}

static int start_search(ap_plan *p, ap_workspace *ws)
{
    if (p->alg == AP_ALG_JPS || p->alg == AP_ALG_JPS_PLUS)
        ap_jps_domain_bind(&p->jps, ws); /* JPS reads arrival directions from this workspace's parents */
    int st = ap_search_begin(&p->search, ws, &p->dom, p->start_node, p->goal_node, p->deadline_ns);
    if (st != AP_OK)
        return p->state = st;
    p->search.cancel = p->cancel;
    p->has_search = true;
    return p->state = AP_IN_PROGRESS;
}

int ap_plan_begin(ap_plan *p, const ap_query *q, ap_workspace *ws, uint64_t deadline_ns)
{
    memset(p, 0, sizeof *p);
    int st = ap_query_check(q, &p->field);
    if (st != AP_OK)
        return p->state = st;
    p->q = *q;
    p->deadline_ns = deadline_ns;
    const ap_map *m = q->map;
    if (m->weighted && (st = weighted_refusal(p)) != AP_OK)
        return p->state = st;
    p->start_node = ap_map_index(m, (int32_t)q->sx, (int32_t)q->sy);
    p->goal_node = ap_map_index(m, (int32_t)q->gx, (int32_t)q->gy);
    /* Pinter, "Path Failure": an unreachable goal would make A* flood the whole component first. */
    if (m->region[p->start_node] != m->region[p->goal_node]) {
        p->region_pruned = true;
        return p->state = AP_NO_PATH;
    }
    /* Legal turns (directional8/24/48, hybrid, auto for turning units): plan_dir.c, even within one cell. */
    if (ap_plan_dir_wanted(q)) {
        int dst = ap_plan_dir_begin(p, ws);
        if (dst != AP_IN_PROGRESS && dst != AP_OK && dst != AP_NO_PATH)
            ap_plan_release(p); /* refused: the caller will not call ap_plan_finish */
        return dst;
    }
    if (p->start_node == p->goal_node)
        return p->state = AP_OK;
    /* Algorithm choice: JPS is valid for 8-connected uniform-cost maps (weighted ones were refused or sent
     * to A* above). */
    p->alg = q->algorithm;
    if (p->alg == AP_ALG_AUTO)
        p->alg = q->connectivity == 8 && !m->weighted ? AP_ALG_JPS_PLUS : AP_ALG_ASTAR;
    if (p->alg == AP_ALG_JPS || p->alg == AP_ALG_JPS_PLUS)
        /* jps_plus without a table (a map too large for int16 distances) runs online JPS. */
        st = ap_jps_domain_init(&p->jps, &p->dom, m, p->alg == AP_ALG_JPS_PLUS ? ap_jps_table_of(m) : NULL,
                                p->goal_node);
    else
        st = ap_grid_domain_init(&p->grid, &p->dom, m, q->connectivity, p->goal_node);
    if (st != AP_OK)
        return p->state = st;
    return start_search(p, ws);
}

int ap_plan_step(ap_plan *p, uint64_t max_expansions)
{
    if (p->state != AP_IN_PROGRESS)
        return p->state;
    if (p->dirp != NULL)
        return ap_plan_dir_step(p, max_expansions);
    return p->state = ap_search_run(&p->search, max_expansions);
}

int ap_plan_move(ap_plan *p, ap_workspace *ws)
{
    if (p->state != AP_IN_PROGRESS || !p->has_search)
        return p->state;
    if (p->dirp != NULL)
        return ap_plan_dir_move(p, ws);
    p->expanded_before += p->search.expanded;
    return start_search(p, ws);
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
    if (p != NULL && p->dirp != NULL)
        ap_plan_dir_release(p);
}

void ap_result_free(ap_result *r)
{
    if (r == NULL)
        return;
    free(r->waypoints);
    free(r->segments);
    free(r->samples);
    memset(r, 0, sizeof *r);
}

static int fail_result(ap_result *r, int status, const char *field)
{
    uint64_t expanded = r->expanded;
    double grid_cost = r->grid_cost;
    ap_result_free(r);
    r->status = status;
    r->field = field;
    r->expanded = expanded;
    r->grid_cost = grid_cost;
    return status;
}

/* Poses every `step` tiles from 0 and at the very end (Listing 2), walking the segments once instead of
 * calling ap_path_pose per sample, which would be quadratic on long paths. */
static int make_samples(ap_result *r, double step, size_t max_samples)
{
    double L = r->length;
    double kf = floor(L / step);
    if (!(kf + 2.0 <= (double)SIZE_MAX / 2.0))
        return AP_E_INVALID_REQUEST;
    size_t k = (size_t)kf;
    /* A last multiple of step within rounding of L is the end pose itself. */
    bool extra = L - (double)k * step > 1e-9;
    size_t count = k + 1 + (extra ? 1 : 0);
    if (count > max_samples)
        return AP_E_INVALID_REQUEST;
    r->samples = malloc(count * sizeof *r->samples);
    if (r->samples == NULL)
        return AP_E_NOMEM;
    size_t seg = 0;
    double seg_start = 0.0;
    for (size_t i = 0; i < count; i++) {
        double d = i <= k ? (double)i * step : L;
        if (d > L)
            d = L;
        if (r->n_segments == 0) {
            r->samples[i] = (ap_pose){r->waypoints[0][0], r->waypoints[0][1], 0.0};
            continue;
        }
        while (seg + 1 < r->n_segments && d >= seg_start + r->segments[seg].length) {
            seg_start += r->segments[seg].length;
            seg++;
        }
        r->samples[i] = ap_segment_pose(&r->segments[seg], d - seg_start);
        if (i + 1 == count && !(d < L)) {
            r->samples[i] = ap_path_pose(r->segments, r->n_segments, L);
        }
    }
    r->n_samples = count;
    return AP_OK;
}

int ap_plan_finish(ap_plan *p, ap_result *r)
{
    memset(r, 0, sizeof *r);
    r->status = p->state;
    r->field = p->field;
    r->region_pruned = p->region_pruned;
    r->expanded = p->expanded_before + (p->has_search ? p->search.expanded : 0);
    memcpy(r->message, p->message, sizeof r->message);
    if (p->state != AP_OK) {
        ap_plan_release(p);
        return r->status;
    }
    const ap_query *q = &p->q;
    ap_world world; /* what smoothing, `clear` and art see of the map (world.h) */
    ap_map_world(q->map, &world);
    if (p->dirp != NULL) {
        /* Legal-turn geometry (plan_dir.c); then the samples below, as for every answer. */
        int dst = ap_plan_dir_result(p, r);
        ap_plan_release(p);
        if (dst != AP_OK)
            return fail_result(r, dst, NULL);
        goto art;
    }
    const ap_map *m = q->map;

    /* The grid path: node ids from the workspace, copied out because the workspace will be reused. */
    size_t n = 1;
    uint32_t *nodes = NULL;
    if (p->has_search) {
        n = ap_search_path(&p->search, NULL, 0);
        nodes = malloc(n * sizeof *nodes);
        if (nodes == NULL)
            return fail_result(r, AP_E_NOMEM, NULL);
        ap_search_path(&p->search, nodes, n);
        r->grid_cost = p->search.cost;
        if (p->alg == AP_ALG_JPS || p->alg == AP_ALG_JPS_PLUS) {
            /* Jump points -> every cell in between, so waypoints and smoothing see A*'s kind of path. */
            size_t full = ap_jps_expand_path(m, nodes, n, NULL, 0);
            uint32_t *cells = full > 0 ? malloc(full * sizeof *cells) : NULL;
            if (cells == NULL) {
                free(nodes);
                return fail_result(r, full > 0 ? AP_E_NOMEM : AP_E_INTERNAL, NULL);
            }
            ap_jps_expand_path(m, nodes, n, cells, full);
            free(nodes);
            nodes = cells;
            n = full;
        }
    }
    size_t nw = n < 2 ? 2 : n;
    r->waypoints = malloc(nw * sizeof *r->waypoints);
    if (r->waypoints == NULL) {
        free(nodes);
        return fail_result(r, AP_E_NOMEM, NULL);
    }
    /* The exact start and goal points, and cell centres in between. */
    r->waypoints[0][0] = q->sx;
    r->waypoints[0][1] = q->sy;
    for (size_t i = 1; i + 1 < nw; i++) {
        int32_t x, y;
        ap_map_coords(m, nodes[i], &x, &y);
        r->waypoints[i][0] = x + 0.5;
        r->waypoints[i][1] = y + 0.5;
    }
    r->waypoints[nw - 1][0] = q->gx;
    r->waypoints[nw - 1][1] = q->gy;
    free(nodes);
    r->n_waypoints = nw;

    if (q->smoothing == AP_SMOOTH_LOS) {
        /* On a weighted map a shortcut may only cross the cheapest terrain: a straight line over cells of
         * cost_min never costs more than the cells it replaces, whatever they were. */
        ap_world cheap; /* the map itself when it is uniform (grid_world.h) */
        ap_map_world_cheap(m, &cheap);
        r->n_waypoints = ap_smooth_los(&cheap, r->waypoints, r->n_waypoints, q->unit_radius);
    }

    r->segments = malloc(2 * (r->n_waypoints - 1) * sizeof *r->segments);
    if (r->segments == NULL)
        return fail_result(r, AP_E_NOMEM, NULL);
    r->n_segments = ap_curve_path((const double (*)[2])r->waypoints, r->n_waypoints, q->sheading,
                                  q->has_sheading ? 1 : 0, q->turning_radius, r->segments, NULL);
    r->length = ap_path_length(r->segments, r->n_segments);
    r->clear = ap_world_path_clear(&world, r->segments, r->n_segments, q->sx, q->sy, q->unit_radius);

art:
    if (q->art_directions != 0 && r->n_segments > 0) {
        /* Fixed-angle art (art.h): the same path as legal-angle lines; `clear` is recomputed on them. */
        ap_segment *as;
        size_t nas;
        bool aclear;
        int ast = ap_art_convert(&world, q->unit_radius, q->art_directions, r->segments, r->n_segments, &as, &nas,
                                 &aclear);
        if (ast != AP_OK)
            return fail_result(r, ast, NULL);
        free(r->segments);
        r->segments = as;
        r->n_segments = nas;
        r->length = ap_path_length(as, nas);
        r->clear = aclear;
    }

    if (q->sample_step > 0.0) {
        size_t cap = q->max_samples != 0 ? q->max_samples : AP_DEFAULT_MAX_SAMPLES;
        int st = make_samples(r, q->sample_step, cap);
        if (st != AP_OK)
            return fail_result(r, st, st == AP_E_INVALID_REQUEST ? "samples.step" : NULL);
        if (r->n_segments == 0 && q->has_sheading)
            r->samples[0].heading = q->sheading;
    }
    return r->status;
}

const char *ap_plan_field(const ap_plan *p)
{
    return p->field;
}

const char *ap_plan_message(const ap_plan *p)
{
    return p->message;
}
