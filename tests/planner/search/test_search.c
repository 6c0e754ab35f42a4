/* test_search.c — the A* core and the grid domain: exact costs, 4- vs 8-connected, time slicing,
 * deadline, cancellation, generation wrap-around, moving a plan to another workspace. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../../planner/grid/grid.h"
#include "../../../planner/grid/jps.h"
#include "../../../planner/plan/plan.h"
#include "../../../planner/search/search.h"
#include "../../../planner/search/open_bucket.h"
#include "../../../planner/world/clearance.h"
#include "../../util.h"
#include "../suites.h"
#include "fixtures.h"

/* Cost of an A* search between cells on m, or -1 when there is no path. */
static double search_cost(const ap_map *m, ap_workspace *ws, int conn, int sx, int sy, int gx, int gy,
                          uint64_t *expanded)
{
    ap_grid_domain gd;
    ap_domain dom;
    uint32_t goal = ap_map_index(m, gx, gy);
    ck_assert_int_eq(ap_grid_domain_init(&gd, &dom, m, conn, goal), AP_OK);
    ap_search s;
    ck_assert_int_eq(ap_search_begin(&s, ws, &dom, ap_map_index(m, sx, sy), goal, 0), AP_OK);
    int st = ap_search_run(&s, 0);
    if (expanded != NULL)
        *expanded = s.expanded;
    if (st == AP_NO_PATH)
        return -1.0;
    ck_assert_int_eq(st, AP_OK);
    /* the path is a chain of legal steps whose costs add up to s.cost */
    ap_test_check_grid_path(m, &s, ap_map_index(m, sx, sy), goal, conn);
    return s.cost;
}

static const char *open10 = "type octile\nheight 10\nwidth 10\nmap\n"
                            "..........\n..........\n..........\n..........\n..........\n"
                            "..........\n..........\n..........\n..........\n..........\n";

static const char *corridor = "type octile\nheight 5\nwidth 7\nmap\n"
                              ".......\n"
                              ".@@@@@.\n"
                              ".....@.\n"
                              ".@@@@@.\n"
                              ".......\n";

/* ap_workspace_bytes_max: the 57 bytes a node README "Limits and memory" and arcpathd's start-up check use,
 * and never below what a workspace holds after a search that opens every node it can (a walled-off goal on
 * an open 200 x 200 map: an exhaustive search; the bags' ring and successor scratch, left out of the bound,
 * are allowed for). */
