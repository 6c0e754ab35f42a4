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
#include "../../../planner/grid/jps.h"
#include "../../../planner/plan/plan.h"
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
        AP_EXPECT((a[i] == 0) == (b[i] == 0), "%s: cell %zu free in one table only", what, i);
        if (a[i] == 0)
            continue;
        AP_EXPECT(a[i] <= count && b[i] <= count, "%s: id above the count %llu", what,
                      (unsigned long long)count);
        if (fw[a[i]] == 0 && bw[b[i]] == 0) {
            fw[a[i]] = b[i];
            bw[b[i]] = a[i];
        }
        AP_EXPECT(fw[a[i]] == b[i] && bw[b[i]] == a[i], "%s: cell %zu in different components", what, i);
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
    AP_EXPECT(memcmp(a->pass, b->pass, padded) == 0, "%s: pass differs", upd->name);
    ck_assert_int_eq(a->passable_cells, b->passable_cells);
    ck_assert_int_eq(a->pass_is_default_capability, b->pass_is_default_capability);
    ck_assert_int_eq(a->weighted, b->weighted);
    ck_assert(memcmp(a->cost_of, b->cost_of, sizeof a->cost_of) == 0);
    ck_assert(a->cost_min == b->cost_min && a->cost_max == b->cost_max);
    ck_assert_int_eq(a->kind != NULL, b->kind != NULL);
    ck_assert_int_eq(a->cheap != NULL, b->cheap != NULL);
    if (b->kind != NULL)
        AP_EXPECT(memcmp(a->kind, b->kind, padded) == 0 && memcmp(a->cheap, b->cheap, padded) == 0,
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
        AP_EXPECT(a->disc[p] == b->disc[p] && a->diag[p] == b->diag[p] && a->square[p] == b->square[p],
                      "%s (%d, %d): disc %u/%u diag %#x/%#x square %u/%u (updated/fresh)", upd->name, x, y, a->disc[p],
                      b->disc[p], a->diag[p], b->diag[p], a->square[p], b->square[p]);
    }
}

/* The HAA* graph: the same nodes (cells, numbering, clusters), the same edges in the same order with the
 * same costs to the bit and the same stored detours, the same landmark distances, and the clearance table of
 * the map it belongs to. */
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
        AP_EXPECT(a->edges[k].to == b->edges[k].to, "hier edge %u: to %u updated, %u fresh", k, a->edges[k].to,
                      b->edges[k].to);
        AP_EXPECT(memcmp(a->edges[k].cost, b->edges[k].cost, sizeof a->edges[k].cost) == 0,
                      "hier edge %u: costs differ", k);
        /* the stored detour: the same moves (its offset in the pool may differ: copied clusters append theirs
         * node by node) */
        for (int cls = 0; cls < AP_HIER_CLASSES; cls++) {
            const uint32_t pa = ap_hier_edge_path(a, k, cls), pb = ap_hier_edge_path(b, k, cls);
            AP_EXPECT((pa == AP_HIER_NO_PATH) == (pb == AP_HIER_NO_PATH), "hier edge %u class %d: a stored path in one only",
                      k, cls);
            if (pa != AP_HIER_NO_PATH && pb != AP_HIER_NO_PATH)
                AP_EXPECT(a->paths[pa] == b->paths[pb] && memcmp(&a->paths[pa + 1], &b->paths[pb + 1], a->paths[pa]) == 0,
                          "hier edge %u class %d: stored paths differ", k, cls);
        }
    }
    ck_assert_uint_eq(a->paths_len, b->paths_len);
    ck_assert_uint_eq(a->n_paths, b->n_paths);
    /* the landmark distances of the abstract search's ALT bound, to the bit */
    ck_assert_int_eq(a->lm_classes, b->lm_classes);
    ck_assert((a->lm == NULL) == (b->lm == NULL));
    if (a->lm != NULL)
        ck_assert(memcmp(a->lm, b->lm, (size_t)a->lm_classes * a->n_nodes * AP_HIER_LANDMARKS * sizeof *a->lm) == 0);
}

