/* test_hardening.c — what a hostile or careless client cannot do to arcpathd: hold every connection
 * (per-address cap, total limit), keep a request open by trickling bytes (request_timeout_ms), or slip a
 * malformed HTTP message past (RFC 9112: conflicting Content-Length, transfer codings other than chunked,
 * HTTP/1.1 without Host; absolute-form targets are routed like their path), or a chunked body past the size
 * limit (413 once it is read).
 *
 * Raw sockets, because libcurl will not send most of these messages. Every socket goes to 127.0.0.1; the
 * probe that must still be answered comes from 127.0.0.2 (Linux routes all of 127.0.0.0/8 to lo), so the
 * per-address cap the held sockets exhaust is not its own. Every wait is bounded; nothing asserts a time. */
#include <arpa/inet.h>
#include "tests/check_fast.h"
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../util.h"
#include "harness.h"

Suite *hardening_suite(void);

#define HELD 16    /* sockets held open from 127.0.0.1: twice the per-address cap below */
#define PER_IP "8"

/* Wait at most ms for fd to become readable and read once: the bytes read (0 = the server closed), -1 on a
 * reset (also "closed"), -2 when nothing came within ms. */
static ssize_t read_within(int fd, char *buf, size_t cap, int ms)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int n = poll(&p, 1, ms);
    if (n == 0)
        return -2;
    if (n < 0)
        return -1;
    ssize_t k = recv(fd, buf, cap, 0);
    return k < 0 ? -1 : k;
}

/* The server closed fd (EOF or reset) within ms, having sent nothing more (a pending answer counts as not
 * closed). */
static int closed_within(int fd, int ms)
{
    char b[256];
    ssize_t k = read_within(fd, b, sizeof b, ms);
    return k == 0 || k == -1;
}

typedef struct raw_answer {
    int status;        /* from the status line; 0 when none came */
    char text[8192];   /* the whole answer as read, NUL-terminated */
    json_t *body;      /* the body as JSON, NULL if it is not */
} raw_answer;

/* Send req over a new connection from src and read the answer until the server closes or its
 * Content-Length is complete (at most 10 s in all). 0, or -1 when the connection failed. */
static int raw_exchange(int port, const char *src, const char *req, raw_answer *a)
{
    memset(a, 0, sizeof *a);
    int fd = ap_raw_connect(port, src);
    if (fd < 0 || ap_send_all(fd, req, strlen(req)) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    size_t n = 0;
    for (int i = 0; i < 100 && n + 1 < sizeof a->text; i++) {
        ssize_t k = read_within(fd, a->text + n, sizeof a->text - 1 - n, 100);
        if (k == -2)
            continue;
        if (k <= 0)
            break;
        n += (size_t)k;
        a->text[n] = '\0';
        const char *end = strstr(a->text, "\r\n\r\n");
        const char *cl = strstr(a->text, "Content-Length: ");
        if (end && cl && cl < end && n >= (size_t)(end + 4 - a->text) + strtoul(cl + 16, NULL, 10))
            break;
    }
    close(fd);
    a->text[n] = '\0';
    if (sscanf(a->text, "HTTP/1.%*d %d", &a->status) != 1)
        a->status = 0;
    const char *end = strstr(a->text, "\r\n\r\n");
    if (end)
        a->body = json_loads(end + 4, JSON_DISABLE_EOF_CHECK, NULL);
    return 0;
}

static const char *error_code(const raw_answer *a)
{
    return json_string_value(json_object_get(json_object_get(a->body, "error"), "code"));
}

/* The request answers HTTP status http with error code code (NULL: an answer that is not an error). */
static void expect_raw(int port, const char *req, int http, const char *code)
{
    raw_answer a;
    ck_assert_int_eq(raw_exchange(port, NULL, req, &a), 0);
    ck_assert_msg(a.status == http, "HTTP %d, want %d: %s", a.status, http, a.text);
    if (code)
        ck_assert_msg(error_code(&a) && strcmp(error_code(&a), code) == 0, "want %s: %s", code, a.text);
    else
        ck_assert_ptr_null(json_object_get(a.body, "error"));
    json_decref(a.body);
}

static void healthz_from(int port, const char *src)
{
    raw_answer a;
    ck_assert_int_eq(raw_exchange(port, src, "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n", &a), 0);
    ck_assert_msg(a.status == 200, "probe from %s: %s", src ? src : "127.0.0.1", a.text);
    ck_assert_str_eq(json_string_value(json_object_get(a.body, "status")), "ok");
    json_decref(a.body);
}

/* ---- connection limits ------------------------------------------------------------------------------ */

START_TEST(held_connections_leave_room_for_other_clients)
{
    /* request_timeout_ms long enough that the watchdog does not free the held sockets during the test */
    const char *env[] = {"ARCPATH_MAX_CONNECTIONS_PER_IP=" PER_IP, "ARCPATH_REQUEST_TIMEOUT_MS=120000", NULL};
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, env), 0);
    static const char partial[] = "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow: "; /* headers never end */
    int fds[HELD];
    for (int i = 0; i < HELD; i++) {
        fds[i] = ap_raw_connect(s.port, NULL);
        ck_assert_int_ge(fds[i], 0);
        ck_assert_int_eq(ap_send_all(fds[i], partial, sizeof partial - 1), 0);
    }
    /* The cap is real: the server closed exactly the sockets past it. Which ones is not asserted (the
     * harness's readiness probe may still have held a place when the first ones arrived). Bounded: 5 s. */
    const int want_closed = HELD - atoi(PER_IP);
    bool is_closed[HELD] = {false};
    int closed = 0;
    for (int round = 0; round < 50 && closed < want_closed; round++) {
        for (int i = 0; i < HELD; i++)
            if (!is_closed[i] && closed_within(fds[i], 0)) {
                is_closed[i] = true;
                closed++;
            }
        struct timespec ts = {0, 100 * 1000000L};
        nanosleep(&ts, NULL);
    }
    for (int i = 0; i < HELD; i++) /* one more look: no socket within the cap was closed after all */
        if (!is_closed[i] && closed_within(fds[i], 0))
            closed++;
    ck_assert_int_eq(closed, want_closed);
    /* ... and the first ones are still held: a new 127.0.0.1 client is refused too */
    int extra = ap_raw_connect(s.port, NULL);
    ck_assert_int_ge(extra, 0);
    ck_assert(closed_within(extra, 5000));
    close(extra);
    /* a client from another address is answered */
    for (int i = 0; i < 3; i++)
        healthz_from(s.port, "127.0.0.2");
    for (int i = 0; i < HELD; i++)
        close(fds[i]);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

