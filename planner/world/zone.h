/* zone.h — corridor mode's free space: a centre line (polyline) and the usable distance from it, laid over
 * another world; the unit may be only where both allow it (Schnieders, "AIPATH", 5.3: EM5's local planner
 * plans a curve through a junction inside the road's usable width around EM5's ideal line, Figures
 * 5.4-5.6).
 *
 * The rule (world.h's, with the zone's outside as an obstacle): a disc of radius r at p is clear of the
 * zone's boundary iff dist(p, centre line) + r < half, where half is the usable distance from the centre
 * line (the thesis's w_u, "the maximal possible distance to deviate from the center line"). That is exact
 * for the disc inside the union of capsules of radius half around the line's pieces except on the inner
 * side of a bend, where the union is fatter than the rule admits (the rule is the stricter).
 *
 * Swept tests: the distance to the centre line is 1-Lipschitz along any curve, so from a pose with slack
 * g = half - r - dist > 0 the next g tiles of the curve are clear; the test walks the curve in such jumps
 * (sphere tracing: a few steps in the middle of a corridor, more near its edge) and says not clear once the
 * slack is AP_ZONE_MARGIN or less. It never says clear where the rule does not; it says not clear for curves
 * that pass within AP_ZONE_MARGIN of the limit (a millimetre at a metre a tile). The walk's verdict is the
 * test's; near the limit it takes many short jumps, so the test first seeks that verdict from the distances
 * at the curve's ends and a few halving points (ap_zone_proves; a point beyond the limit), walking only when
 * they leave it open (zone.c; tests/planner/world/test_world.c compares the two on every segment).
 *
 * Units: tiles. A zone is immutable once made; the overlay world reads it and the inner world only.
 */
#ifndef AP_ZONE_H
#define AP_ZONE_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/limits.h" /* AP_ZONE_MAX_POINTS, AP_ZONE_MAX_HALF */
#include "world.h"

#define AP_ZONE_MARGIN 1e-3    /* tiles: the swept tests' margin to the limit */

struct ap_zone_grid;

/* A zone and the world it is laid over. */
typedef struct ap_zone {
    double pts[AP_ZONE_MAX_POINTS][2]; /* the centre line, tiles */
    size_t n;                          /* 2 .. AP_ZONE_MAX_POINTS */
    double half;                       /* usable distance from the centre line, tiles, in (0, AP_ZONE_MAX_HALF] */
    ap_world inner;                    /* the world below (set by ap_zone_world) */
    struct ap_zone_grid *grid;         /* optional (NULL: none): ap_zone_grid_build's, for this zone's line */
} ap_zone;

/* Distance (tiles) from (x, y) to z's centre line. With z->grid, only the pieces its cell lists are measured
 * (the same number, to the bit: see ap_zone_grid_build). Pure without a grid (thread-safe); with one it
 * fills the grid's cells on first use, so a zone with a grid belongs to one thread at a time. */
double ap_zone_distance(const ap_zone *z, double x, double y);

/* ap_zone_distance (tiles), and in *piece (caller-owned) the index of the centre line's piece (z->pts[i] to
 * z->pts[i + 1]) that distance is measured to (-1 when there is none: a non-finite point). Thread safety as
 * ap_zone_distance (a grid's cells are filled on first use). */
double ap_zone_nearest(const ap_zone *z, double x, double y, int *piece);

/* Cells of a piece grid along each axis at most (AP_ZONE_GRID_SIDE^2 cells). */
#define AP_ZONE_GRID_SIDE 64

/* A grid over z's centre line for ap_zone_distance (corridor searches measure the distance at every step of every
 * action): square cells over the line's bounding box grown by half + 1 tiles, at most AP_ZONE_GRID_SIDE per axis; each
 * cell lists, on the first distance measured in it (so a plan pays only for the cells its actions visit), the pieces
 * that can be the nearest, or within the distance's slack of the nearest, to some point of the cell: a piece is listed
 * when its distance from the cell's centre is at most the nearest piece's from there (D) plus the cell's diagonal plus
 * 2e-6 tiles (a point of the cell is within half a diagonal of the centre, so its nearest piece is no farther than D +
 * diagonal / 2 from it, and a piece farther than D + diagonal + the slack from the centre is farther than that from
 * every point). ap_zone_distance then runs its passes over those pieces alone (nearest to the cell's centre first,
 * which lets its first pass skip more of them) and gets the same number, a minimum being the same in any order
 * (ap_zone_nearest's piece may then be another of equal distance); points outside the grid use every piece. Set z->grid
 * to the result to use it (z's points and half must not change while it is set). Returns a malloc'd grid (free with
 * free()), or NULL when out of memory, z->n is outside 2 .. AP_ZONE_MAX_POINTS or the line's coordinates are not finite
 * (then ap_zone_distance measures every piece, as without a grid). Reads z only (thread-safe); the grid it returns is
 * filled on first use, so it belongs to one thread at a time. */
