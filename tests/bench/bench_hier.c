/* bench_hier.c — HAA* ("hierarchical", plan_hier.c) against A* (annotated A* for sized discs) on long queries
 * (issue 9, "Benchmarks": speed-up target >= 10x, length excess target <= 1 % after smoothing).
 *
 *   arcpath-bench-hier [N [MAP ...]]   N scenario lines per map and unit (default 40, spread evenly over the
 *                                      lines of the top 25 % of the file's buckets that the unit can take:
 *                                      those A* answers for its radius); maps by base name in
 *                                      $ARCPATH_MOVINGAI or ../shared/data/movingai (default: the DAO and
 *                                      Baldur's Gate maps of at most 512^2 cells); ARCPATH_BENCH_RADIUS=R
 *                                      runs radius R alone (any up to 4: a disc between the class radii too); ARCPATH_BENCH_TRACE=1
 *                                      prints each line's statuses, search µs and expansions, and its
 *                                      unsmoothed and taut lengths, on stderr
 *
 * Per map: the hier table's build (median of 3, ms) and its bytes per map cell; then per unit (point, disc
 * radius 1, disc radius 2): the lines both algorithms answer, median and p95 µs of a whole plan
 * (begin .. finish, smoothing "los") for astar and hierarchical, the speed-up of the medians, the medians of
 * the search alone (begin and steps, without finish: waypoints, smoothing, verdict) and their ratio (the
 * figure HAA*'s "order of magnitude" speaks of; each hierarchical run follows an A* run there), the same
 * ratio measured in separate passes (every line's A* search, then every line's hierarchical one, the
 * fastest of PASSES rounds each: each algorithm with its own data in the caches), and the mean
 * and max length excess of hierarchical over astar with smoothing "none" (the grid optimum) and with
 * smoothing "los" (each against astar's answer with the same smoothing), then with smoothing "taut": the
 * medians of whole plans, their ratio, and the excess over astar's taut answer. Lines one algorithm answers
 * and the other does not are counted (miss). Uses only planner/ and tests/util.c.
 *
 * ARCPATH_BENCH_OPTIMUM=1 adds a line after each row: the mean and max excess of astar's and of hierarchical's taut
 * answers over the shortest path itself (any_angle: the exact shortest path for the point or the disc, the
 * tangent visibility graph), over the lines any_angle answers: how far each grid search's smoothed path is
 * from the optimum, so the excess of one over the other can be read against it.
 *
 *   arcpath-bench-hier --build MAP ...  per map: the hier build (median of 5, ms), bytes per map cell, nodes,
 *                                       edges and a digest of the whole graph (nodes, classes, CSR, every edge
 *                                       cost's bits): two builds of the same map print the same digest iff
 *                                       their graphs are identical, so old and new binaries can be compared.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../planner/base/mem.h"
#include "../../planner/hier/hier.h"
#include "../../planner/plan/plan.h"
#include "../util.h"
#include "bench_util.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One whole plan; the status, r filled when AP_OK (caller frees), *us the wall time, *search_us the part
 * before finish (the search: begin and steps; finish is the waypoints, smoothing and verdict). */
static int run(const ap_map *m, ap_workspace *ws, const ap_test_scen *s, double radius, ap_algorithm alg,
               ap_smoothing sm, ap_result *r, double *us, double *search_us)
{
    ap_query q = {.map = m, .sx = s->sx + 0.5, .sy = s->sy + 0.5, .gx = s->gx + 0.5, .gy = s->gy + 0.5,
                  .connectivity = 8, .smoothing = sm, .algorithm = alg, .unit_radius = radius};
    ap_plan p;
    const double t0 = now_us();
    int st = ap_plan_begin(&p, &q, ws, 0);
    while (st == AP_IN_PROGRESS)
        st = ap_plan_step(&p, 0);
    *search_us = now_us() - t0;
    ap_plan_finish(&p, r);
    *us = now_us() - t0;
    return r->status;
}

