/* test_lanes.c — the lanes without HTTP: a uv loop, a small map, jobs submitted directly, a recording done
 * hook. Short searches stay "fast", long ones move to "slow", full lanes answer overloaded, expired jobs
 * answer timeout without searching (in the inbox, or waiting for a slow slot), and a drain with timeout 0
 * cancels everything. */
#include "tests/check_fast.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "planner/kino/vehicle.h"
#include "planner/turns/profile.h"
#include "planner/world/map.h"
#include "planner/world/zone.h"
#include "planner/search/search.h"
#include "planner/base/status.h"
#include "proto/errors.h"
#include "server/lanes.h"
#include "tests/util.h"

Suite *lanes_suite(void);

#define W 32
#define H 32
#define MAXJOBS 8

/* A w x h room split by a wall at x = w / 2 with a gap in the bottom row: A* from the left half to the right
 * floods most of the left half first. */
static ap_map *make_room(int w, int h)
{
    char *text = malloc(64 + (size_t)(w + 1) * (size_t)h);
    ck_assert_ptr_nonnull(text);
    int n = sprintf(text, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++)
            text[n++] = (x == w / 2 && y < h - 1) ? '@' : '.';
        text[n++] = '\n';
    }
    ap_map *m = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("room", "room.map", text, (size_t)n, NULL, &m, &d), AP_OK);
    free(text);
    return m;
}

/* 32 x 32: crossing the wall costs hundreds of expansions, stepping next to the start costs two. */
static ap_map *make_map(void)
{
    return make_room(W, H);
}

typedef struct test_ctx {
    ap_lanes lanes;
    uv_loop_t loop;
    ap_metrics metrics;
    ap_job jobs[MAXJOBS];
    int submitted, done;
    int sent; /* jobs already handed to the lanes (the first `sent` of jobs[]) */
    int drained;
} test_ctx;

static void on_done(ap_job *job, void *arg)
{
    test_ctx *t = arg;
    t->done++;
    if (t->done == t->submitted && !t->lanes.draining)
        ap_lanes_close(&t->lanes);
}

static void on_drained(ap_lanes *l, void *arg)
{
    test_ctx *t = arg;
    t->drained++;
    ap_lanes_close(l);
}

static void setup(test_ctx *t, ap_lanes_config *lc, const ap_map *m)
{
    memset(t, 0, sizeof *t);
    ck_assert_int_eq(uv_loop_init(&t->loop), 0);
    ap_metrics_init(&t->metrics, "test");
    lc->capacity = ap_map_node_count(m);
    ck_assert_int_eq(ap_lanes_init(&t->lanes, &t->loop, lc, &t->metrics, on_done, t), AP_OK);
}

static ap_job *add_job(test_ctx *t, const ap_map *m, double sx, double sy, double gx, double gy)
{
    ap_job *j = &t->jobs[t->submitted++];
    ap_job_init(j);
    j->q.map = m;
    j->q.sx = sx;
    j->q.sy = sy;
    j->q.gx = gx;
    j->q.gy = gy;
    j->q.connectivity = 8;
    j->q.smoothing = AP_SMOOTH_LOS;
    j->deadline_ns = ap_clock_ns() + 10ULL * 1000000000ULL;
    return j;
}

/* Make j a kinodynamic query of the car profile, turning radius 1 tile. */
static void make_kino(ap_job *j)
{
    j->q.algorithm = AP_ALG_KINODYNAMIC;
    j->q.turning_radius = 1.0;
    j->q.vehicle = ap_vehicle_profile_find("car")->v;
}

/* Hand the next job to the lanes and run the loop until the slow lane has `slow_free` free slots and
 * `pending` jobs waiting for one (at most 10 s). For tests that need their jobs to reach the slow lane in
 * order: the libuv pool is the process's, sized by the first ap_lanes that used it (the sanitizer run keeps
 * every test in one process), so a test's `.workers = 1` may still run two fast slices at once and let the
 * second reach the slow lane first (a CI run saw it). */
static void send_settled(test_ctx *t, int slow_free, int pending)
{
    ck_assert_int_lt(t->sent, t->submitted);
    ck_assert_int_eq(ap_lanes_submit(&t->lanes, &t->jobs[t->sent++]), AP_OK);
    const uint64_t until = ap_clock_ns() + 10ULL * 1000000000ULL;
    while ((t->lanes.n_slow_free != slow_free || t->lanes.pending_n != pending) && ap_clock_ns() < until)
        uv_run(&t->loop, UV_RUN_ONCE);
    ck_assert_int_eq(t->lanes.n_slow_free, slow_free);
    ck_assert_int_eq(t->lanes.pending_n, pending);
}

