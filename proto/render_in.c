/* render_in.c — reading POST /v1/render bodies and the stored /v1/path answers they carry (render.h), with
 * the strict reader every request schema uses (json_in.h). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../planner/base/limits.h"
#include "../planner/plan/algorithms.h"
#include "json_in.h"
#include "render.h"

static const char *const keys_body[] = {"query", "map", "answer", "radius", "algorithm", "view", "format", NULL};
static const char *const keys_view[] = {"x0", "y0", "x1", "y1", NULL};
/* Every member a /v1/path "ok" answer may carry (proto/json_out.c writes them; a query's own picture passes
 * its answer through this parser too, so a member missing here turns that picture into a 500). */
static const char *const keys_found[] = {"status",   "map",      "map_version", "grid_cost", "length",     "clear",
                                         "waypoints", "segments", "samples",     "stats",     "duration_s", "probe",
                                         "capped",    NULL};
static const char *const keys_not_found[] = {"status", "map", "map_version", "reason", "stats", NULL};
/* A kinodynamic answer's segments also carry v_start, v_end, t_start, duration (not drawn). */
static const char *const keys_line[] = {"type",    "start", "end",     "heading",  "length",
                                        "reverse", "v_start", "v_end", "t_start", "duration", NULL};
static const char *const keys_arc[] = {"type",          "start", "end",    "center",  "radius",  "start_heading",
                                       "sweep",         "length", "reverse", "v_start", "v_end",   "t_start",
                                       "duration",      NULL};
/* A turn on the spot (kinodynamic units with unit.max_turn_rate): a point, its start heading and sweep. */
static const char *const keys_turn[] = {"type",  "start",   "end",   "start_heading", "sweep",   "length",
                                        "v_start", "v_end", "t_start", "duration",    NULL};
/* Samples in time (samples.dt) also carry t and v (not drawn). */
static const char *const keys_sample[] = {"d", "x", "y", "heading", "t", "v", NULL};
static const char *const keys_stats[] = {"expanded", "lane", "queue_us", "search_us", NULL};

static const ap_json_enum status_names[] = {{"ok", AP_OK}, {"no_path", AP_NO_PATH}, {"timeout", AP_TIMEOUT}};
static const ap_json_enum lane_names[] = {{"fast", 0}, {"slow", 1}};
static const ap_json_enum type_names[] = {{"line", AP_SEG_LINE}, {"arc", AP_SEG_ARC}, {"turn", AP_SEG_TURN}};
static const ap_json_enum format_names[] = {{"svg", AP_RENDER_SVG}, {"png", AP_RENDER_PNG}};

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define CMAX AP_RENDER_COORD_MAX

void ap_render_answer_free(ap_render_answer *a)
{
    if (a == NULL)
        return;
    free(a->segs);
    free(a->samples);
    memset(a, 0, sizeof *a);
}

void ap_render_request_free(ap_render_request *req)
{
    if (req != NULL)
        ap_render_answer_free(&req->answer);
}

/* v at path: [x, y], two finite numbers within +-AP_RENDER_COORD_MAX. */
static int vec2(const ap_json_reader *r, json_t *v, const char *path, double *x, double *y)
{
    if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_number(json_array_get(v, 0)) ||
        !json_is_number(json_array_get(v, 1)))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path, "\"%s\" must be [x, y], two numbers", path);
    *x = json_number_value(json_array_get(v, 0));
    *y = json_number_value(json_array_get(v, 1));
    if (!(fabs(*x) <= CMAX) || !(fabs(*y) <= CMAX))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path, "\"%s\" must lie within %g tiles of the origin",
                            path, CMAX);
    return AP_OK;
}

/* "key": a required [x, y] (vec2). */
static int get_vec2(const ap_json_reader *r, json_t *o, const char *prefix, const char *key, double *x, double *y)
{
    char path[AP_JSON_PATH_MAX];
    json_t *v;
    int rc = ap_json_member(r, o, prefix, key, true, &v, path, sizeof path);
    return rc != AP_OK ? rc : vec2(r, v, path, x, y);
}

