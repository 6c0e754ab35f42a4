/* test_tables.c — the optional per-map tables left out at load (ap_map_opts.skip_tables and skips, tables.h
 * ap_table_kind_skip_bit): which names have a bit, that a map loaded without them has no such slot (nor
 * after a tile update), and that every algorithm and unit answers on it as on the map with every table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/plan/plan.h"
#include "../../../planner/world/patch.h"
#include "../../../planner/world/tables.h"
#include "../suites.h"

static const char *const OPTIONAL[] = {"jps_plus", "jps_bits", "jps_sized", "any_angle", "hier"};
enum { N_OPTIONAL = sizeof OPTIONAL / sizeof OPTIONAL[0] };

/* Every optional kind has its own bit; required kinds, slot names with a capability and unknown names none. */
START_TEST(skip_bits_name_the_optional_kinds)
{
    uint32_t all = 0;
    for (size_t i = 0; i < N_OPTIONAL; i++) {
        const uint32_t b = ap_table_kind_skip_bit(OPTIONAL[i]);
        ck_assert_msg(b != 0 && (b & (b - 1)) == 0, "%s: bit %#x", OPTIONAL[i], b);
        ck_assert_msg((all & b) == 0, "%s shares a bit", OPTIONAL[i]);
        all |= b;
    }
    /* clearance is optional (a map loads without it when its build fails) but not skippable: square units
     * are refused without it */
    static const char *const none[] = {"region", "view", "region:<capability>", "clearance", "clearance:ground+swamp",
                                       "any_angl", "any_angle ", "", "hierarchical"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        ck_assert_msg(ap_table_kind_skip_bit(none[i]) == 0, "\"%s\" has a bit", none[i]);
}
END_TEST

/* The slot of m whose name is `name` or starts with "name:" (a per-capability kind's). */
static bool has_slot(const ap_map *m, const char *name)
{
    const size_t n = strlen(name);
    for (int i = 0; i < m->n_tables; i++)
        if (strncmp(m->tables[i].name, name, n) == 0 && (m->tables[i].name[n] == '\0' || m->tables[i].name[n] == ':'))
            return true;
    return false;
}

static ap_map *load(const char *name, uint32_t skip)
{
    char path[256];
    snprintf(path, sizeof path, "config/maps/%s.map", name);
    ap_map_opts opts = {.skip_tables = skip};
    ap_map *m = NULL;
    ap_diag d;
    ck_assert_msg(ap_map_load(path, &opts, &m, &d) == AP_OK, "%s: %s", path, d.msg);
    return m;
}

/* Two pseudo-random passable cells of m from seed: (sx, sy) and (gx, gy). */
static void free_pair(const ap_map *m, ap_test_rng *seed, int *sx, int *sy, int *gx, int *gy)
{
    do {
        *sx = (int)(ap_test_rand(seed) % (uint32_t)m->width);
        *sy = (int)(ap_test_rand(seed) % (uint32_t)m->height);
        *gx = (int)(ap_test_rand(seed) % (uint32_t)m->width);
        *gy = (int)(ap_test_rand(seed) % (uint32_t)m->height);
    } while (!ap_map_passable(m, *sx, *sy) || !ap_map_passable(m, *gx, *gy));
}

/* Status and, when ok, length and grid cost of q on m. */
static int answer(const ap_map *m, ap_query q, double *length, double *grid_cost)
{
    q.map = m;
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
    ap_plan p;
    int st = ap_plan_begin(&p, &q, &ws, 0);
    for (int i = 0; st == AP_IN_PROGRESS && i < 1000000; i++)
        st = ap_plan_step(&p, 0);
    ap_result r;
    ap_plan_finish(&p, &r);
    *length = r.length;
    *grid_cost = r.grid_cost;
    ap_result_free(&r);
    ap_workspace_free(&ws);
    return st;
}

/* Maps loaded with every skippable table and with none: no slot of a skipped kind (the region and clearance
 * tables are still there), and the same answers from A*, JPS+, HAA*, any_angle and auto for a point, a disc
 * of radius 0.7 and a 2 x 2 square, between pseudo-random free cells of arena, rooms and maze: the same
 * status, and the same optimal cost to 1e-9 (any_angle's length; HAA*'s and auto's no dearer; auto with
 * smoothing, JPS+'s smoothed path instead of the exact one: the status only). */
START_TEST(skipped_tables_same_answers)
{
    uint32_t skip = 0;
    for (size_t i = 0; i < N_OPTIONAL; i++)
        skip |= ap_table_kind_skip_bit(OPTIONAL[i]);
    static const char *const maps[] = {"arena", "rooms", "maze"};
    /* (auto smoothed last: with the any_angle table it answers long queries with the exact path) */
    static const ap_algorithm algs[] = {AP_ALG_ASTAR, AP_ALG_JPS_PLUS, AP_ALG_HIERARCHICAL, AP_ALG_ANY_ANGLE,
                                        AP_ALG_AUTO, AP_ALG_AUTO};
    const size_t auto_taut = sizeof algs / sizeof algs[0] - 1;
    static const struct {
        double radius;
        int size;
    } units[] = {{0.0, 0}, {0.7, 0}, {0.0, 2}};
    ap_test_rng seed = {12345};
    size_t compared = 0, ok = 0;
    for (size_t k = 0; k < sizeof maps / sizeof maps[0]; k++) {
        ap_map *full = load(maps[k], 0), *bare = load(maps[k], skip);
        for (size_t i = 0; i < N_OPTIONAL; i++)
            ck_assert_msg(!has_slot(bare, OPTIONAL[i]), "%s: slot %s built", maps[k], OPTIONAL[i]);
        ck_assert(has_slot(full, "jps_plus") && has_slot(full, "any_angle") && has_slot(full, "hier"));
        ck_assert(has_slot(full, "clearance") && has_slot(bare, "clearance"));
        ck_assert(has_slot(bare, "region") && bare->region != NULL);
        for (int n = 0; n < 12; n++) {
            int sx, sy, gx, gy;
            free_pair(full, &seed, &sx, &sy, &gx, &gy);
            double opt[sizeof units / sizeof units[0]]; /* A*'s cost per unit (algs[0]): the optimum */
            for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++)
                for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
                    ap_query q = {.sx = sx + 0.5, .sy = sy + 0.5, .gx = gx + 0.5, .gy = gy + 0.5,
                                  .connectivity = 8, .smoothing = a == auto_taut ? AP_SMOOTH_TAUT : AP_SMOOTH_NONE,
                                  .algorithm = algs[a],
                                  .unit_radius = units[u].radius, .unit_size = units[u].size};
                    double lf = NAN, cf = NAN, lb = NAN, cb = NAN;
                    const int sf = answer(full, q, &lf, &cf), sb = answer(bare, q, &lb, &cb);
                    ck_assert_msg(sf == sb, "%s (%d,%d)->(%d,%d) alg %d unit %zu: %s with every table, %s without",
                                  maps[k], sx, sy, gx, gy, (int)algs[a], u, ap_status_name(sf), ap_status_name(sb));
                    compared++;
                    if (a == 0)
                        opt[u] = cb;
                    if (sf != AP_OK)
                        continue;
                    ok++;
                    /* any_angle: the same shortest length; hierarchical (and auto, which may choose it)
                     * searches the grid with A* without its graph: the optimum (A*'s cost), no dearer than
                     * HAA*'s; the others the same optimal grid cost (among equal-cost paths another may be
                     * chosen) */
                    const bool same = algs[a] == AP_ALG_ANY_ANGLE ? fabs(lf - lb) <= 1e-9
                                      /* smoothed: the exact path or JPS+'s, smoothed from whichever
                                       * optimal grid path JPS or JPS+ found: the status only */
                                      : a == auto_taut ? true
                                      : algs[a] == AP_ALG_HIERARCHICAL || algs[a] == AP_ALG_AUTO
                                          ? cb <= cf + 1e-9 && fabs(cb - opt[u]) <= 1e-9
                                          : fabs(cf - cb) <= 1e-9;
                    ck_assert_msg(same, "%s (%d,%d)->(%d,%d) alg %d unit %zu: length %.12f / %.12f, cost %.12f / %.12f",
                                  maps[k], sx, sy, gx, gy, (int)algs[a], u, lf, lb, cf, cb);
                }
        }
        ap_map_free(full);
        ap_map_free(bare);
    }
    ck_assert_uint_gt(ok, compared / 2); /* mostly found paths, not only equal refusals */
}
END_TEST

