/* test_hier.c — HAA* ("hierarchical", plan_hier.c over hier.h ap_hier_path) against the optima listed in Moving
 * AI scenario files: the refined path's cost equals the abstract path's (exact intra-cluster costs), every
 * move is legal and clear for the class's disc (exact ap_segment_clear), the unsmoothed answer is never
 * below the optimum and within HIER_BOUND_NONE of it, the smoothed one within HIER_BOUND_LOS; sized discs get
 * clear paths; a weighted map (terrain costs) keeps cost == abstract cost and stays above A*'s optimum. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/hier/cluster.h"
#include "../../../planner/hier/hier.h"
#include "../../../planner/grid/jps_sized.h"
#include "../../../planner/plan/plan.h"
#include "../../../planner/plan/plan_kind.h"
#include "../../../planner/world/collide.h"
#include "../../../planner/anyangle/table.h"
#include "../../util.h"
#include "../suites.h"

/* Unsmoothed: refinement inside one cluster per abstract edge through the transitions HPA* places (measured
 * worst 7.3 %, BENCHMARKS.md "Hierarchical (HAA*)"); smoothed ("los"): the target, 1 %. */
#define HIER_BOUND_NONE 0.10
#define HIER_BOUND_LOS 0.01
/* Terrain costs: transitions are placed by passability alone, so a cheap route may cross a border away from
 * them (measured worst on battleground, swamp 3 and water 6: printed by the test). */
#define HIER_BOUND_WEIGHTED 0.25

static int run(const ap_map *m, ap_workspace *ws, const ap_test_scen *s, double radius, ap_algorithm alg,
               ap_smoothing sm, ap_result *r)
{
    ap_query q = {.map = m, .sx = s->sx + 0.5, .sy = s->sy + 0.5, .gx = s->gx + 0.5, .gy = s->gy + 0.5,
                  .connectivity = 8, .smoothing = sm, .algorithm = alg, .unit_radius = radius};
    ap_plan p;
    int st = ap_plan_begin(&p, &q, ws, 0);
    while (st == AP_IN_PROGRESS)
        st = ap_plan_step(&p, 0);
    if (st == AP_OK)
        ck_assert_int_eq(ap_plan_finish(&p, r), AP_OK);
    ap_plan_release(&p);
    return st;
}

/* Every segment of an answer clear for a disc of radius r (exact swept-disc test). */
static void assert_clear(const ap_map *m, const ap_result *r, double radius)
{
    ck_assert(r->clear);
    for (size_t i = 0; i < r->n_segments; i++)
        ck_assert_msg(ap_segment_clear(m, &r->segments[i], radius), "segment %zu not clear for radius %g", i, radius);
}

/* ap_hier_path for class cls between the cells of s: the cells run from start to goal by neighbour moves,
 * each clear for the class's radius (exact), their summed cost is out.cost, which equals the abstract cost.
 * Returns the status; out.cost in *cost when AP_OK. */
static int check_path(const ap_map *m, ap_workspace *ws, int cls, const ap_test_scen *s,
                      double *cost)
{
    const uint32_t a = ap_map_index(m, s->sx, s->sy), b = ap_map_index(m, s->gx, s->gy);
    ap_hier_result r;
    const int st = ap_hier_path(m, ap_hier_of(m), cls, a, b, ws, 0, &r);
    if (st != AP_OK) {
        ck_assert_ptr_null(r.cells);
        return st;
    }
    ck_assert_uint_ge(r.n_cells, 2);
    ck_assert_uint_eq(r.cells[0], a);
    ck_assert_uint_eq(r.cells[r.n_cells - 1], b);
    double sum = 0.0;
    for (size_t i = 1; i < r.n_cells; i++) {
        int32_t x0, y0, x1, y1;
        ap_map_coords(m, r.cells[i - 1], &x0, &y0);
        ap_map_coords(m, r.cells[i], &x1, &y1);
        const int dx = abs(x1 - x0), dy = abs(y1 - y0);
        ck_assert(dx <= 1 && dy <= 1 && dx + dy > 0);
        const ap_segment seg = ap_segment_line(x0 + 0.5, y0 + 0.5, x1 + 0.5, y1 + 0.5);
        ck_assert_msg(ap_segment_clear(m, &seg, ap_hier_class_radius[cls]), "move %zu not clear for class %d", i,
                      cls);
        sum += ap_map_move_cost(m, r.cells[i - 1], r.cells[i], dx + dy == 2 ? M_SQRT2 : 1.0);
    }
    ck_assert_double_eq_tol(sum, r.cost, 1e-9 * r.cost);
    ck_assert_double_eq_tol(r.cost, r.abstract_cost, 1e-6 * r.cost);
    *cost = r.cost;
    free(r.cells);
    return AP_OK;
}

/* Map `name` of dir loaded with opts (it must have a graph), its scenario lines, and a plan workspace for
 * the lines. */
