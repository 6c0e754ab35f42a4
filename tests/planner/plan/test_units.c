/* test_units.c — units of every terrain and shape (issue 9): the capability views (world/view.h) drive
 * every search, Annotated A* for discs and squares per capability, capability costs, and the validation of
 * unit.capability and unit.size.
 *
 * The reference for a unit of capability c is the map MASKED for it: a new map whose cells are '.' where
 * the terrain letter is in c (decided by the tests' own ap_test_in_capability) and '@' elsewhere, searched
 * by the independent Dijkstra (helpers.c) with the unit's move rule: exact swept discs (collide.c) for disc
 * units, every cell of the swept block for squares. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/world/capability.h"
#include "../../../planner/world/collide.h"
#include "../../../planner/world/grid_world.h"
#include "../../../planner/world/view.h"
#include "../../util.h"
#include "../suites.h"

/* m masked for capability cap: '.' inside it, '@' outside (the tests' own reading of the letters). */
static ap_map *masked(const ap_map *m, unsigned cap)
{
    size_t n = 64 + (size_t)(m->width + 1) * (size_t)m->height;
    char *text = malloc(n);
    int at = snprintf(text, n, "type octile\nheight %d\nwidth %d\nmap\n", m->height, m->width);
    for (int y = 0; y < m->height; y++) {
        for (int x = 0; x < m->width; x++)
            text[at++] = ap_test_in_capability(m->terrain[y * m->width + x], cap) ? '.' : '@';
        text[at++] = '\n';
    }
    text[at] = '\0';
    ap_map *mm = ap_test_map_from_string(text);
    free(text);
    return mm;
}

/* The unit's move rule on the masked map: ctx = {radius, size}. A disc's move is kept when the exact
 * swept-disc test clears it; a square's (size k, anchors = top-left cells) when every cell of the block
 * its footprint sweeps (k + |dx|) x (k + |dy|) from the smaller corner is on the map and free. */
typedef struct unit_rule {
    double radius;
    int size;
} unit_rule;

static double unit_move_cost(const ap_map *m, int ux, int uy, int vx, int vy, const void *ctx)
{
    const unit_rule *u = ctx;
    const double len = ux != vx && uy != vy ? M_SQRT2 : 1.0;
    if (u->size > 0) {
        int x0 = ux < vx ? ux : vx, y0 = uy < vy ? uy : vy;
        int w = u->size + abs(vx - ux), h = u->size + abs(vy - uy);
        for (int y = y0; y < y0 + h; y++)
            for (int x = x0; x < x0 + w; x++)
                if (!ap_map_passable(m, x, y))
                    return INFINITY;
        return len;
    }
    if (!ap_map_passable(m, ux, uy) || !ap_map_passable(m, vx, vy) ||
        (ux != vx && uy != vy && (!ap_map_passable(m, vx, uy) || !ap_map_passable(m, ux, vy))))
        return INFINITY;
    if (u->radius > 0.0 && !ap_line_clear(m, ux + 0.5, uy + 0.5, vx + 0.5, vy + 0.5, u->radius))
        return INFINITY;
    return len;
}

/* On 300 random maps of up to 14 x 14 cells with random terrains, loaded with every capability: for every
 * capability, a point unit (astar and jps), a disc of radius 0.6 or 1.0 and a square of size 2 or 3
 * between random cells answer exactly as the reference on the masked map: same status, same optimal cost,
 * and the path is clear for the unit (smoothing none, then los). */
