/* plan.h — a path query from request to segments: validate, region check, grid search (time-sliced),
 * waypoints, smoothing, turning-radius curves, clearance verdict, pose samples.
 *
 * This is the one entry point the server and the bench use. A plan is caller-owned and used by one thread
 * at a time; it may move between threads between slices (the server re-queues slow plans on the pool).
 */
#ifndef AP_PLAN_H
#define AP_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../grid/grid.h"
#include "../grid/jps.h"
#include "../world/circles.h"
#include "../world/map.h"
#include "../base/path.h"
#include "../search/search.h"
#include "../base/limits.h"
#include "../base/status.h"
#include "../kino/timing.h"
#include "../kino/vehicle.h"

/* Search algorithms. Values are stable. Each has one row in the algorithm table (algorithms.h): its wire
 * name ("astar", "jps", ...), what it accepts and the plan kind that runs it; proto/wire.c parses names
 * through that table. A value without a row is rejected by ap_query_check with field "search.algorithm". */
typedef enum ap_algorithm {
    AP_ALG_ASTAR = 0,     /* "astar": A* on the grid (grid.h) */
    AP_ALG_JPS,           /* "jps": Jump Point Search, online (Harabor & Grastien 2011; jps.h); 8-connected */
    AP_ALG_JPS_PLUS,      /* "jps_plus": JPS+ over jump-distance tables built at map load (jps.h); 8-connected */
    AP_ALG_DIRECTIONAL8,  /* "directional8": Pinter's Directional A*, 8 neighbours */
    AP_ALG_DIRECTIONAL24, /* "directional24" */
    AP_ALG_DIRECTIONAL48, /* "directional48" */
    AP_ALG_HYBRID,        /* "hybrid": Pinter Figure 20 pipeline */
    AP_ALG_AUTO,          /* "auto": the fastest valid choice for the unit (see ap_plan_begin) */
    AP_ALG_ANY_ANGLE,     /* "any_angle": the exact Euclidean shortest path (anyangle.h, plan_anyangle.c) */
    AP_ALG_HIERARCHICAL,  /* "hierarchical": HAA*, the abstract graph's corridor refined by A* (plan_hier.c) */
    AP_ALG_KINODYNAMIC,   /* "kinodynamic": A* in (x, y, heading, speed), cost in seconds (kino.h, plan_kino.c) */
    AP_ALG_COUNT
} ap_algorithm;
/* Smoothing of grid answers: none (the cell path), los (Pinter's Listing 1, smooth.h ap_smooth_los), taut
 * (Listing 1, then every bend pulled toward its corner: smooth.h ap_smooth_taut; as los for a unit with a
 * turning radius, whose curves need the room a bend at a cell centre leaves). */
typedef enum ap_smoothing { AP_SMOOTH_NONE = 0, AP_SMOOTH_LOS = 1, AP_SMOOTH_TAUT = 2 } ap_smoothing;

struct ap_profile_cache;   /* profile.h */
struct ap_plan_kind;       /* plan_kind.h */
struct ap_algorithm_row;   /* algorithms.h */

