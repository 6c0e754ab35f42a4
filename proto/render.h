/* render.h — pictures of a map and of a path on it (POST /v1/render, GET /v1/maps/{id}.svg and .png): the
 * parsed render request, the answer it draws, the frame (view, pixel scale, caption strip) and the drawing
 * facts both writers share (terrain colours, merged terrain runs, path styles, marker and tick geometry,
 * the caption). The writers are render_svg.h (text) and render_png.h (cairo); the request parser is
 * ap_render_parse_request below (render_in.c). No HTTP here.
 *
 * Units: tiles, x = column, y = row growing downwards (the map file's order); cell (i, j) spans
 * [i, i+1) x [j, j+1). Headings are radians from +x toward +y, the sense of SVG's and cairo's own angles,
 * so they are drawn unchanged. Colours are the viewer's (server/static/draw.js, viewer.js).
 *
 * Thread safety: no shared state; a request, answer and frame belong to one thread at a time; maps are
 * only read.
 */
#ifndef AP_PROTO_RENDER_H
#define AP_PROTO_RENDER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../planner/base/path.h"
#include "../planner/world/map.h"
#include "errors.h"
#include "wire.h"

/* Drawn coordinates, radii and lengths of an answer are refused beyond this magnitude (tiles): maps are at
 * most 4096 tiles wide, and a bound keeps every number a few characters long in the SVG. */
#define AP_RENDER_COORD_MAX 1e6
/* The longer side of a picture, pixels (the SVG's width/height attributes, the PNG's size), unless that
 * would make a tile larger than AP_RENDER_MAX_TILE_PX pixels. */
#define AP_RENDER_LONG_SIDE_PX 1024.0
#define AP_RENDER_MAX_TILE_PX 32.0
/* Height of the caption strip under the map, pixels. */
#define AP_RENDER_CAPTION_PX 18.0
/* A caption character's width for the picture's width (em, over-estimated: sans-serif fonts such as DejaVu
 * Sans average about 0.55 em a character), and the caption's margin each side (pixels). */
#define AP_RENDER_CAPTION_EM_PER_CHAR 0.62
#define AP_RENDER_CAPTION_MARGIN_PX 4.0
/* Consistency tolerance of a drawn answer (tiles, scaled by 1 + the magnitude compared): a segment starts
 * where the previous one ends, a line is as long as its ends are apart, an arc's ends lie on its circle and
 * its end is its start turned by sweep, headings agree with the points, the answer's length is the segments'
 * sum. The planner's answers agree to about 1e-12. */
#define AP_RENDER_TOLERANCE 1e-6

typedef enum ap_render_format { AP_RENDER_SVG = 0, AP_RENDER_PNG = 1 } ap_render_format;

/* A /v1/path answer to draw (openapi PathFound / PathNotFound), parsed strictly by ap_render_parse_answer.
 * Arrays are malloc'd and owned (ap_render_answer_free). */
typedef struct ap_render_answer {
    int status;               /* AP_OK, AP_NO_PATH or AP_TIMEOUT */
    char map[AP_MAP_ID_MAX];  /* the answer's "map" */
    const char *reason;       /* no_path: "unreachable" / "not_found" / "state_limit" (static), or NULL */
    double grid_cost, length; /* ok only */
    bool clear;               /* ok only */
    ap_segment *segs;         /* ok only: n_segs segments (may be 0) */
    size_t n_segs;
    ap_pose *samples;         /* ok only: the "samples" poses, if any */
    size_t n_samples;
} ap_render_answer;

/* What to draw beside the answer. */
typedef struct ap_render_opts {
    bool has_view;            /* false: the whole map */
    double x0, y0, x1, y1;    /* the view, tiles: 0 <= x0 < x1 <= width, 0 <= y0 < y1 <= height */
    double radius;            /* the unit's radius, tiles (0 = a point unit: no disc, no band) */
    const char *algorithm;    /* for the caption, a static name, or NULL */
    ap_render_format format;
    size_t max_bytes;         /* most bytes of the picture (0 = no cap); over it: AP_E_ANSWER_TOO_LARGE */
} ap_render_opts;

