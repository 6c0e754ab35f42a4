/* zone.c — corridor mode's free space over another world (zone.h). */
#include "zone.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The offset (ex, ey) from the nearest point of piece i (z->pts[i] to z->pts[i + 1]) to (x, y), as the
 * distance's one formula computes it: the exact distance to piece i is hypot(ex, ey). */
static inline void piece_offset(const ap_zone *z, size_t i, double x, double y, double *ex, double *ey)
{
    const double ax = z->pts[i][0], ay = z->pts[i][1], dx = z->pts[i + 1][0] - ax, dy = z->pts[i + 1][1] - ay;
    const double len2 = dx * dx + dy * dy;
    double t = len2 > 0.0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    *ex = x - (ax + t * dx);
    *ey = y - (ay + t * dy);
}

/* Tiles: how far beyond the nearest piece's distance (by squares, computed without hypot) a piece may lie and
 * still be measured with hypot. Every computed distance is within a few ulp of the coordinates of the true
 * one (< 1e-9 tiles for coordinates within 1e6 tiles, the corridor points' limit, AP_MAX_OBSTACLE_COORD; maps
 * are smaller), so a piece farther than this cannot give the smallest hypot: the minimum is the same number
 * as over every piece. */
#define ZONE_NEAR_SLACK 1e-6

/* The piece grid (zone.h ap_zone_grid_build): cell (i, j) covers [x0 + i cell, x0 + (i + 1) cell) x [y0 + j
 * cell, ...); its pieces, once listed (on the first distance measured in it: count[c] != UNLISTED), are
 * piece[c * pieces .. c * pieces + count[c] - 1], c = j w + i, nearest to the cell's centre first. */
#define UNLISTED 0xFF
struct ap_zone_grid {
    double x0, y0, cell, inv_cell;
    int w, h;
    size_t pieces;
    uint8_t count[AP_ZONE_GRID_SIDE * AP_ZONE_GRID_SIDE];
    uint8_t piece[]; /* w h pieces piece indices (< AP_ZONE_MAX_POINTS - 1) */
};

/* ap_zone_distance's passes over the pieces idx[0 .. m-1] (increasing), or over every piece when idx is NULL
 * (m = z->n - 1); *arg gets the nearest piece (the first in idx's order of the smallest hypot; -1 when none
 * is finite). */
static double distance_over(const ap_zone *z, const uint8_t *idx, size_t m, double x, double y, int *arg)
{
    /* Pass 1: squared distances (no hypot, libm's cost ~50 % of a corridor search), skipping a piece whose
     * bounding box already lies farther than the nearest piece so far plus the slack (its nearest point lies
     * in its box, up to rounding). Pass 2: hypot for the pieces within the slack of the nearest; their minimum
     * is the minimum over all pieces (see ZONE_NEAR_SLACK), as the plain loop over every piece computed it. */
    double ex[AP_ZONE_MAX_POINTS], ey[AP_ZONE_MAX_POINTS], d2[AP_ZONE_MAX_POINTS];
    double d2min = INFINITY, near = INFINITY; /* near: sqrt(d2min) + the slack */
    for (size_t k = 0; k < m; k++) {
        const size_t i = idx != NULL ? idx[k] : k;
        const double x0 = z->pts[i][0], y0 = z->pts[i][1], x1 = z->pts[i + 1][0], y1 = z->pts[i + 1][1];
        /* the gaps to the box per axis (> 0 outside it), with compares rather than libm's fmax calls */
        const double gx = x < x0 && x < x1 ? (x0 < x1 ? x0 : x1) - x : (x > x0 && x > x1 ? x - (x0 > x1 ? x0 : x1) : 0.0);
        const double gy = y < y0 && y < y1 ? (y0 < y1 ? y0 : y1) - y : (y > y0 && y > y1 ? y - (y0 > y1 ? y0 : y1) : 0.0);
        if (gx > near || gy > near || gx * gx + gy * gy > near * near) {
            d2[i] = INFINITY;
            continue;
        }
        piece_offset(z, i, x, y, &ex[i], &ey[i]);
        d2[i] = ex[i] * ex[i] + ey[i] * ey[i];
        if (d2[i] < d2min) {
            d2min = d2[i];
            near = sqrt(d2min) + ZONE_NEAR_SLACK;
        }
    }
    double best = INFINITY;
    *arg = -1;
    for (size_t k = 0; k < m; k++) {
        const size_t i = idx != NULL ? idx[k] : k;
        if (!(d2[i] <= near * near))
            continue;
        const double d = hypot(ex[i], ey[i]);
        if (d < best) {
            best = d;
            *arg = (int)i;
        }
    }
    return best;
}

