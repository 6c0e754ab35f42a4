/* test_patch.c — tile updates (world/patch.h): the next version of a map after cell edits, with its tables
 * updated incrementally (tables.h ap_table_kind.update), equals a fresh load of the edited file, table for
 * table: random edits (doors opened, walls built, terrain changed) on real Moving AI maps, on random
 * terrain maps with every capability, on a weighted map, and chains of updates (an update of an update). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/anyangle/table.h"
#include "../../../planner/base/status.h"
#include "../../../planner/world/capability.h"
#include "../../../planner/hier/hier.h"
#include "../../../planner/world/clearance.h"
#include "../../../planner/world/patch.h"
#include "../../../planner/world/region.h"
#include "../../util.h"
#include "../suites.h"

/* Two region labelings (uint32 per padded cell) are the same partition: the same cells are 0, and a
 * bijection maps one's ids to the other's; ids are 1 .. count in both. */
static void same_partition(const ap_map *m, const uint32_t *a, const uint32_t *b, uint64_t count, const char *what)
{
    size_t n = ap_map_node_count(m);
    uint32_t *fw = calloc(count + 1, sizeof *fw), *bw = calloc(count + 1, sizeof *bw);
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg((a[i] == 0) == (b[i] == 0), "%s: cell %zu free in one table only", what, i);
        if (a[i] == 0)
            continue;
        ck_assert_msg(a[i] <= count && b[i] <= count, "%s: id above the count %llu", what,
                      (unsigned long long)count);
        if (fw[a[i]] == 0 && bw[b[i]] == 0) {
            fw[a[i]] = b[i];
            bw[b[i]] = a[i];
        }
        ck_assert_msg(fw[a[i]] == b[i] && bw[b[i]] == a[i], "%s: cell %zu in different components", what, i);
    }
    free(fw);
    free(bw);
}

/* How a kind's table of the updated map is compared with the fresh load's (NULL: by bytes and count only;
 * a kind without an update function is a full build of the same map, deterministic). */
typedef void (*table_cmp)(const ap_map *m, const ap_map_table *upd, const ap_map_table *fresh);

static void cmp_region(const ap_map *m, const ap_map_table *upd, const ap_map_table *fresh)
{
    same_partition(m, upd->data, fresh->data, fresh->count, upd->name);
}

/* Capability views (view.h: data = the view, an ap_map): the same cells, counts, cost fields and arrays, the
 * same region partition, and the region table the view points to is the updated map's own for its
 * capability (capability.h ap_capability_regions), so an updated view never reads a previous version. */
static void cmp_view(const ap_map *m, const ap_map_table *upd, const ap_map_table *fresh)
{
    const ap_map *a = upd->data, *b = fresh->data;
    size_t padded = ap_map_node_count(m);
    ck_assert_ptr_eq(a->base, m);
    ck_assert_ptr_eq(a->terrain, m->terrain);
    ck_assert_int_eq(a->n_tables, 0);
    ck_assert_int_eq(a->capability, b->capability);
    ck_assert_msg(memcmp(a->pass, b->pass, padded) == 0, "%s: pass differs", upd->name);
    ck_assert_int_eq(a->passable_cells, b->passable_cells);
    ck_assert_int_eq(a->pass_is_default_capability, b->pass_is_default_capability);
    ck_assert_int_eq(a->weighted, b->weighted);
    ck_assert(memcmp(a->cost_of, b->cost_of, sizeof a->cost_of) == 0);
    ck_assert(a->cost_min == b->cost_min && a->cost_max == b->cost_max);
    ck_assert_int_eq(a->kind != NULL, b->kind != NULL);
    ck_assert_int_eq(a->cheap != NULL, b->cheap != NULL);
    if (b->kind != NULL)
        ck_assert_msg(memcmp(a->kind, b->kind, padded) == 0 && memcmp(a->cheap, b->cheap, padded) == 0,
                      "%s: cost arrays differ", upd->name);
    ck_assert_uint_eq(a->region_count, b->region_count);
    uint32_t own_count = 0;
    ck_assert_ptr_eq(a->region, ap_capability_regions(m, upd->capability, &own_count));
    ck_assert_uint_eq(a->region_count, own_count);
    same_partition(m, a->region, b->region, b->region_count, upd->name);
}

/* Slots of the "any_angle" kind compared that were updated incrementally (the chains must reach them). */
static int aa_incremental;

static void cmp_any_angle(const ap_map *m, const ap_map_table *upd, const ap_map_table *fresh)
{
    ap_test_same_aa_graph(ap_aa_table_point(upd), ap_aa_table_point(fresh), upd->name);
    aa_incremental += upd->incremental;
}

