/* art.c — fixed-angle character art (Pinter, "Fixed-Angle Character Art", Figures 14-15); see art.h.
 *
 * Everything is done in terms of the direction of motion (a reverse piece moves opposite to the way it
 * faces), and arcs that turn right are mirrored (y -> -y) so that one routine handles left turns only:
 * legal angles are symmetric under negation, so a mirrored legal angle is still legal.
 */
#include "art.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "../base/mem.h"
#include "../base/status.h"

#define ART_LEGAL_TOL 1e-9   /* a heading this close to a legal angle counts as legal (radians / step) */
#define ART_MIN_LEN 1e-12    /* shorter pieces are dropped: they carry no motion */
#define ART_MIN_STAIR 0.25   /* staircase pieces stay at least this long (tiles): shorter ones look like jitter */
#define ART_MAX_STAIR 64     /* most staircase repetitions tried, and most lattice steps along each heading */

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

/* Switching routes tried per first heading: with one step (reps = 1, three legs) this many crossing places
 * (sigma = 1/2, 1/4, 3/4, 1/8, 3/8, ... 63/64: art_sigma), so one close to either end is found too (a third
 * obstacle that nearly touches the line just before the end where it touches another one); refined
 * staircases (reps > 1) only the middle, sigma = 1/2, each try there costing 2 reps + 1 tests. */
#define ART_SPLITS 63

/* The o-th crossing share of a switching route (o >= 1): the dyadic fractions in order of their
 * denominator, 1/2, 1/4, 3/4, 1/8, ... */
static double art_sigma(int o)
{
    int m = 1; /* level m holds 2^(m - 1) fractions k / 2^m, k odd; o = 2^(m - 1) + (k - 1) / 2 */
    while ((1 << m) <= o)
        m++;
    return (double)(2 * (o - (1 << (m - 1))) + 1) / (double)(1 << m);
}

/* One route of line_art for the line A -> B = A + D (art.h): legs alternately at heading index f (first and
 * last) and g, the legal headings on either side of D, where D = tf u_f + tg u_g (tf, tg >= 0). Through
 * the points P_i = A + D i / reps of the line (P_reps = B exactly), with h = u_f tf / reps, its corners are
 * P_i + sigma h and P_{i+1} - (1 - sigma) h: for sigma = 1 all on f's side (Pinter's two lines, a one-sided
 * staircase: 2 reps legs); for sigma < 1 each g leg crosses the line, the first leg leaving A on f's side
 * and the last (f, (1 - sigma) tf / reps long) reaching B from g's side (2 reps + 1 legs). */
static int line_route(art_buf *b, const ap_segment *s, int reps, double sigma, int f, int g, const double uf[2],
                      double tf, int N)
{
    const double ax = s->x0, ay = s->y0, dx = s->x1 - s->x0, dy = s->y1 - s->y0;
    const double hx = uf[0] * tf / reps, hy = uf[1] * tf / reps;
    double px = ax, py = ay;
    int leg = 0, st = AP_OK;
    for (int i = 0; i < reps && st == AP_OK; i++) {
        const double f0 = (double)i / reps, f1 = (double)(i + 1) / reps;
        const double qx = i + 1 == reps ? s->x1 : ax + dx * f1, qy = i + 1 == reps ? s->y1 : ay + dy * f1;
        const double v[2][2] = {{ax + dx * f0 + sigma * hx, ay + dy * f0 + sigma * hy},
                                {qx - (1.0 - sigma) * hx, qy - (1.0 - sigma) * hy}};
        for (int j = 0; j < 2 && st == AP_OK; j++, leg++) {
            st = push(b, px, py, v[j][0], v[j][1], leg % 2 == 0 ? f : g, N, s->reverse);
            px = v[j][0];
            py = v[j][1];
        }
    }
    /* sigma = 1: already at B, and push drops the empty leg */
    return st == AP_OK ? push(b, px, py, s->x1, s->y1, f, N, s->reverse) : st;
}

/* The lattice route of line_art (art.h), when no fixed route is clear: a monotone path from A to B in steps
 * of ul * tl / ml (heading lo) and uh * th / mh (hi), ml = tl / ART_MIN_STAIR and mh likewise (at least 1,
 * at most ART_MAX_STAIR), every step's swept disc clear in w, with the fewest legs (ties: the first leg at
 * heading index first, the frame the unit shows). Every such path is a staircase on the lattice of those
 * steps (the parallelogram with diagonal A -> B), so this finds a route that crosses the line wherever the
 * obstacles near it ask, as often as they ask. Dynamic programming over the lattice in row-major order (each
 * node's predecessors come first); each step is tested once, when its start is reached: at most
 * 2 (ml + 1) (mh + 1) line tests. Pushes the route and sets *found, or leaves b as it was. Returns AP_OK or
 * AP_E_NOMEM. */
