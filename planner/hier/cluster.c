/* cluster.c — a cluster's moves per class and Dijkstra inside it (cluster.h). */
#include "cluster.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define C AP_HIER_CLUSTER
#define N AP_HIER_LOCAL_N
#define NONE UINT16_MAX

const int ap_hier_dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
const int ap_hier_dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};

/* ap_clearance_allows(q, r) is q > ap_clearance_level(r): per class its radius's level (1, 2 and 4 tiles: the
 * levels of 1/sqrt 2, sqrt 2.5 and sqrt 14.5 tiles, the largest values at or below them; tests/planner/hier
 * checks these against ap_clearance_allows for every level). */
const uint8_t ap_hier_class_threshold[AP_HIER_CLASSES] = {0, 2, 5, 13};
#define class_q ap_hier_class_threshold

/* A row's first w cells as bits: bit x set when row[x] != 0 (passable cells) or when a level is above q (a
 * class's threshold): the cells' (row_above), the downward diagonal moves' (row_se, row_sw: clearance.h,
 * the smaller end's level less the stored difference). */
static inline uint32_t row_nonzero(const uint8_t *row, int32_t w)
{
    uint32_t b = 0;
    for (int32_t x = 0; x < w; x++)
        b |= (uint32_t)(row[x] != 0) << x;
    return b;
}

static inline uint32_t row_above(const uint8_t *row, uint8_t q, int32_t w)
{
    uint32_t b = 0;
    for (int32_t x = 0; x < w; x++)
        b |= (uint32_t)(row[x] > q) << x;
    return b;
}

static inline uint32_t row_se(const ap_clearance_table *t, uint32_t a, uint8_t q, int32_t w)
{
    uint32_t b = 0;
    for (int32_t x = 0; x < w; x++)
        b |= (uint32_t)(ap_clearance_diag_se(t, a + (uint32_t)x) > q) << x;
    return b;
}

static inline uint32_t row_sw(const ap_clearance_table *t, uint32_t a, uint8_t q, int32_t w)
{
    uint32_t b = 0;
    for (int32_t x = 0; x < w; x++)
        b |= (uint32_t)(ap_clearance_diag_sw(t, a + (uint32_t)x) > q) << x;
    return b;
}

/* The same for a full row of a cluster (16 cells). Only for rows of 16 cells: the 16 values read then lie in
 * the map's padded rows (a narrower cluster at the map's right edge could read past the arrays' end: those
 * take the loops above). With SSE2 one compare per 16 values (levels fit int8: AP_CLEARANCE_LEVELS <= 128):
 * the cluster's set-up was ~20 % of a graph build and ~11 % of a query (callgrind, BENCHMARKS.md
 * "Hierarchical (HAA*)", eleventh session). */
#if defined(__SSE2__)
static inline __m128i load16(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

static inline uint32_t row_nonzero16(const uint8_t *row)
{
    return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(load16(row), _mm_setzero_si128())) ^ 0xffffu;
}

static inline uint32_t row_above16(const uint8_t *row, uint8_t q)
{
    return (uint32_t)_mm_movemask_epi8(_mm_cmpgt_epi8(load16(row), _mm_set1_epi8((char)q)));
}

/* the diagonal moves of 16 cells at a to (x + dx, y + 1), whose stored differences are bits sh of diag */
static inline uint32_t row_diag16(const ap_clearance_table *t, uint32_t a, int dx, int sh, uint8_t q)
{
    const __m128i ends = _mm_min_epu8(load16(t->disc + a), load16(t->disc + a + (uint32_t)(t->stride + dx)));
    const __m128i below = _mm_and_si128(_mm_srli_epi16(load16(t->diag + a), sh), _mm_set1_epi8(15));
    return (uint32_t)_mm_movemask_epi8(_mm_cmpgt_epi8(_mm_sub_epi8(ends, below), _mm_set1_epi8((char)q)));
}

static inline uint32_t row_se16(const ap_clearance_table *t, uint32_t a, uint8_t q)
{
    return row_diag16(t, a, 1, 0, q);
}

