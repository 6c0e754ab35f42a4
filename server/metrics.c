/* metrics.c — atomic counters and the Prometheus text renderer. */
#include "metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../planner/turns/profile.h"
#include "route.h"
#include "process_stats.h"

/* Bucket bounds in ns (exact integers, so bucket choice has no floating-point edge cases) and their
 * labels, written out by hand so the exposition shows "0.00025" rather than a %g rendering. */
static const uint64_t bucket_ns[AP_METRICS_BUCKETS] = {
    100000ULL,     250000ULL,     500000ULL,     1000000ULL,     2500000ULL,    5000000ULL,
    10000000ULL,   25000000ULL,   50000000ULL,   100000000ULL,   250000000ULL,  500000000ULL,
    1000000000ULL, 2500000000ULL, 5000000000ULL, 10000000000ULL,
};
static const char *const bucket_le[AP_METRICS_BUCKETS] = {
    "0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025",
    "0.05",   "0.1",     "0.25",   "0.5",   "1",      "2.5",   "5",     "10",
};

static const char *const stage_names[AP_STAGE_COUNT] = {
    "read", "parse", "to_loop", "to_pool", "search", "from_pool", "encode", "to_http", "respond", "send", "total",
};
static const char *const lane_names[AP_LANE_COUNT] = {"fast", "slow"};

static void histogram_init(ap_histogram *h)
{
    for (int i = 0; i <= AP_METRICS_BUCKETS; i++)
        atomic_init(&h->bucket[i], 0);
    atomic_init(&h->count, 0);
    atomic_init(&h->sum_ns, 0);
}

void ap_metrics_init(ap_metrics *m, const char *version)
{
    memset(m, 0, sizeof *m);
    snprintf(m->version, sizeof m->version, "%s", version ? version : "unknown");
    /* A label value may not hold raw quotes, backslashes or newlines; the version is ours, so replacing
     * them is simpler than escaping. */
    for (char *p = m->version; *p; p++)
        if (*p == '"' || *p == '\\' || *p == '\n')
            *p = '_';
    for (int r = 0; r <= AP_METRICS_ROUTES; r++)
        for (int c = 0; c <= AP_METRICS_CODE_MAX - AP_METRICS_CODE_MIN; c++)
            atomic_init(&m->requests[r][c], 0);
    for (int r = 0; r <= AP_METRICS_ROUTES; r++)
        histogram_init(&m->request_duration[r]);
    for (int l = 0; l < AP_LANE_COUNT; l++) {
        histogram_init(&m->search_duration[l]);
        atomic_init(&m->queue_depth[l], 0);
        atomic_init(&m->overloaded[l], 0);
    }
    atomic_init(&m->expanded_nodes, 0);
    atomic_init(&m->maps_loaded, 0);
    atomic_init(&m->log_dropped, 0);
    atomic_init(&m->connections, 0);
    atomic_init(&m->connections_evicted, 0);
    atomic_init(&m->rescans, 0);
    atomic_init(&m->rescan_errors, 0);
    atomic_init(&m->table_work_slices, 0);
    atomic_init(&m->table_work_maps, 0);
    atomic_init(&m->inflight, 0);
    for (int i = 0; i < AP_STAGE_COUNT; i++)
        atomic_init(&m->stage_ns[i], 0);
    atomic_init(&m->stage_requests, 0);
}

void ap_metrics_observe_stages(ap_metrics *m, const uint64_t ns[AP_STAGE_COUNT])
{
    for (int i = 0; i < AP_STAGE_COUNT; i++)
        if (ns[i] != 0) /* an inline query's hand-off stages are 0: no locked add for nothing */
            atomic_fetch_add_explicit(&m->stage_ns[i], ns[i], memory_order_relaxed);
    atomic_fetch_add_explicit(&m->stage_requests, 1, memory_order_relaxed);
}

void ap_metrics_set_routes(ap_metrics *m, const ap_route *table, size_t n)
{
    m->n_routes = n < AP_METRICS_ROUTES ? n : AP_METRICS_ROUTES;
    for (size_t i = 0; i < m->n_routes; i++)
        m->route_label[i] = table[i].label;
}

