/* circles.c — the circle world (circles.h): validation, the bucket grid, exact swept-disc tests.
 *
 * Source: Red Blob Games, "Circular Obstacle Pathfinding", "Line of sight" (distance from an obstacle's
 * centre to the segment, the foot point clamped to the segment as in "Surfing edge line of sight" once
 * circles may overlap) and "Hugging edge line of sight" (an arc against a disc). Here an arc is tested by
 * the exact point-to-arc distance instead of Red Blob's circle-circle intersection points, which also covers
 * the unit's radius r > 0.
 */
#include "circles.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../base/status.h"
#include "../base/mem.h"

#define LIMIT 1e7
#define MAX_BUCKETS_PER_AXIS 1024

struct ap_circle_world {
    double w, h;
    ap_circle *c;
    size_t n;
    /* Bucket grid over [0, w] x [0, h]: nx x ny buckets of bw x bh tiles; bucket (i, j) lists
     * items[start[j * nx + i] .. start[j * nx + i + 1]). big: discs read by every test. */
    int32_t nx, ny;
    double bw, bh;
    uint32_t *start;
    uint32_t *items;
    uint32_t *big;
    size_t n_big;
};

/* Record a validation failure: the field (JSON-path style) and the message. */
static int bad(char *field, size_t fs, char *msg, size_t ms, const char *what, size_t k, const char *coord,
               const char *m)
{
    if (field != NULL && fs > 0) {
        if (coord != NULL)
            snprintf(field, fs, "%s[%zu].%s", what, k, coord);
        else
            snprintf(field, fs, "%s", what);
    }
    if (msg != NULL && ms > 0)
        snprintf(msg, ms, "%s", m);
    return AP_E_MAP_FORMAT;
}

/* Bucket index range [*lo, *hi] of the interval [a, b] on an axis of k buckets of size s, clipped. */
static void bucket_range(double a, double b, double s, int32_t k, int32_t *lo, int32_t *hi)
{
    /* (s > 0 by build_index; the comparisons send a NaN quotient to bucket 0 rather than to INT_MIN) */
    double fa = floor(a / s), fb = floor(b / s);
    *lo = !(fa > 0.0) ? 0 : (fa > (double)(k - 1) ? k - 1 : (int32_t)fa);
    *hi = !(fb > 0.0) ? 0 : (fb > (double)(k - 1) ? k - 1 : (int32_t)fb);
}

/* True when disc c's bounding box meets the world rectangle (a disc wholly outside cannot share a point
 * with a unit that stays inside). */
static bool meets_world(const ap_circle_world *cw, const ap_circle *c)
{
    return c->x + c->r >= 0.0 && c->y + c->r >= 0.0 && c->x - c->r <= cw->w && c->y - c->r <= cw->h;
}

static bool is_big(const ap_circle_world *cw, const ap_circle *c, int32_t *i0, int32_t *i1, int32_t *j0, int32_t *j1)
{
    bucket_range(c->x - c->r, c->x + c->r, cw->bw, cw->nx, i0, i1);
    bucket_range(c->y - c->r, c->y + c->r, cw->bh, cw->ny, j0, j1);
    return (double)(*i1 - *i0 + 1) * (double)(*j1 - *j0 + 1) > AP_CIRCLES_BIG_BUCKETS;
}

