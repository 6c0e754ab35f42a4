/* render_svg.c — the SVG writer (render_svg.h). */
#include "render_svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A number with at most 4 decimals, trailing zeros and a bare "-0" dropped: "1.5", "2", "0.0417". */
static void num(ap_jbuf *b, double v)
{
    char t[48];
    double r = round(v * 1e4) / 1e4;
    if (r == 0.0)
        r = 0.0; /* -0 */
    int n = snprintf(t, sizeof t, "%.4f", r);
    while (n > 0 && t[n - 1] == '0')
        n--;
    if (n > 0 && t[n - 1] == '.')
        n--;
    ap_jbuf_raw(b, t, (size_t)n);
}

/* Two numbers "x y". */
static void pt(ap_jbuf *b, double x, double y)
{
    num(b, x);
    AP_JBUF_LIT(b, " ");
    num(b, y);
}

/* An attribute ` name="v"`. */
static void attr(ap_jbuf *b, const char *name, double v)
{
    ap_jbuf_raw(b, " ", 1);
    ap_jbuf_raw(b, name, strlen(name));
    AP_JBUF_LIT(b, "=\"");
    num(b, v);
    AP_JBUF_LIT(b, "\"");
}

/* Text content with &, <, > escaped. */
static void text(ap_jbuf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '&')
            AP_JBUF_LIT(b, "&amp;");
        else if (*s == '<')
            AP_JBUF_LIT(b, "&lt;");
        else if (*s == '>')
            AP_JBUF_LIT(b, "&gt;");
        else
            ap_jbuf_raw(b, s, 1);
    }
}

static bool over(const ap_jbuf *b, const ap_render_opts *o, size_t extra)
{
    return o->max_bytes > 0 && b->len + extra > o->max_bytes;
}

/* ---- terrain -------------------------------------------------------------------------------------------- */

typedef struct runs_ctx {
    ap_jbuf colour[AP_RENDER_TERRAIN_COLOURS]; /* each colour's subpaths */
    size_t total, cap;                         /* bytes in all of them; the cap (0 = none) */
} runs_ctx;

static int add_run(void *ctx, int c, int32_t x, int32_t y, int32_t n)
{
    runs_ctx *rc = ctx;
    ap_jbuf *b = &rc->colour[c];
    size_t before = b->len;
    char t[80];
    int len = snprintf(t, sizeof t, "M%d %dh%dv1h-%dz", (int)x, (int)y, (int)n, (int)n);
    ap_jbuf_raw(b, t, (size_t)len);
    rc->total += b->len - before;
    if (b->failed)
        return AP_E_NOMEM;
    return rc->cap > 0 && rc->total > rc->cap ? AP_E_ANSWER_TOO_LARGE : 0;
}

static int terrain(ap_jbuf *b, const ap_map *m, const ap_render_opts *o, const ap_render_frame *f)
{
    int dom = ap_render_dominant_terrain(m, f);
    AP_JBUF_LIT(b, "<g shape-rendering=\"crispEdges\">\n<rect");
    attr(b, "x", f->x0);
    attr(b, "y", f->y0);
    attr(b, "width", f->x1 - f->x0);
    attr(b, "height", f->y1 - f->y0);
    AP_JBUF_LIT(b, " fill=\"");
    ap_jbuf_raw(b, ap_render_terrain_colours[dom].hex, 7);
    AP_JBUF_LIT(b, "\"/>\n");
    runs_ctx rc;
    memset(&rc, 0, sizeof rc);
    rc.cap = o->max_bytes > 0 ? (o->max_bytes > b->len ? o->max_bytes - b->len : 1) : 0;
    int st = ap_render_runs(m, f, dom, add_run, &rc);
    for (int c = 0; c < AP_RENDER_TERRAIN_COLOURS; c++) {
        if (st == 0 && rc.colour[c].len > 0) {
            AP_JBUF_LIT(b, "<path fill=\"");
            ap_jbuf_raw(b, ap_render_terrain_colours[c].hex, 7);
            AP_JBUF_LIT(b, "\" d=\"");
            ap_jbuf_raw(b, rc.colour[c].p, rc.colour[c].len);
            AP_JBUF_LIT(b, "\"/>\n");
        }
        ap_jbuf_free(&rc.colour[c]);
    }
    AP_JBUF_LIT(b, "</g>\n");
    return st;
}

