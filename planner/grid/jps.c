/* jps.c — Jump Point Search (online) and JPS+ (jump-distance tables) as domains of the A* core.
 *
 * Sources: Harabor & Grastien, AAAI 2011, sections 3-4 (pruning rules, forced neighbours, jumping);
 * Harabor & Grastien, ICAPS 2014, section 3 (no corner cutting) and 5 (JPS+ precomputation); Rabin, Game AI
 * Pro 2 ch. 14 (signed distances, diagonal "target" jump points). Written from the papers' ideas.
 *
 * Directions are numbered N, NE, E, SE, S, SW, W, NW (0..7): even = straight, odd = diagonal. The padded
 * map border is blocked, so no step ever needs a bounds test.
 */
#include "jps.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "jps_impl.h"
#include "../base/status.h"
#include "../base/mem.h"
#include "../search/open_bucket.h"

/* ---- JPS+ table ---------------------------------------------------------------------------------------- */

/* The jump distance of padded cell c in direction d (ap_jps_table), from the passability p (stride S) and
 * the distances D of the next cell n = c + step(d): 0 when c is blocked or the step is illegal (a wall, a
 * cut corner); straight: 1 when n has a forced neighbour, else one more than n's; diagonal: 1 when a
 * straight jump from n along either component finds a point (n's distance there is > 0), else one more
 * than n's. Reads p at c, n and the cells beside them (straight: n +- side and c +- side; diagonal: the
 * two orthogonal neighbours of c towards n) and D at n only: what the update's seeds follow (jps_plus_walk).
 * A blocked c reads nothing else, so c may be on the padded border. */
static inline int16_t jump_value(const uint8_t *p, const int16_t *D, int32_t S, uint32_t c, int d)
{
    if (!p[c])
        return 0;
    const int32_t h = DX[d], vv = DY[d] * S;
    const uint32_t n = c + (uint32_t)(h + vv);
    if (!(d & 1)) {
        if (!p[n])
            return 0;
        if (forced_straight(p, n, h + vv, DY[d] + DX[d] * S))
            return 1;
        return ap_jps_extend(D[(size_t)n * 8 + (size_t)d]);
    }
    if (!(p[c + (uint32_t)h] && p[c + (uint32_t)vv] && p[n]))
        return 0; /* no corner cutting */
    const int dh = dir_of(DX[d], 0), dv = dir_of(0, DY[d]);
    if (D[(size_t)n * 8 + (size_t)dh] > 0 || D[(size_t)n * 8 + (size_t)dv] > 0)
        return 1;
    return ap_jps_extend(D[(size_t)n * 8 + (size_t)d]);
}

/* jump_value as ap_jps_sweep's value function (ctx: the passability). */
static int16_t point_value(const void *ctx, const int16_t *D, int32_t S, uint32_t c, int d)
{
    return jump_value(ctx, D, S, c, d);
}

/* The forced-neighbour byte of padded cell c (ap_jps_table.forced): 0 when blocked, else per straight
 * arrival direction the two side bits (the tests of pruned_dirs, done once). Reads the 3x3 block at c. */
static inline uint8_t forced_byte(const uint8_t *p, int32_t S, uint32_t c)
{
    if (!p[c])
        return 0;
    unsigned f = 0;
    for (int d = 0; d < 8; d += 2) {
        const int32_t o = DX[d] + DY[d] * S, s = -DY[d] + DX[d] * S;
        if (p[c + (uint32_t)s] && !p[c - (uint32_t)o + (uint32_t)s])
            f |= 1u << d;
        if (p[c - (uint32_t)s] && !p[c - (uint32_t)o - (uint32_t)s])
            f |= 1u << (d + 1);
    }
    return (uint8_t)f;
}

/* The one-byte copy pays where nearly every distance fits (random512-40-0, 8room_000: all of them); on maps
 * of long open runs each escape costs a second row read (Aftershock, 4% of the non-zero distances: slower
 * than int16 alone), so beyond 1% the copy is dropped and the search reads dist. */
int ap_jps_settle_dist8(ap_jps_table *t)
{
    if (t->far * 100 > t->nonzero) {
        free(t->dist8);
        t->dist8 = NULL;
        return AP_OK;
    }
    if (t->dist8 != NULL)
        return AP_OK;
    t->dist8 = malloc((size_t)t->cells * 8);
    if (t->dist8 == NULL)
        return AP_E_NOMEM;
    for (size_t i = 0; i < (size_t)t->cells * 8; i++)
        t->dist8[i] = ap_jps_fits8(t->dist[i]) ? (int8_t)t->dist[i] : (int8_t)AP_JPS_FAR8;
    return AP_OK;
}

/* A table of `cells` padded cells: arrays copied from src, or dist and forced zeroed without it (dist8 is
 * copied when src has one, else left NULL). NULL when out of memory. */
