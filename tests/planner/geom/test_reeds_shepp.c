/* test_reeds_shepp.c — Reeds-Shepp curves: hand cases (pure reverse, U-turn in place, reverse quarter
 * turn), path invariants and the reverse-segment encoding over random cases, and optimality checks.
 *
 * What is independent of reeds_shepp.c's formulas:
 *   - the lower bound r * |heading change| (every unit of turning costs r of arc) and the Euclidean
 *     distance, which together pin down the hand cases;
 *   - random driven paths: up to 5 pieces of L, R, S with random signed lengths, driven with this file's own
 *     kinematics (ap_test_drive()); none may be shorter than ap_reeds_shepp_length to where it ends. A word family
 *     missing or wrong in the implementation shows up here as a shorter random path;
 *   - the Dubins length (whose own independent check is in test_dubins.c): a forward-only path is a
 *     Reeds-Shepp path, so RS <= Dubins;
 *   - symmetries the code does not use as such: the distance from a to b equals the distance from b to a
 *     (drive the path backwards in time) and is unchanged by mirroring both poses, translating and
 *     rotating them; these exercise different formulas of the 44 evaluations on the same pair.
 * Not independent, but exhaustive: every one of the 44 evaluations, evaluated alone and unpruned, is never
 * shorter than the returned shortest (so pruning drops nothing), and each word that exists ends at the goal.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/geom/dubins.h"
#include "../../../planner/base/path.h"
#include "../../../planner/geom/reeds_shepp.h"
#include "../../util.h"
#include "../suites.h"

/* The invariants of a path from a to b: starts at a, continuous, facing heading continuous at every joint
 * (also at cusps: the unit changes direction of travel, not the way it faces), arcs of radius exactly r
 * with length r|sweep|, lines along the facing heading (reverse lines against it), reverse flags matching
 * the signed pieces, lengths summing to the total, ends exactly at b (snapped) and within 1e-9 before. */
static void check_path(const ap_pose *a, const ap_pose *b, double r, const ap_reeds_shepp *p)
{
    ap_segment s[AP_RS_MAX_PIECES], raw[AP_RS_MAX_PIECES];
    size_t n = ap_reeds_shepp_segments(p, b, s);
    size_t nr = ap_reeds_shepp_segments(p, NULL, raw);
    ck_assert_uint_eq(n, nr);
    double scale = fmax(1.0, fmax(r, hypot(b->x - a->x, b->y - a->y)));
    if (n == 0) {
        ck_assert_double_eq_tol(p->length, 0.0, 1e-12 * scale);
        ck_assert_double_eq_tol(hypot(b->x - a->x, b->y - a->y), 0.0, 1e-9 * scale);
        ap_test_assert_heading_eq(a->heading, b->heading, 1e-9);
        return;
    }
    ap_test_check_curve_chain(s, n, a, b, r, p->length, scale);
    /* halfway along each arc, the unit is on the circle and its facing heading is tangent to it */
    for (size_t i = 0; i < n; i++) {
        const ap_segment *g = &s[i];
        if (g->type != AP_SEG_ARC)
            continue;
        ap_pose m = ap_segment_pose(g, g->length / 2.0);
        ck_assert_double_eq_tol(hypot(m.x - g->cx, m.y - g->cy), r, 1e-9 * scale);
        ck_assert_double_eq_tol(((m.x - g->cx) * cos(m.heading) + (m.y - g->cy) * sin(m.heading)) / r, 0.0, 1e-9);
    }
    /* the reverse flags follow the word's signs */
    size_t k = 0;
    for (int i = 0; i < p->n; i++) {
        if (fabs(p->len[i]) > 1e-14 * r) {
            ck_assert(s[k].reverse == (p->len[i] < 0.0));
            ck_assert(s[k].reverse == (p->word[2 * i + 1] == '-'));
            k++;
        }
    }
    ck_assert_msg(hypot(raw[nr - 1].x1 - b->x, raw[nr - 1].y1 - b->y) < 1e-9 * scale, "end off by %g",
                  hypot(raw[nr - 1].x1 - b->x, raw[nr - 1].y1 - b->y));
    ap_test_assert_heading_eq(ap_segment_end_heading(&raw[nr - 1]), b->heading, 1e-9);
}

