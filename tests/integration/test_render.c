/* test_render.c — the picture routes against a real arcpathd on the demo maps: GET /v1/maps/{id}.svg and
 * .png beside /v1/maps/{id} and /cells, POST /v1/render for a query and for its stored answer (the same
 * bytes), PNG headers, and the errors with their fields. */
#include "tests/check_fast.h"
#include <math.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../util.h"
#include "harness.h"

Suite *render_suite(void);

static const char *QUERY =
    "{\"map\":\"rooms\",\"start\":{\"x\":3.5,\"y\":3.5,\"heading\":0},\"goal\":{\"x\":6.5,\"y\":2.5,\"heading\":3.1416},"
    "\"unit\":{\"radius\":0.4,\"turning_radius\":2,\"reverse\":true,\"reverse_penalty\":2},"
    "\"search\":{\"algorithm\":\"directional24\"},\"samples\":{\"step\":0.5}}";

static void get(const char *path, long status, const char *ctype, ap_resp *r)
{
    ck_assert_int_eq(ap_http(ap_demo_srv, "GET", path, NULL, 0, NULL, r), 0);
    ck_assert_msg(r->status == status, "GET %s: %ld %s", path, r->status, r->body);
    ck_assert_str_eq(r->content_type, ctype);
}

static void post(const char *body, long status, const char *ctype, ap_resp *r)
{
    ck_assert_int_eq(ap_post(ap_demo_srv, "/v1/render", body, r), 0);
    ck_assert_msg(r->status == status, "POST /v1/render %s: %ld %.300s", body, r->status, r->body);
    ck_assert_str_eq(r->content_type, ctype);
}

