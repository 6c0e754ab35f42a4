/* lattice.c — the obstacle-aware lattice bound (lattice.h). */
#include "lattice.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../base/clock.h"
#include "../base/status.h"

/* The lattice's priority queue: Dial's buckets of width 1/2 tile, the shortest lattice step. A vertex popped
 * from bucket b (distance in [b/2, (b+1)/2)) can only push its neighbours into bucket b + 1 or later (every
 * step adds at least 1/2, and the float sum of a distance >= b/2 and 0.5 rounds to >= (b+1)/2, which is
 * representable), so the vertices of one bucket may be settled in any order: exact Dijkstra without a heap.
 * Measured: the heap version was ~80% of ap_dir_init and ~35% of a short Directional24 query. Entries are
 * lazily deleted (a vertex pushed again with a smaller distance leaves a stale entry, skipped on pop). */
typedef struct lbuckets {
    uint32_t *head;   /* per bucket: first entry, UINT32_MAX = empty */
    uint32_t *next;   /* per entry: next entry of the same bucket */
    uint32_t *vert;   /* per entry: the vertex */
    uint32_t n, cap;  /* entries used / allocated */
    uint32_t nb;      /* buckets */
} lbuckets;

static bool lb_push(lbuckets *q, uint32_t bucket, uint32_t v)
{
    if (q->n == q->cap) {
        uint32_t cap = q->cap * 2;
        uint32_t *nx = realloc(q->next, (size_t)cap * sizeof *nx);
        if (nx == NULL)
            return false;
        q->next = nx;
        uint32_t *vx = realloc(q->vert, (size_t)cap * sizeof *vx);
        if (vx == NULL)
            return false;
        q->vert = vx;
        q->cap = cap;
    }
    q->vert[q->n] = v;
    q->next[q->n] = q->head[bucket];
    q->head[bucket] = q->n++;
    return true;
}

/* The steps a vertex may take (bit i: the step by off[i] in ap_lattice_distances: +x, -x, +y, -y, +x+y,
 * -x-y, +x-y, -x+y) given the four fine cells (half a region cell a side) around it, bit 0 the one at (-x,
 * -y), 1 (+x, -y), 2 (-x, +y), 3 (+x, +y): a straight step runs between two of them and needs one free, a
 * diagonal one crosses one and needs it free (lattice.h). */
static const uint8_t step_mask[16] = {
#define M(c) (uint8_t)((((c) & 10) != 0) << 0 | (((c) & 5) != 0) << 1 | (((c) & 12) != 0) << 2 | (((c) & 3) != 0) << 3 | \
                       (((c) >> 3) & 1) << 4 | ((c) & 1) << 5 | (((c) >> 1) & 1) << 6 | (((c) >> 2) & 1) << 7)
    M(0), M(1), M(2), M(3), M(4), M(5), M(6), M(7), M(8), M(9), M(10), M(11), M(12), M(13), M(14), M(15)
#undef M
};

int ap_lattice_distances(const uint8_t *cfree, int32_t rw, int32_t rh, int32_t gx, int32_t gy, size_t nfree,
                         float *dist)
{
    return ap_lattice_distances_until(cfree, rw, rh, gx, gy, nfree, dist, 0);
}

