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
    long long map_version; /* a 422's map_version (out_of_bounds, start_blocked, goal_blocked: the map
                            * version that refused it); 0 when the error names none */
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
    double duration_s;     /* seconds: the trajectory's duration (kinodynamic answers, and answers with
                              vehicle limits named: README "Speed along any path"); NaN when absent */
    int probe;             /* 1 when the path is the kinodynamic probing search's ("probe": true), 0 when
                              the answer has a path without it, -1 when it has no path (no_path, timeout) */
} ap_client_answer;

/* One segment of an answer, copied out of answer.json by ap_client_answer_segment. Fields a segment does
 * not carry are NaN (center and radius but on arcs; heading but on lines; start_heading and sweep but on
 * arcs and turns; the timing fields but on timed answers). */
typedef struct {
    const char *type;              /* "line", "arc" or "turn" (a turn on the spot at speed 0, length 0);
                                      points into answer.json */
    double start[2], end[2];       /* tiles, x then y; a turn's start == end */
    double center[2], radius;      /* arcs: tiles */
    double heading;                /* lines: radians */
    double start_heading, sweep;   /* arcs and turns: radians; sweep > 0 turns toward +y */
    double length;                 /* tiles (0 for a turn) */
    int reverse;                   /* 1 when driven backwards, else 0 */
    double v_start, v_end;         /* m/s at the segment's ends (constant acceleration in between) */
    double t_start, duration;      /* seconds from the path's start; seconds the segment takes */
} ap_client_segment;

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

/* The typed request of ap_client_path_typed: every /v1/path member of the kinodynamic and timing features
 * (README "POST /v1/path", "Kinodynamic paths", "Speed along any path"; proto/openapi.yaml).
 *
 * "Unset" means "not sent" (the server's default, or the unit kind's, applies): a NaN double, a NULL
 * pointer, a negative integer (long/int counts and the -1/0/1 flags). ap_client_query_init sets every
 * optional member unset; start from it, then set what you need. A zero-filled struct is NOT empty: its
 * zeros would be sent (and most are refused by the server, which names the field).
 * Values are sent as given (the server validates them and answers invalid_request naming the field); a
 * set double that is not finite (±inf) cannot be sent as JSON and is the client's "argument" error naming
 * the field. */
typedef struct {
    const char *kind;          /* a unit kind: built-in "pedestrian", "car", "tank", "ship" or the config's */
    double radius;             /* disc radius, tiles (0 … 16) */
    double turning_radius;     /* tiles (0 … 64) */
    int size;                  /* k: a square unit of k × k cells (1 … 64) */
    const char *const *capability; /* terrain names ("ground", "swamp", "water", "trees"): capability_count */
    size_t capability_count;   /*   strings, sent as unit.capability when capability is non-NULL */
    int reverse;               /* -1 unset, 0 false, 1 true: the unit may drive backwards */
    double max_speed;          /* m/s (> 0, ≤ 1000) */
    double max_accel;          /* m/s² */
    double max_brake;          /* m/s², positive */
    double max_lateral_accel;  /* m/s²: v²/r on arcs */
    double max_reverse_speed;  /* m/s, with reverse */
    double max_turn_rate;      /* rad/s: turns on the spot at speed 0 (kinodynamic) */
} ap_client_query_unit;

typedef struct {
    const char *map;                /* map id; required (NULL is the "argument" error on "map") */
    ap_client_pose start, goal;     /* required; headings sent when has_heading */
    double start_speed, goal_speed; /* m/s (≥ 0, ≤ unit.max_speed): start.speed, goal.speed */
    ap_client_query_unit unit;      /* "unit" is sent when any member is set */
    const char *algorithm;          /* search.algorithm: "auto", "astar", …, "kinodynamic" */
    int probe;                      /* search.probe (kinodynamic): -1 unset, 0 false, 1 true */
    long max_expansions;            /* search.max_expansions (kinodynamic, 1 … 2,000,000) */
    double weight;                  /* search.weight (kinodynamic, 1 … 10: weighted A*); NAN unset */
    double tolerance_position;      /* goal_tolerance.position, tiles (kinodynamic) */
    double tolerance_heading;       /* goal_tolerance.heading, radians */
    double tolerance_speed;         /* goal_tolerance.speed, m/s */
    double samples_step;            /* samples.step: poses every step tiles (≥ 0.01) */
    double samples_dt;              /* samples.dt: poses every dt seconds (timed answers; not with step) */
    long deadline_ms;               /* deadline_ms (1 … the server's max_deadline_ms) */
} ap_client_query;

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

/* Fill *query for map, start and goal with every optional member unset (see ap_client_query); a NULL query
 * is ignored. map is not copied (it must outlive the call that sends the query). */
void ap_client_query_init(ap_client_query *query, const char *map, ap_client_pose start, ap_client_pose goal);

/* The typed request: *query as a /v1/path body (jansson), POSTed as ap_client_path does; results as
 * ap_client_path. A NULL query or map, a non-finite set double or out of memory is AP_CLIENT_E_ARGUMENT
 * with error->code "argument" and error->field naming the member's wire path (e.g. "unit.max_speed"),
 * sent nothing. Thread safety: as ap_client_path (the query is only read). */
ap_client_result ap_client_path_typed(ap_client *client, const ap_client_query *query, ap_client_answer *answer,
                                      ap_client_error *error);

/* Copy segment i (0 … segment_count − 1) of an ok answer into *segment (see ap_client_segment; type
 * points into answer->json, valid until ap_client_answer_free). Returns 0, or -1 (and *segment untouched)
 * when an argument is NULL, i is out of range or the segment has no string "type". */
int ap_client_answer_segment(const ap_client_answer *answer, size_t i, ap_client_segment *segment);

/* Release an answer's JSON and zero it; safe on a zeroed answer. */
void ap_client_answer_free(ap_client_answer *answer);

#endif
