/* query_check.c — the one validation pass over a query (ap_query_validate, plan.h): ranges and
 * combinations, the algorithm's acceptance (algorithms.h), and a message that says why. The wire format
 * (proto/wire.c) only parses types and shapes; every semantic rule lives here, with the field names.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../anyangle/graph.h"
#include "../grid/grid.h"
#include "../world/clearance.h"
#include "../world/square.h"
#include "../world/view.h"
#include "../world/zone.h"
#include "algorithms.h"
#include "fields.h"
#include "plan_kind.h"

static const char *const field_name[] = {
    [AP_QF_START] = "start",
    [AP_QF_GOAL] = "goal",
    [AP_QF_START_HEADING] = "start.heading",
    [AP_QF_GOAL_HEADING] = "goal.heading",
    [AP_QF_RADIUS] = "unit.radius",
    [AP_QF_TURNING] = "unit.turning_radius",
    [AP_QF_REVERSE_PENALTY] = "unit.reverse_penalty",
    [AP_QF_ART] = "unit.art_directions",
    [AP_QF_ALGORITHM] = "search.algorithm",
    [AP_QF_CONNECTIVITY] = "search.connectivity",
    [AP_QF_SMOOTHING] = "search.smoothing",
    [AP_QF_TURN_PENALTY] = "search.turn_penalty",
    [AP_QF_HEADINGS] = "search.headings",
    [AP_QF_SAMPLE_STEP] = "samples.step",
    [AP_QF_SAMPLE_DT] = "samples.dt",
    [AP_QF_OBSTACLES] = "obstacles",
    [AP_QF_CAPABILITY] = "unit.capability",
    [AP_QF_SIZE] = "unit.size",
    [AP_QF_START_SPEED] = "start.speed",
    [AP_QF_GOAL_SPEED] = "goal.speed",
    [AP_QF_TOL_POSITION] = "goal_tolerance.position",
    [AP_QF_TOL_HEADING] = "goal_tolerance.heading",
    [AP_QF_TOL_SPEED] = "goal_tolerance.speed",
    [AP_QF_MAX_EXPANSIONS] = "search.max_expansions",
    [AP_QF_MAX_SPEED] = "unit.max_speed",
    [AP_QF_MAX_REVERSE_SPEED] = "unit.max_reverse_speed",
    [AP_QF_WEIGHT] = "search.weight",
    [AP_QF_CORRIDOR_WIDTH] = "corridor.usable_width",
};

const char *ap_qfield_name(ap_qfield f)
{
    return field_name[f];
}

/* Record the refusal: field f, and the message (printf format) saying why. Returns status. */
static int refuse(ap_query_error *e, int status, ap_qfield f, const char *fmt, ...)
{
    e->field = field_name[f];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    return status;
}

/* `!(v >= lo && v <= hi)` also refuses NaN. */
static bool in_range(double v, double lo, double hi)
{
    return v >= lo && v <= hi;
}

/* Inside [0, w) x [0, h) for a grid ([0, w] x [0, h] for a circle world: closed). */
static bool on_world(double w, double h, bool closed, double x, double y)
{
    return isfinite(x) && isfinite(y) && x >= 0.0 && y >= 0.0 && (closed ? x <= w && y <= h : x < w && y < h);
}

const ap_map *ap_query_map(const ap_query *q)
{
    return q->map != NULL ? ap_map_view(q->map, q->capability) : NULL;
}

double ap_query_meters_per_tile(const ap_query *q)
{
    if (q->meters_per_tile > 0.0)
        return q->meters_per_tile;
    return q->map != NULL && q->map->meters_per_tile > 0.0 ? q->map->meters_per_tile : 1.0;
}

void ap_query_cell(const ap_query *q, double x, double y, int32_t *cx, int32_t *cy)
{
    const double off = q->unit_size > 1 ? 0.5 * (double)(q->unit_size - 1) : 0.0;
    *cx = (int32_t)floor(x - off);
    *cy = (int32_t)floor(y - off);
}