static ap_map *load(const char *dir, const char *name, const ap_map_opts *opts, ap_test_scen **sc, size_t *n,
                    ap_workspace *ws)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.map", dir, name);
    ap_map *m;
    ap_diag d;
    ck_assert_int_eq(ap_map_load(path, opts, &m, &d), AP_OK);
    ck_assert_ptr_nonnull(ap_hier_of(m));
    ck_assert_uint_gt(ap_hier_of(m)->n_nodes, 0);
    snprintf(path, sizeof path, "%s/%s.map.scen", dir, name);
    ck_assert_int_eq(ap_test_load_scen(path, sc, n), 0);
    ck_assert_int_eq(ap_workspace_init(ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
    return m;
}

/* Returns the sized answers checked against their class's path (8room_000's one-cell doors have none). */
static size_t check_map(const char *dir, const char *name)
{
    ap_test_scen *sc;
    size_t n;
    ap_workspace ws;
    ap_map *m = load(dir, name, NULL, &sc, &n, &ws);
    const size_t want = ap_test_quick() ? 10 : 40, step = n / want > 0 ? n / want : 1;
    double worst_none = 0.0, worst_los = -INFINITY;
    size_t runs = 0, sized = 0;
    for (size_t i = n / 2; i < n && runs < want; i += step / 2 + 1) { /* the longer half of the file */
        const ap_test_scen *s = &sc[i];
        if (!ap_map_passable(m, s->sx, s->sy) || !ap_map_passable(m, s->gx, s->gy))
            continue;
        double cost;
        ck_assert_int_eq(check_path(m, &ws, 0, s, &cost), AP_OK);
        ck_assert_double_ge(cost, s->optimal - ap_test_tolerance(s));
        ap_result r;
        ck_assert_int_eq(run(m, &ws, s, 0.0, AP_ALG_HIERARCHICAL, AP_SMOOTH_NONE, &r), AP_OK);
        assert_clear(m, &r, 0.0);
        ck_assert_double_eq_tol(r.length, r.grid_cost, 1e-9);
        ck_assert_double_eq_tol(r.grid_cost, cost, 1e-9);
        ck_assert_double_ge(r.grid_cost, s->optimal - ap_test_tolerance(s));
        ck_assert_double_le(r.grid_cost, s->optimal * (1.0 + HIER_BOUND_NONE));
        worst_none = fmax(worst_none, r.grid_cost / s->optimal - 1.0);
        ap_result_free(&r);
        ck_assert_int_eq(run(m, &ws, s, 0.0, AP_ALG_HIERARCHICAL, AP_SMOOTH_LOS, &r), AP_OK);
        assert_clear(m, &r, 0.0);
        ck_assert_double_le(r.length, s->optimal * (1.0 + HIER_BOUND_LOS));
        worst_los = fmax(worst_los, r.length / s->optimal - 1.0);
        ap_result_free(&r);
        /* discs of radius 1 and 2 (classes 1 and 2): the class's path exact, the answers clear */
        for (int cls = 1; cls <= 2; cls++) {
            const int st = check_path(m, &ws, cls, s, &cost);
            ck_assert(st == AP_OK || st == AP_NO_PATH);
            for (int sm = 0; sm < 2; sm++) {
                const int sr = run(m, &ws, s, ap_hier_class_radius[cls], AP_ALG_HIERARCHICAL, sm, &r);
                /* where the class has a path, hierarchical answers one (an answer without one is checked clear) */
                ck_assert_msg(st != AP_OK || sr == AP_OK, "%s line %d radius %g: status %d where the class has a path",
                              name, s->line, ap_hier_class_radius[cls], sr);
                if (sr == AP_OK) {
                    assert_clear(m, &r, ap_hier_class_radius[cls]);
                    if (sm == AP_SMOOTH_NONE && st == AP_OK)
                        ck_assert_double_eq_tol(r.grid_cost, cost, 1e-9);
                    sized += st == AP_OK;
                    ap_result_free(&r);
                }
            }
        }
        runs++;
    }
    ck_assert_uint_ge(runs, want / 2);
    printf("hierarchical: %s: %zu lines (%zu sized answers), worst excess %.2f %% unsmoothed (bound %.0f %%), "
           "%.2f %% smoothed (bound %.0f %%)\n",
           name, runs, sized, 100.0 * worst_none, 100.0 * HIER_BOUND_NONE, 100.0 * worst_los, 100.0 * HIER_BOUND_LOS);
    ap_workspace_free(&ws);
    free(sc);
    ap_map_free(m);
    return sized;
}

START_TEST(near_optimal_on_scenarios)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("hierarchical: scenarios");
        return;
    }
    static const char *const maps[] = {"AR0011SR", "Aftershock", "8room_000", "Berlin_0_256"}; /* graphs: <= 512^2 */
    size_t sized = 0;
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        sized += check_map(dir, maps[i]);
    ck_assert_uint_gt(sized, ap_test_quick() ? 30 : 100);
}
END_TEST

/* The abstract search's ALT bound (hier.h ap_hier.lm): on the longer half of a map's scenario lines, for
 * classes 0-2, the same abstract cost with the landmarks as with the octile bound alone (both consistent: a
 * bound that overestimated would give a longer abstract path somewhere), with fewer expansions in all. */
