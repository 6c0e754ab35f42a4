/* wire.c — POST /v1/path bodies to ap_path_request, results and errors to JSON bodies (jansson).
 *
 * Validation is strict on purpose: unknown fields, wrong types and out-of-range values are rejected with
 * the dotted path of the field rather than ignored, so a client typo ("serach") never silently falls back
 * to defaults. Each object is checked for unknown keys first, then its fields in schema order, so the
 * reported field is deterministic for a given body.
 */
#include "wire.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AP_WIRE_MAX_DEADLINE_MS 600000
#define AP_WIRE_DUMP_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(17) | JSON_PRESERVE_ORDER)

/* ---------------------------------------------------------------------------------------------------------
 * UTF-8-safe copying. Messages and field names end up in JSON strings, and jansson refuses invalid UTF-8
 * (json_string returns NULL), so a field name cut in the middle of a multi-byte character, or a jansson
 * diagnostic quoting invalid input bytes, would turn a 400 into a failed encode. */

/* Length of the valid UTF-8 sequence at s (n bytes available), or 0 if the bytes there are not one. */
static size_t utf8_seq_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    unsigned int cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    /* overlong forms, surrogates, and code points above U+10FFFF */
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* Copy NUL-terminated src into dst (size > 0): invalid bytes become '?', and the copy stops at a
 * character boundary when dst is full, so dst is always valid, NUL-terminated UTF-8. */
static void utf8_copy(char *dst, size_t size, const char *src)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t n = strlen(src), i = 0, o = 0;
    while (i < n) {
        size_t l = utf8_seq_len(s + i, n - i);
        if (l == 0) {
            if (o + 1 >= size)
                break;
            dst[o++] = '?';
            i++;
            continue;
        }
        if (o + l >= size)
            break;
        memcpy(dst + o, s + i, l);
        o += l;
        i += l;
    }
    dst[o] = '\0';
}

/* ---------------------------------------------------------------------------------------------------------
 * Request parsing */

/* Record an error and return its status (so callers can `return fail(...)`). */
__attribute__((format(printf, 4, 5))) static int fail(ap_wire_error *err, int status, const char *field,
                                                      const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    err->status = status;
    utf8_copy(err->message, sizeof err->message, tmp);
    utf8_copy(err->field, sizeof err->field, field ? field : "");
    return status;
}

/* Dotted path of key inside the object at prefix ("" = the body itself). Long keys are truncated; the
 * error field has room for 63 bytes anyway. */
static void join_path(char *out, size_t size, const char *prefix, const char *key)
{
    if (prefix[0] == '\0')
        snprintf(out, size, "%s", key);
    else
        snprintf(out, size, "%s.%s", prefix, key);
}

/* Reject the first key of obj not in allowed (NULL-terminated). */
static int check_known(json_t *obj, const char *prefix, const char *const *allowed, ap_wire_error *err)
{
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value) {
        bool known = false;
        for (const char *const *a = allowed; *a != NULL; a++) {
            if (strcmp(*a, key) == 0) {
                known = true;
                break;
            }
        }
        if (!known) {
            char path[512];
            join_path(path, sizeof path, prefix, key);
            return fail(err, AP_E_INVALID_REQUEST, path, "unknown field \"%s\"", path);
        }
    }
    return AP_OK;
}

/* Look up a member: *out NULL when absent. A missing required member is an error naming it. */
static int member(json_t *obj, const char *prefix, const char *key, bool required, json_t **out,
                  char *path, size_t pathsize, ap_wire_error *err)
{
    join_path(path, pathsize, prefix, key);
    *out = json_object_get(obj, key);
    if (*out == NULL && required)
        return fail(err, AP_E_INVALID_REQUEST, path, "missing required field \"%s\"", path);
    return AP_OK;
}

/* A finite number (JSON integers are accepted where reals are expected) in [lo, hi]. */
static int get_number(json_t *obj, const char *prefix, const char *key, bool required, double lo, double hi,
                      double *out, bool *present, ap_wire_error *err)
{
    char path[128];
    json_t *v;
    int rc = member(obj, prefix, key, required, &v, path, sizeof path, err);
    if (present)
        *present = v != NULL;
    if (rc != AP_OK || v == NULL)
        return rc;
    if (!json_is_number(v))
        return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be a number", path);
    double d = json_number_value(v);
    /* jansson's parser already refuses NaN/Infinity and overflowing literals; this guards the contract
     * should the decoder ever change. */
    if (!isfinite(d))
        return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be a finite number", path);
    if (d < lo || d > hi) {
        if (isinf(hi))
            return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be at least %g", path, lo);
        return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be between %g and %g", path, lo, hi);
    }
    *out = d;
    return AP_OK;
}

/* A JSON integer (not a real, even an integral one) in [lo, hi]. */
static int get_integer(json_t *obj, const char *prefix, const char *key, bool required, long long lo,
                       long long hi, long long *out, bool *present, ap_wire_error *err)
{
    char path[128];
    json_t *v;
    int rc = member(obj, prefix, key, required, &v, path, sizeof path, err);
    if (present)
        *present = v != NULL;
    if (rc != AP_OK || v == NULL)
        return rc;
    if (!json_is_integer(v))
        return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be an integer", path);
    json_int_t i = json_integer_value(v);
    if (i < lo || i > hi)
        return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be between %lld and %lld", path, lo, hi);
    *out = i;
    return AP_OK;
}