/* A tile update of a map loaded without a table builds none either (ap_map.skip_tables is kept). */
START_TEST(tile_update_keeps_the_skip)
{
    const uint32_t skip = ap_table_kind_skip_bit("any_angle") | ap_table_kind_skip_bit("hier");
    ap_map *m = load("arena", skip);
    ck_assert(!has_slot(m, "any_angle") && !has_slot(m, "hier") && has_slot(m, "jps_plus"));
    int x = 0, y = m->height / 2;
    while (x < m->width && !ap_map_passable(m, x, y))
        x++;
    ck_assert_int_lt(x, m->width);
    ap_cell_edit e = {.x = x, .y = y, .terrain = '@'};
    ap_map *u = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_patch(m, &e, 1, &u, &d), AP_OK);
    ck_assert(!has_slot(u, "any_angle") && !has_slot(u, "hier") && has_slot(u, "jps_plus"));
    ck_assert_uint_eq(u->skip_tables, skip);
    ap_map_free(u);
    ap_map_free(m);
}
END_TEST

/* auto for a point unit on a map whose any_angle table the config left out: JPS+ with taut smoothing at every
 * distance (as below 128 tiles with the table), whatever smoothing was asked for but none, not the asked
 * one's longer answer (Listing 1 was a third longer on maze512-1-0); a disc keeps the smoothing asked for. */