/* Hand the jobs not yet sent to the lanes, run the loop until every job is answered, free the lanes. */
static void run_and_teardown(test_ctx *t)
{
    for (; t->sent < t->submitted; t->sent++)
        ck_assert_int_eq(ap_lanes_submit(&t->lanes, &t->jobs[t->sent]), AP_OK);
    ck_assert_int_eq(uv_run(&t->loop, UV_RUN_DEFAULT), 0);
    ck_assert_int_eq(t->done, t->submitted);
    ck_assert_uint_eq(ap_lanes_outstanding(&t->lanes), 0);
    ck_assert_int_eq(uv_loop_close(&t->loop), 0);
    ap_lanes_free(&t->lanes);
}

static void free_bodies(test_ctx *t)
{
    for (int i = 0; i < t->submitted; i++)
        free(t->jobs[i].body);
}

static test_ctx ctx; /* big (metrics): static rather than on the stack */

START_TEST(test_fast_and_slow)
{
    ap_map *m = make_map();
    ap_lanes_config lc = {.workers = 2, .slow_slots = 1, .fast_queue = 16, .slow_queue = 4, .fast_budget = 20,
                          .slow_slice = 20};
    setup(&ctx, &lc, m);
    ap_job *longj = add_job(&ctx, m, 2.5, 2.5, 30.5, 2.5);
    ap_job *shortj = add_job(&ctx, m, 2.5, 2.5, 3.5, 2.5);
    run_and_teardown(&ctx);

    ck_assert_int_eq(shortj->status, AP_OK);
    ck_assert_int_eq(shortj->lane, AP_LANE_FAST);
    ck_assert_int_eq(shortj->http_status, 200);
    ck_assert_ptr_nonnull(strstr(shortj->body, "\"lane\":\"fast\""));

    ck_assert_int_eq(longj->status, AP_OK);
    ck_assert_int_eq(longj->lane, AP_LANE_SLOW);
    ck_assert_int_eq(longj->http_status, 200);
    ck_assert_ptr_nonnull(longj->body);
    ck_assert_ptr_nonnull(strstr(longj->body, "\"lane\":\"slow\""));
    ck_assert_ptr_nonnull(strstr(longj->body, "\"status\":\"ok\""));
    ck_assert_uint_gt(longj->expanded, 20);
    ck_assert_uint_ge(longj->search_us, 1);

    /* gauges back to zero, searches counted per lane */
    ck_assert_int_eq((int)atomic_load(&ctx.metrics.queue_depth[AP_LANE_FAST]), 0);
    ck_assert_int_eq((int)atomic_load(&ctx.metrics.queue_depth[AP_LANE_SLOW]), 0);
    ck_assert_uint_eq(atomic_load(&ctx.metrics.search_duration[AP_LANE_SLOW].count), 1);
    ck_assert_uint_eq(atomic_load(&ctx.metrics.search_duration[AP_LANE_FAST].count), 1);
    free_bodies(&ctx);
    ap_map_free(m);
}
END_TEST

/* Queries whose set-up alone is long (ap_query_setup_is_heavy: a legal-turn search 256 tiles or more apart
 * builds a corridor first; a kinodynamic one over a large region its lattice bound; a legal-turn query
 * whose unit profile is not cached builds it first) begin on the slow lane: a helper saw corner-to-corner
 * directional24 queries on Paris_1_1024 stay on the fast lane (13-41 ms each) and short queries wait
 * behind them (p50 0.3 -> 63 ms), and another two profile builds of wide discs hold both fast workers for
 * 17 s. A short legal-turn query whose profile is cached stays fast. */
