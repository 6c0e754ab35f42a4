/* test_graph.c — the any-angle graph's eager table built in pieces (anyangle/graph.c, ap_aa_build_*): a
 * build run a circle at a time gives the same table as ap_aa_graph_precompute in one go (departures,
 * landmarks, a disc's sorted keys) for each way a table is filled (a point unit's scan, a disc's scan, a
 * turning unit's grown hugs tested pair by pair), the finish in steps too (a landmark's Dijkstra run, 64
 * circles' sorts); a build freed half-way, in the fill or in the finish, leaves the graph lazy. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/anyangle/graph.h"
#include "../../../planner/anyangle/turning.h"
#include "../../../planner/base/status.h"
#include "../../../planner/search/search.h"
#include "../../util.h"
#include "../suites.h"

/* The parts of a finished table beyond the departures (ap_test_same_aa_graph compares those): landmark
 * distances and a disc's sort keys, bit for bit. */
static void same_finish(const ap_aa_graph *a, const ap_aa_graph *b, const char *what)
{
    AP_EXPECT(a->n_marks == b->n_marks, "%s: %u landmarks in pieces, %u in one go", what, a->n_marks, b->n_marks);
    for (size_t i = 0; i < a->n * a->n_marks; i++)
        AP_EXPECT(a->mark_d[i] == b->mark_d[i] || (isinf(a->mark_d[i]) && isinf(b->mark_d[i])),
                  "%s: landmark distance %zu differs", what, i);
    AP_EXPECT(a->dep_sorted == b->dep_sorted, "%s: sorted in one build only", what);
    AP_EXPECT(a->corner_points == b->corner_points, "%s: corner_points differs", what);
    if (a->dep_sorted)
        ck_assert_int_eq(memcmp(a->dep_key, b->dep_key, 2 * a->n_deps * sizeof *a->dep_key), 0);
}

/* m's graph for radius r (hug circles grown by grow) built in pieces, until_ns a nanosecond ahead at each
 * call (so a circle a call, the clock read after each), against the same graph built in one go. */
static void pieces_match(const ap_map *m, double r, double grow, const char *what)
{
    ap_aa_graph *pieces, *one;
    ck_assert_int_eq(ap_aa_graph_grid_lazy(m, r, &pieces), AP_OK);
    ck_assert_int_eq(ap_aa_graph_grid_lazy(m, r, &one), AP_OK);
    if (grow > 0.0) {
        ck_assert_int_eq(ap_aa_graph_grow_hugs(pieces, grow), AP_OK);
        ck_assert_int_eq(ap_aa_graph_grow_hugs(one, grow), AP_OK);
    }
    ck_assert_int_eq(ap_aa_graph_precompute(one), AP_OK);
    ap_aa_build *b;
    ck_assert_int_eq(ap_aa_build_start(pieces, &b), AP_OK);
    size_t calls = 1;
    int st;
    while ((st = ap_aa_build_run(b, ap_clock_ns() + 1)) == AP_IN_PROGRESS)
        calls++;
    ck_assert_int_eq(st, AP_OK);
    ck_assert_int_eq(ap_aa_build_run(b, 1), AP_OK); /* done: the same state on every call */
    ap_aa_build_free(b);
    /* About a call a circle (two or more when the clock's step is coarse beside a circle's work), then a
     * call per landmark's Dijkstra run (the first run, from the largest component, shares one) and per 64
     * (circle, sense) pairs of a disc's sort. */
    const size_t n = pieces->n, marks = pieces->n_marks, most = n + marks + 3 + (pieces->dep_sorted ? (2 * n + 63) / 64 : 0);
    AP_EXPECT(calls >= n / 4 + marks && calls <= most, "%s: %zu calls for %zu circles and %zu landmarks (at most %zu)",
              what, calls, n, marks, most);
    ap_test_same_aa_graph(pieces, one, what);
    same_finish(pieces, one, what);
    ap_aa_graph_free(pieces);
    ap_aa_graph_free(one);
}

START_TEST(build_in_pieces_equals_one_go)
{
    ap_map *m = ap_test_data_map("arena2", "anyangle: a table built in pieces on arena2");
    if (m == NULL)
        return;
    pieces_match(m, 0.0, 0.0, "arena2, point unit");
    pieces_match(m, 0.5, 0.0, "arena2, disc 0.5");
    const double r = ap_aa_turn_clearance(0.4);
    pieces_match(m, r, ap_aa_turn_radius(0.4, 2.0) - r, "arena2, turning radius 2");
    ap_map_free(m);
}
END_TEST

/* A build freed before its end drops its part of the table: the graph is lazy again and builds the same
 * table afterwards; freed in the fill (after 5 calls of a circle each) and in the finish (the landmarks'
 * runs). A graph that has its table gives a build that is done at once. */