START_TEST(workspace_bytes_bound)
{
    ck_assert_uint_eq(ap_workspace_bytes_max(1000), 57000u);
    ck_assert_uint_eq(ap_workspace_bytes_max(UINT32_MAX), 57ull * UINT32_MAX);
    const int n = 200;
    char *text = malloc((size_t)n * (n + 1) + 64);
    ck_assert_ptr_nonnull(text);
    int k = sprintf(text, "type octile\nheight %d\nwidth %d\nmap\n", n, n);
    for (int y = 0; y < n; y++) {
        for (int x = 0; x < n; x++) /* the goal (n - 1, n - 1) walled off by its three neighbours */
            text[k++] = (x >= n - 2 && y >= n - 2 && !(x == n - 1 && y == n - 1)) ? '@' : '.';
        text[k++] = '\n';
    }
    text[k] = '\0';
    ap_map *m = ap_test_map_from_string(text);
    free(text);
    ap_workspace ws;
    const uint32_t cap = ap_map_node_count(m);
    ck_assert_int_eq(ap_workspace_init(&ws, cap, 8), AP_OK);
    uint64_t expanded = 0;
    ck_assert_double_eq(search_cost(m, &ws, 8, 0, 0, n - 1, n - 1, &expanded), -1.0);
    ck_assert_uint_eq(expanded, (uint64_t)n * n - 4); /* every cell but the three walls and the goal */
    ck_assert_uint_le(ap_workspace_bytes(&ws), ap_workspace_bytes_max(cap) + 256 * 1024);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

START_TEST(hand_costs)
{
    ap_map *m = ap_test_map_from_string(open10);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    ck_assert_double_eq_tol(search_cost(m, &ws, 8, 0, 0, 9, 9, NULL), 9 * M_SQRT2, 1e-12);
    ck_assert_double_eq_tol(search_cost(m, &ws, 4, 0, 0, 9, 9, NULL), 18.0, 1e-12);
    ck_assert_double_eq_tol(search_cost(m, &ws, 8, 2, 7, 9, 3, NULL), 3 + 4 * M_SQRT2, 1e-12);
    ck_assert_double_eq_tol(search_cost(m, &ws, 4, 2, 7, 9, 3, NULL), 11.0, 1e-12);
    ck_assert_double_eq(search_cost(m, &ws, 4, 5, 5, 5, 5, NULL), 0.0);
    ap_map_free(m);

    /* The corridor's only exit is on the left; no diagonal is legal at its corners (corner cutting). */
    m = ap_test_map_from_string(corridor);
    ap_workspace_free(&ws);
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    ck_assert_double_eq_tol(search_cost(m, &ws, 4, 4, 2, 6, 2, NULL), 14.0, 1e-12);
    ck_assert_double_eq_tol(search_cost(m, &ws, 8, 4, 2, 6, 2, NULL), 14.0, 1e-12);
    /* (0,2)->(6,4): down 2, right 6; the diagonal (0,3)->(1,4) would cut the corner of (1,3). */
    ck_assert_double_eq_tol(search_cost(m, &ws, 4, 0, 2, 6, 4, NULL), 8.0, 1e-12);
    ck_assert_double_eq_tol(search_cost(m, &ws, 8, 0, 2, 6, 4, NULL), 8.0, 1e-12);
    /* (0,0)->(6,4) 8-connected: the right column has no corners to cut: 6 + 4 = 10 either way */
    ck_assert_double_eq_tol(search_cost(m, &ws, 8, 0, 0, 6, 4, NULL), 10.0, 1e-12);
    ap_map_free(m);

    /* Corner cutting: the diagonal between two orthogonally blocked cells is not a move. */
    m = ap_test_map_from_string("type octile\nheight 2\nwidth 2\nmap\n.@\n@.\n");
    ck_assert_double_eq(search_cost(m, &ws, 8, 0, 0, 1, 1, NULL), -1.0);
    ap_map_free(m);
    ap_workspace_free(&ws);
}
END_TEST

/* A deterministic 96x80 map with ~30% blocked cells, and a far pair of cells in one region. */
static ap_map *random_map(unsigned seed, int *sx, int *sy, int *gx, int *gy)
{
    const int W = 96, H = 80;
    size_t cap = 64 + (size_t)(W + 1) * H;
    char *t = malloc(cap);
    int k = snprintf(t, cap, "type octile\nheight %d\nwidth %d\nmap\n", H, W);
    ap_test_rng r = {seed};
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++)
            t[k++] = ap_test_rand(&r) % 100 < 30 ? '@' : '.';
        t[k++] = '\n';
    }
    t[k] = '\0';
    ap_map *m = ap_test_map_from_string(t);
    free(t);
    /* the largest region's first and last cells in scan order */
    uint32_t *sizes = calloc(m->region_count + 1, sizeof *sizes);
    for (uint32_t i = 0; i < ap_map_node_count(m); i++)
        sizes[m->region[i]]++;
    uint32_t best = 1;
    for (uint32_t i = 1; i <= m->region_count; i++)
        if (sizes[i] > sizes[best])
            best = i;
    free(sizes);
    uint32_t first = UINT32_MAX, last = 0;
    for (uint32_t i = 0; i < ap_map_node_count(m); i++)
        if (m->region[i] == best) {
            if (first == UINT32_MAX)
                first = i;
            last = i;
        }
    int32_t x, y;
    ap_map_coords(m, first, &x, &y);
    *sx = x;
    *sy = y;
    ap_map_coords(m, last, &x, &y);
    *gx = x;
    *gy = y;
    return m;
}