/* A square unit's start and goal: the footprint's anchor (ap_query_cell) on the map with its whole k x k
 * block inside the capability (true clearance >= k). */
static int check_square_points(const ap_query *q, ap_query_error *e)
{
    const ap_map *m = q->map;
    const int k = q->unit_size;
    const ap_clearance_table *t = ap_clearance_of(m, m->capability);
    if (t == NULL)
        return refuse(e, AP_E_INVALID_REQUEST, AP_QF_SIZE,
                      "this map has no clearance table for the unit's terrain (out of memory at load)");
    const double pt[2][2] = {{q->sx, q->sy}, {q->gx, q->gy}};
    const ap_qfield f[2] = {AP_QF_START, AP_QF_GOAL};
    const int blocked[2] = {AP_E_START_BLOCKED, AP_E_GOAL_BLOCKED};
    for (int i = 0; i < 2; i++) {
        int32_t ax, ay;
        ap_query_cell(q, pt[i][0], pt[i][1], &ax, &ay);
        bool fits = ax >= 0 && ay >= 0 && ax <= m->width - k && ay <= m->height - k &&
                    t->square[ap_map_index(m, ax, ay)] >= k;
        if (!fits)
            return refuse(e, blocked[i], f[i],
                          "\"%s\": the %d x %d footprint centred at (%g, %g) (cells %d..%d, %d..%d) is not inside "
                          "the unit's terrain", field_name[f[i]], k, k, ax + 0.5 * k, ay + 0.5 * k, (int)ax,
                          (int)ax + k - 1, (int)ay, (int)ay + k - 1);
        /* Off its footprint's centre the square covers part of the next row or column too: the unit is
         * where the point says (the path starts there), so that square must be clear as well. */
        if (!ap_square_line_clear(m, pt[i][0], pt[i][1], pt[i][0], pt[i][1], 0.5 * k)) {
            char x[32], y[32]; /* the point as given (%g turned 29.500000002 into an accepted 29.5) */
            return refuse(e, blocked[i], f[i],
                          "\"%s\": the %d x %d square centred at (%s, %s) overlaps a cell outside the unit's terrain "
                          "or the map's edge (its footprint, cells %d..%d, %d..%d, is inside)",
                          field_name[f[i]], k, k, ap_status_number(x, pt[i][0]), ap_status_number(y, pt[i][1]),
                          (int)ax, (int)ax + k - 1, (int)ay, (int)ay + k - 1);
        }
    }
    return AP_OK;
}

/* Start and goal both on the map (an off-map goal says so even when the start is blocked). Before the
 * algorithm's checks, which may read the points' cells (auto's choice measures their distance). */
static int check_on_world(const ap_query *q, ap_query_error *e)
{
    const ap_map *m = q->map;
    const ap_circle_world *cw = q->circles;
    const double w = m != NULL ? (double)m->width : ap_circle_world_width(cw);
    const double h = m != NULL ? (double)m->height : ap_circle_world_height(cw);
    const double pt[2][2] = {{q->sx, q->sy}, {q->gx, q->gy}};
    const ap_qfield f[2] = {AP_QF_START, AP_QF_GOAL};
    for (int i = 0; i < 2; i++) {
        if (!on_world(w, h, m == NULL, pt[i][0], pt[i][1])) {
            char x[32], y[32];
            return refuse(e, AP_E_OUT_OF_BOUNDS, f[i], "\"%s\" (%s, %s) is outside the map: x in [0, %g%s, y in [0, %g%s",
                          field_name[f[i]], ap_status_number(x, pt[i][0]), ap_status_number(y, pt[i][1]), w, m ? ")" : "]", h,
                          m ? ")" : "]");
        }
    }
    return AP_OK;
}

/* Start and goal on passable cells (for a square unit: its footprint inside the terrain; a circle world:
 * outside every obstacle, touching allowed as in the any-angle model). The last check: a request the
 * algorithm cannot take is invalid_request wherever its points are. */
