/* plan_grid.c — the grid plan kind (plan_kind.h): a grid-domain algorithm's search (its row's domain_init:
 * the grid for astar, jump points for jps and jps_plus, or a caller's), then the path Pinter builds from
 * it: cell waypoints, smoothing, turning-radius curves, the clearance verdict.
 *
 * Sources: Pinter, "Toward More Realistic Pathfinding": "Smoothing the A* Path" (Listing 1), "Adding
 * Realistic Turns" (Figures 5-6), "Legal Turns: The Basic Methods" ("ignoring blocked tiles": curves are
 * added after the search and only reported by `clear`).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../geom/curve.h"
#include "../world/clearance.h"
#include "../grid/grid.h"
#include "../world/grid_world.h"
#include "algorithms.h"
#include "plan_kind.h"
#include "plan_steps.h"
#include "smooth.h"

static void bind(ap_plan *p, ap_workspace *ws)
{
    if (p->row->bind != NULL)
        p->row->bind(&p->dom_ctx, ws); /* e.g. JPS reads arrival directions from this workspace's parents */
}

/* The cells around cell `node` (its 8 neighbours, 4 for a 4-connected search, which takes no diagonal step;
 * with `own`, node itself first) whose centre holds the disc of radius r (table t) and is joined to the
 * point (px, py) by a line the disc sweeps clear: the cells an end at that point may leave from or arrive
 * at (ap_plan_grid_ends_fit's rule), into out; returns the count (0 .. 9). */
