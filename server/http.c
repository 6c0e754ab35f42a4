/* http.c — libmicrohttpd handlers. Every handler and the completion callback run on MHD's one polling
 * thread; only ap_http_on_job_done runs on the loop thread. */
#include "http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <jansson.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../planner/search/search.h"
#include "../planner/base/status.h"
#include "../proto/cells.h"
#include "../config/version.h"
#include "../proto/errors.h"
#include "../proto/info.h"
#include "../proto/json_in.h"
#include "../proto/wire.h"
#include "cors.h"
#include "etag.h"
#include "curve_route.h"
#include "gzip.h"
#include "profiles_route.h"
#include "render_route.h"
#include "route.h"
#include "static_route.h"
#include "tablework.h"
#include "traceparent.h"

#define REQUEST_ID_MAX 128

/* One open connection, for the request-time watchdog. Made on MHD's "started" notification (MHD's
 * socket_context) and freed on "closed", which MHD sends before it closes the descriptor — so while the
 * connection is on the list (under conns_mu) fd is still this connection's and shutdown(fd) cannot hit a
 * reused descriptor. */
typedef struct ap_conn {
    struct ap_conn *prev, *next;
    int fd;
    atomic_uint_fast64_t since_ns; /* when the current request's reading began (ap_clock_ns) */
    atomic_uint_fast64_t moved_ns; /* since_ns, or when the last piece of its body arrived: the eviction
                                    * spares an upload that is arriving, however long it has taken */
    atomic_bool reading;           /* a request's headers or body are still arriving */
    atomic_bool idle;              /* kept alive after an answer, no byte of a next request seen yet: room is
                                    * made from such a connection only when no other can give it */
    bool cut;                      /* the watchdog shut it down already (under conns_mu) */
} ap_conn;

/* Where a request stands with respect to the lanes. Atomic because the loop thread (done hook) and the MHD
 * thread (completion callback) can both be the last to touch a request if MHD ever drops a suspended
 * connection; whoever comes second frees it. */
enum { LANES_NONE = 0, LANES_IN, LANES_DONE, LANES_ORPHAN };

/* Per-request memory: one block per request, holding the request context, the job and an arena for the
 * body and the answer. Blocks are recycled through a small free list (ap_http.pool), so a request on the
 * hot path costs no malloc of its own: the body is read into the arena, the answer is written straight
 * into it, and MHD sends it from there (MHD_RESPMEM_PERSISTENT) — the block is only recycled in the
 * completion callback, after MHD is done with the response. Bodies or answers that do not fit move to the
 * heap (a batch, a long sampled path). */
#define ARENA_BODY 4096
#define ARENA_OUT 12288
/* libmicrohttpd's per-connection memory pool (request line, headers, read buffer, then the answer's header
 * lines): its default is 32 KiB, which it clears on every request on a kept-alive connection (measured:
 * README "Performance"). The head arcpath accepts is AP_MAX_HEAD_BYTES as head_bytes counts it, the rest of
 * the pool the room to answer: libmicrohttpd itself reads any head that fits the pool and only then finds no
 * room for the answer's header lines, so with a pool of 16 KiB and no limit of our own a head 120-240 bytes
 * short of the pool got no answer at all (closed, logged and counted as sent: a helper). A head over the
 * limit gets 431 header_too_large while there is room for it; one past the pool, libmicrohttpd's own 431. */
#define AP_CONN_MEMORY (24u * 1024u)
#define AP_MAX_HEAD_BYTES (16u * 1024u)
/* What libmicrohttpd (0.9.75) keeps beside a field's bytes in the pool: its list entry (six pointers and
 * sizes and the kind), rounded up. */
#define AP_HEAD_FIELD_OVERHEAD 64u
#define POOL_MAX 256 /* blocks kept for reuse; more in flight at once are simply freed */

typedef struct ap_req {
    ap_http *h;
    struct MHD_Connection *conn;
    struct ap_req *next_free;
    uint64_t t0_ns;
    struct timespec wall0;
    const ap_route *route; /* NULL: no route matches the path (404) */
    unsigned allowed;      /* methods the path's routes take (a 405's Allow) */
    bool has_id;           /* the route's pattern has an {id} segment: */
    char route_id[AP_MAP_ID_MAX + 1]; /* that segment, NUL-terminated (cut: longer ones name no map anyway) */
    size_t route_id_len;   /* the segment's length before the cut */
    unsigned method_bit;   /* the request's method (AP_METHOD_*) */
    const ap_static_file *static_file; /* the viewer file being answered: respond_mem adds its headers */
    bool options;      /* an OPTIONS request on a known route (answered 204; a CORS preflight if asked) */
    bool has_trace;    /* the request carried a valid W3C traceparent (trace): the access log shows it */
    ap_traceparent trace;
    ap_conn *cn;       /* the connection's watchdog entry (NULL if MHD gave none) */
    char method[16];
    char path[256];
    char id[REQUEST_ID_MAX + 1];
    char map[AP_MAP_ID_MAX];
    bool map_cut;      /* the id asked for was longer than map holds (so no map has it) */

    char *body;        /* arena_body or, when it outgrew it, malloc'd (body_heap) */
    size_t body_len, body_cap;
    bool body_heap;
    size_t bytes_in;
    size_t moved_bytes;   /* bytes_in when the connection's upload last counted as moving (evict_for_waiting) */
    size_t body_expected; /* Content-Length (SIZE_MAX: none): the body's last piece counts as moving too */
    bool too_large;
    int early;         /* AP_E_NOT_FOUND / AP_E_METHOD_NOT_ALLOWED decided on the first call, else 0 */

    bool responded;    /* a response was queued */
    int status;        /* HTTP status sent */
    const char *result;/* wire code of the answer's status: "ok", "no_path", "timeout", or an error code */
    const char *lane;  /* NULL unless the request went through the lanes */
    /* the client's address, for its profile-eviction budget (admit_profile); set by path handlers */
    uint8_t client[AP_BUDGET_ADDR_MAX];
    uint8_t client_len;
    ap_profile_admit admit;

    /* The map version the request's query runs on (registry.h): acquired when the map is resolved,
     * released as soon as the answer is written (done hook, inline answer) or, at the latest, in req_free. */
    ap_map_version *ver;
    /* A map-changing request (PUT, reload, PATCH) on the lifecycle thread (lifecycle.h); its cells */
    ap_lc_task task;
    ap_cell_edit *cells;
    /* its If-Match / If-None-Match (copied: the lifecycle thread reads them), the condition they make on the
     * map's current version (etag.h, registry.h ap_registry_cond), and the ETag the answer carries */
    char *if_match, *if_none_match;
    ap_registry_cond cond;
    char etag[AP_MAP_ETAG_MAX];
    bool etag_weak_ok; /* a gzip-compressed answer may carry it (weak: W/): the cells, not the map info */
    bool vary_304, weak_304; /* a 304 of the cells: the 200 would vary by Accept-Encoding, and be gzip'd */

    atomic_int lanes_state;
    /* the answer of a path job, handed over by the done hook (loop thread) before resume */
    char *stored;
    size_t stored_len;
    bool stored_heap;  /* stored is malloc'd (else it lies in the arena) */
    int stored_http;
    int stored_status;
    int fd; /* the connection's socket, set by hand_off (-1: unknown): client_gone peeks at it while the job
             * is in the lanes */

    /* batch (POST /v1/paths): the parsed body and the job's items, malloc'd, freed with the request */
    ap_batch_request batch;
    ap_job_item *items;
    /* POST /v1/render: the parsed body, malloc'd, freed with the request; a query's answer is drawn */
    ap_render_request *render;
    /* a picture being drawn on a pool thread (draw_task): what to draw, and its content type once drawn */
    bool drawing;
    const ap_map *draw_map;
    const ap_render_answer *draw_answer; /* a parsed answer (or NULL: the map alone, or draw_json) */
    char *draw_json;                     /* a query's JSON answer to draw; heap when draw_json_heap */
    size_t draw_json_len;
    bool draw_json_heap;
    ap_render_opts draw_opts;
    const char *picture_ctype;           /* set by draw_task: the answer is the picture */
    int render_outcome;                  /* POST /v1/render: its query's ap_outcome, counted with the picture */

    /* stage timestamps (ap_clock_ns; metrics.h ap_stage) */
    uint64_t t_body_ns, t_resumed_ns, t_queued_ns;
    bool pre_gzipped; /* the answer's body is already a gzip member (its worker compressed it) */

    ap_job job;

    /* the arena: not cleared on reuse (only the fields above are) */
    char arena_body[ARENA_BODY];
    char arena_out[ARENA_OUT];
    ap_circle obstacles[AP_MAX_OBSTACLES]; /* a /v1/path query's "obstacles" (job.q points here) */
    ap_zone zone;                          /* a /v1/path query's "corridor" (job.q.zone points here) */
} ap_req;

static void req_free(ap_req *r);

/* A block from the free list, or a new one. Any MHD thread. */
static ap_req *req_new(ap_http *h)
{
    pthread_mutex_lock(&h->pool_mu);
    ap_req *r = h->pool;
    if (r) {
        h->pool = r->next_free;
        h->pool_n--;
    }
    pthread_mutex_unlock(&h->pool_mu);
    if (!r)
        r = malloc(sizeof *r);
    if (r) {
        memset(r, 0, offsetof(ap_req, arena_body));
        r->render_outcome = AP_OUTCOME_COUNT; /* none: a picture of a stored answer or of a map counts none */
    }
    return r;
}

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

/* v as 16 lowercase hex digits and a NUL (printf's "%016llx", without its cost on every request). */
static void put_hex16(char *out, uint64_t v)
{
    for (int i = 15; i >= 0; i--, v >>= 4)
        out[i] = "0123456789abcdef"[v & 15u];
    out[16] = '\0';
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

/* r->map from the id a request names (printable, cut to AP_MAP_ID_MAX - 1 bytes: r->map_cut says so). */
static void copy_map_id(ap_req *r, const char *id)
{
    copy_printable(r->map, sizeof r->map, id);
    r->map_cut = id != NULL && strlen(id) >= sizeof r->map;
}

static bool is_ready(ap_http *h)
{
    return ap_registry_count(h->reg) > 0 && !atomic_load(&h->draining);
}

/* The request's body is read (POST, PUT and PATCH); the others' bodies are dropped. */
static bool takes_body(const ap_req *r)
{
    return r->route != NULL && (r->method_bit & (AP_METHOD_POST | AP_METHOD_PUT | AP_METHOD_PATCH)) != 0 && !r->options;
}

/* The most body bytes the request may send: the map-changing routes' (a map file for PUT, up to 4,096 cell
 * edits for PATCH: ~120 KB, past max_body_bytes' default) max_map_upload_bytes, else max_body_bytes. Both
 * are admin routes, whose token is checked before the body is read. */
static size_t body_limit(const ap_req *r)
{
    return (r->method_bit & (AP_METHOD_PUT | AP_METHOD_PATCH)) != 0 ? r->h->cfg->max_map_upload_bytes
                                                                     : r->h->cfg->max_body_bytes;
}

static void release_version(ap_req *r)
{
    ap_map_version_release(r->ver);
    r->ver = NULL;
}

static const char *request_header(const ap_req *r, const char *name)
{
    return MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, name);
}

/* The value of header field name without trailing blanks (RFC 9110 5.5: whitespace about a value is not
 * part of it; libmicrohttpd 0.9.75 drops only the leading): the value itself when it has none, else a copy
 * in buf (cap bytes); NULL when the request has none, or when the trimmed value does not fit buf. For values
 * compared whole (an X-Request-ID, an Origin, a traceparent: "abc " was not the id "abc", a helper). */
static const char *header_trimmed(struct MHD_Connection *conn, const char *name, char *buf, size_t cap)
{
    const char *v = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name);
    if (v == NULL)
        return NULL;
    size_t n = strlen(v);
    const size_t whole = n;
    while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    if (n == whole)
        return v;
    if (n >= cap)
        return NULL;
    memcpy(buf, v, n);
    buf[n] = '\0';
    return buf;
}

static char *header_list(const ap_req *r, const char *name, bool *nomem);

/* Does the client accept a gzip'd answer (every Accept-Encoding line read as one list, RFC 9110 5.3: the
 * first alone was, so "deflate" then "gzip" on two lines got none)? MHD's thread. */
static bool gzip_wanted(const ap_req *r)
{
    bool nomem = false;
    char *accept = header_list(r, MHD_HTTP_HEADER_ACCEPT_ENCODING, &nomem);
    const bool yes = ap_gzip_accepted(accept);
    free(accept);
    return yes;
}

/* Content-Encoding: gzip for a client that accepts it (server/gzip.h). An embedded file's answer takes its
 * copy compressed at start (also for a 304: *body is untouched, the caller only needs to know the variant);
 * any other answer with a body is compressed here, on the HTTP thread, at AP_GZIP_LEVEL (BENCHMARKS.md
 * "gzip"), and kept only when it shrinks. On true *body / *len / *heap describe the compressed bytes (the
 * old heap body is freed). */
static bool gzip_answer(ap_req *r, int http, char **body, size_t *len, bool *heap)
{
    if (r->static_file != NULL) {
        const ap_static_gz *z = r->h->static_gz ? &r->h->static_gz[r->static_file - ap_static_files] : NULL;
        if (z == NULL || z->data == NULL)
            return false;
        if (http == 200) {
            *body = z->data;
            *len = z->len;
        }
        return true;
    }
    if (http == 304 || *len == 0)
        return false;
    size_t n = 0;
    char *gz = ap_gzip_answer(*body, *len, &n);
    if (gz == NULL)
        return false;
    if (*heap)
        free(*body);
    *body = gz;
    *len = n;
    *heap = true;
    return true;
}

/* Queue a response with HTTP status http whose body answers with status (ap_status / ap_wire_status; its
 * wire code is the access log's result). body is malloc'd and handed to MHD when heap (MHD frees it), else
 * it lives in the request block or static storage, which outlives the response (MHD_RESPMEM_PERSISTENT: no
 * copy, no free). NULL body gives a fixed 500 fallback. */
