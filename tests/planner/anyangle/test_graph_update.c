/* test_graph_update.c — the point unit's any-angle graph after a tile update (anyangle/graph_update.c,
 * ap_aa_graph_grid_update, the "any_angle" table's update): a new wall blocks a bitangent and adds its
 * corners, opening it again unblocks the line and removes them, any_angle answers after an update equal
 * those on a fresh load, small random maps under long chains of updates, and updates above the threshold
 * (a full build). Every updated graph is compared bit for bit with a full build. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/anyangle/table.h"
#include "../../../planner/base/status.h"
#include "../../../planner/world/patch.h"
#include "../../util.h"
#include "../suites.h"

void ap_test_same_aa_graph(const ap_aa_graph *a, const ap_aa_graph *b, const char *what)
{
    AP_EXPECT(a != NULL && b != NULL, "%s: a graph is missing", what);
    AP_EXPECT(a->n == b->n, "%s: %zu corners updated, %zu built", what, a->n, b->n);
    ck_assert(a->unit_radius == b->unit_radius);
    ck_assert((a->quad == NULL) == (b->quad == NULL));
    for (size_t k = 0; k < a->n; k++) {
        AP_EXPECT(a->x[k] == b->x[k] && a->y[k] == b->y[k] && a->R[k] == b->R[k], "%s: corner %zu at (%g, %g) "
                      "updated, (%g, %g) built", what, k, a->x[k], a->y[k], b->x[k], b->y[k]);
        AP_EXPECT(a->quad == NULL || a->quad[k] == b->quad[k], "%s: corner %zu quadrant", what, k);
    }
    AP_EXPECT((a->dep_start == NULL) == (b->dep_start == NULL), "%s: eager in one graph only", what);
    if (a->dep_start == NULL)
        return;
    AP_EXPECT(a->n_deps == b->n_deps, "%s: %zu edges updated, %zu built", what, a->n_deps, b->n_deps);
    for (size_t k = 0; k <= 2 * a->n; k++)
        AP_EXPECT(a->dep_start[k] == b->dep_start[k], "%s: departures of corner %zu sense %d start at %u "
                      "updated, %u built", what, k / 2, k % 2 ? 1 : -1, a->dep_start[k], b->dep_start[k]);
    for (size_t i = 0; i < a->n_deps; i++) {
        const ap_aa_dep *p = &a->deps[i], *q = &b->deps[i];
        AP_EXPECT(p->to == q->to && p->s_to == q->s_to, "%s: edge %zu goes to %u (sense %d) updated, %u (%d) "
                      "built", what, i, p->to, p->s_to, q->to, q->s_to);
        AP_EXPECT(p->t.x0 == q->t.x0 && p->t.y0 == q->t.y0 && p->t.x1 == q->t.x1 && p->t.y1 == q->t.y1 &&
                          p->t.h == q->t.h && p->t.len == q->t.len,
                      "%s: edge %zu's line differs", what, i);
    }
}

/* The index of g's corner at vertex (x, y), or -1. */
static int corner_at(const ap_aa_graph *g, int x, int y)
{
    for (size_t k = 0; k < g->n; k++)
        if (g->x[k] == x && g->y[k] == y)
            return (int)k;
    return -1;
}

/* Departures of g's corner a (either sense) toward corner b, with length len. */
static int edges_between(const ap_aa_graph *g, int a, int b, double *len)
{
    int found = 0;
    for (uint32_t i = g->dep_start[2 * a]; i < g->dep_start[2 * a + 2]; i++)
        if (g->deps[i].to == (uint32_t)b) {
            *len = g->deps[i].t.len;
            found++;
        }
    return found;
}

/* The "any_angle" slot of m, asserted present. */
static const ap_map_table *aa_slot(const ap_map *m)
{
    const ap_map_table *t = ap_map_find_table(m, AP_AA_TABLE_NAME);
    ck_assert_ptr_nonnull(t);
    return t;
}

/* prev with the n edits, checked against a fresh load, its "any_angle" slot updated (incremental) or built
 * from scratch (a change above AP_AA_UPDATE_MAX_CELLS). */
