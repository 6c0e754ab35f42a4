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

#include <assert.h>
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

/* The levels (clearance.h): every a^2 + b^2 (a, b in {0, 1, 3, 5, ..}) and 8 n^2 below CAP4, then CAP4 itself
 * (the test file enumerates them again). */
const uint16_t ap_clearance_level_d4[AP_CLEARANCE_LEVELS] = {
    0, 1, 2, 8, 9, 10, 18, 25, 26, 32, 34, 49, 50, 58, 72, 74, 81, 82, 90, 98, 106, 121, 122, 128, 130, 146,
    162, 169, 170, 178, 194, 200, 202, 218, 225, 226, 234, 242, 250, 274, 288, 289, 290, 298, 306, 314, 338,
    346, 361, 362, 370, 386, 392, 394, 410, 441, 442, 450, 458, 466, 482, 490, 512, 514, 522, 529, 530, 538,
    554, 562, 578, 586, 610, 625, 626, 634, 648, 650, 666, 674, 698, 706, 722, 729, 730, 738, 746, 754, 778,
    794, 800, 802, 810, 818, 841, 842, 850, 866, 882, 890, 898, 914, 922, 954, 961, 962, 968, 970, 986, 1010,
    1018, 1042, 1058, 1066, 1082, 1089, 1090, 1098, 1114, 1130, 1138, 1152, 1154, 1156};

const double ap_clearance_level_tiles[AP_CLEARANCE_LEVELS] = {
    0.0, 0.5, 0.7071067811865476, 1.4142135623730951, 1.5, 1.5811388300841898, 2.1213203435596424, 2.5,
    2.5495097567963922, 2.8284271247461903, 2.9154759474226504, 3.5, 3.5355339059327378, 3.8078865529319543,
    4.242640687119285, 4.301162633521313, 4.5, 4.527692569068709, 4.743416490252569, 4.949747468305833,
    5.1478150704935, 5.5, 5.522680508593631, 5.656854249492381, 5.70087712549569, 6.041522986797286,
    6.363961030678928, 6.5, 6.519202405202649, 6.670832032063167, 6.96419413859206, 7.0710678118654755,
    7.106335201775948, 7.3824115301167, 7.5, 7.516648189186454, 7.648529270389178, 7.7781745930520225,
    7.905694150420948, 8.276472678623424, 8.48528137423857, 8.5, 8.514693182963201, 8.631338250816034,
    8.74642784226795, 8.860022573334675, 9.192388155425117, 9.300537618869138, 9.5, 9.513148795220223,
    9.617692030835672, 9.82344135219425, 9.899494936611665, 9.924716620639604, 10.124228365658293, 10.5,
    10.51189802081432, 10.606601717798213, 10.700467279516348, 10.793516572461451, 10.977249200050075,
    11.067971810589327, 11.313708498984761, 11.335784048754634, 11.423659658795863, 11.5, 11.510864433221338,
    11.597413504743201, 11.76860229593982, 11.853269591129697, 12.020815280171307, 12.103718436910205,
    12.349089035228468, 12.5, 12.509996003196804, 12.589678312014172, 12.727922061357855, 12.747548783981962,
    12.90348790056394, 12.98075498574717, 13.209844813622906, 13.285330255586423, 13.435028842544403, 13.5,
    13.509256086106296, 13.583077707206124, 13.656500283747663, 13.729530217745982, 13.946325680981353,
    14.089002803605371, 14.142135623730951, 14.159802258506296, 14.230249470757707, 14.300349646075091, 14.5,
    14.508618128546908, 14.577379737113251, 14.713938969562161, 14.849242404917497, 14.916433890176299,
    14.983324063771697, 15.116216457830975, 15.182226450688976, 15.443445211480501, 15.5, 15.508062419270823,
    15.556349186104045, 15.572411502397436, 15.700318468107582, 15.890248582070704, 15.953056133543816,
    16.140012391568973, 16.263455967290593, 16.32482771731451, 16.446884203398525, 16.5, 16.507574019219177,
    16.56804152578089, 16.688319268278637, 16.80773631397161, 16.867127793433, 16.97056274847714,
    16.98528775146303, 17.0};

_Static_assert(sizeof ap_clearance_level_d4 / sizeof ap_clearance_level_d4[0] == AP_CLEARANCE_LEVELS &&
                   AP_CLEARANCE_LEVELS <= 128,
               "levels fit 7 bits (cluster.c compares them as signed bytes)");

uint8_t ap_clearance_level(double r)
{
    const double lim = r + AP_CLEARANCE_TOUCH;
    uint32_t lo = 0, hi = AP_CLEARANCE_LEVELS; /* the answer is in [lo, hi) */
    while (hi - lo > 1) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (ap_clearance_level_tiles[mid] <= lim)
            lo = mid;
        else
            hi = mid;
    }
    return (uint8_t)lo;
}

/* level_of[d4]: the level of D4 value d4 (0 .. CAP4), the highest whose (2 v)^2 <= d4 (every D4 the passes
 * compute is a level's: see the top). */
