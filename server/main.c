/* main.c — arcpathd: configuration, map registry, lanes, HTTP, signals and the drain on shutdown.
 *
 * Exit codes: 0 normal (including --help/--version and a clean shutdown on SIGTERM/SIGINT, and
 * --check-config without errors), 1 start-up failure or --check-config with errors, 2 configuration error.
 * SIGHUP reloads the maps folder (on_sighup: new, changed and removed files; server/lifecycle.h), built off
 * the loop thread; queries in flight finish on the map versions they started with.
 *
 * No maps at start (empty or missing directory, or every file bad): we still serve. /healthz is 200 (the
 * process is alive), /readyz is 503 not_ready, /v1/path answers unknown_map. Refusing to start would make an
 * orchestrator restart-loop a container whose real problem is a missing volume; a live-but-not-ready
 * process says exactly what is wrong and can be inspected. --check-config is the strict gate for CI.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <uv.h>

#include "../config/config.h"
#include "../planner/world/capability.h"
#include "../config/version.h"
#include "../planner/kino/kino.h"
#include "../planner/plan/plan.h"
#include "../planner/search/search.h"
#include "../planner/base/status.h"
#include "../proto/json_scratch.h"
#include "http.h"
#include "lanes.h"
#include "lifecycle.h"
#include "metrics.h"
#include "process_stats.h"
#include "profiles_route.h"
#include "registry.h"
#include "tablework.h"

/* After the lanes drained, how long to wait for MHD to send the resumed answers before stopping it. */
#define SEND_WAIT_MS 2000
#define SEND_POLL_MS 10

typedef struct ap_server {
    ap_config cfg;
    ap_registry reg;
    ap_map_opts opts;     /* the maps' load options (limits, terrain costs): start, uploads and reloads */
    uint8_t caps[AP_CONFIG_MAX_CAPABILITIES + AP_CONFIG_MAX_UNITS + 1]; /* opts.capabilities */
    ap_lifecycle lc;
    ap_metrics metrics;
    ap_lanes lanes;
    ap_http http;
    ap_tablework tablework; /* table builds finished off the query path (tablework.h) */
    uv_loop_t loop;
    uv_signal_t sigterm, sigint, sighup;
    uv_timer_t send_wait;
    uv_timer_t log_flush;
    ap_accesslog alog; /* the access log, written to stdout by log_flush (accesslog.h) */
    ap_accesslog elog; /* the server's messages once it serves, written to stderr by log_flush */
    FILE *errf;        /* the stream over elog (ap_accesslog_file), or NULL: stderr itself */
    uint64_t send_deadline_ns;
    bool stopping;
} ap_server;

/* Where the server's messages go once threads run: a stream that never blocks on stderr (a reader that
 * stopped reading costs dropped lines, not the HTTP thread nor the loop's signal handling: an ops helper's
 * unread stderr pipe froze /healthz and SIGTERM). */
static FILE *errlog(ap_server *s)
{
    return s->errf != NULL ? s->errf : stderr;
}

/* Hand on the stream's last lines and write them out (up to wait_ms for a slow reader), then free the
 * buffer. */
static void close_errlog(ap_server *s, int wait_ms)
{
    if (s->errf != NULL)
        fclose(s->errf);
    s->errf = NULL;
    if (s->elog.buf != NULL)
        ap_accesslog_flush(&s->elog, wait_ms);
    ap_accesslog_free(&s->elog);
}

static void on_handle_closed(uv_handle_t *h)
{
    (void)h;
}

/* Close the server's own loop handles (signals and timers) so uv_run can return once the lanes closed. */
/* The stop signals. Only the loop (main) thread ever takes them: every other thread (libmicrohttpd's, the
 * watchdog, libuv's pool) starts while they are blocked and keeps that mask, so the main thread alone
 * decides when they can act. */
static void quit_signals(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGHUP);
}

static void noop_work(uv_work_t *w)
{
    (void)w;
}

static void idle_thread(void *arg)
{
    (void)arg;
}

/* Whether `n` threads with the stack libuv gives its pool's can run at once: libuv aborts the process (no message) when
 * it cannot start its pool's threads, at the first uv_queue_work, as under an address-space limit that the
 * workspaces just fit (a helper's prlimit --as run). Threads made and joined here first turn that into an
 * error naming the cause. 0, or the libuv error of the first thread that could not start. */
