/* plan_steps.c — the steps every plan kind shares (plan_steps.h).
 *
 * Source: Pinter, "Toward More Realistic Pathfinding", "Path Failure and Timeslicing" and "Adding Realistic
 * Turns" (Listing 2).
 */
#include "plan_steps.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../kino/kino.h"
#include "../world/grid_world.h"

int ap_plan_search_begin(const ap_plan *p, ap_search *s, ap_workspace *ws, const ap_domain *dom, uint32_t start,
                         uint32_t goal)
{
    int st = ap_search_begin(s, ws, dom, start, goal, p->deadline_ns);
    if (st == AP_OK)
        s->cancel = p->cancel;
    return st;
}

int ap_plan_start_search(ap_plan *p, ap_workspace *ws)
{
    int st = ap_plan_search_begin(p, &p->search, ws, &p->dom, p->start_node, p->goal_node);
    if (st != AP_OK)
        return p->state = st;
    p->has_search = true;
    return p->state = AP_IN_PROGRESS;
}

int ap_plan_search_step(ap_plan *p, uint64_t max_expansions)
{
    return p->state = ap_search_run(&p->search, max_expansions);
}

int ap_plan_search_move(ap_plan *p, ap_workspace *ws)
{
    p->expanded_before += p->search.expanded;
    return ap_plan_start_search(p, ws);
}

uint32_t *ap_plan_path_nodes_to(const ap_search *s, uint32_t node, size_t *n)
{
    *n = ap_search_path_to(s, node, NULL, 0);
    uint32_t *nodes = malloc((*n ? *n : 1) * sizeof *nodes);
    if (nodes != NULL)
        ap_search_path_to(s, node, nodes, *n);
    return nodes;
}

uint32_t *ap_plan_path_nodes(const ap_search *s, size_t *n)
{
    if (s->state != AP_OK) {
        *n = 0;
        return malloc(sizeof(uint32_t));
    }
    return ap_plan_path_nodes_to(s, s->goal, n);
}

void ap_plan_node_centre(const ap_query *q, uint32_t node, double *x, double *y)
{
    const double off = q->unit_size > 0 ? 0.5 * q->unit_size : 0.5;
    int32_t cx, cy;
    ap_map_coords(q->map, node, &cx, &cy);
    *x = cx + off;
    *y = cy + off;
}

double (*ap_plan_cell_waypoints(const ap_query *q, const uint32_t *nodes, size_t n, size_t *nw))[2]
{
    *nw = n < 2 ? 2 : n;
    double(*w)[2] = malloc(*nw * sizeof *w);
    if (w == NULL)
        return NULL;
    w[0][0] = q->sx;
    w[0][1] = q->sy;
    for (size_t i = 1; i + 1 < *nw; i++)
        ap_plan_node_centre(q, nodes[i], &w[i][0], &w[i][1]);
    w[*nw - 1][0] = q->gx;
    w[*nw - 1][1] = q->gy;
    return w;
}

void ap_plan_set_segments(ap_result *r, const ap_query *q, ap_segment *segs, size_t n)
{
    r->segments = segs;
    r->n_segments = n;
    r->length = ap_path_length(segs, n);
    ap_world world;
    double rad;
    ap_plan_world(q, false, &world, &rad);
    r->clear = ap_world_path_clear(&world, segs, n, q->sx, q->sy, rad);
}

bool ap_plan_unit_fits_at(const ap_query *q, double x, double y)
{
    ap_world w;
    double r;
    ap_plan_world(q, false, &w, &r);
    return ap_world_point_clear(&w, x, y, r);
}

bool ap_plan_unit_line_clear(const ap_query *q, double ax, double ay, double bx, double by)
{
    ap_world w;
    double r;
    ap_plan_world(q, false, &w, &r);
    return ap_world_line_clear(&w, ax, ay, bx, by, r);
}