/* Two passes over the discs (count, then fill) build the compressed bucket lists. */
static int build_index(ap_circle_world *cw)
{
    double cell = sqrt(cw->w * cw->h / (double)(cw->n > 0 ? cw->n : 1));
    double fx = ceil(cw->w / cell), fy = ceil(cw->h / cell);
    cw->nx = fx < 1.0 ? 1 : (fx > MAX_BUCKETS_PER_AXIS ? MAX_BUCKETS_PER_AXIS : (int32_t)fx);
    cw->ny = fy < 1.0 ? 1 : (fy > MAX_BUCKETS_PER_AXIS ? MAX_BUCKETS_PER_AXIS : (int32_t)fy);
    /* A world of a few subnormal tiles divides into buckets of size 0 (then 0 / 0 in bucket_range for a
     * disc's edge at 0): one bucket along such a side. */
    if (!(cw->w / cw->nx > 0.0))
        cw->nx = 1;
    if (!(cw->h / cw->ny > 0.0))
        cw->ny = 1;
    cw->bw = cw->w / cw->nx;
    cw->bh = cw->h / cw->ny;
    size_t nb = (size_t)cw->nx * (size_t)cw->ny;
    cw->start = calloc(nb + 1, sizeof *cw->start);
    cw->big = malloc((cw->n > 0 ? cw->n : 1) * sizeof *cw->big);
    if (cw->start == NULL || cw->big == NULL)
        return AP_E_NOMEM;
    size_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        cw->n_big = 0;
        for (size_t k = 0; k < cw->n; k++) {
            const ap_circle *c = &cw->c[k];
            int32_t i0, i1, j0, j1;
            if (!meets_world(cw, c))
                continue;
            if (is_big(cw, c, &i0, &i1, &j0, &j1)) {
                cw->big[cw->n_big++] = (uint32_t)k;
                continue;
            }
            for (int32_t j = j0; j <= j1; j++)
                for (int32_t i = i0; i <= i1; i++) {
                    size_t b = (size_t)j * (size_t)cw->nx + (size_t)i;
                    if (pass == 0)
                        cw->start[b + 1]++;
                    else
                        cw->items[cw->start[b]++] = (uint32_t)k;
                }
        }
        if (pass == 0) {
            for (size_t b = 0; b < nb; b++)
                cw->start[b + 1] += cw->start[b];
            total = cw->start[nb];
            cw->items = malloc((total > 0 ? total : 1) * sizeof *cw->items);
            if (cw->items == NULL)
                return AP_E_NOMEM;
        }
    }
    /* The fill pass advanced every start to its bucket's end: shift back by one bucket. */
    for (size_t b = nb; b > 0; b--)
        cw->start[b] = cw->start[b - 1];
    cw->start[0] = 0;
    return AP_OK;
}

int ap_circle_world_create(double width, double height, const ap_circle *c, size_t n, ap_circle_world **out,
                           char *field, size_t field_size, char *msg, size_t msg_size)
{
    *out = NULL;
    if (!isfinite(width) || !(width > 0.0) || width > LIMIT)
        return bad(field, field_size, msg, msg_size, "width", 0, NULL, "must be a finite number in (0, 1e7]");
    if (!isfinite(height) || !(height > 0.0) || height > LIMIT)
        return bad(field, field_size, msg, msg_size, "height", 0, NULL, "must be a finite number in (0, 1e7]");
    if (n > AP_CIRCLES_MAX)
        return bad(field, field_size, msg, msg_size, "circles", 0, NULL, "has more than 16777216 circles");
    for (size_t k = 0; k < n; k++) {
        if (!isfinite(c[k].x) || fabs(c[k].x) > LIMIT)
            return bad(field, field_size, msg, msg_size, "circles", k, "x", "must be a finite number in [-1e7, 1e7]");
        if (!isfinite(c[k].y) || fabs(c[k].y) > LIMIT)
            return bad(field, field_size, msg, msg_size, "circles", k, "y", "must be a finite number in [-1e7, 1e7]");
        if (!isfinite(c[k].r) || c[k].r < 0.0 || c[k].r > LIMIT)
            return bad(field, field_size, msg, msg_size, "circles", k, "r", "must be a finite number in [0, 1e7]");
    }
    ap_circle_world *cw = calloc(1, sizeof *cw);
    if (cw == NULL)
        return AP_E_NOMEM;
    cw->w = width;
    cw->h = height;
    cw->n = n;
    cw->c = malloc((n > 0 ? n : 1) * sizeof *cw->c);
    if (cw->c == NULL) {
        ap_circle_world_free(cw);
        return AP_E_NOMEM;
    }
    for (size_t k = 0; k < n; k++)
        cw->c[k] = c[k];
    if (build_index(cw) != AP_OK) {
        ap_circle_world_free(cw);
        return AP_E_NOMEM;
    }
    *out = cw;
    return AP_OK;
}

void ap_circle_world_free(ap_circle_world *cw)
{
    if (cw == NULL)
        return;
    AP_FREE_ALL(cw->c, cw->start, cw->items, cw->big, cw);
}

const ap_circle *ap_circle_world_circles(const ap_circle_world *cw)
{
    return cw->c;
}

size_t ap_circle_world_count(const ap_circle_world *cw)
{
    return cw->n;
}

double ap_circle_world_width(const ap_circle_world *cw)
{
    return cw->w;
}

double ap_circle_world_height(const ap_circle_world *cw)
{
    return cw->h;
}

/* ---- exact distances -------------------------------------------------------------------------------- */