static int pool_threads_start(int n)
{
    uv_thread_t t[128];
    int made = 0, rc = 0;
    if (n > (int)(sizeof t / sizeof t[0]))
        n = (int)(sizeof t / sizeof t[0]);
#if UV_VERSION_HEX >= 0x012d00
    /* libuv 1.45 and later give the pool's threads 8 MiB stacks whatever RLIMIT_STACK says */
    const uv_thread_options_t opts = {.flags = UV_THREAD_HAS_STACK_SIZE, .stack_size = (size_t)8 << 20};
    while (made < n && (rc = uv_thread_create_ex(&t[made], &opts, idle_thread, NULL)) == 0)
        made++;
#else
    /* before 1.45 (Debian 12's 1.44): the default stack, as libuv's pool takes it */
    while (made < n && (rc = uv_thread_create(&t[made], idle_thread, NULL)) == 0)
        made++;
#endif
    while (made > 0)
        uv_thread_join(&t[--made]);
    return rc;
}

static void noop_after(uv_work_t *w, int status)
{
    (void)w;
    (void)status;
}

static void close_handles(ap_server *s)
{
    /* Closing a uv_signal_t restores the default action (inside uv_close), and a second SIGTERM (an
     * impatient supervisor) landing before SIG_IGN below killed a process that was already shutting down
     * cleanly. Blocked in this thread (and in every other one, see quit_signals), such a signal waits, and
     * SIG_IGN then discards it. */
    sigset_t quit;
    quit_signals(&quit);
    pthread_sigmask(SIG_BLOCK, &quit, NULL);
    uv_close((uv_handle_t *)&s->sigterm, on_handle_closed);
    uv_close((uv_handle_t *)&s->sigint, on_handle_closed);
    uv_close((uv_handle_t *)&s->sighup, on_handle_closed);
    /* The drain is over: ignore them from here on (SIGKILL still works). */
    signal(SIGTERM, SIG_IGN);
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    uv_close((uv_handle_t *)&s->send_wait, on_handle_closed);
    uv_close((uv_handle_t *)&s->log_flush, on_handle_closed);
}

static void finish_shutdown(ap_server *s)
{
    uv_timer_stop(&s->send_wait);
    /* A map build in progress finishes (its request is answered); queued ones answer not_ready. Before
     * ap_http_stop: no connection may stay suspended. */
    ap_lifecycle_stop(&s->lc);
    ap_http_stop(&s->http);
    ap_lanes_close(&s->lanes);
    close_handles(s);
    /* the logs' last lines: up to 2 s in all for readers that are slow (not forever for ones that are gone;
     * each log waiting its own 2 s made an unread stdout and stderr cost 4 s of the grace period) */
    const uint64_t t0 = ap_clock_ns();
    ap_accesslog_flush(&s->alog, 2000);
    fflush(errlog(s));
    const uint64_t spent_ms = (ap_clock_ns() - t0) / 1000000u;
    ap_accesslog_flush(&s->elog, spent_ms < 2000 ? (int)(2000 - spent_ms) : 0);
}

static void on_log_flush(uv_timer_t *t)
{
    ap_server *s = t->data;
    ap_accesslog_flush(&s->alog, 0);
    ap_accesslog_flush(&s->elog, 0);
}

static void on_send_wait(uv_timer_t *t)
{
    ap_server *s = t->data;
    if (ap_http_inflight(&s->http) == 0 || ap_clock_ns() >= s->send_deadline_ns)
        finish_shutdown(s);
}

/* Every job has been answered and its connection resumed; MHD still has to write those answers. */
static void on_drained(ap_lanes *l, void *arg)
{
    (void)l;
    ap_server *s = arg;
    s->send_deadline_ns = ap_clock_ns() + (uint64_t)SEND_WAIT_MS * 1000000ULL;
    uv_timer_start(&s->send_wait, on_send_wait, 0, SEND_POLL_MS);
}

