/* test_lifecycle.c — the map-lifecycle thread: uploads, tile updates and reloads as tasks (outcomes,
 * versions, errors with where), and a rescan asked for while one is queued folded into it. */
#include "tests/check_fast.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "planner/base/status.h"
#include "proto/errors.h"
#include "server/lifecycle.h"

Suite *lifecycle_suite(void);

/* A task's end, waited for by the test. */
typedef struct waiter {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool done;
    bool hold;      /* the done hook waits until the test clears it */
} waiter;

static waiter w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, false};

static void on_done(ap_lc_task *t, void *arg)
{
    (void)t;
    waiter *x = arg;
    pthread_mutex_lock(&x->mu);
    x->done = true;
    pthread_cond_broadcast(&x->cv);
    while (x->hold)
        pthread_cond_wait(&x->cv, &x->mu);
    pthread_mutex_unlock(&x->mu);
}

/* Submit t and wait for its end. */
static void run(ap_lifecycle *lc, ap_lc_task *t)
{
    t->done = on_done;
    t->arg = &w;
    w.done = false;
    ck_assert_int_eq(ap_lifecycle_submit(lc, t), AP_OK);
    pthread_mutex_lock(&w.mu);
    while (!w.done)
        pthread_cond_wait(&w.cv, &w.mu);
    pthread_mutex_unlock(&w.mu);
}

static ap_lc_task task(ap_lc_op op, const char *id, const char *body)
{
    ap_lc_task t;
    memset(&t, 0, sizeof t);
    t.op = op;
    snprintf(t.id, sizeof t.id, "%s", id);
    t.body = body;
    t.len = body ? strlen(body) : 0;
    return t;
}

