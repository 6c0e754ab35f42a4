/* directional.c — Directional A* (Pinter, "Legal Turns: The Directional A* Algorithm") as a domain of the
 * A* core. See directional.h for the state space, the edges and why the heuristic is admissible.
 */
#include "directional.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../world/collide.h"
#include "../world/grid_world.h"
#include "../world/lattice.h"
#include "../geom/curve.h"
#include "../geom/dubins.h"
#include "../geom/reeds_shepp.h"
#include "../base/status.h"
#include "../base/mem.h"

/* Memoised curve bounds cover goal offsets up to this many cells; beyond, the straight distance. */
#define AP_DIR_MEMO_T 24
/* Try the analytic curve to the goal at every expansion within this many tiles (plus 4 turning radii),
 * and at every AP_DIR_ANALYTIC_EVERY-th expansion elsewhere. */
#define AP_DIR_ANALYTIC_NEAR 4.0
#define AP_DIR_ANALYTIC_EVERY 8

void ap_path_reverse(ap_segment *segs, size_t n)
{
    for (size_t i = 0; i < n / 2; i++) {
        ap_segment t = segs[i];
        segs[i] = segs[n - 1 - i];
        segs[n - 1 - i] = t;
    }
    for (size_t i = 0; i < n; i++) {
        ap_segment s = segs[i];
        ap_segment r;
        if (s.type == AP_SEG_ARC) {
            r = ap_segment_arc(s.x1, s.y1, ap_angle_wrap(ap_segment_end_heading(&s) + M_PI), s.radius, -s.sweep);
            r.cx = s.cx; /* same circle exactly */
            r.cy = s.cy;
        } else {
            r = ap_segment_line(s.x1, s.y1, s.x0, s.y0);
        }
        r.x1 = s.x0;
        r.y1 = s.y0;
        r.reverse = s.reverse;
        segs[i] = r;
    }
    /* Lines keep the heading of their neighbours exactly (G1): take it from the arc before, if any. */
    for (size_t i = 1; i < n; i++)
        if (segs[i].type == AP_SEG_LINE && segs[i - 1].type == AP_SEG_ARC)
            segs[i].heading = ap_segment_end_heading(&segs[i - 1]);
}

/* ---- geometry of one move ---------------------------------------------------------------------------- */

/* The largest terrain cost multiplier of the cells the unit's disc touches along segment s (1 on a uniform
 * map). */
static double seg_mult(const ap_dir *d, const ap_segment *s)
{
    const ap_map *m = d->q.map;
    if (!m->weighted)
        return 1.0;
    int32_t local[256][2], (*cells)[2] = local;
    size_t n = ap_segment_cells(s, d->q.prof->key.radius, local, 256);
    if (n > 256) { /* a long exact curve (the final one may cross the window) */
        cells = malloc(n * sizeof *cells);
        if (cells == NULL)
            return m->cost_max; /* an upper bound keeps the cost honest */
        ap_segment_cells(s, d->q.prof->key.radius, cells, n);
    }
    double mult = 1.0;
    for (size_t i = 0; i < n; i++) {
        int32_t x = cells[i][0], y = cells[i][1];
        if (x < 0 || y < 0 || x >= m->width || y >= m->height)
            continue;
        uint8_t k = m->kind[ap_map_index(m, x, y)];
        if (k != 0xff && m->cost_of[k] > mult)
            mult = m->cost_of[k];
    }
    if (cells != local)
        free(cells);
    return mult;
}

static double seg_cost(const ap_dir *d, const ap_segment *s, size_t n, int prev_rev)
{
    double c = 0.0;
    for (size_t i = 0; i < n; i++) {
        c += (s[i].reverse ? d->q.reverse_penalty * s[i].length : s[i].length) * seg_mult(d, &s[i]);
        if (s[i].type == AP_SEG_ARC)
            c += d->q.turn_penalty * fabs(s[i].sweep);
        int rv = s[i].reverse ? 1 : 0;
        if (prev_rev >= 0 && rv != prev_rev)
            c += d->q.change_penalty;
        prev_rev = rv;
    }
    return c;
}

static bool segs_clear(const ap_dir *d, const ap_segment *s, size_t n)
{
    ap_world w;
    ap_map_world(d->q.map, &w);
    return ap_world_segments_clear(&w, s, n, d->q.prof->key.radius);
}

/* The curve from pose a to pose b: variant 0 the shortest Dubins path, 1 the shortest Reeds-Shepp path. */
static size_t pose_curve(const ap_dir *d, const ap_pose *a, const ap_pose *b, int variant, ap_segment *out)
{
    double R = d->q.prof->key.turning_radius;
    if (variant == 0) {
        ap_dubins dd;
        if (ap_dubins_shortest(a, b, R, &dd) != 0)
            return 0;
        return ap_dubins_segments(&dd, b, out);
    }
    ap_reeds_shepp rs;
    if (ap_reeds_shepp_shortest(a, b, R, &rs) != 0)
        return 0;
    return ap_reeds_shepp_segments(&rs, b, out);
}