/* A validated query. Positions in tiles (map coordinates), headings in radians, lengths in tiles. */
typedef struct ap_query {
    const ap_map *map;       /* borrowed; must outlive the plan; NULL when the world is `circles` */
    const ap_circle_world *circles; /* a circle map (circles.h), borrowed, instead of map; else NULL. Only
                              * plan kinds that serve circle worlds accept it (any_angle, auto) */
    const ap_circle *obstacles; /* n_obstacles extra circles (borrowed) added to the world for this query
                              * only (each finite, r > 0; at most AP_MAX_OBSTACLES); kinds that serve them
                              * only (any_angle, auto) */
    size_t n_obstacles;
    const struct ap_zone *zone; /* corridor mode (world/zone.h): the only free space besides the map's, or
                              * NULL; borrowed. Kinodynamic only (the wire records it as kino_field) */
    double sx, sy;           /* start position */
    double sheading;         /* start heading if has_sheading */
    bool has_sheading;       /* without it the unit starts facing its first waypoint */
    double gx, gy;           /* goal position */
    double unit_radius;      /* >= 0, tiles: the disc used for smoothing and the clearance verdict */
    double aa_margin;        /* tiles any_angle adds to unit_radius for its graph: auto sets it for a disc's
                              * long queries (algorithms.c, auto_disc) so the exact path is clear by the strict
                              * rule; 0 otherwise (not on the wire) */
    uint8_t capability;      /* terrains the unit may enter (capability.h bit set, 1 .. 15); 0 = the map's
                              * own passability and terrain costs. The plan runs on the capability's view
                              * of the map (view.h, ap_query_map) */
    int unit_size;           /* 0, or k >= 1: a square k x k unit (Harabor's true clearance) instead of a
                              * disc; positions are the footprint's centre (ap_query_cell) */
    double turning_radius;   /* >= 0, tiles: 0 = turns on the spot (no arcs) */
    ap_algorithm algorithm;  /* AP_ALG_ASTAR by default on the wire */
    int connectivity;        /* 4 or 8 */
    ap_smoothing smoothing;  /* AP_SMOOTH_NONE, AP_SMOOTH_LOS (default) or AP_SMOOTH_TAUT */
    double sample_step;      /* > 0: also return poses every sample_step tiles (and at the end); 0 = none */
    double sample_dt;        /* > 0: instead, poses every sample_dt seconds (and at the end), answers with
                              * timing only (the kinodynamic kind, or `timed`); 0 = none. Not both with
                              * sample_step */
    size_t max_samples;      /* cap on the number of samples (0 = AP_DEFAULT_MAX_SAMPLES) */
    /* Legal-turn searches (directional8/24/48, hybrid, auto for turning units; plan_dir.c). A zeroed field
     * means the default noted. */
    double gheading;         /* goal heading (radians) if has_gheading; honoured by the directional searches */
    bool has_gheading;
    int headings;            /* compass headings of the directional lattice: 8 (default, also 0) or 16 */
    bool reverse;            /* the unit may drive backwards (Reeds-Shepp edges) */
    double reverse_penalty;  /* multiplier >= 1 on lengths driven backwards; 0 = default 2 */
    double turn_penalty;     /* >= 0 tiles charged per radian turned (Pinter's turn penalty); default 0 */
    int art_directions;      /* 0 = free angles; 8 or 16 = fixed-angle art: the answer's segments become lines
                              * at multiples of 2pi/N (art.h), every algorithm */
    /* Kinodynamic searches (plan_kino.c). The wire fills vehicle with the car profile's limits unless a unit
     * kind or the request gives them; other kinds use vehicle only when `timed`, and refuse the rest
     * (kino_field). */
    ap_vehicle vehicle;      /* unit.max_speed, max_accel, max_brake, max_lateral_accel (SI units) */
    double meters_per_tile;  /* the map's scale, metres per tile; 0 = the map's own (ap_map.meters_per_tile,
                              * from the config's meters_per_tile; 1 on a circle world, whose scale the
                              * server sets here from its version, ap_circle_map.meters_per_tile) */
    double start_speed;      /* start.speed, m/s in [0, max_speed] */
    double goal_speed;       /* goal.speed, m/s in [0, max_speed] */
    double tol_position;     /* goal_tolerance.position, tiles; 0 = AP_DEFAULT_TOL_POSITION */
    double tol_heading;      /* goal_tolerance.heading, radians; 0 = AP_DEFAULT_TOL_HEADING */
    double tol_speed;        /* goal_tolerance.speed, m/s; 0 = AP_DEFAULT_TOL_SPEED */
    uint64_t max_expansions; /* search.max_expansions; 0 = AP_DEFAULT_KINO_EXPANSIONS */
    bool probe;              /* search.probe: the probing search first (plan_kino.c, thesis Algorithm 1) */
    double weight;           /* search.weight: weighted A* (kino.h ap_kino_params.weight), in
                              * [1, AP_MAX_KINO_WEIGHT]; 0 = 1 (plain A*) */
    const char *kino_field;  /* the first kinodynamic-only field the request gave (goal_tolerance,
                              * search.max_expansions, search.probe, search.weight), or NULL: refused for
                              * other kinds */
    bool timed;              /* the request named vehicle limits (a unit kind that sets them, or any of
                              * unit.max_speed, max_accel, max_brake, max_lateral_accel): a kind without
                              * timing of its own gets the time-optimal speed profile along its answer
                              * (kino/timing.h, ap_plan_timing) */
    const char *speed_field; /* the first of start.speed, goal.speed the request gave, or NULL: other kinds
                              * than kinodynamic accept them only when timed */
    struct ap_profile_cache *profiles; /* profile-table cache; NULL = ap_profile_cache_default() */
    const struct ap_profile_admit *profile_admit; /* may this query's profile build evict a cached one?
                                                   * (turns/profile.h); NULL = yes. Borrowed, must outlive
                                                   * the plan */
} ap_query;