START_TEST(tasks)
{
    char dir[] = "/tmp/ap-lifecycle-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ap_registry reg;
    ck_assert_int_eq(ap_registry_load(&reg, dir, NULL, 0, stderr), AP_OK);
    ap_lifecycle lc;
    ck_assert_int_eq(ap_lifecycle_start(&lc, &reg, dir, NULL, stderr), AP_OK);

    ap_lc_task t = task(AP_LC_PUT, "m", "type octile\nheight 2\nwidth 3\nmap\n...\n...\n");
    run(&lc, &t);
    ck_assert_int_eq(t.status, AP_OK);
    ck_assert(!t.replaced);
    ck_assert_uint_eq(t.ver->version, 1);
    ck_assert_int_eq(t.ver->map->passable_cells, 6);
    ap_map_version_release(t.ver);

    t = task(AP_LC_PUT, "m", "type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n");
    run(&lc, &t);
    ck_assert_int_eq(t.status, AP_E_BAD_MAP);
    ck_assert_int_eq(t.diag.line, 6);
    ck_assert_int_eq(t.diag.col, 2);
    ck_assert_ptr_null(t.ver);

    /* PATCH: a copy with the cells changed; a cell off the map changes nothing */
    static const ap_cell_edit wall[] = {{1, 0, '@'}, {1, 1, 'T'}};
    t = task(AP_LC_PATCH, "m", NULL);
    t.cells = wall;
    t.n_cells = 2;
    run(&lc, &t);
    ck_assert_int_eq(t.status, AP_OK);
    ck_assert(t.replaced);
    ck_assert_uint_eq(t.ver->version, 2);
    ck_assert_int_eq(t.ver->map->passable_cells, 4);
    ck_assert_int_eq(t.ver->map->terrain[1], '@');
    ck_assert_int_eq(t.ver->map->terrain[3 + 1], 'T');
    ap_map_version_release(t.ver);
    static const ap_cell_edit off[] = {{0, 0, '.'}, {3, 0, '.'}};
    t = task(AP_LC_PATCH, "m", NULL);
    t.cells = off;
    t.n_cells = 2;
    run(&lc, &t);
    ck_assert_int_eq(t.status, AP_E_INVALID_REQUEST);
    ck_assert_str_eq(t.diag.file, "cells[1]");
    ck_assert_str_eq(t.diag.msg, "the cell is outside the map");
    t = task(AP_LC_PATCH, "none", NULL);
    t.cells = wall;
    t.n_cells = 1;
    run(&lc, &t);
    ck_assert_int_eq(t.status, AP_E_UNKNOWN_MAP);
    ck_assert_str_eq(t.diag.msg, "no map \"none\" is loaded (GET /v1/maps lists them)");

    /* RELOAD: no file, then a file; a loaded map whose file is missing is kept */
    t = task(AP_LC_RELOAD, "f", NULL);
    run(&lc, &t);
    ck_assert_int_eq(t.status, AP_E_UNKNOWN_MAP);
    ck_assert_str_eq(t.diag.msg, "the maps folder has no file f.map or f.circles.json, and no map of that id is loaded");
    char path[512];
    snprintf(path, sizeof path, "%s/f.map", dir);
    FILE *f = fopen(path, "w");
    fputs("type octile\nheight 1\nwidth 1\nmap\n.\n", f);
    fclose(f);
    t = task(AP_LC_RELOAD, "f", NULL);
    run(&lc, &t);
    ck_assert_int_eq(t.status, AP_OK);
    ck_assert(t.ver->src.from_file);
    ap_map_version_release(t.ver);
    t = task(AP_LC_RELOAD, "m", NULL);
    run(&lc, &t);
    ck_assert_int_eq(t.status, AP_E_UNKNOWN_MAP);
    ck_assert_str_eq(t.diag.msg, "the maps folder has no file m.map or m.circles.json; map_version 2 is kept");

    /* A circle map's JSON: a version of kind circles; it has no cells to PATCH; a bad one says where */
    t = task(AP_LC_PUT, "forest", "{\"width\": 8, \"height\": 6, \"circles\": [{\"x\": 4, \"y\": 3, \"r\": 1}]}");
    run(&lc, &t);
    ck_assert_int_eq(t.status, AP_OK);
    ck_assert_int_eq(t.ver->kind, AP_MAP_KIND_CIRCLES);
    ck_assert_uint_eq(ap_circle_world_count(t.ver->circles.world), 1);
    ap_map_version_release(t.ver);
    t = task(AP_LC_PATCH, "forest", NULL);
    t.cells = wall;
    t.n_cells = 1;
    run(&lc, &t);
    ck_assert_int_eq(t.status, AP_E_INVALID_REQUEST);
    ck_assert_str_eq(t.diag.msg, "this map is a circle world: it has no cells");
    t = task(AP_LC_PUT, "forest", "{\"width\": 8,\n \"height\": }");
    run(&lc, &t);
    ck_assert_int_eq(t.status, AP_E_BAD_MAP);
    ck_assert_int_eq(t.diag.line, 2);

    /* Over the workspaces: 413-like, the id unchanged */
    reg.capacity = 10;
    t = task(AP_LC_PUT, "m", "type octile\nheight 2\nwidth 3\nmap\n...\n...\n");
    run(&lc, &t);
    ck_assert_int_eq(t.status, AP_E_MAP_REFUSED);
    ap_map_version *v = ap_registry_acquire(&reg, "m");
    ck_assert_uint_eq(v->version, 2);
    ap_map_version_release(v);

    ap_lifecycle_stop(&lc);
    ck_assert_int_eq(ap_lifecycle_submit(&lc, &t), AP_E_NOT_READY);
    ck_assert(!ap_lifecycle_rescan(&lc));
    ap_registry_free(&reg);
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(rescan_coalesced)
{
    char dir[] = "/tmp/ap-lifecycle-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ap_registry reg;
    ck_assert_int_eq(ap_registry_load(&reg, dir, NULL, 0, stderr), AP_OK);
    ap_lifecycle lc;
    ck_assert_int_eq(ap_lifecycle_start(&lc, &reg, dir, NULL, stderr), AP_OK);
    /* Hold the thread inside a task's done hook: rescans asked for meanwhile stay queued. */
    w.hold = true;
    ap_lc_task t = task(AP_LC_RELOAD, "x", NULL);
    run(&lc, &t);
    ck_assert(ap_lifecycle_rescan(&lc));
    ck_assert(!ap_lifecycle_rescan(&lc)); /* folded into the queued one */
    ck_assert(!ap_lifecycle_rescan(&lc));
    pthread_mutex_lock(&w.mu);
    w.hold = false;
    pthread_cond_broadcast(&w.cv);
    pthread_mutex_unlock(&w.mu);
    /* up to 30 s (a rescan of an empty folder takes microseconds, but a loaded CI host may stall a thread
     * for a second) */
    for (int i = 0; i < 30000 && atomic_load(&lc.rescans) == 0; i++)
        usleep(1000);
    ck_assert_uint_eq(atomic_load(&lc.rescans), 1);
    ap_lifecycle_stop(&lc);
    ck_assert_uint_eq(atomic_load(&lc.rescans), 1); /* only one ran */
    ap_registry_free(&reg);
    rmdir(dir);
}
END_TEST

Suite *lifecycle_suite(void)
{
    Suite *s = suite_create("server/lifecycle");
    TCase *tc = tcase_create("lifecycle");
    tcase_add_test(tc, tasks);
    tcase_add_test(tc, rescan_coalesced);
    suite_add_tcase(s, tc);
    return s;
}
