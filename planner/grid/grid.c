/* grid.c — the grid search domain over a Moving AI map: 8-connected (octile, no corner cutting) and
 * 4-connected (Manhattan).
 *
 * Source: Moving AI "Benchmarks for Grid-Based Pathfinding" (Sturtevant 2012) for the movement rules;
 * Pinter, "Toward More Realistic Pathfinding", "A Faster Implementation of the Standard A*" for the idea of
 * a flat node matrix indexed by position. This is the hot path of every query: neighbours are found by
 * index arithmetic on the padded grid (blocked border), so there are no bounds tests.
 */
#include "grid.h"

#include <math.h>
#include <stdlib.h>

#include "../base/status.h"
#include "../search/open_bucket.h"
#include "../world/clearance.h"

double ap_octile(int32_t dx, int32_t dy)
{
    int64_t ax = dx < 0 ? -(int64_t)dx : dx;
    int64_t ay = dy < 0 ? -(int64_t)dy : dy;
    int64_t mx = ax > ay ? ax : ay, mn = ax > ay ? ay : ax;
    return (double)mx + (M_SQRT2 - 1.0) * (double)mn;
}

/* Coordinates from the padded index: one division per call, against the goal's precomputed padded
 * coordinates. Not yet measured against a per-node coordinate table (8 bytes per cell). */
static inline void goal_delta(const ap_grid_domain *gd, uint32_t node, uint32_t *adx, uint32_t *ady)
{
    uint32_t y = node / gd->stride;
    uint32_t x = node - y * gd->stride;
    *adx = x > gd->goal_px ? x - gd->goal_px : gd->goal_px - x;
    *ady = y > gd->goal_py ? y - gd->goal_py : gd->goal_py - y;
}

static double octile_h(const void *ctx, uint32_t node, uint32_t goal)
{
    (void)goal; /* the goal's coordinates were precomputed in the context */
    uint32_t dx, dy;
    goal_delta(ctx, node, &dx, &dy);
    return dx > dy ? (double)dx + (M_SQRT2 - 1.0) * (double)dy : (double)dy + (M_SQRT2 - 1.0) * (double)dx;
}

static double manhattan_h(const void *ctx, uint32_t node, uint32_t goal)
{
    (void)goal;
    uint32_t dx, dy;
    goal_delta(ctx, node, &dx, &dy);
    return (double)dx + (double)dy;
}

static int succ8(const void *ctx, uint32_t u, ap_succ *out)
{
    const ap_grid_domain *gd = ctx;
    const uint8_t *p = gd->pass;
    const uint32_t S = gd->stride;
    const uint32_t n = u - S, s = u + S, w = u - 1, e = u + 1;
    const int pn = p[n], ps = p[s], pw = p[w], pe = p[e];
    int k = 0;
    if (pn)
        out[k++] = (ap_succ){n, 1.0};
    if (ps)
        out[k++] = (ap_succ){s, 1.0};
    if (pw)
        out[k++] = (ap_succ){w, 1.0};
    if (pe)
        out[k++] = (ap_succ){e, 1.0};
    /* No corner cutting: a diagonal step needs both orthogonal neighbours passable. */
    if (pn && pw && p[n - 1])
        out[k++] = (ap_succ){n - 1, M_SQRT2};
    if (pn && pe && p[n + 1])
        out[k++] = (ap_succ){n + 1, M_SQRT2};
    if (ps && pw && p[s - 1])
        out[k++] = (ap_succ){s - 1, M_SQRT2};
    if (ps && pe && p[s + 1])
        out[k++] = (ap_succ){s + 1, M_SQRT2};
    return k;
}

static int succ4(const void *ctx, uint32_t u, ap_succ *out)
{
    const ap_grid_domain *gd = ctx;
    const uint8_t *p = gd->pass;
    const uint32_t S = gd->stride;
    int k = 0;
    if (p[u - S])
        out[k++] = (ap_succ){u - S, 1.0};
    if (p[u + S])
        out[k++] = (ap_succ){u + S, 1.0};
    if (p[u - 1])
        out[k++] = (ap_succ){u - 1, 1.0};
    if (p[u + 1])
        out[k++] = (ap_succ){u + 1, 1.0};
    return k;
}