static int check_passable(const ap_query *q, ap_query_error *e)
{
    const ap_map *m = q->map;
    const ap_circle_world *cw = q->circles;
    const double pt[2][2] = {{q->sx, q->sy}, {q->gx, q->gy}};
    const ap_qfield f[2] = {AP_QF_START, AP_QF_GOAL};
    const int blocked[2] = {AP_E_START_BLOCKED, AP_E_GOAL_BLOCKED};
    if (m != NULL && q->unit_size > 0)
        return check_square_points(q, e);
    for (int i = 0; i < 2; i++) {
        if (m == NULL) {
            if (!ap_circle_world_line_tol(cw, pt[i][0], pt[i][1], pt[i][0], pt[i][1], 0.0, -AP_CIRCLES_EPS))
                return refuse(e, blocked[i], f[i], "\"%s\" is inside an obstacle circle", field_name[f[i]]);
        } else if (!ap_map_passable(m, (int32_t)pt[i][0], (int32_t)pt[i][1]))
            return refuse(e, blocked[i], f[i], "\"%s\" is on a blocked cell (%d, %d)", field_name[f[i]],
                          (int)pt[i][0], (int)pt[i][1]);
    }
    return AP_OK;
}

/* The query's obstacles (plan.h): at most AP_MAX_OBSTACLES, each finite, inside AP_MAX_OBSTACLE_COORD, with
 * r in (0, AP_MAX_OBSTACLE_RADIUS]; the message names the circle ("obstacles[3].r"). */
static int check_obstacles(const ap_query *q, ap_query_error *e)
{
    const int bad = AP_E_INVALID_REQUEST;
    if (q->n_obstacles > AP_MAX_OBSTACLES)
        return refuse(e, bad, AP_QF_OBSTACLES, "at most %d \"obstacles\" per request", AP_MAX_OBSTACLES);
    for (size_t i = 0; i < q->n_obstacles; i++) {
        const ap_circle *c = &q->obstacles[i];
        if (!in_range(c->x, -AP_MAX_OBSTACLE_COORD, AP_MAX_OBSTACLE_COORD) ||
            !in_range(c->y, -AP_MAX_OBSTACLE_COORD, AP_MAX_OBSTACLE_COORD))
            return refuse(e, bad, AP_QF_OBSTACLES, "\"obstacles[%zu]\" centre must be finite, within %g of 0", i,
                          AP_MAX_OBSTACLE_COORD);
        if (!(c->r > 0.0 && c->r <= AP_MAX_OBSTACLE_RADIUS))
            return refuse(e, bad, AP_QF_OBSTACLES, "\"obstacles[%zu].r\" must be above 0 and at most %g", i,
                          AP_MAX_OBSTACLE_RADIUS);
    }
    return AP_OK;
}

/* Map-independent ranges of the unit and the start heading. */
static int check_unit(const ap_query *q, ap_query_error *e)
{
    const int bad = AP_E_INVALID_REQUEST;
    if (!in_range(q->unit_radius, 0.0, AP_MAX_UNIT_RADIUS))
        return refuse(e, bad, AP_QF_RADIUS, "\"unit.radius\" must be between 0 and %g", AP_MAX_UNIT_RADIUS);
    if (!(q->turning_radius == 0.0 || in_range(q->turning_radius, AP_MIN_TURNING_RADIUS, AP_MAX_TURNING_RADIUS)))
        return refuse(e, bad, AP_QF_TURNING, "\"unit.turning_radius\" must be 0 or between %g and %g",
                      AP_MIN_TURNING_RADIUS, AP_MAX_TURNING_RADIUS);
    if (q->has_sheading && !isfinite(q->sheading))
        return refuse(e, bad, AP_QF_START_HEADING, "\"start.heading\" must be a finite number");
    return AP_OK;
}

/* A square unit (unit.size): its range and what it cannot be combined with. Checked before the points,
 * which it changes the meaning of. */