static double pt_seg_d2(double px, double py, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay, L2 = dx * dx + dy * dy;
    /* Red Blob's u, clamped to [0, 1] so discs off the segment's ends count too ("Surfing edge line of
     * sight" with overlapping circles). */
    double u = L2 > 0.0 ? ((px - ax) * dx + (py - ay) * dy) / L2 : 0.0;
    u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
    double ex = ax + u * dx - px, ey = ay + u * dy - py;
    return ex * ex + ey * ey;
}

/* An arc normalised to increasing angle: centre, radius, start angle a0, sweep in [0, 2pi], end points. */
typedef struct carc {
    double cx, cy, R, a0, sweep;
    double x0, y0, x1, y1;
} carc;

static bool in_sweep(const carc *a, double ang)
{
    double t = fmod(ang - a->a0, 2.0 * M_PI);
    if (t < 0.0)
        t += 2.0 * M_PI;
    return t <= a->sweep;
}

/* Exact distance from p to the arc: radial when p's direction from the centre lies on the sweep (the
 * nearest circle point is then on the arc), else the nearer end point. The two agree where they meet, so no
 * angle tolerance is needed. */
static double pt_arc_d(const carc *a, double px, double py)
{
    double dx = px - a->cx, dy = py - a->cy;
    if (in_sweep(a, atan2(dy, dx)))
        return fabs(hypot(dx, dy) - a->R);
    return fmin(hypot(px - a->x0, py - a->y0), hypot(px - a->x1, py - a->y1));
}

static void arc_bbox(const carc *a, double *minx, double *miny, double *maxx, double *maxy)
{
    *minx = fmin(a->x0, a->x1);
    *maxx = fmax(a->x0, a->x1);
    *miny = fmin(a->y0, a->y1);
    *maxy = fmax(a->y0, a->y1);
    if (in_sweep(a, 0.0))
        *maxx = a->cx + a->R;
    if (in_sweep(a, M_PI_2))
        *maxy = a->cy + a->R;
    if (in_sweep(a, M_PI))
        *minx = a->cx - a->R;
    if (in_sweep(a, -M_PI_2))
        *miny = a->cy - a->R;
}

/* ---- the swept tests -------------------------------------------------------------------------------- */

/* The obstacles a point path's segment comes within AP_CIRCLES_EPS of (ap_circle_world_point_segment_ok),
 * noted while the sweep reads them: id (circles.h's ap_circle_touch) and side only, since most segments
 * (a bitangent touching one circle at each end on the same side) need no more. overflow: more than fit. */
#define TOUCH_NOTES (AP_CIRCLES_MAX_TOUCHES / 2) /* an arc's touch may take two pieces */
typedef struct touch_list {
    uint32_t id[TOUCH_NOTES];
    int side[TOUCH_NOTES];
    size_t n;
    bool overflow, left, right; /* sides seen: +1, -1 */
} touch_list;

/* What one test sweeps: a line (arc == NULL) from A to B, or an arc; its bounding box; the touches to
 * note (NULL: none). */
typedef struct sweep {
    double ax, ay, bx, by;
    const carc *arc;
    double minx, miny, maxx, maxy;
    touch_list *touches;
    bool point; /* a point's touches (point_sweep_ok): every one noted, on side +1 (a point has no sides) */
} sweep;

/* Two ids of the same obstacle: one id, or two discs with the same centre and radius (a world may list a disc
 * twice: two units sent as obstacles at one place). */
static bool same_obstacle(const ap_circle_world *cw, uint32_t a, uint32_t b)
{
    if (a == b)
        return true;
    if (a >= cw->n || b >= cw->n)
        return false;
    return cw->c[a].x == cw->c[b].x && cw->c[a].y == cw->c[b].y && cw->c[a].r == cw->c[b].r;
}

static void touch_note(const ap_circle_world *cw, touch_list *tl, uint32_t id, int side)
{
    if (side == 0)
        return; /* on the path itself: nothing that small holds a passage shut */
    for (size_t i = 0; i < tl->n; i++)
        if (same_obstacle(cw, tl->id[i], id))
            return; /* the same disc again, read from another bucket, or its copy */
    if (tl->n == TOUCH_NOTES) {
        tl->overflow = true;
        return;
    }
    tl->id[tl->n] = id;
    tl->side[tl->n++] = side;
    tl->left |= side > 0;
    tl->right |= side < 0;
}

