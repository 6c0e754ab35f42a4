/* test_capability.c — terrain capabilities (capability.h): names and parsing, masks, which capabilities get
 * tables, and per-capability regions against an independent 8-connected flood fill (no corner cutting) on
 * random maps with random terrains and on the Warcraft III map with water. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../planner/base/status.h"
#include "../../../planner/world/capability.h"
#include "../../../planner/world/region.h"
#include "../../util.h"
#include "../suites.h"

bool ap_test_in_capability(unsigned char c, unsigned cap)
{
    static const char *const letters[4] = {".G", "S", "W", "T"}; /* ground, swamp, water, trees */
    for (int b = 0; b < 4; b++)
        if ((cap & (1u << b)) && c != '\0' && strchr(letters[b], c) != NULL)
            return true;
    return false;
}

ap_map *ap_test_terrain_map(ap_test_rng *g, int max_side, const uint8_t *caps, size_t n_caps)
{
    static const char letters[] = "...GSSWWTT@O";
    int w = 1 + (int)(ap_test_rand(g) % (unsigned)max_side), h = 1 + (int)(ap_test_rand(g) % (unsigned)max_side);
    size_t cap = 64 + (size_t)(w + 1) * (size_t)h;
    char *text = malloc(cap);
    int at = snprintf(text, cap, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++)
            text[at++] = letters[ap_test_rand(g) % (sizeof letters - 1)];
        text[at++] = '\n';
    }
    text[at] = '\0';
    ap_map_opts o = {.capabilities = caps, .n_capabilities = n_caps};
    ap_map *m = NULL;
    ap_diag d;
    int st = ap_map_parse("rand", "rand", text, (size_t)at, &o, &m, &d);
    ck_assert_msg(st == AP_OK, "%s", d.msg);
    free(text);
    return m;
}

const uint8_t ap_test_all_capabilities[15] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/* Independent component labels: depth-first over the 8 moves without corner cutting (a diagonal needs both
 * orthogonal cells), ids in row-major order of first cells; lab has width * height entries. */
static uint32_t flood(const ap_map *m, unsigned cap, uint32_t *lab)
{
    const int W = m->width, H = m->height;
#define IN(x, y) ((x) >= 0 && (y) >= 0 && (x) < W && (y) < H && ap_test_in_capability(m->terrain[(y) * W + (x)], cap))
    memset(lab, 0, (size_t)W * (size_t)H * sizeof *lab);
    int *stack = malloc((size_t)W * (size_t)H * sizeof *stack);
    uint32_t id = 0;
    for (int s = 0; s < W * H; s++) {
        if (lab[s] != 0 || !IN(s % W, s / W))
            continue;
        lab[s] = ++id;
        int top = 0;
        stack[top++] = s;
        while (top > 0) {
            int u = stack[--top], x = u % W, y = u / W;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx, ny = y + dy;
                    if ((dx || dy) && IN(nx, ny) && IN(nx, y) && IN(x, ny) && lab[ny * W + nx] == 0) {
                        lab[ny * W + nx] = id;
                        stack[top++] = ny * W + nx;
                    }
                }
        }
    }
    free(stack);
#undef IN
    return id;
}

/* The map's regions of capability c equal the flood fill's, cell for cell. */
static void check_regions(const ap_map *m, ap_capability c)
{
    uint32_t n;
    const uint32_t *r = ap_capability_regions(m, c, &n);
    ck_assert_ptr_nonnull(r);
    uint32_t *lab = malloc((size_t)m->width * (size_t)m->height * sizeof *lab);
    ck_assert_uint_eq(n, flood(m, c, lab));
    for (int32_t y = 0; y < m->height; y++)
        for (int32_t x = 0; x < m->width; x++)
            ck_assert_uint_eq(r[ap_map_index(m, x, y)], lab[y * m->width + x]);
    for (int32_t x = -1; x <= m->width; x++)
        ck_assert_uint_eq(r[ap_map_index(m, x, -1)] | r[ap_map_index(m, x, m->height)], 0);
    free(lab);
}

