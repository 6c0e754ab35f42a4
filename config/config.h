/* config.h — arcpathd configuration: defaults < config file (JSON) < environment (ARCPATH_*) < command line.
 *
 * Every field has a documented default, unit and range (README "Configuration"). Loading functions never
 * exit the process; they return AP_OK or AP_E_CONFIG with a message naming the source (file:line:column,
 * the variable, or the option).
 */
#ifndef AP_CONFIG_H
#define AP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../planner/world/map.h"
#include "../planner/plan/unit_kind.h"

/* Most unit profiles the config may preload (the planner's profile cache holds 32; the rest is left for
 * profiles first seen in queries). */
#define AP_CONFIG_MAX_PROFILES 16

/* Most terrain-cost entries (config key "terrain_costs": one per map id, plus "*" for all other maps); also
 * the most scale entries (config key "meters_per_tile", the same shape). */
#define AP_CONFIG_MAX_TERRAIN 64
#define AP_CONFIG_ADMIN_TOKEN_MAX 256 /* bytes of admin_token */
#define AP_CONFIG_ADMIN_TOKEN_MIN 16  /* a shorter token is refused: it could be guessed */

/* Most named unit kinds (config key "units"), extra capabilities ("capabilities") and capability cost
 * entries ("capability_costs"; one per capability at most). */
#define AP_CONFIG_MAX_UNITS 32
#define AP_CONFIG_MAX_CAPABILITIES 15
/* Most CORS origins (config key "cors_origins", env ARCPATH_CORS_ORIGINS), and the longest one (bytes, NUL
 * included). */
#define AP_CONFIG_MAX_CORS 16
#define AP_CORS_ORIGIN_MAX 256

/* One preloaded unit profile (config key "profiles"): the Directional A* tables for this key are built at
 * start-up, before serving (planner/turns/profile.h, ap_profile_key). */
typedef struct ap_config_profile {
    double radius;         /* unit disc radius, tiles, 0..16 (default 0) */
    double turning_radius; /* tiles, (0, 64]; required */
    int headings;          /* 8 (default) or 16 */
    int neighbourhood;     /* 8, 24 (default) or 48: Directional8/24/48 (hybrid uses 48 and 8, auto's
                            * fallback 24) */
    bool reverse;          /* reverse (Reeds-Shepp) edges; default false */
} ap_config_profile;

