/* reeds_shepp.h — shortest paths between two poses for a unit that may drive backwards (Reeds & Shepp 1990,
 * "Optimal paths for a car that goes both forwards and backwards"): the full family of words (CSC, CCC,
 * CCCC, CCSC, CCSCC with their time-flip and reflection variants, 48 in all), shortest returned.
 * Pinter's "backing up" (Legal Turns: The Basic Methods) is the three-point-turn special case.
 *
 * Conventions as in dubins.h; reverse pieces come out as segments with reverse = true (the unit's heading
 * is the direction it faces, not the direction it moves). Pure and thread-safe.
 */
#ifndef AP_REEDS_SHEPP_H
#define AP_REEDS_SHEPP_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/path.h"

#define AP_RS_MAX_PIECES 5

/* A Reeds-Shepp path: up to 5 pieces. type[i] is 'L', 'R' or 'S'; len[i] is signed (tiles): negative = driven
 * in reverse. */
typedef struct ap_reeds_shepp {
    char word[2 * AP_RS_MAX_PIECES + 1]; /* letter + direction per piece driven, e.g. "L+R-L+", "S-" ("" for
                                         * identical poses): '+' forward, '-' reverse */
    int n;                              /* pieces */
    char type[AP_RS_MAX_PIECES];
    double len[AP_RS_MAX_PIECES];
    double r;
    double length;                      /* sum of |len[i]| */
    ap_pose start;
} ap_reeds_shepp;

/* Shortest Reeds-Shepp path from pose a to pose b (tiles, radians) with turning radius r > 0 (tiles): the
 * minimum over every word of Reeds & Shepp (1990), Section 8, equations 8.1-8.11 with the timeflip, reflect
 * and backwards symmetries (Section 7's 48 words). Zero-length pieces are dropped (n is 0 for identical
 * poses, up to AP_SAME_POSE: path.h). Fills *out and returns 0, or -1 for invalid input (NULL, r <= 0, non-finite numbers). Cost: about
 * 0.5 µs; no allocation. Pure; thread-safe. */
int ap_reeds_shepp_shortest(const ap_pose *a, const ap_pose *b, double r, ap_reeds_shepp *out);

/* Length only (tiles) of ap_reeds_shepp_shortest's path. Returns -1 on bad input. Pure; thread-safe. */
double ap_reeds_shepp_length(const ap_pose *a, const ap_pose *b, double r);

/* Number of formula evaluations behind ap_reeds_shepp_shortest (44: twelve base formulas of Section 8 under
 * the symmetries; together they cover the 48 words). For tests and diagnostics. */
size_t ap_reeds_shepp_word_count(void);

/* Evaluate evaluation k (< ap_reeds_shepp_word_count()) alone, without pruning: its length in tiles and,
 * when out is non-NULL, the path (pieces not compacted: zero pieces kept). Returns -1 when the word does
 * not exist for these poses or the input is invalid. Lets tests check that no single word beats the
 * shortest and that every word's path ends at the goal. Pure; thread-safe. */
double ap_reeds_shepp_word_eval(size_t k, const ap_pose *a, const ap_pose *b, double r, ap_reeds_shepp *out);

/* Convert to segments (zero-length pieces dropped), reverse pieces flagged. out must hold AP_RS_MAX_PIECES.
 * Encoding (see ap_segment_drive): `heading` is the direction the unit faces; a reverse line moves opposite
 * to it; an arc's centre is on its steering side of the facing heading and `sweep` is the signed change of
 * the facing heading (so L- has sweep < 0, R- sweep > 0); start/end points in driving order. Snaps the end
 * of the last segment to `goal` when non-NULL (removes rounding). Returns the count. Pure; thread-safe. */
size_t ap_reeds_shepp_segments(const ap_reeds_shepp *p, const ap_pose *goal, ap_segment *out);

#endif
