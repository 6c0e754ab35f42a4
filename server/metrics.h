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
    AP_ROUTE_OTHER,    /* "other" */
    AP_ROUTE_COUNT
} ap_route;

/* The two search lanes (Pinter's fast and slow matrices). */
typedef enum ap_lane {
    AP_LANE_FAST = 0,
    AP_LANE_SLOW = 1,
    AP_LANE_COUNT
} ap_lane;

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

/* Add delta to the in-flight request gauge. Any thread. */
void ap_metrics_inflight_add(ap_metrics *m, int64_t delta);

/* Add one observation to a histogram (value in ns). Any thread. Exposed for tests and new histograms. */
void ap_histogram_observe(ap_histogram *h, uint64_t value_ns);

/* Render every metric in the text exposition format 0.0.4 (with # HELP and # TYPE lines) into a new
 * malloc'd NUL-terminated buffer (caller frees); *len (if non-NULL) gets its length in bytes.
 * Request counters are listed only for (route, code) pairs seen at least once. Returns NULL when out of
 * memory. Any thread. */
char *ap_metrics_render(const ap_metrics *m, size_t *len);

#endif