START_TEST(names)
{
    ck_assert_str_eq(ap_capability_name(AP_CAP_DEFAULT), "ground+swamp");
    ck_assert_str_eq(ap_capability_name(AP_CAP_WATER), "water");
    ck_assert_str_eq(ap_capability_name(AP_CAP_ALL), "ground+swamp+water+trees");
    ck_assert_str_eq(ap_capability_name(AP_CAP_GROUND | AP_CAP_TREES), "ground+trees");
    ck_assert_ptr_null(ap_capability_name(0));
    ck_assert_ptr_null(ap_capability_name(16));
    /* Every capability's name reads back as itself, and lists exactly its terrains. */
    for (unsigned c = 1; c <= AP_CAP_ALL; c++) {
        const char *s = ap_capability_name(c);
        ap_capability back = 0;
        ck_assert_int_eq(ap_capability_parse(s, strlen(s), &back), 0);
        ck_assert_uint_eq(back, c);
        ck_assert_int_eq(strstr(s, "water") != NULL, (c & AP_CAP_WATER) != 0);
        ck_assert_int_eq(strstr(s, "trees") != NULL, (c & AP_CAP_TREES) != 0);
    }
    ap_capability c = 99;
    ck_assert_int_eq(ap_capability_parse("water+ground", 12, &c), 0);
    ck_assert_uint_eq(c, AP_CAP_WATER | AP_CAP_GROUND);
    ck_assert_int_eq(ap_capability_parse("trees+ignored", 5, &c), 0); /* only n bytes are read */
    ck_assert_uint_eq(c, AP_CAP_TREES);
    const char *bad[] = {"", "+", "ground+", "+ground", "ground++swamp", "ground+ground", "Ground", "rock", "swamp "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        c = 99;
        ck_assert_int_eq(ap_capability_parse(bad[i], strlen(bad[i]), &c), -1);
        ck_assert_uint_eq(c, 99);
    }
    ck_assert_uint_eq(ap_capability_from_name("swamp", 5), AP_CAP_SWAMP);
    ck_assert_uint_eq(ap_capability_from_name("swam", 4), 0);
    const char terr[] = ".GSWT@O";
    const ap_capability bit[] = {AP_CAP_GROUND, AP_CAP_GROUND, AP_CAP_SWAMP, AP_CAP_WATER, AP_CAP_TREES, 0, 0};
    for (int i = 0; i < 7; i++)
        ck_assert_uint_eq(ap_capability_of_terrain((unsigned char)terr[i]), bit[i]);
    ck_assert_uint_eq(ap_capability_of_terrain('x'), 0);
}
END_TEST

START_TEST(masks_and_slots)
{
    /* Columns: ground, G, swamp, water, trees, @, O. */
    const char *text = "type octile\nheight 2\nwidth 7\nmap\n.GSWT@O\nWWWW...\n";
    const uint8_t caps[] = {AP_CAP_WATER, AP_CAP_DEFAULT, AP_CAP_WATER, AP_CAP_ALL};
    ap_map_opts o = {.capabilities = caps, .n_capabilities = 4};
    ap_map *m;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("t", "t", text, strlen(text), &o, &m, &d), AP_OK);
    ck_assert_uint_eq(m->capabilities, (1u << AP_CAP_WATER) | (1u << AP_CAP_DEFAULT) | (1u << AP_CAP_ALL));
    uint8_t *mask = malloc(ap_map_node_count(m));
    ck_assert_int_eq(ap_capability_mask(m, AP_CAP_WATER, mask), 5);
    const uint8_t water_row0[7] = {0, 0, 0, 1, 0, 0, 0};
    for (int x = 0; x < 7; x++) {
        ck_assert_uint_eq(mask[ap_map_index(m, x, 0)], water_row0[x]);
        ck_assert_uint_eq(mask[ap_map_index(m, x, 1)], x < 4);
    }
    ck_assert_int_eq(ap_capability_mask(m, AP_CAP_ALL, mask), 5 + 7);
    ck_assert_uint_eq(mask[ap_map_index(m, 5, 0)], 0); /* '@' */
    ck_assert_uint_eq(mask[ap_map_index(m, 6, 0)], 0); /* 'O' */
    ck_assert_uint_eq(mask[ap_map_index(m, 7, 0)], 0); /* border */
    free(mask);
    ck_assert(ap_capability_is_map_pass(m, AP_CAP_DEFAULT));
    ck_assert(!ap_capability_is_map_pass(m, AP_CAP_WATER));
    /* Slots in increasing capability order; ground+swamp's regions are the map's own (and the map is its
     * view); water and all terrains get views, after the any-angle graph (table.h). */
    ck_assert_int_eq(m->n_tables, 3 + 2 + 3 + 1 + 1 + 2 + 1); /* ... and the HAA* graph last (hier.h) */
    ck_assert_str_eq(m->tables[8].name, "jps_sized"); /* one slot for every capability's discs */
    ck_assert_str_eq(m->tables[9].name, "any_angle");
    ck_assert_str_eq(m->tables[10].name, "view:water");
    ck_assert_str_eq(m->tables[11].name, "view:ground+swamp+water+trees");
    ck_assert_str_eq(m->tables[3].name, "region:water");
    ck_assert_uint_eq(m->tables[3].count, 1);
    ck_assert_str_eq(m->tables[4].name, "region:ground+swamp+water+trees");
    ck_assert_uint_eq(m->tables[4].count, 1);
    ck_assert_uint_eq(m->tables[4].bytes, 9 * 4 * sizeof(uint32_t));
    ck_assert_str_eq(m->tables[5].name, "clearance:ground+swamp");
    ck_assert_str_eq(m->tables[6].name, "clearance:water");
    ck_assert_str_eq(m->tables[7].name, "clearance:ground+swamp+water+trees");
    ck_assert_ptr_null(ap_map_find_table(m, "region:ground+swamp"));
    uint32_t n;
    ck_assert_ptr_eq(ap_capability_regions(m, AP_CAP_DEFAULT, &n), m->region);
    ck_assert_uint_eq(n, 2); /* ".GS" and "..." */
    ck_assert_ptr_eq(ap_capability_regions(m, AP_CAP_WATER, &n), m->tables[3].data);
    ck_assert_uint_eq(n, 1);
    ck_assert_ptr_null(ap_capability_regions(m, AP_CAP_TREES, &n)); /* not loaded with it */
    ck_assert_uint_eq(n, 0);
    ck_assert_ptr_null(ap_capability_regions(m, 0, &n));
    ap_map_free(m);

    /* Giving water a cost makes it passable: then {ground, swamp} needs its own region table. */
    ap_terrain_costs wc = {.map_id = "*", .cost = {0, 0, 0, 0, 3.0}};
    ap_map_opts ow = {.terrain = &wc, .n_terrain = 1};
    ck_assert_int_eq(ap_map_parse("t", "t", text, strlen(text), &ow, &m, &d), AP_OK);
    /* the default, and the map's own capability (ground+swamp+water) always gets its tables too */
    ck_assert_uint_eq(m->capabilities, (1u << AP_CAP_DEFAULT) | (1u << (AP_CAP_DEFAULT | AP_CAP_WATER)));
    ck_assert_uint_eq(m->capability, AP_CAP_DEFAULT | AP_CAP_WATER);
    ck_assert_uint_eq(m->region_count, 1);
    ck_assert_str_eq(m->tables[1].name, "region:ground+swamp");
    ck_assert_ptr_eq(ap_capability_regions(m, AP_CAP_DEFAULT, &n), m->tables[1].data);
    ck_assert_uint_eq(n, 2);
    check_regions(m, AP_CAP_DEFAULT);
    ap_map_free(m);

    /* A capability outside 1 .. 15 is a load error. */
    const uint8_t zero = 0, sixteen = 16;
    ap_map_opts oz = {.capabilities = &zero, .n_capabilities = 1};
    ck_assert_int_eq(ap_map_parse("t", "t", text, strlen(text), &oz, &m, &d), AP_E_MAP_FORMAT);
    ck_assert_ptr_nonnull(strstr(d.msg, "capability 0 is not a terrain set"));
    ap_map_opts o16 = {.capabilities = &sixteen, .n_capabilities = 1};
    ck_assert_int_eq(ap_map_parse("t", "t", text, strlen(text), &o16, &m, &d), AP_E_MAP_FORMAT);
    ck_assert_ptr_null(m);
}
END_TEST

