/* info.h — the answer of GET /v1/info: what this server is and what it accepts (jansson; a cold route).
 *
 * proto names no configuration (calls go server -> proto), so the server passes the version, the build
 * and its configured limits in; the limits the planner fixes (planner/base/limits.h) and the algorithm
 * names (planner/plan/algorithms.h) are read here, from their one source each.
 */
#ifndef AP_PROTO_INFO_H
#define AP_PROTO_INFO_H

#include <stddef.h>

/* What the server knows of itself. Strings are borrowed for the call. */
typedef struct ap_wire_info {
    const char *version;     /* the release, e.g. "0.1.0" (config/version.h) */
    const char *compiler;    /* the compiler that built arcpathd, e.g. "gcc 12.2.0" */
    size_t max_body_bytes;   /* bytes: the request body cap (config max_body_bytes) */
    size_t max_batch;        /* queries in one POST /v1/paths (config max_batch) */
    size_t max_samples;      /* poses in one answer (config max_samples) */
    size_t max_answer_bytes; /* bytes of one batch answer (config max_answer_bytes) */
    int default_deadline_ms; /* ms: the deadline of a query that names none (config default_deadline_ms) */
    int max_deadline_ms;     /* ms: longer deadlines are clamped to this (config max_deadline_ms) */
    size_t maps;             /* maps loaded */
    size_t workspace_nodes;  /* nodes each search workspace holds: the most nodes of a map and the most states
                              * of a kinodynamic search (config max_workspace_cells, or as sized at start) */
    int max_connections;     /* connections open at once: config max_connections, as lowered at start where the
                              * open-file limit is short (server/main.c fit_open_files) */
    size_t max_maps;         /* most map ids loaded at once (config max_maps) */
    const char *units;       /* the configured unit kinds as a JSON object text (config ap_config_units_text),
                              * or NULL for none */
} ap_wire_info;

/* Encode {"name": "arcpath", "version", "build": {"compiler"}, "limits": {"max_body_bytes", "max_batch",
 * "max_samples", "max_answer_bytes", "default_deadline_ms", "max_deadline_ms" (integers, from info),
 * "max_unit_radius", "min_turning_radius", "max_turning_radius", "min_sample_step" (reals in tiles, limits.h), "workspace_nodes",
 * "max_connections", "max_maps" (integers, from info)}, "algorithms":
 * [every wire name of ap_algorithms[], in the table's order], "maps": info->maps, "units": the unit kinds
 * object (info->units; {} when NULL), "vehicles": the built-in vehicle kinds (planner/kino/vehicle.h, in its
 * table's order) as {NAME: {"max_speed" m/s, "max_accel", "max_brake", "max_lateral_accel" m/s^2,
 * "turning_radius" metres}}, "terrains": ["ground", "swamp", "water", "trees"] (the names a
 * capability is made of)}. Returns a malloc'd
 * NUL-terminated string the caller frees, or NULL on allocation failure or a string that is not UTF-8;
 * *len (if non-NULL) gets its byte length. Thread-safe (no shared state). */
char *ap_wire_encode_info(const ap_wire_info *info, size_t *len);

#endif
