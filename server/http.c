/* http.c — libmicrohttpd handlers. Every handler and the completion callback run on MHD's one polling
 * thread; only ap_http_on_job_done runs on the loop thread. */
#include "http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../planner/search.h"
#include "../planner/status.h"
#include "../proto/errors.h"
#include "../proto/wire.h"

#define REQUEST_ID_MAX 128
#define CONNECTION_TIMEOUT_S 30u

/* Where a request stands with respect to the lanes. Atomic because the loop thread (done hook) and the MHD
 * thread (completion callback) can both be the last to touch a request if MHD ever drops a suspended
 * connection; whoever comes second frees it. */
enum { LANES_NONE = 0, LANES_IN, LANES_DONE, LANES_ORPHAN };

typedef struct ap_req {
    ap_http *h;
    struct MHD_Connection *conn;
    uint64_t t0_ns;
    struct timespec wall0;
    ap_route route;
    char method[16];
    char path[256];
    char id[REQUEST_ID_MAX + 1];
    char map[AP_MAP_ID_MAX];

    char *body;
    size_t body_len, body_cap;
    size_t bytes_in;
    bool too_large;
    int early;         /* AP_E_NOT_FOUND / AP_E_METHOD_NOT_ALLOWED decided on the first call, else 0 */

    bool responded;    /* a response was queued */
    int status;        /* HTTP status sent */
    const char *result;/* "ok", "no_path", "timeout", or an error code (static strings) */
    const char *lane;  /* NULL unless the request went through the lanes */

    atomic_int lanes_state;
    /* the stored answer of a path job, handed over by the done hook (loop thread) before resume */
    char *stored;
    size_t stored_len;
    int stored_http;
    int stored_status;

    ap_job job;
} ap_req;

/* ---- helpers ------------------------------------------------------------------------------------------ */