/* Clearance tables: every byte of every array (and the header fields), the first difference named. */
static void cmp_clearance(const ap_map *m, const ap_map_table *upd, const ap_map_table *fresh)
{
    const ap_clearance_table *a = upd->data, *b = fresh->data;
    ck_assert_int_eq(a->capability, b->capability);
    ck_assert_int_eq(a->stride, b->stride);
    ck_assert_uint_eq(a->cells, b->cells);
    ck_assert_uint_eq(a->cells, ap_map_node_count(m));
    for (uint32_t p = 0; p < a->cells; p++) {
        int32_t x, y;
        ap_map_coords(m, p, &x, &y);
        ck_assert_msg(a->disc[p] == b->disc[p] && a->diag_se[p] == b->diag_se[p] && a->diag_sw[p] == b->diag_sw[p] &&
                          a->square[p] == b->square[p],
                      "%s (%d, %d): disc %u/%u se %u/%u sw %u/%u square %u/%u (updated/fresh)", upd->name, x, y,
                      a->disc[p], b->disc[p], a->diag_se[p], b->diag_se[p], a->diag_sw[p], b->diag_sw[p],
                      a->square[p], b->square[p]);
    }
}

/* The HAA* graph: the same nodes (cells, numbering, clusters), the same edges in the same order with the
 * same costs to the bit, and the clearance table of the map it belongs to. */
static void cmp_hier(const ap_map *m, const ap_map_table *upd, const ap_map_table *fresh)
{
    const ap_hier *a = upd->data, *b = fresh->data;
    ck_assert_int_eq(a->cw, b->cw);
    ck_assert_int_eq(a->ch, b->ch);
    ck_assert_uint_eq(a->n_nodes, b->n_nodes);
    ck_assert_uint_eq(a->max_deg, b->max_deg);
    ck_assert_uint_eq(a->bytes, b->bytes);
    ck_assert(a->clear == ap_clearance_of(m, m->capability));
    ck_assert(memcmp(a->cl_first, b->cl_first, ((size_t)a->cw * (size_t)a->ch + 1) * sizeof *a->cl_first) == 0);
    ck_assert(memcmp(a->cell, b->cell, a->n_nodes * sizeof *a->cell) == 0);
    ck_assert(memcmp(a->first, b->first, (a->n_nodes + 1) * sizeof *a->first) == 0);
    for (uint32_t k = 0; k < a->first[a->n_nodes]; k++) {
        ck_assert_msg(a->edges[k].to == b->edges[k].to, "hier edge %u: to %u updated, %u fresh", k, a->edges[k].to,
                      b->edges[k].to);
        ck_assert_msg(memcmp(a->edges[k].cost, b->edges[k].cost, sizeof a->edges[k].cost) == 0,
                      "hier edge %u: costs differ", k);
    }
}

static const struct {
    const char *prefix; /* slot names starting with it */
    table_cmp cmp;
} comparators[] = {
    {"region", cmp_region}, /* "region" and "region:<capability>" */
    {"view:", cmp_view},
    {AP_AA_TABLE_NAME, cmp_any_angle},
    {"clearance:", cmp_clearance},
    {"hier", cmp_hier},
};
#define N_COMPARATORS (sizeof comparators / sizeof comparators[0])

/* Tables updated incrementally so far, per comparators[] entry (the tests check their kind was exercised). */
static int incremental_of[N_COMPARATORS];

static int comparator_index(const char *name)
{
    for (size_t i = 0; i < N_COMPARATORS; i++)
        if (strncmp(name, comparators[i].prefix, strlen(comparators[i].prefix)) == 0)
            return (int)i;
    return -1;
}

/* incremental_of[] for the slots named name (a comparators[] prefix). */
static int incremental_count(const char *name)
{
    return incremental_of[comparator_index(name)];
}

char *ap_test_map_text(const ap_map *m, size_t *len)
{
    size_t w = (size_t)m->width, h = (size_t)m->height, cap = 96 + (w + 1) * h;
    char *buf = malloc(cap);
    int at = snprintf(buf, cap, "type octile\nheight %zu\nwidth %zu\nmap\n", h, w);
    for (size_t y = 0; y < h; y++) {
        memcpy(buf + at + y * (w + 1), m->terrain + y * w, w);
        buf[at + y * (w + 1) + w] = '\n';
    }
    *len = (size_t)at + (w + 1) * h;
    return buf;
}

