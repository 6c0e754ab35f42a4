/* test_lattice.c — world/lattice.h: the obstacle-aware lattice bound is below the exact shortest free-space
 * path (the any_angle plan's length, an independent search) and exact on simple cases. */
#include "tests/check_fast.h"
#include <math.h>
#include <stdio.h>
#include <stdbool.h>
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

/* The exact shortest free-space path of a point from (sx, sy) to (gx, gy) on m (any_angle, smoothing none):
 * AP_OK with its length in *len, or AP_NO_PATH (asserted: nothing else). */
static int shortest(ap_workspace *ws, const ap_map *m, double sx, double sy, double gx, double gy, double *len)
{
    ap_query q = {.map = m, .sx = sx, .sy = sy, .gx = gx, .gy = gy, .algorithm = AP_ALG_ANY_ANGLE,
                  .connectivity = 8, .smoothing = AP_SMOOTH_NONE};
    ap_plan p;
    int st = ap_plan_begin(&p, &q, ws, 0);
    while (st == AP_IN_PROGRESS)
        st = ap_plan_step(&p, 0);
    ap_result r;
    ap_plan_finish(&p, &r);
    ck_assert(st == AP_OK || st == AP_NO_PATH);
    *len = r.length;
    ap_result_free(&r);
    return st;
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
            double len;
            const int st = shortest(&ws, m, sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5, &len);
            const double bound = ap_lattice_bound(at_centre(m, dist, sx, sy));
            if (st == AP_OK) {
                compared++;
                ck_assert_msg(bound <= len + 1e-9, "map %d (%d,%d)->(%d,%d): bound %.9f > shortest %.9f", it, sx, sy,
                              gx, gy, bound, len);
                close += bound >= 0.9 * len;
            }
        }
        ap_workspace_free(&ws);
        free(dist);
        ap_map_free(m);
    }
    ck_assert_int_ge(compared, 30);
    ck_assert_int_ge(close, compared / 2);
}
END_TEST

/* The lattice written from its definition (lattice.h): vertex (a, b) of the (2 rw + 1) x (2 rh + 1) grid, a
 * straight half step allowed when one of the two fine cells beside it is free, a diagonal one when the fine
 * cell it crosses is free (fine cells outside the region are not), Dijkstra by scanning, float sums. */
static bool ref_fine(const uint8_t *cfree, int rw, int rh, int fx, int fy)
{
    return fx >= 0 && fy >= 0 && fx < 2 * rw && fy < 2 * rh && cfree[(fy / 2) * rw + fx / 2];
}

static void ref_distances(const uint8_t *cfree, int rw, int rh, int gx, int gy, float *d)
{
    const int fw = 2 * rw + 1, fh = 2 * rh + 1, nv = fw * fh;
    bool *done = calloc((size_t)nv, 1);
    for (int v = 0; v < nv; v++)
        d[v] = INFINITY;
    d[(2 * gy + 1) * fw + 2 * gx + 1] = 0.0f;
    for (;;) {
        int u = -1;
        for (int v = 0; v < nv; v++)
            if (!done[v] && d[v] < INFINITY && (u < 0 || d[v] < d[u]))
                u = v;
        if (u < 0)
            break;
        done[u] = true;
        const int a = u % fw, b = u / fw;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                const int na = a + dx, nb = b + dy;
                if ((!dx && !dy) || na < 0 || nb < 0 || na >= fw || nb >= fh)
                    continue;
                bool ok;
                if (dx && dy)
                    ok = ref_fine(cfree, rw, rh, dx > 0 ? a : a - 1, dy > 0 ? b : b - 1);
                else if (dx)
                    ok = ref_fine(cfree, rw, rh, dx > 0 ? a : a - 1, b - 1) || ref_fine(cfree, rw, rh, dx > 0 ? a : a - 1, b);
                else
                    ok = ref_fine(cfree, rw, rh, a - 1, dy > 0 ? b : b - 1) || ref_fine(cfree, rw, rh, a, dy > 0 ? b : b - 1);
                const float nk = d[u] + (dx && dy ? (float)(0.5 * M_SQRT2) : 0.5f);
                if (ok && nk < d[nb * fw + na])
                    d[nb * fw + na] = nk;
            }
    }
    free(done);
}

