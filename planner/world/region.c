/* region.c — connected components of passable cells, built at load (region.h). */
#include "region.h"

#include <stdlib.h>

#include "../base/status.h"

/* Breadth-first flood fill with an explicit queue (a recursive fill would overflow the stack on open
 * 4096x4096 maps). 4-connectivity is enough: with no corner cutting every legal diagonal step has both
 * orthogonal neighbours free, so 8-connected components coincide. */
int ap_region_label(const ap_map *m, const uint8_t *mask, ap_map_table *out)
{
    uint32_t count = ap_map_node_count(m);
    uint32_t free_cells = 0;
    for (uint32_t s = 0; s < count; s++)
        free_cells += mask[s] != 0;
    uint32_t *region = calloc(count, sizeof *region);
    uint32_t *queue = malloc((size_t)(free_cells > 0 ? free_cells : 1) * sizeof *queue);
    if (region == NULL || queue == NULL) {
        free(region);
        free(queue);
        return AP_E_NOMEM;
    }
    const uint32_t stride = (uint32_t)m->stride;
    uint32_t id = 0;
    for (uint32_t s = 0; s < count; s++) {
        if (!mask[s] || region[s] != 0)
            continue;
        id++;
        size_t head = 0, tail = 0;
        region[s] = id;
        queue[tail++] = s;
        while (head < tail) {
            uint32_t u = queue[head++];
            /* The padded border is blocked, so u +- 1 and u +- stride never leave the array. */
            const uint32_t nb[4] = {u - 1, u + 1, u - stride, u + stride};
            for (int k = 0; k < 4; k++) {
                uint32_t v = nb[k];
                if (mask[v] && region[v] == 0) {
                    region[v] = id;
                    queue[tail++] = v;
                }
            }
        }
    }
    free(queue);
    out->data = region;
    out->count = id;
    out->bytes = (size_t)count * sizeof *region;
    return AP_OK;
}

static int build_regions(const ap_map *m, ap_map_table *out)
{
    return ap_region_label(m, m->pass, out);
}

const ap_table_kind ap_region_table_kind = {AP_REGION_TABLE_NAME, "regions", 0, build_regions, free, NULL};
