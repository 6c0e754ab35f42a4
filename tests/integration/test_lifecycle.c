/* test_lifecycle.c — process life: --check-config verdicts, bad map files skipped, listening on IPv6 and
 * a port in use, SIGTERM drains in-flight searches and exits 0, refusing new connections meanwhile and
 * answering kept ones 503 not_ready, a second SIGTERM cancels the searches, SIGHUP leaves the server up. */
#include "tests/check_fast.h"
#include <sys/resource.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../util.h"
#include "harness.h"

Suite *lifecycle_suite(void);

START_TEST(check_config_verdicts)
{
    static char err[65536];
    const char *good[] = {"--check-config", "--maps", "config/maps", NULL};
    ck_assert_int_eq(ap_run_cli(good, 0, err, sizeof err), 0);

    char dir[] = "/tmp/arcpath-maps-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char p[256];
    snprintf(p, sizeof p, "%s/ok.map", dir);
    ap_write_file(p, "type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n");
    snprintf(p, sizeof p, "%s/shortrow.map", dir);
    ap_write_file(p, "type octile\nheight 2\nwidth 3\nmap\n...\n..\n");
    const char *bad[] = {"--check-config", "--maps", dir, NULL};
    ck_assert_int_eq(ap_run_cli(bad, 0, err, sizeof err), 1);
    /* The report names the file and the line of the short row. */
    ck_assert_msg(strstr(err, "shortrow.map:6") != NULL, "report does not name shortrow.map:6: %s", err);

    /* The server itself skips the bad map and serves the good one. */
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, dir, NULL, NULL), 0);
    ap_resp r;
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/ok", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/shortrow", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 404);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_srv_stop(&s), 0);

    snprintf(p, sizeof p, "%s/ok.map", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/shortrow.map", dir);
    unlink(p);
    rmdir(dir);

    const char *badopt[] = {"--workers", "zero", NULL};
    ck_assert_int_eq(ap_run_cli(badopt, 0, err, sizeof err), 2);
    ck_assert_ptr_nonnull(strstr(err, "workers"));
}
END_TEST

/* Search workspaces that cannot fit in the memory the process may use are refused before a byte of them is
 * allocated, by --check-config and at start (exit 1, the reason on stderr), instead of an OOM kill at start
 * or under load. 64 + 4 workspaces of 2^31 nodes need 7.6 TiB, more than any machine this runs on. */
START_TEST(workspaces_beyond_memory_refused)
{
    static char out[65536];
    const char *good[] = {"--check-config", "--maps", "config/maps", NULL};
    ck_assert_int_eq(ap_run_cli(good, 1, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "2 + 4 search workspaces of 262144 nodes, up to 86 MiB (314 MiB with kinodynamic "
                              "searches in all of them)") != NULL, "%s", out);

    char *conf = ap_test_temp_file("arcpath-huge-ws", "{\"max_workspace_cells\": 2147483648}");
    ck_assert_ptr_nonnull(conf);
    const char *check[] = {"--check-config", "--maps", "config/maps", "--config", conf, "--workers", "64", NULL};
    ck_assert_int_eq(ap_run_cli(check, 1, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "64 + 4 search workspaces of 2147483648 nodes need up to 7938048 MiB (57 bytes a node "
                              "each); beside the ") != NULL,
                  "%s", out);
    ck_assert_ptr_nonnull(strstr(out, "lower max_workspace_cells, workers or slow_slots"));
    ck_assert_ptr_nonnull(strstr(out, "FAILED"));
    const char *serve[] = {"--listen", "127.0.0.1:1", "--maps", "config/maps", "--config", conf, "--workers", "64", NULL};
    ck_assert_int_eq(ap_run_cli(serve, 0, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "arcpathd: 64 + 4 search workspaces of 2147483648 nodes need up to") != NULL, "%s", out);
    ck_assert_ptr_null(strstr(out, "cannot allocate")); /* refused before allocating */
    unlink(conf);
    free(conf);

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) /* (their shadow memory needs no RLIMIT_AS) */
    /* Under an address-space limit of 140,000 KiB the demo's 86 MiB of workspaces fit alone, but not beside
     * the ~21 MiB the process holds and its threads' stacks: --check-config said OK while the start failed
     * ("cannot allocate", "cannot start the worker pool", a helper). Now both refuse, naming the limit.
     * (setrlimit on this test's own process, a fork of the runner's; the child inherits it.) */
    const struct rlimit as = {140000 * 1024, 140000 * 1024};
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &as), 0);
    const char *as_check[] = {"--check-config", "--maps", "config/maps", NULL};
    ck_assert_int_eq(ap_run_cli(as_check, 1, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "2 + 4 search workspaces of 262144 nodes need up to 86 MiB (57 bytes a node each); beside "
                              "the ") != NULL && strstr(out, "MiB this process may use (RLIMIT_AS)") != NULL,
                  "%s", out);
    const char *as_serve[] = {"--listen", "127.0.0.1:1", "--maps", "config/maps", NULL};
    ck_assert_int_eq(ap_run_cli(as_serve, 0, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "MiB this process may use (RLIMIT_AS)") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "cannot ") == NULL, "%s", out); /* refused before allocating or starting threads */
