/* turning.c — any-angle paths for turning units (turning.h): the planned disc's radius and the Dubins joins
 * that honour start and goal headings.
 *
 * Source: Dubins (1957) through dubins.h (the shortest of the six words); the graph path is Red Blob's
 * tangent visibility graph (anyangle.h) of the larger disc.
 */
#include "turning.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/status.h"
#include "../geom/curve.h"
#include "../geom/dubins.h"
#include "graph.h"

/* Headings within this (radians) need no join. */
#define JOIN_HEADING_EPS 1e-9

double ap_aa_turn_clearance(double r_u)
{
    return fmax(r_u + AP_AA_TURN_MARGIN, AP_AA_GRID_MIN_RADIUS);
}

double ap_aa_turn_radius(double r_u, double R)
{
    return fmax(R, ap_aa_turn_clearance(r_u));
}

/* A growing array of segments. */
typedef struct seg_buf {
    ap_segment *s;
    size_t n, cap;
} seg_buf;

static bool push(seg_buf *b, const ap_segment *s)
{
    if (b->n == b->cap) {
        size_t cap = b->cap > 0 ? 2 * b->cap : 16;
        ap_segment *p = realloc(b->s, cap * sizeof *p);
        if (p == NULL)
            return false;
        b->s = p;
        b->cap = cap;
    }
    b->s[b->n++] = *s;
    return true;
}

/* Append the part of path segs[0 .. n) between distances a and e. A segment the part covers to its end (or
 * from its start) is cut at its own length (or 0), not at the difference of the running sums, which may miss
 * it by a rounding step: so the path's own ends, the goal's among them, stay its points bit for bit. */
static bool push_part(seg_buf *b, const ap_segment *segs, size_t n, double a, double e)
{
    double c0 = 0.0;
    for (size_t i = 0; i < n; i++) {
        const double c1 = c0 + segs[i].length, lo = fmax(a, c0), hi = fmin(e, c1);
        if (hi - lo > 1e-12) {
            const ap_segment s = ap_segment_sub(&segs[i], lo > c0 ? lo - c0 : 0.0, hi < c1 ? hi - c0 : segs[i].length);
            if (!push(b, &s))
                return false;
        }
        c0 = c1;
    }
    return true;
}

/* A candidate join: the joined length it gives, how far its join lies from the end joined (ties go to the
 * nearer), its distance along the path. */
typedef struct cand {
    double cost, away, d;
} cand;

/* A cost on a 1e-9 tile grid, so that candidates equal up to rounding (a curve ending in a line along the
 * path costs the same wherever it meets it) tie, and the tie goes to the distance nearer the end joined. */
static double round_cost(double c)
{
    return round(c * 1e9) / 1e9;
}

static int cand_cmp(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost < y->cost ? -1 : 1;
    return (x->away > y->away) - (x->away < y->away);
}

/* Candidate distances in [lo, L]: every step (R / 4, or wider so that at most AP_AA_JOIN_CANDIDATES fit),
 * lo itself, L and the segment ends beyond lo. Returns the count (malloc'd *out) or -1. */
static long distances(const ap_segment *segs, size_t n, double L, double lo, double R, double **out)
{
    double step = R / 4.0;
    if ((L - lo) / step > AP_AA_JOIN_CANDIDATES)
        step = (L - lo) / AP_AA_JOIN_CANDIDATES;
    const size_t cap = AP_AA_JOIN_CANDIDATES + n + 3;
    double *d = malloc(cap * sizeof *d);
    if (d == NULL)
        return -1;
    size_t k = 0;
    d[k++] = lo;
    for (size_t i = 1; i <= AP_AA_JOIN_CANDIDATES && lo + step * (double)i < L; i++)
        d[k++] = lo + step * (double)i;
    double c = 0.0;
    for (size_t i = 0; i < n; i++) {
        c += segs[i].length;
        if (c > lo && c < L)
            d[k++] = c;
    }
    d[k++] = L;
    *out = d;
    return (long)k;
}

