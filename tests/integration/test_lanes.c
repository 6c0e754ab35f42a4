/* test_lanes.c — fast and slow lanes under load, overload (503), deadlines.
 *
 * The lane test: 8 clients keep long Paris_1_1024 queries running (each tens of ms, so they move to the slow
 * lane) while one client sends short den520d queries (scenario buckets <= 5); every short answer must come
 * back ok from the fast lane. Its p50/p99 are printed (the latency target is a bench figure, not a test).
 * Run again with every query on the pool, whose threads pool_nice must lower (and only they).
 * Every loop is bounded in count; all traffic goes to 127.0.0.1. */
#include "tests/check_fast.h"
#include <dirent.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../util.h"
#include "harness.h"

Suite *lanes_suite(void);

typedef struct long_client {
    const ap_srv *srv;
    const ap_test_scen *scen;
    size_t nscen;
    int id;
    atomic_int *stop;
    int max;                /* requests to send at most */
    int done, slow, errors, overloaded;
    char retry_after[16];   /* from a 503, if any */
    char code[32];          /* error.code of a 503, if any */
} long_client;

static ap_test_scen *load(const char *map, size_t *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.map.scen", ap_mai_dir, map);
    ap_test_scen *sc = NULL;
    ck_assert_int_eq(ap_test_load_scen(path, &sc, n), 0);
    return sc;
}

/* Long queries name "astar": JPS+ (what "auto" picks) answers even the longest Paris line in ~0.1 ms, and
 * these must keep the slow lane busy. */
static void body_for(char *buf, size_t cap, const char *map, const ap_test_scen *s, int deadline_ms)
{
    bool slow = strcmp(map, "Paris_1_1024") == 0;
    snprintf(buf, cap,
             "{\"map\":\"%s\",\"start\":{\"x\":%d.5,\"y\":%d.5},\"goal\":{\"x\":%d.5,\"y\":%d.5},\"deadline_ms\":%d%s}",
             map, s->sx, s->sy, s->gx, s->gy, deadline_ms, slow ? ",\"search\":{\"algorithm\":\"astar\"}" : "");
}

