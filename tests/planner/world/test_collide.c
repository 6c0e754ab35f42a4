/* test_collide.c — exact swept-disc tests: hand-computed boundary cases for lines and arcs, and a random
 * cross-check against an independent distance computation (ternary search / dense sampling). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/world/collide.h"
#include "../../../planner/world/patch.h"
#include "../../../planner/world/view.h"
#include "../../../planner/base/path.h"
#include "../../util.h"
#include "../suites.h"

/* 10x10, only cell (5,5) blocked. */
static const char *one_block = "type octile\nheight 10\nwidth 10\nmap\n"
                               "..........\n..........\n..........\n..........\n..........\n"
                               ".....@....\n..........\n..........\n..........\n..........\n";

START_TEST(line_edges_and_corners)
{
    ap_map *m = ap_test_map_from_string(one_block);
    /* horizontal line 0.5 above the cell's top edge y = 5 */
    ck_assert(!ap_line_clear(m, 1.0, 4.5, 8.0, 4.5, 0.5));
    ck_assert(ap_line_clear(m, 1.0, 4.5, 8.0, 4.5, 0.5 - 1e-6));
    /* ends 0.5 left of the corner (5,5): the corner is the closest point */
    ck_assert(!ap_line_clear(m, 1.0, 5.0, 4.5, 5.0, 0.5));
    ck_assert(ap_line_clear(m, 1.0, 5.0, 4.5, 5.0, 0.5 - 1e-6));
    /* diagonal x + y = 8 passes sqrt(2) from the corner (5,5) */
    ck_assert(!ap_line_clear(m, 2.0, 6.0, 6.0, 2.0, M_SQRT2));
    ck_assert(ap_line_clear(m, 2.0, 6.0, 6.0, 2.0, M_SQRT2 - 1e-6));
    /* y-major line 0.5 left of the cell's left edge x = 5 */
    ck_assert(!ap_line_clear(m, 4.5, 1.0, 4.5, 8.5, 0.5));
    ck_assert(ap_line_clear(m, 4.5, 1.0, 4.5, 8.5, 0.5 - 1e-6));
    /* through the cell, and touching its edge with r = 0 */
    ck_assert(!ap_line_clear(m, 1.5, 5.5, 8.5, 5.5, 0.0));
    ck_assert(!ap_line_clear(m, 1.5, 5.0, 8.5, 5.0, 0.0));
    ck_assert(ap_line_clear(m, 1.5, 4.999, 8.5, 4.999, 0.0));
    /* a point */
    ck_assert(ap_line_clear(m, 2.5, 2.5, 2.5, 2.5, 0.3));
    ck_assert(!ap_line_clear(m, 5.5, 5.5, 5.5, 5.5, 0.0));
    ck_assert(!ap_line_clear(m, 4.5, 5.5, 4.5, 5.5, 0.5));
    ck_assert(ap_line_clear(m, 4.5, 5.5, 4.5, 5.5, 0.5 - 1e-6));
    /* off the map counts as blocked */
    ck_assert(!ap_line_clear(m, 0.5, 0.5, 3.5, 0.5, 0.5));
    ck_assert(ap_line_clear(m, 0.5, 0.5, 3.5, 0.5, 0.5 - 1e-6));
    ck_assert(!ap_line_clear(m, 2.5, 2.5, -1.0, 3.0, 0.0));
    ck_assert(!ap_line_clear(m, 2.5, 2.5, 12.0, 3.0, 0.0));
    ck_assert(!ap_line_clear(m, 9.5, 2.5, 9.5, 7.5, 0.5));
    ck_assert(ap_line_clear(m, 9.5, 2.5, 9.5, 7.5, 0.49));
    ck_assert(!ap_line_clear(m, 2.5, 2.5, NAN, 3.0, 0.0));
    ck_assert(!ap_line_clear(m, 2.5, 2.5, 3.0, 3.0, -1.0));
    ap_map_free(m);
}
END_TEST

START_TEST(diagonal_squeeze)
{
    /* (4,5) and (5,4) blocked: their squares share only the point (5,5) */
    ap_map *m = ap_test_map_from_string("type octile\nheight 10\nwidth 10\nmap\n"
                                        "..........\n..........\n..........\n..........\n.....@....\n"
                                        "....@.....\n..........\n..........\n..........\n..........\n");
    ck_assert(!ap_line_clear(m, 4.5, 4.5, 5.5, 5.5, 0.0));
    ck_assert(!ap_line_clear(m, 2.0, 2.0, 8.0, 8.0, 0.0));
    /* the sampled Walkable steps straight through the gap (0.2 steps never land inside a blocked cell) */
    ck_assert(ap_line_clear_sampled(m, 4.5, 4.5, 5.5, 5.5, 0.0));
    /* the other diagonal runs through both blocked squares */
    ck_assert(!ap_line_clear(m, 4.5, 5.5, 5.5, 4.5, 0.0));
    /* parallel to the gap, well clear of both squares */
    ck_assert(ap_line_clear(m, 0.5, 3.5, 5.5, 8.5, 0.0));
    ap_map_free(m);
}
END_TEST

