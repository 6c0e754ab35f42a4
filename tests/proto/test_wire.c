/* test_wire.c — POST /v1/path parsing (defaults, exact values, every invalid field by its dotted path,
 * invalid JSON positions) and response encoding (exact fields, bit-exact numbers, error bodies). */
#include "tests/check_fast.h"
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/plan/algorithms.h"
#include "planner/plan/unit_kind.h"
#include "proto/wire.h"
#include "tests/proto/suites.h"
#include "tests/util.h"

static int parse(const char *body, ap_path_request *req, ap_wire_error *err)
{
    return ap_wire_parse_path_request(body, strlen(body), req, err);
}

/* ---------------------------------------------------------------------------------------------------------
 * Parsing */

#define BASE "\"map\":\"den520d\",\"start\":{\"x\":1.5,\"y\":2.5},\"goal\":{\"x\":3.5,\"y\":4.5}"

START_TEST(minimal_request_gets_defaults)
{
    ap_path_request r;
    ap_wire_error e;
    ck_assert_int_eq(parse("{" BASE "}", &r, &e), AP_OK);
    ck_assert_int_eq(e.status, AP_OK);
    ck_assert_str_eq(r.map, "den520d");
    ck_assert_ptr_null(r.q.map);
    ck_assert(r.q.sx == 1.5 && r.q.sy == 2.5 && r.q.gx == 3.5 && r.q.gy == 4.5);
    ck_assert(!r.q.has_sheading);
    ck_assert(r.q.unit_radius == 0.0);
    ck_assert(r.q.turning_radius == 0.0);
    ck_assert_int_eq(r.q.algorithm, AP_ALG_AUTO);
    ck_assert_int_eq(r.q.connectivity, 8);
    ck_assert_int_eq(r.q.smoothing, AP_SMOOTH_LOS);
    ck_assert(r.q.sample_step == 0.0);
    ck_assert_uint_eq(r.q.max_samples, 0);
    ck_assert_int_eq(r.deadline_ms, -1);
}
END_TEST

START_TEST(full_request_round_trips_exact_values)
{
    const char *body = "{\"map\": \"den520d\",\n"
                       " \"start\": {\"x\": 12.5, \"y\": 30.123456789012345, \"heading\": 0.78539816339744828},\n"
                       " \"goal\": {\"x\": 100.5, \"y\": 1e-3},\n"
                       " \"unit\": {\"radius\": 0.35, \"turning_radius\": 2.5},\n"
                       " \"search\": {\"algorithm\": \"astar\", \"connectivity\": 4, \"smoothing\": \"none\"},\n"
                       " \"deadline_ms\": 200,\n"
                       " \"samples\": {\"step\": 0.1}}";
    ap_path_request r;
    ap_wire_error e;
    ck_assert_int_eq(parse(body, &r, &e), AP_OK);
    ck_assert_str_eq(r.map, "den520d");
    ck_assert(r.q.sx == 12.5);
    ck_assert(r.q.sy == 30.123456789012345);
    ck_assert(r.q.has_sheading);
    ck_assert(r.q.sheading == 0.78539816339744828);
    ck_assert(r.q.gx == 100.5);
    ck_assert(r.q.gy == 1e-3);
    ck_assert(r.q.unit_radius == 0.35);
    ck_assert(r.q.turning_radius == 2.5);
    ck_assert_int_eq(r.q.algorithm, AP_ALG_ASTAR);
    ck_assert_int_eq(r.q.connectivity, 4);
    ck_assert_int_eq(r.q.smoothing, AP_SMOOTH_NONE);
    ck_assert_int_eq(r.deadline_ms, 200);
    ck_assert(r.q.sample_step == 0.1);
}
END_TEST

START_TEST(integers_accepted_for_reals_and_bounds_inclusive)
{
    char body[512];
    ap_path_request r;
    ap_wire_error e;
    snprintf(body, sizeof body,
             "{\"map\":\"%s\",\"start\":{\"x\":12,\"y\":-3,\"heading\":-7},\"goal\":{\"x\":0,\"y\":1e2},"
             "\"unit\":{\"radius\":16,\"turning_radius\":64},\"search\":{\"connectivity\":8,"
             "\"smoothing\":\"los\"},\"deadline_ms\":600000,\"samples\":{\"step\":0.01}}",
             "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij123" /* 63 bytes */);
    ck_assert_int_eq(parse(body, &r, &e), AP_OK);
    ck_assert_uint_eq(strlen(r.map), 63);
    ck_assert(r.q.sx == 12.0 && r.q.sy == -3.0 && r.q.sheading == -7.0 && r.q.gy == 100.0);
    ck_assert(r.q.unit_radius == 16.0 && r.q.turning_radius == 64.0);
    ck_assert_int_eq(r.deadline_ms, 600000);
    ck_assert(r.q.sample_step == 0.01);

    ck_assert_int_eq(parse("{" BASE ",\"deadline_ms\":1,\"unit\":{\"radius\":0,\"turning_radius\":0}}", &r, &e),
                     AP_OK);
    ck_assert_int_eq(r.deadline_ms, 1);
    /* and integral reals for integers (JSON Schema's "integer": a Python client's 0.2 * 1000 is 200.0) */
    ck_assert_int_eq(parse("{" BASE ",\"deadline_ms\":200.0,\"search\":{\"connectivity\":4e0}}", &r, &e), AP_OK);
    ck_assert_int_eq(r.deadline_ms, 200);
    ck_assert_int_eq(r.q.connectivity, 4);
}
END_TEST

START_TEST(body_need_not_be_nul_terminated)
{
    const char *s = "{" BASE "}garbage";
    ap_path_request r;
    ap_wire_error e;
    ck_assert_int_eq(ap_wire_parse_path_request(s, strlen(s) - strlen("garbage"), &r, &e), AP_OK);
    ck_assert_int_eq(ap_wire_parse_path_request(s, strlen(s), &r, &e), AP_E_INVALID_JSON);
}
END_TEST