/* An error answer's code and field ("" = none). */
static void error_is(const ap_resp *r, const char *code, const char *field)
{
    json_t *j = ap_resp_json(r);
    ck_assert_ptr_nonnull(j);
    json_t *e = json_object_get(j, "error");
    ck_assert_str_eq(json_string_value(json_object_get(e, "code")), code);
    const char *f = json_string_value(json_object_get(e, "field"));
    const char *msg = json_string_value(json_object_get(e, "message"));
    ck_assert_msg(strcmp(f ? f : "", field) == 0, "field %s, want %s (%s)", f ? f : "(none)", field, msg);
    /* a query's message names its field as the field does ("query.unit.radius"; it said "unit.radius") */
    if (strncmp(field, "query.", 6) == 0 && msg != NULL) {
        char bare[128];
        snprintf(bare, sizeof bare, "\"%s\"", field + 6);
        ck_assert_msg(strstr(msg, bare) == NULL, "the message names %s without query.: %s", bare, msg);
    }
    json_decref(j);
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void png_is(const ap_resp *r, uint32_t w, uint32_t h)
{
    const unsigned char *p = (const unsigned char *)r->body;
    ck_assert_uint_gt(r->len, 33);
    ck_assert_mem_eq(p, "\x89PNG\r\n\x1a\n", 8);
    ck_assert_mem_eq(p + 12, "IHDR", 4);
    ck_assert_uint_eq(be32(p + 16), w);
    ck_assert_uint_eq(be32(p + 20), h);
}

START_TEST(map_pictures)
{
    ap_resp r;
    /* arena is 96 x 96: 1024 px wide (10.667 px per tile), the caption strip 18 px */
    get("/v1/maps/arena.svg", 200, "image/svg+xml", &r);
    static const char head[] = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1024\" height=\"1042\" "
                               "viewBox=\"0 0 96 97.6875\">\n<title>arena 96\xc3\x97" "96</title>\n";
    ck_assert_msg(strncmp(r.body, head, sizeof head - 1) == 0, "%.200s", r.body);
    ck_assert_ptr_nonnull(strstr(r.body, "</svg>\n"));
    ap_resp_free(&r);
    get("/v1/maps/arena.png", 200, "image/png", &r);
    png_is(&r, 1024, 1042);
    ap_resp_free(&r);
    /* the neighbouring routes are unchanged */
    get("/v1/maps/arena", 200, "application/json", &r);
    ck_assert_ptr_nonnull(strstr(r.body, "\"id\":\"arena\""));
    ap_resp_free(&r);
    get("/v1/maps/arena/cells", 200, "application/json", &r);
    ap_resp_free(&r);
    get("/v1/maps/nosuch.svg", 404, "application/json", &r);
    error_is(&r, "unknown_map", "");
    ap_resp_free(&r);
    get("/v1/maps/arena.svg/cells", 404, "application/json", &r); /* no map "arena.svg" can exist */
    error_is(&r, "unknown_map", "");
    ap_resp_free(&r);
    ck_assert_int_eq(ap_http(ap_demo_srv, "POST", "/v1/maps/arena.svg", "{}", 2, NULL, &r), 0);
    ck_assert_int_eq(r.status, 405);
    ck_assert_str_eq(r.allow, "GET, HEAD, PUT, DELETE, OPTIONS"); /* the picture's and /v1/maps/{id}'s (live maps) */
    ap_resp_free(&r);
}
END_TEST

/* Pictures are drawn on a pool thread, never on the HTTP thread: each picture request's access-log line
 * names the slow lane, where drawings run (a request answered on the HTTP thread names none), for a map
 * alone and a query (its search, then its drawing). */
START_TEST(pictures_drawn_in_the_pool)
{
    char *log = ap_test_temp_file("arcpath-render-log", "");
    ck_assert_ptr_nonnull(log);
    static ap_srv s;
    ck_assert_int_eq(ap_srv_start_logged(&s, "config/maps", NULL, NULL, log), 0);
    const char *id1[] = {"X-Request-ID: pic-map", NULL};
    ap_resp r;
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/rooms.png", NULL, 0, id1, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.content_type, "image/png");
    ap_resp_free(&r);
    const char *id2[] = {"X-Request-ID: pic-query", NULL};
    const char *q = "{\"query\":{\"map\":\"rooms\",\"start\":{\"x\":3.5,\"y\":3.5},\"goal\":{\"x\":9.5,\"y\":6.5}}}";
    ck_assert_int_eq(ap_http(&s, "POST", "/v1/render", q, strlen(q), id2, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.content_type, "image/svg+xml");
    ap_resp_free(&r);
    const char *id3[] = {"X-Request-ID: plain-info", NULL};
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/info", NULL, 0, id3, &r), 0);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    size_t len = 0;
    char *text = ap_test_read_file(log, &len);
    ck_assert_ptr_nonnull(text);
    const char *ids[] = {"\"id\":\"pic-map\"", "\"id\":\"pic-query\"", "\"id\":\"plain-info\""};
    for (int i = 0; i < 3; i++) {
        const char *line = strstr(text, ids[i]);
        ck_assert_msg(line != NULL, "no log line %s in:\n%s", ids[i], text);
        const char *eol = strchr(line, '\n');
        const char *lane = strstr(line, "\"lane\":\"slow\"");
        bool in_line = lane != NULL && (eol == NULL || lane < eol);
        ck_assert_msg(in_line == (i < 2), "%.*s", (int)(eol ? eol - line : 200), line);
    }
    free(text);
    unlink(log);
    free(log);
}
END_TEST

/* A picture whose client leaves while it is drawn is not sent: the drawing (one cairo stroke) runs to its
 * end, then the request is logged and counted 499 client_closed, not 200 ok (a helper: a client that left
 * after 3 s of a 15 s drawing was counted a 200, the bytes written to a closed socket). A stored answer of
 * 16,000 lines zigzagging across arena (2 MB: the body limit raised) draws for about 2.5 s; its client
 * closes after 0.3 s. */
START_TEST(picture_for_a_client_gone_is_499)
{
    char *log = ap_test_temp_file("arcpath-render-gone", "");
    ck_assert_ptr_nonnull(log);
    const char *env[] = {"ARCPATH_MAX_BODY_BYTES=4194304", NULL};
    static ap_srv s;
    ck_assert_int_eq(ap_srv_start_logged(&s, "config/maps", NULL, env, log), 0);
    enum { LINES = 16000 };
    const size_t cap = (size_t)LINES * 160 + 4096;
    char *body = malloc(cap);
    ck_assert_ptr_nonnull(body);
    size_t n = (size_t)snprintf(body, cap, "{\"map\":\"arena\",\"format\":\"png\",\"answer\":{\"status\":\"ok\","
                                           "\"map\":\"arena\",\"clear\":true,\"segments\":[");
    double x = 1.0, y = 1.0, total = 0.0;
    for (int i = 0; i < LINES; i++) {
        const double nx = i % 2 == 0 ? 96.0 : 1.0, ny = 1.0 + (double)(i * 37 % 95), len = hypot(nx - x, ny - y);
        n += (size_t)snprintf(body + n, cap - n,
                              "%s{\"type\":\"line\",\"start\":[%.17g,%.17g],\"end\":[%.17g,%.17g],\"heading\":%.17g,"
                              "\"length\":%.17g}",
                              i ? "," : "", x, y, nx, ny, atan2(ny - y, nx - x), len);
        total += len;
        x = nx;
        y = ny;
    }
    n += (size_t)snprintf(body + n, cap - n,
                          "],\"waypoints\":[[1,1],[%.17g,%.17g]],\"grid_cost\":%.17g,\"length\":%.17g,"
                          "\"stats\":{\"expanded\":1}}}",
                          x, y, total, total);
    ck_assert_uint_lt(n, cap);
    char head[256];
    const int hn = snprintf(head, sizeof head,
                            "POST /v1/render HTTP/1.1\r\nHost: t\r\nX-Request-ID: gone-picture\r\n"
                            "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n",
                            n);
    int fd = ap_raw_connect(s.port, NULL);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ap_send_all(fd, head, (size_t)hn), 0);
    ck_assert_int_eq(ap_send_all(fd, body, n), 0);
    free(body);
    struct timespec wait = {0, 300 * 1000 * 1000};
    nanosleep(&wait, NULL);
    struct pollfd pf = {.fd = fd, .events = POLLIN};
    ck_assert_msg(poll(&pf, 1, 0) == 0, "answered within 0.3 s: the drawing was too short for the test");
    close(fd);
    /* the drawing ends, then the answer: 499 in the metrics (within 60 s even under the sanitizers) */
    double gone = 0.0, ok = 0.0;
    for (int i = 0; i < 600 && gone < 1.0 && ok < 1.0; i++) {
        nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
        gone = ap_metric_now(&s, "arcpath_requests_total", "route=\"/v1/render\",code=\"499\"");
        ok = ap_metric_now(&s, "arcpath_requests_total", "route=\"/v1/render\",code=\"200\"");
    }
    ck_assert_msg(gone == 1.0 && ok < 1.0, "render 499: %g, 200: %g", gone, ok);
    /* a stored answer drawn: no search ran, so none is observed (the abandoned drawing was, as a slow-lane
     * search: an ops helper) */
    const double fast = ap_metric_now(&s, "arcpath_search_duration_seconds_count", "lane=\"fast\""),
                 slow = ap_metric_now(&s, "arcpath_search_duration_seconds_count", "lane=\"slow\"");
    ck_assert_msg(fast == 0.0 && slow == 0.0, "searches observed: fast %g, slow %g", fast, slow);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    size_t len = 0;
    char *text = ap_test_read_file(log, &len);
    ck_assert_ptr_nonnull(text);
    const char *line = strstr(text, "\"id\":\"gone-picture\"");
    ck_assert_msg(line != NULL, "%s", text);
    const char *eol = strchr(line, '\n');
    const char *st = strstr(line, "\"status\":499");
    ck_assert_msg(st != NULL && (eol == NULL || st < eol), "%.*s", (int)(eol ? eol - line : 300), line);
    free(text);
    unlink(log);
    free(log);
}
END_TEST

/* Drawings take at most workers - 1 pool threads (they run in the slow lane), so fast queries keep a
 * thread: two PNGs of a serpentine path of 122,655 cells with its samples (~0.9 s each) on 2 workers, and a
 * short query sent to the pool (inline_fast off) after them answers while both still draw. As fast-lane
 * jobs the two drawings held both threads and the query waited for one of them (a helper: 3.9 s). */
START_TEST(pictures_leave_a_thread_for_fast_queries)
{
    enum { W = 512, H = 512 };
    static char map[64 + H * (W + 1) + 1];
    int n = snprintf(map, sizeof map, "type octile\nheight %d\nwidth %d\nmap\n", H, W);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            /* rows 0-479: 1-wide lanes (walls at odd columns, open at row 479 then row 0 in turn); row 480 a
             * wall; below it an open field */
            const bool wall = y < 480 ? x % 2 == 1 && y != ((x / 2) % 2 == 0 ? 479 : 0) : y == 480;
            map[n++] = wall ? '@' : '.';
        }
        map[n++] = '\n';
    }
    map[n] = '\0';
    ap_srv s;
    ap_srv_dir d;
    ck_assert_int_eq(ap_srv_start_dir(&s, &d, "draw", "comb", map, "{\"workers\": 2, \"inline_fast\": false}"), 0);
    const char *draw = "{\"query\":{\"map\":\"comb\",\"start\":{\"x\":0.5,\"y\":0.5},\"goal\":{\"x\":510.5,"
                       "\"y\":479.5},\"search\":{\"algorithm\":\"jps_plus\",\"smoothing\":\"none\"},"
                       "\"samples\":{\"step\":2.7},\"deadline_ms\":60000},\"format\":\"png\"}";
    int fd[2];
    for (int i = 0; i < 2; i++) {
        char req[1024];
        int k = snprintf(req, sizeof req,
                         "POST /v1/render HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         "Content-Length: %zu\r\n\r\n%s",
                         strlen(draw), draw);
        fd[i] = ap_raw_connect(s.port, NULL);
        ck_assert_int_ge(fd[i], 0);
        ck_assert_int_eq(ap_send_all(fd[i], req, (size_t)k), 0);
    }
    struct timespec pause = {0, 250 * 1000 * 1000};
    nanosleep(&pause, NULL); /* both searched (~60 ms each), drawing */
    json_t *j = ap_post_want(&s, "/v1/path",
                             "{\"map\":\"comb\",\"start\":{\"x\":3.5,\"y\":490.5},\"goal\":{\"x\":60.5,\"y\":500.5}}",
                             200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "stats"), "lane")), "fast");
    json_decref(j);
    for (int i = 0; i < 2; i++) {
        struct pollfd pf = {.fd = fd[i], .events = POLLIN};
        ck_assert_msg(poll(&pf, 1, 0) == 0, "drawing %d answered first: the query waited for it", i);
    }
    for (int i = 0; i < 2; i++) {
        char buf[64] = {0};
        ck_assert_int_gt(recv(fd[i], buf, sizeof buf - 1, 0), 12);
        ck_assert_msg(strncmp(buf, "HTTP/1.1 200", 12) == 0, "%s", buf);
        close(fd[i]);
    }
    ck_assert_int_eq(ap_srv_stop_dir(&s, &d), 0);
}
END_TEST