/* A required array member; *out borrowed. */
static int get_array(const ap_json_reader *r, json_t *o, const char *prefix, const char *key, bool required,
                     json_t **out)
{
    char path[AP_JSON_PATH_MAX];
    int rc = ap_json_member(r, o, prefix, key, required, out, path, sizeof path);
    if (rc == AP_OK && *out != NULL && !json_is_array(*out))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path, "\"%s\" must be an array", path);
    return rc;
}

/* Element i of the array at prefix.key, which must be an object: its dotted path goes to elem_path. */
static int element(const ap_json_reader *r, json_t *arr, size_t i, const char *prefix, const char *key,
                   char *elem_path, size_t size, json_t **out)
{
    char base[AP_JSON_PATH_MAX];
    ap_json_join_path(base, sizeof base, prefix, key);
    snprintf(elem_path, size, "%.100s[%zu]", base, i);
    *out = json_array_get(arr, i);
    if (!json_is_object(*out))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, elem_path, "\"%s\" must be an object", elem_path);
    return AP_OK;
}

static bool near(double a, double b, double scale)
{
    return fabs(a - b) <= AP_RENDER_TOLERANCE * (1.0 + fabs(scale));
}

/* Segment at path p (an object) into *s, with its own geometry checked. */
static int parse_segment(const ap_json_reader *r, json_t *o, const char *p, ap_segment *s)
{
    int type = AP_SEG_LINE, rc;
    json_t *t;
    char tp[AP_JSON_PATH_MAX];
    memset(s, 0, sizeof *s);
    /* The type decides which keys are known, so it is read first. */
    if ((rc = ap_json_member(r, o, p, "type", true, &t, tp, sizeof tp)) != AP_OK ||
        (rc = ap_json_get_enum(r, o, p, "type", type_names, N(type_names), &type)) != AP_OK)
        return rc;
    s->type = (ap_seg_type)type;
    bool arc = s->type == AP_SEG_ARC, turn = s->type == AP_SEG_TURN;
    bool rev = false, has_rev = json_object_get(o, "reverse") != NULL;
    if ((rc = ap_json_check_known(r, o, p, arc ? keys_arc : (turn ? keys_turn : keys_line))) != AP_OK ||
        (rc = get_vec2(r, o, p, "start", &s->x0, &s->y0)) != AP_OK ||
        (rc = get_vec2(r, o, p, "end", &s->x1, &s->y1)) != AP_OK)
        return rc;
    char f[AP_JSON_PATH_MAX];
    if (turn) { /* drawn as the point it is: a zero-length line whose end is its start */
        if ((rc = ap_json_get_number(r, o, p, "start_heading", true, -INFINITY, INFINITY, &s->heading, NULL)) !=
                AP_OK ||
            (rc = ap_json_get_number(r, o, p, "sweep", true, -2.0 * M_PI, 2.0 * M_PI, &s->sweep, NULL)) != AP_OK ||
            (rc = ap_json_get_number(r, o, p, "length", true, 0.0, 0.0, &s->length, NULL)) != AP_OK)
            return rc;
        if (!near(s->x0, s->x1, s->x0) || !near(s->y0, s->y1, s->y0)) {
            ap_json_join_path(f, sizeof f, p, "end");
            return ap_json_fail(r->err, AP_E_INVALID_REQUEST, f, "\"%s\" of a turn on the spot must be its start", f);
        }
        return AP_OK;
    }
    if (arc) {
        if ((rc = get_vec2(r, o, p, "center", &s->cx, &s->cy)) != AP_OK ||
            (rc = ap_json_get_number(r, o, p, "radius", true, 0.0, CMAX, &s->radius, NULL)) != AP_OK ||
            (rc = ap_json_get_number(r, o, p, "start_heading", true, -INFINITY, INFINITY, &s->heading, NULL)) !=
                AP_OK ||
            /* any finite sweep: a kinodynamic action of a tight turning radius may loop more than once (the
             * length check below holds it to radius * |sweep|) */
            (rc = ap_json_get_number(r, o, p, "sweep", true, -INFINITY, INFINITY, &s->sweep, NULL)) != AP_OK)
            return rc;
    } else if ((rc = ap_json_get_number(r, o, p, "heading", true, -INFINITY, INFINITY, &s->heading, NULL)) != AP_OK) {
        return rc;
    }
    if ((rc = ap_json_get_number(r, o, p, "length", true, 0.0, 16.0 * CMAX, &s->length, NULL)) != AP_OK ||
        (rc = ap_json_get_bool(r, o, p, "reverse", &rev)) != AP_OK)
        return rc;
    if (has_rev && !rev) {
        ap_json_join_path(f, sizeof f, p, "reverse");
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, f, "\"%s\" is present only as true", f);
    }
    s->reverse = rev;
    /* the direction the unit faces is the way it drives, or the opposite way when reversing (path.h) */
    const double drive = rev ? -1.0 : 1.0;
    if (!arc) {
        if (!near(hypot(s->x1 - s->x0, s->y1 - s->y0), s->length, s->length)) {
            ap_json_join_path(f, sizeof f, p, "length");
            return ap_json_fail(r->err, AP_E_INVALID_REQUEST, f, "\"%s\" must equal the distance from start to end", f);
        }
        if (!near(s->x0 + drive * s->length * cos(s->heading), s->x1, s->length) ||
            !near(s->y0 + drive * s->length * sin(s->heading), s->y1, s->length)) {
            ap_json_join_path(f, sizeof f, p, "heading");
            return ap_json_fail(r->err, AP_E_INVALID_REQUEST, f,
                                rev ? "\"%s\" must point from end to start (a reverse line faces away from "
                                      "where it goes)"
                                    : "\"%s\" must point from start to end", f);
        }
        return AP_OK;
    }
    ap_json_join_path(f, sizeof f, p, "radius");
    if (!(s->radius > 0.0))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, f, "\"%s\" must be greater than 0", f);
    double a0 = atan2(s->y0 - s->cy, s->x0 - s->cx);
    if (!near(hypot(s->x0 - s->cx, s->y0 - s->cy), s->radius, s->radius) ||
        !near(hypot(s->x1 - s->cx, s->y1 - s->cy), s->radius, s->radius))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, f, "\"%s\" must be the distance from center to start and end", f);
    if (!near(s->cx + s->radius * cos(a0 + s->sweep), s->x1, s->radius) ||
        !near(s->cy + s->radius * sin(a0 + s->sweep), s->y1, s->radius)) {
        ap_json_join_path(f, sizeof f, p, "sweep");
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, f, "\"%s\" must turn start into end about center", f);
    }
    if (!near(s->radius * fabs(s->sweep), s->length, s->length)) {
        ap_json_join_path(f, sizeof f, p, "length");
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, f, "\"%s\" must equal radius * |sweep|", f);
    }
    /* The centre lies a quarter turn from the start heading toward the steering side: the sweep's side
     * forward, the other one in reverse (path.h, ap_segment_drive); a sweep of 0 has no side. */
    if (s->sweep != 0.0) {
        const double side = (s->sweep > 0.0 ? 1.0 : -1.0) * drive;
        if (!near(s->x0 - side * s->radius * sin(s->heading), s->cx, s->radius) ||
            !near(s->y0 + side * s->radius * cos(s->heading), s->cy, s->radius)) {
            ap_json_join_path(f, sizeof f, p, "start_heading");
            return ap_json_fail(r->err, AP_E_INVALID_REQUEST, f,
                                "\"%s\" must be the arc's tangent at start, turning toward center as sweep "
                                "says%s", f, rev ? " (in reverse: the way the unit faces)" : "");
        }
    }
    return AP_OK;
}

