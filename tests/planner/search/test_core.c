/* test_core.c — the generic A* loop on a domain it knows nothing about (the Dijkstra fixture,
 * fixtures.h): optimal costs equal to the grid domain's A* and to the Moving AI optima, time slicing,
 * and per-node payload kept in workspace memory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/base/status.h"
#include "../../../planner/grid/grid.h"
#include "../../util.h"
#include "../suites.h"
#include "fixtures.h"

/* Run a begun search to its end in slices of `slice` expansions (0 = one call); returns its status. */
static int run_sliced(ap_search *s, uint64_t slice)
{
    int st;
    while ((st = ap_search_run(s, slice)) == AP_IN_PROGRESS)
        ;
    return st;
}

/* A* with the grid domain (its own loop) from a to b: status, cost into *cost. */
static int astar(const ap_map *m, ap_workspace *ws, uint32_t a, uint32_t b, double *cost)
{
    ap_grid_domain gd;
    ap_domain dom;
    ck_assert_int_eq(ap_grid_domain_init(&gd, &dom, m, 8, b), AP_OK);
    ap_search s;
    ck_assert_int_eq(ap_search_begin(&s, ws, &dom, a, b, 0), AP_OK);
    int st = ap_search_run(&s, 0);
    *cost = s.cost;
    return st;
}

void ap_test_check_grid_path(const ap_map *m, const ap_search *s, uint32_t a, uint32_t b, int conn)
{
    size_t n = ap_search_path(s, NULL, 0);
    ck_assert_uint_ge(n, 1);
    uint32_t *p = malloc(n * sizeof *p);
    ck_assert_uint_eq(ap_search_path(s, p, n), n);
    ck_assert_uint_eq(p[0], a);
    ck_assert_uint_eq(p[n - 1], b);
    double c = 0.0;
    for (size_t i = 1; i < n; i++) {
        int32_t x0, y0, x1, y1;
        ap_map_coords(m, p[i - 1], &x0, &y0);
        ap_map_coords(m, p[i], &x1, &y1);
        const int dx = abs(x1 - x0), dy = abs(y1 - y0);
        ck_assert(ap_map_passable(m, x1, y1));
        ck_assert(dx <= 1 && dy <= 1 && dx + dy >= 1);
        if (dx + dy == 2) {
            ck_assert_int_eq(conn, 8);
            ck_assert(ap_map_passable(m, x1, y0) && ap_map_passable(m, x0, y1)); /* no corner cutting */
        }
        c += dx + dy == 2 ? M_SQRT2 : 1.0;
    }
    ck_assert_double_eq_tol(c, s->cost, 1e-9);
    free(p);
}

START_TEST(dijkstra_matches_astar_movingai)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("Dijkstra domain against the Moving AI optima");
        return;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/Berlin_0_256.map", dir);
    ap_map *m;
    ap_diag d;
    ck_assert_int_eq(ap_map_load(path, NULL, &m, &d), AP_OK);
    snprintf(path, sizeof path, "%s/Berlin_0_256.map.scen", dir);
    ap_test_scen *sc;
    size_t n;
    ck_assert_int_eq(ap_test_load_scen(path, &sc, &n), 0);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    ap_domain dom;
    ap_test_dijkstra_domain(&dom, m, false);
    ck_assert_ptr_null(dom.run); /* the generic loop */
    int compared = 0;
    /* every k-th line, spread over the buckets up to the longest */
    for (size_t i = 0; i < n; i += n / 60) {
        const ap_test_scen *s = &sc[i];
        const uint32_t a = ap_map_index(m, s->sx, s->sy), b = ap_map_index(m, s->gx, s->gy);
        ap_search q;
        ck_assert_int_eq(ap_search_begin(&q, &ws, &dom, a, b, 0), AP_OK);
        ck_assert_int_eq(ap_search_run(&q, 0), AP_OK);
        ck_assert_double_eq_tol(q.cost, s->optimal, ap_test_tolerance(s));
        ap_test_check_grid_path(m, &q, a, b, 8);
        const double dc = q.cost;
        const uint64_t dexp = q.expanded;
        double ac;
        ck_assert_int_eq(astar(m, &ws, a, b, &ac), AP_OK);
        ck_assert_double_eq_tol(dc, ac, 1e-9);
        ck_assert_uint_gt(dexp, 0);
        compared++;
    }
    ck_assert_int_ge(compared, 50);
    ap_workspace_free(&ws);
    free(sc);
    ap_map_free(m);
}
END_TEST

/* A random W x H map with about `blocked` percent of cells blocked. */
static ap_map *random_small_map(ap_test_rng *r, int W, int H, unsigned blocked)
{
    char *t = malloc(64 + (size_t)(W + 1) * H);
    int k = sprintf(t, "type octile\nheight %d\nwidth %d\nmap\n", H, W);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++)
            t[k++] = ap_test_rand(r) % 100 < blocked ? '@' : '.';
        t[k++] = '\n';
    }
    t[k] = '\0';
    ap_map *m = ap_test_map_from_string(t);
    free(t);
    return m;
}

