/* json_in.c — strict reading of JSON request bodies (see json_in.h).
 *
 * Validation is strict on purpose: unknown fields, wrong types and out-of-range values are rejected with
 * the dotted path of the field rather than ignored, so a client typo ("serach") never silently falls back
 * to defaults.
 */
#include "json_in.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "utf8.h"

void ap_json_reader_init(ap_json_reader *r, ap_wire_error *err, unsigned style)
{
    memset(err, 0, sizeof *err);
    err->status = AP_OK;
    r->err = err;
    r->style = style;
}

int ap_json_fail(ap_wire_error *err, int status, const char *field, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    err->status = status;
    /* Messages and fields end up in JSON strings: a name cut inside a multi-byte character, or a jansson
     * diagnostic quoting invalid input bytes, must not make the error itself unencodable. */
    ap_utf8_copy(err->message, sizeof err->message, tmp);
    ap_utf8_copy(err->field, sizeof err->field, field ? field : "");
    return status;
}

/* Append the C string s at out[*n], keeping room for the NUL (cut like snprintf). */
static void append(char *out, size_t size, size_t *n, const char *s)
{
    size_t len = strlen(s);
    if (len > size - 1 - *n)
        len = size - 1 - *n;
    memcpy(out + *n, s, len);
    *n += len;
}

void ap_json_prefix_message(char *out, size_t size, const char *msg, const char *prefix, const char *field)
{
    if (size == 0)
        return;
    char needle[AP_JSON_PATH_MAX + 2];
    const char *at = NULL;
    if (prefix != NULL && prefix[0] != '\0' && field != NULL && field[0] != '\0' &&
        (size_t)snprintf(needle, sizeof needle, "\"%s\"", field) < sizeof needle)
        at = strstr(msg, needle);
    if (at == NULL)
        snprintf(out, size, "%s", msg);
    else
        snprintf(out, size, "%.*s\"%s%s", (int)(at - msg), msg, prefix, at + 1);
}

void ap_json_prefix_error(char *field_out, size_t fsize, char *msg_out, size_t msize, const char *msg,
                          const char *prefix, const char *field)
{
    if (fsize > 0)
        snprintf(field_out, fsize, "%s%s", field != NULL && field[0] != '\0' && prefix != NULL ? prefix : "",
                 field != NULL ? field : "");
    ap_json_prefix_message(msg_out, msize, msg, prefix, field);
}

/* Built for every member read, error or not: plain copies, as snprintf cost more than the lookup. */
void ap_json_join_path(char *out, size_t size, const char *prefix, const char *key)
{
    if (size == 0)
        return;
    size_t n = 0;
    if (prefix[0] != '\0') {
        append(out, size, &n, prefix);
        append(out, size, &n, ".");
    }
    append(out, size, &n, key);
    out[n] = '\0';
}

int ap_json_load_object(const ap_json_reader *r, const char *body, size_t len, json_t **root)
{
    ap_wire_error *err = r->err;
    *root = NULL;
    if (body == NULL || len == 0) {
        err->line = 1;
        err->col = 1;
        return ap_json_fail(err, AP_E_INVALID_JSON, "", "invalid JSON at line 1, column 1: the %s is empty",
                            r->style & AP_JSON_MAP_FILE ? "map file" : "request body");
    }
    json_error_t jerr;
    /* JSON_DECODE_ANY so that a scalar body ("42") is reported as "not an object" (invalid_request) like an
     * array is, rather than as a syntax error. */
    json_t *v = json_loadb(body, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (v == NULL) {
        /* jansson reports the column of the last character it read, 0 at the very start of a line; clients
         * count from 1. */
        err->line = jerr.line > 0 ? jerr.line : 1;
        err->col = jerr.column > 0 ? jerr.column : 1;
        if (r->style & AP_JSON_POSITIONS_ONLY)
            return ap_json_fail(err, AP_E_INVALID_JSON, "", "invalid JSON at line %d, column %d", err->line, err->col);
        /* (jansson's text for a \u0000 names its own decoding flag, which means nothing to a client) */
        const char *why = strstr(jerr.text, "JSON_ALLOW_NUL") != NULL ? "\\u0000 (NUL) in a string is not accepted"
                                                                      : jerr.text;
        return ap_json_fail(err, AP_E_INVALID_JSON, "", "invalid JSON at line %d, column %d: %s", err->line,
                            err->col, why);
    }
    if (!json_is_object(v)) {
        json_decref(v);
        return ap_json_fail(err, AP_E_INVALID_REQUEST, "", "the %s must be a JSON object",
                            r->style & AP_JSON_MAP_FILE ? "map file" : "request body");
    }
    *root = v;
    return AP_OK;
}

bool ap_json_values_over(const char *body, size_t len, size_t limit)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        const char c = body[i];
        if (c == '"') { /* skip the string: to the next quote not escaped */
            for (i++; i < len && body[i] != '"'; i++)
                if (body[i] == '\\')
                    i++;
        } else if ((c == '[' || c == '{' || c == ',') && ++n > limit) {
            return true;
        }
    }
    return false;
}

