/* bench_corridor.c — corridor mode (issue 11 item 6; Schnieders, "AIPATH", 5.3, the EM5 local planner) beside
 * the thesis's Tables 5.1 and 5.2, through the plan API as the service runs it (search.algorithm
 * kinodynamic with a "corridor", on an open 200 x 200 field at one metre a tile).
 *
 * Table 5.1 setup: a 30 m straight street segment, then a 90 degree right curve of radius 8 m (the EM5 ideal
 * line: the centre line, the arc as 32 chords); a car (20 m/s, 3 m/s^2 up, 6 down, lateral limit 25 m/s^2,
 * turning radius 5 m: the thesis's ideal line takes 0.89 s over 12.56 m, about 14 m/s, the speed a lateral
 * limit of 25 allows on an 8 m arc, and its planned curves are faster, so its car was faster than that)
 * enters on the centre line at 14 m/s and must leave the curve on it, facing along it (0.375 m, 1 degree;
 * any speed); the usable width w_u (the largest distance of the unit's centre from the centre line)
 * 0.6 .. 6.0 m. The ideal line's time is the time-optimal profile along it (kino/timing.h); arcpath's is
 * A*'s optimum over its lattice (search.probe off). Table 5.2: the four common EM5 curve types (90 degree
 * turns of radius 6 / 13 / 8 / 15 m, right / left), 100 queries each with start speed = goal speed drawn in
 * 4-12 m/s, acceleration 1.5-3 m/s^2, turning radius 4-6 m, lateral limit 10-20 m/s^2, w_u 1.8 m: mean A*
 * iterations and median ms (with how many queries have no path: the search ran out of states before its
 * cap, and how many reached the cap), the same with search.weight 1.5 (and its mean travel time over A*'s
 * answer where both answered) and with search.probe; then the same draws for the curve alone, as the
 * thesis's local planner plans it (5.3: from the curve's beginning; here one start on the centre line) with
 * its goal test (5.1: 0.375 m, 1 degree, 0.1 m/s). Usage: arcpath-bench-corridor [N] (queries per curve
 * type, default 100).
 *
 * arcpath-bench-corridor thousand [N]: the thesis's measure of an iteration's cost where it took it (5.3.1,
 * Figure 5.7: "5000 searches with 1000 iterations each" of these curves, 10.8 ms a search, 8 ms median): the
 * Table 5.2 draws (N per curve type, default 200) under an expansion cap of 1,000; over the searches that
 * ran all 1,000 iterations (the others found the goal sooner), the median, mean and p95 ms of the whole plan
 * (ap_plan_begin to ap_plan_finish: the zone's piece grid, the search, the answer). Target (issue 11):
 * <= 0.4 ms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../planner/base/clock.h"
#include "../../planner/kino/timing.h"
#include "../../planner/plan/plan.h"
#include "bench_util.h"
#include "../../planner/world/zone.h"

#define SIDE 200

static unsigned long long rng = 4242;
static double rnd(void)
{
    return ap_bench_rnd(&rng);
}

#define cmp ap_bench_cmp_double

/* A street: straight from (x0, y0) heading east for `straight` m, then a 90 degree curve of radius rc, right
 * (+y, sign 1) or left (-y, sign -1). Fills z's centre line; *gx, *gy, *gh get the curve's end pose. */
static void street(ap_zone *z, double x0, double y0, double straight, double rc, int sign, double *gx, double *gy,
                   double *gh)
{
    z->n = 0;
    z->pts[z->n][0] = x0;
    z->pts[z->n++][1] = y0;
    const double cx = x0 + straight, cy = y0 + sign * rc;
    for (int i = 0; i <= 32; i++) {
        const double a = -sign * M_PI / 2 + sign * i * (M_PI / 2) / 32;
        z->pts[z->n][0] = cx + rc * cos(a);
        z->pts[z->n++][1] = cy + rc * sin(a);
    }
    *gx = cx + rc;
    *gy = cy;
    *gh = sign * M_PI / 2;
}

static int run(const ap_query *q, ap_workspace *ws, ap_result *r, double *ms)
{
    ap_plan p;
    uint64_t t0 = ap_clock_ns();
    int st = ap_plan_begin(&p, q, ws, 0);
    while (st == AP_IN_PROGRESS)
        st = ap_plan_step(&p, 0);
    ap_plan_finish(&p, r);
    *ms = (double)(ap_clock_ns() - t0) / 1e6;
    return r->status;
}

