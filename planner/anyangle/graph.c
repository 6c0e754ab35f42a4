/* graph.c — hug-circle sets and their line-of-sight tests for circle worlds and grid maps (graph.h).
 *
 * Source: Red Blob Games, "Circular Obstacle Pathfinding", "Minkowski expansion": the unit's radius is added
 * to every obstacle and the unit planned as a point. For grids the obstacles' convex corners are the circles
 * (the observation: a disc's shortest path among squares hugs circles of radius r_u around them).
 */
#include "graph.h"

#include <math.h>
#include <stdlib.h>

#include "../base/status.h"
#include "../search/search.h"
#include "../world/collide.h"
#include "../base/mem.h"
#include "landmarks.h"
#include "visibility.h"

/* The world a graph's tests read, and the radius they run at. */
typedef struct space_ctx {
    const ap_circle_world *cw; /* circle world, or NULL */
    const ap_map *m;           /* grid map, or NULL */
    double r;                  /* circle world: r_u; grid: r_u - AP_AA_GRID_TOL (r_u > 0) */
    double r_cw;               /* a grid with extra circles (ap_aa_graph_grid_circles): r_u for cw */
    bool disc;                 /* a grid with extra circles: r_u > 0 */
} space_ctx;

/* Circle world: a point unit by the point rule (circles.h: touching allowed, no squeeze through a gap of
 * width 0), a disc by the closure test at r_u. A disc of radius up to the tolerance counts as a point: the
 * closure test's -EPS would let it through a gap of width 0 that no larger disc passes. */
static bool circles_line_ok(const void *ctx, double ax, double ay, double bx, double by)
{
    const space_ctx *c = ctx;
    if (c->r <= AP_CIRCLES_EPS)
        return ap_circle_world_point_line_ok(c->cw, ax, ay, bx, by, NULL, NULL);
    return ap_circle_world_line_tol(c->cw, ax, ay, bx, by, c->r, -AP_CIRCLES_EPS);
}

static bool circles_arc_ok(const void *ctx, const ap_segment *s)
{
    const space_ctx *c = ctx;
    if (c->r <= AP_CIRCLES_EPS)
        return ap_circle_world_point_segment_ok(c->cw, s, NULL, NULL);
    return ap_circle_world_segment_tol(c->cw, s, c->r, -AP_CIRCLES_EPS);
}

static bool disc_line_ok(const void *ctx, double ax, double ay, double bx, double by)
{
    const space_ctx *c = ctx;
    return ap_line_clear(c->m, ax, ay, bx, by, c->r);
}

static bool disc_arc_ok(const void *ctx, const ap_segment *s)
{
    const space_ctx *c = ctx;
    return ap_segment_clear(c->m, s, c->r);
}

static bool point_line_ok(const void *ctx, double ax, double ay, double bx, double by)
{
    const space_ctx *c = ctx;
    return ap_aa_grid_point_line_ok(c->m, ax, ay, bx, by);
}

/* A point unit's hug circles have radius 0, so its paths have no arcs: an arc is never usable. */
static bool point_arc_ok(const void *ctx, const ap_segment *s)
{
    return false;
}

/* A grid with extra circles: both worlds' tests. For a point unit the circles' point rule, and no squeeze
 * between a circle and a blocked square either (a line within 1e-9 of both on opposite sides, where the
 * circle touches the square); the grid part of its arc is collide.c's strict test at radius 0 less its ends
 * (an arc round an extra circle may not touch a blocked square but at its ends: conservative, the point rule
 * has no arc form). */
/* Is point (x, y) where an extra circle touches a blocked square's side (or the map's edge) from outside:
 * the circle's outward normal there square to a grid line it lies on, with blocked squares all along that
 * line beside the point on the far side? Or where it touches a blocked square's corner (the point is that
 * corner)? A gap of width 0, as two touching circles (circles.h's point rule): the point is not usable. A
 * helper's start (43, 9) beside a wall at x = 43 with obstacle (44, 9, 1) was taken, and every line from it
 * refused: no_path "unreachable" instead of start_blocked. Touching a corner across it, the free wedges
 * beside the contact looked usable, but every line from the point has the two obstacles within 1e-9 on
 * opposite sides, a pinch (ap_aa_grid_point_pinch): a detour along the circle or no_path, until such
 * corners joined the rule. */
static bool point_at_circle_wall_cusp(const space_ctx *c, double x, double y)
{
    const ap_circle *circ = ap_circle_world_circles(c->cw);
    const size_t n = ap_circle_world_count(c->cw);
    const double e = AP_CIRCLES_EPS;
    const double vx = round(x), vy = round(y);
    const bool at_vertex = fabs(x - vx) <= e && fabs(y - vy) <= e;
    for (size_t i = 0; i < n; i++) {
        const double dx = x - circ[i].x, dy = y - circ[i].y, d = hypot(dx, dy);
        if (!(circ[i].r > 2.0 * e) || fabs(d - circ[i].r) > e)
            continue;
        /* a blocked square with this corner (one of the four around the vertex) that the circle touches from
         * outside, across the corner (its normal there along neither axis: the two obstacles leave a free
         * wedge on either side, and every line from the point into one is a pinch); one it crosses leaves
         * the point a corner of free space (as ap_aa_grid_point_pinch says), and a normal along an axis is
         * the side case below (a circle tangent to the square's side line at its corner leaves one wedge
         * whose lines are usable: a reviewer's (3, 3) with obstacle (3.7, 3, 0.7) beside the square (2, 2)) */
        const bool diagonal = fabs(dx) > e && fabs(dy) > e;
        for (int32_t j = (int32_t)vy - 1; at_vertex && diagonal && j <= (int32_t)vy; j++)
            for (int32_t k = (int32_t)vx - 1; k <= (int32_t)vx; k++) {
                if (k >= 0 && j >= 0 && k < c->m->width && j < c->m->height && !ap_map_passable(c->m, k, j) &&
                    !ap_aa_circle_crosses_square(&circ[i], k, j))
                    return true;
            }
        for (int axis = 0; axis < 2; axis++) {
            const double along = axis == 0 ? dx : dy, across = axis == 0 ? dy : dx;
            const double p = axis == 0 ? x : y, q = axis == 0 ? y : x, k = round(p);
            if (fabs(across) > e || fabs(p - k) > e)
                continue; /* not square to a grid line through the point */
            const int32_t far = (int32_t)k - (along > 0.0 ? 0 : 1); /* the squares beyond the line */
            const double qk = round(q);
            int32_t lo = (int32_t)floor(q), hi = lo;
            if (fabs(q - qk) <= e) { /* at a vertex: both squares along the line there */
                lo = (int32_t)qk - 1;
                hi = (int32_t)qk;
            }
            bool wall = true;
            for (int32_t j = lo; j <= hi && wall; j++)
                wall = axis == 0 ? !ap_map_passable(c->m, far, j) : !ap_map_passable(c->m, j, far);
            if (wall)
                return true;
        }
    }
    return false;
}

