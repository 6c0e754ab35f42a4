/* test_clearance.c — exact clearance tables (clearance.h) against an independent exact computation: the
 * distance from a cell centre or a move's segment to every closed square outside the capability (off-map
 * squares included), written here with a separating-axis test and vertex distances; Harabor's true
 * clearance against growing k x k blocks; and agreement with collide.c's exact swept-disc test. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/base/status.h"
#include "../../../planner/world/clearance.h"
#include "../../../planner/world/collide.h"
#include "../../util.h"
#include "../suites.h"

static double pt_sq_d2(double px, double py, double sx, double sy)
{
    double dx = fmax(fmax(sx - px, px - sx - 1.0), 0.0), dy = fmax(fmax(sy - py, py - sy - 1.0), 0.0);
    return dx * dx + dy * dy;
}

static double pt_seg_d2(double px, double py, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay, L2 = dx * dx + dy * dy;
    double t = L2 > 0.0 ? fmin(fmax(((px - ax) * dx + (py - ay) * dy) / L2, 0.0), 1.0) : 0.0;
    double ex = ax + t * dx - px, ey = ay + t * dy - py;
    return ex * ex + ey * ey;
}

/* Exact distance between segment AB and the closed square [sx, sx+1] x [sy, sy+1]: 0 when no separating
 * axis exists among x, y and the segment's normal; else the closest pair has a vertex of one of them. */
static double seg_sq_d(double ax, double ay, double bx, double by, double sx, double sy)
{
    bool apart = fmax(ax, bx) < sx || fmin(ax, bx) > sx + 1.0 || fmax(ay, by) < sy || fmin(ay, by) > sy + 1.0;
    if (!apart) {
        double nx = ay - by, ny = bx - ax, p = nx * ax + ny * ay, lo = INFINITY, hi = -INFINITY;
        for (int c = 0; c < 4; c++) {
            double v = nx * (sx + (c & 1)) + ny * (sy + (c >> 1));
            lo = fmin(lo, v);
            hi = fmax(hi, v);
        }
        apart = p < lo || p > hi;
    }
    if (!apart)
        return 0.0;
    double d2 = fmin(pt_sq_d2(ax, ay, sx, sy), pt_sq_d2(bx, by, sx, sy));
    for (int c = 0; c < 4; c++)
        d2 = fmin(d2, pt_seg_d2(sx + (c & 1), sy + (c >> 1), ax, ay, bx, by));
    return sqrt(d2);
}

static bool outside(const ap_map *m, unsigned cap, int a, int b)
{
    return a < 0 || b < 0 || a >= m->width || b >= m->height ||
           !ap_test_in_capability(m->terrain[b * m->width + a], cap);
}

/* Distance from the segment between the centres of cells (x0, y0) and (x1, y1) to the nearest square
 * outside capability cap, over the squares within `win` cells of the segment (off-map ones count), or
 * INFINITY when none is that close. */
static double brute(const ap_map *m, unsigned cap, int x0, int y0, int x1, int y1, int win)
{
    double best = INFINITY;
    int alo = (x0 < x1 ? x0 : x1) - win, ahi = (x0 > x1 ? x0 : x1) + win;
    int blo = (y0 < y1 ? y0 : y1) - win, bhi = (y0 > y1 ? y0 : y1) + win;
    alo = alo < -1 ? -1 : alo;
    blo = blo < -1 ? -1 : blo;
    ahi = ahi > m->width ? m->width : ahi;
    bhi = bhi > m->height ? m->height : bhi;
    for (int b = blo; b <= bhi; b++)
        for (int a = alo; a <= ahi; a++)
            if (outside(m, cap, a, b))
                best = fmin(best, seg_sq_d(x0 + 0.5, y0 + 0.5, x1 + 0.5, y1 + 0.5, a, b));
    return best;
}

/* The level whose value is v (exactly: every value the geometry yields is one, clearance.h), the cap for
 * v >= 17; fails the test when v is no level's value. */