static const struct {
    const char *body;
    const char *field;
} invalid[] = {
    /* not an object */
    {"[]", ""},
    {"[{\"map\":\"m\"}]", ""},
    {"42", ""},
    {"\"den520d\"", ""},
    {"null", ""},
    {"true", ""},
    /* map */
    {"{\"start\":{\"x\":1,\"y\":2},\"goal\":{\"x\":3,\"y\":4}}", "map"},
    {"{\"map\":5,\"start\":{\"x\":1,\"y\":2},\"goal\":{\"x\":3,\"y\":4}}", "map"},
    {"{\"map\":null,\"start\":{\"x\":1,\"y\":2},\"goal\":{\"x\":3,\"y\":4}}", "map"},
    {"{\"map\":\"\",\"start\":{\"x\":1,\"y\":2},\"goal\":{\"x\":3,\"y\":4}}", "map"},
    {"{\"map\":\"abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij1234\","
     "\"start\":{\"x\":1,\"y\":2},\"goal\":{\"x\":3,\"y\":4}}",
     "map"},
    {"{\"map\":[\"m\"],\"start\":{\"x\":1,\"y\":2},\"goal\":{\"x\":3,\"y\":4}}", "map"},
    /* start */
    {"{\"map\":\"m\",\"goal\":{\"x\":3,\"y\":4}}", "start"},
    {"{\"map\":\"m\",\"start\":[1,2],\"goal\":{\"x\":3,\"y\":4}}", "start"},
    {"{\"map\":\"m\",\"start\":null,\"goal\":{\"x\":3,\"y\":4}}", "start"},
    {"{\"map\":\"m\",\"start\":{},\"goal\":{\"x\":3,\"y\":4}}", "start.x"},
    {"{\"map\":\"m\",\"start\":{\"x\":1},\"goal\":{\"x\":3,\"y\":4}}", "start.y"},
    {"{\"map\":\"m\",\"start\":{\"x\":\"1\",\"y\":2},\"goal\":{\"x\":3,\"y\":4}}", "start.x"},
    {"{\"map\":\"m\",\"start\":{\"x\":true,\"y\":2},\"goal\":{\"x\":3,\"y\":4}}", "start.x"},
    {"{\"map\":\"m\",\"start\":{\"x\":1,\"y\":null},\"goal\":{\"x\":3,\"y\":4}}", "start.y"},
    {"{\"map\":\"m\",\"start\":{\"x\":1,\"y\":2,\"heading\":\"east\"},\"goal\":{\"x\":3,\"y\":4}}",
     "start.heading"},
    {"{\"map\":\"m\",\"start\":{\"x\":1,\"y\":2,\"z\":0},\"goal\":{\"x\":3,\"y\":4}}", "start.z"},
    /* goal */
    {"{\"map\":\"m\",\"start\":{\"x\":1,\"y\":2}}", "goal"},
    {"{\"map\":\"m\",\"start\":{\"x\":1,\"y\":2},\"goal\":\"here\"}", "goal"},
    {"{\"map\":\"m\",\"start\":{\"x\":1,\"y\":2},\"goal\":{\"y\":4}}", "goal.x"},
    {"{\"map\":\"m\",\"start\":{\"x\":1,\"y\":2},\"goal\":{\"x\":3}}", "goal.y"},
    {"{\"map\":\"m\",\"start\":{\"x\":1,\"y\":2},\"goal\":{\"x\":3,\"y\":{}}}", "goal.y"},
    /* goal.heading is accepted since the directional searches (it must still be a number). */
    {"{\"map\":\"m\",\"start\":{\"x\":1,\"y\":2},\"goal\":{\"x\":3,\"y\":4,\"heading\":\"n\"}}", "goal.heading"},
    {"{\"map\":\"m\",\"start\":{\"x\":1,\"y\":2},\"goal\":{\"x\":3,\"y\":4},\"unit\":{\"reverse\":1}}", "unit.reverse"},
    /* unit */
    {"{" BASE ",\"unit\":1}", "unit"},
    {"{" BASE ",\"unit\":{\"radius\":\"big\"}}", "unit.radius"},
    {"{" BASE ",\"unit\":{\"mass\":3}}", "unit.mass"},
    /* search */
    {"{" BASE ",\"search\":\"astar\"}", "search"},
    {"{" BASE ",\"search\":{\"algorithm\":\"dijkstra\"}}", "search.algorithm"},
    {"{" BASE ",\"search\":{\"algorithm\":\"ASTAR\"}}", "search.algorithm"},
    {"{" BASE ",\"search\":{\"algorithm\":1}}", "search.algorithm"},
    {"{" BASE ",\"search\":{\"connectivity\":8.5}}", "search.connectivity"},
    {"{" BASE ",\"search\":{\"headings\":8.5}}", "search.headings"},
    {"{" BASE ",\"search\":{\"turn_penalty\":\"1\"}}", "search.turn_penalty"},
    {"{" BASE ",\"unit\":{\"art_directions\":\"8\"}}", "unit.art_directions"},
    {"{" BASE ",\"unit\":{\"reverse_penalty\":[2]}}", "unit.reverse_penalty"},
    {"{" BASE ",\"search\":{\"connectivity\":\"8\"}}", "search.connectivity"},
    {"{" BASE ",\"search\":{\"smoothing\":\"spline\"}}", "search.smoothing"},
    {"{" BASE ",\"search\":{\"smoothing\":false}}", "search.smoothing"},
    {"{" BASE ",\"search\":{\"foo\":1}}", "search.foo"},
    {"{" BASE ",\"search\":{\"algorithm\":\"kinodynamic\",\"probe\":1}}", "search.probe"},
    {"{" BASE ",\"search\":{\"algorithm\":\"kinodynamic\",\"probe\":\"true\"}}", "search.probe"},
    {"{" BASE ",\"search\":{\"algorithm\":\"kinodynamic\",\"weight\":\"1.5\"}}", "search.weight"},
    /* deadline_ms */
    {"{" BASE ",\"deadline_ms\":0}", "deadline_ms"},
    {"{" BASE ",\"deadline_ms\":-1}", "deadline_ms"},
    {"{" BASE ",\"deadline_ms\":600001}", "deadline_ms"},
    {"{" BASE ",\"deadline_ms\":1.5}", "deadline_ms"},
    {"{" BASE ",\"deadline_ms\":200.5}", "deadline_ms"},
    {"{" BASE ",\"deadline_ms\":\"200\"}", "deadline_ms"},
    /* samples */
    {"{" BASE ",\"samples\":0.5}", "samples"},
    {"{" BASE ",\"samples\":{}}", "samples.step"},
    {"{" BASE ",\"samples\":{\"step\":\"0.5\"}}", "samples.step"},
    {"{" BASE ",\"samples\":{\"step\":0.5,\"count\":3}}", "samples.count"},
    {"{" BASE ",\"samples\":{\"dt\":\"0.5\"}}", "samples.dt"},
    {"{" BASE ",\"samples\":{\"dt\":0.5,\"step\":true}}", "samples.step"},
    /* unknown top level; unknown keys are reported before anything else in their object */
    {"{" BASE ",\"foo\":1}", "foo"},
    {"{\"Map\":\"m\"}", "Map"},
    {"{\"map\":5,\"bogus\":1}", "bogus"},
};

START_TEST(invalid_field_is_named)
{
    ap_path_request r;
    ap_wire_error e;
    int rc = parse(invalid[_i].body, &r, &e);
    ck_assert_msg(rc == AP_E_INVALID_REQUEST, "%s: status %d (%s)", invalid[_i].body, rc, e.message);
    ck_assert_int_eq(e.status, AP_E_INVALID_REQUEST);
    ck_assert_msg(strcmp(e.field, invalid[_i].field) == 0, "%s: field \"%s\", want \"%s\"", invalid[_i].body,
                  e.field, invalid[_i].field);
    ck_assert_int_gt(strlen(e.message), 0);
    if (invalid[_i].field[0] != '\0')
        ck_assert_msg(strstr(e.message, invalid[_i].field) != NULL, "message \"%s\" does not name %s", e.message,
                      invalid[_i].field);
    ck_assert_int_eq(e.line, 0);
    ck_assert_int_eq(e.col, 0);
}
END_TEST

/* Ranges are the planner's (ap_query_validate): the wire parses these bodies, the planner refuses them on
 * the same field, with the message the wire used to give (or one that says why). */