/* ---- the path ------------------------------------------------------------------------------------------- */

/* The drawing commands of segments [i, j) after an "M" at segs[i]'s start. */
static void seg_cmds(ap_jbuf *b, const ap_segment *segs, size_t i, size_t j)
{
    AP_JBUF_LIT(b, "M");
    pt(b, segs[i].x0, segs[i].y0);
    for (size_t k = i; k < j; k++) {
        const ap_segment *s = &segs[k];
        if (s->type != AP_SEG_ARC) { /* a line, or a turn on the spot (its end is its start) */
            AP_JBUF_LIT(b, "L");
            pt(b, s->x1, s->y1);
            continue;
        }
        ap_render_arc_piece pc[AP_RENDER_ARC_PIECES];
        int n = ap_render_arc_pieces(s, pc);
        for (int p = 0; p < n; p++) {
            AP_JBUF_LIT(b, "A");
            pt(b, s->radius, s->radius);
            AP_JBUF_LIT(b, " 0 ");
            ap_jbuf_raw(b, fabs(pc[p].sweep) > M_PI ? "1 " : "0 ", 2);
            ap_jbuf_raw(b, pc[p].sweep > 0.0 ? "1 " : "0 ", 2);
            pt(b, pc[p].x, pc[p].y);
        }
    }
}

static void path(ap_jbuf *b, const ap_render_answer *a, const ap_render_opts *o, const ap_render_frame *f)
{
    AP_JBUF_LIT(b, "<g fill=\"none\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n");
    if (o->radius > 0.0) {
        AP_JBUF_LIT(b, "<path d=\"");
        seg_cmds(b, a->segs, 0, a->n_segs);
        AP_JBUF_LIT(b, "\" stroke=\"" AP_RENDER_PATH_HEX "\"");
        attr(b, "stroke-opacity", AP_RENDER_BAND_OPACITY);
        attr(b, "stroke-width", 2.0 * o->radius);
        AP_JBUF_LIT(b, "/>\n");
    }
    for (size_t i = 0; i < a->n_segs;) {
        size_t j = ap_render_same_way_end(a, i);
        bool rev = a->segs[i].reverse;
        AP_JBUF_LIT(b, "<path d=\"");
        seg_cmds(b, a->segs, i, j);
        if (rev)
            AP_JBUF_LIT(b, "\" stroke=\"" AP_RENDER_REVERSE_HEX "\"");
        else
            AP_JBUF_LIT(b, "\" stroke=\"" AP_RENDER_PATH_HEX "\"");
        attr(b, "stroke-width", AP_RENDER_PATH_PX * f->px);
        if (rev) {
            AP_JBUF_LIT(b, " stroke-dasharray=\"");
            pt(b, AP_RENDER_DASH_PX * f->px, AP_RENDER_GAP_PX * f->px);
            AP_JBUF_LIT(b, "\"");
        }
        AP_JBUF_LIT(b, "/>\n");
        i = j;
    }
    if (a->n_samples > 0) {
        AP_JBUF_LIT(b, "<path d=\"");
        for (size_t i = 0; i < a->n_samples; i++) {
            double x0, y0, x1, y1;
            ap_render_tick(&a->samples[i], f->px, &x0, &y0, &x1, &y1);
            AP_JBUF_LIT(b, "M");
            pt(b, x0, y0);
            AP_JBUF_LIT(b, "L");
            pt(b, x1, y1);
        }
        AP_JBUF_LIT(b, "\" stroke=\"" AP_RENDER_TICK_HEX "\"");
        attr(b, "stroke-width", AP_RENDER_TICK_PX * f->px);
        AP_JBUF_LIT(b, "/>\n");
    }
    AP_JBUF_LIT(b, "</g>\n");
}

static void circle(ap_jbuf *b, double x, double y, double r, const char *fill, double opacity)
{
    AP_JBUF_LIT(b, "<circle");
    attr(b, "cx", x);
    attr(b, "cy", y);
    attr(b, "r", r);
    AP_JBUF_LIT(b, " fill=\"");
    ap_jbuf_raw(b, fill, strlen(fill));
    AP_JBUF_LIT(b, "\"");
    if (opacity < 1.0)
        attr(b, "fill-opacity", opacity);
    AP_JBUF_LIT(b, "/>\n");
}