START_TEST(test_heavy_setup_begins_slow)
{
    ap_map *m = make_room(300, 300);
    /* the fast slice's time bound far above any machine's noise: the lanes here are the expansions' choice
     * (2 ms, the server's, was passed under a busy CI's load and sent the hybrid query to the slow lane) */
    ap_lanes_config lc = {.workers = 2, .slow_slots = 2, .fast_queue = 16, .slow_queue = 4, .fast_budget = 2000,
                          .slow_slice = 2000, .fast_slice_ns = 10000000000ull};
    setup(&ctx, &lc, m);
    ap_job *far = add_job(&ctx, m, 5.5, 290.5, 290.5, 298.5);
    far->q.algorithm = AP_ALG_DIRECTIONAL24;
    far->q.turning_radius = 1.0;
    ap_job *kino = add_job(&ctx, m, 5.5, 5.5, 280.5, 280.5);
    make_kino(kino);
    kino->q.max_expansions = 200;
    ap_job *near = add_job(&ctx, m, 5.5, 5.5, 60.5, 9.5);
    near->q.algorithm = AP_ALG_DIRECTIONAL24;
    near->q.turning_radius = 1.0;
    static ap_profile_cache cache; /* zero: empty */
    near->q.profiles = &cache;
    ck_assert(ap_query_setup_is_heavy(&near->q)); /* its profile must be built first */
    const ap_profile_key key = {0.0, 1.0, AP_HEADINGS_COARSE, 24, false};
    const ap_profile *prof;
    ck_assert_int_eq(ap_profile_get(&cache, &key, &prof), AP_OK);
    ap_profile_release(prof);
    /* A hybrid query (the default plan of a turning unit) whose Smoothing48 profile is cached: not heavy,
     * and answered on the fast lane. Its step ends early where its grid search hands over to the next
     * phase; the lanes took that for a search past its fast budget and moved every hybrid query to the
     * slow lane after some 50-80 expansions. */
    ap_job *hyb = add_job(&ctx, m, 140.5, 296.5, 160.5, 296.5); /* round the wall's end (x = 150) */
    hyb->q.algorithm = AP_ALG_HYBRID;
    hyb->q.turning_radius = 1.0;
    hyb->q.profiles = &cache;
    ck_assert(ap_query_setup_is_heavy(&hyb->q));
    const ap_profile_key key48 = {0.0, 1.0, AP_HEADINGS_COARSE, 48, false};
    ck_assert_int_eq(ap_profile_get(&cache, &key48, &prof), AP_OK);
    ap_profile_release(prof);
    ck_assert(!ap_query_setup_is_heavy(&hyb->q));
    const ap_profile_key key8 = {0.0, 1.0, AP_HEADINGS_COARSE, 8, false}; /* its Directional8 leg's: no build */
    ck_assert_int_eq(ap_profile_get(&cache, &key8, &prof), AP_OK);
    ap_profile_release(prof);
    ck_assert(ap_query_setup_is_heavy(&far->q));
    ck_assert(ap_query_setup_is_heavy(&kino->q));
    ck_assert(!ap_query_setup_is_heavy(&near->q));
    run_and_teardown(&ctx);
    ck_assert_int_eq(far->status, AP_OK);
    ck_assert_int_eq(far->lane, AP_LANE_SLOW);
    ck_assert_ptr_nonnull(strstr(far->body, "\"lane\":\"slow\""));
    ck_assert_int_eq(kino->lane, AP_LANE_SLOW);
    ck_assert(kino->status == AP_OK || kino->status == AP_NO_PATH);
    ck_assert_int_eq(near->status, AP_OK);
    ck_assert_int_eq(near->lane, AP_LANE_FAST);
    ck_assert_int_eq(hyb->status, AP_OK);
    ck_assert_uint_lt(hyb->expanded, 2000);
    ck_assert_int_eq(hyb->lane, AP_LANE_FAST);
    ap_profile_cache_clear(&cache);
    free_bodies(&ctx);
    ap_map_free(m);
}
END_TEST

START_TEST(test_fast_queue_full)
{
    ap_map *m = make_map();
    ap_lanes_config lc = {.workers = 2, .slow_slots = 1, .fast_queue = 1, .slow_queue = 4, .fast_budget = 1000,
                          .slow_slice = 1000};
    setup(&ctx, &lc, m);
    for (int i = 0; i < 3; i++)
        add_job(&ctx, m, 2.5, 2.5, 3.5, 3.5);
    /* All three are in the inbox before the loop runs, so one admission pass sees them together. */
    run_and_teardown(&ctx);
    int ok = 0, over = 0;
    for (int i = 0; i < 3; i++) {
        ap_job *j = &ctx.jobs[i];
        if (j->status == AP_OK) {
            ok++;
        } else {
            ck_assert_int_eq(j->status, AP_E_OVERLOADED);
            ck_assert_int_eq(j->http_status, 503);
            ck_assert_int_eq(j->lane, AP_LANE_FAST);
            ck_assert_ptr_nonnull(strstr(j->body, "\"overloaded\""));
            over++;
        }
    }
    ck_assert_int_eq(ok, 1);
    ck_assert_int_eq(over, 2);
    ck_assert_int_eq(ctx.jobs[0].status, AP_OK); /* FIFO admission */
    ck_assert_uint_eq(atomic_load(&ctx.metrics.overloaded[AP_LANE_FAST]), 2);
    free_bodies(&ctx);
    ap_map_free(m);
}
END_TEST

