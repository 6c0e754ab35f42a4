/* corridor.c — the passable cells around a polyline, densely numbered (corridor.h). */
#include "corridor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/mem.h"
#include "../base/status.h"

void ap_corridor_free(ap_corridor *c)
{
    AP_FREE_ALL(c->bits, c->rank, c->cells);
    memset(c, 0, sizeof *c);
}

static int32_t clamp32(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Mark the (2 half + 1)^2 block around window cell (x, y), clipped to the window. */
static void mark_block(ap_corridor *c, int32_t x, int32_t y, int half)
{
    int32_t xa = clamp32(x - half, 0, c->w - 1), xb = clamp32(x + half, 0, c->w - 1);
    int32_t ya = clamp32(y - half, 0, c->h - 1), yb = clamp32(y + half, 0, c->h - 1);
    for (int32_t r = ya; r <= yb; r++) {
        uint64_t *row = c->bits + (size_t)r * c->words;
        for (int32_t a = xa; a <= xb;) {
            int32_t wi = a >> 6, lo = a & 63, hi = (xb >> 6) == wi ? (xb & 63) : 63;
            uint64_t m = (hi == 63 ? ~0ull : ((1ull << (hi + 1)) - 1ull)) & ~((1ull << lo) - 1ull);
            row[wi] |= m;
            a = (wi + 1) << 6;
        }
    }
}

int ap_corridor_build(ap_corridor *c, const ap_map *m, const double (*pts)[2], size_t n, int half)
{
    memset(c, 0, sizeof *c);
    if (n == 0 || half < 0)
        return AP_E_INVALID_REQUEST;
    /* The window: the cells the polyline touches, grown by half, clipped to the map. */
    double xmin = INFINITY, ymin = INFINITY, xmax = -INFINITY, ymax = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        xmin = fmin(xmin, pts[i][0]);
        xmax = fmax(xmax, pts[i][0]);
        ymin = fmin(ymin, pts[i][1]);
        ymax = fmax(ymax, pts[i][1]);
    }
    if (!(xmax >= 0.0 && ymax >= 0.0 && xmin < m->width && ymin < m->height))
        return AP_E_INVALID_REQUEST;
    int32_t x0 = clamp32((int32_t)floor(fmax(xmin, 0.0)) - half, 0, m->width - 1);
    int32_t y0 = clamp32((int32_t)floor(fmax(ymin, 0.0)) - half, 0, m->height - 1);
    int32_t x1 = clamp32((int32_t)floor(fmin(xmax, m->width - 1)) + half, 0, m->width - 1);
    int32_t y1 = clamp32((int32_t)floor(fmin(ymax, m->height - 1)) + half, 0, m->height - 1);
    c->x0 = x0;
    c->y0 = y0;
    c->w = x1 - x0 + 1;
    c->h = y1 - y0 + 1;
    c->words = (uint32_t)((c->w + 63) / 64);
    size_t nw = (size_t)c->words * (size_t)c->h;
    c->bits = calloc(nw, sizeof *c->bits);
    c->rank = malloc(nw * sizeof *c->rank);
    if (c->bits == NULL || c->rank == NULL) {
        ap_corridor_free(c);
        return AP_E_NOMEM;
    }
    /* Blocks around every cell the polyline crosses (sampled every 1/4 tile; repeated cells skipped). */
    int32_t lx = INT32_MIN, ly = INT32_MIN;
    for (size_t i = 0; i < n; i++) {
        double ax = pts[i][0], ay = pts[i][1];
        double bx = i + 1 < n ? pts[i + 1][0] : ax, by = i + 1 < n ? pts[i + 1][1] : ay;
        int steps = (int)ceil(4.0 * fmax(fabs(bx - ax), fabs(by - ay)));
        for (int s = 0; s <= steps; s++) {
            double t = steps > 0 ? (double)s / steps : 0.0;
            int32_t cx = (int32_t)floor(ax + t * (bx - ax)) - x0, cy = (int32_t)floor(ay + t * (by - ay)) - y0;
            if (cx == lx && cy == ly)
                continue;
            lx = cx;
            ly = cy;
            mark_block(c, cx, cy, half);
        }
    }
    /* Keep the passable members; rank the words. */
    uint32_t count = 0;
    for (int32_t r = 0; r < c->h; r++) {
        const uint8_t *pass = m->pass + ap_map_index(m, x0, y0 + r);
        uint64_t *row = c->bits + (size_t)r * c->words;
        for (uint32_t wi = 0; wi < c->words; wi++) {
            uint64_t b = row[wi];
            for (uint64_t t = b; t != 0; t &= t - 1) {
                int bit = __builtin_ctzll(t);
                if (pass[wi * 64 + (uint32_t)bit] == 0)
                    b &= ~(1ull << bit);
            }
            row[wi] = b;
            c->rank[(size_t)r * c->words + wi] = count;
            count += ap_popcount64(b);
        }
    }
    c->n = count;
    c->cells = malloc((count ? count : 1) * sizeof *c->cells);
    if (c->cells == NULL) {
        ap_corridor_free(c);
        return AP_E_NOMEM;
    }
    if (count == 0) {
        ap_corridor_free(c);
        return AP_E_INVALID_REQUEST;
    }
    uint32_t k = 0;
    for (int32_t r = 0; r < c->h; r++) {
        const uint64_t *row = c->bits + (size_t)r * c->words;
        for (uint32_t wi = 0; wi < c->words; wi++)
            for (uint64_t t = row[wi]; t != 0; t &= t - 1)
                c->cells[k++] = (uint32_t)r * (uint32_t)c->w + wi * 64 + (uint32_t)__builtin_ctzll(t);
    }
    return AP_OK;
}
