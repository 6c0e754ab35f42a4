/* bench_kino.c — the kinodynamic search (planner/kino, search.algorithm "kinodynamic") on the setup of
 * Schnieders' Table 5.3 ("AIPATH", 2014, 5.1 and 5.4): an open plane, a car starting at rest or moving
 * (random speed), goals at a random distance of 0-8 turning radii with a random heading and speed; turning
 * radius 5-8 m and lateral limit 10-20 m/s^2 drawn per query; the limits 5.1 keeps for all its tests, speed
 * 13.8 m/s, acceleration 1.5 m/s^2, braking 5 m/s^2 (until the fifteenth session this bench drove arcpath's
 * car, 14 m/s, 3 and 6 m/s^2: BENCHMARKS.md's earlier sections); one metre per tile. Two goal tolerances:
 * the thesis's (0.3 steps = 0.375 tiles, 1 degree, 0.1 m/s) and arcpath's defaults (0.5 tiles, 0.1 rad,
 * 0.5 m/s). Iteration cap 100,000 (thesis). For each: median / mean /
 * p95 ms per query, mean iterations, ms per 1000 iterations, misses (no path within the cap); with the time
 * heuristic, with it over the Dubins length too (not admissible with tolerances), and with distance /
 * max_speed (the thesis's comparison). Usage: arcpath-bench-kino [N [HEADING_BINS SPEED_BINS [VSCALE]]]
 * (queries per row, default 200; bins 0 = the defaults; VSCALE scales the random start and goal speeds,
 * default 1, 0 = start and goal at rest; ARCPATH_BENCH_ROW=K runs the K-th row only, 0-based, for profiles;
 * ARCPATH_BENCH_TRACE=1 prints a line a query on stderr: row, query, 1 proven / 2 capped with a path /
 * 0 none, iterations, travel time, ms, then the heuristic at the start (s), the goal's distance (tiles), the
 * turning radius, the start and goal speeds and the lateral limit; tools/bench/kino_bands.py groups them).
 * Targets (issue 11): 1000 iterations <= 0.4 ms, median query <= 1 ms.
 *
 * arcpath-bench-kino cap [N]: A* under expansion caps of 300 .. 100,000 (the plan's "capped" answers: the
 * best path found when the cap stops A* after it reached the goal) against a 400,000 reference, goal heading
 * required: answered, proven, median ms, travel-time excess over the proven reference.
 *
 * arcpath-bench-kino weight [N]: weighted A* (search.weight 1.1 .. 3 at the default cap, and 1.5 and 2 at a
 * 300 cap) on the same draws against the same reference, in the same columns.
 *
 * arcpath-bench-kino thousand [N]: the thesis's measure of an iteration's cost (5.3.1, Figure 5.7: "5000
 * searches with 1000 iterations each", 10.8 ms a search, 8 ms median), which it took on its EM5 curves
 * (arcpath-bench-corridor thousand), here on the open plane: each query of the Table 5.3 draws (time
 * heuristic, goal heading required) run under an expansion cap of 1,000; over the searches that ran all 1,000
 * iterations (the others ended sooner: found the goal, or proved it), the median, mean and p95 of the whole
 * search's time (init, begin, the iterations, free). Target (issue 11): <= 0.4 ms.
 *
 * arcpath-bench-kino probe [N]: A* against the probing search (thesis 4.4 and 5.6, Tables 5.7 and 5.8) on the
 * same draws: A* alone (time heuristic), the probe alone (ap_kino_probe, guided as plan_kino.c guides it),
 * and Algorithm 1 (the probe, then A* seeded with its states when it misses: search.probe). Per row: how
 * many probes reach the goal; over the queries both the probe and A* solve, mean iterations of each and the
 * reduction, mean travel time of each and the probe's mean per-query overhead (and the ratio of the means);
 * median ms of each over all queries; where the missed probes stopped (median distance to the goal, tiles). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../planner/kino/analytic.h"
#include "../../planner/kino/kino.h"
#include "../../planner/plan/plan.h"
#include "bench_util.h"
#include "../../planner/plan/plan_steps.h"

#define SIDE 160

static unsigned long long rng = 12345;
static double rnd(void)
{
    return ap_bench_rnd(&rng);
}

#define cmp ap_bench_cmp_double

typedef struct row {
    const char *name;
    double tol_pos, tol_h, tol_v;
    ap_kino_heuristic_kind h;
} row;

/* The Table 5.3 rows: two goal tolerances, three heuristics. */
static const row table53_rows[] = {
    {"time, thesis tolerances", 0.375, M_PI / 180.0, 0.1, AP_KINO_H_TIME},
    {"time+dubins, thesis tolerances", 0.375, M_PI / 180.0, 0.1, AP_KINO_H_DUBINS},
    {"time, arcpath defaults", 0.5, 0.1, 0.5, AP_KINO_H_TIME},
    {"time+dubins, arcpath defaults", 0.5, 0.1, 0.5, AP_KINO_H_DUBINS},
    {"distance / v_max, arcpath defaults", 0.5, 0.1, 0.5, AP_KINO_H_DISTANCE},
};

