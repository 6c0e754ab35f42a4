/* open_bucket.h — private to the A* loops (core_loop.h): the bucketed open list (bags, bitmap, overflow
 * heap, sorted lowest bucket) and its RELAX step. Not a public interface.
 *
 * With a consistent heuristic the popped f never decreases, and when a successor's f is at most its
 * parent's + 2 * sqrt(2) (8-connected grid) every open f lies in [f_min, f_min + 2 * sqrt(2)]: the open
 * list splits into buckets of width 1 / per_tile by f, and a ring of AP_BQ_RING covers every live one.
 * Only the lowest non-empty bucket, cur, is a heap (ws->open, the total order open_before_total); the ones
 * above are unordered bags (f and node; g is the node's), heapified once (Floyd) when cur reaches them.
 * Exact: a bucket holds whole f values, so the pops come in the order a single heap gives. Most pushes are
 * a bag append (no sift, no compare) and pops sift down through the small lowest bucket only. An f that
 * rounds below cur (a rounding step of the consistent heuristic) goes into the heap, which orders it
 * exactly. A decrease-key finds the node through its bucket (from its old f) and pos.
 *
 * The wide policy (const flag `wide`, for successors that jump far, as precomputed jump points do) uses
 * the same list with wider buckets and its own order (open_before, no node id): a jump can raise f by up
 * to twice its length, beyond any fixed ring, so an f beyond the ring goes to an overflow heap (ov_*,
 * below), drained into the bags as cur moves; bag entries also keep the arrival word (aux, one byte). Its
 * lowest bucket is small (about 7 entries on random512-40-0), so up to AP_BQ_SORTED_MAX entries it is kept
 * sorted (sorted, cur_insert, cur_raise) and a pop takes the last entry without a sift.
 *
 * Measurements behind every choice here (bucket widths, ring size, bags instead of heaps, 12-byte bag
 * entries, bitmap, overflow, sorted bucket): docs/search-measurements.md, fifth and seventh rounds.
 */
#ifndef AP_OPEN_BUCKET_H
#define AP_OPEN_BUCKET_H

#include <stdbool.h>
#include <stdint.h>

#include "open_heap.h"
#include "search.h"

/* Buckets per tile of f of the 8-connected grid's list, ring size (a power of two above
 * 2 * sqrt(2) * AP_BQ_PER_TILE + 2: every open f lies within 2 * sqrt(2) of the lowest), entries per
 * chunk of a bag. */
enum { AP_BQ_PER_TILE = 64, AP_BQ_RING = 256, AP_BQ_CHUNK = 32 };

/* Buckets per tile of the wide policy (jump points): its ring spans 64 tiles, and a successor whose f
 * lies beyond it waits in the overflow heap. 4 measured best of 1-64 (seventh round). */
enum { AP_BQ_WIDE_PER_TILE = 4 };

/* Whether every f an A* search on a uniform-cost grid can reach has a bucket number (f * per_tile, a uint32_t):
 * a path has at most `cells` (passable cells) steps of at most sqrt(2) tiles, the octile heuristic is at most
 * sqrt(2) * side (the longer side, tiles). At the default map limits it always holds (2^24 cells: f < 2.4e7
 * tiles); on larger maps the grid domains leave their bucketed loops for the generic one (a heap, any f).
 * Pure. */
static inline bool ap_bq_fits(int64_t cells, int32_t side, uint32_t per_tile)
{
    return ((double)cells + (double)side) * 1.4142135623730951 * (double)per_tile < 4.0e9;
}

/* Wide policy: the lowest bucket is kept sorted (pop without a sift) while it has at most this many
 * entries, else it is a heap (16, 32, 64, 128 measured alike). */
enum { AP_BQ_SORTED_MAX = 32 };

/* One bucket that is not the current one: an unordered bag of entries kept in chunks of AP_BQ_CHUNK
 * entries (all full but the last). */
