/* test_registry.c — a directory with two good tiny maps, three bad ones and three special files named *.map. */
#include "tests/check_fast.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "planner/base/status.h"
#include "server/registry.h"

Suite *registry_suite(void);

/* The current map of id, or NULL; the reference is dropped at once (single-threaded tests: nothing else
 * changes the registry meanwhile). */
static const ap_map *ap_registry_find(ap_registry *r, const char *id)
{
    ap_map_version *v = ap_registry_acquire(r, id);
    ap_map_version_release(v);
    return v ? v->map : NULL;
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void remove_dir(const char *dir, const char *const *names, size_t n)
{
    char path[512];
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* The error line for file name, or NULL. */
static const char *error_line(const char *log, const char *name)
{
    for (const char *p = log; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        const char *eol = strchr(p, '\n');
        const char *hit = strstr(p, name);
        if (hit && (!eol || hit < eol))
            return p;
    }
    return NULL;
}

/* Parse "arcpathd: map error: FILE:LINE:COL: MESSAGE" (want_line > 0) or "arcpathd: map error: FILE: MESSAGE"
 * (want_line 0: the whole file, no place in it) and check FILE ends with name. */
static void check_diag(const char *log, const char *name, int want_line)
{
    const char *p = error_line(log, name);
    ck_assert_msg(p != NULL, "no error reported for %s:\n%s", name, log);
    const char *prefix = "arcpathd: map error: ";
    ck_assert_msg(strncmp(p, prefix, strlen(prefix)) == 0, "bad prefix: %s", p);
    const char *after = strstr(p, name) + strlen(name);
    int line = 0, col = 0, used = 0;
    if (want_line == 0) {
        ck_assert_msg(strncmp(after, ": ", 2) == 0, "a place in the file in %s", p);
        used = 2;
    } else {
        ck_assert_msg(sscanf(after, ":%d:%d: %n", &line, &col, &used) == 2 && used > 0, "no :LINE:COL: in %s", p);
        ck_assert_int_ge(col, 1);
    }
    ck_assert_msg(line == want_line, "%s: line %d, want %d", name, line, want_line);
    ck_assert(after[used] != '\n' && after[used] != '\0'); /* a message follows */
}

/* ap_registry_load with its log in *log (free it). */
static int load_logged(ap_registry *r, const char *dir, const ap_map_opts *opts, size_t max_maps, char **log)
{
    size_t len = 0;
    *log = NULL;
    FILE *f = open_memstream(log, &len);
    ck_assert_ptr_nonnull(f);
    const int st = ap_registry_load(r, dir, opts, max_maps, f);
    fclose(f);
    return st;
}

START_TEST(test_load_dir)
{
    char dir[] = "/tmp/ap-registry-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const char *names[] = {"b_good.map", "a_good.map", "c_badheader.map", "d_shortrow.map", "e_badchar.map",
                           "notes.txt", "f_fifo.map", "h_dangling.map"};
    write_file(dir, "b_good.map", "type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n");
    write_file(dir, "a_good.map", "type octile\nheight 4\nwidth 5\nmap\n.....\n.@@@.\n.....\n.....\n");
    write_file(dir, "c_badheader.map", "type octile\nheigth 2\nwidth 3\nmap\n...\n...\n");
    write_file(dir, "d_shortrow.map", "type octile\nheight 2\nwidth 3\nmap\n...\n..\n");
    write_file(dir, "e_badchar.map", "type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n");
    write_file(dir, "notes.txt", "not a map\n");
    /* files named *.map that are not maps at all: reported, not skipped in silence */
    char special[512];
    snprintf(special, sizeof special, "%s/f_fifo.map", dir);
    ck_assert_int_eq(mkfifo(special, 0600), 0);
    snprintf(special, sizeof special, "%s/g_dir.map", dir);
    ck_assert_int_eq(mkdir(special, 0700), 0);
    snprintf(special, sizeof special, "%s/h_dangling.map", dir);
    ck_assert_int_eq(symlink("/nonexistent/arcpath-test.map", special), 0);

    char *log = NULL;
    ap_registry r;
    ck_assert_int_eq(load_logged(&r, dir, NULL, 0, &log), AP_OK);

    ck_assert_uint_eq(r.n, 2);
    ck_assert_int_eq(r.errors, 6);
    ap_map_version **vs = NULL;
    size_t nv = 0;
    ck_assert_int_eq(ap_registry_snapshot(&r, &vs, &nv), AP_OK);
    ck_assert_uint_eq(nv, 2);
    ck_assert_str_eq(vs[0]->map->id, "a_good"); /* sorted by id */
    ck_assert_str_eq(vs[1]->map->id, "b_good");
    ck_assert_uint_eq(vs[0]->version, 1);
    ck_assert(vs[0]->src.from_file);
    ck_assert_int_eq(vs[0]->src.size, 57);
    ck_assert_uint_eq(r.max_nodes, (5 + 2) * (4 + 2));

    const ap_map *m = ap_registry_find(&r, "b_good");
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(m->width, 3);
    ck_assert_int_eq(m->height, 2);
    ck_assert_ptr_eq(ap_registry_find(&r, "a_good"), vs[0]->map);
    ap_registry_snapshot_free(vs, nv);
    ck_assert_ptr_null(ap_registry_find(&r, "c_badheader"));
    ck_assert_ptr_null(ap_registry_find(&r, "zzz"));
    ck_assert_ptr_null(ap_registry_find(&r, ""));
    ck_assert_ptr_null(ap_registry_find(&r, NULL));

    check_diag(log, "c_badheader.map", 2);
    check_diag(log, "d_shortrow.map", 6);
    check_diag(log, "e_badchar.map", 6);
    check_diag(log, "f_fifo.map", 0);
    ck_assert_ptr_nonnull(strstr(error_line(log, "f_fifo.map"), "not a regular file (a FIFO)"));
    check_diag(log, "g_dir.map", 0);
    ck_assert_ptr_nonnull(strstr(error_line(log, "g_dir.map"), "not a regular file (a directory)"));
    check_diag(log, "h_dangling.map", 0);
    ck_assert_ptr_nonnull(strstr(error_line(log, "h_dangling.map"), "cannot open: No such file or directory"));
    ck_assert_ptr_null(strstr(log, "good.map"));
    ck_assert_ptr_null(strstr(log, "notes.txt"));
    free(log);

    ap_registry_free(&r);
    ck_assert_uint_eq(r.n, 0);
    ck_assert_ptr_null(ap_registry_find(&r, "a_good"));
    snprintf(special, sizeof special, "%s/g_dir.map", dir);
    rmdir(special);
    remove_dir(dir, names, sizeof names / sizeof names[0]);
}
END_TEST

START_TEST(test_missing_dir)
{
    char *log = NULL;
    ap_registry r;
    ck_assert_int_eq(load_logged(&r, "/nonexistent/arcpath-maps", NULL, 0, &log), AP_E_IO);
    ck_assert_uint_eq(r.n, 0);
    ck_assert_int_eq(r.errors, 1);
    ck_assert_ptr_nonnull(strstr(log, "arcpathd: map error: /nonexistent/arcpath-maps: "));
    free(log);
    ap_registry_free(&r);
}
END_TEST

START_TEST(test_empty_dir_and_limits)
{
    char dir[] = "/tmp/ap-registry-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ap_registry r;
    ck_assert_int_eq(ap_registry_load(&r, dir, NULL, 0, stderr), AP_OK);
    ck_assert_uint_eq(r.n, 0);
    ck_assert_int_eq(r.errors, 0);
    ck_assert_uint_eq(r.max_nodes, 0);
    ap_registry_free(&r);

    /* A map over the configured width limit is reported and skipped. */
    const char *names[] = {"wide.map"};
    write_file(dir, "wide.map", "type octile\nheight 1\nwidth 8\nmap\n........\n");
    ap_map_opts lim = {.max_width = 4, .max_height = 4, .max_cells = 16};
    char *log = NULL;
    ck_assert_int_eq(load_logged(&r, dir, &lim, 0, &log), AP_OK);
    ck_assert_uint_eq(r.n, 0);
    ck_assert_int_eq(r.errors, 1);
    ck_assert_ptr_nonnull(strstr(log, "wide.map:"));
    free(log);
    ap_registry_free(&r);
    remove_dir(dir, names, 1);
}
END_TEST


/* Ids ending in ".svg" or ".png" are the map pictures' paths (GET /v1/maps/x.svg): such maps are reported
 * and skipped, at start and by a rescan; an id with ".svg" inside is an ordinary id. */
START_TEST(test_picture_ids_refused)
{
    char dir[] = "/tmp/ap-registry-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const char *names[] = {"x.svg.map", "y.png.map", "a.svgz.map"};
    for (size_t i = 0; i < 3; i++)
        write_file(dir, names[i], "type octile\nheight 1\nwidth 2\nmap\n..\n");
    char *log = NULL;
    ap_registry r;
    ck_assert_int_eq(load_logged(&r, dir, NULL, 0, &log), AP_OK);
    ck_assert_uint_eq(r.n, 1);
    ck_assert_ptr_nonnull(ap_registry_find(&r, "a.svgz"));
    ck_assert_int_eq(r.errors, 2);
    check_diag(log, "x.svg.map", 0);
    check_diag(log, "y.png.map", 0);
    ck_assert_ptr_nonnull(strstr(error_line(log, "x.svg.map"), "ends in .svg or .png"));
    free(log);
    ap_rescan_counts c;
    ck_assert_int_eq(ap_registry_rescan(&r, dir, NULL, NULL, &c), AP_OK);
    ck_assert_int_eq(c.errors, 2);
    ck_assert_int_eq(c.unchanged, 1);
    ck_assert_uint_eq(ap_registry_count(&r), 1);
    ck_assert(ap_registry_picture_id("x.png"));
    ck_assert(!ap_registry_picture_id("x.pngs"));
    ap_registry_free(&r);
    remove_dir(dir, names, 3);
}
END_TEST

/* Circle maps load beside the grids (versions of kind circles): found by id, an id a grid has is a
 * duplicate, a bad file is reported with line and column (syntax) and skipped; a rescan adds, replaces
 * and removes them like grids. */
START_TEST(test_circle_maps)
{
    char dir[] = "/tmp/ap-registry-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const char *names[] = {"a.map", "a.circles.json", "z.circles.json", "b.circles.json", "bad.circles.json"};
    write_file(dir, names[0], "type octile\nheight 1\nwidth 2\nmap\n..\n");
    write_file(dir, names[1], "{\"width\": 4, \"height\": 4, \"circles\": []}");
    write_file(dir, names[2], "{\"width\": 4, \"height\": 4, \"circles\": [{\"x\": 2, \"y\": 2, \"r\": 1}]}");
    write_file(dir, names[3], "{\"width\": 5, \"height\": 4, \"circles\": []}");
    write_file(dir, names[4], "{\"width\": 4,\n\"height\": }");
    char *log = NULL;
    ap_registry r;
    ck_assert_int_eq(load_logged(&r, dir, NULL, 0, &log), AP_OK);
    ck_assert_uint_eq(ap_registry_count(&r), 3);
    ck_assert_int_eq(r.errors, 2);
    ap_map_version *z = ap_registry_acquire(&r, "z");
    ck_assert_int_eq(z->kind, AP_MAP_KIND_CIRCLES);
    ck_assert_str_eq(ap_map_version_id(z), "z");
    ck_assert_uint_eq(z->version, 1);
    ck_assert_uint_eq(ap_circle_world_count(z->circles.world), 1);
    ap_map_version_release(z);
    ap_map_version *a = ap_registry_acquire(&r, "a");
    ck_assert_int_eq(a->kind, AP_MAP_KIND_GRID); /* the grid's id */
    ap_map_version_release(a);
    ck_assert_ptr_nonnull(strstr(log, "a.circles.json: duplicate map id"));
    check_diag(log, "bad.circles.json", 2);
    free(log);

    /* rescan: z changed, b removed; the grid keeps "a" (its circle map is still a duplicate) */
    write_file(dir, names[2], "{\"width\": 6, \"height\": 4, \"circles\": []}");
    char path[512];
    snprintf(path, sizeof path, "%s/b.circles.json", dir);
    unlink(path);
    ap_rescan_counts c;
    ck_assert_int_eq(ap_registry_rescan(&r, dir, NULL, NULL, &c), AP_OK);
    ck_assert_int_eq(c.replaced, 1);
    ck_assert_int_eq(c.removed, 1);
    ck_assert_int_eq(c.unchanged, 1);
    ck_assert_int_eq(c.errors, 2);
    z = ap_registry_acquire(&r, "z");
    ck_assert_uint_eq(z->version, 2);
    ck_assert_double_eq(ap_circle_world_width(z->circles.world), 6.0);
    ap_map_version_release(z);
    ck_assert_ptr_null(ap_registry_acquire(&r, "b"));
    ap_registry_free(&r);
    remove_dir(dir, names, 5);
}
END_TEST

/* A w x h map of '.' called id (ap_map_parse), for the registry tests. */
static ap_map *open_map(const char *id, int w, int h)
{
    char buf[4096];
    int at = snprintf(buf, sizeof buf, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
    for (int y = 0; y < h; y++) {
        memset(buf + at, '.', (size_t)w);
        at += w;
        buf[at++] = '\n';
    }
    ap_map *m = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse(id, id, buf, (size_t)at, NULL, &m, &d), AP_OK);
    return m;
}

START_TEST(test_versions_and_references)
{
    ap_registry r;
    ck_assert_int_eq(ap_registry_init(&r), AP_OK);
    uint64_t ver = 0;
    bool replaced = true;
    ck_assert_int_eq(ap_registry_publish(&r, open_map("x", 3, 3), NULL, &ver, &replaced), AP_OK);
    ck_assert_uint_eq(ver, 1);
    ck_assert(!replaced);
    ck_assert_uint_eq(ap_registry_count(&r), 1);

    /* A holder keeps version 1 alive across a replacement; new lookups see version 2. */
    ap_map_version *v1 = ap_registry_acquire(&r, "x");
    ck_assert_ptr_nonnull(v1);
    ck_assert_uint_eq(v1->version, 1);
    ck_assert(!v1->src.from_file);
    ck_assert_int_eq(ap_registry_publish(&r, open_map("x", 7, 2), NULL, &ver, &replaced), AP_OK);
    ck_assert_uint_eq(ver, 2);
    ck_assert(replaced);
    ck_assert_int_eq(v1->map->width, 3); /* still readable: ASan would catch a use after free */
    ap_map_version *v2 = ap_registry_acquire(&r, "x");
    ck_assert_uint_eq(v2->version, 2);
    ck_assert_int_eq(v2->map->width, 7);
    ap_map_version_release(v1); /* the last reference: version 1 is freed here */

    /* Delete: lookups miss, the holder keeps reading; numbering continues after a delete. */
    ck_assert_int_eq(ap_registry_remove(&r, "x"), AP_OK);
    ck_assert_ptr_null(ap_registry_acquire(&r, "x"));
    ck_assert_uint_eq(ap_registry_count(&r), 0);
    ck_assert_int_eq(v2->map->height, 2);
    ap_map_version_release(v2);
    ck_assert_int_eq(ap_registry_remove(&r, "x"), AP_E_UNKNOWN_MAP);
    ck_assert_int_eq(ap_registry_remove(&r, NULL), AP_E_UNKNOWN_MAP);
    ck_assert_int_eq(ap_registry_publish(&r, open_map("x", 2, 2), NULL, &ver, &replaced), AP_OK);
    ck_assert_uint_eq(ver, 3);
    ck_assert(!replaced);

    /* Over the workspace capacity: refused, the id unchanged. */
    r.capacity = 20; /* nodes: a 3 x 3 map has 25 */
    ck_assert_int_eq(ap_registry_publish(&r, open_map("x", 3, 3), NULL, &ver, &replaced), AP_E_MAP_TOO_LARGE);
    ap_map_version *v3 = ap_registry_acquire(&r, "x");
    ck_assert_uint_eq(v3->version, 3);
    ap_map_version_release(v3);
    ap_registry_free(&r);
}
END_TEST

/* An edited version (PATCH's ap_registry_publish_over) replaces only the version it was made from: after a
 * DELETE (on the HTTP thread, while the lifecycle thread applied the edits) it is refused and the id stays
 * gone (a helper's DELETE answered 204 and the PATCH then brought the map back, 201); over a stale base it is
 * refused and the current version stays. */
START_TEST(test_publish_over_its_base_only)
{
    ap_registry r;
    ck_assert_int_eq(ap_registry_init(&r), AP_OK);
    uint64_t ver = 0;
    ck_assert_int_eq(ap_registry_publish(&r, open_map("x", 3, 3), NULL, &ver, NULL), AP_OK);
    ck_assert_int_eq(ap_registry_publish_over(&r, open_map("x", 4, 3), 1, &ver), AP_OK);
    ck_assert_uint_eq(ver, 2);
    ck_assert_int_eq(ap_registry_remove(&r, "x"), AP_OK);
    ck_assert_int_eq(ap_registry_publish_over(&r, open_map("x", 5, 3), 2, &ver), AP_E_UNKNOWN_MAP);
    ck_assert_ptr_null(ap_registry_acquire(&r, "x"));
    ck_assert_uint_eq(ap_registry_count(&r), 0);
    ck_assert_int_eq(ap_registry_publish(&r, open_map("x", 6, 3), NULL, &ver, NULL), AP_OK);
    ck_assert_uint_eq(ver, 3);
    ck_assert_int_eq(ap_registry_publish_over(&r, open_map("x", 7, 3), 2, &ver), AP_E_UNKNOWN_MAP);
    ck_assert_int_eq(ap_registry_publish_over(&r, open_map("y", 7, 3), 1, &ver), AP_E_UNKNOWN_MAP);
    ck_assert_int_eq(ap_registry_publish_over(&r, open_map("x", 8, 3), 0, &ver), AP_E_UNKNOWN_MAP);
    ap_map_version *v = ap_registry_acquire(&r, "x");
    ck_assert_uint_eq(v->version, 3);
    ck_assert_int_eq(v->map->width, 6);
    ap_map_version_release(v);
    ck_assert_uint_eq(ap_registry_count(&r), 1);
    ap_registry_free(&r);
}
END_TEST

static void write_text(const char *dir, const char *name, const char *text)
{
    write_file(dir, name, text);
}

static uint64_t version_of(ap_registry *r, const char *id)
{
    ap_map_version *v = ap_registry_acquire(r, id);
    uint64_t n = v ? v->version : 0;
    ap_map_version_release(v);
    return n;
}

/* A condition that holds when the current version is `want` (0: none), as a compare-and-set asks. */
static bool holds_at(const ap_registry_cond *c, uint64_t current)
{
    return current == *(const uint64_t *)c->arg;
}

/* ap_registry_publish_if and ap_registry_remove_if change the id only while their condition holds on the
 * current version, under the lock: else AP_E_PRECONDITION_FAILED, the version the refusal saw in seen, the
 * map freed (ASan), nothing changed; an id with no version is unknown_map to remove_if whatever the
 * condition, and an edit whose base is gone is unknown_map before it is asked. */
START_TEST(test_conditional_changes)
{
    ap_registry r;
    ck_assert_int_eq(ap_registry_init(&r), AP_OK);
    uint64_t want = 1, ver = 0;
    bool replaced = true;
    ap_registry_cond cond = {holds_at, &want, 99};
    /* a new id: current 0 */
    ck_assert_int_eq(ap_registry_publish_if(&r, open_map("x", 3, 3), NULL, NULL, 0, &cond, &ver, &replaced),
                     AP_E_PRECONDITION_FAILED);
    ck_assert_uint_eq(cond.seen, 0);
    ck_assert_uint_eq(ap_registry_count(&r), 0);
    want = 0;
    ck_assert_int_eq(ap_registry_publish_if(&r, open_map("x", 3, 3), NULL, NULL, 0, &cond, &ver, &replaced), AP_OK);
    ck_assert_uint_eq(ver, 1);
    ck_assert(!replaced);
    /* over version 1 only */
    ck_assert_int_eq(ap_registry_publish_if(&r, open_map("x", 4, 3), NULL, NULL, 0, &cond, &ver, &replaced),
                     AP_E_PRECONDITION_FAILED);
    ck_assert_uint_eq(cond.seen, 1);
    want = 1;
    ck_assert_int_eq(ap_registry_publish_if(&r, open_map("x", 4, 3), NULL, NULL, 1, &cond, &ver, &replaced), AP_OK);
    ck_assert_uint_eq(ver, 2);
    ck_assert(replaced);
    ck_assert_int_eq(ap_registry_publish_if(&r, open_map("x", 5, 3), NULL, NULL, 1, &cond, &ver, NULL),
                     AP_E_UNKNOWN_MAP); /* base 1 is gone: before the condition */
    /* remove: only at version 2 */
    cond.seen = 99;
    ck_assert_int_eq(ap_registry_remove_if(&r, "x", &cond), AP_E_PRECONDITION_FAILED);
    ck_assert_uint_eq(cond.seen, 2);
    ck_assert_uint_eq(version_of(&r, "x"), 2);
    want = 2;
    ck_assert_int_eq(ap_registry_remove_if(&r, "x", &cond), AP_OK);
    ck_assert_int_eq(ap_registry_remove_if(&r, "x", &cond), AP_E_UNKNOWN_MAP);
    ck_assert_int_eq(ap_registry_remove_if(&r, "x", NULL), AP_E_UNKNOWN_MAP);
    ck_assert_uint_eq(ap_registry_count(&r), 0);
    /* a new id past max_maps is map_limit, whatever the condition (no 2xx to turn into a 412) */
    want = 0;
    ck_assert_int_eq(ap_registry_publish_if(&r, open_map("a", 2, 2), NULL, NULL, 0, &cond, &ver, NULL), AP_OK);
    r.max_maps = 1;
    want = 7;
    ck_assert_int_eq(ap_registry_publish_if(&r, open_map("b", 2, 2), NULL, NULL, 0, &cond, &ver, NULL),
                     AP_E_MAP_LIMIT);
    ap_registry_free(&r);
}
END_TEST

/* ap_registry_rescan(r, dir) with its log captured: returns the status; *log (malloc'd, the caller frees)
 * the lines it wrote; *c its counts. */
/* ap_registry_rescan_until (stop NULL: ap_registry_rescan) with its log in *log (free it). */
static int rescan_stop_logged(ap_registry *r, const char *dir, ap_rescan_counts *c, char **log, const atomic_bool *stop)
{
    size_t len = 0;
    *log = NULL;
    FILE *f = open_memstream(log, &len);
    ck_assert_ptr_nonnull(f);
    const int st = ap_registry_rescan_until(r, dir, NULL, f, c, stop);
    fclose(f);
    return st;
}

static int rescan_logged(ap_registry *r, const char *dir, ap_rescan_counts *c, char **log)
{
    return rescan_stop_logged(r, dir, c, log, NULL);
}

/* A grid map whose file goes while its id's circle file fails to load: the failed file's line, then the id
 * removed; no "kept map_version" line for a version the same rescan removes (a helper: "kept", then
 * "removed", and the map gone). */
START_TEST(test_rescan_no_kept_line_for_a_removed_version)
{
    char dir[] = "/tmp/ap-rescan-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_file(dir, "dd.map", "type octile\nheight 1\nwidth 3\nmap\n...\n");
    write_file(dir, "dd.circles.json", "{\"width\":10,\"height\":10,\"circles\":[{\"x\":1,\"y\":1,\"r\":-1}]}");
    ap_registry r;
    ck_assert_int_eq(ap_registry_load(&r, dir, NULL, 0, NULL), AP_OK);
    ck_assert_uint_eq(version_of(&r, "dd"), 1);
    char path[512];
    snprintf(path, sizeof path, "%s/dd.map", dir);
    unlink(path);
    char *log;
    ap_rescan_counts c;
    ck_assert_int_eq(rescan_logged(&r, dir, &c, &log), AP_OK);
    ck_assert_uint_eq(version_of(&r, "dd"), 0);
    ck_assert_int_eq(c.removed, 1);
    ck_assert_int_eq(c.errors, 1);
    ck_assert_msg(error_line(log, "dd.circles.json") != NULL, "%s", log);
    ck_assert_msg(strstr(log, "kept map_version") == NULL, "%s", log);
    ck_assert_msg(strstr(log, "arcpathd: reload: dd: removed (its file is gone)\n") != NULL, "%s", log);
    free(log);
    ap_registry_free(&r);
    static const char *const names[] = {"dd.circles.json"};
    remove_dir(dir, names, 1);
}
END_TEST

START_TEST(test_rescan)
{
    char dir[] = "/tmp/ap-rescan-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_text(dir, "a.map", "type octile\nheight 1\nwidth 2\nmap\n..\n");
    write_text(dir, "b.map", "type octile\nheight 1\nwidth 3\nmap\n...\n");
    ap_registry r;
    ck_assert_int_eq(ap_registry_load(&r, dir, NULL, 0, stderr), AP_OK);
    ck_assert_uint_eq(r.n, 2);
    ck_assert_int_eq(ap_registry_publish(&r, open_map("c", 2, 2), NULL, NULL, NULL), AP_OK); /* no file */

    write_text(dir, "a.map", "type octile\nheight 2\nwidth 2\nmap\n..\n..\n"); /* changed */
    char path[512];
    snprintf(path, sizeof path, "%s/b.map", dir);
    unlink(path);                                                     /* removed */
    write_text(dir, "d.map", "type octile\nheight 1\nwidth 1\nmap\n.\n"); /* new */
    write_text(dir, "e.map", "type octile\nheight 1\nwidth 1\nmap\nx\n"); /* bad */

    char *log;
    ap_rescan_counts c;
    ck_assert_int_eq(rescan_logged(&r, dir, &c, &log), AP_OK);
    ck_assert_int_eq(c.added, 1);
    ck_assert_int_eq(c.replaced, 1);
    ck_assert_int_eq(c.removed, 1);
    ck_assert_int_eq(c.unchanged, 0);
    ck_assert_int_eq(c.errors, 1);
    ck_assert_uint_eq(version_of(&r, "a"), 2);
    ck_assert_int_eq(ap_registry_find(&r, "a")->height, 2);
    ck_assert_uint_eq(version_of(&r, "b"), 0);
    ck_assert_uint_eq(version_of(&r, "c"), 1); /* a client's map without a file is kept */
    ck_assert_uint_eq(version_of(&r, "d"), 1);
    ck_assert_uint_eq(version_of(&r, "e"), 0);
    ck_assert_ptr_nonnull(strstr(log, "arcpathd: reload: a: replaced, map_version 2\n"));
    ck_assert_ptr_nonnull(strstr(log, "arcpathd: reload: b: removed (its file is gone)\n"));
    ck_assert_ptr_nonnull(strstr(log, "arcpathd: reload: d: added, map_version 1\n"));
    ck_assert_ptr_nonnull(strstr(log, "e.map:5:1: "));
    free(log);

    /* Nothing changed: nothing reloaded. A file turned bad keeps the version loaded before. */
    ck_assert_int_eq(ap_registry_rescan(&r, dir, NULL, NULL, &c), AP_OK);
    ck_assert_int_eq(c.unchanged, 2);
    ck_assert_int_eq(c.added + c.replaced + c.removed, 0);
    ck_assert_int_eq(c.errors, 1);
    write_text(dir, "a.map", "type octile\nheight 2\nwidth 2\nmap\n..\n.\n");
    ck_assert_int_eq(rescan_logged(&r, dir, &c, &log), AP_OK);
    ck_assert_int_eq(c.errors, 2);
    ck_assert_uint_eq(version_of(&r, "a"), 2);
    ck_assert_ptr_nonnull(strstr(log, "arcpathd: reload: a: kept map_version 2\n"));
    free(log);

    /* An unreadable folder changes nothing, and is counted as an empty one is (below): the maps loaded from
     * files kept unchanged, one error (it counted 0 unchanged: a helper) */
    ck_assert_int_eq(rescan_logged(&r, "/nonexistent/arcpath-maps", &c, &log), AP_E_IO);
    ck_assert_uint_eq(ap_registry_count(&r), 3);
    ck_assert_int_eq(c.unchanged, 2);
    ck_assert_int_eq(c.errors, 1);
    ck_assert_int_eq(c.added + c.replaced + c.removed, 0);
    ck_assert_msg(strstr(log, "/nonexistent/arcpath-maps: No such file or directory: kept the 2 maps loaded from "
                              "the folder") != NULL, "%s", log);
    free(log);

    /* A folder with no map file left (an unmounted volume's mount point) removes nothing: a and d stay. */
    const char *names[] = {"a.map", "d.map", "e.map"};
    remove_dir(dir, names, 3);
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    write_text(dir, "notes.txt", "not a map\n");
    ck_assert_int_eq(rescan_logged(&r, dir, &c, &log), AP_OK);
    ck_assert_int_eq(c.removed, 0);
    ck_assert_int_eq(c.unchanged, 2);
    ck_assert_int_eq(c.errors, 1);
    ck_assert_uint_eq(version_of(&r, "a"), 2);
    ck_assert_uint_eq(version_of(&r, "d"), 1);
    ck_assert_uint_eq(ap_registry_count(&r), 3);
    ck_assert_msg(strstr(log, ": no map file in the folder: kept the 2 maps loaded from it") != NULL, "%s", log);
    free(log);
    /* nor do names that are no file: a directory called x.map, a FIFO called y.circles.json */
    char odd[600];
    snprintf(odd, sizeof odd, "%s/x.map", dir);
    ck_assert_int_eq(mkdir(odd, 0700), 0);
    snprintf(odd, sizeof odd, "%s/y.circles.json", dir);
    ck_assert_int_eq(mkfifo(odd, 0600), 0);
    ck_assert_int_eq(rescan_logged(&r, dir, &c, &log), AP_OK);
    ck_assert_int_eq(c.removed, 0);
    ck_assert_uint_eq(ap_registry_count(&r), 3);
    ck_assert_msg(strstr(log, ": no map file in the folder: kept the 2 maps loaded from it") != NULL, "%s", log);
    free(log);
    unlink(odd);
    snprintf(odd, sizeof odd, "%s/x.map", dir);
    rmdir(odd);

    /* Once one map file is back, the rescan goes on as usual: d's file is gone, so d is removed. */
    write_text(dir, "a.map", "type octile\nheight 2\nwidth 2\nmap\n..\n..\n");
    ck_assert_int_eq(ap_registry_rescan(&r, dir, NULL, NULL, &c), AP_OK);
    ck_assert_int_eq(c.removed, 1);
    ck_assert_uint_eq(version_of(&r, "d"), 0);
    ck_assert_uint_eq(ap_registry_count(&r), 2);

    /* A rescan told to stop (the shutdown) stops before the next file and removes nothing: a's file gone
     * and f's new changes nothing, and the log says how far it got. */
    const uint64_t va = version_of(&r, "a");
    ck_assert_uint_gt(va, 0);
    snprintf(path, sizeof path, "%s/a.map", dir);
    unlink(path);
    write_text(dir, "f.map", "type octile\nheight 1\nwidth 1\nmap\n.\n");
    atomic_bool stop;
    atomic_init(&stop, true);
    ck_assert_int_eq(rescan_stop_logged(&r, dir, &c, &log, &stop), AP_OK);
    ck_assert_int_eq(c.added + c.replaced + c.removed, 0);
    ck_assert_uint_eq(version_of(&r, "a"), va);
    ck_assert_uint_eq(version_of(&r, "f"), 0);
    ck_assert_msg(strstr(log, "arcpathd: reload: stopped by the shutdown after 0 of 1 files; nothing removed\n") != NULL,
                  "%s", log);
    free(log);
    atomic_store(&stop, false);
    ck_assert_int_eq(ap_registry_rescan_until(&r, dir, NULL, NULL, &c, &stop), AP_OK);
    ck_assert_int_eq(c.added, 1);
    ck_assert_int_eq(c.removed, 1);
    ap_registry_free(&r);
    const char *left[] = {"f.map", "notes.txt"};
    remove_dir(dir, left, 2);
}
END_TEST

/* A map error is one log line whatever the file's name or letters hold: control characters are written
 * as '?' (a name with a line feed forged an "arcpathd: reload done" line, and an escape sequence reached the
 * operator's terminal: a helper). */
START_TEST(test_report_control_characters)
{
    char dir[] = "/tmp/ap-ctlnames-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    static const char forged[] = "x\narcpathd: reload done: 0 added, 9 removed\x1b[2Jz.map";
    write_text(dir, forged, "type octile\nheight 1\nwidth 2\nmap\n..\n");
    write_text(dir, "y.map", "type octile\nheight 1\nwidth 2\nmap\n.\x07\n");
    char *log = NULL;
    ap_registry r;
    ck_assert_int_eq(load_logged(&r, dir, NULL, 0, &log), AP_OK);
    ck_assert_uint_eq(r.n, 0);
    ck_assert_int_eq(r.errors, 2);
    ck_assert_msg(strstr(log, "/x?arcpathd: reload done: 0 added, 9 removed?[2Jz.map: invalid map id from file name") !=
                      NULL, "%s", log);
    ck_assert_msg(strstr(log, "/y.map:5:2: unknown terrain character (byte 0x07)") != NULL, "%s", log);
    int lines = 0;
    for (const char *c = log; *c; c++) {
        lines += *c == '\n';
        ck_assert_msg(*c == '\n' || (unsigned char)*c >= 0x20, "a control character in the log: %s", log);
    }
    ck_assert_int_eq(lines, 2);
    free(log);
    ap_registry_free(&r);
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, forged);
    unlink(path);
    snprintf(path, sizeof path, "%s/y.map", dir);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* A file whose name is one character too long for an id is reported, never read as the map of the id its
 * name's first 63 characters make: cut so, it kept that map alive after its own file went (and at load was
 * a "duplicate"). An id may not start with '.': the folder passes over hidden files, so such a map loaded
 * by a reload was removed by the next rescan as gone. */
/* max_maps: the load stops adding at the limit (the rest logged, unread), a publish of a new id is
 * refused with AP_E_MAP_LIMIT without leaving a tombstone, replacements and edits of loaded ids go on,
 * and a delete makes room; a rescan adds no new id past it. A file whose name no map may have is reported
 * for its name, full or not (it was "raise max_maps", a helper). */
#define LONG_NAME "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc.map" /* 64 before .map */
START_TEST(test_max_maps)
{
    char dir[] = "/tmp/ap-maxmaps-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_text(dir, "a.map", "type octile\nheight 1\nwidth 2\nmap\n..\n");
    write_text(dir, "b.map", "type octile\nheight 1\nwidth 3\nmap\n...\n");
    write_text(dir, "c.map", "type octile\nheight 1\nwidth 4\nmap\n....\n");
    write_text(dir, "d e.map", "type octile\nheight 1\nwidth 4\nmap\n....\n");
    write_text(dir, LONG_NAME, "type octile\nheight 1\nwidth 4\nmap\n....\n");
    char *log = NULL;
    ap_registry r;
    ck_assert_int_eq(load_logged(&r, dir, NULL, 2, &log), AP_OK);
    ck_assert_uint_eq(r.n, 2);
    ck_assert_int_eq(r.errors, 3);
    ck_assert_msg(strstr(log, "d e.map: invalid map id from file name") != NULL, "%s", log);
    ck_assert_msg(strstr(log, LONG_NAME ": invalid map id from file name") != NULL, "%s", log);
    ck_assert_uint_eq(version_of(&r, "a"), 1);
    ck_assert_uint_eq(version_of(&r, "b"), 1);
    ck_assert_uint_eq(version_of(&r, "c"), 0);
    ck_assert_msg(strstr(log, "c.map: the server holds max_maps (2) maps: not added") != NULL, "%s", log);
    free(log);

    ck_assert(ap_registry_full_for(&r, "z"));
    ck_assert(!ap_registry_full_for(&r, "a"));
    ck_assert_int_eq(ap_registry_publish(&r, open_map("z", 2, 2), NULL, NULL, NULL), AP_E_MAP_LIMIT);
    ck_assert_uint_eq(r.n_slots, 2); /* no tombstone for the refused id */
    uint64_t v = 0;
    bool replaced = false;
    ck_assert_int_eq(ap_registry_publish(&r, open_map("a", 2, 2), NULL, &v, &replaced), AP_OK);
    ck_assert_uint_eq(v, 2);
    ck_assert(replaced);
    ck_assert_int_eq(ap_registry_publish_over(&r, open_map("a", 3, 2), 2, &v), AP_OK);
    ck_assert_uint_eq(v, 3);

    ap_rescan_counts c;
    ck_assert_int_eq(rescan_logged(&r, dir, &c, &log), AP_OK);
    ck_assert_int_eq(c.added, 0);
    ck_assert_int_eq(c.replaced, 1); /* a: the client's version gives way to its file */
    ck_assert_int_eq(c.errors, 3);   /* c: not added; the two names */
    ck_assert_uint_eq(version_of(&r, "c"), 0);
    ck_assert_ptr_nonnull(strstr(log, "c.map: the server holds max_maps (2) maps"));
    ck_assert_msg(strstr(log, "d e.map: invalid map id from file name") != NULL, "%s", log);
    ck_assert_msg(strstr(log, LONG_NAME ": invalid map id from file name") != NULL, "%s", log);
    free(log);

    ck_assert_int_eq(ap_registry_remove(&r, "b"), AP_OK);
    ck_assert(!ap_registry_full_for(&r, "z"));
    ck_assert_int_eq(ap_registry_publish(&r, open_map("z", 2, 2), NULL, NULL, NULL), AP_OK);
    ck_assert_uint_eq(ap_registry_count(&r), 2);
    ap_registry_free(&r);
    const char *names[] = {"a.map", "b.map", "c.map", "d e.map", LONG_NAME};
    remove_dir(dir, names, 5);
}
END_TEST

START_TEST(test_rescan_long_and_hidden_names)
{
    ck_assert(!ap_map_id_valid(".hid", 4));
    ck_assert(ap_map_id_valid("a.hid", 5));
    char dir[] = "/tmp/ap-rescan-long-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char id63[64], name63[80], name64[80];
    memset(id63, 'b', 63);
    id63[63] = '\0';
    snprintf(name63, sizeof name63, "%s.map", id63);
    snprintf(name64, sizeof name64, "b%s.map", id63);
    write_text(dir, name63, "type octile\nheight 1\nwidth 2\nmap\n..\n");
    write_text(dir, name64, "type octile\nheight 1\nwidth 3\nmap\n...\n");
    FILE *errf = tmpfile();
    ck_assert_ptr_nonnull(errf);
    ap_registry r;
    ck_assert_int_eq(ap_registry_load(&r, dir, NULL, 0, errf), AP_OK);
    char log[4096] = "";
    rewind(errf);
    log[fread(log, 1, sizeof log - 1, errf)] = '\0';
    fclose(errf);
    ck_assert_uint_eq(r.n, 1);
    ck_assert_int_eq(ap_registry_find(&r, id63)->width, 2);
    ck_assert_msg(strstr(log, "invalid map id from file name") != NULL && strstr(log, "duplicate") == NULL, "%s", log);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name63);
    unlink(path);
    ap_rescan_counts c;
    char *rlog;
    ck_assert_int_eq(rescan_logged(&r, dir, &c, &rlog), AP_OK);
    ck_assert_int_eq(c.removed, 1);
    ck_assert_int_eq(c.errors, 1);
    ck_assert_uint_eq(version_of(&r, id63), 0);
    ck_assert_msg(strstr(rlog, "kept map_version") == NULL, "%s", rlog);
    free(rlog);
    ap_registry_free(&r);
    const char *left[] = {name64};
    remove_dir(dir, left, 1);
}
END_TEST

