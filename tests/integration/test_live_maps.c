/* test_live_maps.c — the map lifecycle against real arcpathd processes: PUT (new, replace, bad file,
 * limits), DELETE, reload from disk, SIGHUP folder reload, PATCH of cells, the admin-token matrix,
 * map_version in answers, and maps replaced under a continuous query load with zero wrong answers. */
#include "tests/check_fast.h"
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

Suite *live_maps_suite(void);

#define TOKEN "test-admin-token-0123456789"
static const char *const auth[] = {"Authorization: Bearer " TOKEN, NULL};

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void put_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void drop_file(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unlink(path);
}

/* A Moving AI file w x h of '.', with a wall '@' at column wall_x from row 0 to row wall_to (wall_x < 0:
 * none). malloc'd. */
static char *grid_file(int w, int h, int wall_x, int wall_to)
{
    size_t cap = 64 + (size_t)(w + 1) * (size_t)h;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    int at = snprintf(s, cap, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++)
            s[at++] = (x == wall_x && y <= wall_to) ? '@' : '.';
        s[at++] = '\n';
    }
    s[at] = '\0';
    return s;
}

static char *tmp_maps_dir(void)
{
    static char dirs[8][40];
    static int k;
    char *d = dirs[k++ % 8];
    snprintf(d, 40, "/tmp/arcpath-live-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(d));
    put_file(d, "a.map", "type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n");
    return d;
}

static void rm_maps_dir(const char *dir)
{
    static const char *const names[] = {"a.map", "c.map", "d.map", "e.map"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        drop_file(dir, names[i]);
    rmdir(dir);
}

static json_t *json_of(const ap_resp *r)
{
    json_t *j = ap_resp_json(r);
    ck_assert_msg(j != NULL, "not JSON: %s", r->body ? r->body : "(none)");
    return j;
}

static long long int_of(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    ck_assert_msg(json_is_integer(v), "no integer \"%s\"", key);
    return json_integer_value(v);
}

/* The answer's error.<key> (a string; "(null)" when absent), in a buffer the next call overwrites. */
static const char *error_field(const ap_resp *r, const char *key)
{
    static char text[320];
    json_t *j = json_of(r);
    snprintf(text, sizeof text, "%s", json_string_value(json_object_get(json_object_get(j, "error"), key)));
    json_decref(j);
    return text;
}

static const char *error_code(const ap_resp *r)
{
    return error_field(r, "code");
}

/* A request with the admin token; returns the HTTP status and fills r. */
static long admin(const ap_srv *s, const char *method, const char *path, const char *body, ap_resp *r)
{
    int rc = ap_http(s, method, path, body, body ? strlen(body) : 0, auth, r);
    ck_assert_msg(rc == 0, "%s %s: transport error", method, path);
    return r->status;
}

static long long version_of(const ap_srv *s, const char *id)
{
    char path[128];
    snprintf(path, sizeof path, "/v1/maps/%s", id);
    ap_resp r;
    ck_assert_int_eq(ap_http(s, "GET", path, NULL, 0, NULL, &r), 0);
    long long v = 0;
    if (r.status == 200) {
        json_t *j = json_of(&r);
        v = int_of(j, "map_version");
        json_decref(j);
    }
    ap_resp_free(&r);
    return v;
}

/* Send only head (a request's head announcing a body) over a new connection and read the answer until the
 * server closes (10 s at most) into ans (cap bytes, NUL-terminated): a refusal made before the body. */
static void head_only(const ap_srv *s, const char *head, char *ans, size_t cap)
{
    int fd = ap_raw_connect(s->port, NULL);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ap_send_all(fd, head, strlen(head)), 0);
    struct timeval tv = {10, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    size_t got = 0;
    for (ssize_t k; got + 1 < cap && (k = recv(fd, ans + got, cap - 1 - got, 0)) > 0;)
        got += (size_t)k;
    ans[got] = '\0';
    close(fd);
}

static const char *const token_env[] = {"ARCPATH_ADMIN_TOKEN=" TOKEN, "ARCPATH_MAX_MAP_UPLOAD_BYTES=400000", NULL};

START_TEST(put_replace_bad_file_delete)
{
    char *dir = tmp_maps_dir();
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, dir, NULL, token_env), 0);
    ck_assert_int_eq(version_of(&s, "a"), 1);
    ap_resp r;

    /* new: 201 with the map info */
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/b", "type octile\nheight 3\nwidth 4\nmap\n....\n....\n....\n", &r), 201);
    json_t *j = json_of(&r);
    ck_assert_str_eq(json_string_value(json_object_get(j, "id")), "b");
    ck_assert_int_eq(int_of(j, "map_version"), 1);
    ck_assert_int_eq(int_of(j, "width"), 4);
    ck_assert_int_eq(int_of(j, "passable_cells"), 12);
    json_decref(j);
    ap_resp_free(&r);

    /* replaced: 200, the next version */
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/b", "type octile\nheight 3\nwidth 5\nmap\n.....\n.....\n.....\n", &r), 200);
    j = json_of(&r);
    ck_assert_int_eq(int_of(j, "map_version"), 2);
    ck_assert_int_eq(int_of(j, "width"), 5);
    json_decref(j);
    ap_resp_free(&r);

    /* a bad file: 400 map_format with where; the registry keeps version 2 */
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/b", "type octile\nheight 3\nwidth 5\nmap\n.....\n...\n.....\n", &r), 400);
    j = json_of(&r);
    json_t *e = json_object_get(j, "error");
    ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "map_format");
    ck_assert_int_eq(int_of(e, "line"), 6);
    ck_assert_int_eq(int_of(e, "column"), 4);
    json_decref(j);
    ap_resp_free(&r);
    ck_assert_int_eq(version_of(&s, "b"), 2);

    /* answers name the version they ran on */
    ck_assert_int_eq(ap_post(&s, "/v1/path", "{\"map\":\"b\",\"start\":{\"x\":0.5,\"y\":0.5},\"goal\":{\"x\":4.5,\"y\":0.5}}", &r), 0);
    ck_assert_int_eq(r.status, 200);
    j = json_of(&r);
    ck_assert_int_eq(int_of(j, "map_version"), 2);
    ck_assert_double_eq(json_real_value(json_object_get(j, "length")), 4.0);
    json_decref(j);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_post(&s, "/v1/paths", "{\"map\":\"b\",\"queries\":[{\"start\":{\"x\":0.5,\"y\":0.5},\"goal\":{\"x\":2.5,\"y\":0.5}}]}", &r), 0);
    ck_assert_int_eq(r.status, 200);
    j = json_of(&r);
    ck_assert_int_eq(int_of(j, "map_version"), 2);
    json_decref(j);
    ap_resp_free(&r);

    /* GET /v1/maps lists versions */
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps", NULL, 0, NULL, &r), 0);
    j = json_of(&r);
    json_t *maps = json_object_get(j, "maps");
    ck_assert_uint_eq(json_array_size(maps), 2);
    ck_assert_int_eq(int_of(json_array_get(maps, 1), "map_version"), 2);
    json_decref(j);
    ap_resp_free(&r);

    /* a JSON body is a circle map: a version of kind circles, without cells */
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/forest", "{\"width\": 8, \"height\": 6, \"circles\": [{\"x\": 4, \"y\": 3, \"r\": 1}]}", &r),
                     201);
    j = json_of(&r);
    ck_assert_str_eq(json_string_value(json_object_get(j, "kind")), "circles");
    ck_assert_int_eq(int_of(j, "map_version"), 1);
    ck_assert_int_eq(int_of(j, "circles"), 1);
    json_decref(j);
    ap_resp_free(&r);
    ck_assert_int_eq(admin(&s, "DELETE", "/v1/maps/forest", NULL, &r), 204);
    ap_resp_free(&r);

    /* ids, limits */
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/bad!id", "type octile\nheight 1\nwidth 1\nmap\n.\n", &r), 400);
    ck_assert_str_eq(error_code(&r), "invalid_request");
    ap_resp_free(&r);
    char *big = grid_file(520, 520, -1, 0); /* 522 * 522 nodes > the 262144 the workspaces hold */
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/big", big, &r), 413);
    ck_assert_str_eq(error_code(&r), "map_too_large");
    ck_assert_msg(strstr(r.body, "the map has more nodes, (width + 2) * (height + 2) = 272484, than the search "
                                 "workspaces hold (262144: max_workspace_cells, or the largest map's at start)\","
                                 "\"line\":3,\"column\":7") != NULL,
                  "%s", r.body);
    ap_resp_free(&r);
    free(big);
    /* 490 KB > max_map_upload_bytes 400000: refused on the headers, before a byte of the body is read. Only
     * the headers are sent: the server closes after its answer, and a client still sending the body may be
     * reset before it reads the 413 (libcurl's transport error, seen once under load). */
    char ans[2048];
    head_only(&s, "PUT /v1/maps/big HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " TOKEN "\r\n"
                  "Content-Length: 490000\r\n\r\n", ans, sizeof ans);
    ck_assert_msg(strncmp(ans, "HTTP/1.1 413", 12) == 0 && strstr(ans, "\"payload_too_large\"") != NULL, "%s", ans);
    ck_assert_int_eq(version_of(&s, "big"), 0);

    /* DELETE: 204, then 404; the version numbering goes on after a new PUT */
    ck_assert_int_eq(admin(&s, "DELETE", "/v1/maps/b", NULL, &r), 204);
    ck_assert_uint_eq(r.len, 0);
    ck_assert_str_eq(r.content_type, ""); /* no content, no Content-Type (it said application/json) */
    ap_resp_free(&r);
    ck_assert_int_eq(version_of(&s, "b"), 0);
    ck_assert_int_eq(admin(&s, "DELETE", "/v1/maps/b", NULL, &r), 404);
    ck_assert_str_eq(error_code(&r), "unknown_map");
    ap_resp_free(&r);
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/b", "type octile\nheight 1\nwidth 2\nmap\n..\n", &r), 201);
    ap_resp_free(&r);
    ck_assert_int_eq(version_of(&s, "b"), 3);

    ck_assert_int_eq(ap_srv_stop(&s), 0);
    rm_maps_dir(dir);
}
END_TEST