/* Padded cell i of m as "(x, y)" of the map (for messages). */
static const char *cell_name(const ap_map *m, size_t i, char buf[32])
{
    snprintf(buf, 32, "(%d, %d)", (int)(i % (size_t)m->stride) - 1, (int)(i / (size_t)m->stride) - 1);
    return buf;
}

/* JPS+ tables: every int16 distance, the one-byte copy (present in both or neither, every byte), every
 * forced byte, and the counts behind the copy's rule. */
static void cmp_jps_plus(const ap_map *m, const ap_map_table *upd, const ap_map_table *fresh)
{
    const ap_jps_table *a = upd->data, *b = fresh->data;
    char at[32];
    ck_assert_uint_eq(a->cells, b->cells);
    for (size_t i = 0; i < (size_t)b->cells * 8; i++)
        AP_EXPECT(a->dist[i] == b->dist[i], "jps_plus: cell %s dir %zu: updated %d, fresh %d",
                      cell_name(m, i / 8, at), i % 8, a->dist[i], b->dist[i]);
    AP_EXPECT((a->dist8 == NULL) == (b->dist8 == NULL), "jps_plus: one-byte copy in one table only");
    for (size_t i = 0; b->dist8 != NULL && i < (size_t)b->cells * 8; i++)
        AP_EXPECT(a->dist8[i] == b->dist8[i], "jps_plus: cell %s dir %zu: byte updated %d, fresh %d",
                      cell_name(m, i / 8, at), i % 8, a->dist8[i], b->dist8[i]);
    for (size_t i = 0; i < b->cells; i++)
        AP_EXPECT(a->forced[i] == b->forced[i], "jps_plus: cell %s: forced %#x updated, %#x fresh",
                      cell_name(m, i, at), a->forced[i], b->forced[i]);
    ck_assert_uint_eq(a->nonzero, b->nonzero);
    ck_assert_uint_eq(a->far, b->far);
}