/* Weighted terrain (map.h): the same moves and corner rule, each costing len * (cost(u) + cost(v)) / 2;
 * the heuristics are scaled by the map's cheapest cost, so they stay admissible and consistent (every
 * move costs at least its length times cost_min). Kept apart from succ8 so uniform maps keep the
 * inlined loop grid8_run, which knows only unit and sqrt 2 steps. */
static double octile_hw(const void *ctx, uint32_t node, uint32_t goal)
{
    const ap_grid_domain *gd = ctx;
    return gd->map->cost_min * octile_h(ctx, node, goal);
}

static double manhattan_hw(const void *ctx, uint32_t node, uint32_t goal)
{
    const ap_grid_domain *gd = ctx;
    return gd->map->cost_min * manhattan_h(ctx, node, goal);
}

static int succ_weighted(const void *ctx, uint32_t u, ap_succ *out, int (*plain)(const void *, uint32_t, ap_succ *))
{
    const ap_grid_domain *gd = ctx;
    int k = plain(ctx, u, out);
    for (int i = 0; i < k; i++)
        out[i].cost = ap_map_move_cost(gd->map, u, out[i].node, out[i].cost);
    return k;
}

static int succ8w(const void *ctx, uint32_t u, ap_succ *out)
{
    return succ_weighted(ctx, u, out, succ8);
}

static int succ4w(const void *ctx, uint32_t u, ap_succ *out)
{
    return succ_weighted(ctx, u, out, succ4);
}

bool ap_grid_bucket_fits(const ap_map *m, uint32_t per_tile)
{
    return ap_bq_fits(m->passable_cells, m->width > m->height ? m->width : m->height, per_tile);
}

/* The 8-connected uniform grid's own copy of the A* loop (ap_domain.run): succ8's moves and octile_h
 * inlined (no call per expansion or successor, no division per heuristic) on the bucketed open list, 64
 * buckets per tile (every successor's f is within 2 * sqrt(2) of its parent's). The same successors, in
 * the same order, with the same costs as succ8, and the same total order as the generic loop, so both
 * expand the same nodes in the same order (test inlined_grid_matches_generic). Figures:
 * docs/search-measurements.md (second and fifth rounds). */
static inline double oct_h(int32_t x, int32_t y, int32_t gx, int32_t gy)
{
    int32_t ax = x - gx, ay = y - gy;
    ax = ax < 0 ? -ax : ax;
    ay = ay < 0 ? -ay : ay;
    return ax > ay ? (double)ax + (M_SQRT2 - 1.0) * (double)ay : (double)ay + (M_SQRT2 - 1.0) * (double)ax;
}

/* One relax per legal move (direction test, target, step cost, heuristic at the target's coordinates). */
#define GRID_MOVE(TEST, V, STEP, DX, DY)                                                                      \
    if (TEST) {                                                                                               \
        CORE_RELAX(V, g + (STEP), oct_h(ux + (DX), uy + (DY), gx, gy), 0);                                    \
        k++;                                                                                                  \
    }

#define CORE_NAME grid8_run
#define CORE_BUCKET 1
#define CORE_PER_TILE AP_BQ_PER_TILE
#define CORE_SETUP                                                                                            \
    const ap_grid_domain *gd = ctx;                                                                           \
    const uint8_t *pass = gd->pass;                                                                           \
    const uint32_t S = gd->stride;                                                                            \
    const int32_t gx = (int32_t)gd->goal_px, gy = (int32_t)gd->goal_py;
/* One division per expansion gives u's coordinates; each neighbour's heuristic is then plain integer
 * arithmetic. No corner cutting: a diagonal step needs both orthogonal neighbours free, FREE(cell) saying
 * which are (the point unit's passability, or a square unit's anchors below). */
