/* test_registry.c — a directory with two good tiny maps, three bad ones and three special files named *.map. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "planner/base/status.h"
#include "server/registry.h"

Suite *registry_suite(void);

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

/* Parse "arcpathd: map error: FILE:LINE:COL: MESSAGE" and check FILE ends with name. */
static void check_diag(const char *log, const char *name, int want_line)
{
    const char *p = error_line(log, name);
    ck_assert_msg(p != NULL, "no error reported for %s:\n%s", name, log);
    const char *prefix = "arcpathd: map error: ";
    ck_assert_msg(strncmp(p, prefix, strlen(prefix)) == 0, "bad prefix: %s", p);
    const char *after = strstr(p, name) + strlen(name);
    int line = -1, col = -1, used = 0;
    ck_assert_msg(sscanf(after, ":%d:%d: %n", &line, &col, &used) == 2 && used > 0, "no :LINE:COL: in %s", p);
    ck_assert_int_ge(col, 0);
    ck_assert_msg(line == want_line, "%s: line %d, want %d", name, line, want_line);
    ck_assert(after[used] != '\n' && after[used] != '\0'); /* a message follows */
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
    size_t loglen = 0;
    FILE *errf = open_memstream(&log, &loglen);
    ap_registry r;
    ck_assert_int_eq(ap_registry_load(&r, dir, NULL, errf), AP_OK);
    fclose(errf);

    ck_assert_uint_eq(r.n, 2);
    ck_assert_int_eq(r.errors, 6);
    ck_assert_str_eq(r.maps[0]->id, "a_good"); /* sorted by id */
    ck_assert_str_eq(r.maps[1]->id, "b_good");
    ck_assert_uint_eq(r.max_nodes, (5 + 2) * (4 + 2));

    const ap_map *m = ap_registry_find(&r, "b_good");
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(m->width, 3);
    ck_assert_int_eq(m->height, 2);
    ck_assert_ptr_eq(ap_registry_find(&r, "a_good"), r.maps[0]);
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
    size_t loglen = 0;
    FILE *errf = open_memstream(&log, &loglen);
    ap_registry r;
    ck_assert_int_eq(ap_registry_load(&r, "/nonexistent/arcpath-maps", NULL, errf), AP_E_IO);
    fclose(errf);
    ck_assert_uint_eq(r.n, 0);
    ck_assert_int_eq(r.errors, 1);
    ck_assert_ptr_nonnull(strstr(log, "arcpathd: map error: /nonexistent/arcpath-maps:0:0: "));
    free(log);
    ap_registry_free(&r);
}
END_TEST

START_TEST(test_empty_dir_and_limits)
{
    char dir[] = "/tmp/ap-registry-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ap_registry r;
    ck_assert_int_eq(ap_registry_load(&r, dir, NULL, stderr), AP_OK);
    ck_assert_uint_eq(r.n, 0);
    ck_assert_int_eq(r.errors, 0);
    ck_assert_uint_eq(r.max_nodes, 0);
    ap_registry_free(&r);

    /* A map over the configured width limit is reported and skipped. */
    const char *names[] = {"wide.map"};
    write_file(dir, "wide.map", "type octile\nheight 1\nwidth 8\nmap\n........\n");
    ap_map_opts lim = {.max_width = 4, .max_height = 4, .max_cells = 16};
    char *log = NULL;
    size_t loglen = 0;
    FILE *errf = open_memstream(&log, &loglen);
    ck_assert_int_eq(ap_registry_load(&r, dir, &lim, errf), AP_OK);
    fclose(errf);
    ck_assert_uint_eq(r.n, 0);
    ck_assert_int_eq(r.errors, 1);
    ck_assert_ptr_nonnull(strstr(log, "wide.map:"));
    free(log);
    ap_registry_free(&r);
    remove_dir(dir, names, 1);
}
END_TEST

/* Ids ending in ".svg" or ".png" are the map pictures' paths (GET /v1/maps/x.svg): such maps are reported
 * and skipped; an id with ".svg" inside is an ordinary id. */
START_TEST(test_picture_ids_refused)
{
    char dir[] = "/tmp/ap-registry-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const char *names[] = {"x.svg.map", "y.png.map", "a.svgz.map"};
    for (size_t i = 0; i < 3; i++)
        write_file(dir, names[i], "type octile\nheight 1\nwidth 2\nmap\n..\n");
    char *log = NULL;
    size_t loglen = 0;
    FILE *errf = open_memstream(&log, &loglen);
    ap_registry r;
    ck_assert_int_eq(ap_registry_load(&r, dir, NULL, errf), AP_OK);
    fclose(errf);
    ck_assert_uint_eq(r.n, 1);
    ck_assert_str_eq(r.maps[0]->id, "a.svgz");
    ck_assert_int_eq(r.errors, 2);
    check_diag(log, "x.svg.map", 0);
    check_diag(log, "y.png.map", 0);
    ck_assert_ptr_nonnull(strstr(error_line(log, "x.svg.map"), "ends in .svg or .png"));
    free(log);
    ap_registry_free(&r);
    remove_dir(dir, names, 3);
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
    suite_add_tcase(s, tc);
    return s;
}