START_TEST(time_slicing)
{
    int sx, sy, gx, gy;
    ap_map *m = random_map(7, &sx, &sy, &gx, &gy);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    uint64_t full_exp;
    double full = search_cost(m, &ws, 8, sx, sy, gx, gy, &full_exp);
    ck_assert(full > 50.0);
    for (int rep = 0; rep < 3; rep++) {
        ap_grid_domain gd;
        ap_domain dom;
        uint32_t goal = ap_map_index(m, gx, gy);
        ap_grid_domain_init(&gd, &dom, m, 8, goal);
        ap_search s;
        ck_assert_int_eq(ap_search_begin(&s, &ws, &dom, ap_map_index(m, sx, sy), goal, 0), AP_OK);
        uint64_t calls = 0;
        int st;
        while ((st = ap_search_run(&s, 1)) == AP_IN_PROGRESS) {
            calls++;
            ck_assert_uint_eq(s.expanded, calls);
        }
        ck_assert_int_eq(st, AP_OK);
        ck_assert_double_eq_tol(s.cost, full, 1e-12);
        ck_assert_uint_eq(s.expanded, full_exp);
        ck_assert_int_eq(ap_search_run(&s, 1), AP_OK); /* a finished search stays finished */
    }
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* Run a JPS+ (jps 1) or grid A* (jps 0) search from cell a to cell b of m on ws in slices bounded by time, the
 * bound long past before each (ap_search.slice_end_ns = 1): each slice ends at the first check after its
 * first expansion, every 256th expansion. Returns the status; *cost, *expanded. */
static int run_time_sliced(const ap_map *m, ap_workspace *ws, bool jps, uint32_t a, uint32_t b, double *cost,
                           uint64_t *expanded)
{
    ap_grid_domain gd;
    ap_jps_domain jd;
    ap_domain dom;
    if (jps) {
        ck_assert_int_eq(ap_jps_domain_init(&jd, &dom, m, ap_jps_table_of(m), b), AP_OK);
        ck_assert_ptr_nonnull(dom.run); /* the bucketed loop that holds a node between expansions */
        ap_jps_domain_bind(&jd, ws);
    } else {
        ck_assert_int_eq(ap_grid_domain_init(&gd, &dom, m, 8, b), AP_OK);
    }
    ap_search s;
    ck_assert_int_eq(ap_search_begin(&s, ws, &dom, a, b, 0), AP_OK);
    int st;
    uint64_t slices = 0;
    for (;;) {
        s.slice_end_ns = 1;
        if ((st = ap_search_run(&s, 0)) != AP_IN_PROGRESS)
            break;
        slices++;
        ck_assert_uint_eq(s.expanded, 256u * slices);
    }
    *cost = s.cost;
    *expanded = s.expanded;
    return st;
}

/* Slices bounded by time (ap_search.slice_end_ns) give the one search's answer with the same expansions:
 * grid A* and JPS+ (whose bucketed loop puts a held node back on the open list when a slice ends there)
 * on an open 200 x 200 map with 10 % blocked cells, corner to corner. */
START_TEST(time_bounded_slices)
{
    enum { W = 200, H = 200 };
    char *t = malloc(64 + (size_t)(W + 1) * H);
    int k = sprintf(t, "type octile\nheight %d\nwidth %d\nmap\n", H, W);
    ap_test_rng r = {5};
    for (int y = 0; y < H; y++, t[k++] = '\n')
        for (int x = 0; x < W; x++)
            t[k++] = (x < 2 && y < 2) || (x >= W - 2 && y >= H - 2) || ap_test_rand(&r) % 100 >= 10 ? '.' : '@';
    t[k] = '\0';
    ap_map *m = ap_test_map_from_string(t);
    free(t);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    const uint32_t a = ap_map_index(m, 0, 0), b = ap_map_index(m, W - 1, H - 1);
    for (int jps = 0; jps < 2; jps++) {
        ap_grid_domain gd;
        ap_jps_domain jd;
        ap_domain dom;
        if (jps) {
            ck_assert_int_eq(ap_jps_domain_init(&jd, &dom, m, ap_jps_table_of(m), b), AP_OK);
            ap_jps_domain_bind(&jd, &ws);
        } else {
            ck_assert_int_eq(ap_grid_domain_init(&gd, &dom, m, 8, b), AP_OK);
        }
        ap_search s;
        ck_assert_int_eq(ap_search_begin(&s, &ws, &dom, a, b, 0), AP_OK);
        ck_assert_int_eq(ap_search_run(&s, 0), AP_OK);
        ck_assert_uint_gt(s.expanded, 3 * 256);
        double cost;
        uint64_t expanded;
        ck_assert_int_eq(run_time_sliced(m, &ws, jps, a, b, &cost, &expanded), AP_OK);
        ck_assert_double_eq_tol(cost, s.cost, 1e-12);
        ck_assert_uint_eq(expanded, s.expanded);
    }
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

START_TEST(deadline_and_cancel)
{
    int sx, sy, gx, gy;
    ap_map *m = random_map(11, &sx, &sy, &gx, &gy);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    ap_grid_domain gd;
    ap_domain dom;
    uint32_t goal = ap_map_index(m, gx, gy);
    ap_grid_domain_init(&gd, &dom, m, 8, goal);
    ap_search s;
    /* a deadline in the past: 1 ns after the clock's epoch */
    ck_assert_int_eq(ap_search_begin(&s, &ws, &dom, ap_map_index(m, sx, sy), goal, 1), AP_OK);
    ck_assert_int_eq(ap_search_run(&s, 0), AP_TIMEOUT);
    ck_assert_int_eq(ap_search_run(&s, 0), AP_TIMEOUT);
    /* a far deadline does not interfere */
    ck_assert_int_eq(ap_search_begin(&s, &ws, &dom, ap_map_index(m, sx, sy), goal, ap_clock_ns() + 60000000000ull),
                     AP_OK);
    ck_assert_int_eq(ap_search_run(&s, 0), AP_OK);
    /* cancel, set mid-search: noticed at the next 256-expansion check */
    atomic_int cancel = 0;
    ck_assert_int_eq(ap_search_begin(&s, &ws, &dom, ap_map_index(m, sx, sy), goal, 0), AP_OK);
    s.cancel = &cancel;
    ck_assert_int_eq(ap_search_run(&s, 10), AP_IN_PROGRESS);
    atomic_store(&cancel, 1);
    ck_assert_int_eq(ap_search_run(&s, 0), AP_TIMEOUT);
    ck_assert_uint_le(s.expanded, 256);
    /* the plan-level cancel */
    ap_query q = {.map = m, .sx = sx + 0.5, .sy = sy + 0.5, .gx = gx + 0.5, .gy = gy + 0.5, .connectivity = 8};
    ap_plan p;
    ck_assert_int_eq(ap_plan_begin(&p, &q, &ws, 0), AP_IN_PROGRESS);
    ap_plan_set_cancel(&p, &cancel);
    ck_assert_int_eq(ap_plan_step(&p, 0), AP_TIMEOUT);
    ap_result r;
    ck_assert_int_eq(ap_plan_finish(&p, &r), AP_TIMEOUT);
    ap_result_free(&r);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* A chain 0 -> 1 -> ... of unit steps whose every expansion spins 200 us of wall clock: a domain whose
 * expansions are costly (ap_domain.costly), as an any-angle graph's without its eager table. */
static int slow_chain_successors(const void *ctx, uint32_t node, ap_succ *out)
{
    (void)ctx;
    const uint64_t until = ap_clock_ns() + 200000;
    while (ap_clock_ns() < until)
        ;
    out[0] = (ap_succ){.node = node + 1, .cost = 1.0};
    return 1;
}

static double zero_heuristic(const void *ctx, uint32_t node, uint32_t goal)
{
    (void)ctx;
    (void)node;
    (void)goal;
    return 0.0;
}

/* A costly domain's deadline and slice bound are read before every expansion: after its first expansion
 * (the check at expansion 0 behind it), a slice bounded 1 ms from now ends (in progress) within 6 more
 * expansions at 0.2 ms each (5 take the millisecond, wall clock, so no load can make it more), and a
 * deadline 1 ms away then times it out within 6 more; the same domain without the flag runs to the 256th
 * and the 512th expansion's checks. */
START_TEST(costly_domain_checks_every_expansion)
{
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 1000, 1), AP_OK);
    for (int costly = 1; costly >= 0; costly--) {
        const ap_domain dom = {.node_count = 1000, .max_succ = 1, .successors = slow_chain_successors,
                               .heuristic = zero_heuristic, .costly = costly};
        ap_search s;
        ck_assert_int_eq(ap_search_begin(&s, &ws, &dom, 0, 999, 0), AP_OK);
        ck_assert_int_eq(ap_search_run(&s, 1), AP_IN_PROGRESS);
        /* a slice bounded by time alike: 1 ms from now ends it (in progress) by its 6th expansion */
        s.slice_end_ns = ap_clock_ns() + 1000000;
        ck_assert_int_eq(ap_search_run(&s, 0), AP_IN_PROGRESS);
        if (costly)
            ck_assert_uint_le(s.expanded, 1 + 6);
        else
            ck_assert_uint_eq(s.expanded, 256);
        const uint64_t before = s.expanded;
        s.slice_end_ns = 0;
        s.deadline_ns = ap_clock_ns() + 1000000;
        ck_assert_int_eq(ap_search_run(&s, 0), AP_TIMEOUT);
        if (costly)
            ck_assert_uint_le(s.expanded, before + 6);
        else
            ck_assert_uint_eq(s.expanded, 512);
    }
    ap_workspace_free(&ws);
}
END_TEST

START_TEST(plan_move)
{
    int sx, sy, gx, gy;
    ap_map *m = random_map(23, &sx, &sy, &gx, &gy);
    ap_workspace fast, slow;
    ck_assert_int_eq(ap_workspace_init(&fast, ap_map_node_count(m), 8), AP_OK);
    ck_assert_int_eq(ap_workspace_init(&slow, ap_map_node_count(m), 8), AP_OK);
    double full = search_cost(m, &fast, 8, sx, sy, gx, gy, NULL);
    ap_query q = {.map = m, .sx = sx + 0.5, .sy = sy + 0.5, .gx = gx + 0.5, .gy = gy + 0.5, .connectivity = 8};
    ap_plan p;
    ck_assert_int_eq(ap_plan_begin(&p, &q, &fast, 0), AP_IN_PROGRESS);
    ck_assert_int_eq(ap_plan_step(&p, 50), AP_IN_PROGRESS);
    ck_assert_int_eq(ap_plan_move(&p, &slow), AP_IN_PROGRESS);
    /* the old workspace may now be used by someone else */
    search_cost(m, &fast, 4, sx, sy, gx, gy, NULL);
    int st;
    while ((st = ap_plan_step(&p, 100)) == AP_IN_PROGRESS)
        ;
    ck_assert_int_eq(st, AP_OK);
    ap_result r;
    ck_assert_int_eq(ap_plan_finish(&p, &r), AP_OK);
    ck_assert_double_eq_tol(r.grid_cost, full, 1e-12);
    ck_assert_uint_gt(r.expanded, 50);
    ck_assert_uint_eq(r.expanded, 50 + p.search.expanded);
    ap_result_free(&r);
    ap_workspace_free(&fast);
    ap_workspace_free(&slow);
    ap_map_free(m);
}
END_TEST

/* Fraction of the pages of [p, p + bytes) that are resident (mincore). */
static double resident_fraction(const void *p, size_t bytes)
{
    const long pg = sysconf(_SC_PAGESIZE);
    uintptr_t a = (uintptr_t)p & ~(uintptr_t)(pg - 1), e = (uintptr_t)p + bytes;
    size_t pages = (size_t)((e - a + (uintptr_t)pg - 1) / (uintptr_t)pg);
    unsigned char *v = malloc(pages);
    ck_assert_ptr_nonnull(v);
    ck_assert_int_eq(mincore((void *)a, e - a, v), 0);
    size_t in = 0;
    for (size_t i = 0; i < pages; i++)
        in += v[i] & 1;
    free(v);
    return (double)in / (double)pages;
}

/* ap_workspace_init maps the node matrix and the position array at once, so a server's first searches pay
 * no page faults (the touch was once optimised away: calloc + memset became calloc alone). */
START_TEST(workspace_pages_mapped_at_init)
{
    ap_workspace ws;
    const uint32_t cap = 1u << 21; /* 32 MiB of nodes: far above any allocator's pre-zeroed arena */
    ck_assert_int_eq(ap_workspace_init(&ws, cap, 8), AP_OK);
    double fn = resident_fraction(ws.nodes, (size_t)cap * sizeof *ws.nodes);
    double fp = resident_fraction(ws.pos, (size_t)cap * sizeof *ws.pos);
    ck_assert_msg(fn > 0.99 && fp > 0.99, "resident after init: nodes %.3f, pos %.3f", fn, fp);
    for (uint32_t i = 0; i < cap; i += 4099)
        ck_assert_uint_eq(ws.nodes[i].gen, 0); /* still all stale for the first search */
    ap_workspace_free(&ws);
}
END_TEST

START_TEST(generation_wrap)
{
    int sx, sy, gx, gy;
    ap_map *m = random_map(5, &sx, &sy, &gx, &gy);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    double want = search_cost(m, &ws, 8, sx, sy, gx, gy, NULL);
    /* The first search left generation-1 stamps everywhere it went; when the counter wraps onto 1 again
     * those must not look current (the workspace is cleared once on wrap-around). */
    ck_assert_uint_eq(ws.gen, 1);
    ws.gen = UINT32_MAX;
    ck_assert_double_eq_tol(search_cost(m, &ws, 8, sx, sy, gx, gy, NULL), want, 1e-12);
    ck_assert_uint_eq(ws.gen, 1);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

START_TEST(begin_errors)
{
    ap_map *m = ap_test_map_from_string(open10);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 10, 8), AP_OK); /* too small for the map */
    ap_grid_domain gd;
    ap_domain dom;
    ck_assert_int_eq(ap_grid_domain_init(&gd, &dom, m, 6, 13), AP_E_INVALID_REQUEST);
    ck_assert_int_eq(ap_grid_domain_init(&gd, &dom, m, 8, 13), AP_OK);
    ap_search s;
    ck_assert_int_eq(ap_search_begin(&s, &ws, &dom, 14, 13, 0), AP_E_INTERNAL);
    ap_workspace_free(&ws);
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    ck_assert_int_eq(ap_search_begin(&s, &ws, &dom, ap_map_node_count(m), 13, 0), AP_E_INTERNAL);
    ck_assert_uint_eq(ap_search_path(&s, NULL, 0), 0);
    ap_workspace_free(&ws);
    ap_map_free(m);
    ck_assert_double_eq_tol(ap_octile(3, -5), 5 + 3 * (M_SQRT2 - 1), 1e-15);
    ck_assert_double_eq(ap_octile(0, 0), 0.0);
}
END_TEST

