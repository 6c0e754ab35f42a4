/* test_json.c — the shared pieces of proto/: strict reading (json_in.h), the direct writer (json_out.h) and
 * the UTF-8 helpers (utf8.h). The endpoint suites (test_wire.c, test_curve.c) cover the schemas. */
#include "tests/check_fast.h"
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "proto/cells.h"
#include "proto/json_in.h"
#include "proto/json_out.h"
#include "proto/json_scratch.h"
#include "proto/utf8.h"
#include "tests/proto/suites.h"

static json_t *load(const char *text)
{
    json_error_t je;
    json_t *j = json_loads(text, 0, &je);
    ck_assert_ptr_nonnull(j);
    return j;
}

START_TEST(load_object_errors_and_styles)
{
    ap_wire_error e;
    ap_json_reader r;
    json_t *root = (json_t *)1;
    ap_json_reader_init(&r, &e, 0);
    ck_assert_int_eq(ap_json_load_object(&r, NULL, 0, &root), AP_E_INVALID_JSON);
    ck_assert_ptr_null(root);
    ck_assert_str_eq(e.message, "invalid JSON at line 1, column 1: the request body is empty");
    ck_assert(e.line == 1 && e.col == 1 && e.field[0] == '\0');

    ap_json_reader_init(&r, &e, 0);
    ck_assert(e.status == AP_OK && e.line == 0 && e.message[0] == '\0');
    ck_assert_int_eq(ap_json_load_object(&r, "{\"a\":", 5, &root), AP_E_INVALID_JSON);
    ck_assert(strncmp(e.message, "invalid JSON at line 1, column 5: ", 34) == 0);
    ap_json_reader_init(&r, &e, AP_JSON_POSITIONS_ONLY);
    ck_assert_int_eq(ap_json_load_object(&r, "{\"a\":", 5, &root), AP_E_INVALID_JSON);
    ck_assert_str_eq(e.message, "invalid JSON at line 1, column 5");
    /* a \u0000 in a string: said so, not in jansson's words (they named its JSON_ALLOW_NUL flag) */
    ap_json_reader_init(&r, &e, 0);
    const char *nul = "{\"a\":\"x\\u0000\"}";
    ck_assert_int_eq(ap_json_load_object(&r, nul, strlen(nul), &root), AP_E_INVALID_JSON);
    ck_assert_msg(strstr(e.message, ": \\u0000 (NUL) in a string is not accepted") != NULL, "%s", e.message);

    ap_json_reader_init(&r, &e, 0);
    ck_assert_int_eq(ap_json_load_object(&r, "[1]", 3, &root), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.message, "the request body must be a JSON object");
    ck_assert_int_eq(ap_json_load_object(&r, "{\"a\":1}", 7, &root), AP_OK);
    ck_assert(json_is_object(root));
    json_decref(root);
}
END_TEST

START_TEST(unknown_keys_and_styles)
{
    static const char *const allowed[] = {"x", NULL};
    ap_wire_error e;
    ap_json_reader r;
    json_t *o = load("{\"x\":1,\"\\u00e9t\\u00e9\":2}");
    ap_json_reader_init(&r, &e, 0);
    ck_assert_int_eq(ap_json_check_known(&r, o, "p", allowed), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "p.\xc3\xa9t\xc3\xa9");
    ck_assert_str_eq(e.message, "unknown field \"p.\xc3\xa9t\xc3\xa9\"");
    ap_json_reader_init(&r, &e, AP_JSON_PLAIN_KEY_NAMES);
    ck_assert_int_eq(ap_json_check_known(&r, o, "p", allowed), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "p.?");
    ck_assert_str_eq(e.message, "unknown field \"p.?\"");
    json_decref(o);

    /* a long key: the field is cut to 63 bytes either way; the message only under AP_JSON_PLAIN_KEY_NAMES */
    char body[256], key[101];
    memset(key, 'k', 100);
    key[100] = '\0';
    snprintf(body, sizeof body, "{\"%s\":1}", key);
    o = load(body);
    ap_json_reader_init(&r, &e, 0);
    ap_json_check_known(&r, o, "", allowed);
    ck_assert_uint_eq(strlen(e.field), 63);
    ck_assert_uint_eq(strlen(e.message), strlen("unknown field \"\"") + 100);
    ap_json_reader_init(&r, &e, AP_JSON_PLAIN_KEY_NAMES);
    ap_json_check_known(&r, o, "", allowed);
    ck_assert_uint_eq(strlen(e.field), 63);
    ck_assert_uint_eq(strlen(e.message), strlen("unknown field \"\"") + 63);
    json_decref(o);
}
END_TEST

