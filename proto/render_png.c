/* render_png.c — the PNG writer (render_png.h), drawn with cairo (https://www.cairographics.org/manual/):
 * user space is set to tiles (scale, then translate by the view's corner), so every coordinate is the
 * SVG writer's; cairo_arc draws toward increasing angles (+x toward +y), cairo_arc_negative the other way,
 * which is SVG's sweep flag 1 / 0. */
#include "render_png.h"

#include <cairo.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

static void colour(cairo_t *cr, const char *hex, double alpha)
{
    unsigned v = 0;
    for (int i = 1; i < 7; i++) {
        char c = hex[i];
        v = v * 16u + (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
    }
    cairo_set_source_rgba(cr, ((v >> 16) & 255) / 255.0, ((v >> 8) & 255) / 255.0, (v & 255) / 255.0, alpha);
}

static int fill_run(void *ctx, int c, int32_t x, int32_t y, int32_t n)
{
    cairo_t *cr = ctx;
    const ap_render_colour *k = &ap_render_terrain_colours[c];
    cairo_set_source_rgb(cr, k->r / 255.0, k->g / 255.0, k->b / 255.0);
    cairo_rectangle(cr, x, y, n, 1);
    cairo_fill(cr);
    return 0;
}

/* Device coordinates cairo keeps exactly: it stores them in 24.8 fixed point, and a stroke reaching past
 * 2^23 pixels was dropped whole (a stored answer's line from (3.5, 3.5) to (300000, 3.5) drew nothing at 32
 * pixels a tile, where the SVG drew it: a helper). Geometry within AP_PNG_SAFE_PX of the picture's corner
 * is drawn as it is (every answer of a map: the same bytes as before); what reaches farther is clipped to
 * the view first, widened by the strokes' reach. */
#define AP_PNG_SAFE_PX 2097152.0

/* The frame and the widened view a far piece is clipped to (tiles). */
typedef struct clip_box {
    const ap_render_frame *f;
    double x0, y0, x1, y1;
} clip_box;

/* Is (x, y) within AP_PNG_SAFE_PX of the picture's corner, r tiles around it included? */
static bool near_px(const ap_render_frame *f, double x, double y, double r)
{
    const double lim = AP_PNG_SAFE_PX / f->scale;
    return fabs(x - f->x0) + r < lim && fabs(y - f->y0) + r < lim;
}

/* The part of the line (ax, ay)-(bx, by) inside box b (Liang-Barsky) added to the path: a move to its start
 * unless the pen is there, a line to its end. Returns whether the pen ends at (bx, by). */
static bool clipped_line(cairo_t *cr, const clip_box *b, double ax, double ay, double bx, double by, bool pen_at_a)
{
    double t0 = 0.0, t1 = 1.0;
    const double dx = bx - ax, dy = by - ay;
    const double p[4] = {-dx, dx, -dy, dy}, q[4] = {ax - b->x0, b->x1 - ax, ay - b->y0, b->y1 - ay};
    for (int k = 0; k < 4; k++) {
        if (p[k] == 0.0) {
            if (q[k] < 0.0)
                return false;
            continue;
        }
        const double t = q[k] / p[k];
        if (p[k] < 0.0)
            t0 = fmax(t0, t);
        else
            t1 = fmin(t1, t);
        if (t0 > t1)
            return false;
    }
    if (!(pen_at_a && t0 == 0.0))
        cairo_move_to(cr, ax + t0 * dx, ay + t0 * dy);
    cairo_line_to(cr, ax + t1 * dx, ay + t1 * dy);
    return t1 == 1.0;
}

/* A far arc (near_px false for its circle) as chords at most 0.1 pixels from it, each clipped to b; the
 * chords of a circle of 1e6 tiles at 32 pixels a tile are 1.6e-4 rad apart, some 79,000 for the two turns
 * an arc is drawn with at most. Returns whether the pen ends at the arc's end. */
static bool clipped_arc(cairo_t *cr, const clip_box *b, const ap_segment *s, double a, double sweep, bool pen)
{
    const double rpx = s->radius * b->f->scale;
    const double step = rpx > 0.1 ? 2.0 * acos(1.0 - 0.1 / rpx) : M_PI / 2.0;
    const int n = (int)fmin(ceil(fabs(sweep) / fmin(step, M_PI / 2.0)), 1 << 20);
    double px = s->cx + s->radius * cos(a), py = s->cy + s->radius * sin(a);
    for (int k = 1; k <= n; k++) {
        const double t = a + sweep * k / n, x = s->cx + s->radius * cos(t), y = s->cy + s->radius * sin(t);
        pen = clipped_line(cr, b, px, py, x, y, pen);
        px = x;
        py = y;
    }
    return pen;
}

/* The path of segments [i, j) (see render_svg.c seg_cmds): lines, and arcs about their centres from the
 * start's angle through sweep; pieces reaching past AP_PNG_SAFE_PX clipped to the view widened by reach
 * tiles (the widest stroke's half width and more). */
static void seg_path(cairo_t *cr, const ap_segment *segs, size_t i, size_t j, const ap_render_frame *f, double reach)
{
    const clip_box b = {f, f->x0 - reach, f->y0 - reach, f->x1 + reach, f->y1 + reach};
    bool pen = false; /* the pen is at segs[k]'s start */
    for (size_t k = i; k < j; k++) {
        const ap_segment *s = &segs[k];
        const bool is_arc = s->type == AP_SEG_ARC;
        const bool near = is_arc ? near_px(f, s->cx, s->cy, s->radius)
                                 : near_px(f, s->x0, s->y0, 0.0) && near_px(f, s->x1, s->y1, 0.0);
        if (!near) {
            if (!is_arc) {
                pen = clipped_line(cr, &b, s->x0, s->y0, s->x1, s->y1, pen);
                continue;
            }
            ap_render_arc_piece pc[AP_RENDER_ARC_PIECES];
            const int n = ap_render_arc_pieces(s, pc);
            double a = atan2(s->y0 - s->cy, s->x0 - s->cx);
            for (int p = 0; p < n; p++) {
                pen = clipped_arc(cr, &b, s, a, pc[p].sweep, pen);
                a += pc[p].sweep;
            }
            if (pen && near_px(f, s->x1, s->y1, 0.0))
                cairo_line_to(cr, s->x1, s->y1);
            else
                pen = false;
            continue;
        }
        if (!pen)
            cairo_move_to(cr, s->x0, s->y0);
        pen = true;
        if (!is_arc) { /* a line, or a turn on the spot (its end is its start) */
            cairo_line_to(cr, s->x1, s->y1);
            continue;
        }
        /* the SVG writer's pieces: an arc of many turns is drawn as one turn and the rest (cairo would stroke
         * every turn: a stored answer of sweep 30,000 held a worker for 81 s) */
        ap_render_arc_piece pc[AP_RENDER_ARC_PIECES];
        const int n = ap_render_arc_pieces(s, pc);
        double a = atan2(s->y0 - s->cy, s->x0 - s->cx);
        for (int p = 0; p < n; p++) {
            if (pc[p].sweep > 0.0)
                cairo_arc(cr, s->cx, s->cy, s->radius, a, a + pc[p].sweep);
            else
                cairo_arc_negative(cr, s->cx, s->cy, s->radius, a, a + pc[p].sweep);
            a += pc[p].sweep;
        }
        cairo_line_to(cr, s->x1, s->y1); /* the answer's own end, a rounding away */
    }
}

static void disc(cairo_t *cr, double x, double y, double r, const char *hex, double alpha)
{
    cairo_new_path(cr);
    cairo_arc(cr, x, y, r, 0.0, 2.0 * M_PI);
    colour(cr, hex, alpha);
    cairo_fill(cr);
}

static void draw_path(cairo_t *cr, const ap_render_answer *a, const ap_render_opts *o, const ap_render_frame *f)
{
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    const double reach = o->radius + 16.0 * f->px; /* the band's half width, the line's, the round caps */
    if (o->radius > 0.0) {
        seg_path(cr, a->segs, 0, a->n_segs, f, reach);
        colour(cr, AP_RENDER_PATH_HEX, AP_RENDER_BAND_OPACITY);
        cairo_set_line_width(cr, 2.0 * o->radius);
        cairo_stroke(cr);
    }
    for (size_t i = 0; i < a->n_segs;) {
        size_t j = ap_render_same_way_end(a, i);
        bool rev = a->segs[i].reverse;
        double dash[2] = {AP_RENDER_DASH_PX * f->px, AP_RENDER_GAP_PX * f->px};
        cairo_set_dash(cr, dash, rev ? 2 : 0, 0.0);
        seg_path(cr, a->segs, i, j, f, reach);
        colour(cr, rev ? AP_RENDER_REVERSE_HEX : AP_RENDER_PATH_HEX, 1.0);
        cairo_set_line_width(cr, AP_RENDER_PATH_PX * f->px);
        cairo_stroke(cr);
        i = j;
    }
    cairo_set_dash(cr, NULL, 0, 0.0);
    for (size_t i = 0; i < a->n_samples; i++) {
        double x0, y0, x1, y1;
        if (!near_px(f, a->samples[i].x, a->samples[i].y, 0.0))
            continue; /* (far off the view: not drawn there either) */
        ap_render_tick(&a->samples[i], f->px, &x0, &y0, &x1, &y1);
        cairo_move_to(cr, x0, y0);
        cairo_line_to(cr, x1, y1);
    }
    colour(cr, AP_RENDER_TICK_HEX, 1.0);
    cairo_set_line_width(cr, AP_RENDER_TICK_PX * f->px);
    cairo_stroke(cr);
}

static void draw_marker(cairo_t *cr, const ap_render_answer *a, bool goal, const ap_render_opts *o,
                        const ap_render_frame *f)
{
    ap_render_marker k = ap_render_marker_of(a, goal, f->px);
    if (!near_px(f, k.x, k.y, o->radius + 20.0 * f->px))
        return; /* far off the view: nothing of it would show */
    const char *hex = k.hex;
    if (o->radius > 0.0)
        disc(cr, k.x, k.y, o->radius, hex, AP_RENDER_DISC_OPACITY);
    cairo_new_path(cr);
    cairo_move_to(cr, k.x, k.y);
    cairo_line_to(cr, k.ax, k.ay);
    cairo_move_to(cr, k.w1x, k.w1y);
    cairo_line_to(cr, k.ax, k.ay);
    cairo_line_to(cr, k.w2x, k.w2y);
    colour(cr, hex, 1.0);
    cairo_set_line_width(cr, AP_RENDER_PATH_PX * f->px);
    cairo_stroke(cr);
    disc(cr, k.x, k.y, AP_RENDER_RING_PX * f->px, "#ffffff", 1.0);
    disc(cr, k.x, k.y, AP_RENDER_DOT_PX * f->px, hex, 1.0);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 10.0 * f->px);
    cairo_text_extents_t te;
    const char *letter = goal ? "G" : "S";
    cairo_text_extents(cr, letter, &te);
    cairo_move_to(cr, k.x - te.width / 2.0 - te.x_bearing, k.y - te.height / 2.0 - te.y_bearing);
    colour(cr, "#ffffff", 1.0);
    cairo_show_text(cr, letter);
}