typedef struct ap_bq_bag {
    uint32_t last; /* chunk holding the newest entries, UINT32_MAX when the bag is empty */
    uint32_t fill; /* entries in that chunk */
} ap_bq_bag;

/* The buckets above the current one; the current one is ws->open. Owned by the workspace
 * (ap_workspace.bq), 13 bytes per node (f, node, aux of a bag entry) plus the ring. */
typedef struct ap_open_bucket {
    double *f;           /* bag entries' f, in chunks of AP_BQ_CHUNK (g is the node's) */
    uint32_t *node;      /* bag entries' node, same layout */
    uint32_t *link;      /* per chunk: the bag's previous chunk, or the next free chunk */
    uint8_t *aux;        /* wide: bag entries' arrival word, same layout */
    uint32_t ov_len;     /* wide: entries in the overflow heap (top of ws->open) */
    bool sorted;         /* wide: ws->open is sorted, first out last, instead of a heap */
    uint32_t chunks;
    uint32_t free_chunk; /* first free chunk, UINT32_MAX when none */
    uint32_t cur;        /* bucket held by ws->open (f * per_tile, truncated) */
    uint32_t count;      /* entries in the bags */
    ap_bq_bag bag[AP_BQ_RING];       /* bucket b is bag[b % AP_BQ_RING] */
    uint64_t used[AP_BQ_RING / 64]; /* bit i: bag[i] is not empty */
} ap_open_bucket;

/* Allocate the bucketed list for a workspace of `capacity` nodes: every open node sits in at most one bag,
 * all chunks but each bag's last are full, so capacity / AP_BQ_CHUNK + AP_BQ_RING chunks always suffice.
 * Returns NULL when out of memory. Called by ap_workspace_init; thread-safe (touches nothing shared). The
 * list is owned by one workspace and used by one search at a time. */
ap_open_bucket *ap_open_bucket_new(uint32_t capacity);

/* Free a list from ap_open_bucket_new; NULL is ignored. Called by ap_workspace_free: the workspace's thread. */
void ap_open_bucket_free(ap_open_bucket *bq);

/* What a prefetching wide loop reads when an entry's bucket becomes the heap (jump points: the jump row
 * and forced byte; seventh round): the including loop defines it before including this header. */
#ifndef AP_BQ_PREFETCH
#define AP_BQ_PREFETCH(ctx, v) ((void)0)
#endif

/* The bucket of an entry of f (tiles): f * per_tile truncated, never below cur (an f that rounds below it goes
 * into the heap). Pure. */
static inline uint32_t bq_bucket(const ap_open_bucket *bq, double f, const uint32_t per_tile)
{
    uint32_t b = (uint32_t)(f * per_tile);
    return b < bq->cur ? bq->cur : b;
}

/* Start of a search on this list: empty the bags an earlier search left (their chunks back to the free
 * list): only the non-empty ones (bitmap), so the work is bounded by what that search did, never a sweep
 * of the pool; then the start (ws->open[0]) is the lowest bucket. Writes bq: the workspace's thread only. */
static inline void bq_begin(ap_workspace *ws, ap_open_bucket *bq, const bool wide, const uint32_t per_tile)
{
    for (int w = 0; w < AP_BQ_RING / 64; w++) {
        for (uint64_t m = bq->used[w]; m != 0; m &= m - 1) {
            ap_bq_bag *bag = &bq->bag[w * 64 + __builtin_ctzll(m)];
            while (bag->last != UINT32_MAX) {
                uint32_t c = bag->last;
                bag->last = bq->link[c];
                bq->link[c] = bq->free_chunk;
                bq->free_chunk = c;
            }
            bag->fill = 0;
        }
        bq->used[w] = 0;
    }
    bq->count = 0;
    bq->ov_len = 0;
    bq->sorted = wide; /* the start alone */
    bq->cur = (uint32_t)(ws->open[0].f * per_tile);
}

