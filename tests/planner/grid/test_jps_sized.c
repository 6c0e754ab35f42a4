/* test_jps_sized.c — JPS and JPS+ for disc units (planner/grid/jps_sized.h): the tables' successor masks
 * against the pruning rule evaluated cell by cell, the masks of an open grid, a hand-made corner the disc
 * passes diagonally round, Annotated A*'s exact optimal costs on random maps (table, and no table once the
 * map's places are taken) and on every Moving AI map, and every move of the answers legal for the disc. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/grid/jps_sized.h"
#include "../../../planner/plan/plan.h"
#include "../../../planner/search/search.h"
#include "../../../planner/world/view.h"
#include "../../util.h"
#include "../suites.h"

static int disc_cost(const ap_map *m, ap_workspace *ws, ap_algorithm alg, double r, int sx, int sy, int gx,
                     int gy, double *cost)
{
    return ap_test_grid_cost(m, ws, alg, r, sx, sy, gx, gy, 0, cost);
}

static const ap_algorithm ALGS[] = {AP_ALG_JPS, AP_ALG_JPS_PLUS};
static const char *const ALG_NAMES[] = {"jps", "jps_plus"};

static int agree_on(const ap_map *m, ap_test_rng *rng, double r, int pairs)
{
    return ap_test_jps_agree(m, rng, r, pairs, 0);
}

/* A random w x h map text with blocked cells at probability pb, some in 2 x 2 and 3 x 1 clumps so that
 * wide discs meet corners and gaps of every width. Caller frees. */