/* The answer's segments (a->length already read: it must be their lengths' sum). */
static int parse_segments(const ap_json_reader *r, json_t *o, const char *prefix, ap_render_answer *a)
{
    json_t *arr;
    int rc = get_array(r, o, prefix, "segments", true, &arr);
    if (rc != AP_OK)
        return rc;
    size_t n = json_array_size(arr);
    double sum = 0.0;
    a->segs = n > 0 ? calloc(n, sizeof *a->segs) : NULL;
    if (n > 0 && a->segs == NULL)
        return ap_json_fail(r->err, AP_E_NOMEM, "", "out of memory");
    for (size_t i = 0; i < n; i++) {
        char p[AP_JSON_PATH_MAX];
        json_t *e;
        if ((rc = element(r, arr, i, prefix, "segments", p, sizeof p, &e)) != AP_OK ||
            (rc = parse_segment(r, e, p, &a->segs[i])) != AP_OK)
            return rc;
        a->n_segs = i + 1;
        const ap_segment *prev = i > 0 ? &a->segs[i - 1] : NULL;
        if (prev != NULL && (!near(prev->x1, a->segs[i].x0, prev->x1) || !near(prev->y1, a->segs[i].y0, prev->y1))) {
            char f[AP_JSON_PATH_MAX];
            ap_json_join_path(f, sizeof f, p, "start");
            return ap_json_fail(r->err, AP_E_INVALID_REQUEST, f, "\"%s\" must be where the previous segment ends", f);
        }
        sum += a->segs[i].length;
    }
    if (!near(sum, a->length, a->length)) {
        char f[AP_JSON_PATH_MAX];
        ap_json_join_path(f, sizeof f, prefix, "length");
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, f, "\"%s\" must be the sum of the segments' lengths (%.17g)",
                            f, sum);
    }
    return AP_OK;
}