/* A parsed POST /v1/render body: either a query (has_query, the /v1/path body in query) or a map and a
 * stored answer; opts holds view, format, and for a stored answer radius and algorithm (a query's come
 * from the query). */
typedef struct ap_render_request {
    bool has_query;
    ap_path_request query;    /* has_query: parsed as POST /v1/path parses its body (q.map NULL) */
    char map[AP_MAP_ID_MAX];  /* the map to draw (the query's map when has_query) */
    ap_render_answer answer;  /* !has_query: the stored answer */
    ap_render_opts opts;
} ap_render_request;

/* Free the answer's arrays and zero it. NULL is ignored. */
void ap_render_answer_free(ap_render_answer *a);

/* Parse the JSON value ans (borrowed) as a /v1/path answer into *a, strictly: an object with the members of
 * PathFound (status "ok": map, grid_cost, length, clear, waypoints, segments, samples?, stats) or
 * PathNotFound (status "no_path" | "timeout": map, reason?, stats) and no others; segments of type "line"
 * {start, end, heading, length, reverse?} or "arc" {start, end, center, radius, start_heading, sweep,
 * length, reverse?} (reverse, when present, must be true), samples {d, x, y, heading}; stats {expanded,
 * lane?, queue_us?, search_us?}; probe? and capped? only as true, duration_s? >= 0. Numbers finite,
 * coordinates and radii within AP_RENDER_COORD_MAX, radius > 0, an arc's sweep any finite angle (an
 * arc of many turns is drawn as one turn and the rest, ap_render_arc_pieces), a turn's |sweep| <= 2 pi, lengths >= 0, and the
 * geometry consistent to AP_RENDER_TOLERANCE (see there), headings included (a line's heading points from
 * start to end, a reverse one's back; an arc's centre a quarter turn from its start heading toward the
 * steering side), and length the sum of the segments' lengths.
 * prefix names ans in errors ("answer"): a problem is AP_E_INVALID_REQUEST with err->field its dotted path
 * ("answer.segments[3].radius"). On error *a is left empty (nothing to free). Thread-safe. */
int ap_render_parse_answer(json_t *ans, const char *prefix, ap_render_answer *a, ap_wire_error *err);

/* Parse a POST /v1/render body of len bytes: {"query": <a POST /v1/path body>} or {"map", "answer",
 * "radius"?, "algorithm"?}, each with optional "view" {x0, y0, x1, y1} (finite numbers, x0 >= 0, y0 >= 0,
 * x0 < x1, y0 < y1; the map's bounds are checked by ap_render_check_view) and "format" ("svg" default,
 * "png"). The query is read by the very parser of POST /v1/path (ap_wire_parse_path_object), its fields
 * named under "query." in errors; "radius" is 0 .. AP_MAX_UNIT_RADIUS, "algorithm" a name of the
 * algorithm table; both are refused beside "query" (the query says them). Errors as the /v1/path parser's
 * (AP_E_INVALID_JSON with line/col, AP_E_INVALID_REQUEST with field). On AP_OK the caller frees req with
 * ap_render_request_free; on error there is nothing to free. opts.max_bytes is 0 (the caller sets it).
 * Thread-safe. */
int ap_render_parse_request(const char *body, size_t len, ap_render_request *req, ap_wire_error *err);

/* Free what req holds (the stored answer's arrays). NULL is ignored. */
void ap_render_request_free(ap_render_request *req);

/* Check o's view against map m: AP_OK, or AP_E_INVALID_REQUEST naming "view.x1" (or .y1, .x0, .y0) with the
 * allowed range. No view is always AP_OK. Pure. */
int ap_render_check_view(const ap_map *m, const ap_render_opts *o, ap_wire_error *err);

/* ---- the drawing facts both writers share ----------------------------------------------------------- */

