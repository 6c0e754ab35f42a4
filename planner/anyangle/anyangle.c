/* anyangle.c — A* over the lazily generated tangent visibility graph (anyangle.h).
 *
 * Source: Red Blob Games, "Circular Obstacle Pathfinding", sections "Generating the graph lazily", "Cull
 * cusped hugging edges", "Crossing edge culling"; the A* core is search.h's (domain callbacks only).
 */
#include "anyangle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/status.h"
#include "../search/search.h"
#include "tangent.h"
#include "landmarks.h"
#include "visibility.h"
#include "../base/mem.h"

/* An arrival node: where it touches its circle, the heading there, where its incoming surfing edge
 * started, the circle and the sense of travel around it, and whether that edge's line of sight is still
 * to be tested (lazy line of sight: tested when the node is expanded). The start (node 0) has no incoming
 * edge. An arrival on circle n + 1 is a goal arrival: at the goal over one line, its one successor the goal
 * (node 1) at cost 0. */
typedef struct aa_node {
    double px, py, h;
    double ox, oy;
    double key; /* on a disc corner graph's sorted table: h's key on the circle's quarter, else NAN */
    uint32_t c;
    int16_t s;
    uint16_t check;
} aa_node;

/* The domain's context: search.h passes it as const, the query behind it is this thread's to mutate. */
typedef struct aa_self {
    ap_aa_query *q;
} aa_self;

struct ap_aa_query {
    const ap_aa_graph *g;
    uint32_t n;          /* hug circles; the start is circle n, the goal n + 1 */
    uint32_t n_room;     /* circles the per-circle arrays and the workspace's successor buffer are sized for */
    double sx, sy, gx, gy;
    aa_node *nodes;      /* cap entries */
    uint32_t n_nodes, cap;
    uint32_t ws_cap;     /* the workspace's ids: cap, or more for the point domain (pt_nodes of its run) */
    uint64_t *hkey;      /* open addressing, hcap = 2 cap slots; a slot is used iff hstamp == stamp */
    uint32_t *hval, *hstamp;
    uint32_t hcap;
    uint32_t stamp;      /* bumped per search run: empties the hash in O(1) */
    /* The departure cache: slot (circle, sense)'s list is deps[dep_off .. + dep_cnt) when dep_stamp ==
     * dep_epoch, per (circle, sense) = 2 (n + 2) entries. dep_epoch is bumped per query (ap_aa_begin), not per
     * run: a run begun again for a larger node table has the same graph, start and goal, so it keeps the
     * lists (on a lazy graph they are most of a search's time). */
    uint32_t dep_epoch;
    uint32_t *dep_stamp, *dep_off, *dep_cnt;
    ap_aa_dep *deps;
    size_t n_deps, deps_cap;
    uint64_t deps_made;  /* departure lists computed in this query (ap_aa_result.departure_lists) */
    bool overflow, nomem;
    bool late; /* a circle's departures gave up at the deadline: the search ends as timeout */
    uint64_t culled;     /* crossing-edge culls in this run */
    uint64_t pruned;     /* arrivals not expanded as dominated (dominated()) in this run */
    ap_workspace ws;
    bool ws_ready;
    ap_domain dom;       /* the search's domain (the search keeps a pointer to it) */
    ap_search s;         /* the run in progress (ap_aa_begin / ap_aa_run) */
    bool running;
    bool point;          /* the point domain (below) runs this search */
    uint64_t deadline_ns;
    uint64_t slice_end_ns; /* the current slice's time bound (ap_aa_set_slice_end), 0 = none */
    const atomic_int *cancel;
    uint64_t expanded_before; /* expansions of runs restarted for a larger node table */
    ap_segment *segs;
    size_t segs_cap;
    /* The point domain with the graph's visibility index (visibility.h): the corners the start may see
     * (vis_start[0 .. n_vis_start), increasing) and those the goal may see (goal_seen[k] == stamp), from one
     * scan each per run; every other corner's line from the start or to the goal is certainly blocked. */
    bool use_vis;
    uint32_t *vis_start, *goal_seen;
    uint32_t *h_stamp;   /* with use_vis: the point domain's heuristic of corner k, h_val[k], when == stamp */
    double *h_val;
    /* With use_vis and the graph's landmarks (landmarks.h): per landmark the bounds lb, ub of this run's
     * goal, mark_ok false when no corner the goal's scan returned is in the landmark's component. */
    double mark_lb[AP_AA_LANDMARKS], mark_ub[AP_AA_LANDMARKS];
    bool mark_ok[AP_AA_LANDMARKS];
    size_t n_vis_start, vis_room;
    size_t n_vis_goal;   /* the goal's scan: vis_start[n .. n + n_vis_goal) */
    /* The point domain's id layout of this run (see below): the start's successors from pt_start0 (pt_ref
     * holds 2 k + (s > 0) for each), the goal arrivals from pt_goal0 (with use_vis, corner k's two at
     * pt_goal_id[k], k a corner the goal's scan returned; else pt_goal0 + 2 k). */
    uint32_t pt_start0, pt_goal0;
    uint32_t *pt_ref, *pt_goal_id;
    size_t pt_ref_cap;
    /* Dominance (a disc's corner graph with hug_clear): per (circle, sense) slot the arrivals expanded in this
     * run on a clear quarter, as a list dom[dom_head[slot]], next ... (dom_stamp[slot] == stamp), each its
     * heading and g. */
    bool use_dom;
    uint32_t *dom_head, *dom_stamp;
    size_t dom_room;
    struct aa_dom *doms;
    size_t n_dom, dom_cap;
    double *vis_scratch;
    size_t vis_scratch_len;
    aa_self self;
};

/* The distance between two points (sqrt, not hypot: map coordinates cannot overflow, and the search asks
 * it for most nodes it generates). */
static inline double dist(double ax, double ay, double bx, double by)
{
    const double dx = bx - ax, dy = by - ay;
    return sqrt(dx * dx + dy * dy);
}

static double circle_x(const ap_aa_query *q, uint32_t k)
{
    return k < q->n ? q->g->x[k] : (k == q->n ? q->sx : q->gx);
}

static double circle_y(const ap_aa_query *q, uint32_t k)
{
    return k < q->n ? q->g->y[k] : (k == q->n ? q->sy : q->gy);
}

static double circle_r(const ap_aa_query *q, uint32_t k)
{
    return k < q->n ? q->g->R[k] : 0.0;
}

/* ---- node ids ----------------------------------------------------------------------------------------- */

/* The arrival at circle `to` with sense s_to over the surfing edge that left circle `from` with sense s. */
static uint64_t node_key(uint32_t to, uint32_t from, int s_to, int s)
{
    return (uint64_t)to << 32 | (uint64_t)from << 2 | (uint64_t)(s_to > 0) << 1 | (uint64_t)(s > 0);
}

static uint32_t hash_slot(uint64_t key, uint32_t mask)
{
    key ^= key >> 29;
    key *= 0xbf58476d1ce4e5b9ull;
    key ^= key >> 32;
    return (uint32_t)key & mask;
}