/* One query through the domain on the search core (what plan_kino.c does, with the heuristic switch the
 * plan does not expose), its open list seeded with the n states of a probe (none: seed NULL, n 0). Returns 1
 * when found (*dur its time), 2 when the cap stopped it after it had reached the goal (*dur the best time
 * found: plan_kino.c's "capped" answer), else 0; *it += expansions. */
static int one(ap_workspace *ws, const ap_kino_params *kp, uint64_t cap, const ap_kino_state *seed, int n,
               uint64_t *it, double *dur)
{
    ap_kino_domain d;
    ap_domain dom;
    ap_search s;
    if (ap_kino_init(&d, &dom, kp, ws->capacity) != AP_OK || ap_search_begin(&s, ws, &dom, AP_KINO_START, AP_KINO_GOAL, 0) != AP_OK)
        return -1;
    ap_kino_bind(&d, &s);
    ap_kino_seed(&d, &s, seed, n);
    int st = ap_search_run(&s, cap);
    *it += s.expanded;
    const double gg = ap_search_g(&s, AP_KINO_GOAL);
    *dur = st == AP_OK ? s.cost : st == AP_IN_PROGRESS && gg < INFINITY ? gg : 0.0;
    ap_kino_free(&d);
    return st == AP_OK ? 1 : st == AP_IN_PROGRESS && gg < INFINITY ? 2 : 0;
}

/* The next query of the Table 5.3 draws (rng): turning radius 5-8 m and lateral limit 10-20 m/s^2, the goal
 * 0-8 turning radii away in a random direction with a random heading, random start heading, start and goal
 * speeds in [0, 13.8 vscale] m/s; the thesis's limits (5.1: 13.8 m/s, 1.5 m/s^2 up, 5 down); the given
 * tolerances, goal heading and heuristic. */
static ap_kino_params draw_query(const ap_query *q, double tol_pos, double tol_h, double tol_v, bool has_gh,
                                 ap_kino_heuristic_kind h, int hb, int sb, double vscale)
{
    double tr = 5.0 + 3.0 * rnd(), lat = 10.0 + 10.0 * rnd();
    double dist = 8.0 * tr * rnd(), ang = 2 * M_PI * rnd();
    const double sh = 2 * M_PI * rnd() - M_PI, sv = 13.8 * vscale * rnd();
    const double gh = 2 * M_PI * rnd() - M_PI, gv = 13.8 * vscale * rnd();
    ap_kino_params kp = {.veh = {13.8, 1.5, 5.0, lat}, .meters_per_tile = 1.0, .turning_radius = tr,
                         .sx = SIDE / 2.0, .sy = SIDE / 2.0, .sh = sh, .sv = sv, .gx = SIDE / 2.0 + dist * cos(ang),
                         .gy = SIDE / 2.0 + dist * sin(ang), .gh = gh, .gv = gv, .has_gh = has_gh,
                         .tol_pos = tol_pos, .tol_heading = tol_h, .tol_speed = tol_v, .heuristic = h,
                         .heading_bins = hb, .speed_bins = sb};
    ap_plan_world(q, false, &kp.world, &kp.radius);
    return kp;
}

