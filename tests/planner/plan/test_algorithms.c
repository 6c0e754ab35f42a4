/* test_algorithms.c — the algorithm table and plan kinds: each row's acceptance columns are what validation
 * refuses (field and message), each row runs its kind, the validation and samples messages say why, and a
 * caller-owned row (the Dijkstra fixture, fixture_dijkstra.c) plugged in with ap_plan_begin_with answers
 * A*'s optimal grid_cost on Moving AI scenario lines and on random maps. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/plan/plan_kind.h"
#include "../../util.h"
#include "../suites.h"

/* Run a plan to its end and build the result; returns the plan's status, *r the result (caller frees). */
static int run_with(const ap_query *q, const ap_algorithm_row *row, ap_workspace *ws, ap_result *r,
                    uint64_t *expanded)
{
    ap_plan p;
    int st = ap_plan_begin_with(&p, q, row, ws, 0);
    if (st == AP_IN_PROGRESS)
        st = ap_plan_step(&p, 0);
    *expanded = ap_plan_expanded(&p);
    ck_assert_int_eq(ap_plan_finish(&p, r), st); /* the answer says what the search did */
    return st;
}

/* Dijkstra and A* on the same query: the same status and, for AP_OK, the same optimal grid cost; Dijkstra
 * never expands fewer nodes (its heuristic is zero). Returns the cost (or -1 without a path). */
static double same_answer(const ap_query *q, ap_workspace *ws)
{
    ap_result ra, rd;
    uint64_t ea, ed;
    int sa = run_with(q, NULL, ws, &ra, &ea);
    int sd = run_with(q, &ap_test_dijkstra, ws, &rd, &ed);
    ck_assert_int_eq(sd, sa);
    double cost = -1.0;
    if (sa == AP_OK) {
        ck_assert_double_eq_tol(rd.grid_cost, ra.grid_cost, 1e-9);
        ck_assert_uint_ge(ed, ea);
        cost = rd.grid_cost;
    }
    ap_result_free(&ra);
    ap_result_free(&rd);
    return cost;
}

START_TEST(dijkstra_fixture_plugs_in)
{
    /* Open 12 x 12: A* with the octile heuristic walks straight to the goal; Dijkstra settles every cell
     * closer than the goal, so it expands strictly more and p->alg says it was not a table row. */
    ap_map *m = ap_test_map_from_string("type octile\nheight 12\nwidth 12\nmap\n............\n............\n"
                                        "............\n............\n............\n............\n............\n"
                                        "............\n............\n............\n............\n............\n");
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    ap_query q = ap_test_cell_query(m, AP_ALG_ASTAR, 8, 1, 1, 10, 4);
    ap_plan p;
    ck_assert_int_eq(ap_plan_begin_with(&p, &q, &ap_test_dijkstra, &ws, 0), AP_IN_PROGRESS);
    ck_assert_ptr_eq(p.kind, &ap_plan_kind_grid);
    ck_assert_int_eq(p.alg, AP_ALG_COUNT);
    ck_assert_int_eq(ap_plan_step(&p, 0), AP_OK);
    uint64_t dijkstra_expanded = ap_plan_expanded(&p);
    ap_result r;
    ck_assert_int_eq(ap_plan_finish(&p, &r), AP_OK);
    ck_assert_double_eq_tol(r.grid_cost, 6.0 + 3.0 * M_SQRT2, 1e-12);
    ck_assert_uint_eq(r.n_waypoints, 10); /* every cell centre of the 9-step path, no smoothing */
    ap_result_free(&r);
    ck_assert_int_eq(ap_plan_begin(&p, &q, &ws, 0), AP_IN_PROGRESS);
    ck_assert_int_eq(ap_plan_step(&p, 0), AP_OK);
    ck_assert_uint_eq(ap_plan_expanded(&p), 10); /* A*: the 10 cells of the path, goal included */
    ck_assert_uint_gt(dijkstra_expanded, 40);
    ap_plan_release(&p);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

START_TEST(dijkstra_matches_astar_on_scenarios)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("dijkstra fixture on scenarios");
        return;
    }
    static const char *const maps[] = {"arena", "den520d", "AR0011SR"};
    size_t want = ap_test_quick() ? 4 : 12, checked = 0;
    for (size_t k = 0; k < sizeof maps / sizeof maps[0]; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.map", dir, maps[k]);
        ap_map *m;
        ap_diag d;
        ck_assert_msg(ap_map_load(path, NULL, &m, &d) == AP_OK, "%s: %s", path, d.msg);
        snprintf(path, sizeof path, "%s/%s.map.scen", dir, maps[k]);
        ap_test_scen *sc;
        size_t n;
        ck_assert_int_eq(ap_test_load_scen(path, &sc, &n), 0);
        ap_workspace ws;
        ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
        size_t step = n > want ? n / want : 1; /* spread over the buckets, deterministic */
        for (size_t i = step / 2; i < n; i += step) {
            const ap_test_scen *s = &sc[i];
            ap_query q = ap_test_cell_query(m, AP_ALG_ASTAR, 8, s->sx, s->sy, s->gx, s->gy);
            double cost = same_answer(&q, &ws);
            ck_assert_msg(fabs(cost - s->optimal) <= ap_test_tolerance(s), "%s line %d: %.8f, listed %.8f",
                          maps[k], s->line, cost, s->optimal);
            checked++;
        }
        ap_workspace_free(&ws);
        free(sc);
        ap_map_free(m);
    }
    ck_assert_uint_ge(checked, 3 * want);
}
END_TEST

