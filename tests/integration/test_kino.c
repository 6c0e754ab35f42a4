/* test_kino.c — search.algorithm "kinodynamic" end to end: answers with times and speeds (each segment's
 * v_start, v_end, t_start, duration; duration_s), re-checked here against the vehicle's limits from the JSON
 * alone; built-in vehicle kinds and config kinds with vehicle limits; the kinodynamic fields' errors (each
 * limit > 0, speeds, tolerances, the expansion cap, kinodynamic-only fields on other algorithms). */
#include "tests/check_fast.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util.h"
#include "harness.h"

Suite *kino_suite(void);

/* 30 x 20 open field with a border. */
static char FIELD[30 * 21 + 64];
static const char CONF[] = "{\"units\": {\"truck\": {\"turning_radius\": 3, \"max_speed\": 5, \"max_accel\": 1,"
                           " \"max_brake\": 2, \"max_lateral_accel\": 2, \"max_reverse_speed\": 2}}}";

static ap_srv_dir sd;
static ap_srv srv;

static void setup(void)
{
    int n = sprintf(FIELD, "type octile\nheight 20\nwidth 30\nmap\n");
    for (int y = 0; y < 20; y++) {
        for (int x = 0; x < 30; x++)
            FIELD[n++] = x == 0 || y == 0 || x == 29 || y == 19 ? '@' : '.';
        FIELD[n++] = '\n';
    }
    FIELD[n] = '\0';
    ck_assert_int_eq(ap_srv_start_dir(&srv, &sd, "kino", "field", FIELD, CONF), 0);
}

static void teardown(void)
{
    ck_assert_int_eq(ap_srv_stop_dir(&srv, &sd), 0);
}

/* POST body to s's /v1/path, expecting HTTP status want: the answer. */
static json_t *post_to(const ap_srv *s, const char *body, long want)
{
    ap_resp r;
    ck_assert_int_eq(ap_post(s, "/v1/path", body, &r), 0);
    ck_assert_msg(r.status == want, "status %ld, want %ld: %s (%s)", r.status, want, r.body, body);
    json_t *j = ap_resp_json(&r);
    ap_resp_free(&r);
    ck_assert_ptr_nonnull(j);
    return j;
}

static json_t *post(const char *body, long want)
{
    return post_to(&srv, body, want);
}

static double num(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    ck_assert_msg(json_is_number(v), "no number \"%s\"", k);
    return json_number_value(v);
}

/* The limits an answer is checked against: forward speed, acceleration, braking, lateral acceleration,
 * turning radius (tiles on these 1 m fields), backwards speed (segments marked reverse), turn rate (turns on
 * the spot; 0 = none allowed). */
typedef struct lims {
    double vmax, acc, brk, lat, rmin, vrev, rate;
} lims;

/* The answer's segments against the limits, times chained, distance = mean speed x duration, the driving
 * direction changing only at rest; a "turn" is in place at rest and takes at least |sweep| / rate. Returns
 * the last segment's end speed. */
static double check_limits(json_t *j, const lims *l, double v0)
{
    json_t *segs = json_object_get(j, "segments");
    ck_assert_uint_ge(json_array_size(segs), 1);
    double t = 0.0, v = v0;
    int way = 0;
    size_t i;
    json_t *s;
    json_array_foreach(segs, i, s) {
        double vs = num(s, "v_start"), ve = num(s, "v_end"), ts = num(s, "t_start"), d = num(s, "duration");
        const char *type = json_string_value(json_object_get(s, "type"));
        ck_assert_double_eq_tol(vs, v, 1e-9);
        ck_assert_double_eq_tol(ts, t, 1e-9);
        ck_assert(d > 0.0);
        if (strcmp(type, "turn") == 0) {
            ck_assert(l->rate > 0.0 && vs == 0.0 && ve == 0.0 && num(s, "length") == 0.0);
            ck_assert(d >= fabs(num(s, "sweep")) / l->rate - 1e-9);
            ck_assert(json_equal(json_object_get(s, "start"), json_object_get(s, "end")));
            way = 0;
        } else {
            const bool rev = json_is_true(json_object_get(s, "reverse"));
            const double top = rev ? l->vrev : l->vmax;
            if (way != 0 && way != (rev ? -1 : 1))
                ck_assert_msg(vs == 0.0, "segment %zu changes direction at %g m/s", i, vs);
            way = rev ? -1 : 1;
            ck_assert(vs <= top + 1e-6 && ve <= top + 1e-6 && vs >= 0.0 && ve >= 0.0);
            double a = (ve - vs) / d;
            ck_assert(a <= l->acc + 1e-6 && a >= -l->brk - 1e-6);
            ck_assert_double_eq_tol(0.5 * (vs + ve) * d, num(s, "length"), 1e-6);
            if (strcmp(type, "arc") == 0) {
                double r = num(s, "radius"), vp = fmax(vs, ve);
                ck_assert(r >= l->rmin - 1e-9);
                ck_assert(vp * vp / r <= l->lat + 1e-6);
            }
        }
        t += d;
        v = ve;
    }
    ck_assert_double_eq_tol(num(j, "duration_s"), t, 1e-9);
    return v;
}

/* For the timing suite (harness.h): the same checks for a forward-only vehicle. */
double ap_it_check_limits(json_t *j, double vmax, double acc, double brk, double lat, double rmin, double v0)
{
    const lims l = {vmax, acc, brk, lat, rmin, 0.0, 0.0};
    return check_limits(j, &l, v0);
}

static const lims TRUCK = {5.0, 1.0, 2.0, 2.0, 3.0, 2.0, 0.0};
static const lims CAR = {14.0, 3.0, 6.0, 8.0, 6.0, 4.0, 0.0};

/* A stored /v1/path answer drawn by POST /v1/render: 200 and an SVG document. */
static void render_ok(json_t *answer)
{
    char *ans = json_dumps(answer, JSON_COMPACT);
    size_t rl = strlen(ans) + 64;
    char *rb = malloc(rl);
    snprintf(rb, rl, "{\"map\":\"field\",\"answer\":%s}", ans);
    ap_resp r;
    ck_assert_int_eq(ap_post(&srv, "/v1/render", rb, &r), 0);
    ck_assert_msg(r.status == 200, "render: %ld %s", r.status, r.body);
    ck_assert_ptr_nonnull(strstr(r.body, "<svg"));
    ap_resp_free(&r);
    free(rb);
    free(ans);
}

