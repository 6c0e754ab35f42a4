/* grid_world.c — the grid map's world operations (grid_world.h): collide.h's exact tests over the map's
 * passability mask (or its cheap-terrain mask), the region table, the table slots. */
#include "grid_world.h"

#include "collide.h"
#include "square.h"

static bool grid_point_clear(const void *ctx, double x, double y, double r)
{
    /* A zero-length sweep is the disc itself. */
    return ap_line_clear(ctx, x, y, x, y, r);
}

static bool grid_line_clear(const void *ctx, double ax, double ay, double bx, double by, double r)
{
    return ap_line_clear(ctx, ax, ay, bx, by, r);
}

static bool grid_segment_clear(const void *ctx, const ap_segment *s, double r)
{
    return ap_segment_clear(ctx, s, r);
}

static bool cheap_point_clear(const void *ctx, double x, double y, double r)
{
    const ap_map *m = ctx;
    return ap_line_clear_mask(m, m->cheap, x, y, x, y, r);
}

static bool cheap_line_clear(const void *ctx, double ax, double ay, double bx, double by, double r)
{
    const ap_map *m = ctx;
    return ap_line_clear_mask(m, m->cheap, ax, ay, bx, by, r);
}

static bool cheap_segment_clear(const void *ctx, const ap_segment *s, double r)
{
    const ap_map *m = ctx;
    return ap_segment_clear_mask(m, m->cheap, s, r);
}

static uint32_t grid_region(const void *ctx, double x, double y)
{
    const ap_map *m = ctx;
    /* Written so that NaN fails every comparison and lands in the off-map answer. */
    if (!(x >= 0.0 && y >= 0.0 && x < (double)m->width && y < (double)m->height))
        return 0;
    return m->region[ap_map_index(m, (int32_t)x, (int32_t)y)];
}

static const void *grid_table(const void *ctx, const char *name)
{
    const ap_map_table *t = ap_map_find_table(ctx, name);
    return t != NULL ? t->data : NULL;
}

static bool square_point_clear(const void *ctx, double x, double y, double h)
{
    return ap_square_line_clear(ctx, x, y, x, y, h);
}

static bool square_line_clear(const void *ctx, double ax, double ay, double bx, double by, double h)
{
    return ap_square_line_clear(ctx, ax, ay, bx, by, h);
}

static bool square_segment_clear(const void *ctx, const ap_segment *s, double h)
{
    return s->type == AP_SEG_LINE && ap_square_line_clear(ctx, s->x0, s->y0, s->x1, s->y1, h);
}

static const ap_world_ops grid_ops = {grid_point_clear, grid_line_clear, grid_segment_clear, grid_region,
                                      grid_table};
static const ap_world_ops cheap_ops = {cheap_point_clear, cheap_line_clear, cheap_segment_clear, grid_region,
                                       grid_table};

static const ap_world_ops square_ops = {square_point_clear, square_line_clear, square_segment_clear, grid_region,
                                        grid_table};

static void fill(const ap_map *m, const ap_world_ops *ops, ap_world *out)
{
    out->ops = ops;
    out->ctx = m;
    out->width = (double)m->width;
    out->height = (double)m->height;
}

void ap_map_world(const ap_map *m, ap_world *out)
{
    fill(m, &grid_ops, out);
}

void ap_map_world_cheap(const ap_map *m, ap_world *out)
{
    fill(m, m->cheap != NULL ? &cheap_ops : &grid_ops, out);
}

void ap_square_world(const ap_map *m, ap_world *out)
{
    fill(m, &square_ops, out);
}

bool ap_map_world_clearance(const ap_world *w, const ap_map **m, const ap_clearance_table **t)
{
    *m = NULL;
    *t = NULL;
    if (w->ops != &grid_ops)
        return false;
    const ap_map *map = w->ctx;
    const ap_clearance_table *tab = ap_clearance_of(map, map->capability);
    if (tab == NULL)
        return false;
    *m = map;
    *t = tab;
    return true;
}
