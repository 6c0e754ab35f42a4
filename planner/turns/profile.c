/* profile.c — Directional A* edge and hit-check tables per unit profile, and their LRU cache.
 *
 * Source: Pinter, "Toward More Realistic Pathfinding", "Legal Turns: The Directional A* Algorithm"
 * ("Directional Curved Paths", "Expanded searching to surrounding tiles", "Using a hit-check table",
 * "Other options: backing up"). See profile.h for the layout and why it differs from Pinter's 11x11 field.
 */
#include "profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../world/collide.h"
#include "../geom/dubins.h"
#include "../geom/reeds_shepp.h"
#include "../search/search.h"
#include "../base/limits.h"
#include "../base/status.h"
#include "../base/mem.h"

/* Hit-check masks use the unit's radius plus this (tiles): conservative against the rounding difference
 * between the table's curve (built at the origin) and the same curve at absolute map coordinates. */
#define AP_PROFILE_MARGIN 1e-7
#define AP_PROFILE_MAX_S 31

bool ap_profile_key_valid(const ap_profile_key *k)
{
    return k != NULL && isfinite(k->radius) && k->radius >= 0.0 && k->radius <= AP_MAX_UNIT_RADIUS &&
           isfinite(k->turning_radius) && k->turning_radius > 0.0 && k->turning_radius <= AP_MAX_TURNING_RADIUS &&
           (k->headings == AP_HEADINGS_COARSE || k->headings == AP_HEADINGS_FINE) &&
           (k->neighbours == 8 || k->neighbours == 24 || k->neighbours == 48);
}

double ap_profile_heading(int h, int H)
{
    return ap_angle_wrap(2.0 * M_PI * (double)h / (double)H);
}

void ap_profile_free(ap_profile *p)
{
    if (p == NULL)
        return;
    free(p->edges);
    free(p->rows);
    free(p);
}

/* Growable scratch of cells (relative offsets) per edge during the build. */
typedef struct cellbuf {
    int32_t (*c)[2];
    size_t n, cap;
} cellbuf;

static bool cellbuf_reserve(cellbuf *b, size_t extra)
{
    if (b->n + extra <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + extra)
        cap *= 2;
    void *p = realloc(b->c, cap * sizeof *b->c);
    if (p == NULL)
        return false;
    b->c = p;
    b->cap = cap;
    return true;
}

/* Append the cells ap_segment_cells lists for one segment, with one call in the common case (the buffer is
 * grown ahead; a second call only when a segment lists more cells than the spare room). */
static bool add_segment_cells(cellbuf *b, const ap_segment *s, double r)
{
    if (!cellbuf_reserve(b, 256))
        return false;
    size_t need = ap_segment_cells(s, r, b->c + b->n, b->cap - b->n);
    if (need > b->cap - b->n) {
        if (!cellbuf_reserve(b, need))
            return false;
        ap_segment_cells(s, r, b->c + b->n, need);
    }
    b->n += need;
    return true;
}

/* Append the cells the disc touches along segs (duplicates allowed; the mask ORs them).
 *
 * ap_segment_cells tests every cell of the segment's bounding box with the exact distance, and an arc's box
 * is that of its whole circle once it sweeps past the axis points (half of a profile's arcs sweep more than
 * pi), where most cells are far from the arc and each test costs several atan2. So an arc is cut into
 * pieces about AP_PROFILE_PIECE tiles long on the same circle: the arc is the union of its pieces, so a cell
 * is within distance r of the arc exactly when it is within r of some piece, and the union of the pieces'
 * cell lists is the arc's own list (the piece ends are computed on the circle, off by rounding only, ~1e-15
 * tiles, far inside the 1e-7 margin that keeps the masks conservative). The boxes shrink toward the swept
 * band. Measured (D48, 16 headings, R = 4): 82 ms before, 41 ms with one ap_segment_cells call per piece
 * instead of two (count, then fill) plus pieces of 3 tiles; shorter pieces measured slower (more overlap
 * between the boxes of neighbouring pieces). Later (collide.c: annulus pre-filter in ap_segment_cells and
 * fast_atan2 in its arc tests, cells unchanged): callgrind 475 M -> 369 M Ir per build; bench_directional
 * slowest build (best of 3; median of 3 runs interleaved with the previous build) 50.2 ms -> 41.2 ms. */
