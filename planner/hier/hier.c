/* hier.c — the HAA* abstract graph (hier.h): build, and the refined path of a query.
 *
 * Source: Harabor & Botea, CIG 2008, as summarised in Harabor, "Clearance-based Pathfinding" (reference 004);
 * transition placement after Botea, Mueller & Schaeffer's HPA* (2004). The intra-cluster costs and the
 * start/goal insertion are Dijkstra searches inside one cluster (cluster.h: moves tested once per cluster,
 * arrays of 256 cells); the abstract search and the refinement run on the one A* core (search.h) through
 * the two small domains below.
 */
#include "hier.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/clock.h"
#include "../base/mem.h"
#include "../base/status.h"
#include "../grid/grid.h"
#include "../search/landmarks.h"
#include "cluster.h"

#define C AP_HIER_CLUSTER
#define LOCAL_N AP_HIER_LOCAL_N /* cluster-local node ids 0 .. LOCAL_N-1, row-major */
#define RUN_SPLIT 6          /* HPA*: entrances this long or longer get two transitions */

const double ap_hier_class_radius[AP_HIER_CLASSES] = {0.0, 1.0, 2.0, 4.0};

/* ---- the cluster-local domain (the refinement's A* inside one cluster, one class) --------------------- */

typedef struct local_dom {
    const ap_map *m;
    const ap_clearance_table *t;
    int32_t x0, y0, w, h; /* the cluster's cells [x0, x0 + w) x [y0, y0 + h) */
    int cls;
} local_dom;

#define DX ap_hier_dx
#define DY ap_hier_dy
#define move_ok ap_hier_move_ok

static int local_succ(const void *ctx, uint32_t u, ap_succ *out)
{
    const local_dom *d = ctx;
    if (u >= LOCAL_N)
        return 0;
    const int32_t lx = (int32_t)(u % C), ly = (int32_t)(u / C);
    const uint32_t a = ap_map_index(d->m, d->x0 + lx, d->y0 + ly);
    int k = 0;
    for (int i = 0; i < 8; i++) {
        const int32_t nx = lx + DX[i], ny = ly + DY[i];
        if (nx < 0 || ny < 0 || nx >= d->w || ny >= d->h || !move_ok(d->m, d->t, d->cls, a, DX[i], DY[i]))
            continue;
        const uint32_t b = ap_map_index(d->m, d->x0 + nx, d->y0 + ny);
        out[k++] = (ap_succ){(uint32_t)(ny * C + nx), ap_map_move_cost(d->m, a, b, i < 4 ? 1.0 : M_SQRT2)};
    }
    return k;
}

/* The octile distance times the cheapest terrain. */
static double local_h(const void *ctx, uint32_t u, uint32_t g)
{
    const local_dom *d = ctx;
    return ap_octile(abs((int32_t)(u % C) - (int32_t)(g % C)), abs((int32_t)(u / C) - (int32_t)(g / C))) *
           d->m->cost_min;
}

/* The generic loop with a domain's two callbacks called directly (inlined) instead of through the
 * domain: the same expansions in the same order (core_loop.h), without two indirect calls per step. The
 * refinement and the abstract search run thousands of short searches a second. */
#define DIRECT_LOOP(NAME, SUCC, H)                                                                            \
    {                                                                                                         \
        ap_succ *out = ws->succ;                                                                              \
        const int ns = SUCC(ctx, u, out);                                                                     \
        s->generated += (uint64_t)ns;                                                                         \
        for (int k = 0; k < ns; k++)                                                                          \
            CORE_RELAX(out[k].node, g + out[k].cost, H(ctx, v_, goal), 0);                                     \
    }
#define CORE_NAME local_run
#define CORE_EXPAND DIRECT_LOOP(local_run, local_succ, local_h)
#include "../search/core_loop.h"

/* The local domain of cluster cl of h on m for class cls. */
static local_dom cluster_dom(const ap_map *m, const ap_hier *h, uint32_t cl, int cls)
{
    local_dom d = {m, h->clear, ((int32_t)cl % h->cw) * C, ((int32_t)cl / h->cw) * C, 0, 0, cls};
    d.w = m->width - d.x0 < C ? m->width - d.x0 : C;
    d.h = m->height - d.y0 < C ? m->height - d.y0 : C;
    return d;
}

int ap_hier_class_of(const ap_hier *h, double r)
{
    if (!(r >= AP_GRID_SIZED_MIN_RADIUS))
        return 0;
    if (h->clear == NULL)
        return -1;
    for (int k = 1; k < AP_HIER_CLASSES; k++)
        if (r <= ap_hier_class_radius[k])
            return k;
    return -1;
}

/* ---- build ------------------------------------------------------------------------------------------- */

typedef struct pair {
    uint32_t a, b; /* the two cells of a transition, a in the lower-numbered cluster */
    uint8_t classes; /* bit k: placed for class k (add_run) */
} pair;

typedef struct build {
    const ap_map *m;
    const ap_clearance_table *t;
    pair *pairs;
    size_t n_pairs, cap_pairs;
} build;

/* The growing pool of stored detours (ap_hier.paths) while a graph is built. */
typedef struct path_pool {
    uint8_t *b;
    size_t len, cap;
    size_t n;      /* paths stored */
    size_t budget; /* bytes the paths and their index may take (AP_HIER_PATH_BYTES_PER_CELL) */
} path_pool;

/* May the next cluster store its detours: the pool and its index within the budget so far. Decided per
 * cluster, before it, so a fresh build and a tile update (which copies the clusters it keeps) store the
 * same. */
static bool pool_open(const path_pool *pool)
{
    return pool->len + 2 * sizeof(uint32_t) * pool->n < pool->budget;
}

/* Append a path of n move codes (codes[0 .. n-1], or reversed: each code's opposite, last first) to pool;
 * its offset, or AP_HIER_NO_PATH when out of memory (the edge then keeps no path: refined by search). */
static uint32_t pool_add(path_pool *pool, const uint8_t *codes, int n, bool reversed)
{
    static const uint8_t opposite[8] = {1, 0, 3, 2, 7, 6, 5, 4}; /* ap_hier_dx / ap_hier_dy negated */
    void *p = pool->b;
    if (pool->len + (size_t)n + 1 >= AP_HIER_NO_PATH || !ap_grow(&p, &pool->cap, pool->len + (size_t)n + 1, 1, 4096))
        return AP_HIER_NO_PATH;
    pool->b = p;
    pool->n++;
    const uint32_t at = (uint32_t)pool->len;
    pool->b[pool->len++] = (uint8_t)n;
    for (int k = 0; k < n; k++)
        pool->b[pool->len++] = reversed ? opposite[codes[n - 1 - k]] : codes[k];
    return at;
}

static bool direct_path(const ap_map *m, const ap_clearance_table *t, int cls, uint32_t from, uint32_t to, bool diag_first,
                        double want, uint32_t *cells, size_t *nc, double *cost);

/* The open lattice's cost between local cells a and b of a cluster (h->octile). */
static double octile_between(const ap_hier *h, uint32_t a, uint32_t b)
{
    return h->octile[abs((int)(a % C) - (int)(b % C))][abs((int)(a / C) - (int)(b / C))];
}

static int add_pair(build *b, uint32_t a, uint32_t c, uint8_t classes)
{
    void *p = b->pairs;
    if (!ap_grow(&p, &b->cap_pairs, b->n_pairs + 1, sizeof *b->pairs, 1024))
        return AP_E_NOMEM;
    b->pairs = p;
    b->pairs[b->n_pairs++] = (pair){a, c, classes};
    return AP_OK;
}

/* Is the move between neighbouring cells a and c (a transition: find_entrances' diagonal crossings, or
 * orthogonal) diagonal? Orthogonal neighbours' padded ids differ by 1 or by the stride. */
static bool pair_diagonal(const ap_map *m, uint32_t a, uint32_t c)
{
    const uint32_t d = a > c ? a - c : c - a;
    return d != 1u && d != (uint32_t)m->stride;
}

/* The clearance level q of the orthogonal move between neighbouring cells a and c (clearance.h: the smaller
 * of its cells'); 0 without a clearance table. */
static uint8_t orth_q(const build *b, uint32_t a, uint32_t c)
{
    if (b->t == NULL)
        return 0;
    return b->t->disc[a] < b->t->disc[c] ? b->t->disc[a] : b->t->disc[c];
}

/* The clearance level q of the transition a -> c, an orthogonal or a diagonal move (clearance.h
 * ap_clearance_move); 0 without a clearance table. */
