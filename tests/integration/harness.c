/* harness.c — see harness.h. */
#include "harness.h"

#include <arpa/inet.h>
#include "tests/check_fast.h"
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

ap_srv *ap_demo_srv;
ap_srv *ap_mai_srv;
const char *ap_mai_dir;
const char *ap_mai_small_dir;
const char *const *ap_mai_small_args;

/* A port free on the IPv4 loopback (or the IPv6 one, ::1, when v6), or -1 (no such loopback). */
static int free_port(bool v6)
{
    int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    struct sockaddr_in6 a6 = {.sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT};
    struct sockaddr *sa = v6 ? (struct sockaddr *)&a6 : (struct sockaddr *)&a;
    socklen_t l = v6 ? sizeof a6 : sizeof a;
    int port = -1;
    if (bind(fd, sa, l) == 0 && getsockname(fd, sa, &l) == 0)
        port = ntohs(v6 ? a6.sin6_port : a.sin_port);
    close(fd);
    return port;
}

/* Whether env (NULL-terminated "K=V" strings, may be NULL) holds exactly entry. */
static bool env_has(const char *const *env, const char *entry)
{
    for (int i = 0; env && env[i]; i++)
        if (strcmp(env[i], entry) == 0)
            return true;
    return false;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int ap_srv_start(ap_srv *s, const char *maps_dir, const char *const *args, const char *const *env)
{
    return ap_srv_start_logged(s, maps_dir, args, env, NULL);
}

static int spawn(ap_srv *s, const char *maps_dir, const char *const *args, const char *const *env,
                 const char *log_path);
static int wait_ready(ap_srv *s);

int ap_srv_start_logged(ap_srv *s, const char *maps_dir, const char *const *args, const char *const *env,
                        const char *log_path)
{
    if (spawn(s, maps_dir, args, env, log_path) != 0)
        return -1;
    return wait_ready(s);
}

int ap_srv_spawn(ap_srv *s, const char *maps_dir, const char *const *args, const char *const *env)
{
    if (spawn(s, maps_dir, args, env, NULL) != 0)
        return -1;
    s->deferred = 1;
    return 0;
}

/* The process (pid) in which the deferred server last answered: a forked test's first request waits again. */
static atomic_int deferred_ready_in;

static int spawn(ap_srv *s, const char *maps_dir, const char *const *args, const char *const *env,
                 const char *log_path)
{
    memset(s, 0, sizeof *s);
    const bool v6 = env_has(env, "AP_TEST_LISTEN_V6=1");
    s->port = free_port(v6);
    if (s->port < 0)
        return -1;
    const char *host = v6 ? "[::1]" : "127.0.0.1";
    snprintf(s->base, sizeof s->base, "http://%s:%d", host, s->port);
    const char *bin = getenv("ARCPATHD");
    if (!bin || !*bin)
        bin = "build/arcpathd";
    char listen[64];
    snprintf(listen, sizeof listen, "%s:%d", host, s->port);
    const char *argv[32] = {bin, "--listen", listen, "--maps", maps_dir};
    int n = 5;
    for (int i = 0; args && args[i] && n < 31; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    fflush(NULL);
    s->pid = fork();
    if (s->pid < 0)
        return -1;
    if (s->pid == 0) {
        for (int i = 0; env && env[i]; i++)
            putenv((char *)env[i]);
        /* A test of the open-file limit gives the server its own (AP_TEST_NOFILE=SOFT:HARD, this child only). */
        const char *nofile = getenv("AP_TEST_NOFILE");
        unsigned long long soft = 0, hard = 0;
        if (nofile && sscanf(nofile, "%llu:%llu", &soft, &hard) == 2) {
            struct rlimit rl = {(rlim_t)soft, (rlim_t)hard};
            if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
                _exit(126);
        }
        /* A test that reads the server's own messages names a file for its stderr (AP_TEST_STDERR_FILE). */
        const char *errf = getenv("AP_TEST_STDERR_FILE");
        if (errf && *errf) {
            FILE *e = freopen(errf, "w", stderr);
            (void)e;
        } else if (getenv("AP_TEST_STDERR_CLOSED")) {
            close(2); /* started with `2>&-` */
        } else if (getenv("AP_TEST_STDERR_UNREAD")) {
            /* stderr a pipe nobody reads, of one page (F_SETPIPE_SZ), so a few seconds of messages fill it */
            int p[2];
            if (pipe(p) != 0 || fcntl(p[1], F_SETPIPE_SZ, 4096) < 0 || dup2(p[1], 2) < 0)
                _exit(126);
            close(p[1]);
        }
        /* Keep test output readable: the access log goes nowhere unless asked for. */
        if (log_path) {
            FILE *log = freopen(log_path, "w", stdout);
            (void)log;
        } else if (getenv("AP_TEST_STDOUT_UNREAD")) {
            /* a pipe nobody reads: its read end stays open in the server, unread, so writes to it fill it */
            int p[2];
            if (pipe(p) != 0 || dup2(p[1], 1) < 0)
                _exit(126);
            close(p[1]);
        } else if (!getenv("ARCPATH_TEST_SERVER_LOG")) {
            FILE *devnull = freopen("/dev/null", "w", stdout);
            (void)devnull;
        }
        execv(bin, (char *const *)argv);
        fprintf(stderr, "exec %s: %s\n", bin, strerror(errno));
        _exit(127);
    }
    /* A test of a signal sent while the server starts (AP_TEST_EARLY_SIGNAL=SIGNO, read here): as soon as the
     * server blocks it (main's first step, /proc/PID/status SigBlk), while the maps load. A fixed 50 ms once
     * came before the process reached main under ThreadSanitizer, and again under AddressSanitizer beside
     * helpers (load 5), and SIGHUP's default action ended it. The server blocks SIGTERM, SIGINT and SIGHUP
     * alone; a mask that holds SIGUSR2 too is a runtime's own, before main (ThreadSanitizer blocks every
     * signal while it starts a thread: a check-tsan run sent SIGHUP then, and the server died of it). */
    for (int i = 0; env && env[i]; i++)
        if (strncmp(env[i], "AP_TEST_EARLY_SIGNAL=", 21) == 0) {
            const int signo = atoi(env[i] + 21);
            char path[64], line[256];
            snprintf(path, sizeof path, "/proc/%d/status", (int)s->pid);
            bool blocked = false;
            for (int k = 0; k < 30000 && !blocked; k++) { /* at most 30 s, every millisecond */
                FILE *f = fopen(path, "r");
                while (f != NULL && !blocked && fgets(line, sizeof line, f) != NULL)
                    if (strncmp(line, "SigBlk:", 7) == 0) {
                        const unsigned long long mask = strtoull(line + 7, NULL, 16);
                        blocked = (mask >> (signo - 1) & 1u) != 0 && (mask >> (SIGUSR2 - 1) & 1u) == 0;
                    }
                if (f != NULL)
                    fclose(f);
                if (!blocked)
                    sleep_ms(1);
            }
            kill(s->pid, signo);
        }
    return 0;
}

static int request(const ap_srv *s, const char *method, const char *path, const char *body, size_t len,
                   const char *const *headers, const char *encodings, ap_resp *r);

/* Until s answers /healthz 200; -1 (and the server stopped, when it is this process's child) if it exits or
 * does not answer in time. */
static int wait_ready(ap_srv *s)
{
    /* Polled every 10 ms (at most 60 s, or ARCPATH_TEST_START_S seconds: check-tsan's server loads the 22
     * Moving AI maps in 40 s or more): a server is up in tens of ms on the demo maps, and a run starts ~50
     * servers, so a coarser poll adds seconds of sleep. */
    const char *limit = getenv("ARCPATH_TEST_START_S");
    const int polls = limit != NULL && atoi(limit) > 0 ? 100 * atoi(limit) : 6000;
    for (int i = 0; i < polls; i++) {
        ap_resp r;
        if (request(s, "GET", "/healthz", NULL, 0, NULL, NULL, &r) == 0 && r.status == 200) {
            ap_resp_free(&r);
            return 0;
        }
        ap_resp_free(&r);
        int st;
        if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
            fprintf(stderr, "arcpathd exited during start-up\n");
            s->pid = 0;
            return -1;
        }
        sleep_ms(10);
    }
    ap_srv_stop(s);
    return -1;
}

int ap_run_cli(const char *const *args, int with_stdout, char *out, size_t cap)
{
    int pfd[2];
    if (pipe(pfd) != 0)
        return -1;
    const char *bin = getenv("ARCPATHD");
    if (!bin || !*bin)
        bin = "build/arcpathd";
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        const char *argv[16] = {bin};
        int n = 1;
        for (int i = 0; args[i] && n < 15; i++)
            argv[n++] = args[i];
        argv[n] = NULL;
        dup2(pfd[1], 2);
        if (with_stdout) {
            dup2(pfd[1], 1);
        } else {
            int devnull = open("/dev/null", O_WRONLY);
            dup2(devnull, 1);
        }
        close(pfd[0]);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(pfd[1]);
    size_t len = 0;
    ssize_t k;
    while (len < cap - 1 && (k = read(pfd[0], out + len, cap - 1 - len)) > 0)
        len += (size_t)k;
    out[len] = 0;
    /* Drain what did not fit so the child never blocks on a full pipe. */
    char sink[4096];
    while (read(pfd[0], sink, sizeof sink) > 0)
        ;
    close(pfd[0]);
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int ap_srv_stop(ap_srv *s)
{
    if (s->pid <= 0)
        return -1;
    if (s->deferred && atomic_load(&deferred_ready_in) != (int)getpid()) {
        /* never asked (no suite that uses it ran): a SIGTERM before arcpathd sets its signal mask, in its
         * first milliseconds, would kill it, and the clean stop is itself a test */
        ap_srv probe = *s;
        (void)wait_ready(&probe);
    }
    kill(s->pid, SIGTERM);
    return ap_srv_wait(s);
}

int ap_srv_wait(ap_srv *s)
{
    if (s->pid <= 0)
        return -1;
    int st = 0;
    for (int i = 0; i < 3000; i++) { /* every 10 ms, at most 30 s */
        pid_t p = waitpid(s->pid, &st, WNOHANG);
        if (p == s->pid) {
            s->pid = 0;
            return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        }
        sleep_ms(10);
    }
    kill(s->pid, SIGKILL);
    waitpid(s->pid, &st, 0);
    s->pid = 0;
    return -1;
}

typedef struct buf {
    char *p;
    size_t n;
} buf;

static size_t on_body(char *data, size_t sz, size_t nm, void *ud)
{
    buf *b = ud;
    size_t add = sz * nm;
    char *p = realloc(b->p, b->n + add + 1);
    if (!p)
        return 0;
    memcpy(p + b->n, data, add);
    b->p = p;
    b->n += add;
    b->p[b->n] = 0;
    return add;
}

static void header_value(const char *line, size_t len, const char *name, char *out, size_t cap)
{
    size_t nl = strlen(name);
    if (len <= nl + 1 || strncasecmp(line, name, nl) != 0 || line[nl] != ':')
        return;
    const char *v = line + nl + 1;
    const char *end = line + len;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' '))
        end--;
    size_t n = (size_t)(end - v) < cap - 1 ? (size_t)(end - v) : cap - 1;
    memcpy(out, v, n);
    out[n] = 0;
}