static uint64_t mix64(uint64_t x)
{
    /* splitmix64 finaliser: consecutive counters give unrelated-looking ids. */
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

bool ap_http_valid_request_id(const char *id)
{
    if (!id)
        return false;
    size_t n = 0;
    for (; id[n]; n++) {
        unsigned char c = (unsigned char)id[n];
        if (c < 0x21 || c > 0x7e || n >= REQUEST_ID_MAX)
            return false;
    }
    return n >= 1;
}

static void copy_printable(char *dst, size_t cap, const char *src)
{
    /* Log fields must be valid UTF-8 for jansson; a URL or method with odd bytes is shown with '?'. */
    size_t i = 0;
    for (; src && src[i] && i + 1 < cap; i++) {
        unsigned char c = (unsigned char)src[i];
        dst[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    dst[i] = '\0';
}

static ap_route route_of(const char *url)
{
    if (strcmp(url, "/v1/path") == 0)
        return AP_ROUTE_PATH;
    if (strcmp(url, "/v1/maps") == 0)
        return AP_ROUTE_MAPS;
    if (strncmp(url, "/v1/maps/", 9) == 0 && url[9] && !strchr(url + 9, '/'))
        return AP_ROUTE_MAP;
    if (strcmp(url, "/healthz") == 0)
        return AP_ROUTE_HEALTHZ;
    if (strcmp(url, "/readyz") == 0)
        return AP_ROUTE_READYZ;
    if (strcmp(url, "/metrics") == 0)
        return AP_ROUTE_METRICS;
    return AP_ROUTE_OTHER;
}

static bool is_ready(ap_http *h)
{
    return h->reg->n > 0 && !atomic_load(&h->draining);
}

/* Queue a response; body is malloc'd and handed to MHD (NULL gives a fixed fallback body). */
static enum MHD_Result respond(ap_req *r, int http, char *body, size_t len, const char *ctype, const char *result)
{
    static const char fallback[] = "{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}";
    struct MHD_Response *resp;
    if (body) {
        resp = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    } else {
        http = 500;
        result = "internal";
        ctype = "application/json";
        resp = MHD_create_response_from_buffer(sizeof fallback - 1, (void *)fallback, MHD_RESPMEM_PERSISTENT);
    }
    if (!resp) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
    MHD_add_response_header(resp, "X-Request-ID", r->id);
    if (http == 503 && result && strcmp(result, "overloaded") == 0)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, "1");
    if (http == 405)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, r->route == AP_ROUTE_PATH ? "POST" : "GET, HEAD");
    if (atomic_load(&r->h->draining))
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
    enum MHD_Result ret = MHD_queue_response(r->conn, (unsigned)http, resp);
    MHD_destroy_response(resp);
    r->responded = true;
    r->status = http;
    r->result = result;
    return ret;
}

static enum MHD_Result respond_error(ap_req *r, int status, const char *msg, const char *field, int line, int col)
{
    int http = 500;
    size_t len = 0;
    char *body = ap_wire_encode_error(status, msg, field, line, col, &http, &len);
    return respond(r, http, body, len, "application/json", ap_error_lookup(status)->code);
}

static enum MHD_Result respond_json(ap_req *r, int http, json_t *obj)
{
    char *body = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
    json_decref(obj);
    return respond(r, http, body, body ? strlen(body) : 0, "application/json", "ok");
}

/* ---- routes ------------------------------------------------------------------------------------------- */

static enum MHD_Result handle_get(ap_req *r, const char *url)
{
    ap_http *h = r->h;
    size_t len = 0;
    char *body;
    switch (r->route) {
    case AP_ROUTE_HEALTHZ:
        return respond_json(r, 200, json_pack("{s:s}", "status", "ok"));
    case AP_ROUTE_READYZ:
        if (is_ready(h))
            return respond_json(r, 200, json_pack("{s:s, s:I}", "status", "ready", "maps", (json_int_t)h->reg->n));
        return respond_error(r, AP_E_NOT_READY, atomic_load(&h->draining) ? "server is shutting down" : "no maps loaded",
                             NULL, 0, 0);
    case AP_ROUTE_METRICS:
        body = ap_metrics_render(h->metrics, &len);
        return respond(r, 200, body, len, "text/plain; version=0.0.4; charset=utf-8", "ok");
    case AP_ROUTE_MAPS:
        body = ap_wire_encode_maps((const ap_map *const *)h->reg->maps, h->reg->n, &len);
        return respond(r, 200, body, len, "application/json", "ok");
    case AP_ROUTE_MAP: {
        const char *id = url + strlen("/v1/maps/");
        copy_printable(r->map, sizeof r->map, id);
        const ap_map *m = ap_registry_find(h->reg, id);
        if (!m)
            return respond_error(r, AP_E_UNKNOWN_MAP, NULL, NULL, 0, 0);
        body = ap_wire_encode_map(m, &len);
        return respond(r, 200, body, len, "application/json", "ok");
    }
    default:
        return respond_error(r, AP_E_NOT_FOUND, NULL, NULL, 0, 0);
    }
}

/* The whole body is in: validate on this thread (bad input never reaches the loop), then suspend and hand
 * the job over. */
static enum MHD_Result handle_path(ap_req *r)
{
    ap_http *h = r->h;
    if (r->too_large)
        return respond_error(r, AP_E_PAYLOAD_TOO_LARGE, NULL, NULL, 0, 0);

    ap_path_request pr;
    ap_wire_error we;
    memset(&pr, 0, sizeof pr);
    memset(&we, 0, sizeof we);
    int st = ap_wire_parse_path_request(r->body ? r->body : "", r->body_len, &pr, &we);
    if (st != AP_OK)
        return respond_error(r, st, we.message[0] ? we.message : NULL, we.field, we.line, we.col);
    copy_printable(r->map, sizeof r->map, pr.map);

    const ap_map *m = ap_registry_find(h->reg, pr.map);
    if (!m)
        return respond_error(r, AP_E_UNKNOWN_MAP, NULL, "map", 0, 0);
    pr.q.map = m;
    pr.q.max_samples = h->cfg->max_samples;
    const char *field = NULL;
    st = ap_query_check(&pr.q, &field);
    if (st != AP_OK)
        return respond_error(r, st, NULL, field, 0, 0);

    int64_t ms = pr.deadline_ms < 0 ? h->cfg->default_deadline_ms : pr.deadline_ms;
    if (ms > h->cfg->max_deadline_ms)
        ms = h->cfg->max_deadline_ms;
    if (atomic_load(&h->draining))
        return respond_error(r, AP_E_NOT_READY, "server is shutting down", NULL, 0, 0);

    ap_job_init(&r->job);
    r->job.q = pr.q;
    /* The deadline counts from the request's arrival, so time spent reading the body and queueing is
     * charged to it, as the client sees it. */
    r->job.deadline_ns = r->t0_ns + (uint64_t)ms * 1000000ULL;
    r->job.user = r;

    /* Suspend before the hand-off: once the job is in the inbox the loop may finish it and resume at once,
     * and resuming a connection that is not yet suspended would be lost. */
    MHD_suspend_connection(r->conn);
    atomic_store(&r->lanes_state, LANES_IN);
    if (ap_lanes_submit(h->lanes, &r->job) != AP_OK) {
        /* Drain began between the check above and the submit: answer from this thread. */
        atomic_store(&r->lanes_state, LANES_DONE);
        int http = 503;
        r->stored = ap_wire_encode_error(AP_E_NOT_READY, "server is shutting down", NULL, 0, 0, &http, &r->stored_len);
        r->stored_http = http;
        r->stored_status = AP_E_NOT_READY;
        MHD_resume_connection(r->conn);
    }
    return MHD_YES;
}

static const char *status_result(int status)
{
    if (status == AP_OK)
        return "ok";
    if (status == AP_NO_PATH)
        return "no_path";
    if (status == AP_TIMEOUT)
        return "timeout";
    return ap_error_lookup(status)->code;
}

static enum MHD_Result respond_stored(ap_req *r)
{
    char *body = r->stored;
    r->stored = NULL;
    return respond(r, r->stored_http, body, r->stored_len, "application/json", status_result(r->stored_status));
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    ap_http *h = cls;
    ap_req *r = *con_cls;
    (void)version;

    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r)
            return MHD_NO;
        *con_cls = r;
        r->h = h;
        r->conn = conn;
        r->t0_ns = ap_clock_ns();
        clock_gettime(CLOCK_REALTIME, &r->wall0);
        r->route = route_of(url);
        copy_printable(r->method, sizeof r->method, method);
        copy_printable(r->path, sizeof r->path, url);
        atomic_init(&r->lanes_state, LANES_NONE);
        atomic_fetch_add(&h->inflight, 1);
        ap_metrics_inflight_add(h->metrics, 1);

        const char *cid = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Request-ID");
        if (ap_http_valid_request_id(cid))
            snprintf(r->id, sizeof r->id, "%s", cid);
        else
            snprintf(r->id, sizeof r->id, "%016llx",
                     (unsigned long long)mix64(h->id_seed ^ atomic_fetch_add(&h->id_counter, 1)));

        bool is_get = strcmp(method, MHD_HTTP_METHOD_GET) == 0 || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
        bool is_post = strcmp(method, MHD_HTTP_METHOD_POST) == 0;
        if (r->route == AP_ROUTE_OTHER)
            r->early = AP_E_NOT_FOUND;
        else if (r->route == AP_ROUTE_PATH ? !is_post : !is_get)
            r->early = AP_E_METHOD_NOT_ALLOWED;

        const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        const char *te = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
        bool has_body = te != NULL || (cl && strcmp(cl, "0") != 0);
        if (cl && r->route == AP_ROUTE_PATH && !r->early) {
            errno = 0;
            unsigned long long n = strtoull(cl, NULL, 10);
            /* Refuse before reading a byte (and before "100 Continue"): the client learns at once. */
            if (errno == ERANGE || n > h->cfg->max_body_bytes)
                return respond_error(r, AP_E_PAYLOAD_TOO_LARGE, NULL, NULL, 0, 0);
        }
        /* A response queued on this first call makes MHD close the connection after it (it will not read
         * the body), so only refusals of requests that carry a body go out now; everything else is answered
         * on the final call and keeps the connection alive. */
        if (r->early && has_body)
            return respond_error(r, r->early, NULL, NULL, 0, 0);
        return MHD_YES;
    }

    if (r->responded) {
        /* A response is already queued (early 404/405/413): drop any body still arriving. */
        r->bytes_in += *upload_data_size;
        *upload_data_size = 0;
        return MHD_YES;
    }

    if (*upload_data_size) {
        size_t n = *upload_data_size;
        size_t max = h->cfg->max_body_bytes;
        r->bytes_in += n;
        *upload_data_size = 0;
        if (r->too_large || r->early || r->route != AP_ROUTE_PATH)
            return MHD_YES; /* only /v1/path has a body we use; others are read and dropped */
        if (n > max || r->body_len > max - n) {
            /* A chunked body (no Content-Length) went over: keep reading and discarding, so the 413 can be
             * sent as a proper answer at the end rather than by resetting the connection. */
            r->too_large = true;
            free(r->body);
            r->body = NULL;
            r->body_len = r->body_cap = 0;
            return MHD_YES;
        }
        if (r->body_len + n > r->body_cap) {
            size_t cap = r->body_cap ? r->body_cap : 1024;
            while (cap < r->body_len + n)
                cap *= 2;
            if (cap > max)
                cap = max;
            char *nb = realloc(r->body, cap);
            if (!nb)
                return MHD_NO;
            r->body = nb;
            r->body_cap = cap;
        }
        memcpy(r->body + r->body_len, upload_data, n);
        r->body_len += n;
        return MHD_YES;
    }

    if (atomic_load(&r->lanes_state) == LANES_DONE)
        return respond_stored(r); /* called again after MHD_resume_connection */
    if (r->early)
        return respond_error(r, r->early, NULL, NULL, 0, 0);
    if (r->route != AP_ROUTE_PATH)
        return handle_get(r, url);
    return handle_path(r);
}

