/* region.c — connected components of passable cells, built at load (region.h). */
#include "region.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../base/status.h"
#include "capability.h"

/* Breadth-first flood fill with an explicit queue (a recursive fill would overflow the stack on open
 * 4096x4096 maps). 4-connectivity is enough: with no corner cutting every legal diagonal step has both
 * orthogonal neighbours free, so 8-connected components coincide. */
int ap_region_label(const ap_map *m, const uint8_t *mask, ap_map_table *out)
{
    uint32_t count = ap_map_node_count(m);
    uint32_t free_cells = 0;
    for (uint32_t s = 0; s < count; s++)
        free_cells += mask[s] != 0;
    uint32_t *region = calloc(count, sizeof *region);
    uint32_t *queue = malloc((size_t)(free_cells > 0 ? free_cells : 1) * sizeof *queue);
    if (region == NULL || queue == NULL) {
        free(region);
        free(queue);
        return AP_E_NOMEM;
    }
    const uint32_t stride = (uint32_t)m->stride;
    uint32_t id = 0;
    for (uint32_t s = 0; s < count; s++) {
        if (!mask[s] || region[s] != 0)
            continue;
        id++;
        size_t head = 0, tail = 0;
        region[s] = id;
        queue[tail++] = s;
        while (head < tail) {
            uint32_t u = queue[head++];
            /* The padded border is blocked, so u +- 1 and u +- stride never leave the array. */
            const uint32_t nb[4] = {u - 1, u + 1, u - stride, u + stride};
            for (int k = 0; k < 4; k++) {
                uint32_t v = nb[k];
                if (mask[v] && region[v] == 0) {
                    region[v] = id;
                    queue[tail++] = v;
                }
            }
        }
    }
    free(queue);
    out->data = region;
    out->count = id;
    out->bytes = (size_t)count * sizeof *region;
    return AP_OK;
}

int ap_region_build(const ap_map *m, unsigned cap, ap_map_table *out)
{
    if (cap == 0)
        return ap_region_label(m, m->pass, out);
    uint8_t *mask = malloc(ap_map_node_count(m));
    if (mask == NULL)
        return AP_E_NOMEM;
    ap_capability_mask(m, (ap_capability)cap, mask);
    int st = ap_region_label(m, mask, out);
    free(mask);
    return st;
}

/* ---- Incremental update (region.h ap_region_update) ----
 *
 * The labels are updated one changed cell at a time, in the order given; after each step they label the
 * components of the mask with the cells so far applied, up to the id bookkeeping below:
 *  - ids are kept in a union-find (Tarjan, "Efficiency of a Good But Not Linear Set Union Algorithm", 1975;
 *    path halving): a cell's component is find(its label). Opening a cell unions the classes of its free
 *    4-neighbours (O(1), no cell is relabelled) and gives the cell the root, or a new id when it has none;
 *  - blocking a cell whose component is class r: with no free 4-neighbour the component was the cell
 *    alone and r dies. Otherwise the free cells of the 8-ring around it are walked: 4-neighbours in one run
 *    of free ring cells are connected without it (consecutive ring cells are 4-adjacent), so only one
 *    4-neighbour per run starts a front; with one front the component stays connected (a path through the
 *    cell enters and leaves it by two 4-neighbours, which are joined without it). With two or more fronts,
 *    breadth-first fronts advance in lockstep (one cell each per round), each marking its cells with its
 *    own temporary label; fronts that meet are merged into one set. It stops when one set is left (no
 *    split) or at most one set still has cells to expand: each exhausted set is then a whole component
 *    (nothing outside it touches it) and gets a new id, the rest keeps r. The cost is proportional to the
 *    number of fronts times the smaller pieces (the "smaller half" argument), or to the distance at which
 *    the fronts meet.
 * Cells are taken one at a time, so a batch (a 40-cell wall) is a sequence of such steps, each exact.
 * At the end the live classes are numbered 1 .. count: a class keeps its root's id when that is <= count,
 * the others take the free ids below count in increasing order; one pass over the cells maps every label
 * to its class's number, skipped when no class was joined and no root moved (then the labels are already
 * those). */

#define FRONTS 4                    /* a cell has 4 neighbours, so a split makes at most 4 pieces */
#define MARK(f) (UINT32_MAX - (f))  /* temporary label of front f's cells (ids stay far below) */
#define IS_MARK(l) ((l) > UINT32_MAX - FRONTS)
#define OVER_BUDGET (-1)             /* not an ap_status: the fronts used up the budget */

typedef struct front {
    uint32_t *q;       /* cells it reached, in order; q[head .. tail) still to expand */
    size_t head, tail, cap;
} front;

