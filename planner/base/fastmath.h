/* fastmath.h — private to planner/: inline sin/cos and atan2 for the closed-form curve formulas of
 * dubins.c and reeds_shepp.c.
 *
 * glibc's sincos and atan2 are correctly rounded but cost ~20 ns and ~13 ns a call here (and atan2 was
 * 25-30 % of the curve bench); these are accurate to a few ulp (max abs error 1.1e-16 for sin/cos and
 * 4.4e-16 for atan2 over 10^7 random arguments against libm, checked offline when they were written),
 * far inside the 1e-6 relative accuracy the curves promise; the independent-implementation checks in
 * tests/planner/geom/test_dubins.c and test_reeds_shepp.c cover them end to end. Arguments outside the fast
 * range (|x| >= 1e5, zeros, tiny ratios, non-finite) fall back to libm. */
#ifndef AP_FASTMATH_H
#define AP_FASTMATH_H

#include <math.h>

/* fmin / fmax for operands that are never NaN, inlined: libm's are calls at -O2 (GCC inlines them only under
 * -ffinite-math-only), a few million a second in the kinodynamic search. Equal operands give equal values
 * whichever is returned (+0 and -0 aside, which compare equal), so callers get fmin's and fmax's numbers. */
static inline double fast_min(double a, double b)
{
    return a < b ? a : b;
}

static inline double fast_max(double a, double b)
{
    return a > b ? a : b;
}

/* sin and cos of x (radians) into *s and *c (both non-NULL, written always). Cody-Waite reduction by pi/2
 * (pi/2 split as in fdlibm: the high part has 33 bits, so k * hi is exact for |k| < 2^20), then Taylor
 * polynomials on [-pi/4, pi/4] (truncation < 1e-17). Pure; thread-safe. */
static inline void fast_sincos(double x, double *s, double *c)
{
    if (!(fabs(x) < 1e5)) {
        *s = sin(x);
        *c = cos(x);
        return;
    }
    const double pio2_hi = 1.57079632673412561417e+00, pio2_lo = 6.07710050650619224932e-11;
    const double shifter = 6755399441055744.0; /* 1.5 * 2^52: adding it rounds to an integer */
    double kf = (x * 0.63661977236758134308 + shifter) - shifter;
    long k = (long)kf;
    double r = (x - kf * pio2_hi) - kf * pio2_lo;
    double z = r * r;
    double sr = r + r * z *
                        (-1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880 +
                        z * (-1.0 / 39916800 + z * (1.0 / 6227020800 + z * (-1.0 / 1307674368000)))))));
    double cr = 1.0 + z * (-0.5 + z * (1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 + z * (-1.0 / 3628800 +
                z * (1.0 / 479001600 + z * (-1.0 / 87178291200 + z * (1.0 / 20922789888000))))))));
    switch (k & 3) {
    case 0: *s = sr, *c = cr; break;
    case 1: *s = cr, *c = -sr; break;
    case 2: *s = -sr, *c = -cr; break;
    default: *s = -cr, *c = sr; break;
    }
}

/* atan2(y, x), same range and signs as libm (radians in [-pi, pi]). The ratio t = min/max of |x|, |y| in [0, 1] is
 * split at the nearest c = i/8 and atan t = atan c + atan u with u = (t - c) / (1 + t c) = (a - c b) / (b + c a),
 * |u| <= 1/16, where a 7-term Taylor series is exact to < 1e-17. Pure; thread-safe. */
static inline double fast_atan2(double y, double x)
{
    static const double atan_i8[9] = {0, 0.12435499454676144, 0.24497866312686414, 0.35877067027057225,
                                      0.46364760900080609, 0.55859931534356244, 0.64350110879328437,
                                      0.71882999962162453, 0.78539816339744828};
    double ax = fabs(x), ay = fabs(y);
    bool swap = ay > ax;
    double a = swap ? ax : ay, b = swap ? ay : ax; /* a <= b; a NaN lands in a or b and fails the test */
    if (__builtin_expect(!(b < 1e300 && a >= 1e-300), 0))
        return atan2(y, x); /* zeros, tiny ratios, infinities and NaN: libm's conventions */
    int i = (int)(8.0 * (a / b) + 0.5);
    double ci = 0.125 * i;
    double u = (a - ci * b) / (b + ci * a);
    double z = u * u;
    double r = atan_i8[i] + (u + u * z * (-1.0 / 3 + z * (1.0 / 5 + z * (-1.0 / 7 + z * (1.0 / 9 +
                                                     z * (-1.0 / 11 + z * (1.0 / 13)))))));
    if (swap)
        r = M_PI_2 - r;
    if (signbit(x))
        r = M_PI - r;
    return copysign(r, y);
}

#endif
