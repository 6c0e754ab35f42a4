/* profile.c — Directional A* edge and hit-check tables per unit profile, and their lock-free cache.
 *
 * Source: Pinter, "Toward More Realistic Pathfinding", "Legal Turns: The Directional A* Algorithm"
 * ("Directional Curved Paths", "Expanded searching to surrounding tiles", "Using a hit-check table",
 * "Other options: backing up"). See profile.h for the layout and why it differs from Pinter's 11x11 field.
 */
#include "profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collide.h"
#include "dubins.h"
#include "reeds_shepp.h"
#include "search.h"
#include "status.h"

/* Hit-check masks use the unit's radius plus this (tiles): conservative against the rounding difference
 * between the table's curve (built at the origin) and the same curve at absolute map coordinates. */
#define AP_PROFILE_MARGIN 1e-7
#define AP_PROFILE_MAX_S 31

bool ap_profile_key_valid(const ap_profile_key *k)
{
    return k != NULL && isfinite(k->radius) && k->radius >= 0.0 && k->radius <= 16.0 &&
           isfinite(k->turning_radius) && k->turning_radius > 0.0 && k->turning_radius <= 64.0 &&
           (k->headings == 8 || k->headings == 16) &&
           (k->neighbours == 8 || k->neighbours == 24 || k->neighbours == 48);
}

double ap_profile_heading(int h, int H)
{
    return ap_angle_wrap(2.0 * M_PI * (double)h / (double)H);
}

void ap_profile_free(ap_profile *p)
{
    if (p == NULL)
        return;
    free(p->edges);
    free(p->rows);
    free(p);
}

/* Growable scratch of cells (relative offsets) per edge during the build. */
typedef struct cellbuf {
    int32_t (*c)[2];
    size_t n, cap;
} cellbuf;

static bool cellbuf_reserve(cellbuf *b, size_t extra)
{
    if (b->n + extra <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + extra)
        cap *= 2;
    void *p = realloc(b->c, cap * sizeof *b->c);
    if (p == NULL)
        return false;
    b->c = p;
    b->cap = cap;
    return true;
}

/* Append the cells the disc touches along segs (duplicates allowed; the mask ORs them). */
static bool add_cells(cellbuf *b, const ap_segment *segs, size_t n, double r)
{
    for (size_t i = 0; i < n; i++) {
        size_t need = ap_segment_cells(&segs[i], r, NULL, 0);
        if (!cellbuf_reserve(b, need))
            return false;
        ap_segment_cells(&segs[i], r, b->c + b->n, need);
        b->n += need;
    }
    return true;
}

/* Edge attributes from its segments: driven lengths, turning, direction flags, cusps. */
static void edge_attrs(ap_dir_edge *e, const ap_segment *segs, size_t n, bool rs)
{
    double lf = 0.0, lr = 0.0, turn = 0.0;
    int cusps = 0;
    for (size_t i = 0; i < n; i++) {
        if (segs[i].reverse)
            lr += segs[i].length;
        else
            lf += segs[i].length;
        if (segs[i].type == AP_SEG_ARC)
            turn += fabs(segs[i].sweep);
        if (i > 0 && segs[i].reverse != segs[i - 1].reverse)
            cusps++;
    }
    e->len_fwd = (float)lf;
    e->len_rev = (float)lr;
    e->turn = (float)turn;
    e->cusps = (uint8_t)cusps;
    e->flags = (uint8_t)((n > 0 && segs[0].reverse ? AP_EDGE_FIRST_REV : 0u) |
                         (n > 0 && segs[n - 1].reverse ? AP_EDGE_LAST_REV : 0u) | (rs ? AP_EDGE_RS : 0u));
}

/* Turn cell offset (x, y) by q quarter turns about the parent's centre: (x, y) -> (-y, x) per turn
 * (heading increases from +x toward +y, and cell (i, j) spans [i, i+1] x [j, j+1] around centre (0.5, 0.5)). */
static void rot(int q, int *x, int *y)
{
    for (int i = 0; i < q; i++) {
        int t = *x;
        *x = -*y;
        *y = t;
    }
}