/* The probe alone, guided as plan_kino.c guides it. Returns 1 when it reached the goal; *it = its steps. */
static int probe_only(const ap_kino_params *kp, ap_kino_state *buf, uint64_t *it, double *dur, int *n_out)
{
    ap_kino_params pp = *kp;
    pp.heuristic = AP_KINO_H_DUBINS;
    bool reached = false;
    int exp = 0;
    ap_kino_tail tail; /* the analytic last edge, as plan_kino.c runs the probe */
    const int n = ap_kino_probe(&pp, buf, AP_KINO_PROBE_STEPS + 1, &reached, &exp, &tail);
    *it = (uint64_t)exp;
    *dur = 0.0;
    for (int i = 1; i < n; i++)
        *dur += buf[i].dt;
    *n_out = n;
    return reached;
}

/* Algorithm 1 (search.probe): the probe; when it misses, A* seeded with its states. */
static int probe_then_astar(ap_workspace *ws, const ap_kino_params *kp, ap_kino_state *buf, uint64_t cap,
                            uint64_t *it, double *dur)
{
    int n = 0;
    if (probe_only(kp, buf, it, dur, &n))
        return 1;
    return one(ws, kp, cap > *it ? cap - *it : 1, buf, n, it, dur);
}

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

/* The A* / probe table (Tables 5.7 and 5.8). */
static void probe_table(ap_workspace *ws, ap_query *q, int n)
{
    typedef struct prow {
        const char *name;
        double tol_pos, tol_h, tol_v;
        bool has_gh;
    } prow;
    const prow rows[] = {
        {"thesis tolerances, goal heading", 0.375, M_PI / 180.0, 0.1, true},
        {"arcpath defaults, goal heading", 0.5, 0.1, 0.5, true},
        {"thesis tolerances, free goal heading", 0.375, M_PI / 180.0, 0.1, false},
        {"arcpath defaults, free goal heading", 0.5, 0.1, 0.5, false},
    };
    ap_kino_state *buf = malloc((AP_KINO_PROBE_STEPS + 2) * sizeof *buf); /* (ap_kino_probe with a tail) */
    double *ms[3] = {malloc((size_t)n * sizeof(double)), malloc((size_t)n * sizeof(double)), malloc((size_t)n * sizeof(double))};
    FILE *trace = ap_bench_trace();
    printf("A* vs probing search, Table 5.3 setup, %d queries per row, cap 100000 iterations\n", n);
    printf("%-36s %9s %6s %10s %9s %8s %9s %9s %9s %9s %9s %9s %9s %9s\n", "row", "reached", "both", "A* it", "probe it",
           "reduct", "A* t s", "probe t s", "overhead", "ovh ratio", "A* med ms", "probe ms", "alg1 ms", "miss d");
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        rng = 12345;
        int reached = 0, both = 0, missed = 0;
        double ita = 0, itp = 0, ta = 0, tp = 0, ovh = 0;
        double *miss_d = malloc((size_t)n * sizeof *miss_d);
        for (int i = 0; i < n; i++) {
            ap_kino_params kp = draw_query(q, rows[r].tol_pos, rows[r].tol_h, rows[r].tol_v, rows[r].has_gh,
                                           AP_KINO_H_TIME, 0, 0, 1.0);
            uint64_t it_a = 0, it_p = 0, it_1 = 0;
            double dur_a = 0, dur_p = 0, dur_1 = 0;
            int np = 0;
            uint64_t t0 = ap_clock_ns();
            int ok_a = one(ws, &kp, 100000, NULL, 0, &it_a, &dur_a);
            uint64_t t1 = ap_clock_ns();
            int ok_p = probe_only(&kp, buf, &it_p, &dur_p, &np);
            uint64_t t2 = ap_clock_ns();
            probe_then_astar(ws, &kp, buf, 100000, &it_1, &dur_1);
            uint64_t t3 = ap_clock_ns();
            ms[0][i] = (double)(t1 - t0) / 1e6;
            ms[1][i] = (double)(t2 - t1) / 1e6;
            ms[2][i] = (double)(t3 - t2) / 1e6;
            if (trace != NULL)
                fprintf(trace, "probe %zu %d A* %d %llu %.17g probe %d %llu %.17g alg1 %llu %.17g\n", r, i, ok_a,
                        (unsigned long long)it_a, dur_a, ok_p, (unsigned long long)it_p, dur_p,
                        (unsigned long long)it_1, dur_1);
            reached += ok_p == 1;
            if (ok_p != 1)
                miss_d[missed++] = hypot(buf[np - 1].x - kp.gx, buf[np - 1].y - kp.gy);
            if (ok_a == 1 && ok_p == 1) {
                both++;
                ita += (double)it_a;
                itp += (double)it_p;
                ta += dur_a;
                tp += dur_p;
                ovh += dur_a > 0 ? dur_p / dur_a - 1.0 : 0.0;
            }
        }
        char rs[32];
        snprintf(rs, sizeof rs, "%d/%d", reached, n);
        const double b = both > 0 ? both : 1;
        printf("%-36s %9s %6d %10.0f %9.1f %7.2f%% %9.2f %9.2f %8.1f%% %8.1f%% %9.3f %9.4f %9.3f %9.2f\n", rows[r].name,
               rs, both, ita / b, itp / b, ita > 0 ? 100.0 * (1.0 - itp / ita) : 0.0, ta / b, tp / b, 100.0 * ovh / b,
               ta > 0 ? 100.0 * (tp / ta - 1.0) : 0.0, median_of(ms[0], n), median_of(ms[1], n), median_of(ms[2], n),
               missed > 0 ? median_of(miss_d, missed) : 0.0);
        free(miss_d);
        fflush(stdout);
    }
    for (int k = 0; k < 3; k++)
        free(ms[k]);
    free(buf);
}