static enum MHD_Result respond_mem(ap_req *r, int http, int status, char *body, size_t len, bool heap,
                                   const char *ctype)
{
    static const char fallback[] = "{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}";
    struct MHD_Response *resp;
    /* An answer that may be compressed varies by Accept-Encoding, whether this one is or not. A map's info
     * (r->etag without etag_weak_ok) is never compressed: its ETag stays strong, what If-Match compares. */
    const bool plain = r->etag[0] != '\0' && !r->etag_weak_ok;
    bool vary_encoding = !plain && body != NULL &&
                         (r->static_file != NULL ? r->static_file->len : len) >= AP_GZIP_MIN_BYTES;
    bool gzipped = r->pre_gzipped && body != NULL; /* compressed on its worker (lanes.h gzip_ok) */
    if (gzipped || (http == 304 && r->vary_304))
        vary_encoding = true;
    else
        gzipped = vary_encoding && gzip_wanted(r) &&
                  gzip_answer(r, http, &body, &len, &heap);
    if (body) {
        resp = MHD_create_response_from_buffer(len, body, heap ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
    } else {
        http = 500;
        status = AP_E_INTERNAL;
        ctype = "application/json";
        resp = MHD_create_response_from_buffer(sizeof fallback - 1, (void *)fallback, MHD_RESPMEM_PERSISTENT);
    }
    if (!resp) {
        if (heap)
            free(body);
        return MHD_NO;
    }
    if (ctype != NULL)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
    if (gzipped && http != 304) /* a 304 names the variant by its (weak) ETag only */
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    MHD_add_response_header(resp, "X-Request-ID", r->id);
    /* CORS (server/cors.h): headers only for an allowed Origin; "Vary: Origin" whenever origins are listed. */
    char origin[512]; /* (an origin is a scheme, a host name of at most 253 bytes and a port) */
    const char *cors = ap_cors_allow_origin(r->h->cfg, header_trimmed(r->conn, "Origin", origin, sizeof origin));
    if (cors != NULL)
        ap_cors_add_headers(resp, cors);
    bool vary_origin = ap_cors_varies(r->h->cfg);
    if (vary_origin || vary_encoding)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY,
                                vary_origin && vary_encoding ? "Origin, Accept-Encoding"
                                                             : vary_origin ? "Origin" : "Accept-Encoding");
    /* Allow on an OPTIONS answer and on a 405: the route's methods and OPTIONS, which every route answers
     * (RFC 9110 15.5.6: a 405's Allow lists the resource's supported methods). */
    char allow[48];
    if (r->options || status == AP_E_METHOD_NOT_ALLOWED) {
        ap_route_allow(r->allowed | AP_METHOD_OPTIONS, allow, sizeof allow);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, allow);
    }
    if (r->options) {
        char methods[32];
        const char *want = request_header(r, MHD_HTTP_HEADER_ACCESS_CONTROL_REQUEST_METHOD);
        if (cors != NULL && want != NULL) {
            ap_route_allow(r->allowed, methods, sizeof methods);
            ap_cors_add_preflight(resp, methods, request_header(r, MHD_HTTP_HEADER_ACCESS_CONTROL_REQUEST_HEADERS));
        }
    }
    if (status == AP_E_OVERLOADED)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, "1");
    if (status == AP_E_UNAUTHORIZED)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer realm=\"arcpath\"");
    if (r->static_file != NULL && (http == 200 || http == 304))
        ap_static_add_headers(resp, r->static_file, gzipped);
    if (r->etag[0] != '\0' && (http == 200 || http == 201 || http == 304)) {
        char tag[AP_MAP_ETAG_MAX + 2];
        const bool weak = http == 304 ? r->weak_304 : gzipped;
        snprintf(tag, sizeof tag, "%s%s", weak ? "W/" : "", r->etag);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, tag);
    }
    /* A malformed message leaves no trustworthy end of message to find the next request at: close. */
    if (atomic_load(&r->h->draining) || status == AP_E_BAD_REQUEST || status == AP_E_NOT_IMPLEMENTED ||
        status == AP_E_CLIENT_CLOSED || status == AP_E_HEADER_TOO_LARGE || status == AP_E_UNSUPPORTED_MEDIA_TYPE)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
    enum MHD_Result ret = MHD_queue_response(r->conn, (unsigned)http, resp);
    MHD_destroy_response(resp);
    r->t_queued_ns = ap_clock_ns();
    r->responded = true;
    r->status = http;
    r->result = ap_error_lookup(status)->code;
    return ret;
}

/* Queue the answer of status with a malloc'd body (MHD frees it); the HTTP status is the error table's. */
static enum MHD_Result respond(ap_req *r, int status, char *body, size_t len, const char *ctype)
{
    return respond_mem(r, ap_error_lookup(status)->http, status, body, len, true, ctype);
}

static enum MHD_Result respond_error(ap_req *r, int status, const char *msg, const char *field, int line, int col)
{
    size_t len = 0;
    char *body = ap_wire_encode_error(status, msg, field, line, col, NULL, &len);
    return respond(r, status, body, len, "application/json");
}

/* An error found once the query holds its map version (r->ver): a 422's error object names that version
 * (ap_wire_write_query_error). */
static enum MHD_Result respond_query_error(ap_req *r, int status, const char *msg, const char *field)
{
    ap_jbuf b;
    ap_jbuf_init(&b, NULL, 0);
    ap_wire_write_query_error(&b, status, msg, field, r->ver != NULL ? r->ver->version : 0, NULL);
    size_t len = 0;
    char *body = ap_jbuf_take(&b, &len);
    return respond(r, status, body, len, "application/json");
}

/* 404 unknown_map naming the id asked for (r->map, the printable copy every map route makes first; the
 * message is errors.h's); field as respond_error's. */
static enum MHD_Result respond_unknown_map(ap_req *r, const char *field)
{
    char msg[128 + AP_MAP_ID_MAX];
    ap_error_unknown_map_message(msg, sizeof msg, r->map);
    if (r->map_cut) /* (the message named a cut id as if it were the one asked for, maybe a loaded one) */
        snprintf(msg, sizeof msg, "no map is loaded under the id asked for: it is longer than %d bytes, the most a "
                 "map id has (its first %d: \"%s\")", AP_MAP_ID_MAX - 1, AP_MAP_ID_MAX - 1, r->map);
    return respond_error(r, AP_E_UNKNOWN_MAP, msg, field, 0, 0);
}

static enum MHD_Result respond_json(ap_req *r, json_t *obj)
{
    char *body = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
    json_decref(obj);
    return respond(r, AP_OK, body, body ? strlen(body) : 0, "application/json");
}

/* ---- routes ------------------------------------------------------------------------------------------- */

static enum MHD_Result handle_healthz(ap_req *r, const char *id)
{
    /* Liveness is the HTTP ceiling figure: a constant body, nothing built or freed. */
    static char ok[] = "{\"status\":\"ok\"}";
    return respond_mem(r, 200, AP_OK, ok, sizeof ok - 1, false, "application/json");
}

static enum MHD_Result handle_readyz(ap_req *r, const char *id)
{
    ap_http *h = r->h;
    if (is_ready(h))
        return respond_json(r, json_pack("{s:s, s:I}", "status", "ready", "maps", (json_int_t)ap_registry_count(h->reg)));
    return respond_error(r, AP_E_NOT_READY, atomic_load(&h->draining) ? AP_LANES_SHUTTING_DOWN : "no maps loaded",
                         NULL, 0, 0);
}

static enum MHD_Result handle_metrics(ap_req *r, const char *id)
{
    size_t len = 0;
    ap_metrics_set_maps(r->h->metrics, (int64_t)ap_registry_count(r->h->reg)); /* maps come and go */
    if (r->h->log != NULL)
        ap_metrics_set_log_dropped(r->h->metrics, ap_accesslog_dropped(r->h->log));
    if (r->h->lc != NULL)
        ap_metrics_set_rescans(r->h->metrics, atomic_load(&r->h->lc->rescans), atomic_load(&r->h->lc->rescan_errors));
    char *body = ap_metrics_render(r->h->metrics, &len);
    return respond(r, AP_OK, body, len, "text/plain; version=0.0.4; charset=utf-8");
}

static enum MHD_Result handle_maps(ap_req *r, const char *id)
{
    ap_map_version **vs = NULL;
    size_t n = 0;
    if (ap_registry_snapshot(r->h->reg, &vs, &n) != AP_OK)
        return respond_error(r, AP_E_NOMEM, NULL, NULL, 0, 0);
    ap_wire_map_ref *refs = malloc((n ? n : 1) * sizeof *refs);
    char *body = NULL;
    size_t len = 0;
    if (refs) {
        for (size_t i = 0; i < n; i++) {
            refs[i].grid = vs[i]->kind == AP_MAP_KIND_GRID ? vs[i]->map : NULL;
            refs[i].circles = vs[i]->kind == AP_MAP_KIND_CIRCLES ? &vs[i]->circles : NULL;
            refs[i].version = vs[i]->version;
        }
        body = ap_wire_encode_map_list(refs, n, &len);
    }
    free(refs);
    ap_registry_snapshot_free(vs, n);
    return respond(r, AP_OK, body, len, "application/json");
}

/* The map info of a version (grid or circle map): GET /v1/maps/{id} and the answers of the map-changing
 * routes. */
static char *encode_map_info(const ap_map_version *v, size_t *len)
{
    return v->kind == AP_MAP_KIND_GRID ? ap_wire_encode_map(v->map, v->version, len)
                                       : ap_wire_encode_circle_map(&v->circles, v->version, len);
}

/* A grid's cells (respond_map_doc answers a circle map's request itself). */
static char *encode_map_cells(const ap_map_version *v, size_t *len)
{
    return ap_wire_encode_cells(v->map, len);
}

/* The 412 message of a request whose If-Match (im, NULL when absent) or If-None-Match failed on map r->map
 * at version seen (0: none): which header, and the version and ETag it met. */
static void precondition_message(const ap_req *r, const char *im, uint64_t seen, char *buf, size_t cap)
{
    char tag[AP_MAP_ETAG_MAX];
    const char *tail = r->method_bit & (AP_METHOD_GET | AP_METHOD_HEAD) ? "" : ": nothing was changed";
    if (seen == 0) {
        snprintf(buf, cap, "map \"%s\" has no current version, which If-Match asks for%s", r->map, tail);
        return;
    }
    ap_map_etag(tag, seen, r->h->etag_boot);
    const bool match_failed = im != NULL && ap_etag_precondition(im, NULL, tag, false) != 200;
    snprintf(buf, cap, "map \"%s\" is at map_version %llu (ETag %s), which If-%s%s", r->map,
             (unsigned long long)seen, tag, match_failed ? "Match does not name" : "None-Match names", tail);
}

/* 412 precondition_failed for r, whose map was at version seen (precondition_message); no ETag goes with it. */
static enum MHD_Result respond_precondition_failed(ap_req *r, uint64_t seen)
{
    char msg[256];
    precondition_message(r, r->if_match, seen, msg, sizeof msg);
    r->etag[0] = '\0';
    return respond_error(r, AP_E_PRECONDITION_FAILED, msg, NULL, 0, 0);
}

/* ap_registry_cond's test for a map-changing request: its If-Match / If-None-Match on the id's current
 * version's ETag (current 0: none). Any thread (the values are the request's copies). */
static bool map_cond_holds(const ap_registry_cond *c, uint64_t current)
{
    const ap_req *r = c->arg;
    char tag[AP_MAP_ETAG_MAX];
    if (current != 0)
        ap_map_etag(tag, current, r->h->etag_boot);
    return ap_etag_precondition(r->if_match, r->if_none_match, current != 0 ? tag : NULL, false) == 200;
}

/* What header_list gathers: every line of one field, joined by ", " (RFC 9110 5.3). */
typedef struct field_lines {
    const char *name;
    char *joined; /* malloc'd */
    size_t len;
    bool nomem;
} field_lines;

static enum MHD_Result join_field_line(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    field_lines *f = cls;
    (void)kind;
    if (strcasecmp(key, f->name) != 0 || f->nomem)
        return MHD_YES;
    const size_t add = strlen(value ? value : "");
    char *p = realloc(f->joined, f->len + 2 + add + 1);
    if (p == NULL) {
        f->nomem = true;
        return MHD_YES;
    }
    if (f->joined != NULL) {
        memcpy(p + f->len, ", ", 2);
        f->len += 2;
    }
    memcpy(p + f->len, value ? value : "", add + 1);
    f->len += add;
    f->joined = p;
    return MHD_YES;
}

/* Every line of the list-valued header field name joined into one value (a client or proxy may split
 * "If-Match: a, b" into two lines, which mean the same: RFC 9110 5.3; the first line alone was read, a
 * helper), malloc'd; NULL when the request has none (*nomem: or when out of memory). MHD's thread. */
static char *header_list(const ap_req *r, const char *name, bool *nomem)
{
    field_lines f = {name, NULL, 0, false};
    MHD_get_connection_values(r->conn, MHD_HEADER_KIND, join_field_line, &f);
    if (f.nomem) {
        free(f.joined);
        *nomem = true;
        return NULL;
    }
    return f.joined;
}

/* r's If-Match and If-None-Match into r->if_match, r->if_none_match (malloc'd, NULL when absent; freed
 * with r). Returns AP_OK or AP_E_NOMEM. MHD's thread. */
static int read_preconditions(ap_req *r)
{
    bool nomem = false;
    free(r->if_match);
    free(r->if_none_match);
    r->if_match = header_list(r, MHD_HTTP_HEADER_IF_MATCH, &nomem);
    r->if_none_match = header_list(r, MHD_HTTP_HEADER_IF_NONE_MATCH, &nomem);
    return nomem ? AP_E_NOMEM : AP_OK;
}

/* The condition r's If-Match / If-None-Match make on its map's current version, their values copied for the
 * lifecycle thread, into *cond (NULL when r has neither). Returns AP_OK or AP_E_NOMEM. MHD's thread. */