static void on_signal(uv_signal_t *sig, int signum)
{
    ap_server *s = sig->data;
    if (s->stopping) {
        /* A second signal: stop waiting for running searches. */
        fprintf(errlog(s), "arcpathd: %s again, cancelling running searches\n", strsignal(signum));
        ap_lanes_cancel(&s->lanes);
        return;
    }
    s->stopping = true;
    fprintf(errlog(s), "arcpathd: %s, draining (%zu jobs in flight, up to %d ms)\n", strsignal(signum),
            ap_lanes_outstanding(&s->lanes), s->cfg.drain_timeout_ms);
    ap_http_begin_drain(&s->http);
    ap_tablework_stop(&s->tablework);
    ap_lanes_drain(&s->lanes, s->cfg.drain_timeout_ms, on_drained, s);
}

/* SIGHUP, the conventional "reload": rescan the maps folder on the lifecycle thread (a rescan already
 * queued absorbs this one). Ignored while draining. */
static void on_sighup(uv_signal_t *sig, int signum)
{
    ap_server *s = sig->data;
    (void)signum;
    if (s->stopping) {
        fprintf(errlog(s), "arcpathd: SIGHUP while shutting down: ignored\n");
        return;
    }
    if (!ap_lifecycle_rescan(&s->lc))
        fprintf(errlog(s), "arcpathd: SIGHUP: a reload of the maps folder is already queued\n");
}

/* The kind of the loaded map id, or -1 when none is loaded. */
static int loaded_kind(ap_registry *reg, const char *id)
{
    ap_map_version *v = ap_registry_acquire(reg, id);
    int kind = v != NULL ? (int)v->kind : -1;
    ap_map_version_release(v);
    return kind;
}

/* A terrain-cost, scale or skip_tables entry for a map that is not loaded is most likely a typo: say so (a warning, not an
 * error: one config may serve several map sets); so is a terrain-cost entry for a circle map, which has no
 * terrains (its scale applies), and a skip_tables entry for one, which has no grid tables. */
static void warn_unused(ap_server *s, const char *key, const char *id, FILE *f)
{
    if (strcmp(id, "*") == 0)
        return;
    const int kind = loaded_kind(&s->reg, id);
    if (kind < 0)
        fprintf(f, "arcpathd: config warning: \"%s.%s\": no map with this id is loaded\n", key, id);
    else if (kind == AP_MAP_KIND_CIRCLES && strcmp(key, "terrain_costs") == 0)
        fprintf(f, "arcpathd: config warning: \"%s.%s\": a circle map has no terrains (the entry does nothing)\n",
                key, id);
    else if (kind == AP_MAP_KIND_CIRCLES && strcmp(key, "skip_tables") == 0)
        fprintf(f, "arcpathd: config warning: \"%s.%s\": a circle map has none of the grid's tables (the entry does "
                "nothing)\n", key, id);
}

static void warn_unused_terrain(ap_server *s, FILE *f)
{
    for (size_t i = 0; i < s->cfg.n_terrain; i++)
        warn_unused(s, "terrain_costs", s->cfg.terrain[i].map_id, f);
    for (size_t i = 0; i < s->cfg.n_scales; i++)
        warn_unused(s, "meters_per_tile", s->cfg.scales[i].map_id, f);
    for (size_t i = 0; i < s->cfg.n_skips; i++)
        warn_unused(s, "skip_tables", s->cfg.skips[i].map_id, f);
}

/* The nodes every search workspace gets (*capacity): the largest map's, at least
 * AP_PLAN_MIN_WORKSPACE_NODES, or max_workspace_cells when set; *need_bytes (if not NULL): the most bytes
 * the workers + slow_slots workspaces come to hold (ap_workspace_bytes_max); *kino_bytes (if not NULL): the
 * bytes kinodynamic searches add in all of them (their states and id tables), warned about on err when
 * those, the workspaces and the memory the process holds already pass the memory limit (not refused).
 * 0 when they can be allocated; else 1 with the reason on err: max_workspace_cells below the largest map loaded, or workers + slow_slots
 * workspaces that would need more than the memory the process may use (ap_process_memory_limit: physical
 * memory, RLIMIT_AS, the cgroup's limit). Why refuse at start: the workspaces' node matrices are written at start and their open
 * lists fill under load, so a budget over the limit ends in an OOM kill at start or, worse, under traffic. */
