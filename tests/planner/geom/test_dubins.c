/* test_dubins.c — Dubins curves: hand-computed cases, each word winning on a constructed case, the edges
 * (coincident poses, headings near 0/2pi, tiny and huge radii), path invariants over random cases, and
 * agreement with an independent implementation.
 *
 * What is independent: geo_dubins() below does not use dubins.c's normalised frame (d, alpha, beta) or its
 * closed forms. It works in map coordinates with the turning circles' centres: CSC from the tangent lines
 * between the start and goal circles (outer tangents for LSL/RSR, inner tangents for LSR/RSL), CCC from the
 * third circle of radius r touching both (the two intersection points of the circles of radius 2r around
 * the centres; both are tried), every arc measured as the angle the unit travels round its circle. It
 * shares only ap_pose with the code under test. A further check that needs no Dubins formula at all:
 * random forward-only driven paths (arcs of radius r, lines) can never be shorter than ap_dubins_length to
 * where they end.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../../planner/geom/dubins.h"
#include "../../../planner/base/path.h"
#include "../../util.h"
#include "../suites.h"

/* Every invariant of a returned path: starts at a, each segment starts where the previous ends with the
 * heading it ends with (G1), arcs of radius exactly r on their circle with length r|sweep|, lengths add up
 * to the reported total, ends exactly at b (snapped) — and, before snapping, within 1e-9 of b (position
 * scaled by max(1, r, distance) for the double rounding of large coordinates). */
static void check_path(const ap_pose *a, const ap_pose *b, double r, const ap_dubins *d)
{
    ap_segment s[3], raw[3];
    size_t n = ap_dubins_segments(d, b, s);
    size_t nr = ap_dubins_segments(d, NULL, raw);
    ck_assert_uint_eq(n, nr);
    double scale = fmax(1.0, fmax(r, hypot(b->x - a->x, b->y - a->y)));
    if (n == 0) {
        ck_assert_double_eq_tol(d->length, 0.0, 1e-12 * scale);
        ck_assert_double_eq_tol(hypot(b->x - a->x, b->y - a->y), 0.0, 1e-9 * scale);
        ap_test_assert_heading_eq(a->heading, b->heading, 1e-9);
        return;
    }
    ap_test_check_curve_chain(s, n, a, b, r, d->length, scale);
    for (size_t i = 0; i < n; i++) {
        ck_assert(!s[i].reverse);
        if (s[i].type == AP_SEG_ARC)
            ck_assert(fabs(s[i].sweep) < 2.0 * M_PI);
    }
    /* unsnapped: the closed form itself lands on the goal */
    ck_assert_msg(hypot(raw[nr - 1].x1 - b->x, raw[nr - 1].y1 - b->y) < 1e-9 * scale, "end off by %g",
                  hypot(raw[nr - 1].x1 - b->x, raw[nr - 1].y1 - b->y));
    ap_test_assert_heading_eq(ap_segment_end_heading(&raw[nr - 1]), b->heading, 1e-9);
}

static ap_dubins shortest(ap_pose a, ap_pose b, double r)
{
    ap_dubins d;
    ck_assert_int_eq(ap_dubins_shortest(&a, &b, r, &d), 0);
    ck_assert_double_eq_tol(ap_dubins_length(&a, &b, r), d.length, 1e-12 * fmax(1.0, d.length));
    check_path(&a, &b, r, &d);
    return d;
}

START_TEST(straight_ahead)
{
    ap_dubins d = shortest((ap_pose){1, 2, 0}, (ap_pose){11, 2, 0}, 2.0);
    ck_assert_double_eq_tol(d.length, 10.0, 1e-12);
    ck_assert_double_eq_tol(d.len[0], 0.0, 1e-12);
    ck_assert_double_eq_tol(d.len[2], 0.0, 1e-12);
    ap_segment s[3];
    ck_assert_uint_eq(ap_dubins_segments(&d, NULL, s), 1);
    ck_assert_int_eq(s[0].type, AP_SEG_LINE);
    /* diagonal, heading given as -7pi/4 (= pi/4) */
    d = shortest((ap_pose){0, 0, -7.0 * M_PI / 4.0}, (ap_pose){3, 3, M_PI / 4.0}, 0.5);
    ck_assert_double_eq_tol(d.length, 3.0 * sqrt(2.0), 1e-12);
}
END_TEST