int ap_plan_end_blocked(ap_plan *p, int st)
{
    if (st != AP_E_START_BLOCKED && st != AP_E_GOAL_BLOCKED)
        return st;
    const bool start = st == AP_E_START_BLOCKED;
    const ap_query *q = &p->q;
    p->field = start ? "start" : "goal";
    if (q->unit_radius > 0.0)
        snprintf(p->message, sizeof p->message,
                 "\"%s\": the unit's disc (radius %.10g) at (%g, %g) overlaps an obstacle or the map's edge", p->field,
                 q->unit_radius, start ? q->sx : q->gx, start ? q->sy : q->gy);
    else /* a point whose cell validation found free: an obstacle circle or an edge holds it */
        snprintf(p->message, sizeof p->message,
                 "\"%s\": the point (%g, %g) is inside or on an obstacle circle, a blocked cell's edge or the map's "
                 "edge", p->field, start ? q->sx : q->gx, start ? q->sy : q->gy);
    return st;
}

int ap_plan_ends_fit(ap_plan *p, bool points)
{
    const ap_query *q = &p->q;
    if ((!points && !(q->unit_radius > 0.0)) || q->unit_size > 0)
        return AP_OK;
    if (!ap_plan_unit_fits_at(q, q->sx, q->sy))
        return ap_plan_end_blocked(p, AP_E_START_BLOCKED);
    if (!ap_plan_unit_fits_at(q, q->gx, q->gy))
        return ap_plan_end_blocked(p, AP_E_GOAL_BLOCKED);
    return AP_OK;
}

void ap_plan_world(const ap_query *q, bool cheap, ap_world *w, double *r)
{
    if (q->map == NULL) { /* a circle world */
        ap_circle_world_view(q->circles, w);
        *r = q->unit_radius;
    } else if (q->unit_size > 0) {
        ap_square_world(q->map, w);
        *r = 0.5 * q->unit_size;
    } else {
        if (cheap)
            ap_map_world_cheap(q->map, w);
        else
            ap_map_world(q->map, w);
        *r = q->unit_radius;
    }
}

/* The heading of a unit that stands still (a path of no segments): the one it was given; with only a goal
 * heading, that one (its free start heading is the goal's: nothing to drive), not 0 (a helper's any_angle
 * query); samples by step and by dt alike (by dt it stood at 0 facing a goal heading of 2: a helper). */
static double standing_heading(const ap_query *q)
{
    return q->has_sheading ? q->sheading : q->has_gheading ? q->gheading : 0.0;
}

/* How many samples at 0, step, 2 step, ... up to total and once more at the end: the last multiple k of
 * step in *k, the count in *count. More than q->max_samples (0 = AP_DEFAULT_MAX_SAMPLES): the counts in
 * r->message and AP_E_INVALID_REQUEST. */
static int sample_count(ap_result *r, const ap_query *q, double total, double step, size_t *k, size_t *count)
{
    const size_t max_samples = q->max_samples != 0 ? q->max_samples : AP_DEFAULT_MAX_SAMPLES;
    double kf = floor(total / step);
    *k = kf + 2.0 <= (double)SIZE_MAX / 2.0 ? (size_t)kf : SIZE_MAX / 2;
    /* A last multiple of step within rounding of the total is the end itself. */
    bool extra = total - (double)*k * step > 1e-9;
    *count = *k + 1 + (extra ? 1 : 0);
    if (!(kf + 2.0 <= (double)SIZE_MAX / 2.0) || *count > max_samples) {
        /* a step of 1e-300 tiles would need a count of 300 digits (or infinity): above 1e15 the message says
         * so rather than print it */
        const double need = kf + 1.0 + (extra ? 1.0 : 0.0);
        if (need <= 1e15)
            snprintf(r->message, sizeof r->message, "at most %zu samples (max_samples), this path needs %.0f",
                     max_samples, need);
        else
            snprintf(r->message, sizeof r->message,
                     "at most %zu samples (max_samples), this path needs more than 1e15", max_samples);
        return AP_E_INVALID_REQUEST;
    }
    return AP_OK;
}

/* Walks the segments once instead of calling ap_path_pose per sample, which would be quadratic on long
 * paths. */