static uint8_t cross_q(const build *b, uint32_t a, uint32_t c)
{
    if (b->t == NULL || !pair_diagonal(b->m, a, c))
        return orth_q(b, a, c);
    int32_t ax, ay, cx, cy;
    ap_map_coords(b->m, a, &ax, &ay);
    ap_map_coords(b->m, c, &cx, &cy);
    return ap_clearance_move(b->t, a, cx - ax, cy - ay);
}

#define class_level ap_hier_class_level

/* Transitions of one entrance: the run of cell pairs (a_i, c_i), i in [0, n), across one border. HPA*'s rule
 * per class: every maximal stretch of the run whose crossings let class k through (for k = 0 the whole run)
 * gets a transition at its middle when shorter than RUN_SPLIT, else at both ends; so each class has
 * transitions where it can cross, at the stretch's ends as a point unit has them at the run's; and the
 * crossing of largest clearance serves every class it fits. A transition serves the classes it was placed
 * for (pair.classes; the abstract graph of class k has only those: fewer nodes to search than all). */
static int add_run(build *b, const uint32_t *as, const uint32_t *cs, int n)
{
    uint8_t pick[C] = {0};
    int lv[C];
    for (int i = 0; i < n; i++)
        lv[i] = class_level(orth_q(b, as[i], cs[i]));
    for (int k = 0; k < (b->t != NULL ? AP_HIER_CLASSES : 1); k++)
        for (int i = 0; i < n;) {
            if (lv[i] < k) {
                i++;
                continue;
            }
            int j = i;
            while (j + 1 < n && lv[j + 1] >= k)
                j++;
            if (j - i + 1 < RUN_SPLIT) {
                pick[(i + j) / 2] |= (uint8_t)(1u << k);
            } else {
                pick[i] |= (uint8_t)(1u << k);
                pick[j] |= (uint8_t)(1u << k);
            }
            i = j + 1;
        }
    int best = 0; /* the crossing of largest clearance serves every class that fits it (a short way across
                   * the middle of a wide entrance) */
    for (int i = 1; i < n; i++)
        if (orth_q(b, as[i], cs[i]) > orth_q(b, as[best], cs[best]))
            best = i;
    pick[best] |= (uint8_t)((2u << (b->t != NULL ? lv[best] : 0)) - 1u);
    for (int i = 0; i < n; i++)
        if (pick[i]) {
            int st = add_pair(b, as[i], cs[i], pick[i]);
            if (st != AP_OK)
                return st;
        }
    return AP_OK;
}

/* The classes > 0 that may cross a border only diagonally between positions i and i + 1 of the border line
 * (cells a0, a1 on one side, c0, c1 facing them): a diagonal move a0 -> c1 or a1 -> c0 is legal for class k
 * (the 2 x 2 block passable, no corner cutting, and its stored clearance lets k through) while neither
 * orthogonal crossing a0 -> c0 nor a1 -> c1 does. Such a crossing is missing from the entrances (runs of
 * orthogonal pairs), and a disc may reach it in no other way: a corridor exactly wide enough for the class
 * that runs diagonally across the border (on Paris_1_1024 a radius-2 disc's abstract path was 10.6 % longer
 * than A*'s for want of two such crossings). It is isolated (two of them next to each other, or both diagonals
 * of one block, would make the orthogonal pair between them legal: their end cells have the clearance), so
 * it gets one transition, of the classes it alone serves: *dg is the diagonal (0: a0 -> c1, 1: a1 -> c0), the
 * return value the class bits (0: none). */
static uint8_t diagonal_classes(const build *b, uint32_t a0, uint32_t a1, uint32_t c0, uint32_t c1, int *dg)
{
    const ap_map *m = b->m;
    if (b->t == NULL || !m->pass[a0] || !m->pass[a1] || !m->pass[c0] || !m->pass[c1])
        return 0;
    /* the orthogonal crossings' top class (both passable here); nothing left to serve above the top class */
    const uint8_t q0 = orth_q(b, a0, c0), q1 = orth_q(b, a1, c1);
    const int lo = class_level(q0 > q1 ? q0 : q1);
    if (lo == AP_HIER_CLASSES - 1)
        return 0;
    /* the diagonals' moves: a0 -> c1 and a1 -> c0, each by one step along the border and one across it */
    const bool along_x = a1 - a0 == 1, across_x = c0 - a0 == 1;
    const int ax = along_x, ay = !along_x, cx = across_x, cy = !across_x;
    uint8_t best = 0;
    for (int d = 0; d < 2; d++) {
        const int ld = class_level(d == 0 ? ap_clearance_move(b->t, a0, ax + cx, ay + cy)
                                          : ap_clearance_move(b->t, a1, cx - ax, cy - ay));
        const uint8_t bits = ld > lo ? (uint8_t)(((2u << ld) - 1u) & ~((2u << lo) - 1u)) : 0;
        if (bits > best) {
            best = bits;
            *dg = d;
        }
    }
    return best;
}

/* Every entrance along every cluster border. along: cells of the border line in order; a border's runs break
 * at cluster corners. Then the diagonal crossings no entrance serves (diagonal_classes), corners included. */