#define AP_PROFILE_PIECE 3.0
static bool add_cells(cellbuf *b, const ap_segment *segs, size_t n, double r)
{
    for (size_t i = 0; i < n; i++) {
        const ap_segment *s = &segs[i];
        double len = s->radius * fabs(s->sweep);
        int m = s->type == AP_SEG_ARC && s->radius > 0.0 && isfinite(len) ? (int)ceil(len / AP_PROFILE_PIECE) : 1;
        if (m <= 1 || m > 1024) {
            if (!add_segment_cells(b, s, r))
                return false;
            continue;
        }
        double t0 = atan2(s->y0 - s->cy, s->x0 - s->cx);
        double px = s->x0, py = s->y0;
        for (int k = 0; k < m; k++) {
            ap_segment piece = *s;
            double t1 = t0 + s->sweep * (double)(k + 1) / (double)m;
            piece.x0 = px;
            piece.y0 = py;
            piece.sweep = s->sweep / (double)m;
            piece.length = s->radius * fabs(piece.sweep);
            piece.x1 = k + 1 == m ? s->x1 : s->cx + s->radius * cos(t1);
            piece.y1 = k + 1 == m ? s->y1 : s->cy + s->radius * sin(t1);
            if (!add_segment_cells(b, &piece, r))
                return false;
            px = piece.x1;
            py = piece.y1;
        }
    }
    return true;
}

/* Edge attributes from its segments: driven lengths, turning, direction flags, cusps. */
static void edge_attrs(ap_dir_edge *e, const ap_segment *segs, size_t n, bool rs)
{
    double lf = 0.0, lr = 0.0, turn = 0.0;
    int cusps = 0;
    for (size_t i = 0; i < n; i++) {
        if (segs[i].reverse)
            lr += segs[i].length;
        else
            lf += segs[i].length;
        if (segs[i].type == AP_SEG_ARC)
            turn += fabs(segs[i].sweep);
        if (i > 0 && segs[i].reverse != segs[i - 1].reverse)
            cusps++;
    }
    e->len_fwd = (float)lf;
    e->len_rev = (float)lr;
    e->turn = (float)turn;
    e->cusps = (uint8_t)cusps;
    e->flags = (uint8_t)((n > 0 && segs[0].reverse ? AP_EDGE_FIRST_REV : 0u) |
                         (n > 0 && segs[n - 1].reverse ? AP_EDGE_LAST_REV : 0u) | (rs ? AP_EDGE_RS : 0u));
}

/* The largest |x| or |y| of the cell offsets b->c[from ..]: how far a curve's cells reach from the
 * parent, checked against AP_PROFILE_MAX_S. */
/* Does some point of the curve (n segments; the parent's cell is (0, 0)) lie in a cell more than lim cells
 * away in x or y? Then the swept disc's cells (which include the cell of every point of the curve) reach
 * beyond lim too, and the edge is dropped without enumerating them: a loop of a large turning radius (64)
 * a few cells away spans hundreds of tiles, and enumerating its cells for a wide disc took seconds a build
 * (radius 16, turning radius 64, 16 headings, Directional8: 9.2 s, every edge but eight dropped). Exact
 * extremes: segment ends, and an arc's axis points within its sweep; 1e-9 tiles of slack against rounding. */
static bool curve_beyond(const ap_segment *segs, size_t n, int lim)
{
    const double hi = lim + 1.0 + 1e-9, lo = -(double)lim - 1e-9;
    for (size_t i = 0; i < n; i++) {
        const ap_segment *s = &segs[i];
        double px[6] = {s->x0, s->x1}, py[6] = {s->y0, s->y1};
        int np = 2;
        if (s->type == AP_SEG_ARC && s->radius > 0.0) {
            const double t0 = atan2(s->y0 - s->cy, s->x0 - s->cx);
            for (int q = 0; q < 4; q++) {
                const double phi = q * M_PI_2;
                double off = fmod(s->sweep > 0.0 ? phi - t0 : t0 - phi, 2.0 * M_PI);
                if (off < 0.0)
                    off += 2.0 * M_PI;
                if (off <= fabs(s->sweep)) {
                    px[np] = s->cx + s->radius * cos(phi);
                    py[np++] = s->cy + s->radius * sin(phi);
                }
            }
        }
        for (int k = 0; k < np; k++)
            if (px[k] >= hi || px[k] < lo || py[k] >= hi || py[k] < lo)
                return true;
    }
    return false;
}

