/* json_in.h — strict reading of JSON request bodies (jansson), shared by every request schema.
 *
 * The rules every endpoint follows: the body must be one JSON object (duplicate keys are a syntax error);
 * each object is checked for unknown keys first, then its fields in schema order, so the first problem
 * reported is deterministic; a problem is recorded once, in an ap_wire_error, with the field as a dotted
 * path ("search.connectivity"); JSON null is a wrong type, never "absent".
 *
 * Usage: ap_json_reader_init, ap_json_load_object, then the ap_json_get_* getters on the root and its
 * members, each returning AP_OK or the status it recorded (so calls chain with `||`), and json_decref(root).
 *
 * Thread safety: no shared state; a reader and its objects belong to one thread at a time. Nothing here
 * allocates except jansson's tree, owned by the caller of ap_json_load_object.
 */
#ifndef AP_PROTO_JSON_IN_H
#define AP_PROTO_JSON_IN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "errors.h"

/* Wording flags. /v1/path and /v1/paths use none (style 0). /v1/curve was written with a more guarded
 * wording and keeps it (byte-identical answers), so it sets all four; each flag says what it changes. */
enum {
    /* ap_json_load_object: an invalid_json message gives line and column only, not jansson's text (which may
     * quote the client's bytes). */
    AP_JSON_POSITIONS_ONLY = 1u << 0,
    /* ap_json_check_known: an unknown key that is not all printable ASCII is named "?", and the dotted path
     * is cut at 63 bytes in the message as well as in the field. */
    AP_JSON_PLAIN_KEY_NAMES = 1u << 1,
    /* ap_json_get_number: a value that is not a number says "must be a finite number" (not "a number"). */
    AP_JSON_FINITE_TYPE_MESSAGE = 1u << 2,
    /* ap_json_get_enum: a value that is not a string says "must be one of: ..." (not "a string"). */
    AP_JSON_ENUM_TYPE_MESSAGE = 1u << 3,
    /* ap_json_load_object: the document is a map file (a circle map, from the folder or a PUT), so an empty
     * or non-object one is "the map file", not "the request body". */
    AP_JSON_MAP_FILE = 1u << 4,
};

/* Room for a member's dotted path; a longer one is cut (the error field keeps 63 bytes anyway). */
#define AP_JSON_PATH_MAX 128

/* One parse: where the first problem goes, and the wording flags. */
typedef struct ap_json_reader {
    ap_wire_error *err; /* borrowed; receives the first problem */
    unsigned style;     /* AP_JSON_* flags; 0 = the /v1/path wording */
} ap_json_reader;

/* A string enum's wire names: one row per accepted name. */
typedef struct ap_json_enum {
    const char *name;
    int value;
} ap_json_enum;

/* Start a parse: r records into err (borrowed, must outlive r), which is cleared (status AP_OK, empty
 * message and field, line and column 0); style is a set of AP_JSON_* flags. Cannot fail. */
void ap_json_reader_init(ap_json_reader *r, ap_wire_error *err, unsigned style);

/* Record an error in err: status, the printf-formatted message and field (NULL = ""), both copied as valid
 * UTF-8 (invalid bytes become '?', cut at a character boundary to fit). line and col are left as they are.
 * Returns status, so callers can `return ap_json_fail(...)`. */
__attribute__((format(printf, 4, 5))) int ap_json_fail(ap_wire_error *err, int status, const char *field,
                                                       const char *fmt, ...);

/* Write the dotted path of key inside the object at prefix ("" = the body itself) to out (size bytes,
 * always NUL-terminated; a long path is cut). */
void ap_json_join_path(char *out, size_t size, const char *prefix, const char *key);

/* Copy msg to out (size bytes, always NUL-terminated; cut to fit) with its first quoted mention of field
 * ("\"start\"") named under prefix ("query.": "\"query.start\""), so the message of a request nested in
 * another names the field as its error's field does; msg unchanged where it quotes no field (or prefix or
 * field is NULL or empty). Pure. */
void ap_json_prefix_message(char *out, size_t size, const char *msg, const char *prefix, const char *field);

/* An error of a request nested under prefix ("query.", "queries[3]."; NULL or "" for none) as its answer
 * names it: *field_out (fsize bytes) the field under prefix ("" when field is NULL or empty), *msg_out (msize
 * bytes) msg with its mention of field under prefix (ap_json_prefix_message). Both always NUL-terminated, cut
 * to fit. Pure. */
