/* tables.h — per-map tables as registered kinds: what a planner module precomputes from a parsed map at
 * load and keeps in the map's table slots (map.h ap_map_table), without map.c knowing the module.
 *
 * Link-time inversion: the list of kinds is not in planner/world. ap_table_kinds() is declared here and
 * defined in ONE place outside it (planner/plan/table_kinds.c, one line per kind), so the loader in
 * planner/world calls builders of the search and grid modules without including them.
 */
#ifndef AP_TABLES_H
#define AP_TABLES_H

#include <stddef.h>

#include "map.h"

/* Kind flags. */
#define AP_TABLE_OPTIONAL 1u /* a failed build leaves no slot and the map loads without the table (the
                              * planner then works without it); without this flag the load fails */
#define AP_TABLE_UNIFORM 2u  /* built only on uniform-cost maps (!m->weighted), e.g. JPS's tables: jump
                              * point pruning assumes every move of a given length costs the same */
#define AP_TABLE_PER_CAPABILITY 4u /* built once per capability of the map (ap_map.capabilities, capability.h),
                                    * in increasing capability order: the loader sets out->capability
                                    * before each build, and the builder names the slot (out->name, a
                                    * static string such as "clearance:ground+swamp") */

/* One kind of per-map table. All fields are static (the kinds are constants). */
typedef struct ap_table_kind {
    const char *name;       /* slot name, unique among the kinds, e.g. "region", "jps_plus" */
    const char *count_name; /* NULL, or what the builder's count counts (map info key, e.g. "regions") */
    unsigned flags;         /* AP_TABLE_* */
    /* Build the table of the parsed map m (passability, terrain and costs are set; other tables may not be
     * yet: read them with ap_map_find_table, never through ap_map fields). On AP_OK out->data holds the
     * table (owned by the slot from then on), out->bytes its memory in bytes and, when count_name is set,
     * out->count its count; the loader fills the other fields. A builder that leaves out->data NULL on
     * AP_OK stores nothing: the map needs no such table (e.g. a capability whose region table would be the
     * "region" table) and gets no slot. On failure (AP_E_NOMEM, AP_E_MAP_TOO_LARGE,
     * ...) nothing is left allocated. Must be thread-safe (maps may load in parallel). */
    int (*build)(const ap_map *m, ap_map_table *out);
    void (*free_fn)(void *data); /* frees what build stored in out->data; NULL-safe */
} ap_table_kind;

/* The registered kinds in build order (also the order the map info lists them); *n gets their number.
 * Defined outside planner/world (planner/plan/table_kinds.c). Pure; thread-safe. */
const ap_table_kind *const *ap_table_kinds(size_t *n);

/* Build every registered kind that applies to m (AP_TABLE_UNIFORM kinds only when !m->weighted), in order
 * (a per-capability kind once per capability of m), each into a new slot of m->tables with its build time
 * (wall seconds), bytes and count. An optional kind that fails, or finds no free slot (AP_MAP_MAX_TABLES),
 * is skipped. Returns AP_OK, or the status of the first required kind that failed (AP_E_INTERNAL when no
 * slot was free) with its name in *failed (the slot name a per-capability builder gave, if any); the
 * slots built so far stay in m (ap_map_free releases them). Called by ap_map_parse; not thread-safe on
 * one map (it writes m). */
int ap_map_build_tables(ap_map *m, const char **failed);

#endif