START_TEST(four_vs_eight_movingai)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("search: 4- vs 8-connected");
        return;
    }
    const char *maps[] = {"den520d", "arena2", "random512-10-0"};
    for (size_t k = 0; k < sizeof maps / sizeof maps[0]; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.map", dir, maps[k]);
        ap_map *m;
        ap_diag d;
        if (ap_map_load(path, NULL, &m, &d) != AP_OK)
            continue;
        snprintf(path, sizeof path, "%s/%s.map.scen", dir, maps[k]);
        ap_test_scen *sc;
        size_t n;
        ck_assert_int_eq(ap_test_load_scen(path, &sc, &n), 0);
        ap_workspace ws;
        ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
        for (size_t i = n / 7; i < n; i += n / 6 + 1) {
            const ap_test_scen *s = &sc[i];
            double c8 = search_cost(m, &ws, 8, s->sx, s->sy, s->gx, s->gy, NULL);
            double c4 = search_cost(m, &ws, 4, s->sx, s->sy, s->gx, s->gy, NULL);
            ck_assert_double_eq_tol(c8, s->optimal, ap_test_tolerance(s));
            ck_assert_msg(c4 >= c8 - 1e-9, "%s line %d: 4-connected %.6f < 8-connected %.6f", maps[k], s->line, c4,
                          c8);
            /* the 4-connected cost is a whole number of steps, at least the Manhattan distance */
            ck_assert_double_eq(c4, floor(c4));
            ck_assert(c4 >= abs(s->gx - s->sx) + abs(s->gy - s->sy));
        }
        ap_workspace_free(&ws);
        free(sc);
        ap_map_free(m);
    }
}
END_TEST