static int cells_extent(const cellbuf *b, size_t from)
{
    int ext = 0;
    for (size_t i = from; i < b->n; i++) {
        int ex = abs(b->c[i][0]), ey = abs(b->c[i][1]);
        ext = ex > ext ? ex : ext;
        ext = ey > ext ? ey : ext;
    }
    return ext;
}

/* True when curves a (na pieces) and b (nb pieces) have the same piece kinds, lengths and directions of
 * travel and, with sign +1, the same sweeps (a tie between words broke the same way), or with sign -1
 * every turn mirrored (sweep of the opposite sign, same radius: b is a reflected). Tolerance 1e-9 tiles /
 * radians: the two are computed independently, and a mismatch only means the cells are enumerated anew. */
static bool curves_match(const ap_segment *a, size_t na, const ap_segment *b, size_t nb, double sign)
{
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++) {
        if (a[i].type != b[i].type || a[i].reverse != b[i].reverse || fabs(a[i].length - b[i].length) > 1e-9)
            return false;
        if (a[i].type == AP_SEG_ARC &&
            (fabs(a[i].sweep - sign * b[i].sweep) > 1e-9 || (sign < 0.0 && a[i].radius != b[i].radius)))
            return false;
    }
    return true;
}

/* Turn cell offset (x, y) by q quarter turns about the parent's centre: (x, y) -> (-y, x) per turn
 * (heading increases from +x toward +y, and cell (i, j) spans [i, i+1] x [j, j+1] around centre (0.5, 0.5)). */
static void rot(int q, int *x, int *y)
{
    for (int i = 0; i < q; i++) {
        int t = *x;
        *x = -*y;
        *y = t;
    }
}

int ap_profile_build(const ap_profile_key *key, ap_profile **out)
{
    return ap_profile_build_until(key, 0, out);
}

/* The deadline (ap_deadline_passed, ~20 ns) is read before every edge's cells are enumerated (pass 1 and the
 * tie pass) and every 256 edges of the mask pass: an edge's cells take microseconds, but a whole build of a
 * wide disc with a large turning radius takes seconds (radius 16, turning radius 64, 16 headings: 4.2 s on
 * the arena), and a helper's query with a 1 ms deadline took them all when it was read once per start
 * heading of pass 1 (2-4 reads a build). */
