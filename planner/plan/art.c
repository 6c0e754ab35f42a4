/* art.c — fixed-angle character art (Pinter, "Fixed-Angle Character Art", Figures 14-15); see art.h.
 *
 * Everything is done in terms of the direction of motion (a reverse piece moves opposite to the way it
 * faces), and arcs that turn right are mirrored (y -> -y) so that one routine handles left turns only:
 * legal angles are symmetric under negation, so a mirrored legal angle is still legal.
 */
#include "art.h"

#include <math.h>
#include <stdlib.h>

#include "../base/mem.h"
#include "../base/status.h"

#define ART_LEGAL_TOL 1e-9   /* a heading this close to a legal angle counts as legal (radians / step) */
#define ART_MIN_LEN 1e-12    /* shorter pieces are dropped: they carry no motion */
#define ART_MIN_STAIR 0.25   /* staircase pieces stay at least this long (tiles): shorter ones look like jitter */
#define ART_MAX_STAIR 64     /* most staircase repetitions tried */

typedef struct art_buf {
    ap_segment *s;
    size_t n, cap;
    int last;  /* facing index of the last piece pushed (0 .. N-1), -1 = none yet */
} art_buf;

static int imod(int a, int n)
{
    int r = a % n;
    return r < 0 ? r + n : r;
}

/* The legal heading with index k, in [-pi, pi) without a wrap (so it is k * 2pi/N to one rounding step). */
static double legal_heading(int k, int N)
{
    int kk = imod(k, N);
    if (kk >= N / 2)
        kk -= N;
    return kk * (2.0 * M_PI / N);
}

int ap_art_heading_index(double h, int directions, double tol)
{
    if (directions <= 0 || !isfinite(h))
        return -1;
    double x = ap_angle_wrap(h) / (2.0 * M_PI / directions);
    double k = nearbyint(x);
    if (fabs(x - k) * (2.0 * M_PI / directions) > tol)
        return -1;
    return imod((int)k, directions);
}

/* Append a line from (x0, y0) to (x1, y1) moving at legal motion index k (facing k + N/2 when reverse). */
static int push(art_buf *b, double x0, double y0, double x1, double y1, int k, int N, bool reverse)
{
    double len = hypot(x1 - x0, y1 - y0);
    if (!(len >= ART_MIN_LEN))
        return AP_OK;
    void *grown = b->s;
    if (!ap_grow(&grown, &b->cap, b->n + 1, sizeof *b->s, 16))
        return AP_E_NOMEM;
    b->s = grown;
    int face = imod(k + (reverse ? N / 2 : 0), N);
    /* The line's own heading is replaced by the legal one it stands for; length as given. */
    ap_segment s = ap_segment_line(x0, y0, x1, y1);
    s.heading = legal_heading(face, N);
    s.length = len;
    s.reverse = reverse;
    b->s[b->n++] = s;
    b->last = face;
    return AP_OK;
}

/* Intersection of the line through p with direction angle ta and the line through q with direction tb. */
static void intersect(const double p[2], double ta, const double q[2], double tb, double out[2])
{
    double ux = cos(ta), uy = sin(ta), vx = cos(tb), vy = sin(tb);
    double den = ux * vy - uy * vx; /* sin(tb - ta): never 0 for consecutive legal headings */
    double t = ((q[0] - p[0]) * vy - (q[1] - p[1]) * vx) / den;
    out[0] = p[0] + t * ux;
    out[1] = p[1] + t * uy;
}

/* An arc -> the circumscribed-polygon polyline (art.h). In mirrored motion space the turn is to the left:
 * the unit sits at c + r (sin h, -cos h) when its heading is h, so the tangent line of legal heading j*delta
 * touches the circle at T_j = c + r (sin j delta, -cos j delta). The polyline runs along L_a (through P0 at
 * heading a*delta <= h0: turned away from the centre, so its forward ray stays outside the circle), then the
 * tangent lines L_j for a < j < b (outside the circle entirely), then L_b (through P1 at heading b*delta >=
 * h1, whose backward ray is outside by symmetry); consecutive lines meet ahead of each other because their
 * headings increase by delta < pi. */
static int arc_art(art_buf *b, const ap_segment *s, int N)
{
    const double delta = 2.0 * M_PI / N;
    const double mir = s->sweep >= 0.0 ? 1.0 : -1.0;
    const int imir = (int)mir;
    double h0 = mir * (s->heading + (s->reverse ? M_PI : 0.0));
    h0 = ap_angle_wrap(h0);
    double sw = fabs(s->sweep);
    int a = (int)floor(h0 / delta + ART_LEGAL_TOL);
    int e = (int)ceil((h0 + sw) / delta - ART_LEGAL_TOL);
    if (e < a)
        e = a;
    const double c[2] = {s->cx, mir * s->cy};
    const double p1[2] = {s->x1, mir * s->y1};
    double prev[2] = {s->x0, mir * s->y0};
    for (int j = a; j < e; j++) {
        double pj[2], pk[2], v[2];
        if (j == a) {
            pj[0] = s->x0;
            pj[1] = mir * s->y0;
        } else {
            pj[0] = c[0] + s->radius * sin(j * delta);
            pj[1] = c[1] - s->radius * cos(j * delta);
        }
        if (j + 1 == e) {
            pk[0] = p1[0];
            pk[1] = p1[1];
        } else {
            pk[0] = c[0] + s->radius * sin((j + 1) * delta);
            pk[1] = c[1] - s->radius * cos((j + 1) * delta);
        }
        intersect(pj, j * delta, pk, (j + 1) * delta, v);
        int st = push(b, prev[0], mir * prev[1], v[0], mir * v[1], imir * j, N, s->reverse);
        if (st != AP_OK)
            return st;
        prev[0] = v[0];
        prev[1] = v[1];
    }
    return push(b, prev[0], mir * prev[1], s->x1, s->y1, imir * e, N, s->reverse);
}

