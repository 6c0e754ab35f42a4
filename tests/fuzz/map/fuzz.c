/* fuzz.c — the Moving AI map parser (ap_map_parse) on arbitrary bytes, with the invariants map.h states;
 * the input's length (odd or even) picks terrain costs (none, or swamp and water weighted) so both kinds of map are
 * fuzzed. */
#include <stdlib.h>

#include "planner/world/map.h"
#include "planner/base/status.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* small limits keep each input cheap; the size checks themselves are part of what is fuzzed */
    static const ap_terrain_costs costs = {.map_id = "*", .cost = {0, 0, 2.5, 0, 7.0}};
    const bool weighted = (size & 1) != 0;
    const ap_map_opts lim = {.max_width = 256,
                             .max_height = 256,
                             .max_cells = 16384,
                             .terrain = weighted ? &costs : NULL,
                             .n_terrain = weighted ? 1 : 0};
    ap_map *m = NULL;
    ap_diag diag;
    int rc = ap_map_parse("fuzz", "fuzz.map", (const char *)data, size, &lim, &m, &diag);
    if (rc != AP_OK) {
        if (rc != AP_E_MAP_FORMAT && rc != AP_E_MAP_TOO_LARGE && rc != AP_E_NOMEM)
            abort();
        if (m != NULL)
            ap_map_free(m);
        return 0;
    }
    if (m == NULL || m->width < 1 || m->height < 1 || m->width > lim.max_width || m->height > lim.max_height ||
        (int64_t)m->width * m->height > lim.max_cells || m->stride != m->width + 2)
        abort();
    int64_t passable = 0;
    for (int32_t y = -1; y <= m->height; y++) {
        for (int32_t x = -1; x <= m->width; x++) {
            uint32_t i = ap_map_index(m, x, y);
            bool inside = x >= 0 && y >= 0 && x < m->width && y < m->height;
            if (!inside && m->pass[i] != 0)
                abort(); /* the border must be blocked */
            if (m->weighted) {
                /* kind names a passable terrain exactly where the cell is passable; cheap = cost_min */
                if ((m->pass[i] != 0) != (m->kind[i] < AP_TERRAIN_KINDS && m->cost_of[m->kind[i]] > 0.0))
                    abort();
                if (m->cheap[i] != (m->pass[i] != 0 && m->cost_of[m->kind[i]] == m->cost_min))
                    abort();
            }
            /* the bit lines (map.h pass_bits) say the same as the bytes, in rows and in columns */
            const uint32_t px = (uint32_t)(x + 1), py = (uint32_t)(y + 1);
            if (m->pass_bits != NULL &&
                (((m->pass_bits[(size_t)py * m->bits_row_words + px / 64] >> (px % 64)) & 1u) != (m->pass[i] != 0) ||
                 ((m->pass_cols[(size_t)px * m->bits_col_words + py / 64] >> (py % 64)) & 1u) != (m->pass[i] != 0)))
                abort();
            if (m->pass[i] != 0) {
                passable++;
                if (m->region[i] == 0 || m->region[i] > m->region_count)
                    abort();
            } else if (m->region[i] != 0) {
                abort();
            }
        }
    }
    if (passable != m->passable_cells || (m->weighted && (!weighted || m->cost_min < 1.0 || m->cost_max > 7.0)))
        abort();
    ap_map_free(m);
    return 0;
}