static ap_jps_table *table_alloc(uint32_t cells, const ap_jps_table *src)
{
    ap_jps_table *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->cells = cells;
    t->dist = src != NULL ? malloc((size_t)cells * 8 * sizeof *t->dist) : calloc((size_t)cells * 8, sizeof *t->dist);
    t->forced = src != NULL ? malloc(cells) : calloc(cells, 1);
    t->dist8 = src != NULL && src->dist8 != NULL ? malloc((size_t)cells * 8) : NULL;
    if (t->dist == NULL || t->forced == NULL || (src != NULL && src->dist8 != NULL && t->dist8 == NULL)) {
        ap_jps_table_free(t);
        return NULL;
    }
    if (src != NULL) {
        memcpy(t->dist, src->dist, (size_t)cells * 8 * sizeof *t->dist);
        memcpy(t->forced, src->forced, cells);
        if (src->dist8 != NULL)
            memcpy(t->dist8, src->dist8, (size_t)cells * 8);
        t->nonzero = src->nonzero;
        t->far = src->far;
    }
    return t;
}

int ap_jps_table_build(const ap_map *m, ap_jps_table **out)
{
    *out = NULL;
    if (m->width > 32000 || m->height > 32000)
        return AP_E_MAP_TOO_LARGE;
    const uint32_t cells = ap_map_node_count(m);
    ap_jps_table *t = table_alloc(cells, NULL);
    if (t == NULL)
        return AP_E_NOMEM;
    const uint8_t *p = m->pass;
    const int32_t S = m->stride, W = m->width, H = m->height;
    ap_jps_sweep(m, t, point_value, p);
    if (ap_jps_settle_dist8(t) != AP_OK) {
        ap_jps_table_free(t);
        return AP_E_NOMEM;
    }
    for (int y = 1; y <= H; y++)
        for (int x = 1; x <= W; x++)
            t->forced[y * S + x] = forced_byte(p, S, (uint32_t)(y * S + x));
    *out = t;
    return AP_OK;
}

void ap_jps_table_free(void *table)
{
    ap_jps_table *t = table;
    if (t == NULL)
        return;
    AP_FREE_ALL(t->dist, t->dist8, t->forced, t);
}

static void jps_plus_slot(ap_jps_table *t, ap_map_table *slot)
{
    slot->data = t;
    slot->bytes = sizeof *t + (size_t)t->cells * (8 * sizeof *t->dist + (t->dist8 != NULL ? 8 : 0) + 1);
}

static int jps_plus_kind_build(const ap_map *m, ap_map_table *slot)
{
    ap_jps_table *t;
    int st = ap_jps_table_build(m, &t);
    if (st == AP_OK)
        jps_plus_slot(t, slot);
    return st;
}

/* ---- JPS+ incremental update ---------------------------------------------------------------------------- */

/* A seed of a walk: a padded cell with its sort key (line, then position along the line in dependency
 * order), unique per cell for a given direction. */
typedef struct jps_seed {
    uint64_t key;
    uint32_t c;
} jps_seed;

static int cmp_seed(const void *a, const void *b)
{
    const uint64_t x = ((const jps_seed *)a)->key, y = ((const jps_seed *)b)->key;
    return (x > y) - (x < y);
}

/* A growable list of padded cells. */
typedef struct cell_list {
    uint32_t *v;
    size_t n, cap;
} cell_list;

static bool list_push(cell_list *l, uint32_t c)
{
    void *v = l->v; /* through a void * (no aliasing of uint32_t * as void *) */
    if (!ap_grow(&v, &l->cap, l->n + 1, sizeof *l->v, 64))
        return false;
    l->v = v;
    l->v[l->n++] = c;
    return true;
}

/* What a walk of direction d needs: the new table being written, the new passability, and the work budget
 * (cell recomputations left before the update gives up for a full build). */
typedef struct jps_walk {
    ap_jps_table *t;
    const uint8_t *p;
    int32_t S;
    int64_t budget;
} jps_walk;

/* Recompute direction d of t at the seeds s[0 .. k-1] (any order, duplicates allowed; cells of the padded
 * map, the border included) and at every cell whose value depends on a changed one; cells whose straight
 * value changed are appended to chg (when not NULL). Returns AP_OK, AP_E_NOMEM, or AP_TIMEOUT when
 * the budget ran out (t is then partly updated: the caller drops it).
 *
 * Why this is exact. Write next(c) = c + step(d). jump_value(c) is a function F of local inputs L(c) (the
 * passability cells and, for a diagonal, the straight distances at next(c) it reads) and of the value
 * V(next(c)) in the same direction. The caller passes as seeds every cell whose L changed (the passability
 * and straight distances are final when a direction is walked: straight directions read passability only,
 * and are walked before the diagonals). Cells of one line {c, c - step, c - 2 step, ...} depend on each
 * other only forwards, so order the seeds by line, then along each line from the front (the cell others
 * depend on) backwards. Walk: recompute the first seed c; if its value is unchanged, stop; else store it
 * and go on to c - step (the cell that reads it), and so on; then the next seed not yet passed. Induction
 * along the line in that order: when a cell is recomputed, the cell in front of it holds its final value
 * (it is earlier on the line, and the walk's position on a line only moves backwards); a cell the walk
 * does not reach is no seed (L unchanged) and the cell in front of it kept its value, so F gives it the
 * old value, which was the full build's for prev and is the full build's for m. Stopping at an unchanged
 * value is thus safe: everything behind it, up to the next seed, is unchanged. The order is what makes
 * each cell computed at most once per direction (a mutation test shows the results stay exact in any
 * order: the stop compares with the value stored, so a cell computed too early is computed again when the
 * cell in front of it changes). */
