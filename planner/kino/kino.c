/* kino.c — the kinodynamic search domain (kino.h).
 *
 * Source: Schnieders, "AIPATH: Movement Planning in Physically Constrained Domains", 2014: 3.1 (state space
 * and actions), 4.3.2 (one exact state per discretised cell), 4.3.4-4.3.5 (action intensities including the
 * limits, action length of about one cell), 4.2.2 (time heuristic, through vehicle.h).
 */
#include "kino.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/clock.h"
#include "../base/fastmath.h"
#include "../base/status.h"
#include "../geom/dubins.h"
#include "../world/lattice.h"
#include "../geom/reeds_shepp.h"
#include "../world/grid_world.h"
#include "../world/zone.h"
#include "analytic.h"

#define TWO_PI 6.283185307179586476925

/* Open addressing: keys are packed (cell x, cell y, heading bin, speed bin) + 1 (0 = empty), each slot with
 * its id beside it (one cache line per probe; the successors' look-ups miss the cache, kino_successors
 * prefetches their slots). It starts at AP_KINO_TABLE_MIN slots and doubles at half load (unless the doubling
 * would end past the deadline: grow_in_time), so a search pays for the states it makes, not for the id limit
 * (a table sized for the limit cost a 12 MB memset per query). */
typedef struct ap_kino_slot {
    uint64_t key;
    uint32_t id;
} ap_kino_slot;

typedef struct ap_kino_table {
    ap_kino_slot *slots;
    uint32_t mask;
    uint32_t next; /* next free id */
    bool dirty;    /* a key went in since the slots were last zeroed (calloc, or ap_kino_bind's clearing) */
} ap_kino_table;

#define AP_KINO_TABLE_MIN 4096u

/* Give t `slots` empty slots (a power of two). Returns AP_OK or AP_E_NOMEM (t unchanged). */
static int table_alloc(ap_kino_table *t, uint32_t slots)
{
    ap_kino_slot *k = calloc(slots, sizeof *k);
    if (k == NULL)
        return AP_E_NOMEM;
    free(t->slots);
    t->slots = k;
    t->mask = slots - 1;
    t->dirty = false;
    return AP_OK;
}

static uint32_t slot_of(uint64_t key, uint32_t mask)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

/* Double t's slots, keeping every key and id. Returns AP_OK or AP_E_NOMEM (t unchanged). */
static int table_grow(ap_kino_table *t)
{
    ap_kino_table old = *t, n = {0};
    if (old.mask >= (1u << 30) || table_alloc(&n, (old.mask + 1) * 2) != AP_OK)
        return AP_E_NOMEM;
    for (uint32_t i = 0; i <= old.mask; i++) {
        if (old.slots[i].key == 0)
            continue;
        uint32_t j = slot_of(old.slots[i].key, n.mask);
        while (n.slots[j].key != 0)
            j = (j + 1) & n.mask;
        n.slots[j] = old.slots[i];
    }
    free(old.slots);
    t->slots = n.slots;
    t->mask = n.mask;
    return AP_OK;
}

static int kino_successors(const void *ctx, uint32_t node, const void *payload, ap_succ *out, void *out_payload);
static double kino_h(const void *ctx, uint32_t node, uint32_t goal);

static ap_vehicle bound_vehicle(const ap_kino_params *p);
static double max_heading_rate(const ap_kino_params *p);

static double clamp_param(double v, double dflt)
{
    return v > 0.0 ? v : dflt;
}

ap_kino_params ap_kino_prepare(const ap_kino_params *p)
{
    ap_kino_params q = *p;
    q.step = clamp_param(p->step, AP_KINO_STEP);
    q.cell = clamp_param(p->cell, AP_KINO_CELL);
    q.heading_bins = p->heading_bins > 0 ? p->heading_bins : AP_KINO_HEADING_BINS;
    q.speed_bins = p->speed_bins > 0 ? p->speed_bins : AP_KINO_SPEED_BINS;
    q.zone = ap_zone_of(&q.world);
    ap_map_world_clearance(q.zone != NULL ? &q.zone->inner : &q.world, &q.fast_map, &q.fast_clear);
    const ap_vehicle vb = bound_vehicle(&q);
    ap_vehicle_bound_init(&q.hbound, &vb);
    q.heading_rate = max_heading_rate(&q);
    q.gback_set = false;
    if (q.has_gh && isfinite(q.gh)) {
        fast_sincos(q.gh + M_PI, &q.gback_sin, &q.gback_cos);
        q.gback_set = true;
    }
    return q;
}

/* The start state of p, with its heuristic. */
static ap_kino_state start_state(const ap_kino_params *p)
{
    const double h = ap_angle_wrap(p->sh);
    return (ap_kino_state){p->sx, p->sy, h, p->sv, 0, 0, 0, 0, ap_kino_heuristic(p, p->sx, p->sy, h, p->sv), 0, false};
}

/* The lattice bound's region side margin (tiles) beyond the start/goal box, and its largest size (cells). */
#define KINO_LATTICE_MARGIN_MIN 16
#define KINO_LATTICE_MAX_CELLS (1u << 20)

/* The lattice region of a query (lattice_build's box), clipped to the map: its corners into *x0 .. *y1. */
static void lattice_box(const ap_map *m, double sx, double sy, double gx, double gy, double turning_radius,
                        int32_t *x0, int32_t *y0, int32_t *x1, int32_t *y1)
{
    const double margin = fmax(KINO_LATTICE_MARGIN_MIN, 8.0 * turning_radius);
    const double lo_x = fmin(sx, gx) - margin, hi_x = fmax(sx, gx) + margin;
    const double lo_y = fmin(sy, gy) - margin, hi_y = fmax(sy, gy) + margin;
    *x0 = lo_x < 0.0 ? 0 : (int32_t)lo_x;
    *y0 = lo_y < 0.0 ? 0 : (int32_t)lo_y;
    *x1 = hi_x >= m->width ? m->width - 1 : (int32_t)hi_x;
    *y1 = hi_y >= m->height ? m->height - 1 : (int32_t)hi_y;
}

uint64_t ap_kino_lattice_cells(const ap_map *m, double sx, double sy, double gx, double gy, double turning_radius)
{
    int32_t x0, y0, x1, y1;
    lattice_box(m, sx, sy, gx, gy, turning_radius, &x0, &y0, &x1, &y1);
    return x1 < x0 || y1 < y0 ? 0 : (uint64_t)(x1 - x0 + 1) * (uint64_t)(y1 - y0 + 1);
}

/* Build d->lattice for d->p (see ap_kino_bind); leaves bound NULL when it would not pay: no plain grid
 * world, the unit's disc sees the goal straight from the start (the bound matters behind walls; its build,
 * a few hundred microseconds on a 64 x 64 region, would double a short query), a region too large, or no
 * blocked cell in it (then it is never above the straight distance). Returns AP_OK or AP_E_NOMEM. */
