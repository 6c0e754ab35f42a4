/* test_visibility.c — the visibility scan (anyangle/visibility.c, ap_aa_vis_corners) against brute force
 * (ap_aa_grid_point_line_ok toward every corner) from many points (corners with and without their corner
 * rules, cell centres, vertices, points on grid lines, random points) on random small maps and on a sample of
 * a Moving AI map; and the point unit's eager table built with the scan equal, entry for entry, to the table
 * built by testing every pair (ap_aa_graph_precompute_with with the plain fill). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/anyangle/graph.h"
#include "../../../planner/anyangle/visibility.h"
#include "../../../planner/base/status.h"
#include "../../util.h"
#include "../suites.h"

/* A random w x h map (w, h <= 40) with about `blocked` blocked cells; some as 2 x 2 blocks and lines so
 * walls, diagonal squeezes and long edges all occur. */
static ap_map *vis_random_map(ap_test_rng *g, int w, int h, int blocked)
{
    char grid[40][40];
    memset(grid, '.', sizeof grid);
    for (int b = 0; b < blocked; b++) {
        int x = (int)(ap_test_rand(g) % (unsigned)w), y = (int)(ap_test_rand(g) % (unsigned)h);
        int kind = (int)(ap_test_rand(g) % 4);
        grid[y][x] = '@';
        if (kind == 1 && x + 1 < w && y + 1 < h)
            grid[y + 1][x + 1] = '@'; /* a diagonal pair */
        else if (kind == 2)
            for (int i = 0; i < 4 && x + i < w; i++)
                grid[y][x + i] = '@';
        else if (kind == 3)
            for (int i = 0; i < 4 && y + i < h; i++)
                grid[y + i][x] = '@';
    }
    return ap_test_map_from_cells(&grid[0][0], 40, w, h);
}

/* The quadrant rule of corner k for direction (dx, dy), as ap_aa_corner_ok. */
static bool quadrant_ok(const ap_aa_graph *g, int quad, double dx, double dy)
{
    if (quad < 0)
        return true;
    const double qx = (quad & 1) ? 1.0 : -1.0, qy = (quad & 2) ? 1.0 : -1.0;
    return !(dx * dy * qx * qy > 1e-12 * (dx * dx + dy * dy));
}

/* The scan from (px, py) returns every corner brute force accepts, in increasing order without repeats.
 * Adds to *seen the corners brute force accepts and to *extra those the scan returned beyond them. */
static void check_point(const ap_map *m, const ap_aa_graph *g, double px, double py, int quad, double *scratch,
                        uint32_t *out, uint8_t *mark, size_t *seen, size_t *extra)
{
    size_t n = ap_aa_vis_corners(g->vis, px, py, quad, scratch, out);
    ck_assert_uint_le(n, g->n);
    memset(mark, 0, g->n);
    for (size_t i = 0; i < n; i++) {
        AP_EXPECT(i == 0 || out[i] > out[i - 1], "scan from (%.17g, %.17g): corner %u after %u", px, py, out[i],
                  out[i - 1]);
        mark[out[i]] = 1;
    }
    size_t ok = 0;
    for (uint32_t j = 0; j < g->n; j++) {
        const double dx = g->x[j] - px, dy = g->y[j] - py;
        if ((dx == 0.0 && dy == 0.0) || !quadrant_ok(g, quad, dx, dy) ||
            !ap_aa_grid_point_line_ok(m, px, py, g->x[j], g->y[j]))
            continue;
        ok++;
        AP_EXPECT(mark[j], "scan from (%.17g, %.17g) quad %d misses corner %u at (%g, %g)", px, py, quad, j,
                  g->x[j], g->y[j]);
    }
    *seen += ok;
    *extra += n - ok;
}

/* Every kind of point on map m (its point graph g): each corner (with and without its rules), `random` random
 * points, cell centres, vertices, points on grid lines and just outside the map. Returns the points checked. */
static size_t check_map(const ap_map *m, ap_aa_graph *g, ap_test_rng *rng, int random, size_t *seen,
                        size_t *extra)
{
    g->vis = ap_aa_vis_build(m, g->x, g->y, g->n); /* owned by g from here (ap_aa_graph_free) */
    ck_assert_ptr_nonnull(g->vis);
    double *scratch = malloc(ap_aa_vis_scratch_len(g->vis) * sizeof *scratch);
    uint32_t *out = malloc((g->n + 1) * sizeof *out);
    uint8_t *mark = malloc(g->n + 1);
    ck_assert(scratch != NULL && out != NULL && mark != NULL);
    size_t points = 0;
    const double W = m->width, H = m->height;
    for (size_t k = 0; k < g->n && (int)k < 4 * random; k++) {
        check_point(m, g, g->x[k], g->y[k], g->quad[k], scratch, out, mark, seen, extra);
        check_point(m, g, g->x[k], g->y[k], -1, scratch, out, mark, seen, extra);
        points += 2;
    }
    for (int i = 0; i < random; i++) {
        double x = ap_test_rand01(rng) * W, y = ap_test_rand01(rng) * H;
        /* ... and points the rule accepts just outside the map (up to 1e-9 out). */
        double pts[10][2] = {{x, y},
                             {floor(x) + 0.5, floor(y) + 0.5},
                             {floor(x), floor(y)},
                             {floor(x), y},
                             {x, floor(y)},
                             {floor(x) + 1e-10, y},
                             {-5e-10, y},
                             {x, -5e-10},
                             {W + 5e-10, floor(y)},
                             {floor(x), H + 5e-10}};
        for (int p = 0; p < 10; p++) {
            if (!ap_aa_grid_point_line_ok(m, pts[p][0], pts[p][1], pts[p][0], pts[p][1]))
                continue;
            /* Outside the map every corner is returned: those do not count toward the pruning figures. */
            size_t s_out = 0, e_out = 0;
            check_point(m, g, pts[p][0], pts[p][1], -1, scratch, out, mark, p < 6 ? seen : &s_out,
                        p < 6 ? extra : &e_out);
            points++;
        }
    }
    free(scratch);
    free(out);
    free(mark);
    return points;
}

