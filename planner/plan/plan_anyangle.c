/* plan_anyangle.c — the any-angle plan kind (ap_plan_kind_anyangle, plan_kind.h): the exact Euclidean
 * shortest path of the unit's disc (anyangle.h, docs/anyangle.md) on a grid map or a circle world, with the
 * query's obstacles added for this query only; lines plus arcs of radius unit.radius (arcs only where the
 * path hugs a corner or a circle), G1 at every join.
 *
 * The graph (graph.h): a query on a grid map without obstacles uses the map's shared "any_angle" table
 * (table.h: the point unit's graph built at load, a disc's built on the first query of its radius; eager);
 * any other query (no slot, slots full, obstacles, circle worlds) builds its own lazy graph at begin (a
 * grid's corners O(cells), a circle world's circles O(n), plus the obstacles). The search runs in slices on the
 * query object's own workspace (ap_aa_begin / ap_aa_run), so the plan's workspace is not used and a move
 * between lanes costs nothing. The `clear` verdict is ap_aa_graph_path_ok in the graph's model (docs:
 * touching is allowed; clear for every radius below unit.radius), never world.h's strict rule at the radius;
 * fixed-angle art is judged in that model too (aa_art_world, a world.h view of the graph).
 *
 * A turning unit (unit.turning_radius > 0, anyangle/turning.h): the graph's tests run just above the unit's
 * radius while its hug circles grow to rho = max(turning radius, that radius), the end headings are joined
 * by Dubins curves, `clear` is the legal-turn answers' strict verdict for the unit's disc (on art lines too),
 * and no_path says not_found (the kind's variant aa_turning_kind, complete = false, no art_world).
 *
 * Source: Red Blob Games, "Circular Obstacle Pathfinding" (through anyangle.h and graph.h).
 */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../anyangle/anyangle.h"
#include "../anyangle/table.h"
#include "../anyangle/turning.h"
#include "plan_kind.h"
#include "plan_steps.h"

/* The kind's state (p->kind_state). */
typedef struct aa_plan {
    const ap_aa_graph *g;  /* the graph searched: the map's table, or own */
    ap_aa_graph *own;      /* built for this query, or NULL */
    ap_circle_world *cw;   /* the obstacles' world (with the circle map's circles), or NULL */
    ap_aa_query *aq;
    ap_aa_result res;
    /* A turning unit (turning.h): the graph's hug circles grown to rho; the answer with its end joins */
    bool turning;
    ap_segment *turn_segs;
    size_t n_turn;
} aa_plan;

/* The same kind for turning units: its no_path is no proof (bends only on circles of radius rho round the
 * corners, Dubins joins of one word: a legal path may still exist), so it answers not_found. */
static const ap_plan_kind aa_turning_kind;

/* Idle query objects kept between queries, so a query allocates and page-faults no node table, hash or
 * workspace (about 0.6 MB each, 4 MB on Paris_1_1024's point table, 22 MB on random512-40-0's): a small
 * stack under a spin lock held for one push or pop. Objects stay for the life of the process (at most
 * AA_POOL, each trimmed by ap_aa_query_bind, together at most AA_POOL_BYTES: an object that would take
 * the pool beyond that is freed instead). */
#define AA_POOL 8
#define AA_POOL_BYTES ((size_t)64 << 20)
static ap_aa_query *pool[AA_POOL];
static size_t pool_bytes_of[AA_POOL], pool_bytes;
static int pool_n;
static atomic_flag pool_lock = ATOMIC_FLAG_INIT;

static void pool_lock_take(void)
{
    while (atomic_flag_test_and_set_explicit(&pool_lock, memory_order_acquire))
        ;
}

