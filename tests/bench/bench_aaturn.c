/* bench_aaturn.c — any_angle for turning units (anyangle/turning.h) against Directional24 on Moving AI
 * scenario lines: every k-th line (cell centre to cell centre), unit radius 0.4, turning radius 1 and 2,
 * free end headings (and with VARIANT=headings a start heading of 0 and a goal heading of pi/2). Prints per
 * map and radius: lines, answered by each, the length ratio any_angle / directional24 on lines both answer
 * (mean, max, min), any_angle's ratio to the unit's disc's any_angle length (no turning radius: a lower
 * bound), answers failing the exact legality check (must be 0), median ms of each and the first
 * any_angle query's ms (it builds the map's graph for that radius, kept for the map's lifetime).
 *
 *   arcpath-bench-aaturn [lines_per_map [MAP ...]]   (default 100 lines; den520d arena2 Berlin_0_256)
 *
 * VERBOSE=1: the lines any_angle does not answer and those where it is over 1.2x Directional24's length.
 *
 * Uses only planner/. Each query timed alone (CLOCK_MONOTONIC) through the plan API as the server runs it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../planner/plan/plan.h"
#include "../../planner/world/collide.h"
#include "../util.h"
#include "bench_util.h"

static double median(double *v, size_t n)
{
    if (n == 0)
        return 0.0;
    qsort(v, n, sizeof *v, ap_bench_cmp_double);
    return v[n / 2];
}

#define run ap_bench_run
#define legal(q, r) (ap_bench_illegal(q, r) == NULL)

int main(int argc, char **argv)
{
    const int per = argc > 1 ? atoi(argv[1]) : 100;
    const char *dir = ap_test_data_dir();
    if (dir == NULL)
        return 1;
    static const char *defaults[] = {"den520d", "arena2", "Berlin_0_256"};
    const char *const *maps = argc > 2 ? (const char *const *)argv + 2 : defaults;
    const size_t n_maps = argc > 2 ? (size_t)(argc - 2) : sizeof defaults / sizeof *defaults;
    const bool headings = getenv("VARIANT") != NULL && strcmp(getenv("VARIANT"), "headings") == 0;
    static const double Rs[] = {1.0, 2.0};
    printf("unit radius 0.4, %s\n", headings ? "start heading 0, goal heading pi/2" : "free end headings");
    printf("| map | R | lines | any_angle ok | D24 ok | both | aa/D24 mean | max | min | aa/disc mean | illegal | "
           "aa median ms | D24 median ms | aa first ms |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t mi = 0; mi < n_maps; mi++) {
        ap_map *m = ap_bench_load_map(dir, maps[mi]);
        if (m == NULL)
            return 1;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.map.scen", dir, maps[mi]);
        ap_test_scen *sc;
        size_t n;
        if (ap_test_load_scen(path, &sc, &n) != 0)
            return 1;
        ap_workspace ws;
        uint32_t cap = ap_map_node_count(m) > AP_PLAN_MIN_WORKSPACE_NODES ? ap_map_node_count(m) : AP_PLAN_MIN_WORKSPACE_NODES;
        if (ap_workspace_init(&ws, cap, AP_PLAN_MAX_SUCC) != AP_OK) /* as the server sizes its workspaces */
            return 1;
        const size_t step = n / (size_t)per > 0 ? n / (size_t)per : 1;
        for (size_t ri = 0; ri < sizeof Rs / sizeof *Rs; ri++) {
            double *ta = malloc((size_t)per * sizeof *ta), *td = malloc((size_t)per * sizeof *td), first = -1.0;
            int lines = 0, ok_a = 0, ok_d = 0, both = 0, illegal = 0, n_disc = 0;
            double sum = 0.0, mx = 0.0, mn = INFINITY, sum_disc = 0.0;
            for (size_t i = 0; i < n && lines < per; i += step, lines++) {
                const ap_test_scen *s = &sc[i];
                ap_query q = {.map = m, .sx = s->sx + 0.5, .sy = s->sy + 0.5, .gx = s->gx + 0.5, .gy = s->gy + 0.5,
                              .unit_radius = 0.4, .turning_radius = Rs[ri], .connectivity = 8,
                              .smoothing = AP_SMOOTH_LOS, .algorithm = AP_ALG_ANY_ANGLE};
                q.has_sheading = q.has_gheading = headings;
                q.gheading = M_PI_2;
                ap_result ra, rd, rl;
                int sa = run(&q, &ws, &ra, &ta[lines]);
                if (first < 0.0)
                    first = ta[lines];
                q.algorithm = AP_ALG_DIRECTIONAL24;
                int sd = run(&q, &ws, &rd, &td[lines]);
                ok_a += sa == AP_OK;
                ok_d += sd == AP_OK;
                illegal += (sa == AP_OK && !legal(&q, &ra)) + (sd == AP_OK && !legal(&q, &rd));
                if (sa == AP_OK && sd == AP_OK && rd.length > 0.0) {
                    const double ratio = ra.length / rd.length;
                    both++;
                    sum += ratio;
                    mx = fmax(mx, ratio);
                    mn = fmin(mn, ratio);
                    if (getenv("VERBOSE") && ratio > 1.2)
                        fprintf(stderr, "%s R=%g line %d (%g,%g)->(%g,%g): any_angle %.3f, D24 %.3f (x %.3f)\n", maps[mi],
                                Rs[ri], s->line, q.sx, q.sy, q.gx, q.gy, ra.length, rd.length, ratio);
                }
                q.algorithm = AP_ALG_ANY_ANGLE;
                q.turning_radius = 0.0;
                double tl;
                if (sa == AP_OK && run(&q, &ws, &rl, &tl) == AP_OK && rl.length > 0.0) {
                    sum_disc += ra.length / rl.length;
                    n_disc++;
                }
                if (sa == AP_OK)
                    ap_result_free(&rl);
                if (getenv("VERBOSE") && sa != AP_OK)
                    fprintf(stderr, "%s R=%g line %d (%g,%g)->(%g,%g): any_angle %d, D24 %d\n", maps[mi], Rs[ri],
                            s->line, q.sx, q.sy, q.gx, q.gy, sa, sd);
                ap_result_free(&ra);
                ap_result_free(&rd);
            }
            printf("| %s | %g | %d | %d | %d | %d | %.3f | %.3f | %.3f | %.3f | %d | %.2f | %.2f | %.1f |\n", maps[mi],
                   Rs[ri], lines, ok_a, ok_d, both, both ? sum / both : 0.0, mx, both ? mn : 0.0,
                   n_disc ? sum_disc / n_disc : 0.0, illegal, median(ta + 1, (size_t)(lines - 1)),
                   median(td, (size_t)lines), first);
            fflush(stdout);
            free(ta);
            free(td);
        }
        ap_workspace_free(&ws);
        free(sc);
        ap_map_free(m);
    }
    return 0;
}
