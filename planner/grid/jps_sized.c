/* jps_sized.c — JPS and JPS+ over the grid a disc unit sees (jps_sized.h): successor masks by the AAAI 2011
 * pruning rule, JPS+ distances per clearance threshold, their lazily filled per-map table, and online JPS
 * cell by cell.
 *
 * Sources as jps_sized.h. Directions as jps.c: N, NE, E, SE, S, SW, W, NW (0..7), y down.
 */
#include "jps_sized.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "jps_impl.h"
#include "../base/clock.h"
#include "../base/mem.h"
#include "../base/status.h"
#include "../world/view.h"

/* ---- the unit's grid ------------------------------------------------------------------------------------ */

/* Threshold k of a clearance table on a map of W x H cells (padded coordinates 1..W, 1..H are map cells). */
typedef struct unit_grid {
    const ap_clearance_table *t;
    int32_t W, H, S;
    uint16_t k;
} unit_grid;

static inline bool fits(const unit_grid *g, int32_t x, int32_t y)
{
    return x >= 1 && y >= 1 && x <= g->W && y <= g->H && ap_jps_key_fits(g->t, g->k, (uint32_t)(y * g->S + x));
}

/* Is the move from (x, y) in direction d legal for the unit? Any coordinates (off-map: no). A disc's diagonal
 * by its swept clearance, a square's by its two orthogonal anchors (header). */
static bool move_ok(const unit_grid *g, int32_t x, int32_t y, int d)
{
    const int32_t nx = x + DX[d], ny = y + DY[d];
    if (!fits(g, x, y) || !fits(g, nx, ny))
        return false;
    if (!(d & 1))
        return true;
    if (g->k & AP_JPS_SQUARE)
        return fits(g, nx, y) && fits(g, x, ny);
    return ap_clearance_move(g->t, (uint32_t)(y * g->S + x), DX[d], DY[d]) > g->k;
}

static inline double move_len(int d)
{
    return (d & 1) ? M_SQRT2 : 1.0;
}

/* A path of length len is "no worse" than one of length L: <= for a straight arrival, < for a diagonal one
 * (AAAI 2011, Definitions 1 and 2). The lengths are sums of at most two of 1 and sqrt 2: a tolerance far
 * below their smallest difference (2 - sqrt 2 ... ) decides exactly. */
static inline bool no_worse(double len, double L, bool strict)
{
    return strict ? len < L - 1e-9 : len <= L + 1e-9;
}

/* Is there a path from p to n that avoids x, of at most two moves, no worse than L? */
static bool alternative(const unit_grid *g, int32_t px, int32_t py, int32_t nx, int32_t ny, int32_t x, int32_t y,
                        double L, bool strict)
{
    const int32_t ddx = nx - px, ddy = ny - py;
    if (abs(ddx) <= 1 && abs(ddy) <= 1) {
        const int e = dir_of(ddx, ddy);
        if (no_worse(move_len(e), L, strict) && move_ok(g, px, py, e))
            return true;
    }
    for (int e = 0; e < 8; e++) {
        const int32_t mx = px + DX[e], my = py + DY[e];
        if ((mx == x && my == y) || (mx == nx && my == ny) || abs(nx - mx) > 1 || abs(ny - my) > 1)
            continue;
        const int f = dir_of(nx - mx, ny - my);
        if (no_worse(move_len(e) + move_len(f), L, strict) && move_ok(g, px, py, e) && move_ok(g, mx, my, f))
            return true;
    }
    return false;
}

/* The successor mask of (x, y) entered in direction a: every legal move from it but the way back, minus
 * those an alternative from the parent makes redundant. */
static uint8_t mask_at(const unit_grid *g, int32_t x, int32_t y, int a)
{
    if (!fits(g, x, y))
        return 0;
    const int32_t px = x - DX[a], py = y - DY[a];
    const bool strict = a & 1;
    unsigned m = 0;
    for (int d = 0; d < 8; d++) {
        const int32_t nx = x + DX[d], ny = y + DY[d];
        if ((nx == px && ny == py) || !move_ok(g, x, y, d))
            continue;
        if (!alternative(g, px, py, nx, ny, x, y, move_len(a) + move_len(d), strict))
            m |= 1u << d;
    }
    return (uint8_t)m;
}