static inline uint32_t row_sw16(const ap_clearance_table *t, uint32_t a, uint8_t q)
{
    return row_diag16(t, a, -1, 4, q);
}
#else
static inline uint32_t row_nonzero16(const uint8_t *row)
{
    return row_nonzero(row, C);
}

static inline uint32_t row_above16(const uint8_t *row, uint8_t q)
{
    return row_above(row, q, C);
}

static inline uint32_t row_se16(const ap_clearance_table *t, uint32_t a, uint8_t q)
{
    return row_se(t, a, q, C);
}

static inline uint32_t row_sw16(const ap_clearance_table *t, uint32_t a, uint8_t q)
{
    return row_sw(t, a, q, C);
}
#endif

/* spread[b]: byte j is bit j of b (a row's 8 cells' bits to one byte per cell), a table of the 256 bytes:
 * the bit tricks it replaces were ~60 % of ap_hier_cluster_init after the SSE2 compares. */
#define SP(b)                                                                                                 \
    ((uint64_t)((b)&1u) | (uint64_t)((b) >> 1 & 1u) << 8 | (uint64_t)((b) >> 2 & 1u) << 16 |                 \
     (uint64_t)((b) >> 3 & 1u) << 24 | (uint64_t)((b) >> 4 & 1u) << 32 | (uint64_t)((b) >> 5 & 1u) << 40 |    \
     (uint64_t)((b) >> 6 & 1u) << 48 | (uint64_t)((b) >> 7 & 1u) << 56)
#define SP4(b) SP(b), SP((b) + 1u), SP((b) + 2u), SP((b) + 3u)
#define SP16(b) SP4(b), SP4((b) + 4u), SP4((b) + 8u), SP4((b) + 12u)
#define SP64(b) SP16(b), SP16((b) + 16u), SP16((b) + 32u), SP16((b) + 48u)
static const uint64_t spread[256] = {SP64(0u), SP64(64u), SP64(128u), SP64(192u)};
#undef SP
#undef SP4
#undef SP16
#undef SP64

void ap_hier_cluster_init(ap_hier_cluster *c, const ap_map *m, const ap_clearance_table *t, int32_t x0, int32_t y0,
                          int only)
{
    const bool all = only < 0;
    if (only == 0)
        t = NULL; /* the point unit reads no clearance */
    c->m = m;
    c->x0 = x0;
    c->y0 = y0;
    c->w = m->width - x0 < C ? m->width - x0 : C;
    c->h = m->height - y0 < C ? m->height - y0 : C;
    if (all)
        memset(c->open, 0, sizeof c->open);
    /* Row bit masks (bit x = cell x of the row; rows -1 and h are empty, so no move leaves the cluster):
     * passable cells, and per class k > 0 the cells whose disc clearance and whose downward diagonal moves
     * (clearance.h) let class k through. A move that stays in the cluster has its corner cells there too,
     * so these decide ap_hier_move_ok and its level exactly: an orthogonal move needs both cells (its q is
     * the smaller cell's), a diagonal one the 2 x 2 block passable (no corner cutting) and its stored q,
     * an upward diagonal being the downward one back from the cell it reaches. */
    uint16_t pass[C + 2] = {0}, lc[AP_HIER_CLASSES][C + 2] = {{0}}, lse[AP_HIER_CLASSES][C + 2] = {{0}},
             lsw[AP_HIER_CLASSES][C + 2] = {{0}};
    const int k0 = all || only == 0 ? 1 : only, k1 = t == NULL ? 0 : all ? AP_HIER_CLASSES - 1 : only;
    for (int32_t y = 0; y < c->h; y++) {
        const uint32_t a = ap_map_index(m, x0, y0 + y);
        const uint8_t *pp = m->pass + a;
        const bool full = c->w == C;
        const uint32_t p = full ? row_nonzero16(pp) : row_nonzero(pp, c->w);
        pass[y + 1] = (uint16_t)p;
        lc[0][y + 1] = (uint16_t)p;
        lse[0][y + 1] = lsw[0][y + 1] = 0xffffu;
        for (int k = k0; k <= k1; k++) {
            const uint8_t q = class_q[k];
            const uint32_t l = full ? row_above16(t->disc + a, q) : row_above(t->disc + a, q, c->w),
                           se = full ? row_se16(t, a, q) : row_se(t, a, q, c->w),
                           sw = full ? row_sw16(t, a, q) : row_sw(t, a, q, c->w);
            lc[k][y + 1] = (uint16_t)(l & p);
            lse[k][y + 1] = (uint16_t)se;
            lsw[k][y + 1] = (uint16_t)sw;
        }
    }
    for (int k = all ? 0 : only; k <= (all ? AP_HIER_CLASSES - 1 : only); k++) {
        if (k > 0 && t == NULL) {
            memset(c->moves[k], 0, sizeof c->moves[k]);
            continue;
        }
        for (int32_t y = 0; y < C; y++) {
            const uint32_t r = y + 1u, pa = pass[r - 1], pc = pass[r], pb = pass[r + 1];
            const uint32_t A = lc[k][r], An = lc[k][r - 1], As = lc[k][r + 1];
            const uint32_t dn = pc & pc >> 1 & pb & pb >> 1, dw = pc & pc << 1 & pb & pb << 1; /* 2 x 2 blocks */
            const uint32_t un = pc & pc >> 1 & pa & pa >> 1, uw = pc & pc << 1 & pa & pa << 1;
            /* per direction i of ap_hier_dx / ap_hier_dy: the cells of the row whose move i is legal */
            const uint32_t dir[8] = {A & A >> 1,    A & A << 1,                A & As,         A & An,
                                     dn & lse[k][r], un & lsw[k][r - 1] >> 1, dw & lsw[k][r], uw & lse[k][r - 1] << 1};
            uint64_t lo = 0, hi = 0;
            for (int i = 0; i < 8; i++) {
                lo |= spread[dir[i] & 0xffu] << i;
                hi |= spread[dir[i] >> 8 & 0xffu] << i;
            }
            memcpy(&c->moves[k][y * C], &lo, sizeof lo);
            memcpy(&c->moves[k][y * C + 8], &hi, sizeof hi);
            if (all) {
                c->open[k][0][y] = (uint16_t)A;
                c->open[k][1][y] = (uint16_t)(lse[k][r] & pc);
                c->open[k][2][y] = (uint16_t)(lsw[k][r] & pc);
            }
        }
    }
}