/* An optional or required object member; *out NULL when absent. */
static int get_object(json_t *obj, const char *prefix, const char *key, bool required, json_t **out,
                      ap_wire_error *err)
{
    char path[128];
    int rc = member(obj, prefix, key, required, out, path, sizeof path, err);
    if (rc != AP_OK || *out == NULL)
        return rc;
    if (!json_is_object(*out))
        return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be an object", path);
    return AP_OK;
}

/* A string member; *out NULL when absent. */
static int get_string(json_t *obj, const char *prefix, const char *key, bool required, json_t **out,
                      ap_wire_error *err)
{
    char path[128];
    int rc = member(obj, prefix, key, required, out, path, sizeof path, err);
    if (rc != AP_OK || *out == NULL)
        return rc;
    if (!json_is_string(*out))
        return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be a string", path);
    return AP_OK;
}

/* Name tables for the string enums. New algorithms ("jps", "directional8", ...) are one row each. */
typedef struct ap_enum_name {
    const char *name;
    int value;
} ap_enum_name;

static const ap_enum_name ap_algorithm_names[] = {
    {"astar", AP_ALG_ASTAR},
    {"jps", AP_ALG_JPS},
    {"jps_plus", AP_ALG_JPS_PLUS},
    {"auto", AP_ALG_AUTO},
    {"directional8", AP_ALG_DIRECTIONAL8},
    {"directional24", AP_ALG_DIRECTIONAL24},
    {"directional48", AP_ALG_DIRECTIONAL48},
    {"hybrid", AP_ALG_HYBRID},
};

static const ap_enum_name ap_smoothing_names[] = {
    {"none", AP_SMOOTH_NONE},
    {"los", AP_SMOOTH_LOS},
};

static int get_enum(json_t *obj, const char *prefix, const char *key, const ap_enum_name *names, size_t n,
                    int *out, ap_wire_error *err)
{
    json_t *v;
    int rc = get_string(obj, prefix, key, false, &v, err);
    if (rc != AP_OK || v == NULL)
        return rc;
    const char *s = json_string_value(v);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(names[i].name, s) == 0) {
            *out = names[i].value;
            return AP_OK;
        }
    }
    char list[256] = "", path[128];
    size_t used = 0;
    for (size_t i = 0; i < n && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", names[i].name);
    join_path(path, sizeof path, prefix, key);
    return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be one of: %s", path, list);
}

static const char *const ap_keys_body[] = {"map",    "start",       "goal",    "unit",
                                           "search", "deadline_ms", "samples", NULL};
static const char *const ap_keys_start[] = {"x", "y", "heading", NULL};
static const char *const ap_keys_goal[] = {"x", "y", "heading", NULL}; /* heading: legal-turn searches */
static const char *const ap_keys_unit[] = {"radius",          "turning_radius", "reverse",
                                           "reverse_penalty", "art_directions", NULL};
static const char *const ap_keys_search[] = {"algorithm",    "connectivity", "smoothing",
                                             "turn_penalty", "headings",     NULL};

/* An optional boolean member. */
static int get_bool(json_t *obj, const char *prefix, const char *key, bool *out, ap_wire_error *err)
{
    json_t *v;
    char path[128];
    int rc = member(obj, prefix, key, false, &v, path, sizeof path, err);
    if (rc != AP_OK || v == NULL)
        return rc;
    if (!json_is_boolean(v))
        return fail(err, AP_E_INVALID_REQUEST, path, "\"%s\" must be true or false", path);
    *out = json_is_true(v);
    return AP_OK;
}
static const char *const ap_keys_samples[] = {"step", NULL};

