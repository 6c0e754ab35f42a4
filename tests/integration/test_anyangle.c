/* test_anyangle.c — search.algorithm "any_angle" end to end: exact lengths on hand-computed geometry (a
 * point unit round one blocked square, a disc round its corners, a disc round one circle of a circle map),
 * the shared "any_angle" table in GET /v1/maps/{id}, circle maps in GET /v1/maps (kind) and their loader's
 * errors, refusals with their field, batches; on the Moving AI server, sampled scenario lines of
 * den520d and arena2: any_angle never longer than the smoothed auto answer, never shorter than the straight
 * line, always clear. */
#include "tests/check_fast.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../util.h"
#include "harness.h"

Suite *anyangle_suite(void);

/* 6 x 5 open map with the one blocked square (2, 2). */
static const char SQUARE[] = "type octile\nheight 5\nwidth 6\nmap\n......\n......\n..@...\n......\n......\n";

/* A 12 x 10 world with one circle of radius 1 at (5, 5) and a small one in a corner. */
static const char RING[] = "{\"width\": 12, \"height\": 10,\n \"circles\": [{\"x\": 5, \"y\": 5, \"r\": 1},\n"
                           "  {\"x\": 11, \"y\": 1, \"r\": 0.5}]}\n";

/* 10 x 10, open. */
static const char OPEN[] = "type octile\nheight 10\nwidth 10\nmap\n..........\n..........\n..........\n..........\n"
                           "..........\n..........\n..........\n..........\n..........\n..........\n";

/* 30 x 30 with a 4 x 4 block at cells [6, 10) x [6, 10) (its corner C = (10, 10)); 40 x 41 with a wall
 * across row 20 but for a gap of two cells (x in [19, 21)). Written by setup. */
static char corner_map[1024], gap_map[1800];

static char dir[64], square_path[128], ring_path[128], open_path[128], corner_path[128], gap_path[128];
static ap_srv srv;

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/arcpath-anyangle-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(square_path, sizeof square_path, "%s/square.map", dir);
    ap_write_file(square_path, SQUARE);
    snprintf(ring_path, sizeof ring_path, "%s/ring.circles.json", dir);
    ap_write_file(ring_path, RING);
    snprintf(open_path, sizeof open_path, "%s/open.map", dir);
    ap_write_file(open_path, OPEN);
    int k = snprintf(corner_map, sizeof corner_map, "type octile\nheight 30\nwidth 30\nmap\n");
    for (int y = 0; y < 30; y++, corner_map[k++] = '\n')
        for (int x = 0; x < 30; x++)
            corner_map[k++] = x >= 6 && x < 10 && y >= 6 && y < 10 ? '@' : '.';
    corner_map[k] = '\0';
    snprintf(corner_path, sizeof corner_path, "%s/corner.map", dir);
    ap_write_file(corner_path, corner_map);
    k = snprintf(gap_map, sizeof gap_map, "type octile\nheight 41\nwidth 40\nmap\n");
    for (int y = 0; y < 41; y++, gap_map[k++] = '\n')
        for (int x = 0; x < 40; x++)
            gap_map[k++] = y == 20 && (x < 19 || x >= 21) ? '@' : '.';
    gap_map[k] = '\0';
    snprintf(gap_path, sizeof gap_path, "%s/gap.map", dir);
    ap_write_file(gap_path, gap_map);
    ck_assert_int_eq(ap_srv_start(&srv, dir, NULL, NULL), 0);
}

static void teardown(void)
{
    ck_assert_int_eq(ap_srv_stop(&srv), 0);
    unlink(square_path);
    unlink(ring_path);
    unlink(open_path);
    unlink(corner_path);
    unlink(gap_path);
    rmdir(dir);
}

/* POST body to path on s; returns the parsed JSON answer and checks the HTTP status. */
static json_t *post_on(const ap_srv *s, const char *path, const char *body, long want_status)
{
    ap_resp r;
    ck_assert_int_eq(ap_post(s, path, body, &r), 0);
    ck_assert_msg(r.status == want_status, "status %ld, want %ld: %s", r.status, want_status, r.body);
    json_t *j = ap_resp_json(&r);
    ap_resp_free(&r);
    ck_assert_ptr_nonnull(j);
    return j;
}

/* An error answer's field and code. */
static void expect_error(json_t *j, const char *code, const char *field)
{
    json_t *e = json_object_get(j, "error");
    ck_assert_str_eq(json_string_value(json_object_get(e, "code")), code);
    ck_assert_str_eq(json_string_value(json_object_get(e, "field")), field);
}