static int find_entrances(build *b)
{
    const ap_map *m = b->m;
    uint32_t as[C], cs[C];
    for (int vertical = 0; vertical < 2; vertical++) {
        const int32_t lines = vertical ? m->width : m->height; /* border positions run across this axis */
        const int32_t len = vertical ? m->height : m->width;
        for (int32_t k = C; k < lines; k += C) {
            int n = 0;
            for (int32_t i = 0; i <= len; i++) {
                bool ok = false;
                uint32_t a = 0, c = 0;
                if (i < len) {
                    a = vertical ? ap_map_index(m, k - 1, i) : ap_map_index(m, i, k - 1);
                    c = vertical ? ap_map_index(m, k, i) : ap_map_index(m, i, k);
                    ok = m->pass[a] && m->pass[c];
                }
                if (n > 0 && (!ok || i % C == 0)) {
                    int st = add_run(b, as, cs, n);
                    if (st != AP_OK)
                        return st;
                    n = 0;
                }
                if (ok) {
                    as[n] = a;
                    cs[n] = c;
                    n++;
                }
            }
            for (int32_t i = 0; i + 1 < len; i++) {
                /* a block on a cluster corner is scanned from both borders and sees the same (its orthogonal
                 * moves' legality depends only on the two cells off the diagonal): the vertical scan takes it */
                if (!vertical && (i + 1) % C == 0)
                    continue;
                const uint32_t a0 = vertical ? ap_map_index(m, k - 1, i) : ap_map_index(m, i, k - 1);
                const uint32_t a1 = vertical ? ap_map_index(m, k - 1, i + 1) : ap_map_index(m, i + 1, k - 1);
                const uint32_t c0 = vertical ? ap_map_index(m, k, i) : ap_map_index(m, i, k);
                const uint32_t c1 = vertical ? ap_map_index(m, k, i + 1) : ap_map_index(m, i + 1, k);
                int dg = 0;
                const uint8_t bits = diagonal_classes(b, a0, a1, c0, c1, &dg);
                if (bits != 0) {
                    int st = add_pair(b, dg == 0 ? a0 : a1, dg == 0 ? c1 : c0, bits);
                    if (st != AP_OK)
                        return st;
                }
            }
        }
    }
    return AP_OK;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static uint32_t node_of(const ap_hier *h, const ap_map *m, uint32_t cell)
{
    const uint32_t cl = ap_hier_cluster_of(m, h, cell);
    for (uint32_t j = h->cl_first[cl]; j < h->cl_first[cl + 1]; j++)
        if (h->cell[j] == cell)
            return j;
    return UINT32_MAX;
}

/* Can cluster cl keep old's intra-cluster edges? When it is not to be redone (its cells, their passability,
 * costs and clearance are as in old's map) and has the same transition cells (the same nodes in the same
 * order): its edges are then exact shortest paths over the same cells between the same cells. */
static bool keeps_edges(const ap_hier *h, const ap_hier *old, const uint8_t *redo, uint32_t cl)
{
    if (old == NULL || redo[cl])
        return false;
    const uint32_t f = h->cl_first[cl], n = h->cl_first[cl + 1] - f, of = old->cl_first[cl];
    return old->cl_first[cl + 1] - of == n && memcmp(&h->cell[f], &old->cell[of], n * sizeof *h->cell) == 0 &&
           memcmp(&h->classes[f], &old->classes[of], n * sizeof *h->classes) == 0;
}

/* Cluster cl's intra-cluster edges from old (keeps_edges), renumbered to h's nodes, appended as the build
 * appends them (per node after its inter edges, in the order of the nodes they lead to). */
static void copy_edges(const ap_hier *h, const ap_hier *old, uint32_t cl, ap_hier_edge *e, uint32_t *ep,
                       uint32_t *cnt, path_pool *pool, bool store)
{
    const uint32_t f = h->cl_first[cl], l = h->cl_first[cl + 1], of = old->cl_first[cl];
    /* old's stored detours are indexed by (edge, class) ascending, the order the edges are read in: one cursor */
    uint32_t pi = ap_hier_path_lower(old, (uint64_t)old->first[of] * AP_HIER_CLASSES);
    for (uint32_t i = f; i < l; i++) {
        const uint32_t oi = of + (i - f);
        for (uint32_t k = old->first[oi]; k < old->first[oi + 1]; k++) {
            ap_hier_edge ed = old->edges[k];
            if (ed.to < of || ed.to >= of + (l - f))
                continue; /* an inter edge: rebuilt from the entrances */
            ed.to = f + (ed.to - of);
            for (int cls = 0; cls < AP_HIER_CLASSES; cls++) {
                const uint64_t key = (uint64_t)k * AP_HIER_CLASSES + (uint64_t)cls;
                while (pi < old->n_paths && old->path_edge[pi] < key)
                    pi++;
                const uint32_t at = store && pi < old->n_paths && old->path_edge[pi] == key ? old->path_at[pi]
                                                                                         : AP_HIER_NO_PATH;
                ep[(size_t)(h->first[i] + cnt[i]) * AP_HIER_CLASSES + (size_t)cls] =
                    at == AP_HIER_NO_PATH ? AP_HIER_NO_PATH : pool_add(pool, &old->paths[at + 1], old->paths[at], false);
            }
            e[h->first[i] + cnt[i]++] = ed;
        }
    }
}

/* A class-cls shortest path from local cell src to local cell dst of c read back from the costs dist of a
 * Dijkstra of c from src (cluster.h; dst settled): from dst, each step back to a neighbour u whose move u -> v
 * is legal for cls (c's move bits) and whose cost plus the move's is dist[v] exactly (one exists: v's cost was
 * set so from a settled neighbour), of several the one nearest the straight line (the smoothing straightens
 * such paths best). dist is class cls's own, or (reach non-NULL) a lower class's whose reach (cluster.h) is
 * at least cls at dst: then only neighbours of reach >= cls are taken, and one always exists (reach's
 * definition). codes[0 .. n-1] get the moves in path order; returns n, or -1 when none matches. */
static int walk_back(const ap_hier_cluster *c, int cls, const double *dist, const uint8_t *reach, uint32_t src,
                     uint32_t dst, uint8_t *codes)
{
    static const double len[8] = {1.0, 1.0, 1.0, 1.0, M_SQRT2, M_SQRT2, M_SQRT2, M_SQRT2};
    const ap_map *m = c->m;
    const uint8_t *moves = c->moves[cls];
    const uint32_t base = ap_map_index(m, c->x0, c->y0), stride = (uint32_t)m->stride;
    const int32_t sx = (int32_t)(src % C), sy = (int32_t)(src / C);
    const int32_t lx = (int32_t)(dst % C) - sx, ly = (int32_t)(dst / C) - sy;
    uint8_t back[LOCAL_N];
    int n = 0;
    for (uint32_t v = dst; v != src;) {
        if (n >= LOCAL_N - 1)
            return -1;
        const int32_t vx = (int32_t)(v % C), vy = (int32_t)(v / C);
        int32_t best = INT32_MAX;
        int pick = -1;
        for (int i = 0; i < 8; i++) {
            const int32_t ux = vx - ap_hier_dx[i], uy = vy - ap_hier_dy[i];
            if (ux < 0 || uy < 0 || ux >= C || uy >= C)
                continue;
            const uint32_t u = (uint32_t)(uy * C + ux);
            if (!(moves[u] >> i & 1u) || (reach != NULL && reach[u] < cls))
                continue;
            const double mc = m->weighted ? ap_map_move_cost(m, base + (uint32_t)uy * stride + (uint32_t)ux,
                                                             base + (uint32_t)vy * stride + (uint32_t)vx, len[i])
                                          : len[i];
            const int32_t off = abs(lx * (uy - sy) - ly * (ux - sx)); /* |cross|: distance from the line */
            if (dist[u] + mc == dist[v] && off < best) {
                best = off;
                pick = i;
            }
        }
        if (pick < 0)
            return -1;
        back[n++] = (uint8_t)pick;
        v = (uint32_t)((int32_t)(v - ap_hier_dx[pick]) - ap_hier_dy[pick] * C);
    }
    for (int k = 0; k < n; k++)
        codes[k] = back[n - 1 - k];
    return n;
}

/* Edge i -> j (and j -> i) of class cls with cost d from local cell si to local cell v of c, dist (and reach,
 * or NULL) as walk_back takes them: when neither straight octile path is as cheap (ap_hier_path's refinement
 * tries those first), its shortest path read back into pool, for both directions. */
static void store_detour(const ap_map *m, const ap_hier *h, const ap_hier_cluster *c, int cls, const double *dist,
                         const uint8_t *reach, uint32_t si, uint32_t v, uint32_t i, uint32_t j, double d, uint32_t *ij,
                         uint32_t *ji, path_pool *pool)
{
    uint32_t cells[2 * C];
    size_t nc = 0;
    double cost = 0.0;
    if (direct_path(m, h->clear, cls, h->cell[i], h->cell[j], true, d, cells, &nc, &cost) ||
        direct_path(m, h->clear, cls, h->cell[i], h->cell[j], false, d, cells, &nc, &cost))
        return;
    uint8_t codes[LOCAL_N];
    const int n = walk_back(c, cls, dist, reach, si, v, codes);
    if (n <= 0 || n > UINT8_MAX)
        return;
    *ij = pool_add(pool, codes, n, false);
    *ji = pool_add(pool, codes, n, true);
}

/* Intra-cluster edges of every cluster, appended after the inter edges already in e (per node: cnt[i]);
 * copied from old (NULL for a full build) where keeps_edges allows. The edge i -> j of class k costs the
 * exact shortest path of class-k moves inside the cluster when both nodes are transitions of class k's graph
 * (h->classes; for k > 0 the cells also clear for the class's disc), else INFINITY; edges no class may use
 * are dropped. Costs are symmetric (ap_map_move_cost), so the searches from node i fill both ways for the
 * nodes after it, and stop once those are settled. Per node, classes go upwards and a class searches only
 * when one of its nodes is neither in an open box nor reached by a straight octile path of class-k moves
 * (uniform maps: then the cost is the open lattice's, a lower bound every path meets) nor covered by the
 * last search's reach (cluster.h: there the cost is the lower class's, bit for bit; unreachable for a
 * lower class is unreachable for a higher one). The octile paths spare about 60 % of the searches'
 * instructions on Paris_1_1024 (BENCHMARKS.md, thirteenth session). */
static int intra_edges(ap_hier *h, const ap_map *m, ap_hier_edge *e, uint32_t *ep, uint32_t *cnt,
                       const ap_hier *old, const uint8_t *redo, path_pool *pool)
{
    ap_hier_cluster *c = malloc(sizeof *c);
    double *dist = malloc(LOCAL_N * sizeof *dist);
    uint8_t *want = calloc(LOCAL_N, 1), *reach = malloc(LOCAL_N);
    if (c == NULL || dist == NULL || want == NULL || reach == NULL) {
        AP_FREE_ALL(c, dist, want, reach);
        return AP_E_NOMEM;
    }
    /* Classes with a graph: 0, and the others when the map has a clearance table. */
    const uint8_t graphs = h->clear != NULL ? (uint8_t)((1u << AP_HIER_CLASSES) - 1u) : 1u;
    uint16_t loc[LOCAL_N]; /* per node f + n of the cluster: its local cell */
    bool open[LOCAL_N];
    for (int32_t cy = 0; cy < h->ch; cy++)
        for (int32_t cx = 0; cx < h->cw; cx++) {
            const uint32_t cl = (uint32_t)(cy * h->cw + cx), f = h->cl_first[cl], l = h->cl_first[cl + 1];
            if (l - f < 2)
                continue;
            const bool store = pool_open(pool);
            h->cl_stored[cl] = store;
            /* a cluster old built past the budget has no detours to copy: where the budget is open now (an
             * earlier cluster's detours shrank) it is built as a fresh build would */
            if (keeps_edges(h, old, redo, cl) && !(store && !old->cl_stored[cl])) {
                copy_edges(h, old, cl, e, ep, cnt, pool, store);
                continue;
            }
            ap_hier_cluster_init(c, m, h->clear, cx * C, cy * C, -1);
            for (uint32_t j = f; j < l; j++) /* the nodes are distinct cells of the cluster: l - f <= LOCAL_N */
                loc[j - f] = (uint16_t)ap_hier_cluster_local(c, h->cell[j]);
            for (uint32_t i = f; i < l; i++)
                for (uint32_t j = f; j < l; j++)
                    if (j != i) {
                        ap_hier_edge *ed = &e[h->first[i] + cnt[i] + (j - f) - (j > i)];
                        ed->to = j;
                        for (int k = 0; k < AP_HIER_CLASSES; k++) {
                            ed->cost[k] = INFINITY;
                            ep[(size_t)(ed - e) * AP_HIER_CLASSES + (size_t)k] = AP_HIER_NO_PATH;
                        }
                    }
            for (uint32_t i = f; i + 1 < l; i++) {
                const uint32_t si = loc[i - f];
                int searched = -1; /* the class of the last search from i */
                for (int k = 0; k < AP_HIER_CLASSES; k++) {
                    const uint8_t bit = (uint8_t)(1u << k);
                    if (!(h->classes[i] & graphs & bit) ||
                        (k > 0 && class_level(h->clear->disc[h->cell[i]]) < k))
                        continue;
                    /* open[j - f]: the box from i to j open for class k (uniform maps; each pair's test made once) */
                    for (uint32_t j = i + 1; j < l; j++)
                        open[j - f] = (h->classes[j] & bit) && !m->weighted && ap_hier_cluster_box_open(c, k, si, loc[j - f]);
                    /* a node the box or the last search's reach does not cover needs a search, unless a straight
                     * octile path reaches it (uniform maps: then that is its cost, as for an open box) */
                    bool fresh = false;
                    for (uint32_t j = i + 1; j < l; j++) {
                        const uint32_t v = loc[j - f];
                        if ((h->classes[j] & bit) && !open[j - f] &&
                            (searched < 0 || (isfinite(dist[v]) && reach[v] < k))) {
                            if (!m->weighted && ap_hier_cluster_octile_path(c, k, si, v))
                                open[j - f] = true;
                            else
                                fresh = true;
                        }
                    }
                    if (fresh) { /* search class k to every node after i that a class >= k joins to i */
                        int n_want = 0;
                        for (uint32_t j = i + 1; j < l; j++)
                            if (h->classes[i] & h->classes[j] & graphs & (uint8_t)(0xffu << k)) {
                                want[loc[j - f]] = 1;
                                n_want++;
                            }
                        /* reach only when a higher class joins i to a node after it */
                        bool higher = false;
                        for (uint32_t j = i + 1; j < l && !higher; j++)
                            higher = (h->classes[i] & h->classes[j] & graphs & (uint8_t)(0xfeu << k)) != 0;
                        ap_hier_cluster_dijkstra(c, k, si, want, n_want, dist, higher ? reach : NULL);
                        for (uint32_t j = i + 1; j < l; j++)
                            want[loc[j - f]] = 0;
                        searched = k;
                    }
                    for (uint32_t j = i + 1; j < l; j++) {
                        if (!(h->classes[j] & bit) ||
                            (k > 0 && class_level(h->clear->disc[h->cell[j]]) < k))
                            continue;
                        const uint32_t v = loc[j - f];
                        const bool open_box = open[j - f];
                        const double d = open_box ? octile_between(h, si, v) : dist[v];
                        const size_t ij = h->first[i] + cnt[i] + (j - f) - 1, ji = h->first[j] + cnt[j] + (i - f);
                        e[ij].cost[k] = e[ji].cost[k] = (float)d;
                        if (store && isfinite(d) && !open_box)
                            store_detour(m, h, c, k, dist, searched == k ? NULL : reach, si, v, i, j, d,
                                         &ep[ij * AP_HIER_CLASSES + (size_t)k], &ep[ji * AP_HIER_CLASSES + (size_t)k], pool);
                    }
                }
            }
            /* Compact: drop edges no class may use. */
            for (uint32_t i = f; i < l; i++) {
                uint32_t w = cnt[i];
                for (uint32_t k = cnt[i]; k < cnt[i] + (l - f - 1); k++) {
                    const ap_hier_edge *ed = &e[h->first[i] + k];
                    bool any = false;
                    for (int cls = 0; cls < AP_HIER_CLASSES; cls++)
                        any |= isfinite(ed->cost[cls]);
                    if (any) {
                        memmove(&ep[(size_t)(h->first[i] + w) * AP_HIER_CLASSES],
                                &ep[(size_t)(h->first[i] + k) * AP_HIER_CLASSES], AP_HIER_CLASSES * sizeof *ep);
                        e[h->first[i] + w++] = *ed;
                    }
                }
                cnt[i] = w;
            }
        }
    AP_FREE_ALL(c, dist, want, reach);
    return AP_OK;
}

/* The graph of m (ap_hier_build); with old (the graph of the map m was patched from) the intra-cluster
 * edges of every cluster whose redo flag is clear and whose nodes are unchanged are copied, not searched. */
/* ---- landmarks (ALT) of the abstract graph ------------------------------------------------------------ */

/* Class cls's graph as a search domain for ap_landmarks_farthest: its edges of finite cost for the class
 * (each listed from both ends: an inter-cluster edge is stored twice with one cost, an intra-cluster pair's
 * two directions come from the same cluster Dijkstra's symmetric move costs), node n_nodes reached by none. */
typedef struct lm_dom {
    const ap_hier *h;
    int cls;
} lm_dom;

/* Node u's edges usable by class cls (finite cost) into out; their count. The landmarks' and the abstract
 * search's successors. */
static inline int class_edges(const ap_hier *h, int cls, uint32_t u, ap_succ *out)
{
    int k = 0;
    for (uint32_t e = h->first[u]; e < h->first[u + 1]; e++) { /* written always, kept when finite: no branch */
        const float c = h->edges[e].cost[cls];
        out[k] = (ap_succ){h->edges[e].to, c};
        k += c < INFINITY;
    }
    return k;
}

static int lm_succ(const void *ctx, uint32_t u, ap_succ *out)
{
    const lm_dom *d = ctx;
    return class_edges(d->h, d->cls, u, out);
}

static double lm_zero(const void *ctx, uint32_t u, uint32_t g)
{
    return 0.0;
}

/* The landmarks' Dijkstra runs as the abstract search runs (the bucketed open list's wide policy, successors
 * inlined): about a fifth faster than on the generic loop, which tile updates pay on every new version
 * (BENCHMARKS.md "Landmarks for the abstract search"). */
#define CORE_NAME lm_run
#define CORE_BUCKET 1
#define CORE_WIDE 1
#define CORE_PER_TILE AP_BQ_WIDE_PER_TILE
#define CORE_EXPAND DIRECT_LOOP(lm_run, lm_succ, lm_zero)
#include "../search/core_loop.h"

/* h->lm for every class of h (hier.h), or NULL above AP_HIER_LANDMARK_MAX_NODES nodes or out of memory (the
 * graph stays valid: the abstract search then uses the octile bound alone). */
static void landmarks_build(ap_hier *h)
{
    h->lm = NULL;
    h->lm_classes = 0;
    const uint32_t n = h->n_nodes, K = AP_HIER_LANDMARKS;
    if (n == 0 || n > AP_HIER_LANDMARK_MAX_NODES)
        return;
    const int classes = h->clear != NULL ? AP_HIER_CLASSES : 1;
    uint16_t *lm = malloc((size_t)classes * n * K * sizeof *lm);
    double *d = malloc((size_t)K * n * sizeof *d);
    if (lm == NULL || d == NULL) {
        AP_FREE_ALL(lm, d);
        return;
    }
    for (int cls = 0; cls < classes; cls++) {
        const lm_dom ctx = {h, cls};
        const ap_domain dom = {.ctx = &ctx, .node_count = n + 1, .max_succ = (int)h->max_deg + 1,
                               .successors = lm_succ, .heuristic = lm_zero, .run = lm_run};
        uint32_t made = 0;
        if (ap_landmarks_farthest(&dom, n, K, d, &made) != AP_OK) {
            AP_FREE_ALL(lm, d);
            return;
        }
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t i = 0; i < K; i++) {
                const double u = i < made ? floor(d[(size_t)i * n + v] / AP_HIER_LM_UNIT) : INFINITY;
                lm[((size_t)cls * n + v) * K + i] = u < AP_HIER_LM_NONE ? (uint16_t)u : AP_HIER_LM_NONE;
            }
    }
    free(d);
    h->lm = lm;
    h->lm_classes = classes;
    h->bytes += (size_t)classes * n * K * sizeof *lm;
}