static unsigned level_of(double v)
{
    if (v >= AP_CLEARANCE_CAP_TILES)
        return AP_CLEARANCE_LEVEL_MAX;
    for (unsigned k = 0; k < AP_CLEARANCE_LEVEL_MAX; k++)
        if (fabs(ap_clearance_level_tiles[k] - v) < 1e-9)
            return k;
    ck_abort_msg("%.12f is no level's value", v);
    return 0;
}

/* q is exactly v's level. */
static void check_q(unsigned q, double v, const char *what, int x, int y, int dx, int dy)
{
    ck_assert_msg(q == level_of(v), "%s at (%d, %d) move (%d, %d): stored level %u (%.9f), exact %.9f", what, x, y,
                  dx, dy, q, ap_clearance_level_tiles[q], v);
}

static void check_true_clearance(const ap_map *m, const ap_clearance_table *t, unsigned cap, int x, int y)
{
    int k = 0;
    for (bool ok = true; ok && k < 255; ) {
        for (int j = y; j <= y + k && ok; j++)
            for (int i = x; i <= x + k && ok; i++)
                ok = !outside(m, cap, i, j);
        k += ok;
    }
    ck_assert_uint_eq(t->square[ap_map_index(m, x, y)], k);
}

/* Every cell and move of capability cap on m against the brute force (cells within `win`). */
static void check_cell(const ap_map *m, const ap_clearance_table *t, unsigned cap, int x, int y, int win)
{
    const uint32_t p = ap_map_index(m, x, y);
    check_q(t->disc[p], brute(m, cap, x, y, x, y, win), "cell", x, y, 0, 0);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if (dx || dy)
                check_q(ap_clearance_move(t, p, dx, dy), brute(m, cap, x, y, x + dx, y + dy, win), "move", x, y, dx,
                        dy);
    check_true_clearance(m, t, cap, x, y);
}

/* The table's verdict agrees with collide.c: r a little below the level's value v (u in [0, 1) of v - 2e-7) is
 * clear for the table and for ap_line_clear_mask (table says clear => exact test agrees); r = v is not clear
 * for either (touching), nor for the table at v - 1e-8 (within AP_CLEARANCE_TOUCH). */
static void check_collide(const ap_map *m, const uint8_t *mask, uint8_t q, int x, int y, int dx, int dy, double u)
{
    const double ax = x + 0.5, ay = y + 0.5, bx = ax + dx, by = ay + dy, v = ap_clearance_level_tiles[q];
    if (q > 0 && q < AP_CLEARANCE_LEVEL_MAX) {
        double r = u * (v - 2e-7);
        ck_assert(ap_clearance_allows(q, r));
        ck_assert_msg(ap_line_clear_mask(m, mask, ax, ay, bx, by, r), "(%d,%d)+(%d,%d) r %.9f q %u", x, y, dx, dy,
                      r, q);
        ck_assert(ap_line_clear_mask(m, mask, ax, ay, bx, by, v - 2e-7));
        ck_assert(!ap_clearance_allows(q, v - 1e-8));
    }
    if (q < AP_CLEARANCE_LEVEL_MAX) {
        ck_assert(!ap_clearance_allows(q, v));
        ck_assert(!ap_line_clear_mask(m, mask, ax, ay, bx, by, v));
    }
}

/* The levels are every value the geometry yields (a^2 + b^2 over a, b in {0, 1, 3, ..} and 8 n^2, as (2 v)^2,
 * below the cap; then the cap), increasing, each v exact; the diagonal moves' 4 bits suffice (no window of
 * sqrt 2 / 2 tiles holds more than AP_CLEARANCE_DIAG_BELOW levels below its top); ap_clearance_level is the
 * highest level at or below r + AP_CLEARANCE_TOUCH. */
