/* dubins.c — shortest forward-only paths between two poses (Dubins 1957), closed form.
 *
 * Sources: L. E. Dubins, "On curves of minimal length with a constraint on average curvature, and with
 * prescribed initial and terminal positions and tangents", Amer. J. Math. 79 (1957): the shortest path is
 * CSC or CCC (six words). The closed forms below are derived here in normalised coordinates, the standard
 * set-up of A. M. Shkel and V. Lumelsky, "Classification of the Dubins set", Robotics and Autonomous
 * Systems 34 (2001), Section 3: scale by 1/r, rotate so the goal lies on the +x axis at distance d = D / r,
 * and write the start and goal headings relative to that axis as alpha and beta. Pinter's "Legal Turns"
 * Figures 9-11 are the four CSC words of this set.
 *
 * Derivation (all arcs of unit radius). A left arc that turns the heading from h to h' moves the unit by
 * (sin h' - sin h, cos h - cos h'); a right arc by (sin h - sin h', cos h' - cos h); a line of length p at
 * heading h by p (cos h, sin h). Each word's pieces must add up to (d, 0) with final heading beta, which
 * gives one 2-vector equation per word, solved below. sa, ca, sb, cb are sin/cos of alpha and beta,
 * computed once per query.
 *
 * Speed (bench_curves, 10^6 random pairs; time = median of 5 runs interleaved with a build of the previous
 * version on the same loaded 2-core machine; Ir = callgrind instructions per ap_dubins_shortest call over
 * 50 000 queries):  before 1488 Ir, 180 ns;  inline sincos/atan2 and floor-free mod2pi 1119 Ir;  all four
 * CSC words evaluated without the bound-sorted branchy loop 1123 Ir, 161 ns.  Mean length unchanged (38.9203).
 * LSL/RSR lengths estimated without atan2 (sweep test by cross products), exact evaluation only for the
 * words that can still win or tie: 1259 Ir (more instructions, but ~1.5 fewer atan2 divisions and
 * polynomial chains on the critical path), 151.5 ns against 162.2 ns for the previous version (medians of 7
 * interleaved runs on the shared machine). Results bit-identical to the previous version over 10^6 queries
 * (random, near-coincident, and profile-lattice poses with 8/16 headings and radii 0.5-16).
 * LSR/RSL skip their atan2 when their line alone is longer than LSL's or RSR's estimate: 148.2-151.9 ns
 * (median 148.7) against 150.9-153.4 ns for the previous version, 4 interleaved runs each on the quiet
 * machine; same words and lengths (bench checksum unchanged).
 */
#include "dubins.h"

#include <math.h>

#include "../base/fastmath.h"

#define AP_TWO_PI (2.0 * M_PI)

/* Angle into [0, 2pi). A value that is 2pi minus rounding noise (e.g. mod2pi(-1e-17)) is snapped to 0: a
 * piece of "almost 2pi" is never optimal in a Dubins word, and keeping it would add a spurious full loop. */
static double mod2pi(double a)
{
    double m = a - AP_TWO_PI * floor(a / AP_TWO_PI);
    if (m >= AP_TWO_PI - 1e-12 || m < 0.0)
        m = 0.0;
    return m;
}

/* mod2pi for a in (-4pi, 4pi) (differences of the reduced headings and atan2 results) without floor(),
 * with the same snap of "2pi minus rounding noise" to 0. */
static inline double mod2pi_near(double a)
{
    if (a < 0.0)
        a += AP_TWO_PI;
    if (a < 0.0)
        a += AP_TWO_PI;
    if (a >= AP_TWO_PI)
        a -= AP_TWO_PI;
    if (a >= AP_TWO_PI)
        a -= AP_TWO_PI;
    if (a >= AP_TWO_PI - 1e-12 || a < 0.0)
        a = 0.0;
    return a;
}

/* Normalised set-up shared by every word. */
typedef struct dubins_in {
    double d;            /* D / r */
    double ta, tb;       /* the start and goal headings (map frame), reduced to [0, 2pi) */
    double cphi, sphi;   /* cos/sin of phi, the direction from start to goal (1, 0 when they coincide) */
    double sa, ca, sb, cb; /* sin/cos of alpha = ta - phi and beta = tb - phi */
} dubins_in;

