/* graph_update.c — the point unit's tangent visibility graph of a grid map after a tile update
 * (graph.h, ap_aa_graph_grid_update): the corners merged near the changed cells, the old table's lines kept
 * where no changed cell is near them, the rest tested again. */
#include "graph.h"

#include <stdlib.h>

#include "../base/status.h"
#include "visibility.h"

/* Margin (tiles) round a changed cell's square within which a line is tested again: above the point rule's
 * 1e-9 (grid_point.c), far above the rounding of the clip below (corners have small integer coordinates). */
#define NEAR 1e-6

/* A box [x0, x1] x [y0, y1] (tiles). */
typedef struct box {
    double x0, y0, x1, y1;
} box;

/* Does the closed segment A -> B meet the closed box? (Liang-Barsky clip.) */
static bool segment_meets(double ax, double ay, double bx, double by, const box *r)
{
    if ((ax < r->x0 && bx < r->x0) || (ax > r->x1 && bx > r->x1) || (ay < r->y0 && by < r->y0) ||
        (ay > r->y1 && by > r->y1))
        return false;
    const double a[2] = {ax, ay}, d[2] = {bx - ax, by - ay}, lo[2] = {r->x0, r->y0}, hi[2] = {r->x1, r->y1};
    double t0 = 0.0, t1 = 1.0;
    for (int k = 0; k < 2; k++) {
        if (d[k] == 0.0) {
            if (a[k] < lo[k] || a[k] > hi[k])
                return false;
            continue;
        }
        double u = (lo[k] - a[k]) / d[k], v = (hi[k] - a[k]) / d[k];
        if (u > v) {
            double t = u;
            u = v;
            v = t;
        }
        t0 = u > t0 ? u : t0;
        t1 = v < t1 ? v : t1;
        if (t0 > t1)
            return false;
    }
    return true;
}

/* The changed cells' squares grown by NEAR, and their union's box. */
typedef struct changes {
    box *cell;
    size_t n;
    box all;
} changes;

/* Where vertex (x, y) lies against box r: bit 0 left of it, 1 right, 2 above, 3 below (Cohen-Sutherland). A
 * segment whose ends share a bit misses the box. */
static unsigned outcode(double x, double y, const box *r)
{
    return (unsigned)(x < r->x0) | (unsigned)(x > r->x1) << 1 | (unsigned)(y < r->y0) << 2 | (unsigned)(y > r->y1) << 3;
}

/* Can the point rule's verdict on the line between corners a and b of g differ between prev and m? code:
 * the corners' outcodes against the changes' union box. */