/* An idle query object bound to g, else a new one. */
static int pool_query(const ap_aa_graph *g, ap_aa_query **out)
{
    pool_lock_take();
    ap_aa_query *q = NULL;
    if (pool_n > 0) {
        q = pool[--pool_n];
        pool_bytes -= pool_bytes_of[pool_n];
    }
    atomic_flag_clear_explicit(&pool_lock, memory_order_release);
    if (q == NULL)
        return ap_aa_query_create(g, out);
    if (ap_aa_query_bind(q, g) != AP_OK) {
        ap_aa_query_free(q);
        return AP_E_NOMEM;
    }
    *out = q;
    return AP_OK;
}

/* Keep q for a later query, or free it when the pool is full. */
static void pool_return(ap_aa_query *q)
{
    if (q == NULL)
        return;
    const size_t bytes = ap_aa_query_bytes(q);
    pool_lock_take();
    bool kept = pool_n < AA_POOL && pool_bytes + bytes <= AA_POOL_BYTES;
    if (kept) {
        pool_bytes_of[pool_n] = bytes;
        pool[pool_n++] = q;
        pool_bytes += bytes;
    }
    atomic_flag_clear_explicit(&pool_lock, memory_order_release);
    if (!kept)
        ap_aa_query_free(q);
}

static void aa_release(ap_plan *p)
{
    aa_plan *a = p->kind_state;
    if (a == NULL)
        return;
    pool_return(a->aq);
    free(a->turn_segs);
    ap_aa_graph_free(a->own);
    ap_circle_world_free(a->cw);
    free(a);
    p->kind_state = NULL;
}

/* Is obstacle j of the query inside obstacle i (closed discs; of two alike, the later one is inside)? */
static bool obstacle_inside(const ap_circle *o, size_t j, size_t i)
{
    const double d = hypot(o[j].x - o[i].x, o[j].y - o[i].y) + o[j].r;
    return d < o[i].r || (d == o[i].r && (o[j].r < o[i].r || j > i));
}

/* The world of the query's obstacles: a circle map's circles followed by the obstacles, or a grid map's
 * bounds with the obstacles alone. An obstacle inside another one of the query's is left out: the union,
 * all a path or a test sees, is the same, and every circle costs its bitangents (256 copies of one obstacle
 * made a query across a 300-circle world take 2.2 s instead of 0.02 s: a helper, 2026-12-08). O(obstacles^2),
 * at most 256^2 tests; the map's own circles are kept as they are. */
static int obstacle_world(const ap_query *q, ap_circle_world **out)
{
    const size_t base = q->circles != NULL ? ap_circle_world_count(q->circles) : 0;
    ap_circle *c = malloc((base + q->n_obstacles) * sizeof *c);
    if (c == NULL)
        return AP_E_NOMEM;
    if (base > 0)
        memcpy(c, ap_circle_world_circles(q->circles), base * sizeof *c);
    size_t n = base;
    for (size_t j = 0; j < q->n_obstacles; j++) {
        bool inside = false;
        for (size_t i = 0; i < q->n_obstacles && !inside; i++)
            inside = i != j && obstacle_inside(q->obstacles, j, i);
        if (!inside)
            c[n++] = q->obstacles[j];
    }
    double w = q->circles != NULL ? ap_circle_world_width(q->circles) : (double)q->map->width;
    double h = q->circles != NULL ? ap_circle_world_height(q->circles) : (double)q->map->height;
    int st = ap_circle_world_create(w, h, c, n, out, NULL, 0, NULL, 0);
    free(c);
    return st == AP_E_MAP_FORMAT ? AP_E_INVALID_REQUEST : st; /* validated already: not expected */
}

/* The graph for q: shared when one fits and is built in time (ap_build_until: three quarters of
 * the time to the deadline; an unfinished build goes on in the next query), else a lazy one built into
 * a->own. Its tests run at the unit's radius, for a turning unit at ap_aa_turn_clearance with the hug
 * circles grown to rho (turning.h). */
