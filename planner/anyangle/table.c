/* table.c — the "any_angle" per-map table (table.h): the point unit's tangent visibility graph of a grid map
 * with its eager table of corner bitangents, built once at load, and the graphs of discs, built on first use
 * per radius and published lock-free; all shared read-only by every query of the map. */
#include "table.h"

#include <stdlib.h>
#include <time.h>

#include "../base/status.h"
#include "../search/search.h"

/* The slot's data: the point graph and the disc graphs published so far (NULL = free slot). */
typedef struct ap_aa_table {
    ap_aa_graph *point;
    _Atomic(ap_aa_graph *) disc[AP_AA_TABLE_RADII];
    atomic_size_t disc_bytes; /* the published disc graphs' graph_bytes, at most AP_AA_TABLE_DISC_BYTES */
    atomic_size_t disc_most;  /* the largest graph_bytes of a disc graph built so far, kept or not */
    atomic_flag building;     /* a thread is building a disc graph (one at a time: the others wait) */
    /* Keys (r, grow) whose graph was built and then not kept (beyond the limits, the disc budget or the
     * slots): neither can change in the map's lifetime, so later queries of the key go without rebuilding
     * (a second or more each on the largest maps). Appended under the building flag, entries before the
     * count published (release), so readers need no lock. */
    double refused_r[AP_AA_TABLE_REFUSED], refused_grow[AP_AA_TABLE_REFUSED];
    atomic_uint n_refused;
    /* The graph being built for key (pend_r, pend_grow), or NULL: a build that did not finish in the time
     * its query could spare, resumed by the next query that builds (table.h). Under the building flag. */
    ap_aa_graph *pend_g;
    ap_aa_build *pend_b; /* its eager table's build (NULL: a graph beyond the corner limits, no table) */
    double pend_r, pend_grow;
    atomic_bool has_pend; /* pend_g != NULL, for ap_map_tables_pending without the flag */
} ap_aa_table;

/* Memory of a built graph: per hug circle centre, radius and quadrant; per eager departure its entry; the
 * departure index; the landmark distances. */
static size_t graph_bytes(const ap_aa_graph *g)
{
    return g->n * (3 * sizeof(double) + 1) + g->n_deps * sizeof(ap_aa_dep) +
           (g->dep_start != NULL ? (2 * g->n + 1) * sizeof(uint32_t) : 0) + g->n * g->n_marks * sizeof(double) +
           (g->dep_key != NULL ? 2 * g->n_deps * sizeof(double) : 0) + (g->hug_clear != NULL ? g->n : 0);
}

static void table_free(void *data)
{
    ap_aa_table *t = data;
    if (t == NULL)
        return;
    ap_aa_graph_free(t->point);
    ap_aa_build_free(t->pend_b);
    ap_aa_graph_free(t->pend_g);
    for (int i = 0; i < AP_AA_TABLE_RADII; i++)
        ap_aa_graph_free(atomic_load_explicit(&t->disc[i], memory_order_acquire));
    free(t);
}

/* g (consumed) if it is an eager graph within the limits, else NULL (freed). */
static ap_aa_graph *within_limits(ap_aa_graph *g)
{
    if (g != NULL && (g->n > AP_AA_TABLE_MAX_CORNERS || g->dep_start == NULL || graph_bytes(g) > AP_AA_TABLE_MAX_BYTES)) {
        ap_aa_graph_free(g);
        return NULL;
    }
    return g;
}

/* The lazy graph of m for radius r, hug circles grown by grow, in *g, and the build of its eager table in
 * *b (NULL: beyond the corner limits, the graph stays lazy and within_limits drops it). Returns AP_OK, or
 * the error (out of memory, an invalid radius; nothing made). */
static int graph_start(const ap_map *m, double r, double grow, ap_aa_graph **g, ap_aa_build **b)
{
    *b = NULL;
    int st = ap_aa_graph_grid_lazy(m, r, g);
    if (st != AP_OK)
        return st;
    if (grow > 0.0)
        st = ap_aa_graph_grow_hugs(*g, grow);
    /* A turning unit's grown hugs have no visibility scan: their table is O(corners^2) line tests, kept to
     * maps of at most AP_AA_TABLE_MAX_CORNERS_PAIRS corners (Paris_1_1024's 11,638 would take about a
     * minute); beyond, a lazy graph per query. */
    if (st == AP_OK && (*g)->n <= (grow > 0.0 ? AP_AA_TABLE_MAX_CORNERS_PAIRS : AP_AA_TABLE_MAX_CORNERS))
        st = ap_aa_build_start(*g, b);
    if (st != AP_OK) {
        ap_aa_graph_free(*g);
        *g = NULL;
    }
    return st;
}