static int check_size(const ap_query *q, ap_query_error *e)
{
    const int bad = AP_E_INVALID_REQUEST;
    if (q->unit_size == 0)
        return AP_OK;
    if (q->unit_size < 0 || q->unit_size > AP_MAX_UNIT_SIZE)
        return refuse(e, bad, AP_QF_SIZE, "\"unit.size\" must be an integer between 1 and %d", AP_MAX_UNIT_SIZE);
    if (q->unit_radius != 0.0)
        return refuse(e, bad, AP_QF_SIZE,
                      "give \"unit.size\" (a square unit of k x k cells) or \"unit.radius\" (a disc), not both");
    if (q->turning_radius != 0.0)
        return refuse(e, bad, AP_QF_SIZE,
                      "\"unit.size\" (a square unit, which moves on the grid) takes no \"unit.turning_radius\" "
                      "(legal turns need a disc): give 0");
    if (q->art_directions != 0)
        return refuse(e, bad, AP_QF_SIZE,
                      "\"unit.size\" (a square unit) takes no \"unit.art_directions\", which serve disc units only");
    if (q->map->weighted)
        return refuse(e, bad, AP_QF_SIZE,
                      "square units need uniform terrain costs for their capability (a footprint covers several "
                      "terrains); this map or capability has terrain costs");
    return AP_OK;
}

/* The search options every algorithm is checked on (0 = the default where plan.h says so). */
static int check_search(const ap_query *q, ap_query_error *e)
{
    const int bad = AP_E_INVALID_REQUEST;
    if (q->art_directions != 0 && q->art_directions != AP_ART_COARSE && q->art_directions != AP_ART_FINE)
        return refuse(e, bad, AP_QF_ART, "\"unit.art_directions\" must be %d or %d", AP_ART_COARSE, AP_ART_FINE);
    if (q->headings != 0 && q->headings != AP_HEADINGS_COARSE && q->headings != AP_HEADINGS_FINE)
        return refuse(e, bad, AP_QF_HEADINGS, "\"search.headings\" must be %d or %d", AP_HEADINGS_COARSE,
                      AP_HEADINGS_FINE);
    if (q->reverse_penalty != 0.0 && !in_range(q->reverse_penalty, AP_MIN_REVERSE_PENALTY, AP_MAX_REVERSE_PENALTY))
        return refuse(e, bad, AP_QF_REVERSE_PENALTY, "\"unit.reverse_penalty\" must be between %g and %g",
                      AP_MIN_REVERSE_PENALTY, AP_MAX_REVERSE_PENALTY);
    if (!in_range(q->turn_penalty, 0.0, AP_MAX_TURN_PENALTY))
        return refuse(e, bad, AP_QF_TURN_PENALTY, "\"search.turn_penalty\" must be between 0 and %g",
                      AP_MAX_TURN_PENALTY);
    if (q->has_gheading && !isfinite(q->gheading))
        return refuse(e, bad, AP_QF_GOAL_HEADING, "\"goal.heading\" must be a finite number");
    if (q->connectivity != 4 && q->connectivity != 8)
        return refuse(e, bad, AP_QF_CONNECTIVITY, "\"search.connectivity\" must be 4 or 8");
    if (q->smoothing != AP_SMOOTH_NONE && q->smoothing != AP_SMOOTH_LOS && q->smoothing != AP_SMOOTH_TAUT)
        return refuse(e, bad, AP_QF_SMOOTHING, "\"search.smoothing\" must be one of: none, los, taut");
    if (!isfinite(q->sample_step) || (q->sample_step != 0.0 && !(q->sample_step >= AP_MIN_SAMPLE_STEP)))
        return refuse(e, bad, AP_QF_SAMPLE_STEP, "\"samples.step\" must be at least %g", AP_MIN_SAMPLE_STEP);
    if (!isfinite(q->sample_dt) || q->sample_dt < 0.0)
        return refuse(e, bad, AP_QF_SAMPLE_DT, "\"samples.dt\" must be a finite number of seconds above 0");
    if (q->sample_dt > 0.0 && q->sample_step > 0.0)
        return refuse(e, bad, AP_QF_SAMPLE_DT, "give one of \"samples.step\" (tiles) and \"samples.dt\" (seconds)");
    return AP_OK;
}

