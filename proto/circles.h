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

#include "../planner/world/circles.h"
#include "../planner/world/map.h"

/* Parse a circle-world file held in memory (buf, len bytes; need not be NUL-terminated). file_label names
 * the file in diagnostics. On success *out is a new world (caller owns; ap_circle_world_free) and AP_OK is
 * returned; else AP_E_MAP_FORMAT (diag, if non-NULL: file label, line and column for syntax errors, 0
 * otherwise, a message that quotes the JSON path, e.g. "\"circles[3].r\" must be a number") or
 * AP_E_NOMEM. Thread-safe. */
int ap_circles_parse(const char *file_label, const char *buf, size_t len, ap_circle_world **out, ap_diag *diag);

/* Read and parse the file at path: as ap_circles_parse, or AP_E_IO (diag says why) when it cannot be read. */
int ap_circles_load(const char *path, ap_circle_world **out, ap_diag *diag);

#endif
