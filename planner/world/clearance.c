/* clearance.c — exact disc clearance and true (square) clearance per capability (clearance.h).
 *
 * All disc distances are computed exactly in integers as D4 = (2 v)^2, the squared distance in half tiles:
 * from the centre of cell (i, j) to the square of cell (a, b) the x gap is 0 when a == i and |a - i| - 1/2
 * otherwise, i.e. F(a - i) half tiles with F(0) = 0 and F(k) = 2|k| - 1. So D4(i, j) = min over cells
 * (a, b) outside the capability of F(a - i)^2 + F(b - j)^2: a row pass gives G(i, b) = F of the nearest
 * outside cell in row b, then a column pass minimises G(i, b)^2 + F(b - j)^2 over |b - j| <= the cap (a
 * separable distance transform, to squares rather than to centres).
 *
 * Diagonal moves. Between a segment and a disjoint square the closest pair has a vertex of one of them:
 * an end of the segment (a cell centre, already D4) or a corner of the square. A corner whose nearest
 * point of the segment is an end is no nearer than that end's square, so only lattice corners projecting
 * strictly inside the segment matter: for the move (i, j) -> (i + 1, j + 1) (centres' X + Y = i + j + 1
 * and i + j + 3) those on the one anti-diagonal X + Y = i + j + 2 through the corner K = (i + 1, j + 1)
 * the move crosses, at perpendicular distance |X - Y - (i - j)| / sqrt 2 = sqrt 2 n for the corner n
 * lattice steps from K. A corner is "blocked" when one of its four cells is outside the capability; a
 * sweep per diagonal direction gives every corner's distance (in lattice steps) to the nearest blocked
 * corner, so each move is O(1): D4 = min(D4 of both ends, 8 n^2).
 */
#include "clearance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/status.h"

#define CAP_HALF (2 * AP_CLEARANCE_CAP_TILES)  /* the cap in half tiles */
#define CAP4 (CAP_HALF * CAP_HALF)             /* the cap as D4 */
#define ROW_N_MAX (AP_CLEARANCE_CAP_TILES + 1) /* row distances beyond this are >= the cap */

static const char *const slot_names[AP_CAPABILITY_COUNT] = AP_CAPABILITY_NAMES("clearance:");

/* q = ceil(256 v) - 1 (at least 0) for v = sqrt(d4) / 2, i.e. ceil(128 sqrt d4) - 1, in integers. */
static uint16_t quantise(uint32_t d4)
{
    uint64_t n2 = 16384ull * d4;
    uint64_t s = (uint64_t)sqrt((double)n2);
    while (s * s > n2)
        s--;
    while ((s + 1) * (s + 1) <= n2)
        s++;
    if (s * s == n2)
        return s == 0 ? 0 : (uint16_t)(s - 1);
    return (uint16_t)s;
}

/* Row pass: G per padded cell, F of the nearest cell outside the mask in the same row (0 for such cells),
 * capped at F(ROW_N_MAX). The border columns are outside, so every row has one on each side. */
static void row_pass(const ap_map *m, const uint8_t *mask, uint8_t *G)
{
    const uint32_t S = (uint32_t)m->stride;
    for (int32_t y = 0; y < m->height + 2; y++) {
        const uint8_t *mrow = mask + (size_t)y * S;
        uint8_t *grow = G + (size_t)y * S;
        uint32_t n = 0;
        for (uint32_t x = 0; x < S; x++) {
            n = mrow[x] ? (n < ROW_N_MAX ? n + 1 : ROW_N_MAX) : 0;
            grow[x] = (uint8_t)n;
        }
        n = 0;
        for (uint32_t x = S; x-- > 0;) {
            n = mrow[x] ? (n < ROW_N_MAX ? n + 1 : ROW_N_MAX) : 0;
            uint32_t k = n < grow[x] ? n : grow[x];
            grow[x] = (uint8_t)(k == 0 ? 0 : 2 * k - 1);
        }
    }
}

#define COLUMN_BLOCK 64u

/* d[x] = min(d[x], g[x]^2 + f2) over n columns; returns the largest d[x] left. All in uint16 (g <= 35,
 * f2 < CAP4, so the sum stays below 2 * 1225) with a fixed trip count for full blocks, so the compiler
 * can vectorise it. */
static inline uint16_t relax_n(uint16_t *restrict d, const uint8_t *restrict g, uint32_t n, uint16_t f2)
{
    uint16_t worst = 0;
    for (uint32_t x = 0; x < n; x++) {
        uint16_t v = (uint16_t)((uint16_t)(g[x] * g[x]) + f2);
        uint16_t e = v < d[x] ? v : d[x];
        d[x] = e;
        worst = e > worst ? e : worst;
    }
    return worst;
}

static uint16_t relax(uint16_t *restrict d, const uint8_t *restrict g, uint32_t n, uint16_t f2)
{
    if (n == COLUMN_BLOCK)
        return relax_n(d, g, COLUMN_BLOCK, f2);
    return relax_n(d, g, n, f2);
}

