/* test_conventions.c — the HTTP conventions around every answer (README "HTTP conventions"): gzip for
 * clients that accept it (raw bytes, headers, and the decoded body equal to the plain answer), OPTIONS and
 * CORS preflights with CORS off, on for listed origins, and on for "*" (from the config file), and the W3C
 * traceparent on the access-log line. */
#include "tests/check_fast.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util.h"
#include "harness.h"

Suite *conventions_suite(void);

/* The 78 KB answer of the issue: the demo maze corner to corner, cell path unsmoothed. */
static const char maze_query[] =
    "{\"map\":\"maze\",\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":93.5,\"y\":93.5},"
    "\"search\":{\"smoothing\":\"none\"}}";

/* Response header name of r, "" when absent (a static buffer per call site is enough for asserts). */
static const char *hdr(const ap_resp *r, const char *name)
{
    static char buf[8][512];
    static int next;
    char *out = buf[next++ % 8];
    return ap_resp_header(r, name, out, 512) ? out : "";
}

static void get(const ap_srv *s, const char *method, const char *path, const char *h1, const char *h2,
                const char *h3, long want, ap_resp *r)
{
    const char *headers[] = {h1, h2, h3, NULL};
    ck_assert_int_eq(ap_http(s, method, path, NULL, 0, headers, r), 0);
    ck_assert_msg(r->status == want, "%s %s: HTTP %ld, want %ld: %s", method, path, r->status, want, r->body);
}

/* The body a gzip member holds is what libcurl decodes; here only its framing is checked: the magic
 * bytes and deflate method (RFC 1952, 2.3.1). */
static void assert_gzip_member(const ap_resp *r)
{
    ck_assert_uint_gt(r->len, 18);
    ck_assert_int_eq((unsigned char)r->body[0], 0x1f);
    ck_assert_int_eq((unsigned char)r->body[1], 0x8b);
    ck_assert_int_eq((unsigned char)r->body[2], 8);
}

START_TEST(gzip_json_answers)
{
    /* Plain: no encoding, but the answer says it varies by Accept-Encoding. */
    ap_resp plain, raw, dec;
    ck_assert_int_eq(ap_post(ap_demo_srv, "/v1/path", maze_query, &plain), 0);
    ck_assert_int_eq(plain.status, 200);
    ck_assert_uint_gt(plain.len, 70000); /* ~78 KB; its exact size varies with the timings in "stats" */
    ck_assert_str_eq(hdr(&plain, "Content-Encoding"), "");
    ck_assert_str_eq(hdr(&plain, "Vary"), "Accept-Encoding");

    const char *gz[] = {"Accept-Encoding: gzip", NULL};
    ck_assert_int_eq(ap_http(ap_demo_srv, "POST", "/v1/path", maze_query, strlen(maze_query), gz, &raw), 0);
    ck_assert_int_eq(raw.status, 200);
    ck_assert_str_eq(hdr(&raw, "Content-Encoding"), "gzip");
    ck_assert_str_eq(hdr(&raw, "Vary"), "Accept-Encoding");
    ck_assert_str_eq(raw.content_type, "application/json");
    assert_gzip_member(&raw);
    ck_assert_uint_lt(raw.len, plain.len / 5); /* level 1: 9.5 KB */
    char cl[32];
    snprintf(cl, sizeof cl, "%zu", raw.len);
    ck_assert_str_eq(hdr(&raw, "Content-Length"), cl);

    /* Decoded, the same answer: equal byte for byte but for the timing stats, which differ per run. */
    ck_assert_int_eq(ap_http_decoded(ap_demo_srv, "POST", "/v1/path", maze_query, strlen(maze_query), NULL, "gzip",
                                     &dec),
                     0);
    ck_assert_str_eq(hdr(&dec, "Content-Encoding"), "gzip");
    ck_assert_uint_eq(dec.len, plain.len - strlen(strstr(plain.body, ",\"stats\":")) +
                                   strlen(strstr(dec.body, ",\"stats\":")));
    size_t head = (size_t)(strstr(plain.body, ",\"stats\":") - plain.body);
    ck_assert_int_eq(memcmp(dec.body, plain.body, head), 0);
    ap_resp_free(&plain);
    ap_resp_free(&raw);
    ap_resp_free(&dec);

    /* A deterministic answer decodes to exactly the plain bytes. */
    get(ap_demo_srv, "GET", "/v1/maps/maze/cells", NULL, NULL, NULL, 200, &plain);
    ck_assert_uint_eq(plain.len, 9746); /* 100 rows of 100 letters */
    ck_assert_int_eq(ap_http_decoded(ap_demo_srv, "GET", "/v1/maps/maze/cells", NULL, 0, NULL, "gzip", &dec), 0);
    ck_assert_str_eq(hdr(&dec, "Content-Encoding"), "gzip");
    ck_assert_uint_eq(dec.len, plain.len);
    ck_assert_int_eq(memcmp(dec.body, plain.body, plain.len), 0);
    ap_resp_free(&plain);
    ap_resp_free(&dec);
}
END_TEST