/* ---- completion (MHD thread) -------------------------------------------------------------------------- */

static void access_log(ap_req *r, uint64_t dur_ns)
{
    ap_http *h = r->h;
    struct tm tm;
    gmtime_r(&r->wall0.tv_sec, &tm);
    char ts[96];
    snprintf(ts, sizeof ts, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
             tm.tm_hour, tm.tm_min, tm.tm_sec, (long)(r->wall0.tv_nsec / 1000000L) % 1000);
    json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:i, s:I, s:I}", "ts", ts, "id", r->id, "method", r->method, "path",
                          r->path, "status", r->status, "duration_us", (json_int_t)(dur_ns / 1000), "bytes_in",
                          (json_int_t)r->bytes_in);
    if (!o)
        return;
    if (r->lane)
        json_object_set_new(o, "lane", json_string(r->lane));
    if (r->map[0])
        json_object_set_new(o, "map", json_string(r->map));
    json_object_set_new(o, "result", json_string(r->result ? r->result : (r->responded ? "ok" : "aborted")));
    char *line = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (line) {
        fprintf(h->log, "%s\n", line);
        fflush(h->log);
        free(line);
    }
}

static void req_free(ap_req *r)
{
    free(r->body);
    free(r->stored);
    free(r->job.body);
    free(r);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode toe)
{
    ap_http *h = cls;
    ap_req *r = *con_cls;
    (void)conn;
    (void)toe;
    if (!r)
        return;
    *con_cls = NULL;
    uint64_t dur = ap_clock_ns() - r->t0_ns;
    if (r->responded)
        ap_metrics_observe_request(h->metrics, r->route, r->status, dur);
    if (h->log)
        access_log(r, dur);
    atomic_fetch_sub(&h->inflight, 1);
    ap_metrics_inflight_add(h->metrics, -1);
    /* Normally the job is long done (the answer was sent). If MHD dropped the connection while the job was
     * still in the lanes, the done hook frees the request instead. */
    if (atomic_exchange(&r->lanes_state, LANES_ORPHAN) == LANES_IN)
        return;
    req_free(r);
}

