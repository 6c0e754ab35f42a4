/* geometry.c — see geometry.h. */
#include "geometry.h"

#include "tests/check_fast.h"
#include <math.h>
#include <string.h>

static double num(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    ck_assert_msg(json_is_number(v), "field %s missing or not a number", k);
    return json_number_value(v);
}

static void pt(json_t *o, const char *k, double *x, double *y)
{
    json_t *a = json_object_get(o, k);
    ck_assert_msg(json_is_array(a) && json_array_size(a) == 2, "field %s is not [x, y]", k);
    *x = json_number_value(json_array_get(a, 0));
    *y = json_number_value(json_array_get(a, 1));
}

static double wrap(double a)
{
    a = fmod(a + M_PI, 2 * M_PI);
    if (a < 0)
        a += 2 * M_PI;
    return a - M_PI;
}

void ap_check_segments(json_t *ans, double sx, double sy, double gx, double gy, double turning_radius)
{
    json_t *segs = json_object_get(ans, "segments");
    ck_assert(json_is_array(segs));
    size_t n = json_array_size(segs);
    double total = 0, px = sx, py = sy, ph = NAN;
    for (size_t i = 0; i < n; i++) {
        json_t *s = json_array_get(segs, i);
        const char *type = json_string_value(json_object_get(s, "type"));
        ck_assert_ptr_nonnull(type);
        double x0, y0, x1, y1, len = num(s, "length"), h0, h1;
        pt(s, "start", &x0, &y0);
        pt(s, "end", &x1, &y1);
        ck_assert_msg(fabs(x0 - px) < 1e-9 && fabs(y0 - py) < 1e-9, "segment %zu does not start where %zu ends", i,
                      i - 1);
        if (strcmp(type, "line") == 0) {
            h0 = h1 = num(s, "heading");
            ck_assert_msg(fabs(hypot(x1 - x0, y1 - y0) - len) < 1e-9, "line %zu length", i);
            if (len > 1e-12)
                ck_assert_msg(fabs(wrap(atan2(y1 - y0, x1 - x0) - h0)) < 1e-9, "line %zu heading", i);
        } else {
            ck_assert_str_eq(type, "arc");
            double cx, cy, r = num(s, "radius"), sw = num(s, "sweep");
            pt(s, "center", &cx, &cy);
            h0 = num(s, "start_heading");
            h1 = h0 + sw;
            ck_assert_msg(r > 0 && r <= turning_radius + 1e-9, "arc %zu radius %g vs turning radius %g", i, r,
                          turning_radius);
            ck_assert_msg(fabs(hypot(x0 - cx, y0 - cy) - r) < 1e-9, "arc %zu start off its circle", i);
            ck_assert_msg(fabs(hypot(x1 - cx, y1 - cy) - r) < 1e-9, "arc %zu end off its circle", i);
            ck_assert_msg(fabs(r * fabs(sw) - len) < 1e-9, "arc %zu length != r|sweep|", i);
        }
        if (turning_radius > 0 && i > 0 && !isnan(ph))
            ck_assert_msg(fabs(wrap(h0 - ph)) < 1e-9, "heading jumps at segment %zu (%.12g -> %.12g)", i, ph, h0);
        ph = h1;
        px = x1;
        py = y1;
        total += len;
    }
    ck_assert_msg(fabs(px - gx) < 1e-9 && fabs(py - gy) < 1e-9, "path ends at (%g, %g), goal (%g, %g)", px, py, gx,
                  gy);
    ck_assert_msg(fabs(total - num(ans, "length")) < 1e-9 * (1 + total), "segment lengths %.12g != length %.12g",
                  total, num(ans, "length"));
}