/* The grid domain's callbacks, wrapped and without its run hook so the core runs its generic loop: the
 * grid's own copy must expand the same nodes, in the same order, to the same cost. */
static const ap_domain *wrapped_inner;

static int wrapped_succ(const void *ctx, uint32_t node, ap_succ *out)
{
    return wrapped_inner->successors(ctx, node, out);
}

static double wrapped_h(const void *ctx, uint32_t node, uint32_t goal)
{
    return wrapped_inner->heuristic(ctx, node, goal);
}

/* Run dom from start to goal with its own loop (run hook), then wrapped without it (the generic loop over
 * its successors and heuristic), on ws. The same status and cost always (search.h: a run hook expands what
 * the generic loop would); with same_order also the same expansions, generations and path, which the grid
 * domains' copies promise (the jump-point loops' wide buckets break ties their own way). Returns whether a
 * path was found. */
static bool hook_matches_generic(const ap_domain *dom, ap_workspace *ws, uint32_t start, uint32_t goal,
                                 bool same_order)
{
    ap_domain wrapped = *dom;
    wrapped.successors = wrapped_succ;
    wrapped.heuristic = wrapped_h;
    wrapped.run = NULL; /* a wrapper drops the hook (search.h): the generic loop */
    wrapped_inner = dom;
    ap_search a, b;
    ck_assert_int_eq(ap_search_begin(&a, ws, dom, start, goal, 0), AP_OK);
    const int sa = ap_search_run(&a, 0);
    const size_t na = ap_search_path(&a, NULL, 0);
    uint32_t pa[2400], pb[2400];
    ck_assert_uint_le(na, 2400);
    ap_search_path(&a, pa, 2400);
    const double cost_a = a.cost;
    const uint64_t ea = a.expanded, ga = a.generated;
    ck_assert_int_eq(ap_search_begin(&b, ws, &wrapped, start, goal, 0), AP_OK);
    const int sb = ap_search_run(&b, 0);
    ck_assert_int_eq(sa, sb);
    if (sa == AP_OK)
        ck_assert_msg(fabs(cost_a - b.cost) <= 1e-9 * cost_a, "cost %.17g (own loop) vs %.17g (generic)", cost_a,
                      b.cost);
    if (same_order) {
        ck_assert_uint_eq(ea, b.expanded);
        ck_assert_uint_eq(ga, b.generated);
        if (sa == AP_OK) {
            ck_assert(cost_a == b.cost);
            ck_assert_uint_eq(ap_search_path(&b, pb, 2400), na);
            ck_assert(memcmp(pa, pb, na * sizeof *pa) == 0);
        }
    }
    return sa == AP_OK;
}

