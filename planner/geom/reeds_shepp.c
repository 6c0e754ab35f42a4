/* reeds_shepp.c — shortest paths for a unit that drives forwards and backwards (Reeds & Shepp 1990).
 *
 * Source: J. A. Reeds and L. A. Shepp, "Optimal paths for a car that goes both forwards and backwards",
 * Pacific J. Math. 145(2), 1990. Section 7 lists the 48 candidate words in 9 families (C|C|C, CC|C, C|CC,
 * CSC, CCu|CuC, C|CuCu|C, C|C(pi/2)SC, CSC(pi/2)|C, C|C(pi/2)SC(pi/2)|C); Section 8 gives the closed forms
 * for one representative of each (equations 8.1-8.11) and the symmetries that yield the rest:
 *   - timeflip   (x, y, phi) -> (-x, y, -phi): the same word driven with every direction inverted;
 *   - reflect    (x, y, phi) -> (x, -y, -phi): L and R swapped;
 *   - backwards  (x, y, phi) -> (x cos phi + y sin phi, x sin phi - y cos phi, phi): the word read in
 *     reverse order (the path from the goal to the start, in the goal's frame, run the other way).
 * Twelve base formulas under these transforms give 44 evaluations that cover all 48 words (the C|C|C
 * formula's signed outer arcs cover C|C|C, CC|C and C|CC at once).
 *
 * Set-up (Section 8): scale by 1/r and express the goal in the start's frame: the start is (0, 0, 0) and
 * the goal (x, y, phi). A piece is a letter and a signed length (< 0 = reverse). With unit radius, a left
 * piece that takes the heading from h to h' moves the unit by (sin h' - sin h, cos h - cos h') and a right
 * piece by (sin h - sin h', cos h' - cos h), whichever way it is driven; the heading changes by +len on a
 * left piece and by -len on a right piece. Each base formula below inverts the resulting sum; the
 * derivations are sketched beside them. Angles in the formulas are reduced to [-pi, pi) and the sign tests
 * are the paper's ranges for each family.
 *
 * Speed (bench_curves, 10^6 random pairs, median of 5 runs interleaved with the previous build on the same
 * loaded machine; Ir = callgrind instructions per ap_reeds_shepp_shortest over 50 000 queries): before
 * 11034 Ir, 1301 ns; after 7652 Ir, 1094 ns. Changes: inline sincos/atan2 (above), wrap() without
 * floor, and the CCCC step using cos v = cos u instead of a third cosine. Mean length unchanged (33.4927).
 */
#include "reeds_shepp.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "../base/fastmath.h"

/* Sign tests tolerate rounding: a piece of -1e-15 is a zero piece, not a wrong direction. */
#define AP_RS_EPS 1e-12

/* Normalised goal in the start frame, with sin/cos of phi computed once. */
typedef struct rs_in {
    double x, y, phi, s, c;
    double aphi; /* |phi| for phi in [-pi, pi): the arcs of any word turn at least this much in total, since
                  * their signed turns add up to phi modulo 2pi (a lower bound used for pruning) */
} rs_in;

/* Angle into [-pi, pi). The formulas only wrap sums of a few angles already in [-pi, pi], so two
 * conditional steps cover them; anything else goes to ap_angle_wrap. */
static inline double wrap(double a)
{
    if (a >= M_PI)
        a -= 2.0 * M_PI;
    else if (a < -M_PI)
        a += 2.0 * M_PI;
    if (a >= -M_PI && a < M_PI)
        return a;
    return ap_angle_wrap(a);
}

/* A base formula: fills signed normalised piece lengths in its own letters and returns true when the word
 * exists. `bound` is the best length so far; a formula may return false early when a cheap lower bound on
 * its own length is already >= bound (the caller would discard it anyway), which is exact pruning. */
typedef bool (*rs_formula)(const rs_in *g, double bound, double len[5]);