static size_t on_header(char *data, size_t sz, size_t nm, void *ud)
{
    ap_resp *r = ud;
    size_t len = sz * nm;
    header_value(data, len, "X-Request-ID", r->request_id, sizeof r->request_id);
    header_value(data, len, "Retry-After", r->retry_after, sizeof r->retry_after);
    header_value(data, len, "Allow", r->allow, sizeof r->allow);
    header_value(data, len, "Content-Type", r->content_type, sizeof r->content_type);
    header_value(data, len, "WWW-Authenticate", r->www_authenticate, sizeof r->www_authenticate);
    size_t have = strlen(r->headers);
    if (have + len < sizeof r->headers) {
        memcpy(r->headers + have, data, len);
        r->headers[have + len] = 0;
    }
    return len;
}

const char *ap_resp_header(const ap_resp *r, const char *name, char *out, size_t cap)
{
    out[0] = 0;
    for (const char *p = r->headers; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p + 1) : strlen(p);
        size_t nl = strlen(name);
        if (len > nl && strncasecmp(p, name, nl) == 0 && p[nl] == ':') {
            header_value(p, len, name, out, cap);
            return out;
        }
        p += len;
    }
    return NULL;
}

int ap_http(const ap_srv *s, const char *method, const char *path, const char *body, size_t len,
            const char *const *headers, ap_resp *r)
{
    return ap_http_decoded(s, method, path, body, len, headers, NULL, r);
}