static const struct {
    const char *body;
    const char *field;
    const char *message;
} refused[] = {
    {"{" BASE ",\"unit\":{\"radius\":-0.1}}", "unit.radius", "\"unit.radius\" must be between 0 and 16"},
    {"{" BASE ",\"unit\":{\"radius\":16.000001}}", "unit.radius", "\"unit.radius\" must be between 0 and 16"},
    {"{" BASE ",\"unit\":{\"turning_radius\":-1}}", "unit.turning_radius",
     "\"unit.turning_radius\" must be 0 or between 0.001 and 64"},
    {"{" BASE ",\"unit\":{\"turning_radius\":1e-12}}", "unit.turning_radius",
     "\"unit.turning_radius\" must be 0 or between 0.001 and 64"},
    {"{" BASE ",\"unit\":{\"turning_radius\":64.5}}", "unit.turning_radius",
     "\"unit.turning_radius\" must be 0 or between 0.001 and 64"},
    {"{" BASE ",\"unit\":{\"reverse_penalty\":0.5}}", "unit.reverse_penalty",
     "\"unit.reverse_penalty\" must be between 1 and 100"},
    {"{" BASE ",\"unit\":{\"reverse_penalty\":0}}", "unit.reverse_penalty",
     "\"unit.reverse_penalty\" must be between 1 and 100"},
    {"{" BASE ",\"unit\":{\"art_directions\":12}}", "unit.art_directions", "\"unit.art_directions\" must be 8 or 16"},
    {"{" BASE ",\"unit\":{\"art_directions\":0}}", "unit.art_directions", "\"unit.art_directions\" must be 8 or 16"},
    {"{" BASE ",\"search\":{\"headings\":12}}", "search.headings", "\"search.headings\" must be 8 or 16"},
    {"{" BASE ",\"search\":{\"headings\":0}}", "search.headings", "\"search.headings\" must be 8 or 16"},
    {"{" BASE ",\"search\":{\"headings\":4294967304}}", "search.headings", "\"search.headings\" must be 8 or 16"},
    {"{" BASE ",\"search\":{\"turn_penalty\":-1}}", "search.turn_penalty",
     "\"search.turn_penalty\" must be between 0 and 100"},
    {"{" BASE ",\"search\":{\"connectivity\":6}}", "search.connectivity", "\"search.connectivity\" must be 4 or 8"},
    {"{" BASE ",\"search\":{\"connectivity\":0}}", "search.connectivity", "\"search.connectivity\" must be 4 or 8"},
    {"{" BASE ",\"search\":{\"connectivity\":4294967304}}", "search.connectivity",
     "\"search.connectivity\" must be 4 or 8"},
    {"{" BASE ",\"samples\":{\"step\":0}}", "samples.step", "\"samples.step\" must be at least 0.01"},
    {"{" BASE ",\"samples\":{\"step\":0.009}}", "samples.step", "\"samples.step\" must be at least 0.01"},
    {"{" BASE ",\"samples\":{\"step\":-1}}", "samples.step", "\"samples.step\" must be at least 0.01"},
    /* samples.dt: above 0, one of step and dt, and only on answers with timing (kinodynamic, or vehicle limits) */
    {"{" BASE ",\"search\":{\"algorithm\":\"kinodynamic\"},\"unit\":{\"turning_radius\":2},\"samples\":{\"dt\":0}}",
     "samples.dt", "\"samples.dt\" must be a finite number of seconds above 0"},
    {"{" BASE ",\"search\":{\"algorithm\":\"kinodynamic\"},\"unit\":{\"turning_radius\":2},\"samples\":{\"dt\":-0.5}}",
     "samples.dt", "\"samples.dt\" must be a finite number of seconds above 0"},
    {"{" BASE ",\"search\":{\"algorithm\":\"kinodynamic\"},\"unit\":{\"turning_radius\":2},"
     "\"samples\":{\"dt\":0.5,\"step\":0.5}}",
     "samples.dt", "give one of \"samples.step\" (tiles) and \"samples.dt\" (seconds)"},
    {"{" BASE ",\"samples\":{\"dt\":0.5}}", "samples.dt",
     "\"samples.dt\" needs an answer with timing: vehicle limits (a vehicle \"unit.kind\" such as \"car\", or "
     "unit.max_speed) or search.algorithm \"kinodynamic\" (use \"samples.step\" for this one)"},
    {"{" BASE ",\"search\":{\"algorithm\":\"astar\"},\"samples\":{\"dt\":0.25}}", "samples.dt",
     "\"samples.dt\" needs an answer with timing: vehicle limits (a vehicle \"unit.kind\" such as \"car\", or "
     "unit.max_speed) or search.algorithm \"kinodynamic\" (use \"samples.step\" for this one)"},
    {"{" BASE ",\"search\":{\"algorithm\":\"jps\",\"connectivity\":4}}", "search.algorithm",
     "jps needs search.connectivity 8"},
    {"{" BASE ",\"search\":{\"algorithm\":\"directional24\"}}", "unit.turning_radius",
     "directional24 needs unit.turning_radius > 0"},
    /* start and goal speeds need vehicle limits on other algorithms; with them they are checked as kinodynamic */
    {"{\"map\":\"den520d\",\"start\":{\"x\":1.5,\"y\":2.5,\"speed\":1},\"goal\":{\"x\":3.5,\"y\":4.5}}",
     "start.speed",
     "\"start.speed\" needs vehicle limits (a vehicle \"unit.kind\" such as \"car\", or unit.max_speed) or "
     "search.algorithm \"kinodynamic\""},
    {"{\"map\":\"den520d\",\"start\":{\"x\":1.5,\"y\":2.5},\"goal\":{\"x\":3.5,\"y\":4.5,\"speed\":20},"
     "\"unit\":{\"max_speed\":5}}",
     "goal.speed", "\"goal.speed\" must be between 0 and unit.max_speed (5 m/s)"},
    {"{" BASE ",\"unit\":{\"max_brake\":-1},\"search\":{\"algorithm\":\"astar\"}}", "unit.max_brake",
     "\"unit.max_brake\" must be a finite number in [0.001, 1000]"},
    /* a subnormal limit (it answered ok, 2.6e162 s, segments off length = (v0 + v1) / 2 * duration) and one
     * just under the floor: refused; the floor itself is taken (test_timing's floor case) */
    {"{" BASE ",\"unit\":{\"turning_radius\":2,\"max_accel\":4.9e-324},\"search\":{\"algorithm\":\"kinodynamic\"}}",
     "unit.max_accel", "\"unit.max_accel\" must be a finite number in [0.001, 1000]"},
    {"{" BASE ",\"unit\":{\"turning_radius\":2,\"max_turn_rate\":0.00099},\"search\":{\"algorithm\":\"kinodynamic\"}}",
     "unit.max_turn_rate", "\"unit.max_turn_rate\" must be a finite number in [0.001, 100]"},
    /* kinodynamic-only: search.probe on another algorithm, true or false */
    {"{" BASE ",\"search\":{\"algorithm\":\"astar\",\"probe\":true}}", "search.probe",
     "\"search.probe\" applies to search.algorithm \"kinodynamic\""},
    {"{" BASE ",\"search\":{\"probe\":false}}", "search.probe",
     "\"search.probe\" applies to search.algorithm \"kinodynamic\""},
    /* search.weight: kinodynamic only, in [1, 10]; an explicit 0 is refused too */
    {"{" BASE ",\"search\":{\"algorithm\":\"jps\",\"weight\":1.5}}", "search.weight",
     "\"search.weight\" applies to search.algorithm \"kinodynamic\""},
    {"{" BASE ",\"unit\":{\"turning_radius\":2},\"search\":{\"algorithm\":\"kinodynamic\",\"weight\":0.5}}",
     "search.weight",
     "\"search.weight\" must be between 1 and 10"},
    {"{" BASE ",\"unit\":{\"turning_radius\":2},\"search\":{\"algorithm\":\"kinodynamic\",\"weight\":0}}",
     "search.weight",
     "\"search.weight\" must be between 1 and 10"},
    {"{" BASE ",\"unit\":{\"turning_radius\":2},\"search\":{\"algorithm\":\"kinodynamic\",\"weight\":10.5}}",
     "search.weight",
     "\"search.weight\" must be between 1 and 10"},
};

/* An open 8 x 8 map holding BASE's start (1.5, 2.5) and goal (3.5, 4.5). */
static ap_map *open_map(void)
{
    static const char *text = "type octile\nheight 8\nwidth 8\nmap\n"
                               "........\n........\n........\n........\n........\n........\n........\n........\n";
    ap_map *m = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("m", "m", text, strlen(text), NULL, &m, &d), AP_OK);
    return m;
}

