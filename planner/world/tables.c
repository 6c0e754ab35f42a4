/* tables.c — runs the registered per-map table builders (tables.h) at load, timing each into its slot. */
#include "tables.h"

#include "../base/clock.h"
#include "../base/status.h"

int ap_map_build_tables(ap_map *m, const char **failed)
{
    size_t n;
    const ap_table_kind *const *kinds = ap_table_kinds(&n);
    for (size_t i = 0; i < n; i++) {
        const ap_table_kind *k = kinds[i];
        if ((k->flags & AP_TABLE_UNIFORM) && m->weighted)
            continue;
        const bool optional = (k->flags & AP_TABLE_OPTIONAL) != 0;
        ap_map_table slot = {0};
        int st = AP_E_INTERNAL;
        if (m->n_tables < AP_MAP_MAX_TABLES) {
            double t0 = ap_monotonic_seconds();
            st = k->build(m, &slot);
            slot.build_seconds = ap_monotonic_seconds() - t0;
        }
        if (st != AP_OK) {
            if (optional)
                continue;
            *failed = k->name;
            return st;
        }
        slot.name = k->name;
        slot.count_name = k->count_name;
        slot.free_fn = k->free_fn;
        m->tables[m->n_tables++] = slot;
    }
    return AP_OK;
}
