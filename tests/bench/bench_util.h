/* bench_util.h — what the benchmarks share: a fixed-seed generator (every run draws the same queries), a
 * monotonic clock in ms, a comparison for qsort of doubles (medians), one plan run to its end, and the exact
 * legality check of a legal-turn answer. Header-only: each bench is one program linking the planner. */
#ifndef AP_BENCH_UTIL_H
#define AP_BENCH_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../planner/plan/plan.h"
#include "../../planner/world/collide.h"

/* The next uniform double in [0, 1) of the 64-bit LCG *state (Knuth's MMIX constants). */
static inline double ap_bench_rnd(unsigned long long *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) / 9007199254740992.0;
}

/* qsort comparison of doubles, ascending. */
static inline int ap_bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Where a bench writes one line per query (iterations, travel times to 17 digits) for comparing two builds
 * line by line (tools: run the old and the new binary on the same draws and diff the lines): stderr when the
 * environment variable ARCPATH_BENCH_TRACE is set, else NULL (no lines). */
static inline FILE *ap_bench_trace(void)
{
    return getenv("ARCPATH_BENCH_TRACE") != NULL ? stderr : NULL;
}

/* Monotonic time in milliseconds. */
static inline double ap_bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Load dir/name.map (Moving AI) with the default options; NULL (and a line on stderr) when it fails. The
 * caller frees the map. */
static inline ap_map *ap_bench_load_map(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.map", dir, name);
    ap_map *m;
    ap_diag dg;
    if (ap_map_load(path, NULL, &m, &dg) != AP_OK) {
        fprintf(stderr, "cannot load %s\n", path);
        return NULL;
    }
    return m;
}

/* Plan q to its end on ws (begin, unbounded steps, finish) into *r (caller frees); *ms the wall time. Returns
 * r->status. */
static inline int ap_bench_run(const ap_query *q, ap_workspace *ws, ap_result *r, double *ms)
{
    const double t0 = ap_bench_now_ms();
    ap_plan p;
    int st = ap_plan_begin(&p, q, ws, 0);
    while (st == AP_IN_PROGRESS)
        st = ap_plan_step(&p, 0);
    ap_plan_finish(&p, r);
    *ms = ap_bench_now_ms() - t0;
    return r->status;
}

/* Why the answer r of a forward legal-turn query q is not legal by exact geometry, or NULL when it is: the
 * ends (1e-9 / 1e-6 tiles) and the headings asked for (1e-6 rad), every segment clear for the unit's disc
 * (collide.h ap_segment_clear) and driven forward, arcs of at least the turning radius, G1 joins. */
static inline const char *ap_bench_illegal(const ap_query *q, const ap_result *r)
{
    const ap_segment *s = r->segments;
    const size_t n = r->n_segments;
    if (n == 0 || hypot(s[0].x0 - q->sx, s[0].y0 - q->sy) > 1e-9)
        return "start";
    if (hypot(s[n - 1].x1 - q->gx, s[n - 1].y1 - q->gy) > 1e-6)
        return "goal";
    if (q->has_sheading && fabs(ap_angle_wrap(s[0].heading - q->sheading)) > 1e-6)
        return "start heading";
    if (q->has_gheading && fabs(ap_angle_wrap(ap_segment_end_heading(&s[n - 1]) - q->gheading)) > 1e-6)
        return "goal heading";
    for (size_t i = 0; i < n; i++) {
        if (!ap_segment_clear(q->map, &s[i], q->unit_radius))
            return "not clear";
        if (s[i].reverse)
            return "reverse";
        if (s[i].type == AP_SEG_ARC && s[i].radius < q->turning_radius - 1e-9)
            return "radius";
        if (i > 0 && hypot(s[i].x0 - s[i - 1].x1, s[i].y0 - s[i - 1].y1) > 1e-6)
            return "gap";
        if (i > 0 && fabs(ap_angle_wrap(s[i].heading - ap_segment_end_heading(&s[i - 1]))) > 1e-6)
            return "heading jump";
    }
    return NULL;
}

#endif