static bool both_line_ok(const void *ctx, double ax, double ay, double bx, double by)
{
    const space_ctx *c = ctx;
    if (c->disc)
        return ap_line_clear(c->m, ax, ay, bx, by, c->r) &&
               ap_circle_world_line_tol(c->cw, ax, ay, bx, by, c->r_cw, -AP_CIRCLES_EPS);
    if (!ap_aa_grid_point_line_ok(c->m, ax, ay, bx, by))
        return false;
    ap_circle_touch t[AP_CIRCLES_MAX_TOUCHES];
    size_t n;
    if (!ap_circle_world_point_line_ok(c->cw, ax, ay, bx, by, t, &n))
        return false;
    const ap_circle *circ = ap_circle_world_circles(c->cw);
    for (size_t i = 0; i < n; i++)
        if (t[i].id < ap_circle_world_count(c->cw) &&
            ap_aa_grid_point_pinch(c->m, ax, ay, bx, by, t[i].t0, t[i].t1, -t[i].side, &circ[t[i].id]))
            return false;
    return !(ax == bx && ay == by && point_at_circle_wall_cusp(c, ax, ay));
}

/* Tiles a point unit's arc round an extra circle is trimmed by at each end for its grid test: an arc may
 * begin or end on a wall (a start where the circle crosses the map's edge or a blocked square), which
 * collide.c's strict rule would refuse; 1e-7 keeps the trimmed ends more than 1e-9 off the wall for any
 * crossing angle above ~0.6 degrees. */
#define POINT_ARC_TRIM 1e-7

static bool both_arc_ok(const void *ctx, const ap_segment *s)
{
    const space_ctx *c = ctx;
    if (c->disc)
        return ap_segment_clear(c->m, s, c->r) && ap_circle_world_segment_tol(c->cw, s, c->r_cw, -AP_CIRCLES_EPS);
    const double L = s->length;
    const ap_segment in = L > 4.0 * POINT_ARC_TRIM ? ap_segment_sub(s, POINT_ARC_TRIM, L - POINT_ARC_TRIM) : *s;
    return ap_segment_clear(c->m, &in, 0.0) && ap_circle_world_point_segment_ok(c->cw, s, NULL, NULL);
}

/* A graph with room for n circles and its space context. */
static ap_aa_graph *graph_new(size_t n)
{
    ap_aa_graph *g = calloc(1, sizeof *g);
    if (g == NULL)
        return NULL;
    size_t k = n > 0 ? n : 1;
    g->x = malloc(k * sizeof *g->x);
    g->y = malloc(k * sizeof *g->y);
    g->R = malloc(k * sizeof *g->R);
    g->owned = calloc(1, sizeof(space_ctx));
    if (g->x == NULL || g->y == NULL || g->R == NULL || g->owned == NULL) {
        ap_aa_graph_free(g);
        return NULL;
    }
    g->space.ctx = g->owned;
    return g;
}

int ap_aa_graph_grow_hugs(ap_aa_graph *g, double extra)
{
    if (!isfinite(extra) || extra < 0.0 || g->dep_start != NULL)
        return AP_E_INVALID_REQUEST;
    /* at least r_u + extra, not r_k + r_u + extra: a circle whose own hug (r_k + r_u) is already no tighter
     * than that keeps it, so a unit hugs it as close as a disc does (a turning unit starting 0.1 tiles from a
     * circle of radius 3 with R = 1 was inside the grown circle, r_k + rho, and got no_path: a helper,
     * 2026-12-08); grid corners (R = r_u) get r_u + extra either way */
    const double rho = g->unit_radius + g->hug_grow + extra;
    for (size_t k = 0; k < g->n; k++)
        g->R[k] = g->R[k] > rho ? g->R[k] : rho;
    g->hug_grow += extra;
    return AP_OK;
}

void ap_aa_graph_free(ap_aa_graph *g)
{
    if (g == NULL)
        return;
    ap_aa_vis_free(g->vis);
    AP_FREE_ALL(g->x, g->y, g->R, g->quad, g->dep_start, g->deps, g->mark_d, g->hug_clear, g->dep_key, g->owned,
                g);
}

int ap_aa_graph_circles(const ap_circle_world *cw, double r_u, ap_aa_graph **out)
{
    *out = NULL;
    if (!isfinite(r_u) || r_u < 0.0 || r_u > 1e7)
        return AP_E_INVALID_REQUEST;
    size_t n = ap_circle_world_count(cw);
    ap_aa_graph *g = graph_new(n);
    if (g == NULL)
        return AP_E_NOMEM;
    const ap_circle *c = ap_circle_world_circles(cw);
    for (size_t k = 0; k < n; k++) {
        g->x[k] = c[k].x;
        g->y[k] = c[k].y;
        g->R[k] = c[k].r + r_u;
    }
    g->n = n;
    space_ctx *sc = g->owned;
    sc->cw = cw;
    sc->r = r_u;
    g->space.line_ok = circles_line_ok;
    g->space.arc_ok = circles_arc_ok;
    g->width = ap_circle_world_width(cw);
    g->height = ap_circle_world_height(cw);
    g->unit_radius = r_u;
    *out = g;
    return AP_OK;
}