/* Four long searches of the algorithm alg (its plans begun in the fast lane) for one slow slot and one
 * waiting place: two answered (A*: ok; kinodynamic: no_path, its states outgrow the workspace sized for
 * the map's cells), two overloaded in the slow lane. */
static void slow_queue_full(int alg)
{
    ap_map *m = make_map();
    /* One slow slot, one waiting place: of four long searches two are answered, two are overloaded in the
     * slow lane. Each long search needs hundreds of 1-expansion slow slices, each a round trip through the
     * loop, so the first cannot finish before the last fast slice (10 expansions, queued in the pool before
     * any slow slice) has handed its job over. With 10-expansion slow slices (some 40 round trips) a CI run
     * once saw three answered: the fourth job's fast slice had waited on a busy host until the first search
     * was done. */
    ap_lanes_config lc = {.workers = 2, .slow_slots = 1, .fast_queue = 16, .slow_queue = 1, .fast_budget = 10,
                          .slow_slice = 1};
    setup(&ctx, &lc, m);
    for (int i = 0; i < 4; i++) {
        ap_job *j = add_job(&ctx, m, 2.5, 2.5 + i, 30.5, 2.5);
        if (alg == AP_ALG_KINODYNAMIC)
            make_kino(j);
    }
    run_and_teardown(&ctx);
    int ok = 0, over = 0;
    for (int i = 0; i < 4; i++) {
        ap_job *j = &ctx.jobs[i];
        ck_assert_int_eq(j->lane, AP_LANE_SLOW);
        if (j->status == (alg == AP_ALG_KINODYNAMIC ? AP_NO_PATH : AP_OK) && j->http_status == 200)
            ok++;
        else if (j->status == AP_E_OVERLOADED && j->http_status == 503)
            over++;
        ck_assert_ptr_null(j->plan.kind_state); /* released, answered or not */
    }
    ck_assert_int_eq(ok, 2);
    ck_assert_int_eq(over, 2);
    ck_assert_uint_eq(atomic_load(&ctx.metrics.overloaded[AP_LANE_SLOW]), 2);
    /* the two refused searched only in their fast slices: counted as fast-lane searches with those slices'
     * expansions, not as slow-lane searches of none (a helper's metrics check) */
    ck_assert_uint_eq(atomic_load(&ctx.metrics.search_duration[AP_LANE_SLOW].count), 2);
    ck_assert_uint_eq(atomic_load(&ctx.metrics.search_duration[AP_LANE_FAST].count), 2);
    uint64_t answered = 0;
    for (int i = 0; i < 4; i++)
        answered += ctx.jobs[i].status == AP_E_OVERLOADED ? 0 : ctx.jobs[i].expanded;
    ck_assert_uint_ge(atomic_load(&ctx.metrics.expanded_nodes), answered + 2);
    free_bodies(&ctx);
    ap_map_free(m);
}

START_TEST(test_slow_queue_full)
{
    slow_queue_full(AP_ALG_ASTAR);
}
END_TEST

/* The same with a plan kind that holds memory of its own (kind_state): the overloaded jobs' plans were
 * begun in the fast lane and are released when they are answered (once seen only as LeakSanitizer's
 * report at a server's exit, for any_angle plans that timed out waiting for a slow slot). */
START_TEST(test_slow_queue_full_kinodynamic)
{
    slow_queue_full(AP_ALG_KINODYNAMIC);
}
END_TEST

START_TEST(test_expired_in_queue)
{
    ap_map *m = make_map();
    ap_lanes_config lc = {.workers = 2, .slow_slots = 1, .fast_queue = 16, .slow_queue = 4, .fast_budget = 20,
                          .slow_slice = 20};
    setup(&ctx, &lc, m);
    ap_job *j = add_job(&ctx, m, 2.5, 2.5, 30.5, 2.5);
    j->deadline_ns = 1; /* long past */
    run_and_teardown(&ctx);
    ck_assert_int_eq(j->status, AP_TIMEOUT);
    ck_assert_int_eq(j->http_status, 200);
    ck_assert_uint_eq(j->expanded, 0);
    ck_assert_ptr_nonnull(strstr(j->body, "\"status\":\"timeout\""));
    free_bodies(&ctx);
    ap_map_free(m);
}
END_TEST

