/* algorithms.c — the algorithm table (algorithms.h), the grid-domain hooks of the built-in grid
 * algorithms, and the "auto" kind that picks one of them per query.
 *
 * Sources: A* (Hart, Nilsson & Raphael 1968) on the grid (grid.h); Jump Point Search (Harabor & Grastien
 * 2011) and JPS+ (jps.h); Pinter, "Toward More Realistic Pathfinding" for the legal-turn rows (plan_dir.c).
 */
#include "algorithms.h"

#include <math.h>
#include <string.h>

#include "../anyangle/table.h"
#include "../anyangle/turning.h"
#include "../grid/grid.h"
#include "../hier/hier.h"
#include "../kino/kino.h"
#include "../grid/jps.h"
#include "../grid/jps_sized.h"
#include "../world/capability.h"
#include "../world/clearance.h"
#include "../world/view.h"
#include "../turns/profile.h"
#include "plan_kind.h"

/* The map the query plans on (its capability's view), or q->map when it has none (validation refuses). */
static const ap_map *qmap(const ap_query *q)
{
    const ap_map *m = ap_query_map(q);
    return m != NULL ? m : q->map;
}

const ap_clearance_table *ap_query_disc_table(const ap_query *q)
{
    if (q->map == NULL || q->unit_size > 0 || !(q->unit_radius >= AP_GRID_SIZED_MIN_RADIUS))
        return NULL;
    const ap_map *m = qmap(q);
    return ap_clearance_of(m, m->capability);
}

bool ap_query_is_sized(const ap_query *q)
{
    return q->map != NULL && (q->unit_size > 1 || ap_query_disc_table(q) != NULL);
}

/* A*: Annotated A* for a square unit of size >= 2 (true clearance) or a disc that does not fit every legal
 * move (exact disc clearance), plain A* otherwise (a 1 x 1 square moves exactly as a point does). */
static int astar_init(ap_plan_dom_ctx *ctx, ap_domain *dom, const ap_query *q, uint32_t goal, uint64_t deadline_ns)
{
    const ap_map *m = qmap(q);
    if (q->unit_size > 1)
        return ap_grid_domain_init_square(&ctx->grid, dom, m, q->connectivity, goal, ap_clearance_of(m, m->capability),
                                          q->unit_size);
    const ap_clearance_table *t = ap_query_disc_table(q);
    if (t != NULL)
        return ap_grid_domain_init_sized(&ctx->grid, dom, m, q->connectivity, goal, t, q->unit_radius);
    return ap_grid_domain_init(&ctx->grid, dom, m, q->connectivity, goal);
}

/* The clearance table and unit key (jps_sized.h) of a sized unit's jump point search: a square of side 2 or
 * more, or a disc that does not fit every grid move; NULL for units that see the plain grid. */
static const ap_clearance_table *unit_key(const ap_query *q, uint16_t *key)
{
    const ap_map *m = qmap(q);
    if (q->unit_size > 1) {
        *key = ap_jps_square_key(q->unit_size);
        return ap_clearance_of(m, m->capability);
    }
    *key = ap_jps_disc_key(q->unit_radius); /* a level above the radius's (clearance.h) */
    return ap_query_disc_table(q);
}

/* JPS for a sized unit: pruning on the grid as the unit sees it, with the tables of its key (jps_sized.h:
 * built on the map's first queries of that key, each giving the build ap_build_until of its deadline); JPS+
 * without them (the build not done yet, the map's places or byte budget hold other keys, or out of memory)
 * runs online JPS, whose masks are then computed per visited cell. NULL t: the point unit's JPS (table:
 * JPS+ distances or NULL). */
static int jps_any_init(ap_plan_dom_ctx *ctx, ap_domain *dom, const ap_query *q, uint32_t goal, bool plus,
                        uint64_t deadline_ns)
{
    uint16_t key;
    const ap_clearance_table *t = unit_key(q, &key);
    if (t == NULL)
        return ap_jps_domain_init(&ctx->jps, dom, qmap(q), plus ? ap_jps_table_of(qmap(q)) : NULL, goal);
    const ap_jps_sized *s = ap_jps_sized_get_until(qmap(q), t, key, ap_build_until(deadline_ns));
    return ap_jps_domain_init_sized(&ctx->jps, dom, qmap(q), t, key, s, plus && s != NULL, goal);
}