/* 8.1 L+S+L+: the sum is (sin phi + u cos t, 1 - cos phi + u sin t), so (u, t) is the polar form of
 * (x - sin phi, y - 1 + cos phi), and v = phi - t. */
static bool f_lsl(const rs_in *g, double bound, double o[5])
{
    double xi = g->x - g->s, eta = g->y - 1.0 + g->c;
    double u = sqrt(xi * xi + eta * eta);
    if (u + g->aphi >= bound)
        return false;
    /* A line of (almost) no length has no direction: do not let atan2 of rounding noise pick the arcs (the
     * goal is then the start up to rounding, and the arcs alone close the heading). */
    double t = u < 1e-12 ? 0.0 : fast_atan2(eta, xi);
    if (t < -AP_RS_EPS)
        return false;
    double v = wrap(g->phi - t);
    if (v < -AP_RS_EPS)
        return false;
    o[0] = t, o[1] = u, o[2] = v;
    return true;
}

/* 8.2 L+S+R+: (u cos t + 2 sin t, u sin t - 2 cos t) = (x + sin phi, y - 1 - cos phi): that is (u, -2)
 * rotated by t, so u^2 = rho^2 - 4 and t = theta + fast_atan2(2, u); v = t - phi. */
static bool f_lsr(const rs_in *g, double bound, double o[5])
{
    double xi = g->x + g->s, eta = g->y - 1.0 - g->c;
    double rho2 = xi * xi + eta * eta;
    /* Near the start heading and a hair ahead (eta near -2, u small), rho^2 - 4 is the difference of two
     * numbers near 4 (about 4e-16 of absolute precision) and eta u + 2 xi nearly cancels: u and t came out
     * wrong by ~4e-16 / u, more than the true arcs, and the answer took 2.41 times the distance (a goal 1e-6
     * straight ahead). There eta + 2 = y + (1 - cos phi) = y + s^2 / (1 + c), so rho^2 - 4 = xi^2 + (eta - 2)
     * (eta + 2), and eta u + 2 xi = 2 (xi - u) + (eta + 2) u with xi - u = (xi^2 - u^2) / (xi + u). */
    const bool near = rho2 - 4.0 < 1e-3 && g->c > 0.0 && eta < 0.0;
    const double ep2 = near ? g->y + g->s * g->s / (1.0 + g->c) : eta + 2.0; /* eta + 2 */
    const double e4 = (eta - 2.0) * ep2;                                      /* eta^2 - 4 */
    if (near ? xi * xi + e4 < 0.0 : rho2 < 4.0)
        return false;
    double u = near ? sqrt(xi * xi + e4) : sqrt(rho2 - 4.0);
    if (u + g->aphi >= bound)
        return false;
    /* theta + fast_atan2(2, u) as one angle: the direction of (xi + i eta)(u + 2i). */
    double ty = eta * u + 2.0 * xi;
    if (near)
        ty = 2.0 * (xi > 0.0 ? -e4 / (xi + u) : xi - u) + ep2 * u;
    double t = fast_atan2(ty, xi * u - 2.0 * eta);
    if (t < -AP_RS_EPS)
        return false;
    double v = wrap(t - g->phi);
    if (v < -AP_RS_EPS)
        return false;
    o[0] = t, o[1] = u, o[2] = v;
    return true;
}

/* 8.3 L+R-L (C|C|C and, through the sign of v and t, CC|C / C|CC): with signed lengths t, u, v the sum
 * gives (x - sin phi, y - 1 + cos phi) = 2 (sin t - sin(t-u), cos(t-u) - cos t)
 * = 4 sin(u/2) (cos(t - u/2), sin(t - u/2)). For u in [-pi, 0] the length is rho = -4 sin(u/2), so
 * u = -2 asin(rho / 4), the direction is theta = t - u/2 + pi, and v = phi - t + u. */