static int jps_plus_walk(jps_walk *w, int d, jps_seed *s, size_t k, cell_list *chg)
{
    if (k == 0)
        return AP_OK; /* s may be NULL then */
    const int32_t S = w->S, step = DX[d] + DY[d] * S;
    int16_t *D = w->t->dist;
    int8_t *D8 = w->t->dist8;
    for (size_t i = 0; i < k; i++) {
        const int64_t x = s[i].c % (uint32_t)S, y = s[i].c / (uint32_t)S;
        /* line: constant along the direction; along: grows backwards (from the front), one cell a step */
        const int64_t line = DY[d] * x - DX[d] * y, along = -(DX[d] * x + DY[d] * y);
        s[i].key = ((uint64_t)(line + (1 << 20)) << 32) | (uint64_t)(along + (1 << 20));
    }
    qsort(s, k, sizeof *s, cmp_seed);
    size_t i = 0;
    while (i < k) {
        uint32_t c = s[i].c;
        for (;;) {
            while (i < k && s[i].c == c)
                i++; /* the walk passes its seed */
            if (--w->budget < 0)
                return AP_TIMEOUT;
            const int16_t v = jump_value(w->p, D, S, c, d);
            int16_t *at = &D[(size_t)c * 8 + (size_t)d];
            if (v == *at)
                break;
            w->t->nonzero += (size_t)(v != 0) - (size_t)(*at != 0);
            w->t->far += (size_t)!ap_jps_fits8(v) - (size_t)!ap_jps_fits8(*at);
            *at = v;
            if (D8 != NULL)
                D8[(size_t)c * 8 + (size_t)d] = ap_jps_fits8(v) ? (int8_t)v : (int8_t)AP_JPS_FAR8;
            if (chg != NULL && !list_push(chg, c))
                return AP_E_NOMEM;
            c -= (uint32_t)step; /* inside the padded map: c was passable (v != old), not on the border */
        }
    }
    return AP_OK;
}

/* Incremental updates do at most this many cell recomputations per padded cell of the map before they give
 * up for a full build. A walk's step (sorted seeds, scattered reads) costs a few sweep steps of the build (8
 * per cell): on an open 512x512 map 16 spread walls took 14.5 ms to update against 12.3 ms to build (the
 * shared 2-core machine, 2026-11-24), so the budget is set below that. */
#define JPS_PLUS_BUDGET_PER_CELL 2
/* Above one changed cell per this many padded cells, a full build without trying (a changed cell seeds up
 * to 6 cells per straight direction and 4 per diagonal, and each walk may run along its whole line). */
#define JPS_PLUS_FULL_RATIO 256

/* The padded indices of the changed cells whose passability differs between prev and m (new array, *n_out
 * of them; NULL when out of memory). */
static uint32_t *pass_changed(const ap_map *m, const ap_map *prev, const ap_cell_pos *changed, size_t n,
                              size_t *n_out)
{
    uint32_t *q = malloc((n > 0 ? n : 1) * sizeof *q);
    if (q == NULL)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const uint32_t c = ap_map_index(m, changed[i].x, changed[i].y);
        if (m->pass[c] != prev->pass[c])
            q[k++] = c;
    }
    *n_out = k;
    return q;
}

/* The seeds of direction d (jps_plus_walk) for the cells q[0 .. nq-1] whose passability changed, and for
 * the cells of chg (straight distances in a component of diagonal d changed), into s (room for 6 * nq +
 * chg's): the cells whose jump_value reads one of them. */
static size_t seeds_of(int d, int32_t S, const uint32_t *q, size_t nq, const cell_list *chg_h,
                       const cell_list *chg_v, jps_seed *s)
{
    const int32_t h = DX[d], vv = DY[d] * S, step = h + vv;
    size_t k = 0;
    if (!(d & 1)) {
        /* reads c, n = c + step, n +- side, c +- side */
        const int32_t side = DY[d] + DX[d] * S;
        static const int8_t A[6] = {0, 1, 0, 0, 1, 1}, B[6] = {0, 0, 1, -1, 1, -1};
        for (size_t i = 0; i < nq; i++)
            for (int j = 0; j < 6; j++)
                s[k++].c = q[i] - (uint32_t)(A[j] * step + B[j] * side);
        return k;
    }
    /* reads c, c + h, c + vv, n = c + step, and the straight distances at n */
    for (size_t i = 0; i < nq; i++) {
        s[k++].c = q[i];
        s[k++].c = q[i] - (uint32_t)h;
        s[k++].c = q[i] - (uint32_t)vv;
        s[k++].c = q[i] - (uint32_t)step;
    }
    for (size_t i = 0; i < chg_h->n; i++)
        s[k++].c = chg_h->v[i] - (uint32_t)step;
    for (size_t i = 0; i < chg_v->n; i++)
        s[k++].c = chg_v->v[i] - (uint32_t)step;
    return k;
}