START_TEST(levels)
{
    const uint32_t cap4 = 4 * AP_CLEARANCE_CAP_TILES * AP_CLEARANCE_CAP_TILES;
    bool want[4 * AP_CLEARANCE_CAP_TILES * AP_CLEARANCE_CAP_TILES + 1] = {false};
    for (uint32_t a = 0; a * a < cap4; a = a == 0 ? 1 : a + 2)
        for (uint32_t b = 0; a * a + b * b < cap4; b = b == 0 ? 1 : b + 2)
            want[a * a + b * b] = true;
    for (uint32_t n = 0; 8 * n * n < cap4; n++)
        want[8 * n * n] = true;
    want[cap4] = true;
    unsigned k = 0;
    for (uint32_t d4 = 0; d4 <= cap4; d4++)
        if (want[d4]) {
            ck_assert_uint_lt(k, AP_CLEARANCE_LEVELS);
            ck_assert_uint_eq(ap_clearance_level_d4[k], d4);
            ck_assert_double_eq(ap_clearance_level_tiles[k], sqrt((double)d4) / 2.0);
            k++;
        }
    ck_assert_uint_eq(k, AP_CLEARANCE_LEVELS);
    int widest = 0;
    for (unsigned i = 0; i < AP_CLEARANCE_LEVELS; i++) {
        int below = 0;
        for (unsigned j = 0; j < i; j++)
            below += ap_clearance_level_tiles[i] - ap_clearance_level_tiles[j] <= M_SQRT2 / 2.0 + 1e-12;
        widest = below > widest ? below : widest;
    }
    ck_assert_int_eq(widest, 10);
    ck_assert_int_le(widest, AP_CLEARANCE_DIAG_BELOW);
    for (unsigned i = 1; i < AP_CLEARANCE_LEVELS; i++) {
        const double v = ap_clearance_level_tiles[i];
        ck_assert_uint_eq(ap_clearance_level(v), i);
        ck_assert_uint_eq(ap_clearance_level(v - 1e-8), i); /* touching */
        ck_assert_uint_eq(ap_clearance_level(v - 2e-7), i - 1);
    }
    ck_assert_uint_eq(ap_clearance_level(0.0), 0);
    ck_assert_uint_eq(ap_clearance_level(0.499), 0);
    ck_assert_uint_eq(ap_clearance_level(1.0), 2);          /* 1/sqrt 2 <= 1 < sqrt 2 */
    ck_assert_uint_eq(ap_clearance_level(16.0), 110);       /* 15.9531 = sqrt(1018) / 2; next sqrt(1042) / 2 */
    ck_assert_uint_eq(ap_clearance_level(40.0), AP_CLEARANCE_LEVEL_MAX);
}
END_TEST

