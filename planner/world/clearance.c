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
 *
 * Every pass runs on a FRAME, a rectangle of padded cells with its own buffers (mask, G, D4, corner runs),
 * and writes the table only inside an output rectangle: the full build's frame is the whole padded map; a
 * tile update (update_clearance) runs the same passes on frames around the changed cells.
 *
 * Why a window is exact (the caps). Let c be a cell whose letter (hence mask bit) changed.
 *  - disc: D4 is capped at CAP4 = 34^2 half tiles squared, and a cell (a, b) outside the mask contributes
 *    F(a - i)^2 + F(b - j)^2 >= CAP4 unless |a - i| <= 17 and |b - j| <= 17 (F(18) = 35). So D4 and disc
 *    change only at cells within DISC_REACH = 17 (Chebyshev) of c.
 *  - diagonal moves: a move's D4 is min(D4 of its ends, 8 n^2, CAP4) with n the steps from the corner it
 *    crosses to the nearest blocked corner; 8 n^2 >= CAP4 for n >= 13, so only blocked corners within
 *    CORNER_REACH = 12 steps matter, and a corner's blocked state changes only for the 4 corners of c. The
 *    move stored at (i, j) has ends (i, j) and (i +- 1, j + 1) and crosses corner (i + 1, j + 1) or
 *    (i, j + 1): it changes only when an end is within 17 of c or the crossed corner within 12 steps of
 *    one of c's corners, i.e. for (i, j) within AP_CLEARANCE_REACH = 18 of c.
 *  - square: the capped true clearance of (x, y) depends only on the 255 x 255 block [x, x + 254] x
 *    [y, y + 254] (k < 255 is decided by the (k + 1)-block, which lies inside it), so it changes only for
 *    cx - 254 <= x <= cx, cy - 254 <= y <= cy; square_update recomputes only where a value it reads changed,
 *    which stays inside that range.
 * Inputs a window needs (for an output box O = B grown by D4_OUT = 19, B the changed cells' box): the
 * column pass reads G in rows within 17 of O (the loop stops once F(k)^2 >= CAP4, i.e. k <= 17); G(x) is
 * the capped run length min(18, distance to the nearest outside cell in the row), which a row pass started
 * at the frame's edge (treating the cell before the edge as outside) gets right for cells at least 17
 * cells from the edge; the corner runs are exact up to 12 steps for corners at least 13 steps from the edge
 * of the frame's corners. A frame of B grown by FRAME_MARGIN = D4_OUT + 17 = 36 (clipped to the padded
 * map, whose border cells are outside the mask anyway) meets all three; see update_clearance.
 */
#include "clearance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/status.h"

#define CAP_HALF (2 * AP_CLEARANCE_CAP_TILES)  /* the cap in half tiles */
#define CAP4 (CAP_HALF * CAP_HALF)             /* the cap as D4 */
#define ROW_N_MAX (AP_CLEARANCE_CAP_TILES + 1) /* row distances beyond this are >= the cap */
#define CORNER_REACH 12                        /* the largest n with 8 n^2 < CAP4 */
#define DISC_REACH AP_CLEARANCE_CAP_TILES      /* see the top: disc values change within this of a cell */
#define D4_OUT (AP_CLEARANCE_REACH + 1)        /* D4 recomputed around B: the diagonal moves' far ends */
#define FRAME_MARGIN (D4_OUT + AP_CLEARANCE_CAP_TILES)

_Static_assert(8 * CORNER_REACH * CORNER_REACH < CAP4 && 8 * (CORNER_REACH + 1) * (CORNER_REACH + 1) >= CAP4,
               "CORNER_REACH is the last corner distance below the cap");
_Static_assert((2 * DISC_REACH - 1) * (2 * DISC_REACH - 1) < CAP4 &&
                   (2 * DISC_REACH + 1) * (2 * DISC_REACH + 1) >= CAP4,
               "DISC_REACH is the last cell distance below the cap");