static int map_cond(ap_req *r, ap_registry_cond **cond)
{
    *cond = NULL;
    if (read_preconditions(r) != AP_OK)
        return AP_E_NOMEM;
    if (r->if_match == NULL && r->if_none_match == NULL)
        return AP_OK;
    r->cond = (ap_registry_cond){map_cond_holds, r, 0};
    *cond = &r->cond;
    return AP_OK;
}

/* A document about the map named by the route's {id}: encode(its current version) as JSON, or 404
 * unknown_map (also, saying why, for a circle map when grid_only). The version is held only while
 * encoding. Its ETag goes with it (etag.h); If-None-Match naming it is 304, If-Match not naming it 412. */
static enum MHD_Result respond_map_doc(ap_req *r, const char *id, char *(*encode)(const ap_map_version *, size_t *),
                                       bool grid_only)
{
    copy_map_id(r, id);
    ap_map_version *v = ap_registry_acquire(r->h->reg, id);
    if (v && grid_only && v->kind != AP_MAP_KIND_GRID) {
        ap_map_version_release(v);
        return respond_error(r, AP_E_UNKNOWN_MAP, "this map is a circle world: it has no cells", NULL, 0, 0);
    }
    if (!v)
        return respond_unknown_map(r, NULL);
    ap_map_etag(r->etag, v->version, r->h->etag_boot);
    r->etag_weak_ok = grid_only;
    if (read_preconditions(r) != AP_OK) {
        ap_map_version_release(v);
        return respond_error(r, AP_E_NOMEM, NULL, NULL, 0, 0);
    }
    const int http = ap_etag_precondition(r->if_match, r->if_none_match, r->etag, true);
    if (http == 304) {
        /* a 304 carries the Vary and ETag the 200 would (RFC 9110 15.4.5): the cells of a map of a KiB or more
         * go gzip'd, weak, to a client that accepts gzip (they always shrink) */
        r->vary_304 = grid_only && v->kind == AP_MAP_KIND_GRID &&
                      (size_t)v->map->width * (size_t)v->map->height >= AP_GZIP_MIN_BYTES;
        r->weak_304 = r->vary_304 && gzip_wanted(r);
        ap_map_version_release(v);
        return respond_mem(r, 304, AP_OK, (char *)"", 0, false, NULL);
    }
    if (http == 412) {
        const uint64_t seen = v->version;
        ap_map_version_release(v);
        return respond_precondition_failed(r, seen);
    }
    size_t len = 0;
    char *body = encode(v, &len);
    ap_map_version_release(v);
    return respond(r, AP_OK, body, len, "application/json");
}

/* The planner's process-wide cache: queries name no other (server/profiles_route.h). */
static enum MHD_Result handle_profiles(ap_req *r, const char *id)
{
    size_t len = 0;
    char *body = ap_profiles_encode(ap_profile_cache_default(), &len);
    return respond(r, AP_OK, body, len, "application/json");
}

/* Has the peer of fd closed (or reset) the connection? A non-blocking peek that finds the end of the stream
 * (or an error other than "nothing yet"); bytes waiting to be read say no. */
static bool peer_closed(int fd)
{
    char c;
    ssize_t n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* The lanes' client_gone hook (loop thread, while the connection is suspended, so MHD neither reads nor
 * closes the socket): has the client closed its connection? A peek that finds the end of the stream (or a
 * reset) says so; a pipelined next request (bytes to read) or nothing yet says no. As nginx and Go's
 * net/http do, a client that only half-closes (shutdown(SHUT_WR) after its request) counts as gone. */
static bool client_gone(const ap_job *job)
{
    const ap_req *r = job->user;
    return r->fd >= 0 && peer_closed(r->fd);
}