START_TEST(kinodynamic_answer_has_times)
{
    json_t *j = post("{\"map\":\"field\",\"start\":{\"x\":4.5,\"y\":10.5,\"heading\":0,\"speed\":1},"
                     "\"goal\":{\"x\":24.5,\"y\":6.5,\"speed\":0.5},\"unit\":{\"kind\":\"truck\",\"radius\":0.4},"
                     "\"goal_tolerance\":{\"position\":0.5,\"speed\":0.25},"
                     "\"search\":{\"algorithm\":\"kinodynamic\",\"max_expansions\":200000}}",
                     200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert(json_is_true(json_object_get(j, "clear")));
    double vend = check_limits(j, &TRUCK, 1.0);
    ck_assert(fabs(vend - 0.5) <= 0.25 + 1e-9);
    /* 20.4 tiles at most 5 m/s from 1 m/s at 1 m/s^2: at least the 1-D bound */
    ck_assert(num(j, "duration_s") >= 6.0);
    json_decref(j);
    /* a built-in kind: the car's limits (14 m/s, 3, 6, 8 m/s^2, radius 6) */
    j = post("{\"map\":\"field\",\"start\":{\"x\":4.5,\"y\":10.5,\"heading\":0},\"goal\":{\"x\":24.5,\"y\":10.5},"
             "\"unit\":{\"kind\":\"car\"},\"search\":{\"algorithm\":\"kinodynamic\"}}",
             200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    check_limits(j, &CAR, 0.0);
    json_decref(j);
    /* other algorithms' answers carry no times without vehicle limits (with them: test_timing.c) */
    j = post("{\"map\":\"field\",\"start\":{\"x\":4.5,\"y\":10.5},\"goal\":{\"x\":24.5,\"y\":10.5},"
             "\"unit\":{\"radius\":0.4},\"search\":{\"algorithm\":\"astar\"}}",
             200);
    ck_assert_ptr_null(json_object_get(j, "duration_s"));
    ck_assert_ptr_null(json_object_get(json_array_get(json_object_get(j, "segments"), 0), "v_start"));
    json_decref(j);
}
END_TEST

/* GET /v1/maps/{id} on server s: the map's meters_per_tile. */
static double map_scale(const ap_srv *s, const char *path)
{
    ap_resp r;
    ck_assert_int_eq(ap_http(s, "GET", path, NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    json_t *j = ap_resp_json(&r);
    ap_resp_free(&r);
    ck_assert_ptr_nonnull(j);
    double v = num(j, "meters_per_tile");
    json_decref(j);
    return v;
}

/* Config "meters_per_tile": the same field at 2 metres per tile shows 2 in its map info, and the same car
 * query takes longer there (every tile is twice the metres under the same limits): at least the 1-D bound
 * sqrt(2 d / max_accel) for the d = 19 tiles (20 less the goal tolerance) of 2 m each, and strictly more than
 * on the 1 m field. Segment lengths stay in tiles; speeds x durations are metres, twice the lengths. */
START_TEST(kinodynamic_meters_per_tile)
{
    static const char q[] = "{\"map\":\"field\",\"start\":{\"x\":4.5,\"y\":10.5,\"heading\":0},"
                            "\"goal\":{\"x\":24.5,\"y\":10.5},\"unit\":{\"kind\":\"car\"},"
                            "\"search\":{\"algorithm\":\"kinodynamic\"}}";
    ck_assert_double_eq(map_scale(&srv, "/v1/maps/field"), 1.0);
    json_t *j1 = post(q, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j1, "status")), "ok");
    double t1 = num(j1, "duration_s");
    json_decref(j1);

    ap_srv big;
    ap_srv_dir bd;
    ck_assert_int_eq(ap_srv_start_dir(&big, &bd, "kino2", "field", FIELD, "{\"meters_per_tile\": {\"field\": 2}}"), 0);
    ck_assert_double_eq(map_scale(&big, "/v1/maps/field"), 2.0);
    ap_resp r;
    ck_assert_int_eq(ap_post(&big, "/v1/path", q, &r), 0);
    ck_assert_msg(r.status == 200, "%ld %s", r.status, r.body);
    json_t *j2 = ap_resp_json(&r);
    ap_resp_free(&r);
    /* the car's turning radius is 6 m: 3 tiles here (the wire's unit.turning_radius is in tiles); the
     * legal-turn search draws its arcs at exactly that radius, and a request's own radius is not scaled */
    for (int own = 0; own < 2; own++) {
        char body[400];
        snprintf(body, sizeof body, "{\"map\":\"field\",\"start\":{\"x\":4.5,\"y\":4.5,\"heading\":0},"
                 "\"goal\":{\"x\":20.5,\"y\":14.5,\"heading\":1.5708},\"unit\":{\"kind\":\"car\"%s},"
                 "\"search\":{\"algorithm\":\"directional24\"}}", own ? ",\"turning_radius\":2" : "");
        ck_assert_int_eq(ap_post(&big, "/v1/path", body, &r), 0);
        ck_assert_msg(r.status == 200, "%ld %s", r.status, r.body);
        json_t *jd = ap_resp_json(&r);
        ap_resp_free(&r);
        ck_assert_str_eq(json_string_value(json_object_get(jd, "status")), "ok");
        size_t k, arcs = 0;
        json_t *sg;
        json_array_foreach(json_object_get(jd, "segments"), k, sg)
            if (strcmp(json_string_value(json_object_get(sg, "type")), "arc") == 0) {
                ck_assert_double_eq_tol(num(sg, "radius"), own ? 2.0 : 3.0, 1e-9);
                arcs++;
            }
        ck_assert_uint_ge(arcs, 1);
        json_decref(jd);
    }
    ck_assert_int_eq(ap_srv_stop_dir(&big, &bd), 0);
    ck_assert_ptr_nonnull(j2);
    ck_assert_str_eq(json_string_value(json_object_get(j2, "status")), "ok");
    double t2 = num(j2, "duration_s");
    size_t i;
    json_t *seg;
    json_array_foreach(json_object_get(j2, "segments"), i, seg)
        ck_assert_double_eq_tol(0.5 * (num(seg, "v_start") + num(seg, "v_end")) * num(seg, "duration"),
                                2.0 * num(seg, "length"), 1e-6);
    json_decref(j2);
    ck_assert_msg(t2 >= sqrt(2.0 * 38.0 / 3.0), "t2 %g", t2);
    ck_assert_msg(t2 > t1, "t1 %g, t2 %g", t1, t2);
}
END_TEST

START_TEST(kinodynamic_cap)
{
    json_t *j = post("{\"map\":\"field\",\"start\":{\"x\":4.5,\"y\":10.5,\"heading\":0},\"goal\":{\"x\":24.5,\"y\":6.5},"
                     "\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"kinodynamic\",\"max_expansions\":3}}",
                     200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "no_path");
    ck_assert_str_eq(json_string_value(json_object_get(j, "reason")), "not_found");
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j, "stats"), "expanded")), 3);
    ck_assert_ptr_null(json_object_get(j, "capped"));
    json_decref(j);
    /* the goal reached by the cap (here by the analytic edge): the fastest path found, "capped": true, valid;
     * the finished search's answer has no "capped" and is no slower */
    const char *fmt = "{\"map\":\"field\",\"start\":{\"x\":4.5,\"y\":10.5,\"heading\":0,\"speed\":1},"
                      "\"goal\":{\"x\":24.5,\"y\":6.5,\"heading\":1.5,\"speed\":0.5},\"unit\":{\"kind\":\"truck\"},"
                      "\"search\":{\"algorithm\":\"kinodynamic\",\"max_expansions\":%d}}";
    char body[512];
    snprintf(body, sizeof body, fmt, 300);
    j = post(body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert(json_is_true(json_object_get(j, "capped")));
    ck_assert(json_is_true(json_object_get(j, "clear")));
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j, "stats"), "expanded")), 300);
    check_limits(j, &TRUCK, 1.0);
    const double capped_s = num(j, "duration_s");
    json_decref(j);
    snprintf(body, sizeof body, fmt, 400000);
    j = post(body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert_ptr_null(json_object_get(j, "capped"));
    ck_assert(num(j, "duration_s") <= capped_s + 1e-9);
    json_decref(j);
    /* the deadline too: this query reaches the goal within 200 expansions (a capped 13.09 s) but needs
     * ~233,000 (~0.45 s here) to prove its 10.51 s, so at 100 ms its answer is the best found by then */
    j = post("{\"map\":\"field\",\"start\":{\"x\":11.6,\"y\":7.2,\"heading\":2.19,\"speed\":4},"
             "\"goal\":{\"x\":21.2,\"y\":14.8,\"heading\":1.97,\"speed\":3},\"unit\":{\"kind\":\"truck\"},"
             "\"goal_tolerance\":{\"position\":0.3,\"heading\":0.02,\"speed\":0.1},\"deadline_ms\":100,"
             "\"search\":{\"algorithm\":\"kinodynamic\",\"max_expansions\":2000000}}",
             200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert(json_is_true(json_object_get(j, "capped")));
    check_limits(j, &TRUCK, 4.0);
    ck_assert(num(j, "duration_s") >= 10.5);
    json_decref(j);
    /* in a batch the deadline is the batch's: the same query as its first item answers capped the same way */
    ap_resp r;
    ck_assert_int_eq(ap_post(&srv, "/v1/paths",
                             "{\"map\":\"field\",\"deadline_ms\":100,\"queries\":[{\"start\":{\"x\":11.6,\"y\":7.2,"
                             "\"heading\":2.19,\"speed\":4},\"goal\":{\"x\":21.2,\"y\":14.8,\"heading\":1.97,\"speed\":3},"
                             "\"unit\":{\"kind\":\"truck\"},\"goal_tolerance\":{\"position\":0.3,\"heading\":0.02,"
                             "\"speed\":0.1},\"search\":{\"algorithm\":\"kinodynamic\",\"max_expansions\":2000000}}]}",
                             &r),
                     0);
    ck_assert_int_eq(r.status, 200);
    json_t *b = json_loads(r.body, 0, NULL);
    ck_assert_ptr_nonnull(b);
    json_t *item = json_array_get(json_object_get(b, "results"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(item, "status")), "ok");
    ck_assert(json_is_true(json_object_get(item, "capped")));
    ck_assert(num(item, "duration_s") >= 10.5);
    json_decref(b);
    ap_resp_free(&r);
    /* ops see them: arcpath_path_answers_total{outcome="capped"} counts the three capped answers above (the
     * batch item too), and the no_path of the first query */
    ck_assert_int_eq(ap_http(&srv, "GET", "/metrics", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ck_assert(ap_metric(r.body, "arcpath_path_answers_total", "outcome=\"capped\"") >= 3);
    ck_assert(ap_metric(r.body, "arcpath_path_answers_total", "outcome=\"no_path_not_found\"") >= 1);
    ap_resp_free(&r);
}
END_TEST

/* The answer does not depend on the lane the search began in: a query that outgrows the fast slice (2,000
 * expansions by default) restarts on the slow lane, and the cap was charged for the slice thrown away, so
 * alone (fast lane first) it answered capped, 6.33 s, while the same query as a batch's second item (slow
 * lane from the start) proved 5.81 s; proven it needs 2,377 expansions (a helper's query, demo.conf's tank on
 * the demo arena). Now all three answer the proven one; stats.expanded still counts the slice. */
START_TEST(kinodynamic_cap_whichever_lane)
{
    ap_srv s;
    const char *args[] = {"--config", "config/demo.conf", NULL};
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", args, NULL), 0);
    static const char q[] = "{\"start\":{\"x\":82.51032861602046,\"y\":22.438880845305803,\"heading\":"
                            "2.4000791988207277},\"goal\":{\"x\":85.5,\"y\":18.5},\"unit\":{\"kind\":\"tank\","
                            "\"turning_radius\":3},\"search\":{\"algorithm\":\"kinodynamic\",\"max_expansions\":2500}}";
    char body[1024];
    snprintf(body, sizeof body, "{\"map\":\"arena\",%s", q + 1);
    json_t *one = post_to(&s, body, 200);
    snprintf(body, sizeof body, "{\"map\":\"arena\",\"queries\":[%s,%s]}", q, q);
    ap_resp r;
    ck_assert_int_eq(ap_post(&s, "/v1/paths", body, &r), 0);
    ck_assert_int_eq(r.status, 200);
    json_t *b = json_loads(r.body, 0, NULL);
    ck_assert_ptr_nonnull(b);
    json_t *items[3] = {one, json_array_get(json_object_get(b, "results"), 0),
                        json_array_get(json_object_get(b, "results"), 1)};
    for (int i = 0; i < 3; i++) {
        ck_assert_str_eq(json_string_value(json_object_get(items[i], "status")), "ok");
        ck_assert_msg(json_object_get(items[i], "capped") == NULL, "answer %d capped", i);
        ck_assert_double_eq_tol(num(items[i], "duration_s"), num(items[2], "duration_s"), 1e-12);
    }
    ck_assert_double_lt(num(one, "duration_s"), 6.0);
    json_decref(b);
    json_decref(one);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

/* search.probe: the probe's path at once when it reaches the goal ("probe": true, a few expansions, no faster
 * than A*'s path, drawable by POST /v1/render), also through its analytic last edge. (A* seeded with a
 * missed probe: tests/planner/kino test_probe_wall_falls_back.) */
START_TEST(kinodynamic_probe)
{
    static const char q[] = "{\"map\":\"field\",\"start\":{\"x\":4.5,\"y\":10.5,\"heading\":0,\"speed\":1},"
                            "\"goal\":{\"x\":24.5,\"y\":6.5,\"speed\":0.5},\"unit\":{\"kind\":\"truck\",\"radius\":0.4},"
                            "\"search\":{\"algorithm\":\"kinodynamic\"%s}}";
    char body[512];
    snprintf(body, sizeof body, q, ",\"probe\":true");
    json_t *p = post(body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(p, "status")), "ok");
    ck_assert(json_is_true(json_object_get(p, "probe")));
    ck_assert(json_is_true(json_object_get(p, "clear")));
    double vend = check_limits(p, &TRUCK, 1.0);
    ck_assert(fabs(vend - 0.5) <= 0.5 + 1e-9);
    json_int_t pexp = json_integer_value(json_object_get(json_object_get(p, "stats"), "expanded"));
    snprintf(body, sizeof body, q, "");
    json_t *a = post(body, 200);
    ck_assert_ptr_null(json_object_get(a, "probe"));
    json_int_t aexp = json_integer_value(json_object_get(json_object_get(a, "stats"), "expanded"));
    const double adur = num(a, "duration_s");
    ck_assert_msg(pexp >= 1 && pexp * 10 < aexp, "probe %lld, A* %lld expansions", (long long)pexp, (long long)aexp);
    ck_assert(num(p, "duration_s") >= num(a, "duration_s") - 1e-9);
    /* a cap of the probe's own stats.expanded answers the same path, here and where the probe ends on the
     * analytic edge from the state its last step reached (a car one step from it: that edge was not tried
     * under the cap, no_path, a limits helper's finding) */
    static const char q2[] = "{\"map\":\"field\",\"start\":{\"x\":5.5,\"y\":5.5,\"heading\":0,\"speed\":2},"
                             "\"goal\":{\"x\":20.5,\"y\":12.5,\"speed\":0},\"unit\":{\"kind\":\"car\",\"turning_radius\":3},"
                             "\"search\":{\"algorithm\":\"kinodynamic\",\"probe\":true%s}}";
    const char *const qs[] = {q, q2};
    for (int qi = 0; qi < 2; qi++) {
        char opt[64];
        snprintf(body, sizeof body, qs[qi], qi == 0 ? ",\"probe\":true" : "");
        json_t *u = post(body, 200);
        ck_assert(json_is_true(json_object_get(u, "probe")));
        const json_int_t e = json_integer_value(json_object_get(json_object_get(u, "stats"), "expanded"));
        snprintf(opt, sizeof opt, "%s,\"max_expansions\":%lld", qi == 0 ? ",\"probe\":true" : "", (long long)e);
        snprintf(body, sizeof body, qs[qi], opt);
        json_t *c = post(body, 200);
        ck_assert_msg(strcmp(json_string_value(json_object_get(c, "status")), "ok") == 0, "query %d, cap %lld: %s", qi,
                      (long long)e, json_string_value(json_object_get(c, "status")));
        ck_assert(json_is_true(json_object_get(c, "probe")));
        ck_assert_double_eq(num(c, "duration_s"), num(u, "duration_s"));
        json_decref(u);
        json_decref(c);
    }
    render_ok(p); /* the stored probe answer draws */
    json_decref(p);
    json_decref(a);
    /* a goal behind a start facing away: the greedy descent cannot improve at once, but the analytic last
     * edge (a loop of the turning radius, time-optimal speed) reaches it from the start: the probe answers */
    json_t *b = post("{\"map\":\"field\",\"start\":{\"x\":14.5,\"y\":10.5,\"heading\":0},\"goal\":{\"x\":10.5,\"y\":10.5},"
                     "\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"kinodynamic\",\"probe\":true}}",
                     200);
    ck_assert_str_eq(json_string_value(json_object_get(b, "status")), "ok");
    ck_assert(json_is_true(json_object_get(b, "probe")));
    ck_assert(json_is_true(json_object_get(b, "clear")));
    check_limits(b, &TRUCK, 0.0);
    json_decref(b);
    /* search.weight 2 on the first query: A*'s answer, weighted: ok, neither probe nor capped, valid, far
     * fewer expansions, at most twice A*'s time */
    snprintf(body, sizeof body, q, ",\"weight\":2");
    json_t *w = post(body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(w, "status")), "ok");
    ck_assert_ptr_null(json_object_get(w, "probe"));
    ck_assert_ptr_null(json_object_get(w, "capped"));
    ck_assert(json_is_true(json_object_get(w, "clear")));
    vend = check_limits(w, &TRUCK, 1.0);
    ck_assert(fabs(vend - 0.5) <= 0.5 + 1e-9);
    json_int_t wexp = json_integer_value(json_object_get(json_object_get(w, "stats"), "expanded"));
    ck_assert_msg(wexp >= 1 && wexp * 10 < aexp, "weight 2 %lld, A* %lld expansions", (long long)wexp, (long long)aexp);
    ck_assert(num(w, "duration_s") <= 2.0 * adur);
    json_decref(w);
}
END_TEST

/* samples.dt: poses every 0.5 s with t and v, recomputed here from the segments alone (constant acceleration
 * a = (v_end - v_start) / duration: distance v_start tau + a tau^2 / 2 metres = tiles on this 1 m field,
 * speed v_start + a tau); the last sample is the end pose at duration_s. */
START_TEST(kinodynamic_samples_in_time)
{
    json_t *j = post("{\"map\":\"field\",\"start\":{\"x\":4.5,\"y\":10.5,\"heading\":0,\"speed\":1},"
                     "\"goal\":{\"x\":24.5,\"y\":10.5},\"unit\":{\"kind\":\"truck\"},"
                     "\"search\":{\"algorithm\":\"kinodynamic\"},\"samples\":{\"dt\":0.5}}",
                     200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    check_limits(j, &TRUCK, 1.0);
    json_t *segs = json_object_get(j, "segments"), *smp = json_object_get(j, "samples");
    const double T = num(j, "duration_s");
    size_t n = json_array_size(smp), k = (size_t)floor(T / 0.5), lines = 0;
    ck_assert_uint_eq(n, k + 1 + (T - 0.5 * (double)k > 1e-9 ? 1 : 0));
    for (size_t i = 0; i < n; i++) {
        json_t *p = json_array_get(smp, i);
        double t = num(p, "t");
        ck_assert_double_eq_tol(t, i + 1 < n ? 0.5 * (double)i : T, 1e-12);
        size_t si = 0;
        double before = 0.0;
        while (si + 1 < json_array_size(segs) &&
               t >= num(json_array_get(segs, si), "t_start") + num(json_array_get(segs, si), "duration")) {
            before += num(json_array_get(segs, si), "length");
            si++;
        }
        json_t *sg = json_array_get(segs, si);
        double vs = num(sg, "v_start"), ve = num(sg, "v_end"), dur = num(sg, "duration");
        double tau = t - num(sg, "t_start"), a = (ve - vs) / dur, s = vs * tau + 0.5 * a * tau * tau;
        ck_assert_double_eq_tol(num(p, "v"), vs + a * tau, 1e-9);
        ck_assert_double_eq_tol(num(p, "d"), before + s, 1e-9);
        if (strcmp(json_string_value(json_object_get(sg, "type")), "line") == 0) {
            json_t *st = json_object_get(sg, "start");
            double h = num(sg, "heading"), x0 = json_number_value(json_array_get(st, 0)),
                   y0 = json_number_value(json_array_get(st, 1));
            ck_assert_double_eq_tol(num(p, "x"), x0 + s * cos(h), 1e-9);
            ck_assert_double_eq_tol(num(p, "y"), y0 + s * sin(h), 1e-9);
            lines++;
        }
    }
    ck_assert_uint_ge(lines, 1);
    json_t *first = json_array_get(smp, 0), *last = json_array_get(smp, n - 1);
    json_t *lseg = json_array_get(segs, json_array_size(segs) - 1);
    ck_assert(num(first, "x") == 4.5 && num(first, "y") == 10.5 && num(first, "v") == 1.0);
    ck_assert(num(last, "t") == T);
    ck_assert(num(last, "d") == num(j, "length"));
    ck_assert(num(last, "v") == num(lseg, "v_end"));
    json_t *end = json_object_get(lseg, "end");
    ck_assert_double_eq_tol(num(last, "x"), json_number_value(json_array_get(end, 0)), 1e-12);
    ck_assert_double_eq_tol(num(last, "y"), json_number_value(json_array_get(end, 1)), 1e-12);
    json_decref(j);
}
END_TEST

/* Figure 5.2 with reverse: a goal 3 tiles behind a truck at rest, to be reached facing the same way. With
 * "reverse": true it backs up (segments marked reverse, within the kind's max_reverse_speed 2 m/s) in less
 * time than the loop it drives without; with "max_turn_rate" it may also turn on the spot ("turn"
 * segments) and such an answer draws (POST /v1/render) and samples in time. */
START_TEST(kinodynamic_reverse_and_turns)
{
    static const char q[] = "{\"map\":\"field\",\"start\":{\"x\":14.5,\"y\":10.5,\"heading\":0},"
                            "\"goal\":{\"x\":11.5,\"y\":10.5,\"heading\":%s},\"goal_tolerance\":{\"heading\":0.5},"
                            "\"unit\":{\"kind\":\"truck\"%s},\"search\":{\"algorithm\":\"kinodynamic\"}%s}";
    char body[512];
    snprintf(body, sizeof body, q, "0", "", "");
    json_t *loop = post(body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(loop, "status")), "ok");
    check_limits(loop, &TRUCK, 0.0);
    snprintf(body, sizeof body, q, "0", ",\"reverse\":true", "");
    json_t *back = post(body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(back, "status")), "ok");
    ck_assert(json_is_true(json_object_get(back, "clear")));
    check_limits(back, &TRUCK, 0.0);
    size_t i, rev = 0;
    json_t *sg;
    json_array_foreach(json_object_get(back, "segments"), i, sg)
        rev += json_is_true(json_object_get(sg, "reverse"));
    ck_assert_uint_ge(rev, 1);
    ck_assert_msg(num(back, "duration_s") < num(loop, "duration_s"), "backing up %g s, loop %g s",
                  num(back, "duration_s"), num(loop, "duration_s"));
    json_decref(loop);
    json_decref(back);

    /* facing the other way at the goal: a turn on the spot at 1.5 rad/s, drawn and sampled every 0.25 s */
    snprintf(body, sizeof body, q, "3.14159", ",\"max_turn_rate\":1.5", ",\"samples\":{\"dt\":0.25}");
    json_t *spot = post(body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(spot, "status")), "ok");
    lims l = TRUCK;
    l.rate = 1.5;
    check_limits(spot, &l, 0.0);
    size_t turns = 0;
    json_array_foreach(json_object_get(spot, "segments"), i, sg) {
        if (strcmp(json_string_value(json_object_get(sg, "type")), "turn") != 0)
            continue;
        turns++;
        ck_assert_ptr_nonnull(json_object_get(sg, "start_heading"));
        ck_assert_ptr_null(json_object_get(sg, "radius"));
    }
    ck_assert_uint_ge(turns, 1);
    json_t *smp = json_object_get(spot, "samples");
    ck_assert_uint_ge(json_array_size(smp), 2);
    ck_assert(fabs(num(json_array_get(smp, json_array_size(smp) - 1), "t") - num(spot, "duration_s")) < 1e-12);
    render_ok(spot);
    json_decref(spot);
}
END_TEST