int ap_http_decoded(const ap_srv *s, const char *method, const char *path, const char *body, size_t len,
                    const char *const *headers, const char *encodings, ap_resp *r)
{
    if (s->deferred && atomic_load(&deferred_ready_in) != (int)getpid()) {
        ap_srv probe = *s; /* polled as a copy: s is the caller's, read-only here */
        if (wait_ready(&probe) != 0) {
            memset(r, 0, sizeof *r);
            fprintf(stderr, "arcpathd at %s did not become ready\n", s->base);
            return -1;
        }
        atomic_store(&deferred_ready_in, (int)getpid());
    }
    return request(s, method, path, body, len, headers, encodings, r);
}

static int request(const ap_srv *s, const char *method, const char *path, const char *body, size_t len,
                   const char *const *headers, const char *encodings, ap_resp *r)
{
    memset(r, 0, sizeof *r);
    CURL *c = curl_easy_init();
    if (!c)
        return -1;
    char url[4096];
    if ((size_t)snprintf(url, sizeof url, "%s%s", s->base, path) >= sizeof url) {
        curl_easy_cleanup(c); /* a cut URL would ask for another path than the test means */
        return -1;
    }
    buf b = {0};
    struct curl_slist *hl = NULL;
    for (int i = 0; headers && headers[i]; i++)
        hl = curl_slist_append(hl, headers[i]);
    if (body) {
        hl = curl_slist_append(hl, "Content-Type: application/json");
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
    }
    /* No "Expect: 100-continue" round trip: the server must cope with whole bodies. */
    hl = curl_slist_append(hl, "Expect:");
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    if (strcmp(method, "HEAD") == 0)
        curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
    if (encodings)
        curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, encodings);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, r);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, 60L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    CURLcode rc = curl_easy_perform(c);
    if (rc == CURLE_OK) {
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
        curl_easy_getinfo(c, CURLINFO_TOTAL_TIME, &r->total_s);
    }
    curl_slist_free_all(hl);
    curl_easy_cleanup(c);
    r->body = b.p ? b.p : calloc(1, 1);
    r->len = b.n;
    return rc == CURLE_OK ? 0 : -1;
}