/* Where a sample in time (samples.dt) lies: its distance along the path (tiles), its time (seconds from the
 * start) and the speed there (m/s). */
typedef struct ap_sample_time {
    double d, t, v;
} ap_sample_time;

/* The answer. Arrays are malloc'd and owned by the result; free with ap_result_free. */
/* Why a plan answered AP_NO_PATH. The weaker claim is the zero value, so a result built anywhere else never
 * claims a proof it does not have. */
typedef enum ap_no_path_reason {
    AP_NO_PATH_NOT_FOUND = 0, /* an incomplete search gave up: the legal-turn lattice in its window, the
                               * hybrid pipeline; a path may still exist (wire "not_found") */
    AP_NO_PATH_UNREACHABLE,   /* proven: start and goal are in different regions of the region table, or a
                               * complete search (the grid kinds, over the whole map) exhausted its open
                               * list (wire "unreachable") */
    AP_NO_PATH_STATE_LIMIT,   /* the kinodynamic search had no id left for a new state (as many states as
                               * its workspace has nodes, max_workspace_cells on the server) and dropped
                               * states before it found a path, or the hybrid's grid path had more waypoints
                               * than its Smoothing48 nodes (waypoints x headings) fit in the workspace; a
                               * path may still exist (wire "state_limit") */
} ap_no_path_reason;

typedef struct ap_result {
    int status;              /* AP_OK, AP_NO_PATH, AP_TIMEOUT, or an AP_E_* code */
    ap_no_path_reason no_path_reason; /* for AP_NO_PATH: proven unreachable, or not found */
    const char *field;       /* for request errors: the offending field ("start", "samples.step"), else NULL */
    double grid_cost;        /* optimal grid path cost before smoothing (tiles) */
    double length;           /* length of the returned geometry = sum of segment lengths (tiles) */
    bool clear;              /* the unit's disc swept along every segment touches no blocked/off-map cell */
    double (*waypoints)[2];  /* n_waypoints points, [x, y] */
    size_t n_waypoints;
    ap_segment *segments;
    size_t n_segments;
    ap_pose *samples;
    size_t n_samples;
    ap_sample_time *sample_times; /* with q->sample_dt: one per sample (n_samples), else NULL */
    uint64_t expanded;       /* A* expansions, all slices and restarts included */
    ap_seg_time *timing;     /* kinodynamic and timed plans: one per segment (speeds and times), else NULL */
    double duration_s;       /* kinodynamic and timed plans: the trajectory's duration (seconds) */
    bool probe;              /* kinodynamic plans: the path is the probing search's (search.probe), not A*'s */
    bool capped;             /* kinodynamic plans: search.max_expansions or the deadline stopped A* after it
                              * had reached the goal, or A* had to drop new states (no id left: the state
                              * limit); the path is the fastest found, not proven the fastest */
    bool region_pruned;      /* answered no_path from the region table without searching */
    char message[256];       /* for request errors found while planning: the error message ("" = default) */
} ap_result;

/* Inline storage for the context of a plan's search domain (p->dom.ctx points into it): the grid and JPS
 * domains fit, so grid plans allocate nothing; a kind with more state keeps it in kind_state. */
typedef union ap_plan_dom_ctx {
    ap_grid_domain grid;
    ap_jps_domain jps;
} ap_plan_dom_ctx;

/* A plan in progress. Treat as opaque; fields are public only so callers can embed it. What a plan kind
 * (plan_kind.h) needs beyond these generic fields lives behind kind_state. */