int ap_profile_build_until(const ap_profile_key *key, uint64_t deadline_ns, ap_profile **out)
{
    *out = NULL;
    if (!ap_profile_key_valid(key))
        return AP_E_INVALID_REQUEST;
    int fail_st = AP_E_NOMEM;
    uint64_t t0 = ap_clock_ns();
    const int H = key->headings;
    const int k = key->neighbours == 8 ? 1 : key->neighbours == 24 ? 2 : 3;
    const double R = key->turning_radius, rad = key->radius + AP_PROFILE_MARGIN;
    const size_t per_h = (size_t)key->neighbours * (size_t)H * (key->reverse ? 2u : 1u);
    const size_t max_edges = per_h * (size_t)H; /* before the quarter-turn symmetry, an upper bound */

    int32_t *edge_idx = NULL;          /* pass 1: base edge by (h0, dy, dx, h1, variant), -1 = none */
    ap_segment *base_segs = NULL;      /* the base edges' curves (AP_RS_MAX_PIECES each) */
    uint8_t *base_nsegs = NULL;
    size_t *own_lo = NULL, *own_hi = NULL; /* turned edges with cells of their own (ties), else SIZE_MAX */
    ap_profile *p = calloc(1, sizeof *p);
    size_t *cell_first = malloc((max_edges + 1) * sizeof *cell_first);
    cellbuf cb = {0};
    if (p == NULL || cell_first == NULL)
        goto nomem;
    p->key = *key;
    atomic_init(&p->refs, 1); /* the builder's: ap_profile_release or ap_profile_free */
    p->k = k;
    p->edges = malloc(max_edges * sizeof *p->edges);
    if (p->edges == NULL)
        goto nomem;

    /* Pass 1: the edges of the first quarter of start headings, with their touched cells. The other three
     * quarters are the same edges turned by 90, 180 and 270 degrees about the parent's centre, which maps
     * cells onto cells exactly (cell (i, j) -> (-j, i)), so they are derived instead of recomputed: a 4x
     * faster build with identical masks up to rounding (which the 1e-7 margin covers). */
    const int Q = H / 4;
    int S = k;
    uint32_t nb = 0;
    uint32_t base_first[5];
    /* Mirror symmetry on top: heading 0 is symmetric about the x axis through the parent's centre (M: cell
     * (i, j) -> (i, -j), heading h -> -h), and the other first-quarter headings pair up about the diagonal
     * (T: cell (i, j) -> (j, i), heading h -> Q - h; heading Q/2 with itself). An edge whose reflected
     * partner was built already takes the partner's cells reflected (reflections map cells onto cells
     * exactly), but only after checking that its own shortest curve is the partner's reflected — the same
     * pieces with mirrored turns — since ties between words (LRL / RLR loops) may break either way. About
     * half of the cell enumeration is saved. */
    const size_t n_idx = (size_t)Q * (size_t)(2 * k + 1) * (size_t)(2 * k + 1) * (size_t)H * 2u;
    const size_t max_base = (size_t)Q * per_h;
    edge_idx = malloc(n_idx * sizeof *edge_idx);
    base_segs = malloc(max_base * AP_RS_MAX_PIECES * sizeof *base_segs);
    base_nsegs = malloc(max_base);
    if (edge_idx == NULL || base_segs == NULL || base_nsegs == NULL)
        goto nomem;
    for (size_t i = 0; i < n_idx; i++)
        edge_idx[i] = -1;
    for (int h0 = 0; h0 < Q; h0++) {
        if (ap_deadline_passed(deadline_ns)) {
            fail_st = AP_TIMEOUT;
            goto nomem;
        }
        const bool refl_M = h0 == 0;
        base_first[h0] = nb;
        ap_pose a = {0.5, 0.5, ap_profile_heading(h0, H)};
        for (int dy = -k; dy <= k; dy++) {
            for (int dx = -k; dx <= k; dx++) {
                if (dx == 0 && dy == 0)
                    continue;
                for (int h1 = 0; h1 < H; h1++) {
                    ap_pose b = {0.5 + dx, 0.5 + dy, ap_profile_heading(h1, H)};
                    for (int variant = 0; variant < (key->reverse ? 2 : 1); variant++) {
                        if (ap_deadline_passed(deadline_ns)) {
                            fail_st = AP_TIMEOUT;
                            goto nomem;
                        }
                        ap_segment segs[AP_RS_MAX_PIECES];
                        size_t n;
                        if (variant == 0) {
                            ap_dubins d;
                            if (ap_dubins_shortest(&a, &b, R, &d) != 0)
                                continue;
                            n = ap_dubins_segments(&d, &b, segs);
                        } else {
                            ap_reeds_shepp rs;
                            if (ap_reeds_shepp_shortest(&a, &b, R, &rs) != 0)
                                continue;
                            n = ap_reeds_shepp_segments(&rs, &b, segs);
                            bool any_rev = false;
                            for (size_t i = 0; i < n; i++)
                                any_rev |= segs[i].reverse;
                            if (!any_rev)
                                continue; /* the forward Dubins edge covers it */
                        }
                        size_t c0 = cb.n;
                        /* Mirror symmetry: reuse the reflected cells of the partner edge when it was built
                         * already and its curve is this one reflected (same pieces, turns mirrored). */
                        int32_t partner = -1;
                        int pdx = refl_M ? dx : dy, pdy = refl_M ? -dy : dx;
                        int ph1 = refl_M ? (H - h1) % H : (Q - h1 + H) % H;
                        int ph0 = refl_M ? h0 : Q - h0;
                        if (ph0 >= 0 && ph0 < Q)
                            partner = edge_idx[(((size_t)ph0 * (size_t)(2 * k + 1) + (size_t)(pdy + k)) *
                                                    (size_t)(2 * k + 1) +
                                                (size_t)(pdx + k)) *
                                                   (size_t)H * 2u +
                                               (size_t)ph1 * 2u + (size_t)variant];
                        if (curve_beyond(segs, n, AP_PROFILE_MAX_S)) {
                            p->dropped += 4; /* as the extent test below would, without the cells */
                            continue;
                        }
                        if (partner >= 0 && curves_match(segs, n, &base_segs[(size_t)partner * AP_RS_MAX_PIECES],
                                                         base_nsegs[partner], -1.0)) {
                            size_t from = cell_first[partner], to = cell_first[partner + 1];
                            if (!cellbuf_reserve(&cb, to - from))
                                goto nomem;
                            for (size_t c = from; c < to; c++) {
                                int32_t x = cb.c[c][0], y = cb.c[c][1];
                                cb.c[cb.n][0] = refl_M ? x : y;
                                cb.c[cb.n][1] = refl_M ? -y : x;
                                cb.n++;
                            }
                        } else if (!add_cells(&cb, segs, n, rad)) {
                            goto nomem;
                        }
                        const int ext = cells_extent(&cb, c0);
                        if (ext > AP_PROFILE_MAX_S) {
                            cb.n = c0;
                            p->dropped += 4;
                            continue;
                        }
                        S = ext > S ? ext : S;
                        ap_dir_edge *e = &p->edges[nb];
                        memset(e, 0, sizeof *e);
                        e->dx = (int8_t)dx;
                        e->dy = (int8_t)dy;
                        e->h1 = (uint8_t)h1;
                        edge_attrs(e, segs, n, variant == 1);
                        cell_first[nb] = c0;
                        memcpy(&base_segs[(size_t)nb * AP_RS_MAX_PIECES], segs, n * sizeof *segs);
                        base_nsegs[nb] = (uint8_t)n;
                        edge_idx[(((size_t)h0 * (size_t)(2 * k + 1) + (size_t)(dy + k)) * (size_t)(2 * k + 1) +
                                  (size_t)(dx + k)) *
                                     (size_t)H * 2u +
                                 (size_t)h1 * 2u + (size_t)variant] = (int32_t)nb;
                        nb++;
                        cell_first[nb] = cb.n;
                    }
                }
            }
        }
    }
    free(edge_idx);
    edge_idx = NULL;
    base_first[Q] = nb;
    const uint32_t ne = 4 * nb;
    p->n_edges = ne;
    p->S = S;
    /* Final order: by start heading; quarter q of the headings is the base turned q quarter turns. */
    for (int q = 3; q >= 0; q--) {
        for (uint32_t b = 0; b < nb; b++) {
            ap_dir_edge e = p->edges[b];
            int x = e.dx, y = e.dy;
            rot(q, &x, &y);
            e.dx = (int8_t)x;
            e.dy = (int8_t)y;
            e.h1 = (uint8_t)((e.h1 + q * Q) % H);
            p->edges[(uint32_t)q * nb + b] = e;
        }
    }
    for (int h0 = 0; h0 <= H; h0++)
        p->edge_first[h0] = (uint32_t)(h0 / Q) * nb + base_first[h0 % Q];
    p->edge_first[H] = ne;

    /* The quarter-turn derivation assumes the turned curve is the one a search later reconstructs from the
     * turned poses (ap_dir_path recomputes the shortest curve). Where two words tie in length (LSL against
     * RSR loops of equal length, found by test_profile_masks_exact) the tie may break the other way for the
     * turned poses; such an edge gets the cells of its own curve instead. One closed-form solve per edge. */
    own_lo = malloc((ne ? ne : 1) * sizeof *own_lo);
    own_hi = malloc((ne ? ne : 1) * sizeof *own_hi);
    if (own_lo == NULL || own_hi == NULL)
        goto nomem;
    for (uint32_t i = 0; i < ne; i++) {
        own_lo[i] = SIZE_MAX;
        own_hi[i] = 0;
        if (ap_deadline_passed(deadline_ns)) {
            fail_st = AP_TIMEOUT;
            goto nomem;
        }
        if (i < nb)
            continue;
        uint32_t b = i % nb;
        int hb = 0;
        while (hb + 1 < Q && base_first[hb + 1] <= b)
            hb++;
        const ap_dir_edge *e = &p->edges[i];
        int hq = (int)(i / nb) * Q + hb;
        ap_pose a = {0.5, 0.5, ap_profile_heading(hq, H)};
        ap_pose bb = {0.5 + e->dx, 0.5 + e->dy, ap_profile_heading(e->h1, H)};
        ap_segment segs[AP_RS_MAX_PIECES];
        size_t n = 0;
        if (e->flags & AP_EDGE_RS) {
            ap_reeds_shepp rs;
            if (ap_reeds_shepp_shortest(&a, &bb, R, &rs) == 0)
                n = ap_reeds_shepp_segments(&rs, &bb, segs);
        } else {
            ap_dubins d;
            if (ap_dubins_shortest(&a, &bb, R, &d) == 0)
                n = ap_dubins_segments(&d, &bb, segs);
        }
        if (n == 0 || curves_match(segs, n, &base_segs[(size_t)b * AP_RS_MAX_PIECES], base_nsegs[b], 1.0) ||
            curve_beyond(segs, n, AP_PROFILE_MAX_S)) /* beyond: keep the turned cells, as below */
            continue;
        size_t c0 = cb.n;
        if (!add_cells(&cb, segs, n, rad))
            goto nomem;
        const int ext = cells_extent(&cb, c0);
        if (ext > AP_PROFILE_MAX_S) { /* keep the turned cells (only loops of huge turning radii get here) */
            cb.n = c0;
            continue;
        }
        S = ext > S ? ext : S;
        own_lo[i] = c0;
        own_hi[i] = cb.n;
    }
    p->S = S;
    free(base_segs);
    free(base_nsegs);
    base_segs = NULL;
    base_nsegs = NULL;

    /* Pass 2: masks. Rows are stored only for each edge's row range. */
    size_t total_rows = 0;
    for (uint32_t i = 0; i < ne; i++) {
        if ((i & 255u) == 0 && ap_deadline_passed(deadline_ns)) {
            fail_st = AP_TIMEOUT;
            goto nomem;
        }
        int q = (int)(i / nb);
        uint32_t b = i % nb;
        int lo = S, hi = -S;
        bool own = own_lo[i] != SIZE_MAX;
        size_t from = own ? own_lo[i] : cell_first[b], to = own ? own_hi[i] : cell_first[b + 1];
        for (size_t c = from; c < to; c++) {
            int x = cb.c[c][0], y = cb.c[c][1];
            rot(own ? 0 : q, &x, &y);
            lo = y < lo ? y : lo;
            hi = y > hi ? y : hi;
        }
        if (hi < lo)
            lo = hi = 0;
        p->edges[i].row0 = (uint8_t)(lo + S);
        p->edges[i].nrows = (uint8_t)(hi - lo + 1);
        p->edges[i].rows = (uint32_t)total_rows;
        total_rows += (size_t)(hi - lo + 1);
    }
    p->rows = calloc(total_rows ? total_rows : 1, sizeof *p->rows);
    if (p->rows == NULL)
        goto nomem;
    p->n_rows = total_rows;
    for (uint32_t i = 0; i < ne; i++) {
        if ((i & 255u) == 0 && ap_deadline_passed(deadline_ns)) {
            fail_st = AP_TIMEOUT;
            goto nomem;
        }
        int q = (int)(i / nb);
        uint32_t b = i % nb;
        const ap_dir_edge *e = &p->edges[i];
        bool own = own_lo[i] != SIZE_MAX;
        size_t from = own ? own_lo[i] : cell_first[b], to = own ? own_hi[i] : cell_first[b + 1];
        for (size_t c = from; c < to; c++) {
            int x = cb.c[c][0], y = cb.c[c][1];
            rot(own ? 0 : q, &x, &y);
            p->rows[e->rows + (size_t)(y + S - e->row0)] |= 1ull << (x + S);
        }
    }
    /* Shrink the edge array to what was kept. */
    void *shr = realloc(p->edges, (ne ? ne : 1) * sizeof *p->edges);
    if (shr != NULL)
        p->edges = shr;
    p->bytes = sizeof *p + (size_t)ne * sizeof *p->edges + total_rows * sizeof *p->rows;
    free(own_lo);
    free(own_hi);
    free(cell_first);
    free(cb.c);
    p->build_seconds = (double)(ap_clock_ns() - t0) / 1e9;
    *out = p;
    return AP_OK;
nomem: /* and AP_TIMEOUT: fail_st says which */
    AP_FREE_ALL(edge_idx, base_segs, base_nsegs, own_lo, own_hi, cell_first, cb.c);
    ap_profile_free(p);
    return fail_st;
}