/* A free start heading never begins with a turn on the spot: the unit may start facing wherever the turn
 * would end. The demo islands, a unit that turns on the spot (a helper's draw): its answer began with a
 * 0.63 s turn by 3 pi / 8 from the goal's direction (4.66 s); now it starts facing 0.1288 (4.03 s, the same
 * arcs as with that start.heading given). */
START_TEST(kinodynamic_free_start_no_leading_turn)
{
    static const char q[] =
        "{\"map\":\"islands\",\"unit\":{\"turning_radius\":2.166,\"max_speed\":12.739,\"max_accel\":0.723,"
        "\"max_brake\":1.937,\"max_lateral_accel\":8.45,\"radius\":0.426,\"max_turn_rate\":1.866},"
        "\"start\":{\"x\":4.999648181147398,\"y\":10.540716878787958%s},"
        "\"goal\":{\"x\":6.830224559350694,\"y\":7.3545401069048575,\"heading\":-2.1186,\"speed\":0.7064},"
        "\"search\":{\"algorithm\":\"kinodynamic\"}}";
    char body[1024];
    snprintf(body, sizeof body, q, "");
    json_t *j = post_to(ap_demo_srv, body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    json_t *segs = json_object_get(j, "segments"), *first = json_array_get(segs, 0);
    ck_assert_str_ne(json_string_value(json_object_get(first, "type")), "turn");
    const lims l = {12.739, 0.723, 1.937, 8.45, 2.166, 0.0, 1.866};
    check_limits(j, &l, 0.0);
    ck_assert_double_eq(num(first, "t_start"), 0.0);
    const double d = num(j, "duration_s"), h0 = num(first, "start_heading");
    ck_assert_msg(d < 4.2, "%g s", d);
    /* the same answer as with the start heading it starts at given */
    char given[64];
    snprintf(given, sizeof given, ",\"heading\":%.17g", h0);
    snprintf(body, sizeof body, q, given);
    json_t *g = post_to(ap_demo_srv, body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(g, "status")), "ok");
    ck_assert_double_le(d, num(g, "duration_s") + 1e-9);
    json_decref(g);
    json_decref(j);
}
END_TEST

