/* timing.c — the time-optimal speed profile along a fixed path (timing.h). */
#include "timing.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "../base/status.h"

/* Below this (tiles) a segment has no length: left out of the answer. */
#define ZERO_TILES 1e-12

/* One piece of a segment: len metres at constant acceleration from v0 to v1 m/s. */
typedef struct piece {
    double len, v0, v1;
} piece;

double ap_timing_duration(double len, double v0, double v1)
{
    return 2.0 * len / (v0 + v1);
}

double ap_timing_cap(const ap_vehicle *v, double meters_per_tile, const ap_segment *s)
{
    const double top = s->reverse && v->max_reverse_speed > 0.0 ? v->max_reverse_speed : v->max_speed;
    if (s->type != AP_SEG_ARC)
        return top;
    return fmin(top, sqrt(v->max_lateral_accel * s->radius * meters_per_tile));
}

/* ap_timing_is_corner across segments between a and b that turn the path by `turn` radians. */
static bool corner_across(const ap_segment *a, const ap_segment *b, double turn)
{
    return a->reverse != b->reverse ||
           fabs(ap_angle_wrap(b->heading - ap_segment_end_heading(a) - turn)) > AP_TIMING_CORNER;
}

bool ap_timing_is_corner(const ap_segment *a, const ap_segment *b)
{
    return corner_across(a, b, 0.0);
}

/* The heading change along the segments kept[from .. to - 1] (tiny ones between two joined across): their arcs'
 * sweeps, which a G1 path turns by there (a line's heading, its ends' atan2, is noise at that length: 0). */
static double tiny_turn(const ap_segment *segs, const size_t *kept, size_t from, size_t to)
{
    double turn = 0.0;
    for (size_t j = from; j < to; j++)
        if (segs[kept[j]].type == AP_SEG_ARC)
            turn += ap_angle_wrap(ap_segment_end_heading(&segs[kept[j]]) - segs[kept[j]].heading);
    return turn;
}

/* The speed s metres into piece q (constant acceleration: v^2 is linear in the distance). */
static double speed_at(const piece *q, double s)
{
    return sqrt(fmax(0.0, q->v0 * q->v0 + (q->v1 * q->v1 - q->v0 * q->v0) * s / q->len));
}

/* Append piece p to out[0 .. *n-1], merging it into the previous one when it is shorter than tiny metres
 * (AP_TIMING_TINY tiles) and moving at both ends (a merged piece's acceleration is the length-weighted mean
 * of its parts', so it stays within the limits; a short piece from or to rest is exact as it is and kept). Of
 * a neighbour longer than 2 tiny only its last (or, for a leading short piece, first) tiny metres join: merged
 * whole, a long cruise took the short piece's speed change over all its length (0.04 m/s down to 0.001 m/s
 * over 40 m: twice the fastest time). A short piece without a speed change (the cruise between accelerating
 * and braking that rounding leaves at the peak) joins whole: the neighbour's ends keep their speeds, its
 * acceleration only shrinks, and no micro-tile segment is printed. *carry holds a short leading piece until a piece to merge it into
 * comes. Zero-length pieces without a speed change vanish. At most one piece more than pushed. */
static void push_piece(piece *out, int *n, piece *carry, piece p, double tiny)
{
    if (p.len <= 0.0 && p.v0 == p.v1)
        return;
    const bool mergeable = p.len < tiny && p.v0 > 0.0 && p.v1 > 0.0;
    if (mergeable && *n > 0) {
        piece *prev = &out[*n - 1];
        if (prev->len > 2.0 * tiny && p.v0 != p.v1) {
            const double cut = prev->len - tiny, v = speed_at(prev, cut);
            prev->len = cut;
            prev->v1 = v;
            out[(*n)++] = (piece){tiny + p.len, v, p.v1};
            return;
        }
        prev->len += p.len;
        prev->v1 = p.v1;
        return;
    }
    if (mergeable && carry->len == 0.0) {
        *carry = p;
        return;
    }
    if (carry->len > 0.0) {
        if (p.len > 2.0 * tiny && carry->v0 != carry->v1) {
            const double v = speed_at(&p, tiny);
            out[(*n)++] = (piece){carry->len + tiny, carry->v0, v};
            p.len -= tiny;
            p.v0 = v;
        } else {
            p.len += carry->len;
            p.v0 = carry->v0;
        }
        carry->len = 0.0;
    }
    out[(*n)++] = p;
}

/* The pieces of one segment of L metres with cap c between boundary speeds u and w (consistent with the
 * passes: both <= c, each reachable from the other within L; a segment under tiny metres is one the passes
 * gave no length). At most 3; returns their number. */