static cairo_status_t write_png(void *closure, const unsigned char *data, unsigned int length)
{
    ap_jbuf *b = closure;
    ap_jbuf_raw(b, (const char *)data, length);
    return b->failed ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

int ap_render_png(const ap_map *m, const ap_render_answer *a, const ap_render_opts *o, const ap_render_frame *f,
                  ap_jbuf *out)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, f->width_px, f->height_px);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return AP_E_NOMEM;
    }
    cairo_t *cr = cairo_create(s);
    cairo_scale(cr, f->scale, f->scale);
    cairo_translate(cr, -f->x0, -f->y0);
    colour(cr, "#ffffff", 1.0);
    cairo_paint(cr); /* the caption strip, and the room right of a map narrower than its caption */
    cairo_save(cr);
    cairo_rectangle(cr, f->x0, f->y0, f->x1 - f->x0, f->y1 - f->y0);
    cairo_clip(cr);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    const ap_render_colour *dom = &ap_render_terrain_colours[ap_render_dominant_terrain(m, f)];
    cairo_set_source_rgb(cr, dom->r / 255.0, dom->g / 255.0, dom->b / 255.0);
    cairo_paint(cr);
    ap_render_runs(m, f, (int)(dom - ap_render_terrain_colours), fill_run, cr);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
    if (a != NULL && a->status == AP_OK && a->n_segs > 0) {
        draw_path(cr, a, o, f);
        draw_marker(cr, a, false, o, f);
        draw_marker(cr, a, true, o, f);
    }
    cairo_restore(cr);
    const char *cap = f->caption_text;
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, AP_RENDER_FONT_PX * f->px);
    cairo_move_to(cr, f->x0 + 4.0 * f->px, f->y1 + 13.0 * f->px);
    colour(cr, AP_RENDER_TICK_HEX, 1.0);
    cairo_show_text(cr, cap);
    cairo_status_t cs = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    if (cs == CAIRO_STATUS_SUCCESS)
        cs = cairo_surface_write_to_png_stream(s, write_png, out);
    cairo_surface_destroy(s);
    if (out->failed)
        return AP_E_NOMEM;
    if (cs != CAIRO_STATUS_SUCCESS)
        return cs == CAIRO_STATUS_NO_MEMORY ? AP_E_NOMEM : AP_E_INTERNAL;
    return o->max_bytes > 0 && out->len > o->max_bytes ? AP_E_ANSWER_TOO_LARGE : AP_OK;
}