/* The vehicle of a kinodynamic or timed query: its limits (each finite and in [AP_MIN_KINO_LIMIT,
 * AP_MAX_KINO_SPEED / AP_MAX_KINO_ACCEL]: vehicle.h) and the start and goal speeds within [0, max_speed]. */
static int check_vehicle(const ap_query *q, ap_query_error *e)
{
    const int bad = AP_E_INVALID_REQUEST;
    const ap_vehicle *v = &q->vehicle;
    /* each limit finite and at least AP_MIN_KINO_LIMIT (ap_vehicle_check; the last two may be 0 inside: "this
     * kind cannot", a request never gives 0) and at most its maximum */
    static const struct {
        const char *field;
        size_t off;
        double max;
    } lim[] = {
        {"unit.max_speed", offsetof(ap_vehicle, max_speed), AP_MAX_KINO_SPEED},
        {"unit.max_accel", offsetof(ap_vehicle, max_accel), AP_MAX_KINO_ACCEL},
        {"unit.max_brake", offsetof(ap_vehicle, max_brake), AP_MAX_KINO_ACCEL},
        {"unit.max_lateral_accel", offsetof(ap_vehicle, max_lateral_accel), AP_MAX_KINO_ACCEL},
        {"unit.max_reverse_speed", offsetof(ap_vehicle, max_reverse_speed), AP_MAX_KINO_SPEED},
        {"unit.max_turn_rate", offsetof(ap_vehicle, max_turn_rate), AP_MAX_KINO_TURN_RATE},
    };
    const char *f = ap_vehicle_check(v);
    for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++) {
        double x;
        memcpy(&x, (const char *)v + lim[i].off, sizeof x);
        if (f == NULL && x > lim[i].max)
            f = lim[i].field;
        if (f != NULL && strcmp(f, lim[i].field) == 0) {
            e->field = f;
            snprintf(e->message, sizeof e->message, "\"%s\" must be a finite number in [%g, %g]", f,
                     AP_MIN_KINO_LIMIT, lim[i].max);
            return bad;
        }
    }
    if (q->reverse && !(v->max_reverse_speed > 0.0))
        return refuse(e, bad, AP_QF_MAX_REVERSE_SPEED,
                      "unit.reverse needs \"unit.max_reverse_speed\" above 0 (this unit kind sets none)");
    if (!in_range(q->start_speed, 0.0, v->max_speed))
        return refuse(e, bad, AP_QF_START_SPEED, "\"start.speed\" must be between 0 and unit.max_speed (%g m/s)",
                      v->max_speed);
    if (!in_range(q->goal_speed, 0.0, v->max_speed))
        return refuse(e, bad, AP_QF_GOAL_SPEED, "\"goal.speed\" must be between 0 and unit.max_speed (%g m/s)",
                      v->max_speed);
    return AP_OK;
}

/* Other kinds than kinodynamic: a timed query (q->timed: the request named vehicle limits) gets the speed
 * profile along its answer (ap_plan_timing), so its vehicle is checked and start.speed, goal.speed and
 * samples.dt apply; without vehicle limits those are refused, and the kinodynamic-only fields always are
 * (q->kino_field). */
