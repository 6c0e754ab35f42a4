/* bench_longrange.c — turning units across whole maps (issue "Units of every size, terrain and range"): random
 * far-apart start/goal pairs (at least half the map's larger side apart) between which a disc of radius 3 has
 * a grid path (3 tiles of clearance), unit radius 0.4, turning radius 1, 2 and 4 tiles, search.algorithm
 * auto (hybrid, then Directional24 in a corridor beyond the window). Prints per map and radius: answered ok,
 * answers failing the exact legality check (must be 0), median / p95 ms. Target: median <= 20 ms on
 * Paris_1_1024. Usage: arcpath-bench-longrange [N [MAP ...]] (N pairs per map, default 20). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../planner/plan/plan.h"
#include "../../planner/world/collide.h"
#include "bench_util.h"

static uint64_t rng_state = 88172645463325252ull;
static double rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

static int run(const ap_query *q, ap_workspace *ws, ap_result *r)
{
    double ms;
    return ap_bench_run(q, ws, r, &ms);
}

/* The exact guarantees of a legal-turn answer (bench_util.h); the reason printed under VERBOSE. */
static bool legal(const ap_query *q, const ap_result *r)
{
    const char *why = ap_bench_illegal(q, r);
    if (why != NULL && getenv("VERBOSE"))
        fprintf(stderr, "illegal: %s\n", why);
    return why == NULL;
}

int main(int argc, char **argv)
{
    int per = argc > 1 ? atoi(argv[1]) : 20;
    const char *dir = getenv("ARCPATH_MOVINGAI") ? getenv("ARCPATH_MOVINGAI") : "../shared/data/movingai";
    static const char *defaults[] = {"Paris_1_1024", "den520d", "brc202d", "AR0011SR"};
    const char *const *maps = argc > 2 ? (const char *const *)argv + 2 : defaults;
    size_t n_maps = argc > 2 ? (size_t)(argc - 2) : sizeof defaults / sizeof *defaults;
    static const double Rs[] = {1.0, 2.0, 4.0};
    printf("| map | turning radius | pairs | ok | illegal | median ms | p95 ms | max ms |\n|---|---|---|---|---|---|---|---|\n");
    for (size_t mi = 0; mi < n_maps; mi++) {
        ap_map *m = ap_bench_load_map(dir, maps[mi]);
        if (m == NULL)
            return 1;
        ap_workspace ws;
        uint32_t cap = ap_map_node_count(m) > AP_PLAN_MIN_WORKSPACE_NODES ? ap_map_node_count(m) : AP_PLAN_MIN_WORKSPACE_NODES;
        if (ap_workspace_init(&ws, cap, AP_PLAN_MAX_SUCC) != AP_OK) /* as the server sizes its workspaces */
            return 1;
        double far = 0.5 * (m->width > m->height ? m->width : m->height);
        /* pairs with a radius-3 grid path */
        double (*pairs)[4] = per > 0 ? malloc((size_t)per * sizeof *pairs) : NULL;
        if (pairs == NULL) {
            fprintf(stderr, "per must be a positive count (out of memory, or %d)\n", per);
            return 1;
        }
        int np = 0;
        for (int tries = 0; np < per && tries < 200 * per; tries++) {
            double sx = floor(rnd() * m->width) + 0.5, sy = floor(rnd() * m->height) + 0.5;
            double gx = floor(rnd() * m->width) + 0.5, gy = floor(rnd() * m->height) + 0.5;
            if (hypot(gx - sx, gy - sy) < far)
                continue;
            ap_query q = {0};
            q.map = m;
            q.sx = sx, q.sy = sy, q.gx = gx, q.gy = gy;
            q.unit_radius = 3.0;
            q.connectivity = 8;
            q.algorithm = AP_ALG_ASTAR;
            ap_result r;
            if (run(&q, &ws, &r) == AP_OK)
                pairs[np][0] = sx, pairs[np][1] = sy, pairs[np][2] = gx, pairs[np][3] = gy, np++;
            ap_result_free(&r);
        }
        for (size_t ri = 0; ri < sizeof Rs / sizeof *Rs; ri++) {
            double *ms = malloc((size_t)(np ? np : 1) * sizeof *ms);
            if (ms == NULL)
                return 1;
            int ok = 0, bad = 0;
            for (int i = 0; i < np; i++) {
                ap_query q = {0};
                q.map = m;
                q.sx = pairs[i][0], q.sy = pairs[i][1], q.gx = pairs[i][2], q.gy = pairs[i][3];
                q.unit_radius = 0.4;
                q.turning_radius = Rs[ri];
                q.connectivity = 8;
                q.smoothing = AP_SMOOTH_LOS;
                q.algorithm = getenv("ALG") ? (ap_algorithm)atoi(getenv("ALG")) : AP_ALG_AUTO;
                ap_result r;
                double t0 = ap_bench_now_ms();
                int st = run(&q, &ws, &r);
                ms[i] = ap_bench_now_ms() - t0;
                if (getenv("VERBOSE"))
                    fprintf(stderr, "%s R=%g: status %d, %.1f ms, %llu expanded, length %.1f\n", maps[mi], Rs[ri], st,
                            ms[i], (unsigned long long)r.expanded, r.length);
                if (st == AP_OK) {
                    ok++;
                    if (!legal(&q, &r)) {
                        bad++;
                        if (getenv("VERBOSE"))
                            fprintf(stderr, "  query (%.1f, %.1f) -> (%.1f, %.1f) R=%g\n", q.sx, q.sy, q.gx, q.gy, Rs[ri]);
                    }
                } else if (getenv("VERBOSE")) {
                    fprintf(stderr, "%s R=%g (%g,%g)->(%g,%g): status %d %s %s\n", maps[mi], Rs[ri], q.sx, q.sy,
                            q.gx, q.gy, st, r.field ? r.field : "", r.message);
                }
                ap_result_free(&r);
            }
            qsort(ms, (size_t)np, sizeof *ms, ap_bench_cmp_double);
            printf("| %s | %g | %d | %d | %d | %.1f | %.1f | %.1f |\n", maps[mi], Rs[ri], np, ok, bad,
                   np ? ms[np / 2] : 0.0, np ? ms[(int)(0.95 * (np - 1))] : 0.0, np ? ms[np - 1] : 0.0);
            fflush(stdout);
            free(ms);
        }
        free(pairs);
        ap_workspace_free(&ws);
        ap_map_free(m);
    }
    return 0;
}