/* Column pass: D4 per padded cell, min over rows b of G(x, b)^2 + F(b - y)^2, capped at CAP4. Per row and
 * block of COLUMN_BLOCK columns, nearer rows first, until F^2 alone reaches the largest value still open
 * in the block: open areas cost at most 2 * cap + 1 rows, cluttered blocks a few. */
static void column_pass(const ap_map *m, const uint8_t *G, uint16_t *D4)
{
    const uint32_t S = (uint32_t)m->stride;
    const int32_t rows = m->height + 2;
    memset(D4, 0, (size_t)S * (size_t)rows * sizeof *D4);
    for (int32_t y = 1; y <= m->height; y++) {
        uint16_t *d = D4 + (size_t)y * S;
        const uint8_t *g = G + (size_t)y * S;
        for (uint32_t x = 0; x < S; x++)
            d[x] = CAP4;
        for (uint32_t x0 = 0; x0 < S; x0 += COLUMN_BLOCK) {
            const uint32_t n = S - x0 < COLUMN_BLOCK ? S - x0 : COLUMN_BLOCK;
            uint32_t worst = relax(d + x0, g + x0, n, 0);
            for (int32_t k = 1; (uint32_t)(2 * k - 1) * (uint32_t)(2 * k - 1) < worst; k++) {
                const uint32_t f2 = (uint32_t)(2 * k - 1) * (uint32_t)(2 * k - 1);
                /* Rows 0 and height + 1 are border (G = 0), so the loop ends by k = y or rows - y. */
                if (y - k >= 0)
                    worst = relax(d + x0, G + (size_t)(y - k) * S + x0, n, (uint16_t)f2);
                if (y + k < rows)
                    worst = relax(d + x0, G + (size_t)(y + k) * S + x0, n, (uint16_t)f2);
            }
        }
    }
}

/* Nearest-blocked-corner distances along the four diagonal directions, one byte per corner (X, Y) in
 * [0, W] x [0, H] (index Y * (W + 1) + X), saturating at 255 lattice steps. */
typedef struct corner_runs {
    uint32_t cw;     /* corners per row, W + 1 */
    uint8_t *pm, *mp; /* along (+1, -1) and (-1, +1): the anti-diagonals, for moves (+1, +1) */
    uint8_t *pp, *mm; /* along (+1, +1) and (-1, -1): the diagonals, for moves (-1, +1) */
} corner_runs;

static inline uint8_t step(bool blocked, uint8_t next)
{
    return blocked ? 0 : (uint8_t)(next < 255 ? next + 1 : 255);
}

/* Every corner on the map's outline touches an off-map cell, so each run stops inside the corner grid. */
static void corner_pass(const ap_map *m, const uint8_t *mask, corner_runs *c)
{
    const uint32_t S = (uint32_t)m->stride, cw = c->cw;
    const int32_t W = m->width, H = m->height;
#define BLOCKED(X, Y)                                                                                          \
    (!mask[(size_t)(Y) * S + (X)] || !mask[(size_t)(Y) * S + (X) + 1] || !mask[(size_t)((Y) + 1) * S + (X)] || \
     !mask[(size_t)((Y) + 1) * S + (X) + 1])
#define AT(a, X, Y) (a)[(size_t)(Y) * cw + (size_t)(X)]
    for (int32_t Y = 0; Y <= H; Y++)
        for (int32_t X = 0; X <= W; X++) {
            bool b = BLOCKED(X, Y);
            AT(c->pm, X, Y) = step(b, b ? 0 : AT(c->pm, X + 1, Y - 1));
            AT(c->mm, X, Y) = step(b, b ? 0 : AT(c->mm, X - 1, Y - 1));
        }
    for (int32_t Y = H; Y >= 0; Y--)
        for (int32_t X = 0; X <= W; X++) {
            bool b = BLOCKED(X, Y);
            AT(c->mp, X, Y) = step(b, b ? 0 : AT(c->mp, X - 1, Y + 1));
            AT(c->pp, X, Y) = step(b, b ? 0 : AT(c->pp, X + 1, Y + 1));
        }
#undef BLOCKED
#undef AT
}

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
    return a < b ? a : b;
}

/* D4 of a diagonal move from its two cells' D4 and n, the lattice steps from the corner the move crosses
 * to the nearest blocked corner on its line: sqrt 2 n tiles from the move, D4 = (2 sqrt 2 n)^2 = 8 n^2. */
static uint32_t diag_d4(uint32_t d4a, uint32_t d4b, uint32_t n)
{
    return min_u32(min_u32(d4a, d4b), min_u32(8u * n * n, CAP4));
}

/* The diagonal moves leaving each map cell downwards. A move to an off-map cell crosses a corner on the
 * map's outline (blocked), so it gets 0 without reading outside the corner grid. */
