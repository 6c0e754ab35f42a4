/* wire.c — POST /v1/path bodies to ap_path_request, results and errors to JSON bodies (jansson).
 *
 * Validation is strict on purpose: unknown fields, wrong types and out-of-range values are rejected with
 * the dotted path of the field rather than ignored, so a client typo ("serach") never silently falls back
 * to defaults. Each object is checked for unknown keys first, then its fields in schema order, so the
 * reported field is deterministic for a given body.
 */
#include "wire.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AP_WIRE_MAX_DEADLINE_MS 600000
#define AP_WIRE_DUMP_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(17) | JSON_PRESERVE_ORDER)

/* ---------------------------------------------------------------------------------------------------------
 * UTF-8-safe copying. Messages and field names end up in JSON strings, and jansson refuses invalid UTF-8
 * (json_string returns NULL), so a field name cut in the middle of a multi-byte character, or a jansson
 * diagnostic quoting invalid input bytes, would turn a 400 into a failed encode. */

/* Length of the valid UTF-8 sequence at s (n bytes available), or 0 if the bytes there are not one. */
static size_t utf8_seq_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    unsigned int cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    /* overlong forms, surrogates, and code points above U+10FFFF */
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* Copy NUL-terminated src into dst (size > 0): invalid bytes become '?', and the copy stops at a
 * character boundary when dst is full, so dst is always valid, NUL-terminated UTF-8. */
static void utf8_copy(char *dst, size_t size, const char *src)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t n = strlen(src), i = 0, o = 0;
    while (i < n) {
        size_t l = utf8_seq_len(s + i, n - i);
        if (l == 0) {
            if (o + 1 >= size)
                break;
            dst[o++] = '?';
            i++;
            continue;
        }
        if (o + l >= size)
            break;
        memcpy(dst + o, s + i, l);
        o += l;
        i += l;
    }
    dst[o] = '\0';
}

/* ---------------------------------------------------------------------------------------------------------
 * Request parsing */

/* Record an error and return its status (so callers can `return fail(...)`). */
__attribute__((format(printf, 4, 5))) static int fail(ap_wire_error *err, int status, const char *field,
                                                      const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    err->status = status;
    utf8_copy(err->message, sizeof err->message, tmp);
    utf8_copy(err->field, sizeof err->field, field ? field : "");
    return status;
}

/* Dotted path of key inside the object at prefix ("" = the body itself). Long keys are truncated; the
 * error field has room for 63 bytes anyway. */
static void join_path(char *out, size_t size, const char *prefix, const char *key)
{
    if (prefix[0] == '\0')
        snprintf(out, size, "%s", key);
    else
        snprintf(out, size, "%s.%s", prefix, key);
}

/* Reject the first key of obj not in allowed (NULL-terminated). */
static int check_known(json_t *obj, const char *prefix, const char *const *allowed, ap_wire_error *err)
{
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value) {
        bool known = false;
        for (const char *const *a = allowed; *a != NULL; a++) {
            if (strcmp(*a, key) == 0) {
                known = true;
                break;
            }
        }
        if (!known) {
            char path[512];
            join_path(path, sizeof path, prefix, key);
            return fail(err, AP_E_INVALID_REQUEST, path, "unknown field \"%s\"", path);
        }
    }
    return AP_OK;
}

/* Look up a member: *out NULL when absent. A missing required member is an error naming it. */
static int member(json_t *obj, const char *prefix, const char *key, bool required, json_t **out,
                  char *path, size_t pathsize, ap_wire_error *err)
{
    join_path(path, pathsize, prefix, key);
    *out = json_object_get(obj, key);
    if (*out == NULL && required)
        return fail(err, AP_E_INVALID_REQUEST, path, "missing required field \"%s\"", path);
    return AP_OK;
}

/* A finite number (JSON integers are accepted where reals are expected) in [lo, hi]. */
static int get_number(json_t *obj, const char *prefix, const char *key, bool required, double lo, double hi,
                      double *out, bool *present, ap_wire_error *err)
{
    char path[128];
    json_t *v;
    int rc = member(obj, prefix, key, required, &v, path, sizeof path, err);
    if (present)
        *present = v != NULL;
    if (rc != AP_OK || v == NULL)
        return rc;
    if (!json_is_number(v))
        return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be a number", path);
    double d = json_number_value(v);
    /* jansson's parser already refuses NaN/Infinity and overflowing literals; this guards the contract
     * should the decoder ever change. */
    if (!isfinite(d))
        return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be a finite number", path);
    if (d < lo || d > hi) {
        if (isinf(hi))
            return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be at least %g", path, lo);
        return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be between %g and %g", path, lo, hi);
    }
    *out = d;
    return AP_OK;
}