/* Online JPS's bit lines: every word of the row, column and event lines, laid out alike. */
static void cmp_jps_bits(const ap_map *m, const ap_map_table *upd, const ap_map_table *fresh)
{
    const ap_jps_bits *a = upd->data, *b = fresh->data;
    const size_t W = (size_t)m->width + 2, H = (size_t)m->height + 2;
    ck_assert_uint_eq(a->row_words, b->row_words);
    ck_assert_uint_eq(a->col_words, b->col_words);
    ck_assert(a->ev_w - a->ev == b->ev_w - b->ev && a->ev_s - a->ev == b->ev_s - b->ev &&
              a->ev_n - a->ev == b->ev_n - b->ev && a->ev_e == a->ev);
    const size_t rows = H * b->row_words, cols = W * b->col_words;
    for (size_t i = 0; i < rows; i++)
        AP_EXPECT(a->rows[i] == b->rows[i], "jps_bits: row %zu word %zu", i / b->row_words, i % b->row_words);
    for (size_t i = 0; i < cols; i++)
        AP_EXPECT(a->cols[i] == b->cols[i], "jps_bits: column %zu word %zu", i / b->col_words,
                      i % b->col_words);
    for (size_t i = 0; i < 2 * (rows + cols); i++)
        AP_EXPECT(a->ev[i] == b->ev[i], "jps_bits: event word %zu: updated %#llx, fresh %#llx", i,
                      (unsigned long long)a->ev[i], (unsigned long long)b->ev[i]);
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
    {AP_JPS_TABLE_NAME, cmp_jps_plus},
    {AP_JPS_BITS_NAME, cmp_jps_bits},
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

/* A fresh parse of u's letters with opts (the caller frees it). */
static ap_map *fresh_of(const ap_map *u, const ap_map_opts *opts)
{
    size_t len;
    char *text = ap_test_map_text(u, &len);
    ap_map *f = NULL;
    ap_diag d;
    int st = ap_map_parse(u->id, u->id, text, len, opts, &f, &d);
    free(text);
    AP_EXPECT(st == AP_OK, "fresh parse: %s", d.msg);
    return f;
}

/* The updated map u equals a fresh parse of its own letters with opts: passability, costs, and every table
 * (same slots in the same order, same bytes and counts, equal content by the kind's comparator). Returns
 * how many of u's tables were updated incrementally. */
int ap_test_patch_equals_fresh(const ap_map *u, const ap_map_opts *opts)
{
    ap_map *f = fresh_of(u, opts);
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
        AP_EXPECT(a->bytes == b->bytes, "%s: %zu bytes updated, %zu fresh", a->name, a->bytes, b->bytes);
        AP_EXPECT(a->count == b->count, "%s: count %llu updated, %llu fresh", a->name,
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
    /* whether edits change a letter at all (a PATCH that does not makes no version): by each cell's last edit */
    const ap_cell_edit same[2] = {{0, 0, '.'}, {1, 1, '@'}}, restored[2] = {{0, 0, '@'}, {0, 0, '.'}},
                       changed[2] = {{0, 0, '.'}, {0, 0, 'T'}}, outside[1] = {{3, 1, '.'}};
    ck_assert(!ap_map_patch_changes(m, same, 2));
    ck_assert(!ap_map_patch_changes(m, restored, 2));
    ck_assert(ap_map_patch_changes(m, changed, 2));
    ck_assert(ap_map_patch_changes(m, ok, 3));
    ck_assert(ap_map_patch_changes(m, outside, 1)); /* ap_map_patch says why */
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
        AP_EXPECT(ap_map_load(path, NULL, &m, &d) == AP_OK, "%s: %s", path, d.msg);
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
    ck_assert_double_eq(ap_clearance_level_tiles[t->disc[ap_map_index(m, 100 - 17, 101)]], 16.5);
    ck_assert_uint_eq(t->disc[ap_map_index(m, 100 - 18, 101)], AP_CLEARANCE_LEVEL_MAX);
    ap_cell_edit open[22];
    for (int i = 0; i < 16; i++)
        open[i] = (ap_cell_edit){block[i].x, block[i].y, '.'};
    open[16] = (ap_cell_edit){259, 259, '.'};
    for (size_t i = 0; i < 5; i++)
        open[17 + i] = (ap_cell_edit){edges[i].x, edges[i].y, i % 2 ? 'G' : 'S'};
    m = next_version(m, open, 22);
    t = ap_clearance_of(m, AP_CAP_DEFAULT);
    ck_assert_uint_eq(t->square[ap_map_index(m, 5, 5)], 255);
    ck_assert_uint_eq(t->disc[ap_map_index(m, 130, 130)], AP_CLEARANCE_LEVEL_MAX);
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
    const int before = incremental_count("clearance:");
    ap_cell_edit *e = malloc(1100 * sizeof *e);
    for (int i = 0; i < 1100; i++)
        e[i] = (ap_cell_edit){i % 120, (i / 120) * 11, i % 3 ? '@' : 'T'};
    m = next_version(m, e, 1100);
    for (int i = 0; i < 9; i++)
        e[i] = (ap_cell_edit){10 + 50 * (i % 3), 10 + 50 * (i / 3), 'W'};
    m = next_version(m, e, 9);
    free(e);
    ck_assert_int_eq(incremental_count("clearance:"), before); /* both built in full */
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

/* The stored detours' budget (hier.c pool_open) is decided cluster by cluster; a tile update copied a kept
 * cluster's detours from the old table, so a cluster the old build reached with the budget spent kept none
 * where an earlier cluster's detours had shrunk and a fresh build stores them (a helper's: 120,039 against
 * 125,105 bytes, 55 of 400 hierarchical answers another shape). The demo rooms with swamp at cost 3 and a
 * helper's 305 edits, then one cell opened at (72, 11): both versions equal fresh builds. */
static const char rooms_budget_edits[] =
    "18,0.;21,0.;40,0.;47,0.;85,0T;7,1G;15,1@;21,1S;38,1T;78,1@;80,1@;87,1W;0,2.;5,2@;20,2W;27,2@;38,2W;"
    "78,2@;79,2G;0,3.;71,3@;9,4T;11,5G;17,5@;28,5T;57,5@;81,5G;31,6@;71,6@;17,7@;73,7G;76,7T;20,8W;27,8S;"
    "46,8@;91,8@;36,9T;49,9G;66,9@;77,9@;86,9G;20,10@;25,10@;44,10@;49,10W;56,10@;67,10@;74,10@;0,11S;"
    "19,11@;57,11@;61,11T;72,11W;85,11T;88,11T;0,12G;61,12S;0,13G;11,13W;31,13@;48,13W;71,13W;84,13T;"
    "23,14.;64,14S;8,15W;32,15@;44,15@;32,16S;41,16S;80,16@;11,17G;22,17W;50,17W;57,17S;72,17@;21,18W;"
    "26,18@;37,18G;65,18W;19,19G;48,19S;55,19G;58,19G;92,19T;21,20T;86,20S;88,20@;89,20G;16,21W;17,21S;"
    "25,21S;35,21W;38,21G;41,21@;48,21@;69,21T;87,21@;3,22G;6,22S;35,22@;79,22S;84,22G;91,22G;92,22W;"
    "15,23G;26,23T;64,23G;65,23@;78,23W;83,23S;0,24.;16,24W;25,24@;38,24T;92,24T;8,25S;15,25@;24,25W;"
    "55,25G;3,26@;22,26S;23,26.;86,26@;1,27@;3,27@;63,27T;11,28S;26,28W;30,28@;34,28@;50,28@;51,28@;"
    "85,28W;11,29W;23,29W;34,29@;53,29@;71,29@;86,29T;40,31@;84,31@;43,32@;16,33@;28,33@;35,33S;42,33@;"
    "78,33G;83,33S;45,34W;63,34G;65,34S;84,34T;19,35@;31,35S;52,35S;59,35W;75,35G;8,36@;16,36T;30,36T;"
    "37,36S;46,36G;47,36W;71,36@;73,36T;90,36T;92,36T;3,37@;29,37@;63,37S;84,37@;0,38G;16,38T;64,38.;"
    "65,38W;72,38G;2,39T;14,39W;39,39S;49,39W;52,39G;7,40T;23,40T;34,40S;38,40@;53,40S;59,40T;78,40G;"
    "14,41@;15,41@;36,41S;39,41T;58,41@;87,41G;0,42.;15,42G;18,42W;34,42@;49,42G;67,42W;84,42T;0,43.;"
    "12,43W;20,43T;86,43@;88,43@;16,44G;24,44W;25,44W;26,44W;27,44W;28,44W;29,44W;30,44W;31,44W;32,44W;"
    "33,44W;35,44@;47,44T;48,44@;75,44W;92,44.;0,45T;8,46@;11,46S;23,46T;42,46@;70,46@;83,46W;88,46T;"
    "89,46G;0,47S;6,47T;82,47.;88,47@;30,48G;42,48W;43,48S;52,48G;58,48@;61,48W;86,48G;9,49W;22,49G;"
    "24,49S;35,49W;2,50S;5,50@;31,50S;56,50@;71,50W;87,50G;4,51@;25,51W;56,51@;88,51S;0,52.;64,52T;"
    "69,52@;73,52G;62,53T;3,54W;6,54T;47,54G;3,55@;13,55S;15,55G;23,55T;32,55S;36,55S;41,55S;54,55S;"
    "79,55W;1,56S;12,56W;54,56W;59,56W;63,57W;64,57.;36,58W;45,58W;46,58W;75,58T;76,58@;9,60T;58,60S;"
    "8,61@;17,61G;32,61@;60,61W;87,61G;63,62@;64,62@;65,62@;66,62@;67,62@;68,62@;70,62T;85,62S;7,63.;"
    "19,63.;47,63W;83,63.;89,63.;";

START_TEST(patch_hier_detour_budget)
{
    ap_terrain_costs tc = {"*", {0, 0, 3.0, 0, 0}};
    ap_map_opts o = {.terrain = &tc, .n_terrain = 1};
    ap_map *m = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_load("config/maps/rooms.map", &o, &m, &d), AP_OK);
    ap_cell_edit e[320];
    size_t n = 0;
    for (const char *p = rooms_budget_edits; *p;) {
        int x, y, used;
        char c;
        ck_assert_int_eq(sscanf(p, "%d,%d%c%n", &x, &y, &c, &used), 3);
        ck_assert_uint_lt(n, sizeof e / sizeof e[0]);
        e[n++] = (ap_cell_edit){x, y, c};
        p += used + (p[used] == ';');
    }
    ck_assert_uint_eq(n, 305);
    m = patched_with(m, e, n, &o);
    ck_assert(m->weighted); /* the edits bring swamp */
    const ap_cell_edit open = {72, 11, '.'};
    m = patched_with(m, &open, 1, &o);
    ap_map_free(m);
}
END_TEST

/* ---- JPS tables (jps_plus, jps_bits): focused updates, and searches on updated maps ---------------------- */

/* u's table `name` was made by an update (not built from scratch by a load). */
static bool slot_incremental(const ap_map *u, const char *name)
{
    for (int i = 0; i < u->n_tables; i++)
        if (strcmp(u->tables[i].name, name) == 0)
            return u->tables[i].incremental;
    ck_abort_msg("no %s table", name);
    return false;
}

/* u's JPS tables equal what their kinds build for u from scratch (cheaper than ap_test_patch_equals_fresh, which
 * builds every kind: the random maps' any-angle tables dominate it). */
static void check_jps_fresh(const ap_map *u)
{
    const ap_table_kind *kinds[] = {&ap_jps_plus_table_kind, &ap_jps_bits_table_kind};
    for (size_t i = 0; i < 2; i++) {
        const ap_map_table *a = ap_map_find_table(u, kinds[i]->name);
        ck_assert_ptr_nonnull(a);
        ap_map_table b = {.name = kinds[i]->name};
        ck_assert_int_eq(kinds[i]->build(u, &b), AP_OK);
        ck_assert_uint_eq(a->bytes, b.bytes);
        comparators[comparator_index(a->name)].cmp(u, a, &b);
        kinds[i]->free_fn(b.data);
    }
}

/* m patched with the n edits e (must succeed); both JPS tables updated, not built. */
static ap_map *jps_patched(const ap_map *m, const ap_cell_edit *e, size_t n)
{
    ap_map *out = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_patch(m, e, n, &out, &d), AP_OK);
    ck_assert(slot_incremental(out, AP_JPS_TABLE_NAME) && slot_incremental(out, AP_JPS_BITS_NAME));
    return out;
}

static int plan_on(const ap_map *m, ap_workspace *ws, ap_algorithm alg, const int *a, const int *b, ap_result *r)
{
    ap_query q = ap_test_cell_query(m, alg, 8, a[0], a[1], b[0], b[1]);
    ap_plan p;
    int st = ap_plan_begin(&p, &q, ws, 0);
    while (st == AP_IN_PROGRESS)
        st = ap_plan_step(&p, 0);
    ck_assert_int_eq(ap_plan_finish(&p, r), st);
    return st;
}

/* For every ordered pair of the n cells pts: online JPS and JPS+ on the updated map u answer as on a fresh
 * load of its letters (status, grid cost, every waypoint), and with A*'s status and cost on u. Returns how
 * many pairs had a path. */
static int same_answers(const ap_map *u, const int (*pts)[2], size_t n)
{
    ap_map *f = fresh_of(u, NULL);
    ap_workspace ws;
    ck_assert_int_eq(ap_workspace_init(&ws, ap_map_node_count(u), 8), AP_OK);
    int found = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            if (i == j)
                continue;
            ap_result ra;
            int sa = plan_on(u, &ws, AP_ALG_ASTAR, pts[i], pts[j], &ra);
            found += sa == AP_OK;
            static const ap_algorithm algs[] = {AP_ALG_JPS, AP_ALG_JPS_PLUS};
            for (size_t a = 0; a < 2; a++) {
                ap_result ru, rf;
                int su = plan_on(u, &ws, algs[a], pts[i], pts[j], &ru), sf = plan_on(f, &ws, algs[a], pts[i], pts[j], &rf);
                AP_EXPECT(su == sf && su == sa, "(%d,%d)->(%d,%d) alg %zu: updated %s, fresh %s, A* %s", pts[i][0],
                              pts[i][1], pts[j][0], pts[j][1], a, ap_status_name(su), ap_status_name(sf),
                              ap_status_name(sa));
                if (su == AP_OK) {
                    ck_assert(ru.grid_cost == rf.grid_cost);
                    ck_assert_double_eq_tol(ru.grid_cost, ra.grid_cost, 1e-9);
                    ck_assert_uint_eq(ru.n_waypoints, rf.n_waypoints);
                    ck_assert(memcmp(ru.waypoints, rf.waypoints, ru.n_waypoints * sizeof ru.waypoints[0]) == 0);
                }
                ap_result_free(&ru);
                ap_result_free(&rf);
            }
            ap_result_free(&ra);
        }
    ap_workspace_free(&ws);
    ap_map_free(f);
    return found;
}