static ap_map *patched_as(const ap_map *prev, const ap_cell_edit *e, size_t n, bool incremental)
{
    ap_map *out = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_patch(prev, e, n, &out, &d), AP_OK);
    ap_test_patch_equals_fresh(out, NULL);
    ck_assert_int_eq(aa_slot(out)->incremental, incremental);
    return out;
}

static ap_map *patched(const ap_map *prev, const ap_cell_edit *e, size_t n)
{
    return patched_as(prev, e, n, true);
}

/* Two squares (2, 2) and (8, 2) see each other below row 2's top: the bitangent from A's corner (3, 2) to
 * C's corner (8, 3) runs through cells (3..7, 2). A wall at (5, 2) blocks it and brings 4 corners; opening
 * the cell again removes them and gives back the same graph. */
START_TEST(wall_blocks_a_bitangent_and_door_unblocks_it)
{
    ap_map *m0 = ap_test_map_from_string("type octile\nheight 5\nwidth 11\nmap\n...........\n...........\n"
                                         "..@.....@..\n...........\n...........\n");
    const ap_aa_graph *g0 = ap_aa_table_of(m0);
    ck_assert_uint_eq(g0->n, 8);
    ck_assert_uint_eq(aa_slot(m0)->count, 8);
    int a = corner_at(g0, 3, 2), c = corner_at(g0, 8, 3);
    ck_assert(a >= 0 && c >= 0);
    double len = 0.0;
    ck_assert_int_eq(edges_between(g0, a, c, &len), 1); /* leaving A turning +, arriving at C turning - */
    ck_assert_double_eq(len, sqrt(26.0));

    ap_cell_edit wall = {5, 2, '@'}, door = {5, 2, '.'};
    ap_map *m1 = patched(m0, &wall, 1);
    const ap_aa_graph *g1 = ap_aa_table_of(m1);
    ck_assert_uint_eq(g1->n, 12);
    ck_assert_uint_eq(aa_slot(m1)->count, 12);
    for (int k = 0; k < 4; k++)
        ck_assert_int_ge(corner_at(g1, 5 + (k & 1), 2 + (k >> 1)), 0);
    a = corner_at(g1, 3, 2);
    c = corner_at(g1, 8, 3);
    ck_assert_int_eq(edges_between(g1, a, c, &len), 0);
    /* the wall's own corners see A's: (3, 2) -> (5, 2) along the tops of row 2 */
    ck_assert_int_eq(edges_between(g1, a, corner_at(g1, 5, 2), &len), 1);
    ck_assert_double_eq(len, 2.0);

    ap_map *m2 = patched(m1, &door, 1);
    const ap_aa_graph *g2 = ap_aa_table_of(m2);
    ck_assert_uint_eq(g2->n, 8);
    ck_assert_int_lt(corner_at(g2, 5, 2), 0);
    ck_assert_int_eq(edges_between(g2, corner_at(g2, 3, 2), corner_at(g2, 8, 3), &len), 1);
    ap_test_same_aa_graph(g2, g0, "door");
    ap_map_free(m2);
    ap_map_free(m1);
    ap_map_free(m0);
}
END_TEST

/* A wall next to a block changes which vertices are convex (the shared edge's corners are no longer
 * corners, the far ones are); a letter change that keeps passability changes nothing. */
START_TEST(convexity_changes_and_letters_that_keep_passability)
{
    ap_map *m0 = ap_test_map_from_string("type octile\nheight 4\nwidth 6\nmap\n......\n..@...\n......\n......\n");
    ck_assert_uint_eq(ap_aa_table_of(m0)->n, 4);
    ap_cell_edit grow = {3, 1, '@'}, swamp[2] = {{0, 0, 'G'}, {5, 3, 'G'}};
    ap_map *m1 = patched(m0, &grow, 1);
    const ap_aa_graph *g1 = ap_aa_table_of(m1);
    ck_assert_uint_eq(g1->n, 4); /* (2, 1) (4, 1) (2, 2) (4, 2): the shared edge's ends are gone */
    ck_assert_int_lt(corner_at(g1, 3, 1), 0);
    ck_assert_int_ge(corner_at(g1, 4, 2), 0);
    ap_map *m2 = patched(m1, swamp, 2);
    ap_test_same_aa_graph(ap_aa_table_of(m2), g1, "letters");
    ap_map_free(m2);
    ap_map_free(m1);
    ap_map_free(m0);
}
END_TEST