/* The octile path from a to b, diagonal moves first or straight ones first, through c->moves[cls]: nd
 * diagonal steps of move index md and ns straight ones of index ms (ap_hier_dx / ap_hier_dy order). */
static bool octile_walk(const ap_hier_cluster *c, int cls, uint32_t a, uint32_t b, bool diag_first)
{
    const int ax = (int)(a % C), ay = (int)(a / C), bx = (int)(b % C), by = (int)(b / C);
    const int sx = bx > ax ? 1 : bx < ax ? -1 : 0, sy = by > ay ? 1 : by < ay ? -1 : 0;
    const int dx = abs(bx - ax), dy = abs(by - ay), nd = dx < dy ? dx : dy, ns = (dx > dy ? dx : dy) - nd;
    const int ox = dx > dy ? sx : 0, oy = dx > dy ? 0 : sy; /* the straight steps' direction */
    const int md = sx > 0 ? (sy > 0 ? 4 : 5) : (sy > 0 ? 6 : 7);
    const int ms = oy == 0 ? (ox > 0 ? 0 : 1) : (oy > 0 ? 2 : 3);
    const uint8_t *mv = c->moves[cls];
    int v = (int)a;
    for (int part = 0; part < 2; part++) {
        const bool diag = (part == 0) == diag_first;
        const int n = diag ? nd : ns, mi = diag ? md : ms, step = diag ? sx + sy * C : ox + oy * C;
        for (int i = 0; i < n; i++, v += step)
            if (!(mv[v] >> mi & 1u))
                return false;
    }
    return true;
}

bool ap_hier_cluster_octile_path(const ap_hier_cluster *c, int cls, uint32_t a, uint32_t b)
{
    return octile_walk(c, cls, a, b, true) || octile_walk(c, cls, a, b, false);
}