/* POST body to /v1/path on the fixture's server: refused with HTTP status, code and field. */
static void refused(const char *body, long status, const char *code, const char *field)
{
    json_t *j = post_on(&srv, "/v1/path", body, status);
    expect_error(j, code, field);
    json_decref(j);
}

START_TEST(point_and_disc_round_a_square)
{
    /* Corner to corner over the square's top: 2 sqrt(0.5) + 1 = 1 + sqrt 2 (three lines). */
    json_t *j = post_on(&srv, "/v1/path",
                        "{\"map\":\"square\",\"start\":{\"x\":1.5,\"y\":2.5},\"goal\":{\"x\":3.5,\"y\":2.5},"
                        "\"search\":{\"algorithm\":\"any_angle\"}}",
                        200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert_double_eq_tol(ap_jnum(j, "length"), 1.0 + M_SQRT2, 1e-12);
    ck_assert(json_is_true(json_object_get(j, "clear")));
    ck_assert_uint_eq(json_array_size(json_object_get(j, "segments")), 3);
    json_decref(j);
    /* A disc of radius 0.25: two tangents, two arcs of radius 0.25, the line of length 1 between them. */
    j = post_on(&srv, "/v1/path",
                "{\"map\":\"square\",\"start\":{\"x\":1.5,\"y\":2.5},\"goal\":{\"x\":3.5,\"y\":2.5},"
                "\"unit\":{\"radius\":0.25},\"search\":{\"algorithm\":\"any_angle\"}}",
                200);
    const double rr = 0.25, d = sqrt(0.5);
    ck_assert_double_eq_tol(ap_jnum(j, "length"),
                            2.0 * sqrt(d * d - rr * rr) + 2.0 * rr * (0.75 * M_PI - acos(rr / d)) + 1.0, 1e-9);
    json_t *segs = json_object_get(j, "segments");
    ck_assert_uint_eq(json_array_size(segs), 5);
    json_t *arc = json_array_get(segs, 1);
    ck_assert_str_eq(json_string_value(json_object_get(arc, "type")), "arc");
    ck_assert_double_eq_tol(ap_jnum(arc, "radius"), 0.25, 1e-12);
    ck_assert(json_is_true(json_object_get(j, "clear")));
    json_decref(j);
}
END_TEST

START_TEST(table_listed_and_refusals)
{
    ap_resp r;
    ck_assert_int_eq(ap_http(&srv, "GET", "/v1/maps/square", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    json_t *j = ap_resp_json(&r);
    ap_resp_free(&r);
    json_t *tables = json_object_get(j, "tables"), *aa = NULL;
    for (size_t i = 0; i < json_array_size(tables); i++)
        if (strcmp(json_string_value(json_object_get(json_array_get(tables, i), "name")), "any_angle") == 0)
            aa = json_array_get(tables, i);
    ck_assert_ptr_nonnull(aa);
    ck_assert_int_eq((int)ap_jnum(aa, "corners"), 4); /* the square's four corners */
    ck_assert(ap_jnum(aa, "bytes") > 0);
    json_decref(j);
    /* A turn penalty: refused, never silently ignored (no headings in the cost, turning units included). */
    refused("{\"map\":\"square\",\"start\":{\"x\":1.5,\"y\":2.5},\"goal\":{\"x\":3.5,\"y\":2.5},"
                "\"unit\":{\"turning_radius\":1},\"search\":{\"algorithm\":\"any_angle\",\"turn_penalty\":1}}",
            400, "invalid_request", "search.turn_penalty");
    refused("{\"map\":\"square\",\"start\":{\"x\":1.5,\"y\":2.5},\"goal\":{\"x\":3.5,\"y\":2.5},"
                "\"search\":{\"algorithm\":\"any_angle\",\"connectivity\":4}}",
            400, "invalid_request", "search.algorithm");
}
END_TEST

START_TEST(batch_goes_the_same_way)
{
    json_t *j = post_on(&srv, "/v1/paths",
                        "{\"map\":\"square\",\"queries\":["
                        "{\"start\":{\"x\":1.5,\"y\":2.5},\"goal\":{\"x\":3.5,\"y\":2.5},\"search\":{\"algorithm\":\"any_angle\"}},"
                        "{\"start\":{\"x\":0.5,\"y\":0.5},\"goal\":{\"x\":5.5,\"y\":0.5},\"search\":{\"algorithm\":\"any_angle\"}},"
                        "{\"start\":{\"x\":1.5,\"y\":2.5},\"goal\":{\"x\":3.5,\"y\":2.5},\"unit\":{\"turning_radius\":2},"
                        "\"search\":{\"algorithm\":\"any_angle\"}}]}",
                        200);
    json_t *res = json_object_get(j, "results");
    ck_assert_uint_eq(json_array_size(res), 3);
    ck_assert_double_eq_tol(ap_jnum(json_array_get(res, 0), "length"), 1.0 + M_SQRT2, 1e-12);
    ck_assert_double_eq_tol(ap_jnum(json_array_get(res, 1), "length"), 5.0, 1e-12);
    /* a turning unit (rho = 2) finds no bend round the square within the 6 x 5 map: not_found */
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(res, 2), "status")), "no_path");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(res, 2), "reason")), "not_found");
    json_decref(j);
}
END_TEST

