/* test_tablework.c — table builds finished off the query path (server/tablework.h): a map version whose
 * disc graph (any_angle) and sized unit's JPS+ tables were left unfinished by a query with too little time is
 * offered once (twice: queued once), and the loop's slices on the pool finish and publish both, holding the
 * version until then and releasing it after; a version offered after stop is not taken, one replaced
 * meanwhile is dropped after its slice, and the pool thread a slice runs on is lowered by pool_nice. */
#include "tests/check_fast.h"
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>

#include "planner/anyangle/table.h"
#include "planner/base/status.h"
#include "planner/grid/jps_sized.h"
#include "planner/search/search.h"
#include "planner/world/clearance.h"
#include "planner/world/tables.h"
#include "server/metrics.h"
#include "server/tablework.h"

Suite *tablework_suite(void);

/* A 240 x 240 map with pseudo-random blocked 2 x 2 squares (some thousands of corners: a disc graph's build
 * takes milliseconds), published in a new registry as "rnd". */
static void publish_random_map(ap_registry *reg)
{
    enum { N = 240 };
    static char text[64 + (N + 1) * N];
    static char cells[N * N];
    memset(cells, '.', sizeof cells);
    uint32_t x = 12345u;
    for (int i = 0; i < 1500; i++) {
        x = x * 1664525u + 1013904223u;
        const int cx = (int)((x >> 8) % (N - 1)), cy = (int)((x >> 20) % (N - 1));
        cells[cy * N + cx] = cells[cy * N + cx + 1] = cells[(cy + 1) * N + cx] = cells[(cy + 1) * N + cx + 1] = '@';
    }
    int n = snprintf(text, sizeof text, "type octile\nheight %d\nwidth %d\nmap\n", N, N);
    for (int y = 0; y < N; y++) {
        memcpy(text + n, cells + y * N, N);
        n += N;
        text[n++] = '\n';
    }
    ap_map *m = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("rnd", "rnd.map", text, (size_t)n, NULL, &m, &d), AP_OK);
    ck_assert_int_eq(ap_registry_init(reg), AP_OK);
    ck_assert_int_eq(ap_registry_publish(reg, m, NULL, NULL, NULL), AP_OK);
}

START_TEST(unfinished_builds_finished_on_the_pool)
{
    uv_loop_t loop;
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    ap_registry reg;
    publish_random_map(&reg);
    ap_map_version *v = ap_registry_acquire(&reg, "rnd");
    ck_assert_ptr_nonnull(v);
    const ap_map *m = v->map;
    /* a query's 1 ms: both builds started and left unfinished (one at a time per map and kind) */
    ck_assert_ptr_null(ap_aa_table_graph_until(m, 0.5, 0.0, ap_clock_ns() + 1000000));
    const ap_clearance_table *t = ap_clearance_of(m, m->capability);
    const uint16_t key = ap_jps_disc_key(0.7);
    ck_assert_ptr_null(ap_jps_sized_get_until(m, t, key, ap_clock_ns() + 1000000));
    ck_assert(ap_map_tables_pending(m));
    ap_metrics metrics;
    ap_metrics_init(&metrics, "test");
    ap_tablework w;
    ck_assert_int_eq(ap_tablework_init(&w, &loop, &reg, &metrics, 0), 0);
    ap_tablework_offer(&w, v);
    ap_tablework_offer(&w, v); /* already running: not queued again */
    ck_assert_int_eq(atomic_load(&metrics.table_work_maps), 1);
    ck_assert_uint_eq(atomic_load(&v->refs), 3); /* the registry's, this test's, the table work's */
    ap_map_version_release(v); /* the request's answer is written: the table work keeps the version */
    uv_run(&loop, UV_RUN_DEFAULT); /* returns once no slice is left */
    ck_assert(!ap_map_tables_pending(m));
    ck_assert_uint_ge(w.slices, 1);
    ck_assert_uint_eq(atomic_load(&v->refs), 1); /* released after its last slice */
    size_t len;
    char *text = ap_metrics_render(&metrics, &len);
    char want[96];
    snprintf(want, sizeof want, "\narcpath_table_work_slices_total %llu\n", (unsigned long long)w.slices);
    ck_assert_ptr_nonnull(strstr(text, want));
    ck_assert_ptr_nonnull(strstr(text, "\narcpath_table_work_maps 0\n"));
    free(text);
    const ap_aa_graph *g = ap_aa_table_graph_until(m, 0.5, 0.0, 1);
    ck_assert_ptr_nonnull(g);
    ck_assert_ptr_nonnull(g->dep_start);
    ck_assert_ptr_nonnull(ap_jps_sized_find(m, t, key));
    /* nothing pending: an offer takes nothing */
    ap_tablework_offer(&w, v);
    ck_assert_uint_eq(atomic_load(&v->refs), 1);
    ap_tablework_stop(&w);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    ap_registry_free(&reg);
}
END_TEST

/* The random map's version (acquired: the caller releases it) with a disc graph's build left unfinished by
 * a query's 1 ms, offered to a new table work w (pool threads lowered by pool_nice) on a new loop over a new
 * registry. */