static void marker(ap_jbuf *b, const ap_render_answer *a, bool goal, const ap_render_opts *o,
                   const ap_render_frame *f)
{
    ap_render_marker k = ap_render_marker_of(a, goal, f->px);
    const char *colour = k.hex;
    if (o->radius > 0.0)
        circle(b, k.x, k.y, o->radius, colour, AP_RENDER_DISC_OPACITY);
    AP_JBUF_LIT(b, "<path d=\"M");
    pt(b, k.x, k.y);
    AP_JBUF_LIT(b, "L");
    pt(b, k.ax, k.ay);
    AP_JBUF_LIT(b, "M");
    pt(b, k.w1x, k.w1y);
    AP_JBUF_LIT(b, "L");
    pt(b, k.ax, k.ay);
    AP_JBUF_LIT(b, "L");
    pt(b, k.w2x, k.w2y);
    AP_JBUF_LIT(b, "\" fill=\"none\" stroke=\"");
    ap_jbuf_raw(b, colour, strlen(colour));
    AP_JBUF_LIT(b, "\"");
    attr(b, "stroke-width", AP_RENDER_PATH_PX * f->px);
    AP_JBUF_LIT(b, " stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n");
    circle(b, k.x, k.y, AP_RENDER_RING_PX * f->px, "#ffffff", 1.0);
    circle(b, k.x, k.y, AP_RENDER_DOT_PX * f->px, colour, 1.0);
    AP_JBUF_LIT(b, "<text");
    attr(b, "x", k.x);
    attr(b, "y", k.y);
    attr(b, "font-size", 10.0 * f->px);
    AP_JBUF_LIT(b, " font-family=\"sans-serif\" font-weight=\"bold\" fill=\"#ffffff\" text-anchor=\"middle\" "
                   "dominant-baseline=\"central\">");
    ap_jbuf_raw(b, goal ? "G" : "S", 1);
    AP_JBUF_LIT(b, "</text>\n");
}

int ap_render_svg(const ap_map *m, const ap_render_answer *a, const ap_render_opts *o, const ap_render_frame *f,
                  ap_jbuf *out)
{
    const char *cap = f->caption_text;
    double w = f->x1 - f->x0, h = f->y1 - f->y0;
    AP_JBUF_LIT(out, "<svg xmlns=\"http://www.w3.org/2000/svg\"");
    attr(out, "width", f->width_px);
    attr(out, "height", f->height_px);
    AP_JBUF_LIT(out, " viewBox=\"");
    pt(out, f->x0, f->y0);
    AP_JBUF_LIT(out, " ");
    pt(out, f->width, h + f->caption);
    AP_JBUF_LIT(out, "\">\n<title>");
    text(out, cap);
    AP_JBUF_LIT(out, "</title>\n");
    int st = terrain(out, m, o, f);
    if (st != AP_OK)
        return st;
    if (a != NULL && a->status == AP_OK && a->n_segs > 0) {
        path(out, a, o, f);
        marker(out, a, false, o, f);
        marker(out, a, true, o, f);
    }
    if (f->width > w) { /* a map narrower than its caption: the room right of it is blank, as the strip */
        AP_JBUF_LIT(out, "<rect");
        attr(out, "x", f->x1);
        attr(out, "y", f->y0);
        attr(out, "width", f->width - w);
        attr(out, "height", h);
        AP_JBUF_LIT(out, " fill=\"#ffffff\"/>\n");
    }
    AP_JBUF_LIT(out, "<rect");
    attr(out, "x", f->x0);
    attr(out, "y", f->y1);
    attr(out, "width", f->width);
    attr(out, "height", f->caption);
    AP_JBUF_LIT(out, " fill=\"#ffffff\"/>\n<text");
    attr(out, "x", f->x0 + 4.0 * f->px);
    attr(out, "y", f->y1 + 13.0 * f->px);
    attr(out, "font-size", AP_RENDER_FONT_PX * f->px);
    AP_JBUF_LIT(out, " font-family=\"sans-serif\" fill=\"" AP_RENDER_TICK_HEX "\">");
    text(out, cap);
    AP_JBUF_LIT(out, "</text>\n</svg>\n");
    if (out->failed)
        return AP_E_NOMEM;
    return over(out, o, 0) ? AP_E_ANSWER_TOO_LARGE : AP_OK;
}
