/* suites.h — the Check suites of the planner test program (one per planner/ module). */
#ifndef AP_TEST_PLANNER_SUITES_H
#define AP_TEST_PLANNER_SUITES_H

#include "tests/check_fast.h"
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "../../planner/base/path.h"

#include "../../planner/world/map.h"
#include "../../planner/plan/plan.h"
#include "../util.h"

Suite *map_suite(void);
Suite *search_suite(void);
Suite *collide_suite(void);
Suite *smooth_suite(void);
Suite *curve_suite(void);
Suite *path_suite(void);
Suite *check_fast_suite(void);
Suite *plan_suite(void);
Suite *scenarios_suite(void);
Suite *hier_suite(void);
Suite *hier_cluster_suite(void);
Suite *directional_suite(void);
Suite *jps_suite(void);
Suite *jps_sized_suite(void);
Suite *dubins_suite(void);
Suite *reeds_shepp_suite(void);
Suite *grid_suite(void);
Suite *world_suite(void);
Suite *tables_suite(void);
Suite *capability_suite(void);
Suite *clearance_suite(void);
Suite *algorithms_suite(void);
Suite *units_suite(void);

/* Dijkstra as a caller-owned algorithm row (plan/fixture_dijkstra.c), for ap_plan_begin_with. */
struct ap_algorithm_row;
extern const struct ap_algorithm_row ap_test_dijkstra;
Suite *anyangle_suite(void);
Suite *plan_anyangle_suite(void);
Suite *plan_aaturn_suite(void);
Suite *aa_turning_suite(void);
Suite *circles_suite(void);
Suite *kino_suite(void);
Suite *timing_suite(void);

/* The kinodynamic suite's independent re-simulation of a timed answer r of query q (test_kino.c): limits to
 * 1e-6, G1 joins, speeds and times chained, the swept disc, start and goal within tolerance. Returns the
 * total heading change (radians). Fails the running test otherwise. */
double ap_test_kino_check(const ap_query *q, const ap_result *r);

/* An open map of w x h cells with a border of blocked cells and the extra blocked cells "x,y;x,y;..." (NULL:
 * none) (test_kino.c). */
ap_map *ap_test_kino_field(int w, int h, const char *blocked);
Suite *patch_suite(void);
Suite *lattice_suite(void);
Suite *aa_update_suite(void);
Suite *aa_visibility_suite(void);
Suite *aa_graph_suite(void);
Suite *aa_landmarks_suite(void);

/* m's letters as a Moving AI file (malloc'd, *len bytes; test_patch.c). */
char *ap_test_map_text(const ap_map *m, size_t *len);

/* The updated map u (ap_map_patch) equals a fresh parse of its own letters with opts (NULL: defaults):
 * passability, costs, and every table (same slots in the same order, same bytes and counts, equal content
 * by the kind's comparator). Returns how many of u's tables were updated incrementally (test_patch.c). */
int ap_test_patch_equals_fresh(const ap_map *u, const ap_map_opts *opts);

/* Assert that two any-angle graphs (anyangle/graph.h) are the same to the bit: corners (centres, radii,
 * quadrants) in the same order and the same eager table (departure ranges and every departure's line,
 * heading, length, target and sense); what names them in a failure (test_graph_update.c). */
struct ap_aa_graph;
void ap_test_same_aa_graph(const struct ap_aa_graph *a, const struct ap_aa_graph *b, const char *what);

/* A query from the centre of cell (sx, sy) to that of (gx, gy) with algorithm alg and connectivity conn,
 * no smoothing (the answer's waypoints are then every cell centre of the grid path), other fields zero. */
ap_query ap_test_cell_query(const ap_map *m, ap_algorithm alg, int conn, int sx, int sy, int gx, int gy);

/* Plan cell (sx, sy) to (gx, gy) for a disc of radius r (0: a point) with alg, slice expansions per step,
 * smoothing none; checks every move of the path is legal for the disc (clearance.h: level > ap_clearance_level(r), the
 * point grid's moves for r = 0) and the length is the grid cost. Returns the status; *cost the grid cost. */
int ap_test_grid_cost(const ap_map *m, ap_workspace *ws, ap_algorithm alg, double r, int sx, int sy, int gx, int gy,
                      uint64_t slice, double *cost);


/* Load options without the any_angle and hier tables (ap_map_opts.skip_tables): for the sweeps over Moving AI
 * maps that run only grid searches (A*, JPS, JPS+, over discs too), whose loads otherwise went mostly into
 * the any-angle graph (Paris_1_1024: 0.9 of its 1.3 s). Those tables are left out of no other test. */
ap_map_opts ap_test_grid_opts(void);

/* Parse a map held in a C string (test helper; aborts the test on failure). */
ap_map *ap_test_map_from_string(const char *text);

/* The Moving AI map `name` (e.g. "den520d") from the shared data folder (aborts the test when it does not
 * load), or NULL after reporting `what` as skipped when there is no data folder. */
ap_map *ap_test_data_map(const char *name, const char *what);

/* The scenario lines of the Moving AI map `name` (after ap_test_data_map found the data folder; aborts the
 * test when the file does not load); *n gets their count; the caller frees the array. */
ap_test_scen *ap_test_data_scen(const char *name, size_t *n);

/* The w x h map whose row y is cells[y * stride .. y * stride + w) (map letters; aborts the test on failure). */
ap_map *ap_test_map_from_cells(const char *cells, int stride, int w, int h);

/* ck_assert_msg without Check's record of the call's location, which in fork mode is a write to a file per
 * PASSING assertion: checks inside loops over every cell or edge of a table (millions of them) took minutes
 * of system time that way. Fails exactly as ck_assert_msg does. */