/* A JSON integer (not a real, even an integral one) in [lo, hi]. */
static int get_integer(json_t *obj, const char *prefix, const char *key, bool required, long long lo,
                       long long hi, long long *out, bool *present, ap_wire_error *err)
{
    char path[128];
    json_t *v;
    int rc = member(obj, prefix, key, required, &v, path, sizeof path, err);
    if (present)
        *present = v != NULL;
    if (rc != AP_OK || v == NULL)
        return rc;
    if (!json_is_integer(v))
        return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be an integer", path);
    json_int_t i = json_integer_value(v);
    if (i < lo || i > hi)
        return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be between %lld and %lld", path, lo, hi);
    *out = i;
    return AP_OK;
}

/* An optional or required object member; *out NULL when absent. */
static int get_object(json_t *obj, const char *prefix, const char *key, bool required, json_t **out,
                      ap_wire_error *err)
{
    char path[128];
    int rc = member(obj, prefix, key, required, out, path, sizeof path, err);
    if (rc != AP_OK || *out == NULL)
        return rc;
    if (!json_is_object(*out))
        return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be an object", path);
    return AP_OK;
}

/* A string member; *out NULL when absent. */
static int get_string(json_t *obj, const char *prefix, const char *key, bool required, json_t **out,
                      ap_wire_error *err)
{
    char path[128];
    int rc = member(obj, prefix, key, required, out, path, sizeof path, err);
    if (rc != AP_OK || *out == NULL)
        return rc;
    if (!json_is_string(*out))
        return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be a string", path);
    return AP_OK;
}

/* Name tables for the string enums. New algorithms ("jps", "directional8", ...) are one row each. */
typedef struct ap_enum_name {
    const char *name;
    int value;
} ap_enum_name;

static const ap_enum_name ap_algorithm_names[] = {
    {"astar", AP_ALG_ASTAR},
};

static const ap_enum_name ap_smoothing_names[] = {
    {"none", AP_SMOOTH_NONE},
    {"los", AP_SMOOTH_LOS},
};

static int get_enum(json_t *obj, const char *prefix, const char *key, const ap_enum_name *names, size_t n,
                    int *out, ap_wire_error *err)
{
    json_t *v;
    int rc = get_string(obj, prefix, key, false, &v, err);
    if (rc != AP_OK || v == NULL)
        return rc;
    const char *s = json_string_value(v);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(names[i].name, s) == 0) {
            *out = names[i].value;
            return AP_OK;
        }
    }
    char list[256] = "", path[128];
    size_t used = 0;
    for (size_t i = 0; i < n && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", names[i].name);
    join_path(path, sizeof path, prefix, key);
    return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be one of: %s", path, list);
}

static const char *const ap_keys_body[] = {"map",    "start",       "goal",    "unit",
                                           "search", "deadline_ms", "samples", NULL};
static const char *const ap_keys_start[] = {"x", "y", "heading", NULL};
static const char *const ap_keys_goal[] = {"x", "y", NULL}; /* goal.heading: reserved for legal-turn searches */
static const char *const ap_keys_unit[] = {"radius", "turning_radius", NULL};
static const char *const ap_keys_search[] = {"algorithm", "connectivity", "smoothing", NULL};
static const char *const ap_keys_samples[] = {"step", NULL};