/* Append e to bucket b's bag (b above cur, within the ring), taking a free chunk when the bag's newest is full
 * (one always exists: ap_open_bucket_new); pos[e.node] becomes its pool index. Writes ws and bq: the
 * workspace's thread only. */
static inline __attribute__((always_inline)) void bq_bag_add(ap_workspace *ws, ap_open_bucket *bq, uint32_t b,
                                                             ap_open_entry e, const bool wide)
{
    const uint32_t slot = b & (AP_BQ_RING - 1);
    ap_bq_bag *bag = &bq->bag[slot];
    if (bag->last == UINT32_MAX || bag->fill == AP_BQ_CHUNK) {
        if (bag->last == UINT32_MAX)
            bq->used[slot / 64] |= 1ull << (slot % 64);
        uint32_t c = bq->free_chunk; /* never UINT32_MAX: see ap_open_bucket_new */
        bq->free_chunk = bq->link[c];
        bq->link[c] = bag->last;
        bag->last = c;
        bag->fill = 0;
    }
    uint32_t i = bag->last * AP_BQ_CHUNK + bag->fill++;
    bq->f[i] = e.f;
    bq->node[i] = e.node;
    if (wide)
        bq->aux[i] = (uint8_t)e.aux;
    ws->pos[e.node] = i;
    bq->count++;
}

/* Take the entry at pool index i out of bucket b's bag: the bag's newest entry fills the hole (its pos follows);
 * an emptied chunk goes back to the free list. Writes ws and bq: the workspace's thread only. */
static inline __attribute__((always_inline)) void bq_bag_remove(ap_workspace *ws, ap_open_bucket *bq, uint32_t b,
                                                                uint32_t i, const bool wide)
{
    const uint32_t slot = b & (AP_BQ_RING - 1);
    ap_bq_bag *bag = &bq->bag[slot];
    uint32_t j = bag->last * AP_BQ_CHUNK + --bag->fill;
    if (i != j) {
        bq->f[i] = bq->f[j];
        bq->node[i] = bq->node[j];
        if (wide)
            bq->aux[i] = bq->aux[j];
        ws->pos[bq->node[i]] = i;
    }
    if (bag->fill == 0) {
        uint32_t c = bag->last;
        bag->last = bq->link[c];
        bag->fill = bag->last == UINT32_MAX ? 0 : AP_BQ_CHUNK;
        if (bag->last == UINT32_MAX)
            bq->used[slot / 64] &= ~(1ull << (slot % 64));
        bq->link[c] = bq->free_chunk;
        bq->free_chunk = c;
    }
    bq->count--;
}

/* Wide overflow: a binary min-heap by f of the entries whose bucket lies beyond the ring (bucket >= cur +
 * AP_BQ_RING), kept at the top of ws->open growing down (entry k at open[capacity - 1 - k]; the heap and the
 * overflow together hold at most one entry per node, so they never meet). pos[v] is v's k while it is
 * there. Drained into the bags whenever cur moves, so an entry is there iff its bucket is beyond the
 * ring: its old f tells a decrease-key where it is. ov_at: overflow entry k (< capacity), borrowed from ws->open.
 * These write ws (and bq): the workspace's thread only. */
static inline ap_open_entry *ov_at(ap_workspace *ws, uint32_t k)
{
    return &ws->open[ws->capacity - 1 - k];
}

/* Sift overflow entry k up by f (pos follows). */
static inline void ov_sift_up(ap_workspace *ws, uint32_t k)
{
    ap_open_entry e = *ov_at(ws, k);
    while (k > 0) {
        uint32_t p = (k - 1) / 2;
        if (!(e.f < ov_at(ws, p)->f))
            break;
        *ov_at(ws, k) = *ov_at(ws, p);
        ws->pos[ov_at(ws, k)->node] = k;
        k = p;
    }
    *ov_at(ws, k) = e;
    ws->pos[e.node] = k;
}

