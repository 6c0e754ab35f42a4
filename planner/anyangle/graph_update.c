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

/* The changed cells as rectangles of whole cells (a run of a row, runs of the same columns in consecutive
 * rows merged: a 4 x 4 wall is one) grown by NEAR, which is the same region as their squares grown by NEAR;
 * their union's box; and how many cells changed. */
typedef struct changes {
    box *cell;
    size_t n;       /* rectangles */
    size_t n_cells; /* changed cells */
    box all;
} changes;

/* Where vertex (x, y) lies against box r: bit 0 left of it, 1 right, 2 above, 3 below (Cohen-Sutherland). A
 * segment whose ends share a bit misses the box. */
static unsigned outcode(double x, double y, const box *r)
{
    return (unsigned)(x < r->x0) | (unsigned)(x > r->x1) << 1 | (unsigned)(y < r->y0) << 2 | (unsigned)(y > r->y1) << 3;
}

/* Outcodes of every corner against every changed cell's box, 4 bits a cell, 16 cells a word: corner k's
 * words are cell_code[k * words ...]. A pair whose ends share a bit for a cell misses that cell, so only
 * the cells whose nibble of (code a & code b) is 0 need the clip. Why: scattered changes make the union box
 * the whole map, and a clip per cell per pair of corners made the update of 16 scattered cells 2.5 times
 * slower than a build (den520d: 35 ms against 14; a helper's 77-99 ms under load). */
#define NIBBLE_LOW 0x1111111111111111ull

/* Can the point rule's verdict on the line between corners a and b of g differ between prev and m? code:
 * the corners' outcodes against the changes' union box; cell_code: the per-cell outcodes (words a corner). */
static bool line_near_change(const ap_aa_graph *g, uint32_t a, uint32_t b, const unsigned char *code,
                             const uint64_t *cell_code, size_t words, const changes *ch)
{
    if ((code[a] & code[b]) != 0)
        return false;
    const double ax = g->x[a], ay = g->y[a], bx = g->x[b], by = g->y[b];
    const uint64_t *ca = &cell_code[(size_t)a * words], *cb = &cell_code[(size_t)b * words];
    const double dx = bx - ax, dy = by - ay;
    for (size_t w = 0; w < words; w++) {
        const uint64_t m = ca[w] & cb[w];
        /* a 1 at bit 4i where cell 16w + i's nibble is 0 (cells past n have all four bits set: never) */
        uint64_t cand = ~(m | m >> 1 | m >> 2 | m >> 3) & NIBBLE_LOW;
        while (cand != 0) {
            /* The ends' boxes overlap the cell's (the nibble): the segment meets it unless its line has all
             * four corners strictly on one side (the separating axes of a segment and a box: x, y and the
             * segment's normal); no division, unlike the clip. */
            const box *r = &ch->cell[16 * w + (size_t)__builtin_ctzll(cand) / 4];
            const double c0 = dx * (r->y0 - ay) - dy * (r->x0 - ax), c1 = dx * (r->y0 - ay) - dy * (r->x1 - ax);
            const double c2 = dx * (r->y1 - ay) - dy * (r->x0 - ax), c3 = dx * (r->y1 - ay) - dy * (r->x1 - ax);
            if (!((c0 > 0.0 && c1 > 0.0 && c2 > 0.0 && c3 > 0.0) || (c0 < 0.0 && c1 < 0.0 && c2 < 0.0 && c3 < 0.0)))
                return true;
            cand &= cand - 1;
        }
    }
    return false;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A rectangle of whole cells: columns x0 .. x1, rows y0 .. y1. */
typedef struct rect {
    int32_t x0, x1, y0, y1;
} rect;

/* Row-major order (runs are made along rows). */
static int cmp_cell(const void *a, const void *b)
{
    const rect *p = a, *q = b;
    return p->y0 != q->y0 ? (p->y0 < q->y0 ? -1 : 1) : (p->x0 > q->x0) - (p->x0 < q->x0);
}

/* Column order, then row: runs of the same columns in consecutive rows become neighbours. */
static int cmp_run(const void *a, const void *b)
{
    const rect *p = a, *q = b;
    if (p->x0 != q->x0)
        return p->x0 < q->x0 ? -1 : 1;
    if (p->x1 != q->x1)
        return p->x1 < q->x1 ? -1 : 1;
    return (p->y0 > q->y0) - (p->y0 < q->y0);
}

/* Merge the n distinct changed cells r[] (each a 1 x 1 rect) into rectangles in place; returns their count:
 * runs along rows, then runs of the same columns in consecutive rows. */
static size_t merge_rects(rect *r, size_t n)
{
    if (n == 0)
        return 0;
    qsort(r, n, sizeof *r, cmp_cell);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k > 0 && r[k - 1].y0 == r[i].y0 && r[k - 1].x1 + 1 == r[i].x0)
            r[k - 1].x1 = r[i].x1;
        else if (k == 0 || r[k - 1].y0 != r[i].y0 || r[k - 1].x1 < r[i].x0)
            r[k++] = r[i];
    }
    qsort(r, k, sizeof *r, cmp_run);
    size_t m = 0;
    for (size_t i = 0; i < k; i++) {
        if (m > 0 && r[m - 1].x0 == r[i].x0 && r[m - 1].x1 == r[i].x1 && r[m - 1].y1 + 1 == r[i].y0)
            r[m - 1].y1 = r[i].y1;
        else
            r[m++] = r[i];
    }
    return m;
}