START_TEST(arcs)
{
    ap_map *m = ap_test_map_from_string(one_block);
    /* circle centre (5.5, 2.5), radius 2, from angle pi down through pi/2 (the point (5.5, 4.5), 0.5 above the
     * blocked cell's top edge) to angle 0: the closest pair is that interior point and the edge. */
    ap_segment a = ap_segment_arc(3.5, 2.5, M_PI_2, 2.0, -M_PI);
    ck_assert_double_eq_tol(a.cx, 5.5, 1e-12);
    ck_assert_double_eq_tol(a.cy, 2.5, 1e-12);
    ck_assert_double_eq_tol(a.x1, 7.5, 1e-12);
    ck_assert_double_eq_tol(a.y1, 2.5, 1e-12);
    ck_assert(!ap_segment_clear(m, &a, 0.5));
    ck_assert(ap_segment_clear(m, &a, 0.5 - 1e-6));
    /* the same circle, only the first eighth of a turn: far from the cell */
    ap_segment b = ap_segment_arc(3.5, 2.5, M_PI_2, 2.0, -M_PI_4);
    ck_assert(ap_segment_clear(m, &b, 0.5));
    /* the arc's end point (5.5, 4.5) 0.5 from the edge: quarter turn from angle pi to pi/2 */
    ap_segment c = ap_segment_arc(3.5, 2.5, M_PI_2, 2.0, -M_PI_2);
    ck_assert(!ap_segment_clear(m, &c, 0.5));
    ck_assert(ap_segment_clear(m, &c, 0.5 - 1e-6));
    /* a corner as the closest point: centre (2.5, 2.5) radius 2 arc from angle pi/2 to 0; corner (5,5) is at
     * distance sqrt(12.5) - 2 from the circle, and its angle pi/4 is inside the sweep */
    ap_segment d = ap_segment_arc(2.5, 4.5, 0.0, 2.0, -M_PI_2);
    ck_assert_double_eq_tol(d.cx, 2.5, 1e-12);
    ck_assert_double_eq_tol(d.cy, 2.5, 1e-12);
    double dc = sqrt(12.5) - 2.0;
    ck_assert(!ap_segment_clear(m, &d, dc + 1e-6));
    ck_assert(ap_segment_clear(m, &d, dc - 1e-6));
    /* an arc through the blocked cell */
    ap_segment e = ap_segment_arc(3.5, 3.5, 0.0, 2.0, M_PI); /* centre (3.5, 5.5): passes (5.5, 5.5) */
    ck_assert_double_eq_tol(e.cy, 5.5, 1e-12);
    ck_assert(!ap_segment_clear(m, &e, 0.0));
    /* leaving the map */
    ap_segment f = ap_segment_arc(2.5, 1.5, 0.0, 1.0, -M_PI);
    ck_assert(!ap_segment_clear(m, &f, 0.0)); /* top of the circle at y = -0.5 */
    ap_segment g = ap_segment_arc(2.5, 1.5, 0.0, 1.0, M_PI);
    /* centre (2.5, 2.5), right half of the circle: its top point (2.5, 1.5) is 1.5 from the map's top edge */
    ck_assert(ap_segment_clear(m, &g, 0.4));
    ck_assert(!ap_segment_clear(m, &g, 1.5));
    ck_assert(ap_segment_clear(m, &g, 1.5 - 1e-6));
    ap_map_free(m);
}
END_TEST

/* Independent check, written apart from planner/world/collide.c: the distance from the segment point P(t) to a
 * square is convex in t, so ternary search finds its minimum. */
static double sq_dist(double px, double py, double sx, double sy)
{
    double dx = fmax(fmax(sx - px, 0.0), px - (sx + 1.0));
    double dy = fmax(fmax(sy - py, 0.0), py - (sy + 1.0));
    return sqrt(dx * dx + dy * dy);
}

static double seg_min_dist(const ap_map *m, double ax, double ay, double bx, double by, double r)
{
    double best = INFINITY;
    int i0 = (int)floor(fmin(ax, bx) - r) - 1, i1 = (int)floor(fmax(ax, bx) + r) + 1;
    int j0 = (int)floor(fmin(ay, by) - r) - 1, j1 = (int)floor(fmax(ay, by) + r) + 1;
    for (int j = j0; j <= j1; j++)
        for (int i = i0; i <= i1; i++) {
            if (ap_map_passable(m, i, j))
                continue;
            double lo = 0.0, hi = 1.0;
            while (hi - lo > 1e-12) {
                double t1 = lo + (hi - lo) / 3.0, t2 = hi - (hi - lo) / 3.0;
                double d1 = sq_dist(ax + (bx - ax) * t1, ay + (by - ay) * t1, i, j);
                double d2 = sq_dist(ax + (bx - ax) * t2, ay + (by - ay) * t2, i, j);
                if (d1 <= d2)
                    hi = t2;
                else
                    lo = t1;
            }
            double t = 0.5 * (lo + hi);
            double d = fmin(sq_dist(ax + (bx - ax) * t, ay + (by - ay) * t, i, j),
                            fmin(sq_dist(ax, ay, i, j), sq_dist(bx, by, i, j)));
            best = fmin(best, d);
        }
    return best;
}