static void check_landmarks(const char *dir, const char *name, double *ratio)
{
    ap_test_scen *sc;
    size_t n;
    ap_workspace ws;
    ap_map *m = load(dir, name, NULL, &sc, &n, &ws);
    const ap_hier *h = ap_hier_of(m);
    ck_assert_ptr_nonnull(h->lm);
    ck_assert_int_eq(h->lm_classes, h->clear != NULL ? AP_HIER_CLASSES : 1);
    ap_hier plain = *h;
    plain.lm = NULL; /* the same graph, the octile bound alone */
    const size_t want = ap_test_quick() ? 20 : 60, step = n / want > 0 ? n / want : 1;
    uint64_t exp_lm = 0, exp_oct = 0;
    size_t runs = 0;
    for (size_t i = n / 2; i < n; i += step / 2 + 1)
        for (int cls = 0; cls <= 2; cls++) {
            const ap_test_scen *s = &sc[i];
            const uint32_t a = ap_map_index(m, s->sx, s->sy), b = ap_map_index(m, s->gx, s->gy);
            ap_hier_result rl, ro;
            const int sl = ap_hier_path(m, h, cls, a, b, &ws, 0, &rl);
            const int so = ap_hier_path(m, &plain, cls, a, b, &ws, 0, &ro);
            ck_assert_int_eq(sl, so);
            if (sl == AP_OK) {
                /* (two equally short abstract paths can differ by the float rounding of their edge costs) */
                ck_assert_msg(fabs(rl.abstract_cost - ro.abstract_cost) <= 1e-6 * ro.abstract_cost,
                              "%s line %zu class %d: abstract cost %.9f with landmarks, %.9f without", name, i, cls,
                              rl.abstract_cost, ro.abstract_cost);
                exp_lm += rl.expanded;
                exp_oct += ro.expanded;
                runs++;
                free(rl.cells);
                free(ro.cells);
            }
        }
    ck_assert_uint_ge(runs, want);
    ck_assert_uint_lt(exp_lm, exp_oct);
    *ratio = (double)exp_lm / (double)exp_oct;
    printf("hierarchical landmarks: %s: %zu paths, abstract expansions %llu with, %llu without (%.2f)\n", name, runs,
           (unsigned long long)exp_lm, (unsigned long long)exp_oct, *ratio);
    ap_workspace_free(&ws);
    free(sc);
    ap_map_free(m);
}

/* A ring of 1-wide corridors on a side x side map (side a multiple of 4): a serpentine down the left half
 * (rows 1, 3, 5, ... joined at alternate ends) and one up the right half, joined by rows 1 and `last`, which
 * run across: one cycle of about side^2 / 2 tiles, so two routes between any two cells and distances beyond
 * what the landmarks' uint16 distances hold (hier.h AP_HIER_LM_UNIT): those are stored as AP_HIER_LM_NONE, and
 * the bound must then leave the landmark out. */
static ap_map *corridor_ring(int side)
{
    const int half = side / 2, rows = (side - 2) / 2 - ((side - 2) / 2) % 2, last = 2 * rows - 1;
    const size_t cap = (size_t)side * (side + 1) + 64;
    char *text = malloc(cap);
    int k = sprintf(text, "type octile\nheight %d\nwidth %d\nmap\n", side, side);
    for (int y = 0; y < side; y++) {
        for (int x = 0; x < side; x++) {
            bool open = false;
            if (x >= 1 && x <= side - 2 && y >= 1 && y <= last) {
                const bool in_half = x <= half - 2 || x >= half + 1;
                if (y % 2 == 1)
                    open = in_half || y == 1 || y == last;
                else {
                    const int r = (y - 2) / 2; /* joins row r and row r + 1 */
                    open = r % 2 == 0 ? (x == 1 || x == side - 2) : (x == half - 2 || x == half + 1);
                }
            }
            text[k++] = open ? '.' : '@';
        }
        text[k++] = '\n';
    }
    ap_map *m = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("ring", "ring", text, (size_t)k, NULL, &m, &d), AP_OK);
    free(text);
    return m;
}

/* Distances too far for the landmarks' storage: on the corridor ring the abstract cost with the landmarks is the
 * octile bound's, for goals in the clusters where a landmark's distances stop fitting (measured: reading a
 * missing distance as 0 sends searches the long way round, 19,723 against 12,283). The goal-side rule of
 * abstract_path (a landmark whose distances to the goal's transitions are partly missing sits the query out)
 * guards a rarer case, a missing transition being the nearest way to the goal, which these lines do not
 * reach. */
START_TEST(landmarks_too_far_to_hold)
{
    ap_map *m = corridor_ring(256);
    const ap_hier *h = ap_hier_of(m);
    ck_assert_ptr_nonnull(h);
    ck_assert_ptr_nonnull(h->lm);
    size_t none = 0;
    for (size_t v = 0; v < (size_t)h->n_nodes * AP_HIER_LANDMARKS; v++)
        none += h->lm[v] == AP_HIER_LM_NONE;
    ck_assert_uint_gt(none, 0); /* some distances did not fit */
    ap_hier plain = *h;
    plain.lm = NULL;
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
    /* goals in clusters whose class-0 transitions hold a distance from some landmark and miss another's (the
     * case the bound must leave out), starts anywhere on the corridor */
    uint32_t goals[64];
    int ng = 0;
    for (uint32_t cl = 0; cl + 1 < (uint32_t)(h->cw * h->ch) + 1 && ng < 64; cl++)
        for (int i = 0; i < AP_HIER_LANDMARKS; i++) {
            bool held = false, missing = false;
            for (uint32_t j = h->cl_first[cl]; j < h->cl_first[cl + 1]; j++)
                if (h->classes[j] & 1u) {
                    const bool gone = h->lm[(size_t)j * AP_HIER_LANDMARKS + i] == AP_HIER_LM_NONE;
                    held |= !gone;
                    missing |= gone;
                }
            if (held && missing) {
                goals[ng++] = h->cell[h->cl_first[cl]];
                break;
            }
        }
    ck_assert_int_gt(ng, 0);
    ap_test_rng rng = {7};
    int runs = 0;
    for (int it = 0; it < (ap_test_quick() ? 2 : 4) * ng; it++) {
        const int y0 = 1 + 2 * (int)(ap_test_rand01(&rng) * 120), x0 = 1 + (int)(ap_test_rand01(&rng) * 126);
        const uint32_t a = ap_map_index(m, x0, y0), b = goals[it % ng];
        if (!ap_map_passable(m, x0, y0))
            continue;
        int32_t x1, y1;
        ap_map_coords(m, b, &x1, &y1);
        ap_hier_result rl, ro;
        const int sl = ap_hier_path(m, h, 0, a, b, &ws, 0, &rl);
        ck_assert_int_eq(sl, ap_hier_path(m, &plain, 0, a, b, &ws, 0, &ro));
        if (sl != AP_OK)
            continue;
        ck_assert_msg(fabs(rl.abstract_cost - ro.abstract_cost) <= 1e-6 * ro.abstract_cost,
                      "(%d, %d) -> (%d, %d): %.6f with landmarks, %.6f without", x0, y0, x1, y1, rl.abstract_cost,
                      ro.abstract_cost);
        runs++;
        free(rl.cells);
        free(ro.cells);
    }
    ck_assert_int_ge(runs, 5);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

START_TEST(landmarks_keep_the_abstract_cost)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("hierarchical: landmarks");
        return;
    }
    static const char *const maps[] = {"ost003d", "den520d", "AR0011SR"};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        double ratio;
        check_landmarks(dir, maps[i], &ratio);
        ck_assert_double_le(ratio, 0.8); /* measured: see the printed ratios */
    }
}
END_TEST