static int build_graph(const ap_map *m, const ap_hier *old, const uint8_t *redo, ap_hier **out)
{
    *out = NULL;
    if ((int64_t)m->width * m->height > AP_HIER_MAX_CELLS)
        return AP_E_MAP_TOO_LARGE;
    build b = {m, ap_clearance_of(m, m->capability), NULL, 0, 0};
    int st = find_entrances(&b);
    ap_hier *h = calloc(1, sizeof *h);
    uint64_t *keys = NULL;
    uint32_t *ep = NULL;
    if (st != AP_OK || h == NULL)
        goto fail_nomem;
    ap_hier_octile_costs(h->octile);
    h->clear = b.t;
    h->cw = (m->width + C - 1) / C;
    h->ch = (m->height + C - 1) / C;
    const uint32_t ncl = (uint32_t)(h->cw * h->ch);
    /* Nodes: the distinct transition cells, grouped by cluster (sorted by cluster, then cell). */
    keys = malloc((2 * b.n_pairs + 1) * sizeof *keys);
    h->cl_first = calloc(ncl + 1, sizeof *h->cl_first);
    h->cl_stored = calloc(ncl, 1);
    if (keys == NULL || h->cl_first == NULL || h->cl_stored == NULL)
        goto fail_nomem;
    size_t nk = 0;
    for (size_t i = 0; i < b.n_pairs; i++) {
        keys[nk++] = (uint64_t)ap_hier_cluster_of(m, h, b.pairs[i].a) << 32 | b.pairs[i].a;
        keys[nk++] = (uint64_t)ap_hier_cluster_of(m, h, b.pairs[i].b) << 32 | b.pairs[i].b;
    }
    qsort(keys, nk, sizeof *keys, cmp_u64);
    size_t nn = 0;
    for (size_t i = 0; i < nk; i++)
        if (nn == 0 || keys[i] != keys[nn - 1])
            keys[nn++] = keys[i];
    h->n_nodes = (uint32_t)nn;
    h->cell = malloc((nn + 1) * sizeof *h->cell);
    h->xy = malloc((2 * nn + 1) * sizeof *h->xy);
    h->first = calloc(nn + 1, sizeof *h->first);
    h->classes = calloc(nn + 1, sizeof *h->classes);
    uint32_t *cnt = calloc(nn + 1, sizeof *cnt);
    if (h->cell == NULL || h->xy == NULL || h->first == NULL || h->classes == NULL || cnt == NULL) {
        free(cnt);
        goto fail_nomem;
    }
    for (size_t i = 0; i < nn; i++) {
        h->cell[i] = (uint32_t)keys[i];
        ap_map_coords(m, h->cell[i], &h->xy[2 * i], &h->xy[2 * i + 1]);
        h->cl_first[(keys[i] >> 32) + 1]++;
    }

    for (uint32_t c = 0; c < ncl; c++)
        h->cl_first[c + 1] += h->cl_first[c];
    /* Edge room per node: its inter edges plus one per other node of its cluster. */
    for (size_t i = 0; i < b.n_pairs; i++) {
        const uint32_t u = node_of(h, m, b.pairs[i].a), v = node_of(h, m, b.pairs[i].b);
        cnt[u]++;
        cnt[v]++;
        h->classes[u] |= b.pairs[i].classes;
        h->classes[v] |= b.pairs[i].classes;
    }
    size_t total = 0;
    for (uint32_t i = 0; i < nn; i++) {
        const uint32_t cl = ap_hier_cluster_of(m, h, h->cell[i]);
        h->first[i] = (uint32_t)total;
        total += cnt[i] + (h->cl_first[cl + 1] - h->cl_first[cl] - 1);
        cnt[i] = 0;
    }
    h->first[nn] = (uint32_t)total;
    h->edges = malloc((total + 1) * sizeof *h->edges);
    ep = malloc((total + 1) * AP_HIER_CLASSES * sizeof *ep); /* per edge slot and class: its stored detour's
                                                                 * offset (build only) */
    if (h->edges == NULL || ep == NULL) {
        free(cnt);
        goto fail_nomem;
    }
    for (size_t i = 0; i < b.n_pairs; i++) {
        const uint32_t u = node_of(h, m, b.pairs[i].a), v = node_of(h, m, b.pairs[i].b);
        ap_hier_edge ed = {.to = v};
        const uint8_t q = cross_q(&b, b.pairs[i].a, b.pairs[i].b);
        for (int cls = 0; cls < AP_HIER_CLASSES; cls++)
            ed.cost[cls] = (b.pairs[i].classes >> cls & 1u) &&
                                   (cls == 0 || (b.t != NULL && class_level(q) >= cls))
                               ? (float)ap_map_move_cost(m, b.pairs[i].a, b.pairs[i].b,
                                                         pair_diagonal(m, b.pairs[i].a, b.pairs[i].b) ? M_SQRT2 : 1.0)
                               : INFINITY;
        for (int cls = 0; cls < AP_HIER_CLASSES; cls++) {
            ep[(size_t)(h->first[u] + cnt[u]) * AP_HIER_CLASSES + (size_t)cls] = AP_HIER_NO_PATH;
            ep[(size_t)(h->first[v] + cnt[v]) * AP_HIER_CLASSES + (size_t)cls] = AP_HIER_NO_PATH;
        }
        h->edges[h->first[u] + cnt[u]++] = ed;
        ed.to = u;
        h->edges[h->first[v] + cnt[v]++] = ed;
    }
    path_pool pool = {.budget = (size_t)AP_HIER_PATH_BYTES_PER_CELL * (size_t)m->width * (size_t)m->height};
    st = intra_edges(h, m, h->edges, ep, cnt, old, redo, &pool);
    if (pool.b != NULL && pool.len < pool.cap) { /* as long as it is: a fresh build and an update agree */
        uint8_t *fit = realloc(pool.b, pool.len ? pool.len : 1);
        if (fit != NULL)
            pool.b = fit;
    }
    h->paths = pool.b;
    h->paths_len = pool.len;
    if (st != AP_OK) {
        free(cnt);
        goto fail_nomem;
    }
    /* CSR without the dropped edges. */
    size_t w = 0;
    for (uint32_t i = 0; i < nn; i++) {
        const uint32_t f = h->first[i];
        h->first[i] = (uint32_t)w;
        memmove(&h->edges[w], &h->edges[f], cnt[i] * sizeof *h->edges);
        memmove(&ep[w * AP_HIER_CLASSES], &ep[(size_t)f * AP_HIER_CLASSES], cnt[i] * AP_HIER_CLASSES * sizeof *ep);
        w += cnt[i];
    }
    /* the detours' index: the (edge, class) keys that have one, ascending */
    for (size_t k = 0; k < w * AP_HIER_CLASSES; k++)
        h->n_paths += ep[k] != AP_HIER_NO_PATH;
    h->path_edge = malloc((h->n_paths + 1) * sizeof *h->path_edge);
    h->path_at = malloc((h->n_paths + 1) * sizeof *h->path_at);
    if (h->path_edge == NULL || h->path_at == NULL) {
        free(cnt);
        goto fail_nomem;
    }
    for (size_t k = 0, n = 0; k < w * AP_HIER_CLASSES; k++)
        if (ep[k] != AP_HIER_NO_PATH) {
            h->path_edge[n] = (uint32_t)k;
            h->path_at[n++] = ep[k];
        }
    h->first[nn] = (uint32_t)w;
    for (uint32_t i = 0; i < nn; i++)
        if (cnt[i] > h->max_deg)
            h->max_deg = cnt[i];
    free(cnt);
    ap_hier_edge *shrunk = realloc(h->edges, (w + 1) * sizeof *h->edges);
    if (shrunk != NULL)
        h->edges = shrunk;
    h->bytes = sizeof *h + (nn + 1) * (2 * sizeof(uint32_t) + sizeof *h->classes) + (2 * nn + 1) * sizeof *h->xy +
               (w + 1) * sizeof *h->edges + (ncl + 1) * sizeof(uint32_t) + ncl + pool.len +
               2 * (h->n_paths + 1) * sizeof(uint32_t);
    landmarks_build(h);
    free(keys);
    free(b.pairs);
    free(ep);
    *out = h;
    return AP_OK;
fail_nomem:
    free(keys);
    free(b.pairs);
    free(ep);
    ap_hier_free(h);
    return AP_E_NOMEM;
}