/* A w x h map text of walls with the cells open(x, y) open; or, when open is NULL, with each cell a wall
 * with probability pb percent (drawn from g). Caller frees. */
static char *map_text(int w, int h, bool (*open)(int x, int y), ap_test_rng *g, unsigned pb)
{
    size_t cap = (size_t)(w + 1) * (size_t)h + 64;
    char *t = malloc(cap);
    int k = snprintf(t, cap, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++)
            t[k++] = (open != NULL ? open(x, y) : ap_test_rand(g) % 100 >= pb) ? '.' : '@';
        t[k++] = '\n';
    }
    t[k] = '\0';
    return t;
}

/* A random w x h map, pb percent walls. */
static ap_map *random_map(ap_test_rng *g, int w, int h, unsigned pb)
{
    char *t = map_text(w, h, NULL, g, pb);
    ap_map *m = ap_test_map_from_string(t);
    free(t);
    return m;
}

static bool corridor1(int x, int y)
{
    (void)x;
    return y == 1;
}

static bool corridor3(int x, int y)
{
    (void)x;
    return y >= 1 && y <= 3;
}

/* The JPS+ table of m. */
static const ap_jps_table *jt(const ap_map *m)
{
    const ap_jps_table *t = ap_jps_table_of(m);
    ck_assert_ptr_nonnull(t);
    return t;
}