START_TEST(planner_refuses_ranges)
{
    ap_path_request r;
    ap_wire_error e;
    int rc = parse(refused[_i].body, &r, &e);
    ck_assert_msg(rc == AP_OK, "%s: the wire refused it (%s)", refused[_i].body, e.message);
    ap_map *m = open_map();
    r.q.map = m;
    ap_query_error qe;
    ck_assert_int_eq(ap_query_validate(&r.q, NULL, &qe), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(qe.field, refused[_i].field);
    ck_assert_str_eq(qe.message, refused[_i].message);
    /* the field-only form agrees */
    const char *f = NULL;
    ck_assert_int_eq(ap_query_check(&r.q, &f), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(f, refused[_i].field);
    ap_map_free(m);
}
END_TEST

/* samples.dt: parsed as given (step then optional, 0); an explicit 0 goes on as -1 for the planner to refuse. */
START_TEST(samples_dt_parses)
{
    ap_path_request r;
    ap_wire_error e;
    ck_assert_int_eq(parse("{" BASE ",\"samples\":{\"dt\":0.25}}", &r, &e), AP_OK);
    ck_assert(r.q.sample_dt == 0.25);
    ck_assert(r.q.sample_step == 0.0);
    ck_assert_int_eq(parse("{" BASE ",\"samples\":{\"dt\":0}}", &r, &e), AP_OK);
    ck_assert(r.q.sample_dt == -1.0);
    ck_assert_int_eq(parse("{" BASE ",\"samples\":{\"step\":0.5}}", &r, &e), AP_OK);
    ck_assert(r.q.sample_dt == 0.0);
    ck_assert(r.q.sample_step == 0.5);
}
END_TEST

/* timed (plan.h): vehicle limits named by the unit's own fields or by a vehicle kind; start and goal speeds
 * recorded in speed_field, not as kinodynamic-only. */
START_TEST(timed_parses)
{
    ap_path_request r;
    ap_wire_error e;
    ck_assert_int_eq(parse("{" BASE ",\"unit\":{\"radius\":0.3}}", &r, &e), AP_OK);
    ck_assert(!r.q.timed);
    ck_assert_ptr_null(r.q.speed_field);
    ck_assert_int_eq(parse("{" BASE ",\"unit\":{\"max_lateral_accel\":3}}", &r, &e), AP_OK);
    ck_assert(r.q.timed);
    ck_assert(r.q.vehicle.max_lateral_accel == 3.0);
    ck_assert_int_eq(parse("{\"map\":\"den520d\",\"start\":{\"x\":1,\"y\":2},\"goal\":{\"x\":3,\"y\":4,\"speed\":2},"
                           "\"unit\":{\"kind\":\"car\"}}",
                           &r, &e),
                     AP_OK);
    ck_assert(!r.q.timed); /* the kind is applied after parsing */
    ck_assert_str_eq(r.q.speed_field, "goal.speed");
    ck_assert_ptr_null(r.q.kino_field);
    ck_assert_int_eq(ap_wire_apply_unit_kind(&r.unit, NULL, 0, &r.q, &e), AP_OK);
    ck_assert(r.q.timed);
    ck_assert(r.q.turning_radius == 6.0);
    /* a config kind without vehicle limits leaves the query untimed */
    ap_unit_kind k = {.name = "scout", .has = AP_UNIT_F_RADIUS, .radius = 0.4};
    ck_assert_int_eq(parse("{" BASE ",\"unit\":{\"kind\":\"scout\"}}", &r, &e), AP_OK);
    ck_assert_int_eq(ap_wire_apply_unit_kind(&r.unit, &k, 1, &r.q, &e), AP_OK);
    ck_assert(!r.q.timed);
    ck_assert(r.q.unit_radius == 0.4);
    /* the ship's 30 m at 0.37 m a tile are 81 tiles, above 64: refused on unit.kind with the numbers (it was
     * refused on unit.turning_radius, which the request never sent); the request's own radius in tiles wins */
    ck_assert_int_eq(parse("{" BASE ",\"unit\":{\"kind\":\"ship\"}}", &r, &e), AP_OK);
    r.q.meters_per_tile = 0.37;
    ck_assert_int_eq(ap_wire_apply_unit_kind(&r.unit, NULL, 0, &r.q, &e), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "unit.kind");
    ck_assert_str_eq(e.message, "unit kind \"ship\": its turning radius of 30 m is 81.0811 tiles at 0.37 m a tile, "
                                "outside 0.001 ... 64 tiles; give unit.turning_radius in tiles");
    ck_assert_int_eq(parse("{" BASE ",\"unit\":{\"kind\":\"ship\",\"turning_radius\":8}}", &r, &e), AP_OK);
    r.q.meters_per_tile = 0.37;
    ck_assert_int_eq(ap_wire_apply_unit_kind(&r.unit, NULL, 0, &r.q, &e), AP_OK);
    ck_assert(r.q.turning_radius == 8.0);
}
END_TEST

/* An unknown unit.kind names the config's kinds and the built-in ones; where the names do not fit in an error's
 * message (32 kinds of 31 characters), their number and GET /v1/info instead (the list was cut mid-name and
 * the built-in kinds lost: a helper). */
START_TEST(unknown_kind_names_the_kinds)
{
    ap_path_request r;
    ap_wire_error e;
    static ap_unit_kind k[32];
    for (int i = 0; i < 32; i++) {
        memcpy(k[i].name, "kind00_xxxxxxxxxxxxxxxxxxxxxxxx", 32);
        k[i].name[4] = (char)('0' + i / 10);
        k[i].name[5] = (char)('0' + i % 10);
        k[i].has = AP_UNIT_F_RADIUS;
        k[i].radius = 0.4;
    }
    ck_assert_uint_eq(strlen(k[0].name), 31);
    ck_assert_int_eq(parse("{" BASE ",\"unit\":{\"kind\":\"nope\"}}", &r, &e), AP_OK);
    ck_assert_int_eq(ap_wire_apply_unit_kind(&r.unit, k, 2, &r.q, &e), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "unit.kind");
    ck_assert_str_eq(e.message, "unknown unit kind \"nope\": the config names kind00_xxxxxxxxxxxxxxxxxxxxxxxx, "
                                "kind01_xxxxxxxxxxxxxxxxxxxxxxxx; built in: pedestrian, car, tank, ship");
    ck_assert_int_eq(ap_wire_apply_unit_kind(&r.unit, k, 32, &r.q, &e), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.message, "unknown unit kind \"nope\": the config names 32 kinds (GET /v1/info lists them); "
                                "built in: pedestrian, car, tank, ship");
    ck_assert_int_eq(ap_wire_apply_unit_kind(&r.unit, NULL, 0, &r.q, &e), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.message,
                     "unknown unit kind \"nope\": the config names no unit kinds; built in: pedestrian, car, tank, ship");
}
END_TEST

/* search.probe: false by default; true or false as given, and given it marks the query kinodynamic-only. */
START_TEST(search_probe_parses)
{
    ap_path_request r;
    ap_wire_error e;
    ck_assert_int_eq(parse("{" BASE ",\"search\":{\"algorithm\":\"kinodynamic\"}}", &r, &e), AP_OK);
    ck_assert(!r.q.probe);
    ck_assert_ptr_null(r.q.kino_field);
    ck_assert_int_eq(parse("{" BASE ",\"search\":{\"algorithm\":\"kinodynamic\",\"probe\":true}}", &r, &e), AP_OK);
    ck_assert(r.q.probe);
    ck_assert_str_eq(r.q.kino_field, "search.probe");
    ck_assert_int_eq(parse("{" BASE ",\"search\":{\"probe\":false,\"algorithm\":\"kinodynamic\"}}", &r, &e), AP_OK);
    ck_assert(!r.q.probe);
    ck_assert_str_eq(r.q.kino_field, "search.probe");
    /* the first kinodynamic-only field is the one named */
    ck_assert_int_eq(parse("{" BASE ",\"search\":{\"max_expansions\":9,\"probe\":true}}", &r, &e), AP_OK);
    ck_assert(r.q.probe);
    ck_assert_str_eq(r.q.kino_field, "search.max_expansions");
}
END_TEST

/* search.weight: 0 (plain A*) when absent; the number as given, marking the query kinodynamic-only. */
START_TEST(search_weight_parses)
{
    ap_path_request r;
    ap_wire_error e;
    ck_assert_int_eq(parse("{" BASE ",\"search\":{\"algorithm\":\"kinodynamic\"}}", &r, &e), AP_OK);
    ck_assert(r.q.weight == 0.0);
    ck_assert_int_eq(parse("{" BASE ",\"search\":{\"algorithm\":\"kinodynamic\",\"weight\":1.5}}", &r, &e), AP_OK);
    ck_assert(r.q.weight == 1.5);
    ck_assert_str_eq(r.q.kino_field, "search.weight");
    ck_assert_int_eq(parse("{" BASE ",\"unit\":{\"turning_radius\":2},\"search\":{\"algorithm\":\"kinodynamic\",\"weight\":1}}",
                           &r, &e),
                     AP_OK);
    ck_assert(r.q.weight == 1.0);
    ap_map *m = open_map();
    r.q.map = m;
    ap_query_error qe;
    ck_assert_int_eq(ap_query_validate(&r.q, NULL, &qe), AP_OK);
    ap_map_free(m);
}
END_TEST

/* Every row of the algorithm table parses to its value; the bounds the wire used to check are valid. */
START_TEST(algorithm_names_come_from_the_table)
{
    ap_map *m = open_map();
    for (size_t i = 0; i < ap_algorithm_count; i++) {
        char body[256];
        /* every row plans a turning unit (or ignores its turning radius) */
        snprintf(body, sizeof body, "{" BASE ",\"unit\":{\"turning_radius\":1},\"search\":{\"algorithm\":\"%s\"}}",
                 ap_algorithms[i].name);
        ap_path_request r;
        ap_wire_error e;
        ck_assert_int_eq(parse(body, &r, &e), AP_OK);
        ck_assert_int_eq(r.q.algorithm, ap_algorithms[i].id);
        ck_assert_ptr_eq(ap_algorithm_find(ap_algorithms[i].name), &ap_algorithms[i]);
        ck_assert_ptr_eq(ap_algorithm_row_of(ap_algorithms[i].id), &ap_algorithms[i]);
        r.q.map = m;
        ck_assert_int_eq(ap_query_check(&r.q, NULL), AP_OK);
    }
    ck_assert_ptr_null(ap_algorithm_find("dijkstra"));
    ck_assert_ptr_null(ap_algorithm_row_of(AP_ALG_COUNT));
    ap_path_request r;
    ap_wire_error e;
    ck_assert_int_eq(parse("{" BASE ",\"unit\":{\"radius\":16,\"turning_radius\":64,\"reverse_penalty\":100,"
                           "\"art_directions\":16},\"search\":{\"turn_penalty\":100,\"headings\":16},"
                           "\"samples\":{\"step\":0.01}}",
                           &r, &e),
                     AP_OK);
    r.q.map = m;
    ck_assert_int_eq(ap_query_check(&r.q, NULL), AP_OK);
    ap_map_free(m);
}
END_TEST

/* proto/openapi.yaml's Search.algorithm enum lists exactly the table's names (read as text). */
START_TEST(openapi_lists_the_algorithm_table)
{
    size_t len;
    char *yaml = ap_test_read_file("proto/openapi.yaml", &len);
    ck_assert_ptr_nonnull(yaml);
    const char *search = strstr(yaml, "\n    Search:\n");
    ck_assert_ptr_nonnull(search);
    const char *alg = strstr(search, "\n        algorithm:\n");
    ck_assert_ptr_nonnull(alg);
    const char *en = strstr(alg, "enum: [");
    ck_assert_ptr_nonnull(en);
    en += strlen("enum: [");
    const char *close = strchr(en, ']');
    ck_assert_ptr_nonnull(close);
    ck_assert_ptr_null(memchr(en, '\n', (size_t)(close - en))); /* one line, as written */
    size_t listed = 0;
    for (const char *p = en; p < close;) {
        size_t n = strcspn(p, ",]");
        while (n > 0 && p[n - 1] == ' ')
            n--;
        char name[64];
        ck_assert_uint_lt(n, sizeof name);
        memcpy(name, p, n);
        name[n] = '\0';
        ck_assert_msg(ap_algorithm_find(name) != NULL, "openapi.yaml lists \"%s\", which has no row", name);
        listed++;
        p += strcspn(p, ",]");
        if (*p == ',')
            p++;
        while (*p == ' ')
            p++;
    }
    ck_assert_uint_eq(listed, ap_algorithm_count); /* names are unique in the table, so none is missing */
    free(yaml);
}
END_TEST

START_TEST(error_messages)
{
    ap_path_request r;
    ap_wire_error e;
    parse("{" BASE ",\"search\":{\"foo\":1}}", &r, &e);
    ck_assert_str_eq(e.message, "unknown field \"search.foo\"");
    parse("{\"map\":\"m\",\"start\":{\"x\":1},\"goal\":{\"x\":3,\"y\":4}}", &r, &e);
    ck_assert_str_eq(e.message, "missing required field \"start.y\"");
    parse("{" BASE ",\"search\":{\"algorithm\":\"dijkstra\"}}", &r, &e);
    ck_assert_str_eq(e.message, "\"search.algorithm\" must be one of: astar, jps, jps_plus, auto, directional8, "
                                "directional24, directional48, hybrid, any_angle, hierarchical, kinodynamic");
    parse("[]", &r, &e);
    ck_assert_str_eq(e.message, "the request body must be a JSON object");
    parse("{" BASE ",\"search\":{\"smoothing\":\"spline\"}}", &r, &e);
    ck_assert_str_eq(e.message, "\"search.smoothing\" must be one of: none, los, taut");
    ck_assert_int_eq(parse("{" BASE ",\"search\":{\"smoothing\":\"taut\"}}", &r, &e), AP_OK);
    ck_assert_int_eq(r.q.smoothing, AP_SMOOTH_TAUT);
}
END_TEST

START_TEST(long_unknown_keys_are_truncated_safely)
{
    char body[1024], key[301];
    ap_path_request r;
    ap_wire_error e;
    memset(key, 'k', 300);
    key[300] = '\0';
    snprintf(body, sizeof body, "{" BASE ",\"search\":{\"%s\":1}}", key);
    ck_assert_int_eq(parse(body, &r, &e), AP_E_INVALID_REQUEST);
    ck_assert_uint_eq(strlen(e.field), sizeof e.field - 1);
    ck_assert(strncmp(e.field, "search.kkkk", 11) == 0);

    /* 2-byte characters: the cut must fall on a character boundary (62 bytes, not 63) */
    char *p = body + sprintf(body, "{\"");
    for (int i = 0; i < 100; i++)
        p += sprintf(p, "\xc3\xa9");
    sprintf(p, "\":1}");
    ck_assert_int_eq(parse(body, &r, &e), AP_E_INVALID_REQUEST);
    ck_assert_uint_eq(strlen(e.field), 62);
    int http = 0;
    char *enc = ap_wire_encode_error(e.status, e.message, e.field, e.line, e.col, &http, NULL);
    ck_assert_ptr_nonnull(enc);
    ck_assert_int_eq(http, 400);
    free(enc);
}
END_TEST

START_TEST(invalid_json_reports_line_and_column)
{
    const char *body = "{\n"
                       "  \"map\": \"m\",\n"
                       "  \"start\": {\"x\": 1, \"y\": 2},\n"
                       "  \"goal\": tru\n"
                       "}\n";
    ap_path_request r;
    ap_wire_error e;
    ck_assert_int_eq(parse(body, &r, &e), AP_E_INVALID_JSON);
    ck_assert_int_eq(e.status, AP_E_INVALID_JSON);
    ck_assert_int_eq(e.line, 4);
    ck_assert_int_eq(e.col, 13); /* jansson points at the last character of the bad token */
    ck_assert_str_eq(e.field, "");
    ck_assert(strstr(e.message, "line 4, column 13") != NULL);

    ck_assert_int_eq(parse("{\"map\": \"m\",\n \"start\": {\"x\": 1,,}}", &r, &e), AP_E_INVALID_JSON);
    ck_assert_int_eq(e.line, 2);
    ck_assert_int_eq(e.col, 19); /* the second comma */
}
END_TEST

START_TEST(other_invalid_json)
{
    static const char *bad[] = {
        "{",
        "{\"map\": \"m\"",
        "{\"map\": \"m\", \"map\": \"n\"}", /* duplicate keys */
        "{\"map\": \"m\"} x",                /* trailing garbage */
        "{'map': 'm'}",
        "{\"a\": NaN}",
        "{\"a\": Infinity}",
        "{\"a\": 1e400}", /* overflows a double */
        "{\"a\": 99999999999999999999}",
        "{\"a\": \"\\u0000\"}",
        "{\"a\": \"\xff\xfe\"}", /* invalid UTF-8 */
        "   ",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ap_path_request r;
        ap_wire_error e;
        ck_assert_msg(parse(bad[i], &r, &e) == AP_E_INVALID_JSON, "%s", bad[i]);
        ck_assert_int_ge(e.line, 1);
        ck_assert_int_ge(e.col, 1);
        char *enc = ap_wire_encode_error(e.status, e.message, e.field, e.line, e.col, NULL, NULL);
        ck_assert_msg(enc != NULL, "message for %s is not encodable", bad[i]);
        free(enc);
    }
}
END_TEST

/* A pose that is not an object (most often [x, y]) is refused with its shape in the message. */
START_TEST(pose_not_an_object_shows_its_shape)
{
    ap_path_request r;
    ap_wire_error e;
    ck_assert_int_eq(parse("{\"map\":\"m\",\"start\":[1,2],\"goal\":{\"x\":3,\"y\":4}}", &r, &e),
                     AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "start");
    ck_assert_str_eq(e.message,
                     "\"start\" must be an object {\"x\", \"y\", \"heading\"?, \"speed\"?} (tiles, radians, m/s)");
    ck_assert_int_eq(parse("{\"map\":\"m\",\"start\":{\"x\":1,\"y\":2},\"goal\":\"3,4\"}", &r, &e),
                     AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "goal");
    ck_assert_str_eq(e.message,
                     "\"goal\" must be an object {\"x\", \"y\", \"heading\"?, \"speed\"?} (tiles, radians, m/s)");
}
END_TEST

START_TEST(empty_body_is_invalid_json)
{
    ap_path_request r;
    ap_wire_error e;
    ck_assert_int_eq(ap_wire_parse_path_request("", 0, &r, &e), AP_E_INVALID_JSON);
    ck_assert_int_eq(e.line, 1);
    ck_assert_int_eq(e.col, 1);
    ck_assert_int_eq(ap_wire_parse_path_request(NULL, 0, &r, &e), AP_E_INVALID_JSON);
    ck_assert_int_eq(r.deadline_ms, -1); /* *req is initialised even on error */
}
END_TEST

/* ---------------------------------------------------------------------------------------------------------
 * Encoding */

static json_t *load(const char *s)
{
    json_error_t je;
    json_t *j = json_loads(s, JSON_REJECT_DUPLICATES, &je);
    ck_assert_msg(j != NULL, "encoder output is not JSON: %s (%s)", je.text, s);
    return j;
}

static double num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    ck_assert_msg(v != NULL && json_is_number(v), "\"%s\" is not a number", key);
    return json_number_value(v);
}

static void assert_point(json_t *o, const char *key, double x, double y)
{
    json_t *a = json_object_get(o, key);
    ck_assert_msg(json_is_array(a) && json_array_size(a) == 2, "\"%s\" is not [x, y]", key);
    ck_assert(json_number_value(json_array_get(a, 0)) == x);
    ck_assert(json_number_value(json_array_get(a, 1)) == y);
}

/* Exactly these keys, no others. */
static void assert_keys(json_t *o, const char *const *keys)
{
    size_t n = 0;
    for (; keys[n] != NULL; n++)
        ck_assert_msg(json_object_get(o, keys[n]) != NULL, "missing \"%s\"", keys[n]);
    ck_assert_uint_eq(json_object_size(o), n);
}

/* Awkward doubles: none has a short decimal form, so only 17 significant digits bring them back. */
#define V_A 0.1
#define V_B (1.0 / 3.0)
#define V_C (M_PI / 7.0)
#define V_D 12345.678901234567
#define V_E 1e-17
#define V_F (-2.0 / 3.0)

typedef struct fixture {
    ap_result r;
    double wp[3][2];
    ap_segment seg[2];
    ap_pose smp[4];
} fixture;

static void make_result(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->wp[0][0] = V_A;
    f->wp[0][1] = V_B;
    f->wp[1][0] = V_C;
    f->wp[1][1] = V_D;
    f->wp[2][0] = 7.5;
    f->wp[2][1] = V_E;
    f->seg[0] = (ap_segment){.type = AP_SEG_LINE, .x0 = V_A, .y0 = V_B, .x1 = V_C, .y1 = V_D, .heading = V_F,
                             .length = V_D - V_B};
    f->seg[1] = (ap_segment){.type = AP_SEG_ARC, .x0 = V_C, .y0 = V_D, .x1 = 7.5, .y1 = V_E, .heading = V_B,
                             .cx = V_E, .cy = V_A, .radius = 2.5, .sweep = V_F, .length = 2.5 * 2.0 / 3.0,
                             .reverse = true};
    f->r.status = AP_OK;
    f->r.grid_cost = V_D;
    f->r.length = 1.2;
    f->r.clear = true;
    f->r.waypoints = f->wp;
    f->r.n_waypoints = 3;
    f->r.segments = f->seg;
    f->r.n_segments = 2;
    f->r.expanded = 4242;
    for (int i = 0; i < 4; i++)
        f->smp[i] = (ap_pose){V_A * i, V_B * i, V_C * i};
}

START_TEST(encode_ok_exact_fields_and_values)
{
    fixture f;
    make_result(&f);
    ap_path_stats st = {.lane = "slow", .queue_us = 17, .search_us = 123456789};
    size_t len = 0;
    char *s = ap_wire_encode_path("den520d", &f.r, &st, &len);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(len, strlen(s));
    json_t *j = load(s);

    static const char *const top[] = {"status", "map", "grid_cost", "length", "clear", "waypoints",
                                      "segments", "stats", NULL};
    assert_keys(j, top);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert_str_eq(json_string_value(json_object_get(j, "map")), "den520d");
    ck_assert(num(j, "grid_cost") == V_D);
    ck_assert(num(j, "length") == 1.2);
    ck_assert(json_is_true(json_object_get(j, "clear")));

    json_t *w = json_object_get(j, "waypoints");
    ck_assert_uint_eq(json_array_size(w), 3);
    for (size_t i = 0; i < 3; i++) {
        json_t *p = json_array_get(w, i);
        ck_assert_uint_eq(json_array_size(p), 2);
        ck_assert(json_number_value(json_array_get(p, 0)) == f.wp[i][0]);
        ck_assert(json_number_value(json_array_get(p, 1)) == f.wp[i][1]);
    }

    json_t *sg = json_object_get(j, "segments");
    ck_assert_uint_eq(json_array_size(sg), 2);
    json_t *line = json_array_get(sg, 0), *arc = json_array_get(sg, 1);
    static const char *const line_keys[] = {"type", "start", "end", "heading", "length", NULL};
    assert_keys(line, line_keys); /* no "reverse" when the flag is clear */
    ck_assert_str_eq(json_string_value(json_object_get(line, "type")), "line");
    assert_point(line, "start", V_A, V_B);
    assert_point(line, "end", V_C, V_D);
    ck_assert(num(line, "heading") == V_F);
    ck_assert(num(line, "length") == V_D - V_B);

    static const char *const arc_keys[] = {"type",          "start", "end",    "center", "radius",
                                           "start_heading", "sweep", "length", "reverse", NULL};
    assert_keys(arc, arc_keys);
    ck_assert_str_eq(json_string_value(json_object_get(arc, "type")), "arc");
    assert_point(arc, "start", V_C, V_D);
    assert_point(arc, "end", 7.5, V_E);
    assert_point(arc, "center", V_E, V_A);
    ck_assert(num(arc, "radius") == 2.5);
    ck_assert(num(arc, "start_heading") == V_B);
    ck_assert(num(arc, "sweep") == V_F);
    ck_assert(num(arc, "length") == 2.5 * 2.0 / 3.0);
    ck_assert(json_is_true(json_object_get(arc, "reverse")));

    json_t *stats = json_object_get(j, "stats");
    static const char *const stat_keys[] = {"expanded", "lane", "queue_us", "search_us", NULL};
    assert_keys(stats, stat_keys);
    ck_assert_int_eq(json_integer_value(json_object_get(stats, "expanded")), 4242);
    ck_assert_str_eq(json_string_value(json_object_get(stats, "lane")), "slow");
    ck_assert_int_eq(json_integer_value(json_object_get(stats, "queue_us")), 17);
    ck_assert_int_eq(json_integer_value(json_object_get(stats, "search_us")), 123456789);

    /* compact, and keys in the documented order */
    ck_assert(strncmp(s, "{\"status\":\"ok\",\"map\":\"den520d\",\"grid_cost\":", 43) == 0);
    json_decref(j);
    free(s);
}
END_TEST

/* A kinodynamic answer: duration_s and per-segment times; "probe": true only when the path is the probing
 * search's (tests/integration/test_kino.c draws one through POST /v1/render). */
START_TEST(encode_probe_flag)
{
    fixture f;
    make_result(&f);
    ap_seg_time tm[2] = {{0.0, 2.0, 0.0, 1.5}, {2.0, 1.0, 1.5, 1.75}};
    f.r.timing = tm;
    f.r.duration_s = 3.25;
    for (int probe = 0; probe < 2; probe++) {
        f.r.probe = probe == 1;
        char *s = ap_wire_encode_path("den520d", &f.r, NULL, NULL);
        ck_assert_ptr_nonnull(s);
        json_t *j = load(s);
        ck_assert(num(j, "duration_s") == 3.25);
        if (probe)
            ck_assert(json_is_true(json_object_get(j, "probe")));
        else
            ck_assert_ptr_null(json_object_get(j, "probe"));
        json_decref(j);
        free(s);
    }
}
END_TEST

START_TEST(encode_samples_with_distance)
{
    fixture f;
    make_result(&f);
    f.r.samples = f.smp;
    f.r.n_samples = 4;
    f.r.length = 1.2;
    ap_path_stats st = {.lane = "fast", .sample_step = 0.5};
    char *s = ap_wire_encode_path("m", &f.r, &st, NULL);
    ck_assert_ptr_nonnull(s);
    json_t *j = load(s);
    json_t *a = json_object_get(j, "samples");
    ck_assert_uint_eq(json_array_size(a), 4);
    const double want_d[4] = {0.0, 0.5, 1.0, 1.2};
    static const char *const keys[] = {"d", "x", "y", "heading", NULL};
    for (size_t i = 0; i < 4; i++) {
        json_t *p = json_array_get(a, i);
        assert_keys(p, keys);
        ck_assert(num(p, "d") == want_d[i]);
        ck_assert(num(p, "x") == f.smp[i].x);
        ck_assert(num(p, "y") == f.smp[i].y);
        ck_assert(num(p, "heading") == f.smp[i].heading);
    }
    ck_assert_uint_eq(json_object_size(j), 9);
    json_decref(j);
    free(s);
}
END_TEST

/* Samples in time: each carries the planner's distance, then t and v after the pose. */
START_TEST(encode_samples_in_time)
{
    fixture f;
    make_result(&f);
    ap_sample_time tv[4] = {{0.0, 0.0, 1.0}, {0.25, 0.5, 1.5}, {0.75, 1.0, 2.0}, {1.2, 1.25, 2.25}};
    f.r.samples = f.smp;
    f.r.sample_times = tv;
    f.r.n_samples = 4;
    f.r.length = 1.2;
    ap_path_stats st = {.lane = "fast"};
    char *s = ap_wire_encode_path("m", &f.r, &st, NULL);
    ck_assert_ptr_nonnull(s);
    json_t *j = load(s);
    json_t *a = json_object_get(j, "samples");
    ck_assert_uint_eq(json_array_size(a), 4);
    static const char *const keys[] = {"d", "x", "y", "heading", "t", "v", NULL};
    for (size_t i = 0; i < 4; i++) {
        json_t *p = json_array_get(a, i);
        assert_keys(p, keys);
        ck_assert(num(p, "d") == tv[i].d);
        ck_assert(num(p, "x") == f.smp[i].x);
        ck_assert(num(p, "t") == tv[i].t);
        ck_assert(num(p, "v") == tv[i].v);
    }
    ck_assert_ptr_nonnull(strstr(s, "\"heading\":"));
    ck_assert_ptr_nonnull(strstr(s, ",\"t\":0.5,\"v\":1.5}"));
    json_decref(j);
    free(s);
}
END_TEST

START_TEST(encode_no_path_and_timeout)
{
    static const struct {
        int status;
        const char *name;
        ap_no_path_reason reason;
        const char *reason_name; /* NULL: no "reason" member */
    } cases[] = {{AP_NO_PATH, "no_path", AP_NO_PATH_UNREACHABLE, "unreachable"},
                 {AP_NO_PATH, "no_path", AP_NO_PATH_NOT_FOUND, "not_found"},
                 {AP_NO_PATH, "no_path", AP_NO_PATH_STATE_LIMIT, "state_limit"},
                 {AP_TIMEOUT, "timeout", AP_NO_PATH_UNREACHABLE, NULL}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ap_result r;
        memset(&r, 0, sizeof r);
        r.status = cases[i].status;
        r.no_path_reason = cases[i].reason;
        r.expanded = 99;
        ap_path_stats st = {.lane = "fast", .queue_us = 1, .search_us = 2};
        char *s = ap_wire_encode_path("maze", &r, &st, NULL);
        ck_assert_ptr_nonnull(s);
        json_t *j = load(s);
        static const char *const keys[] = {"status", "map", "stats", NULL};
        static const char *const keys_reason[] = {"status", "map", "reason", "stats", NULL};
        assert_keys(j, cases[i].reason_name ? keys_reason : keys);
        if (cases[i].reason_name)
            ck_assert_str_eq(json_string_value(json_object_get(j, "reason")), cases[i].reason_name);
        ck_assert_str_eq(json_string_value(json_object_get(j, "status")), cases[i].name);
        ck_assert_str_eq(json_string_value(json_object_get(j, "map")), "maze");
        ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j, "stats"), "expanded")), 99);
        json_decref(j);
        free(s);
    }
    /* without stats only "expanded" is known */
    ap_result r;
    memset(&r, 0, sizeof r);
    r.status = AP_NO_PATH;
    char *s = ap_wire_encode_path("maze", &r, NULL, NULL);
    ck_assert_str_eq(s, "{\"status\":\"no_path\",\"map\":\"maze\",\"reason\":\"not_found\",\"stats\":{\"expanded\":0}}");
    free(s);
}
END_TEST