/* The counter row of a route index: its own, or the "other" row after the labelled ones. */
static size_t route_row(const ap_metrics *m, int route)
{
    return route >= 0 && (size_t)route < m->n_routes ? (size_t)route : m->n_routes;
}

const char *ap_metrics_route_name(const ap_metrics *m, int route)
{
    size_t row = route_row(m, route);
    return row < m->n_routes ? m->route_label[row] : "other";
}

const char *ap_metrics_lane_name(ap_lane lane)
{
    if ((int)lane < 0 || lane >= AP_LANE_COUNT)
        return "fast";
    return lane_names[lane];
}

void ap_histogram_observe(ap_histogram *h, uint64_t value_ns)
{
    int i = 0;
    while (i < AP_METRICS_BUCKETS && value_ns > bucket_ns[i])
        i++;
    atomic_fetch_add_explicit(&h->bucket[i], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&h->sum_ns, value_ns, memory_order_relaxed);
    atomic_fetch_add_explicit(&h->count, 1, memory_order_relaxed);
}

void ap_metrics_observe_request(ap_metrics *m, int route, int code, uint64_t duration_ns)
{
    if (code >= AP_METRICS_CODE_MIN && code <= AP_METRICS_CODE_MAX)
        atomic_fetch_add_explicit(&m->requests[route_row(m, route)][code - AP_METRICS_CODE_MIN], 1,
                                  memory_order_relaxed);
    ap_histogram_observe(&m->request_duration[route_row(m, route)], duration_ns);
}

void ap_metrics_observe_search(ap_metrics *m, ap_lane lane, uint64_t duration_ns, uint64_t expanded)
{
    if ((int)lane < 0 || lane >= AP_LANE_COUNT)
        lane = AP_LANE_FAST;
    ap_histogram_observe(&m->search_duration[lane], duration_ns);
    atomic_fetch_add_explicit(&m->expanded_nodes, expanded, memory_order_relaxed);
}

void ap_metrics_queue_add(ap_metrics *m, ap_lane lane, int64_t delta)
{
    if ((int)lane >= 0 && lane < AP_LANE_COUNT)
        atomic_fetch_add_explicit(&m->queue_depth[lane], delta, memory_order_relaxed);
}

void ap_metrics_overloaded(ap_metrics *m, ap_lane lane)
{
    if ((int)lane >= 0 && lane < AP_LANE_COUNT)
        atomic_fetch_add_explicit(&m->overloaded[lane], 1, memory_order_relaxed);
}

void ap_metrics_answer(ap_metrics *m, ap_outcome o)
{
    ap_metrics_answers(m, o, 1);
}

void ap_metrics_answers(ap_metrics *m, ap_outcome o, uint64_t n)
{
    if ((int)o >= 0 && o < AP_OUTCOME_COUNT && n > 0)
        atomic_fetch_add_explicit(&m->answers[o], n, memory_order_relaxed);
}

void ap_metrics_set_maps(ap_metrics *m, int64_t n)
{
    atomic_store_explicit(&m->maps_loaded, n, memory_order_relaxed);
}

void ap_metrics_set_log_dropped(ap_metrics *m, uint64_t n)
{
    atomic_store_explicit(&m->log_dropped, n, memory_order_relaxed);
}

void ap_metrics_set_connections(ap_metrics *m, size_t n)
{
    atomic_store_explicit(&m->connections, (int_fast64_t)n, memory_order_relaxed);
}

void ap_metrics_connection_evicted(ap_metrics *m)
{
    atomic_fetch_add_explicit(&m->connections_evicted, 1, memory_order_relaxed);
}

void ap_metrics_set_rescans(ap_metrics *m, uint64_t rescans, uint64_t errors)
{
    atomic_store_explicit(&m->rescans, rescans, memory_order_relaxed);
    atomic_store_explicit(&m->rescan_errors, errors, memory_order_relaxed);
}

