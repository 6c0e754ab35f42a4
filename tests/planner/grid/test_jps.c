/* test_jps.c — Jump Point Search (online, block-based scans) and JPS+ (jump tables): optimal costs on
 * random maps (exactly A*'s; the Moving AI scenarios are test_scenarios.c's), the same status as A* on
 * unreachable / blocked / same-cell queries, forced neighbours without corner cutting, the JPS+ table
 * against a brute-force recomputation, full cell paths, time slicing and moving a plan between workspaces. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/grid/jps.h"
#include "../../../planner/plan/plan.h"
#include "../../util.h"
#include "../suites.h"

/* One point-unit query (ap_test_grid_cost at radius 0: every move legal without corner cutting). */
static int plan_cost(const ap_map *m, ap_workspace *ws, ap_algorithm alg, int sx, int sy, int gx, int gy,
                     uint64_t slice, double *cost)
{
    return ap_test_grid_cost(m, ws, alg, 0.0, sx, sy, gx, gy, slice, cost);
}

static const ap_algorithm JPS_ALGS[] = {AP_ALG_JPS, AP_ALG_JPS_PLUS};

/* A random map text: w x h, each cell blocked with probability pb. Caller frees. */
static char *random_map(ap_test_rng *rng, int w, int h, double pb)
{
    size_t cap = (size_t)(w + 1) * (size_t)h + 64;
    char *t = malloc(cap);
    int k = snprintf(t, cap, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++)
            t[k++] = ap_test_rand01(rng) < pb ? '@' : '.';
        t[k++] = '\n';
    }
    t[k] = '\0';
    return t;
}

START_TEST(random_maps_match_astar)
{
    ap_test_rng rng = {12345};
    int maps = ap_test_quick() ? 6 : 30, pairs = ap_test_quick() ? 20 : 60, found = 0;
    for (int i = 0; i < maps; i++) {
        /* widths over 64 and 128 make the block scans cross words; densities from open to maze-like */
        int w = 5 + (int)(ap_test_rand(&rng) % 150), h = 5 + (int)(ap_test_rand(&rng) % 90);
        double pb = 0.05 + 0.4 * ap_test_rand01(&rng);
        char *t = random_map(&rng, w, h, pb);
        ap_map *m = ap_test_map_from_string(t);
        found += ap_test_jps_agree(m, &rng, 0.0, pairs, 0);
        ap_map_free(m);
        free(t);
    }
    printf("jps: %d of %d random pairs with a path, equal costs\n", found, maps * pairs);
    ck_assert_int_gt(found, maps * pairs / 8); /* compared, not only refused alike (the denser maps refuse most) */
}
END_TEST

