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

#include "path.h"

#define AP_RS_MAX_PIECES 5

/* A Reeds-Shepp path: up to 5 pieces. type[i] is 'L', 'R' or 'S'; len[i] is signed (tiles): negative = driven
 * in reverse. */
typedef struct ap_reeds_shepp {
    char word[2 * AP_RS_MAX_PIECES + 1]; /* e.g. "L+S+L-" style name, or "LSL" — see reeds_shepp.c */
    int n;                              /* pieces */
    char type[AP_RS_MAX_PIECES];
    double len[AP_RS_MAX_PIECES];
    double r;
    double length;                      /* sum of |len[i]| */
    ap_pose start;
} ap_reeds_shepp;

/* Shortest Reeds-Shepp path from a to b with turning radius r > 0. Returns 0, or -1 for invalid input. */
int ap_reeds_shepp_shortest(const ap_pose *a, const ap_pose *b, double r, ap_reeds_shepp *out);

/* Length only (tiles). Returns -1 on bad input. */
double ap_reeds_shepp_length(const ap_pose *a, const ap_pose *b, double r);

/* Convert to segments (zero-length pieces dropped), reverse pieces flagged. out must hold AP_RS_MAX_PIECES.
 * Snaps the end to `goal` when non-NULL. Returns the count. */
size_t ap_reeds_shepp_segments(const ap_reeds_shepp *p, const ap_pose *goal, ap_segment *out);

#endif