/* A client that opens connections over the per-address cap as fast as it can makes libmicrohttpd log one
 * line each; arcpathd passes at most 20 a second to stderr (a full stderr would otherwise block the HTTP
 * thread), and the first line after a pause says how many were dropped. */
START_TEST(connection_flood_does_not_flood_the_log)
{
    char *errpath = ap_test_temp_file("arcpath-mhd-log", "");
    ck_assert_ptr_nonnull(errpath);
    char errenv[300];
    snprintf(errenv, sizeof errenv, "AP_TEST_STDERR_FILE=%s", errpath);
    const char *env[] = {"ARCPATH_MAX_CONNECTIONS_PER_IP=1", "ARCPATH_REQUEST_TIMEOUT_MS=120000", errenv, NULL};
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, env), 0);
    int held = ap_raw_connect(s.port, "127.0.0.2");
    ck_assert_int_ge(held, 0);
    static const char partial[] = "GET /healthz HTTP/1.1\r\nHost: t\r\n"; /* headers never end */
    ck_assert_int_eq(ap_send_all(held, partial, sizeof partial - 1), 0);
    for (int i = 0; i < 300; i++) { /* each is over the cap: closed at once, one log line each */
        int fd = ap_raw_connect(s.port, "127.0.0.2");
        if (fd >= 0)
            close(fd);
    }
    struct timespec pause = {1, 200 * 1000000L}; /* a new window */
    nanosleep(&pause, NULL);
    int last = ap_raw_connect(s.port, "127.0.0.2");
    ck_assert_int_ge(last, 0);
    ck_assert(closed_within(last, 5000));
    close(last);
    close(held);
    healthz_from(s.port, "127.0.0.3"); /* still serving */
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    size_t len = 0;
    char *text = ap_test_read_file(errpath, &len);
    ck_assert_ptr_nonnull(text);
    int lines = 0;
    for (const char *p = text; (p = strstr(p, "arcpathd: libmicrohttpd: ")) != NULL; p++)
        lines++;
    ck_assert_msg(lines >= 2 && lines <= 40, "%d libmicrohttpd lines:\n%.2000s", lines, text);
    ck_assert_msg(strstr(text, "such messages dropped before it") != NULL, "%.2000s", text);
    free(text);
    unlink(errpath);
    free(errpath);
}
END_TEST

/* Start a server on the demo maps with env, and wait 300 ms: the harness's readiness probe has closed, so
 * the tests of the connection limit count only their own connections. */
static void start_settled(ap_srv *s, const char *const *env)
{
    ck_assert_int_eq(ap_srv_start(s, "config/maps", NULL, env), 0);
    struct timespec gone = {0, 300 * 1000000L};
    nanosleep(&gone, NULL);
}

/* Open n connections to port, the i-th from 127.0.0.(first + i), each sending the start of a request whose
 * headers never end, into fds. The first gets 50 ms alone: the server dates a connection when an HTTP thread
 * accepts it, and with 64 threads under a sanitizer on a loaded machine the thread that took the first one
 * was once scheduled after a later one's, which then counted as the oldest. */
static void hold_partial(int port, int *fds, int n, int first)
{
    static const char partial[] = "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow: ";
    for (int i = 0; i < n; i++) {
        char src[16];
        snprintf(src, sizeof src, "127.0.0.%d", first + i);
        fds[i] = ap_raw_connect(port, src);
        ck_assert_int_ge(fds[i], 0);
        ck_assert_int_eq(ap_send_all(fds[i], partial, sizeof partial - 1), 0);
        if (i == 0 && n > 1) {
            struct timespec alone = {0, 50 * 1000000L};
            nanosleep(&alone, NULL);
        }
    }
}

/* With the server full (held[0, n): its max_connections, each waiting for the rest of a request, the
 * oldest first), a request on a new connection from src (NULL: 127.0.0.1) is accepted and answered 200
 * (within raw_exchange's 10 s), because the connection whose request has been arriving longest, held[0], is shut down to make
 * room for it; the newest, held[n - 1], stays open. Before, the new client waited in the kernel's backlog
 * until a held connection closed: request_timeout_ms, and clients holding connections from more addresses
 * than max_connections / max_connections_per_ip locked everyone else out (a helper). why: what the
 * failure message says is wrong. */
static void held_full_makes_room(int port, const char *src, int *held, int n, const char *why)
{
    struct timespec past = {0, 300 * 1000000L}; /* the held requests have been arriving for over 200 ms */
    nanosleep(&past, NULL);
    healthz_from(port, src); /* (its connection completes in the backlog even while MHD does not accept) */
    if (!closed_within(held[0], 1000)) {
        int other = -1; /* which one went instead, if any: says whether room was made at all */
        for (int i = 1; i < n && other < 0; i++)
            if (closed_within(held[i], 0))
                other = i;
        ck_abort_msg("the oldest held connection was not closed (held[%d] was): %s", other, why);
    }
    close(held[0]);
    held[0] = -1;
    ck_assert_msg(!closed_within(held[n - 1], 300), "the newest held connection was closed too");
}

/* The soft limit of a process's open files in /proc/PID/limits, or -1. */
static long long soft_nofile(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/limits", (int)pid);
    FILE *f = fopen(path, "r");
    long long soft = -1;
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "Max open files", 14) == 0)
            soft = strtoll(line + 14, NULL, 10);
    if (f != NULL)
        fclose(f);
    return soft;
}

/* max_connections (512 by default) needs 512 + 64 + 3 per HTTP thread descriptors. A soft open-file limit
 * below that is raised up to the hard one, silently; where the hard limit itself is short, max_connections
 * is lowered to what fits (the limit less that reserve) with a warning saying so, and the total limit then
 * holds the rest in the backlog instead of accept() failing with EMFILE for everyone. With 64 HTTP threads
 * (140 descriptors idle) a fixed reserve of 64 promised connections the server could not accept: it spun on
 * EMFILE and new clients waited (a helper). */