static bool blocked(const ap_map *m, int32_t i, int32_t j)
{
    return !ap_map_passable(m, i, j);
}

/* Blocked cells among the four that meet at vertex (c, k): bit 0 (c-1, k-1), 1 (c, k-1), 2 (c-1, k),
 * 3 (c, k). */
static unsigned vertex_mask(const ap_map *m, int32_t c, int32_t k)
{
    return (unsigned)blocked(m, c - 1, k - 1) | (unsigned)blocked(m, c, k - 1) << 1 |
           (unsigned)blocked(m, c - 1, k) << 2 | (unsigned)blocked(m, c, k) << 3;
}

int ap_aa_grid_vertex_quad(const ap_map *m, int32_t c, int32_t k)
{
    unsigned b = vertex_mask(m, c, k);
    /* A convex corner: exactly one incident cell blocked. Bit 0 of b's single bit index: the cell is at
     * column c (toward +x); bit 1: row k. */
    if (b == 0 || (b & (b - 1)) != 0)
        return -1;
    return __builtin_ctz(b);
}

int ap_aa_graph_grid_empty(const ap_map *m, double r_u, size_t cap, ap_aa_graph **out)
{
    *out = NULL;
    if (!isfinite(r_u) || r_u < 0.0 || r_u > 1e3 || (r_u > 0.0 && r_u < AP_AA_GRID_MIN_RADIUS))
        return AP_E_INVALID_REQUEST;
    ap_aa_graph *g = graph_new(cap);
    if (g == NULL || (g->quad = malloc(cap > 0 ? cap : 1)) == NULL) {
        ap_aa_graph_free(g);
        return AP_E_NOMEM;
    }
    space_ctx *sc = g->owned;
    sc->m = m;
    sc->r = r_u > 0.0 ? r_u - AP_AA_GRID_TOL : 0.0;
    g->space.line_ok = r_u > 0.0 ? disc_line_ok : point_line_ok;
    g->space.arc_ok = r_u > 0.0 ? disc_arc_ok : point_arc_ok;
    g->width = (double)m->width;
    g->height = (double)m->height;
    g->unit_radius = r_u;
    *out = g;
    return AP_OK;
}

/* The grid graph with room for `extra` more circles after the corners (their quad is AP_AA_QUAD_NONE). */
static int grid_graph(const ap_map *m, double r_u, size_t extra, ap_aa_graph **out)
{
    *out = NULL;
    size_t n = 0;
    for (int32_t k = 0; k <= m->height; k++)
        for (int32_t c = 0; c <= m->width; c++)
            n += ap_aa_grid_vertex_quad(m, c, k) >= 0;
    int st = ap_aa_graph_grid_empty(m, r_u, n + extra, out);
    if (st != AP_OK)
        return st;
    ap_aa_graph *g = *out;
    for (int32_t k = 0; k <= m->height; k++)
        for (int32_t c = 0; c <= m->width; c++) {
            int q = ap_aa_grid_vertex_quad(m, c, k);
            if (q < 0)
                continue;
            g->x[g->n] = (double)c;
            g->y[g->n] = (double)k;
            g->R[g->n] = r_u;
            g->quad[g->n++] = (uint8_t)q;
        }
    return AP_OK;
}

int ap_aa_graph_grid_lazy(const ap_map *m, double r_u, ap_aa_graph **out)
{
    return grid_graph(m, r_u, 0, out);
}

int ap_aa_graph_grid(const ap_map *m, double r_u, ap_aa_graph **out)
{
    int st = grid_graph(m, r_u, 0, out);
    /* Without the eager table the graph still works (lazily), so a failed build is not an error. */
    if (st == AP_OK && (*out)->n <= AP_AA_EAGER_AUTO_MAX)
        ap_aa_graph_precompute(*out);
    return st;
}

int ap_aa_graph_grid_circles(const ap_map *m, const ap_circle_world *cw, double r_u, ap_aa_graph **out)
{
    const size_t extra = ap_circle_world_count(cw);
    int st = grid_graph(m, r_u, extra, out);
    if (st != AP_OK)
        return st;
    ap_aa_graph *g = *out;
    const ap_circle *c = ap_circle_world_circles(cw);
    for (size_t k = 0; k < extra; k++) {
        g->x[g->n + k] = c[k].x;
        g->y[g->n + k] = c[k].y;
        g->R[g->n + k] = c[k].r + r_u;
        g->quad[g->n + k] = AP_AA_QUAD_NONE;
    }
    g->n += extra;
    space_ctx *sc = g->owned;
    sc->cw = cw;
    sc->r_cw = r_u;
    sc->disc = r_u > 0.0;
    g->space.line_ok = both_line_ok;
    g->space.arc_ok = both_arc_ok;
    return AP_OK;
}

/* path_ok's test of segment s (arcs only: a line passes). */
static bool segment_ok(const ap_aa_graph *g, const ap_segment *s, bool lines)
{
    if (s->type == AP_SEG_ARC && s->radius > 0.0 && s->sweep != 0.0)
        return g->space.arc_ok(g->space.ctx, s);
    return !lines || g->space.line_ok(g->space.ctx, s->x0, s->y0, s->x1, s->y1);
}

bool ap_aa_graph_path_ok(const ap_aa_graph *g, const ap_segment *s, size_t n, double x, double y)
{
    if (n == 0)
        return g->space.line_ok(g->space.ctx, x, y, x, y);
    for (size_t i = 0; i < n; i++)
        if (!segment_ok(g, &s[i], true))
            return false;
    return true;
}

bool ap_aa_graph_arcs_ok(const ap_aa_graph *g, const ap_segment *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!segment_ok(g, &s[i], false))
            return false;
    return true;
}

bool ap_aa_corner_ok(const ap_aa_graph *g, uint32_t k, const ap_bitangent *t, double px, double py, int s)
{
    if (k >= g->n || g->quad == NULL || g->quad[k] == AP_AA_QUAD_NONE)
        return true;
    const uint8_t b = g->quad[k];
    const double qx = (b & 1) ? 1.0 : -1.0, qy = (b & 2) ? 1.0 : -1.0;
    const double R = g->R[k];
    if (R > 0.0)
        return (px - g->x[k]) * qx <= 1e-9 * R && (py - g->y[k]) * qy <= 1e-9 * R;
    const double dx = t->x1 - t->x0, dy = t->y1 - t->y0, tiny = 1e-12 * (dx * dx + dy * dy);
    if (dx * dy * qx * qy > tiny)
        return false;
    return (dx * qy - dy * qx) * (double)s >= -tiny;
}