START_TEST(hand_values)
{
    /* 10 x 10, one wall cell at (6, 3). */
    char text[256] = "type octile\nheight 10\nwidth 10\nmap\n";
    for (int y = 0; y < 10; y++)
        strcat(text, y == 3 ? "......@...\n" : "..........\n");
    ap_map *m = ap_test_map_from_string(text);
    const ap_clearance_table *t = ap_clearance_of(m, AP_CAP_DEFAULT);
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_eq(t, ap_map_find_table(m, "clearance:ground+swamp")->data);
    ck_assert_uint_eq(ap_map_find_table(m, "clearance:ground+swamp")->bytes, ap_clearance_bytes(12 * 12));
    ck_assert_uint_eq(ap_clearance_bytes(12 * 12), sizeof(ap_clearance_table) + 3 * 144);
    ck_assert_ptr_null(ap_clearance_of(m, AP_CAP_WATER));
#define Q(x, y) t->disc[ap_map_index(m, x, y)]
    /* levels (clearance.h): 0, 1/2, 1/sqrt 2, sqrt 2, 3/2, sqrt 2.5, 3/sqrt 2, .. tiles */
    ck_assert_uint_eq(Q(0, 0), 1);         /* 0.5 to the off-map squares */
    ck_assert_uint_eq(Q(6, 3), 0);         /* the wall */
    ck_assert_uint_eq(Q(5, 3), 1);         /* 0.5 to the wall */
    ck_assert_uint_eq(Q(4, 5), 6);         /* (1.5, 1.5) to the wall's corner (6, 4): 3/sqrt 2 = 2.1213 */
    ck_assert_uint_eq(Q(9, 9), 1);
    ck_assert_uint_eq(Q(-1, 0), 0);        /* border */
    ck_assert_uint_eq(Q(4, 4), 5);         /* sqrt(2.5) = 1.5811 */
    /* The move (4, 4) -> (5, 5) passes the wall's corner (6, 4) at sqrt 2 = 1.4142, nearer than either end
     * (sqrt 2.5): diagonal values are not the cells' minimum; stored as 2 levels below it. */
    const uint32_t p = ap_map_index(m, 4, 4);
    ck_assert_uint_eq(ap_clearance_move(t, p, 1, 1), 3);
    ck_assert_uint_eq(t->diag[p] & 15u, 2);
    ck_assert_uint_eq(ap_clearance_move(t, ap_map_index(m, 5, 5), -1, -1), 3); /* the same move back */
    /* Orthogonal moves: the nearer end. (5, 4) is (0.5, 0.5) from the wall's corner (6, 4): 1/sqrt 2; (4, 3)
     * is 1.5 from the wall's left side. */
    ck_assert_uint_eq(ap_clearance_move(t, p, 1, 0), 2);
    ck_assert_uint_eq(ap_clearance_move(t, p, 0, -1), 4);
    ck_assert_uint_eq(ap_clearance_move(t, ap_map_index(m, 0, 0), -1, 0), 0); /* off the map */
    /* Both sides of the exact values, with collide.c's exact test (no table involved). */
    ck_assert(ap_line_clear(m, 4.5, 4.5, 5.5, 5.5, sqrt(2.0) - 1e-7));
    ck_assert(!ap_line_clear(m, 4.5, 4.5, 5.5, 5.5, sqrt(2.0)));
    ck_assert(ap_line_clear(m, 4.5, 4.5, 4.5, 4.5, sqrt(2.5) - 1e-7));
    ck_assert(!ap_line_clear(m, 4.5, 4.5, 4.5, 4.5, sqrt(2.5)));
    ck_assert(ap_line_clear(m, 0.5, 0.5, 0.5, 0.5, 0.5 - 1e-7));
    ck_assert(!ap_line_clear(m, 0.5, 0.5, 0.5, 0.5, 0.5));
    /* ... and the table's: clear iff r + 1e-7 < v. */
    ck_assert(ap_clearance_allows(3, sqrt(2.0) - 2e-7));
    ck_assert(!ap_clearance_allows(3, sqrt(2.0) - 1e-8));
    ck_assert(!ap_clearance_allows(3, sqrt(2.0)));
    ck_assert(!ap_clearance_allows(0, 0.0)); /* not even a point fits where the value is 0 */
    /* True clearance: the largest all-free square growing down and right. */
    ck_assert_uint_eq(t->square[ap_map_index(m, 0, 0)], 6); /* a 7-block would hold the wall */
    ck_assert_uint_eq(t->square[ap_map_index(m, 0, 4)], 6);
    ck_assert_uint_eq(t->square[ap_map_index(m, 7, 0)], 3);
    ck_assert_uint_eq(t->square[ap_map_index(m, 9, 9)], 1);
    ck_assert_uint_eq(t->square[ap_map_index(m, 6, 3)], 0);
#undef Q
    ap_map_free(m);
}
END_TEST

/* Values at and beyond the cap: a 40 x 40 open map's centre is 20 tiles from the outside. */
START_TEST(cap)
{
    char *text = malloc(64 + 41 * 40);
    int at = sprintf(text, "type octile\nheight 40\nwidth 40\nmap\n");
    for (int y = 0; y < 40; y++) {
        memset(text + at, '.', 40);
        at += 40;
        text[at++] = '\n';
    }
    text[at] = '\0';
    ap_map *m = ap_test_map_from_string(text);
    free(text);
    const ap_clearance_table *t = ap_clearance_of(m, AP_CAP_DEFAULT);
    ck_assert_uint_eq(t->disc[ap_map_index(m, 20, 20)], AP_CLEARANCE_LEVEL_MAX);
    ck_assert_uint_eq(t->disc[ap_map_index(m, 17, 20)], AP_CLEARANCE_LEVEL_MAX); /* 17.5 */
    ck_assert_uint_eq(t->disc[ap_map_index(m, 16, 20)], level_of(16.5));
    ck_assert_uint_eq(ap_clearance_move(t, ap_map_index(m, 20, 20), 1, 1), AP_CLEARANCE_LEVEL_MAX);
    ck_assert_uint_eq(ap_clearance_move(t, ap_map_index(m, 16, 20), -1, 1), level_of(15.5));
    ck_assert_uint_eq(t->square[ap_map_index(m, 0, 0)], 40);
    ck_assert(ap_clearance_allows(AP_CLEARANCE_LEVEL_MAX, 16.0)); /* every unit radius (<= 16) is served */
    ap_map_free(m);
}
END_TEST

