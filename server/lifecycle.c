/* lifecycle.c — the map-lifecycle thread: a FIFO of tasks and a coalesced rescan flag under one mutex. */
#include "lifecycle.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../planner/base/clock.h"
#include "../planner/base/status.h"
#include "../planner/world/patch.h"
#include "../proto/errors.h"

/* The loader's status as the lifecycle routes answer it: a bad file is the client's (400 map_format), a
 * map over the limits 413 map_too_large. */
static int client_status(int st)
{
    switch (st) {
    case AP_E_MAP_FORMAT:
    case AP_E_IO:
        return AP_E_BAD_MAP;
    case AP_E_MAP_TOO_LARGE:
        return AP_E_MAP_REFUSED;
    default:
        return st;
    }
}

/* t refused with 409 map_limit (a new id while the registry is full): nothing changed. */
static void map_limit(ap_lifecycle *lc, ap_lc_task *t)
{
    t->status = AP_E_MAP_LIMIT;
    ap_registry_limit_message(t->diag.msg, sizeof t->diag.msg, lc->reg, t->id);
}

/* Publish m (owned; NULL: the circle map c, whose world is owned) as id's next version and fill t's outcome;
 * log the change. base > 0: m is an edit of version base, published only while that is still current. */
static void publish(ap_lifecycle *lc, ap_lc_task *t, ap_map *m, const ap_circle_map *c, const ap_map_source *src,
                    uint64_t base, const char *how)
{
    uint64_t version = 0;
    int st = ap_registry_publish_if(lc->reg, m, c, src, base, t->cond, &version, &t->replaced);
    if (st == AP_E_PRECONDITION_FAILED) {
        t->status = st;
        return;
    }
    if (st == AP_E_UNKNOWN_MAP) {
        t->status = AP_E_UNKNOWN_MAP;
        snprintf(t->diag.msg, sizeof t->diag.msg,
                 "the map was deleted while the edits were being applied: nothing was changed");
        return;
    }
    if (st == AP_E_MAP_TOO_LARGE) {
        t->status = AP_E_MAP_REFUSED;
        snprintf(t->diag.msg, sizeof t->diag.msg,
                 "the map has more nodes, (width + 2) * (height + 2), than the search workspaces hold "
                 "(max_workspace_cells: %u)",
                 (unsigned)lc->reg->capacity);
        return;
    }
    if (st == AP_E_MAP_LIMIT) {
        map_limit(lc, t);
        return;
    }
    if (st != AP_OK) {
        t->status = st;
        return;
    }
    t->ver = ap_registry_acquire(lc->reg, t->id);
    /* A DELETE may have removed it already: the answer still names what was published. */
    t->status = AP_OK;
    fprintf(lc->log, "arcpathd: map %s: %s, map_version %llu\n", t->id, how, (unsigned long long)version);
    if (t->ver == NULL) {
        t->status = AP_E_UNKNOWN_MAP;
        snprintf(t->diag.msg, sizeof t->diag.msg, "the map was deleted while it was being built");
    }
}

/* Does t's condition (none: true) hold for id's current version now? On false t is refused with
 * AP_E_PRECONDITION_FAILED (cond->seen set). A cheap look before the parse and the table builds it would
 * waste; the publish checks again under the registry's lock. */
static bool cond_now(ap_lifecycle *lc, ap_lc_task *t)
{
    if (ap_registry_cond_holds(lc->reg, t->id, t->cond))
        return true;
    t->status = AP_E_PRECONDITION_FAILED;
    return false;
}

/* True when the file starts (after blanks) with '{': a circle map's JSON, not a Moving AI grid. */
static bool is_json(const char *buf, size_t len)
{
    size_t i = 0;
    while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
        i++;
    return i < len && buf[i] == '{';
}

static void run_put(ap_lifecycle *lc, ap_lc_task *t)
{
    if (ap_registry_full_for(lc->reg, t->id)) { /* before the parse and the table builds it would waste */
        map_limit(lc, t);
        return;
    }
    if (!cond_now(lc, t)) /* (after map_limit: preconditions are not asked where the answer is no 2xx) */
        return;
    const char *body = t->body ? t->body : "";
    char label[AP_MAP_ID_MAX + 16];
    if (is_json(body, t->len)) {
        snprintf(label, sizeof label, "%s%s", t->id, AP_CIRCLES_SUFFIX);
        ap_circle_map c = {.world = NULL, .meters_per_tile = ap_map_scale_of(&lc->opts, t->id)};
        snprintf(c.id, sizeof c.id, "%s", t->id);
        double t0 = ap_monotonic_seconds();
        int st = ap_circles_parse(label, body, t->len, &c.world, &t->diag);
        c.load_seconds = ap_monotonic_seconds() - t0;
        if (st != AP_OK) {
            t->status = client_status(st);
            return;
        }
        publish(lc, t, NULL, &c, NULL, 0, "uploaded (circle map)");
        return;
    }
    ap_map *m = NULL;
    snprintf(label, sizeof label, "%s.map", t->id);
    int st = ap_map_parse(t->id, label, body, t->len, &lc->opts, &m, &t->diag);
    if (st != AP_OK) {
        t->status = client_status(st);
        return;
    }
    publish(lc, t, m, NULL, NULL, 0, "uploaded");
}

