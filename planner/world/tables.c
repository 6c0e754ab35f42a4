/* tables.c — runs the registered per-map table builders (tables.h) at load, timing each into its slot. */
#include "tables.h"

#include "../base/clock.h"
#include "../base/status.h"

/* Build kind k (for capability cap when it is a per-capability kind, else cap is 0) into the next slot. */
static int build_one(ap_map *m, const ap_table_kind *k, uint8_t cap, const char **failed)
{
    ap_map_table slot = {.capability = cap};
    double t0 = ap_monotonic_seconds();
    int st = k->build(m, &slot);
    slot.build_seconds = ap_monotonic_seconds() - t0;
    if (st == AP_OK && slot.data != NULL && m->n_tables >= AP_MAP_MAX_TABLES) {
        /* no free slot: a table that needs one is lost (a builder that stores nothing is fine) */
        k->free_fn(slot.data);
        slot.data = NULL;
        st = AP_E_INTERNAL;
    }
    if (st != AP_OK) {
        if (k->flags & AP_TABLE_OPTIONAL)
            return AP_OK;
        *failed = slot.name != NULL ? slot.name : k->name;
        return st;
    }
    if (slot.data == NULL)
        return AP_OK;
    if (slot.name == NULL)
        slot.name = k->name;
    slot.count_name = k->count_name;
    slot.free_fn = k->free_fn;
    m->tables[m->n_tables++] = slot;
    return AP_OK;
}

int ap_map_build_tables(ap_map *m, const char **failed)
{
    size_t n;
    const ap_table_kind *const *kinds = ap_table_kinds(&n);
    for (size_t i = 0; i < n; i++) {
        const ap_table_kind *k = kinds[i];
        if ((k->flags & AP_TABLE_UNIFORM) && m->weighted)
            continue;
        int st = AP_OK;
        if (!(k->flags & AP_TABLE_PER_CAPABILITY))
            st = build_one(m, k, 0, failed);
        for (unsigned c = 1; c < 16 && st == AP_OK && (k->flags & AP_TABLE_PER_CAPABILITY); c++)
            if (m->capabilities & (1u << c))
                st = build_one(m, k, (uint8_t)c, failed);
        if (st != AP_OK)
            return st;
    }
    return AP_OK;
}