START_TEST(every_capability_matches_the_masked_map)
{
    ap_test_rng g = {9091};
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 16 * 16, 8), AP_OK);
    int found = 0, none = 0, refused = 0;
    for (int it = 0; it < 300; it++) {
        ap_map *m = ap_test_terrain_map(&g, 14, ap_test_all_capabilities, 15);
        for (unsigned c = 1; c <= AP_CAP_ALL; c++) {
            ap_map *mm = masked(m, c);
            const unit_rule rules[] = {{0, 0}, {0, 0}, {0.6, 0}, {1.0, 0}, {0, 2}, {0, 3}};
            for (int k = 0; k < 6; k++) {
                const unit_rule *u = &rules[k];
                int span = u->size > 0 ? u->size : 1;
                if (m->width < span || m->height < span)
                    continue;
                int sx = (int)(ap_test_rand(&g) % (unsigned)(m->width - span + 1));
                int sy = (int)(ap_test_rand(&g) % (unsigned)(m->height - span + 1));
                int gx = (int)(ap_test_rand(&g) % (unsigned)(m->width - span + 1));
                int gy = (int)(ap_test_rand(&g) % (unsigned)(m->height - span + 1));
                /* footprint centres for squares, cell centres otherwise */
                double off = u->size > 0 ? 0.5 * u->size : 0.5;
                ap_query q = {.map = m, .capability = (uint8_t)c, .sx = sx + off, .sy = sy + off, .gx = gx + off,
                              .gy = gy + off, .connectivity = 8, .smoothing = AP_SMOOTH_NONE,
                              .algorithm = k == 1 ? AP_ALG_JPS : AP_ALG_ASTAR, .unit_radius = u->radius,
                              .unit_size = u->size};
                unit_rule start_rule = *u;
                bool start_ok = unit_move_cost(mm, sx, sy, sx, sy, &start_rule) < INFINITY &&
                                unit_move_cost(mm, gx, gy, gx, gy, &start_rule) < INFINITY;
                if (u->radius > 0.0) /* a disc's start only needs its cell (the verdict reports the rest) */
                    start_ok = ap_map_passable(mm, sx, sy) && ap_map_passable(mm, gx, gy);
                ap_query_error e;
                int vst = ap_query_validate(&q, NULL, &e);
                if (!start_ok) {
                    ck_assert_msg(vst == AP_E_START_BLOCKED || vst == AP_E_GOAL_BLOCKED, "cap %u rule %d: %d %s", c,
                                  k, vst, e.message);
                    continue;
                }
                if (k == 1 && vst == AP_E_INVALID_REQUEST) /* jps on a map with costs: not here (uniform) */
                    ck_abort_msg("jps refused: %s", e.message);
                ck_assert_msg(vst == AP_OK, "cap %u rule %d: %s", c, k, e.message);
                ap_result r = ap_test_run_plan(&q, &ws);
                double want = (sx == gx && sy == gy) ? 0.0 : ap_test_ref_dijkstra(mm, sx, sy, gx, gy, unit_move_cost, u);
                /* A sized disc (radius 0.6 or 1.0) that does not fit at its start or goal cell's centre:
                 * refused before searching (no move can leave or reach that cell), unless a point could not
                 * reach the goal either (the region check answers first: no_path, unreachable); standing
                 * still (start and goal one centre) where it does not fit is refused alike. */
                const bool s_fits = unit_move_cost(mm, sx, sy, sx, sy, u) < INFINITY;
                const bool g_fits = unit_move_cost(mm, gx, gy, gx, gy, u) < INFINITY;
                const unit_rule point = {0, 0};
                if (u->radius > 0.0 && (!s_fits || !g_fits) &&
                    ((sx == gx && sy == gy) ||
                     (want < 0.0 && ap_test_ref_dijkstra(mm, sx, sy, gx, gy, unit_move_cost, &point) >= 0.0))) {
                    ck_assert_int_eq(r.status, !s_fits ? AP_E_START_BLOCKED : AP_E_GOAL_BLOCKED);
                    refused++;
                } else if (want >= 0.0) {
                    ck_assert_msg(r.status == AP_OK, "cap %u rule %d: status %d (%d,%d)->(%d,%d): %s", c, k, r.status,
                                  sx, sy, gx, gy, r.message);
                    ck_assert_double_eq_tol(r.grid_cost, want, 1e-9);
                    if (u->radius == 0.0 && r.n_segments > 0) /* cell or footprint centres: exactly clear */
                        ck_assert(r.clear || (sx == gx && sy == gy));
                    if (u->radius > 0.0 && r.n_segments > 0) /* standing still: the disc at the start */
                        ck_assert_msg(r.clear, "cap %u rule %d (%d,%d)->(%d,%d) on %dx%d", c, k, sx, sy, gx, gy,
                                      m->width, m->height);
                    found++;
                } else {
                    ck_assert_int_eq(r.status, AP_NO_PATH);
                    ck_assert_int_eq(r.no_path_reason, AP_NO_PATH_UNREACHABLE);
                    none++;
                }
                ap_result_free(&r);
                if (want > 0.0 && u->size > 0) { /* smoothing keeps a square's path clear */
                    q.smoothing = AP_SMOOTH_LOS;
                    r = ap_test_run_plan(&q, &ws);
                    ck_assert_int_eq(r.status, AP_OK);
                    ck_assert(r.clear);
                    ck_assert(r.length <= want + 1e-9);
                    ap_result_free(&r);
                }
            }
            ap_map_free(mm);
        }
        ap_map_free(m);
    }
    printf("units: %d paths, %d proven no_path and %d discs refused at an end matched the masked maps\n", found,
           none, refused);
    ck_assert_int_gt(found, 1000);
    ck_assert_int_gt(none, 100);
    ck_assert_int_gt(refused, 100);
    ap_workspace_free(&ws);
}
END_TEST

