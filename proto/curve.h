/* curve.h — the wire format of POST /v1/curve: shortest curve between two poses, no map. Parsed with the
 * strict reader of proto/json_in.h, answered with the direct writer of proto/json_out.h.
 *
 * Contract: proto/openapi.yaml. Thread-safe (no shared state); returned strings are malloc'd and owned by
 * the caller (free()).
 */
#ifndef AP_PROTO_CURVE_H
#define AP_PROTO_CURVE_H

#include <stdbool.h>
#include <stddef.h>

#include "../planner/base/limits.h"
#include "../planner/base/path.h"
#include "wire.h"

#define AP_CURVE_MAX_TURNING_RADIUS 1000.0 /* tiles */
/* The smallest turning radius and the largest |x|, |y| a curve request may carry: with them the normalised
 * distance D / r stays below 3e9, where every Dubins and Reeds-Shepp formula is finite (a radius of 1e-300
 * or a goal at 1e155 overflowed to a 500 answer). */
#define AP_CURVE_MIN_TURNING_RADIUS AP_MIN_TURNING_RADIUS /* tiles: the same floor as unit.turning_radius */
#define AP_CURVE_MAX_COORD 1e6           /* tiles */

typedef enum ap_curve_model {
    AP_CURVE_DUBINS = 0,      /* forward only, fixed final heading (Dubins 1957) */
    AP_CURVE_REEDS_SHEPP = 1, /* forwards and backwards (Reeds & Shepp 1990) */
    AP_CURVE_PINTER = 2       /* Pinter's arc + line, free final heading */
} ap_curve_model;

/* A parsed POST /v1/curve body. */
typedef struct ap_curve_request {
    ap_pose start, goal;
    bool has_goal_heading; /* goal.heading given (required unless model is pinter, where it is ignored) */
    double turning_radius; /* tiles, AP_CURVE_MIN_TURNING_RADIUS <= r <= AP_CURVE_MAX_TURNING_RADIUS */
    ap_curve_model model;  /* default dubins */
} ap_curve_request;

/* Parse and validate a POST /v1/curve body of len bytes: {"start": {"x", "y", "heading"}, "goal": {"x", "y",
 * "heading"}, "turning_radius": r, "model": "dubins"|"reeds_shepp"|"pinter"}. start.* and goal.x/y are
 * required finite numbers, |x| and |y| at most AP_CURVE_MAX_COORD; headings are any finite number, wrapped to
 * [-pi, pi) by the true 2pi (ap_angle_wrap); goal.heading is required except for "pinter"; turning_radius
 * is required, AP_CURVE_MIN_TURNING_RADIUS <= r <= AP_CURVE_MAX_TURNING_RADIUS; model defaults to "dubins". Strict like ap_wire_parse_path_request: unknown fields, wrong
 * types, missing fields and out-of-range values are AP_E_INVALID_REQUEST with err->field the dotted path
 * ("goal.heading"); malformed JSON and an empty body are AP_E_INVALID_JSON with line/column. *req is always
 * initialised. Returns AP_OK or the error status (also in err->status). Thread-safe. */
int ap_wire_parse_curve_request(const char *body, size_t len, ap_curve_request *req, ap_wire_error *err);

/* Write the 200 answer {"status":"ok","model":...,"word":...,"length":L,"segments":[...]} to b, with the
 * segment encoding of /v1/path ("reverse": true only on reverse segments; ap_jbuf_segments). word NULL =
 * "". Numbers with 17 significant digits. Returns AP_OK, or AP_E_NOMEM when b->failed: allocation failure,
 * a non-finite number, or a word that is not valid UTF-8 (b->len is then meaningless). */
int ap_wire_write_curve(ap_jbuf *b, ap_curve_model model, const char *word, double length,
                        const ap_segment *segs, size_t n);

/* The answer of ap_wire_write_curve as a malloc'd string (the caller frees it). Returns NULL on allocation
 * failure, a non-finite number or a word that is not valid UTF-8; *len (if non-NULL) gets the byte
 * length. */
char *ap_wire_encode_curve(ap_curve_model model, const char *word, double length, const ap_segment *segs,
                           size_t n, size_t *len);

/* The model's wire name ("dubins", "reeds_shepp", "pinter"; "dubins" for an out-of-range value): a static
 * string. Pure; thread-safe. */
const char *ap_curve_model_name(ap_curve_model m);

#endif