START_TEST(open_file_limit_raised_or_connections_lowered)
{
    char *errpath = ap_test_temp_file("arcpath-nofile-log", "");
    ck_assert_ptr_nonnull(errpath);
    char errenv[300];
    snprintf(errenv, sizeof errenv, "AP_TEST_STDERR_FILE=%s", errpath);
    /* soft 100, hard 2000: raised to 579, no warning */
    const char *raise_env[] = {"AP_TEST_NOFILE=100:2000", errenv, NULL};
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, raise_env), 0);
    ck_assert_int_eq(soft_nofile(s.pid), 579);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    size_t len = 0;
    char *text = ap_test_read_file(errpath, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strstr(text, "open-file limit") == NULL, "%s", text);
    /* libmicrohttpd's options are given with its logger first: no warning about that at start */
    ck_assert_msg(strstr(text, "is not the first option") == NULL, "%s", text);
    free(text);

    /* hard 100: max_connections lowered to 33, said once; the server holds 33 connections, so a 34th is
     * answered by closing the oldest of them */
    const char *low_env[] = {"AP_TEST_NOFILE=100:100", "ARCPATH_REQUEST_TIMEOUT_MS=120000", errenv, NULL};
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, low_env), 0);
    ck_assert_int_eq(soft_nofile(s.pid), 100);
    ap_resp r; /* GET /v1/info gives the limit in force */
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/info", NULL, 0, NULL, &r), 0);
    json_t *info = json_loads(r.body, 0, NULL);
    ck_assert_ptr_nonnull(info);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(info, "limits"), "max_connections")), 33);
    json_decref(info);
    ap_resp_free(&r);
    enum { LOW = 33 };
    int fds[LOW];
    hold_partial(s.port, fds, LOW, 1); /* from 33 addresses, under the per-address cap of 64 */
    held_full_makes_room(s.port, "127.0.0.5", fds, LOW, "max_connections was not lowered");
    for (int i = 1; i < LOW; i++)
        close(fds[i]);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    text = ap_test_read_file(errpath, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strstr(text, "arcpathd: the open-file limit (RLIMIT_NOFILE 100, its hard limit too) leaves room for "
                               "33 connections: max_connections 512 lowered to 33") != NULL,
                  "%s", text);
    ck_assert_msg(strstr(text, "Too many open files") == NULL, "%s", text);
    /* the effective config line holds the limit in force, printed after the lowering */
    ck_assert_msg(strstr(text, "\"max_connections\":33,") != NULL, "%s", text);
    free(text);
    /* hard 300 with 64 HTTP threads: lowered to 44 (300 - 64 - 3 x 64); held, they leave room for the
     * server's own descriptors, and a 45th client is let in (a reserve of 64 promised 236) */
    const char *threads_env[] = {"AP_TEST_NOFILE=300:300", "ARCPATH_HTTP_THREADS=64", "ARCPATH_REQUEST_TIMEOUT_MS=120000",
                                 errenv, NULL};
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, threads_env), 0);
    enum { THREADS_FIT = 44 };
    int tfds[THREADS_FIT];
    hold_partial(s.port, tfds, THREADS_FIT, 1);
    held_full_makes_room(s.port, "127.0.0.100", tfds, THREADS_FIT, "max_connections did not leave room for the threads");
    for (int i = 1; i < THREADS_FIT; i++)
        close(tfds[i]);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    text = ap_test_read_file(errpath, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strstr(text, "leaves room for 44 connections: max_connections 512 lowered to 44") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "Too many open files") == NULL, "%s", text);
    free(text);
    unlink(errpath);
    free(errpath);
    /* --check-config under the same limit says so in its report (it said OK, nothing more) */
    const struct rlimit low = {100, 100}; /* (this test's own process, a fork of the runner's) */
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
    static char out[65536];
    const char *args[] = {"--check-config", "--maps", "config/maps", NULL};
    ck_assert_int_eq(ap_run_cli(args, 1, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "max_connections 512 lowered to 33") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\"max_connections\":33,") != NULL, "%s", out);
}
END_TEST

/* An access log that nobody reads never stops the server: with stdout a pipe nobody reads (64 KiB), 1,500
 * requests (about 250 KiB of log lines) are all answered, each within the harness's timeout; with stdio's
 * buffer flushed on the loop thread the server stopped answering after about 750 (accesslog.h). Nothing is
 * dropped yet: 1 MiB of lines may wait. */
START_TEST(unread_stdout_does_not_stop_the_server)
{
    const char *env[] = {"AP_TEST_STDOUT_UNREAD=1", NULL};
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, env), 0);
    for (int i = 0; i < 1500; i++) {
        ap_resp r;
        ck_assert_int_eq(ap_http(&s, "GET", "/healthz", NULL, 0, NULL, &r), 0);
        ck_assert_msg(r.status == 200, "request %d: HTTP %ld", i, r.status);
        ap_resp_free(&r);
    }
    ap_resp r;
    ck_assert_int_eq(ap_http(&s, "GET", "/metrics", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ck_assert_double_eq(ap_metric(r.body, "arcpath_access_log_dropped_total", ""), 0.0);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_srv_stop(&s), 0); /* and it stops: the last lines get 2 s, then are left */
}
END_TEST

/* Nor do its own messages: with stderr a one-page pipe nobody reads, 3.5 s of connections over the per-IP cap
 * (libmicrohttpd's messages, 20 a second: about 7 KB, measured, past the 4 KiB) leave /healthz answering, and SIGTERM still
 * drains and ends the process with 0. The HTTP thread used to block writing to stderr, and the loop behind
 * it on stdio's lock: /healthz and SIGTERM froze until someone read the pipe (an ops helper's finding). */
START_TEST(unread_stderr_does_not_stop_the_server)
{
    const char *env[] = {"AP_TEST_STDERR_UNREAD=1", "ARCPATH_MAX_CONNECTIONS_PER_IP=1",
                         "ARCPATH_REQUEST_TIMEOUT_MS=120000", NULL};
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, env), 0);
    int held = ap_raw_connect(s.port, "127.0.0.2");
    ck_assert_int_ge(held, 0);
    static const char partial[] = "GET /healthz HTTP/1.1\r\nHost: t\r\n"; /* headers never end */
    ck_assert_int_eq(ap_send_all(held, partial, sizeof partial - 1), 0);
    const struct timespec tick = {0, 100 * 1000000L};
    for (int round = 0; round < 35; round++) { /* each over the cap: closed at once, a message each */
        for (int i = 0; i < 10; i++) {
            int fd = ap_raw_connect(s.port, "127.0.0.2");
            if (fd >= 0)
                close(fd);
        }
        nanosleep(&tick, NULL);
    }
    healthz_from(s.port, "127.0.0.3");
    close(held);
    healthz_from(s.port, "127.0.0.4"); /* (.3's last connection may still count against its cap of 1) */
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

