/* test_grid.c — the grid domain on maps with terrain costs: hand-computed costs, A* against an independent
 * Dijkstra on random weighted maps (8- and 4-connected), the returned cell path's cost, and what the plan
 * does with algorithms that are not valid on such maps. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/plan/plan.h"
#include "../../util.h"
#include "../../../planner/world/collide.h"
#include "../../../planner/grid/grid.h"
#include "../../../planner/search/search.h"
#include "../../../planner/world/clearance.h"
#include "../suites.h"

static ap_map *parse_costs(const char *text, const ap_terrain_costs *rule)
{
    ap_map_opts o = {.terrain = rule, .n_terrain = rule != NULL ? 1 : 0};
    ap_map *m = NULL;
    ap_diag d;
    int st = ap_map_parse("w", "w.map", text, strlen(text), &o, &m, &d);
    ck_assert_msg(st == AP_OK, "%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    return m;
}

/* Cost of a move as the test understands the rule (map.h), from the raw terrain letters. */
static double cell_cost(const ap_map *m, const double cost_of[5], int x, int y)
{
    const char *at = strchr(AP_TERRAIN_CHARS, m->terrain[(size_t)y * (size_t)m->width + (size_t)x]);
    return at != NULL ? cost_of[at - AP_TERRAIN_CHARS] : 0.0;
}

/* The Moving AI move rules (no corner cutting) with the terrain-cost rule of map.h, read from the raw
 * terrain letters: independent of the search core and of ap_map_move_cost. */
typedef struct ref_rule {
    const double *cost_of;
    int conn;
} ref_rule;

static double ref_move_cost(const ap_map *m, int ux, int uy, int vx, int vy, const void *ctx)
{
    const ref_rule *rr = ctx;
    int dx = vx - ux, dy = vy - uy;
    if (dx != 0 && dy != 0 &&
        (rr->conn == 4 || !ap_map_passable(m, ux + dx, uy) || !ap_map_passable(m, ux, uy + dy)))
        return INFINITY;
    double len = dx != 0 && dy != 0 ? M_SQRT2 : 1.0;
    return len * (cell_cost(m, rr->cost_of, ux, uy) + cell_cost(m, rr->cost_of, vx, vy)) / 2.0;
}

/* Cost by the reference Dijkstra (helpers.c), or -1 when unreachable. */
static double ref_dijkstra(const ap_map *m, const double cost_of[5], int conn, int sx, int sy, int gx, int gy)
{
    const ref_rule rr = {cost_of, conn};
    return ap_test_ref_dijkstra(m, sx, sy, gx, gy, ref_move_cost, &rr);
}

/* One query; returns the status and (when ok) the grid cost, after checking that the returned cell path
 * (smoothing none: every cell centre) costs exactly the grid cost under the test's own rule. */
static int plan(const ap_map *m, ap_workspace *ws, ap_algorithm alg, int conn, const double cost_of[5], int sx,
                int sy, int gx, int gy, double *cost, ap_algorithm *ran)
{
    ap_query q = ap_test_cell_query(m, alg, conn, sx, sy, gx, gy);
    ap_plan p;
    int st = ap_plan_begin(&p, &q, ws, 0);
    while (st == AP_IN_PROGRESS)
        st = ap_plan_step(&p, 7); /* small slices: slicing must not change the answer */
    if (ran != NULL)
        *ran = p.alg;
    ap_result r;
    ck_assert_int_eq(ap_plan_finish(&p, &r), st);
    if (st == AP_OK) {
        double c = 0.0;
        for (size_t i = 1; i < r.n_waypoints; i++) {
            int x0 = (int)r.waypoints[i - 1][0], y0 = (int)r.waypoints[i - 1][1];
            int x1 = (int)r.waypoints[i][0], y1 = (int)r.waypoints[i][1];
            double len = hypot(x1 - x0, y1 - y0);
            ck_assert(len > 0.5 && len < 1.5);
            c += len * (cell_cost(m, cost_of, x0, y0) + cell_cost(m, cost_of, x1, y1)) / 2.0;
        }
        ck_assert_double_eq_tol(c, r.grid_cost, 1e-9);
        *cost = r.grid_cost;
    }
    ap_result_free(&r);
    return st;
}

