/* curve.c — POST /v1/curve bodies to ap_curve_request, curves to JSON (jansson).
 *
 * Validation follows proto/wire.c's rules (unknown keys first, then fields in schema order, dotted field
 * names). The helpers are local for now: wire.c's are static and that file is being reworked (its encoder
 * moved to a hand-written writer); fold these into shared helpers once it settles.
 */
#include "curve.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((format(printf, 4, 5))) static int cfail(ap_wire_error *err, int status, const char *field,
                                                       const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    err->status = status;
    /* field names here are our own ASCII constants or a client key checked below */
    snprintf(err->field, sizeof err->field, "%s", field ? field : "");
    return status;
}

/* Reject the first unknown key; a key that is not plain printable ASCII is reported without its name so
 * the error stays valid UTF-8 whatever the client sent. */
static int known(json_t *obj, const char *prefix, const char *const *allowed, ap_wire_error *err)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        bool ok = false;
        for (const char *const *a = allowed; *a != NULL; a++)
            ok = ok || strcmp(*a, key) == 0;
        if (ok)
            continue;
        bool ascii = true;
        for (const char *c = key; *c; c++)
            ascii = ascii && *c >= 0x20 && *c < 0x7f;
        char path[64];
        if (!ascii)
            key = "?";
        snprintf(path, sizeof path, "%s%s%s", prefix, prefix[0] ? "." : "", key);
        return cfail(err, AP_E_INVALID_REQUEST, path, "unknown field \"%s\"", path);
    }
    return AP_OK;
}

static int number(json_t *obj, const char *path, const char *key, bool required, double *out, bool *present,
                  ap_wire_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (present != NULL)
        *present = v != NULL;
    if (v == NULL)
        return required ? cfail(err, AP_E_INVALID_REQUEST, path, "missing required field \"%s\"", path) : AP_OK;
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
        return cfail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be a finite number", path);
    *out = json_number_value(v);
    return AP_OK;
}

static const char *const ap_curve_keys_body[] = {"start", "goal", "turning_radius", "model", NULL};
static const char *const ap_curve_keys_pose[] = {"x", "y", "heading", NULL};

static int pose(json_t *root, const char *name, ap_pose *p, bool *has_heading, ap_wire_error *err)
{
    json_t *o = json_object_get(root, name);
    char px[32], py[32], ph[32];
    snprintf(px, sizeof px, "%s.x", name);
    snprintf(py, sizeof py, "%s.y", name);
    snprintf(ph, sizeof ph, "%s.heading", name);
    if (o == NULL)
        return cfail(err, AP_E_INVALID_REQUEST, name, "missing required field \"%s\"", name);
    if (!json_is_object(o))
        return cfail(err, AP_E_INVALID_REQUEST, name, "\"%s\" must be an object", name);
    int rc;
    if ((rc = known(o, name, ap_curve_keys_pose, err)) != AP_OK ||
        (rc = number(o, px, "x", true, &p->x, NULL, err)) != AP_OK ||
        (rc = number(o, py, "y", true, &p->y, NULL, err)) != AP_OK ||
        (rc = number(o, ph, "heading", has_heading == NULL, &p->heading, has_heading, err)) != AP_OK)
        return rc;
    return AP_OK;
}

static const char *const ap_curve_model_names[] = {"dubins", "reeds_shepp", "pinter"};

const char *ap_curve_model_name(ap_curve_model m)
{
    return (unsigned)m < 3 ? ap_curve_model_names[m] : "dubins";
}

static int parse_body(json_t *root, ap_curve_request *req, ap_wire_error *err)
{
    int rc;
    if ((rc = known(root, "", ap_curve_keys_body, err)) != AP_OK ||
        (rc = pose(root, "start", &req->start, NULL, err)) != AP_OK ||
        (rc = pose(root, "goal", &req->goal, &req->has_goal_heading, err)) != AP_OK ||
        (rc = number(root, "turning_radius", "turning_radius", true, &req->turning_radius, NULL, err)) != AP_OK)
        return rc;
    if (!(req->turning_radius > 0.0 && req->turning_radius <= AP_CURVE_MAX_TURNING_RADIUS))
        return cfail(err, AP_E_INVALID_REQUEST, "turning_radius",
                     "\"turning_radius\" must be greater than 0 and at most %g", AP_CURVE_MAX_TURNING_RADIUS);
    json_t *m = json_object_get(root, "model");
    if (m != NULL) {
        const char *s = json_is_string(m) ? json_string_value(m) : NULL;
        int found = -1;
        for (int i = 0; s != NULL && i < 3; i++)
            if (strcmp(s, ap_curve_model_names[i]) == 0)
                found = i;
        if (found < 0)
            return cfail(err, AP_E_INVALID_REQUEST, "model",
                         "\"model\" must be one of: dubins, reeds_shepp, pinter");
        req->model = (ap_curve_model)found;
    }
    /* Only Pinter's curve leaves the final heading free. */
    if (!req->has_goal_heading && req->model != AP_CURVE_PINTER)
        return cfail(err, AP_E_INVALID_REQUEST, "goal.heading",
                     "missing required field \"goal.heading\" (optional only for model \"pinter\")");
    return AP_OK;
}