/* A unit that is all but at rest: start speeds of 1e-9 to 1e-5 m/s plan like 0 (the truck backing up to a
 * goal behind it; turning on the spot to face the other way). Full braking from such a speed stops within a
 * nanometre, and that step was dropped: no stop, so no reversing and no turn on the spot (no_path, or a
 * loop). The first segment leaves exactly at start.heading, and a turn is at rest. */
START_TEST(kinodynamic_crawling_start)
{
    static const char q[] = "{\"map\":\"field\",\"start\":{\"x\":14.5,\"y\":10.5,\"heading\":0,\"speed\":%s},"
                            "\"goal\":{\"x\":11.5,\"y\":10.5,\"heading\":%s},\"goal_tolerance\":{\"heading\":0.5},"
                            "\"unit\":{\"kind\":\"truck\",%s},\"search\":{\"algorithm\":\"kinodynamic\"}}";
    static const char *const speeds[] = {"0", "1e-9", "1e-6", "1e-5"};
    static const char *const units[2] = {"\"reverse\":true", "\"max_turn_rate\":1.5"};
    static const char *const goal_heading[2] = {"0", "3.14159"};
    for (int u = 0; u < 2; u++) {
        double at_rest = 0.0;
        for (size_t k = 0; k < sizeof speeds / sizeof speeds[0]; k++) {
            char body[512];
            snprintf(body, sizeof body, q, speeds[k], goal_heading[u], units[u]);
            json_t *j = post(body, 200);
            ck_assert_msg(strcmp(json_string_value(json_object_get(j, "status")), "ok") == 0, "%s: %s", body,
                          json_string_value(json_object_get(j, "status")));
            lims l = TRUCK;
            l.rate = u == 1 ? 1.5 : 0.0;
            check_limits(j, &l, k == 1 ? 0.0 : atof(speeds[k])); /* 1e-9 m/s is at rest: it starts at 0 */
            const double d = num(j, "duration_s");
            if (k == 0)
                at_rest = d;
            ck_assert_msg(fabs(d - at_rest) < 1e-3, "start.speed %s: %g s, at rest %g s", speeds[k], d, at_rest);
            json_t *first = json_array_get(json_object_get(j, "segments"), 0);
            json_t *h = json_object_get(first, "heading");
            if (h == NULL)
                h = json_object_get(first, "start_heading");
            ck_assert_double_eq(json_number_value(h), 0.0);
            json_decref(j);
        }
    }
    /* the answer is the final curve from the start itself: it starts at 0 too (it kept 5e-10) */
    json_t *j = post("{\"map\":\"field\",\"start\":{\"x\":14.5,\"y\":10.5,\"heading\":0,\"speed\":5e-10},"
                     "\"goal\":{\"x\":16.5,\"y\":10.5},\"unit\":{\"kind\":\"truck\"},"
                     "\"search\":{\"algorithm\":\"kinodynamic\"}}", 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    check_limits(j, &TRUCK, 0.0);
    ck_assert_double_eq(num(json_array_get(json_object_get(j, "segments"), 0), "v_start"), 0.0);
    json_decref(j);

    /* At a micrometre a tile, a stop's nanometre is 1e-3 tiles: tested like every action. A crawl (7e-5
     * m/s) facing the wall 1e-8 tiles from it: a stop 8e-4 tiles into the wall was answered ok (its end
     * within the goal's tolerance), with clear false. */
    ap_srv tiny;
    ap_srv_dir td;
    ck_assert_int_eq(ap_srv_start_dir(&tiny, &td, "kino3", "field", FIELD,
                                      "{\"meters_per_tile\": {\"field\": 1e-6}, \"units\": {\"truck\": {\"radius\": 0.9,"
                                      " \"turning_radius\": 3, \"max_speed\": 5, \"max_accel\": 1, \"max_brake\": 3,"
                                      " \"max_lateral_accel\": 2, \"max_reverse_speed\": 2}}}"),
                     0);
    j = post_to(&tiny, "{\"map\":\"field\",\"start\":{\"x\":1.90000001,\"y\":10.5,\"heading\":3.141592653589793,"
                       "\"speed\":7e-5},"
                       "\"goal\":{\"x\":2.0,\"y\":10.5},\"goal_tolerance\":{\"speed\":1e-6},"
                       "\"unit\":{\"kind\":\"truck\",\"reverse\":true},\"search\":{\"algorithm\":\"kinodynamic\"}}",
                 200);
    const char *status = json_string_value(json_object_get(j, "status"));
    ck_assert_msg(strcmp(status, "no_path") == 0 || json_is_true(json_object_get(j, "clear")), "%s, clear %d", status,
                  json_is_true(json_object_get(j, "clear")));
    json_decref(j);
    ck_assert_int_eq(ap_srv_stop_dir(&tiny, &td), 0);
}
END_TEST

START_TEST(kinodynamic_errors)
{
    static const struct {
        const char *fragment, *field;
    } cases[] = {
        {"\"unit\":{\"kind\":\"truck\",\"max_speed\":0},\"search\":{\"algorithm\":\"kinodynamic\"}", "unit.max_speed"},
        {"\"unit\":{\"kind\":\"truck\",\"max_accel\":-1},\"search\":{\"algorithm\":\"kinodynamic\"}", "unit.max_accel"},
        {"\"unit\":{\"kind\":\"truck\",\"max_brake\":-2},\"search\":{\"algorithm\":\"kinodynamic\"}", "unit.max_brake"},
        {"\"unit\":{\"kind\":\"truck\",\"max_lateral_accel\":0},\"search\":{\"algorithm\":\"kinodynamic\"}",
         "unit.max_lateral_accel"},
        {"\"unit\":{\"kind\":\"truck\"},\"goal_tolerance\":{\"position\":0},\"search\":{\"algorithm\":\"kinodynamic\"}",
         "goal_tolerance.position"},
        {"\"unit\":{\"kind\":\"truck\"},\"goal_tolerance\":{\"spin\":1},\"search\":{\"algorithm\":\"kinodynamic\"}",
         "goal_tolerance.spin"},
        {"\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"kinodynamic\",\"max_expansions\":0}",
         "search.max_expansions"},
        {"\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"kinodynamic\"},\"goal_tolerance\":{\"speed\":-1}",
         "goal_tolerance.speed"},
        {"\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"astar\",\"max_expansions\":10}",
         "search.max_expansions"},
        {"\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"jps\",\"probe\":true}", "search.probe"},
        {"\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"astar\",\"weight\":2}", "search.weight"},
        {"\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"kinodynamic\",\"weight\":0.9}", "search.weight"},
        {"\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"kinodynamic\",\"weight\":\"2\"}", "search.weight"},
        {"\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"kinodynamic\",\"probe\":\"yes\"}",
         "search.probe"},
        {"\"unit\":{\"kind\":\"truck\",\"turning_radius\":0},\"search\":{\"algorithm\":\"kinodynamic\"}",
         "unit.turning_radius"},
        /* reverse and turning on the spot: every limit given is above 0 and finite, and at most its maximum */
        {"\"unit\":{\"kind\":\"truck\",\"reverse\":true,\"max_reverse_speed\":0},\"search\":{\"algorithm\":\"kinodynamic\"}",
         "unit.max_reverse_speed"},
        {"\"unit\":{\"kind\":\"truck\",\"max_reverse_speed\":-2},\"search\":{\"algorithm\":\"kinodynamic\"}",
         "unit.max_reverse_speed"},
        {"\"unit\":{\"kind\":\"truck\",\"max_reverse_speed\":1e9},\"search\":{\"algorithm\":\"kinodynamic\"}",
         "unit.max_reverse_speed"},
        {"\"unit\":{\"kind\":\"truck\",\"max_reverse_speed\":\"fast\"},\"search\":{\"algorithm\":\"kinodynamic\"}",
         "unit.max_reverse_speed"},
        {"\"unit\":{\"kind\":\"truck\",\"max_turn_rate\":0},\"search\":{\"algorithm\":\"kinodynamic\"}",
         "unit.max_turn_rate"},
        {"\"unit\":{\"kind\":\"truck\",\"max_turn_rate\":-1.5},\"search\":{\"algorithm\":\"kinodynamic\"}",
         "unit.max_turn_rate"},
        {"\"unit\":{\"kind\":\"truck\",\"max_turn_rate\":101},\"search\":{\"algorithm\":\"kinodynamic\"}",
         "unit.max_turn_rate"},
        {"\"unit\":{\"kind\":\"truck\",\"max_turn_rate\":null},\"search\":{\"algorithm\":\"kinodynamic\"}",
         "unit.max_turn_rate"},
        /* samples in time: only answers with timing (kinodynamic, or vehicle limits named), one of step and dt,
         * dt > 0, at most max_samples */
        {"\"unit\":{\"radius\":0.4},\"samples\":{\"dt\":0.5}", "samples.dt"},
        {"\"unit\":{\"turning_radius\":3},\"search\":{\"algorithm\":\"directional24\"},\"samples\":{\"dt\":0.5}",
         "samples.dt"},
        {"\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"kinodynamic\"},\"samples\":{\"dt\":0.5,\"step\":1}",
         "samples.dt"},
        {"\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"kinodynamic\"},\"samples\":{\"dt\":0}",
         "samples.dt"},
        {"\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"kinodynamic\"},\"samples\":{\"dt\":1e-5}",
         "samples.dt"},
        /* corridor mode: kinodynamic only; 2-64 finite points; a usable width above 0 */
        {"\"corridor\":{\"points\":[[4,10],[24,6]],\"usable_width\":2}", "corridor"},
        {"\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"kinodynamic\"},"
         "\"corridor\":{\"points\":[[4,10]],\"usable_width\":2}", "corridor.points"},
        {"\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"kinodynamic\"},"
         "\"corridor\":{\"points\":[[4,10],[24]],\"usable_width\":2}", "corridor.points[1]"},
        {"\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"kinodynamic\"},"
         "\"corridor\":{\"points\":[[4,10],[24,6]],\"usable_width\":0}", "corridor.usable_width"},
        {"\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"kinodynamic\"},"
         "\"corridor\":{\"points\":[[4,10],[24,6]],\"width\":2}", "corridor.width"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char body[512];
        snprintf(body, sizeof body, "{\"map\":\"field\",\"start\":{\"x\":4.5,\"y\":10.5},\"goal\":{\"x\":24.5,\"y\":6.5},%s}",
                 cases[i].fragment);
        json_t *j = post(body, 400);
        json_t *e = json_object_get(j, "error");
        ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "invalid_request");
        ck_assert_str_eq(json_string_value(json_object_get(e, "field")), cases[i].field);
        json_decref(j);
    }
    /* speeds: above the vehicle's maximum, and on an algorithm without speed */
    json_t *j = post("{\"map\":\"field\",\"start\":{\"x\":4.5,\"y\":10.5,\"speed\":6},\"goal\":{\"x\":24.5,\"y\":6.5},"
                     "\"unit\":{\"kind\":\"truck\"},\"search\":{\"algorithm\":\"kinodynamic\"}}",
                     400);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "field")), "start.speed");
    json_decref(j);
    j = post("{\"map\":\"field\",\"start\":{\"x\":4.5,\"y\":10.5},\"goal\":{\"x\":24.5,\"y\":6.5,\"speed\":1}}", 400);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "field")), "goal.speed");
    json_decref(j);
}
END_TEST

