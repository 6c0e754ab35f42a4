/* bench_clearance.c — build time and memory of the clearance and per-capability region tables.
 *
 *   arcpath-bench-clearance [MAP.map ...]   (default: Paris_1_1024, den520d, battleground from
 *                                            $ARCPATH_MOVINGAI or ../shared/data/movingai, and a generated
 *                                            1024 x 1024 map)
 *
 * For each map and capability (the default {ground, swamp}, and water where the map has water) prints the
 * median of 5 builds of ap_clearance_build (ms), the table's bytes per map cell, and the per-capability
 * region labelling (ms). The generated map: 1024 x 1024, fixed seed, 20 % '@' in random blocks of 1 to 8
 * cells a side and a 200 x 200 lake of 'W', so open areas, walls and water all occur. Uses only planner/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../planner/world/capability.h"
#include "../../planner/world/clearance.h"
#include "../../planner/world/region.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static unsigned long long rng = 0x243F6A8885A308D3ull;
static unsigned rnd(unsigned n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(rng >> 33) % n;
}

static ap_map *generated_1024(void)
{
    const int n = 1024;
    char *grid = malloc((size_t)n * n);
    memset(grid, '.', (size_t)n * n);
    for (long blocked = 0; blocked < (long)n * n / 5;) {
        int s = 1 + (int)rnd(8), x0 = (int)rnd((unsigned)(n - s)), y0 = (int)rnd((unsigned)(n - s));
        for (int y = y0; y < y0 + s; y++)
            for (int x = x0; x < x0 + s; x++)
                if (grid[y * n + x] == '.') {
                    grid[y * n + x] = '@';
                    blocked++;
                }
    }
    for (int y = 400; y < 600; y++)
        memset(grid + y * n + 400, 'W', 200);
    char *text = malloc(64 + (size_t)(n + 1) * n);
    size_t at = (size_t)sprintf(text, "type octile\nheight %d\nwidth %d\nmap\n", n, n);
    for (int y = 0; y < n; y++) {
        memcpy(text + at, grid + y * n, (size_t)n);
        at += (size_t)n;
        text[at++] = '\n';
    }
    free(grid);
    ap_map *m = NULL;
    ap_diag d;
    if (ap_map_parse("generated_1024", "generated", text, at, NULL, &m, &d) != 0)
        fprintf(stderr, "generated map: %s\n", d.msg);
    free(text);
    return m;
}

static void bench(const ap_map *m, ap_capability c)
{
    double t[5], r[5];
    size_t bytes = 0;
    for (int k = 0; k < 5; k++) {
        ap_clearance_table *tab;
        double t0 = now_ms();
        if (ap_clearance_build(m, c, &tab) != 0) {
            fprintf(stderr, "%s: build failed\n", m->id);
            return;
        }
        t[k] = now_ms() - t0;
        bytes = ap_clearance_bytes(tab->cells);
        ap_clearance_free(tab);
        uint8_t *mask = malloc(ap_map_node_count(m));
        ap_map_table slot = {0};
        t0 = now_ms();
        ap_capability_mask(m, c, mask);
        ap_region_label(m, mask, &slot);
        r[k] = now_ms() - t0;
        free(slot.data);
        free(mask);
    }
    qsort(t, 5, sizeof t[0], cmp_double);
    qsort(r, 5, sizeof r[0], cmp_double);
    printf("%s\t%dx%d\t%s\t%.1f\t%.2f\t%.1f\n", m->id, m->width, m->height, ap_capability_name(c), t[2],
           (double)bytes / ((double)m->width * m->height), r[2]);
}

static void bench_map(const ap_map *m)
{
    bench(m, AP_CAP_DEFAULT);
    for (int64_t i = 0; i < (int64_t)m->width * m->height; i++)
        if (m->terrain[i] == 'W') {
            bench(m, AP_CAP_WATER);
            break;
        }
}

int main(int argc, char **argv)
{
    printf("map\tsize\tcapability\tclearance_build_ms\tclearance_bytes_per_cell\tregion_build_ms\n");
    const char *dir = getenv("ARCPATH_MOVINGAI") ? getenv("ARCPATH_MOVINGAI") : "../shared/data/movingai";
    const char *defaults[] = {"Paris_1_1024", "den520d", "battleground"};
    int n = argc > 1 ? argc - 1 : 3;
    for (int i = 0; i < n; i++) {
        char path[4096];
        if (argc > 1)
            snprintf(path, sizeof path, "%s", argv[i + 1]);
        else
            snprintf(path, sizeof path, "%s/%s.map", dir, defaults[i]);
        ap_map *m;
        ap_diag d;
        if (ap_map_load(path, NULL, &m, &d) != 0) {
            fprintf(stderr, "%s: %s\n", path, d.msg);
            return 1;
        }
        bench_map(m);
        ap_map_free(m);
    }
    if (argc == 1) {
        ap_map *g = generated_1024();
        if (g == NULL)
            return 1;
        bench_map(g);
        ap_map_free(g);
    }
    return 0;
}
