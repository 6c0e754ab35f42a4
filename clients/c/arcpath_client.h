/* arcpath_client.h — a small C client for arcpath's POST /v1/path (libcurl + jansson).
 *
 * One ap_client holds one libcurl easy handle (its keep-alive connection is reused between calls). An
 * answer is returned parsed (jansson) with its main figures copied out; an error carries the HTTP status
 * and the wire error's code, message and field (README "Errors"). A 503 that carries Retry-After (the
 * server's `overloaded`) is retried after the advertised delay, at most `max_attempts` tries in all and at
 * most `max_wait_s` seconds per wait (both bounded, see ap_client_set_retries).
 *
 * Thread safety: an ap_client is used by one thread at a time (give each thread its own). Call
 * ap_client_init first from one thread while no other thread uses libcurl: it runs curl_global_init.
 */
#ifndef ARCPATH_CLIENT_H
#define ARCPATH_CLIENT_H

#include <jansson.h>
#include <stddef.h>

typedef struct ap_client ap_client;

/* What a call returned. */
typedef enum {
    AP_CLIENT_OK = 0,        /* HTTP 200: the answer is filled in (its status may be ok, no_path or timeout) */
    AP_CLIENT_E_HTTP,        /* an HTTP error status: error->code/message/field hold the wire error */
    AP_CLIENT_E_TRANSPORT,   /* no answer (connection refused, timeout, ...): error->code "transport" */
    AP_CLIENT_E_ANSWER,      /* an answer that is not arcpath's JSON: error->code "bad_answer" */
    AP_CLIENT_E_ARGUMENT     /* a NULL or unusable argument, or out of memory: error->code "argument" */
} ap_client_result;

/* An error as the server (or the client, for the codes "transport", "bad_answer", "argument") gave it.
 * Strings are NUL-terminated and cut to their buffer; field is "" when the error names no field. */
typedef struct {
    long http_status;   /* HTTP status of the last attempt; 0 when no answer arrived */
    char code[64];      /* stable wire code, e.g. "unknown_map", "invalid_request", "overloaded" */
    char message[512];  /* human-readable, says why */
    char field[128];    /* dotted path of the offending request field, e.g. "map", "start.x" */
    int attempts;       /* requests sent (1 + the 503 retries) */
} ap_client_error;

/* A parsed 200 answer of POST /v1/path. `json` is the whole answer (owned: free with
 * ap_client_answer_free); `status` points into it. Figures absent from the answer (no_path, timeout)
 * are NaN, `clear` is -1 then. */
typedef struct {
    json_t *json;
    const char *status;    /* "ok", "no_path" or "timeout" */
    double length;         /* tiles: the sum of the segment lengths */
    double grid_cost;      /* tiles: the grid path cost before smoothing */
    int clear;             /* 1 true, 0 false, -1 absent */
    size_t segment_count;  /* json's "segments" array size (0 when absent) */
} ap_client_answer;

/* A start or goal: x = column, y = row (tiles); heading in radians from +x toward +y, sent only when
 * has_heading is non-zero. */
typedef struct {
    double x, y, heading;
    int has_heading;
} ap_client_pose;

/* The unit: disc radius and turning radius in tiles (0 and 0: a point turning on the spot). */
typedef struct {
    double radius, turning_radius;
} ap_client_unit;

/* Make a client for the server at base_url ("http://127.0.0.1:8080", no trailing path needed; a trailing
 * '/' is dropped). timeout_ms bounds each request (connect + answer; > 0, else 10000). Retries default to
 * 3 attempts and 10 s per wait. Returns NULL when base_url is NULL or empty or memory/libcurl fail.
 * The caller owns the client (ap_client_free). Runs curl_global_init (see the thread-safety note above). */
ap_client *ap_client_init(const char *base_url, long timeout_ms);

/* Bound the 503 retries: at most max_attempts requests per call (1 … 10, clamped) and at most max_wait_s
 * seconds of sleep per wait (0 … 60, clamped; the server asks for 1). */
void ap_client_set_retries(ap_client *client, int max_attempts, int max_wait_s);

/* Free the client and its connection; NULL is ignored. */
void ap_client_free(ap_client *client);

/* POST json_request (a complete /v1/path body, as text) and parse the answer.
 * On AP_CLIENT_OK *answer is filled (the caller frees it with ap_client_answer_free); otherwise *answer is
 * zeroed (json NULL) and *error says why. error may be NULL when the caller needs no details; it is
 * always filled with http_status and attempts when given. */
ap_client_result ap_client_path(ap_client *client, const char *json_request, ap_client_answer *answer,
                                ap_client_error *error);

/* The main query as typed arguments: {"map", "start", "goal"[, "unit"]}, all else the server's defaults.
 * unit may be NULL (a point unit). Results as ap_client_path. */
ap_client_result ap_client_path_query(ap_client *client, const char *map, ap_client_pose start,
                                      ap_client_pose goal, const ap_client_unit *unit,
                                      ap_client_answer *answer, ap_client_error *error);

/* Release an answer's JSON and zero it; safe on a zeroed answer. */
void ap_client_answer_free(ap_client_answer *answer);

#endif
