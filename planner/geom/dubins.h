/* dubins.h — shortest paths between two poses for a forward-only unit with a minimum turning radius.
 *
 * Dubins (1957): the shortest path is one of six words of at most three pieces, each a left arc (L), a right
 * arc (R) or a straight line (S): LSL, LSR, RSL, RSR, RLR, LRL. Pinter's "Legal Turns" Figures 9-11 give the
 * four CSC cases; the CCC words are needed too when the poses are close.
 *
 * Conventions: L turns with increasing heading (positive sweep), R with decreasing heading; headings in
 * radians from +x toward +y; lengths in tiles. All functions are pure and thread-safe.
 */
#ifndef AP_DUBINS_H
#define AP_DUBINS_H

#include <stddef.h>

#include "../base/path.h"

typedef enum ap_dubins_word {
    AP_DUBINS_LSL = 0,
    AP_DUBINS_LSR,
    AP_DUBINS_RSL,
    AP_DUBINS_RSR,
    AP_DUBINS_RLR,
    AP_DUBINS_LRL,
    AP_DUBINS_WORDS
} ap_dubins_word;

/* A Dubins path: word, the three piece lengths in tiles (arcs: r * |angle|; a piece may be 0), total. */
typedef struct ap_dubins {
    ap_dubins_word word;
    double r;          /* turning radius, tiles (> 0) */
    double len[3];     /* piece lengths, tiles */
    double length;     /* len[0] + len[1] + len[2] */
    ap_pose start;     /* start pose */
} ap_dubins;

/* Shortest Dubins path from pose a to pose b (tiles, radians; any heading values) with turning radius r > 0
 * (tiles): the minimum over the six words, each in closed form in normalised coordinates (d = D / r, alpha,
 * beta; Dubins 1957, Shkel & Lumelsky 2001 Section 3; derivations in dubins.c). Arc pieces are < 2pi (an
 * angle within 1e-12 of 2pi counts as 0, so rounding never adds a loop); identical poses, up to AP_SAME_POSE
 * (path.h: 1e-11 radii and radians), give length 0,
 * coincident positions with different headings a finite CCC or CSC path (e.g. (0,0,0) -> (0,0,pi), r = 1:
 * RLR, 7pi/3). Fills *out and returns 0, or -1 for invalid input (NULL, r <= 0, non-finite). About 0.1 µs,
 * no allocation. */
int ap_dubins_shortest(const ap_pose *a, const ap_pose *b, double r, ap_dubins *out);

/* Length only (tiles) of the shortest Dubins path; the fast path for heuristics. Returns -1 on bad input.
 * Pure; thread-safe. */
double ap_dubins_length(const ap_pose *a, const ap_pose *b, double r);

/* A lower bound (tiles) on the length of every forward path with turning radius >= r (curvature <= 1 / r)
 * from pose a to any point within `slack` tiles (straight-line distance, slack >= 0) of (x, y), the final
 * heading free. Where the disc of radius slack around (x, y) lies outside both of a's closed turning circles,
 * it is the shortest such path to (x, y) itself, min(LS, RS) (a turn onto the tangent, then the tangent:
 * optimal for the free final heading outside the circles; Bui, Soueres, Boissonnat & Laumond 1994), minus
 * slack: that length is 1-Lipschitz in the end point there (its gradient is the tangent's unit direction),
 * so no point of the disc is nearer. Elsewhere, and never below it, the straight distance minus slack.
 * Clamped at 0. A few ulp below the exact value (1e-9 tiles are given away against rounding), so safe as
 * an admissible heuristic term. Inputs finite, r > 0 (else the straight bound). Pure; thread-safe.
 * Used by the kinodynamic heuristic (kino.h) for the state's heading and, reversed, the goal's. */
double ap_dubins_point_bound(const ap_pose *a, double x, double y, double r, double slack);

/* ap_dubins_point_bound with the sine and cosine of a's heading given (sin_h, cos_h: fastmath.h's
 * fast_sincos of a->heading, which is what ap_dubins_point_bound computes, so the value is the same to the
 * bit): for a caller that bounds from one pose many times (the kinodynamic heuristic's reversed goal pose).
 * Pure; thread-safe. */
double ap_dubins_point_bound_sc(const ap_pose *a, double sin_h, double cos_h, double x, double y, double r,
                                double slack);

/* "LSL", "LSR", ... (static strings; "?" for an out-of-range value). */
const char *ap_dubins_word_name(ap_dubins_word w);

/* Convert to segments (zero-length pieces dropped). out must hold 3. Returns the count; the last segment
 * ends exactly at the goal pose passed to ap_dubins_shortest when `goal` is non-NULL (its end point and
 * heading are snapped to it to remove rounding). */
size_t ap_dubins_segments(const ap_dubins *d, const ap_pose *goal, ap_segment out[3]);

#endif
