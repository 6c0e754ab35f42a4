/* small_map.h — a small Moving AI map made in memory for the fuzz targets that plan or patch on one. */
#ifndef AP_TEST_FUZZ_SMALL_MAP_H
#define AP_TEST_FUZZ_SMALL_MAP_H

#include <stdio.h>
#include <stdlib.h>

#include "planner/world/map.h"

/* The w x h map (w, h <= 64) whose cell (x, y) has the terrain letter cell(x, y), parsed with every table as
 * a loaded map has them; aborts when it does not parse. Caller owns it (the targets keep it for the
 * process). */
static inline ap_map *ap_fuzz_small_map(int w, int h, char (*cell)(int x, int y))
{
    char text[64 + 64 * 65];
    if (w < 1 || h < 1 || w > 64 || h > 64)
        abort();
    int k = snprintf(text, sizeof text, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++)
            text[k++] = cell(x, y);
        text[k++] = '\n';
    }
    ap_map *m;
    ap_diag d;
    if (ap_map_parse("m", "m", text, (size_t)k, NULL, &m, &d) != AP_OK)
        abort();
    return m;
}

#endif
