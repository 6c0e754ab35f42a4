/* test_scenarios.c — A*, JPS and JPS+ optimality against every Moving AI scenario file in the data folder
 * (A* against the listed optimum, JPS and JPS+ against A*'s status and cost to 1e-9: one sweep over the
 * maps serves the three), and the known-bad lines of battleground.map.scen counted as NOTES.md describes
 * them (reported, never failed). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/grid/jps.h"
#include "../../../planner/plan/plan.h"
#include "../../util.h"
#include "../suites.h"

typedef struct scen_stats {
    size_t run, ok, blocked, listed_shorter;
} scen_stats;

/* Run line s; returns the plan status; *cost the grid cost when AP_OK. Also checks that the unsmoothed,
 * uncurved path between centres has length == grid cost. */
static int run_line(const ap_map *m, ap_workspace *ws, const ap_test_scen *s, double *cost)
{
    ap_query q = {.map = m,
                  .sx = s->sx + 0.5,
                  .sy = s->sy + 0.5,
                  .gx = s->gx + 0.5,
                  .gy = s->gy + 0.5,
                  .connectivity = 8,
                  .smoothing = AP_SMOOTH_NONE};
    ap_plan p;
    int st = ap_plan_begin(&p, &q, ws, 0);
    if (st == AP_IN_PROGRESS)
        st = ap_plan_step(&p, 0);
    if (st != AP_OK)
        return st;
    ap_result r;
    ck_assert_int_eq(ap_plan_finish(&p, &r), AP_OK);
    ck_assert_double_eq_tol(r.length, r.grid_cost, 1e-9);
    ck_assert(r.clear);
    *cost = r.grid_cost;
    ap_result_free(&r);
    return st;
}

static const ap_algorithm JPS_ALGS[] = {AP_ALG_JPS, AP_ALG_JPS_PLUS};

/* JPS and JPS+ on line s of map `name`: the status A* gave (sa) and, when AP_OK, A*'s cost ca to 1e-9. */
static void jps_like_astar(const ap_map *m, ap_workspace *ws, const char *name, const ap_test_scen *s, int sa,
                           double ca)
{
    for (size_t a = 0; a < 2; a++) {
        double c = -1.0;
        const int st = ap_test_grid_cost(m, ws, JPS_ALGS[a], 0.0, s->sx, s->sy, s->gx, s->gy, 0, &c);
        AP_EXPECT(st == sa, "%s line %d: %s status %s, A* %s", name, s->line, a ? "jps_plus" : "jps",
                  ap_status_name(st), ap_status_name(sa));
        if (st == AP_OK)
            AP_EXPECT(fabs(c - ca) <= 1e-9, "%s line %d: %s cost %.10f, A* %.10f", name, s->line,
                      a ? "jps_plus" : "jps", c, ca);
    }
}

static void run_map(const char *dir, const char *name, bool all_lines, scen_stats *stats)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.map", dir, name);
    ap_map *m;
    ap_diag d;
    const ap_map_opts grid = ap_test_grid_opts(); /* A*, JPS and JPS+ only */
    int st = ap_map_load(path, &grid, &m, &d);
    ck_assert_msg(st == AP_OK, "%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    ck_assert_ptr_nonnull(ap_jps_table_of(m)); /* JPS+ runs on its table, not the online fallback */
    snprintf(path, sizeof path, "%s/%s.map.scen", dir, name);
    ap_test_scen *sc;
    size_t n;
    ck_assert_int_eq(ap_test_load_scen(path, &sc, &n), 0);
    ck_assert_uint_gt(n, 0);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    const bool bad_set = strcmp(name, "battleground") == 0; /* see NOTES.md */
    size_t want = ap_test_quick() ? 20 : 100;
    size_t step = all_lines || n <= want ? 1 : n / want; /* every k-th line: deterministic, spread over buckets */
    memset(stats, 0, sizeof *stats);
    for (size_t i = 0; i < n; i += step) {
        const ap_test_scen *s = &sc[i];
        ck_assert_msg(s->width == m->width && s->height == m->height, "%s line %d: map size %dx%d", name, s->line,
                      s->width, s->height);
        ck_assert_msg(strncmp(s->map, name, strlen(name)) == 0, "%s line %d names map %s", name, s->line, s->map);
        double cost = -1.0;
        st = run_line(m, &ws, s, &cost);
        stats->run++;
        jps_like_astar(m, &ws, name, s, st, cost);
        if (bad_set && (st == AP_E_START_BLOCKED || st == AP_E_GOAL_BLOCKED)) {
            stats->blocked++;
            printf("REPORT: %s.map.scen line %d: start or goal on a blocked cell (%s)\n", name, s->line,
                   st == AP_E_START_BLOCKED ? "start" : "goal");
            continue;
        }
        ck_assert_msg(st == AP_OK, "%s line %d: status %s", name, s->line, ap_status_name(st));
        double tol = ap_test_tolerance(s);
        if (bad_set && s->optimal < cost - tol) {
            /* listed shorter than the standard-rules optimum (NOTES.md: as if a corner had been cut) */
            stats->listed_shorter++;
            printf("REPORT: %s.map.scen line %d: listed optimum %.2f is %.4f shorter than the optimum %.6f\n", name,
                   s->line, s->optimal, cost - s->optimal, cost);
            continue;
        }
        ck_assert_msg(fabs(cost - s->optimal) <= tol, "%s line %d: cost %.10f, listed optimum %.10f (tolerance %g)",
                      name, s->line, cost, s->optimal, tol);
        stats->ok++;
    }
    ap_workspace_free(&ws);
    free(sc);
    ap_map_free(m);
}

START_TEST(optimal_costs)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("scenarios: A* optimality");
        return;
    }
    char **names;
    size_t n = ap_test_sweep_maps(dir, 0, &names);
    ck_assert_uint_gt(n, 0);
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        scen_stats st;
        run_map(dir, names[i], false, &st);
        ck_assert_uint_ge(st.run, ap_test_quick() ? 20 : 100);
        total += st.run;
        free(names[i]);
    }
    free(names);
    printf("scenarios: %zu sampled lines over %zu maps: A* agrees with the listed optimum, jps and jps_plus "
           "with A*\n", total, n);
}
END_TEST

START_TEST(battleground_known_bad_lines)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("scenarios: battleground known-bad lines");
        return;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/battleground.map.scen", dir);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        ap_test_skip_no_data("scenarios: battleground.map.scen");
        return;
    }
    fclose(f);
    scen_stats st;
    run_map(dir, "battleground", true, &st);
    printf("battleground: %zu lines, %zu agree, %zu with a blocked start/goal, %zu listing a shorter optimum\n",
           st.run, st.ok, st.blocked, st.listed_shorter);
    ck_assert_uint_eq(st.blocked, 15);
    ck_assert_uint_eq(st.listed_shorter, 55);
    ck_assert_uint_eq(st.ok, st.run - 70);
}
END_TEST

Suite *scenarios_suite(void)
{
    Suite *s = suite_create("scenarios");
    TCase *tc = tcase_create("movingai");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, optimal_costs);
    tcase_add_test(tc, battleground_known_bad_lines);
    suite_add_tcase(s, tc);
    return s;
}