/* Arcs: dense sampling plus golden-section refinement around the best sample (not exact; the cross-check
 * only compares cases at least 1e-4 away from the boundary). */
static double arc_min_dist(const ap_map *m, const ap_segment *s, double r)
{
    double best = INFINITY;
    const int N = 2000;
    for (int k = 0; k <= N; k++) {
        ap_pose p = ap_segment_pose(s, s->length * k / N);
        int i0 = (int)floor(p.x - r) - 1, i1 = (int)floor(p.x + r) + 1;
        int j0 = (int)floor(p.y - r) - 1, j1 = (int)floor(p.y + r) + 1;
        for (int j = j0; j <= j1; j++)
            for (int i = i0; i <= i1; i++)
                if (!ap_map_passable(m, i, j))
                    best = fmin(best, sq_dist(p.x, p.y, i, j));
    }
    return best;
}

START_TEST(random_cross_check)
{
    /* 40x30 map, 20% blocked */
    char text[40 * 31 + 64];
    int k = snprintf(text, sizeof text, "type octile\nheight 30\nwidth 40\nmap\n");
    ap_test_rng rng = {99};
    for (int y = 0; y < 30; y++) {
        for (int x = 0; x < 40; x++)
            text[k++] = ap_test_rand(&rng) % 100 < 20 ? '@' : '.';
        text[k++] = '\n';
    }
    text[k] = '\0';
    ap_map *m = ap_test_map_from_string(text);
    int lines = ap_test_quick() ? 400 : 3000, checked = 0, clear_count = 0;
    for (int n = 0; n < lines; n++) {
        double ax = 40 * ap_test_rand01(&rng), ay = 30 * ap_test_rand01(&rng);
        double len = 6 * ap_test_rand01(&rng), ang = 2 * M_PI * ap_test_rand01(&rng);
        double bx = ax + len * cos(ang), by = ay + len * sin(ang);
        double r = (n % 3 == 0) ? 0.0 : 1.2 * ap_test_rand01(&rng);
        double d = seg_min_dist(m, ax, ay, bx, by, r);
        bool c = ap_line_clear(m, ax, ay, bx, by, r);
        if (fabs(d - r) < 1e-7)
            continue;
        checked++;
        clear_count += c;
        ck_assert_msg(c == (d > r), "line (%.9f,%.9f)-(%.9f,%.9f) r=%.9f: exact says %d, independent distance %.12f",
                      ax, ay, bx, by, r, c, d);
    }
    ck_assert_int_gt(checked, lines / 2); /* r = 0 lines through a cell have d = r = 0 and are skipped */
    ck_assert_int_gt(clear_count, checked / 10); /* both outcomes are exercised */
    ck_assert_int_lt(clear_count, checked * 9 / 10);
    int n_arcs = ap_test_quick() ? 60 : 400;
    int arc_checked = 0;
    for (int n = 0; n < n_arcs; n++) {
        double ax = 40 * ap_test_rand01(&rng), ay = 30 * ap_test_rand01(&rng);
        double h = 2 * M_PI * ap_test_rand01(&rng), R = 0.3 + 4 * ap_test_rand01(&rng);
        double sw = (ap_test_rand01(&rng) - 0.5) * 4 * M_PI;
        double r = 0.8 * ap_test_rand01(&rng);
        ap_segment s = ap_segment_arc(ax, ay, h, R, sw);
        double d = arc_min_dist(m, &s, r);
        if (fabs(d - r) < 0.02)
            continue; /* sampling resolution */
        arc_checked++;
        bool c = ap_segment_clear(m, &s, r);
        /* off-map is blocked too: the sampler sees cells off the map as blocked (ap_map_passable) */
        ck_assert_msg(c == (d > r), "arc from (%.6f,%.6f) h=%.6f R=%.6f sweep=%.6f r=%.6f: exact %d, sampled dist %.6f",
                      ax, ay, h, R, sw, r, c, d);
    }
    ck_assert_int_gt(arc_checked, n_arcs / 2);
    ap_map_free(m);
}
END_TEST