static int lattice_build(ap_kino_domain *d)
{
    const ap_kino_params *p = &d->p;
    const ap_map *m = p->fast_map;
    /* (not in a corridor: the inner map's bound would hold there too, but a zone is a curve's few tiles) */
    if (m == NULL || p->zone != NULL || ap_world_line_clear(&p->world, p->sx, p->sy, p->gx, p->gy, p->radius))
        return AP_OK;
    int32_t x0, y0, x1, y1;
    lattice_box(m, p->sx, p->sy, p->gx, p->gy, p->turning_radius, &x0, &y0, &x1, &y1);
    const int32_t gx = (int32_t)floor(p->gx) - x0, gy = (int32_t)floor(p->gy) - y0;
    if (x1 < x0 || y1 < y0)
        return AP_OK;
    const int32_t w = x1 - x0 + 1, h = y1 - y0 + 1;
    if ((uint64_t)w * (uint64_t)h > KINO_LATTICE_MAX_CELLS || gx < 0 || gy < 0 || gx >= w || gy >= h)
        return AP_OK;
    uint8_t *cfree = malloc((size_t)w * (size_t)h);
    if (cfree == NULL)
        return AP_E_NOMEM;
    if (ap_lattice_region_free(m, x0, y0, w, h, cfree) == 0) {
        free(cfree);
        return AP_OK;
    }
    const size_t nv = (size_t)(2 * w + 1) * (size_t)(2 * h + 1);
    float *dist = malloc(nv * sizeof *dist);
    float *bound = malloc((size_t)w * (size_t)h * sizeof *bound);
    int st = dist != NULL && bound != NULL ? ap_lattice_distances_until(cfree, w, h, gx, gy, 0, dist, p->deadline_ns)
                                           : AP_E_NOMEM;
    if (st == AP_OK) {
        /* from each cell's centre: the lattice bound less the goal's offset from its cell's centre */
        const double slack = hypot(p->gx - (x0 + gx + 0.5), p->gy - (y0 + gy + 0.5));
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++)
                bound[y * w + x] = ap_lattice_cell_bound(dist, w, x, y, slack);
        d->lattice = (ap_kino_lattice){bound, x0, y0, w, h};
        d->p.lattice = &d->lattice;
        bound = NULL;
    }
    free(cfree);
    free(dist);
    free(bound);
    return st == AP_TIMEOUT ? AP_OK : st; /* past the deadline: no bound (the search stops at its first check) */
}

int ap_kino_init(ap_kino_domain *d, ap_domain *dom, const ap_kino_params *p, uint32_t capacity)
{
    memset(d, 0, sizeof *d);
    d->p = ap_kino_prepare(p);
    d->node_limit = capacity;
    ap_kino_table *t = calloc(1, sizeof *t);
    if (t == NULL)
        return AP_E_NOMEM;
    d->tab = t;
    d->tail = malloc(sizeof *d->tail);
    d->tail_total = INFINITY;
    if (d->tail == NULL || table_alloc(t, AP_KINO_TABLE_MIN) != AP_OK) {
        ap_kino_free(d);
        return AP_E_NOMEM;
    }
    *dom = (ap_domain){.ctx = d,
                       .node_count = capacity,
                       .max_succ = AP_KINO_MAX_SUCC,
                       .heuristic = kino_h,
                       .payload_bytes = sizeof(ap_kino_state),
                       .successors_payload = kino_successors};
    return AP_OK;
}

void ap_kino_free(ap_kino_domain *d)
{
    if (d == NULL)
        return;
    free(d->tail);
    d->tail = NULL;
    free(d->lattice.bound);
    d->lattice.bound = NULL;
    d->p.lattice = NULL;
    if (d->tab == NULL)
        return;
    free(d->tab->slots);
    free(d->tab);
    d->tab = NULL;
}

/* The top speed the time bound sees: with reverse, the larger of the two directions' (vehicle.h
 * ap_vehicle_time_bound: the speed magnitude of a motion with cusps is a 1-D profile under the same limits). */
static double bound_top_speed(const ap_kino_params *p)
{
    return p->reverse && p->veh.max_reverse_speed > p->veh.max_speed ? p->veh.max_reverse_speed : p->veh.max_speed;
}

/* The vehicle the time bound sees: p's, with bound_top_speed. */
static ap_vehicle bound_vehicle(const ap_kino_params *p)
{
    ap_vehicle v = p->veh;
    v.max_speed = bound_top_speed(p);
    return v;
}

/* A lower bound (tiles) on the length of every forward path with curvature <= 1 / turning_radius from pose
 * (x, y, h), dist tiles from the goal point, to a pose within the goal tolerances (geom/dubins.h
 * ap_dubins_point_bound, twice):
 *  - the state's heading: the path reaches a point within tol_pos of the goal, the final heading aside;
 *  - the goal's heading (with has_gh): reversed, the path is a forward path from a goal pose (g', h' + pi),
 *    |g' - g| <= tol_pos, |h' - gh| <= tol_heading, to (x, y), its heading there free. Moving the start of
 *    such a path by (g' - g) and turning it by (h' - gh) about g moves the end point it is measured to by at
 *    most tol_pos + dist * tol_heading tiles (a shift, and an arc of radius dist about g), so with that slack
 *    the bound from (g, gh + pi) holds for every goal pose at once.
 * Every action of the search and the analytic edge keep a radius >= turning_radius, and without reverse and
 * turns on the spot every path is forward, so this is a lower bound on the remaining path (admissible). */
static double heading_length_bound(const ap_kino_params *p, double dist, double x, double y, double h)
{
    const ap_pose a = {x, y, h};
    double s = ap_dubins_point_bound(&a, p->gx, p->gy, p->turning_radius, p->tol_pos);
    if (p->has_gh) {
        const ap_pose g = {p->gx, p->gy, p->gh + M_PI};
        const double slack = p->tol_pos + dist * p->tol_heading;
        s = fast_max(s, p->gback_set ? ap_dubins_point_bound_sc(&g, p->gback_sin, p->gback_cos, x, y, p->turning_radius, slack)
                                     : ap_dubins_point_bound(&g, x, y, p->turning_radius, slack));
    }
    return s;
}

/* The lattice bound at (x, y): the bound from its cell's centre less the distance to that centre (the
 * shortest free-space path length to a point is 1-Lipschitz), 0 outside the region. */
static double lattice_length_bound(const ap_kino_lattice *l, double x, double y)
{
    const double fx = floor(x), fy = floor(y);
    const int32_t cx = (int32_t)fx - l->x0, cy = (int32_t)fy - l->y0;
    if (!(fx >= -1e9 && fy >= -1e9 && fx <= 1e9 && fy <= 1e9) || cx < 0 || cy < 0 || cx >= l->w || cy >= l->h)
        return 0.0;
    const double ox = x - (fx + 0.5), oy = y - (fy + 0.5);
    return (double)l->bound[cy * l->w + cx] - sqrt(ox * ox + oy * oy);
}

/* The fastest the heading of p's vehicle can change (rad/s): on an arc at speed v the rate is v / r with
 * r >= max(turning_radius, v^2 / max_lateral_accel), so at most min(v / R, a_lat / v), whose maximum over
 * 0 < v <= top is sqrt(a_lat / R) at v = sqrt(a_lat R) (or top / R when top is lower); at rest a unit that
 * turns on the spot turns at max_turn_rate. R in metres. */