/* Costs inside cluster cl of h for class cls from padded cell `from` to each of its cells (local ids), by
 * a cluster search run to the end (no target cells). */
static void cluster_costs(const ap_map *m, const ap_hier *h, int cls, uint32_t cl, uint32_t from, double *dist)
{
    ap_hier_cluster *c = malloc(sizeof *c);
    ck_assert_ptr_nonnull(c);
    ap_hier_cluster_init(c, m, h->clear, (int32_t)(cl % (uint32_t)h->cw) * AP_HIER_CLUSTER,
                         (int32_t)(cl / (uint32_t)h->cw) * AP_HIER_CLUSTER, cls);
    ap_hier_cluster_dijkstra(c, cls, ap_hier_cluster_local(c, from), NULL, 0, dist, NULL);
    free(c);
}

/* Local id (cluster.h) of padded cell `cell` in its cluster. */
static uint32_t local_of(const ap_map *m, uint32_t cell)
{
    int32_t x, y;
    ap_map_coords(m, cell, &x, &y);
    return (uint32_t)((y % AP_HIER_CLUSTER) * AP_HIER_CLUSTER + x % AP_HIER_CLUSTER);
}

/* The reference for a query's abstract cost: Dijkstra's algorithm over h's class-cls edges (a plain array
 * scan, no open list) with start a and goal b joined to every node of their clusters by cluster searches run
 * to the end, and start -> goal inside one cluster when they share it. INFINITY when no abstract path joins
 * them. */
static double abstract_optimum(const ap_map *m, const ap_hier *h, int cls, uint32_t a, uint32_t b)
{
    const uint32_t n = h->n_nodes, S = n, G = n + 1, ca = ap_hier_cluster_of(m, h, a), cb = ap_hier_cluster_of(m, h, b);
    double *d = malloc((n + 2) * sizeof *d), da[AP_HIER_LOCAL_N], db[AP_HIER_LOCAL_N];
    bool *done = calloc(n + 2, 1);
    ck_assert(d != NULL && done != NULL);
    cluster_costs(m, h, cls, ca, a, da);
    cluster_costs(m, h, cls, cb, b, db);
    for (uint32_t i = 0; i < n + 2; i++)
        d[i] = INFINITY;
    d[S] = 0.0;
    for (;;) {
        uint32_t u = UINT32_MAX;
        for (uint32_t i = 0; i < n + 2; i++)
            if (!done[i] && d[i] < INFINITY && (u == UINT32_MAX || d[i] < d[u]))
                u = i;
        if (u == UINT32_MAX || u == G)
            break;
        done[u] = true;
        if (u == S) {
            for (uint32_t j = h->cl_first[ca]; j < h->cl_first[ca + 1]; j++)
                d[j] = fmin(d[j], da[local_of(m, h->cell[j])]);
            if (ca == cb)
                d[G] = fmin(d[G], da[local_of(m, b)]);
            continue;
        }
        for (uint32_t e = h->first[u]; e < h->first[u + 1]; e++)
            if (isfinite(h->edges[e].cost[cls]))
                d[h->edges[e].to] = fmin(d[h->edges[e].to], d[u] + h->edges[e].cost[cls]);
        if (ap_hier_cluster_of(m, h, h->cell[u]) == cb)
            d[G] = fmin(d[G], d[u] + db[local_of(m, h->cell[u])]);
    }
    const double r = d[G];
    free(done);
    free(d);
    return r;
}

/* A query's abstract cost is the abstract graph's optimum (abstract_optimum: its start and goal insertion run
 * to the end), for every class on the longer half of the scenario lines of three maps, the queries the graph
 * answers and the ones it does not: the insertion's searches stop once the cluster's nodes of the class
 * are settled (hier.c insert_point), and that must not change a cost. Within 1e-6 of the cost: the edges'
 * float costs make equally short paths differ by such sums, as in landmarks_keep_the_abstract_cost. */