static bool f_lrl(const rs_in *g, double bound, double o[5])
{
    double xi = g->x - g->s, eta = g->y - 1.0 + g->c;
    double rho = sqrt(xi * xi + eta * eta);
    if (rho > 4.0)
        return false;
    double u = -2.0 * asin(rho / 4.0);
    if (fmax(-u, g->aphi) >= bound)
        return false;
    double t = wrap(fast_atan2(eta, xi) + 0.5 * u + M_PI);
    if (t < -AP_RS_EPS)
        return false;
    double v = wrap(g->phi - t + u);
    o[0] = t, o[1] = u, o[2] = v;
    return true;
}

/* Shared step of 8.7 and 8.8 (the CCCC families): given the two middle arcs u and v, the first arc t
 * follows from the position equation (a linear combination of cos t and sin t with coefficients A, B), and
 * the last one closes the heading. The branch of t (t1 or t1 + pi) is the one where the sum's
 * cos-coefficient 2 (cos(u-v) - cos v - cos u) + 3 keeps its sign, as in the paper. */
static void tau_omega(double u, double v, double xi, double eta, double phi, double *tau, double *omega)
{
    double delta = wrap(u - v);
    double su, cu, sd, cd;
    fast_sincos(u, &su, &cu);
    fast_sincos(delta, &sd, &cd);
    double A = su - sd, B = cu - cd - 1.0;
    double t1 = fast_atan2(eta * A - xi * B, xi * A + eta * B);
    /* cos v = cos u: v is u or -u in both callers */
    double t2 = 2.0 * (cd - 2.0 * cu) + 3.0;
    *tau = t2 < 0.0 ? wrap(t1 + M_PI) : wrap(t1);
    *omega = wrap(*tau - u + v - phi);
}

/* 8.7 L+R+L-R- (CCu|CuC): the two middle arcs are equal, u and -u, with cos u = (2 + rho) / 4 where rho
 * is the distance of (x + sin phi, y - 1 - cos phi) (the centres of the first and last circles). */
static bool f_lrlr_a(const rs_in *g, double bound, double o[5])
{
    double xi = g->x + g->s, eta = g->y - 1.0 - g->c;
    double rho = 0.25 * (2.0 + sqrt(xi * xi + eta * eta));
    if (rho > 1.0)
        return false;
    double u = acos(rho);
    if (fmax(2.0 * u, g->aphi) >= bound)
        return false;
    double t, v;
    tau_omega(u, -u, xi, eta, g->phi, &t, &v);
    if (t < -AP_RS_EPS || v > AP_RS_EPS)
        return false;
    o[0] = t, o[1] = u, o[2] = -u, o[3] = v;
    return true;
}

/* 8.8 L+R-L-R+ (C|CuCu|C): middle arcs u, u (u in [-pi/2, 0]) with cos u = (20 - rho^2) / 16. */
static bool f_lrlr_b(const rs_in *g, double bound, double o[5])
{
    double xi = g->x + g->s, eta = g->y - 1.0 - g->c;
    double rho = (20.0 - xi * xi - eta * eta) / 16.0;
    if (rho < 0.0 || rho > 1.0)
        return false;
    double u = -acos(rho);
    if (u < -M_PI_2 || fmax(-2.0 * u, g->aphi) >= bound)
        return false;
    double t, v;
    tau_omega(u, u, xi, eta, g->phi, &t, &v);
    if (t < -AP_RS_EPS || v < -AP_RS_EPS)
        return false;
    o[0] = t, o[1] = u, o[2] = u, o[3] = v;
    return true;
}

/* 8.9 L+R-(pi/2)S-L- (C|C(pi/2)SC): the sum gives (x - sin phi, y - 1 + cos phi) = (-2, -(2 - u)) rotated
 * by t, so with w = 2 - u: w^2 = rho^2 - 4 and t = theta - fast_atan2(-w, -2); v = phi - t - pi/2. */