/* 240 random maps (quick: 80) of up to 10 x 10 cells with random terrains, every capability: every cell's
 * and every move's value is the exact one; true clearance is the brute force's; collide.c agrees. */
START_TEST(random_maps)
{
    ap_test_rng g = {424242};
    int64_t checked = 0;
    const int maps = ap_test_quick() ? 80 : 240;
    for (int n = 0; n < maps; n++) {
        ap_map *m = ap_test_terrain_map(&g, 10, ap_test_all_capabilities, 15);
        uint8_t *mask = malloc(ap_map_node_count(m));
        for (unsigned c = 1; c <= AP_CAP_ALL; c++) {
            const ap_clearance_table *t = ap_clearance_of(m, (ap_capability)c);
            ck_assert_ptr_nonnull(t);
            ck_assert_uint_eq(t->capability, c);
            ap_capability_mask(m, (ap_capability)c, mask);
            for (int y = 0; y < m->height; y++)
                for (int x = 0; x < m->width; x++) {
                    check_cell(m, t, c, x, y, 1 << 20);
                    int dx = (int)(ap_test_rand(&g) % 3) - 1, dy = (int)(ap_test_rand(&g) % 3) - 1;
                    uint32_t p = ap_map_index(m, x, y);
                    check_collide(m, mask, dx || dy ? ap_clearance_move(t, p, dx, dy) : t->disc[p], x, y, dx, dy,
                                  ap_test_rand01(&g));
                    checked++;
                }
        }
        free(mask);
        ap_map_free(m);
    }
    ck_assert_int_gt(checked, maps * 15);
}
END_TEST

/* Real maps: random cells of den520d (default capability) and of battleground's water (a water-only unit),
 * each against the brute force over the squares within 18 cells (beyond the cap) and collide.c. */
static void spot_check(const char *name, ap_capability c, int samples)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("clearance: spot checks on real maps");
        return;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.map", dir, name);
    const uint8_t caps[] = {c};
    ap_map_opts o = ap_test_grid_opts(); /* (no search here: the any-angle graph and HAA*'s left out) */
    o.capabilities = caps;
    o.n_capabilities = 1;
    ap_map *m;
    ap_diag d;
    ck_assert_int_eq(ap_map_load(path, &o, &m, &d), AP_OK);
    const ap_clearance_table *t = ap_clearance_of(m, c);
    ck_assert_ptr_nonnull(t);
    uint8_t *mask = malloc(ap_map_node_count(m));
    ap_capability_mask(m, c, mask);
    ap_test_rng g = {(unsigned long long)c * 7919u + 17u};
    int inside = 0;
    uint32_t qmax = 0;
    for (int s = 0; s < samples;) {
        int x = (int)(ap_test_rand(&g) % (unsigned)m->width), y = (int)(ap_test_rand(&g) % (unsigned)m->height);
        if (!mask[ap_map_index(m, x, y)])
            continue;
        s++;
        inside++;
        check_cell(m, t, c, x, y, AP_CLEARANCE_CAP_TILES + 1);
        int dx = (int)(ap_test_rand(&g) % 3) - 1, dy = (int)(ap_test_rand(&g) % 3) - 1;
        uint32_t p = ap_map_index(m, x, y);
        uint8_t q = dx || dy ? ap_clearance_move(t, p, dx, dy) : t->disc[p];
        check_collide(m, mask, q, x, y, dx, dy, ap_test_rand01(&g));
        qmax = t->disc[p] > qmax ? t->disc[p] : qmax;
    }
    printf("clearance: %s %s: %d cells and moves match the brute force; largest cell clearance %.3f tiles\n", name,
           ap_capability_name(c), inside, ap_clearance_level_tiles[qmax]);
    free(mask);
    ap_map_free(m);
}

