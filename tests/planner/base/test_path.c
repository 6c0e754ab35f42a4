/* test_path.c — segment construction, Listing 2 poses at hand-computed distances, angle wrapping. */
#include <math.h>

#include "../../../planner/base/path.h"
#include "../suites.h"

START_TEST(angle_wrap)
{
    ck_assert_double_eq(ap_angle_wrap(0.0), 0.0);
    ck_assert_double_eq_tol(ap_angle_wrap(M_PI), -M_PI, 1e-15);
    ck_assert_double_eq_tol(ap_angle_wrap(-M_PI), -M_PI, 1e-15);
    ck_assert_double_eq_tol(ap_angle_wrap(3 * M_PI_2), -M_PI_2, 1e-15);
    ck_assert_double_eq_tol(ap_angle_wrap(-3 * M_PI_2), M_PI_2, 1e-15);
    ck_assert_double_eq_tol(ap_angle_wrap(20 * M_PI + 0.25), 0.25, 1e-13);
    /* Huge headings reduced by the true 2pi: expected values from a 700-digit decimal reduction (pi by
     * Machin's formula), independent of libm. */
    static const double huge[][2] = {
        {1e16, 2.2474252491623665},        {-1e16, -2.2474252491623665},     {1e15, 2.1096981170701126},
        {123456789.0, 1.4300726427748225}, {1e300, -2.1838724841522326},     {1e308, 2.6710203145624654},
        {1152921504606846976.0 /* 2^60 */, -2.161319993139727},
    };
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++)
        ck_assert_double_eq_tol(ap_angle_wrap(huge[i][0]), huge[i][1], 1e-14);
    /* Just past the switch to the exact reduction, the cheap form is still within 1e-12 of it. */
    const double past = AP_ANGLE_WRAP_FAST_MAX + 1.0;
    ck_assert_double_eq_tol(ap_angle_wrap(past), past - 2.0 * M_PI * floor((past + M_PI) / (2.0 * M_PI)), 1e-12);
    for (double a = -50.0; a < 50.0; a += 0.37) {
        double w = ap_angle_wrap(a);
        ck_assert(w >= -M_PI && w < M_PI);
        double k = (a - w) / (2 * M_PI);
        ck_assert_double_eq_tol(k, round(k), 1e-12);
    }
}
END_TEST

START_TEST(line_poses)
{
    ap_segment s = ap_segment_line(1.0, 2.0, 4.0, 6.0);
    ck_assert_double_eq_tol(s.length, 5.0, 1e-15);
    ck_assert_double_eq_tol(s.heading, atan2(4.0, 3.0), 1e-15);
    ap_pose p = ap_segment_pose(&s, 2.5);
    ck_assert_double_eq_tol(p.x, 2.5, 1e-15);
    ck_assert_double_eq_tol(p.y, 4.0, 1e-15);
    p = ap_segment_pose(&s, 99.0); /* clamped */
    ck_assert_double_eq(p.x, 4.0);
    ck_assert_double_eq(p.y, 6.0);
    p = ap_segment_pose(&s, -3.0);
    ck_assert_double_eq(p.x, 1.0);
    /* The end point bit for bit where x0 + (x1 - x0) rounds away from x1 (path.h's promise). */
    ap_segment e = ap_segment_line(14.22943629324456, 0.0, -31.40937341052823, 1.0);
    ck_assert(e.x0 + (e.x1 - e.x0) * 1.0 != e.x1);
    p = ap_segment_pose(&e, e.length);
    ck_assert(p.x == e.x1 && p.y == e.y1);
    ap_segment z = ap_segment_line(1.0, 1.0, 1.0, 1.0);
    ck_assert_double_eq(z.length, 0.0);
    ck_assert_double_eq(z.heading, 0.0);
}
END_TEST