START_TEST(abstract_cost_is_the_graphs_optimum)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("hierarchical: abstract optimum");
        return;
    }
    static const char *const maps[] = {"ost003d", "lak303d", "AR0011SR"};
    for (size_t mi = 0; mi < sizeof maps / sizeof maps[0]; mi++) {
        ap_test_scen *sc;
        size_t n;
        ap_workspace ws;
        ap_map *m = load(dir, maps[mi], NULL, &sc, &n, &ws);
        const ap_hier *h = ap_hier_of(m);
        const size_t want = ap_test_quick() ? 12 : 40, step = n / 2 / want > 0 ? n / 2 / want : 1;
        size_t answered = 0, none = 0;
        for (int cls = 0; cls < 3; cls++)
            for (size_t i = n / 2; i < n; i += step) {
                const ap_test_scen *s = &sc[i];
                if (!ap_map_passable(m, s->sx, s->sy) || !ap_map_passable(m, s->gx, s->gy))
                    continue;
                const uint32_t a = ap_map_index(m, s->sx, s->sy), b = ap_map_index(m, s->gx, s->gy);
                const double ref = abstract_optimum(m, h, cls, a, b);
                ap_hier_result r;
                const int st = ap_hier_path(m, h, cls, a, b, &ws, 0, &r);
                if (!(ref < INFINITY)) {
                    ck_assert_int_eq(st, AP_NO_PATH);
                    none++;
                    continue;
                }
                ck_assert_int_eq(st, AP_OK);
                ck_assert_msg(fabs(r.abstract_cost - ref) <= 1e-6 * ref, "%s class %d (%d, %d) -> (%d, %d): %.9f, optimum %.9f",
                              maps[mi], cls, s->sx, s->sy, s->gx, s->gy, r.abstract_cost, ref);
                free(r.cells);
                answered++;
            }
        printf("hierarchical abstract optimum: %s: %zu answered, %zu without an abstract path\n", maps[mi], answered,
               none);
        ck_assert_uint_ge(answered, want);
        ap_workspace_free(&ws);
        free(sc);
        ap_map_free(m);
    }
}
END_TEST

/* Whether h has an edge u -> v (nodes of cells a and b) of finite class-cls cost. */
static bool has_edge(const ap_map *m, const ap_hier *h, int cls, uint32_t a, uint32_t b)
{
    for (uint32_t u = h->cl_first[ap_hier_cluster_of(m, h, a)]; u < h->cl_first[ap_hier_cluster_of(m, h, a) + 1]; u++)
        if (h->cell[u] == a)
            for (uint32_t e = h->first[u]; e < h->first[u + 1]; e++)
                if (h->cell[h->edges[e].to] == b && isfinite(h->edges[e].cost[cls]))
                    return true;
    return false;
}

/* Every way across a cluster border is in the graph: wherever a diagonal move across a border is legal for a
 * class (ap_hier_move_ok) but neither orthogonal crossing beside it is, the graph has that move as an edge of
 * the class (hier.c diagonal_classes); checked over every border of three maps. On Paris_1_1024 a radius-2
 * disc's scenario line (48, 63) -> (1007, 935) then gets an abstract path within 5 % of the grid optimum (it was
 * 10.6 % longer without the two diagonal crossings it needs). */
START_TEST(diagonal_crossings_in_the_graph)
{
    static const char *const maps[] = {"Paris_1_1024", "den520d", "AR0011SR"};
    for (size_t mi = 0; mi < sizeof maps / sizeof maps[0]; mi++) {
        ap_map *m = ap_test_data_map(maps[mi], "hierarchical: diagonal crossings");
        if (m == NULL)
            return;
        const ap_hier *h = ap_hier_of(m);
        ck_assert_ptr_nonnull(h);
        ck_assert_ptr_nonnull(h->clear);
        size_t found = 0;
        for (int vertical = 0; vertical < 2; vertical++) {
            const int32_t lines = vertical ? m->width : m->height, len = vertical ? m->height : m->width;
            for (int32_t k = AP_HIER_CLUSTER; k < lines; k += AP_HIER_CLUSTER)
                for (int32_t i = 0; i + 1 < len; i++) {
                    const int32_t ax = vertical ? k - 1 : i, ay = vertical ? i : k - 1; /* a0; a1 = a0 + along */
                    const int ux = vertical ? 0 : 1, uy = vertical ? 1 : 0, cx = vertical ? 1 : 0, cy = vertical ? 0 : 1;
                    const uint32_t a0 = ap_map_index(m, ax, ay), a1 = ap_map_index(m, ax + ux, ay + uy);
                    if (!ap_map_passable(m, ax, ay) || !ap_map_passable(m, ax + ux, ay + uy))
                        continue;
                    for (int cls = 1; cls < AP_HIER_CLASSES; cls++) {
                        if (ap_hier_move_ok(m, h->clear, cls, a0, cx, cy) || ap_hier_move_ok(m, h->clear, cls, a1, cx, cy))
                            continue;
                        if (ap_hier_move_ok(m, h->clear, cls, a0, cx + ux, cy + uy)) {
                            ck_assert_msg(has_edge(m, h, cls, a0, ap_map_index(m, ax + cx + ux, ay + cy + uy)),
                                          "%s: class %d diagonal crossing from (%d, %d) not in the graph", maps[mi], cls,
                                          ax, ay);
                            found++;
                        }
                        if (ap_hier_move_ok(m, h->clear, cls, a1, cx - ux, cy - uy)) {
                            ck_assert_msg(has_edge(m, h, cls, a1, ap_map_index(m, ax + cx, ay + cy)),
                                          "%s: class %d diagonal crossing from (%d, %d) not in the graph", maps[mi], cls,
                                          ax + ux, ay + uy);
                            found++;
                        }
                    }
                }
        }
        printf("hierarchical diagonal crossings: %s: %zu\n", maps[mi], found);
        if (mi == 0) {
            ck_assert_uint_gt(found, 0);
            ap_workspace ws;
            ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
            const ap_test_scen line = {.sx = 48, .sy = 63, .gx = 1007, .gy = 935};
            ap_result r;
            ck_assert_int_eq(run(m, &ws, &line, 2.0, AP_ALG_ASTAR, AP_SMOOTH_NONE, &r), AP_OK);
            const double opt = r.grid_cost;
            ap_result_free(&r);
            double cost;
            ck_assert_int_eq(check_path(m, &ws, ap_hier_class_of(h, 2.0), &line, &cost), AP_OK);
            ck_assert_msg(cost <= 1.05 * opt, "hierarchical %.3f, optimum %.3f", cost, opt);
            ap_workspace_free(&ws);
        }
        ap_map_free(m);
    }
}
END_TEST