uint8_t ap_jps_sized_mask(const ap_map *m, const ap_clearance_table *t, uint16_t k, uint32_t c, int a)
{
    const unit_grid g = {t, m->width, m->height, m->stride, k};
    const int32_t y = (int32_t)(c / (uint32_t)m->stride), x = (int32_t)(c - (uint32_t)y * (uint32_t)m->stride);
    return mask_at(&g, x, y, a);
}

/* ---- building one threshold's tables ------------------------------------------------------------------- */

/* Masks of every cell. Where the unit fits every cell of the 5 x 5 block around a cell every move inside it
 * is legal (a diagonal whose four cells fit is: header), so the masks are the natural ones, as on an open
 * grid; elsewhere mask_at. The block test runs along rows (rmin, row y of the padded grid, 0 .. H + 1),
 * then columns (the masks of map row y, 1 .. H, which read rmin's rows y - 2 .. y + 2). */
static void rmin_row(const unit_grid *g, uint8_t *rmin, int32_t y)
{
    const int32_t S = g->S;
    for (int32_t x = 0; x < S; x++) {
        bool all = x >= 2 && x < S - 2;
        for (int32_t i = x - 2; all && i <= x + 2; i++)
            all = ap_jps_key_fits(g->t, g->k, (uint32_t)(y * S + i));
        rmin[(size_t)y * S + (size_t)x] = all;
    }
}

static void masks_row(const unit_grid *g, const uint8_t *rmin, uint8_t *succ, int32_t y)
{
    const int32_t W = g->W, H = g->H, S = g->S;
    uint8_t natural[8];
    for (int a = 0; a < 8; a++)
        natural[a] = (uint8_t)ap_jps_natural(a);
    for (int32_t x = 1; x <= W; x++) {
        uint8_t *out = succ + ((size_t)y * S + (size_t)x) * 8;
        bool open = y >= 2 && y <= H - 1;
        for (int32_t j = y - 2; open && j <= y + 2; j++)
            open = rmin[(size_t)j * S + (size_t)x];
        if (open)
            memcpy(out, natural, 8);
        else
            for (int a = 0; a < 8; a++)
                out[a] = mask_at(g, x, y, a);
    }
}

/* The JPS+ distance of map cell c in direction d over the unit's grid (ctx: the masks and the grid), as
 * jps.c's jump_value is over the point grid: 0 when the move is illegal; straight, 1 when the next cell has
 * a forced neighbour entered that way, else one more than its distance; diagonal, 1 when the next cell has
 * a forced neighbour or a straight jump from it along either component finds a point, else one more. */
typedef struct value_ctx {
    const unit_grid *g;
    const uint8_t *succ;
} value_ctx;

static int16_t sized_value(const void *ctx, const int16_t *D, int32_t S, uint32_t c, int d)
{
    const value_ctx *v = ctx;
    const int32_t y = (int32_t)(c / (uint32_t)S), x = (int32_t)(c - (uint32_t)y * (uint32_t)S);
    if (!move_ok(v->g, x, y, d))
        return 0;
    const uint32_t n = c + (uint32_t)(DX[d] + DY[d] * S);
    if (v->succ[(size_t)n * 8 + (size_t)d] & ~ap_jps_natural(d))
        return 1;
    if (d & 1) {
        const int dh = dir_of(DX[d], 0), dv = dir_of(0, DY[d]);
        if (D[(size_t)n * 8 + (size_t)dh] > 0 || D[(size_t)n * 8 + (size_t)dv] > 0)
            return 1;
    }
    return ap_jps_extend(D[(size_t)n * 8 + (size_t)d]);
}

/* The event lines (and cell lines) of the unit's grid into s->bits (from ap_jps_bits_alloc), map row y: a
 * straight jump entering a map cell in direction d stops there when the disc does not fit it or its mask
 * for that arrival has more than the straight way on (a forced neighbour). The padded border stays as
 * ap_jps_bits_alloc leaves it (no cell, every event). */
