/* visibility.c — the corners a point may see, by row-by-row interval propagation (visibility.h). */
#include "visibility.h"

#include <math.h>
#include <stdlib.h>

#define SHRINK AP_AA_VIS_SHRINK
/* Rounding margins: each interval is widened by WIDEN (times 1 + |x|) per projection, and corners are taken
 * within PICK of an interval; both only add candidates. */
#define WIDEN 1e-12
#define PICK 1e-7
/* Corner rules: directions within this of an axis count as on it (the rule's own margin is far smaller for
 * integer corners). */
#define CONE 1e-6

ap_aa_vis *ap_aa_vis_build(const ap_map *m, const double *x, const double *y, size_t nc)
{
    ap_aa_vis *v = calloc(1, sizeof *v);
    if (v == NULL)
        return NULL;
    const int32_t W = m->width, H = m->height;
    v->width = W;
    v->height = H;
    v->cx = x;
    size_t n_runs = 0;
    for (int32_t r = 0; r < H; r++)
        for (int32_t c = 0; c < W; c++)
            n_runs += !ap_map_passable(m, c, r) && (c == 0 || ap_map_passable(m, c - 1, r));
    v->row_start = malloc(((size_t)H + 1) * sizeof *v->row_start);
    v->run = malloc((2 * n_runs + 1) * sizeof *v->run);
    v->line_start = malloc(((size_t)H + 2) * sizeof *v->line_start);
    if (v->row_start == NULL || v->run == NULL || v->line_start == NULL) {
        ap_aa_vis_free(v);
        return NULL;
    }
    size_t k = 0;
    for (int32_t r = 0; r < H; r++) {
        v->row_start[r] = (uint32_t)k;
        for (int32_t c = 0; c < W; c++) {
            if (ap_map_passable(m, c, r))
                continue;
            int32_t e = c;
            while (e < W && !ap_map_passable(m, e, r))
                e++;
            v->run[2 * k] = c;
            v->run[2 * k + 1] = e;
            k++;
            c = e;
        }
    }
    v->row_start[H] = (uint32_t)k;
    size_t j = 0;
    for (int32_t line = 0; line <= H + 1; line++) {
        v->line_start[line] = (uint32_t)j;
        while (j < nc && y[j] == (double)line) {
            if (x[j] < 0.0 || x[j] > (double)W || (j > 0 && y[j - 1] == y[j] && x[j - 1] >= x[j]))
                break;
            j++;
        }
    }
    /* Not sorted by line then x, or off the map; or a map so tall the scan's margins would not hold (the
     * merged boxes of subtract_row need rows shorter than 10^6 tiles). */
    if (j != nc || H > (1 << 20)) {
        ap_aa_vis_free(v);
        return NULL;
    }
    return v;
}

void ap_aa_vis_free(ap_aa_vis *v)
{
    if (v == NULL)
        return;
    free(v->row_start);
    free(v->run);
    free(v->line_start);
    free(v);
}

/* Intervals: [a, b] pairs of a buffer of capacity cap pairs. */
size_t ap_aa_vis_scratch_len(const ap_aa_vis *v)
{
    return 4 * ((size_t)v->width + 8);
}