START_TEST(encode_result_error_and_non_finite)
{
    ap_result r;
    memset(&r, 0, sizeof r);
    r.status = AP_E_INVALID_REQUEST;
    r.field = "samples.step";
    char *s = ap_wire_encode_path("m", &r, NULL, NULL);
    ck_assert_str_eq(s, "{\"error\":{\"code\":\"invalid_request\",\"message\":\"the request is not valid\","
                        "\"field\":\"samples.step\"}}");
    free(s);
    /* the planner's reason, when it gives one, is the message */
    snprintf(r.message, sizeof r.message, "at most 3 samples (max_samples), this path needs 5");
    s = ap_wire_encode_path("m", &r, NULL, NULL);
    ck_assert_str_eq(s, "{\"error\":{\"code\":\"invalid_request\",\"message\":\"at most 3 samples (max_samples), "
                        "this path needs 5\",\"field\":\"samples.step\"}}");
    free(s);

    fixture f;
    make_result(&f);
    f.seg[1].sweep = NAN;
    ck_assert_ptr_null(ap_wire_encode_path("m", &f.r, NULL, NULL));
    make_result(&f);
    f.r.length = INFINITY;
    ck_assert_ptr_null(ap_wire_encode_path("m", &f.r, NULL, NULL));
}
END_TEST