static int plan_workspaces(const ap_server *s, uint32_t *capacity, double *need_bytes, double *kino_bytes, FILE *err)
{
    uint32_t cap = s->reg.max_nodes > AP_PLAN_MIN_WORKSPACE_NODES ? s->reg.max_nodes : AP_PLAN_MIN_WORKSPACE_NODES;
    /* max_workspace_cells fixes it, so maps added later (PUT, reload) up to that size can be searched. */
    if (s->cfg.max_workspace_cells > 0) {
        if ((uint64_t)s->cfg.max_workspace_cells < s->reg.max_nodes) {
            fprintf(err,
                    "arcpathd: max_workspace_cells %lld is smaller than the largest map loaded: %u nodes, (width + 2) "
                    "* (height + 2) for a map of width x height cells\n",
                    (long long)s->cfg.max_workspace_cells, s->reg.max_nodes);
            return 1;
        }
        cap = (uint32_t)s->cfg.max_workspace_cells;
    }
    *capacity = cap;
    const char *source = NULL;
    const double limit = ap_process_memory_limit(&source);
    const int n = s->cfg.workers + s->cfg.slow_slots;
    /* MiB, the need rounded up and the limit down: 343 against 293 MiB printed as "0.3 GiB" both */
    const double need = (double)n * (double)ap_workspace_bytes_max(cap), mib = 1024.0 * 1024.0;
    if (need_bytes != NULL)
        *need_bytes = need;
    /* Beside the workspaces: what the process holds already (its maps and tables: what it has mapped, where
     * RLIMIT_AS counts address space, else what is resident), and under RLIMIT_AS the stacks of the threads
     * still to start (the worker pool's `workers`, the HTTP threads, the lifecycle and watchdog threads, one
     * spare: each maps RLIMIT_STACK). Comparing the workspaces alone, --check-config said OK at 97 MiB of
     * RLIMIT_AS where the start failed (86 MiB of workspaces beside 21 MiB held; then the pool's and
     * libmicrohttpd's threads, up to 150 MiB: a helper). */
    ap_process_stats now;
    ap_process_stats_read(&now);
    const bool as_limit = source != NULL && strcmp(source, "RLIMIT_AS") == 0;
    const double held = !now.has_memory ? 0.0 : as_limit ? now.virtual_bytes : now.resident_bytes;
    double stacks = 0.0;
    if (as_limit) {
        struct rlimit st;
        const double stack = getrlimit(RLIMIT_STACK, &st) == 0 && st.rlim_cur != RLIM_INFINITY && st.rlim_cur > 0
                                 ? (double)st.rlim_cur
                                 : 8.0 * mib;
        /* (a running server at workers 2, http_threads 1: 6 threads, the main one included) */
        stacks = (double)(s->cfg.workers + s->cfg.http_threads + 3) * stack;
    }
    if (limit > 0.0 && held + need + stacks > limit) {
        fprintf(err,
                "arcpathd: %d + %d search workspaces of %u nodes need up to %.0f MiB (%.0f bytes a node each); "
                "beside the %.0f MiB the process holds now (maps, tables)%s, more than the %.0f MiB this process "
                "may use (%s): lower max_workspace_cells, workers or slow_slots, or raise the limit\n",
                s->cfg.workers, s->cfg.slow_slots, cap, ceil(need / mib), (double)ap_workspace_bytes_max(1),
                ceil(held / mib), as_limit ? " and its threads' stacks" : "", floor(limit / mib), source);
        return 1;
    }
    /* Not refused: kinodynamic searches are optional, and a query that cannot reserve its states answers
     * 500 (out of memory) while the others go on. But an operator who plans for them should know before the
     * first one fails (a helper: --check-config said OK, then every kinodynamic query answered 500). Each
     * state takes its pose (88 bytes a node, reserved) and up to 4 slots of the id table (64 bytes, while the
     * search runs); and the process already holds its maps and tables: what it has mapped now (RLIMIT_AS
     * counts address space) or has resident (physical memory, a cgroup), beside the workspaces' figure. */
    const double per_node = (double)sizeof(ap_kino_state) + AP_KINO_TABLE_BYTES_PER_STATE;
    const double kino = (double)n * per_node * (double)cap;
    if (kino_bytes != NULL)
        *kino_bytes = kino;
    if (limit > 0.0 && held + need + stacks + kino > limit)
        fprintf(err,
                "arcpathd: warning: kinodynamic searches take up to %.0f bytes a node more in each workspace that "
                "runs one: with them the workspaces' %.0f MiB and the %.0f MiB held now (maps, tables) pass the "
                "%.0f MiB this process may use (%s); past it a kinodynamic query answers 500 internal (out of "
                "memory): lower max_workspace_cells, workers or slow_slots to be sure of them\n",
                per_node, ceil((need + kino) / mib), ceil(held / mib), floor(limit / mib), source);
    return 0;
}