typedef struct ap_plan {
    ap_query q;
    const struct ap_plan_kind *kind;       /* the kind running the plan (auto resolved); NULL before one */
    const struct ap_algorithm_row *row;    /* the algorithm row being run (auto resolved) */
    ap_algorithm alg;         /* the algorithm actually run (AP_ALG_AUTO resolved for grid plans) */
    ap_plan_dom_ctx dom_ctx;  /* context of dom when it is a grid or JPS domain */
    ap_domain dom;
    ap_search search;
    uint32_t start_node, goal_node;
    uint64_t deadline_ns;
    uint64_t expanded_before; /* expansions of searches abandoned by ap_plan_move or finished by a kind */
    int state;                /* AP_IN_PROGRESS, or the final status */
    bool has_search;
    bool region_pruned;       /* answered AP_NO_PATH from the region table (added with the implementation) */
    bool start_snapped, goal_snapped; /* a sized disc's grid search moved its start (goal) node to a neighbour
                                       * cell (plan_kind.h ap_plan_grid_ends_fit): the path passes that
                                       * cell's centre */
    /* The other cells a sized disc's ends may take (plan_grid.c other_ends), tried when the first search
     * ends in no_path: the start's and goal's own cells, then per end the candidates (the first the one
     * the first search took), which of the start's a flood has reached, the phase (0: the first search, 1:
     * flooding from start candidate ends_k, 2: the answer's search) */
    uint32_t end_cell[2];
    uint32_t end_cand[2][9];
    uint8_t n_end_cand[2];
    uint8_t ends_phase, ends_k;
    uint16_t ends_reached;
    ap_no_path_reason no_path_reason; /* a kind's reason for AP_NO_PATH (zero: not_found; a complete kind's
                                       * or the region table's no_path is unreachable regardless) */
    const atomic_int *cancel; /* kept here so ap_plan_move can hand it to the restarted search */
    uint64_t slice_end_ns;    /* the current slice's time bound (ap_plan_step_for), 0 = none */
    const char *field;        /* offending field when ap_plan_begin failed validation */
    void *kind_state;         /* the kind's own state (e.g. plan_dir.c's tables and paths), malloc'd; or NULL */
    char message[256];        /* error message when ap_plan_begin failed for a reason the field alone does
                               * not say ("" = the status's default) */
} ap_plan;

/* Most successors one expansion of any plan domain yields (Directional48 with 16 headings and reverse):
 * workspaces handed to ap_plan_begin must be initialised with at least this max_succ. */
#define AP_PLAN_MAX_SUCC 2048

/* Smallest node capacity a server workspace should have, whatever the maps: directional searches run in a
 * window of W x W cells x H' states (H' = headings, doubled with reverse) that must fit the workspace, so a
 * server holding only small maps still gets a useful window: 262144 nodes = 181 tiles with 8 headings,
 * 90 tiles with 16 headings and reverse. 262144 x 57 bytes = 14 MiB per workspace (ap_workspace_init). */
#define AP_PLAN_MIN_WORKSPACE_NODES 262144u

/* Release what a plan holds outside the workspace (directional tables, hybrid paths) without building a
 * result: for plans abandoned while AP_IN_PROGRESS (deadline between slices, shutdown). ap_plan_finish
 * calls it itself. Idempotent; safe on a plan ap_plan_begin refused. Thread: the plan's owner. */
void ap_plan_release(ap_plan *p);

/* Why a query was refused: the offending field as a dotted wire path ("unit.radius", "search.algorithm")
 * and a message that says why ("jps needs search.connectivity 8"). */
typedef struct ap_query_error {
    const char *field;  /* static string; NULL when the query is valid */
    char message[256];  /* "" when valid (as long as the wire error's, proto/errors.h ap_wire_error) */
} ap_query_error;

/* The one validation pass over a query (the wire only parses types and shapes). The request's own faults
 * come before the world's verdict on its points (README "Errors" gives the order), in this order:
 * unit.capability (a set of terrains the map has tables for; none on circle maps, nor unit.size there);
 * AP_E_INVALID_REQUEST for the fields' ranges: the unit (unit.radius in [0, AP_MAX_UNIT_RADIUS],
 * unit.turning_radius in [0, AP_MAX_TURNING_RADIUS], start.heading finite), the search (unit.art_directions
 * 0|8|16, search.headings 0|8|16, unit.reverse_penalty 0 or in [1, 100], search.turn_penalty in [0, 100],
 * goal.heading finite, search.connectivity 4|8, search.smoothing, samples.step 0 or >= AP_MIN_SAMPLE_STEP
 * (limits.h), samples.dt), obstacles, unit.size;
 * then start and goal finite and inside [0, width) x [0, height) tiles (AP_E_OUT_OF_BOUNDS); then what the
 * algorithm's row accepts (algorithms.h: a turning radius > 0, field unit.turning_radius; connectivity 8
 * and a uniform-cost map, field search.algorithm; the vehicle and timing fields); last, start and goal on
 * passable cells (AP_E_START_BLOCKED / AP_E_GOAL_BLOCKED). row: the algorithm to judge against; NULL = the
 * table's row for q->algorithm. Fills *e (NULL allowed) and returns AP_OK, the status, or AP_E_INTERNAL for
 * a malformed ap_query (no map or both, obstacles without their array). Pure; thread-safe. */