START_TEST(dijkstra_matches_astar_random)
{
    ap_test_rng r = {90210};
    int found = 0, none = 0;
    for (int map = 0; map < 20; map++) {
        const int W = 8 + (int)(ap_test_rand(&r) % 40), H = 8 + (int)(ap_test_rand(&r) % 30);
        ap_map *m = random_small_map(&r, W, H, 20 + (unsigned)(map % 4) * 5);
        ap_workspace ws;
        ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
        ap_domain dom;
        ap_test_dijkstra_domain(&dom, m, false);
        for (int i = 0; i < 25; i++) {
            const int sx = (int)(ap_test_rand(&r) % (unsigned)W), sy = (int)(ap_test_rand(&r) % (unsigned)H);
            const int gx = (int)(ap_test_rand(&r) % (unsigned)W), gy = (int)(ap_test_rand(&r) % (unsigned)H);
            if (!ap_map_passable(m, sx, sy) || !ap_map_passable(m, gx, gy))
                continue;
            const uint32_t a = ap_map_index(m, sx, sy), b = ap_map_index(m, gx, gy);
            double ac;
            const int ast = astar(m, &ws, a, b, &ac);
            ap_search q;
            ck_assert_int_eq(ap_search_begin(&q, &ws, &dom, a, b, 0), AP_OK);
            const int dst = ap_search_run(&q, 0);
            ck_assert_int_eq(dst, ast);
            if (dst == AP_NO_PATH) {
                none++;
                continue;
            }
            ck_assert_int_eq(dst, AP_OK);
            ck_assert_double_eq_tol(q.cost, ac, 1e-9);
            ap_test_check_grid_path(m, &q, a, b, 8);
            /* the same search in slices of 7 expansions: same cost, same expansions */
            const double cost = q.cost;
            const uint64_t expanded = q.expanded;
            ck_assert_int_eq(ap_search_begin(&q, &ws, &dom, a, b, 0), AP_OK);
            ck_assert_int_eq(run_sliced(&q, 7), AP_OK);
            ck_assert(q.cost == cost);
            ck_assert_uint_eq(q.expanded, expanded);
            found++;
        }
        ap_workspace_free(&ws);
        ap_map_free(m);
    }
    ck_assert_int_gt(found, 200);
    ck_assert_int_gt(none, 0); /* disconnected pairs were compared too */
}
END_TEST

static uint32_t hops_of(const ap_search *s, uint32_t v)
{
    uint32_t h;
    memcpy(&h, ap_search_payload(s, v), sizeof h);
    return h;
}

START_TEST(payload_follows_the_best_parent)
{
    ap_test_rng r = {777};
    ap_map *m = random_small_map(&r, 60, 40, 25);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    ck_assert_ptr_null(ws.payload); /* none until a domain asks */
    ap_domain plain, hops;
    ap_test_dijkstra_domain(&plain, m, false);
    ap_test_dijkstra_domain(&hops, m, true);
    const size_t cap = ((size_t)ap_map_node_count(m) + 8) * sizeof(uint32_t);
    void *mem = NULL;
    int checked = 0;
    for (int i = 0; i < 40; i++) {
        const int sx = (int)(ap_test_rand(&r) % 60), sy = (int)(ap_test_rand(&r) % 40);
        const int gx = (int)(ap_test_rand(&r) % 60), gy = (int)(ap_test_rand(&r) % 40);
        if (!ap_map_passable(m, sx, sy) || !ap_map_passable(m, gx, gy))
            continue;
        const uint32_t a = ap_map_index(m, sx, sy), b = ap_map_index(m, gx, gy);
        ap_search s;
        ck_assert_int_eq(ap_search_begin(&s, &ws, &plain, a, b, 0), AP_OK);
        const int pst = ap_search_run(&s, 0);
        const double pcost = s.cost;
        const uint64_t pexp = s.expanded;

        ck_assert_int_eq(ap_search_begin(&s, &ws, &hops, a, b, 0), AP_OK);
        /* allocated at the first payload search, then kept: never per search */
        ck_assert_uint_eq(ws.payload_cap, cap);
        if (mem == NULL)
            mem = ws.payload;
        ck_assert_ptr_eq(ws.payload, mem);
        const uint32_t zero = 0;
        memcpy(ap_search_payload(&s, a), &zero, sizeof zero);
        const int st = run_sliced(&s, 5);
        /* the payload changes nothing about the search (nor the payload loop's 4-ary heap: the same total
         * order pops the same entries) */
        ck_assert_int_eq(st, pst);
        ck_assert_uint_eq(s.expanded, pexp);
        if (st != AP_OK)
            continue;
        ck_assert(s.cost == pcost);
        /* every node of this search holds the hop count of its current parent chain: one more than its
         * parent's, so a node improved after it was first reached carries its new parent's count */
        for (uint32_t v = 0; v < ws.capacity; v++) {
            if (ws.nodes[v].gen != ws.gen || ws.nodes[v].parent == UINT32_MAX)
                continue;
            ck_assert_uint_eq(hops_of(&s, v), hops_of(&s, ws.nodes[v].parent) + 1);
        }
        size_t n = ap_search_path(&s, NULL, 0);
        ck_assert_uint_eq(hops_of(&s, b), n - 1);
        checked++;
    }
    ck_assert_int_gt(checked, 10);

    /* a domain that needs more payload grows the memory; one without successors_payload is refused */
    ap_domain wide = hops;
    wide.payload_bytes = 8;
    ap_search s;
    ck_assert_int_eq(ap_search_begin(&s, &ws, &wide, 0 + (uint32_t)m->stride + 1, (uint32_t)m->stride + 1, 0),
                     AP_OK);
    ck_assert_uint_eq(ws.payload_cap, ((size_t)ap_map_node_count(m) + 8) * 8);
    wide.successors_payload = NULL;
    ck_assert_int_eq(ap_search_begin(&s, &ws, &wide, (uint32_t)m->stride + 1, (uint32_t)m->stride + 1, 0),
                     AP_E_INTERNAL);
    ap_workspace_free(&ws);
    ck_assert_ptr_null(ws.payload);
    ap_map_free(m);
}
END_TEST