int ap_hier_build(const ap_map *m, ap_hier **out)
{
    return build_graph(m, NULL, NULL, out);
}

void ap_hier_free(void *p)
{
    ap_hier *h = p;
    if (h == NULL)
        return;
    free(h->cell);
    free(h->lm);
    free(h->xy);
    free(h->classes);
    free(h->first);
    free(h->edges);
    free(h->cl_first);
    free(h->cl_stored);
    free(h->paths);
    free(h->path_edge);
    free(h->path_at);
    free(h);
}

/* ---- the abstract search ----------------------------------------------------------------------------- */

typedef struct abs_dom {
    const ap_map *m;
    const ap_hier *h;
    int cls;
    uint32_t S, G;             /* virtual start and goal ids: n_nodes, n_nodes + 1 */
    uint32_t scl, gcl;         /* their clusters */
    const double *sdist, *gdist; /* per node of scl / gcl: exact cost from start / to goal inside the cluster */
    double sg;                 /* start -> goal inside one cluster, or INFINITY */
    int32_t gx, gy;
    const uint16_t *lm;        /* the class's landmark distances (hier.h ap_hier.lm), or NULL: octile alone */
    double lg[AP_HIER_LANDMARKS]; /* each landmark's distance to the goal (INFINITY: none, or not connected) */
} abs_dom;