/* One setting of the cap or weight tables: an expansion cap and a weight (kino.h ap_kino_params.weight). */
typedef struct setting {
    uint64_t cap;
    double weight;
} setting;

/* Answers under settings (caps, weights) against a reference: each query of the Table 5.3 draws (goal heading
 * required, time heuristic) run to a reference cap of 400,000 expansions at weight 1, then with each
 * setting; per setting: how many queries answer ok (proven, or capped with the goal reached), how many of
 * those are proven (A* ended by popping the goal: at a weight above 1, by its own weighted order), the
 * median ms, and the travel time's excess over the proven reference (median, mean, max %). */
static void setting_table(ap_workspace *ws, ap_query *q, int n, const char *title, const setting *set, int ns)
{
    enum { NC_MAX = 8 };
    if (ns > NC_MAX)
        ns = NC_MAX;
    typedef struct crow {
        const char *name;
        double tol_pos, tol_h, tol_v;
    } crow;
    const crow rows[] = {{"thesis tolerances", 0.375, M_PI / 180.0, 0.1}, {"arcpath defaults", 0.5, 0.1, 0.5}};
    double *ref = malloc((size_t)n * sizeof *ref), *ms = malloc((size_t)n * sizeof *ms);
    double *excs = malloc((size_t)n * sizeof *excs);
    double(*dur)[NC_MAX] = malloc((size_t)n * sizeof *dur), (*msc)[NC_MAX] = malloc((size_t)n * sizeof *msc);
    int(*okc)[NC_MAX] = malloc((size_t)n * sizeof *okc);
    FILE *trace = ap_bench_trace();
    printf("%s, Table 5.3 setup, goal heading, %d queries per row\n", title, n);
    printf("%-20s %8s %6s %9s %8s %9s %9s %11s %11s %11s\n", "row", "cap", "weight", "answered", "proven", "med ms",
           "compared", "median exc %", "mean exc %", "max exc %");
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        rng = 12345;
        int ref_proven = 0;
        for (int i = 0; i < n; i++) {
            ap_kino_params kp = draw_query(q, rows[r].tol_pos, rows[r].tol_h, rows[r].tol_v, true,
                                           AP_KINO_H_TIME, 0, 0, 1.0);
            uint64_t it = 0;
            ref[i] = -1.0;
            if (one(ws, &kp, 400000, NULL, 0, &it, &ref[i]) == 1)
                ref_proven++;
            else
                ref[i] = -1.0;
            for (int c = 0; c < ns; c++) {
                it = 0;
                kp.weight = set[c].weight;
                const uint64_t t0 = ap_clock_ns();
                okc[i][c] = one(ws, &kp, set[c].cap, NULL, 0, &it, &dur[i][c]);
                msc[i][c] = (double)(ap_clock_ns() - t0) / 1e6;
                if (trace != NULL)
                    fprintf(trace, "set %zu %d %llu %g %d %.17g %.17g %llu\n", r, i, (unsigned long long)set[c].cap,
                            set[c].weight, okc[i][c], dur[i][c], ref[i], (unsigned long long)it);
            }
        }
        printf("%-20s %8d %6s %9d %8d %9s %9s %11s %11s %11s\n", rows[r].name, 400000, "1", ref_proven, ref_proven,
               "-", "-", "-", "-", "-");
        for (int c = 0; c < ns; c++) {
            int answered = 0, proven = 0, compared = 0;
            double exc = 0.0, worst = 0.0;
            for (int i = 0; i < n; i++) {
                ms[i] = msc[i][c];
                answered += okc[i][c] != 0;
                proven += okc[i][c] == 1;
                if (okc[i][c] != 0 && ref[i] > 0.0) {
                    const double e = 100.0 * (dur[i][c] / ref[i] - 1.0);
                    excs[compared++] = e;
                    exc += e;
                    worst = fmax(worst, e);
                }
            }
            printf("%-20s %8llu %6g %9d %8d %9.3f %9d %11.2f %11.2f %11.2f\n", rows[r].name,
                   (unsigned long long)set[c].cap, set[c].weight, answered, proven, median_of(ms, n), compared,
                   compared ? median_of(excs, compared) : 0.0, compared ? exc / compared : 0.0, worst);
        }
        fflush(stdout);
    }
    free(ref);
    free(ms);
    free(excs);
    free(dur);
    free(msc);
    free(okc);
}