/* Goals a hair straight ahead, the same heading: the straight distance, never a loop. A helper's case (the
 * goal 1.45e-5 tiles ahead at turning radius 0.5, its decimal coordinates a few ulp off the heading's line)
 * answered LSL with a first arc of 2 pi - 8.5e-12, 3.14 tiles: the inner tangents' line direction came from
 * p^2 = A^2 + B^2 - 4 with B^2 near 4 and missed by ~4e-16 / p rad, more than the true arcs. Here
 * distances from 1e-6 to 1e-3 turning radii (76 of these 3,000 looped), headings all round, radii 0.5 to 8,
 * coordinates up to 100. Closer than about sqrt(4 ulp r) the goal's own rounding (its sideways offset of an
 * ulp, more than a hair ahead allows: an S of arcs theta goes 2 theta ahead and theta^2 aside) can make the
 * exact answer a loop; and a goal a hair behind is a loop (forward only). */
START_TEST(a_hair_ahead_is_no_loop)
{
    ap_dubins d = shortest((ap_pose){3, 4, -0.4424725195354551},
                           (ap_pose){3.0000130835054506, 3.99999380097535, -0.4424725195354551}, 0.5);
    ck_assert_double_eq_tol(d.length, hypot(3.0000130835054506 - 3, 3.99999380097535 - 4), 1e-12);
    ap_test_rng g = {99};
    int n = 0;
    for (int i = 0; i < 3000; i++) {
        const double r = 0.5 * pow(2.0, (double)(i % 5)), h = 2.0 * M_PI * ap_test_rand01(&g) - M_PI;
        const double D = r * pow(10.0, -6.0 + 3.0 * ap_test_rand01(&g));
        const ap_pose a = {100.0 * ap_test_rand01(&g), 100.0 * ap_test_rand01(&g), h};
        const ap_pose b = {a.x + D * cos(h), a.y + D * sin(h), h};
        d = shortest(a, b, r);
        const double dist = hypot(b.x - a.x, b.y - a.y);
        ck_assert_msg(d.length <= dist + 1e-9 * r, "r %g, %g ahead: %s of length %g", r, dist,
                      ap_dubins_word_name(d.word), d.length);
        n++;
    }
    ck_assert_int_eq(n, 3000);
    /* behind: forward only, so about a loop */
    const ap_pose a = {0, 0, 0.3};
    d = shortest(a, (ap_pose){-1e-6 * cos(0.3), -1e-6 * sin(0.3), 0.3}, 1.0);
    ck_assert(d.length > 2.0 * M_PI - 1e-3 && d.length < 2.0 * M_PI + 1e-3);
}
END_TEST

/* Poses closer than AP_SAME_POSE (path.h: 1e-11 turning radii and radians) are the same pose: the empty
 * path. A helper's cases before: a goal 1e-12 radii behind the start (1e-9 tiles at r = 1000) got a line of
 * 1e-9 tiles facing away from where it went, and a heading nudged by 1e-12 rad an arc that ended where it
 * began; the forward-only answer there is a loop, lost in the closed forms' 2pi snaps below ~3e-12 radii.
 * Just past the tolerance the loop is back. */