int ap_lattice_distances_until(const uint8_t *cfree, int32_t rw, int32_t rh, int32_t gx, int32_t gy, size_t nfree,
                               float *dist, uint64_t deadline_ns)
{
    if (deadline_ns != 0 && ap_monotonic_ns() >= deadline_ns)
        return AP_TIMEOUT;
    const int32_t FW = 2 * rw + 1, FH = 2 * rh + 1;
    const size_t nv = (size_t)FW * (size_t)FH;
    if (nfree == 0 || nfree > nv)
        nfree = nv;
    /* Any lattice path is at most every vertex once, sqrt(2)/2 each: that many buckets of 1/2 suffice. */
    const size_t n_buckets = (size_t)(1.5 * (double)nfree) + 4;
    lbuckets q = {malloc(n_buckets * sizeof(uint32_t)), malloc(nfree * sizeof(uint32_t)),
                  malloc(nfree * sizeof(uint32_t)), 0, (uint32_t)nfree, (uint32_t)n_buckets};
    int st = AP_E_NOMEM;
    uint8_t *ff = NULL;
    if (q.head == NULL || q.next == NULL || q.vert == NULL)
        goto out;
    for (size_t i = 0; i < nv; i++)
        dist[i] = INFINITY;
    for (size_t i = 0; i < n_buckets; i++)
        q.head[i] = UINT32_MAX;
    const uint32_t src = (uint32_t)((2 * gy + 1) * FW + 2 * gx + 1);
    dist[src] = 0.0f;
    if (!lb_push(&q, 0, src))
        goto out;
    /* The fine cells padded with a ring of blocked ones: the four around vertex (a, b) are ff[b * (FW + 1) + a],
     * its right neighbour, and the two below; they decide all eight steps (step_mask), and a step that would
     * leave the lattice needs a fine cell of the ring, so none does. */
    const int32_t FFW = FW + 1;
    ff = malloc((size_t)FFW * (size_t)(FH + 1));
    if (ff == NULL)
        goto out;
    memset(ff, 0, (size_t)FFW);
    memset(ff + (size_t)FFW * (size_t)FH, 0, (size_t)FFW);
    for (int32_t y = 0; y < rh; y++) { /* region row y: fine rows 2 y and 2 y + 1, each cell twice */
        uint8_t *r0 = ff + (size_t)(2 * y + 1) * (size_t)FFW;
        r0[0] = r0[FFW - 1] = 0;
        for (int32_t x = 0; x < rw; x++)
            r0[2 * x + 1] = r0[2 * x + 2] = cfree[y * rw + x] != 0;
        memcpy(r0 + FFW, r0, (size_t)FFW);
    }
    const float s1 = 0.5f, s2 = (float)(0.5 * M_SQRT2);
    const int32_t off[8] = {1, -1, FW, -FW, FW + 1, -FW - 1, -FW + 1, FW - 1};
    const float step[8] = {s1, s1, s1, s1, s2, s2, s2, s2};
    uint32_t settled = 0;
    for (uint32_t bk = 0; bk < q.nb; bk++) {
        while (q.head[bk] != UINT32_MAX) {
            if (deadline_ns != 0 && (++settled & 4095u) == 0 && ap_monotonic_ns() >= deadline_ns) {
                st = AP_TIMEOUT;
                goto out;
            }
            uint32_t e = q.head[bk];
            q.head[bk] = q.next[e];
            uint32_t v = q.vert[e];
            float k = dist[v];
            if ((uint32_t)(k * 2.0f) != bk)
                continue; /* stale: v moved to an earlier bucket and was settled there */
            const uint32_t a = v % (uint32_t)FW, b = v / (uint32_t)FW;
            const uint8_t *f0 = ff + (size_t)b * (size_t)FFW + a, *f1 = f0 + FFW;
            for (unsigned m = step_mask[f0[0] | f0[1] << 1 | f1[0] << 2 | f1[1] << 3]; m != 0; m &= m - 1) {
                const int i = __builtin_ctz(m);
                const uint32_t w = (uint32_t)((int32_t)v + off[i]);
                const float nk = k + step[i];
                if (nk < dist[w]) {
                    dist[w] = nk;
                    uint32_t nbk = (uint32_t)(nk * 2.0f);
                    if (nbk >= q.nb)
                        nbk = q.nb - 1; /* unreachable by the bound above; kept safe */
                    if (!lb_push(&q, nbk, w))
                        goto out;
                }
            }
        }
    }
    st = AP_OK;
out:
    free(ff);
    free(q.head);
    free(q.next);
    free(q.vert);
    return st;
}

size_t ap_lattice_region_free(const ap_map *m, int32_t x0, int32_t y0, int32_t rw, int32_t rh, uint8_t *cfree)
{
    size_t blocked = 0;
    /* A side of the region at the map's edge has nothing beyond it for a path to leave through: its ring
     * cells keep the map's passability (a ring marked free all round a map with a blocked border, as most
     * have, was a free road round every wall). */
    const bool open_l = x0 > 0, open_t = y0 > 0, open_r = x0 + rw < m->width, open_b = y0 + rh < m->height;
    for (int32_t y = 0; y < rh; y++) {
        /* passable cells straight from the map's padded rows (the region lies inside the map) */
        const uint8_t *row = m->pass + ap_map_index(m, x0, y0 + y);
        const bool row_open = (y == 0 && open_t) || (y == rh - 1 && open_b);
        for (int32_t x = 0; x < rw; x++) {
            const bool border = row_open || (x == 0 && open_l) || (x == rw - 1 && open_r);
            const bool free_cell = border || row[x] != 0;
            cfree[y * rw + x] = free_cell ? 1 : 0;
            /* (a straight line between two points inside the ring never meets a ring cell) */
            blocked += !free_cell && y > 0 && y < rh - 1 && x > 0 && x < rw - 1;
        }
    }
    return blocked;
}