/* Circular distance between two indices modulo N. */
static int idist(int i, int j, int N)
{
    int d = imod(i - j, N);
    return d < N - d ? d : N - d;
}

/* A line -> two (or a staircase of) legal-angle lines; see art.h for the choice. */
static int line_art(art_buf *b, const ap_world *w, double r, const ap_segment *s, int N)
{
    const double delta = 2.0 * M_PI / N;
    const double ax = s->x0, ay = s->y0, dx = s->x1 - s->x0, dy = s->y1 - s->y0;
    if (!(hypot(dx, dy) >= ART_MIN_LEN))
        return AP_OK;
    const int half = s->reverse ? N / 2 : 0;
    double x = atan2(dy, dx) / delta;
    double k = nearbyint(x);
    if (fabs(x - k) * delta <= ART_LEGAL_TOL)
        return push(b, ax, ay, s->x1, s->y1, (int)k, N, s->reverse);
    int lo = (int)floor(x), hi = lo + 1;
    double ul[2] = {cos(lo * delta), sin(lo * delta)}, uh[2] = {cos(hi * delta), sin(hi * delta)};
    double det = ul[0] * uh[1] - ul[1] * uh[0];
    double tl = (dx * uh[1] - dy * uh[0]) / det, th = (ul[0] * dy - ul[1] * dx) / det;
    if (tl < 0.0)
        tl = 0.0;
    if (th < 0.0)
        th = 0.0;
    /* Prefer the route whose first frame is the one the unit shows already (fewer frame changes). */
    int first_hi = b->last >= 0 && idist(hi + half, b->last, N) < idist(lo + half, b->last, N);
    for (int reps = 1; reps <= ART_MAX_STAIR; reps *= 2) {
        if (reps > 1 && (tl / reps < ART_MIN_STAIR || th / reps < ART_MIN_STAIR))
            break;
        for (int o = 0; o < 2; o++) {
            int hi_first = o == 0 ? first_hi : !first_hi;
            size_t mark = b->n;
            int last = b->last;
            double px = ax, py = ay;
            for (int i = 0; i < reps; i++) {
                double f1 = (double)(i + 1) / reps;
                /* Corner i: after the first leg of repetition i; end i: on the original line (exact at B). */
                double t1 = hi_first ? th : tl;
                const double *u1 = hi_first ? uh : ul;
                double cx = ax + dx * ((double)i / reps) + u1[0] * t1 / reps;
                double cy = ay + dy * ((double)i / reps) + u1[1] * t1 / reps;
                double ex = i + 1 == reps ? s->x1 : ax + dx * f1, ey = i + 1 == reps ? s->y1 : ay + dy * f1;
                int st = push(b, px, py, cx, cy, hi_first ? hi : lo, N, s->reverse);
                if (st == AP_OK)
                    st = push(b, cx, cy, ex, ey, hi_first ? lo : hi, N, s->reverse);
                if (st != AP_OK)
                    return st;
                px = ex;
                py = ey;
            }
            if (w == NULL || ap_world_segments_clear(w, b->s + mark, b->n - mark, r))
                return AP_OK;
            b->n = mark;
            b->last = last;
        }
        if (w == NULL)
            break;
    }
    /* Nothing clear: Pinter's two-line route; the caller's final check reports clear = false. */
    int st = push(b, ax, ay, ax + (first_hi ? uh[0] * th : ul[0] * tl), ay + (first_hi ? uh[1] * th : ul[1] * tl),
                  first_hi ? hi : lo, N, s->reverse);
    if (st != AP_OK)
        return st;
    double cx = b->n > 0 ? b->s[b->n - 1].x1 : ax, cy = b->n > 0 ? b->s[b->n - 1].y1 : ay;
    return push(b, cx, cy, s->x1, s->y1, first_hi ? lo : hi, N, s->reverse);
}

int ap_art_convert(const ap_world *w, double unit_radius, int directions, const ap_segment *in, size_t n,
                   ap_segment **out, size_t *n_out, bool *clear)
{
    *out = NULL;
    *n_out = 0;
    if (clear != NULL)
        *clear = true;
    if (directions != 8 && directions != 16)
        return AP_E_INVALID_REQUEST;
    art_buf b = {NULL, 0, 0, -1};
    for (size_t i = 0; i < n; i++) {
        int st = in[i].type == AP_SEG_ARC && in[i].radius > 0.0 ? arc_art(&b, &in[i], directions)
                                                                 : line_art(&b, w, unit_radius, &in[i], directions);
        if (st != AP_OK) {
            free(b.s);
            return st;
        }
    }
    /* Endpoints bit for bit: dropping sub-1e-12 pieces may leave the first/last point a rounding step off. */
    if (b.n > 0) {
        b.s[0].x0 = in[0].x0;
        b.s[0].y0 = in[0].y0;
        b.s[b.n - 1].x1 = in[n - 1].x1;
        b.s[b.n - 1].y1 = in[n - 1].y1;
    }
    if (clear != NULL && w != NULL)
        *clear = ap_world_segments_clear(w, b.s, b.n, unit_radius);
    *out = b.s;
    *n_out = b.n;
    return AP_OK;
}
