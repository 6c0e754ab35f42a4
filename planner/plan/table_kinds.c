/* table_kinds.c — THE list of per-map table kinds (world/tables.h), one line per kind, in build order (the
 * map info lists them in this order too). Kept here, outside planner/world, so the map loader builds the
 * tables of the search and grid modules without including them. */
#include "../world/tables.h"

#include "../anyangle/table.h"
#include "../grid/jps.h"
#include "../grid/jps_sized.h"
#include "../hier/hier.h"
#include "../world/capability.h"
#include "../world/clearance.h"
#include "../world/region.h"
#include "../world/view.h"

static const ap_table_kind *const kinds[] = {
    &ap_region_table_kind,    /* required: every query checks regions first (plan.c) */
    &ap_jps_plus_table_kind,  /* optional, uniform-cost maps: JPS+ jump distances */
    &ap_jps_bits_table_kind,  /* optional, uniform-cost maps: online JPS's bit lines */
    &ap_capability_region_table_kind, /* required, per capability: regions of the capability's mask */
    &ap_clearance_table_kind,         /* optional, per capability: exact disc and true clearance */
    &ap_jps_sized_table_kind,         /* optional: JPS+ tables of discs, per threshold on first use */
    &ap_aa_table_kind,                /* optional, uniform-cost maps: the point unit's any-angle graph */
    &ap_view_table_kind,              /* required, per capability: the map as the capability sees it */
    &ap_hier_table_kind,              /* optional: the HAA* abstract graph (after clearance, which it reads) */
};

const ap_table_kind *const *ap_table_kinds(size_t *n)
{
    *n = sizeof kinds / sizeof kinds[0];
    return kinds;
}
