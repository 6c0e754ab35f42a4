/* test_metrics.c — exact exposition lines for known counter values; cumulative histogram buckets; the
 * process_* metrics. */
#include "tests/check_fast.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/http.h"
#include "server/metrics.h"
#include "server/process_stats.h"

Suite *metrics_suite(void);

/* True when text holds line as a whole line. */
static int has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = text; (p = strstr(p, line)) != NULL; p++)
        if ((p == text || p[-1] == '\n') && p[n] == '\n')
            return 1;
    return 0;
}

static ap_metrics m; /* ~105 KiB: static rather than on Check's fork stack */

/* m labelled with the server's route table, as ap_http_start labels it. */
static void init_server_metrics(const char *version)
{
    size_t n = 0;
    const ap_route *t = ap_http_routes(&n);
    ap_metrics_init(&m, version);
    ap_metrics_set_routes(&m, t, n);
}

/* The index of the route a GET (POST for the path routes) of path goes to in the server's table. */
static int route_of(unsigned method, const char *path)
{
    size_t n = 0;
    const ap_route *t = ap_http_routes(&n);
    unsigned allowed = 0;
    int i = ap_route_find(t, n, method, path, &allowed, NULL);
    ck_assert_int_ge(i, 0);
    ck_assert_uint_ne(allowed & method, 0);
    return i;
}

START_TEST(test_counters_exact)
{
    init_server_metrics("1.2.3");
    int path = route_of(AP_METHOD_POST, "/v1/path");
    ap_metrics_observe_request(&m, path, 200, 150000);                /* 0.00015 s */
    ap_metrics_observe_request(&m, path, 200, 100000);                /* exactly the 0.0001 bound */
    ap_metrics_observe_request(&m, -1, 404, 3000000000ULL);           /* no route: 3 s */
    ap_metrics_observe_request(&m, route_of(AP_METHOD_GET, "/v1/maps/x"), 999, 1); /* not an HTTP code: only
                                                                       * its duration counts */
    ap_metrics_observe_search(&m, AP_LANE_SLOW, 20000000, 12345);     /* 0.02 s */
    ap_metrics_observe_search(&m, AP_LANE_FAST, 50000, 10);
    ap_metrics_queue_add(&m, AP_LANE_FAST, 3);
    ap_metrics_queue_add(&m, AP_LANE_FAST, -1);
    ap_metrics_overloaded(&m, AP_LANE_SLOW);
    ap_metrics_answer(&m, AP_OUTCOME_CAPPED);
    ap_metrics_answer(&m, AP_OUTCOME_CAPPED);
    ap_metrics_answer(&m, AP_OUTCOME_UNREACHABLE);
    ap_metrics_answer(&m, AP_OUTCOME_STATE_LIMIT);
    ap_metrics_answer(&m, AP_OUTCOME_COUNT); /* out of range: ignored */
    ap_metrics_set_maps(&m, 22);
    ap_metrics_set_log_dropped(&m, 7);
    ap_metrics_inflight_add(&m, 2);

    size_t len = 0;
    char *t = ap_metrics_render(&m, &len);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(len, strlen(t));
    const char *lines[] = {
        "# HELP arcpath_requests_total HTTP responses sent, by route and status code.",
        "# TYPE arcpath_requests_total counter",
        "arcpath_requests_total{route=\"/v1/path\",code=\"200\"} 2",
        "arcpath_requests_total{route=\"other\",code=\"404\"} 1",
        "# TYPE arcpath_request_duration_seconds histogram",
        /* by route: the two /v1/path answers, the 3 s one of no route, the 1 ns one of /v1/maps/{id} */
        "arcpath_request_duration_seconds_bucket{route=\"/v1/path\",le=\"0.0001\"} 1",
        "arcpath_request_duration_seconds_bucket{route=\"/v1/path\",le=\"0.00025\"} 2",
        "arcpath_request_duration_seconds_bucket{route=\"/v1/path\",le=\"+Inf\"} 2",
        "arcpath_request_duration_seconds_sum{route=\"/v1/path\"} 0.000250000",
        "arcpath_request_duration_seconds_count{route=\"/v1/path\"} 2",
        "arcpath_request_duration_seconds_bucket{route=\"/v1/maps/{id}\",le=\"0.0001\"} 1",
        "arcpath_request_duration_seconds_count{route=\"/v1/maps/{id}\"} 1",
        "arcpath_request_duration_seconds_bucket{route=\"other\",le=\"2.5\"} 0",
        "arcpath_request_duration_seconds_bucket{route=\"other\",le=\"5\"} 1",
        "arcpath_request_duration_seconds_bucket{route=\"other\",le=\"+Inf\"} 1",
        "arcpath_request_duration_seconds_sum{route=\"other\"} 3.000000000",
        "arcpath_request_duration_seconds_count{route=\"other\"} 1",
        "# TYPE arcpath_search_duration_seconds histogram",
        "arcpath_search_duration_seconds_bucket{lane=\"slow\",le=\"0.01\"} 0",
        "arcpath_search_duration_seconds_bucket{lane=\"slow\",le=\"0.025\"} 1",
        "arcpath_search_duration_seconds_bucket{lane=\"slow\",le=\"+Inf\"} 1",
        "arcpath_search_duration_seconds_sum{lane=\"slow\"} 0.020000000",
        "arcpath_search_duration_seconds_count{lane=\"slow\"} 1",
        "arcpath_search_duration_seconds_bucket{lane=\"fast\",le=\"0.0001\"} 1",
        "arcpath_search_duration_seconds_count{lane=\"fast\"} 1",
        "# TYPE arcpath_search_expanded_nodes_total counter",
        "arcpath_search_expanded_nodes_total 12355",
        "# TYPE arcpath_queue_depth gauge",
        "arcpath_queue_depth{lane=\"fast\"} 2",
        "arcpath_queue_depth{lane=\"slow\"} 0",
        "arcpath_overloaded_total{lane=\"fast\"} 0",
        "arcpath_overloaded_total{lane=\"slow\"} 1",
        "# TYPE arcpath_path_answers_total counter",
        "arcpath_path_answers_total{outcome=\"ok\"} 0",
        "arcpath_path_answers_total{outcome=\"capped\"} 2",
        "arcpath_path_answers_total{outcome=\"probe\"} 0",
        "arcpath_path_answers_total{outcome=\"no_path_unreachable\"} 1",
        "arcpath_path_answers_total{outcome=\"no_path_not_found\"} 0",
        "arcpath_path_answers_total{outcome=\"no_path_state_limit\"} 1",
        "arcpath_path_answers_total{outcome=\"timeout\"} 0",
        "arcpath_inflight_requests 2",
        "arcpath_maps_loaded 22",
        "# TYPE arcpath_access_log_dropped_total counter",
        "arcpath_access_log_dropped_total 7",
        "# TYPE arcpath_build_info gauge",
        "arcpath_build_info{version=\"1.2.3\"} 1",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        if (!has_line(t, lines[i]))
            fprintf(stderr, "--- exposition:\n%s", t); /* Check's message buffer is too small for it */
        ck_assert_msg(has_line(t, lines[i]), "missing line: %s", lines[i]);
    }
    ck_assert_ptr_null(strstr(t, "code=\"999\""));
    ck_assert_ptr_null(strstr(t, "arcpath_requests_total{route=\"/v1/maps/{id}\""));
    /* Routes that answered nothing have no series; no unlabelled histogram is left. */
    ck_assert_ptr_null(strstr(t, "arcpath_request_duration_seconds_count{route=\"/healthz\"}"));
    ck_assert_ptr_null(strstr(t, "arcpath_request_duration_seconds_count "));
    ck_assert(t[len - 1] == '\n');
    free(t);
}
END_TEST