/* Descriptors arcpathd keeps besides its connections: the listening socket, epoll, libuv's and the lanes'
 * wake-ups, stdio, and the files a map reload, a picture's fonts or a scrape open for a moment; plus
 * AP_FD_PER_HTTP_THREAD for each HTTP thread (libmicrohttpd gives each its epoll and its wake-up: idle, the
 * server held 14 descriptors with 1 thread, 76 with 32, 140 with 64, and a fixed 64 let the 64-thread
 * server promise connections it then could not accept, spinning on EMFILE: a helper). */
#define AP_FD_RESERVE 64
#define AP_FD_PER_HTTP_THREAD 3
/* Below the reserve (a limit of a few dozen descriptors), what the process holds with no connection: those
 * open now, the HTTP threads', and this many for its own sockets and wake-ups. */
#define AP_FD_IDLE_EXTRA 8

/* Make room for max_connections connections in the open-file limit: raise the soft RLIMIT_NOFILE up to the
 * hard one if it is short (as Redis does), and where even that is short lower max_connections to what fits,
 * with a warning on err. Why: past the limit accept() fails with EMFILE, libmicrohttpd stops accepting and
 * logs each failure, and every client (health checks too) waits; at the connection limit MHD refuses in an
 * orderly way (the backlog waits) and says nothing. */
static void fit_open_files(ap_server *s, FILE *err)
{
    const uint64_t threads =
        (uint64_t)AP_FD_PER_HTTP_THREAD * (uint64_t)(s->cfg.http_threads > 0 ? s->cfg.http_threads : 1);
    const uint64_t reserve = AP_FD_RESERVE + threads;
    const uint64_t want = (uint64_t)s->cfg.max_connections + reserve;
    const uint64_t have = ap_process_raise_nofile(want);
    if (have == 0 || have >= want)
        return;
    uint64_t fit = 1;
    if (have > reserve) {
        fit = have - reserve;
    } else { /* a tiny limit: what is left once the process holds what it holds idle (no room for reloads) */
        ap_process_stats ps;
        ap_process_stats_read(&ps);
        const uint64_t idle = (ps.has_fds ? (uint64_t)ps.open_fds : 3u) + threads + AP_FD_IDLE_EXTRA;
        fit = have > idle ? have - idle : 1;
    }
    fprintf(err,
            "arcpathd: the open-file limit (RLIMIT_NOFILE %llu, its hard limit too) leaves room for %llu connections: "
            "max_connections %d lowered to %llu; raise the limit (ulimit -n, LimitNOFILE=, the container's "
            "nofile) to %llu to keep it\n",
            (unsigned long long)have, (unsigned long long)fit, s->cfg.max_connections, (unsigned long long)fit,
            (unsigned long long)want);
    s->cfg.max_connections = (int)fit;
}