/* A capability's terrain costs (ap_map_opts.cap_costs): a boat (water) pays 3 per tile of 'W' and a
 * ground+water unit pays 1 on ground and 5 on water; the unit without a capability keeps the map's. */
START_TEST(capability_costs)
{
    static const char text[] = "type octile\nheight 3\nwidth 6\nmap\n"
                               "WWWWWW\n"
                               "W....W\n"
                               "WWWWWW\n";
    const ap_capability_costs cc[] = {{.capability = AP_CAP_WATER, .cost = {[4] = 3.0}},
                                      {.capability = AP_CAP_GROUND | AP_CAP_WATER, .cost = {[4] = 5.0}}};
    ap_map_opts o = {.cap_costs = cc, .n_cap_costs = 2};
    ap_map *m;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("c", "c", text, strlen(text), &o, &m, &d), AP_OK);
    ck_assert(m->capabilities & (1u << AP_CAP_WATER));
    const ap_map *boat = ap_map_view(m, AP_CAP_WATER);
    ck_assert_ptr_nonnull(boat);
    ck_assert_ptr_eq(boat->base, m);
    ck_assert_int_eq(boat->passable_cells, 14);
    ck_assert(boat->weighted); /* every move costs 3 per tile */
    ck_assert_double_eq(boat->cost_of[4], 3.0);
    ck_assert_double_eq(boat->cost_min, 3.0);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 64, 8), AP_OK);
    /* boat from (0,0) to (5,0) along the top row: 5 moves of 3 */
    ap_query q = {.map = m, .capability = AP_CAP_WATER, .sx = 0.5, .sy = 0.5, .gx = 5.5, .gy = 0.5, .connectivity = 8,
                  .smoothing = AP_SMOOTH_NONE, .algorithm = AP_ALG_ASTAR};
    ap_result r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_OK);
    ck_assert_double_eq_tol(r.grid_cost, 15.0, 1e-12);
    ap_result_free(&r);
    /* ground+water from (0,1) to (5,1): two water cells at the ends, four ground in between:
     * (5+1)/2 + 1 + 1 + 1 + (1+5)/2 = 9 */
    q.capability = AP_CAP_GROUND | AP_CAP_WATER;
    q.sy = q.gy = 1.5;
    r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_OK);
    ck_assert_double_eq_tol(r.grid_cost, 9.0, 1e-12);
    ap_result_free(&r);
    /* without a capability: the map's own passability (water closed): (0,1) is blocked */
    q.capability = 0;
    ck_assert_int_eq(ap_query_check(&q, NULL), AP_E_START_BLOCKED);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* The legal-turn searches take the unit's capability too: a boat (turning radius 1.5, radius 0.4) crosses a
 * lake with every algorithm that turns, its answer clear on the water (the view's world), while a unit
 * without a capability cannot start there. */
START_TEST(legal_turns_on_water)
{
    static const char text[] = "type octile\nheight 12\nwidth 16\nmap\n"
                               "................\n"
                               "..WWWWWWWWWWWW..\n"
                               "..WWWWWWWWWWWW..\n"
                               "..WWWWWWWWWWWW..\n"
                               "..WWWWWWWWWWWW..\n"
                               "..WWWWWWWWWWWW..\n"
                               "..WWWWWWWWWWWW..\n"
                               "..WWWWWWWWWWWW..\n"
                               "..WWWWWWWWWWWW..\n"
                               "..WWWWWWWWWWWW..\n"
                               "..WWWWWWWWWWWW..\n"
                               "................\n";
    const uint8_t caps[] = {AP_CAP_DEFAULT, AP_CAP_WATER};
    ap_map_opts o = {.capabilities = caps, .n_capabilities = 2};
    ap_map *m;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("lake", "lake", text, strlen(text), &o, &m, &d), AP_OK);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, AP_PLAN_MIN_WORKSPACE_NODES, AP_PLAN_MAX_SUCC), AP_OK);
    const ap_algorithm algs[] = {AP_ALG_DIRECTIONAL8, AP_ALG_DIRECTIONAL24, AP_ALG_HYBRID, AP_ALG_AUTO};
    for (int i = 0; i < 4; i++) {
        ap_query q = {.map = m, .capability = AP_CAP_WATER, .sx = 3.5, .sy = 2.5, .gx = 12.5, .gy = 9.5,
                      .connectivity = 8, .smoothing = AP_SMOOTH_LOS, .algorithm = algs[i], .unit_radius = 0.4,
                      .turning_radius = 1.5};
        ap_result r = ap_test_run_plan(&q, &ws);
        ck_assert_msg(r.status == AP_OK, "algorithm %d: status %d", (int)algs[i], r.status);
        ck_assert(r.clear);
        /* every segment stays on the water: clear in the water view's world, not merely on the map */
        ap_world w;
        ap_map_world(ap_map_view(m, AP_CAP_WATER), &w);
        ck_assert(ap_world_segments_clear(&w, r.segments, r.n_segments, 0.4));
        ap_result_free(&r);
        q.capability = 0;
        ck_assert_int_eq(ap_query_check(&q, NULL), AP_E_START_BLOCKED);
    }
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* unit.capability and unit.size are validated with the field and why. */
START_TEST(validation)
{
    static const char text[] = "type octile\nheight 4\nwidth 4\nmap\n"
                               "....\n"
                               "....\n"
                               "..@.\n"
                               "WWWW\n";
    ap_map *m = ap_test_map_from_string(text); /* default capabilities: ground+swamp only */
    ap_query q = {.map = m, .sx = 0.5, .sy = 0.5, .gx = 3.5, .gy = 0.5, .connectivity = 8,
                  .smoothing = AP_SMOOTH_LOS, .algorithm = AP_ALG_AUTO};
    ap_query_error e;
    q.capability = AP_CAP_WATER;
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "unit.capability");
    ck_assert_ptr_nonnull(strstr(e.message, "no tables for capability water"));
    q.capability = 16;
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "unit.capability");
    q.capability = AP_CAP_DEFAULT;
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_OK);
    q.unit_size = 2;
    q.sx = q.sy = 1.0; /* the 2 x 2 footprint over cells 0..1, 0..1 */
    q.gx = 3.0;
    q.gy = 1.0;
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_OK);
    q.unit_radius = 0.5;
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "unit.size");
    ck_assert_ptr_nonnull(strstr(e.message, "not both"));
    q.unit_radius = 0.0;
    q.unit_size = AP_MAX_UNIT_SIZE + 1;
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "unit.size");
    q.unit_size = 2;
    q.turning_radius = 1.0; /* the message names the field first, then the member that must change */
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "unit.size");
    ck_assert_ptr_eq(strstr(e.message, "\"unit.size\""), e.message);
    ck_assert_ptr_nonnull(strstr(e.message, "no \"unit.turning_radius\""));
    q.turning_radius = 0.0;
    q.art_directions = AP_ART_COARSE;
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "unit.size");
    ck_assert_ptr_eq(strstr(e.message, "\"unit.size\""), e.message);
    ck_assert_ptr_nonnull(strstr(e.message, "no \"unit.art_directions\""));
    q.art_directions = 0;
    q.algorithm = AP_ALG_JPS; /* jump point search serves squares too (jps_sized.h) */
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_OK);
    /* any_angle's graph is of a point or a disc: it planned a square as a point, `clear` true (sizes 1 and 2) */
    q.algorithm = AP_ALG_ANY_ANGLE;
    for (int k = 1; k <= 2; k++) {
        q.unit_size = k;
        ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_INVALID_REQUEST);
        ck_assert_str_eq(e.field, "unit.size");
        ck_assert_ptr_nonnull(strstr(e.message, "not a square unit"));
    }
    q.algorithm = AP_ALG_AUTO;
    q.gx = 3.0;
    q.gy = 3.0; /* footprint over cells 2..3, 2..3: the '@' and the water */
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_GOAL_BLOCKED);
    ck_assert_str_eq(e.field, "goal");
    ck_assert_ptr_nonnull(strstr(e.message, "2 x 2 footprint"));
    q.gx = 3.9; /* anchor column 3: the footprint would leave the map */
    q.gy = 1.0;
    ck_assert_int_eq(ap_query_validate(&q, NULL, &e), AP_E_GOAL_BLOCKED);
    /* the path of a 2 x 2 from footprint centre (1, 1) to (3, 1): one straight line, clear */
    q.gx = 3.0;
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, 64, 8), AP_OK);
    ap_result r = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r.status, AP_OK);
    ck_assert_double_eq_tol(r.grid_cost, 2.0, 1e-12);
    ck_assert_uint_eq(r.n_segments, 1);
    ck_assert_double_eq_tol(r.length, 2.0, 1e-12);
    ck_assert(r.clear);
    ap_result_free(&r);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