/* ap_lattice_distances against the definition on random regions (free rings or not): every vertex's
 * distance equal to the bit. */
START_TEST(distances_equal_the_definition)
{
    ap_test_rng g = {20261125};
    for (int it = 0; it < (ap_test_quick() ? 8 : 24); it++) {
        const int rw = 3 + (int)(ap_test_rand(&g) % 18), rh = 3 + (int)(ap_test_rand(&g) % 18);
        uint8_t *cfree = malloc((size_t)rw * (size_t)rh);
        for (int i = 0; i < rw * rh; i++)
            cfree[i] = ap_test_rand01(&g) < 0.3 ? 0 : 1;
        const int gx = (int)(ap_test_rand(&g) % (unsigned)rw), gy = (int)(ap_test_rand(&g) % (unsigned)rh);
        cfree[gy * rw + gx] = 1;
        const size_t nv = (size_t)(2 * rw + 1) * (size_t)(2 * rh + 1);
        float *a = malloc(nv * sizeof *a), *b = malloc(nv * sizeof *b);
        ck_assert_int_eq(ap_lattice_distances(cfree, rw, rh, gx, gy, 0, a), AP_OK);
        ref_distances(cfree, rw, rh, gx, gy, b);
        for (size_t v = 0; v < nv; v++)
            ck_assert_msg(a[v] == b[v] || (isinf(a[v]) && isinf(b[v])), "region %d vertex %zu: %.9g, definition %.9g",
                          it, v, (double)a[v], (double)b[v]);
        free(a);
        free(b);
        free(cfree);
    }
}
END_TEST

/* ap_lattice_region_free: a ring side away from the map's edge is free (paths may leave there), a side on the
 * map's edge keeps the map's cells. On a map walled all round (as most are) a region reaching the edges
 * gives a bound round the inner walls; a free ring there was a road round every wall. */
START_TEST(region_ring_on_the_map_edge)
{
    /* 7 x 7, walled all round, a wall from the top border down to y = 4 at x = 3: from (1, 1) to (5, 1) the
     * way is down and round, 3.5 + 4 + 3.5 tiles at least (the straight line is 4) */
    ap_map *m = ap_test_map_from_string("type octile\nheight 7\nwidth 7\nmap\n@@@@@@@\n@..@..@\n@..@..@\n@..@..@\n"
                                        "@..@..@\n@.....@\n@@@@@@@\n");
    uint8_t cfree[49];
    float dist[15 * 15];
    /* the whole map: every side on the edge, so the ring is the map's own border, blocked */
    ck_assert_uint_eq(ap_lattice_region_free(m, 0, 0, 7, 7, cfree), 4); /* the wall's 4 cells inside the ring */
    for (int i = 0; i < 7; i++) {
        ck_assert_int_eq(cfree[i], 0);         /* top row */
        ck_assert_int_eq(cfree[6 * 7 + i], 0); /* bottom row */
        ck_assert_int_eq(cfree[i * 7], 0);     /* left column */
        ck_assert_int_eq(cfree[i * 7 + 6], 0); /* right column */
    }
    ck_assert_int_eq(ap_lattice_distances(cfree, 7, 7, 5, 1, 0, dist), AP_OK);
    const double b = ap_lattice_bound(dist[3 * 15 + 3]); /* from (1, 1)'s centre */
    ck_assert_msg(b > 8.0, "bound %.6f round the wall", b); /* (with a free ring: about 4 / 1.08, over the top) */
    ck_assert(b <= 2.0 * hypot(1.5, 3.5) + 1.0 + 1e-9); /* below the shortest curve: via the corners (3, 5), (4, 5) */
    /* a region away from the left and top edges: those sides free, the right and bottom ones the map's */
    ck_assert_uint_eq(ap_lattice_region_free(m, 2, 2, 5, 5, cfree), 2);
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(cfree[i], 1);     /* top: y0 = 2 > 0 */
        ck_assert_int_eq(cfree[i * 5], 1); /* left: x0 = 2 > 0 */
    }
    ck_assert_int_eq(cfree[4 * 5 + 2], 0); /* bottom row on the map's edge: its blocked cell (4, 6) stays */
    ck_assert_int_eq(cfree[1 * 5 + 4], 0); /* right column on the map's edge: (6, 3) stays */
    ap_map_free(m);
}
END_TEST