int ap_post(const ap_srv *s, const char *path, const char *json, ap_resp *r)
{
    return ap_http(s, "POST", path, json, strlen(json), NULL, r);
}

json_t *ap_resp_json(const ap_resp *r)
{
    json_error_t e;
    return r->body ? json_loadb(r->body, r->len, 0, &e) : NULL;
}

void ap_resp_free(ap_resp *r)
{
    free(r->body);
    r->body = NULL;
}

double ap_metric(const char *text, const char *name, const char *labels)
{
    char key[256];
    if (labels && *labels)
        snprintf(key, sizeof key, "%s{%s} ", name, labels);
    else
        snprintf(key, sizeof key, "%s ", name);
    size_t kl = strlen(key);
    for (const char *p = text; p && *p;) {
        if (strncmp(p, key, kl) == 0)
            return strtod(p + kl, NULL);
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return -1;
}

void ap_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fputs(text, f) >= 0, 1);
    ck_assert_int_eq(fclose(f), 0);
}

json_t *ap_post_want(const ap_srv *s, const char *path, const char *body, long want)
{
    ap_resp r;
    ck_assert_int_eq(ap_post(s, path, body, &r), 0);
    ck_assert_msg(r.status == want, "status %ld, want %ld: %s (%s)", r.status, want, r.body, body);
    json_t *j = ap_resp_json(&r);
    ap_resp_free(&r);
    ck_assert_msg(j != NULL, "not JSON (%s)", body);
    return j;
}

double ap_jnum(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    ck_assert_msg(json_is_number(v), "%s is not a number", key);
    return json_number_value(v);
}

int ap_srv_start_dir(ap_srv *s, ap_srv_dir *d, const char *tag, const char *map_id, const char *map_text,
                     const char *conf_text)
{
    snprintf(d->dir, sizeof d->dir, "/tmp/arcpath-%.20s-XXXXXX", tag);
    ck_assert_ptr_nonnull(mkdtemp(d->dir));
    snprintf(d->map, sizeof d->map, "%s/%.40s.map", d->dir, map_id);
    snprintf(d->conf, sizeof d->conf, "%s/arcpath.conf", d->dir);
    ap_write_file(d->map, map_text);
    ap_write_file(d->conf, conf_text);
    const char *args[] = {"--config", d->conf, NULL};
    return ap_srv_start(s, d->dir, args, NULL);
}

int ap_srv_stop_dir(ap_srv *s, ap_srv_dir *d)
{
    int st = ap_srv_stop(s);
    unlink(d->map);
    unlink(d->conf);
    rmdir(d->dir);
    return st;
}

int ap_raw_connect(int port, const char *src)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    if (src) {
        struct sockaddr_in from = {.sin_family = AF_INET, .sin_port = 0};
        if (inet_pton(AF_INET, src, &from.sin_addr) != 1 || bind(fd, (struct sockaddr *)&from, sizeof from) != 0) {
            close(fd);
            return -1;
        }
    }
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int ap_send_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t k = send(fd, s, n, MSG_NOSIGNAL);
        if (k <= 0)
            return -1;
        s += k;
        n -= (size_t)k;
    }
    return 0;
}

double ap_metric_now(const ap_srv *s, const char *name, const char *labels)
{
    ap_resp r;
    ck_assert_int_eq(ap_http(s, "GET", "/metrics", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    const double v = ap_metric(r.body, name, labels);
    ap_resp_free(&r);
    return v;
}
