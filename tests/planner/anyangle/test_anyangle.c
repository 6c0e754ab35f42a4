/* test_anyangle.c — the any-angle planner (planner/anyangle): the tangent geometry, hand-made worlds for
 * each of Red Blob's figures with lengths worked out by hand, optimality against the independent oracle
 * (oracle.h) on random circle worlds and random small grid maps at radius 0 and > 0 (half of each with the
 * eager table, half lazily), and Moving AI maps for a point unit (never longer than the 8-connected optimum,
 * never shorter than the straight line; lazy and eager alike on arena2). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/anyangle/anyangle.h"
#include "../../../planner/anyangle/tangent.h"
#include "../../../planner/base/status.h"
#include "../../../planner/world/grid_world.h"
#include "../../util.h"
#include "../suites.h"
#include "check_path.h"

/* ---- geometry -------------------------------------------------------------------------------------------- */

START_TEST(bitangents_touch_both_circles_on_their_sense_side)
{
    /* Circles (0, 0) r 1 and (10, 0) r 2. External (s1 = s2 = +1): centre on the +y side of travel, so the
     * line runs below both (y < 0), at heading -asin(1/10); internal (+1, -1): crosses between them. */
    ap_bitangent t;
    ck_assert(ap_bitangent_of(0, 0, 1, 1, 10, 0, 2, 1, &t));
    ck_assert_double_eq_tol(t.h, -asin(0.1), 1e-15);
    ck_assert_double_eq_tol(t.len, sqrt(100.0 - 1.0), 1e-12);
    ck_assert_double_eq_tol(hypot(t.x0, t.y0), 1.0, 1e-12);
    ck_assert_double_eq_tol(hypot(t.x1 - 10, t.y1), 2.0, 1e-12);
    ck_assert(t.y0 < 0 && t.y1 < 0);
    ck_assert(ap_bitangent_of(0, 0, 1, 1, 10, 0, 2, -1, &t));
    ck_assert_double_eq_tol(t.h, asin(0.3), 1e-15);
    ck_assert_double_eq_tol(t.len, sqrt(100.0 - 9.0), 1e-12);
    ck_assert(t.y0 < 0 && t.y1 > 0);
    /* Distance of each centre from the line = its radius, on the sense's side (n = (-sin h, cos h)). */
    double nx = -sin(t.h), ny = cos(t.h);
    ck_assert_double_eq_tol((0 - t.x0) * nx + (0 - t.y0) * ny, 1.0, 1e-12);
    ck_assert_double_eq_tol((10 - t.x0) * nx + (0 - t.y0) * ny, -2.0, 1e-12);
    /* Overlapping circles have no internal bitangent; nested ones none at all; a point has its two. */
    ck_assert(!ap_bitangent_of(0, 0, 1, 1, 2, 0, 2, -1, &t));
    ck_assert(ap_bitangent_of(0, 0, 1, 1, 2, 0, 2, 1, &t));
    ck_assert(!ap_bitangent_of(0, 0, 5, 1, 1, 0, 1, 1, &t));
    ck_assert(ap_bitangent_of(0, 0, 0, 1, 5, 0, 3, 1, &t));
    ck_assert_double_eq_tol(t.len, 4.0, 1e-12);
}
END_TEST

START_TEST(hug_sweep_and_crossings)
{
    ck_assert_double_eq_tol(ap_hug_sweep(0.0, 1.0, 1), 1.0, 1e-15);
    ck_assert_double_eq_tol(ap_hug_sweep(0.0, 1.0, -1), 2 * M_PI - 1.0, 1e-15);
    ck_assert_double_eq_tol(ap_hug_sweep(3.0, -3.0, 1), 2 * M_PI - 6.0, 1e-15);
    ck_assert(ap_hug_sweep(1.0, 1.0 + 2 * M_PI - 1e-12, 1) == 0.0);
    ck_assert(ap_segments_cross(0, 0, 2, 2, 0, 2, 2, 0));
    ck_assert(!ap_segments_cross(0, 0, 2, 2, 2, 2, 3, 0)); /* shared end point */
    ck_assert(!ap_segments_cross(0, 0, 2, 0, 1, 0, 3, 0)); /* collinear overlap */
    ck_assert(!ap_segments_cross(0, 0, 2, 2, 1, 1, 3, 0)); /* touches at one end */
    ck_assert(!ap_segments_cross(0, 0, 1, 1, 3, 0, 0, 3));
}
END_TEST

/* ---- circle worlds, by hand ------------------------------------------------------------------------------- */

typedef struct cw_case {
    ap_circle_world *cw;
    ap_aa_graph *g;
    ap_aa_query *q;
    ap_world world;
    aa_oracle_world ow;
} cw_case;

