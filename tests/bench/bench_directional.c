/* bench_directional.c — Directional8/24/48 and hybrid on DAO maps (den520d, arena2, brc202d): scenario
 * queries of at most 40 tiles, unit radius 0.3, turning radius 1, 2 and 4 tiles; median / p95 ms and
 * expansions per algorithm, table build ms and bytes per profile. Usage: arcpath-bench-directional [N]
 * (N queries per map, default 30). Anchors: Pinter 2001 (hybrid 6 / 85 / 200 ms); targets hybrid median
 * <= 1 ms, Directional24 median <= 5 ms, table build <= 50 ms per profile. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../planner/plan/plan.h"
#include "../../planner/turns/profile.h"

/* The bench links only the planner library: its own small scenario reader ("version 1" lines: bucket, map,
 * width, height, start x, y, goal x, y, optimal length). */
typedef struct scen {
    int sx, sy, gx, gy;
    double optimal;
} scen;

static size_t load_scen(const char *path, scen **out)
{
    FILE *f = fopen(path, "r");
    *out = NULL;
    if (f == NULL)
        return 0;
    size_t n = 0, cap = 0;
    char line[512], name[256];
    while (fgets(line, sizeof line, f)) {
        scen s;
        int b, w, h;
        if (sscanf(line, "%d %255s %d %d %d %d %d %d %lf", &b, name, &w, &h, &s.sx, &s.sy, &s.gx, &s.gy,
                   &s.optimal) != 9)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            scen *t = realloc(*out, cap * sizeof *t);
            if (t == NULL)
                break;
            *out = t;
        }
        (*out)[n++] = s;
    }
    fclose(f);
    return n;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int per = argc > 1 ? atoi(argv[1]) : 30;
    const char *dir = getenv("ARCPATH_MOVINGAI") ? getenv("ARCPATH_MOVINGAI") : "../shared/data/movingai";
    static const char *maps[] = {"den520d", "arena2", "brc202d"};
    static const double Rs[] = {1.0, 2.0, 4.0};
    static const ap_algorithm algs[] = {AP_ALG_DIRECTIONAL8, AP_ALG_DIRECTIONAL24, AP_ALG_DIRECTIONAL48,
                                        AP_ALG_HYBRID};
    static const char *names[] = {"directional8", "directional24", "directional48", "hybrid"};
    /* Table builds: every profile the queries below use (8 headings), plus 16 headings and reverse. Each is
     * built 3 times: the first build and the best (the machine may be shared; the target is per build). */
    printf("tables (unit radius 0.3; build ms: first / best of 3):\n");
    double worst = 0.0;
    for (int rev = 0; rev <= 1; rev++)
        for (int H = 8; H <= 16; H += 8)
            for (size_t ri = 0; ri < 3; ri++)
                for (int nb = 8; nb <= 48; nb = nb == 8 ? 24 : 48 + (nb == 48)) {
                    ap_profile_key k = {0.3, Rs[ri], H, nb, rev != 0};
                    double first = 0.0, best = 1e30;
                    size_t bytes = 0;
                    uint32_t edges = 0;
                    for (int it = 0; it < 3; it++) {
                        ap_profile *p;
                        if (ap_profile_build(&k, &p) != AP_OK)
                            break;
                        double t = p->build_seconds * 1e3;
                        first = it == 0 ? t : first;
                        best = t < best ? t : best;
                        bytes = p->bytes;
                        edges = p->n_edges;
                        ap_profile_free(p);
                    }
                    worst = best > worst ? best : worst;
                    printf("  R=%g H=%d D%d%s: build %.2f / %.2f ms, %zu bytes, %u edges\n", Rs[ri], H, nb,
                           rev ? " reverse" : "", first, best, bytes, edges);
                    if (nb == 48)
                        break;
                }
    printf("  slowest build (best of 3): %.2f ms (target <= 50 ms)\n", worst);
    for (size_t ri = 0; ri < 3; ri++) {
        for (size_t ai = 0; ai < 4; ai++) {
            double *ms = malloc(sizeof(double) * 3 * (size_t)per), *ex = malloc(sizeof(double) * 3 * (size_t)per);
            int n = 0, ok = 0;
            for (size_t mi = 0; mi < 3; mi++) {
                char path[512];
                snprintf(path, sizeof path, "%s/%s.map", dir, maps[mi]);
                ap_map *m;
                ap_diag dg;
                if (ap_map_load(path, NULL, &m, &dg) != AP_OK)
                    continue;
                snprintf(path, sizeof path, "%s/%s.map.scen", dir, maps[mi]);
                scen *sc;
                size_t ns = load_scen(path, &sc);
                if (ns == 0) {
                    ap_map_free(m);
                    continue;
                }
                ap_workspace ws;
                ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC);
                int taken = 0;
                for (size_t i = 0; i < ns && taken < per; i += 7) {
                    if (sc[i].optimal > 40.0 || sc[i].optimal < 5.0)
                        continue;
                    ap_query q = {0};
                    q.map = m;
                    q.sx = sc[i].sx + 0.5;
                    q.sy = sc[i].sy + 0.5;
                    q.gx = sc[i].gx + 0.5;
                    q.gy = sc[i].gy + 0.5;
                    q.unit_radius = 0.3;
                    q.turning_radius = Rs[ri];
                    q.connectivity = 8;
                    q.smoothing = AP_SMOOTH_LOS;
                    q.algorithm = algs[ai];
                    ap_plan p;
                    ap_result r;
                    uint64_t t0 = ap_clock_ns();
                    int st = ap_plan_begin(&p, &q, &ws, t0 + 2000000000ull);
                    while (st == AP_IN_PROGRESS)
                        st = ap_plan_step(&p, 0);
                    ap_plan_finish(&p, &r);
                    double t = (double)(ap_clock_ns() - t0) / 1e6;
                    ms[n] = t;
                    ex[n] = (double)r.expanded;
                    n++;
                    ok += r.status == AP_OK;
                    taken++;
                    ap_result_free(&r);
                }
                free(sc);
                ap_workspace_free(&ws);
                ap_map_free(m);
            }
            qsort(ms, (size_t)n, sizeof *ms, cmp_d);
            qsort(ex, (size_t)n, sizeof *ex, cmp_d);
            if (n > 0)
                printf("R=%g %-14s n=%3d ok=%3d  median %.3f ms  p95 %.3f ms  expansions median %.0f p95 %.0f\n", Rs[ri],
                       names[ai], n, ok, ms[n / 2], ms[(size_t)(0.95 * (n - 1))], ex[n / 2],
                       ex[(size_t)(0.95 * (n - 1))]);
            free(ms);
            free(ex);
        }
    }
    return 0;
}
