/* smooth.c — waypoint-skipping smoothing.
 *
 * Source: Pinter, "Toward More Realistic Pathfinding", "Smoothing the A* Path", Listing 1: keep a checkpoint;
 * while the unit can walk straight from the checkpoint to the waypoint after the current one, drop the
 * current one; otherwise the current one becomes the checkpoint. Segments the exact test rejects (A* paths
 * ignore the unit's size) are left as they are, as in Pinter's Figure 4.
 */
#include "smooth.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "../base/mem.h"

#include "../world/collide.h"

typedef bool (*walkable_fn)(const void *ctx, double ax, double ay, double bx, double by, double r);

static size_t smooth_with(const void *ctx, double (*pts)[2], size_t n, double r, walkable_fn walkable)
{
    if (n <= 2)
        return n;
    /* pts[0 .. k-1] is the kept prefix; pts[k-1] is the checkpoint; cur walks the input. Writing never
     * overtakes reading (k <= cur), so in-place is safe. */
    size_t k = 1;
    for (size_t cur = 1; cur + 1 < n; cur++) {
        const double *check = pts[k - 1];
        if (walkable(ctx, check[0], check[1], pts[cur + 1][0], pts[cur + 1][1], r))
            continue; /* drop pts[cur] */
        pts[k][0] = pts[cur][0];
        pts[k][1] = pts[cur][1];
        k++;
    }
    pts[k][0] = pts[n - 1][0];
    pts[k][1] = pts[n - 1][1];
    return k + 1;
}

static bool world_walkable(const void *ctx, double ax, double ay, double bx, double by, double r)
{
    return ap_world_line_clear(ctx, ax, ay, bx, by, r);
}

static bool sampled_walkable(const void *ctx, double ax, double ay, double bx, double by, double r)
{
    return ap_line_clear_sampled(ctx, ax, ay, bx, by, r);
}

size_t ap_smooth_los(const ap_world *w, double (*pts)[2], size_t n, double r)
{
    return smooth_with(w, pts, n, r, world_walkable);
}

size_t ap_smooth_los_sampled(const ap_map *m, double (*pts)[2], size_t n, double r)
{
    return smooth_with(m, pts, n, r, sampled_walkable);
}

/* ---- taut smoothing: Listing 1, then every bend pulled toward the corner it goes round. */

/* Slide P toward T while the line from Q stays walkable: P + t (T - P) for the largest t in [0, 1] found by
 * bisection to AP_TAUT_TOL tiles (t = 0 is P itself, whose line from Q the caller knows). With ends, returns
 * true when the line Q -> T itself is walkable (then P is T); without, the caller knows it is not. */
static bool slide(const ap_world *w, const double *Q, double *P, const double *T, double r, bool ends)
{
    if (ends && ap_world_line_clear(w, Q[0], Q[1], T[0], T[1], r)) {
        P[0] = T[0];
        P[1] = T[1];
        return true;
    }
    const double len = hypot(T[0] - P[0], T[1] - P[1]);
    double lo = 0.0, hi = 1.0;
    /* A bend already at its corner cannot move: one test 2 tol along says so (from the second round on most
     * bends are; this halved the tests on den520d at the same lengths). */
    const double t0 = 2.0 * AP_TAUT_TOL / len;
    if (t0 < 1.0 && !ap_world_line_clear(w, Q[0], Q[1], P[0] + t0 * (T[0] - P[0]), P[1] + t0 * (T[1] - P[1]), r))
        return false;
    /* Plain bisection over [0, 1], not galloping out from P: where the walkable t are not one interval it
     * may land beyond a blocked stretch, on a bend nearer T, which measured shorter paths (den520d: mean
     * excess over the optimum 0.05 % against 0.23 % galloping) for about 1.5x the tests. */
    for (int k = 0; k < AP_TAUT_MAX_BISECT && (hi - lo) * len > AP_TAUT_TOL; k++) {
        const double t = 0.5 * (lo + hi);
        if (ap_world_line_clear(w, Q[0], Q[1], P[0] + t * (T[0] - P[0]), P[1] + t * (T[1] - P[1]), r))
            lo = t;
        else
            hi = t;
    }
    const double x = P[0] + lo * (T[0] - P[0]), y = P[1] + lo * (T[1] - P[1]);
    P[0] = x;
    P[1] = y;
    return false;
}

/* The ends of a cut d tiles deep at bend B (la = |AB|, lc = |CB|): B1 toward A, B2 toward C. */
static void cut_ends(const double *A, const double *B, const double *C, double la, double lc, double d, double *B1,
                     double *B2)
{
    B1[0] = B[0] + (A[0] - B[0]) * d / la;
    B1[1] = B[1] + (A[1] - B[1]) * d / la;
    B2[0] = B[0] + (C[0] - B[0]) * d / lc;
    B2[1] = B[1] + (C[1] - B[1]) * d / lc;
}

/* Cut the bend at B between A and C: a largest d (galloping out from 2 AP_TAUT_TOL, doubling, then bisection
 * to AP_TAUT_TOL) with the line from B1 (d tiles from B toward A) to B2 (d toward C) walkable. Returns false
 * when there is none beyond the tolerance, else writes its ends to B1 and B2. Galloping: the cut that matters
 * is the first one (the halves are pulled afterwards), and it halved the cut's tests at the same lengths. */