size_t ap_aa_pair_slot(uint32_t a, uint32_t b)
{
    if (a > b) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    return (size_t)b * (b - 1) / 2 + a;
}

/* The departures of circle c (cx, cy, cr) with sense s toward hug circle j != c (both senses at j), for
 * departures_of. memo: NULL, or the pair's byte of ap_aa_graph_precompute_with's table (0 = line not tested
 * yet, 1 = usable, 2 = not): the segment between two points is the same segment both ways, so each is
 * tested once. */
static bool pair_departures(const ap_aa_graph *g, uint32_t c, double cx, double cy, double cr, int s, uint32_t j,
                            bool los_test, uint8_t *memo, ap_aa_dep_sink sink, void *ctx)
{
    int los = -1; /* a radius-0 target's two senses share one line: one line-of-sight test */
    /* Between two points the line is the segment of their centres: its heading and length wait until the
     * line is known to be usable, which most are not. */
    const bool points = cr == 0.0 && g->R[j] == 0.0;
    const double dx = g->x[j] - cx, dy = g->y[j] - cy;
    if (points && dx == 0.0 && dy == 0.0)
        return true;
    double ux = 0.0, uy = 0.0;
    for (int s_to = 1; s_to >= -1; s_to -= 2) {
        ap_aa_dep d = {.to = j, .s_to = s_to};
        if (points) {
            d.t = (ap_bitangent){cx, cy, g->x[j], g->y[j], 0.0, 0.0};
        } else {
            /* ap_bitangent_of's line by vectors, up to rounding: its heading u is d / |d| turned by
             * -asin(q / |d|), q = s_to R_j - s R_c, and each centre lies s R from its end along the normal
             * n = (-u_y, u_x). The heading's atan2 waits for a line that passes the corner rules and the
             * line-of-sight test (most do not): the trigonometric form's atan2, asin, sin, cos and hypot were
             * two thirds of a turning unit's graph build. */
            const double q = (double)s_to * g->R[j] - (double)s * cr, d2 = dx * dx + dy * dy;
            double l2 = d2 - q * q;
            /* within AP_TANGENT_SLACK of touching: the line of length 0 through the touching point, as
             * ap_bitangent_of (a start a rounding step inside the circle it lies on keeps its tangent) */
            if (l2 < 0.0 && l2 >= -2.0 * AP_TANGENT_SLACK * fabs(q))
                l2 = 0.0;
            if (!(d2 > 0.0) || l2 < 0.0)
                continue;
            const double l = sqrt(l2);
            ux = (dx * l + dy * q) / d2;
            uy = (dy * l - dx * q) / d2;
            const double rc = (double)s * cr, rj = (double)s_to * g->R[j];
            d.t = (ap_bitangent){cx + rc * uy, cy - rc * ux, g->x[j] + rj * uy, g->y[j] - rj * ux, 0.0, l};
        }
        if (!ap_aa_corner_ok(g, c, &d.t, d.t.x0, d.t.y0, s) || !ap_aa_corner_ok(g, j, &d.t, d.t.x1, d.t.y1, s_to))
            continue;
        if (los_test && (los < 0 || g->R[j] != 0.0)) {
            uint8_t *m = memo != NULL && points ? memo : NULL;
            los = m != NULL && *m != 0 ? *m == 1 : g->space.line_ok(g->space.ctx, d.t.x0, d.t.y0, d.t.x1, d.t.y1);
            if (m != NULL)
                *m = los ? 1 : 2;
        }
        if (los_test && !los)
            continue;
        if (points) {
            d.t.h = atan2(dy, dx);
            d.t.len = hypot(dx, dy);
        } else {
            d.t.h = atan2(uy, ux);
        }
        if (!sink(ctx, &d))
            return false;
    }
    return true;
}

/* How many targets between two reads of the clock in the loops below (a target costs up to a microsecond:
 * a bitangent and, for departures, a line test). */
#define AP_AA_TARGETS_PER_CLOCK 1024u

/* ap_aa_graph_departures (los) and ap_aa_graph_candidates (!los). memo: NULL, or
 * ap_aa_graph_precompute_with's table (used for c < n). until_ns: 0, or the clock after which it gives up
 * (false). */
static bool departures_of(const ap_aa_graph *g, uint32_t c, double cx, double cy, double cr, int s, bool los_test,
                          uint8_t *memo, uint64_t until_ns, ap_aa_dep_sink sink, void *ctx)
{
    for (uint32_t j = 0; j < g->n; j++) {
        if (j != c && !pair_departures(g, c, cx, cy, cr, s, j, los_test,
                                       memo != NULL && c < g->n ? &memo[ap_aa_pair_slot(c, j)] : NULL, sink, ctx))
            return false;
        if (until_ns != 0 && j % AP_AA_TARGETS_PER_CLOCK == AP_AA_TARGETS_PER_CLOCK - 1 &&
            ap_deadline_passed(until_ns))
            return false;
    }
    return true;
}

bool ap_aa_graph_departures(const ap_aa_graph *g, uint32_t c, double cx, double cy, double cr, int s,
                            uint64_t until_ns, ap_aa_dep_sink sink, void *ctx)
{
    return departures_of(g, c, cx, cy, cr, s, true, NULL, until_ns, sink, ctx);
}

bool ap_aa_graph_candidates(const ap_aa_graph *g, uint32_t c, double cx, double cy, double cr, int s,
                            uint64_t until_ns, ap_aa_dep_sink sink, void *ctx)
{
    return departures_of(g, c, cx, cy, cr, s, false, NULL, until_ns, sink, ctx);
}

