/* square.c — swept axis-aligned squares against blocked cells (square.h). */
#include "square.h"

#include <math.h>

#define EPS 1e-9

/* The footprint centred at x overlaps the open cell column [i, i+1] iff |x - (i + 0.5)| < h + 0.5, i.e.
 * x in (i - h, i + 1 + h); likewise for rows. Along the line the centre's x is linear in t, so the t where
 * it overlaps column i is one interval, and over that interval y spans [y(t0), y(t1)]. */
bool ap_square_line_clear(const ap_map *m, double ax, double ay, double bx, double by, double h)
{
    if (!(isfinite(ax) && isfinite(ay) && isfinite(bx) && isfinite(by) && h >= 0.0 && isfinite(h)))
        return false;
    const double W = (double)m->width, H = (double)m->height;
    const double x0 = fmin(ax, bx), x1 = fmax(ax, bx), y0 = fmin(ay, by), y1 = fmax(ay, by);
    if (x0 - h < -EPS || y0 - h < -EPS || x1 + h > W + EPS || y1 + h > H + EPS)
        return false;
    const double dx = bx - ax, dy = by - ay;
    int32_t i0 = (int32_t)floor(x0 - h), i1 = (int32_t)ceil(x1 + h) - 1;
    i0 = i0 < 0 ? 0 : i0;
    i1 = i1 > m->width - 1 ? m->width - 1 : i1;
    for (int32_t i = i0; i <= i1; i++) {
        const double lo = (double)i - h + EPS, hi = (double)i + 1.0 + h - EPS; /* centre x range */
        double t0 = 0.0, t1 = 1.0;
        if (fabs(dx) < 1e-15) {
            if (!(ax > lo && ax < hi))
                continue;
        } else {
            double ta = (lo - ax) / dx, tb = (hi - ax) / dx;
            t0 = fmax(0.0, fmin(ta, tb));
            t1 = fmin(1.0, fmax(ta, tb));
            /* the range is open, as above: a segment that only reaches its bound (t0 == t1, an end exactly
             * EPS over a wall) touches it, as the end alone would */
            if (t0 >= t1)
                continue;
        }
        const double ya = ay + t0 * dy, yb = ay + t1 * dy;
        const double ylo = fmin(ya, yb), yhi = fmax(ya, yb);
        /* rows j with j - h < y and j + 1 + h > y for some y in [ylo, yhi] */
        int32_t j0 = (int32_t)floor(ylo - 1.0 - h + EPS) + 1, j1 = (int32_t)ceil(yhi + h - EPS) - 1;
        j0 = j0 < 0 ? 0 : j0;
        j1 = j1 > m->height - 1 ? m->height - 1 : j1;
        for (int32_t j = j0; j <= j1; j++)
            if (!m->pass[ap_map_index(m, i, j)])
                return false;
    }
    return true;
}