/* A direction (x, y) of the normalised frame as an angle in the map frame: rotating by phi first means
 * the arcs can be measured against the headings as given, so phi, alpha and beta never need to exist as
 * angles (saving an atan2 and two reductions per query). */
static double map_angle(const dubins_in *in, double x, double y)
{
    return fast_atan2(x * in->sphi + y * in->cphi, x * in->cphi - y * in->sphi);
}

/* The CSC words share one shape: the line's length p and its direction (ch, sh) = (cos h, sin h) come
 * from sqrt and arithmetic only; the arcs are then t = k1 (h - alpha) and q = k2 (beta - h) (mod 2pi) for
 * the words' turn directions k1, k2 (+1 left, -1 right). Each arc is at least its chord |u(h) - u(alpha)|,
 * so p + chord_t + chord_q is a lower bound on the word found without any trig; the atan2 for h is only
 * paid by words whose bound beats the best so far. */
typedef struct csc {
    bool ok;
    double p, ch, sh;
} csc;

/* LSL: heading after the first arc h; the sum is (sin h - sa) + p cos h + (sb - sin h) = d and
 * (ca - cos h) + p sin h + (cos h - cb) = 0, so p (cos h, sin h) = (d + sa - sb, cb - ca).
 * RSR is its mirror image: p (cos h, sin h) = (d - sa + sb, ca - cb). */
static void csc_same(const dubins_in *in, double k, csc *c)
{
    double px = in->d + k * (in->sa - in->sb), py = k * (in->cb - in->ca);
    double p2 = px * px + py * py;
    c->ok = true;
    c->p = sqrt(p2);
    if (p2 < 1e-24) {
        /* A line of (almost) no length has no direction: leave along the start heading rather than let
         * atan2 of rounding noise pick one (which would cost a spurious full loop between the two arcs). */
        c->ch = in->ca;
        c->sh = in->sa;
    } else {
        c->ch = px / c->p;
        c->sh = py / c->p;
    }
}

/* csc_cross where its line is short (p^2 = A^2 + B^2 - 4 below 1e-3) and both headings lie near the
 * line from start to goal, the same way (s = ca + cb near 2) or against it (near -2): there B^2 - 4 = s^2 - 4
 * is the difference of two numbers near 4 and keeps only about 4e-16 of absolute precision, so p and the
 * line's direction came out wrong by ~4e-16 / p. For a goal 1.4e-5 tiles straight ahead (turning radius
 * 0.5) the direction missed by 7.5e-12 rad, more than the true arcs, and an arc of 2 pi - 7.5e-12 (a full
 * loop, 3.14 tiles) won. Here s -+ 2 come from the sines, 1 - c = s^2 / (1 + c) and 1 + c = s^2 / (1 - c),
 * exact to the last bits, and the sine of the direction from p - A (or p + A) = (p^2 - A^2) / (p + A) (or
 * / (p - A)) without the cancellation; the cosine, near +-1, is as before. Same set-up and outputs. */
static void cross_near(const dubins_in *in, double k, double s, double A, double n2, csc *c)
{
    const double qa = in->sa * in->sa, qb = in->sb * in->sb;
    double sm2, sp2; /* s - 2 and s + 2 */
    if (s > 0.0) {
        sm2 = -(qa / (1.0 + in->ca) + qb / (1.0 + in->cb));
        sp2 = s + 2.0;
    } else {
        sp2 = qa / (1.0 - in->ca) + qb / (1.0 - in->cb);
        sm2 = s - 2.0;
    }
    const double d4 = sm2 * sp2; /* s^2 - 4 = p^2 - A^2 */
    double p2 = A * A + d4;
    /* touching circles (p = 0) a rounding step negative, the step scaled as the terms' first-order parts are
     * (the general case's absolute 1e-12 would pass circles that overlap by more than a tiny distance itself,
     * and their curve would miss the goal) */
    if (p2 < 0.0 && p2 > -1e-12 * fmin(1.0, fabs(A) + fabs(in->sa) + fabs(in->sb)))
        p2 = 0.0;
    c->ok = p2 >= 0.0;
    if (!c->ok)
        return;
    const double p = sqrt(p2);
    c->p = p;
    /* ch = (A p - 2 k B) / n2 = (A p + 2 s) / n2; sh = k (2 A - s p) / n2, with 2 A - s p written as
     * -2 (p - A) - (s - 2) p (s near 2) or 2 (A + p) - (s + 2) p (s near -2), the sum or difference of p and
     * A taken from d4 where they nearly cancel */
    double t;
    if (s > 0.0) {
        const double pma = A > 0.0 ? d4 / (p + A) : p - A;
        t = -2.0 * pma - sm2 * p;
    } else {
        const double apa = A < 0.0 ? d4 / (p - A) : A + p;
        t = 2.0 * apa - sp2 * p;
    }
    c->ch = (A * p + 2.0 * s) / n2;
    c->sh = k * t / n2;
}