/* Started with stderr closed (`2>&-`): it serves and stops with 0. The next file opened took number 2
 * (libuv's epoll), the messages were written into it, each flush polled it in vain for its 2 s, and libuv
 * aborted at exit on its own descriptor at or below 2 (a reviewer): now /dev/null takes the number. */
START_TEST(closed_stderr_serves_and_stops)
{
    const char *env[] = {"AP_TEST_STDERR_CLOSED=1", NULL};
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, env), 0);
    healthz_from(s.port, NULL);
    char fd2[64], target[256] = "";
    snprintf(fd2, sizeof fd2, "/proc/%d/fd/2", (int)s.pid);
    ck_assert_int_gt(readlink(fd2, target, sizeof target - 1), 0);
    ck_assert_str_eq(target, "/dev/null");
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

START_TEST(full_server_makes_room_for_a_new_client)
{
    /* max_connections 4, held by four slow requests from four addresses: a fifth client is answered at once,
     * the oldest held connection closed for it (counted), the others kept. */
    const char *env[] = {"ARCPATH_MAX_CONNECTIONS=4", "ARCPATH_REQUEST_TIMEOUT_MS=120000", NULL};
    ap_srv s;
    start_settled(&s, env);
    int fds[4];
    hold_partial(s.port, fds, 4, 11);
    held_full_makes_room(s.port, "127.0.0.20", fds, 4, "the full server did not make room");
    ck_assert_double_ge(ap_metric_now(&s, "arcpath_connections_evicted_total", ""), 1);
    const double open = ap_metric_now(&s, "arcpath_connections_open", "");
    ck_assert_msg(open >= 3 && open <= 4, "arcpath_connections_open %g: 3 held and the scrape's", open);
    for (int i = 1; i < 4; i++)
        close(fds[i]);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

/* Room is made from a connection that waits for its request, not from an upload whose body keeps
 * arriving (a helper: a slow 1 MiB map upload was the first one closed), however long ago it began; but an
 * upload that only trickles (a byte every 100 ms: 8 of them held a full server 9.5 s, a helper) is no
 * better than a request that waits. */
START_TEST(full_server_spares_an_arriving_upload)
{
    const char *env[] = {"ARCPATH_MAX_CONNECTIONS=4", "ARCPATH_REQUEST_TIMEOUT_MS=120000",
                         "ARCPATH_ADMIN_TOKEN=hardening-admin-token-0123", NULL};
    ap_srv s;
    start_settled(&s, env);
    static const char head[] = "PUT /v1/maps/slowup HTTP/1.1\r\nHost: t\r\n"
                               "Authorization: Bearer hardening-admin-token-0123\r\nContent-Length: 100000\r\n\r\n";
    int up = ap_raw_connect(s.port, "127.0.0.21"), trickle = ap_raw_connect(s.port, "127.0.0.22");
    ck_assert_int_ge(up, 0);
    ck_assert_int_ge(trickle, 0);
    ck_assert_int_eq(ap_send_all(up, head, sizeof head - 1), 0);
    ck_assert_int_eq(ap_send_all(trickle, head, sizeof head - 1), 0);
    char piece[4096];
    memset(piece, '.', sizeof piece);
    struct timespec tick = {0, 100 * 1000000L};
    nanosleep(&tick, NULL); /* the two heads are read before the others connect */
    int idle[2];
    hold_partial(s.port, idle, 2, 23);
    for (int i = 0; i < 5; i++) { /* the upload moves 4 KiB every 100 ms, the other a byte */
        ck_assert_int_eq(ap_send_all(up, piece, sizeof piece), 0);
        ck_assert_int_eq(ap_send_all(trickle, piece, 1), 0);
        nanosleep(&tick, NULL);
    }
    ck_assert_int_eq(ap_send_all(up, piece, sizeof piece), 0);
    healthz_from(s.port, "127.0.0.30");
    ck_assert_msg(closed_within(trickle, 1000), "the trickling upload (the stalest) was not closed");
    ck_assert_msg(!closed_within(up, 200), "the arriving upload was closed");
    ck_assert_msg(!closed_within(idle[0], 100), "a younger waiting connection was closed too");
    ck_assert_int_eq(ap_send_all(up, piece, sizeof piece), 0);
    close(up);
    close(trickle);
    for (int i = 0; i < 2; i++)
        close(idle[i]);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

/* Which held connection gives its place, with max_connections 2, a pooled (kept-alive) client and a
 * connection whose head never ends: (1) an idle kept-alive connection only when no other can, since a
 * pooled client reusing it at that moment sees its request fail (a helper: 4 % of a naive pool's POSTs at
 * the limit) — here it has idled longer than the other waited, and the other is closed; (2) never one whose
 * next request's head has arrived, however long it idled before (its age counted from the previous answer,
 * so a POST whose body lagged a moment was cut and its client saw no answer). */
START_TEST(full_server_spares_pooled_connections)
{
    const char *env[] = {"ARCPATH_MAX_CONNECTIONS=2", "ARCPATH_REQUEST_TIMEOUT_MS=120000", NULL};
    ap_srv s;
    start_settled(&s, env);
    struct timespec wait = {0, 300 * 1000000L};
    int pooled = ap_raw_connect(s.port, "127.0.0.41");
    ck_assert_int_ge(pooled, 0);
    static const char req[] = "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n";
    static const char body[] = "{\"map\":\"arena\",\"start\":{\"x\":3.5,\"y\":3.5},\"goal\":{\"x\":9.5,\"y\":9.5}}";
    char buf[2048], head[256];
    snprintf(head, sizeof head, "POST /v1/path HTTP/1.1\r\nHost: t\r\nContent-Length: %zu\r\n\r\n", sizeof body - 1);
    for (int phase = 1; phase <= 2; phase++) {
        ck_assert_int_eq(ap_send_all(pooled, req, sizeof req - 1), 0);
        ck_assert_int_gt(read_within(pooled, buf, sizeof buf - 1, 2000), 0);
        nanosleep(&wait, NULL);
        int slow;
        hold_partial(s.port, &slow, 1, 41 + phase);
        if (phase == 2) /* the next request's head arrives; its body lags */
            ck_assert_int_eq(ap_send_all(pooled, head, strlen(head)), 0);
        nanosleep(&wait, NULL);
        healthz_from(s.port, "127.0.0.45");
        ck_assert_msg(closed_within(slow, 1000), "phase %d: the connection waiting for its head was not closed", phase);
        close(slow);
        if (phase == 2)
            ck_assert_int_eq(ap_send_all(pooled, body, sizeof body - 1), 0);
        else
            ck_assert_int_eq(ap_send_all(pooled, req, sizeof req - 1), 0);
        ssize_t k = read_within(pooled, buf, sizeof buf - 1, 5000);
        ck_assert_msg(k > 0 && strncmp(buf, "HTTP/1.1 200", 12) == 0, "phase %d: the pooled connection was closed", phase);
        if (phase == 2)
            ck_assert_ptr_nonnull(strstr(buf, "\"status\":\"ok\""));
    }
    close(pooled);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

START_TEST(trickled_request_is_closed_at_request_timeout)
{
    /* idle_timeout_s 30: a byte every 500 ms keeps MHD's idle timeout from ever firing in this test, so
     * only the whole-request deadline (1500 ms) can close the socket. */
    const char *env[] = {"ARCPATH_REQUEST_TIMEOUT_MS=1500", "ARCPATH_IDLE_TIMEOUT_S=30", NULL};
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, env), 0);
    int fd = ap_raw_connect(s.port, NULL);
    ck_assert_int_ge(fd, 0);
    static const char head[] = "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow: ";
    ck_assert_int_eq(ap_send_all(fd, head, sizeof head - 1), 0);
    int sent = 0, closed = 0;
    /* at most 20 s: well past the 1.5 s deadline, well short of the 30 s idle timeout */
    for (int i = 0; i < 40 && !closed; i++) {
        if (ap_send_all(fd, "a", 1) != 0) {
            closed = 1; /* EPIPE / reset: the server is gone from this socket */
            break;
        }
        sent++;
        closed = closed_within(fd, 500);
    }
    close(fd);
    ck_assert_msg(closed, "a trickling request was still open after %d bytes", sent);
    ck_assert_int_ge(sent, 2); /* it did trickle: bytes kept arriving before the cut */
    /* a well-formed request on the same server is answered */
    healthz_from(s.port, NULL);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

/* A client that sends the headers of a request with a body and closes at once is let go within a second, not
 * held (in flight, counted against its address) until request_timeout_ms: libmicrohttpd 0.9.75 left about
 * half such connections unread until the watchdog's deadline (10 s here), and 64 of them locked a client
 * address out of the server for those 10 s. */
START_TEST(closed_before_its_body_is_let_go)
{
    const char *env[] = {"ARCPATH_REQUEST_TIMEOUT_MS=10000", NULL};
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, env), 0);
    static const char head[] = "POST /v1/path HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                               "Content-Length: 71\r\n\r\n";
    for (int i = 0; i < 20; i++) {
        int fd = ap_raw_connect(s.port, "127.0.0.4");
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(ap_send_all(fd, head, sizeof head - 1), 0);
        close(fd);
    }
    double inflight = -1;
    for (int i = 0; i < 30 && inflight != 1; i++) { /* at most 3 s: the /metrics request itself is 1 */
        struct timespec tick = {0, 100 * 1000000L};
        nanosleep(&tick, NULL);
        ap_resp r;
        ck_assert_int_eq(ap_http(&s, "GET", "/metrics", NULL, 0, NULL, &r), 0);
        inflight = ap_metric(r.body, "arcpath_inflight_requests", "");
        ap_resp_free(&r);
    }
    ck_assert_double_eq(inflight, 1);
    healthz_from(s.port, "127.0.0.4");
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

START_TEST(keep_alive_requests_each_get_the_full_deadline)
{
    /* Six requests on one connection, 300 ms apart (1.8 s in all, more than request_timeout_ms 1000): the
     * deadline restarts with each answer, so none is cut. */
    const char *env[] = {"ARCPATH_REQUEST_TIMEOUT_MS=1000", NULL};
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, env), 0);
    int fd = ap_raw_connect(s.port, NULL);
    ck_assert_int_ge(fd, 0);
    static const char req[] = "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n";
    for (int i = 0; i < 6; i++) {
        struct timespec ts = {0, 300 * 1000000L};
        nanosleep(&ts, NULL);
        ck_assert_int_eq(ap_send_all(fd, req, sizeof req - 1), 0);
        char buf[1024];
        ssize_t k = read_within(fd, buf, sizeof buf - 1, 5000);
        ck_assert_msg(k > 0, "request %d on the kept-alive connection got no answer", i);
        buf[k] = '\0';
        ck_assert_msg(strncmp(buf, "HTTP/1.1 200", 12) == 0, "%s", buf);
    }
    close(fd);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

