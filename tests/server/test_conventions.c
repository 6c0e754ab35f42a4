/* test_conventions.c — the pure parts of the HTTP conventions: Accept-Encoding q-values and gzip
 * round-trips (server/gzip.h), CORS origin and header decisions (server/cors.h), W3C traceparent parsing
 * (server/traceparent.h). */
#include "tests/check_fast.h"
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "config/config.h"
#include "server/cors.h"
#include "server/gzip.h"
#include "server/traceparent.h"

Suite *conventions_suite(void);

START_TEST(accept_encoding)
{
    static const struct {
        const char *v;
        bool ok;
    } cases[] = {
        {NULL, false},
        {"", false},
        {"gzip", true},
        {"GZip", true},
        {"x-gzip", true},
        {"gzip;q=0", false},
        {"gzip;q=0.0", false},
        {"gzip ; q=0.000", false},
        {"gzip;Q=0", false},
        {"gzip;q=0.001", true},
        {"gzip;q=1", true},
        {"gzip;q=1.000", true},
        {"gzip;q=1.5", false},   /* malformed: not acceptable */
        {"gzip;q=0.0001", false},
        {"gzip;q=", false},
        {"gzip;q=abc", false},
        {"deflate, gzip;q=0.5, br", true},
        {"deflate, br", false},
        {"identity", false},
        {"*", true},
        {"*;q=0", false},
        {"*, gzip;q=0", false},   /* gzip named: its own q-value counts */
        {"gzip;q=0, *", false},
        {"*;q=0, gzip", true},
        {"gzipx", false},
        {"br;q=1, gzip;level=1", true}, /* other parameters do not matter */
        {" ,, gzip ,", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(ap_gzip_accepted(cases[i].v) == cases[i].ok, "\"%s\": want %d", cases[i].v ? cases[i].v : "(null)",
                      cases[i].ok);
}
END_TEST

START_TEST(gzip_round_trip)
{
    /* A JSON-like body: compressed by ap_gzip_compress, inflated by zlib's gzip reader, equal again. */
    size_t n = 50000;
    char *in = malloc(n);
    ck_assert_ptr_nonnull(in);
    for (size_t i = 0; i < n; i++)
        in[i] = "{\"x\":1.5,\"y\":[2,3]}"[i % 19];
    for (int level = 1; level <= 9; level += 4) {
        size_t zlen = 0;
        char *z = ap_gzip_compress(in, n, level, &zlen);
        ck_assert_ptr_nonnull(z);
        ck_assert_uint_lt(zlen, n / 20);
        ck_assert_int_eq((unsigned char)z[0], 0x1f);
        ck_assert_int_eq((unsigned char)z[1], 0x8b);
        char *out = malloc(n + 1);
        z_stream zs;
        memset(&zs, 0, sizeof zs);
        ck_assert_int_eq(inflateInit2(&zs, 15 + 16), Z_OK);
        zs.next_in = (Bytef *)z;
        zs.avail_in = (uInt)zlen;
        zs.next_out = (Bytef *)out;
        zs.avail_out = (uInt)(n + 1);
        ck_assert_int_eq(inflate(&zs, Z_FINISH), Z_STREAM_END);
        ck_assert_uint_eq(zs.total_out, n);
        ck_assert_int_eq(memcmp(in, out, n), 0);
        inflateEnd(&zs);
        free(out);
        free(z);
    }
    /* An empty body is a valid (20-byte) member too. */
    size_t zlen = 0;
    char *z = ap_gzip_compress("", 0, 1, &zlen);
    ck_assert_ptr_nonnull(z);
    ck_assert_uint_eq(zlen, 20);
    free(z);
    free(in);
}
END_TEST

START_TEST(cors_decisions)
{
    ap_config c;
    ap_config_defaults(&c);
    ck_assert_ptr_null(ap_cors_allow_origin(&c, "https://a.example")); /* off */
    ck_assert(!ap_cors_varies(&c));
    strcpy(c.cors_origins[0], "https://a.example");
    strcpy(c.cors_origins[1], "http://127.0.0.1:3000");
    c.n_cors_origins = 2;
    ck_assert_str_eq(ap_cors_allow_origin(&c, "https://a.example"), "https://a.example");
    ck_assert_str_eq(ap_cors_allow_origin(&c, "http://127.0.0.1:3000"), "http://127.0.0.1:3000");
    ck_assert_ptr_null(ap_cors_allow_origin(&c, "http://127.0.0.1:3001"));
    ck_assert_ptr_null(ap_cors_allow_origin(&c, "https://a.example.evil"));
    ck_assert_ptr_null(ap_cors_allow_origin(&c, "https://a.exampl"));
    ck_assert_ptr_null(ap_cors_allow_origin(&c, "null"));
    ck_assert_ptr_null(ap_cors_allow_origin(&c, NULL));
    ck_assert(ap_cors_varies(&c));
    strcpy(c.cors_origins[0], "*");
    c.n_cors_origins = 1;
    ck_assert_str_eq(ap_cors_allow_origin(&c, "https://anything.example"), "*");
    ck_assert_ptr_null(ap_cors_allow_origin(&c, NULL));
    ck_assert(!ap_cors_varies(&c));
}
END_TEST

START_TEST(cors_allow_headers)
{
    char buf[256];
    ck_assert_uint_eq(ap_cors_allow_headers("Content-Type, TraceParent,X-Custom , accept", buf, sizeof buf), 33);
    ck_assert_str_eq(buf, "content-type, traceparent, accept");
    ck_assert_uint_eq(ap_cors_allow_headers("accept-language, accept, accept", buf, sizeof buf), 23);
    ck_assert_str_eq(buf, "accept-language, accept"); /* "accept" once, not taken for a prefix */
    /* a browser's compare-and-set on a map (If-Match) and its revalidation (If-None-Match) */
    ck_assert_uint_eq(ap_cors_allow_headers("If-Match, If-None-Match", buf, sizeof buf), 23);
    ck_assert_str_eq(buf, "if-match, if-none-match");
    ck_assert_uint_eq(ap_cors_allow_headers("x-one, x-two", buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "");
    ck_assert_uint_eq(ap_cors_allow_headers(NULL, buf, sizeof buf), 0);
    ck_assert_uint_eq(ap_cors_allow_headers("content-typex", buf, sizeof buf), 0);
    /* Cut to fit: what does not fit whole is left out. */
    ck_assert_uint_eq(ap_cors_allow_headers("authorization, accept", buf, 16), 13);
    ck_assert_str_eq(buf, "authorization");
}
END_TEST

START_TEST(traceparent_strict)
{
    ap_traceparent t;
    ck_assert(ap_traceparent_parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", &t));
    ck_assert_str_eq(t.trace_id, "4bf92f3577b34da6a3ce929d0e0e4736");
    ck_assert_str_eq(t.parent_id, "00f067aa0ba902b7");
    ck_assert_str_eq(t.flags, "01");
    ck_assert(ap_traceparent_parse("00-00000000000000000000000000000001-0000000000000001-00", &t));
    /* trailing optional whitespace is not the value's (RFC 9110 5.5; libmicrohttpd leaves it on) */
    ck_assert(ap_traceparent_parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 \t ", &t));
    ck_assert_str_eq(t.flags, "01");
    static const char *const bad[] = {
        NULL,
        "",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0",     /* 54 chars */
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-011",   /* 56 */
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0 ",    /* 54 and a space */
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-",   /* version 00 has nothing after */
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",    /* other versions */
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",    /* uppercase */
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00F067AA0BA902B7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0G",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",    /* zero trace-id */
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",    /* zero parent-id */
        "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7 01",
        " 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!ap_traceparent_parse(bad[i], &t), "accepted \"%s\"", bad[i] ? bad[i] : "(null)");
}
END_TEST

Suite *conventions_suite(void)
{
    Suite *s = suite_create("conventions");
    TCase *tc = tcase_create("pure");
    tcase_add_test(tc, accept_encoding);
    tcase_add_test(tc, gzip_round_trip);
    tcase_add_test(tc, cors_decisions);
    tcase_add_test(tc, cors_allow_headers);
    tcase_add_test(tc, traceparent_strict);
    suite_add_tcase(s, tc);
    return s;
}