static int jps_init(ap_plan_dom_ctx *ctx, ap_domain *dom, const ap_query *q, uint32_t goal, uint64_t deadline_ns)
{
    return jps_any_init(ctx, dom, q, goal, false, deadline_ns);
}

/* Without a table (a map too large for int16 distances, or a capability view: JPS+ tables are the loaded
 * map's passability) jps_plus runs online JPS. */
static int jps_plus_init(ap_plan_dom_ctx *ctx, ap_domain *dom, const ap_query *q, uint32_t goal, uint64_t deadline_ns)
{
    return jps_any_init(ctx, dom, q, goal, true, deadline_ns);
}

static void jps_bind(ap_plan_dom_ctx *ctx, const ap_workspace *ws)
{
    ap_jps_domain_bind(&ctx->jps, ws);
}

#define GRID &ap_plan_kind_grid
#define TURNS &ap_plan_kind_turns
#define JPS_NEEDS (AP_NEEDS_CONN8 | AP_NEEDS_UNIFORM)
/* Directional A* weighs its curves by terrain (directional.h); the hybrid's smoothing passes do not. */
#define TURN_NEEDS AP_NEEDS_TURNING
#define HYBRID_NEEDS (AP_NEEDS_TURNING | AP_NEEDS_UNIFORM)

const ap_algorithm_row ap_algorithms[] = {
    {.name = "astar", .id = AP_ALG_ASTAR, .kind = GRID, .domain_init = astar_init},
    {.name = "jps", .id = AP_ALG_JPS, .needs = JPS_NEEDS, .kind = GRID, .domain_init = jps_init, .bind = jps_bind,
     .expand_path = ap_jps_expand_path},
    {.name = "jps_plus", .id = AP_ALG_JPS_PLUS, .needs = JPS_NEEDS, .kind = GRID, .domain_init = jps_plus_init,
     .bind = jps_bind, .expand_path = ap_jps_expand_path},
    {.name = "auto", .id = AP_ALG_AUTO, .kind = &ap_plan_kind_auto},
    {.name = "directional8", .id = AP_ALG_DIRECTIONAL8, .needs = TURN_NEEDS, .kind = TURNS, .variant = 8},
    {.name = "directional24", .id = AP_ALG_DIRECTIONAL24, .needs = TURN_NEEDS, .kind = TURNS, .variant = 24},
    {.name = "directional48", .id = AP_ALG_DIRECTIONAL48, .needs = TURN_NEEDS, .kind = TURNS, .variant = 48},
    {.name = "hybrid", .id = AP_ALG_HYBRID, .needs = HYBRID_NEEDS, .kind = TURNS, .variant = 0},
    {.name = "any_angle", .id = AP_ALG_ANY_ANGLE, .needs = AP_NEEDS_CONN8 | AP_NEEDS_UNIFORM,
     .kind = &ap_plan_kind_anyangle},
    {.name = "hierarchical", .id = AP_ALG_HIERARCHICAL, .kind = &ap_plan_kind_hier},
    {.name = "kinodynamic", .id = AP_ALG_KINODYNAMIC, .needs = AP_NEEDS_TURNING | AP_NEEDS_UNIFORM,
     .kind = &ap_plan_kind_kino},
};
const size_t ap_algorithm_count = sizeof ap_algorithms / sizeof ap_algorithms[0];

const ap_algorithm_row *ap_algorithm_find(const char *name)
{
    for (size_t i = 0; name != NULL && i < ap_algorithm_count; i++)
        if (strcmp(ap_algorithms[i].name, name) == 0)
            return &ap_algorithms[i];
    return NULL;
}

const ap_algorithm_row *ap_algorithm_row_of(ap_algorithm id)
{
    for (size_t i = 0; i < ap_algorithm_count; i++)
        if (ap_algorithms[i].id == id)
            return &ap_algorithms[i];
    return NULL;
}

/* "auto": the fastest valid choice for the unit. Turning units get legal turns (the turns kind runs the
 * hybrid and escalates to Directional24 when it sees the auto row; on a map with terrain costs it runs
 * Directional24 at once, which weighs curves by terrain); everyone else a grid search, JPS+ where it is
 * valid (for sized units over their key's tables, auto_unit_jps), else hierarchical for long queries
 * of sized discs (auto_hier). */