int ap_test_patch_equals_fresh(const ap_map *u, const ap_map_opts *opts)
{
    size_t len;
    char *text = ap_test_map_text(u, &len);
    ap_map *f = NULL;
    ap_diag d;
    int st = ap_map_parse(u->id, u->id, text, len, opts, &f, &d);
    free(text);
    ck_assert_msg(st == AP_OK, "fresh parse: %s", d.msg);
    size_t padded = ap_map_node_count(f);
    ck_assert(memcmp(u->pass, f->pass, padded) == 0);
    ck_assert_int_eq(u->passable_cells, f->passable_cells);
    ck_assert_int_eq(u->weighted, f->weighted);
    ck_assert_int_eq(u->pass_is_default_capability, f->pass_is_default_capability);
    ck_assert(u->cost_min == f->cost_min && u->cost_max == f->cost_max);
    if (f->weighted)
        ck_assert(memcmp(u->kind, f->kind, padded) == 0 && memcmp(u->cheap, f->cheap, padded) == 0);
    ck_assert_int_eq(u->capabilities, f->capabilities);
    ck_assert_int_eq(u->n_tables, f->n_tables);
    ck_assert_uint_eq(u->region_count, f->region_count);
    int incremental = 0;
    for (int i = 0; i < f->n_tables; i++) {
        const ap_map_table *a = &u->tables[i], *b = &f->tables[i];
        ck_assert_str_eq(a->name, b->name);
        ck_assert_msg(a->bytes == b->bytes, "%s: %zu bytes updated, %zu fresh", a->name, a->bytes, b->bytes);
        ck_assert_msg(a->count == b->count, "%s: count %llu updated, %llu fresh", a->name,
                      (unsigned long long)a->count, (unsigned long long)b->count);
        ck_assert(!b->incremental);
        incremental += a->incremental;
        int ci = comparator_index(a->name);
        if (ci >= 0) {
            incremental_of[ci] += a->incremental;
            comparators[ci].cmp(u, a, b);
        }
    }
    ap_map_free(f);
    return incremental;
}

/* n random edits inside m, letters drawn from `letters`; clustered near one spot half the time (a door or a
 * wall), spread over the map otherwise. */
static void random_edits(ap_test_rng *g, const ap_map *m, ap_cell_edit *e, size_t n, const char *letters)
{
    bool cluster = ap_test_rand(g) % 2 == 0;
    int cx = (int)(ap_test_rand(g) % (unsigned)m->width), cy = (int)(ap_test_rand(g) % (unsigned)m->height);
    for (size_t i = 0; i < n; i++) {
        int x, y;
        if (cluster) {
            x = cx + (int)(ap_test_rand(g) % 7) - 3;
            y = cy + (int)(ap_test_rand(g) % 7) - 3;
            x = x < 0 ? 0 : x >= m->width ? m->width - 1 : x;
            y = y < 0 ? 0 : y >= m->height ? m->height - 1 : y;
        } else {
            x = (int)(ap_test_rand(g) % (unsigned)m->width);
            y = (int)(ap_test_rand(g) % (unsigned)m->height);
        }
        e[i] = (ap_cell_edit){x, y, letters[ap_test_rand(g) % strlen(letters)]};
    }
}

/* rounds chained updates of m (each from the previous version), each checked against a fresh load. m is
 * consumed. Returns the incremental tables counted over the rounds. */
static int chain(ap_map *m, const ap_map_opts *opts, ap_test_rng *g, int rounds, const char *letters)
{
    int incremental = 0;
    static const size_t sizes[] = {1, 2, 8, 40};
    for (int r = 0; r < rounds; r++) {
        size_t n = sizes[ap_test_rand(g) % 4];
        ap_cell_edit e[40];
        random_edits(g, m, e, n, letters);
        ap_map *next = NULL;
        ap_diag d;
        ck_assert_int_eq(ap_map_patch(m, e, n, &next, &d), AP_OK);
        incremental += ap_test_patch_equals_fresh(next, opts);
        ap_map_free(m);
        m = next;
    }
    ap_map_free(m);
    return incremental;
}