START_TEST(dijkstra_matches_astar_on_random_maps)
{
    ap_test_rng g = {20261124};
    enum { W = 32, H = 24 };
    size_t paths = 0, none = 0;
    for (int k = 0; k < 24; k++) {
        char text[64 + (W + 1) * H];
        int used = snprintf(text, sizeof text, "type octile\nheight %d\nwidth %d\nmap\n", H, W);
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++)
                text[used++] = ap_test_rand(&g) % 100 < 30 ? '@' : '.';
            text[used++] = '\n';
        }
        text[used] = '\0';
        ap_map *m = ap_test_map_from_string(text);
        ap_workspace ws;
        ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
        for (int t = 0; t < 12; t++) {
            int sx, sy, gx, gy;
            do {
                sx = (int)(ap_test_rand(&g) % W), sy = (int)(ap_test_rand(&g) % H);
            } while (!ap_map_passable(m, sx, sy));
            do {
                gx = (int)(ap_test_rand(&g) % W), gy = (int)(ap_test_rand(&g) % H);
            } while (!ap_map_passable(m, gx, gy));
            ap_query q = ap_test_cell_query(m, AP_ALG_ASTAR, t % 2 ? 4 : 8, sx, sy, gx, gy);
            if (same_answer(&q, &ws) >= 0.0)
                paths++;
            else
                none++;
        }
        ap_workspace_free(&ws);
        ap_map_free(m);
    }
    /* the sample holds both kinds of answer */
    ck_assert_uint_gt(paths, 100);
    ck_assert_uint_gt(none, 10);
}
END_TEST

/* q breaks need (an AP_NEEDS_* bit): refused on field with "<name> <why>" when row has that need, else
 * valid. */
static void expect_need(const ap_query *q, const ap_algorithm_row *row, unsigned need, const char *field,
                        const char *why)
{
    ap_query_error e;
    int st = ap_query_validate(q, NULL, &e);
    if (!(row->needs & need)) {
        ck_assert_int_eq(st, AP_OK);
        return;
    }
    char want[160];
    snprintf(want, sizeof want, "%s %s", row->name, why);
    ck_assert_int_eq(st, AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, field);
    ck_assert_str_eq(e.message, want);
}

/* Each row's acceptance columns are exactly what validation refuses, with the row's name in the message;
 * each row that is accepted runs the kind ap_algorithm_kind names. */