/* Suspend the connection and hand the job to the lanes (r->job filled). */
static enum MHD_Result hand_off(ap_req *r)
{
    ap_http *h = r->h;
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(r->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    r->fd = ci != NULL ? (int)ci->connect_fd : -1;
    r->job.client_gone = client_gone;
    /* Suspend before the hand-off: once the job is in the inbox the loop may finish it and resume at once,
     * and resuming a connection that is not yet suspended would be lost. */
    MHD_suspend_connection(r->conn);
    atomic_store(&r->lanes_state, LANES_IN);
    if (ap_lanes_submit(h->lanes, &r->job) != AP_OK) {
        /* Drain began between the draining check and the submit: answer from this thread (and drop a plan
         * begun inline, ap_lanes_run_inline, which the lanes will not answer now). */
        atomic_store(&r->lanes_state, LANES_DONE);
        ap_plan_release(&r->job.plan);
        int http = 503;
        r->stored = ap_wire_encode_error(AP_E_NOT_READY, AP_LANES_SHUTTING_DOWN, NULL, 0, 0, &http, &r->stored_len);
        r->stored_heap = true;
        r->stored_http = http;
        r->stored_status = AP_E_NOT_READY;
        MHD_resume_connection(r->conn);
    }
    return MHD_YES;
}

/* The job's deadline: from the request's arrival, so time spent reading the body and queueing is charged
 * to it, as the client sees it. */
static uint64_t deadline_of(const ap_req *r, int64_t deadline_ms)
{
    int64_t ms = deadline_ms < 0 ? r->h->cfg->default_deadline_ms : deadline_ms;
    if (ms > r->h->cfg->max_deadline_ms)
        ms = r->h->cfg->max_deadline_ms;
    return r->t0_ns + (uint64_t)ms * 1000000ULL;
}

/* A picture is drawn on a pool thread as a lanes task: a PNG of a 1024² map takes ~0.1 s, which on the
 * HTTP thread would hold up every other client's answer. Runs on a pool thread; touches only r's drawing
 * fields and the job. */
static void draw_task(ap_job *j)
{
    ap_req *r = j->user;
    char *out = NULL;
    size_t n = 0;
    const char *ctype = NULL;
    int st = r->draw_json ? ap_render_route_draw_json(r->draw_map, r->draw_json, r->draw_json_len, &r->draw_opts,
                                                      &out, &n, &ctype)
                          : ap_render_route_draw(r->draw_map, r->draw_answer, &r->draw_opts, &out, &n, &ctype);
    r->picture_ctype = ctype;
    j->status = st;
    j->http_status = ap_error_lookup(st)->http;
    ap_jbuf_init(&j->out, NULL, 0);
    if (out == NULL) {
        j->out.failed = true;
        return;
    }
    j->out.p = out; /* the picture's own malloc'd block becomes the job's heap buffer */
    j->out.len = j->out.cap = n;
    j->out.heap = true;
}

/* Draw m with answer a (or the JSON answer json, or the map alone) under o off this thread; the connection
 * waits suspended and respond_stored sends the picture. */
static enum MHD_Result draw_off_thread(ap_req *r, const ap_map *m, const ap_render_answer *a, char *json,
                                       size_t json_len, bool json_heap, const ap_render_opts *o)
{
    r->drawing = true;
    r->draw_map = m;
    r->draw_answer = a;
    r->draw_json = json;
    r->draw_json_len = json_len;
    r->draw_json_heap = json_heap;
    r->draw_opts = *o;
    ap_job_init(&r->job);
    r->job.task = draw_task;
    r->job.user = r;
    r->job.gzip_ok = gzip_wanted(r);
    return hand_off(r);
}

/* Queue a finished job's answer (body: heap or request storage): as it is; for POST /v1/render a query's
 * JSON answer goes on to be drawn (draw_off_thread), and a drawn picture is sent with its content type. */
static enum MHD_Result respond_answer(ap_req *r, int http, int status, char *body, size_t len, bool heap)
{
    if (r->picture_ctype != NULL && body != NULL && http == 200) {
        /* the picture's query counts as a path answer now that its 200 is made, as a single query's does (not
         * when it was searched: the drawing could still be refused, 503 or 413, a helper) */
        if (r->render_outcome >= 0 && r->render_outcome < AP_OUTCOME_COUNT)
            ap_metrics_answer(r->h->metrics, (ap_outcome)r->render_outcome);
        return respond_mem(r, http, status, body, len, heap, r->picture_ctype);
    }
    if (r->render == NULL || r->drawing || body == NULL || http != 200)
        return respond_mem(r, body ? http : 500, status, body, len, heap, "application/json");
    r->render_outcome = r->job.outcome; /* (the job is the drawing's from here) */
    return draw_off_thread(r, r->job.q.map, NULL, body, len, heap, &r->render->opts);
}

/* Queue the answer a finished job left in its out buffer (arena or heap). */
static enum MHD_Result respond_job(ap_req *r)
{
    ap_job *j = &r->job;
    bool heap = j->out.heap;
    if (heap)
        ap_jbuf_init(&j->out, NULL, 0); /* the answer owns the block now */
    r->pre_gzipped = j->gzipped;
    return respond_answer(r, j->http_status, j->status, j->body, j->body_len, heap);
}

/* Only cheap slices run inline (ap_query_slice_is_cheap: grid searches, fast_budget expansions ~0.3 ms).
 * A directional or hybrid expansion costs far more, and a unit profile's first query builds its tables
 * (tens of ms), which must never stall the HTTP thread: those always go to the pool. */
static bool inline_worthy(const ap_query *q)
{
    return ap_query_slice_is_cheap(q);
}

/* The profile cache's admission hook (planner/turns/profile.h): a query may evict a cached unit profile
 * while its client address has budget left. Runs on whichever thread builds the profile. */
static bool admit_profile(void *arg)
{
    ap_req *r = arg;
    return ap_budget_take(&r->h->budget, r->client, r->client_len, ap_clock_ns());
}

/* Remember the client's address and point q's admission hook at it. */
static void set_profile_admit(ap_req *r, ap_query *q)
{
    if (r->admit.fn == NULL) {
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(r->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        const struct sockaddr *sa = ci ? ci->client_addr : NULL;
        r->client_len = 0;
        if (sa && sa->sa_family == AF_INET) {
            memcpy(r->client, &((const struct sockaddr_in *)sa)->sin_addr, 4);
            r->client_len = 4;
        } else if (sa && sa->sa_family == AF_INET6) {
            memcpy(r->client, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
            r->client_len = 16;
        }
        r->admit.fn = admit_profile;
        r->admit.arg = r;
    }
    q->profile_admit = &r->admit;
}

/* Acquire the current version of the map called id for r (r->ver, registry.h) and point q at it, a grid
 * (q->map) or a circle world (q->circles); *map_id gets the map's id (borrowed from the version). False
 * when no map has that id. */
static bool resolve_map(ap_req *r, const char *id, ap_query *q, const char **map_id)
{
    release_version(r); /* none is held here; a stale one would leak */
    r->ver = ap_registry_acquire(r->h->reg, id);
    if (r->ver == NULL)
        return false;
    q->map = r->ver->kind == AP_MAP_KIND_GRID ? r->ver->map : NULL;
    q->circles = r->ver->kind == AP_MAP_KIND_CIRCLES ? r->ver->circles.world : NULL;
    if (q->circles != NULL) /* a grid carries its scale in ap_map; a circle world in its version */
        q->meters_per_tile = r->ver->circles.meters_per_tile;
    *map_id = ap_map_version_id(r->ver);
    return true;
}

/* POST /v1/render's refusal of a circle map. */
#define NOT_A_GRID_PICTURE "pictures are drawn of grid maps only; this is a circle map"

/* Run a parsed /v1/path query (POST /v1/path, or the query of POST /v1/render, whose fields are named
 * under prefix "query."): resolve the map, validate, then the fast slice here or the lanes. */
static enum MHD_Result run_query(ap_req *r, ap_path_request *q, const char *prefix)
{
    ap_http *h = r->h;
    /* A copy to fill in, without the obstacles array (6 KiB) and the corridor: pr.q.obstacles and pr.q.zone
     * still point at q's, which lives on the handler's stack, gone once the job is handed to the pool. */
    ap_path_request pr;
    memcpy(&pr, q, offsetof(ap_path_request, obstacles));
    char field[64];
    ap_wire_error we;
    copy_map_id(r, pr.map);

    const char *map_id;
    if (!resolve_map(r, pr.map, &pr.q, &map_id)) {
        snprintf(field, sizeof field, "%smap", prefix);
        return respond_unknown_map(r, field);
    }
    if (r->render != NULL) {
        /* A picture's own faults before its search, on the version this query holds (a circle map under
         * the id would leave the drawing no grid): circle maps have no drawing yet; a view beyond the map. */
        if (pr.q.map == NULL)
            return respond_error(r, AP_E_INVALID_REQUEST, NOT_A_GRID_PICTURE, "query.map", 0, 0);
        if (ap_render_check_view(pr.q.map, &r->render->opts, &we) != AP_OK)
            return respond_error(r, we.status, we.message, we.field, 0, 0);
    }
    pr.q.max_samples = h->cfg->max_samples;
    if (ap_wire_apply_unit_kind(&pr.unit, h->cfg->units, h->cfg->n_units, &pr.q, &we) != AP_OK) {
        char msg[sizeof we.message + 32];
        ap_json_prefix_error(field, sizeof field, msg, sizeof msg, we.message, prefix, we.field);
        return respond_error(r, we.status, msg, field, 0, 0);
    }
    if (r->render != NULL)
        r->render->opts.radius = pr.q.unit_radius; /* the picture's band and discs: the kind's radius too */
    set_profile_admit(r, &pr.q);
    ap_query_error qe;
    int st = ap_query_validate(&pr.q, NULL, &qe);
    if (st != AP_OK) {
        char msg[sizeof qe.message + 32];
        ap_json_prefix_error(field, sizeof field, msg, sizeof msg, qe.message, prefix, qe.field);
        return respond_query_error(r, st, msg[0] ? msg : NULL, field);
    }
    if (atomic_load(&h->draining))
        return respond_error(r, AP_E_NOT_READY, AP_LANES_SHUTTING_DOWN, NULL, 0, 0);

    ap_job_init(&r->job);
    r->job.q = pr.q;
    r->job.map_id = map_id;
    r->job.map_version = r->ver->version;
    r->job.field_prefix = prefix[0] != '\0' ? prefix : NULL; /* a literal: outlives the job */
    r->job.count_later = r->render != NULL; /* counted when its picture is answered (respond_answer) */
    /* The job's query reads the request's own copies of the obstacles and the corridor. */
    if (pr.q.n_obstacles > 0) {
        memcpy(r->obstacles, q->obstacles, pr.q.n_obstacles * sizeof *r->obstacles);
        r->job.q.obstacles = r->obstacles;
    }
    if (pr.q.zone != NULL) {
        r->zone = q->zone;
        r->job.q.zone = &r->zone;
    }
    r->job.deadline_ns = deadline_of(r, pr.deadline_ms);
    r->job.user = r;
    ap_jbuf_init(&r->job.out, r->arena_out, sizeof r->arena_out);
    /* a path answer for the client itself (a render query's is drawn first) may be compressed on its worker */
    r->job.gzip_ok = r->render == NULL && r->picture_ctype == NULL &&
                     gzip_wanted(r);

    if (h->cfg->inline_fast && inline_worthy(&pr.q)) {
        st = ap_lanes_run_inline(h->lanes, &r->job);
        if (st == AP_OK) {
            r->lane = ap_metrics_lane_name(r->job.lane);
            r->t_resumed_ns = ap_clock_ns();
            enum MHD_Result ret = respond_job(r);
            if (r->render == NULL)
                release_version(r); /* the answer is written (a render query's is still to be drawn) */
            return ret;
        }
        /* AP_IN_PROGRESS: on to the slow lane; AP_E_OVERLOADED: no fast workspace free, the pool's turn. */
    }
    return hand_off(r);
}

static enum MHD_Result handle_path(ap_req *r, const char *id)
{
    ap_path_request pr;
    ap_wire_error we;
    int st = ap_wire_parse_path_request(r->body ? r->body : "", r->body_len, &pr, &we);
    if (st != AP_OK)
        return respond_error(r, st, we.message[0] ? we.message : NULL, we.field, we.line, we.col);
    return run_query(r, &pr, "");
}

/* The picture of map m (and answer a, NULL for the map alone) under o (server/render_route.h). */
static enum MHD_Result respond_picture(ap_req *r, const ap_map *m, const ap_render_answer *a,
                                       const ap_render_opts *o)
{
    if (atomic_load(&r->h->draining))
        return respond_error(r, AP_E_NOT_READY, AP_LANES_SHUTTING_DOWN, NULL, 0, 0);
    return draw_off_thread(r, m, a, NULL, 0, false, o);
}

/* POST /v1/render: a stored answer is drawn here; a query runs as POST /v1/path runs it (respond_answer
 * draws its answer). */
static enum MHD_Result handle_render(ap_req *r, const char *id)
{
    r->render = malloc(sizeof *r->render);
    if (r->render == NULL)
        return respond_error(r, AP_E_NOMEM, NULL, NULL, 0, 0);
    ap_render_request *rq = r->render;
    ap_wire_error we;
    int st = ap_render_parse_request(r->body ? r->body : "", r->body_len, rq, &we);
    if (st != AP_OK) {
        free(r->render);
        r->render = NULL;
        return respond_error(r, st, we.message[0] ? we.message : NULL, we.field, we.line, we.col);
    }
    rq->opts.max_bytes = r->h->cfg->max_answer_bytes;
    /* The pictures draw grids; a world of circles has no drawing yet (the viewer lists grid maps only). Each
     * path tests the version it holds: a PUT may give the id another kind between two look-ups. */
    if (rq->has_query)
        return run_query(r, &rq->query, "query.");
    copy_map_id(r, rq->map);
    /* Held until the request is freed: the picture is drawn on a pool thread. */
    r->ver = ap_registry_acquire(r->h->reg, rq->map);
    if (!r->ver)
        return respond_unknown_map(r, "map");
    if (r->ver->kind != AP_MAP_KIND_GRID)
        return respond_error(r, AP_E_INVALID_REQUEST, NOT_A_GRID_PICTURE, "map", 0, 0);
    return respond_picture(r, r->ver->map, &rq->answer, &rq->opts);
}

/* GET /v1/maps/{id}.svg and .png: the map alone, whole. */
static enum MHD_Result handle_map_picture(ap_req *r, const char *id, ap_render_format format)
{
    copy_map_id(r, id);
    /* Held until the drawing job is done (the done hook releases it): the picture is drawn on a pool
     * thread. A circle map has no picture. */
    r->ver = ap_registry_acquire(r->h->reg, id);
    if (r->ver && r->ver->kind != AP_MAP_KIND_GRID) {
        /* 404 as for an unknown id (there is no such picture), but saying why */
        release_version(r);
        return respond_error(r, AP_E_UNKNOWN_MAP, "this id is a circle map: pictures are drawn of grid maps only",
                             NULL, 0, 0);
    }
    if (!r->ver)
        return respond_unknown_map(r, NULL);
    ap_render_opts o = {.format = format, .max_bytes = r->h->cfg->max_answer_bytes};
    return respond_picture(r, r->ver->map, NULL, &o);
}

static enum MHD_Result handle_map_svg(ap_req *r, const char *id)
{
    return handle_map_picture(r, id, AP_RENDER_SVG);
}

static enum MHD_Result handle_map_png(ap_req *r, const char *id)
{
    return handle_map_picture(r, id, AP_RENDER_PNG);
}

/* POST /v1/paths: whole-batch problems are answered here; per-query problems become error items. */
static enum MHD_Result handle_paths(ap_req *r, const char *id)
{
    ap_http *h = r->h;
    ap_wire_error we;
    int st = ap_wire_parse_batch_request(r->body ? r->body : "", r->body_len, h->cfg->max_batch, &r->batch, &we);
    if (st != AP_OK)
        return respond_error(r, st, we.message[0] ? we.message : NULL, we.field, we.line, we.col);
    copy_map_id(r, r->batch.map);
    ap_query where = {0};
    const char *map_id;
    if (!resolve_map(r, r->batch.map, &where, &map_id))
        return respond_unknown_map(r, "map");
    if (atomic_load(&h->draining))
        return respond_error(r, AP_E_NOT_READY, AP_LANES_SHUTTING_DOWN, NULL, 0, 0);
    r->items = calloc(r->batch.n, sizeof *r->items);
    if (!r->items)
        return respond_error(r, AP_E_NOMEM, NULL, NULL, 0, 0);
    for (size_t i = 0; i < r->batch.n; i++) {
        ap_batch_item *bi = &r->batch.items[i];
        ap_job_item *it = &r->items[i];
        if (bi->status != AP_OK) {
            it->status = bi->status;
            it->message = bi->err.message[0] ? bi->err.message : NULL;
            it->field = bi->err.field;
            continue;
        }
        it->q = bi->q;
        it->q.map = where.map;
        it->q.circles = where.circles;
        it->q.meters_per_tile = where.meters_per_tile;
        it->q.max_samples = h->cfg->max_samples;
        if (ap_wire_apply_unit_kind(&bi->unit, h->cfg->units, h->cfg->n_units, &it->q, &bi->err) != AP_OK) {
            it->status = bi->err.status;
            it->message = bi->err.message;
            it->field = bi->err.field;
            continue;
        }
        set_profile_admit(r, &it->q);
        /* The planner's message goes into the item's own (unused) wire error, which outlives the job. */
        ap_query_error qe;
        it->status = ap_query_validate(&it->q, NULL, &qe);
        it->field = qe.field;
        if (qe.message[0] != '\0') {
            snprintf(bi->err.message, sizeof bi->err.message, "%s", qe.message);
            it->message = bi->err.message;
        }
    }
    ap_job_init(&r->job);
    r->job.items = r->items;
    r->job.n_items = r->batch.n;
    r->job.map_id = map_id;
    r->job.map_version = r->ver->version;
    r->job.deadline_ns = deadline_of(r, r->batch.deadline_ms);
    r->job.user = r;
    /* Even answered by errors alone the items would not fit the answer cap: refused whole, unsearched. */
    const size_t floor_bytes = ap_lanes_batch_floor(&r->job);
    if (h->cfg->max_answer_bytes != 0 && floor_bytes > h->cfg->max_answer_bytes) {
        char msg[192];
        snprintf(msg, sizeof msg,
                 "%zu queries need %zu bytes even answered by errors alone, more than max_answer_bytes (%zu): "
                 "send fewer",
                 r->batch.n, floor_bytes, (size_t)h->cfg->max_answer_bytes);
        return respond_error(r, AP_E_ANSWER_TOO_LARGE, msg, "queries", 0, 0);
    }
    ap_jbuf_init(&r->job.out, r->arena_out, sizeof r->arena_out);
    r->job.gzip_ok = gzip_wanted(r);
    return hand_off(r);
}

/* POST /v1/curve: about a microsecond of work, answered synchronously on this thread (server/curve_route.h). */
static enum MHD_Result handle_curve(ap_req *r, const char *id)
{
    char *out = NULL;
    size_t len = 0;
    int st = ap_curve_route(r->body ? r->body : "", r->body_len, &out, &len);
    return respond(r, st, out, len, "application/json");
}

static enum MHD_Result respond_stored(ap_req *r)
{
    r->t_resumed_ns = ap_clock_ns();
    char *body = r->stored;
    bool heap = r->stored_heap;
    r->stored = NULL;
    r->stored_heap = false;
    /* A render query keeps its version until the request is freed: respond_answer may start its drawing. */
    return respond_answer(r, r->stored_http, r->stored_status, body, r->stored_len, heap);
}

/* ---- the map lifecycle (PUT, DELETE, reload, PATCH; admin only) ---------------------------------------- */

/* Store an answer made off the HTTP thread (a job's, a lifecycle task's) and resume the connection, after
 * which MHD calls on_request again and respond_stored queues it; or free the request if MHD dropped the
 * connection meanwhile. body is heap-owned when heap. Any thread but MHD's. */
static void finish_offthread(ap_req *r, char *body, size_t len, bool heap, int http, int status)
{
    r->stored = body;
    r->stored_len = len;
    r->stored_heap = heap && body != NULL;
    r->stored_http = http;
    r->stored_status = status;
    int prev = atomic_exchange(&r->lanes_state, LANES_DONE);
    if (prev == LANES_ORPHAN) {
        req_free(r);
        return;
    }
    /* MHD_resume_connection is documented safe from any thread; MHD then calls on_request again with the
     * same con_cls, which queues r->stored. */
    MHD_resume_connection(r->conn);
}

/* The lifecycle thread's done hook: the new version's map info (201 new, 200 replaced), or the error. */
static void on_task_done(ap_lc_task *t, void *arg)
{
    ap_req *r = arg;
    size_t len = 0;
    int http = 200;
    char *body;
    if (t->status == AP_OK) {
        body = encode_map_info(t->ver, &len);
        http = t->replaced ? 200 : 201;
        /* the new version's ETag; not on a PUT's answer (RFC 9110 9.3.4: the stored map is not the uploaded
         * file's bytes, so a validator there would claim what it is not: GET the map info for it) */
        if (t->op != AP_LC_PUT)
            ap_map_etag(r->etag, t->ver->version, r->h->etag_boot);
        ap_map_version_release(t->ver);
        t->ver = NULL;
    } else if (t->status == AP_E_PRECONDITION_FAILED) {
        char msg[256];
        precondition_message(r, r->if_match, t->cond->seen, msg, sizeof msg);
        body = ap_wire_encode_error(t->status, msg, NULL, 0, 0, &http, &len);
    } else {
        const char *field = t->status == AP_E_INVALID_REQUEST ? t->diag.file : NULL;
        body = ap_wire_encode_error(t->status, t->diag.msg[0] ? t->diag.msg : NULL, field, t->diag.line,
                                    t->diag.col, &http, &len);
    }
    finish_offthread(r, body, len, true, body ? http : 500, t->status);
}

/* Suspend the connection and hand a task to the lifecycle thread: op on map id, with the file (PUT) or the
 * cells (PATCH), which the request keeps until the task is done. */
static enum MHD_Result hand_to_lifecycle(ap_req *r, ap_lc_op op, const char *id, const char *body, size_t len,
                                         const ap_cell_edit *cells, size_t n_cells)
{
    ap_lc_task *t = &r->task;
    memset(t, 0, sizeof *t);
    t->op = op;
    snprintf(t->id, sizeof t->id, "%s", id);
    t->body = body;
    t->len = len;
    t->cells = cells;
    t->n_cells = n_cells;
    t->done = on_task_done;
    t->arg = r;
    if (map_cond(r, &t->cond) != AP_OK)
        return respond_error(r, AP_E_NOMEM, NULL, NULL, 0, 0);
    MHD_suspend_connection(r->conn);
    atomic_store(&r->lanes_state, LANES_IN);
    if (ap_lifecycle_submit(r->h->lc, t) != AP_OK) {
        /* Stopping: answer from this thread, through the same resume as a finished task. */
        int http = 503;
        size_t n = 0;
        char *err = ap_wire_encode_error(AP_E_NOT_READY, AP_LANES_SHUTTING_DOWN, NULL, 0, 0, &http, &n);
        finish_offthread(r, err, n, true, err ? http : 500, AP_E_NOT_READY);
    }
    return MHD_YES;
}

/* May a map-changing request go ahead on the route's {id}? It must be a valid map id (else 400) and the
 * server not draining (else 503); on false the answer is queued and *ret holds what to return. */
static bool admin_target(ap_req *r, const char *id, enum MHD_Result *ret)
{
    copy_map_id(r, id);
    if (r->route_id_len >= AP_MAP_ID_MAX || !ap_map_id_valid(id, strlen(id)))
        *ret = respond_error(r, AP_E_INVALID_REQUEST, "a map id is 1 to 63 characters of A-Z a-z 0-9 _ . -, the first not .", NULL, 0, 0);
    else if (ap_registry_picture_id(id))
        *ret = respond_error(r, AP_E_INVALID_REQUEST, "a map id may not end in .svg or .png: those paths are the map pictures", NULL, 0, 0);
    else if (atomic_load(&r->h->draining))
        *ret = respond_error(r, AP_E_NOT_READY, AP_LANES_SHUTTING_DOWN, NULL, 0, 0);
    else
        return true;
    return false;
}

/* GET/HEAD: the map info; PUT: the body is a Moving AI map file (or a circle map's JSON), built on the lifecycle thread and published
 * as the id's next version; DELETE: the id's current version leaves the registry (queries running on it
 * finish on it). */
static enum MHD_Result handle_map(ap_req *r, const char *id)
{
    enum MHD_Result ret = MHD_YES;
    if (r->method_bit & (AP_METHOD_GET | AP_METHOD_HEAD))
        return respond_map_doc(r, id, encode_map_info, false);
    if (!admin_target(r, id, &ret))
        return ret;
    if (r->method_bit == AP_METHOD_DELETE) {
        ap_registry_cond *cond;
        if (map_cond(r, &cond) != AP_OK)
            return respond_error(r, AP_E_NOMEM, NULL, NULL, 0, 0);
        const int st = ap_registry_remove_if(r->h->reg, id, cond);
        if (st == AP_E_PRECONDITION_FAILED && cond != NULL) /* (only a condition refuses) */
            return respond_precondition_failed(r, cond->seen);
        if (st != AP_OK)
            return respond_unknown_map(r, NULL);
        fprintf(r->h->errlog, "arcpathd: map %s: deleted\n", r->map);
        return respond_mem(r, 204, AP_OK, (char *)"", 0, false, NULL); /* no content, so no Content-Type */
    }
    return hand_to_lifecycle(r, AP_LC_PUT, id, r->body ? r->body : "", r->body_len, NULL, 0);
}

/* POST /v1/maps/{id}/reload: read <maps dir>/<id>.map again on the lifecycle thread. */
static enum MHD_Result handle_reload(ap_req *r, const char *id)
{
    enum MHD_Result ret = MHD_YES;
    return admin_target(r, id, &ret) ? hand_to_lifecycle(r, AP_LC_RELOAD, id, NULL, 0, NULL, 0) : ret;
}

/* GET /v1/maps/{id}/cells: the map's terrain letters row by row, for the viewer (proto/cells.h).
 * PATCH: {"cells": [{"x", "y", "terrain"}, ...]} makes the id's next version, built on the lifecycle
 * thread from a copy of the current one. */
static enum MHD_Result handle_cells(ap_req *r, const char *id)
{
    enum MHD_Result ret = MHD_YES;
    if (r->method_bit & (AP_METHOD_GET | AP_METHOD_HEAD))
        return respond_map_doc(r, id, encode_map_cells, true);
    if (!admin_target(r, id, &ret))
        return ret;
    ap_wire_error we;
    size_t n = 0;
    int st = ap_wire_parse_cell_edits(r->body ? r->body : "", r->body_len, AP_MAX_CELL_EDITS, &r->cells, &n, &we);
    if (st != AP_OK)
        return respond_error(r, st, we.message[0] ? we.message : NULL, we.field, we.line, we.col);
    return hand_to_lifecycle(r, AP_LC_PATCH, id, NULL, 0, r->cells, n);
}

static int is_viewer_file(const char *path)
{
    return ap_static_find(path) != NULL;
}

/* The embedded files (server/static_route.h: the viewer's, and proto/openapi.yaml): 200 with the file, or 304 when the client's
 * If-None-Match names its ETag; respond_mem adds ETag and Cache-Control. */
static enum MHD_Result handle_viewer(ap_req *r, const char *id)
{
    const ap_static_file *f = ap_static_find(r->path); /* the URL, printable; is_viewer_file took it */
    r->static_file = f;
    bool nomem = false; /* (every If-None-Match line, as for the maps: RFC 9110 5.3) */
    char *inm = header_list(r, MHD_HTTP_HEADER_IF_NONE_MATCH, &nomem);
    if (nomem)
        return respond_error(r, AP_E_NOMEM, NULL, NULL, 0, 0);
    int http = ap_static_status(f, inm);
    free(inm);
    return respond_mem(r, http, AP_OK, (char *)f->data, http == 200 ? f->len : 0, false, f->content_type);
}

/* OPTIONS on a known route: 204 with Allow (the route's methods and OPTIONS); respond_mem adds the CORS
 * preflight headers when the Origin is allowed and Access-Control-Request-Method is present. */
static enum MHD_Result handle_options(ap_req *r)
{
    static char empty[] = "";
    return respond_mem(r, 204, AP_OK, empty, 0, false, NULL);
}

/* The compiler that built this file, for GET /v1/info: what a bug report about a build needs first. No
 * build date: __DATE__ would make every build of the same source a different binary. */
#if defined(__clang__)
#define AP_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define AP_COMPILER "gcc " __VERSION__
#else
#define AP_COMPILER "unknown"
#endif

static enum MHD_Result handle_info(ap_req *r, const char *id)
{
    const ap_config *c = r->h->cfg;
    ap_wire_info info = {
        .version = ARCPATH_VERSION,
        .compiler = AP_COMPILER,
        .max_body_bytes = c->max_body_bytes,
        .max_batch = c->max_batch,
        .max_samples = c->max_samples,
        .max_answer_bytes = c->max_answer_bytes,
        .default_deadline_ms = c->default_deadline_ms,
        .max_deadline_ms = c->max_deadline_ms,
        .maps = ap_registry_count(r->h->reg),
        .workspace_nodes = r->h->reg->capacity,
        .max_connections = c->max_connections,
        .max_maps = c->max_maps,
        .units = ap_config_units_text(c),
    };
    size_t len = 0;
    char *body = info.units != NULL ? ap_wire_encode_info(&info, &len) : NULL;
    free((char *)info.units);
    return respond(r, AP_OK, body, len, "application/json");
}

/* The routes, in the order of the metrics exposition. GET routes answer HEAD too (MHD sends no body). */
static const ap_route routes[] = {
    {AP_METHOD_POST, "/v1/path", handle_path, "/v1/path", NULL},
    {AP_METHOD_GET | AP_METHOD_HEAD, "/v1/maps", handle_maps, "/v1/maps", NULL},
    {AP_METHOD_GET | AP_METHOD_HEAD | AP_METHOD_PUT | AP_METHOD_DELETE, "/v1/maps/{id}", handle_map, "/v1/maps/{id}", NULL},
    {AP_METHOD_GET | AP_METHOD_HEAD, "/healthz", handle_healthz, "/healthz", NULL},
    {AP_METHOD_GET | AP_METHOD_HEAD, "/readyz", handle_readyz, "/readyz", NULL},
    {AP_METHOD_GET | AP_METHOD_HEAD, "/metrics", handle_metrics, "/metrics", NULL},
    {AP_METHOD_POST, "/v1/paths", handle_paths, "/v1/paths", NULL},
    {AP_METHOD_POST, "/v1/curve", handle_curve, "/v1/curve", NULL},
    {AP_METHOD_GET | AP_METHOD_HEAD, "/v1/profiles", handle_profiles, "/v1/profiles", NULL},
    {AP_METHOD_GET | AP_METHOD_HEAD | AP_METHOD_PATCH, "/v1/maps/{id}/cells", handle_cells, "/v1/maps/{id}/cells", NULL},
    {AP_METHOD_POST, "/v1/maps/{id}/reload", handle_reload, "/v1/maps/{id}/reload", NULL},
    {AP_METHOD_GET | AP_METHOD_HEAD, "/v1/info", handle_info, "/v1/info", NULL},
    /* proto/openapi.yaml, embedded with the viewer's files (tools/embed-static.sh), under its own label. */
    {AP_METHOD_GET | AP_METHOD_HEAD, "/openapi.yaml", handle_viewer, "/openapi.yaml", NULL},
    /* the same document as JSON (proto/openapi.json, bundled from the YAML by `make openapi-json`) */
    {AP_METHOD_GET | AP_METHOD_HEAD, "/openapi.json", handle_viewer, "/openapi.json", NULL},
    /* the viewer's embedded files (GET /, /viewer.js, ...), whatever the API routes leave (a row with a
     * match function is the least specific: route.h) */
    {AP_METHOD_GET | AP_METHOD_HEAD, "/ and the viewer's files", handle_viewer, "viewer", is_viewer_file},
    /* pictures (server/render_route.h); "/v1/maps/{id}.svg" is longer than "/v1/maps/{id}", so it wins
     * "/v1/maps/den520d.svg" (route.h ap_route_find) */
    {AP_METHOD_POST, "/v1/render", handle_render, "/v1/render", NULL},
    {AP_METHOD_GET | AP_METHOD_HEAD, "/v1/maps/{id}.svg", handle_map_svg, "/v1/maps/{id}.svg", NULL},
    {AP_METHOD_GET | AP_METHOD_HEAD, "/v1/maps/{id}.png", handle_map_png, "/v1/maps/{id}.png", NULL},
};
#define N_ROUTES (sizeof routes / sizeof routes[0])
_Static_assert(N_ROUTES <= AP_METRICS_ROUTES, "server/http.c: every route needs its own metrics label row");

const ap_route *ap_http_routes(size_t *n)
{
    *n = N_ROUTES;
    return routes;
}

/* The route's index in the table (the metrics' route index), -1 for none. */
static int route_index(const ap_req *r)
{
    return r->route ? (int)(r->route - routes) : -1;
}

/* ---- HTTP strictness (RFC 9112) ----------------------------------------------------------------------- */

/* What the header fields MHD parsed say about the message's framing and Host (counted over every field line,
 * since MHD_lookup_connection_value only sees the first of a repeated field). */
typedef struct header_scan {
    int n_host;
    int n_cl;
    bool cl_differ;     /* two Content-Length lines with different values */
    const char *cl;     /* the first Content-Length value */
    bool te_unsupported;/* a Transfer-Encoding other than exactly "chunked" (or more than one line) */
    bool ws_name;       /* a field name with whitespace in it ("Transfer-Encoding : chunked") */
    bool folded;        /* a framing field name with more after it: a folded line (see scan_header) */
    bool expect_100;    /* "Expect: 100-continue" */
    int n_te;
    bool ce_coded;      /* a Content-Encoding other than identity */
} header_scan;

/* Is a Content-Encoding value the identity coding: a list (RFC 9110 5.6.1) of nothing but "identity", any
 * case, whitespace about its members, empty members and an empty value allowed? */
static bool identity_coding(const char *v)
{
    for (const char *p = v != NULL ? v : ""; *p != '\0';) {
        p += strspn(p, " \t");
        const size_t n = strcspn(p, ",");
        size_t m = n;
        while (m > 0 && (p[m - 1] == ' ' || p[m - 1] == '\t'))
            m--;
        if (m > 0 && !(m == 8 && strncasecmp(p, "identity", 8) == 0))
            return false;
        p += n + (p[n] == ',');
    }
    return true;
}

/* Does key begin with one of the field names that frame or code the body, and go on after it? libmicrohttpd
 * 0.9.75 appends an obs-fold continuation line (RFC 9112 5.2: a line starting with a space or tab) to the
 * field's NAME: "Content-Length: 1\r\n 56" arrives as a field "Content-Length56" = "1", so the length was
 * lost and the body's bytes were answered as the next request (a helper's smuggled GET got 200); a front end
 * that unfolds it frames by 156. No such name is registered, so one is a fold (or a fault) either way. */
static bool framing_name_extended(const char *key)
{
    static const char *const names[] = {MHD_HTTP_HEADER_CONTENT_LENGTH, MHD_HTTP_HEADER_TRANSFER_ENCODING,
                                        MHD_HTTP_HEADER_CONTENT_ENCODING};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const size_t n = strlen(names[i]);
        if (strncasecmp(key, names[i], n) == 0 && key[n] != '\0')
            return true;
    }
    return false;
}

static enum MHD_Result scan_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    header_scan *hs = cls;
    (void)kind;
    if (strpbrk(key, " \t") != NULL) {
        hs->ws_name = true;
    } else if (framing_name_extended(key)) {
        hs->folded = true;
    } else if (strcasecmp(key, "Expect") == 0) {
        hs->expect_100 = hs->expect_100 || (value != NULL && strcasecmp(value, "100-continue") == 0);
    } else if (strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0) {
        hs->n_host++;
    } else if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
        if (hs->n_cl++ == 0)
            hs->cl = value;
        else if (strcmp(hs->cl, value ? value : "") != 0)
            hs->cl_differ = true;
    } else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
        /* chunked is the only coding MHD decodes; a list ("gzip, chunked") or a second line adds another.
         * Exactly "chunked", any case: libmicrohttpd 0.9.75 decodes no other value ("chunked " with the
         * trailing whitespace it leaves on included) and would wait for a body it cannot delimit. */
        if (hs->n_te++ > 0 || value == NULL || strcasecmp(value, "chunked") != 0)
            hs->te_unsupported = true;
    } else if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_ENCODING) == 0) {
        if (!identity_coding(value))
            hs->ce_coded = true;
    }
    return MHD_YES;
}