/* A batch's answer and a picture are gzip-compressed (on the worker that made them, since a 32 MB batch's
 * gzip on the HTTP thread held /healthz 134 ms, a helper; where it runs is not seen from here): the same
 * answers decoded, the same headers. */
START_TEST(gzip_batches_and_pictures)
{
    static const char batch[] = "{\"map\":\"maze\",\"queries\":["
                                "{\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":93.5,\"y\":93.5},"
                                "\"search\":{\"smoothing\":\"none\"}},"
                                "{\"start\":{\"x\":93.5,\"y\":93.5},\"goal\":{\"x\":1.5,\"y\":1.5},"
                                "\"search\":{\"smoothing\":\"none\"}}]}";
    ap_resp plain, dec;
    ck_assert_int_eq(ap_post(ap_demo_srv, "/v1/paths", batch, &plain), 0);
    ck_assert_int_eq(plain.status, 200);
    ck_assert_int_eq(ap_http_decoded(ap_demo_srv, "POST", "/v1/paths", batch, strlen(batch), NULL, "gzip", &dec), 0);
    ck_assert_int_eq(dec.status, 200);
    ck_assert_str_eq(hdr(&dec, "Content-Encoding"), "gzip");
    ck_assert_str_eq(hdr(&dec, "Vary"), "Accept-Encoding");
    json_t *a = ap_resp_json(&plain), *b = ap_resp_json(&dec);
    ck_assert_ptr_nonnull(b);
    json_t *ra = json_object_get(a, "results"), *rb = json_object_get(b, "results");
    ck_assert_int_eq(json_array_size(ra), 2);
    ck_assert_int_eq(json_array_size(rb), 2);
    for (size_t i = 0; i < 2; i++) { /* equal but for the timing stats */
        json_t *x = json_array_get(ra, i), *y = json_array_get(rb, i);
        ck_assert(json_equal(json_object_get(x, "segments"), json_object_get(y, "segments")));
        ck_assert_double_eq(json_number_value(json_object_get(x, "length")),
                            json_number_value(json_object_get(y, "length")));
        ck_assert_int_gt(json_array_size(json_object_get(y, "segments")), 100);
    }
    json_decref(a);
    json_decref(b);
    ap_resp_free(&plain);
    ap_resp_free(&dec);
    /* pictures: the same bytes (they are deterministic) */
    static const char *const paths[] = {"/v1/maps/maze.svg", "/v1/render"};
    static const char render[] = "{\"query\":{\"map\":\"maze\",\"start\":{\"x\":1.5,\"y\":1.5},"
                                 "\"goal\":{\"x\":93.5,\"y\":93.5}}}";
    for (int k = 0; k < 2; k++) {
        const char *method = k == 0 ? "GET" : "POST";
        const char *body = k == 0 ? NULL : render;
        const size_t len = k == 0 ? 0 : strlen(render);
        ck_assert_int_eq(ap_http(ap_demo_srv, method, paths[k], body, len, NULL, &plain), 0);
        ck_assert_int_eq(plain.status, 200);
        ck_assert_str_eq(hdr(&plain, "Content-Encoding"), "");
        ck_assert_int_eq(ap_http_decoded(ap_demo_srv, method, paths[k], body, len, NULL, "gzip", &dec), 0);
        ck_assert_int_eq(dec.status, 200);
        ck_assert_str_eq(hdr(&dec, "Content-Encoding"), "gzip");
        ck_assert_str_eq(hdr(&dec, "Vary"), "Accept-Encoding");
        ck_assert_str_eq(dec.content_type, "image/svg+xml");
        ck_assert_uint_eq(dec.len, plain.len);
        ck_assert_int_eq(memcmp(dec.body, plain.body, plain.len), 0);
        ap_resp_free(&plain);
        ap_resp_free(&dec);
    }
}
END_TEST