static double max_heading_rate(const ap_kino_params *p)
{
    const double R = p->turning_radius * p->meters_per_tile, a = p->veh.max_lateral_accel;
    const double top = bound_top_speed(p);
    const double vbest = sqrt(a * R);
    const double w = vbest <= top ? sqrt(a / R) : top / R;
    return fast_max(w, p->veh.max_turn_rate);
}

/* The heuristic's bound on the remaining length (tiles, before the time bound) from position (x, y), dist
 * tiles from the goal, at heading h: depends on the pose alone, not on the speed (kino_h shares it between
 * successors of one state along the same path). */
static double length_part(const ap_kino_params *p, double dist, double x, double y, double h)
{
    double s = dist - p->tol_pos;
    if (p->heuristic == AP_KINO_H_DISTANCE)
        return s;
    if (p->heuristic == AP_KINO_H_TIME && p->lattice != NULL)
        s = fast_max(s, lattice_length_bound(p->lattice, x, y) - p->tol_pos);
    if (p->heuristic == AP_KINO_H_TIME && !p->reverse && !(p->veh.max_turn_rate > 0.0))
        s = fast_max(s, heading_length_bound(p, dist, x, y, h));
    else if (p->heuristic == AP_KINO_H_DUBINS && p->has_gh && !(p->veh.max_turn_rate > 0.0)) {
        const ap_pose a = {x, y, h}, b = {p->gx, p->gy, p->gh};
        const double curve = p->reverse ? ap_reeds_shepp_length(&a, &b, p->turning_radius)
                                        : ap_dubins_length(&a, &b, p->turning_radius);
        s = fast_max(s, curve - p->tol_pos);
    }
    return s;
}

/* The heuristic from remaining-length bound s (length_part) at heading h and speed v (seconds). */
static double time_part(const ap_kino_params *p, double s, double h, double v)
{
    if (p->heuristic == AP_KINO_H_DISTANCE)
        return s > 0.0 ? s * p->meters_per_tile / bound_top_speed(p) : 0.0;
    double t = ap_kino_time_bound(p, s * p->meters_per_tile, fabs(v), p->gv + p->tol_speed);
    if (p->heuristic == AP_KINO_H_TIME && p->has_gh) {
        const double turn = fabs(ap_angle_wrap(p->gh - h)) - p->tol_heading;
        if (turn > 0.0)
            t = fast_max(t, turn / (p->heading_rate > 0.0 ? p->heading_rate : max_heading_rate(p)));
    }
    return t;
}

/* ap_kino_heuristic with dist = goal_dist(p, x, y) given (the probe computes it once for its goal test and
 * this; the A* domain's kino_h calls the two parts itself). */
static double heuristic_at(const ap_kino_params *p, double dist, double x, double y, double h, double v)
{
    return time_part(p, length_part(p, dist, x, y, h), h, v);
}

double ap_kino_time_bound(const ap_kino_params *p, double s, double v0, double v1)
{
    /* (the limits compared without copying the vehicle: this runs for every kept state) */
    if (p->hbound.a == p->veh.max_accel && p->hbound.d == p->veh.max_brake && p->hbound.vm == bound_top_speed(p))
        return ap_vehicle_bound_time(&p->hbound, s, v0, v1);
    const ap_vehicle vb = bound_vehicle(p);
    ap_vehicle_bound b;
    ap_vehicle_bound_init(&b, &vb);
    return ap_vehicle_bound_time(&b, s, v0, v1);
}

/* The distance (tiles) from (x, y) to p's goal point. */
static inline double goal_dist(const ap_kino_params *p, double x, double y)
{
    const double dx = p->gx - x, dy = p->gy - y;
    return sqrt(dx * dx + dy * dy);
}

double ap_kino_heuristic(const ap_kino_params *p, double x, double y, double h, double v)
{
    return heuristic_at(p, goal_dist(p, x, y), x, y, h, v);
}

/* ap_kino_at_goal with dist = goal_dist(p, x, y) given. */
static bool at_goal_at(const ap_kino_params *p, double dist, double h, double v)
{
    if (dist > p->tol_pos || fabs(v - p->gv) > p->tol_speed)
        return false;
    return !p->has_gh || fabs(ap_angle_wrap(h - p->gh)) <= p->tol_heading;
}

bool ap_kino_at_goal(const ap_kino_params *p, double x, double y, double h, double v)
{
    return at_goal_at(p, goal_dist(p, x, y), h, v);
}

void ap_kino_bind(ap_kino_domain *d, const ap_search *s)
{
    ap_kino_table *t = d->tab;
    if (t->mask + 1 > AP_KINO_TABLE_MIN * 16u)
        table_alloc(t, AP_KINO_TABLE_MIN); /* give a restart's large table back (on failure: clear it) */
    if (t->dirty) /* (a new domain's table is calloc'd: a query's first search clears nothing) */
        memset(t->slots, 0, ((size_t)t->mask + 1) * sizeof *t->slots);
    t->dirty = false;
    t->next = AP_KINO_START + 1;
    d->ws = s->ws;
    d->tail_total = INFINITY;
    d->expanded = 0;
    d->dropped = 0;
    d->hmemo_n = 0;
    if (!d->lattice_tried) { /* once per domain: a restart keeps it; out of memory only leaves it out */
        d->lattice_tried = true;
        (void)lattice_build(d);
    }
    *(ap_kino_state *)ap_search_payload(s, AP_KINO_START) = start_state(&d->p);
}

/* The trigonometry of a forward arc's end by angle addition: S = sin(w) and C = 1 - cos(w) of |w|, the
 * magnitude of its sweep w = curv * len, both from the half angle (C = 2 sin^2(w / 2) keeps its digits for
 * tiny sweeps, where 1 - cos(w) would cancel), by fastmath.h's sincos (a few ulp). A sweep of the other sign
 * has -S and the same C. Every forward arc of the search (its successors and ap_kino_segment) gets its end
 * point through this and arc_end, so the states and the answer's segments agree to the bit. */
typedef struct sweep_trig {
    double s, c; /* sin |w|, 1 - cos |w| */
} sweep_trig;

static sweep_trig sweep_trig_of(double abs_sweep)
{
    double s2, c2;
    fast_sincos(0.5 * abs_sweep, &s2, &c2);
    return (sweep_trig){2.0 * s2 * c2, 2.0 * s2 * s2};
}

/* The end of a forward arc of signed curvature k (!= 0, radius r = 1 / |k|) from (x, y) at heading h
 * (sh = sin h, ch = cos h) whose sweep k * len has the trigonometry tr (of its magnitude): the heading turns
 * from h to h + w, and the unit moves by ((sin(h + w) - sin h) / k, (cos h - cos(h + w)) / k), written by
 * angle addition as ((ch S - sh C) / k, (sh S + ch C) / k) with S = sin w, C = 1 - cos w (and 1 / k = +-r).
 * The same point as ap_segment_arc's centre + r (cos, sin) of the end angle up to rounding (tests: within
 * 1e-12), without a sin and cos per arc. */
static void arc_end(double x, double y, double sh, double ch, double k, double r, sweep_trig tr, double *x1,
                    double *y1)
{
    const double S = k > 0.0 ? tr.s : -tr.s, C = tr.c, inv_k = k > 0.0 ? r : -r;
    *x1 = x + (ch * S - sh * C) * inv_k;
    *y1 = y + (sh * S + ch * C) * inv_k;
}