bool ap_profile_key_equal(const ap_profile_key *a, const ap_profile_key *b)
{
    return a->radius == b->radius && a->turning_radius == b->turning_radius && a->headings == b->headings &&
           a->neighbours == b->neighbours && a->reverse == b->reverse;
}

ap_profile_cache *ap_profile_cache_default(void)
{
    static ap_profile_cache cache; /* zero: unlocked, every slot NULL */
    return &cache;
}

/* The slots are touched for a few dozen loads and stores per lookup, and never during a build: a spin lock
 * costs less than a mutex here and keeps planner/ free of a thread library. */
static void lock(ap_profile_cache *c)
{
    while (atomic_flag_test_and_set_explicit(&c->lock, memory_order_acquire))
        ;
}

static void unlock(ap_profile_cache *c)
{
    atomic_flag_clear_explicit(&c->lock, memory_order_release);
}

/* Under the lock: the slot holding key k, or -1. */
static int find_locked(const ap_profile_cache *c, const ap_profile_key *k)
{
    for (int i = 0; i < AP_PROFILE_CACHE_SLOTS; i++)
        if (c->slot[i] != NULL && ap_profile_key_equal(&c->slot[i]->key, k))
            return i;
    return -1;
}

/* Under the lock: take a reference to slot i's profile for a caller, counting the hit. */
static const ap_profile *hit_locked(ap_profile_cache *c, int i)
{
    c->hits[i]++;
    c->used[i] = ++c->tick;
    atomic_fetch_add_explicit(&c->slot[i]->refs, 1, memory_order_relaxed);
    return c->slot[i];
}