int ap_wire_parse_curve_request(const char *body, size_t len, ap_curve_request *req, ap_wire_error *err)
{
    memset(req, 0, sizeof *req);
    req->model = AP_CURVE_DUBINS;
    memset(err, 0, sizeof *err);
    err->status = AP_OK;
    if (body == NULL || len == 0) {
        err->line = err->col = 1;
        return cfail(err, AP_E_INVALID_JSON, "", "invalid JSON at line 1, column 1: the request body is empty");
    }
    json_error_t jerr;
    json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (root == NULL) {
        err->line = jerr.line > 0 ? jerr.line : 1;
        err->col = jerr.column > 0 ? jerr.column : 1;
        /* jansson's text may quote invalid bytes: keep the message to positions only */
        return cfail(err, AP_E_INVALID_JSON, "", "invalid JSON at line %d, column %d", err->line, err->col);
    }
    int rc = json_is_object(root) ? parse_body(root, req, err)
                                  : cfail(err, AP_E_INVALID_REQUEST, "", "the request body must be a JSON object");
    json_decref(root);
    return rc;
}

/* Add a member; on failure free obj and return NULL (value stolen either way). */
static json_t *put(json_t *obj, const char *key, json_t *value)
{
    if (obj == NULL || value == NULL || json_object_set_new(obj, key, value) != 0) {
        json_decref(obj);
        json_decref(value);
        return NULL;
    }
    return obj;
}

static json_t *pt(double x, double y)
{
    json_t *a = json_array();
    if (a == NULL || json_array_append_new(a, json_real(x)) != 0 || json_array_append_new(a, json_real(y)) != 0) {
        json_decref(a);
        return NULL;
    }
    return a;
}

/* The /v1/path segment encoding (README "200 answer"; openapi Segment). */
static json_t *seg(const ap_segment *s)
{
    json_t *o = json_object();
    if (s->type == AP_SEG_ARC) {
        o = put(o, "type", json_string("arc"));
        o = put(o, "start", pt(s->x0, s->y0));
        o = put(o, "end", pt(s->x1, s->y1));
        o = put(o, "center", pt(s->cx, s->cy));
        o = put(o, "radius", json_real(s->radius));
        o = put(o, "start_heading", json_real(s->heading));
        o = put(o, "sweep", json_real(s->sweep));
    } else {
        o = put(o, "type", json_string("line"));
        o = put(o, "start", pt(s->x0, s->y0));
        o = put(o, "end", pt(s->x1, s->y1));
        o = put(o, "heading", json_real(s->heading));
    }
    o = put(o, "length", json_real(s->length));
    if (s->reverse)
        o = put(o, "reverse", json_true());
    return o;
}

char *ap_wire_encode_curve(ap_curve_model model, const char *word, double length, const ap_segment *segs,
                           size_t n, size_t *len)
{
    json_t *a = json_array();
    for (size_t i = 0; a != NULL && i < n; i++) {
        json_t *s = seg(&segs[i]);
        if (s == NULL || json_array_append_new(a, s) != 0) {
            json_decref(a);
            a = NULL;
        }
    }
    json_t *o = json_object();
    o = put(o, "status", json_string("ok"));
    o = put(o, "model", json_string(ap_curve_model_name(model)));
    o = put(o, "word", json_string(word ? word : ""));
    o = put(o, "length", json_real(length));
    o = put(o, "segments", a);
    if (o == NULL)
        return NULL;
    char *s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17) | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (s != NULL && len != NULL)
        *len = strlen(s);
    return s;
}
