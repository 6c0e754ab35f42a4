/* test_units.c — units of every terrain and shape end to end: unit kinds from the config (GET /v1/info
 * lists them; "unit": {"kind"} with per-request fields overriding the kind's), unit.capability (boats on
 * water, tanks on ground, proven unreachable across the water), unit.size (square units), their errors
 * (single and batch), and --check-config naming a bad kind's field. */
#include "tests/check_fast.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../util.h"
#include "harness.h"

Suite *units_suite(void);

/* Ground above, a two-row strait of water, a ground strip below. */
static const char HARBOUR[] = "type octile\nheight 6\nwidth 8\nmap\n"
                              "........\n"
                              "........\n"
                              "..@@....\n"
                              "WWWWWWWW\n"
                              "WWWWWWWW\n"
                              "........\n";
static const char CONF[] = "{\"units\": {\"tank\": {\"radius\": 0.9, \"capability\": [\"ground\"]},"
                           " \"boat\": {\"capability\": [\"water\"]}, \"crate\": {\"size\": 2}},"
                           " \"capabilities\": [[\"ground\", \"water\"]]}";

static ap_srv_dir sd;
static ap_srv srv;

static void setup(void)
{
    ck_assert_int_eq(ap_srv_start_dir(&srv, &sd, "units", "harbour", HARBOUR, CONF), 0);
}

static void teardown(void)
{
    ck_assert_int_eq(ap_srv_stop_dir(&srv, &sd), 0);
}

/* POST a /v1/path body with the given start, goal and unit object text; checks the HTTP status. */
static json_t *path(double sx, double sy, double gx, double gy, const char *unit, const char *smoothing, long want)
{
    char body[512];
    snprintf(body, sizeof body,
             "{\"map\":\"harbour\",\"start\":{\"x\":%g,\"y\":%g},\"goal\":{\"x\":%g,\"y\":%g},\"unit\":%s,"
             "\"search\":{\"smoothing\":\"%s\"}}",
             sx, sy, gx, gy, unit, smoothing);
    ap_resp r;
    ck_assert_int_eq(ap_post(&srv, "/v1/path", body, &r), 0);
    ck_assert_msg(r.status == want, "status %ld, want %ld: %s (%s)", r.status, want, r.body, body);
    json_t *j = ap_resp_json(&r);
    ap_resp_free(&r);
    ck_assert_ptr_nonnull(j);
    return j;
}

static const char *str(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

static void assert_error(json_t *j, const char *code, const char *field, const char *in_message)
{
    json_t *e = json_object_get(j, "error");
    ck_assert_str_eq(str(e, "code"), code);
    ck_assert_str_eq(str(e, "field"), field);
    ck_assert_msg(strstr(str(e, "message"), in_message) != NULL, "message: %s", str(e, "message"));
}

START_TEST(info_lists_kinds)
{
    ap_resp r;
    ck_assert_int_eq(ap_http(&srv, "GET", "/v1/info", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    json_t *j = ap_resp_json(&r);
    ap_resp_free(&r);
    json_t *u = json_object_get(j, "units");
    ck_assert_uint_eq(json_object_size(u), 3);
    json_t *tank = json_object_get(u, "tank");
    ck_assert_double_eq(json_number_value(json_object_get(tank, "radius")), 0.9);
    ck_assert_uint_eq(json_array_size(json_object_get(tank, "capability")), 1);
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(tank, "capability"), 0)), "ground");
    ck_assert_ptr_null(json_object_get(tank, "size"));
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(u, "crate"), "size")), 2);
    ck_assert_uint_eq(json_array_size(json_object_get(j, "terrains")), 4);
    json_decref(j);
}
END_TEST

