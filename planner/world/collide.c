/* collide.c — exact swept-disc clearance against blocked and off-map cells, plus Pinter's sampled test.
 *
 * Source: Pinter, "Toward More Realistic Pathfinding", "Smoothing the A* Path": Walkable(A, B) checks
 * whether the unit, moving from A to B, overlaps a blocked tile. Pinter samples every 1/5 tile and tests
 * four diamond points at the unit's radius (kept as ap_line_clear_sampled); that can step over a corner,
 * so the planner uses an exact test instead: the closed disc of radius r swept along the segment/arc
 * touches the closed square of a blocked cell iff their distance is <= r.
 *
 * Floating point: the only tolerance is AP_COLLIDE_EPS (1e-9 tiles), always on the conservative side —
 * candidate ranges are widened by it, a distance within r + eps counts as touching, and angle tests on arcs
 * accept points up to eps outside the sweep (which can only make a distance smaller).
 */
#include "collide.h"

#include <math.h>
#include <stdbool.h>

/* fast_atan2 (a few ulp from libm) for the arc angle tests: they accept AP_COLLIDE_EPS around the sweep,
 * so ulp-level angle differences cannot change a decision beyond that tolerance; was ~19 % of a profile
 * build's instructions with libm's atan2. */
#include "../base/fastmath.h"

#define AP_COLLIDE_EPS 1e-9

/* pass: a padded passability mask in m's layout (m->pass, or m->cheap for the cheap-terrain view). */
static inline bool cell_blocked(const ap_map *m, const uint8_t *pass, int32_t i, int32_t j)
{
    if (i < 0 || j < 0 || i >= m->width || j >= m->height)
        return true;
    return pass[ap_map_index(m, i, j)] == 0;
}

/* Squared distance from point p to the closed square [sx, sx+1] x [sy, sy+1]. */
static inline double point_square_d2(double px, double py, double sx, double sy)
{
    double dx = px < sx ? sx - px : (px > sx + 1.0 ? px - sx - 1.0 : 0.0);
    double dy = py < sy ? sy - py : (py > sy + 1.0 ? py - sy - 1.0 : 0.0);
    return dx * dx + dy * dy;
}

static inline double point_segment_d2(double px, double py, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay;
    double L2 = dx * dx + dy * dy;
    double t = L2 > 0.0 ? ((px - ax) * dx + (py - ay) * dy) / L2 : 0.0;
    if (t < 0.0)
        t = 0.0;
    else if (t > 1.0)
        t = 1.0;
    double ex = ax + t * dx - px, ey = ay + t * dy - py;
    return ex * ex + ey * ey;
}

/* Liang-Barsky clip of segment AB against the closed square: true when they share a point. */
static bool segment_hits_square(double ax, double ay, double bx, double by, double sx, double sy)
{
    double dx = bx - ax, dy = by - ay;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {ax - sx, sx + 1.0 - ax, ay - sy, sy + 1.0 - ay};
    double t0 = 0.0, t1 = 1.0;
    for (int k = 0; k < 4; k++) {
        if (p[k] == 0.0) {
            if (q[k] < 0.0)
                return false;
        } else {
            double t = q[k] / p[k];
            if (p[k] < 0.0) {
                if (t > t1)
                    return false;
                if (t > t0)
                    t0 = t;
            } else {
                if (t < t0)
                    return false;
                if (t < t1)
                    t1 = t;
            }
        }
    }
    return true;
}

/* Exact squared distance between segment AB and the square of cell (sx, sy). Two disjoint convex polygons
 * are closest at a vertex of one and the boundary of the other: the segment's end points against the square,
 * or the square's corners against the segment. */
static double segment_square_d2(double ax, double ay, double bx, double by, double sx, double sy)
{
    if (segment_hits_square(ax, ay, bx, by, sx, sy))
        return 0.0;
    double d = point_square_d2(ax, ay, sx, sy);
    double e = point_square_d2(bx, by, sx, sy);
    if (e < d)
        d = e;
    for (int c = 0; c < 4; c++) {
        double cx = sx + (double)(c & 1), cy = sy + (double)(c >> 1);
        e = point_segment_d2(cx, cy, ax, ay, bx, by);
        if (e < d)
            d = e;
    }
    return d;
}