/* The forward arc segment of curvature k (!= 0, r = 1.0 / |k|) over len > 0 tiles from (x, y, h) (sh, ch of
 * h), tr the trigonometry of |k len|: what ap_segment_arc_sc makes, its end point by arc_end. */
static ap_segment arc_segment(double x, double y, double h, double sh, double ch, double k, double r, double len,
                              sweep_trig tr)
{
    const double side = k > 0.0 ? 1.0 : -1.0, sweep = k * len;
    ap_segment seg = {.type = AP_SEG_ARC, .x0 = x, .y0 = y, .heading = h, .radius = r, .sweep = sweep,
                      .length = r * fabs(sweep), .cx = x - side * r * sh, .cy = y + side * r * ch};
    arc_end(x, y, sh, ch, k, r, tr, &seg.x1, &seg.y1);
    return seg;
}

/* ap_kino_segment with sh = sin(h) and ch = cos(h) given (the successors of one state share them). */
static ap_segment segment_sc(double x, double y, double h, double sh, double ch, const ap_kino_state *st)
{
    if (st->len == 0.0)
        return ap_segment_turn(x, y, h, st->rot);
    if (st->len > 0.0 && st->curv == 0.0) {
        /* the heading driven, not the ends' atan2: a line of a nanometre (a stop) would point elsewhere */
        ap_segment s = ap_segment_line(x, y, x + st->len * ch, y + st->len * sh);
        s.heading = h;
        return s;
    }
    if (st->len > 0.0)
        return arc_segment(x, y, h, sh, ch, st->curv, 1.0 / fabs(st->curv), st->len,
                           sweep_trig_of(fabs(st->curv * st->len)));
    ap_pose pose = {x, y, h};
    const int steer = st->curv > 0.0 ? 1 : (st->curv < 0.0 ? -1 : 0);
    return ap_segment_drive(&pose, steer, st->len, steer != 0 ? 1.0 / fabs(st->curv) : 1.0);
}

/* Where st's successors start: sin and cos of its heading (fastmath.h's, a few ulp: the same numbers
 * ap_kino_segment uses, so the answer's segments meet the states to the bit), shared by all its segments,
 * its reach in the grid world (clearance.h ap_clearance_reach; -1 when p has no clearance table: every
 * action gets the grid world's exact test) and in a corridor its distance from the zone's centre line and
 * nearest piece (zone.h ap_zone_nearest, for ap_zone_proves and the zone's test; unused without a zone). */
typedef struct from_pose {
    double sh, ch, reach, zdist;
    int zpiece;
} from_pose;

/* The exact test of the disc swept along action segment s, less the halves the reaches prove (grid_ok: the
 * grid world's, zone_ok: the zone's): the world's own test without a zone; in a corridor the zone's walk and
 * the inner world's test, each unless proven (the zone world's test is the two, zone.c zw_segment). */
static bool swept_clear(const ap_kino_params *p, const ap_segment *s, bool grid_ok, bool zone_ok)
{
    if (p->zone == NULL)
        return grid_ok || ap_world_segment_clear(&p->world, s, p->radius);
    return (zone_ok || ap_zone_segment_clear(p->zone, s, p->radius)) &&
           (grid_ok || ap_world_segment_clear(&p->zone->inner, s, p->radius));
}

bool ap_kino_segment_clear(const ap_kino_params *p, const ap_segment *s)
{
    const bool grid_ok = p->fast_clear != NULL && ap_clearance_proves_segment(p->fast_map, p->fast_clear, s, p->radius);
    return swept_clear(p, s, grid_ok, false);
}

/* swept_clear of an action from state fp (in a corridor its distance from the centre line and nearest
 * piece: zone.h ap_zone_nearest). */
static bool action_clear(const ap_kino_params *p, const ap_segment *s, bool grid_ok, bool zone_ok,
                         const from_pose *fp)
{
    if (p->zone == NULL || zone_ok)
        return swept_clear(p, s, grid_ok, true);
    return ap_zone_segment_clear_from(p->zone, s, p->radius, fp->zdist, fp->zpiece) &&
           (grid_ok || ap_world_segment_clear(&p->zone->inner, s, p->radius));
}

ap_segment ap_kino_segment(double x, double y, double h, const ap_kino_state *st)
{
    double sh, ch;
    fast_sincos(h, &sh, &ch);
    return segment_sc(x, y, h, sh, ch, st);
}

/* The paths of one intensity's actions: what its curvatures drive from st over len tiles, which depends on
 * the tightest curvature kmax and len alone, not on the speeds (most intensities of a state share them: the
 * full step, and the lateral limit binding alike or not at all), so it is made once for all of them. */
typedef struct action_geometry {
    bool made;
    double kmax, len;       /* what it was made for */
    int nc;                 /* curvatures */
    double curv[6];         /* signed, 1/tiles */
    double x[6], y[6], h[6]; /* each action's end pose (h wrapped) */
    bool clear[6];          /* its swept disc is clear */
    int first[6];           /* the index in out of the first successor along it (-1: none yet) */
} action_geometry;

/* The segment of the action of curvature k (radius r = 1 / |k|, 0 for a line) over len tiles from st in
 * direction dir, tr the trigonometry of a forward arc's sweep: arc_segment forwards, segment_sc otherwise. */
static ap_segment action_segment(const ap_kino_state *st, const from_pose *fp, int dir, double k, double r,
                                 double len, sweep_trig tr)
{
    if (dir > 0 && k != 0.0)
        return arc_segment(st->x, st->y, st->h, fp->sh, fp->ch, k, r, len, tr);
    const ap_kino_state act = {.curv = k, .len = dir * len};
    return segment_sc(st->x, st->y, st->h, fp->sh, fp->ch, &act);
}

/* Make g for tightest curvature kmax and len tiles from st in direction dir (see action_geometry): the
 * curvatures straight, +-kmax, +-kmax / 2 and the one that ends at the goal heading (when within, and not
 * one of the others), each action's end and whether its swept disc is clear: proven by st's reach in the
 * grid world (clearance.h) and, in a corridor, by the zone's distances at st and at the action's end
 * (zone.h ap_zone_proves, ap_zone_proves_piece), else by the exact test of the half not proven
 * (action_clear). */
