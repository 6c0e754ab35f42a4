/* jps_impl.h — private to planner/grid: the JPS pieces shared by jps.c and JPS+'s own copy of the A* loop
 * (jps_loop.c). Not a public interface. Sources as jps.h. */
#ifndef AP_JPS_IMPL_H
#define AP_JPS_IMPL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "jps.h"
#include "../base/bits.h"

static const int8_t DX[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int8_t DY[8] = {-1, -1, 0, 1, 1, 1, 0, -1};

#define NONE UINT32_MAX

/* The direction index (0 .. 7: N, NE, E, SE, S, SW, W, NW; DX and DY above) of the step (dx, dy), each in
 * {-1, 0, 1}, not both 0. Pure. */
static inline int dir_of(int dx, int dy)
{
    /* dx, dy in {-1, 0, 1}, not both 0 */
    static const int8_t t[3][3] = {{7, 6, 5}, {0, -1, 4}, {1, 2, 3}}; /* [dx+1][dy+1] */
    return t[dx + 1][dy + 1];
}

/* -1, 0 or 1 as v is negative, zero or positive. Pure. */
static inline int sgn(int32_t v)
{
    return (v > 0) - (v < 0);
}

/* A JPS+ distance one cell longer, keeping its sign (positive: a jump point that many cells on; zero or
 * negative: the wall that many cells on): a cell's entry from its neighbour's. Pure. */
static inline int16_t ap_jps_extend(int16_t next)
{
    return next > 0 ? (int16_t)(next + 1) : (int16_t)(next - 1);
}

/* Whether a JPS+ distance fits the one-byte table entries (|v| <= 127 cells). Pure. */
static inline bool ap_jps_fits8(int16_t v)
{
    return v >= -127 && v <= 127;
}

/* The natural successors of a cell entered in direction a (AAAI 2011 section 3): straight, the direction
 * itself; diagonal, the diagonal and its two straight components. */
static inline unsigned ap_jps_natural(int a)
{
    return (a & 1) ? (1u << a) | (1u << ((a + 7) & 7)) | (1u << ((a + 1) & 7)) : 1u << a;
}

/* Fill the JPS+ distances t->dist of map m (zeroed, border cells stay 0) by one sweep per direction that
 * visits the next cell in that direction first, so a cell's value may be one step more than its
 * successor's (or 1 when the successor is a jump point): value(ctx, D, S, c, d) gives map cell c's value
 * in direction d from the values already written. Straight directions first: the diagonal ones ask whether
 * a straight jump from the next cell finds a point. In steps: from sweep *i (0..8) and its row *r (0..H-1,
 * counted in the sweep's order) until all eight are done (true) or the clock (ap_clock_ns) has passed
 * until_ns after a row (false; *i, *r the next; 0 = no limit). Inline so each caller's value function is
 * inlined into its sweep. Source: Harabor & Grastien, ICAPS 2014, section 5 (jump points precomputed per cell
 * and direction). Writes t (and *i, *r): one thread per table while it is built. */
static inline bool ap_jps_sweep_rows(const ap_map *m, ap_jps_table *t,
                                     int16_t (*value)(const void *, const int16_t *, int32_t, uint32_t, int),
                                     const void *ctx, int *i, int32_t *r, uint64_t until_ns)
{
    const int32_t S = m->stride, W = m->width, H = m->height;
    int16_t *D = t->dist;
    static const int order[8] = {0, 2, 4, 6, 1, 3, 5, 7};
    for (; *i < 8; (*i)++, *r = 0) {
        const int d = order[*i];
        const int yi = DY[d] > 0 ? -1 : 1, ys = DY[d] > 0 ? H : 1;
        const int xs = DX[d] > 0 ? W : 1, xe = DX[d] > 0 ? 0 : W + 1, xi = DX[d] > 0 ? -1 : 1;
        while (*r < H) {
            const int y = ys + yi * *r;
            for (int x = xs; x != xe; x += xi) {
                const uint32_t c = (uint32_t)(y * S + x);
                D[(size_t)c * 8 + (size_t)d] = value(ctx, D, S, c, d);
            }
            if (++*r < H && ap_deadline_passed(until_ns))
                return false;
        }
    }
    return true;
}

/* The counts of t->dist that ap_jps_settle_dist8 reads: adds to t->nonzero and t->far (zero on a fresh table)
 * the distances that are non-zero and that do not fit a byte. Writes t: the building thread only. */
static inline void ap_jps_count(ap_jps_table *t)
{
    const int16_t *D = t->dist;
    for (size_t i = 0; i < (size_t)t->cells * 8; i++) {
        t->nonzero += D[i] != 0;
        t->far += !ap_jps_fits8(D[i]);
    }
}

/* ap_jps_sweep_rows to the end (no time limit), then ap_jps_count. Writes t: the building thread only. */
static inline void ap_jps_sweep(const ap_map *m, ap_jps_table *t,
                                int16_t (*value)(const void *, const int16_t *, int32_t, uint32_t, int),
                                const void *ctx)
{
    int i = 0;
    int32_t r = 0;
    (void)ap_jps_sweep_rows(m, t, value, ctx, &i, &r, 0);
    ap_jps_count(t);
}

/* Set t->dist8 from t->dist and the counts (jps.c: kept when at most 1% of the non-zero distances do not
 * fit a byte): keeps an existing copy (kept up to date by the caller), fills a new one when needed, drops
 * it beyond the 1%. The copy is owned by t (freed with it). Returns AP_OK or AP_E_NOMEM (dist8 then NULL: the
 * search reads dist). Writes t: the building thread only. */
int ap_jps_settle_dist8(ap_jps_table *t);

/* The direction u (padded, at ux, uy) was entered in: that of the last leg from its parent in nodes, -1 at
 * the start. With intermediate jump points pruned a parent may be off u's lines (a diagonal leg, then a
 * straight one: ap_jps_plus_expand); the last leg is then straight along the axis with the larger offset. On
 * a line this is the line's direction. S: the stride. Reads nodes only (the search's thread). */
static inline int ap_jps_arrival(const ap_node *nodes, uint32_t S, uint32_t u, int32_t ux, int32_t uy)
{
    uint32_t par = nodes[u].parent;
    if (par == UINT32_MAX)
        return -1;
    int32_t py = (int32_t)(par / S), px = (int32_t)(par - (uint32_t)py * S);
    const int32_t dx = ux - px, dy = uy - py, adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
    return dir_of(adx >= ady ? sgn(dx) : 0, ady >= adx ? sgn(dy) : 0);
}

/* Bits pos .. pos+63 of line L (bit 0 = cell pos); pos >= -64. Branch-free: the second word shifted by
 * 64 - sh in two steps so sh = 0 needs no special case. Pure. */
static inline uint64_t ap_jps_win(const uint64_t *L, int32_t pos)
{
    uint32_t i = (uint32_t)(pos + 64), w = i >> 6, sh = i & 63;
    return (L[w] >> sh) | ((L[w + 1] << 1) << (63 - sh));
}

/* Along event line E towards higher positions from pos: the first event (blocked cell or jump point) or
 * goalpos (-1: none on this line), whichever comes first; positions are padded cells along the line. Always
 * terminates: the line ends in events. Pure. */
static inline int32_t ap_jps_ev_up(const uint64_t *E, int32_t pos, int32_t goalpos)
{
    for (pos++;; pos += 64) {
        uint64_t m = ap_jps_win(E, pos);
        if ((uint32_t)(goalpos - pos) < 64u)
            m |= 1ull << (goalpos - pos);
        if (m != 0)
            return pos + __builtin_ctzll(m);
    }
}

/* The same towards lower positions: the window is lo .. lo+63 with lo = pos - 64. Pure. */
static inline int32_t ap_jps_ev_down(const uint64_t *E, int32_t pos, int32_t goalpos)
{
    for (;;) {
        const int32_t lo = pos - 64;
        uint64_t m = ap_jps_win(E, lo);
        if ((uint32_t)(goalpos - lo) < 64u)
            m |= 1ull << (goalpos - lo);
        if (m != 0)
            return lo + 63 - __builtin_clzll(m);
        pos = lo;
    }
}

/* Set the bit of position pos of line L to v. Writes L: the table's building thread only. */
static inline void ap_jps_put_bit(uint64_t *L, uint32_t pos, bool v)
{
    const uint64_t bit = 1ull << ((pos + 64) & 63);
    L[(pos + 64) >> 6] = v ? L[(pos + 64) >> 6] | bit : L[(pos + 64) >> 6] & ~bit;
}

/* A bit table (jps.h ap_jps_bits) for padded size W x H: lines copied from src, or without it zero bit lines
 * and all-ones event lines. NULL when out of memory. The caller owns the table: free it with ap_jps_bits_free
 * (its lines too; NULL is ignored; fits ap_map_table.free_fn; not while other threads read it). Both
 * thread-safe otherwise (src only read). */
ap_jps_bits *ap_jps_bits_alloc(uint32_t W, uint32_t H, const ap_jps_bits *src);
void ap_jps_bits_free(void *data);
/* Bytes held by bit table b of padded size W x H (the struct and its lines). Pure; thread-safe. */
size_t ap_jps_bits_bytes(const ap_jps_bits *b, uint32_t W, uint32_t H);

/* The first event (jps.h ap_jps_bits) on jd->bits' event line of straight direction d after (ux, uy), or the
 * goal if it comes first: a block-based straight jump, whose result is a jump point iff the unit fits that
 * cell (the caller's test). *k gets the steps; returns the padded index (ICAPS 2014 section 4, block-based
 * jumps). Pure (reads jd's borrowed lines; thread-safe on a loaded map). */
static inline __attribute__((always_inline)) uint32_t ap_jps_first_event(const ap_jps_domain *jd, int32_t ux,
                                                                         int32_t uy, int d, uint32_t *k)
{
    const ap_jps_bits *b = jd->bits;
    const uint32_t S = jd->stride;
    uint32_t v;
    int32_t r;
    if (DY[d] == 0) {
        const int32_t gp = jd->goal_py == uy ? jd->goal_px : -1;
        r = DX[d] > 0 ? ap_jps_ev_up(b->ev_e + (size_t)uy * b->row_words, ux, gp)
                      : ap_jps_ev_down(b->ev_w + (size_t)uy * b->row_words, ux, gp);
        v = (uint32_t)uy * S + (uint32_t)r;
        *k = (uint32_t)abs(r - ux);
    } else {
        const int32_t gp = jd->goal_px == ux ? jd->goal_py : -1;
        r = DY[d] > 0 ? ap_jps_ev_up(b->ev_s + (size_t)ux * b->col_words, uy, gp)
                      : ap_jps_ev_down(b->ev_n + (size_t)ux * b->col_words, uy, gp);
        v = (uint32_t)r * S + (uint32_t)ux;
        *k = (uint32_t)abs(r - uy);
    }
    return v;
}

/* Does cell v, entered by a straight move with offset o, have a forced neighbour? Side offset s is the
 * perpendicular one. Without corner cutting: a side cell is forced when it is free and the side cell of
 * the cell behind (v - o) is blocked (ICAPS 2014, section 3). p: padded passability. Pure. */
static inline bool forced_straight(const uint8_t *p, uint32_t v, int32_t o, int32_t s)
{
    return (p[v + (uint32_t)s] && !p[v - (uint32_t)o + (uint32_t)s]) ||
           (p[v - (uint32_t)s] && !p[v - (uint32_t)o - (uint32_t)s]);
}

/* The directions to search from u (bit d = direction d), given the arrival direction (-1 at the start):
 * AAAI 2011 section 3 pruning, ICAPS 2014 no-corner-cutting forced neighbours. p: padded passability, S its
 * stride. Pure. */
static inline unsigned pruned_dirs(const uint8_t *p, uint32_t S, uint32_t u, int from)
{
    if (from < 0)
        return 0xffu;
    if (from & 1) /* diagonal: the two components and the diagonal itself; no forced neighbours */
        return (1u << from) | (1u << ((from + 7) & 7)) | (1u << ((from + 1) & 7));
    /* s is the side at from+2 (90 degrees clockwise with y down: (dx, dy) -> (-dy, dx)); E -> S, N -> E. */
    const int32_t o = DX[from] + DY[from] * (int32_t)S, s = -DY[from] + DX[from] * (int32_t)S;
    unsigned dirs = 1u << from;
    if (p[u + (uint32_t)s] && !p[u - (uint32_t)o + (uint32_t)s])
        dirs |= (1u << ((from + 2) & 7)) | (1u << ((from + 1) & 7));
    if (p[u - (uint32_t)s] && !p[u - (uint32_t)o - (uint32_t)s])
        dirs |= (1u << ((from + 6) & 7)) | (1u << ((from + 7) & 7));
    return dirs;
}

/* Jump distance of cell c in direction d. narrow (a constant where inlined): from the one-byte table
 * (jd->jump8), or the int16 one where it does not fit (rare there: one well-predicted branch); else from
 * the int16 table. Signed cells (ap_jps_table's rule). Pure (reads jd's borrowed tables). */
static inline __attribute__((always_inline)) int32_t ap_jps_dist(const ap_jps_domain *jd, uint32_t c, int d,
                                                                 const bool narrow)
{
    if (!narrow)
        return jd->jump[(size_t)c * 8 + (size_t)d];
    int32_t v = jd->jump8[(size_t)c * 8 + (size_t)d];
    if (__builtin_expect(v == AP_JPS_FAR8, 0))
        v = jd->jump[(size_t)c * 8 + (size_t)d];
    return v;
}

/* pruned_dirs from the JPS+ forced-neighbour byte of u (ap_jps_table.forced): the same set, one load. Pure. */
static inline unsigned pruned_dirs_forced(const uint8_t *forced, uint32_t u, int from)
{
    if (from < 0)
        return 0xffu;
    if (from & 1)
        return (1u << from) | (1u << ((from + 7) & 7)) | (1u << ((from + 1) & 7));
    const unsigned f = (unsigned)forced[u] >> from;
    unsigned dirs = 1u << from;
    if (f & 1u)
        dirs |= (1u << ((from + 2) & 7)) | (1u << ((from + 1) & 7));
    if (f & 2u)
        dirs |= (1u << ((from + 6) & 7)) | (1u << ((from + 7) & 7));
    return dirs;
}

/* One JPS+ successor with its heuristic and the direction it is reached in (kept by the core in the open
 * entry's aux, so the next expansion needs no division to find its arrival direction). */
typedef struct ap_jps_succ_h {
    uint32_t node;
    int dir;
    double cost; /* tiles */
    int32_t x, y; /* padded coordinates: the core computes the heuristic only when it needs it */
} ap_jps_succ_h;

/* Octile distance (tiles) from cell (x, y) to the goal cell (gx, gy): the JPS heuristic. Pure. */
static inline double ap_jps_octile(int32_t x, int32_t y, int32_t gx, int32_t gy)
{
    int32_t ax = x - gx, ay = y - gy;
    ax = ax < 0 ? -ax : ax;
    ay = ay < 0 ? -ay : ay;
    return ax > ay ? (double)ax + (M_SQRT2 - 1.0) * (double)ay : (double)ay + (M_SQRT2 - 1.0) * (double)ax;
}

/* Room for one JPS+ expansion's successors in JPS+'s copy of the loop (jps_loop.c): with intermediate
 * jump points pruned a diagonal yields two per diagonal jump point it passes (ap_jps_plus_expand falls back
 * to the unpruned successor when the room runs out, so this bounds work, not correctness). */
#define AP_JPS_PLUS_CAP 64

#define SUCC_H(NODE, COST, X, Y, D) ((ap_jps_succ_h){(NODE), (D), (COST), (X), (Y)})

/* JPS+: each pruned direction is one table read plus the goal test (Rabin): a straight direction that
 * passes the goal within its free run stops at the goal; a diagonal whose quadrant holds the goal stops
 * where it meets the goal's row or column (the target), if that is within its free run. The target is
 * expanded in place like a diagonal jump point below (as warthog's JPS+ (B+P) does): its straight
 * successors are generated, the one toward the goal stopping at the goal when the goal is within its free
 * run, and the walk goes on past it.
 *
 * Intermediate jump points are pruned (Harabor & Grastien, ICAPS 2014, section 4 "Pruning intermediate
 * jump points"): without corner cutting a diagonal jump point never has a forced neighbour, it is a jump
 * point only because a straight jump from it finds one. So instead of putting it on the open list, its two
 * straight successors are generated here (cost: the diagonal leg plus the straight one, arrival direction
 * the straight one) and the diagonal walk goes on to the next diagonal jump point. The parent of such a
 * successor is u, off u's lines: ap_jps_expand_path rebuilds the leg diagonal first, which is exactly the
 * walk taken here. cap bounds out[]: when fewer than 3 slots (plus one per direction still to do) are
 * left, the diagonal jump point itself is generated instead, as unpruned JPS+ does (always valid). Writes up to
 * cap successors (costs in tiles, padded coordinates) to the caller's out and returns their number; from is the
 * arrival direction (-1 at the start). narrow: the one-byte distances; sized: a disc's masks (jps_sized.h).
 * Pure (reads jd's borrowed tables): thread-safe on a loaded map. */
static inline __attribute__((always_inline)) int ap_jps_plus_expand_t(const ap_jps_domain *jd, uint32_t u,
                                                                      int32_t ux, int32_t uy, int from,
                                                                      ap_jps_succ_h *out, int cap, const bool narrow,
                                                                      const bool sized)
{
    const uint32_t S = jd->stride;
    const int32_t gdx = jd->goal_px - ux, gdy = jd->goal_py - uy;
    const int sx = sgn(gdx), sy = sgn(gdy);
    const int32_t adx = gdx < 0 ? -gdx : gdx, ady = gdy < 0 ? -gdy : gdy;
    unsigned dirs = !sized ? pruned_dirs_forced(jd->forced, u, from)
                           : from < 0 ? 0xffu : jd->succ8[(size_t)u * 8 + (size_t)from];
    int n = 0;
    while (dirs) {
        int d = __builtin_ctz(dirs);
        dirs &= dirs - 1;
        int32_t dist = ap_jps_dist(jd, u, d, narrow);
        if (dist == 0)
            continue;
        int32_t run = dist < 0 ? -dist : dist;
        const int32_t off = jd->off[d];
        if (d & 1) {
            bool quad = sx == DX[d] && sy == DY[d];
            const int32_t mn = adx < ady ? adx : ady;
            /* The walk: c = u + acc * off is the current diagonal jump point (u at first). */
            const int dh = DX[d] > 0 ? 2 : 6, dv = DY[d] > 0 ? 4 : 0; /* its straight components */
            const int32_t oh = DX[d], ov = DY[d] * (int32_t)S;
            const int reserve = (int)ap_popcount64(dirs);
            int32_t acc = 0;
            for (;;) {
                /* The next point c of the walk: the target (where the diagonal meets the goal's row or
                 * column, when the goal is in quadrant d and that is within the free run), else the next
                 * diagonal jump point. */
                const bool target = quad && mn <= acc + run;
                if (target)
                    acc = mn;
                else if (dist <= 0)
                    break;
                else
                    acc += dist;
                const uint32_t c = u + (uint32_t)(acc * off);
                const int32_t cx = ux + acc * DX[d], cy = uy + acc * DY[d];
                /* A disc's diagonal jump point may have forced neighbours of its own (jps_sized.h): then it
                 * is generated itself, and its expansion goes on along the diagonal. So is the goal. */
                if (c == jd->goal || n + 3 + reserve > cap ||
                    (sized && (jd->succ8[(size_t)c * 8 + (size_t)d] & ~ap_jps_natural(d)))) {
                    out[n++] = SUCC_H(c, (double)acc * M_SQRT2, cx, cy, d);
                    break;
                }
                const double gc = (double)acc * M_SQRT2;
                const int32_t sh = ap_jps_dist(jd, c, dh, narrow), sv = ap_jps_dist(jd, c, dv, narrow);
                /* Off the target the goal cannot lie on c's straight lines: it would be on c's row or
                 * column and in u's quadrant d, so the walk would have stopped at the target at or before
                 * c. At the target it lies on one of them, ahead (quadrant d): the straight jump toward it
                 * stops at the goal when the goal is within its free run, as a straight direction does. The
                 * target is expanded here, as the diagonal jump points are, rather than generated (warthog's
                 * JPS+ (B+P) prunes it the same way): one expansion fewer, and a goal in sight of the
                 * diagonal is generated at once. */
                int32_t along_h = 0, along_v = 0;
                if (__builtin_expect(target, 0)) {
                    along_h = ady == mn ? adx - mn : 0;
                    along_v = adx == mn ? ady - mn : 0;
                    quad = false; /* past the target the goal is behind the walk: no second target */
                }
                if (along_h != 0 && along_h <= (sh < 0 ? -sh : sh))
                    out[n++] = (ap_jps_succ_h){jd->goal, dh, gc + (double)along_h, jd->goal_px, jd->goal_py};
                else if (sh > 0)
                    out[n++] = SUCC_H(c + (uint32_t)(sh * oh), gc + (double)sh, cx + sh * DX[d], cy, dh);
                if (along_v != 0 && along_v <= (sv < 0 ? -sv : sv))
                    out[n++] = (ap_jps_succ_h){jd->goal, dv, gc + (double)along_v, jd->goal_px, jd->goal_py};
                else if (sv > 0)
                    out[n++] = SUCC_H(c + (uint32_t)(sv * ov), gc + (double)sv, cx, cy + sv * DY[d], dv);
                dist = ap_jps_dist(jd, c, d, narrow);
                run = dist < 0 ? -dist : dist;
            }
        } else {
            int32_t along = DX[d] != 0 ? (gdy == 0 && sx == DX[d] ? adx : 0) : (gdx == 0 && sy == DY[d] ? ady : 0);
            if (along != 0 && along <= run) {
                out[n++] = (ap_jps_succ_h){jd->goal, d, (double)along, jd->goal_px, jd->goal_py};
                continue;
            }
            if (dist > 0)
                out[n++] = SUCC_H(u + (uint32_t)(dist * off), (double)dist, ux + dist * DX[d], uy + dist * DY[d], d);
        }
    }
    return n;
}

/* ap_jps_plus_expand_t on the table jd has: the one-byte one when present; a disc's masks when it has them.
 * Same outputs; pure. */
static inline int ap_jps_plus_expand(const ap_jps_domain *jd, uint32_t u, int32_t ux, int32_t uy, int from,
                                     ap_jps_succ_h *out, int cap)
{
    if (__builtin_expect(jd->succ8 != NULL, 0))
        return jd->jump8 != NULL ? ap_jps_plus_expand_t(jd, u, ux, uy, from, out, cap, true, true)
                                 : ap_jps_plus_expand_t(jd, u, ux, uy, from, out, cap, false, true);
    return jd->jump8 != NULL ? ap_jps_plus_expand_t(jd, u, ux, uy, from, out, cap, true, false)
                             : ap_jps_plus_expand_t(jd, u, ux, uy, from, out, cap, false, false);
}

#undef SUCC_H

/* JPS+'s copy of the A* loop (jps_loop.c), the ap_domain.run of a JPS+ domain: the successors of
 * ap_jps_plus_expand, the arrival direction carried in the open entry, the held node and the wide bucketed
 * open list. Same contract as ap_search_run (s begun on a JPS+ domain bound to s->ws): the same returns
 * (AP_IN_PROGRESS, AP_OK, AP_NO_PATH, AP_TIMEOUT) and thread rules (one thread per search and workspace).
 * Sources as jps.h (Rabin's JPS+; Harabor & Grastien, ICAPS 2014, sections 4-5). */
int ap_jps_plus_run(ap_search *s, uint64_t max_expansions);

#endif