START_TEST(build_freed_half_way)
{
    ap_map *m = ap_test_data_map("arena2", "anyangle: a build freed half-way on arena2");
    if (m == NULL)
        return;
    ap_aa_graph *one;
    ck_assert_int_eq(ap_aa_graph_grid(m, 0.5, &one), AP_OK);
    ck_assert_ptr_nonnull(one->dep_start);
    ck_assert(one->n_marks > 0 && one->dep_sorted);
    for (int k = 0; k < 2; k++) {
        ap_aa_graph *g;
        ck_assert_int_eq(ap_aa_graph_grid_lazy(m, 0.5, &g), AP_OK);
        ap_aa_build *b;
        ck_assert_int_eq(ap_aa_build_start(g, &b), AP_OK);
        const size_t calls = k == 0 ? 5 : g->n + 3;
        for (size_t i = 0; i < calls; i++)
            ck_assert_int_eq(ap_aa_build_run(b, ap_clock_ns() + 1), AP_IN_PROGRESS);
        ck_assert_ptr_nonnull(g->dep_start);
        ap_aa_build_free(b);
        ck_assert_ptr_null(g->dep_start);
        ck_assert_ptr_null(g->deps);
        ck_assert_uint_eq(g->n_deps, 0);
        ck_assert(g->mark_d == NULL && g->n_marks == 0 && g->hug_clear == NULL && g->dep_key == NULL &&
                  !g->dep_sorted);
        ck_assert_int_eq(ap_aa_graph_precompute(g), AP_OK);
        ap_test_same_aa_graph(g, one, "arena2 after a freed build");
        same_finish(g, one, "arena2 after a freed build");
        ck_assert_int_eq(ap_aa_build_start(g, &b), AP_OK);
        ck_assert_int_eq(ap_aa_build_run(b, 1), AP_OK);
        ap_aa_build_free(b);
        ck_assert_uint_eq(g->n_deps, one->n_deps);
        ap_aa_graph_free(g);
    }
    ap_aa_graph_free(one);
    ap_map_free(m);
}
END_TEST

/* A point table that would hold more than AP_AA_EAGER_MAX_DEPS departures is skipped at its start by the
 * estimate (one scan from every 64th corner), also below 16,384 corners: 1,024 lone blocks on an open
 * 512 x 512 map (4,096 corners that see most of each other) gave a build that ran its line tests for 1.8 s
 * until it passed the limit (4,091 blocks set by a tile update on an open 1024^2 map: 3 s, every update; a
 * helper). The build is done at once, the graph lazy. 1,024 blocks on 128 x 128 (1.14 M departures) and 16
 * on 512 x 512 still build. */
START_TEST(build_skips_a_table_beyond_the_limit)
{
    static const struct {
        int w, step;
        bool skipped;
    } cases[] = {{512, 16, true}, {128, 4, false}, {512, 128, false}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const int w = cases[c].w;
        char *cells = malloc((size_t)w * (size_t)w);
        ck_assert_ptr_nonnull(cells);
        memset(cells, '.', (size_t)w * (size_t)w);
        for (int y = 2; y < w; y += cases[c].step)
            for (int x = 2; x < w; x += cases[c].step)
                cells[y * w + x] = '@';
        ap_map *m = ap_test_map_from_cells(cells, w, w, w);
        free(cells);
        ap_aa_graph *g;
        ck_assert_int_eq(ap_aa_graph_grid_lazy(m, 0.0, &g), AP_OK);
        const size_t blocks = (size_t)((w - 3) / cases[c].step + 1) * (size_t)((w - 3) / cases[c].step + 1);
        ck_assert_uint_eq(g->n, 4 * blocks);
        ap_aa_build *b;
        ck_assert_int_eq(ap_aa_build_start(g, &b), AP_OK);
        const int st = ap_aa_build_run(b, 1); /* one step: a skipped build is done already */
        if (cases[c].skipped) {
            ck_assert_int_eq(st, AP_E_NOMEM);
            ck_assert_ptr_null(g->dep_start);
            ck_assert_uint_eq(g->n_deps, 0);
        } else {
            ck_assert_int_eq(st, AP_IN_PROGRESS);
            while (ap_aa_build_run(b, 0) == AP_IN_PROGRESS)
                ;
            ck_assert_ptr_nonnull(g->dep_start);
            ck_assert_uint_le(g->n_deps, AP_AA_EAGER_MAX_DEPS);
        }
        ap_aa_build_free(b);
        ap_aa_graph_free(g);
        ap_map_free(m);
    }
}
END_TEST

/* The point unit's rule with circles (graph.h): a line may touch a circle and a blocked square, but not
 * pass where they touch each other (a gap of width 0), nor where two circles touch. */