static bool auto_turns(const ap_query *q)
{
    return q->turning_radius > 0.0 && q->map != NULL;
}

/* A point unit (radius 0, no turning radius, no square footprint, no fixed-angle art; timed or not)
 * asking for a smoothed answer on an 8-connected query of a uniform-cost grid map whose point any-angle graph
 * is built with its eager table (the "any_angle" table, anyangle/table.h): auto answers it with (nearly) the
 * shortest path (issue 10: "the default answer is the shortest path, not a smoothed grid path"). From
 * AP_AUTO_AA_MIN_TILES of octile distance any_angle, the exact one, in about the time of JPS+ with Listing 1
 * (BENCHMARKS.md "`auto` for point units"); below, JPS+ with taut smoothing, within 0.07 % of it on average
 * at a fraction of any_angle's fixed cost (its two visibility scans, ~20 µs: den520d buckets 20-29 taut
 * 17 µs against 25, 10-14 7 µs against 16; from bucket 30, 120 tiles, the two are even). smoothing "none"
 * asks for the cell path and keeps the grid search; maps without the table (beyond its corner and byte
 * limits or left out by the config) get JPS+ with taut at every distance (auto_point_query); weighted
 * maps keep A* with the smoothing asked for. */
#define AP_AUTO_AA_MIN_TILES 128.0

/* What auto_point and auto_disc ask alike of the query: a grid query without a turning radius, square
 * footprint, fixed-angle art, turn penalty or obstacles, smoothed, 8-connected, on a uniform-cost map (the
 * unit's view). */
static bool auto_exact_query(const ap_query *q)
{
    if (q->map == NULL || q->turning_radius > 0.0 || q->unit_size > 0 || q->connectivity != 8 ||
        q->smoothing == AP_SMOOTH_NONE || q->art_directions != 0 || q->turn_penalty > 0.0 || q->n_obstacles > 0)
        return false;
    return !qmap(q)->weighted;
}

/* ... on a map that has the any_angle table. */
static bool auto_exact_ok(const ap_query *q)
{
    return auto_exact_query(q) && ap_aa_table_of(qmap(q)) != NULL;
}

/* A point unit's query of the kind auto_point takes, with or without the map's point graph: the ones
 * auto_begin does not hand to any_angle (below AP_AUTO_AA_MIN_TILES, or the map has no point graph: its
 * any_angle table left out by the config (skip_tables) or beyond the table's limits) get JPS+ with taut
 * smoothing at every distance, instead of the smoothing asked for. Without the graph, with Listing 1
 * the answers were 1.6 % longer than with the table on average on den520d, 1.3 % on Paris_1_1024 and 32 %
 * on maze512-1-0, whose corridors' corners only taut smoothing pulls the path to; with taut 0.04, 0.27 and
 * 0.34 % (every tenth scenario line, 2026-12-08; maze512-1-0's queries 2-3 ms slower); on random512-10-0,
 * whose corners are beyond the table's limits, Listing 1 was 2.0 % longer than taut on average (up to
 * 6.8 %) for 1.2-1.5 times its time (every line: BENCHMARKS.md "`auto` without the point graph"). */
static bool auto_point_query(const ap_query *q)
{
    return q->unit_radius == 0.0 && auto_exact_query(q);
}

/* ... on a map with the point graph, which auto_begin hands to any_angle from AP_AUTO_AA_MIN_TILES. */
static bool auto_point(const ap_query *q)
{
    if (!auto_point_query(q))
        return false;
    const ap_aa_graph *g = ap_aa_table_of(qmap(q));
    return g != NULL && g->dep_start != NULL;
}

static double octile_apart(const ap_query *q)
{
    return ap_octile((int32_t)fabs(floor(q->gx) - floor(q->sx)), (int32_t)fabs(floor(q->gy) - floor(q->sy)));
}

/* A disc (radius > 0, no turning radius, no square footprint, the map's own passability) asking for a
 * smoothed answer on an 8-connected query of a uniform-cost grid map with the point any-angle graph, whose
 * table can hold the disc's graph (ap_aa_table_may_serve): from AP_AUTO_AA_MIN_TILES of octile distance
 * auto answers it with any_angle too, the exact path, which there is both shorter and faster than the grid
 * answer (BENCHMARKS.md "`auto` for discs": den520d at radius 0.5, JPS+ over the disc's tables with `los`
 * 1.4 % longer on average, with `taut` 0.07 % longer and slower than any_angle). The graph runs at the
 * disc's radius plus AP_AUTO_AA_DISC_MARGIN: any_angle's model lets a disc touch a wall, the grid
 * searches' strict rule (world.h) does not, so the answer keeps a clearance above the radius (the margin
 * less the graph's 1e-7 tolerance) and is clear by the strict rule like every grid answer of auto. */