/* The update of jps_plus_walk's proof, in order: forced bytes around the changed cells, the four straight
 * directions, then the four diagonals seeded by them; dist8 settled by the counts at the end. Returns
 * AP_TIMEOUT when the budget ran out. */
static int jps_plus_incremental(const ap_map *m, const ap_jps_table *old, const uint32_t *q, size_t nq,
                                ap_jps_table **out)
{
    const int32_t S = m->stride;
    ap_jps_table *t = table_alloc(old->cells, old);
    if (t == NULL)
        return AP_E_NOMEM;
    for (size_t i = 0; i < nq; i++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                const uint32_t c = q[i] + (uint32_t)(dy * S + dx);
                t->forced[c] = forced_byte(m->pass, S, c);
            }
    jps_walk w = {t, m->pass, S, (int64_t)JPS_PLUS_BUDGET_PER_CELL * old->cells};
    cell_list chg[8] = {{0}};
    jps_seed *s = NULL;
    size_t s_cap = 0;
    int st = AP_OK;
    for (int i = 0; i < 8 && st == AP_OK; i++) {
        const int d = i < 4 ? 2 * i : 2 * (i - 4) + 1; /* straight ones first */
        const cell_list *ch = &chg[dir_of(DX[d], 0) & 7], *cv = &chg[dir_of(0, DY[d]) & 7];
        const size_t room = 6 * nq + ((d & 1) ? ch->n + cv->n : 0);
        void *grown = s;
        if (!ap_grow(&grown, &s_cap, room, sizeof *s, 64)) {
            st = AP_E_NOMEM;
            break;
        }
        s = grown;
        const size_t k = seeds_of(d, S, q, nq, ch, cv, s);
        st = jps_plus_walk(&w, d, s, k, (d & 1) ? NULL : &chg[d]);
    }
    free(s);
    for (int d = 0; d < 8; d++)
        free(chg[d].v);
    if (st == AP_OK)
        st = ap_jps_settle_dist8(t);
    if (st != AP_OK) {
        ap_jps_table_free(t);
        return st;
    }
    *out = t;
    return AP_OK;
}

static int jps_plus_kind_update(const ap_map *m, const ap_map *prev, const ap_map_table *old,
                                const ap_cell_pos *changed, size_t n, ap_map_table *slot)
{
    const ap_jps_table *ot = old->data;
    if (ot->cells != ap_map_node_count(m) || n * JPS_PLUS_FULL_RATIO > ot->cells)
        return jps_plus_kind_build(m, slot);
    size_t nq;
    uint32_t *q = pass_changed(m, prev, changed, n, &nq);
    if (q == NULL)
        return AP_E_NOMEM;
    ap_jps_table *t = NULL;
    int st = jps_plus_incremental(m, ot, q, nq, &t);
    free(q);
    if (st == AP_TIMEOUT)
        return jps_plus_kind_build(m, slot);
    if (st == AP_OK)
        jps_plus_slot(t, slot);
    return st;
}

const ap_table_kind ap_jps_plus_table_kind = {AP_JPS_TABLE_NAME, NULL, AP_TABLE_OPTIONAL | AP_TABLE_SKIPPABLE | AP_TABLE_UNIFORM,
                                              jps_plus_kind_build, ap_jps_table_free, jps_plus_kind_update, NULL, NULL,
                                              NULL};

const ap_jps_table *ap_jps_table_of(const ap_map *m)
{
    const ap_map_table *t = ap_map_find_table(m, AP_JPS_TABLE_NAME);
    return t != NULL ? t->data : NULL;
}

/* ---- block-based scans for online JPS ----------------------------------------------------------------- */

/* Passability as bits, one bit line per row and one per column (the transpose), so a straight jump looks
 * at 64 cells per word operation instead of one (Harabor & Grastien, ICAPS 2014, section 4: "block-based
 * symmetry breaking"). Bit (pos + 64) of a line is the cell at padded position pos; the 64 spare bits on
 * each side are 0 (blocked), so a 64-bit window never leaves the line.
 *
 * Event lines: for each straight direction, one more bit line per row (E, W) or column (S, N) whose bit is
 * 1 where a straight jump in that direction must stop: a blocked cell, or a cell with a forced neighbour
 * when entered in that direction (forced_straight; spare bits and the padded border are 1). They are the
 * per-line "stop | wall" masks the block scan would otherwise compute from three lines at every word (5
 * unaligned windows); with them a scan is one window and one ctz per 64 cells, and the cell found is a
 * jump point exactly when it is passable. Built in O(cells) with the bit lines; 4 more bits per cell.
 * Medians of online jps (us per query over all scenario lines, arcpath-bench, this machine, 3 runs each),
 * three-line scans -> event lines (+ one inlined jump per direction in jps_succ): arena2 11.0-14.7 -> 8.0,
 * den520d 11.2-15.0 -> 9.0, brc202d 84.4 -> 65.5, Berlin_0_256 9.1 -> 6.5, Paris_1_1024 61.0 -> 40.5,
 * maze512-32-0 39.9 -> 17.2, random512-40-0 1472 -> 1330, AR0011SR 20.6 -> 12.4, Aftershock 27.2 -> 21.9,
 * 8room_000 471 -> 382. Tried without gain: dividing by the stride with a multiplication (reverted).
 * The struct is ap_jps_bits in jps.h. */