/* Hand-computed: a corridor through swamp (cost 3) and a detour round it. */
START_TEST(weighted_hand_costs)
{
    ap_terrain_costs rule = {.map_id = "w", .cost = {0, 0, 3.0, 0, 0}};
    const double cost_of[5] = {1, 1, 3, 0, 0};
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 4096, AP_PLAN_MAX_SUCC), AP_OK);
    double cost;
    /* One row: 1 + 1 + (1+3)/2 + 3 + 3 + (3+1)/2 + 1 + 1 = 14. */
    ap_map *m = parse_costs("type octile\nheight 1\nwidth 9\nmap\n...SSS...\n", &rule);
    ck_assert_int_eq(plan(m, &ws, AP_ALG_ASTAR, 8, cost_of, 0, 0, 8, 0, &cost, NULL), AP_OK);
    ck_assert_double_eq_tol(cost, 14.0, 1e-12);
    ap_map_free(m);
    /* One swamp cell between start and goal: crossing costs 1 + (1+c)/2 * 2 + 1 = 3 + c, going round it
     * two diagonals and two straight steps, 2 + 2 sqrt 2 = 4.83 (a diagonal costs only its two end cells).
     * Swamp at 1.5: crossing (4.5) wins; at 3: the detour wins. */
    const char *bump = "type octile\nheight 3\nwidth 7\nmap\n.......\n...S...\n.......\n";
    ap_terrain_costs cheap = {.map_id = "w", .cost = {0, 0, 1.5, 0, 0}};
    const double cheap_of[5] = {1, 1, 1.5, 0, 0};
    m = parse_costs(bump, &cheap);
    ck_assert_int_eq(plan(m, &ws, AP_ALG_ASTAR, 8, cheap_of, 1, 1, 5, 1, &cost, NULL), AP_OK);
    ck_assert_double_eq_tol(cost, 4.5, 1e-12);
    ap_map_free(m);
    m = parse_costs(bump, &rule);
    ck_assert_int_eq(plan(m, &ws, AP_ALG_ASTAR, 8, cost_of, 1, 1, 5, 1, &cost, NULL), AP_OK);
    ck_assert_double_eq_tol(cost, 2.0 + 2.0 * M_SQRT2, 1e-12);
    /* 4-connected, the detour is 6 straight steps against crossing's 6: equal, both optimal. */
    ck_assert_int_eq(plan(m, &ws, AP_ALG_ASTAR, 4, cost_of, 1, 1, 5, 1, &cost, NULL), AP_OK);
    ck_assert_double_eq_tol(cost, 6.0, 1e-12);
    ap_map_free(m);
    /* Plain ground dearer than 1 everywhere: the heuristic scales with the cheapest cost and stays exact. */
    ap_terrain_costs twice = {.map_id = "w", .cost = {2.0, 0, 0, 0, 0}};
    const double twice_of[5] = {2, 1, 1, 0, 0};
    m = parse_costs("type octile\nheight 4\nwidth 6\nmap\n......\n......\n......\n......\n", &twice);
    ck_assert_double_eq(m->cost_min, 2.0);
    ck_assert_int_eq(plan(m, &ws, AP_ALG_ASTAR, 8, twice_of, 0, 0, 5, 3, &cost, NULL), AP_OK);
    ck_assert_double_eq_tol(cost, 2.0 * (2.0 + 3.0 * M_SQRT2), 1e-12);
    ck_assert_int_eq(plan(m, &ws, AP_ALG_ASTAR, 4, twice_of, 0, 0, 5, 3, &cost, NULL), AP_OK);
    ck_assert_double_eq_tol(cost, 16.0, 1e-12);
    ap_map_free(m);
    ap_workspace_free(&ws);
}
END_TEST

/* Random maps with every terrain letter and random costs: A* (and auto, which must pick A*) equal the
 * reference Dijkstra on every query, 8- and 4-connected; reachability agrees too. */