/* The room at 1024 x 512: over 250,000 expansions before A* crosses the wall, which in one-expansion slices
 * (a round trip through the pool each, 10-30 us here) take seconds, longer than the tests' deadlines. */
enum { BW = 1024, BH = 512 };
static ap_map *make_big_map(void)
{
    return make_room(BW, BH);
}

/* A slow job waiting for the one slow slot is answered timeout by the lanes' sweep when its deadline passes,
 * not when the slot frees: the first long search holds the slot (one-expansion slices, its own deadline
 * 1.5 s), the second passes its fast slice, waits, and is answered within its 0.4 s deadline plus a sweep
 * (100 ms), having searched only its fast slice, while the first still holds the slot. The room is
 * 1024 x 1024 (over 500,000 expansions before A* crosses the wall): at 1024 x 512 a quiet run once finished
 * the first search inside its 1.5 s. */
START_TEST(test_expired_while_waiting_for_slow_slot)
{
    ap_map *m = make_room(BW, 2 * BH);
    ap_lanes_config lc = {.workers = 1, .slow_slots = 1, .fast_queue = 16, .slow_queue = 4, .fast_budget = 10,
                          .slow_slice = 1};
    setup(&ctx, &lc, m);
    const uint64_t t0 = ap_clock_ns();
    ap_job *first = add_job(&ctx, m, 2.5, 2.5, BW - 2.5, 2.5);
    first->deadline_ns = t0 + 1500ULL * 1000000ULL;
    ap_job *waiting = add_job(&ctx, m, 2.5, 3.5, BW - 2.5, 2.5);
    waiting->deadline_ns = t0 + 400ULL * 1000000ULL;
    /* `first` holds the slot before `waiting` is sent (sent together, two pool threads once let `waiting`
     * finish its fast slice first and take the slot) */
    send_settled(&ctx, 0, 0);
    send_settled(&ctx, 0, 1);
    run_and_teardown(&ctx);
    ck_assert_int_eq(waiting->lane, AP_LANE_SLOW);
    ck_assert_int_eq(waiting->status, AP_TIMEOUT);
    ck_assert_int_eq(waiting->http_status, 200);
    ck_assert_ptr_nonnull(strstr(waiting->body, "\"status\":\"timeout\""));
    ck_assert_uint_eq(waiting->expanded, lc.fast_budget); /* its fast slice only: it never had the slot */
    ck_assert_int_eq(first->lane, AP_LANE_SLOW);
    ck_assert_uint_gt(first->expanded, 1000);
    /* answered while the slot was still busy: before the first search's answer */
    ck_assert_uint_lt(waiting->t_encoded_ns, first->t_encoded_ns);
    ck_assert_int_eq(first->status, AP_TIMEOUT); /* the slot's search outlasts both deadlines */
    ck_assert_double_ge((double)(first->t_encoded_ns - t0) / 1e6, 1400.0);
    free_bodies(&ctx);
    ap_map_free(m);
}
END_TEST

/* Jobs whose client has gone (ap_job.client_gone), as the test's timer decides: `gone_a` and `gone_b` once
 * `clients_left` is set; `gone_a` only once it has also run a slow slice (more than gone_a_after
 * expansions), so the test can ask that those count, however loaded the machine (with helpers and the
 * sanitizer run beside it the slow lane once ran none in the timer's 300 ms). Asked on the loop thread,
 * while no worker holds the job: its plan's count is read safely. */
static const ap_job *gone_a, *gone_b;
static uint64_t gone_a_after;
static bool clients_left;

static bool test_client_gone(const ap_job *job)
{
    if (!clients_left)
        return false;
    if (job == gone_a)
        return ap_plan_expanded(&job->plan) > gone_a_after;
    return job == gone_b;
}

static void leave_clients(uv_timer_t *t)
{
    clients_left = true;
    uv_close((uv_handle_t *)t, NULL);
}

/* A client that goes while its search holds the one slow slot stops the search at its next slice (answered
 * client_closed, 499, long before its 10 s deadline), and one that goes while waiting for the slot is answered
 * so without searching there; the slot goes to the query still wanted, which is answered ok. */