START_TEST(boats_and_tanks)
{
    /* a boat along the strait: one straight line from (0.5, 3.5) to (7.5, 4.5) after smoothing */
    json_t *j = path(0.5, 3.5, 7.5, 4.5, "{\"kind\":\"boat\"}", "los", 200);
    ck_assert_str_eq(str(j, "status"), "ok");
    ck_assert_double_eq_tol(json_number_value(json_object_get(j, "grid_cost")), 6.0 + M_SQRT2, 1e-9);
    ck_assert_double_eq_tol(json_number_value(json_object_get(j, "length")), sqrt(50.0), 1e-9);
    ck_assert(json_is_true(json_object_get(j, "clear")));
    json_decref(j);
    /* a boat cannot start on ground */
    j = path(0.5, 0.5, 7.5, 4.5, "{\"kind\":\"boat\"}", "los", 422);
    assert_error(j, "start_blocked", "start", "blocked");
    json_decref(j);
    /* a tank cannot cross the water: proven unreachable */
    j = path(4.5, 0.5, 4.5, 5.5, "{\"kind\":\"tank\"}", "los", 200);
    ck_assert_str_eq(str(j, "status"), "no_path");
    ck_assert_str_eq(str(j, "reason"), "unreachable");
    json_decref(j);
    /* the request's fields win over the kind's: an amphibious point-sized tank crosses (straight down) */
    j = path(4.5, 0.5, 4.5, 5.5, "{\"kind\":\"tank\",\"radius\":0,\"capability\":[\"ground\",\"water\"]}", "none",
             200);
    ck_assert_str_eq(str(j, "status"), "ok");
    ck_assert_double_eq_tol(json_number_value(json_object_get(j, "grid_cost")), 5.0, 1e-9);
    json_decref(j);
    /* the tank's disc (radius 0.9) at the corner cell's centre crosses the map's edges: refused before
     * searching */
    j = path(0.5, 0.5, 7.5, 1.5, "{\"kind\":\"tank\"}", "none", 422);
    assert_error(j, "start_blocked", "start",
                 "\"start\": the unit's disc (radius 0.9) at (0.5, 0.5) overlaps an obstacle or the map's edge");
    json_decref(j);
}
END_TEST

START_TEST(square_units)
{
    /* the 2 x 2 crate from footprint centre (1, 1) to (7, 1): six straight steps on rows 0..1 */
    json_t *j = path(1.0, 1.0, 7.0, 1.0, "{\"kind\":\"crate\"}", "los", 200);
    ck_assert_str_eq(str(j, "status"), "ok");
    ck_assert_double_eq_tol(json_number_value(json_object_get(j, "grid_cost")), 6.0, 1e-9);
    ck_assert_double_eq_tol(json_number_value(json_object_get(j, "length")), 6.0, 1e-9);
    ck_assert(json_is_true(json_object_get(j, "clear")));
    json_decref(j);
    /* a 3 x 3 square centred at (5.5, 1.5) covers cells 4..6 x 0..2 (free); at (3.5, 1.5) the rocks */
    j = path(5.5, 1.5, 3.5, 1.5, "{\"size\":3}", "none", 422);
    assert_error(j, "goal_blocked", "goal", "3 x 3 footprint");
    json_decref(j);
    j = path(1.0, 1.0, 7.0, 1.0, "{\"size\":2,\"radius\":0.5}", "none", 400);
    assert_error(j, "invalid_request", "unit.size", "not both");
    json_decref(j);
    /* a kind's shape is replaced whole by the request's: the crate as a disc of radius 0.4 takes row 0's
     * straight line (1 wide is enough), the disc tank (radius 0.9) as a 2 x 2 square the crate's route */
    j = path(0.5, 0.5, 7.5, 0.5, "{\"kind\":\"crate\",\"radius\":0.4}", "none", 200);
    ck_assert_str_eq(str(j, "status"), "ok");
    ck_assert_double_eq_tol(json_number_value(json_object_get(j, "grid_cost")), 7.0, 1e-9);
    json_decref(j);
    j = path(1.0, 1.0, 7.0, 1.0, "{\"kind\":\"tank\",\"size\":2}", "los", 200);
    ck_assert_str_eq(str(j, "status"), "ok");
    ck_assert_double_eq_tol(json_number_value(json_object_get(j, "length")), 6.0, 1e-9);
    json_decref(j);
    j = path(1.0, 1.0, 7.0, 1.0, "{\"size\":0}", "none", 400);
    assert_error(j, "invalid_request", "unit.size", "between 1 and");
    json_decref(j);
}
END_TEST