static void *long_loop(void *arg)
{
    long_client *c = arg;
    for (int k = 0; k < c->max && !atomic_load(c->stop); k++) {
        /* The longest tenth of the file: hundreds of tiles across Paris. */
        const ap_test_scen *s = &c->scen[c->nscen - 1 - (size_t)((c->id * 7 + k * 13) % (int)(c->nscen / 10))];
        char body[512];
        body_for(body, sizeof body, "Paris_1_1024", s, 60000);
        ap_resp r;
        if (ap_post(c->srv, "/v1/path", body, &r) != 0) {
            c->errors++;
        } else if (r.status == 503) {
            c->overloaded++;
            snprintf(c->retry_after, sizeof c->retry_after, "%s", r.retry_after);
            json_t *j = ap_resp_json(&r);
            snprintf(c->code, sizeof c->code, "%s",
                     json_string_value(json_object_get(json_object_get(j, "error"), "code")));
            json_decref(j);
        } else if (r.status != 200) {
            c->errors++;
        } else {
            json_t *j = ap_resp_json(&r);
            const char *lane = json_string_value(json_object_get(json_object_get(j, "stats"), "lane"));
            if (lane && strcmp(lane, "slow") == 0)
                c->slow++;
            json_decref(j);
            c->done++;
        }
        ap_resp_free(&r);
    }
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The lane test proper, against server srv; `what` names the configuration in the printed figures. */
static void lane_test(const ap_srv *srv, const char *what, int want)
{
    size_t np = 0, nd = 0;
    ap_test_scen *paris = load("Paris_1_1024", &np), *den = load("den520d", &nd);
    atomic_int stop = 0;
    long_client lc[8];
    pthread_t th[8];
    for (int i = 0; i < 8; i++) {
        lc[i] = (long_client){.srv = srv, .scen = paris, .nscen = np, .id = i, .stop = &stop, .max = 400};
        ck_assert_int_eq(pthread_create(&th[i], NULL, long_loop, &lc[i]), 0);
    }
    /* Give the long clients time to fill the slow lane. */
    struct timespec ts = {0, 300 * 1000000L};
    nanosleep(&ts, NULL);
    double *lat = calloc((size_t)want, sizeof *lat);
    int got = 0, fast = 0;
    /* den520d has about 60 lines in buckets 0-5: go round them as often as needed. */
    for (size_t k = 0; k < nd * 10 && got < want; k++) {
        size_t i = k % nd;
        if (den[i].bucket > 5)
            continue;
        char body[512];
        body_for(body, sizeof body, "den520d", &den[i], 5000);
        ap_resp r;
        ck_assert_int_eq(ap_post(srv, "/v1/path", body, &r), 0);
        ck_assert_msg(r.status == 200, "short query %d: HTTP %ld %s", got, r.status, r.body);
        json_t *j = ap_resp_json(&r);
        ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
        const char *lane = json_string_value(json_object_get(json_object_get(j, "stats"), "lane"));
        fast += lane && strcmp(lane, "fast") == 0;
        json_decref(j);
        lat[got++] = r.total_s;
        ap_resp_free(&r);
    }
    atomic_store(&stop, 1);
    int done = 0, slow = 0, errors = 0;
    for (int i = 0; i < 8; i++) {
        pthread_join(th[i], NULL);
        done += lc[i].done;
        slow += lc[i].slow;
        errors += lc[i].errors;
    }
    qsort(lat, (size_t)got, sizeof *lat, cmp_double);
    printf("lane test (%s): %d short queries while 8 clients ran %d long ones (%d on the slow lane): "
           "short p50 %.3f ms, p99 %.3f ms\n",
           what, got, done, slow, lat[got / 2] * 1e3, lat[(got * 99) / 100 - (got >= 100 ? 0 : 1)] * 1e3);
    ck_assert_int_eq(got, want);
    ck_assert_int_eq(fast, want);
    ck_assert_int_eq(errors, 0);
    ck_assert_int_gt(done, 0);
    ck_assert_int_gt(slow, 0);
    free(lat);
    free(paris);
    free(den);
}

START_TEST(short_queries_flow_while_slow_lane_is_busy)
{
    if (!ap_mai_srv) {
        ap_test_skip_no_data("lane test");
        return;
    }
    lane_test(ap_mai_srv, "inline fast slice", ap_test_quick() ? 60 : 300);
}
END_TEST

/* The nice value of thread tid of process pid (/proc's stat, field 19), or INT_MIN when unreadable. */
static int thread_nice(pid_t pid, const char *tid)
{
    char path[128], line[1024];
    snprintf(path, sizeof path, "/proc/%d/task/%s/stat", (int)pid, tid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return INT_MIN;
    const size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = '\0';
    const char *p = strrchr(line, ')'); /* the thread's name may hold spaces and parentheses */
    int nice = INT_MIN;
    /* after the name: state (3), then fields 4 .. 18, then nice (19) */
    if (p == NULL || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %d", &nice) != 1)
        return INT_MIN;
    return nice;
}

START_TEST(short_queries_flow_through_the_pool_too)
{
    /* The same with inline_fast off: every query is handed to the loop and runs on the worker pool, whose
     * threads pool_nice lowers (and only they: the HTTP threads keep the process's nice). */
    if (!ap_mai_dir) {
        ap_test_skip_no_data("lane test");
        return;
    }
    ap_srv s;
    const char *env[] = {"ARCPATH_INLINE_FAST=0", "ARCPATH_POOL_NICE=5", "ARCPATH_WORKERS=2", NULL};
    ck_assert_int_eq(ap_srv_start(&s, ap_mai_small_dir, ap_mai_small_args, env), 0);
    /* the config's skip_tables reach the maps, each its own entry (ap_mai_small_args: Paris_1_1024 without
     * any_angle and hier, den520d by "*" without any_angle), the others built */
    ap_resp info;
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/den520d", NULL, 0, NULL, &info), 0);
    ck_assert_int_eq(info.status, 200);
    ck_assert_msg(strstr(info.body, "\"name\":\"any_angle\"") == NULL && strstr(info.body, "\"name\":\"jps_plus\"") != NULL &&
                      strstr(info.body, "\"name\":\"hier\"") != NULL,
                  "%s", info.body);
    ap_resp_free(&info);
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/Paris_1_1024", NULL, 0, NULL, &info), 0);
    ck_assert_int_eq(info.status, 200);
    ck_assert_msg(strstr(info.body, "\"name\":\"any_angle\"") == NULL && strstr(info.body, "\"name\":\"jps_plus\"") != NULL &&
                      strstr(info.body, "\"name\":\"hier\"") == NULL,
                  "%s", info.body);
    ap_resp_free(&info);
    lane_test(&s, "pool only", ap_test_quick() ? 60 : 200);

    char main_tid[16];
    snprintf(main_tid, sizeof main_tid, "%d", (int)s.pid);
    const int base = thread_nice(s.pid, main_tid);
    ck_assert_int_ne(base, INT_MIN);
    const int niced = base + 5 > 19 ? 19 : base + 5;
    char dir[64];
    snprintf(dir, sizeof dir, "/proc/%d/task", (int)s.pid);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int at_base = 0, lowered = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        const int v = thread_nice(s.pid, e->d_name);
        ck_assert_msg(v == base || v == niced, "thread %s: nice %d (process %d, pool %d)", e->d_name, v, base,
                      niced);
        at_base += v == base;
        lowered += v == niced && niced != base;
    }
    closedir(d);
    /* both pool threads ran searches; the main, HTTP, lifecycle and watchdog threads were not lowered */
    ck_assert_int_eq(lowered, 2);
    ck_assert_int_ge(at_base, 2);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

/* A query that builds a table of its map first (planner ap_query_builds_table: a sized unit's JPS+ tables, a
 * disc's any_angle graph) never runs on the HTTP thread and begins on the slow lane, so the build holds
 * neither the thread that answers /healthz and short queries nor a fast worker. Before: the first jps_plus
 * query of a disc on Paris_1_1024 held /healthz for 0.3 s (its build ran inline), and two first any_angle
 * queries of new disc radii on maze512-1-0 held both fast workers for 0.5-0.9 s (a helper's short query
 * timed out in the queue). The next query of the same key finds the table and runs on the fast lane. */
START_TEST(table_builds_begin_on_the_slow_lane)
{
    ap_srv srv;
    ck_assert_int_eq(ap_srv_start(&srv, "config/maps", NULL, NULL), 0);
    static const char *const units[] = {"\"radius\":1.7},\"search\":{\"algorithm\":\"jps_plus\"}",
                                        "\"radius\":0.33},\"search\":{\"algorithm\":\"any_angle\"}",
                                        "\"radius\":2.2}"};
    static const double cost[] = {123.3797256769669, 121.63058825805291, 125.13708498984761};
    for (size_t i = 0; i < 3; i++) {
        char body[512];
        snprintf(body, sizeof body,
                 "{\"map\":\"arena\",\"start\":{\"x\":3.5,\"y\":3.5},\"goal\":{\"x\":90.5,\"y\":88.5},"
                 "\"unit\":{%s}",
                 units[i]);
        for (int k = 0; k < 2; k++) {
            json_t *j = ap_post_want(&srv, "/v1/path", body, 200);
            ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
            ck_assert_double_eq_tol(json_number_value(json_object_get(j, "grid_cost")), cost[i], 1e-9);
            const char *lane = json_string_value(json_object_get(json_object_get(j, "stats"), "lane"));
            ck_assert_msg(strcmp(lane, k == 0 ? "slow" : "fast") == 0, "%s, query %d: lane %s", body, k, lane);
            json_decref(j);
        }
    }
    ck_assert_int_eq(ap_srv_stop(&srv), 0);
}
END_TEST

START_TEST(deadline_gives_timeout)
{
    if (!ap_mai_srv) {
        ap_test_skip_no_data("deadline test");
        return;
    }
    size_t np = 0;
    ap_test_scen *paris = load("Paris_1_1024", &np);
    char body[512];
    body_for(body, sizeof body, "Paris_1_1024", &paris[np - 1], 1);
    ap_resp r;
    ck_assert_int_eq(ap_post(ap_mai_srv, "/v1/path", body, &r), 0);
    ck_assert_int_eq(r.status, 200);
    json_t *j = ap_resp_json(&r);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "timeout");
    ck_assert_ptr_null(json_object_get(j, "segments"));
    json_decref(j);
    ap_resp_free(&r);
    free(paris);
}
END_TEST

START_TEST(full_slow_lane_answers_overloaded)
{
    if (!ap_mai_dir) {
        ap_test_skip_no_data("overload test");
        return;
    }
    /* One worker, one slow slot, one waiting place: eight concurrent long queries cannot all be taken. */
    ap_srv s;
    const char *env[] = {"ARCPATH_WORKERS=1", "ARCPATH_SLOW_SLOTS=1", "ARCPATH_SLOW_QUEUE=1", NULL};
    ck_assert_int_eq(ap_srv_start(&s, ap_mai_small_dir, ap_mai_small_args, env), 0);
    size_t np = 0;
    ap_test_scen *paris = load("Paris_1_1024", &np);
    int overloaded = 0;
    char retry_after[16] = "", code[32] = "";
    for (int round = 0; round < 5 && overloaded == 0; round++) {
        atomic_int stop = 0;
        long_client lc[8];
        pthread_t th[8];
        for (int i = 0; i < 8; i++) {
            lc[i] = (long_client){.srv = &s, .scen = paris, .nscen = np, .id = i + round, .stop = &stop, .max = 2};
            ck_assert_int_eq(pthread_create(&th[i], NULL, long_loop, &lc[i]), 0);
        }
        for (int i = 0; i < 8; i++) {
            pthread_join(th[i], NULL);
            ck_assert_int_eq(lc[i].errors, 0);
            overloaded += lc[i].overloaded;
            if (lc[i].overloaded) {
                strcpy(retry_after, lc[i].retry_after);
                strcpy(code, lc[i].code);
            }
        }
    }
    ck_assert_int_gt(overloaded, 0);
    ck_assert_str_eq(code, "overloaded");
    ck_assert_str_eq(retry_after, "1");
    free(paris);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

/* The value of s's metric line name{labels} now (0 when the line is not there yet). */
static double metric_now(const ap_srv *s, const char *name, const char *labels)
{
    const double v = ap_metric_now(s, name, labels);
    return v < 0 ? 0 : v; /* (no such line yet: -1) */
}

/* The arcpath_requests_total count of answers on route with HTTP status code (0 if none). */
static double route_answers(const ap_srv *s, const char *route, int code)
{
    char labels[96];
    snprintf(labels, sizeof labels, "route=\"%s\",code=\"%d\"", route, code);
    return metric_now(s, "arcpath_requests_total", labels);
}

/* The arcpath_requests_total count of /v1/path answers with HTTP status code (0 if none). */
static double path_answers(const ap_srv *s, int code)
{
    return route_answers(s, "/v1/path", code);
}

/* The query of send_long_query, without map and deadline (a batch item's members). */
#define LONG_KINO_QUERY                                                                                      \
    "\"start\":{\"x\":1018.5,\"y\":16.5},\"goal\":{\"x\":236.5,\"y\":985.5},"                                \
    "\"search\":{\"algorithm\":\"kinodynamic\",\"max_expansions\":2000000},"                                    \
    "\"unit\":{\"kind\":\"car\",\"turning_radius\":2}"

/* A new connection to port carrying body as a POST to route with X-Request-ID id: the socket, or -1. */
static int send_post(int port, const char *route, const char *body, const char *id)
{
    char req[2048];
    int n = snprintf(req, sizeof req,
                     "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-ID: %s\r\n"
                     "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                     route, id, strlen(body), body);
    if (n < 0 || (size_t)n >= sizeof req)
        return -1;
    int fd = ap_raw_connect(port, NULL);
    if (fd >= 0 && ap_send_all(fd, req, (size_t)n) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* A new connection to port carrying a kinodynamic query across Paris_1_1024 (over a million expansions,
 * ~1.5 s on the slow lane) with X-Request-ID id: the socket, or -1. */
static int send_long_query(int port, const char *id)
{
    return send_post(port, "/v1/path", "{\"map\":\"Paris_1_1024\",\"deadline_ms\":60000," LONG_KINO_QUERY "}", id);
}

/* A client that closes its connection while its query searches stops that search: a kinodynamic query
 * across Paris_1_1024 (over a million expansions, ~1.5 s on the slow lane) whose client leaves after 0.2 s is
 * answered 499 client_closed in the metrics and the access log, not 200 when its search would have ended. */
/* A new connection to port carrying a query whose set-up holds a slow pool thread for seconds in one slice:
 * a wide disc's unit profile build on arena (radius 10, turning radius 5, 16 headings, reverse: ~2.4 s),
 * X-Request-ID "heavy". The socket, or -1. */
static int send_heavy_build(int port)
{
    return send_post(port, "/v1/path",
                     "{\"map\":\"arena\",\"start\":{\"x\":68.5,\"y\":66.5,\"heading\":0},"
                     "\"goal\":{\"x\":69.5,\"y\":66.5},\"unit\":{\"radius\":10,\"turning_radius\":5,"
                     "\"reverse\":true},\"search\":{\"algorithm\":\"directional48\",\"headings\":16},"
                     "\"deadline_ms\":60000}",
                     "heavy");
}

/* A query waiting with a slow slot for a pool thread answers at its deadline, not when the slice ahead of
 * it ends: on 2 workers one slow slice runs at a time, and a wide disc's unit profile builds in one slice
 * of seconds (radius 10, turning radius 5, 16 headings, reverse: ~2.4 s). An A* query moved to the slow lane
 * (a fast budget of 100) with a 300 ms deadline waited behind it and answered timeout after it, seconds late
 * (a helper); now it answers timeout while the build still runs. */
START_TEST(queued_slow_query_answers_at_its_deadline)
{
    ap_srv srv;
    const char *env[] = {"ARCPATH_WORKERS=2", "ARCPATH_FAST_BUDGET=100", NULL};
    ck_assert_int_eq(ap_srv_start(&srv, "config/maps", NULL, env), 0);
    int heavy = send_heavy_build(srv.port);
    ck_assert_int_ge(heavy, 0);
    struct timespec pause = {0, 300 * 1000 * 1000};
    nanosleep(&pause, NULL); /* the build has begun on the slow lane */
    json_t *j = ap_post_want(&srv, "/v1/path",
                             "{\"map\":\"arena\",\"start\":{\"x\":3.5,\"y\":3.5},\"goal\":{\"x\":90.5,\"y\":88.5},"
                             "\"search\":{\"algorithm\":\"astar\"},\"deadline_ms\":300}",
                             200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "timeout");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "stats"), "lane")), "slow");
    json_decref(j);
    /* a batch likewise: its items answer timeout (it answered 10 s late, a helper) */
    j = ap_post_want(&srv, "/v1/paths",
                     "{\"map\":\"arena\",\"deadline_ms\":300,\"queries\":["
                     "{\"start\":{\"x\":3.5,\"y\":3.5},\"goal\":{\"x\":90.5,\"y\":88.5},"
                     "\"search\":{\"algorithm\":\"astar\"}},"
                     "{\"start\":{\"x\":90.5,\"y\":88.5},\"goal\":{\"x\":3.5,\"y\":3.5},"
                     "\"search\":{\"algorithm\":\"astar\"}}]}",
                     200);
    json_t *results = json_object_get(j, "results");
    ck_assert_int_eq(json_array_size(results), 2);
    for (size_t i = 0; i < 2; i++)
        ck_assert_str_eq(json_string_value(json_object_get(json_array_get(results, i), "status")), "timeout");
    json_decref(j);
    struct pollfd pf = {.fd = heavy, .events = POLLIN};
    ck_assert_msg(poll(&pf, 1, 0) == 0, "the build ahead answered first: the queries waited for it");
    /* the build's own answer, then */
    char buf[4096];
    size_t got = 0;
    ssize_t k;
    while (got < sizeof buf - 1 && (k = recv(heavy, buf + got, sizeof buf - 1 - got, 0)) > 0) {
        got += (size_t)k;
        buf[got] = '\0';
        if (strstr(buf, "\"status\":") != NULL)
            break;
    }
    buf[got] = '\0';
    ck_assert_msg(strncmp(buf, "HTTP/1.1 200", 12) == 0 && strstr(buf, "\"status\":\"ok\"") != NULL, "%.300s", buf);
    close(heavy);
    ck_assert_int_eq(ap_srv_stop(&srv), 0);
}
END_TEST

/* The body of the answer on fd into buf (cap bytes, NUL-terminated): reads the headers, then Content-Length
 * bytes, waiting at most 60 s in all. Returns a pointer to the body in buf, or NULL. */
static const char *recv_answer(int fd, char *buf, size_t cap)
{
    size_t got = 0;
    for (int waits = 0; got < cap - 1 && waits < 600;) {
        buf[got] = '\0';
        const char *end = strstr(buf, "\r\n\r\n"), *cl = strstr(buf, "Content-Length: ");
        if (end != NULL && cl != NULL && cl < end && got - (size_t)(end + 4 - buf) >= strtoul(cl + 16, NULL, 10))
            return end + 4;
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        if (poll(&pf, 1, 100) == 0) {
            waits++;
            continue;
        }
        const ssize_t k = recv(fd, buf + got, cap - 1 - got, 0);
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    return NULL;
}

/* A batch item that ran slow slices and waits in the run queue at its deadline answers what its search
 * found, as the same single query does: a kinodynamic item that had reached its goal is ok and "capped"
 * (ap_plan_stop). It answered timeout when the deadline passed while a wide disc's unit profile build (one
 * slice of seconds) held the slow pool thread (a helper): the loop's sweep stopped the batch without asking
 * its search. */
START_TEST(queued_batch_item_answers_what_it_found)
{
    ap_srv srv;
    const char *env[] = {"ARCPATH_WORKERS=2", NULL};
    ck_assert_int_eq(ap_srv_start(&srv, "config/maps", NULL, env), 0);
    /* over 200,000 expansions (~0.5 s alone), its goal reached in the first few hundred */
    int batch = send_post(srv.port, "/v1/paths",
                          "{\"map\":\"arena\",\"deadline_ms\":400,\"queries\":["
                          "{\"start\":{\"x\":5.5,\"y\":5.5,\"heading\":0},\"goal\":{\"x\":60.5,\"y\":60.5,"
                          "\"heading\":2},\"unit\":{\"kind\":\"car\"},"
                          "\"search\":{\"algorithm\":\"kinodynamic\",\"max_expansions\":2000000}},"
                          "{\"start\":{\"x\":3.5,\"y\":3.5},\"goal\":{\"x\":90.5,\"y\":88.5}}]}",
                          "batch");
    ck_assert_int_ge(batch, 0);
    struct timespec pause = {0, 100 * 1000 * 1000};
    nanosleep(&pause, NULL); /* the batch runs slow slices */
    int heavy = send_heavy_build(srv.port);
    ck_assert_int_ge(heavy, 0);
    static char buf[1 << 16];
    const char *body = recv_answer(batch, buf, sizeof buf);
    ck_assert_msg(body != NULL, "no batch answer");
    json_t *j = json_loads(body, 0, NULL);
    ck_assert_msg(j != NULL, "%.300s", buf);
    json_t *results = json_object_get(j, "results"), *first = json_array_get(results, 0);
    ck_assert_int_eq(json_array_size(results), 2);
    ck_assert_msg(strcmp(json_string_value(json_object_get(first, "status")), "ok") == 0 &&
                      json_is_true(json_object_get(first, "capped")),
                  "the kinodynamic item: %.300s", body);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(first, "stats"), "lane")), "slow");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(results, 1), "status")), "timeout");
    json_decref(j);
    struct pollfd pf = {.fd = heavy, .events = POLLIN};
    ck_assert_msg(poll(&pf, 1, 0) == 0, "the build answered first: the batch waited for it");
    ck_assert_msg(recv_answer(heavy, buf, sizeof buf) != NULL, "no answer to the build");
    ck_assert_msg(strncmp(buf, "HTTP/1.1 200", 12) == 0, "%.300s", buf);
    close(heavy);
    close(batch);
    ck_assert_int_eq(ap_srv_stop(&srv), 0);
}
END_TEST