/* The four common EM5 curve types of Table 5.2. */
static const struct {
    const char *name;
    double rc;
    int sign, thesis_it;
} types[] = {{"short right", 6.0, 1, 230}, {"short left", 13.0, -1, 1161}, {"long right", 8.0, 1, 678},
             {"long left", 15.0, -1, 2323}};

/* The next Table 5.2 query (rng) on map m through zone z (the street of curve type t, usable width 1.8 m,
 * filled here): start speed = goal speed in 4-12 m/s, acceleration 1.5-3 m/s^2, lateral limit 10-20 m/s^2,
 * turning radius 4-6 m; cap expansions. The start is on the centre line 30 m before the curve (the goal with
 * arcpath's default tolerances), or with curve_only at the curve's beginning, as the thesis's local planner
 * plans the curve segment alone (5.3), with the thesis's goal test (5.1). */
static ap_query table52_query(const ap_map *m, ap_zone *z, size_t t, uint64_t cap, bool curve_only)
{
    double gx, gy, gh;
    street(z, 20.0, 100.0, 30.0, types[t].rc, types[t].sign, &gx, &gy, &gh);
    z->half = 1.8;
    const double v = 4.0 + 8.0 * rnd();
    ap_query q = {0};
    q.map = m;
    q.zone = z;
    q.algorithm = AP_ALG_KINODYNAMIC;
    q.connectivity = 8;
    q.vehicle = (ap_vehicle){14.0, 1.5 + 1.5 * rnd(), 6.0, 10.0 + 10.0 * rnd(), 4.0, 0.0};
    q.turning_radius = 4.0 + 2.0 * rnd();
    q.sx = curve_only ? 50.0 : 20.0, q.sy = 100.0, q.sheading = 0.0, q.has_sheading = true, q.start_speed = v;
    q.gx = gx, q.gy = gy, q.gheading = gh, q.has_gheading = true, q.goal_speed = v;
    if (curve_only) /* the thesis's goal test (5.1): 0.3 steps of 1.25 m, 1 degree, 0.1 m/s */
        q.tol_position = 0.375, q.tol_heading = M_PI / 180.0, q.tol_speed = 0.1;
    q.max_expansions = cap;
    return q;
}

/* arcpath-bench-corridor thousand (the file comment). */
static void thousand_table(const ap_map *m, ap_workspace *ws, int n, FILE *trace)
{
    printf("searches of 1,000 iterations (thesis 5.3.1, Figure 5.7), Table 5.2 draws, %d queries per curve type\n", n);
    printf("curve type                searches   med ms  mean ms   p95 ms\n");
    double *ms = malloc((size_t)n * sizeof *ms), *all = malloc(4 * (size_t)n * sizeof *all);
    int na = 0;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        int k = 0;
        for (int i = 0; i < n; i++) {
            ap_zone z;
            const ap_query q = table52_query(m, &z, t, 1000, false);
            ap_result r;
            double one;
            const int st = run(&q, ws, &r, &one);
            if (trace != NULL)
                fprintf(trace, "k52 %zu %d %d %llu %.17g\n", t, i, st, (unsigned long long)r.expanded, r.duration_s);
            if (r.expanded == 1000)
                ms[k++] = all[na++] = one;
            ap_result_free(&r);
        }
        double sum = 0.0;
        for (int i = 0; i < k; i++)
            sum += ms[i];
        qsort(ms, (size_t)k, sizeof *ms, cmp);
        if (k > 0)
            printf("%-24s %9d %8.3f %8.3f %8.3f\n", types[t].name, k, ms[k / 2], sum / k, ms[(k * 95) / 100]);
    }
    double sum = 0.0;
    for (int i = 0; i < na; i++)
        sum += all[i];
    qsort(all, (size_t)na, sizeof *all, cmp);
    if (na > 0)
        printf("%-24s %9d %8.3f %8.3f %8.3f\n", "all", na, all[na / 2], sum / na, all[(na * 95) / 100]);
    free(ms);
    free(all);
}

/* The Table 5.2 rows (the file comment) on map m, n queries per curve type, from 30 m before the curve or with
 * curve_only from its beginning; per-query lines to trace when non-NULL. */