/* LSR: (sin h - sa) + p cos h + (sin h - sb) = d, (ca - cos h) + p sin h + (cb - cos h) = 0, i.e. the
 * vector (p, -2) rotated by h equals (A, B) = (d + sa + sb, -(ca + cb)). So p^2 = A^2 + B^2 - 4 and
 * e^{ih} = (A + iB) / (p - 2i) = (A + iB)(p + 2i) / (A^2 + B^2).
 * RSL (k = -1): (p, 2) rotated by h equals (d - sa - sb, ca + cb); e^{ih} = (A + iB)(p - 2i) / (A^2 + B^2). */
static void csc_cross(const dubins_in *in, double k, csc *c)
{
    const double s = in->ca + in->cb;
    double A = in->d + k * (in->sa + in->sb), B = -k * s;
    double n2 = A * A + B * B;
    double p2 = n2 - 4.0;
    if (p2 < 1e-3 && fabs(s) > 1.0 && in->ca * in->cb > 0.0) {
        cross_near(in, k, s, A, n2, c);
        return;
    }
    /* Circles that touch (p = 0) may come out a rounding step negative. */
    if (p2 < 0.0 && p2 > -1e-12)
        p2 = 0.0;
    c->ok = p2 >= 0.0;
    if (!c->ok)
        return;
    c->p = sqrt(p2);
    c->ch = (A * c->p - 2.0 * k * B) / n2;
    c->sh = (B * c->p + 2.0 * k * A) / n2;
}

/* The middle arc p of RLR / LRL from (A, B) = 4 sin(p/2) (cos m, sin m), p/2 in (pi/2, pi):
 * p = 2pi - 2 asin(|(A, B)| / 4), written with asin rather than acos(1 - rho^2 / 8), which loses half the
 * digits when the poses are close (rho -> 0). False when the word does not exist or when p alone (a lower
 * bound on the word's length) is no shorter than best. */
static inline bool middle_arc(double A, double B, double best, double *p)
{
    double q = sqrt(A * A + B * B) / 4.0;
    if (q > 1.0 + 1e-12)
        return false;
    *p = AP_TWO_PI - 2.0 * asin(fmin(q, 1.0));
    return *p < best;
}

/* RLR: headings h1 = alpha - t, h2 = h1 + p, beta = h2 - q. The sum gives
 * 2 (sin h2 - sin h1, cos h1 - cos h2) = (A, B) = (d - sa + sb, ca - cb); the left-hand side is
 * 4 sin(p/2) (cos m, sin m) with m = h1 + p/2, so sin(p/2) = |(A, B)| / 4 and m = atan2(B, A). Of the
 * two middle arcs p and 2pi - p only the one above pi can be optimal (Dubins 1957; Shkel-Lumelsky Lemma 1),
 * and it keeps sin(p/2) > 0 so m is the direction of (A, B). */
static bool w_rlr(const dubins_in *in, double best, double o[3])
{
    double A = in->d - in->sa + in->sb, B = in->ca - in->cb, p;
    if (!middle_arc(A, B, best, &p))
        return false;
    double m = map_angle(in, A, B);
    o[0] = mod2pi_near(in->ta - m + 0.5 * p);
    o[1] = p;
    o[2] = mod2pi_near(in->ta - o[0] + p - in->tb);
    return true;
}

/* LRL: h1 = alpha + t, h2 = h1 - p, beta = h2 + q; 2 (sin h1 - sin h2, cos h2 - cos h1) = (d + sa - sb,
 * cb - ca) = 4 sin(p/2) (cos m, sin m) with m = h1 - p/2. */