static int lattice_route(art_buf *b, const ap_world *w, double r, const ap_segment *s, int lo, int hi,
                         const double ul[2], const double uh[2], double tl, double th, int first, int N,
                         bool *found)
{
    *found = false;
    const int ml = (int)fmax(1.0, fmin(ART_MAX_STAIR, floor(tl / ART_MIN_STAIR)));
    const int mh = (int)fmax(1.0, fmin(ART_MAX_STAIR, floor(th / ART_MIN_STAIR)));
    const size_t nodes = (size_t)(ml + 1) * (size_t)(mh + 1);
    /* cost[2 v + d]: twice the legs of the best way to node v = i (mh + 1) + j whose last step has heading
     * d (0 lo, 1 hi), plus 1 when its first leg is not `first`; INT_MAX unreached. */
    int *cost = malloc(2 * nodes * sizeof *cost);
    signed char *from = malloc(2 * nodes); /* the heading of the step before (-1: the step left A) */
    if (cost == NULL || from == NULL) {
        free(cost);
        free(from);
        return AP_E_NOMEM;
    }
    for (size_t v = 0; v < 2 * nodes; v++)
        cost[v] = INT_MAX;
    const double *u[2] = {ul, uh};
    const double t[2] = {tl / ml, th / mh};
    for (int i = 0; i <= ml; i++) {
        for (int j = 0; j <= mh; j++) {
            const size_t v = (size_t)i * (mh + 1) + j;
            const bool at_a = i == 0 && j == 0;
            if (!at_a && cost[2 * v] == INT_MAX && cost[2 * v + 1] == INT_MAX)
                continue;
            const double px = s->x0 + ul[0] * t[0] * i + uh[0] * t[1] * j;
            const double py = s->y0 + ul[1] * t[0] * i + uh[1] * t[1] * j;
            for (int d = 0; d < 2; d++) {
                const int ni = i + (d == 0), nj = j + (d == 1);
                if (ni > ml || nj > mh)
                    continue;
                const size_t nv = (size_t)ni * (mh + 1) + nj;
                int best = INT_MAX, prev = -1;
                if (at_a) {
                    best = 2 + ((d == 1 ? hi : lo) != first);
                } else {
                    for (int e = 0; e < 2; e++)
                        if (cost[2 * v + e] != INT_MAX && cost[2 * v + e] + 2 * (e != d) < best) {
                            best = cost[2 * v + e] + 2 * (e != d);
                            prev = e;
                        }
                }
                if (best >= cost[2 * nv + d])
                    continue;
                const bool end = ni == ml && nj == mh;
                const double qx = end ? s->x1 : px + u[d][0] * t[d], qy = end ? s->y1 : py + u[d][1] * t[d];
                if (!ap_world_line_clear(w, px, py, qx, qy, r))
                    continue;
                cost[2 * nv + d] = best;
                from[2 * nv + d] = (signed char)prev;
            }
        }
    }
    const size_t goal = nodes - 1;
    int d = cost[2 * goal + 1] < cost[2 * goal] ? 1 : 0;
    int st = AP_OK;
    if (cost[2 * goal + d] != INT_MAX) {
        /* Walk back to A, noting each step's heading, then push the legs forward, one per run of a heading. */
        signed char *steps = malloc((size_t)(ml + mh));
        if (steps == NULL) {
            st = AP_E_NOMEM;
        } else {
            int i = ml, j = mh, k = ml + mh;
            while (k > 0) {
                steps[--k] = (signed char)d;
                const int e = from[2 * ((size_t)i * (mh + 1) + j) + d];
                i -= d == 0;
                j -= d == 1;
                d = e;
            }
            double px = s->x0, py = s->y0;
            i = j = 0;
            for (k = 0; k < ml + mh && st == AP_OK; k++) {
                i += steps[k] == 0;
                j += steps[k] == 1;
                if (k + 1 < ml + mh && steps[k + 1] == steps[k])
                    continue;
                const bool end = k + 1 == ml + mh;
                const double qx = end ? s->x1 : s->x0 + ul[0] * t[0] * i + uh[0] * t[1] * j;
                const double qy = end ? s->y1 : s->y0 + ul[1] * t[0] * i + uh[1] * t[1] * j;
                st = push(b, px, py, qx, qy, steps[k] == 1 ? hi : lo, N, s->reverse);
                px = qx;
                py = qy;
            }
            free(steps);
            *found = st == AP_OK;
        }
    }
    free(cost);
    free(from);
    return st;
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
    /* Fewest legs first: at each fineness the one-sided routes, then the switching ones; then the lattice.
     * A one-sided route leaves A and reaches B on the same side of the line, so it cannot follow a line
     * that touches obstacles on opposite sides at its ends (an any_angle path's internal bitangent): near
     * such an end it deviates linearly toward the obstacle, which curves away only quadratically. A
     * switching route leaves on one side and arrives from the other. */
    for (int reps = 1; reps <= ART_MAX_STAIR; reps *= 2) {
        if (reps > 1 && (tl / reps < ART_MIN_STAIR || th / reps < ART_MIN_STAIR))
            break;
        const int splits = reps == 1 ? ART_SPLITS : 1;
        for (int o = 0; o < 2 * (splits + 1); o++) {
            const double sigma = o < 2 ? 1.0 : art_sigma(o / 2);
            const bool hi_first = o % 2 == 0 ? first_hi : !first_hi;
            const double tf = hi_first ? th : tl;
            /* refined: no piece below ART_MIN_STAIR (the g pieces are tested above) */
            if (reps > 1 && sigma < 1.0 && 0.5 * tf / reps < ART_MIN_STAIR)
                continue;
            size_t mark = b->n;
            int last = b->last;
            int st = line_route(b, s, reps, sigma, hi_first ? hi : lo, hi_first ? lo : hi, hi_first ? uh : ul, tf, N);
            if (st != AP_OK)
                return st;
            if (w == NULL || ap_world_segments_clear(w, b->s + mark, b->n - mark, r))
                return AP_OK;
            b->n = mark;
            b->last = last;
        }
        if (w == NULL)
            break;
    }
    if (w != NULL) {
        bool found;
        int st = lattice_route(b, w, r, s, lo, hi, ul, uh, tl, th, first_hi ? hi : lo, N, &found);
        if (st != AP_OK || found)
            return st;
    }
    /* Nothing clear: Pinter's two-line route; the caller's final check reports clear = false. */
    return line_route(b, s, 1, 1.0, first_hi ? hi : lo, first_hi ? lo : hi, first_hi ? uh : ul, first_hi ? th : tl, N);
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
