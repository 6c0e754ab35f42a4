/* bench_util.h — what the kinodynamic benchmarks share: a fixed-seed generator (so every run draws the same
 * queries) and a comparison for qsort of doubles (medians). Header-only: each bench is one program. */
#ifndef AP_BENCH_UTIL_H
#define AP_BENCH_UTIL_H

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

#endif