/* Terrain costs (battleground: swamp 3, water passable at 6): the refined cost is the abstract cost and never
 * below A*'s weighted optimum; the answer's grid cost is the refined cost, or A*'s where A* answered first. */
START_TEST(weighted_map)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("hierarchical: weighted");
        return;
    }
    ap_terrain_costs tc = {.map_id = "*", .cost = {0, 0, 3.0, 0, 6.0}};
    ap_map_opts o = {.terrain = &tc, .n_terrain = 1};
    ap_test_scen *sc;
    size_t n;
    ap_workspace ws;
    ap_map *m = load(dir, "battleground", &o, &sc, &n, &ws);
    ck_assert(m->weighted);
    size_t runs = 0;
    double worst = 0.0;
    for (size_t i = n / 2; i < n && runs < 12; i += n / 24) {
        const ap_test_scen *s = &sc[i];
        if (!ap_map_passable(m, s->sx, s->sy) || !ap_map_passable(m, s->gx, s->gy))
            continue;
        double cost;
        ck_assert_int_eq(check_path(m, &ws, 0, s, &cost), AP_OK);
        ap_result ra, rh;
        ck_assert_int_eq(run(m, &ws, s, 0.0, AP_ALG_ASTAR, AP_SMOOTH_NONE, &ra), AP_OK);
        ck_assert_int_eq(run(m, &ws, s, 0.0, AP_ALG_HIERARCHICAL, AP_SMOOTH_NONE, &rh), AP_OK);
        /* the graph's refined cost, or A*'s optimum where the line is short enough for plan_hier.c's A* first */
        ck_assert_msg(fabs(rh.grid_cost - cost) < 1e-9 || fabs(rh.grid_cost - ra.grid_cost) < 1e-9,
                      "hierarchical %.9f, graph %.9f, A* %.9f", rh.grid_cost, cost, ra.grid_cost);
        ck_assert_double_ge(cost, ra.grid_cost * (1.0 - 1e-9));
        ck_assert_double_le(cost, ra.grid_cost * (1.0 + HIER_BOUND_WEIGHTED));
        worst = fmax(worst, cost / ra.grid_cost - 1.0);
        ap_result_free(&ra);
        ap_result_free(&rh);
        runs++;
    }
    ck_assert_uint_ge(runs, 8);
    printf("hierarchical: battleground weighted: %zu lines, worst excess %.2f %% (bound %.0f %%)\n", runs,
           100.0 * worst, 100.0 * HIER_BOUND_WEIGHTED);
    ap_workspace_free(&ws);
    free(sc);
    ap_map_free(m);
}
END_TEST

/* The algorithm a plan of q runs (p.alg after begin) and its status, with r filled on AP_OK. */
static ap_algorithm plan_alg(const ap_query *q, ap_workspace *ws, ap_result *r, int *status)
{
    ap_plan p;
    int st = ap_plan_begin(&p, q, ws, 0);
    const ap_algorithm alg = p.alg;
    while (st == AP_IN_PROGRESS)
        st = ap_plan_step(&p, 0);
    if (st == AP_OK)
        ck_assert_int_eq(ap_plan_finish(&p, r), AP_OK);
    ap_plan_release(&p);
    *status = st;
    return alg;
}

/* auto (the map's any_angle table full, so no any_angle for discs): a sized disc runs jps_plus over its
 * threshold's tables (jps_sized.h); once the map's places hold
 * other thresholds, 128 tiles or more apart (octile) it runs hierarchical when smoothed, A* when close or
 * unsmoothed; a point unit keeps jps_plus. hierarchical honours connectivity 4 (whole-map A*: orthogonal
 * moves only, the optimum). */