START_TEST(scan_random_maps)
{
    ap_test_rng rng = {0x5eed0010ull};
    size_t seen = 0, extra = 0, points = 0;
    const int trials = ap_test_quick() ? 40 : 200;
    for (int t = 0; t < trials; t++) {
        int w = 4 + (int)(ap_test_rand(&rng) % 33), h = 4 + (int)(ap_test_rand(&rng) % 33);
        ap_map *m = vis_random_map(&rng, w, h, (int)(ap_test_rand(&rng) % (unsigned)(w * h / 6 + 1)));
        ap_aa_graph *g;
        ck_assert_int_eq(ap_aa_graph_grid_lazy(m, 0.0, &g), AP_OK);
        points += check_map(m, g, &rng, 30, &seen, &extra);
        ap_aa_graph_free(g);
        ap_map_free(m);
    }
    /* The scan really prunes: it returns few corners beyond the visible ones (more here than on a Moving AI
     * map: these maps are full of diagonal squeezes, which the scan leaves to the exact test). */
    ck_assert_uint_gt(points, 1000);
    ck_assert_uint_gt(seen, 10000);
    AP_EXPECT(extra * 5 < seen, "the scan returned %zu corners beyond the %zu visible", extra, seen);
}
END_TEST

START_TEST(scan_movingai_sample)
{
    ap_map *m = ap_test_data_map("den520d", "anyangle: visibility scan on den520d");
    if (m == NULL)
        return;
    ap_aa_graph *g;
    ck_assert_int_eq(ap_aa_graph_grid_lazy(m, 0.0, &g), AP_OK);
    ap_test_rng rng = {0xde5200ull};
    size_t seen = 0, extra = 0;
    size_t points = check_map(m, g, &rng, ap_test_quick() ? 10 : 40, &seen, &extra);
    ck_assert_uint_gt(points, 40);
    ck_assert_uint_gt(seen, 1000);
    AP_EXPECT(extra * 10 < seen, "the scan returned %zu corners beyond the %zu visible", extra, seen);
    ap_aa_graph_free(g);
    ap_map_free(m);
}
END_TEST

/* The eager table built with the scan (ap_aa_graph_precompute) equals the one built by testing every pair,
 * for a point unit (r = 0) and a disc of radius r. */
static void same_table(const ap_map *m, double r, const char *what)
{
    ap_aa_graph *fast, *plain;
    ck_assert_int_eq(ap_aa_graph_grid_lazy(m, r, &fast), AP_OK);
    ck_assert_int_eq(ap_aa_graph_grid_lazy(m, r, &plain), AP_OK);
    ck_assert_int_eq(ap_aa_graph_precompute(fast), AP_OK);
    AP_EXPECT(fast->n < 2 || fast->vis != NULL, "%s: the table was not built with the scan", what);
    ck_assert_int_eq(ap_aa_graph_precompute_with(plain, NULL, NULL, NULL), AP_OK);
    ap_test_same_aa_graph(fast, plain, what);
    ap_aa_graph_free(fast);
    ap_aa_graph_free(plain);
}

START_TEST(table_same_as_plain)
{
    ap_test_rng rng = {0x7ab1e0ull};
    const int trials = ap_test_quick() ? 20 : 100;
    for (int t = 0; t < trials; t++) {
        int w = 4 + (int)(ap_test_rand(&rng) % 33), h = 4 + (int)(ap_test_rand(&rng) % 33);
        ap_map *m = vis_random_map(&rng, w, h, (int)(ap_test_rand(&rng) % (unsigned)(w * h / 6 + 1)));
        /* A point unit, a disc of radius 0.5 (hugs always clear) and of 0.3 to 1.3. */
        const double r = t % 3 == 0 ? 0.0 : t % 3 == 1 ? 0.5 : 0.3 + ap_test_rand01(&rng);
        char what[64];
        snprintf(what, sizeof what, "random map %d (%dx%d, r %.3f)", t, w, h, r);
        same_table(m, r, what);
        ap_map_free(m);
    }
    if (ap_test_quick())
        return;
    ap_map *m = ap_test_data_map("arena2", "anyangle: table with the scan on arena2");
    if (m == NULL)
        return;
    same_table(m, 0.0, "arena2");
    same_table(m, 0.5, "arena2 r 0.5");
    ap_map_free(m);
}
END_TEST

Suite *aa_visibility_suite(void)
{
    Suite *s = suite_create("anyangle/visibility");
    TCase *tc = tcase_create("scan");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, scan_random_maps);
    tcase_add_test(tc, scan_movingai_sample);
    tcase_add_test(tc, table_same_as_plain);
    suite_add_tcase(s, tc);
    return s;
}
