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
#include "../world/map.h"
#include "../base/path.h"
#include "../search/search.h"
#include "../base/limits.h"
#include "../base/status.h"

/* Search algorithms. Values are stable; proto/wire.c maps the wire names ("astar", "jps", ...). An algorithm
 * a build does not implement yet is rejected by ap_query_check with field "search.algorithm". */
typedef enum ap_algorithm {
    AP_ALG_ASTAR = 0,     /* "astar": A* on the grid (grid.h) */
    AP_ALG_JPS,           /* "jps": Jump Point Search, online (Harabor & Grastien 2011; jps.h); 8-connected */
    AP_ALG_JPS_PLUS,      /* "jps_plus": JPS+ over jump-distance tables built at map load (jps.h); 8-connected */
    AP_ALG_DIRECTIONAL8,  /* "directional8": Pinter's Directional A*, 8 neighbours */
    AP_ALG_DIRECTIONAL24, /* "directional24" */
    AP_ALG_DIRECTIONAL48, /* "directional48" */
    AP_ALG_HYBRID,        /* "hybrid": Pinter Figure 20 pipeline */
    AP_ALG_AUTO,          /* "auto": the fastest valid choice for the unit (see ap_plan_begin) */
    AP_ALG_COUNT
} ap_algorithm;
typedef enum ap_smoothing { AP_SMOOTH_NONE = 0, AP_SMOOTH_LOS = 1 } ap_smoothing;

struct ap_profile_cache; /* profile.h */
struct ap_plan_dir;      /* plan_dir.h */

/* A validated query. Positions in tiles (map coordinates), headings in radians, lengths in tiles. */
typedef struct ap_query {
    const ap_map *map;       /* borrowed; must outlive the plan */
    double sx, sy;           /* start position */
    double sheading;         /* start heading if has_sheading */
    bool has_sheading;       /* without it the unit starts facing its first waypoint */
    double gx, gy;           /* goal position */
    double unit_radius;      /* >= 0, tiles: the disc used for smoothing and the clearance verdict */
    double turning_radius;   /* >= 0, tiles: 0 = turns on the spot (no arcs) */
    ap_algorithm algorithm;  /* AP_ALG_ASTAR by default on the wire */
    int connectivity;        /* 4 or 8 */
    ap_smoothing smoothing;  /* AP_SMOOTH_NONE or AP_SMOOTH_LOS (default) */
    double sample_step;      /* > 0: also return poses every sample_step tiles (and at the end); 0 = none */
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
    struct ap_profile_cache *profiles; /* profile-table cache; NULL = ap_profile_cache_default() */
} ap_query;

/* The answer. Arrays are malloc'd and owned by the result; free with ap_result_free. */
typedef struct ap_result {
    int status;              /* AP_OK, AP_NO_PATH, AP_TIMEOUT, or an AP_E_* code */
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
    uint64_t expanded;       /* A* expansions, all slices and restarts included */
    bool region_pruned;      /* answered no_path from the region table without searching */
    char message[128];       /* for request errors found while planning: the error message ("" = default) */
} ap_result;

