/* test_route.c — the route matcher (exact and {id} patterns, method sets, 404 vs 405 and the Allow value)
 * and the server's own table: its methods and the exact metric labels the exposition shows. */
#include "tests/check_fast.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/http.h"
#include "server/metrics.h"
#include "server/route.h"
#include "tests/util.h"

Suite *route_suite(void);

START_TEST(method_bits)
{
    ck_assert_uint_eq(ap_method_bit("GET"), AP_METHOD_GET);
    ck_assert_uint_eq(ap_method_bit("HEAD"), AP_METHOD_HEAD);
    ck_assert_uint_eq(ap_method_bit("POST"), AP_METHOD_POST);
    ck_assert_uint_eq(ap_method_bit("get"), 0); /* method names are case-sensitive */
    ck_assert_uint_eq(ap_method_bit("PUT"), AP_METHOD_PUT);
    ck_assert_uint_eq(ap_method_bit("DELETE"), AP_METHOD_DELETE);
    ck_assert_uint_eq(ap_method_bit("PATCH"), AP_METHOD_PATCH);
    ck_assert_uint_eq(ap_method_bit("OPTIONS"), AP_METHOD_OPTIONS);
    ck_assert_uint_eq(ap_method_bit("TRACE"), 0);
    ck_assert_uint_eq(ap_method_bit(""), 0);
    ck_assert_uint_eq(ap_method_bit(NULL), 0);
}
END_TEST

START_TEST(patterns)
{
    const char *id = "unset";
    ck_assert(ap_route_matches("/v1/path", "/v1/path", &id));
    ck_assert_ptr_null(id);
    ck_assert(!ap_route_matches("/v1/path", "/v1/paths", NULL));
    ck_assert(!ap_route_matches("/v1/path", "/v1/path/", NULL));
    ck_assert(!ap_route_matches("/v1/path", "", NULL));

    const char *url = "/v1/maps/arena2";
    ck_assert(ap_route_matches("/v1/maps/{id}", url, &id));
    ck_assert_ptr_eq(id, url + 9);
    ck_assert_str_eq(id, "arena2");
    ck_assert(ap_route_matches("/v1/maps/{id}", "/v1/maps/x", &id));
    ck_assert_str_eq(id, "x");
    ck_assert(!ap_route_matches("/v1/maps/{id}", "/v1/maps/", &id));
    ck_assert_ptr_null(id);
    ck_assert(!ap_route_matches("/v1/maps/{id}", "/v1/maps", NULL));
    ck_assert(!ap_route_matches("/v1/maps/{id}", "/v1/maps/a/b", NULL));
    ck_assert(!ap_route_matches("/v1/maps/{id}", "/v1/mapsx/a", NULL));
    /* "{id}" may stand inside a pattern: the segment up to the next '/', then the rest exactly */
    url = "/v1/maps/den520d/cells";
    ck_assert(ap_route_matches("/v1/maps/{id}/cells", url, &id));
    ck_assert_ptr_eq(id, url + 9);
    ck_assert_uint_eq(ap_route_id_len("/v1/maps/{id}/cells", id), 7);
    ck_assert(!ap_route_matches("/v1/maps/{id}", url, NULL)); /* the final-{id} route does not take it */
    ck_assert(!ap_route_matches("/v1/maps/{id}/cells", "/v1/maps//cells", NULL));
    ck_assert(!ap_route_matches("/v1/maps/{id}/cells", "/v1/maps/a/cellsx", NULL));
    ck_assert(!ap_route_matches("/v1/maps/{id}/cells", "/v1/maps/a/b/cells", NULL));
    ck_assert(!ap_route_matches("/v1/maps/{id}/cells", "/v1/maps/a", NULL));
    ck_assert_uint_eq(ap_route_id_len("/v1/maps/{id}", "arena2"), 6);
    ck_assert_uint_eq(ap_route_id_len("/v1/maps/{id}", NULL), 0);
    /* An id that shares its segment with a suffix: "/v1/maps/{id}.svg". */
    ck_assert(ap_route_matches("/v1/maps/{id}.svg", "/v1/maps/den520d.svg", &id));
    ck_assert_str_eq(id, "den520d.svg");
    ck_assert_uint_eq(ap_route_id_len("/v1/maps/{id}.svg", id), 7);
    ck_assert(ap_route_matches("/v1/maps/{id}.svg", "/v1/maps/a.b.svg", &id));
    ck_assert_uint_eq(ap_route_id_len("/v1/maps/{id}.svg", id), 3);
    ck_assert(!ap_route_matches("/v1/maps/{id}.svg", "/v1/maps/.svg", NULL));   /* empty id */
    ck_assert(!ap_route_matches("/v1/maps/{id}.svg", "/v1/maps/den520d", NULL));
    ck_assert(!ap_route_matches("/v1/maps/{id}.svg", "/v1/maps/den520d.svgx", NULL));
    ck_assert(!ap_route_matches("/v1/maps/{id}.svg", "/v1/maps/den520d.svg/cells", NULL));
    ck_assert(!ap_route_matches("/v1/maps/{id}.svg", "/v1/maps/a/b.svg", NULL));
    ck_assert(ap_route_matches("/v1/maps/{id}", "/v1/maps/den520d.svg", NULL)); /* hence the table order */
    ck_assert(ap_route_matches("{id}", "anything", &id));
    ck_assert_str_eq(id, "anything");
    ck_assert(!ap_route_matches("/id}", "/x", NULL));
}
END_TEST