/* The exact final curve from pose a to the goal pose; returns the segment count, -1 when none exists. */
static int goal_curve(const ap_dir *d, const ap_pose *a, ap_segment *out)
{
    const ap_pose *g = &d->q.goal;
    if (d->q.goal_heading)
        return (int)pose_curve(d, a, g, d->q.prof->key.reverse ? 1 : 0, out);
    int tight = 0;
    size_t n = ap_curve_arc_line(a->x, a->y, a->heading, g->x, g->y, d->q.prof->key.turning_radius, out, &tight);
    if (tight)
        return -1;
    return (int)n;
}

/* The exact first curve from the start pose to pose b (free start heading: the arc+line from b, facing
 * backwards, to the start point, driven the other way round). Returns the count, -1 when none exists. */
static int start_curve(const ap_dir *d, const ap_pose *b, int variant, ap_segment *out)
{
    if (d->q.start_heading) {
        size_t n = pose_curve(d, &d->q.start, b, variant, out);
        return n == 0 && (d->q.start.x != b->x || d->q.start.y != b->y) ? -1 : (int)n;
    }
    if (variant != 0)
        return -1;
    int tight = 0;
    size_t n = ap_curve_arc_line(b->x, b->y, ap_angle_wrap(b->heading + M_PI), d->q.start.x, d->q.start.y,
                                 d->q.prof->key.turning_radius, out, &tight);
    if (tight)
        return -1;
    ap_path_reverse(out, n);
    return (int)n;
}

/* ---- nodes ------------------------------------------------------------------------------------------- */

/* Window coordinates of a node's cell number (its window index, or its corridor member number). */
static inline void cell_xy(const ap_dir *d, uint32_t cell, int32_t *wx, int32_t *wy)
{
    if (d->has_cor)
        cell = d->cor.cells[cell];
    *wx = (int32_t)(cell % (uint32_t)d->ww);
    *wy = (int32_t)(cell / (uint32_t)d->ww);
}

/* The cell number of window cell (wx, wy), or UINT32_MAX when no state may be there (outside the window, or
 * not a corridor member). */
static inline uint32_t cell_of(const ap_dir *d, int32_t wx, int32_t wy)
{
    if (d->has_cor)
        return ap_corridor_index(&d->cor, wx, wy);
    if (wx < 0 || wy < 0 || wx >= d->ww || wy >= d->wh)
        return UINT32_MAX;
    return (uint32_t)wy * (uint32_t)d->ww + (uint32_t)wx;
}

ap_pose ap_dir_node_pose(const ap_dir *d, uint32_t node, int *reverse_bit)
{
    if (node == d->start_node || node == d->goal_node) {
        if (reverse_bit)
            *reverse_bit = 0;
        return node == d->start_node ? d->q.start : d->q.goal;
    }
    uint32_t hp = node % (uint32_t)d->Hp;
    int32_t wx, wy;
    cell_xy(d, node / (uint32_t)d->Hp, &wx, &wy);
    if (reverse_bit)
        *reverse_bit = (int)hp / d->H;
    ap_pose p = {d->wx0 + wx + 0.5, d->wy0 + wy + 0.5, ap_profile_heading((int)hp % d->H, d->H)};
    return p;
}

static inline uint32_t node_id(const ap_dir *d, uint32_t cell, int h, int rev)
{
    return cell * (uint32_t)d->Hp + (uint32_t)(h + rev * d->H);
}

/* Bits (of bitmap `bits`: d->bits or d->xbits) of the 2S+1 cells centred on window column wx, for bitmap
 * row br. */
static inline uint64_t row_bits(const uint64_t *bits, const ap_dir *d, uint32_t br, int32_t wx)
{
    const uint64_t *w = bits + (size_t)br * d->bw;
    uint32_t pos = (uint32_t)wx; /* column wx - S sits at bit wx (the bitmap starts S columns left) */
    uint32_t word = pos >> 6, sh = pos & 63u;
    uint64_t v = w[word] >> sh;
    if (sh)
        v |= w[word + 1] << (64 - sh);
    return v & ((1ull << (2 * d->S + 1)) - 1ull);
}

static bool edge_clear(const ap_dir *d, const ap_dir_edge *e, const uint64_t *blk)
{
    const uint64_t *m = d->q.prof->rows + e->rows;
    const uint64_t *b = blk + e->row0;
    for (int i = 0; i < e->nrows; i++)
        if (m[i] & b[i])
            return false;
    return true;
}

/* The largest terrain cost multiplier of the cells in edge e's mask from window cell (wx, wy), whose
 * expensive-cell rows are xblk (load_rows of d->xbits): 1 when it covers none. */