/* The query drawn by the server and its answer drawn from the stored JSON give the same bytes. */
START_TEST(query_and_answer_round_trip)
{
    ap_resp q, a, p;
    char body[8192];
    snprintf(body, sizeof body, "{\"query\":%s}", QUERY);
    post(body, 200, "image/svg+xml", &q);
    ck_assert_int_eq(ap_post(ap_demo_srv, "/v1/path", QUERY, &p), 0);
    ck_assert_int_eq(p.status, 200);
    /* the answer has a reverse piece: drawn dashed red */
    ck_assert_ptr_nonnull(strstr(p.body, "\"reverse\":true"));
    ck_assert_ptr_nonnull(strstr(q.body, "stroke=\"#cf222e\" stroke-width=\"0.2271\" stroke-dasharray="));
    ck_assert_ptr_nonnull(strstr(q.body, "<title>rooms \xc2\xb7 directional24 \xc2\xb7 length "));
    snprintf(body, sizeof body, "{\"map\":\"rooms\",\"radius\":0.4,\"algorithm\":\"directional24\",\"answer\":%s}", p.body);
    post(body, 200, "image/svg+xml", &a);
    ck_assert_uint_eq(a.len, q.len);
    ck_assert_str_eq(a.body, q.body);
    ap_resp_free(&a);
    /* as PNG, cropped to 14 x 10 tiles: 32 px per tile */
    snprintf(body, sizeof body, "{\"query\":%s,\"format\":\"png\",\"view\":{\"x0\":0,\"y0\":0,\"x1\":14,\"y1\":10}}", QUERY);
    post(body, 200, "image/png", &a);
    png_is(&a, 448, 338);
    ap_resp_free(&a);
    snprintf(body, sizeof body, "{\"map\":\"rooms\",\"answer\":%s,\"format\":\"png\",\"view\":{\"x0\":0,\"y0\":0,"
             "\"x1\":14,\"y1\":10}}", p.body);
    post(body, 200, "image/png", &a);
    png_is(&a, 448, 338);
    ap_resp_free(&a);
    ap_resp_free(&p);
    ap_resp_free(&q);
}
END_TEST