static int make_graph(aa_plan *a, const ap_query *q, uint64_t deadline_ns)
{
    const bool turning = q->turning_radius > 0.0;
    const double r = turning ? ap_aa_turn_clearance(q->unit_radius) : q->unit_radius + q->aa_margin;
    const double grow = turning ? ap_aa_turn_radius(q->unit_radius, q->turning_radius) - r : 0.0;
    int st;
    if (q->n_obstacles > 0) {
        st = obstacle_world(q, &a->cw);
        if (st != AP_OK)
            return st;
        st = q->map != NULL ? ap_aa_graph_grid_circles(q->map, a->cw, r, &a->own) : ap_aa_graph_circles(a->cw, r, &a->own);
    } else {
        if (q->map != NULL && (a->g = ap_aa_table_graph_until(q->map, r, grow, ap_build_until(deadline_ns))) != NULL)
            return AP_OK;
        st = q->map != NULL ? ap_aa_graph_grid_lazy(q->map, r, &a->own) : ap_aa_graph_circles(q->circles, r, &a->own);
    }
    if (st == AP_OK && grow > 0.0)
        st = ap_aa_graph_grow_hugs(a->own, grow);
    a->g = a->own;
    return st;
}

/* A turning unit's exact test (the legal-turn answers' own): its disc of radius unit.radius swept along the
 * segments is clear in the query's world by world.h's strict rule (ap_plan_world) and of the query's
 * obstacles (cw, strict: AP_CIRCLES_EPS). */
typedef struct turn_test {
    ap_world world;
    double r;
    const ap_circle_world *cw;
} turn_test;

static turn_test turn_test_of(const aa_plan *a, const ap_query *q)
{
    turn_test t = {.cw = a->cw};
    ap_plan_world(q, false, &t.world, &t.r);
    return t;
}

static bool turn_clear(void *ctx, const ap_segment *s, size_t n)
{
    const turn_test *t = ctx;
    if (!ap_world_segments_clear(&t->world, s, n, t->r))
        return false;
    for (size_t i = 0; t->cw != NULL && i < n; i++)
        if (!ap_circle_world_segment_tol(t->cw, &s[i], t->r, AP_CIRCLES_EPS))
            return false;
    return true;
}

static bool turn_point_clear(const turn_test *t, double x, double y)
{
    return ap_world_point_clear(&t->world, x, y, t->r) &&
           (t->cw == NULL || ap_circle_world_line_tol(t->cw, x, y, x, y, t->r, AP_CIRCLES_EPS));
}

/* A turning unit's search ended with st: a path gets its end joins (turning.h; none fits: no_path); an end
 * that fails the graph's test at ap_aa_turn_clearance but is clear for the unit's own disc is no_path too
 * (the graph has no path from there; a legal path may exist, so not_found). */
static int turn_done(ap_plan *p, int st)
{
    aa_plan *a = p->kind_state;
    const ap_query *q = &p->q;
    turn_test t = turn_test_of(a, q);
    if (st == AP_E_START_BLOCKED || st == AP_E_GOAL_BLOCKED) {
        const bool start = st == AP_E_START_BLOCKED;
        if (!turn_point_clear(&t, start ? q->sx : q->gx, start ? q->sy : q->gy))
            return st;
        /* The graph refused the start at its wider clearance only; the goal, not tested yet, may not hold the
         * unit's own disc at all: that is the refusal to give, not a no_path. */
        if (start && !turn_point_clear(&t, q->gx, q->gy))
            return AP_E_GOAL_BLOCKED;
        return AP_NO_PATH;
    }
    if (st != AP_OK)
        return st;
    free(a->turn_segs);
    a->turn_segs = NULL;
    return ap_aa_turn_join(a->res.segs, a->res.n_segs, q->sx, q->sy, q->gx, q->gy, q->has_sheading, q->sheading,
                           q->has_gheading, q->gheading, q->turning_radius, turn_clear, &t, &a->turn_segs,
                           &a->n_turn);
}

/* The search's status st as the plan's state: a turning unit's ends (turn_done); a refusal found only while
 * planning (the ends fail the graph's test for the unit's disc) names its field. */