#endif

    /* Workspaces smaller than a map loaded at start: the demo's largest, maze, 97 x 97 cells, is 99 * 99 nodes. */
    conf = ap_test_temp_file("arcpath-small-ws", "{\"max_workspace_cells\": 9409}");
    ck_assert_ptr_nonnull(conf);
    const char *small[] = {"--listen", "127.0.0.1:1", "--maps", "config/maps", "--config", conf, NULL};
    ck_assert_int_eq(ap_run_cli(small, 0, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "arcpathd: max_workspace_cells 9409 is smaller than the largest map loaded: 9801 "
                              "nodes, (width + 2) * (height + 2) for a map of width x height cells") != NULL,
                  "%s", out);
    unlink(conf);
    free(conf);
}
END_TEST

/* `--listen [::1]:PORT` serves on the IPv6 loopback (health, then a path), where the machine has one. */
START_TEST(listens_on_ipv6_loopback)
{
    const int probe = socket(AF_INET6, SOCK_STREAM, 0);
    struct sockaddr_in6 a6 = {.sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT};
    const bool have_v6 = probe >= 0 && bind(probe, (struct sockaddr *)&a6, sizeof a6) == 0;
    if (probe >= 0)
        close(probe);
    if (!have_v6) {
        printf("SKIP: lifecycle: no IPv6 loopback on this machine\n");
        return;
    }
    ap_srv s;
    const char *env[] = {"AP_TEST_LISTEN_V6=1", NULL};
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, env), 0);
    ck_assert_ptr_nonnull(strstr(s.base, "http://[::1]:"));
    json_t *j = ap_post_want(&s, "/v1/path",
                             "{\"map\":\"arena\",\"start\":{\"x\":2.5,\"y\":3.5},\"goal\":{\"x\":30.5,\"y\":20.5}}", 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    json_decref(j);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

/* A port another process holds: exit 1 at once with the address in the message, not a server that never
 * answers. */
START_TEST(port_in_use_exits_one)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t l = sizeof a;
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &l), 0);
    ck_assert_int_eq(listen(fd, 1), 0);
    char listen_at[64], want[256];
    snprintf(listen_at, sizeof listen_at, "127.0.0.1:%d", ntohs(a.sin_port));
    snprintf(want, sizeof want, "arcpathd: libmicrohttpd: Failed to bind to port %d: Address already in use\n"
                                "arcpathd: cannot listen on %s (libmicrohttpd's line above says why)",
             ntohs(a.sin_port), listen_at);
    static char out[65536];
    const char *args[] = {"--listen", listen_at, "--maps", "config/maps", NULL};
    ck_assert_int_eq(ap_run_cli(args, 0, out, sizeof out), 1);
    ck_assert_msg(strstr(out, want) != NULL, "%s", out);
    close(fd);
}
END_TEST

