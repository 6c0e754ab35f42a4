/* test_timing.c — speed profiles on the answers of every algorithm (kino/timing.h, ap_plan_timing) end to
 * end: a legal-turn query with "unit": {"kind": "car"} answers with times that keep the car's limits on its
 * arcs (slower there than on its lines) and samples every samples.dt seconds; a grid answer for a unit with
 * its own limits stops at its corners and starts at start.speed; the errors of timed queries (start.speed
 * too fast for the path, speeds without vehicle limits, a bad limit on another algorithm). */
#include "tests/check_fast.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util.h"
#include "harness.h"

Suite *timing_suite(void);

/* 60 x 40 open field with a border and a wall at x = 30 from y = 12 to the bottom border. */
static char FIELD[60 * 41 + 64];

static ap_srv_dir sd;
static ap_srv srv;

static void setup(void)
{
    int n = sprintf(FIELD, "type octile\nheight 40\nwidth 60\nmap\n");
    for (int y = 0; y < 40; y++) {
        for (int x = 0; x < 60; x++)
            FIELD[n++] = x == 0 || y == 0 || x == 59 || y == 39 || (x == 30 && y >= 12) ? '@' : '.';
        FIELD[n++] = '\n';
    }
    FIELD[n] = '\0';
    ck_assert_int_eq(ap_srv_start_dir(&srv, &sd, "timing", "field", FIELD, "{}"), 0);
}

static void teardown(void)
{
    ck_assert_int_eq(ap_srv_stop_dir(&srv, &sd), 0);
}

static json_t *post(const char *body, long want)
{
    return ap_post_want(&srv, "/v1/path", body, want);
}

static bool is_arc(json_t *seg)
{
    return strcmp(json_string_value(json_object_get(seg, "type")), "arc") == 0;
}

/* The car (14 m/s, 3 m/s^2 up, 6 down, 8 lateral, turning radius 6) around the wall on the legal-turn lattice:
 * every piece within the limits (on its arcs v^2 / r <= 8, so at most sqrt(48) m/s at radius 6), faster on
 * its lines than its arcs allow, at rest at the goal; samples every 0.5 s carry t and v, the last at
 * duration_s with the end speed. */