int ap_plan_samples(ap_result *r, const ap_query *q)
{
    const double step = q->sample_step, L = r->length;
    size_t k, count;
    int st = sample_count(r, q, L, step, &k, &count);
    if (st != AP_OK)
        return st;
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
            r->samples[i] = (ap_pose){r->waypoints[0][0], r->waypoints[0][1], standing_heading(q)};
            continue;
        }
        while (seg + 1 < r->n_segments && d >= seg_start + r->segments[seg].length) {
            seg_start += r->segments[seg].length;
            seg++;
        }
        r->samples[i] = ap_segment_pose(&r->segments[seg], d - seg_start);
        /* The last sample is the end (sample_count: a last multiple of step within rounding of L counts as
         * it), whose pose is the path's end pose: d a rounding step short of L stopped before a turn on the
         * spot there. */
        if (i + 1 == count)
            r->samples[i] = ap_path_pose(r->segments, r->n_segments, L);
    }
    r->n_samples = count;
    return AP_OK;
}

int ap_plan_timing(ap_result *r, const ap_query *q)
{
    const ap_segment *first = r->n_segments > 0 ? &r->segments[0] : NULL;
    const ap_segment *last = r->n_segments > 0 ? &r->segments[r->n_segments - 1] : NULL;
    /* no path to drive (the goal is the start) but a turn on the spot from one given heading to the other: as
     * at a path's start, the unit is at rest to turn (it answered ok, 0 s, turning 2 rad at 2 m/s: a helper) */
    if (first == NULL && q->has_sheading && q->has_gheading && q->start_speed > 0.0 &&
        fabs(ap_angle_wrap(q->gheading - q->sheading)) > AP_TIMING_CORNER) {
        snprintf(r->message, sizeof r->message, "the unit turns on the spot from start.heading %.4g to goal.heading "
                 "%.4g rad and drives nowhere: \"start.speed\" must be 0", q->sheading, q->gheading);
        return AP_E_INVALID_REQUEST;
    }
    if (first != NULL && q->has_sheading && q->start_speed > 0.0 &&
        fabs(ap_angle_wrap(first->heading - q->sheading)) > AP_TIMING_CORNER) {
        snprintf(r->message, sizeof r->message, "the unit turns on the spot at the start (start.heading %.4g, path "
                 "%.4g rad): \"start.speed\" must be 0", q->sheading, first->heading);
        return AP_E_INVALID_REQUEST;
    }
    /* start.speed and goal.speed are forward speeds: a unit rolling forward cannot leave backwards, and one
     * that arrives backwards comes to rest there (a cusp at either end, as between segments) */
    if (first != NULL && first->reverse && q->start_speed > 0.0) {
        snprintf(r->message, sizeof r->message, "the path leaves backwards and start.speed is a forward speed: "
                 "\"start.speed\" must be 0");
        return AP_E_INVALID_REQUEST;
    }
    double v_end = q->goal_speed;
    if (last != NULL && q->has_gheading && fabs(ap_angle_wrap(ap_segment_end_heading(last) - q->gheading)) > AP_TIMING_CORNER)
        v_end = 0.0; /* it turns on the spot at the goal */
    if (last != NULL && last->reverse)
        v_end = 0.0;
    ap_segment *segs;
    ap_seg_time *tm;
    size_t n;
    double dur, vmax = 0.0;
    int st = ap_timing_profile(&q->vehicle, ap_query_meters_per_tile(q), r->segments, r->n_segments,
                               q->start_speed, v_end, &segs, &tm, &n, &dur, &vmax);
    if (st == AP_E_INVALID_REQUEST) {
        /* the highest start speed that works, rounded down to the 6 digits printed: rounded to nearest it could
         * name a speed just above it (sqrt(60) = 7.745967 printed 7.74597, itself refused) */
        const double scale = vmax > 0.0 ? pow(10.0, 5.0 - floor(log10(vmax))) : 1.0;
        const double shown = vmax > 0.0 ? floor(vmax * scale) / scale : vmax;
        char given[32];
        snprintf(r->message, sizeof r->message, "\"start.speed\" %s m/s is above what this path allows within "
                 "the limits (at most %.6g m/s)", ap_status_number(given, q->start_speed), shown);
    }
    if (st != AP_OK)
        return st;
    free(r->segments);
    r->segments = segs;
    r->n_segments = n;
    r->timing = tm;
    r->duration_s = dur;
    r->length = ap_path_length(segs, n);
    return AP_OK;
}