static ap_reeds_shepp shortest(ap_pose a, ap_pose b, double r)
{
    ap_reeds_shepp p;
    ck_assert_int_eq(ap_reeds_shepp_shortest(&a, &b, r, &p), 0);
    ck_assert_double_eq_tol(ap_reeds_shepp_length(&a, &b, r), p.length, 1e-12 * fmax(1.0, p.length));
    check_path(&a, &b, r, &p);
    return p;
}

/* A hair ahead or behind, the same heading: the straight distance, forward or backwards. A helper's case
 * (1e-6 ahead at radius 0.5) answered L+R-L-R+ of 2.41 times that: L+S+R+'s u and direction came from
 * rho^2 - 4 and eta u + 2 xi, both near cancellation there. Distances 1e-6 to 1e-3 radii, any heading. */
START_TEST(a_hair_ahead_or_behind)
{
    ap_reeds_shepp p = shortest((ap_pose){3, 4, 0.7}, (ap_pose){3.0000007648421874, 4.000000644217687, 0.7}, 0.5);
    ck_assert_double_eq_tol(p.length, hypot(7.648421874e-7, 6.44217687e-7), 1e-12);
    ap_test_rng g = {2024};
    for (int i = 0; i < 2000; i++) {
        const double r = 0.5 * pow(2.0, (double)(i % 5)), h = 2.0 * M_PI * ap_test_rand01(&g) - M_PI;
        const double D = (i % 2 ? -r : r) * pow(10.0, -6.0 + 3.0 * ap_test_rand01(&g));
        const ap_pose a = {100.0 * ap_test_rand01(&g), 100.0 * ap_test_rand01(&g), h};
        const ap_pose b = {a.x + D * cos(h), a.y + D * sin(h), h};
        p = shortest(a, b, r);
        const double dist = hypot(b.x - a.x, b.y - a.y);
        ck_assert_msg(p.length <= dist + 1e-9 * r, "r %g, %g %s: %s of length %g", r, dist, D > 0 ? "ahead" : "behind",
                      p.word, p.length);
    }
}
END_TEST

/* Poses closer than AP_SAME_POSE (path.h: 1e-11 turning radii and radians) are the same pose: the empty
 * path. A helper's case before: a goal 1e-12 radii to the side (1e-9 tiles at r = 1000) got S+, a line
 * facing along +x that went sideways; the true answer, about 2.83 sqrt(e) radii (a four-arc shuffle), is
 * lost in the formulas' tolerances there. Just past the tolerance the shuffle is back. */
START_TEST(near_identical_poses_are_one)
{
    const ap_pose a = {0, 0, 0};
    ap_reeds_shepp p = shortest(a, (ap_pose){0, 1e-9, 0}, 1000.0);
    ck_assert(p.length == 0.0);
    ck_assert_str_eq(p.word, "");
    p = shortest(a, (ap_pose){0, 1e-12, 0}, 1.0);
    ck_assert(p.length == 0.0);
    p = shortest(a, (ap_pose){5e-12, -5e-12, 5e-12}, 1.0);
    ck_assert(p.length == 0.0);
    p = shortest(a, (ap_pose){0, 1e-10, 0}, 1.0);
    ck_assert_msg(p.length > 2.5e-5 && p.length < 3.0e-5, "%s of %g", p.word, p.length);
}
END_TEST