/* ---- RFC 9112 strictness ---------------------------------------------------------------------------- */

START_TEST(conflicting_content_length_is_400)
{
    int port = ap_demo_srv->port;
    expect_raw(port,
               "POST /v1/curve HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nContent-Length: 5\r\n\r\n{}",
               400, "bad_request");
    /* the same value twice is one length (RFC 9112 6.3 allows it) */
    expect_raw(port, "GET /healthz HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n", 200,
               NULL);
    healthz_from(port, NULL);
}
END_TEST

START_TEST(unsupported_transfer_coding_is_501)
{
    int port = ap_demo_srv->port;
    expect_raw(port, "POST /v1/curve HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
               501, "not_implemented");
    expect_raw(port, "POST /v1/curve HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\n\r\n", 501,
               "not_implemented");
    expect_raw(port,
               "POST /v1/curve HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n"
               "\r\n0\r\n\r\n",
               501, "not_implemented");
    /* chunked alone is read: an empty body is the curve route's own invalid_json; "chunked " with trailing
     * whitespace is not (libmicrohttpd 0.9.75 would not decode it) */
    expect_raw(port, "POST /v1/curve HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400,
               "invalid_json");
    expect_raw(port, "POST /v1/curve HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked \r\n\r\n0\r\n\r\n", 501,
               "not_implemented");
    healthz_from(port, NULL);
}
END_TEST

/* req (a faulty head with another request behind it) is answered 400 bad_request (its message holding
 * says, unless NULL) with Connection: close, and nothing more: the request behind it is not answered. */