/* A query whose path is long to build and write (a serpentine of 1-wide lanes: 5,183 tiles, past the
 * planner's AP_PLAN_CHEAP_FINISH_TILES) is not finished on the HTTP thread after its short inline search (a
 * helper's 1-wide spiral: 28.8 MB built and written there held /healthz for 180 ms, its gzip for 530 ms
 * more): the fast lane's pool thread searches again and builds, encodes and compresses it, so its
 * queue_us (the hop to the pool) is above 0, which an answer made inline never is. Not the slow lane: behind
 * a wide disc's unit profile build there (seconds, in one slice) it answered timeout (a helper). The gzip
 * answer is the same answer. */
START_TEST(long_answers_are_built_on_the_pool)
{
    enum { W = 161, H = 100 };
    static char map[64 + H * (W + 1) + 1];
    int n = snprintf(map, sizeof map, "type octile\nheight %d\nwidth %d\nmap\n", H, W);
    int open = 0;
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            /* rows 0-63: walls at odd columns, open at row 63 then row 0 in turn; row 64 a wall; below it a
             * field for the wide disc */
            const bool wall = y < 64 ? x % 2 == 1 && y != ((x / 2) % 2 == 0 ? 63 : 0) : y == 64;
            map[n++] = wall ? '@' : '.';
            open += y < 64 && !wall;
        }
        map[n++] = '\n';
    }
    map[n] = '\0';
    ap_srv srv;
    ap_srv_dir d;
    ck_assert_int_eq(ap_srv_start_dir(&srv, &d, "long", "comb", map, "{\"workers\": 2, \"slow_slots\": 1}"), 0);
    int heavy = send_post(srv.port, "/v1/path",
                          "{\"map\":\"comb\",\"start\":{\"x\":60.5,\"y\":82.5,\"heading\":0},"
                          "\"goal\":{\"x\":61.5,\"y\":82.5},\"unit\":{\"radius\":10,\"turning_radius\":5,"
                          "\"reverse\":true},\"search\":{\"algorithm\":\"directional48\",\"headings\":16},"
                          "\"deadline_ms\":60000}",
                          "heavy");
    ck_assert_int_ge(heavy, 0);
    struct timespec pause = {0, 300 * 1000 * 1000};
    nanosleep(&pause, NULL); /* the build holds the slow lane's one slot */
    /* the last lane (x = 160) runs from the top (entered at y = 0 from x = 158 .. 159) to the bottom */
    const char *body = "{\"map\":\"comb\",\"start\":{\"x\":0.5,\"y\":0.5},\"goal\":{\"x\":160.5,\"y\":63.5},"
                       "\"search\":{\"smoothing\":\"none\"},\"deadline_ms\":1000}";
    ap_resp plain, dec;
    ck_assert_int_eq(ap_post(&srv, "/v1/path", body, &plain), 0);
    ck_assert_int_eq(plain.status, 200);
    json_t *j = ap_resp_json(&plain);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert_double_eq(json_number_value(json_object_get(j, "grid_cost")), open - 1); /* every open cell */
    ck_assert_int_eq(json_array_size(json_object_get(j, "segments")), open - 1);
    json_t *stats = json_object_get(j, "stats");
    ck_assert_str_eq(json_string_value(json_object_get(stats, "lane")), "fast");
    ck_assert_int_lt(json_integer_value(json_object_get(stats, "expanded")), 2000); /* within the fast budget */
    ck_assert_int_gt(json_integer_value(json_object_get(stats, "queue_us")), 0);
    json_decref(j);
    ck_assert_int_eq(ap_http_decoded(&srv, "POST", "/v1/path", body, strlen(body), NULL, "gzip", &dec), 0);
    char value[64];
    ck_assert_str_eq(ap_resp_header(&dec, "Content-Encoding", value, sizeof value), "gzip");
    ck_assert_str_eq(ap_resp_header(&dec, "Vary", value, sizeof value), "Accept-Encoding");
    size_t head = (size_t)(strstr(plain.body, ",\"stats\":") - plain.body);
    ck_assert_uint_gt(dec.len, head);
    ck_assert_int_eq(memcmp(dec.body, plain.body, head), 0);
    ck_assert_ptr_nonnull(strstr(dec.body + head, "\"lane\":\"fast\""));
    ap_resp_free(&plain);
    ap_resp_free(&dec);
    struct pollfd pf = {.fd = heavy, .events = POLLIN};
    ck_assert_msg(poll(&pf, 1, 0) == 0, "the build answered first");
    close(heavy); /* (its build runs on; the stop waits for it or cancels it) */
    ck_assert_int_eq(ap_srv_stop_dir(&srv, &d), 0);
}
END_TEST