static int aa_state(ap_plan *p, int st)
{
    const aa_plan *a = p->kind_state;
    if (a->turning)
        st = turn_done(p, st);
    st = ap_plan_end_blocked(p, st);
    /* A point unit here may touch walls, cells' corners and circles: what refuses it is the inside of a circle
     * or a gap of width 0 (the point rule, circles.h and graph.h), not "a blocked cell's edge" */
    if ((st == AP_E_START_BLOCKED || st == AP_E_GOAL_BLOCKED) && !(p->q.unit_radius > 0.0)) {
        const bool start = st == AP_E_START_BLOCKED;
        snprintf(p->message, sizeof p->message,
                 "\"%s\": the point (%g, %g) is inside an obstacle circle, or where obstacles touch with no gap "
                 "between them (a corner two blocked cells share diagonally, circles touching each other, a "
                 "blocked cell or the map's edge)",
                 p->field, start ? p->q.sx : p->q.gx, start ? p->q.sy : p->q.gy);
    }
    return p->state = st;
}

static int aa_begin(ap_plan *p, const ap_algorithm_row *row, ap_workspace *ws)
{
    p->alg = row->id;
    aa_plan *a = calloc(1, sizeof *a);
    if (a == NULL)
        return p->state = AP_E_NOMEM;
    p->kind_state = a;
    a->turning = p->q.turning_radius > 0.0;
    if (a->turning)
        p->kind = &aa_turning_kind;
    int st = make_graph(a, &p->q, p->deadline_ns);
    if (st == AP_OK)
        st = pool_query(a->g, &a->aq);
    if (st != AP_OK)
        return p->state = st;
    const ap_query *q = &p->q;
    return aa_state(p, ap_aa_begin(a->aq, q->sx, q->sy, q->gx, q->gy, p->deadline_ns, &a->res));
}

static int aa_step(ap_plan *p, uint64_t max_expansions)
{
    aa_plan *a = p->kind_state;
    ap_aa_set_cancel(a->aq, p->cancel);
    ap_aa_set_slice_end(a->aq, p->slice_end_ns);
    int st = ap_aa_run(a->aq, max_expansions, &a->res);
    p->expanded_before = a->res.expanded; /* no p->search: ap_plan_expanded reads this */
    return aa_state(p, st);
}

/* The search lives in the query object, not in ws: nothing to move. */
static int aa_move(ap_plan *p, ap_workspace *ws)
{
    return p->state;
}

/* (*x, *y) set to (px, py) when within 1e-9 of it, relative to its magnitude (rounding, not geometry). */
static void snap_point(double *x, double *y, double px, double py)
{
    if (hypot(*x - px, *y - py) <= 1e-9 * fmax(1.0, fabs(px) + fabs(py))) {
        *x = px;
        *y = py;
    }
}

