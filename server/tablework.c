/* tablework.c — table builds finished off the query path (tablework.h). */
#include "tablework.h"

#include "../planner/base/status.h"
#include "../planner/search/search.h"
#include "../planner/world/tables.h"
#include "poolthread.h"

int ap_tablework_init(ap_tablework *w, uv_loop_t *loop, ap_registry *reg, ap_metrics *metrics, int pool_nice)
{
    *w = (ap_tablework){.loop = loop, .reg = reg, .metrics = metrics, .pool_nice = pool_nice};
    w->req.data = w;
    return 0;
}

static void start_next(ap_tablework *w);

/* Pool thread: one slice of the version's table work. */
static void slice_run(uv_work_t *req)
{
    ap_tablework *w = req->data;
    ap_pool_thread_setup(w->pool_nice); /* a thread that only ever runs table work is lowered too */
    w->running_st = ap_map_tables_work(w->running->map, ap_clock_ns() + AP_TABLEWORK_SLICE_NS);
}

/* Is v its map's current version (not replaced, patched or deleted since)? */
static bool current(ap_tablework *w, ap_map_version *v)
{
    ap_map_version *cur = ap_registry_acquire(w->reg, ap_map_version_id(v));
    ap_map_version_release(cur);
    return cur == v;
}

/* Loop thread: the slice ended. A version with work left goes to the back of the queue (versions take
 * turns) while it is current; then the next slice. */
static void slice_done(uv_work_t *req, int status)
{
    ap_tablework *w = req->data;
    ap_map_version *v = w->running;
    w->running = NULL;
    w->slices++;
    if (status == 0 && w->running_st == AP_IN_PROGRESS && !w->stopped && w->n < AP_TABLEWORK_MAX && current(w, v))
        w->queue[w->n++] = v;
    else
        ap_map_version_release(v);
    start_next(w);
}

/* The figures for /metrics: slices so far, versions held (queued or running). */
static void report(const ap_tablework *w)
{
    if (w->metrics != NULL)
        ap_metrics_set_table_work(w->metrics, w->slices, (int64_t)w->n + (w->running != NULL));
}

static void start_next(ap_tablework *w)
{
    if (w->running == NULL && w->n > 0 && !w->stopped) {
        w->running = w->queue[0];
        w->n--;
        for (size_t i = 0; i < w->n; i++)
            w->queue[i] = w->queue[i + 1];
        if (uv_queue_work(w->loop, &w->req, slice_run, slice_done) != 0) {
            ap_map_version_release(w->running); /* not expected: the work goes on in its queries */
            w->running = NULL;
        }
    }
    report(w);
}

void ap_tablework_offer(ap_tablework *w, ap_map_version *v)
{
    if (w->stopped || v == NULL || v->kind != AP_MAP_KIND_GRID || !ap_map_tables_pending(v->map))
        return;
    if (v == w->running)
        return;
    for (size_t i = 0; i < w->n; i++)
        if (w->queue[i] == v)
            return;
    if (w->n == AP_TABLEWORK_MAX)
        return;
    w->queue[w->n++] = ap_map_version_hold(v); /* the caller holds one: v is alive */
    start_next(w);
}

void ap_tablework_stop(ap_tablework *w)
{
    w->stopped = true;
    for (size_t i = 0; i < w->n; i++)
        ap_map_version_release(w->queue[i]);
    w->n = 0;
    report(w);
}