/* A wall across a long corridor and a door in it: the straight distances of the whole corridor change (so
 * do their far ones: a 250-cell run has distances beyond a byte, its two halves have none, and the one-byte
 * copy comes and goes with the wall); a letter change that keeps passability changes nothing. */
START_TEST(patch_jps_corridor_wall_and_door)
{
    char *t1 = map_text(250, 3, corridor1, NULL, 0);
    ap_map *m = ap_test_map_from_string(t1);
    ck_assert_ptr_null(jt(m)->dist8); /* 2 x 122 far distances of 498 non-zero ones */
    ap_cell_edit wall = {125, 1, '@'}, door = {125, 1, '.'}, grass = {60, 1, 'G'};
    ap_map *a = jps_patched(m, &wall, 1), *b = jps_patched(a, &door, 1), *c = jps_patched(b, &grass, 1);
    ck_assert_ptr_nonnull(jt(a)->dist8);
    ck_assert_int_eq(jt(a)->dist[(size_t)ap_map_index(a, 0, 1) * 8 + 2], -124);
    ck_assert_ptr_null(jt(b)->dist8);
    ck_assert_int_eq(jt(b)->dist[(size_t)ap_map_index(b, 0, 1) * 8 + 2], -249);
    ck_assert(memcmp(jt(c)->dist, jt(b)->dist, (size_t)jt(b)->cells * 16) == 0);
    static const int pts1[][2] = {{0, 1}, {124, 1}, {126, 1}, {249, 1}};
    ck_assert_int_eq(same_answers(a, pts1, 4), 4); /* each side of the wall: 2 pairs each way */
    ck_assert_int_eq(same_answers(b, pts1, 4), 12);
    ap_map *maps[] = {a, b, c};
    for (size_t i = 0; i < 3; i++) {
        ap_test_patch_equals_fresh(maps[i], NULL);
        ap_map_free(maps[i]);
    }
    ap_map_free(m);
    free(t1);

    /* three cells tall: the wall across it in one update, then a door in its middle */
    char *t3 = map_text(250, 5, corridor3, NULL, 0);
    m = ap_test_map_from_string(t3);
    ap_cell_edit wall3[3] = {{125, 1, '@'}, {125, 2, '@'}, {125, 3, 'O'}}, door3 = {125, 2, 'S'};
    a = jps_patched(m, wall3, 3);
    b = jps_patched(a, &door3, 1);
    static const int pts3[][2] = {{0, 1}, {0, 3}, {124, 2}, {126, 1}, {249, 3}, {200, 2}};
    ck_assert_int_eq(same_answers(a, pts3, 6), 12); /* 3 cells a side: 6 pairs each */
    ck_assert_int_eq(same_answers(b, pts3, 6), 30);
    ap_test_patch_equals_fresh(a, NULL);
    ap_test_patch_equals_fresh(b, NULL);
    ap_map_free(b);
    ap_map_free(a);
    ap_map_free(m);
    free(t3);
}
END_TEST