/* A JSON segment's heading at its start and at its end. */
static double seg_heading(json_t *seg, bool at_end)
{
    if (strcmp(json_string_value(json_object_get(seg, "type")), "line") == 0)
        return ap_jnum(seg, "heading");
    return ap_jnum(seg, "start_heading") + (at_end ? ap_jnum(seg, "sweep") : 0.0);
}

static double wrap_diff(double a, double b)
{
    return fabs(remainder(a - b, 2.0 * M_PI));
}

/* Every arc of radius >= R, consecutive segments joined in position and heading (G1). */
static void check_g1(json_t *segs, double R)
{
    for (size_t i = 0; i < json_array_size(segs); i++) {
        json_t *s = json_array_get(segs, i);
        if (strcmp(json_string_value(json_object_get(s, "type")), "arc") == 0)
            ck_assert_double_ge(ap_jnum(s, "radius"), R - 1e-9);
        if (i == 0)
            continue;
        json_t *p = json_array_get(segs, i - 1), *pe = json_object_get(p, "end"), *ss = json_object_get(s, "start");
        ck_assert_double_le(hypot(json_number_value(json_array_get(pe, 0)) - json_number_value(json_array_get(ss, 0)),
                                  json_number_value(json_array_get(pe, 1)) - json_number_value(json_array_get(ss, 1))),
                            1e-9);
        ck_assert_double_le(wrap_diff(seg_heading(p, true), seg_heading(s, false)), 1e-6);
    }
}