typedef struct updater {
    uint32_t *label;   /* the new table's labels */
    uint32_t stride;
    uint32_t *parent;  /* union-find over ids 1 .. next_id - 1 */
    uint8_t *dead;     /* a root whose component lost its last cell */
    uint32_t next_id;
    bool joined;       /* some classes were unioned (their cells carry non-root ids) */
    size_t budget;     /* cells the fronts may still expand before the full build is cheaper */
    front f[FRONTS];
} updater;

static uint32_t find(updater *u, uint32_t x)
{
    while (u->parent[x] != x) {
        u->parent[x] = u->parent[u->parent[x]];
        x = u->parent[x];
    }
    return x;
}

static uint32_t new_id(updater *u)
{
    uint32_t id = u->next_id++;
    u->parent[id] = id;
    u->dead[id] = 0;
    return id;
}

static int push(front *f, uint32_t cell)
{
    if (f->tail == f->cap) {
        size_t cap = f->cap != 0 ? 2 * f->cap : 64;
        uint32_t *q = realloc(f->q, cap * sizeof *q);
        if (q == NULL)
            return AP_E_NOMEM;
        f->q = q;
        f->cap = cap;
    }
    f->q[f->tail++] = cell;
    return AP_OK;
}

static void open_cell(updater *u, uint32_t p)
{
    const uint32_t nb[4] = {p - u->stride, p + 1, p + u->stride, p - 1};
    uint32_t root = 0;
    for (int k = 0; k < 4; k++) {
        if (u->label[nb[k]] == 0)
            continue;
        uint32_t r = find(u, u->label[nb[k]]);
        if (root == 0) {
            root = r;
        } else if (r != root) {
            u->parent[r] = root;
            u->joined = true;
        }
    }
    u->label[p] = root != 0 ? root : new_id(u);
}

/* Lockstep fronts from the g start cells of class r's component (block_cell). AP_OK, AP_E_NOMEM, or
 * OVER_BUDGET when the budget ran out (the caller then builds the table from scratch). */
static int split(updater *u, uint32_t r, const uint32_t *start, int g)
{
    int set[FRONTS]; /* front -> the front that stands for its set (tiny union-find) */
    int sets = g;
    for (int f = 0; f < g; f++) {
        set[f] = f;
        u->f[f].head = u->f[f].tail = 0;
        u->label[start[f]] = MARK(f);
        if (push(&u->f[f], start[f]) != AP_OK)
            return AP_E_NOMEM;
    }
    for (;;) {
        for (int f = 0; f < g; f++) {
            front *fr = &u->f[f];
            if (fr->head == fr->tail)
                continue;
            if (u->budget == 0)
                return OVER_BUDGET;
            u->budget--;
            uint32_t c = fr->q[fr->head++];
            const uint32_t nb[4] = {c - u->stride, c + 1, c + u->stride, c - 1};
            for (int k = 0; k < 4; k++) {
                uint32_t l = u->label[nb[k]];
                if (l == 0)
                    continue;
                if (IS_MARK(l)) {
                    int a = set[f], b = set[UINT32_MAX - l];
                    if (a != b) { /* the fronts met: one set */
                        for (int h = 0; h < g; h++)
                            if (set[h] == b)
                                set[h] = a;
                        sets--;
                    }
                    continue;
                }
                u->label[nb[k]] = MARK(f);
                if (push(fr, nb[k]) != AP_OK)
                    return AP_E_NOMEM;
            }
        }
        if (sets == 1)
            break;
        int active = 0, seen = 0; /* sets with cells left to expand; bit per set */
        for (int f = 0; f < g; f++)
            if (u->f[f].head < u->f[f].tail && !(seen & (1 << set[f]))) {
                seen |= 1 << set[f];
                active++;
            }
        if (active <= 1)
            break;
    }
    /* The set still expanding (or, all exhausted, front 0's) keeps r; each other set is a new component. */
    int keep = set[0];
    for (int f = 0; f < g; f++)
        if (u->f[f].head < u->f[f].tail)
            keep = set[f];
    uint32_t id_of[FRONTS] = {0};
    for (int f = 0; f < g; f++) {
        int s = set[f];
        if (id_of[s] == 0)
            id_of[s] = s == keep ? r : new_id(u);
        for (size_t i = 0; i < u->f[f].tail; i++)
            u->label[u->f[f].q[i]] = id_of[s];
    }
    return AP_OK;
}