/* Random speckled maps walled all round and random regions, some reaching the map's edges: the bound from
 * every region cell is never above the exact shortest path over the whole map (any_angle, smoothing none),
 * wherever the path goes, in the region or out of it. */
START_TEST(region_bound_below_the_shortest_path)
{
    ap_test_rng g = {20261203};
    int compared = 0;
    for (int it = 0; it < (ap_test_quick() ? 6 : 16); it++) {
        const int w = 14 + (int)(ap_test_rand(&g) % 16), h = 14 + (int)(ap_test_rand(&g) % 16);
        char *text = malloc((size_t)(w + 1) * (size_t)h + 64);
        int n = sprintf(text, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++)
                text[n++] = x == 0 || y == 0 || x == w - 1 || y == h - 1 || ap_test_rand01(&g) < 0.3 ? '@' : '.';
            text[n++] = '\n';
        }
        text[n] = '\0';
        ap_map *m = ap_test_map_from_string(text);
        free(text);
        /* a region: each side on the map's edge about half the time */
        const int x0 = ap_test_rand(&g) % 2 ? 0 : 1 + (int)(ap_test_rand(&g) % 4);
        const int y0 = ap_test_rand(&g) % 2 ? 0 : 1 + (int)(ap_test_rand(&g) % 4);
        const int x1 = ap_test_rand(&g) % 2 ? w : w - 1 - (int)(ap_test_rand(&g) % 4);
        const int y1 = ap_test_rand(&g) % 2 ? h : h - 1 - (int)(ap_test_rand(&g) % 4);
        const int rw = x1 - x0, rh = y1 - y0;
        int gx, gy;
        do {
            gx = 1 + (int)(ap_test_rand(&g) % (unsigned)(rw - 2));
            gy = 1 + (int)(ap_test_rand(&g) % (unsigned)(rh - 2));
        } while (!ap_map_passable(m, x0 + gx, y0 + gy));
        uint8_t *cfree = malloc((size_t)rw * (size_t)rh);
        float *dist = malloc((size_t)(2 * rw + 1) * (size_t)(2 * rh + 1) * sizeof *dist);
        ap_lattice_region_free(m, x0, y0, rw, rh, cfree);
        ck_assert_int_eq(ap_lattice_distances(cfree, rw, rh, gx, gy, 0, dist), AP_OK);
        ap_workspace ws;
        ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
        for (int k = 0; k < 10; k++) {
            const int sx = (int)(ap_test_rand(&g) % (unsigned)rw), sy = (int)(ap_test_rand(&g) % (unsigned)rh);
            if (!ap_map_passable(m, x0 + sx, y0 + sy) || (sx == gx && sy == gy))
                continue;
            double len;
            const int st = shortest(&ws, m, x0 + sx + 0.5, y0 + sy + 0.5, x0 + gx + 0.5, y0 + gy + 0.5, &len);
            const double bound = ap_lattice_cell_bound(dist, rw, sx, sy, 0.0);
            if (st == AP_OK) {
                compared++;
                ck_assert_msg(bound <= len + 1e-9, "map %d region (%d,%d) %dx%d: (%d,%d)->(%d,%d) bound %.9f > %.9f", it,
                              x0, y0, rw, rh, sx, sy, gx, gy, bound, len);
            }
        }
        ap_workspace_free(&ws);
        free(dist);
        free(cfree);
        ap_map_free(m);
    }
    ck_assert_int_ge(compared, 30);
}
END_TEST

Suite *lattice_suite(void)
{
    Suite *s = suite_create("lattice");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, exact_cases);
    tcase_add_test(tc, below_the_exact_shortest_path);
    tcase_add_test(tc, distances_equal_the_definition);
    tcase_add_test(tc, region_ring_on_the_map_edge);
    tcase_add_test(tc, region_bound_below_the_shortest_path);
    suite_add_tcase(s, tc);
    return s;
}
