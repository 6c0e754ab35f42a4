/* render_png.h — the PNG writer: the SVG writer's picture drawn with cairo (render.h, render_svg.h). */
#ifndef AP_PROTO_RENDER_PNG_H
#define AP_PROTO_RENDER_PNG_H

#include "render.h"

/* Draw what ap_render_svg describes (the same layers, colours, sizes and arcs) with cairo on an RGB image
 * of f->width_px x f->height_px pixels (at most AP_RENDER_LONG_SIDE_PX on the long side of the view, plus
 * the caption strip) and append it as PNG to out. Terrain runs are filled without antialiasing (so
 * adjacent runs leave no seams), the path with it. Returns AP_OK, AP_E_ANSWER_TOO_LARGE when the PNG passes
 * o->max_bytes (when non-zero), AP_E_NOMEM, or AP_E_INTERNAL when cairo fails. Thread-safe (cairo's image
 * surfaces and toy text API are; each call has its own surface). */
int ap_render_png(const ap_map *m, const ap_render_answer *a, const ap_render_opts *o, const ap_render_frame *f,
                  ap_jbuf *out);

#endif