START_TEST(point_unit_squeezes_through_no_touch)
{
    ap_map *m = ap_test_map_from_string("type octile\nheight 10\nwidth 10\nmap\n..........\n..........\n"
                                        "..........\n..........\n....@.....\n..........\n..........\n"
                                        "..........\n..........\n..........\n");
    const double cy[2] = {6.0, 6.001}; /* resting on square (4, 4)'s top at (4.5, 5), then just above it */
    for (int i = 0; i < 2; i++) {
        const ap_circle c[1] = {{4.5, cy[i], 1.0}};
        ap_circle_world *cw;
        ck_assert_int_eq(ap_circle_world_create(10, 10, c, 1, &cw, NULL, 0, NULL, 0), AP_OK);
        ap_aa_graph *g;
        ck_assert_int_eq(ap_aa_graph_grid_circles(m, cw, 0.0, &g), AP_OK);
        /* Along the square's top edge, under the circle: refused only where the two touch. */
        ck_assert_int_eq(g->space.line_ok(g->space.ctx, 1, 5, 8, 5), i == 1);
        ck_assert_int_eq(g->space.line_ok(g->space.ctx, 8, 5, 1, 5), i == 1);
        /* Touching one of them is allowed: the square's edge short of the circle, the circle's side. */
        ck_assert(g->space.line_ok(g->space.ctx, 1, 5, 4.2, 5));
        ck_assert(g->space.line_ok(g->space.ctx, 3.5, 4, 3.5, 8));
        ap_aa_graph_free(g);
        ap_circle_world_free(cw);
    }
    /* A circle crossing the blocked squares' edge x = 5 (cells (4, 3) and (4, 4)) at their shared vertex
     * (5, 4): a corner of free space, not a gap (square (4, 4) alone only touches the circle there; their
     * union's edge crosses it), so a line from it outward is usable. */
    {
        ap_map *m2 = ap_test_map_from_string("type octile\nheight 10\nwidth 10\nmap\n..........\n..........\n"
                                             "..........\n....@.....\n....@.....\n..........\n..........\n"
                                             "..........\n..........\n..........\n");
        const ap_circle c[1] = {{5.0 + sqrt(0.75), 3.5, 1.0}}; /* through (5, 4) and (5, 3) */
        ap_circle_world *cw;
        ck_assert_int_eq(ap_circle_world_create(10, 10, c, 1, &cw, NULL, 0, NULL, 0), AP_OK);
        ap_aa_graph *g;
        ck_assert_int_eq(ap_aa_graph_grid_circles(m2, cw, 0.0, &g), AP_OK);
        ck_assert(g->space.line_ok(g->space.ctx, 5, 4, 5.2, 8));
        ck_assert(g->space.line_ok(g->space.ctx, 5.2, 8, 5, 4));
        ap_aa_graph_free(g);
        ap_circle_world_free(cw);
        ap_map_free(m2);
    }
    /* A circle world's graph for a point unit: two circles touching at (5, 5) close the line between them,
     * a disc graph's closure test (any radius > 0) closes it anyway. */
    const ap_circle two[2] = {{5, 3, 2}, {5, 7, 2}};
    ap_circle_world *cw;
    ck_assert_int_eq(ap_circle_world_create(10, 10, two, 2, &cw, NULL, 0, NULL, 0), AP_OK);
    ap_aa_graph *g;
    ck_assert_int_eq(ap_aa_graph_circles(cw, 0.0, &g), AP_OK);
    ck_assert(!g->space.line_ok(g->space.ctx, 1, 5, 9, 5));
    ck_assert(g->space.line_ok(g->space.ctx, 1, 5, 4, 5)); /* short of the touch */
    ap_segment a = ap_segment_arc(3, 3, M_PI / 2, 2, -M_PI); /* over the lower circle's top */
    ck_assert(!g->space.arc_ok(g->space.ctx, &a));
    ck_assert(!ap_aa_graph_path_ok(g, &a, 1, 0, 0));
    a = ap_segment_arc(3, 3, -M_PI / 2, 2, M_PI); /* under it */
    ck_assert(g->space.arc_ok(g->space.ctx, &a));
    ap_aa_graph_free(g);
    ap_circle_world_free(cw);
    ap_map_free(m);
}
END_TEST

Suite *aa_graph_suite(void)
{
    Suite *s = suite_create("anyangle/graph");
    TCase *tc = tcase_create("build");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, build_in_pieces_equals_one_go);
    tcase_add_test(tc, build_freed_half_way);
    tcase_add_test(tc, build_skips_a_table_beyond_the_limit);
    suite_add_tcase(s, tc);
    tc = tcase_create("point");
    tcase_add_test(tc, point_unit_squeezes_through_no_touch);
    suite_add_tcase(s, tc);
    return s;
}
