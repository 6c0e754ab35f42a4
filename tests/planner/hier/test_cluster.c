/* test_cluster.c — the HAA* graph's intra-cluster edges (planner/hier/cluster.c, hier.c intra_edges) against an
 * independent search: for every pair of transitions of a cluster and every class, the edge's cost is exactly
 * (as a float, bit for bit) the cost a plain O(n^2) Dijkstra over the cluster's cells finds with the class's
 * moves, INFINITY where the pair is not in the class's graph or not joined inside the cluster, and an edge
 * exists iff some class has a finite cost. On random uniform and weighted maps (every cluster) and on Moving
 * AI maps (a sample of clusters), a 1024^2 map included (its graph is built at load); and each edge's stored
 * detour per class (legal moves, the edge's cost) or, without one, a straight octile path as cheap. Also the
 * class levels' integer thresholds and the open lattice's costs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/hier/cluster.h"
#include "../../../planner/hier/hier.h"
#include "../../util.h"
#include "../suites.h"

#define C AP_HIER_CLUSTER

/* Is the move from padded cell a by (dx, dy) legal for class k: passable, no corner cutting, for k > 0 the
 * exact clearance over the class's radius (clearance.h)? Written from the definitions, not from cluster.c. */
static bool ref_move(const ap_map *m, const ap_clearance_table *t, int k, uint32_t a, int dx, int dy)
{
    const uint32_t b = (uint32_t)((int64_t)a + dx + (int64_t)dy * m->stride);
    if (!m->pass[b] || (dx && dy && (!m->pass[a + (uint32_t)dx] || !m->pass[(uint32_t)((int64_t)a + dy * m->stride)])))
        return false;
    return k == 0 || ap_clearance_allows(ap_clearance_move(t, a, dx, dy), ap_hier_class_radius[k]);
}

/* Dijkstra by scanning for the least unsettled cell, inside the cluster with top-left cell (x0, y0), class k,
 * from cell (sx, sy): d[(y - y0) * C + (x - x0)]. */
static void ref_dijkstra(const ap_map *m, const ap_clearance_table *t, int k, int32_t x0, int32_t y0, int32_t sx,
                         int32_t sy, double d[C * C])
{
    const int32_t w = m->width - x0 < C ? m->width - x0 : C, h = m->height - y0 < C ? m->height - y0 : C;
    bool done[C * C] = {false};
    for (int v = 0; v < C * C; v++)
        d[v] = INFINITY;
    d[(sy - y0) * C + (sx - x0)] = 0.0;
    for (;;) {
        int u = -1;
        for (int v = 0; v < C * C; v++)
            if (!done[v] && isfinite(d[v]) && (u < 0 || d[v] < d[u]))
                u = v;
        if (u < 0)
            return;
        done[u] = true;
        const int32_t ux = u % C, uy = u / C;
        const uint32_t a = ap_map_index(m, x0 + ux, y0 + uy);
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                const int32_t vx = ux + dx, vy = uy + dy;
                if ((dx == 0 && dy == 0) || vx < 0 || vy < 0 || vx >= w || vy >= h || !ref_move(m, t, k, a, dx, dy))
                    continue;
                const double nd =
                    d[u] + ap_map_move_cost(m, a, ap_map_index(m, x0 + vx, y0 + vy), dx && dy ? M_SQRT2 : 1.0);
                if (nd < d[vy * C + vx])
                    d[vy * C + vx] = nd;
            }
    }
}

/* The cost of the straight octile path from a to b (diagonal moves first, or straight ones first) of class-k
 * moves (ref_move), INFINITY when a move is not legal. */
static double ref_octile_path(const ap_map *m, const ap_clearance_table *t, int k, uint32_t a, uint32_t b,
                              bool diag_first)
{
    int32_t ax, ay, bx, by;
    ap_map_coords(m, a, &ax, &ay);
    ap_map_coords(m, b, &bx, &by);
    const int sx = bx > ax ? 1 : bx < ax ? -1 : 0, sy = by > ay ? 1 : by < ay ? -1 : 0;
    const int adx = abs(bx - ax), ady = abs(by - ay), nd = adx < ady ? adx : ady, ns = (adx > ady ? adx : ady) - nd;
    double c = 0.0;
    for (int i = 0; i < nd + ns; i++) {
        const bool diag = diag_first ? i < nd : i >= ns;
        const int dx = diag ? sx : (adx > ady ? sx : 0), dy = diag ? sy : (adx > ady ? 0 : sy);
        if (!ref_move(m, t, k, a, dx, dy))
            return INFINITY;
        const uint32_t n = (uint32_t)((int64_t)a + dx + (int64_t)dy * m->stride);
        c += ap_map_move_cost(m, a, n, diag ? M_SQRT2 : 1.0);
        a = n;
    }
    return c;
}