/* A radius-0.5 truck on the straight corridor from (4, 4) to (22, 4) of usable width w, from (sx, 4) to
 * (gx, 4), answered with HTTP status want: the answer (the caller's to free). */
static json_t *post_truck_corridor(double sx, double gx, const char *w, long want)
{
    char body[512];
    snprintf(body, sizeof body,
             "{\"map\":\"field\",\"start\":{\"x\":%g,\"y\":4,\"heading\":0},\"goal\":{\"x\":%g,\"y\":4},"
             "\"unit\":{\"kind\":\"truck\",\"radius\":0.5},\"corridor\":{\"points\":[[4,4],[22,4]],\"usable_width\":%s},"
             "\"search\":{\"algorithm\":\"kinodynamic\"}}",
             sx, gx, w);
    return post(body, want);
}

/* Corridor mode (thesis 5.3): an L-shaped centre line and a usable width of 2.5 tiles on the open field; the
 * truck's answer keeps every limit and every pose (samples every 0.1 tiles) is less than usable_width -
 * unit.radius from the centre line; a start outside the corridor is 422 start_blocked naming "start", a
 * goal outside it 422 goal_blocked naming "goal". */
START_TEST(kinodynamic_corridor)
{
    static const double L[3][2] = {{4, 4}, {22, 4}, {22, 16}};
    json_t *j = post("{\"map\":\"field\",\"start\":{\"x\":4.5,\"y\":4.5,\"heading\":0},"
                     "\"goal\":{\"x\":22,\"y\":14,\"heading\":1.5708},"
                     "\"unit\":{\"kind\":\"truck\",\"radius\":0.3},\"goal_tolerance\":{\"heading\":0.2},"
                     "\"corridor\":{\"points\":[[4,4],[22,4],[22,16]],\"usable_width\":2.5},"
                     "\"samples\":{\"step\":0.1},\"search\":{\"algorithm\":\"kinodynamic\"}}",
                     200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    check_limits(j, &TRUCK, 0.0);
    json_t *samples = json_object_get(j, "samples");
    ck_assert_uint_ge(json_array_size(samples), 100);
    size_t i;
    json_t *sm;
    json_array_foreach(samples, i, sm) {
        const double x = num(sm, "x"), y = num(sm, "y");
        double best = INFINITY;
        for (int k = 0; k < 2; k++) {
            const double ax = L[k][0], ay = L[k][1], dx = L[k + 1][0] - ax, dy = L[k + 1][1] - ay;
            double t = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy);
            t = t < 0 ? 0 : t > 1 ? 1 : t;
            best = fmin(best, hypot(x - ax - t * dx, y - ay - t * dy));
        }
        ck_assert_msg(best + 0.3 < 2.5 + 1e-9, "sample %zu at (%g, %g) is %g from the centre line", i, x, y, best);
    }
    json_decref(j);
    j = post("{\"map\":\"field\",\"start\":{\"x\":10,\"y\":12},\"goal\":{\"x\":22,\"y\":14},"
             "\"unit\":{\"kind\":\"truck\"},\"corridor\":{\"points\":[[4,4],[22,4],[22,16]],\"usable_width\":2.5},"
             "\"search\":{\"algorithm\":\"kinodynamic\"}}",
             422);
    json_t *e = json_object_get(j, "error");
    ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "start_blocked");
    ck_assert_str_eq(json_string_value(json_object_get(e, "field")), "start");
    /* the message gives the radius and the point, as outside corridor mode (it said "outside the corridor
     * (or blocked)" alone) */
    ck_assert_msg(strstr(json_string_value(json_object_get(e, "message")), "at (10, 12) is outside the corridor") != NULL &&
                      strstr(json_string_value(json_object_get(e, "message")), "(radius ") != NULL,
                  "%s", json_string_value(json_object_get(e, "message")));
    json_decref(j);
    /* and a goal outside it is 422 goal_blocked naming "goal" */
    j = post("{\"map\":\"field\",\"start\":{\"x\":4.5,\"y\":4.5,\"heading\":0},\"goal\":{\"x\":10,\"y\":12},"
             "\"unit\":{\"kind\":\"truck\"},\"corridor\":{\"points\":[[4,4],[22,4],[22,16]],\"usable_width\":2.5},"
             "\"search\":{\"algorithm\":\"kinodynamic\"}}",
             422);
    e = json_object_get(j, "error");
    ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "goal_blocked");
    ck_assert_str_eq(json_string_value(json_object_get(e, "field")), "goal");
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(e, "message")), "outside the corridor"));
    json_decref(j);
    /* a usable width within the corridor test's 0.001-tile margin of the radius leaves no move: refused on
     * the width (it was a start accepted, then no_path after one expansion); 0.002 over it drives straight */
    j = post_truck_corridor(5, 20, "0.5005", 400);
    e = json_object_get(j, "error");
    ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "invalid_request");
    ck_assert_str_eq(json_string_value(json_object_get(e, "field")), "corridor.usable_width");
    json_decref(j);
    /* ... also exactly 0.001 over the radius, which in doubles is a hair more (0.501 - 0.5) */
    j = post_truck_corridor(5, 20, "0.501", 400);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "field")), "corridor.usable_width");
    json_decref(j);
    /* ... wherever the start and goal are: as every field the algorithm cannot take, before start_blocked (a
     * start on the border's wall was 422 start_blocked, a helper) */
    j = post_truck_corridor(0.5, 29.5, "0.5005", 400);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "field")), "corridor.usable_width");
    json_decref(j);
    j = post_truck_corridor(5, 20, "0.502", 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert_double_eq_tol(num(j, "length"), 15.0, 1e-9);
    json_decref(j);
}
END_TEST