/* The side of disc c seen from the swept path: a line's +1 for a centre left of A -> B, -1 right; an arc's
 * +1 for a centre outside its circle, -1 inside; 0 for a centre within EPS of the path's line or circle. */
static int disc_side(const sweep *s, const ap_circle *c)
{
    const double e = AP_CIRCLES_EPS;
    if (s->point)
        return 1;
    if (s->arc != NULL) {
        const double dx = c->x - s->arc->cx, dy = c->y - s->arc->cy, D2 = dx * dx + dy * dy, R = s->arc->R;
        return D2 > (R + e) * (R + e) ? 1 : (R > e && D2 < (R - e) * (R - e) ? -1 : 0);
    }
    const double dx = s->bx - s->ax, dy = s->by - s->ay;
    const double cross = dx * (c->y - s->ay) - dy * (c->x - s->ax);
    return cross * cross <= e * e * (dx * dx + dy * dy) ? 0 : (cross > 0.0 ? 1 : -1);
}

/* Note disc c (index k) when the point path comes within AP_CIRCLES_EPS of it: d is its distance to the
 * arc, or its squared distance to the line. Discs of radius 2 EPS or less close no gap (circles.h). */
static inline void disc_note(const ap_circle_world *cw, const sweep *s, uint32_t k, const ap_circle *c, double d)
{
    const double rho = c->r + AP_CIRCLES_EPS;
    if (d <= (s->arc != NULL ? rho : rho * rho) && c->r > 2.0 * AP_CIRCLES_EPS)
        touch_note(cw, s->touches, k, disc_side(s, c));
}

static bool disc_clear(const ap_circle_world *cw, const sweep *s, uint32_t k, double r, double tol)
{
    const ap_circle *c = &cw->c[k];
    double lim = c->r + r + tol;
    if (lim < 0.0)
        return true;
    if (s->arc != NULL) {
        double d = pt_arc_d(s->arc, c->x, c->y);
        if (!(d > lim))
            return false;
        if (s->touches != NULL)
            disc_note(cw, s, k, c, d);
        return true;
    }
    double d2 = pt_seg_d2(c->x, c->y, s->ax, s->ay, s->bx, s->by);
    if (!(d2 > lim * lim))
        return false;
    if (s->touches != NULL)
        disc_note(cw, s, k, c, d2);
    return true;
}

static bool bucket_clear(const ap_circle_world *cw, int32_t i, int32_t j, const sweep *s, double r, double tol)
{
    size_t b = (size_t)j * (size_t)cw->nx + (size_t)i;
    for (uint32_t q = cw->start[b]; q < cw->start[b + 1]; q++)
        if (!disc_clear(cw, s, cw->items[q], r, tol))
            return false;
    return true;
}

/* The rectangle's sides as obstacles (ids UINT32_MAX - 0..3: left, right, bottom, top): outward normal and
 * the least value of normal . P that comes within AP_CIRCLES_EPS of the side. */
static const double side_nx[4] = {-1.0, 1.0, 0.0, 0.0}, side_ny[4] = {0.0, 0.0, -1.0, 1.0};

static double side_lim(const ap_circle_world *cw, int k)
{
    return k == 0 || k == 2 ? -AP_CIRCLES_EPS : (k == 1 ? cw->w : cw->h) - AP_CIRCLES_EPS;
}

/* Note the sides the swept shape comes within EPS of (its bounding box is exact). The world outside lies
 * beyond the side: for a line, on the side its outward normal points to (none for a line square to the
 * side, which can touch it at an end only); for an arc, outside its circle. */
static void side_notes(const ap_circle_world *cw, const sweep *s)
{
    const double ext[4] = {-s->minx, s->maxx, -s->miny, s->maxy};
    const double dx = s->bx - s->ax, dy = s->by - s->ay;
    for (int k = 0; k < 4; k++) {
        if (ext[k] < side_lim(cw, k))
            continue;
        int side = 1;
        if (s->arc == NULL && !s->point) {
            const double cross = dx * side_ny[k] - dy * side_nx[k];
            side = fabs(cross) <= 1e-12 * hypot(dx, dy) ? 0 : (cross > 0.0 ? 1 : -1);
        }
        touch_note(cw, s->touches, UINT32_MAX - (uint32_t)k, side);
    }
}

/* Pieces of touch intervals (ap_circle_touch) being filled. */
typedef struct touch_out {
    ap_circle_touch *t;
    size_t n;
} touch_out;