/* The id of the arrival with key (new: filled from its departure d, its quarter key qkey or NAN, its line
 * still to be tested when check);
 * UINT32_MAX when the capacity is spent (the run is then void: q->overflow). */
static uint32_t node_id(ap_aa_query *q, uint64_t key, const ap_aa_dep *d, double qkey, bool check)
{
    const uint32_t mask = q->hcap - 1;
    uint32_t i = hash_slot(key, mask);
    while (q->hstamp[i] == q->stamp) {
        if (q->hkey[i] == key)
            return q->hval[i];
        i = (i + 1) & mask;
    }
    if (q->n_nodes >= q->cap) {
        /* The run is void: end its slice at the search's next time check (every expansion on a lazy graph,
         * every 256th on a table) rather than pop the rest of the open list for nothing, each pop counted in
         * stats.expanded; ap_aa_run then begins again with a larger table. */
        q->overflow = true;
        q->s.slice_end_ns = 1;
        return UINT32_MAX;
    }
    uint32_t id = q->n_nodes++;
    q->hstamp[i] = q->stamp;
    q->hkey[i] = key;
    q->hval[i] = id;
    q->nodes[id] = (aa_node){d->t.x1, d->t.y1, d->t.h, d->t.x0, d->t.y0, qkey, d->to, (int16_t)d->s_to, check};
    return id;
}

/* ---- departures ----------------------------------------------------------------------------------------- */

static bool push_dep(void *ctx, const ap_aa_dep *d)
{
    ap_aa_query *q = ctx;
    if (q->n_deps == q->deps_cap) {
        size_t cap = q->deps_cap > 0 ? 2 * q->deps_cap : 1024;
        ap_aa_dep *p = realloc(q->deps, cap * sizeof *p);
        if (p == NULL) {
            q->nomem = true;
            return false;
        }
        q->deps = p;
        q->deps_cap = cap;
    }
    q->deps[q->n_deps++] = *d;
    return true;
}

/* The surfing edges leaving circle c with sense s, in two parts: part 0 the usable ones toward the hug
 * circles from the graph's eager table when it has one; part 1, computed on first use in this run: without
 * an eager table the usable ones toward the hug circles (Red Blob's lazy neighbours()) and the line to the
 * goal when usable; with one, the start's candidates and the line to the goal, lines of sight untested
 * (ap_aa_graph_candidates; tested when their arrival is expanded). Per run: the start and goal are the
 * query's. Never toward the start; toward the goal one line (a radius-0 circle's senses give the same
 * line). On a radius-0 circle without corner rules the lines do not depend on s, so both senses share one
 * computed list. */
static bool departures(ap_aa_query *q, uint32_t c, int s, const ap_aa_dep *d[2], uint32_t nd[2])
{
    const ap_aa_graph *g = q->g;
    const uint32_t slot = 2 * c + (s > 0);
    const bool eager = c < q->n && g->dep_start != NULL;
    if (q->dep_stamp[slot] != q->dep_epoch) {
        const double cx = circle_x(q, c), cy = circle_y(q, c), cr = circle_r(q, c);
        const uint32_t off = (uint32_t)q->n_deps;
        /* Untested lines only where the graph has its eager table (the start's and the goal's lines): a lazy
         * graph's departures stay tested as they are generated (with lines of sight untested, the dead ends
         * of a world of thousands of circles outgrew the node table). */
        /* Without the eager table a circle's departures are O(circles), seconds on the largest worlds: they
         * give up at the search's deadline, and the search ends as timeout (q->late). */
        const uint64_t until = q->s.deadline_ns;
        bool ok = true;
        if (!eager && c == q->n && q->use_vis) {
            /* The start's lines only toward the corners its scan returned (graph.h: the others' are blocked). */
            ok = ap_aa_graph_candidates_among(g, cx, cy, cr, s, q->vis_start, q->n_vis_start, until, push_dep, q);
        } else if (!eager) {
            ok = (g->dep_start != NULL ? ap_aa_graph_candidates : ap_aa_graph_departures)(
                g, c < q->n ? c : UINT32_MAX, cx, cy, cr, s, until, push_dep, q);
        }
        if (!ok) {
            q->late = !q->nomem;
            return false;
        }
        ap_aa_dep goal = {.to = q->n + 1, .s_to = 1};
        if ((!q->use_vis || c >= q->n || q->goal_seen[c] == q->stamp) &&
            ap_bitangent_of(cx, cy, cr, s, q->gx, q->gy, 0.0, 1, &goal.t) &&
            ap_aa_corner_ok(g, c, &goal.t, goal.t.x0, goal.t.y0, s) &&
            (g->dep_start != NULL || g->space.line_ok(g->space.ctx, goal.t.x0, goal.t.y0, goal.t.x1, goal.t.y1)) &&
            !push_dep(q, &goal))
            return false;
        const uint32_t cnt = (uint32_t)(q->n_deps - off);
        q->deps_made++;
        q->dep_stamp[slot] = q->dep_epoch;
        q->dep_off[slot] = off;
        q->dep_cnt[slot] = cnt;
        if (cr == 0.0 && (c >= q->n || g->quad == NULL)) {
            const uint32_t other = 2 * c + (s <= 0);
            q->dep_stamp[other] = q->dep_epoch;
            q->dep_off[other] = off;
            q->dep_cnt[other] = cnt;
        }
    }
    d[0] = eager ? g->deps + g->dep_start[slot] : NULL;
    nd[0] = eager ? g->dep_start[slot + 1] - g->dep_start[slot] : 0;
    d[1] = q->deps != NULL ? q->deps + q->dep_off[slot] : NULL; /* none computed yet: no array (NULL + 0 is UB) */
    nd[1] = q->dep_cnt[slot];
    return true;
}

/* ---- the A* domain -------------------------------------------------------------------------------------- */

/* The hug from arrival a to departure heading h_out on a's circle (radius R): its sweep, or -1 when the edge
 * is not usable without a test (a radius-0 turn of more than pi in a's sense is a turn the other way; on a
 * disc's corner graph, graph.h hug_clear, a hug of more than a quarter: both its ends lie on the corner's
 * free quarter, so it goes round the far side, through the direction of the blocked cell, whose square the
 * disc's centre then enters or comes within r_u - sqrt 2 of). *test: the arc still needs its line-of-sight
 * test (hug_arc_ok), which a hug within a clear free quarter does not. */
static double hug_sweep(const ap_aa_query *q, const aa_node *a, double R, double h_out, bool *test)
{
    const double sw = ap_hug_sweep(a->h, h_out, a->s);
    *test = false;
    if (R == 0.0)
        return sw <= M_PI + 1e-12 ? sw : -1.0;
    if (sw == 0.0)
        return sw;
    const uint8_t *clear = q->g->hug_clear;
    if (clear != NULL && a->c < q->n) {
        if (sw > M_PI / 2 + AP_AA_HUG_SLACK)
            return -1.0;
        if (clear[a->c])
            return sw;
    }
    *test = true;
    return sw;
}