START_TEST(near_identical_poses_are_one)
{
    const ap_pose a = {0, 0, 0};
    ap_dubins d = shortest(a, (ap_pose){-1e-9, 0, 0}, 1000.0);
    ck_assert(d.length == 0.0);
    d = shortest(a, (ap_pose){0, 0, 1e-12}, 1000.0);
    ck_assert(d.length == 0.0);
    d = shortest(a, (ap_pose){-1e-12, 0, 0}, 1.0);
    ck_assert(d.length == 0.0);
    d = shortest(a, (ap_pose){0, 5e-12, -5e-12}, 1.0);
    ck_assert(d.length == 0.0);
    d = shortest(a, (ap_pose){-3e-8, 0, 0}, 1000.0);
    ck_assert_double_eq_tol(d.length, 2.0 * M_PI * 1000.0, 1e-6);
    d = shortest(a, (ap_pose){0, 0, 3e-11}, 1.0);
    ck_assert_double_eq_tol(d.length, 2.0 * M_PI, 1e-9);
    d = shortest(a, (ap_pose){-2e-11, 0, 0}, 1.0);
    ck_assert_double_eq_tol(d.length, 2.0 * M_PI, 1e-9);
}
END_TEST

/* (0,0,0) -> (0,0,pi), r = 1, by hand. CSC: LSL/RSR join the circles of centres (0, 1) and (0, -1) with a
 * line of length 2 after 3pi/2 of arc on each (3pi + 2); LSR/RSL do not exist (the circles touch, so the
 * inner tangent has length^2 = 2^2 - 4 = 0 - and it would need the circles apart). CCC: the start's right
 * circle has centre (0, -1), the goal's right circle (facing pi) centre (0, 1); a left circle touching both
 * has its centre 2 from each: (+-sqrt(3), 0). Taking (-sqrt(3), 0): the first tangent point is the midpoint
 * (-sqrt(3)/2, -1/2), reached after turning right by pi/3 (the unit's angle on its circle goes from pi/2 to
 * pi/2 + pi/3); around the middle circle the unit turns left by 2pi - pi/3 = 5pi/3 to the second tangent
 * point (-sqrt(3)/2, 1/2), then right by pi/3 to (0, 0) facing pi. Length pi/3 + 5pi/3 + pi/3 = 7pi/3 (the
 * mirror LRL is equally long; in the closed form, A = d - sa + sb = 0 and B = ca - cb = 2, so sin(p/2) = 1/2 and p = 5pi/3). */
START_TEST(u_turn_in_place)
{
    ap_dubins d = shortest((ap_pose){0, 0, 0}, (ap_pose){0, 0, M_PI}, 1.0);
    ck_assert_double_eq_tol(d.length, 7.0 * M_PI / 3.0, 1e-12);
    ck_assert(d.word == AP_DUBINS_RLR || d.word == AP_DUBINS_LRL);
    ck_assert_double_eq_tol(d.len[0], M_PI / 3.0, 1e-12);
    ck_assert_double_eq_tol(d.len[1], 5.0 * M_PI / 3.0, 1e-12);
    ck_assert_double_eq_tol(d.len[2], M_PI / 3.0, 1e-12);
    /* scales with r */
    d = shortest((ap_pose){5, 5, M_PI / 2}, (ap_pose){5, 5, -M_PI / 2}, 3.0);
    ck_assert_double_eq_tol(d.length, 7.0 * M_PI, 1e-11);
}
END_TEST

START_TEST(quarter_turns)
{
    /* left quarter: (0,0,0) -> (r, r, pi/2) is one arc of pi r / 2 */
    for (double r = 0.5; r < 7.0; r += 1.5) {
        ap_dubins d = shortest((ap_pose){0, 0, 0}, (ap_pose){r, r, M_PI / 2}, r);
        ck_assert_double_eq_tol(d.length, M_PI * r / 2.0, 1e-12 * r);
        ap_segment s[3];
        ck_assert_uint_eq(ap_dubins_segments(&d, NULL, s), 1);
        ck_assert(s[0].sweep > 0.0);
        /* right quarter, then 4 tiles straight: (0,0,0) -> (r, -r - 4, -pi/2) */
        d = shortest((ap_pose){0, 0, 0}, (ap_pose){r, -r - 4.0, -M_PI / 2}, r);
        ck_assert_double_eq_tol(d.length, M_PI * r / 2.0 + 4.0, 1e-12 * r);
        /* RSR with a zero last arc; RSL with a zero last arc is the same path */
        ck_assert(d.word == AP_DUBINS_RSR || d.word == AP_DUBINS_RSL);
        ck_assert_double_eq_tol(d.len[2], 0.0, 1e-12);
    }
}
END_TEST