static int check_config(ap_server *s)
{
    printf("arcpathd --check-config: maps dir %s: %zu maps loaded, %d errors\n", s->cfg.maps_dir,
           ap_registry_count(&s->reg), s->reg.errors);
    ap_map_version **vs = NULL;
    size_t nv = 0;
    ap_registry_snapshot(&s->reg, &vs, &nv);
    for (size_t i = 0; i < nv; i++) {
        if (vs[i]->kind != AP_MAP_KIND_GRID)
            continue;
        const ap_map *m = vs[i]->map;
        printf("  %s %dx%d, %lld passable cells, %u regions", m->id, m->width, m->height,
               (long long)m->passable_cells, m->region_count);
        if (m->weighted) {
            printf(", terrain costs");
            for (int k = 0; k < AP_TERRAIN_KINDS; k++)
                if (m->cost_of[k] > 0.0)
                    printf(" %c %g", AP_TERRAIN_CHARS[k], m->cost_of[k]);
        }
        printf("\n");
    }
    for (size_t i = 0; i < nv; i++) {
        const ap_circle_map *c = &vs[i]->circles;
        if (vs[i]->kind == AP_MAP_KIND_CIRCLES)
            printf("  %s circles %gx%g, %zu circles\n", c->id, ap_circle_world_width(c->world),
                   ap_circle_world_height(c->world), ap_circle_world_count(c->world));
    }
    ap_registry_snapshot_free(vs, nv);
    /* Preloaded profiles are built here too, so a profile list that cannot be built fails the check. */
    printf("arcpathd --check-config: %zu unit profiles to preload\n", s->cfg.n_profiles);
    int bad = ap_profiles_preload(ap_profile_cache_default(), &s->cfg, stdout) != 0;
    /* The workspaces are not allocated here; what serving would need is checked against the memory limit. */
    uint32_t capacity = 0;
    double need = 0.0, kino = 0.0;
    if (plan_workspaces(s, &capacity, &need, &kino, stdout) != 0)
        bad = 1;
    else
        printf("arcpathd --check-config: %d + %d search workspaces of %u nodes, up to %.0f MiB (%.0f MiB with "
               "kinodynamic searches in all of them)\n",
               s->cfg.workers, s->cfg.slow_slots, capacity, ceil(need / 1048576.0), ceil((need + kino) / 1048576.0));
    printf("%s\n", s->reg.errors || bad ? "FAILED" : "OK");
    return s->reg.errors || bad ? 1 : 0;
}

/* serve() failed after the lanes exist: let their workers finish (the loop runs their closes), then free
 * them. handles: the signal and timer handles were initialised and must be closed too. Returns 1. */
static int serve_abort(ap_server *s, bool handles)
{
    ap_lanes_close(&s->lanes);
    if (handles)
        close_handles(s);
    uv_run(&s->loop, UV_RUN_DEFAULT);
    uv_loop_close(&s->loop);
    ap_lanes_free(&s->lanes);
    ap_accesslog_free(&s->alog); /* nothing to free when it was never made (s is zeroed) */
    close_errlog(s, 2000); /* (why the start failed) */
    return 1;
}