static void cw_open(cw_case *c, double w, double h, const ap_circle *circ, size_t n, double r_u)
{
    ck_assert_int_eq(ap_circle_world_create(w, h, circ, n, &c->cw, NULL, 0, NULL, 0), AP_OK);
    ck_assert_int_eq(ap_aa_graph_circles(c->cw, r_u, &c->g), AP_OK);
    ck_assert_int_eq(ap_aa_query_create(c->g, &c->q), AP_OK);
    ap_circle_world_view(c->cw, &c->world);
    c->ow = (aa_oracle_world){circ, n, w, h, NULL, r_u};
}

static void cw_close(cw_case *c)
{
    ap_aa_query_free(c->q);
    ap_aa_graph_free(c->g);
    ap_circle_world_free(c->cw);
}

/* Plan, check the answer's invariants and the oracle's length, return the length. */
static double cw_run(cw_case *c, double sx, double sy, double gx, double gy, ap_aa_result *res)
{
    ck_assert_int_eq(ap_aa_find(c->q, sx, sy, gx, gy, 0, res), AP_OK);
    aa_check_path(res, c->g, &c->ow, &c->world, sx, sy, gx, gy);
    double o = aa_oracle_length(&c->ow, sx, sy, gx, gy);
    ck_assert_double_eq_tol(res->length, o, 1e-9 * fmax(1.0, o));
    return res->length;
}

/* Without an eager table a circle's departures are O(circles), one expansion 0.1-0.5 s on the largest worlds
 * (a helper: 450,000 circles, 452 ms for a 50 ms deadline): they give up at the deadline (read every 1,024
 * targets) and the search ends as timeout. 100,000 circles and a deadline 10 ms ahead: the start's expansion
 * (tens of ms here) stops before it has made its departures, none generated; without the deadline it makes
 * thousands. (On a host so slow that the deadline passes before the first expansion, the search stops there:
 * the same answer.) */
START_TEST(departures_give_up_at_the_deadline)
{
    enum { NX = 500, NY = 200 };
    ap_circle *circ = malloc(sizeof *circ * NX * NY);
    ck_assert_ptr_nonnull(circ);
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            circ[i * NY + j] = (ap_circle){2.0 * i + 2.0, 2.0 * j + 2.0, 0.3};
    cw_case c;
    cw_open(&c, 2.0 * NX + 2.0, 2.0 * NY + 2.0, circ, NX * NY, 0.0);
    ap_aa_result res;
    /* the line between them runs through the first row of circles */
    ck_assert_int_eq(ap_aa_find(c.q, 1.0, 2.0, 2.0 * NX + 1.0, 2.0, ap_clock_ns() + 10 * 1000 * 1000, &res),
                     AP_TIMEOUT);
    ck_assert_uint_le(res.generated, 1);
    ck_assert_uint_le(res.expanded, 1);
    /* without a deadline: the start's expansion alone */
    ck_assert_int_eq(ap_aa_begin(c.q, 1.0, 2.0, 2.0 * NX + 1.0, 2.0, 0, &res), AP_IN_PROGRESS);
    ck_assert_int_eq(ap_aa_run(c.q, 1, &res), AP_IN_PROGRESS);
    ck_assert_uint_eq(res.expanded, 1);
    ck_assert_uint_gt(res.generated, 1000);
    cw_close(&c);
    free(circ);
}
END_TEST

/* A run begun again for a larger node table (the query object starts small: AP_AA_NODES_START ids) keeps
 * the departure lists its earlier runs made: on a lazy graph they are most of the search's time. The same
 * query on the grown object (no restart) makes the same lists, as many, and the same path. */
START_TEST(restart_keeps_the_departures)
{
    /* a field of small circles below a wall of overlapping ones, open only at its right end: the search
     * fills the field before it goes round */
    enum { NX = 30, NY = 12, NW = 44 };
    ap_circle circ[NX * NY + NW];
    size_t n = 0;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            circ[n++] = (ap_circle){3.0 * i + 2.0 + 0.4 * (j % 3), 3.0 * j + 2.0, 0.5 + 0.1 * ((i + j) % 4)};
    for (int k = 0; k < NW; k++) /* y = 38, x from 1 to 87: overlapping, the map's right edge at 92 open */
        circ[n++] = (ap_circle){1.0 + 2.0 * k, 38.0, 1.2};
    cw_case c;
    cw_open(&c, 92.0, 60.0, circ, n, 0.0);
    ap_aa_result cold, warm;
    ck_assert_int_eq(ap_aa_find(c.q, 45.0, 30.5, 45.0, 50.0, 0, &cold), AP_OK);
    const double len = cold.length;
    const uint64_t lists = cold.departure_lists, expanded = cold.expanded;
    ck_assert_int_eq(ap_aa_find(c.q, 45.0, 30.5, 45.0, 50.0, 0, &warm), AP_OK);
    ck_assert_uint_gt(expanded, warm.expanded); /* the cold object's search was begun again */
    /* ... twice (4,096 and 16,384 ids, void; the third run's 65,536 hold its 38,873 nodes), each void run ended
     * where its table ran out: a run that popped the rest of its open list for nothing counted about one
     * expansion an id (20,478 more than the warm search's; 8,848 now) */
    ck_assert_uint_eq(warm.nodes, 38873);
    ck_assert_uint_lt(expanded - warm.expanded, (AP_AA_NODES_START + 4 * AP_AA_NODES_START) / 2);
    ck_assert_uint_eq(lists, warm.departure_lists);
    ck_assert_double_eq(len, warm.length);
    cw_close(&c);
}
END_TEST