struct ap_zone_grid *ap_zone_grid_build(const ap_zone *z);

/* The world of z laid over inner: every test is inner's and z's rule. z->inner is set to inner (a copy; inner's
 * context stays borrowed); z must stay at its address while *out is used (ctx = z, borrowed). Writes z, so not
 * thread-safe on z; the world's tests are as thread-safe as ap_zone_distance on z and as inner's. */
void ap_zone_world(ap_zone *z, const ap_world *inner, ap_world *out);

/* The zone of w when w was made by ap_zone_world, else NULL (borrowed: w's context, valid while w is). Pure. */
const ap_zone *ap_zone_of(const ap_world *w);

/* True when z's walk calls clear, for a disc of radius r, every line (R = 0) or arc of radius R (tiles) of length len
 * (tiles, < AP_ZONE_PROOF_MAX_LEN) from a point at distance d0 from the centre line whose nearest piece is piece0
 * (ap_zone_nearest) to the point (x1, y1): the distance to piece0 is convex along the chord between the two ends, so at
 * most the larger of d0 and the end's distance to piece0, and an arc with len <= pi R stays within len^2 / 8R (its
 * sagitta's bound) of its chord; when that stays below half - r - AP_ZONE_MARGIN by the slacks of ap_zone_proves, every
 * pose of the walk keeps more than the margin. Along one long piece it decides most short curves from one piece's
 * distance. Pure (reads z only). */
bool ap_zone_proves_piece(const ap_zone *z, double d0, int piece0, double x1, double y1, double len, double R,
                          double r);

/* The zone's half of the zone world's swept test (z->inner is not consulted): true when the disc of radius r
 * (tiles, >= 0) swept along s (line or arc, path.h) keeps to the zone's rule with more than AP_ZONE_MARGIN
 * to spare, by the walk above. The walk's verdict is first sought without it, from the distances at s's
 * ends and at up to 15 halving points (over each part ap_zone_proves, or the distance to the nearest piece
 * of one end being convex along the chord, plus the arc's sagitta; a point beyond the limit, which the walk
 * cannot pass): the same verdict, fewer distances. Thread safety as ap_zone_distance. */
bool ap_zone_segment_clear(const ap_zone *z, const ap_segment *s, double r);

/* ap_zone_segment_clear with the distance d0 (tiles) and nearest piece piece0 (ap_zone_nearest) of s's stored
 * first point (x0, y0) given: the kinodynamic search has them from its state. False for a non-finite or negative
 * length or r < 0. Thread safety as ap_zone_distance. */
bool ap_zone_segment_clear_from(const ap_zone *z, const ap_segment *s, double r, double d0, int piece0);

/* Tiles given away by ap_zone_proves against rounding: far above the ~1e-12 tiles by which the computed
 * distances and a line's poses may stray on coordinates below 1e6 tiles; an arc's poses (centre + radius
 * times a cosine) may stray with the radius too, which AP_ZONE_ARC_SLACK per tile of radius covers. */
#define AP_ZONE_PROOF_SLACK 1e-8
#define AP_ZONE_ARC_SLACK 4e-9
/* Tiles: the longest curve the proofs below decide. The walk gives up after 10^6 steps of more than
 * AP_ZONE_MARGIN each ("not clear"), so a clear verdict of it is sure only for curves shorter than 10^3
 * tiles; longer ones are always walked. */
#define AP_ZONE_PROOF_MAX_LEN 999.0

/* True when z's walk (ap_zone_segment_clear) calls clear, for a disc of radius r (tiles), every line (R = 0) or arc of
 * radius R (tiles) of length len (tiles, < AP_ZONE_PROOF_MAX_LEN) whose first point lies at distance da from the centre
 * line and whose last point at distance db (both as ap_zone_distance computes them; db = da + len when the end is not
 * known, which the distance's being 1-Lipschitz allows). Why: a point of the curve s tiles from its start is within s
 * of the start and len - s of the end, so its distance is at most min(da + s, db + len - s) <= (da + db + len) / 2;
 * when that stays below half - r - AP_ZONE_MARGIN by the slacks above, every pose the walk visits has more than
 * AP_ZONE_MARGIN of slack and its steps (each more than AP_ZONE_MARGIN long) reach the end. The kinodynamic search
 * proves most of a corridor's actions so, from the distances at each state and at each action's end (kino.h). Pure. */
static inline bool ap_zone_proves(const ap_zone *z, double da, double db, double len, double R, double r)
{
    return len < AP_ZONE_PROOF_MAX_LEN &&
           0.5 * (da + db + len) + AP_ZONE_ARC_SLACK * R < z->half - r - AP_ZONE_MARGIN - AP_ZONE_PROOF_SLACK;
}

#endif