static int check_timed(const ap_query *q, ap_query_error *e)
{
    const int bad = AP_E_INVALID_REQUEST;
    if (q->timed) {
        int st = check_vehicle(q, e);
        if (st != AP_OK)
            return st;
    } else if (q->speed_field != NULL) {
        e->field = q->speed_field;
        snprintf(e->message, sizeof e->message, "\"%s\" needs vehicle limits (a vehicle \"unit.kind\" such as "
                 "\"car\", or unit.max_speed) or search.algorithm \"kinodynamic\"", q->speed_field);
        return bad;
    }
    if (q->sample_dt > 0.0 && !q->timed)
        return refuse(e, bad, AP_QF_SAMPLE_DT, "\"samples.dt\" needs an answer with timing: vehicle limits (a "
                      "vehicle \"unit.kind\" such as \"car\", or unit.max_speed) or search.algorithm "
                      "\"kinodynamic\" (use \"samples.step\" for this one)");
    if (q->kino_field == NULL)
        return AP_OK;
    e->field = q->kino_field;
    snprintf(e->message, sizeof e->message, "\"%s\" applies to search.algorithm \"kinodynamic\"", q->kino_field);
    return bad;
}

/* A kinodynamic query (plan_kino.c): the vehicle (check_vehicle), tolerances > 0 (0 = the default), the
 * expansion cap, the weight in [1, AP_MAX_KINO_WEIGHT] (0 = 1); art is refused (it would break the timing). Other kinds: check_timed. */
static int check_kino(const ap_query *q, const ap_plan_kind *k, ap_query_error *e)
{
    const int bad = AP_E_INVALID_REQUEST;
    if (k != &ap_plan_kind_kino)
        return check_timed(q, e);
    int st = check_vehicle(q, e);
    if (st != AP_OK)
        return st;
    if (!in_range(q->tol_position, 0.0, AP_MAX_TOL_POSITION))
        return refuse(e, bad, AP_QF_TOL_POSITION, "\"goal_tolerance.position\" must be above 0 and at most %g",
                      AP_MAX_TOL_POSITION);
    if (!in_range(q->tol_heading, 0.0, M_PI))
        return refuse(e, bad, AP_QF_TOL_HEADING, "\"goal_tolerance.heading\" must be above 0 and at most pi");
    if (!in_range(q->tol_speed, 0.0, AP_MAX_KINO_SPEED))
        return refuse(e, bad, AP_QF_TOL_SPEED, "\"goal_tolerance.speed\" must be above 0 and at most %g",
                      AP_MAX_KINO_SPEED);
    if (q->max_expansions > AP_MAX_KINO_EXPANSIONS)
        return refuse(e, bad, AP_QF_MAX_EXPANSIONS, "\"search.max_expansions\" must be between 1 and %d",
                      AP_MAX_KINO_EXPANSIONS);
    if (q->weight != 0.0 && !(q->weight >= 1.0 && q->weight <= AP_MAX_KINO_WEIGHT))
        return refuse(e, bad, AP_QF_WEIGHT, "\"search.weight\" must be between 1 and %g", AP_MAX_KINO_WEIGHT);
    if (q->art_directions != 0)
        return refuse(e, bad, AP_QF_ART, "fixed-angle art would break the kinodynamic timing: leave "
                                         "unit.art_directions out");
    /* Every move must keep the disc more than the corridor walk's margin inside (zone.h): a corridor that
     * leaves no more than that has no move at all (refused here, before the ends are looked at, wherever
     * they are). By 1e-9 more than the margin, far above rounding: a width of 0.401 for radius 0.4 is
     * 0.0010000000000000009 over it in doubles, passed, and then no move did (no_path after 3 expansions:
     * a helper). */
    const double radius = q->unit_radius;
    if (q->zone != NULL && !(q->zone->half - radius > AP_ZONE_MARGIN + 1e-9))
        return refuse(e, bad, AP_QF_CORRIDOR_WIDTH, "\"corridor.usable_width\" %.10g leaves the unit's disc (radius "
                      "%.10g) no room to drive: it must exceed the radius by more than %g tiles (the corridor test's "
                      "margin)", q->zone->half, radius, AP_ZONE_MARGIN);
    return AP_OK;
}