/* Distance along a segment of length len driven in dur seconds from v0 to v1 m/s at constant acceleration
 * a = (v1 - v0) / dur, after tau seconds: v0 tau + a tau^2 / 2 metres, as a fraction of the segment's
 * (v0 + v1) dur / 2 metres, so no scale is needed. */
static double timed_distance(const ap_seg_time *tm, double len, double tau)
{
    const double v0 = tm->v_start, v1 = tm->v_end, dur = tm->duration, whole = 0.5 * (v0 + v1) * dur;
    if (!(dur > 0.0) || !(whole > 0.0))
        return 0.0;
    const double a = (v1 - v0) / dur, s = len * (v0 * tau + 0.5 * a * tau * tau) / whole;
    return s < 0.0 ? 0.0 : s > len ? len : s;
}

int ap_plan_samples_timed(ap_result *r, const ap_query *q)
{
    const double dt = q->sample_dt, T = r->duration_s;
    size_t k, count;
    if (r->timing == NULL) { /* query_check refuses dt for kinds without timing; this is the backstop */
        snprintf(r->message, sizeof r->message, "\"samples.dt\" needs an answer with timing");
        return AP_E_INVALID_REQUEST;
    }
    int st = sample_count(r, q, T, dt, &k, &count);
    if (st != AP_OK)
        return st;
    r->samples = malloc(count * sizeof *r->samples);
    r->sample_times = malloc(count * sizeof *r->sample_times);
    if (r->samples == NULL || r->sample_times == NULL)
        return AP_E_NOMEM;
    size_t seg = 0;
    double seg_start = 0.0; /* tiles before segment seg */
    for (size_t i = 0; i < count; i++) {
        const bool last = i + 1 == count;
        double t = last ? T : fmin((double)i * dt, T);
        if (r->n_segments == 0) { /* standing: at rest below AP_KINO_AT_REST, as every answer starts (README) */
            r->samples[i] = (ap_pose){r->waypoints[0][0], r->waypoints[0][1], standing_heading(q)};
            r->sample_times[i] =
                (ap_sample_time){0.0, t, fabs(q->start_speed) <= AP_KINO_AT_REST ? 0.0 : q->start_speed};
            continue;
        }
        while (seg + 1 < r->n_segments && t >= r->timing[seg].t_start + r->timing[seg].duration) {
            seg_start += r->segments[seg].length;
            seg++;
        }
        const ap_seg_time *tm = &r->timing[seg];
        double tau = fmin(fmax(t - tm->t_start, 0.0), tm->duration);
        double s = timed_distance(tm, r->segments[seg].length, tau);
        double v = tm->duration > 0.0 ? tm->v_start + (tm->v_end - tm->v_start) / tm->duration * tau : tm->v_end;
        r->samples[i] = ap_segment_pose(&r->segments[seg], s);
        if (r->segments[seg].type == AP_SEG_TURN && tm->duration > 0.0) /* turning on the spot at a constant rate */
            r->samples[i].heading = ap_angle_wrap(r->segments[seg].heading + r->segments[seg].sweep * tau / tm->duration);
        r->sample_times[i] = (ap_sample_time){seg_start + s, t, v};
        if (last) { /* the end pose and speed exactly */
            r->samples[i] = ap_path_pose(r->segments, r->n_segments, r->length);
            r->sample_times[i] = (ap_sample_time){r->length, T, r->timing[r->n_segments - 1].v_end};
        }
    }
    r->n_samples = count;
    return AP_OK;
}