/* The closed disc touches the off-map region ({x <= 0} u {x >= w} u {y <= 0} u {y >= h}, all covered by
 * off-map cells) iff the swept shape's bounding box, widened by r, reaches it. */
static bool bbox_leaves_map(const ap_map *m, double minx, double miny, double maxx, double maxy, double r)
{
    return !(minx - r > AP_COLLIDE_EPS && miny - r > AP_COLLIDE_EPS && maxx + r < (double)m->width - AP_COLLIDE_EPS &&
             maxy + r < (double)m->height - AP_COLLIDE_EPS);
}

/* The cell of coordinate v clamped to [0, hi]: clamp_cell(v) == clamp_cell(floor(v)) for finite v (floor(v) < 0
 * iff v < 0; for v >= 0 truncation is floor, and v > hi covers floor(v) > hi), so callers need no floor(). */
static inline int32_t clamp_cell(double v, int32_t hi)
{
    if (v < 0.0)
        return 0;
    if (v > (double)hi)
        return hi;
    return (int32_t)v;
}

/* ap_line_clear_mask over m's own passability with its bit lines (map.h pass_bits): the same exact verdict,
 * walking the MINOR axis instead. For each line of cells across it (a row of an x-major segment, a column of
 * a y-major one) the capsule reaches the cells whose major coordinate lies within r + eps (and 1e-9 more,
 * against rounding) of the segment's major range over that line's minor range widened by r + eps: a
 * superset of the cells within r + eps of the segment, as the byte loop's is; the blocked ones among them
 * (0 bits, 64 a word) get the same exact distance test. A segment at slope s visits about |minor extent|
 * lines with |1/s| + 2r + 3 cells each, in words, instead of |major extent| columns of 2r + 3 bytes; the
 * finish's line-of-sight smoothing (Pinter's Listing 1, one test per path cell) spends most of a grid
 * answer here (BENCHMARKS.md "Line tests over bit lines"). */
static bool line_clear_bits(const ap_map *m, double ax, double ay, double bx, double by, double r)
{
    const double rr = (r + AP_COLLIDE_EPS) * (r + AP_COLLIDE_EPS);
    const double pad = r + AP_COLLIDE_EPS, widen = pad + 1e-9;
    const bool ymajor = fabs(by - ay) > fabs(bx - ax);
    const double ua = ymajor ? ay : ax, va = ymajor ? ax : ay;
    const double ub = ymajor ? by : bx, vb = ymajor ? bx : by;
    const double umin = fast_min(ua, ub), umax = fast_max(ua, ub), vmin = fast_min(va, vb), vmax = fast_max(va, vb);
    const int32_t uhi_cell = (ymajor ? m->height : m->width) - 1;
    const int32_t vhi_cell = (ymajor ? m->width : m->height) - 1;
    /* lines along u: rows (words of x) for an x-major segment, columns (words of y) for a y-major one */
    const uint64_t *lines = ymajor ? m->pass_cols : m->pass_bits;
    const size_t words = ymajor ? m->bits_col_words : m->bits_row_words;
    const double dv = vb - va, inv = dv != 0.0 ? (ub - ua) / dv : 0.0;
    const int32_t k0 = clamp_cell(vmin - widen, vhi_cell), k1 = clamp_cell(vmax + widen, vhi_cell);
    for (int32_t k = k0; k <= k1; k++) {
        const double v0 = fast_max(vmin, (double)k - widen), v1 = fast_min(vmax, (double)k + 1.0 + widen);
        if (v0 > v1)
            continue;
        double ulo = umin, uhi = umax;
        if (dv != 0.0) {
            const double u0 = ua + (v0 - va) * inv, u1 = ua + (v1 - va) * inv;
            ulo = fast_min(u0, u1);
            uhi = fast_max(u0, u1);
        }
        /* padded positions p = cell + 1 of this line, in words */
        const int32_t p0 = clamp_cell(ulo - widen, uhi_cell) + 1, p1 = clamp_cell(uhi + widen, uhi_cell) + 1;
        const uint64_t *L = lines + (size_t)(k + 1) * words;
        for (int32_t p = p0; p <= p1;) {
            const int32_t b = p & 63, span = 64 - b < p1 - p + 1 ? 64 - b : p1 - p + 1;
            uint64_t blocked = ~L[p >> 6] >> b;
            if (span < 64)
                blocked &= (1ull << span) - 1;
            while (blocked != 0) {
                const int32_t c = p + __builtin_ctzll(blocked) - 1;
                blocked &= blocked - 1;
                const int32_t i = ymajor ? k : c, j = ymajor ? c : k;
                if (segment_square_d2(ax, ay, bx, by, (double)i, (double)j) <= rr)
                    return false;
            }
            p += span;
        }
    }
    return true;
}