static int parse_body(json_t *root, ap_path_request *req, ap_wire_error *err)
{
    ap_query *q = &req->q;
    json_t *o, *v;
    int rc;

    if ((rc = check_known(root, "", ap_keys_body, err)) != AP_OK)
        return rc;

    if ((rc = get_string(root, "", "map", true, &v, err)) != AP_OK)
        return rc;
    size_t mlen = json_string_length(v);
    const char *mid = json_string_value(v);
    /* Embedded NULs cannot reach us (no JSON_ALLOW_NUL), but the strlen check keeps it obvious. */
    if (mlen < 1 || mlen >= AP_MAP_ID_MAX || strlen(mid) != mlen)
        return fail(err, AP_E_INVALID_REQUEST, "map", "\"map\" must be 1 to %d bytes long", AP_MAP_ID_MAX - 1);
    memcpy(req->map, mid, mlen + 1);

    if ((rc = get_object(root, "", "start", true, &o, err)) != AP_OK ||
        (rc = check_known(o, "start", ap_keys_start, err)) != AP_OK ||
        (rc = get_number(o, "start", "x", true, -INFINITY, INFINITY, &q->sx, NULL, err)) != AP_OK ||
        (rc = get_number(o, "start", "y", true, -INFINITY, INFINITY, &q->sy, NULL, err)) != AP_OK ||
        (rc = get_number(o, "start", "heading", false, -INFINITY, INFINITY, &q->sheading, &q->has_sheading,
                         err)) != AP_OK)
        return rc;

    if ((rc = get_object(root, "", "goal", true, &o, err)) != AP_OK ||
        (rc = check_known(o, "goal", ap_keys_goal, err)) != AP_OK ||
        (rc = get_number(o, "goal", "x", true, -INFINITY, INFINITY, &q->gx, NULL, err)) != AP_OK ||
        (rc = get_number(o, "goal", "y", true, -INFINITY, INFINITY, &q->gy, NULL, err)) != AP_OK ||
        (rc = get_number(o, "goal", "heading", false, -INFINITY, INFINITY, &q->gheading, &q->has_gheading,
                         err)) != AP_OK)
        return rc;

    if ((rc = get_object(root, "", "unit", false, &o, err)) != AP_OK)
        return rc;
    if (o != NULL &&
        ((rc = check_known(o, "unit", ap_keys_unit, err)) != AP_OK ||
         (rc = get_number(o, "unit", "radius", false, 0.0, AP_MAX_UNIT_RADIUS, &q->unit_radius, NULL, err)) !=
             AP_OK ||
         (rc = get_number(o, "unit", "turning_radius", false, 0.0, AP_MAX_TURNING_RADIUS, &q->turning_radius,
                          NULL, err)) != AP_OK ||
         (rc = get_bool(o, "unit", "reverse", &q->reverse, err)) != AP_OK ||
         (rc = get_number(o, "unit", "reverse_penalty", false, 1.0, 100.0, &q->reverse_penalty, NULL, err)) !=
             AP_OK))
        return rc;
    if (o != NULL) {
        long long art = 0;
        bool has_art = false;
        if ((rc = get_integer(o, "unit", "art_directions", false, LLONG_MIN, LLONG_MAX, &art, &has_art, err)) !=
            AP_OK)
            return rc;
        if (has_art && art != 8 && art != 16)
            return fail(err, AP_E_INVALID_REQUEST, "unit.art_directions", "\"unit.art_directions\" must be 8 or 16");
        q->art_directions = (int)art;
    }

    if ((rc = get_object(root, "", "search", false, &o, err)) != AP_OK)
        return rc;
    if (o != NULL) {
        int alg = (int)q->algorithm, smooth = (int)q->smoothing;
        long long conn = q->connectivity;
        bool has_conn = false;
        if ((rc = check_known(o, "search", ap_keys_search, err)) != AP_OK ||
            (rc = get_enum(o, "search", "algorithm", ap_algorithm_names,
                           sizeof ap_algorithm_names / sizeof ap_algorithm_names[0], &alg, err)) != AP_OK ||
            (rc = get_integer(o, "search", "connectivity", false, LLONG_MIN, LLONG_MAX, &conn, &has_conn,
                              err)) != AP_OK ||
            (rc = get_enum(o, "search", "smoothing", ap_smoothing_names,
                           sizeof ap_smoothing_names / sizeof ap_smoothing_names[0], &smooth, err)) != AP_OK)
            return rc;
        long long heads = 8;
        bool has_heads = false;
        if ((rc = get_number(o, "search", "turn_penalty", false, 0.0, 100.0, &q->turn_penalty, NULL, err)) != AP_OK ||
            (rc = get_integer(o, "search", "headings", false, LLONG_MIN, LLONG_MAX, &heads, &has_heads, err)) !=
                AP_OK)
            return rc;
        if (has_heads && heads != 8 && heads != 16)
            return fail(err, AP_E_INVALID_REQUEST, "search.headings", "\"search.headings\" must be 8 or 16");
        q->headings = (int)heads;
        if (has_conn && conn != 4 && conn != 8)
            return fail(err, AP_E_INVALID_REQUEST, "search.connectivity", "\"search.connectivity\" must be 4 or 8");
        q->algorithm = (ap_algorithm)alg;
        q->smoothing = (ap_smoothing)smooth;
        q->connectivity = (int)conn;
    }

    long long dl = -1;
    if ((rc = get_integer(root, "", "deadline_ms", false, 1, AP_WIRE_MAX_DEADLINE_MS, &dl, NULL, err)) != AP_OK)
        return rc;
    req->deadline_ms = dl;

    if ((rc = get_object(root, "", "samples", false, &o, err)) != AP_OK)
        return rc;
    if (o != NULL &&
        ((rc = check_known(o, "samples", ap_keys_samples, err)) != AP_OK ||
         (rc = get_number(o, "samples", "step", true, AP_MIN_SAMPLE_STEP, INFINITY, &q->sample_step, NULL,
                          err)) != AP_OK))
        return rc;
    return AP_OK;
}