bool ap_aa_graph_candidates_among(const ap_aa_graph *g, double cx, double cy, double cr, int s, const uint32_t *js,
                                  size_t nj, uint64_t until_ns, ap_aa_dep_sink sink, void *ctx)
{
    for (size_t i = 0; i < nj; i++) {
        if (!pair_departures(g, UINT32_MAX, cx, cy, cr, s, js[i], false, NULL, sink, ctx))
            return false;
        if (until_ns != 0 && i % AP_AA_TARGETS_PER_CLOCK == AP_AA_TARGETS_PER_CLOCK - 1 &&
            ap_deadline_passed(until_ns))
            return false;
    }
    return true;
}

/* The sink of ap_aa_graph_precompute: appends to g->deps, doubling the capacity. */
typedef struct dep_buf {
    ap_aa_graph *g;
    size_t cap;
} dep_buf;

static bool append_dep(void *ctx, const ap_aa_dep *d)
{
    dep_buf *b = ctx;
    ap_aa_graph *g = b->g;
    if (g->n_deps == b->cap) {
        size_t cap = b->cap > 0 ? 2 * b->cap : 1024;
        ap_aa_dep *p = realloc(g->deps, cap * sizeof *p);
        if (p == NULL)
            return false;
        g->deps = p;
        b->cap = cap;
    }
    g->deps[g->n_deps++] = *d;
    return true;
}

bool ap_aa_graph_pair_departures(const ap_aa_graph *g, uint32_t c, int s, uint32_t j, uint8_t *memo,
                                 ap_aa_dep_sink sink, void *ctx)
{
    return pair_departures(g, c, g->x[c], g->y[c], g->R[c], s, j, true, memo, sink, ctx);
}

/* The default fill of ap_aa_graph_precompute_with: departures_of. */
static bool fill_all(void *ctx, const ap_aa_graph *g, uint32_t k, int s, uint8_t *memo, ap_aa_dep_sink sink,
                     void *sink_ctx)
{
    return departures_of(g, k, g->x[k], g->y[k], g->R[k], s, true, memo, 0, sink, sink_ctx);
}

/* Is g a disc's grid graph of corners only: every hug circle a convex corner of radius r_u > 0, no extra
 * circles, no grown hugs (the search's visibility and landmark shortcuts, anyangle.c, hold for these)? */
static bool disc_corners(const ap_aa_graph *g)
{
    const space_ctx *sc = g->space.ctx;
    if (g->quad == NULL || !(g->unit_radius > 0.0) || g->hug_grow != 0.0 || sc == NULL || sc->m == NULL ||
        sc->cw != NULL)
        return false;
    for (size_t k = 0; k < g->n; k++)
        if (g->R[k] != g->unit_radius || g->quad[k] == AP_AA_QUAD_NONE)
            return false;
    return true;
}

/* g->hug_clear of a disc's corner graph (graph.h): per circle one test of its free quarter, the arc round
 * the corner between the directions (-qx, 0) and (0, -qy) away from the blocked cell, widened by
 * AP_AA_HUG_SLACK. Out of memory: none (every hug tested). */
static void hug_quarters(ap_aa_graph *g)
{
    free(g->hug_clear);
    if ((g->hug_clear = malloc(g->n)) == NULL)
        return;
    for (size_t k = 0; k < g->n; k++) {
        const double qx = (g->quad[k] & 1) ? 1.0 : -1.0, qy = (g->quad[k] & 2) ? 1.0 : -1.0;
        const double a = atan2(-qy, -qx) - M_PI / 4 - AP_AA_HUG_SLACK, R = g->R[k];
        /* Counter-clockwise from angle a: the heading there is a + pi / 2. */
        const ap_segment arc = ap_segment_arc(g->x[k] + R * cos(a), g->y[k] + R * sin(a), a + M_PI / 2, R,
                                              M_PI / 2 + 2 * AP_AA_HUG_SLACK);
        g->hug_clear[k] = g->space.arc_ok(g->space.ctx, &arc) ? 1 : 0;
    }
}

/* Is every hug circle of g a radius-0 grid corner (a point unit's grid graph)? */
static bool all_corner_points(const ap_aa_graph *g)
{
    if (g->quad == NULL || g->unit_radius != 0.0 || g->hug_grow != 0.0)
        return false;
    for (size_t k = 0; k < g->n; k++)
        if (g->R[k] != 0.0 || g->quad[k] == AP_AA_QUAD_NONE)
            return false;
    return true;
}

/* The fill's start: g's departure index allocated, no departures yet. Returns AP_OK or AP_E_NOMEM. */
static int fill_begin(ap_aa_graph *g, dep_buf *b)
{
    g->dep_start = malloc((2 * g->n + 1) * sizeof *g->dep_start);
    g->n_deps = 0;
    *b = (dep_buf){g, 0};
    return g->dep_start != NULL ? AP_OK : AP_E_NOMEM;
}

/* A fill given up: g lazy again (with what a finish begun may have set). */
static void fill_drop(ap_aa_graph *g)
{
    AP_FREE_ALL(g->dep_start, g->deps, g->mark_d, g->hug_clear, g->dep_key);
    g->dep_start = NULL;
    g->deps = NULL;
    g->n_deps = 0;
    g->mark_d = NULL;
    g->n_marks = 0;
    g->hug_clear = NULL;
    g->dep_key = NULL;
    g->dep_sorted = false;
    g->corner_points = false;
}

/* Fill the departures of circles *k, *k + 1, ... (both senses each) until every circle is filled (AP_OK;
 * then the finish, finish_begin) or the clock has passed until_ns after a circle (AP_IN_PROGRESS, *k the
 * next; 0 = no limit; at least one circle a call, so that every call makes progress). Out of memory or too
 * many departures: AP_E_NOMEM, g lazy again. */
static int fill_run(ap_aa_graph *g, uint32_t *k, dep_buf *b, uint8_t *memo, ap_aa_fill fill, void *ctx,
                    uint64_t until_ns)
{
    while (*k < g->n) {
        for (int s = -1; s <= 1; s += 2) {
            g->dep_start[2 * *k + (s > 0)] = (uint32_t)g->n_deps;
            if (!(fill != NULL ? fill : fill_all)(ctx, g, *k, s, memo, append_dep, b) ||
                g->n_deps > AP_AA_EAGER_MAX_DEPS) {
                fill_drop(g);
                return AP_E_NOMEM;
            }
        }
        if (++*k < g->n && ap_deadline_passed(until_ns))
            return AP_IN_PROGRESS;
    }
    return AP_OK;
}