static bool band(int x, int y)
{
    return abs(x - y) <= 1;
}

static bool open_all(int x, int y)
{
    (void)x;
    (void)y;
    return true;
}

/* A diagonal corridor through the whole map (cells with |x - y| <= 1): closing either end or its middle
 * changes diagonal distances all along it (walks the length of the map), opening them restores the table;
 * then one wall in an open map (forced neighbours appear next to it: straight jumps of its rows and
 * columns, and every diagonal that meets them, change). */
START_TEST(patch_jps_diagonal_chain)
{
    char *t = map_text(100, 100, band, NULL, 0);
    ap_map *m = ap_test_map_from_string(t);
    free(t);
    const size_t c0 = (size_t)ap_map_index(m, 0, 0) * 8;
    ck_assert_int_eq(jt(m)->dist[c0 + 3], -99); /* SE from (0, 0): 99 legal steps, no jump point */
    static const ap_cell_edit steps[][1] = {{{99, 99, '@'}}, {{0, 0, '@'}}, {{50, 50, '@'}}, {{99, 99, '.'}},
                                            {{0, 0, 'G'}}, {{50, 50, '.'}}, {{50, 51, '@'}}, {{50, 51, '.'}}};
    static const int pts[][2] = {{0, 0}, {1, 0}, {98, 99}, {99, 99}, {40, 40}, {60, 61}};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        ap_map *next = jps_patched(m, steps[i], 1);
        ap_test_patch_equals_fresh(next, NULL);
        same_answers(next, pts, 6);
        ap_map_free(m);
        m = next;
    }
    ck_assert(memcmp(jt(m)->dist + c0, (int16_t[]){0, 0, -1, -99, -1, 0, 0, 0}, 16) == 0); /* as at first */
    ap_map_free(m);

    t = map_text(120, 90, open_all, NULL, 0);
    m = ap_test_map_from_string(t);
    free(t);
    static const ap_cell_edit walls[][1] = {{{60, 45, '@'}}, {{10, 80, '@'}}, {{60, 45, '.'}}, {{10, 80, 'T'}}};
    static const int opts[][2] = {{0, 0}, {119, 89}, {61, 44}, {59, 46}, {11, 79}};
    for (size_t i = 0; i < sizeof walls / sizeof walls[0]; i++) {
        ap_map *next = NULL;
        ap_diag d;
        ck_assert_int_eq(ap_map_patch(m, walls[i], 1, &next, &d), AP_OK);
        ap_test_patch_equals_fresh(next, NULL);
        same_answers(next, opts, 5);
        ap_map_free(m);
        m = next;
    }
    /* walls spread over the open map at once: most jump distances change, more work than a build (the
     * update gives it up for one) */
    ap_cell_edit spread[20];
    for (int i = 0; i < 10; i++) {
        spread[i] = (ap_cell_edit){5 + 11 * i, 4 + 8 * i, '@'};
        spread[10 + i] = (ap_cell_edit){8 + 11 * i, 84 - 8 * i, '@'};
    }
    ap_map *next = jps_patched(m, spread, 20);
    ap_test_patch_equals_fresh(next, NULL);
    same_answers(next, opts, 5);
    ap_map_free(m);
    ap_map_free(next);
}
END_TEST