static void bits_row(const unit_grid *g, ap_jps_sized *s, int32_t y)
{
    ap_jps_bits *b = s->bits;
    const size_t rw = b->row_words, cw = b->col_words;
    for (int32_t x = 1; x <= g->W; x++) {
        const uint32_t c = (uint32_t)(y * g->S + x);
        const bool in = ap_jps_key_fits(g->t, g->k, c);
        const uint8_t *m = s->succ + (size_t)c * 8;
        ap_jps_put_bit(b->rows + (size_t)y * rw, (uint32_t)x, in);
        ap_jps_put_bit(b->cols + (size_t)x * cw, (uint32_t)y, in);
        ap_jps_put_bit((uint64_t *)b->ev_e + (size_t)y * rw, (uint32_t)x, !in || (m[2] & ~(1u << 2)));
        ap_jps_put_bit((uint64_t *)b->ev_w + (size_t)y * rw, (uint32_t)x, !in || (m[6] & ~(1u << 6)));
        ap_jps_put_bit((uint64_t *)b->ev_s + (size_t)x * cw, (uint32_t)y, !in || (m[4] & ~(1u << 4)));
        ap_jps_put_bit((uint64_t *)b->ev_n + (size_t)x * cw, (uint32_t)y, !in || (m[0] & ~(1u << 0)));
    }
}

void ap_jps_sized_free(ap_jps_sized *s)
{
    if (s == NULL)
        return;
    ap_jps_bits_free(s->bits);
    AP_FREE_ALL(s->succ, s->plus.dist, s->plus.dist8, s);
}

/* One key's build in steps (ap_jps_sized_build runs it to the end; the map's table keeps one unfinished
 * build for the next query, ap_jps_sized_get_until): the rows of each phase, the clock read after each. */
enum { BUILD_RMIN, BUILD_MASKS, BUILD_SWEEP, BUILD_BITS, BUILD_DONE };
typedef struct sized_build {
    const ap_map *m;
    unit_grid g;
    value_ctx v;
    ap_jps_sized *s;
    uint8_t *rmin;  /* BUILD_RMIN, BUILD_MASKS: the row pass of the block test */
    int phase;
    int32_t y;      /* the phase's next row */
    int sweep;      /* BUILD_SWEEP: the direction's index (ap_jps_sweep_rows) */
    double seconds; /* spent so far */
} sized_build;

static void sized_build_free(sized_build *b)
{
    if (b == NULL)
        return;
    ap_jps_sized_free(b->s);
    free(b->rmin);
    free(b);
}

/* A build of threshold k for clearance table t of m (as ap_jps_sized_build), nothing done yet; NULL with *st
 * set when out of memory or the map is too large. */
static sized_build *sized_build_start(const ap_map *m, const ap_clearance_table *t, uint16_t k, int *st)
{
    *st = AP_E_MAP_TOO_LARGE;
    if (m->width > 32000 || m->height > 32000)
        return NULL;
    *st = AP_E_NOMEM;
    const uint32_t cells = ap_map_node_count(m);
    sized_build *b = calloc(1, sizeof *b);
    ap_jps_sized *s = b != NULL ? calloc(1, sizeof *s) : NULL;
    if (s == NULL) {
        free(b);
        return NULL;
    }
    b->s = s;
    b->m = m;
    b->g = (unit_grid){t, m->width, m->height, m->stride, k};
    s->capability = t->capability;
    s->k = k;
    s->plus.cells = cells;
    s->succ = calloc((size_t)cells, 8);
    s->plus.dist = calloc((size_t)cells * 8, sizeof *s->plus.dist);
    b->rmin = malloc(cells);
    if (s->succ == NULL || s->plus.dist == NULL || b->rmin == NULL) {
        sized_build_free(b);
        return NULL;
    }
    b->phase = BUILD_RMIN;
    *st = AP_OK;
    return b;
}

/* Run b until its tables are done (AP_OK: b->s complete) or the clock has passed until_ns after a row
 * (AP_IN_PROGRESS; 0 = no limit); AP_E_NOMEM (b unusable). */
