/* test_terrain.c — terrain costs end to end: a server whose config gives a map swamp and water costs lists
 * them in /v1/maps, answers A* and auto with the weighted optimum (turning units by Directional24 weighing
 * curves by terrain), refuses jps / jps_plus / hybrid with 400 invalid_request on search.algorithm (single
 * and batch), and --check-config shows the
 * costs and warns about an entry for a map that is not loaded. */
#include "tests/check_fast.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../util.h"
#include "harness.h"

Suite *terrain_suite(void);

/* Row 1 has swamp (cost 3) in the middle, row 2 is water (cost 6; blocked without a cost). */
static const char MARSH[] = "type octile\nheight 3\nwidth 9\nmap\n.........\n...SSS...\nWWWWWWWWW\n";
static const char CONF[] = "{\"terrain_costs\": {\"marsh\": {\"S\": 3, \"W\": 6}, \"nosuchmap\": {\"S\": 2}}}";

static ap_srv_dir sd;
static ap_srv srv;

static void setup(void)
{
    ck_assert_int_eq(ap_srv_start_dir(&srv, &sd, "terrain", "marsh", MARSH, CONF), 0);
}

static void teardown(void)
{
    ck_assert_int_eq(ap_srv_stop_dir(&srv, &sd), 0);
}

/* POST body to path; returns the parsed JSON answer and checks the HTTP status. */
static json_t *post(const char *path, const char *body, long want_status)
{
    ap_resp r;
    ck_assert_int_eq(ap_post(&srv, path, body, &r), 0);
    ck_assert_msg(r.status == want_status, "status %ld, want %ld: %s", r.status, want_status, r.body);
    json_t *j = ap_resp_json(&r);
    ap_resp_free(&r);
    ck_assert_ptr_nonnull(j);
    return j;
}

START_TEST(map_info_lists_costs)
{
    ap_resp r;
    ck_assert_int_eq(ap_http(&srv, "GET", "/v1/maps/marsh", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    json_t *j = ap_resp_json(&r);
    ap_resp_free(&r);
    ck_assert(json_is_true(json_object_get(j, "weighted")));
    ck_assert_int_eq(json_integer_value(json_object_get(j, "passable_cells")), 27); /* water is passable */
    json_t *c = json_object_get(j, "terrain_costs");
    ck_assert_uint_eq(json_object_size(c), 4); /* . G S W; trees stay blocked */
    ck_assert_double_eq(json_number_value(json_object_get(c, ".")), 1.0);
    ck_assert_double_eq(json_number_value(json_object_get(c, "S")), 3.0);
    ck_assert_double_eq(json_number_value(json_object_get(c, "W")), 6.0);
    ck_assert_ptr_null(json_object_get(c, "T"));
    /* No JPS tables on a weighted map: the region table, then the default capability's (ground+swamp,
     * no longer the map's passability since water costs 6) regions, its clearance and the map's own
     * capability's (ground+swamp+water: its regions are the map's), the disc JPS slot (jps_sized.h: a
     * capability's view may be uniform), and the default capability's view (the map's own capability needs
     * none), then the HAA* graph (hier.h). */
    json_t *t = json_object_get(j, "tables");
    ck_assert_uint_eq(json_array_size(t), 7);
    const char *names[7] = {"region", "region:ground+swamp", "clearance:ground+swamp",
                            "clearance:ground+swamp+water", "jps_sized", "view:ground+swamp", "hier"};
    for (size_t i = 0; i < 7; i++)
        ck_assert_str_eq(json_string_value(json_object_get(json_array_get(t, i), "name")), names[i]);
    json_decref(j);
}
END_TEST

START_TEST(weighted_optimum)
{
    /* Round the swamp on row 0: 6 straight steps and 2 diagonals (crossing would cost 14). */
    const char *algs[] = {"astar", "auto"};
    for (int i = 0; i < 2; i++) {
        char body[512];
        snprintf(body, sizeof body,
                 "{\"map\":\"marsh\",\"start\":{\"x\":0.5,\"y\":1.5},\"goal\":{\"x\":8.5,\"y\":1.5},"
                 "\"search\":{\"algorithm\":\"%s\",\"smoothing\":\"none\"}}",
                 algs[i]);
        json_t *j = post("/v1/path", body, 200);
        ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
        ck_assert_double_eq_tol(json_number_value(json_object_get(j, "grid_cost")), 6.0 + 2.0 * M_SQRT2, 1e-12);
        json_decref(j);
    }
    /* From water to water with A*: leave it straight up (3.5), the land optimum, back down (3.5). */
    json_t *j = post("/v1/path",
                     "{\"map\":\"marsh\",\"start\":{\"x\":0.5,\"y\":2.5},\"goal\":{\"x\":8.5,\"y\":2.5},"
                     "\"search\":{\"algorithm\":\"astar\"}}",
                     200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert_double_eq_tol(json_number_value(json_object_get(j, "grid_cost")), 13.0 + 2.0 * M_SQRT2, 1e-12);
    json_decref(j);
    /* A turning unit (auto: Directional24, each curve weighed by the dearest terrain it touches) leaves the
     * water too: cheaper than the 8 water tiles straight along (8 x 6 = 48), never cheaper than its length. */
    j = post("/v1/path",
             "{\"map\":\"marsh\",\"start\":{\"x\":0.5,\"y\":2.5},\"goal\":{\"x\":8.5,\"y\":2.5},"
             "\"unit\":{\"turning_radius\":0.5}}",
             200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert(json_is_true(json_object_get(j, "clear")));
    double cost = json_number_value(json_object_get(j, "grid_cost")), len = json_number_value(json_object_get(j, "length"));
    ck_assert_msg(cost < 48.0 && cost >= len - 1e-4, "cost %g, length %g", cost, len);
    json_decref(j);
}
END_TEST

START_TEST(invalid_algorithms_refused)
{
    const char *algs[] = {"jps", "jps_plus", "hybrid"}; /* the directional searches weigh curves by terrain */
    for (int i = 0; i < 3; i++) {
        char body[512];
        snprintf(body, sizeof body,
                 "{\"map\":\"marsh\",\"start\":{\"x\":0.5,\"y\":1.5},\"goal\":{\"x\":8.5,\"y\":1.5},"
                 "\"unit\":{\"turning_radius\":1},\"search\":{\"algorithm\":\"%s\"}}",
                 algs[i]);
        json_t *j = post("/v1/path", body, 400);
        json_t *e = json_object_get(j, "error");
        ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "invalid_request");
        ck_assert_str_eq(json_string_value(json_object_get(e, "field")), "search.algorithm");
        ck_assert_msg(strstr(json_string_value(json_object_get(e, "message")), "terrain costs") != NULL, "%s",
                      json_string_value(json_object_get(e, "message")));
        json_decref(j);
    }
    /* In a batch the refusal is per item; the A* item next to it is answered. */
    json_t *j = post("/v1/paths",
                     "{\"map\":\"marsh\",\"queries\":["
                     "{\"start\":{\"x\":0.5,\"y\":1.5},\"goal\":{\"x\":8.5,\"y\":1.5},\"search\":{\"algorithm\":\"jps\"}},"
                     "{\"start\":{\"x\":0.5,\"y\":1.5},\"goal\":{\"x\":8.5,\"y\":1.5},\"search\":{\"algorithm\":\"astar\"}}]}",
                     200);
    json_t *res = json_object_get(j, "results");
    ck_assert_uint_eq(json_array_size(res), 2);
    json_t *e0 = json_object_get(json_array_get(res, 0), "error");
    ck_assert_str_eq(json_string_value(json_object_get(e0, "code")), "invalid_request");
    ck_assert_str_eq(json_string_value(json_object_get(e0, "field")), "search.algorithm");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(res, 1), "status")), "ok");
    ck_assert_double_eq_tol(json_number_value(json_object_get(json_array_get(res, 1), "grid_cost")),
                            6.0 + 2.0 * M_SQRT2, 1e-12);
    json_decref(j);
}
END_TEST