bool ap_line_clear_mask(const ap_map *m, const uint8_t *pass, double ax, double ay, double bx, double by, double r)
{
    if (!isfinite(ax) || !isfinite(ay) || !isfinite(bx) || !isfinite(by) || !isfinite(r) || r < 0.0)
        return false;
    double minx = fast_min(ax, bx), maxx = fast_max(ax, bx), miny = fast_min(ay, by), maxy = fast_max(ay, by);
    if (bbox_leaves_map(m, minx, miny, maxx, maxy, r))
        return false;
    if (pass == m->pass && m->pass_bits != NULL)
        return line_clear_bits(m, ax, ay, bx, by, r);
    const double rr = (r + AP_COLLIDE_EPS) * (r + AP_COLLIDE_EPS);
    const double pad = r + AP_COLLIDE_EPS;
    /* Walk the major axis u one column of cells at a time; in each column the capsule can only reach the
     * minor-axis range v(u) over u in [column - r, column + 1 + r], widened by r. Coordinates are swapped
     * for a y-major line so one loop serves both; the padded index of cell (u = c, v = k) is
     * (c + 1) * su + (k + 1) * sv. Every visited cell is on the map (clamped), so no bounds test. */
    const bool ymajor = fabs(by - ay) > fabs(bx - ax);
    const double ua = ymajor ? ay : ax, va = ymajor ? ax : ay;
    const double ub = ymajor ? by : bx, vb = ymajor ? bx : by;
    const double umin = fast_min(ua, ub), umax = fast_max(ua, ub);
    const int32_t uhi_cell = (ymajor ? m->height : m->width) - 1;
    const int32_t vhi_cell = (ymajor ? m->width : m->height) - 1;
    const size_t su = ymajor ? (size_t)m->stride : 1, sv = ymajor ? 1 : (size_t)m->stride;
    const double du = ub - ua;
    const double slope = du != 0.0 ? (vb - va) / du : 0.0;
    const int32_t c0 = clamp_cell(umin - pad, uhi_cell), c1 = clamp_cell(umax + pad, uhi_cell);
    for (int32_t c = c0; c <= c1; c++) {
        double u0 = fast_max(umin, (double)c - pad), u1 = fast_min(umax, (double)c + 1.0 + pad);
        if (u0 > u1)
            continue;
        double v0 = du != 0.0 ? va + (u0 - ua) * slope : va;
        double v1 = du != 0.0 ? va + (u1 - ua) * slope : vb;
        double vlo = fast_min(v0, v1) - pad, vhi = fast_max(v0, v1) + pad;
        int32_t k0 = clamp_cell(vlo, vhi_cell), k1 = clamp_cell(vhi, vhi_cell);
        const uint8_t *cell = pass + (size_t)(c + 1) * su + (size_t)(k0 + 1) * sv;
        for (int32_t k = k0; k <= k1; k++, cell += sv) {
            if (*cell != 0)
                continue;
            int32_t i = ymajor ? k : c, j = ymajor ? c : k;
            if (segment_square_d2(ax, ay, bx, by, (double)i, (double)j) <= rr)
                return false;
        }
    }
    return true;
}