/* The state limit: a server whose workspaces hold 704 nodes (max_workspace_cells: the 30 x 20 map's padded
 * cells, the least it may be) gives a kinodynamic search 704 state ids; a query that needs more, behind a
 * wall, answers no_path with reason state_limit (a path exists: with the default 262,144 ids the same query
 * answers an 11.2 s path, measured; tests/planner/kino test_state_limit asserts the like), one that needs
 * fewer finds a path marked capped, and ops see both in the metrics. */
START_TEST(kinodynamic_state_limit)
{
    char walled[sizeof FIELD];
    strcpy(walled, FIELD);
    char *grid = strstr(walled, "map\n") + 4;
    for (int y = 1; y <= 12; y++) /* x = 15 blocked from the top border down to y = 12 */
        grid[y * 31 + 15] = '@';
    ap_srv_dir d2;
    ap_srv s2;
    ck_assert_int_eq(ap_srv_start_dir(&s2, &d2, "kinolimit", "walled", walled,
                                      "{\"max_workspace_cells\": 704}"),
                     0);
    /* beyond the wall, facing back west: more states than 704 before any path */
    static const char fmt[] = "{\"map\":\"walled\",\"start\":{\"x\":5.5,\"y\":5.5,\"heading\":0},"
                              "\"goal\":{\"x\":25.5,\"y\":5.5%s},\"unit\":{\"turning_radius\":2,\"max_speed\":5,"
                              "\"max_accel\":1,\"max_brake\":2,\"max_lateral_accel\":2},"
                              "\"search\":{\"algorithm\":\"kinodynamic\"}}";
    char body[512];
    snprintf(body, sizeof body, fmt, ",\"heading\":3.14");
    json_t *j = post_to(&s2, body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "no_path");
    ck_assert_str_eq(json_string_value(json_object_get(j, "reason")), "state_limit");
    ck_assert(num(json_object_get(j, "stats"), "expanded") < 100000); /* the ids ran out, not the cap */
    json_decref(j);
    /* POST /v1/render draws that answer (its caption names the reason) */
    char rbody[600];
    snprintf(rbody, sizeof rbody, "{\"query\":%s}", body);
    ap_resp r;
    ck_assert_int_eq(ap_post(&s2, "/v1/render", rbody, &r), 0);
    ck_assert_msg(r.status == 200, "%ld %s", r.status, r.body);
    ck_assert_ptr_nonnull(strstr(r.body, "no_path (state_limit)"));
    ap_resp_free(&r);
    /* any goal heading: a path within the 704 states, marked capped (states were dropped: not proven) */
    snprintf(body, sizeof body, fmt, "");
    j = post_to(&s2, body, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert(json_is_true(json_object_get(j, "capped")));
    json_decref(j);
    ck_assert_int_eq(ap_http(&s2, "GET", "/metrics", NULL, 0, NULL, &r), 0);
    /* (the render ran its query as POST /v1/path does: two answers) */
    ck_assert(ap_metric(r.body, "arcpath_path_answers_total", "outcome=\"no_path_state_limit\"") == 2);
    ck_assert(ap_metric(r.body, "arcpath_path_answers_total", "outcome=\"capped\"") == 1);
    ap_resp_free(&r);
    /* GET /v1/info tells clients the limit */
    ck_assert_int_eq(ap_http(&s2, "GET", "/v1/info", NULL, 0, NULL, &r), 0);
    j = ap_resp_json(&r);
    ap_resp_free(&r);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j, "limits"), "workspace_nodes")), 704);
    json_decref(j);
    ck_assert_int_eq(ap_srv_stop_dir(&s2, &d2), 0);
}
END_TEST

Suite *kino_suite(void)
{
    Suite *s = suite_create("kino");
    TCase *tc = tcase_create("kinodynamic");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, kinodynamic_answer_has_times);
    tcase_add_test(tc, kinodynamic_cap);
    tcase_add_test(tc, kinodynamic_cap_whichever_lane);
    tcase_add_test(tc, kinodynamic_meters_per_tile);
    tcase_add_test(tc, kinodynamic_errors);
    tcase_add_test(tc, kinodynamic_samples_in_time);
    tcase_add_test(tc, kinodynamic_probe);
    tcase_add_test(tc, kinodynamic_reverse_and_turns);
    tcase_add_test(tc, kinodynamic_crawling_start);
    tcase_add_test(tc, kinodynamic_free_start_no_leading_turn);
    tcase_add_test(tc, kinodynamic_corridor);
    tcase_add_test(tc, kinodynamic_state_limit);
    suite_add_tcase(s, tc);
    return s;
}