void ap_jps_bits_free(void *data)
{
    ap_jps_bits *b = data;
    if (b == NULL)
        return;
    AP_FREE_ALL(b->rows, b->cols, b->ev, b);
}

/* Write every bit of padded cell (x, y) (stride W) into b: its row and column bits (passable) and its four
 * event bits (blocked, or forced when entered in that direction). Reads the 3x3 block at the cell when it
 * is passable (never on the padded border), only the cell otherwise. */
static void bits_cell(ap_jps_bits *b, const uint8_t *p, uint32_t W, uint32_t x, uint32_t y)
{
    const size_t rw = b->row_words, cw = b->col_words;
    const uint32_t c = y * W + x;
    const bool open_cell = p[c] != 0;
    ap_jps_put_bit(b->rows + (size_t)y * rw, x, open_cell);
    ap_jps_put_bit(b->cols + (size_t)x * cw, y, open_cell);
    ap_jps_put_bit((uint64_t *)b->ev_e + (size_t)y * rw, x, !open_cell || forced_straight(p, c, 1, (int32_t)W));
    ap_jps_put_bit((uint64_t *)b->ev_w + (size_t)y * rw, x, !open_cell || forced_straight(p, c, -1, (int32_t)W));
    ap_jps_put_bit((uint64_t *)b->ev_s + (size_t)x * cw, y, !open_cell || forced_straight(p, c, (int32_t)W, 1));
    ap_jps_put_bit((uint64_t *)b->ev_n + (size_t)x * cw, y, !open_cell || forced_straight(p, c, -(int32_t)W, 1));
}

/* Word counts of the lines (rows, cols and ev together). */
static size_t bits_words(const ap_jps_bits *b, uint32_t W, uint32_t H)
{
    return 3 * ((size_t)H * b->row_words + (size_t)W * b->col_words);
}

ap_jps_bits *ap_jps_bits_alloc(uint32_t W, uint32_t H, const ap_jps_bits *src)
{
    ap_jps_bits *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NULL;
    b->row_words = (W + 128) / 64 + 2;
    b->col_words = (H + 128) / 64 + 2;
    const size_t rw = b->row_words, cw = b->col_words, ev_words = 2 * (size_t)H * rw + 2 * (size_t)W * cw;
    b->rows = malloc((size_t)H * rw * sizeof *b->rows);
    b->cols = malloc((size_t)W * cw * sizeof *b->cols);
    b->ev = malloc(ev_words * sizeof *b->ev);
    if (b->rows == NULL || b->cols == NULL || b->ev == NULL) {
        ap_jps_bits_free(b);
        return NULL;
    }
    if (src != NULL) {
        memcpy(b->rows, src->rows, (size_t)H * rw * sizeof *b->rows);
        memcpy(b->cols, src->cols, (size_t)W * cw * sizeof *b->cols);
        memcpy(b->ev, src->ev, ev_words * sizeof *b->ev);
    } else {
        memset(b->rows, 0, (size_t)H * rw * sizeof *b->rows);
        memset(b->cols, 0, (size_t)W * cw * sizeof *b->cols);
        memset(b->ev, 0xff, ev_words * sizeof *b->ev);
    }
    b->ev_e = b->ev;
    b->ev_w = b->ev_e + (size_t)H * rw;
    b->ev_s = b->ev_w + (size_t)H * rw;
    b->ev_n = b->ev_s + (size_t)W * cw;
    return b;
}

size_t ap_jps_bits_bytes(const ap_jps_bits *b, uint32_t W, uint32_t H)
{
    return sizeof *b + bits_words(b, W, H) * sizeof(uint64_t);
}

static void bits_slot(ap_jps_bits *b, uint32_t W, uint32_t H, ap_map_table *slot)
{
    slot->data = b;
    slot->bytes = ap_jps_bits_bytes(b, W, H);
}

static int jps_bits_kind_build(const ap_map *m, ap_map_table *slot)
{
    const uint32_t W = (uint32_t)m->width + 2, H = (uint32_t)m->height + 2;
    ap_jps_bits *b = ap_jps_bits_alloc(W, H, NULL);
    if (b == NULL)
        return AP_E_NOMEM;
    /* the padded border is blocked: its bits are already right (0 in the lines, 1 in the events) */
    for (uint32_t y = 1; y + 1 < H; y++)
        for (uint32_t x = 1; x + 1 < W; x++)
            bits_cell(b, m->pass, W, x, y);
    bits_slot(b, W, H, slot);
    return AP_OK;
}