START_TEST(patch_cells_makes_a_new_version)
{
    char *dir = tmp_maps_dir();
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, dir, NULL, token_env), 0);
    ap_resp r;
    char *open = grid_file(10, 3, -1, 0);
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/p", open, &r), 201);
    json_t *put = json_of(&r); /* a fresh load: every table built, none marked incremental */
    ck_assert_ptr_null(json_object_get(json_array_get(json_object_get(put, "tables"), 0), "incremental"));
    json_decref(put);
    ap_resp_free(&r);
    free(open);
    const char *q = "{\"map\":\"p\",\"start\":{\"x\":0.5,\"y\":0.5},\"goal\":{\"x\":9.5,\"y\":0.5}}";
    /* a wall across the map: no path; then a door in it */
    ck_assert_int_eq(admin(&s, "PATCH", "/v1/maps/p/cells",
                           "{\"cells\":[{\"x\":5,\"y\":0,\"terrain\":\"@\"},{\"x\":5,\"y\":1,\"terrain\":\"@\"},"
                           "{\"x\":5,\"y\":2,\"terrain\":\"@\"}]}", &r), 200);
    json_t *j = json_of(&r);
    ck_assert_int_eq(int_of(j, "map_version"), 2);
    ck_assert_int_eq(int_of(j, "passable_cells"), 27);
    json_decref(j);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_post(&s, "/v1/path", q, &r), 0);
    j = json_of(&r);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "no_path");
    ck_assert_int_eq(int_of(j, "map_version"), 2);
    json_decref(j);
    ap_resp_free(&r);
    ck_assert_int_eq(admin(&s, "PATCH", "/v1/maps/p/cells", "{\"cells\":[{\"x\":5,\"y\":2,\"terrain\":\".\"}]}", &r), 200);
    /* the door joins the two regions: the region table updated from version 2's, not built again */
    j = json_of(&r);
    ck_assert_int_eq(int_of(j, "map_version"), 3);
    char etag[64], again[64];
    ck_assert_ptr_nonnull(ap_resp_header(&r, "ETag", etag, sizeof etag));
    json_decref(j);
    ap_resp_free(&r);
    /* the same edit again (a client re-sending the door's state) changes no letter: version 3 answers, with its
     * ETag, and no version is made (it made version 4 and rebuilt the tables: a helper) */
    ck_assert_int_eq(admin(&s, "PATCH", "/v1/maps/p/cells", "{\"cells\":[{\"x\":5,\"y\":2,\"terrain\":\".\"}]}", &r), 200);
    j = json_of(&r);
    ck_assert_int_eq(int_of(j, "map_version"), 3);
    ck_assert_ptr_nonnull(ap_resp_header(&r, "ETag", again, sizeof again));
    ck_assert_str_eq(again, etag);
    json_t *region = json_array_get(json_object_get(j, "tables"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(region, "name")), "region");
    ck_assert_int_eq(int_of(region, "regions"), 1);
    ck_assert(json_is_true(json_object_get(region, "incremental")));
    json_decref(j);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_post(&s, "/v1/path", q, &r), 0);
    j = json_of(&r);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "ok");
    ck_assert_int_eq(int_of(j, "map_version"), 3);
    json_decref(j);
    ap_resp_free(&r);
    /* a start on the wall: the 422 names the version that found it blocked; a 400 (the request's own fault,
     * whatever the map) names none */
    ck_assert_int_eq(ap_post(&s, "/v1/path", "{\"map\":\"p\",\"start\":{\"x\":5.5,\"y\":0.5},"
                                             "\"goal\":{\"x\":9.5,\"y\":0.5}}", &r), 0);
    ck_assert_int_eq(r.status, 422);
    j = json_of(&r);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "code")), "start_blocked");
    ck_assert_int_eq(int_of(json_object_get(j, "error"), "map_version"), 3);
    json_decref(j);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_post(&s, "/v1/path", "{\"map\":\"p\",\"start\":{\"x\":0.5,\"y\":0.5},"
                                             "\"goal\":{\"x\":9.5,\"y\":0.5},\"unit\":{\"radius\":-1}}", &r), 0);
    ck_assert_int_eq(r.status, 400);
    j = json_of(&r);
    ck_assert_ptr_null(json_object_get(json_object_get(j, "error"), "map_version"));
    json_decref(j);
    ap_resp_free(&r);
    /* the map's cells show the edit */
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/p/cells", NULL, 0, NULL, &r), 0);
    j = json_of(&r);
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(j, "rows"), 0)), ".....@....");
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(j, "rows"), 2)), "..........");
    json_decref(j);
    ap_resp_free(&r);
    /* the most edits one PATCH takes, 4,096, in a body past max_body_bytes (64 KiB here): PATCH has the
     * map-upload cap, as PUT does; one more edit is refused by count */
    char *big = malloc(4097 * 40 + 32);
    ck_assert_ptr_nonnull(big);
    for (int n = 4096; n <= 4097; n++) {
        size_t k = (size_t)sprintf(big, "{\"cells\":[");
        for (int i = 0; i < n; i++)
            k += (size_t)sprintf(big + k, "%s{\"x\":%d,\"y\":%d,\"terrain\":\".\"}", i ? "," : "", i % 10, i / 10 % 3);
        sprintf(big + k, "]}");
        ck_assert_uint_gt(strlen(big), 65536);
        ck_assert_int_eq(admin(&s, "PATCH", "/v1/maps/p/cells", big, &r), n == 4096 ? 200 : 400);
        if (n == 4097)
            ck_assert_str_eq(error_field(&r, "field"), "cells");
        ap_resp_free(&r);
    }
    free(big);
    /* bad edits: the field named, nothing changed */
    ck_assert_int_eq(admin(&s, "PATCH", "/v1/maps/p/cells", "{\"cells\":[{\"x\":10,\"y\":0,\"terrain\":\"@\"}]}", &r), 400);
    j = json_of(&r);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "field")), "cells[0]");
    json_decref(j);
    ap_resp_free(&r);
    ck_assert_int_eq(admin(&s, "PATCH", "/v1/maps/p/cells", "{\"cells\":[{\"x\":1,\"y\":0,\"terrain\":\"x\"}]}", &r), 400);
    j = json_of(&r);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "field")), "cells[0].terrain");
    json_decref(j);
    ap_resp_free(&r);
    ck_assert_int_eq(admin(&s, "PATCH", "/v1/maps/p/cells", "{\"cells\":[]}", &r), 400);
    ap_resp_free(&r);
    ck_assert_int_eq(admin(&s, "PATCH", "/v1/maps/nope/cells", "{\"cells\":[{\"x\":0,\"y\":0,\"terrain\":\"@\"}]}", &r), 404);
    ck_assert_str_eq(error_field(&r, "message"), "no map \"nope\" is loaded (GET /v1/maps lists them)");
    ap_resp_free(&r);
    ck_assert_int_eq(version_of(&s, "p"), 4); /* 2 and 3 above, 4 the 4,096 edits */
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    rm_maps_dir(dir);
}
END_TEST

