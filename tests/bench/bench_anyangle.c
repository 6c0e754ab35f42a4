/* bench_anyangle.c — the any-angle planner (planner/anyangle): median microseconds per query and build
 * milliseconds on random circle worlds and on Moving AI scenario lines.
 *
 *   arcpath-bench-anyangle [movingai_dir] [max_lines] [only]   (default ../shared/data/movingai, 200 lines
 *                                                              per map, every case)
 *
 * only: run just the cases whose label contains it (e.g. "den520d r=0.00", "n=1000 (side 316) lazy"); the
 * other circle worlds are still generated (not searched, no eager table), so every case sees the same world
 * and queries as in a full run.
 *
 * Circle worlds: 100 / 1,000 / 10,000 circles of radius uniform in [0.5, 2] at a constant density (world
 * side 10 sqrt(n) tiles, fixed seed), unit radius 0.25 (ARCPATH_BENCH_CIRCLE_RADIUS: another, 0 = a point unit
 * under the point rule); queries between random free points (fixed seed).
 * Lazy: the search computes a circle's surfing edges when it first reaches it (per query); eager: the
 * graph's table (ap_aa_graph_precompute, counted in build) for 100 and 1,000 circles; 10,000 lazy only.
 * Grids (eager, whatever their size): den520d, arena2, Berlin_0_256, AR0011SR, brc202d, Paris_1_1024,
 * every k-th scenario line (cell centre to cell centre) for a point unit, then the same maps for a unit of
 * radius 0.5 (lines whose start or goal fails the graph's test are skipped). Build = ap_aa_graph_* plus
 * ap_aa_query_create. Each query is timed alone (ap_clock_ns, CLOCK_MONOTONIC). Uses only planner/.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../planner/anyangle/anyangle.h"
#include "../../planner/base/status.h"
#include "../../planner/search/search.h"
#include "../../planner/world/circles.h"
#include "../../planner/world/map.h"

static const char *only; /* run only the cases whose label contains this, or NULL */

static bool selected(const char *label)
{
    return only == NULL || strstr(label, only) != NULL;
}

static unsigned long long rng_state = 0x2545F4914F6CDD1Dull;

static double rand01(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

static double now_us(void)
{
    return (double)ap_clock_ns() / 1e3;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Time the queries (sx, sy, gx, gy) x n on graph g; prints one line. */
static void run_queries(const char *label, const ap_aa_graph *g, double build_ms, const double (*p)[4], size_t n)
{
    ap_aa_query *q;
    double t0 = now_us();
    if (ap_aa_query_create(g, &q) != AP_OK) {
        printf("%s: out of memory\n", label);
        return;
    }
    build_ms += (now_us() - t0) / 1e3;
    double *us = malloc((n > 0 ? n : 1) * sizeof *us);
    size_t ok = 0, none = 0;
    uint64_t exp = 0;
    double len = 0.0;
    for (size_t i = 0; i < n; i++) {
        ap_aa_result res;
        double a = now_us();
        int st = ap_aa_find(q, p[i][0], p[i][1], p[i][2], p[i][3], 0, &res);
        us[ok + none] = now_us() - a;
        if (st == AP_OK) {
            ok++;
            len += res.length;
            exp += res.expanded;
        } else if (st == AP_NO_PATH) {
            none++;
        }
    }
    printf("%-34s build %9.2f ms  queries %4zu (%zu no_path)  median %10.1f us  mean expansions %8.1f  "
           "checksum %.3f\n",
           label, build_ms, ok + none, none, median(us, ok + none), ok ? (double)exp / (double)ok : 0.0, len);
    free(us);
    ap_aa_query_free(q);
}

/* The unit radius of the circle-world cases: ARCPATH_BENCH_CIRCLE_RADIUS (tiles, >= 0), default 0.25 (0 runs
 * the point rule, circles.h's ap_circle_world_point_segment_ok). */
static double circle_radius(void)
{
    const char *e = getenv("ARCPATH_BENCH_CIRCLE_RADIUS");
    double r = e != NULL ? strtod(e, NULL) : 0.25;
    return isfinite(r) && r >= 0.0 ? r : 0.25;
}

static void circle_world(size_t n, size_t queries, bool eager)
{
    double side = 10.0 * sqrt((double)n);
    ap_circle *c = malloc(n * sizeof *c);
    for (size_t i = 0; i < n; i++)
        c[i] = (ap_circle){rand01() * side, rand01() * side, 0.5 + 1.5 * rand01()};
    double t0 = now_us();
    ap_circle_world *cw;
    ap_aa_graph *g;
    if (ap_circle_world_create(side, side, c, n, &cw, NULL, 0, NULL, 0) != AP_OK ||
        ap_aa_graph_circles(cw, circle_radius(), &g) != AP_OK) {
        printf("circles %zu: build failed\n", n);
        free(c);
        return;
    }
    char label[64];
    snprintf(label, sizeof label, "circles n=%zu (side %.0f) r=%.2f %s", n, side, circle_radius(), eager ? "eager" : "lazy");
    if (eager && selected(label) && ap_aa_graph_precompute(g) != AP_OK)
        printf("circles %zu: eager table out of memory, lazy\n", n);
    double build_ms = (now_us() - t0) / 1e3;
    double (*p)[4] = malloc(queries * sizeof *p);
    for (size_t i = 0; i < queries; i++)
        for (int k = 0; k < 2; k++) {
            double x, y;
            do {
                x = rand01() * side;
                y = rand01() * side;
            } while (!g->space.line_ok(g->space.ctx, x, y, x, y));
            p[i][2 * k] = x;
            p[i][2 * k + 1] = y;
        }
    if (selected(label))
        run_queries(label, g, build_ms, (const double(*)[4])p, queries);
    free(p);
    ap_aa_graph_free(g);
    ap_circle_world_free(cw);
    free(c);
}

/* Scenario lines of dir/name.map.scen: every k-th, up to max. */
static size_t read_scen(const char *dir, const char *name, size_t max, double (**out)[4])
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.map.scen", dir, name);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    size_t n = 0, cap = 0;
    double (*all)[4] = NULL;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        int b, w, h, sx, sy, gx, gy;
        char map[256];
        double opt;
        if (sscanf(line, "%d %255s %d %d %d %d %d %d %lf", &b, map, &w, &h, &sx, &sy, &gx, &gy, &opt) != 9)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            all = realloc(all, cap * sizeof *all);
        }
        all[n][0] = sx + 0.5;
        all[n][1] = sy + 0.5;
        all[n][2] = gx + 0.5;
        all[n][3] = gy + 0.5;
        n++;
    }
    fclose(f);
    size_t step = n / max > 0 ? n / max : 1, m = 0;
    for (size_t i = 0; i < n && m < max; i += step)
        memmove(all[m++], all[i], sizeof all[0]);
    *out = all;
    return m;
}