/* The cells of `changed` whose passability differs between prev and m, as grown squares (ch->cell, n
 * entries; malloc'd), and the sorted distinct grid vertices of those cells (*verts, *n_verts; vertex
 * (c, k) as k (width + 1) + c). Returns AP_OK or AP_E_NOMEM. */
static int changed_cells(const ap_map *prev, const ap_map *m, const ap_cell_pos *changed, size_t n, changes *ch,
                         uint64_t **verts, size_t *n_verts)
{
    ch->cell = malloc((n > 0 ? n : 1) * sizeof *ch->cell);
    rect *r = malloc((n > 0 ? n : 1) * sizeof *r);
    *verts = malloc((4 * n > 0 ? 4 * n : 1) * sizeof **verts);
    if (ch->cell == NULL || r == NULL || *verts == NULL) {
        free(r);
        return AP_E_NOMEM;
    }
    ch->n = ch->n_cells = 0;
    size_t nv = 0;
    const uint64_t row = (uint64_t)m->width + 1;
    for (size_t i = 0; i < n; i++) {
        const int32_t x = changed[i].x, y = changed[i].y;
        if (ap_map_passable(prev, x, y) == ap_map_passable(m, x, y))
            continue;
        r[ch->n_cells++] = (rect){x, x, y, y};
        for (int v = 0; v < 4; v++)
            (*verts)[nv++] = (uint64_t)(y + (v >> 1)) * row + (uint64_t)(x + (v & 1));
    }
    /* a cell listed twice counts once (the vertices' sort below drops its copies) */
    ch->n = merge_rects(r, ch->n_cells);
    for (size_t i = 0; i < ch->n; i++) {
        const box b = {r[i].x0 - NEAR, r[i].y0 - NEAR, r[i].x1 + 1 + NEAR, r[i].y1 + 1 + NEAR};
        if (i == 0)
            ch->all = b;
        ch->all.x0 = b.x0 < ch->all.x0 ? b.x0 : ch->all.x0;
        ch->all.y0 = b.y0 < ch->all.y0 ? b.y0 : ch->all.y0;
        ch->all.x1 = b.x1 > ch->all.x1 ? b.x1 : ch->all.x1;
        ch->all.y1 = b.y1 > ch->all.y1 ? b.y1 : ch->all.y1;
        ch->cell[i] = b;
    }
    free(r);
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
    size_t n_near; /* lines between kept corners tested again */
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
static int lines_near_changes(const ap_aa_graph *g, const uint32_t *from, const changes *ch, size_t limit,
                              update_ctx *u)
{
    uint32_t *start = calloc(g->n + 2, sizeof *start), *pairs = NULL, *list = NULL;
    unsigned char *code = malloc(g->n > 0 ? g->n : 1);
    const size_t words = (ch->n + 15) / 16;
    uint64_t *cell_code = malloc((g->n > 0 ? g->n : 1) * (words > 0 ? words : 1) * sizeof *cell_code);
    size_t n_pairs = 0, cap = 0;
    int st = start != NULL && code != NULL && cell_code != NULL ? AP_OK : AP_E_NOMEM;
    for (uint32_t k = 0; st == AP_OK && k < g->n; k++) {
        code[k] = (unsigned char)outcode(g->x[k], g->y[k], &ch->all);
        for (size_t w = 0; w < words; w++) {
            uint64_t v = ~0ull; /* cells past n: every bit set, so never a candidate */
            for (size_t i = 16 * w; i < ch->n && i < 16 * w + 16; i++) {
                const uint64_t shift = 4 * (i - 16 * w);
                v = (v & ~(0xfull << shift)) | (uint64_t)outcode(g->x[k], g->y[k], &ch->cell[i]) << shift;
            }
            cell_code[(size_t)k * words + w] = v;
        }
    }
    /* Changes in more than one rectangle: a sample first (every SAMPLE-th partner of every corner); when it
     * says the lines near the changes pass `limit`, stop there (u->n_near its estimate, no lists) and let
     * the caller build: testing every pair for 16 scattered changes cost about the build itself before the
     * build began. */
    enum { SAMPLE = 16 };
    size_t sampled = 0;
    for (uint32_t b = 1; st == AP_OK && ch->n > 1 && b < g->n; b++) {
        if (from[b] == UINT32_MAX)
            continue;
        for (uint32_t a = b % SAMPLE; a < b; a += SAMPLE)
            sampled += from[a] != UINT32_MAX && line_near_change(g, a, b, code, cell_code, words, ch);
    }
    if (st == AP_OK && SAMPLE * sampled > limit) {
        free(start);
        free(code);
        free(cell_code);
        u->near_start = u->near = NULL;
        u->n_near = SAMPLE * sampled;
        return AP_OK;
    }
    for (uint32_t b = 1; st == AP_OK && b < g->n; b++) {
        if (from[b] == UINT32_MAX)
            continue;
        const unsigned char cb = code[b];
        for (uint32_t a = 0; a < b; a++) {
            /* the union box's outcodes first, here in the loop: they reject most pairs */
            if ((code[a] & cb) != 0 || from[a] == UINT32_MAX || !line_near_change(g, a, b, code, cell_code, words, ch))
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
    free(cell_code);
    if (st != AP_OK) {
        free(start);
        free(list);
        return st;
    }
    u->near_start = start;
    u->near = list;
    u->n_near = n_pairs;
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
        return AP_OK; /* the caller builds */
    changes ch = {0};
    uint64_t *verts = NULL;
    uint32_t *from = NULL, *to = NULL, *fresh = NULL;
    uint8_t *memo = NULL;
    size_t n_verts = 0;
    ap_aa_graph *g = NULL;
    int st = changed_cells(prev, m, changed, n, &ch, &verts, &n_verts);
    if (st == AP_OK && (ch.n_cells > AP_AA_UPDATE_MAX_CELLS || old->n + n_verts > AP_AA_UPDATE_MAX_CORNERS))
        goto done; /* the caller builds */
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
    if (to == NULL || fresh == NULL || (g->n >= 2 && memo == NULL) || lines_near_changes(g, from, &ch, AP_AA_UPDATE_MAX_LINES_PER_CORNER * (size_t)g->n, &u) != AP_OK)
        goto done;
    if (u.n_near > AP_AA_UPDATE_MAX_LINES_PER_CORNER * (size_t)g->n) {
        /* testing those lines again costs more than the build's visibility scans: the caller builds */
        free((void *)u.near_start);
        free((void *)u.near);
        ap_aa_graph_free(g);
        g = *out = NULL;
        if (updated != NULL)
            *updated = false;
        goto done;
    }
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