START_TEST(pure_reverse_line)
{
    ap_reeds_shepp p = shortest((ap_pose){0, 0, 0}, (ap_pose){-5, 0, 0}, 1.0);
    ck_assert_double_eq_tol(p.length, 5.0, 1e-12);
    ck_assert_str_eq(p.word, "S-");
    ap_segment s[AP_RS_MAX_PIECES];
    ap_pose goal = {-5, 0, 0};
    ck_assert_uint_eq(ap_reeds_shepp_segments(&p, &goal, s), 1);
    ck_assert_int_eq(s[0].type, AP_SEG_LINE);
    ck_assert(s[0].reverse);
    ck_assert_double_eq_tol(s[0].heading, 0.0, 1e-15); /* it faces +x while moving toward -x */
    ck_assert(s[0].x1 == -5.0 && s[0].y1 == 0.0);
    ap_pose mid = ap_segment_pose(&s[0], 2.0);
    ck_assert_double_eq_tol(mid.x, -2.0, 1e-12);
    ck_assert_double_eq_tol(mid.heading, 0.0, 1e-15);
    /* forward is forward */
    p = shortest((ap_pose){1, 1, M_PI / 2}, (ap_pose){1, 8, M_PI / 2}, 2.0);
    ck_assert_str_eq(p.word, "S+");
    ck_assert_double_eq_tol(p.length, 7.0, 1e-12);
}
END_TEST

/* (0,0,0) -> (0,0,pi), r = 1: the heading must change by pi, and every tile of arc changes it by at most
 * 1/r, so any path is at least pi long; a three-arc turn with cusps achieves it (Dubins needs 7pi/3). */
START_TEST(u_turn_in_place)
{
    ap_reeds_shepp p = shortest((ap_pose){0, 0, 0}, (ap_pose){0, 0, M_PI}, 1.0);
    ck_assert_double_eq_tol(p.length, M_PI, 1e-12);
    ck_assert(strchr(p.word, '-') != NULL && strchr(p.word, '+') != NULL);
    ck_assert(strchr(p.word, 'S') == NULL);
    ap_dubins d;
    ap_pose a = {0, 0, 0}, b = {0, 0, M_PI};
    ck_assert_int_eq(ap_dubins_shortest(&a, &b, 1.0, &d), 0);
    ck_assert(p.length < d.length - 1.0);
    /* scaled */
    p = shortest((ap_pose){3, -2, 1.0}, (ap_pose){3, -2, 1.0 + M_PI}, 4.0);
    ck_assert_double_eq_tol(p.length, 4.0 * M_PI, 1e-11);
}
END_TEST

/* Three-point turns (Pinter's "backing up"): goals a unit can only reach quickly by reversing. */
START_TEST(three_point_turns)
{
    /* reverse right quarter turn: from (0,0,0) driving backwards with the wheel right, the centre is at
     * (0, -1) and the unit ends at (-1, -1) facing pi/2: length pi/2 (the heading bound), word "R-". */
    ap_reeds_shepp p = shortest((ap_pose){0, 0, 0}, (ap_pose){-1, -1, M_PI / 2}, 1.0);
    ck_assert_double_eq_tol(p.length, M_PI / 2.0, 1e-12);
    ck_assert_str_eq(p.word, "R-");
    ap_segment s[AP_RS_MAX_PIECES];
    ap_pose goal = {-1, -1, M_PI / 2};
    ck_assert_uint_eq(ap_reeds_shepp_segments(&p, &goal, s), 1);
    ck_assert(s[0].reverse && s[0].type == AP_SEG_ARC);
    ck_assert_double_eq_tol(s[0].cx, 0.0, 1e-12);
    ck_assert_double_eq_tol(s[0].cy, -1.0, 1e-12);
    ck_assert_double_eq_tol(s[0].sweep, M_PI / 2.0, 1e-12); /* facing heading goes 0 -> pi/2 */
    /* turning round in a corridor: face the other way 1 tile to the side; at least pi (heading) and the
     * path must reverse somewhere; far shorter than the forward-only answer */
    double r = 2.0;
    for (double dy = 0.0; dy <= 2.0; dy += 0.5) {
        ap_pose a = {0, 0, 0}, b = {0, dy, M_PI};
        p = shortest(a, b, r);
        ck_assert(p.length >= M_PI * r - 1e-9);
        ck_assert(strchr(p.word, '-') != NULL);
        ck_assert(p.length < ap_dubins_length(&a, &b, r) - 1e-6);
    }
    /* park straight behind with a sideways offset: a mirrored pair has the same length */
    ck_assert_double_eq_tol(ap_reeds_shepp_length(&(ap_pose){0, 0, 0}, &(ap_pose){-3, 1, 0}, 1.0),
                            ap_reeds_shepp_length(&(ap_pose){0, 0, 0}, &(ap_pose){-3, -1, 0}, 1.0), 1e-12);
}
END_TEST