START_TEST(typed_getters)
{
    static const ap_json_enum names[] = {{"a", 1}, {"b", 2}};
    ap_wire_error e;
    ap_json_reader r;
    json_t *o = load("{\"n\":\"1\",\"i\":2.5,\"i2\":2.0,\"i9\":1e9,\"i19\":-1e19,\"e\":3,\"f\":\"c\",\"b\":0,\"r\":5,\"s\":{\"x\":1,\"y\":2}}");
    double d = -1;
    long long i = -1;
    int v = -1;
    bool present = false, flag = false, has = true;

    ap_json_reader_init(&r, &e, 0);
    ck_assert_int_eq(ap_json_get_number(&r, o, "", "n", true, 0, 1, &d, &present), AP_E_INVALID_REQUEST);
    ck_assert(present && d == -1);
    ck_assert_str_eq(e.message, "\"n\" must be a number");
    ap_json_reader_init(&r, &e, AP_JSON_FINITE_TYPE_MESSAGE);
    ck_assert_int_eq(ap_json_get_number(&r, o, "", "n", true, 0, 1, &d, NULL), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.message, "\"n\" must be a finite number");
    ck_assert_int_eq(ap_json_get_number(&r, o, "", "r", true, 0, 1, &d, NULL), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.message, "\"r\" must be between 0 and 1");
    ck_assert_int_eq(ap_json_get_number(&r, o, "", "r", true, 6, INFINITY, &d, NULL), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.message, "\"r\" must be at least 6");
    ck_assert_int_eq(ap_json_get_number(&r, o, "", "zz", false, 0, 1, &d, &present), AP_OK);
    ck_assert(!present && d == -1);
    ck_assert_int_eq(ap_json_get_number(&r, o, "q", "zz", true, 0, 1, &d, NULL), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "q.zz");
    ck_assert_str_eq(e.message, "missing required field \"q.zz\"");

    ap_json_reader_init(&r, &e, 0);
    ck_assert_int_eq(ap_json_get_integer(&r, o, "", "i", true, 0, 9, &i, NULL), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.message, "\"i\" must be an integer");
    /* an integral real is an integer, as JSON Schema's "integer" (the OpenAPI types) says: a helper's
     * unit.size 2.0 was refused, and 1e9 was "must be an integer" instead of the range */
    ck_assert_int_eq(ap_json_get_integer(&r, o, "", "i2", true, 0, 9, &i, NULL), AP_OK);
    ck_assert_int_eq(i, 2);
    ck_assert_int_eq(ap_json_get_integer(&r, o, "", "i9", true, 1, 64, &i, NULL), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.message, "\"i9\" must be between 1 and 64");
    /* beyond 2^63 too: an integer out of range (it was "must be an integer", a jsonedge helper's finding) */
    ck_assert_int_eq(ap_json_get_integer(&r, o, "", "i19", true, 1, 64, &i, NULL), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.message, "\"i19\" must be between 1 and 64");
    ck_assert_int_eq(ap_json_get_integer(&r, o, "", "e", true, 0, 2, &i, NULL), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.message, "\"e\" must be between 0 and 2");
    ck_assert_int_eq(ap_json_get_integer(&r, o, "", "e", true, 0, 3, &i, NULL), AP_OK);
    ck_assert_int_eq(i, 3);
    ck_assert_int_eq(ap_json_get_bool(&r, o, "", "b", &flag), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.message, "\"b\" must be true or false");

    ck_assert_int_eq(ap_json_get_enum(&r, o, "", "f", names, 2, &v), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.message, "\"f\" must be one of: a, b");
    ck_assert_int_eq(ap_json_get_enum(&r, o, "", "e", names, 2, &v), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.message, "\"e\" must be a string");
    ap_json_reader_init(&r, &e, AP_JSON_ENUM_TYPE_MESSAGE);
    ck_assert_int_eq(ap_json_get_enum(&r, o, "", "e", names, 2, &v), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.message, "\"e\" must be one of: a, b");
    ck_assert_int_eq(v, -1);

    double x = 0, y = 0, h = 7;
    ap_json_reader_init(&r, &e, 0);
    ck_assert_int_eq(ap_json_get_pose(&r, o, "", "s", &x, &y, &h, &has), AP_OK);
    ck_assert(x == 1 && y == 2 && h == 7 && !has);
    ck_assert_int_eq(ap_json_get_pose(&r, o, "", "s", &x, &y, &h, NULL), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.field, "s.heading");
    ck_assert_int_eq(ap_json_get_pose(&r, o, "", "r", &x, &y, &h, &has), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.message, "\"r\" must be an object {\"x\", \"y\", \"heading\"?} (tiles, radians)");
    ck_assert_int_eq(ap_json_get_pose(&r, o, "", "r", &x, &y, &h, NULL), AP_E_INVALID_REQUEST); /* heading required */
    ck_assert_str_eq(e.message, "\"r\" must be an object {\"x\", \"y\", \"heading\"} (tiles, radians)");
    json_decref(o);
}
END_TEST