/* List the pieces of cell c = j w + i of z's grid g (see ap_zone_grid_build). */
static void list_cell(const ap_zone *z, struct ap_zone_grid *g, int i, int j)
{
    const size_t c = (size_t)j * (size_t)g->w + (size_t)i;
    const double cx = g->x0 + (i + 0.5) * g->cell, cy = g->y0 + (j + 0.5) * g->cell;
    /* Each piece's squared distance from the centre, once: the nearest one's root is within a few ulp of
     * distance_over's (ZONE_NEAR_SLACK), so a third slack keeps every piece the old limit from distance_over
     * listed; a piece more does no harm (farther than the nearest from anywhere in the cell plus the slack,
     * distance_over's pass 2 never measures it). */
    double d2[AP_ZONE_MAX_POINTS], d2min = INFINITY;
    for (size_t k = 0; k < g->pieces; k++) {
        double ox, oy;
        piece_offset(z, k, cx, cy, &ox, &oy);
        d2[k] = ox * ox + oy * oy;
        d2min = d2[k] < d2min ? d2[k] : d2min;
    }
    const double lim = sqrt(d2min) + g->cell * M_SQRT2 + 3.0 * ZONE_NEAR_SLACK + 1e-9 * (1.0 + fabs(cx) + fabs(cy));
    uint8_t *out = g->piece + c * g->pieces, m = 0;
    double key[AP_ZONE_MAX_POINTS];
    for (size_t k = 0; k < g->pieces; k++) {
        if (!(d2[k] <= lim * lim)) /* (squares: lim's 1e-9 slack covers their rounding too) */
            continue;
        /* nearest to the centre first: distance_over's first pass then finds a near piece early and skips
         * more of the rest by their boxes (the minimum does not depend on the order) */
        uint8_t q = m++;
        for (; q > 0 && key[q - 1] > d2[k]; q--) {
            out[q] = out[q - 1];
            key[q] = key[q - 1];
        }
        out[q] = (uint8_t)k;
        key[q] = d2[k];
    }
    g->count[c] = m;
}

double ap_zone_nearest(const ap_zone *z, double x, double y, int *piece)
{
    struct ap_zone_grid *g = z->grid;
    if (g != NULL) {
        const double fx = (x - g->x0) * g->inv_cell, fy = (y - g->y0) * g->inv_cell;
        if (fx >= 0.0 && fy >= 0.0 && fx < g->w && fy < g->h) {
            const int i = (int)fx, j = (int)fy;
            const size_t c = (size_t)j * (size_t)g->w + (size_t)i;
            if (g->count[c] == UNLISTED)
                list_cell(z, g, i, j);
            return distance_over(z, g->piece + c * g->pieces, g->count[c], x, y, piece);
        }
    }
    return distance_over(z, NULL, z->n - 1, x, y, piece);
}

double ap_zone_distance(const ap_zone *z, double x, double y)
{
    int piece;
    return ap_zone_nearest(z, x, y, &piece);
}

struct ap_zone_grid *ap_zone_grid_build(const ap_zone *z)
{
    if (z->n < 2 || z->n > AP_ZONE_MAX_POINTS)
        return NULL;
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (size_t i = 0; i < z->n; i++)
        for (int a = 0; a < 2; a++) {
            if (!isfinite(z->pts[i][a]))
                return NULL;
            lo[a] = fmin(lo[a], z->pts[i][a]);
            hi[a] = fmax(hi[a], z->pts[i][a]);
        }
    const double grow = z->half + 1.0;
    const double x0 = lo[0] - grow, y0 = lo[1] - grow, ex = hi[0] - lo[0] + 2.0 * grow, ey = hi[1] - lo[1] + 2.0 * grow;
    const double cell = fmax(ex, ey) / AP_ZONE_GRID_SIDE;
    const int w = (int)fmin(AP_ZONE_GRID_SIDE, ceil(ex / cell)), h = (int)fmin(AP_ZONE_GRID_SIDE, ceil(ey / cell));
    const size_t pieces = z->n - 1;
    struct ap_zone_grid *g = malloc(sizeof *g + (size_t)w * (size_t)h * pieces);
    if (g == NULL)
        return NULL;
    *g = (struct ap_zone_grid){.x0 = x0, .y0 = y0, .cell = cell, .inv_cell = 1.0 / cell, .w = w, .h = h,
                               .pieces = pieces};
    memset(g->count, UNLISTED, sizeof g->count);
    return g;
}

static bool zone_point(const ap_zone *z, double x, double y, double r)
{
    return isfinite(x) && isfinite(y) && r >= 0.0 && ap_zone_distance(z, x, y) + r < z->half;
}

/* The walk (zone.h): from a pose whose slack (half - r - distance) is g > 0 the next g tiles along s cannot
 * reach the limit (the distance is 1-Lipschitz along s), so it jumps by g; a slack of AP_ZONE_MARGIN or less
 * is "not clear". */