static char *random_map(ap_test_rng *rng, int w, int h, double pb)
{
    char *g = malloc((size_t)w * (size_t)h);
    memset(g, '.', (size_t)w * (size_t)h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (ap_test_rand01(rng) < pb) {
                const int cw = 1 + (int)(ap_test_rand(rng) % 3), chh = 1 + (int)(ap_test_rand(rng) % 2);
                for (int j = y; j < y + chh && j < h; j++)
                    for (int i = x; i < x + cw && i < w; i++)
                        g[j * w + i] = '@';
            }
    size_t cap = (size_t)(w + 1) * (size_t)h + 64;
    char *t = malloc(cap);
    int k = snprintf(t, cap, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
    for (int y = 0; y < h; y++) {
        memcpy(t + k, g + y * w, (size_t)w);
        k += w;
        t[k++] = '\n';
    }
    t[k] = '\0';
    free(g);
    return t;
}

static const double RADII[] = {0.5, 0.6, 0.75, 0.9, 1.0, 1.3, 1.6, 2.0, 2.5};

/* The table's masks are the rule's (ap_jps_sized_mask, cell by cell) at every cell and arrival direction,
 * whether the build took its open-block shortcut or not; on an open field they are the natural ones. */
START_TEST(masks_match_rule)
{
    ap_test_rng rng = {777};
    for (int i = 0; i < (ap_test_quick() ? 6 : 20); i++) {
        int w = 6 + (int)(ap_test_rand(&rng) % 70), h = 6 + (int)(ap_test_rand(&rng) % 50);
        char *txt = random_map(&rng, w, h, 0.02 + 0.12 * ap_test_rand01(&rng));
        ap_map *m = ap_test_map_from_string(txt);
        const ap_clearance_table *t = ap_clearance_of(m, m->capability);
        const double r = RADII[i % (int)(sizeof RADII / sizeof RADII[0])];
        const uint16_t k = ap_jps_disc_key(r);
        ap_jps_sized *s;
        ck_assert_int_eq(ap_jps_sized_build(m, t, k, &s), AP_OK);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                for (int a = 0; a < 8; a++) {
                    const uint32_t c = ap_map_index(m, x, y);
                    AP_EXPECT(s->succ[(size_t)c * 8 + (size_t)a] == ap_jps_sized_mask(m, t, k, c, a),
                              "map %d r %g (%d,%d) arrival %d: table %#x, rule %#x", i, r, x, y, a,
                              s->succ[(size_t)c * 8 + (size_t)a], ap_jps_sized_mask(m, t, k, c, a));
                }
        ap_jps_sized_free(s);
        ap_map_free(m);
        free(txt);
    }
    /* 12 x 12 open: a radius-1 disc (key 2: levels above 1/sqrt 2) fits cells 1..10 (1.5 from the border:
     * level 4); at (5, 5) every arrival has exactly its natural successors */
    ck_assert_uint_eq(ap_jps_disc_key(1.0), 2);
    char *open = random_map(&rng, 12, 12, 0.0);
    ap_map *m = ap_test_map_from_string(open);
    const ap_clearance_table *t = ap_clearance_of(m, m->capability);
    static const uint8_t natural[8] = {0x01, 0x07, 0x04, 0x1c, 0x10, 0x70, 0x40, 0xc1};
    for (int a = 0; a < 8; a++)
        ck_assert_uint_eq(ap_jps_sized_mask(m, t, 2, ap_map_index(m, 5, 5), a), natural[a]);
    ck_assert_uint_eq(ap_jps_sized_mask(m, t, 2, ap_map_index(m, 0, 5), 2), 0); /* the disc does not fit */
    ap_map_free(m);
    free(open);
}
END_TEST

/* A disc round a single blocked cell: a disc of radius 0.6 fits none of the four cells beside the block at
 * (4, 4) (their centres are 0.5 from it) but does fit the diagonal ones (0.707), and passes diagonally
 * between them. From (2, 4) to (6, 4) the shortest way is four diagonals, via (3, 3), (4, 2), (5, 3):
 * 4 sqrt 2. At (4, 2), entered north-east from (3, 3), the move on to (5, 3) is a forced neighbour (no
 * alternative from (3, 3) avoids (4, 2): (4, 3) does not fit); the point grid's pruning has no forced
 * neighbours on a diagonal arrival and would miss it. */
START_TEST(diagonal_round_a_corner)
{
    static const char *txt = "type octile\nheight 9\nwidth 9\nmap\n"
                             ".........\n"
                             ".........\n"
                             ".........\n"
                             ".........\n"
                             "....@....\n"
                             ".........\n"
                             ".........\n"
                             ".........\n"
                             ".........\n";
    ap_map *m = ap_test_map_from_string(txt);
    const ap_clearance_table *t = ap_clearance_of(m, m->capability);
    const uint16_t k = ap_jps_disc_key(0.6);
    ck_assert(t->disc[ap_map_index(m, 3, 4)] <= k && t->disc[ap_map_index(m, 4, 3)] <= k);
    ck_assert(t->disc[ap_map_index(m, 3, 3)] > k && t->disc[ap_map_index(m, 5, 3)] > k);
    ck_assert(ap_clearance_move(t, ap_map_index(m, 3, 3), 1, -1) > k); /* (3,3) -> (4,2) past (4,3) */
    ck_assert(ap_clearance_move(t, ap_map_index(m, 2, 4), 1, -1) > k); /* (2,4) -> (3,3) past (3,4) */
    const uint8_t forced = ap_jps_sized_mask(m, t, k, ap_map_index(m, 4, 2), 1 /* NE */);
    ck_assert_uint_eq(forced & (1u << 3) /* SE */, 1u << 3);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    for (size_t a = 0; a < 2; a++) {
        double c = -1.0, ca = -1.0;
        ck_assert_int_eq(disc_cost(m, &ws, AP_ALG_ASTAR, 0.6, 2, 4, 6, 4, &ca), AP_OK);
        ck_assert_int_eq(disc_cost(m, &ws, ALGS[a], 0.6, 2, 4, 6, 4, &c), AP_OK);
        ck_assert_double_eq_tol(ca, 4.0 * M_SQRT2, 1e-12);
        ck_assert_double_eq_tol(c, ca, 1e-12);
    }
    /* every pair of cells, every radius: the same costs as A* */
    for (size_t ri = 0; ri < 4; ri++)
        for (int sy = 0; sy < 9; sy++)
            for (int sx = 0; sx < 9; sx++)
                for (int gy = 0; gy < 9; gy += 2)
                    for (int gx = 0; gx < 9; gx += 3) {
                        double ca = -1.0;
                        const int sa = disc_cost(m, &ws, AP_ALG_ASTAR, RADII[ri], sx, sy, gx, gy, &ca);
                        for (size_t a = 0; a < 2; a++) {
                            double c = -1.0;
                            ck_assert_int_eq(disc_cost(m, &ws, ALGS[a], RADII[ri], sx, sy, gx, gy, &c), sa);
                            if (sa == AP_OK)
                                ck_assert_double_eq_tol(c, ca, 1e-9);
                        }
                    }
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

START_TEST(random_maps_match_annotated_astar)
{
    ap_test_rng rng = {4242};
    const int maps = ap_test_quick() ? 8 : 30;
    int found = 0, pairs = 0;
    for (int i = 0; i < maps; i++) {
        /* widths over 64 cross bit words; densities from open to cluttered */
        int w = 8 + (int)(ap_test_rand(&rng) % 140), h = 8 + (int)(ap_test_rand(&rng) % 80);
        char *txt = random_map(&rng, w, h, 0.01 + 0.12 * ap_test_rand01(&rng));
        ap_map *m = ap_test_map_from_string(txt);
        const int per_radius = ap_test_quick() ? 8 : 25, sliced = ap_test_quick() ? 4 : 10;
        for (size_t ri = 0; ri < sizeof RADII / sizeof RADII[0]; ri++, pairs += per_radius)
            found += agree_on(m, &rng, RADII[ri], per_radius);
        /* one expansion per slice: the plans stop and resume between jump points */
        found += ap_test_jps_agree(m, &rng, RADII[i % 9], sliced, 1);
        pairs += sliced;
        ap_map_free(m);
        free(txt);
    }
    printf("jps_sized: %d of %d random disc pairs with a path, equal costs\n", found, pairs);
    ck_assert_int_gt(found, pairs / 10); /* compared, not only refused alike (wide discs fit few pairs) */
}
END_TEST

/* A boat: discs on water only (capability view of a map of water and rocks with land, world/view.h). The view is the
 * map the plan runs on (ap_query_map); its jps_sized tables are keyed by the water capability in the loaded
 * map's slot, next to the ground units' own. */
START_TEST(capability_view)
{
    ap_test_rng rng = {31337};
    char *txt = random_map(&rng, 100, 70, 0.01); /* rocks */
    char *cell = strstr(txt, "map\n") + 4;
    for (int y = 0; y < 70; y++, cell++)
        for (int x = 0; x < 100; x++, cell++)
            if (*cell == '.' && y >= 12 && !(y >= 40 && y < 44 && (x < 45 || x >= 52)))
                *cell = 'W'; /* land on rows 0..11 and a causeway on rows 40..43 but for a channel */
    const uint8_t caps[] = {AP_CAP_WATER};
    ap_map_opts o = {.capabilities = caps, .n_capabilities = 1};
    ap_map *m;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("lakes", "lakes", txt, strlen(txt), &o, &m, &d), AP_OK);
    const ap_map *water = ap_map_view(m, AP_CAP_WATER);
    ck_assert_ptr_nonnull(water);
    ck_assert_ptr_ne(water, m);
    const int pairs = ap_test_quick() ? 30 : 100;
    ck_assert_int_gt(agree_on(water, &rng, 0.6, pairs), pairs / 5); /* not only refusals */
    ck_assert_int_gt(agree_on(water, &rng, 1.1, pairs), pairs / 10);
    ck_assert_ptr_nonnull(ap_jps_sized_get(m, ap_clearance_of(m, AP_CAP_WATER), ap_jps_disc_key(0.6))); /* built above */
    ap_map_free(m);
    free(txt);
}
END_TEST

/* Square units (unit.size, Harabor's true clearance): the masks of the square's grid are the rule's, and
 * jps / jps_plus give Annotated A*'s costs for sides 2, 3 and 5 on random maps (every move legal: the
 * footprint's anchors fit, a diagonal's two orthogonal anchors too). */
START_TEST(square_units)
{
    ap_test_rng rng = {2024};
    static const int sides[] = {2, 3, 5};
    int found = 0, tried = 0;
    for (int i = 0; i < (ap_test_quick() ? 6 : 18); i++) {
        const int w = 10 + (int)(ap_test_rand(&rng) % 90), h = 10 + (int)(ap_test_rand(&rng) % 60);
        char *txt = random_map(&rng, w, h, 0.01 + 0.06 * ap_test_rand01(&rng));
        ap_map *m = ap_test_map_from_string(txt);
        const ap_clearance_table *t = ap_clearance_of(m, m->capability);
        const int side = sides[i % 3];
        const uint16_t key = ap_jps_square_key(side);
        ap_jps_sized *s;
        ck_assert_int_eq(ap_jps_sized_build(m, t, key, &s), AP_OK);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                for (int a = 0; a < 8; a++) {
                    const uint32_t c = ap_map_index(m, x, y);
                    AP_EXPECT(s->succ[(size_t)c * 8 + (size_t)a] == ap_jps_sized_mask(m, t, key, c, a),
                              "square %d (%d,%d) arrival %d", side, x, y, a);
                }
        ap_jps_sized_free(s);
        ap_workspace ws;
        ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
        for (int p = 0; p < (ap_test_quick() ? 15 : 40); p++, tried++) {
            ap_query q = ap_test_cell_query(m, AP_ALG_ASTAR, 8, 0, 0, 0, 0);
            q.unit_size = side;
            q.sx = (int)(ap_test_rand(&rng) % (unsigned)(w - side + 1)) + side / 2.0;
            q.sy = (int)(ap_test_rand(&rng) % (unsigned)(h - side + 1)) + side / 2.0;
            q.gx = (int)(ap_test_rand(&rng) % (unsigned)(w - side + 1)) + side / 2.0;
            q.gy = (int)(ap_test_rand(&rng) % (unsigned)(h - side + 1)) + side / 2.0;
            ap_result ra = ap_test_run_plan(&q, &ws);
            for (size_t a = 0; a < 2; a++) {
                q.algorithm = ALGS[a];
                ap_result r = ap_test_run_plan(&q, &ws);
                AP_EXPECT(r.status == ra.status, "square %d %s: status %s, A* %s", side, ALG_NAMES[a],
                          ap_status_name(r.status), ap_status_name(ra.status));
                if (r.status == AP_OK && ra.status == AP_OK) {
                    AP_EXPECT(fabs(r.grid_cost - ra.grid_cost) <= 1e-9, "square %d %s: cost %.10f, A* %.10f", side,
                              ALG_NAMES[a], r.grid_cost, ra.grid_cost);
                    ck_assert(r.clear);
                }
                ap_result_free(&r);
            }
            found += ra.status == AP_OK;
            ap_result_free(&ra);
        }
        ap_workspace_free(&ws);
        ap_map_free(m);
        free(txt);
    }
    ck_assert_int_gt(found, tried / 4); /* not only refusals */
}
END_TEST

/* Once AP_JPS_SIZED_CLASSES thresholds hold every place of a map, a new threshold runs online JPS with
 * masks per visited cell (jps_plus too): the same answers. */
START_TEST(without_a_table)
{
    ap_test_rng rng = {99};
    char *txt = random_map(&rng, 90, 60, 0.03);
    ap_map *m = ap_test_map_from_string(txt);
    const ap_clearance_table *t = ap_clearance_of(m, m->capability);
    for (int i = 0; i < AP_JPS_SIZED_CLASSES; i++)
        ck_assert_ptr_nonnull(ap_jps_sized_get(m, t, (uint16_t)(30 + i)));
    ck_assert_ptr_null(ap_jps_sized_get(m, t, 20));
    ck_assert_ptr_nonnull(ap_jps_sized_get(m, t, 33)); /* kept ones are found */
    ck_assert_int_gt(agree_on(m, &rng, 200.0 / 256.0 + 0.001, ap_test_quick() ? 40 : 120), 8);
    ck_assert_int_gt(agree_on(m, &rng, 1.0, ap_test_quick() ? 40 : 120), 8);
    ap_map_free(m);
    free(txt);
}
END_TEST

/* Online JPS without the tables stops every jump after AP_JPS_ONLINE_JUMP_MAX steps (a deadline check
 * between expansions then comes within ~1 ms on any map: an open 4096 x 4096 map's first expansion scanned
 * every cell, seconds past its deadline): across an open map 295 columns wide a search needs at least
 * 295 / 64 expansions before the goal, and keeps its optimal octile cost (jps and jps_plus, whose plan runs
 * online JPS without its tables). */
START_TEST(online_jumps_are_bounded)
{
    static char cells[300 * 30];
    memset(cells, '.', sizeof cells);
    ap_map *m = ap_test_map_from_cells(cells, 300, 300, 30);
    const ap_clearance_table *t = ap_clearance_of(m, m->capability);
    for (int i = 0; i < AP_JPS_SIZED_CLASSES; i++) /* every place taken: no tables for the disc below */
        ck_assert_ptr_nonnull(ap_jps_sized_get(m, t, (uint16_t)(30 + i)));
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
    for (int a = 0; a < 2; a++) {
        ap_query q = ap_test_cell_query(m, ALGS[a], 8, 2, 2, 297, 27);
        q.unit_radius = 0.6;
        ap_plan p;
        int st = ap_plan_begin(&p, &q, &ws, 0);
        while (st == AP_IN_PROGRESS)
            st = ap_plan_step(&p, 0);
        ck_assert_int_eq(st, AP_OK);
        ck_assert_uint_ge(ap_plan_expanded(&p), 295 / AP_JPS_ONLINE_JUMP_MAX + 1);
        ap_result r;
        ck_assert_int_eq(ap_plan_finish(&p, &r), AP_OK);
        ck_assert_msg(fabs(r.grid_cost - (25.0 * M_SQRT2 + 270.0)) < 1e-9, "%s: %.17g", ALG_NAMES[a], r.grid_cost);
        ap_result_free(&r);
    }
    ck_assert_ptr_null(ap_jps_sized_find(m, t, ap_jps_disc_key(0.6)));
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* A large map (open, 1024 x 1024): auto builds no tables of its own there but uses a key's once a jps_plus
 * query has built them. The byte budget: a key holds about 25 bytes a padded cell here (its distances do not
 * fit a byte), so AP_JPS_SIZED_MAX_BYTES (128 MiB) takes four; the next key gets no tables (and is not
 * "ready") while the first ones stay served. */
/* The algorithm auto ran for a radius-r disc from (sx, sy) to (gx, gy) on m (smoothing none), its status in *st. */
static ap_algorithm auto_alg(const ap_map *m, ap_workspace *ws, double r, int sx, int sy, int gx, int gy, int *st)
{
    ap_query q = ap_test_cell_query(m, AP_ALG_AUTO, 8, sx, sy, gx, gy);
    q.unit_radius = r;
    ap_plan p;
    *st = ap_plan_begin(&p, &q, ws, 0);
    const ap_algorithm alg = p.alg;
    while (*st == AP_IN_PROGRESS)
        *st = ap_plan_step(&p, 0);
    ap_plan_release(&p);
    return alg;
}

START_TEST(byte_budget)
{
    ap_test_rng rng = {5};
    char *txt = random_map(&rng, 1024, 1024, 0.0);
    ap_map *m = ap_test_map_from_string(txt);
    const ap_clearance_table *t = ap_clearance_of(m, m->capability);
    /* a map this large: auto builds no tables itself (about 0.1 s), it uses those a jps_plus query built */
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    int st;
    ck_assert_int_eq(auto_alg(m, &ws, 1.0, 10, 10, 60, 40, &st), AP_ALG_ASTAR);
    ck_assert_int_eq(st, AP_OK);
    ck_assert_ptr_null(ap_jps_sized_find(m, t, ap_jps_disc_key(1.0)));
    double c = 0.0;
    ck_assert_int_eq(ap_test_grid_cost(m, &ws, AP_ALG_JPS_PLUS, 1.0, 10, 10, 60, 40, 0, &c), AP_OK);
    ck_assert_ptr_nonnull(ap_jps_sized_find(m, t, ap_jps_disc_key(1.0)));
    ck_assert_int_eq(auto_alg(m, &ws, 1.0, 10, 10, 60, 40, &st), AP_ALG_JPS_PLUS);
    ck_assert_int_eq(st, AP_OK);
    ap_workspace_free(&ws);
    const ap_jps_sized *s[AP_JPS_SIZED_CLASSES];
    int taken = 0;
    size_t held = ap_jps_sized_find(m, t, ap_jps_disc_key(1.0))->bytes; /* radius 1's, above */
    while (taken < AP_JPS_SIZED_CLASSES && (s[taken] = ap_jps_sized_get(m, t, (uint16_t)(30 + taken))))
        held += s[taken++]->bytes;
    ck_assert_int_eq(taken, 3); /* with radius 1's: four; the budget, not the places, stopped it */
    ck_assert_uint_le(held, AP_JPS_SIZED_MAX_BYTES);
    ck_assert(!ap_jps_sized_ready(m, t, 33));
    ck_assert_ptr_null(ap_jps_sized_get(m, t, 33));
    for (int i = 0; i < taken; i++) {
        ck_assert(ap_jps_sized_ready(m, t, (uint16_t)(30 + i)));
        ck_assert_ptr_eq(ap_jps_sized_get(m, t, (uint16_t)(30 + i)), s[i]);
    }
    ap_map_free(m);
    free(txt);
}
END_TEST

/* The same tables, bit for bit: masks, JPS+ distances (and their byte copy and counts), event lines. */
static void same_tables(const ap_jps_sized *a, const ap_jps_sized *b, const ap_map *m, const char *what)
{
    const size_t cells = ap_map_node_count(m);
    AP_EXPECT(a->capability == b->capability && a->k == b->k, "%s: another key", what);
    AP_EXPECT(memcmp(a->succ, b->succ, cells * 8) == 0, "%s: masks differ", what);
    AP_EXPECT(memcmp(a->plus.dist, b->plus.dist, cells * 8 * sizeof *a->plus.dist) == 0, "%s: distances differ", what);
    AP_EXPECT(a->plus.nonzero == b->plus.nonzero && a->plus.far == b->plus.far, "%s: counts differ", what);
    AP_EXPECT((a->plus.dist8 == NULL) == (b->plus.dist8 == NULL), "%s: a byte copy in one only", what);
    if (a->plus.dist8 != NULL)
        AP_EXPECT(memcmp(a->plus.dist8, b->plus.dist8, cells * 8) == 0, "%s: byte distances differ", what);
    const ap_jps_bits *x = a->bits, *y = b->bits;
    const size_t rows = (size_t)(m->height + 2) * x->row_words, cols = (size_t)m->stride * x->col_words;
    AP_EXPECT(x->row_words == y->row_words && x->col_words == y->col_words, "%s: line sizes differ", what);
    AP_EXPECT(memcmp(x->rows, y->rows, rows * 8) == 0 && memcmp(x->cols, y->cols, cols * 8) == 0 &&
                  memcmp(x->ev_e, y->ev_e, rows * 8) == 0 && memcmp(x->ev_w, y->ev_w, rows * 8) == 0 &&
                  memcmp(x->ev_s, y->ev_s, cols * 8) == 0 && memcmp(x->ev_n, y->ev_n, cols * 8) == 0,
              "%s: event lines differ", what);
    AP_EXPECT(a->bytes == b->bytes, "%s: %zu bytes in pieces, %zu in one go", what, a->bytes, b->bytes);
}

/* A key's tables built in the time queries can spare (ap_jps_sized_get_until), on den520d (256 x 257): a
 * nanosecond a call after the first (1 ms), so about a row a call (the block test's, the masks', eight sweeps', the event lines':
 * some 11 per map row), each NULL until the last publishes them: the same tables as a build in one go. A
 * build left unfinished for one key is finished and published by the next query that builds, whatever its
 * key, before its own; a map freed with a build unfinished frees it. */
START_TEST(tables_in_pieces)
{
    ap_map *m = ap_test_data_map("den520d", "jps_sized: tables in pieces on den520d");
    if (m == NULL)
        return;
    const ap_clearance_table *t = ap_clearance_of(m, m->capability);
    const uint16_t k6 = ap_jps_disc_key(0.6), k9 = ap_jps_disc_key(0.9), k13 = ap_jps_disc_key(1.3);
    const ap_jps_sized *s = NULL;
    size_t calls = 0;
    while (s == NULL && calls < 100000) {
        /* the first call starts the build (not when its time has passed), the others resume it */
        s = ap_jps_sized_get_until(m, t, k6, ap_clock_ns() + (calls == 0 ? 1000000 : 1));
        calls++;
        ck_assert(s != NULL || ap_jps_sized_find(m, t, k6) == NULL);
    }
    AP_EXPECT(calls >= 8 * (size_t)m->height, "%zu calls for %d rows", calls, m->height);
    ap_jps_sized *one;
    ck_assert_int_eq(ap_jps_sized_build(m, t, k6, &one), AP_OK);
    same_tables(s, one, m, "den520d r 0.6");
    ap_jps_sized_free(one);
    ck_assert_ptr_eq(ap_jps_sized_get_until(m, t, k6, 1), s);
    /* k9 left unfinished; a query of k13 without a time limit publishes it, then its own */
    ck_assert_ptr_null(ap_jps_sized_get_until(m, t, k9, ap_clock_ns() + 1000000));
    ck_assert_ptr_null(ap_jps_sized_find(m, t, k9));
    const ap_jps_sized *s13 = ap_jps_sized_get_until(m, t, k13, 0);
    ck_assert_ptr_nonnull(s13);
    ck_assert_uint_eq(s13->k, k13);
    const ap_jps_sized *s9 = ap_jps_sized_find(m, t, k9);
    ck_assert_ptr_nonnull(s9);
    ck_assert_int_eq(ap_jps_sized_build(m, t, k9, &one), AP_OK);
    same_tables(s9, one, m, "den520d r 0.9, finished by another key's query");
    ap_jps_sized_free(one);
    ck_assert_ptr_null(ap_jps_sized_get_until(m, t, ap_jps_disc_key(2.0), ap_clock_ns() + 20000));
    ap_map_free(m);
}
END_TEST

/* jps_plus for a disc whose tables are not built: a plan with 2 ms to its deadline gives their build 1.5 ms
 * and runs online JPS in the rest, leaving them unpublished: it answers in time (ok with the same optimal
 * cost, or timeout when the search did not finish in the last 0.5 ms, as on a busy host); a plan without a
 * deadline builds and uses them. A line from the first third of the file (shorter lines: mostly ok). */
START_TEST(plan_without_the_tables_in_time)
{
    ap_map *m = ap_test_data_map("den520d", "jps_sized: a plan's time for the tables on den520d");
    if (m == NULL)
        return;
    const ap_clearance_table *t = ap_clearance_of(m, m->capability);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), AP_PLAN_MAX_SUCC), AP_OK);
    /* a scenario line the disc can take (Annotated A*, which builds no tables) */
    size_t n_sc;
    ap_test_scen *sc = ap_test_data_scen("den520d", &n_sc);
    ap_query q = {.map = m, .algorithm = AP_ALG_ASTAR, .connectivity = 8, .unit_radius = 0.6};
    size_t i = n_sc / 3;
    for (int st = AP_NO_PATH; st != AP_OK && i > 0;) {
        i--;
        q.sx = sc[i].sx + 0.5, q.sy = sc[i].sy + 0.5, q.gx = sc[i].gx + 0.5, q.gy = sc[i].gy + 0.5;
        ap_plan p;
        st = ap_plan_begin(&p, &q, &ws, 0);
        while (st == AP_IN_PROGRESS)
            st = ap_plan_step(&p, 0);
        ap_plan_release(&p);
    }
    free(sc);
    ck_assert_uint_gt(i, 0);
    q.algorithm = AP_ALG_JPS_PLUS;
    double cost[2];
    for (int k = 0; k < 2; k++) {
        ap_plan p;
        int st = ap_plan_begin(&p, &q, &ws, k == 0 ? ap_clock_ns() + 2000000 : 0);
        while (st == AP_IN_PROGRESS)
            st = ap_plan_step(&p, 0);
        ck_assert(st == AP_OK || (k == 0 && st == AP_TIMEOUT));
        ap_result r;
        ck_assert_int_eq(ap_plan_finish(&p, &r), st);
        cost[k] = st == AP_OK ? r.grid_cost : -1.0;
        ap_result_free(&r);
        if (k == 0)
            ck_assert_ptr_null(ap_jps_sized_find(m, t, ap_jps_disc_key(0.6)));
    }
    ck_assert_ptr_nonnull(ap_jps_sized_find(m, t, ap_jps_disc_key(0.6)));
    if (cost[0] >= 0.0)
        ck_assert_double_eq_tol(cost[0], cost[1], 1e-9);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* Every Moving AI map, sampled scenario lines, radius 0.5, 1 and 2: the same status and cost as A*. */
START_TEST(movingai_discs)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("jps_sized: Moving AI maps");
        return;
    }
    char **names;
    const size_t nmaps = ap_test_sweep_maps(dir, 1, &names);
    ck_assert_uint_gt(nmaps, 0);
    static const double radii[] = {0.5, 1.0, 2.0};
    size_t total = 0, ok = 0;
    for (size_t mi = 0; mi < nmaps; mi++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.map", dir, names[mi]);
        ap_map *m;
        ap_diag d;
        const ap_map_opts grid = ap_test_grid_opts(); /* the grid searches only */
        ck_assert_int_eq(ap_map_load(path, &grid, &m, &d), AP_OK);
        snprintf(path, sizeof path, "%s/%s.map.scen", dir, names[mi]);
        ap_test_scen *sc;
        size_t n;
        ck_assert_int_eq(ap_test_load_scen(path, &sc, &n), 0);
        ap_workspace ws;
        ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
        const size_t want = ap_test_quick() ? 6 : 20, step = n <= want ? 1 : n / want;
        for (size_t i = 0; i < n; i += step)
            for (size_t ri = 0; ri < 3; ri++) {
                const ap_test_scen *s = &sc[i];
                double ca = -1.0;
                const int sa = disc_cost(m, &ws, AP_ALG_ASTAR, radii[ri], s->sx, s->sy, s->gx, s->gy, &ca);
                for (size_t a = 0; a < 2; a++) {
                    double c = -1.0;
                    const int st = disc_cost(m, &ws, ALGS[a], radii[ri], s->sx, s->sy, s->gx, s->gy, &c);
                    AP_EXPECT(st == sa, "%s line %d r %g: %s status %s, A* %s", names[mi], s->line, radii[ri],
                              ALG_NAMES[a], ap_status_name(st), ap_status_name(sa));
                    if (st == AP_OK && sa == AP_OK)
                        AP_EXPECT(fabs(c - ca) <= 1e-9, "%s line %d r %g: %s cost %.10f, A* %.10f", names[mi],
                                  s->line, radii[ri], ALG_NAMES[a], c, ca);
                }
                total++;
                ok += sa == AP_OK;
            }
        ap_workspace_free(&ws);
        free(sc);
        ap_map_free(m);
        free(names[mi]);
    }
    free(names);
    ck_assert_uint_gt(ok, total / 3); /* most lines have a path for some disc: the comparison is not vacuous */
    printf("jps_sized: %zu (line, radius) pairs over %zu maps, %zu with a path: jps and jps_plus equal A*\n", total,
           nmaps, ok);
}
END_TEST

Suite *jps_sized_suite(void)
{
    Suite *s = suite_create("jps_sized");
    TCase *tc = tcase_create("jps_sized");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, masks_match_rule);
    tcase_add_test(tc, diagonal_round_a_corner);
    tcase_add_test(tc, random_maps_match_annotated_astar);
    tcase_add_test(tc, without_a_table);
    tcase_add_test(tc, online_jumps_are_bounded);
    tcase_add_test(tc, capability_view);
    tcase_add_test(tc, square_units);
    tcase_add_test(tc, byte_budget);
    tcase_add_test(tc, tables_in_pieces);
    tcase_add_test(tc, plan_without_the_tables_in_time);
    tcase_add_test(tc, movingai_discs);
    suite_add_tcase(s, tc);
    return s;
}