static void piece(touch_out *o, uint32_t id, double t0, double t1, int side)
{
    if (t0 <= t1)
        o->t[o->n++] = (ap_circle_touch){t0, t1, side, id};
}

/* The arc's angles theta where cos(theta - phi) >= kappa (a circular interval about phi), as offsets from
 * its start within its sweep: up to two pieces when the interval wraps. */
static void arc_pieces(touch_out *o, const carc *a, uint32_t id, double phi, double kappa, int side)
{
    if (kappa > 1.0)
        return;
    if (kappa <= -1.0) {
        piece(o, id, 0.0, a->sweep, side);
        return;
    }
    const double alpha = acos(kappa);
    double off = fmod(phi - alpha - a->a0, 2.0 * M_PI);
    if (off < 0.0)
        off += 2.0 * M_PI;
    if (off <= a->sweep)
        piece(o, id, off, fmin(off + 2.0 * alpha, a->sweep), side);
    if (off + 2.0 * alpha > 2.0 * M_PI)
        piece(o, id, 0.0, fmin(off + 2.0 * alpha - 2.0 * M_PI, a->sweep), side);
}

/* Where along the swept path noted obstacle id (side) lies within AP_CIRCLES_EPS: a disc's chord of the
 * path (line: the segment's parameter where the distance to the centre is at most r + EPS; arc: the angles
 * where it is), a side's stretch beyond its limit. */
static void touch_pieces(touch_out *o, const ap_circle_world *cw, const sweep *s, uint32_t id, int side)
{
    const carc *a = s->arc;
    const double dx = s->bx - s->ax, dy = s->by - s->ay;
    if (id >= UINT32_MAX - 3u) {
        const int k = (int)(UINT32_MAX - id);
        const double lim = side_lim(cw, k), nx = side_nx[k], ny = side_ny[k];
        if (a != NULL) {
            arc_pieces(o, a, id, atan2(ny, nx), (lim - (nx * a->cx + ny * a->cy)) / a->R, side);
            return;
        }
        const double p0 = nx * s->ax + ny * s->ay, dp = nx * dx + ny * dy; /* n . P(u) >= lim, u in [0, 1] */
        if (dp == 0.0)
            piece(o, id, 0.0, p0 >= lim ? 1.0 : -1.0, side);
        else if (dp > 0.0)
            piece(o, id, fmax((lim - p0) / dp, 0.0), 1.0, side);
        else
            piece(o, id, 0.0, fmin((lim - p0) / dp, 1.0), side);
        return;
    }
    const ap_circle *c = &cw->c[id];
    const double rho = c->r + AP_CIRCLES_EPS;
    if (a != NULL) {
        const double ex = c->x - a->cx, ey = c->y - a->cy, D = hypot(ex, ey);
        if (D * a->R == 0.0)
            arc_pieces(o, a, id, 0.0, a->R <= rho && D <= rho ? -1.0 : 2.0, side);
        else
            arc_pieces(o, a, id, atan2(ey, ex), (a->R * a->R + D * D - rho * rho) / (2.0 * a->R * D), side);
        return;
    }
    const double L2 = dx * dx + dy * dy, L = sqrt(L2), ex = c->x - s->ax, ey = c->y - s->ay;
    const double p = fabs(dx * ey - dy * ex) / L, u = (ex * dx + ey * dy) / L2;
    if (p <= rho) {
        const double h = sqrt(rho * rho - p * p) / L;
        piece(o, id, fmax(u - h, 0.0), fmin(u + h, 1.0), side);
    }
}

/* Inside the rectangle, then every disc of the buckets the swept shape widened by pad can reach. A line
 * is walked one bucket column at a time (its y-range over the column's x-range, widened by pad); an arc
 * reads every bucket of its widened bounding box. */
