/* tablework.h — table builds finished off the query path.
 *
 * A map table built on first use (the any_angle graphs of discs and turning units, a sized unit's JPS+
 * tables) is built in the time its queries can spare (planner/search/search.h ap_build_until) and left
 * unfinished when that runs out (planner/world/tables.h ap_map_tables_pending). Without more, it would be done
 * only once enough queries of the map had spent its build time: with 100 ms deadlines some 37 queries for
 * a turning unit's graph on Aftershock, minutes when queries are sparse. After each answer the server
 * offers the query's map version here; one with an unfinished build is queued (a reference held) and its
 * builds are resumed on the libuv pool in slices of AP_TABLEWORK_SLICE_NS (ap_map_tables_work), one slice
 * in the pool at a time, versions taking turns, until nothing is left or the version is no longer its
 * map's current one; so the table is ready about its build time after the first query, whatever comes
 * next. A slice holds a pool worker for up to 10 ms
 * (longer when one step of a build is: a landmark's Dijkstra run on Paris_1_1024's disc graph, 20-40 ms),
 * as a slow-lane slice does.
 *
 * Threads: every function runs on the loop thread (the lanes' loop); the slices on pool threads.
 * Caller-owned struct; no globals.
 */
#ifndef AP_SERVER_TABLEWORK_H
#define AP_SERVER_TABLEWORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "metrics.h"
#include "registry.h"

/* A slice of table work on the pool (ns) and the most map versions waiting for one (more are not queued:
 * their builds go on in their queries, as without this module). */
#define AP_TABLEWORK_SLICE_NS 10000000ull
#define AP_TABLEWORK_MAX 16

typedef struct ap_tablework {
    uv_loop_t *loop;
    ap_registry *reg;        /* borrowed: a version no longer current (replaced, patched, deleted) is dropped */
    ap_metrics *metrics;     /* borrowed, NULL = none: arcpath_table_work_slices_total, arcpath_table_work_maps */
    int pool_nice;           /* the pool threads' nice increment (config pool_nice), set by the first slice */
    uv_work_t req;
    ap_map_version *queue[AP_TABLEWORK_MAX]; /* versions with unfinished builds, each with a reference held */
    size_t n;
    ap_map_version *running; /* the version whose slice is in the pool (out of the queue), or NULL */
    int running_st;          /* the slice's ap_map_tables_work result (pool thread, read after it) */
    bool stopped;            /* ap_tablework_stop: nothing is queued or started any more */
    uint64_t slices;         /* slices run so far */
} ap_tablework;

/* Initialise w on loop for the maps of reg (borrowed; must outlive w), reporting to metrics (borrowed, NULL
 * = none); a pool thread that runs a slice is set up as a search's is (poolthread.h: lowered by pool_nice,
 * 0..19, config key pool_nice). Returns 0. */
int ap_tablework_init(ap_tablework *w, uv_loop_t *loop, ap_registry *reg, ap_metrics *metrics, int pool_nice);

/* After an answer on version v (NULL and circle maps: nothing): when v's map has an unfinished table build
 * and v is neither queued nor running, take a reference and queue it, and start a slice when none is in
 * the pool. Cheap when nothing is pending (one atomic load per table). */
void ap_tablework_offer(ap_tablework *w, ap_map_version *v);

/* Stop: release the queued versions and start no more slices; a slice in the pool ends and releases its
 * version (the loop runs until then). Idempotent. */
void ap_tablework_stop(ap_tablework *w);

#endif