START_TEST(test_client_gone_frees_slow_slot)
{
    ap_map *m = make_big_map();
    ap_lanes_config lc = {.workers = 1, .slow_slots = 1, .fast_queue = 16, .slow_queue = 4, .fast_budget = 10,
                          .slow_slice = 1};
    setup(&ctx, &lc, m);
    const uint64_t t0 = ap_clock_ns();
    ap_job *holder = add_job(&ctx, m, 2.5, 2.5, BW - 2.5, 2.5);  /* 250,000 expansions: seconds */
    ap_job *waiting = add_job(&ctx, m, 2.5, 3.5, BW - 2.5, 2.5); /* waits for the slot, then goes */
    ap_job *wanted = add_job(&ctx, m, 2.5, 4.5, 40.5, 4.5);      /* ~40 expansions, after the slot frees */
    for (int i = 0; i < ctx.submitted; i++)
        ctx.jobs[i].client_gone = test_client_gone;
    gone_a = holder;
    gone_a_after = lc.fast_budget;
    gone_b = waiting;
    clients_left = false;
    /* in that order: `holder` holds the slot, `waiting` then `wanted` wait for it (sent together, two pool
     * threads once let `wanted` take the slot before `holder`) */
    send_settled(&ctx, 0, 0);
    send_settled(&ctx, 0, 1);
    send_settled(&ctx, 0, 2);
    static uv_timer_t timer;
    ck_assert_int_eq(uv_timer_init(&ctx.loop, &timer), 0);
    ck_assert_int_eq(uv_timer_start(&timer, leave_clients, 300, 0), 0);
    run_and_teardown(&ctx);
    ck_assert_int_eq(holder->lane, AP_LANE_SLOW);
    ck_assert_int_eq(holder->status, AP_E_CLIENT_CLOSED);
    ck_assert_int_eq(holder->http_status, 499);
    ck_assert_ptr_nonnull(strstr(holder->body, "\"code\":\"client_closed\""));
    ck_assert_double_lt((double)(holder->t_encoded_ns - t0) / 1e9, 5.0); /* not at its deadline (10 s) */
    /* what it expanded counts (job and metrics): more than its fast slice's 10 (it counted 0); the hook
     * says it gone only after a slow slice */
    ck_assert_uint_gt(holder->expanded, lc.fast_budget);
    ck_assert_uint_ge(atomic_load(&ctx.metrics.expanded_nodes), holder->expanded);
    ck_assert_int_eq(waiting->status, AP_E_CLIENT_CLOSED);
    ck_assert_int_eq(waiting->http_status, 499);
    ck_assert_int_eq(wanted->status, AP_OK);
    ck_assert_int_eq(wanted->lane, AP_LANE_SLOW);
    ck_assert_uint_gt(wanted->t_encoded_ns, holder->t_encoded_ns); /* it had the slot after the holder */
    free_bodies(&ctx);
    ap_map_free(m);
}
END_TEST

/* A slow job alone slices on in its pool turn (slow_turn_ns) instead of going back through the loop after
 * every slice: each hop cost ~40 us beside ~0.2 ms of grid search, a fifth of a long search's time. With
 * slices of 10 expansions, one search across the big room's wall (~100,000 expansions) alone takes a
 * handful of turns; two at once on one slow pool thread take a turn a slice, in turn (the one waiting
 * stops the other's turn), as before. */
START_TEST(test_slow_turn_runs_on_alone)
{
    ap_map *m = make_big_map();
    for (int two = 0; two < 2; two++) {
        ap_lanes_config lc = {.workers = 2, .slow_slots = 2, .fast_queue = 16, .slow_queue = 4, .fast_budget = 10,
                              .slow_slice = 10, .slow_turn_ns = 10 * 1000 * 1000};
        setup(&ctx, &lc, m);
        for (int i = 0; i <= two; i++)
            add_job(&ctx, m, 2.5, 2.5 + i, BW - 2.5, 2.5);
        run_and_teardown(&ctx);
        for (int i = 0; i <= two; i++) {
            const ap_job *j = &ctx.jobs[i];
            ck_assert_int_eq(j->status, AP_OK);
            ck_assert_int_eq(j->lane, AP_LANE_SLOW);
            const uint64_t slices = j->expanded / lc.slow_slice;
            ck_assert_uint_gt(slices, 5000);
            if (!two)
                ck_assert_msg(j->slow_turns * 50 < slices, "%u turns for %llu slices", j->slow_turns,
                              (unsigned long long)slices);
            else /* while the other waited, a turn a slice (the last stretch alone may run on) */
                ck_assert_msg(j->slow_turns * 4 > slices, "%u turns for %llu slices", j->slow_turns,
                              (unsigned long long)slices);
        }
        free_bodies(&ctx);
    }
    ap_map_free(m);
}
END_TEST

/* The drain's grace (drain_timeout_ms) for a search that outlasts it: the search runs on until the grace
 * ends, then is cancelled and answered timeout with what it had expanded, long before its own deadline,
 * and the lanes report drained. */