int ap_wire_parse_path_request(const char *body, size_t len, ap_path_request *req, ap_wire_error *err)
{
    memset(req, 0, sizeof *req);
    req->q.map = NULL;
    req->q.has_sheading = false;
    req->q.unit_radius = 0.0;
    req->q.turning_radius = 0.0;
    req->q.algorithm = AP_ALG_AUTO;
    req->q.connectivity = 8;
    req->q.smoothing = AP_SMOOTH_LOS;
    req->q.sample_step = 0.0;
    req->q.max_samples = 0;
    req->deadline_ms = -1;
    memset(err, 0, sizeof *err);
    err->status = AP_OK;

    if (body == NULL || len == 0) {
        err->line = 1;
        err->col = 1;
        return fail(err, AP_E_INVALID_JSON, "", "invalid JSON at line 1, column 1: the request body is empty");
    }

    json_error_t jerr;
    /* JSON_DECODE_ANY so that a scalar body ("42") is reported as "not an object" (invalid_request) like an
     * array is, rather than as a syntax error. */
    json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (root == NULL) {
        /* jansson reports the column of the last character it read, 0 at the very start of a line; clients
         * count from 1. */
        err->line = jerr.line > 0 ? jerr.line : 1;
        err->col = jerr.column > 0 ? jerr.column : 1;
        return fail(err, AP_E_INVALID_JSON, "", "invalid JSON at line %d, column %d: %s", err->line, err->col,
                    jerr.text);
    }
    int rc;
    if (!json_is_object(root))
        rc = fail(err, AP_E_INVALID_REQUEST, "", "the request body must be a JSON object");
    else
        rc = parse_body(root, req, err);
    json_decref(root);
    return rc;
}

/* ---------------------------------------------------------------------------------------------------------
 * POST /v1/paths (batch). Each query goes through parse_body, the very validator of /v1/path, on a shallow
 * copy of the element with the batch's "map" added, so the two endpoints can never disagree about a field
 * (and a field added to /v1/path is accepted in batches at once). */

static const char *const ap_keys_batch[] = {"map", "queries", "deadline_ms", NULL};

static int parse_batch_item(json_t *elem, json_t *map, ap_batch_item *it)
{
    ap_path_request pr;
    memset(&pr, 0, sizeof pr);
    pr.q.algorithm = AP_ALG_AUTO;
    pr.q.connectivity = 8;
    pr.q.smoothing = AP_SMOOTH_LOS;
    pr.deadline_ms = -1;
    memset(&it->err, 0, sizeof it->err);
    if (!json_is_object(elem))
        return fail(&it->err, AP_E_INVALID_REQUEST, "", "each query must be a JSON object");
    /* "map" and "deadline_ms" belong to the batch; parse_body would accept them, so refuse them here. */
    if (json_object_get(elem, "map") != NULL)
        return fail(&it->err, AP_E_INVALID_REQUEST, "map", "unknown field \"map\" (the batch names the map)");
    if (json_object_get(elem, "deadline_ms") != NULL)
        return fail(&it->err, AP_E_INVALID_REQUEST, "deadline_ms",
                    "unknown field \"deadline_ms\" (the batch has one deadline)");
    json_t *copy = json_copy(elem);
    if (copy == NULL || json_object_set(copy, "map", map) != 0) {
        json_decref(copy);
        return fail(&it->err, AP_E_NOMEM, "", "out of memory");
    }
    int rc = parse_body(copy, &pr, &it->err);
    json_decref(copy);
    if (rc == AP_OK)
        it->q = pr.q;
    return rc;
}

int ap_wire_parse_batch_request(const char *body, size_t len, size_t max_items, ap_batch_request *req,
                                ap_wire_error *err)
{
    memset(req, 0, sizeof *req);
    req->deadline_ms = -1;
    memset(err, 0, sizeof *err);
    err->status = AP_OK;
    if (body == NULL || len == 0) {
        err->line = 1;
        err->col = 1;
        return fail(err, AP_E_INVALID_JSON, "", "invalid JSON at line 1, column 1: the request body is empty");
    }
    json_error_t jerr;
    json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (root == NULL) {
        err->line = jerr.line > 0 ? jerr.line : 1;
        err->col = jerr.column > 0 ? jerr.column : 1;
        return fail(err, AP_E_INVALID_JSON, "", "invalid JSON at line %d, column %d: %s", err->line, err->col,
                    jerr.text);
    }
    int rc = AP_OK;
    json_t *map = NULL, *queries = NULL;
    long long dl = -1;
    if (!json_is_object(root))
        rc = fail(err, AP_E_INVALID_REQUEST, "", "the request body must be a JSON object");
    else if ((rc = check_known(root, "", ap_keys_batch, err)) == AP_OK &&
             (rc = get_string(root, "", "map", true, &map, err)) == AP_OK) {
        size_t mlen = json_string_length(map);
        const char *mid = json_string_value(map);
        if (mlen < 1 || mlen >= AP_MAP_ID_MAX || strlen(mid) != mlen)
            rc = fail(err, AP_E_INVALID_REQUEST, "map", "\"map\" must be 1 to %d bytes long", AP_MAP_ID_MAX - 1);
        else
            memcpy(req->map, mid, mlen + 1);
    }
    if (rc == AP_OK) {
        queries = json_object_get(root, "queries");
        if (queries == NULL)
            rc = fail(err, AP_E_INVALID_REQUEST, "queries", "missing required field \"queries\"");
        else if (!json_is_array(queries))
            rc = fail(err, AP_E_INVALID_REQUEST, "queries", "\"queries\" must be an array");
        else if (json_array_size(queries) < 1 || json_array_size(queries) > max_items)
            rc = fail(err, AP_E_INVALID_REQUEST, "queries", "\"queries\" must hold 1 to %zu queries (got %zu)",
                      max_items, json_array_size(queries));
    }
    if (rc == AP_OK &&
        (rc = get_integer(root, "", "deadline_ms", false, 1, AP_WIRE_MAX_DEADLINE_MS, &dl, NULL, err)) == AP_OK)
        req->deadline_ms = dl;
    if (rc == AP_OK) {
        size_t n = json_array_size(queries);
        req->items = calloc(n, sizeof *req->items);
        if (req->items == NULL) {
            rc = fail(err, AP_E_NOMEM, "", "out of memory");
        } else {
            req->n = n;
            for (size_t i = 0; i < n; i++)
                req->items[i].status = parse_batch_item(json_array_get(queries, i), map, &req->items[i]);
        }
    }
    json_decref(root);
    if (rc != AP_OK) {
        free(req->items);
        req->items = NULL;
        req->n = 0;
    }
    return rc;
}

