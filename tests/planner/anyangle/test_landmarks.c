/* test_landmarks.c — the landmark distances of the eager tables (anyangle/landmarks.c: a point unit's and a
 * disc's grid graph) and the search's heuristic built from them: the distances change along every table edge
 * by at most its length (what makes the heuristic consistent), each landmark is at distance 0 from itself,
 * and the answers with landmarks and the visibility scans equal those without either (lengths within 1e-9
 * relative) on random maps and den520d's scenario lines, with fewer expansions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/anyangle/anyangle.h"
#include "../../../planner/anyangle/landmarks.h"
#include "../../../planner/base/status.h"
#include "../../util.h"
#include "../suites.h"

/* Every table edge u -> v changes every landmark's distance by at most its length; landmarks exist. */
static void check_consistent(const ap_aa_graph *g, const char *what)
{
    AP_EXPECT(g->dep_start != NULL, "%s: no eager table", what);
    if (g->n < 2 || g->n_deps == 0)
        return;
    AP_EXPECT(g->n_marks > 0 && g->n_marks <= AP_AA_LANDMARKS, "%s: %u landmarks", what, g->n_marks);
    const uint32_t k = g->n_marks;
    for (uint32_t i = 0; i < k; i++) {
        size_t zero = 0;
        for (size_t v = 0; v < g->n; v++)
            zero += g->mark_d[v * k + i] == 0.0;
        AP_EXPECT(zero >= 1, "%s: landmark %u is at distance 0 from no corner", what, i);
    }
    for (uint32_t u = 0; u < g->n; u++)
        for (uint32_t e = g->dep_start[2 * u]; e < g->dep_start[2 * u + 2]; e++) {
            const uint32_t v = g->deps[e].to;
            const double len = g->deps[e].t.len;
            for (uint32_t i = 0; i < k; i++) {
                const double du = g->mark_d[(size_t)u * k + i], dv = g->mark_d[(size_t)v * k + i];
                AP_EXPECT(isinf(du) == isinf(dv), "%s: corners %u and %u (an edge) in different components", what,
                          u, v);
                if (!isinf(du))
                    AP_EXPECT(fabs(du - dv) <= len * (1.0 + 1e-12) + 1e-12,
                              "%s: landmark %u: d(%u) = %.17g, d(%u) = %.17g, edge %.17g", what, i, u, du, v, dv,
                              len);
            }
        }
}

/* The lengths of queries p[0 .. n) on g with its landmarks and visibility index (and a disc's clear
 * quarters: skipped hug tests, sorted departures, dominance), and without any of them (a disc's graph: also
 * with all but the landmarks); adds the expansions to *with and *without, and the dominated arrivals to
 * *dominated. */
static void same_answers(ap_aa_graph *g, const double (*p)[4], size_t n, uint64_t *with, uint64_t *without,
                         uint64_t *dominated, const char *what)
{
    ap_aa_query *q;
    ck_assert_int_eq(ap_aa_query_create(g, &q), AP_OK);
    const uint32_t marks = g->n_marks;
    struct ap_aa_vis *vis = g->vis;
    uint8_t *clear = g->hug_clear;
    for (size_t i = 0; i < n; i++) {
        ap_aa_result a, b;
        g->n_marks = marks;
        g->vis = vis;
        g->hug_clear = clear;
        int sa = ap_aa_find(q, p[i][0], p[i][1], p[i][2], p[i][3], 0, &a);
        const double la = a.length;
        *with += a.expanded;
        *dominated += a.dominated;
        if (!g->corner_points) {
            g->n_marks = 0;
            int sc = ap_aa_find(q, p[i][0], p[i][1], p[i][2], p[i][3], 0, &b);
            AP_EXPECT(sc == sa, "%s query %zu: status %d with landmarks, %d with the scans alone", what, i, sa, sc);
            if (sa == AP_OK)
                AP_EXPECT(fabs(la - b.length) <= 1e-9 * fmax(1.0, b.length),
                          "%s query %zu: %.17g with landmarks, %.17g with the scans alone", what, i, la, b.length);
        }
        g->n_marks = 0;
        g->vis = NULL;
        g->hug_clear = NULL;
        int sb = ap_aa_find(q, p[i][0], p[i][1], p[i][2], p[i][3], 0, &b);
        *without += b.expanded;
        AP_EXPECT(sa == sb, "%s query %zu: status %d with landmarks, %d without", what, i, sa, sb);
        if (sa == AP_OK)
            AP_EXPECT(fabs(la - b.length) <= 1e-9 * fmax(1.0, b.length),
                      "%s query %zu (%g, %g) -> (%g, %g): %.17g with landmarks, %.17g without", what, i, p[i][0],
                      p[i][1], p[i][2], p[i][3], la, b.length);
    }
    g->n_marks = marks;
    g->vis = vis;
    g->hug_clear = clear;
    ap_aa_query_free(q);
}