/* The shortest Dubins curve a -> b (radius R) as segments into out[3]; its length, or -1. */
static double dubins(const ap_pose *a, const ap_pose *b, double R, ap_segment out[3], size_t *k)
{
    ap_dubins db;
    if (ap_dubins_shortest(a, b, R, &db) != 0)
        return -1.0;
    *k = ap_dubins_segments(&db, b, out);
    return db.length;
}

/* Segment s driven the other way: from its end to its start, facing the opposite heading (an arc turns the
 * other way round the same centre). */
static ap_segment reversed(const ap_segment *s)
{
    const double h = ap_angle_wrap(ap_segment_end_heading(s) + M_PI);
    ap_segment r = s->type == AP_SEG_ARC ? ap_segment_arc(s->x1, s->y1, h, s->radius, -s->sweep)
                                         : ap_segment_line(s->x1, s->y1, s->x0, s->y0);
    r.x1 = s->x0;
    r.y1 = s->y0;
    return r;
}

/* The curve of one end's join into out[3] (*k segments), or -1 when there is none; its length.
 * at_start: from the start `end` to pose p on the path; else from p to the goal `end`. free_heading: the
 * end's heading is free, so the curve is Pinter's arc+line (curve.h, radius R) between p and the end's
 * point (driven backwards from p for the start), else the shortest Dubins curve. */
static double end_curve(const ap_pose *end, const ap_pose *p, bool at_start, bool free_heading, double R,
                        ap_segment out[3], size_t *k)
{
    if (!free_heading)
        return at_start ? dubins(end, p, R, out, k) : dubins(p, end, R, out, k);
    int tight = 0;
    ap_segment tmp[2];
    const size_t m = ap_curve_arc_line(p->x, p->y, at_start ? ap_angle_wrap(p->heading + M_PI) : p->heading, end->x,
                                       end->y, R, tmp, &tight);
    if (tight)
        return -1.0;
    /* The curve's far end is the end's point: a line there ends on it already, an arc that reaches it
     * alone (curve.c drops a closing line under 1e-12 tiles) only up to rounding. */
    if (m > 0) {
        tmp[m - 1].x1 = end->x;
        tmp[m - 1].y1 = end->y;
    }
    for (size_t i = 0; i < m; i++)
        out[i] = at_start ? reversed(&tmp[m - 1 - i]) : tmp[i];
    *k = m;
    return ap_path_length(out, m);
}

/* One end's join. at_start: from the start `end` to a pose on the path at d in [lo, L]; else from a pose on
 * the path at d in [lo, L] to the goal `end` (end_curve; free_heading: a shortcut of the path's end, whose
 * candidate at the end itself is the path unchanged, accepted untested; at most AP_AA_FREE_TESTS others are
 * tested). The cheapest clear candidate (cost: the curve plus the path it leaves out of [lo, L]): *d_out,
 * its curve in curve[0 .. *k). Returns AP_OK, AP_NO_PATH or AP_E_NOMEM. */
static int join_end(const ap_segment *segs, size_t n, double L, double lo, const ap_pose *end, bool at_start,
                    bool free_heading, double R, ap_aa_clear_fn clear, void *ctx, double *d_out, ap_segment curve[3],
                    size_t *k)
{
    double *d;
    long nd = distances(segs, n, L, lo, R, &d);
    if (nd < 0)
        return AP_E_NOMEM;
    cand *c = malloc((size_t)nd * sizeof *c);
    if (c == NULL) {
        free(d);
        return AP_E_NOMEM;
    }
    size_t nc = 0;
    for (long i = 0; i < nd; i++) {
        const ap_pose p = ap_path_pose(segs, n, d[i]);
        ap_segment tmp[3];
        size_t kk;
        const double len = end_curve(end, &p, at_start, free_heading, R, tmp, &kk);
        if (len >= 0.0)
            c[nc++] = (cand){round_cost(len + (at_start ? L - d[i] : d[i] - lo)), at_start ? d[i] : L - d[i], d[i]};
    }
    free(d);
    qsort(c, nc, sizeof *c, cand_cmp);
    int st = AP_NO_PATH, tests = 0;
    for (size_t i = 0; i < nc && st == AP_NO_PATH; i++) {
        const ap_pose p = ap_path_pose(segs, n, c[i].d);
        const bool unchanged = free_heading && c[i].d == (at_start ? lo : L);
        if (end_curve(end, &p, at_start, free_heading, R, curve, k) < 0.0)
            continue;
        if (unchanged) {
            *k = 0;
        } else if (*k > 0 && (free_heading && tests++ >= AP_AA_FREE_TESTS)) {
            continue;
        }
        if (unchanged || *k == 0 || clear(ctx, curve, *k)) {
            *d_out = c[i].d;
            st = AP_OK;
        }
    }
    free(c);
    return st;
}