static int ends_txt(const char *path)
{
    size_t n = strlen(path);
    return n >= 4 && strcmp(path + n - 4, ".txt") == 0;
}

START_TEST(find_404_405)
{
    const ap_route t[] = {
        {AP_METHOD_GET | AP_METHOD_HEAD, "/a", NULL, "/a", NULL},
        {AP_METHOD_GET, "/b/{id}", NULL, "/b/{id}", NULL},
        {AP_METHOD_POST, "/b/{id}", NULL, "/b/{id} post", NULL},
        {AP_METHOD_GET, "files ending in .txt", NULL, "files", ends_txt},
    };
    unsigned allowed = 99;
    const char *id = NULL;
    ck_assert_int_eq(ap_route_find(t, 3, AP_METHOD_HEAD, "/a", &allowed, &id), 0);
    ck_assert_uint_eq(allowed, AP_METHOD_GET | AP_METHOD_HEAD);
    ck_assert_ptr_null(id);
    /* the same pattern under two routes: the method picks, Allow is their union */
    ck_assert_int_eq(ap_route_find(t, 3, AP_METHOD_POST, "/b/7", &allowed, &id), 2);
    ck_assert_uint_eq(allowed, AP_METHOD_GET | AP_METHOD_POST);
    ck_assert_str_eq(id, "7");
    ck_assert_int_eq(ap_route_find(t, 3, AP_METHOD_GET, "/b/8", &allowed, &id), 1);
    ck_assert_str_eq(id, "8");
    /* a method no route of the path takes: the first matching route (405, counted there) */
    ck_assert_int_eq(ap_route_find(t, 3, AP_METHOD_HEAD, "/b/9", &allowed, &id), 1);
    ck_assert_uint_eq(allowed & AP_METHOD_HEAD, 0);
    ck_assert_str_eq(id, "9");
    ck_assert_int_eq(ap_route_find(t, 3, 0, "/a", &allowed, NULL), 0);
    ck_assert_uint_eq(allowed, AP_METHOD_GET | AP_METHOD_HEAD);
    /* no pattern matches: 404 */
    ck_assert_int_eq(ap_route_find(t, 3, AP_METHOD_GET, "/c", &allowed, &id), -1);
    ck_assert_uint_eq(allowed, 0);
    ck_assert_ptr_null(id);
    ck_assert_int_eq(ap_route_find(t, 0, AP_METHOD_GET, "/a", &allowed, NULL), -1);
    /* a route with a match function takes what it accepts, whatever its pattern text; no {id} */
    ck_assert_int_eq(ap_route_find(t, 4, AP_METHOD_GET, "/notes.txt", &allowed, &id), 3);
    ck_assert_ptr_null(id);
    ck_assert_int_eq(ap_route_find(t, 4, AP_METHOD_GET, "/notes.md", &allowed, &id), -1);

    /* two patterns take the path: the longer (more specific) wins wherever it stands in the table, and a
     * match function loses to any pattern */
    const ap_route u[] = {
        {AP_METHOD_GET, "/m/{id}", NULL, "/m/{id}", NULL},
        {AP_METHOD_POST, "/m/x.txt", NULL, "exact", NULL},
        {AP_METHOD_GET, "/m/{id}.txt", NULL, "/m/{id}.txt", NULL},
        {AP_METHOD_GET, "files ending in .txt", NULL, "files", ends_txt},
    };
    ck_assert_int_eq(ap_route_find(u, 4, AP_METHOD_GET, "/m/a.txt", &allowed, &id), 2);
    ck_assert_uint_eq(ap_route_id_len(u[2].pattern, id), 1);
    ck_assert_int_eq(ap_route_find(u, 4, AP_METHOD_GET, "/m/a", &allowed, &id), 0);
    ck_assert_str_eq(id, "a");
    ck_assert_int_eq(ap_route_find(u, 4, AP_METHOD_GET, "/m/x.txt", &allowed, &id), 2); /* GET: not the POST row */
    ck_assert_uint_eq(allowed, AP_METHOD_GET | AP_METHOD_POST);
    ck_assert_int_eq(ap_route_find(u, 4, AP_METHOD_HEAD, "/m/x.txt", &allowed, &id), 2); /* 405: longest match */
}
END_TEST