static size_t count_arcs(const ap_aa_result *res)
{
    size_t k = 0;
    for (size_t i = 0; i < res->n_segs; i++)
        k += res->segs[i].type == AP_SEG_ARC;
    return k;
}

START_TEST(hugging_one_circle)
{
    /* Start and goal 8 from a circle of radius 2 on a line through its centre: two tangents of
     * sqrt(64 - 4) and the arc between the tangent points, pi - 2 acos(2 / 8) radians. */
    const ap_circle c[] = {{10, 5, 2}};
    cw_case k;
    cw_open(&k, 20, 10, c, 1, 0.0);
    ap_aa_result res;
    double L = cw_run(&k, 2, 5, 18, 5, &res);
    ck_assert_double_eq_tol(L, 2 * sqrt(60.0) + 2 * (M_PI - 2 * acos(0.25)), 1e-12);
    ck_assert_uint_eq(res.n_segs, 3);
    ck_assert_uint_eq(count_arcs(&res), 1);
    cw_close(&k);
    /* Minkowski expansion: a unit of radius 0.5 hugs the circle grown to 2.5. */
    cw_open(&k, 20, 10, c, 1, 0.5);
    L = cw_run(&k, 2, 5, 18, 5, &res);
    ck_assert_double_eq_tol(L, 2 * sqrt(64.0 - 6.25) + 5 * (M_PI / 2 - acos(2.5 / 8)), 1e-12);
    ck_assert_double_eq_tol(res.segs[1].radius, 2.5, 1e-15);
    cw_close(&k);
}
END_TEST

START_TEST(external_and_internal_bitangents)
{
    /* Two circles of radius 1 at (6, 5) and (14, 5) (Red Blob's bitangent figures). */
    const ap_circle c[] = {{6, 5, 1}, {14, 5, 1}};
    cw_case k;
    cw_open(&k, 20, 10, c, 2, 0.0);
    ap_aa_result res;
    /* Along the axis through both centres: hug the top (or bottom) of both, joined by the external
     * bitangent of equal circles (parallel to the axis, length 8). */
    double L = cw_run(&k, 2, 5, 18, 5, &res);
    double leg = sqrt(16.0 - 1.0), turn = M_PI / 2 - acos(0.25);
    ck_assert_double_eq_tol(L, 2 * leg + 2 * turn + 8.0, 1e-12);
    ck_assert_uint_eq(count_arcs(&res), 2);
    ck_assert_double_eq_tol(res.segs[2].length, 8.0, 1e-12);
    /* Start just above circle 0's axis on its left, goal just below circle 1's on its right: the path
     * goes over the first circle and under the second, so the middle piece is the internal bitangent
     * (length sqrt(8^2 - (1 + 1)^2)) and the two arcs turn opposite ways. Each end's tangent is
     * sqrt(2^2 + 0.5^2 - 1) long; each arc runs from that tangent's point, at pi - atan(0.25) -
     * acos(1 / sqrt(4.25)) from the axis, to the internal bitangent's, at acos((1 + 1) / 8). */
    L = cw_run(&k, 4, 5.5, 16, 4.5, &res);
    const double arc = M_PI - atan(0.25) - acos(1.0 / sqrt(4.25)) - acos(0.25);
    ck_assert_double_eq_tol(L, 2 * sqrt(3.25) + sqrt(60.0) + 2 * arc, 1e-12);
    ck_assert_double_eq_tol(fabs(res.segs[1].sweep), arc, 1e-12);
    ck_assert_uint_eq(res.n_segs, 5);
    ck_assert_double_eq_tol(res.segs[2].length, sqrt(60.0), 1e-12);
    ck_assert(res.segs[1].type == AP_SEG_ARC && res.segs[3].type == AP_SEG_ARC);
    ck_assert(res.segs[1].sweep * res.segs[3].sweep < 0.0);
    ck_assert_double_eq_tol(res.segs[1].sweep, -res.segs[3].sweep, 1e-12); /* symmetric about (10, 5) */
    cw_close(&k);
}
END_TEST