typedef struct inflight {
    const ap_srv *srv;
    const char *route; /* NULL = "/v1/path" */
    char body[16384];
    long status;
    char result[32];
    int timeouts; /* a batch's items answered "timeout" */
    char code[32], message[96]; /* an error answer's error.code and error.message */
} inflight;

static void *send_one(void *arg)
{
    inflight *f = arg;
    ap_resp r;
    if (ap_post(f->srv, f->route ? f->route : "/v1/path", f->body, &r) == 0) {
        f->status = r.status;
        json_t *j = ap_resp_json(&r);
        snprintf(f->result, sizeof f->result, "%s", json_string_value(json_object_get(j, "status")));
        json_t *e = json_object_get(j, "error");
        snprintf(f->code, sizeof f->code, "%s", json_string_value(json_object_get(e, "code")));
        snprintf(f->message, sizeof f->message, "%s", json_string_value(json_object_get(e, "message")));
        size_t i;
        json_t *it;
        json_array_foreach(json_object_get(j, "results"), i, it) {
            const char *st = json_string_value(json_object_get(it, "status"));
            f->timeouts += st != NULL && strcmp(st, "timeout") == 0;
        }
        json_decref(j);
    }
    ap_resp_free(&r);
    return NULL;
}

START_TEST(sigterm_answers_inflight_and_exits_zero)
{
    if (!ap_mai_dir) {
        ap_test_skip_no_data("shutdown test");
        return;
    }
    ap_srv s;
    const char *env[] = {"ARCPATH_WORKERS=1", NULL};
    ck_assert_int_eq(ap_srv_start(&s, ap_mai_small_dir, ap_mai_small_args, env), 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/Paris_1_1024.map.scen", ap_mai_dir);
    ap_test_scen *sc = NULL;
    size_t n = 0;
    ck_assert_int_eq(ap_test_load_scen(path, &sc, &n), 0);
    inflight f[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        const ap_test_scen *q = &sc[n - 1 - (size_t)i];
        f[i] = (inflight){.srv = &s};
        snprintf(f[i].body, sizeof f[i].body,
                 "{\"map\":\"Paris_1_1024\",\"start\":{\"x\":%d.5,\"y\":%d.5},\"goal\":{\"x\":%d.5,\"y\":%d.5},\"search\":{\"algorithm\":\"astar\"}}", q->sx,
                 q->sy, q->gx, q->gy);
        ck_assert_int_eq(pthread_create(&th[i], NULL, send_one, &f[i]), 0);
    }
    /* the signal once all four are in (the gauge counts the scrape too), not after a fixed 30 ms, which
     * under ThreadSanitizer came before the fourth had connected: refused by the drain, it got no answer */
    struct timespec ts = {0, 5 * 1000000L};
    for (int i = 0; i < 2000 && ap_metric_now(&s, "arcpath_inflight_requests", "") < 5.0; i++)
        nanosleep(&ts, NULL);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        /* Every request that reached the server got an answer: a path, a timeout or not_ready. */
        ck_assert_msg(f[i].status == 200 || f[i].status == 503, "in-flight request %d: HTTP %ld", i, f[i].status);
        if (f[i].status == 200)
            ck_assert_msg(strcmp(f[i].result, "ok") == 0 || strcmp(f[i].result, "timeout") == 0, "result %s",
                          f[i].result);
    }
    free(sc);
}
END_TEST

/* A server of its own with one long request in flight on a client thread. */
typedef struct busy_srv {
    ap_srv s;
    inflight f;
    pthread_t th;
} busy_srv;

/* Start b->s on the Moving AI maps with one worker (and extra_env, one VAR=value or NULL), and post a batch
 * of the n longest Paris_1_1024 queries (A*) from b->th with a deadline of deadline_ms: long enough (a 1.5 s
 * deadline ends it; its 100 queries take longer, its 30 about as long) that a signal sent once it is in
 * flight arrives while it runs. Returns false (after reporting the skip of `what`) when the data is absent. */