double ap_aa_quarter_key(const ap_aa_graph *g, uint32_t k, int s, double h)
{
    /* atan2(-qy, -qx), the direction of the quarter's middle from the corner, by quad's two bits. */
    static const double mid[4] = {M_PI / 4, 3 * M_PI / 4, -M_PI / 4, -3 * M_PI / 4};
    const double t = ap_hug_sweep(mid[g->quad[k] & 3] + (double)s * M_PI / 4, h, s);
    return t > M_PI ? t - 2 * M_PI : t;
}

/* qsort context-free: the sweep keys of the departures being sorted are computed before (sort_step). */
typedef struct keyed_dep {
    double key;
    ap_aa_dep d;
} keyed_dep;

static int by_key(const void *a, const void *b)
{
    const double x = ((const keyed_dep *)a)->key, y = ((const keyed_dep *)b)->key;
    return x < y ? -1 : x > y;
}

/* The table's finish once every circle is filled, in steps (a build in pieces runs them in the time it is
 * given): the index's end, the search's landmarks (out of memory: none, the Euclidean heuristic alone), and
 * for a disc's corner graph its clear quarters and its departures sorted along them with their keys. */
enum { FINISH_MARKS, FINISH_SORT, FINISH_DONE };
typedef struct finish_run {
    int phase;
    bool discs;         /* a disc's corner graph (disc_corners) */
    ap_aa_marks *marks; /* the landmarks in progress, or NULL (none) */
    keyed_dep *buf;     /* the sort's: one (circle, sense)'s departures with their keys */
    double *key;        /* becomes g->dep_key */
    uint32_t slot;      /* the next (circle, sense) to sort: 2 k + (s > 0) */
} finish_run;

static void finish_begin(ap_aa_graph *g, finish_run *f)
{
    *f = (finish_run){.phase = FINISH_MARKS};
    g->dep_start[2 * g->n] = (uint32_t)g->n_deps;
    g->corner_points = all_corner_points(g);
    f->discs = disc_corners(g);
    if ((g->corner_points || f->discs) && ap_aa_landmarks_start(g, &f->marks) != AP_OK)
        f->marks = NULL;
}

/* g->dep_sorted (graph.h): each (circle, sense)'s departures by ap_aa_quarter_key; ties keep no particular
 * order. The buffers first (out of memory: left in target order, dep_sorted false; returns false). */
static bool sort_begin(const ap_aa_graph *g, finish_run *f)
{
    uint32_t most = 0;
    for (size_t slot = 0; slot < 2 * g->n; slot++)
        if (g->dep_start[slot + 1] - g->dep_start[slot] > most)
            most = g->dep_start[slot + 1] - g->dep_start[slot];
    f->buf = malloc(((size_t)most + 1) * sizeof *f->buf);
    f->key = malloc((2 * g->n_deps + 1) * sizeof *f->key);
    if (f->buf != NULL && f->key != NULL)
        return true;
    AP_FREE_ALL(f->buf, f->key);
    f->buf = NULL;
    f->key = NULL;
    return false;
}

/* Sort from f->slot on until every slot is sorted (AP_OK: dep_key and dep_sorted set) or the clock has
 * passed until_ns (read every 64 slots after the first; AP_IN_PROGRESS). */
static int sort_step(ap_aa_graph *g, finish_run *f, uint64_t until_ns)
{
    for (const uint32_t first = f->slot; f->slot < 2 * g->n; f->slot++) {
        if (f->slot != first && (f->slot & 63) == 0 && ap_deadline_passed(until_ns))
            return AP_IN_PROGRESS;
        const uint32_t k = f->slot / 2, b = g->dep_start[f->slot], n = g->dep_start[f->slot + 1] - b;
        const int s = (f->slot & 1) ? 1 : -1;
        for (uint32_t i = 0; i < n; i++)
            f->buf[i] = (keyed_dep){ap_aa_quarter_key(g, k, s, g->deps[b + i].t.h), g->deps[b + i]};
        qsort(f->buf, n, sizeof *f->buf, by_key);
        for (uint32_t i = 0; i < n; i++) {
            const ap_aa_dep *d = &f->buf[i].d;
            g->deps[b + i] = *d;
            f->key[2 * ((size_t)b + i)] = f->buf[i].key;
            f->key[2 * ((size_t)b + i) + 1] = ap_aa_quarter_key(g, d->to, d->s_to, d->t.h);
        }
    }
    free(f->buf);
    f->buf = NULL;
    g->dep_key = f->key;
    f->key = NULL;
    g->dep_sorted = true;
    return AP_OK;
}

/* Run f's steps until the finish is done (AP_OK) or the clock has passed until_ns after a step
 * (AP_IN_PROGRESS; 0 = no limit). */
static int finish_step(ap_aa_graph *g, finish_run *f, uint64_t until_ns)
{
    if (f->phase == FINISH_MARKS) {
        if (f->marks != NULL && ap_aa_landmarks_run(f->marks, until_ns) == AP_IN_PROGRESS)
            return AP_IN_PROGRESS;
        ap_aa_landmarks_free(f->marks);
        f->marks = NULL;
        f->phase = FINISH_DONE;
        if (f->discs) {
            hug_quarters(g);
            if (g->hug_clear != NULL && sort_begin(g, f))
                f->phase = FINISH_SORT;
        }
        if (f->phase == FINISH_SORT && ap_deadline_passed(until_ns))
            return AP_IN_PROGRESS;
    }
    if (f->phase == FINISH_SORT && sort_step(g, f, until_ns) == AP_IN_PROGRESS)
        return AP_IN_PROGRESS;
    f->phase = FINISH_DONE;
    return AP_OK;
}

static void finish_free(finish_run *f)
{
    ap_aa_landmarks_free(f->marks);
    AP_FREE_ALL(f->buf, f->key);
    *f = (finish_run){.phase = FINISH_DONE};
}