typedef struct ap_config {
    char listen_host[64];       /* "127.0.0.1"; an IPv4 literal, "localhost", or an IPv6 literal (stored
                                 * without the brackets of "[::1]:8080": a ':' in it means IPv6) */
    uint16_t listen_port;       /* 8080; 1..65535 */
    char maps_dir[1024];        /* "config/maps"; non-empty */
    int workers;                /* 2; 1..64: libuv pool threads = fast workspaces */
    int slow_slots;             /* 4; 1..64: slow workspaces = slow searches in progress at once */
    int fast_queue;             /* 1024; 1..1e6: jobs waiting for the fast lane before 503 */
    int slow_queue;             /* 64; 1..1e5: searches waiting for a slow slot before 503 */
    uint64_t fast_budget;       /* 2000 (chosen by measurement, README "Performance"); 100..1e8 expansions a
                                 * search may run in the fast lane before moving to slow */
    uint64_t slow_slice;        /* 2000; 100..1e8 expansions per slow slice */
    int default_deadline_ms;    /* 5000; 1..600000, <= max_deadline_ms */
    int max_deadline_ms;        /* 60000; 1..600000: requests asking for more are clamped */
    size_t max_body_bytes;      /* 65536; 1024..67108864 (64 MiB) */
    int32_t max_map_width;      /* 4096; 1..65536 cells */
    int32_t max_map_height;     /* 4096; 1..65536 cells */
    int64_t max_map_cells;      /* 16777216; 1..2^30 cells */
    size_t max_samples;         /* 100000; 1..1e7 poses per answer */
    size_t max_answer_bytes;    /* 33554432 (32 MiB); 65536..2^30: most bytes of one batch answer; the items
                                 * after that are answered answer_too_large (so a small body cannot make a
                                 * huge answer: 64 queries of 100000 samples were 373 MB) */
    int drain_timeout_ms;       /* 10000; 0..600000: how long shutdown waits for in-flight jobs */
    bool access_log;            /* true: one JSON line per request on stdout */
    int pool_nice;              /* 0; 0..19: nice increment of the worker pool's threads (0 = same priority
                                 * as the HTTP thread) */
    size_t max_batch;           /* 256; 1..100000: most queries in one POST /v1/paths */
    int http_threads;           /* 1; 1..64: libmicrohttpd polling threads (1 = one internal thread, more =
                                 * MHD's thread pool) */
    int max_connections;        /* 512; 1..100000: connections open at once (MHD_OPTION_CONNECTION_LIMIT; more
                                 * wait in the listen backlog). Well below the usual 1024 descriptors, so
                                 * held connections cannot take the descriptors the server needs */
    int max_connections_per_ip; /* 64; 1..100000: connections open at once from one client address
                                 * (MHD_OPTION_PER_IP_CONNECTION_LIMIT; more are closed at once) */
    int idle_timeout_s;         /* 30; 1..3600 s: a connection with no traffic this long is closed
                                 * (MHD_OPTION_CONNECTION_TIMEOUT; each byte restarts it) */
    int request_timeout_ms;     /* 10000; 100..600000 ms: a request's headers and body must have arrived
                                 * this long after the connection opened or its previous answer was sent,
                                 * or the connection is closed (trickling bytes does not extend it) */
    int profile_evictions_per_minute; /* 6; 0..1000000: unit profiles one client address may make the full
                                 * profile cache evict per minute (a token bucket of that size, refilled
                                 * evenly); over budget, its query builds a private profile that is not
                                 * cached. 0 = clients only fill free slots */
    size_t max_map_upload_bytes;/* 16777216 (16 MiB); 1024..1073741824: largest map file PUT /v1/maps/{id}
                                 * accepts as its body (the other routes' bodies stay under max_body_bytes) */
    int64_t max_workspace_cells;/* 0; 0..2^31: nodes ((width + 2) * (height + 2)) every search workspace is
                                 * sized for, fixed at start; 0 = the largest map loaded at start (at least
                                 * AP_PLAN_MIN_WORKSPACE_NODES). A map added later with more nodes is refused
                                 * (413 map_too_large; a folder reload logs it and keeps the old version) */
    size_t max_maps;            /* 4096; 1..1000000: most map ids with a current version at once. A map file
                                 * over it at start or in a rescan is skipped and logged as an error; PUT or
                                 * reload of a new id answers 409 map_limit. Replacing or editing a loaded
                                 * id is never refused by it */
    char admin_token[AP_CONFIG_ADMIN_TOKEN_MAX + 1]; /* "" = the map-changing routes answer 403
                                 * admin_disabled; else they need "Authorization: Bearer <token>". 16..256
                                 * printable ASCII characters without spaces; never printed or logged */
    bool inline_fast;           /* true: a short query's fast slice runs on the HTTP thread that read it
                                 * (no hand-off) when a fast workspace is free; false: always hand off to
                                 * the loop and the pool */
    ap_config_profile profiles[AP_CONFIG_MAX_PROFILES]; /* preloaded profiles (config file only), in order */
    size_t n_profiles;          /* 0 (default) .. AP_CONFIG_MAX_PROFILES */
    ap_terrain_costs terrain[AP_CONFIG_MAX_TERRAIN]; /* terrain costs per map id (config file only; map.h) */
    size_t n_terrain;           /* 0 (default: every map uniform-cost) .. AP_CONFIG_MAX_TERRAIN */
    ap_map_scale scales[AP_CONFIG_MAX_TERRAIN]; /* metres per tile per map id (config file only; map.h) */
    size_t n_scales;            /* 0 (default: every map 1 metre per tile) .. AP_CONFIG_MAX_TERRAIN */
    ap_unit_kind units[AP_CONFIG_MAX_UNITS]; /* named unit kinds (config file only; unit_kind.h) */
    size_t n_units;             /* 0 (default) .. AP_CONFIG_MAX_UNITS */
    uint8_t capabilities[AP_CONFIG_MAX_CAPABILITIES]; /* capabilities every map gets tables for, besides its
                                 * own and the units' (config file only; capability.h bit sets) */
    size_t n_capabilities;      /* 0 (default) .. 15 */
    ap_capability_costs cap_costs[AP_CONFIG_MAX_CAPABILITIES]; /* terrain costs per capability (map.h) */
    size_t n_cap_costs;         /* 0 (default) .. 15 */
    /* Origins whose browser pages may call the API (CORS, server/cors.h): exact serialized origins
     * ("https://tools.example.com", "http://127.0.0.1:3000": lowercase scheme http/https, host, optional
     * port; no path), or the one entry "*" (any origin). 0 entries (default) = CORS off. */
    char cors_origins[AP_CONFIG_MAX_CORS][AP_CORS_ORIGIN_MAX];
    size_t n_cors_origins;
    /* Per-map tables not built (config file only, "skip_tables": names of skippable table kinds, tables.h
     * ap_table_kind_skip_bit): their bits, for ap_map_opts.skip_tables, every map's (the array form). 0
     * (default) = every table built. */
    uint32_t skip_tables;
    ap_map_skip skips[AP_CONFIG_MAX_TERRAIN]; /* the object form, per map id (ap_map_opts.skips; map.h) */
    size_t n_skips;             /* 0 (default: skip_tables for every map) .. AP_CONFIG_MAX_TERRAIN */
    char config_file[1024];     /* "" = none */
    bool check_config;          /* --check-config */
} ap_config;