/* Rounds of the separate passes (bench_map): each line's fastest search of these. */
#define PASSES 3

static double pct(const double *v, size_t n, double p)
{
    return n ? v[(size_t)(p * (double)(n - 1))] : 0.0;
}

/* Map dir/name.map loaded into *m and n builds of its graph: ms[0 .. n) their times (ms, sorted); the last
 * graph (the caller frees it and *m), or NULL (and a line on stderr, nothing left allocated) when the load or
 * a build fails. */
static ap_hier *timed_builds(const char *dir, const char *name, int n, double *ms, ap_map **m)
{
    *m = ap_bench_load_map(dir, name);
    if (*m == NULL)
        return NULL;
    ap_hier *h = NULL;
    for (int k = 0; k < n; k++) {
        ap_hier_free(h);
        const double t0 = now_us();
        if (ap_hier_build(*m, &h) != AP_OK) {
            fprintf(stderr, "%s: no hier table\n", name);
            ap_map_free(*m);
            return NULL;
        }
        ms[k] = (now_us() - t0) / 1e3;
    }
    qsort(ms, (size_t)n, sizeof *ms, cmp_d);
    return h;
}

static void bench_map(const char *dir, const char *name, int per)
{
    char path[4096];
    ap_map *m;
    double bt[3];
    ap_hier *h = timed_builds(dir, name, 3, bt, &m);
    if (h == NULL)
        return;
    const size_t bytes = h->bytes;
    ap_hier_free(h);
    snprintf(path, sizeof path, "%s/%s.map.scen", dir, name);
    ap_test_scen *sc;
    size_t n;
    if (ap_test_load_scen(path, &sc, &n) != 0) {
        ap_map_free(m);
        return;
    }
    int maxb = 0;
    for (size_t i = 0; i < n; i++)
        maxb = sc[i].bucket > maxb ? sc[i].bucket : maxb;
    const int minb = (3 * (maxb + 1)) / 4; /* the top 25 % of the buckets */
    size_t nl = 0;
    for (size_t i = 0; i < n; i++)
        if (sc[i].bucket >= minb)
            sc[nl++] = sc[i];
    ap_workspace ws;
    const uint32_t cap = ap_map_node_count(m) > AP_PLAN_MIN_WORKSPACE_NODES ? ap_map_node_count(m)
                                                                             : AP_PLAN_MIN_WORKSPACE_NODES;
    if (ap_workspace_init(&ws, cap, AP_PLAN_MAX_SUCC) != AP_OK) /* as the server sizes its workspaces */
        exit(1);
    /* the class radii 0, 1, 2; or one radius alone, any up to 4 (profiling, or a disc between class radii) */
    double radii[] = {0.0, 1.0, 2.0};
    const char *only = getenv("ARCPATH_BENCH_RADIUS");
    size_t n_radii = sizeof radii / sizeof *radii;
    if (only != NULL) {
        radii[0] = atof(only);
        n_radii = 1;
    }
    const bool trace = getenv("ARCPATH_BENCH_TRACE") != NULL;
    const bool optimum = getenv("ARCPATH_BENCH_OPTIMUM") != NULL;
    for (size_t ri = 0; ri < n_radii; ri++) {
        double *ta = malloc((size_t)per * sizeof *ta), *th = malloc((size_t)per * sizeof *th);
        double *sa_us = malloc((size_t)per * sizeof *sa_us), *sh_us = malloc((size_t)per * sizeof *sh_us);
        double *tta = malloc((size_t)per * sizeof *tta), *tth = malloc((size_t)per * sizeof *tth);
        double ex_none = 0.0, ex_los = 0.0, max_none = 0.0, max_los = 0.0, ex_taut = 0.0, max_taut = 0.0;
        double opt_a = 0.0, opt_h = 0.0, opt_amax = 0.0, opt_hmax = 0.0; /* taut over any_angle */
        size_t n_opt = 0;
        size_t k = 0, miss = 0, shorter = 0;
        /* the lines this unit can take (A* answers them): a disc reaches only some of the long lines, and
         * sampling among all of them left 5-20 lines of 30 for radius 1 and 2 on the DAO maps */
        size_t *take = malloc(nl * sizeof *take), nt = 0, *used = malloc((size_t)per * sizeof *used);
        for (size_t i = 0; i < nl; i++) {
            ap_result r;
            double u, x;
            if (run(m, &ws, &sc[i], radii[ri], AP_ALG_ASTAR, AP_SMOOTH_NONE, &r, &u, &x) == AP_OK)
                take[nt++] = i;
            ap_result_free(&r);
        }
        const size_t step = nt / (size_t)per > 0 ? nt / (size_t)per : 1;
        for (size_t ti = 0; ti < nt && (int)(k + miss) < per; ti += step) {
            const size_t i = take[ti];
            ap_result ra, rh, ra0, rh0, rat, rht;
            double ua, uh, u, xa, xh, x, uat, uht;
            const int sa = run(m, &ws, &sc[i], radii[ri], AP_ALG_ASTAR, AP_SMOOTH_LOS, &ra, &ua, &xa);
            const int sh = run(m, &ws, &sc[i], radii[ri], AP_ALG_HIERARCHICAL, AP_SMOOTH_LOS, &rh, &uh, &xh);
            const int sa0 = run(m, &ws, &sc[i], radii[ri], AP_ALG_ASTAR, AP_SMOOTH_NONE, &ra0, &u, &x);
            const int sh0 = run(m, &ws, &sc[i], radii[ri], AP_ALG_HIERARCHICAL, AP_SMOOTH_NONE, &rh0, &u, &x);
            const int sat = run(m, &ws, &sc[i], radii[ri], AP_ALG_ASTAR, AP_SMOOTH_TAUT, &rat, &uat, &x);
            const int sht = run(m, &ws, &sc[i], radii[ri], AP_ALG_HIERARCHICAL, AP_SMOOTH_TAUT, &rht, &uht, &x);
            if (trace)
                fprintf(stderr, "line %zu radius %g: astar %d %.1f us %llu expanded, hierarchical %d %.1f us %llu "
                        "expanded (search)\n", i, radii[ri], sa, xa, (unsigned long long)ra.expanded, sh, xh,
                        (unsigned long long)rh.expanded);
            if (sa == AP_OK && sh == AP_OK && sa0 == AP_OK && sh0 == AP_OK && sat == AP_OK && sht == AP_OK) {
                used[k] = i;
                tta[k] = uat;
                tth[k] = uht;
                const double et = rat.length > 0 ? rht.length / rat.length - 1.0 : 0.0;
                ex_taut += et;
                max_taut = et > max_taut ? et : max_taut;
                ta[k] = ua;
                th[k] = uh;
                sa_us[k] = xa;
                sh_us[k] = xh;
                const double en = ra0.length > 0 ? rh0.length / ra0.length - 1.0 : 0.0;
                ap_result ro;
                double uo, xo;
                if (optimum &&
                    run(m, &ws, &sc[i], radii[ri], AP_ALG_ANY_ANGLE, AP_SMOOTH_NONE, &ro, &uo, &xo) == AP_OK &&
                    ro.length > 0) {
                    const double oa = rat.length / ro.length - 1.0, oh = rht.length / ro.length - 1.0;
                    opt_a += oa;
                    opt_h += oh;
                    opt_amax = oa > opt_amax ? oa : opt_amax;
                    opt_hmax = oh > opt_hmax ? oh : opt_hmax;
                    n_opt++;
                    if (trace)
                        fprintf(stderr, "line %zu radius %g: shortest %.4f, astar taut +%.2f %%, hier taut +%.2f %%\n",
                                i, radii[ri], ro.length, 100 * oa, 100 * oh);
                }
                if (optimum)
                    ap_result_free(&ro);
                if (trace)
                    fprintf(stderr, "line %zu (%d,%d)->(%d,%d) radius %g: none astar %.4f hier %.4f (%.2f %%), taut %.4f %.4f (%.2f %%)\n",
                            i, sc[i].sx, sc[i].sy, sc[i].gx, sc[i].gy, radii[ri], ra0.length, rh0.length, 100 * en,
                            rat.length, rht.length, 100 * (rht.length / rat.length - 1));
                const double el = ra.length > 0 ? rh.length / ra.length - 1.0 : 0.0;
                shorter += en < -1e-9;
                ex_none += en;
                ex_los += el;
                max_none = en > max_none ? en : max_none;
                max_los = el > max_los ? el : max_los;
                k++;
            } else if (sa != sh) {
                miss++;
            }
            ap_result_free(&ra);
            ap_result_free(&rh);
            ap_result_free(&ra0);
            ap_result_free(&rh0);
            ap_result_free(&rat);
            ap_result_free(&rht);
        }
        /* The searches again in separate passes, one algorithm over all k lines, then the other, the fastest
         * of PASSES rounds per line: each algorithm with its own data in the caches, as a server running many
         * queries of one kind has them (above, every hierarchical run follows an A* run that swept the whole
         * map's workspace, so it starts with its graph out of the caches). */
        double *pa = malloc((k ? k : 1) * sizeof *pa), *ph = malloc((k ? k : 1) * sizeof *ph);
        for (size_t j = 0; j < k; j++)
            pa[j] = ph[j] = INFINITY;
        for (int pass = 0; pass < PASSES; pass++)
            for (int alg = 0; alg < 2; alg++)
                for (size_t j = 0; j < k; j++) {
                    ap_result r;
                    double u, x;
                    run(m, &ws, &sc[used[j]], radii[ri], alg ? AP_ALG_HIERARCHICAL : AP_ALG_ASTAR, AP_SMOOTH_NONE,
                        &r, &u, &x);
                    ap_result_free(&r);
                    double *best = alg ? &ph[j] : &pa[j];
                    *best = x < *best ? x : *best;
                }
        qsort(pa, k, sizeof *pa, cmp_d);
        qsort(ph, k, sizeof *ph, cmp_d);
        const double mpa = pct(pa, k, 0.5), mph = pct(ph, k, 0.5);
        qsort(ta, k, sizeof *ta, cmp_d);
        qsort(th, k, sizeof *th, cmp_d);
        qsort(sa_us, k, sizeof *sa_us, cmp_d);
        qsort(sh_us, k, sizeof *sh_us, cmp_d);
        qsort(tta, k, sizeof *tta, cmp_d);
        qsort(tth, k, sizeof *tth, cmp_d);
        const double mat = pct(tta, k, 0.5), mht = pct(tth, k, 0.5);
        const double ma = pct(ta, k, 0.5), mh = pct(th, k, 0.5), xa = pct(sa_us, k, 0.5), xh = pct(sh_us, k, 0.5);
        printf("| %s | %.1f | %.1f | %g | %zu | %zu | %.0f | %.0f | %.0f | %.0f | %.1fx | %.0f | %.0f | %.1fx | %.2f / %.2f "
               "| %.2f / %.2f | %.0f | %.0f | %.1fx | %.2f / %.2f | %.0f | %.0f | %.1fx |%s\n",
               name, bt[1], (double)bytes / ((double)m->width * m->height), radii[ri], k, miss, ma, pct(ta, k, 0.95),
               mh, pct(th, k, 0.95), mh > 0 ? ma / mh : 0.0, xa, xh, xh > 0 ? xa / xh : 0.0,
               100.0 * ex_none / (k ? (double)k : 1.0),
               100.0 * max_none, 100.0 * ex_los / (k ? (double)k : 1.0), 100.0 * max_los, mat, mht,
               mht > 0 ? mat / mht : 0.0, 100.0 * ex_taut / (k ? (double)k : 1.0), 100.0 * max_taut, mpa, mph,
               mph > 0 ? mpa / mph : 0.0, shorter ? " (shorter than astar: bug)" : "");
        if (optimum) /* the row's two extra columns, on a line of their own (the table above stays as it was) */
            printf("|   over the shortest path (any_angle, %zu lines): astar taut %.2f / %.2f %%, hierarchical taut "
                   "%.2f / %.2f %% (mean / max) |\n",
                   n_opt, 100.0 * opt_a / (n_opt ? (double)n_opt : 1.0), 100.0 * opt_amax,
                   100.0 * opt_h / (n_opt ? (double)n_opt : 1.0), 100.0 * opt_hmax);
        fflush(stdout);
        AP_FREE_ALL(ta, th, sa_us, sh_us, tta, tth, take, used, pa, ph);
    }
    ap_workspace_free(&ws);
    free(sc);
    ap_map_free(m);
}