static int abs_succ(const void *ctx, uint32_t u, ap_succ *out)
{
    const abs_dom *d = ctx;
    const ap_hier *h = d->h;
    int k = 0;
    if (u == d->G)
        return 0;
    if (u == d->S) {
        for (uint32_t j = h->cl_first[d->scl]; j < h->cl_first[d->scl + 1]; j++)
            if (isfinite(d->sdist[j - h->cl_first[d->scl]]))
                out[k++] = (ap_succ){j, d->sdist[j - h->cl_first[d->scl]]};
        if (isfinite(d->sg))
            out[k++] = (ap_succ){d->G, d->sg};
        return k;
    }
    k = class_edges(h, d->cls, u, out);
    if (u >= h->cl_first[d->gcl] && u < h->cl_first[d->gcl + 1] && isfinite(d->gdist[u - h->cl_first[d->gcl]]))
        out[k++] = (ap_succ){d->G, d->gdist[u - h->cl_first[d->gcl]]};
    return k;
}

static double abs_h(const void *ctx, uint32_t u, uint32_t g)
{
    (void)g;
    const abs_dom *d = ctx;
    if (u == d->G)
        return 0.0;
    if (u == d->S)
        return 0.0;
    /* ap_octile, inlined; float edge costs: keep the estimate a hair below the octile distance so rounding
     * never makes it inadmissible */
    const int32_t ax = abs(d->h->xy[2 * u] - d->gx), ay = abs(d->h->xy[2 * u + 1] - d->gy);
    const double oct = (double)(ax > ay ? ax : ay) + (M_SQRT2 - 1.0) * (double)(ax > ay ? ay : ax);
    double best = oct * d->m->cost_min * (1.0 - 1e-6);
    if (d->lm != NULL) {
        /* ALT: |d(L, goal) - d(L, u)| <= d(u, goal); a landmark that does not reach both is skipped. The
         * stored distances are up to one unit below the true ones (lg too: its minimum is over them), so one
         * unit is given away, and 1e-6 of their sum for the float edge costs (summed in other orders). */
        const uint16_t *l = d->lm + (size_t)u * AP_HIER_LANDMARKS;
        for (int i = 0; i < AP_HIER_LANDMARKS; i++) {
            const double b = d->lg[i];
            if (l[i] != AP_HIER_LM_NONE && b < INFINITY) {
                const double a = l[i] * AP_HIER_LM_UNIT;
                const double t = fabs(b - a) - AP_HIER_LM_UNIT - 1e-6 * (a + b);
                best = t > best ? t : best;
            }
        }
    }
    return best;
}

/* The abstract search on the bucketed open list's wide policy (open_bucket.h, as jump points: edges span up
 * to a cluster's diagonal): -14..-17 % per ap_hier_path against the single heap, the same expansions
 * (BENCHMARKS.md "Hierarchical (HAA*)", 2026-11-24). */
#define CORE_NAME abs_run
#define CORE_BUCKET 1
#define CORE_WIDE 1
#define CORE_PER_TILE AP_BQ_WIDE_PER_TILE
#define CORE_EXPAND DIRECT_LOOP(abs_run, abs_succ, abs_h)
#include "../search/core_loop.h"

/* Costs from cell `from` (inside cluster cl) to every node of cl in class cls's graph (ap_hier.classes);
 * INFINITY when unreachable inside the cluster, and for the cluster's other nodes: they have no edge of
 * finite class-cls cost (build_graph gives a node's inter and intra edges a class's cost only when the node
 * was placed for the class), so from the start or to the goal they would be dead ends. With to_other (not
 * NULL) also the cost to cell `other` when it is in cl (else INFINITY). One Dijkstra in the cluster
 * (cluster.h) that stops once those cells are settled (their costs are then final, bit for bit those of a
 * search to the end): at most 256 cells; none on a uniform map when straight octile paths reach them all. */
static void insert_point(const ap_map *m, const ap_hier *h, int cls, uint32_t from, uint32_t cl, double *dist,
                         uint32_t other, double *to_other)
{
    ap_hier_cluster c;
    double all[LOCAL_N];
    uint8_t want[LOCAL_N];
    ap_hier_cluster_init(&c, m, h->clear, ((int32_t)cl % h->cw) * C, ((int32_t)cl / h->cw) * C, cls);
    memset(want, 0, sizeof want);
    int n_want = 0;
    const bool in_cl = to_other != NULL && ap_hier_cluster_of(m, h, other) == cl;
    for (uint32_t j = h->cl_first[cl]; j < h->cl_first[cl + 1]; j++)
        if (h->classes[j] >> cls & 1u) {
            const uint32_t v = ap_hier_cluster_local(&c, h->cell[j]);
            n_want += !want[v];
            want[v] = 1;
        }
    if (in_cl) {
        const uint32_t v = ap_hier_cluster_local(&c, other);
        n_want += !want[v];
        want[v] = 1;
    }
    const uint32_t s = ap_hier_cluster_local(&c, from);
    /* on a uniform map, when a straight octile path reaches every wanted cell (open ground) their costs are
     * the octile ones (every path costs at least that): no search */
    if (n_want > 0) {
        bool direct = !m->weighted;
        for (uint32_t v = 0; v < LOCAL_N && direct; v++)
            direct = !want[v] || ap_hier_cluster_octile_path(&c, cls, s, v);
        if (direct)
            for (uint32_t v = 0; v < LOCAL_N; v++)
                all[v] = want[v] ? octile_between(h, s, v) : INFINITY;
        else
            ap_hier_cluster_dijkstra(&c, cls, s, want, n_want, all, NULL);
    }
    for (uint32_t j = h->cl_first[cl]; j < h->cl_first[cl + 1]; j++)
        dist[j - h->cl_first[cl]] = h->classes[j] >> cls & 1u ? all[ap_hier_cluster_local(&c, h->cell[j])] : INFINITY;
    if (to_other != NULL)
        *to_other = in_cl ? all[ap_hier_cluster_local(&c, other)] : INFINITY;
}

/* The abstract path of a query (ap_hier_path): start and goal inserted, A* on the abstract graph on ws.
 * *nodes (malloc'd, caller frees; 2 * *n words) gets the abstract node ids S .. G (S = h->n_nodes,
 * G = h->n_nodes + 1), *n their count, *g (inside the same block) each node's cost from S, *cost the
 * abstract cost. */