/* Fill c with the built-in defaults (the values in the comments above; config/arcpath.conf spells them
 * out). Never fails. Thread-safe. */
void ap_config_defaults(ap_config *c);

/* Apply a JSON config held in memory (buf/len, need not be NUL-terminated): an object with the keys
 * "listen", "maps", the integer keys (one row each in config.c's ap_int_fields, with its range: "workers",
 * "slow_slots", "fast_queue", ..., "max_answer_bytes", "pool_nice", "max_workspace_cells"; `arcpathd --help`
 * lists them all), "admin_token" (a string, see ap_config) and
 * "access_log", "inline_fast" (bools), and "profiles": an array of at most AP_CONFIG_MAX_PROFILES objects
 * {"radius", "turning_radius" (required), "headings" 8|16, "neighbourhood" 8|24|48, "reverse"} (ranges in
 * ap_config_profile; a bad entry is reported as "label: \"profiles[I].field\": message"), and
 * "terrain_costs": an object of at most AP_CONFIG_MAX_TERRAIN entries MAP_ID|"*": {TERRAIN: COST} with
 * TERRAIN one of ".", "G", "S", "T", "W" and COST a number in [1, AP_TERRAIN_COST_MAX] (map.h,
 * ap_terrain_costs; "terrain_costs.MAP.T" names a bad entry),
 * "meters_per_tile": an object of at most AP_CONFIG_MAX_TERRAIN entries MAP_ID|"*": NUMBER in
 * [AP_MIN_METERS_PER_TILE, AP_MAX_METERS_PER_TILE] (map.h ap_map_scale; "meters_per_tile.MAP" names a bad entry),
 * "cors_origins": an array of at most AP_CONFIG_MAX_CORS strings, each an origin or "*" (alone) as in
 * ap_config.cors_origins ("cors_origins[I]" names a bad entry), "skip_tables": an array of distinct names of
 * skippable per-map tables ("jps_plus", "jps_bits", "jps_sized", "any_angle", "hier"; "skip_tables[I]"
 * names a bad entry) for every map, or an object of at most AP_CONFIG_MAX_TERRAIN entries MAP_ID|"*": such
 * an array (map.h ap_map_skip; "skip_tables.MAP[I]" names a bad entry),
 * "units": an object of at most AP_CONFIG_MAX_UNITS entries NAME: {"radius", "size", "capability",
 * "turning_radius" (tiles) or "turning_radius_m" (metres, scaled where applied), "reverse", "reverse_penalty",
 * the vehicle limits} (a unit kind, unit_kind.h; NAME 1..31 of [A-Za-z0-9_.-], not starting with '.';
 * ranges as the request's unit fields; "size" and "radius" not both), "capabilities": an array of
 * capabilities (each an array of terrain names, as unit.capability), and "capability_costs": an object
 * CAPABILITY: {TERRAIN: COST} with CAPABILITY terrain names joined by '+' ("ground+swamp", capability.h) and
 * only that capability's terrains (a bad entry is reported as "label: \"units.tank.capability[1]\": ..."), all
 * optional. "profiles", "terrain_costs", "meters_per_tile", "cors_origins", "skip_tables", "units", "capabilities" and "capability_costs" replace what an
 * earlier source set.
 * label names the source in messages. Unknown keys, wrong types, out-of-range values, duplicate keys and
 * malformed JSON are errors: returns AP_E_CONFIG with err (errlen bytes, may be 0) set to
 * "label:line:col: message" for syntax errors and "label: \"key\": message" for bad values; c is left
 * unchanged on error (all or nothing). Cross-field rules (default <= max deadline) are checked by
 * ap_config_validate, since a later source may fix them. Returns AP_OK on success. Thread-safe. */