/* Edits at the map border (corners and edges next to the blocked padding), alone and together. */
START_TEST(patch_jps_border_edits)
{
    ap_test_rng g = {4242};
    for (int round = 0; round < (ap_test_quick() ? 1 : 2); round++) {
        ap_map *m = random_map(&g, 60, 50, 25);
        static const int border[][2] = {{0, 0}, {59, 0}, {0, 49}, {59, 49}, {30, 0}, {0, 25}, {59, 20}, {17, 49}};
        for (int i = 0; i < 12; i++) {
            ap_cell_edit e[4];
            size_t n = i % 3 == 2 ? 4 : 1;
            for (size_t j = 0; j < n; j++) {
                const int *b = border[ap_test_rand(&g) % 8];
                e[j] = (ap_cell_edit){b[0], b[1], ".@G"[ap_test_rand(&g) % 3]};
            }
            ap_map *next = NULL;
            ap_diag d;
            ck_assert_int_eq(ap_map_patch(m, e, n, &next, &d), AP_OK);
            ck_assert(slot_incremental(next, AP_JPS_TABLE_NAME));
            check_jps_fresh(next);
            ap_map_free(m);
            m = next;
        }
        same_answers(m, border, 8);
        ap_map_free(m);
    }
}
END_TEST

/* Many short chains of wall and door edits (single cells, clusters, spread) on random maps of every
 * density, each version's JPS tables against a fresh build, every distance and bit. */