/* What the algorithm's row accepts (algorithms.h). */
static int check_accepts(const ap_query *q, const ap_algorithm_row *row, ap_query_error *e)
{
    const int bad = AP_E_INVALID_REQUEST;
    if ((row->needs & AP_NEEDS_TURNING) && !(q->turning_radius > 0.0))
        return refuse(e, bad, AP_QF_TURNING, "%s needs unit.turning_radius > 0", row->name);
    if ((row->needs & AP_NEEDS_CONN8) && q->connectivity != 8)
        return refuse(e, bad, AP_QF_ALGORITHM, "%s needs search.connectivity 8", row->name);
    if ((row->needs & AP_NEEDS_UNIFORM) && q->map != NULL && q->map->weighted)
        return refuse(e, bad, AP_QF_ALGORITHM,
                      "%s needs a uniform-cost map; this map has terrain costs%s (use astar or auto)", row->name,
                      q->capability != 0 ? " for the unit's capability" : "");
    /* Never ignored: the grid searches have no heading in their state, so a turn penalty would be silently
     * dropped (Pinter's Figure 2b penalty in plain A* needs the arrival direction in the state). */
    const ap_plan_kind *k = row->kind == &ap_plan_kind_auto ? ap_algorithm_kind(q) : row->kind;
    if (q->circles != NULL && k != NULL && !k->circle_worlds)
        return refuse(e, bad, AP_QF_ALGORITHM,
                      "%s searches grid cells; this map is a circle world (use any_angle or auto)", row->name);
    if (q->n_obstacles > 0 && k != NULL && !k->circle_worlds)
        return refuse(e, bad, AP_QF_OBSTACLES,
                      "\"obstacles\" are served by any_angle (and auto); %s "
                      "searches the map's cells alone", row->name);
    if (k == &ap_plan_kind_anyangle) {
        /* turning units: planned on the graph of a larger disc with Dubins joins (anyangle/turning.h) */
        /* auto's any_angle (circle maps, obstacles): the any_angle row's own check said it for any_angle */
        if (q->connectivity != 8)
            return refuse(e, bad, AP_QF_CONNECTIVITY,
                          "any_angle (auto's choice on circle maps and with obstacles) moves at any angle: "
                          "\"search.connectivity\" 4 does not apply");
        /* auto with obstacles on a map with terrain costs planned any_angle over them as if uniform (a line
         * through trees at cost 1): refused as any_angle itself is */
        if (q->map != NULL && q->map->weighted)
            return refuse(e, bad, AP_QF_OBSTACLES,
                          "\"obstacles\" are served by any_angle, which needs a uniform-cost map; this map has "
                          "terrain costs%s (leave \"obstacles\" out to plan with the costs)",
                          q->capability != 0 ? " for the unit's capability" : "");
        /* any_angle's graph is of a point or a disc: a square footprint was planned as a point (its path
         * through gaps the square overlaps, and `clear` true) */
        if (q->unit_size > 0)
            return refuse(e, bad, AP_QF_SIZE,
                          q->n_obstacles > 0 ? "\"obstacles\" are served by any_angle, which plans a point or a "
                                               "disc (unit.radius), not a square unit (\"unit.size\")"
                                             : "any_angle plans a point or a disc (unit.radius), not a square "
                                               "unit: leave \"unit.size\" out, or use astar, jps, jps_plus or "
                                               "auto for a square unit");
        if (q->map != NULL && q->unit_radius > 0.0 && q->unit_radius < AP_AA_GRID_MIN_RADIUS)
            return refuse(e, bad, AP_QF_RADIUS, "any_angle on a grid map serves unit.radius 0 or at least %g",
                          AP_AA_GRID_MIN_RADIUS);
        /* Art of a unit without a turning radius is judged in the graph's model, which holds the obstacles
         * (plan_anyangle.c aa_art_world); a turning unit's art by the map's strict rule, which does not. */
        if (q->n_obstacles > 0 && q->art_directions != 0 && q->turning_radius > 0.0)
            return refuse(e, bad, AP_QF_ART,
                          "fixed-angle art of a turning unit is not checked against per-request \"obstacles\" "
                          "yet; leave unit.art_directions out (units without a turning radius may have both)");
    }
    if (q->turn_penalty > 0.0 && k != NULL && !k->turn_penalty)
        return refuse(e, bad, AP_QF_TURN_PENALTY,
                      "\"search.turn_penalty\" applies to the legal-turn searches (directional8/24/48, hybrid, and "
                      "auto for a unit with a turning radius on a grid map without obstacles); %s%s has no heading "
                      "lattice", row->name, row->kind == &ap_plan_kind_auto ? " here" : "");
    /* 16 headings asked of a search without the directional lattice: ignored, they would look obeyed (a
     * jsonedge helper's finding), so refused as a turn_penalty is; 8, the default every search has, is
     * taken anywhere, as a turn_penalty of 0 is (clients that send the schema's defaults: a reviewer). */
    if (q->headings == AP_HEADINGS_FINE && k != NULL && !k->turn_penalty)
        return refuse(e, bad, AP_QF_HEADINGS,
                      "\"search.headings\" 16 applies to the legal-turn searches (directional8/24/48, hybrid, and "
                      "auto for a unit with a turning radius on a grid map without obstacles); %s%s has no "
                      "heading lattice",
                      row->name, row->kind == &ap_plan_kind_auto ? " here" : "");
    return check_kino(q, k, e);
}

