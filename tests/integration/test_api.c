/* test_api.c — happy paths over HTTP: paths on the demo and Moving AI maps, map info, health, metrics,
 * request ids. */
#include "tests/check_fast.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util.h"
#include "geometry.h"
#include "harness.h"

Suite *api_suite(void);

static json_t *post_ok(const ap_srv *s, const char *body, ap_resp *r)
{
    ck_assert_int_eq(ap_post(s, "/v1/path", body, r), 0);
    ck_assert_msg(r->status == 200, "HTTP %ld: %s", r->status, r->body);
    ck_assert_msg(strncmp(r->content_type, "application/json", 16) == 0, "content type %s", r->content_type);
    json_t *j = ap_resp_json(r);
    ck_assert_ptr_nonnull(j);
    return j;
}

START_TEST(demo_grid_path_without_smoothing)
{
    /* Straight along row 10 of the arena from x=3 to x=9: cost 6 exactly, waypoints at cell centres. */
    ap_resp r;
    json_t *j = post_ok(ap_demo_srv,
                        "{\"map\":\"arena\",\"start\":{\"x\":3.5,\"y\":10.5},\"goal\":{\"x\":9.5,\"y\":10.5},"
                        "\"search\":{\"smoothing\":\"none\"}}",
                        &r);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert_str_eq(json_string_value(json_object_get(j, "map")), "arena");
    ck_assert_double_eq_tol(ap_jnum(j, "grid_cost"), 6.0, 1e-12);
    ck_assert_double_eq_tol(ap_jnum(j, "length"), 6.0, 1e-12);
    ck_assert(json_is_true(json_object_get(j, "clear")));
    json_t *wp = json_object_get(j, "waypoints");
    ck_assert_uint_eq(json_array_size(wp), 7);
    for (size_t i = 0; i < 7; i++) {
        ck_assert_double_eq_tol(json_number_value(json_array_get(json_array_get(wp, i), 0)), 3.5 + (double)i, 1e-12);
        ck_assert_double_eq_tol(json_number_value(json_array_get(json_array_get(wp, i), 1)), 10.5, 1e-12);
    }
    ap_check_segments(j, 3.5, 10.5, 9.5, 10.5, 0);
    json_t *st = json_object_get(j, "stats");
    ck_assert_str_eq(json_string_value(json_object_get(st, "lane")), "fast");
    ck_assert(json_integer_value(json_object_get(st, "expanded")) >= 1);
    json_decref(j);
    ap_resp_free(&r);
}
END_TEST

START_TEST(demo_curved_path_with_samples)
{
    /* Across the rooms map with a turning radius: geometry must be continuous in position and heading. */
    ap_resp r;
    json_t *j = post_ok(ap_demo_srv,
                        "{\"map\":\"rooms\",\"start\":{\"x\":3.5,\"y\":3.5,\"heading\":1.5707963267948966},"
                        "\"goal\":{\"x\":85.5,\"y\":50.5},\"unit\":{\"radius\":0.3,\"turning_radius\":1.5},"
                        "\"samples\":{\"step\":0.5}}",
                        &r);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ap_check_segments(j, 3.5, 3.5, 85.5, 50.5, 1.5);
    double len = ap_jnum(j, "length");
    ck_assert(len >= hypot(82, 47) - 1e-9);
    json_t *first = json_array_get(json_object_get(j, "segments"), 0);
    if (strcmp(json_string_value(json_object_get(first, "type")), "arc") == 0)
        ck_assert_double_eq_tol(ap_jnum(first, "start_heading"), M_PI / 2, 1e-12);
    else
        ck_assert_double_eq_tol(ap_jnum(first, "heading"), M_PI / 2, 1e-12);
    json_t *sm = json_object_get(j, "samples");
    size_t n = json_array_size(sm);
    ck_assert_uint_ge(n, (size_t)(len / 0.5));
    ck_assert_uint_le(n, (size_t)(len / 0.5) + 2);
    json_t *s0 = json_array_get(sm, 0), *sl = json_array_get(sm, n - 1);
    ck_assert_double_eq_tol(ap_jnum(s0, "x"), 3.5, 1e-9);
    ck_assert_double_eq_tol(ap_jnum(s0, "y"), 3.5, 1e-9);
    ck_assert_double_eq_tol(ap_jnum(s0, "heading"), M_PI / 2, 1e-9);
    ck_assert_double_eq_tol(ap_jnum(sl, "x"), 85.5, 1e-9);
    ck_assert_double_eq_tol(ap_jnum(sl, "y"), 50.5, 1e-9);
    /* Consecutive samples are at most `step` apart along the path, so at most that far apart in the plane. */
    for (size_t i = 1; i < n; i++) {
        json_t *a = json_array_get(sm, i - 1), *b = json_array_get(sm, i);
        ck_assert(hypot(ap_jnum(a, "x") - ap_jnum(b, "x"), ap_jnum(a, "y") - ap_jnum(b, "y")) <= 0.5 + 1e-9);
    }
    json_decref(j);
    ap_resp_free(&r);
}
END_TEST