bool ap_hier_cluster_box_open(const ap_hier_cluster *c, int cls, uint32_t a, uint32_t b)
{
    const uint32_t ax = a % C, ay = a / C, bx = b % C, by = b / C;
    const uint32_t x1 = ax < bx ? ax : bx, x2 = ax < bx ? bx : ax, y1 = ay < by ? ay : by, y2 = ay < by ? by : ay;
    const uint32_t cells = (uint32_t)((2u << x2) - (1u << x1));            /* bits x1 .. x2 */
    const uint32_t se = x2 > x1 ? (uint32_t)((1u << x2) - (1u << x1)) : 0; /* x1 .. x2 - 1 */
    const uint32_t sw = se << 1;                                           /* x1 + 1 .. x2 */
    const uint16_t(*o)[C] = c->open[cls];
    for (uint32_t y = y1; y <= y2; y++)
        if ((o[0][y] & cells) != cells || (y < y2 && ((o[1][y] & se) != se || (o[2][y] & sw) != sw)))
            return false;
    return true;
}

void ap_hier_octile_costs(double d[C][C])
{
    for (int x = 0; x < C; x++)
        for (int y = 0; y < C; y++) {
            double v = x == 0 && y == 0 ? 0.0 : INFINITY;
            if (x > 0 && d[x - 1][y] + 1.0 < v)
                v = d[x - 1][y] + 1.0;
            if (y > 0 && d[x][y - 1] + 1.0 < v)
                v = d[x][y - 1] + 1.0;
            if (x > 0 && y > 0 && d[x - 1][y - 1] + M_SQRT2 < v)
                v = d[x - 1][y - 1] + M_SQRT2;
            d[x][y] = v;
        }
}

/* The open cells. Weighted maps: an indexed binary heap ordered by dist. Uniform maps (every move costs 1
 * or sqrt 2): Dial's buckets of width 1 (bucket floor(dist)) in a ring of 4: every cell of the lowest
 * bucket is final, since a move adds at least 1 (a neighbour u in bucket b gives at least
 * b + 1 > dist(v), rounding being monotone and b + 1 exact), and open costs span less than 1 + sqrt 2 above
 * the lowest bucket's floor; cells leave a bucket in any order. Exact either way: see cluster.h. */
typedef struct open {
    uint16_t pos[N]; /* per local cell: its index in cell (heap) or in its bucket, NONE when not open */
    uint32_t n;      /* open cells */
    uint16_t cell[N];        /* heap */
    uint16_t bucket[4][N];   /* buckets: bucket b's cells in bucket[b % 4] */
    uint16_t blen[4];
    uint32_t cur;            /* the lowest bucket that may hold cells */
} open;

static void heap_up(open *q, const double *dist, uint32_t k)
{
    const uint16_t v = q->cell[k];
    const double d = dist[v];
    while (k > 0) {
        const uint32_t p = (k - 1) / 2;
        if (!(d < dist[q->cell[p]]))
            break;
        q->cell[k] = q->cell[p];
        q->pos[q->cell[k]] = (uint16_t)k;
        k = p;
    }
    q->cell[k] = v;
    q->pos[v] = (uint16_t)k;
}

static uint16_t heap_pop(open *q, const double *dist)
{
    const uint16_t top = q->cell[0], v = q->cell[--q->n];
    q->pos[top] = NONE;
    if (q->n == 0)
        return top;
    const double d = dist[v];
    uint32_t k = 0;
    for (;;) {
        uint32_t c = 2 * k + 1;
        if (c >= q->n)
            break;
        if (c + 1 < q->n && dist[q->cell[c + 1]] < dist[q->cell[c]])
            c++;
        if (!(dist[q->cell[c]] < d))
            break;
        q->cell[k] = q->cell[c];
        q->pos[q->cell[k]] = (uint16_t)k;
        k = c;
    }
    q->cell[k] = v;
    q->pos[v] = (uint16_t)k;
    return top;
}

static inline void bucket_add(open *q, uint16_t v, double d)
{
    const uint32_t b = (uint32_t)d & 3u;
    q->pos[v] = q->blen[b];
    q->bucket[b][q->blen[b]++] = v;
}