static int abstract_path(const ap_map *m, const ap_hier *h, int cls, uint32_t start, uint32_t goal, ap_workspace *ws,
                         uint64_t deadline_ns, uint32_t **nodes, double **g, size_t *n,
                         double *cost, uint64_t *expanded)
{
    *expanded = 0;
    *nodes = NULL;
    abs_dom d = {.m = m, .h = h, .cls = cls, .S = h->n_nodes, .G = h->n_nodes + 1};
    d.scl = ap_hier_cluster_of(m, h, start);
    d.gcl = ap_hier_cluster_of(m, h, goal);
    ap_map_coords(m, goal, &d.gx, &d.gy);
    const uint32_t ns = h->cl_first[d.scl + 1] - h->cl_first[d.scl], ng = h->cl_first[d.gcl + 1] - h->cl_first[d.gcl];
    double *sd = malloc((ns + ng + 1) * sizeof *sd);
    if (sd == NULL)
        return AP_E_NOMEM;
    double *gd = sd + ns;
    insert_point(m, h, cls, start, d.scl, sd, goal, &d.sg);
    insert_point(m, h, cls, goal, d.gcl, gd, start, NULL);
    d.sdist = sd;
    d.gdist = gd;
    if (h->lm != NULL && cls < h->lm_classes) {
        /* Every abstract path from a node of the class's graph to the goal ends with an edge e -> goal from a
         * transition e of the class in the goal's cluster (hier.h), so d(L, goal) is the least
         * d(L, e) + cost(e -> goal) over those. The ones the goal reaches are one component (their
         * intra-cluster edges join them), so one of them without a stored distance while another has one is a
         * distance too far to hold (AP_HIER_LM_NONE): then that minimum is unknown and the landmark sits this
         * query out (lg INFINITY), or the bound could overestimate. */
        d.lm = h->lm + (size_t)cls * h->n_nodes * AP_HIER_LANDMARKS;
        for (int i = 0; i < AP_HIER_LANDMARKS; i++) {
            double lg = INFINITY;
            bool unknown = false;
            for (uint32_t j = h->cl_first[d.gcl]; j < h->cl_first[d.gcl + 1]; j++) {
                const double c = gd[j - h->cl_first[d.gcl]];
                if (!(c < INFINITY) || !(h->classes[j] >> cls & 1u))
                    continue;
                const uint16_t q = d.lm[(size_t)j * AP_HIER_LANDMARKS + i];
                if (q == AP_HIER_LM_NONE) {
                    unknown = true;
                    continue;
                }
                const double v = q * AP_HIER_LM_UNIT + c;
                lg = v < lg ? v : lg;
            }
            d.lg[i] = unknown ? INFINITY : lg;
        }
    }
    const uint32_t max_deg = (ns + 1 > h->max_deg + 1 ? ns + 1 : h->max_deg + 1);
    ap_domain dom = {.ctx = &d, .node_count = h->n_nodes + 2, .max_succ = (int)max_deg, .successors = abs_succ,
                     .heuristic = abs_h, .run = abs_run};
    if ((int)max_deg > ws->succ_cap) {
        free(sd);
        return AP_E_INTERNAL;
    }
    ap_search s;
    int st = ap_search_begin(&s, ws, &dom, d.S, d.G, deadline_ns);
    if (st == AP_OK)
        st = ap_search_run(&s, 0);
    *expanded = s.expanded;
    free(sd);
    if (st != AP_OK)
        return st;
    *cost = s.cost;
    *n = ap_search_path(&s, NULL, 0);
    double *gs = malloc(*n * (sizeof **g + sizeof **nodes));
    if (gs == NULL)
        return AP_E_NOMEM;
    *g = gs;
    *nodes = (uint32_t *)(gs + *n);
    ap_search_path(&s, *nodes, *n);
    for (size_t i = 0; i < *n; i++)
        gs[i] = ws->nodes[(*nodes)[i]].g;
    return AP_OK;
}

/* The octile path from `from` to `to` (diagonal moves first when diag_first, else straight ones first)
 * appended to cells at *nc when every move is legal for class cls and its cost is at most want (then it is
 * a shortest path: want is the edge's exact cost, up to float rounding); returns whether it was. cells has
 * room for the path's cells. */
static bool direct_path(const ap_map *m, const ap_clearance_table *t, int cls, uint32_t from, uint32_t to, bool diag_first,
                        double want, uint32_t *cells, size_t *nc, double *cost)
{
    int32_t fx, fy, tx, ty;
    ap_map_coords(m, from, &fx, &fy);
    ap_map_coords(m, to, &tx, &ty);
    const int sx = tx > fx ? 1 : tx < fx ? -1 : 0, sy = ty > fy ? 1 : ty < fy ? -1 : 0;
    const int32_t ax = abs(tx - fx), ay = abs(ty - fy), nd = ax < ay ? ax : ay, ns = (ax > ay ? ax : ay) - nd;
    const int ox = ax > ay ? sx : 0, oy = ax > ay ? 0 : sy; /* the straight steps' direction */
    size_t k = *nc;
    double c = 0.0;
    uint32_t a = from;
    for (int32_t i = 0; i < nd + ns; i++) {
        const bool diag = diag_first ? i < nd : i >= ns;
        const int dx = diag ? sx : ox, dy = diag ? sy : oy;
        if (!move_ok(m, t, cls, a, dx, dy))
            return false;
        const uint32_t b = (uint32_t)((int64_t)a + dx + (int64_t)dy * m->stride);
        c += ap_map_move_cost(m, a, b, diag ? M_SQRT2 : 1.0);
        cells[k++] = a = b;
    }
    if (!(c <= want * (1.0 + 1e-6) + 1e-9))
        return false;
    *nc = k;
    *cost += c;
    return true;
}

/* Append to *cells (size *nc, capacity *cap) the cells after `from` of a shortest path from `from` to `to`
 * inside their cluster cl for class cls (the moves and costs the intra-cluster edges were computed with, so
 * its cost, added to *cost, is the edge's, want): the straight octile path when it is legal and that cheap
 * (most edges in open areas), else A* inside the cluster. AP_NO_PATH when the cluster holds none (never for
 * an edge of the graph). */
static int refine_edge(const ap_map *m, const ap_hier *h, int cls, uint32_t cl, uint32_t from, uint32_t to,
                       double want, ap_workspace *ws, uint64_t deadline_ns, uint32_t **cells, size_t *nc,
                       size_t *cap, double *cost)
{
    void *p = *cells;
    if (!ap_grow(&p, cap, *nc + 2 * C, sizeof **cells, 256)) /* an octile path inside a cluster: < 2 C cells */
        return AP_E_NOMEM;
    *cells = p;
    if (direct_path(m, h->clear, cls, from, to, true, want, *cells, nc, cost) ||
        direct_path(m, h->clear, cls, from, to, false, want, *cells, nc, cost))
        return AP_OK;
    local_dom d = cluster_dom(m, h, cl, cls);
    int32_t fx, fy, tx, ty;
    ap_map_coords(m, from, &fx, &fy);
    ap_map_coords(m, to, &tx, &ty);
    ap_domain dom = {.ctx = &d, .node_count = LOCAL_N + 1, .max_succ = 8, .successors = local_succ,
                     .heuristic = local_h, .run = local_run};
    ap_search s;
    int st = ap_search_begin(&s, ws, &dom, (uint32_t)((fy - d.y0) * C + (fx - d.x0)),
                             (uint32_t)((ty - d.y0) * C + (tx - d.x0)), deadline_ns);
    if (st == AP_OK)
        st = ap_search_run(&s, 0);
    if (st != AP_OK)
        return st;
    uint32_t local[LOCAL_N];
    const size_t k = ap_search_path(&s, local, LOCAL_N);
    if (k > LOCAL_N || !ap_grow(&p, cap, *nc + k, sizeof **cells, 256))
        return k > LOCAL_N ? AP_E_INTERNAL : AP_E_NOMEM;
    *cells = p;
    for (size_t i = 1; i < k; i++)
        (*cells)[(*nc)++] = ap_map_index(m, d.x0 + (int32_t)(local[i] % C), d.y0 + (int32_t)(local[i] / C));
    *cost += s.cost;
    return AP_OK;
}

/* The stored class-cls detour (ap_hier_edge_path) of the edge from node u to node v, or AP_HIER_NO_PATH (none
 * stored, or u / v the query's inserted start or goal). */
static uint32_t stored_path(const ap_hier *h, uint32_t u, uint32_t v, int cls)
{
    if (u >= h->n_nodes || v >= h->n_nodes)
        return AP_HIER_NO_PATH;
    for (uint32_t e = h->first[u]; e < h->first[u + 1]; e++)
        if (h->edges[e].to == v)
            return ap_hier_edge_path(h, e, cls);
    return AP_HIER_NO_PATH;
}