static int serve(ap_server *s)
{
    char err[512] = "";
    ap_metrics_init(&s->metrics, ARCPATH_VERSION);
    ap_metrics_set_maps(&s->metrics, (int64_t)ap_registry_count(&s->reg));
    /* Unit profiles from the config: built before serving, so their first queries find the tables ready. */
    ap_metrics_set_profiles(&s->metrics, ap_profile_cache_default());
    if (ap_profiles_preload(ap_profile_cache_default(), &s->cfg, stderr) != 0)
        return 1;

    sigset_t quit;
    quit_signals(&quit);
    pthread_sigmask(SIG_BLOCK, &quit, NULL); /* until every thread exists: they inherit the blocked mask */
    if (uv_loop_init(&s->loop) != 0) {
        fprintf(stderr, "arcpathd: cannot create the event loop\n");
        return 1;
    }
    ap_lanes_config lc;
    /* Workspaces hold the largest map's grid search, and at least a useful directional window. */
    uint32_t capacity = 0;
    if (plan_workspaces(s, &capacity, NULL, NULL, stderr) != 0) {
        uv_loop_close(&s->loop);
        return 1;
    }
    s->reg.capacity = capacity; /* a bigger map is refused from now on: no workspace could search it */
    s->opts.max_nodes = capacity; /* ... from its header (uploads, reloads, rescans: they read s->opts) */
    ap_lanes_config_from(&lc, &s->cfg, capacity);
    /* ap_lanes_init also sets UV_THREADPOOL_SIZE: this is before any uv_queue_work and before MHD's thread
     * exists, so no other thread reads the environment meanwhile. */
    if (ap_lanes_init(&s->lanes, &s->loop, &lc, &s->metrics, ap_http_on_job_done, &s->http) != AP_OK) {
        fprintf(stderr, "arcpathd: cannot allocate %d + %d search workspaces of %u nodes\n", lc.workers,
                lc.slow_slots, lc.capacity);
        uv_loop_close(&s->loop);
        return 1;
    }
    /* libuv starts its pool on the first uv_queue_work: do it now, while the stop signals are blocked. */
    const char *pool_size = getenv("UV_THREADPOOL_SIZE");
    const int pool_n = pool_size != NULL ? atoi(pool_size) : 4;
    const int prc = pool_threads_start(pool_n);
    if (prc != 0) {
        fprintf(stderr, "arcpathd: cannot start the worker pool's %d threads (%s) beside %d + %d search workspaces of "
                        "%u nodes: lower max_workspace_cells or workers, or raise the memory limit\n",
                pool_n, uv_strerror(prc), lc.workers, lc.slow_slots, lc.capacity);
        return serve_abort(s, false);
    }
    static uv_work_t warm_pool;
    uv_queue_work(&s->loop, &warm_pool, noop_work, noop_after);
    uv_signal_init(&s->loop, &s->sigterm);
    uv_signal_init(&s->loop, &s->sigint);
    uv_signal_init(&s->loop, &s->sighup);
    uv_timer_init(&s->loop, &s->send_wait);
    uv_timer_init(&s->loop, &s->log_flush);
    s->sigterm.data = s->sigint.data = s->sighup.data = s->send_wait.data = s->log_flush.data = s;
    uv_timer_start(&s->log_flush, on_log_flush, 50, 50);
    uv_unref((uv_handle_t *)&s->log_flush); /* never keeps the loop alive on its own */
    uv_signal_start(&s->sigterm, on_signal, SIGTERM);
    uv_signal_start(&s->sigint, on_signal, SIGINT);
    uv_signal_start(&s->sighup, on_sighup, SIGHUP);

    /* 1 MiB of lines may wait for the log's reader (about 5,000 requests) before lines are dropped */
    int rc = ap_accesslog_init(&s->alog, STDOUT_FILENO, (size_t)1 << 20) == 0 ? AP_OK : AP_E_NOMEM;
    /* and 256 KiB of the server's messages for stderr's reader (libmicrohttpd's are 20 a second at most) */
    if (rc == AP_OK && ap_accesslog_init(&s->elog, STDERR_FILENO, (size_t)1 << 18) == 0) {
        s->elog.note = "arcpathd: %llu messages dropped: stderr was not being read\n";
        s->errf = ap_accesslog_file(&s->elog);
    }
    if (rc != AP_OK || s->errf == NULL)
        snprintf(err, sizeof err, "out of memory for the logs' buffers");
    else if ((rc = ap_lifecycle_start(&s->lc, &s->reg, s->cfg.maps_dir, &s->opts, errlog(s))) != AP_OK)
        snprintf(err, sizeof err, "cannot start the map-lifecycle thread");
    else
        rc = ap_http_start(&s->http, &s->cfg, &s->reg, &s->lc, &s->lanes, &s->metrics,
                           s->cfg.access_log ? &s->alog : NULL, errlog(s), err, sizeof err);
    if (rc != AP_OK || s->errf == NULL) {
        fprintf(errlog(s), "arcpathd: %s\n", err); /* (after libmicrohttpd's line, which went that way) */
        ap_lifecycle_stop(&s->lc);
        return serve_abort(s, true);
    }
    ap_tablework_init(&s->tablework, &s->loop, &s->reg, &s->metrics, s->cfg.pool_nice);
    s->http.tablework = &s->tablework; /* read only by ap_http_on_job_done, on this (the loop) thread */
    pthread_sigmask(SIG_UNBLOCK, &quit, NULL); /* every thread is up: the loop thread takes the signals now */
    bool v6 = strchr(s->cfg.listen_host, ':') != NULL;
    fprintf(errlog(s), "arcpathd listening on %s%s%s:%u, %zu maps%s\n", v6 ? "[" : "", s->cfg.listen_host,
            v6 ? "]" : "", (unsigned)s->http.port, ap_registry_count(&s->reg),
            ap_registry_count(&s->reg) ? "" : " (not ready: no maps loaded)");
    fflush(errlog(s));
    ap_accesslog_flush(&s->elog, 200); /* the line a supervisor waits for: out now, not in 50 ms (a stalled
                                        * reader costs 0.2 s before the loop runs, not more) */

    uv_run(&s->loop, UV_RUN_DEFAULT);

    if (uv_loop_close(&s->loop) != 0)
        fprintf(errlog(s), "arcpathd: event loop closed with handles still open\n");
    ap_lanes_free(&s->lanes);
    ap_accesslog_free(&s->alog);
    fprintf(errlog(s), "arcpathd: stopped\n");
    close_errlog(s, 200); /* (the drain's flushes had their 2 s: a reader still stalled gets no more) */
    return 0;
}