static int segment_pieces(const ap_vehicle *v, double L, double c, double u, double w, double tiny, piece out[3])
{
    const double a = v->max_accel, b = v->max_brake;
    if (L < tiny) { /* the passes gave it no speed change: u == w */
        if (u > 0.0 || w > 0.0) {
            out[0] = (piece){L, u, w};
            return 1;
        }
        /* from rest to rest: the peak at most the cap (an arc of a micrometre's radius has a cap of
         * micrometres a second), then a cruise at it */
        const double peak = sqrt(2.0 * a * b * L / (a + b)), vp = fmin(peak, c), la = vp * vp / (2.0 * a);
        const double lc = vp < peak ? fmax(0.0, L - la - vp * vp / (2.0 * b)) : 0.0;
        int k = 0;
        out[k++] = (piece){la, 0.0, vp};
        if (lc > 0.0)
            out[k++] = (piece){lc, vp, vp};
        out[k++] = (piece){L - la - lc, vp, 0.0};
        return k;
    }
    /* the peak: where accelerating from u meets braking to w (Formula 2.3 twice), at most the cap */
    double vp = sqrt((2.0 * a * b * L + b * u * u + a * w * w) / (a + b));
    vp = fmax(fmin(vp, c), fmax(u, w));
    double la = (vp * vp - u * u) / (2.0 * a), lb = (vp * vp - w * w) / (2.0 * b), lc = L - la - lb;
    if (lc < 0.0) { /* rounding at the peak */
        lb = fmin(lb, L);
        la = L - lb;
        lc = 0.0;
    }
    const piece p[3] = {{la, u, vp}, {lc, vp, vp}, {lb, vp, w}};
    piece carry = {0.0, 0.0, 0.0};
    int n = 0;
    for (int i = 0; i < 3; i++)
        push_piece(out, &n, &carry, p[i], tiny);
    if (carry.len > 0.0) /* every piece was short: one piece from u to w */
        out[n++] = (piece){L, u, w};
    return n;
}

/* Segments up to which ap_timing_profile_into keeps its scratch on the stack (an analytic edge has 3). */
#define STACK_SEGS 8

/* ap_timing_profile_into, with os NULL allowed: then only the timing (ot) is written, the same numbers, and
 * the pieces' segments (ap_segment_sub: a sin and cos per arc piece) are not made. */
