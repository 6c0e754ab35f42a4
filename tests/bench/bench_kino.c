/* bench_kino.c — the kinodynamic search (planner/kino, search.algorithm "kinodynamic") on the setup of
 * Schnieders' Table 5.3 ("AIPATH", 2014, 5.1 and 5.4): an open plane, a car starting at rest or moving
 * (random speed), goals at a random distance of 0-8 turning radii with a random heading and speed; turning
 * radius 5-8 m and lateral limit 10-20 m/s^2 drawn per query, speed 14 m/s, acceleration 3, braking 6 m/s^2;
 * one metre per tile. Two goal tolerances: the thesis's (0.3 steps = 0.375 tiles, 1 degree, 0.1 m/s) and
 * arcpath's defaults (0.5 tiles, 0.1 rad, 0.5 m/s). Iteration cap 100,000 (thesis). For each: median / mean /
 * p95 ms per query, mean iterations, ms per 1000 iterations, misses (no path within the cap); with the time
 * heuristic, with it over the Dubins length too (not admissible with tolerances), and with distance /
 * max_speed (the thesis's comparison). Usage: arcpath-bench-kino [N [HEADING_BINS SPEED_BINS [VSCALE]]]
 * (queries per row, default 200; bins 0 = the defaults; VSCALE scales the random start and goal speeds,
 * default 1, 0 = start and goal at rest). Targets (issue 11): 1000 iterations <= 0.4 ms, median query <= 1 ms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../planner/kino/kino.h"
#include "../../planner/plan/plan.h"
#include "../../planner/plan/plan_steps.h"

#define SIDE 160

static unsigned long long rng = 12345;
static double rnd(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct row {
    const char *name;
    double tol_pos, tol_h, tol_v;
    ap_kino_heuristic_kind h;
} row;

/* One query through the domain on the search core (what plan_kino.c does, with the heuristic switch the
 * plan does not expose). Returns 1 when found; *it = expansions. */
static int one(ap_workspace *ws, const ap_kino_params *kp, uint64_t cap, uint64_t *it, double *dur)
{
    ap_kino_domain d;
    ap_domain dom;
    ap_search s;
    if (ap_kino_init(&d, &dom, kp, ws->capacity) != AP_OK || ap_search_begin(&s, ws, &dom, AP_KINO_START, AP_KINO_GOAL, 0) != AP_OK)
        return -1;
    ap_kino_bind(&d, &s);
    int st = ap_search_run(&s, cap);
    *it = s.expanded;
    *dur = st == AP_OK ? s.cost : 0.0;
    ap_kino_free(&d);
    return st == AP_OK;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    const int hb = argc > 2 ? atoi(argv[2]) : 0, sb = argc > 3 ? atoi(argv[3]) : 0; /* 0 = the defaults */
    const double vscale = argc > 4 ? atof(argv[4]) : 1.0; /* start and goal speeds drawn in [0, 14 vscale] */
    if (n < 1)
        n = 1;
    char *text = malloc((size_t)SIDE * (SIDE + 1) + 64);
    int k = sprintf(text, "type octile\nheight %d\nwidth %d\nmap\n", SIDE, SIDE);
    for (int y = 0; y < SIDE; y++) {
        memset(text + k, '.', SIDE);
        k += SIDE;
        text[k++] = '\n';
    }
    ap_map *m = NULL;
    ap_diag dg;
    if (ap_map_parse("plane", "plane", text, (size_t)k, NULL, &m, &dg) != AP_OK) {
        fprintf(stderr, "map: %s\n", dg.msg);
        return 1;
    }
    free(text);
    ap_workspace ws;
    if (ap_workspace_init(&ws, 1u << 21, AP_PLAN_MAX_SUCC) != AP_OK)
        return 1;
    ap_query q = {.map = m, .unit_radius = 0.0};
    const row rows[] = {
        {"time, thesis tolerances", 0.375, M_PI / 180.0, 0.1, AP_KINO_H_TIME},
        {"time+dubins, thesis tolerances", 0.375, M_PI / 180.0, 0.1, AP_KINO_H_DUBINS},
        {"time, arcpath defaults", 0.5, 0.1, 0.5, AP_KINO_H_TIME},
        {"time+dubins, arcpath defaults", 0.5, 0.1, 0.5, AP_KINO_H_DUBINS},
        {"distance / v_max, arcpath defaults", 0.5, 0.1, 0.5, AP_KINO_H_DISTANCE},
    };
    printf("kinodynamic, Table 5.3 setup, %d queries per row, cap 100000 iterations\n", n);
    printf("%-36s %8s %8s %8s %10s %12s %7s %9s\n", "row", "med ms", "mean ms", "p95 ms", "mean it", "ms/1000 it",
           "misses", "mean t s");
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        rng = 12345;
        double *ms = malloc((size_t)n * sizeof *ms), total_ms = 0.0, dur_sum = 0.0;
        uint64_t it_sum = 0;
        int miss = 0, found = 0;
        for (int i = 0; i < n; i++) {
            double tr = 5.0 + 3.0 * rnd(), lat = 10.0 + 10.0 * rnd();
            double dist = 8.0 * tr * rnd(), ang = 2 * M_PI * rnd();
            ap_kino_params kp = {.veh = {14.0, 3.0, 6.0, lat}, .meters_per_tile = 1.0, .turning_radius = tr,
                                 .sx = SIDE / 2.0, .sy = SIDE / 2.0, .sh = 2 * M_PI * rnd() - M_PI,
                                 .sv = 14.0 * vscale * rnd(), .gx = SIDE / 2.0 + dist * cos(ang),
                                 .gy = SIDE / 2.0 + dist * sin(ang), .gh = 2 * M_PI * rnd() - M_PI,
                                 .gv = 14.0 * vscale * rnd(), .has_gh = true, .tol_pos = rows[r].tol_pos,
                                 .tol_heading = rows[r].tol_h, .tol_speed = rows[r].tol_v,
                                 .heuristic = rows[r].h, .heading_bins = hb, .speed_bins = sb};
            ap_plan_world(&q, false, &kp.world, &kp.radius);
            uint64_t it = 0;
            double dur = 0.0;
            uint64_t t0 = ap_clock_ns();
            int ok = one(&ws, &kp, 100000, &it, &dur);
            ms[i] = (double)(ap_clock_ns() - t0) / 1e6;
            total_ms += ms[i];
            it_sum += it;
            if (ok == 1) {
                found++;
                dur_sum += dur;
            } else
                miss++;
        }
        qsort(ms, (size_t)n, sizeof *ms, cmp);
        printf("%-36s %8.3f %8.3f %8.3f %10.0f %12.3f %7d %9.2f\n", rows[r].name, ms[n / 2], total_ms / n,
               ms[(size_t)(0.95 * (n - 1))], (double)it_sum / n, it_sum ? total_ms / ((double)it_sum / 1000.0) : 0.0,
               miss, found ? dur_sum / found : 0.0);
        free(ms);
    }
    ap_workspace_free(&ws);
    ap_map_free(m);
    return 0;
}