START_TEST(encode_error_every_status)
{
    for (int st = 0; st < AP_ERROR_COUNT; st++) {
        int http = 0;
        size_t len = 0;
        char *s = ap_wire_encode_error(st, NULL, NULL, 0, 0, &http, &len);
        ck_assert_ptr_nonnull(s);
        ck_assert_uint_eq(len, strlen(s));
        const ap_error_info *info = ap_error_lookup(st);
        ck_assert_int_eq(http, info->http);
        json_t *j = load(s);
        ck_assert_uint_eq(json_object_size(j), 1);
        json_t *e = json_object_get(j, "error");
        static const char *const keys[] = {"code", "message", NULL};
        assert_keys(e, keys);
        ck_assert_str_eq(json_string_value(json_object_get(e, "code")), info->code);
        ck_assert_str_eq(json_string_value(json_object_get(e, "message")), info->message);
        json_decref(j);
        free(s);
    }
}
END_TEST

START_TEST(encode_error_optional_members)
{
    int http = 0;
    char *s = ap_wire_encode_error(AP_E_NOT_FOUND, NULL, "", 0, -3, &http, NULL);
    ck_assert_str_eq(s, "{\"error\":{\"code\":\"not_found\",\"message\":\"no such route\"}}");
    ck_assert_int_eq(http, 404);
    free(s);

    s = ap_wire_encode_error(AP_E_INVALID_JSON, "bad \"thing\"", NULL, 4, 13, &http, NULL);
    ck_assert_str_eq(s, "{\"error\":{\"code\":\"invalid_json\",\"message\":\"bad \\\"thing\\\"\",\"line\":4,"
                        "\"column\":13}}");
    ck_assert_int_eq(http, 400);
    free(s);

    s = ap_wire_encode_error(AP_E_INVALID_REQUEST, "m", "search.foo", 0, 0, NULL, NULL);
    ck_assert_str_eq(s, "{\"error\":{\"code\":\"invalid_request\",\"message\":\"m\",\"field\":\"search.foo\"}}");
    free(s);

    /* invalid UTF-8 from a caller must not make the body unencodable */
    s = ap_wire_encode_error(AP_E_INVALID_REQUEST, "x\xff" "y", "a\xc3", 0, 0, NULL, NULL);
    ck_assert_str_eq(s, "{\"error\":{\"code\":\"invalid_request\",\"message\":\"x?y\",\"field\":\"a?\"}}");
    free(s);

    s = ap_wire_encode_error(12345, NULL, NULL, 0, 0, &http, NULL);
    ck_assert_int_eq(http, 500);
    ck_assert(strstr(s, "\"code\":\"internal\"") != NULL);
    free(s);
}
END_TEST