START_TEST(errors)
{
    json_t *j = path(0.5, 0.5, 7.5, 0.5, "{\"kind\":\"zeppelin\"}", "none", 400);
    assert_error(j, "invalid_request", "unit.kind", "unknown unit kind \"zeppelin\": the config names tank, boat, crate");
    json_decref(j);
    j = path(0.5, 0.5, 7.5, 0.5, "{\"capability\":[\"ground\",\"lava\"]}", "none", 400);
    assert_error(j, "invalid_request", "unit.capability[1]", "must be one of: ground, swamp, water, trees");
    json_decref(j);
    j = path(0.5, 0.5, 7.5, 0.5, "{\"capability\":[]}", "none", 400);
    assert_error(j, "invalid_request", "unit.capability", "non-empty array");
    json_decref(j);
    j = path(0.5, 0.5, 7.5, 0.5, "{\"capability\":[\"ground\",\"ground\"]}", "none", 400);
    assert_error(j, "invalid_request", "unit.capability[1]", "twice");
    json_decref(j);
    /* a capability the config does not list has no tables */
    j = path(0.5, 3.5, 7.5, 3.5, "{\"capability\":[\"trees\",\"water\"]}", "none", 400);
    assert_error(j, "invalid_request", "unit.capability", "no tables for capability water+trees");
    json_decref(j);
    /* batch: the item naming an unknown kind is an error item, the others are answered */
    ap_resp r;
    ck_assert_int_eq(ap_post(&srv, "/v1/paths",
                             "{\"map\":\"harbour\",\"queries\":["
                             "{\"start\":{\"x\":0.5,\"y\":3.5},\"goal\":{\"x\":7.5,\"y\":3.5},\"unit\":{\"kind\":\"boat\"}},"
                             "{\"start\":{\"x\":0.5,\"y\":3.5},\"goal\":{\"x\":7.5,\"y\":3.5},\"unit\":{\"kind\":\"raft\"}}]}",
                             &r),
                     0);
    ck_assert_int_eq(r.status, 200);
    j = ap_resp_json(&r);
    ap_resp_free(&r);
    json_t *res = json_object_get(j, "results");
    ck_assert_str_eq(str(json_array_get(res, 0), "status"), "ok");
    ck_assert_double_eq_tol(json_number_value(json_object_get(json_array_get(res, 0), "length")), 7.0, 1e-9);
    ck_assert_str_eq(str(json_array_get(res, 1), "status"), "error");
    assert_error(json_array_get(res, 1), "invalid_request", "unit.kind", "unknown unit kind \"raft\"");
    json_decref(j);
}
END_TEST

/* Sized units and jump point search (planner/grid/jps_sized.h): a 9 x 9 field with one block at (4, 4). A
 * disc of radius 0.6 fits none of the four cells beside it but passes diagonally between the diagonal ones:
 * from (2, 4) to (6, 4) four diagonals, 4 sqrt 2, for astar, jps and jps_plus alike; the map info then lists
 * the unit's tables in the "jps_sized" slot (one per disc threshold, clearance.h ap_clearance_level, or square side). */
static const char PILLAR[] = "type octile\nheight 9\nwidth 9\nmap\n.........\n.........\n.........\n.........\n"
                             "....@....\n.........\n.........\n.........\n.........\n";
static ap_srv_dir psd;
static ap_srv psrv;

static void pillar_setup(void)
{
    ck_assert_int_eq(ap_srv_start_dir(&psrv, &psd, "discs", "pillar", PILLAR, "{}"), 0);
}

static void pillar_teardown(void)
{
    ck_assert_int_eq(ap_srv_stop_dir(&psrv, &psd), 0);
}