static void table52(const ap_map *m, ap_workspace *ws, int n, bool curve_only, FILE *trace)
{
    ap_zone z;
    rng = 4242; /* the same draws for both starts */
    if (curve_only)
        printf("\nTable 5.2 setup, the curve alone (start at its beginning on the centre line; %d queries per curve "
               "type, w_u 1.8 m)\n", n);
    else
        printf("\nTable 5.2 setup (start 30 m before the curve; %d queries per curve type, w_u 1.8 m)\n", n);
    printf("| curve type | radius m | A*: found / no path / capped | mean iterations | median ms | weight 1.5: "
           "found | mean iterations | median ms | travel over A* | probe: reached | probe: median ms | thesis: mean "
           "iterations |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    double *ms = malloc((size_t)n * sizeof *ms), *pms = malloc((size_t)n * sizeof *pms),
           *wms = malloc((size_t)n * sizeof *wms);
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        int found = 0, none = 0, reached = 0, wfound = 0, both = 0;
        double it = 0.0, wit = 0.0, over = 0.0;
        for (int i = 0; i < n; i++) {
            ap_query q = table52_query(m, &z, t, 100000, curve_only);
            ap_result r;
            const int st = run(&q, ws, &r, &ms[i]);
            const double opt = r.duration_s;
            if (st == AP_OK) {
                found++;
                it += (double)r.expanded;
            } else if (st == AP_NO_PATH && r.expanded < q.max_expansions) {
                none++; /* the search ran out of states before the cap: no path over the states it keeps */
            }
            if (trace != NULL)
                fprintf(trace, "%s %zu %d A* %d %llu %.17g", curve_only ? "c52" : "t52", t, i, r.status,
                        (unsigned long long)r.expanded, r.duration_s);
            ap_result_free(&r);
            /* weighted A* (search.weight 1.5): the answer a game server would ask for when the optimum's proof
             * costs too much */
            q.weight = 1.5;
            const int wst = run(&q, ws, &r, &wms[i]);
            if (wst == AP_OK) {
                wfound++;
                wit += (double)r.expanded;
                if (st == AP_OK) {
                    both++;
                    over += r.duration_s / opt - 1.0;
                }
            }
            if (trace != NULL)
                fprintf(trace, " w1.5 %d %llu %.17g", r.status, (unsigned long long)r.expanded, r.duration_s);
            ap_result_free(&r);
            q.weight = 0.0;
            q.probe = true;
            if (run(&q, ws, &r, &pms[i]) == AP_OK && r.probe)
                reached++;
            if (trace != NULL)
                fprintf(trace, " probe %d %d %llu %.17g\n", r.status, r.probe, (unsigned long long)r.expanded,
                        r.duration_s);
            ap_result_free(&r);
        }
        qsort(ms, (size_t)n, sizeof *ms, cmp);
        qsort(wms, (size_t)n, sizeof *wms, cmp);
        qsort(pms, (size_t)n, sizeof *pms, cmp);
        printf("| %s | %.0f | %d / %d / %d | %.0f | %.2f | %d | %.0f | %.3f | %+.1f %% | %d / %d | %.3f | %d |\n",
               types[t].name, types[t].rc, found, none, n - found - none, found ? it / found : 0.0, ms[n / 2], wfound,
               wfound ? wit / wfound : 0.0, wms[n / 2], both ? 100.0 * over / both : 0.0, reached, n, pms[n / 2],
               types[t].thesis_it);
        fflush(stdout);
    }
    free(wms);
    free(ms);
    free(pms);
}