/* v (open, cost old) now costs d: into its new bucket. */
static inline void bucket_lower(open *q, uint16_t v, double old, double d)
{
    const uint32_t b = (uint32_t)old & 3u;
    if (b == ((uint32_t)d & 3u))
        return;
    const uint16_t last = q->bucket[b][--q->blen[b]];
    q->bucket[b][q->pos[v]] = last;
    q->pos[last] = q->pos[v];
    bucket_add(q, v, d);
}

static inline void bucket_push(open *q, uint16_t v, double d)
{
    q->n++;
    bucket_add(q, v, d);
}

static inline uint16_t bucket_pop(open *q)
{
    while (q->blen[q->cur & 3u] == 0)
        q->cur++;
    const uint16_t v = q->bucket[q->cur & 3u][--q->blen[q->cur & 3u]];
    q->pos[v] = NONE;
    q->n--;
    return v;
}

/* q empty (either kind). */
static inline void open_init(open *q)
{
    q->n = 0;
    q->cur = 0;
    memset(q->blen, 0, sizeof q->blen);
    memset(q->pos, 0xff, sizeof q->pos);
}

/* The highest class the move i from local cell u (legal for class 0) is legal for: the classes are
 * nested, so the count of classes above 0 whose moves have it. */
static inline uint8_t top(const ap_hier_cluster *c, uint32_t u, int i)
{
    uint8_t n = 0;
    for (int k = 1; k < AP_HIER_CLASSES; k++)
        n += (uint8_t)(c->moves[k][u] >> i & 1u);
    return n;
}

/* shut[b]: the moves (bit i = move (ap_hier_dx[i], ap_hier_dy[i])) into closed cells, b holding the closed
 * bits of the cells (x - 1, x, x + 1) in the row above (bits 0-2), the cell's own row (bits 3-5) and the row
 * below (bits 6-8). A move into a closed cell v cannot lower dist[v] nor tie it (dist[v] <= dist[u] < dist[u]
 * + cost, every cost being >= 1), so skipping it is exact, reach included; each edge is otherwise relaxed from
 * both ends, so this halves the relaxations of a search that settles the whole cluster. */
#define SH(b)                                                                                                 \
    (((b) >> 5 & 1u) | ((b) >> 3 & 1u) << 1 | ((b) >> 7 & 1u) << 2 | ((b) >> 1 & 1u) << 3 |                  \
     ((b) >> 8 & 1u) << 4 | ((b) >> 2 & 1u) << 5 | ((b) >> 6 & 1u) << 6 | ((b)&1u) << 7)
#define SH4(b) SH(b), SH((b) + 1u), SH((b) + 2u), SH((b) + 3u)
#define SH16(b) SH4(b), SH4((b) + 4u), SH4((b) + 8u), SH4((b) + 12u)
#define SH64(b) SH16(b), SH16((b) + 16u), SH16((b) + 32u), SH16((b) + 48u)
static const uint8_t shut[512] = {SH64(0u),   SH64(64u),  SH64(128u), SH64(192u),
                                  SH64(256u), SH64(320u), SH64(384u), SH64(448u)};
#undef SH
#undef SH4
#undef SH16
#undef SH64

/* The search (ap_hier_cluster_dijkstra) on weighted maps: terrain costs per move (ap_map_move_cost), a heap,
 * the moves into settled cells skipped (shut). */