/* Above one cell whose passability changed per this many padded cells, a full build (each changed cell
 * rewrites the bits of 9 cells; the build writes every cell's). */
#define JPS_BITS_FULL_RATIO 64

/* The bits of the cells whose passability changed and their 8 neighbours, the only cells whose bits read
 * them (bits_cell), rewritten in a copy of old's lines. */
static int jps_bits_kind_update(const ap_map *m, const ap_map *prev, const ap_map_table *old,
                                const ap_cell_pos *changed, size_t n, ap_map_table *slot)
{
    const uint32_t W = (uint32_t)m->width + 2, H = (uint32_t)m->height + 2;
    if (n * JPS_BITS_FULL_RATIO > (size_t)W * H)
        return jps_bits_kind_build(m, slot);
    size_t nq;
    uint32_t *q = pass_changed(m, prev, changed, n, &nq);
    ap_jps_bits *b = q != NULL ? ap_jps_bits_alloc(W, H, old->data) : NULL;
    if (b == NULL) {
        free(q);
        return AP_E_NOMEM;
    }
    for (size_t i = 0; i < nq; i++)
        for (uint32_t y = q[i] / W - 1; y <= q[i] / W + 1; y++)
            for (uint32_t x = q[i] % W - 1; x <= q[i] % W + 1; x++)
                bits_cell(b, m->pass, W, x, y);
    free(q);
    bits_slot(b, W, H, slot);
    return AP_OK;
}

const ap_table_kind ap_jps_bits_table_kind = {AP_JPS_BITS_NAME, NULL, AP_TABLE_OPTIONAL | AP_TABLE_SKIPPABLE | AP_TABLE_UNIFORM,
                                              jps_bits_kind_build, ap_jps_bits_free, jps_bits_kind_update, NULL, NULL,
                                              NULL};

/* ---- the domain ---------------------------------------------------------------------------------------- */

/* Octile distance between padded cells a and b, exact in the sense that k straight and j diagonal steps
 * cost k + j*sqrt(2) (the same expression the grid domain's heuristic uses). */
static inline double octile_between(uint32_t S, uint32_t a, int32_t bx, int32_t by)
{
    int32_t ay = (int32_t)(a / S), ax = (int32_t)(a - (uint32_t)ay * S);
    uint32_t dx = (uint32_t)abs(ax - bx), dy = (uint32_t)abs(ay - by);
    return dx > dy ? (double)dx + (M_SQRT2 - 1.0) * (double)dy : (double)dy + (M_SQRT2 - 1.0) * (double)dx;
}

static double jps_h(const void *ctx, uint32_t node, uint32_t goal)
{
    (void)goal;
    const ap_jps_domain *jd = ctx;
    return octile_between(jd->stride, node, jd->goal_px, jd->goal_py);
}

/* Online straight jump from u with offset o (side offset s): the first jump point, or NONE at a wall.
 * *k gets the steps taken. */
static inline uint32_t jump_straight(const ap_jps_domain *jd, uint32_t u, int32_t o, int32_t s, uint32_t *k)
{
    const uint8_t *p = jd->pass;
    const uint32_t goal = jd->goal;
    uint32_t steps = 0;
    for (;;) {
        uint32_t v = u + (uint32_t)o;
        if (!p[v])
            return NONE;
        steps++;
        if (v == goal || forced_straight(p, v, o, s)) {
            *k = steps;
            return v;
        }
        u = v;
    }
}

/* Block-based straight jump from u = (ux, uy) (padded) in straight direction d; same result as
 * jump_straight: the first event on the direction's event line is a jump point iff it is passable. */
static inline __attribute__((always_inline)) uint32_t jump_straight_bits(const ap_jps_domain *jd, int32_t ux,
                                                                         int32_t uy, int d, uint32_t *k)
{
    const uint32_t v = ap_jps_first_event(jd, ux, uy, d, k);
    return jd->pass[v] ? v : NONE;
}

/* Block-based diagonal jump from u = (ux, uy) in diagonal direction d, with intermediate jump points
 * pruned (ICAPS 2014 section 4; see ap_jps_plus_expand in jps_impl.h for the argument): one legality test
 * per diagonal step, then the two straight scans, each one window per 64 cells of its event line (the line
 * pointers move by one line per step). A diagonal cell whose scans find jump points (the goal counts) is
 * not generated itself: the points the scans found are, with the diagonal leg in their cost, and the walk
 * goes on. When fewer than 3 slots are left below room, that diagonal cell is generated instead (unpruned
 * JPS; always valid). Writes out[n ..]; returns the new n.
 * Pruning here cut online JPS's median query time by 4-30% (docs/search-measurements.md, "Online JPS"). */
