/* capability.h — terrain capabilities: which Moving AI terrains a unit may enter, and the per-capability
 * region table (a registered, per-capability table kind, tables.h).
 *
 * Source: Harabor, "Clearance-based Pathfinding", "Dealing With Multiple Terrain Types": "a capability is
 * simply a disjunction of terrains used to specify where each agent can traverse"; every per-map annotation
 * (clearance, regions) is then computed once per capability. Here a capability is a 4-bit set over the
 * Moving AI terrain letters: ground ('.' and 'G'), swamp ('S'), water ('W'), trees ('T'). Out-of-bounds
 * terrain ('@', 'O') is in no capability, and cells off the map are never entered.
 *
 * The default capability {ground, swamp} is exactly the passability of a uniform-cost map (map.h), so the
 * existing "region" table already is its region table.
 */
#ifndef AP_CAPABILITY_H
#define AP_CAPABILITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tables.h"

/* A capability: a bit set of AP_CAP_* terrains, 1 .. AP_CAP_ALL (0, the empty set, is no capability). */
typedef uint8_t ap_capability;

#define AP_CAP_GROUND 1u /* '.', 'G' */
#define AP_CAP_SWAMP 2u  /* 'S' */
#define AP_CAP_WATER 4u  /* 'W' */
#define AP_CAP_TREES 8u  /* 'T' */
#define AP_CAP_ALL 15u
#define AP_CAP_DEFAULT (AP_CAP_GROUND | AP_CAP_SWAMP) /* today's passability on uniform-cost maps */
#define AP_CAPABILITY_COUNT 16 /* capability values 0 .. 15 (0 unused), e.g. bits of ap_map.capabilities */

/* The names of capabilities 0 .. 15, each prefixed by the string literal P: "P" "ground", "P" "swamp",
 * "P" "ground+swamp", ... (terrain names joined by '+' in bit order ground, swamp, water, trees; index 0,
 * the empty set, is P "none"). Static strings for table slot names (tables.h: a slot's name must be
 * static), e.g. AP_CAPABILITY_NAMES("region:")[3] is "region:ground+swamp". */
#define AP_CAPABILITY_NAMES(P)                                                                                 \
    {                                                                                                          \
        P "none", P "ground", P "swamp", P "ground+swamp", P "water", P "ground+water", P "swamp+water",      \
            P "ground+swamp+water", P "trees", P "ground+trees", P "swamp+trees", P "ground+swamp+trees",      \
            P "water+trees", P "ground+water+trees", P "swamp+water+trees", P "ground+swamp+water+trees"       \
    }

/* The capability bit of one Moving AI terrain character: AP_CAP_GROUND for '.' and 'G', AP_CAP_SWAMP for
 * 'S', AP_CAP_WATER for 'W', AP_CAP_TREES for 'T', 0 for anything else ('@', 'O', non-terrain). Pure. */
ap_capability ap_capability_of_terrain(unsigned char c);

/* The bit of one terrain name: "ground", "swamp", "water" or "trees" (exactly n bytes at name, case
 * sensitive, no NUL needed), 0 for any other text. Pure; thread-safe. */
ap_capability ap_capability_from_name(const char *name, size_t n);

/* Parse a capability written as terrain names joined by '+' (n bytes at text), in any order, each at most
 * once, e.g. "ground+swamp" or "water". On success stores the set in *out and returns 0; returns -1 (and
 * leaves *out alone) for an empty text or part, an unknown name, or a name given twice. Pure; thread-safe. */
int ap_capability_parse(const char *text, size_t n, ap_capability *out);

/* The canonical name of capability c (terrain names joined by '+' in the order ground, swamp, water, trees,
 * e.g. "ground+swamp"; ap_capability_parse reads it back), or NULL when c is 0 or above AP_CAP_ALL. The
 * string is static. Pure; thread-safe. */
const char *ap_capability_name(unsigned c);

/* Fill mask (ap_map_node_count(m) bytes, m's padded layout) with 1 for every map cell whose terrain letter
 * (m->terrain) is in capability c and 0 elsewhere, the padded border included: the grid of cells a unit of
 * capability c may enter, in the layout of m->pass. Terrain costs do not matter here (a capability says
 * where a unit may go, costs what it pays there). Returns the number of cells set. Pure; thread-safe. */
int64_t ap_capability_mask(const ap_map *m, ap_capability c, uint8_t *mask);

/* True when capability c's mask equals m->pass cell for cell (the map's own passability, e.g. the default
 * {ground, swamp} on a uniform-cost map): then the map's "region" table is c's region table. Cost: one
 * pass over the map. Pure; thread-safe. */
bool ap_capability_is_map_pass(const ap_map *m, ap_capability c);

/* "region:<capability>" (per capability, tables.h AP_TABLE_PER_CAPABILITY; one slot per capability in
 * ap_map.capabilities): the connected components of the capability's mask, with region.c's labelling (no
 * corner cutting, so 4- and 8-connected components coincide; data = uint32_t per padded cell, ids 1 ..
 * count, dense, in row-major order of first cells after a fresh build but not after a tile update (region.h),
 * 0 outside the capability; count = "regions"; 4 bytes per padded cell). Required. A capability whose mask
 * is the map's passability (ap_capability_is_map_pass) gets no slot: the "region" table serves it
 * (ap_capability_regions). After a tile update it is updated from the previous version's slot
 * (region.h ap_region_update on the capability's mask; exact, the same partition as a build). */
extern const ap_table_kind ap_capability_region_table_kind;

/* The region labels of capability c on map m (uint32_t per padded cell, as above) and their number in
 * *count: the "region:<c>" slot, or m->region when c's mask is the map's passability. NULL (and *count
 * 0) when the map was loaded without c in its capabilities. Borrowed from m; thread-safe on a loaded map. */
const uint32_t *ap_capability_regions(const ap_map *m, ap_capability c, uint32_t *count);

#endif
