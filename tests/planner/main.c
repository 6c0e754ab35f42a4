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

int main(void)
{
    SRunner *sr = srunner_create(map_suite());
    srunner_add_suite(sr, search_suite());
    srunner_add_suite(sr, collide_suite());
    srunner_add_suite(sr, smooth_suite());
    srunner_add_suite(sr, curve_suite());
    srunner_add_suite(sr, path_suite());
    srunner_add_suite(sr, plan_suite());
    srunner_add_suite(sr, scenarios_suite());
    srunner_add_suite(sr, hier_suite());
    srunner_add_suite(sr, hier_cluster_suite());
    srunner_add_suite(sr, directional_suite());
    srunner_add_suite(sr, jps_suite());
    srunner_add_suite(sr, jps_sized_suite());
    srunner_add_suite(sr, dubins_suite());
    srunner_add_suite(sr, reeds_shepp_suite());
    srunner_add_suite(sr, grid_suite());
    srunner_add_suite(sr, world_suite());
    srunner_add_suite(sr, algorithms_suite());
    srunner_add_suite(sr, capability_suite());
    srunner_add_suite(sr, units_suite());
    srunner_add_suite(sr, clearance_suite());
    srunner_add_suite(sr, anyangle_suite());
    srunner_add_suite(sr, plan_anyangle_suite());
    srunner_add_suite(sr, plan_aaturn_suite());
    srunner_add_suite(sr, aa_turning_suite());
    srunner_add_suite(sr, circles_suite());
    srunner_add_suite(sr, kino_suite());
    srunner_add_suite(sr, timing_suite());
    srunner_add_suite(sr, patch_suite());
    srunner_add_suite(sr, lattice_suite());
    srunner_add_suite(sr, aa_update_suite());
    srunner_add_suite(sr, aa_visibility_suite());
    srunner_add_suite(sr, aa_landmarks_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