void ap_json_prefix_error(char *field_out, size_t fsize, char *msg_out, size_t msize, const char *msg,
                          const char *prefix, const char *field);

/* Decode a request body of len bytes (need not be NUL-terminated; body may be NULL when len is 0) that must
 * be a JSON object. On AP_OK *root is the object (the caller owns it: json_decref). Errors (*root NULL): an
 * empty body, malformed JSON or a duplicate key is AP_E_INVALID_JSON with err->line and err->col (1-based:
 * jansson's column of the last character read, 1 at the start of a line) and a message "invalid JSON at line
 * L, column C: <jansson's text>" (": ..." left out under AP_JSON_POSITIONS_ONLY; "the request body is empty"
 * for an empty body); any other JSON value (array, scalar) is AP_E_INVALID_REQUEST, field "". */
int ap_json_load_object(const ap_json_reader *r, const char *body, size_t len, json_t **root);

/* Whether a JSON text of len bytes holds more than `limit` of the bytes '[', '{' and ',' outside its strings,
 * read without parsing it (strings skipped with their escapes; malformed text is only counted). Each such
 * byte opens a value or comes before one, so a document of V values holds at most 2 V - 1 of them: a route
 * whose valid bodies hold at most V values refuses one over 2 V before jansson builds its tree (some
 * 140 bytes a value: 5.6 M empty arrays in a 16 MiB PATCH took 0.8 GB and a second). Stops counting at
 * limit + 1. Pure; thread-safe. */
bool ap_json_values_over(const char *body, size_t len, size_t limit);

/* Reject the first key of the object obj (at the dotted path prefix) that is not in allowed (a
 * NULL-terminated list): AP_E_INVALID_REQUEST "unknown field \"prefix.key\"", field the same path. */
int ap_json_check_known(const ap_json_reader *r, json_t *obj, const char *prefix, const char *const *allowed);

/* Look up key in obj: *out is the member (borrowed from obj) or NULL when absent, and path (pathsize bytes)
 * gets its dotted path. An absent required member is AP_E_INVALID_REQUEST "missing required field". The
 * ap_json_get_* getters below build on it: each takes the object, the dotted path of that object (prefix),
 * the key, whether it is required; absent optional members leave *out untouched and return AP_OK; a wrong
 * type or a value out of range is AP_E_INVALID_REQUEST naming the member's dotted path. */
int ap_json_member(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, bool required,
                   json_t **out, char *path, size_t pathsize);

/* A finite number (a JSON integer is accepted as a real) in [lo, hi] (infinite bounds allowed: the message
 * then says "at least lo" or, with both infinite, the range is never checked). *present (if non-NULL) gets
 * whether the member is there, set even when its value is then refused. */
int ap_json_get_number(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, bool required,
                       double lo, double hi, double *out, bool *present);

/* A JSON integer, or a real with an integral value below 2^63 (2.0, 1e9: JSON Schema's "integer", which the
 * OpenAPI document's types are), in [lo, hi]; *present as for ap_json_get_number. */
int ap_json_get_integer(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, bool required,
                        long long lo, long long hi, long long *out, bool *present);

/* An optional true or false. */
int ap_json_get_bool(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, bool *out);

/* An object member; *out (borrowed from obj) is NULL when absent. */
int ap_json_get_object(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, bool required,
                       json_t **out);

/* A string member; *out (borrowed from obj) is NULL when absent. */
int ap_json_get_string(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, bool required,
                       json_t **out);

/* An optional string that must be one of the n names (*out gets its value): otherwise "must be one of: a,
 * b, c" listing the names in table order. */
int ap_json_get_enum(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key,
                     const ap_json_enum *names, size_t n, int *out);

/* A required pose object {"x", "y", "heading"} at key (unknown keys refused; x and y required finite
 * numbers). heading is required when has_heading is NULL, optional otherwise (*has_heading says whether it
 * was given). The outputs are written as each field is read, in that order. Anything but an object is
 * refused with the shape in the message: "\"start\" must be an object {\"x\", \"y\", \"heading\"?} (tiles,
 * radians)" ("heading" without "?" when required). */
int ap_json_get_pose(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, double *x,
                     double *y, double *heading, bool *has_heading);

/* ap_json_get_pose that also accepts an optional "speed" number (any value: the planner judges its range)
 * into *speed, *has_speed saying whether it was given; speed NULL = ap_json_get_pose (speed refused as an
 * unknown key). */
int ap_json_get_pose_speed(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, double *x,
                           double *y, double *heading, bool *has_heading, double *speed, bool *has_speed);

#endif