static void make_map(ap_map *m, const char *id, int32_t w, int32_t h)
{
    memset(m, 0, sizeof *m);
    snprintf(m->id, sizeof m->id, "%s", id);
    m->width = w;
    m->height = h;
    m->stride = w + 2;
    m->passable_cells = (int64_t)w * h - 7;
    m->region_count = 3;
    m->load_seconds = 0.0125;
    m->tables[m->n_tables++] = (ap_map_table){.name = "region", .bytes = (size_t)(w + 2) * (size_t)(h + 2) * 4,
                                              .build_seconds = V_B, .count_name = "regions", .count = 3};
    /* weighted: '.' 1, 'G' 1, 'S' 2.5, trees blocked, water 7 */
    m->weighted = true;
    const double cost_of[AP_TERRAIN_KINDS] = {1.0, 1.0, 2.5, 0.0, 7.0};
    memcpy(m->cost_of, cost_of, sizeof m->cost_of);
}

/* "obstacles": parsed into the request's own array; each bad value is named by its JSON path; batch items
 * keep their own copies. */
START_TEST(obstacles_parse)
{
    ap_path_request r;
    ap_wire_error e;
    ck_assert_int_eq(parse("{" BASE ",\"obstacles\":[{\"x\":1,\"y\":2,\"r\":0.5},{\"x\":-3,\"y\":4.25,\"r\":2}]}",
                           &r, &e),
                     AP_OK);
    ck_assert_uint_eq(r.q.n_obstacles, 2);
    ck_assert_ptr_eq(r.q.obstacles, r.obstacles);
    ck_assert(r.obstacles[1].x == -3.0 && r.obstacles[1].y == 4.25 && r.obstacles[1].r == 2.0);
    ck_assert_int_eq(parse("{" BASE "}", &r, &e), AP_OK);
    ck_assert_uint_eq(r.q.n_obstacles, 0);
    ck_assert_ptr_null(r.q.obstacles);
    static const struct {
        const char *obstacles, *field, *message;
    } bad[] = {
        {"{}", "obstacles", "\"obstacles\" must be an array"},
        {"[{\"x\":1,\"y\":2,\"r\":1},{\"x\":1,\"y\":2,\"r\":0}]", "obstacles[1].r", "\"obstacles[1].r\" must be above 0"},
        {"[{\"x\":1,\"y\":2,\"r\":1},{\"x\":1,\"y\":2,\"r\":1},{\"x\":1,\"y\":2,\"r\":1},{\"x\":1,\"r\":1}]",
         "obstacles[3].y", NULL},
        {"[{\"x\":1e300,\"y\":2,\"r\":1}]", "obstacles[0].x", NULL},
        {"[{\"x\":1,\"y\":2,\"r\":-1}]", "obstacles[0].r", NULL},
        {"[{\"x\":1,\"y\":2,\"r\":1,\"z\":0}]", "obstacles[0].z", NULL},
        {"[3]", "obstacles[0]", "\"obstacles[0]\" must be an object"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char body[512];
        snprintf(body, sizeof body, "{" BASE ",\"obstacles\":%s}", bad[i].obstacles);
        ck_assert_int_eq(parse(body, &r, &e), AP_E_INVALID_REQUEST);
        ck_assert_str_eq(e.field, bad[i].field);
        if (bad[i].message != NULL)
            ck_assert_str_eq(e.message, bad[i].message);
    }
    /* 257 circles: one too many. */
    char *big = malloc(64 * 300);
    size_t at = (size_t)sprintf(big, "{" BASE ",\"obstacles\":[");
    for (int i = 0; i < AP_MAX_OBSTACLES + 1; i++)
        at += (size_t)sprintf(big + at, "%s{\"x\":1,\"y\":1,\"r\":1}", i ? "," : "");
    strcpy(big + at, "]}");
    ck_assert_int_eq(parse(big, &r, &e), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "obstacles");
    ck_assert_str_eq(e.message, "\"obstacles\" must hold at most 256 circles (got 257)");
    free(big);
    /* A batch: each item's own array. */
    ap_batch_request b;
    const char *batch = "{\"map\":\"m\",\"queries\":[{\"start\":{\"x\":1,\"y\":1},\"goal\":{\"x\":2,\"y\":2},"
                        "\"obstacles\":[{\"x\":5,\"y\":5,\"r\":1}]},{\"start\":{\"x\":1,\"y\":1},\"goal\":{\"x\":2,"
                        "\"y\":2},\"obstacles\":[{\"x\":6,\"y\":5,\"r\":1},{\"x\":7,\"y\":5,\"r\":1}]},"
                        "{\"start\":{\"x\":1,\"y\":1},\"goal\":{\"x\":2,\"y\":2},\"obstacles\":[{\"x\":7,\"y\":5,\"r\":0}]}]}";
    ck_assert_int_eq(ap_wire_parse_batch_request(batch, strlen(batch), 8, &b, &e), AP_OK);
    ck_assert_uint_eq(b.items[0].q.n_obstacles, 1);
    ck_assert_ptr_eq(b.items[0].q.obstacles, b.items[0].obstacles);
    ck_assert(b.items[0].obstacles[0].x == 5.0);
    ck_assert_uint_eq(b.items[1].q.n_obstacles, 2);
    ck_assert(b.items[1].q.obstacles[1].x == 7.0);
    ck_assert_int_eq(b.items[2].status, AP_E_INVALID_REQUEST);
    ck_assert_str_eq(b.items[2].err.field, "obstacles[0].r");
    ap_wire_batch_free(&b);
}
END_TEST

START_TEST(encode_map_info)
{
    ap_map m;
    make_map(&m, "den520d", 256, 257);
    size_t len;
    char *s = ap_wire_encode_map(&m, 0, &len);
    ck_assert_ptr_nonnull(s);
    json_t *j = load(s);
    static const char *const keys[] = {"id",      "kind",          "width",           "height",  "passable_cells",
                                       "weighted", "terrain_costs", "meters_per_tile", "load_ms", "tables",
                                       NULL};
    assert_keys(j, keys);
    ck_assert(num(j, "meters_per_tile") == 1.0); /* make_map leaves it 0: shown as the default 1 */
    ck_assert(json_is_true(json_object_get(j, "weighted")));
    json_t *tc = json_object_get(j, "terrain_costs");
    static const char *const tckeys[] = {".", "G", "S", "W", NULL}; /* trees blocked: not listed */
    assert_keys(tc, tckeys);
    ck_assert(num(tc, "S") == 2.5 && num(tc, "W") == 7.0 && num(tc, ".") == 1.0);
    ck_assert_str_eq(json_string_value(json_object_get(j, "id")), "den520d");
    ck_assert_str_eq(json_string_value(json_object_get(j, "kind")), "grid");
    ck_assert_int_eq(json_integer_value(json_object_get(j, "width")), 256);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "height")), 257);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "passable_cells")), 256 * 257 - 7);
    ck_assert(num(j, "load_ms") == 0.0125 * 1000.0);
    json_t *t = json_object_get(j, "tables");
    ck_assert_uint_eq(json_array_size(t), 1);
    m.meters_per_tile = 2.5;
    char *s2 = ap_wire_encode_map(&m, 0, NULL);
    json_t *j2 = load(s2);
    ck_assert(num(j2, "meters_per_tile") == 2.5);
    json_decref(j2);
    free(s2);
    json_t *t0 = json_array_get(t, 0);
    static const char *const tkeys[] = {"name", "bytes", "build_ms", "regions", NULL};
    assert_keys(t0, tkeys);
    ck_assert_str_eq(json_string_value(json_object_get(t0, "name")), "region");
    ck_assert_int_eq(json_integer_value(json_object_get(t0, "bytes")), 258 * 259 * 4);
    ck_assert(num(t0, "build_ms") == V_B * 1000.0);
    ck_assert_int_eq(json_integer_value(json_object_get(t0, "regions")), 3);
    json_decref(j);
    free(s);
}
END_TEST