_Static_assert(AP_CLEARANCE_REACH == DISC_REACH + 1 && CORNER_REACH + 1 <= AP_CLEARANCE_REACH,
               "diagonal moves: one cell beyond the disc reach");

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

/* A rectangle of padded cells [x0, x1) x [y0, y1) (map cell (x, y) is padded (x + 1, y + 1)). */
typedef struct rect {
    int32_t x0, y0, x1, y1;
} rect;

static int32_t max_i32(int32_t a, int32_t b)
{
    return a > b ? a : b;
}

static int32_t min_i32(int32_t a, int32_t b)
{
    return a < b ? a : b;
}

/* r grown by g on every side, clipped to lim. */
static rect grow(rect r, int32_t g, rect lim)
{
    return (rect){max_i32(r.x0 - g, lim.x0), max_i32(r.y0 - g, lim.y0), min_i32(r.x1 + g, lim.x1),
                  min_i32(r.y1 + g, lim.y1)};
}

static size_t area(rect r)
{
    return (size_t)(r.x1 - r.x0) * (size_t)(r.y1 - r.y0);
}

/* Nearest-blocked-corner distances along the four diagonal directions, one byte per corner, saturating at
 * 255 lattice steps. Corner (X, Y) is the top-left corner of padded cell (X, Y); a frame f has the corners
 * [f.x0, f.x1 - 1) x [f.y0, f.y1 - 1), those whose four cells it holds, stored with a ring of zeros around
 * them (index (Y - f.y0 + 1) * cw + (X - f.x0 + 1)): a run reaching the ring stops as at a blocked corner. */
typedef struct corner_runs {
    uint32_t cw;      /* values per row: the frame's corners per row (frame width - 1) + 2 */
    uint8_t *pm, *mp; /* along (+1, -1) and (-1, +1): the anti-diagonals, for moves (+1, +1) */
    uint8_t *pp, *mm; /* along (+1, +1) and (-1, -1): the diagonals, for moves (-1, +1) */
} corner_runs;

/* The passes' working set over frame f: per frame cell (index (y - f.y0) * fw + (x - f.x0)) the mask, the
 * row distances G and D4; the corner runs. */
typedef struct frame {
    rect f;
    uint32_t fw;
    uint8_t *mask, *G;
    uint16_t *D4;
    corner_runs cr;
    uint8_t *buf;
} frame;

#define FI(fr, x, y) ((size_t)((y) - (fr)->f.y0) * (fr)->fw + (size_t)((x) - (fr)->f.x0))

/* Buffers for frame f (free fr->buf). */
static int frame_init(frame *fr, rect f)
{
    const size_t cells = area(f), corners = (size_t)(f.x1 - f.x0 + 1) * (size_t)(f.y1 - f.y0 + 1);
    fr->f = f;
    fr->fw = (uint32_t)(f.x1 - f.x0);
    fr->buf = malloc(cells * 4 + 4 * corners);
    if (fr->buf == NULL)
        return AP_E_NOMEM;
    fr->D4 = (uint16_t *)fr->buf;
    fr->mask = fr->buf + 2 * cells;
    fr->G = fr->mask + cells;
    uint8_t *runs = fr->G + cells;
    fr->cr = (corner_runs){fr->fw + 1, runs, runs + corners, runs + 2 * corners, runs + 3 * corners};
    return AP_OK;
}

/* The capability mask over the frame (capability.h ap_capability_mask's rule; off-map cells are 0). */
static void frame_mask(const ap_map *m, ap_capability c, frame *fr)
{
    const rect f = fr->f;
    memset(fr->mask, 0, area(f));
    for (int32_t y = max_i32(f.y0, 1); y < min_i32(f.y1, m->height + 1); y++) {
        const uint8_t *trow = m->terrain + (size_t)(y - 1) * (size_t)m->width;
        uint8_t *mrow = fr->mask + FI(fr, f.x0, y);
        for (int32_t x = max_i32(f.x0, 1); x < min_i32(f.x1, m->width + 1); x++)
            mrow[x - f.x0] = (ap_capability_of_terrain(trow[x - 1]) & c) != 0;
    }
}