static int block_cell(updater *u, uint32_t p)
{
    const uint32_t r = find(u, u->label[p]);
    u->label[p] = 0;
    const uint32_t s = u->stride;
    /* The 8-ring clockwise from north; even positions are the 4-neighbours. */
    const uint32_t ring[8] = {p - s, p - s + 1, p + 1, p + s + 1, p + s, p + s - 1, p - 1, p - s - 1};
    bool open[8];
    int blocked_at = -1, neighbours = 0;
    for (int i = 0; i < 8; i++) {
        open[i] = u->label[ring[i]] != 0;
        if (!open[i])
            blocked_at = i;
        else if (i % 2 == 0)
            neighbours++;
    }
    if (neighbours == 0) {
        u->dead[r] = 1;
        return AP_OK;
    }
    if (blocked_at < 0)
        return AP_OK; /* the whole ring is free: one run */
    uint32_t start[FRONTS];
    int g = 0;
    bool in_run = false, run_has_start = false;
    for (int k = 1; k <= 8; k++) { /* from just after a blocked ring cell, so no run wraps around */
        int i = (blocked_at + k) % 8;
        if (!open[i]) {
            in_run = run_has_start = false;
            continue;
        }
        if (!in_run)
            in_run = true;
        if (i % 2 == 0 && !run_has_start) {
            start[g++] = ring[i];
            run_has_start = true;
        }
    }
    return g >= 2 ? split(u, r, start, g) : AP_OK;
}

/* Number the live classes 1 .. count (see above); *count gets it. */
static int renumber(updater *u, uint32_t *count, size_t cells)
{
    uint32_t live = 0;
    for (uint32_t x = 1; x < u->next_id; x++)
        live += u->parent[x] == x && !u->dead[x];
    bool moved = false;
    for (uint32_t x = live + 1; x < u->next_id && !moved; x++)
        moved = u->parent[x] == x && !u->dead[x];
    *count = live;
    if (!moved && !u->joined)
        return AP_OK;
    uint32_t *num = calloc(u->next_id, sizeof *num);
    if (num == NULL)
        return AP_E_NOMEM;
    uint32_t hole = 1;
    for (uint32_t x = 1; x < u->next_id; x++) {
        if (u->parent[x] != x || u->dead[x])
            continue;
        if (x <= live) {
            num[x] = x;
            continue;
        }
        while (u->parent[hole] == hole && !u->dead[hole])
            hole++; /* the next id <= live that no live root has */
        num[x] = hole++;
    }
    for (uint32_t x = 1; x < u->next_id; x++)
        num[x] = num[find(u, x)];
    for (size_t i = 0; i < cells; i++)
        u->label[i] = num[u->label[i]];
    free(num);
    return AP_OK;
}

int ap_region_update(const ap_map *m, const ap_map_table *old, const ap_cell_pos *changed, size_t n, unsigned cap,
                     ap_map_table *out)
{
    const size_t cells = ap_map_node_count(m);
    if (n > cells / AP_REGION_UPDATE_MAX_CHANGED) {
        out->incremental = false;
        return ap_region_build(m, cap, out);
    }
    updater u = {.stride = (uint32_t)m->stride, .next_id = (uint32_t)old->count + 1,
                 .budget = cells / AP_REGION_UPDATE_MAX_VISITED};
    size_t ids = (size_t)old->count + 3 * n + 2; /* an opened cell adds at most 1 id, a blocked one 3 */
    u.label = malloc(cells * sizeof *u.label);
    u.parent = malloc(ids * sizeof *u.parent);
    u.dead = calloc(ids, 1);
    int st = u.label != NULL && u.parent != NULL && u.dead != NULL ? AP_OK : AP_E_NOMEM;
    if (st == AP_OK) {
        memcpy(u.label, old->data, cells * sizeof *u.label);
        for (uint32_t x = 0; x < u.next_id; x++)
            u.parent[x] = x;
    }
    for (size_t i = 0; i < n && st == AP_OK; i++) {
        uint32_t p = ap_map_index(m, changed[i].x, changed[i].y);
        unsigned char t = m->terrain[(size_t)changed[i].y * (size_t)m->width + (size_t)changed[i].x];
        bool now = cap == 0 ? m->pass[p] != 0 : (ap_capability_of_terrain(t) & cap) != 0;
        if (now == (u.label[p] != 0))
            continue; /* a letter change that leaves the mask alone */
        if (now)
            open_cell(&u, p);
        else
            st = block_cell(&u, p);
    }
    uint32_t count = 0;
    if (st == AP_OK)
        st = renumber(&u, &count, cells);
    for (int f = 0; f < FRONTS; f++)
        free(u.f[f].q);
    free(u.parent);
    free(u.dead);
    if (st != AP_OK) {
        free(u.label);
        out->incremental = false;
        return st == OVER_BUDGET ? ap_region_build(m, cap, out) : st;
    }
    out->data = u.label;
    out->count = count;
    out->bytes = cells * sizeof *u.label;
    return AP_OK;
}

static int build_regions(const ap_map *m, ap_map_table *out)
{
    return ap_region_build(m, 0, out);
}

static int update_regions(const ap_map *m, const ap_map *prev, const ap_map_table *old, const ap_cell_pos *changed,
                          size_t n, ap_map_table *out)
{
    return ap_region_update(m, old, changed, n, 0, out);
}

const ap_table_kind ap_region_table_kind = {AP_REGION_TABLE_NAME, "regions", 0, build_regions, free,
                                            update_regions, NULL, NULL, NULL};