static void dijkstra_weighted(const ap_hier_cluster *c, int cls, uint32_t src, const uint8_t *want, int n_want,
                              double *dist, uint8_t *reach)
{
    static const double len[8] = {1.0, 1.0, 1.0, 1.0, M_SQRT2, M_SQRT2, M_SQRT2, M_SQRT2};
    static const int off[8] = {1, -1, C, -C, C + 1, -C + 1, C - 1, -C - 1}; /* ap_hier_dx + C ap_hier_dy */
    const ap_map *m = c->m;
    const uint8_t *moves = c->moves[cls];
    const uint32_t base = ap_map_index(m, c->x0, c->y0), stride = (uint32_t)m->stride;
    open q;
    open_init(&q);
    /* closed[y + 1]: bit x + 1 set when local cell (x, y) is settled; rows 0 and C + 1 stay empty */
    uint32_t closed[C + 2] = {0};
    for (int v = 0; v < N; v++)
        dist[v] = INFINITY;
    dist[src] = 0.0;
    if (reach != NULL)
        reach[src] = AP_HIER_CLASSES - 1;
    q.cell[q.n] = (uint16_t)src;
    heap_up(&q, dist, q.n++);
    int left = want != NULL ? n_want : 0;
    while (q.n > 0) {
        const uint16_t u = heap_pop(&q, dist);
        if (left > 0 && want[u] && --left == 0)
            return;
        const double du = dist[u];
        const uint32_t ux = u % C, uy = u / C, pu = base + uy * stride + ux;
        closed[uy + 1] |= 2u << ux;
        const unsigned into_closed =
            shut[(closed[uy] >> ux & 7u) | (closed[uy + 1] >> ux & 7u) << 3 | (closed[uy + 2] >> ux & 7u) << 6];
        for (unsigned mk = moves[u] & ~into_closed; mk != 0; mk &= mk - 1) {
            const int i = __builtin_ctz(mk);
            const uint16_t v = (uint16_t)((int32_t)u + off[i]);
            const double nd =
                du + ap_map_move_cost(m, pu, (uint32_t)((int64_t)pu + ap_hier_dx[i] + (int64_t)ap_hier_dy[i] * stride),
                                      len[i]);
            const double old = dist[v];
            if (!(nd < old)) {
                if (reach != NULL && nd == old) { /* another cheapest way in: keep the higher reach */
                    const uint8_t r = reach[u] < top(c, u, i) ? reach[u] : top(c, u, i);
                    if (r > reach[v])
                        reach[v] = r;
                }
                continue;
            }
            dist[v] = nd;
            if (reach != NULL)
                reach[v] = reach[u] < top(c, u, i) ? reach[u] : top(c, u, i);
            if (q.pos[v] == NONE) {
                q.cell[q.n] = v;
                heap_up(&q, dist, q.n++);
            } else {
                heap_up(&q, dist, q.pos[v]);
            }
        }
    }
}

/* Uniform maps (every move 1 or sqrt 2): the same search with the costs in a padded copy, pd[P(v)] (a ring of
 * cells around the cluster, so every neighbour of a cell has an address), and each popped cell's 8 moves
 * compared at once, without branches, against the two sums du + 1 and du + sqrt 2: the moves that lower a
 * cost (and, for reach, those that tie it) come out as bit masks, and only those are followed. Exact: the
 * moves of one pop reach distinct cells, so testing them all before updating any is the same as one by one;
 * the sums are the doubles a move-by-move loop adds; a settled cell is never lowered nor tied (see shut). About
 * 1 in 5 compared moves lowers a cost, so this spares the loop's unpredictable branches. */
#define PS (C + 2)                                   /* the padded rows' stride */
#define P(v) (((v) / C + 1u) * PS + (v) % C + 1u)    /* local cell v's index in the padded copy */
_Static_assert(C == 16, "pad_of and all_inf are written out for clusters of 16 x 16 cells");
/* pad_of[v] = P(v): a load instead of the arithmetic, once a pop. */
#define PR(r) P((r)*C + 0u), P((r)*C + 1u), P((r)*C + 2u), P((r)*C + 3u), P((r)*C + 4u), P((r)*C + 5u),        \
    P((r)*C + 6u), P((r)*C + 7u), P((r)*C + 8u), P((r)*C + 9u), P((r)*C + 10u), P((r)*C + 11u), P((r)*C + 12u), \
    P((r)*C + 13u), P((r)*C + 14u), P((r)*C + 15u)
static const uint16_t pad_of[N] = {PR(0u),  PR(1u),  PR(2u),  PR(3u),  PR(4u),  PR(5u),  PR(6u),  PR(7u),
                                   PR(8u),  PR(9u),  PR(10u), PR(11u), PR(12u), PR(13u), PR(14u), PR(15u)};