static bool line_near_change(const ap_aa_graph *g, uint32_t a, uint32_t b, const unsigned char *code,
                             const changes *ch)
{
    if ((code[a] & code[b]) != 0)
        return false;
    const double ax = g->x[a], ay = g->y[a], bx = g->x[b], by = g->y[b];
    if (!segment_meets(ax, ay, bx, by, &ch->all))
        return false;
    for (size_t i = 0; i < ch->n; i++)
        if (segment_meets(ax, ay, bx, by, &ch->cell[i]))
            return true;
    return false;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The cells of `changed` whose passability differs between prev and m, as grown squares (ch->cell, n
 * entries; malloc'd), and the sorted distinct grid vertices of those cells (*verts, *n_verts; vertex
 * (c, k) as k (width + 1) + c). Returns AP_OK or AP_E_NOMEM. */
static int changed_cells(const ap_map *prev, const ap_map *m, const ap_cell_pos *changed, size_t n, changes *ch,
                         uint64_t **verts, size_t *n_verts)
{
    ch->cell = malloc((n > 0 ? n : 1) * sizeof *ch->cell);
    *verts = malloc((4 * n > 0 ? 4 * n : 1) * sizeof **verts);
    if (ch->cell == NULL || *verts == NULL)
        return AP_E_NOMEM;
    ch->n = 0;
    size_t nv = 0;
    const uint64_t row = (uint64_t)m->width + 1;
    for (size_t i = 0; i < n; i++) {
        const int32_t x = changed[i].x, y = changed[i].y;
        if (ap_map_passable(prev, x, y) == ap_map_passable(m, x, y))
            continue;
        box b = {x - NEAR, y - NEAR, x + 1 + NEAR, y + 1 + NEAR};
        if (ch->n == 0)
            ch->all = b;
        ch->all.x0 = b.x0 < ch->all.x0 ? b.x0 : ch->all.x0;
        ch->all.y0 = b.y0 < ch->all.y0 ? b.y0 : ch->all.y0;
        ch->all.x1 = b.x1 > ch->all.x1 ? b.x1 : ch->all.x1;
        ch->all.y1 = b.y1 > ch->all.y1 ? b.y1 : ch->all.y1;
        ch->cell[ch->n++] = b;
        for (int v = 0; v < 4; v++)
            (*verts)[nv++] = (uint64_t)(y + (v >> 1)) * row + (uint64_t)(x + (v & 1));
    }
    qsort(*verts, nv, sizeof **verts, cmp_u64);
    size_t d = 0;
    for (size_t i = 0; i < nv; i++)
        if (d == 0 || (*verts)[d - 1] != (*verts)[i])
            (*verts)[d++] = (*verts)[i];
    *n_verts = d;
    return AP_OK;
}

/* g's corners (g has room for old's plus the vertices): old's corners in order, with each changed vertex
 * (sorted) re-examined in m and merged in; from[k] = old's index of g's corner k, or UINT32_MAX for a new
 * corner (a corner whose quadrant changed is new). */
static void merge_corners(const ap_aa_graph *old, const ap_map *m, const uint64_t *verts, size_t n_verts,
                          ap_aa_graph *g, uint32_t *from)
{
    const uint64_t row = (uint64_t)m->width + 1;
    size_t i = 0, v = 0;
    g->n = 0;
    while (i < old->n || v < n_verts) {
        const uint64_t ov = i < old->n ? (uint64_t)old->y[i] * row + (uint64_t)old->x[i] : UINT64_MAX;
        if (v == n_verts || ov < verts[v]) { /* away from the changes: kept */
            g->x[g->n] = old->x[i];
            g->y[g->n] = old->y[i];
            g->quad[g->n] = old->quad[i];
            from[g->n++] = (uint32_t)i++;
            continue;
        }
        const int32_t c = (int32_t)(verts[v] % row), k = (int32_t)(verts[v] / row);
        const int q = ap_aa_grid_vertex_quad(m, c, k);
        const bool was = ov == verts[v];
        if (q >= 0) {
            g->x[g->n] = (double)c;
            g->y[g->n] = (double)k;
            g->quad[g->n] = (uint8_t)q;
            from[g->n++] = was && old->quad[i] == (uint8_t)q ? (uint32_t)i : UINT32_MAX;
        }
        i += was;
        v++;
    }
    for (size_t k = 0; k < g->n; k++)
        g->R[k] = 0.0;
}

/* What the fill of an updated graph reads. A kept corner's departures are old's in old's order (targets
 * renumbered, dropped corners skipped) with the pairs to test again merged in by target: the new corners
 * and the corner's lines near a change (near[near_start[k] .. near_start[k + 1]), increasing). */
typedef struct update_ctx {
    const ap_aa_graph *old;
    const uint32_t *from;   /* g's corner -> old's, UINT32_MAX for a new corner */
    const uint32_t *to;     /* old's corner -> g's, UINT32_MAX for a dropped one */
    const uint32_t *fresh;  /* g's new corners, increasing */
    size_t n_fresh;
    const uint32_t *near_start, *near;
} update_ctx;

/* The next target of kept corner k to test again at or after cursors (*f into fresh, *q into k's near
 * list), advancing that cursor; UINT32_MAX when none is left. */
static uint32_t next_test(const update_ctx *u, uint32_t k, size_t *f, uint32_t *q)
{
    uint32_t a = *f < u->n_fresh ? u->fresh[*f] : UINT32_MAX;
    uint32_t b = *q < u->near_start[k + 1] ? u->near[*q] : UINT32_MAX;
    if (a == UINT32_MAX && b == UINT32_MAX)
        return UINT32_MAX;
    if (a < b)
        (*f)++;
    else
        (*q)++;
    return a < b ? a : b;
}

static bool fill_updated(void *ctx, const ap_aa_graph *g, uint32_t k, int s, uint8_t *memo, ap_aa_dep_sink sink,
                         void *sink_ctx)
{
    const update_ctx *u = ctx;
    if (u->from[k] == UINT32_MAX) { /* a new corner: every line */
        for (uint32_t j = 0; j < g->n; j++)
            if (j != k && !ap_aa_graph_pair_departures(g, k, s, j, &memo[ap_aa_pair_slot(k, j)], sink, sink_ctx))
                return false;
        return true;
    }
    const ap_aa_graph *old = u->old;
    const uint32_t ok = u->from[k];
    size_t f = 0;
    uint32_t q = u->near_start[k];
    uint32_t t = next_test(u, k, &f, &q); /* the next target to test, in increasing order */
    for (uint32_t p = old->dep_start[2 * ok + (s > 0)]; p < old->dep_start[2 * ok + (s > 0) + 1]; p++) {
        const uint32_t j = u->to[old->deps[p].to];
        if (j == UINT32_MAX)
            continue;
        for (; t < j; t = next_test(u, k, &f, &q))
            if (!ap_aa_graph_pair_departures(g, k, s, t, &memo[ap_aa_pair_slot(k, t)], sink, sink_ctx))
                return false;
        if (t == j) /* tested again (when the loop above passes it) */
            continue;
        ap_aa_dep d = old->deps[p];
        d.to = j;
        if (!sink(sink_ctx, &d))
            return false;
    }
    for (; t != UINT32_MAX; t = next_test(u, k, &f, &q))
        if (!ap_aa_graph_pair_departures(g, k, s, t, &memo[ap_aa_pair_slot(k, t)], sink, sink_ctx))
            return false;
    return true;
}

/* The lines between two kept corners of g that pass near a change, as per-corner lists (u->near_start,
 * u->near: each list increasing; malloc'd). Returns AP_OK or AP_E_NOMEM. */
static int lines_near_changes(const ap_aa_graph *g, const uint32_t *from, const changes *ch, update_ctx *u)
{
    uint32_t *start = calloc(g->n + 2, sizeof *start), *pairs = NULL, *list = NULL;
    unsigned char *code = malloc(g->n > 0 ? g->n : 1);
    size_t n_pairs = 0, cap = 0;
    int st = start != NULL && code != NULL ? AP_OK : AP_E_NOMEM;
    for (uint32_t k = 0; st == AP_OK && k < g->n; k++)
        code[k] = (unsigned char)outcode(g->x[k], g->y[k], &ch->all);
    for (uint32_t b = 1; st == AP_OK && b < g->n; b++) {
        if (from[b] == UINT32_MAX)
            continue;
        for (uint32_t a = 0; a < b; a++) {
            if (from[a] == UINT32_MAX || !line_near_change(g, a, b, code, ch))
                continue;
            if (n_pairs == cap) {
                cap = cap > 0 ? 2 * cap : 1024;
                uint32_t *p = realloc(pairs, 2 * cap * sizeof *p);
                if (p == NULL) {
                    st = AP_E_NOMEM;
                    break;
                }
                pairs = p;
            }
            pairs[2 * n_pairs] = a;
            pairs[2 * n_pairs++ + 1] = b;
            start[a + 2]++;
            start[b + 2]++;
        }
    }
    if (st == AP_OK && (list = malloc((2 * n_pairs + 1) * sizeof *list)) == NULL)
        st = AP_E_NOMEM;
    if (st == AP_OK) {
        /* Counting sort in pair order (b increasing, then a): each corner's list comes out increasing (its
         * partners below it while b is the corner, then those above in order of b). */
        for (uint32_t k = 0; k < g->n; k++)
            start[k + 2] += start[k + 1];
        for (size_t i = 0; i < n_pairs; i++) {
            list[start[pairs[2 * i] + 1]++] = pairs[2 * i + 1];
            list[start[pairs[2 * i + 1] + 1]++] = pairs[2 * i];
        }
    }
    free(pairs);
    free(code);
    if (st != AP_OK) {
        free(start);
        free(list);
        return st;
    }
    u->near_start = start;
    u->near = list;
    return AP_OK;
}

int ap_aa_graph_grid_update(const ap_aa_graph *old, const ap_map *prev, const ap_map *m, const ap_cell_pos *changed,
                            size_t n, ap_aa_graph **out, bool *updated)
{
    *out = NULL;
    if (updated != NULL)
        *updated = false;
    if (old == NULL || old->dep_start == NULL || old->quad == NULL || old->unit_radius != 0.0 ||
        old->width != (double)m->width || old->height != (double)m->height)
        return ap_aa_graph_grid(m, 0.0, out);
    changes ch = {0};
    uint64_t *verts = NULL;
    uint32_t *from = NULL, *to = NULL, *fresh = NULL;
    uint8_t *memo = NULL;
    size_t n_verts = 0;
    ap_aa_graph *g = NULL;
    int st = changed_cells(prev, m, changed, n, &ch, &verts, &n_verts);
    if (st == AP_OK && (ch.n > AP_AA_UPDATE_MAX_CELLS || old->n + n_verts > AP_AA_UPDATE_MAX_CORNERS)) {
        st = ap_aa_graph_grid(m, 0.0, out);
        goto done;
    }
    if (st == AP_OK)
        st = ap_aa_graph_grid_empty(m, 0.0, old->n + n_verts, &g);
    if (st == AP_OK && (from = malloc((old->n + n_verts + 1) * sizeof *from)) == NULL)
        st = AP_E_NOMEM;
    if (st != AP_OK)
        goto done;
    merge_corners(old, m, verts, n_verts, g, from);
    *out = g;
    g->vis = ap_aa_vis_build(m, g->x, g->y, g->n); /* as ap_aa_graph_grid's (NULL: every line tested) */
    if (g->n > AP_AA_EAGER_AUTO_MAX) /* lazy, as ap_aa_graph_grid leaves it */
        goto done;
    if (updated != NULL)
        *updated = true;
    /* From here on a failure leaves g lazy, as a failed precompute does in ap_aa_graph_grid. */
    update_ctx u = {.old = old, .from = from};
    to = malloc((old->n + 1) * sizeof *to);
    fresh = malloc((g->n + 1) * sizeof *fresh);
    memo = g->n >= 2 ? calloc((size_t)g->n * (g->n - 1) / 2, 1) : NULL;
    if (to == NULL || fresh == NULL || (g->n >= 2 && memo == NULL) || lines_near_changes(g, from, &ch, &u) != AP_OK)
        goto done;
    for (size_t k = 0; k < old->n; k++)
        to[k] = UINT32_MAX;
    for (uint32_t k = 0; k < g->n; k++) {
        if (from[k] != UINT32_MAX)
            to[from[k]] = k;
        else
            fresh[u.n_fresh++] = k;
    }
    u.to = to;
    u.fresh = fresh;
    ap_aa_graph_precompute_with(g, memo, fill_updated, &u);
    free((void *)u.near_start);
    free((void *)u.near);
done:
    free(ch.cell);
    free(verts);
    free(from);
    free(to);
    free(fresh);
    free(memo);
    if (st != AP_OK && g != NULL) {
        ap_aa_graph_free(g);
        *out = NULL;
    }
    return st;
}