void ap_metrics_set_table_work(ap_metrics *m, uint64_t slices, int64_t maps)
{
    atomic_store_explicit(&m->table_work_slices, slices, memory_order_relaxed);
    atomic_store_explicit(&m->table_work_maps, maps, memory_order_relaxed);
}

void ap_metrics_set_profiles(ap_metrics *m, struct ap_profile_cache *c)
{
    m->profiles = c;
}

void ap_metrics_inflight_add(ap_metrics *m, int64_t delta)
{
    atomic_fetch_add_explicit(&m->inflight, delta, memory_order_relaxed);
}

/* The renderer reads atomics through const pointers: C11 atomic loads on const objects are allowed for
 * lock-free types, but older compilers warn, so cast the constness away only for the load. */
#define LOAD(x) atomic_load_explicit((__typeof__(x) *)&(x), memory_order_relaxed)

static void render_histogram(FILE *f, const char *name, const char *labels, const ap_histogram *h)
{
    uint64_t cum = 0;
    const char *sep = labels[0] ? "," : "";
    for (int i = 0; i <= AP_METRICS_BUCKETS; i++) {
        cum += (uint64_t)LOAD(h->bucket[i]);
        fprintf(f, "%s_bucket{%s%sle=\"%s\"} %llu\n", name, labels, sep,
                i < AP_METRICS_BUCKETS ? bucket_le[i] : "+Inf", (unsigned long long)cum);
    }
    uint64_t sum = (uint64_t)LOAD(h->sum_ns);
    /* The seconds are printed from the integer ns sum, so the value is exact (no %g rounding). _count is
     * the +Inf bucket as printed, which the exposition format requires it to equal: h->count, loaded on
     * its own, could be one ahead or behind while an observation is half made (a helper's scrapes under
     * load: 1 in 500). */
    if (labels[0])
        fprintf(f, "%s_sum{%s} %llu.%09llu\n%s_count{%s} %llu\n", name, labels,
                (unsigned long long)(sum / 1000000000ULL), (unsigned long long)(sum % 1000000000ULL), name,
                labels, (unsigned long long)cum);
    else
        fprintf(f, "%s_sum %llu.%09llu\n%s_count %llu\n", name, (unsigned long long)(sum / 1000000000ULL),
                (unsigned long long)(sum % 1000000000ULL), name, (unsigned long long)cum);
}