START_TEST(patch_jps_random_maps)
{
    ap_test_rng g = {31337};
    const int maps = ap_test_quick() ? 4 : 16;
    for (int i = 0; i < maps; i++) {
        const int w = 40 + (int)(ap_test_rand(&g) % 40), h = 36 + (int)(ap_test_rand(&g) % 20);
        const unsigned pb = 5 + ap_test_rand(&g) % 45; /* percent blocked */
        ap_map *m = random_map(&g, w, h, pb);
        for (int r = 0; r < 8; r++) {
            ap_cell_edit e[8];
            size_t n = 1 + ap_test_rand(&g) % 8;
            random_edits(&g, m, e, n, ".@@G");
            ap_map *next = NULL;
            ap_diag d;
            ck_assert_int_eq(ap_map_patch(m, e, n, &next, &d), AP_OK);
            ck_assert(slot_incremental(next, AP_JPS_TABLE_NAME) && slot_incremental(next, AP_JPS_BITS_NAME));
            check_jps_fresh(next);
            ap_map_free(m);
            m = next;
        }
        ap_map_free(m);
    }
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
    tcase_add_test(tc, patch_hier_detour_budget);
    suite_add_tcase(s, tc);
    TCase *jps = tcase_create("jps"); /* the JPS tables' updates: CK_RUN_CASE=jps */
    tcase_set_timeout(jps, 600);
    tcase_add_test(jps, patch_jps_corridor_wall_and_door);
    tcase_add_test(jps, patch_jps_diagonal_chain);
    tcase_add_test(jps, patch_jps_border_edits);
    tcase_add_test(jps, patch_jps_random_maps);
    suite_add_tcase(s, jps);
    return s;
}