START_TEST(patch_refuses_bad_edits)
{
    ap_map *m = ap_test_map_from_string("type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n");
    ap_cell_edit e[2] = {{0, 0, '@'}, {3, 1, '.'}};
    ap_map *out = (ap_map *)1;
    ap_diag d;
    ck_assert_int_eq(ap_map_patch(m, e, 2, &out, &d), AP_E_INVALID_REQUEST);
    ck_assert_ptr_null(out);
    ck_assert_str_eq(d.file, "cells[1]");
    ck_assert_str_eq(d.msg, "the cell is outside the map");
    e[1] = (ap_cell_edit){1, 1, 'x'};
    ck_assert_int_eq(ap_map_patch(m, e, 2, &out, &d), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(d.msg, "terrain must be one of the Moving AI letters . G @ O T S W");
    /* a later edit of the same cell wins; an edit to the same letter changes nothing */
    ap_cell_edit ok[3] = {{1, 1, '.'}, {0, 0, '@'}, {1, 1, '@'}};
    ck_assert_int_eq(ap_map_patch(m, ok, 3, &out, &d), AP_OK);
    ck_assert_int_eq(out->terrain[0], '@');
    ck_assert_int_eq(out->terrain[4], '@');
    ck_assert_int_eq(out->passable_cells, 4);
    ck_assert_uint_eq(out->region_count, 2); /* (0, 1) is cut off by the two walls */
    ap_test_patch_equals_fresh(out, NULL);
    ap_map_free(out);
    ap_map_free(m);
}
END_TEST

/* A wall across a corridor splits its region; the door in it joins them again. */
START_TEST(patch_splits_and_joins_regions)
{
    ap_map *m = ap_test_map_from_string("type octile\nheight 3\nwidth 5\nmap\n@@@@@\n.....\n@@@@@\n");
    ck_assert_uint_eq(m->region_count, 1);
    ap_cell_edit wall = {2, 1, '@'}, door = {2, 1, 'G'};
    ap_map *a = NULL, *b = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_patch(m, &wall, 1, &a, &d), AP_OK);
    ck_assert_uint_eq(a->region_count, 2);
    ck_assert_uint_ne(a->region[ap_map_index(a, 0, 1)], a->region[ap_map_index(a, 4, 1)]);
    ap_test_patch_equals_fresh(a, NULL);
    ck_assert_int_eq(ap_map_patch(a, &door, 1, &b, &d), AP_OK);
    ck_assert_uint_eq(b->region_count, 1);
    ck_assert_uint_eq(b->region[ap_map_index(b, 0, 1)], b->region[ap_map_index(b, 4, 1)]);
    ap_test_patch_equals_fresh(b, NULL);
    ap_map_free(b);
    ap_map_free(a);
    ap_map_free(m);
}
END_TEST

/* Chained random updates of real maps (walls, doors, other terrain), every version against a fresh load. */
START_TEST(patch_movingai_maps_equal_fresh_loads)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("tile updates of Moving AI maps");
        return;
    }
    static const char *const names[] = {"den520d", "arena2", "battleground", "32room_000"};
    ap_test_rng g = {20261124};
    int rounds = ap_test_quick() ? 2 : 6;
    int region_before = incremental_count("region");
    aa_incremental = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.map", dir, names[i]);
        ap_map *m = NULL;
        ap_diag d;
        ck_assert_msg(ap_map_load(path, NULL, &m, &d) == AP_OK, "%s: %s", path, d.msg);
        chain(m, NULL, &g, rounds, "..@@@GSTW");
    }
    ck_assert_int_gt(incremental_count("region"), region_before);
    ck_assert_int_gt(aa_incremental, 0);
    ck_assert_int_gt(incremental_count("clearance:"), 0);
    ck_assert_int_gt(incremental_count("hier"), 0);
}
END_TEST

/* Random terrain maps with every capability's tables, and a weighted map whose costs open trees and water
 * (and an edit may make it uniform or weighted again). */
START_TEST(patch_every_capability_and_weighted)
{
    ap_test_rng g = {777};
    int region_before = incremental_count("region"), view_before = incremental_count("view:");
    for (int i = 0; i < (ap_test_quick() ? 3 : 10); i++) {
        ap_map *m = ap_test_terrain_map(&g, 40, ap_test_all_capabilities, 15);
        ap_map_opts o = {.capabilities = ap_test_all_capabilities, .n_capabilities = 15};
        chain(m, &o, &g, 4, ".GSWT@O");
    }
    ap_terrain_costs tc = {"*", {0, 0, 2.0, 3.0, 0}};
    ap_map_opts o = {.terrain = &tc, .n_terrain = 1};
    const char *text = "type octile\nheight 4\nwidth 6\nmap\n..T...\n.@TT..\n..S..W\n......\n";
    ap_map *m = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("w", "w", text, strlen(text), &o, &m, &d), AP_OK);
    ck_assert(m->weighted);
    chain(m, &o, &g, 8, ".TS@W");
    /* "region" and "region:<capability>" share the comparator (and the update, region.h) */
    ck_assert_int_gt(incremental_count("region"), region_before);
    ck_assert_int_gt(incremental_count("view:"), view_before);
}
END_TEST


/* The ids of m's region table are exactly 1 .. region_count (each used) and the "region" slot was updated,
 * not built. */
static void assert_dense_incremental(const ap_map *m, bool incremental)
{
    uint8_t *used = calloc((size_t)m->region_count + 1, 1);
    uint32_t seen = 0;
    for (uint32_t i = 0; i < ap_map_node_count(m); i++) {
        uint32_t id = m->region[i];
        ck_assert_uint_le(id, m->region_count);
        if (id != 0 && !used[id]) {
            used[id] = 1;
            seen++;
        }
    }
    free(used);
    ck_assert_uint_eq(seen, m->region_count);
    const ap_map_table *t = ap_map_find_table(m, AP_REGION_TABLE_NAME);
    ck_assert(t != NULL && t->incremental == incremental);
}