/* A circular arc normalised to counter-clockwise (increasing angle): centre, radius, start angle, sweep in
 * [0, 2pi], and its end points. */
typedef struct arc {
    double cx, cy, R, a0, sweep;
    double ex0, ey0, ex1, ey1;
} arc;

static bool angle_in(const arc *a, double ang)
{
    if (a->sweep >= 2.0 * M_PI)
        return true;
    double t = ang - a->a0;
    t -= 2.0 * M_PI * floor(t / (2.0 * M_PI));
    return t <= a->sweep + AP_COLLIDE_EPS || t >= 2.0 * M_PI - AP_COLLIDE_EPS;
}

static double point_arc_d2(const arc *a, double px, double py)
{
    double dx = px - a->cx, dy = py - a->cy;
    if (angle_in(a, fast_atan2(dy, dx))) {
        double d = hypot(dx, dy) - a->R;
        return d * d;
    }
    double e0 = (px - a->ex0) * (px - a->ex0) + (py - a->ey0) * (py - a->ey0);
    double e1 = (px - a->ex1) * (px - a->ex1) + (py - a->ey1) * (py - a->ey1);
    return fmin(e0, e1);
}

/* True when the arc meets the axis-parallel edge {coordinate `fixed` on axis (vertical ? x : y)} spanning
 * [lo, lo + 1] on the other axis. */
static bool arc_crosses_edge(const arc *a, bool vertical, double fixed, double lo)
{
    double off = vertical ? fixed - a->cx : fixed - a->cy;
    double disc = a->R * a->R - off * off;
    if (disc < 0.0)
        return false;
    double s = sqrt(disc);
    for (int k = 0; k < 2; k++) {
        double o = k == 0 ? -s : s; /* along the edge, relative to the centre */
        double along = (vertical ? a->cy : a->cx) + o;
        if (along < lo - AP_COLLIDE_EPS || along > lo + 1.0 + AP_COLLIDE_EPS)
            continue;
        double ang = vertical ? fast_atan2(o, off) : fast_atan2(off, o);
        if (angle_in(a, ang))
            return true;
    }
    return false;
}

/* Exact squared distance between the arc and the square of cell (sx, sy). Zero when an arc end lies in the
 * square or the arc crosses an edge. Otherwise the closest pair is one of: an arc end and the square, a
 * corner and the arc, or an interior arc point and an interior edge point joined by the edge's normal —
 * which on the arc means the radius is parallel to that normal (angles 0, pi for vertical edges, pi/2, 3pi/2
 * for horizontal ones). */
static double arc_square_d2(const arc *a, double sx, double sy)
{
    double d = point_square_d2(a->ex0, a->ey0, sx, sy);
    double e = point_square_d2(a->ex1, a->ey1, sx, sy);
    if (d == 0.0 || e == 0.0)
        return 0.0;
    if (arc_crosses_edge(a, true, sx, sy) || arc_crosses_edge(a, true, sx + 1.0, sy) ||
        arc_crosses_edge(a, false, sy, sx) || arc_crosses_edge(a, false, sy + 1.0, sx))
        return 0.0;
    d = fmin(d, e);
    for (int c = 0; c < 4; c++)
        d = fmin(d, point_arc_d2(a, sx + (double)(c & 1), sy + (double)(c >> 1)));
    for (int k = 0; k < 4; k++) {
        double ang = (double)k * M_PI_2;
        if (!angle_in(a, ang))
            continue;
        double px = a->cx + (k == 0 ? a->R : k == 2 ? -a->R : 0.0);
        double py = a->cy + (k == 1 ? a->R : k == 3 ? -a->R : 0.0);
        if (k % 2 == 0) {
            if (py >= sy && py <= sy + 1.0) {
                double t = fmin(fabs(px - sx), fabs(px - sx - 1.0));
                d = fmin(d, t * t);
            }
        } else if (px >= sx && px <= sx + 1.0) {
            double t = fmin(fabs(py - sy), fabs(py - sy - 1.0));
            d = fmin(d, t * t);
        }
    }
    return d;
}