int ap_config_load_buffer(ap_config *c, const char *label, const char *buf, size_t len, char *err,
                          size_t errlen);

/* Apply a JSON config file (object with the keys above, e.g. {"listen": "127.0.0.1:8080", "workers": 2}).
 * Sets c->config_file to path. Unknown keys and out-of-range values are errors. Returns AP_OK, or
 * AP_E_CONFIG with err/errlen receiving "file:line:col: message" (or "file: ..." when the file cannot be
 * read or a value is bad); c is unchanged on error. Thread-safe. */
int ap_config_load_file(ap_config *c, const char *path, char *err, size_t errlen);

/* Apply ARCPATH_* environment variables: ARCPATH_CONFIG (sets config_file only), ARCPATH_LISTEN,
 * ARCPATH_MAPS, ARCPATH_ADMIN_TOKEN, one variable per integer key that has one (config.c's ap_int_fields:
 * ARCPATH_WORKERS, ..., ARCPATH_MAX_WORKSPACE_CELLS; the map size limits have none), ARCPATH_ACCESS_LOG
 * and ARCPATH_INLINE_FAST (0/1/true/false), and ARCPATH_CORS_ORIGINS (comma-separated origins, blanks around each ignored, or "*"; replaces
 * "cors_origins").
 * Integers are decimal, fully consumed, in range; an empty variable is an error. Returns AP_OK, or
 * AP_E_CONFIG with err naming the variable ("ARCPATH_WORKERS: ..."); c is unchanged on error. Reads the
 * environment: not thread-safe against concurrent setenv. */
int ap_config_load_env(ap_config *c, char *err, size_t errlen);

/* Parse argv with getopt_long: --listen HOST:PORT, --maps DIR, --workers N, --config FILE,
 * --check-config, --help (-h), --version (-V). Both "--opt value" and "--opt=value" work; positional
 * arguments are errors. Sets *exit_now to 1 (and returns AP_OK) after printing --help or --version to
 * stdout, else to 0. The config file named by --config / ARCPATH_CONFIG is applied by ap_config_resolve.
 * Returns AP_OK, or AP_E_CONFIG with err naming the option; c is unchanged on error. Resets getopt's
 * global state before use, so it may be called repeatedly, but it is not thread-safe (getopt globals). */
int ap_config_load_args(ap_config *c, int argc, char **argv, int *exit_now, char *err, size_t errlen);

/* The configured unit kinds as one JSON object text {"NAME": {"radius"?, "size"?, "capability"? (array of
 * terrain names), "turning_radius"? (tiles) or "turning_radius_m"? (metres), "reverse"?, "reverse_penalty"?,
 * the vehicle limits "max_speed"?, "max_accel"?, "max_brake"?, "max_lateral_accel"?, "max_reverse_speed"?,
 * "max_turn_rate"?}, ...} (the fields each kind sets; units.h ap_config_unit_kind_json), for GET /v1/info.
 * malloc'd (caller frees), NULL when out of memory. Thread-safe. */
char *ap_config_units_text(const ap_config *c);

/* Cross-field checks on a complete config: default_deadline_ms <= max_deadline_ms. Returns AP_OK or
 * AP_E_CONFIG with err (errlen bytes) naming both keys. Pure but for err; thread-safe. */
int ap_config_validate(const ap_config *c, char *err, size_t errlen);

/* The whole precedence chain: defaults, then the file (from --config, else ARCPATH_CONFIG, else none), then
 * env, then args, then ap_config_validate. Returns AP_OK (check *exit_now: 1 after --help/--version), or
 * AP_E_CONFIG with err filled. c is fully overwritten. Not thread-safe (getopt, environment). */
int ap_config_resolve(ap_config *c, int argc, char **argv, int *exit_now, char *err, size_t errlen);

/* Write the effective config as one JSON line (keys as in the config file, "profiles" included, plus
 * "config_file" and "check_config") to file, a FILE*. Thread-safe as stdio is. */
void ap_config_print(const ap_config *c, void *file /* FILE* */);

#endif