static double edge_mult(const ap_dir *d, const ap_dir_edge *e, const uint64_t *xblk, int32_t wx, int32_t wy)
{
    const uint64_t *m = d->q.prof->rows + e->rows;
    const ap_map *map = d->q.map;
    double mult = 1.0;
    for (int i = 0; i < e->nrows; i++) {
        for (uint64_t b = m[i] & xblk[e->row0 + i]; b != 0; b &= b - 1) {
            /* bit k of row r: map cell (wx0 + wx + k - S, wy0 + wy + r - S) */
            int32_t x = d->wx0 + wx + __builtin_ctzll(b) - d->S, y = d->wy0 + wy + e->row0 + i - d->S;
            double c = map->cost_of[map->kind[ap_map_index(map, x, y)]];
            if (c > mult)
                mult = c;
        }
    }
    return mult;
}

static double edge_cost(const ap_dir *d, const ap_dir_edge *e, int prev_rev, double mult)
{
    double c = (e->len_fwd + d->q.reverse_penalty * e->len_rev) * mult + d->q.turn_penalty * e->turn +
               d->q.change_penalty * e->cusps;
    if (prev_rev >= 0 && ((e->flags & AP_EDGE_FIRST_REV) ? 1 : 0) != prev_rev)
        c += d->q.change_penalty;
    return c;
}

static void load_rows(const ap_dir *d, const uint64_t *bits, int32_t wx, int32_t wy, uint64_t *blk)
{
    for (int r = 0; r <= 2 * d->S; r++)
        blk[r] = row_bits(bits, d, (uint32_t)(wy + r), wx);
}

static void load_blocked(const ap_dir *d, int32_t wx, int32_t wy, uint64_t *blk)
{
    load_rows(d, d->bits, wx, wy, blk);
}

/* The cost of the analytic final curve from pose a (last driving direction rev), INFINITY when it does not
 * exist or is not clear. Counts the try. */
static double analytic_cost(ap_dir *d, const ap_pose *a, int rev)
{
    ap_segment segs[AP_RS_MAX_PIECES];
    d->analytic_tries++;
    int n = goal_curve(d, a, segs);
    ap_world w;
    ap_map_world(d->q.map, &w);
    if (n < 0 || !ap_world_path_clear(&w, segs, (size_t)n, a->x, a->y, d->q.prof->key.radius))
        return INFINITY;
    return seg_cost(d, segs, (size_t)n, rev);
}

/* Try the analytic final curve from pose a (last driving direction rev); on success add the goal edge. */
static int try_analytic(ap_dir *d, const ap_pose *a, int rev, ap_succ *out, int k)
{
    const double c = analytic_cost(d, a, rev);
    if (c == INFINITY)
        return k;
    d->analytic_hits++;
    out[k++] = (ap_succ){d->goal_node, c};
    return k;
}

/* The start's own final curve when its heading is free: from the start point facing the goal (a straight
 * line when the goal heading is free too) or facing any lattice heading, the cheapest clear one (its heading
 * kept in d->start_h for the path). Without it the start tried only heading 0, and a goal that needs a bend
 * right at the start went round the lattice: a free heading did worse than some fixed one (a metamorphic
 * helper: 11.8 tiles against 2.27 facing +y, or no_path). */
static int start_analytic_free(ap_dir *d, ap_succ *out, int k)
{
    double best = INFINITY;
    const double to_goal = atan2(d->q.goal.y - d->q.start.y, d->q.goal.x - d->q.start.x);
    for (int h = -1; h < d->H; h++) {
        const ap_pose a = {d->q.start.x, d->q.start.y, h < 0 ? to_goal : ap_profile_heading(h, d->H)};
        const double c = analytic_cost(d, &a, -1);
        if (c < best) {
            best = c;
            d->start_h = a.heading;
        }
    }
    if (best == INFINITY)
        return k;
    d->analytic_hits++;
    out[k++] = (ap_succ){d->goal_node, best};
    return k;
}

static int start_successors(ap_dir *d, ap_succ *out)
{
    int k = 0;
    const int kk = d->k;
    for (int dy = -kk; dy <= kk; dy++) {
        for (int dx = -kk; dx <= kk; dx++) {
            int32_t cx = d->scx + dx, cy = d->scy + dy;
            uint32_t cell = cell_of(d, cx, cy);
            if (cell == UINT32_MAX || !ap_map_passable(d->q.map, d->wx0 + cx, d->wy0 + cy))
                continue;
            for (int h = 0; h < d->H; h++) {
                ap_pose b = {d->wx0 + cx + 0.5, d->wy0 + cy + 0.5, ap_profile_heading(h, d->H)};
                for (int variant = 0; variant < (d->q.prof->key.reverse ? 2 : 1); variant++) {
                    ap_segment segs[AP_RS_MAX_PIECES];
                    int n = start_curve(d, &b, variant, segs);
                    if (n == 0 && !d->q.start_heading) { /* b at the start point: face it at no cost, */
                        out[k++] = (ap_succ){node_id(d, cell, h, 0), 0.0};
                        if (d->Hp > d->H) /* in either driving direction (no change of direction to pay) */
                            out[k++] = (ap_succ){node_id(d, cell, h, 1), 0.0};
                        continue;
                    }
                    if (n <= 0 || !segs_clear(d, segs, (size_t)n))
                        continue;
                    int rev = segs[n - 1].reverse ? 1 : 0;
                    if (variant == 1 && !rev && d->H == d->Hp)
                        continue;
                    out[k++] = (ap_succ){node_id(d, cell, h, d->Hp > d->H ? rev : 0),
                                         seg_cost(d, segs, (size_t)n, -1)};
                }
            }
        }
    }
    return d->q.start_heading ? try_analytic(d, &d->q.start, -1, out, k) : start_analytic_free(d, out, k);
}

