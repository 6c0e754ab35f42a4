/* helpers.c — assertions and reference searches shared by the planner suites (see suites.h). */
#include "tests/check_fast.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../planner/base/path.h"
#include "../../planner/world/circles.h"
#include "../../planner/world/clearance.h"
#include "suites.h"

ap_query ap_test_cell_query(const ap_map *m, ap_algorithm alg, int conn, int sx, int sy, int gx, int gy)
{
    return (ap_query){.map = m,
                      .sx = sx + 0.5,
                      .sy = sy + 0.5,
                      .gx = gx + 0.5,
                      .gy = gy + 0.5,
                      .algorithm = alg,
                      .connectivity = conn,
                      .smoothing = AP_SMOOTH_NONE};
}

void ap_test_assert_heading_eq(double a, double b, double tol)
{
    AP_EXPECT(fabs(ap_angle_wrap(a - b)) < tol, "heading %.17g != %.17g", a, b);
}

void ap_test_check_curve_chain(const ap_segment *s, size_t n, const ap_pose *a, const ap_pose *b, double r,
                               double total, double scale)
{
    AP_EXPECT_NEAR(s[0].x0, a->x, 1e-12 * scale);
    AP_EXPECT_NEAR(s[0].y0, a->y, 1e-12 * scale);
    ap_test_assert_heading_eq(s[0].heading, a->heading, 1e-12);
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        const ap_segment *g = &s[i];
        sum += g->length;
        if (g->type == AP_SEG_ARC) {
            AP_EXPECT_TRUE(g->radius == r);
            AP_EXPECT_NEAR(hypot(g->x0 - g->cx, g->y0 - g->cy), r, 1e-9 * scale);
            AP_EXPECT_NEAR(hypot(g->x1 - g->cx, g->y1 - g->cy), r, 1e-9 * scale);
            AP_EXPECT_NEAR(g->length, r * fabs(g->sweep), 1e-12 * scale);
            ap_pose e = ap_segment_pose(g, g->length);
            AP_EXPECT_NEAR(e.x, g->x1, 1e-9 * scale);
            AP_EXPECT_NEAR(e.y, g->y1, 1e-9 * scale);
            ap_test_assert_heading_eq(e.heading, ap_segment_end_heading(g), 1e-9);
        } else {
            AP_EXPECT_NEAR(g->length, hypot(g->x1 - g->x0, g->y1 - g->y0), 1e-9 * scale);
            double dx = g->x1 - g->x0, dy = g->y1 - g->y0;
            if (g->reverse) {
                dx = -dx;
                dy = -dy;
            }
            if (g->length > 1e-6 * scale)
                ap_test_assert_heading_eq(g->heading, atan2(dy, dx), 1e-8);
        }
        if (i + 1 < n) {
            AP_EXPECT_NEAR(s[i + 1].x0, g->x1, 1e-12 * scale);
            AP_EXPECT_NEAR(s[i + 1].y0, g->y1, 1e-12 * scale);
            ap_test_assert_heading_eq(ap_segment_end_heading(g), s[i + 1].heading, 1e-9);
        }
    }
    AP_EXPECT_TRUE(s[n - 1].x1 == b->x && s[n - 1].y1 == b->y);
    ap_test_assert_heading_eq(ap_segment_end_heading(&s[n - 1]), b->heading, 1e-9);
    AP_EXPECT_NEAR(sum, total, 1e-9 * scale);
}

ap_pose ap_test_rand_pose(ap_test_rng *g, double span)
{
    ap_pose p = {span * ap_test_rand01(g), span * ap_test_rand01(g), 4.0 * M_PI * ap_test_rand01(g) - 2.0 * M_PI};
    return p;
}