START_TEST(legal_turn_car_has_times)
{
    json_t *j = post("{\"map\":\"field\",\"start\":{\"x\":8.5,\"y\":30.5,\"heading\":-1.5707963267948966},"
                     "\"goal\":{\"x\":50.5,\"y\":30.5},\"unit\":{\"kind\":\"car\"},"
                     "\"search\":{\"algorithm\":\"directional24\"},\"samples\":{\"dt\":0.5}}",
                     200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert(json_is_true(json_object_get(j, "clear")));
    ck_assert_double_eq(ap_it_check_limits(j, 14.0, 3.0, 6.0, 8.0, 6.0, 0.0), 0.0);
    json_t *segs = json_object_get(j, "segments"), *s;
    size_t i, arcs = 0;
    double line_top = 0.0, arc_top = 0.0;
    json_array_foreach(segs, i, s) {
        const double vp = fmax(ap_jnum(s, "v_start"), ap_jnum(s, "v_end"));
        if (is_arc(s)) {
            arcs++;
            arc_top = fmax(arc_top, vp);
        } else {
            line_top = fmax(line_top, vp);
        }
    }
    ck_assert_uint_ge(arcs, 2);
    ck_assert(arc_top <= sqrt(48.0) + 1e-9);
    ck_assert_msg(line_top > sqrt(48.0) + 1.0, "lines at most %g m/s", line_top);
    /* slow down before a tight arc: an arc entered from a line is entered at most at its cap */
    for (i = 1; i < json_array_size(segs); i++) {
        json_t *a = json_array_get(segs, i), *b = json_array_get(segs, i - 1);
        if (is_arc(a) && !is_arc(b))
            ck_assert(ap_jnum(b, "v_end") <= sqrt(8.0 * ap_jnum(a, "radius")) + 1e-9);
    }
    json_t *smp = json_object_get(j, "samples");
    const double T = ap_jnum(j, "duration_s");
    const size_t n = json_array_size(smp), k = (size_t)floor(T / 0.5);
    ck_assert_uint_eq(n, k + 1 + (T - 0.5 * (double)k > 1e-9 ? 1 : 0));
    for (i = 0; i < n; i++) {
        json_t *p = json_array_get(smp, i);
        ck_assert_double_eq_tol(ap_jnum(p, "t"), i + 1 < n ? 0.5 * (double)i : T, 1e-12);
        ck_assert(ap_jnum(p, "v") >= 0.0 && ap_jnum(p, "v") <= 14.0 + 1e-9);
    }
    ck_assert_double_eq(ap_jnum(json_array_get(smp, 0), "v"), 0.0);
    ck_assert_double_eq_tol(ap_jnum(json_array_get(smp, 1), "v"), 1.5, 1e-9); /* 0.5 s at 3 m/s^2 */
    ck_assert_double_eq(ap_jnum(json_array_get(smp, n - 1), "v"), 0.0);
    ck_assert_double_eq(ap_jnum(json_array_get(smp, n - 1), "d"), ap_jnum(j, "length"));
    json_decref(j);
}
END_TEST

/* A unit with its own limits on A*: around the wall's end the path has corners, each driven at rest; the
 * answer starts at start.speed and ends at goal.speed (a long last line reaches it); without the limits the
 * same query answers without times. */
START_TEST(grid_corners_at_rest)
{
    static const char q[] = "{\"map\":\"field\",\"start\":{\"x\":20.5,\"y\":30.5,\"speed\":1},\"goal\":{\"x\":50.5,"
                            "\"y\":30.5,\"speed\":2},\"unit\":{\"max_speed\":5,\"max_accel\":1,\"max_brake\":2,"
                            "\"max_lateral_accel\":2},\"search\":{\"algorithm\":\"astar\"}}";
    json_t *j = post(q, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert_double_eq_tol(ap_it_check_limits(j, 5.0, 1.0, 2.0, 2.0, 0.0, 1.0), 2.0, 1e-9);
    json_t *segs = json_object_get(j, "segments");
    size_t stops = 0;
    for (size_t i = 1; i < json_array_size(segs); i++) {
        json_t *a = json_array_get(segs, i), *b = json_array_get(segs, i - 1);
        if (fabs(ap_jnum(a, "heading") - ap_jnum(b, "heading")) > 1e-6) {
            ck_assert_double_eq(ap_jnum(a, "v_start"), 0.0);
            stops++;
        }
    }
    ck_assert_uint_ge(stops, 2);
    json_decref(j);
    j = post("{\"map\":\"field\",\"start\":{\"x\":20.5,\"y\":30.5},\"goal\":{\"x\":50.5,\"y\":30.5},"
             "\"search\":{\"algorithm\":\"astar\"}}",
             200);
    ck_assert_ptr_null(json_object_get(j, "duration_s"));
    ck_assert_ptr_null(json_object_get(json_array_get(json_object_get(j, "segments"), 0), "v_start"));
    json_decref(j);
}
END_TEST

/* A batch times the items that name vehicle limits and only those. */
START_TEST(batch_items_timed)
{
    json_t *j = ap_post_want(&srv, "/v1/paths",
                             "{\"map\":\"field\",\"queries\":[{\"start\":{\"x\":20.5,\"y\":30.5},"
                             "\"goal\":{\"x\":25.5,\"y\":30.5},\"unit\":{\"kind\":\"tank\",\"turning_radius\":0}},"
                             "{\"start\":{\"x\":20.5,\"y\":30.5},\"goal\":{\"x\":25.5,\"y\":30.5}}]}",
                             200);
    json_t *res = json_object_get(j, "results"), *timed = json_array_get(res, 0);
    ck_assert_str_eq(json_string_value(json_object_get(timed, "status")), "ok");
    /* 5 m for the tank (10 m/s, 1.5 up, 3 down): a triangle, peak sqrt(2 x 1.5 x 3 x 5 / 4.5) = sqrt(10) */
    ck_assert_double_eq_tol(ap_jnum(timed, "duration_s"), sqrt(10.0) / 1.5 + sqrt(10.0) / 3.0, 1e-9);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(res, 1), "status")), "ok");
    ck_assert_ptr_null(json_object_get(json_array_get(res, 1), "duration_s"));
    json_decref(j);
}
END_TEST

START_TEST(timed_errors)
{
    static const struct {
        const char *body, *field, *message;
    } cases[] = {
        /* 14 m/s 6 tiles from the wall's end: the car cannot brake for the corner there (16.3 m at 6 m/s^2) */
        {"{\"map\":\"field\",\"start\":{\"x\":27.5,\"y\":17.5,\"speed\":14},\"goal\":{\"x\":50.5,\"y\":30.5},"
         "\"unit\":{\"kind\":\"car\",\"turning_radius\":0},\"search\":{\"algorithm\":\"astar\"}}",
         "start.speed", "is above what this path allows within the limits (at most"},
        {"{\"map\":\"field\",\"start\":{\"x\":20.5,\"y\":30.5,\"speed\":1},\"goal\":{\"x\":50.5,\"y\":30.5}}",
         "start.speed", "needs vehicle limits"},
        /* a forward start speed on a path that leaves backwards (it was driven backwards at 2 m/s at once) */
        {"{\"map\":\"field\",\"start\":{\"x\":10.5,\"y\":10.5,\"heading\":0,\"speed\":2},"
         "\"goal\":{\"x\":7.5,\"y\":10.5,\"heading\":0},\"unit\":{\"kind\":\"car\",\"turning_radius\":3,"
         "\"reverse\":true},\"search\":{\"algorithm\":\"directional24\"}}",
         "start.speed", "the path leaves backwards"},
        {"{\"map\":\"field\",\"start\":{\"x\":20.5,\"y\":30.5},\"goal\":{\"x\":50.5,\"y\":30.5},"
         "\"unit\":{\"max_speed\":0},\"search\":{\"algorithm\":\"jps\"}}",
         "unit.max_speed", "must be a finite number in [0.001, 1000]"},
        {"{\"map\":\"field\",\"start\":{\"x\":20.5,\"y\":30.5},\"goal\":{\"x\":50.5,\"y\":30.5},"
         "\"unit\":{\"kind\":\"car\"},\"goal_tolerance\":{\"position\":1}}",
         "goal_tolerance", "applies to search.algorithm \"kinodynamic\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *j = post(cases[i].body, 400);
        json_t *e = json_object_get(j, "error");
        ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "invalid_request");
        ck_assert_str_eq(json_string_value(json_object_get(e, "field")), cases[i].field);
        ck_assert_msg(strstr(json_string_value(json_object_get(e, "message")), cases[i].message) != NULL, "%s",
                      json_string_value(json_object_get(e, "message")));
        json_decref(j);
    }
}
END_TEST

