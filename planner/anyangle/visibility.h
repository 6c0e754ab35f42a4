/* visibility.h — which convex corners of a grid map a point may see under the point unit's rule (graph.h,
 * ap_aa_grid_point_line_ok), by one row-by-row scan instead of one line-of-sight test per corner.
 *
 * Source: the interval propagation of Oh & Leong's ENLSVG line-of-sight scans (SoCS 2017): from a point P the
 * rays that stay clear form, on each grid line y = k, a union of intervals; the next line's intervals are
 * the projection of this line's from P minus the shadows (projections from P) of the blocked cells of the
 * row between the two lines.
 *
 * Conservative by construction: a shadow is that of the blocked square shrunk by AP_AA_VIS_SHRINK (100 times
 * the point rule's 1e-9 slack, far above rounding), so a ray the scan drops enters the square shrunk by 1e-9
 * and fails the rule; intervals are widened by rounding margins, never narrowed. So the corners the scan
 * returns are a superset of those the rule accepts (every other corner is certainly not visible), and the
 * caller confirms each with ap_aa_grid_point_line_ok (or tests it later, as the search's lazy line of sight
 * does) — answers and tables are the same as testing every corner. Diagonal squeezes and runs along a blocked
 * edge are left to that test (a superset still).
 */
#ifndef AP_AA_VISIBILITY_H
#define AP_AA_VISIBILITY_H

#include <stddef.h>
#include <stdint.h>

#include "../world/map.h"

/* Tiles each blocked square is shrunk by before its shadow is cast. */
#define AP_AA_VIS_SHRINK 1e-7

/* The scan's index of one grid map and its corners: per row the runs of blocked cells, per grid line the
 * corners on it. Immutable once built; shared read-only by any number of threads. */
typedef struct ap_aa_vis {
    int32_t width, height;
    uint32_t *row_start; /* height + 1: runs of row r are run[row_start[r] .. row_start[r + 1]) */
    int32_t *run;        /* pairs (x0, x1): cells x0 .. x1 - 1 of the row are blocked, x1 < next x0 */
    uint32_t *line_start; /* height + 2: corners on grid line y = k are indices line_start[k] .. line_start[k + 1] */
    const double *cx;    /* the corners' x (borrowed from the graph that owns this index) */
} ap_aa_vis;

/* The index of map m (borrowed while building) and its nc corners (x[k], y[k]) (integers in [0, width] x
 * [0, height], sorted by y then x, as ap_aa_graph_grid lists them; x is borrowed for the index's lifetime).
 * Returns the index (the caller's: free with ap_aa_vis_free), or NULL when out of memory or the corners are not
 * so sorted. Cost O(cells + nc). Thread-safe (m, x and y only read). */
ap_aa_vis *ap_aa_vis_build(const ap_map *m, const double *x, const double *y, size_t nc);

/* Free an index (NULL is ignored; x stays its owner's). Not while other threads still scan with it. */
void ap_aa_vis_free(ap_aa_vis *v);

/* Doubles of scratch space ap_aa_vis_corners needs for index v. Pure; thread-safe. */
size_t ap_aa_vis_scratch_len(const ap_aa_vis *v);

/* The corners possibly visible from P = (px, py) (finite; for a point outside [0, width] x [0, height],
 * which the rule accepts up to 1e-9 out, every corner but P): every corner j !=
 * P that ap_aa_grid_point_line_ok(m, px, py, x[j], y[j]) accepts is written to out (capacity: the index's
 * corner count), in increasing index order, plus possibly a few it rejects. quad: -1, or the quadrant of the
 * blocked cell at P (graph.h's quad: bit 0 toward +x, bit 1 toward +y) when P is a convex corner: then only
 * corners in directions the corner rules (ap_aa_corner_ok) allow a line to leave P in are returned, i.e.
 * not strictly inside the blocked quadrant nor the opposite one (dx dy qx qy <= 0, a margin on the allowing
 * side). scratch: ap_aa_vis_scratch_len(v) doubles. Returns the number written. Pure apart from out and
 * scratch; thread-safe with distinct buffers. Cost O(rows reached x (blocked runs and intervals met)). */
size_t ap_aa_vis_corners(const ap_aa_vis *v, double px, double py, int quad, double *scratch, uint32_t *out);

#endif