START_TEST(weighted_random_vs_dijkstra)
{
    ap_test_rng g = {12345};
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 4096, AP_PLAN_MAX_SUCC), AP_OK);
    const char letters[] = ".GSTW@";
    int checked = 0;
    for (int mapi = 0; mapi < 12; mapi++) {
        int W = 8 + (int)(ap_test_rand(&g) % 20), H = 8 + (int)(ap_test_rand(&g) % 20);
        char *text = malloc((size_t)(W + 1) * (size_t)H + 64);
        int off = sprintf(text, "type octile\nheight %d\nwidth %d\nmap\n", H, W);
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++)
                text[off++] = letters[ap_test_rand(&g) % (mapi % 2 ? 6 : 4)];
            text[off++] = '\n';
        }
        text[off] = '\0';
        ap_terrain_costs rule = {.map_id = "w"};
        double cost_of[5] = {1, 1, 1, 0, 0};
        for (int k = 0; k < 5; k++)
            if (ap_test_rand(&g) % 2) {
                rule.cost[k] = 1.0 + (double)(ap_test_rand(&g) % 40) / 4.0; /* 1 .. 10.75 in quarters */
                cost_of[k] = rule.cost[k];
            }
        rule.cost[2] = cost_of[2] = 2.5; /* always some swamp cost, so the map is weighted */
        ap_map *m = parse_costs(text, &rule);
        ck_assert(m->weighted);
        for (int qi = 0; qi < 25; qi++) {
            int sx = (int)(ap_test_rand(&g) % (unsigned)W), sy = (int)(ap_test_rand(&g) % (unsigned)H);
            int gx = (int)(ap_test_rand(&g) % (unsigned)W), gy = (int)(ap_test_rand(&g) % (unsigned)H);
            if (!ap_map_passable(m, sx, sy) || !ap_map_passable(m, gx, gy))
                continue;
            for (int conn = 4; conn <= 8; conn += 4) {
                double want = ref_dijkstra(m, cost_of, conn, sx, sy, gx, gy), got = -1.0, got_auto = -1.0;
                ap_algorithm ran;
                int st = plan(m, &ws, AP_ALG_ASTAR, conn, cost_of, sx, sy, gx, gy, &got, NULL);
                int st_auto = plan(m, &ws, AP_ALG_AUTO, conn, cost_of, sx, sy, gx, gy, &got_auto, &ran);
                ck_assert_int_eq(st, want < 0.0 ? AP_NO_PATH : AP_OK);
                ck_assert_int_eq(st_auto, st);
                if (want >= 0.0 && st_auto == AP_OK && !(sx == gx && sy == gy))
                    ck_assert_int_eq(ran, AP_ALG_ASTAR);
                if (want >= 0.0) {
                    ck_assert_msg(fabs(got - want) < 1e-9, "map %d (%d,%d)->(%d,%d) conn %d: A* %.12f, Dijkstra %.12f",
                                  mapi, sx, sy, gx, gy, conn, got, want);
                    ck_assert_double_eq_tol(got_auto, want, 1e-9);
                }
                checked++;
            }
        }
        ap_map_free(m);
        free(text);
    }
    ck_assert_int_ge(checked, 200);
    ap_workspace_free(&ws);
}
END_TEST

/* A disc on a weighted map: a move is legal when the clearance table's level for it is above the disc's
 * (clearance.h: the rule the sized domain documents), and costs as ref_move_cost's. */
typedef struct ref_disc {
    ref_rule rule;
    const ap_clearance_table *t;
    uint8_t level;
} ref_disc;

static double ref_disc_cost(const ap_map *m, int ux, int uy, int vx, int vy, const void *ctx)
{
    const ref_disc *rd = ctx;
    if (ap_clearance_move(rd->t, ap_map_index(m, ux, uy), vx - ux, vy - uy) <= rd->level ||
        (rd->rule.conn == 4 && vx != ux && vy != uy))
        return INFINITY;
    return ref_move_cost(m, ux, uy, vx, vy, &rd->rule);
}

/* The sized (disc) domain on maps with terrain costs, 8- and 4-connected: no loop of its own (grid.c), so
 * the generic one runs its moves at the terrain costs; A* must give the reference Dijkstra's cost under the
 * disc's rule, which is above the point unit's where the disc has to go round. */