/* Edge ed from node i (class k cost want, finite) of cluster (x0, y0): its stored class-k detour (hier.h
 * ap_hier_edge_path) is made of class-k moves legal by ref_move inside the cluster from i's cell to the edge's
 * end and costs want; an edge without one has a straight octile path of class-k moves that cheap (the
 * refinement's first tries), unless the map's budget (AP_HIER_PATH_BYTES_PER_CELL) is used up (the small
 * random maps; not the Moving AI ones here). */
static void check_stored_path(const ap_map *m, const ap_clearance_table *t, const ap_hier *h, const ap_hier_edge *ed,
                              uint32_t i, int k, double want, int32_t x0, int32_t y0)
{
    const uint32_t b = h->cell[ed->to], at = ap_hier_edge_path(h, (uint32_t)(ed - h->edges), k);
    if (at == AP_HIER_NO_PATH) {
        /* beyond the budget: a cluster may store nothing once the paths before it take (nearly) all of it */
        const bool full = h->paths_len + 8 * (size_t)h->n_paths + 8 + 256 >=
                          (size_t)AP_HIER_PATH_BYTES_PER_CELL * (size_t)m->width * (size_t)m->height;
        const double c = fmin(ref_octile_path(m, t, k, h->cell[i], b, true), ref_octile_path(m, t, k, h->cell[i], b, false));
        ck_assert_msg(full || c <= want * (1.0 + 1e-6) + 1e-9,
                      "edge %u -> %u class %d: no stored path and no straight one (%.9g > %.9g)", i, ed->to, k, c, want);
        return;
    }
    const uint8_t *p = &h->paths[at];
    uint32_t a = h->cell[i];
    double c = 0.0;
    for (int s = 1; s <= p[0]; s++) {
        ck_assert_uint_lt(p[s], 8);
        const int dx = ap_hier_dx[p[s]], dy = ap_hier_dy[p[s]];
        ck_assert_msg(ref_move(m, t, k, a, dx, dy), "edge %u -> %u class %d: stored move %d not legal", i, ed->to, k, s);
        const uint32_t n = (uint32_t)((int64_t)a + dx + (int64_t)dy * m->stride);
        int32_t x, y;
        ap_map_coords(m, n, &x, &y);
        ck_assert(x >= x0 && x < x0 + C && y >= y0 && y < y0 + C);
        c += ap_map_move_cost(m, a, n, dx && dy ? M_SQRT2 : 1.0);
        a = n;
    }
    ck_assert_uint_eq(a, b);
    ck_assert_msg(fabs(c - want) <= 1e-6 * want, "edge %u -> %u class %d: stored path costs %.9g, the edge %.9g", i,
                  ed->to, k, c, want);
}

/* Every intra-cluster edge of m's graph in every `every`-th cluster against ref_dijkstra, and its stored
 * class-0 detour (check_stored_path); returns the number of (pair, class) costs compared. */