START_TEST(turning_units)
{
    /* Round the block's corner (10, 10) with turning radius 2: along y = 12, a quarter circle of radius
     * exactly 2 about the corner, up to the goal: 4 + pi (end headings the path's own: nothing joined). */
    json_t *j = post_on(&srv, "/v1/path",
                        "{\"map\":\"corner\",\"start\":{\"x\":8,\"y\":12,\"heading\":0},"
                        "\"goal\":{\"x\":12,\"y\":8,\"heading\":-1.5707963267948966},"
                        "\"unit\":{\"radius\":0.3,\"turning_radius\":2},\"search\":{\"algorithm\":\"any_angle\"}}",
                        200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert_double_eq_tol(ap_jnum(j, "length"), 4.0 + M_PI, 1e-9);
    ck_assert(json_is_true(json_object_get(j, "clear")));
    json_t *segs = json_object_get(j, "segments");
    ck_assert_uint_eq(json_array_size(segs), 3);
    json_t *arc = json_array_get(segs, 1);
    ck_assert_double_eq_tol(ap_jnum(arc, "radius"), 2.0, 1e-12);
    ck_assert_double_eq_tol(json_number_value(json_array_get(json_object_get(arc, "center"), 0)), 10.0, 1e-9);
    check_g1(segs, 2.0);
    json_decref(j);
    /* Headings at both ends: honoured by curves joined to the path. */
    j = post_on(&srv, "/v1/path",
                "{\"map\":\"corner\",\"start\":{\"x\":8,\"y\":16,\"heading\":3.14159265358979},"
                "\"goal\":{\"x\":16,\"y\":8,\"heading\":1.5707963267949},"
                "\"unit\":{\"radius\":0.3,\"turning_radius\":2},\"search\":{\"algorithm\":\"any_angle\"}}",
                200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert(json_is_true(json_object_get(j, "clear")));
    segs = json_object_get(j, "segments");
    const size_t n = json_array_size(segs);
    ck_assert_uint_ge(n, 4);
    check_g1(segs, 2.0);
    ck_assert_double_le(wrap_diff(seg_heading(json_array_get(segs, 0), false), 3.14159265358979), 1e-6);
    ck_assert_double_le(wrap_diff(seg_heading(json_array_get(segs, n - 1), true), 1.5707963267949), 1e-6);
    json_decref(j);
    /* Through the two-cell gap and sharply left: no bend fits (not_found); auto's legal turns answer. */
    const char *gap = "{\"map\":\"gap\",\"start\":{\"x\":20,\"y\":5.5},\"goal\":{\"x\":5.5,\"y\":27.5},"
                      "\"unit\":{\"radius\":0.3,\"turning_radius\":2},\"search\":{\"algorithm\":\"%s\"}}";
    char body[512];
    snprintf(body, sizeof body, gap, "any_angle");
    j = post_on(&srv, "/v1/path", body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "no_path");
    ck_assert_str_eq(json_string_value(json_object_get(j, "reason")), "not_found");
    json_decref(j);
    snprintf(body, sizeof body, gap, "auto");
    j = post_on(&srv, "/v1/path", body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert(json_is_true(json_object_get(j, "clear")));
    json_decref(j);
}
END_TEST

/* The length round one circle of radius R from S to G when its centre is on SG at distance d from both. */
static double round_one_circle(double d, double R)
{
    return 2.0 * sqrt(d * d - R * R) + R * (M_PI - 2.0 * acos(R / d));
}

START_TEST(circle_maps)
{
    /* Listed with their kind, beside the grid, in id order. */
    ap_resp r;
    ck_assert_int_eq(ap_http(&srv, "GET", "/v1/maps", NULL, 0, NULL, &r), 0);
    json_t *j = ap_resp_json(&r);
    ap_resp_free(&r);
    json_t *maps = json_object_get(j, "maps");
    ck_assert_uint_eq(json_array_size(maps), 5); /* corner, gap, open, ring, square */
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(maps, 3), "id")), "ring");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(maps, 3), "kind")), "circles");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(maps, 2), "kind")), "grid");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(maps, 4), "kind")), "grid");
    json_decref(j);
    ck_assert_int_eq(ap_http(&srv, "GET", "/v1/maps/ring", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    j = ap_resp_json(&r);
    ap_resp_free(&r);
    ck_assert_double_eq(ap_jnum(j, "width"), 12.0);
    ck_assert_double_eq(ap_jnum(j, "height"), 10.0);
    ck_assert_int_eq((int)ap_jnum(j, "circles"), 2);
    json_decref(j);
    ck_assert_int_eq(ap_http(&srv, "GET", "/v1/maps/ring/cells", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 404);
    ap_resp_free(&r);
    /* A disc of radius 0.25 round the circle of radius 1: two tangents and the arc of radius 1.25; auto
     * runs any_angle there. */
    for (int a = 0; a < 2; a++) {
        char body[256];
        snprintf(body, sizeof body,
                 "{\"map\":\"ring\",\"start\":{\"x\":1.5,\"y\":5},\"goal\":{\"x\":8.5,\"y\":5},"
                 "\"unit\":{\"radius\":0.25},\"search\":{\"algorithm\":\"%s\"}}", a ? "auto" : "any_angle");
        j = post_on(&srv, "/v1/path", body, 200);
        ck_assert_str_eq(json_string_value(json_object_get(j, "map")), "ring");
        ck_assert_double_eq_tol(ap_jnum(j, "length"), round_one_circle(3.5, 1.25), 1e-9);
        json_t *segs = json_object_get(j, "segments");
        ck_assert_uint_eq(json_array_size(segs), 3);
        ck_assert_double_eq_tol(ap_jnum(json_array_get(segs, 1), "radius"), 1.25, 1e-12);
        ck_assert(json_is_true(json_object_get(j, "clear")));
        json_decref(j);
    }
    /* Grid searches are refused with the reason; points inside a circle are blocked. */
    refused("{\"map\":\"ring\",\"start\":{\"x\":1.5,\"y\":5},\"goal\":{\"x\":8.5,\"y\":5},"
                "\"search\":{\"algorithm\":\"astar\"}}",
            400, "invalid_request", "search.algorithm");
    refused("{\"map\":\"ring\",\"start\":{\"x\":1.5,\"y\":5},\"goal\":{\"x\":5.5,\"y\":5}}",
            422, "goal_blocked", "goal");
    /* A batch on a circle map. */
    j = post_on(&srv, "/v1/paths",
                "{\"map\":\"ring\",\"queries\":[{\"start\":{\"x\":1.5,\"y\":5},\"goal\":{\"x\":8.5,\"y\":5}},"
                "{\"start\":{\"x\":1,\"y\":1},\"goal\":{\"x\":4,\"y\":1}}]}",
                200);
    json_t *res = json_object_get(j, "results");
    ck_assert_double_eq_tol(ap_jnum(json_array_get(res, 0), "length"), round_one_circle(3.5, 1.0), 1e-9);
    ck_assert_double_eq_tol(ap_jnum(json_array_get(res, 1), "length"), 3.0, 1e-12);
    json_decref(j);
}
END_TEST

/* Per-request obstacles: on a grid map and on a circle map, for this query only. */
START_TEST(obstacles_per_request)
{
    static const char *const algs[] = {"any_angle", "auto"};
    for (int a = 0; a < 2; a++) {
        char body[512];
        snprintf(body, sizeof body,
                 "{\"map\":\"open\",\"start\":{\"x\":1.5,\"y\":5},\"goal\":{\"x\":8.5,\"y\":5},"
                 "\"search\":{\"algorithm\":\"%s\"},\"obstacles\":[{\"x\":5,\"y\":5,\"r\":1}]}", algs[a]);
        json_t *j = post_on(&srv, "/v1/path", body, 200);
        ck_assert_double_eq_tol(ap_jnum(j, "length"), round_one_circle(3.5, 1.0), 1e-9);
        ck_assert(json_is_true(json_object_get(j, "clear")));
        json_decref(j);
    }
    /* The next query without obstacles: the straight line (nothing stays behind). */
    json_t *j = post_on(&srv, "/v1/path",
                        "{\"map\":\"open\",\"start\":{\"x\":1.5,\"y\":5},\"goal\":{\"x\":8.5,\"y\":5},"
                        "\"search\":{\"algorithm\":\"any_angle\"}}",
                        200);
    ck_assert_double_eq_tol(ap_jnum(j, "length"), 7.0, 1e-12);
    json_decref(j);
    /* A circle map: an obstacle over the upper way round its circle; the lower one, as long. */
    j = post_on(&srv, "/v1/path",
                "{\"map\":\"ring\",\"start\":{\"x\":1.5,\"y\":5},\"goal\":{\"x\":8.5,\"y\":5},"
                "\"unit\":{\"radius\":0.25},\"obstacles\":[{\"x\":5,\"y\":3,\"r\":1}]}",
                200);
    ck_assert_double_eq_tol(ap_jnum(j, "length"), round_one_circle(3.5, 1.25), 1e-9);
    json_t *w = json_object_get(j, "waypoints");
    for (size_t i = 0; i < json_array_size(w); i++)
        ck_assert(json_number_value(json_array_get(json_array_get(w, i), 1)) >= 5.0 - 1e-9);
    json_decref(j);
    /* Refusals: the grid searches, a bad value named by its path. */
    refused("{\"map\":\"open\",\"start\":{\"x\":1.5,\"y\":5},\"goal\":{\"x\":8.5,\"y\":5},"
            "\"search\":{\"algorithm\":\"astar\"},\"obstacles\":[{\"x\":5,\"y\":5,\"r\":1}]}",
            400, "invalid_request", "obstacles");
    refused("{\"map\":\"open\",\"start\":{\"x\":1.5,\"y\":5},\"goal\":{\"x\":8.5,\"y\":5},"
            "\"obstacles\":[{\"x\":5,\"y\":5,\"r\":1},{\"x\":5,\"y\":5,\"r\":0}]}",
            400, "invalid_request", "obstacles[1].r");
    /* A batch: each query its own obstacles. */
    j = post_on(&srv, "/v1/paths",
                "{\"map\":\"open\",\"queries\":[{\"start\":{\"x\":1.5,\"y\":5},\"goal\":{\"x\":8.5,\"y\":5},"
                "\"obstacles\":[{\"x\":5,\"y\":5,\"r\":1}]},{\"start\":{\"x\":1.5,\"y\":5},\"goal\":{\"x\":8.5,"
                "\"y\":5},\"search\":{\"algorithm\":\"any_angle\"}}]}",
                200);
    json_t *res = json_object_get(j, "results");
    ck_assert_double_eq_tol(ap_jnum(json_array_get(res, 0), "length"), round_one_circle(3.5, 1.0), 1e-9);
    ck_assert_double_eq_tol(ap_jnum(json_array_get(res, 1), "length"), 7.0, 1e-12);
    json_decref(j);
}
END_TEST

/* A point start or goal where obstacles touch with no gap between them is refused (422), as the grid's
 * corner two blocked cells share diagonally is: a circle tangent to a blocked square's side, two touching
 * circles, a circle touching the map's edge. Helpers' cases answered no_path "unreachable" after a search
 * (the point was taken and every line from it refused). So is a circle touching a square's corner from
 * outside (every line from that point has the two obstacles within 1e-9 on opposite sides: it answered a
 * detour or no_path); a circle that crosses the square there leaves the corner a corner of free space. */
START_TEST(points_where_obstacles_touch)
{
    /* square: the blocked square [2, 3] x [2, 3]; a circle of radius 0.5 tangent to its right side at
     * (3, 2.5), and one tangent to its bottom side at (2.5, 3) (the points' own cells are free) */
    refused("{\"map\":\"square\",\"start\":{\"x\":3,\"y\":2.5},\"goal\":{\"x\":5.5,\"y\":4.5},"
            "\"search\":{\"algorithm\":\"any_angle\"},\"obstacles\":[{\"x\":3.5,\"y\":2.5,\"r\":0.5}]}",
            422, "start_blocked", "start");
    refused("{\"map\":\"square\",\"start\":{\"x\":0.5,\"y\":0.5},\"goal\":{\"x\":2.5,\"y\":3},"
            "\"search\":{\"algorithm\":\"any_angle\"},\"obstacles\":[{\"x\":2.5,\"y\":3.5,\"r\":0.5}]}",
            422, "goal_blocked", "goal");
    /* two circles touching at (4, 5); a circle touching the map's top edge at (5, 0) */
    refused("{\"map\":\"open\",\"start\":{\"x\":4,\"y\":5},\"goal\":{\"x\":8.5,\"y\":8.5},"
            "\"search\":{\"algorithm\":\"any_angle\"},\"obstacles\":[{\"x\":3,\"y\":5,\"r\":1},"
            "{\"x\":5,\"y\":5,\"r\":1}]}",
            422, "start_blocked", "start");
    refused("{\"map\":\"open\",\"start\":{\"x\":5,\"y\":0},\"goal\":{\"x\":8.5,\"y\":8.5},"
            "\"search\":{\"algorithm\":\"any_angle\"},\"obstacles\":[{\"x\":5,\"y\":1,\"r\":1}]}",
            422, "start_blocked", "start");
    /* a circle touching the square's corner (3, 3) from the lower right (it answered a 5.79-tile detour where
     * 2.92 is clear), and one touching the corner (3, 2) from the upper right (it answered no_path) */
    refused("{\"map\":\"square\",\"start\":{\"x\":3,\"y\":3},\"goal\":{\"x\":4.5,\"y\":0.5},"
            "\"search\":{\"algorithm\":\"any_angle\"},\"obstacles\":[{\"x\":3.5,\"y\":3.5,"
            "\"r\":0.7071067811865476}]}",
            422, "start_blocked", "start");
    refused("{\"map\":\"square\",\"start\":{\"x\":5.5,\"y\":4.5},\"goal\":{\"x\":3,\"y\":2},"
            "\"search\":{\"algorithm\":\"any_angle\"},\"obstacles\":[{\"x\":6,\"y\":-2,\"r\":5}]}",
            422, "goal_blocked", "goal");
    /* a circle tangent to the square's side line at its corner (3, 3), its normal along x: one free wedge,
     * answered straight along the square's edge (2.5 tiles) */
    json_t *w = post_on(&srv, "/v1/path",
                        "{\"map\":\"square\",\"start\":{\"x\":3,\"y\":3},\"goal\":{\"x\":0.5,\"y\":3},"
                        "\"search\":{\"algorithm\":\"any_angle\"},\"obstacles\":[{\"x\":3.7,\"y\":3,\"r\":0.7}]}",
                        200);
    ck_assert_str_eq(json_string_value(json_object_get(w, "status")), "ok");
    ck_assert_double_eq_tol(ap_jnum(w, "length"), 2.5, 1e-9);
    json_decref(w);
    /* a circle through the corner (3, 3) that crosses the square: the corner is free space's, answered */
    json_t *j = post_on(&srv, "/v1/path",
                        "{\"map\":\"square\",\"start\":{\"x\":3,\"y\":3},\"goal\":{\"x\":4.5,\"y\":4.5},"
                        "\"search\":{\"algorithm\":\"any_angle\"},\"obstacles\":[{\"x\":2.4,\"y\":1.4,"
                        "\"r\":1.7088007490635062}]}",
                        200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert_double_eq_tol(ap_jnum(j, "length"), hypot(1.5, 1.5), 1e-9);
    json_decref(j);
}
END_TEST

START_TEST(circle_map_errors_are_reported)
{
    static char err[65536];
    char d[] = "/tmp/arcpath-circles-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(d));
    char p1[256], p2[256], p3[256];
    snprintf(p1, sizeof p1, "%s/syntax.circles.json", d);
    ap_write_file(p1, "{\"width\": 10,\n \"height\": 10,\n \"circles\": [}\n");
    snprintf(p2, sizeof p2, "%s/value.circles.json", d);
    ap_write_file(p2, "{\"width\": 10, \"height\": 10, \"circles\": [{\"x\": 1, \"y\": 1, \"r\": 1},"
                      " {\"x\": 1, \"y\": 1, \"r\": -2}]}");
    snprintf(p3, sizeof p3, "%s/good.circles.json", d);
    ap_write_file(p3, RING);
    const char *args[] = {"--check-config", "--maps", d, NULL};
    ck_assert_int_eq(ap_run_cli(args, 0, err, sizeof err), 1);
    ck_assert_msg(strstr(err, "syntax.circles.json:3:") != NULL, "no line and column: %s", err);
    ck_assert_msg(strstr(err, "circles[1].r") != NULL, "no JSON path: %s", err);
    unlink(p1);
    unlink(p2);
    unlink(p3);
    rmdir(d);
}
END_TEST

/* The Moving AI server: sampled scenario lines of den520d and arena2. */
START_TEST(movingai_no_longer_than_auto)
{
    if (ap_mai_srv == NULL) {
        ap_test_skip_no_data("integration any_angle on Moving AI maps");
        return;
    }
    const char *maps[] = {"den520d", "arena2"};
    const size_t want = ap_test_quick() ? 8 : 25;
    for (size_t mi = 0; mi < 2; mi++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.map.scen", ap_mai_dir, maps[mi]);
        ap_test_scen *sc;
        size_t n;
        ck_assert_int_eq(ap_test_load_scen(path, &sc, &n), 0);
        size_t step = n / want > 0 ? n / want : 1, done = 0;
        for (size_t i = 0; i < n && done < want; i += step, done++) {
            const ap_test_scen *s = &sc[i];
            double len[2];
            for (int a = 0; a < 2; a++) {
                char body[512];
                snprintf(body, sizeof body,
                         "{\"map\":\"%s\",\"start\":{\"x\":%g,\"y\":%g},\"goal\":{\"x\":%g,\"y\":%g},"
                         "\"search\":{\"algorithm\":\"%s\"}}",
                         maps[mi], s->sx + 0.5, s->sy + 0.5, s->gx + 0.5, s->gy + 0.5, a ? "auto" : "any_angle");
                json_t *j = post_on(ap_mai_srv, "/v1/path", body, 200);
                ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
                ck_assert(json_is_true(json_object_get(j, "clear")));
                len[a] = ap_jnum(j, "length");
                json_decref(j);
            }
            ck_assert_msg(len[0] <= len[1] + 1e-9, "%s line %d: any_angle %.9f > auto %.9f", maps[mi], s->line,
                          len[0], len[1]);
            ck_assert(len[0] >= hypot(s->gx - s->sx, s->gy - s->sy) - 1e-9);
        }
        ck_assert_uint_eq(done, want);
        free(sc);
    }
}
END_TEST

/* random512-10-0 has no any_angle table (its point graph would hold 5.8 M lines): a query builds a lazy graph
 * whose expansions take milliseconds each. Its fast slice ends on AP_LANE_FAST_SLICE_NS rather than
 * fast_budget expansions (2,000: seconds), so the search moves to the slow lane and is sliced there; and
 * the deadline is read before every expansion, so the answer comes at the deadline. Without the slice's
 * time bound the whole search ran in the fast lane ("lane": "fast"). The same item in a batch. */
START_TEST(lazy_graph_search_is_sliced)
{
    if (ap_mai_srv == NULL) {
        ap_test_skip_no_data("integration any_angle on Moving AI maps");
        return;
    }
    /* 300 ms; 3 s under a slow build (ARCPATH_TEST_START_S: ThreadSanitizer's), where the lazy graph's set-up
     * before the first expansion once took the whole 300 ms in the fast lane (answered timeout, "fast") */
    const int deadline = getenv("ARCPATH_TEST_START_S") != NULL ? 3000 : 300;
    char body[512];
    snprintf(body, sizeof body,
             "{\"map\":\"random512-10-0\",\"start\":{\"x\":251.5,\"y\":36.5},"
             "\"goal\":{\"x\":156.5,\"y\":501.5},\"search\":{\"algorithm\":\"any_angle\"},"
             "\"deadline_ms\":%d}",
             deadline);
    json_t *j = post_on(ap_mai_srv, "/v1/path", body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "timeout");
    json_t *stats = json_object_get(j, "stats");
    ck_assert_str_eq(json_string_value(json_object_get(stats, "lane")), "slow");
    ck_assert_int_gt(json_integer_value(json_object_get(stats, "expanded")), 1);
    json_decref(j);
    /* In a batch alike: a short A* item answers on the fast lane, the lazy any_angle item outgrows the fast
     * slice's time and takes the batch to the slow lane, where the batch's deadline stops it. */
    snprintf(body, sizeof body,
             "{\"map\":\"random512-10-0\",\"deadline_ms\":%d,\"queries\":["
             "{\"start\":{\"x\":251.5,\"y\":36.5},\"goal\":{\"x\":261.5,\"y\":46.5},"
             "\"search\":{\"algorithm\":\"astar\"}},"
             "{\"start\":{\"x\":251.5,\"y\":36.5},\"goal\":{\"x\":156.5,\"y\":501.5},"
             "\"search\":{\"algorithm\":\"any_angle\"}}]}",
             deadline);
    j = post_on(ap_mai_srv, "/v1/paths", body, 200);
    json_t *res = json_object_get(j, "results");
    ck_assert_uint_eq(json_array_size(res), 2);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(res, 0), "status")), "ok");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(json_array_get(res, 0), "stats"), "lane")),
                     "fast");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(res, 1), "status")), "timeout");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(json_array_get(res, 1), "stats"), "lane")),
                     "slow");
    json_decref(j);
}
END_TEST