static void diagonal_pass(const ap_map *m, const uint16_t *D4, const corner_runs *c, const uint16_t *qtab,
                          ap_clearance_table *t)
{
    const uint32_t S = (uint32_t)m->stride, cw = c->cw;
    const int32_t W = m->width, H = m->height;
#define AT(a, X, Y) (uint32_t)(a)[(size_t)(Y) * cw + (size_t)(X)]
    for (int32_t j = 0; j < H; j++)
        for (int32_t i = 0; i < W; i++) {
            const uint32_t p = ap_map_index(m, i, j);
            if (D4[p] == 0 || j + 1 >= H)
                continue; /* both stay 0 */
            if (i + 1 < W) { /* to (i + 1, j + 1), through corner (i + 1, j + 1) along X + Y */
                uint32_t n = min_u32(AT(c->pm, i + 1, j + 1), AT(c->mp, i + 1, j + 1));
                t->diag_se[p] = qtab[diag_d4(D4[p], D4[p + S + 1], n)];
            }
            if (i >= 1) { /* to (i - 1, j + 1), through corner (i, j + 1) along X - Y */
                uint32_t n = min_u32(AT(c->pp, i, j + 1), AT(c->mm, i, j + 1));
                t->diag_sw[p] = qtab[diag_d4(D4[p], D4[p + S - 1], n)];
            }
        }
#undef AT
}

/* Harabor's true clearance, bottom-right to top-left: a k x k block at (x, y) is inside iff the cell is
 * and the (k-1)-blocks at its right, lower and lower-right neighbours are. The border is outside (0). */
static void square_pass(const ap_map *m, const uint8_t *mask, uint8_t *sq)
{
    const uint32_t S = (uint32_t)m->stride;
    for (int32_t y = m->height - 1; y >= 0; y--)
        for (int32_t x = m->width - 1; x >= 0; x--) {
            const uint32_t p = ap_map_index(m, x, y);
            if (!mask[p])
                continue;
            uint32_t k = sq[p + 1];
            k = sq[p + S] < k ? sq[p + S] : k;
            k = sq[p + S + 1] < k ? sq[p + S + 1] : k;
            sq[p] = (uint8_t)(k < 255 ? k + 1 : 255);
        }
}

size_t ap_clearance_bytes(uint32_t cells)
{
    return sizeof(ap_clearance_table) + (size_t)cells * (3 * sizeof(uint16_t) + 1);
}

int ap_clearance_build(const ap_map *m, ap_capability c, ap_clearance_table **out)
{
    const uint32_t N = ap_map_node_count(m);
    const size_t corners = ((size_t)m->width + 1) * ((size_t)m->height + 1);
    ap_clearance_table *t = calloc(1, ap_clearance_bytes(N));
    uint8_t *mask = malloc(N);
    uint8_t *G = malloc(N);
    uint16_t *D4 = malloc((size_t)N * sizeof *D4);
    uint8_t *runs = malloc(4 * corners);
    uint16_t *qtab = malloc((CAP4 + 1) * sizeof *qtab);
    int st = AP_E_NOMEM;
    if (t == NULL || mask == NULL || G == NULL || D4 == NULL || runs == NULL || qtab == NULL)
        goto done;
    t->capability = c;
    t->stride = m->stride;
    t->cells = N;
    t->disc = (uint16_t *)(t + 1);
    t->diag_se = t->disc + N;
    t->diag_sw = t->diag_se + N;
    t->square = (uint8_t *)(t->diag_sw + N);
    for (uint32_t d4 = 0; d4 <= CAP4; d4++)
        qtab[d4] = quantise(d4);
    ap_capability_mask(m, c, mask);
    row_pass(m, mask, G);
    column_pass(m, G, D4);
    for (uint32_t p = 0; p < N; p++)
        t->disc[p] = qtab[D4[p]];
    corner_runs cr = {(uint32_t)m->width + 1, runs, runs + corners, runs + 2 * corners, runs + 3 * corners};
    corner_pass(m, mask, &cr);
    diagonal_pass(m, D4, &cr, qtab, t);
    square_pass(m, mask, t->square);
    *out = t;
    t = NULL;
    st = AP_OK;
done:
    free(t);
    free(mask);
    free(G);
    free(D4);
    free(runs);
    free(qtab);
    return st;
}

void ap_clearance_free(void *table)
{
    free(table);
}

static int build_clearance(const ap_map *m, ap_map_table *out)
{
    out->name = slot_names[out->capability];
    ap_clearance_table *t;
    int st = ap_clearance_build(m, out->capability, &t);
    if (st != AP_OK)
        return st;
    out->data = t;
    out->bytes = ap_clearance_bytes(t->cells);
    return AP_OK;
}

const ap_table_kind ap_clearance_table_kind = {"clearance:<capability>", NULL,
                                               AP_TABLE_OPTIONAL | AP_TABLE_PER_CAPABILITY, build_clearance,
                                               ap_clearance_free, NULL};

const ap_clearance_table *ap_clearance_of(const ap_map *m, ap_capability c)
{
    if (c == 0 || c > AP_CAP_ALL)
        return NULL;
    const ap_map_table *t = ap_map_find_table(m, slot_names[c]);
    return t != NULL ? t->data : NULL;
}