/* ap_map_patch of m by the n edits: the new version, checked against a fresh load and for dense ids. */
static ap_map *patched_as(const ap_map *m, const ap_cell_edit *e, size_t n, bool incremental)
{
    ap_map *out = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_patch(m, e, n, &out, &d), AP_OK);
    ap_test_patch_equals_fresh(out, NULL);
    assert_dense_incremental(out, incremental);
    return out;
}

/* patched_as for an update the region table makes incrementally (no fallback to a full build). */
static ap_map *patched(const ap_map *m, const ap_cell_edit *e, size_t n)
{
    return patched_as(m, e, n, true);
}

static uint32_t region_at(const ap_map *m, int x, int y)
{
    return m->region[ap_map_index(m, x, y)];
}

/* A 40-cell wall across an open 41 x 40 room splits off its left 4 columns (one batch of 40 changes; the
 * last cell's fronts find the smaller side), and one door in it joins the sides again. */
START_TEST(patch_wall_splits_room_door_joins)
{
    char text[64 + 42 * 40];
    int at = snprintf(text, sizeof text, "type octile\nheight 40\nwidth 41\nmap\n");
    for (int y = 0; y < 40; y++) {
        memset(text + at, '.', 41);
        text[at + 41] = '\n';
        at += 42;
    }
    text[at] = '\0';
    ap_map *m = ap_test_map_from_string(text);
    ck_assert_uint_eq(m->region_count, 1);
    ap_cell_edit wall[40];
    for (int y = 0; y < 40; y++)
        wall[y] = (ap_cell_edit){4, y, '@'};
    ap_map *a = patched(m, wall, 40);
    ck_assert_uint_eq(a->region_count, 2);
    ck_assert_uint_ne(region_at(a, 0, 0), region_at(a, 40, 39));
    ck_assert_uint_eq(region_at(a, 0, 0), region_at(a, 3, 39));
    ck_assert_uint_eq(region_at(a, 5, 0), region_at(a, 40, 39));
    ck_assert_uint_eq(region_at(a, 4, 7), 0);
    ap_cell_edit door = {4, 13, '.'};
    ap_map *b = patched(a, &door, 1);
    ck_assert_uint_eq(b->region_count, 1);
    ck_assert_uint_eq(region_at(b, 0, 0), region_at(b, 40, 39));
    ap_map_free(b);
    ap_map_free(a);
    ap_map_free(m);
}
END_TEST

/* Closing the middle of a T junction splits its region into 3; closing the centre of a cross into 4, and
 * opening it again merges the 4 into one. */
START_TEST(patch_junctions_split_and_merge)
{
    ap_map *t = ap_test_map_from_string("type octile\nheight 4\nwidth 7\nmap\n@@@@@@@\n.......\n@@@.@@@\n@@@.@@@\n");
    ck_assert_uint_eq(t->region_count, 1);
    ap_cell_edit mid = {3, 1, '@'};
    ap_map *t3 = patched(t, &mid, 1);
    ck_assert_uint_eq(t3->region_count, 3);
    uint32_t w = region_at(t3, 0, 1), e = region_at(t3, 6, 1), s = region_at(t3, 3, 3);
    ck_assert(w != e && e != s && w != s);
    ck_assert_uint_eq(region_at(t3, 2, 1), w);
    ck_assert_uint_eq(region_at(t3, 4, 1), e);
    ck_assert_uint_eq(region_at(t3, 3, 2), s);
    ap_map_free(t3);
    ap_map_free(t);

    ap_map *x = ap_test_map_from_string("type octile\nheight 5\nwidth 5\nmap\n@@.@@\n@@.@@\n..@..\n@@.@@\n@@.@@\n");
    ck_assert_uint_eq(x->region_count, 4);
    ap_cell_edit open = {2, 2, 'G'}, close = {2, 2, 'O'};
    ap_map *x1 = patched(x, &open, 1);
    ck_assert_uint_eq(x1->region_count, 1);
    ck_assert_uint_eq(region_at(x1, 2, 0), region_at(x1, 0, 2));
    ck_assert_uint_eq(region_at(x1, 2, 4), region_at(x1, 4, 2));
    ap_map *x4 = patched(x1, &close, 1);
    ck_assert_uint_eq(x4->region_count, 4);
    ap_map_free(x4);
    ap_map_free(x1);
    ap_map_free(x);
}
END_TEST

/* Ids stay 1 .. count when regions disappear below the highest id: walling in the first of three single
 * cells (id 1), then joining the other two rooms through a door (one id fewer), then opening a cell with
 * no free neighbour (a new region). */