START_TEST(overlapping_circles_form_one_wall)
{
    /* Three overlapping circles make a vertical wall from y = 1 to y = 9 in a 20 x 10 world; the path
     * must go round an end, never through the lens where two circles overlap. */
    const ap_circle c[] = {{10, 2.5, 1.6}, {10, 5, 1.6}, {10, 7.5, 1.6}};
    cw_case k;
    cw_open(&k, 20, 10, c, 3, 0.0);
    ap_aa_result res;
    double L = cw_run(&k, 5, 5, 15, 5, &res);
    ck_assert(L > 10.0 + 1.0);
    for (size_t i = 0; i < res.n_segs; i++)
        if (res.segs[i].type == AP_SEG_ARC)
            ck_assert(fabs(res.segs[i].cy - 5.0) > 1.0); /* hugs an end circle, not the middle one */
    cw_close(&k);
    /* A unit too wide for the gap between the wall and the border has no path. */
    const ap_circle full[] = {{10, 1, 1.6}, {10, 5, 3}, {10, 9, 1.6}};
    cw_open(&k, 20, 10, full, 3, 0.2);
    ck_assert_int_eq(ap_aa_find(k.q, 5, 5, 15, 5, 0, &res), AP_NO_PATH);
    ck_assert(isinf(aa_oracle_length(&k.ow, 5, 5, 15, 5)));
    cw_close(&k);
}
END_TEST

START_TEST(cusps_are_never_taken)
{
    /* Red Blob's cusp figure: a path entering a circle clockwise must leave it clockwise. A cusped path
     * (arrive going one way round, leave going the other) would show as a heading jump at a join, which
     * aa_check_path rejects, and could not be the oracle's length. */
    const ap_circle c[] = {{10, 5, 3}, {4, 5, 1.0}};
    cw_case k;
    cw_open(&k, 20, 10, c, 2, 0.0);
    ap_aa_result res;
    /* From above to below the big circle, the straight line through it blocked: around one side, one
     * arc, both tangents leaving it along its end headings (G1, checked by cw_run). */
    cw_run(&k, 9, 9.5, 11, 0.5, &res);
    ck_assert_uint_eq(count_arcs(&res), 1);
    cw_run(&k, 1, 5.2, 16, 4.8, &res);
    ck_assert(count_arcs(&res) >= 1);
    cw_close(&k);
}
END_TEST

START_TEST(crossing_edges_are_culled_safely)
{
    /* A forest where many pairs of consecutive bitangents cross (circles close together on a ring); the
     * culled search still finds the oracle's optimum every time. */
    ap_circle c[8];
    for (int i = 0; i < 8; i++)
        c[i] = (ap_circle){10 + 5 * cos(i * M_PI / 4), 10 + 5 * sin(i * M_PI / 4), 1.2};
    cw_case k;
    cw_open(&k, 20, 20, c, 8, 0.1);
    ap_aa_result res;
    uint64_t culled = 0;
    cw_run(&k, 10, 10, 19, 19, &res);
    culled += res.crossings_culled;
    cw_run(&k, 1, 10, 19, 10, &res);
    culled += res.crossings_culled;
    cw_run(&k, 10, 1, 10, 19, &res);
    culled += res.crossings_culled;
    ck_assert_uint_gt(culled, 0); /* the culling did happen */
    cw_close(&k);
}
END_TEST

START_TEST(blocked_ends_and_trivial_queries)
{
    const ap_circle c[] = {{10, 5, 2}};
    cw_case k;
    cw_open(&k, 20, 10, c, 1, 0.5);
    ap_aa_result res;
    ck_assert_int_eq(ap_aa_find(k.q, 10, 5, 18, 5, 0, &res), AP_E_START_BLOCKED);
    ck_assert_int_eq(ap_aa_find(k.q, 2, 5, 10, 6, 0, &res), AP_E_GOAL_BLOCKED);
    ck_assert_int_eq(ap_aa_find(k.q, 0.2, 5, 18, 5, 0, &res), AP_E_START_BLOCKED); /* disc leaves the world */
    ck_assert_int_eq(ap_aa_find(k.q, NAN, 5, 18, 5, 0, &res), AP_E_INVALID_REQUEST);
    ck_assert_int_eq(ap_aa_find(k.q, 3, 3, 3, 3, 0, &res), AP_OK);
    ck_assert_uint_eq(res.n_segs, 0);
    ck_assert_double_eq(res.length, 0.0);
    /* Touching is allowed (graph.h): a start exactly r_u + r from the centre is a valid start. */
    ck_assert_int_eq(ap_aa_find(k.q, 7.5, 5, 18, 5, 0, &res), AP_OK);
    /* A usable straight line is the answer at once: one line, no search (ap_aa_begin), the oracle's length. */
    ck_assert_double_eq_tol(cw_run(&k, 2, 1, 18, 1.5, &res), hypot(16, 0.5), 1e-12);
    ck_assert_uint_eq(res.n_segs, 1);
    ck_assert_uint_eq(res.expanded, 0);
    /* one that grazes the grown circle (distance exactly 2.5 from its centre) is usable too (touching) */
    ck_assert_double_eq_tol(cw_run(&k, 2, 2.5, 18, 2.5, &res), 16.0, 1e-12);
    ck_assert_uint_eq(res.expanded, 0);
    /* and one that cuts it is not: the search runs and goes round */
    ck_assert(cw_run(&k, 2, 3, 18, 3, &res) > 16.0);
    ck_assert_uint_gt(res.expanded, 0);
    cw_close(&k);
}
END_TEST

/* ---- random worlds against the oracle ------------------------------------------------------------------- */