static bool f_lrsl(const rs_in *g, double bound, double o[5])
{
    double xi = g->x - g->s, eta = g->y - 1.0 + g->c;
    double rho2 = xi * xi + eta * eta;
    if (rho2 < 4.0)
        return false;
    double w = sqrt(rho2 - 4.0);
    double u = 2.0 - w;
    if (u > AP_RS_EPS || fmax(M_PI_2, g->aphi) - u >= bound)
        return false;
    /* theta + fast_atan2(w, -2) as one angle: the direction of (xi + i eta)(-2 + i w). */
    double t = fast_atan2(xi * w - 2.0 * eta, -2.0 * xi - eta * w);
    if (t < -AP_RS_EPS)
        return false;
    double v = wrap(g->phi - M_PI_2 - t);
    if (v > AP_RS_EPS)
        return false;
    o[0] = t, o[1] = -M_PI_2, o[2] = u, o[3] = v;
    return true;
}

/* 8.10 L+R-(pi/2)S-R- (C|C(pi/2)SC): (x + sin phi, y - 1 - cos phi) = (rho sin t, -rho cos t) with
 * rho = 2 - u, so t is the direction of (-eta, xi); v = t + pi/2 - phi. */
static bool f_lrsr(const rs_in *g, double bound, double o[5])
{
    double xi = g->x + g->s, eta = g->y - 1.0 - g->c;
    double rho = sqrt(xi * xi + eta * eta);
    if (rho < 2.0)
        return false;
    double u = 2.0 - rho;
    if (fmax(M_PI_2, g->aphi) - u >= bound)
        return false;
    double t = fast_atan2(xi, -eta);
    if (t < -AP_RS_EPS)
        return false;
    double v = wrap(t + M_PI_2 - g->phi);
    if (v > AP_RS_EPS)
        return false;
    o[0] = t, o[1] = -M_PI_2, o[2] = u, o[3] = v;
    return true;
}

/* 8.11 L+R-(pi/2)S-L-(pi/2)R+ (C|C(pi/2)SC(pi/2)|C): u = 4 - sqrt(rho^2 - 4) for the distance rho of
 * (x + sin phi, y - 1 - cos phi); t from the position equation, v = t - phi. */
static bool f_lrslr(const rs_in *g, double bound, double o[5])
{
    double xi = g->x + g->s, eta = g->y - 1.0 - g->c;
    double rho2 = xi * xi + eta * eta;
    if (rho2 < 4.0)
        return false;
    double u = 4.0 - sqrt(rho2 - 4.0);
    if (u > AP_RS_EPS || fmax(M_PI, g->aphi) - u >= bound)
        return false;
    double t = fast_atan2((4.0 - u) * xi - 2.0 * eta, -2.0 * xi + (u - 4.0) * eta);
    if (t < -AP_RS_EPS)
        return false;
    double v = wrap(t - g->phi);
    if (v < -AP_RS_EPS)
        return false;
    o[0] = t, o[1] = -M_PI_2, o[2] = u, o[3] = -M_PI_2, o[4] = v;
    return true;
}

/* Transform flags. */
enum { RS_TIMEFLIP = 1, RS_REFLECT = 2, RS_BACKWARDS = 4 };

/* One evaluation: a base formula, its letters, piece count, and the transform applied. */
typedef struct rs_eval {
    rs_formula f;
    const char *letters;
    int n;
    int tf;
} rs_eval;

/* Cheap families first so the bound prunes the expensive ones (pruning never drops the optimum: a formula
 * only gives up when its own length is provably >= the best found). */
#define RS_FOUR(f, letters, n, extra)                                                                        \
    {f, letters, n, (extra)}, {f, letters, n, (extra) | RS_TIMEFLIP}, {f, letters, n, (extra) | RS_REFLECT},   \
        {f, letters, n, (extra) | RS_TIMEFLIP | RS_REFLECT}

