/* bench_gzip.c — what gzip costs an answer: ap_gzip_compress (server/gzip.h) at each deflate level on one
 * answer body, microseconds per compression (median of the runs) and the compressed size.
 *
 *   arcpath-bench-gzip FILE [RUNS]     (FILE: an answer body, e.g. the 78 KB demo maze answer; RUNS
 *                                       default 200)
 *
 * tools/bench.sh fetches the body from a demo-maps arcpathd and prints these lines for BENCHMARKS.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../server/gzip.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: arcpath-bench-gzip FILE [RUNS]\n");
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 200;
    if (runs < 1 || runs > 100000)
        runs = 200;
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL) {
        perror(argv[1]);
        return 1;
    }
    static char body[1 << 24];
    size_t len = fread(body, 1, sizeof body, f);
    fclose(f);
    double *t = malloc((size_t)runs * sizeof *t);
    if (t == NULL)
        return 1;
    printf("level\tbytes_in\tbytes_out\tratio\tmedian_us\tMB_per_s\n");
    for (int level = 1; level <= 9; level++) {
        size_t out = 0;
        for (int i = 0; i < runs; i++) {
            double t0 = now_us();
            char *z = ap_gzip_compress(body, len, level, &out);
            t[i] = now_us() - t0;
            free(z);
        }
        qsort(t, (size_t)runs, sizeof *t, cmp_double);
        double med = t[runs / 2];
        printf("%d\t%zu\t%zu\t%.3f\t%.0f\t%.0f\n", level, len, out, (double)out / (double)len, med,
               (double)len / med);
    }
    free(t);
    return 0;
}