/* arcpath-bench-kino thousand (the file comment): per tolerance row, the searches of exactly 1,000 iterations. */
static void thousand_table(ap_workspace *ws, const ap_query *q, int n)
{
    static const row *const trows[] = {&table53_rows[0], &table53_rows[2]}; /* the time heuristic's two tolerances */
    printf("searches of 1,000 iterations (the thesis's measure, 5.3.1 Figure 5.7, on the open plane), Table 5.3 draws, %d queries per row\n", n);
    printf("%-36s %9s %8s %8s %8s\n", "row", "searches", "med ms", "mean ms", "p95 ms");
    for (size_t r = 0; r < sizeof trows / sizeof trows[0]; r++) {
        rng = 12345;
        double *ms = malloc((size_t)n * sizeof *ms), sum = 0.0;
        int m = 0;
        for (int i = 0; i < n; i++) {
            ap_kino_params kp = draw_query(q, trows[r]->tol_pos, trows[r]->tol_h, trows[r]->tol_v, true, trows[r]->h, 0, 0, 1.0);
            uint64_t it = 0;
            double dur = 0.0;
            const uint64_t t0 = ap_clock_ns();
            (void)one(ws, &kp, 1000, NULL, 0, &it, &dur);
            const double t = (double)(ap_clock_ns() - t0) / 1e6;
            if (it == 1000) {
                ms[m++] = t;
                sum += t;
            }
        }
        if (m > 0) {
            qsort(ms, (size_t)m, sizeof *ms, cmp);
            printf("%-36s %9d %8.3f %8.3f %8.3f\n", trows[r]->name, m, ms[m / 2], sum / m, ms[(size_t)(0.95 * (m - 1))]);
        }
        free(ms);
    }
}