static void random_point(ap_test_rng *g, const aa_oracle_world *ow, double w, double h, double *x, double *y)
{
    for (int t = 0; t < 200; t++) {
        *x = ap_test_rand01(g) * w;
        *y = ap_test_rand01(g) * h;
        if (aa_oracle_line_ok(ow, *x, *y, *x, *y))
            return;
    }
    *x = NAN;
}

START_TEST(random_circle_worlds_match_the_oracle)
{
    ap_test_rng g = {20261124};
    const double radii[3] = {0.0, 0.25, 0.6};
    int paths = 0, with_arcs = 0, none = 0;
    for (int t = 0; t < 240; t++) {
        size_t n = 2 + ap_test_rand(&g) % 8;
        ap_circle c[10];
        for (size_t i = 0; i < n; i++)
            c[i] = (ap_circle){ap_test_rand01(&g) * 20, ap_test_rand01(&g) * 20, 0.3 + ap_test_rand01(&g) * 2.7};
        cw_case k;
        cw_open(&k, 20, 20, c, n, radii[t % 3]);
        /* Every other world with the eager table: both ways must meet the oracle. */
        if (t % 2 == 1) {
            ck_assert_int_eq(ap_aa_graph_precompute(k.g), AP_OK);
            ck_assert_ptr_nonnull(k.g->dep_start);
        }
        double sx, sy, gx, gy;
        random_point(&g, &k.ow, 20, 20, &sx, &sy);
        random_point(&g, &k.ow, 20, 20, &gx, &gy);
        if (isnan(sx) || isnan(gx)) {
            cw_close(&k);
            continue;
        }
        ap_aa_result res;
        int st = ap_aa_find(k.q, sx, sy, gx, gy, 0, &res);
        double o = aa_oracle_length(&k.ow, sx, sy, gx, gy);
        if (isinf(o)) {
            ck_assert_int_eq(st, AP_NO_PATH);
            none++;
        } else {
            ck_assert_msg(st == AP_OK, "world %d: status %d, oracle %.12f", t, st, o);
            aa_check_path(&res, k.g, &k.ow, &k.world, sx, sy, gx, gy);
            ck_assert_msg(fabs(res.length - o) <= 1e-9 * fmax(1.0, o), "world %d: %.12f vs oracle %.12f", t,
                          res.length, o);
            paths++;
            with_arcs += count_arcs(&res) > 0;
        }
        cw_close(&k);
    }
    printf("anyangle: %d random circle worlds matched the oracle (%d with arcs, %d without a path)\n",
           paths + none, with_arcs, none);
    ck_assert_int_ge(paths + none, 200);
    ck_assert_int_ge(with_arcs, 60);
}
END_TEST

/* A random w x h map with about `blocked` blocked cells (test map text built here). */
static ap_map *random_map(ap_test_rng *g, int w, int h, int blocked)
{
    char grid[32][32];
    memset(grid, '.', sizeof grid);
    for (int b = 0; b < blocked; b++)
        grid[ap_test_rand(g) % (unsigned)h][ap_test_rand(g) % (unsigned)w] = '@';
    return ap_test_map_from_cells(&grid[0][0], 32, w, h);
}

/* Make a graph lazy: drop its eager table (the search reads it only when present). */
static void drop_eager_table(ap_aa_graph *g)
{
    free(g->dep_start);
    free(g->deps);
    g->dep_start = NULL;
    g->deps = NULL;
    g->n_deps = 0;
}