/* Accept-Encoding as RFC 9110 12.5.3 reads it: q=0 refuses, "*" stands for what is not named. */
START_TEST(gzip_follows_q_values)
{
    static const struct {
        const char *accept;
        int gzip;
    } cases[] = {
        {"Accept-Encoding: gzip", 1},          {"Accept-Encoding: GZIP", 1},
        {"Accept-Encoding: gzip;q=0", 0},      {"Accept-Encoding: gzip; q=0.000", 0},
        {"Accept-Encoding: br, gzip;q=0.8", 1}, {"Accept-Encoding: *;q=0.5", 1},
        {"Accept-Encoding: *, gzip;q=0", 0},   {"Accept-Encoding: identity", 0},
        {"Accept-Encoding: br, deflate", 0},   {"Accept-Encoding: x-gzip", 1},
        {"Accept-Encoding: gzip;q=2", 0},      {"Accept-Encoding: gzip;q=0.001", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ap_resp r;
        get(ap_demo_srv, "GET", "/v1/maps/maze/cells", cases[i].accept, NULL, NULL, 200, &r);
        ck_assert_msg(strcmp(hdr(&r, "Content-Encoding"), cases[i].gzip ? "gzip" : "") == 0, "%s: Content-Encoding \"%s\"",
                      cases[i].accept, hdr(&r, "Content-Encoding"));
        ck_assert_str_eq(hdr(&r, "Vary"), "Accept-Encoding");
        ap_resp_free(&r);
    }
    /* Small answers go as they are and do not vary. */
    ap_resp r;
    get(ap_demo_srv, "GET", "/healthz", "Accept-Encoding: gzip", NULL, NULL, 200, &r);
    ck_assert_str_eq(r.body, "{\"status\":\"ok\"}");
    ck_assert_str_eq(hdr(&r, "Content-Encoding"), "");
    ck_assert_str_eq(hdr(&r, "Vary"), "");
    ap_resp_free(&r);
}
END_TEST

/* The embedded files: compressed once at start, a weak ETag for the gzip copy, 304 either way. */
START_TEST(gzip_embedded_files)
{
    size_t len = 0;
    char *file = ap_test_read_file("proto/openapi.json", &len);
    ck_assert_ptr_nonnull(file);
    ap_resp plain, raw, dec, r;
    get(ap_demo_srv, "GET", "/openapi.json", NULL, NULL, NULL, 200, &plain);
    ck_assert_str_eq(plain.content_type, "application/json");
    ck_assert_uint_eq(plain.len, len);
    ck_assert_int_eq(memcmp(plain.body, file, len), 0);
    ck_assert_str_eq(hdr(&plain, "Content-Encoding"), "");
    const char *etag = hdr(&plain, "ETag");
    ck_assert_int_eq(etag[0], '"');

    get(ap_demo_srv, "GET", "/openapi.json", "Accept-Encoding: gzip", NULL, NULL, 200, &raw);
    assert_gzip_member(&raw);
    ck_assert_str_eq(hdr(&raw, "Content-Encoding"), "gzip");
    ck_assert_str_eq(hdr(&raw, "Vary"), "Accept-Encoding");
    char weak[96];
    snprintf(weak, sizeof weak, "W/%s", etag);
    ck_assert_str_eq(hdr(&raw, "ETag"), weak);
    ck_assert_str_eq(hdr(&raw, "Cache-Control"), "no-cache");

    ck_assert_int_eq(ap_http_decoded(ap_demo_srv, "GET", "/openapi.json", NULL, 0, NULL, "gzip", &dec), 0);
    ck_assert_uint_eq(dec.len, len);
    ck_assert_int_eq(memcmp(dec.body, file, len), 0);

    /* The weak tag revalidates the gzip copy, the strong one the plain copy; a 304 still varies. */
    char inm[128];
    snprintf(inm, sizeof inm, "If-None-Match: %s", weak);
    get(ap_demo_srv, "GET", "/openapi.json", "Accept-Encoding: gzip", inm, NULL, 304, &r);
    ck_assert_uint_eq(r.len, 0);
    ck_assert_str_eq(hdr(&r, "ETag"), weak);
    ck_assert_str_eq(hdr(&r, "Vary"), "Accept-Encoding");
    ck_assert_str_eq(hdr(&r, "Content-Encoding"), "");
    ap_resp_free(&r);
    snprintf(inm, sizeof inm, "If-None-Match: %s", etag);
    get(ap_demo_srv, "GET", "/openapi.json", inm, NULL, NULL, 304, &r);
    ck_assert_str_eq(hdr(&r, "ETag"), etag);
    ap_resp_free(&r);
    /* Every line of a list-valued field counts (RFC 9110 5.3), as for the maps' tags: a tag on the second
     * If-None-Match line, gzip on the second Accept-Encoding line (the first line alone was read). */
    get(ap_demo_srv, "GET", "/openapi.json", "If-None-Match: \"zz\"", inm, NULL, 304, &r);
    ap_resp_free(&r);
    get(ap_demo_srv, "GET", "/openapi.json", "Accept-Encoding: deflate", "Accept-Encoding: gzip", NULL, 200, &r);
    ck_assert_str_eq(hdr(&r, "Content-Encoding"), "gzip");
    assert_gzip_member(&r);
    ap_resp_free(&r);
    /* and the trailing blanks of a value are not part of it (RFC 9110 5.5): the client's id comes back */
    get(ap_demo_srv, "GET", "/healthz", "X-Request-ID: trimmed-id \t ", NULL, NULL, 200, &r);
    ck_assert_str_eq(r.request_id, "trimmed-id");
    ap_resp_free(&r);

    /* HEAD: the headers of the GET. */
    get(ap_demo_srv, "HEAD", "/openapi.json", "Accept-Encoding: gzip", NULL, NULL, 200, &r);
    ck_assert_str_eq(hdr(&r, "Content-Encoding"), "gzip");
    ck_assert_str_eq(hdr(&r, "Content-Length"), hdr(&raw, "Content-Length"));
    ap_resp_free(&r);

    /* The viewer's page too. */
    get(ap_demo_srv, "GET", "/", "Accept-Encoding: gzip", NULL, NULL, 200, &r);
    ck_assert_str_eq(hdr(&r, "Content-Encoding"), "gzip");
    assert_gzip_member(&r);
    ap_resp_free(&r);
    ap_resp_free(&plain);
    ap_resp_free(&raw);
    ap_resp_free(&dec);
    free(file);
}
END_TEST

START_TEST(gzip_metrics)
{
    ap_resp r;
    ck_assert_int_eq(ap_http_decoded(ap_demo_srv, "GET", "/metrics", NULL, 0, NULL, "gzip", &r), 0);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(hdr(&r, "Content-Encoding"), "gzip");
    ck_assert_str_eq(r.content_type, "text/plain; version=0.0.4; charset=utf-8");
    ck_assert_ptr_nonnull(strstr(r.body, "# TYPE arcpath_requests_total counter\n"));
    ap_resp_free(&r);
}
END_TEST

/* The duration histogram is labelled by route pattern, never by raw URL. */
START_TEST(duration_by_route)
{
    ap_resp r;
    get(ap_demo_srv, "GET", "/v1/maps/maze", NULL, NULL, NULL, 200, &r);
    ap_resp_free(&r);
    get(ap_demo_srv, "GET", "/no/such/route", NULL, NULL, NULL, 404, &r);
    ap_resp_free(&r);
    get(ap_demo_srv, "GET", "/metrics", NULL, NULL, NULL, 200, &r);
    ck_assert(ap_metric(r.body, "arcpath_request_duration_seconds_count", "route=\"/v1/maps/{id}\"") >= 1);
    ck_assert(ap_metric(r.body, "arcpath_request_duration_seconds_bucket", "route=\"/v1/maps/{id}\",le=\"+Inf\"") >= 1);
    ck_assert(ap_metric(r.body, "arcpath_request_duration_seconds_count", "route=\"other\"") >= 1);
    ck_assert(ap_metric(r.body, "arcpath_request_duration_seconds_count", "route=\"/healthz\"") >= 1);
    ck_assert_ptr_null(strstr(r.body, "route=\"/v1/maps/maze\""));
    ck_assert_ptr_null(strstr(r.body, "route=\"/no/such/route\""));
    ck_assert_ptr_null(strstr(r.body, "arcpath_request_duration_seconds_count "));
    ap_resp_free(&r);
}
END_TEST

/* CORS off (the default): OPTIONS is a plain 204 with Allow; no CORS header whatever the Origin. */
START_TEST(options_with_cors_off)
{
    ap_resp r;
    get(ap_demo_srv, "OPTIONS", "/v1/path", "Origin: https://tools.example", "Access-Control-Request-Method: POST",
        NULL, 204, &r);
    ck_assert_uint_eq(r.len, 0);
    ck_assert_str_eq(r.allow, "POST, OPTIONS");
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Origin"), "");
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Methods"), "");
    ck_assert_str_eq(hdr(&r, "Vary"), "");
    ck_assert_uint_gt(strlen(r.request_id), 0);
    ap_resp_free(&r);
    get(ap_demo_srv, "OPTIONS", "/v1/maps/maze/cells", NULL, NULL, NULL, 204, &r);
    ck_assert_str_eq(r.allow, "GET, HEAD, PATCH, OPTIONS");
    ap_resp_free(&r);
    get(ap_demo_srv, "OPTIONS", "/viewer.js", NULL, NULL, NULL, 204, &r);
    ck_assert_str_eq(r.allow, "GET, HEAD, OPTIONS");
    ap_resp_free(&r);
    get(ap_demo_srv, "GET", "/v1/info", "Origin: https://tools.example", NULL, NULL, 200, &r);
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Origin"), "");
    ap_resp_free(&r);
    /* An unknown path stays 404; a 405 lists the route's methods and OPTIONS, as OPTIONS does. */
    get(ap_demo_srv, "OPTIONS", "/v1/nothing", NULL, NULL, NULL, 404, &r);
    ap_resp_free(&r);
    get(ap_demo_srv, "PUT", "/v1/path", NULL, NULL, NULL, 405, &r);
    ck_assert_str_eq(r.allow, "POST, OPTIONS");
    ap_resp_free(&r);
    /* OPTIONS with a body: the body is read and dropped, the connection answered normally. */
    const char *h[] = {"Origin: https://tools.example", NULL};
    ck_assert_int_eq(ap_http(ap_demo_srv, "OPTIONS", "/v1/path", "{\"map\":1}", 9, h, &r), 0);
    ck_assert_int_eq(r.status, 204);
    ap_resp_free(&r);
}
END_TEST

START_TEST(cors_listed_origins)
{
    static ap_srv s;
    const char *env[] = {"ARCPATH_CORS_ORIGINS=https://tools.example, http://127.0.0.1:3000", NULL};
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", NULL, env), 0);
    ap_resp r;

    /* An allowed origin: its own name back, exposed headers, Vary: Origin (on /healthz: a body below
     * AP_GZIP_MIN_BYTES, so no Accept-Encoding in Vary; GET /v1/info has grown past it). */
    get(&s, "GET", "/healthz", "Origin: http://127.0.0.1:3000", NULL, NULL, 200, &r);
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Origin"), "http://127.0.0.1:3000");
    ck_assert_str_eq(hdr(&r, "Access-Control-Expose-Headers"), "X-Request-ID, Retry-After, Allow, ETag");
    ck_assert_str_eq(hdr(&r, "Vary"), "Origin");
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Credentials"), "");
    ap_resp_free(&r);
    /* trailing blanks are not part of the value (RFC 9110 5.5): the same origin, named back without them */
    get(&s, "GET", "/healthz", "Origin: http://127.0.0.1:3000 \t", NULL, NULL, 200, &r);
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Origin"), "http://127.0.0.1:3000");
    ap_resp_free(&r);
    /* Errors are readable by the page too. */
    get(&s, "GET", "/v1/maps/nosuch", "Origin: https://tools.example", NULL, NULL, 404, &r);
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Origin"), "https://tools.example");
    ap_resp_free(&r);
    /* With gzip: both reasons to vary. */
    get(&s, "GET", "/v1/maps/maze/cells", "Origin: https://tools.example", "Accept-Encoding: gzip", NULL, 200, &r);
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Origin"), "https://tools.example");
    ck_assert_str_eq(hdr(&r, "Vary"), "Origin, Accept-Encoding");
    ck_assert_str_eq(hdr(&r, "Content-Encoding"), "gzip");
    ap_resp_free(&r);

    /* Other origins, near misses included: no CORS header, still Vary: Origin. */
    static const char *const others[] = {"Origin: https://evil.example", "Origin: https://tools.example/",
                                         "Origin: http://tools.example", "Origin: https://TOOLS.example",
                                         "Origin: null"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        get(&s, "GET", "/healthz", others[i], NULL, NULL, 200, &r);
        ck_assert_msg(strcmp(hdr(&r, "Access-Control-Allow-Origin"), "") == 0, "%s allowed", others[i]);
        ck_assert_str_eq(hdr(&r, "Access-Control-Expose-Headers"), "");
        ck_assert_str_eq(hdr(&r, "Vary"), "Origin");
        ap_resp_free(&r);
    }

    /* A preflight for a POST with a JSON body and a traceparent: granted what arcpath accepts. */
    get(&s, "OPTIONS", "/v1/path", "Origin: https://tools.example", "Access-Control-Request-Method: POST",
        "Access-Control-Request-Headers: Content-Type, traceparent, x-custom", 204, &r);
    ck_assert_uint_eq(r.len, 0);
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Origin"), "https://tools.example");
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Methods"), "POST");
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Headers"), "content-type, traceparent");
    ck_assert_str_eq(hdr(&r, "Access-Control-Max-Age"), "600");
    ck_assert_str_eq(hdr(&r, "Vary"), "Origin");
    ck_assert_str_eq(r.allow, "POST, OPTIONS");
    ap_resp_free(&r);
    /* A GET route's preflight; no headers asked, none granted. */
    get(&s, "OPTIONS", "/v1/maps/maze", "Origin: https://tools.example", "Access-Control-Request-Method: GET", NULL,
        204, &r);
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Methods"), "GET, HEAD, PUT, DELETE");
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Headers"), "");
    ck_assert_str_eq(hdr(&r, "Access-Control-Max-Age"), "600");
    ap_resp_free(&r);
    /* A preflight from an origin not listed: a plain OPTIONS answer. */
    get(&s, "OPTIONS", "/v1/path", "Origin: https://evil.example", "Access-Control-Request-Method: POST", NULL, 204, &r);
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Origin"), "");
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Methods"), "");
    ck_assert_str_eq(r.allow, "POST, OPTIONS");
    ap_resp_free(&r);
    /* OPTIONS from an allowed origin without Access-Control-Request-Method is no preflight. */
    get(&s, "OPTIONS", "/v1/path", "Origin: https://tools.example", NULL, NULL, 204, &r);
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Origin"), "https://tools.example");
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Methods"), "");
    ap_resp_free(&r);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
}
END_TEST

/* cors_origins ["*"] from the config file: any origin, answered "*", and no Vary: Origin. */
START_TEST(cors_any_origin_from_file)
{
    char *conf = ap_test_temp_file("arcpath-cors", "{\"cors_origins\": [\"*\"]}");
    ck_assert_ptr_nonnull(conf);
    static ap_srv s;
    const char *args[] = {"--config", conf, NULL};
    ck_assert_int_eq(ap_srv_start(&s, "config/maps", args, NULL), 0);
    ap_resp r;
    get(&s, "GET", "/healthz", "Origin: https://anyone.example", NULL, NULL, 200, &r);
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Origin"), "*");
    ck_assert_str_eq(hdr(&r, "Access-Control-Expose-Headers"), "X-Request-ID, Retry-After, Allow, ETag");
    ck_assert_str_eq(hdr(&r, "Vary"), "");
    ap_resp_free(&r);
    get(&s, "OPTIONS", "/v1/paths", "Origin: http://localhost:5173", "Access-Control-Request-Method: POST",
        "Access-Control-Request-Headers: content-type,x-request-id,authorization", 204, &r);
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Origin"), "*");
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Methods"), "POST");
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Headers"), "content-type, x-request-id, authorization");
    ap_resp_free(&r);
    /* No Origin: not a cross-origin request, no CORS header. */
    get(&s, "GET", "/v1/info", NULL, NULL, NULL, 200, &r);
    ck_assert_str_eq(hdr(&r, "Access-Control-Allow-Origin"), "");
    ap_resp_free(&r);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    unlink(conf);
    free(conf);
}
END_TEST

/* The access-log lines of the requests with ids id_ok and id_bad: the first carries the traceparent's
 * trace-id and parent-id, the second (an invalid header) neither. */
START_TEST(traceparent_in_access_log)
{
    char *log = ap_test_temp_file("arcpath-trace-log", "");
    ck_assert_ptr_nonnull(log);
    static ap_srv s;
    ck_assert_int_eq(ap_srv_start_logged(&s, "config/maps", NULL, NULL, log), 0);
    static const char *const bad[] = {
        "traceparent: 00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", /* uppercase */
        "traceparent: 00-00000000000000000000000000000000-00f067aa0ba902b7-01", /* zero trace-id */
        "traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", /* zero parent-id */
        "traceparent: 01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", /* another version */
        "traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x", /* too long */
        "traceparent: 00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01", /* dashes misplaced */
    };
    ap_resp r;
    get(&s, "GET", "/v1/maps", "traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 ",
        "X-Request-ID: trace-ok", NULL, 200, &r); /* (a trailing blank is not part of the value) */
    ck_assert_str_eq(hdr(&r, "traceparent"), ""); /* not echoed */
    ap_resp_free(&r);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char id[48];
        snprintf(id, sizeof id, "X-Request-ID: trace-bad-%zu", i);
        get(&s, "GET", "/v1/maps", bad[i], id, NULL, 200, &r); /* ignored, never an error */
        ap_resp_free(&r);
    }
    /* The longest of every field a client chooses, each escaping to twice its length: a request id of 128
     * backslashes, a path of 255 quotes after "/v1/maps/" (the map id the line names: its first 63), a
     * traceparent. The line was built in 1,024 bytes and cut there, mid-string: not JSON, its "result"
     * lost (a helper). */
    char long_id[32 + 128], long_path[16 + 3 * 246];
    int k = snprintf(long_id, sizeof long_id, "X-Request-ID: ");
    memset(long_id + k, '\\', 128);
    long_id[k + 128] = '\0';
    k = snprintf(long_path, sizeof long_path, "/v1/maps/");
    for (int i = 0; i < 246; i++)
        k += snprintf(long_path + k, sizeof long_path - (size_t)k, "%%22");
    const char *tp = "traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const char *headers[] = {long_id, tp, NULL};
    ck_assert_int_eq(ap_http(&s, "GET", long_path, NULL, 0, headers, &r), 0);
    ck_assert_int_eq(r.status, 404);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_srv_stop(&s), 0);

    size_t len = 0;
    char *text = ap_test_read_file(log, &len);
    ck_assert_ptr_nonnull(text);
    int longest = 0;
    for (const char *line = text; *line; line = strchr(line, '\n') + 1) {
        const char *end = strchr(line, '\n');
        ck_assert_ptr_nonnull(end);
        if (strstr(line, "\\\\\\\\") == NULL || strstr(line, "\\\\\\\\") > end)
            continue; /* not one of the long requests' lines */
        json_error_t je;
        json_t *j = json_loadb(line, (size_t)(end - line), 0, &je);
        ck_assert_msg(j != NULL, "not JSON (%s): %.*s", je.text, (int)(end - line), line);
        ck_assert_uint_eq(strlen(json_string_value(json_object_get(j, "id"))), 128);
        ck_assert_str_eq(json_string_value(json_object_get(j, "trace_id")), "4bf92f3577b34da6a3ce929d0e0e4736");
        ck_assert_str_eq(json_string_value(json_object_get(j, "result")), "unknown_map"); /* (the last field) */
        ck_assert_int_eq(json_integer_value(json_object_get(j, "status")), 404);
        json_decref(j);
        longest = (int)(end - line) > longest ? (int)(end - line) : longest;
        ck_assert_int_lt((int)(end - line), 1536);
    }
    ck_assert_int_gt(longest, 1024); /* the case that was cut */
    const char *ok = strstr(text, "\"id\":\"trace-ok\"");
    ck_assert_msg(ok != NULL, "no log line for trace-ok in:\n%s", text);
    const char *eol = strchr(ok, '\n');
    ck_assert_ptr_nonnull(eol);
    const char *want = ",\"trace_id\":\"4bf92f3577b34da6a3ce929d0e0e4736\",\"parent_id\":\"00f067aa0ba902b7\",\"result\":\"ok\"}";
    const char *at = strstr(ok, want);
    ck_assert_msg(at != NULL && at < eol, "line: %.*s", (int)(eol - ok), ok);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char key[48];
        snprintf(key, sizeof key, "\"id\":\"trace-bad-%zu\"", i);
        const char *line = strstr(text, key);
        ck_assert_msg(line != NULL, "no log line for %s", key);
        const char *end = strchr(line, '\n');
        const char *t = strstr(line, "trace_id");
        ck_assert_msg(t == NULL || t > end, "%s logged a trace_id", bad[i]);
    }
    free(text);
    unlink(log);
    free(log);
}
END_TEST

Suite *conventions_suite(void)
{
    Suite *s = suite_create("conventions");
    TCase *tc = tcase_create("http");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, gzip_json_answers);
    tcase_add_test(tc, gzip_batches_and_pictures);
    tcase_add_test(tc, gzip_follows_q_values);
    tcase_add_test(tc, gzip_embedded_files);
    tcase_add_test(tc, gzip_metrics);
    tcase_add_test(tc, duration_by_route);
    tcase_add_test(tc, options_with_cors_off);
    tcase_add_test(tc, cors_listed_origins);
    tcase_add_test(tc, cors_any_origin_from_file);
    tcase_add_test(tc, traceparent_in_access_log);
    suite_add_tcase(s, tc);
    return s;
}