/* The two parts of node u's heuristic (u not the start or goal node): the obstacle-free curve bound (*curve)
 * and the lattice bound (*lat; 0 outside the lattice region). */
static void h_parts(ap_dir *d, uint32_t u, double *curve, double *lat);

static int dir_successors(const void *ctx, uint32_t u, ap_succ *out)
{
    /* The context belongs to one plan and one thread (directional.h), so the expansion counter and the
     * analytic-expansion statistics are kept in it despite the const in the core's interface. */
    ap_dir *d = (ap_dir *)ctx;
    d->expanded_seen++;
    if (u == d->goal_node)
        return 0;
    if (u == d->start_node)
        return start_successors(d, out);
    uint32_t hp = u % (uint32_t)d->Hp;
    int32_t wx, wy;
    cell_xy(d, u / (uint32_t)d->Hp, &wx, &wy);
    int h0 = (int)hp % d->H, rev = (int)hp / d->H;
    uint64_t blk[64], xblk[64];
    load_blocked(d, wx, wy, blk);
    if (d->xbits != NULL)
        load_rows(d, d->xbits, wx, wy, xblk);
    const ap_profile *p = d->q.prof;
    int k = 0;
    for (uint32_t i = p->edge_first[h0]; i < p->edge_first[h0 + 1]; i++) {
        const ap_dir_edge *e = &p->edges[i];
        uint32_t cell = cell_of(d, wx + e->dx, wy + e->dy);
        if (cell == UINT32_MAX || !edge_clear(d, e, blk))
            continue;
        int crev = (e->flags & AP_EDGE_LAST_REV) ? 1 : 0;
        double mult = d->xbits != NULL ? edge_mult(d, e, xblk, wx, wy) : 1.0;
        out[k++] = (ap_succ){node_id(d, cell, e->h1, crev), edge_cost(d, e, d->Hp > d->H ? rev : -1, mult)};
    }
    ap_pose a = ap_dir_node_pose(d, u, NULL);
    double dist = hypot(d->q.goal.x - a.x, d->q.goal.y - a.y);
    /* Near the goal, at every AP_DIR_ANALYTIC_EVERY-th expansion, and within the memoised curve bounds (T
     * cells: the final curve stays short to check) wherever the obstacles do not raise the heuristic above
     * the free-space curve bound (the lattice bound is no larger: the final curve may well be clear).
     * Without the last, which nodes tried the final curve depended on the expansion count:
     * Directional24 could miss the final curve Directional8 took from the same node (48.5 tiles against
     * 37.3 on rooms); BENCHMARKS.md "Final curves where the heuristic is tight". */
    bool try_it = dist <= AP_DIR_ANALYTIC_NEAR + 4.0 * p->key.turning_radius ||
                  d->expanded_seen % AP_DIR_ANALYTIC_EVERY == 0;
    if (!try_it && dist <= (double)d->T) {
        double hc, hl;
        h_parts(d, u, &hc, &hl);
        try_it = hl <= hc;
    }
    if (try_it)
        k = try_analytic(d, &a, d->Hp > d->H ? rev : -1, out, k);
    return k;
}

/* Lower bound of the obstacle-free curve length from pose a to the goal (see directional.h). */
static double curve_lb(const ap_dir *d, const ap_pose *a)
{
    const ap_pose *g = &d->q.goal;
    double dist = hypot(g->x - a->x, g->y - a->y);
    double R = d->q.prof->key.turning_radius;
    if (d->q.goal_heading) {
        double L = d->q.prof->key.reverse ? ap_reeds_shepp_length(a, g, R) : ap_dubins_length(a, g, R);
        return L > dist ? L : dist;
    }
    if (d->q.prof->key.reverse)
        return dist;
    /* Outside both turning circles the arc+line path is the shortest to a point (free final heading). */
    for (int side = -1; side <= 1; side += 2) {
        double cx = a->x - side * R * sin(a->heading), cy = a->y + side * R * cos(a->heading);
        if (hypot(g->x - cx, g->y - cy) < R)
            return dist;
    }
    ap_segment s[2];
    size_t n = ap_curve_arc_line(a->x, a->y, a->heading, g->x, g->y, R, s, NULL);
    double L = ap_path_length(s, n);
    return L > dist ? L : dist;
}