static int sized_build_run(sized_build *b, uint64_t until_ns)
{
    const double t0 = ap_monotonic_seconds();
    const unit_grid *g = &b->g;
    ap_jps_sized *s = b->s;
    int st = AP_IN_PROGRESS;
    bool stop = false; /* the clock has passed until_ns after a row */
    while (st == AP_IN_PROGRESS && !stop) {
        bool row = false;
        switch (b->phase) {
        case BUILD_RMIN:
            if ((row = b->y < g->H + 2)) {
                rmin_row(g, b->rmin, b->y++);
            } else {
                b->phase = BUILD_MASKS;
                b->y = 1;
            }
            break;
        case BUILD_MASKS:
            if ((row = b->y <= g->H)) {
                masks_row(g, b->rmin, s->succ, b->y++);
            } else {
                free(b->rmin);
                b->rmin = NULL;
                b->v = (value_ctx){g, s->succ};
                b->phase = BUILD_SWEEP;
                b->y = 0;
            }
            break;
        case BUILD_SWEEP:
            if (!ap_jps_sweep_rows(b->m, &s->plus, sized_value, &b->v, &b->sweep, &b->y, until_ns)) {
                stop = true;
                break;
            }
            ap_jps_count(&s->plus);
            if (ap_jps_settle_dist8(&s->plus) != AP_OK ||
                (s->bits = ap_jps_bits_alloc((uint32_t)g->S, (uint32_t)g->H + 2, NULL)) == NULL)
                st = AP_E_NOMEM;
            b->phase = BUILD_BITS;
            b->y = 1;
            row = true;
            break;
        case BUILD_BITS:
            if ((row = b->y <= g->H))
                bits_row(g, s, b->y++);
            else
                b->phase = BUILD_DONE;
            break;
        default:
            st = AP_OK;
        }
        stop = stop || (row && ap_deadline_passed(until_ns));
    }
    b->seconds += ap_monotonic_seconds() - t0;
    if (st == AP_OK) {
        const ap_map *m = b->m;
        s->bytes = sizeof *s +
                   (size_t)s->plus.cells * (8 + 8 * sizeof *s->plus.dist + (s->plus.dist8 != NULL ? 8 : 0)) +
                   ap_jps_bits_bytes(s->bits, (uint32_t)m->stride, (uint32_t)m->height + 2);
        s->build_seconds = b->seconds;
    }
    return st;
}

/* b's finished tables, b freed. */
static ap_jps_sized *sized_build_take(sized_build *b)
{
    ap_jps_sized *s = b->s;
    b->s = NULL;
    sized_build_free(b);
    return s;
}

int ap_jps_sized_build(const ap_map *m, const ap_clearance_table *t, uint16_t k, ap_jps_sized **out)
{
    *out = NULL;
    int st;
    sized_build *b = sized_build_start(m, t, k, &st);
    if (b == NULL)
        return st;
    if ((st = sized_build_run(b, 0)) != AP_OK) {
        sized_build_free(b);
        return st;
    }
    *out = sized_build_take(b);
    return AP_OK;
}

/* ---- the per-map table: thresholds published on first use ---------------------------------------------- */

typedef struct sized_slot {
    _Atomic(ap_jps_sized *) cls[AP_JPS_SIZED_CLASSES];
    atomic_flag building; /* a thread builds (one at a time per map; the others run without the tables) */
    sized_build *pend;    /* under building: a key's build left unfinished by a query, or NULL */
    atomic_bool has_pend; /* pend != NULL, for ap_map_tables_pending without the flag */
} sized_slot;

static void slot_free(void *data)
{
    sized_slot *sl = data;
    if (sl == NULL)
        return;
    for (int i = 0; i < AP_JPS_SIZED_CLASSES; i++)
        ap_jps_sized_free(atomic_load_explicit(&sl->cls[i], memory_order_acquire));
    sized_build_free(sl->pend);
    free(sl);
}

static int slot_build(const ap_map *m, ap_map_table *out)
{
    (void)m;
    sized_slot *sl = malloc(sizeof *sl);
    if (sl == NULL)
        return AP_E_NOMEM;
    for (int i = 0; i < AP_JPS_SIZED_CLASSES; i++)
        atomic_init(&sl->cls[i], NULL);
    atomic_flag_clear(&sl->building);
    sl->pend = NULL;
    atomic_init(&sl->has_pend, false);
    out->data = sl;
    out->bytes = sizeof *sl;
    return AP_OK;
}

/* After a tile update the thresholds are built again on first use: an empty slot, not an update. */
static int slot_update(const ap_map *m, const ap_map *prev, const ap_map_table *old, const ap_cell_pos *changed,
                       size_t n, ap_map_table *out)
{
    (void)prev, (void)old, (void)changed, (void)n;
    out->incremental = false;
    return slot_build(m, out);
}