struct ap_circle_world *ap_test_forest_world(void)
{
    static const ap_circle c[] = {{8, 6, 3},    {10, 17, 4}, {17, 11, 2.5}, {20, 3, 2},  {24, 18, 3.5},
                                  {27, 9, 2},   {29, 10.5, 2}, {33, 4, 1.5}, {35, 16, 3}, {40, 12, 4}};
    size_t len;
    char *text = ap_test_read_file("config/maps/forest.circles.json", &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(strstr(text, "\"width\": 40,"));
    ck_assert_ptr_nonnull(strstr(text, "\"height\": 24,"));
    const size_t n = sizeof c / sizeof c[0];
    size_t in_file = 0;
    for (const char *t = strstr(text, "\"r\":"); t != NULL; t = strstr(t + 1, "\"r\":"))
        in_file++;
    ck_assert_uint_eq(in_file, n);
    for (size_t i = 0; i < n; i++) {
        char want[96];
        snprintf(want, sizeof want, "{\"x\": %g, \"y\": %g, \"r\": %g}", c[i].x, c[i].y, c[i].r);
        ck_assert_msg(strstr(text, want) != NULL, "forest.circles.json lacks %s", want);
    }
    free(text);
    ap_circle_world *cw;
    ck_assert_int_eq(ap_circle_world_create(40.0, 24.0, c, n, &cw, NULL, 0, NULL, 0), AP_OK);
    return cw;
}

ap_pose ap_test_drive(ap_pose p, const char *word, const double *len, double r)
{
    for (int i = 0; word[i] != '\0'; i++) {
        if (word[i] == 'S') {
            p.x += len[i] * cos(p.heading);
            p.y += len[i] * sin(p.heading);
        } else {
            double k = word[i] == 'L' ? 1.0 : -1.0;
            double cx = p.x - k * r * sin(p.heading), cy = p.y + k * r * cos(p.heading);
            p.heading += k * len[i] / r;
            p.x = cx + k * r * sin(p.heading);
            p.y = cy - k * r * cos(p.heading);
        }
    }
    return p;
}

void ap_test_check_driven_paths(unsigned long long seed, int n, int max_pieces, double s_max, double arc_max_r,
                                bool both_ways, double (*shortest)(const ap_pose *, const ap_pose *, double))
{
    AP_EXPECT_TRUE(max_pieces >= 1 && max_pieces <= 15);
    ap_test_rng g = {seed};
    for (int i = 0; i < n; i++) {
        ap_pose a = ap_test_rand_pose(&g, 10.0);
        double r = 0.5 + 3.0 * ap_test_rand01(&g);
        int k = 1 + (int)(ap_test_rand(&g) % (unsigned)max_pieces);
        char word[16];
        double len[15], total = 0.0;
        for (int j = 0; j < k; j++) {
            word[j] = "LRS"[ap_test_rand(&g) % 3];
            double u = ap_test_rand01(&g);
            len[j] = (word[j] == 'S' ? s_max : arc_max_r * r) * (both_ways ? 2.0 * u - 1.0 : u);
            total += fabs(len[j]);
        }
        word[k] = '\0';
        ap_pose b = ap_test_drive(a, word, len, r);
        double best = shortest(&a, &b, r);
        AP_EXPECT(best <= total + 1e-9 * fmax(1.0, total), "%s of %.12g beats %.12g", word, total, best);
    }
}

double ap_test_ref_dijkstra(const ap_map *m, int sx, int sy, int gx, int gy, ap_test_move_cost cost, const void *ctx)
{
    int W = m->width, H = m->height, n = W * H;
    double *dist = malloc((size_t)n * sizeof *dist);
    char *done = calloc((size_t)n, 1);
    AP_EXPECT_TRUE(dist != NULL && done != NULL);
    for (int i = 0; i < n; i++)
        dist[i] = INFINITY;
    dist[sy * W + sx] = 0.0;
    for (;;) {
        int u = -1;
        for (int i = 0; i < n; i++)
            if (!done[i] && dist[i] < INFINITY && (u < 0 || dist[i] < dist[u]))
                u = i;
        if (u < 0 || u == gy * W + gx)
            break;
        done[u] = 1;
        int ux = u % W, uy = u / W;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int vx = ux + dx, vy = uy + dy;
                if ((dx == 0 && dy == 0) || !ap_map_passable(m, vx, vy))
                    continue;
                double c = cost(m, ux, uy, vx, vy, ctx);
                if (dist[u] + c < dist[vy * W + vx])
                    dist[vy * W + vx] = dist[u] + c;
            }
    }
    double r = dist[gy * W + gx];
    free(dist);
    free(done);
    return r < INFINITY ? r : -1.0;
}