int ap_profile_build(const ap_profile_key *key, ap_profile **out)
{
    *out = NULL;
    if (!ap_profile_key_valid(key))
        return AP_E_INVALID_REQUEST;
    uint64_t t0 = ap_clock_ns();
    const int H = key->headings;
    const int k = key->neighbours == 8 ? 1 : key->neighbours == 24 ? 2 : 3;
    const double R = key->turning_radius, rad = key->radius + AP_PROFILE_MARGIN;
    const size_t per_h = (size_t)key->neighbours * (size_t)H * (key->reverse ? 2u : 1u);
    const size_t max_edges = per_h * (size_t)H; /* before the quarter-turn symmetry, an upper bound */

    ap_profile *p = calloc(1, sizeof *p);
    size_t *cell_first = malloc((max_edges + 1) * sizeof *cell_first);
    cellbuf cb = {0};
    if (p == NULL || cell_first == NULL)
        goto nomem;
    p->key = *key;
    p->k = k;
    p->edges = malloc(max_edges * sizeof *p->edges);
    if (p->edges == NULL)
        goto nomem;

    /* Pass 1: the edges of the first quarter of start headings, with their touched cells. The other three
     * quarters are the same edges turned by 90, 180 and 270 degrees about the parent's centre, which maps
     * cells onto cells exactly (cell (i, j) -> (-j, i)), so they are derived instead of recomputed: a 4x
     * faster build with identical masks up to rounding (which the 1e-7 margin covers). */
    const int Q = H / 4;
    int S = k;
    uint32_t nb = 0;
    uint32_t base_first[5];
    for (int h0 = 0; h0 < Q; h0++) {
        base_first[h0] = nb;
        ap_pose a = {0.5, 0.5, ap_profile_heading(h0, H)};
        for (int dy = -k; dy <= k; dy++) {
            for (int dx = -k; dx <= k; dx++) {
                if (dx == 0 && dy == 0)
                    continue;
                for (int h1 = 0; h1 < H; h1++) {
                    ap_pose b = {0.5 + dx, 0.5 + dy, ap_profile_heading(h1, H)};
                    for (int variant = 0; variant < (key->reverse ? 2 : 1); variant++) {
                        ap_segment segs[AP_RS_MAX_PIECES];
                        size_t n;
                        if (variant == 0) {
                            ap_dubins d;
                            if (ap_dubins_shortest(&a, &b, R, &d) != 0)
                                continue;
                            n = ap_dubins_segments(&d, &b, segs);
                        } else {
                            ap_reeds_shepp rs;
                            if (ap_reeds_shepp_shortest(&a, &b, R, &rs) != 0)
                                continue;
                            n = ap_reeds_shepp_segments(&rs, &b, segs);
                            bool any_rev = false;
                            for (size_t i = 0; i < n; i++)
                                any_rev |= segs[i].reverse;
                            if (!any_rev)
                                continue; /* the forward Dubins edge covers it */
                        }
                        size_t c0 = cb.n;
                        if (!add_cells(&cb, segs, n, rad))
                            goto nomem;
                        int ext = 0;
                        for (size_t i = c0; i < cb.n; i++) {
                            int ex = abs(cb.c[i][0]), ey = abs(cb.c[i][1]);
                            ext = ex > ext ? ex : ext;
                            ext = ey > ext ? ey : ext;
                        }
                        if (ext > AP_PROFILE_MAX_S) {
                            cb.n = c0;
                            p->dropped += 4;
                            continue;
                        }
                        S = ext > S ? ext : S;
                        ap_dir_edge *e = &p->edges[nb];
                        memset(e, 0, sizeof *e);
                        e->dx = (int8_t)dx;
                        e->dy = (int8_t)dy;
                        e->h1 = (uint8_t)h1;
                        edge_attrs(e, segs, n, variant == 1);
                        cell_first[nb] = c0;
                        nb++;
                        cell_first[nb] = cb.n;
                    }
                }
            }
        }
    }
    base_first[Q] = nb;
    const uint32_t ne = 4 * nb;
    p->n_edges = ne;
    p->S = S;
    /* Final order: by start heading; quarter q of the headings is the base turned q quarter turns. */
    for (int q = 3; q >= 0; q--) {
        for (uint32_t b = 0; b < nb; b++) {
            ap_dir_edge e = p->edges[b];
            int x = e.dx, y = e.dy;
            rot(q, &x, &y);
            e.dx = (int8_t)x;
            e.dy = (int8_t)y;
            e.h1 = (uint8_t)((e.h1 + q * Q) % H);
            p->edges[(uint32_t)q * nb + b] = e;
        }
    }
    for (int h0 = 0; h0 <= H; h0++)
        p->edge_first[h0] = (uint32_t)(h0 / Q) * nb + base_first[h0 % Q];
    p->edge_first[H] = ne;

    /* Pass 2: masks. Rows are stored only for each edge's row range. */
    size_t total_rows = 0;
    for (uint32_t i = 0; i < ne; i++) {
        int q = (int)(i / nb);
        uint32_t b = i % nb;
        int lo = S, hi = -S;
        for (size_t c = cell_first[b]; c < cell_first[b + 1]; c++) {
            int x = cb.c[c][0], y = cb.c[c][1];
            rot(q, &x, &y);
            lo = y < lo ? y : lo;
            hi = y > hi ? y : hi;
        }
        if (hi < lo)
            lo = hi = 0;
        p->edges[i].row0 = (uint8_t)(lo + S);
        p->edges[i].nrows = (uint8_t)(hi - lo + 1);
        p->edges[i].rows = (uint32_t)total_rows;
        total_rows += (size_t)(hi - lo + 1);
    }
    p->rows = calloc(total_rows ? total_rows : 1, sizeof *p->rows);
    if (p->rows == NULL)
        goto nomem;
    p->n_rows = total_rows;
    for (uint32_t i = 0; i < ne; i++) {
        int q = (int)(i / nb);
        uint32_t b = i % nb;
        const ap_dir_edge *e = &p->edges[i];
        for (size_t c = cell_first[b]; c < cell_first[b + 1]; c++) {
            int x = cb.c[c][0], y = cb.c[c][1];
            rot(q, &x, &y);
            p->rows[e->rows + (size_t)(y + S - e->row0)] |= 1ull << (x + S);
        }
    }
    /* Shrink the edge array to what was kept. */
    void *shr = realloc(p->edges, (ne ? ne : 1) * sizeof *p->edges);
    if (shr != NULL)
        p->edges = shr;
    p->bytes = sizeof *p + (size_t)ne * sizeof *p->edges + total_rows * sizeof *p->rows;
    free(cell_first);
    free(cb.c);
    p->build_seconds = (double)(ap_clock_ns() - t0) / 1e9;
    *out = p;
    return AP_OK;
nomem:
    free(cell_first);
    free(cb.c);
    ap_profile_free(p);
    return AP_E_NOMEM;
}