/* A random 60 x 40 octile map, cells blocked with probability p_blocked and the rest swamp ('S') with
 * probability p_swamp, swamp costing 3 when weighted (else no terrain costs). */
static ap_map *random_grid(ap_test_rng *rng, double p_blocked, double p_swamp, bool weighted)
{
    char t[64 + 61 * 40];
    int k = snprintf(t, sizeof t, "type octile\nheight 40\nwidth 60\nmap\n");
    for (int y = 0; y < 40; y++) {
        for (int x = 0; x < 60; x++) {
            const double u = ap_test_rand01(rng);
            t[k++] = u < p_blocked ? '@' : u < p_blocked + p_swamp ? 'S' : '.';
        }
        t[k++] = '\n';
    }
    t[k] = '\0';
    const ap_terrain_costs rule = {.map_id = "w", .cost = {0, 0, 3.0, 0, 0}};
    ap_map_opts o = {.terrain = &rule, .n_terrain = weighted ? 1 : 0};
    ap_map *m = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("w", "w.map", t, (size_t)k, &o, &m, &d), AP_OK);
    ck_assert(m->weighted == weighted);
    return m;
}

/* Every domain with its own loop (run hook) against the generic loop over its callbacks, on random maps:
 * the point grid, a disc of radius 0.9 and a 2 x 2 square (Annotated A*; 8-connected, uniform cost: the
 * cases with a hook) and JPS+. Before this test only the point grid's copy was compared, and the disc's,
 * the square's and JPS+'s successor functions ran in no test. (4-connected, weighted and online JPS
 * domains have no hook: they run the generic loop itself; test_grid.c checks the weighted disc.) */