static int parse_samples(const ap_json_reader *r, json_t *o, const char *prefix, ap_render_answer *a)
{
    json_t *arr;
    int rc = get_array(r, o, prefix, "samples", false, &arr);
    if (rc != AP_OK || arr == NULL)
        return rc;
    size_t n = json_array_size(arr);
    a->samples = n > 0 ? calloc(n, sizeof *a->samples) : NULL;
    if (n > 0 && a->samples == NULL)
        return ap_json_fail(r->err, AP_E_NOMEM, "", "out of memory");
    for (size_t i = 0; i < n; i++) {
        char p[AP_JSON_PATH_MAX];
        json_t *e;
        double d;
        ap_pose *s = &a->samples[i];
        if ((rc = element(r, arr, i, prefix, "samples", p, sizeof p, &e)) != AP_OK ||
            (rc = ap_json_check_known(r, e, p, keys_sample)) != AP_OK ||
            (rc = ap_json_get_number(r, e, p, "d", true, 0.0, 16.0 * CMAX, &d, NULL)) != AP_OK ||
            (rc = ap_json_get_number(r, e, p, "x", true, -CMAX, CMAX, &s->x, NULL)) != AP_OK ||
            (rc = ap_json_get_number(r, e, p, "y", true, -CMAX, CMAX, &s->y, NULL)) != AP_OK ||
            (rc = ap_json_get_number(r, e, p, "heading", true, -INFINITY, INFINITY, &s->heading, NULL)) != AP_OK)
            return rc;
        a->n_samples = i + 1;
    }
    return AP_OK;
}

static int parse_waypoints(const ap_json_reader *r, json_t *o, const char *prefix)
{
    json_t *arr;
    int rc = get_array(r, o, prefix, "waypoints", true, &arr);
    char base[AP_JSON_PATH_MAX], p[AP_JSON_PATH_MAX];
    ap_json_join_path(base, sizeof base, prefix, "waypoints");
    for (size_t i = 0; rc == AP_OK && i < json_array_size(arr); i++) {
        double x, y;
        snprintf(p, sizeof p, "%.100s[%zu]", base, i);
        rc = vec2(r, json_array_get(arr, i), p, &x, &y);
    }
    return rc;
}

static int parse_stats(const ap_json_reader *r, json_t *o, const char *prefix)
{
    json_t *st;
    char p[AP_JSON_PATH_MAX];
    int rc, lane = 0;
    long long v;
    ap_json_join_path(p, sizeof p, prefix, "stats");
    if ((rc = ap_json_get_object(r, o, prefix, "stats", true, &st)) != AP_OK ||
        (rc = ap_json_check_known(r, st, p, keys_stats)) != AP_OK ||
        (rc = ap_json_get_integer(r, st, p, "expanded", true, 0, LLONG_MAX, &v, NULL)) != AP_OK ||
        (rc = ap_json_get_enum(r, st, p, "lane", lane_names, N(lane_names), &lane)) != AP_OK ||
        (rc = ap_json_get_integer(r, st, p, "queue_us", false, 0, LLONG_MAX, &v, NULL)) != AP_OK ||
        (rc = ap_json_get_integer(r, st, p, "search_us", false, 0, LLONG_MAX, &v, NULL)) != AP_OK)
        return rc;
    return AP_OK;
}

