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
    if (j != nc) { /* not sorted by line then x, or off the map */
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
    return 6 * ((size_t)v->width + 8);
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

/* A scan's state: P, the direction (dir = +1 toward +y, -1 toward -y), the x range the corner rules allow,
 * and the buffers. */
typedef struct scan {
    const ap_aa_vis *v;
    double px, py;
    int dir;
    double xmin, xmax;
    double *cur, *nxt, *sh; /* intervals on the current line, the next line's, the row's shadows */
    size_t n_cur, cap;
} scan;

/* Append the shadow (lo, hi) on line L of the box [x0, x1] x [y0, y1] (shrunk already; between P and L by
 * dir) as seen from P: the x on L whose segment from P meets the open box. */
static void shadow(scan *s, double x0, double x1, double y0, double y1, double L, size_t *ns)
{
    const double D = (L - s->py) * s->dir;
    const double d0 = (y0 - s->py) * s->dir, d1 = (y1 - s->py) * s->dir;
    if (!(d0 > 0.0 && d1 > 0.0))
        return;
    const double f0 = D / d0, f1 = D / d1;
    const double a = (x0 - s->px) * f0, b = (x0 - s->px) * f1, c = (x1 - s->px) * f0, e = (x1 - s->px) * f1;
    double lo = fmin(fmin(a, b), fmin(c, e)), hi = fmax(fmax(a, b), fmax(c, e));
    if (*ns >= s->cap)
        return; /* cannot happen (a shadow per run, split once; per cell in P's own row): dropping one is safe */
    s->sh[2 * *ns] = s->px + lo;
    s->sh[2 * *ns + 1] = s->px + hi;
    (*ns)++;
}

/* The shadows on line L of the blocked cells of row r overlapping [xa, xb]: one per run (split at the
 * grid column nearest P, where rays between two blocked cells can run nearly parallel to their shared edge),
 * or one per cell when first (P's own row, where a ray may stay in the thin gap between two shrunk
 * squares). Returned sorted by their lower end (projection from P preserves the order of boxes in a row). */
static size_t row_shadows(scan *s, int32_t r, double xa, double xb, double L, bool first)
{
    const ap_aa_vis *v = s->v;
    double y0 = r + SHRINK, y1 = r + 1.0 - SHRINK;
    if (first) {
        if (s->dir > 0)
            y0 = fmax(y0, s->py + SHRINK);
        else
            y1 = fmin(y1, s->py - SHRINK);
        if (!(y0 < y1))
            return 0;
    }
    uint32_t lo = v->row_start[r], hi = v->row_start[r + 1];
    /* The first run ending after xa. */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((double)v->run[2 * mid + 1] <= xa)
            lo = mid + 1;
        else
            hi = mid;
    }
    const double split = floor(s->px + 0.5);
    size_t ns = 0;
    for (uint32_t i = lo; i < v->row_start[r + 1] && (double)v->run[2 * i] < xb; i++) {
        const int32_t c0 = v->run[2 * i], c1 = v->run[2 * i + 1];
        if (first) {
            for (int32_t c = c0; c < c1; c++)
                shadow(s, c + SHRINK, c + 1.0 - SHRINK, y0, y1, L, &ns);
        } else if ((double)c0 < split && split < (double)c1) {
            shadow(s, c0 + SHRINK, split - SHRINK, y0, y1, L, &ns);
            shadow(s, split + SHRINK, c1 - SHRINK, y0, y1, L, &ns);
        } else {
            shadow(s, c0 + SHRINK, c1 - SHRINK, y0, y1, L, &ns);
        }
    }
    return ns;
}

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
    uint32_t j = b0;
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

/* The scan from P in direction dir over the lines beyond P's; corners appended to out at *k. */
static void scan_dir(scan *s, uint32_t *out, size_t *k)
{
    const ap_aa_vis *v = s->v;
    const int32_t H = v->height;
    /* The first line strictly beyond P, and the row between P and it. */
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
        const int32_t r = s->dir > 0 ? L - 1 : L;
        /* Project the current intervals (rays) onto line L: for the first line they are already on it. */
        double xa, xb;
        if (!first) {
            const double f = D / prev_D;
            size_t n = 0;
            for (size_t i = 0; i < s->n_cur; i++) {
                double a = s->px + (s->cur[2 * i] - s->px) * f, b = s->px + (s->cur[2 * i + 1] - s->px) * f;
                a -= WIDEN * (1.0 + fabs(a));
                b += WIDEN * (1.0 + fabs(b));
                emit(s, &n, fmax(a, s->xmin), fmin(b, s->xmax));
            }
            if (n == 0)
                break;
            /* The band the rays sweep through row r: from the old line's extent to the new. */
            xa = fmin(s->cur[0], s->nxt[0]);
            xb = fmax(s->cur[2 * s->n_cur - 1], s->nxt[2 * n - 1]);
            double *t = s->cur;
            s->cur = s->nxt;
            s->nxt = t;
            s->n_cur = n;
        } else {
            xa = s->xmin;
            xb = s->xmax;
        }
        /* Subtract the row's shadows (open intervals: the points at their ends stay). */
        size_t ns = row_shadows(s, r, xa, xb, (double)L, first);
        size_t n = 0, j = 0;
        for (size_t i = 0; i < s->n_cur; i++) {
            const double a = s->cur[2 * i], b = s->cur[2 * i + 1];
            double c = a;
            bool open = true;
            while (j < ns && s->sh[2 * j + 1] < a)
                j++;
            for (size_t jj = j; jj < ns && s->sh[2 * jj] < b; jj++) {
                const double lo = s->sh[2 * jj], hi = s->sh[2 * jj + 1];
                if (hi <= c)
                    continue;
                if (lo >= c)
                    emit(s, &n, c, lo);
                c = fmax(c, hi);
                if (c > b) {
                    open = false;
                    break;
                }
            }
            if (open)
                emit(s, &n, c, b);
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
    scan s = {.v = v, .px = px, .py = py, .cur = scratch, .nxt = scratch + 2 * cap, .sh = scratch + 4 * cap, .cap = cap};
    const double W = (double)v->width;
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
    if (py == floor(py) && py >= 0.0 && py <= (double)v->height) {
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