static void expect_400_alone(int port, const char *req, const char *says)
{
    raw_answer a;
    ck_assert_int_eq(raw_exchange(port, NULL, req, &a), 0);
    ck_assert_msg(a.status == 400, "%s", a.text);
    ck_assert_str_eq(error_code(&a), "bad_request");
    ck_assert_msg(says == NULL || strstr(a.text, says) != NULL, "no \"%s\": %s", says, a.text);
    ck_assert_msg(strstr(a.text, "Connection: close") != NULL, "the connection was kept: %s", a.text);
    ck_assert_msg(strstr(a.text + 1, "HTTP/1.1 ") == NULL, "a second answer: %s", a.text);
    json_decref(a.body);
}

/* RFC 9112 6.1 and 6.3: Transfer-Encoding beside Content-Length, or on HTTP/1.0, is faulty framing: 400
 * bad_request and the connection closed. A front end that framed by Content-Length would pass the bytes
 * after the empty chunked body as its body; arcpathd kept the connection and answered them as a second
 * request (a helper's smuggled GET of /v1/maps/rooms got 200). */
START_TEST(transfer_encoding_with_content_length_is_400)
{
    int port = ap_demo_srv->port;
    static const char *const reqs[] = {
        "POST /v1/curve HTTP/1.1\r\nHost: t\r\nContent-Length: 45\r\nTransfer-Encoding: chunked\r\n\r\n"
        "0\r\n\r\nGET /v1/maps/rooms HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /v1/curve HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n"
        "0\r\n\r\nGET /v1/maps/rooms HTTP/1.1\r\nHost: x\r\n\r\n",
        /* whitespace before the colon (RFC 9112 5.1: 400): a front end that trims it reads chunked */
        "POST /v1/curve HTTP/1.1\r\nHost: t\r\nTransfer-Encoding : chunked\r\nContent-Length: 45\r\n\r\n"
        "0\r\n\r\nGET /v1/maps/rooms HTTP/1.1\r\nHost: x\r\n\r\n"};
    for (int i = 0; i < 3; i++)
        expect_400_alone(port, reqs[i], NULL);
    healthz_from(port, NULL);
}
END_TEST

/* RFC 9112 5.2: a folded header line. libmicrohttpd 0.9.75 joins the continuation to the field's name
 * ("Content-Length56"), so the length was lost: the body was not read, and its bytes, a GET, were answered as
 * a second request (a helper's). A fold of a framing field is 400 bad_request and the connection closed;
 * only one answer comes. */
START_TEST(folded_framing_field_is_400)
{
    int port = ap_demo_srv->port;
    static const char *const reqs[] = {
        "POST /v1/path HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\n 55\r\n\r\n"
        "GET /v1/info HTTP/1.1\r\nHost: x\r\nX-Request-ID: SMUGGLED\r\n\r\n",
        "POST /v1/path HTTP/1.1\r\nHost: t\r\nContent-Length:\r\n\t55\r\n\r\n"
        "GET /v1/info HTTP/1.1\r\nHost: x\r\nX-Request-ID: SMUGGLED\r\n\r\n",
        "POST /v1/curve HTTP/1.1\r\nHost: t\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n"
        "GET /v1/info HTTP/1.1\r\nHost: x\r\n\r\n"};
    for (int i = 0; i < 3; i++)
        expect_400_alone(port, reqs[i], "obs-fold");
    /* a fold of another field is no fault of framing: the request is served */
    expect_raw(port, "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Note: a\r\n b\r\n\r\n", 200, NULL);
    healthz_from(port, NULL);
}
END_TEST

/* RFC 9110 10.1.1: "Expect: 100-continue" on a request without content. libmicrohttpd 0.9.75 sent "100
 * Continue" and, with a second request pipelined behind, answered neither and closed (our access log said
 * 200). Now 400 bad_request at once, no 100; with content (or on HTTP/1.0, which ignores it) it is served. */
START_TEST(expect_without_content_is_400)
{
    int port = ap_demo_srv->port;
    static const char *const reqs[] = {
        "GET /healthz HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\n\r\nGET /healthz HTTP/1.1\r\nHost: t\r\n\r\n",
        "POST /v1/path HTTP/1.1\r\nHost: t\r\nExpect: 100-Continue\r\nContent-Length: 0\r\n\r\n"
        "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n"};
    for (int i = 0; i < 2; i++) {
        raw_answer a;
        ck_assert_int_eq(raw_exchange(port, NULL, reqs[i], &a), 0);
        ck_assert_msg(a.status == 400, "request %d: %s", i, a.text);
        ck_assert_str_eq(error_code(&a), "bad_request");
        ck_assert_msg(strstr(a.text, "100 Continue") == NULL, "request %d: %s", i, a.text);
        ck_assert_msg(strstr(a.text, "Connection: close") != NULL, "request %d kept its connection: %s", i, a.text);
        json_decref(a.body);
    }
    raw_answer a;
    ck_assert_int_eq(raw_exchange(port, NULL,
                                  "POST /v1/curve HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 2\r\n"
                                  "Connection: close\r\n\r\n{}", /* (closed after: two heads, one length) */
                                  &a),
                     0);
    ck_assert_msg(strstr(a.text, "HTTP/1.1 100 Continue") == a.text, "%s", a.text);
    ck_assert_msg(strstr(a.text, "HTTP/1.1 400") != NULL && strstr(a.text, "\"invalid_request\"") != NULL, "%s",
                  a.text);
    json_decref(a.body);
    expect_raw(port, "GET /healthz HTTP/1.0\r\nExpect: 100-continue\r\n\r\n", 200, NULL);
    healthz_from(port, NULL);
}
END_TEST

/* A chunked body (no Content-Length to refuse early) that grows past max_body_bytes (65,536 by default) is
 * read to its end and discarded, then answered 413 payload_too_large as a whole answer (not a reset); one
 * just under the limit is read and parsed (here: not JSON). */
/* A request of head (ending in the blank line) and a chunked body of chunks x 8 KiB of 'a', at most 10, in
 * the static buffer returned. */
static const char *chunked_request(const char *head, int chunks)
{
    static char req[256 + 10 * (8 + 8192)];
    ck_assert_int_le(chunks, 10);
    int n = snprintf(req, sizeof req, "%s", head);
    for (int c = 0; c < chunks; c++) {
        n += snprintf(req + n, sizeof req - (size_t)n, "2000\r\n");
        memset(req + n, 'a', 8192);
        n += 8192;
        n += snprintf(req + n, sizeof req - (size_t)n, "\r\n");
    }
    n += snprintf(req + n, sizeof req - (size_t)n, "0\r\n\r\n");
    ck_assert_int_lt(n, (int)sizeof req);
    return req;
}

