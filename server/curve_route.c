/* curve_route.c — POST /v1/curve on the HTTP thread (see curve_route.h). */
#include "curve_route.h"

#include <math.h>
#include <stdlib.h>

#include "../planner/geom/curve.h"
#include "../planner/geom/dubins.h"
#include "../planner/geom/reeds_shepp.h"
#include "../proto/curve.h"
#include "../proto/errors.h"

/* The error answer of status; the status itself is returned so the caller knows what it answered. */
static int error(int status, const char *message, const char *field, int line, int col, char **out,
                 size_t *out_len)
{
    *out = ap_wire_encode_error(status, message, field, line, col, NULL, out_len);
    return status;
}

/* The word of a forward curve (Dubins, Pinter) as driven: a letter per segment (L, R, S), so a piece of
 * length 0 is not named (a Dubins RSL that is one line is "S"; start == goal is "", the spec's promise), as
 * the Reeds-Shepp words already are. out holds 4 (at most 3 segments). */
static const char *driven_word(const ap_segment *segs, size_t n, char out[4])
{
    size_t k = 0;
    for (size_t i = 0; i < n && k < 3; i++)
        out[k++] = segs[i].type == AP_SEG_LINE ? 'S' : segs[i].sweep > 0.0 ? 'L' : 'R';
    out[k] = '\0';
    return out;
}

int ap_curve_route(const char *body, size_t len, char **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    ap_curve_request req;
    ap_wire_error err;
    if (ap_wire_parse_curve_request(body, len, &req, &err) != AP_OK)
        return error(err.status, err.message, err.field, err.line, err.col, out, out_len);
    ap_segment segs[AP_RS_MAX_PIECES];
    size_t n = 0;
    const char *word = "";
    double length = 0.0;
    char rsword[2 * AP_RS_MAX_PIECES + 1], dword[4];
    double r = req.turning_radius;
    if (req.model == AP_CURVE_DUBINS) {
        ap_dubins d;
        if (ap_dubins_shortest(&req.start, &req.goal, r, &d) != 0)
            return error(AP_E_INTERNAL, NULL, NULL, 0, 0, out, out_len);
        n = ap_dubins_segments(&d, &req.goal, segs);
        word = driven_word(segs, n, dword);
    } else if (req.model == AP_CURVE_REEDS_SHEPP) {
        ap_reeds_shepp p;
        if (ap_reeds_shepp_shortest(&req.start, &req.goal, r, &p) != 0)
            return error(AP_E_INTERNAL, NULL, NULL, 0, 0, out, out_len);
        n = ap_reeds_shepp_segments(&p, &req.goal, segs);
        for (int i = 0; i <= 2 * p.n; i++)
            rsword[i] = p.word[i];
        word = rsword;
    } else {
        n = ap_curve_arc_line(req.start.x, req.start.y, req.start.heading, req.goal.x, req.goal.y, r, segs, NULL);
        word = driven_word(segs, n, dword);
    }
    length = ap_path_length(segs, n);
    *out = ap_wire_encode_curve(req.model, word, length, segs, n, out_len);
    if (*out == NULL)
        return error(AP_E_INTERNAL, NULL, NULL, 0, 0, out, out_len);
    return AP_OK;
}