static ap_map_version *offered_unfinished(uv_loop_t *loop, ap_registry *reg, ap_tablework *w, int pool_nice)
{
    ck_assert_int_eq(uv_loop_init(loop), 0);
    publish_random_map(reg);
    ap_map_version *v = ap_registry_acquire(reg, "rnd");
    ck_assert_ptr_null(ap_aa_table_graph_until(v->map, 0.5, 0.0, ap_clock_ns() + 1000000));
    ck_assert_int_eq(ap_tablework_init(w, loop, reg, NULL, pool_nice), 0);
    ap_tablework_offer(w, v); /* a slice in the pool */
    return v;
}

/* Stopped (the server's drain): the queued versions are released at once, a slice already in the pool ends
 * and releases its version, and nothing is started or taken after. */
START_TEST(stop_releases_and_takes_nothing)
{
    uv_loop_t loop;
    ap_registry reg;
    ap_tablework w;
    ap_map_version *v = offered_unfinished(&loop, &reg, &w, 0); /* a slice in the pool */
    ck_assert_uint_eq(atomic_load(&v->refs), 3);
    ap_tablework_stop(&w);
    ap_tablework_stop(&w); /* idempotent */
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_uint_eq(w.slices, 1);
    ck_assert_uint_eq(atomic_load(&v->refs), 2);
    ap_tablework_offer(&w, v);
    ck_assert_uint_eq(atomic_load(&v->refs), 2);
    ck_assert_int_eq(w.running == NULL && w.n == 0, 1);
    ap_map_version_release(v);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    ap_registry_free(&reg); /* the map goes with its unfinished build (the sanitizer run checks the frees) */
}
END_TEST

/* A version replaced meanwhile (a PUT, a tile update, a reload) is dropped after its slice: its build would
 * serve no query any more. */
START_TEST(replaced_version_is_dropped)
{
    uv_loop_t loop;
    ap_registry reg;
    ap_tablework w;
    ap_map_version *v = offered_unfinished(&loop, &reg, &w, 0);
    ap_map *m2 = NULL;
    ap_diag d;
    static const char small[] = "type octile\nheight 2\nwidth 2\nmap\n..\n..\n";
    ck_assert_int_eq(ap_map_parse("rnd", "rnd.map", small, sizeof small - 1, NULL, &m2, &d), AP_OK);
    ck_assert_int_eq(ap_registry_publish(&reg, m2, NULL, NULL, NULL), AP_OK); /* v is no longer current */
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_uint_eq(w.slices, 1);
    ck_assert(ap_map_tables_pending(v->map)); /* left unfinished */
    ck_assert_uint_eq(atomic_load(&v->refs), 1); /* this test's only */
    ap_map_version_release(v);
    ap_tablework_stop(&w);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    ap_registry_free(&reg);
}
END_TEST

/* The pool thread's nice value, read on the thread (probe_work). */
static int probed_nice;

static void probe_work(uv_work_t *req)
{
    (void)req;
    errno = 0;
    probed_nice = getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
    if (errno != 0)
        probed_nice = INT_MIN;
}

static void probe_done(uv_work_t *req, int status)
{
    (void)req;
    (void)status;
}

/* In a new process with a one-thread pool: 0 when the thread that ran the table work's slice has the nice
 * value want and the main thread still base, else 1 (each printed). */
static int slice_thread_nice_is(int pool_nice, int base, int want)
{
    setenv("UV_THREADPOOL_SIZE", "1", 1); /* read when this process's pool starts, at its first work */
    uv_loop_t loop;
    ap_registry reg;
    ap_tablework w;
    ap_map_version *v = offered_unfinished(&loop, &reg, &w, pool_nice);
    uv_run(&loop, UV_RUN_DEFAULT); /* the slices, on the pool's only thread */
    ap_map_version_release(v);
    uv_work_t probe;
    uv_queue_work(&loop, &probe, probe_work, probe_done); /* the same thread: it ran nothing but table work */
    uv_run(&loop, UV_RUN_DEFAULT);
    errno = 0;
    const int main_nice = getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
    printf("table work's pool thread: nice %d (want %d); main thread %d (want %d)\n", probed_nice, want,
           main_nice, base);
    fflush(stdout); /* the caller leaves by _exit */
    ap_tablework_stop(&w);
    ap_registry_free(&reg);
    return probed_nice == want && main_nice == base ? 0 : 1;
}

/* pool_nice lowers a pool thread that has run only table work, as it lowers one that has run searches
 * (before: only lanes.c's work set it up, and a thread that took table slices first stayed at the
 * process's priority, competing with the HTTP thread's short queries). */
START_TEST(slices_run_on_lowered_pool_threads)
{
    errno = 0;
    const int base = getpriority(PRIO_PROCESS, 0);
    ck_assert_int_eq(errno, 0);
    if (base >= 19) {
        printf("slices_run_on_lowered_pool_threads: the test runs at nice 19, no lower to check\n");
        return;
    }
    const int inc = base <= 15 ? 4 : 19 - base;
    fflush(stdout);
    const pid_t pid = fork(); /* a process of its own: its pool starts with one thread, at this test's work */
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        _exit(slice_thread_nice_is(inc, base, base + inc));
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the slice's pool thread was not lowered by %d", inc);
}
END_TEST

Suite *tablework_suite(void)
{
    Suite *s = suite_create("server/tablework");
    TCase *tc = tcase_create("tablework");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, unfinished_builds_finished_on_the_pool);
    tcase_add_test(tc, stop_releases_and_takes_nothing);
    tcase_add_test(tc, replaced_version_is_dropped);
    tcase_add_test(tc, slices_run_on_lowered_pool_threads);
    suite_add_tcase(s, tc);
    return s;
}
