/* render.c — the drawing facts the SVG and PNG writers share, and the dispatch between them (render.h). */
#include "render.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_png.h"
#include "render_svg.h"

const ap_render_colour ap_render_terrain_colours[AP_RENDER_TERRAIN_COLOURS] = {
    {255, 255, 255, "#ffffff"}, /* 0 ground '.', 'G' */
    {214, 232, 196, "#d6e8c4"}, /* 1 swamp 'S' */
    {46, 125, 50, "#2e7d32"},   /* 2 trees 'T', blocked */
    {190, 222, 190, "#bedebe"}, /* 3 trees made passable by the map's terrain costs */
    {120, 160, 215, "#78a0d7"}, /* 4 water 'W', blocked */
    {200, 220, 245, "#c8dcf5"}, /* 5 water made passable */
    {36, 41, 47, "#24292f"},    /* 6 out of bounds '@', 'O' */
    {255, 0, 255, "#ff00ff"},   /* 7 a letter the loader should not have let in */
};

int ap_render_terrain_of(const ap_map *m, int32_t x, int32_t y)
{
    switch (m->terrain[(size_t)y * (size_t)m->width + (size_t)x]) {
    case '.':
    case 'G':
        return 0;
    case 'S':
        return 1;
    case 'T':
        return m->cost_of[3] > 0.0 ? 3 : 2;
    case 'W':
        return m->cost_of[4] > 0.0 ? 5 : 4;
    case '@':
    case 'O':
        return 6;
    default:
        return 7;
    }
}

double ap_render_scale(double w, double h)
{
    double scale = AP_RENDER_LONG_SIDE_PX / (w > h ? w : h);
    return scale < AP_RENDER_MAX_TILE_PX ? scale : AP_RENDER_MAX_TILE_PX;
}