/* A path that arrives backwards ends at rest whatever goal.speed says (a forward speed): it arrived backwards at
 * goal.speed. */
START_TEST(reverse_arrival_at_rest)
{
    json_t *j = post("{\"map\":\"field\",\"start\":{\"x\":10.5,\"y\":10.5,\"heading\":0},"
                     "\"goal\":{\"x\":7.5,\"y\":10.5,\"heading\":0,\"speed\":3},\"unit\":{\"kind\":\"car\","
                     "\"turning_radius\":3,\"reverse\":true},\"search\":{\"algorithm\":\"directional24\"}}", 200);
    json_t *segs = json_object_get(j, "segments");
    size_t n = json_array_size(segs);
    ck_assert_uint_gt(n, 0);
    json_t *last = json_array_get(segs, n - 1);
    ck_assert(json_is_true(json_object_get(last, "reverse")));
    ck_assert_double_eq(json_real_value(json_object_get(last, "v_end")), 0.0);
    ck_assert_double_eq(json_real_value(json_object_get(json_array_get(segs, 0), "v_start")), 0.0);
    json_decref(j);
}
END_TEST

/* A circle map's scale (meters_per_tile in the config) times its answers as a grid's does: forest at 1.7 m a
 * tile, a 20-tile straight line is 34 m (the limits' closed form: up to 5 m/s at 3 m/s^2, cruise, brake at
 * 6 m/s^2), and its map info shows the scale, in single queries and batches alike. It planned at 1 m a tile
 * (5.25 s) and the map info had no scale. */
START_TEST(circle_map_scale_times_answers)
{
    char *conf = ap_test_temp_file("arcpath-scale-conf", "{\"meters_per_tile\": {\"forest\": 1.7}}");
    ck_assert_ptr_nonnull(conf);
    const char *args[] = {"--config", conf, NULL};
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", args, NULL), 0);
    ap_resp r;
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/forest", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    json_t *info = ap_resp_json(&r);
    ck_assert_double_eq(ap_jnum(info, "meters_per_tile"), 1.7);
    json_decref(info);
    ap_resp_free(&r);
    const double meters = 20.0 * 1.7, v = 5.0, a = 3.0, b = 6.0;
    const double want = v / a + v / b + (meters - v * v / (2 * a) - v * v / (2 * b)) / v;
    static const char query[] = "{\"map\":\"forest\",\"start\":{\"x\":2,\"y\":2},\"goal\":{\"x\":2,\"y\":22},"
                                "\"unit\":{\"max_speed\":5},\"search\":{\"algorithm\":\"any_angle\"}}";
    json_t *j = ap_post_want(&s, "/v1/path", query, 200);
    ck_assert_double_eq_tol(ap_jnum(j, "length"), 20.0, 1e-9);
    ck_assert_double_eq_tol(ap_jnum(j, "duration_s"), want, 1e-6);
    json_decref(j);
    char batch[512];
    snprintf(batch, sizeof batch, "{\"map\":\"forest\",\"queries\":[{\"start\":{\"x\":2,\"y\":2},"
             "\"goal\":{\"x\":2,\"y\":22},\"unit\":{\"max_speed\":5},\"search\":{\"algorithm\":\"any_angle\"}}]}");
    j = ap_post_want(&s, "/v1/paths", batch, 200);
    json_t *item = json_array_get(json_object_get(j, "results"), 0);
    ck_assert_double_eq_tol(ap_jnum(item, "duration_s"), want, 1e-6);
    json_decref(j);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    unlink(conf);
    free(conf);
}
END_TEST

Suite *timing_suite(void)
{
    Suite *s = suite_create("timing");
    TCase *tc = tcase_create("timed answers");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, legal_turn_car_has_times);
    tcase_add_test(tc, grid_corners_at_rest);
    tcase_add_test(tc, batch_items_timed);
    tcase_add_test(tc, timed_errors);
    tcase_add_test(tc, reverse_arrival_at_rest);
    tcase_add_test(tc, circle_map_scale_times_answers);
    suite_add_tcase(s, tc);
    return s;
}