static bool zone_walk(const ap_zone *z, const ap_segment *s, double r)
{
    for (double d = 0.0, steps = 0.0;; steps++) {
        if (steps > 1e6)
            return false; /* a curve hugging the limit for kilometres: not clear rather than a long walk */
        const ap_pose p = ap_segment_pose(s, d);
        const double slack = z->half - r - ap_zone_distance(z, p.x, p.y);
        if (!(slack > AP_ZONE_MARGIN))
            return false;
        if (d >= s->length)
            return true;
        /* The rest is within s->length - d of this pose, so its slack stays above slack - (s->length - d):
         * when that clears the margin by more than the distances' rounding (~1e-12 tiles), the pose at the end
         * would pass too, and the walk's answer is already known (one distance fewer per short segment). */
        if (slack - (s->length - d) > AP_ZONE_MARGIN + 1e-9)
            return true;
        d = fmin(d + slack, s->length);
    }
}

/* A point of s at parameter d (ap_segment_pose), its distance from the centre line and its nearest piece. */
typedef struct zone_point_at {
    double d, x, y, dist;
    int piece;
} zone_point_at;

/* The distance from (x, y) to piece i (-1: none, infinity), for the bounds: within an ulp or two of the one
 * distance_over measures (sqrt of the squares rather than libm's hypot, which costs more), far inside
 * AP_ZONE_PROOF_SLACK. */
static double piece_distance(const ap_zone *z, int i, double x, double y)
{
    if (i < 0)
        return INFINITY;
    double ex, ey;
    piece_offset(z, (size_t)i, x, y, &ex, &ey);
    return sqrt(ex * ex + ey * ey);
}

/* An upper bound on the distance from the centre line of every point of s between a and b, besides
 * ap_zone_proves's: the distance to one piece is convex, so along the chord from a to b it is at most the
 * line between its values at the two; the distance to the centre line, at most the least of those lines for
 * the nearest pieces of a and of b; an arc of radius R and length l <= pi R between them stays within its
 * sagitta, R (1 - cos(l / 2R)) <= l^2 / 8R, of that chord. Infinity for a longer arc. */
static double convex_bound(const ap_zone *z, double R, const zone_point_at *a, const zone_point_at *b)
{
    const double l = b->d - a->d;
    if (R > 0.0 && !(l <= M_PI * R))
        return INFINITY;
    const double sag = R > 0.0 ? l * l / (8.0 * R) : 0.0;
    if (a->piece == b->piece)
        return fmax(a->dist, b->dist) + sag;
    /* each piece's distance at the chord's point t of the way is at most the line between its values at the
     * ends; the least of the two lines peaks at an end or where they cross */
    const double Aa = a->dist, Ba = piece_distance(z, a->piece, b->x, b->y);
    const double Ab = piece_distance(z, b->piece, a->x, a->y), Bb = b->dist;
    double peak = fmax(fmin(Aa, Ab), fmin(Ba, Bb));
    const double den = (Aa - Ab) - (Ba - Bb), t = den != 0.0 ? (Aa - Ab) / den : -1.0;
    if (t > 0.0 && t < 1.0)
        peak = fmax(peak, fmin((1.0 - t) * Aa + t * Ba, (1.0 - t) * Ab + t * Bb));
    return peak + sag;
}

/* True when convex_bound keeps the part of s from a to b (arc radius R, 0 for a line) more than the margin
 * inside the limit for a disc of radius r, with ap_zone_proves's slacks. */
static bool convex_proves(const ap_zone *z, double R, const zone_point_at *a, const zone_point_at *b, double r)
{
    return convex_bound(z, R, a, b) + AP_ZONE_ARC_SLACK * R < z->half - r - AP_ZONE_MARGIN - AP_ZONE_PROOF_SLACK;
}

bool ap_zone_proves_piece(const ap_zone *z, double d0, int piece0, double x1, double y1, double len, double R,
                          double r)
{
    /* convex_bound with the start's piece as the end's too: the distance to it bounds the end's from above */
    if (!(len < AP_ZONE_PROOF_MAX_LEN))
        return false;
    const zone_point_at a = {0.0, 0.0, 0.0, d0, piece0}, b = {len, x1, y1, piece_distance(z, piece0, x1, y1), piece0};
    return convex_proves(z, R, &a, &b, r);
}

/* The walk's verdict on the part of s from a to b (R its arc radius, 0 for a line), found by halving it up to
 * depth times: 1 when every part is proven (ap_zone_proves or convex_bound keeps it more than the margin
 * from the limit: the walk passes there), -1 when a halving point lies beyond the limit by more than the
 * rounding (the walk cannot pass it: it never jumps over a point of slack <= 0, and converges on the first
 * such point until its slack is below the margin), 0 when undecided. */