void ap_wire_batch_free(ap_batch_request *req)
{
    if (req == NULL)
        return;
    free(req->items);
    req->items = NULL;
    req->n = 0;
}

/* ---------------------------------------------------------------------------------------------------------
 * Encoding. The /v1/path and /v1/paths answers and error bodies are written straight into a buffer
 * (ap_jbuf) by a small JSON writer: building a jansson tree and dumping it cost about 7 µs and a dozen
 * mallocs per short answer, as much as the search itself. The writer produces exactly what jansson's
 * compact, insertion-ordered dump with JSON_REAL_PRECISION(17) produced (same escaping, same number
 * text), so clients and tests see identical bytes. Map info (cold routes) still goes through jansson. */

static json_int_t clamp_u64(uint64_t v)
{
    /* json_int_t is long long (JSON_INTEGER_IS_LONG_LONG) on every platform we build for. */
    return v > (uint64_t)LLONG_MAX ? LLONG_MAX : (json_int_t)v;
}

void ap_jbuf_init(ap_jbuf *b, char *storage, size_t cap)
{
    b->p = storage;
    b->cap = storage != NULL ? cap : 0;
    b->len = 0;
    b->heap = false;
    b->failed = false;
    b->bad_number = false;
    if (b->cap > 0)
        b->p[0] = '\0';
}

void ap_jbuf_reset(ap_jbuf *b)
{
    b->len = 0;
    b->failed = false;
    b->bad_number = false;
    if (b->cap > 0)
        b->p[0] = '\0';
}

void ap_jbuf_free(ap_jbuf *b)
{
    if (b == NULL)
        return;
    if (b->heap)
        free(b->p);
    ap_jbuf_init(b, NULL, 0);
}

/* Room for n more bytes plus the NUL; moves to (or grows) heap storage when needed. */
static bool jb_reserve(ap_jbuf *b, size_t n)
{
    if (b->failed)
        return false;
    if (b->len + n + 1 <= b->cap)
        return true;
    size_t cap = b->cap >= 512 ? b->cap : 512;
    while (cap < b->len + n + 1)
        cap *= 2;
    char *np = b->heap ? realloc(b->p, cap) : malloc(cap);
    if (np == NULL) {
        b->failed = true;
        return false;
    }
    if (!b->heap && b->len > 0)
        memcpy(np, b->p, b->len);
    b->p = np;
    b->cap = cap;
    b->heap = true;
    return true;
}