START_TEST(patch_region_ids_stay_dense)
{
    ap_map *m = ap_test_map_from_string("type octile\nheight 5\nwidth 7\nmap\n.@.@...\n@@@@@@@\n...@...\n"
                                        "...@...\n@@@@@@.\n");
    ck_assert_uint_eq(m->region_count, 5); /* (0,0), (2,0), (4..6,0), the two rooms below */
    ap_cell_edit gone = {0, 0, '@'};
    ap_map *a = patched(m, &gone, 1);
    ck_assert_uint_eq(a->region_count, 4);
    ap_cell_edit door = {3, 3, '.'};
    ap_map *b = patched(a, &door, 1);
    ck_assert_uint_eq(b->region_count, 3);
    ck_assert_uint_eq(region_at(b, 0, 2), region_at(b, 6, 4));
    ap_cell_edit lone[2] = {{0, 0, 'S'}, {2, 0, '@'}};
    ap_map *c = patched(b, lone, 2);
    ck_assert_uint_eq(c->region_count, 3);
    ck_assert_uint_ne(region_at(c, 0, 0), 0);
    ck_assert_uint_eq(region_at(c, 2, 0), 0);
    ap_map_free(c);
    ap_map_free(b);
    ap_map_free(a);
    ap_map_free(m);
}
END_TEST

/* A long winding loop (rows joined end to end, closed by a return path round the right and bottom): closing
 * one cell does not split it, but the fronts must walk the whole loop to meet, more than the update's
 * budget (region.h AP_REGION_UPDATE_MAX_VISITED): the full build takes over, with the same answer; a
 * second cut then splits the loop in two, again past the budget. */
START_TEST(patch_region_budget_falls_back)
{
    char grid[31][32];
    for (int y = 0; y < 31; y++) {
        memset(grid[y], '@', 31);
        grid[y][31] = '\0';
    }
    for (int k = 0; k < 14; k++) {
        int y = 1 + 2 * k;
        memset(&grid[y][1], '.', 27);
        if (k < 13)
            grid[y + 1][k % 2 == 0 ? 27 : 1] = '.';
    }
    grid[1][28] = '.';
    for (int y = 1; y <= 29; y++)
        grid[y][29] = '.';
    memset(&grid[29][1], '.', 29);
    grid[28][1] = '.';
    char text[64 + 32 * 31];
    int at = snprintf(text, sizeof text, "type octile\nheight 31\nwidth 31\nmap\n");
    for (int y = 0; y < 31; y++)
        at += snprintf(text + at, sizeof text - (size_t)at, "%s\n", grid[y]);
    ap_map *m = ap_test_map_from_string(text);
    ck_assert_uint_eq(m->region_count, 1);
    ck_assert_int_gt(m->passable_cells, (int64_t)ap_map_node_count(m) / AP_REGION_UPDATE_MAX_VISITED);
    ap_cell_edit cut = {14, 3, '@'}, cut2 = {15, 29, '@'};
    ap_map *a = patched_as(m, &cut, 1, false); /* one region, met only round the loop: over budget */
    ck_assert_uint_eq(a->region_count, 1);
    ap_map *b = patched_as(a, &cut2, 1, true); /* a split: the smaller piece runs out first */
    ck_assert_uint_eq(b->region_count, 2);
    ck_assert_uint_ne(region_at(b, 13, 3), region_at(b, 15, 3));
    ck_assert_uint_eq(region_at(b, 13, 3), region_at(b, 14, 29));
    ap_map_free(b);
    ap_map_free(a);
    ap_map_free(m);
}
END_TEST

/* Near the percolation threshold (about 45% walls) single-cell toggles split and join regions all the time:
 * long chains of them, every version against a fresh load. */
START_TEST(patch_region_random_toggles)
{
    ap_test_rng g = {4242};
    int region_before = incremental_count("region");
    for (int i = 0; i < (ap_test_quick() ? 2 : 6); i++) {
        char text[64 + 33 * 32];
        int at = snprintf(text, sizeof text, "type octile\nheight 32\nwidth 32\nmap\n");
        for (int y = 0; y < 32; y++) {
            for (int x = 0; x < 32; x++)
                text[at++] = ap_test_rand(&g) % 100 < 45 ? '@' : '.';
            text[at++] = '\n';
        }
        text[at] = '\0';
        chain(ap_test_map_from_string(text), NULL, &g, ap_test_quick() ? 20 : 60, ".@");
    }
    ck_assert_int_gt(incremental_count("region"), region_before);
}
END_TEST