/* The error a request's header block earns before it is routed, or 0: an unsupported transfer coding
 * (501: MHD would wait for a body it cannot delimit), Transfer-Encoding beside Content-Length or on
 * HTTP/1.0 (400: RFC 9112 6.1 and 6.3, the framing is faulty; a front end that framed the body by
 * Content-Length would take the rest as another request — MHD went on reading after a chunked body, a
 * helper's smuggled GET was answered), conflicting Content-Length lines (400), a folded framing field (400),
 * no Host or more than one on HTTP/1.1 (400), "Expect: 100-continue" without content on HTTP/1.1 (400), a
 * Content-Encoding other than identity (415: the body is read as sent). Every 400, 415 and 501 closes the
 * connection (respond_error). *msg gets the reason. */
static int check_framing(struct MHD_Connection *conn, const char *version, const char **msg)
{
    header_scan hs = {0};
    MHD_get_connection_values(conn, MHD_HEADER_KIND, scan_header, &hs);
    if (hs.ws_name) {
        /* RFC 9112 5.1: a field name is a token, and whitespace before the colon MUST be answered 400 — a
         * front end that trims it reads "Transfer-Encoding : chunked" as chunked where libmicrohttpd keeps
         * another field and frames by Content-Length (a helper's smuggled GET was answered) */
        *msg = "whitespace in a header field name";
        return AP_E_BAD_REQUEST;
    }
    if (hs.folded) {
        *msg = "a folded header line (obs-fold), or a Content-Length, Transfer-Encoding or Content-Encoding field "
               "name with more after it";
        return AP_E_BAD_REQUEST;
    }
    if (hs.te_unsupported) {
        *msg = "unsupported Transfer-Encoding: only chunked is accepted";
        return AP_E_NOT_IMPLEMENTED;
    }
    if (hs.n_te > 0 && hs.n_cl > 0) {
        *msg = "Transfer-Encoding and Content-Length together: the body's framing is ambiguous";
        return AP_E_BAD_REQUEST;
    }
    if (hs.n_te > 0 && strcmp(version, MHD_HTTP_VERSION_1_0) == 0) {
        *msg = "Transfer-Encoding on an HTTP/1.0 request";
        return AP_E_BAD_REQUEST;
    }
    if (hs.cl_differ) {
        *msg = "conflicting Content-Length headers";
        return AP_E_BAD_REQUEST;
    }
    if (strcmp(version, MHD_HTTP_VERSION_1_0) != 0 && hs.n_host != 1) {
        *msg = hs.n_host == 0 ? "HTTP/1.1 request without a Host header" : "more than one Host header";
        return AP_E_BAD_REQUEST;
    }
    /* the request has content: a chunked body, or a Content-Length other than 0 */
    const bool content = hs.n_te > 0 || (hs.cl != NULL && strspn(hs.cl, "0 \t") != strlen(hs.cl));
    /* RFC 9110 10.1.1: a client sends 100-continue only with content. libmicrohttpd 0.9.75 sends "100
     * Continue" for one without, and with another request pipelined behind it then answers neither and closes
     * (logged "internal error"; our log said 200): refused at once instead, before any 100. HTTP/1.0 ignores
     * the expectation (as libmicrohttpd does). */
    if (hs.expect_100 && strcmp(version, MHD_HTTP_VERSION_1_0) != 0 && !content) {
        *msg = "Expect: 100-continue on a request without content";
        return AP_E_BAD_REQUEST;
    }
    /* (only a body is coded: a stray header on a request without one, a probe's GET, is no fault) */
    if (hs.ce_coded && content) {
        /* a gzip body was read as it came and answered invalid_json near '\u001F' (a jsonedge helper) */
        *msg = "the request body's Content-Encoding is not supported: send it unencoded (identity)";
        return AP_E_UNSUPPORTED_MEDIA_TYPE;
    }
    return 0;
}