static const rs_eval ap_rs_evals[] = {
    RS_FOUR(f_lsl, "LSL", 3, 0),          /* CSC: L+S+L+ and its 3 images */
    RS_FOUR(f_lsr, "LSR", 3, 0),          /* CSC: L+S+R+ ... */
    RS_FOUR(f_lrl, "LRL", 3, 0),          /* C|C|C, CC|C */
    RS_FOUR(f_lrl, "LRL", 3, RS_BACKWARDS), /* C|CC */
    RS_FOUR(f_lrlr_a, "LRLR", 4, 0),      /* CCu|CuC */
    RS_FOUR(f_lrlr_b, "LRLR", 4, 0),      /* C|CuCu|C */
    RS_FOUR(f_lrsl, "LRSL", 4, 0),        /* C|C(pi/2)SC */
    RS_FOUR(f_lrsr, "LRSR", 4, 0),        /* C|C(pi/2)SC */
    RS_FOUR(f_lrsl, "LRSL", 4, RS_BACKWARDS), /* CSC(pi/2)|C */
    RS_FOUR(f_lrsr, "LRSR", 4, RS_BACKWARDS), /* CSC(pi/2)|C */
    RS_FOUR(f_lrslr, "LRSLR", 5, 0),      /* C|C(pi/2)SC(pi/2)|C */
};
#define RS_NEVALS (sizeof ap_rs_evals / sizeof ap_rs_evals[0])

/* The best path in normalised units. type/len hold the final letters and signed lengths. */
typedef struct rs_best {
    double length;
    int n;
    char type[AP_RS_MAX_PIECES];
    double len[AP_RS_MAX_PIECES];
} rs_best;

/* Evaluate one entry of the table (index k) on goal g0 (start frame). Returns true and fills *res when the
 * word exists and is shorter than bound. Exposed to the tests through ap_reeds_shepp_word_eval. */
static bool eval_one(size_t k, const rs_in *g0, const rs_in *gb, double bound, rs_best *res)
{
    const rs_eval *e = &ap_rs_evals[k];
    rs_in g = (e->tf & RS_BACKWARDS) ? *gb : *g0;
    if (e->tf & RS_TIMEFLIP) {
        g.x = -g.x;
        g.phi = -g.phi;
        g.s = -g.s;
    }
    if (e->tf & RS_REFLECT) {
        g.y = -g.y;
        g.phi = -g.phi;
        g.s = -g.s;
    }
    double o[5] = {0};
    if (!e->f(&g, bound, o))
        return false;
    double L = 0.0;
    for (int i = 0; i < e->n; i++)
        L += fabs(o[i]);
    if (!(L < bound))
        return false;
    res->length = L;
    res->n = e->n;
    for (int i = 0; i < e->n; i++) {
        /* backwards: the pieces run in reverse order */
        int j = (e->tf & RS_BACKWARDS) ? e->n - 1 - i : i;
        char c = e->letters[j];
        if ((e->tf & RS_REFLECT) && c != 'S')
            c = c == 'L' ? 'R' : 'L';
        res->type[i] = c;
        res->len[i] = (e->tf & RS_TIMEFLIP) ? -o[j] : o[j];
    }
    return true;
}

static bool valid_input(const ap_pose *a, const ap_pose *b, double r)
{
    return a != NULL && b != NULL && r > 0.0 && isfinite(r) && isfinite(a->x) && isfinite(a->y) &&
           isfinite(a->heading) && isfinite(b->x) && isfinite(b->y) && isfinite(b->heading);
}

/* Goal in the start frame (normalised), and its "backwards" image. */
static void setup(const ap_pose *a, const ap_pose *b, double r, rs_in *g, rs_in *gb)
{
    double dx = (b->x - a->x) / r, dy = (b->y - a->y) / r;
    double sh, ch;
    fast_sincos(a->heading, &sh, &ch);
    g->x = dx * ch + dy * sh;
    g->y = -dx * sh + dy * ch;
    g->phi = wrap(b->heading - a->heading);
    fast_sincos(g->phi, &g->s, &g->c);
    g->aphi = fabs(g->phi);
    gb->x = g->x * g->c + g->y * g->s;
    gb->y = g->x * g->s - g->y * g->c;
    gb->phi = g->phi;
    gb->s = g->s;
    gb->c = g->c;
    gb->aphi = g->aphi;
}