/* A query naming a unit kind is drawn with the kind's radius (the band and the discs), as one that spells
 * the kind's fields out: same bytes. The picture took the request's own unit.radius before the kind was
 * applied, and drew demo.conf's tank (radius 0.9) as a point. */
START_TEST(unit_kind_radius_drawn)
{
    ap_srv s;
    const char *args[] = {"--config", "config/demo.conf", NULL};
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", args, NULL), 0);
    static const char *const units[] = {
        "{\"kind\":\"tank\"}",
        "{\"radius\":0.9,\"turning_radius\":1.5,\"capability\":[\"ground\"],\"max_speed\":10,\"max_accel\":1.5,"
        "\"max_brake\":3,\"max_lateral_accel\":4,\"max_reverse_speed\":10,\"max_turn_rate\":0.8}",
    };
    ap_resp r[2];
    for (int i = 0; i < 2; i++) {
        char body[512];
        snprintf(body, sizeof body,
                 "{\"query\":{\"map\":\"rooms\",\"start\":{\"x\":3.5,\"y\":3.5,\"heading\":0},\"goal\":{\"x\":20.5,"
                 "\"y\":15.5},\"unit\":%s,\"search\":{\"algorithm\":\"directional24\"}}}", units[i]);
        ck_assert_int_eq(ap_post(&s, "/v1/render", body, &r[i]), 0);
        ck_assert_msg(r[i].status == 200, "%s: %ld %.300s", body, r[i].status, r[i].body);
    }
    ck_assert_ptr_nonnull(strstr(r[0].body, "stroke-width=\"1.8\"")); /* the swept band: the disc's diameter */
    ck_assert_ptr_nonnull(strstr(r[0].body, "r=\"0.9\""));            /* start and goal discs */
    ck_assert_str_eq(r[0].body, r[1].body);
    ap_resp_free(&r[0]);
    ap_resp_free(&r[1]);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

/* Every optional member a /v1/path answer may carry, and every value, passes the picture's answer parser: a
 * query whose answer has it draws (200), and its stored answer draws the same bytes. The kinodynamic answers
 * with "capped" (a 300-expansion cap) and "probe", a timed legal-turn answer ("duration_s", segment timing)
 * and samples in time ("t", "v"), an arc of more than a full turn. Before the parser knew "capped" and took
 * sweeps beyond 2 pi, the first and last queries' pictures were 500s. */
START_TEST(every_answer_member_draws)
{
    static const struct {
        const char *query, *member, *algorithm;
    } cases[] = {
        {"{\"map\":\"arena\",\"start\":{\"x\":5.5,\"y\":5.5,\"heading\":0,\"speed\":4},"
         "\"goal\":{\"x\":20.5,\"y\":12.5,\"heading\":1.57,\"speed\":2},\"unit\":{\"kind\":\"car\",\"turning_radius\":3},"
         "\"goal_tolerance\":{\"position\":0.3,\"heading\":0.02,\"speed\":0.1},"
         "\"search\":{\"algorithm\":\"kinodynamic\",\"max_expansions\":300},\"deadline_ms\":2000}",
         "\"capped\":true", "kinodynamic"},
        {"{\"map\":\"arena\",\"start\":{\"x\":5.5,\"y\":5.5,\"heading\":0,\"speed\":1},\"goal\":{\"x\":25.5,"
         "\"y\":9.5,\"speed\":0.5},\"unit\":{\"kind\":\"car\",\"radius\":0.4},"
         "\"search\":{\"algorithm\":\"kinodynamic\",\"probe\":true}}",
         "\"probe\":true", "kinodynamic"},
        {"{\"map\":\"rooms\",\"start\":{\"x\":3.5,\"y\":3.5,\"heading\":0},\"goal\":{\"x\":20.5,\"y\":10.5},"
         "\"unit\":{\"kind\":\"car\",\"radius\":0.4,\"turning_radius\":2},\"search\":{\"algorithm\":\"directional24\"},"
         "\"samples\":{\"dt\":0.5}}",
         "\"duration_s\":", "directional24"},
        /* a turning radius of 0.01 lets one kinodynamic action loop (radius v^2 / a_lat = 1/8, 1.25 tiles: a
         * sweep of -10 rad); the parser took at most 2 pi and the picture was a 500 */
        {"{\"map\":\"rooms\",\"start\":{\"x\":28.5,\"y\":12.5,\"heading\":3.14},\"goal\":{\"x\":29.0,\"y\":12.9,"
         "\"speed\":1,\"heading\":1.88},\"unit\":{\"turning_radius\":0.01},"
         "\"search\":{\"algorithm\":\"kinodynamic\",\"max_expansions\":300,\"probe\":true}}",
         "\"sweep\":-10.0", "kinodynamic"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ap_resp p, q, a;
        char body[8192];
        ck_assert_int_eq(ap_post(ap_demo_srv, "/v1/path", cases[i].query, &p), 0);
        ck_assert_msg(p.status == 200 && strstr(p.body, cases[i].member) != NULL, "case %zu: %ld %.300s", i, p.status,
                      p.body);
        snprintf(body, sizeof body, "{\"query\":%s}", cases[i].query);
        post(body, 200, "image/svg+xml", &q);
        /* the drawing's facts a query gives by itself: its map and the unit's radius (0 when absent) */
        json_t *qj = json_loads(cases[i].query, 0, NULL);
        ck_assert_ptr_nonnull(qj);
        snprintf(body, sizeof body, "{\"map\":\"%s\",\"radius\":%.17g,\"algorithm\":\"%s\",\"answer\":%s}",
                 json_string_value(json_object_get(qj, "map")),
                 json_number_value(json_object_get(json_object_get(qj, "unit"), "radius")), cases[i].algorithm, p.body);
        json_decref(qj);
        post(body, 200, "image/svg+xml", &a);
        ck_assert_msg(a.len == q.len && strcmp(a.body, q.body) == 0, "case %zu: the stored answer draws otherwise", i);
        ap_resp_free(&a);
        ap_resp_free(&q);
        ap_resp_free(&p);
    }
}
END_TEST

/* arcpath_path_answers_total{outcome="ok"} of the demo server. */
static double ok_answers(void)
{
    ap_resp r;
    ck_assert_int_eq(ap_http(ap_demo_srv, "GET", "/metrics", NULL, 0, NULL, &r), 0);
    double v = ap_metric(r.body, "arcpath_path_answers_total", "outcome=\"ok\"");
    ap_resp_free(&r);
    return v < 0 ? 0 : v; /* absent until the first ok answer (this suite run alone) */
}

/* A picture refused after its query ran (here 413: over max_answer_bytes) does not count the query as a
 * path answer: the client got none. It counted when the query was searched (a helper: 413s, 503s and
 * 499s of /v1/render all went up arcpath_path_answers_total); now when the picture's 200 is made. */
START_TEST(refused_picture_counts_no_answer)
{
    static const char *const env[] = {"ARCPATH_MAX_ANSWER_BYTES=65536", NULL};
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, env), 0);
    static const char big[] = "{\"query\":{\"map\":\"maze\",\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":"
                              "{\"x\":95.5,\"y\":95.5},\"search\":{\"smoothing\":\"none\"},\"samples\":{\"step\":0.05}}}";
    static const char small[] = "{\"query\":{\"map\":\"rooms\",\"start\":{\"x\":3.5,\"y\":3.5},\"goal\":"
                                "{\"x\":9.5,\"y\":9.5}}}";
    const double before = ap_metric_now(&s, "arcpath_path_answers_total", "outcome=\"ok\"");
    ap_resp r;
    ck_assert_int_eq(ap_post(&s, "/v1/render", big, &r), 0);
    ck_assert_msg(r.status == 413, "HTTP %ld: %.300s", r.status, r.body);
    ck_assert_ptr_nonnull(strstr(r.body, "\"answer_too_large\""));
    ap_resp_free(&r);
    const double after_refused = ap_metric_now(&s, "arcpath_path_answers_total", "outcome=\"ok\"");
    ck_assert_msg(after_refused == before || (before < 0 && after_refused < 0), "%g -> %g", before, after_refused);
    ck_assert_int_eq(ap_post(&s, "/v1/render", small, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ap_resp_free(&r);
    ck_assert_double_eq(ap_metric_now(&s, "arcpath_path_answers_total", "outcome=\"ok\""), before < 0 ? 1 : before + 1);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

START_TEST(render_errors)
{
    ap_resp r;
    char body[8192];
    /* the query's own errors, named under "query." */
    post("{\"query\":{\"map\":\"rooms\",\"start\":{\"x\":\"a\",\"y\":1},\"goal\":{\"x\":1,\"y\":1}}}", 400,
         "application/json", &r);
    error_is(&r, "invalid_request", "query.start.x");
    ap_resp_free(&r);
    post("{\"query\":{\"map\":\"nosuch\",\"start\":{\"x\":1,\"y\":1},\"goal\":{\"x\":1,\"y\":1}}}", 404,
         "application/json", &r);
    error_is(&r, "unknown_map", "query.map");
    ap_resp_free(&r);
    post("{\"query\":{\"map\":\"rooms\",\"start\":{\"x\":3.5,\"y\":3.5},\"goal\":{\"x\":9.5,\"y\":9.5},"
         "\"unit\":{\"radius\":99}}}", 400, "application/json", &r);
    error_is(&r, "invalid_request", "query.unit.radius");
    ap_resp_free(&r);
    post("{\"query\":{\"map\":\"rooms\",\"start\":{\"x\":0.5,\"y\":0.5},\"goal\":{\"x\":3.5,\"y\":3.5}}}", 422,
         "application/json", &r);
    error_is(&r, "start_blocked", "query.start");
    ap_resp_free(&r);
    /* refusals the plan makes (a disc over a wall at its off-centre start; a start speed the path cannot
     * take) are named under "query." too: they were "start" and "start.speed" */
    post("{\"query\":{\"map\":\"rooms\",\"start\":{\"x\":1.2,\"y\":3.5},\"goal\":{\"x\":20.5,\"y\":15.5},"
         "\"unit\":{\"radius\":0.4}}}", 422, "application/json", &r);
    error_is(&r, "start_blocked", "query.start");
    ap_resp_free(&r);
    post("{\"query\":{\"map\":\"rooms\",\"start\":{\"x\":10.5,\"y\":14.5,\"speed\":14},\"goal\":{\"x\":12.5,"
         "\"y\":58.5},\"unit\":{\"kind\":\"car\"}}}", 400, "application/json", &r);
    error_is(&r, "invalid_request", "query.start.speed");
    ap_resp_free(&r);
    /* a stored answer: its bad element named */
    post("{\"map\":\"rooms\",\"answer\":{\"status\":\"ok\",\"map\":\"rooms\",\"grid_cost\":1,\"length\":1,\"clear\":true,"
         "\"waypoints\":[],\"segments\":[{\"type\":\"line\",\"start\":[3.5,3.5],\"end\":[4.5,3.5],\"heading\":0,"
         "\"length\":1},{\"type\":\"arc\",\"start\":[4.5,3.5],\"end\":[4.5,3.5],\"center\":[4.5,4.5],\"radius\":-1,"
         "\"start_heading\":0,\"sweep\":0,\"length\":0}],\"stats\":{\"expanded\":1}}}", 400, "application/json", &r);
    error_is(&r, "invalid_request", "answer.segments[1].radius");
    ap_resp_free(&r);
    const char *np = "{\"status\":\"no_path\",\"map\":\"rooms\",\"reason\":\"unreachable\",\"stats\":{\"expanded\":0}}";
    snprintf(body, sizeof body, "{\"map\":\"nosuch\",\"answer\":%s}", np);
    post(body, 400, "application/json", &r);
    error_is(&r, "invalid_request", "answer.map");
    ap_resp_free(&r);
    snprintf(body, sizeof body, "{\"map\":\"rooms\",\"answer\":%s,\"view\":{\"x0\":0,\"y0\":0,\"x1\":94,\"y1\":10}}", np);
    post(body, 400, "application/json", &r);
    error_is(&r, "invalid_request", "view.x1");
    ap_resp_free(&r);
    /* a query's view beyond the map is refused before its search: no path answer is counted (it was, after
     * the whole search) */
    double ok_before = ok_answers();
    post("{\"query\":{\"map\":\"rooms\",\"start\":{\"x\":3.5,\"y\":3.5},\"goal\":{\"x\":9.5,\"y\":9.5}},"
         "\"view\":{\"x0\":0,\"y0\":0,\"x1\":94,\"y1\":10}}", 400, "application/json", &r);
    error_is(&r, "invalid_request", "view.x1");
    ap_resp_free(&r);
    ck_assert_double_eq(ok_answers(), ok_before);
    post("{\"query\":{\"map\":\"rooms\",\"start\":{\"x\":3.5,\"y\":3.5},\"goal\":{\"x\":9.5,\"y\":9.5}},"
         "\"view\":{\"x0\":0,\"y0\":0,\"x1\":32,\"y1\":10}}", 200, "image/svg+xml", &r);
    ap_resp_free(&r);
    ck_assert_double_eq(ok_answers(), ok_before + 1);
    /* a no_path answer draws the map with its verdict */
    snprintf(body, sizeof body, "{\"map\":\"rooms\",\"answer\":%s}", np);
    post(body, 200, "image/svg+xml", &r);
    ck_assert_ptr_nonnull(strstr(r.body, "<title>rooms \xc2\xb7 no_path (unreachable)</title>"));
    ap_resp_free(&r);
    post("{\"map\":\"rooms\"", 400, "application/json", &r);
    error_is(&r, "invalid_json", "");
    ap_resp_free(&r);
    ck_assert_int_eq(ap_http(ap_demo_srv, "GET", "/v1/render", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 405);
    ck_assert_str_eq(r.allow, "POST, OPTIONS");
    ap_resp_free(&r);
    /* a circle map (the demo's forest) has no picture: the render names the field, GET says why it is 404 */
    post("{\"map\":\"forest\",\"answer\":{\"status\":\"no_path\",\"map\":\"forest\",\"reason\":\"unreachable\","
         "\"stats\":{\"expanded\":0}}}", 400, "application/json", &r);
    error_is(&r, "invalid_request", "map");
    ck_assert_ptr_nonnull(strstr(r.body, "pictures are drawn of grid maps only; this is a circle map"));
    ap_resp_free(&r);
    post("{\"query\":{\"map\":\"forest\",\"start\":{\"x\":1,\"y\":1},\"goal\":{\"x\":2,\"y\":2}}}", 400,
         "application/json", &r);
    error_is(&r, "invalid_request", "query.map");
    ap_resp_free(&r);
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(ap_http(ap_demo_srv, "GET", k ? "/v1/maps/forest.png" : "/v1/maps/forest.svg", NULL, 0, NULL, &r),
                         0);
        ck_assert_int_eq(r.status, 404);
        error_is(&r, "unknown_map", "");
        ck_assert_ptr_nonnull(strstr(r.body, "this id is a circle map: pictures are drawn of grid maps only"));
        ap_resp_free(&r);
    }
}
END_TEST

Suite *render_suite(void)
{
    Suite *s = suite_create("integration/render");
    TCase *tc = tcase_create("render");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, map_pictures);
    tcase_add_test(tc, pictures_drawn_in_the_pool);
    tcase_add_test(tc, picture_for_a_client_gone_is_499);
    tcase_add_test(tc, pictures_leave_a_thread_for_fast_queries);
    tcase_add_test(tc, query_and_answer_round_trip);
    tcase_add_test(tc, every_answer_member_draws);
    tcase_add_test(tc, unit_kind_radius_drawn);
    tcase_add_test(tc, render_errors);
    tcase_add_test(tc, refused_picture_counts_no_answer);
    suite_add_tcase(s, tc);
    return s;
}