START_TEST(chunked_body_over_the_limit_is_413)
{
    int port = ap_demo_srv->port;
    for (int over = 0; over < 2; over++) {
        /* 9 x 8 KiB = 73,728 bytes > 65,536; 7 x 8 KiB = 57,344 */
        const char *req = chunked_request("POST /v1/path HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n",
                                          over ? 9 : 7);
        if (over)
            expect_raw(port, req, 413, "payload_too_large");
        else
            expect_raw(port, req, 400, "invalid_json");
    }
    healthz_from(port, NULL);
}
END_TEST

/* A body a route does not read (a GET's) is held to max_body_bytes too: a Content-Length over it is 413 at
 * once (it was read and dropped until the request timeout: a helper sent 20 GB), a chunked one past it 413
 * at its end; a small one is dropped and the route answers. */
START_TEST(unread_body_over_the_limit_is_413)
{
    int port = ap_demo_srv->port;
    expect_raw(port, "GET /healthz HTTP/1.1\r\nHost: t\r\nContent-Length: 100000000000\r\n\r\n", 413,
               "payload_too_large");
    expect_raw(port, "GET /healthz HTTP/1.1\r\nHost: t\r\nContent-Length: 65537\r\n\r\n", 413,
               "payload_too_large");
    expect_raw(port, "GET /healthz HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\n0123456789", 200, NULL);
    expect_raw(port, chunked_request("GET /healthz HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n", 9),
               413, "payload_too_large");
    healthz_from(port, NULL);
}
END_TEST

