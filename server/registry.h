/* registry.h — the set of maps the server answers for, loaded once at start.
 *
 * Loaded on the main thread before any other thread starts; immutable afterwards, so every thread may
 * look maps up without locks. Freed only after the HTTP daemon and the worker pool have stopped.
 */
#ifndef AP_SERVER_REGISTRY_H
#define AP_SERVER_REGISTRY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../planner/world/map.h"

typedef struct ap_registry {
    ap_map **maps;      /* n maps sorted by id (strcmp), owned */
    size_t n;
    uint32_t max_nodes; /* largest ap_map_node_count over the maps (0 when none): workspace capacity */
    int errors;         /* files skipped (bad map, duplicate or picture id) plus 1 if the directory was unreadable */
} ap_registry;

/* Load every "*.map" regular file of dir, in name order, with ap_map_load and the load options opts (NULL =
 * defaults: limits and uniform-cost maps). A file that fails to load is reported on errf (NULL = stderr) as
 * "arcpathd: map error: FILE:LINE:COL: MESSAGE" and skipped; a duplicate id is reported the same way and
 * skipped (the first, in name order, wins), and so is an id ending in ".svg" or ".png" ("x.svg.map"):
 * GET /v1/maps/x.svg is the picture of map "x", so such a map could not be reached. r is caller-owned and is overwritten.
 * Returns AP_OK (even when some or all files were bad: see r->errors and r->n), AP_E_IO when dir cannot be
 * opened (reported on errf; r is empty and r->errors is 1), or AP_E_NOMEM.
 * Thread safety: main thread, before other threads use r. */
int ap_registry_load(ap_registry *r, const char *dir, const ap_map_opts *opts, FILE *errf);

/* The map whose id equals the C string id, or NULL (also for id NULL). O(log n) (bsearch). The map is
 * borrowed from r. Any thread, once loading is done. */
const ap_map *ap_registry_find(const ap_registry *r, const char *id);

/* Free every map and reset r to empty. Call after all readers have stopped. NULL is ignored. */
void ap_registry_free(ap_registry *r);

#endif
