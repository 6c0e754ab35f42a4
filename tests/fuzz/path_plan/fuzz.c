/* fuzz.c — a POST /v1/path body all the way through the planner: parsed (ap_wire_parse_path_request), the
 * unit kind applied and validated (ap_query_validate) on a small map of this file's, planned on a
 * workspace with bounded work (ap_plan_begin, ap_plan_step in slices, ap_plan_stop), answered
 * (ap_plan_finish) and encoded (ap_wire_encode_path). A valid request may make no crash, hang or 500:
 * the answer's status is one the planner documents, an ok answer's geometry, samples and duration are
 * finite, a timed answer keeps its vehicle's limits (check_timing), a kinodynamic one passes the goal test
 * (check_goal), and its encoding succeeds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planner/base/clock.h"
#include "planner/base/limits.h"
#include "planner/base/path.h"
#include "planner/base/status.h"
#include "planner/kino/timing.h"
#include "planner/plan/plan.h"
#include "planner/search/search.h"
#include "proto/wire.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/small_map.h"
#include "tests/fuzz/wire_error.h"

/* The map: 24 x 24, a wall down the middle with a gap of 6 at its top, pillars in the bottom half; the unit
 * kinds are the built-in ones (no config). Uniform costs, so every algorithm is valid on it. */
#define SIDE 24
static char plan_cell(int x, int y)
{
    const bool wall = x == 12 && y >= 6;
    const bool pillar = x % 6 == 3 && y % 6 == 3 && y >= 12;
    return wall || pillar ? '@' : '.';
}

static ap_map *the_map(void)
{
    static ap_map *m;
    if (m == NULL)
        m = ap_fuzz_small_map(SIDE, SIDE, plan_cell);
    return m;
}

/* Work bounds: every slice is at most SLICE expansions, at most SLICES of them, then the plan is stopped
 * (as the server's deadline stops it); a kinodynamic search at most KINO_CAP expansions. */
#define SLICE 500
#define SLICES 40
#define KINO_CAP 1500

static bool finite_segment(const ap_segment *s)
{
    return isfinite(s->x0) && isfinite(s->y0) && isfinite(s->x1) && isfinite(s->y1) && isfinite(s->length) &&
           s->length >= 0.0;
}

/* Within the limit lim, up to the rounding a planner's sums leave (relative 1e-9, absolute 1e-6). */
static bool within(double v, double lim)
{
    return v <= lim + 1e-9 * fabs(lim) + 1e-6;
}

/* The speed profile of a timed answer (kinodynamic, or vehicle limits named) against q's vehicle, from the
 * answer's numbers alone: each segment starts where the one before ends, at its end speed and end time;
 * speeds within the top speed of its direction; constant acceleration within max_accel and max_brake that
 * covers the segment's length; v^2 / r within max_lateral_accel on arcs; the durations sum to duration_s. */
static void check_timing(const ap_query *q, const ap_result *r)
{
    const ap_vehicle *v = &q->vehicle;
    const double mpt = q->meters_per_tile > 0.0 ? q->meters_per_tile : 1.0;
    double t = 0.0;
    for (size_t i = 0; i < r->n_segments; i++) {
        const ap_segment *s = &r->segments[i];
        const ap_seg_time *tm = &r->timing[i];
        if (!(tm->duration >= 0.0) || !isfinite(tm->duration) || fabs(tm->t_start - t) > 1e-6 * (1.0 + t))
            abort();
        if (i > 0 && (fabs(tm->v_start - r->timing[i - 1].v_end) > 1e-6 ||
                      hypot(s->x0 - r->segments[i - 1].x1, s->y0 - r->segments[i - 1].y1) > 1e-6))
            abort();
        const double top = s->reverse ? v->max_reverse_speed : v->max_speed;
        if (!(tm->v_start >= -1e-9) || !(tm->v_end >= -1e-9) || !within(tm->v_start, top) || !within(tm->v_end, top))
            abort();
        if (s->type != AP_SEG_TURN && tm->duration > 0.0) {
            const double acc = (tm->v_end - tm->v_start) / tm->duration;
            if (!within(acc, v->max_accel) || !within(-acc, v->max_brake))
                abort();
            const double dist = 0.5 * (tm->v_start + tm->v_end) * tm->duration;
            if (fabs(dist - s->length * mpt) > 1e-6 * (1.0 + s->length * mpt))
                abort();
        }
        if (s->type == AP_SEG_ARC) {
            const double vm = fmax(tm->v_start, tm->v_end);
            if (!within(vm * vm / (s->radius * mpt), v->max_lateral_accel))
                abort();
        }
        t += tm->duration;
    }
    if (fabs(r->duration_s - t) > 1e-6 * (1.0 + t))
        abort();
}

/* A kinodynamic answer (proven, capped or the probe's) starts at the start and passes the goal test: its end
 * within the position tolerance of the goal, its end speed (forward; backwards counts negative) within the
 * speed tolerance of the goal speed, and with a goal heading its end heading within that tolerance. */