START_TEST(weighted_disc_vs_dijkstra)
{
    ap_test_rng g = {99};
    static const char letters[] = "..S.S.";
    ap_terrain_costs rule = {.map_id = "w", .cost = {0, 0, 2.5, 0, 0}};
    const double cost_of[5] = {1, 1, 2.5, 0, 0};
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 64 * 64, 8), AP_OK);
    int checked = 0, found = 0, above_point = 0;
    for (int mapi = 0; mapi < 12; mapi++) {
        const int W = 16 + (int)(ap_test_rand(&g) % 30), H = 16 + (int)(ap_test_rand(&g) % 30);
        char *text = malloc((size_t)(W + 1) * (size_t)H + 64);
        int off = sprintf(text, "type octile\nheight %d\nwidth %d\nmap\n", H, W);
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++)
                text[off++] = ap_test_rand01(&g) < 0.03 ? '@' : letters[ap_test_rand(&g) % 6];
            text[off++] = '\n';
        }
        text[off] = '\0';
        ap_map *m = parse_costs(text, &rule);
        ck_assert(m->weighted);
        const double r = mapi % 2 ? 0.9 : 0.6;
        const ref_disc rd = {{cost_of, 8}, ap_clearance_of(m, m->capability), ap_clearance_level(r)};
        ck_assert_ptr_nonnull(rd.t);
        for (int qi = 0; qi < 30; qi++) {
            const int sx = (int)(ap_test_rand(&g) % (unsigned)W), sy = (int)(ap_test_rand(&g) % (unsigned)H);
            const int gx = (int)(ap_test_rand(&g) % (unsigned)W), gy = (int)(ap_test_rand(&g) % (unsigned)H);
            if (!ap_map_passable(m, sx, sy) || !ap_map_passable(m, gx, gy))
                continue;
            for (int conn = 4; conn <= 8; conn += 4) {
                ref_disc rc = rd;
                rc.rule.conn = conn;
                const double want = ap_test_ref_dijkstra(m, sx, sy, gx, gy, ref_disc_cost, &rc);
                const double point = ref_dijkstra(m, cost_of, conn, sx, sy, gx, gy);
                const uint32_t goal = ap_map_index(m, gx, gy);
                ap_grid_domain gd;
                ap_domain dom;
                ck_assert_int_eq(ap_grid_domain_init_sized(&gd, &dom, m, conn, goal, rd.t, r), AP_OK);
                ck_assert_ptr_null(dom.run);
                ap_search s;
                ck_assert_int_eq(ap_search_begin(&s, &ws, &dom, ap_map_index(m, sx, sy), goal, 0), AP_OK);
                const int st = ap_search_run(&s, 0);
                ck_assert_int_eq(st, want < 0.0 ? AP_NO_PATH : AP_OK);
                if (want >= 0.0) {
                    ck_assert_msg(fabs(s.cost - want) < 1e-9, "map %d r %g (%d,%d)->(%d,%d) conn %d: A* %.12f, "
                                  "Dijkstra %.12f", mapi, r, sx, sy, gx, gy, conn, s.cost, want);
                    ck_assert(want >= point - 1e-9); /* never cheaper than the point unit */
                    found++;
                    above_point += want > point + 1e-9;
                }
                checked++;
            }
        }
        ap_map_free(m);
        free(text);
    }
    ck_assert_int_ge(checked, 200);
    ck_assert_int_ge(found, 100);
    ck_assert_int_ge(above_point, 10); /* the disc's rule mattered */
    ap_workspace_free(&ws);
}
END_TEST

/* True when some cell the point swept along r's segments touches holds terrain t. */
static bool path_touches(const ap_map *m, const ap_result *r, char t)
{
    for (size_t i = 0; i < r->n_segments; i++) {
        int32_t cells[512][2];
        size_t n = ap_segment_cells(&r->segments[i], 0.0, cells, 512);
        ck_assert_uint_le(n, 512);
        for (size_t c = 0; c < n; c++)
            if (cells[c][0] >= 0 && cells[c][1] >= 0 && cells[c][0] < m->width && cells[c][1] < m->height &&
                m->terrain[cells[c][1] * m->width + cells[c][0]] == t)
                return true;
    }
    return false;
}

/* On a weighted map jps, jps_plus and the hybrid are refused with the reason; the directional searches and
 * auto for turning units weigh each curve by the dearest terrain it touches (directional.h), so an
 * expensive swamp is driven round and a nearly free one crossed. */