START_TEST(allow_values)
{
    char buf[32];
    ck_assert_uint_eq(ap_route_allow(AP_METHOD_GET | AP_METHOD_HEAD, buf, sizeof buf), 9);
    ck_assert_str_eq(buf, "GET, HEAD");
    ck_assert_uint_eq(ap_route_allow(AP_METHOD_POST, buf, sizeof buf), 4);
    ck_assert_str_eq(buf, "POST");
    ck_assert_uint_eq(ap_route_allow(AP_METHOD_POST | AP_METHOD_GET | AP_METHOD_HEAD, buf, sizeof buf), 15);
    ck_assert_str_eq(buf, "GET, HEAD, POST");
    ck_assert_uint_eq(ap_route_allow(AP_METHOD_GET | AP_METHOD_HEAD | AP_METHOD_PUT | AP_METHOD_DELETE, buf, sizeof buf), 22);
    ck_assert_str_eq(buf, "GET, HEAD, PUT, DELETE");
    ck_assert_uint_eq(ap_route_allow(AP_METHOD_PATCH | AP_METHOD_GET, buf, sizeof buf), 10);
    ck_assert_str_eq(buf, "GET, PATCH");
    ck_assert_uint_eq(ap_route_allow(0, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "");
    /* cut to fit, still terminated; the return value says how much was needed */
    ck_assert_uint_eq(ap_route_allow(AP_METHOD_GET | AP_METHOD_HEAD, buf, 5), 9);
    ck_assert_str_eq(buf, "GET,");
}
END_TEST

/* The server's table: what each route takes, in the exposition's order, with the labels dashboards use. */
START_TEST(server_table)
{
    static const struct {
        const char *path;
        unsigned methods;
        const char *label;
        unsigned allowed; /* when other rows match the path too: the union of their methods; 0 = methods */
    } want[] = {
        {"/v1/path", AP_METHOD_POST, "/v1/path", 0},
        {"/v1/maps", AP_METHOD_GET | AP_METHOD_HEAD, "/v1/maps", 0},
        {"/v1/maps/arena", AP_METHOD_GET | AP_METHOD_HEAD | AP_METHOD_PUT | AP_METHOD_DELETE, "/v1/maps/{id}", 0},
        {"/healthz", AP_METHOD_GET | AP_METHOD_HEAD, "/healthz", 0},
        {"/readyz", AP_METHOD_GET | AP_METHOD_HEAD, "/readyz", 0},
        {"/metrics", AP_METHOD_GET | AP_METHOD_HEAD, "/metrics", 0},
        {"/v1/paths", AP_METHOD_POST, "/v1/paths", 0},
        {"/v1/curve", AP_METHOD_POST, "/v1/curve", 0},
        {"/v1/profiles", AP_METHOD_GET | AP_METHOD_HEAD, "/v1/profiles", 0},
        {"/v1/maps/arena/cells", AP_METHOD_GET | AP_METHOD_HEAD | AP_METHOD_PATCH, "/v1/maps/{id}/cells", 0},
        {"/v1/maps/arena/reload", AP_METHOD_POST, "/v1/maps/{id}/reload", 0},
        {"/v1/info", AP_METHOD_GET | AP_METHOD_HEAD, "/v1/info", 0},
        {"/openapi.yaml", AP_METHOD_GET | AP_METHOD_HEAD, "/openapi.yaml", 0}, /* ahead of the viewer's row */
        {"/openapi.json", AP_METHOD_GET | AP_METHOD_HEAD, "/openapi.json", 0},
        {"/viewer.js", AP_METHOD_GET | AP_METHOD_HEAD, "viewer", 0},
        {"/v1/render", AP_METHOD_POST, "/v1/render", 0},
        /* not /v1/maps/{id}, though its PUT and DELETE match the path too (and refuse a picture id: 400) */
        {"/v1/maps/arena.svg", AP_METHOD_GET | AP_METHOD_HEAD, "/v1/maps/{id}.svg",
         AP_METHOD_GET | AP_METHOD_HEAD | AP_METHOD_PUT | AP_METHOD_DELETE},
        {"/v1/maps/arena.png", AP_METHOD_GET | AP_METHOD_HEAD, "/v1/maps/{id}.png",
         AP_METHOD_GET | AP_METHOD_HEAD | AP_METHOD_PUT | AP_METHOD_DELETE},
    };
    size_t n = 0;
    const ap_route *t = ap_http_routes(&n);
    ck_assert_uint_eq(n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < n; i++) {
        unsigned allowed = 0;
        ck_assert_int_eq(ap_route_find(t, n, AP_METHOD_GET, want[i].path, &allowed, NULL), (int)i);
        ck_assert_uint_eq(allowed, want[i].allowed ? want[i].allowed : want[i].methods);
        ck_assert_uint_eq(t[i].methods, want[i].methods);
        ck_assert_str_eq(t[i].label, want[i].label);
        ck_assert_ptr_nonnull(t[i].handler);
    }
    ck_assert_int_eq(ap_route_find(t, n, AP_METHOD_GET, "/v1/maps/", NULL, NULL), -1);
    ck_assert_int_eq(ap_route_find(t, n, AP_METHOD_GET, "/", NULL, NULL), 14); /* the viewer's page */
    ck_assert_int_eq(ap_route_find(t, n, AP_METHOD_GET, "/v1/maps/.svg", NULL, NULL), 2); /* an id ".svg" */
    ck_assert_int_eq(ap_route_find(t, n, AP_METHOD_GET, "/v1/maps/a.svg/cells", NULL, NULL), 9);
    ck_assert_int_eq(ap_route_find(t, n, AP_METHOD_GET, "/nope.js", NULL, NULL), -1);
    ck_assert_int_eq(ap_route_find(t, n, AP_METHOD_GET, "/v2/path", NULL, NULL), -1);
}
END_TEST

/* proto/openapi.yaml describes every route of the table (read as text: a path item is a line "  <pattern>:"
 * under "paths:"), so a new row cannot ship undocumented. The viewer's row names a set of files, not a
 * path, and is described in the README. */
START_TEST(openapi_lists_every_route)
{
    size_t len = 0;
    char *yaml = ap_test_read_file("proto/openapi.yaml", &len);
    ck_assert_ptr_nonnull(yaml);
    const char *paths = strstr(yaml, "\npaths:\n");
    ck_assert_ptr_nonnull(paths);
    size_t n = 0;
    const ap_route *t = ap_http_routes(&n);
    for (size_t i = 0; i < n; i++) {
        if (t[i].match != NULL)
            continue;
        char item[160];
        snprintf(item, sizeof item, "\n  %s:\n", t[i].pattern);
        ck_assert_msg(strstr(paths, item) != NULL, "proto/openapi.yaml has no path item %s", t[i].pattern);
    }
    free(yaml);
}
END_TEST

static ap_metrics m; /* ~105 KiB: static rather than on Check's fork stack */

/* One response counted on every route and on no route: the exposition lists them in table order, then
 * "other", under exactly the label values of before the table. */
START_TEST(exposition_labels)
{
    size_t n = 0;
    const ap_route *t = ap_http_routes(&n);
    ap_metrics_init(&m, "t");
    ap_metrics_set_routes(&m, t, n);
    for (size_t i = 0; i < n; i++)
        ap_metrics_observe_request(&m, (int)i, 200 + (int)i, 1000);
    ap_metrics_observe_request(&m, -1, 404, 1000);
    ap_metrics_observe_request(&m, (int)n, 404, 1000); /* past the table: "other" too */
    char *text = ap_metrics_render(&m, NULL);
    ck_assert_ptr_nonnull(text);
    static const char *const lines[] = {
        "arcpath_requests_total{route=\"/v1/path\",code=\"200\"} 1\n",
        "arcpath_requests_total{route=\"/v1/maps\",code=\"201\"} 1\n",
        "arcpath_requests_total{route=\"/v1/maps/{id}\",code=\"202\"} 1\n",
        "arcpath_requests_total{route=\"/healthz\",code=\"203\"} 1\n",
        "arcpath_requests_total{route=\"/readyz\",code=\"204\"} 1\n",
        "arcpath_requests_total{route=\"/metrics\",code=\"205\"} 1\n",
        "arcpath_requests_total{route=\"/v1/paths\",code=\"206\"} 1\n",
        "arcpath_requests_total{route=\"/v1/curve\",code=\"207\"} 1\n",
        "arcpath_requests_total{route=\"/v1/profiles\",code=\"208\"} 1\n",
        "arcpath_requests_total{route=\"/v1/maps/{id}/cells\",code=\"209\"} 1\n",
        "arcpath_requests_total{route=\"/v1/maps/{id}/reload\",code=\"210\"} 1\n",
        "arcpath_requests_total{route=\"/v1/info\",code=\"211\"} 1\n",
        "arcpath_requests_total{route=\"/openapi.yaml\",code=\"212\"} 1\n",
        "arcpath_requests_total{route=\"/openapi.json\",code=\"213\"} 1\n",
        "arcpath_requests_total{route=\"viewer\",code=\"214\"} 1\n",
        "arcpath_requests_total{route=\"/v1/render\",code=\"215\"} 1\n",
        "arcpath_requests_total{route=\"/v1/maps/{id}.svg\",code=\"216\"} 1\n",
        "arcpath_requests_total{route=\"/v1/maps/{id}.png\",code=\"217\"} 1\n",
        "arcpath_requests_total{route=\"other\",code=\"404\"} 2\n",
    };
    const char *at = text;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        const char *p = strstr(at, lines[i]);
        ck_assert_msg(p != NULL, "missing or out of order: %s", lines[i]);
        at = p + strlen(lines[i]);
    }
    /* The duration histogram under the same labels: one series per route, "other" holding both. */
    for (size_t i = 0; i <= n; i++) {
        char want[160];
        snprintf(want, sizeof want, "arcpath_request_duration_seconds_count{route=\"%s\"} %d\n",
                 i < n ? t[i].label : "other", i < n ? 1 : 2);
        ck_assert_msg(strstr(text, want) != NULL, "missing: %s", want);
    }
    free(text);
}
END_TEST

Suite *route_suite(void)
{
    Suite *s = suite_create("server/route");
    TCase *tc = tcase_create("route");
    tcase_add_test(tc, method_bits);
    tcase_add_test(tc, patterns);
    tcase_add_test(tc, find_404_405);
    tcase_add_test(tc, allow_values);
    tcase_add_test(tc, server_table);
    tcase_add_test(tc, openapi_lists_every_route);
    tcase_add_test(tc, exposition_labels);
    suite_add_tcase(s, tc);
    return s;
}