/* Where the lattice bound of window cell (wx, wy) is kept in d->lat, or UINT32_MAX when it is outside the
 * lattice region: the member number in corridor mode, else the region index. */
static inline uint32_t lat_index(const ap_dir *d, int32_t wx, int32_t wy)
{
    if (d->has_cor)
        return cell_of(d, wx, wy);
    int32_t lx = wx - d->rx0, ly = wy - d->ry0;
    if (lx < 0 || ly < 0 || lx >= d->rw || ly >= d->rh)
        return UINT32_MAX;
    return (uint32_t)(ly * d->rw + lx);
}

static double dir_heuristic(const void *ctx, uint32_t u, uint32_t goal)
{
    (void)goal;
    ap_dir *d = (ap_dir *)ctx; /* the memo is filled lazily; see dir_successors */
    if (u == d->goal_node)
        return 0.0;
    if (u == d->start_node) {
        /* free start heading: the straight line bounds every curve from the start point */
        double h = d->q.start_heading ? curve_lb(d, &d->q.start)
                                      : hypot(d->q.goal.x - d->q.start.x, d->q.goal.y - d->q.start.y);
        double l = (double)d->lat[lat_index(d, d->scx, d->scy)] - d->start_slack;
        return l > h ? l : h;
    }
    double h, l;
    h_parts(d, u, &h, &l);
    if (l > h)
        h = l;
    return d->has_cor ? h * d->weight : h;
}

static void h_parts(ap_dir *d, uint32_t u, double *curve, double *lat)
{
    uint32_t hp = u % (uint32_t)d->Hp;
    int32_t wx, wy;
    cell_xy(d, u / (uint32_t)d->Hp, &wx, &wy);
    int h0 = (int)hp % d->H;
    int32_t ox = wx - d->gcx, oy = wy - d->gcy;
    double h;
    if (ox >= -d->T && ox <= d->T && oy >= -d->T && oy <= d->T) {
        size_t side = (size_t)(2 * d->T + 1);
        float *m = &d->memo[(((size_t)(oy + d->T)) * side + (size_t)(ox + d->T)) * (size_t)d->H + (size_t)h0];
        if (*m < 0.0f) {
            ap_pose a = ap_dir_node_pose(d, u, NULL);
            *m = ap_float_below(curve_lb(d, &a));
        }
        h = *m;
    } else {
        double ax = d->wx0 + wx + 0.5, ay = d->wy0 + wy + 0.5;
        h = hypot(d->q.goal.x - ax, d->q.goal.y - ay);
    }
    uint32_t li = lat_index(d, wx, wy);
    *curve = h;
    *lat = li != UINT32_MAX ? d->lat[li] : 0.0;
}

/* ---- the obstacle-aware lattice bound ---------------------------------------------------------------- */

static int build_lattice(ap_dir *d)
{
    const size_t nv = (size_t)(2 * d->rw + 1) * (size_t)(2 * d->rh + 1);
    /* In corridor mode only the vertices of member cells are free: at most 9 per member. */
    const size_t nfree = d->has_cor && 9 * (size_t)d->cor.n < nv ? 9 * (size_t)d->cor.n : nv;
    uint8_t *cfree = malloc((size_t)d->rw * (size_t)d->rh);
    float *dist = malloc(nv * sizeof *dist);
    /* corridor mode: one value per member (the region is the whole window), else per region cell */
    d->lat = malloc((d->has_cor ? (size_t)d->cor.n : (size_t)d->rw * (size_t)d->rh) * sizeof *d->lat);
    int st = AP_E_NOMEM;
    if (cfree == NULL || dist == NULL || d->lat == NULL)
        goto out;
    if (d->has_cor) {
        /* the corridor's cells only: the region is the whole window */
        memset(cfree, 0, (size_t)d->rw * (size_t)d->rh);
        for (uint32_t i = 0; i < d->cor.n; i++)
            cfree[d->cor.cells[i]] = 1;
    } else {
        /* the region lies inside the window and the map */
        ap_lattice_region_free(d->q.map, d->wx0 + d->rx0, d->wy0 + d->ry0, d->rw, d->rh, cfree);
    }
    if ((st = ap_lattice_distances_until(cfree, d->rw, d->rh, d->gcx - d->rx0, d->gcy - d->ry0, nfree, dist,
                                         d->q.deadline_ns)) != AP_OK)
        goto out;
    /* per cell: the lattice bound from its centre, less the goal's offset from its cell centre */
    uint32_t n_lat = d->has_cor ? d->cor.n : (uint32_t)(d->rw * d->rh);
    for (uint32_t i = 0; i < n_lat; i++) {
        uint32_t c = d->has_cor ? d->cor.cells[i] : i; /* region index (the region is the window in corridor mode) */
        d->lat[i] = ap_lattice_cell_bound(dist, d->rw, (int32_t)(c % (uint32_t)d->rw), (int32_t)(c / (uint32_t)d->rw),
                                          d->goal_slack);
    }
    st = AP_OK;
out:
    free(cfree);
    free(dist);
    return st;
}