static uint8_t *level_table(void)
{
    uint8_t *lv = malloc(CAP4 + 1);
    if (lv == NULL)
        return NULL;
    uint32_t k = 0;
    for (uint32_t d4 = 0; d4 <= CAP4; d4++) {
        while (k + 1 < AP_CLEARANCE_LEVELS && ap_clearance_level_d4[k + 1] <= d4)
            k++;
        lv[d4] = (uint8_t)k;
    }
    return lv;
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
static void disc_out(const ap_map *m, const frame *fr, const uint8_t *lv, rect o, ap_clearance_table *t)
{
    const uint32_t S = (uint32_t)m->stride;
    for (int32_t y = o.y0; y < o.y1; y++) {
        const uint16_t *d = fr->D4 + FI(fr, o.x0, y);
        uint8_t *q = t->disc + (size_t)y * S + (size_t)o.x0;
        for (int32_t x = 0; x < o.x1 - o.x0; x++)
            q[x] = lv[d[x]];
    }
}

/* The diagonal moves leaving the map cells of o downwards (o and its cells' lower neighbours inside the
 * column pass's output). A move to an off-map cell crosses a corner on the map's outline (blocked): 0. */
static void diagonal_pass(const ap_map *m, const frame *fr, const uint8_t *lv, rect o, ap_clearance_table *t)
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
            uint32_t se = 0, sw = 0;
            if (d != 0 && !last) {
                if (x < m->width) /* to (x + 1, y + 1), through corner (x, y) along X + Y */
                    se = lv[diag_d4(d, d1[i + 1], min_u32(pm[i], mp[i]))];
                if (x > 1) /* to (x - 1, y + 1), through corner (x - 1, y) along X - Y */
                    sw = lv[diag_d4(d, d1[i - 1], min_u32(pp[i - 1], mm[i - 1]))];
            }
            /* stored below the smaller end's level (written by disc_out: o's cells and their lower neighbours
             * lie in its output; 0 for border cells), by at most 10 levels (clearance.h) */
            const uint32_t dc = t->disc[p], dse = t->disc[p + S + 1], dsw = t->disc[p + S - 1];
            const uint32_t bse = (dc < dse ? dc : dse) - se, bsw = (dc < dsw ? dc : dsw) - sw;
            assert(bse <= AP_CLEARANCE_DIAG_BELOW && bsw <= AP_CLEARANCE_DIAG_BELOW);
            t->diag[p] = (uint8_t)(bse | bsw << 4);
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
    return sizeof(ap_clearance_table) + (size_t)cells * 3;
}

/* Point t's arrays into its own block (after the header). */
static void set_arrays(ap_clearance_table *t)
{
    const uint32_t N = t->cells;
    t->disc = (uint8_t *)(t + 1);
    t->diag = t->disc + N;
    t->square = t->diag + N;
}

/* Disc and diagonal values of t for the changed cells' box b (padded; the whole map's cells for a full
 * build, which also sets the true clearance: `square`), on a frame of b grown by FRAME_MARGIN (see the top
 * for why that and the output boxes are exact). */
static int window_pass(const ap_map *m, ap_capability c, const uint8_t *lv, rect b, bool square,
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
    disc_out(m, &fr, lv, o4, t);
    corner_pass(&fr);
    diagonal_pass(m, &fr, lv, grow(b, AP_CLEARANCE_REACH, cells), t);
    if (square)
        square_pass(m, &fr, grow(b, 0, cells), t->square);
    free(fr.buf);
    return AP_OK;
}

int ap_clearance_build(const ap_map *m, ap_capability c, ap_clearance_table **out)
{
    const uint32_t N = ap_map_node_count(m);
    ap_clearance_table *t = calloc(1, ap_clearance_bytes(N));
    uint8_t *lv = level_table();
    const rect cells = {1, 1, m->width + 1, m->height + 1};
    int st = AP_E_NOMEM;
    if (t == NULL || lv == NULL)
        goto done;
    t->capability = c;
    t->stride = m->stride;
    t->cells = N;
    set_arrays(t);
    st = window_pass(m, c, lv, cells, true, t);
    if (st == AP_OK) {
        *out = t;
        t = NULL;
    }
done:
    free(t);
    free(lv);
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
    uint8_t *lv = level_table();
    int st = AP_E_NOMEM;
    if (t != NULL && lv != NULL) {
        memcpy(t, o, bytes);
        set_arrays(t);
        st = AP_OK;
        rect h = nb > 0 ? box[0] : cells;
        for (size_t i = 0; i < nb && st == AP_OK; i++) {
            st = window_pass(m, out->capability, lv, box[i], false, t);
            h = hull(h, box[i]);
        }
        if (st == AP_OK && nb > 0)
            square_update(m, out->capability, h, t->square);
    }
    free(box);
    free(lv);
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
                                               ap_clearance_free, update_clearance, NULL, NULL, NULL};

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
    const double q = ap_clearance_level_tiles[t->disc[ap_map_index(m, i, j)]];
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