/* Sift overflow entry k (< bq->ov_len) down by f (pos follows). */
static inline void ov_sift_down(ap_workspace *ws, ap_open_bucket *bq, uint32_t k)
{
    const uint32_t len = bq->ov_len;
    ap_open_entry e = *ov_at(ws, k);
    for (;;) {
        uint32_t c = k * 2 + 1;
        if (c >= len)
            break;
        if (c + 1 < len && ov_at(ws, c + 1)->f < ov_at(ws, c)->f)
            c++;
        if (!(ov_at(ws, c)->f < e.f))
            break;
        *ov_at(ws, k) = *ov_at(ws, c);
        ws->pos[ov_at(ws, k)->node] = k;
        k = c;
    }
    *ov_at(ws, k) = e;
    ws->pos[e.node] = k;
}

/* Take overflow entry k (< bq->ov_len) out: the last entry fills the hole and sinks or rises. */
static inline void ov_remove(ap_workspace *ws, ap_open_bucket *bq, uint32_t k)
{
    bq->ov_len--;
    if (k == bq->ov_len)
        return;
    const ap_open_entry e = *ov_at(ws, bq->ov_len);
    *ov_at(ws, k) = e;
    ov_sift_down(ws, bq, k);
    if (ws->pos[e.node] == k) /* it did not move down: it may have to move up */
        ov_sift_up(ws, k);
}

/* Wide: the lowest bucket, when it is small (bq->sorted), is kept sorted with the first out last, so a pop
 * is open[--open_len] with no sift. Entry i moves towards the end while it goes before its successor (a
 * new or lowered entry). Writes ws: the workspace's thread only. */
static inline void cur_raise(ap_workspace *ws, uint32_t i)
{
    ap_open_entry *open = ws->open;
    const uint32_t len = ws->open_len;
    const ap_open_entry e = open[i];
    while (i + 1 < len && open_before(&e, &open[i + 1])) {
        open[i] = open[i + 1];
        ws->pos[open[i].node] = i;
        i++;
    }
    open[i] = e;
    ws->pos[e.node] = i;
}

/* Add e to the sorted lowest bucket, or, beyond AP_BQ_SORTED_MAX entries, turn it into a heap (reversed:
 * a sorted array with the first out first is a heap) and push e there (bq->sorted then false). Writes ws and bq:
 * the workspace's thread only. */
static inline void cur_insert(ap_workspace *ws, ap_open_bucket *bq, ap_open_entry e)
{
    ap_open_entry *open = ws->open;
    uint32_t len = ws->open_len;
    if (len >= AP_BQ_SORTED_MAX) {
        for (uint32_t a = 0, b = len - 1; a < b; a++, b--) {
            ap_open_entry t = open[a];
            open[a] = open[b];
            open[b] = t;
        }
        for (uint32_t k = 0; k < len; k++)
            ws->pos[open[k].node] = k;
        bq->sorted = false;
        open[len] = e;
        ws->open_len = len + 1;
        sift_up(ws, len, false);
        return;
    }
    uint32_t j = len;
    while (j > 0 && open_before(&open[j - 1], &e)) {
        open[j] = open[j - 1];
        ws->pos[open[j].node] = j;
        j--;
    }
    open[j] = e;
    ws->pos[e.node] = j;
    ws->open_len = len + 1;
}

/* Push e (f in tiles) where its bucket says: the heap (or the sorted lowest bucket) when it is cur's, the wide
 * overflow beyond the ring, else a bag. Writes ws and bq: the workspace's thread only. */
static inline __attribute__((always_inline)) void bq_push(ap_workspace *ws, ap_open_bucket *bq, ap_open_entry e,
                                                          const bool wide, const uint32_t per_tile)
{
    uint32_t b = bq_bucket(bq, e.f, per_tile);
    if (b == bq->cur) {
        if (wide && bq->sorted) {
            cur_insert(ws, bq, e);
            return;
        }
        uint32_t i = ws->open_len++;
        ws->open[i] = e;
        sift_up(ws, i, !wide);
    } else if (wide && b - bq->cur >= AP_BQ_RING) {
        uint32_t k = bq->ov_len++;
        *ov_at(ws, k) = e;
        ov_sift_up(ws, k);
    } else {
        bq_bag_add(ws, bq, b, e, wide);
    }
}