#define GRID8_EXPAND(FREE)                                                                                    \
    {                                                                                                         \
        const int32_t uy = (int32_t)(u / S), ux = (int32_t)(u - (uint32_t)uy * S);                            \
        const uint32_t n = u - S, so = u + S, w = u - 1, e = u + 1;                                           \
        const int pn = FREE(n), ps = FREE(so), pw = FREE(w), pe = FREE(e);                                    \
        int k = 0;                                                                                            \
        GRID_MOVE(pn, n, 1.0, 0, -1)                                                                          \
        GRID_MOVE(ps, so, 1.0, 0, 1)                                                                          \
        GRID_MOVE(pw, w, 1.0, -1, 0)                                                                          \
        GRID_MOVE(pe, e, 1.0, 1, 0)                                                                           \
        GRID_MOVE(pn && pw && FREE(n - 1), n - 1, M_SQRT2, -1, -1)                                            \
        GRID_MOVE(pn && pe && FREE(n + 1), n + 1, M_SQRT2, 1, -1)                                             \
        GRID_MOVE(ps && pw && FREE(so - 1), so - 1, M_SQRT2, -1, 1)                                           \
        GRID_MOVE(ps && pe && FREE(so + 1), so + 1, M_SQRT2, 1, 1)                                            \
        s->generated += (uint64_t)k;                                                                          \
    }
#define PASS_FREE(c) pass[c]
#define CORE_EXPAND GRID8_EXPAND(PASS_FREE)
#include "../search/core_loop.h"

/* Square units' copy (Annotated A* with true clearance, ap_grid_domain_init_square): succ_square's moves in
 * the same order, an anchor free when its square clearance is at least the side. The generic loop over
 * succ_square ran 1.3-1.8x the point unit's median (BENCHMARKS.md "JPS and JPS+ for discs"). */
#define CORE_NAME square8_run
#define CORE_BUCKET 1
#define CORE_PER_TILE AP_BQ_PER_TILE
#define CORE_SETUP                                                                                            \
    const ap_grid_domain *gd = ctx;                                                                           \
    const uint8_t *sq = gd->clear->square;                                                                    \
    const unsigned side = gd->size;                                                                           \
    const uint32_t S = gd->stride;                                                                            \
    const int32_t gx = (int32_t)gd->goal_px, gy = (int32_t)gd->goal_py;
#define SQUARE_FREE(c) (sq[c] >= side)
#define CORE_EXPAND GRID8_EXPAND(SQUARE_FREE)
#include "../search/core_loop.h"
#undef SQUARE_FREE
#undef PASS_FREE
#undef GRID8_EXPAND

/* Both ends' levels above t, without branches (the diagonal moves' test in sized8_run). */
static inline bool diag_ok(uint32_t da, uint32_t db, uint32_t t)
{
    return (da > t) & (db > t);
}

/* Sized units' copy of the same loop (Annotated A*, ap_grid_domain_init_sized): the moves of succ_sized,
 * in the same order, each kept when its clearance level exceeds the radius's (clearance.h: exactly
 * ap_clearance_allows, an integer compare). An orthogonal move's level is the smaller of its cells', and u's
 * is above the threshold (it was reached by a legal move; a start the disc does not fit has no moves, as
 * succ_sized gives it none), so the target's decides; a diagonal move's is the smaller of its ends' less the stored difference (ap_clearance_diag_se):
 * both ends above the threshold plus that difference. The generic loop over succ_sized ran about 1.8x the
 * point unit's time per expansion (BENCHMARKS.md). */
#define CORE_NAME sized8_run
#define CORE_BUCKET 1
#define CORE_PER_TILE AP_BQ_PER_TILE
#define CORE_SETUP                                                                                            \
    const ap_grid_domain *gd = ctx;                                                                           \
    const ap_clearance_table *ct = gd->clear;                                                                 \
    const uint8_t *disc = ct->disc, *dg = ct->diag;                                                           \
    const uint32_t rq = gd->level;                                                                            \
    const uint32_t S = gd->stride;                                                                            \
    const int32_t gx = (int32_t)gd->goal_px, gy = (int32_t)gd->goal_py;