START_TEST(check_config_shows_costs)
{
    static char out[65536];
    const char *args[] = {"--check-config", "--maps", sd.dir, "--config", sd.conf, NULL};
    ck_assert_int_eq(ap_run_cli(args, 1, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "marsh 9x3, 27 passable cells, 1 regions, terrain costs . 1 G 1 S 3 W 6") != NULL,
                  "%s", out);
    ck_assert_msg(strstr(out, "\"terrain_costs.nosuchmap\": no map with this id is loaded") != NULL, "%s", out);
    /* a bad cost is a config error naming the entry */
    ap_write_file(sd.conf, "{\"terrain_costs\": {\"marsh\": {\"S\": 0.5}}}");
    ck_assert_int_eq(ap_run_cli(args, 1, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "\"terrain_costs.marsh.S\"") != NULL, "%s", out);
    ap_write_file(sd.conf, CONF);
    /* an entry for a circle map (it has no terrains): a warning, not silence; its scale is taken (no warning) */
    static const char *const circ[] = {"--check-config", "--maps", "config/maps", "--config", NULL, NULL};
    char *conf = ap_test_temp_file("arcpath-circle-costs", "{\"terrain_costs\": {\"forest\": {\"S\": 3}}, "
                                                          "\"meters_per_tile\": {\"forest\": 2}, \"skip_tables\": "
                                                          "{\"forest\": [\"hier\"], \"arena\": [\"hier\"], \"nosuch\": []}}");
    ck_assert_ptr_nonnull(conf);
    const char *cargs[6];
    memcpy(cargs, circ, sizeof cargs);
    cargs[4] = conf;
    ck_assert_int_eq(ap_run_cli(cargs, 1, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "\"terrain_costs.forest\": a circle map has no terrains") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "meters_per_tile.forest") == NULL, "%s", out);
    /* skip_tables' per-map entries: a circle map has none of the grid's tables, nosuch is not loaded; arena's
     * entry is taken (no warning) */
    ck_assert_msg(strstr(out, "\"skip_tables.forest\": a circle map has none of the grid's tables") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\"skip_tables.nosuch\": no map with this id is loaded") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "skip_tables.arena") == NULL, "%s", out);
    unlink(conf);
    free(conf);
}
END_TEST

Suite *terrain_suite(void)
{
    Suite *s = suite_create("terrain");
    TCase *tc = tcase_create("terrain");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_add_test(tc, map_info_lists_costs);
    tcase_add_test(tc, weighted_optimum);
    tcase_add_test(tc, invalid_algorithms_refused);
    tcase_add_test(tc, check_config_shows_costs);
    suite_add_tcase(s, tc);
    return s;
}