START_TEST(test_histogram_cumulative)
{
    init_server_metrics(NULL);
    int healthz = route_of(AP_METHOD_GET, "/healthz");
    /* 1 us .. ~30 s, geometric: lands in every bucket including +Inf. */
    uint64_t v = 1000;
    int n = 0;
    for (; v < 30000000000ULL; v = v * 3 / 2, n++)
        ap_metrics_observe_request(&m, healthz, 200, v);
    char *t = ap_metrics_render(&m, NULL);
    ck_assert_ptr_nonnull(t);
    const char *key = "arcpath_request_duration_seconds_bucket{route=\"/healthz\",le=\"";
    unsigned long long prev = 0, last = 0;
    int buckets = 0;
    for (const char *p = t; (p = strstr(p, key)) != NULL; p++) {
        const char *sp = strchr(p, ' ');
        ck_assert_ptr_nonnull(sp);
        unsigned long long c = strtoull(sp + 1, NULL, 10);
        ck_assert_uint_ge(c, prev);
        prev = last = c;
        buckets++;
    }
    ck_assert_int_eq(buckets, AP_METRICS_BUCKETS + 1);
    ck_assert_uint_eq(last, (unsigned long long)n);
    char want[96];
    snprintf(want, sizeof want, "arcpath_request_duration_seconds_count{route=\"/healthz\"} %d", n);
    ck_assert(has_line(t, want));
    ck_assert(has_line(t, "arcpath_build_info{version=\"unknown\"} 1"));
    ck_assert(has_line(t, "arcpath_requests_total{route=\"/healthz\",code=\"200\"} 0") == 0);
    free(t);
    /* An observation half made while a scrape reads (its bucket counted, its count not yet): _count is
     * still the +Inf bucket, as the exposition format requires. */
    atomic_fetch_add(&m.request_duration[healthz].bucket[0], 1);
    t = ap_metrics_render(&m, NULL);
    snprintf(want, sizeof want, "arcpath_request_duration_seconds_bucket{route=\"/healthz\",le=\"+Inf\"} %d", n + 1);
    ck_assert(has_line(t, want));
    snprintf(want, sizeof want, "arcpath_request_duration_seconds_count{route=\"/healthz\"} %d", n + 1);
    ck_assert(has_line(t, want));
    free(t);
}
END_TEST