static int grid_trials(ap_test_rng *g, int trials, double r_u, int *with_turns)
{
    int done = 0;
    for (int t = 0; t < trials; t++) {
        ap_map *m = random_map(g, 7, 7, 9 + (int)(ap_test_rand(g) % 6));
        ap_aa_graph *gr;
        ap_aa_query *q;
        ck_assert_int_eq(ap_aa_graph_grid(m, r_u, &gr), AP_OK);
        ck_assert_ptr_nonnull(gr->dep_start); /* small grids get the eager table */
        if (t % 2 == 1)
            drop_eager_table(gr); /* every other map runs lazily */
        ck_assert_int_eq(ap_aa_query_create(gr, &q), AP_OK);
        ap_world world;
        ap_map_world(m, &world);
        aa_oracle_world ow = {NULL, 0, 0, 0, m, r_u};
        double sx, sy, gx, gy;
        random_point(g, &ow, 7, 7, &sx, &sy);
        random_point(g, &ow, 7, 7, &gx, &gy);
        /* Every third query of a point unit runs corner to corner, where the model's touches matter most. */
        if (r_u == 0.0 && t % 3 == 0 && !isnan(sx)) {
            sx = round(sx);
            sy = round(sy);
            gx = round(gx);
            gy = round(gy);
            if (!aa_oracle_line_ok(&ow, sx, sy, sx, sy) || !aa_oracle_line_ok(&ow, gx, gy, gx, gy))
                sx = NAN;
        }
        if (!isnan(sx) && !isnan(gx)) {
            ap_aa_result res;
            int st = ap_aa_find(q, sx, sy, gx, gy, 0, &res);
            double o = aa_oracle_length(&ow, sx, sy, gx, gy);
            if (isinf(o)) {
                ck_assert_msg(st == AP_NO_PATH, "map %d r %.2f (%.6f,%.6f)->(%.6f,%.6f): status %d, oracle none", t,
                              r_u, sx, sy, gx, gy, st);
            } else {
                ck_assert_msg(st == AP_OK, "map %d r %.2f: status %d, oracle %.12f", t, r_u, st, o);
                aa_check_path(&res, gr, &ow, &world, sx, sy, gx, gy);
                /* A verified answer's lines are ones the graph's own test accepts (the plan layer tests only
                 * its arcs then); every answer with segments is verified. */
                ck_assert(res.n_segs == 0 || res.verified);
                AP_EXPECT(!res.arcs_verified || ap_aa_graph_arcs_ok(gr, res.segs, res.n_segs),
                          "map %d r %.2f: arcs verified but not accepted", t, r_u);
                ck_assert(ap_aa_graph_path_ok(gr, res.segs, res.n_segs, sx, sy));
                ck_assert_msg(fabs(res.length - o) <= 1e-9 * fmax(1.0, o),
                              "map %d r %.2f (%.6f,%.6f)->(%.6f,%.6f): %.12f vs oracle %.12f", t, r_u, sx, sy, gx, gy,
                              res.length, o);
                *with_turns += res.n_segs > 1;
            }
            done++;
        }
        ap_aa_query_free(q);
        ap_aa_graph_free(gr);
        ap_map_free(m);
    }
    return done;
}

START_TEST(random_grid_maps_match_the_oracle)
{
    ap_test_rng g = {77};
    int turns0 = 0, turns1 = 0;
    int n0 = grid_trials(&g, 150, 0.0, &turns0);
    int n1 = grid_trials(&g, ap_test_quick() ? 60 : 120, 0.3, &turns1);
    printf("anyangle: %d point-unit and %d radius-0.3 random grid queries matched the oracle (%d and %d turn)\n",
           n0, n1, turns0, turns1);
    ck_assert_int_ge(n0, 100);
    ck_assert_int_ge(n1, 40);
    ck_assert_int_ge(turns0, 20);
    ck_assert_int_ge(turns1, 10);
}
END_TEST

/* ---- the point unit's grid rule, by hand ----------------------------------------------------------------- */