static bool sweep_clear(const ap_circle_world *cw, const sweep *s, double r, double tol)
{
    if (!(s->minx > r + tol && s->miny > r + tol && s->maxx < cw->w - r - tol && s->maxy < cw->h - r - tol))
        return false;
    for (size_t q = 0; q < cw->n_big; q++)
        if (!disc_clear(cw, s, cw->big[q], r, tol))
            return false;
    const double pad = fabs(r + tol) + AP_CIRCLES_EPS;
    int32_t i0, i1, j0, j1;
    bucket_range(s->minx - pad, s->maxx + pad, cw->bw, cw->nx, &i0, &i1);
    if (s->arc != NULL) {
        bucket_range(s->miny - pad, s->maxy + pad, cw->bh, cw->ny, &j0, &j1);
        for (int32_t j = j0; j <= j1; j++)
            for (int32_t i = i0; i <= i1; i++)
                if (!bucket_clear(cw, i, j, s, r, tol))
                    return false;
        return true;
    }
    const double dx = s->bx - s->ax, slope = dx != 0.0 ? (s->by - s->ay) / dx : 0.0;
    for (int32_t i = i0; i <= i1; i++) {
        double u0 = fmax(s->minx, i * cw->bw - pad), u1 = fmin(s->maxx, (i + 1) * cw->bw + pad);
        double ylo = s->miny, yhi = s->maxy;
        if (dx != 0.0 && u0 <= u1) {
            double v0 = s->ay + (u0 - s->ax) * slope, v1 = s->ay + (u1 - s->ax) * slope;
            ylo = fmin(v0, v1);
            yhi = fmax(v0, v1);
        }
        bucket_range(ylo - pad, yhi + pad, cw->bh, cw->ny, &j0, &j1);
        for (int32_t j = j0; j <= j1; j++)
            if (!bucket_clear(cw, i, j, s, r, tol))
                return false;
    }
    return true;
}

/* The sweep of line A -> B; false for non-finite input. */
static bool line_sweep(double ax, double ay, double bx, double by, sweep *s)
{
    if (!isfinite(ax) || !isfinite(ay) || !isfinite(bx) || !isfinite(by))
        return false;
    *s = (sweep){ax, ay, bx, by, NULL, fmin(ax, bx), fmin(ay, by), fmax(ax, bx), fmax(ay, by), NULL, false};
    return true;
}

/* The sweep of segment sg (an arc normalised into *a); false for non-finite input. */
static bool segment_sweep(const ap_segment *sg, sweep *s, carc *a)
{
    if (sg->type != AP_SEG_ARC || !(sg->radius > 0.0) || sg->sweep == 0.0)
        return line_sweep(sg->x0, sg->y0, sg->x1, sg->y1, s);
    *a = (carc){sg->cx, sg->cy, sg->radius, 0.0, fmin(fabs(sg->sweep), 2.0 * M_PI), sg->x0, sg->y0, sg->x1, sg->y1};
    double start = atan2(sg->y0 - sg->cy, sg->x0 - sg->cx);
    a->a0 = sg->sweep >= 0.0 ? start : start + sg->sweep;
    if (!isfinite(a->cx) || !isfinite(a->cy) || !isfinite(a->R) || !isfinite(a->a0) || !isfinite(a->x1) ||
        !isfinite(a->y1))
        return false;
    *s = (sweep){0};
    s->arc = a;
    arc_bbox(a, &s->minx, &s->miny, &s->maxx, &s->maxy);
    return true;
}

bool ap_circle_world_line_tol(const ap_circle_world *cw, double ax, double ay, double bx, double by, double r,
                              double tol)
{
    sweep s;
    return isfinite(r) && r >= 0.0 && isfinite(tol) && line_sweep(ax, ay, bx, by, &s) && sweep_clear(cw, &s, r, tol);
}

bool ap_circle_world_segment_tol(const ap_circle_world *cw, const ap_segment *sg, double r, double tol)
{
    sweep s;
    carc a;
    return isfinite(r) && r >= 0.0 && isfinite(tol) && segment_sweep(sg, &s, &a) && sweep_clear(cw, &s, r, tol);
}

bool ap_circle_world_cusp(const ap_circle_world *cw, uint32_t a, uint32_t b)
{
    const double slack = 4.0 * AP_CIRCLES_EPS;
    if (a > b) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    if (a >= UINT32_MAX - 3u) /* two sides: parallel ones close a world no wider than the tolerance */
        return (UINT32_MAX - a) / 2 == (UINT32_MAX - b) / 2;
    if (a >= cw->n)
        return false;
    const ap_circle *c = &cw->c[a];
    if (b >= UINT32_MAX - 3u) { /* the centre's distance inside that side, left, right, bottom, top */
        const int k = (int)(UINT32_MAX - b);
        const double in = k == 0 ? c->x : k == 1 ? cw->w - c->x : k == 2 ? c->y : cw->h - c->y;
        return in >= c->r - slack;
    }
    if (b >= cw->n)
        return false;
    const ap_circle *e = &cw->c[b];
    return hypot(c->x - e->x, c->y - e->y) >= c->r + e->r - slack;
}