/* the diagonal stored at cell p (bits `sh` of its byte) from u to c: both ends' levels above rq plus it */
#define DIAG_OK(p, sh, c) diag_ok(du, disc[c], rq + ((uint32_t)(dg[p] >> (sh)) & 15u))
#define CORE_EXPAND                                                                                           \
    {                                                                                                         \
        const int32_t uy = (int32_t)(u / S), ux = (int32_t)(u - (uint32_t)uy * S);                            \
        const uint32_t n = u - S, so = u + S, w = u - 1, e = u + 1;                                           \
        const uint32_t du = disc[u];                                                                          \
        int k = 0;                                                                                            \
        if (du > rq) { /* always but at a start the disc does not fit: then no move */                        \
            GRID_MOVE(disc[n] > rq, n, 1.0, 0, -1)                                                            \
            GRID_MOVE(disc[so] > rq, so, 1.0, 0, 1)                                                           \
            GRID_MOVE(disc[w] > rq, w, 1.0, -1, 0)                                                            \
            GRID_MOVE(disc[e] > rq, e, 1.0, 1, 0)                                                             \
            GRID_MOVE(DIAG_OK(n - 1, 0, n - 1), n - 1, M_SQRT2, -1, -1)                                       \
            GRID_MOVE(DIAG_OK(n + 1, 4, n + 1), n + 1, M_SQRT2, 1, -1)                                        \
            GRID_MOVE(DIAG_OK(u, 4, so - 1), so - 1, M_SQRT2, -1, 1)                                          \
            GRID_MOVE(DIAG_OK(u, 0, so + 1), so + 1, M_SQRT2, 1, 1)                                           \
        }                                                                                                     \
        s->generated += (uint64_t)k;                                                                          \
    }
#include "../search/core_loop.h"
#undef DIAG_OK
#undef GRID_MOVE

/* Sized units: the eight (four) moves, each kept when the table says the unit's disc clears it. A blocked
 * or off-map neighbour has clearance 0, and a diagonal past a blocked corner touches it, so no separate
 * passability or corner-cutting test is needed. */