/* Characters (UTF-8 code points) of s. */
static size_t code_points(const char *s)
{
    size_t n = 0;
    for (; *s != '\0'; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

void ap_render_frame_of(const ap_map *m, const ap_render_answer *a, const ap_render_opts *o, ap_render_frame *f)
{
    memset(f, 0, sizeof *f);
    if (o != NULL && o->has_view) {
        f->x0 = o->x0, f->y0 = o->y0, f->x1 = o->x1, f->y1 = o->y1;
    } else {
        f->x1 = m->width, f->y1 = m->height;
    }
    double w = f->x1 - f->x0, h = f->y1 - f->y0;
    f->scale = ap_render_scale(w, h);
    f->px = 1.0 / f->scale;
    f->caption = AP_RENDER_CAPTION_PX * f->px;
    ap_render_caption(m, a, o, f->caption_text, sizeof f->caption_text);
    double cap_px = (double)code_points(f->caption_text) * AP_RENDER_CAPTION_EM_PER_CHAR * AP_RENDER_FONT_PX +
                    2.0 * AP_RENDER_CAPTION_MARGIN_PX;
    if (cap_px > AP_RENDER_LONG_SIDE_PX)
        cap_px = AP_RENDER_LONG_SIDE_PX;
    f->width = fmax(w, cap_px * f->px);
    f->width_px = (int)ceil(f->width * f->scale - 1e-9);
    f->height_px = (int)ceil((h + f->caption) * f->scale - 1e-9);
    f->cx0 = (int)floor(f->x0), f->cy0 = (int)floor(f->y0);
    f->cx1 = (int)ceil(f->x1), f->cy1 = (int)ceil(f->y1);
}

int ap_render_dominant_terrain(const ap_map *m, const ap_render_frame *f)
{
    size_t count[AP_RENDER_TERRAIN_COLOURS] = {0};
    for (int32_t y = f->cy0; y < f->cy1; y++)
        for (int32_t x = f->cx0; x < f->cx1; x++)
            count[ap_render_terrain_of(m, x, y)]++;
    int best = 0;
    for (int c = 1; c < AP_RENDER_TERRAIN_COLOURS; c++)
        if (count[c] > count[best])
            best = c;
    return best;
}

int ap_render_runs(const ap_map *m, const ap_render_frame *f, int skip,
                   int (*fn)(void *ctx, int colour, int32_t x, int32_t y, int32_t n), void *ctx)
{
    for (int32_t y = f->cy0; y < f->cy1; y++) {
        int32_t x = f->cx0;
        while (x < f->cx1) {
            int c = ap_render_terrain_of(m, x, y);
            int32_t end = x + 1;
            while (end < f->cx1 && ap_render_terrain_of(m, end, y) == c)
                end++;
            if (c != skip) {
                int rc = fn(ctx, c, x, y, end - x);
                if (rc != 0)
                    return rc;
            }
            x = end;
        }
    }
    return 0;
}

ap_render_marker ap_render_marker_of(const ap_render_answer *a, bool goal, double px)
{
    ap_render_marker k;
    const ap_segment *s = goal ? &a->segs[a->n_segs - 1] : &a->segs[0];
    k.x = goal ? s->x1 : s->x0;
    k.y = goal ? s->y1 : s->y0;
    k.heading = goal ? ap_segment_end_heading(s) : s->heading;
    k.hex = goal ? AP_RENDER_GOAL_HEX : AP_RENDER_START_HEX;
    double len = AP_RENDER_ARROW_PX * px, wing = AP_RENDER_WING_PX * px;
    k.ax = k.x + cos(k.heading) * len;
    k.ay = k.y + sin(k.heading) * len;
    k.w1x = k.ax + cos(k.heading + AP_RENDER_WING_ANGLE) * wing;
    k.w1y = k.ay + sin(k.heading + AP_RENDER_WING_ANGLE) * wing;
    k.w2x = k.ax + cos(k.heading - AP_RENDER_WING_ANGLE) * wing;
    k.w2y = k.ay + sin(k.heading - AP_RENDER_WING_ANGLE) * wing;
    return k;
}

size_t ap_render_same_way_end(const ap_render_answer *a, size_t i)
{
    size_t j = i + 1;
    while (j < a->n_segs && a->segs[j].reverse == a->segs[i].reverse)
        j++;
    return j;
}

void ap_render_tick(const ap_pose *s, double px, double *x0, double *y0, double *x1, double *y1)
{
    double half = AP_RENDER_TICK_HALF_PX * px;
    double nx = -sin(s->heading) * half, ny = cos(s->heading) * half;
    *x0 = s->x - nx, *y0 = s->y - ny;
    *x1 = s->x + nx, *y1 = s->y + ny;
}

int ap_render_arc_pieces(const ap_segment *s, ap_render_arc_piece out[AP_RENDER_ARC_PIECES])
{
    if (fabs(s->sweep) <= 1.5 * M_PI) {
        out[0] = (ap_render_arc_piece){s->x1, s->y1, s->sweep};
        return 1;
    }
    /* More than a full turn looks like one full turn and the rest: the loops draw over each other. */
    const double side = s->sweep > 0.0 ? 1.0 : -1.0;
    double drawn = fabs(s->sweep);
    if (drawn > 2.0 * M_PI)
        drawn = 2.0 * M_PI + fmod(drawn, 2.0 * M_PI);
    /* Equal pieces of at most pi (at most 4); the angle of the start seen from the centre turns with the
     * heading, forward or reverse alike. The last piece ends at the segment's own end. */
    const int n = (int)ceil(drawn / M_PI - 1e-12);
    const double a0 = atan2(s->y0 - s->cy, s->x0 - s->cx), step = side * drawn / n;
    for (int i = 0; i < n; i++) {
        const double a = a0 + step * (i + 1);
        out[i] = (ap_render_arc_piece){s->cx + s->radius * cos(a), s->cy + s->radius * sin(a), step};
    }
    out[n - 1].x = s->x1;
    out[n - 1].y = s->y1;
    return n;
}

void ap_render_caption(const ap_map *m, const ap_render_answer *a, const ap_render_opts *o, char *buf,
                       size_t cap)
{
    if (a == NULL) {
        snprintf(buf, cap, "%s %d\u00d7%d", m->id, (int)m->width, (int)m->height);
        return;
    }
    char alg[48] = "";
    if (o != NULL && o->algorithm != NULL)
        snprintf(alg, sizeof alg, " \u00b7 %s", o->algorithm);
    if (a->status == AP_OK)
        snprintf(buf, cap, "%s%s \u00b7 length %.4f \u00b7 %s", m->id, alg, a->length, a->clear ? "clear" : "not clear");
    else if (a->status == AP_NO_PATH && a->reason != NULL)
        snprintf(buf, cap, "%s%s \u00b7 no_path (%s)", m->id, alg, a->reason);
    else
        snprintf(buf, cap, "%s%s \u00b7 %s", m->id, alg, a->status == AP_NO_PATH ? "no_path" : "timeout");
}

int ap_render(const ap_map *m, const ap_render_answer *a, const ap_render_opts *o, ap_jbuf *out,
              ap_wire_error *err)
{
    memset(err, 0, sizeof *err);
    int st = ap_render_check_view(m, o, err);
    if (st != AP_OK)
        return st;
    ap_render_frame f;
    ap_render_frame_of(m, a, o, &f);
    st = o->format == AP_RENDER_PNG ? ap_render_png(m, a, o, &f, out) : ap_render_svg(m, a, o, &f, out);
    if (st == AP_E_ANSWER_TOO_LARGE)
        snprintf(err->message, sizeof err->message,
                 "the picture would exceed %zu bytes (max_answer_bytes): draw a smaller \"view\" (POST /v1/render)",
                 o->max_bytes);
    err->status = st;
    return st;
}

const char *ap_render_content_type(ap_render_format f)
{
    return f == AP_RENDER_PNG ? "image/png" : "image/svg+xml";
}