/* A node improved to a lower g whose heuristic (read from its new payload) rises more: its f goes up, and it
 * must sink in the open list rather than stay above smaller entries. Graph: S -> B (1), S -> A (5), S -> C (3),
 * B -> A (1), A -> G (0), C -> G (10). The payload byte is the heuristic; A reached from S carries 0 (f 5),
 * from B 10 (g 2, f 12), C carries 3 (f 6). After B, the open list holds A (12) and C (6): C comes out first. */
enum { RF_S, RF_A, RF_B, RF_C, RF_G, RF_N };
typedef struct rf_ctx {
    uint32_t order[RF_N];
    int n;
} rf_ctx;

static int rf_successors(const void *ctx, uint32_t u, const void *payload, ap_succ *out, void *out_payload)
{
    (void)payload;
    rf_ctx *c = (rf_ctx *)ctx;
    c->order[c->n++] = u;
    static const struct {
        uint32_t from, to;
        double cost;
        uint8_t h;
    } edges[] = {{RF_S, RF_B, 1, 0}, {RF_S, RF_A, 5, 0}, {RF_S, RF_C, 3, 3}, {RF_B, RF_A, 1, 10},
                 {RF_A, RF_G, 0, 0}, {RF_C, RF_G, 10, 0}};
    int k = 0;
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        if (edges[i].from == u) {
            out[k] = (ap_succ){edges[i].to, edges[i].cost};
            ((uint8_t *)out_payload)[k++] = edges[i].h;
        }
    return k;
}

static const ap_search *rf_search;

static double rf_h(const void *ctx, uint32_t node, uint32_t goal)
{
    (void)ctx;
    (void)goal;
    return node == RF_S ? 0.0 : (double)*(const uint8_t *)ap_search_payload(rf_search, node);
}

START_TEST(improved_node_with_higher_f_sinks)
{
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, RF_N, 4), AP_OK);
    rf_ctx c = {{0}, 0};
    const ap_domain dom = {.ctx = &c, .node_count = RF_N, .max_succ = 4, .heuristic = rf_h, .payload_bytes = 1,
                           .successors_payload = rf_successors};
    ap_search s;
    rf_search = &s;
    ck_assert_int_eq(ap_search_begin(&s, &ws, &dom, RF_S, RF_G, 0), AP_OK);
    *(uint8_t *)ap_search_payload(&s, RF_S) = 0;
    ck_assert_int_eq(ap_search_run(&s, 0), AP_OK);
    /* S, B, then C (f 6) before A (f 12); C reaches G at 13, A at 2 + 0: G's f 2 comes out next */
    ck_assert_int_eq(c.n, 4);
    ck_assert_uint_eq(c.order[0], RF_S);
    ck_assert_uint_eq(c.order[1], RF_B);
    ck_assert_uint_eq(c.order[2], RF_C);
    ck_assert_uint_eq(c.order[3], RF_A);
    ck_assert_double_eq(s.cost, 2.0);
    ap_workspace_free(&ws);
}
END_TEST

void ap_test_add_core_cases(Suite *s)
{
    TCase *tc = tcase_create("generic core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, dijkstra_matches_astar_movingai);
    tcase_add_test(tc, dijkstra_matches_astar_random);
    tcase_add_test(tc, payload_follows_the_best_parent);
    tcase_add_test(tc, improved_node_with_higher_f_sinks);
    suite_add_tcase(s, tc);
}