/* The eager graph of m for radius r, hug circles grown by grow, within the limits, in *out (NULL: beyond
 * them), built in one go. Returns AP_OK, or the build's error (*out NULL: out of memory, an invalid
 * radius). */
static int eager_graph(const ap_map *m, double r, double grow, ap_aa_graph **out)
{
    ap_aa_graph *g;
    ap_aa_build *b;
    *out = NULL;
    int st = graph_start(m, r, grow, &g, &b);
    if (st != AP_OK)
        return st;
    if (b != NULL)
        (void)ap_aa_build_run(b, 0); /* out of memory or too many departures: lazy, dropped below */
    ap_aa_build_free(b);
    *out = within_limits(g);
    return AP_OK;
}

/* The slot of point graph g (consumed; NULL: no slot). */
static int table_of_graph(ap_aa_graph *g, ap_map_table *out)
{
    /* Beyond the limits the map gets no slot: its queries build a lazy graph each (graph.h). */
    if (g == NULL)
        return AP_OK;
    ap_aa_table *t = calloc(1, sizeof *t);
    if (t == NULL) {
        ap_aa_graph_free(g);
        return AP_E_NOMEM;
    }
    t->point = g;
    for (int i = 0; i < AP_AA_TABLE_RADII; i++)
        atomic_init(&t->disc[i], NULL);
    atomic_init(&t->disc_bytes, 0);
    atomic_init(&t->disc_most, 0);
    atomic_flag_clear(&t->building);
    atomic_init(&t->n_refused, 0);
    atomic_init(&t->has_pend, false);
    out->data = t;
    out->bytes = sizeof *t + graph_bytes(g);
    out->count = g->n;
    return AP_OK;
}

static int table_build(const ap_map *m, ap_map_table *out)
{
    ap_aa_graph *g;
    (void)eager_graph(m, 0.0, 0.0, &g); /* out of memory: no slot, as beyond the limits */
    return table_of_graph(g, out);
}

/* The point graph updated from prev's (ap_aa_graph_grid_update: the same graph as the build's); the disc
 * graphs start empty as after a build. */
static int table_update(const ap_map *m, const ap_map *prev, const ap_map_table *old, const ap_cell_pos *changed,
                        size_t n, ap_map_table *out)
{
    const ap_aa_table *t = old->data;
    ap_aa_graph *g = NULL;
    bool updated = false;
    if (ap_aa_graph_grid_update(t->point, prev, m, changed, n, &g, &updated) != AP_OK || g == NULL) {
        out->incremental = false;
        return table_build(m, out); /* the update chose the build, or out of memory: as the build would fare */
    }
    out->incremental = updated;
    return table_of_graph(within_limits(g), out);
}

/* The bytes the table holds now: the point graph and the disc graphs published since the load (up to
 * AP_AA_TABLE_DISC_BYTES; the map info listed only the point graph, so up to 64 MiB a map went unseen, a
 * helper). The count stays the point graph's corners. */
static size_t table_live(const void *data, uint64_t *count)
{
    const ap_aa_table *t = data;
    *count = t->point->n;
    return sizeof *t + graph_bytes(t->point) + atomic_load_explicit(&t->disc_bytes, memory_order_acquire);
}

static bool table_pending(const void *data);
static int table_work(const ap_map *m, void *data, uint64_t until_ns);

const ap_table_kind ap_aa_table_kind = {AP_AA_TABLE_NAME, "corners",    AP_TABLE_OPTIONAL | AP_TABLE_SKIPPABLE | AP_TABLE_UNIFORM,
                                        table_build,      table_free,   table_update, table_live, table_pending,
                                        table_work};

static ap_aa_table *table_of(const ap_map *m)
{
    const ap_map_table *t = ap_map_find_table(m, AP_AA_TABLE_NAME);
    return t != NULL ? t->data : NULL;
}

const ap_aa_graph *ap_aa_table_point(const ap_map_table *slot)
{
    const ap_aa_table *t = slot->data;
    return t->point;
}

const ap_aa_graph *ap_aa_table_of(const ap_map *m)
{
    const ap_aa_table *t = table_of(m);
    return t != NULL ? t->point : NULL;
}

const ap_aa_graph *ap_aa_table_graph(const ap_map *m, double r)
{
    return ap_aa_table_graph_until(m, r, 0.0, 0);
}

/* The published graph for (r, grow), or NULL. */
static const ap_aa_graph *published(ap_aa_table *t, double r, double grow)
{
    for (int i = 0; i < AP_AA_TABLE_RADII; i++) {
        const ap_aa_graph *g = atomic_load_explicit(&t->disc[i], memory_order_acquire);
        if (g != NULL && g->unit_radius == r && g->hug_grow == grow)
            return g;
    }
    return NULL;
}