START_TEST(point_rule_on_grids)
{
    /* Cells (1, 1) and (2, 2) blocked: a diagonal pair sharing vertex (2, 2). */
    ap_map *m = ap_test_map_from_string("type octile\nheight 4\nwidth 4\nmap\n....\n.@..\n..@.\n....\n");
    ck_assert(ap_aa_grid_point_line_ok(m, 0.5, 0.5, 1.0, 3.5));   /* along the wall x = 1: touching */
    ck_assert(ap_aa_grid_point_line_ok(m, 0.0, 2.0, 2.0, 0.0));   /* through corner (1, 1)... (1,1) is */
    ck_assert(!ap_aa_grid_point_line_ok(m, 1.5, 3.5, 3.5, 0.5));  /* through cell (2, 2)'s interior */
    ck_assert(!ap_aa_grid_point_line_ok(m, 3.0, 1.0, 1.0, 3.0));  /* the squeeze at vertex (2, 2) */
    ck_assert(!ap_aa_grid_point_line_ok(m, 2.0, 2.0, 2.0, 2.0));  /* the squeeze vertex itself */
    ck_assert(ap_aa_grid_point_line_ok(m, 1.0, 1.0, 1.0, 1.0));   /* a convex corner */
    ck_assert(ap_aa_grid_point_line_ok(m, 0.0, 0.0, 4.0, 0.0));   /* along the border */
    ck_assert(!ap_aa_grid_point_line_ok(m, -0.1, 0.0, 4.0, 0.0)); /* off the map */
    ap_map_free(m);
    /* Two blocked cells side by side: their shared edge is inside the obstacle. */
    m = ap_test_map_from_string("type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n");
    ck_assert(!ap_aa_grid_point_line_ok(m, 2.0, 0.5, 2.0, 2.5));
    ck_assert(!ap_aa_grid_point_line_ok(m, 2.0, 1.5, 2.0, 1.5));
    /* Along that edge a rounding step off the grid line (an art corner, a start 1e-11 beside it): inside
     * too. Before, only an exactly vertical segment was caught; these went through the block. */
    ck_assert(!ap_aa_grid_point_line_ok(m, 2.00000000001, 0.5, 2.0, 2.5));
    ck_assert(!ap_aa_grid_point_line_ok(m, 2.0, 2.5, 2.0 + 4e-15, 0.5));
    ck_assert(ap_aa_grid_point_line_ok(m, 1.0 - 1e-11, 0.5, 1.0, 2.5)); /* the block's outer side: touching */
    ck_assert(ap_aa_grid_point_line_ok(m, 0.5, 1.0, 3.5, 1.0));   /* along the top edges */
    ap_map *v = ap_test_map_from_string("type octile\nheight 4\nwidth 3\nmap\n...\n.@.\n.@.\n...\n");
    ck_assert(!ap_aa_grid_point_line_ok(v, 0.5, 2.00000000001, 2.5, 2.0)); /* the stacked pair's shared edge */
    ck_assert(!ap_aa_grid_point_line_ok(v, 0.5, 2.0 + 4e-15, 2.5, 2.0));
    ck_assert(ap_aa_grid_point_line_ok(v, 0.5, 1.0 - 1e-11, 2.5, 1.0)); /* the pair's top side: touching */
    ck_assert(ap_aa_grid_point_line_ok(v, 1.0, 4.0, 1.0 + 1e-11, 0.0)); /* along x = 1: free beside it */
    ap_map_free(v);
    /* Along the map's border beside a blocked cell: the off-map side counts as blocked. */
    v = ap_test_map_from_string("type octile\nheight 3\nwidth 3\nmap\n.@.\n...\n...\n");
    ck_assert(!ap_aa_grid_point_line_ok(v, 0.5, 1e-12, 2.5, 0.0));
    ck_assert(ap_aa_grid_point_line_ok(v, 0.0, 0.5, 0.0, 2.5)); /* the free left border */
    ap_map_free(v);
    /* Around the pair from (0.5, 1.5) to (3.5, 1.5): up to corner (1, 1), along the top to (3, 1), down. */
    ap_aa_graph *g;
    ap_aa_query *q;
    ck_assert_int_eq(ap_aa_graph_grid(m, 0.0, &g), AP_OK);
    ck_assert_uint_eq(g->n, 4); /* the four corners of the 2 x 1 block */
    ck_assert_int_eq(ap_aa_query_create(g, &q), AP_OK);
    ap_aa_result res;
    ck_assert_int_eq(ap_aa_find(q, 0.5, 1.5, 3.5, 1.5, 0, &res), AP_OK);
    ck_assert_double_eq_tol(res.length, 2 * sqrt(0.5) + 2.0, 1e-12);
    ck_assert_uint_eq(res.n_segs, 3);
    ap_aa_query_free(q);
    ap_aa_graph_free(g);
    /* A unit of radius 0.25 hugs the grown block: two quarter-turn arcs of radius 0.25 around (1, 1) and
     * (3, 1) joined by the top edge offset by 0.25; the legs are tangents from the ends. */
    ck_assert_int_eq(ap_aa_graph_grid(m, 0.25, &g), AP_OK);
    ck_assert_int_eq(ap_aa_query_create(g, &q), AP_OK);
    ck_assert_int_eq(ap_aa_find(q, 0.5, 1.5, 3.5, 1.5, 0, &res), AP_OK);
    aa_oracle_world ow = {NULL, 0, 0, 0, m, 0.25};
    ck_assert_double_eq_tol(res.length, aa_oracle_length(&ow, 0.5, 1.5, 3.5, 1.5), 1e-12);
    ck_assert(res.length > 2 * sqrt(0.5) + 2.0);
    ap_aa_query_free(q);
    ap_aa_graph_free(g);
    ck_assert_int_eq(ap_aa_graph_grid(m, 1e-7, &g), AP_E_INVALID_REQUEST); /* below AP_AA_GRID_MIN_RADIUS */
    ck_assert_ptr_null(g);
    ap_map_free(m);
}
END_TEST

/* The point rule's verdict does not depend on which end comes first (what lets a verified answer skip its
 * second test, anyangle.h): random segments on random maps, ends at vertices, on grid lines, at random and
 * a hair off those (where rounding decides), both ways. */
START_TEST(point_rule_is_symmetric)
{
    ap_test_rng rng = {0x5e77a1ull};
    const double hair[5] = {0.0, 1e-10, -1e-10, 1e-9, -3e-9};
    long asked = 0, accepted = 0;
    for (int t = 0; t < (ap_test_quick() ? 60 : 300); t++) {
        ap_map *m = ap_test_speckled_map(&rng, 12, 12, 0.15 + 0.2 * ap_test_rand01(&rng));
        for (int i = 0; i < 400; i++) {
            double p[4];
            for (int k = 0; k < 4; k += 2) {
                const unsigned kind = ap_test_rand(&rng) % 4;
                double x = floor(ap_test_rand01(&rng) * 13.0), y = floor(ap_test_rand01(&rng) * 13.0);
                if (kind == 1)
                    y = ap_test_rand01(&rng) * 12.0;
                else if (kind == 2)
                    x = ap_test_rand01(&rng) * 12.0, y = ap_test_rand01(&rng) * 12.0;
                else if (kind == 3)
                    x += 0.5, y += 0.5;
                p[k] = fmin(12.0, x + hair[ap_test_rand(&rng) % 5]);
                p[k + 1] = fmin(12.0, y + hair[ap_test_rand(&rng) % 5]);
            }
            const bool ab = ap_aa_grid_point_line_ok(m, p[0], p[1], p[2], p[3]);
            const bool ba = ap_aa_grid_point_line_ok(m, p[2], p[3], p[0], p[1]);
            AP_EXPECT(ab == ba, "map %d: (%.17g, %.17g) -> (%.17g, %.17g) %d, reversed %d", t, p[0], p[1], p[2], p[3],
                      ab, ba);
            asked++;
            accepted += ab;
        }
        ap_map_free(m);
    }
    ck_assert_int_gt(accepted, asked / 20);
    ck_assert_int_lt(accepted, asked - asked / 20);
}
END_TEST

