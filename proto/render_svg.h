/* render_svg.h — the SVG writer: a map, and optionally a path answer on it, as SVG text (render.h). */
#ifndef AP_PROTO_RENDER_SVG_H
#define AP_PROTO_RENDER_SVG_H

#include "render.h"

/* Write map m (its frame f, from ap_render_frame_of) and the answer a (NULL: the map alone) as one SVG
 * document into out. One user unit is one tile: the viewBox is the view (plus the caption strip below it),
 * width and height are f's pixels. Layers, bottom to top:
 *   - terrain: the view filled with its most common colour, then one <path> per other colour whose
 *     subpaths are that colour's maximal horizontal runs ("M x y h n v 1 h -n z"; crisp edges);
 *   - the unit's band (radius > 0): the whole path stroked 2 * radius wide, translucent;
 *   - the path: one <path> per run of segments driven the same way, lines as "L x y", arcs as
 *     "A r r 0 large sweep x y" with large = |sweep| > pi and sweep = 1 when the answer's sweep is > 0 (the
 *     heading increases: SVG's positive-angle direction, +x toward +y, clockwise on screen), arcs beyond
 *     1.5 pi in two halves (ap_render_arc_pieces); reverse pieces red and dashed;
 *   - sample ticks across the heading; start (green, "S") and goal (red, "G") markers with heading arrows
 *     and, for radius > 0, the unit's disc;
 *   - the caption (ap_render_caption) in a white strip under the view.
 * Numbers are written with at most 4 decimals (trailing zeros dropped). Returns AP_OK,
 * AP_E_ANSWER_TOO_LARGE as soon as out passes o->max_bytes (when non-zero), or AP_E_NOMEM. Thread-safe. */
int ap_render_svg(const ap_map *m, const ap_render_answer *a, const ap_render_opts *o, const ap_render_frame *f,
                  ap_jbuf *out);

#endif