START_TEST(demo_no_path_between_islands)
{
    ap_resp r;
    json_t *j = post_ok(ap_demo_srv, "{\"map\":\"islands\",\"start\":{\"x\":4.5,\"y\":4.5},\"goal\":{\"x\":30.5,\"y\":10.5}}",
                        &r);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "no_path");
    ck_assert_ptr_null(json_object_get(j, "segments"));
    json_decref(j);
    ap_resp_free(&r);
}
END_TEST

START_TEST(maps_listing_and_info)
{
    ap_resp r;
    ck_assert_int_eq(ap_http(ap_demo_srv, "GET", "/v1/maps", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    json_t *j = ap_resp_json(&r);
    json_t *maps = json_object_get(j, "maps");
    ck_assert_uint_eq(json_array_size(maps), 5);
    int seen = 0;
    for (size_t i = 0; i < json_array_size(maps); i++) {
        const char *id = json_string_value(json_object_get(json_array_get(maps, i), "id"));
        const char *kind = json_string_value(json_object_get(json_array_get(maps, i), "kind"));
        seen |= (strcmp(id, "arena") == 0) | (strcmp(id, "rooms") == 0) << 1 | (strcmp(id, "maze") == 0) << 2 |
                (strcmp(id, "islands") == 0) << 3 | (strcmp(id, "forest") == 0 && strcmp(kind, "circles") == 0) << 4;
        ck_assert_str_eq(kind, strcmp(id, "forest") == 0 ? "circles" : "grid");
    }
    ck_assert_int_eq(seen, 31);
    json_decref(j);
    ap_resp_free(&r);

    ck_assert_int_eq(ap_http(ap_demo_srv, "GET", "/v1/maps/islands", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    j = ap_resp_json(&r);
    ck_assert_str_eq(json_string_value(json_object_get(j, "id")), "islands");
    ck_assert_int_eq(json_integer_value(json_object_get(j, "width")), 40);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "height")), 20);
    /* Two 14 x 16 islands, one with a 2 x 4 clump of trees. */
    ck_assert_int_eq(json_integer_value(json_object_get(j, "passable_cells")), 2 * 14 * 16 - 8);
    json_t *t = json_array_get(json_object_get(j, "tables"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(t, "name")), "region");
    ck_assert_int_eq(json_integer_value(json_object_get(t, "regions")), 2);
    ck_assert(json_integer_value(json_object_get(t, "bytes")) > 0);
    json_decref(j);
    ap_resp_free(&r);
}
END_TEST

START_TEST(health_and_readiness)
{
    ap_resp r;
    ck_assert_int_eq(ap_http(ap_demo_srv, "GET", "/healthz", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_http(ap_demo_srv, "GET", "/readyz", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ap_resp_free(&r);
}
END_TEST

START_TEST(request_id_echoed_or_generated)
{
    ap_resp r;
    const char *h[] = {"X-Request-ID: client-abc-123", NULL};
    ck_assert_int_eq(ap_http(ap_demo_srv, "GET", "/healthz", NULL, 0, h, &r), 0);
    ck_assert_str_eq(r.request_id, "client-abc-123");
    ap_resp_free(&r);
    ck_assert_int_eq(ap_http(ap_demo_srv, "GET", "/healthz", NULL, 0, NULL, &r), 0);
    ck_assert_uint_gt(strlen(r.request_id), 0);
    char first[160];
    strcpy(first, r.request_id);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_http(ap_demo_srv, "GET", "/healthz", NULL, 0, NULL, &r), 0);
    ck_assert_str_ne(r.request_id, first);
    ap_resp_free(&r);
    /* An id with a space is not accepted as is: the server makes its own. */
    const char *bad[] = {"X-Request-ID: has space", NULL};
    ck_assert_int_eq(ap_http(ap_demo_srv, "GET", "/healthz", NULL, 0, bad, &r), 0);
    ck_assert_str_ne(r.request_id, "has space");
    ck_assert_uint_gt(strlen(r.request_id), 0);
    ap_resp_free(&r);
}
END_TEST

static double metric_now(const char *name, const char *labels)
{
    return ap_metric_now(ap_demo_srv, name, labels);
}

START_TEST(metrics_counters_increase)
{
    const char *lbl = "route=\"/v1/path\",code=\"200\"";
    double before = metric_now("arcpath_requests_total", lbl);
    double exp_before = metric_now("arcpath_search_expanded_nodes_total", "");
    double bad_before = metric_now("arcpath_requests_total", "route=\"/v1/path\",code=\"400\"");
    double ok_before = metric_now("arcpath_path_answers_total", "outcome=\"ok\"");
    ap_resp r;
    json_t *j = post_ok(ap_demo_srv, "{\"map\":\"maze\",\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":93.5,\"y\":93.5}}", &r);
    long long expanded = json_integer_value(json_object_get(json_object_get(j, "stats"), "expanded"));
    json_decref(j);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_post(ap_demo_srv, "/v1/path", "{", &r), 0);
    ck_assert_int_eq(r.status, 400);
    ap_resp_free(&r);
    ck_assert_double_eq(metric_now("arcpath_requests_total", lbl), (before < 0 ? 0 : before) + 1);
    ck_assert_double_eq(metric_now("arcpath_requests_total", "route=\"/v1/path\",code=\"400\""),
                        (bad_before < 0 ? 0 : bad_before) + 1);
    ck_assert_double_eq(metric_now("arcpath_search_expanded_nodes_total", ""), exp_before + (double)expanded);
    /* one answer (the 400 is an error, not an answer) */
    ck_assert_double_eq(metric_now("arcpath_path_answers_total", "outcome=\"ok\""), ok_before + 1);
    ck_assert_double_eq(metric_now("arcpath_maps_loaded", ""), 5); /* four grids and the forest of circles */
    ck_assert(metric_now("arcpath_request_duration_seconds_count", "route=\"/v1/path\"") >= 2);
    ck_assert(metric_now("arcpath_build_info", "version=\"0.1.0\"") == 1);
}
END_TEST

START_TEST(curve_endpoint)
{
    /* The U-turn (0,0,0) -> (0,0,pi) with r = 1: Dubins needs RLR of 7pi/3; with reversing it is pi. */
    ap_resp r;
    json_t *j = NULL;
    ck_assert_int_eq(ap_post(ap_demo_srv, "/v1/curve",
                             "{\"start\":{\"x\":0,\"y\":0,\"heading\":0},\"goal\":{\"x\":0,\"y\":0,\"heading\":3.141592653589793},"
                             "\"turning_radius\":1,\"model\":\"dubins\"}",
                             &r),
                     0);
    ck_assert_msg(r.status == 200, "HTTP %ld: %s", r.status, r.body);
    j = ap_resp_json(&r);
    ck_assert_double_eq_tol(ap_jnum(j, "length"), 7 * M_PI / 3, 1e-9);
    ck_assert_str_eq(json_string_value(json_object_get(j, "word")), "RLR");
    ap_check_segments(j, 0, 0, 0, 0, 1);
    json_decref(j);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_post(ap_demo_srv, "/v1/curve",
                             "{\"start\":{\"x\":0,\"y\":0,\"heading\":0},\"goal\":{\"x\":0,\"y\":0,\"heading\":3.141592653589793},"
                             "\"turning_radius\":1,\"model\":\"reeds_shepp\"}",
                             &r),
                     0);
    ck_assert_int_eq(r.status, 200);
    j = ap_resp_json(&r);
    ck_assert_double_eq_tol(ap_jnum(j, "length"), M_PI, 1e-9);
    int reverse = 0;
    json_t *segs = json_object_get(j, "segments");
    for (size_t i = 0; i < json_array_size(segs); i++)
        reverse += json_is_true(json_object_get(json_array_get(segs, i), "reverse"));
    ck_assert_int_gt(reverse, 0);
    json_decref(j);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_post(ap_demo_srv, "/v1/curve",
                             "{\"start\":{\"x\":0,\"y\":0,\"heading\":0},\"goal\":{\"x\":3,\"y\":4},"
                             "\"turning_radius\":1,\"model\":\"spline\"}",
                             &r),
                     0);
    ck_assert_int_eq(r.status, 400);
    j = ap_resp_json(&r);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "field")), "model");
    json_decref(j);
    ap_resp_free(&r);
}
END_TEST