/* An answer's "probe" and "capped" (present only as true) and "duration_s" (seconds >= 0): checked, not
 * drawn. */
static int parse_flags(const ap_json_reader *r, json_t *ans, const char *prefix)
{
    static const char *const flags[] = {"probe", "capped"};
    char p[AP_JSON_PATH_MAX];
    for (size_t i = 0; i < N(flags); i++) {
        bool v = false;
        int rc = ap_json_get_bool(r, ans, prefix, flags[i], &v);
        if (rc != AP_OK)
            return rc;
        if (json_object_get(ans, flags[i]) != NULL && !v) {
            ap_json_join_path(p, sizeof p, prefix, flags[i]);
            return ap_json_fail(r->err, AP_E_INVALID_REQUEST, p, "\"%s\" is present only as true", p);
        }
    }
    double d;
    return ap_json_get_number(r, ans, prefix, "duration_s", false, 0.0, INFINITY, &d, NULL);
}

static int parse_answer(const ap_json_reader *r, json_t *ans, const char *prefix, ap_render_answer *a)
{
    int rc, status = -1, reason = -1;
    json_t *m, *t;
    char p[AP_JSON_PATH_MAX];
    if (!json_is_object(ans))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, prefix, "\"%s\" must be a /v1/path answer object", prefix);
    /* The status decides which keys are known, so it is read first. */
    if ((rc = ap_json_member(r, ans, prefix, "status", true, &t, p, sizeof p)) != AP_OK ||
        (rc = ap_json_get_enum(r, ans, prefix, "status", status_names, N(status_names), &status)) != AP_OK)
        return rc;
    a->status = status;
    bool ok = status == AP_OK;
    if ((rc = ap_json_check_known(r, ans, prefix, ok ? keys_found : keys_not_found)) != AP_OK ||
        (rc = ap_json_get_string(r, ans, prefix, "map", true, &m)) != AP_OK)
        return rc;
    if (json_string_length(m) < 1 || json_string_length(m) >= AP_MAP_ID_MAX ||
        strlen(json_string_value(m)) != json_string_length(m)) {
        ap_json_join_path(p, sizeof p, prefix, "map");
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, p, "\"%s\" must be 1 to %d bytes long", p, AP_MAP_ID_MAX - 1);
    }
    memcpy(a->map, json_string_value(m), json_string_length(m) + 1);
    /* The version the answer names (a server that predates map versions writes none): checked, not drawn. */
    long long version = 0;
    if ((rc = ap_json_get_integer(r, ans, prefix, "map_version", false, 1, LLONG_MAX, &version, NULL)) != AP_OK)
        return rc;
    if (!ok) {
        if ((rc = ap_json_get_enum(r, ans, prefix, "reason", ap_wire_no_path_reasons, AP_WIRE_NO_PATH_REASONS,
                                   &reason)) != AP_OK)
            return rc;
        if (reason >= 0 && status != AP_NO_PATH) {
            ap_json_join_path(p, sizeof p, prefix, "reason");
            return ap_json_fail(r->err, AP_E_INVALID_REQUEST, p, "unknown field \"%s\" (no_path answers only)", p);
        }
        a->reason = reason < 0 ? NULL : ap_wire_no_path_reasons[reason].name;
        return parse_stats(r, ans, prefix);
    }
    if ((rc = ap_json_get_number(r, ans, prefix, "grid_cost", true, 0.0, INFINITY, &a->grid_cost, NULL)) != AP_OK ||
        (rc = ap_json_get_number(r, ans, prefix, "length", true, 0.0, INFINITY, &a->length, NULL)) != AP_OK ||
        (rc = ap_json_member(r, ans, prefix, "clear", true, &t, p, sizeof p)) != AP_OK ||
        (rc = ap_json_get_bool(r, ans, prefix, "clear", &a->clear)) != AP_OK ||
        (rc = parse_waypoints(r, ans, prefix)) != AP_OK || (rc = parse_segments(r, ans, prefix, a)) != AP_OK ||
        (rc = parse_samples(r, ans, prefix, a)) != AP_OK || (rc = parse_flags(r, ans, prefix)) != AP_OK)
        return rc;
    return parse_stats(r, ans, prefix);
}