START_TEST(encode_maps_list)
{
    ap_map a, b;
    make_map(&a, "a", 1, 1);
    make_map(&b, "b.v2", 10, 20);
    const ap_map *const maps[] = {&a, &b};
    char *s = ap_wire_encode_maps(maps, NULL, 2, NULL);
    json_t *j = load(s);
    ck_assert_uint_eq(json_object_size(j), 1);
    json_t *l = json_object_get(j, "maps");
    ck_assert_uint_eq(json_array_size(l), 2);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(l, 0), "id")), "a");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(l, 1), "id")), "b.v2");
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(l, 1), "height")), 20);
    ck_assert_ptr_null(json_object_get(json_array_get(l, 0), "map_version")); /* no versions given */
    json_decref(j);
    free(s);

    const uint64_t versions[] = {3, 7};
    s = ap_wire_encode_maps(maps, versions, 2, NULL);
    j = load(s);
    l = json_object_get(j, "maps");
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(l, 0), "map_version")), 3);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(l, 1), "map_version")), 7);
    json_decref(j);
    free(s);

    s = ap_wire_encode_maps(NULL, NULL, 0, NULL);
    ck_assert_str_eq(s, "{\"maps\":[]}");
    free(s);
}
END_TEST

Suite *wire_suite(void)
{
    Suite *s = suite_create("proto/wire");
    TCase *p = tcase_create("parse");
    tcase_add_test(p, minimal_request_gets_defaults);
    tcase_add_test(p, pose_not_an_object_shows_its_shape);
    tcase_add_test(p, full_request_round_trips_exact_values);
    tcase_add_test(p, integers_accepted_for_reals_and_bounds_inclusive);
    tcase_add_test(p, body_need_not_be_nul_terminated);
    tcase_add_loop_test(p, invalid_field_is_named, 0, (int)(sizeof invalid / sizeof invalid[0]));
    tcase_add_test(p, error_messages);
    tcase_add_loop_test(p, planner_refuses_ranges, 0, (int)(sizeof refused / sizeof refused[0]));
    tcase_add_test(p, algorithm_names_come_from_the_table);
    tcase_add_test(p, search_probe_parses);
    tcase_add_test(p, search_weight_parses);
    tcase_add_test(p, samples_dt_parses);
    tcase_add_test(p, timed_parses);
    tcase_add_test(p, unknown_kind_names_the_kinds);
    tcase_add_test(p, openapi_lists_the_algorithm_table);
    tcase_add_test(p, long_unknown_keys_are_truncated_safely);
    tcase_add_test(p, invalid_json_reports_line_and_column);
    tcase_add_test(p, other_invalid_json);
    tcase_add_test(p, empty_body_is_invalid_json);
    suite_add_tcase(s, p);

    TCase *e = tcase_create("encode");
    tcase_add_test(e, encode_ok_exact_fields_and_values);
    tcase_add_test(e, encode_samples_with_distance);
    tcase_add_test(e, encode_samples_in_time);
    tcase_add_test(e, encode_probe_flag);
    tcase_add_test(e, encode_no_path_and_timeout);
    tcase_add_test(e, encode_result_error_and_non_finite);
    tcase_add_test(e, encode_error_every_status);
    tcase_add_test(e, encode_error_optional_members);
    tcase_add_test(e, encode_map_info);
    tcase_add_test(e, obstacles_parse);
    tcase_add_test(e, encode_maps_list);
    suite_add_tcase(s, e);
    return s;
}