char *ap_metrics_render(const ap_metrics *m, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        return NULL;

    fputs("# HELP arcpath_requests_total HTTP responses sent, by route and status code.\n"
          "# TYPE arcpath_requests_total counter\n", f);
    for (size_t r = 0; r <= m->n_routes; r++)
        for (int c = 0; c <= AP_METRICS_CODE_MAX - AP_METRICS_CODE_MIN; c++) {
            uint64_t v = (uint64_t)LOAD(m->requests[r][c]);
            if (v)
                fprintf(f, "arcpath_requests_total{route=\"%s\",code=\"%d\"} %llu\n",
                        ap_metrics_route_name(m, (int)r), c + AP_METRICS_CODE_MIN, (unsigned long long)v);
        }

    fputs("# HELP arcpath_request_duration_seconds Time from request start to response completion, by route.\n"
          "# TYPE arcpath_request_duration_seconds histogram\n", f);
    /* Like the request counters, a route's series appear once it has answered a request. */
    for (size_t r = 0; r <= m->n_routes; r++) {
        if (LOAD(m->request_duration[r].count) == 0)
            continue;
        char labels[96];
        snprintf(labels, sizeof labels, "route=\"%s\"", ap_metrics_route_name(m, (int)r));
        render_histogram(f, "arcpath_request_duration_seconds", labels, &m->request_duration[r]);
    }

    fputs("# HELP arcpath_search_duration_seconds Search and path-building time per finished job (a query, or a whole batch), by the lane it ended in.\n"
          "# TYPE arcpath_search_duration_seconds histogram\n", f);
    for (int l = 0; l < AP_LANE_COUNT; l++) {
        char labels[32];
        snprintf(labels, sizeof labels, "lane=\"%s\"", lane_names[l]);
        render_histogram(f, "arcpath_search_duration_seconds", labels, &m->search_duration[l]);
    }

    fprintf(f,
            "# HELP arcpath_search_expanded_nodes_total A* node expansions over all searches.\n"
            "# TYPE arcpath_search_expanded_nodes_total counter\n"
            "arcpath_search_expanded_nodes_total %llu\n",
            (unsigned long long)LOAD(m->expanded_nodes));

    fputs("# HELP arcpath_queue_depth Searches admitted to a lane and not yet finished.\n"
          "# TYPE arcpath_queue_depth gauge\n", f);
    for (int l = 0; l < AP_LANE_COUNT; l++)
        fprintf(f, "arcpath_queue_depth{lane=\"%s\"} %lld\n", lane_names[l], (long long)LOAD(m->queue_depth[l]));

    fputs("# HELP arcpath_overloaded_total Requests answered 503 overloaded because a lane was full.\n"
          "# TYPE arcpath_overloaded_total counter\n", f);
    for (int l = 0; l < AP_LANE_COUNT; l++)
        fprintf(f, "arcpath_overloaded_total{lane=\"%s\"} %llu\n", lane_names[l],
                (unsigned long long)LOAD(m->overloaded[l]));

    static const char *const outcome_names[AP_OUTCOME_COUNT] = {"ok", "capped", "probe", "no_path_unreachable",
                                                                 "no_path_not_found", "no_path_state_limit",
                                                                 "timeout"};
    fputs("# HELP arcpath_path_answers_total Path answers (single queries and batch items) by outcome: ok, capped "
          "(kinodynamic: the fastest path found when the expansion cap or the deadline stopped the search, or when "
          "it dropped states at the state limit), probe (the probing search's path), no_path_unreachable, "
          "no_path_not_found, no_path_state_limit (kinodynamic: no id left for new states; hybrid: grid path too long for "
          "the workspace; max_workspace_cells), "
          "timeout. A batch's items count when its 200 is made.\n"
          "# TYPE arcpath_path_answers_total counter\n", f);
    for (int o = 0; o < AP_OUTCOME_COUNT; o++)
        fprintf(f, "arcpath_path_answers_total{outcome=\"%s\"} %llu\n", outcome_names[o],
                (unsigned long long)LOAD(m->answers[o]));

    fputs("# HELP arcpath_path_stage_seconds_total Time spent in each stage of path requests (README "
          "\"Performance\"); divide by arcpath_path_stage_requests_total for the mean.\n"
          "# TYPE arcpath_path_stage_seconds_total counter\n", f);
    for (int i = 0; i < AP_STAGE_COUNT; i++) {
        uint64_t v = (uint64_t)LOAD(m->stage_ns[i]);
        fprintf(f, "arcpath_path_stage_seconds_total{stage=\"%s\"} %llu.%09llu\n", stage_names[i],
                (unsigned long long)(v / 1000000000ULL), (unsigned long long)(v % 1000000000ULL));
    }
    fprintf(f,
            "# HELP arcpath_path_stage_requests_total Path requests counted in arcpath_path_stage_seconds_total.\n"
            "# TYPE arcpath_path_stage_requests_total counter\n"
            "arcpath_path_stage_requests_total %llu\n",
            (unsigned long long)LOAD(m->stage_requests));

    fprintf(f,
            "# HELP arcpath_inflight_requests HTTP requests being processed.\n"
            "# TYPE arcpath_inflight_requests gauge\n"
            "arcpath_inflight_requests %lld\n"
            "# HELP arcpath_connections_open HTTP connections open now (at most max_connections).\n"
            "# TYPE arcpath_connections_open gauge\n"
            "arcpath_connections_open %lld\n"
            "# HELP arcpath_connections_evicted_total Connections still waiting for their request closed to make "
            "room for a waiting client while the server held max_connections.\n"
            "# TYPE arcpath_connections_evicted_total counter\n"
            "arcpath_connections_evicted_total %llu\n"
            "# HELP arcpath_maps_loaded Maps in the registry.\n"
            "# TYPE arcpath_maps_loaded gauge\n"
            "arcpath_maps_loaded %lld\n"
            "# HELP arcpath_access_log_dropped_total Access-log lines dropped because stdout was not being read or was closed.\n"
            "# TYPE arcpath_access_log_dropped_total counter\n"
            "arcpath_access_log_dropped_total %llu\n"
            "# HELP arcpath_map_rescans_total Folder rescans (SIGHUP) finished.\n"
            "# TYPE arcpath_map_rescans_total counter\n"
            "arcpath_map_rescans_total %llu\n"
            "# HELP arcpath_map_rescan_errors_total Errors counted by folder rescans (a file that did not load, an "
            "unreadable or emptied folder).\n"
            "# TYPE arcpath_map_rescan_errors_total counter\n"
            "arcpath_map_rescan_errors_total %llu\n"
            "# HELP arcpath_table_work_slices_total Slices of table builds finished off the query path (any_angle "
            "graphs, JPS+ tables of sized units left unfinished by their queries).\n"
            "# TYPE arcpath_table_work_slices_total counter\n"
            "arcpath_table_work_slices_total %llu\n"
            "# HELP arcpath_table_work_maps Map versions with table builds left unfinished, held for the table work.\n"
            "# TYPE arcpath_table_work_maps gauge\n"
            "arcpath_table_work_maps %lld\n"
            "# HELP arcpath_build_info Build information.\n"
            "# TYPE arcpath_build_info gauge\n"
            "arcpath_build_info{version=\"%s\"} 1\n",
            (long long)LOAD(m->inflight), (long long)LOAD(m->connections),
            (unsigned long long)LOAD(m->connections_evicted), (long long)LOAD(m->maps_loaded), (unsigned long long)LOAD(m->log_dropped),
            (unsigned long long)LOAD(m->rescans), (unsigned long long)LOAD(m->rescan_errors),
            (unsigned long long)LOAD(m->table_work_slices), (long long)LOAD(m->table_work_maps), m->version);

    if (m->profiles != NULL) {
        size_t bytes = 0;
        size_t cached = ap_profile_cache_stats(m->profiles, &bytes);
        double build_s = ap_profile_cache_build_seconds(m->profiles, NULL);
        uint64_t evictions = 0, refused = 0;
        ap_profile_cache_counts(m->profiles, &evictions, &refused);
        fprintf(f,
                "# HELP arcpath_profiles_cached Unit profiles whose Directional A* tables are cached.\n"
                "# TYPE arcpath_profiles_cached gauge\n"
                "arcpath_profiles_cached %zu\n"
                "# HELP arcpath_profile_table_bytes Bytes held by the cached profile tables.\n"
                "# TYPE arcpath_profile_table_bytes gauge\n"
                "arcpath_profile_table_bytes %zu\n"
                "# HELP arcpath_profile_build_seconds_total Wall time spent building profile tables.\n"
                "# TYPE arcpath_profile_build_seconds_total counter\n"
                "arcpath_profile_build_seconds_total %.9f\n"
                "# HELP arcpath_profile_evictions_total Cached profiles evicted, least recently used first, to make "
                "room for a new one.\n"
                "# TYPE arcpath_profile_evictions_total counter\n"
                "arcpath_profile_evictions_total %llu\n"
                "# HELP arcpath_profile_refused_total Profiles built for one query only, because the cache was full "
                "and the client's eviction budget spent.\n"
                "# TYPE arcpath_profile_refused_total counter\n"
                "arcpath_profile_refused_total %llu\n",
                cached, bytes, build_s, (unsigned long long)evictions, (unsigned long long)refused);
    }

    ap_process_stats ps;
    ap_process_stats_read(&ps);
    ap_process_stats_render(f, &ps);

    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    if (len)
        *len = n;
    return buf;
}
