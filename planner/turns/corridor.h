/* corridor.h — a corridor: the passable cells within a Chebyshev distance of a polyline (a grid path), with
 * a dense numbering, so a legal-turn search can run along a path of any length with states only where the
 * corridor is (directional.h, corridor mode).
 *
 * Why: Directional A* numbers its states over a rectangular window (Pinter's fixed matrix), so the
 * workspace bounds how far apart start and goal may be (a 362-tile window for 16 headings on the default
 * workspace). Game maps are larger. HAA*'s answer (Harabor & Botea 2008, reference 004's "Hierarchical
 * Pathfinding", and Pinter's "Hierarchical Pathfinding") is to search in a corridor found by a cheaper
 * search first; the cells of a corridor around a grid path number about path length x (2 half + 1), so a
 * turning unit's search fits the workspace at any distance.
 *
 * Numbering: members in row-major order of the window; a member's number is the count of members before it
 * (a rank over 64-bit words: one uint32 per word plus a popcount), the inverse a plain array.
 * Memory: the window's bits, 4 bytes per 64 window cells, 4 bytes per member. Thread: one owner; pure
 * functions on it.
 */
#ifndef AP_TURNS_CORRIDOR_H
#define AP_TURNS_CORRIDOR_H

#include <stddef.h>
#include <stdint.h>

#include "../base/bits.h"
#include "../world/map.h"

typedef struct ap_corridor {
    int32_t x0, y0, w, h; /* the window: map cells [x0, x0 + w) x [y0, y0 + h), the members' bounding box */
    uint32_t words;       /* 64-bit words per window row */
    uint64_t *bits;       /* membership per window cell, row-major */
    uint32_t *rank;       /* per word: the members before it */
    uint32_t *cells;      /* member number -> window index (row * w + column) */
    uint32_t n;           /* members */
} ap_corridor;

/* Build the corridor of map m around the polyline pts[0 .. n-1] (tiles; n >= 1): every passable cell whose
 * Chebyshev distance (in cells) to a cell the polyline passes through is <= half (half >= 0). The polyline
 * is sampled every 1/4 tile, so each cell it crosses is found (consecutive points of a grid path are
 * neighbouring cell centres). Returns AP_OK (c filled; free with ap_corridor_free), AP_E_NOMEM (c zeroed),
 * AP_E_INVALID_REQUEST when no point lies on the map or no cell is passable. Pure but for c. */
int ap_corridor_build(ap_corridor *c, const ap_map *m, const double (*pts)[2], size_t n, int half);

/* Release what ap_corridor_build allocated; c zeroed. A zeroed c is fine. */
void ap_corridor_free(ap_corridor *c);

/* The member number of window cell (wx, wy) (window coordinates), or UINT32_MAX when the cell is outside the
 * window or not a member. O(1). */
static inline uint32_t ap_corridor_index(const ap_corridor *c, int32_t wx, int32_t wy)
{
    if (wx < 0 || wy < 0 || wx >= c->w || wy >= c->h)
        return UINT32_MAX;
    uint32_t word = (uint32_t)wy * c->words + ((uint32_t)wx >> 6);
    uint64_t b = c->bits[word], bit = 1ull << ((uint32_t)wx & 63u);
    if (!(b & bit))
        return UINT32_MAX;
    return c->rank[word] + ap_popcount64(b & (bit - 1u));
}

#endif