/* The published thresholds' bytes (and how many there are): what the map info reports. */
static size_t slot_live(const void *data, uint64_t *count)
{
    sized_slot *sl = (sized_slot *)data;
    size_t bytes = sizeof *sl;
    *count = 0;
    for (int i = 0; i < AP_JPS_SIZED_CLASSES; i++) {
        const ap_jps_sized *s = atomic_load_explicit(&sl->cls[i], memory_order_acquire);
        if (s != NULL) {
            bytes += s->bytes;
            ++*count;
        }
    }
    return bytes;
}

static bool slot_pending(const void *data);
static int slot_work(const ap_map *m, void *data, uint64_t until_ns);

const ap_table_kind ap_jps_sized_table_kind = {AP_JPS_SIZED_TABLE_NAME, "thresholds", AP_TABLE_OPTIONAL | AP_TABLE_SKIPPABLE, slot_build,
                                               slot_free, slot_update, slot_live, slot_pending, slot_work};

/* What a key's build would add at most: masks, int16 and int8 distances, and the event lines (about 34 bytes
 * a padded cell). */
static size_t key_bytes(const ap_map *m)
{
    return (size_t)ap_map_node_count(m) * 34 + 4096;
}

/* Where key (c, k) is in sl: its tables (returned, *free_at untouched), or NULL with *free_at the first free
 * place when the published keys leave room for one more under AP_JPS_SIZED_MAX_BYTES, else -1. */
static ap_jps_sized *find_key(sized_slot *sl, const ap_map *base, ap_capability c, uint16_t k, int *free_at)
{
    size_t held = 0;
    *free_at = -1;
    int first_free = -1;
    for (int i = 0; i < AP_JPS_SIZED_CLASSES; i++) {
        ap_jps_sized *s = atomic_load_explicit(&sl->cls[i], memory_order_acquire);
        if (s == NULL) {
            if (first_free < 0)
                first_free = i;
        } else if (s->capability == c && s->k == k) {
            return s;
        } else {
            held += s->bytes;
        }
    }
    if (first_free >= 0 && held + key_bytes(base) <= AP_JPS_SIZED_MAX_BYTES)
        *free_at = first_free;
    return NULL;
}

/* m's slot (the loaded map's for a view), or NULL when it has none or is too large for int16 distances. */
static sized_slot *slot_of(const ap_map *m)
{
    const ap_map *base = ap_map_base(m);
    const ap_map_table *tab = ap_map_find_table(base, AP_JPS_SIZED_TABLE_NAME);
    if (tab == NULL || base->width > 32000 || base->height > 32000)
        return NULL;
    return tab->data;
}

const ap_jps_sized *ap_jps_sized_get(const ap_map *m, const ap_clearance_table *t, uint16_t k)
{
    return ap_jps_sized_get_until(m, t, k, 0);
}

/* Publish s (consumed) in sl's place for its key: the first free place while the published keys leave room
 * (the caller holds the building flag: no other thread publishes meanwhile). Returns s, or NULL (freed: no
 * place or room any more). */
static const ap_jps_sized *publish(sized_slot *sl, const ap_map *base, ap_jps_sized *s)
{
    int at;
    const ap_jps_sized *have = find_key(sl, base, s->capability, s->k, &at);
    if (have != NULL || at < 0) {
        ap_jps_sized_free(s);
        return have;
    }
    atomic_store_explicit(&sl->cls[at], s, memory_order_release);
    return s;
}

/* Run sl's unfinished build until until_ns (the caller holds the building flag). When it ends: published
 * (or dropped: no place or room any more, out of memory), *c and *k its key and *s the published tables or
 * NULL; returns true. False while it is unfinished. */
static bool pend_run(sized_slot *sl, const ap_map *base, uint64_t until_ns, ap_capability *c, uint16_t *k,
                     const ap_jps_sized **s)
{
    const int st = sized_build_run(sl->pend, until_ns);
    if (st == AP_IN_PROGRESS)
        return false;
    sized_build *b = sl->pend;
    sl->pend = NULL;
    atomic_store_explicit(&sl->has_pend, false, memory_order_release);
    *c = b->s->capability;
    *k = b->s->k;
    if (st == AP_OK) {
        *s = publish(sl, base, sized_build_take(b));
    } else {
        *s = NULL;
        sized_build_free(b);
    }
    return true;
}