static bool start_with_long_batch_env(busy_srv *b, size_t n, int deadline_ms, const char *extra_env,
                                      const char *what)
{
    if (!ap_mai_dir) {
        ap_test_skip_no_data(what);
        return false;
    }
    ap_srv *s = &b->s;
    inflight *f = &b->f;
    const char *env[] = {"ARCPATH_WORKERS=1", extra_env, NULL};
    ck_assert_int_eq(ap_srv_start(s, ap_mai_small_dir, ap_mai_small_args, env), 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/Paris_1_1024.map.scen", ap_mai_dir);
    ap_test_scen *sc = NULL;
    size_t ns = 0;
    ck_assert_int_eq(ap_test_load_scen(path, &sc, &ns), 0);
    ck_assert_uint_ge(ns, n);
    *f = (inflight){.srv = s, .route = "/v1/paths"};
    size_t at = (size_t)snprintf(f->body, sizeof f->body, "{\"map\":\"Paris_1_1024\",\"deadline_ms\":%d,\"queries\":[",
                                 deadline_ms);
    for (size_t i = 0; i < n; i++) {
        const ap_test_scen *q = &sc[ns - 1 - i];
        at += (size_t)snprintf(f->body + at, sizeof f->body - at,
                               "%s{\"start\":{\"x\":%d.5,\"y\":%d.5},\"goal\":{\"x\":%d.5,\"y\":%d.5},"
                               "\"search\":{\"algorithm\":\"astar\"}}",
                               i ? "," : "", q->sx, q->sy, q->gx, q->gy);
        ck_assert_uint_lt(at, sizeof f->body);
    }
    at += (size_t)snprintf(f->body + at, sizeof f->body - at, "]}");
    ck_assert_uint_lt(at, sizeof f->body);
    free(sc);
    ck_assert_int_eq(pthread_create(&b->th, NULL, send_one, f), 0);
    /* In flight once its search job is admitted to a lane: a request the server counts (the /metrics request
     * itself is the other one) may still be reading or checking its body, and a drain that begins then
     * answers it 503 not_ready, as documented, instead of running it (seen once in CI: the signal landed
     * between the two). */
    for (int i = 0; i < 1000; i++) {
        ap_resp r;
        ck_assert_int_eq(ap_http(s, "GET", "/metrics", NULL, 0, NULL, &r), 0);
        const double v = ap_metric(r.body, "arcpath_inflight_requests", "");
        const double q = ap_metric(r.body, "arcpath_queue_depth", "lane=\"fast\"") +
                         ap_metric(r.body, "arcpath_queue_depth", "lane=\"slow\"");
        ap_resp_free(&r);
        if (v >= 2.0 && q >= 1.0)
            return true;
        struct timespec ts = {0, 5 * 1000000L};
        nanosleep(&ts, NULL);
    }
    ck_abort_msg("the batch never showed up as in flight");
    return false;
}

static bool start_with_long_batch(busy_srv *b, size_t n, const char *what)
{
    return start_with_long_batch_env(b, n, 1500, NULL, what);
}

/* Wait for the batch's answer: it must be a whole 200 "ok" batch (items ok or timeout). */
static void expect_batch_answered(busy_srv *b)
{
    pthread_join(b->th, NULL);
    ck_assert_int_eq(b->f.status, 200);
    ck_assert_str_eq(b->f.result, "ok");
}

/* A TCP connect to 127.0.0.1:port on a new socket *fd (the caller closes it): 0, else its errno. */
static int loopback_connect(int port, int *fd)
{
    *fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(*fd, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return connect(*fd, (struct sockaddr *)&sa, sizeof sa) == 0 ? 0 : errno;
}

/* 0 when a TCP connect to 127.0.0.1:port succeeds, else its errno. */
static int connect_errno(int port)
{
    int fd;
    const int e = loopback_connect(port, &fd);
    close(fd);
    return e;
}

START_TEST(sigterm_refuses_new_connections_while_draining)
{
    static busy_srv b;
    if (!start_with_long_batch(&b, 100, "drain refusal test"))
        return;
    ck_assert_int_eq(connect_errno(b.s.port), 0);
    ck_assert_int_eq(kill(b.s.pid, SIGTERM), 0);
    /* The signal is handled on the loop thread: wait (bounded) for the listening to stop. A connect that
     * races the listening socket's close may be reset (ECONNRESET: it reached the backlog as it closed);
     * that is the transition, not the steady state: try again. */
    int e = 0;
    for (int i = 0; i < 500 && ((e = connect_errno(b.s.port)) == 0 || e == ECONNRESET); i++) {
        struct timespec ts = {0, 2 * 1000000L};
        nanosleep(&ts, NULL);
    }
    ck_assert_msg(e == ECONNREFUSED, "connect while draining: %s", e ? strerror(e) : "accepted");
    /* refused by the draining server, not by one that had already exited */
    int st = 0;
    ck_assert_int_eq(waitpid(b.s.pid, &st, WNOHANG), 0);
    expect_batch_answered(&b);
    ck_assert_int_eq(ap_srv_wait(&b.s), 0); /* the drain ends on its own: exit 0 */
}
END_TEST

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* One HTTP/1.1 request on the open socket fd (keep-alive); the answer's status, its body in body (cap
 * bytes, NUL-terminated), *closes whether it says "Connection: close". Reads until the Content-Length is
 * in, for at most 10 s. -1 on a socket error or a connection closed before a whole answer. */
static int raw_request(int fd, const char *method, const char *path, const char *json, char *body, size_t cap,
                       bool *closes)
{
    char req[1024];
    const size_t blen = json != NULL ? strlen(json) : 0;
    const int n = snprintf(req, sizeof req,
                           "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           "Content-Length: %zu\r\n\r\n%s",
                           method, path, blen, json != NULL ? json : "");
    ck_assert(n > 0 && (size_t)n < sizeof req);
    if (write(fd, req, (size_t)n) != n)
        return -1;
    char buf[8192];
    size_t got = 0;
    const uint64_t until = now_ms() + 10000;
    struct timeval tv = {0, 200 * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    for (;;) {
        buf[got] = '\0';
        char *end = strstr(buf, "\r\n\r\n");
        const char *cl = strcasestr(buf, "\r\ncontent-length:");
        if (end != NULL && cl != NULL && cl < end) {
            const size_t want = (size_t)strtoul(cl + 18, NULL, 10), have = got - (size_t)(end + 4 - buf);
            if (have >= want) {
                snprintf(body, cap, "%.*s", (int)want, end + 4);
                *end = '\0';
                *closes = strcasestr(buf, "\r\nconnection: close") != NULL;
                return atoi(buf + 9); /* "HTTP/1.1 503 ..." */
            }
        }
        if (got + 1 >= sizeof buf || now_ms() > until)
            return -1;
        const ssize_t r = read(fd, buf + got, sizeof buf - 1 - got);
        if (r == 0)
            return -1;
        if (r > 0)
            got += (size_t)r;
    }
}

/* A TCP connection to 127.0.0.1:port. */
static int connect_to(int port)
{
    int fd;
    ck_assert_int_eq(loopback_connect(port, &fd), 0);
    return fd;
}

/* Clients that kept their connections open across the SIGTERM: their next requests are answered, not
 * dropped, while the in-flight batch drains: a path query and /readyz 503 not_ready "server is shutting
 * down" with "Connection: close" (a load balancer or client retries elsewhere, on a new connection); the
 * same connections answered 200, keeping the connection, before the signal. */
START_TEST(sigterm_answers_kept_connections_not_ready)
{
    static busy_srv b;
    if (!start_with_long_batch(&b, 100, "drain keep-alive test"))
        return;
    const int fd1 = connect_to(b.s.port), fd2 = connect_to(b.s.port);
    char body[4096];
    bool closes = true;
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(raw_request(i ? fd2 : fd1, "GET", "/readyz", NULL, body, sizeof body, &closes), 200);
        ck_assert(!closes);
    }
    ck_assert_int_eq(kill(b.s.pid, SIGTERM), 0);
    int e = 0; /* draining once new connections are refused (the listener is shut first) */
    for (int i = 0; i < 500 && ((e = connect_errno(b.s.port)) == 0 || e == ECONNRESET); i++) {
        struct timespec ts = {0, 2 * 1000000L};
        nanosleep(&ts, NULL);
    }
    ck_assert_int_eq(e, ECONNREFUSED);
    const char *q = "{\"map\":\"Paris_1_1024\",\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":3.5,\"y\":1.5}}";
    ck_assert_int_eq(raw_request(fd1, "POST", "/v1/path", q, body, sizeof body, &closes), 503);
    ck_assert_ptr_nonnull(strstr(body, "\"not_ready\""));
    ck_assert_ptr_nonnull(strstr(body, "server is shutting down"));
    ck_assert(closes);
    ck_assert_int_eq(raw_request(fd2, "GET", "/readyz", NULL, body, sizeof body, &closes), 503);
    ck_assert_ptr_nonnull(strstr(body, "\"not_ready\""));
    ck_assert_ptr_nonnull(strstr(body, "server is shutting down"));
    ck_assert(closes);
    close(fd1);
    close(fd2);
    expect_batch_answered(&b);
    ck_assert_int_eq(ap_srv_wait(&b.s), 0);
}
END_TEST

/* A search still waiting for a slow slot when the drain begins is answered 503 not_ready at once (a load
 * balancer resends it to another replica), while the one holding the slot runs on and is answered. Before,
 * it waited for the slot, ran during the drain and was answered 200 (a helper: "timeout" after 11 s,
 * expanded 0), an answer no balancer retries. One slow slot: the batch holds it, the query waits. */
START_TEST(sigterm_answers_queued_searches_not_ready)
{
    static busy_srv b;
    if (!start_with_long_batch_env(&b, 100, 3000, "ARCPATH_SLOW_SLOTS=1", "drain queue test"))
        return;
    static inflight q;
    q = (inflight){.srv = &b.s};
    snprintf(q.body, sizeof q.body, "%s", b.f.body); /* the same 100 queries: a search that outlasts a slice */
    q.route = "/v1/paths";
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, send_one, &q), 0);
    struct timespec ts = {0, 5 * 1000000L};
    double depth = 0.0; /* the batch with the slot and the second waiting for it */
    for (int i = 0; i < 1000 && (depth = ap_metric_now(&b.s, "arcpath_queue_depth", "lane=\"slow\"")) < 2.0; i++)
        nanosleep(&ts, NULL);
    ck_assert_msg(depth >= 2.0, "slow lane depth %g", depth);
    ck_assert_int_eq(kill(b.s.pid, SIGTERM), 0);
    pthread_join(th, NULL);
    ck_assert_int_eq(q.status, 503);
    ck_assert_str_eq(q.code, "not_ready");
    ck_assert_str_eq(q.message, "server is shutting down");
    expect_batch_answered(&b);
    ck_assert_int_eq(ap_srv_wait(&b.s), 0);
}
END_TEST