START_TEST(directional_path_guarantees)
{
    /* A turning unit with a goal heading across the arena: Directional24 must end at the goal pose with arcs of
     * exactly the turning radius, continuous headings, and `clear` true. */
    ap_resp r;
    json_t *j = post_ok(ap_demo_srv,
                        "{\"map\":\"arena\",\"start\":{\"x\":3.5,\"y\":3.5,\"heading\":0},"
                        "\"goal\":{\"x\":40.5,\"y\":30.5,\"heading\":1.5707963267948966},"
                        "\"unit\":{\"radius\":0.4,\"turning_radius\":2},\"search\":{\"algorithm\":\"directional24\"}}",
                        &r);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert(json_is_true(json_object_get(j, "clear")));
    ap_check_segments(j, 3.5, 3.5, 40.5, 30.5, 2);
    json_t *segs = json_object_get(j, "segments");
    json_t *last = json_array_get(segs, json_array_size(segs) - 1);
    double h = strcmp(json_string_value(json_object_get(last, "type")), "arc") == 0
                   ? ap_jnum(last, "start_heading") + ap_jnum(last, "sweep")
                   : ap_jnum(last, "heading");
    ck_assert_double_eq_tol(remainder(h - M_PI / 2, 2 * M_PI), 0.0, 1e-9);
    for (size_t i = 0; i < json_array_size(segs); i++) {
        json_t *sg = json_array_get(segs, i);
        if (strcmp(json_string_value(json_object_get(sg, "type")), "arc") == 0)
            ck_assert(ap_jnum(sg, "radius") >= 2 - 1e-9);
    }
    json_decref(j);
    ap_resp_free(&r);
}
END_TEST