int ap_query_validate(const ap_query *q, const ap_algorithm_row *row, ap_query_error *e)
{
    ap_query_error dummy;
    if (e == NULL)
        e = &dummy;
    e->field = NULL;
    e->message[0] = '\0';
    if (q == NULL || (q->map == NULL) == (q->circles == NULL) || (q->n_obstacles > 0 && q->obstacles == NULL))
        return AP_E_INTERNAL;
    /* The unit's capability first: every other check reads the map as the unit sees it. */
    if (q->capability > AP_CAP_ALL)
        return refuse(e, AP_E_INVALID_REQUEST, AP_QF_CAPABILITY, "\"unit.capability\" is not a set of terrains");
    if (q->map == NULL && q->capability != 0)
        return refuse(e, AP_E_INVALID_REQUEST, AP_QF_CAPABILITY,
                      "a circle map has no terrains: \"unit.capability\" applies to grid maps");
    if (q->map == NULL && q->unit_size != 0)
        return refuse(e, AP_E_INVALID_REQUEST, AP_QF_SIZE,
                      "square units move on grid cells: \"unit.size\" applies to grid maps (use unit.radius)");
    ap_query view = *q;
    if (q->map != NULL && (view.map = ap_query_map(q)) == NULL)
        return refuse(e, AP_E_INVALID_REQUEST, AP_QF_CAPABILITY,
                      "map \"%s\" has no tables for capability %s: list it in the config's \"capabilities\" or "
                      "in a unit kind (\"units\")", q->map->id, ap_capability_name(q->capability));
    q = &view;
    int st;
    /* The request's own faults (400) before the world's verdict on its points (422 start_blocked and
     * goal_blocked; README "Errors" gives the order): the fields' ranges, off-map points (the algorithm's
     * checks read their cells), what the algorithm accepts, then passable points. */
    if ((st = check_unit(q, e)) != AP_OK || (st = check_search(q, e)) != AP_OK ||
        (st = check_obstacles(q, e)) != AP_OK || (st = check_size(q, e)) != AP_OK ||
        (st = check_on_world(q, e)) != AP_OK)
        return st;
    if (row == NULL && (row = ap_algorithm_row_of(q->algorithm)) == NULL)
        return refuse(e, AP_E_INVALID_REQUEST, AP_QF_ALGORITHM,
                      "\"search.algorithm\" %d has no row in the algorithm table", (int)q->algorithm);
    if ((st = check_accepts(q, row, e)) != AP_OK)
        return st;
    return check_passable(q, e);
}

int ap_query_check(const ap_query *q, const char **field)
{
    ap_query_error e;
    int st = ap_query_validate(q, NULL, &e);
    if (field != NULL)
        *field = e.field;
    return st;
}