START_TEST(inlined_grid_matches_generic)
{
    enum { POINT, DISC, SQUARE, JPS_PLUS, N_KINDS };
    static const char *const names[N_KINDS] = {"point", "disc 0.9", "square 2", "jps_plus"};
    ap_test_rng rng = {4242};
    for (int kind = 0; kind < N_KINDS; kind++) {
        ap_map *m = random_grid(&rng, kind == DISC || kind == SQUARE ? 0.03 : 0.3, 0.0, false);
        ap_workspace ws;
        ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
        const ap_clearance_table *t = ap_clearance_of(m, m->capability);
        ck_assert_ptr_nonnull(t);
        ap_jps_table *table = NULL;
        if (kind == JPS_PLUS)
            ck_assert_int_eq(ap_jps_table_build(m, &table), AP_OK);
        int compared = 0, found = 0;
        for (int i = 0; i < 200; i++) {
            int sx = (int)(ap_test_rand(&rng) % 60), sy = (int)(ap_test_rand(&rng) % 40);
            int gx = (int)(ap_test_rand(&rng) % 60), gy = (int)(ap_test_rand(&rng) % 40);
            if (!ap_map_passable(m, sx, sy) || !ap_map_passable(m, gx, gy))
                continue;
            const uint32_t goal = ap_map_index(m, gx, gy), start = ap_map_index(m, sx, sy);
            ap_grid_domain gd;
            ap_jps_domain jd;
            ap_domain dom;
            int st = kind == DISC     ? ap_grid_domain_init_sized(&gd, &dom, m, 8, goal, t, 0.9)
                     : kind == SQUARE ? ap_grid_domain_init_square(&gd, &dom, m, 8, goal, t, 2)
                     : kind == POINT  ? ap_grid_domain_init(&gd, &dom, m, 8, goal)
                                      : ap_jps_domain_init(&jd, &dom, m, table, goal);
            ck_assert_msg(st == AP_OK, "%s: init %d", names[kind], st);
            ck_assert_msg(dom.run != NULL, "%s: no loop of its own", names[kind]);
            if (kind == JPS_PLUS)
                ap_jps_domain_bind(&jd, &ws);
            found += hook_matches_generic(&dom, &ws, start, goal, kind != JPS_PLUS);
            compared++;
        }
        ck_assert_msg(compared > 50 && found > 25, "%s: %d compared, %d found", names[kind], compared, found);
        /* a map whose f values could pass the bucket numbers (open_bucket.h ap_bq_fits) gets no loop of its
         * own: the generic heap serves it (told here by its passable-cell count alone) */
        const int64_t cells = m->passable_cells;
        m->passable_cells = (int64_t)1 << 30;
        ap_grid_domain gd;
        ap_jps_domain jd;
        ap_domain dom;
        const uint32_t g0 = ap_map_index(m, 0, 0);
        ck_assert_int_eq(kind == DISC     ? ap_grid_domain_init_sized(&gd, &dom, m, 8, g0, t, 0.9)
                         : kind == SQUARE ? ap_grid_domain_init_square(&gd, &dom, m, 8, g0, t, 2)
                         : kind == POINT  ? ap_grid_domain_init(&gd, &dom, m, 8, g0)
                                          : ap_jps_domain_init(&jd, &dom, m, table, g0),
                         AP_OK);
        ck_assert_msg(dom.run == NULL, "%s: a bucketed loop for f beyond its bucket numbers", names[kind]);
        m->passable_cells = cells;
        ap_jps_table_free(table);
        ap_workspace_free(&ws);
        ap_map_free(m);
    }
    /* the bound itself: the default map limit (2^24 cells, 4096 a side) fits the finest buckets (64 a tile);
     * 2^30 cells fit neither policy */
    ck_assert(ap_bq_fits((int64_t)1 << 24, 4096, AP_BQ_PER_TILE));
    ck_assert(!ap_bq_fits((int64_t)1 << 30, 32768, AP_BQ_PER_TILE));
    ck_assert(!ap_bq_fits((int64_t)1 << 30, 32768, AP_BQ_WIDE_PER_TILE));
    ck_assert(ap_bq_fits((int64_t)1 << 28, 16384, AP_BQ_WIDE_PER_TILE));
}
END_TEST

Suite *search_suite(void)
{
    Suite *s = suite_create("search");
    TCase *tc = tcase_create("astar");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, hand_costs);
    tcase_add_test(tc, workspace_bytes_bound);
    tcase_add_test(tc, time_slicing);
    tcase_add_test(tc, deadline_and_cancel);
    tcase_add_test(tc, time_bounded_slices);
    tcase_add_test(tc, costly_domain_checks_every_expansion);
    tcase_add_test(tc, plan_move);
    tcase_add_test(tc, generation_wrap);
    tcase_add_test(tc, workspace_pages_mapped_at_init);
    tcase_add_test(tc, begin_errors);
    tcase_add_test(tc, four_vs_eight_movingai);
    tcase_add_test(tc, inlined_grid_matches_generic);
    suite_add_tcase(s, tc);
    ap_test_add_core_cases(s);
    return s;
}