/* Append the cells after `from` of the stored path at offset at of h->paths to *cells (size *nc, capacity
 * *cap), adding each move's cost (ap_map_move_cost) to *cost. AP_OK or AP_E_NOMEM. */
static int append_stored(const ap_map *m, const ap_hier *h, uint32_t at, uint32_t from, uint32_t **cells,
                         size_t *nc, size_t *cap, double *cost)
{
    const uint8_t *p = &h->paths[at];
    const int n = p[0];
    void *buf = *cells;
    if (!ap_grow(&buf, cap, *nc + (size_t)n, sizeof **cells, 256))
        return AP_E_NOMEM;
    *cells = buf;
    uint32_t a = from;
    for (int k = 1; k <= n; k++) {
        const int i = p[k];
        const uint32_t b = (uint32_t)((int64_t)a + ap_hier_dx[i] + (int64_t)ap_hier_dy[i] * m->stride);
        *cost += ap_map_move_cost(m, a, b, i < 4 ? 1.0 : M_SQRT2);
        (*cells)[(*nc)++] = a = b;
    }
    return AP_OK;
}

int ap_hier_path(const ap_map *m, const ap_hier *h, int cls, uint32_t start, uint32_t goal, ap_workspace *ws,
                 uint64_t deadline_ns, ap_hier_result *out)
{
    *out = (ap_hier_result){0};
    uint32_t *an;
    double *ag;
    size_t na, cap = 0;
    int st = abstract_path(m, h, cls, start, goal, ws, deadline_ns, &an, &ag, &na, &out->abstract_cost,
                           &out->expanded);
    if (st != AP_OK)
        return st;
    out->abstract_nodes = na;
    void *p = NULL;
    if (!ap_grow(&p, &cap, 1, sizeof *out->cells, 256)) {
        free(ag);
        return AP_E_NOMEM;
    }
    out->cells = p;
    out->cells[out->n_cells++] = start;
    uint32_t from = start;
    for (size_t i = 1; i < na && st == AP_OK; i++) {
        const uint32_t to = an[i] == h->n_nodes + 1 ? goal : h->cell[an[i]];
        const uint32_t cf = ap_hier_cluster_of(m, h, from), ct = ap_hier_cluster_of(m, h, to);
        const uint32_t stored = cf == ct ? stored_path(h, an[i - 1], an[i], cls) : AP_HIER_NO_PATH;
        if (stored != AP_HIER_NO_PATH) {
            st = append_stored(m, h, stored, from, &out->cells, &out->n_cells, &cap, &out->cost);
        } else if (cf == ct) {
            st = refine_edge(m, h, cls, cf, from, to, ag[i] - ag[i - 1], ws, deadline_ns, &out->cells,
                             &out->n_cells, &cap, &out->cost);
        } else { /* an inter-cluster edge: one move across the border (orthogonal, or a diagonal crossing) */
            p = out->cells;
            if (!ap_grow(&p, &cap, out->n_cells + 1, sizeof *out->cells, 256)) {
                st = AP_E_NOMEM;
                break;
            }
            out->cells = p;
            out->cells[out->n_cells++] = to;
            out->cost += ap_map_move_cost(m, from, to, pair_diagonal(m, from, to) ? M_SQRT2 : 1.0);
        }
        from = to;
    }
    free(ag);
    if (st != AP_OK) {
        free(out->cells);
        *out = (ap_hier_result){0};
        return st == AP_NO_PATH ? AP_E_INTERNAL : st;
    }
    return AP_OK;
}

/* ---- the table kind ---------------------------------------------------------------------------------- */

/* build_graph into the slot out. */
static int graph_slot(const ap_map *m, const ap_hier *old, const uint8_t *redo, ap_map_table *out)
{
    ap_hier *h;
    int st = build_graph(m, old, redo, &h);
    if (st != AP_OK)
        return st;
    out->data = h;
    out->bytes = h->bytes;
    out->count = h->n_nodes;
    return AP_OK;
}

static int hier_build_kind(const ap_map *m, ap_map_table *out)
{
    return graph_slot(m, NULL, NULL, out);
}


/* Does cluster (cx, cy) hold a cell whose disc or diagonal-move clearance differs between t and ot in what
 * the intra-cluster edges read of it: which classes it lets through (move_ok, the node's own class check
 * and cluster_min_q's test all ask for a level's class, ap_hier_class_level; the minimum of two values lets
 * a class through iff both do)? The transitions' choice of largest clearance reads the values themselves,
 * but that shows as changed nodes (keeps_edges). */
static bool clearance_differs(const ap_map *m, const ap_clearance_table *t, const ap_clearance_table *ot,
                              int32_t cx, int32_t cy)
{
    const int32_t x0 = cx * C, y0 = cy * C, w = m->width - x0 < C ? m->width - x0 : C,
                  h = m->height - y0 < C ? m->height - y0 : C;
    for (int32_t y = y0; y < y0 + h; y++)
        for (uint32_t p = ap_map_index(m, x0, y), e = p + (uint32_t)w; p < e; p++)
            if (class_level(t->disc[p]) != class_level(ot->disc[p]) ||
                class_level(ap_clearance_diag_se(t, p)) != class_level(ap_clearance_diag_se(ot, p)) ||
                class_level(ap_clearance_diag_sw(t, p)) != class_level(ap_clearance_diag_sw(ot, p)))
                return true;
    return false;
}

/* The "hier" update (tables.h): the clusters to redo are those holding a changed cell (passability and costs
 * may differ there) or a cell whose clearance the map's clearance update changed for some class (found by
 * comparing the new and old tables over the clusters within AP_CLEARANCE_REACH of a changed cell: nowhere
 * else can they differ, clearance.h). Then build_graph: the entrances, nodes and inter-cluster edges are derived again from the
 * whole map (one scan of the cluster borders; a cluster next to a changed one may gain or lose transitions,
 * and node numbers shift), and only the clusters to redo, or whose transitions changed, run their
 * Dijkstra searches; the others' intra-cluster edges are copied with their nodes renumbered. Equal to the
 * full build, node numbering included. A change of the map's uniform/weighted state (every cost changes) or
 * of whether the map has a clearance table falls back to the full build. */
static int hier_update_kind(const ap_map *m, const ap_map *prev, const ap_map_table *old,
                            const ap_cell_pos *changed, size_t n, ap_map_table *out)
{
    const ap_hier *oh = old->data;
    const ap_clearance_table *t = ap_clearance_of(m, m->capability), *ot = oh->clear;
    if (m->weighted != prev->weighted || (t == NULL) != (ot == NULL)) {
        out->incremental = false;
        return hier_build_kind(m, out);
    }
    const uint32_t ncl = (uint32_t)(oh->cw * oh->ch);
    uint8_t *redo = calloc(ncl, 1), *near = calloc(ncl, 1);
    if (redo == NULL || near == NULL) {
        free(redo);
        free(near);
        return AP_E_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        redo[(changed[i].y / C) * oh->cw + changed[i].x / C] = 1;
        const int32_t r = AP_CLEARANCE_REACH;
        const int32_t cx0 = changed[i].x - r < 0 ? 0 : (changed[i].x - r) / C,
                      cy0 = changed[i].y - r < 0 ? 0 : (changed[i].y - r) / C;
        const int32_t cx1 = (changed[i].x + r) / C < oh->cw - 1 ? (changed[i].x + r) / C : oh->cw - 1,
                      cy1 = (changed[i].y + r) / C < oh->ch - 1 ? (changed[i].y + r) / C : oh->ch - 1;
        for (int32_t cy = cy0; t != NULL && cy <= cy1; cy++)
            for (int32_t cx = cx0; cx <= cx1; cx++)
                near[cy * oh->cw + cx] = 1;
    }
    for (uint32_t cl = 0; cl < ncl; cl++)
        if (near[cl] && !redo[cl])
            redo[cl] = clearance_differs(m, t, ot, (int32_t)cl % oh->cw, (int32_t)cl / oh->cw);
    free(near);
    int st = graph_slot(m, oh, redo, out);
    free(redo);
    return st;
}

const ap_table_kind ap_hier_table_kind = {"hier", "entrances", AP_TABLE_OPTIONAL | AP_TABLE_SKIPPABLE, hier_build_kind, ap_hier_free,
                                          hier_update_kind, NULL, NULL, NULL};

const ap_hier *ap_hier_of(const ap_map *m)
{
    const ap_map_table *t = ap_map_find_table(m, "hier");
    return t != NULL ? t->data : NULL;
}