START_TEST(each_word_wins)
{
    /* Constructed cases: drive a word with chosen pieces; the shortest path to where it ends is that very
     * word with those pieces. CSC: arcs of 1 rad and a long line; CCC: short outer arcs around a middle
     * arc of more than pi, with the goal close to the start. */
    static const struct {
        ap_dubins_word w;
        double len[3];
    } cases[] = {
        {AP_DUBINS_LSL, {1.0, 6.0, 0.5}}, {AP_DUBINS_LSR, {0.7, 5.0, 1.2}}, {AP_DUBINS_RSL, {0.4, 8.0, 1.0}},
        {AP_DUBINS_RSR, {1.5, 3.0, 0.9}}, {AP_DUBINS_RLR, {0.6, 4.2, 0.3}}, {AP_DUBINS_LRL, {0.2, 4.0, 0.7}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const double r = 1.0;
        ap_pose a = {2.0, -1.0, 0.3};
        ap_pose b = ap_test_drive(a, ap_dubins_word_name(cases[i].w), cases[i].len, r);
        ap_dubins d = shortest(a, b, r);
        ck_assert_msg(d.word == cases[i].w, "case %zu: got %s", i, ap_dubins_word_name(d.word));
        for (int k = 0; k < 3; k++)
            ck_assert_double_eq_tol(d.len[k], cases[i].len[k], 1e-9);
    }
}
END_TEST

START_TEST(edges)
{
    /* identical poses: nothing to drive */
    ap_dubins d = shortest((ap_pose){3, 4, 1}, (ap_pose){3, 4, 1}, 2.0);
    ck_assert(d.length == 0.0);
    ap_segment s[3];
    ck_assert_uint_eq(ap_dubins_segments(&d, NULL, s), 0);
    /* headings 0 and 2pi, 0 and -1e-17, 2pi - 1e-15: the same direction, no loop */
    d = shortest((ap_pose){0, 0, 0}, (ap_pose){0, 0, 2.0 * M_PI}, 1.0);
    ck_assert_double_eq_tol(d.length, 0.0, 1e-9);
    d = shortest((ap_pose){0, 0, -1e-17}, (ap_pose){5, 0, 0}, 1.0);
    ck_assert_double_eq_tol(d.length, 5.0, 1e-9);
    d = shortest((ap_pose){0, 0, 2.0 * M_PI - 1e-15}, (ap_pose){5, 0, 1e-16}, 1.0);
    ck_assert_double_eq_tol(d.length, 5.0, 1e-9);
    d = shortest((ap_pose){0, 0, 0}, (ap_pose){5, 0, -1e-13}, 1.0);
    ck_assert_double_eq_tol(d.length, 5.0, 1e-9);
    /* a distance near zero with the same heading: near 0, not a full circle */
    d = shortest((ap_pose){0, 0, 0.4}, (ap_pose){1e-13, -1e-13, 0.4}, 1.0);
    ck_assert(d.length < 1e-9);
    d = shortest((ap_pose){0, 0, 0.4}, (ap_pose){1e-13 * cos(0.4), 1e-13 * sin(0.4), 0.4}, 1.0);
    ck_assert(d.length < 1e-9);
    /* goal on the start turning circle: left circle centre (0, 1); the point (1, 1) at heading pi/2 is a
     * quarter turn; the point (0, 2) at heading pi a half turn; (-1, 1) facing 3pi/2 three quarters (a
     * forward-only unit cannot do better than going round) */
    d = shortest((ap_pose){0, 0, 0}, (ap_pose){0, 2, M_PI}, 1.0);
    ck_assert_double_eq_tol(d.length, M_PI, 1e-12);
    d = shortest((ap_pose){0, 0, 0}, (ap_pose){-1, 1, 1.5 * M_PI}, 1.0);
    ck_assert(d.length <= 1.5 * M_PI + 1e-12);
    /* very small and very large radii */
    d = shortest((ap_pose){0, 0, 0}, (ap_pose){10, 0, M_PI}, 1e-6);
    ck_assert_double_eq_tol(d.length, 10.0 + M_PI * 1e-6, 1e-8);
    d = shortest((ap_pose){0, 0, 0}, (ap_pose){1, 1, M_PI / 2}, 1000.0);
    ck_assert(d.length > 1000.0 && isfinite(d.length));
    d = shortest((ap_pose){0, 0, 0}, (ap_pose){0, 0, M_PI}, 1000.0);
    ck_assert_double_eq_tol(d.length, 7000.0 * M_PI / 3.0, 1e-9);
    /* invalid input */
    ap_pose a = {0, 0, 0}, b = {1, 1, 1};
    ck_assert_int_eq(ap_dubins_shortest(&a, &b, 0.0, &d), -1);
    ck_assert_int_eq(ap_dubins_shortest(&a, &b, -1.0, &d), -1);
    ck_assert_int_eq(ap_dubins_shortest(&a, &b, NAN, &d), -1);
    b.x = INFINITY;
    ck_assert_int_eq(ap_dubins_shortest(&a, &b, 1.0, &d), -1);
    ck_assert(ap_dubins_length(&a, &b, 1.0) == -1.0);
    ck_assert_str_eq(ap_dubins_word_name(AP_DUBINS_RLR), "RLR");
    ck_assert_str_eq(ap_dubins_word_name(AP_DUBINS_WORDS), "?");
}
END_TEST

/* ----- the independent implementation (see the file comment) ----- */

static double ang(double a) /* [0, 2pi) */
{
    a = fmod(a, 2.0 * M_PI);
    return a < 0.0 ? a + 2.0 * M_PI : a;
}

/* Arc travelled on a circle of direction k (+1 counter-clockwise = left) from heading h0 to h1. */
static double turn(double k, double h0, double h1)
{
    double t = ang(k * (h1 - h0));
    return t > 2.0 * M_PI - 1e-9 ? 0.0 : t;
}

static double geo_dubins(ap_pose a, ap_pose b, double r)
{
    double best = INFINITY;
    for (int i = 0; i < 4; i++) {
        double k1 = (i & 1) ? -1.0 : 1.0, k2 = (i & 2) ? -1.0 : 1.0;
        double c1x = a.x - k1 * r * sin(a.heading), c1y = a.y + k1 * r * cos(a.heading);
        double c2x = b.x - k2 * r * sin(b.heading), c2y = b.y + k2 * r * cos(b.heading);
        double vx = c2x - c1x, vy = c2y - c1y, D = hypot(vx, vy);
        /* CSC: the line leaves circle 1 and meets circle 2 tangentially with heading h. */
        double h, L;
        if (k1 == k2) {
            h = atan2(vy, vx); /* outer tangent: parallel to the centre line */
            L = D;
        } else {
            if (D < 2.0 * r)
                goto ccc;
            L = sqrt(D * D - 4.0 * r * r); /* inner tangent */
            /* v = L u + 2 k1 r n with n = u turned by -90 degrees */
            h = atan2(vy, vx) - atan2(-2.0 * k1 * r, L);
        }
        best = fmin(best, r * turn(k1, a.heading, h) + L + r * turn(k2, h, b.heading));
    ccc:
        if (k1 != k2 || D > 4.0 * r)
            continue;
        /* CCC: a middle circle of radius r (opposite direction) touching both: its centre is 2r from each. */
        for (int side = -1; side <= 1; side += 2) {
            double m = sqrt(fmax(0.0, 4.0 * r * r - D * D / 4.0));
            double ux = D > 0.0 ? vx / D : 1.0, uy = D > 0.0 ? vy / D : 0.0;
            double c3x = (c1x + c2x) / 2.0 - side * m * uy, c3y = (c1y + c2y) / 2.0 + side * m * ux;
            /* tangent points halfway between centres; heading there on circle 1 / circle 2 */
            double q1x = (c1x + c3x) / 2.0, q1y = (c1y + c3y) / 2.0;
            double q2x = (c3x + c2x) / 2.0, q2y = (c3y + c2y) / 2.0;
            double h1 = atan2(q1y - c1y, q1x - c1x) + k1 * M_PI_2;
            double h2 = atan2(q2y - c2y, q2x - c2x) + k1 * M_PI_2;
            best = fmin(best, r * (turn(k1, a.heading, h1) + turn(-k1, h1, h2) + turn(k1, h2, b.heading)));
        }
    }
    return best;
}

START_TEST(random_invariants_and_independent)
{
    ap_test_rng g = {20261121};
    int n = ap_test_quick() ? 10000 : 100000;
    int wins[AP_DUBINS_WORDS] = {0};
    for (int i = 0; i < n; i++) {
        /* mostly near poses (where CCC and the edge cases live), some far ones */
        double span = (i % 4 == 0) ? 60.0 : 6.0;
        ap_pose a = ap_test_rand_pose(&g, span), b = ap_test_rand_pose(&g, span);
        double r = 0.5 + 5.5 * ap_test_rand01(&g);
        if (i % 100 == 0)
            r = (i % 200 == 0) ? 1e-3 : 300.0;
        ap_dubins d = shortest(a, b, r);
        wins[d.word]++;
        double geo = geo_dubins(a, b, r);
        ck_assert_msg(fabs(d.length - geo) <= 1e-6 * fmax(1.0, geo), "case %d: %.12g vs geometric %.12g", i,
                      d.length, geo);
        ck_assert(d.length >= hypot(b.x - a.x, b.y - a.y) - 1e-9);
    }
    for (int w = 0; w < AP_DUBINS_WORDS; w++)
        ck_assert_msg(wins[w] > 0, "word %s never won", ap_dubins_word_name(w));
}
END_TEST

/* Random forward-only paths (1-4 pieces of L, R, S with random lengths): their length is an upper bound on
 * the shortest path to where they end. */
START_TEST(random_driven_paths_are_not_shorter)
{
    ap_test_check_driven_paths(7, ap_test_quick() ? 20000 : 200000, 4, 4.0, 2.0 * M_PI, false, ap_dubins_length);
}
END_TEST

/* ap_dubins_point_bound is a lower bound: every forward path (random words of L, R and S, the near-optimal
 * LS / RS / LR / RL shapes most often) ends within `slack` of the point the bound is asked for, and the bound
 * never exceeds the path's length. */
START_TEST(point_bound_below_driven_paths)
{
    ap_test_rng g = {20261125};
    static const char *const words[] = {"LS", "RS", "LR", "RL", "L", "S", "LSL", "RSLR"};
    int n = ap_test_quick() ? 20000 : 200000, near = 0;
    for (int i = 0; i < n; i++) {
        ap_pose a = ap_test_rand_pose(&g, 10.0);
        double r = 0.5 + 5.0 * ap_test_rand01(&g);
        const char *w = words[ap_test_rand(&g) % 8];
        double len[4], total = 0.0;
        for (int j = 0; w[j] != '\0'; j++) {
            len[j] = (w[j] == 'S' ? 12.0 : 2.0 * M_PI * r) * ap_test_rand01(&g);
            total += len[j];
        }
        ap_pose b = ap_test_drive(a, w, len, r);
        double slack = (i % 3 == 0) ? 0.0 : 2.0 * ap_test_rand01(&g);
        double ang = 2.0 * M_PI * ap_test_rand01(&g), off = slack * sqrt(ap_test_rand01(&g));
        double bound = ap_dubins_point_bound(&a, b.x + off * cos(ang), b.y + off * sin(ang), r, slack);
        ck_assert_msg(bound <= total + 1e-9 * fmax(1.0, total), "case %d %s: bound %.12g > driven %.12g", i, w,
                      bound, total);
        near += bound > total - 1e-3;
    }
    ck_assert_int_gt(near, n / 50); /* tight on the optimal shapes, not just below */
}
END_TEST

/* Outside both turning circles the bound (slack 0) is the shortest path to the point with its final heading
 * free: the minimum of the Dubins lengths to the point over the final headings (sampled every 0.1 degree, so
 * within ~r * 0.002 above the exact minimum); inside a circle it is the straight distance. */
START_TEST(point_bound_is_the_free_heading_minimum)
{
    ap_test_rng g = {7};
    int outside = 0;
    for (int i = 0; i < (ap_test_quick() ? 150 : 600); i++) {
        ap_pose a = ap_test_rand_pose(&g, 10.0);
        double r = 0.5 + 3.0 * ap_test_rand01(&g);
        double x = 10.0 * ap_test_rand01(&g), y = 10.0 * ap_test_rand01(&g);
        double bound = ap_dubins_point_bound(&a, x, y, r, 0.0);
        /* the form with the heading's sine and cosine given: libm's here, within a few ulp of fastmath's */
        ck_assert(fabs(ap_dubins_point_bound_sc(&a, sin(a.heading), cos(a.heading), x, y, r, 0.0) - bound) <= 1e-12);
        double best = INFINITY;
        for (int k = 0; k < 3600; k++) {
            ap_pose b = {x, y, k * (2.0 * M_PI / 3600)};
            best = fmin(best, ap_dubins_length(&a, &b, r));
        }
        double cl = hypot(x - (a.x - r * sin(a.heading)), y - (a.y + r * cos(a.heading)));
        double cr = hypot(x - (a.x + r * sin(a.heading)), y - (a.y - r * cos(a.heading)));
        ck_assert(bound <= best + 1e-9);
        if (cl > r + 1e-6 && cr > r + 1e-6) {
            outside++;
            ck_assert_msg(best - bound <= 0.005 * r + 1e-9, "case %d: bound %.12g, sampled %.12g", i, bound, best);
        } else {
            ck_assert(fabs(bound - hypot(x - a.x, y - a.y)) <= 1e-12);
        }
    }
    ck_assert_int_gt(outside, 50);
    /* exact cases, r = 1 from the origin facing +x: straight ahead; a quarter turn onto the line to (1, 3);
     * a point behind, around the nearer circle: 3pi/2 and a tangent */
    ap_pose o = {0, 0, 0};
    ck_assert(fabs(ap_dubins_point_bound(&o, 5, 0, 1, 0) - 5) < 1e-9);
    ck_assert(fabs(ap_dubins_point_bound(&o, 1, 3, 1, 0) - (M_PI / 2 + 2)) < 2e-9);
    ck_assert(fabs(ap_dubins_point_bound(&o, 5, 0, 1, 0.5) - 4.5) < 1e-9);
    ck_assert(fabs(ap_dubins_point_bound(&o, 0.5, 0.5, 1, 0) - hypot(0.5, 0.5)) < 1e-12); /* inside */
    ck_assert(ap_dubins_point_bound_sc(&o, 0.0, 1.0, 1, 3, 1, 0) == ap_dubins_point_bound(&o, 1, 3, 1, 0));
}
END_TEST

Suite *dubins_suite(void)
{
    Suite *s = suite_create("dubins");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, straight_ahead);
    tcase_add_test(tc, u_turn_in_place);
    tcase_add_test(tc, quarter_turns);
    tcase_add_test(tc, each_word_wins);
    tcase_add_test(tc, edges);
    tcase_add_test(tc, random_invariants_and_independent);
    tcase_add_test(tc, random_driven_paths_are_not_shorter);
    tcase_add_test(tc, point_bound_below_driven_paths);
    tcase_add_test(tc, point_bound_is_the_free_heading_minimum);
    tcase_add_test(tc, a_hair_ahead_is_no_loop);
    tcase_add_test(tc, near_identical_poses_are_one);
    suite_add_tcase(s, tc);
    return s;
}