/* A second SIGTERM during the drain stops waiting: the running batch (its deadline 30 s, the drain's grace
 * 60 s) is cancelled at once, its unfinished items answered timeout, and the server exits 0. */
START_TEST(second_sigterm_cancels_running_searches)
{
    static busy_srv b;
    if (!start_with_long_batch_env(&b, 100, 30000, "ARCPATH_DRAIN_TIMEOUT_MS=60000", "second SIGTERM test"))
        return;
    ck_assert_int_eq(kill(b.s.pid, SIGTERM), 0);
    struct timespec ts = {0, 50 * 1000000L};
    nanosleep(&ts, NULL);
    ck_assert_int_eq(kill(b.s.pid, SIGTERM), 0);
    expect_batch_answered(&b);
    ck_assert_int_gt(b.f.timeouts, 0); /* cancelled: nothing times out on its own within 30 s */
    ck_assert_int_eq(ap_srv_wait(&b.s), 0);
}
END_TEST

START_TEST(sighup_leaves_request_answered_and_server_up)
{
    static busy_srv b;
    if (!start_with_long_batch(&b, 30, "SIGHUP test"))
        return;
    ck_assert_int_eq(kill(b.s.pid, SIGHUP), 0);
    expect_batch_answered(&b);
    int st = 0;
    ck_assert_int_eq(waitpid(b.s.pid, &st, WNOHANG), 0);
    ap_resp r;
    ck_assert_int_eq(ap_http(&b.s, "GET", "/readyz", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200); /* not draining either */
    ap_resp_free(&r);
    ck_assert_int_eq(ap_srv_stop(&b.s), 0);
}
END_TEST

/* A supervisor that repeats SIGTERM (every 100 us here) until the process is gone must still see a clean
 * exit 0: once the drain is over, arcpathd ignores the signals its closed handles no longer catch (before
 * that fix, a SIGTERM landing after uv_close, while the Moving AI maps were being freed, killed it). */
START_TEST(repeated_sigterm_still_exits_zero)
{
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, ap_mai_small_dir ? ap_mai_small_dir : "config/maps", ap_mai_small_args, NULL), 0);
    int st = 0;
    pid_t p = 0;
    for (int i = 0; i < 300000 && p == 0; i++) {
        kill(s.pid, SIGTERM);
        struct timespec ts = {0, 100000L};
        nanosleep(&ts, NULL);
        p = waitpid(s.pid, &st, WNOHANG);
    }
    if (p == 0) {
        kill(s.pid, SIGKILL);
        waitpid(s.pid, &st, 0);
    }
    s.pid = 0;
    ck_assert_msg(p != 0, "arcpathd did not exit within 30 s of SIGTERM");
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "arcpathd ended with %s %d",
                  WIFEXITED(st) ? "exit status" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}
