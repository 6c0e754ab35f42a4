/* test_circles.c — the `<id>.circles.json` loader (proto/circles.h): a good file, and every kind of bad
 * input named by its JSON path (or line and column for syntax errors). */
#include "tests/check_fast.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "planner/base/status.h"
#include "proto/circles.h"
#include "tests/proto/suites.h"
#include "tests/util.h"

static int parse(const char *text, ap_circle_world **cw, ap_diag *d)
{
    return ap_circles_parse("t.circles.json", text, strlen(text), cw, d);
}

START_TEST(good_file_loads)
{
    const char *text = "{\"width\": 20, \"height\": 10.5, \"circles\": [{\"x\": 5, \"y\": 5, \"r\": 2},"
                       " {\"r\": 0, \"y\": -3, \"x\": 40.25}]}";
    ap_circle_world *cw;
    ap_diag d;
    ck_assert_int_eq(parse(text, &cw, &d), AP_OK);
    ck_assert_uint_eq(ap_circle_world_count(cw), 2);
    ck_assert_double_eq(ap_circle_world_width(cw), 20.0);
    ck_assert_double_eq(ap_circle_world_height(cw), 10.5);
    ck_assert_double_eq(ap_circle_world_circles(cw)[1].x, 40.25);
    ck_assert_double_eq(ap_circle_world_circles(cw)[1].y, -3.0);
    ck_assert_double_eq(ap_circle_world_circles(cw)[0].r, 2.0);
    ap_world w;
    ap_circle_world_view(cw, &w);
    ck_assert(!ap_world_point_clear(&w, 5, 6.9, 0.0));
    ck_assert(ap_world_point_clear(&w, 5, 7.1, 0.0));
    ap_circle_world_free(cw);
    char *path = ap_test_temp_file("arcpath-circles", "{\"width\": 3, \"height\": 4, \"circles\": []}");
    ck_assert_ptr_nonnull(path);
    ck_assert_int_eq(ap_circles_load(path, &cw, &d), AP_OK);
    ck_assert_uint_eq(ap_circle_world_count(cw), 0);
    ap_circle_world_free(cw);
    unlink(path);
    free(path);
    ck_assert_int_eq(ap_circles_load("/nonexistent/x.circles.json", &cw, &d), AP_E_IO);
    ck_assert_ptr_null(cw);
    ck_assert_str_eq(d.msg, "cannot read: No such file or directory");
    /* neither a FIFO (which would block the reader until a writer came) nor a directory is read */
    char dir[] = "/tmp/arcpath-circles-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char fifo[sizeof dir + 32];
    snprintf(fifo, sizeof fifo, "%s/f.circles.json", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(ap_circles_load(fifo, &cw, &d), AP_E_IO);
    ck_assert_str_eq(d.msg, "not a regular file (a FIFO)");
    ck_assert_int_eq(ap_circles_load(dir, &cw, &d), AP_E_IO);
    ck_assert_str_eq(d.msg, "not a regular file (a directory)");
    ck_assert_ptr_null(cw);
    unlink(fifo);
    rmdir(dir);
}
END_TEST

/* Each bad input fails with AP_E_MAP_FORMAT and exactly this message. */
static void bad(const char *text, const char *msg)
{
    ap_circle_world *cw;
    ap_diag d;
    ck_assert_int_eq(parse(text, &cw, &d), AP_E_MAP_FORMAT);
    ck_assert_ptr_null(cw);
    ck_assert_str_eq(d.file, "t.circles.json");
    ck_assert_msg(strcmp(d.msg, msg) == 0, "for %s: got \"%s\", want \"%s\"", text, d.msg, msg);
}

START_TEST(bad_files_name_the_json_path)
{
    bad("{\"width\": 20, \"height\": 10, \"circles\": [], \"depth\": 1}", "unknown field \"depth\"");
    bad("{\"width\": 20, \"height\": 10}", "missing required field \"circles\"");
    bad("{\"width\": 20, \"height\": 10, \"circles\": {}}", "\"circles\" must be an array");
    bad("{\"width\": 20, \"height\": 10, \"circles\": [3]}", "\"circles[0]\" must be an object");
    bad("{\"width\": 20, \"height\": 10, \"circles\": [{\"x\": 1, \"y\": 1, \"r\": 1}, {\"x\": 1, \"y\": 1, "
        "\"r\": 1, \"z\": 0}]}",
        "unknown field \"circles[1].z\"");
    bad("{\"width\": 20, \"height\": 10, \"circles\": [{\"x\": 1, \"y\": 1, \"r\": 1}, {\"x\": 1, \"y\": 1, "
        "\"r\": 1}, {\"x\": 1, \"y\": 1, \"r\": 1}, {\"x\": 1, \"y\": 1, \"r\": \"2\"}]}",
        "\"circles[3].r\" must be a number");
    bad("{\"width\": 20, \"height\": 10, \"circles\": [{\"x\": 1, \"y\": 1, \"r\": -1}]}",
        "\"circles[0].r\" must be between 0 and 1e+07");
    bad("{\"width\": 20, \"height\": 10, \"circles\": [{\"x\": 1, \"r\": 1}]}",
        "missing required field \"circles[0].y\"");
    bad("{\"width\": 0, \"height\": 10, \"circles\": []}", "\"width\" must be a finite number in (0, 1e7]");
    bad("{\"width\": -1, \"height\": 10, \"circles\": []}", "\"width\" must be a finite number in (0, 1e7]");
    bad("{\"width\": 20, \"height\": 2e7, \"circles\": []}", "\"height\" must be a finite number in (0, 1e7]");
    bad("{\"width\": 20, \"height\": null, \"circles\": []}", "\"height\" must be a number");
    bad("[1, 2]", "the map file must be a JSON object"); /* a file, not a request body */
}
END_TEST

START_TEST(syntax_errors_give_line_and_column)
{
    ap_circle_world *cw;
    ap_diag d;
    ck_assert_int_eq(parse("{\"width\": 20,\n \"height\": 10,\n \"circles\": [,]}", &cw, &d), AP_E_MAP_FORMAT);
    ck_assert_int_eq(d.line, 3);
    ck_assert_int_gt(d.col, 0);
    ck_assert_int_eq(strncmp(d.msg, "invalid JSON at line 3", 22), 0);
    ck_assert_int_eq(parse("{\"width\": 1, \"width\": 2}", &cw, &d), AP_E_MAP_FORMAT);
    ck_assert_int_eq(d.line, 1);
    ck_assert_int_eq(ap_circles_parse("e.circles.json", "", 0, &cw, &d), AP_E_MAP_FORMAT);
    ck_assert_str_eq(d.msg, "invalid JSON at line 1, column 1: the map file is empty");
}
END_TEST

Suite *circles_file_suite(void)
{
    Suite *s = suite_create("circles_file");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, good_file_loads);
    tcase_add_test(tc, bad_files_name_the_json_path);
    tcase_add_test(tc, syntax_errors_give_line_and_column);
    suite_add_tcase(s, tc);
    return s;
}