START_TEST(real_maps)
{
    int n = ap_test_quick() ? 300 : 2000;
    spot_check("den520d", AP_CAP_DEFAULT, n);
    spot_check("battleground", AP_CAP_WATER, n);
    spot_check("battleground", AP_CAP_GROUND | AP_CAP_WATER, n);
}
END_TEST

/* Reach by hand on an open 8 x 8 map: from cell (0, 0)'s centre the nearest obstacle is the off-map square
 * at 0.5 tiles (level 1); from (2, 2) it is 2.5 tiles (level 7). */
START_TEST(reach_hand_values)
{
    ap_test_rng g = {1};
    ap_map *m = ap_test_speckled_map(&g, 8, 8, 0.0);
    const ap_clearance_table *t = ap_clearance_of(m, m->capability);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(t->disc[ap_map_index(m, 0, 0)], 1);
    ck_assert_uint_eq(t->disc[ap_map_index(m, 2, 2)], 7);
    ck_assert_double_eq_tol(ap_clearance_reach(m, t, 0.5, 0.5, 0.0), 0.5 - 1e-6, 1e-12);
    ck_assert_double_eq_tol(ap_clearance_reach(m, t, 0.75, 0.5, 0.1), 0.5 - 0.25 - 0.1 - 1e-6, 1e-12);
    ck_assert_double_eq_tol(ap_clearance_reach(m, t, 2.5, 2.5, 0.5), 2.5 - 0.5 - 1e-6, 1e-12);
    ck_assert_double_eq_tol(ap_clearance_reach(m, t, 2.0, 2.0, 0.0), 2.5 - sqrt(0.5) - 1e-6, 1e-12);
    /* off the map, not finite, a bad radius: nothing proven */
    ck_assert_double_eq(ap_clearance_reach(m, t, -0.1, 3.0, 0.0), -1.0);
    ck_assert_double_eq(ap_clearance_reach(m, t, 3.0, 8.0, 0.0), -1.0);
    ck_assert_double_eq(ap_clearance_reach(m, t, NAN, 3.0, 0.0), -1.0);
    ck_assert_double_eq(ap_clearance_reach(m, t, 3.0, 3.0, -0.5), -1.0);
    ck_assert_double_eq(ap_clearance_reach(m, t, 3.0, 3.0, INFINITY), -1.0);
    /* (2.5, 2.5) with r = 0.5: a line of 1.99 tiles is proven (and clear), one of 2.0 is not proven */
    const double reach = ap_clearance_reach(m, t, 2.5, 2.5, 0.5);
    ck_assert(ap_clearance_reach_covers(reach, 1.99, 0.0));
    ck_assert(ap_line_clear(m, 2.5, 2.5, 2.5 + 1.99, 2.5, 0.5));
    ck_assert(!ap_clearance_reach_covers(reach, 2.0, 0.0));
    ck_assert(!ap_clearance_reach_covers(reach, 1.99, 1e8)); /* the arc slack of a huge radius */
    ck_assert(!ap_clearance_reach_covers(NAN, 0.0, 0.0));
    ap_map_free(m);

    /* Tracing a long segment: 30 tiles along the middle row of an open 100 x 100 map are proven in pieces of
     * about 16.3 tiles (the reach at the capped clearance); a line to the map's edge, or an arc that leaves
     * the map, is not proven, and the exact test agrees that it is not clear. */
    m = ap_test_speckled_map(&g, 100, 100, 0.0);
    t = ap_clearance_of(m, m->capability);
    ap_segment s = ap_segment_line(50.5, 50.5, 80.5, 50.5);
    ck_assert(ap_clearance_proves_segment(m, t, &s, 0.3));
    ck_assert(ap_segment_clear(m, &s, 0.3));
    s = ap_segment_arc(50.5, 50.5, 0.0, 20.0, M_PI);
    ck_assert(ap_clearance_proves_segment(m, t, &s, 0.3)); /* a half circle to (50.5, 90.5): 62.8 tiles */
    s = ap_segment_line(50.5, 50.5, 99.9, 50.5);
    ck_assert(!ap_clearance_proves_segment(m, t, &s, 0.3));
    ck_assert(!ap_segment_clear(m, &s, 0.3));
    s = ap_segment_arc(50.5, 50.5, 0.0, 30.0, M_PI);
    ck_assert(!ap_clearance_proves_segment(m, t, &s, 0.0));
    ck_assert(!ap_segment_clear(m, &s, 0.0));
    s.length = NAN;
    ck_assert(!ap_clearance_proves_segment(m, t, &s, 0.0));
    ap_map_free(m);
}
END_TEST