/* Under the lock: put p (already holding the caller's reference) in slot i, with the cache's reference. */
static void put_locked(ap_profile_cache *c, int i, ap_profile *p)
{
    atomic_fetch_add_explicit(&p->refs, 1, memory_order_relaxed);
    c->slot[i] = p;
    c->hits[i] = 0;
    c->used[i] = c->inserted[i] = ++c->tick;
}

void ap_profile_release(const ap_profile *cp)
{
    ap_profile *p = (ap_profile *)cp;
    if (p != NULL && atomic_fetch_sub_explicit(&p->refs, 1, memory_order_acq_rel) == 1)
        ap_profile_free(p);
}

int ap_profile_get(ap_profile_cache *c, const ap_profile_key *k, const ap_profile **out)
{
    return ap_profile_get_until(c, k, 0, NULL, out, NULL);
}

int ap_profile_get_until(ap_profile_cache *c, const ap_profile_key *k, uint64_t deadline_ns,
                         const ap_profile_admit *admit, const ap_profile **out, ap_profile_source *src)
{
    ap_profile_source dummy;
    if (src == NULL)
        src = &dummy;
    *out = NULL;
    *src = AP_PROFILE_PRIVATE;
    if (!ap_profile_key_valid(k))
        return AP_E_INVALID_REQUEST;
    if (c != NULL) {
        lock(c);
        int i = find_locked(c, k);
        if (i >= 0)
            *out = hit_locked(c, i);
        unlock(c);
        if (*out != NULL) {
            *src = AP_PROFILE_HIT;
            return AP_OK;
        }
    }
    ap_profile *mine;
    int st = ap_profile_build_until(k, deadline_ns, &mine);
    if (st != AP_OK)
        return st;
    *out = mine;
    if (c == NULL)
        return AP_OK;
    atomic_fetch_add_explicit(&c->build_ns, (uint_fast64_t)(mine->build_seconds * 1e9), memory_order_relaxed);
    atomic_fetch_add_explicit(&c->builds, 1, memory_order_relaxed);

    /* Ask the admission hook before taking the lock (it may take locks of its own), but only when an
     * eviction looks needed; the answer is used only if one still is. */
    bool may_evict = true;
    lock(c);
    bool full = true;
    for (int i = 0; i < AP_PROFILE_CACHE_SLOTS && full; i++)
        full = c->slot[i] != NULL;
    unlock(c);
    if (full && admit != NULL && admit->fn != NULL)
        may_evict = admit->fn(admit->arg);

    ap_profile *evicted = NULL;
    lock(c);
    int i = find_locked(c, k);
    if (i >= 0) { /* someone published the same key meanwhile: use theirs */
        *out = hit_locked(c, i);
        *src = AP_PROFILE_HIT;
        unlock(c);
        ap_profile_release(mine);
        return AP_OK;
    }
    int free_slot = -1, lru = 0;
    for (int j = 0; j < AP_PROFILE_CACHE_SLOTS; j++) {
        if (c->slot[j] == NULL) {
            free_slot = j;
            break;
        }
        if (c->used[j] < c->used[lru])
            lru = j;
    }
    if (free_slot >= 0) {
        put_locked(c, free_slot, mine);
        *src = AP_PROFILE_CACHED;
    } else if (may_evict) {
        evicted = c->slot[lru];
        put_locked(c, lru, mine);
        c->evictions++;
        *src = AP_PROFILE_EVICTED;
    } else {
        c->refused++;
    }
    unlock(c);
    ap_profile_release(evicted); /* freed here unless a search still holds it */
    return AP_OK;
}

