/* fuzz.c — ap_wire_parse_path_request on arbitrary bytes, plus the invariants a parsed request promises,
 * and the planner's validation pass (ap_query_validate) on what it parsed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planner/plan/algorithms.h"
#include "proto/wire.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/wire_error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ap_path_request req;
    if (!ap_fuzz_parse_path_request(data, size, &req))
        return 0;
    const ap_query *q = &req.q;
    size_t mlen = strnlen(req.map, sizeof req.map);
    if (mlen < 1 || mlen >= sizeof req.map || q->map != NULL)
        abort();
    if (!isfinite(q->sx) || !isfinite(q->sy) || !isfinite(q->gx) || !isfinite(q->gy) ||
        (q->has_sheading && !isfinite(q->sheading)))
        abort();
    if (!isfinite(q->unit_radius) || !isfinite(q->turning_radius) || !isfinite(q->sample_step) ||
        ap_algorithm_row_of(q->algorithm) == NULL ||
        (q->smoothing != AP_SMOOTH_NONE && q->smoothing != AP_SMOOTH_LOS && q->smoothing != AP_SMOOTH_TAUT))
        abort();
    /* Ranges are the planner's: on a map holding the request's points, its one validation pass either
     * accepts the query or names a field and says why; an accepted query is inside the limits. */
    static ap_map *m;
    if (m == NULL) {
        static const char *text = "type octile\nheight 4\nwidth 4\nmap\n....\n....\n....\n....\n";
        ap_diag d;
        if (ap_map_parse("m", "m", text, strlen(text), NULL, &m, &d) != AP_OK)
            abort();
    }
    ap_query vq = *q;
    vq.map = m;
    vq.sx = fmod(fabs(q->sx), 4.0), vq.sy = fmod(fabs(q->sy), 4.0);
    vq.gx = fmod(fabs(q->gx), 4.0), vq.gy = fmod(fabs(q->gy), 4.0);
    ap_query_error qe;
    int vs = ap_query_validate(&vq, NULL, &qe);
    if (vs != AP_OK && (vs != AP_E_INVALID_REQUEST || qe.field == NULL || qe.message[0] == '\0'))
        abort();
    if (vs == AP_OK && (!(q->unit_radius >= 0 && q->unit_radius <= AP_MAX_UNIT_RADIUS) ||
                        !(q->turning_radius >= 0 && q->turning_radius <= AP_MAX_TURNING_RADIUS) ||
                        (q->connectivity != 4 && q->connectivity != 8) ||
                        (q->sample_step != 0.0 && !(q->sample_step >= AP_MIN_SAMPLE_STEP))))
        abort();
    if (req.deadline_ms != -1 && (req.deadline_ms < 1 || req.deadline_ms > 600000))
        abort();
    /* the map id goes back out in the answer */
    ap_result r;
    memset(&r, 0, sizeof r);
    r.status = AP_NO_PATH;
    char *body = ap_wire_encode_path(req.map, &r, NULL, NULL);
    if (body == NULL)
        abort();
    free(body);
    return 0;
}