/* battleground (Warcraft III) has water: boats between water cells and tanks between ground cells, 100 random
 * pairs each, answered as the reference search on the masked map answers (A* on the masked map, itself
 * checked against Dijkstra in the grid suite). */
START_TEST(warcraft_boats_and_tanks)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("units: boats and tanks on battleground");
        return;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/battleground.map", dir);
    const uint8_t caps[] = {AP_CAP_GROUND, AP_CAP_WATER};
    ap_map_opts o = {.capabilities = caps, .n_capabilities = 2};
    ap_map *m;
    ap_diag d;
    ck_assert_int_eq(ap_map_load(path, &o, &m, &d), AP_OK);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m), 8), AP_OK);
    ap_test_rng g = {512};
    int ok = 0, unreachable = 0;
    for (int ci = 0; ci < 2; ci++) {
        ap_map *mm = masked(m, caps[ci]);
        for (int i = 0; i < 100;) {
            int sx = (int)(ap_test_rand(&g) % 512), sy = (int)(ap_test_rand(&g) % 512);
            int gx = (int)(ap_test_rand(&g) % 512), gy = (int)(ap_test_rand(&g) % 512);
            if (!ap_map_passable(mm, sx, sy) || !ap_map_passable(mm, gx, gy))
                continue;
            i++;
            ap_query q = {.map = m, .capability = caps[ci], .sx = sx + 0.5, .sy = sy + 0.5, .gx = gx + 0.5,
                          .gy = gy + 0.5, .connectivity = 8, .smoothing = AP_SMOOTH_LOS, .algorithm = AP_ALG_AUTO,
                          .unit_radius = ci == 0 ? 0.0 : 0.4};
            ap_query ref = {.map = mm, .sx = q.sx, .sy = q.sy, .gx = q.gx, .gy = q.gy, .connectivity = 8,
                            .smoothing = AP_SMOOTH_NONE, .algorithm = AP_ALG_ASTAR};
            ap_result r = ap_test_run_plan(&q, &ws), rr = ap_test_run_plan(&ref, &ws);
            ck_assert_int_eq(r.status, rr.status);
            if (r.status == AP_OK) {
                ck_assert_double_eq_tol(r.grid_cost, rr.grid_cost, 1e-9);
                ck_assert(r.clear);
                ok++;
            } else {
                ck_assert_int_eq(r.no_path_reason, AP_NO_PATH_UNREACHABLE);
                ck_assert(r.region_pruned);
                unreachable++;
            }
            ap_result_free(&r);
            ap_result_free(&rr);
        }
        ap_map_free(mm);
    }
    printf("units: battleground: %d boat/tank paths equal the masked map's, %d pairs proven unreachable\n", ok,
           unreachable);
    ck_assert_int_gt(ok, 20);
    ck_assert_int_gt(unreachable, 5);
    ap_workspace_free(&ws);
    ap_map_free(m);
}
END_TEST

Suite *units_suite(void)
{
    Suite *s = suite_create("units");
    TCase *tc = tcase_create("units");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_capability_matches_the_masked_map);
    tcase_add_test(tc, capability_costs);
    tcase_add_test(tc, validation);
    tcase_add_test(tc, legal_turns_on_water);
    tcase_add_test(tc, warcraft_boats_and_tanks);
    suite_add_tcase(s, tc);
    return s;
}
