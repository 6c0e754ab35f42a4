/* http.h — the libmicrohttpd front: routes, body limits, request validation, suspend/resume hand-off to
 * the lanes, X-Request-ID, metrics and the JSON access log (with the caller's W3C traceparent ids), and
 * the HTTP conventions around every answer: CORS (cors.h), gzip for clients that accept it (gzip.h) and
 * OPTIONS.
 *
 * Threads: MHD runs one internal polling thread (epoll where available), or a pool of them
 * (http_threads), which calls every handler; a request stays on one thread, so its state needs no locks
 * (the recycled request blocks are shared, under pool_mu). With inline_fast a short query's fast slice
 * runs right on that thread (ap_lanes_run_inline), bounded by fast_budget expansions. The libuv loop thread talks to it only through ap_http_on_job_done
 * (MHD_resume_connection may be called from any thread) and the atomic flags below.
 */
#ifndef AP_SERVER_HTTP_H
#define AP_SERVER_HTTP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../config/config.h"
#include "accesslog.h"
#include "budget.h"
#include "loglimit.h"
#include "lanes.h"
#include "lifecycle.h"
#include "metrics.h"
#include "registry.h"
#include "route.h"

struct MHD_Daemon;
struct ap_conn;

/* The HTTP server. Caller-owned; fields are private. */
typedef struct ap_http {
    const ap_config *cfg;      /* borrowed; must outlive the server */
    ap_registry *reg;          /* borrowed; versions acquired per request (registry.h) */
    ap_lifecycle *lc;          /* borrowed: builds the maps that PUT, reload and PATCH make */
    ap_lanes *lanes;           /* borrowed */
    ap_metrics *metrics;       /* borrowed */
    ap_accesslog *log;         /* borrowed: the access log (accesslog.h), NULL = no access log */
    FILE *errlog;              /* borrowed: where the server's messages go (stderr's buffer, accesslog.h) */
    struct MHD_Daemon *daemon;
    int quiesced_fd;           /* listen socket returned by MHD_quiesce_daemon, -1 if none */
    uint16_t port;             /* the bound port (useful with port 0) */
    atomic_bool draining;      /* readyz 503; new path requests 503 not_ready */
    atomic_uint_fast64_t id_counter;
    uint64_t id_seed;          /* start time mixed into generated request ids */
    uint32_t etag_boot;        /* this process's tag in map ETags (etag.h): from id_seed */
    atomic_int_fast64_t inflight; /* requests between first handler call and completion */
    pthread_mutex_t pool_mu;   /* guards pool: MHD threads take blocks, any thread returns them */
    struct ap_req *pool;       /* recycled request blocks (context + job + arena) */
    int pool_n;
    /* The request-time watchdog (request_timeout_ms): every open connection is on conns (a list with a
     * sentinel head) from MHD's "started" to its "closed" notification; the watchdog thread shuts down
     * those whose request has not fully arrived in time. */
    pthread_mutex_t conns_mu;  /* guards the list and the watchdog's stop flag */
    pthread_cond_t conns_cv;   /* wakes the watchdog to stop */
    struct ap_conn *conns;     /* sentinel (malloc'd) */
    size_t n_conns;            /* connections on the list (under conns_mu) */
    size_t n_cut;              /* of those, shut down by the watchdog and not closed yet (under conns_mu) */
    atomic_int listen_fd;      /* MHD's listening socket once started (-1 before): the watchdog peeks at its
                                * accept queue to see whether a client waits while the server is full */
    struct ap_static_gz *static_gz; /* the embedded files gzip-compressed at start (static_route.h), or NULL */
    bool watchdog_stop;
    bool watchdog_on;          /* the thread was started (join it) */
    pthread_t watchdog;
    ap_budget budget;          /* per client address: profile-cache evictions (profile_evictions_per_minute) */
    ap_loglimit mhd_log;       /* libmicrohttpd's own messages: at most 20 lines a second (loglimit.h) */
    struct ap_tablework *tablework; /* borrowed, NULL = none: after each answer its map version is offered
                                     * there (unfinished table builds go on off the query path) */
} ap_http;

/* Start the daemon on cfg->listen_host:listen_port (IPv4 literal, "localhost" = 127.0.0.1, or an IPv6
 * literal without brackets; port 0 picks a free port, see h->port)
 * with an internal polling thread (epoll, else poll), suspend/resume, the connection limits
 * (cfg->max_connections, max_connections_per_ip), an idle timeout (idle_timeout_s) and a completion callback
 * (metrics + access log); and a watchdog thread that closes (shutdown(2)) any connection whose request's
 * headers and body have not all arrived request_timeout_ms after the connection opened or its previous
 * answer was queued — time spent answering does not count, and trickling bytes does not extend it — and,
 * while the server holds max_connections and a client waits to be accepted, the one that has waited longest
 * (at least 200 ms) for (more of) a request with no body arriving, so that the waiting client gets its
 * place. log: the
 * access log (one JSON line per request, accesslog.h; borrowed, flushed by the caller), NULL to disable.
 * errlog: where libmicrohttpd's messages and the routes' own go (borrowed; a stream that never blocks,
 * ap_accesslog_file, so a stalled stderr does not stall the HTTP thread; NULL = stderr itself).
 * lc: the map-lifecycle thread the map-changing routes hand their work to (started).
 * Main thread, after the lanes are initialised.
 * Returns AP_OK, AP_E_CONFIG (bad address; err says why), AP_E_IO (bind/listen failed; err says why) or
 * AP_E_NOMEM (no memory or thread for the watchdog). */
int ap_http_start(ap_http *h, const ap_config *cfg, ap_registry *reg, ap_lifecycle *lc, ap_lanes *lanes,
                  ap_metrics *metrics, ap_accesslog *log, FILE *errlog, char *err, size_t errlen);

/* The lanes' done hook (ap_job_done_fn; arg = the ap_http): stores the encoded answer on the request and
 * resumes its connection, after which MHD calls the handler again and the answer is queued. Loop thread. */
void ap_http_on_job_done(ap_job *job, void *arg);

/* Begin shutdown: /readyz answers 503, new path requests are answered 503 not_ready, responses carry
 * "Connection: close", and the listen socket stops accepting (MHD_quiesce_daemon) and listening (shutdown:
 * new connects are refused rather than queued and reset; the descriptor is closed by ap_http_stop).
 * Requests on connections already open go on. Any thread; idempotent. */
void ap_http_begin_drain(ap_http *h);

/* Requests currently between their first handler call and MHD's completion callback. Any thread. */
int64_t ap_http_inflight(ap_http *h);

/* Stop the daemon (joins its thread, closes every connection) and close the quiesced socket. Call only when
 * no request is suspended (after the lanes drained). Main/loop thread. Safe on a zeroed or stopped h. */
void ap_http_stop(ap_http *h);

/* The server's route table (route.h): every route's methods, path pattern, handler and metric label, in
 * the order of the metrics exposition; *n gets its length. ap_http_start labels the metrics with it.
 * Static storage; thread-safe. */
const ap_route *ap_http_routes(size_t *n);

/* True when id is an acceptable client X-Request-ID: 1..128 printable ASCII characters, no spaces. Pure. */
bool ap_http_valid_request_id(const char *id);

#endif