START_TEST(table_columns_drive_validation)
{
    ap_map *m = ap_test_map_from_string("type octile\nheight 3\nwidth 6\nmap\n......\n......\n......\n");
    ap_terrain_costs rule = {.map_id = "w", .cost = {0, 0, 4.0, 0, 0}};
    ap_map_opts o = {.terrain = &rule, .n_terrain = 1};
    const char *wtext = "type octile\nheight 3\nwidth 6\nmap\n......\n..SS..\n......\n";
    ap_map *w = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("w", "w.map", wtext, strlen(wtext), &o, &w, &d), AP_OK);
    ck_assert(w->weighted);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, AP_PLAN_MIN_WORKSPACE_NODES, AP_PLAN_MAX_SUCC), AP_OK);
    for (size_t i = 0; i < ap_algorithm_count; i++) {
        const ap_algorithm_row *row = &ap_algorithms[i];
        ap_query_error e;
        ap_query q = ap_test_cell_query(m, row->id, 8, 0, 0, 5, 2);
        q.turning_radius = 1.0;
        q.vehicle = ap_vehicle_profile_find("car")->v; /* the kinodynamic row's limits; the others ignore them */
        ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_OK);
        ck_assert_ptr_null(e.field);
        ap_plan p;
        int st = ap_plan_begin(&p, &q, &ws, 0);
        /* hierarchical answers in begin: here its A* first, as for every short query (plan_hier.c) */
        ck_assert_int_eq(st, row->id == AP_ALG_HIERARCHICAL ? AP_OK : AP_IN_PROGRESS);
        if (row->kind == &ap_plan_kind_anyangle) {
            /* a turning unit: the kind's variant whose no_path proves nothing (plan_anyangle.c) */
            ck_assert_ptr_eq(ap_algorithm_kind(&q), &ap_plan_kind_anyangle);
            ck_assert_str_eq(p.kind->name, "any_angle");
            ck_assert(p.kind->begin == ap_plan_kind_anyangle.begin && !p.kind->complete);
        } else if (row->id == AP_ALG_HIERARCHICAL) {
            /* start and goal 5 tiles apart: A* answered first and the plan is the grid kind's (plan_hier.c) */
            ck_assert_ptr_eq(ap_algorithm_kind(&q), &ap_plan_kind_hier);
            ck_assert_ptr_eq(p.kind, &ap_plan_kind_grid);
        } else {
            ck_assert_ptr_eq(p.kind, ap_algorithm_kind(&q));
            ck_assert_ptr_eq(p.kind, row->kind == &ap_plan_kind_auto ? &ap_plan_kind_turns : row->kind);
        }
        ap_plan_release(&p);

        q.turning_radius = 0.0;
        expect_need(&q, row, AP_NEEDS_TURNING, "unit.turning_radius", "needs unit.turning_radius > 0");
        q.turning_radius = 1.0;
        q.connectivity = 4;
        expect_need(&q, row, AP_NEEDS_CONN8, "search.algorithm", "needs search.connectivity 8");
        q.connectivity = 8;
        q.map = w;
        expect_need(&q, row, AP_NEEDS_UNIFORM, "search.algorithm",
                    "needs a uniform-cost map; this map has terrain costs (use astar or auto)");
        if (!(row->needs & AP_NEEDS_UNIFORM)) /* its own kind; auto's for this turning unit: legal turns */
            ck_assert_ptr_eq(ap_algorithm_kind(&q), row->kind == &ap_plan_kind_auto ? &ap_plan_kind_turns : row->kind);
    }
    /* auto with obstacles chooses any_angle, which has no costs: on the map with terrain costs it is refused as
     * any_angle is (it planned a line through the swamp at cost 1), naming the obstacles; on the uniform map it
     * is any_angle */
    const ap_circle obs[1] = {{4.5, 0.5, 0.25}};
    for (int turning = 0; turning < 2; turning++) {
        ap_query a = ap_test_cell_query(w, AP_ALG_AUTO, 8, 0, 0, 5, 2);
        a.turning_radius = turning ? 1.0 : 0.0;
        a.obstacles = obs;
        a.n_obstacles = 1;
        ap_query_error ea;
        ck_assert_int_eq(ap_query_validate(&a, NULL, &ea), AP_E_INVALID_REQUEST);
        ck_assert_str_eq(ea.field, "obstacles");
        ck_assert_str_eq(ea.message, "\"obstacles\" are served by any_angle, which needs a uniform-cost map; this map "
                                     "has terrain costs (leave \"obstacles\" out to plan with the costs)");
        a.map = m;
        ck_assert_int_eq(ap_query_validate(&a, NULL, &ea), AP_OK);
        ck_assert_ptr_eq(ap_algorithm_kind(&a), &ap_plan_kind_anyangle);
    }
    /* a value with no row */
    ap_query q = ap_test_cell_query(m, AP_ALG_COUNT, 8, 0, 0, 5, 2);
    ap_query_error e;
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "search.algorithm");
    ck_assert_ptr_null(ap_algorithm_kind(&q));
    ap_workspace_free(&ws);
    ap_map_free(w);
    ap_map_free(m);
}
END_TEST