START_TEST(fail_keeps_utf8)
{
    ap_wire_error e;
    memset(&e, 0, sizeof e);
    ck_assert_int_eq(ap_json_fail(&e, AP_E_INVALID_REQUEST, "a\xff", "bad %s", "\xc3"), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(e.message, "bad ?");
    ck_assert_str_eq(e.field, "a?");
    char out[4];
    ap_utf8_copy(out, sizeof out, "a\xe2\x82\xac"); /* the euro sign does not fit: cut before it */
    ck_assert_str_eq(out, "a");
    ck_assert(ap_utf8_valid("\xe2\x82\xac") && !ap_utf8_valid("\xed\xa0\x80") && !ap_utf8_valid(NULL));
}
END_TEST

/* The writer's numbers and strings are jansson's dump, byte for byte. */
static void same_as_jansson(json_t *v, void (*write)(ap_jbuf *, json_t *))
{
    char *want = json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(17) | JSON_ENCODE_ANY);
    ap_jbuf b;
    ap_jbuf_init(&b, NULL, 0);
    write(&b, v);
    size_t len = 0;
    char *got = ap_jbuf_take(&b, &len);
    ck_assert_ptr_nonnull(want);
    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got, want);
    ck_assert_uint_eq(len, strlen(want));
    free(want);
    free(got);
    json_decref(v);
}

static void write_real(ap_jbuf *b, json_t *v) { ap_jbuf_real(b, json_real_value(v)); }
static void write_string(ap_jbuf *b, json_t *v) { ap_jbuf_str(b, json_string_value(v)); }