/* ap_circle_world_point_segment_ok on a built sweep (its touches unset); *n_out is zeroed by the caller. */
static bool point_sweep_ok(const ap_circle_world *cw, const sweep *in, ap_circle_touch *out, size_t *n_out)
{
    touch_list tl; /* only the scalars: the notes are written before they are read */
    tl.n = 0;
    tl.overflow = tl.left = tl.right = false;
    sweep local = *in, *s = &local;
    s->touches = &tl;
    if (in->arc == NULL && in->ax == in->bx && in->ay == in->by) {
        /* A point: refused where two obstacles touch each other from outside there (a gap of width 0 that no
         * disc of radius > 0 fits, as the corner two blocked cells share diagonally on a grid, which refuses
         * its point too); where they cross, free space has a corner there: usable. Before, such a start
         * was taken and every line from it refused: no_path "unreachable" instead of start_blocked. */
        s->point = true;
        if (!sweep_clear(cw, s, 0.0, -AP_CIRCLES_EPS))
            return false;
        side_notes(cw, s);
        if (tl.overflow)
            return false;
        for (size_t i = 0; i < tl.n; i++)
            for (size_t j = i + 1; j < tl.n; j++)
                if (ap_circle_world_cusp(cw, tl.id[i], tl.id[j]))
                    return false;
        return true;
    }
    if (!sweep_clear(cw, s, 0.0, -AP_CIRCLES_EPS))
        return false;
    side_notes(cw, s);
    if (tl.overflow)
        return false;
    if (!(tl.left && tl.right) && out == NULL)
        return true; /* every obstacle it touches on one side: no gap to squeeze through */
    ap_circle_touch buf[AP_CIRCLES_MAX_TOUCHES];
    touch_out o = {out != NULL ? out : buf, 0};
    for (size_t i = 0; i < tl.n; i++)
        touch_pieces(&o, cw, s, tl.id[i], tl.side[i]);
    for (size_t i = 0; i < o.n; i++)
        for (size_t j = i + 1; j < o.n; j++)
            if (o.t[i].side != o.t[j].side && o.t[i].t0 <= o.t[j].t1 && o.t[j].t0 <= o.t[i].t1 &&
                ap_circle_world_cusp(cw, o.t[i].id, o.t[j].id))
                return false;
    if (n_out != NULL)
        *n_out = o.n;
    return true;
}

bool ap_circle_world_point_segment_ok(const ap_circle_world *cw, const ap_segment *sg, ap_circle_touch *out,
                                      size_t *n_out)
{
    sweep s;
    carc a;
    if (n_out != NULL)
        *n_out = 0;
    return segment_sweep(sg, &s, &a) && point_sweep_ok(cw, &s, out, n_out);
}

bool ap_circle_world_point_line_ok(const ap_circle_world *cw, double ax, double ay, double bx, double by,
                                   ap_circle_touch *out, size_t *n_out)
{
    sweep s;
    if (n_out != NULL)
        *n_out = 0;
    return line_sweep(ax, ay, bx, by, &s) && point_sweep_ok(cw, &s, out, n_out);
}

/* ---- world.h operations ----------------------------------------------------------------------------- */

static bool cw_point_clear(const void *ctx, double x, double y, double r)
{
    return ap_circle_world_line_tol(ctx, x, y, x, y, r, AP_CIRCLES_EPS);
}

static bool cw_line_clear(const void *ctx, double ax, double ay, double bx, double by, double r)
{
    return ap_circle_world_line_tol(ctx, ax, ay, bx, by, r, AP_CIRCLES_EPS);
}

static bool cw_segment_clear(const void *ctx, const ap_segment *s, double r)
{
    return ap_circle_world_segment_tol(ctx, s, r, AP_CIRCLES_EPS);
}

/* The safe region answer (circles.h): one id for every clear point. */
static uint32_t cw_region(const void *ctx, double x, double y)
{
    return cw_point_clear(ctx, x, y, 0.0) ? 1u : 0u;
}

static const void *cw_table(const void *ctx, const char *name)
{
    return NULL;
}

static const ap_world_ops circle_ops = {cw_point_clear, cw_line_clear, cw_segment_clear, cw_region, cw_table};

void ap_circle_world_view(const ap_circle_world *cw, ap_world *out)
{
    out->ops = &circle_ops;
    out->ctx = cw;
    out->width = cw->w;
    out->height = cw->h;
}