START_TEST(http11_without_host_is_400)
{
    int port = ap_demo_srv->port;
    expect_raw(port, "GET /healthz HTTP/1.1\r\n\r\n", 400, "bad_request");
    expect_raw(port, "GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "bad_request");
    /* HTTP/1.0 has no Host requirement */
    expect_raw(port, "GET /healthz HTTP/1.0\r\n\r\n", 200, NULL);
    healthz_from(port, NULL);
}
END_TEST

/* The request head's limit (http.c AP_MAX_HEAD_BYTES, 16 KiB as head_bytes counts it, in a pool of 24 KiB):
 * a head just under it is answered (with the pool at 16 KiB and no limit of arcpath's own, a head of
 * 16,080-16,200 bytes got no answer at all, closed after being logged and counted as a 200: a helper);
 * over it, by one long field, by many short ones or by a long target, 431 header_too_large as JSON with the
 * connection closed. */
START_TEST(head_over_the_limit_is_431)
{
    int port = ap_demo_srv->port;
    static char req[24000];
    snprintf(req, sizeof req, "GET /healthz HTTP/1.1\r\nHost: t\r\nX-A: %0*d\r\n\r\n", 16111, 0);
    expect_raw(port, req, 200, NULL);
    size_t n = (size_t)snprintf(req, sizeof req, "GET /healthz HTTP/1.1\r\nHost: t\r\nX-A: %0*d\r\n\r\n", 16400, 0);
    ck_assert_uint_lt(n, sizeof req);
    expect_raw(port, req, 431, "header_too_large");
    for (int lines = 100; lines <= 250; lines += 150) {
        n = (size_t)snprintf(req, sizeof req, "GET /healthz HTTP/1.1\r\nHost: t\r\n");
        for (int i = 0; i < lines; i++)
            n += (size_t)snprintf(req + n, sizeof req - n, "X-%d: v\r\n", i);
        n += (size_t)snprintf(req + n, sizeof req - n, "\r\n");
        ck_assert_uint_lt(n, sizeof req);
        if (lines == 100)
            expect_raw(port, req, 200, NULL);
        else
            expect_raw(port, req, 431, "header_too_large");
    }
    /* a chunked body's trailer fields count once they are read */
    n = (size_t)snprintf(req, sizeof req,
                         "POST /v1/curve HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n"
                         "X-T: %0*d\r\n\r\n",
                         16400, 0);
    ck_assert_uint_lt(n, sizeof req);
    expect_raw(port, req, 431, "header_too_large");
    snprintf(req, sizeof req, "GET /%0*d HTTP/1.1\r\nHost: t\r\n\r\n", 20000, 0);
    raw_answer a;
    ck_assert_int_eq(raw_exchange(port, NULL, req, &a), 0);
    ck_assert_msg(a.status == 431, "a long target: %s", a.text);
    ck_assert_str_eq(error_code(&a), "header_too_large");
    ck_assert_msg(strstr(a.text, "Connection: close") && strstr(a.text, "X-Request-ID: "), "%s", a.text);
    json_decref(a.body);
    healthz_from(port, NULL);
}
END_TEST

/* A head whose percent-escapes take three times the pool they count for passes head_bytes and can leave
 * libmicrohttpd no room for the answer's header lines: the client gets nothing and the access log must not
 * say "ok" (it said status 200, "ok", and the 200 was counted: a helper). Targets of 7,996-8,104 escaped
 * characters sweep that band (on libmicrohttpd 0.9.75 with the 24 KiB pool it starts at 8,056; past 8,104
 * libmicrohttpd answers 431 itself, then stalls to the request timeout, then answers 414). */
START_TEST(unsent_answers_are_logged_unsent)
{
    char *log = ap_test_temp_file("arcpath-unsent-log", "");
    ck_assert_ptr_nonnull(log);
    static ap_srv s;
    ck_assert_int_eq(ap_srv_start_logged(&s, "config/maps", NULL, NULL, log), 0);
    static char req[32000];
    enum { FIRST = 7996, STEP = 4, COUNT = 28 };
    int status[COUNT];
    for (int i = 0; i < COUNT; i++) {
        int n = snprintf(req, sizeof req, "GET /v1/info?a=");
        for (int k = 0; k < FIRST + i * STEP; k++)
            n += snprintf(req + n, sizeof req - (size_t)n, "%%41");
        snprintf(req + n, sizeof req - (size_t)n, " HTTP/1.1\r\nHost: t\r\nX-Request-ID: unsent-%d\r\n\r\n", i);
        raw_answer a;
        ck_assert_int_eq(raw_exchange(s.port, NULL, req, &a), 0);
        status[i] = a.status;
        json_decref(a.body);
    }
    healthz_from(s.port, NULL);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    size_t len = 0;
    char *text = ap_test_read_file(log, &len);
    ck_assert_ptr_nonnull(text);
    static const char UNSENT[] = "\"result\":\"unsent\"";
    int unsent = 0;
    for (int i = 0; i < COUNT; i++) {
        char key[40];
        snprintf(key, sizeof key, "\"id\":\"unsent-%d\"", i);
        const char *line = strstr(text, key);
        if (line == NULL) /* (libmicrohttpd refused it before arcpath saw it) */
            continue;
        const char *eol = strchr(line, '\n');
        ck_assert_ptr_nonnull(eol);
        const char *res = strstr(line, "\"result\":\"");
        ck_assert_msg(res != NULL && res < eol, "%.*s", (int)(eol - line), line);
        if (status[i] == 0) {
            ck_assert_msg(strncmp(res, UNSENT, sizeof UNSENT - 1) == 0, "no answer, yet: %.*s", (int)(eol - line),
                          line);
            unsent++;
        } else {
            ck_assert_msg(strncmp(res, UNSENT, sizeof UNSENT - 1) != 0, "answered %d, yet: %.*s", status[i],
                          (int)(eol - line), line);
        }
    }
    ck_assert_int_gt(unsent, 0); /* the band was swept */
    free(text);
    unlink(log);
    free(log);
}
END_TEST

/* What libmicrohttpd refuses before arcpath's handler runs gets its own answer (README "HTTP conventions":
 * an HTML body, no X-Request-ID): the documented statuses, and the server goes on serving. A
 * Content-Length that parses but passes the limit is arcpath's own JSON 413. */
START_TEST(requests_libmicrohttpd_refuses_itself)
{
    int port = ap_demo_srv->port;
    expect_raw(port, "GET /healthz HTTP/2.5\r\nHost: t\r\n\r\n", 505, NULL);
    expect_raw(port, "POST /v1/path HTTP/1.1\r\nHost: t\r\nContent-Length: -1\r\n\r\n", 400, NULL);
    expect_raw(port, "POST /v1/path HTTP/1.1\r\nHost: t\r\nContent-Length: 1e3\r\n\r\n", 400, NULL);
    expect_raw(port, "POST /v1/path HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999999999999999\r\n\r\n",
               413, NULL);
    expect_raw(port, "POST /v1/path HTTP/1.1\r\nHost: t\r\nContent-Length: 18446744073709551615\r\n\r\n", 413,
               "payload_too_large");
    static char req[40100];
    snprintf(req, sizeof req, "GET /%0*d HTTP/1.1\r\nHost: t\r\n\r\n", 30000, 0);
    expect_raw(port, req, 414, NULL);
    snprintf(req, sizeof req, "GET /healthz HTTP/1.1\r\nHost: t\r\nX-A: %0*d\r\n\r\n", 40000, 0);
    expect_raw(port, req, 431, NULL);
    healthz_from(port, NULL);
}
END_TEST

START_TEST(absolute_form_is_routed_like_its_path)
{
    int port = ap_demo_srv->port;
    static const char body[] = "{\"map\":\"arena\",\"start\":{\"x\":3.5,\"y\":10.5},\"goal\":{\"x\":9.5,\"y\":10.5},"
                               "\"search\":{\"smoothing\":\"none\"}}";
    char req[512];
    snprintf(req, sizeof req, "POST http://127.0.0.1:%d/v1/path HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %zu\r\n\r\n%s",
             port, sizeof body - 1, body);
    raw_answer a;
    ck_assert_int_eq(raw_exchange(port, NULL, req, &a), 0);
    ck_assert_msg(a.status == 200, "%s", a.text);
    ck_assert_str_eq(json_string_value(json_object_get(a.body, "status")), "ok");
    ck_assert_double_eq_tol(json_number_value(json_object_get(a.body, "grid_cost")), 6.0, 1e-12);
    json_decref(a.body);
    expect_raw(port, "GET HTTP://example.org/healthz HTTP/1.1\r\nHost: example.org\r\n\r\n", 200, NULL);
    expect_raw(port, "GET https://example.org:8443/healthz HTTP/1.1\r\nHost: example.org\r\n\r\n", 200, NULL);
    expect_raw(port, "GET http://example.org/no/such/route HTTP/1.1\r\nHost: example.org\r\n\r\n", 404,
               "not_found");
}
END_TEST

Suite *hardening_suite(void)
{
    Suite *s = suite_create("hardening");
    TCase *tc = tcase_create("limits");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, held_connections_leave_room_for_other_clients);
    tcase_add_test(tc, full_server_makes_room_for_a_new_client);
    tcase_add_test(tc, full_server_spares_an_arriving_upload);
    tcase_add_test(tc, full_server_spares_pooled_connections);
    tcase_add_test(tc, open_file_limit_raised_or_connections_lowered);
    tcase_add_test(tc, unread_stdout_does_not_stop_the_server);
    tcase_add_test(tc, unread_stderr_does_not_stop_the_server);
    tcase_add_test(tc, closed_stderr_serves_and_stops);
    tcase_add_test(tc, connection_flood_does_not_flood_the_log);
    tcase_add_test(tc, trickled_request_is_closed_at_request_timeout);
    tcase_add_test(tc, keep_alive_requests_each_get_the_full_deadline);
    tcase_add_test(tc, closed_before_its_body_is_let_go);
    suite_add_tcase(s, tc);
    TCase *rfc = tcase_create("rfc9112");
    tcase_add_test(rfc, conflicting_content_length_is_400);
    tcase_add_test(rfc, unsupported_transfer_coding_is_501);
    tcase_add_test(rfc, transfer_encoding_with_content_length_is_400);
    tcase_add_test(rfc, folded_framing_field_is_400);
    tcase_add_test(rfc, expect_without_content_is_400);
    tcase_add_test(rfc, chunked_body_over_the_limit_is_413);
    tcase_add_test(rfc, http11_without_host_is_400);
    tcase_add_test(rfc, unread_body_over_the_limit_is_413);
    tcase_add_test(rfc, absolute_form_is_routed_like_its_path);
    tcase_add_test(rfc, requests_libmicrohttpd_refuses_itself);
    tcase_add_test(rfc, head_over_the_limit_is_431);
    tcase_add_test(rfc, unsent_answers_are_logged_unsent);
    suite_add_tcase(s, rfc);
    return s;
}