/* An open square map of side n ('.' everywhere), parsed with the default options. */
static ap_map *open_map(int n)
{
    size_t cap = 64 + (size_t)(n + 1) * (size_t)n;
    char *text = malloc(cap);
    int at = snprintf(text, cap, "type octile\nheight %d\nwidth %d\nmap\n", n, n);
    for (int y = 0; y < n; y++) {
        memset(text + at, '.', (size_t)n);
        text[at + n] = '\n';
        at += n + 1;
    }
    ap_map *m = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("open", "open", text, (size_t)at, NULL, &m, &d), AP_OK);
    free(text);
    return m;
}

/* Patch m (consumed) with n edits and check the result against a fresh load with opts; returns the new
 * version. */
static ap_map *patched_with(ap_map *m, const ap_cell_edit *e, size_t n, const ap_map_opts *opts)
{
    ap_map *next = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_patch(m, e, n, &next, &d), AP_OK);
    ap_test_patch_equals_fresh(next, opts);
    ap_map_free(m);
    return next;
}

/* patched_with without options: m is consumed. */
static ap_map *next_version(ap_map *m, const ap_cell_edit *e, size_t n)
{
    return patched_with(m, e, n, NULL);
}

/* Incremental clearance for every capability: a 200 x 200 map of rectangles of every terrain (so each
 * capability has open areas, walls and edges between terrains), loaded with all 15 capabilities, then
 * clustered edits of every letter (small enough for the windows, not the full-build fallback: each window
 * is under half the map). */
START_TEST(patch_clearance_every_capability)
{
    ap_test_rng g = {4242};
    const int n = 200;
    size_t cap = 64 + (size_t)(n + 1) * (size_t)n;
    char *text = malloc(cap);
    int at = snprintf(text, cap, "type octile\nheight %d\nwidth %d\nmap\n", n, n);
    char *grid = text + at;
    for (int y = 0; y < n; y++) {
        memset(grid + y * (n + 1), '.', (size_t)n);
        grid[y * (n + 1) + n] = '\n';
    }
    for (int r = 0; r < 60; r++) {
        const int x0 = (int)(ap_test_rand(&g) % (unsigned)n), y0 = (int)(ap_test_rand(&g) % (unsigned)n);
        const int w = 3 + (int)(ap_test_rand(&g) % 40), h = 3 + (int)(ap_test_rand(&g) % 40);
        const char letter = ".GSWT@O"[ap_test_rand(&g) % 7];
        for (int y = y0; y < y0 + h && y < n; y++)
            for (int x = x0; x < x0 + w && x < n; x++)
                grid[y * (n + 1) + x] = letter;
    }
    ap_map_opts o = {.capabilities = ap_test_all_capabilities, .n_capabilities = 15};
    ap_map *m = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("caps", "caps", text, (size_t)at + (size_t)(n + 1) * (size_t)n, &o, &m, &d), AP_OK);
    free(text);
    const int before = incremental_count("clearance:");
    for (int r = 0; r < 3; r++) {
        ap_cell_edit e[16];
        const int cx = 20 + (int)(ap_test_rand(&g) % 160), cy = 20 + (int)(ap_test_rand(&g) % 160);
        const size_t k = r == 0 ? 1 : 16;
        for (size_t i = 0; i < k; i++)
            e[i] = (ap_cell_edit){cx + (int)(i % 4), cy + (int)(i / 4), ".GSWT@O"[ap_test_rand(&g) % 7]};
        m = patched_with(m, e, k, &o);
    }
    ck_assert_int_eq(incremental_count("clearance:") - before, 3 * 15);
    ap_map_free(m);
}
END_TEST

/* The clearance windows at their limits: on an open 260 x 260 map a single wall changes disc values 17
 * cells away, diagonal moves 18 away and true clearance 254 cells up and left ((5, 5) drops from 255 to
 * 254 when (259, 259) is walled); walls at the map's edges and corners (one update, five separate windows)
 * clip the windows; a 4 x 4 block (16.5 tiles from the cell 17 to its left, the cap 18 cells away), and
 * opening them all again. */