/* A request with the admin token and one more header line; returns the HTTP status and fills r. */
static long admin_if(const ap_srv *s, const char *method, const char *path, const char *body, const char *hdr,
                     ap_resp *r)
{
    const char *h[] = {auth[0], hdr, NULL};
    int rc = ap_http(s, method, path, body, body ? strlen(body) : 0, h, r);
    ck_assert_msg(rc == 0, "%s %s: transport error", method, path);
    return r->status;
}

/* Compare-and-set on a map's version (RFC 9110 13.1.1-13.1.2): every map answer carries the version's ETag;
 * a change whose If-Match does not name the current one, or whose If-None-Match: * meets a loaded map, is
 * 412 precondition_failed and changes nothing (the headers were ignored: a stale edit overwrote a newer one,
 * a helper); a GET whose If-None-Match names it is 304. */
START_TEST(conditional_changes_by_etag)
{
    char *dir = tmp_maps_dir();
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, dir, NULL, token_env), 0);
    ap_resp r;
    char e1[64], e2[64], got[64], hdr[96];
    char *open = grid_file(40, 30, -1, 0); /* cells of 1,200 letters: gzip'd to a client that takes it */
    ck_assert_int_eq(admin_if(&s, "PUT", "/v1/maps/c", open, "If-None-Match: *", &r), 201);
    ck_assert_ptr_null(ap_resp_header(&r, "ETag", e1, sizeof e1)); /* RFC 9110 9.3.4: not on a PUT's answer */
    ap_resp_free(&r);
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/c", NULL, 0, NULL, &r), 0);
    ck_assert_ptr_nonnull(ap_resp_header(&r, "ETag", e1, sizeof e1));
    ck_assert_msg(strncmp(e1, "\"1.", 3) == 0 && strlen(e1) == 12, "ETag %s", e1);
    ap_resp_free(&r);
    ck_assert_int_eq(admin_if(&s, "PUT", "/v1/maps/c", open, "If-None-Match: *", &r), 412);
    ck_assert_str_eq(error_code(&r), "precondition_failed");
    ap_resp_free(&r);
    free(open);
    ck_assert_int_eq(version_of(&s, "c"), 1);
    /* GET: the same ETag, never weakened by gzip; If-None-Match naming it: 304, no body */
    const char *gz[] = {"Accept-Encoding: gzip", NULL};
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/c", NULL, 0, gz, &r), 0);
    ck_assert_str_eq(ap_resp_header(&r, "ETag", got, sizeof got), e1);
    ck_assert_ptr_null(ap_resp_header(&r, "Content-Encoding", got, sizeof got));
    ap_resp_free(&r);
    snprintf(hdr, sizeof hdr, "If-None-Match: %s", e1);
    const char *inm[] = {hdr, NULL};
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/c", NULL, 0, inm, &r), 0);
    ck_assert_int_eq(r.status, 304);
    ck_assert_uint_eq(r.len, 0);
    ck_assert_str_eq(ap_resp_header(&r, "ETag", got, sizeof got), e1);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/c/cells", NULL, 0, inm, &r), 0);
    ck_assert_int_eq(r.status, 304);
    ap_resp_free(&r);
    /* the cells' 304 to a gzip client carries the ETag and Vary its 200 does (weak; it sent them strong) */
    char wtag[96];
    snprintf(wtag, sizeof wtag, "If-None-Match: W/%s", e1);
    const char *gz_inm[] = {"Accept-Encoding: gzip", wtag, NULL};
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/c/cells", NULL, 0, gz, &r), 0);
    ck_assert_int_eq(r.status, 200);
    char w200[64], vary200[64];
    ck_assert_ptr_nonnull(ap_resp_header(&r, "ETag", w200, sizeof w200));
    ck_assert_ptr_nonnull(ap_resp_header(&r, "Vary", vary200, sizeof vary200));
    ap_resp_free(&r);
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/c/cells", NULL, 0, gz_inm, &r), 0);
    ck_assert_int_eq(r.status, 304);
    ck_assert_str_eq(ap_resp_header(&r, "ETag", got, sizeof got), w200);
    ck_assert_str_eq(w200 + 2, e1);
    ck_assert_str_eq(ap_resp_header(&r, "Vary", got, sizeof got), vary200);
    ap_resp_free(&r);
    /* a stale If-Match: 412 naming the current version, nothing changed */
    const char *edit = "{\"cells\":[{\"x\":5,\"y\":1,\"terrain\":\"@\"}]}";
    ck_assert_int_eq(admin_if(&s, "PATCH", "/v1/maps/c/cells", edit, "If-Match: \"9.00000000\"", &r), 412);
    ck_assert_str_eq(error_code(&r), "precondition_failed");
    ck_assert_ptr_nonnull(strstr(error_field(&r, "message"), "is at map_version 1"));
    ap_resp_free(&r);
    ck_assert_int_eq(version_of(&s, "c"), 1);
    /* the current one: the edit goes in, with the new version's ETag; the old one no longer matches */
    snprintf(hdr, sizeof hdr, "If-Match: %s", e1);
    ck_assert_int_eq(admin_if(&s, "PATCH", "/v1/maps/c/cells", edit, hdr, &r), 200);
    ck_assert_ptr_nonnull(ap_resp_header(&r, "ETag", e2, sizeof e2));
    ck_assert_msg(strncmp(e2, "\"2.", 3) == 0 && strcmp(e2 + 2, e1 + 2) == 0, "ETags %s then %s", e1, e2);
    ap_resp_free(&r);
    ck_assert_int_eq(admin_if(&s, "PATCH", "/v1/maps/c/cells", edit, hdr, &r), 412);
    ap_resp_free(&r);
    ck_assert_int_eq(admin_if(&s, "DELETE", "/v1/maps/c", NULL, hdr, &r), 412);
    ap_resp_free(&r);
    ck_assert_int_eq(version_of(&s, "c"), 2);
    /* two If-Match lines are one list (RFC 9110 5.3): the second naming the current tag lets the edit in */
    char cur[96];
    snprintf(cur, sizeof cur, "If-Match: %s", e2);
    const char *two[] = {auth[0], "If-Match: \"1.00000000\"", cur, NULL};
    const char *undo = "{\"cells\":[{\"x\":5,\"y\":1,\"terrain\":\".\"}]}"; /* (edit again changes nothing) */
    ck_assert_int_eq(ap_http(&s, "PATCH", "/v1/maps/c/cells", undo, strlen(undo), two, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ck_assert_ptr_nonnull(ap_resp_header(&r, "ETag", e2, sizeof e2));
    ck_assert_msg(strncmp(e2, "\"3.", 3) == 0, "ETag %s", e2);
    ap_resp_free(&r);
    /* If-Match: * on a map that is there, then on one that is not */
    ck_assert_int_eq(admin_if(&s, "DELETE", "/v1/maps/c", NULL, "If-Match: *", &r), 204);
    ap_resp_free(&r);
    ck_assert_int_eq(admin_if(&s, "DELETE", "/v1/maps/c", NULL, "If-Match: *", &r), 404);
    ap_resp_free(&r);
    ck_assert_int_eq(admin_if(&s, "PUT", "/v1/maps/c", "type octile\nheight 1\nwidth 2\nmap\n..\n", "If-Match: *", &r),
                     412);
    ck_assert_ptr_nonnull(strstr(error_field(&r, "message"), "has no current version"));
    ap_resp_free(&r);
    ck_assert_int_eq(version_of(&s, "c"), 0);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    rm_maps_dir(dir);
}
END_TEST

START_TEST(reload_from_disk)
{
    char *dir = tmp_maps_dir();
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, dir, NULL, token_env), 0);
    ap_resp r;
    ck_assert_int_eq(admin(&s, "POST", "/v1/maps/c/reload", NULL, &r), 404); /* neither loaded nor on disk */
    ck_assert_str_eq(error_code(&r), "unknown_map");
    ck_assert_str_eq(error_field(&r, "message"),
                     "the maps folder has no file c.map or c.circles.json, and no map of that id is loaded");
    ap_resp_free(&r);
    put_file(dir, "c.map", "type octile\nheight 1\nwidth 2\nmap\n..\n");
    ck_assert_int_eq(admin(&s, "POST", "/v1/maps/c/reload", NULL, &r), 201);
    ap_resp_free(&r);
    put_file(dir, "c.map", "type octile\nheight 1\nwidth 3\nmap\n...\n");
    ck_assert_int_eq(admin(&s, "POST", "/v1/maps/c/reload", NULL, &r), 200);
    json_t *j = json_of(&r);
    ck_assert_int_eq(int_of(j, "map_version"), 2);
    ck_assert_int_eq(int_of(j, "width"), 3);
    json_decref(j);
    ap_resp_free(&r);
    put_file(dir, "c.map", "type octile\nheight 1\nwidth 3\nmap\n..\n");
    ck_assert_int_eq(admin(&s, "POST", "/v1/maps/c/reload", NULL, &r), 400);
    j = json_of(&r);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "code")), "map_format");
    ck_assert_int_eq(int_of(json_object_get(j, "error"), "line"), 5);
    json_decref(j);
    ap_resp_free(&r);
    drop_file(dir, "c.map");
    ck_assert_int_eq(admin(&s, "POST", "/v1/maps/c/reload", NULL, &r), 404); /* loaded, file gone: kept */
    ck_assert_str_eq(error_field(&r, "message"),
                     "the maps folder has no file c.map or c.circles.json; map_version 2 is kept");
    ap_resp_free(&r);
    ck_assert_int_eq(version_of(&s, "c"), 2);
    /* a dangling link named c.map is a file that cannot be opened (400, as the folder's scan reports it),
     * not "no file" (404: a maploader helper) */
    char link[96];
    snprintf(link, sizeof link, "%s/c.map", dir);
    ck_assert_int_eq(symlink("/nonexistent/arcpath-target.map", link), 0);
    ck_assert_int_eq(admin(&s, "POST", "/v1/maps/c/reload", NULL, &r), 400);
    ck_assert_str_eq(error_code(&r), "map_format");
    ck_assert_msg(strstr(error_field(&r, "message"), "cannot open") != NULL, "%s", r.body);
    ap_resp_free(&r);
    ck_assert_int_eq(version_of(&s, "c"), 2);
    /* ... and beside a c.circles.json that one is loaded, as the folder's scan loads it (a reviewer) */
    put_file(dir, "c.circles.json", "{\"width\": 10, \"height\": 10, \"circles\": [{\"x\": 5, \"y\": 5, \"r\": 1}]}");
    ck_assert_int_eq(admin(&s, "POST", "/v1/maps/c/reload", NULL, &r), 200);
    j = json_of(&r);
    ck_assert_str_eq(json_string_value(json_object_get(j, "kind")), "circles");
    json_decref(j);
    ap_resp_free(&r);
    /* so is a directory named c.map (README: "a directory or FIFO named x.map is none"): it answered 400
     * "not a regular file" while the folder's scan served the circles (a helper) */
    unlink(link);
    ck_assert_int_eq(mkdir(link, 0700), 0);
    ck_assert_int_eq(admin(&s, "POST", "/v1/maps/c/reload", NULL, &r), 200);
    j = json_of(&r);
    ck_assert_str_eq(json_string_value(json_object_get(j, "kind")), "circles");
    ck_assert_int_eq(int_of(j, "map_version"), 4);
    json_decref(j);
    ap_resp_free(&r);
    drop_file(dir, "c.circles.json");
    /* without the circles, the directory is what the route names (400, as before) */
    ck_assert_int_eq(admin(&s, "POST", "/v1/maps/c/reload", NULL, &r), 400);
    ck_assert_msg(strstr(error_field(&r, "message"), "not a regular file") != NULL, "%s", r.body);
    ap_resp_free(&r);
    rmdir(link);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    rm_maps_dir(dir);
}
END_TEST