/* ---- Moving AI maps ---------------------------------------------------------------------------------------- */

START_TEST(movingai_point_unit_bounds)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("anyangle: Moving AI bounds");
        return;
    }
    const char *maps[] = {"den520d", "arena2", "AR0011SR"};
    const int want = 60;
    for (size_t mi = 0; mi < sizeof maps / sizeof maps[0]; mi++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.map", dir, maps[mi]);
        ap_map *m;
        ap_diag d;
        ck_assert_int_eq(ap_map_load(path, NULL, &m, &d), AP_OK);
        snprintf(path, sizeof path, "%s/%s.map.scen", dir, maps[mi]);
        ap_test_scen *sc;
        size_t n;
        ck_assert_int_eq(ap_test_load_scen(path, &sc, &n), 0);
        ap_aa_graph *g;
        ap_aa_query *q;
        ck_assert_int_eq(ap_aa_graph_grid(m, 0.0, &g), AP_OK);
        ck_assert_int_eq(ap_aa_query_create(g, &q), AP_OK);
        /* On arena2 the first lines also run lazily (no eager table): the same lengths. */
        ap_aa_graph *lazy = NULL;
        ap_aa_query *ql = NULL;
        if (mi == 1) {
            ck_assert_int_eq(ap_aa_graph_grid(m, 0.0, &lazy), AP_OK);
            drop_eager_table(lazy);
            ck_assert_int_eq(ap_aa_query_create(lazy, &ql), AP_OK);
        }
        size_t step = n / (size_t)want > 0 ? n / (size_t)want : 1;
        int done = 0, shorter = 0;
        for (size_t i = 0; i < n && done < want; i += step) {
            const ap_test_scen *s = &sc[i];
            double sx = s->sx + 0.5, sy = s->sy + 0.5, gx = s->gx + 0.5, gy = s->gy + 0.5;
            ap_aa_result res;
            ck_assert_int_eq(ap_aa_find(q, sx, sy, gx, gy, 0, &res), AP_OK);
            ck_assert_msg(res.length <= s->optimal + ap_test_tolerance(s), "%s line %d: %.9f > octile %.9f",
                          maps[mi], s->line, res.length, s->optimal);
            ck_assert(res.length >= hypot(gx - sx, gy - sy) - 1e-9);
            ck_assert(ap_aa_graph_path_ok(g, res.segs, res.n_segs, sx, sy));
            shorter += res.length < s->optimal - 1e-6;
            if (ql != NULL && done < 15) {
                ap_aa_result lr;
                ck_assert_int_eq(ap_aa_find(ql, sx, sy, gx, gy, 0, &lr), AP_OK);
                ck_assert_double_eq_tol(lr.length, res.length, 1e-9 * res.length);
            }
            done++;
        }
        printf("anyangle: %s: %d scenario lines within [straight line, octile optimum], %d strictly shorter\n",
               maps[mi], done, shorter);
        ck_assert_int_ge(done, want);
        ap_aa_query_free(q);
        ap_aa_graph_free(g);
        ap_aa_query_free(ql);
        ap_aa_graph_free(lazy);
        free(sc);
        ap_map_free(m);
    }
}
END_TEST

Suite *anyangle_suite(void)
{
    Suite *s = suite_create("anyangle");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, bitangents_touch_both_circles_on_their_sense_side);
    tcase_add_test(tc, departures_give_up_at_the_deadline);
    tcase_add_test(tc, restart_keeps_the_departures);
    tcase_add_test(tc, hug_sweep_and_crossings);
    tcase_add_test(tc, hugging_one_circle);
    tcase_add_test(tc, external_and_internal_bitangents);
    tcase_add_test(tc, overlapping_circles_form_one_wall);
    tcase_add_test(tc, cusps_are_never_taken);
    tcase_add_test(tc, crossing_edges_are_culled_safely);
    tcase_add_test(tc, blocked_ends_and_trivial_queries);
    tcase_add_test(tc, point_rule_on_grids);
    tcase_add_test(tc, point_rule_is_symmetric);
    tcase_add_test(tc, random_circle_worlds_match_the_oracle);
    tcase_add_test(tc, random_grid_maps_match_the_oracle);
    tcase_add_test(tc, movingai_point_unit_bounds);
    suite_add_tcase(s, tc);
    return s;
}