static int aa_finish(ap_plan *p, ap_result *r)
{
    aa_plan *a = p->kind_state;
    const ap_query *q = &p->q;
    const ap_segment *src = a->turning ? a->turn_segs : a->res.segs;
    const size_t n = a->turning ? a->n_turn : a->res.n_segs;
    ap_segment *segs = malloc((n > 0 ? n : 1) * sizeof *segs);
    r->waypoints = malloc((n + 1 > 1 ? n + 1 : 2) * sizeof *r->waypoints);
    if (segs == NULL || r->waypoints == NULL) {
        free(segs);
        return AP_E_NOMEM;
    }
    if (n > 0)
        memcpy(segs, src, n * sizeof *segs);
    /* The path starts at the start and ends at the goal as sent: an arc's ends are computed on its circle
     * and may miss them by a few ulp (a goal on a circle of the forest: 3.7e-15), also where the line of
     * rounding size between the point and its tangent point was left out (anyangle.c push_line). */
    if (n > 0) {
        snap_point(&segs[0].x0, &segs[0].y0, q->sx, q->sy);
        snap_point(&segs[n - 1].x1, &segs[n - 1].y1, q->gx, q->gy);
    }
    /* Waypoints: the start, then the end of every segment (the goal last); start == goal gives both. */
    r->waypoints[0][0] = q->sx;
    r->waypoints[0][1] = q->sy;
    for (size_t i = 0; i < n; i++) {
        r->waypoints[i + 1][0] = segs[i].x1;
        r->waypoints[i + 1][1] = segs[i].y1;
    }
    r->n_waypoints = n + 1 > 1 ? n + 1 : 2;
    if (n == 0) {
        r->waypoints[1][0] = q->gx;
        r->waypoints[1][1] = q->gy;
    }
    r->segments = segs;
    r->n_segments = n;
    r->length = ap_path_length(src, n);
    r->grid_cost = r->length; /* the search's cost is the path's length */
    if (a->turning) {
        /* the legal-turn answers' verdict: the unit's own disc, world.h's strict rule */
        turn_test t = turn_test_of(a, q);
        r->clear = n > 0 ? turn_clear(&t, src, n) : turn_point_clear(&t, q->sx, q->sy);
    } else {
        /* A verified answer's lines passed the same tests in the search (anyangle.h): only its arcs are
         * tested here. */
        r->clear = n > 0 && a->res.verified ? a->res.arcs_verified || ap_aa_graph_arcs_ok(a->g, segs, n)
                                            : ap_aa_graph_path_ok(a->g, segs, n, q->sx, q->sy);
    }
    return AP_OK;
}

/* The graph's model as a world (world.h), for fixed-angle art (art.h): a point, line or segment is clear when
 * the graph's own tests pass it (graph.h: touching allowed, the answer's `clear` verdict). r is not read:
 * the tests run at the radius the graph was built for (g->unit_radius, which aa_art_world hands art).
 * Regions: 1 for a usable point (nothing proves two apart); no tables. */
static bool graph_point_clear(const void *ctx, double x, double y, double r)
{
    return ap_aa_graph_path_ok(ctx, NULL, 0, x, y);
}

static bool graph_line_clear(const void *ctx, double ax, double ay, double bx, double by, double r)
{
    const ap_aa_graph *g = ctx;
    return g->space.line_ok(g->space.ctx, ax, ay, bx, by);
}

static bool graph_segment_clear(const void *ctx, const ap_segment *s, double r)
{
    return ap_aa_graph_path_ok(ctx, s, 1, s->x0, s->y0);
}

static uint32_t graph_region(const void *ctx, double x, double y)
{
    return graph_point_clear(ctx, x, y, 0.0) ? 1u : 0u;
}

static const void *graph_table(const void *ctx, const char *name)
{
    return NULL;
}

static const ap_world_ops graph_world_ops = {graph_point_clear, graph_line_clear, graph_segment_clear, graph_region,
                                             graph_table};

/* The world art is judged in (plan_kind.h art_world): the graph searched, whose model the answer and its
 * `clear` live in. Art lines meet obstacles where the path does (its lines are tangents, an arc's
 * circumscribed polygon touches the arc's circle at every edge), so world.h's strict rule would refuse
 * nearly every one. Valid until aa_release frees the graph (ap_plan_finish calls this before it). Not for
 * turning units: their answers are judged by the strict rule (aa_turning_kind has no art_world). */
static void aa_art_world(const ap_plan *p, ap_world *w, double *r)
{
    const aa_plan *a = p->kind_state;
    *w = (ap_world){&graph_world_ops, a->g, a->g->width, a->g->height};
    *r = a->g->unit_radius;
}

const ap_plan_kind ap_plan_kind_anyangle = {"any_angle", aa_begin, aa_step, aa_move, aa_finish, aa_release,
                                            false,       true,     false,   true,   NULL,    aa_art_world};
static const ap_plan_kind aa_turning_kind = {"any_angle", aa_begin, aa_step, aa_move, aa_finish, aa_release,
                                             false,       false,    false,   true,   NULL,    NULL};