/* The grid line (y) of corner j: the line whose block of indices holds it. */
static int32_t corner_line(const ap_aa_vis *v, uint32_t j)
{
    int32_t lo = 0, hi = v->height + 1;
    while (lo < hi) { /* the last line whose block starts at or before j */
        int32_t mid = lo + (hi - lo + 1) / 2;
        if (v->line_start[mid] <= j)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Is cell (c, r) blocked (off the map: yes)? Binary search of the row's runs. */
static bool cell_blocked(const ap_aa_vis *v, int32_t c, int32_t r)
{
    if (c < 0 || r < 0 || c >= v->width || r >= v->height)
        return true;
    uint32_t lo = v->row_start[r], hi = v->row_start[r + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (v->run[2 * mid + 1] <= c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < v->row_start[r + 1] && v->run[2 * lo] <= c;
}

/* Are both cells beside the unit edge from (c, L) to (c + 1, L) blocked? */
static bool edge_blocked(const ap_aa_vis *v, int32_t c, int32_t L)
{
    return cell_blocked(v, c, L - 1) && cell_blocked(v, c, L);
}

/* floor for |x| < 2^31 without the libm call (the baseline x86-64 target has no rounding instruction). */
static inline int32_t ifloor(double x)
{
    int32_t i = (int32_t)x;
    return (double)i > x ? i - 1 : i;
}

/* Branch forms of fmin and fmax (finite inputs; they inline where the libm calls did not). */
static inline double lo2(double a, double b)
{
    return a < b ? a : b;
}

static inline double hi2(double a, double b)
{
    return a > b ? a : b;
}

/* A scan's state: P, the direction (dir = +1 toward +y, -1 toward -y), the x range the corner rules allow,
 * and the buffers. */
typedef struct scan {
    const ap_aa_vis *v;
    double px, py;
    int dir;
    double xmin, xmax;
    double *cur, *nxt; /* intervals on the current line, the next line's */
    size_t n_cur, cap;
} scan;

/* Append [a, b] to the next line's intervals (merged with the last when they overlap; when full, the last
 * is widened to cover it: a superset still). */
static void emit(scan *s, size_t *n, double a, double b)
{
    if (*n > 0 && a <= s->nxt[2 * *n - 1]) {
        if (b > s->nxt[2 * *n - 1])
            s->nxt[2 * *n - 1] = b;
        return;
    }
    if (*n >= s->cap) {
        s->nxt[2 * *n - 1] = b;
        return;
    }
    s->nxt[2 * *n] = a;
    s->nxt[2 * *n + 1] = b;
    (*n)++;
}

/* Write the corners on line L within the current intervals (PICK of margin) to out at *k; backwards: in
 * decreasing x (the downward scan writes its corners reversed and turns the whole block round at the end). */
static void pick(const scan *s, int32_t L, uint32_t *out, size_t *k, bool backwards)
{
    const ap_aa_vis *v = s->v;
    const uint32_t b0 = v->line_start[L], b1 = v->line_start[L + 1];
    if (b0 == b1)
        return;
    size_t start = *k;
    uint32_t j = b0, hi = b1;
    if (s->n_cur > 0) /* the first corner at or right of the first interval's start */
        while (j < hi) {
            uint32_t mid = j + (hi - j) / 2;
            if (v->cx[mid] < s->cur[0] - PICK)
                j = mid + 1;
            else
                hi = mid;
        }
    for (size_t i = 0; i < s->n_cur && j < b1; i++) {
        const double a = s->cur[2 * i] - PICK, b = s->cur[2 * i + 1] + PICK;
        while (j < b1 && v->cx[j] < a)
            j++;
        for (; j < b1 && v->cx[j] <= b; j++)
            out[(*k)++] = j;
    }
    if (backwards)
        for (size_t i = start, e = *k; i + 1 < e; i++, e--) {
            uint32_t t = out[i];
            out[i] = out[e - 1];
            out[e - 1] = t;
        }
}

/* One row's subtraction: the shadows on the next line (factors f0 for the row box's edge nearer P, f1 for
 * the farther) of the blocked runs of row r, subtracted from the interval [a, b] whose rays sweep x in
 * [ba, bb] through the row; the rest emitted. A run's shadow is that of one box (its cells shrunk by SHRINK,
 * merged), split at the grid columns j in [near0, near1] round P's x. Why merging is safe elsewhere: a ray
 * meeting the merged box inside the 2 SHRINK gap round a column j between two of its cells has a slope
 * |dx/dy| >= (|j - px| - SHRINK) / (D + 1) (D: P's distance to the far line), and keeps it over at least half
 * the box's height (it leaves the box only through its top or bottom, the run's ends being a tile or more
 * away), so it crosses into one of the two shrunk squares within the row (the rule drops it) unless
 * |j - px| <= SHRINK (5 D + 6); in the first row (height h >= 8 SHRINK, D <= 1) unless |j - px| <= 0.6.
 * Shadows come in run order, increasing lower ends (projection from P keeps the order of boxes in a row). */
typedef struct row {
    int32_t r;
    double f0, f1;
    double near0, near1; /* the runs are split at the grid columns j in [near0, near1] */
} row;

/* The shadow (lo, hi) of box [x0, x1] in row w, relative to P's x. */
static inline void box_shadow(const scan *s, const row *w, double x0, double x1, double *lo, double *hi)
{
    const double u0 = x0 - s->px, u1 = x1 - s->px;
    *lo = s->px + u0 * (u0 >= 0.0 ? w->f1 : w->f0);
    *hi = s->px + u1 * (u1 >= 0.0 ? w->f0 : w->f1);
}

/* Subtract the open shadow (lo, hi) from what is left of [.., b] from *c on: returns false when nothing is
 * left (or no later shadow can matter: lo >= b). */
static inline bool cut(scan *s, size_t *n, double lo, double hi, double *c, double b)
{
    if (lo >= b)
        return false;
    if (hi <= *c)
        return true;
    if (lo >= *c)
        emit(s, n, *c, lo);
    *c = hi2(*c, hi);
    return *c <= b;
}

static void subtract_row(scan *s, const row *w, double a, double b, double ba, double bb, size_t *n, uint32_t *hint)
{
    const ap_aa_vis *v = s->v;
    uint32_t lo = *hint, hi = v->row_start[w->r + 1];
    const uint32_t end = hi;
    while (lo < hi) { /* the first run ending after ba */
        uint32_t mid = lo + (hi - lo) / 2;
        if ((double)v->run[2 * mid + 1] <= ba)
            lo = mid + 1;
        else
            hi = mid;
    }
    *hint = lo; /* the next interval's band starts further right */
    double c = a;
    bool open = true;
    const double near0 = w->near0, near1 = w->near1;
    for (uint32_t i = lo; open && i < end && (double)v->run[2 * i] < bb; i++) {
        const double c0 = v->run[2 * i], c1 = v->run[2 * i + 1];
        double p0 = c0, slo, shi;
        for (double j = hi2(c0 + 1.0, near0); open && j <= lo2(c1 - 1.0, near1); j += 1.0) {
            box_shadow(s, w, p0 + SHRINK, j - SHRINK, &slo, &shi);
            open = cut(s, n, slo, shi, &c, b);
            p0 = j;
        }
        if (!open)
            break;
        box_shadow(s, w, p0 + SHRINK, c1 - SHRINK, &slo, &shi);
        open = cut(s, n, slo, shi, &c, b);
    }
    if (c <= b)
        emit(s, n, c, b);
}

/* The scan from P in direction dir over the lines beyond P's; corners appended to out at *k. */
static void scan_dir(scan *s, uint32_t *out, size_t *k)
{
    const ap_aa_vis *v = s->v;
    const int32_t H = v->height;
    /* The first line strictly beyond P; the row between P and it is the first row. */
    int32_t L = s->dir > 0 ? (int32_t)floor(s->py) + 1 : (int32_t)ceil(s->py) - 1;
    if (L < 0 || L > H)
        return;
    /* Rays from P to every allowed x on the first line; then per row, the shadows subtracted. */
    s->cur[0] = s->xmin;
    s->cur[1] = s->xmax;
    s->n_cur = 1;
    bool first = true;
    double prev_D = 0.0; /* distance (y) from P to the current line */
    for (; L >= 0 && L <= H && s->n_cur > 0; L += s->dir) {
        const double D = (L - s->py) * s->dir;
        row w = {.r = s->dir > 0 ? L - 1 : L};
        /* The row's boxes span y in [r + SHRINK, r + 1 - SHRINK], in the first row only beyond P. */
        double y0 = w.r + SHRINK, y1 = w.r + 1.0 - SHRINK;
        if (first) {
            if (s->dir > 0)
                y0 = hi2(y0, s->py + SHRINK);
            else
                y1 = lo2(y1, s->py - SHRINK);
        }
        const double dn = (s->dir > 0 ? y0 : y1) - s->py, df = (s->dir > 0 ? y1 : y0) - s->py;
        /* A first row thinner than 8 SHRINK beyond P casts no shadow (keeping rays is always safe; the merged
         * boxes' argument above needs room for a ray to cross into a square). */
        const bool shadows = fabs(df) - fabs(dn) >= 8.0 * SHRINK;
        w.f0 = D / fabs(dn);
        w.f1 = D / fabs(df);
        /* rad < 0.5 always (first row: 0.6, but then P's column is within 0.6 of at most two columns):
         * the columns within rad of P are P's nearest one, and in the first row possibly its neighbour. */
        const double rad = first ? 0.6 : SHRINK * (5.0 * D + 6.0);
        const double nearest = (double)ifloor(s->px + 0.5);
        w.near0 = nearest - (s->px - (nearest - 1.0) <= rad ? 1.0 : 0.0);
        w.near1 = nearest + ((nearest + 1.0) - s->px <= rad ? 1.0 : 0.0);
        /* No column within rad: an empty range. Nor when P lies on a grid column exactly (every corner scan):
         * a ray in the gap of that column then meets a corner (integer x) only going straight along the
         * column, along the edge between the two blocked cells, which the rule refuses; any other ray
         * through the gap would need a slope under 2 SHRINK per row and so a map 10^7 rows tall to reach
         * another column (a split there would keep a sliver of such rays alive to the map's edge). */
        if (fabs(s->px - nearest) > rad || s->px == nearest) {
            w.near0 = nearest + 1.0;
            w.near1 = nearest;
        }
        /* Per interval: its rays projected onto line L (the first line's are on it already), widened for
         * rounding and kept in the allowed range; then the row's shadows subtracted over the x its rays sweep
         * through the row (from the previous line's points, or P, to line L's). */
        const double f = first ? 1.0 : D / prev_D;
        size_t n = 0;
        uint32_t hint = v->row_start[w.r];
        for (size_t i = 0; i < s->n_cur; i++) {
            const double oa = s->cur[2 * i], ob = s->cur[2 * i + 1];
            double a = oa, b = ob, ba = lo2(oa, s->px), bb = hi2(ob, s->px);
            if (!first) {
                a = s->px + (oa - s->px) * f;
                b = s->px + (ob - s->px) * f;
                a = hi2(a - WIDEN * (1.0 + fabs(a)), s->xmin);
                b = lo2(b + WIDEN * (1.0 + fabs(b)), s->xmax);
                if (a > b) /* the rays left the allowed range */
                    continue;
                ba = lo2(a, oa);
                bb = hi2(b, ob);
            }
            if (shadows)
                subtract_row(s, &w, a, b, ba, bb, &n, &hint);
            else
                emit(s, &n, a, b);
        }
        double *t = s->cur;
        s->cur = s->nxt;
        s->nxt = t;
        s->n_cur = n;
        pick(s, L, out, k, s->dir < 0);
        prev_D = D;
        first = false;
    }
}

size_t ap_aa_vis_corners(const ap_aa_vis *v, double px, double py, int quad, double *scratch, uint32_t *out)
{
    const size_t cap = ((size_t)v->width + 8);
    const double W = (double)v->width, H = (double)v->height;
    /* The point rule accepts points up to 1e-9 outside the map, whose lines along the map's edge it may
     * accept where the same line from the edge would run along a blocked edge: no scan then, every corner. */
    if (!(px >= 0.0 && px <= W && py >= 0.0 && py <= H)) {
        const size_t nc = v->line_start[v->height + 1];
        size_t k = 0;
        for (uint32_t j = 0; j < nc; j++)
            if (v->cx[j] != px || (double)corner_line(v, j) != py)
                out[k++] = j;
        return k;
    }
    scan s = {.v = v, .px = px, .py = py, .cur = scratch, .nxt = scratch + 2 * cap, .cap = cap};
    /* The allowed x per direction (dx dy qx qy <= 0): with corner rules, toward +y only x <= px when the
     * blocked quadrant is (+x, +y) or (-x, -y) (qx qy > 0), only x >= px otherwise; toward -y the other way. */
    const int sgn = quad < 0 ? 0 : (((quad & 1) != 0) == ((quad & 2) != 0) ? 1 : -1);
    size_t k = 0;
    /* Downward first (lower lines, lower indices), written reversed line by line, then turned round. */
    s.dir = -1;
    s.xmin = sgn > 0 ? px - CONE : -PICK;
    s.xmax = sgn < 0 ? px + CONE : W + PICK;
    scan_dir(&s, out, &k);
    for (size_t i = 0, e = k; i + 1 < e; i++, e--) {
        uint32_t t = out[i];
        out[i] = out[e - 1];
        out[e - 1] = t;
    }
    /* P's own line (when it is one): the corners between the first edges on either side of P with both
     * cells blocked (a line along such an edge for more than SHRINK enters the union's interior). */
    if (py == floor(py)) {
        const int32_t L = (int32_t)py;
        double lo = -PICK, hi = W + PICK;
        for (int32_t c = (int32_t)floor(px); c < v->width; c++)
            if (c + 1.0 > px + SHRINK && edge_blocked(v, c, L)) {
                hi = fmax((double)c, px) + SHRINK;
                break;
            }
        for (int32_t c = (int32_t)ceil(px) - 1; c >= 0; c--)
            if ((double)c < px - SHRINK && edge_blocked(v, c, L)) {
                lo = fmin(c + 1.0, px) - SHRINK;
                break;
            }
        for (uint32_t j = v->line_start[L]; j < v->line_start[L + 1]; j++)
            if (v->cx[j] != px && v->cx[j] >= lo && v->cx[j] <= hi)
                out[k++] = j;
    }
    s.dir = 1;
    s.xmin = sgn < 0 ? px - CONE : -PICK;
    s.xmax = sgn > 0 ? px + CONE : W + PICK;
    scan_dir(&s, out, &k);
    return k;
}