static inline __attribute__((always_inline)) int jump_diag_bits(const ap_jps_domain *jd, uint32_t u, int32_t ux,
                                                                int32_t uy, int d, ap_succ *out, int n, int room)
{
    const ap_jps_bits *b = jd->bits;
    const uint8_t *p = jd->pass;
    const uint32_t S = jd->stride;
    const int32_t h = DX[d], vv = DY[d] * (int32_t)S, dx = DX[d], dy = DY[d];
    const int32_t gx = jd->goal_px, gy = jd->goal_py;
    const ptrdiff_t rstep = dy * (ptrdiff_t)b->row_words, cstep = dx * (ptrdiff_t)b->col_words;
    const uint64_t *R = (dx > 0 ? b->ev_e : b->ev_w) + (size_t)uy * b->row_words;
    const uint64_t *C = (dy > 0 ? b->ev_s : b->ev_n) + (size_t)ux * b->col_words;
    uint32_t steps = 0;
    for (;;) {
        if (!(p[u + (uint32_t)h] && p[u + (uint32_t)vv] && p[u + (uint32_t)(h + vv)]))
            return n;
        u += (uint32_t)(h + vv);
        ux += dx;
        uy += dy;
        R += rstep;
        C += cstep;
        steps++;
        if (u == jd->goal) {
            out[n++] = (ap_succ){u, (double)steps * M_SQRT2};
            return n;
        }
        const int32_t gpr = gy == uy ? gx : -1, gpc = gx == ux ? gy : -1;
        const int32_t r = dx > 0 ? ap_jps_ev_up(R, ux, gpr) : ap_jps_ev_down(R, ux, gpr);
        const uint32_t rv = (uint32_t)uy * S + (uint32_t)r;
        const int32_t c = dy > 0 ? ap_jps_ev_up(C, uy, gpc) : ap_jps_ev_down(C, uy, gpc);
        const uint32_t cv = (uint32_t)c * S + (uint32_t)ux;
        const bool rj = p[rv], cj = p[cv];
        if (!rj && !cj)
            continue;
        const double gd = (double)steps * M_SQRT2;
        if (n + 3 > room) {
            out[n++] = (ap_succ){u, gd};
            return n;
        }
        if (rj)
            out[n++] = (ap_succ){rv, gd + (double)abs(r - ux)};
        if (cj)
            out[n++] = (ap_succ){cv, gd + (double)abs(c - uy)};
    }
}

/* Online diagonal jump from u in diagonal direction (h, vv): stops at the goal or at a cell whose straight
 * jumps along either component find a jump point (AAAI 2011, Algorithm 2). */
static inline uint32_t jump_diag(const ap_jps_domain *jd, uint32_t u, int32_t h, int32_t vv, uint32_t *k)
{
    const uint8_t *p = jd->pass;
    const uint32_t goal = jd->goal;
    uint32_t steps = 0, dummy;
    for (;;) {
        if (!(p[u + (uint32_t)h] && p[u + (uint32_t)vv] && p[u + (uint32_t)(h + vv)]))
            return NONE;
        u += (uint32_t)(h + vv);
        steps++;
        if (u == goal || jump_straight(jd, u, h, vv, &dummy) != NONE || jump_straight(jd, u, vv, h, &dummy) != NONE) {
            *k = steps;
            return u;
        }
    }
}

static inline int arrival_dir(const ap_jps_domain *jd, uint32_t u, int32_t ux, int32_t uy)
{
    return ap_jps_arrival(jd->nodes, jd->stride, u, ux, uy);
}

static int jps_succ(const void *ctx, uint32_t u, ap_succ *out)
{
    const ap_jps_domain *jd = ctx;
    const uint32_t S = jd->stride;
    const int32_t uy = (int32_t)(u / S), ux = (int32_t)(u - (uint32_t)uy * S);
    unsigned dirs = pruned_dirs(jd->pass, S, u, arrival_dir(jd, u, ux, uy));
    int n = 0;
    while (dirs) {
        int d = __builtin_ctz(dirs);
        dirs &= dirs - 1;
        uint32_t k = 0, v;
        const int32_t h = DX[d], vv = DY[d] * (int32_t)S;
        if (jd->bits != NULL) {
            /* One inlined copy per direction (constant d: no direction tests inside the scans). A diagonal
             * leaves one slot for each direction still to do (each yields at most one without pruning). */
            const int room = jd->succ_cap - (int)ap_popcount64(dirs);
            v = NONE;
            switch (d) {
            case 0: v = jump_straight_bits(jd, ux, uy, 0, &k); break;
            case 1: n = jump_diag_bits(jd, u, ux, uy, 1, out, n, room); break;
            case 2: v = jump_straight_bits(jd, ux, uy, 2, &k); break;
            case 3: n = jump_diag_bits(jd, u, ux, uy, 3, out, n, room); break;
            case 4: v = jump_straight_bits(jd, ux, uy, 4, &k); break;
            case 5: n = jump_diag_bits(jd, u, ux, uy, 5, out, n, room); break;
            case 6: v = jump_straight_bits(jd, ux, uy, 6, &k); break;
            default: n = jump_diag_bits(jd, u, ux, uy, 7, out, n, room); break;
            }
            if (v != NONE)
                out[n++] = (ap_succ){v, (double)k};
        } else if (d & 1) {
            v = jump_diag(jd, u, h, vv, &k);
            if (v != NONE)
                out[n++] = (ap_succ){v, (double)k * M_SQRT2};
        } else {
            v = jump_straight(jd, u, h + vv, DY[d] + DX[d] * (int32_t)S, &k);
            if (v != NONE)
                out[n++] = (ap_succ){v, (double)k};
        }
    }
    return n;
}