static int parse_body(json_t *root, ap_path_request *req, ap_wire_error *err)
{
    ap_query *q = &req->q;
    json_t *o, *v;
    int rc;

    if ((rc = check_known(root, "", ap_keys_body, err)) != AP_OK)
        return rc;

    if ((rc = get_string(root, "", "map", true, &v, err)) != AP_OK)
        return rc;
    size_t mlen = json_string_length(v);
    const char *mid = json_string_value(v);
    /* Embedded NULs cannot reach us (no JSON_ALLOW_NUL), but the strlen check keeps it obvious. */
    if (mlen < 1 || mlen >= AP_MAP_ID_MAX || strlen(mid) != mlen)
        return fail(err, AP_E_INVALID_REQUEST, "map", "\"map\" must be 1 to %d bytes long", AP_MAP_ID_MAX - 1);
    memcpy(req->map, mid, mlen + 1);

    if ((rc = get_object(root, "", "start", true, &o, err)) != AP_OK ||
        (rc = check_known(o, "start", ap_keys_start, err)) != AP_OK ||
        (rc = get_number(o, "start", "x", true, -INFINITY, INFINITY, &q->sx, NULL, err)) != AP_OK ||
        (rc = get_number(o, "start", "y", true, -INFINITY, INFINITY, &q->sy, NULL, err)) != AP_OK ||
        (rc = get_number(o, "start", "heading", false, -INFINITY, INFINITY, &q->sheading, &q->has_sheading,
                         err)) != AP_OK)
        return rc;

    if ((rc = get_object(root, "", "goal", true, &o, err)) != AP_OK ||
        (rc = check_known(o, "goal", ap_keys_goal, err)) != AP_OK ||
        (rc = get_number(o, "goal", "x", true, -INFINITY, INFINITY, &q->gx, NULL, err)) != AP_OK ||
        (rc = get_number(o, "goal", "y", true, -INFINITY, INFINITY, &q->gy, NULL, err)) != AP_OK)
        return rc;

    if ((rc = get_object(root, "", "unit", false, &o, err)) != AP_OK)
        return rc;
    if (o != NULL &&
        ((rc = check_known(o, "unit", ap_keys_unit, err)) != AP_OK ||
         (rc = get_number(o, "unit", "radius", false, 0.0, AP_MAX_UNIT_RADIUS, &q->unit_radius, NULL, err)) !=
             AP_OK ||
         (rc = get_number(o, "unit", "turning_radius", false, 0.0, AP_MAX_TURNING_RADIUS, &q->turning_radius,
                          NULL, err)) != AP_OK))
        return rc;

    if ((rc = get_object(root, "", "search", false, &o, err)) != AP_OK)
        return rc;
    if (o != NULL) {
        int alg = (int)q->algorithm, smooth = (int)q->smoothing;
        long long conn = q->connectivity;
        bool has_conn = false;
        if ((rc = check_known(o, "search", ap_keys_search, err)) != AP_OK ||
            (rc = get_enum(o, "search", "algorithm", ap_algorithm_names,
                           sizeof ap_algorithm_names / sizeof ap_algorithm_names[0], &alg, err)) != AP_OK ||
            (rc = get_integer(o, "search", "connectivity", false, LLONG_MIN, LLONG_MAX, &conn, &has_conn,
                              err)) != AP_OK ||
            (rc = get_enum(o, "search", "smoothing", ap_smoothing_names,
                           sizeof ap_smoothing_names / sizeof ap_smoothing_names[0], &smooth, err)) != AP_OK)
            return rc;
        if (has_conn && conn != 4 && conn != 8)
            return fail(err, AP_E_INVALID_REQUEST, "search.connectivity", "\"search.connectivity\" must be 4 or 8");
        q->algorithm = (ap_algorithm)alg;
        q->smoothing = (ap_smoothing)smooth;
        q->connectivity = (int)conn;
    }

    long long dl = -1;
    if ((rc = get_integer(root, "", "deadline_ms", false, 1, AP_WIRE_MAX_DEADLINE_MS, &dl, NULL, err)) != AP_OK)
        return rc;
    req->deadline_ms = dl;

    if ((rc = get_object(root, "", "samples", false, &o, err)) != AP_OK)
        return rc;
    if (o != NULL &&
        ((rc = check_known(o, "samples", ap_keys_samples, err)) != AP_OK ||
         (rc = get_number(o, "samples", "step", true, AP_MIN_SAMPLE_STEP, INFINITY, &q->sample_step, NULL,
                          err)) != AP_OK))
        return rc;
    return AP_OK;
}

