/* test_hier.c — HAA* ("hierarchical", plan_hier.c over hier.h) against the optima listed in Moving AI
 * scenario files: every refined path is valid (clear for the unit, length = grid cost between cell centres)
 * and within HIER_BOUND of the listed optimum; sized discs get clear paths too. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../../planner/hier/hier.h"
#include "../../../planner/plan/plan.h"
#include "../../util.h"
#include "../suites.h"

#define HIER_BOUND 0.03 /* refined (unsmoothed) cost <= (1 + HIER_BOUND) x optimum; measured worst: BENCHMARKS.md */

static int run(const ap_map *m, ap_workspace *ws, const ap_test_scen *s, double radius, ap_result *r)
{
    ap_query q = {.map = m, .sx = s->sx + 0.5, .sy = s->sy + 0.5, .gx = s->gx + 0.5, .gy = s->gy + 0.5,
                  .connectivity = 8, .smoothing = AP_SMOOTH_NONE, .algorithm = AP_ALG_HIERARCHICAL,
                  .unit_radius = radius};
    ap_plan p;
    int st = ap_plan_begin(&p, &q, ws, 0);
    if (st == AP_IN_PROGRESS)
        st = ap_plan_step(&p, 0);
    if (st == AP_OK)
        ck_assert_int_eq(ap_plan_finish(&p, r), AP_OK);
    ap_plan_release(&p);
    return st;
}

static void check_map(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.map", dir, name);
    ap_map *m;
    ap_diag d;
    ck_assert_int_eq(ap_map_load(path, NULL, &m, &d), AP_OK);
    const ap_hier *h = ap_hier_of(m);
    ck_assert_ptr_nonnull(h);
    ck_assert_uint_gt(h->n_nodes, 0);
    snprintf(path, sizeof path, "%s/%s.map.scen", dir, name);
    ap_test_scen *sc;
    size_t n;
    ck_assert_int_eq(ap_test_load_scen(path, &sc, &n), 0);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
    const size_t want = ap_test_quick() ? 10 : 40, step = n / want > 0 ? n / want : 1;
    double worst = 0.0;
    size_t runs = 0;
    for (size_t i = n / 2; i < n && runs < want; i += step / 2 + 1) { /* the longer half of the file */
        const ap_test_scen *s = &sc[i];
        if (!ap_map_passable(m, s->sx, s->sy) || !ap_map_passable(m, s->gx, s->gy))
            continue;
        ap_result r;
        ck_assert_int_eq(run(m, &ws, s, 0.0, &r), AP_OK);
        ck_assert(r.clear);
        ck_assert_double_eq_tol(r.length, r.grid_cost, 1e-9);
        ck_assert_double_ge(r.grid_cost, s->optimal - ap_test_tolerance(s));
        ck_assert_double_le(r.grid_cost, s->optimal * (1.0 + HIER_BOUND));
        if (r.grid_cost / s->optimal - 1.0 > worst)
            worst = r.grid_cost / s->optimal - 1.0;
        ap_result_free(&r);
        /* a disc of radius 1 (clearance class 1): ok or no path, and clear whenever ok */
        if (run(m, &ws, s, 1.0, &r) == AP_OK) {
            ck_assert(r.clear);
            ap_result_free(&r);
        }
        runs++;
    }
    ck_assert_uint_ge(runs, want / 2);
    printf("hierarchical: %s: %zu lines, worst excess %.3f %% (bound %.0f %%)\n", name, runs, 100.0 * worst,
           100.0 * HIER_BOUND);
    ap_workspace_free(&ws);
    free(sc);
    ap_map_free(m);
}

START_TEST(near_optimal_on_scenarios)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("hierarchical: scenarios");
        return;
    }
    static const char *const maps[] = {"AR0011SR", "Aftershock", "8room_000", "Berlin_0_256"}; /* graphs: <= 512^2 */
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        check_map(dir, maps[i]);
}
END_TEST

Suite *hier_suite(void)
{
    Suite *s = suite_create("hier");
    TCase *tc = tcase_create("scenarios");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, near_optimal_on_scenarios);
    suite_add_tcase(s, tc);
    return s;
}