/* The turning radius's floor (limits.h AP_MIN_TURNING_RADIUS, 0.001 tiles): at the floor the legal-turn
 * searches answer a legal path (every line's heading its direction, headings continuous, ending at the goal
 * pose); below it 400 on unit.turning_radius. Before the floor, 1e-12 answered ok and clear with a line whose
 * stated heading was 0.44 rad off its direction, and 1e-200 joined two points by no segment at all. */
START_TEST(turning_radius_floor)
{
    static const char *const algs[] = {"directional24", "hybrid", "auto"};
    for (int i = 0; i < 3; i++) {
        char body[400];
        snprintf(body, sizeof body,
                 "{\"map\":\"arena\",\"start\":{\"x\":5.5,\"y\":5.5,\"heading\":0},"
                 "\"goal\":{\"x\":20.5,\"y\":12.5,\"heading\":1.0},\"unit\":{\"turning_radius\":0.001},"
                 "\"search\":{\"algorithm\":\"%s\"}}",
                 algs[i]);
        ap_resp r;
        json_t *j = post_ok(ap_demo_srv, body, &r);
        ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
        ck_assert(json_is_true(json_object_get(j, "clear")));
        ap_check_segments(j, 5.5, 5.5, 20.5, 12.5, 0.001);
        json_t *segs = json_object_get(j, "segments");
        json_t *last = json_array_get(segs, json_array_size(segs) - 1);
        const double h = strcmp(json_string_value(json_object_get(last, "type")), "arc") == 0
                             ? ap_jnum(last, "start_heading") + ap_jnum(last, "sweep")
                             : ap_jnum(last, "heading");
        ck_assert_double_eq_tol(remainder(h - 1.0, 2 * M_PI), 0.0, 1e-9);
        json_decref(j);
        ap_resp_free(&r);
    }
    static const char *const below[] = {"0.000999", "1e-12", "1e-200", "5e-324"};
    for (int i = 0; i < 4; i++) {
        char body[400];
        snprintf(body, sizeof body,
                 "{\"map\":\"arena\",\"start\":{\"x\":5.5,\"y\":5.5,\"heading\":0},"
                 "\"goal\":{\"x\":20.5,\"y\":12.5,\"heading\":1.0},\"unit\":{\"turning_radius\":%s},"
                 "\"search\":{\"algorithm\":\"directional24\"}}",
                 below[i]);
        ap_resp r;
        ck_assert_int_eq(ap_http(ap_demo_srv, "POST", "/v1/path", body, strlen(body), NULL, &r), 0);
        ck_assert_msg(r.status == 400, "turning_radius %s: HTTP %ld", below[i], r.status);
        json_t *j = ap_resp_json(&r);
        json_t *e = json_object_get(j, "error");
        ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "invalid_request");
        ck_assert_str_eq(json_string_value(json_object_get(e, "field")), "unit.turning_radius");
        json_decref(j);
        ap_resp_free(&r);
    }
}
END_TEST