START_TEST(closed_client_stops_its_search)
{
    if (!ap_mai_small_dir) {
        ap_test_skip_no_data("client gone test");
        return;
    }
    char *log = ap_test_temp_file("arcpath-gone-log", "");
    ck_assert_ptr_nonnull(log);
    ap_srv s;
    const char *env[] = {"ARCPATH_SLOW_SLOTS=1", NULL};
    ck_assert_int_eq(ap_srv_start_logged(&s, ap_mai_small_dir, ap_mai_small_args, env, log), 0);
    int fd = send_long_query(s.port, "gone-1");
    ck_assert_int_ge(fd, 0);
    struct timespec pause = {0, 200 * 1000000L};
    nanosleep(&pause, NULL);
    close(fd);
    /* until the request is counted (at most 20 s; its search alone would take ~1.5 s) */
    double closed = 0, ok = 0;
    for (int i = 0; i < 200 && closed == 0 && ok == 0; i++) {
        struct timespec tick = {0, 100 * 1000000L};
        nanosleep(&tick, NULL);
        closed = path_answers(&s, 499);
        ok = path_answers(&s, 200);
    }
    ck_assert_double_eq(closed, 1);
    ck_assert_double_eq(ok, 0);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    size_t len = 0;
    char *text = ap_test_read_file(log, &len);
    ck_assert_ptr_nonnull(text);
    const char *line = strstr(text, "\"id\":\"gone-1\"");
    ck_assert_ptr_nonnull(line);
    const char *eol = strchr(line, '\n');
    const char *st = strstr(line, "\"status\":499");
    ck_assert_ptr_nonnull(st);
    ck_assert(eol == NULL || st < eol);
    const char *res = strstr(line, "client_closed");
    ck_assert_ptr_nonnull(res);
    ck_assert(eol == NULL || res < eol);
    free(text);
    unlink(log);
    free(log);
}
END_TEST