int ap_wire_parse_path_request(const char *body, size_t len, ap_path_request *req, ap_wire_error *err)
{
    memset(req, 0, sizeof *req);
    req->q.map = NULL;
    req->q.has_sheading = false;
    req->q.unit_radius = 0.0;
    req->q.turning_radius = 0.0;
    req->q.algorithm = AP_ALG_ASTAR;
    req->q.connectivity = 8;
    req->q.smoothing = AP_SMOOTH_LOS;
    req->q.sample_step = 0.0;
    req->q.max_samples = 0;
    req->deadline_ms = -1;
    memset(err, 0, sizeof *err);
    err->status = AP_OK;

    if (body == NULL || len == 0) {
        err->line = 1;
        err->col = 1;
        return fail(err, AP_E_INVALID_JSON, "", "invalid JSON at line 1, column 1: the request body is empty");
    }

    json_error_t jerr;
    /* JSON_DECODE_ANY so that a scalar body ("42") is reported as "not an object" (invalid_request) like an
     * array is, rather than as a syntax error. */
    json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (root == NULL) {
        /* jansson reports the column of the last character it read, 0 at the very start of a line; clients
         * count from 1. */
        err->line = jerr.line > 0 ? jerr.line : 1;
        err->col = jerr.column > 0 ? jerr.column : 1;
        return fail(err, AP_E_INVALID_JSON, "", "invalid JSON at line %d, column %d: %s", err->line, err->col,
                    jerr.text);
    }
    int rc;
    if (!json_is_object(root))
        rc = fail(err, AP_E_INVALID_REQUEST, "", "the request body must be a JSON object");
    else
        rc = parse_body(root, req, err);
    json_decref(root);
    return rc;
}

/* ---------------------------------------------------------------------------------------------------------
 * Encoding. Each helper returns NULL when jansson cannot build the value: allocation failure, or a
 * non-finite double (json_real refuses those), which would be a planner bug; either way the caller gets
 * NULL rather than a body with a hole in it. */

static json_int_t clamp_u64(uint64_t v)
{
    /* json_int_t is long long (JSON_INTEGER_IS_LONG_LONG) on every platform we build for. */
    return v > (uint64_t)LLONG_MAX ? LLONG_MAX : (json_int_t)v;
}

static json_t *point(double x, double y)
{
    json_t *a = json_array();
    if (a == NULL || json_array_append_new(a, json_real(x)) != 0 || json_array_append_new(a, json_real(y)) != 0) {
        json_decref(a);
        return NULL;
    }
    return a;
}