START_TEST(auto_without_any_angle_pulls_taut)
{
    ap_map *m = load("maze", ap_table_kind_skip_bit("any_angle"));
    ck_assert(!has_slot(m, "any_angle"));
    ap_test_rng seed = {777};
    int shorter = 0;
    for (int n = 0; n < 40; n++) {
        int sx, sy, gx, gy;
        free_pair(m, &seed, &sx, &sy, &gx, &gy);
        ap_query q = {.sx = sx + 0.5, .sy = sy + 0.5, .gx = gx + 0.5, .gy = gy + 0.5, .connectivity = 8};
        double la, ca, lt, ct, ll, cl, ln, cn;
        q.algorithm = AP_ALG_AUTO;
        q.smoothing = AP_SMOOTH_LOS;
        const int sa = answer(m, q, &la, &ca);
        q.algorithm = AP_ALG_JPS_PLUS;
        q.smoothing = AP_SMOOTH_TAUT;
        const int st = answer(m, q, &lt, &ct);
        q.smoothing = AP_SMOOTH_LOS;
        const int sl = answer(m, q, &ll, &cl);
        ck_assert_int_eq(sa, st);
        ck_assert_int_eq(sa, sl);
        if (sa != AP_OK)
            continue;
        ck_assert_msg(la == lt, "(%d,%d)->(%d,%d): auto %.12f, JPS+ taut %.12f", sx, sy, gx, gy, la, lt);
        shorter += lt < ll - 1e-9;
        q.algorithm = AP_ALG_AUTO;
        q.smoothing = AP_SMOOTH_NONE; /* the cell path, as asked */
        ck_assert_int_eq(answer(m, q, &ln, &cn), AP_OK);
        ck_assert_double_eq_tol(ln, cn, 1e-9);
        ck_assert_double_eq_tol(cn, ct, 1e-9);
    }
    ck_assert_int_ge(shorter, 10); /* taut, not Listing 1's answer */
    /* a disc: JPS+ (or A*) with the smoothing asked for, as with the table below 128 tiles */
    int discs = 0;
    for (int n = 0; n < 40; n++) {
        const int sx = 1 + (int)(ap_test_rand(&seed) % (uint32_t)(m->width - 2)),
                  sy = 1 + (int)(ap_test_rand(&seed) % (uint32_t)(m->height - 2)),
                  gx = 1 + (int)(ap_test_rand(&seed) % (uint32_t)(m->width - 2)),
                  gy = 1 + (int)(ap_test_rand(&seed) % (uint32_t)(m->height - 2));
        ap_query q = {.sx = sx + 0.5, .sy = sy + 0.5, .gx = gx + 0.5, .gy = gy + 0.5, .connectivity = 8,
                      .unit_radius = 0.3, .smoothing = AP_SMOOTH_LOS, .algorithm = AP_ALG_AUTO};
        double la, ca, ll, cl;
        const int sa = answer(m, q, &la, &ca);
        q.algorithm = AP_ALG_JPS_PLUS;
        ck_assert_int_eq(answer(m, q, &ll, &cl), sa);
        if (sa != AP_OK)
            continue;
        ck_assert_msg(la == ll, "disc (%d,%d)->(%d,%d): auto %.12f, JPS+ los %.12f", sx, sy, gx, gy, la, ll);
        discs++;
    }
    ck_assert_int_ge(discs, 5);
    ap_map_free(m);
}
END_TEST