#define AP_EXPECT(cond, ...)                                                                                   \
    do {                                                                                                       \
        if (!(cond))                                                                                           \
            ck_abort_msg(__VA_ARGS__);                                                                         \
    } while (0)

/* ck_assert and ck_assert_double_eq_tol (|Y - X| < T) the same way, for helpers called in sampling loops. */
#define AP_EXPECT_TRUE(cond) AP_EXPECT(cond, "Assertion '%s' failed", #cond)
#define AP_EXPECT_NEAR(X, Y, T)                                                                                \
    do {                                                                                                       \
        double ap_x_ = (X), ap_y_ = (Y), ap_t_ = (T);                                                          \
        AP_EXPECT(fabs(ap_y_ - ap_x_) < ap_t_, "Assertion 'fabs(%s - %s) < %s' failed: %.17g, %.17g, %g", #Y, \
                  #X, #T, ap_x_, ap_y_, ap_t_);                                                                \
    } while (0)

/* Deterministic pseudo-random numbers for reproducible samples (64-bit LCG, high bits). */
typedef struct ap_test_rng {
    unsigned long long s;
} ap_test_rng;
unsigned ap_test_rand(ap_test_rng *r);
double ap_test_rand01(ap_test_rng *r);

/* jps and jps_plus agree with A* (status, cost to 1e-9) for a disc of radius r on `pairs` random pairs of m.
 * Returns how many of the pairs A* found a path for. */
int ap_test_jps_agree(const ap_map *m, ap_test_rng *rng, double r, int pairs, uint64_t slice);

/* A random map of 1..max_side x 1..max_side cells of random Moving AI terrain ('.', 'G', 'S', 'W', 'T', '@',
 * 'O'), loaded with the n_caps capabilities caps (test_capability.c). */
ap_map *ap_test_terrain_map(ap_test_rng *g, int max_side, const uint8_t *caps, size_t n_caps);

/* A w x h map of ground ('.') with a blocked cell ('@') wherever the generator draws below density; no
 * border (the off-map squares are the outer obstacles). For the clearance reach and kinodynamic shortcut
 * tests. */
ap_map *ap_test_speckled_map(ap_test_rng *g, int w, int h, double density);

/* Every capability, 1 .. 15. */
extern const uint8_t ap_test_all_capabilities[15];

/* Independent of capability.c: whether terrain letter c is in capability cap (bits ground '.' 'G', swamp
 * 'S', water 'W', trees 'T'). */
bool ap_test_in_capability(unsigned char c, unsigned cap);

/* A uniformly random pose: position in [0, span)^2 tiles, heading in [-2pi, 2pi) radians (unreduced on
 * purpose, so callers see headings outside [-pi, pi)). */
ap_pose ap_test_rand_pose(ap_test_rng *g, double span);

/* The demo circle map config/maps/forest.circles.json (40 x 24 tiles, 10 circles) as a circle world (the
 * caller frees it with ap_circle_world_free): its circles copied here, since test-planner reads no JSON, and
 * checked against the file's text, so the copy cannot drift from the map the server serves. Tests run from
 * the repository's root. */
struct ap_circle_world *ap_test_forest_world(void);

/* Drive from pose a along a word of pieces ('L' left arc, 'R' right arc, 'S' line) with signed lengths len[i]
 * (tiles; negative = in reverse) at turning radius r; returns the end pose. An independent forward model of
 * the curves, for checking them. */
ap_pose ap_test_drive(ap_pose a, const char *word, const double *len, double r);

/* Property shared by the Dubins and Reeds-Shepp suites: n random driven paths (from a random pose, turning
 * radius r in [0.5, 3.5], 1..max_pieces pieces of 'L', 'R', 'S'; a straight piece up to s_max tiles, an arc up
 * to arc_max_r * r tiles; with both_ways each piece runs forwards or backwards) are never shorter than
 * shortest(a, b, r) between their ends (1e-9 relative). seed fixes the sample. */
void ap_test_check_driven_paths(unsigned long long seed, int n, int max_pieces, double s_max, double arc_max_r,
                                bool both_ways, double (*shortest)(const ap_pose *, const ap_pose *, double));

/* Assert that two headings agree within tol radians (compared modulo 2pi). */
void ap_test_assert_heading_eq(double a, double b, double tol);

/* Assert the invariants every curve answer shares (n >= 1 segments from pose a to pose b, turning radius r,
 * lengths compared at tolerances scaled by `scale` tiles): starts at a facing a's heading; every arc has
 * radius exactly r, both ends on its circle, length r|sweep| and ends where ap_segment_pose says; every line
 * has its length and runs along its heading (against it when reverse); consecutive segments join in
 * position and facing heading; the last ends exactly at b facing b's heading; the lengths add up to total. */
void ap_test_check_curve_chain(const ap_segment *s, size_t n, const ap_pose *a, const ap_pose *b, double r,
                               double total, double scale);

/* Cost of the move between neighbouring cells (ux, uy) -> (vx, vy) (both on the map, v passable) as a
 * test's own rule sees it, INFINITY when the move is not allowed. */
typedef double (*ap_test_move_cost)(const ap_map *m, int ux, int uy, int vx, int vy, const void *ctx);

/* Plain O(V^2) Dijkstra over the cells of m (8 neighbours, each move costed by cost), independent of the
 * search core: the reference the planner's searches are checked against. Returns the cost from cell (sx, sy)
 * to (gx, gy), or -1 when unreachable. */
double ap_test_ref_dijkstra(const ap_map *m, int sx, int sy, int gx, int gy, ap_test_move_cost cost, const void *ctx);

/* Plan q to the end on ws (begin, one unbounded step, finish) and return the result (caller frees); asserts
 * that finish returns the result's status and, unless the query was refused late, the step's. */
ap_result ap_test_run_plan(const ap_query *q, ap_workspace *ws);

#endif