static bool refused(ap_aa_table *t, double r, double grow)
{
    const unsigned n = atomic_load_explicit(&t->n_refused, memory_order_acquire);
    for (unsigned i = 0; i < n; i++)
        if (t->refused_r[i] == r && t->refused_grow[i] == grow)
            return true;
    return false;
}

/* Remember a refused key (the caller holds the building flag: the only writer). When the list is full the
 * later keys are not remembered: their queries rebuild, as before the list. */
static void refuse(ap_aa_table *t, double r, double grow)
{
    const unsigned n = atomic_load_explicit(&t->n_refused, memory_order_relaxed);
    if (n >= AP_AA_TABLE_REFUSED)
        return;
    t->refused_r[n] = r;
    t->refused_grow[n] = grow;
    atomic_store_explicit(&t->n_refused, n + 1, memory_order_release);
}

/* The build's first test: room in the map's disc budget for a graph the size of the point graph, or of the
 * largest disc graph built so far when that is larger (a disc's graph carries its sorted departures' keys:
 * Boston_0_512's at 0.3 is larger than its point graph, and a second radius would not fit beside it). */
static bool disc_room(ap_aa_table *t)
{
    size_t want = graph_bytes(t->point);
    const size_t most = atomic_load_explicit(&t->disc_most, memory_order_relaxed);
    if (most > want)
        want = most;
    return atomic_load_explicit(&t->disc_bytes, memory_order_acquire) + want <= AP_AA_TABLE_DISC_BYTES;
}

/* Is a slot free (no published graph)? Slots are never freed in the map's lifetime. */
static bool free_slot(ap_aa_table *t)
{
    for (int i = 0; i < AP_AA_TABLE_RADII; i++)
        if (atomic_load_explicit(&t->disc[i], memory_order_acquire) == NULL)
            return true;
    return false;
}

static const ap_aa_graph *build_and_publish(ap_aa_table *t, const ap_map *m, double r, double grow, uint64_t until_ns);

bool ap_aa_table_may_serve(const ap_map *m, double r)
{
    ap_aa_table *t = table_of(m);
    if (t == NULL || !(r > 0.0))
        return t != NULL && r == 0.0;
    if (published(t, r, 0.0) != NULL)
        return true;
    if (refused(t, r, 0.0))
        return false;
    return free_slot(t) && disc_room(t);
}

bool ap_aa_table_would_build(const ap_map *m, double r, double grow)
{
    ap_aa_table *t = table_of(m);
    if (t == NULL || !(r >= 0.0) || !(grow >= 0.0) || (r == 0.0 && grow == 0.0))
        return false;
    return published(t, r, grow) == NULL && !refused(t, r, grow) && free_slot(t) && disc_room(t);
}

const ap_aa_graph *ap_aa_table_graph_until(const ap_map *m, double r, double grow, uint64_t until_ns)
{
    ap_aa_table *t = table_of(m);
    if (t == NULL || !(r >= 0.0) || !(grow >= 0.0))
        return NULL;
    if (r == 0.0 && grow == 0.0)
        return t->point;
    const ap_aa_graph *g = published(t, r, grow);
    if (g != NULL || refused(t, r, grow))
        return g;
    /* One build at a time per map: the first queries of a radius often come together, and each build of a
     * large map's graph takes a core for up to a few seconds and its memory twice over while it grows. The
     * others wait (1 ms sleeps) and take what it published, or give up at until_ns (their query then goes
     * without the graph instead of waiting for a build it cannot use in time). */
    while (atomic_flag_test_and_set_explicit(&t->building, memory_order_acquire)) {
        nanosleep(&(struct timespec){0, 1000000}, NULL);
        if ((g = published(t, r, grow)) != NULL)
            return g;
        if (ap_deadline_passed(until_ns))
            return NULL;
    }
    /* refused while this thread waited; until_ns already past: no build that the query could not use */
    g = refused(t, r, grow) || ap_deadline_passed(until_ns) ? NULL : build_and_publish(t, m, r, grow, until_ns);
    atomic_flag_clear_explicit(&t->building, memory_order_release);
    return g;
}

/* Publish mine (consumed), the finished graph for (r, grow), in a free slot, or refuse the key when mine is
 * NULL (beyond the limits), would take the map's disc graphs beyond their budget, or finds every slot
 * taken. The caller holds the building flag: the only thread that writes the slots, so no other graph
 * for the key can appear meanwhile. Returns the published graph, or NULL (refused). */