START_TEST(edges)
{
    ap_reeds_shepp p = shortest((ap_pose){3, 4, 1}, (ap_pose){3, 4, 1}, 2.0);
    ck_assert(p.length == 0.0 && p.n == 0 && p.word[0] == '\0');
    p = shortest((ap_pose){0, 0, 0}, (ap_pose){0, 0, 2.0 * M_PI}, 1.0);
    ck_assert_double_eq_tol(p.length, 0.0, 1e-9);
    p = shortest((ap_pose){0, 0, -1e-17}, (ap_pose){5, 0, 2.0 * M_PI - 1e-15}, 1.0);
    ck_assert_double_eq_tol(p.length, 5.0, 1e-9);
    p = shortest((ap_pose){0, 0, 0.4}, (ap_pose){1e-13, -1e-13, 0.4}, 1.0);
    ck_assert(p.length < 1e-9);
    p = shortest((ap_pose){0, 0, 0}, (ap_pose){0, 2, M_PI}, 1.0); /* on the start circle: a half turn */
    ck_assert_double_eq_tol(p.length, M_PI, 1e-12);
    p = shortest((ap_pose){0, 0, 0}, (ap_pose){10, 0, M_PI}, 1e-6);
    ck_assert(p.length >= 10.0 && p.length < 10.0 + 1e-5);
    p = shortest((ap_pose){0, 0, 0}, (ap_pose){0, 0, M_PI}, 1000.0);
    ck_assert_double_eq_tol(p.length, 1000.0 * M_PI, 1e-9);
    p = shortest((ap_pose){0, 0, 0}, (ap_pose){-1, 1, 0.5}, 1000.0);
    ck_assert(isfinite(p.length) && p.length >= 500.0);
    ap_pose a = {0, 0, 0}, b = {1, 1, 1};
    ck_assert_int_eq(ap_reeds_shepp_shortest(&a, &b, 0.0, &p), -1);
    ck_assert_int_eq(ap_reeds_shepp_shortest(&a, &b, INFINITY, &p), -1);
    b.heading = NAN;
    ck_assert(ap_reeds_shepp_length(&a, &b, 1.0) == -1.0);
    ck_assert(ap_reeds_shepp_word_eval(ap_reeds_shepp_word_count(), &a, &a, 1.0, NULL) == -1.0);
    ck_assert_uint_eq(ap_reeds_shepp_word_count(), 44);
}
END_TEST