START_TEST(quarter_circle)
{
    /* heading 0 at the origin, turning toward +y on radius 1: centre (0, 1), end (1, 1) heading pi/2 */
    ap_segment a = ap_segment_arc(0.0, 0.0, 0.0, 1.0, M_PI_2);
    ck_assert_double_eq_tol(a.cx, 0.0, 1e-15);
    ck_assert_double_eq_tol(a.cy, 1.0, 1e-15);
    ck_assert_double_eq_tol(a.x1, 1.0, 1e-15);
    ck_assert_double_eq_tol(a.y1, 1.0, 1e-15);
    ck_assert_double_eq_tol(a.length, M_PI_2, 1e-15);
    ck_assert_double_eq_tol(ap_segment_end_heading(&a), M_PI_2, 1e-15);
    ap_pose p = ap_segment_pose(&a, M_PI_4);
    ck_assert_double_eq_tol(p.x, sqrt(0.5), 1e-15);
    ck_assert_double_eq_tol(p.y, 1.0 - sqrt(0.5), 1e-15);
    ck_assert_double_eq_tol(p.heading, M_PI_4, 1e-15);
    /* the mirror turn (heading decreasing): centre (0, -1), end (1, -1) heading -pi/2 */
    ap_segment b = ap_segment_arc(0.0, 0.0, 0.0, 1.0, -M_PI_2);
    ck_assert_double_eq_tol(b.cy, -1.0, 1e-15);
    p = ap_segment_pose(&b, M_PI_4);
    ck_assert_double_eq_tol(p.x, sqrt(0.5), 1e-15);
    ck_assert_double_eq_tol(p.y, -1.0 + sqrt(0.5), 1e-15);
    ck_assert_double_eq_tol(p.heading, -M_PI_4, 1e-15);
    /* a radius-2 half circle from heading pi/2 at (3, 0): centre (1, 0); after a third of it (2pi/3 of
     * length) the angle on the circle has advanced by pi/3 from 0 */
    ap_segment c = ap_segment_arc(3.0, 0.0, M_PI_2, 2.0, M_PI);
    ck_assert_double_eq_tol(c.cx, 1.0, 1e-15);
    ck_assert_double_eq_tol(c.cy, 0.0, 1e-15);
    p = ap_segment_pose(&c, 2.0 * M_PI / 3.0);
    ck_assert_double_eq_tol(p.x, 1.0 + 2.0 * cos(M_PI / 3), 1e-14);
    ck_assert_double_eq_tol(p.y, 2.0 * sin(M_PI / 3), 1e-14);
    ck_assert_double_eq_tol(p.heading, M_PI_2 + M_PI / 3, 1e-14);
}
END_TEST

START_TEST(listing2_path)
{
    /* quarter arc then a line of length 2 straight down (+y) */
    ap_segment s[2];
    s[0] = ap_segment_arc(0.0, 0.0, 0.0, 1.0, M_PI_2);
    s[1] = ap_segment_line(s[0].x1, s[0].y1, 1.0, 3.0);
    ck_assert_double_eq_tol(ap_path_length(s, 2), M_PI_2 + 2.0, 1e-15);
    ap_pose p = ap_path_pose(s, 2, M_PI_2 + 1.0);
    ck_assert_double_eq_tol(p.x, 1.0, 1e-15);
    ck_assert_double_eq_tol(p.y, 2.0, 1e-15);
    ck_assert_double_eq_tol(p.heading, M_PI_2, 1e-15);
    p = ap_path_pose(s, 2, M_PI_2); /* the joint: start of the line */
    ck_assert_double_eq_tol(p.x, 1.0, 1e-15);
    ck_assert_double_eq_tol(p.y, 1.0, 1e-15);
    p = ap_path_pose(s, 2, 100.0); /* clamped to the end */
    ck_assert_double_eq_tol(p.x, 1.0, 1e-15);
    ck_assert_double_eq_tol(p.y, 3.0, 1e-15);
    ck_assert_double_eq_tol(p.heading, M_PI_2, 1e-15);
    p = ap_path_pose(s, 2, -1.0);
    ck_assert_double_eq_tol(p.x, 0.0, 1e-15);
    ck_assert_double_eq_tol(p.y, 0.0, 1e-15);
    ck_assert_double_eq(p.heading, 0.0);
    p = ap_path_pose(s, 2, M_PI_4);
    ck_assert_double_eq_tol(p.x, sqrt(0.5), 1e-15);
}
END_TEST

Suite *path_suite(void)
{
    Suite *s = suite_create("path");
    TCase *tc = tcase_create("geometry");
    tcase_add_test(tc, angle_wrap);
    tcase_add_test(tc, line_poses);
    tcase_add_test(tc, quarter_circle);
    tcase_add_test(tc, listing2_path);
    suite_add_tcase(s, tc);
    return s;
}