/* 240 random maps of up to 12 x 12 cells with random terrains: every capability's regions equal the flood
 * fill's. */
START_TEST(random_regions)
{
    ap_test_rng g = {20261124};
    for (int t = 0; t < 240; t++) {
        ap_map *m = ap_test_terrain_map(&g, 12, ap_test_all_capabilities, 15);
        ck_assert_uint_eq(m->capabilities, 0xfffe);
        for (unsigned c = 1; c <= AP_CAP_ALL; c++)
            check_regions(m, (ap_capability)c);
        ap_map_free(m);
    }
}
END_TEST

/* battleground (Warcraft III) has water: a water-only unit's regions are its lakes. */
START_TEST(warcraft_water_regions)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("capability: water regions on battleground");
        return;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/battleground.map", dir);
    const uint8_t caps[] = {AP_CAP_DEFAULT, AP_CAP_WATER, AP_CAP_GROUND | AP_CAP_WATER};
    ap_map_opts o = {.capabilities = caps, .n_capabilities = 3};
    ap_map *m;
    ap_diag d;
    ck_assert_int_eq(ap_map_load(path, &o, &m, &d), AP_OK);
    uint32_t n;
    const uint32_t *r = ap_capability_regions(m, AP_CAP_WATER, &n);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_gt(n, 0);
    int64_t water = 0;
    for (int32_t y = 0; y < m->height; y++)
        for (int32_t x = 0; x < m->width; x++) {
            bool w = m->terrain[y * m->width + x] == 'W';
            water += w;
            ck_assert_int_eq(r[ap_map_index(m, x, y)] != 0, w);
        }
    ck_assert_int_eq(water, 13971);
    for (unsigned i = 0; i < 3; i++)
        check_regions(m, caps[i]);
    uint32_t n_gw, n_g;
    ap_capability_regions(m, AP_CAP_GROUND | AP_CAP_WATER, &n_gw);
    ap_capability_regions(m, AP_CAP_DEFAULT, &n_g);
    printf("capability: battleground: %u water regions over %lld water cells, %u ground+swamp, %u ground+water\n",
           n, (long long)water, n_g, n_gw);
    ap_map_free(m);
}
END_TEST

Suite *capability_suite(void)
{
    Suite *s = suite_create("capability");
    TCase *tc = tcase_create("capability");
    tcase_add_test(tc, names);
    tcase_add_test(tc, masks_and_slots);
    tcase_add_test(tc, random_regions);
    tcase_add_test(tc, warcraft_water_regions);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);
    return s;
}
