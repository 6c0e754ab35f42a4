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
    double fa = floor(a / s), fb = floor(b / s);
    *lo = fa < 0.0 ? 0 : (fa > (double)(k - 1) ? k - 1 : (int32_t)fa);
    *hi = fb < 0.0 ? 0 : (fb > (double)(k - 1) ? k - 1 : (int32_t)fb);
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

/* What one test sweeps: a line (arc == NULL) from A to B, or an arc; its bounding box. */
typedef struct sweep {
    double ax, ay, bx, by;
    const carc *arc;
    double minx, miny, maxx, maxy;
} sweep;

static bool disc_clear(const ap_circle_world *cw, const sweep *s, uint32_t k, double r, double tol)
{
    const ap_circle *c = &cw->c[k];
    double lim = c->r + r + tol;
    if (lim < 0.0)
        return true;
    if (s->arc != NULL)
        return pt_arc_d(s->arc, c->x, c->y) > lim;
    return pt_seg_d2(c->x, c->y, s->ax, s->ay, s->bx, s->by) > lim * lim;
}

static bool bucket_clear(const ap_circle_world *cw, int32_t i, int32_t j, const sweep *s, double r, double tol)
{
    size_t b = (size_t)j * (size_t)cw->nx + (size_t)i;
    for (uint32_t q = cw->start[b]; q < cw->start[b + 1]; q++)
        if (!disc_clear(cw, s, cw->items[q], r, tol))
            return false;
    return true;
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

bool ap_circle_world_line_tol(const ap_circle_world *cw, double ax, double ay, double bx, double by, double r,
                              double tol)
{
    if (!isfinite(ax) || !isfinite(ay) || !isfinite(bx) || !isfinite(by) || !isfinite(r) || r < 0.0 ||
        !isfinite(tol))
        return false;
    sweep s = {ax, ay, bx, by, NULL, fmin(ax, bx), fmin(ay, by), fmax(ax, bx), fmax(ay, by)};
    return sweep_clear(cw, &s, r, tol);
}

bool ap_circle_world_segment_tol(const ap_circle_world *cw, const ap_segment *sg, double r, double tol)
{
    if (sg->type != AP_SEG_ARC || !(sg->radius > 0.0) || sg->sweep == 0.0)
        return ap_circle_world_line_tol(cw, sg->x0, sg->y0, sg->x1, sg->y1, r, tol);
    if (!isfinite(r) || r < 0.0 || !isfinite(tol))
        return false;
    carc a = {sg->cx, sg->cy, sg->radius, 0.0, fmin(fabs(sg->sweep), 2.0 * M_PI), sg->x0, sg->y0, sg->x1, sg->y1};
    double start = atan2(sg->y0 - sg->cy, sg->x0 - sg->cx);
    a.a0 = sg->sweep >= 0.0 ? start : start + sg->sweep;
    if (!isfinite(a.cx) || !isfinite(a.cy) || !isfinite(a.R) || !isfinite(a.a0) || !isfinite(a.x1) ||
        !isfinite(a.y1))
        return false;
    sweep s = {0};
    s.arc = &a;
    arc_bbox(&a, &s.minx, &s.miny, &s.maxx, &s.maxy);
    return sweep_clear(cw, &s, r, tol);
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