static enum MHD_Result count_field(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    size_t *n = cls;
    (void)kind;
    *n += (key ? strlen(key) : 0) + (value ? strlen(value) : 0) + 4 + AP_HEAD_FIELD_OVERHEAD;
    return MHD_YES;
}

/* The request head's size as the connection's pool holds it, near enough: the request line, and each
 * header field, query argument, cookie and (once a chunked body is read) trailer field with ": " and CRLF
 * and libmicrohttpd's entry for it. Compared with AP_MAX_HEAD_BYTES. Decoded: a target's percent-escapes
 * take three times the pool they count for here. */
static size_t head_bytes(struct MHD_Connection *conn, const char *method, const char *url, const char *version)
{
    size_t n = strlen(method) + strlen(url) + strlen(version) + 4;
    MHD_get_connection_values(conn, MHD_HEADER_KIND | MHD_GET_ARGUMENT_KIND | MHD_COOKIE_KIND | MHD_FOOTER_KIND,
                              count_field, &n);
    return n;
}

/* The origin-form path of a request target: an absolute-form target ("http://host:port/v1/path", RFC 9112
 * 3.2.2) is routed as its path ("/v1/path"; "/" when it has none); any other target is returned as is.
 * MHD has already split off the query. Pure. */
static const char *origin_path(const char *url)
{
    const char *rest = NULL;
    if (strncasecmp(url, "http://", 7) == 0)
        rest = url + 7;
    else if (strncasecmp(url, "https://", 8) == 0)
        rest = url + 8;
    if (!rest)
        return url;
    const char *slash = strchr(rest, '/');
    return slash ? slash : "/";
}

/* ---- admin ---------------------------------------------------------------------------------------------- */

/* a == b over every byte of b whatever a holds: the time depends on the lengths, never on where the first
 * difference is, so a client cannot find the token byte by byte. */
static bool equal_ct(const char *a, size_t na, const char *b)
{
    size_t nb = strlen(b);
    unsigned diff = na != nb;
    for (size_t i = 0; i < nb; i++)
        diff |= (unsigned char)b[i] ^ (unsigned char)(i < na ? a[i] : 0);
    return diff == 0;
}

/* The methods of a route that change the maps and so need the admin token: PUT, DELETE and PATCH wherever
 * a route takes them, and POST to the reload route. */
static unsigned admin_methods(const ap_route *rt)
{
    return (rt->methods & (AP_METHOD_PUT | AP_METHOD_DELETE | AP_METHOD_PATCH)) |
           (rt->handler == handle_reload ? AP_METHOD_POST : 0u);
}

/* 0 when the request may use its route's map-changing method, else why not: no admin_token configured
 * (403 admin_disabled), no "Authorization: Bearer" or none after it (401), a wrong token (403). Blanks around
 * the token are not part of it (RFC 9110 5.5: a field value's trailing whitespace is not; a client that
 * wrote "Bearer <token> " was refused 403, a helper). The token is never logged. */
static int admin_check(const ap_req *r)
{
    const char *token = r->h->cfg->admin_token;
    if (token[0] == '\0')
        return AP_E_ADMIN_DISABLED;
    const char *auth = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    if (auth == NULL || strncasecmp(auth, "Bearer ", 7) != 0)
        return AP_E_UNAUTHORIZED;
    const char *given = auth + 7;
    while (*given == ' ' || *given == '\t')
        given++;
    size_t n = strlen(given);
    while (n > 0 && (given[n - 1] == ' ' || given[n - 1] == '\t'))
        n--;
    if (n == 0)
        return AP_E_UNAUTHORIZED;
    return equal_ct(given, n, token) ? 0 : AP_E_FORBIDDEN;
}

/* A PUT of a map of a valid id the registry has no version of while it holds max_maps: refused on the first
 * call (409 map_limit), before the body (up to max_map_upload_bytes) is read. The lifecycle thread asks again
 * before it parses (the registry may have changed since), and so does the publish. Not a reload: it has no
 * body, and the lifecycle thread first looks for the file, so that an id with no file is 404 unknown_map as
 * the route table says, not 409 (a helper), and the limit is checked before the file is read. */
static bool adds_map_over_limit(const ap_req *r)
{
    const bool adds = r->route != NULL && r->route->handler == handle_map && r->method_bit == AP_METHOD_PUT;
    /* (an id no map may have, or a draining server, is answered by admin_target as below the limit) */
    return adds && r->route_id_len < AP_MAP_ID_MAX && ap_map_id_valid(r->route_id, strlen(r->route_id)) &&
           !ap_registry_picture_id(r->route_id) && !atomic_load(&r->h->draining) &&
           ap_registry_full_for(r->h->reg, r->route_id);
}

/* The answer to a request refused on its first call (r->early). */
static enum MHD_Result respond_early(ap_req *r)
{
    if (r->early != AP_E_MAP_LIMIT)
        return respond_error(r, r->early, NULL, NULL, 0, 0);
    char msg[256];
    copy_map_id(r, r->route_id);
    ap_registry_limit_message(msg, sizeof msg, r->h->reg, r->route_id);
    return respond_error(r, AP_E_MAP_LIMIT, msg, NULL, 0, 0);
}

/* ---- connections and the request-time watchdog ---------------------------------------------------------- */

/* A held connection is closed to make room for a waiting client only once its request has been arriving
 * this long: a client that has just connected has not had the time to send its request. */
#define AP_EVICT_MIN_AGE_NS 200000000ULL
/* An upload counts as moving (moved_ns) each time this many more bytes of its body have arrived: one that
 * trickles a byte at a time (8 connections at 1 byte per 100 ms held a full server 9.5 s, a helper) does
 * not, one arriving at 20 KB/s or more (4 KiB per AP_EVICT_MIN_AGE_NS) does. */
#define AP_EVICT_MOVE_BYTES 4096u
/* How often the watchdog looks at the accept queue while the server is full. */
#define AP_FULL_PERIOD_NS 50000000ULL

/* True when a client waits in the listening socket's accept queue (MHD does not accept while it holds
 * max_connections). A peek: poll(2) never accepts. */
static bool client_waits(const ap_http *h)
{
    const int fd = atomic_load(&h->listen_fd);
    struct pollfd p = {.fd = fd, .events = POLLIN};
    return fd >= 0 && poll(&p, 1, 0) == 1 && (p.revents & POLLIN) != 0;
}

/* True when bytes wait unread on fd (a peek: nothing is consumed). */
static bool unread_bytes(int fd)
{
    char c;
    return recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 1;
}

/* Under conns_mu: shut c down (MHD sees the end of the stream, closes it and sends "closed"). Until then
 * it is still open and counted (n_cut says how many such). */
static void conn_cut(ap_http *h, ap_conn *c)
{
    shutdown(c->fd, SHUT_RDWR);
    c->cut = true;
    h->n_cut++;
}

/* Under conns_mu. The server holds max_connections (not counting connections already shut down and about to
 * close: one waiting client costs one place) and a client waits to be accepted: shut down the connection
 * that has been waiting longest (moved_ns: since it opened, its request's head arrived, or 4 KiB more of its
 * body did) for (more of) a request, if for at least AP_EVICT_MIN_AGE_NS — an idle kept-alive one only when
 * no other can go, and none with bytes unread — so that MHD accepts the waiting client. Without it, connections held by slow clients from more addresses than max_connections /
 * max_connections_per_ip locked every other client out until request_timeout_ms (a helper: 9 addresses x
 * 64 held sockets, probes waiting 9-15 s). A connection whose request has arrived (a search runs, an answer
 * is sent) is never chosen, nor an upload whose body is arriving. */
static void evict_for_waiting(ap_http *h, uint64_t now)
{
    if (h->n_conns - h->n_cut < (size_t)h->cfg->max_connections || atomic_load(&h->draining) || !client_waits(h))
        return;
    ap_conn *stalest = NULL;
    uint64_t stalest_ns = 0;
    bool stalest_idle = true;
    for (ap_conn *c = h->conns->next; c != h->conns; c = c->next) {
        const uint64_t moved = atomic_load(&c->moved_ns);
        if (c->cut || !atomic_load(&c->reading) || now <= moved || now - moved < AP_EVICT_MIN_AGE_NS)
            continue;
        /* a connection kept alive and idle goes only when no other can: a pooled client reusing it at that
         * moment sees its request fail (a helper: 4 % of a naive pool's POSTs at the limit) */
        const bool idle = atomic_load(&c->idle);
        if (stalest == NULL || (stalest_idle && !idle) || (idle == stalest_idle && moved < stalest_ns)) {
            if (unread_bytes(c->fd)) /* a request arriving that the HTTP thread has not read yet */
                continue;
            stalest = c;
            stalest_ns = moved;
            stalest_idle = idle;
        }
    }
    if (stalest == NULL || !atomic_load(&stalest->reading)) /* (its request may have been read meanwhile) */
        return;
    conn_cut(h, stalest);
    ap_metrics_connection_evicted(h->metrics);
}

/* MHD's connection notifications (any MHD thread): track each open connection for the watchdog. */
static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    ap_http *h = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        ap_conn *c = ci ? calloc(1, sizeof *c) : NULL;
        if (!c)
            return; /* untracked: only the idle timeout applies to it */
        c->fd = (int)ci->connect_fd;
        const uint64_t now = ap_clock_ns();
        atomic_init(&c->since_ns, now);
        atomic_init(&c->moved_ns, now);
        atomic_init(&c->idle, false);
        atomic_init(&c->reading, true);
        pthread_mutex_lock(&h->conns_mu);
        c->next = h->conns->next;
        c->prev = h->conns;
        h->conns->next->prev = c;
        h->conns->next = c;
        h->n_conns++;
        ap_metrics_set_connections(h->metrics, h->n_conns);
        if (h->n_conns - h->n_cut >= (size_t)h->cfg->max_connections) {
            evict_for_waiting(h, now); /* this one filled the server and another client waits */
            pthread_cond_signal(&h->conns_cv); /* the watchdog looks at the queue often from now on */
        }
        pthread_mutex_unlock(&h->conns_mu);
        *socket_context = c;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        ap_conn *c = *socket_context;
        if (!c)
            return;
        *socket_context = NULL;
        pthread_mutex_lock(&h->conns_mu);
        c->prev->next = c->next;
        c->next->prev = c->prev;
        h->n_conns--;
        if (c->cut)
            h->n_cut--;
        ap_metrics_set_connections(h->metrics, h->n_conns);
        pthread_mutex_unlock(&h->conns_mu);
        free(c);
    }
}

/* The watchdog thread: a few times per request_timeout_ms (at most every 0.25 s), shut down every connection
 * whose request has been arriving for longer than that, and every one still waiting for (more of) a request
 * after one period whose client has closed it. shutdown(2), not close: MHD owns the descriptor; it sees the
 * end of the stream, closes the connection itself and sends "closed" (which unlinks the entry). The second
 * case is libmicrohttpd's (0.9.75, edge-triggered epoll): a client that sent the headers of a request with a
 * body and closed at once left a connection MHD did not read again, held (in flight, counted against the
 * client's address) until request_timeout_ms. After a period, not at once: a client that half-closed after
 * a whole request is read by then and is not "reading". */