START_TEST(patch_clearance_window_limits)
{
    ap_map *m = open_map(260);
    const int before = incremental_count("clearance:");
    const ap_cell_edit one = {259, 259, '@'};
    m = next_version(m, &one, 1);
    const ap_clearance_table *t = ap_clearance_of(m, AP_CAP_DEFAULT);
    ck_assert_uint_eq(t->square[ap_map_index(m, 5, 5)], 254);
    ck_assert_uint_eq(t->square[ap_map_index(m, 4, 4)], 255);
    const ap_cell_edit edges[] = {{0, 0, '@'}, {259, 130, 'O'}, {130, 0, '@'}, {0, 259, 'T'}, {130, 130, '@'}};
    m = next_version(m, edges, 5);
    ap_cell_edit block[16];
    for (int i = 0; i < 16; i++)
        block[i] = (ap_cell_edit){100 + i % 4, 100 + i / 4, '@'};
    m = next_version(m, block, 16);
    t = ap_clearance_of(m, AP_CAP_DEFAULT);
    ck_assert_uint_eq(t->disc[ap_map_index(m, 100 - 17, 101)], 17 * AP_CLEARANCE_SCALE - 128 - 1); /* 16.5 */
    ck_assert_uint_eq(t->disc[ap_map_index(m, 100 - 18, 101)], AP_CLEARANCE_Q_MAX);
    ap_cell_edit open[22];
    for (int i = 0; i < 16; i++)
        open[i] = (ap_cell_edit){block[i].x, block[i].y, '.'};
    open[16] = (ap_cell_edit){259, 259, '.'};
    for (size_t i = 0; i < 5; i++)
        open[17 + i] = (ap_cell_edit){edges[i].x, edges[i].y, i % 2 ? 'G' : 'S'};
    m = next_version(m, open, 22);
    t = ap_clearance_of(m, AP_CAP_DEFAULT);
    ck_assert_uint_eq(t->square[ap_map_index(m, 5, 5)], 255);
    ck_assert_uint_eq(t->disc[ap_map_index(m, 130, 130)], AP_CLEARANCE_Q_MAX);
    ck_assert_uint_eq(t->square[ap_map_index(m, 0, 0)], 255);
    ck_assert_int_eq(incremental_count("clearance:") - before, 4);
    ap_map_free(m);
}
END_TEST

/* Updates past the clearance update's limits (more than 1024 changed cells; windows over more than half
 * the map: nine cells 50 apart on a 120 x 120 map, whose frames merge into one over all of it) fall back to
 * the full build, still equal to a fresh load. */
START_TEST(patch_clearance_large_updates)
{
    ap_map *m = open_map(120);
    ap_cell_edit *e = malloc(1100 * sizeof *e);
    for (int i = 0; i < 1100; i++)
        e[i] = (ap_cell_edit){i % 120, (i / 120) * 11, i % 3 ? '@' : 'T'};
    m = next_version(m, e, 1100);
    for (int i = 0; i < 9; i++)
        e[i] = (ap_cell_edit){10 + 50 * (i % 3), 10 + 50 * (i / 3), 'W'};
    m = next_version(m, e, 9);
    free(e);
    ap_map_free(m);
}
END_TEST

/* The HAA* graph after a wall closes a cluster border's entrance and a door opens it again: the clusters on
 * both sides and their neighbours change transitions, the node numbers after them shift, and the graph equals a full
 * build each time (node numbering and edge order included); so does a wall inside a cluster (whose
 * clearance changes move the transitions of largest clearance around it). */
START_TEST(patch_hier_affected_clusters)
{
    ap_map *m = open_map(96);
    const int before = incremental_count("hier");
    const uint64_t nodes = ap_hier_of(m)->n_nodes;
    ap_cell_edit wall[16];
    for (int i = 0; i < 16; i++)
        wall[i] = (ap_cell_edit){32, 16 + i, '@'}; /* the border between clusters (1, 1) and (2, 1) */
    m = next_version(m, wall, 16);
    ck_assert_uint_ne(ap_hier_of(m)->n_nodes, nodes);
    for (int i = 0; i < 16; i++)
        wall[i].terrain = '.';
    m = next_version(m, wall, 16);
    ck_assert_uint_eq(ap_hier_of(m)->n_nodes, nodes);
    const ap_cell_edit inner = {72, 72, '@'};
    m = next_version(m, &inner, 1);
    ck_assert_int_eq(incremental_count("hier") - before, 3);
    ap_map_free(m);
}
END_TEST

Suite *patch_suite(void)
{
    Suite *s = suite_create("world/patch");
    TCase *tc = tcase_create("patch");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, patch_refuses_bad_edits);
    tcase_add_test(tc, patch_splits_and_joins_regions);
    tcase_add_test(tc, patch_movingai_maps_equal_fresh_loads);
    tcase_add_test(tc, patch_every_capability_and_weighted);
    tcase_add_test(tc, patch_wall_splits_room_door_joins);
    tcase_add_test(tc, patch_junctions_split_and_merge);
    tcase_add_test(tc, patch_region_ids_stay_dense);
    tcase_add_test(tc, patch_region_budget_falls_back);
    tcase_add_test(tc, patch_region_random_toggles);
    tcase_add_test(tc, patch_clearance_window_limits);
    tcase_add_test(tc, patch_clearance_large_updates);
    tcase_add_test(tc, patch_clearance_every_capability);
    tcase_add_test(tc, patch_hier_affected_clusters);
    suite_add_tcase(s, tc);
    return s;
}
