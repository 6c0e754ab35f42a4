/* fuzz.c — the circle-world file reader (ap_circles_parse, `<id>.circles.json`) on arbitrary bytes, with the
 * promises of proto/circles.h and planner/world/circles.h: a rejected file is map_format (or nomem) with a
 * message and no world; an accepted world keeps the file's bounds and circles, every circle within the
 * documented ranges, and answers the world interface's clearance test without crashing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planner/base/status.h"
#include "proto/circles.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ap_circle_world *cw = NULL;
    ap_diag diag;
    memset(&diag, 0, sizeof diag);
    int rc = ap_circles_parse("fuzz.circles.json", (const char *)data, size, &cw, &diag);
    if (rc != AP_OK) {
        if ((rc != AP_E_MAP_FORMAT && rc != AP_E_NOMEM) || cw != NULL)
            abort();
        if (memchr(diag.msg, '\0', sizeof diag.msg) == NULL || diag.msg[0] == '\0')
            abort();
        return 0;
    }
    if (cw == NULL)
        abort();
    double w = ap_circle_world_width(cw), h = ap_circle_world_height(cw);
    if (!(w > 0.0 && w <= 1e7) || !(h > 0.0 && h <= 1e7))
        abort();
    size_t n = ap_circle_world_count(cw);
    const ap_circle *c = ap_circle_world_circles(cw);
    if (n > AP_CIRCLES_MAX || (n > 0 && c == NULL))
        abort();
    for (size_t i = 0; i < n; i++)
        if (!(fabs(c[i].x) <= 1e7 && fabs(c[i].y) <= 1e7 && c[i].r >= 0.0 && c[i].r <= 1e7))
            abort();
    /* the bucket index answers for lines across the world, through and beside the first circle */
    double my = h / 2;
    (void)ap_circle_world_line_tol(cw, 0.0, 0.0, w, h, 0.0, AP_CIRCLES_EPS);
    (void)ap_circle_world_line_tol(cw, 0.0, my, w, my, 0.5, -AP_CIRCLES_EPS);
    if (n > 0 && ap_circle_world_line_tol(cw, c[0].x - 1.0, c[0].y, c[0].x + 1.0, c[0].y, 0.0, AP_CIRCLES_EPS))
        abort(); /* a line through a circle's centre is never clear */
    /* the point rule: never more usable than the closure test, touches within the segment's parameter range */
    ap_circle_touch t[AP_CIRCLES_MAX_TOUCHES];
    size_t nt;
    if (ap_circle_world_point_line_ok(cw, 0.0, my, w, my, t, &nt)) {
        if (!ap_circle_world_line_tol(cw, 0.0, my, w, my, 0.0, -AP_CIRCLES_EPS) || nt > AP_CIRCLES_MAX_TOUCHES)
            abort();
        for (size_t i = 0; i < nt; i++)
            if (!(t[i].t0 >= 0.0 && t[i].t0 <= t[i].t1 && t[i].t1 <= 1.0) || (t[i].side != 1 && t[i].side != -1))
                abort();
    }
    if (n > 0 && c[0].r > 0.0) {
        ap_segment a = ap_segment_arc(c[0].x - c[0].r, c[0].y, M_PI / 2, c[0].r, -M_PI);
        if (ap_circle_world_point_segment_ok(cw, &a, NULL, NULL) &&
            !ap_circle_world_segment_tol(cw, &a, 0.0, -AP_CIRCLES_EPS))
            abort(); /* round the first circle: never more usable than the closure test */
    }
    ap_circle_world_free(cw);
    return 0;
}