static size_t check_graph(const ap_map *m, int every)
{
    const ap_hier *h = ap_hier_of(m);
    ck_assert_ptr_nonnull(h);
    const ap_clearance_table *t = h->clear;
    size_t compared = 0;
    for (uint32_t cl = 0; cl < (uint32_t)(h->cw * h->ch); cl += (uint32_t)every) {
        const uint32_t f = h->cl_first[cl], l = h->cl_first[cl + 1];
        const int32_t x0 = ((int32_t)cl % h->cw) * C, y0 = ((int32_t)cl / h->cw) * C;
        for (uint32_t i = f; i < l; i++) {
            double d[AP_HIER_CLASSES][C * C];
            int32_t sx, sy;
            ap_map_coords(m, h->cell[i], &sx, &sy);
            for (int k = 0; k < AP_HIER_CLASSES; k++)
                if (k == 0 || t != NULL)
                    ref_dijkstra(m, t, k, x0, y0, sx, sy, d[k]);
            for (uint32_t j = f; j < l; j++) {
                if (j == i)
                    continue;
                const ap_hier_edge *ed = NULL;
                for (uint32_t e = h->first[i]; e < h->first[i + 1]; e++)
                    if (h->edges[e].to == j) {
                        ck_assert_ptr_null(ed); /* one edge per pair */
                        ed = &h->edges[e];
                    }
                int32_t x, y;
                ap_map_coords(m, h->cell[j], &x, &y);
                bool any = false;
                for (int k = 0; k < AP_HIER_CLASSES; k++) {
                    const bool in = (h->classes[i] & h->classes[j]) >> k & 1u &&
                                    (k == 0 || (t != NULL && ap_clearance_allows(t->disc[h->cell[i]], ap_hier_class_radius[k]) &&
                                                ap_clearance_allows(t->disc[h->cell[j]], ap_hier_class_radius[k])));
                    const float want = in ? (float)d[k][(y - y0) * C + (x - x0)] : INFINITY;
                    any |= isfinite(want);
                    const float got = ed != NULL ? ed->cost[k] : INFINITY;
                    ck_assert_msg(got == want || (isinf(got) && isinf(want)),
                                  "cluster %u nodes %u -> %u class %d: edge %.9g, reference %.9g", cl, i, j, k,
                                  (double)got, (double)want);
                    compared++;
                }
                ck_assert_msg(any == (ed != NULL), "cluster %u nodes %u -> %u: edge %s without a finite class", cl, i,
                              j, ed != NULL ? "kept" : "missing");
                for (int k = 0; k < AP_HIER_CLASSES && ed != NULL; k++) {
                    if (isfinite(ed->cost[k]))
                        check_stored_path(m, t, h, ed, i, k, d[k][(y - y0) * C + (x - x0)], x0, y0);
                    else
                        ck_assert_uint_eq(ap_hier_edge_path(h, (uint32_t)(ed - h->edges), k), AP_HIER_NO_PATH);
                }
            }
        }
    }
    return compared;
}

/* A random w x h map: '@' with probability pw, 'S' with ps, else '.'; a few open squares so discs of every
 * class find room. Loaded with opts. */
static ap_map *random_map(ap_test_rng *g, int w, int h, double pw, double ps, const ap_map_opts *opts)
{
    const size_t len = (size_t)(w + 1) * (size_t)h + 64;
    char *text = malloc(len);
    ck_assert_ptr_nonnull(text);
    int at = snprintf(text, len, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
    const int ox = (int)(ap_test_rand(g) % (unsigned)(w / 2)), oy = (int)(ap_test_rand(g) % (unsigned)(h / 2));
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            const double r = ap_test_rand01(g);
            const bool room = x >= ox && x < ox + w / 3 && y >= oy && y < oy + h / 3;
            text[at++] = room ? '.' : r < pw ? '@' : r < pw + ps ? 'S' : '.';
        }
        text[at++] = '\n';
    }
    ap_map *m;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("r", "r", text, (size_t)at, opts, &m, &d), AP_OK);
    free(text);
    return m;
}

/* Cluster c of m (set up with table t) against the definition: every move of every cell and class (ref_move
 * from a passable cell; a blocked cell has no moves) and the open rows (the box test's input) against the
 * cells' and downward moves' levels. Returns the moves compared; *decided += the diagonal moves whose class
 * the stored difference decides (both ends let the class through, the move does not). */