/* Add members; on any failure the object is freed and NULL returned. Values are stolen either way. */
static json_t *set(json_t *obj, const char *key, json_t *value)
{
    if (obj == NULL) {
        json_decref(value);
        return NULL;
    }
    if (json_object_set_new(obj, key, value) != 0) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static char *dump(json_t *root, size_t *len)
{
    if (root == NULL)
        return NULL;
    char *s = json_dumps(root, AP_WIRE_DUMP_FLAGS);
    json_decref(root);
    if (s != NULL && len != NULL)
        *len = strlen(s);
    return s;
}

static json_t *segment_json(const ap_segment *s)
{
    json_t *o = json_object();
    if (s->type == AP_SEG_ARC) {
        o = set(o, "type", json_string("arc"));
        o = set(o, "start", point(s->x0, s->y0));
        o = set(o, "end", point(s->x1, s->y1));
        o = set(o, "center", point(s->cx, s->cy));
        o = set(o, "radius", json_real(s->radius));
        o = set(o, "start_heading", json_real(s->heading));
        o = set(o, "sweep", json_real(s->sweep));
        o = set(o, "length", json_real(s->length));
    } else {
        o = set(o, "type", json_string("line"));
        o = set(o, "start", point(s->x0, s->y0));
        o = set(o, "end", point(s->x1, s->y1));
        o = set(o, "heading", json_real(s->heading));
        o = set(o, "length", json_real(s->length));
    }
    if (s->reverse)
        o = set(o, "reverse", json_true());
    return o;
}

static json_t *stats_json(const ap_result *r, const ap_path_stats *st)
{
    json_t *o = set(json_object(), "expanded", json_integer(clamp_u64(r->expanded)));
    if (st != NULL) {
        o = set(o, "lane", json_string(st->lane ? st->lane : "fast"));
        o = set(o, "queue_us", json_integer(clamp_u64(st->queue_us)));
        o = set(o, "search_us", json_integer(clamp_u64(st->search_us)));
    }
    return o;
}

static json_t *samples_json(const ap_result *r, double step)
{
    json_t *a = json_array();
    double chord = 0.0;
    for (size_t i = 0; a != NULL && i < r->n_samples; i++) {
        const ap_pose *p = &r->samples[i];
        double d;
        /* The planner samples at 0, step, 2*step, ... and once more at the end, so the distance is
         * implied; recomputing it as i*step (rather than summing) keeps it exact. */
        if (i + 1 == r->n_samples)
            d = r->length;
        else if (step > 0.0)
            d = fmin((double)i * step, r->length);
        else {
            /* No step given: the best we can do is the distance along the chords between samples. */
            if (i > 0)
                chord += hypot(p->x - r->samples[i - 1].x, p->y - r->samples[i - 1].y);
            d = fmin(chord, r->length);
        }
        json_t *s = json_object();
        s = set(s, "d", json_real(d));
        s = set(s, "x", json_real(p->x));
        s = set(s, "y", json_real(p->y));
        s = set(s, "heading", json_real(p->heading));
        if (s == NULL || json_array_append_new(a, s) != 0) {
            json_decref(a);
            a = NULL;
        }
    }
    return a;
}

static json_t *result_json(const char *map_id, const ap_result *r, const ap_path_stats *st)
{
    json_t *o = json_object();
    o = set(o, "status", json_string(ap_error_lookup(r->status)->code));
    o = set(o, "map", json_string(map_id ? map_id : ""));
    if (r->status == AP_OK) {
        o = set(o, "grid_cost", json_real(r->grid_cost));
        o = set(o, "length", json_real(r->length));
        o = set(o, "clear", json_boolean(r->clear));
        json_t *w = json_array();
        for (size_t i = 0; w != NULL && i < r->n_waypoints; i++) {
            if (json_array_append_new(w, point(r->waypoints[i][0], r->waypoints[i][1])) != 0) {
                json_decref(w);
                w = NULL;
            }
        }
        o = set(o, "waypoints", w);
        json_t *sg = json_array();
        for (size_t i = 0; sg != NULL && i < r->n_segments; i++) {
            if (json_array_append_new(sg, segment_json(&r->segments[i])) != 0) {
                json_decref(sg);
                sg = NULL;
            }
        }
        o = set(o, "segments", sg);
        double step = st ? st->sample_step : 0.0;
        if (r->n_samples > 0 || step > 0.0)
            o = set(o, "samples", samples_json(r, step));
    }
    o = set(o, "stats", stats_json(r, st));
    return o;
}

char *ap_wire_encode_path(const char *map_id, const ap_result *r, const ap_path_stats *st, size_t *len)
{
    if (r->status != AP_OK && r->status != AP_NO_PATH && r->status != AP_TIMEOUT)
        return ap_wire_encode_error(r->status, NULL, r->field, 0, 0, NULL, len);
    return dump(result_json(map_id, r, st), len);
}

char *ap_wire_encode_error(int status, const char *message, const char *field, int line, int col, int *http,
                           size_t *len)
{
    const ap_error_info *info = ap_error_lookup(status);
    char msg[512], fld[256];
    if (http != NULL)
        *http = info->http;
    utf8_copy(msg, sizeof msg, message ? message : info->message);
    json_t *e = json_object();
    e = set(e, "code", json_string(info->code));
    e = set(e, "message", json_string(msg));
    if (field != NULL && field[0] != '\0') {
        utf8_copy(fld, sizeof fld, field);
        e = set(e, "field", json_string(fld));
    }
    if (line > 0)
        e = set(e, "line", json_integer(line));
    if (col > 0)
        e = set(e, "column", json_integer(col));
    return dump(set(json_object(), "error", e), len);
}

static json_t *map_json(const ap_map *m)
{
    char id[AP_MAP_ID_MAX];
    utf8_copy(id, sizeof id, m->id);
    json_t *t = json_object();
    t = set(t, "name", json_string("region"));
    t = set(t, "bytes", json_integer((json_int_t)m->table_bytes));
    t = set(t, "build_ms", json_real(m->tables_seconds * 1000.0));
    t = set(t, "regions", json_integer((json_int_t)m->region_count));
    json_t *tables = json_array();
    if (tables != NULL && json_array_append_new(tables, t) != 0) {
        json_decref(tables);
        tables = NULL;
    }
    json_t *o = json_object();
    o = set(o, "id", json_string(id));
    o = set(o, "width", json_integer(m->width));
    o = set(o, "height", json_integer(m->height));
    o = set(o, "passable_cells", json_integer(m->passable_cells));
    o = set(o, "load_ms", json_real(m->load_seconds * 1000.0));
    o = set(o, "tables", tables);
    return o;
}

char *ap_wire_encode_map(const ap_map *m, size_t *len)
{
    return dump(map_json(m), len);
}

char *ap_wire_encode_maps(const ap_map *const *maps, size_t n, size_t *len)
{
    json_t *a = json_array();
    for (size_t i = 0; a != NULL && i < n; i++) {
        if (json_array_append_new(a, map_json(maps[i])) != 0) {
            json_decref(a);
            a = NULL;
        }
    }
    return dump(set(json_object(), "maps", a), len);
}