static void *watchdog_main(void *arg)
{
    ap_http *h = arg;
    uint64_t limit_ns = (uint64_t)h->cfg->request_timeout_ms * 1000000ULL;
    uint64_t period_ns = limit_ns / 8;
    if (period_ns > 250000000ULL)
        period_ns = 250000000ULL;
    pthread_mutex_lock(&h->conns_mu);
    while (!h->watchdog_stop) {
        uint64_t now = ap_clock_ns();
        for (ap_conn *c = h->conns->next; c != h->conns; c = c->next) {
            uint64_t since = atomic_load(&c->since_ns);
            if (c->cut || !atomic_load(&c->reading) || now <= since)
                continue;
            if (now - since > limit_ns || (now - since > period_ns && peer_closed(c->fd)))
                conn_cut(h, c);
        }
        evict_for_waiting(h, now);
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        /* full: look at the accept queue more often (a client waits at most this long for a place) */
        const bool full = h->n_conns - h->n_cut >= (size_t)h->cfg->max_connections;
        uint64_t ns = (uint64_t)until.tv_nsec + (full && period_ns > AP_FULL_PERIOD_NS ? AP_FULL_PERIOD_NS : period_ns);
        until.tv_sec += (time_t)(ns / 1000000000ULL);
        until.tv_nsec = (long)(ns % 1000000000ULL);
        pthread_cond_timedwait(&h->conns_cv, &h->conns_mu, &until);
    }
    pthread_mutex_unlock(&h->conns_mu);
    return NULL;
}

/* The request on this connection has arrived whole (or been answered early): the watchdog leaves it alone
 * until the answer is queued. */
static void conn_request_read(ap_req *r)
{
    if (r->cn)
        atomic_store(&r->cn->reading, false);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    ap_http *h = cls;
    ap_req *r = *con_cls;

    if (!r) {
        r = req_new(h);
        if (!r)
            return MHD_NO;
        *con_cls = r;
        r->h = h;
        r->conn = conn;
        r->t0_ns = ap_clock_ns();
        clock_gettime(CLOCK_REALTIME, &r->wall0);
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
        r->cn = ci ? ci->socket_context : NULL;
        if (r->cn != NULL) { /* a request's head has arrived: 200 ms more before room is made from it */
            atomic_store(&r->cn->moved_ns, r->t0_ns);
            atomic_store(&r->cn->idle, false);
        }
        url = origin_path(url);
        unsigned method_bit = ap_method_bit(method);
        const char *seg = NULL;
        int ri = ap_route_find(routes, N_ROUTES, method_bit, url, &r->allowed, &seg);
        r->route = ri >= 0 ? &routes[ri] : NULL;
        r->has_id = seg != NULL;
        if (seg != NULL && r->route != NULL) { /* (ap_route_find names a segment only for a route it returns) */
            size_t n = ap_route_id_len(r->route->pattern, seg);
            r->route_id_len = n;
            n = n < sizeof r->route_id - 1 ? n : sizeof r->route_id - 1;
            memcpy(r->route_id, seg, n);
            r->route_id[n] = '\0';
        }
        r->method_bit = method_bit;
        copy_printable(r->method, sizeof r->method, method);
        copy_printable(r->path, sizeof r->path, url);
        atomic_init(&r->lanes_state, LANES_NONE);
        atomic_fetch_add(&h->inflight, 1);
        ap_metrics_inflight_add(h->metrics, 1);

        char idbuf[REQUEST_ID_MAX + 1];
        const char *cid = header_trimmed(conn, "X-Request-ID", idbuf, sizeof idbuf);
        if (ap_http_valid_request_id(cid)) /* at most REQUEST_ID_MAX bytes */
            memcpy(r->id, cid, strlen(cid) + 1);
        else
            put_hex16(r->id, mix64(h->id_seed ^ atomic_fetch_add(&h->id_counter, 1)));

        const char *why = NULL;
        int bad = check_framing(conn, version, &why);
        if (!bad && head_bytes(conn, method, url, version) > AP_MAX_HEAD_BYTES)
            bad = AP_E_HEADER_TOO_LARGE;
        if (bad) {
            conn_request_read(r);
            return respond_error(r, bad, why, NULL, 0, 0);
        }
        char tpbuf[128];
        r->has_trace = ap_traceparent_parse(header_trimmed(conn, "traceparent", tpbuf, sizeof tpbuf), &r->trace);
        r->options = r->route != NULL && method_bit == AP_METHOD_OPTIONS;
        if (!r->route)
            r->early = AP_E_NOT_FOUND;
        else if (!(method_bit & r->allowed) && !r->options)
            r->early = AP_E_METHOD_NOT_ALLOWED;
        else if (method_bit & admin_methods(r->route))
            r->early = admin_check(r); /* before a byte of the body is read */
        if (r->early == 0 && adds_map_over_limit(r))
            r->early = AP_E_MAP_LIMIT; /* likewise: a map upload's body is up to max_map_upload_bytes */

        const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        const char *te = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
        bool has_body = te != NULL || (cl && strcmp(cl, "0") != 0);
        /* (a body a route does not read counts too: a GET's was read and dropped until the request timeout, 20 GB
         * of it, where its Content-Length had said so at once) */
        r->body_expected = SIZE_MAX; /* (chunked: its end is the final call) */
        if (cl) {
            errno = 0;
            const unsigned long long n = strtoull(cl, NULL, 10);
            const bool range = errno == ERANGE;
            if (!range && n < SIZE_MAX)
                r->body_expected = (size_t)n;
            /* Refuse before reading a byte (and before "100 Continue"): the client learns at once. (A value
             * past 2^64 - 1 is refused by libmicrohttpd 0.9.75 itself, README "Connection limits"; ERANGE
             * stays for a libmicrohttpd that passes it on.) */
            if (!r->early && (range || n > body_limit(r))) {
                conn_request_read(r);
                return respond_error(r, AP_E_PAYLOAD_TOO_LARGE, NULL, NULL, 0, 0);
            }
        }
        /* A response queued on this first call makes MHD close the connection after it (it will not read
         * the body), so only refusals of requests that carry a body go out now; everything else is answered
         * on the final call and keeps the connection alive. */
        if (r->early && has_body) {
            conn_request_read(r);
            return respond_early(r);
        }
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
        size_t max = body_limit(r);
        r->bytes_in += n;
        if (r->cn != NULL && (r->bytes_in - r->moved_bytes >= AP_EVICT_MOVE_BYTES || r->bytes_in >= r->body_expected)) {
            atomic_store(&r->cn->moved_ns, ap_clock_ns()); /* an upload that moves is not evicted */
            r->moved_bytes = r->bytes_in;
        }
        *upload_data_size = 0;
        if (r->too_large || r->early)
            return MHD_YES;
        if (!takes_body(r)) { /* only the POST routes have a body we use; others are read and dropped */
            r->too_large = r->bytes_in > max; /* (a chunked one past the limit: 413 at its end, as below) */
            return MHD_YES;
        }
        if (n > max || r->body_len > max - n) {
            /* A chunked body (no Content-Length) went over: keep reading and discarding, so the 413 can be
             * sent as a proper answer at the end rather than by resetting the connection. */
            r->too_large = true;
            if (r->body_heap)
                free(r->body);
            r->body = NULL;
            r->body_len = r->body_cap = 0;
            r->body_heap = false;
            return MHD_YES;
        }
        if (!r->body) {
            r->body = r->arena_body;
            r->body_cap = sizeof r->arena_body;
        }
        if (r->body_len + n > r->body_cap) {
            size_t cap = r->body_cap * 2;
            while (cap < r->body_len + n)
                cap *= 2;
            if (cap > max)
                cap = max;
            char *nb = r->body_heap ? realloc(r->body, cap) : malloc(cap);
            if (!nb)
                return MHD_NO;
            if (!r->body_heap)
                memcpy(nb, r->body, r->body_len);
            r->body = nb;
            r->body_cap = cap;
            r->body_heap = true;
        }
        memcpy(r->body + r->body_len, upload_data, n);
        r->body_len += n;
        return MHD_YES;
    }

    conn_request_read(r); /* the final call: headers and body are all in */
    if (atomic_load(&r->lanes_state) == LANES_DONE)
        return respond_stored(r); /* called again after MHD_resume_connection */
    if (r->early)
        return respond_early(r);
    if (r->too_large)
        return respond_error(r, AP_E_PAYLOAD_TOO_LARGE, NULL, NULL, 0, 0);
    /* a chunked body's trailer fields are in the pool now too (head_bytes counts them) */
    if (head_bytes(conn, method, url, version) > AP_MAX_HEAD_BYTES)
        return respond_error(r, AP_E_HEADER_TOO_LARGE, NULL, NULL, 0, 0);
    r->t_body_ns = ap_clock_ns();
    if (r->options)
        return handle_options(r);
    return r->route->handler(r, r->has_id ? r->route_id : NULL);
}

/* ---- completion (MHD thread) -------------------------------------------------------------------------- */

/* Append s as a JSON string. Every logged string is printable ASCII already (copy_printable, the request
 * id rules, static names), so only '"' and '\\' need escaping. */
static size_t log_str(char *buf, size_t at, size_t cap, const char *s)
{
    if (at + 1 < cap)
        buf[at++] = '"';
    for (; *s && at + 3 < cap; s++) {
        if (*s == '"' || *s == '\\')
            buf[at++] = '\\';
        buf[at++] = *s;
    }
    if (at + 1 < cap)
        buf[at++] = '"';
    return at;
}

/* Append len bytes of s, cut at cap. */
static size_t log_raw(char *buf, size_t at, size_t cap, const char *s, size_t len)
{
    if (at >= cap)
        return at;
    if (len > cap - at)
        len = cap - at;
    memcpy(buf + at, s, len);
    return at + len;
}

#define LOG_LIT(buf, at, cap, lit) log_raw((buf), (at), (cap), (lit), sizeof(lit) - 1)

static size_t log_u64(char *buf, size_t at, size_t cap, uint64_t v)
{
    char d[20];
    return log_raw(buf, at, cap, d, ap_u64_digits(d, v));
}

/* v as exactly width decimal digits, zero-padded (v < 10^width). */
static void put_fixed(char *out, unsigned v, int width)
{
    for (int i = width - 1; i >= 0; i--, v /= 10)
        out[i] = (char)('0' + v % 10);
}

/* One JSON line per request, formatted by hand: building it with jansson cost more than the short search
 * it reports on, and snprintf cost a fifth of a short query's server time (callgrind). The keys and their
 * order are unchanged. */
#define ACCESS_LINE_MAX                                                                                        \
    (2 * (sizeof((ap_req *)0)->id + sizeof((ap_req *)0)->method + sizeof((ap_req *)0)->path +                  \
          sizeof((ap_req *)0)->map) +                                                                            \
     512) /* the field names, numbers, lane, trace ids and result: under 300 bytes */

static void access_log(ap_req *r, uint64_t dur_ns)
{
    ap_http *h = r->h;
    /* The broken-down time changes once a second: gmtime_r only then (per thread: any MHD thread logs). */
    static _Thread_local time_t tm_of = (time_t)-1;
    static _Thread_local struct tm tm;
    if (r->wall0.tv_sec != tm_of) {
        gmtime_r(&r->wall0.tv_sec, &tm);
        tm_of = r->wall0.tv_sec;
    }
    /* Room for the longest line: every client-chosen string escaped to twice its length (the id, method,
     * path and map: quotes and backslashes) and the rest. Built in 1,024 bytes, such a line was cut
     * mid-string: not JSON, its "result" lost (a helper). */
    char line[ACCESS_LINE_MAX];
    size_t cap = sizeof line - 2, n;
    char ts[] = "{\"ts\":\"YYYY-MM-DDTHH:MM:SS.mmmZ\",\"id\":";
    char *t = ts + 7;
    put_fixed(t, (unsigned)(tm.tm_year + 1900) % 10000, 4);
    put_fixed(t + 5, (unsigned)tm.tm_mon + 1, 2);
    put_fixed(t + 8, (unsigned)tm.tm_mday, 2);
    put_fixed(t + 11, (unsigned)tm.tm_hour, 2);
    put_fixed(t + 14, (unsigned)tm.tm_min, 2);
    put_fixed(t + 17, (unsigned)tm.tm_sec % 100, 2); /* a leap second is 60 */
    put_fixed(t + 20, (unsigned)(r->wall0.tv_nsec / 1000000L) % 1000, 3);
    n = log_raw(line, 0, cap, ts, sizeof ts - 1);
    n = log_str(line, n, cap, r->id);
    n = LOG_LIT(line, n, cap, ",\"method\":");
    n = log_str(line, n, cap, r->method);
    n = LOG_LIT(line, n, cap, ",\"path\":");
    n = log_str(line, n, cap, r->path);
    n = LOG_LIT(line, n, cap, ",\"status\":");
    n = log_u64(line, n, cap, (uint64_t)(r->status > 0 ? r->status : 0));
    n = LOG_LIT(line, n, cap, ",\"duration_us\":");
    n = log_u64(line, n, cap, dur_ns / 1000);
    n = LOG_LIT(line, n, cap, ",\"bytes_in\":");
    n = log_u64(line, n, cap, (uint64_t)r->bytes_in);
    if (r->lane) {
        n = LOG_LIT(line, n, cap, ",\"lane\":");
        n = log_str(line, n, cap, r->lane);
    }
    if (r->map[0]) {
        n = LOG_LIT(line, n, cap, ",\"map\":");
        n = log_str(line, n, cap, r->map);
    }
    if (r->has_trace) { /* W3C traceparent: lowercase hex only, nothing to escape */
        n = LOG_LIT(line, n, cap, ",\"trace_id\":\"");
        n = log_raw(line, n, cap, r->trace.trace_id, strlen(r->trace.trace_id));
        n = LOG_LIT(line, n, cap, "\",\"parent_id\":\"");
        n = log_raw(line, n, cap, r->trace.parent_id, strlen(r->trace.parent_id));
        n = LOG_LIT(line, n, cap, "\"");
    }
    n = LOG_LIT(line, n, cap, ",\"result\":");
    n = log_str(line, n, cap, r->result ? r->result : (r->responded ? "ok" : "aborted"));
    line[n++] = '}';
    line[n++] = '\n';
    /* Appended whole, never written here (accesslog.h): main.c's loop timer writes it out. */
    ap_accesslog_line(h->log, line, n);
}