const ap_jps_sized *ap_jps_sized_get_until(const ap_map *m, const ap_clearance_table *t, uint16_t k, uint64_t until_ns)
{
    const ap_map *base = ap_map_base(m);
    sized_slot *sl = t != NULL ? slot_of(m) : NULL;
    if (sl == NULL)
        return NULL;
    int at;
    const ap_jps_sized *s = find_key(sl, base, t->capability, k, &at);
    if (s != NULL || at < 0)
        return s; /* published, or no room */
    /* One build at a time per map: a thread that finds another building goes without the tables (online
     * JPS, or auto's other searches) rather than wait, as the build may take longer than its deadline. */
    if (atomic_flag_test_and_set_explicit(&sl->building, memory_order_acquire))
        return NULL;
    const ap_jps_sized *got = NULL;
    for (;;) {
        if (sl->pend == NULL) {
            if ((got = find_key(sl, base, t->capability, k, &at)) != NULL || at < 0 || ap_deadline_passed(until_ns))
                break;
            int st;
            if ((sl->pend = sized_build_start(base, t, k, &st)) == NULL)
                break;
            atomic_store_explicit(&sl->has_pend, true, memory_order_release);
        }
        ap_capability done_c;
        uint16_t done_k;
        const ap_jps_sized *done;
        if (!pend_run(sl, base, until_ns, &done_c, &done_k, &done))
            break; /* kept for the next query */
        if (done_c == t->capability && done_k == k) {
            got = done;
            break;
        }
        /* another key's build finished: then this key's, if time is left */
        if (ap_deadline_passed(until_ns))
            break;
    }
    atomic_flag_clear_explicit(&sl->building, memory_order_release);
    return got;
}

const ap_jps_sized *ap_jps_sized_find(const ap_map *m, const ap_clearance_table *t, uint16_t k)
{
    sized_slot *sl = t != NULL ? slot_of(m) : NULL;
    int at;
    return sl != NULL ? find_key(sl, ap_map_base(m), t->capability, k, &at) : NULL;
}

bool ap_jps_sized_ready(const ap_map *m, const ap_clearance_table *t, uint16_t k)
{
    sized_slot *sl = t != NULL ? slot_of(m) : NULL;
    int at;
    return sl != NULL && (find_key(sl, ap_map_base(m), t->capability, k, &at) != NULL || at >= 0);
}

/* The kind's pending and work hooks (tables.h): a key's tables left unfinished by its queries, finished off
 * the query path (the server's table work, server/tablework.h). */
static bool slot_pending(const void *data)
{
    const sized_slot *sl = data;
    return atomic_load_explicit(&sl->has_pend, memory_order_acquire);
}

static int slot_work(const ap_map *m, void *data, uint64_t until_ns)
{
    sized_slot *sl = data;
    if (!ap_flag_take_until(&sl->building, until_ns))
        return slot_pending(sl) ? AP_IN_PROGRESS : AP_OK;
    if (sl->pend != NULL) {
        ap_capability c;
        uint16_t k;
        const ap_jps_sized *s;
        (void)pend_run(sl, ap_map_base(m), until_ns, &c, &k, &s);
    }
    atomic_flag_clear_explicit(&sl->building, memory_order_release);
    return slot_pending(sl) ? AP_IN_PROGRESS : AP_OK;
}

/* ---- online JPS over the unit's grid ------------------------------------------------------------------- */

static inline unsigned mask_of(const ap_jps_domain *jd, uint32_t c, int a)
{
    return jd->succ8 != NULL ? jd->succ8[(size_t)c * 8 + (size_t)a] : ap_jps_sized_mask(jd->map, jd->clear, jd->k, c, a);
}

/* Straight jump from u (entered or started in direction d, which is legal from u): the first cell with a
 * forced neighbour entered that way, the goal, or NONE where the unit's grid ends the line; after
 * jd->jump_max steps (when set) the cell reached, if the line goes on from it. *steps gets the moves taken.
 * Stopping a jump early keeps JPS optimal: the cell it stops at is expanded with the same arrival direction,
 * so its natural successor is the rest of the jump (Harabor and Grastien, AAAI 2011: any cell on the line may
 * be a successor; pruning only leaves them out). It bounds an expansion's work where the masks are computed
 * per cell: an open 4096 × 4096 map's first expansion scanned every cell (seconds) between deadline checks. */
