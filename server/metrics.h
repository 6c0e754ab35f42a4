/* metrics.h — process counters and their Prometheus text exposition (format 0.0.4).
 *
 * Every counter is a C11 atomic, so any thread (MHD's HTTP thread, the libuv loop thread, pool workers) may
 * update them without locks; rendering reads each atomic once and may therefore mix values from slightly
 * different instants, which Prometheus tolerates (scrapes are never a consistent snapshot anyway).
 * Histograms keep non-cumulative bucket counts and a nanosecond sum (integer atomics: C11 has no portable
 * atomic double add); the renderer makes the buckets cumulative and prints the sum in seconds exactly.
 */
#ifndef AP_SERVER_METRICS_H
#define AP_SERVER_METRICS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct ap_route; /* route.h: the server's route table rows, whose labels the request counters use */

/* Most routes the request counters and the request-duration histogram label one by one (the server's
 * route table, route.h, set with ap_metrics_set_routes); requests to no route, or to routes past this many,
 * count under "other", so the label cardinality stays bounded (the label is the route's pattern, never
 * the raw URL). */
#define AP_METRICS_ROUTES 24

/* The two search lanes (Pinter's fast and slow matrices). */
typedef enum ap_lane {
    AP_LANE_FAST = 0,
    AP_LANE_SLOW = 1,
    AP_LANE_COUNT
} ap_lane;

/* Where a path request's time goes, stage by stage (README "Performance"). Each stage is the time between
 * two timestamps taken on the request's way through the threads, so the hops between threads (which
 * cost wake-ups, not CPU) show up as stages of their own:
 *   read       first handler call (headers parsed) -> whole body received (MHD thread)
 *   parse      JSON parse, validation, map lookup and start/goal checks (MHD thread)
 *   to_loop    hand-off: submit -> the loop thread admits the job (uv_async_send wake-up)
 *   to_pool    admission -> a pool worker starts the job (uv_queue_work wake-up)
 *   search     search slices and path building (worker)
 *   from_pool  worker done -> the loop thread sees it (after-work wake-up)
 *   encode     JSON encoding of the answer (on the worker right after its last slice; the loop thread for
 *              answers made there: timeouts and refusals of waiting jobs)
 *   to_http    resume -> MHD calls the handler again (MHD wake-up)
 *   respond    creating and queueing the MHD response (MHD thread)
 *   send       response queued -> MHD reports it sent (MHD thread)
 *   total      first handler call -> completion */
typedef enum ap_stage {
    AP_STAGE_READ = 0,
    AP_STAGE_PARSE,
    AP_STAGE_TO_LOOP,
    AP_STAGE_TO_POOL,
    AP_STAGE_SEARCH,
    AP_STAGE_FROM_POOL,
    AP_STAGE_ENCODE,
    AP_STAGE_TO_HTTP,
    AP_STAGE_RESPOND,
    AP_STAGE_SEND,
    AP_STAGE_TOTAL,
    AP_STAGE_COUNT
} ap_stage;

/* How a path answer (a single query's, or a batch item's) ended: ok with a finished search, ok with the
 * kinodynamic best-so-far path ("capped": the cap or the deadline stopped A* after it reached the goal, or
 * A* dropped states at the state limit), ok with the probing search's path ("probe"), no_path by reason
 * (unreachable, not_found, state_limit), timeout. Errors (4xx, 5xx) are not answers and are counted by
 * arcpath_requests_total only. */
typedef enum ap_outcome {
    AP_OUTCOME_OK = 0,
    AP_OUTCOME_CAPPED,
    AP_OUTCOME_PROBE,
    AP_OUTCOME_UNREACHABLE,
    AP_OUTCOME_NOT_FOUND,
    AP_OUTCOME_STATE_LIMIT,
    AP_OUTCOME_TIMEOUT,
    AP_OUTCOME_COUNT
} ap_outcome;

/* Histogram upper bounds: 0.0001 s .. 10 s, plus the implicit +Inf bucket. */
#define AP_METRICS_BUCKETS 16

/* HTTP codes are counted in a dense table over 100..599 (a fixed 7 x 500 table needs no lock and no
 * allocation); a code outside that range is not a valid HTTP status and is not counted. */
#define AP_METRICS_CODE_MIN 100
#define AP_METRICS_CODE_MAX 599

typedef struct ap_histogram {
    atomic_uint_fast64_t bucket[AP_METRICS_BUCKETS + 1]; /* non-cumulative; last = above the top bound */
    atomic_uint_fast64_t count;
    atomic_uint_fast64_t sum_ns;
} ap_histogram;

/* All counters. Caller-owned (embed or allocate), initialised with ap_metrics_init. ~105 KiB. */
typedef struct ap_metrics {
    char version[64];
    const char *route_label[AP_METRICS_ROUTES]; /* from the route table (ap_metrics_set_routes), borrowed */
    size_t n_routes;
    /* [route index][code]; the row after the last route (n_routes) is "other" */
    atomic_uint_fast64_t requests[AP_METRICS_ROUTES + 1][AP_METRICS_CODE_MAX - AP_METRICS_CODE_MIN + 1];
    ap_histogram request_duration[AP_METRICS_ROUTES + 1]; /* by route row, as requests */
    ap_histogram search_duration[AP_LANE_COUNT];
    atomic_uint_fast64_t expanded_nodes;
    atomic_int_fast64_t queue_depth[AP_LANE_COUNT];
    atomic_int_fast64_t maps_loaded;
    atomic_uint_fast64_t log_dropped; /* access-log lines dropped since start (accesslog.h) */
    atomic_uint_fast64_t rescans, rescan_errors; /* SIGHUP folder rescans and the errors they counted */
    atomic_uint_fast64_t table_work_slices; /* tablework.h: slices run off the query path since start */
    atomic_int_fast64_t table_work_maps;    /* tablework.h: map versions with unfinished builds held now */
    atomic_uint_fast64_t overloaded[AP_LANE_COUNT];
    atomic_uint_fast64_t answers[AP_OUTCOME_COUNT];
    atomic_int_fast64_t inflight;
    atomic_int_fast64_t connections;           /* HTTP connections open now */
    atomic_uint_fast64_t connections_evicted;  /* closed to make room for a waiting client (http.c) */
    atomic_uint_fast64_t stage_ns[AP_STAGE_COUNT]; /* summed per stage over the observed requests */
    atomic_uint_fast64_t stage_requests;            /* requests whose stages were observed */
    struct ap_profile_cache *profiles;              /* unit-profile cache to report (NULL = none); set before
                                                     * other threads see m */
} ap_metrics;