static uint64_t drain_began_ns;

static void drain_soon(uv_timer_t *t)
{
    drain_began_ns = ap_clock_ns();
    ap_lanes_drain(&ctx.lanes, 150, on_drained, &ctx);
    uv_close((uv_handle_t *)t, NULL);
}

START_TEST(test_drain_grace_then_cancel)
{
    ap_map *m = make_big_map();
    ap_lanes_config lc = {.workers = 2, .slow_slots = 1, .fast_queue = 16, .slow_queue = 4, .fast_budget = 10,
                          .slow_slice = 1};
    setup(&ctx, &lc, m);
    ap_job *j = add_job(&ctx, m, 2.5, 2.5, BW - 2.5, 2.5); /* deadline 10 s */
    ck_assert_int_eq(ap_lanes_submit(&ctx.lanes, j), AP_OK);
    static uv_timer_t timer;
    ck_assert_int_eq(uv_timer_init(&ctx.loop, &timer), 0);
    ck_assert_int_eq(uv_timer_start(&timer, drain_soon, 100, 0), 0); /* the drain begins 0.1 s in */
    ck_assert_int_eq(uv_run(&ctx.loop, UV_RUN_DEFAULT), 0);
    const double grace_ms = (double)(ap_clock_ns() - drain_began_ns) / 1e6;
    ck_assert_int_eq(ctx.drained, 1);
    ck_assert_int_eq(ctx.done, 1);
    ck_assert_int_eq(j->status, AP_TIMEOUT);
    ck_assert_int_eq(j->http_status, 200);
    ck_assert_int_eq(j->lane, AP_LANE_SLOW);
    ck_assert_uint_gt(j->expanded, lc.fast_budget); /* it searched on during the grace */
    ck_assert_double_ge(grace_ms, 140.0); /* not before the grace ended (150 ms, by the loop's ms clock) */
    ck_assert_double_lt(grace_ms, 5000.0); /* and not at its own deadline, 10 s */
    ck_assert_int_eq(uv_loop_close(&ctx.loop), 0);
    ap_lanes_free(&ctx.lanes);
    free_bodies(&ctx);
    ap_map_free(m);
}
END_TEST

START_TEST(test_drain_cancel)
{
    ap_map *m = make_map();
    ap_lanes_config lc = {.workers = 2, .slow_slots = 1, .fast_queue = 16, .slow_queue = 4, .fast_budget = 10,
                          .slow_slice = 10};
    setup(&ctx, &lc, m);
    add_job(&ctx, m, 2.5, 2.5, 30.5, 2.5);
    add_job(&ctx, m, 2.5, 3.5, 30.5, 2.5);
    for (int i = 0; i < ctx.submitted; i++)
        ck_assert_int_eq(ap_lanes_submit(&ctx.lanes, &ctx.jobs[i]), AP_OK);
    /* Drain with no grace: the submitted jobs are still answered (timeout), new ones are refused. */
    ap_lanes_drain(&ctx.lanes, 0, on_drained, &ctx);
    ap_job late;
    ap_job_init(&late);
    late.q = ctx.jobs[0].q;
    ck_assert_int_eq(ap_lanes_submit(&ctx.lanes, &late), AP_E_NOT_READY);
    ck_assert_int_eq(uv_run(&ctx.loop, UV_RUN_DEFAULT), 0);
    ck_assert_int_eq(ctx.drained, 1);
    ck_assert_int_eq(ctx.done, 2);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(ctx.jobs[i].status, AP_TIMEOUT);
        ck_assert_ptr_nonnull(strstr(ctx.jobs[i].body, "\"timeout\""));
    }
    ck_assert_int_eq(uv_loop_close(&ctx.loop), 0);
    ap_lanes_free(&ctx.lanes);
    free_bodies(&ctx);
    ap_map_free(m);
}
END_TEST

/* Drain with no grace while kinodynamic plans begun in the fast lane wait for the one slow slot: the waiting
 * jobs are answered 503 not_ready at once (a balancer resends them), the running one stops (timeout), and
 * every plan's own memory is released. */
