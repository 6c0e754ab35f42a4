/* oracle.c — the independent brute-force oracle (oracle.h). Written apart from planner/anyangle on
 * purpose: different bitangent construction (Red Blob's angles from acos), a different grid rule
 * formulation for the point unit (split the segment at grid lines and look at the pieces), undirected
 * nodes without senses, eager generation, Dijkstra without a heuristic. */
#include "oracle.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#define TOL_C 1e-9 /* circle worlds: touching within this counts as touching, not overlapping */
#define TOL_G 1e-7 /* grids with r > 0 */

typedef struct ocirc {
    double x, y, R;
} ocirc;

static double seg_pt_dist(double ax, double ay, double bx, double by, double px, double py)
{
    double dx = bx - ax, dy = by - ay, L = dx * dx + dy * dy;
    double t = L > 0.0 ? ((px - ax) * dx + (py - ay) * dy) / L : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    return hypot(ax + t * dx - px, ay + t * dy - py);
}

static double pt_square_dist(double px, double py, double sx, double sy)
{
    double dx = fmax(fmax(sx - px, 0.0), px - sx - 1.0), dy = fmax(fmax(sy - py, 0.0), py - sy - 1.0);
    return hypot(dx, dy);
}

/* Do segments AB and CD share a point (closed)? */
static bool segs_meet(double ax, double ay, double bx, double by, double cx, double cy, double dx, double dy)
{
    double d1 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax), d2 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
    double d3 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx), d4 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
    if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
        return true;
    return seg_pt_dist(ax, ay, bx, by, cx, cy) == 0.0 || seg_pt_dist(ax, ay, bx, by, dx, dy) == 0.0 ||
           seg_pt_dist(cx, cy, dx, dy, ax, ay) == 0.0 || seg_pt_dist(cx, cy, dx, dy, bx, by) == 0.0;
}

static double seg_square_dist(double ax, double ay, double bx, double by, double sx, double sy)
{
    if (pt_square_dist(ax, ay, sx, sy) == 0.0)
        return 0.0;
    const double X[4] = {sx, sx + 1, sx + 1, sx}, Y[4] = {sy, sy, sy + 1, sy + 1};
    double d = fmin(pt_square_dist(ax, ay, sx, sy), pt_square_dist(bx, by, sx, sy));
    for (int k = 0; k < 4; k++) {
        if (segs_meet(ax, ay, bx, by, X[k], Y[k], X[(k + 1) % 4], Y[(k + 1) % 4]))
            return 0.0;
        d = fmin(d, seg_pt_dist(ax, ay, bx, by, X[k], Y[k]));
    }
    return d;
}

static bool cell_blocked(const ap_map *m, int i, int j)
{
    return !ap_map_passable(m, i, j);
}

/* Point unit on a grid: cut AB at every grid line it crosses; every piece's midpoint must not be inside a
 * blocked cell, nor on a grid line with blocked cells on both sides; every cut point on a vertex must not
 * be a diagonal-pair squeeze, and a single point must not be surrounded by blocked cells. */
static bool squeeze_at(const ap_map *m, int c, int k)
{
    int a = cell_blocked(m, c - 1, k - 1), b = cell_blocked(m, c, k - 1), d = cell_blocked(m, c - 1, k),
        e = cell_blocked(m, c, k);
    return a + b + d + e == 2 && a == e;
}

static bool near_int(double v)
{
    return fabs(v - round(v)) <= 1e-9;
}