START_TEST(auto_and_connectivity)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("hierarchical: auto");
        return;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/den520d.map", dir);
    ap_map *m;
    ap_diag d;
    ck_assert_int_eq(ap_map_load(path, NULL, &m, &d), AP_OK);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
    /* The any_angle table's disc slots held by other radii: auto's long disc queries keep the grid searches
     * here (with room it answers them with any_angle: test_plan_anyangle.c, auto_long_disc_queries). */
    for (int k = 0; k < AP_AA_TABLE_RADII; k++)
        ck_assert_ptr_nonnull(ap_aa_table_graph(m, 0.2 + 0.01 * k));
    ck_assert(!ap_aa_table_may_serve(m, 1.0 + 1e-6));
    /* the first of the file's last lines (bucket 88, optima about 353 tiles) a radius-1 disc can take */
    snprintf(path, sizeof path, "%s/den520d.map.scen", dir);
    ap_test_scen *sc;
    size_t n;
    ck_assert_int_eq(ap_test_load_scen(path, &sc, &n), 0);
    ap_query q = {.map = m, .connectivity = 8, .smoothing = AP_SMOOTH_LOS, .algorithm = AP_ALG_ASTAR,
                  .unit_radius = 1.0};
    ap_result r;
    int st = AP_NO_PATH;
    for (size_t i = n - 1; i > n - 30 && st != AP_OK; i--) {
        q.sx = sc[i].sx + 0.5, q.sy = sc[i].sy + 0.5, q.gx = sc[i].gx + 0.5, q.gy = sc[i].gy + 0.5;
        plan_alg(&q, &ws, &r, &st);
        if (st == AP_OK)
            ap_result_free(&r);
    }
    free(sc);
    ck_assert_int_eq(st, AP_OK);
    q.algorithm = AP_ALG_AUTO;
    const double sx = q.sx, sy = q.sy, gx = q.gx, gy = q.gy;
    /* while the disc's threshold has JPS+ tables or room for them, auto runs jps_plus, far or near */
    ck_assert_int_eq(plan_alg(&q, &ws, &r, &st), AP_ALG_JPS_PLUS);
    ck_assert_int_eq(st, AP_OK);
    const double jps_length = r.length;
    assert_clear(m, &r, 1.0);
    ap_result_free(&r);
    /* once other thresholds hold every place: hierarchical when far and smoothed */
    const ap_clearance_table *ct = ap_clearance_of(m, m->capability);
    const uint16_t k1 = ap_jps_disc_key(1.0);
    int taken = 1; /* radius 1's threshold holds one place */
    for (uint16_t k = 30; ap_jps_sized_get(m, ct, k) != NULL; k++)
        ck_assert_int_le(++taken, AP_JPS_SIZED_CLASSES);
    ck_assert_int_eq(taken, AP_JPS_SIZED_CLASSES);
    ck_assert(ap_jps_sized_ready(m, ct, k1)); /* its own tables stay */
    const double other = 1.42; /* the next threshold (sqrt 2 <= 1.42 < 1.5): no place left */
    ck_assert_uint_eq(ap_jps_disc_key(other), k1 + 1);
    q.unit_radius = other;
    ck_assert(!ap_jps_sized_ready(m, ct, (uint16_t)(k1 + 1)));
    ck_assert_int_eq(plan_alg(&q, &ws, &r, &st), AP_ALG_HIERARCHICAL);
    ck_assert_int_eq(st, AP_OK);
    assert_clear(m, &r, other);
    ck_assert(r.length >= jps_length * (1.0 - 0.01)); /* within HAA*'s smoothed excess of the optimum's */
    ap_result_free(&r);
    q.smoothing = AP_SMOOTH_NONE;
    ck_assert_int_eq(plan_alg(&q, &ws, &r, &st), AP_ALG_ASTAR);
    ck_assert_int_eq(st, AP_OK);
    ap_result_free(&r);
    q.smoothing = AP_SMOOTH_LOS;
    q.unit_radius = 0.0;
    /* a smoothed point unit on a map with the point any-angle graph: the exact shortest path */
    ck_assert_int_eq(plan_alg(&q, &ws, &r, &st), AP_ALG_ANY_ANGLE);
    ap_result_free(&r);
    q.smoothing = AP_SMOOTH_NONE;
    ck_assert_int_eq(plan_alg(&q, &ws, &r, &st), AP_ALG_JPS_PLUS);
    ap_result_free(&r);
    q.smoothing = AP_SMOOTH_LOS;
    q.unit_radius = other;
    q.gx = q.sx + 100.0; /* 100 tiles apart: below the threshold */
    q.gy = q.sy;
    if (q.gx < m->width && ap_map_passable(m, (int32_t)q.gx, (int32_t)q.gy)) {
        ck_assert_int_eq(plan_alg(&q, &ws, &r, &st), AP_ALG_ASTAR);
        if (st == AP_OK)
            ap_result_free(&r);
    }
    /* connectivity 4 */
    q = (ap_query){.map = m, .sx = sx, .sy = sy, .gx = gx, .gy = gy, .connectivity = 4,
                   .smoothing = AP_SMOOTH_NONE, .algorithm = AP_ALG_HIERARCHICAL};
    ap_result ra;
    ck_assert_int_eq(plan_alg(&q, &ws, &r, &st), AP_ALG_HIERARCHICAL);
    ck_assert_int_eq(st, AP_OK);
    q.algorithm = AP_ALG_ASTAR;
    plan_alg(&q, &ws, &ra, &st);
    ck_assert_int_eq(st, AP_OK);
    ck_assert_double_eq_tol(r.grid_cost, ra.grid_cost, 1e-9);
    for (size_t i = 1; i < r.n_waypoints; i++)
        ck_assert(r.waypoints[i][0] == r.waypoints[i - 1][0] || r.waypoints[i][1] == r.waypoints[i - 1][1]);
    ap_result_free(&r);
    ap_result_free(&ra);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* An open w x h map (w, h <= 256) whose bottom-left corner holds the n rows of corner (NULL when n is 0). */