static void check_goal(const ap_query *q, const ap_result *r)
{
    const ap_segment *a = &r->segments[0], *e = &r->segments[r->n_segments - 1];
    const double tp = q->tol_position > 0.0 ? q->tol_position : AP_DEFAULT_TOL_POSITION;
    const double ts = q->tol_speed > 0.0 ? q->tol_speed : AP_DEFAULT_TOL_SPEED;
    const double th = q->tol_heading > 0.0 ? q->tol_heading : AP_DEFAULT_TOL_HEADING;
    if (hypot(a->x0 - q->sx, a->y0 - q->sy) > 1e-9 || hypot(e->x1 - q->gx, e->y1 - q->gy) > tp + 1e-9)
        abort();
    const double u = r->timing[r->n_segments - 1].v_end, vend = e->reverse ? -u : u;
    if (fabs(vend - q->goal_speed) > ts + 1e-9)
        abort();
    /* (the goal heading reduced by the true 2 pi first, as the plan does: a heading of 3e20 minus the end's
     * would round the end's away) */
    if (q->has_gheading &&
        fabs(ap_angle_wrap(ap_segment_end_heading(e) - ap_angle_wrap(q->gheading))) > th + 1e-9)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ap_workspace ws;
    static bool ws_ready;
    if (!ws_ready) {
        if (ap_workspace_init(&ws, 1u << 17, AP_PLAN_MAX_SUCC) != AP_OK)
            abort();
        ws_ready = true;
    }
    ap_path_request req;
    if (!ap_fuzz_parse_path_request(data, size, &req))
        return 0;
    ap_wire_error err;
    ap_query q = req.q;
    q.map = the_map();
    /* inside the map, as a client that read its size would ask */
    q.sx = fmod(fabs(q.sx), (double)SIDE), q.sy = fmod(fabs(q.sy), (double)SIDE);
    q.gx = fmod(fabs(q.gx), (double)SIDE), q.gy = fmod(fabs(q.gy), (double)SIDE);
    q.max_samples = 4096;
    if (ap_wire_apply_unit_kind(&req.unit, NULL, 0, &q, &err) != AP_OK) {
        ap_fuzz_check_wire_error(AP_E_INVALID_REQUEST, &err);
        return 0;
    }
    /* The per-unit tables of large turning units take seconds to build (a turning profile for radius 64 and
     * a disc of 16: ~20 s; the server bounds it by the request's deadline and its admission hook): on a
     * 24 x 24 map such units fit nowhere anyway, so they are scaled down to keep the fuzzer fast. */
    if (q.turning_radius > 6.0)
        q.turning_radius = 6.0;
    if (q.unit_radius > 3.0)
        q.unit_radius = 3.0;
    ap_query_error qe;
    if (ap_query_validate(&q, NULL, &qe) != AP_OK)
        return 0; /* (the path_request target checks the refusals) */
    if (q.algorithm == AP_ALG_KINODYNAMIC && (q.max_expansions == 0 || q.max_expansions > KINO_CAP))
        q.max_expansions = KINO_CAP;

    ap_plan p;
    /* a backstop as the server's deadline (a search that ignores it is a hang libFuzzer reports) */
    int st = ap_plan_begin(&p, &q, &ws, ap_clock_ns() + 3000000000ull);
    for (int i = 0; st == AP_IN_PROGRESS && i < SLICES; i++)
        st = ap_plan_step(&p, SLICE);
    if (st == AP_IN_PROGRESS)
        st = ap_plan_stop(&p);
    if (st == AP_IN_PROGRESS)
        abort();
    ap_result r;
    const int fs = ap_plan_finish(&p, &r);
    if (fs != r.status)
        abort();
    switch (fs) {
    case AP_OK:
        for (size_t i = 0; i < r.n_segments; i++)
            if (!finite_segment(&r.segments[i]))
                abort();
        for (size_t i = 0; i < r.n_samples; i++)
            if (!isfinite(r.samples[i].x) || !isfinite(r.samples[i].y) || !isfinite(r.samples[i].heading))
                abort();
        if (!isfinite(r.length) || r.length < 0.0 || (r.timing != NULL && !(r.duration_s >= 0.0)))
            abort();
        if (r.timing != NULL)
            check_timing(&q, &r);
        if (q.algorithm == AP_ALG_KINODYNAMIC && r.n_segments > 0)
            check_goal(&q, &r);
        break;
    case AP_NO_PATH:
    case AP_TIMEOUT:
    case AP_E_START_BLOCKED:
    case AP_E_GOAL_BLOCKED:
    case AP_E_INVALID_REQUEST: /* samples beyond max_samples, a start speed the path cannot take */
    case AP_E_OUT_OF_BOUNDS:
        break;
    default:
        abort(); /* AP_E_NOMEM on 24 x 24 is a bug too */
    }
    char *body = ap_wire_encode_path(req.map, &r, NULL, NULL);
    if (body == NULL)
        abort();
    free(body);
    ap_result_free(&r);
    return 0;
}