int ap_render_parse_answer(json_t *ans, const char *prefix, ap_render_answer *a, ap_wire_error *err)
{
    ap_json_reader r;
    ap_json_reader_init(&r, err, 0);
    memset(a, 0, sizeof *a);
    int rc = parse_answer(&r, ans, prefix, a);
    if (rc != AP_OK)
        ap_render_answer_free(a);
    return rc;
}

/* "view": an optional {x0, y0, x1, y1} with 0 <= x0 < x1, 0 <= y0 < y1 (the map's bounds come later). */
static int parse_view(const ap_json_reader *r, json_t *root, ap_render_opts *o)
{
    json_t *v;
    int rc;
    if ((rc = ap_json_get_object(r, root, "", "view", false, &v)) != AP_OK || v == NULL)
        return rc;
    if ((rc = ap_json_check_known(r, v, "view", keys_view)) != AP_OK ||
        (rc = ap_json_get_number(r, v, "view", "x0", true, 0.0, CMAX, &o->x0, NULL)) != AP_OK ||
        (rc = ap_json_get_number(r, v, "view", "y0", true, 0.0, CMAX, &o->y0, NULL)) != AP_OK ||
        (rc = ap_json_get_number(r, v, "view", "x1", true, 0.0, CMAX, &o->x1, NULL)) != AP_OK ||
        (rc = ap_json_get_number(r, v, "view", "y1", true, 0.0, CMAX, &o->y1, NULL)) != AP_OK)
        return rc;
    if (!(o->x1 > o->x0))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, "view.x1", "\"view.x1\" must be greater than \"view.x0\"");
    if (!(o->y1 > o->y0))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, "view.y1", "\"view.y1\" must be greater than \"view.y0\"");
    /* Each side at least one pixel at the picture's scale (ap_render_frame_of) or one tile: a sliver of a view
     * drew a PNG of width 0 (500) and an SVG whose viewBox width rounded to 0. A tile is never such a sliver
     * (its side rounds up to a pixel, as the whole of a map 4096 x 1 does without a view, which a view of it
     * all must draw alike). */
    const double w = o->x1 - o->x0, h = o->y1 - o->y0, scale = ap_render_scale(w, h), need = fmin(1.0 / scale, 1.0);
    if (fmin(w, h) < need) {
        const bool narrow = w < h;
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, narrow ? "view.x1" : "view.y1",
                            "the view must be at least one pixel or one tile %s: \"%s\" - \"%s\" at least %g tiles "
                            "here", narrow ? "wide" : "high", narrow ? "view.x1" : "view.y1",
                            narrow ? "view.x0" : "view.y0", need);
    }
    o->has_view = true;
    return AP_OK;
}

/* {"query": ...}: the /v1/path parser on it, its fields named under "query.". */
static int parse_query(const ap_json_reader *r, json_t *root, json_t *q, ap_render_request *req)
{
    static const char *const not_with_query[] = {"map", "answer", "radius", "algorithm"};
    for (size_t i = 0; i < N(not_with_query); i++)
        if (json_object_get(root, not_with_query[i]) != NULL)
            return ap_json_fail(r->err, AP_E_INVALID_REQUEST, not_with_query[i],
                                "\"%s\" is not allowed beside \"query\" (the query names it)", not_with_query[i]);
    ap_wire_error qe;
    int rc = ap_wire_parse_path_object(q, &req->query, &qe);
    if (rc != AP_OK) {
        char f[AP_JSON_PATH_MAX];
        ap_json_join_path(f, sizeof f, "query", qe.field);
        if (qe.field[0] == '\0')
            snprintf(f, sizeof f, "query");
        char msg[sizeof qe.message + 32]; /* the message names the field as the field does: "query.unit.radius" */
        ap_json_prefix_message(msg, sizeof msg, qe.message, "query.", qe.field);
        return ap_json_fail(r->err, rc, f, "%s", msg);
    }
    req->has_query = true;
    memcpy(req->map, req->query.map, sizeof req->map);
    req->opts.radius = req->query.q.unit_radius;
    const ap_algorithm_row *row = ap_algorithm_row_of(req->query.q.algorithm);
    req->opts.algorithm = row != NULL ? row->name : NULL;
    return AP_OK;
}