static void run_reload(ap_lifecycle *lc, ap_lc_task *t)
{
    char path[sizeof lc->maps_dir + AP_MAP_ID_MAX + 32];
    snprintf(path, sizeof path, "%s/%s.map", lc->maps_dir, t->id);
    struct stat sb;
    bool circles = false;
    /* No grid file that opens (none, a dangling link, or a directory or FIFO of that name): a circle map? As
     * the folder's scan at start, which reports such a <id>.map and still loads <id>.circles.json (a SIGHUP
     * rescan differs where the id holds a version of its grid file: that failed file keeps it, and the
     * circles are skipped as shadowed; the reload asked for by name loads them). Without either, the thing
     * named <id>.map is there (lstat), and its load says why it is no map file (400, as the scan reports
     * it), where stat alone answered "no file" (404, a maploader helper). */
    const bool grid_named = lstat(path, &sb) == 0 || errno != ENOENT;
    const int got = stat(path, &sb);
    if ((got != 0 && errno == ENOENT) || (got == 0 && !S_ISREG(sb.st_mode))) {
        char cpath[sizeof path];
        snprintf(cpath, sizeof cpath, "%s/%s%s", lc->maps_dir, t->id, AP_CIRCLES_SUFFIX);
        circles = lstat(cpath, &sb) == 0 || errno != ENOENT;
        if (circles || !grid_named)
            snprintf(path, sizeof path, "%s", cpath);
    }
    if (!circles && !grid_named) {
        ap_map_version *cur = ap_registry_acquire(lc->reg, t->id);
        t->status = AP_E_UNKNOWN_MAP;
        if (cur != NULL)
            snprintf(t->diag.msg, sizeof t->diag.msg,
                     "the maps folder has no file %s.map or %s%s; map_version %llu is kept", t->id, t->id,
                     AP_CIRCLES_SUFFIX, (unsigned long long)cur->version);
        else
            snprintf(t->diag.msg, sizeof t->diag.msg,
                     "the maps folder has no file %s.map or %s%s, and no map of that id is loaded", t->id,
                     t->id, AP_CIRCLES_SUFFIX);
        ap_map_version_release(cur);
        return;
    }
    if (ap_registry_full_for(lc->reg, t->id)) {
        map_limit(lc, t);
        return;
    }
    if (!cond_now(lc, t))
        return;
    ap_map_source src;
    ap_map_source_of(path, &src);
    ap_map *m = NULL;
    ap_circle_map c;
    int st = circles ? ap_circle_map_load(path, &lc->opts, &c, &t->diag) : ap_map_load(path, &lc->opts, &m, &t->diag);
    if (st != AP_OK) {
        t->status = client_status(st);
        ap_registry_report(lc->log, path, t->diag.line, t->diag.col, t->diag.msg);
        return;
    }
    publish(lc, t, m, circles ? &c : NULL, &src, 0, "reloaded from its file");
}

static void run_patch(ap_lifecycle *lc, ap_lc_task *t)
{
    ap_map_version *cur = ap_registry_acquire(lc->reg, t->id);
    if (cur == NULL || cur->kind != AP_MAP_KIND_GRID) {
        t->status = cur == NULL ? AP_E_UNKNOWN_MAP : AP_E_INVALID_REQUEST;
        if (cur != NULL)
            snprintf(t->diag.msg, sizeof t->diag.msg, "this map is a circle world: it has no cells");
        else
            ap_error_unknown_map_message(t->diag.msg, sizeof t->diag.msg, t->id);
        ap_map_version_release(cur);
        return;
    }
    if (!cond_now(lc, t)) { /* (the publish asks again, over base) */
        ap_map_version_release(cur);
        return;
    }
    const uint64_t base = cur->version;
    if (!ap_map_patch_changes(cur->map, t->cells, t->n_cells)) { /* the answer is that version: none is made */
        t->ver = cur;                                              /* (our reference, handed over) */
        t->replaced = true;
        t->status = AP_OK;
        fprintf(lc->log, "arcpathd: map %s: cells unchanged (every edit names the letter the cell has), map_version "
                "%llu kept\n", t->id, (unsigned long long)base);
        return;
    }
    ap_map *next = NULL;
    int st = ap_map_patch(cur->map, t->cells, t->n_cells, &next, &t->diag);
    ap_map_version_release(cur);
    if (st != AP_OK) {
        t->status = client_status(st);
        return;
    }
    publish(lc, t, next, NULL, NULL, base, "cells updated");
}

