/* geometry.h — checks on the segment encoding of a /v1/path answer (shared by the integration suites). */
#ifndef AP_TEST_GEOMETRY_H
#define AP_TEST_GEOMETRY_H

#include <jansson.h>

/* Assert (with Check's ck_assert) that the "segments" of a 200/ok answer are continuous (each starts where
 * the previous ends, 1e-9), arcs have radius == turning radius or less (tightened turns), arc endpoints lie
 * on their circle, arc length == radius * |sweep|, headings are continuous (G1) when turning_radius > 0,
 * the first segment starts at (sx, sy), the last ends at (gx, gy), and the lengths add up to "length". */
void ap_check_segments(json_t *ans, double sx, double sy, double gx, double gy, double turning_radius);

#endif