static void jb_raw(ap_jbuf *b, const char *s, size_t n)
{
    if (!jb_reserve(b, n))
        return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

#define JB_LIT(b, lit) jb_raw((b), (lit), sizeof(lit) - 1)

/* A JSON string as jansson dumps it: '"' and '\\' escaped, \b \f \n \r \t by name, other control
 * characters as \u00XX, everything else (including '/' and non-ASCII) as is. Invalid UTF-8 becomes '?'
 * (jansson would have refused the string; a '?' keeps the answer well-formed). */
static void jb_str(ap_jbuf *b, const char *s)
{
    const unsigned char *u = (const unsigned char *)(s != NULL ? s : "");
    size_t n = strlen((const char *)u);
    if (!jb_reserve(b, n + 2))
        return;
    b->p[b->len++] = '"';
    size_t i = 0;
    while (i < n) {
        size_t run = i;
        while (run < n && u[run] >= 0x20 && u[run] < 0x80 && u[run] != '"' && u[run] != '\\')
            run++;
        if (run > i) {
            jb_raw(b, (const char *)u + i, run - i);
            i = run;
            continue;
        }
        unsigned char c = u[i];
        if (c >= 0x80) {
            size_t l = utf8_seq_len(u + i, n - i);
            if (l == 0) {
                JB_LIT(b, "?");
                i++;
            } else {
                jb_raw(b, (const char *)u + i, l);
                i += l;
            }
            continue;
        }
        char esc[8];
        switch (c) {
        case '"': jb_raw(b, "\\\"", 2); break;
        case '\\': jb_raw(b, "\\\\", 2); break;
        case '\b': jb_raw(b, "\\b", 2); break;
        case '\f': jb_raw(b, "\\f", 2); break;
        case '\n': jb_raw(b, "\\n", 2); break;
        case '\r': jb_raw(b, "\\r", 2); break;
        case '\t': jb_raw(b, "\\t", 2); break;
        default:
            snprintf(esc, sizeof esc, "\\u%04X", (unsigned)c);
            jb_raw(b, esc, 6);
        }
        i++;
    }
    JB_LIT(b, "\"");
}

static void jb_int(ap_jbuf *b, long long v)
{
    char tmp[24];
    int n = snprintf(tmp, sizeof tmp, "%lld", v);
    jb_raw(b, tmp, (size_t)n);
}

/* A real as jansson's jsonp_dtostr writes it with precision 17: "%.17g", then ".0" appended when the text
 * has neither '.' nor 'e' (so it reads back as a real), then a '+' and leading zeros removed from the
 * exponent. Multiples of 0.5 below 1e15 (cell centres, integral costs) take a shortcut with the same
 * result: %.17g prints them exactly, without an exponent. Non-finite values fail the buffer, as
 * json_real refused them. */
static void jb_real(ap_jbuf *b, double d)
{
    if (!isfinite(d)) {
        b->failed = b->bad_number = true;
        return;
    }
    char tmp[40];
    double twice = d * 2.0;
    if (fabs(d) < 1e15 && twice == floor(twice)) {
        long long t = (long long)fabs(twice);
        int n = snprintf(tmp, sizeof tmp, "%s%lld.%c", signbit(d) ? "-" : "", t / 2, (t & 1) ? '5' : '0');
        jb_raw(b, tmp, (size_t)n);
        return;
    }
    int n = snprintf(tmp, sizeof tmp, "%.17g", d);
    if (n < 0 || (size_t)n >= sizeof tmp - 3) {
        b->failed = true;
        return;
    }
    size_t len = (size_t)n;
    if (strchr(tmp, '.') == NULL && strchr(tmp, 'e') == NULL) {
        tmp[len++] = '.';
        tmp[len++] = '0';
        tmp[len] = '\0';
    }
    char *start = strchr(tmp, 'e');
    if (start != NULL) {
        start++;
        char *end = start + 1;
        if (*start == '-')
            start++;
        while (*end == '0')
            end++;
        if (end != start) {
            memmove(start, end, len - (size_t)(end - tmp) + 1);
            len -= (size_t)(end - start);
        }
    }
    jb_raw(b, tmp, len);
}

static void jb_point(ap_jbuf *b, double x, double y)
{
    JB_LIT(b, "[");
    jb_real(b, x);
    JB_LIT(b, ",");
    jb_real(b, y);
    JB_LIT(b, "]");
}

static void jb_segment(ap_jbuf *b, const ap_segment *s)
{
    if (s->type == AP_SEG_ARC) {
        JB_LIT(b, "{\"type\":\"arc\",\"start\":");
        jb_point(b, s->x0, s->y0);
        JB_LIT(b, ",\"end\":");
        jb_point(b, s->x1, s->y1);
        JB_LIT(b, ",\"center\":");
        jb_point(b, s->cx, s->cy);
        JB_LIT(b, ",\"radius\":");
        jb_real(b, s->radius);
        JB_LIT(b, ",\"start_heading\":");
        jb_real(b, s->heading);
        JB_LIT(b, ",\"sweep\":");
        jb_real(b, s->sweep);
    } else {
        JB_LIT(b, "{\"type\":\"line\",\"start\":");
        jb_point(b, s->x0, s->y0);
        JB_LIT(b, ",\"end\":");
        jb_point(b, s->x1, s->y1);
        JB_LIT(b, ",\"heading\":");
        jb_real(b, s->heading);
    }
    JB_LIT(b, ",\"length\":");
    jb_real(b, s->length);
    if (s->reverse)
        JB_LIT(b, ",\"reverse\":true");
    JB_LIT(b, "}");
}

static void jb_samples(ap_jbuf *b, const ap_result *r, double step)
{
    double chord = 0.0;
    JB_LIT(b, "[");
    for (size_t i = 0; i < r->n_samples && !b->failed; i++) {
        const ap_pose *p = &r->samples[i];
        double d;
        /* The planner samples at 0, step, 2*step, ... and once more at the end, so the distance is
         * implied; recomputing it as i*step (rather than summing) keeps it exact. */
        if (i + 1 == r->n_samples)
            d = r->length;
        else if (step > 0.0)
            d = fmin((double)i * step, r->length);
        else {
            /* No step given: the best we can do is the distance along the chords between samples. */
            if (i > 0)
                chord += hypot(p->x - r->samples[i - 1].x, p->y - r->samples[i - 1].y);
            d = fmin(chord, r->length);
        }
        if (i > 0)
            JB_LIT(b, ",");
        JB_LIT(b, "{\"d\":");
        jb_real(b, d);
        JB_LIT(b, ",\"x\":");
        jb_real(b, p->x);
        JB_LIT(b, ",\"y\":");
        jb_real(b, p->y);
        JB_LIT(b, ",\"heading\":");
        jb_real(b, p->heading);
        JB_LIT(b, "}");
    }
    JB_LIT(b, "]");
}

/* The answer object; map_id NULL leaves "map" out (batch items); item_stats writes the per-item stats
 * ("expanded", "lane", "search_us") instead of the request's. */
static void jb_result(ap_jbuf *b, const char *map_id, const ap_result *r, const ap_path_stats *st, bool item_stats)
{
    JB_LIT(b, "{\"status\":");
    jb_str(b, ap_error_lookup(r->status)->code);
    if (map_id != NULL) {
        JB_LIT(b, ",\"map\":");
        jb_str(b, map_id);
    }
    if (r->status == AP_OK) {
        JB_LIT(b, ",\"grid_cost\":");
        jb_real(b, r->grid_cost);
        JB_LIT(b, ",\"length\":");
        jb_real(b, r->length);
        if (r->clear)
            JB_LIT(b, ",\"clear\":true,\"waypoints\":[");
        else
            JB_LIT(b, ",\"clear\":false,\"waypoints\":[");
        for (size_t i = 0; i < r->n_waypoints; i++) {
            if (i > 0)
                JB_LIT(b, ",");
            jb_point(b, r->waypoints[i][0], r->waypoints[i][1]);
        }
        JB_LIT(b, "],\"segments\":[");
        for (size_t i = 0; i < r->n_segments; i++) {
            if (i > 0)
                JB_LIT(b, ",");
            jb_segment(b, &r->segments[i]);
        }
        JB_LIT(b, "]");
        double step = st ? st->sample_step : 0.0;
        if (r->n_samples > 0 || step > 0.0) {
            JB_LIT(b, ",\"samples\":");
            jb_samples(b, r, step);
        }
    }
    JB_LIT(b, ",\"stats\":{\"expanded\":");
    jb_int(b, clamp_u64(r->expanded));
    if (st != NULL) {
        JB_LIT(b, ",\"lane\":");
        jb_str(b, st->lane ? st->lane : "fast");
        if (!item_stats) {
            JB_LIT(b, ",\"queue_us\":");
            jb_int(b, clamp_u64(st->queue_us));
        }
        JB_LIT(b, ",\"search_us\":");
        jb_int(b, clamp_u64(st->search_us));
    }
    JB_LIT(b, "}}");
}

/* {"code", "message", "field"?, "line"?, "column"?} — the inside of an error body. */
static void jb_error_object(ap_jbuf *b, int status, const char *message, const char *field, int line, int col)
{
    const ap_error_info *info = ap_error_lookup(status);
    JB_LIT(b, "{\"code\":");
    jb_str(b, info->code);
    JB_LIT(b, ",\"message\":");
    jb_str(b, message ? message : info->message);
    if (field != NULL && field[0] != '\0') {
        JB_LIT(b, ",\"field\":");
        jb_str(b, field);
    }
    if (line > 0) {
        JB_LIT(b, ",\"line\":");
        jb_int(b, line);
    }
    if (col > 0) {
        JB_LIT(b, ",\"column\":");
        jb_int(b, col);
    }
    JB_LIT(b, "}");
}

static bool is_answer_status(int status)
{
    return status == AP_OK || status == AP_NO_PATH || status == AP_TIMEOUT;
}

int ap_wire_write_error(ap_jbuf *b, int status, const char *message, const char *field, int line, int col,
                        int *http)
{
    if (http != NULL)
        *http = ap_error_lookup(status)->http;
    JB_LIT(b, "{\"error\":");
    jb_error_object(b, status, message, field, line, col);
    JB_LIT(b, "}");
    return b->failed ? AP_E_NOMEM : AP_OK;
}

int ap_wire_write_path(ap_jbuf *b, const char *map_id, const ap_result *r, const ap_path_stats *st)
{
    if (!is_answer_status(r->status))
        return ap_wire_write_error(b, r->status, NULL, r->field, 0, 0, NULL);
    jb_result(b, map_id ? map_id : "", r, st, false);
    return b->failed ? AP_E_NOMEM : AP_OK;
}

/* A malloc'd copy-out of a writer that ran on no storage (so its bytes already are a heap block). */
static char *jb_take(ap_jbuf *b, size_t *len)
{
    if (b->failed || b->p == NULL) {
        ap_jbuf_free(b);
        return NULL;
    }
    if (len != NULL)
        *len = b->len;
    return b->p; /* heap: ap_jbuf_init(NULL) storage always moves to the heap on the first write */
}

char *ap_wire_encode_path(const char *map_id, const ap_result *r, const ap_path_stats *st, size_t *len)
{
    ap_jbuf b;
    ap_jbuf_init(&b, NULL, 0);
    ap_wire_write_path(&b, map_id, r, st);
    return jb_take(&b, len);
}

char *ap_wire_encode_error(int status, const char *message, const char *field, int line, int col, int *http,
                           size_t *len)
{
    ap_jbuf b;
    ap_jbuf_init(&b, NULL, 0);
    ap_wire_write_error(&b, status, message, field, line, col, http);
    return jb_take(&b, len);
}

int ap_wire_write_batch_begin(ap_jbuf *b, const char *map_id)
{
    JB_LIT(b, "{\"status\":\"ok\",\"map\":");
    jb_str(b, map_id);
    JB_LIT(b, ",\"results\":[");
    return b->failed ? AP_E_NOMEM : AP_OK;
}

int ap_wire_write_batch_item_error(ap_jbuf *b, bool first, int status, const char *message, const char *field)
{
    if (!first)
        JB_LIT(b, ",");
    JB_LIT(b, "{\"status\":\"error\",\"error\":");
    jb_error_object(b, status, message, field, 0, 0);
    JB_LIT(b, "}");
    return b->failed ? AP_E_NOMEM : AP_OK;
}

static void jb_error_object_item(ap_jbuf *b, int status)
{
    JB_LIT(b, "{\"status\":\"error\",\"error\":");
    jb_error_object(b, status, NULL, NULL, 0, 0);
    JB_LIT(b, "}");
}

int ap_wire_write_batch_item(ap_jbuf *b, bool first, const ap_result *r, const ap_path_stats *st)
{
    if (!is_answer_status(r->status))
        return ap_wire_write_batch_item_error(b, first, r->status, NULL, r->field);
    if (!first)
        JB_LIT(b, ",");
    /* A non-finite number (a planner bug) must not poison the whole batch: that item alone becomes an
     * internal error. */
    size_t mark = b->len;
    jb_result(b, NULL, r, st, true);
    if (b->failed && b->bad_number) {
        b->len = mark;
        b->p[b->len] = '\0';
        b->failed = b->bad_number = false;
        jb_error_object_item(b, AP_E_INTERNAL);
    }
    return b->failed ? AP_E_NOMEM : AP_OK;
}

int ap_wire_write_batch_end(ap_jbuf *b, uint64_t expanded, const ap_path_stats *st)
{
    JB_LIT(b, "],\"stats\":{\"expanded\":");
    jb_int(b, clamp_u64(expanded));
    if (st != NULL) {
        JB_LIT(b, ",\"lane\":");
        jb_str(b, st->lane ? st->lane : "fast");
        JB_LIT(b, ",\"queue_us\":");
        jb_int(b, clamp_u64(st->queue_us));
        JB_LIT(b, ",\"search_us\":");
        jb_int(b, clamp_u64(st->search_us));
    }
    JB_LIT(b, "}}");
    return b->failed ? AP_E_NOMEM : AP_OK;
}

/* jansson helpers for the cold map-info routes. */

/* Add members; on any failure the object is freed and NULL returned. Values are stolen either way. */
static json_t *set(json_t *obj, const char *key, json_t *value)
{
    if (obj == NULL) {
        json_decref(value);
        return NULL;
    }
    if (json_object_set_new(obj, key, value) != 0) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static char *dump(json_t *root, size_t *len)
{
    if (root == NULL)
        return NULL;
    char *s = json_dumps(root, AP_WIRE_DUMP_FLAGS);
    json_decref(root);
    if (s != NULL && len != NULL)
        *len = strlen(s);
    return s;
}

static json_t *map_json(const ap_map *m)
{
    char id[AP_MAP_ID_MAX];
    utf8_copy(id, sizeof id, m->id);
    json_t *t = json_object();
    t = set(t, "name", json_string("region"));
    t = set(t, "bytes", json_integer((json_int_t)m->table_bytes));
    t = set(t, "build_ms", json_real(m->tables_seconds * 1000.0));
    t = set(t, "regions", json_integer((json_int_t)m->region_count));
    json_t *tables = json_array();
    if (tables != NULL && json_array_append_new(tables, t) != 0) {
        json_decref(tables);
        tables = NULL;
    }
    /* The tables other planner modules keep in the map's slots (e.g. "jps_plus"): name, bytes, build_ms. */
    for (int i = 0; i < m->n_tables && tables != NULL; i++) {
        json_t *x = json_object();
        x = set(x, "name", json_string(m->tables[i].name));
        x = set(x, "bytes", json_integer((json_int_t)m->tables[i].bytes));
        x = set(x, "build_ms", json_real(m->tables[i].build_seconds * 1000.0));
        if (json_array_append_new(tables, x) != 0) {
            json_decref(tables);
            tables = NULL;
        }
    }
    json_t *o = json_object();
    o = set(o, "id", json_string(id));
    o = set(o, "width", json_integer(m->width));
    o = set(o, "height", json_integer(m->height));
    o = set(o, "passable_cells", json_integer(m->passable_cells));
    o = set(o, "load_ms", json_real(m->load_seconds * 1000.0));
    o = set(o, "tables", tables);
    return o;
}

char *ap_wire_encode_map(const ap_map *m, size_t *len)
{
    return dump(map_json(m), len);
}

char *ap_wire_encode_maps(const ap_map *const *maps, size_t n, size_t *len)
{
    json_t *a = json_array();
    for (size_t i = 0; a != NULL && i < n; i++) {
        if (json_array_append_new(a, map_json(maps[i])) != 0) {
            json_decref(a);
            a = NULL;
        }
    }
    return dump(set(json_object(), "maps", a), len);
}