static int serving_cells(const ap_plan *p, const ap_clearance_table *t, uint32_t node, double px, double py,
                         bool own, uint32_t out[9])
{
    const ap_map *m = p->q.map;
    int32_t x, y;
    ap_map_coords(m, node, &x, &y);
    int n = 0;
    for (int k = own ? -1 : 0; k < 9; k++) {
        const int dx = k < 0 ? 0 : k % 3 - 1, dy = k < 0 ? 0 : k / 3 - 1;
        const int32_t nx = x + dx, ny = y + dy;
        if ((k >= 0 && dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= m->width || ny >= m->height ||
            (dx != 0 && dy != 0 && p->q.connectivity != 8))
            continue;
        const uint32_t c = ap_map_index(m, nx, ny);
        if (ap_clearance_allows(t->disc[c], p->q.unit_radius) &&
            ap_plan_unit_line_clear(&p->q, px, py, nx + 0.5, ny + 0.5))
            out[n++] = c;
    }
    return n;
}

/* The neighbour of cell `node` serving the point (px, py) (serving_cells) nearest to the other end's cell
 * `other` by line length plus octile distance; UINT32_MAX when none is. */
static uint32_t snap_cell(const ap_plan *p, const ap_clearance_table *t, uint32_t node, double px, double py,
                          uint32_t other)
{
    const ap_map *m = p->q.map;
    uint32_t c[9];
    const int n = serving_cells(p, t, node, px, py, false, c);
    int32_t ox, oy;
    ap_map_coords(m, other, &ox, &oy);
    uint32_t best = UINT32_MAX;
    double best_d = INFINITY;
    for (int i = 0; i < n; i++) {
        int32_t nx, ny;
        ap_map_coords(m, c[i], &nx, &ny);
        const double d = hypot(nx + 0.5 - px, ny + 0.5 - py) + ap_octile(ox - nx, oy - ny);
        if (d < best_d) {
            best = c[i];
            best_d = d;
        }
    }
    return best;
}

/* True when the disc swept from the point (px, py) to the centre of its cell `node` is clear. */
static bool centre_line_clear(const ap_plan *p, uint32_t node, double px, double py)
{
    double cx, cy;
    ap_plan_node_centre(&p->q, node, &cx, &cy);
    return ap_plan_unit_line_clear(&p->q, px, py, cx, cy);
}

int ap_plan_grid_ends_fit(ap_plan *p)
{
    /* A disc that overlaps an obstacle at its start or goal point cannot stand there, whatever the search
     * (any_angle and the legal-turn kinds refuse it alike): for every radius, since a small disc's grid moves
     * are all clear but its ends off a cell's centre need not be. */
    const int st = ap_plan_ends_fit(p, false);
    if (st != AP_OK)
        return st;
    const ap_clearance_table *t = ap_query_disc_table(&p->q);
    if (t == NULL || p->start_node == p->goal_node) /* one cell: the line between the points, no search */
        return AP_OK;
    uint32_t *node[2] = {&p->start_node, &p->goal_node};
    bool *snapped[2] = {&p->start_snapped, &p->goal_snapped};
    const double pt[2][2] = {{p->q.sx, p->q.sy}, {p->q.gx, p->q.gy}};
    for (int i = 0; i < 2; i++) {
        const uint32_t cell = p->end_cell[i] = *node[i];
        const bool centre_fits = ap_clearance_allows(t->disc[cell], p->q.unit_radius);
        if (centre_fits && centre_line_clear(p, cell, pt[i][0], pt[i][1]))
            continue;
        /* The unit fits at the point, not at its cell's centre (off-centre, beside a wall), or not on the line
         * between them (near a corner the swept disc dips a little below both ends' clearance): the grid
         * search starts (ends) at a neighbour cell it fits, joined to the point by a clear line. */
        const uint32_t n = snap_cell(p, t, cell, pt[i][0], pt[i][1], *node[1 - i]);
        if (n != UINT32_MAX) {
            *node[i] = n;
            *snapped[i] = true;
            continue;
        }
        if (centre_fits) /* no neighbour does better: the cell's own centre (the verdict reports the line) */
            continue;
        /* auto chose the grid for this long query, and may choose any_angle for the same query later (once
         * the map's disc graph is built), which starts and ends at the points themselves: it does not refuse
         * what the disc at the point fits (its search answers no_path). */
        if (p->q.algorithm == AP_ALG_AUTO && ap_query_auto_may_anyangle(&p->q))
            continue;
        int32_t x, y;
        ap_map_coords(p->q.map, cell, &x, &y);
        p->field = i == 0 ? "start" : "goal";
        snprintf(p->message, sizeof p->message,
                 "\"%s\": cell (%d, %d) is too narrow for the unit's disc (radius %.10g; clearance %g tiles, which "
                 "a disc fits with more than %g to spare)", p->field, (int)x, (int)y, p->q.unit_radius,
                 ap_clearance_level_tiles[t->disc[cell]], AP_CLEARANCE_TOUCH);
        return i == 0 ? AP_E_START_BLOCKED : AP_E_GOAL_BLOCKED;
    }
    return AP_OK;
}

bool ap_plan_grid_decided(ap_plan *p, const ap_algorithm_row *row)
{
    p->alg = row->id;
    const int st = ap_plan_grid_ends_fit(p);
    if (st != AP_OK || p->start_node == p->goal_node) { /* refused; or one cell, or both ends moved to one */
        p->state = st;
        return true;
    }
    return false;
}

static int grid_begin(ap_plan *p, const ap_algorithm_row *row, ap_workspace *ws)
{
    if (ap_plan_grid_decided(p, row))
        return p->state;
    int st = row->domain_init(&p->dom_ctx, &p->dom, &p->q, p->goal_node, p->deadline_ns);
    if (st != AP_OK)
        return p->state = st;
    bind(p, ws);
    return ap_plan_start_search(p, ws);
}

/* The cells end i (0 start, 1 goal) of a sized disc's grid search may take (serving_cells around the end's
 * own cell, itself included), the cell the plan took first, into out; returns the count (1 .. 9). */
static uint8_t end_candidates(const ap_plan *p, const ap_clearance_table *t, int i, uint32_t out[9])
{
    const double px = i == 0 ? p->q.sx : p->q.gx, py = i == 0 ? p->q.sy : p->q.gy;
    uint32_t c[9];
    const int n = serving_cells(p, t, p->end_cell[i], px, py, true, c);
    uint8_t k = 0;
    out[k++] = i == 0 ? p->start_node : p->goal_node;
    for (int j = 0; j < n; j++)
        if (c[j] != out[0])
            out[k++] = c[j];
    return k;
}

/* Whether the n candidate cells c of an end are one group by the disc's own grid moves between them
 * (clearance.h ap_clearance_move, the domain's rule; diagonals only 8-connected): then every one shares the
 * component of the one searched, and the search's no_path holds for all of them. */
static bool candidates_joined(const ap_plan *p, const ap_clearance_table *t, const uint32_t *c, int n)
{
    const ap_map *m = p->q.map;
    uint16_t joined = 1; /* bit i: candidate i is joined to candidate 0 */
    for (bool grew = true; grew;) {
        grew = false;
        for (int i = 0; i < n; i++) {
            if (!(joined & (1u << i)))
                continue;
            int32_t xi, yi;
            ap_map_coords(m, c[i], &xi, &yi);
            for (int j = 0; j < n; j++) {
                int32_t xj, yj;
                ap_map_coords(m, c[j], &xj, &yj);
                const int dx = xj - xi, dy = yj - yi;
                if ((joined & (1u << j)) || abs(dx) > 1 || abs(dy) > 1 || (dx != 0 && dy != 0 && p->q.connectivity != 8))
                    continue;
                if (ap_clearance_allows(ap_clearance_move(t, c[i], dx, dy), p->q.unit_radius)) {
                    joined |= (uint16_t)(1u << j);
                    grew = true;
                }
            }
        }
    }
    return joined == (uint16_t)((1u << n) - 1);
}

/* A new A* search (Annotated A* for the disc, algorithms.c's astar row) from start candidate k to goal
 * candidate j on the workspace the last search ran on. */
static int search_ends(ap_plan *p, int k, int j)
{
    ap_workspace *ws = p->search.ws;
    p->expanded_before += p->search.expanded;
    p->start_node = p->end_cand[0][k];
    p->goal_node = p->end_cand[1][j];
    p->start_snapped = p->start_node != p->end_cell[0];
    p->goal_snapped = p->goal_node != p->end_cell[1];
    const int st = p->row->domain_init(&p->dom_ctx, &p->dom, &p->q, p->goal_node, p->deadline_ns);
    return st != AP_OK ? (p->state = st) : ap_plan_start_search(p, ws);
}

/* After a search of a sized disc ended (p->state): where it found no path but an end could take another
 * cell (a neighbour holding the disc, joined to the point by a clear line) not joined to the one it took by
 * a move, the cell it took may lie in a pocket the others do not (a helper's map: a start beside a two-cell
 * dead end answered `unreachable`). So: A* floods from the start candidates, each to exhaustion (its reached nodes are the candidate's
 * component, so each floods another component: at most one whole map in all), until one reaches a goal
 * candidate; the answer is then A*'s path from it to the reached goal candidate nearest by its cost plus
 * the line to the point. Only when none does is no_path proven. Returns the new state (AP_IN_PROGRESS with
 * a search begun). */
static int other_ends(ap_plan *p)
{
    const int st = p->state;
    if (p->ends_phase == 2 || (st != AP_NO_PATH && !(st == AP_OK && p->ends_phase == 1)))
        return st;
    if (p->ends_phase == 0) {
        const ap_clearance_table *t = ap_query_disc_table(&p->q);
        if (t == NULL || p->q.unit_size > 1)
            return st;
        p->n_end_cand[0] = end_candidates(p, t, 0, p->end_cand[0]);
        p->n_end_cand[1] = end_candidates(p, t, 1, p->end_cand[1]);
        if (candidates_joined(p, t, p->end_cand[0], p->n_end_cand[0]) &&
            candidates_joined(p, t, p->end_cand[1], p->n_end_cand[1]))
            return st; /* the common case: no other component to try */
        p->ends_phase = 1;
        p->ends_k = 0;
        p->ends_reached = 1;
        const ap_algorithm_row *astar = ap_algorithm_row_of(AP_ALG_ASTAR);
        if (p->row != astar) { /* jump points: not every node it reached was marked; flood again */
            p->row = astar;    /* floods whose reached nodes are whole components */
            return search_ends(p, 0, 0);
        }
        /* A* from the first candidates ran to exhaustion: that search is the first flood */
    }
    if (st == AP_OK) { /* the flood reached the first goal candidate: its path is the answer */
        p->ends_phase = 2;
        return st;
    }
    const ap_search *s = &p->search;
    int best = -1;
    double best_d = INFINITY;
    const double gx = p->q.gx, gy = p->q.gy;
    for (int j = 1; j < p->n_end_cand[1]; j++) {
        double cx, cy;
        ap_plan_node_centre(&p->q, p->end_cand[1][j], &cx, &cy);
        const double d = ap_search_g(s, p->end_cand[1][j]) + hypot(gx - cx, gy - cy);
        if (d < best_d) {
            best = j;
            best_d = d;
        }
    }
    if (best >= 0) {
        p->ends_phase = 2;
        return search_ends(p, p->ends_k, best);
    }
    for (int k = p->ends_k + 1; k < p->n_end_cand[0]; k++)
        if (ap_search_g(s, p->end_cand[0][k]) < INFINITY)
            p->ends_reached |= (uint16_t)(1u << k);
    while (++p->ends_k < p->n_end_cand[0])
        if (!(p->ends_reached & (1u << p->ends_k)))
            return search_ends(p, p->ends_k, 0);
    return p->state = AP_NO_PATH; /* no start candidate's component holds a goal candidate: unreachable */
}

/* The search's slice; where other_ends begins another search, it runs in the same slice, within the same
 * max_expansions (0 = no limit: the step ends the plan, as callers of a grid kind expect). */
static int grid_step(ap_plan *p, uint64_t max_expansions)
{
    uint64_t left = max_expansions;
    for (;;) {
        const uint64_t before = p->search.expanded;
        if (ap_plan_search_step(p, left) == AP_IN_PROGRESS)
            return AP_IN_PROGRESS;
        const uint64_t spent = p->search.expanded - before;
        if (other_ends(p) != AP_IN_PROGRESS)
            return p->state;
        if (left != 0) {
            if (spent >= left)
                return p->state;
            left -= spent;
        }
    }
}

static int grid_move(ap_plan *p, ap_workspace *ws)
{
    bind(p, ws);
    return ap_plan_search_move(p, ws);
}

/* The grid path as cell ids, copied out of the workspace (which will be reused); every cell in between
 * when the search's nodes skip some (jump points), so waypoints and smoothing see A*'s kind of path. */
static int grid_cells(ap_plan *p, uint32_t **out, size_t *n)
{
    uint32_t *nodes = ap_plan_path_nodes(&p->search, n);
    if (nodes == NULL)
        return AP_E_NOMEM;
    if (p->row->expand_path != NULL) {
        const ap_map *m = p->q.map;
        size_t full = p->row->expand_path(m, nodes, *n, NULL, 0);
        uint32_t *cells = full > 0 ? malloc(full * sizeof *cells) : NULL;
        if (cells == NULL) {
            free(nodes);
            return full > 0 ? AP_E_NOMEM : AP_E_INTERNAL;
        }
        p->row->expand_path(m, nodes, *n, cells, full);
        free(nodes);
        nodes = cells;
        *n = full;
    }
    *out = nodes;
    return AP_OK;
}

int ap_plan_grid_finish(ap_plan *p, ap_result *r)
{
    size_t n = 1;
    uint32_t *nodes = NULL;
    if (p->has_search) {
        int st = grid_cells(p, &nodes, &n);
        if (st != AP_OK)
            return st;
        r->grid_cost = p->search.cost;
    }
    int st = ap_plan_cells_finish(p, r, nodes, n);
    free(nodes);
    return st;
}

/* Whether the path leaves the start point (or, start false, reaches the goal point) through its end cell's
 * centre (cx, cy; a square unit's footprint centre), which cell waypoints leave out: always for a snapped
 * end (ap_plan_grid_ends_fit), and for a disc or square whose line from the point straight to the next
 * waypoint (nx, ny) is not clear while the line to that centre is (near a corner a line inside the free
 * cells can pass closer to it than both its ends; the disc of a radius below 1/2 always clears the line to
 * its cell's centre, ap_plan_grid_ends_fit has checked the larger discs', and a square clear at the point
 * sweeps only cells it already covers on its way to its footprint's centre). */
static bool end_via_centre(const ap_plan *p, bool start, double cx, double cy, double nx, double ny)
{
    if (start ? p->start_snapped : p->goal_snapped)
        return true;
    const ap_query *q = &p->q;
    if (!(q->unit_radius > 0.0) && q->unit_size == 0)
        return false;
    const double px = start ? q->sx : q->gx, py = start ? q->sy : q->gy;
    return !ap_plan_unit_line_clear(q, px, py, nx, ny) && ap_plan_unit_line_clear(q, px, py, cx, cy);
}

/* The end cells' centres as waypoints after the start point and before the goal point where the path needs
 * them (end_via_centre), never twice in a row (the next waypoint already that centre: a goal at it, both ends
 * in one cell). */
static int insert_end_centres(const ap_plan *p, ap_result *r)
{
    double(*w)[2] = realloc(r->waypoints, (r->n_waypoints + 2) * sizeof *w);
    if (w == NULL)
        return AP_E_NOMEM;
    r->waypoints = w;
    size_t n = r->n_waypoints;
    double cx, cy;
    ap_plan_node_centre(&p->q, p->start_node, &cx, &cy);
    if ((w[1][0] != cx || w[1][1] != cy) && end_via_centre(p, true, cx, cy, w[1][0], w[1][1])) {
        memmove(w + 2, w + 1, (n - 1) * sizeof *w);
        w[1][0] = cx;
        w[1][1] = cy;
        n++;
    }
    ap_plan_node_centre(&p->q, p->goal_node, &cx, &cy);
    if ((w[n - 2][0] != cx || w[n - 2][1] != cy) && end_via_centre(p, false, cx, cy, w[n - 2][0], w[n - 2][1])) {
        w[n][0] = w[n - 1][0];
        w[n][1] = w[n - 1][1];
        w[n - 1][0] = cx;
        w[n - 1][1] = cy;
        n++;
    }
    r->n_waypoints = n;
    return AP_OK;
}

int ap_plan_cells_finish(const ap_plan *p, ap_result *r, const uint32_t *nodes, size_t n)
{
    const ap_query *q = &p->q;
    r->waypoints = ap_plan_cell_waypoints(q, nodes, n, &r->n_waypoints);
    if (r->waypoints == NULL)
        return AP_E_NOMEM;
    if (q->map != NULL && insert_end_centres(p, r) != AP_OK)
        return AP_E_NOMEM;

    if (q->smoothing != AP_SMOOTH_NONE) {
        /* On a weighted map a shortcut may only cross the cheapest terrain: a straight line over cells of
         * cost_min never costs more than the cells it replaces, whatever they were. */
        ap_world cheap; /* the map itself when it is uniform (grid_world.h); a square unit's world */
        double rad;
        ap_plan_world(q, true, &cheap, &rad);
        if (q->smoothing == AP_SMOOTH_TAUT && !(q->turning_radius > 0.0))
            r->n_waypoints = ap_smooth_taut(&cheap, &r->waypoints, r->n_waypoints, rad);
        else
            r->n_waypoints = ap_smooth_los(&cheap, r->waypoints, r->n_waypoints, rad);
    }

    ap_segment *segs = malloc(2 * (r->n_waypoints - 1) * sizeof *segs);
    if (segs == NULL)
        return AP_E_NOMEM;
    size_t ns = ap_curve_path((const double (*)[2])r->waypoints, r->n_waypoints, q->sheading,
                              q->has_sheading ? 1 : 0, q->turning_radius, segs, NULL);
    ap_plan_set_segments(r, q, segs, ns);
    return AP_OK;
}

const ap_plan_kind ap_plan_kind_grid = {"grid", grid_begin, grid_step, grid_move, ap_plan_grid_finish, NULL,
                                        true,   true,       false,      false,      NULL,
                                        NULL};