static bool printable_ascii(const char *s)
{
    for (; *s; s++)
        if (!(*s >= 0x20 && *s < 0x7f))
            return false;
    return true;
}

int ap_json_check_known(const ap_json_reader *r, json_t *obj, const char *prefix, const char *const *allowed)
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
        if (known)
            continue;
        char path[512];
        size_t size = sizeof path;
        if (r->style & AP_JSON_PLAIN_KEY_NAMES) {
            if (!printable_ascii(key))
                key = "?";
            size = sizeof r->err->field;
        }
        ap_json_join_path(path, size, prefix, key);
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path, "unknown field \"%s\"", path);
    }
    return AP_OK;
}

/* path (AP_JSON_PATH_MAX bytes) filled with prefix.key, returned: the getters below join a member's path only
 * for an error message, as most requests have none. */
static const char *path_of(char *path, const char *prefix, const char *key)
{
    ap_json_join_path(path, AP_JSON_PATH_MAX, prefix, key);
    return path;
}

/* ap_json_member without the path: *out the member, or NULL; a missing required member fails. */
static int lookup(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, bool required,
                  json_t **out)
{
    *out = json_object_get(obj, key);
    if (*out == NULL && required) {
        char path[AP_JSON_PATH_MAX];
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path_of(path, prefix, key), "missing required field \"%s\"",
                            path);
    }
    return AP_OK;
}

int ap_json_member(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, bool required,
                   json_t **out, char *path, size_t pathsize)
{
    ap_json_join_path(path, pathsize, prefix, key);
    return lookup(r, obj, prefix, key, required, out);
}

/* The checks of ap_json_get_number on the member's value v (not NULL). */
static int number_value(const ap_json_reader *r, json_t *v, const char *prefix, const char *key, double lo, double hi,
                        double *out)
{
    char path[AP_JSON_PATH_MAX];
    if (!json_is_number(v))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path_of(path, prefix, key),
                            (r->style & AP_JSON_FINITE_TYPE_MESSAGE) ? "\"%s\" must be a finite number"
                                                                     : "\"%s\" must be a number",
                            path);
    double d = json_number_value(v);
    /* jansson's parser already refuses NaN/Infinity and overflowing literals; this guards the contract
     * should the decoder ever change. */
    if (!isfinite(d))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path_of(path, prefix, key), "\"%s\" must be a finite number",
                            path);
    if (d < lo || d > hi) {
        if (isinf(hi))
            return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path_of(path, prefix, key), "\"%s\" must be at least %g",
                                path, lo);
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path_of(path, prefix, key),
                            "\"%s\" must be between %g and %g", path, lo, hi);
    }
    *out = d;
    return AP_OK;
}

int ap_json_get_number(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, bool required,
                       double lo, double hi, double *out, bool *present)
{
    json_t *v;
    int rc = lookup(r, obj, prefix, key, required, &v);
    if (present)
        *present = v != NULL;
    if (rc != AP_OK || v == NULL)
        return rc;
    return number_value(r, v, prefix, key, lo, hi, out);
}

int ap_json_get_integer(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, bool required,
                        long long lo, long long hi, long long *out, bool *present)
{
    char path[AP_JSON_PATH_MAX];
    json_t *v;
    int rc = lookup(r, obj, prefix, key, required, &v);
    if (present)
        *present = v != NULL;
    if (rc != AP_OK || v == NULL)
        return rc;
    /* A real with an integral value (2.0, 1e9) is an integer too, as JSON Schema's "integer" says (the
     * OpenAPI document's types): a client's encoder may write 2.0 for 2. */
    const double d = json_is_real(v) ? json_real_value(v) : 0.0;
    if (!json_is_integer(v) && !(json_is_real(v) && d == floor(d)))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path_of(path, prefix, key), "\"%s\" must be an integer",
                            path);
    /* (an integral real beyond 2^63, 1e19, is an integer out of range, not "not an integer") */
    const bool beyond = json_is_real(v) && !(fabs(d) < 0x1p63);
    json_int_t i = json_is_integer(v) ? json_integer_value(v) : beyond ? 0 : (json_int_t)d;
    if (beyond || i < lo || i > hi)
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path_of(path, prefix, key),
                            "\"%s\" must be between %lld and %lld", path, lo, hi);
    *out = i;
    return AP_OK;
}

