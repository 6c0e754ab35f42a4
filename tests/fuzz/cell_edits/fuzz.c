/* fuzz.c — ap_wire_parse_cell_edits (PATCH /v1/maps/{id}/cells bodies) on arbitrary bytes, plus what the
 * route does with accepted edits: the map's next version (ap_map_patch) from a small map of this file's,
 * every table updated or rebuilt. The parser's promises: an error is one the wire documents
 * (wire_error.h); accepted edits are 1 .. max_cells cells with x, y in [0, 65535] and a terrain letter.
 * The patch's: an edit outside the map is AP_E_INVALID_REQUEST naming "cells[i]"; otherwise the new map
 * has every edited cell's letter (the last edit of a cell wins) and every other cell as before, and its
 * passable count matches its cells. */
#include <stdlib.h>
#include <string.h>

#include "planner/world/patch.h"
#include "proto/cells.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/small_map.h"
#include "tests/fuzz/wire_error.h"

#define W 20
#define H 14
#define MAX_CELLS 64

static char edit_cell(int x, int y)
{
    return "..@.T.S.W.G.O.."[(x * 7 + y * 3) % 15];
}

static const ap_map *the_map(void)
{
    static ap_map *m;
    if (m == NULL)
        m = ap_fuzz_small_map(W, H, edit_cell);
    return m;
}

static bool is_terrain(char c)
{
    return c != '\0' && strchr(".G@OTSW", c) != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ap_cell_edit *edits = NULL;
    size_t n = 0;
    ap_wire_error err;
    const int rc = ap_wire_parse_cell_edits((const char *)data, size, MAX_CELLS, &edits, &n, &err);
    if (rc != AP_OK) {
        ap_fuzz_check_wire_error(rc, &err);
        return 0;
    }
    if (n < 1 || n > MAX_CELLS || edits == NULL)
        abort();
    bool inside = true;
    for (size_t i = 0; i < n; i++) {
        if (edits[i].x < 0 || edits[i].x > 65535 || edits[i].y < 0 || edits[i].y > 65535 ||
            !is_terrain(edits[i].terrain))
            abort();
        inside = inside && edits[i].x < W && edits[i].y < H;
    }
    const ap_map *prev = the_map();
    ap_map *next = NULL;
    ap_diag d;
    const int st = ap_map_patch(prev, edits, n, &next, &d);
    if (!inside) {
        if (st != AP_E_INVALID_REQUEST || next != NULL || strncmp(d.file, "cells[", 6) != 0)
            abort();
    } else {
        if (st != AP_OK || next == NULL || next->width != W || next->height != H)
            abort();
        int64_t passable = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                uint8_t want = prev->terrain[(size_t)y * W + (size_t)x];
                for (size_t i = 0; i < n; i++)
                    if (edits[i].x == x && edits[i].y == y)
                        want = (uint8_t)edits[i].terrain;
                if (next->terrain[(size_t)y * W + (size_t)x] != want)
                    abort();
                passable += ap_map_passable(next, x, y);
            }
        if (passable != next->passable_cells)
            abort();
        ap_map_free(next);
    }
    free(edits);
    return 0;
}