static int profile_into(const ap_vehicle *v, double meters_per_tile, const ap_segment *segs, size_t n, double v_start,
                        double v_end_max, ap_segment *os, ap_seg_time *ot, size_t *out_n, double *duration,
                        double *v_start_max)
{
    /* tiny: AP_TIMING_TINY tiles in metres. In tiles, as what it guards against is: a segment's heading (its
     * ends' atan2) and its length, as a client re-measures them from the tile coordinates printed, lose their
     * meaning below a micro-tile whatever a tile measures (in metres, at 1e-6 m a tile every art line of a
     * maze counted as tiny and the corners between them were driven through at speed; at 1000 m a tile a
     * 1e-8-tile line's noise would stop the unit for nothing: a helper). */
    const double a = v->max_accel, b = v->max_brake, mpt = meters_per_tile, tiny = AP_TIMING_TINY * mpt;
    v_start += 0.0; /* -0 (a kinodynamic state come to rest backwards) is 0: it was printed "v_start": -0.0 */
    *out_n = 0;
    *duration = 0.0;
    /* kept[k]: the k-th segment with a length; L, c: its metres and cap; V[k]: the cap at the join before
     * kept segment k (V[m]: at the end); F, R: the forward and backward passes at the joins. */
    size_t m = 0;
    size_t kept_stack[STACK_SEGS];
    double buf_stack[5 * STACK_SEGS + 3];
    const bool small = n <= STACK_SEGS;
    size_t *kept = small ? kept_stack : malloc((n ? n : 1) * sizeof *kept);
    double *buf = small ? buf_stack : malloc((5 * n + 3) * sizeof *buf);
    int st = AP_E_NOMEM;
    if (kept == NULL || buf == NULL)
        goto out;
    for (size_t i = 0; i < n; i++)
        if (segs[i].length > ZERO_TILES)
            kept[m++] = i;
    double *L = buf, *c = L + n, *V = c + n, *F = V + n + 1, *R = F + n + 1;
    for (size_t k = 0; k < m; k++) {
        L[k] = segs[kept[k]].length * mpt;
        c[k] = ap_timing_cap(v, mpt, &segs[kept[k]]);
    }
    /* a segment below AP_TIMING_TINY tiles counts as no length in the passes (its speed does not change) */
#define EFF(k) (L[k] < tiny ? 0.0 : L[k])
    if (m > 0) {
        V[0] = v_start;
        /* A join's heading change is taken between the nearest segments of AP_TIMING_TINY tiles or more on
         * either side (p, q), less what the tiny arcs between them turn: a tiny segment's heading (its ends'
         * atan2) can be off by far more than AP_TIMING_CORNER, which stopped the unit for nothing
         * (fixed-angle art, grid paths), while a tiny arc's sweep is real (a 6e-7-tile arc turning 1.8e-6 rad
         * between two lines stopped the unit twice); a change of driving direction is a cusp at any length. */
        size_t p = 0, q = 0;
        for (size_t k = 1; k < m; k++) {
            if (L[k - 1] >= tiny)
                p = k - 1;
            if (q < k)
                for (q = k; q + 1 < m && L[q] < tiny;)
                    q++;
            const bool cusp = segs[kept[k - 1]].reverse != segs[kept[k]].reverse;
            const bool corner = corner_across(&segs[kept[p]], &segs[kept[q]], tiny_turn(segs, kept, p + 1, q));
            V[k] = cusp || corner ? 0.0 : fmin(c[k - 1], c[k]);
        }
        V[m] = fmin(c[m - 1], fmax(v_end_max, 0.0));
        F[0] = v_start;
        for (size_t k = 0; k < m; k++)
            F[k + 1] = fmin(V[k + 1], sqrt(F[k] * F[k] + 2.0 * a * EFF(k)));
        R[m] = V[m];
        for (size_t k = m; k-- > 0;)
            R[k] = fmin(k > 0 ? V[k] : c[0], sqrt(R[k + 1] * R[k + 1] + 2.0 * b * EFF(k)));
        if (v_start > R[0] + 1e-9) {
            if (v_start_max != NULL)
                *v_start_max = R[0];
            st = AP_E_INVALID_REQUEST;
            goto out;
        }
    }
#undef EFF
    if (m == 0 && v_start > fmax(v_end_max, 0.0) + 1e-9) { /* no length to brake on: the end is the start */
        if (v_start_max != NULL)
            *v_start_max = fmax(v_end_max, 0.0);
        st = AP_E_INVALID_REQUEST;
        goto out;
    }
    size_t no = 0;
    double t = 0.0;
    for (size_t k = 0; k < m; k++) {
        const ap_segment *s = &segs[kept[k]];
        piece p[3];
        const int np = segment_pieces(v, L[k], c[k], fmin(F[k], R[k]), fmin(F[k + 1], R[k + 1]), tiny, p);
        double d = 0.0; /* metres into s */
        for (int i = 0; i < np; i++) {
            const double d1 = i + 1 == np ? s->length : (d + p[i].len) / mpt;
            if (os != NULL)
                os[no] = ap_segment_sub(s, d / mpt, d1);
            const double dur = ap_timing_duration(p[i].len, p[i].v0, p[i].v1);
            ot[no++] = (ap_seg_time){p[i].v0, p[i].v1, t, dur};
            t += dur;
            d += p[i].len;
        }
    }
    *out_n = no;
    *duration = t;
    st = AP_OK;
out:
    if (!small) {
        free(kept);
        free(buf);
    }
    return st;
}

int ap_timing_profile_into(const ap_vehicle *v, double meters_per_tile, const ap_segment *segs, size_t n,
                           double v_start, double v_end_max, ap_segment *os, ap_seg_time *ot, size_t *out_n,
                           double *duration, double *v_start_max)
{
    return profile_into(v, meters_per_tile, segs, n, v_start, v_end_max, os, ot, out_n, duration, v_start_max);
}

int ap_timing_profile_times(const ap_vehicle *v, double meters_per_tile, const ap_segment *segs, size_t n,
                            double v_start, double v_end_max, ap_seg_time *ot, size_t *out_n, double *duration,
                            double *v_start_max)
{
    return profile_into(v, meters_per_tile, segs, n, v_start, v_end_max, NULL, ot, out_n, duration, v_start_max);
}

int ap_timing_profile(const ap_vehicle *v, double meters_per_tile, const ap_segment *segs, size_t n, double v_start,
                      double v_end_max, ap_segment **out_segs, ap_seg_time **out_time, size_t *out_n,
                      double *duration, double *v_start_max)
{
    ap_segment *os = malloc((3 * n + 1) * sizeof *os);
    ap_seg_time *ot = malloc((3 * n + 1) * sizeof *ot);
    int st = AP_E_NOMEM;
    *out_n = 0;
    *duration = 0.0;
    if (os != NULL && ot != NULL)
        st = ap_timing_profile_into(v, meters_per_tile, segs, n, v_start, v_end_max, os, ot, out_n, duration,
                                    v_start_max);
    if (st != AP_OK) {
        free(os);
        free(ot);
        os = NULL;
        ot = NULL;
        *out_n = 0;
    }
    *out_segs = os;
    *out_time = ot;
    return st;
}