/* Forced neighbours without corner cutting, on hand-made maps: exact costs, equal to A*'s. */
START_TEST(forced_neighbours)
{
    /* Moving east along row 1, the cell north of (3,1) is free while the cell behind it, (2,0), is blocked:
     * (3,1) is a jump point whose forced neighbour (3,0) leads to the goal. Corner cutting would go
     * (2,1)->(3,0) diagonally; it is illegal here. */
    static const char *a = "type octile\nheight 3\nwidth 8\nmap\n"
                           "@@@.....\n"
                           "........\n"
                           "@@@@@@@@\n";
    ap_map *m = ap_test_map_from_string(a);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    for (size_t k = 0; k < 2; k++) {
        double c = -1;
        ck_assert_int_eq(plan_cost(m, &ws, JPS_ALGS[k], 0, 1, 7, 0, 0, &c), AP_OK);
        ck_assert_double_eq_tol(c, 6.0 + M_SQRT2, 1e-12); /* east 6, one diagonal up: (3,1)->...->(6,1)->(7,0) */
        ck_assert_int_eq(plan_cost(m, &ws, JPS_ALGS[k], 0, 1, 3, 0, 0, &c), AP_OK);
        ck_assert_double_eq_tol(c, 4.0, 1e-12); /* (2,1)->(3,0) would cut the corner of (2,0) */
    }
    ap_workspace_free(&ws);
    ap_map_free(m);

    /* A pillar field: every diagonal needs both sides free, so paths zig-zag; JPS must match A* exactly
     * from every start to every goal. */
    static const char *b = "type octile\nheight 7\nwidth 9\nmap\n"
                           ".........\n"
                           ".@.@.@.@.\n"
                           ".........\n"
                           ".@@@.@@@.\n"
                           "...@.@...\n"
                           ".@.@...@.\n"
                           ".@.......\n";
    m = ap_test_map_from_string(b);
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    int checked = 0;
    for (int sy = 0; sy < m->height; sy++)
        for (int sx = 0; sx < m->width; sx++)
            for (int gy = 0; gy < m->height; gy++)
                for (int gx = 0; gx < m->width; gx++) {
                    if (!ap_map_passable(m, sx, sy) || !ap_map_passable(m, gx, gy))
                        continue;
                    double ca = -1;
                    int sa = plan_cost(m, &ws, AP_ALG_ASTAR, sx, sy, gx, gy, 0, &ca);
                    for (size_t k = 0; k < 2; k++) {
                        double c = -1;
                        int sj = plan_cost(m, &ws, JPS_ALGS[k], sx, sy, gx, gy, 0, &c);
                        AP_EXPECT(sj == sa, "(%d,%d)->(%d,%d): status %d, A* %d", sx, sy, gx, gy, sj, sa);
                        if (sa == AP_OK)
                            AP_EXPECT_NEAR(c, ca, 1e-9);
                    }
                    checked++;
                }
    ck_assert_int_gt(checked, 1000);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* Same status as A* when there is nothing to search: other region, blocked start/goal, out of bounds, same
 * cell. */
START_TEST(status_like_astar)
{
    static const char *t = "type octile\nheight 5\nwidth 9\nmap\n"
                           "....@....\n"
                           "....@....\n"
                           "....@..@.\n"
                           "....@....\n"
                           "....@....\n";
    ap_map *m = ap_test_map_from_string(t);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    const int cases[][4] = {{0, 0, 8, 4}, {4, 0, 0, 0}, {0, 0, 4, 2}, {7, 2, 0, 0}, {1, 1, 1, 1}, {0, 0, 9, 0},
                            {-1, 0, 0, 0}, {2, 2, 3, 3}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int *c = cases[i];
        ap_query q = {.map = m, .sx = c[0] + 0.5, .sy = c[1] + 0.5, .gx = c[2] + 0.5, .gy = c[3] + 0.5,
                      .connectivity = 8, .smoothing = AP_SMOOTH_NONE};
        ap_plan pa;
        int sa = ap_plan_begin(&pa, &q, &ws, 0);
        const char *fa = pa.field;
        for (size_t k = 0; k < 2; k++) {
            q.algorithm = JPS_ALGS[k];
            ap_plan pj;
            int sj = ap_plan_begin(&pj, &q, &ws, 0);
            ck_assert_int_eq(sj, sa);
            ck_assert(pj.region_pruned == pa.region_pruned);
            ck_assert((fa == NULL && pj.field == NULL) || (fa != NULL && pj.field != NULL && strcmp(fa, pj.field) == 0));
            if (sj == AP_IN_PROGRESS)
                sj = ap_plan_step(&pj, 0);
            ap_result r;
            ap_plan_finish(&pj, &r);
            ck_assert_int_eq(r.status, sj); /* the plan's last state is its answer's status */
            if (i == 0)
                ck_assert(r.status == AP_NO_PATH && r.region_pruned);
            if (i == 4) {
                ck_assert_int_eq(r.status, AP_OK);
                ck_assert_double_eq(r.grid_cost, 0.0);
            }
            ap_result_free(&r);
        }
    }
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* Algorithm selection: jps needs 8-connectivity; auto picks jps_plus for 8, A* for 4. */
START_TEST(algorithm_validity)
{
    static const char *t = "type octile\nheight 3\nwidth 3\nmap\n...\n...\n...\n";
    ap_map *m = ap_test_map_from_string(t);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    ap_query q = {.map = m, .sx = 0.5, .sy = 0.5, .gx = 2.5, .gy = 1.5, .connectivity = 4};
    const char *field;
    for (size_t k = 0; k < 2; k++) {
        q.algorithm = JPS_ALGS[k];
        ck_assert_int_eq(ap_query_check(&q, &field), AP_E_INVALID_REQUEST);
        ck_assert_str_eq(field, "search.algorithm");
    }
    ap_plan p;
    q.algorithm = AP_ALG_AUTO;
    ck_assert_int_eq(ap_plan_begin(&p, &q, &ws, 0), AP_IN_PROGRESS);
    ck_assert_int_eq(p.alg, AP_ALG_ASTAR);
    ck_assert_int_eq(ap_plan_step(&p, 0), AP_OK);
    ck_assert_double_eq_tol(p.search.cost, 3.0, 1e-12);
    q.connectivity = 8;
    ck_assert_int_eq(ap_plan_begin(&p, &q, &ws, 0), AP_IN_PROGRESS);
    ck_assert_int_eq(p.alg, AP_ALG_JPS_PLUS);
    ck_assert_int_eq(ap_plan_step(&p, 0), AP_OK);
    ck_assert_double_eq_tol(p.search.cost, 1.0 + M_SQRT2, 1e-12);
    q.algorithm = AP_ALG_DIRECTIONAL8; /* not implemented in this change: still rejected */
    ck_assert_int_eq(ap_query_check(&q, &field), AP_E_INVALID_REQUEST);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* Brute force: the jump distance of cell c in direction d by walking, straight from the definitions. */
static const int BX[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int BY[8] = {-1, -1, 0, 1, 1, 1, 0, -1};

static bool free_cell(const ap_map *m, int x, int y)
{
    return ap_map_passable(m, x, y);
}

static bool forced_at(const ap_map *m, int x, int y, int d)
{
    /* entered (x, y) moving straight in d: a side cell free whose cell behind is blocked */
    int sx = -BY[d], sy = BX[d]; /* one side; the other is its negative */
    for (int side = -1; side <= 1; side += 2)
        if (free_cell(m, x + side * sx, y + side * sy) && !free_cell(m, x - BX[d] + side * sx, y - BY[d] + side * sy))
            return true;
    return false;
}

static int brute(const ap_map *m, int x, int y, int d);

static int brute_straight_found(const ap_map *m, int x, int y, int d)
{
    return brute(m, x, y, d) > 0;
}

static int brute(const ap_map *m, int x, int y, int d)
{
    int k = 0;
    for (;;) {
        int nx = x + BX[d], ny = y + BY[d];
        bool legal = free_cell(m, nx, ny) && (!(d & 1) || (free_cell(m, nx, y) && free_cell(m, x, ny)));
        if (!legal)
            return -k;
        k++;
        x = nx;
        y = ny;
        if (!(d & 1) && forced_at(m, x, y, d))
            return k;
        if ((d & 1) && (brute_straight_found(m, x, y, (d + 7) & 7) || brute_straight_found(m, x, y, (d + 1) & 7)))
            return k;
    }
}

START_TEST(jps_plus_table_brute_force)
{
    ap_test_rng rng = {777};
    int maps = ap_test_quick() ? 10 : 60;
    for (int i = 0; i < maps; i++) {
        int w = 1 + (int)(ap_test_rand(&rng) % 40), h = 1 + (int)(ap_test_rand(&rng) % 30);
        char *t = random_map(&rng, w, h, 0.1 + 0.4 * ap_test_rand01(&rng));
        ap_map *m = ap_test_map_from_string(t);
        const ap_jps_table *tab = ap_jps_table_of(m);
        ck_assert_ptr_nonnull(tab);
        ck_assert_uint_eq(tab->cells, ap_map_node_count(m));
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                if (!free_cell(m, x, y))
                    continue;
                for (int d = 0; d < 8; d++) {
                    int want = brute(m, x, y, d);
                    int got = tab->dist[(size_t)ap_map_index(m, x, y) * 8 + (size_t)d];
                    AP_EXPECT(got == want, "map %d (%dx%d) cell (%d,%d) dir %d: table %d, brute force %d", i, w,
                                  h, x, y, d, got, want);
                    if (tab->dist8 != NULL) {
                        int got8 = tab->dist8[(size_t)ap_map_index(m, x, y) * 8 + (size_t)d];
                        int want8 = want >= -127 && want <= 127 ? want : AP_JPS_FAR8;
                        AP_EXPECT(got8 == want8, "cell (%d,%d) dir %d: byte %d, expected %d", x, y, d, got8, want8);
                    }
                }
                /* the forced-neighbour byte: bit d for the side at d+2, bit d+1 for the side at d+6 */
                unsigned fwant = 0;
                for (int d = 0; d < 8; d += 2) {
                    int sx = -BY[d], sy = BX[d];
                    if (free_cell(m, x + sx, y + sy) && !free_cell(m, x - BX[d] + sx, y - BY[d] + sy))
                        fwant |= 1u << d;
                    if (free_cell(m, x - sx, y - sy) && !free_cell(m, x - BX[d] - sx, y - BY[d] - sy))
                        fwant |= 1u << (d + 1);
                }
                unsigned fgot = tab->forced[ap_map_index(m, x, y)];
                AP_EXPECT(fgot == fwant, "map %d cell (%d,%d): forced byte %#x, brute force %#x", i, x, y, fgot,
                              fwant);
            }
        ap_map_free(m);
        free(t);
    }
}
END_TEST

/* Budget 1 per slice (and a move to another workspace half-way) gives the same costs. */
START_TEST(time_slicing)
{
    ap_test_rng rng = {99};
    char *t = random_map(&rng, 120, 80, 0.25);
    ap_map *m = ap_test_map_from_string(t);
    const int pairs = ap_test_quick() ? 10 : 40;
    ck_assert_int_gt(ap_test_jps_agree(m, &rng, 0.0, pairs, 1), pairs / 4); /* compared, not only refused alike */

    ap_workspace fast, slow;
    ck_assert_int_eq(ap_workspace_init(&fast, ap_map_node_count(m), 8), AP_OK);
    ck_assert_int_eq(ap_workspace_init(&slow, ap_map_node_count(m), 8), AP_OK);
    int moved = 0;
    for (int i = 0; i < 40; i++) {
        int sx = (int)(ap_test_rand(&rng) % 120), sy = (int)(ap_test_rand(&rng) % 80);
        int gx = (int)(ap_test_rand(&rng) % 120), gy = (int)(ap_test_rand(&rng) % 80);
        double ca = -1;
        int sa = plan_cost(m, &fast, AP_ALG_ASTAR, sx, sy, gx, gy, 0, &ca);
        for (size_t k = 0; k < 2; k++) {
            ap_query q = {.map = m, .sx = sx + 0.5, .sy = sy + 0.5, .gx = gx + 0.5, .gy = gy + 0.5,
                          .algorithm = JPS_ALGS[k], .connectivity = 8, .smoothing = AP_SMOOTH_NONE};
            ap_plan p;
            int st = ap_plan_begin(&p, &q, &fast, 0);
            if (st == AP_IN_PROGRESS)
                st = ap_plan_step(&p, 2);
            if (st == AP_IN_PROGRESS) {
                moved++;
                st = ap_plan_move(&p, &slow);
                /* another search on the fast matrix between slices: the moved plan must not notice */
                double other;
                plan_cost(m, &fast, AP_ALG_ASTAR, gx, gy, sx, sy, 0, &other);
                while (st == AP_IN_PROGRESS)
                    st = ap_plan_step(&p, 1);
            }
            ck_assert_int_eq(st, sa);
            ap_result r;
            ap_plan_finish(&p, &r);
            if (st == AP_OK)
                ck_assert_double_eq_tol(r.grid_cost, ca, 1e-9);
            ap_result_free(&r);
        }
    }
    ck_assert_int_gt(moved, 0);
    ap_workspace_free(&fast);
    ap_workspace_free(&slow);
    ap_map_free(m);
    free(t);
}
END_TEST

/* ap_jps_expand_path fills the cells between jump points (a pair off a line: diagonal first, then straight,
 * the leg of a pruned intermediate jump point) and refuses a repeated point. */
START_TEST(expand_path)
{
    ap_map *m = ap_test_map_from_string("type octile\nheight 6\nwidth 6\nmap\n......\n......\n......\n......\n......\n"
                                        "......\n");
    uint32_t jp[3] = {ap_map_index(m, 0, 0), ap_map_index(m, 3, 3), ap_map_index(m, 3, 5)};
    uint32_t out[16];
    ck_assert_uint_eq(ap_jps_expand_path(m, jp, 3, NULL, 0), 6);
    ck_assert_uint_eq(ap_jps_expand_path(m, jp, 3, out, 16), 6);
    ck_assert_uint_eq(out[1], ap_map_index(m, 1, 1));
    ck_assert_uint_eq(out[3], ap_map_index(m, 3, 3));
    ck_assert_uint_eq(out[5], ap_map_index(m, 3, 5));
    uint32_t bent[2] = {ap_map_index(m, 0, 0), ap_map_index(m, 1, 3)};
    ck_assert_uint_eq(ap_jps_expand_path(m, bent, 2, out, 16), 4);
    ck_assert_uint_eq(out[1], ap_map_index(m, 1, 1));
    ck_assert_uint_eq(out[2], ap_map_index(m, 1, 2));
    ck_assert_uint_eq(out[3], ap_map_index(m, 1, 3));
    uint32_t bad[2] = {ap_map_index(m, 2, 2), ap_map_index(m, 2, 2)};
    ck_assert_uint_eq(ap_jps_expand_path(m, bad, 2, out, 16), 0);
    ap_map_free(m);
}
END_TEST

/* JPS+ expansions (start, then whatever comes before the goal's pop) and cost of one point-unit query. */
static uint64_t jps_plus_expansions(const ap_map *m, ap_workspace *ws, int sx, int sy, int gx, int gy, double *cost)
{
    ap_query q = {.map = m, .sx = sx + 0.5, .sy = sy + 0.5, .gx = gx + 0.5, .gy = gy + 0.5,
                  .algorithm = AP_ALG_JPS_PLUS, .connectivity = 8, .smoothing = AP_SMOOTH_NONE};
    ap_plan p;
    int st = ap_plan_begin(&p, &q, ws, 0);
    while (st == AP_IN_PROGRESS)
        st = ap_plan_step(&p, 0);
    ck_assert_int_eq(st, AP_OK);
    const uint64_t e = ap_plan_expanded(&p);
    ap_result r;
    ck_assert_int_eq(ap_plan_finish(&p, &r), AP_OK);
    *cost = r.grid_cost;
    ap_result_free(&r);
    return e;
}

/* A goal in sight of the start's diagonal (diagonal to the goal's row or column, then straight to it) is
 * generated by the start's expansion itself: the target where the diagonal meets the goal's row or column
 * is expanded in place, as a pruned diagonal jump point is, so the search expands the start and pops the
 * goal (2). Were the target generated as a node, it would be expanded too (3). And among the new successors
 * whose f equals the expanded node's, the deeper one is expanded next (the held node), as the open list's
 * order would pop it: in the second map the straight jump point west of the start, (12, 5), comes first
 * with the same f as the goal (it lies on an optimal path too); holding it cost one more expansion. */
START_TEST(goal_in_sight_of_a_diagonal)
{
    char cells[10 * 20];
    memset(cells, '.', sizeof cells);
    ap_map *open = ap_test_map_from_cells(cells, 20, 20, 10);
    cells[6 * 20 + 13] = '@';
    ap_map *jog = ap_test_map_from_cells(cells, 20, 20, 10);
    ck_assert(!ap_map_passable(jog, 13, 6) && ap_map_passable(jog, 13, 5));
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(open), 8), AP_OK);
    double c;
    /* 4 diagonal steps south-east, then 10 east; and 4 south-east, then 2 south */
    ck_assert_uint_eq(jps_plus_expansions(open, &ws, 2, 2, 16, 6, &c), 2);
    ck_assert_double_eq_tol(c, 10.0 + 4.0 * M_SQRT2, 1e-12);
    ck_assert_uint_eq(jps_plus_expansions(open, &ws, 2, 2, 6, 10 - 2, &c), 2);
    ck_assert_double_eq_tol(c, 2.0 + 4.0 * M_SQRT2, 1e-12);
    /* and back, north-west then west: the blocked (13, 6) makes (12, 5) a jump point west of the start */
    ck_assert_uint_eq(jps_plus_expansions(open, &ws, 16, 6, 2, 2, &c), 2);
    ck_assert_double_eq_tol(c, 10.0 + 4.0 * M_SQRT2, 1e-12);
    ck_assert_uint_eq(jps_plus_expansions(jog, &ws, 15, 5, 5, 3, &c), 2);
    ck_assert_double_eq_tol(c, 8.0 + 2.0 * M_SQRT2, 1e-12);
    ap_workspace_free(&ws);
    ap_map_free(open);
    ap_map_free(jog);
}
END_TEST

Suite *jps_suite(void)
{
    Suite *s = suite_create("jps");
    TCase *tc = tcase_create("jps");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, forced_neighbours);
    tcase_add_test(tc, status_like_astar);
    tcase_add_test(tc, algorithm_validity);
    tcase_add_test(tc, jps_plus_table_brute_force);
    tcase_add_test(tc, random_maps_match_astar);
    tcase_add_test(tc, time_slicing);
    tcase_add_test(tc, expand_path);
    tcase_add_test(tc, goal_in_sight_of_a_diagonal);
    suite_add_tcase(s, tc);
    return s;
}