START_TEST(weighted_refusals_and_auto)
{
    ap_terrain_costs rule = {.map_id = "w", .cost = {0, 0, 4.0, 0, 0}};
    static const char *text = "type octile\nheight 5\nwidth 12\nmap\n............\n............\n....SSSS....\n"
                              "............\n............\n";
    ap_map *m = parse_costs(text, &rule);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, AP_PLAN_MIN_WORKSPACE_NODES, AP_PLAN_MAX_SUCC), AP_OK);
    const ap_algorithm refused[] = {AP_ALG_JPS, AP_ALG_JPS_PLUS, AP_ALG_HYBRID};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        ap_query q = {.map = m, .sx = 0.5, .sy = 2.5, .gx = 11.5, .gy = 2.5, .algorithm = refused[i],
                      .connectivity = 8, .turning_radius = 1.0, .smoothing = AP_SMOOTH_LOS};
        ap_plan p;
        ck_assert_int_eq(ap_plan_begin(&p, &q, &ws, 0), AP_E_INVALID_REQUEST);
        ap_result r;
        ck_assert_int_eq(ap_plan_finish(&p, &r), AP_E_INVALID_REQUEST);
        ck_assert_str_eq(r.field, "search.algorithm");
        ck_assert_msg(strstr(r.message, "terrain costs") != NULL, "%s", r.message);
        ap_result_free(&r);
    }
    /* Swamp at 4: every legal-turn search drives round it (crossing costs 4 x the 4 swamp tiles at least). */
    const ap_algorithm turns[] = {AP_ALG_AUTO, AP_ALG_DIRECTIONAL8, AP_ALG_DIRECTIONAL24, AP_ALG_DIRECTIONAL48};
    ap_result r;
    for (size_t i = 0; i < sizeof turns / sizeof turns[0]; i++) {
        ap_query q = {.map = m, .sx = 0.5, .sy = 2.5, .gx = 11.5, .gy = 2.5, .algorithm = turns[i],
                      .connectivity = 8, .turning_radius = 0.5, .smoothing = AP_SMOOTH_LOS};
        r = ap_test_run_plan(&q, &ws);
        ck_assert_int_eq(r.status, AP_OK);
        ck_assert_msg(!path_touches(m, &r, 'S'), "algorithm %d crosses the swamp", (int)turns[i]);
        ck_assert(r.clear);
        ck_assert_double_eq_tol(r.segments[0].x0, 0.5, 1e-12);
        ck_assert_double_eq_tol(r.segments[r.n_segments - 1].x1, 11.5, 1e-12);
        ck_assert_double_eq_tol(r.grid_cost, r.length, 1e-4); /* multiplier 1 on every curve (float lengths) */
        ap_result_free(&r);
    }
    ap_map_free(m);
    /* Swamp at 1.01: straight through is cheapest; the curves that touch swamp pay 1.01 x their length. */
    rule.cost[2] = 1.01;
    m = parse_costs(text, &rule);
    ap_query q = {.map = m, .sx = 0.5, .sy = 2.5, .sheading = 0.0, .has_sheading = true, .gx = 11.5, .gy = 2.5,
                  .algorithm = AP_ALG_DIRECTIONAL24, .connectivity = 8, .turning_radius = 0.5,
                  .smoothing = AP_SMOOTH_LOS};
    r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_OK);
    ck_assert(path_touches(m, &r, 'S'));
    ck_assert_double_eq_tol(r.length, 11.0, 1e-9);
    ck_assert_double_gt(r.grid_cost, 11.0 + 0.01 * 4.0 - 1e-4); /* the swamp's 4 tiles at least pay 1.01 */
    ck_assert_double_lt(r.grid_cost, 11.0 * 1.01 + 1e-4);
    ap_result_free(&r);
    ap_map_free(m);
    ap_workspace_free(&ws);
}
END_TEST

Suite *grid_suite(void)
{
    Suite *s = suite_create("grid");
    TCase *tc = tcase_create("weighted");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, weighted_hand_costs);
    tcase_add_test(tc, weighted_random_vs_dijkstra);
    tcase_add_test(tc, weighted_disc_vs_dijkstra);
    tcase_add_test(tc, weighted_refusals_and_auto);
    suite_add_tcase(s, tc);
    return s;
}