#define AP_AUTO_AA_DISC_MARGIN 1e-6

static bool auto_disc(const ap_query *q)
{
    return q->unit_radius >= AP_AA_GRID_MIN_RADIUS && q->unit_radius <= 100.0 && q->capability == 0 &&
           q->circles == NULL && auto_exact_ok(q) && ap_aa_table_may_serve(q->map, q->unit_radius + AP_AUTO_AA_DISC_MARGIN);
}

/* Do start and goal pass any_angle's point rule (graph.h ap_aa_grid_point_line_ok)? A point where two blocked
 * cells meet diagonally, on a passable cell, is refused by any_angle (no gap to leave by) but answered by
 * the grid searches (clear: false): auto gave 422 or ok for one start by the goal's distance (a helper, on
 * orz100d), so such a query keeps the grid answer at every distance. */
static bool point_ends_ok(const ap_query *q)
{
    const ap_map *m = qmap(q);
    return ap_aa_grid_point_line_ok(m, q->sx, q->sy, q->sx, q->sy) &&
           ap_aa_grid_point_line_ok(m, q->gx, q->gy, q->gx, q->gy);
}

/* Circle worlds and per-query obstacles are any_angle's alone (the grid kinds search cells); so are long
 * queries of point units on maps with the point graph (auto_point) whose ends any_angle takes, and of discs
 * whose graph the map's table can hold (auto_disc). */
bool ap_query_auto_may_anyangle(const ap_query *q)
{
    /* the distance first: a short query's auto_begin asks auto_point itself (its table look-up once) */
    return q->circles != NULL || q->n_obstacles > 0 ||
           (octile_apart(q) >= AP_AUTO_AA_MIN_TILES && ((auto_point(q) && point_ends_ok(q)) || auto_disc(q)));
}

/* auto_begin for a long disc query auto_disc chose: the disc's graph (built now, on this worker, on the
 * radius's first queries, in three quarters of the time to the deadline each: ap_build_until) and
 * the ends' test at the graph's radius; false when either fails (the build did not finish in that time,
 * another thread took the table's room, or an end's clearance lies between the radius and the margin): the
 * grid answer then. */
static bool disc_graph_ready(ap_query *q, uint64_t deadline_ns)
{
    const ap_aa_graph *g = ap_aa_table_graph_until(q->map, q->unit_radius + AP_AUTO_AA_DISC_MARGIN, 0.0,
                                                  ap_build_until(deadline_ns));
    if (g == NULL || !g->space.line_ok(g->space.ctx, q->sx, q->sy, q->sx, q->sy) ||
        !g->space.line_ok(g->space.ctx, q->gx, q->gy, q->gx, q->gy))
        return false;
    q->aa_margin = AP_AUTO_AA_DISC_MARGIN;
    return true;
}

/* A long query of a sized disc, smoothed, on a uniform-cost map with an HAA* graph and a clearance class for
 * the disc: hierarchical is faster there than Annotated A* (BENCHMARKS.md "Hierarchical (HAA*)": the two
 * break even at an optimum of about 100 tiles on the DAO maps, so from AP_AUTO_HIER_MIN_TILES (algorithms.h)
 * of octile distance, which is at most the optimum, hierarchical wins). Smoothing is required because its
 * unsmoothed path can be a few percent longer than A*'s (within 1 % once smoothed); a weighted map's
 * transitions ignore costs (up to 11 % longer measured), so those keep A*. */

static bool auto_hier(const ap_query *q)
{
    const ap_map *m = qmap(q);
    if (q->unit_size > 0 || q->connectivity != 8 || q->smoothing == AP_SMOOTH_NONE || m->weighted ||
        !ap_query_is_sized(q))
        return false;
    const ap_hier *h = ap_hier_of(m);
    return h != NULL && ap_hier_class_of(h, q->unit_radius) > 0 && octile_apart(q) >= AP_AUTO_HIER_MIN_TILES;
}

