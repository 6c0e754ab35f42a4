/* main.c — runs every planner suite; exits non-zero when any check fails. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../runner.h"
#include "../util.h"
#include "../../planner/base/status.h"
#include "../../planner/world/tables.h"
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

ap_map_opts ap_test_grid_opts(void)
{
    return (ap_map_opts){.skip_tables = ap_table_kind_skip_bit("any_angle") | ap_table_kind_skip_bit("hier")};
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

/* Every planner suite, the slowest first (the larger of the plain and the sanitizer pass's wall times, 2-core
 * machine, 2026-12-03). With ARCPATH_TEST_SHARD=i/n the program is shard i of n run side by side
 * (tools/run-tests.sh PROGRAM@N; make check: 2, one a core). With ARCPATH_TEST_CLAIMS=DIR too (run-tests.sh
 * sets it) the shards share the suites as they go: each takes the next suite no shard has taken (an
 * O_EXCL file DIR/k claims suite k), slowest first, so a shard that drew short suites goes on with the rest
 * and the shards end about together; without it shard i runs the suites k with k % n == i. */
static Suite *(*const suites[])(void) = {
    plan_anyangle_suite, jps_sized_suite,  scenarios_suite,    clearance_suite,    kino_suite,
    directional_suite,   hier_suite,       capability_suite,   hier_cluster_suite, patch_suite,
    map_suite,           plan_aaturn_suite, aa_landmarks_suite, reeds_shepp_suite, anyangle_suite,
    smooth_suite,        world_suite,      search_suite,       units_suite,        dubins_suite,
    collide_suite,       aa_update_suite,  timing_suite,       algorithms_suite,   jps_suite,
    aa_visibility_suite, plan_suite,       grid_suite,         lattice_suite,      curve_suite,
    circles_suite,       aa_turning_suite, path_suite,         aa_graph_suite,     tables_suite,
    check_fast_suite,
};

/* 1 when this shard runs suite k: claimed first in claims (a directory), or k % shards == shard; 0 when
 * another shard has it; -1 when the claim could not be made for another reason (a missing or read-only
 * directory: then every shard would skip every suite, so the program fails instead). */
static int takes_suite(const char *claims, size_t k, int shard, int shards)
{
    if (claims == NULL)
        return (int)(k % (size_t)shards) == shard;
    char path[4096];
    snprintf(path, sizeof path, "%s/%zu", claims, k);
    const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        if (errno == EEXIST)
            return 0;
        fprintf(stderr, "ARCPATH_TEST_CLAIMS: cannot claim %s: %s\n", path, strerror(errno));
        return -1;
    }
    close(fd);
    return 1;
}

int main(void)
{
    int shard = 0, shards = 1;
    const char *e = getenv("ARCPATH_TEST_SHARD"), *claims = getenv("ARCPATH_TEST_CLAIMS");
    if (e != NULL && (sscanf(e, "%d/%d", &shard, &shards) != 2 || shards < 1 || shard < 0 || shard >= shards)) {
        fprintf(stderr, "ARCPATH_TEST_SHARD=%s: expected i/n with 0 <= i < n\n", e);
        return EXIT_FAILURE;
    }
    if (e == NULL)
        claims = NULL; /* one program alone runs every suite */
    int failed = 0;
    SRunner *all = NULL; /* without claims: one runner for the suites this shard runs, one summary */
    for (size_t k = 0; k < sizeof suites / sizeof suites[0]; k++) {
        const int take = takes_suite(claims, k, shard, shards);
        if (take < 0)
            return EXIT_FAILURE;
        if (take == 0)
            continue;
        if (claims == NULL) {
            if (all == NULL)
                all = srunner_create(suites[k]());
            else
                srunner_add_suite(all, suites[k]());
            continue;
        }
        /* with claims, a suite is known only when its turn comes: one runner (and summary line) a suite */
        SRunner *sr = srunner_create(suites[k]());
        ap_test_srunner_run(sr);
        failed += srunner_ntests_failed(sr);
        srunner_free(sr);
    }
    if (all != NULL) {
        ap_test_srunner_run(all);
        failed += srunner_ntests_failed(all);
        srunner_free(all);
    }
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