int main(int argc, char **argv)
{
    /* Standard descriptors closed by whoever started us (`2>&-`) get /dev/null, as daemons do: else the
     * next file opened takes the number (libuv's epoll took 2), the logs are written into it, and libuv
     * aborts at exit on its own descriptor at or below 2 (a reviewer). open() takes the lowest free number. */
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) == -1 && errno == EBADF && open("/dev/null", O_RDWR) != fd)
            return 1;
    /* A client that hangs up mid-response must cost an EPIPE, not the process. */
    signal(SIGPIPE, SIG_IGN);
    /* The stop and reload signals wait (blocked, pending) until serve() has its handlers: at their default
     * action a SIGHUP or SIGTERM sent while the maps load (seconds for a big folder) killed the process, and
     * blocked only after the config was read one still could (50 ms after the fork under ThreadSanitizer).
     * A --check-config run unblocks them, so Ctrl-C stops it. Threads started from here inherit the mask. */
    sigset_t quit;
    quit_signals(&quit);
    pthread_sigmask(SIG_BLOCK, &quit, NULL);
    /* jansson's allocator for parses in a scratch buffer (proto/json_scratch.h), before any thread starts. */
    ap_json_scratch_install();

    ap_server *s = calloc(1, sizeof *s);
    if (!s) {
        fprintf(stderr, "arcpathd: out of memory\n");
        return 1;
    }
    char err[1024] = "";
    int exit_now = 0;
    if (ap_config_resolve(&s->cfg, argc, argv, &exit_now, err, sizeof err) != AP_OK) {
        fprintf(stderr, "arcpathd: %s\n", err);
        free(s);
        return 2;
    }
    if (exit_now) {
        free(s);
        return 0;
    }
    /* before the effective config is printed, which then holds a max_connections lowered to the open-file
     * limit (an ops helper saw 512 there and "lowered to 50" on the next line), and in a check too, whose
     * report then says it (a low nofile in the container was caught only by the server itself) */
    fit_open_files(s, s->cfg.check_config ? stdout : stderr);
    ap_config_print(&s->cfg, stderr);

    /* Per-capability tables for the configured capabilities and every unit kind's (each map also gets its
     * own capability's and those capability_costs name: map.h). Kept in s: uploads and reloads use them. */
    size_t n_caps = 0;
    s->caps[n_caps++] = AP_CAP_DEFAULT;
    for (size_t i = 0; i < s->cfg.n_capabilities; i++)
        s->caps[n_caps++] = s->cfg.capabilities[i];
    for (size_t i = 0; i < s->cfg.n_units; i++)
        if (s->cfg.units[i].has & AP_UNIT_F_CAPABILITY)
            s->caps[n_caps++] = s->cfg.units[i].capability;
    s->opts = (ap_map_opts){.max_width = s->cfg.max_map_width,
                            .max_height = s->cfg.max_map_height,
                            .max_cells = s->cfg.max_map_cells,
                            .terrain = s->cfg.terrain,
                            .n_terrain = s->cfg.n_terrain,
                            .capabilities = s->caps,
                            .n_capabilities = n_caps,
                            .cap_costs = s->cfg.cap_costs,
                            .n_cap_costs = s->cfg.n_cap_costs,
                            .scales = s->cfg.scales,
                            .n_scales = s->cfg.n_scales,
                            .skip_tables = s->cfg.skip_tables,
                            .skips = s->cfg.skips,
                            .n_skips = s->cfg.n_skips};
    if (s->cfg.check_config) /* (blocked at the start of main: a check keeps the default actions) */
        pthread_sigmask(SIG_UNBLOCK, &quit, NULL);
    int rc = ap_registry_load(&s->reg, s->cfg.maps_dir, &s->opts, s->cfg.max_maps, stderr);
    if (rc == AP_E_NOMEM) {
        fprintf(stderr, "arcpathd: out of memory loading maps\n");
        free(s);
        return 1;
    }
    warn_unused_terrain(s, s->cfg.check_config ? stdout : stderr);

    int code = s->cfg.check_config ? check_config(s) : serve(s);
    ap_profile_cache_clear(ap_profile_cache_default()); /* no search runs any more */
    ap_registry_free(&s->reg);
    free(s);
    return code;
}