/* Node e.node is in the open list with f = oldf (or closed): lower it to entry e. Returns false, changing
 * nothing, when the node is closed. A node whose bucket is above cur is open (cur has not reached it). Writes ws
 * and bq: the workspace's thread only. */
static inline __attribute__((always_inline)) bool bq_decrease(ap_workspace *ws, ap_open_bucket *bq, double oldf,
                                                              ap_open_entry e, const bool wide,
                                                              const uint32_t per_tile)
{
    const uint32_t ob = bq_bucket(bq, oldf, per_tile), i = ws->pos[e.node];
    if (ob == bq->cur) {
        if (i >= ws->open_len || ws->open[i].node != e.node)
            return false;
        ws->open[i] = e;
        if (wide && bq->sorted)
            cur_raise(ws, i);
        else
            sift_up(ws, i, !wide);
        return true;
    }
    const uint32_t nb = bq_bucket(bq, e.f, per_tile);
    if (wide && ob - bq->cur >= AP_BQ_RING) {
        if (nb - bq->cur >= AP_BQ_RING) {
            *ov_at(ws, i) = e;
            ov_sift_up(ws, i);
        } else {
            ov_remove(ws, bq, i);
            bq_push(ws, bq, e, wide, per_tile);
        }
        return true;
    }
    if (nb == ob) {
        bq->f[i] = e.f;
        if (wide)
            bq->aux[i] = (uint8_t)e.aux;
        return true;
    }
    bq_bag_remove(ws, bq, ob, i, wide);
    bq_push(ws, bq, e, wide, per_tile);
    return true;
}

/* The heap is empty and the bags (or the wide overflow) are not: move cur to the next non-empty bucket and
 * make its bag the heap (wide: sorted when it holds at most AP_BQ_SORTED_MAX entries; Floyd's heapify otherwise),
 * first draining the overflow entries the moved ring now covers. ctx is the domain's, for AP_BQ_PREFETCH.
 * Writes ws and bq: the workspace's thread only. */