/* A sized unit (a disc that does not fit every grid move, a square of side 2 or more) on a uniform-cost
 * map, 8-connected, whose key has JPS+ tables (jps_sized.h): JPS+ over the unit's grid, the same optimum as
 * Annotated A* in a few microseconds (BENCHMARKS.md "JPS and JPS+ for discs"), and faster than hierarchical
 * at every distance. auto builds a key's tables itself (on the query's worker, in ap_build_until of each
 * first query's deadline, online JPS until they are done) only on
 * maps of at most AP_AUTO_JPS_BUILD_CELLS padded cells, where that costs 15-20 ms at 256^2 and 70-250 ms at
 * 512^2 once per key and map version (measured 2026-12-03: the first auto query of a square or a disc on
 * 8room_000 and random512-10-0 took 0.15-0.25 s; the 5-25 ms noted when this was chosen held for smaller or
 * more blocked maps); on larger maps (0.2-0.3 s at 1024^2, again after every tile update) it uses tables an
 * explicit jps or jps_plus query has built, and Annotated A* or hierarchical until then. */
#define AP_AUTO_JPS_BUILD_CELLS (514u * 514u)

static bool auto_unit_jps(const ap_query *q)
{
    uint16_t key;
    const ap_clearance_table *t = unit_key(q, &key);
    if (t == NULL || q->connectivity != 8 || qmap(q)->weighted)
        return false;
    if (ap_jps_sized_find(qmap(q), t, key) != NULL)
        return true;
    return ap_map_node_count(qmap(q)) <= AP_AUTO_JPS_BUILD_CELLS && ap_jps_sized_ready(qmap(q), t, key);
}

static const ap_algorithm_row *auto_grid_row(const ap_query *q)
{
    if (auto_unit_jps(q))
        return ap_algorithm_row_of(AP_ALG_JPS_PLUS);
    if (auto_hier(q))
        return ap_algorithm_row_of(AP_ALG_HIERARCHICAL);
    return ap_algorithm_row_of(q->connectivity == 8 && !qmap(q)->weighted && !ap_query_is_sized(q) ? AP_ALG_JPS_PLUS
                                                                                                : AP_ALG_ASTAR);
}

static int auto_begin(ap_plan *p, const ap_algorithm_row *row, ap_workspace *ws)
{
    const bool disc = p->q.unit_radius > 0.0 && p->q.circles == NULL && p->q.n_obstacles == 0;
    if (ap_query_auto_may_anyangle(&p->q) && (!disc || disc_graph_ready(&p->q, p->deadline_ns))) {
        p->row = row = ap_algorithm_row_of(AP_ALG_ANY_ANGLE);
        p->kind = row->kind;
        return p->kind->begin(p, row, ws);
    }
    if (auto_point_query(&p->q)) /* short, or no point graph: JPS+ and taut for (nearly) the shortest path */
        p->q.smoothing = AP_SMOOTH_TAUT;
    if (!auto_turns(&p->q))
        p->row = row = auto_grid_row(&p->q);
    p->kind = auto_turns(&p->q) ? TURNS : row->kind;
    return p->kind->begin(p, row, ws);
}

/* auto hands every plan to another kind in begin, so only begin is ever called through this table. */
const ap_plan_kind ap_plan_kind_auto = {"auto", auto_begin, NULL,  NULL,  NULL, NULL,
                                       false,  false,      false, false, NULL, NULL};

/* The row whose kind runs q's plan: its algorithm's, or for auto the one auto_begin hands over to (any_angle;
 * the hybrid's for a turning unit, whose plan kind auto's turning plan is; auto_grid_row's). NULL for an
 * algorithm q does not name or a query without a world. One resolution for the kind, the routing and the
 * table look-ups below, which each asked auto's questions again (on the HTTP thread for every query). */
static const ap_algorithm_row *run_row(const ap_query *q)
{
    const ap_algorithm_row *row = ap_algorithm_row_of(q->algorithm);
    if (row == NULL || (q->map == NULL && q->circles == NULL))
        return NULL;
    if (row->kind != &ap_plan_kind_auto)
        return row;
    if (ap_query_auto_may_anyangle(q))
        return ap_algorithm_row_of(AP_ALG_ANY_ANGLE);
    return auto_turns(q) ? ap_algorithm_row_of(AP_ALG_HYBRID) : auto_grid_row(q);
}