/* The normalised arc of an arc segment (angles ascending from a0 over sweep >= 0); false for non-finite numbers. */
static bool arc_of_segment(const ap_segment *s, arc *a)
{
    a->cx = s->cx;
    a->cy = s->cy;
    a->R = s->radius;
    double start = atan2(s->y0 - s->cy, s->x0 - s->cx);
    a->a0 = s->sweep >= 0.0 ? start : start + s->sweep;
    a->sweep = fabs(s->sweep);
    a->ex0 = s->x0;
    a->ey0 = s->y0;
    a->ex1 = s->x1;
    a->ey1 = s->y1;
    return isfinite(a->cx) && isfinite(a->cy) && isfinite(a->R) && isfinite(a->a0) && isfinite(a->sweep);
}

/* Bounding box of an arc: its end points plus the circle's axis-extreme points that lie in the sweep. */
static void arc_bbox(const arc *a, double *minx, double *miny, double *maxx, double *maxy)
{
    *minx = fmin(a->ex0, a->ex1);
    *maxx = fmax(a->ex0, a->ex1);
    *miny = fmin(a->ey0, a->ey1);
    *maxy = fmax(a->ey0, a->ey1);
    if (angle_in(a, 0.0))
        *maxx = a->cx + a->R;
    if (angle_in(a, M_PI_2))
        *maxy = a->cy + a->R;
    if (angle_in(a, M_PI))
        *minx = a->cx - a->R;
    if (angle_in(a, -M_PI_2))
        *miny = a->cy - a->R;
}

static bool arc_clear(const ap_map *m, const uint8_t *pass, const ap_segment *s, double r)
{
    arc a;
    if (!arc_of_segment(s, &a))
        return false;
    double minx, miny, maxx, maxy;
    arc_bbox(&a, &minx, &miny, &maxx, &maxy);
    if (bbox_leaves_map(m, minx, miny, maxx, maxy, r))
        return false;
    const double pad = r + AP_COLLIDE_EPS;
    const double rr = pad * pad;
    const double outer = a.R + pad, inner = a.R - pad;
    int32_t i0 = clamp_cell(floor(minx - pad), m->width - 1), i1 = clamp_cell(floor(maxx + pad), m->width - 1);
    int32_t j0 = clamp_cell(floor(miny - pad), m->height - 1), j1 = clamp_cell(floor(maxy + pad), m->height - 1);
    for (int32_t j = j0; j <= j1; j++) {
        for (int32_t i = i0; i <= i1; i++) {
            if (!cell_blocked(m, pass, i, j))
                continue;
            /* Annulus pre-filter: a square wholly outside radius R + r or wholly inside R - r of the centre
             * cannot be touched. */
            double near2 = point_square_d2(a.cx, a.cy, (double)i, (double)j);
            if (near2 > outer * outer)
                continue;
            double fx = fmax(fabs(a.cx - i), fabs(a.cx - i - 1.0)), fy = fmax(fabs(a.cy - j), fabs(a.cy - j - 1.0));
            if (inner > 0.0 && fx * fx + fy * fy < inner * inner)
                continue;
            if (arc_square_d2(&a, (double)i, (double)j) <= rr)
                return false;
        }
    }
    return true;
}

bool ap_line_clear(const ap_map *m, double ax, double ay, double bx, double by, double r)
{
    return ap_line_clear_mask(m, m->pass, ax, ay, bx, by, r);
}

bool ap_segment_clear_mask(const ap_map *m, const uint8_t *pass, const ap_segment *s, double r)
{
    if (!isfinite(r) || r < 0.0)
        return false;
    if (s->type == AP_SEG_ARC && s->radius > 0.0 && s->sweep != 0.0)
        return arc_clear(m, pass, s, r);
    return ap_line_clear_mask(m, pass, s->x0, s->y0, s->x1, s->y1, r);
}