static size_t check_cluster_moves(const ap_map *m, const ap_clearance_table *t, const ap_hier_cluster *c,
                                  size_t *decided)
{
    size_t compared = 0;
    for (int32_t y = 0; y < c->h; y++)
        for (int32_t x = 0; x < c->w; x++) {
            const uint32_t a = ap_map_index(m, c->x0 + x, c->y0 + y), v = (uint32_t)(y * C + x);
            for (int k = 0; k < AP_HIER_CLASSES; k++) {
                for (int i = 0; i < 8; i++) {
                    const int32_t nx = x + ap_hier_dx[i], ny = y + ap_hier_dy[i];
                    const bool inside = nx >= 0 && ny >= 0 && nx < c->w && ny < c->h;
                    const bool want = inside && m->pass[a] && ref_move(m, t, k, a, ap_hier_dx[i], ap_hier_dy[i]);
                    ck_assert_msg(((c->moves[k][v] >> i) & 1u) == want,
                                  "cluster (%d, %d) cell (%d, %d) class %d move %d: %d, definition %d", c->x0, c->y0,
                                  x, y, k, i, (c->moves[k][v] >> i) & 1u, want);
                    compared++;
                    if (k > 0 && want != inside && inside && m->pass[a] && ap_hier_dx[i] && ap_hier_dy[i]) {
                        const uint32_t b = ap_map_index(m, c->x0 + nx, c->y0 + ny);
                        const uint8_t ends = t->disc[a] < t->disc[b] ? t->disc[a] : t->disc[b];
                        *decided += ap_hier_class_level(ends) >= k;
                    }
                }
                if (k == 0)
                    continue;
                ck_assert_uint_eq((c->open[k][0][y] >> x) & 1u, m->pass[a] && ap_hier_class_level(t->disc[a]) >= k);
                if (y + 1 < c->h && x + 1 < c->w)
                    ck_assert_uint_eq((c->open[k][1][y] >> x) & 1u,
                                      m->pass[a] && ap_hier_class_level(ap_clearance_diag_se(t, a)) >= k);
                if (y + 1 < c->h && x > 0)
                    ck_assert_uint_eq((c->open[k][2][y] >> x) & 1u,
                                      m->pass[a] && ap_hier_class_level(ap_clearance_diag_sw(t, a)) >= k);
            }
        }
    return compared;
}

/* The cluster's set-up (ap_hier_cluster_init: SSE2 compares of levels and of the diagonal moves' stored
 * differences, per row; scalar loops for clusters narrower than 16) against the definition, on random
 * speckled maps with their own tables (widths not multiples of 16). On real geometry the stored difference
 * never decides a class (no diagonal move of those maps lies at or below a class's level while both its ends
 * are above it: the class radii 1, 2 and 4 fall where it cannot), so a second part sets up clusters of an open
 * map over a table written by hand: random levels and differences (valid: a difference at most its ends'
 * smaller level), where differences decide often and a wrong decoding would show. */
START_TEST(moves_match_the_definition)
{
    ap_test_rng g = {4242};
    size_t compared = 0, decided = 0;
    for (int round = 0; round < (ap_test_quick() ? 3 : 8); round++) {
        ap_map *m = random_map(&g, 50 + round * 9, 40 + round * 7, 0.04 + 0.03 * (round % 4), 0.0, NULL);
        const ap_clearance_table *t = ap_clearance_of(m, m->capability);
        ck_assert_ptr_nonnull(t);
        for (int32_t y0 = 0; y0 < m->height; y0 += C)
            for (int32_t x0 = 0; x0 < m->width; x0 += C) {
                ap_hier_cluster c;
                ap_hier_cluster_init(&c, m, t, x0, y0, -1);
                compared += check_cluster_moves(m, t, &c, &decided);
            }
        ap_map_free(m);
    }
    ck_assert_uint_gt(compared, 100000);
    /* a hand-made table over an open 40 x 37 map: clusters of 16 and of 8 x 5 cells */
    ap_map *m = random_map(&g, 40, 37, 0.0, 0.0, NULL);
    const uint32_t N = ap_map_node_count(m);
    uint8_t *disc = calloc(N, 1), *diag = calloc(N, 1), *square = calloc(N, 1);
    ap_clearance_table t = {.capability = m->capability, .stride = m->stride, .cells = N, .disc = disc,
                            .diag = diag, .square = square};
    for (int32_t y = 0; y < m->height; y++)
        for (int32_t x = 0; x < m->width; x++)
            disc[ap_map_index(m, x, y)] = (uint8_t)(1 + ap_test_rand(&g) % 20);
    for (int32_t y = 0; y < m->height; y++)
        for (int32_t x = 0; x < m->width; x++) {
            const uint32_t p = ap_map_index(m, x, y), S = (uint32_t)m->stride;
            const uint32_t se = disc[p] < disc[p + S + 1] ? disc[p] : disc[p + S + 1];
            const uint32_t sw = disc[p] < disc[p + S - 1] ? disc[p] : disc[p + S - 1];
            const uint32_t bse = (uint32_t)(ap_test_rand(&g) % 16), bsw = (uint32_t)(ap_test_rand(&g) % 16);
            diag[p] = (uint8_t)((bse <= se ? bse : se) | (bsw <= sw ? bsw : sw) << 4);
        }
    size_t hand_decided = 0;
    for (int32_t y0 = 0; y0 < m->height; y0 += C)
        for (int32_t x0 = 0; x0 < m->width; x0 += C) {
            ap_hier_cluster c;
            ap_hier_cluster_init(&c, m, &t, x0, y0, -1);
            check_cluster_moves(m, &t, &c, &hand_decided);
        }
    ck_assert_uint_eq(decided, 0); /* as measured: see above */
    ck_assert_uint_gt(hand_decided, 500);
    free(disc);
    free(diag);
    free(square);
    ap_map_free(m);
}
END_TEST