/* The picture's frame: the view in tiles, the pixel scale, the caption strip under it. */
typedef struct ap_render_frame {
    double x0, y0, x1, y1; /* the view (the whole map when the options have none) */
    double scale;          /* pixels per tile: AP_RENDER_LONG_SIDE_PX / the longer side, at most
                            * AP_RENDER_MAX_TILE_PX */
    double px;             /* one pixel in tiles (1 / scale): strokes and markers are sized in pixels */
    double caption;        /* the caption strip's height, tiles (AP_RENDER_CAPTION_PX pixels) */
    char caption_text[256]; /* the caption (ap_render_caption), which the picture's width makes room for */
    double width;          /* the picture's width, tiles: the view's, or more where the caption needs it (a
                            * narrow map: the room right of the map is blank, as the caption strip) */
    int width_px, height_px; /* the picture's size in pixels, caption included (rounded up) */
    int cx0, cy0, cx1, cy1;  /* the cells touched by the view: [cx0, cx1) x [cy0, cy1) */
} ap_render_frame;

/* The frame of map m under o's view (o->has_view false: the whole map) for the answer a (NULL: the map
 * alone). The picture is at least as wide as its caption (ap_render_caption) needs, estimated at
 * AP_RENDER_CAPTION_EM_PER_CHAR em a character, up to AP_RENDER_LONG_SIDE_PX pixels (a longer caption is cut
 * at the picture's edge). Pure. */
void ap_render_frame_of(const ap_map *m, const ap_render_answer *a, const ap_render_opts *o, ap_render_frame *f);

/* Pixels per tile of a picture of w x h tiles (w, h > 0): AP_RENDER_LONG_SIDE_PX over the longer side, at
 * most AP_RENDER_MAX_TILE_PX (ap_render_frame.scale; the view parser's one-pixel check). Pure. */
double ap_render_scale(double w, double h);

/* An sRGB colour and its "#rrggbb" text. */
typedef struct ap_render_colour {
    uint8_t r, g, b;
    const char *hex;
} ap_render_colour;

/* The terrain colours, the viewer's: ground/plain ('.', 'G') white, swamp 'S', trees 'T' and water 'W'
 * blocked (dark green, blue) or, when the map's terrain costs make them passable, a light tint;
 * out of bounds ('@', 'O') dark; anything else magenta. AP_RENDER_TERRAIN_COLOURS entries. */
#define AP_RENDER_TERRAIN_COLOURS 8
extern const ap_render_colour ap_render_terrain_colours[AP_RENDER_TERRAIN_COLOURS];

/* The index into ap_render_terrain_colours of the cell (x, y) of m (inside the map). Pure. */
int ap_render_terrain_of(const ap_map *m, int32_t x, int32_t y);

/* The colour index that covers most cells of the frame's rows (the writers paint it once under the whole
 * view and draw only the runs of the others). Pure; one pass over the view's cells. */
int ap_render_dominant_terrain(const ap_map *m, const ap_render_frame *f);

/* Walk the maximal horizontal runs of equal colour within the frame's cells, row by row, left to right:
 * for each run of colour index c (skip: the one index not reported, or -1), fn(ctx, c, x, y, n) for cells
 * [x, x+n) of row y. fn returns 0 to go on, non-zero to stop (returned). Returns 0 when all were walked. */
int ap_render_runs(const ap_map *m, const ap_render_frame *f, int skip,
                   int (*fn)(void *ctx, int colour, int32_t x, int32_t y, int32_t n), void *ctx);

/* Path styles (pixels; the writers convert with frame.px): forward pieces blue, reverse pieces red and
 * dashed (dash, gap), the unit's band the path colour at AP_RENDER_BAND_OPACITY, sample ticks dark. */