/* Maps with optimal lengths checked over HTTP (jps_plus): a spread of buckets, smoothing off (length ==
 * grid_cost), and the same query smoothed (never longer, and clear for a point unit), los then taut (never
 * longer than los, never shorter than the straight line); then auto (a point unit: the exact any-angle path
 * where the map has the point graph, never longer than taut's; else jps_plus with los, los's length). */
static const char *const mai_maps[] = {"den520d", "arena2", "Berlin_0_256", "maze512-32-0", "random512-10-0",
                                       "AR0011SR", "8room_000", "Paris_1_1024"};

START_TEST(movingai_optimal_over_http)
{
    if (!ap_mai_srv) {
        ap_test_skip_no_data("movingai_optimal_over_http");
        return;
    }
    const char *map = mai_maps[_i];
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.map.scen", ap_mai_dir, map);
    ap_test_scen *sc = NULL;
    size_t n = 0;
    ck_assert_int_eq(ap_test_load_scen(path, &sc, &n), 0);
    ck_assert_uint_gt(n, 50);
    for (int k = 0; k < 6; k++) {
        const ap_test_scen *s = &sc[(n - 1) * (size_t)k / 5];
        char body[512];
        static const char *const smoothing[] = {"none", "los", "taut"};
        double los_len = 0.0, taut_len = 0.0;
        for (int smooth = 0; smooth < 3; smooth++) {
            snprintf(body, sizeof body,
                     "{\"map\":\"%s\",\"start\":{\"x\":%d.5,\"y\":%d.5},\"goal\":{\"x\":%d.5,\"y\":%d.5},"
                     "\"search\":{\"algorithm\":\"jps_plus\",\"smoothing\":\"%s\"},\"deadline_ms\":30000}",
                     map, s->sx, s->sy, s->gx, s->gy, smoothing[smooth]);
            ap_resp r;
            json_t *j = post_ok(ap_mai_srv, body, &r);
            ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
            double cost = ap_jnum(j, "grid_cost");
            ck_assert_msg(fabs(cost - s->optimal) <= ap_test_tolerance(s), "%s line %d: cost %.10f, optimal %.10f", map,
                          s->line, cost, s->optimal);
            if (!smooth)
                ck_assert_double_eq_tol(ap_jnum(j, "length"), cost, 1e-9 * (1 + cost));
            else
                ck_assert(ap_jnum(j, "length") <= cost + 1e-9 * (1 + cost));
            if (smooth == 1)
                los_len = ap_jnum(j, "length");
            if (smooth == 2) {
                taut_len = ap_jnum(j, "length");
                ck_assert_msg(ap_jnum(j, "length") <= los_len + 1e-9 * (1 + cost), "%s line %d: taut %.9f > los %.9f",
                              map, s->line, ap_jnum(j, "length"), los_len);
                ck_assert(ap_jnum(j, "length") >= hypot(s->gx - s->sx, s->gy - s->sy) - 1e-9);
            }
            ck_assert(json_is_true(json_object_get(j, "clear")));
            ap_check_segments(j, s->sx + 0.5, s->sy + 0.5, s->gx + 0.5, s->gy + 0.5, 0);
            json_decref(j);
            ap_resp_free(&r);
        }
        snprintf(body, sizeof body,
                 "{\"map\":\"%s\",\"start\":{\"x\":%d.5,\"y\":%d.5},\"goal\":{\"x\":%d.5,\"y\":%d.5},"
                 "\"deadline_ms\":30000}",
                 map, s->sx, s->sy, s->gx, s->gy);
        ap_resp r;
        json_t *j = post_ok(ap_mai_srv, body, &r);
        ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
        const double len = ap_jnum(j, "length");
        ck_assert_msg(len <= los_len + 1e-9 * (1 + len), "%s line %d: auto %.9f > los %.9f", map, s->line, len, los_len);
        if (len < los_len - 1e-6) /* any_angle's: the exact optimum, never above taut's */
            ck_assert_msg(len <= taut_len + 1e-9 * (1 + len), "%s line %d: auto %.9f > taut %.9f", map, s->line, len,
                          taut_len);
        ck_assert(len >= hypot(s->gx - s->sx, s->gy - s->sy) - 1e-9);
        ck_assert(json_is_true(json_object_get(j, "clear")));
        ap_check_segments(j, s->sx + 0.5, s->sy + 0.5, s->gx + 0.5, s->gy + 0.5, 0);
        json_decref(j);
        ap_resp_free(&r);
    }
    free(sc);
}
END_TEST