START_TEST(random_invariants)
{
    ap_test_rng g = {424242};
    int n = ap_test_quick() ? 10000 : 100000;
    int reversed = 0;
    for (int i = 0; i < n; i++) {
        double span = (i % 4 == 0) ? 60.0 : 6.0;
        ap_pose a = ap_test_rand_pose(&g, span), b = ap_test_rand_pose(&g, span);
        double r = 0.5 + 5.5 * ap_test_rand01(&g);
        if (i % 100 == 0)
            r = (i % 200 == 0) ? 1e-3 : 300.0;
        ap_reeds_shepp p = shortest(a, b, r);
        reversed += strchr(p.word, '-') != NULL;
        double dub = ap_dubins_length(&a, &b, r);
        ck_assert_msg(p.length <= dub + 1e-9 * fmax(1.0, dub), "RS %.12g > Dubins %.12g", p.length, dub);
        ck_assert(p.length >= hypot(b.x - a.x, b.y - a.y) - 1e-9 * span);
        ck_assert(p.length >= r * fabs(ap_angle_wrap(b.heading - a.heading)) - 1e-9 * fmax(1.0, r));
        /* symmetries */
        double tol = 1e-9 * fmax(1.0, p.length);
        ck_assert_double_eq_tol(ap_reeds_shepp_length(&b, &a, r), p.length, tol);
        ap_pose ma = {a.x, -a.y, -a.heading}, mb = {b.x, -b.y, -b.heading};
        ck_assert_double_eq_tol(ap_reeds_shepp_length(&ma, &mb, r), p.length, tol);
        double c = cos(0.7), s = sin(0.7);
        ap_pose ra = {c * a.x - s * a.y + 11.0, s * a.x + c * a.y - 3.0, a.heading + 0.7};
        ap_pose rb = {c * b.x - s * b.y + 11.0, s * b.x + c * b.y - 3.0, b.heading + 0.7};
        ck_assert_double_eq_tol(ap_reeds_shepp_length(&ra, &rb, r), p.length, 1e-7 * fmax(1.0, p.length));
    }
    ck_assert(reversed > n / 10); /* reversing pays off often */
}
END_TEST

/* Every evaluation alone: never shorter than the shortest; every word that exists ends at the goal. */
START_TEST(every_word_exhaustive)
{
    ap_test_rng g = {99};
    int n = ap_test_quick() ? 3000 : 30000;
    size_t K = ap_reeds_shepp_word_count();
    int *found = calloc(K, sizeof *found);
    for (int i = 0; i < n; i++) {
        ap_pose a = ap_test_rand_pose(&g, 8.0), b = ap_test_rand_pose(&g, 8.0);
        double r = 0.5 + 3.0 * ap_test_rand01(&g);
        double best = ap_reeds_shepp_length(&a, &b, r), mn = INFINITY;
        for (size_t k = 0; k < K; k++) {
            ap_reeds_shepp w;
            double L = ap_reeds_shepp_word_eval(k, &a, &b, r, &w);
            if (L < 0.0)
                continue;
            found[k]++;
            mn = fmin(mn, L);
            ck_assert_double_eq_tol(L, w.length, 1e-12 * fmax(1.0, L));
            ap_segment s[AP_RS_MAX_PIECES];
            size_t m = ap_reeds_shepp_segments(&w, NULL, s);
            if (m == 0)
                continue;
            double err = hypot(s[m - 1].x1 - b.x, s[m - 1].y1 - b.y);
            ck_assert_msg(err < 1e-9 * fmax(1.0, L), "word %zu (%s) misses the goal by %g", k, w.word, err);
            ap_test_assert_heading_eq(ap_segment_end_heading(&s[m - 1]), b.heading, 1e-9);
        }
        ck_assert_msg(fabs(mn - best) <= 1e-12 * fmax(1.0, best), "min over words %.15g, shortest %.15g", mn,
                      best);
    }
    for (size_t k = 0; k < K; k++)
        ck_assert_msg(found[k] > 0, "evaluation %zu never exists", k);
    free(found);
}
END_TEST

START_TEST(random_driven_paths_are_not_shorter)
{
    /* short pieces: near-optimal random paths are the ones that catch a missing word */
    ap_test_check_driven_paths(31337, ap_test_quick() ? 20000 : 200000, 5, 2.0, M_PI, true, ap_reeds_shepp_length);
}
END_TEST

Suite *reeds_shepp_suite(void)
{
    Suite *s = suite_create("reeds_shepp");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, pure_reverse_line);
    tcase_add_test(tc, u_turn_in_place);
    tcase_add_test(tc, three_point_turns);
    tcase_add_test(tc, edges);
    tcase_add_test(tc, random_invariants);
    tcase_add_test(tc, every_word_exhaustive);
    tcase_add_test(tc, random_driven_paths_are_not_shorter);
    tcase_add_test(tc, a_hair_ahead_or_behind);
    tcase_add_test(tc, near_identical_poses_are_one);
    suite_add_tcase(s, tc);
    return s;
}