#undef PR
/* Every padded cost at the search's start (copied in whole: cheaper than a loop of stores). */
#define INF4 INFINITY, INFINITY, INFINITY, INFINITY
#define INF36 INF4, INF4, INF4, INF4, INF4, INF4, INF4, INF4, INF4
static const double all_inf[PS * PS] = {INF36, INF36, INF36, INF36, INF36, INF36, INF36, INF36, INF36};
#undef INF4
#undef INF36
static inline __attribute__((always_inline)) void dijkstra_uniform(const ap_hier_cluster *c, int cls, uint32_t src,
                                                                  const uint8_t *want, int n_want, double *dist,
                                                                  uint8_t *reach)
{
    static const int off[8] = {1, -1, C, -C, C + 1, -C + 1, C - 1, -C - 1}; /* ap_hier_dx + C ap_hier_dy */
    static const int poff[8] = {1, -1, PS, -PS, PS + 1, -PS + 1, PS - 1, -PS - 1};
    const uint8_t *moves = c->moves[cls];
    double pd[PS * PS];
    memcpy(pd, all_inf, sizeof pd);
    open q;
    open_init(&q);
    pd[P(src)] = 0.0;
    if (reach != NULL)
        reach[src] = AP_HIER_CLASSES - 1;
    bucket_push(&q, (uint16_t)src, 0.0);
    int left = want != NULL ? n_want : 0;
    while (q.n > 0) {
        const uint16_t u = bucket_pop(&q);
        if (left > 0 && want[u] && --left == 0)
            break;
        const uint32_t pu = pad_of[u];
        const double *a = pd + pu, d1 = a[0] + 1.0, d2 = a[0] + M_SQRT2;
        const unsigned lower = (unsigned)(d1 < a[1]) | (unsigned)(d1 < a[-1]) << 1 | (unsigned)(d1 < a[PS]) << 2 |
                               (unsigned)(d1 < a[-PS]) << 3 | (unsigned)(d2 < a[PS + 1]) << 4 |
                               (unsigned)(d2 < a[-PS + 1]) << 5 | (unsigned)(d2 < a[PS - 1]) << 6 |
                               (unsigned)(d2 < a[-PS - 1]) << 7;
        if (reach != NULL) { /* another cheapest way in: keep the higher reach */
            const unsigned tie = (unsigned)(d1 == a[1]) | (unsigned)(d1 == a[-1]) << 1 | (unsigned)(d1 == a[PS]) << 2 |
                                 (unsigned)(d1 == a[-PS]) << 3 | (unsigned)(d2 == a[PS + 1]) << 4 |
                                 (unsigned)(d2 == a[-PS + 1]) << 5 | (unsigned)(d2 == a[PS - 1]) << 6 |
                                 (unsigned)(d2 == a[-PS - 1]) << 7;
            for (unsigned mk = moves[u] & tie; mk != 0; mk &= mk - 1) {
                const int i = __builtin_ctz(mk);
                const uint16_t v = (uint16_t)((int32_t)u + off[i]);
                const uint8_t r = reach[u] < top(c, u, i) ? reach[u] : top(c, u, i);
                if (r > reach[v])
                    reach[v] = r;
            }
        }
        for (unsigned mk = moves[u] & lower; mk != 0; mk &= mk - 1) {
            const int i = __builtin_ctz(mk);
            const uint16_t v = (uint16_t)((int32_t)u + off[i]);
            const uint32_t pv = (uint32_t)((int32_t)pu + poff[i]);
            const double nd = i < 4 ? d1 : d2, old = pd[pv];
            pd[pv] = nd;
            if (reach != NULL)
                reach[v] = reach[u] < top(c, u, i) ? reach[u] : top(c, u, i);
            if (q.pos[v] == NONE)
                bucket_push(&q, v, nd);
            else
                bucket_lower(&q, v, old, nd);
        }
    }
    for (uint32_t y = 0; y < C; y++)
        memcpy(dist + y * C, pd + (y + 1) * PS + 1, C * sizeof *dist);
}
#undef P
#undef PS

void ap_hier_cluster_dijkstra(const ap_hier_cluster *c, int cls, uint32_t src, const uint8_t *want, int n_want,
                              double *dist, uint8_t *reach)
{
    if (c->m->weighted)
        dijkstra_weighted(c, cls, src, want, n_want, dist, reach);
    else if (reach != NULL)
        dijkstra_uniform(c, cls, src, want, n_want, dist, reach);
    else
        dijkstra_uniform(c, cls, src, want, n_want, dist, NULL);
}
