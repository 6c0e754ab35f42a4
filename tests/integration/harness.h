/* harness.h — integration-test harness: start a real arcpathd on a loopback port and talk HTTP to it
 * with libcurl. Every request goes to 127.0.0.1 only; every loop in the tests is bounded. */
#ifndef AP_TEST_HARNESS_H
#define AP_TEST_HARNESS_H

#include <jansson.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct ap_srv {
    pid_t pid;
    int port;
    char base[64]; /* "http://127.0.0.1:PORT" */
    int deferred;  /* started by ap_srv_spawn: requests first wait until it answers */
} ap_srv;

/* Start $ARCPATHD (default build/arcpathd) with `--listen 127.0.0.1:<free port> --maps maps_dir` plus
 * extra arguments (NULL-terminated list, may be NULL) and extra environment "K=V" strings (NULL-terminated,
 * may be NULL); wait until /healthz answers (at most 60 s). Returns 0 or -1. Some variables of env are the
 * harness's, read in the child before exec: AP_TEST_STDERR_FILE=PATH (the server's stderr to that file),
 * AP_TEST_NOFILE=SOFT:HARD (its RLIMIT_NOFILE) and AP_TEST_STDOUT_UNREAD=1 (its stdout a pipe that nobody
 * reads, the read end held open by the server itself); AP_TEST_EARLY_SIGNAL=SIGNO, read here: that signal
 * 50 ms after the start, while the maps load; and AP_TEST_LISTEN_V6=1, read here: listen on the
 * IPv6 loopback, `--listen [::1]:<free port>` (-1 at once when the machine has none). */
int ap_srv_start(ap_srv *s, const char *maps_dir, const char *const *args, const char *const *env);

/* ap_srv_start with the server's stdout (the access log) written to the file log_path (created or
 * truncated; NULL = as ap_srv_start). The server flushes the log every 50 ms and at exit. */
int ap_srv_start_logged(ap_srv *s, const char *maps_dir, const char *const *args, const char *const *env,
                        const char *log_path);

/* ap_srv_start without the wait: the server loads its maps while the caller goes on, and the first request to it
 * in each process (ap_http and the functions built on it) waits until /healthz answers (at most 60 s, as
 * ap_srv_start; the request fails after that). For the shared Moving AI server (main.c), whose 22 maps take
 * 5 s to load, 13 s under the sanitizers: the suites on the demo maps run meanwhile. Returns 0 or -1 (no
 * port, no fork). One such server per test program (the readiness is remembered per process). */
int ap_srv_spawn(ap_srv *s, const char *maps_dir, const char *const *args, const char *const *env);

/* SIGTERM (a server from ap_srv_spawn not yet asked in this process: once it answers), wait for exit (at
 * most 30 s, then SIGKILL). Returns the exit status (WEXITSTATUS), or -1 when it did not exit normally. */
int ap_srv_stop(ap_srv *s);

/* Wait for a server already told to stop to exit, without signalling it (a SIGTERM that lands after the
 * server closed its signal handles would kill it); SIGKILL after 30 s. Returns as ap_srv_stop. */
int ap_srv_wait(ap_srv *s);

/* A temporary maps folder holding one map and a config file (tests that need their own map and config). */
typedef struct ap_srv_dir {
    char dir[64];   /* /tmp/arcpath-<tag>-XXXXXX */
    char map[128];  /* dir/<map id>.map */
    char conf[128]; /* dir/arcpath.conf */
} ap_srv_dir;

/* Create d's folder (tag names it), write map_text to <map_id>.map and conf_text to arcpath.conf in it
 * (ck_assert on failure), then ap_srv_start s on the folder with --config. Returns ap_srv_start's result. */
int ap_srv_start_dir(ap_srv *s, ap_srv_dir *d, const char *tag, const char *map_id, const char *map_text,
                     const char *conf_text);

/* ap_srv_stop s, then remove d's files and folder. Returns ap_srv_stop's result. */
int ap_srv_stop_dir(ap_srv *s, ap_srv_dir *d);

typedef struct ap_resp {
    long status;        /* HTTP status, 0 on transport failure */
    char *body;         /* malloc'd, NUL-terminated */
    size_t len;
    char request_id[160]; /* X-Request-ID response header ("" if none) */
    char retry_after[16];
    char allow[64];
    char content_type[96];
    char www_authenticate[96];
    char headers[4096]; /* every response header line as received ("Name: value\r\n"...), cut to fit */
    double total_s;     /* wall time of the exchange */
} ap_resp;