START_TEST(writer_matches_jansson)
{
    const double reals[] = {0.0, 0.5, -1.5, 1e15, 1e-7, 123456789012345678.0, 1.0 / 3.0, -2.5e-300,
                            1.7976931348623157e308, 4.9e-324, 0.1, 1e22, 999999999999999.5};
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++)
        same_as_jansson(json_real(reals[i]), write_real);
    char path[8];
    ap_json_join_path(path, sizeof path, "start", "x");
    ck_assert_str_eq(path, "start.x");
    ap_json_join_path(path, sizeof path, "", "map");
    ck_assert_str_eq(path, "map");
    ap_json_join_path(path, sizeof path, "samples", "step"); /* cut to 7 bytes, like snprintf */
    ck_assert_str_eq(path, "samples");
    ap_json_join_path(path, 4, "ab", "cd");
    ck_assert_str_eq(path, "ab.");
    /* the dyadic shortcut (multiples of 2^-10 below 1e6) and the numbers just outside it */
    const double edges[] = {1e-4, 0.0001000000000000001, 9.9999999999999991e-05, 1e15, 999999999999999.88,
                            999999999999999.75, 0.1, 0.3, 2.0 / 3.0, 1e-3, 123456.789, 5e-324, 0.5e-4};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        same_as_jansson(json_real(edges[i]), write_real);
        same_as_jansson(json_real(-edges[i]), write_real);
    }
    const double dyadic[] = {0.0009765625, -0.0009765625, 999999.9990234375, -999999.5, 1000000.0, 0.75,
                             12.125, 3.0009765625, 0.00048828125, 1e6 - 1.0 / 2048, 65536.0};
    for (size_t i = 0; i < sizeof dyadic / sizeof dyadic[0]; i++)
        same_as_jansson(json_real(dyadic[i]), write_real);
    /* -0 alone differs: written 0.0 (jansson: -0.0), as a client compares and prints it */
    ap_jbuf zb;
    ap_jbuf_init(&zb, NULL, 0);
    ap_jbuf_real(&zb, -0.0);
    size_t zlen = 0;
    char *z = ap_jbuf_take(&zb, &zlen);
    ck_assert_str_eq(z, "0.0");
    free(z);
    uint64_t state = 0x9E3779B97F4A7C15ull; /* xorshift: reproducible */
    for (int i = 0; i < 20000; i++) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        double k = (double)(state % 2048000001ull) - 1024000000.0; /* |k / 1024| < ~1e6 */
        same_as_jansson(json_real(ldexp(k, -(int)(state >> 60) % 11)), write_real);
        same_as_jansson(json_real(k / 3.0), write_real);
        /* any bits at any magnitude around the integer shortcut's range [1e-4, 1e15) and across it */
        uint64_t bits = state * 0x2545F4914F6CDD1Dull;
        double any = ldexp((double)(bits >> 11) / 9007199254740992.0 + 0.5, (int)(state % 70) - 20);
        same_as_jansson(json_real((state & 2) ? -any : any), write_real);
        same_as_jansson(json_real(sqrt((double)(state % 1000000007ull))), write_real);
        ap_jbuf ib;
        ap_jbuf_init(&ib, NULL, 0);
        long long v = (long long)(state >> 1) * ((state & 1) ? -1 : 1);
        ap_jbuf_int(&ib, v);
        char want[32];
        snprintf(want, sizeof want, "%lld", v);
        ck_assert_str_eq(ib.p, want);
        ap_jbuf_free(&ib);
    }
    same_as_jansson(json_string("plain \"quoted\" back\\slash / \b\f\n\r\t \x01\x1f \xc3\xa9\xe2\x82\xac"),
                    write_string);

    ap_jbuf b;
    char storage[8];
    ap_jbuf_init(&b, storage, sizeof storage);
    ap_jbuf_real(&b, NAN);
    ck_assert(b.failed && b.bad_number);
    ck_assert_int_eq(ap_jbuf_status(&b), AP_E_NOMEM);
    ap_jbuf_reset(&b);
    ck_assert_int_eq(ap_jbuf_status(&b), AP_OK);
    ap_jbuf_str(&b, "a\xff"); /* invalid UTF-8 becomes '?' */
    ap_jbuf_u64(&b, UINT64_MAX); /* clamped */
    ck_assert_str_eq(b.p, "\"a?\"9223372036854775807");
    ck_assert(b.heap); /* outgrew the 8 bytes of storage */
    ap_jbuf_free(&b);
}
END_TEST

START_TEST(segments_encoding)
{
    ap_segment s[2];
    memset(s, 0, sizeof s);
    s[0].type = AP_SEG_LINE;
    s[0].x1 = 2.0;
    s[0].length = 2.0;
    s[0].reverse = true;
    s[1].type = AP_SEG_ARC;
    s[1].x0 = 2.0;
    s[1].radius = 1.0;
    s[1].sweep = 0.5;
    s[1].length = 0.5;
    ap_jbuf b;
    ap_jbuf_init(&b, NULL, 0);
    ap_jbuf_segments(&b, s, 2);
    ck_assert_str_eq(b.p, "[{\"type\":\"line\",\"start\":[0.0,0.0],\"end\":[2.0,0.0],\"heading\":0.0,\"length\":2.0,"
                          "\"reverse\":true},{\"type\":\"arc\",\"start\":[2.0,0.0],\"end\":[0.0,0.0],\"center\":"
                          "[0.0,0.0],\"radius\":1.0,\"start_heading\":0.0,\"sweep\":0.5,\"length\":0.5}]");
    ap_jbuf_reset(&b);
    ap_jbuf_segments(&b, NULL, 0);
    ck_assert_str_eq(b.p, "[]");
    ap_jbuf_free(&b);
}
END_TEST

static bool in_buf(const void *p, const char *buf, size_t cap)
{
    return (const char *)p >= buf && (const char *)p < buf + cap;
}

/* jansson's allocations come from the scratch buffer inside a scope, from malloc when it is full, after the
 * scope and in a nested scope; the parse is the same either way. */