ap_result ap_test_run_plan(const ap_query *q, ap_workspace *ws)
{
    ap_plan p;
    int st = ap_plan_begin(&p, q, ws, 0);
    if (st == AP_IN_PROGRESS)
        st = ap_plan_step(&p, 0);
    ap_result r;
    int fs = ap_plan_finish(&p, &r);
    ck_assert_int_eq(fs, r.status);
    if (fs != AP_E_INVALID_REQUEST)
        ck_assert_int_eq(fs, st);
    return r;
}

int ap_test_grid_cost(const ap_map *m, ap_workspace *ws, ap_algorithm alg, double r, int sx, int sy, int gx, int gy,
                      uint64_t slice, double *cost)
{
    ap_query q = ap_test_cell_query(m, alg, 8, sx, sy, gx, gy);
    q.unit_radius = r;
    ap_plan p;
    int st = ap_plan_begin(&p, &q, ws, 0);
    while (st == AP_IN_PROGRESS)
        st = ap_plan_step(&p, slice);
    ap_result res;
    ck_assert_int_eq(ap_plan_finish(&p, &res), st);
    if (st == AP_OK) {
        /* r < 127/256 plans on the point grid, whose legal moves are exactly those of level > 0 */
        const ap_clearance_table *t = ap_clearance_of(m, m->capability);
        const uint8_t k = ap_clearance_level(r);
        AP_EXPECT_NEAR(res.length, res.grid_cost, 1e-9);
        for (size_t i = 1; i < res.n_waypoints && res.grid_cost > 0.0; i++) {
            const int x0 = (int)res.waypoints[i - 1][0], y0 = (int)res.waypoints[i - 1][1];
            const int x1 = (int)res.waypoints[i][0], y1 = (int)res.waypoints[i][1];
            AP_EXPECT(abs(x1 - x0) <= 1 && abs(y1 - y0) <= 1 && (x1 != x0 || y1 != y0), "step %zu not a move", i);
            AP_EXPECT(ap_clearance_move(t, ap_map_index(m, x0, y0), x1 - x0, y1 - y0) > k,
                      "(%d,%d)->(%d,%d) not clear for radius %g", x0, y0, x1, y1, r);
        }
        *cost = res.grid_cost;
    }
    ap_result_free(&res);
    return st;
}

int ap_test_jps_agree(const ap_map *m, ap_test_rng *rng, double r, int pairs, uint64_t slice)
{
    int found = 0;
    static const ap_algorithm algs[] = {AP_ALG_JPS, AP_ALG_JPS_PLUS};
    static const char *const names[] = {"jps", "jps_plus"};
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    for (int i = 0; i < pairs; i++) {
        int sx = (int)(ap_test_rand(rng) % (unsigned)m->width), sy = (int)(ap_test_rand(rng) % (unsigned)m->height);
        int gx = (int)(ap_test_rand(rng) % (unsigned)m->width), gy = (int)(ap_test_rand(rng) % (unsigned)m->height);
        double ca = -1.0;
        const int sa = ap_test_grid_cost(m, &ws, AP_ALG_ASTAR, r, sx, sy, gx, gy, 0, &ca);
        for (size_t a = 0; a < 2; a++) {
            double c = -1.0;
            const int st = ap_test_grid_cost(m, &ws, algs[a], r, sx, sy, gx, gy, slice, &c);
            AP_EXPECT(st == sa, "r %g (%d,%d)->(%d,%d): %s status %s, A* %s", r, sx, sy, gx, gy, names[a],
                      ap_status_name(st), ap_status_name(sa));
            if (st == AP_OK && sa == AP_OK)
                AP_EXPECT(fabs(c - ca) <= 1e-9, "r %g (%d,%d)->(%d,%d): %s cost %.12f, A* %.12f", r, sx, sy, gx, gy,
                          names[a], c, ca);
        }
        found += sa == AP_OK;
    }
    ap_workspace_free(&ws);
    return found;
}