int main(int argc, char **argv)
{
    const bool capmode = argc > 1 && strcmp(argv[1], "cap") == 0;
    const bool weightmode = argc > 1 && strcmp(argv[1], "weight") == 0;
    const bool thousand = argc > 1 && strcmp(argv[1], "thousand") == 0;
    if (capmode || weightmode || thousand) {
        argv++;
        argc--;
    }
    const bool probe = argc > 1 && strcmp(argv[1], "probe") == 0;
    if (probe) {
        argv++;
        argc--;
    }
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
    if (capmode || weightmode) {
        static const setting caps[] = {{300, 1.0}, {1000, 1.0}, {3000, 1.0}, {10000, 1.0}, {100000, 1.0}};
        static const setting weights[] = {{100000, 1.1}, {100000, 1.2}, {100000, 1.5}, {100000, 2.0},
                                          {100000, 3.0}, {300, 1.5}, {300, 2.0}};
        if (capmode)
            setting_table(&ws, &q, n, "A* under an expansion cap (capped answers)", caps, 5);
        else
            setting_table(&ws, &q, n, "Weighted A* (search.weight)", weights, 7);
        ap_workspace_free(&ws);
        ap_map_free(m);
        return 0;
    }
    if (thousand) {
        thousand_table(&ws, &q, n);
        ap_workspace_free(&ws);
        ap_map_free(m);
        return 0;
    }
    if (probe) {
        probe_table(&ws, &q, n);
        ap_workspace_free(&ws);
        ap_map_free(m);
        return 0;
    }
    FILE *trace = ap_bench_trace();
    const char *only_row = getenv("ARCPATH_BENCH_ROW");
    printf("kinodynamic, Table 5.3 setup, %d queries per row, cap 100000 iterations\n", n);
    printf("%-36s %8s %8s %8s %10s %12s %7s %9s\n", "row", "med ms", "mean ms", "p95 ms", "mean it", "ms/1000 it",
           "misses", "mean t s");
    for (size_t r = 0; r < sizeof table53_rows / sizeof table53_rows[0]; r++) {
        if (only_row != NULL && (size_t)atoi(only_row) != r)
            continue;
        rng = 12345;
        double *ms = malloc((size_t)n * sizeof *ms), total_ms = 0.0, dur_sum = 0.0;
        uint64_t it_sum = 0;
        int miss = 0, found = 0;
        for (int i = 0; i < n; i++) {
            ap_kino_params kp = draw_query(&q, table53_rows[r].tol_pos, table53_rows[r].tol_h, table53_rows[r].tol_v, true, table53_rows[r].h, hb,
                                           sb, vscale);
            uint64_t it = 0;
            double dur = 0.0;
            uint64_t t0 = ap_clock_ns();
            int ok = one(&ws, &kp, 100000, NULL, 0, &it, &dur);
            ms[i] = (double)(ap_clock_ns() - t0) / 1e6;
            total_ms += ms[i];
            if (trace != NULL) {
                /* (the query and the heuristic at its start: tools/bench/kino_bands.py groups them) */
                const ap_kino_params pp = ap_kino_prepare(&kp);
                fprintf(trace,
                        "astar %zu %d %d %llu %.17g %.6f h0 %.17g dist %.6f R %.6f sv %.6f gv %.6f lat %.6f\n", r, i, ok,
                        (unsigned long long)it, dur, ms[i], ap_kino_heuristic(&pp, kp.sx, kp.sy, kp.sh, kp.sv),
                        hypot(kp.gx - kp.sx, kp.gy - kp.sy), kp.turning_radius, kp.sv, kp.gv,
                        kp.veh.max_lateral_accel);
            }
            it_sum += it;
            if (ok == 1) {
                found++;
                dur_sum += dur;
            } else
                miss++;
        }
        qsort(ms, (size_t)n, sizeof *ms, cmp);
        printf("%-36s %8.3f %8.3f %8.3f %10.0f %12.3f %7d %9.2f\n", table53_rows[r].name, ms[n / 2], total_ms / n,
               ms[(size_t)(0.95 * (n - 1))], (double)it_sum / n, it_sum ? total_ms / ((double)it_sum / 1000.0) : 0.0,
               miss, found ? dur_sum / found : 0.0);
        free(ms);
    }
    ap_workspace_free(&ws);
    ap_map_free(m);
    return 0;
}