/* An any_angle query after a wall across its path (and again after the door reopens it) gives exactly
 * what the same query gives on a fresh load of the edited map. */
START_TEST(query_after_update_equals_fresh_load)
{
    ap_map *m0 = ap_test_data_map("den520d", "any_angle after a tile update");
    if (m0 == NULL)
        return;
    ap_diag d;
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(m0), AP_PLAN_MAX_SUCC), AP_OK);
    ap_query q = {.map = m0, .sx = 244.5, .sy = 2.5, .gx = 18.5, .gy = 204.5, .algorithm = AP_ALG_ANY_ANGLE,
                  .connectivity = 8, .smoothing = AP_SMOOTH_LOS};
    ap_result r0 = ap_test_run_plan(&q, &ws);
    ck_assert_int_eq(r0.status, AP_OK);
    /* (den520d.map.scen bucket 88.) A wall on the answer's longest slanted line, 0.37 of the way along (inside a cell's open square). */
    size_t best = r0.n_segments;
    for (size_t i = 0; i < r0.n_segments; i++) {
        const ap_segment *s = &r0.segments[i];
        if (s->x0 != s->x1 && s->y0 != s->y1 && (best == r0.n_segments || s->length > r0.segments[best].length))
            best = i;
    }
    ck_assert_uint_lt(best, r0.n_segments);
    const ap_segment *s = &r0.segments[best];
    double px = s->x0 + 0.37 * (s->x1 - s->x0), py = s->y0 + 0.37 * (s->y1 - s->y0);
    ap_cell_edit wall[4], door[4];
    for (int k = 0; k < 4; k++) { /* a 2 x 2 block round the point */
        wall[k] = (ap_cell_edit){(int32_t)px - (k & 1), (int32_t)py - (k >> 1), '@'};
        door[k] = (ap_cell_edit){wall[k].x, wall[k].y, m0->terrain[wall[k].y * m0->width + wall[k].x]};
    }
    ap_map *m1 = patched(m0, wall, 4), *m2 = patched(m1, door, 4);
    for (int v = 1; v <= 2; v++) {
        ap_map *u = v == 1 ? m1 : m2, *f = NULL;
        size_t len;
        char *text = ap_test_map_text(u, &len);
        ck_assert_int_eq(ap_map_parse("f", "f", text, len, NULL, &f, &d), AP_OK);
        free(text);
        q.map = u;
        ap_result ru = ap_test_run_plan(&q, &ws);
        q.map = f;
        ap_result rf = ap_test_run_plan(&q, &ws);
        ck_assert_int_eq(ru.status, AP_OK);
        ck_assert_int_eq(rf.status, AP_OK);
        ck_assert(ru.length == rf.length);
        ck_assert_uint_eq(ru.n_segments, rf.n_segments);
        for (size_t i = 0; i < ru.n_segments; i++)
            ck_assert(ru.segments[i].x1 == rf.segments[i].x1 && ru.segments[i].y1 == rf.segments[i].y1);
        if (v == 1)
            ck_assert(ru.length > r0.length + 1e-9); /* the wall is in the old answer's way */
        else
            ck_assert(ru.length == r0.length);
        ap_result_free(&ru);
        ap_result_free(&rf);
        ap_map_free(f);
    }
    ap_result_free(&r0);
    ap_workspace_free(&ws);
    ap_map_free(m2);
    ap_map_free(m1);
    ap_map_free(m0);
}
END_TEST

/* Random 3..14-cell maps (a wall in 4 cells) under chains of 1..4-cell updates, including the border rows
 * and columns: every version's graph equals a full build. */
