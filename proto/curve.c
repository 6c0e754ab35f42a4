/* curve.c — POST /v1/curve: the request schema (read with json_in.h) and the answer (written with
 * json_out.h, the segment encoder of /v1/path).
 *
 * The rules of proto/wire.c apply (unknown keys first, then fields in schema order, dotted field names);
 * the error wording is this route's own (AP_CURVE_JSON_STYLE) and is kept byte for byte.
 */
#include "curve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_in.h"
#include "json_out.h"
#include "utf8.h"

/* Positions only in syntax errors; unknown keys named only when plain ASCII; any non-number "must be a
 * finite number"; any non-string model "must be one of". */
#define AP_CURVE_JSON_STYLE                                                                                   \
    (AP_JSON_POSITIONS_ONLY | AP_JSON_PLAIN_KEY_NAMES | AP_JSON_FINITE_TYPE_MESSAGE | AP_JSON_ENUM_TYPE_MESSAGE)

static const char *const ap_curve_keys_body[] = {"start", "goal", "turning_radius", "model", NULL};

/* Indexed by ap_curve_model. */
static const ap_json_enum ap_curve_model_names[] = {
    {"dubins", AP_CURVE_DUBINS},
    {"reeds_shepp", AP_CURVE_REEDS_SHEPP},
    {"pinter", AP_CURVE_PINTER},
};

#define AP_CURVE_N_MODELS (sizeof ap_curve_model_names / sizeof ap_curve_model_names[0])

const char *ap_curve_model_name(ap_curve_model m)
{
    return (unsigned)m < AP_CURVE_N_MODELS ? ap_curve_model_names[m].name : "dubins";
}

static int parse_body(const ap_json_reader *r, json_t *root, ap_curve_request *req)
{
    int rc, model = (int)req->model;
    ap_pose *s = &req->start, *g = &req->goal;
    if ((rc = ap_json_check_known(r, root, "", ap_curve_keys_body)) != AP_OK ||
        (rc = ap_json_get_pose(r, root, "", "start", &s->x, &s->y, &s->heading, NULL)) != AP_OK ||
        (rc = ap_json_get_pose(r, root, "", "goal", &g->x, &g->y, &g->heading, &req->has_goal_heading)) != AP_OK ||
        (rc = ap_json_get_number(r, root, "", "turning_radius", true, -INFINITY, INFINITY, &req->turning_radius,
                                 NULL)) != AP_OK)
        return rc;
    if (!(req->turning_radius >= AP_CURVE_MIN_TURNING_RADIUS && req->turning_radius <= AP_CURVE_MAX_TURNING_RADIUS))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, "turning_radius",
                            "\"turning_radius\" must be at least %g and at most %g", AP_CURVE_MIN_TURNING_RADIUS,
                            AP_CURVE_MAX_TURNING_RADIUS);
    static const char *const coord_field[4] = {"start.x", "start.y", "goal.x", "goal.y"};
    const double coord[4] = {s->x, s->y, g->x, g->y};
    for (int i = 0; i < 4; i++)
        if (!(fabs(coord[i]) <= AP_CURVE_MAX_COORD))
            return ap_json_fail(r->err, AP_E_INVALID_REQUEST, coord_field[i], "\"%s\" must be within [-%g, %g]",
                                coord_field[i], AP_CURVE_MAX_COORD, AP_CURVE_MAX_COORD);
    s->heading = ap_angle_wrap(s->heading);
    g->heading = ap_angle_wrap(g->heading);
    if ((rc = ap_json_get_enum(r, root, "", "model", ap_curve_model_names, AP_CURVE_N_MODELS, &model)) != AP_OK)
        return rc;
    req->model = (ap_curve_model)model;
    /* Only Pinter's curve leaves the final heading free. */
    if (!req->has_goal_heading && req->model != AP_CURVE_PINTER)
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, "goal.heading",
                            "missing required field \"goal.heading\" (optional only for model \"pinter\")");
    return AP_OK;
}

int ap_wire_parse_curve_request(const char *body, size_t len, ap_curve_request *req, ap_wire_error *err)
{
    ap_json_reader r;
    json_t *root;
    memset(req, 0, sizeof *req);
    req->model = AP_CURVE_DUBINS;
    ap_json_reader_init(&r, err, AP_CURVE_JSON_STYLE);
    int rc = ap_json_load_object(&r, body, len, &root);
    if (rc != AP_OK)
        return rc;
    rc = parse_body(&r, root, req);
    json_decref(root);
    return rc;
}

int ap_wire_write_curve(ap_jbuf *b, ap_curve_model model, const char *word, double length,
                        const ap_segment *segs, size_t n)
{
    if (word == NULL)
        word = "";
    if (!ap_utf8_valid(word)) {
        /* jansson refused such a word (the answer failed); keep it a failure rather than write '?' */
        b->failed = true;
        return ap_jbuf_status(b);
    }
    AP_JBUF_LIT(b, "{\"status\":\"ok\",\"model\":");
    ap_jbuf_str(b, ap_curve_model_name(model));
    AP_JBUF_LIT(b, ",\"word\":");
    ap_jbuf_str(b, word);
    AP_JBUF_LIT(b, ",\"length\":");
    ap_jbuf_real(b, length);
    AP_JBUF_LIT(b, ",\"segments\":");
    ap_jbuf_segments(b, segs, n);
    AP_JBUF_LIT(b, "}");
    return ap_jbuf_status(b);
}

char *ap_wire_encode_curve(ap_curve_model model, const char *word, double length, const ap_segment *segs,
                           size_t n, size_t *len)
{
    ap_jbuf b;
    ap_jbuf_init(&b, NULL, 0);
    ap_wire_write_curve(&b, model, word, length, segs, n);
    return ap_jbuf_take(&b, len);
}