int ap_query_validate(const ap_query *q, const struct ap_algorithm_row *row, ap_query_error *e);

/* The map q plans on: q->map as q->capability sees it (world/view.h ap_map_view), or NULL when the map has
 * no tables for that capability. Pure; thread-safe. */
const ap_map *ap_query_map(const ap_query *q);

/* The scale q plans at, metres per tile: q->meters_per_tile when > 0, else the map's
 * (ap_map.meters_per_tile when > 0), else 1 (circle worlds, maps without a scale). Pure; thread-safe. */
double ap_query_meters_per_tile(const ap_query *q);

/* The search cell of a position: the cell under (x, y) for a disc unit; for a square unit of size k the
 * top-left cell of the k x k footprint centred nearest (x, y): floor(x - (k - 1) / 2), likewise y (the
 * footprint's anchor, as Harabor's true clearance counts it). Path waypoints are footprint centres: anchor
 * + k / 2. Pure. */
void ap_query_cell(const ap_query *q, double x, double y, int32_t *cx, int32_t *cy);

/* ap_query_validate(q, NULL, ...) for callers that need only the field: sets *field (if non-NULL) to the
 * offending field name (a static string) or NULL. Returns AP_OK or the status. Pure; thread-safe. */
int ap_query_check(const ap_query *q, const char **field);

/* Begin a plan: checks the query (ap_query_validate; a refusal leaves the field in p->field and the reason
 * in p->message), answers AP_NO_PATH at once when the region table says start and goal are not connected,
 * otherwise hands the plan to the kind (plan_kind.h) of q->algorithm's row, which starts an A* search on ws
 * (Pinter's fast matrix) over its domain: the grid (astar), jump points (jps, jps_plus; 8-connected,
 * uniform-cost maps), or the legal-turn searches (plan_dir.c). "auto" runs jps_plus for 8-connected
 * uniform-cost maps and A* otherwise, and for turning units on uniform-cost maps the hybrid escalating to
 * directional24; circle worlds, per-query obstacles and the long queries ap_query_auto_may_anyangle names go to
 * any_angle (a disc's once its graph is built), long sized-disc queries without JPS+ tables to hierarchical
 * (algorithms.c auto_begin); p->alg records the choice. On a map with terrain costs (map.h) the rows that need
 * a uniform-cost map are refused (AP_E_INVALID_REQUEST, field "search.algorithm": jps, jps_plus, hybrid,
 * any_angle, kinodynamic); astar, hierarchical and the directional searches (which weigh each curve by the
 * terrain it touches) run, and "auto" runs A* for units without a turning radius and directional24 for
 * turning units. deadline_ns: CLOCK_MONOTONIC ns (ap_clock_ns), 0 = none. Returns
 * the plan state: AP_IN_PROGRESS, AP_OK (start cell == goal cell), AP_NO_PATH, or an AP_E_* error (a refused
 * plan holds nothing: no ap_plan_finish needed). *q is copied into p, its pointers borrowed (must outlive the
 * plan); ws is the plan's until ap_plan_finish or ap_plan_move. Not thread-safe on p or ws: one thread at a
 * time (the file comment). */
int ap_plan_begin(ap_plan *p, const ap_query *q, ap_workspace *ws, uint64_t deadline_ns);

/* ap_plan_begin with a caller's algorithm row instead of q->algorithm's (which is then ignored): how an
 * algorithm that is not in the built-in table plugs in (algorithms.h explains the mechanism; the test
 * suite's Dijkstra fixture is one). row is borrowed and must outlive the plan; it is validated against as
 * ap_query_validate(q, row, ...) does. Same returns and thread rules as ap_plan_begin. */
