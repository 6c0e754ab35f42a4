/* lifecycle.h — the map-lifecycle thread: every new map version (an uploaded file, a reload from disk, a
 * folder rescan on SIGHUP, a tile update) is parsed and gets its tables built here, off the HTTP threads
 * and off the libuv loop and pool (a 4096 x 4096 map's tables take seconds), then is published in the
 * registry (server/registry.h) with one pointer swap.
 *
 * Threads: ap_lifecycle_submit and ap_lifecycle_rescan may be called from any thread (the HTTP threads
 * submit tasks for suspended requests; the loop thread asks for a rescan on SIGHUP). Tasks run one at a
 * time in submission order, so two changes of one map never race; a rescan asked for while one is queued
 * is coalesced with it, and one asked for while one runs runs once more afterwards (the folder may have
 * changed after the running one listed it).
 */
#ifndef AP_SERVER_LIFECYCLE_H
#define AP_SERVER_LIFECYCLE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../planner/world/map.h"
#include "../proto/cells.h"
#include "registry.h"

typedef enum ap_lc_op {
    AP_LC_PUT = 1, /* body/len: a Moving AI map file, or a circle map (a body starting with '{'); publish it
                    * as id's next version */
    AP_LC_RELOAD,  /* read <maps dir>/<id>.map (else <id>.circles.json) again and publish it */
    AP_LC_PATCH,   /* copy id's current grid, apply cells[0, n_cells), publish the copy */
} ap_lc_op;

typedef struct ap_lc_task ap_lc_task;
struct ap_lc_task {
    /* --- input --- */
    ap_lc_op op;
    char id[AP_MAP_ID_MAX];     /* a valid map id (ap_map_id_valid) */
    const char *body;           /* AP_LC_PUT: the file, borrowed until done */
    size_t len;
    const ap_cell_edit *cells;  /* AP_LC_PATCH: borrowed until done (proto/cells.h) */
    size_t n_cells;
    ap_registry_cond *cond;     /* NULL, or the request's If-Match / If-None-Match on id's current version:
                                 * checked before the work and again, atomically, at the publish */
    void (*done)(ap_lc_task *t, void *arg); /* called once on the lifecycle thread when the task ends */
    void *arg;
    /* --- output, valid in done --- */
    int status;        /* AP_OK; AP_E_BAD_MAP (diag: line, column, message), AP_E_MAP_REFUSED (diag.msg),
                        * AP_E_UNKNOWN_MAP (diag.msg may say more), AP_E_INVALID_REQUEST (a bad cell:
                        * diag.msg, field in diag.file), AP_E_PRECONDITION_FAILED (cond did not hold:
                        * cond->seen), AP_E_NOT_READY (shutting down), AP_E_NOMEM */
    ap_diag diag;
    bool replaced;     /* AP_OK: id had a current version, now released */
    ap_map_version *ver; /* AP_OK: the published version with one reference for done (release it) */
    /* --- private --- */
    ap_lc_task *next;
};

typedef struct ap_lifecycle {
    ap_registry *reg;
    char maps_dir[1024];
    ap_map_opts opts;  /* borrowed arrays (terrain, capabilities) must outlive the thread */
    FILE *log;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    ap_lc_task *head, *tail;
    bool rescan_queued, stop;
    atomic_bool quit;          /* set by ap_lifecycle_stop before it waits: a rescan running stops after its file */
    bool started;
    pthread_t thread;
    atomic_uint rescans;       /* rescans finished (for tests, logs and arcpath_map_rescans_total) */
    atomic_uint rescan_errors; /* errors those rescans counted (files that did not load, an unreadable or
                                * emptied folder): arcpath_map_rescan_errors_total */
} ap_lifecycle;

/* Start the thread. maps_dir is copied; opts is copied (its arrays borrowed); log gets one line per change
 * and error (stderr when NULL). Returns AP_OK or AP_E_NOMEM (no thread). Main thread. */
int ap_lifecycle_start(ap_lifecycle *lc, ap_registry *reg, const char *maps_dir, const ap_map_opts *opts, FILE *log);

/* Queue t (its input filled). Returns AP_OK (done will be called once, on the lifecycle thread, possibly
 * before this returns) or AP_E_NOT_READY when the thread is stopping (t untouched). Any thread. */
int ap_lifecycle_submit(ap_lifecycle *lc, ap_lc_task *t);

/* Ask for a rescan of the maps folder (ap_registry_rescan). Returns true when one was queued, false when
 * it was coalesced with one already queued (or the thread is stopping). Any thread. */
bool ap_lifecycle_rescan(ap_lifecycle *lc);

/* Run one task on the calling thread (what the lifecycle thread does with it; done is called). For tests
 * and for the thread itself. Outputs and their ownership as ap_lc_task says (t->ver holds one reference for
 * done). Takes no lock: not concurrently with the lifecycle thread's own tasks (the one-at-a-time order is the
 * caller's then). */
void ap_lifecycle_run(ap_lifecycle *lc, ap_lc_task *t);

/* Stop: the task in progress finishes (a rescan after the file it is loading: ap_registry_rescan_until),
 * queued ones end with AP_E_NOT_READY, a queued rescan is dropped; joins the thread. Safe on a stopped or never started lc (zeroed). Main/loop thread. */
void ap_lifecycle_stop(ap_lifecycle *lc);

#endif