/* The line test over the map's bit lines (map.h pass_bits, collide.c line_clear_bits) gives the byte
 * loop's verdict (the same test through a copy of the passability, which has no bit lines) on maps wider and
 * taller than a 64-bit word, for long, short, axis-parallel, zero-length and grid-aligned lines (corners
 * touched at exactly r and r = 0 along cell edges), radii 0 to 2.5; and after a tile update and on a
 * capability view, whose bit lines are their own. */
static void bits_agree(const ap_map *m, ap_test_rng *rng, int lines, int *clear_count)
{
    const size_t n = ap_map_node_count(m);
    uint8_t *copy = malloc(n);
    memcpy(copy, m->pass, n);
    ck_assert_ptr_nonnull(m->pass_bits);
    for (int i = 0; i < lines; i++) {
        double ax = m->width * ap_test_rand01(rng), ay = m->height * ap_test_rand01(rng);
        double bx = m->width * ap_test_rand01(rng), by = m->height * ap_test_rand01(rng);
        switch (i % 6) {
        case 1: /* short */
            bx = ax + 4 * (ap_test_rand01(rng) - 0.5), by = ay + 4 * (ap_test_rand01(rng) - 0.5);
            break;
        case 2: /* axis-parallel, on cell centres or edges */
            ax = floor(ax) + (i % 12 < 6 ? 0.5 : 0.0), bx = ax;
            break;
        case 3:
            ay = floor(ay) + (i % 12 < 6 ? 0.5 : 0.0), by = ay;
            break;
        case 4: /* grid points */
            ax = floor(ax), ay = floor(ay), bx = floor(bx), by = floor(by);
            break;
        case 5: /* zero length */
            bx = ax, by = ay;
            break;
        default:
            break;
        }
        static const double radii[] = {0.0, 0.0, 0.25, 0.5, 0.5 * M_SQRT2, 1.0, 1.5, 2.5};
        const double r = radii[ap_test_rand(rng) % 8];
        const bool fast = ap_line_clear(m, ax, ay, bx, by, r);
        const bool bytes = ap_line_clear_mask(m, copy, ax, ay, bx, by, r);
        AP_EXPECT(fast == bytes, "(%.17g,%.17g)-(%.17g,%.17g) r %g: bits %d, bytes %d", ax, ay, bx, by, r, fast, bytes);
        *clear_count += fast;
    }
    free(copy);
}

START_TEST(bit_lines_same_verdicts)
{
    ap_test_rng rng = {4711};
    int clear = 0, lines = 0;
    for (int t = 0; t < (ap_test_quick() ? 3 : 8); t++) {
        const int w = 60 + (int)(ap_test_rand(&rng) % 200), h = 60 + (int)(ap_test_rand(&rng) % 150);
        const double pb = 0.0005 + 0.01 * ap_test_rand01(&rng);
        size_t cap = (size_t)(w + 1) * (size_t)h + 64;
        char *text = malloc(cap);
        int k = snprintf(text, cap, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
        for (int y = 0; y < h; y++, text[k++] = '\n')
            for (int x = 0; x < w; x++)
                text[k++] = ap_test_rand01(&rng) < pb ? '@' : ap_test_rand01(&rng) < 0.3 ? 'W' : '.';
        text[k] = '\0';
        const uint8_t caps[] = {AP_CAP_WATER};
        ap_map_opts o = {.capabilities = caps, .n_capabilities = 1};
        ap_map *m;
        ap_diag d;
        ck_assert_int_eq(ap_map_parse("bits", "bits", text, strlen(text), &o, &m, &d), AP_OK);
        const int n = ap_test_quick() ? 600 : 3000;
        bits_agree(m, &rng, n, &clear);
        bits_agree(ap_map_view(m, AP_CAP_WATER), &rng, n / 3, &clear);
        lines += n + n / 3;
        /* a tile update: its own bit lines */
        ap_cell_edit e[3] = {{1, 1, '@'}, {w / 2, h / 2, '@'}, {w - 2, h - 2, '.'}};
        ap_map *u;
        ck_assert_int_eq(ap_map_patch(m, e, 3, &u, &d), AP_OK);
        bits_agree(u, &rng, n / 3, &clear);
        lines += n / 3;
        ap_map_free(u);
        ap_map_free(m);
        free(text);
    }
    ck_assert_int_gt(clear, lines / 40); /* both verdicts exercised (long random lines mostly hit) */
    ck_assert_int_lt(clear, lines * 9 / 10);
}
END_TEST

Suite *collide_suite(void)
{
    Suite *s = suite_create("collide");
    TCase *tc = tcase_create("exact");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, line_edges_and_corners);
    tcase_add_test(tc, diagonal_squeeze);
    tcase_add_test(tc, arcs);
    tcase_add_test(tc, random_cross_check);
    tcase_add_test(tc, bit_lines_same_verdicts);
    suite_add_tcase(s, tc);
    return s;
}