/* Stage durations of a fast-lane path request that went the whole way (metrics.h, ap_stage). */
static void observe_stages(ap_req *r, uint64_t t_done)
{
    const ap_job *j = &r->job;
    uint64_t ns[AP_STAGE_COUNT];
    uint64_t worker_end = j->t_first_ns + j->search_ns + j->encode_ns; /* (encoded there, or encode_ns 0) */
    ns[AP_STAGE_READ] = r->t_body_ns - r->t0_ns;
    ns[AP_STAGE_PARSE] = j->t_submit_ns - r->t_body_ns;
    ns[AP_STAGE_TO_LOOP] = j->t_admit_ns - j->t_submit_ns;
    ns[AP_STAGE_TO_POOL] = j->t_first_ns - j->t_admit_ns;
    ns[AP_STAGE_SEARCH] = j->search_ns;
    ns[AP_STAGE_FROM_POOL] = j->t_back_ns > worker_end ? j->t_back_ns - worker_end : 0;
    ns[AP_STAGE_ENCODE] = j->encode_ns + (j->t_encoded_ns - j->t_back_ns);
    ns[AP_STAGE_TO_HTTP] = r->t_resumed_ns - j->t_encoded_ns;
    ns[AP_STAGE_RESPOND] = r->t_queued_ns - r->t_resumed_ns;
    ns[AP_STAGE_SEND] = t_done - r->t_queued_ns;
    ns[AP_STAGE_TOTAL] = t_done - r->t0_ns;
    ap_metrics_observe_stages(r->h->metrics, ns);
}

/* Release what the request holds and recycle its block. Any thread (the loop thread frees orphans). */
static void req_free(ap_req *r)
{
    ap_http *h = r->h;
    if (r->body_heap)
        free(r->body);
    if (r->stored_heap)
        free(r->stored);
    ap_jbuf_free(&r->job.out); /* heap only; arena storage needs nothing */
    ap_wire_batch_free(&r->batch);
    free(r->items);
    free(r->cells);
    free(r->if_match);
    free(r->if_none_match);
    release_version(r);
    ap_render_request_free(r->render);
    free(r->render);
    if (r->draw_json_heap)
        free(r->draw_json);
    pthread_mutex_lock(&h->pool_mu);
    if (h->pool_n < POOL_MAX) {
        r->next_free = h->pool;
        h->pool = r;
        h->pool_n++;
        r = NULL;
    }
    pthread_mutex_unlock(&h->pool_mu);
    free(r);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode toe)
{
    ap_http *h = cls;
    ap_req *r = *con_cls;
    (void)conn;
    if (!r)
        return;
    *con_cls = NULL;
    uint64_t now = ap_clock_ns(), dur = now - r->t0_ns;
    if (!r->responded && atomic_load(&r->lanes_state) == LANES_DONE) {
        /* An answer made off the HTTP thread that was never queued: libmicrohttpd (0.9.75) read the end of
         * the client's stream when it resumed the connection and closed it before calling on_request again
         * (a client that half-closed after its request). The client had closed its side: a 499
         * client_closed in the log and the metrics, as an answer no client reads, not an unlogged abort. */
        const ap_error_info *e = ap_error_lookup(AP_E_CLIENT_CLOSED);
        r->responded = true;
        r->status = e->http;
        r->result = e->code;
    }
    /* An answer queued but not sent whole: the client went away while it was written, or libmicrohttpd found
     * no room in the connection's pool for its header lines (a head near the pool's size that passed
     * head_bytes: escaped characters, an absolute-form target or chunk trailers take more of the pool than
     * the decoded fields show). Logged as what it is, under the status the server answered. */
    if (r->responded && toe != MHD_REQUEST_TERMINATED_COMPLETED_OK &&
        r->status != ap_error_lookup(AP_E_CLIENT_CLOSED)->http)
        r->result = "unsent";
    if (r->responded)
        ap_metrics_observe_request(h->metrics, route_index(r), r->status, dur);
    if (r->responded && r->status == 200 && r->route && r->route->handler == handle_path && r->t_resumed_ns &&
        r->job.t_encoded_ns && r->job.lane == AP_LANE_FAST)
        observe_stages(r, r->t0_ns + dur);
    if (h->log)
        access_log(r, dur);
    if (r->cn) {
        /* The answer is out: the next request on this connection has request_timeout_ms from now. */
        atomic_store(&r->cn->since_ns, now);
        atomic_store(&r->cn->moved_ns, now);
        atomic_store(&r->cn->idle, true);
        atomic_store(&r->cn->reading, true);
    }
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
    bool heap = job->out.heap && job->body != NULL;
    if (heap)
        ap_jbuf_init(&job->out, NULL, 0); /* the block now belongs to r->stored */
    r->lane = ap_metrics_lane_name(job->lane);
    r->pre_gzipped = job->gzipped;
    if (r->h->tablework != NULL)
        ap_tablework_offer(r->h->tablework, r->ver);
    if (r->render == NULL)
        release_version(r); /* the answer is written, or the picture drawn: the map version may go (a render
                             * query's answer is drawn after this; req_free releases it) */
    finish_offthread(r, job->body, job->body_len, heap, job->http_status, job->status);
}

/* libmicrohttpd's own unescaping of the URL and its arguments, except where they hold an escaped NUL
 * (%00): decoded, the handler's C string would end there, so "/v1/maps/arena%00x" named arena (a helper's
 * DELETE removed it) and "/healthz%00junk" answered as /healthz. Left as sent, "%00" is no character of a
 * route or a map id: 404 `not_found` or the id's 400. */
static size_t unescape_no_nul(void *cls, struct MHD_Connection *c, char *s)
{
    (void)cls;
    (void)c;
    for (const char *p = strchr(s, '%'); p != NULL; p = strchr(p + 1, '%'))
        if (p[1] == '0' && p[2] == '0')
            return strlen(s);
    return MHD_http_unescape(s);
}

/* libmicrohttpd's messages (connection limits, malformed requests, ...) on stderr, rate-limited: clients
 * cause them, one per connection at will (server/loglimit.h says why). Any MHD thread. */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    ap_http *h = cls;
    uint64_t dropped = 0;
    if (!ap_loglimit_take(&h->mhd_log, ap_clock_ns(), &dropped))
        return;
    char line[512];
    vsnprintf(line, sizeof line, fmt, ap);
    size_t n = strlen(line);
    while (n > 0 && line[n - 1] == '\n')
        line[--n] = '\0';
    if (dropped > 0)
        fprintf(h->errlog, "arcpathd: libmicrohttpd: %s (and %llu such messages dropped before it)\n", line,
                (unsigned long long)dropped);
    else
        fprintf(h->errlog, "arcpathd: libmicrohttpd: %s\n", line);
}

int ap_http_start(ap_http *h, const ap_config *cfg, ap_registry *reg, ap_lifecycle *lc, ap_lanes *lanes,
                  ap_metrics *metrics, ap_accesslog *log, FILE *errlog, char *err, size_t errlen)
{
    memset(h, 0, sizeof *h);
    h->errlog = errlog != NULL ? errlog : stderr;
    if (ap_budget_init(&h->budget, cfg->profile_evictions_per_minute) != 0) {
        snprintf(err, errlen, "out of memory");
        return AP_E_NOMEM;
    }
    ap_loglimit_init(&h->mhd_log, 20, 1000000000ull);
    h->cfg = cfg;
    h->reg = reg;
    h->lc = lc;
    h->lanes = lanes;
    h->metrics = metrics;
    h->log = log;
    h->quiesced_fd = -1;
    ap_metrics_set_routes(metrics, routes, N_ROUTES);
    atomic_init(&h->draining, false);
    atomic_init(&h->id_counter, 0);
    atomic_init(&h->inflight, 0);
    pthread_mutex_init(&h->pool_mu, NULL);
    h->pool = NULL;
    h->pool_n = 0;
    h->conns = calloc(1, sizeof *h->conns);
    if (!h->conns) {
        pthread_mutex_destroy(&h->pool_mu);
        ap_budget_free(&h->budget);
        ap_loglimit_destroy(&h->mhd_log);
        h->cfg = NULL;
        snprintf(err, errlen, "out of memory");
        return AP_E_NOMEM;
    }
    h->conns->next = h->conns->prev = h->conns;
    h->n_conns = 0;
    h->n_cut = 0;
    atomic_init(&h->listen_fd, -1);
    pthread_mutex_init(&h->conns_mu, NULL);
    h->static_gz = ap_static_gzip_all(); /* NULL (out of memory): the files go out uncompressed */
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* the watchdog's waits ignore wall-clock jumps */
    pthread_cond_init(&h->conns_cv, &ca);
    pthread_condattr_destroy(&ca);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    h->id_seed = mix64((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec) ^ (uint64_t)getpid();
    h->etag_boot = (uint32_t)(mix64(~h->id_seed) >> 32); /* (not a request id's digits: those mix id_seed ^ n) */

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
    /* http_threads > 1: MHD's thread pool (each thread polls its own share of the connections); 1: the
     * one internal polling thread. Chosen by measurement (README "Performance"). */
    h->daemon = MHD_start_daemon(flags, cfg->listen_port, NULL, NULL, on_request, h,
                                 /* First, so that MHD's own messages about the options go through it too
                                  * (else it warns at every start that some may not) */
                                 MHD_OPTION_EXTERNAL_LOGGER, mhd_log, h,
                                 MHD_OPTION_SOCK_ADDR, v6 ? (struct sockaddr *)&sa6 : (struct sockaddr *)&sa,
                                 MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)cfg->idle_timeout_s,
                                 MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)AP_CONN_MEMORY,
                                 /* At the total limit MHD stops accepting (the rest wait in the backlog,
                                  * until evict_for_waiting makes room); over the per-address cap it
                                  * closes the new connection at once. */
                                 MHD_OPTION_CONNECTION_LIMIT, (unsigned int)cfg->max_connections,
                                 MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)cfg->max_connections_per_ip,
                                 MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
                                 MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
                                 MHD_OPTION_UNESCAPE_CALLBACK, unescape_no_nul, NULL,
                                 /* Last on purpose: with one thread the list ends here, since MHD warns
                                  * about an explicit pool size of 0. */
                                 cfg->http_threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END,
                                 (unsigned int)cfg->http_threads, MHD_OPTION_END);
    if (!h->daemon) {
        pthread_mutex_destroy(&h->pool_mu);
        pthread_mutex_destroy(&h->conns_mu);
        pthread_cond_destroy(&h->conns_cv);
        free(h->conns);
        h->conns = NULL;
        ap_budget_free(&h->budget);
        ap_loglimit_destroy(&h->mhd_log);
        ap_static_gzip_free(h->static_gz);
        h->static_gz = NULL;
        h->cfg = NULL; /* nothing for ap_http_stop to release */
        /* libmicrohttpd's own line just before says why (the port taken, no permission, or no thread or
         * memory to start its own: the guess "address in use" was wrong under a memory limit) */
        snprintf(err, errlen, "cannot listen on %s%s%s:%u (libmicrohttpd's line above says why)", v6 ? "[" : "",
                 cfg->listen_host, v6 ? "]" : "", (unsigned)cfg->listen_port);
        return AP_E_IO;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(h->daemon, MHD_DAEMON_INFO_BIND_PORT);
    h->port = info ? info->port : cfg->listen_port;
    info = MHD_get_daemon_info(h->daemon, MHD_DAEMON_INFO_LISTEN_FD);
    if (info != NULL)
        atomic_store(&h->listen_fd, (int)info->listen_fd);
    h->watchdog_on = pthread_create(&h->watchdog, NULL, watchdog_main, h) == 0;
    if (!h->watchdog_on) {
        ap_http_stop(h);
        snprintf(err, errlen, "cannot start the request-time watchdog thread");
        return AP_E_NOMEM;
    }
    return AP_OK;
}

void ap_http_begin_drain(ap_http *h)
{
    if (atomic_exchange(&h->draining, true))
        return;
    atomic_store(&h->listen_fd, -1); /* MHD hands it over: no more peeks at its queue */
    if (h->daemon) {
        MHD_socket fd = MHD_quiesce_daemon(h->daemon);
        h->quiesced_fd = fd == MHD_INVALID_SOCKET ? -1 : (int)fd;
        /* Quiescing only stops MHD calling accept(): the kernel would go on completing handshakes into the
         * backlog, and those clients would be reset unanswered when the socket closes. Shutting the socket
         * down stops the listening itself (Linux: the backlog is reset now, later connects are refused),
         * while the descriptor stays open, as MHD requires of a quiesced socket until MHD_stop_daemon. */
        if (h->quiesced_fd >= 0)
            shutdown(h->quiesced_fd, SHUT_RDWR);
    }
}

int64_t ap_http_inflight(ap_http *h)
{
    return (int64_t)atomic_load(&h->inflight);
}

void ap_http_stop(ap_http *h)
{
    atomic_store(&h->listen_fd, -1); /* MHD_stop_daemon closes it: no peek may meet its number reused */
    if (h->watchdog_on) {
        pthread_mutex_lock(&h->conns_mu);
        h->watchdog_stop = true;
        pthread_cond_signal(&h->conns_cv);
        pthread_mutex_unlock(&h->conns_mu);
        pthread_join(h->watchdog, NULL);
        h->watchdog_on = false;
    }
    if (h->daemon) {
        MHD_stop_daemon(h->daemon);
        h->daemon = NULL;
    }
    /* MHD leaves a quiesced socket to us, and it may only be closed after MHD_stop_daemon. */
    if (h->quiesced_fd >= 0) {
        close(h->quiesced_fd);
        h->quiesced_fd = -1;
    }
    if (h->cfg) {
        /* Every connection is closed and every request completed: the free list is all that is left. */
        while (h->pool) {
            ap_req *r = h->pool;
            h->pool = r->next_free;
            free(r);
        }
        h->pool_n = 0;
        pthread_mutex_destroy(&h->pool_mu);
        /* MHD sent "closed" for every connection: the list is only its sentinel. */
        free(h->conns);
        h->conns = NULL;
        pthread_mutex_destroy(&h->conns_mu);
        pthread_cond_destroy(&h->conns_cv);
        ap_budget_free(&h->budget);
        ap_loglimit_destroy(&h->mhd_log);
        ap_static_gzip_free(h->static_gz);
        h->static_gz = NULL;
        h->cfg = NULL;
    }
}
