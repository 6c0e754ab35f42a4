/* lattice.c — the obstacle-aware lattice bound (lattice.h). */
#include "lattice.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

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

/* Fine cell (fx, fy) of the lattice (half a region cell a side) -> whether its region cell is free. */
static inline bool fine_free(const uint8_t *cfree, int32_t rw, int32_t rh, int32_t fx, int32_t fy)
{
    if (fx < 0 || fy < 0 || fx >= 2 * rw || fy >= 2 * rh)
        return false;
    return cfree[(fy >> 1) * rw + (fx >> 1)] != 0;
}

int ap_lattice_distances(const uint8_t *cfree, int32_t rw, int32_t rh, int32_t gx, int32_t gy, size_t nfree,
                         float *dist)
{
    const int32_t FW = 2 * rw + 1, FH = 2 * rh + 1;
    const size_t nv = (size_t)FW * (size_t)FH;
    if (nfree == 0 || nfree > nv)
        nfree = nv;
    /* Any lattice path is at most every vertex once, sqrt(2)/2 each: that many buckets of 1/2 suffice. */
    const size_t n_buckets = (size_t)(1.5 * (double)nfree) + 4;
    lbuckets q = {malloc(n_buckets * sizeof(uint32_t)), malloc(nfree * sizeof(uint32_t)),
                  malloc(nfree * sizeof(uint32_t)), 0, (uint32_t)nfree, (uint32_t)n_buckets};
    int st = AP_E_NOMEM;
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
    const float s1 = 0.5f, s2 = (float)(0.5 * M_SQRT2);
    for (uint32_t bk = 0; bk < q.nb; bk++) {
        while (q.head[bk] != UINT32_MAX) {
            uint32_t e = q.head[bk];
            q.head[bk] = q.next[e];
            uint32_t v = q.vert[e];
            float k = dist[v];
            if ((uint32_t)(k * 2.0f) != bk)
                continue; /* stale: v moved to an earlier bucket and was settled there */
            int32_t a = (int32_t)(v % (uint32_t)FW), b = (int32_t)(v / (uint32_t)FW);
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    if (dx == 0 && dy == 0)
                        continue;
                    int32_t na = a + dx, nb = b + dy;
                    if (na < 0 || nb < 0 || na >= FW || nb >= FH)
                        continue;
                    bool ok;
                    if (dx != 0 && dy != 0) {
                        /* diagonal: across the fine cell between the two vertices */
                        ok = fine_free(cfree, rw, rh, dx > 0 ? a : a - 1, dy > 0 ? b : b - 1);
                    } else if (dx != 0) {
                        int32_t fx = dx > 0 ? a : a - 1;
                        ok = fine_free(cfree, rw, rh, fx, b - 1) || fine_free(cfree, rw, rh, fx, b);
                    } else {
                        int32_t fy = dy > 0 ? b : b - 1;
                        ok = fine_free(cfree, rw, rh, a - 1, fy) || fine_free(cfree, rw, rh, a, fy);
                    }
                    if (!ok)
                        continue;
                    uint32_t w = (uint32_t)(nb * FW + na);
                    float nk = k + (dx != 0 && dy != 0 ? s2 : s1);
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
    }
    st = AP_OK;
out:
    free(q.head);
    free(q.next);
    free(q.vert);
    return st;
}

size_t ap_lattice_region_free(const ap_map *m, int32_t x0, int32_t y0, int32_t rw, int32_t rh, uint8_t *cfree)
{
    size_t blocked = 0;
    for (int32_t y = 0; y < rh; y++) {
        /* passable cells straight from the map's padded rows (the region lies inside the map) */
        const uint8_t *row = m->pass + ap_map_index(m, x0, y0 + y);
        for (int32_t x = 0; x < rw; x++) {
            const bool border = x == 0 || y == 0 || x == rw - 1 || y == rh - 1;
            const bool free_cell = border || row[x] != 0;
            cfree[y * rw + x] = free_cell ? 1 : 0;
            blocked += !free_cell;
        }
    }
    return blocked;
}