const ap_plan_kind *ap_algorithm_kind(const ap_query *q)
{
    const ap_algorithm_row *row = run_row(q);
    return row != NULL ? row->kind : NULL;
}

/* Are a sized unit's JPS+ tables for q's key still to be built (jps_sized.h), with room for them? */
static bool sized_jps_builds(const ap_query *q)
{
    uint16_t key;
    const ap_clearance_table *t = unit_key(q, &key);
    return t != NULL && ap_jps_sized_find(qmap(q), t, key) == NULL && ap_jps_sized_ready(qmap(q), t, key);
}

/* ap_query_builds_table for q whose plan runs row (run_row(q), may be NULL): a sized unit's JPS+ tables
 * (jps, jps_plus, auto's jps_plus), a disc's or turning unit's any_angle graph under make_graph's key
 * (plan_anyangle.c), or under disc_graph_ready's for auto's any_angle. */
static bool row_builds_table(const ap_query *q, const ap_algorithm_row *row)
{
    if (row == NULL || q->map == NULL || q->circles != NULL || q->n_obstacles > 0)
        return false;
    if (row->kind == &ap_plan_kind_anyangle) {
        if (q->algorithm == AP_ALG_AUTO) /* a point unit's table is built at load */
            return q->unit_radius > 0.0 && ap_aa_table_would_build(q->map, q->unit_radius + AP_AUTO_AA_DISC_MARGIN, 0.0);
        const bool turning = q->turning_radius > 0.0;
        const double r = turning ? ap_aa_turn_clearance(q->unit_radius) : q->unit_radius + q->aa_margin;
        const double grow = turning ? ap_aa_turn_radius(q->unit_radius, q->turning_radius) - r : 0.0;
        return ap_aa_table_would_build(q->map, r, grow);
    }
    return (row->id == AP_ALG_JPS || row->id == AP_ALG_JPS_PLUS) && sized_jps_builds(q);
}

bool ap_query_builds_table(const ap_query *q)
{
    return row_builds_table(q, run_row(q));
}

bool ap_query_slice_is_cheap(const ap_query *q)
{
    const ap_algorithm_row *row = run_row(q);
    return row != NULL && row->kind->cheap_slice && q->turning_radius == 0.0 && !row_builds_table(q, row);
}

/* Is the unit profile a legal-turn query of row `row` needs first (plan_dir.c: Directional-N's own, with
 * reverse when the unit reverses; the hybrid's Smoothing48 (its Directional8 profile only comes into play
 * where the smoothing fails), or Directional24 with reverse for a reversing unit or a weighted map, as the
 * hybrid then runs) missing from its cache? */
static bool turn_profile_missing(const ap_query *q, const ap_algorithm_row *row)
{
    ap_profile_cache *c = q->profiles ? q->profiles : ap_profile_cache_default();
    const int H = q->headings == AP_HEADINGS_FINE ? AP_HEADINGS_FINE : AP_HEADINGS_COARSE;
    ap_profile_key k = {q->unit_radius, q->turning_radius, H, row->variant, q->reverse};
    if (row->variant == 0) { /* hybrid, or auto for a turning unit */
        if (q->reverse || q->map->weighted) {
            k.neighbours = 24;
            return !ap_profile_cache_has(c, &k);
        }
        k.neighbours = 48;
        k.reverse = false;
        return !ap_profile_cache_has(c, &k);
    }
    return !ap_profile_cache_has(c, &k);
}

bool ap_query_setup_is_heavy(const ap_query *q)
{
    const ap_algorithm_row *row = run_row(q);
    if (row == NULL || q->map == NULL)
        return false;
    const ap_plan_kind *k = row->kind;
    if (k == &ap_plan_kind_turns)
        return hypot(q->gx - q->sx, q->gy - q->sy) >= AP_PLAN_HEAVY_CORRIDOR_TILES || turn_profile_missing(q, row);
    if (k == &ap_plan_kind_kino)
        return q->zone == NULL && ap_kino_lattice_cells(q->map, q->sx, q->sy, q->gx, q->gy, q->turning_radius) >
                                      AP_PLAN_HEAVY_LATTICE_CELLS;
    return row_builds_table(q, row);
}