static const ap_aa_graph *publish(ap_aa_table *t, double r, double grow, ap_aa_graph *mine)
{
    if (mine == NULL) {
        refuse(t, r, grow);
        return NULL;
    }
    /* The map's budget for disc graphs: claimed before publishing, given back if not published. */
    const size_t b = graph_bytes(mine);
    if (b > atomic_load_explicit(&t->disc_most, memory_order_relaxed))
        atomic_store_explicit(&t->disc_most, b, memory_order_relaxed); /* one builder at a time */
    if (atomic_fetch_add_explicit(&t->disc_bytes, b, memory_order_acq_rel) + b <= AP_AA_TABLE_DISC_BYTES)
        for (int i = 0; i < AP_AA_TABLE_RADII; i++) {
            ap_aa_graph *expected = NULL;
            if (atomic_compare_exchange_strong_explicit(&t->disc[i], &expected, mine, memory_order_acq_rel,
                                                        memory_order_acquire))
                return mine;
        }
    atomic_fetch_sub_explicit(&t->disc_bytes, b, memory_order_acq_rel);
    ap_aa_graph_free(mine);
    refuse(t, r, grow);
    return NULL;
}

/* Run t's unfinished build until until_ns (the caller holds the building flag). When it ends: published
 * (or refused: beyond the limits, out of memory, too many departures, no room), *r and *grow its key and *g
 * the published graph or NULL; returns true. False while it is unfinished. */
static bool pending_run(ap_aa_table *t, uint64_t until_ns, double *r, double *grow, const ap_aa_graph **g)
{
    if (t->pend_b != NULL && ap_aa_build_run(t->pend_b, until_ns) == AP_IN_PROGRESS)
        return false;
    /* Done (out of memory or too many departures: a lazy graph, refused by within_limits). */
    ap_aa_build_free(t->pend_b);
    ap_aa_graph *done = within_limits(t->pend_g);
    *r = t->pend_r;
    *grow = t->pend_grow;
    t->pend_g = NULL;
    t->pend_b = NULL;
    atomic_store_explicit(&t->has_pend, false, memory_order_release);
    *g = publish(t, *r, *grow, done);
    return true;
}

/* The graph for (r, grow), built until until_ns (0: to the end) and published (the caller holds the map's
 * building flag, and has found the key neither published nor refused). A build of another key left by an
 * earlier query is finished and published first (one build at a time per map: its memory is held until
 * then). NULL when the time ran out (the build kept for the next query), when the key is refused, or out
 * of memory (not remembered: a later query may have the memory). */
static const ap_aa_graph *build_and_publish(ap_aa_table *t, const ap_map *m, double r, double grow, uint64_t until_ns)
{
    for (;;) {
        if (t->pend_g == NULL) {
            const ap_aa_graph *g = published(t, r, grow);
            if (g != NULL || refused(t, r, grow))
                return g;
            /* Not even started when the slots are all taken or a graph the size of the point graph (a
             * disc's is about as large) would not fit: each such query would pay the build for nothing. */
            if (!free_slot(t)) {
                refuse(t, r, grow);
                return NULL;
            }
            if (!disc_room(t) || graph_start(m, r, grow, &t->pend_g, &t->pend_b) != AP_OK)
                return NULL;
            t->pend_r = r;
            t->pend_grow = grow;
            atomic_store_explicit(&t->has_pend, true, memory_order_release);
        }
        double done_r, done_grow;
        const ap_aa_graph *g;
        if (!pending_run(t, until_ns, &done_r, &done_grow, &g))
            return NULL;
        if (done_r == r && done_grow == grow)
            return g;
        if (ap_deadline_passed(until_ns))
            return NULL;
    }
}

/* The kind's pending and work hooks (tables.h): a disc's or turning unit's graph left unfinished by its
 * queries, finished off the query path (the server's table work, server/tablework.h). */
static bool table_pending(const void *data)
{
    const ap_aa_table *t = data;
    return atomic_load_explicit(&t->has_pend, memory_order_acquire);
}

static int table_work(const ap_map *m, void *data, uint64_t until_ns)
{
    (void)m;
    ap_aa_table *t = data;
    if (!ap_flag_take_until(&t->building, until_ns))
        return table_pending(t) ? AP_IN_PROGRESS : AP_OK;
    if (t->pend_g != NULL) {
        double r, grow;
        const ap_aa_graph *g;
        (void)pending_run(t, until_ns, &r, &grow, &g);
    }
    atomic_flag_clear_explicit(&t->building, memory_order_release);
    return table_pending(t) ? AP_IN_PROGRESS : AP_OK;
}