static int zone_halve(const ap_zone *z, const ap_segment *s, double r, double R, const zone_point_at *a,
                      const zone_point_at *b, int depth)
{
    if (ap_zone_proves(z, a->dist, b->dist, b->d - a->d, R, r) || convex_proves(z, R, a, b, r))
        return 1;
    if (depth == 0)
        return 0;
    zone_point_at m = {.d = 0.5 * (a->d + b->d)};
    const ap_pose pm = ap_segment_pose(s, m.d);
    m.x = pm.x;
    m.y = pm.y;
    m.dist = ap_zone_nearest(z, m.x, m.y, &m.piece);
    if (z->half - r - m.dist < -(AP_ZONE_PROOF_SLACK + AP_ZONE_ARC_SLACK * R))
        return -1;
    const int u = zone_halve(z, s, r, R, a, &m, depth - 1);
    if (u < 0)
        return u;
    const int v = zone_halve(z, s, r, R, &m, b, depth - 1);
    return v < 0 ? v : (u > 0 && v > 0);
}

/* Halvings zone_halve tries before the walk decides: each costs a pose and a distance, about one step of the
 * walk, which near the limit takes ten steps or more for an action of a tile. */
#define ZONE_HALVINGS 4

bool ap_zone_segment_clear_from(const ap_zone *z, const ap_segment *s, double r, double d0, int piece0)
{
    if (!(s->length >= 0.0) || !isfinite(s->length) || !(r >= 0.0))
        return false;
    if (!(s->length < AP_ZONE_PROOF_MAX_LEN))
        return zone_walk(z, s, r); /* (its giving up is part of its verdict: see AP_ZONE_PROOF_MAX_LEN) */
    const double R = s->type == AP_SEG_ARC ? s->radius : 0.0, eps = AP_ZONE_PROOF_SLACK + AP_ZONE_ARC_SLACK * R;
    if (ap_zone_proves_piece(z, d0, piece0, s->x1, s->y1, s->length, R, r))
        return true;
    const zone_point_at a = {0.0, s->x0, s->y0, d0, piece0};
    zone_point_at b = {s->length, s->x1, s->y1, 0.0, -1};
    b.dist = ap_zone_nearest(z, b.x, b.y, &b.piece);
    /* the walk tests its first and last poses (the segment's ends, to within the rounding eps covers)
     * against the margin itself */
    if (z->half - r - a.dist <= AP_ZONE_MARGIN - eps || z->half - r - b.dist <= AP_ZONE_MARGIN - eps)
        return false;
    const int v = zone_halve(z, s, r, R, &a, &b, ZONE_HALVINGS);
    return v != 0 ? v > 0 : zone_walk(z, s, r);
}

bool ap_zone_segment_clear(const ap_zone *z, const ap_segment *s, double r)
{
    int piece0; /* (ap_zone_segment_clear_from refuses a bad length or radius) */
    const double d0 = ap_zone_nearest(z, s->x0, s->y0, &piece0);
    return ap_zone_segment_clear_from(z, s, r, d0, piece0);
}

static bool zw_point(const void *ctx, double x, double y, double r)
{
    const ap_zone *z = ctx;
    return zone_point(z, x, y, r) && ap_world_point_clear(&z->inner, x, y, r);
}

static bool zw_line(const void *ctx, double ax, double ay, double bx, double by, double r)
{
    const ap_zone *z = ctx;
    const ap_segment s = ap_segment_line(ax, ay, bx, by);
    return ap_zone_segment_clear(z, &s, r) && ap_world_line_clear(&z->inner, ax, ay, bx, by, r);
}

static bool zw_segment(const void *ctx, const ap_segment *s, double r)
{
    const ap_zone *z = ctx;
    return ap_zone_segment_clear(z, s, r) && ap_world_segment_clear(&z->inner, s, r);
}

/* Outside the zone 0; inside it the inner world's region. Different ids still prove that no path joins two
 * points (the zone lies inside the inner world), but, unlike world.h's contract, equal ids do not promise a
 * path inside the zone: nothing reads this world's regions for a proof (corridor mode plans kinodynamic
 * searches only, whose no_path is always not_found). */
static uint32_t zw_region(const void *ctx, double x, double y)
{
    const ap_zone *z = ctx;
    return zone_point(z, x, y, 0.0) ? z->inner.ops->region(z->inner.ctx, x, y) : 0;
}

static const void *zw_table(const void *ctx, const char *name)
{
    (void)ctx;
    (void)name;
    return NULL; /* the inner world's tables do not know the zone */
}

static const ap_world_ops zone_ops = {zw_point, zw_line, zw_segment, zw_region, zw_table};

void ap_zone_world(ap_zone *z, const ap_world *inner, ap_world *out)
{
    z->inner = *inner;
    *out = (ap_world){&zone_ops, z, inner->width, inner->height};
}

const ap_zone *ap_zone_of(const ap_world *w)
{
    return w->ops == &zone_ops ? w->ctx : NULL;
}