void ap_lifecycle_run(ap_lifecycle *lc, ap_lc_task *t)
{
    t->status = AP_E_INTERNAL;
    t->ver = NULL;
    t->replaced = false;
    memset(&t->diag, 0, sizeof t->diag);
    switch (t->op) {
    case AP_LC_PUT: run_put(lc, t); break;
    case AP_LC_RELOAD: run_reload(lc, t); break;
    case AP_LC_PATCH: run_patch(lc, t); break;
    }
    t->done(t, t->arg);
}

static void rescan(ap_lifecycle *lc)
{
    ap_rescan_counts c;
    fprintf(lc->log, "arcpathd: SIGHUP: reloading the maps folder %s\n", lc->maps_dir);
    ap_registry_rescan_until(lc->reg, lc->maps_dir, &lc->opts, lc->log, &c, &lc->quit);
    fprintf(lc->log, "arcpathd: reload done: %d added, %d replaced, %d removed, %d unchanged, %d errors\n", c.added,
            c.replaced, c.removed, c.unchanged, c.errors);
    fflush(lc->log);
    atomic_fetch_add(&lc->rescan_errors, (unsigned)c.errors);
    atomic_fetch_add(&lc->rescans, 1);
}

static void *lifecycle_main(void *arg)
{
    ap_lifecycle *lc = arg;
    pthread_mutex_lock(&lc->mu);
    for (;;) {
        while (!lc->stop && lc->head == NULL && !lc->rescan_queued)
            pthread_cond_wait(&lc->cv, &lc->mu);
        if (lc->stop)
            break;
        ap_lc_task *t = lc->head;
        if (t != NULL) {
            lc->head = t->next;
            if (lc->head == NULL)
                lc->tail = NULL;
            pthread_mutex_unlock(&lc->mu);
            ap_lifecycle_run(lc, t);
        } else {
            lc->rescan_queued = false;
            pthread_mutex_unlock(&lc->mu);
            rescan(lc);
        }
        pthread_mutex_lock(&lc->mu);
    }
    /* Stopping: whatever is queued ends unanswered by a build. */
    ap_lc_task *t = lc->head;
    lc->head = lc->tail = NULL;
    pthread_mutex_unlock(&lc->mu);
    while (t != NULL) {
        ap_lc_task *next = t->next;
        memset(&t->diag, 0, sizeof t->diag);
        t->ver = NULL;
        t->status = AP_E_NOT_READY;
        t->done(t, t->arg);
        t = next;
    }
    return NULL;
}

int ap_lifecycle_start(ap_lifecycle *lc, ap_registry *reg, const char *maps_dir, const ap_map_opts *opts, FILE *log)
{
    memset(lc, 0, sizeof *lc);
    lc->reg = reg;
    snprintf(lc->maps_dir, sizeof lc->maps_dir, "%s", maps_dir);
    if (opts != NULL)
        lc->opts = *opts;
    lc->log = log ? log : stderr;
    atomic_init(&lc->rescans, 0);
    atomic_init(&lc->rescan_errors, 0);
    atomic_init(&lc->quit, false);
    pthread_mutex_init(&lc->mu, NULL);
    pthread_cond_init(&lc->cv, NULL);
    if (pthread_create(&lc->thread, NULL, lifecycle_main, lc) != 0) {
        pthread_mutex_destroy(&lc->mu);
        pthread_cond_destroy(&lc->cv);
        return AP_E_NOMEM;
    }
    lc->started = true;
    return AP_OK;
}

int ap_lifecycle_submit(ap_lifecycle *lc, ap_lc_task *t)
{
    pthread_mutex_lock(&lc->mu);
    if (!lc->started || lc->stop) {
        pthread_mutex_unlock(&lc->mu);
        return AP_E_NOT_READY;
    }
    t->next = NULL;
    if (lc->tail)
        lc->tail->next = t;
    else
        lc->head = t;
    lc->tail = t;
    pthread_cond_signal(&lc->cv);
    pthread_mutex_unlock(&lc->mu);
    return AP_OK;
}

bool ap_lifecycle_rescan(ap_lifecycle *lc)
{
    pthread_mutex_lock(&lc->mu);
    bool queued = lc->started && !lc->stop && !lc->rescan_queued;
    if (queued) {
        lc->rescan_queued = true;
        pthread_cond_signal(&lc->cv);
    }
    pthread_mutex_unlock(&lc->mu);
    return queued;
}

void ap_lifecycle_stop(ap_lifecycle *lc)
{
    if (!lc->started)
        return;
    atomic_store(&lc->quit, true);
    pthread_mutex_lock(&lc->mu);
    lc->stop = true;
    pthread_cond_signal(&lc->cv);
    pthread_mutex_unlock(&lc->mu);
    pthread_join(lc->thread, NULL);
    pthread_mutex_destroy(&lc->mu);
    pthread_cond_destroy(&lc->cv);
    lc->started = false;
}