typedef struct reader_arg {
    ap_registry *r;
    int bad;
} reader_arg;

static void *reader(void *p)
{
    reader_arg *a = p;
    for (int i = 0; i < 20000; i++) {
        ap_map_version *v = ap_registry_acquire(a->r, "x");
        /* version k of "x" is k cells wide: any mismatch is a torn or freed version */
        if (v == NULL || (uint64_t)v->map->width != v->version)
            a->bad++;
        ap_map_version_release(v);
    }
    return NULL;
}

START_TEST(test_concurrent_replacement)
{
    ap_registry r;
    ck_assert_int_eq(ap_registry_init(&r), AP_OK);
    ck_assert_int_eq(ap_registry_publish(&r, open_map("x", 1, 1), NULL, NULL, NULL), AP_OK);
    pthread_t t[2];
    reader_arg a[2] = {{&r, 0}, {&r, 0}};
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, reader, &a[i]), 0);
    for (int k = 2; k <= 60; k++)
        ck_assert_int_eq(ap_registry_publish(&r, open_map("x", k, 1), NULL, NULL, NULL), AP_OK);
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
        ck_assert_int_eq(a[i].bad, 0);
    }
    ck_assert_uint_eq(version_of(&r, "x"), 60);
    ap_registry_free(&r);
}
END_TEST

Suite *registry_suite(void)
{
    Suite *s = suite_create("server/registry");
    TCase *tc = tcase_create("registry");
    tcase_add_test(tc, test_load_dir);
    tcase_add_test(tc, test_missing_dir);
    tcase_add_test(tc, test_empty_dir_and_limits);
    tcase_add_test(tc, test_picture_ids_refused);
    tcase_add_test(tc, test_circle_maps);
    tcase_add_test(tc, test_versions_and_references);
    tcase_add_test(tc, test_publish_over_its_base_only);
    tcase_add_test(tc, test_conditional_changes);
    tcase_add_test(tc, test_rescan);
    tcase_add_test(tc, test_rescan_no_kept_line_for_a_removed_version);
    tcase_add_test(tc, test_max_maps);
    tcase_add_test(tc, test_report_control_characters);
    tcase_add_test(tc, test_rescan_long_and_hidden_names);
    tcase_add_test(tc, test_concurrent_replacement);
    suite_add_tcase(s, tc);
    return s;
}