static uint32_t jump_straight(const ap_jps_domain *jd, uint32_t u, int d, uint32_t *steps)
{
    const int32_t o = DX[d] + DY[d] * (int32_t)jd->stride;
    for (uint32_t k = 1;; k++) {
        u += (uint32_t)o;
        const unsigned m = mask_of(jd, u, d);
        if (u == jd->goal || (m & ~(1u << d))) {
            *steps = k;
            return u;
        }
        if (!(m & (1u << d)))
            return NONE;
        if (k == jd->jump_max) {
            *steps = k;
            return u;
        }
    }
}

/* Diagonal jump from u in diagonal direction d (legal from u): AAAI 2011 Algorithm 2 on the unit's grid,
 * stopping also at a cell with forced neighbours of its own, and like jump_straight after jd->jump_max steps
 * (its straight scans are bounded too: one that stops at its bound makes the diagonal cell a jump point). */
static uint32_t jump_diag(const ap_jps_domain *jd, uint32_t u, int d, uint32_t *steps)
{
    const int32_t o = DX[d] + DY[d] * (int32_t)jd->stride;
    const int dh = dir_of(DX[d], 0), dv = dir_of(0, DY[d]);
    uint32_t dummy;
    for (uint32_t k = 1;; k++) {
        u += (uint32_t)o;
        const unsigned m = mask_of(jd, u, d);
        if (u == jd->goal || (m & ~ap_jps_natural(d)) ||
            ((m & (1u << dh)) && jump_straight(jd, u, dh, &dummy) != NONE) ||
            ((m & (1u << dv)) && jump_straight(jd, u, dv, &dummy) != NONE)) {
            *steps = k;
            return u;
        }
        if (!(m & (1u << d)))
            return NONE;
        if (k == jd->jump_max) {
            *steps = k;
            return u;
        }
    }
}

/* Block-scan straight jump from (ux, uy) in straight direction d over the event lines (jps.c's
 * jump_straight_bits on the unit's grid): the first event is a jump point iff the disc fits it. */
static inline uint32_t scan_straight(const ap_jps_domain *jd, int32_t ux, int32_t uy, int d, uint32_t *k)
{
    const uint32_t v = ap_jps_first_event(jd, ux, uy, d, k);
    return ap_jps_key_fits(jd->clear, jd->k, v) ? v : NONE;
}

/* Block-scan diagonal jump from u in diagonal direction d (legal from u), writing successors to out[n ..]:
 * a diagonal cell with a forced neighbour of its own, or the goal, is generated itself; otherwise the jump
 * points its two straight scans find are generated with the diagonal leg in their cost (intermediate jump
 * points pruned, as jps.c's jump_diag_bits: valid because such a cell's only successors are the natural
 * ones) and the walk goes on while its mask allows. Fewer than 3 slots left below room: the diagonal cell
 * itself. Returns the new n. */
static inline __attribute__((always_inline)) int scan_diag(const ap_jps_domain *jd, uint32_t u, int32_t ux,
                                                            int32_t uy, const int d, ap_succ *out, int n, int room)
{
    const ap_jps_bits *b = jd->bits;
    const ap_clearance_table *ct = jd->clear;
    const uint16_t k = jd->k;
    const uint8_t *succ = jd->succ8;
    const uint32_t S = jd->stride;
    const int32_t dx = DX[d], dy = DY[d], off = dx + dy * (int32_t)S;
    const int dh = dir_of(dx, 0), dv = dir_of(0, dy);
    const unsigned natural = ap_jps_natural(d);
    const int32_t gx = jd->goal_px, gy = jd->goal_py;
    /* the event lines of u's row (direction dh) and column (dv), moved one line per diagonal step */
    const ptrdiff_t rstep = dy * (ptrdiff_t)b->row_words, cstep = dx * (ptrdiff_t)b->col_words;
    const uint64_t *R = (dx > 0 ? b->ev_e : b->ev_w) + (size_t)uy * b->row_words;
    const uint64_t *C = (dy > 0 ? b->ev_s : b->ev_n) + (size_t)ux * b->col_words;
    for (uint32_t steps = 1;; steps++) {
        u += (uint32_t)off;
        ux += dx;
        uy += dy;
        R += rstep;
        C += cstep;
        const double gd = (double)steps * M_SQRT2;
        const unsigned m = succ[(size_t)u * 8 + (size_t)d];
        if (u == jd->goal || (m & ~natural) || n + 3 > room) {
            out[n++] = (ap_succ){u, gd};
            return n;
        }
        if (m & (1u << dh)) {
            const int32_t gp = gy == uy ? gx : -1;
            const int32_t r = dx > 0 ? ap_jps_ev_up(R, ux, gp) : ap_jps_ev_down(R, ux, gp);
            const uint32_t rv = (uint32_t)uy * S + (uint32_t)r;
            if (ap_jps_key_fits(ct, k, rv))
                out[n++] = (ap_succ){rv, gd + (double)abs(r - ux)};
        }
        if (m & (1u << dv)) {
            const int32_t gp = gx == ux ? gy : -1;
            const int32_t c = dy > 0 ? ap_jps_ev_up(C, uy, gp) : ap_jps_ev_down(C, uy, gp);
            const uint32_t cv = (uint32_t)c * S + (uint32_t)ux;
            if (ap_jps_key_fits(ct, k, cv))
                out[n++] = (ap_succ){cv, gd + (double)abs(c - uy)};
        }
        if (!(m & (1u << d)))
            return n;
    }
}