/* {"map", "answer", "radius"?, "algorithm"?}. */
static int parse_stored(const ap_json_reader *r, json_t *root, ap_render_request *req)
{
    json_t *m, *ans, *alg;
    int rc;
    if ((rc = ap_json_get_string(r, root, "", "map", true, &m)) != AP_OK)
        return rc;
    if (json_string_length(m) < 1 || json_string_length(m) >= AP_MAP_ID_MAX ||
        strlen(json_string_value(m)) != json_string_length(m))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, "map", "\"map\" must be 1 to %d bytes long", AP_MAP_ID_MAX - 1);
    memcpy(req->map, json_string_value(m), json_string_length(m) + 1);
    char p[AP_JSON_PATH_MAX];
    if ((rc = ap_json_member(r, root, "", "answer", true, &ans, p, sizeof p)) != AP_OK)
        return rc;
    ap_wire_error ae;
    if ((rc = ap_render_parse_answer(ans, "answer", &req->answer, &ae)) != AP_OK) {
        *r->err = ae;
        return rc;
    }
    if (strcmp(req->answer.map, req->map) != 0)
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, "answer.map", "\"answer.map\" must be \"map\"");
    if ((rc = ap_json_get_number(r, root, "", "radius", false, 0.0, AP_MAX_UNIT_RADIUS, &req->opts.radius, NULL)) !=
            AP_OK ||
        (rc = ap_json_get_string(r, root, "", "algorithm", false, &alg)) != AP_OK)
        return rc;
    if (alg != NULL) {
        const ap_algorithm_row *row = ap_algorithm_find(json_string_value(alg));
        if (row == NULL)
            return ap_json_fail(r->err, AP_E_INVALID_REQUEST, "algorithm", "\"algorithm\" must name an algorithm of "
                                                                           "search.algorithm");
        req->opts.algorithm = row->name;
    }
    return AP_OK;
}

int ap_render_parse_request(const char *body, size_t len, ap_render_request *req, ap_wire_error *err)
{
    ap_json_reader r;
    json_t *root, *q;
    int format = AP_RENDER_SVG;
    memset(req, 0, sizeof *req);
    ap_json_reader_init(&r, err, 0);
    int rc = ap_json_load_object(&r, body, len, &root);
    if (rc != AP_OK)
        return rc;
    if ((rc = ap_json_check_known(&r, root, "", keys_body)) == AP_OK &&
        (rc = ap_json_get_object(&r, root, "", "query", false, &q)) == AP_OK &&
        (rc = q != NULL ? parse_query(&r, root, q, req) : parse_stored(&r, root, req)) == AP_OK &&
        (rc = parse_view(&r, root, &req->opts)) == AP_OK &&
        (rc = ap_json_get_enum(&r, root, "", "format", format_names, N(format_names), &format)) == AP_OK)
        req->opts.format = (ap_render_format)format;
    json_decref(root);
    if (rc != AP_OK)
        ap_render_request_free(req);
    return rc;
}

int ap_render_check_view(const ap_map *m, const ap_render_opts *o, ap_wire_error *err)
{
    if (o == NULL || !o->has_view)
        return AP_OK;
    const char *f = o->x1 > m->width ? "view.x1" : o->y1 > m->height ? "view.y1" : NULL;
    if (f == NULL)
        return AP_OK;
    return ap_json_fail(err, AP_E_INVALID_REQUEST, f, "\"%s\" must be at most the map's %s (%d)", f,
                        f[5] == 'x' ? "width" : "height", f[5] == 'x' ? (int)m->width : (int)m->height);
}