#define AP_RENDER_PATH_HEX "#0969da"
#define AP_RENDER_REVERSE_HEX "#cf222e"
#define AP_RENDER_TICK_HEX "#24292f"
#define AP_RENDER_START_HEX "#1a7f37"
#define AP_RENDER_GOAL_HEX "#cf222e"
#define AP_RENDER_BACKGROUND_HEX "#eaeef2"
#define AP_RENDER_PATH_PX 2.5
#define AP_RENDER_TICK_PX 1.2
#define AP_RENDER_TICK_HALF_PX 4.0
#define AP_RENDER_DASH_PX 6.0
#define AP_RENDER_GAP_PX 4.0
#define AP_RENDER_BAND_OPACITY 0.18
#define AP_RENDER_DISC_OPACITY 0.2
#define AP_RENDER_ARROW_PX 26.0
#define AP_RENDER_WING_PX 7.0
#define AP_RENDER_WING_ANGLE 2.6
#define AP_RENDER_DOT_PX 7.0
#define AP_RENDER_RING_PX 8.5
#define AP_RENDER_FONT_PX 12.0

/* A start or goal marker: the pose, and its heading arrow's shaft end and two wing ends (tiles). */
typedef struct ap_render_marker {
    const char *hex;             /* AP_RENDER_START_HEX or AP_RENDER_GOAL_HEX */
    double x, y, heading;
    double ax, ay;               /* shaft end: AP_RENDER_ARROW_PX along the heading */
    double w1x, w1y, w2x, w2y;   /* wing ends: AP_RENDER_WING_PX back from the shaft end, +-2.6 rad */
} ap_render_marker;

/* The start marker (goal false: the first segment's start, facing its start heading) or the goal marker
 * (the last segment's end, facing its end heading) of a with n_segs > 0, sized for px. Pure. */
ap_render_marker ap_render_marker_of(const ap_render_answer *a, bool goal, double px);

/* The end of the run of segments from i that are driven the same way as segments[i] (all forward or all
 * reverse): the writers draw each run as one stroke, solid or dashed. i < a->n_segs. Pure. */
size_t ap_render_same_way_end(const ap_render_answer *a, size_t i);

/* The tick across sample s: a line of half length AP_RENDER_TICK_HALF_PX pixels through (s.x, s.y),
 * perpendicular to its heading: ends (x0, y0) and (x1, y1). Pure. */
void ap_render_tick(const ap_pose *s, double px, double *x0, double *y0, double *x1, double *y1);

/* An arc split into the pieces the writers draw: an arc of |sweep| > 1.5 pi is drawn in equal pieces of at
 * most pi (an SVG arc between nearly coincident ends would be ill-conditioned, and a full turn's ends
 * coincide), and one of more than a full turn (a kinodynamic action of a tight turning radius may loop) as one
 * full turn and the rest; a shorter one as itself. Each piece: end point, signed sweep; the last ends at s's
 * end. Returns the count (1 .. AP_RENDER_ARC_PIECES). Pure. */
#define AP_RENDER_ARC_PIECES 4
typedef struct ap_render_arc_piece {
    double x, y, sweep;
} ap_render_arc_piece;
int ap_render_arc_pieces(const ap_segment *s, ap_render_arc_piece out[AP_RENDER_ARC_PIECES]);

/* The caption (NUL-terminated, cut to cap bytes): for a map alone "<map> <w>×<h>"; for an answer
 * "<map> · <algorithm> · length <L> · clear|not clear" (algorithm left out when NULL, o NULL too) or
 * "<map> · <algorithm> · no_path (<reason>)" / "· timeout". Numbers with 4 decimals. Pure. */
void ap_render_caption(const ap_map *m, const ap_render_answer *a, const ap_render_opts *o, char *buf,
                       size_t cap);

/* Draw map m (and the answer a, NULL for the map alone) as o->format into out (ap_jbuf_init'd by the caller;
 * SVG text or PNG bytes). Returns AP_OK; AP_E_INVALID_REQUEST (err->field "view...") for a view outside
 * the map; AP_E_ANSWER_TOO_LARGE when the picture would pass o->max_bytes; AP_E_NOMEM / AP_E_INTERNAL.
 * Thread-safe. */
int ap_render(const ap_map *m, const ap_render_answer *a, const ap_render_opts *o, ap_jbuf *out,
              ap_wire_error *err);

/* The Content-Type of a format: "image/svg+xml" or "image/png". Pure. */
const char *ap_render_content_type(ap_render_format f);

#endif