START_TEST(scratch_scope)
{
    static const char body[] =
        "{\"map\":\"den520d\",\"start\":{\"x\":10.5,\"y\":139.5},\"goal\":{\"x\":1e3,\"y\":-2}}";
    json_error_t e;
    json_t *plain = json_loads(body, 0, &e);
    ck_assert_ptr_nonnull(plain);
    char *want = json_dumps(plain, JSON_COMPACT | JSON_SORT_KEYS);

    _Alignas(16) char buf[4096];
    ap_json_scratch sc;
    ap_json_scratch_begin(&sc, buf, sizeof buf);
    ck_assert(sc.active);
    json_t *v = json_loads(body, 0, &e);
    ck_assert_ptr_nonnull(v);
    ck_assert(in_buf(v, buf, sizeof buf));
    ck_assert(in_buf(json_object_get(json_object_get(v, "start"), "x"), buf, sizeof buf));
    ck_assert_uint_gt(sc.used, 0);
    ck_assert_uint_eq(sc.used % 16, 0);
    ck_assert(json_equal(v, plain));
    json_t *empty = json_stringn(buf, 0); /* still room */
    ck_assert(in_buf(empty, buf, sizeof buf));
    char text[5000];
    memset(text, 'a', sizeof text);
    json_t *spill = json_stringn(text, sizeof text); /* its copy of the text does not fit: malloc */
    ck_assert_ptr_nonnull(spill);
    ck_assert(!in_buf(json_string_value(spill), buf, sizeof buf));
    ck_assert_uint_eq(json_string_length(spill), sizeof text);
    ap_json_scratch inner;
    char buf2[256];
    ap_json_scratch_begin(&inner, buf2, sizeof buf2); /* nested: inactive */
    ck_assert(!inner.active);
    json_t *n = json_integer(7);
    ck_assert(in_buf(n, buf, sizeof buf));
    ap_json_scratch_end(&inner);
    json_decref(n);
    json_decref(spill);
    json_decref(empty);
    json_decref(v);
    ap_json_scratch_end(&sc);
    ck_assert(!sc.active);

    json_t *after = json_integer(8); /* the scope is over: malloc, freed by free */
    ck_assert(!in_buf(after, buf, sizeof buf));
    json_decref(after);
    char *again = json_dumps(plain, JSON_COMPACT | JSON_SORT_KEYS);
    ck_assert_str_eq(again, want);
    free(again);
    free(want);
    json_decref(plain);
}
END_TEST

/* With the scratch allocator installed, a failed allocation for jansson stops the process with a message
 * (jansson 2.14 cannot recover from one) instead of returning NULL to it. A child asks jansson for a string
 * no allocator can give. Not under a sanitizer, whose allocator refuses the size itself. */
START_TEST(scratch_allocator_aborts_when_out_of_memory)
{
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        ap_json_scratch_install();
        json_t *s = json_stringn_nocheck("x", SIZE_MAX / 4);
        _exit(s == NULL ? 1 : 2);
    }
    close(fds[1]);
    char msg[512] = {0};
    size_t got = 0;
    ssize_t k;
    while (got < sizeof msg - 1 && (k = read(fds[0], msg + got, sizeof msg - 1 - got)) > 0)
        got += (size_t)k;
    close(fds[0]);
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "child status 0x%x", status);
    ck_assert_msg(strstr(msg, "arcpath: out of memory: the JSON library could not allocate") != NULL, "%s", msg);
#endif
}
END_TEST

/* ap_json_values_over counts openings and commas outside strings (escaped quotes included), and the cell
 * edits parser refuses a body over its bound before parsing it: 200,000 empty arrays (0.6 MB, a tree of
 * ~28 MB) answer invalid_request on "cells", while 4,096 pretty-printed cells still parse. */