/* Refusals say why: the point and the map's extent, the blocked cell, the sample counts. */
START_TEST(messages_say_why)
{
    ap_map *m = ap_test_map_from_string("type octile\nheight 2\nwidth 8\nmap\n...@....\n........\n");
    ap_query q = ap_test_cell_query(m, AP_ALG_ASTAR, 8, 0, 0, 7, 0);
    ap_query_error e;
    q.gx = 8.0;
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_OUT_OF_BOUNDS);
    ck_assert_str_eq(e.field, "goal");
    ck_assert_str_eq(e.message, "\"goal\" (8, 0.5) is outside the map: x in [0, 8), y in [0, 2)");
    q.gx = 8.0000001; /* a hair outside: printed in full, not rounded onto the edge */
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_OUT_OF_BOUNDS);
    ck_assert_str_eq(e.message, "\"goal\" (8.0000001, 0.5) is outside the map: x in [0, 8), y in [0, 2)");
    q.gx = nextafter(8.0, 9.0); /* 15 digits would print 8 */
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_OUT_OF_BOUNDS);
    ck_assert_str_eq(e.message, "\"goal\" (8.0000000000000018, 0.5) is outside the map: x in [0, 8), y in [0, 2)");
    q.gx = 8.0;
    q.gx = 3.5;
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_GOAL_BLOCKED);
    ck_assert_str_eq(e.message, "\"goal\" is on a blocked cell (3, 0)");
    /* a refused begin keeps the field and the message for the answer */
    ap_plan p;
    ck_assert_int_eq(ap_plan_begin(&p, &q, NULL, 0), AP_E_GOAL_BLOCKED);
    ap_result r;
    ck_assert_int_eq(ap_plan_finish(&p, &r), AP_E_GOAL_BLOCKED);
    ck_assert_str_eq(r.field, "goal");
    ck_assert_str_eq(r.message, "\"goal\" is on a blocked cell (3, 0)");
    ap_result_free(&r);

    /* (0.5, 1.5) -> (7.5, 1.5): 7 tiles, poses at 0, 0.5, ..., 7 = 15 of them */
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    q = ap_test_cell_query(m, AP_ALG_ASTAR, 8, 0, 1, 7, 1);
    q.sample_step = 0.5;
    q.max_samples = 14;
    ck_assert_int_eq(ap_plan_begin(&p, &q, &ws, 0), AP_IN_PROGRESS);
    ck_assert_int_eq(ap_plan_step(&p, 0), AP_OK);
    ck_assert_int_eq(ap_plan_finish(&p, &r), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(r.field, "samples.step");
    ck_assert_str_eq(r.message, "at most 14 samples (max_samples), this path needs 15");
    ck_assert_double_eq_tol(r.grid_cost, 7.0, 1e-12);
    ap_result_free(&r);
    q.max_samples = 15;
    ck_assert_int_eq(ap_plan_begin(&p, &q, &ws, 0), AP_IN_PROGRESS);
    ck_assert_int_eq(ap_plan_step(&p, 0), AP_OK);
    ck_assert_int_eq(ap_plan_finish(&p, &r), AP_OK);
    ck_assert_uint_eq(r.n_samples, 15);
    ck_assert_double_eq_tol(r.samples[14].x, 7.5, 1e-12);
    ap_result_free(&r);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

Suite *algorithms_suite(void)
{
    Suite *s = suite_create("algorithms");
    TCase *tc = tcase_create("table");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, dijkstra_fixture_plugs_in);
    tcase_add_test(tc, dijkstra_matches_astar_on_scenarios);
    tcase_add_test(tc, dijkstra_matches_astar_on_random_maps);
    tcase_add_test(tc, table_columns_drive_validation);
    tcase_add_test(tc, messages_say_why);
    suite_add_tcase(s, tc);
    return s;
}