END_TEST

/* A SIGHUP sent while the maps load (50 ms in; Paris_1_1024 and den520d take about a second) waits until the
 * server handles signals, then reloads: the server comes up and serves. At its default action it killed the
 * process (a reload sent during a restart took the replica down). A SIGTERM then drains and exits 0. */
START_TEST(sighup_while_loading_waits)
{
    if (!ap_mai_small_dir) {
        ap_test_skip_no_data("SIGHUP while loading");
        return;
    }
    char sig[32];
    snprintf(sig, sizeof sig, "AP_TEST_EARLY_SIGNAL=%d", SIGHUP);
    const char *env[] = {sig, NULL};
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, ap_mai_small_dir, ap_mai_small_args, env), 0);
    ap_resp r;
    ck_assert_int_eq(ap_http(&s, "GET", "/readyz", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

Suite *lifecycle_suite(void)
{
    Suite *s = suite_create("lifecycle");
    TCase *tc = tcase_create("process");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, check_config_verdicts);
    tcase_add_test(tc, workspaces_beyond_memory_refused);
    tcase_add_test(tc, listens_on_ipv6_loopback);
    tcase_add_test(tc, port_in_use_exits_one);
    tcase_add_test(tc, repeated_sigterm_still_exits_zero);
    tcase_add_test(tc, sigterm_answers_inflight_and_exits_zero);
    tcase_add_test(tc, sigterm_refuses_new_connections_while_draining);
    tcase_add_test(tc, sigterm_answers_kept_connections_not_ready);
    tcase_add_test(tc, second_sigterm_cancels_running_searches);
    tcase_add_test(tc, sigterm_answers_queued_searches_not_ready);
    tcase_add_test(tc, sighup_leaves_request_answered_and_server_up);
    tcase_add_test(tc, sighup_while_loading_waits);
    suite_add_tcase(s, tc);
    return s;
}