START_TEST(test_names)
{
    init_server_metrics(NULL);
    ck_assert_str_eq(ap_metrics_route_name(&m, route_of(AP_METHOD_GET, "/v1/maps/x")), "/v1/maps/{id}");
    ck_assert_str_eq(ap_metrics_route_name(&m, 42), "other");
    ck_assert_str_eq(ap_metrics_route_name(&m, -1), "other");
    ck_assert_str_eq(ap_metrics_lane_name(AP_LANE_SLOW), "slow");
    ap_metrics_init(&m, "a\"b\\c");
    ck_assert_str_eq(ap_metrics_route_name(&m, 0), "other"); /* no table given: nothing is labelled */
    char *t = ap_metrics_render(&m, NULL);
    ck_assert(has_line(t, "arcpath_build_info{version=\"a_b_c\"} 1"));
    free(t);
}
END_TEST

/* The value of the sample line "name value" in text, or -1 when there is none. */
static double sample_value(const char *text, const char *name)
{
    char want[128];
    snprintf(want, sizeof want, "\n%s ", name);
    const char *p = strstr(text, want);
    return p != NULL ? strtod(p + strlen(want), NULL) : -1.0;
}

/* The standard process_* metrics, with values checked against what this process can see itself: its
 * start lies between boot and now, it has the descriptors it just opened, memory and CPU are positive. */
START_TEST(test_process_metrics)
{
    init_server_metrics("1.2.3");
    FILE *extra[4];
    for (int i = 0; i < 4; i++)
        extra[i] = tmpfile();
    size_t len = 0;
    char *text = ap_metrics_render(&m, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert(has_line(text, "# TYPE process_cpu_seconds_total counter"));
    ck_assert(has_line(text, "# TYPE process_resident_memory_bytes gauge"));
    double rss = sample_value(text, "process_resident_memory_bytes");
    double vsz = sample_value(text, "process_virtual_memory_bytes");
    ck_assert_msg(rss > 1e5 && vsz >= rss, "rss %g, vsz %g", rss, vsz);
    ck_assert(sample_value(text, "process_cpu_seconds_total") >= 0.0);
    double start = sample_value(text, "process_start_time_seconds");
    double now = (double)time(NULL);
    ck_assert_msg(start > now - 86400.0 * 365 && start <= now + 1.0, "start %f, now %f", start, now);
    double fds = sample_value(text, "process_open_fds");
    ck_assert_msg(fds >= 3 + 4, "open fds %g", fds); /* stdin/out/err and the four just opened */
    ck_assert(sample_value(text, "process_max_fds") >= fds);
    free(text);
    for (int i = 0; i < 4; i++)
        fclose(extra[i]);
}
END_TEST

/* Each value in the fewest digits that read back as it: 12 ticks of CPU are 0.12 (%.17g printed
 * 0.11999999999999999), a start time keeps its hundredths, a byte count has no exponent. */
START_TEST(test_process_values_shortest)
{
    ap_process_stats st = {.cpu_seconds = 12.0 / 100.0, .resident_bytes = 123456789.0,
                           .start_time_seconds = 1796774400.0 + 37.0 / 100.0, .open_fds = 9.0,
                           .has_cpu = true, .has_memory = true, .has_start = true, .has_fds = true};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    ap_process_stats_render(f, &st);
    fclose(f);
    ck_assert_msg(has_line(text, "process_cpu_seconds_total 0.12"), "%s", text);
    ck_assert_msg(has_line(text, "process_resident_memory_bytes 123456789"), "%s", text);
    ck_assert_msg(has_line(text, "process_virtual_memory_bytes 0"), "%s", text);
    ck_assert_msg(has_line(text, "process_start_time_seconds 1796774400.37"), "%s", text);
    ck_assert_msg(has_line(text, "process_open_fds 9"), "%s", text);
    ck_assert_ptr_null(strstr(text, "process_max_fds")); /* not read: left out */
    /* a value that needs all 17 digits keeps them */
    st.cpu_seconds = 0.1 + 0.2;
    free(text);
    f = open_memstream(&text, &len);
    ap_process_stats_render(f, &st);
    fclose(f);
    ck_assert_msg(has_line(text, "process_cpu_seconds_total 0.30000000000000004"), "%s", text);
    free(text);
}
END_TEST

Suite *metrics_suite(void)
{
    Suite *s = suite_create("server/metrics");
    TCase *tc = tcase_create("metrics");
    tcase_add_test(tc, test_counters_exact);
    tcase_add_test(tc, test_histogram_cumulative);
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_process_metrics);
    tcase_add_test(tc, test_process_values_shortest);
    suite_add_tcase(s, tc);
    return s;
}