int ap_aa_graph_precompute_with(ap_aa_graph *g, uint8_t *memo, ap_aa_fill fill, void *ctx)
{
    if (g->dep_start != NULL)
        return AP_OK;
    dep_buf b;
    uint32_t k = 0;
    int st = fill_begin(g, &b);
    if (st == AP_OK && (st = fill_run(g, &k, &b, memo, fill, ctx, 0)) == AP_OK) {
        finish_run f;
        finish_begin(g, &f);
        (void)finish_step(g, &f, 0);
        finish_free(&f);
    }
    return st;
}

/* The build of a point unit's grid table with the visibility scan (ap_aa_graph_precompute): per corner k the
 * corners its scan returns (visibility.h: a superset of those it sees) within both corners' quadrant rules,
 * each line tested once with the rule, from the lower index toward the higher, as the pair table of the plain
 * build tests it; the verdicts of lines to higher corners kept (up) for those corners' turn. */
typedef struct vis_fill {
    uint32_t k;          /* the corner whose visible list is held, or UINT32_MAX */
    uint32_t *cand;      /* n: the scan's corners */
    uint32_t *seen;      /* n: the corners k sees (increasing), n_seen of them */
    size_t n_seen;
    double *scratch;
    uint32_t *up_start;  /* n + 1: up[up_start[j] .. up_start[j + 1]) are the corners above j that j sees */
    uint32_t *up;
    size_t n_up, up_cap;
} vis_fill;

/* The quadrant rule of radius-0 corner k (ap_aa_corner_ok's first test) for the line direction (dx, dy). */
static bool corner_quadrant_ok(const ap_aa_graph *g, uint32_t k, double dx, double dy)
{
    const uint8_t b = g->quad[k];
    const double qx = (b & 1) ? 1.0 : -1.0, qy = (b & 2) ? 1.0 : -1.0;
    return !(dx * dy * qx * qy > 1e-12 * (dx * dx + dy * dy));
}

/* Is j in the increasing list a[0 .. n)? */
static bool in_sorted(const uint32_t *a, size_t n, uint32_t j)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && a[lo] == j;
}

/* The corners k sees, into f->seen (and f->up for those above k). False when out of memory. */
static bool vis_seen(vis_fill *f, const ap_aa_graph *g, uint32_t k)
{
    const space_ctx *sc = g->space.ctx;
    const size_t nc = ap_aa_vis_corners(g->vis, g->x[k], g->y[k], g->quad[k], f->scratch, f->cand);
    f->n_seen = 0;
    f->up_start[k] = (uint32_t)f->n_up;
    for (size_t i = 0; i < nc; i++) {
        const uint32_t j = f->cand[i];
        const double dx = g->x[j] - g->x[k], dy = g->y[j] - g->y[k];
        if (!corner_quadrant_ok(g, k, dx, dy) || !corner_quadrant_ok(g, j, dx, dy))
            continue;
        bool ok;
        if (j < k) { /* (f->up is NULL until the first entry: no pointer arithmetic on it then) */
            ok = f->up_start[j + 1] > f->up_start[j] &&
                 in_sorted(f->up + f->up_start[j], f->up_start[j + 1] - f->up_start[j], k);
        } else {
            ok = ap_aa_grid_point_line_ok(sc->m, g->x[k], g->y[k], g->x[j], g->y[j]);
            if (ok) {
                void *p = f->up;
                if (!ap_grow(&p, &f->up_cap, f->n_up + 1, sizeof *f->up, 4096))
                    return false;
                f->up = p;
                f->up[f->n_up++] = j;
            }
        }
        if (ok)
            f->seen[f->n_seen++] = j;
    }
    f->up_start[k + 1] = (uint32_t)f->n_up;
    f->k = k;
    return true;
}

static bool fill_vis(void *ctx, const ap_aa_graph *g, uint32_t k, int s, uint8_t *memo, ap_aa_dep_sink sink,
                     void *sink_ctx)
{
    vis_fill *f = ctx;
    if (f->k != k && !vis_seen(f, g, k))
        return false;
    for (size_t i = 0; i < f->n_seen; i++) {
        uint8_t usable = 1; /* tested above */
        if (!ap_aa_graph_pair_departures(g, k, s, f->seen[i], &usable, sink, sink_ctx))
            return false;
    }
    return true;
}

/* The build of a disc's grid table with the scan (ap_aa_graph_precompute): per circle k the departures of
 * fill_all toward only the corners the point rule's scan from corner k returns (no direction filter), in the
 * same order. The same table: a usable bitangent from circle k to circle j is a line at distance r_u (less
 * the tests' tolerance) from every blocked square, and the segment between the two corners stays within
 * r_u of it (|p(t) - q(t)| <= r_u at every fraction t), so it enters no blocked square deeper than that
 * tolerance, 1e-7 tiles, and the scan (which drops only rays entering squares shrunk by AP_AA_VIS_SHRINK
 * = 1e-7) returns j. */
static bool fill_disc_vis(void *ctx, const ap_aa_graph *g, uint32_t k, int s, uint8_t *memo, ap_aa_dep_sink sink,
                          void *sink_ctx)
{
    vis_fill *f = ctx;
    if (f->k != k) {
        f->n_seen = ap_aa_vis_corners(g->vis, g->x[k], g->y[k], -1, f->scratch, f->cand);
        f->k = k;
    }
    for (size_t i = 0; i < f->n_seen; i++)
        if (f->cand[i] != k && !ap_aa_graph_pair_departures(g, k, s, f->cand[i], NULL, sink, sink_ctx))
            return false;
    return true;
}

/* Would g's point table most likely hold more than AP_AA_EAGER_MAX_DEPS departures? One scan from every
 * 64th corner (maps of over 2,048 corners; fewer cannot see that many) estimates the scans' total; a
 * corner's departures are at most twice its scan's corners (one per sense), and on the maps measured the
 * estimate was 1.0-1.8 times the departures (Paris_1_1024: 1.10 M for 621,462; random512-40-0: 1.05 M for
 * 688,764), so an estimate of over twice the limit skips a build that would stop there. Without it,
 * random512-10-0's build ran about 1 s (estimated in 30 ms), and 1,024 lone blocks on an open 512^2 map
 * (4,096 corners, estimate 2.9 M) 1.8 s, or 4,091 set by one tile update on an open 1024^2 map 3 s, every
 * update. A map wrongly skipped stays lazy, as beyond the limit. f: the build's buffers, as scratch. */