static bool cut(const ap_world *w, const double *A, const double *B, const double *C, double r, double *B1,
                double *B2)
{
    const double la = hypot(A[0] - B[0], A[1] - B[1]), lc = hypot(C[0] - B[0], C[1] - B[1]);
    double lo = 0.0, hi = la < lc ? la : lc;
    if (!(la > 0.0 && lc > 0.0))
        return false;
    const double top = hi;
    for (double d = 2.0 * AP_TAUT_TOL; d < top; d *= 2.0) {
        cut_ends(A, B, C, la, lc, d, B1, B2);
        if (!ap_world_line_clear(w, B1[0], B1[1], B2[0], B2[1], r)) {
            hi = d;
            break;
        }
        lo = d;
    }
    for (int k = 0; k < AP_TAUT_MAX_BISECT && hi - lo > AP_TAUT_TOL; k++) {
        const double d = 0.5 * (lo + hi);
        cut_ends(A, B, C, la, lc, d, B1, B2);
        if (ap_world_line_clear(w, B1[0], B1[1], B2[0], B2[1], r))
            lo = d;
        else
            hi = d;
    }
    if (!(lo > AP_TAUT_TOL))
        return false;
    cut_ends(A, B, C, la, lc, lo, B1, B2);
    return true;
}

/* Room for m points in both point buffers and both flag arrays (grown together, ap_grow); false when out of
 * memory (then nothing is lost: each array is either its old block or a larger copy of it, and *cap still
 * holds for all four). */
static bool taut_reserve(double (**a)[2], double (**b)[2], bool **fa, bool **fb, size_t *cap, size_t m)
{
    void *arr[4] = {*a, *b, *fa, *fb};
    const size_t elem[4] = {sizeof **a, sizeof **b, sizeof **fa, sizeof **fb};
    size_t c[4] = {*cap, *cap, *cap, *cap};
    bool ok = true;
    for (int i = 0; i < 4 && ok; i++)
        ok = ap_grow(&arr[i], &c[i], m, elem[i], m);
    *a = arr[0], *b = arr[1], *fa = arr[2], *fb = arr[3];
    if (ok)
        *cap = c[0]; /* the same growth from the same capacity: c[0] == c[1] == c[2] == c[3] */
    return ok;
}

size_t ap_smooth_taut(const ap_world *w, double (**pts)[2], size_t n, double r)
{
    n = ap_smooth_los(w, *pts, n, r);
    if (n <= 2)
        return n;
    /* cur: this round's points and dirty flags (moved or new last round: worth pulling again, with their
     * neighbours); next: the round's output, at most two points per input point. */
    size_t cap = 0;
    double(*cur)[2] = NULL, (*next)[2] = NULL;
    bool *dirty = NULL, *ndirty = NULL;
    if (!taut_reserve(&cur, &next, &dirty, &ndirty, &cap, 2 * n + 2)) {
        AP_FREE_ALL(cur, next, dirty, ndirty);
        return n; /* the Listing 1 answer stands */
    }
    for (size_t i = 0; i < n; i++) {
        cur[i][0] = (*pts)[i][0];
        cur[i][1] = (*pts)[i][1];
        dirty[i] = true;
    }
    bool any = true;
    for (int round = 0; round < AP_TAUT_MAX_ROUNDS && any; round++) {
        if (!taut_reserve(&cur, &next, &dirty, &ndirty, &cap, 2 * n + 2))
            break; /* keep what the rounds so far made */
        any = false;
        size_t k = 0;
        next[k][0] = cur[0][0];
        next[k][1] = cur[0][1];
        ndirty[k++] = false;
        for (size_t i = 1; i + 1 < n; i++) {
            const double *A = next[k - 1], *C = cur[i + 1];
            double B[2] = {cur[i][0], cur[i][1]};
            bool moved = false;
            if (dirty[i] || dirty[i - 1] || dirty[i + 1] || ndirty[k - 1]) {
                /* Toward C as seen from A, then toward A as seen from C: each step keeps both lines walkable
                 * (the line from the fixed end is tested; the other is part of a walkable line) and never
                 * lengthens the path (triangle inequality). B drops out when A sees C. */
                if (slide(w, A, B, C, r, true)) {
                    any = true;
                    continue;
                }
                slide(w, C, B, A, r, false); /* C does not see A: the line just tested */
                moved = hypot(B[0] - cur[i][0], B[1] - cur[i][1]) > 4.0 * AP_TAUT_TOL;
                if (!moved && cut(w, A, B, C, r, next[k], next[k + 1])) {
                    /* B is stuck between two corners it does not touch: split the bend in two */
                    ndirty[k++] = true;
                    ndirty[k++] = true;
                    any = true;
                    continue;
                }
            }
            next[k][0] = B[0];
            next[k][1] = B[1];
            ndirty[k++] = moved;
            any = any || moved;
        }
        next[k][0] = cur[n - 1][0];
        next[k][1] = cur[n - 1][1];
        ndirty[k++] = false;
        double(*tp)[2] = cur;
        cur = next;
        next = tp;
        bool *tf = dirty;
        dirty = ndirty;
        ndirty = tf;
        n = k;
    }
    free(*pts);
    *pts = cur;
    AP_FREE_ALL(next, dirty, ndirty);
    return n;
}
