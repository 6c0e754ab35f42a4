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

/* The fixed route label set; anything else is AP_ROUTE_OTHER so the label cardinality stays bounded. */
typedef enum ap_route {
    AP_ROUTE_PATH = 0, /* "/v1/path" */
    AP_ROUTE_MAPS,     /* "/v1/maps" */
    AP_ROUTE_MAP,      /* "/v1/maps/{id}" */
    AP_ROUTE_HEALTHZ,  /* "/healthz" */
    AP_ROUTE_READYZ,   /* "/readyz" */
    AP_ROUTE_METRICS,  /* "/metrics" */
    AP_ROUTE_PATHS,    /* "/v1/paths" (batch) */
    AP_ROUTE_CURVE,    /* "/v1/curve" */
    AP_ROUTE_PROFILES, /* "/v1/profiles" */
    AP_ROUTE_CELLS,    /* "/v1/maps/{id}/cells" */
    AP_ROUTE_VIEWER,   /* "viewer": GET / and the viewer's other embedded files (server/static_route.h) */
    AP_ROUTE_OTHER,    /* "other" */
    AP_ROUTE_COUNT
} ap_route;

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
 *   encode     JSON encoding of the answer (loop thread)
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

/* All counters. Caller-owned (embed or allocate), initialised with ap_metrics_init. ~30 KiB. */
typedef struct ap_metrics {
    char version[64];
    atomic_uint_fast64_t requests[AP_ROUTE_COUNT][AP_METRICS_CODE_MAX - AP_METRICS_CODE_MIN + 1];
    ap_histogram request_duration;
    ap_histogram search_duration[AP_LANE_COUNT];
    atomic_uint_fast64_t expanded_nodes;
    atomic_int_fast64_t queue_depth[AP_LANE_COUNT];
    atomic_int_fast64_t maps_loaded;
    atomic_uint_fast64_t overloaded[AP_LANE_COUNT];
    atomic_int_fast64_t inflight;
    atomic_uint_fast64_t stage_ns[AP_STAGE_COUNT]; /* summed per stage over the observed requests */
    atomic_uint_fast64_t stage_requests;            /* requests whose stages were observed */
    struct ap_profile_cache *profiles;              /* unit-profile cache to report (NULL = none); set before
                                                     * other threads see m */
} ap_metrics;

/* Zero every counter and remember the version string for arcpath_build_info (copied, truncated to 63
 * bytes; NULL = "unknown"). Call once before any other thread sees m. */
void ap_metrics_init(ap_metrics *m, const char *version);

/* The Prometheus label value of a route ("/v1/path", ..., "other"). Pure; thread-safe. */
const char *ap_metrics_route_name(ap_route route);

/* The label value of a lane ("fast" / "slow"). Pure; thread-safe. */
const char *ap_metrics_lane_name(ap_lane lane);

/* Count one finished HTTP response: route, HTTP status code, and its duration in nanoseconds (first byte
 * of the request seen -> request completed). Out-of-range routes count as "other". Any thread. */
void ap_metrics_observe_request(ap_metrics *m, ap_route route, int code, uint64_t duration_ns);

/* Count one finished search in a lane: wall time spent searching (ns) and A* expansions. Any thread. */
void ap_metrics_observe_search(ap_metrics *m, ap_lane lane, uint64_t duration_ns, uint64_t expanded);

/* Add delta (may be negative) to a lane's queue-depth gauge. Any thread. */
void ap_metrics_queue_add(ap_metrics *m, ap_lane lane, int64_t delta);

/* Count one request turned away with 503 overloaded by a lane. Any thread. */
void ap_metrics_overloaded(ap_metrics *m, ap_lane lane);

/* Set the number of maps loaded. Any thread. */
void ap_metrics_set_maps(ap_metrics *m, int64_t n);

/* Report the unit-profile cache c (planner/turns/profile.h; borrowed, must outlive m's use) in the exposition:
 * arcpath_profiles_cached (gauge), arcpath_profile_table_bytes (gauge, bytes of the cached tables) and
 * arcpath_profile_build_seconds_total (counter, wall time of every table build). Call before other threads
 * render m. */
void ap_metrics_set_profiles(ap_metrics *m, struct ap_profile_cache *c);

/* Add delta to the in-flight request gauge. Any thread. */
void ap_metrics_inflight_add(ap_metrics *m, int64_t delta);

/* The label value of a stage ("read", "parse", ..., "total"). Pure; thread-safe. */
const char *ap_metrics_stage_name(ap_stage stage);

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