static bool key_eq(const ap_profile_key *a, const ap_profile_key *b)
{
    return a->radius == b->radius && a->turning_radius == b->turning_radius && a->headings == b->headings &&
           a->neighbours == b->neighbours && a->reverse == b->reverse;
}

ap_profile_cache *ap_profile_cache_default(void)
{
    static ap_profile_cache cache; /* zero: every slot NULL */
    return &cache;
}

int ap_profile_get(ap_profile_cache *c, const ap_profile_key *k, const ap_profile **out, bool *owned)
{
    *out = NULL;
    *owned = false;
    if (!ap_profile_key_valid(k))
        return AP_E_INVALID_REQUEST;
    if (c != NULL) {
        for (int i = 0; i < AP_PROFILE_CACHE_SLOTS; i++) {
            ap_profile *p = atomic_load_explicit(&c->slot[i], memory_order_acquire);
            if (p == NULL)
                break; /* slots fill in order, so the rest are empty */
            if (key_eq(&p->key, k)) {
                *out = p;
                return AP_OK;
            }
        }
    }
    ap_profile *mine;
    int st = ap_profile_build(k, &mine);
    if (st != AP_OK)
        return st;
    if (c != NULL) {
        for (int i = 0; i < AP_PROFILE_CACHE_SLOTS; i++) {
            ap_profile *expected = NULL;
            if (atomic_compare_exchange_strong_explicit(&c->slot[i], &expected, mine, memory_order_acq_rel,
                                                        memory_order_acquire)) {
                *out = mine;
                return AP_OK;
            }
            /* expected now holds the slot's profile: someone may have published the same key meanwhile. */
            if (key_eq(&expected->key, k)) {
                ap_profile_free(mine);
                *out = expected;
                return AP_OK;
            }
        }
    }
    *out = mine;
    *owned = true;
    return AP_OK;
}

size_t ap_profile_cache_stats(ap_profile_cache *c, size_t *bytes)
{
    size_t n = 0, b = 0;
    for (int i = 0; c != NULL && i < AP_PROFILE_CACHE_SLOTS; i++) {
        ap_profile *p = atomic_load_explicit(&c->slot[i], memory_order_acquire);
        if (p == NULL)
            break;
        n++;
        b += p->bytes;
    }
    if (bytes != NULL)
        *bytes = b;
    return n;
}

void ap_profile_cache_clear(ap_profile_cache *c)
{
    for (int i = 0; c != NULL && i < AP_PROFILE_CACHE_SLOTS; i++) {
        ap_profile *p = atomic_exchange_explicit(&c->slot[i], NULL, memory_order_acq_rel);
        ap_profile_free(p);
    }
}