START_TEST(random_small_maps_under_chains)
{
    ap_test_rng g = {4242};
    for (int i = 0; i < (ap_test_quick() ? 20 : 80); i++) {
        int w = 3 + (int)(ap_test_rand(&g) % 12), h = 3 + (int)(ap_test_rand(&g) % 12);
        char text[512];
        int at = snprintf(text, sizeof text, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++)
                text[at++] = ap_test_rand(&g) % 4 == 0 ? '@' : '.';
            text[at++] = '\n';
        }
        text[at] = '\0';
        ap_map *m = ap_test_map_from_string(text);
        for (int r = 0; r < 10; r++) {
            ap_cell_edit e[4];
            size_t n = 1 + ap_test_rand(&g) % 4;
            for (size_t k = 0; k < n; k++)
                e[k] = (ap_cell_edit){(int32_t)(ap_test_rand(&g) % (unsigned)w), (int32_t)(ap_test_rand(&g) % (unsigned)h),
                                      ap_test_rand(&g) % 2 ? '@' : '.'};
            ap_map *next = NULL;
            ap_diag d;
            ck_assert_int_eq(ap_map_patch(m, e, n, &next, &d), AP_OK);
            ap_test_patch_equals_fresh(next, NULL);
            ap_map_free(m);
            m = next;
        }
        ap_map_free(m);
    }
}
END_TEST

/* More changed cells than AP_AA_UPDATE_MAX_CELLS: the full build, still equal (and a direct update of the
 * graph with a list of cells whose passability did not change is the old graph). Sixteen doors scattered
 * over the map put more lines near them than AP_AA_UPDATE_MAX_LINES_PER_CORNER a corner: the build too
 * (its visibility scans are faster than testing those lines again: BENCHMARKS.md "Tile updates"), and
 * the update says so (*out NULL), while a 4 x 4 wall is updated. */
START_TEST(many_cells_fall_back_to_the_build)
{
    ap_map *m0 = ap_test_data_map("arena2", "any_angle updates above the threshold");
    if (m0 == NULL)
        return;
    ap_test_rng g = {99};
    ap_cell_edit e[2 * AP_AA_UPDATE_MAX_CELLS]; /* each toggles a cell's passability: most are distinct */
    for (size_t k = 0; k < sizeof e / sizeof e[0]; k++) {
        int32_t x = (int32_t)(ap_test_rand(&g) % (unsigned)m0->width), y = (int32_t)(ap_test_rand(&g) % (unsigned)m0->height);
        e[k] = (ap_cell_edit){x, y, ap_map_passable(m0, x, y) ? '@' : '.'};
    }
    ap_map *m1 = patched_as(m0, e, sizeof e / sizeof e[0], false);
    ap_cell_pos same[3] = {{0, 0}, {5, 7}, {m0->width - 1, m0->height - 1}};
    ap_aa_graph *u = NULL;
    ck_assert_int_eq(ap_aa_graph_grid_update(ap_aa_table_of(m0), m0, m0, same, 3, &u, NULL), AP_OK);
    ap_test_same_aa_graph(u, ap_aa_table_of(m0), "nothing changed");
    ap_aa_graph_free(u);
    ap_map_free(m1);
    /* 16 doors: open cells spread over the map (every 1/16 of the open cells), closed; a 4 x 4 wall */
    ap_cell_edit doors[16], wall[16];
    int64_t seen = 0, want = 0;
    size_t nd = 0;
    for (int32_t y = 0; y < m0->height && nd < 16; y++)
        for (int32_t x = 0; x < m0->width && nd < 16; x++)
            if (ap_map_passable(m0, x, y) && seen++ == want) {
                doors[nd++] = (ap_cell_edit){x, y, '@'};
                want += m0->passable_cells / 16;
            }
    ck_assert_uint_eq(nd, 16);
    m1 = patched_as(m0, doors, 16, false);
    ap_map_free(m1);
    for (int k = 0; k < 16; k++)
        wall[k] = (ap_cell_edit){doors[8].x + k % 4, doors[8].y + k / 4, '@'};
    m1 = patched_as(m0, wall, 16, true);
    ap_map_free(m1);
    ap_map_free(m0);
}
END_TEST

Suite *aa_update_suite(void)
{
    Suite *s = suite_create("anyangle/update");
    TCase *tc = tcase_create("update");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, wall_blocks_a_bitangent_and_door_unblocks_it);
    tcase_add_test(tc, convexity_changes_and_letters_that_keep_passability);
    tcase_add_test(tc, query_after_update_equals_fresh_load);
    tcase_add_test(tc, random_small_maps_under_chains);
    tcase_add_test(tc, many_cells_fall_back_to_the_build);
    suite_add_tcase(s, tc);
    return s;
}