/* arcpath_path_answers_total{outcome} of s now (0 when the line is not there yet). */
static double outcome_count(const ap_srv *s, const char *outcome)
{
    char labels[64];
    snprintf(labels, sizeof labels, "outcome=\"%s\"", outcome);
    return metric_now(s, "arcpath_path_answers_total", labels);
}

/* A batch whose client leaves is answered 499, and the items it had answered before (two short ones, on the
 * fast lane) were never delivered: they are not path answers (they were counted as `ok`, a soak helper). */
/* Every path answer s counted, whatever its outcome (server/metrics.c's outcome names). */
static double all_outcomes(const ap_srv *s)
{
    static const char *const names[] = {"ok", "capped", "probe", "no_path_unreachable", "no_path_not_found",
                                        "no_path_state_limit", "timeout"};
    double n = 0;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        n += outcome_count(s, names[i]);
    return n;
}

START_TEST(closed_batch_counts_no_answers)
{
    if (!ap_mai_small_dir) {
        ap_test_skip_no_data("client gone test");
        return;
    }
    ap_srv s;
    const char *env[] = {"ARCPATH_SLOW_SLOTS=1", NULL};
    ck_assert_int_eq(ap_srv_start(&s, ap_mai_small_dir, ap_mai_small_args, env), 0);
    const double ok_before = outcome_count(&s, "ok"), all_before = all_outcomes(&s);
    static const char body[] =
        "{\"map\":\"Paris_1_1024\",\"deadline_ms\":60000,\"queries\":["
        "{\"start\":{\"x\":1018.5,\"y\":16.5},\"goal\":{\"x\":1010.5,\"y\":20.5}},"
        "{\"start\":{\"x\":1018.5,\"y\":16.5},\"goal\":{\"x\":1012.5,\"y\":22.5}},{" LONG_KINO_QUERY "}]}";
    int fd = send_post(s.port, "/v1/paths", body, "gone-batch");
    ck_assert_int_ge(fd, 0);
    struct timespec pause = {0, 300 * 1000000L};
    nanosleep(&pause, NULL);
    close(fd);
    double closed = 0, ok = 0;
    for (int i = 0; i < 200 && closed == 0 && ok == 0; i++) { /* at most 20 s; the batch alone takes ~1.5 s */
        struct timespec tick = {0, 100 * 1000000L};
        nanosleep(&tick, NULL);
        closed = route_answers(&s, "/v1/paths", 499);
        ok = route_answers(&s, "/v1/paths", 200);
    }
    ck_assert_double_eq(closed, 1);
    ck_assert_double_eq(ok, 0);
    ap_resp r;
    ck_assert_double_eq(outcome_count(&s, "ok"), ok_before);
    ck_assert_double_eq(all_outcomes(&s), all_before); /* nor the long item as capped or timeout */
    /* the same batch answered: its three items count (two ok, the long one's outcome whatever it is); under a
     * 5 s deadline, so that a loaded sanitizer run does not outwait the harness's (it took the whole 60 s
     * deadline's search, past the client's timeout, once beside helpers) */
    static const char body5[] =
        "{\"map\":\"Paris_1_1024\",\"deadline_ms\":5000,\"queries\":["
        "{\"start\":{\"x\":1018.5,\"y\":16.5},\"goal\":{\"x\":1010.5,\"y\":20.5}},"
        "{\"start\":{\"x\":1018.5,\"y\":16.5},\"goal\":{\"x\":1012.5,\"y\":22.5}},{" LONG_KINO_QUERY "}]}";
    const double any_before = all_outcomes(&s);
    ck_assert_int_eq(ap_http(&s, "POST", "/v1/paths", body5, strlen(body5), NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ap_resp_free(&r);
    ck_assert_double_ge(outcome_count(&s, "ok"), ok_before + 2);
    const double any_after = all_outcomes(&s);
    ck_assert_double_eq(any_after, any_before + 3);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

typedef struct half_closer {
    int port, id;
} half_closer;

/* Send a long kinodynamic query, half-close after 0-40 ms, read until the server closes. */
static void *half_close_one(void *arg)
{
    const half_closer *h = arg;
    char id[32];
    snprintf(id, sizeof id, "half-%d", h->id);
    int fd = send_long_query(h->port, id);
    if (fd < 0)
        return NULL;
    struct timespec pause = {0, (h->id % 3) * 20 * 1000000L};
    nanosleep(&pause, NULL);
    shutdown(fd, SHUT_WR);
    struct timeval tv = {30, 0}; /* bounded: the server answers or closes long before */
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char buf[4096];
    while (recv(fd, buf, sizeof buf, 0) > 0)
        ;
    close(fd);
    return NULL;
}

/* Clients that half-close their connections after their requests count as gone (README "Errors",
 * client_closed): each of twelve concurrent ones is a 499 client_closed in the metrics and the access log.
 * libmicrohttpd drops such a connection when it resumes it before the answer is queued; those requests
 * were logged with status 0, "aborted", and not counted (4 of 12 on an idle server). */
START_TEST(half_closed_clients_are_client_closed)
{
    if (!ap_mai_small_dir) {
        ap_test_skip_no_data("half-closed clients test");
        return;
    }
    char *log = ap_test_temp_file("arcpath-half-log", "");
    ck_assert_ptr_nonnull(log);
    ap_srv s;
    ck_assert_int_eq(ap_srv_start_logged(&s, ap_mai_small_dir, ap_mai_small_args, NULL, log), 0);
    enum { N = 12 };
    half_closer hc[N];
    pthread_t th[N];
    for (int i = 0; i < N; i++) {
        hc[i] = (half_closer){.port = s.port, .id = i};
        ck_assert_int_eq(pthread_create(&th[i], NULL, half_close_one, &hc[i]), 0);
    }
    for (int i = 0; i < N; i++)
        pthread_join(th[i], NULL);
    double closed = 0;
    for (int i = 0; i < 200 && closed < N; i++) { /* at most 20 s: every connection is closed already */
        struct timespec tick = {0, 100 * 1000000L};
        nanosleep(&tick, NULL);
        closed = path_answers(&s, 499);
    }
    ck_assert_double_eq(closed, N);
    ck_assert_double_eq(path_answers(&s, 200), 0);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    size_t len = 0;
    char *text = ap_test_read_file(log, &len);
    ck_assert_ptr_nonnull(text);
    int logged = 0;
    for (const char *p = text; (p = strstr(p, "\"id\":\"half-")) != NULL; p++) {
        const char *eol = strchr(p, '\n');
        const char *st = strstr(p, "\"status\":499");
        ck_assert_msg(st != NULL && (eol == NULL || st < eol), "not a 499: %.200s", p);
        logged++;
    }
    ck_assert_int_eq(logged, N);
    free(text);
    unlink(log);
    free(log);
}
END_TEST

Suite *lanes_suite(void)
{
    Suite *s = suite_create("lanes");
    TCase *tc = tcase_create("lanes");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, short_queries_flow_while_slow_lane_is_busy);
    tcase_add_test(tc, short_queries_flow_through_the_pool_too);
    tcase_add_test(tc, table_builds_begin_on_the_slow_lane);
    tcase_add_test(tc, deadline_gives_timeout);
    tcase_add_test(tc, full_slow_lane_answers_overloaded);
    tcase_add_test(tc, queued_slow_query_answers_at_its_deadline);
    tcase_add_test(tc, queued_batch_item_answers_what_it_found);
    tcase_add_test(tc, long_answers_are_built_on_the_pool);
    tcase_add_test(tc, closed_client_stops_its_search);
    tcase_add_test(tc, closed_batch_counts_no_answers);
    tcase_add_test(tc, half_closed_clients_are_client_closed);
    suite_add_tcase(s, tc);
    return s;
}