START_TEST(values_over_bounds_the_tree)
{
    const char *t = "{\"a,[{\\\",\":[1,2,{}]}"; /* the string "a,[{\"," holds none */
    ck_assert(!ap_json_values_over(t, strlen(t), 5)); /* {, [, two commas, {} */
    ck_assert(ap_json_values_over(t, strlen(t), 4));
    ck_assert(!ap_json_values_over(NULL, 0, 0));
    ck_assert(!ap_json_values_over("\"\\", 2, 0)); /* an unterminated escape at the end */

    const size_t k = 200000;
    char *b = malloc(16 + 3 * k);
    size_t n = 0;
    n += (size_t)sprintf(b + n, "{\"cells\":[");
    for (size_t i = 0; i < k; i++)
        n += (size_t)sprintf(b + n, i ? ",[]" : "[]");
    n += (size_t)sprintf(b + n, "]}");
    ap_cell_edit *e = NULL;
    size_t ne = 99;
    ap_wire_error err;
    ck_assert_int_eq(ap_wire_parse_cell_edits(b, n, AP_MAX_CELL_EDITS, &e, &ne, &err), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(err.field, "cells");
    ck_assert_msg(strstr(err.message, "more JSON values than that many cells can") != NULL, "%s", err.message);
    ck_assert_ptr_null(e);
    ck_assert_uint_eq(ne, 0);
    free(b);

    b = malloc(96 * AP_MAX_CELL_EDITS + 64);
    n = (size_t)sprintf(b, "{\n  \"cells\": [\n");
    for (int i = 0; i < AP_MAX_CELL_EDITS; i++)
        n += (size_t)sprintf(b + n, "    {\n      \"x\": %d,\n      \"y\": %d,\n      \"terrain\": \"@\"\n    }%s\n",
                             i % 64, i / 64, i + 1 < AP_MAX_CELL_EDITS ? "," : "");
    n += (size_t)sprintf(b + n, "  ]\n}\n");
    ck_assert_int_eq(ap_wire_parse_cell_edits(b, n, AP_MAX_CELL_EDITS, &e, &ne, &err), AP_OK);
    ck_assert_uint_eq(ne, AP_MAX_CELL_EDITS);
    ck_assert_int_eq(e[AP_MAX_CELL_EDITS - 1].x, 63);
    ck_assert_int_eq(e[AP_MAX_CELL_EDITS - 1].y, 63);
    free(e);
    free(b);
}
END_TEST

/* A nested request's message names a field under its prefix, as its error's field does. */
START_TEST(prefix_message_names_the_field)
{
    char out[64];
    ap_json_prefix_message(out, sizeof out, "\"unit.radius\" must be between 0 and 16", "query.", "unit.radius");
    ck_assert_str_eq(out, "\"query.unit.radius\" must be between 0 and 16");
    ap_json_prefix_message(out, sizeof out, "missing required field \"goal\"", "query.", "goal");
    ck_assert_str_eq(out, "missing required field \"query.goal\"");
    /* only a quoted mention, the first; none: as it was */
    ap_json_prefix_message(out, sizeof out, "goal \"goal\" and \"goal\"", "query.", "goal");
    ck_assert_str_eq(out, "goal \"query.goal\" and \"goal\"");
    ap_json_prefix_message(out, sizeof out, "no such map", "query.", "map");
    ck_assert_str_eq(out, "no such map");
    ap_json_prefix_message(out, sizeof out, "\"start\" blocked", NULL, "start");
    ck_assert_str_eq(out, "\"start\" blocked");
    ap_json_prefix_message(out, sizeof out, "\"start\" blocked", "query.", NULL);
    ck_assert_str_eq(out, "\"start\" blocked");
    /* cut to fit, terminated */
    char small[8];
    ap_json_prefix_message(small, sizeof small, "\"start\" blocked", "query.", "start");
    ck_assert_str_eq(small, "\"query.");
    /* the field and the message together: under the prefix; no field, no prefix, or an empty one: as it was */
    char field[32];
    ap_json_prefix_error(field, sizeof field, out, sizeof out, "\"unit.size\" too big", "queries[2].", "unit.size");
    ck_assert_str_eq(field, "queries[2].unit.size");
    ck_assert_str_eq(out, "\"queries[2].unit.size\" too big");
    ap_json_prefix_error(field, sizeof field, out, sizeof out, "no such map", "query.", NULL);
    ck_assert_str_eq(field, "");
    ck_assert_str_eq(out, "no such map");
    ap_json_prefix_error(field, sizeof field, out, sizeof out, "\"start\" blocked", "query.", "");
    ck_assert_str_eq(field, "");
    ap_json_prefix_error(field, sizeof field, out, sizeof out, "\"start\" blocked", NULL, "start");
    ck_assert_str_eq(field, "start");
    ck_assert_str_eq(out, "\"start\" blocked");
    ap_json_prefix_error(small, sizeof small, out, sizeof out, "x", "query.", "start");
    ck_assert_str_eq(small, "query.s");
}
END_TEST

Suite *json_suite(void)
{
    Suite *s = suite_create("json");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, load_object_errors_and_styles);
    tcase_add_test(tc, prefix_message_names_the_field);
    tcase_add_test(tc, unknown_keys_and_styles);
    tcase_add_test(tc, typed_getters);
    tcase_add_test(tc, fail_keeps_utf8);
    tcase_add_test(tc, writer_matches_jansson);
    tcase_add_test(tc, segments_encoding);
    tcase_add_test(tc, scratch_scope);
    tcase_add_test(tc, scratch_allocator_aborts_when_out_of_memory);
    tcase_add_test(tc, values_over_bounds_the_tree);
    suite_add_tcase(s, tc);
    return s;
}