static bool w_lrl(const dubins_in *in, double best, double o[3])
{
    double A = in->d + in->sa - in->sb, B = in->cb - in->ca, p;
    if (!middle_arc(A, B, best, &p))
        return false;
    double m = map_angle(in, A, B);
    o[0] = mod2pi_near(m + 0.5 * p - in->ta);
    o[1] = p;
    o[2] = mod2pi_near(in->tb - in->ta - o[0] + p);
    return true;
}

static bool valid_input(const ap_pose *a, const ap_pose *b, double r)
{
    return a != NULL && b != NULL && r > 0.0 && isfinite(r) && isfinite(a->x) && isfinite(a->y) &&
           isfinite(a->heading) && isfinite(b->x) && isfinite(b->y) && isfinite(b->heading);
}

static void setup(const ap_pose *a, const ap_pose *b, double r, dubins_in *in)
{
    double dx = b->x - a->x, dy = b->y - a->y;
    double D = sqrt(dx * dx + dy * dy);
    in->d = D / r;
    /* Coincident positions: any axis works; take +x. */
    in->cphi = D > 0.0 ? dx / D : 1.0;
    in->sphi = D > 0.0 ? dy / D : 0.0;
    in->ta = (a->heading >= 0.0 && a->heading < AP_TWO_PI) ? a->heading : mod2pi(a->heading);
    in->tb = (b->heading >= 0.0 && b->heading < AP_TWO_PI) ? b->heading : mod2pi(b->heading);
    double sta, cta, stb, ctb;
    fast_sincos(a->heading, &sta, &cta);
    fast_sincos(b->heading, &stb, &ctb);
    in->sa = sta * in->cphi - cta * in->sphi;
    in->ca = cta * in->cphi + sta * in->sphi;
    in->sb = stb * in->cphi - ctb * in->sphi;
    in->cb = ctb * in->cphi + stb * in->sphi;
}