int ap_plan_begin_with(ap_plan *p, const ap_query *q, const struct ap_algorithm_row *row, ap_workspace *ws,
                       uint64_t deadline_ns);

/* Run up to max_expansions expansions (0 = to the end): one time slice (Pinter, "Path Failure and
 * Timeslicing"). Returns AP_IN_PROGRESS, AP_OK, AP_NO_PATH or AP_TIMEOUT (or the plan's final state,
 * unchanged, once it is no longer in progress). One thread at a time on p and its workspace. */
int ap_plan_step(ap_plan *p, uint64_t max_expansions);

/* ap_plan_step that also ends the slice (AP_IN_PROGRESS) once max_ns nanoseconds of wall time have passed
 * (0 = no time bound), read where the deadline is read and after the slice's first expansion: a slice of
 * max_expansions is a few milliseconds for the grid and legal-turn kinds, but an any_angle search without
 * its map's table takes 1-20 ms an expansion (Pinter's lanes, "Path Failure and Timeslicing": a slice must
 * stay short for the work queued behind it). Only such a search honours the time bound: an any_angle search
 * whose graph has no eager table (ap_domain.costly). The others run their max_expansions, which bound them
 * well (microseconds an expansion), and a wall-clock cut under load would only move them to the slow lane to
 * start again (measured: kinodynamic queries over HTTP, a 2 ms fast slice, 20 % fewer answers a second).
 * Same returns and thread rules as ap_plan_step. */
int ap_plan_step_for(ap_plan *p, uint64_t max_expansions, uint64_t max_ns);

/* Stop a plan in progress now (its deadline passed between slices): AP_OK when its kind can answer with what
 * it has found (a kinodynamic search that has reached the goal: its fastest path so far, ap_result.capped),
 * else AP_TIMEOUT; the plan's state becomes that, so ap_plan_finish answers it. A plan no longer in progress
 * keeps its state, which is returned. Same thread as the search. */
int ap_plan_stop(ap_plan *p);

/* Move an unfinished plan to another workspace (Pinter's slow matrix, "Path Failure and Timeslicing"):
 * the search restarts there from scratch; the expansions already spent are kept in the count. The plan no
 * longer touches its old workspace (ws is the plan's from now on). Returns the plan state (unchanged for a plan
 * not in progress or without a search). Thread: the plan's owner, with both workspaces free of other users. */
int ap_plan_move(ap_plan *p, ap_workspace *ws);

/* Set a cancel flag the search polls every 256 expansions (e.g. server shutdown); NULL to clear. The flag
 * is read with a relaxed atomic load, so another thread may set it at any time; the flag is borrowed and must
 * outlive the plan. This call itself: the plan's owner thread. */
void ap_plan_set_cancel(ap_plan *p, const atomic_int *cancel);

/* Expansions spent so far by the plan, over every slice and restart. Thread: the plan's owner. */
uint64_t ap_plan_expanded(const ap_plan *p);

/* Build the answer once the plan is no longer AP_IN_PROGRESS: for AP_OK copies the grid path out of the
 * workspace, makes waypoints (start point, cell centres, goal point), smooths (Pinter Listing 1 with the
 * exact swept-disc Walkable), adds turning-radius curves (Pinter Figs 5-6), computes `clear` with the exact
 * disc/cell check over every segment, converts the segments to fixed-angle art lines when
 * q->art_directions is 8 or 16 (art.h; `clear` is then that of the art lines, in the answer's own model:
 * plan_kind.h art_world, any_angle's graph for units without a turning radius), gives a timed query
 * (q->timed) of a kind without timing of its own the time-optimal speed profile along those segments
 * (ap_plan_timing: segments split where the acceleration changes, r->timing and duration_s), and samples
 * poses (Listing 2, in distance or in time). Must be called before the workspace is reused, by the plan's owner
 * thread. Fills *r (caller frees with ap_result_free). Returns r->status (AP_E_NOMEM on allocation failure,
 * AP_E_INVALID_REQUEST with field "samples.step" and the counts in r->message when more than max_samples samples
 * would result; with field "start.speed" and the highest possible start speed in r->message when the path cannot be
 * driven from q->start_speed). */
int ap_plan_finish(ap_plan *p, ap_result *r);