/* ---- public ------------------------------------------------------------------------------------------- */

void ap_http_on_job_done(ap_job *job, void *arg)
{
    (void)arg;
    ap_req *r = job->user;
    r->stored = job->body;
    r->stored_len = job->body_len;
    job->body = NULL;
    r->stored_http = job->http_status;
    r->stored_status = job->status;
    r->lane = ap_metrics_lane_name(job->lane);
    int prev = atomic_exchange(&r->lanes_state, LANES_DONE);
    if (prev == LANES_ORPHAN) {
        req_free(r);
        return;
    }
    /* MHD_resume_connection is documented safe from any thread; MHD then calls on_request again with the
     * same con_cls, which queues r->stored. */
    MHD_resume_connection(r->conn);
}

int ap_http_start(ap_http *h, const ap_config *cfg, const ap_registry *reg, ap_lanes *lanes, ap_metrics *metrics,
                  FILE *log, char *err, size_t errlen)
{
    memset(h, 0, sizeof *h);
    h->cfg = cfg;
    h->reg = reg;
    h->lanes = lanes;
    h->metrics = metrics;
    h->log = log;
    h->quiesced_fd = -1;
    atomic_init(&h->draining, false);
    atomic_init(&h->id_counter, 0);
    atomic_init(&h->inflight, 0);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    h->id_seed = mix64((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec) ^ (uint64_t)getpid();

    /* The config holds an IPv4 literal, "localhost", or an IPv6 literal (a ':' in it). */
    struct sockaddr_in sa;
    struct sockaddr_in6 sa6;
    bool v6 = strchr(cfg->listen_host, ':') != NULL;
    memset(&sa, 0, sizeof sa);
    memset(&sa6, 0, sizeof sa6);
    sa.sin_family = AF_INET;
    sa.sin_port = htons(cfg->listen_port);
    sa6.sin6_family = AF_INET6;
    sa6.sin6_port = htons(cfg->listen_port);
    const char *host = strcmp(cfg->listen_host, "localhost") == 0 ? "127.0.0.1" : cfg->listen_host;
    if (v6 ? inet_pton(AF_INET6, host, &sa6.sin6_addr) != 1 : inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
        snprintf(err, errlen, "listen address \"%s\" is not an IP address", cfg->listen_host);
        return AP_E_CONFIG;
    }

    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
    /* epoll scales with idle keep-alive connections; poll is the portable fallback (never select, which
     * cannot watch descriptors above FD_SETSIZE). */
    flags |= MHD_is_feature_supported(MHD_FEATURE_EPOLL) == MHD_YES ? MHD_USE_EPOLL : MHD_USE_POLL;
    if (v6)
        flags |= MHD_USE_IPv6;
    h->daemon = MHD_start_daemon(flags, cfg->listen_port, NULL, NULL, on_request, h,
                                 MHD_OPTION_SOCK_ADDR, v6 ? (struct sockaddr *)&sa6 : (struct sockaddr *)&sa,
                                 MHD_OPTION_CONNECTION_TIMEOUT, CONNECTION_TIMEOUT_S,
                                 MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
                                 MHD_OPTION_END);
    if (!h->daemon) {
        snprintf(err, errlen, "cannot listen on %s%s%s:%u (address in use or not permitted?)", v6 ? "[" : "",
                 cfg->listen_host, v6 ? "]" : "", (unsigned)cfg->listen_port);
        return AP_E_IO;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(h->daemon, MHD_DAEMON_INFO_BIND_PORT);
    h->port = info ? info->port : cfg->listen_port;
    return AP_OK;
}

void ap_http_begin_drain(ap_http *h)
{
    if (atomic_exchange(&h->draining, true))
        return;
    if (h->daemon) {
        MHD_socket fd = MHD_quiesce_daemon(h->daemon);
        h->quiesced_fd = fd == MHD_INVALID_SOCKET ? -1 : (int)fd;
    }
}

int64_t ap_http_inflight(ap_http *h)
{
    return (int64_t)atomic_load(&h->inflight);
}

void ap_http_stop(ap_http *h)
{
    if (h->daemon) {
        MHD_stop_daemon(h->daemon);
        h->daemon = NULL;
    }
    /* MHD leaves a quiesced socket to us, and it may only be closed after MHD_stop_daemon. */
    if (h->quiesced_fd >= 0) {
        close(h->quiesced_fd);
        h->quiesced_fd = -1;
    }
}
