/* grid_point.c — the point unit's line-of-sight rule on grid maps (graph.h, ap_aa_grid_point_line_ok):
 * touching blocked squares is allowed, entering the interior of their union or squeezing through a
 * diagonal pair's shared corner is not.
 *
 * The three ways a segment can break the rule, each tested exactly (1e-9 tiles of slack on the allowing
 * side): it crosses the open square of a blocked cell (shrunk by the slack: the parameter intervals
 * strictly inside its column and its row overlap); it runs along an edge shared by two blocked cells
 * (within the slack of a grid line, where the shrunk squares do not reach: the two cells' merged rectangle
 * decides, for a part of the segment nearly parallel to the line in a column); it contains a vertex whose
 * blocked cells are exactly a diagonal pair (a squeeze). A
 * vertex with four blocked cells is interior too, but a segment of positive length through it enters a
 * square; a single point is tested by the cells whose closures hold it.
 */
#include "graph.h"

#include <math.h>

#define EPS 1e-9

/* Branch forms of fmin and fmax for the walk (the inputs are finite, checked on entry, so libm's NaN rules
 * do not matter, and these inline where the libm calls did not: ~9 % of a den520d query profile). */
static inline double lo2(double a, double b)
{
    return a < b ? a : b;
}

static inline double hi2(double a, double b)
{
    return a > b ? a : b;
}

/* floor for |x| < 2^31 (coordinates, checked finite and within the map's bounds on entry) without the libm
 * call (the baseline x86-64 target has no rounding instruction): the same value as floor. */
static inline int32_t ifloor(double x)
{
    int32_t i = (int32_t)x;
    return (double)i > x ? i - 1 : i;
}

static bool blocked(const ap_map *m, int32_t i, int32_t j)
{
    return !ap_map_passable(m, i, j);
}

/* Does the segment enter the open rectangle of w x h cells from cell (i, j) shrunk by EPS? The parameters t
 * in [0, 1] where the segment is strictly inside both open slabs (columns, then rows) form one interval; it
 * enters iff that interval is not empty. */
static inline bool enters_rect(double ax, double ay, double bx, double by, int32_t i, int32_t j, int32_t w,
                               int32_t h)
{
    const double a[2] = {ax, ay}, d[2] = {bx - ax, by - ay}, lo[2] = {i + EPS, j + EPS};
    const double size[2] = {(double)w, (double)h};
    double t0 = 0.0, t1 = 1.0;
    for (int k = 0; k < 2; k++) {
        const double hi = lo[k] + size[k] - 2.0 * EPS;
        if (d[k] == 0.0) {
            if (!(a[k] > lo[k] && a[k] < hi))
                return false;
            continue;
        }
        double u = (lo[k] - a[k]) / d[k], v = (hi - a[k]) / d[k];
        t0 = hi2(t0, lo2(u, v));
        t1 = lo2(t1, hi2(u, v));
    }
    return t0 < t1;
}

static inline bool enters_square(double ax, double ay, double bx, double by, int32_t i, int32_t j)
{
    return enters_rect(ax, ay, bx, by, i, j, 1, 1);
}

/* Blocked cells exactly one diagonal pair of the four meeting at vertex (c, k). */
static bool squeeze(const ap_map *m, int32_t c, int32_t k)
{
    bool nw = blocked(m, c - 1, k - 1), ne = blocked(m, c, k - 1), sw = blocked(m, c - 1, k), se = blocked(m, c, k);
    return (nw && se && !ne && !sw) || (ne && sw && !nw && !se);
}

static bool point_ok(const ap_map *m, double x, double y)
{
    double fx = floor(x), fy = floor(y);
    /* The cells whose closed squares hold the point: one column, or two when x is on a grid line. */
    int32_t i0 = (int32_t)fx, i1 = (int32_t)fx, j0 = (int32_t)fy, j1 = (int32_t)fy;
    if (x - fx <= EPS)
        i0--;
    else if (fx + 1.0 - x <= EPS)
        i1++;
    if (y - fy <= EPS)
        j0--;
    else if (fy + 1.0 - y <= EPS)
        j1++;
    bool all = true;
    for (int32_t j = j0; j <= j1; j++)
        for (int32_t i = i0; i <= i1; i++)
            all = all && blocked(m, i, j);
    if (all)
        return false;
    return !(i1 > i0 && j1 > j0 && squeeze(m, i1, j1));
}