/* The same on a map beyond the point table's limits (random512-10-0: more convex corners than the table
 * holds, so no any_angle table at all, without any skip_tables): auto's point answers are JPS+ with taut. */
START_TEST(auto_beyond_the_table_pulls_taut)
{
    ap_map *m = ap_test_data_map("random512-10-0", "tables: auto beyond the point table's limits");
    if (m == NULL)
        return;
    ck_assert_msg(!has_slot(m, "any_angle"), "random512-10-0 has an any_angle table: pick a map beyond its limits");
    ap_test_rng seed = {4242};
    int shorter = 0, found = 0;
    for (int n = 0; n < 12; n++) {
        int sx, sy, gx, gy;
        free_pair(m, &seed, &sx, &sy, &gx, &gy);
        ap_query q = {.sx = sx + 0.5, .sy = sy + 0.5, .gx = gx + 0.5, .gy = gy + 0.5, .connectivity = 8,
                      .algorithm = AP_ALG_AUTO, .smoothing = AP_SMOOTH_LOS};
        double la, ca, lt, ct, ll, cl;
        const int sa = answer(m, q, &la, &ca);
        q.algorithm = AP_ALG_JPS_PLUS;
        q.smoothing = AP_SMOOTH_TAUT;
        ck_assert_int_eq(answer(m, q, &lt, &ct), sa);
        q.smoothing = AP_SMOOTH_LOS;
        ck_assert_int_eq(answer(m, q, &ll, &cl), sa);
        if (sa != AP_OK)
            continue;
        found++;
        ck_assert_msg(la == lt, "(%d,%d)->(%d,%d): auto %.12f, JPS+ taut %.12f", sx, sy, gx, gy, la, lt);
        shorter += lt < ll - 1e-9;
    }
    ck_assert_int_ge(found, 8);
    ck_assert_int_ge(shorter, 4); /* taut, not Listing 1's answer */
    ap_map_free(m);
}
END_TEST

/* Per-map entries (ap_map_opts.skips): a map's own entry replaces skip_tables for it, "*" stands for the
 * maps without one, and skip_tables for the rest when there is no "*". */
START_TEST(per_map_entries_pick_the_tables)
{
    const uint32_t aa = ap_table_kind_skip_bit("any_angle"), hier = ap_table_kind_skip_bit("hier");
    const ap_map_skip own[] = {{.map_id = "arena", .tables = hier}, {.map_id = "rooms", .tables = 0}};
    ap_map_opts opts = {.skip_tables = aa, .skips = own, .n_skips = 2};
    static const struct {
        const char *map;
        bool any_angle, hier;
    } want[] = {{"arena", true, false}, {"rooms", true, true}, {"maze", false, true}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "config/maps/%s.map", want[i].map);
        ap_map *m = NULL;
        ap_diag d;
        ck_assert_msg(ap_map_load(path, &opts, &m, &d) == AP_OK, "%s: %s", path, d.msg);
        ck_assert_msg(has_slot(m, "any_angle") == want[i].any_angle && has_slot(m, "hier") == want[i].hier &&
                          has_slot(m, "jps_plus"),
                      "%s", want[i].map);
        ap_map_free(m);
    }
    const ap_map_skip star[] = {{.map_id = "maze", .tables = aa | hier}, {.map_id = "*", .tables = hier}};
    opts = (ap_map_opts){.skip_tables = aa, .skips = star, .n_skips = 2};
    ck_assert_uint_eq(ap_map_skip_of(&opts, "maze"), aa | hier);
    ck_assert_uint_eq(ap_map_skip_of(&opts, "arena"), hier); /* "*", not skip_tables */
    ck_assert_uint_eq(ap_map_skip_of(NULL, "arena"), 0);
}
END_TEST

Suite *tables_suite(void)
{
    Suite *s = suite_create("tables");
    TCase *tc = tcase_create("skip");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, skip_bits_name_the_optional_kinds);
    tcase_add_test(tc, skipped_tables_same_answers);
    tcase_add_test(tc, tile_update_keeps_the_skip);
    tcase_add_test(tc, per_map_entries_pick_the_tables);
    tcase_add_test(tc, auto_without_any_angle_pulls_taut);
    tcase_add_test(tc, auto_beyond_the_table_pulls_taut);
    suite_add_tcase(s, tc);
    return s;
}