START_TEST(sighup_reloads_the_folder)
{
    char *dir = tmp_maps_dir();
    put_file(dir, "e.map", "type octile\nheight 1\nwidth 2\nmap\n..\n");
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, dir, NULL, token_env), 0);
    ap_resp r;
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/up", "type octile\nheight 1\nwidth 1\nmap\n.\n", &r), 201);
    ap_resp_free(&r);
    put_file(dir, "d.map", "type octile\nheight 2\nwidth 2\nmap\n..\n..\n"); /* new */
    put_file(dir, "a.map", "type octile\nheight 1\nwidth 4\nmap\n....\n");    /* changed */
    drop_file(dir, "e.map");                                                   /* removed */
    ck_assert_int_eq(kill(s.pid, SIGHUP), 0);
    ck_assert_int_eq(kill(s.pid, SIGHUP), 0); /* coalesced or run once more: the outcome is the same */
    int i = 0;
    for (; i < 200 && (version_of(&s, "d") == 0 || version_of(&s, "e") != 0 || version_of(&s, "a") != 2); i++)
        sleep_ms(50);
    ck_assert_msg(i < 200, "the folder reload did not show within 10 s");
    ck_assert_int_eq(version_of(&s, "d"), 1);
    ck_assert_int_eq(version_of(&s, "up"), 1); /* a map PUT without a file stays */
    for (i = 0; i < 200 && ap_metric_now(&s, "arcpath_map_rescans_total", "") < 1; i++)
        sleep_ms(50);
    const double rescans = ap_metric_now(&s, "arcpath_map_rescans_total", "");
    ck_assert(rescans == 1 || rescans == 2);
    ck_assert_double_eq(ap_metric_now(&s, "arcpath_map_rescan_errors_total", ""), 0);
    /* a bad file keeps the loaded version, and the rescan's error is counted */
    put_file(dir, "a.map", "type octile\nheight 1\nwidth 4\nmap\n..\n");
    ck_assert_int_eq(kill(s.pid, SIGHUP), 0);
    for (i = 0; i < 200 && ap_metric_now(&s, "arcpath_map_rescan_errors_total", "") < 1; i++)
        sleep_ms(50);
    ck_assert_double_eq(ap_metric_now(&s, "arcpath_map_rescan_errors_total", ""), 1);
    ck_assert_double_ge(ap_metric_now(&s, "arcpath_map_rescans_total", ""), rescans + 1);
    ck_assert_int_eq(version_of(&s, "a"), 2);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    rm_maps_dir(dir);
}
END_TEST