/* A turning unit across the whole of Paris_1_1024 (start and goal ~1,000 tiles apart, far beyond the
 * directional window): answered ok by auto and by directional24, legal (arcs >= the turning radius, G1,
 * clear), ending at the goal pose. Before corridors this was 400 "too far apart". */
START_TEST(long_range_turning_over_http)
{
    if (!ap_mai_srv) {
        ap_test_skip_no_data("long_range_turning_over_http");
        return;
    }
    static const char *const algs[] = {"auto", "directional24"};
    for (int i = 0; i < 2; i++) {
        char body[512];
        snprintf(body, sizeof body,
                 "{\"map\":\"Paris_1_1024\",\"start\":{\"x\":987.5,\"y\":106.5},"
                 "\"goal\":{\"x\":332.5,\"y\":1010.5%s},\"unit\":{\"radius\":0.4,\"turning_radius\":2},"
                 "\"search\":{\"algorithm\":\"%s\"},\"deadline_ms\":30000}",
                 i == 1 ? ",\"heading\":1.5707963267948966" : "", algs[i]);
        ap_resp r;
        json_t *j = post_ok(ap_mai_srv, body, &r);
        ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
        ck_assert(json_is_true(json_object_get(j, "clear")));
        ap_check_segments(j, 987.5, 106.5, 332.5, 1010.5, 2);
        ck_assert_double_ge(ap_jnum(j, "length"), hypot(987 - 332, 1010 - 106));
        json_decref(j);
        ap_resp_free(&r);
    }
}
END_TEST

Suite *api_suite(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("demo");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, demo_grid_path_without_smoothing);
    tcase_add_test(tc, demo_curved_path_with_samples);
    tcase_add_test(tc, demo_no_path_between_islands);
    tcase_add_test(tc, maps_listing_and_info);
    tcase_add_test(tc, health_and_readiness);
    tcase_add_test(tc, request_id_echoed_or_generated);
    tcase_add_test(tc, metrics_counters_increase);
    tcase_add_test(tc, curve_endpoint);
    tcase_add_test(tc, directional_path_guarantees);
    tcase_add_test(tc, turning_radius_floor);
    suite_add_tcase(s, tc);
    TCase *mai = tcase_create("movingai");
    tcase_set_timeout(mai, 120);
    tcase_add_loop_test(mai, movingai_optimal_over_http, 0, (int)(sizeof mai_maps / sizeof *mai_maps));
    tcase_add_test(mai, long_range_turning_over_http);
    suite_add_tcase(s, mai);
    return s;
}