/* Zero every counter and remember the version string for arcpath_build_info (copied, truncated to 63
 * bytes; NULL = "unknown"). Call once before any other thread sees m. */
void ap_metrics_init(ap_metrics *m, const char *version);

/* Label the request counters with the routes of a route table (table[i].label for route index i; the
 * first AP_METRICS_ROUTES routes, the rest count as "other"). table is borrowed and must outlive m. Until
 * this is called every request counts as "other". Call before other threads count requests or render m
 * (the server: ap_http_start). */
void ap_metrics_set_routes(ap_metrics *m, const struct ap_route *table, size_t n);

/* The Prometheus label value of route index route ("/v1/path", ...; "other" for -1 or any index without a
 * label). Thread-safe once the routes are set. */
const char *ap_metrics_route_name(const ap_metrics *m, int route);

/* The label value of a lane ("fast" / "slow"). Pure; thread-safe. */
const char *ap_metrics_lane_name(ap_lane lane);

/* Count one finished HTTP response: route index in the table given to ap_metrics_set_routes (-1 = no
 * route), HTTP status code, and its duration in nanoseconds (first byte of the request seen -> request
 * completed) in the route's arcpath_request_duration_seconds histogram (label route, as
 * arcpath_requests_total). Routes without a label count as "other". Any thread. */
void ap_metrics_observe_request(ap_metrics *m, int route, int code, uint64_t duration_ns);

/* Count one finished job in the lane it ended in (a query, or a whole batch: one observation): wall time spent
 * searching and building paths (ns) and A* expansions. Any thread. */
void ap_metrics_observe_search(ap_metrics *m, ap_lane lane, uint64_t duration_ns, uint64_t expanded);

/* Add delta (may be negative) to a lane's queue-depth gauge. Any thread. */
void ap_metrics_queue_add(ap_metrics *m, ap_lane lane, int64_t delta);

/* Count one request turned away with 503 overloaded by a lane. Any thread. */
void ap_metrics_overloaded(ap_metrics *m, ap_lane lane);

/* Count one path answer with outcome o (arcpath_path_answers_total{outcome}); out-of-range o is ignored.
 * Any thread. */
void ap_metrics_answer(ap_metrics *m, ap_outcome o);

/* Count n path answers with outcome o at once (a batch's items of that outcome); as ap_metrics_answer. */
void ap_metrics_answers(ap_metrics *m, ap_outcome o, uint64_t n);

/* Set the number of maps loaded. Any thread. */
void ap_metrics_set_maps(ap_metrics *m, int64_t n);

/* Set the access-log lines dropped since start (accesslog.h ap_accesslog_dropped). Any thread. */
void ap_metrics_set_log_dropped(ap_metrics *m, uint64_t n);

/* Set the folder-rescan counters (lifecycle.h: rescans finished, errors they counted; both since start,
 * never decreasing). Any thread. */
void ap_metrics_set_rescans(ap_metrics *m, uint64_t rescans, uint64_t errors);

/* Set the table work's figures (tablework.h: slices run since start, map versions held now). Any thread. */
void ap_metrics_set_table_work(ap_metrics *m, uint64_t slices, int64_t maps);

/* Report the unit-profile cache c (planner/turns/profile.h; borrowed, must outlive m's use) in the exposition:
 * arcpath_profiles_cached (gauge), arcpath_profile_table_bytes (gauge, bytes of the cached tables) and
 * arcpath_profile_build_seconds_total (counter, wall time of every table build). Call before other threads
 * render m. */
void ap_metrics_set_profiles(ap_metrics *m, struct ap_profile_cache *c);

/* Set the open-connection gauge (arcpath_connections_open) to n. Any thread. */
void ap_metrics_set_connections(ap_metrics *m, size_t n);

/* Count one connection closed to make room for a waiting client while the server held max_connections
 * (arcpath_connections_evicted_total). Any thread. */
void ap_metrics_connection_evicted(ap_metrics *m);

/* Add delta to the in-flight request gauge. Any thread. */
void ap_metrics_inflight_add(ap_metrics *m, int64_t delta);

/* Add one path request's stage durations (ns[AP_STAGE_COUNT], nanoseconds each) to the stage sums.
 * Any thread (called from the completion callback on MHD's thread). */
void ap_metrics_observe_stages(ap_metrics *m, const uint64_t ns[AP_STAGE_COUNT]);

/* Add one observation to a histogram (value in ns). Any thread. Exposed for tests and new histograms. */
void ap_histogram_observe(ap_histogram *h, uint64_t value_ns);

/* Render every metric in the text exposition format 0.0.4 (with # HELP and # TYPE lines) into a new
 * malloc'd NUL-terminated buffer (caller frees); *len (if non-NULL) gets its length in bytes.
 * Request counters are listed only for (route, code) pairs seen at least once. Returns NULL when out of
 * memory. Any thread. */
char *ap_metrics_render(const ap_metrics *m, size_t *len);

#endif