START_TEST(test_drain_cancel_releases_waiting_plans)
{
    ap_map *m = make_map();
    ap_lanes_config lc = {.workers = 2, .slow_slots = 1, .fast_queue = 16, .slow_queue = 4, .fast_budget = 10,
                          .slow_slice = 1};
    setup(&ctx, &lc, m);
    for (int i = 0; i < 3; i++)
        make_kino(add_job(&ctx, m, 2.5, 2.5 + i, 30.5, 2.5));
    for (int i = 0; i < ctx.submitted; i++)
        ck_assert_int_eq(ap_lanes_submit(&ctx.lanes, &ctx.jobs[i]), AP_OK);
    /* Until two wait: each search needs over a thousand 1-expansion slow slices, each a loop round trip. */
    for (int i = 0; i < 100000 && ctx.lanes.pending_n < 2 && ctx.done == 0; i++)
        uv_run(&ctx.loop, UV_RUN_ONCE);
    ck_assert_int_eq(ctx.lanes.pending_n, 2);
    for (int i = 0; i < 3; i++)
        ck_assert_ptr_nonnull(ctx.jobs[i].plan.kind_state); /* begun, not answered */
    ap_lanes_drain(&ctx.lanes, 0, on_drained, &ctx);
    ck_assert_int_eq(uv_run(&ctx.loop, UV_RUN_DEFAULT), 0);
    ck_assert_int_eq(ctx.drained, 1);
    ck_assert_int_eq(ctx.done, 3);
    int timeouts = 0, not_ready = 0;
    for (int i = 0; i < 3; i++) {
        ck_assert_ptr_null(ctx.jobs[i].plan.kind_state);
        timeouts += ctx.jobs[i].status == AP_TIMEOUT;
        if (ctx.jobs[i].status == AP_E_NOT_READY) {
            not_ready++;
            ck_assert_int_eq(ctx.jobs[i].http_status, 503);
            ck_assert_ptr_nonnull(strstr(ctx.jobs[i].body, "\"not_ready\""));
            ck_assert_ptr_nonnull(strstr(ctx.jobs[i].body, "server is shutting down"));
        }
    }
    ck_assert_int_eq(not_ready, 2);
    ck_assert_int_eq(timeouts, 1);
    ck_assert_int_eq(uv_loop_close(&ctx.loop), 0);
    ap_lanes_free(&ctx.lanes);
    free_bodies(&ctx);
    ap_map_free(m);
}
END_TEST

/* A query the plan itself refuses (here: a kinodynamic query in corridor mode whose start lies outside the
 * corridor, found when the plan lays the corridor over the map) is answered with the status, field and
 * message the plan gives (ap_plan_field, ap_plan_message). */
START_TEST(test_refused_by_plan)
{
    ap_map *m = make_map();
    ap_lanes_config lc = {.workers = 1, .slow_slots = 1, .fast_queue = 4, .slow_queue = 4, .fast_budget = 100,
                          .slow_slice = 100};
    setup(&ctx, &lc, m);
    ap_job *j = add_job(&ctx, m, 2.5, 2.5, 10.5, 20.5);
    static ap_zone zone = {.pts = {{8.0, 8.0}, {8.0, 28.0}}, .n = 2, .half = 3.0};
    make_kino(j);
    j->q.zone = &zone;
    run_and_teardown(&ctx);
    ck_assert_int_eq(j->status, AP_E_START_BLOCKED);
    ck_assert_int_eq(j->http_status, 422);
    ck_assert_str_eq(j->body, "{\"error\":{\"code\":\"start_blocked\",\"message\":\"\\\"start\\\": the unit's disc "
                              "(radius 0) at (2.5, 2.5) is outside the corridor or overlaps an obstacle\","
                              "\"field\":\"start\"}}");
    free_bodies(&ctx);
    ap_map_free(m);
}
END_TEST

Suite *lanes_suite(void)
{
    Suite *s = suite_create("server/lanes");
    TCase *tc = tcase_create("lanes");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_fast_and_slow);
    tcase_add_test(tc, test_heavy_setup_begins_slow);
    tcase_add_test(tc, test_fast_queue_full);
    tcase_add_test(tc, test_slow_queue_full);
    tcase_add_test(tc, test_slow_queue_full_kinodynamic);
    tcase_add_test(tc, test_expired_in_queue);
    tcase_add_test(tc, test_expired_while_waiting_for_slow_slot);
    tcase_add_test(tc, test_client_gone_frees_slow_slot);
    tcase_add_test(tc, test_drain_cancel);
    tcase_add_test(tc, test_drain_grace_then_cancel);
    tcase_add_test(tc, test_slow_turn_runs_on_alone);
    tcase_add_test(tc, test_drain_cancel_releases_waiting_plans);
    tcase_add_test(tc, test_refused_by_plan);
    suite_add_tcase(s, tc);
    return s;
}
