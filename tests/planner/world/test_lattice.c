/* test_lattice.c — world/lattice.h: the obstacle-aware lattice bound is below the exact shortest free-space
 * path (the any_angle plan's length, an independent search) and exact on simple cases. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/plan/plan.h"
#include "../../../planner/world/lattice.h"
#include "../../util.h"
#include "../suites.h"

/* Lattice distances over the whole map of m from cell (gx, gy) (the map's outside blocked, as any_angle sees
 * it: no free border ring here, the region is the map). dist must hold (2 w + 1) (2 h + 1) floats. */
static void whole_map(const ap_map *m, int gx, int gy, float *dist)
{
    uint8_t *cfree = malloc((size_t)m->width * (size_t)m->height);
    for (int y = 0; y < m->height; y++)
        for (int x = 0; x < m->width; x++)
            cfree[y * m->width + x] = ap_map_passable(m, x, y) ? 1 : 0;
    ck_assert_int_eq(ap_lattice_distances(cfree, m->width, m->height, gx, gy, 0, dist), AP_OK);
    free(cfree);
}

static float at_centre(const ap_map *m, const float *dist, int x, int y)
{
    return dist[(2 * y + 1) * (2 * m->width + 1) + 2 * x + 1];
}

START_TEST(exact_cases)
{
    /* open 5 x 3: three cells along a row are six half steps; a diagonal neighbour is two half diagonals */
    ap_map *m = ap_test_map_from_string("type octile\nheight 3\nwidth 5\nmap\n.....\n.....\n.....\n");
    float dist[11 * 7];
    whole_map(m, 0, 1, dist);
    ck_assert_float_eq(at_centre(m, dist, 3, 1), 3.0f);
    ck_assert(fabsf(at_centre(m, dist, 1, 0) - (float)M_SQRT2) < 1e-6f);
    ck_assert(fabs(ap_lattice_bound(at_centre(m, dist, 3, 1)) - 3.0 / AP_LATTICE_OCTILE_RATIO) < 1e-5);
    ck_assert(ap_lattice_bound(INFINITY) >= 1e29);
    ap_map_free(m);
    /* a wall across the middle but for the top row: around it through the gap */
    m = ap_test_map_from_string("type octile\nheight 3\nwidth 3\nmap\n...\n.@.\n.@.\n");
    float d2[7 * 7];
    whole_map(m, 0, 2, d2);
    const float around = at_centre(m, d2, 2, 2);
    ck_assert(around > 3.0f); /* the straight 2 tiles are blocked */
    /* the shortest free-space path: to the corner (1, 1), across the gap to (2, 1), down: 1 + 2 hypot(.5, 1.5) */
    ck_assert(ap_lattice_bound(around) <= 1.0 + 2.0 * hypot(0.5, 1.5) + 1e-9);
    ck_assert(ap_lattice_bound(around) > 2.0); /* above the straight distance: the wall counts */
    /* a closed-off cell is unreached */
    ap_map_free(m);
    m = ap_test_map_from_string("type octile\nheight 3\nwidth 3\nmap\n.@.\n@@.\n...\n");
    whole_map(m, 2, 2, d2);
    ck_assert(isinf(at_centre(m, d2, 0, 0)));
    ap_map_free(m);
}
END_TEST

/* Random speckled maps: from random free cells, the bound is never above the exact shortest path of a point
 * (any_angle, smoothing none: the Euclidean shortest path), and often close to it. */
START_TEST(below_the_exact_shortest_path)
{
    ap_test_rng g = {20261125};
    int compared = 0, close = 0;
    for (int it = 0; it < (ap_test_quick() ? 6 : 20); it++) {
        const int w = 14 + (int)(ap_test_rand(&g) % 20), h = 14 + (int)(ap_test_rand(&g) % 20);
        ap_map *m = ap_test_speckled_map(&g, w, h, 0.25);
        int gx, gy;
        do {
            gx = (int)(ap_test_rand(&g) % (unsigned)w);
            gy = (int)(ap_test_rand(&g) % (unsigned)h);
        } while (!ap_map_passable(m, gx, gy));
        float *dist = malloc((size_t)(2 * w + 1) * (size_t)(2 * h + 1) * sizeof *dist);
        whole_map(m, gx, gy, dist);
        ap_workspace ws;
        ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
        for (int k = 0; k < 12; k++) {
            const int sx = (int)(ap_test_rand(&g) % (unsigned)w), sy = (int)(ap_test_rand(&g) % (unsigned)h);
            if (!ap_map_passable(m, sx, sy) || (sx == gx && sy == gy))
                continue;
            ap_query q = {.map = m, .sx = sx + 0.5, .sy = sy + 0.5, .gx = gx + 0.5, .gy = gy + 0.5,
                          .algorithm = AP_ALG_ANY_ANGLE, .connectivity = 8, .smoothing = AP_SMOOTH_NONE};
            ap_plan p;
            int st = ap_plan_begin(&p, &q, &ws, 0);
            while (st == AP_IN_PROGRESS)
                st = ap_plan_step(&p, 0);
            ap_result r;
            ap_plan_finish(&p, &r);
            const double bound = ap_lattice_bound(at_centre(m, dist, sx, sy));
            if (st == AP_OK) {
                compared++;
                ck_assert_msg(bound <= r.length + 1e-9, "map %d (%d,%d)->(%d,%d): bound %.9f > shortest %.9f", it, sx,
                              sy, gx, gy, bound, r.length);
                close += bound >= 0.9 * r.length;
            } else {
                ck_assert_int_eq(st, AP_NO_PATH);
            }
            ap_result_free(&r);
        }
        ap_workspace_free(&ws);
        free(dist);
        ap_map_free(m);
    }
    ck_assert_int_ge(compared, 30);
    ck_assert_int_ge(close, compared / 2);
}
END_TEST

Suite *lattice_suite(void)
{
    Suite *s = suite_create("lattice");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, exact_cases);
    tcase_add_test(tc, below_the_exact_shortest_path);
    suite_add_tcase(s, tc);
    return s;
}