static bool point_piece_ok(const ap_map *m, double x, double y, bool is_point)
{
    bool xi = near_int(x), yi = near_int(y);
    int cx = (int)floor(x), cy = (int)floor(y);
    if (xi && yi) {
        int c = (int)round(x), k = (int)round(y);
        if (squeeze_at(m, c, k))
            return false;
        return !is_point || !(cell_blocked(m, c - 1, k - 1) && cell_blocked(m, c, k - 1) &&
                              cell_blocked(m, c - 1, k) && cell_blocked(m, c, k));
    }
    if (xi) {
        int c = (int)round(x);
        return !(cell_blocked(m, c - 1, cy) && cell_blocked(m, c, cy));
    }
    if (yi) {
        int k = (int)round(y);
        return !(cell_blocked(m, cx, k - 1) && cell_blocked(m, cx, k));
    }
    return !cell_blocked(m, cx, cy);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static bool grid_point_line(const ap_map *m, double ax, double ay, double bx, double by)
{
    if (ax < -1e-9 || ay < -1e-9 || bx < -1e-9 || by < -1e-9 || ax > m->width + 1e-9 || bx > m->width + 1e-9 ||
        ay > m->height + 1e-9 || by > m->height + 1e-9)
        return false;
    if (ax == bx && ay == by)
        return point_piece_ok(m, ax, ay, true);
    double ts[2048];
    int n = 0;
    ts[n++] = 0.0;
    ts[n++] = 1.0;
    for (int c = 0; c <= m->width && n < 2040; c++)
        if (bx != ax) {
            double t = (c - ax) / (bx - ax);
            if (t > 0.0 && t < 1.0)
                ts[n++] = t;
        }
    for (int k = 0; k <= m->height && n < 2040; k++)
        if (by != ay) {
            double t = (k - ay) / (by - ay);
            if (t > 0.0 && t < 1.0)
                ts[n++] = t;
        }
    qsort(ts, (size_t)n, sizeof ts[0], cmp_d);
    for (int i = 0; i < n; i++) {
        double x = ax + ts[i] * (bx - ax), y = ay + ts[i] * (by - ay);
        if (near_int(x) && near_int(y) && squeeze_at(m, (int)round(x), (int)round(y)))
            return false;
        if (i + 1 < n && ts[i + 1] - ts[i] > 1e-12) {
            double t = 0.5 * (ts[i] + ts[i + 1]);
            double mx = ax + t * (bx - ax), my = ay + t * (by - ay);
            /* Strictly inside a blocked cell by more than 1e-9 on both axes, or on a blocked-blocked line. */
            if (!point_piece_ok(m, mx, my, false)) {
                bool xi = near_int(mx), yi = near_int(my);
                if (xi || yi)
                    return false;
                double fx = mx - floor(mx), fy = my - floor(my);
                if (fx > 1e-9 && fx < 1 - 1e-9 && fy > 1e-9 && fy < 1 - 1e-9)
                    return false;
            }
        }
    }
    return true;
}

int aa_oracle_line_ok(const aa_oracle_world *w, double ax, double ay, double bx, double by)
{
    if (w->m != NULL && w->r == 0.0)
        return grid_point_line(w->m, ax, ay, bx, by);
    const double tol = w->m != NULL ? TOL_G : TOL_C, W = w->m ? w->m->width : w->w, H = w->m ? w->m->height : w->h;
    if (fmin(ax, bx) < w->r - tol || fmin(ay, by) < w->r - tol || fmax(ax, bx) > W - w->r + tol ||
        fmax(ay, by) > H - w->r + tol)
        return 0;
    if (w->m != NULL) {
        for (int j = 0; j < w->m->height; j++)
            for (int i = 0; i < w->m->width; i++)
                if (cell_blocked(w->m, i, j) && seg_square_dist(ax, ay, bx, by, i, j) <= w->r - tol)
                    return 0;
        return 1;
    }
    for (size_t k = 0; k < w->n; k++)
        if (seg_pt_dist(ax, ay, bx, by, w->c[k].x, w->c[k].y) <= w->c[k].r + w->r - tol)
            return 0;
    return 1;
}

/* ---- arcs: centre (cx, cy), radius R, from angle a0 turning ccw by sw >= 0 ------------------------------ */

static bool on_arc(double a0, double sw, double ang)
{
    double t = fmod(ang - a0, 2 * M_PI);
    if (t < 0)
        t += 2 * M_PI;
    return t <= sw;
}

static double pt_arc_dist(double cx, double cy, double R, double a0, double sw, double px, double py)
{
    if (on_arc(a0, sw, atan2(py - cy, px - cx)))
        return fabs(hypot(px - cx, py - cy) - R);
    double e0 = hypot(px - cx - R * cos(a0), py - cy - R * sin(a0));
    double e1 = hypot(px - cx - R * cos(a0 + sw), py - cy - R * sin(a0 + sw));
    return fmin(e0, e1);
}

/* Arc to square distance: 0 when the arc meets the closed square (an end inside, or a crossing with an
 * edge); else the least of corner-to-arc, end-to-square and the arc's axis-extreme points to the square. */
static double arc_square_dist(double cx, double cy, double R, double a0, double sw, double sx, double sy)
{
    double ex0 = cx + R * cos(a0), ey0 = cy + R * sin(a0), ex1 = cx + R * cos(a0 + sw), ey1 = cy + R * sin(a0 + sw);
    double d = fmin(pt_square_dist(ex0, ey0, sx, sy), pt_square_dist(ex1, ey1, sx, sy));
    if (d == 0.0)
        return 0.0;
    for (int e = 0; e < 4; e++) {
        /* Edge: x = const (e < 2) or y = const, spanning one unit. */
        double fixed = e == 0 ? sx : e == 1 ? sx + 1 : e == 2 ? sy : sy + 1;
        double off = (e < 2 ? fixed - cx : fixed - cy), disc = R * R - off * off;
        if (disc < 0)
            continue;
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            double along = (e < 2 ? cy : cx) + sgn * sqrt(disc);
            double lo = e < 2 ? sy : sx;
            if (along < lo || along > lo + 1)
                continue;
            double px = e < 2 ? fixed : along, py = e < 2 ? along : fixed;
            if (on_arc(a0, sw, atan2(py - cy, px - cx)))
                return 0.0;
        }
    }
    for (int k = 0; k < 4; k++)
        d = fmin(d, pt_arc_dist(cx, cy, R, a0, sw, sx + (k & 1), sy + (k >> 1)));
    for (int k = 0; k < 4; k++)
        if (on_arc(a0, sw, k * M_PI_2))
            d = fmin(d, pt_square_dist(cx + R * cos(k * M_PI_2), cy + R * sin(k * M_PI_2), sx, sy));
    return d;
}