static int sized_succ(const void *ctx, uint32_t u, ap_succ *out)
{
    const ap_jps_domain *jd = ctx;
    const uint32_t S = jd->stride;
    const int32_t uy = (int32_t)(u / S), ux = (int32_t)(u - (uint32_t)uy * S);
    const int from = ap_jps_arrival(jd->nodes, S, u, ux, uy);
    unsigned dirs = 0;
    if (from >= 0) {
        dirs = mask_of(jd, u, from);
    } else {
        const unit_grid g = {jd->clear, jd->map->width, jd->map->height, (int32_t)S, jd->k};
        for (int d = 0; d < 8; d++)
            dirs |= (unsigned)move_ok(&g, ux, uy, d) << d;
    }
    int n = 0;
    while (dirs) {
        const int d = __builtin_ctz(dirs);
        dirs &= dirs - 1;
        uint32_t k = 0, v;
        if (jd->bits != NULL && (d & 1)) {
            /* one inlined copy per diagonal (constant direction inside the walk) */
            const int room = jd->succ_cap - (int)ap_popcount64(dirs);
            switch (d) {
            case 1: n = scan_diag(jd, u, ux, uy, 1, out, n, room); break;
            case 3: n = scan_diag(jd, u, ux, uy, 3, out, n, room); break;
            case 5: n = scan_diag(jd, u, ux, uy, 5, out, n, room); break;
            default: n = scan_diag(jd, u, ux, uy, 7, out, n, room); break;
            }
            continue;
        }
        if (jd->bits != NULL)
            v = scan_straight(jd, ux, uy, d, &k);
        else
            v = (d & 1) ? jump_diag(jd, u, d, &k) : jump_straight(jd, u, d, &k);
        if (v != NONE)
            out[n++] = (ap_succ){v, (double)k * move_len(d)};
    }
    return n;
}

int ap_jps_domain_init_sized(ap_jps_domain *jd, ap_domain *dom, const ap_map *m, const ap_clearance_table *t,
                             uint16_t k, const ap_jps_sized *s, bool plus, uint32_t goal)
{
    if (t == NULL || (plus && s == NULL) || (s != NULL && (s->k != k || s->capability != t->capability)))
        return AP_E_INTERNAL;
    int st = ap_jps_domain_init(jd, dom, m, plus ? &s->plus : NULL, goal);
    if (st != AP_OK)
        return st;
    jd->succ8 = s != NULL ? s->succ : NULL;
    jd->clear = t;
    jd->k = k;
    /* Without the tables every visited cell's mask is computed from the clearance table: bounded jumps and a
     * deadline check every expansion keep each expansion at most ~1 ms (AP_JPS_ONLINE_JUMP_MAX). */
    jd->jump_max = s == NULL ? AP_JPS_ONLINE_JUMP_MAX : 0;
    dom->costly = dom->costly || s == NULL;
    if (!plus) {
        jd->bits = s != NULL ? s->bits : NULL;
        dom->successors = sized_succ;
        dom->run = NULL;
    }
    return AP_OK;
}
