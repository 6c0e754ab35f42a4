/* bench_curves.c — ns per shortest-path query for Dubins and Reeds-Shepp curves, and Pinter's arc+line.
 *
 *   arcpath-bench-curves [N]     (N pose pairs, default 1000000)
 *
 * Inputs (generated before timing, fixed seed): positions uniform in a 60 x 60 tile square, headings uniform
 * in [0, 2pi), turning radius uniform in [0.5, 6]. Each query computes the length and the word
 * (ap_dubins_shortest, ap_reeds_shepp_shortest); ap_curve_arc_line (free final heading) is timed for
 * comparison. A checksum of the lengths keeps the compiler from dropping the calls. Uses only planner/.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../planner/geom/curve.h"
#include "../../planner/geom/dubins.h"
#include "../../planner/geom/reeds_shepp.h"

typedef struct query {
    ap_pose a, b;
    double r;
} query;

static unsigned long long rng_state = 0x9E3779B97F4A7C15ull;

static double rand01(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 1000000;
    if (n == 0)
        n = 1;
    query *q = malloc(n * sizeof *q);
    if (q == NULL)
        return 1;
    for (size_t i = 0; i < n; i++) {
        q[i].a = (ap_pose){60.0 * rand01(), 60.0 * rand01(), 2.0 * M_PI * rand01()};
        q[i].b = (ap_pose){60.0 * rand01(), 60.0 * rand01(), 2.0 * M_PI * rand01()};
        q[i].r = 0.5 + 5.5 * rand01();
    }
    double sum_d = 0.0, sum_rs = 0.0, sum_al = 0.0;
    unsigned words = 0;

    double t0 = now_ns();
    for (size_t i = 0; i < n; i++) {
        ap_dubins d;
        ap_dubins_shortest(&q[i].a, &q[i].b, q[i].r, &d);
        sum_d += d.length;
        words += (unsigned)d.word;
    }
    double t1 = now_ns();
    for (size_t i = 0; i < n; i++) {
        ap_reeds_shepp p;
        ap_reeds_shepp_shortest(&q[i].a, &q[i].b, q[i].r, &p);
        sum_rs += p.length;
        words += (unsigned)p.word[0];
    }
    double t2 = now_ns();
    for (size_t i = 0; i < n; i++) {
        ap_segment s[2];
        size_t k = ap_curve_arc_line(q[i].a.x, q[i].a.y, q[i].a.heading, q[i].b.x, q[i].b.y, q[i].r, s, NULL);
        for (size_t j = 0; j < k; j++)
            sum_al += s[j].length;
    }
    double t3 = now_ns();

    printf("curve queries: %zu random pose pairs (60-tile square, r 0.5-6), -O2, one thread\n", n);
    printf("%-28s %12s %14s\n", "query", "ns/query", "mean length");
    printf("%-28s %12.1f %14.4f\n", "ap_dubins_shortest", (t1 - t0) / (double)n, sum_d / (double)n);
    printf("%-28s %12.1f %14.4f\n", "ap_reeds_shepp_shortest", (t2 - t1) / (double)n, sum_rs / (double)n);
    printf("%-28s %12.1f %14.4f\n", "ap_curve_arc_line", (t3 - t2) / (double)n, sum_al / (double)n);
    fprintf(stderr, "(checksum %u)\n", words);
    free(q);
    return 0;
}