/* Vertices on the segment (within EPS, measured along the minor axis at each integer of the major axis)
 * that are squeezes. */
static bool through_squeeze(const ap_map *m, double ax, double ay, double bx, double by)
{
    bool ymajor = fabs(by - ay) > fabs(bx - ax);
    double ua = ymajor ? ay : ax, va = ymajor ? ax : ay, ub = ymajor ? by : bx, vb = ymajor ? bx : by;
    double du = ub - ua, slope = du != 0.0 ? (vb - va) / du : 0.0;
    double lo = fmin(ua, ub), hi = fmax(ua, ub);
    for (double u = ceil(lo - EPS); u <= hi + EPS; u += 1.0) {
        /* floor(v + 0.5) is round(v) wherever v is within EPS of an integer, the only case that counts. */
        double v = va + (u - ua) * slope, k = (double)ifloor(v + 0.5);
        if (fabs(v - k) > EPS)
            continue;
        int32_t c = (int32_t)(ymajor ? k : u), r = (int32_t)(ymajor ? u : k);
        if (squeeze(m, c, r))
            return true;
    }
    return false;
}

bool ap_aa_grid_point_line_ok(const ap_map *m, double ax, double ay, double bx, double by)
{
    if (!isfinite(ax) || !isfinite(ay) || !isfinite(bx) || !isfinite(by))
        return false;
    const double W = (double)m->width, H = (double)m->height;
    if (!(ax >= -EPS && ay >= -EPS && bx >= -EPS && by >= -EPS && ax <= W + EPS && bx <= W + EPS &&
          ay <= H + EPS && by <= H + EPS))
        return false;
    if (ax == bx && ay == by)
        return point_ok(m, ax, ay);
    /* The walk's order follows A -> B (below); every number it tests is computed from the two ends in a fixed
     * order (the lexicographically smaller (x, y) first), so the verdict of a segment does not depend on
     * which end the caller names first: a line the search accepted once (a table line, tested from its
     * lower corner) is accepted again in the answer's direction (anyangle.h, ap_aa_result.verified). */
    const int32_t step = bx >= ax ? 1 : -1;
    const bool down = by >= ay;
    if (bx < ax || (bx == ax && by < ay)) {
        double t = ax;
        ax = bx;
        bx = t;
        t = ay;
        ay = by;
        by = t;
    }
    /* Walk the columns of cells from the first end toward the second, so a blocked line usually fails near
     * its start (the search asks mostly about lines that are blocked). In each column the segment's rows
     * over the column's x-range that can hold a shrunk square the segment enters. */
    const double dx = bx - ax, slope = dx != 0.0 ? (by - ay) / dx : 0.0;
    const double minx = fmin(ax, bx), maxx = fmax(ax, bx);
    int32_t c0 = ifloor(fmax(minx, 0.0)), c1 = ifloor(fmin(maxx, W - 0.5));
    if (c1 < c0)
        c1 = c0;
    for (int32_t c = step > 0 ? c0 : c1; c >= c0 && c <= c1; c += step) {
        double u0 = hi2(minx, (double)c), u1 = lo2(maxx, c + 1.0);
        double ylo = lo2(ay, by), yhi = hi2(ay, by);
        if (dx != 0.0) {
            double v0 = ay + (u0 - ax) * slope, v1 = ay + (u1 - ax) * slope;
            ylo = lo2(v0, v1);
            yhi = hi2(v0, v1);
        }
        /* A segment enters row r's shrunk square only where y lies in (r + EPS, r + 1 - EPS), so only rows
         * floor(ylo + EPS/2) .. floor(yhi - EPS/2) can fail it (EPS/2 of margin over the rounding of ylo and
         * yhi, far above it for any map size); enters_square decides. */
        int32_t r0 = ifloor(ylo + 0.5 * EPS), r1 = ifloor(yhi - 0.5 * EPS);
        if (r0 < 0)
            r0 = 0;
        if (r1 > m->height - 1)
            r1 = m->height - 1;
        /* c and r are on the map here (c in [0, width), r in [0, height)): the padded byte directly, without
         * ap_map_passable's bounds test (the same verdict; ~5 % of a query). */
        const uint8_t *col = m->pass + ap_map_index(m, c, 0);
        for (int32_t q = 0; q <= r1 - r0; q++) {
            int32_t r = down ? r0 + q : r1 - q;
            if (!col[(size_t)r * (size_t)m->stride] && enters_square(ax, ay, bx, by, c, r))
                return false;
        }
        /* An edge two blocked cells share lies inside their union, but in the EPS band the shrunk squares
         * leave out: a part of the segment that runs along a grid line (nearly parallel to it within this
         * column) is tested against the two cells' merged rectangle, shrunk by EPS. */
        if (yhi - ylo <= 2.0 * EPS && u1 - u0 > EPS) {
            const double ym = 0.5 * (ylo + yhi);
            const int32_t k = ifloor(ym + 0.5);
            if (k >= 0 && k <= m->height && fabs(ym - k) <= 2.0 * EPS && blocked(m, c, k - 1) && blocked(m, c, k) &&
                enters_rect(ax, ay, bx, by, c, k - 1, 1, 2))
                return false;
        }
        if (u1 - u0 <= 2.0 * EPS && yhi - ylo > EPS) {
            const double xm = 0.5 * (u0 + u1);
            const int32_t k = ifloor(xm + 0.5);
            if (k >= 0 && k <= m->width && fabs(xm - k) <= 2.0 * EPS) { /* off-map cells count as blocked */
                const int32_t rlo = ifloor(hi2(ylo, 0.0)), rhi = ifloor(lo2(yhi, m->height - 0.5));
                for (int32_t r = rlo; r <= rhi; r++)
                    if (blocked(m, k - 1, r) && blocked(m, k, r) && enters_rect(ax, ay, bx, by, k - 1, r, 2, 1))
                        return false;
            }
        }
    }
    /* The rarer failures last: most lines the search asks about already failed in the walk. */
    return !through_squeeze(m, ax, ay, bx, by);
}