static bool too_many_lines(const ap_aa_graph *g, vis_fill *f)
{
    if (g->n <= 2048)
        return false;
    size_t seen = 0, samples = 0;
    for (size_t k = 0; k < g->n; k += 64, samples++)
        seen += ap_aa_vis_corners(g->vis, g->x[k], g->y[k], g->quad[k], f->scratch, f->cand);
    return (double)seen / (double)samples * (double)g->n > 2.0 * AP_AA_EAGER_MAX_DEPS;
}

/* Can g's table be built with the scan: a point unit's grid graph of corners only, with its index. */
static bool vis_build_fits(const ap_aa_graph *g)
{
    return g->vis != NULL && g->n >= 2 && all_corner_points(g);
}

/* ap_aa_graph_precompute in pieces (graph.h). */
struct ap_aa_build {
    ap_aa_graph *g;  /* borrowed */
    vis_fill f;      /* the scan's buffers (fill_vis, fill_disc_vis) */
    uint8_t *memo;   /* fill_all's pair table (a point unit's corners without a scan index), or NULL */
    ap_aa_fill fill; /* NULL: fill_all */
    dep_buf buf;
    uint32_t k;      /* the next circle to fill */
    bool filled;     /* every circle filled: the finish (fin) runs */
    finish_run fin;
    int state;       /* AP_IN_PROGRESS, then AP_OK or AP_E_NOMEM */
};

static void build_buffers_free(ap_aa_build *b)
{
    AP_FREE_ALL(b->f.cand, b->f.seen, b->f.up_start, b->f.scratch, b->f.up, b->memo);
    b->f = (vis_fill){.k = UINT32_MAX};
    b->memo = NULL;
}

int ap_aa_build_start(ap_aa_graph *g, ap_aa_build **out)
{
    ap_aa_build *b = calloc(1, sizeof *b);
    if ((*out = b) == NULL)
        return AP_E_NOMEM;
    b->g = g;
    b->f.k = UINT32_MAX;
    b->fin.phase = FINISH_DONE;
    b->state = AP_IN_PROGRESS;
    if (g->dep_start != NULL) {
        b->state = AP_OK;
        return AP_OK;
    }
    /* A point unit's grid graph gets its visibility index here (built with the table, not with every lazy
     * graph a query makes for itself; out of memory: none, every pair is tested as before it existed). */
    const space_ctx *sc = g->space.ctx;
    if (g->vis == NULL && g->n >= 2 && sc->m != NULL && sc->cw == NULL && (all_corner_points(g) || disc_corners(g)))
        g->vis = ap_aa_vis_build(sc->m, g->x, g->y, g->n);
    vis_fill *f = &b->f;
    if (vis_build_fits(g)) {
        f->cand = malloc(g->n * sizeof *f->cand);
        f->seen = malloc(g->n * sizeof *f->seen);
        f->up_start = malloc((g->n + 1) * sizeof *f->up_start);
        f->scratch = malloc(ap_aa_vis_scratch_len(g->vis) * sizeof *f->scratch);
        b->fill = fill_vis;
        if (f->cand == NULL || f->seen == NULL || f->up_start == NULL || f->scratch == NULL || too_many_lines(g, f))
            b->state = AP_E_NOMEM;
    } else if (g->vis != NULL && disc_corners(g)) {
        f->cand = malloc(g->n * sizeof *f->cand);
        f->scratch = malloc(ap_aa_vis_scratch_len(g->vis) * sizeof *f->scratch);
        b->fill = fill_disc_vis;
        if (f->cand == NULL || f->scratch == NULL)
            b->state = AP_E_NOMEM;
    } else {
        /* A point unit's grid corners without a scan index (out of memory for it): each line between two
         * corners is tested once (both ends ask), a byte per pair, freed at the end (none beyond 32,768
         * corners, 537 MB, or out of memory: every end tests). */
        const bool points = g->quad != NULL && g->unit_radius == 0.0 && g->n >= 2 && g->n <= 32768;
        b->memo = points ? calloc((size_t)g->n * (g->n - 1) / 2, 1) : NULL;
    }
    if (b->state == AP_IN_PROGRESS && fill_begin(g, &b->buf) != AP_OK)
        b->state = AP_E_NOMEM;
    if (b->state != AP_IN_PROGRESS)
        build_buffers_free(b);
    return AP_OK;
}

int ap_aa_build_run(ap_aa_build *b, uint64_t until_ns)
{
    if (b->state != AP_IN_PROGRESS)
        return b->state;
    if (!b->filled) {
        const int st = fill_run(b->g, &b->k, &b->buf, b->memo, b->fill, &b->f, until_ns);
        if (st == AP_IN_PROGRESS)
            return st;
        build_buffers_free(b);
        if (st != AP_OK)
            return b->state = st;
        b->filled = true;
        finish_begin(b->g, &b->fin);
        if (ap_deadline_passed(until_ns))
            return AP_IN_PROGRESS;
    }
    if (finish_step(b->g, &b->fin, until_ns) == AP_IN_PROGRESS)
        return AP_IN_PROGRESS;
    finish_free(&b->fin);
    return b->state = AP_OK;
}

void ap_aa_build_free(ap_aa_build *b)
{
    if (b == NULL)
        return;
    if (b->state == AP_IN_PROGRESS) {
        finish_free(&b->fin);
        fill_drop(b->g);
        build_buffers_free(b);
    }
    free(b);
}

int ap_aa_graph_precompute(ap_aa_graph *g)
{
    ap_aa_build *b;
    int st = ap_aa_build_start(g, &b);
    if (st == AP_OK)
        st = ap_aa_build_run(b, 0);
    ap_aa_build_free(b);
    return st;
}