/* The value of response header name (case-insensitive; the first line of that name, blanks around the
 * value trimmed) copied into out (cap bytes); returns out, or NULL when the answer had no such header. */
const char *ap_resp_header(const ap_resp *r, const char *name, char *out, size_t cap);

/* One HTTP exchange (method "GET"/"POST"/..., path "/v1/path", body may be NULL, extra header lines
 * NULL-terminated may be NULL). Fills r (free with ap_resp_free). Returns 0 or -1 on transport error. */
int ap_http(const ap_srv *s, const char *method, const char *path, const char *body, size_t len,
            const char *const *headers, ap_resp *r);

/* ap_http, letting libcurl ask for and decode compressed answers (CURLOPT_ACCEPT_ENCODING = encodings,
 * e.g. "gzip"): r->body is the decoded body, r->headers still shows Content-Encoding. */
int ap_http_decoded(const ap_srv *s, const char *method, const char *path, const char *body, size_t len,
                    const char *const *headers, const char *encodings, ap_resp *r);

/* POST a JSON string to path. */
int ap_post(const ap_srv *s, const char *path, const char *json, ap_resp *r);

/* POST body to path on s and return the answer's JSON (caller decrefs); a transport failure, a status other
 * than want or a body that is not JSON fails the running test. */
json_t *ap_post_want(const ap_srv *s, const char *path, const char *body, long want);

/* Parse r->body as JSON (NULL if it is not). Caller decrefs. */
json_t *ap_resp_json(const ap_resp *r);

void ap_resp_free(ap_resp *r);

/* Value of a Prometheus sample line `name{labels} value` in the /metrics text (labels exactly as written,
 * "" for none); -1 when absent. */
double ap_metric(const char *text, const char *name, const char *labels);

/* ap_metric of s's /metrics now (one GET over a new connection; fails the test when it is not answered 200). */
double ap_metric_now(const ap_srv *s, const char *name, const char *labels);

/* Run $ARCPATHD (default build/arcpathd) with args (NULL-terminated, at most 14) to completion, capturing
 * its stderr — and its stdout too when with_stdout — into out (NUL-terminated, cap bytes); stdout goes to
 * /dev/null otherwise. Returns the exit status, or -1 when it did not exit normally. */
int ap_run_cli(const char *const *args, int with_stdout, char *out, size_t cap);

/* A TCP connection to 127.0.0.1:port from source address src ("127.0.0.2"; NULL: any), for messages
 * libcurl will not send or connections it will not drop mid-request. The socket, or -1 on failure. */
int ap_raw_connect(int port, const char *src);

/* Send all n bytes of s on fd (no SIGPIPE). 0, or -1 when the connection failed. */
int ap_send_all(int fd, const char *s, size_t n);

/* Write text to a new file at path (replacing one there); a failure fails the running test. */
void ap_write_file(const char *path, const char *text);

/* The number member key of the JSON object o; a missing or non-number member fails the running test. */
double ap_jnum(json_t *o, const char *key);

/* The servers shared by the suites (started once by main.c): demo maps, and the Moving AI folder (NULL
 * when the data is absent). */
extern ap_srv *ap_demo_srv;
extern ap_srv *ap_mai_srv;
extern const char *ap_mai_dir;
/* A folder of symbolic links to two of the Moving AI maps (Paris_1_1024 and den520d, in ap_mai_dir), made by
 * main.c when the data is there (else NULL): for the tests that start servers of their own to load under
 * load or signals. Such a server is up in ~1.5 s instead of the ~5.5 s (plain build) the whole folder takes,
 * six times a run. Read from the data folder, never copied. */
extern const char *ap_mai_small_dir;
/* The arguments of such a server ({"--config", FILE, NULL}, FILE a config of main.c's with "skip_tables":
 * {"Paris_1_1024": ["any_angle", "hier"], "*": ["any_angle"]}, the per-map form): none of those tests asks for
 * any_angle, whose graph of Paris_1_1024 took ~45 % of their servers' start-up CPU (0.9 of 1.9 s; more under
 * the sanitizers), thirteen times a run, nor for hierarchical paths on Paris_1_1024 (they name astar there).
 * NULL without the data. */
extern const char *const *ap_mai_small_args;

/* A timed answer j's segments against a vehicle's limits (speed, acceleration, braking, lateral, turning
 * radius rmin): speeds and times chained from v0, distance = mean speed x duration on a map of 1 m tiles,
 * duration_s their sum; returns the last segment's end speed (test_kino.c). */
double ap_it_check_limits(json_t *j, double vmax, double acc, double brk, double lat, double rmin, double v0);

#endif
