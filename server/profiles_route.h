/* profiles_route.h — GET /v1/profiles and the start-up preload of unit profiles: the Directional A* tables
 * (planner/turns/profile.h) the server holds in its profile cache.
 *
 * Source: Pinter, "Toward More Realistic Pathfinding" (Game Developer, 2001), "Using a hit-check table": the
 * tables depend on the unit's size and turning radius, so they are built once per unit profile; arcpath
 * builds them on a profile's first query, or at start-up for the profiles the config lists.
 */
#ifndef AP_SERVER_PROFILES_ROUTE_H
#define AP_SERVER_PROFILES_ROUTE_H

#include <stddef.h>
#include <stdio.h>

#include "../config/config.h"
#include "../planner/turns/profile.h"

/* The JSON body of GET /v1/profiles for cache c: {"profiles": [{"radius", "turning_radius", "headings",
 * "neighbourhood", "reverse", "edges", "bytes", "build_ms", "hits"}, ...] oldest first (the order they were
 * cached in: ap_profile_cache_list), "count", "bytes" (their total), "capacity" (AP_PROFILE_CACHE_SLOTS),
 * "builds" and "build_ms" (every build so far, private ones included)}. Returns a malloc'd NUL-terminated
 * string (caller frees) and its length in *len, or NULL when out of memory. Thread-safe (the list is a snapshot taken under
 * the cache's spin lock; the build counters are atomics). */
char *ap_profiles_encode(ap_profile_cache *c, size_t *len);

/* Build every profile of cfg->profiles into cache c (before serving), one line per profile on log (may be
 * NULL): key, edges, bytes and build ms. Returns 0, or -1 after logging the first failure (an invalid key
 * the config check missed, or out of memory). A profile that does not fit the cache (more than
 * AP_PROFILE_CACHE_SLOTS distinct keys) is built, logged as not cached and freed. Call from one thread
 * while no search runs. */
int ap_profiles_preload(ap_profile_cache *c, const ap_config *cfg, FILE *log);

#endif