/* A turning unit's graph on Aftershock (3,728 corners, some 2.5 s to build) asked for with 100 ms deadlines:
 * the first query gives the build 75 ms and answers timeout in time; the server finishes the build off the
 * query path (server/tablework.h), so a query some seconds later, with none in between, finds the graph and
 * answers ok. Polled every 4 s for up to 60 s: the polls' own 75 ms each (at most 1.1 s) cannot build it. */
START_TEST(graph_build_finished_off_the_query_path)
{
    if (ap_mai_srv == NULL) {
        ap_test_skip_no_data("integration any_angle on Moving AI maps");
        return;
    }
    static const char body[] = "{\"map\":\"Aftershock\",\"start\":{\"x\":442.5,\"y\":8.5},"
                               "\"goal\":{\"x\":503.5,\"y\":495.5},\"unit\":{\"radius\":0.3,"
                               "\"turning_radius\":2.15},\"search\":{\"algorithm\":\"any_angle\"},"
                               "\"deadline_ms\":100}";
    json_t *j = post_on(ap_mai_srv, "/v1/path", body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "timeout");
    json_decref(j);
    bool ok = false;
    /* (under ThreadSanitizer, ARCPATH_TEST_START_S set, the build runs some 20 times slower: 300 s there) */
    const int polls = getenv("ARCPATH_TEST_START_S") != NULL ? 75 : 15;
    for (int i = 0; i < polls && !ok; i++) {
        nanosleep(&(struct timespec){4, 0}, NULL);
        j = post_on(ap_mai_srv, "/v1/path", body, 200);
        ok = strcmp(json_string_value(json_object_get(j, "status")), "ok") == 0;
        json_decref(j);
    }
    ck_assert_msg(ok, "the graph was not built off the query path within %d s", polls * 4);
}
END_TEST

Suite *anyangle_suite(void)
{
    Suite *s = suite_create("anyangle");
    TCase *tc = tcase_create("square");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, point_and_disc_round_a_square);
    tcase_add_test(tc, table_listed_and_refusals);
    tcase_add_test(tc, batch_goes_the_same_way);
    tcase_add_test(tc, turning_units);
    tcase_add_test(tc, circle_maps);
    tcase_add_test(tc, circle_map_errors_are_reported);
    tcase_add_test(tc, obstacles_per_request);
    tcase_add_test(tc, points_where_obstacles_touch);
    suite_add_tcase(s, tc);
    TCase *mai = tcase_create("movingai");
    tcase_set_timeout(mai, 300);
    tcase_add_test(mai, movingai_no_longer_than_auto);
    tcase_add_test(mai, lazy_graph_search_is_sliced);
    tcase_add_test(mai, graph_build_finished_off_the_query_path);
    suite_add_tcase(s, mai);
    return s;
}