static void grid_map(const char *dir, const char *name, size_t max, double r_u)
{
    char pre[96];
    snprintf(pre, sizeof pre, "%s r=%.2f", name, r_u);
    if (!selected(pre))
        return;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.map", dir, name);
    ap_map *m;
    ap_diag d;
    if (ap_map_load(path, NULL, &m, &d) != AP_OK) {
        printf("%s: not found (%s)\n", name, d.msg);
        return;
    }
    double (*p)[4] = NULL;
    size_t n = read_scen(dir, name, max, &p);
    double t0 = now_us();
    ap_aa_graph *g;
    if (ap_aa_graph_grid(m, r_u, &g) != AP_OK || ap_aa_graph_precompute(g) != AP_OK) {
        printf("%s: graph failed\n", name);
        ap_map_free(m);
        free(p);
        return;
    }
    double build_ms = (now_us() - t0) / 1e3;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (g->space.line_ok(g->space.ctx, p[i][0], p[i][1], p[i][0], p[i][1]) &&
            g->space.line_ok(g->space.ctx, p[i][2], p[i][3], p[i][2], p[i][3]))
            memmove(p[k++], p[i], sizeof p[0]);
    char label[96];
    snprintf(label, sizeof label, "%s r=%.2f (%zu corners)", name, r_u, g->n);
    run_queries(label, g, build_ms, (const double(*)[4])p, k);
    ap_aa_graph_free(g);
    ap_map_free(m);
    free(p);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../shared/data/movingai";
    size_t max = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 200;
    only = argc > 3 ? argv[3] : NULL;
    for (int eager = 0; eager < 2; eager++) {
        unsigned long long seed = rng_state; /* the same worlds and queries lazy and eager */
        circle_world(100, 200, eager);
        circle_world(1000, 100, eager);
        if (!eager)
            circle_world(10000, 20, false);
        if (!eager)
            rng_state = seed;
    }
    /* The anchor maps (ENLSVG figures), point unit; then the same maps at radius 0.5. */
    const char *maps[] = {"den520d", "arena2", "Berlin_0_256", "AR0011SR", "brc202d", "Paris_1_1024"};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
            grid_map(dir, maps[i], max, k == 0 ? 0.0 : 0.5);
    return 0;
}