/* FNV-1a over n bytes, continuing from hash x. */
static uint64_t fnv(uint64_t x, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        x = (x ^ b[i]) * 1099511628211ull;
    return x;
}

/* --build: the build's time, memory and a digest of the graph (see the header). */
static void bench_build(const char *dir, const char *name)
{
    ap_map *m;
    double bt[5];
    ap_hier *h = timed_builds(dir, name, 5, bt, &m);
    if (h == NULL)
        return;
    uint64_t x = fnv(1469598103934665603ull, &h->n_nodes, sizeof h->n_nodes);
    x = fnv(x, h->cell, h->n_nodes * sizeof *h->cell);
    x = fnv(x, h->classes, h->n_nodes * sizeof *h->classes);
    x = fnv(x, h->first, (h->n_nodes + 1) * sizeof *h->first);
    for (uint32_t e = 0; e < h->first[h->n_nodes]; e++) {
        x = fnv(x, &h->edges[e].to, sizeof h->edges[e].to);
        x = fnv(x, h->edges[e].cost, sizeof h->edges[e].cost);
    }
    printf("| %s | %dx%d | %.1f | %.1f | %.2f | %u | %u | %016llx |\n", name, m->width, m->height, bt[2], bt[0],
           (double)h->bytes / ((double)m->width * m->height), h->n_nodes, h->first[h->n_nodes],
           (unsigned long long)x);
    fflush(stdout);
    ap_hier_free(h);
    ap_map_free(m);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--build") == 0) {
        const char *dir = getenv("ARCPATH_MOVINGAI") ? getenv("ARCPATH_MOVINGAI") : "../shared/data/movingai";
        printf("| map | size | build median ms | build best ms | bytes/cell | nodes | edges | digest |\n"
               "|---|---|---|---|---|---|---|---|\n");
        for (int i = 2; i < argc; i++)
            bench_build(dir, argv[i]);
        return 0;
    }
    const int per = argc > 1 && atoi(argv[1]) > 0 ? atoi(argv[1]) : 40;
    const char *dir = getenv("ARCPATH_MOVINGAI") ? getenv("ARCPATH_MOVINGAI") : "../shared/data/movingai";
    static const char *defaults[] = {"den520d", "brc202d", "orz100d", "hrt201n", "lak303d", "ost003d",
                                     "arena2",  "AR0011SR", "AR0603SR", "battleground"};
    const char *const *maps = argc > 2 ? (const char *const *)argv + 2 : defaults;
    const size_t n_maps = argc > 2 ? (size_t)(argc - 2) : sizeof defaults / sizeof *defaults;
    printf("| map | hier build ms | hier bytes/cell | radius | lines | miss | astar median µs | astar p95 µs | "
           "hier median µs | hier p95 µs | speed-up | astar search µs | hier search µs | search speed-up | "
           "excess none mean / max %% | excess los mean / max %% | taut: astar median µs | hier median µs | "
           "speed-up | excess taut mean / max %% | passes: astar search µs | hier search µs | search speed-up |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < n_maps; i++)
        bench_map(dir, maps[i], per);
    return 0;
}