static bool arc_ok(const aa_oracle_world *w, double cx, double cy, double R, double a0, double sw)
{
    const double tol = w->m != NULL ? TOL_G : TOL_C, W = w->m ? w->m->width : w->w, H = w->m ? w->m->height : w->h;
    /* Inside the rectangle: the ends and every axis-extreme point on the arc. */
    for (int k = 0; k < 6; k++) {
        double ang = k < 4 ? k * M_PI_2 : (k == 4 ? a0 : a0 + sw);
        if (k < 4 && !on_arc(a0, sw, ang))
            continue;
        double px = cx + R * cos(ang), py = cy + R * sin(ang);
        if (px < w->r - tol || py < w->r - tol || px > W - w->r + tol || py > H - w->r + tol)
            return false;
    }
    if (w->m != NULL) {
        for (int j = 0; j < w->m->height; j++)
            for (int i = 0; i < w->m->width; i++)
                if (cell_blocked(w->m, i, j) && arc_square_dist(cx, cy, R, a0, sw, i, j) <= w->r - tol)
                    return false;
        return true;
    }
    for (size_t k = 0; k < w->n; k++)
        if (pt_arc_dist(cx, cy, R, a0, sw, w->c[k].x, w->c[k].y) <= w->c[k].r + w->r - tol)
            return false;
    return true;
}

/* ---- the eager graph -------------------------------------------------------------------------------------- */

typedef struct onode {
    double x, y;
    int circ;
} onode;

typedef struct oedge {
    int from, to;
    double cost;
} oedge;

typedef struct ograph {
    onode *v;
    int nv, cv;
    oedge *e;
    int ne, ce;
    int *single; /* per circle of radius 0: its one node, or -1 */
} ograph;

static int add_node(ograph *g, const ocirc *c, int k, double x, double y)
{
    if (c[k].R == 0.0 && g->single[k] >= 0)
        return g->single[k];
    if (g->nv == g->cv) {
        g->cv = g->cv ? 2 * g->cv : 64;
        g->v = realloc(g->v, (size_t)g->cv * sizeof *g->v);
    }
    if (c[k].R == 0.0) {
        x = c[k].x;
        y = c[k].y;
        g->single[k] = g->nv;
    }
    g->v[g->nv] = (onode){x, y, k};
    return g->nv++;
}

static void add_edge(ograph *g, int a, int b, double cost)
{
    if (g->ne == g->ce) {
        g->ce = g->ce ? 2 * g->ce : 256;
        g->e = realloc(g->e, (size_t)g->ce * sizeof *g->e);
    }
    g->e[g->ne++] = (oedge){a, b, cost};
}