int ap_aa_turn_join(const ap_segment *segs, size_t n, double sx, double sy, double gx, double gy, bool has_sh,
                    double sheading, bool has_gh, double gheading, double R, ap_aa_clear_fn clear, void *ctx,
                    ap_segment **out, size_t *n_out)
{
    *out = NULL;
    *n_out = 0;
    const double L = ap_path_length(segs, n);
    const ap_pose S = {sx, sy, sheading}, G = {gx, gy, gheading};
    /* Does an end need a curve? (a free heading, or the path's own one already) */
    const bool js = has_sh && (n == 0 || fabs(ap_angle_wrap(sheading - segs[0].heading)) > JOIN_HEADING_EPS);
    const bool jg = has_gh && (n == 0 || fabs(ap_angle_wrap(gheading - ap_segment_end_heading(&segs[n - 1]))) >
                                             JOIN_HEADING_EPS);
    seg_buf b = {0};
    ap_segment cs[3], cg[3], cd[3];
    size_t ks = 0, kg = 0, kd = 0;
    double ds = 0.0, dg = L;
    int st = AP_OK;
    if (n == 0) {
        /* start == goal: a loop when both headings are given and differ, else nothing to drive */
        if (js && jg && dubins(&S, &G, R, cd, &kd) >= 0.0 && kd > 0 && !clear(ctx, cd, kd))
            return AP_NO_PATH;
        for (size_t i = 0; js && jg && i < kd; i++)
            if (!push(&b, &cd[i])) {
                free(b.s);
                return AP_E_NOMEM;
            }
        *out = b.s;
        *n_out = b.n;
        return AP_OK;
    }
    /* A free end: a shortcut when one is shorter and clear (else the path's own end). */
    if (js || !has_sh)
        st = join_end(segs, n, L, 0.0, &S, true, !has_sh, R, clear, ctx, &ds, cs, &ks);
    if (st == AP_OK && (jg || !has_gh))
        st = join_end(segs, n, L, ds, &G, false, !has_gh, R, clear, ctx, &dg, cg, &kg);
    if (st == AP_E_NOMEM)
        return st;
    /* Both headings: the one curve from start pose to goal pose when it is shorter (or the only one). */
    double joined = st == AP_OK ? ap_path_length(cs, ks) + (dg - ds) + ap_path_length(cg, kg) : INFINITY;
    if (js && jg) {
        const double len = dubins(&S, &G, R, cd, &kd);
        if (len >= 0.0 && len < joined && (kd == 0 || clear(ctx, cd, kd))) {
            ks = kg = 0;
            ds = dg = L;
            st = AP_OK;
        } else {
            kd = 0;
        }
    }
    if (st != AP_OK)
        return st;
    bool ok = true;
    for (size_t i = 0; ok && i < kd; i++)
        ok = push(&b, &cd[i]);
    for (size_t i = 0; ok && i < ks; i++)
        ok = push(&b, &cs[i]);
    ok = ok && (kd > 0 || push_part(&b, segs, n, ds, dg));
    for (size_t i = 0; ok && i < kg; i++)
        ok = push(&b, &cg[i]);
    if (!ok) {
        free(b.s);
        return AP_E_NOMEM;
    }
    *out = b.s;
    *n_out = b.n;
    return AP_OK;
}