/* The shortcut against collide.c's exact test on random lines and arcs (forward and reverse, radii 0.3 to
 * 60 tiles) from random points of speckled maps and near their obstacles: wherever the reach covers a
 * segment, or the trace proves it, the exact test says clear. Both must fire often, and the exact test must
 * refuse many of the segments (the samples are near walls), or the test proves nothing. */
START_TEST(reach_agrees_with_exact)
{
    ap_test_rng g = {77};
    int covered = 0, traced = 0, blocked = 0, total = 0;
    for (int mi = 0; mi < 12; mi++) {
        ap_map *m = ap_test_speckled_map(&g, 20 + (int)(ap_test_rand(&g) % 60), 20 + (int)(ap_test_rand(&g) % 60),
                                 mi % 3 == 0 ? 0.01 : 0.06);
        const ap_clearance_table *t = ap_clearance_of(m, m->capability);
        ck_assert_ptr_nonnull(t);
        for (int k = 0; k < 4000; k++) {
            const double x = ap_test_rand01(&g) * m->width, y = ap_test_rand01(&g) * m->height;
            if (!m->pass[ap_map_index(m, (int32_t)x, (int32_t)y)])
                continue;
            const double r = ap_test_rand01(&g) < 0.3 ? 0.0 : 1.5 * ap_test_rand01(&g);
            const double h = 2.0 * M_PI * ap_test_rand01(&g) - M_PI, len = 20.0 * pow(ap_test_rand01(&g), 2.0);
            ap_segment s;
            double R = 0.0;
            if (ap_test_rand01(&g) < 0.3) {
                s = ap_segment_line(x, y, x + len * cos(h), y + len * sin(h));
            } else {
                R = 0.3 + 60.0 * pow(ap_test_rand01(&g), 3.0);
                ap_pose p = {x, y, h};
                const int steer = ap_test_rand01(&g) < 0.5 ? 1 : -1;
                s = ap_segment_drive(&p, steer, ap_test_rand01(&g) < 0.2 ? -len : len, R);
            }
            const bool exact = ap_segment_clear(m, &s, r);
            const bool cov = ap_clearance_reach_covers(ap_clearance_reach(m, t, x, y, r), s.length, R);
            const bool tr = ap_clearance_proves_segment(m, t, &s, r);
            AP_EXPECT(!cov || exact, "covered but not clear: (%.17g, %.17g) h %.17g len %.17g R %.17g r %.17g", x, y,
                      h, s.length, R, r);
            AP_EXPECT(!tr || exact, "traced but not clear: (%.17g, %.17g) h %.17g len %.17g R %.17g r %.17g", x, y,
                      h, s.length, R, r);
            covered += cov;
            traced += tr;
            blocked += !exact;
            total++;
        }
        ap_map_free(m);
    }
    printf("clearance reach: %d segments, %d covered by the reach, %d proven by tracing, %d not clear\n", total,
           covered, traced, blocked);
    ck_assert_int_gt(covered, total / 10);
    ck_assert_int_gt(traced, covered);
    ck_assert_int_gt(blocked, total / 5);
}
END_TEST

Suite *clearance_suite(void)
{
    Suite *s = suite_create("clearance");
    TCase *tc = tcase_create("clearance");
    tcase_add_test(tc, levels);
    tcase_add_test(tc, hand_values);
    tcase_add_test(tc, cap);
    tcase_add_test(tc, random_maps);
    tcase_add_test(tc, real_maps);
    tcase_add_test(tc, reach_hand_values);
    tcase_add_test(tc, reach_agrees_with_exact);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);
    return s;
}