/* ---- set-up ------------------------------------------------------------------------------------------ */

void ap_dir_free(ap_dir *d)
{
    if (d == NULL)
        return;
    AP_FREE_ALL(d->bits, d->xbits, d->memo, d->lat);
    d->xbits = NULL;
    ap_corridor_free(&d->cor);
    d->has_cor = false;
    d->bits = NULL;
    d->memo = NULL;
    d->lat = NULL;
}

static int32_t clampi(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Window mode: the largest window that fits the workspace (ww * wh * H' + 2 <= capacity), centred on the
 * start/goal midpoint; sets the window and the start/goal cells. False when they are not both inside with a
 * margin of k + 1 cells (except along the map's own edges). d->Hp and d->k must be set. */
static bool setup_window(ap_dir *d, const ap_dir_query *q)
{
    const ap_map *m = q->map;
    uint64_t cells = q->capacity > 2 ? (uint64_t)(q->capacity - 2) / (uint64_t)d->Hp : 0;
    int32_t side = (int32_t)floor(sqrt((double)cells));
    while ((uint64_t)(side + 1) * (uint64_t)(side + 1) <= cells)
        side++;
    while (side > 0 && (uint64_t)side * (uint64_t)side > cells)
        side--;
    d->ww = side < m->width ? side : m->width;
    int64_t wh = d->ww > 0 ? (int64_t)(cells / (uint64_t)d->ww) : 0;
    d->wh = (int32_t)(wh < m->height ? wh : m->height);
    int32_t sx = (int32_t)q->start.x, sy = (int32_t)q->start.y, gx = (int32_t)q->goal.x, gy = (int32_t)q->goal.y;
    d->wx0 = clampi((sx + gx) / 2 - d->ww / 2, 0, m->width - d->ww);
    d->wy0 = clampi((sy + gy) / 2 - d->wh / 2, 0, m->height - d->wh);
    d->scx = sx - d->wx0;
    d->scy = sy - d->wy0;
    d->gcx = gx - d->wx0;
    d->gcy = gy - d->wy0;
    int32_t mg = d->k + 1;
    int32_t lo_x = d->wx0 > 0 ? mg : 0, hi_x = d->wx0 + d->ww < m->width ? d->ww - mg : d->ww;
    int32_t lo_y = d->wy0 > 0 ? mg : 0, hi_y = d->wy0 + d->wh < m->height ? d->wh - mg : d->wh;
    return d->ww > 0 && d->wh > 0 && d->scx >= lo_x && d->scx < hi_x && d->gcx >= lo_x && d->gcx < hi_x &&
           d->scy >= lo_y && d->scy < hi_y && d->gcy >= lo_y && d->gcy < hi_y;
}

bool ap_dir_window_fits(const ap_dir_query *q)
{
    if (q->prof == NULL || q->map == NULL)
        return false;
    ap_dir d;
    memset(&d, 0, sizeof d);
    d.H = q->prof->key.headings;
    d.Hp = d.H * (q->prof->key.reverse ? 2 : 1);
    d.k = q->prof->k;
    return setup_window(&d, q);
}

/* Corridor mode: the corridor and its window; the start and goal cells must be members. */
static int setup_corridor(ap_dir *d, const ap_dir_query *q, const char **field)
{
    int st = ap_corridor_build(&d->cor, q->map, q->corridor, q->corridor_n, q->corridor_half);
    if (st == AP_E_NOMEM)
        return st;
    d->has_cor = st == AP_OK;
    d->weight = AP_DIR_CORRIDOR_WEIGHT;
    d->wx0 = d->cor.x0;
    d->wy0 = d->cor.y0;
    d->ww = d->cor.w;
    d->wh = d->cor.h;
    d->scx = (int32_t)q->start.x - d->wx0;
    d->scy = (int32_t)q->start.y - d->wy0;
    d->gcx = (int32_t)q->goal.x - d->wx0;
    d->gcy = (int32_t)q->goal.y - d->wy0;
    *field = "goal";
    if (st != AP_OK || cell_of(d, d->scx, d->scy) == UINT32_MAX || cell_of(d, d->gcx, d->gcy) == UINT32_MAX) {
        snprintf(d->message, sizeof d->message, "the corridor misses the start or the goal cell");
        return AP_E_INVALID_REQUEST;
    }
    if ((uint64_t)d->cor.n * (uint64_t)d->Hp + 2 > q->capacity) {
        snprintf(d->message, sizeof d->message, "corridor too large for directional search (%u cells)",
                 (unsigned)d->cor.n);
        return AP_E_INVALID_REQUEST;
    }
    *field = NULL;
    return AP_OK;
}

int ap_dir_init(ap_dir *d, ap_domain *dom, const ap_dir_query *q, const char **field)
{
    memset(d, 0, sizeof *d);
    *field = NULL;
    if (q->prof == NULL) {
        *field = "unit.turning_radius";
        return AP_E_INVALID_REQUEST;
    }
    const ap_map *m = q->map;
    d->q = *q;
    d->q.corridor = NULL; /* borrowed for set-up only */
    if (!(d->q.reverse_penalty >= 1.0))
        d->q.reverse_penalty = 1.0;
    d->H = q->prof->key.headings;
    d->Hp = d->H * (q->prof->key.reverse ? 2 : 1);
    d->S = q->prof->S;
    d->k = q->prof->k;
    int32_t sx = (int32_t)q->start.x, sy = (int32_t)q->start.y, gx = (int32_t)q->goal.x, gy = (int32_t)q->goal.y;
    if (q->corridor_n > 0) {
        int st = setup_corridor(d, q, field);
        if (st != AP_OK) {
            ap_dir_free(d);
            return st;
        }
    } else if (!setup_window(d, q)) {
        snprintf(d->message, sizeof d->message,
                 "start and goal too far apart for directional search (window %d tiles)",
                 (int)(d->ww < d->wh ? d->ww : d->wh));
        *field = "goal";
        return AP_E_INVALID_REQUEST;
    }
    uint32_t n_cells = d->has_cor ? d->cor.n : (uint32_t)d->ww * (uint32_t)d->wh;
    d->start_node = n_cells * (uint32_t)d->Hp;
    d->goal_node = d->start_node + 1;

    /* Blocked bitmap over the window plus S cells each side (off-map = blocked). */
    const int S = d->S;
    d->bw = (uint32_t)((d->ww + 2 * S + 63) / 64 + 1);
    size_t rows = (size_t)(d->wh + 2 * S);
    d->bits = calloc(rows * d->bw, sizeof *d->bits);
    if (m->weighted)
        d->xbits = calloc(rows * d->bw, sizeof *d->xbits);
    d->T = AP_DIR_MEMO_T;
    size_t memo_n = (size_t)(2 * d->T + 1) * (size_t)(2 * d->T + 1) * (size_t)d->H;
    d->memo = malloc(memo_n * sizeof *d->memo);
    if (d->bits == NULL || d->memo == NULL || (m->weighted && d->xbits == NULL)) {
        ap_dir_free(d);
        return AP_E_NOMEM;
    }
    for (size_t i = 0; i < memo_n; i++)
        d->memo[i] = -1.0f;
    for (size_t r = 0; r < rows; r++) {
        int32_t my = d->wy0 + (int32_t)r - S;
        uint64_t *w = d->bits + r * d->bw;
        bool row_in = my >= 0 && my < m->height;
        const uint8_t *pass = row_in ? m->pass + ap_map_index(m, 0, my) : NULL; /* column 0 of map row my */
        for (int32_t c = 0; c < d->ww + 2 * S; c++) {
            int32_t mx = d->wx0 + c - S;
            if (!row_in || mx < 0 || mx >= m->width || pass[mx] == 0)
                w[c >> 6] |= 1ull << (c & 63);
            else if (d->xbits != NULL && m->cost_of[m->kind[ap_map_index(m, mx, my)]] > 1.0)
                d->xbits[r * d->bw + (size_t)(c >> 6)] |= 1ull << (c & 63);
        }
    }

    /* Lattice bound over the start/goal box plus a margin, inside the window. */
    int32_t margin = d->has_cor ? d->ww + d->wh : 4 + (int32_t)ceil(2.0 * q->prof->key.turning_radius);
    d->rx0 = clampi((d->scx < d->gcx ? d->scx : d->gcx) - margin, 0, d->ww - 1);
    d->ry0 = clampi((d->scy < d->gcy ? d->scy : d->gcy) - margin, 0, d->wh - 1);
    int32_t rx1 = clampi((d->scx > d->gcx ? d->scx : d->gcx) + margin, 0, d->ww - 1);
    int32_t ry1 = clampi((d->scy > d->gcy ? d->scy : d->gcy) + margin, 0, d->wh - 1);
    d->rw = rx1 - d->rx0 + 1;
    d->rh = ry1 - d->ry0 + 1;
    d->goal_slack = hypot(q->goal.x - (gx + 0.5), q->goal.y - (gy + 0.5));
    d->start_slack = hypot(q->start.x - (sx + 0.5), q->start.y - (sy + 0.5));
    int st = build_lattice(d);
    if (st != AP_OK) {
        ap_dir_free(d);
        return st;
    }

    *dom = (ap_domain){.ctx = d}; /* every other field zero: no run hook, no payload */
    dom->node_count = d->goal_node + 1;
    dom->max_succ = (2 * d->k + 1) * (2 * d->k + 1) * d->H * (q->prof->key.reverse ? 2 : 1) + 1;
    dom->successors = dir_successors;
    dom->heuristic = dir_heuristic;
    return AP_OK;
}

/* ---- path reconstruction ------------------------------------------------------------------------------ */

/* Segments of the move u -> v (the cheapest clear variant, as the search chose). */
static int move_segments(const ap_dir *d, uint32_t u, uint32_t v, ap_segment *out)
{
    int urev, vrev;
    ap_pose a = ap_dir_node_pose(d, u, &urev);
    ap_pose b = ap_dir_node_pose(d, v, &vrev);
    if (d->Hp == d->H)
        urev = -1;
    if (v == d->goal_node) {
        if (u == d->start_node && !d->q.start_heading)
            a.heading = d->start_h; /* the heading start_analytic_free chose */
        return goal_curve(d, &a, out);
    }
    if (u == d->start_node) {
        double best = INFINITY;
        int bn = -1;
        for (int variant = 0; variant < (d->q.prof->key.reverse ? 2 : 1); variant++) {
            ap_segment s[AP_RS_MAX_PIECES];
            int n = start_curve(d, &b, variant, s);
            if (n == 0 && !d->q.start_heading)
                return 0; /* b at the start point (start_successors) */
            if (n <= 0 || !segs_clear(d, s, (size_t)n))
                continue;
            if (d->Hp > d->H && (s[n - 1].reverse ? 1 : 0) != vrev)
                continue;
            double c = seg_cost(d, s, (size_t)n, -1);
            if (c < best) {
                best = c;
                bn = n;
                memcpy(out, s, (size_t)n * sizeof *s);
            }
        }
        return bn;
    }
    int32_t ux, uy, vx, vy;
    cell_xy(d, u / (uint32_t)d->Hp, &ux, &uy);
    cell_xy(d, v / (uint32_t)d->Hp, &vx, &vy);
    int h0 = (int)(u % (uint32_t)d->Hp) % d->H, h1 = (int)(v % (uint32_t)d->Hp) % d->H;
    uint64_t blk[64], xblk[64];
    load_blocked(d, ux, uy, blk);
    if (d->xbits != NULL)
        load_rows(d, d->xbits, ux, uy, xblk);
    const ap_profile *p = d->q.prof;
    const ap_dir_edge *best = NULL;
    double bc = INFINITY;
    for (uint32_t i = p->edge_first[h0]; i < p->edge_first[h0 + 1]; i++) {
        const ap_dir_edge *e = &p->edges[i];
        if (e->dx != vx - ux || e->dy != vy - uy || e->h1 != h1)
            continue;
        if (d->Hp > d->H && ((e->flags & AP_EDGE_LAST_REV) ? 1 : 0) != vrev)
            continue;
        if (!edge_clear(d, e, blk))
            continue;
        double c = edge_cost(d, e, urev, d->xbits != NULL ? edge_mult(d, e, xblk, ux, uy) : 1.0);
        if (c < bc) {
            bc = c;
            best = e;
        }
    }
    if (best == NULL)
        return -1;
    return (int)pose_curve(d, &a, &b, (best->flags & AP_EDGE_RS) ? 1 : 0, out);
}

double ap_dir_leave_heading(const ap_dir *d, uint32_t next)
{
    if (d->q.start_heading)
        return d->q.start.heading;
    ap_segment s[AP_RS_MAX_PIECES];
    const int n = move_segments(d, d->start_node, next, s);
    return n > 0 ? s[0].heading : ap_dir_node_pose(d, next, NULL).heading;
}

int ap_dir_path(const ap_dir *d, const uint32_t *nodes, size_t n, ap_segment **segs, size_t *n_segs,
                double (**wps)[2], size_t *n_wps)
{
    *segs = NULL;
    *wps = NULL;
    *n_segs = *n_wps = 0;
    if (n < 2)
        return AP_E_INTERNAL;
    ap_segment *s = malloc((n - 1) * AP_RS_MAX_PIECES * sizeof *s);
    double(*w)[2] = malloc(n * sizeof *w);
    if (s == NULL || w == NULL) {
        free(s);
        free(w);
        return AP_E_NOMEM;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        ap_pose p = ap_dir_node_pose(d, nodes[i], NULL);
        w[i][0] = p.x;
        w[i][1] = p.y;
        if (i + 1 < n) {
            int c = move_segments(d, nodes[i], nodes[i + 1], s + k);
            if (c < 0) {
                free(s);
                free(w);
                return AP_E_INTERNAL;
            }
            k += (size_t)c;
        }
    }
    *segs = s;
    *n_segs = k;
    *wps = w;
    *n_wps = ap_waypoints_dedupe(w, n); /* (a free start faces its lattice node in place: one waypoint) */
    return AP_OK;
}
