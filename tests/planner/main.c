/* main.c — runs every planner suite; exits non-zero when any check fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util.h"
#include "../../planner/base/status.h"
#include "suites.h"

ap_map *ap_test_map_from_string(const char *text)
{
    ap_map *m = NULL;
    ap_diag d;
    int st = ap_map_parse("test", "test", text, strlen(text), NULL, &m, &d);
    ck_assert_msg(st == 0, "test map: %s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    return m;
}

ap_map *ap_test_map_from_cells(const char *cells, int stride, int w, int h)
{
    char *s = malloc((size_t)(w + 1) * (size_t)h + 64);
    int n = sprintf(s, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
    for (int y = 0; y < h; y++) {
        memcpy(s + n, cells + (size_t)y * (size_t)stride, (size_t)w);
        n += w;
        s[n++] = '\n';
    }
    s[n] = '\0';
    ap_map *m = ap_test_map_from_string(s);
    free(s);
    return m;
}

ap_map *ap_test_data_map(const char *name, const char *what)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data(what);
        return NULL;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/%s.map", dir, name);
    ap_map *m = NULL;
    ap_diag d;
    ck_assert_msg(ap_map_load(path, NULL, &m, &d) == AP_OK, "%s: %s", path, d.msg);
    return m;
}

ap_test_scen *ap_test_data_scen(const char *name, size_t *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.map.scen", ap_test_data_dir(), name);
    ap_test_scen *sc = NULL;
    ck_assert_msg(ap_test_load_scen(path, &sc, n) == 0, "%s does not load", path);
    return sc;
}

ap_map *ap_test_speckled_map(ap_test_rng *g, int w, int h, double density)
{
    char *s = malloc((size_t)(w + 1) * (size_t)h + 64);
    int n = sprintf(s, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++)
            s[n++] = ap_test_rand01(g) < density ? '@' : '.';
        s[n++] = '\n';
    }
    s[n] = '\0';
    ap_map *m = ap_test_map_from_string(s);
    free(s);
    return m;
}

unsigned ap_test_rand(ap_test_rng *r)
{
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(r->s >> 33);
}

double ap_test_rand01(ap_test_rng *r)
{
    return (double)ap_test_rand(r) / 2147483648.0;
}

/* Every planner suite, the slowest first (plain run times on a 2-core machine, 2026-12-02): with
 * ARCPATH_TEST_SHARD=i/n the program runs the suites k with k % n == i, so tools/run-tests.sh can run n
 * shards side by side (make check: 2, one a core) and each gets about half of the time. */
static Suite *(*const suites[])(void) = {
    plan_anyangle_suite, jps_suite,          clearance_suite,     jps_sized_suite,   scenarios_suite,
    aa_landmarks_suite,  directional_suite,  kino_suite,          plan_aaturn_suite, patch_suite,
    hier_suite,          map_suite,          reeds_shepp_suite,   hier_cluster_suite, collide_suite,
    search_suite,        smooth_suite,       curve_suite,         path_suite,        plan_suite,
    dubins_suite,        grid_suite,         world_suite,         algorithms_suite,  capability_suite,
    units_suite,         anyangle_suite,     aa_turning_suite,    circles_suite,     timing_suite,
    lattice_suite,       aa_update_suite,    aa_visibility_suite,
};

int main(void)
{
    int shard = 0, shards = 1;
    const char *e = getenv("ARCPATH_TEST_SHARD");
    if (e != NULL && (sscanf(e, "%d/%d", &shard, &shards) != 2 || shards < 1 || shard < 0 || shard >= shards)) {
        fprintf(stderr, "ARCPATH_TEST_SHARD=%s: expected i/n with 0 <= i < n\n", e);
        return EXIT_FAILURE;
    }
    SRunner *sr = srunner_create(NULL);
    for (size_t k = 0; k < sizeof suites / sizeof suites[0]; k++)
        if ((int)(k % (size_t)shards) == shard)
            srunner_add_suite(sr, suites[k]());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