/* Free the arrays of a result and zero it. NULL is ignored. The result's owner; thread-safe for distinct
 * results. */
void ap_result_free(ap_result *r);

/* Why ap_plan_begin refused the query: the offending request field as a dotted wire path
 * ("search.algorithm", "start.x"), or NULL when it named none or the plan was not refused. The string is
 * static or borrowed from the query; valid while the plan is. Thread: the plan's owner. */
const char *ap_plan_field(const ap_plan *p);

/* The message of ap_plan_begin's refusal when the field alone does not say why (NUL-terminated, at most
 * 255 bytes, inside the plan), or "" to use the status's default message. Thread: the plan's owner. */
const char *ap_plan_message(const ap_plan *p);

/* True when ap_plan_finish of p, a plan no longer in progress, is cheap enough for a latency-critical thread
 * (the one ap_query_slice_is_cheap lets run the slice): false for a finished grid search whose path costs more
 * than AP_PLAN_CHEAP_FINISH_TILES tiles or would give more than AP_PLAN_CHEAP_FINISH_SAMPLES samples, or
 * that samples in time. The answer grows with the path: the 261,632 cells of a 1-wide spiral on a 1024^2
 * map took ~25 ms to build and ~60 ms to encode (28.8 MB), on the HTTP thread, while every other client
 * waited (a helper). A server finishes such a plan elsewhere (its search again, on a pool thread). Pure;
 * the plan's owner thread. */
bool ap_plan_finish_is_cheap(const ap_plan *p);
#define AP_PLAN_CHEAP_FINISH_TILES 4096.0
#define AP_PLAN_CHEAP_FINISH_SAMPLES 4096.0

/* True when a slice of q's plan is cheap and bounded (plan_kind.h cheap_slice: grid searches, ~0.3 ms for
 * 2000 expansions) and the unit needs no curves built from per-unit tables (turning radius 0), so the
 * slice may run on a latency-critical thread: the server runs such fast slices on its HTTP thread (README
 * "How a request flows") and sends everything else to the pool. False for the legal-turn kinds, for a
 * query that builds a table first (ap_query_builds_table) and for an algorithm or map q does not name.
 * Pure; thread-safe. */
bool ap_query_slice_is_cheap(const ap_query *q);

/* True when ap_plan_begin of q would first build a table of its map that later queries share (ap_build_until
 * of the deadline: up to three quarters of the time to it): a sized unit's JPS+ tables (jps, jps_plus, auto
 * choosing jps_plus; jps_sized.h: up to ~0.3 s on a 1024^2 map) or a disc's or turning unit's any_angle
 * graph (any_angle, auto choosing it for a disc; anyangle/table.h: up to seconds). Such a query never runs
 * on the HTTP thread (ap_query_slice_is_cheap is false: the first jps_plus query of a disc on Paris_1_1024
 * held /healthz there for 0.3 s) and begins on the slow lane (ap_query_setup_is_heavy: two first any_angle
 * queries of new disc radii held both workers of the fast lane for 0.5-0.9 s). A look at the map's tables,
 * no build. Pure; thread-safe. */
bool ap_query_builds_table(const ap_query *q);

/* True when ap_plan_begin of q does long work before the first budgeted step, so a server should begin it on
 * its slow lane rather than let it hold a fast one: a legal-turn search (directional, hybrid, auto for a
 * turning unit) whose start and goal are AP_PLAN_HEAVY_CORRIDOR_TILES or more apart (its corridor's grid path
 * through the HAA* graph and the corridor's build, 13-41 ms corner to corner on Paris_1_1024), a
 * kinodynamic search whose obstacle-aware lattice region would pass AP_PLAN_HEAVY_LATTICE_CELLS
 * (ap_kino_lattice_cells: ~100 ns a cell, 70 ms for Paris corner to corner), a query that builds a
 * table (ap_query_builds_table), and a legal-turn query whose first unit profile is not in its cache (the
 * build: milliseconds, up to seconds for the widest discs; ap_profile_cache_has, no build). A guess from
 * the query alone, made before the plan exists. Pure; thread-safe. */
bool ap_query_setup_is_heavy(const ap_query *q);
#define AP_PLAN_HEAVY_CORRIDOR_TILES 256.0
#define AP_PLAN_HEAVY_LATTICE_CELLS 65536u

#endif