/* max_maps over HTTP: with 2 maps held, PUT and reload of a new id answer 409 map_limit (nothing changed,
 * a map file on disk not read; a reload of an id without a file is 404 unknown_map), a replacement of a held id is answered as always, a DELETE makes room,
 * and /v1/info says the limit. */
START_TEST(max_maps_refuses_new_ids)
{
    char *dir = tmp_maps_dir(); /* a.map */
    static const char *const env[] = {"ARCPATH_ADMIN_TOKEN=" TOKEN, "ARCPATH_MAX_MAPS=2", NULL};
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, dir, NULL, env), 0);
    ap_resp r;
    static const char one[] = "type octile\nheight 1\nwidth 1\nmap\n.\n";
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/b", one, &r), 201);
    ap_resp_free(&r);
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/c", one, &r), 409);
    ck_assert_str_eq(error_code(&r), "map_limit");
    ck_assert_str_eq(error_field(&r, "message"), "the server holds max_maps (2) maps: DELETE one before adding "
                                                 "c, or raise max_maps; nothing was changed");
    ap_resp_free(&r);
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/c", "{\"width\": 4, \"height\": 4, \"circles\": []}", &r), 409);
    ap_resp_free(&r);
    /* refused on the headers, before a byte of the body is read (nor "100 Continue" sent) */
    char ans[2048];
    head_only(&s, "PUT /v1/maps/c HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " TOKEN "\r\n"
                  "Content-Length: 300000\r\nExpect: 100-continue\r\n\r\n", ans, sizeof ans);
    ck_assert_msg(strncmp(ans, "HTTP/1.1 409", 12) == 0, "%s", ans);
    /* an id no map may have is refused for that, full or not */
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/x.svg", one, &r), 400);
    ck_assert_str_eq(error_code(&r), "invalid_request");
    ap_resp_free(&r);
    /* a reload of an id with no file is 404 full or not (it was 409 on its headers, a helper) */
    ck_assert_int_eq(admin(&s, "POST", "/v1/maps/c/reload", NULL, &r), 404);
    ck_assert_str_eq(error_code(&r), "unknown_map");
    ap_resp_free(&r);
    put_file(dir, "c.map", one);
    ck_assert_int_eq(admin(&s, "POST", "/v1/maps/c/reload", NULL, &r), 409);
    ck_assert_str_eq(error_code(&r), "map_limit");
    ap_resp_free(&r);
    ck_assert_int_eq(version_of(&s, "c"), 0);
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/b", "type octile\nheight 1\nwidth 2\nmap\n..\n", &r), 200);
    ap_resp_free(&r);
    ck_assert_int_eq(version_of(&s, "b"), 2);
    ck_assert_int_eq(admin(&s, "POST", "/v1/maps/a/reload", NULL, &r), 200);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/info", NULL, 0, NULL, &r), 0);
    json_t *j = json_of(&r);
    ck_assert_int_eq(int_of(json_object_get(j, "limits"), "max_maps"), 2);
    json_decref(j);
    ap_resp_free(&r);
    ck_assert_int_eq(admin(&s, "DELETE", "/v1/maps/b", NULL, &r), 204);
    ap_resp_free(&r);
    ck_assert_int_eq(admin(&s, "POST", "/v1/maps/c/reload", NULL, &r), 201);
    ap_resp_free(&r);
    ck_assert_int_eq(version_of(&s, "c"), 1);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    rm_maps_dir(dir);
}
END_TEST