bool ap_aa_circle_crosses_square(const ap_circle *c, int32_t i, int32_t j)
{
    const double ex = hi2(hi2(i - c->x, c->x - (i + 1)), 0.0), ey = hi2(hi2(j - c->y, c->y - (j + 1)), 0.0);
    return ex * ex + ey * ey < (c->r - 4.0 * EPS) * (c->r - 4.0 * EPS);
}

bool ap_aa_grid_point_pinch(const ap_map *m, double ax, double ay, double bx, double by, double t0, double t1,
                            int side, const ap_circle *c)
{
    const double dx = bx - ax, dy = by - ay;
    const double px = ax + t0 * dx, py = ay + t0 * dy, qx = ax + t1 * dx, qy = ay + t1 * dy;
    const int32_t i0 = ifloor(lo2(px, qx) - EPS), i1 = ifloor(hi2(px, qx) + EPS);
    const int32_t j0 = ifloor(lo2(py, qy) - EPS), j1 = ifloor(hi2(py, qy) + EPS);
    if ((int64_t)(i1 - i0 + 1) * (int64_t)(j1 - j0 + 1) > 4096)
        return true;
    /* touching: a square on that side near the part that the circle touches; a square there that the circle
     * crosses makes the meeting point a corner of free space (the union's edge crosses the circle), no gap */
    bool touching = false;
    for (int32_t j = j0 < 0 ? 0 : j0; j <= j1 && j < (int32_t)m->height; j++)
        for (int32_t i = i0 < 0 ? 0 : i0; i <= i1 && i < (int32_t)m->width; i++) {
            if (!blocked(m, i, j))
                continue;
            const double cross = dx * (j + 0.5 - ay) - dy * (i + 0.5 - ax);
            if ((cross > 0.0 ? 1 : -1) != side)
                continue;
            /* the part P -> Q against the square widened by EPS: slab clipping */
            const double a[2] = {px, py}, d[2] = {qx - px, qy - py}, lo[2] = {i - EPS, j - EPS};
            double u0 = 0.0, u1 = 1.0;
            for (int k = 0; k < 2 && u0 <= u1; k++) {
                const double hi = lo[k] + 1.0 + 2.0 * EPS;
                if (d[k] == 0.0) {
                    if (a[k] < lo[k] || a[k] > hi)
                        u1 = -1.0;
                    continue;
                }
                const double u = (lo[k] - a[k]) / d[k], v = (hi - a[k]) / d[k];
                u0 = hi2(u0, lo2(u, v));
                u1 = lo2(u1, hi2(u, v));
            }
            if (u0 > u1)
                continue;
            if (ap_aa_circle_crosses_square(c, i, j))
                return false;
            touching = true;
        }
    return touching;
}
