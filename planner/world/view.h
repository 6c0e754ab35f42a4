/* view.h — a loaded map as one terrain capability sees it: a capability view, built at load as a
 * registered per-capability table ("view:<capability>", tables.h).
 *
 * Source: Harabor, "Clearance-based Pathfinding", "Dealing With Multiple Terrain Types": a unit's
 * capability is the set of terrains it may traverse, and every per-map annotation is made once per
 * capability. A view is an ap_map value (map.h) whose pass holds exactly the cells of the capability
 * (capability.h ap_capability_mask), whose region table is the capability's, and whose terrain costs are
 * the capability's (ap_map_opts.cap_costs, else the map's terrain_costs, else 1), so every planner module
 * that reads an ap_map (grid, JPS, legal-turn searches, collide.h, the world interface) serves the
 * capability without knowing about capabilities. Views share the base map's terrain letters and its
 * per-capability tables (clearance), and carry none of its map-wide tables (JPS: ap_map_find_table).
 *
 * Memory per view: 1 byte per padded cell (pass), 2 more when its costs are not uniform (kind and cheap
 * masks), and the region table of capability.h. A capability whose cells and costs are the map's own gets
 * no view: the map serves it.
 */
#ifndef AP_VIEW_H
#define AP_VIEW_H

#include "capability.h"
#include "map.h"
#include "tables.h"

/* "view:<capability>" (per capability, required; registered after the region tables). data = an ap_map
 * (the view), bytes = its own arrays (and the view's count of cells per terrain kind). No slot when the
 * capability's cells and costs are the map's. After a tile update it is updated from the previous
 * version's view: its pass and per-kind cell counts corrected at the changed cells (a cell's membership
 * depends on its letter alone), the cost range redone from the counts, the kind and cheap arrays copied and
 * redone at the changed cells when the cheapest cost stayed (else derived again), and the region table the
 * new map's own (updated before it). Exact: every field is what a build computes from the same pass and
 * counts. O(cells) copying plus O(changed cells). */
extern const ap_table_kind ap_view_table_kind;

/* The map as capability c sees it: m itself when c is 0 (the map's own passability and costs) or when c's
 * cells and costs are m's; the view otherwise. NULL when c is above AP_CAP_ALL or m was loaded without c's
 * tables (ap_map_opts.capabilities). m must be a loaded map (not a view); the result is borrowed from m.
 * Pure; thread-safe on a loaded map. */
const ap_map *ap_map_view(const ap_map *m, unsigned c);

/* The loaded map behind m: m->base for a view, m itself otherwise. Pure. */
static inline const ap_map *ap_map_base(const ap_map *m)
{
    return m->base != NULL ? m->base : m;
}

#endif