static int succ_sized(const void *ctx, uint32_t u, ap_succ *out)
{
    static const int8_t d[8][2] = {{0, -1}, {0, 1}, {-1, 0}, {1, 0}, {-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
    const ap_grid_domain *gd = ctx;
    const ap_clearance_table *t = gd->clear;
    const int n = gd->connectivity;
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (ap_clearance_move(t, u, d[i][0], d[i][1]) <= gd->level)
            continue;
        out[k++] = (ap_succ){(uint32_t)((int64_t)u + d[i][0] + (int64_t)d[i][1] * gd->stride),
                             i < 4 ? 1.0 : M_SQRT2};
    }
    return k;
}

/* Sized units on a map (or capability view) with terrain costs: succ_sized's moves at succ8w's costs, on
 * the generic loop. */
static int succ_sized_w(const void *ctx, uint32_t u, ap_succ *out)
{
    return succ_weighted(ctx, u, out, succ_sized);
}

int ap_grid_domain_init_sized(ap_grid_domain *gd, ap_domain *dom, const ap_map *m, int connectivity, uint32_t goal,
                              const ap_clearance_table *t, double r)
{
    if (t == NULL || m == NULL)
        return AP_E_INTERNAL;
    int st = ap_grid_domain_init(gd, dom, m, connectivity, goal);
    if (st != AP_OK)
        return st;
    gd->clear = t;
    gd->radius = r;
    gd->level = ap_clearance_level(r);
    dom->successors = m->weighted ? succ_sized_w : succ_sized;
    /* grid8_run inlines the point unit's moves; sized8_run knows only unit and sqrt 2 steps */
    dom->run = connectivity == 8 && !m->weighted && ap_grid_bucket_fits(m, AP_BQ_PER_TILE) ? sized8_run : NULL;
    return AP_OK;
}

/* Square units (ap_grid_domain_init_square): nodes are footprint anchors (top-left cells). An orthogonal
 * move needs the target's true clearance >= k; a diagonal move also needs both orthogonal neighbours' —
 * Moving AI's no-corner-cutting rule applied to the footprint: the four k x k blocks together are the
 * (k + 1) x (k + 1) block the footprint sweeps. The source's clearance is >= k (it was reached legally). */
static int succ_square(const void *ctx, uint32_t u, ap_succ *out)
{
    const ap_grid_domain *gd = ctx;
    const uint8_t *sq = gd->clear->square;
    const unsigned k = gd->size;
    const uint32_t S = gd->stride;
    const uint32_t n = u - S, so = u + S, w = u - 1, e = u + 1;
    const int pn = sq[n] >= k, ps = sq[so] >= k, pw = sq[w] >= k, pe = sq[e] >= k;
    int c = 0;
    if (pn)
        out[c++] = (ap_succ){n, 1.0};
    if (ps)
        out[c++] = (ap_succ){so, 1.0};
    if (pw)
        out[c++] = (ap_succ){w, 1.0};
    if (pe)
        out[c++] = (ap_succ){e, 1.0};
    if (gd->connectivity == 4)
        return c;
    if (pn && pw && sq[n - 1] >= k)
        out[c++] = (ap_succ){n - 1, M_SQRT2};
    if (pn && pe && sq[n + 1] >= k)
        out[c++] = (ap_succ){n + 1, M_SQRT2};
    if (ps && pw && sq[so - 1] >= k)
        out[c++] = (ap_succ){so - 1, M_SQRT2};
    if (ps && pe && sq[so + 1] >= k)
        out[c++] = (ap_succ){so + 1, M_SQRT2};
    return c;
}

int ap_grid_domain_init_square(ap_grid_domain *gd, ap_domain *dom, const ap_map *m, int connectivity, uint32_t goal,
                               const ap_clearance_table *t, int k)
{
    if (t == NULL || m == NULL || m->weighted || k < 1 || k > 255)
        return AP_E_INTERNAL;
    int st = ap_grid_domain_init(gd, dom, m, connectivity, goal);
    if (st != AP_OK)
        return st;
    gd->clear = t;
    gd->size = k;
    dom->successors = succ_square;
    dom->run = connectivity == 8 && ap_grid_bucket_fits(m, AP_BQ_PER_TILE) ? square8_run : NULL;
    return AP_OK;
}

int ap_grid_domain_init(ap_grid_domain *gd, ap_domain *dom, const ap_map *m, int connectivity, uint32_t goal)
{
    if (connectivity != 4 && connectivity != 8)
        return AP_E_INVALID_REQUEST;
    if (m == NULL || goal >= ap_map_node_count(m))
        return AP_E_INTERNAL;
    gd->map = m;
    gd->connectivity = connectivity;
    gd->pass = m->pass;
    gd->stride = (uint32_t)m->stride;
    gd->goal_py = goal / gd->stride;
    gd->goal_px = goal - gd->goal_py * gd->stride;
    gd->goal_x = (int32_t)gd->goal_px - 1;
    gd->goal_y = (int32_t)gd->goal_py - 1;
    gd->clear = NULL;
    gd->radius = 0.0;
    gd->level = 0;
    gd->size = 0;
    /* The whole domain is written, so a domain struct reused from another kind keeps no stale hook. */
    *dom = (ap_domain){.ctx = gd, .node_count = ap_map_node_count(m), .max_succ = connectivity};
    if (m->weighted) {
        dom->successors = connectivity == 8 ? succ8w : succ4w;
        dom->heuristic = connectivity == 8 ? octile_hw : manhattan_hw;
    } else {
        dom->successors = connectivity == 8 ? succ8 : succ4;
        dom->heuristic = connectivity == 8 ? octile_h : manhattan_h;
        dom->run = connectivity == 8 && ap_grid_bucket_fits(m, AP_BQ_PER_TILE) ? grid8_run : NULL;
    }
    return AP_OK;
}
