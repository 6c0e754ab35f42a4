/* check_path.h — assertions every any-angle answer must pass (test helper). */
#ifndef AP_TEST_AA_CHECK_PATH_H
#define AP_TEST_AA_CHECK_PATH_H

#include "../../../planner/anyangle/anyangle.h"
#include "oracle.h"

/* Assert that res (status AP_OK) runs from (sx, sy) to (gx, gy): consecutive segments join in position
 * (1e-7) and heading (G1, 1e-7 rad); every arc has radius R_k and centre (x_k, y_k) of one of g's hug
 * circles; the lengths add up to res->length; g's own test passes (ap_aa_graph_path_ok), world (if not
 * NULL) clears every segment at radius r - 1e-6 when r >= 1e-6; and a sample every 0.02 tiles of every
 * segment passes the oracle's independent point test with 1e-6 slack. */
void aa_check_path(const ap_aa_result *res, const ap_aa_graph *g, const aa_oracle_world *ow, const ap_world *world,
                   double sx, double sy, double gx, double gy);

#endif