static ap_map *open_map(int w, int h, const char *const *corner, int n)
{
    static char text[64 + 257 * 256];
    int k = snprintf(text, sizeof text, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
    for (int y = 0; y < h; y++) {
        memset(text + k, '.', (size_t)w);
        if (y >= h - n)
            memcpy(text + k, corner[y - (h - n)], strlen(corner[y - (h - n)]));
        k += w;
        text[k++] = '\n';
    }
    text[k] = '\0';
    return ap_test_map_from_string(text);
}

/* Short queries take A* first (plan_hier.c near_search): one step across a cluster border on an open map,
 * which the graph answers by a detour to the border's entrance (entrances sit at the ends of a run of open
 * border cells longer than 6), is answered with its optimum 1 by the grid kind; a query 128 tiles or more
 * apart keeps the graph's path. */
START_TEST(short_queries_take_astar_first)
{
    ap_map *m = open_map(160, 48, NULL, 0);
    const ap_hier *h = ap_hier_of(m);
    ck_assert_ptr_nonnull(h);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
    /* the graph alone: from (15, 7) to (16, 7), across the border between the first two clusters, by way of
     * an entrance at an end of the border's run (7 or 8 rows away) */
    ap_hier_result hr;
    ck_assert_int_eq(ap_hier_path(m, h, 0, ap_map_index(m, 15, 7), ap_map_index(m, 16, 7), &ws, 0, &hr), AP_OK);
    ck_assert_double_gt(hr.cost, 10.0);
    free(hr.cells);
    ap_query q = {.map = m, .sx = 15.5, .sy = 7.5, .gx = 16.5, .gy = 7.5, .connectivity = 8,
                  .smoothing = AP_SMOOTH_NONE, .algorithm = AP_ALG_HIERARCHICAL};
    ap_plan p;
    ck_assert_int_eq(ap_plan_begin(&p, &q, &ws, 0), AP_OK);
    ck_assert_ptr_eq(p.kind, &ap_plan_kind_grid); /* A* answered in begin */
    ap_plan_release(&p);
    ap_result r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_OK);
    ck_assert_double_eq_tol(r.grid_cost, 1.0, 1e-12);
    ck_assert_uint_lt(r.expanded, 16);
    ap_result_free(&r);
    /* 135 tiles across and 33 down (octile 148.7, over 128): the graph's path, its refined cost */
    q.sx = 2.5, q.sy = 7.5, q.gx = 137.5, q.gy = 40.5;
    ck_assert_int_eq(ap_plan_begin(&p, &q, &ws, 0), AP_OK);
    ck_assert_ptr_eq(p.kind, &ap_plan_kind_hier);
    ap_plan_release(&p);
    ck_assert_int_eq(ap_hier_path(m, h, 0, ap_map_index(m, 2, 7), ap_map_index(m, 137, 40), &ws, 0, &hr), AP_OK);
    r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_OK);
    ck_assert_double_eq_tol(r.grid_cost, hr.cost, 1e-9);
    free(hr.cells);
    ap_result_free(&r);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* A disc's off-centre end beside a pocket (test_plan.c's off_centre_start_beside_a_pocket, in the corner of an
 * open 200 x 200 map): the cell the start takes leads nowhere, so the graph finds no abstract path and the
 * whole-map A* floods, then the other cells serving the start are tried (plan_grid.c other_ends). That A*
 * flood already reached whole components: it is the astar row's, not a jump point search to flood again
 * (a helper: 84,486 expansions against astar's 41,199). */
START_TEST(pocket_end_floods_once)
{
    enum { MH = 200 };
    static const char *const pocket[] = {"@....@..", "........", "........", "@..@....", "........", "@......."};
    ap_map *m = open_map(200, MH, pocket, 6);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
    ap_query q = {.map = m, .sx = 1.5, .sy = MH - 3.5, .gx = 3.9, .gy = MH - 1.2, .connectivity = 8,
                  .smoothing = AP_SMOOTH_NONE, .algorithm = AP_ALG_ASTAR, .unit_radius = 0.5};
    ap_result ra = ap_test_run_plan(&q, &ws);
    q.algorithm = AP_ALG_HIERARCHICAL;
    ap_result rh = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(ra.status, AP_OK);
    ck_assert_int_eq(rh.status, AP_OK);
    ck_assert_double_eq_tol(ra.grid_cost, 1.0 + 4.0 * M_SQRT2, 1e-12);
    ck_assert_double_eq_tol(rh.grid_cost, ra.grid_cost, 1e-12);
    ck_assert_uint_gt(ra.expanded, 30000); /* the start's cell's component flooded, then the map's */
    /* A* first (at most 4,096), the graph's few, then A*'s own floods: not twice the map */
    ck_assert_msg(rh.expanded < ra.expanded + 8192, "hierarchical %llu, astar %llu expansions",
                  (unsigned long long)rh.expanded, (unsigned long long)ra.expanded);
    ap_result_free(&ra);
    ap_result_free(&rh);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

Suite *hier_suite(void)
{
    Suite *s = suite_create("hier");
    TCase *tc = tcase_create("scenarios");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, near_optimal_on_scenarios);
    tcase_add_test(tc, landmarks_keep_the_abstract_cost);
    tcase_add_test(tc, abstract_cost_is_the_graphs_optimum);
    tcase_add_test(tc, diagonal_crossings_in_the_graph);
    tcase_add_test(tc, landmarks_too_far_to_hold);
    tcase_add_test(tc, weighted_map);
    tcase_add_test(tc, auto_and_connectivity);
    tcase_add_test(tc, short_queries_take_astar_first);
    tcase_add_test(tc, pocket_end_floods_once);
    suite_add_tcase(s, tc);
    return s;
}