/* A map larger than the search workspaces is refused from its header, before its rows are read or its
 * tables built (a 4000 x 4000 upload to a 70,000-node server took 2.7 s and 640 MB for a certain 413, a
 * maploader helper): a header alone is enough to get the 413, with the header's line. */
START_TEST(workspace_size_refused_from_the_header)
{
    char *dir = tmp_maps_dir(); /* a.map */
    static const char *const env[] = {"ARCPATH_ADMIN_TOKEN=" TOKEN, "ARCPATH_MAX_WORKSPACE_CELLS=70000", NULL};
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, dir, NULL, env), 0);
    ap_resp r;
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/big", "type octile\nheight 300\nwidth 300\nmap\n", &r), 413);
    ck_assert_str_eq(error_code(&r), "map_too_large");
    ck_assert_msg(strstr(error_field(&r, "message"), "(width + 2) * (height + 2) = 91204, than the search workspaces "
                                                     "hold (70000: max_workspace_cells") != NULL,
                  "%s", r.body);
    ap_resp_free(&r);
    /* one that fits is served (262 x 262 = 68,644 nodes) */
    static char rows[300 * 301 + 64];
    size_t n = (size_t)sprintf(rows, "type octile\nheight 260\nwidth 260\nmap\n");
    for (int y = 0; y < 260; y++) {
        memset(rows + n, '.', 260);
        n += 260;
        rows[n++] = '\n';
    }
    rows[n] = '\0';
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/fits", rows, &r), 201);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    rm_maps_dir(dir);
}
END_TEST

/* An escaped NUL (%00) in the URL: decoded, the route saw the path end there, so "DELETE /v1/maps/a%00x"
 * deleted a (answered 204), "PUT /v1/maps/z%00b" made z, and "/healthz%00junk" answered as /healthz (a
 * helper's report). Left undecoded, it names no map and no route; other escapes are still decoded. */
START_TEST(escaped_nul_names_no_map)
{
    char *dir = tmp_maps_dir();
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, dir, NULL, token_env), 0);
    ap_resp r;
    ck_assert_int_eq(admin(&s, "DELETE", "/v1/maps/a%00x", NULL, &r), 400);
    ck_assert_str_eq(error_code(&r), "invalid_request");
    ap_resp_free(&r);
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/z%00b", "type octile\nheight 1\nwidth 1\nmap\n.\n", &r), 400);
    ap_resp_free(&r);
    ck_assert_int_eq(version_of(&s, "a"), 1);
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/z", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 404);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/a%00/cells", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 404);
    ck_assert_str_eq(error_code(&r), "unknown_map");
    ap_resp_free(&r);
    ck_assert_int_eq(ap_http(&s, "GET", "/healthz%00junk", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 404);
    ck_assert_str_eq(error_code(&r), "not_found");
    ap_resp_free(&r);
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/%61/cells", NULL, 0, NULL, &r), 0); /* %61 = a */
    ck_assert_int_eq(r.status, 200);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    rm_maps_dir(dir);
}
END_TEST

