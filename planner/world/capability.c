/* capability.c — terrain capabilities (capability.h): names, masks and the per-capability region table. */
#include "capability.h"

#include <stdlib.h>
#include <string.h>

#include "../base/status.h"
#include "region.h"

static const char *const terrain_names[4] = {"ground", "swamp", "water", "trees"}; /* bit order */
static const char *const cap_names[AP_CAPABILITY_COUNT] = AP_CAPABILITY_NAMES("");
static const char *const region_names[AP_CAPABILITY_COUNT] = AP_CAPABILITY_NAMES("region:");

ap_capability ap_capability_of_terrain(unsigned char c)
{
    switch (c) {
    case '.':
    case 'G':
        return AP_CAP_GROUND;
    case 'S':
        return AP_CAP_SWAMP;
    case 'W':
        return AP_CAP_WATER;
    case 'T':
        return AP_CAP_TREES;
    default:
        return 0;
    }
}

ap_capability ap_capability_from_name(const char *name, size_t n)
{
    for (unsigned b = 0; b < 4; b++)
        if (strlen(terrain_names[b]) == n && memcmp(terrain_names[b], name, n) == 0)
            return (ap_capability)(1u << b);
    return 0;
}

int ap_capability_parse(const char *text, size_t n, ap_capability *out)
{
    unsigned set = 0;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && text[i] != '+')
            continue;
        ap_capability bit = ap_capability_from_name(text + start, i - start);
        if (bit == 0 || (set & bit))
            return -1;
        set |= bit;
        start = i + 1;
    }
    *out = (ap_capability)set;
    return 0;
}

const char *ap_capability_name(unsigned c)
{
    return c >= 1 && c <= AP_CAP_ALL ? cap_names[c] : NULL;
}

int64_t ap_capability_mask(const ap_map *m, ap_capability c, uint8_t *mask)
{
    memset(mask, 0, ap_map_node_count(m));
    int64_t set = 0;
    for (int32_t y = 0; y < m->height; y++) {
        const uint8_t *trow = m->terrain + (size_t)y * (size_t)m->width;
        uint8_t *row = mask + ap_map_index(m, 0, y);
        for (int32_t x = 0; x < m->width; x++) {
            row[x] = (ap_capability_of_terrain(trow[x]) & c) != 0;
            set += row[x];
        }
    }
    return set;
}

/* A map cell's terrain is in c iff it is passable on m: then c's mask is m->pass. */
bool ap_capability_is_map_pass(const ap_map *m, ap_capability c)
{
    for (int32_t y = 0; y < m->height; y++) {
        const uint8_t *trow = m->terrain + (size_t)y * (size_t)m->width;
        const uint8_t *prow = m->pass + ap_map_index(m, 0, y);
        for (int32_t x = 0; x < m->width; x++)
            if (((ap_capability_of_terrain(trow[x]) & c) != 0) != (prow[x] != 0))
                return false;
    }
    return true;
}

static int build_capability_regions(const ap_map *m, ap_map_table *out)
{
    const ap_capability c = out->capability;
    out->name = region_names[c];
    if (ap_capability_is_map_pass(m, c))
        return AP_OK; /* no slot: the "region" table is c's (ap_capability_regions) */
    return ap_region_build(m, c, out);
}

/* The same decision as the build (is_map_pass stops at the first cell that differs, so it is short on a
 * map that needs the slot), then region.c's update on c's mask. */
static int update_capability_regions(const ap_map *m, const ap_map *prev, const ap_map_table *old,
                                     const ap_cell_pos *changed, size_t n, ap_map_table *out)
{
    const ap_capability c = out->capability;
    out->name = region_names[c];
    if (ap_capability_is_map_pass(m, c))
        return AP_OK;
    return ap_region_update(m, old, changed, n, c, out);
}

const ap_table_kind ap_capability_region_table_kind = {"region:<capability>", "regions", AP_TABLE_PER_CAPABILITY,
                                                       build_capability_regions, free, update_capability_regions, NULL,
                                                       NULL, NULL};

const uint32_t *ap_capability_regions(const ap_map *m, ap_capability c, uint32_t *count)
{
    *count = 0;
    if (c == 0 || c > AP_CAP_ALL || !(m->capabilities & (1u << c)))
        return NULL;
    const ap_map_table *t = ap_map_find_table(m, region_names[c]);
    if (t == NULL) {
        /* The kind is required, so a listed capability without a slot is one whose mask is m->pass. */
        *count = m->region_count;
        return m->region;
    }
    *count = (uint32_t)t->count;
    return t->data;
}