/* The "jps_sized" entry of GET /v1/maps/pillar: its thresholds count; *bytes its bytes. */
static long long pillar_thresholds(long long *bytes)
{
    ap_resp r;
    ck_assert_int_eq(ap_http(&psrv, "GET", "/v1/maps/pillar", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    json_t *j = ap_resp_json(&r);
    ap_resp_free(&r);
    json_t *tables = json_object_get(j, "tables"), *t = NULL;
    for (size_t i = 0; i < json_array_size(tables); i++)
        if (strcmp(str(json_array_get(tables, i), "name"), "jps_sized") == 0)
            t = json_array_get(tables, i);
    ck_assert_ptr_nonnull(t);
    const long long n = json_integer_value(json_object_get(t, "thresholds"));
    *bytes = json_integer_value(json_object_get(t, "bytes"));
    json_decref(j);
    return n;
}

/* POST a pillar query (start, goal and unit as JSON member text) with astar, jps and jps_plus, smoothing none:
 * each answers ok, clear, with grid cost `want`. */
static void pillar_all_algorithms(const char *members, double want)
{
    const char *algs[] = {"astar", "jps", "jps_plus"};
    for (int a = 0; a < 3; a++) {
        char body[512];
        snprintf(body, sizeof body,
                 "{\"map\":\"pillar\",%s,\"search\":{\"algorithm\":\"%s\",\"smoothing\":\"none\"}}", members,
                 algs[a]);
        json_t *j = ap_post_want(&psrv, "/v1/path", body, 200);
        ck_assert_str_eq(str(j, "status"), "ok");
        ck_assert_msg(fabs(json_number_value(json_object_get(j, "grid_cost")) - want) < 1e-9, "%s: %s", algs[a], body);
        ck_assert(json_is_true(json_object_get(j, "clear")));
        json_decref(j);
    }
}

START_TEST(discs_jump_points)
{
    long long empty_bytes, bytes;
    ck_assert_int_eq(pillar_thresholds(&empty_bytes), 0);
    pillar_all_algorithms("\"start\":{\"x\":2.5,\"y\":4.5},\"goal\":{\"x\":6.5,\"y\":4.5},\"unit\":{\"radius\":0.6}",
                          4.0 * M_SQRT2);
    ck_assert_int_eq(pillar_thresholds(&bytes), 1);
    ck_assert_int_ge(bytes, empty_bytes + 11 * 11 * 24); /* masks and distances of every padded cell */
    /* a 2 x 2 square from footprint centre (2, 2) to (7, 7) round the block: the square's anchors (top-left
     * cells) avoid (3..4, 3..4), 6 + 2 sqrt 2; its key takes a second place */
    pillar_all_algorithms("\"start\":{\"x\":2,\"y\":2},\"goal\":{\"x\":7,\"y\":7},\"unit\":{\"size\":2}",
                          6.0 + 2.0 * M_SQRT2);
    ck_assert_int_eq(pillar_thresholds(&bytes), 2);
}
END_TEST

/* A disc that does not fit at an end is refused before any search (which could only flood the map and
 * answer no_path): at (4.5, 3.5), 0.5 tiles from the block, a disc of 0.6 (sized: it does not fit every grid
 * move), for the grid searches and the legal-turn searches alike; single queries and batch items. Off the
 * cell's centre where the disc fits, at (4.5, 3.05), the grid searches start at a neighbour cell's centre
 * (the second waypoint) and answer ok. */
START_TEST(discs_that_do_not_fit_are_refused)
{
    const char *grid[] = {"astar", "jps", "jps_plus", "hierarchical", "auto"};
    for (int a = 0; a < 5; a++) {
        for (int end = 0; end < 2; end++) {
            char body[512];
            snprintf(body, sizeof body,
                     "{\"map\":\"pillar\",\"%s\":{\"x\":4.5,\"y\":3.5},\"%s\":{\"x\":1.5,\"y\":7.5},"
                     "\"unit\":{\"radius\":0.6},\"search\":{\"algorithm\":\"%s\"}}",
                     end ? "goal" : "start", end ? "start" : "goal", grid[a]);
            json_t *j = ap_post_want(&psrv, "/v1/path", body, 422);
            char want[160];
            snprintf(want, sizeof want,
                     "\"%s\": the unit's disc (radius 0.6) at (4.5, 3.5) overlaps an obstacle or the map's edge",
                     end ? "goal" : "start");
            json_t *e = json_object_get(j, "error");
            ck_assert_str_eq(str(e, "code"), end ? "goal_blocked" : "start_blocked");
            ck_assert_str_eq(str(e, "field"), end ? "goal" : "start");
            ck_assert_msg(strcmp(str(e, "message"), want) == 0, "%s: %s", grid[a], str(e, "message"));
            json_decref(j);
        }
    }
    for (int a = 0; a < 5; a++) {
        char body[512];
        snprintf(body, sizeof body,
                 "{\"map\":\"pillar\",\"start\":{\"x\":4.5,\"y\":3.05},\"goal\":{\"x\":1.5,\"y\":7.5},"
                 "\"unit\":{\"radius\":0.6},\"search\":{\"algorithm\":\"%s\",\"smoothing\":\"none\"}}", grid[a]);
        json_t *j = ap_post_want(&psrv, "/v1/path", body, 200);
        ck_assert_str_eq(str(j, "status"), "ok");
        ck_assert(json_is_true(json_object_get(j, "clear")));
        json_t *w1 = json_array_get(json_object_get(j, "waypoints"), 1);
        const double cx = json_number_value(json_array_get(w1, 0)), cy = json_number_value(json_array_get(w1, 1));
        ck_assert_msg(cx - floor(cx) == 0.5 && cy - floor(cy) == 0.5 && fabs(cx - 4.5) <= 1 && cy <= 3.5 &&
                          !(cx == 4.5 && cy == 3.5),
                      "%s: second waypoint (%g, %g)", grid[a], cx, cy);
        json_decref(j);
    }
    const char *turns[] = {"directional8", "directional24", "hybrid", "auto"};
    for (int a = 0; a < 4; a++) {
        char body[512];
        snprintf(body, sizeof body,
                 "{\"map\":\"pillar\",\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":4.5,\"y\":3.6},"
                 "\"unit\":{\"radius\":0.6,\"turning_radius\":1},\"search\":{\"algorithm\":\"%s\"}}",
                 turns[a]);
        json_t *j = ap_post_want(&psrv, "/v1/path", body, 422);
        assert_error(j, "goal_blocked", "goal",
                     "\"goal\": the unit's disc (radius 0.6) at (4.5, 3.6) overlaps an obstacle or the map's edge");
        json_decref(j);
    }
    /* in a batch: that item is an error item, the other answered */
    json_t *j = ap_post_want(&psrv, "/v1/paths",
                             "{\"map\":\"pillar\",\"queries\":["
                             "{\"start\":{\"x\":4.5,\"y\":3.5},\"goal\":{\"x\":1.5,\"y\":7.5},\"unit\":{\"radius\":0.6}},"
                             "{\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":1.5,\"y\":7.5},\"unit\":{\"radius\":0.6}}]}",
                             200);
    json_t *res = json_object_get(j, "results");
    ck_assert_str_eq(str(json_array_get(res, 0), "status"), "error");
    assert_error(json_array_get(res, 0), "start_blocked", "start", "at (4.5, 3.5) overlaps an obstacle");
    ck_assert_str_eq(str(json_array_get(res, 1), "status"), "ok");
    json_decref(j);
}
END_TEST

/* A legal-turn answer ends exactly at the goal sent, with and without art_directions (which keeps start and
 * goal bit for bit). A helper's query for demo.conf's boat on the islands: its last arc ended at
 * (1.4999999999999996, 2.4999999999999996), computed on its circle, and art kept that. */
START_TEST(turning_answers_end_at_the_goal)
{
    ap_srv s;
    const char *args[] = {"--config", "config/demo.conf", NULL};
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", args, NULL), 0);
    for (int art = 0; art < 2; art++) {
        char body[512];
        snprintf(body, sizeof body,
                 "{\"map\":\"islands\",\"start\":{\"x\":23.282436989955187,\"y\":7.8053975160718885,"
                 "\"heading\":1.9188},\"goal\":{\"x\":1.5,\"y\":2.5},\"unit\":{\"kind\":\"boat\"%s},"
                 "\"search\":{\"algorithm\":\"directional8\",\"headings\":16,\"turn_penalty\":1.46,"
                 "\"smoothing\":\"los\"}}",
                 art ? ",\"art_directions\":8" : "");
        json_t *j = ap_post_want(&s, "/v1/path", body, 200);
        ck_assert_str_eq(str(j, "status"), "ok");
        json_t *segs = json_object_get(j, "segments");
        json_t *end = json_object_get(json_array_get(segs, json_array_size(segs) - 1), "end");
        ck_assert(json_real_value(json_array_get(end, 0)) == 1.5);
        ck_assert(json_real_value(json_array_get(end, 1)) == 2.5);
        json_decref(j);
    }
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

/* A unit kind on a circle map: its capability (terrains, for grid maps) is left out and the rest applies, so
 * demo.conf's tank is planned on the forest as a disc of 0.9 with its turning radius and limits, the same
 * answer as those fields spelled out (before: 400 on "unit.capability", a field the request never sent); a
 * kind's square is refused on unit.kind; a capability the request itself gives is still refused. The batch
 * route the same. */
START_TEST(kinds_on_circle_maps)
{
    ap_srv s;
    const char *args[] = {"--config", "config/demo.conf", NULL};
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", args, NULL), 0);
    static const char *const units[] = {
        "{\"kind\":\"tank\"}",
        "{\"radius\":0.9,\"turning_radius\":1.5,\"max_speed\":10,\"max_accel\":1.5,\"max_brake\":3,"
        "\"max_lateral_accel\":4,\"max_reverse_speed\":10,\"max_turn_rate\":0.8}",
    };
    char body[512];
    double len[2], dur[2];
    for (int i = 0; i < 2; i++) {
        snprintf(body, sizeof body,
                 "{\"map\":\"forest\",\"start\":{\"x\":1,\"y\":12},\"goal\":{\"x\":38,\"y\":22},\"unit\":%s}",
                 units[i]);
        json_t *j = ap_post_want(&s, "/v1/path", body, 200);
        ck_assert_str_eq(str(j, "status"), "ok");
        len[i] = json_real_value(json_object_get(j, "length"));
        dur[i] = json_real_value(json_object_get(j, "duration_s"));
        json_decref(j);
    }
    ck_assert(len[0] == len[1] && dur[0] == dur[1]);
    ck_assert(len[0] > 37.0 && dur[0] > 0.0); /* around the trees, timed */
    json_t *j = ap_post_want(&s, "/v1/paths",
                             "{\"map\":\"forest\",\"queries\":[{\"start\":{\"x\":1,\"y\":12},\"goal\":{\"x\":38,"
                             "\"y\":22},\"unit\":{\"kind\":\"tank\"}},{\"start\":{\"x\":1,\"y\":12},\"goal\":{\"x\":38,"
                             "\"y\":22},\"unit\":{\"kind\":\"crate\"}}]}",
                             200);
    json_t *res = json_object_get(j, "results");
    ck_assert_str_eq(str(json_array_get(res, 0), "status"), "ok");
    ck_assert(json_real_value(json_object_get(json_array_get(res, 0), "length")) == len[0]);
    json_t *e = json_object_get(json_array_get(res, 1), "error");
    ck_assert_str_eq(str(e, "field"), "unit.kind");
    json_decref(j);
    j = ap_post_want(&s, "/v1/path",
                     "{\"map\":\"forest\",\"start\":{\"x\":1,\"y\":12},\"goal\":{\"x\":38,\"y\":22},"
                     "\"unit\":{\"kind\":\"crate\"}}",
                     400);
    e = json_object_get(j, "error");
    ck_assert_str_eq(str(e, "code"), "invalid_request");
    ck_assert_str_eq(str(e, "field"), "unit.kind");
    ck_assert_str_eq(str(e, "message"),
                     "unit kind \"crate\" is a square of 2 x 2 tiles, and square units move on grid cells: a circle "
                     "map takes discs (unit.radius)");
    json_decref(j);
    j = ap_post_want(&s, "/v1/path",
                     "{\"map\":\"forest\",\"start\":{\"x\":1,\"y\":12},\"goal\":{\"x\":38,\"y\":22},"
                     "\"unit\":{\"kind\":\"tank\",\"capability\":[\"ground\"]}}",
                     400);
    ck_assert_str_eq(str(json_object_get(j, "error"), "field"), "unit.capability");
    json_decref(j);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

Suite *units_suite(void)
{
    Suite *s = suite_create("units");
    TCase *tc = tcase_create("units");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, info_lists_kinds);
    tcase_add_test(tc, boats_and_tanks);
    tcase_add_test(tc, square_units);
    tcase_add_test(tc, errors);
    suite_add_tcase(s, tc);
    TCase *disc = tcase_create("discs");
    tcase_add_checked_fixture(disc, pillar_setup, pillar_teardown);
    tcase_set_timeout(disc, 60);
    tcase_add_test(disc, discs_jump_points);
    tcase_add_test(disc, discs_that_do_not_fit_are_refused);
    suite_add_tcase(s, disc);
    TCase *ends = tcase_create("ends");
    tcase_set_timeout(ends, 60);
    tcase_add_test(ends, turning_answers_end_at_the_goal);
    tcase_add_test(ends, kinds_on_circle_maps);
    suite_add_tcase(s, ends);
    return s;
}