/* The arc of the hug hug_sweep asked a test for passes the graph's test. */
static bool hug_arc_ok(const ap_aa_query *q, const aa_node *a, double R, double sw)
{
    ap_segment arc = ap_segment_arc(a->px, a->py, a->h, R, (double)a->s * sw);
    return q->g->space.arc_ok(q->g->space.ctx, &arc);
}

/* Dominance on a disc's corner graph (hug_clear, dep_sorted). An arrival on circle c with sense s lies at
 * key k on the circle's free quarter (ap_aa_quarter_key) and was reached at cost g; hugging on costs R per
 * radian of key, so g - R k is its cost normalised to the quarter's start. An arrival expanded before,
 * (k', g'), with k' <= k and g' - R k' <= g - R k may hug on to k and be there at no more cost: every
 * continuation of the later one is one of its own at no more cost (a crossing-culled one is in no shortest
 * path), so the later one is covered (neither pushed when generated nor expanded). With k' > k instead it
 * covers every departure from k' on (cutoff). The hug between two keys stays on the clear quarter. */
typedef struct aa_dom {
    double key, gn; /* key on the quarter; g - R key */
    uint32_t next;
    uint32_t node;  /* the arrival's node id */
} aa_dom;

/* Is the arrival (key, gn) on (c, s) covered by a recorded arrival other than node `self`? */
static inline bool dom_covers(const ap_aa_query *q, uint32_t c, int s, double key, double gn, uint32_t self)
{
    const uint32_t slot = 2 * c + (s > 0);
    if (q->dom_stamp[slot] != q->stamp)
        return false;
    for (uint32_t e = q->dom_head[slot]; e != UINT32_MAX; e = q->doms[e].next)
        if (q->doms[e].key <= key && q->doms[e].gn <= gn && q->doms[e].node != self)
            return true;
    return false;
}

/* The least key above `key` of an arrival expanded on (c, s) at normalised cost at most gn (INFINITY: none):
 * the departures from there on are that arrival's at no more cost. */
static double dom_cutoff(const ap_aa_query *q, uint32_t c, int s, double key, double gn, uint32_t self)
{
    const uint32_t slot = 2 * c + (s > 0);
    double cut = INFINITY;
    if (q->dom_stamp[slot] != q->stamp)
        return cut;
    for (uint32_t e = q->dom_head[slot]; e != UINT32_MAX; e = q->doms[e].next)
        if (q->doms[e].key > key && q->doms[e].key < cut && q->doms[e].gn < gn && q->doms[e].node != self)
            cut = q->doms[e].key;
    return cut;
}

/* Record an expanded arrival for dom_covers and dom_cutoff; out of memory: not recorded (nothing is then
 * pruned by it). */
static inline void dom_record(ap_aa_query *q, uint32_t c, int s, double key, double gn, uint32_t node)
{
    const uint32_t slot = 2 * c + (s > 0);
    if (q->dom_stamp[slot] != q->stamp) {
        q->dom_stamp[slot] = q->stamp;
        q->dom_head[slot] = UINT32_MAX;
    }
    void *p = q->doms;
    if (!ap_grow(&p, &q->dom_cap, q->n_dom + 1, sizeof *q->doms, 256))
        return;
    q->doms = p;
    q->doms[q->n_dom] = (aa_dom){key, gn, q->dom_head[slot], node};
    q->dom_head[slot] = (uint32_t)q->n_dom++;
}

/* The first of the n departures of an arrival's circle and sense (dep_sorted; their keys kd[0], kd[2], ...)
 * whose key is not more than the slack below the arrival's `key`: every one before it lies behind a, and reaching it would hug round the far side of
 * the corner (hug_sweep refuses such hugs). */