int ap_json_get_bool(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, bool *out)
{
    char path[AP_JSON_PATH_MAX];
    json_t *v;
    int rc = lookup(r, obj, prefix, key, false, &v);
    if (rc != AP_OK || v == NULL)
        return rc;
    if (!json_is_boolean(v))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path_of(path, prefix, key), "\"%s\" must be true or false",
                            path);
    *out = json_is_true(v);
    return AP_OK;
}

/* A member whose JSON type must be type (what names it in the message); *out NULL when absent. */
static int get_typed(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, bool required,
                     json_type type, const char *what, json_t **out)
{
    char path[AP_JSON_PATH_MAX];
    int rc = lookup(r, obj, prefix, key, required, out);
    if (rc != AP_OK || *out == NULL)
        return rc;
    if (json_typeof(*out) != type)
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path_of(path, prefix, key), "\"%s\" must be %s", path, what);
    return AP_OK;
}

int ap_json_get_object(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, bool required,
                       json_t **out)
{
    return get_typed(r, obj, prefix, key, required, JSON_OBJECT, "an object", out);
}

int ap_json_get_string(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, bool required,
                       json_t **out)
{
    return get_typed(r, obj, prefix, key, required, JSON_STRING, "a string", out);
}

int ap_json_get_enum(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key,
                     const ap_json_enum *names, size_t n, int *out)
{
    char path[AP_JSON_PATH_MAX];
    json_t *v;
    int rc = lookup(r, obj, prefix, key, false, &v);
    if (rc != AP_OK || v == NULL)
        return rc;
    if (!json_is_string(v) && !(r->style & AP_JSON_ENUM_TYPE_MESSAGE))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path_of(path, prefix, key), "\"%s\" must be a string", path);
    const char *s = json_string_value(v); /* NULL for a non-string */
    for (size_t i = 0; s != NULL && i < n; i++) {
        if (strcmp(names[i].name, s) == 0) {
            *out = names[i].value;
            return AP_OK;
        }
    }
    char list[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < n && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", names[i].name);
    return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path_of(path, prefix, key), "\"%s\" must be one of: %s", path,
                        list);
}

static const char *const ap_json_keys_pose[] = {"x", "y", "heading", NULL};

int ap_json_get_pose(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, double *x,
                     double *y, double *heading, bool *has_heading)
{
    return ap_json_get_pose_speed(r, obj, prefix, key, x, y, heading, has_heading, NULL, NULL);
}

int ap_json_get_pose_speed(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, double *x,
                           double *y, double *heading, bool *has_heading, double *speed, bool *has_speed)
{
    static const char *const keys_speed[] = {"x", "y", "heading", "speed", NULL};
    char path[AP_JSON_PATH_MAX];
    json_t *o;
    int rc;
    ap_json_join_path(path, sizeof path, prefix, key);
    /* The message shows the shape (a pose given as [x, y] is the usual first mistake); "?" marks the
     * optional members. */
    char shape[96];
    snprintf(shape, sizeof shape, "an object {\"x\", \"y\", \"heading\"%s%s} (tiles, radians%s)",
             has_heading != NULL ? "?" : "", speed != NULL ? ", \"speed\"?" : "", speed != NULL ? ", m/s" : "");
    if ((rc = get_typed(r, obj, prefix, key, true, JSON_OBJECT, shape, &o)) != AP_OK ||
        (rc = ap_json_check_known(r, o, path, speed != NULL ? keys_speed : ap_json_keys_pose)) != AP_OK)
        return rc;
    json_t *vx, *vy;
    if (has_heading != NULL && json_object_size(o) == 2 && (vx = json_object_get(o, "x")) != NULL &&
        (vy = json_object_get(o, "y")) != NULL) {
        /* Just x and y (most poses): speed and heading are absent, so only x's and then y's checks can fail,
         * as in the full sequence below. */
        if (speed != NULL && has_speed != NULL)
            *has_speed = false;
        *has_heading = false;
        if ((rc = number_value(r, vx, path, "x", -INFINITY, INFINITY, x)) != AP_OK)
            return rc;
        return number_value(r, vy, path, "y", -INFINITY, INFINITY, y);
    }
    if ((speed != NULL &&
         (rc = ap_json_get_number(r, o, path, "speed", false, -INFINITY, INFINITY, speed, has_speed)) != AP_OK) ||
        (rc = ap_json_get_number(r, o, path, "x", true, -INFINITY, INFINITY, x, NULL)) != AP_OK ||
        (rc = ap_json_get_number(r, o, path, "y", true, -INFINITY, INFINITY, y, NULL)) != AP_OK ||
        (rc = ap_json_get_number(r, o, path, "heading", has_heading == NULL, -INFINITY, INFINITY, heading,
                                 has_heading)) != AP_OK)
        return rc;
    return AP_OK;
}
