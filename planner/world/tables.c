/* tables.c — runs the registered per-map table builders (tables.h) at load, timing each into its slot, and
 * their incremental updates after a tile update (patch.h). */
#include "tables.h"

#include <string.h>

#include "../base/clock.h"
#include "../base/status.h"

uint32_t ap_table_kind_skip_bit(const char *name)
{
    size_t nk;
    const ap_table_kind *const *kinds = ap_table_kinds(&nk);
    for (size_t i = 0; i < nk && i < 32; i++) {
        if ((kinds[i]->flags & AP_TABLE_SKIPPABLE) && strcmp(kinds[i]->name, name) == 0)
            return 1u << i;
    }
    return 0;
}

/* prev's slot of kind k for capability cap, or NULL. */
static const ap_map_table *slot_of(const ap_map *prev, const ap_table_kind *k, uint8_t cap)
{
    for (int i = 0; prev != NULL && i < prev->n_tables; i++)
        if (prev->tables[i].kind == k && prev->tables[i].capability == cap)
            return &prev->tables[i];
    return NULL;
}

/* Build kind k (for capability cap when it is a per-capability kind, else cap is 0) into the next slot:
 * from prev's table by the kind's update when prev (a tile update's previous version) has one, else from
 * scratch. */
static int build_one(ap_map *m, const ap_table_kind *k, uint8_t cap, const char **failed, const ap_map *prev,
                     const ap_cell_pos *changed, size_t n_changed)
{
    ap_map_table slot = {.capability = cap};
    const ap_map_table *old = k->update != NULL ? slot_of(prev, k, cap) : NULL;
    double t0 = ap_monotonic_seconds();
    slot.incremental = old != NULL; /* an update that falls back to a full build clears it */
    int st = old != NULL ? k->update(m, prev, old, changed, n_changed, &slot) : k->build(m, &slot);
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
    slot.kind = k;
    m->tables[m->n_tables++] = slot;
    return AP_OK;
}

int ap_map_update_tables(ap_map *m, const ap_map *prev, const ap_cell_pos *changed, size_t n,
                         const char **failed)
{
    size_t nk;
    const ap_table_kind *const *kinds = ap_table_kinds(&nk);
    for (size_t i = 0; i < nk; i++) {
        const ap_table_kind *k = kinds[i];
        if ((k->flags & AP_TABLE_UNIFORM) && m->weighted)
            continue;
        if ((k->flags & AP_TABLE_SKIPPABLE) && i < 32 && (m->skip_tables & (1u << i)))
            continue; /* left out by the config (ap_map_opts.skip_tables) */
        int st = AP_OK;
        if (!(k->flags & AP_TABLE_PER_CAPABILITY))
            st = build_one(m, k, 0, failed, prev, changed, n);
        for (unsigned c = 1; c < 16 && st == AP_OK && (k->flags & AP_TABLE_PER_CAPABILITY); c++)
            if (m->capabilities & (1u << c))
                st = build_one(m, k, (uint8_t)c, failed, prev, changed, n);
        if (st != AP_OK)
            return st;
    }
    return AP_OK;
}

bool ap_map_tables_pending(const ap_map *m)
{
    for (int i = 0; m != NULL && i < m->n_tables; i++) {
        const ap_map_table *t = &m->tables[i];
        if (t->kind != NULL && t->kind->pending != NULL && t->kind->pending(t->data))
            return true;
    }
    return false;
}

int ap_map_tables_work(const ap_map *m, uint64_t until_ns)
{
    int st = AP_OK;
    for (int i = 0; m != NULL && i < m->n_tables; i++) {
        const ap_map_table *t = &m->tables[i];
        if (t->kind == NULL || t->kind->pending == NULL || !t->kind->pending(t->data))
            continue;
        if (t->kind->work(m, t->data, until_ns) == AP_IN_PROGRESS)
            st = AP_IN_PROGRESS;
    }
    return st;
}

int ap_map_build_tables(ap_map *m, const char **failed)
{
    return ap_map_update_tables(m, NULL, NULL, 0, failed);
}