static inline __attribute__((always_inline)) void bq_advance(ap_workspace *ws, ap_open_bucket *bq, const bool wide,
                                                             const uint32_t per_tile, const void *ctx)
{
    (void)ctx;
    const uint32_t cs = bq->cur & (AP_BQ_RING - 1);
    if (!wide || bq->count > 0) {
        /* the next non-empty bag after cur's slot (whose bag is empty), cyclically, from the bitmap */
        uint32_t s = (cs + 1) & (AP_BQ_RING - 1), slot;
        uint64_t m = bq->used[s / 64] & (~0ull << (s % 64));
        for (uint32_t w = s / 64;;) {
            if (m != 0) {
                slot = w * 64 + (uint32_t)__builtin_ctzll(m);
                break;
            }
            w = (w + 1) % (AP_BQ_RING / 64);
            m = bq->used[w];
        }
        bq->cur += (slot - cs) & (AP_BQ_RING - 1);
    } else {
        /* only the overflow is left: jump to its lowest bucket */
        bq->cur = (uint32_t)(ov_at(ws, 0)->f * per_tile);
    }
    if (wide) {
        /* the ring moved: bring in the overflow entries it now covers */
        while (bq->ov_len > 0 && (uint32_t)(ov_at(ws, 0)->f * per_tile) - bq->cur < AP_BQ_RING) {
            ap_open_entry e = *ov_at(ws, 0);
            ov_remove(ws, bq, 0);
            bq_bag_add(ws, bq, (uint32_t)(e.f * per_tile), e, true);
        }
    }
    const uint32_t slot = bq->cur & (AP_BQ_RING - 1);
    ap_bq_bag *bag = &bq->bag[slot];
    bq->used[slot / 64] &= ~(1ull << (slot % 64));
    uint32_t n = 0, fill = bag->fill;
    for (uint32_t c = bag->last; c != UINT32_MAX;) {
        const double *f = &bq->f[c * AP_BQ_CHUNK];
        const uint32_t *v = &bq->node[c * AP_BQ_CHUNK];
        const uint8_t *a = &bq->aux[c * AP_BQ_CHUNK];
        for (uint32_t k = 0; k < fill; k++, n++) {
            if (wide)
                AP_BQ_PREFETCH(ctx, v[k]);
            ws->open[n] = (ap_open_entry){f[k], ws->nodes[v[k]].g, v[k], wide ? a[k] : 0};
            ws->pos[v[k]] = n;
        }
        uint32_t prev = bq->link[c];
        bq->link[c] = bq->free_chunk;
        bq->free_chunk = c;
        c = prev;
        fill = AP_BQ_CHUNK;
    }
    *bag = (ap_bq_bag){UINT32_MAX, 0};
    bq->count -= n;
    ws->open_len = n;
    if (wide && n <= AP_BQ_SORTED_MAX) {
        /* small: insertion sort, first out last */
        ap_open_entry *open = ws->open;
        for (uint32_t k = 1; k < n; k++) {
            const ap_open_entry e = open[k];
            uint32_t j = k;
            while (j > 0 && open_before(&open[j - 1], &e)) {
                open[j] = open[j - 1];
                j--;
            }
            open[j] = e;
        }
        for (uint32_t k = 0; k < n; k++)
            ws->pos[open[k].node] = k;
        bq->sorted = true;
        return;
    }
    if (wide)
        bq->sorted = false;
    for (uint32_t k = n / 2; k-- > 0;)
        sift_down(ws, k, !wide);
}

/* RELAX for the bucketed open list (WIDE and HOLD compile-time constants): the same steps as RELAX; a
 * decrease-key finds the node through its old f (old g + h, bit for bit the f it was pushed with), which
 * names its bucket. With HOLD a new successor is first offered to the loop's held node (core_loop.h:
 * hold, hold_aux, hold_f, fu): it takes the place when its f is at most fu and the place is empty or holds
 * a node of smaller g, which then goes to the open list. Names from the loop: nodes, ws, bq, gen, u. */
#define RELAX_BQ(V, NG, HV, AUX, WIDE, PER_TILE, HOLD)                                                        \
    do {                                                                                                      \
        const uint32_t v_ = (V);                                                                              \
        const double ng_ = (NG);                                                                              \
        ap_node *nv_ = &nodes[v_];                                                                            \
        if (node_fresh(nv_, gen, ng_, u)) {                                                                   \
            const double f_ = ng_ + (HV);                                                                     \
            if ((HOLD) && f_ <= fu && (hold == UINT32_MAX || ng_ > nodes[hold].g)) {                          \
                if (hold != UINT32_MAX) /* the deeper one is held, as the open list's order would pop it */ \
                    bq_push(ws, bq, (ap_open_entry){hold_f, nodes[hold].g, hold, hold_aux}, (WIDE), (PER_TILE)); \
                hold = v_;                                                                                    \
                hold_aux = (AUX);                                                                             \
                hold_f = f_;                                                                                  \
            } else {                                                                                          \
                bq_push(ws, bq, (ap_open_entry){f_, ng_, v_, (AUX)}, (WIDE), (PER_TILE));                     \
            }                                                                                                 \
        } else if (ng_ < nv_->g) {                                                                            \
            const double h_ = (HV);                                                                           \
            if (bq_decrease(ws, bq, nv_->g + h_, (ap_open_entry){ng_ + h_, ng_, v_, (AUX)}, (WIDE),           \
                            (PER_TILE))) {                                                                    \
                nv_->g = ng_;                                                                                 \
                nv_->parent = u;                                                                              \
            }                                                                                                 \
        }                                                                                                     \
    } while (0)

#endif