static void geometry_make(const ap_kino_params *p, const ap_kino_state *st, const from_pose *fp, int dir,
                          double kmax, double len, action_geometry *g)
{
    g->made = true;
    g->kmax = kmax;
    g->len = len;
    double *curvs = g->curv;
    curvs[0] = 0.0;
    curvs[1] = kmax;
    curvs[2] = -kmax;
    curvs[3] = 0.5 * kmax;
    curvs[4] = -0.5 * kmax;
    int nc = 5;
    /* each curvature's radius (1 / |curv|, 0 for a line) and, forward, the trigonometry of its sweep
     * magnitude (arc_end): once per magnitude, shared by left and right */
    double radii[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    radii[1] = radii[2] = 1.0 / fabs(kmax);
    radii[3] = radii[4] = 1.0 / fabs(0.5 * kmax);
    const sweep_trig none = {0.0, 0.0}; /* (element by element: a zeroing initialiser is a rep stos) */
    sweep_trig trig[6];
    trig[0] = trig[1] = trig[2] = trig[3] = trig[4] = trig[5] = none;
    if (dir > 0) {
        trig[1] = trig[2] = sweep_trig_of(fabs(kmax * len));
        trig[3] = trig[4] = sweep_trig_of(fabs(0.5 * kmax * len));
    }
    /* the intensity that ends the step at the goal heading (the heading lattice of the fixed intensities
     * may miss a tight heading tolerance altogether); backwards the heading changes by curv * (-len) */
    if (p->has_gh) {
        double kg = ap_angle_wrap(p->gh - st->h) / (dir * len);
        if (fabs(kg) <= kmax && fabs(kg) > 1e-12 && fabs(fabs(kg) - kmax) > 1e-12 &&
            fabs(fabs(kg) - 0.5 * kmax) > 1e-12)
            curvs[nc++] = kg;
        if (nc == 6) {
            radii[5] = 1.0 / fabs(kg);
            if (dir > 0)
                trig[5] = sweep_trig_of(fabs(kg * len));
        }
    }
    g->nc = nc;
    for (int ci = 0; ci < nc; ci++) {
        const double k = curvs[ci], sl = dir * len;
        const bool grid_ok = ap_clearance_reach_covers(fp->reach, len, radii[ci]);
        /* in a corridor: the zone's walk proven from the start's distance alone (below: or with the end's
         * distance to the start's nearest piece), else by the zone's test from the start's distance and piece
         * (action_clear) */
        bool zone_ok =
            p->zone == NULL || ap_zone_proves(p->zone, fp->zdist, fp->zdist + len, len, radii[ci], p->radius);
        double x1, y1;
        g->first[ci] = -1;
        g->clear[ci] = true;
        /* backwards the segment gives the end; forwards the end comes without it (the same numbers), and the
         * segment only when a test needs it */
        ap_segment seg;
        if (dir > 0 && k == 0.0) { /* a forward line: its end as segment_sc makes it */
            x1 = st->x + sl * fp->ch;
            y1 = st->y + sl * fp->sh;
        } else if (dir > 0) { /* a forward arc: its end as segment_sc makes it */
            arc_end(st->x, st->y, fp->sh, fp->ch, k, radii[ci], trig[ci], &x1, &y1);
        } else {
            seg = action_segment(st, fp, dir, k, radii[ci], len, trig[ci]);
            x1 = seg.x1;
            y1 = seg.y1;
        }
        if (!zone_ok)
            zone_ok = ap_zone_proves_piece(p->zone, fp->zdist, fp->zpiece, x1, y1, len, radii[ci], p->radius);
        if (!(grid_ok && zone_ok)) {
            if (dir > 0)
                seg = action_segment(st, fp, dir, k, radii[ci], len, trig[ci]);
            g->clear[ci] = action_clear(p, &seg, grid_ok, zone_ok, fp);
        }
        g->x[ci] = x1;
        g->y[ci] = y1;
        g->h[ci] = ap_angle_wrap(st->h + k * sl);
    }
}

/* True when acceleration a (m/s^2, < 0 braking) is an intensity of its own between the limits: within
 * [-max_brake, max_accel] and more than eps from none, full acceleration and full braking. */
static bool in_between(const ap_vehicle *veh, double a, double eps)
{
    return a <= veh->max_accel && a >= -veh->max_brake && fabs(a) > eps && fabs(a - veh->max_accel) > eps &&
           fabs(a + veh->max_brake) > eps;
}

/* The actions of one driving direction dir (+1 forward, -1 backwards) from st, whose speed magnitude is u0
 * (0 at rest): the intensities (full acceleration up to um, none, full braking to 0, and forward only the
 * one that ends at the goal speed) times the curvatures (geometry_make), appended to out[n..]; those whose
 * swept disc is not clear are left out. With geo non-NULL, geo[i] gets for each successor i the index of the
 * first successor appended with the same path (i itself when it is the first): the same end pose to the bit.
 * Returns the new n. */
static int expand_dir(const ap_kino_params *p, const ap_kino_state *st, const from_pose *fp, int dir, double u0,
                      double um, ap_kino_state *out, int n, int *geo)
{
    const ap_vehicle *veh = &p->veh;
    const double mpt = p->meters_per_tile, eps = 1e-9, l0 = p->step * mpt;
    /* Full acceleration, none, full braking, and two in-between intensities (the thesis's, 4.3.4): the one that
     * ends the step at the goal speed (so the goal's speed window is reachable at all: with the limits alone
     * the reachable v^2 lie on a lattice of step 2 a l that may miss the window), and the one that ends it at
     * the corner speed, the fastest the tightest turn allows (v^2 = max_lateral_accel * turning radius). Without
     * the corner speed a strong unit from rest reached the top speed in one step and could only turn wide: a
     * car with max_accel 100 drove 12.5 s around the arena where 30 m/s^2 took 2.5 s. */
    double accels[AP_KINO_INTENSITIES] = {veh->max_accel, 0.0, -veh->max_brake, 0.0, 0.0};
    int na = 3;
    /* (a corner speed at or above the top speed adds nothing: full acceleration's step already ends at um) */
    const double vc2 = veh->max_lateral_accel * p->turning_radius * mpt;
    const double ag = (p->gv * p->gv - u0 * u0) / (2.0 * l0), ac = vc2 < um * um ? (vc2 - u0 * u0) / (2.0 * l0) : 0.0;
    if (dir > 0 && in_between(veh, ag, eps))
        accels[na++] = ag;
    if (in_between(veh, ac, eps) && !(na == 4 && fabs(ac - ag) <= eps))
        accels[na++] = ac;
    action_geometry geom;
    geom.made = false;
    for (int ai = 0; ai < na; ai++) {
        const double a = accels[ai];
        double lm = l0, u1;
        if (a > 0.0) {
            if (u0 >= um - eps)
                continue;
            double lacc = (um * um - u0 * u0) / (2.0 * a);
            if (lacc < lm)
                lm = lacc;
            u1 = lm == lacc ? um : sqrt(u0 * u0 + 2.0 * a * lm);
        } else if (a == 0.0) {
            if (u0 <= eps)
                continue;
            u1 = u0;
        } else {
            if (u0 <= eps)
                continue;
            double lstop = u0 * u0 / (-2.0 * a);
            if (lstop < lm)
                lm = lstop;
            u1 = lm == lstop ? 0.0 : sqrt(fast_max(0.0, u0 * u0 + 2.0 * a * lm));
        }
        if (lm < 1e-9) {
            /* Full braking stops within a nanometre (u0 of a few 1e-5 m/s at most): one straight stop. Dropped
             * like other sub-nanometre steps, a start that slow could neither stop nor count as at rest: no
             * turn on the spot, no backing up (no_path where a start at 0 or 0.001 m/s had a path). */
            if (a == -veh->max_brake && u1 == 0.0 && lm > 0.0) {
                const double len = lm / mpt;
                const ap_kino_state stop = {.x = st->x + dir * len * fp->ch, .y = st->y + dir * len * fp->sh,
                                            .h = st->h, .v = 0.0, .curv = 0.0, .len = dir * len, .accel = a,
                                            .dt = u0 / -a, .hval = 0.0, .rot = 0.0, .analytic = false};
                /* a nanometre, but in tiles up to 1e-9 / meters_per_tile: tested like every action (a small
                 * scale put a stop 8e-4 tiles into a wall, answered ok with clear false) */
                const ap_segment sg = segment_sc(st->x, st->y, st->h, fp->sh, fp->ch, &stop);
                if (ap_kino_segment_clear(p, &sg)) {
                    if (geo != NULL)
                        geo[n] = n;
                    out[n++] = stop;
                }
            }
            continue;
        }
        const double dt = a == 0.0 ? lm / u0 : (u1 - u0) / a;
        if (!(dt > 0.0))
            continue;
        const double up = fast_max(u0, u1), len = lm / mpt;
        /* Tightest curvature (1/tiles): the turning radius, and v^2 / r <= a_lat at the peak speed. */
        double kmax = 1.0 / p->turning_radius;
        if (up > 0.0)
            kmax = fast_min(kmax, veh->max_lateral_accel * mpt / (up * up));
        if (!(geom.made && kmax == geom.kmax && len == geom.len))
            geometry_make(p, st, fp, dir, kmax, len, &geom);
        for (int ci = 0; ci < geom.nc; ci++) {
            if (!geom.clear[ci])
                continue;
            if (geo != NULL) {
                if (geom.first[ci] < 0)
                    geom.first[ci] = n;
                geo[n] = geom.first[ci];
            }
            /* every field written (a zeroing initialiser here cost a rep stos per successor) */
            out[n++] = (ap_kino_state){.x = geom.x[ci], .y = geom.y[ci], .h = geom.h[ci], .v = dir * u1,
                                       .curv = geom.curv[ci], .len = dir * len, .accel = a, .dt = dt,
                                       .hval = 0.0, .rot = 0.0, .analytic = false};
        }
    }
    return n;
}

/* Successors at most (kino.h): moving, every intensity x 6 curvatures; at rest, forward all but keeping and
 * braking, backwards also not the goal speed's, and 9 turns; plus the analytic edge. */
_Static_assert(AP_KINO_MAX_SUCC >= AP_KINO_INTENSITIES * 6 + 1 + AP_KINO_FREE_TURNS &&
                   AP_KINO_MAX_SUCC >= (AP_KINO_INTENSITIES - 2) * 6 + (AP_KINO_INTENSITIES - 3) * 6 + 9 + 1 +
                                           AP_KINO_FREE_TURNS,
               "kino.h AP_KINO_MAX_SUCC below the action set's successors");

/* The turns on the spot from st (at rest, max_turn_rate > 0): +-pi/8, +-pi/4, +-pi/2, pi, the turn that
 * faces the goal and the one to the goal heading (each skipped when it is no turn or repeats one before),
 * appended to out[n..]. Returns the new n. */
static int expand_turns(const ap_kino_params *p, const ap_kino_state *st, ap_kino_state *out, int n)
{
    double rots[9] = {M_PI / 8, -M_PI / 8, M_PI / 4, -M_PI / 4, M_PI / 2, -M_PI / 2, -M_PI, 0.0, 0.0};
    int nr = 7;
    if (hypot(p->gx - st->x, p->gy - st->y) > 1e-9)
        rots[nr++] = ap_angle_wrap(atan2(p->gy - st->y, p->gx - st->x) - st->h);
    if (p->has_gh)
        rots[nr++] = ap_angle_wrap(p->gh - st->h);
    for (int i = 0; i < nr; i++) {
        bool dup = fabs(rots[i]) < 1e-9;
        for (int j = 0; j < i && !dup; j++)
            dup = fabs(rots[j] - rots[i]) < 1e-9;
        if (dup)
            continue;
        out[n++] = (ap_kino_state){st->x, st->y, ap_angle_wrap(st->h + rots[i]), 0.0, 0.0, 0.0, 0.0,
                                   fabs(rots[i]) / p->veh.max_turn_rate, 0.0, rots[i], false};
    }
    return n;
}

/* Is st the start state of p (ap_kino_params.sx ..; no action led to it)? */
static bool is_start(const ap_kino_params *p, const ap_kino_state *st)
{
    return st->dt == 0.0 && st->len == 0.0 && st->rot == 0.0 && st->x == p->sx && st->y == p->sy && st->v == p->sv;
}

/* A free start heading's turns (ap_kino_params.free_sh) from the start st: to every compass heading
 * k * 2 pi / AP_KINO_FREE_HEADINGS, to face the goal and to the goal heading, each skipped when it is no turn
 * or repeats one before; the same position and speed, no time (dt 0: the unit may start facing that way).
 * Appended to out[n..], geo[i] = i. Returns the new n. */
static int expand_free(const ap_kino_params *p, const ap_kino_state *st, ap_kino_state *out, int n, int *geo)
{
    double to[AP_KINO_FREE_TURNS];
    int nt = 0;
    for (int k = 0; k < AP_KINO_FREE_HEADINGS; k++)
        to[nt++] = ap_angle_wrap(k * (2.0 * M_PI / AP_KINO_FREE_HEADINGS));
    if (hypot(p->gx - st->x, p->gy - st->y) > 1e-9)
        to[nt++] = atan2(p->gy - st->y, p->gx - st->x);
    if (p->has_gh)
        to[nt++] = ap_angle_wrap(p->gh);
    for (int i = 0; i < nt; i++) {
        const double rot = ap_angle_wrap(to[i] - st->h);
        bool dup = fabs(rot) < 1e-9;
        for (int j = 0; j < i && !dup; j++)
            dup = fabs(ap_angle_wrap(to[j] - to[i])) < 1e-9;
        if (dup)
            continue;
        if (geo != NULL)
            geo[n] = n;
        out[n++] = (ap_kino_state){st->x, st->y, to[i], st->v, 0.0, 0.0, 0.0, 0.0, 0.0, rot, false};
    }
    return n;
}

/* ap_kino_expand, and with geo non-NULL geo[i] as expand_dir gives it (a turn on the spot is its own). */
static int expand_all(const ap_kino_params *p, const ap_kino_state *st, ap_kino_state *out, int *geo)
{
    const double eps = AP_KINO_AT_REST, u0 = fabs(st->v);
    from_pose fp = {0.0, 0.0,
                    p->fast_clear != NULL ? ap_clearance_reach(p->fast_map, p->fast_clear, st->x, st->y, p->radius)
                                          : -1.0,
                    0.0, -1};
    if (p->zone != NULL)
        fp.zdist = ap_zone_nearest(p->zone, st->x, st->y, &fp.zpiece);
    fast_sincos(st->h, &fp.sh, &fp.ch);
    int n = 0;
    if (st->v > eps || u0 <= eps)
        n = expand_dir(p, st, &fp, 1, u0 > eps ? u0 : 0.0, p->veh.max_speed, out, n, geo);
    if (p->reverse && p->veh.max_reverse_speed > 0.0 && (st->v < -eps || u0 <= eps))
        n = expand_dir(p, st, &fp, -1, u0 > eps ? u0 : 0.0, p->veh.max_reverse_speed, out, n, geo);
    if (p->veh.max_turn_rate > 0.0 && u0 <= eps) {
        const int n0 = n;
        n = expand_turns(p, st, out, n);
        for (int i = n0; i < n && geo != NULL; i++)
            geo[i] = i;
    }
    if (p->free_sh && is_start(p, st))
        n = expand_free(p, st, out, n, geo);
    return n;
}

int ap_kino_expand(const ap_kino_params *p, const ap_kino_state *st, ap_kino_state *out)
{
    return expand_all(p, st, out, NULL);
}

/* floor(x) as an integer for |x| < 2^62 (no libm call): the truncation, one less below a negative non-integer. */
static inline int64_t floor_i64(double x)
{
    const int64_t i = (int64_t)x;
    return i - ((double)i > x);
}

/* The packed bin key of a state (see ap_kino_table) is (pose part | speed bin) + 1, the pose part from its
 * position and heading (pose_key: shared by the successors of one state along the same path, expand_dir's
 * geo), the speed bin from its speed (speed_key). */
static uint64_t pose_key(const ap_kino_params *p, const ap_kino_state *st)
{
    const int64_t cx = floor_i64(st->x / p->cell), cy = floor_i64(st->y / p->cell);
    /* a wrapped heading (every state's: ap_angle_wrap) is in [-pi, pi], so its bin is in [0, heading_bins] */
    int64_t hb = floor_i64((st->h + M_PI) / TWO_PI * p->heading_bins);
    if (hb < 0 || hb >= p->heading_bins)
        hb %= p->heading_bins;
    return (((uint64_t)(cx & 0xFFFFF) << 20 | (uint64_t)(cy & 0xFFFFF)) << 12 | (uint64_t)hb) << 8;
}

static uint64_t speed_key(const ap_kino_params *p, double v)
{
    /* speed bins over [0, max_speed] forward, and over [0, max_reverse_speed] backwards from bin 128 on */
    const int64_t sb = v >= 0.0 ? floor_i64(v / p->veh.max_speed * (p->speed_bins - 1) + 0.5)
                                : 128 + floor_i64(-v / p->veh.max_reverse_speed * (p->speed_bins - 1) + 0.5);
    return (uint64_t)(sb & 0xFF);
}

/* A doubling of the id table takes about this long per slot of the new table (calloc's page faults and the
 * rehash; 100-230 ms for 8.4 M slots of 16 bytes on the project's machine kind). */
#define AP_KINO_GROW_NS_PER_SLOT 30u

/* May the id table double before the search's deadline? The doubling is one step the deadline is not read
 * in: begun just before it, an answer came up to 230 ms late (a helper, 2,000,000-expansion searches). Not
 * grown, the table fills to 3/4 and then drops new bins (counted in dropped), while the search runs on to
 * its deadline. Always true without a deadline. */
static bool grow_in_time(const ap_kino_domain *d)
{
    if (d->p.deadline_ns == 0)
        return true;
    const uint64_t cost = (uint64_t)(d->tab->mask + 1u) * 2u * AP_KINO_GROW_NS_PER_SLOT;
    return ap_clock_ns() + cost < d->p.deadline_ns;
}

/* The id of the bin of key (pose_key, speed_key), handed out on first sight; UINT32_MAX when the ids are used up. */
static uint32_t key_id(const ap_kino_domain *d, uint64_t key)
{
    ap_kino_table *t = d->tab;
    for (uint32_t i = slot_of(key, t->mask);; i = (i + 1) & t->mask) {
        if (t->slots[i].key == key)
            return t->slots[i].id;
        if (t->slots[i].key == 0) {
            if (t->next >= d->node_limit)
                return UINT32_MAX;
            if ((uint64_t)t->next * 2 > t->mask && grow_in_time(d)) { /* half full: grow, find the new slot */
                if (table_grow(t) != AP_OK)
                    return UINT32_MAX;
                return key_id(d, key);
            }
            if ((uint64_t)t->next * 4 > (uint64_t)t->mask * 3) /* (not grown: up to 3/4 full, then no id) */
                return UINT32_MAX;
            t->slots[i].key = key;
            t->dirty = true;
            return t->slots[i].id = t->next++;
        }
    }
}

/* True when the analytic edge is tried from state s, the e-th expansion (kino.h AP_KINO_ANALYTIC_*). */
static bool analytic_due(const ap_kino_params *p, const ap_kino_state *s, uint64_t e)
{
    return s->v >= 0.0 && (goal_dist(p, s->x, s->y) <= AP_KINO_ANALYTIC_NEAR * (p->turning_radius + 1.0) ||
                           e % AP_KINO_ANALYTIC_EVERY == 0);
}

/* The analytic edge from node's state (analytic.h) as one more successor, the goal: 1 when it exists, is
 * tried (near the goal or every AP_KINO_ANALYTIC_EVERY-th expansion; once an edge is kept, only every
 * AP_KINO_ANALYTIC_KEPT_EVERY-th of those) and beats the kept edge, else 0. The domain belongs to one
 * plan on one thread (kino.h), so the best edge and the expansion count live in it despite the const of the
 * core's interface. */
static int analytic_successor(const ap_kino_domain *cd, uint32_t node, const ap_kino_state *s, ap_succ *out,
                              ap_kino_state *outs)
{
    ap_kino_domain *d = (ap_kino_domain *)cd;
    const ap_kino_params *p = &d->p;
    d->expanded++;
    if (d->tail == NULL || d->ws == NULL || !analytic_due(p, s, d->expanded))
        return 0; /* (forward curves only: never from a state driving backwards) */
    /* Once an edge is kept, a better one is rare (about 1 try in 2,700 on the Table 5.3 setup) and most tries
     * are refused only after the six Dubins words: then only every AP_KINO_ANALYTIC_KEPT_EVERY-th expansion
     * tries (BENCHMARKS.md "Cheaper iterations, fourth round": -10 % time per iteration, +0.2-0.5 %
     * iterations on the admissible rows, the same misses there). */
    if (d->tail_total < INFINITY && d->expanded % AP_KINO_ANALYTIC_KEPT_EVERY != 0)
        return 0;
    /* Only an edge better than the kept one matters: one no better would change neither the goal's g (the core
     * keeps the smaller, and the goal's g is at most tail_total) nor the kept edge. */
    const double g = d->ws->nodes[node].g;
    if (!ap_kino_analytic_below(p, s, g, d->tail_total, d->tail))
        return 0;
    const ap_kino_tail *t = d->tail;
    d->tail_parent = node;
    d->tail_total = g + t->duration;
    const ap_segment *e = &t->seg[t->n - 1];
    *outs = (ap_kino_state){.x = e->x1, .y = e->y1, .h = ap_segment_end_heading(e), .v = t->time[t->n - 1].v_end,
                            .dt = t->duration, .analytic = true};
    *out = (ap_succ){AP_KINO_GOAL, t->duration};
    return 1;
}

static int kino_successors(const void *ctx, uint32_t node, const void *payload, ap_succ *out, void *out_payload)
{
    const ap_kino_domain *d = ctx;
    ap_kino_state *outs = out_payload;
    int geo[AP_KINO_MAX_SUCC];
    const int n = expand_all(&d->p, payload, outs, geo);
    int m = 0;
    ((ap_kino_domain *)d)->hmemo_n = 0; /* kino_h's memo holds this expansion's poses only */
    /* first every successor's goal test and bin key, each key's slot prefetched (the table is far larger
     * than the cache and the bins of one state's successors lie apart in it); then the look-ups, in order.
     * Successors along the same path (geo) share the goal distance and the key's pose part. */
    uint64_t key[AP_KINO_MAX_SUCC], pkey[AP_KINO_MAX_SUCC], sk = 0;
    double dist[AP_KINO_MAX_SUCC], sv = NAN; /* (the successors of one intensity, in a row, share the speed) */
    for (int k = 0; k < n; k++) {
        const int j = geo[k];
        if (j == k) {
            dist[k] = goal_dist(&d->p, outs[k].x, outs[k].y);
            pkey[k] = pose_key(&d->p, &outs[k]);
        } else {
            dist[k] = dist[j];
            pkey[k] = pkey[j];
        }
        if (!(outs[k].v == sv)) {
            sv = outs[k].v;
            sk = speed_key(&d->p, sv);
        }
        key[k] = at_goal_at(&d->p, dist[k], outs[k].h, outs[k].v) ? 0 : (pkey[k] | sk) + 1;
        if (key[k] != 0)
            __builtin_prefetch(&d->tab->slots[slot_of(key[k], d->tab->mask)]);
    }
    for (int k = 0; k < n; k++) {
        const uint32_t id = key[k] == 0 ? AP_KINO_GOAL : key_id(d, key[k]);
        if (id == UINT32_MAX) { /* no id left: counted, so the plan can say its answer is not proven */
            ((ap_kino_domain *)d)->dropped++;
            continue;
        }
        /* (hval is 0 as ap_kino_expand wrote it: the goal's; any other's is computed by kino_h if the core
         * keeps the successor) */
        if (m != k)
            outs[m] = outs[k];
        out[m] = (ap_succ){id, outs[m].dt};
        m++;
    }
    return m + analytic_successor(d, node, payload, out + m, outs + m);
}

/* The core asks for a node's heuristic only when the node is new or improved, after it has written the
 * node's payload (open_heap.h RELAX), so the heuristic is computed here from that payload (and kept in its
 * hval) rather than for every successor: a successor whose bin already has a better g costs no time bound.
 * The start's is computed from the params (its payload is written only after ap_search_begin). */
static double kino_h(const void *ctx, uint32_t node, uint32_t goal)
{
    (void)goal;
    const ap_kino_domain *d = ctx;
    if (node == AP_KINO_GOAL)
        return 0.0;
    const double w = d->p.weight > 1.0 ? d->p.weight : 1.0;
    if (node == AP_KINO_START || d->ws == NULL)
        return w * ap_kino_heuristic(&d->p, d->p.sx, d->p.sy, d->p.sh, d->p.sv);
    ap_kino_state *st = &((ap_kino_state *)d->ws->payload)[node];
    /* The length part for a pose this expansion's kept successors had already (the same path at another
     * speed: a quarter of the calls on the Table 5.3 setup) is taken from the memo, the same number. The
     * domain belongs to one search on one thread (kino.h), so the memo lives in it despite the const. */
    ap_kino_domain *md = (ap_kino_domain *)d;
    double s = 0.0;
    int i = 0;
    while (i < md->hmemo_n && !(md->hmemo[i].x == st->x && md->hmemo[i].y == st->y && md->hmemo[i].h == st->h))
        i++;
    if (i < md->hmemo_n)
        s = md->hmemo[i].s;
    else {
        s = length_part(&d->p, goal_dist(&d->p, st->x, st->y), st->x, st->y, st->h);
        if (md->hmemo_n < AP_KINO_HMEMO)
            md->hmemo[md->hmemo_n++] = (ap_kino_hmemo){st->x, st->y, st->h, s};
    }
    return st->hval = w * time_part(&d->p, s, st->h, st->v);
}

int ap_kino_probe(const ap_kino_params *params, ap_kino_state *out, int cap, bool *reached, int *expanded,
                  ap_kino_tail *tail)
{
    const ap_kino_params p = ap_kino_prepare(params);
    ap_kino_state succ[AP_KINO_MAX_SUCC];
    int n = 0, exp = 0;
    *reached = false;
    if (cap >= 1) {
        out[n++] = start_state(&p);
        double best = out[0].hval; /* Algorithm 6's global_best_h */
        while (!(*reached = ap_kino_at_goal(&p, out[n - 1].x, out[n - 1].y, out[n - 1].h, out[n - 1].v))) {
            /* the edge is tried from the state the last allowed step reached too (into out[cap]): it costs no
             * expansion, so a probe that reaches the goal in E counted steps does so under a cap of E (a
             * limits helper's cap of stats.expanded answered no_path) */
            if (tail != NULL && analytic_due(&p, &out[n - 1], (uint64_t)exp + 1) && ap_kino_analytic(&p, &out[n - 1], tail)) {
                const ap_segment *e = &tail->seg[tail->n - 1];
                out[n++] = (ap_kino_state){.x = e->x1, .y = e->y1, .h = ap_segment_end_heading(e),
                                           .v = tail->time[tail->n - 1].v_end, .dt = tail->duration, .analytic = true};
                *reached = true;
                break;
            }
            if (n >= cap)
                break;
            const int ns = ap_kino_expand(&p, &out[n - 1], succ);
            exp++;
            int pick = -1;
            bool pick_goal = false;
            double local = best; /* local_best_h */
            for (int k = 0; k < ns && !pick_goal; k++) {
                const double dist = goal_dist(&p, succ[k].x, succ[k].y);
                if (at_goal_at(&p, dist, succ[k].h, succ[k].v)) {
                    pick = k;
                    pick_goal = true;
                    local = 0.0;
                    continue;
                }
                const double h = heuristic_at(&p, dist, succ[k].x, succ[k].y, succ[k].h, succ[k].v);
                if (h < local) {
                    local = h;
                    pick = k;
                }
            }
            if (pick < 0)
                break; /* no improvement */
            succ[pick].hval = local;
            out[n++] = succ[pick];
            best = local;
        }
    }
    if (expanded != NULL)
        *expanded = exp;
    return n;
}

int ap_kino_seed(ap_kino_domain *d, ap_search *s, const ap_kino_state *states, int n)
{
    uint32_t parent = AP_KINO_START;
    double g = 0.0;
    int seeded = 0;
    for (int i = 1; i < n && d->tab->next < d->node_limit; i++) {
        const uint32_t id = d->tab->next++; /* an id of its own: never in the bin table */
        ap_kino_state st = states[i];
        st.hval = ap_kino_heuristic(&d->p, st.x, st.y, st.h, st.v); /* the search's heuristic, not the probe's */
        g += st.dt;
        if (ap_search_seed(s, id, parent, g, &st) != AP_OK)
            break;
        parent = id;
        seeded++;
    }
    return seeded;
}