START_TEST(class_levels_are_the_allows_test)
{
    for (uint32_t q = 0; q < AP_CLEARANCE_LEVELS; q++) {
        int n = 0;
        for (int k = 1; k < AP_HIER_CLASSES; k++)
            n += ap_clearance_allows((uint8_t)q, ap_hier_class_radius[k]);
        ck_assert_int_eq(ap_hier_class_level((uint8_t)q), n);
    }
    /* radius 1 needs v > 1: sqrt 2 (level 3) is the first such value, 1/sqrt 2 (level 2) is not */
    ck_assert_double_eq(ap_clearance_level_tiles[3], M_SQRT2);
    ck_assert_int_eq(ap_hier_class_level(2), 0);
    ck_assert_int_eq(ap_hier_class_level(3), 1);
    ck_assert_int_eq(ap_hier_class_level(6), 2);  /* 2.12 > 2 */
    ck_assert_int_eq(ap_hier_class_level(14), 3); /* 4.24 > 4 */
    ck_assert_int_eq(ap_hier_class_level(13), 2); /* 3.81 */
}
END_TEST

START_TEST(open_lattice_costs)
{
    double d[C][C];
    ap_hier_octile_costs(d);
    for (int x = 0; x < C; x++)
        for (int y = 0; y < C; y++) {
            const int lo = x < y ? x : y, hi = x < y ? y : x;
            ck_assert_double_eq_tol(d[x][y], (hi - lo) + M_SQRT2 * lo, 1e-12);
            ck_assert(d[x][y] == d[y][x]);
        }
    ck_assert(d[0][0] == 0.0 && d[3][0] == 3.0 && d[1][1] == M_SQRT2);
}
END_TEST

START_TEST(edges_exact_on_random_maps)
{
    ap_test_rng g = {20261124};
    ap_terrain_costs tc = {.map_id = "*", .cost = {0, 0, 3.0, 0, 0}};
    const ap_map_opts weighted = {.terrain = &tc, .n_terrain = 1};
    size_t compared = 0;
    for (int round = 0; round < (ap_test_quick() ? 2 : 6); round++) {
        /* uniform sparse, uniform dense, weighted (swamp 3) */
        ap_map *m = random_map(&g, 70 + round * 7, 60 + round * 5, round % 3 == 1 ? 0.35 : 0.12,
                               round % 3 == 2 ? 0.3 : 0.0, round % 3 == 2 ? &weighted : NULL);
        ck_assert(m->weighted == (round % 3 == 2));
        compared += check_graph(m, 1);
        ap_map_free(m);
    }
    ck_assert_uint_gt(compared, 5000);
}
END_TEST

START_TEST(edges_exact_on_moving_ai_maps)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("hier graph: Moving AI maps");
        return;
    }
    /* Paris_1_1024: the 1024^2 map has its graph (AP_HIER_MAX_CELLS) */
    static const struct {
        const char *name;
        int every, every_quick;
    } maps[] = {{"den520d", 1, 3}, {"AR0011SR", 5, 23}, {"Berlin_0_256", 3, 11}, {"Paris_1_1024", 29, 211}};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.map", dir, maps[i].name);
        ap_map *m;
        ap_diag d;
        ck_assert_int_eq(ap_map_load(path, NULL, &m, &d), AP_OK);
        const size_t n = check_graph(m, ap_test_quick() ? maps[i].every_quick : maps[i].every);
        ck_assert_uint_gt(n, 100);
        printf("hier graph: %s: %zu edge costs equal to the reference search\n", maps[i].name, n);
        ap_map_free(m);
    }
}
END_TEST

Suite *hier_cluster_suite(void)
{
    Suite *s = suite_create("hier/cluster");
    TCase *tc = tcase_create("graph");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, class_levels_are_the_allows_test);
    tcase_add_test(tc, moves_match_the_definition);
    tcase_add_test(tc, open_lattice_costs);
    tcase_add_test(tc, edges_exact_on_random_maps);
    tcase_add_test(tc, edges_exact_on_moving_ai_maps);
    suite_add_tcase(s, tc);
    return s;
}
