/* circles.h — the circle-world map file `<id>.circles.json` (jansson; load time only).
 *
 * Format: {"width": W, "height": H, "circles": [{"x": X, "y": Y, "r": R}, ...]} — W, H tiles (numbers in
 * (0, 1e7]), each circle's centre anywhere in [-1e7, 1e7]^2 and radius in [0, 1e7] (planner/world/circles.h
 * ap_circle_world_create). Strict like the grid loader: a syntax error or duplicate key names line and
 * column; an unknown key, a missing or wrongly typed member, or a bad value names its JSON path
 * ("circles[3].r") in the message.
 */
#ifndef AP_PROTO_CIRCLES_H
#define AP_PROTO_CIRCLES_H

#include <stddef.h>
#include <stdint.h>

#include "../planner/world/circles.h"
#include "../planner/world/map.h"
#include "json_in.h"

/* A loaded circle map (`<id>.circles.json`): its id, its world (owned) and the time its file took to load. */
typedef struct ap_circle_map {
    char id[AP_MAP_ID_MAX];
    ap_circle_world *world;
    double load_seconds;
    double meters_per_tile; /* the config's scale for its id (ap_map_scale_of: the id's entry, else "*", else
                             * 1): the queries' ap_query.meters_per_tile, as a grid's ap_map.meters_per_tile */
} ap_circle_map;

/* The file name suffix of circle maps. */
#define AP_CIRCLES_SUFFIX ".circles.json"

/* Load the circle map file at path: its id is the base name without AP_CIRCLES_SUFFIX (1 .. 63 bytes of
 * [A-Za-z0-9_.-], not starting with '.', else AP_E_MAP_FORMAT with diag), its world as ap_circles_load reads
 * it, its scale opts' for the id (ap_map_scale_of; opts may be NULL: 1). On AP_OK *out is filled (free its
 * world with ap_circle_world_free); on error as ap_circles_load. Thread-safe. */
int ap_circle_map_load(const char *path, const ap_map_opts *opts, ap_circle_map *out, ap_diag *diag);

/* What ap_json_get_circles accepts: at most max_n circles, |x|, |y| <= coord, r in [0, r_max] (r > 0 when
 * r_positive). */
typedef struct ap_circle_limits {
    size_t max_n;
    double coord, r_max;
    bool r_positive;
} ap_circle_limits;

/* An array member key of obj (at the dotted path prefix) of circles {"x", "y", "r"} (unknown keys refused,
 * each a finite number within lim): *out gets them (malloc'd, caller frees; NULL when absent or empty) and *n
 * their count. Errors (json_in.h) name the JSON path of the bad value: "obstacles[3].r", "circles[0]".
 * Shared by the circle-map loader and the requests' "obstacles" (wire.c). Returns AP_OK, AP_E_INVALID_REQUEST
 * (recorded in r's error) or AP_E_NOMEM (*out NULL and *n 0 on every error). Thread: the reader's (json_in.h). */
int ap_json_get_circles(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, bool required,
                        const ap_circle_limits *lim, ap_circle **out, size_t *n);

/* Parse a circle-world file held in memory (buf, len bytes; need not be NUL-terminated). file_label names
 * the file in diagnostics. On success *out is a new world (caller owns; ap_circle_world_free) and AP_OK is
 * returned; else AP_E_MAP_FORMAT (diag, if non-NULL: file label, line and column for syntax errors, 0
 * otherwise, a message that quotes the JSON path, e.g. "\"circles[3].r\" must be a number") or
 * AP_E_NOMEM. Thread-safe. */
int ap_circles_parse(const char *file_label, const char *buf, size_t len, ap_circle_world **out, ap_diag *diag);

/* Most bytes of a circle map file (AP_CIRCLES_MAX circles of about 40 bytes each fit). */
#define AP_CIRCLES_MAX_FILE_BYTES ((uint64_t)1 << 30)

/* Read and parse the file at path: as ap_circles_parse (ownership and returns), or AP_E_IO (diag says why)
 * when it cannot be read or is not a regular file (a directory, a FIFO: never waited on), AP_E_MAP_TOO_LARGE
 * (diag) above AP_CIRCLES_MAX_FILE_BYTES, AP_E_NOMEM when its bytes do not fit in memory. Thread-safe. */
int ap_circles_load(const char *path, ap_circle_world **out, ap_diag *diag);

#endif