int main(int argc, char **argv)
{
    const bool thousand = argc > 1 && strcmp(argv[1], "thousand") == 0;
    if (thousand) {
        argc--;
        argv++;
    }
    const int n = argc > 1 ? atoi(argv[1]) : (thousand ? 200 : 100);
    FILE *trace = ap_bench_trace();
    size_t len = (size_t)(SIDE + 1) * SIDE + 64;
    char *text = malloc(len);
    int k = snprintf(text, len, "type octile\nheight %d\nwidth %d\nmap\n", SIDE, SIDE);
    for (int y = 0; y < SIDE; y++) {
        memset(text + k, '.', SIDE);
        k += SIDE;
        text[k++] = '\n';
    }
    ap_map *m;
    ap_diag dg;
    if (ap_map_parse("field", "field", text, (size_t)k, NULL, &m, &dg) != AP_OK)
        return 1;
    free(text);
    ap_workspace ws;
    if (ap_workspace_init(&ws, 1u << 20, AP_PLAN_MAX_SUCC) != AP_OK)
        return 1;
    if (thousand) {
        thousand_table(m, &ws, n, trace);
        ap_workspace_free(&ws);
        ap_map_free(m);
        return 0;
    }

    /* Table 5.1 */
    static const double thesis_len[] = {12.68, 13.38, 13.62, 12.39, 12.39, 12.32, 12.24, 12.16, 11.69, 11.59};
    static const double thesis_t[] = {0.73, 0.78, 0.73, 0.65, 0.72, 0.67, 0.64, 0.71, 0.64, 0.61};
    const ap_vehicle car = {20.0, 3.0, 6.0, 25.0, 4.0, 0.0};
    ap_zone z;
    double gx, gy, gh;
    street(&z, 20.0, 40.0, 30.0, 8.0, 1, &gx, &gy, &gh);
    ap_segment ideal[2] = {ap_segment_line(20.0, 40.0, 50.0, 40.0), ap_segment_arc(50.0, 40.0, 0.0, 8.0, M_PI / 2)};
    ap_segment *os;
    ap_seg_time *ot;
    size_t on;
    double t_ideal = 0.0;
    if (ap_timing_profile(&car, 1.0, ideal, 2, 14.0, 20.0, &os, &ot, &on, &t_ideal, NULL) != AP_OK)
        return 1;
    double t_ideal_curve = 0.0;
    for (size_t i = 0; i < on; i++)
        if (os[i].type == AP_SEG_ARC)
            t_ideal_curve += ot[i].duration;
    free(os);
    free(ot);
    printf("Table 5.1 setup (30 m straight, 8 m curve; car 20 m/s, 3 / 6 m/s^2, lateral 25 m/s^2, turning radius 5 m)\n");
    printf("| path | length m | travel s (straight + curve) | saved s (%% of the ideal curve's time) | thesis: length m (curve) | travel s (curve) | improvement |\n");
    printf("|---|---|---|---|---|---|---|\n");
    printf("| ideal line (centre line, time-optimal profile) | %.2f | %.3f (curve %.3f) | 0 | 12.56 | 0.89 | 0 %% |\n",
           30.0 + 4.0 * M_PI, t_ideal, t_ideal_curve);
    for (int w = 1; w <= 10; w++) {
        z.half = 0.6 * w;
        ap_query q = {0};
        q.map = m;
        q.zone = &z;
        q.algorithm = AP_ALG_KINODYNAMIC;
        q.connectivity = 8;
        q.vehicle = car;
        q.turning_radius = 5.0;
        q.sx = 20.0, q.sy = 40.0, q.sheading = 0.0, q.has_sheading = true, q.start_speed = 14.0;
        q.gx = gx, q.gy = gy, q.gheading = gh, q.has_gheading = true, q.goal_speed = 10.0;
        q.tol_position = 0.375, q.tol_heading = M_PI / 180.0, q.tol_speed = 10.0;
        q.max_expansions = 200000;
        ap_result r;
        double ms;
        int st = run(&q, &ws, &r, &ms);
        if (trace != NULL)
            fprintf(trace, "t51 %d %d %llu %.17g %.17g\n", w, st, (unsigned long long)r.expanded, r.duration_s, r.length);
        if (st == AP_OK)
            printf("| w_u %.1f m | %.2f | %.3f | %.3f (%.1f %%) | %.2f | %.2f | %.2f %% |\n", z.half, r.length, r.duration_s,
                   t_ideal - r.duration_s, 100.0 * (t_ideal - r.duration_s) / t_ideal_curve, thesis_len[w - 1],
                   thesis_t[w - 1], 100.0 * (1.0 - thesis_t[w - 1] / 0.89));
        else
            printf("| w_u %.1f m | no path (status %d, %.0f ms) | | | %.2f | %.2f | |\n", z.half, st, ms, thesis_len[w - 1],
                   thesis_t[w - 1]);
        ap_result_free(&r);
        fflush(stdout);
    }

    table52(m, &ws, n, false, trace);
    table52(m, &ws, n, true, trace);
    ap_workspace_free(&ws);
    ap_map_free(m);
    return 0;
}