double aa_oracle_length(const aa_oracle_world *w, double sx, double sy, double gx, double gy)
{
    if (!aa_oracle_line_ok(w, sx, sy, sx, sy) || !aa_oracle_line_ok(w, gx, gy, gx, gy))
        return INFINITY;
    if (sx == gx && sy == gy)
        return 0.0;
    /* Circles: the grown obstacles, or every vertex touching a blocked cell; then start and goal. */
    size_t cap = w->m ? (size_t)(w->m->width + 1) * (size_t)(w->m->height + 1) + 2 : w->n + 2;
    ocirc *c = malloc(cap * sizeof *c);
    int n = 0;
    if (w->m != NULL) {
        for (int k = 0; k <= w->m->height; k++)
            for (int i = 0; i <= w->m->width; i++) {
                int b = cell_blocked(w->m, i - 1, k - 1) + cell_blocked(w->m, i, k - 1) +
                        cell_blocked(w->m, i - 1, k) + cell_blocked(w->m, i, k);
                if (b > 0 && b < 4)
                    c[n++] = (ocirc){i, k, w->r};
            }
    } else {
        for (size_t k = 0; k < w->n; k++)
            c[n++] = (ocirc){w->c[k].x, w->c[k].y, w->c[k].r + w->r};
    }
    const int S = n, G = n + 1;
    c[n++] = (ocirc){sx, sy, 0.0};
    c[n++] = (ocirc){gx, gy, 0.0};
    ograph g = {0};
    g.single = malloc((size_t)n * sizeof *g.single);
    for (int k = 0; k < n; k++)
        g.single[k] = -1;
    int ns = add_node(&g, c, S, sx, sy), ngoal = add_node(&g, c, G, gx, gy);
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            double dx = c[b].x - c[a].x, dy = c[b].y - c[a].y, d = hypot(dx, dy), phi = atan2(dy, dx);
            if (d == 0.0)
                continue;
            for (int internal = 0; internal < 2; internal++) {
                double q = internal ? (c[a].R + c[b].R) / d : (c[a].R - c[b].R) / d;
                if (fabs(q) > 1.0)
                    continue;
                double th = acos(q);
                for (int sg = -1; sg <= 1; sg += 2) {
                    double al = phi + sg * th, be = internal ? al + M_PI : al;
                    double pax = c[a].x + c[a].R * cos(al), pay = c[a].y + c[a].R * sin(al);
                    double pbx = c[b].x + c[b].R * cos(be), pby = c[b].y + c[b].R * sin(be);
                    if (!aa_oracle_line_ok(w, pax, pay, pbx, pby))
                        continue;
                    int u = add_node(&g, c, a, pax, pay), v = add_node(&g, c, b, pbx, pby);
                    double len = hypot(pbx - pax, pby - pay);
                    add_edge(&g, u, v, len);
                    add_edge(&g, v, u, len);
                }
            }
        }
    /* Hugging arcs between every two tangent points of one circle, both ways round. */
    for (int u = 0; u < g.nv; u++)
        for (int v = 0; v < g.nv; v++) {
            int k = g.v[u].circ;
            if (u == v || g.v[v].circ != k || c[k].R == 0.0)
                continue;
            double a0 = atan2(g.v[u].y - c[k].y, g.v[u].x - c[k].x), a1 = atan2(g.v[v].y - c[k].y, g.v[v].x - c[k].x);
            double ccw = fmod(a1 - a0, 2 * M_PI);
            if (ccw < 0)
                ccw += 2 * M_PI;
            if (ccw > 0 && arc_ok(w, c[k].x, c[k].y, c[k].R, a0, ccw))
                add_edge(&g, u, v, c[k].R * ccw);
            double cw = 2 * M_PI - ccw;
            if (cw > 0 && cw < 2 * M_PI && arc_ok(w, c[k].x, c[k].y, c[k].R, a1, cw))
                add_edge(&g, u, v, c[k].R * cw);
        }
    /* Dijkstra, O(V^2 + E) with edges bucketed by source. */
    int *first = calloc((size_t)g.nv + 1, sizeof *first);
    oedge *by = malloc(((size_t)g.ne + 1) * sizeof *by);
    for (int i = 0; i < g.ne; i++)
        first[g.e[i].from + 1]++;
    for (int i = 0; i < g.nv; i++)
        first[i + 1] += first[i];
    int *fill = malloc(((size_t)g.nv + 1) * sizeof *fill);
    for (int i = 0; i <= g.nv; i++)
        fill[i] = first[i];
    for (int i = 0; i < g.ne; i++)
        by[fill[g.e[i].from]++] = g.e[i];
    double *dist = malloc((size_t)g.nv * sizeof *dist);
    char *done = calloc((size_t)g.nv, 1);
    for (int i = 0; i < g.nv; i++)
        dist[i] = INFINITY;
    dist[ns] = 0.0;
    for (;;) {
        int u = -1;
        for (int i = 0; i < g.nv; i++)
            if (!done[i] && isfinite(dist[i]) && (u < 0 || dist[i] < dist[u]))
                u = i;
        if (u < 0)
            break;
        done[u] = 1;
        for (int i = first[u]; i < first[u + 1]; i++)
            if (dist[u] + by[i].cost < dist[by[i].to])
                dist[by[i].to] = dist[u] + by[i].cost;
    }
    double res = dist[ngoal];
    free(first);
    free(by);
    free(fill);
    free(dist);
    free(done);
    free(g.v);
    free(g.e);
    free(g.single);
    free(c);
    return res;
}