/* Row pass: G per frame cell, F of the nearest cell outside the mask in the same row (0 for such cells),
 * capped at F(ROW_N_MAX). The cells before and after the frame's row count as outside: exact on the whole
 * map (the border columns are outside), and ROW_N_MAX - 1 cells in from the edges of a smaller frame. */
static void row_pass(frame *fr)
{
    const uint32_t S = fr->fw;
    for (int32_t y = 0; y < fr->f.y1 - fr->f.y0; y++) {
        const uint8_t *mrow = fr->mask + (size_t)y * S;
        uint8_t *grow = fr->G + (size_t)y * S;
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

/* Column pass: D4 at the frame cells of o (map rows), min over rows b of G(x, b)^2 + F(b - y)^2, capped at
 * CAP4; other frame cells of D4 are 0. Per row and block of COLUMN_BLOCK columns, nearer rows first, until
 * F^2 alone reaches the largest value still open in the block: open areas cost at most 2 * cap + 1 rows,
 * cluttered blocks a few. Rows read: within AP_CLEARANCE_CAP_TILES of o (F(18)^2 >= CAP4 ends the loop),
 * inside the frame (a row beyond the map's is a border row, G = 0, which ends it too). */
static void column_pass(frame *fr, rect o)
{
    const rect f = fr->f;
    const uint32_t ow = (uint32_t)(o.x1 - o.x0);
    memset(fr->D4, 0, area(f) * sizeof *fr->D4);
    for (int32_t y = o.y0; y < o.y1; y++) {
        uint16_t *d = fr->D4 + FI(fr, o.x0, y);
        for (uint32_t x = 0; x < ow; x++)
            d[x] = CAP4;
        for (uint32_t x0 = 0; x0 < ow; x0 += COLUMN_BLOCK) {
            const uint32_t n = ow - x0 < COLUMN_BLOCK ? ow - x0 : COLUMN_BLOCK;
            uint32_t worst = relax(d + x0, fr->G + FI(fr, o.x0, y) + x0, n, 0);
            for (int32_t k = 1; (uint32_t)(2 * k - 1) * (uint32_t)(2 * k - 1) < worst; k++) {
                const uint32_t f2 = (uint32_t)(2 * k - 1) * (uint32_t)(2 * k - 1);
                if (y - k >= f.y0)
                    worst = relax(d + x0, fr->G + FI(fr, o.x0, y - k) + x0, n, (uint16_t)f2);
                if (y + k < f.y1)
                    worst = relax(d + x0, fr->G + FI(fr, o.x0, y + k) + x0, n, (uint16_t)f2);
            }
        }
    }
}

static inline uint8_t step(bool blocked, uint8_t next)
{
    return blocked ? 0 : (uint8_t)(next < 255 ? next + 1 : 255);
}

/* The runs of the frame's corners. A run starts at the frame's edge as if the corner beyond it were
 * blocked (the ring of zeros): on the whole map every corner on the map's outline touches an off-map cell
 * (blocked), so that never matters; in a smaller frame a run is exact up to CORNER_REACH for corners
 * CORNER_REACH + 1 steps in. */
static void corner_pass(frame *fr)
{
    corner_runs *c = &fr->cr;
    const uint32_t S = fr->fw, cw = c->cw;
    const int32_t W = (int32_t)cw - 2, H = fr->f.y1 - fr->f.y0 - 1; /* local corners [0, W) x [0, H) */
    const uint8_t *mask = fr->mask;
    uint8_t *const runs[4] = {c->pm, c->mp, c->pp, c->mm};
    for (int r = 0; r < 4; r++) {
        memset(runs[r], 0, cw);
        memset(runs[r] + (size_t)(H + 1) * cw, 0, cw);
        for (int32_t Y = 0; Y < H; Y++)
            runs[r][(size_t)(Y + 1) * cw] = runs[r][(size_t)(Y + 1) * cw + cw - 1] = 0;
    }
#define BLOCKED(X, Y)                                                                                          \
    (!mask[(size_t)(Y) * S + (X)] || !mask[(size_t)(Y) * S + (X) + 1] || !mask[(size_t)((Y) + 1) * S + (X)] || \
     !mask[(size_t)((Y) + 1) * S + (X) + 1])
#define AT(a, X, Y) (a)[(size_t)((Y) + 1) * cw + (size_t)((X) + 1)]
    for (int32_t Y = 0; Y < H; Y++)
        for (int32_t X = 0; X < W; X++) {
            bool b = BLOCKED(X, Y);
            AT(c->pm, X, Y) = step(b, b ? 0 : AT(c->pm, X + 1, Y - 1));
            AT(c->mm, X, Y) = step(b, b ? 0 : AT(c->mm, X - 1, Y - 1));
        }
    for (int32_t Y = H; Y-- > 0;)
        for (int32_t X = 0; X < W; X++) {
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

/* The cell values of o from the frame's D4 (o inside the column pass's output). */
static void disc_out(const ap_map *m, const frame *fr, const uint16_t *qtab, rect o, ap_clearance_table *t)
{
    const uint32_t S = (uint32_t)m->stride;
    for (int32_t y = o.y0; y < o.y1; y++) {
        const uint16_t *d = fr->D4 + FI(fr, o.x0, y);
        uint16_t *q = t->disc + (size_t)y * S + (size_t)o.x0;
        for (int32_t x = 0; x < o.x1 - o.x0; x++)
            q[x] = qtab[d[x]];
    }
}

/* The diagonal moves leaving the map cells of o downwards (o and its cells' lower neighbours inside the
 * column pass's output). A move to an off-map cell crosses a corner on the map's outline (blocked): 0. */
static void diagonal_pass(const ap_map *m, const frame *fr, const uint16_t *qtab, rect o, ap_clearance_table *t)
{
    const uint32_t S = (uint32_t)m->stride;
    const corner_runs *c = &fr->cr;
    for (int32_t y = o.y0; y < o.y1; y++) {
        /* rows of this cell and the next (D4, by frame column) and of the corners above the next row */
        const uint16_t *d0 = fr->D4 + FI(fr, fr->f.x0, y), *d1 = d0 + fr->fw;
        const size_t cr = (size_t)(y - fr->f.y0 + 1) * c->cw + 1;
        const uint8_t *pm = c->pm + cr, *mp = c->mp + cr, *pp = c->pp + cr, *mm = c->mm + cr;
        const bool last = y >= m->height;
        for (int32_t x = o.x0; x < o.x1; x++) {
            const size_t p = (size_t)y * S + (size_t)x;
            const int32_t i = x - fr->f.x0; /* frame column of the cell and its corner (x, y) */
            const uint32_t d = d0[i];
            uint16_t se = 0, sw = 0;
            if (d != 0 && !last) {
                if (x < m->width) /* to (x + 1, y + 1), through corner (x, y) along X + Y */
                    se = qtab[diag_d4(d, d1[i + 1], min_u32(pm[i], mp[i]))];
                if (x > 1) /* to (x - 1, y + 1), through corner (x - 1, y) along X - Y */
                    sw = qtab[diag_d4(d, d1[i - 1], min_u32(pp[i - 1], mm[i - 1]))];
            }
            t->diag_se[p] = se;
            t->diag_sw[p] = sw;
        }
    }
}

/* Harabor's true clearance of padded cell p from its right, lower and lower-right neighbours: a k x k block
 * at p is inside iff the cell is and the (k-1)-blocks at those three are. */
static inline uint8_t square_at(const uint8_t *sq, size_t p, uint32_t S, bool inside)
{
    if (!inside)
        return 0;
    uint32_t k = sq[p + 1];
    k = sq[p + S] < k ? sq[p + S] : k;
    k = sq[p + S + 1] < k ? sq[p + S + 1] : k;
    return (uint8_t)(k < 255 ? k + 1 : 255);
}

/* True clearance over the map cells of o, bottom-right to top-left (the border is outside: 0). */
static void square_pass(const ap_map *m, const frame *fr, rect o, uint8_t *sq)
{
    const uint32_t S = (uint32_t)m->stride;
    for (int32_t y = o.y1; y-- > o.y0;) {
        const uint8_t *mrow = fr->mask + FI(fr, o.x0, y);
        for (int32_t x = o.x1; x-- > o.x0;) {
            const size_t p = (size_t)y * S + (size_t)x;
            sq[p] = square_at(sq, p, S, mrow[x - o.x0] != 0);
        }
    }
}

/* True clearance after a tile update whose changed cells lie in h (padded map cells), in place over the
 * previous values. Only cells above and left of a change can change (see the top). Rows bottom-up from h's
 * last, each right to left from h's last column: every cell of h is recomputed; a cell outside h is
 * recomputed while one it reads may have changed (its right neighbour changed, or a change in the row below
 * at or left of x + 1), and the row stops at the first that cannot: it and every cell further left keep
 * their values, since all they read did. Above h, a row where nothing changed ends the pass (the row above
 * reads only it and unchanged cells right of h). Cost: the cells that change plus a fringe. */
static void square_update(const ap_map *m, ap_capability c, rect h, uint8_t *sq)
{
    const uint32_t S = (uint32_t)m->stride;
    int32_t lo_below = INT32_MAX; /* the leftmost cell that changed in the row below */
    for (int32_t y = h.y1 - 1; y >= 1; y--) {
        const uint8_t *trow = m->terrain + (size_t)(y - 1) * (size_t)m->width;
        int32_t lo = INT32_MAX;
        bool right_changed = false;
        for (int32_t x = h.x1 - 1; x >= 1; x--) {
            const bool in_h = x >= h.x0 && y >= h.y0;
            if (!in_h && !right_changed && x + 1 < lo_below)
                break;
            const size_t p = (size_t)y * S + (size_t)x;
            const uint8_t v = square_at(sq, p, S, (ap_capability_of_terrain(trow[x - 1]) & c) != 0);
            right_changed = v != sq[p];
            if (right_changed) {
                sq[p] = v;
                lo = x;
            }
        }
        if (lo == INT32_MAX && y <= h.y0)
            break;
        lo_below = lo;
    }
}

size_t ap_clearance_bytes(uint32_t cells)
{
    return sizeof(ap_clearance_table) + (size_t)cells * (3 * sizeof(uint16_t) + 1);
}

/* Point t's arrays into its own block (after the header). */
static void set_arrays(ap_clearance_table *t)
{
    const uint32_t N = t->cells;
    t->disc = (uint16_t *)(t + 1);
    t->diag_se = t->disc + N;
    t->diag_sw = t->diag_se + N;
    t->square = (uint8_t *)(t->diag_sw + N);
}

static uint16_t *quantise_table(void)
{
    uint16_t *qtab = malloc((CAP4 + 1) * sizeof *qtab);
    for (uint32_t d4 = 0; qtab != NULL && d4 <= CAP4; d4++)
        qtab[d4] = quantise(d4);
    return qtab;
}

/* Disc and diagonal values of t for the changed cells' box b (padded; the whole map's cells for a full
 * build, which also sets the true clearance: `square`), on a frame of b grown by FRAME_MARGIN (see the top
 * for why that and the output boxes are exact). */
static int window_pass(const ap_map *m, ap_capability c, const uint16_t *qtab, rect b, bool square,
                       ap_clearance_table *t)
{
    const rect all = {0, 0, m->stride, m->height + 2}, cells = {1, 1, m->width + 1, m->height + 1};
    frame fr;
    if (frame_init(&fr, grow(b, FRAME_MARGIN, all)) != AP_OK)
        return AP_E_NOMEM;
    const rect o4 = grow(b, D4_OUT, cells);
    frame_mask(m, c, &fr);
    row_pass(&fr);
    column_pass(&fr, o4);
    disc_out(m, &fr, qtab, o4, t);
    corner_pass(&fr);
    diagonal_pass(m, &fr, qtab, grow(b, AP_CLEARANCE_REACH, cells), t);
    if (square)
        square_pass(m, &fr, grow(b, 0, cells), t->square);
    free(fr.buf);
    return AP_OK;
}

int ap_clearance_build(const ap_map *m, ap_capability c, ap_clearance_table **out)
{
    const uint32_t N = ap_map_node_count(m);
    ap_clearance_table *t = calloc(1, ap_clearance_bytes(N));
    uint16_t *qtab = quantise_table();
    const rect cells = {1, 1, m->width + 1, m->height + 1};
    int st = AP_E_NOMEM;
    if (t == NULL || qtab == NULL)
        goto done;
    t->capability = c;
    t->stride = m->stride;
    t->cells = N;
    set_arrays(t);
    st = window_pass(m, c, qtab, cells, true, t);
    if (st == AP_OK) {
        *out = t;
        t = NULL;
    }
done:
    free(t);
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

/* Tile updates: above this many changed cells, or when the frames cover more than 1 / FULL_FRACTION of
 * the padded map, the full build is about as cheap (it runs the same passes once over the whole map, and
 * the update pays for the copy of the old table on top of its frames). */
#define MAX_CHANGED 1024
#define FULL_FRACTION 2

/* Two boxes whose frames overlap are handled as one (their union): less work than two frames. */
static bool near(rect a, rect b)
{
    const int32_t g = 2 * FRAME_MARGIN;
    return a.x0 <= b.x1 + g && b.x0 <= a.x1 + g && a.y0 <= b.y1 + g && b.y0 <= a.y1 + g;
}

static rect hull(rect a, rect b)
{
    return (rect){min_i32(a.x0, b.x0), min_i32(a.y0, b.y0), max_i32(a.x1, b.x1), max_i32(a.y1, b.y1)};
}

/* The changed cells as disjoint groups of boxes (padded coordinates) whose frames do not overlap: into
 * box (n entries), returns how many. */
static size_t group_boxes(const ap_cell_pos *changed, size_t n, rect *box)
{
    size_t nb = 0;
    for (size_t i = 0; i < n; i++) {
        rect r = {changed[i].x + 1, changed[i].y + 1, changed[i].x + 2, changed[i].y + 2};
        for (size_t j = 0; j < nb;)
            if (near(box[j], r)) {
                r = hull(box[j], r);
                box[j] = box[--nb];
                j = 0;
            } else {
                j++;
            }
        box[nb++] = r;
    }
    return nb;
}

/* The "clearance:<capability>" update: prev's table copied, then the disc and diagonal values recomputed
 * (window_pass) around each group of changed cells, and the true clearance where it may change
 * (square_update, over the hull of all groups: it reads right and lower neighbours, so one sweep serves
 * them all). Exact by the windows at the top of this file. */
static int update_clearance(const ap_map *m, const ap_map *prev, const ap_map_table *old,
                            const ap_cell_pos *changed, size_t n, ap_map_table *out)
{
    (void)prev;
    const ap_clearance_table *o = old->data;
    const uint32_t N = ap_map_node_count(m);
    if (n > MAX_CHANGED || o->cells != N) {
        out->incremental = false;
        return build_clearance(m, out);
    }
    rect *box = malloc((n > 0 ? n : 1) * sizeof *box);
    if (box == NULL)
        return AP_E_NOMEM;
    const size_t nb = group_boxes(changed, n, box);
    const rect all = {0, 0, m->stride, m->height + 2}, cells = {1, 1, m->width + 1, m->height + 1};
    size_t work = 0;
    for (size_t i = 0; i < nb; i++)
        work += area(grow(box[i], FRAME_MARGIN, all));
    if (work > N / FULL_FRACTION) {
        free(box);
        out->incremental = false;
        return build_clearance(m, out);
    }
    const size_t bytes = ap_clearance_bytes(N);
    ap_clearance_table *t = malloc(bytes);
    uint16_t *qtab = quantise_table();
    int st = AP_E_NOMEM;
    if (t != NULL && qtab != NULL) {
        memcpy(t, o, bytes);
        set_arrays(t);
        st = AP_OK;
        rect h = nb > 0 ? box[0] : cells;
        for (size_t i = 0; i < nb && st == AP_OK; i++) {
            st = window_pass(m, out->capability, qtab, box[i], false, t);
            h = hull(h, box[i]);
        }
        if (st == AP_OK && nb > 0)
            square_update(m, out->capability, h, t->square);
    }
    free(box);
    free(qtab);
    if (st != AP_OK) {
        free(t);
        return st;
    }
    out->name = slot_names[out->capability];
    out->data = t;
    out->bytes = bytes;
    return AP_OK;
}

const ap_table_kind ap_clearance_table_kind = {"clearance:<capability>", NULL,
                                               AP_TABLE_OPTIONAL | AP_TABLE_PER_CAPABILITY, build_clearance,
                                               ap_clearance_free, update_clearance, NULL};

const ap_clearance_table *ap_clearance_of(const ap_map *m, ap_capability c)
{
    if (c == 0 || c > AP_CAP_ALL)
        return NULL;
    const ap_map_table *t = ap_map_find_table(m, slot_names[c]);
    return t != NULL ? t->data : NULL;
}

double ap_clearance_reach(const ap_map *m, const ap_clearance_table *t, double x, double y, double r)
{
    /* Written so that NaN fails every comparison and lands in "nothing proven". */
    if (!(x >= 0.0 && y >= 0.0 && x < (double)m->width && y < (double)m->height && r >= 0.0 && r < INFINITY))
        return -1.0;
    const int32_t i = (int32_t)x, j = (int32_t)y;
    const double q = (double)t->disc[ap_map_index(m, i, j)] / (double)AP_CLEARANCE_SCALE;
    const double dx = x - ((double)i + 0.5), dy = y - ((double)j + 0.5);
    /* sqrt of the squares, not hypot (libm's is several times slower): within 2 ulp of |p - c| <= 0.71, far
     * inside the margin */
    return q - sqrt(dx * dx + dy * dy) - r - AP_CLEARANCE_SWEEP_MARGIN;
}

bool ap_clearance_proves_segment(const ap_map *m, const ap_clearance_table *t, const ap_segment *s, double r)
{
    const double R = s->type == AP_SEG_ARC ? s->radius : 0.0, slack = AP_CLEARANCE_ARC_SLACK * R;
    if (!(s->length >= 0.0 && s->length < INFINITY && R >= 0.0 && R < INFINITY))
        return false;
    double d = 0.0; /* the piece starts here, along s */
    for (int k = 0; k < AP_CLEARANCE_TRACE_PIECES; k++) {
        /* the first piece starts at the stored start point (no sin and cos) */
        const ap_pose p = d > 0.0 ? ap_segment_pose(s, d) : (ap_pose){s->x0, s->y0, s->heading};
        const double reach = ap_clearance_reach(m, t, p.x, p.y, r);
        /* the piece may run up to L with L + slack < reach; keep 1e-9 of it for rounding in d */
        const double L = reach - slack - 1e-9;
        if (!(L >= 1.0 / 16.0))
            return false;
        if (d + L > s->length)
            return true; /* the rest of s, shorter than L, is this piece */
        d += L;
    }
    return false;
}