/* JPS+ successors through the callback interface (ap_search_run normally runs JPS+'s own loop, jps_loop.c). */
static int jps_plus_succ(const void *ctx, uint32_t u, ap_succ *out)
{
    const ap_jps_domain *jd = ctx;
    const uint32_t S = jd->stride;
    const int32_t uy = (int32_t)(u / S), ux = (int32_t)(u - (uint32_t)uy * S);
    ap_jps_succ_h tmp[8];
    int n = ap_jps_plus_expand(jd, u, ux, uy, arrival_dir(jd, u, ux, uy), tmp, 8);
    for (int i = 0; i < n; i++)
        out[i] = (ap_succ){tmp[i].node, tmp[i].cost};
    return n;
}

int ap_jps_domain_init(ap_jps_domain *jd, ap_domain *dom, const ap_map *m, const ap_jps_table *table,
                       uint32_t goal)
{
    if (m == NULL || goal >= ap_map_node_count(m) || (table != NULL && table->cells != ap_map_node_count(m)))
        return AP_E_INTERNAL;
    memset(jd, 0, sizeof *jd);
    jd->map = m;
    jd->pass = m->pass;
    jd->jump = table != NULL ? table->dist : NULL;
    jd->jump8 = table != NULL ? table->dist8 : NULL;
    jd->forced = table != NULL ? table->forced : NULL;
    const ap_map_table *bits = table == NULL ? ap_map_find_table(m, AP_JPS_BITS_NAME) : NULL;
    jd->bits = bits != NULL ? bits->data : NULL;
    jd->stride = (uint32_t)m->stride;
    for (int d = 0; d < 8; d++)
        jd->off[d] = DX[d] + DY[d] * (int32_t)jd->stride;
    jd->succ_cap = 8;
    jd->goal = goal;
    jd->goal_py = (int32_t)(goal / jd->stride);
    jd->goal_px = (int32_t)(goal - (uint32_t)jd->goal_py * jd->stride);
    /* The whole domain is written, so a domain struct reused from another kind keeps no stale hook. */
    *dom = (ap_domain){.ctx = jd,
                       .node_count = ap_map_node_count(m),
                       .max_succ = 8,
                       .successors = table != NULL ? jps_plus_succ : jps_succ,
                       .heuristic = jps_h,
                       .run = table != NULL && ap_grid_bucket_fits(m, AP_BQ_WIDE_PER_TILE) ? ap_jps_plus_run : NULL};
    return AP_OK;
}

void ap_jps_domain_bind(ap_jps_domain *jd, const ap_workspace *ws)
{
    jd->nodes = ws->nodes;
    /* dom->max_succ stays 8 (what unpruned JPS needs, so 8-slot workspaces still run it); a bigger
     * successor buffer lets online JPS prune more intermediate jump points per expansion (jump_diag_bits). */
    jd->succ_cap = ws->succ_cap > 8 ? ws->succ_cap : 8;
}

size_t ap_jps_expand_path(const ap_map *m, const uint32_t *jp, size_t n, uint32_t *out, size_t cap)
{
    if (n == 0)
        return 0;
    const int32_t S = m->stride;
    size_t count = 1;
    if (out != NULL && cap > 0)
        out[0] = jp[0];
    for (size_t i = 1; i < n; i++) {
        int32_t ay = (int32_t)jp[i - 1] / S, ax = (int32_t)jp[i - 1] % S;
        int32_t by = (int32_t)jp[i] / S, bx = (int32_t)jp[i] % S;
        int32_t dx = bx - ax, dy = by - ay;
        int32_t adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
        if (adx == 0 && ady == 0)
            return 0;
        /* Diagonal first (min(adx, ady) steps), then straight: the leg JPS+ takes past a pruned
         * intermediate jump point (jps_impl.h); one of the two parts is empty for a pair on a line. */
        int32_t diag = adx < ady ? adx : ady, cur = (int32_t)jp[i - 1];
        const int32_t doff = sgn(dx) + sgn(dy) * S, soff = adx > ady ? sgn(dx) : sgn(dy) * S;
        const int32_t steps = adx > ady ? adx : ady;
        for (int32_t k = 1; k <= steps; k++, count++) {
            cur += k <= diag ? doff : soff;
            if (out != NULL && count < cap)
                out[count] = (uint32_t)cur;
        }
    }
    return count;
}
