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

/* A cell (x = column, y = row) a tile update changed (patch.h). */
typedef struct ap_cell_pos {
    int32_t x, y;
} ap_cell_pos;

/* Kind flags. */
#define AP_TABLE_OPTIONAL 1u /* a failed build leaves no slot and the map loads without the table (the
                              * planner then works without it); without this flag the load fails */
#define AP_TABLE_UNIFORM 2u  /* built only on uniform-cost maps (!m->weighted), e.g. JPS's tables: jump
                              * point pruning assumes every move of a given length costs the same */
#define AP_TABLE_PER_CAPABILITY 4u /* built once per capability of the map (ap_map.capabilities, capability.h),
                                    * in increasing capability order: the loader sets out->capability
                                    * before each build, and the builder names the slot (out->name, a
                                    * static string such as "clearance:ground+swamp") */
#define AP_TABLE_SKIPPABLE 8u /* optional, and the planner answers every query without it (slower, or by a
                               * fallback algorithm): the config may leave it out (ap_map_opts.skip_tables) */

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
    /* NULL, or the incremental update after a tile update (patch.h): m is the new version (passability,
     * terrain, costs and the earlier kinds' tables set, as for build), prev the version it was made from
     * and old prev's table of this kind (and capability: out->capability is set as for build). m differs
     * from prev only at the n cells of `changed` (each appears once and its terrain letter differs; the
     * cost rule is the same). Same contract as build: on AP_OK out holds a NEW table (old stays prev's,
     * untouched: queries may still read it) equal to what build would give for m, up to what the kind
     * documents as free (e.g. region ids); out->data NULL when m needs no such table. out->incremental is
     * preset true: an update that falls back to its full build (a change too big to be worth it) sets it
     * false, so the map info says which tables really were updated. Thread-safe as build. */
    int (*update)(const ap_map *m, const ap_map *prev, const ap_map_table *old, const ap_cell_pos *changed,
                  size_t n, ap_map_table *out);
    /* NULL, or for a table that fills itself after the load (tables built on a query's first use): the bytes
     * its data holds now, and in *count what count_name counts now. Thread-safe on a loaded map. The map
     * info reports these instead of the slot's bytes and count. */
    size_t (*live)(const void *data, uint64_t *count);
    /* NULL, or for a table that fills itself after the load in steps, a query's time at a time (the any_angle
     * graphs, the jps_sized tables): pending says whether a build is left unfinished (cheap, lock-free);
     * work resumes it until the clock (ap_clock_ns) has passed until_ns and publishes it when done,
     * returning AP_IN_PROGRESS while work remains, else AP_OK (a thread that finds a query building waits
     * for it in 1 ms sleeps, up to until_ns). Both thread-safe on a loaded map (ap_map_tables_work). */
    bool (*pending)(const void *data);
    int (*work)(const ap_map *m, void *data, uint64_t until_ns);
} ap_table_kind;

/* The bit for ap_map_opts.skip_tables of the skippable kind (AP_TABLE_SKIPPABLE) named `name`: "jps_plus",
 * "jps_bits", "jps_sized", "any_angle" or "hier", i.e. 1u << its index in ap_table_kinds; 0 when no
 * skippable kind has that name (unknown; a required kind such as "region", which every query reads; or
 * "clearance", without which square units are refused). name NUL-terminated, only read. Pure; thread-safe. */
uint32_t ap_table_kind_skip_bit(const char *name);

/* The registered kinds in build order (also the order the map info lists them); *n gets their number.
 * Defined outside planner/world (planner/plan/table_kinds.c). Pure; thread-safe. */
const ap_table_kind *const *ap_table_kinds(size_t *n);

/* Is a table of m (a loaded map) left with an unfinished build (a kind's pending hook)? Cheap; thread-safe. */
bool ap_map_tables_pending(const ap_map *m);

/* Resume m's unfinished table builds (each kind's work hook, in slot order) until the clock (CLOCK_MONOTONIC
 * ns) has passed until_ns: the work a server does off the query path, so that a table whose queries had
 * too little time is done without them. Returns AP_IN_PROGRESS while some work remains, else AP_OK.
 * Thread-safe on a loaded map (the kinds' builds take turns with the queries'). */
int ap_map_tables_work(const ap_map *m, uint64_t until_ns);

/* Build every registered kind that applies to m (AP_TABLE_UNIFORM kinds only when !m->weighted), in order
 * (a per-capability kind once per capability of m), each into a new slot of m->tables with its build time
 * (wall seconds), bytes and count. An optional kind that fails, or finds no free slot (AP_MAP_MAX_TABLES),
 * is skipped. Returns AP_OK, or the status of the first required kind that failed (AP_E_INTERNAL when no
 * slot was free) with its name in *failed (the slot name a per-capability builder gave, if any); the
 * slots built so far stay in m (ap_map_free releases them). Called by ap_map_parse; not thread-safe on
 * one map (it writes m). */
int ap_map_build_tables(ap_map *m, const char **failed);

/* The tables of m, a tile update of prev (patch.h; m differs from prev only at the n `changed` cells), as
 * ap_map_build_tables would build them, but a kind with an update function whose table prev has (same kind
 * and capability) is updated from prev's table (the slot's incremental flag set) rather than built. Same
 * returns as ap_map_build_tables; the new slots are owned by m. prev is only read (other threads may be reading it
 * too); m is written, so not thread-safe on m. */
int ap_map_update_tables(ap_map *m, const ap_map *prev, const ap_cell_pos *changed, size_t n,
                         const char **failed);

/* ap_map_update_tables (prev NULL: a fresh load, every table built), then the required region table looked
 * up and kept in m->region / m->region_count. Returns AP_OK, or the failed table's status with diag (if not
 * NULL) naming the table ("cannot build the region table: out of memory"); the caller frees m. Used by
 * the loader (map.c) and tile updates (patch.c). Defined in map.c. Thread safety as ap_map_update_tables (writes m,
 * only reads prev). */
int ap_map_attach_tables(ap_map *m, const ap_map *prev, const ap_cell_pos *changed, size_t n, ap_diag *diag);

#endif