bool ap_segment_clear(const ap_map *m, const ap_segment *s, double r)
{
    return ap_segment_clear_mask(m, m->pass, s, r);
}


size_t ap_segment_cells(const ap_segment *s, double r, int32_t (*out)[2], size_t cap)
{
    if (!isfinite(r) || r < 0.0 || !isfinite(s->x0) || !isfinite(s->y0) || !isfinite(s->x1) || !isfinite(s->y1))
        return 0;
    const bool is_arc = s->type == AP_SEG_ARC && s->radius > 0.0 && s->sweep != 0.0;
    arc a;
    double minx = fmin(s->x0, s->x1), maxx = fmax(s->x0, s->x1);
    double miny = fmin(s->y0, s->y1), maxy = fmax(s->y0, s->y1);
    if (is_arc) {
        if (!arc_of_segment(s, &a))
            return 0;
        arc_bbox(&a, &minx, &miny, &maxx, &maxy);
    }
    const double pad = r + AP_COLLIDE_EPS;
    const double rr = pad * pad;
    const int32_t i0 = (int32_t)floor(minx - pad), i1 = (int32_t)floor(maxx + pad);
    const int32_t j0 = (int32_t)floor(miny - pad), j1 = (int32_t)floor(maxy + pad);
    /* Annulus pre-filter for arcs (as in arc_clear), widened by AP_COLLIDE_EPS so that it only skips cells
     * whose distance from the whole circle exceeds pad + eps, where the exact test (accurate to ~1e-15)
     * would reject them too: the listed cells are unchanged (all 48 bench profiles' masks bit-identical).
     * Profile build D48, 16 headings, reverse, R = 4, r = 0.3 (callgrind Ir per whole build): 475 M before,
     * 404 M with this filter, 369 M with fast_atan2 in the arc tests as well (see profile.c add_cells). */
    const double outer = is_arc ? a.R + pad + AP_COLLIDE_EPS : 0.0, inner = is_arc ? a.R - pad - AP_COLLIDE_EPS : 0.0;
    size_t n = 0;
    for (int32_t j = j0; j <= j1; j++) {
        for (int32_t i = i0; i <= i1; i++) {
            if (is_arc) {
                if (point_square_d2(a.cx, a.cy, (double)i, (double)j) > outer * outer)
                    continue;
                double fx = fmax(fabs(a.cx - i), fabs(a.cx - i - 1.0)), fy = fmax(fabs(a.cy - j), fabs(a.cy - j - 1.0));
                if (inner > 0.0 && fx * fx + fy * fy < inner * inner)
                    continue;
            }
            double d2 = is_arc ? arc_square_d2(&a, (double)i, (double)j)
                               : segment_square_d2(s->x0, s->y0, s->x1, s->y1, (double)i, (double)j);
            if (d2 > rr)
                continue;
            if (n < cap) {
                out[n][0] = i;
                out[n][1] = j;
            }
            n++;
        }
    }
    return n;
}

static bool point_blocked(const ap_map *m, double x, double y)
{
    if (!(x >= 0.0 && y >= 0.0 && x < (double)m->width && y < (double)m->height))
        return true;
    return m->pass[ap_map_index(m, (int32_t)x, (int32_t)y)] == 0;
}

bool ap_line_clear_sampled(const ap_map *m, double ax, double ay, double bx, double by, double r)
{
    double len = hypot(bx - ax, by - ay);
    if (!isfinite(len) || !isfinite(r))
        return false;
    /* Pinter: one sample every fifth of a tile, the centre plus four diamond points at distance r. */
    long steps = (long)ceil(len / 0.2);
    for (long k = 0; k <= steps; k++) {
        double t = steps > 0 ? (double)k / (double)steps : 0.0;
        double x = ax + (bx - ax) * t, y = ay + (by - ay) * t;
        if (point_blocked(m, x, y) || point_blocked(m, x + r, y) || point_blocked(m, x - r, y) ||
            point_blocked(m, x, y + r) || point_blocked(m, x, y - r))
            return false;
    }
    return true;
}