START_TEST(admin_auth_matrix)
{
    char *dir = tmp_maps_dir();
    const char *file = "type octile\nheight 1\nwidth 1\nmap\n.\n";
    ap_srv off;
    ck_assert_int_eq(ap_srv_start(&off, dir, NULL, NULL), 0);
    ap_resp r;
    static const struct {
        const char *method, *path, *body;
    } routes[] = {
        {"PUT", "/v1/maps/z", "type octile\nheight 1\nwidth 1\nmap\n.\n"},
        {"DELETE", "/v1/maps/a", NULL},
        {"POST", "/v1/maps/a/reload", NULL},
        {"PATCH", "/v1/maps/a/cells", "{\"cells\":[{\"x\":0,\"y\":0,\"terrain\":\"@\"}]}"},
    };
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        const char *b = routes[i].body;
        ck_assert_int_eq(ap_http(&off, routes[i].method, routes[i].path, b, b ? strlen(b) : 0, auth, &r), 0);
        ck_assert_int_eq(r.status, 403);
        ck_assert_str_eq(error_code(&r), "admin_disabled");
        ap_resp_free(&r);
    }
    ck_assert_int_eq(version_of(&off, "a"), 1);
    ck_assert_int_eq(ap_srv_stop(&off), 0);

    ap_srv on;
    ck_assert_int_eq(ap_srv_start(&on, dir, NULL, token_env), 0);
    static const char *const wrong[] = {"Authorization: Bearer test-admin-token-0123456788", NULL};
    static const char *const basic[] = {"Authorization: Basic dXNlcjpwYXNz", NULL};
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        const char *b = routes[i].body;
        size_t n = b ? strlen(b) : 0;
        ck_assert_int_eq(ap_http(&on, routes[i].method, routes[i].path, b, n, NULL, &r), 0);
        ck_assert_int_eq(r.status, 401);
        ck_assert_str_eq(error_code(&r), "unauthorized");
        ck_assert_str_eq(r.www_authenticate, "Bearer realm=\"arcpath\"");
        ap_resp_free(&r);
        ck_assert_int_eq(ap_http(&on, routes[i].method, routes[i].path, b, n, basic, &r), 0);
        ck_assert_int_eq(r.status, 401);
        ap_resp_free(&r);
        ck_assert_int_eq(ap_http(&on, routes[i].method, routes[i].path, b, n, wrong, &r), 0);
        ck_assert_int_eq(r.status, 403);
        ck_assert_str_eq(error_code(&r), "forbidden");
        ap_resp_free(&r);
    }
    ck_assert_int_eq(version_of(&on, "a"), 1);
    ck_assert_int_eq(admin(&on, "PUT", "/v1/maps/z", file, &r), 201);
    ap_resp_free(&r);
    ck_assert_int_eq(admin(&on, "PATCH", "/v1/maps/a/cells", routes[3].body, &r), 200);
    ap_resp_free(&r);
    /* blanks around the token are not part of it (RFC 9110 5.5; "Bearer <token> " was 403, a helper); a
     * "Bearer" without a token is no credential: 401 */
    char ans[2048];
    head_only(&on, "DELETE /v1/maps/z HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \t \r\nConnection: close\r\n\r\n",
              ans, sizeof ans);
    ck_assert_msg(strncmp(ans, "HTTP/1.1 401", 12) == 0, "%.200s", ans);
    head_only(&on, "DELETE /v1/maps/z HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " TOKEN "\tx\r\n"
              "Connection: close\r\n\r\n", ans, sizeof ans);
    ck_assert_msg(strncmp(ans, "HTTP/1.1 403", 12) == 0, "%.200s", ans);
    head_only(&on, "DELETE /v1/maps/z HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " TOKEN " \t\r\n"
              "Connection: close\r\n\r\n", ans, sizeof ans);
    ck_assert_msg(strncmp(ans, "HTTP/1.1 204", 12) == 0, "%.200s", ans);
    ck_assert_int_eq(version_of(&on, "z"), 0);
    /* reads stay public */
    ck_assert_int_eq(version_of(&on, "a"), 2);
    ck_assert_int_eq(ap_srv_stop(&on), 0);

    /* the token is never printed */
    setenv("ARCPATH_ADMIN_TOKEN", TOKEN, 1);
    static char out[65536];
    const char *args[] = {"--check-config", "--maps", dir, NULL};
    ck_assert_int_eq(ap_run_cli(args, 1, out, sizeof out), 0);
    unsetenv("ARCPATH_ADMIN_TOKEN");
    ck_assert_ptr_null(strstr(out, TOKEN));
    ck_assert_ptr_nonnull(strstr(out, "\"max_map_upload_bytes\":16777216"));
    rm_maps_dir(dir);
}
END_TEST

/* ---- replacement under load ---------------------------------------------------------------------------- */

typedef struct load_arg {
    const ap_srv *s;
    atomic_bool stop;
    double len_odd, len_even; /* the known length for odd and even versions */
} load_arg;

/* One query thread's tally. */
typedef struct load_tally {
    load_arg *a;
    bool batch; /* POST /v1/paths with three copies of the query (through the lanes) instead of /v1/path */
    int answers, wrong, not_ok;
    char first_bad[512];
} load_tally;

static const char LOAD_QUERY[] = "{\"map\":\"live\",\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":62.5,\"y\":1.5}}";
#define LOAD_ITEM "{\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":62.5,\"y\":1.5}}"
static const char LOAD_BATCH[] = "{\"map\":\"live\",\"queries\":[" LOAD_ITEM "," LOAD_ITEM "," LOAD_ITEM "]}";

/* The lengths of an answer: the path's, or each batch item's (up to 3); returns how many. */
static int answer_lengths(json_t *j, double len[3])
{
    json_t *results = json_object_get(j, "results");
    if (results == NULL) {
        len[0] = json_real_value(json_object_get(j, "length"));
        return 1;
    }
    int n = 0;
    for (size_t i = 0; i < json_array_size(results) && n < 3; i++)
        len[n++] = json_real_value(json_object_get(json_array_get(results, i), "length"));
    return n == 3 ? 3 : 0;
}

static void *query_loop(void *p)
{
    load_tally *a = p;
    const load_arg *shared = a->a;
    for (int i = 0; i < 200000 && !atomic_load(&a->a->stop); i++) {
        ap_resp r;
        if (ap_post(shared->s, a->batch ? "/v1/paths" : "/v1/path", a->batch ? LOAD_BATCH : LOAD_QUERY, &r) != 0 ||
            r.status != 200) {
            if (!a->first_bad[0])
                snprintf(a->first_bad, sizeof a->first_bad, "%ld %s", r.status, r.body ? r.body : "");
            a->not_ok++;
            ap_resp_free(&r);
            continue;
        }
        json_t *j = ap_resp_json(&r);
        long long v = json_integer_value(json_object_get(j, "map_version"));
        double len[3];
        int n = answer_lengths(j, len);
        double want = (v % 2) ? shared->len_odd : shared->len_even;
        for (int k = 0; k < (n ? n : 1); k++) {
            if (v < 1 || n == 0 || len[k] != want) {
                a->wrong++;
                if (!a->first_bad[0])
                    snprintf(a->first_bad, sizeof a->first_bad, "version %lld length %.17g, want %.17g: %s", v,
                             n ? len[k] : -1.0, want, r.body);
                break;
            }
        }
        a->answers++;
        json_decref(j);
        ap_resp_free(&r);
    }
    return NULL;
}

