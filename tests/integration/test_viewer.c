/* test_viewer.c — what the viewer at GET / stands on: GET /v1/maps/{id}/cells (the raw terrain letters of
 * a demo map, row by row, as in its file) and the embedded static files (types, validators, 304). The
 * viewer itself is tested in headless Chromium (tests/browser). */
#include "tests/check_fast.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

Suite *viewer_suite(void);

static json_t *get_json(const char *path, long want_status)
{
    ap_resp r;
    ck_assert_int_eq(ap_http(ap_demo_srv, "GET", path, NULL, 0, NULL, &r), 0);
    ck_assert_msg(r.status == want_status, "GET %s: HTTP %ld: %s", path, r.status, r.body);
    ck_assert_str_eq(r.content_type, "application/json");
    json_t *j = ap_resp_json(&r);
    ap_resp_free(&r);
    ck_assert_ptr_nonnull(j);
    return j;
}

START_TEST(cells_match_the_map_file)
{
    json_t *j = get_json("/v1/maps/islands/cells", 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "map")), "islands");
    ck_assert_int_eq(json_integer_value(json_object_get(j, "width")), 40);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "height")), 20);
    ck_assert_uint_eq(json_object_size(j), 4);
    json_t *rows = json_object_get(j, "rows");
    ck_assert_uint_eq(json_array_size(rows), 20);

    /* Row y of the answer is line y after "map" in the file: x = column, y = row. */
    FILE *f = fopen("config/maps/islands.map", "r");
    ck_assert_ptr_nonnull(f);
    char line[128];
    int y = -1;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (y < 0) {
            if (strcmp(line, "map") == 0)
                y = 0;
            continue;
        }
        ck_assert_int_lt(y, 20);
        ck_assert_str_eq(json_string_value(json_array_get(rows, (size_t)y)), line);
        y++;
    }
    fclose(f);
    ck_assert_int_eq(y, 20);

    /* Known cells: the water border, and the west island's corner cell (2, 2). */
    const char *row2 = json_string_value(json_array_get(rows, 2));
    ck_assert_int_eq(row2[1], 'W');
    ck_assert_int_eq(row2[2], '.');
    ck_assert_int_eq(row2[16], 'W');
    json_decref(j);
}
END_TEST

START_TEST(cells_unknown_map_is_404)
{
    json_t *j = get_json("/v1/maps/nosuchmap/cells", 404);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "code")), "unknown_map");
    json_decref(j);
    /* Not the cells route: an empty id or a further path segment. */
    j = get_json("/v1/maps//cells", 404);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "code")), "not_found");
    json_decref(j);
    j = get_json("/v1/maps/islands/cells/x", 404);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "code")), "not_found");
    json_decref(j);
    j = get_json("/v1/maps/islands/cell", 404);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "code")), "not_found");
    json_decref(j);
}
END_TEST

START_TEST(cells_post_is_405)
{
    ap_resp r;
    ck_assert_int_eq(ap_post(ap_demo_srv, "/v1/maps/islands/cells", "{}", &r), 0);
    ck_assert_int_eq(r.status, 405);
    ck_assert_str_eq(r.allow, "GET, HEAD, PATCH, OPTIONS");
    ap_resp_free(&r);
}
END_TEST

START_TEST(static_files_are_served_with_types)
{
    static const struct {
        const char *path, *type, *head;
    } want[] = {
        {"/", "text/html; charset=utf-8", "<!doctype html>"},
        {"/index.html", "text/html; charset=utf-8", "<!doctype html>"},
        {"/viewer.js", "text/javascript; charset=utf-8", "/* viewer.js"},
        {"/draw.js", "text/javascript; charset=utf-8", "/* draw.js"},
        {"/viewer.css", "text/css; charset=utf-8", "/* viewer.css"},
        {"/favicon.svg", "image/svg+xml", "<svg "},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ap_resp r;
        ck_assert_int_eq(ap_http(ap_demo_srv, "GET", want[i].path, NULL, 0, NULL, &r), 0);
        ck_assert_msg(r.status == 200, "GET %s: HTTP %ld", want[i].path, r.status);
        ck_assert_str_eq(r.content_type, want[i].type);
        ck_assert_msg(strncmp(r.body, want[i].head, strlen(want[i].head)) == 0, "GET %s starts %.40s", want[i].path,
                      r.body);
        ck_assert_uint_gt(r.len, 100);
        ap_resp_free(&r);
    }
    /* The index names the other two, so the page loads whole from the binary. */
    ap_resp r;
    ck_assert_int_eq(ap_http(ap_demo_srv, "GET", "/", NULL, 0, NULL, &r), 0);
    ck_assert_ptr_nonnull(strstr(r.body, "src=\"viewer.js\""));
    ck_assert_ptr_nonnull(strstr(r.body, "src=\"draw.js\""));
    ck_assert_ptr_nonnull(strstr(r.body, "href=\"viewer.css\""));
    ap_resp_free(&r);
}
END_TEST

START_TEST(static_revalidation_and_errors)
{
    /* If-None-Match: * matches any current entity (RFC 9110, 13.1.2): 304 with no body. A tag that is not
     * the file's gets the whole file. */
    const char *any[] = {"If-None-Match: *", NULL};
    const char *other[] = {"If-None-Match: \"0-0\"", NULL};
    ap_resp r;
    ck_assert_int_eq(ap_http(ap_demo_srv, "GET", "/viewer.js", NULL, 0, any, &r), 0);
    ck_assert_int_eq(r.status, 304);
    ck_assert_uint_eq(r.len, 0);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_http(ap_demo_srv, "GET", "/viewer.js", NULL, 0, other, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ck_assert_uint_gt(r.len, 100);
    ap_resp_free(&r);
    /* Only the embedded names exist; the static folder is not a file tree to walk. */
    json_t *j = get_json("/static/viewer.js", 404);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "code")), "not_found");
    json_decref(j);
    j = get_json("/../Makefile", 404);
    json_decref(j);
    ck_assert_int_eq(ap_post(ap_demo_srv, "/", "{}", &r), 0);
    ck_assert_int_eq(r.status, 405);
    ck_assert_str_eq(r.allow, "GET, HEAD, OPTIONS");
    ap_resp_free(&r);
}
END_TEST

Suite *viewer_suite(void)
{
    Suite *s = suite_create("viewer");
    TCase *tc = tcase_create("routes");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, cells_match_the_map_file);
    tcase_add_test(tc, cells_unknown_map_is_404);
    tcase_add_test(tc, cells_post_is_405);
    tcase_add_test(tc, static_files_are_served_with_types);
    tcase_add_test(tc, static_revalidation_and_errors);
    suite_add_tcase(s, tc);
    return s;
}