START_TEST(random_maps)
{
    ap_test_rng rng = {0x1a7d3a4ull};
    const int trials = ap_test_quick() ? 15 : 60;
    uint64_t with = 0, without = 0, dwith = 0, dwithout = 0, dominated = 0;
    for (int t = 0; t < trials; t++) {
        const int w = 8 + (int)(ap_test_rand(&rng) % 25), h = 8 + (int)(ap_test_rand(&rng) % 25);
        ap_map *m = ap_test_speckled_map(&rng, w, h, 0.1 + 0.2 * ap_test_rand01(&rng));
        /* Every other map for a disc (radius 0.3 to 0.8: the disc's table, scans and landmarks). */
        const double r = t % 2 == 0 ? 0.0 : 0.3 + 0.5 * ap_test_rand01(&rng);
        ap_aa_graph *g;
        ck_assert_int_eq(ap_aa_graph_grid(m, r, &g), AP_OK);
        char what[64];
        snprintf(what, sizeof what, "random map %d (%dx%d, r %.3f)", t, w, h, r);
        check_consistent(g, what);
        AP_EXPECT(g->n < 2 || g->vis != NULL, "%s: no visibility index", what);
        double p[20][4];
        size_t n = 0;
        for (int i = 0; i < 200 && n < 20; i++) {
            const double sx = ap_test_rand01(&rng) * w, sy = ap_test_rand01(&rng) * h;
            const double gx = floor(ap_test_rand01(&rng) * w) + 0.5, gy = floor(ap_test_rand01(&rng) * h) + 0.5;
            if (g->space.line_ok(g->space.ctx, sx, sy, sx, sy) && g->space.line_ok(g->space.ctx, gx, gy, gx, gy))
                memcpy(p[n++], (double[4]){sx, sy, gx, gy}, sizeof p[0]);
        }
        same_answers(g, (const double (*)[4])p, n, r > 0.0 ? &dwith : &with, r > 0.0 ? &dwithout : &without,
                     &dominated, what);
        ap_aa_graph_free(g);
        ap_map_free(m);
    }
    ck_assert_uint_gt(without, 0);
    ck_assert_uint_gt(dwithout, 0);
    ck_assert_uint_gt(dominated, 0); /* the disc's dominance did prune */
    printf("landmarks: random maps, expansions with / without: point %llu / %llu, disc %llu / %llu (%llu arrivals "
           "dominated)\n",
           (unsigned long long)with, (unsigned long long)without, (unsigned long long)dwith,
           (unsigned long long)dwithout, (unsigned long long)dominated);
}
END_TEST

/* Every step-th scenario line of map `name` as cell-centre query ends (x0, y0, x1, y1); *n of them. Owned
 * by the caller. */
static double (*scen_ends(const char *name, size_t step, size_t *n))[4]
{
    size_t n_sc;
    ap_test_scen *sc = ap_test_data_scen(name, &n_sc);
    double (*p)[4] = malloc((n_sc / step + 1) * sizeof *p);
    *n = 0;
    for (size_t i = 0; i < n_sc; i += step)
        memcpy(p[(*n)++], (double[4]){sc[i].sx + 0.5, sc[i].sy + 0.5, sc[i].gx + 0.5, sc[i].gy + 0.5}, sizeof p[0]);
    free(sc);
    return p;
}

START_TEST(den520d_lines)
{
    ap_map *m = ap_test_data_map("den520d", "anyangle: landmarks on den520d");
    if (m == NULL)
        return;
    size_t n;
    double (*p)[4] = scen_ends("den520d", ap_test_quick() ? 40 : 8, &n);
    /* A point unit and a disc of radius 0.5 (cell-centre ends where the disc fits: the others answer
     * start or goal blocked both ways). */
    for (int k = 0; k < 2; k++) {
        const double r = k == 0 ? 0.0 : 0.5;
        ap_aa_graph *g;
        ck_assert_int_eq(ap_aa_graph_grid(m, r, &g), AP_OK);
        const char *what = k == 0 ? "den520d" : "den520d r 0.5";
        check_consistent(g, what);
        uint64_t with = 0, without = 0, dominated = 0;
        same_answers(g, (const double (*)[4])p, n, &with, &without, &dominated, what);
        /* The landmarks (and the disc's scans) do their work: far fewer expansions (measured ~5x for the
         * point unit, ~9x for the disc). */
        AP_EXPECT(2 * with < without, "%s: %llu expansions with landmarks, %llu without", what,
                  (unsigned long long)with, (unsigned long long)without);
        ap_aa_graph_free(g);
    }
    free(p);
    ap_map_free(m);
}
END_TEST

/* A disc of radius 0.5 on brc202d (narrow passages, where dominance and the cutoffs do the most): every
 * 4th scenario line (quick: every 20th; all of them took 12 s of make check for the same verdicts) with all
 * the shortcuts against none of them. */
START_TEST(brc202d_disc_lines)
{
    ap_map *m = ap_test_data_map("brc202d", "anyangle: disc shortcuts on brc202d");
    if (m == NULL)
        return;
    size_t n;
    double (*p)[4] = scen_ends("brc202d", ap_test_quick() ? 20 : 4, &n);
    ap_aa_graph *g;
    ck_assert_int_eq(ap_aa_graph_grid(m, 0.5, &g), AP_OK);
    ck_assert(g->dep_sorted && g->hug_clear != NULL && g->vis != NULL && g->n_marks > 0);
    uint64_t with = 0, without = 0, dominated = 0;
    same_answers(g, (const double (*)[4])p, n, &with, &without, &dominated, "brc202d r 0.5");
    printf("landmarks: brc202d r 0.5, %zu lines: expansions %llu with the shortcuts, %llu without (%llu dominated)\n",
           n, (unsigned long long)with, (unsigned long long)without, (unsigned long long)dominated);
    AP_EXPECT(4 * with < without, "brc202d r 0.5: %llu expansions with the shortcuts, %llu without",
              (unsigned long long)with, (unsigned long long)without);
    ck_assert_uint_gt(dominated, 0);
    free(p);
    ap_aa_graph_free(g);
    ap_map_free(m);
}
END_TEST

Suite *aa_landmarks_suite(void)
{
    Suite *s = suite_create("anyangle/landmarks");
    TCase *tc = tcase_create("landmarks");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_maps);
    tcase_add_test(tc, den520d_lines);
    tcase_add_test(tc, brc202d_disc_lines);
    suite_add_tcase(s, tc);
    return s;
}