bool ap_profile_cache_has(ap_profile_cache *c, const ap_profile_key *k)
{
    if (c == NULL)
        return false;
    lock(c);
    const bool found = find_locked(c, k) >= 0;
    unlock(c);
    return found;
}

size_t ap_profile_cache_stats(ap_profile_cache *c, size_t *bytes)
{
    size_t n = 0, b = 0;
    if (c != NULL) {
        lock(c);
        for (int i = 0; i < AP_PROFILE_CACHE_SLOTS; i++) {
            if (c->slot[i] != NULL) {
                n++;
                b += c->slot[i]->bytes;
            }
        }
        unlock(c);
    }
    if (bytes != NULL)
        *bytes = b;
    return n;
}

size_t ap_profile_cache_list(ap_profile_cache *c, ap_profile_info *out, size_t cap)
{
    size_t n = 0;
    if (c == NULL)
        return 0;
    lock(c);
    int order[AP_PROFILE_CACHE_SLOTS] = {0}, k = 0;
    for (int i = 0; i < AP_PROFILE_CACHE_SLOTS; i++) { /* the filled slots by insertion tick (insertion sort) */
        if (c->slot[i] == NULL)
            continue;
        int j = k++;
        for (; j > 0 && c->inserted[order[j - 1]] > c->inserted[i]; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    for (int r = 0; r < k; r++) {
        const int i = order[r];
        const ap_profile *p = c->slot[i];
        if (n < cap) {
            ap_profile_info *o = &out[n];
            o->key = p->key;
            o->bytes = p->bytes;
            o->build_seconds = p->build_seconds;
            o->hits = c->hits[i];
            o->n_edges = p->n_edges;
            o->S = p->S;
        }
        n++;
    }
    unlock(c);
    return n;
}

double ap_profile_cache_build_seconds(ap_profile_cache *c, uint64_t *builds)
{
    if (builds != NULL)
        *builds = c ? (uint64_t)atomic_load_explicit(&c->builds, memory_order_relaxed) : 0;
    return c ? (double)atomic_load_explicit(&c->build_ns, memory_order_relaxed) / 1e9 : 0.0;
}

void ap_profile_cache_counts(ap_profile_cache *c, uint64_t *evictions, uint64_t *refused)
{
    uint64_t e = 0, r = 0;
    if (c != NULL) {
        lock(c);
        e = c->evictions;
        r = c->refused;
        unlock(c);
    }
    if (evictions != NULL)
        *evictions = e;
    if (refused != NULL)
        *refused = r;
}

void ap_profile_cache_clear(ap_profile_cache *c)
{
    if (c == NULL)
        return;
    ap_profile *drop[AP_PROFILE_CACHE_SLOTS];
    lock(c);
    for (int i = 0; i < AP_PROFILE_CACHE_SLOTS; i++) {
        drop[i] = c->slot[i];
        c->slot[i] = NULL;
        c->hits[i] = 0;
        c->used[i] = 0;
    }
    unlock(c);
    for (int i = 0; i < AP_PROFILE_CACHE_SLOTS; i++)
        ap_profile_release(drop[i]);
}