static uint32_t first_departure(double key, const double *kd, uint32_t n)
{
    key -= AP_AA_HUG_SLACK;
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (kd[2 * mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int aa_successors(const void *ctx, uint32_t u, ap_succ *out)
{
    ap_aa_query *q = ((const aa_self *)ctx)->q;
    if (u == 1 || q->overflow || q->nomem || q->late)
        return 0;
    const aa_node *const a = &q->nodes[u]; /* not moved: new ids are other nodes */
    /* Lazy line of sight: an arrival reached over an untested line is tested when expanded. Its id names
     * that one line (circle, origin circle, senses), so each line is tested at most once per run, and an
     * arrival whose line is blocked is a dead end (it does not exist in the graph). */
    if (a->check && !q->g->space.line_ok(q->g->space.ctx, a->ox, a->oy, a->px, a->py))
        return 0;
    const bool dom = q->use_dom && a->c < q->n && q->g->hug_clear[a->c];
    const double g_u = q->use_dom ? ap_search_g(&q->s, u) : 0.0;
    double key = 0.0, cutoff = INFINITY;
    if (dom) {
        key = isnan(a->key) ? ap_aa_quarter_key(q->g, a->c, a->s, a->h) : a->key;
        const double gn = g_u - q->g->R[a->c] * key;
        if (dom_covers(q, a->c, a->s, key, gn, u)) {
            q->pruned++;
            return 0;
        }
        cutoff = dom_cutoff(q, a->c, a->s, key, gn, u);
        if (a->check)
            dom_record(q, a->c, a->s, key, gn, u); /* its line tested just now; table arrivals were recorded */
    }
    if (a->c == q->n + 1) {
        out[0] = (ap_succ){1, 0.0};
        return 1;
    }
    const double R = circle_r(q, a->c);
    const ap_aa_dep *dd[2];
    uint32_t ndd[2];
    if (!departures(q, a->c, a->s, dd, ndd))
        return 0;
    int k = 0;
    for (int part = 0; part < 2; part++) {
        const ap_aa_dep *d = dd[part];
        /* On a disc's corner graph the table's departures carry their keys (graph.h dep_key). */
        const double *kd = part == 0 && q->use_dom && d != NULL ? q->g->dep_key + 2 * (size_t)(d - q->g->deps) : NULL;
        const bool sorted = kd != NULL && dom;
        const uint32_t first = sorted ? first_departure(key, kd, ndd[0]) : 0;
        for (uint32_t i = first; i < ndd[part]; i++) {
            if (sorted && kd[2 * i] >= cutoff)
                break; /* this and the rest: the covering arrival's */
            const double to_key = kd != NULL ? kd[2 * i + 1] : NAN;
            double hug = 0.0;
            if (sorted) {
                /* Both ends on the clear quarter: the sweep is the keys' difference (no test, no crossing:
                 * two lines that touch one corner's quarter on the same side do not cross properly);
                 * slightly behind (rounding) is no hug, further behind the far side (hug_sweep). */
                double sw = kd[2 * i] - key;
                if (sw < 0.0) {
                    if (sw < -1e-9)
                        continue;
                    sw = 0.0;
                }
                hug = R * sw;
            } else if (u != 0) {
                /* The sweep first (angle arithmetic), then crossing culling, then an arc's test. */
                bool test;
                const double sw = hug_sweep(q, a, R, d[i].t.h, &test);
                if (sw < 0.0)
                    continue;
                if (ap_segments_cross(a->ox, a->oy, a->px, a->py, d[i].t.x0, d[i].t.y0, d[i].t.x1, d[i].t.y1)) {
                    q->culled++;
                    continue;
                }
                if (test && !hug_arc_ok(q, a, R, sw))
                    continue;
                hug = R * sw;
            }
            /* A table arrival's line is usable: it is recorded as generated (with the cost it is generated at,
             * which its final cost can only lower), and covers later arrivals as an expanded one would. */
            const bool rec = !isnan(to_key) && q->g->hug_clear[d[i].to];
            const double gn_v = rec ? (g_u + (hug + d[i].t.len)) - q->g->R[d[i].to] * to_key : 0.0;
            if (rec && dom_covers(q, d[i].to, d[i].s_to, to_key, gn_v, UINT32_MAX)) {
                q->pruned++;
                continue;
            }
            uint32_t v = node_id(q, node_key(d[i].to, a->c, d[i].s_to, a->s), &d[i], to_key,
                                 part == 1 && q->g->dep_start != NULL);
            if (v == UINT32_MAX)
                return k;
            if (rec)
                dom_record(q, d[i].to, d[i].s_to, to_key, gn_v, v);
            out[k++] = (ap_succ){v, hug + d[i].t.len};
        }
    }
    return k;
}

/* The landmarks' bound (landmarks.h) on the rest of a path from any arrival on circle c < n to this run's
 * goal, raised to at least base, computed on a miss of the per-run cache (q->use_vis; callers read h_val
 * when h_stamp[c] is this run's, so base must be the same for every call on c) and stored there. Circles
 * outside a landmark's component skip it. */
static double mark_bound(ap_aa_query *q, uint32_t c, double base)
{
    double h = base;
    const uint32_t k = q->g->n_marks;
    if (k == 0) { /* no landmarks (their build failed for want of memory): mark_d is NULL */
        q->h_stamp[c] = q->stamp;
        return q->h_val[c] = h;
    }
    const double *d = q->g->mark_d + (size_t)c * k;
    /* Without branches: a landmark without bounds this run has lb = -inf, ub = +inf (vis_ends), so its terms
     * are -inf, or NaN for a circle outside its component, which the comparisons skip. Only a circle outside
     * the component of a landmark with bounds gives +inf: then the terms one by one. */
    double h2 = h; /* two chains: the comparisons of one landmark wait less on the last */
    for (uint32_t i = 0; i < k; i++) {
        const double a = q->mark_lb[i] - d[i], b = d[i] - q->mark_ub[i];
        h = a > h ? a : h;
        h2 = b > h2 ? b : h2;
    }
    h = h2 > h ? h2 : h;
    if (h == INFINITY) {
        h = base;
        for (uint32_t i = 0; i < k; i++) {
            if (!q->mark_ok[i] || !(d[i] < INFINITY))
                continue;
            const double a = q->mark_lb[i] - d[i], b = d[i] - q->mark_ub[i];
            h = h > a ? h : a;
            h = h > b ? h : b;
        }
    }
    q->h_stamp[c] = q->stamp;
    return q->h_val[c] = h;
}

/* The Euclidean distance from the arrival's point to the goal, raised by the landmarks' bound for its
 * circle where the graph has them (both consistent: a node's edges cost at least the straight distance they
 * cover and at least the table line they end with; their maximum is consistent). */
static double aa_heuristic(const void *ctx, uint32_t u, uint32_t goal)
{
    ap_aa_query *q = ((const aa_self *)ctx)->q;
    const aa_node *a = &q->nodes[u];
    const double dx = a->px - q->gx, dy = a->py - q->gy, h = sqrt(dx * dx + dy * dy);
    if (!q->use_vis || a->c >= q->n || q->g->n_marks == 0)
        return h;
    const double b = q->h_stamp[a->c] == q->stamp ? q->h_val[a->c] : mark_bound(q, a->c, 0.0);
    return b > h ? b : h;
}

/* ---- the point domain ---------------------------------------------------------------------------------- *
 * A point unit on a grid with the eager table (every hug circle a radius-0 corner): an arrival on a corner
 * is a point whose heading is that of the line from where it came, so one node per (corner, sense) stands
 * for every arrival there, the search's best parent giving the heading, the incoming line of the crossing
 * culling and the path (the visibility graph searched over its vertices with taut pruning, as ENLSVG and
 * Theta*-family planners do). That keeps the answer's length: an optimal path is taut at each corner with
 * respect to its own predecessor, and a tie between two best parents of one node that would prune the
 * optimal continuation cannot happen (the continuation would then be non-taut after the other parent,
 * so a strictly shorter path would exist). Node ids, for n corners, without a hash:
 *   0 start, 1 goal; 2 + 2k + (s > 0): corner k with sense s reached from a corner (tested lines);
 *   2 + 2n: the goal arrival from the start; from pt_start0 = 3 + 2n: the start's successors in the order
 *   generated, pt_ref telling their corner and sense (line tested on expansion); from pt_goal0 = pt_start0
 *   + 2 m: the goal arrivals from the corners the goal's scan returned, two each (line tested on expansion;
 *   the one successor is the goal at cost 0). m and the goal's count are the scans' (n each without them),
 *   so a run needs 3 + 2n + 2m + 2 (goal's) ids, not 3 + 6n: random512-40-0's query object 7 MB, not 22. */

/* The ids a point run needs (the layout above), for m start successors' corners and ng goal corners. */
static uint32_t pt_nodes(uint32_t n, size_t m, size_t ng)
{
    return 3 + 2 * n + 2 * (uint32_t)m + 2 * (uint32_t)ng;
}

/* The corner of a corner node or of the start's successor, or n for the start, n + 1 for the goal and goal
 * arrivals. */
static inline uint32_t pt_circle(const ap_aa_query *q, uint32_t u)
{
    if (u < 2)
        return q->n + u;
    if (u < 2 + 2 * q->n)
        return (u - 2) >> 1;
    if (u >= q->pt_start0 && u < q->pt_goal0)
        return q->pt_ref[u - q->pt_start0] >> 1;
    return q->n + 1;
}

/* The goal arrival from corner c leaving with sense s. */
static uint32_t pt_goal_node(const ap_aa_query *q, uint32_t c, int s)
{
    return (q->use_vis ? q->pt_goal_id[c] : q->pt_goal0 + 2 * c) + (s > 0);
}

static double pt_heuristic(const void *ctx, uint32_t u, uint32_t goal)
{
    ap_aa_query *q = ((const aa_self *)ctx)->q;
    const uint32_t c = pt_circle(q, u);
    /* Per corner once per run (a corner's two senses and its arrivals from the start share it): the
     * Euclidean distance, raised by the landmarks' bounds (landmarks.h: consistent; corners outside a
     * landmark's component skip it). */
    if (q->use_vis && c < q->n)
        return q->h_stamp[c] == q->stamp ? q->h_val[c]
                                           : mark_bound(q, c, dist(circle_x(q, c), circle_y(q, c), q->gx, q->gy));
    return dist(circle_x(q, c), circle_y(q, c), q->gx, q->gy);
}

/* The start's successors in the point domain: every corner the line from the start may reach by the corner
 * rules (ap_aa_corner_ok's arithmetic for a radius-0 corner, inlined; no heading, which the point domain
 * takes from the parent), each line tested when its node is expanded; then the goal arrival. The same
 * successors, costs and order as the start's candidate list (ap_aa_graph_candidates), without building it;
 * with the visibility index only the corners its scan from the start returned (the others' lines are
 * blocked: their arrivals would be dead ends). */
static int pt_start(ap_aa_query *q, ap_succ *out)
{
    const ap_aa_graph *g = q->g;
    const uint32_t n = q->n;
    const uint32_t m = q->use_vis ? (uint32_t)q->n_vis_start : n;
    int k = 0;
    for (uint32_t i = 0; i < m; i++) {
        const uint32_t j = q->use_vis ? q->vis_start[i] : i;
        const double dx = g->x[j] - q->sx, dy = g->y[j] - q->sy;
        if (dx == 0.0 && dy == 0.0)
            continue;
        const uint8_t b = g->quad[j];
        const double qx = (b & 1) ? 1.0 : -1.0, qy = (b & 2) ? 1.0 : -1.0, tiny = 1e-12 * (dx * dx + dy * dy);
        if (dx * dy * qx * qy > tiny)
            continue;
        const double turn = dx * qy - dy * qx;
        const bool left = turn >= -tiny, right = turn * -1.0 >= -tiny;
        if (!left && !right)
            continue;
        const double len = sqrt(dx * dx + dy * dy);
        if (left) {
            q->pt_ref[k] = 2 * j + 1;
            out[k] = (ap_succ){q->pt_start0 + (uint32_t)k, len};
            k++;
        }
        if (right) {
            q->pt_ref[k] = 2 * j;
            out[k] = (ap_succ){q->pt_start0 + (uint32_t)k, len};
            k++;
        }
    }
    ap_bitangent t;
    if (ap_bitangent_of(q->sx, q->sy, 0.0, 1, q->gx, q->gy, 0.0, 1, &t))
        out[k++] = (ap_succ){2 + 2 * n, t.len};
    return k;
}

static int pt_successors(const void *ctx, uint32_t u, ap_succ *out)
{
    ap_aa_query *q = ((const aa_self *)ctx)->q;
    const uint32_t n = q->n;
    if (u == 1 || q->nomem || q->late)
        return 0;
    if (u == 0)
        return pt_start(q, out);
    const uint32_t c = pt_circle(q, u);
    const double px = circle_x(q, c), py = circle_y(q, c);
    /* Where the arrival came from: the start for the start's nodes and the goal arrival from it, else the
     * best parent's point. */
    const bool from_start = u >= q->pt_start0 && u < q->pt_goal0;
    const uint32_t parent = from_start ? 0 : q->ws.nodes[u].parent;
    const uint32_t pc = pt_circle(q, parent);
    const double ox = circle_x(q, pc), oy = circle_y(q, pc);
    if (u >= 2 + 2 * n && !q->g->space.line_ok(q->g->space.ctx, ox, oy, px, py))
        return 0;
    if (u >= q->pt_goal0 || u == 2 + 2 * n) {
        out[0] = (ap_succ){1, 0.0};
        return 1;
    }
    const int s = ((from_start ? q->pt_ref[u - q->pt_start0] : u - 2) & 1) ? 1 : -1;
    const ap_aa_dep *dd[2];
    uint32_t ndd[2];
    if (!departures(q, c, s, dd, ndd))
        return 0;
    /* The turn at the corner, at most pi in the sense s (ap_hug_sweep from the incoming heading): decided by
     * the sign of the cross product of the two directions where their angle is more than ~1e-6 from 0 and
     * pi (there the sweep is far from the test's thresholds, pi + 1e-12 and 2 pi - 1e-9, so the verdict is
     * the same), else by the headings (atan2 once per expansion, only when needed). Then crossing culling. */
    const double ix = px - ox, iy = py - oy, in2 = ix * ix + iy * iy;
    double h = 0.0;
    bool have_h = false;
    int k = 0;
    for (int part = 0; part < 2; part++) {
        const ap_aa_dep *d = dd[part];
        for (uint32_t i = 0; i < ndd[part]; i++) {
            const double ux = d[i].t.x1 - d[i].t.x0, uy = d[i].t.y1 - d[i].t.y0;
            const double cr = (ix * uy - iy * ux) * (double)s;
            if (cr * cr <= 1e-12 * in2 * (ux * ux + uy * uy)) {
                if (!have_h) {
                    h = atan2(iy, ix);
                    have_h = true;
                }
                if (ap_hug_sweep(h, d[i].t.h, s) > M_PI + 1e-12)
                    continue;
            } else if (cr < 0.0) {
                continue;
            }
            if (ap_segments_cross(ox, oy, px, py, d[i].t.x0, d[i].t.y0, d[i].t.x1, d[i].t.y1)) {
                q->culled++;
                continue;
            }
            const uint32_t v = d[i].to == n + 1 ? pt_goal_node(q, c, s) : 2 + 2 * d[i].to + (d[i].s_to > 0);
            out[k++] = (ap_succ){v, d[i].t.len};
        }
    }
    return k;
}

/* The path of node ids[0 .. m) in the point domain: a line between each two points that differ. */
static int pt_path(ap_aa_query *q, const uint32_t *ids, size_t m, ap_aa_result *out);

/* ---- query objects -------------------------------------------------------------------------------------- */

void ap_aa_query_free(ap_aa_query *q)
{
    if (q == NULL)
        return;
    AP_FREE_ALL(q->nodes, q->hkey, q->hval, q->hstamp, q->dep_stamp, q->dep_off, q->dep_cnt, q->deps, q->segs,
                q->vis_start, q->goal_seen, q->vis_scratch, q->h_stamp, q->h_val, q->dom_head, q->dom_stamp, q->doms,
                q->pt_ref, q->pt_goal_id);
    if (q->ws_ready)
        ap_workspace_free(&q->ws);
    free(q);
}

size_t ap_aa_query_bytes(const ap_aa_query *q)
{
    const size_t slots = q->dep_stamp != NULL ? 2 * ((size_t)q->n_room + 2) : 0;
    return sizeof *q + (size_t)q->cap * (sizeof *q->nodes) + (size_t)q->hcap * 16 +
           (q->ws_ready ? ap_workspace_bytes(&q->ws) : 0) + slots * 12 +
           q->deps_cap * sizeof *q->deps + q->segs_cap * sizeof *q->segs + q->vis_room * 28 + q->vis_scratch_len * 8 + q->pt_ref_cap * 4 +
           q->dom_room * 8 + q->dom_cap * sizeof(struct aa_dom);
}

/* Every per-run mark other than the hash's back to zero and the run stamp to 1, so that no mark is current:
 * the goal's sightings', the heuristic memo's and the domain's. (Not the departures': their cache is per
 * query, dep_epoch, and a run begun again for a larger node table keeps it.) */
static void stamps_reset(ap_aa_query *q)
{
    q->stamp = 1;
    if (q->goal_seen != NULL)
        memset(q->goal_seen, 0, q->vis_room * sizeof *q->goal_seen);
    if (q->h_stamp != NULL)
        memset(q->h_stamp, 0, q->vis_room * sizeof *q->h_stamp);
    if (q->dom_stamp != NULL)
        memset(q->dom_stamp, 0, q->dom_room * sizeof *q->dom_stamp);
}

/* Size the node table and the hash for cap ids, the workspace for max(cap, ws_cap) (the point domain uses
 * the workspace alone; the old contents are dropped). */
static int set_capacity(ap_aa_query *q, uint32_t cap, uint32_t ws_cap)
{
    AP_FREE_ALL(q->nodes, q->hkey, q->hval, q->hstamp);
    if (q->ws_ready)
        ap_workspace_free(&q->ws);
    q->ws_ready = false;
    q->cap = cap;
    q->hcap = 2 * cap;
    q->nodes = malloc((size_t)cap * sizeof *q->nodes);
    q->hkey = malloc((size_t)q->hcap * sizeof *q->hkey);
    q->hval = malloc((size_t)q->hcap * sizeof *q->hval);
    q->hstamp = calloc(q->hcap, sizeof *q->hstamp);
    if (q->nodes == NULL || q->hkey == NULL || q->hval == NULL || q->hstamp == NULL)
        return AP_E_NOMEM;
    /* The hash stamps restart at zero: so must the run stamp (the departure stamps are only compared with
     * it, and a fresh run bumps it past every value they hold). */
    stamps_reset(q);
    q->ws_cap = ws_cap > cap ? ws_cap : cap;
    if (ap_workspace_init(&q->ws, q->ws_cap, (int)(2 * q->n_room + 4)) != AP_OK)
        return AP_E_NOMEM;
    q->ws_ready = true;
    return AP_OK;
}

int ap_aa_query_bind(ap_aa_query *q, const ap_aa_graph *g)
{
    if (g->n > (1u << 30) - 2)
        return AP_E_NOMEM;
    q->running = false;
    q->cancel = NULL;
    q->use_vis = false;
    q->g = g;
    q->n = (uint32_t)g->n;
    if (q->deps_cap > AP_AA_DEPS_KEEP) {
        free(q->deps);
        q->deps = NULL;
        q->deps_cap = 0;
    }
    /* Kept: a node table of up to AP_AA_NODES_KEEP ids, and a workspace of that or of what g's point
     * domain needs (a map of many corners would otherwise allocate and map it afresh for every query:
     * Paris_1_1024, 11,638 corners, 69,831 ids, ~4 MB). */
    const uint32_t most = g->dep_start != NULL && g->corner_points && q->n <= AP_AA_NODES_MAX / 8
                              ? pt_nodes(q->n, q->n, q->n)
                              : 0;
    const uint32_t keep_ws = most > AP_AA_NODES_KEEP ? most : AP_AA_NODES_KEEP;
    if (q->n <= q->n_room && q->dep_stamp != NULL && q->ws_ready && q->cap <= AP_AA_NODES_KEEP &&
        q->ws_cap <= keep_ws)
        return AP_OK; /* a fresh run's stamp makes every cached departure list stale */
    if (q->n > q->n_room || q->dep_stamp == NULL) {
        AP_FREE_ALL(q->dep_stamp, q->dep_off, q->dep_cnt);
        q->n_room = q->n;
        size_t slots = 2 * ((size_t)q->n_room + 2);
        q->dep_stamp = calloc(slots, sizeof *q->dep_stamp);
        q->dep_off = malloc(slots * sizeof *q->dep_off);
        q->dep_cnt = malloc(slots * sizeof *q->dep_cnt);
        if (q->dep_stamp == NULL || q->dep_off == NULL || q->dep_cnt == NULL)
            return AP_E_NOMEM;
    }
    return set_capacity(q, q->cap > 0 && q->cap <= AP_AA_NODES_KEEP ? q->cap : AP_AA_NODES_START, 0);
}

int ap_aa_query_create(const ap_aa_graph *g, ap_aa_query **out)
{
    *out = NULL;
    ap_aa_query *q = calloc(1, sizeof *q);
    if (q == NULL)
        return AP_E_NOMEM;
    q->self.q = q;
    if (ap_aa_query_bind(q, g) != AP_OK) {
        ap_aa_query_free(q);
        return AP_E_NOMEM;
    }
    *out = q;
    return AP_OK;
}

/* A fresh run: empty hash, departures and node table (O(1) through the stamp), start and goal nodes. */
static void begin_run(ap_aa_query *q)
{
    if (++q->stamp == 0) { /* the stamp wrapped: every mark could look current again */
        memset(q->hstamp, 0, (size_t)q->hcap * sizeof *q->hstamp);
        stamps_reset(q);
    }
    q->overflow = false;
    q->nomem = false;
    q->late = false;
    q->culled = 0;
    q->pruned = 0;
    q->n_dom = 0;
    q->nodes[0] = (aa_node){q->sx, q->sy, 0.0, q->sx, q->sy, NAN, q->n, 1, 0};
    q->nodes[1] = (aa_node){q->gx, q->gy, 0.0, q->gx, q->gy, NAN, q->n + 1, 1, 0};
    q->n_nodes = 2;
}

static bool push_seg(ap_aa_query *q, size_t *n, ap_segment s)
{
    if (*n == q->segs_cap) {
        size_t cap = q->segs_cap > 0 ? 2 * q->segs_cap : 16;
        ap_segment *p = realloc(q->segs, cap * sizeof *p);
        if (p == NULL)
            return false;
        q->segs = p;
        q->segs_cap = cap;
    }
    q->segs[(*n)++] = s;
    return true;
}

/* The line A -> B appended to the path, its length added to *total. Nothing for a line of rounding size
 * (within AP_AA_TINY_LINE of the ends' magnitude, zero-length ones too): a start or goal on a circle's edge
 * is its own tangent point up to an ulp, and that line's atan2 heading is noise (0 or ±π/2 beside an arc
 * leaving at another heading: a G1 break and a doubled waypoint). Its neighbours' ends then differ by that
 * much; aa_finish puts the path's first and last ends on the start and goal as sent. */
static bool push_line(ap_aa_query *q, size_t *n, double *total, double ax, double ay, double bx, double by)
{
    ap_segment line = ap_segment_line(ax, ay, bx, by);
    const double scale = fmax(1.0, fmax(fabs(ax) + fabs(ay), fabs(bx) + fabs(by)));
    if (line.length <= AP_AA_TINY_LINE * scale)
        return true;
    *total += line.length;
    return push_seg(q, n, line);
}

/* Lines and arcs of the node path ids[0 .. m): per step u -> v, the hug on u's circle from u's heading
 * to the heading of the surfing edge into v, then that edge. The goal (node 1) follows a goal arrival, which
 * holds the last line: that step adds nothing (a radius-0 circle, a zero-length line). */
static int build_path(ap_aa_query *q, const uint32_t *ids, size_t m, ap_aa_result *out)
{
    size_t ns = 0;
    double total = 0.0;
    bool arcs_clear = true; /* every hug on a clear quarter (the search's own verdict on it) */
    for (size_t i = 0; i + 1 < m; i++) {
        const aa_node *u = &q->nodes[ids[i]];
        const aa_node v = q->nodes[ids[i + 1]];
        const double R = circle_r(q, u->c);
        if (ids[i] != 0 && R > 0.0) {
            double sw;
            if (q->use_dom && u->c < q->n && q->g->hug_clear[u->c]) {
                /* As the search swept it: the keys' difference (aa_successors). */
                const double ku = isnan(u->key) ? ap_aa_quarter_key(q->g, u->c, u->s, u->h) : u->key;
                sw = fmax(0.0, ap_aa_quarter_key(q->g, u->c, u->s, v.h) - ku);
            } else {
                sw = ap_hug_sweep(u->h, v.h, u->s);
                arcs_clear = false;
            }
            if (sw > 0.0) {
                ap_segment arc = ap_segment_arc(u->px, u->py, u->h, R, (double)u->s * sw);
                total += arc.length;
                if (!push_seg(q, &ns, arc))
                    return AP_E_NOMEM;
            }
        }
        if (!push_line(q, &ns, &total, v.ox, v.oy, v.px, v.py))
            return AP_E_NOMEM;
    }
    out->segs = q->segs;
    out->n_segs = ns;
    out->length = total;
    out->arcs_verified = arcs_clear;
    return AP_OK;
}

static int pt_path(ap_aa_query *q, const uint32_t *ids, size_t m, ap_aa_result *out)
{
    size_t ns = 0;
    double total = 0.0;
    for (size_t i = 0; i + 1 < m; i++) {
        const uint32_t a = pt_circle(q, ids[i]), b = pt_circle(q, ids[i + 1]);
        if (!push_line(q, &ns, &total, circle_x(q, a), circle_y(q, a), circle_x(q, b), circle_y(q, b)))
            return AP_E_NOMEM;
    }
    out->segs = q->segs;
    out->n_segs = ns;
    out->length = total;
    return AP_OK;
}

/* The scans from the start and the goal (q->use_vis), once per query: the start's corners to vis_start, the
 * goal's to the buffer's second half (room for 2 n). */
static void vis_scan(ap_aa_query *q)
{
    const ap_aa_vis *v = q->g->vis;
    q->n_vis_start = ap_aa_vis_corners(v, q->sx, q->sy, -1, q->vis_scratch, q->vis_start);
    q->n_vis_goal = ap_aa_vis_corners(v, q->gx, q->gy, -1, q->vis_scratch, q->vis_start + q->n);
}

/* The goal's corners marked for this run (after begin_run: the marks carry its stamp), their goal arrival
 * ids (the point domain), and the landmarks' bounds. */
static void vis_ends(ap_aa_query *q)
{
    const uint32_t *tail = q->vis_start + q->n;
    const size_t ng = q->n_vis_goal;
    for (size_t i = 0; i < ng; i++)
        q->goal_seen[tail[i]] = q->stamp;
    if (q->point)
        for (size_t i = 0; i < ng; i++)
            q->pt_goal_id[tail[i]] = q->pt_goal0 + 2 * (uint32_t)i;
    /* The landmarks' bounds over the same corners (a superset of those with a line to the goal). */
    const ap_aa_graph *g = q->g;
    const uint32_t k = g->n_marks;
    for (uint32_t m = 0; m < k; m++) {
        q->mark_lb[m] = INFINITY;
        q->mark_ub[m] = -INFINITY;
        q->mark_ok[m] = false;
    }
    for (size_t i = 0; i < ng && k > 0; i++) {
        const uint32_t c = tail[i];
        /* At most the length of a line from circle c to the goal (a disc's: the tangent from the goal to
         * the circle, less a margin for rounding) and so of any path from an arrival on c. */
        const double D = dist(g->x[c], g->y[c], q->gx, q->gy), R = g->R[c];
        const double dg = R == 0.0 ? D : fmax(0.0, sqrt(fmax(0.0, (D - R) * (D + R))) - 1e-9);
        const double *d = g->mark_d + (size_t)c * k;
        for (uint32_t m = 0; m < k; m++) {
            if (!(d[m] < INFINITY))
                continue;
            q->mark_ok[m] = true;
            if (d[m] + dg < q->mark_lb[m])
                q->mark_lb[m] = d[m] + dg;
            if (d[m] - dg > q->mark_ub[m])
                q->mark_ub[m] = d[m] - dg;
        }
    }
    /* A landmark without bounds gives no term (mark_bound's branchless loop). */
    for (uint32_t m = 0; m < k; m++)
        if (!q->mark_ok[m]) {
            q->mark_lb[m] = -INFINITY;
            q->mark_ub[m] = INFINITY;
        }
}

/* Room for the scans of graph g's index (q->use_vis): false when out of memory (the search then tests every
 * line, as without the index). */
static bool vis_room(ap_aa_query *q)
{
    const ap_aa_vis *v = q->g->vis;
    if (q->n == 0)
        return false;
    const size_t need = ap_aa_vis_scratch_len(v);
    if (q->vis_scratch_len < need) {
        free(q->vis_scratch);
        q->vis_scratch_len = 0;
        if ((q->vis_scratch = malloc(need * sizeof *q->vis_scratch)) == NULL)
            return false;
        q->vis_scratch_len = need;
    }
    if (q->vis_room < q->n) {
        AP_FREE_ALL(q->vis_start, q->goal_seen, q->h_stamp, q->h_val, q->pt_goal_id);
        q->vis_room = 0;
        q->vis_start = malloc(2 * (size_t)q->n * sizeof *q->vis_start);
        q->goal_seen = calloc(q->n, sizeof *q->goal_seen);
        q->h_stamp = calloc(q->n, sizeof *q->h_stamp);
        q->h_val = malloc(q->n * sizeof *q->h_val);
        q->pt_goal_id = malloc(q->n * sizeof *q->pt_goal_id);
        if (q->vis_start == NULL || q->goal_seen == NULL || q->h_stamp == NULL || q->h_val == NULL ||
            q->pt_goal_id == NULL)
            return false;
        q->vis_room = q->n;
    }
    return true;
}

/* The run's slice bound: q's, when its expansions are costly (a graph without the eager table); else none,
 * as the slice's expansion count bounds it. */
static void apply_slice_end(ap_aa_query *q)
{
    q->s.slice_end_ns = q->dom.costly ? q->slice_end_ns : 0;
}

/* Start a fresh run of the search on q's workspace (begin_run + ap_search_begin). */
static int start_run(ap_aa_query *q)
{
    begin_run(q);
    /* Without the eager table each corner's departures are computed when the search first reaches it. */
    q->dom = (ap_domain){.ctx = &q->self, .node_count = q->cap, .max_succ = (int)(2 * q->n + 4),
                         .successors = aa_successors, .heuristic = aa_heuristic, .costly = q->g->dep_start == NULL};
    if (q->point) {
        const size_t m = q->use_vis ? q->n_vis_start : q->n, ng = q->use_vis ? q->n_vis_goal : q->n;
        q->pt_start0 = 3 + 2 * q->n;
        q->pt_goal0 = q->pt_start0 + 2 * (uint32_t)m;
        q->n_nodes = pt_nodes(q->n, m, ng);
        q->dom.node_count = q->n_nodes;
        q->dom.successors = pt_successors;
        q->dom.heuristic = pt_heuristic;
    }
    if (q->use_vis)
        vis_ends(q);
    if (ap_search_begin(&q->s, &q->ws, &q->dom, 0, 1, q->deadline_ns) != AP_OK)
        return AP_E_INTERNAL;
    q->s.cancel = q->cancel;
    apply_slice_end(q);
    return AP_IN_PROGRESS;
}

void ap_aa_set_cancel(ap_aa_query *q, const atomic_int *cancel)
{
    q->cancel = cancel;
    if (q->running)
        q->s.cancel = cancel;
}

void ap_aa_set_slice_end(ap_aa_query *q, uint64_t slice_end_ns)
{
    q->slice_end_ns = slice_end_ns;
    if (q->running)
        apply_slice_end(q);
}

int ap_aa_begin(ap_aa_query *q, double sx, double sy, double gx, double gy, uint64_t deadline_ns,
                ap_aa_result *out)
{
    memset(out, 0, sizeof *out);
    q->running = false;
    const ap_aa_space *sp = &q->g->space;
    if (!isfinite(sx) || !isfinite(sy) || !isfinite(gx) || !isfinite(gy))
        return out->status = AP_E_INVALID_REQUEST;
    if (!sp->line_ok(sp->ctx, sx, sy, sx, sy))
        return out->status = AP_E_START_BLOCKED;
    if (!sp->line_ok(sp->ctx, gx, gy, gx, gy))
        return out->status = AP_E_GOAL_BLOCKED;
    if (sx == gx && sy == gy)
        return out->status = AP_OK;
    /* A usable straight line is the shortest path there is: one line test instead of the scans and the
     * search, which cost about 20 µs whatever the distance (most short queries end here). Not for a turning
     * unit's graph (grown hugs): its ends carry headings the line would ignore. */
    if (q->g->hug_grow == 0.0 && sp->line_ok(sp->ctx, sx, sy, gx, gy)) {
        size_t ns = 0;
        double total = 0.0;
        if (!push_line(q, &ns, &total, sx, sy, gx, gy))
            return out->status = AP_E_NOMEM;
        out->segs = q->segs;
        out->n_segs = ns;
        out->length = total;
        out->verified = out->arcs_verified = true;
        return out->status = AP_OK;
    }
    q->sx = sx;
    q->sy = sy;
    q->gx = gx;
    q->gy = gy;
    q->deadline_ns = deadline_ns;
    q->expanded_before = 0;
    /* A new query: every cached departure list is stale (they hold its start's and goal's lines). */
    if (++q->dep_epoch == 0) {
        memset(q->dep_stamp, 0, 2 * ((size_t)q->n_room + 2) * sizeof *q->dep_stamp);
        q->dep_epoch = 1;
    }
    q->n_deps = 0;
    q->deps_made = 0;
    const ap_aa_graph *g = q->g;
    q->point = g->dep_start != NULL && g->corner_points && q->n <= AP_AA_NODES_MAX / 8;
    /* The scans (and landmarks) for the point domain, and for a disc's table of grid corners (graph.h: the
     * only other graphs given an index). */
    q->use_vis = g->dep_start != NULL && g->vis != NULL && vis_room(q);
    if (g->hug_clear != NULL && q->dom_room < 2 * ((size_t)q->n + 2)) {
        AP_FREE_ALL(q->dom_head, q->dom_stamp);
        q->dom_room = 2 * ((size_t)q->n + 2);
        q->dom_head = malloc(q->dom_room * sizeof *q->dom_head);
        q->dom_stamp = calloc(q->dom_room, sizeof *q->dom_stamp);
        if (q->dom_head == NULL || q->dom_stamp == NULL) {
            AP_FREE_ALL(q->dom_head, q->dom_stamp);
            q->dom_head = q->dom_stamp = NULL;
            q->dom_room = 0;
        }
    }
    q->use_dom = g->hug_clear != NULL && g->dep_sorted && q->dom_room >= 2 * ((size_t)q->n + 2);
    if (q->use_vis)
        vis_scan(q);
    if (q->point) {
        const size_t m = q->use_vis ? q->n_vis_start : q->n, ng = q->use_vis ? q->n_vis_goal : q->n;
        const uint32_t need = pt_nodes(q->n, m, ng);
        if (q->ws_cap < need && set_capacity(q, q->cap, need) != AP_OK)
            return out->status = AP_E_NOMEM;
        void *p = q->pt_ref;
        if (!ap_grow(&p, &q->pt_ref_cap, 2 * m + 1, sizeof *q->pt_ref, 256))
            return out->status = AP_E_NOMEM;
        q->pt_ref = p;
    }
    int st = start_run(q);
    q->running = st == AP_IN_PROGRESS;
    return out->status = st;
}

int ap_aa_run(ap_aa_query *q, uint64_t max_expansions, ap_aa_result *out)
{
    if (!q->running)
        return out->status;
    for (;;) {
        int st = ap_search_run(&q->s, max_expansions);
        out->expanded = q->expanded_before + q->s.expanded;
        out->departure_lists = q->deps_made;
        out->generated = q->s.generated;
        out->nodes = q->n_nodes;
        out->crossings_culled = q->culled;
        out->dominated = q->pruned;
        if (q->nomem) {
            q->running = false;
            return out->status = AP_E_NOMEM;
        }
        if (q->late) {
            q->running = false;
            return out->status = AP_TIMEOUT;
        }
        if (q->overflow) {
            /* The node table ran out: a larger one and the search again from the start (its expansions
             * so far stay counted). */
            q->expanded_before += q->s.expanded;
            if (q->cap >= AP_AA_NODES_MAX || set_capacity(q, q->cap * 4, 0) != AP_OK) {
                set_capacity(q, AP_AA_NODES_START, 0);
                q->running = false;
                return out->status = AP_E_NOMEM;
            }
            if ((st = start_run(q)) != AP_IN_PROGRESS) {
                q->running = false;
                return out->status = st;
            }
            continue;
        }
        if (st == AP_IN_PROGRESS)
            return out->status = st;
        q->running = false;
        if (st != AP_OK)
            return out->status = st;
        size_t m = ap_search_path(&q->s, NULL, 0);
        uint32_t *ids = malloc(m * sizeof *ids);
        if (ids == NULL)
            return out->status = AP_E_NOMEM;
        ap_search_path(&q->s, ids, m);
        out->arcs_verified = true; /* the point domain's answers have no arcs */
        int b = q->point ? pt_path(q, ids, m, out) : build_path(q, ids, m, out);
        out->verified = b == AP_OK;
        free(ids);
        return out->status = b;
    }
}

int ap_aa_find(ap_aa_query *q, double sx, double sy, double gx, double gy, uint64_t deadline_ns,
               ap_aa_result *out)
{
    int st = ap_aa_begin(q, sx, sy, gx, gy, deadline_ns, out);
    return st == AP_IN_PROGRESS ? ap_aa_run(q, 0, out) : st;
}