static bool shortest_norm(const ap_pose *a, const ap_pose *b, double r, rs_best *best)
{
    rs_in g, gb;
    setup(a, b, r, &g, &gb);
    best->length = INFINITY;
    best->n = 0;
    /* Identical poses, up to AP_SAME_POSE (path.h: why): the empty path. */
    if (g.aphi <= AP_SAME_POSE && hypot(g.x, g.y) <= AP_SAME_POSE) {
        best->length = 0.0;
        return true;
    }
    for (size_t k = 0; k < RS_NEVALS; k++) {
        rs_best cand;
        if (eval_one(k, &g, &gb, best->length, &cand))
            *best = cand;
    }
    return best->n > 0;
}

int ap_reeds_shepp_shortest(const ap_pose *a, const ap_pose *b, double r, ap_reeds_shepp *out)
{
    if (!valid_input(a, b, r) || out == NULL)
        return -1;
    rs_best best;
    if (!shortest_norm(a, b, r, &best))
        return -1; /* unreachable: CSC always covers some word */
    memset(out, 0, sizeof *out);
    out->r = r;
    out->start = *a;
    /* Zero pieces (the formulas' t = 0 and the like) are dropped so the word names what is driven. */
    int n = 0;
    for (int i = 0; i < best.n; i++) {
        if (fabs(best.len[i]) <= 1e-14) /* normalised: see ap_dubins_segments for why relative to r */
            continue;
        out->type[n] = best.type[i];
        out->len[n] = best.len[i] * r;
        out->word[2 * n] = best.type[i];
        out->word[2 * n + 1] = best.len[i] < 0.0 ? '-' : '+';
        out->length += fabs(out->len[n]);
        n++;
    }
    out->n = n;
    out->word[2 * n] = '\0';
    return 0;
}

double ap_reeds_shepp_length(const ap_pose *a, const ap_pose *b, double r)
{
    if (!valid_input(a, b, r))
        return -1.0;
    rs_best best;
    if (!shortest_norm(a, b, r, &best))
        return -1.0;
    return best.length * r;
}

size_t ap_reeds_shepp_word_count(void)
{
    return RS_NEVALS;
}

double ap_reeds_shepp_word_eval(size_t k, const ap_pose *a, const ap_pose *b, double r, ap_reeds_shepp *out)
{
    if (k >= RS_NEVALS || !valid_input(a, b, r))
        return -1.0;
    rs_in g, gb;
    setup(a, b, r, &g, &gb);
    rs_best res;
    if (!eval_one(k, &g, &gb, INFINITY, &res))
        return -1.0;
    if (out != NULL) {
        memset(out, 0, sizeof *out);
        out->r = r;
        out->start = *a;
        out->n = res.n;
        for (int i = 0; i < res.n; i++) {
            out->type[i] = res.type[i];
            out->len[i] = res.len[i] * r;
            out->word[2 * i] = res.type[i];
            out->word[2 * i + 1] = res.len[i] < 0.0 ? '-' : '+';
            out->length += fabs(out->len[i]);
        }
        out->word[2 * res.n] = '\0';
    }
    return res.length * r;
}

size_t ap_reeds_shepp_segments(const ap_reeds_shepp *p, const ap_pose *goal, ap_segment *out)
{
    ap_pose pose = p->start;
    size_t n = 0;
    for (int i = 0; i < p->n && i < AP_RS_MAX_PIECES; i++) {
        if (!(fabs(p->len[i]) > 1e-14 * p->r))
            continue;
        int steer = p->type[i] == 'L' ? 1 : p->type[i] == 'R' ? -1 : 0;
        out[n++] = ap_segment_drive(&pose, steer, p->len[i], p->r);
    }
    if (n > 0 && goal != NULL)
        ap_segment_snap_end(&out[n - 1], goal);
    return n;
}