/* A plan in progress. Treat as opaque; fields are public only so callers can embed it. */
typedef struct ap_plan {
    ap_query q;
    ap_grid_domain grid;
    ap_jps_domain jps;        /* used when alg is AP_ALG_JPS or AP_ALG_JPS_PLUS */
    ap_algorithm alg;         /* the algorithm actually run (AP_ALG_AUTO resolved) */
    ap_domain dom;
    ap_search search;
    uint32_t start_node, goal_node;
    uint64_t deadline_ns;
    uint64_t expanded_before; /* expansions of searches abandoned by ap_plan_move */
    int state;                /* AP_IN_PROGRESS, or the final status */
    bool has_search;
    bool region_pruned;       /* answered AP_NO_PATH from the region table (added with the implementation) */
    const atomic_int *cancel; /* kept here so ap_plan_move can hand it to the restarted search */
    const char *field;        /* offending field when ap_plan_begin failed validation */
    struct ap_plan_dir *dirp; /* directional / hybrid state (plan_dir.c), malloc'd; NULL otherwise */
    char message[128];        /* error message when ap_plan_begin failed for a reason the field alone does
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

/* Check a query against its map: positions finite and inside [0, width) x [0, height) (AP_E_OUT_OF_BOUNDS),
 * start/goal cells passable (AP_E_START_BLOCKED / AP_E_GOAL_BLOCKED), radii in range, connectivity 4|8 and
 * art_directions 0|8|16 (AP_E_INVALID_REQUEST). Sets *field (if non-NULL) to the offending field name.
 * Returns AP_OK otherwise. */
int ap_query_check(const ap_query *q, const char **field);

/* Begin a plan: checks the query (as ap_query_check), answers AP_NO_PATH at once when the region table
 * says start and goal are not connected, otherwise starts an A* search on ws (Pinter's fast matrix) over
 * the domain q->algorithm selects: the grid (astar), jump points (jps, jps_plus; 8-connected only, else
 * AP_E_INVALID_REQUEST on "search.algorithm"). "auto" runs jps_plus for 8-connected uniform-cost maps and
 * A* otherwise; p->alg records the choice. On a map with terrain costs (map.h) only A* is valid: jps,
 * jps_plus and the legal-turn algorithms are refused (AP_E_INVALID_REQUEST, field "search.algorithm", the
 * reason in p->message) and "auto" runs A* for every unit (turning units get Pinter's curves on the
 * smoothed A* path, whose shortcuts only cross the map's cheapest terrain). deadline_ns: CLOCK_MONOTONIC ns (ap_clock_ns), 0 = none. Returns the plan state: AP_IN_PROGRESS, AP_OK
 * (start cell == goal cell), AP_NO_PATH, or an AP_E_* error. */
int ap_plan_begin(ap_plan *p, const ap_query *q, ap_workspace *ws, uint64_t deadline_ns);

/* Run up to max_expansions expansions (0 = to the end). Returns AP_IN_PROGRESS, AP_OK, AP_NO_PATH or
 * AP_TIMEOUT. */
int ap_plan_step(ap_plan *p, uint64_t max_expansions);

/* Move an unfinished plan to another workspace (Pinter's slow matrix, "Path Failure and Timeslicing"):
 * the search restarts there from scratch; the expansions already spent are kept in the count. The plan no
 * longer touches its old workspace. Returns the plan state. */
int ap_plan_move(ap_plan *p, ap_workspace *ws);

/* Set a cancel flag the search polls every 256 expansions (e.g. server shutdown); NULL to clear. The flag
 * is read with a relaxed atomic load, so another thread may set it at any time. */
void ap_plan_set_cancel(ap_plan *p, const atomic_int *cancel);

/* Expansions spent so far by the plan, over every slice and restart. Thread: the plan's owner. */
uint64_t ap_plan_expanded(const ap_plan *p);

/* Build the answer once the plan is no longer AP_IN_PROGRESS: for AP_OK copies the grid path out of the
 * workspace, makes waypoints (start point, cell centres, goal point), smooths (Pinter Listing 1 with the
 * exact swept-disc Walkable), adds turning-radius curves (Pinter Figs 5-6), computes `clear` with the exact
 * disc/cell check over every segment, converts the segments to fixed-angle art lines when
 * q->art_directions is 8 or 16 (art.h; `clear` is then that of the art lines), and samples poses
 * (Listing 2). Must be called before the workspace
 * is reused. Fills *r (caller frees with ap_result_free). Returns r->status (AP_E_NOMEM on allocation
 * failure, AP_E_INVALID_REQUEST with field "samples.step" when more than max_samples samples would result). */
int ap_plan_finish(ap_plan *p, ap_result *r);

/* Free the arrays of a result and zero it. NULL is ignored. */
void ap_result_free(ap_result *r);

#endif