static double length_now(const ap_srv *s, long long want_version)
{
    ap_resp r;
    ck_assert_int_eq(ap_post(s, "/v1/path", LOAD_QUERY, &r), 0);
    ck_assert_int_eq(r.status, 200);
    json_t *j = json_of(&r);
    ck_assert_int_eq(int_of(j, "map_version"), want_version);
    double len = json_real_value(json_object_get(j, "length"));
    json_decref(j);
    ap_resp_free(&r);
    return len;
}

/* Six clients change six maps at once: PUT (201), PATCH (200, version 2), PUT again (200, version 3). The
 * map-lifecycle thread takes the tasks one at a time in arrival order (a 500 x 500 map takes tens of ms to
 * build, so the queue holds several); every client gets its own answers and every map ends at version 3. */
typedef struct changer {
    const ap_srv *s;
    const char *text;
    int id;
    long put1, patch, put2;
    long long v_patch, v_put2;
} changer;

static long long version_in(const ap_resp *r)
{
    json_t *j = json_of(r);
    const long long v = int_of(j, "map_version");
    json_decref(j);
    return v;
}

static void *change_loop(void *arg)
{
    changer *c = arg;
    char path[64], cells_path[80];
    snprintf(path, sizeof path, "/v1/maps/c%d", c->id);
    snprintf(cells_path, sizeof cells_path, "%s/cells", path);
    ap_resp r;
    if (ap_http(c->s, "PUT", path, c->text, strlen(c->text), auth, &r) == 0)
        c->put1 = r.status;
    ap_resp_free(&r);
    const char *edit = "{\"cells\":[{\"x\":5,\"y\":0,\"terrain\":\"@\"}]}";
    if (ap_http(c->s, "PATCH", cells_path, edit, strlen(edit), auth, &r) == 0) {
        c->patch = r.status;
        if (r.status == 200)
            c->v_patch = version_in(&r);
    }
    ap_resp_free(&r);
    if (ap_http(c->s, "PUT", path, c->text, strlen(c->text), auth, &r) == 0) {
        c->put2 = r.status;
        if (r.status == 200)
            c->v_put2 = version_in(&r);
    }
    ap_resp_free(&r);
    return NULL;
}

START_TEST(concurrent_changes_each_answered)
{
    char *dir = tmp_maps_dir();
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, dir, NULL, token_env), 0);
    char *text = grid_file(500, 500, 250, 400);
    changer c[6];
    pthread_t t[6];
    for (int i = 0; i < 6; i++) {
        c[i] = (changer){.s = &s, .text = text, .id = i};
        ck_assert_int_eq(pthread_create(&t[i], NULL, change_loop, &c[i]), 0);
    }
    for (int i = 0; i < 6; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 6; i++) {
        ck_assert_msg(c[i].put1 == 201 && c[i].patch == 200 && c[i].put2 == 200, "c%d: PUT %ld, PATCH %ld, PUT %ld", i,
                      c[i].put1, c[i].patch, c[i].put2);
        ck_assert_int_eq(c[i].v_patch, 2);
        ck_assert_int_eq(c[i].v_put2, 3);
        char id[16];
        snprintf(id, sizeof id, "c%d", i);
        ck_assert_int_eq(version_of(&s, id), 3);
    }
    free(text);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    rm_maps_dir(dir);
}
END_TEST

START_TEST(replacement_under_load)
{
    char *dir = tmp_maps_dir();
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, dir, NULL, token_env), 0);
    char *open = grid_file(64, 64, -1, 0);     /* odd versions: straight across */
    char *walled = grid_file(64, 64, 32, 55);  /* even versions: around a wall */
    ap_resp r;
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/live", open, &r), 201);
    ap_resp_free(&r);
    static load_arg a;
    memset(&a, 0, sizeof a);
    a.s = &s;
    a.len_odd = length_now(&s, 1);
    ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/live", walled, &r), 200);
    ap_resp_free(&r);
    a.len_even = length_now(&s, 2);
    ck_assert_double_eq(a.len_odd, 61.0);
    ck_assert(a.len_even > a.len_odd + 1.0);

    pthread_t t[2];
    static load_tally tally[2];
    for (int i = 0; i < 2; i++) {
        memset(&tally[i], 0, sizeof tally[i]);
        tally[i].a = &a;
        tally[i].batch = i == 1;
        ck_assert_int_eq(pthread_create(&t[i], NULL, query_loop, &tally[i]), 0);
    }
    const int replacements = 30;
    for (int k = 0; k < replacements; k++) {
        ck_assert_int_eq(admin(&s, "PUT", "/v1/maps/live", (k % 2) ? walled : open, &r), 200);
        ap_resp_free(&r);
        sleep_ms(10);
    }
    atomic_store(&a.stop, true);
    int answers = 0;
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
        load_tally *y = &tally[i];
        ck_assert_msg(y->not_ok == 0, "%d answers not 200, first: %s", y->not_ok, y->first_bad);
        ck_assert_msg(y->wrong == 0, "%d wrong answers of %d, first: %s", y->wrong, y->answers, y->first_bad);
        answers += y->answers;
    }
    ck_assert_int_gt(answers, replacements);
    ck_assert_int_eq(version_of(&s, "live"), 2 + replacements);
    free(open);
    free(walled);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    rm_maps_dir(dir);
}
END_TEST

Suite *live_maps_suite(void)
{
    Suite *s = suite_create("live_maps");
    TCase *tc = tcase_create("live_maps");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, put_replace_bad_file_delete);
    tcase_add_test(tc, escaped_nul_names_no_map);
    tcase_add_test(tc, patch_cells_makes_a_new_version);
    tcase_add_test(tc, conditional_changes_by_etag);
    tcase_add_test(tc, reload_from_disk);
    tcase_add_test(tc, sighup_reloads_the_folder);
    tcase_add_test(tc, workspace_size_refused_from_the_header);
    tcase_add_test(tc, max_maps_refuses_new_ids);
    tcase_add_test(tc, admin_auth_matrix);
    tcase_add_test(tc, replacement_under_load);
    tcase_add_test(tc, concurrent_changes_each_answered);
    suite_add_tcase(s, tc);
    return s;
}
