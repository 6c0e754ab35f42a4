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
 * touching is allowed; clear for every radius below unit.radius), never world.h's strict rule at the radius.
 *
 * Source: Red Blob Games, "Circular Obstacle Pathfinding" (through anyangle.h and graph.h).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../anyangle/anyangle.h"
#include "../anyangle/table.h"
#include "plan_kind.h"
#include "plan_steps.h"

/* The kind's state (p->kind_state). */
typedef struct aa_plan {
    const ap_aa_graph *g;  /* the graph searched: the map's table, or own */
    ap_aa_graph *own;      /* built for this query, or NULL */
    ap_circle_world *cw;   /* the obstacles' world (with the circle map's circles), or NULL */
    ap_aa_query *aq;
    ap_aa_result res;
} aa_plan;

/* Idle query objects kept between queries, so a query allocates and page-faults no node table, hash or
 * workspace (about 0.6 MB each): a small stack under a spin lock held for one push or pop. Objects stay
 * for the life of the process (at most AA_POOL, each trimmed by ap_aa_query_bind). */
#define AA_POOL 8
static ap_aa_query *pool[AA_POOL];
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
    ap_aa_query *q = pool_n > 0 ? pool[--pool_n] : NULL;
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
    pool_lock_take();
    bool kept = pool_n < AA_POOL;
    if (kept)
        pool[pool_n++] = q;
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
    ap_aa_graph_free(a->own);
    ap_circle_world_free(a->cw);
    free(a);
    p->kind_state = NULL;
}

/* The world of the query's obstacles: a circle map's circles followed by the obstacles, or a grid map's
 * bounds with the obstacles alone. */
static int obstacle_world(const ap_query *q, ap_circle_world **out)
{
    const size_t base = q->circles != NULL ? ap_circle_world_count(q->circles) : 0, n = base + q->n_obstacles;
    ap_circle *c = malloc(n * sizeof *c);
    if (c == NULL)
        return AP_E_NOMEM;
    if (base > 0)
        memcpy(c, ap_circle_world_circles(q->circles), base * sizeof *c);
    memcpy(c + base, q->obstacles, q->n_obstacles * sizeof *c);
    double w = q->circles != NULL ? ap_circle_world_width(q->circles) : (double)q->map->width;
    double h = q->circles != NULL ? ap_circle_world_height(q->circles) : (double)q->map->height;
    int st = ap_circle_world_create(w, h, c, n, out, NULL, 0, NULL, 0);
    free(c);
    return st == AP_E_MAP_FORMAT ? AP_E_INVALID_REQUEST : st; /* validated already: not expected */
}

/* The graph for q: shared when one fits, else built into a->own. */
static int make_graph(aa_plan *a, const ap_query *q)
{
    const double r = q->unit_radius;
    if (q->n_obstacles > 0) {
        int st = obstacle_world(q, &a->cw);
        if (st != AP_OK)
            return st;
        st = q->map != NULL ? ap_aa_graph_grid_circles(q->map, a->cw, r, &a->own) : ap_aa_graph_circles(a->cw, r, &a->own);
        a->g = a->own;
        return st;
    }
    if (q->map != NULL && (a->g = ap_aa_table_graph(q->map, r)) != NULL)
        return AP_OK;
    int st = q->map != NULL ? ap_aa_graph_grid_lazy(q->map, r, &a->own) : ap_aa_graph_circles(q->circles, r, &a->own);
    a->g = a->own;
    return st;
}

/* A refusal found only while planning (the ends fail the graph's test for the unit's disc): the field. */
static int aa_state(ap_plan *p, int st)
{
    if (st == AP_E_START_BLOCKED)
        p->field = "start";
    else if (st == AP_E_GOAL_BLOCKED)
        p->field = "goal";
    return p->state = st;
}

static int aa_begin(ap_plan *p, const ap_algorithm_row *row, ap_workspace *ws)
{
    p->alg = row->id;
    aa_plan *a = calloc(1, sizeof *a);
    if (a == NULL)
        return p->state = AP_E_NOMEM;
    p->kind_state = a;
    int st = make_graph(a, &p->q);
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
    int st = ap_aa_run(a->aq, max_expansions, &a->res);
    p->expanded_before = a->res.expanded; /* no p->search: ap_plan_expanded reads this */
    return aa_state(p, st);
}

/* The search lives in the query object, not in ws: nothing to move. */
static int aa_move(ap_plan *p, ap_workspace *ws)
{
    return p->state;
}

static int aa_finish(ap_plan *p, ap_result *r)
{
    aa_plan *a = p->kind_state;
    const ap_query *q = &p->q;
    const size_t n = a->res.n_segs;
    ap_segment *segs = malloc((n > 0 ? n : 1) * sizeof *segs);
    r->waypoints = malloc((n + 1 > 1 ? n + 1 : 2) * sizeof *r->waypoints);
    if (segs == NULL || r->waypoints == NULL) {
        free(segs);
        return AP_E_NOMEM;
    }
    if (n > 0)
        memcpy(segs, a->res.segs, n * sizeof *segs);
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
    r->length = ap_path_length(segs, n);
    r->grid_cost = r->length; /* the search's cost is the path's length */
    r->clear = ap_aa_graph_path_ok(a->g, segs, n, q->sx, q->sy);
    return AP_OK;
}

const ap_plan_kind ap_plan_kind_anyangle = {"any_angle", aa_begin, aa_step, aa_move, aa_finish, aa_release,
                                            false,       true,     false,   true};
