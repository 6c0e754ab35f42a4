/* units.h — the config keys of units of every terrain and shape (config.c calls these): "units" (named unit
 * kinds), "capabilities" (extra per-capability tables at load) and "capability_costs" (terrain costs per
 * capability). Internal to config/. */
#ifndef AP_CONFIG_UNITS_H
#define AP_CONFIG_UNITS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "config.h"

/* True for "units", "capabilities" and "capability_costs". Pure. */
bool ap_config_is_unit_key(const char *key);

/* Apply one of those keys' value v (from the source called label) to c, replacing what an earlier source
 * set. Returns AP_OK, or AP_E_CONFIG with err set to "label: \"units.tank.radius\": message" (the dotted
 * path of the bad value); c may be partly written on error (the caller works on a copy). v is borrowed.
 * Thread-safe (writes only c and err). */
int ap_config_apply_unit_key(ap_config *c, const char *label, const char *key, json_t *v, char *err,
                             size_t errlen);

/* A unit kind as the config writes it: {"radius"?, "size"?, "capability"? (array of terrain names),
 * "turning_radius"? (tiles) or "turning_radius_m"? (metres, k->turning_metres), "reverse"?, "reverse_penalty"?,
 * "max_speed"?, "max_accel"?, "max_brake"?, "max_lateral_accel"?, "max_reverse_speed"?, "max_turn_rate"?} with
 * the fields it sets. New reference (the caller json_decrefs it), NULL when out of memory. Thread-safe. */
json_t *ap_config_unit_kind_json(const ap_unit_kind *k);

/* Add the three keys' effective values to the config object o (ap_config_print; o borrowed, its new members
 * owned by o). Allocation failures leave members out (no error is returned). Thread-safe (writes only o). */
void ap_config_print_units(const ap_config *c, json_t *o);

/* Read {TERRAIN: COST} (v, at the dotted path `path`) into cost (AP_TERRAIN_CHARS order; other entries left
 * alone): TERRAIN one of . G S T W and within `terrains` (capability bits), COST in [1,
 * AP_TERRAIN_COST_MAX]. Returns AP_OK or AP_E_CONFIG with err naming "path.TERRAIN" (label first). (config.c)
 * Thread-safe (writes only cost and err). */
int ap_config_parse_costs(const char *label, const char *path, json_t *v, unsigned terrains,
                          double cost[AP_TERRAIN_KINDS], char *err, size_t errlen);

/* The capability of the array v (non-empty, distinct names "ground", "swamp", "water", "trees") at path, in
 * *out. Returns AP_OK or AP_E_CONFIG naming "path" or "path[i]" in err (label first). Thread-safe (writes only
 * *out and err). */
int ap_config_parse_capability(const char *label, const char *path, json_t *v, uint8_t *out, char *err,
                               size_t errlen);

#endif