/* Shortest word in normalised units; returns its index and fills len[3]; *total the normalised length. */
static int shortest_norm(const dubins_in *in, double len[3], double *total)
{
    double best = INFINITY;
    int wbest = -1;
    /* Identical poses, up to AP_SAME_POSE (path.h: why): the empty path (any word with zero pieces; report
     * LSL). Without this, rounding could turn a zero arc into a full circle elsewhere. */
    if (in->d <= AP_SAME_POSE && (mod2pi(in->tb - in->ta) <= AP_SAME_POSE ||
                                  mod2pi(in->tb - in->ta) >= AP_TWO_PI - AP_SAME_POSE)) {
        len[0] = len[1] = len[2] = 0.0;
        *total = 0.0;
        return AP_DUBINS_LSL;
    }
    /* CSC words (LSL, LSR, RSL, RSR): all four are evaluated, in a fixed order and without branches on
     * their lengths. The earlier version sorted them by a chord lower bound and stopped at the first that
     * could not win; that saved atan2 calls but its data-dependent branches mispredicted on random
     * queries, while four independent evaluations overlap in the pipeline: about the same instruction
     * count, ~10 % fewer ns (see the measurements in the file header). Their directions are all computed;
     * the atan2 for LSL / RSR is now paid only where that word can still win (next block). */
    static const double k1[4] = {1.0, 1.0, -1.0, -1.0}, k2[4] = {1.0, -1.0, 1.0, -1.0};
    csc c[4];
    csc_same(in, 1.0, &c[AP_DUBINS_LSL]);
    csc_cross(in, 1.0, &c[AP_DUBINS_LSR]);
    csc_cross(in, -1.0, &c[AP_DUBINS_RSL]);
    csc_same(in, -1.0, &c[AP_DUBINS_RSR]);
    /* LSL and RSR without atan2: t + q is (beta - alpha) mod 2pi for LSL (plus 2pi when h is not within
     * the left sweep from alpha to beta), and the mirror for RSR; the sweep test is cross products only. Such
     * a word is evaluated exactly (below, as before) only when this estimate, good to ~1e-12, cannot rule
     * it out against the others (margin 1e-9), or when h is within 1e-6 rad of alpha or beta or alpha of
     * beta (the 2pi snaps of mod2pi_near): the winner and the tie order are exactly as before. */
    double est[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
    bool must[4] = {false, true, true, false};
    double U = INFINITY, tq[4][2] = {{0}};
    const double xab = in->ca * in->sb - in->sa * in->cb, dab = in->ca * in->cb + in->sa * in->sb;
    const bool ab_near = fabs(xab) < 1e-6 && dab > 0.0;
    for (int w = 0; w < 4; w += 3) {
        double k = k1[w];
        double xah = k * (in->ca * c[w].sh - in->sa * c[w].ch), dah = in->ca * c[w].ch + in->sa * c[w].sh;
        double xhb = k * (c[w].ch * in->sb - c[w].sh * in->cb), dhb = c[w].ch * in->cb + c[w].sh * in->sb;
        if (ab_near || (fabs(xah) < 1e-6 && dah > 0.0) || (fabs(xhb) < 1e-6 && dhb > 0.0)) {
            must[w] = true;
            continue;
        }
        /* Is the turn alpha -> h (in the word's turn direction) shorter than alpha -> beta? Half planes
         * first, then the sign of the cross product of the two relative directions. */
        double kx = k * xab;
        int hh = xah < 0.0 || (xah == 0.0 && dah < 0.0), hb = kx < 0.0 || (kx == 0.0 && dab < 0.0);
        /* u = alpha-relative h = (dah, xah), v = alpha-relative beta = (dab, kx) */
        bool inside = hh != hb ? hh < hb : dah * kx - xah * dab > 0.0;
        est[w] = mod2pi_near(k * (in->tb - in->ta)) + c[w].p + (inside ? 0.0 : AP_TWO_PI);
        U = fast_min(U, est[w]);
    }
    for (int w = 1; w <= 2; w++) {
        /* The line alone bounds LSR / RSL from below: when it already exceeds LSL's or RSR's estimate the
         * word cannot win or tie, and its atan2 is skipped. */
        if (!c[w].ok || c[w].p - 1e-9 > U + 1e-9) {
            must[w] = false;
            continue;
        }
        double h = map_angle(in, c[w].ch, c[w].sh);
        tq[w][0] = mod2pi_near(k1[w] * (h - in->ta));
        tq[w][1] = mod2pi_near(k2[w] * (in->tb - h));
        est[w] = tq[w][0] + c[w].p + tq[w][1];
        U = fast_min(U, est[w]);
    }
    for (int w = 0; w < 4; w += 3)
        must[w] = must[w] || est[w] - 1e-9 <= U + 1e-9;
    for (int w = 0; w < 4; w++) {
        if (!c[w].ok || !must[w])
            continue;
        double t = tq[w][0], q = tq[w][1];
        if (w == 0 || w == 3) {
            double h = map_angle(in, c[w].ch, c[w].sh);
            t = mod2pi_near(k1[w] * (h - in->ta));
            q = mod2pi_near(k2[w] * (in->tb - h));
        }
        double L = t + c[w].p + q;
        if (L < best) {
            best = L;
            wbest = w;
            len[0] = t;
            len[1] = c[w].p;
            len[2] = q;
        }
    }
    /* CCC words: exist only for close poses (|(A, B)| <= 4). */
    for (int w = AP_DUBINS_RLR; w <= AP_DUBINS_LRL; w++) {
        double o[3];
        if (!(w == AP_DUBINS_RLR ? w_rlr : w_lrl)(in, best, o))
            continue;
        double L = o[0] + o[1] + o[2];
        if (L < best) {
            best = L;
            wbest = w;
            len[0] = o[0];
            len[1] = o[1];
            len[2] = o[2];
        }
    }
    *total = best;
    return wbest;
}

int ap_dubins_shortest(const ap_pose *a, const ap_pose *b, double r, ap_dubins *out)
{
    if (!valid_input(a, b, r) || out == NULL)
        return -1;
    dubins_in in;
    setup(a, b, r, &in);
    double len[3], total;
    int w = shortest_norm(&in, len, &total);
    if (w < 0)
        return -1; /* unreachable: LSL and RSR always exist */
    out->word = (ap_dubins_word)w;
    out->r = r;
    out->len[0] = len[0] * r;
    out->len[1] = len[1] * r;
    out->len[2] = len[2] * r;
    out->length = out->len[0] + out->len[1] + out->len[2];
    out->start = *a;
    return 0;
}

double ap_dubins_length(const ap_pose *a, const ap_pose *b, double r)
{
    if (!valid_input(a, b, r))
        return -1.0;
    dubins_in in;
    setup(a, b, r, &in);
    double len[3], total;
    if (shortest_norm(&in, len, &total) < 0)
        return -1.0;
    return total * r;
}

/* LS to the point (u, v) of a's frame (u ahead, v to the left) whose tangent from the left circle (centre
 * (0, r)) is t = sqrt(|(u, v) - (0, r)|^2 - r^2): the tangent leaves the circle at the angle
 * atan2(w, u) - atan2(t, r) (w = v - r) from its centre, and the start is at -pi/2, so the sweep is that +
 * pi/2: one atan2 of the product i (u + i w)(r - i t). A sweep within 1e-9 of 2pi is the point straight
 * ahead seen through rounding: 0. RS is LS of the mirror point (u, -v). */
static double ls_to_point(double u, double v, double r, double t)
{
    const double w = v - r;
    double sweep = fast_atan2(u * r + w * t, u * t - w * r);
    if (sweep < 0.0)
        sweep += AP_TWO_PI;
    if (sweep > AP_TWO_PI - 1e-9)
        sweep = 0.0;
    return r * sweep + t;
}

double ap_dubins_point_bound(const ap_pose *a, double x, double y, double r, double slack)
{
    double s = 0.0, c = 1.0;
    if (isfinite(a->heading))
        fast_sincos(a->heading, &s, &c);
    return ap_dubins_point_bound_sc(a, s, c, x, y, r, slack);
}

double ap_dubins_point_bound_sc(const ap_pose *a, double s, double c, double x, double y, double r, double slack)
{
    const double dx = x - a->x, dy = y - a->y;
    const double straight = sqrt(dx * dx + dy * dy) - slack;
    if (!(r > 0.0) || !isfinite(a->heading))
        return straight > 0.0 ? straight : 0.0;
    const double u = c * dx + s * dy, v = c * dy - s * dx;
    const double lim = (r + slack) * (r + slack);
    const double dl = u * u + (v - r) * (v - r), dr = u * u + (v + r) * (v + r);
    double best = straight;
    if (dl > lim && dr > lim) {
        /* the side of the nearer circle first: when its word is no longer than the other's tangent alone,
         * the other word (its tangent plus an arc) cannot be shorter, and its atan2 is not needed */
        const double tl = sqrt(dl - r * r), tr = sqrt(dr - r * r);
        double cs;
        if (tl <= tr) {
            cs = ls_to_point(u, v, r, tl);
            if (cs > tr)
                cs = fast_min(cs, ls_to_point(u, -v, r, tr));
        } else {
            cs = ls_to_point(u, -v, r, tr);
            if (cs > tl)
                cs = fast_min(cs, ls_to_point(u, v, r, tl));
        }
        cs = cs - slack - 1e-9;
        if (cs > best)
            best = cs;
    }
    return best > 0.0 ? best : 0.0;
}

const char *ap_dubins_word_name(ap_dubins_word w)
{
    static const char *const names[AP_DUBINS_WORDS] = {"LSL", "LSR", "RSL", "RSR", "RLR", "LRL"};
    return (unsigned)w < AP_DUBINS_WORDS ? names[w] : "?";
}

size_t ap_dubins_segments(const ap_dubins *d, const ap_pose *goal, ap_segment out[3])
{
    static const int steer[AP_DUBINS_WORDS][3] = {
        {1, 0, 1}, {1, 0, -1}, {-1, 0, 1}, {-1, 0, -1}, {-1, 1, -1}, {1, -1, 1}};
    ap_pose p = d->start;
    size_t n = 0;
    for (int i = 0; i < 3; i++) {
        /* Zero pieces (and rounding crumbs) carry no motion. The test is relative to r: with a tiny radius
         * an arc of a few tiles * 1e-13 can still turn the heading by 1e-7 rad, which matters on the long
         * line after it. */
        if (!(d->len[i] > 1e-14 * d->r))
            continue;
        out[n++] = ap_segment_drive(&p, steer[d->word][i], d->len[i], d->r);
    }
    if (n > 0 && goal != NULL)
        ap_segment_snap_end(&out[n - 1], goal);
    return n;
}
