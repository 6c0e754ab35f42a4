/* arcpath_client.c — see arcpath_client.h. HTTP by libcurl, JSON by jansson. */
#if !defined(_POSIX_C_SOURCE) && !defined(_GNU_SOURCE)
#define _POSIX_C_SOURCE 200809L /* nanosleep under a plain -std=c11 (the README's build line) */
#endif
#include "arcpath_client.h"

#include <curl/curl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Largest answer body kept (the server's max_answer_bytes defaults to 32 MiB). */
#define AP_CLIENT_MAX_BODY (64u << 20)

struct ap_client {
    CURL *curl;
    char *path_url;   /* base_url + "/v1/path" */
    long timeout_ms;
    int max_attempts;
    int max_wait_s;
};

/* A growing answer body, cut off (and marked) past AP_CLIENT_MAX_BODY. */
typedef struct {
    char *data;
    size_t len, cap;
    int too_large;
} body_buf;

static size_t on_body(char *ptr, size_t size, size_t nmemb, void *user) {
    body_buf *b = user;
    size_t n = size * nmemb;
    if (b->len + n + 1 > AP_CLIENT_MAX_BODY) {
        b->too_large = 1;
        return 0; /* makes libcurl stop with CURLE_WRITE_ERROR */
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1) cap *= 2;
        char *p = realloc(b->data, cap);
        if (!p) return 0;
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, ptr, n);
    b->len += n;
    b->data[b->len] = '\0';
    return n;
}

static void set_error(ap_client_error *e, const char *code, const char *message, const char *field) {
    if (!e) return;
    snprintf(e->code, sizeof e->code, "%s", code ? code : "");
    snprintf(e->message, sizeof e->message, "%s", message ? message : "");
    snprintf(e->field, sizeof e->field, "%s", field ? field : "");
    e->map_version = 0;
}

ap_client *ap_client_init(const char *base_url, long timeout_ms) {
    if (!base_url || !*base_url) return NULL;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return NULL;
    ap_client *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    size_t n = strlen(base_url);
    while (n > 0 && base_url[n - 1] == '/') n--;
    c->path_url = malloc(n + sizeof "/v1/path");
    c->curl = curl_easy_init();
    if (!c->path_url || !c->curl) {
        ap_client_free(c);
        return NULL;
    }
    memcpy(c->path_url, base_url, n);
    memcpy(c->path_url + n, "/v1/path", sizeof "/v1/path");
    c->timeout_ms = timeout_ms > 0 ? timeout_ms : 10000;
    c->max_attempts = 3;
    c->max_wait_s = 10;
    return c;
}

void ap_client_set_retries(ap_client *client, int max_attempts, int max_wait_s) {
    if (!client) return;
    client->max_attempts = max_attempts < 1 ? 1 : max_attempts > 10 ? 10 : max_attempts;
    client->max_wait_s = max_wait_s < 0 ? 0 : max_wait_s > 60 ? 60 : max_wait_s;
}

void ap_client_free(ap_client *client) {
    if (!client) return;
    if (client->curl) curl_easy_cleanup(client->curl);
    free(client->path_url);
    free(client);
}

void ap_client_answer_free(ap_client_answer *answer) {
    if (!answer) return;
    json_decref(answer->json);
    memset(answer, 0, sizeof *answer);
}

static double number_or_nan(json_t *obj, const char *key) {
    json_t *v = json_object_get(obj, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A 200 body into *answer; AP_CLIENT_E_ANSWER when it is not an object with a string "status". */
static ap_client_result parse_answer(const body_buf *b, ap_client_answer *answer, ap_client_error *error) {
    json_t *root = b->data ? json_loadb(b->data, b->len, 0, NULL) : NULL;
    json_t *status = json_object_get(root, "status");
    if (!json_is_object(root) || !json_is_string(status)) {
        json_decref(root);
        set_error(error, "bad_answer", "the 200 answer is not a JSON object with a status", "");
        return AP_CLIENT_E_ANSWER;
    }
    json_t *clear = json_object_get(root, "clear");
    answer->json = root;
    answer->status = json_string_value(status);
    answer->length = number_or_nan(root, "length");
    answer->grid_cost = number_or_nan(root, "grid_cost");
    answer->clear = json_is_boolean(clear) ? json_is_true(clear) : -1;
    answer->segment_count = json_array_size(json_object_get(root, "segments"));
    answer->duration_s = number_or_nan(root, "duration_s");
    answer->probe = json_is_array(json_object_get(root, "segments")) ? json_is_true(json_object_get(root, "probe")) : -1;
    return AP_CLIENT_OK;
}

/* An error body {"error": {"code", "message", "field", "map_version"}} into *error; a body of another shape still gives
 * AP_CLIENT_E_HTTP, with code "bad_answer" and the HTTP status in the message. */
static void parse_error(const body_buf *b, long http_status, ap_client_error *error) {
    if (!error) return;
    json_t *root = b->data ? json_loadb(b->data, b->len, 0, NULL) : NULL;
    json_t *err = json_object_get(root, "error");
    const char *code = json_string_value(json_object_get(err, "code"));
    if (code) {
        set_error(error, code, json_string_value(json_object_get(err, "message")),
                  json_string_value(json_object_get(err, "field")));
        json_t *version = json_object_get(err, "map_version");
        if (json_is_integer(version) && json_integer_value(version) > 0)
            error->map_version = (long long)json_integer_value(version);
    } else {
        char msg[96];
        snprintf(msg, sizeof msg, "HTTP %ld without an arcpath error body", http_status);
        set_error(error, "bad_answer", msg, "");
    }
    json_decref(root);
}

/* Seconds the 503 answer's Retry-After asks for, or -1 when it has none or not in delta-seconds (digits:
 * what arcpath sends); then it is not retried, as by the other clients (an empty value was 0 here: retried
 * at once). Capped at a day (the caller caps the wait further). */
static long retry_after_s(CURL *curl) {
    struct curl_header *h = NULL;
    if (curl_easy_header(curl, "Retry-After", 0, CURLH_HEADER, -1, &h) != CURLHE_OK || h->value == NULL) return -1;
    const char *v = h->value;
    while (*v == ' ' || *v == '\t') v++;
    long s = 0;
    const char *d = v;
    for (; *d >= '0' && *d <= '9'; d++)
        if (s < 86400) s = s * 10 + (*d - '0');
    while (*d == ' ' || *d == '\t') d++;
    if (d == v || *d != '\0') return -1;
    return s < 86400 ? s : 86400;
}

static void sleep_s(long s) {
    struct timespec ts = {.tv_sec = s, .tv_nsec = 0};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

ap_client_result ap_client_path(ap_client *client, const char *json_request, ap_client_answer *answer,
                                ap_client_error *error) {
    if (error) memset(error, 0, sizeof *error);
    if (answer) memset(answer, 0, sizeof *answer);
    if (!client || !json_request || !answer) {
        set_error(error, "argument", "client, json_request and answer must not be NULL", "");
        return AP_CLIENT_E_ARGUMENT;
    }
    struct curl_slist *headers = curl_slist_append(NULL, "Content-Type: application/json");
    if (!headers) {
        set_error(error, "argument", "out of memory", "");
        return AP_CLIENT_E_ARGUMENT;
    }
    CURL *curl = client->curl;
    ap_client_result result = AP_CLIENT_E_TRANSPORT;
    for (int attempt = 1; attempt <= client->max_attempts; attempt++) {
        body_buf body = {0};
        curl_easy_reset(curl);
        curl_easy_setopt(curl, CURLOPT_URL, client->path_url);
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, json_request);
        curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, client->timeout_ms);
        curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
        CURLcode rc = curl_easy_perform(curl);
        long http = 0;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &http);
        if (error) {
            error->attempts = attempt;
            error->http_status = rc == CURLE_OK ? http : 0;
        }
        if (rc != CURLE_OK) {
            set_error(error, body.too_large ? "bad_answer" : "transport",
                      body.too_large ? "the answer is larger than the client's 64 MiB cap" : curl_easy_strerror(rc), "");
            result = body.too_large ? AP_CLIENT_E_ANSWER : AP_CLIENT_E_TRANSPORT;
            free(body.data);
            break;
        }
        if (http == 200) {
            result = parse_answer(&body, answer, error);
            free(body.data);
            break;
        }
        parse_error(&body, http, error);
        free(body.data);
        result = AP_CLIENT_E_HTTP;
        long wait = http == 503 ? retry_after_s(curl) : -1;
        if (wait < 0 || attempt == client->max_attempts) break;
        sleep_s(wait < client->max_wait_s ? wait : client->max_wait_s);
    }
    curl_slist_free_all(headers);
    return result;
}

/* The typed request's JSON builder: the first member that cannot be sent (its wire path, and why) stops it. */
typedef struct {
    const char *field;  /* NULL while all is well */
    const char *why;
} build_state;

static void put(json_t *obj, const char *key, json_t *value, const char *field, build_state *st) {
    if (!st->field && (!value || json_object_set_new(obj, key, value) != 0)) {
        st->field = field;
        st->why = "cannot be sent (a string that is not UTF-8, or out of memory)";
    } else if (st->field) {
        json_decref(value);
    }
}

/* obj[key] = v unless v is NaN (unset); a non-finite v stops the build on field. */
static void put_real(json_t *obj, const char *key, double v, const char *field, build_state *st) {
    if (st->field || isnan(v)) return;
    if (!isfinite(v)) {
        st->field = field;
        st->why = "must be a finite number (NaN means not sent)";
        return;
    }
    put(obj, key, json_real(v), field, st);
}

/* obj[key] = v unless v < 0 (unset); as_bool: true/false. */
static void put_int(json_t *obj, const char *key, long v, int as_bool, const char *field, build_state *st) {
    if (!st->field && v >= 0) put(obj, key, as_bool ? json_boolean(v) : json_integer(v), field, st);
}

static void put_string(json_t *obj, const char *key, const char *v, const char *field, build_state *st) {
    if (!st->field && v) put(obj, key, json_string(v), field, st);
}

/* obj[key] = sub when sub has members; sub is consumed either way. */
static void put_object(json_t *obj, const char *key, json_t *sub, build_state *st) {
    if (!st->field && sub && json_object_size(sub) == 0) {
        json_decref(sub);
        return;
    }
    put(obj, key, sub, key, st);
}

/* {"x", "y"[, "heading"][, "speed"]}; field is "start" or "goal". */
static json_t *pose_json(ap_client_pose p, double speed, const char *field, build_state *st) {
    int start = field[0] == 's';
    json_t *o = json_object();
    put_real(o, "x", p.x, start ? "start.x" : "goal.x", st);
    put_real(o, "y", p.y, start ? "start.y" : "goal.y", st);
    if (p.has_heading) {
        const char *f = start ? "start.heading" : "goal.heading";
        if (isnan(p.heading) && !st->field) {
            st->field = f;
            st->why = "must be a finite number (has_heading is set)";
        }
        put_real(o, "heading", p.heading, f, st);
    }
    put_real(o, "speed", speed, start ? "start.speed" : "goal.speed", st);
    return o;
}

static json_t *unit_json(const ap_client_query_unit *u, build_state *st) {
    json_t *o = json_object();
    put_string(o, "kind", u->kind, "unit.kind", st);
    put_real(o, "radius", u->radius, "unit.radius", st);
    put_real(o, "turning_radius", u->turning_radius, "unit.turning_radius", st);
    put_int(o, "size", u->size, 0, "unit.size", st);
    if (u->capability && !st->field) {
        json_t *caps = json_array();
        for (size_t i = 0; i < u->capability_count && caps; i++) {
            if (!u->capability[i] || json_array_append_new(caps, json_string(u->capability[i])) != 0) {
                json_decref(caps);
                caps = NULL;
                st->field = "unit.capability";
                st->why = u->capability[i] ? "cannot be sent (a name that is not UTF-8, or out of memory)" : "has a NULL name";
            }
        }
        put(o, "capability", caps, "unit.capability", st);
    }
    put_int(o, "reverse", u->reverse, 1, "unit.reverse", st);
    put_real(o, "max_speed", u->max_speed, "unit.max_speed", st);
    put_real(o, "max_accel", u->max_accel, "unit.max_accel", st);
    put_real(o, "max_brake", u->max_brake, "unit.max_brake", st);
    put_real(o, "max_lateral_accel", u->max_lateral_accel, "unit.max_lateral_accel", st);
    put_real(o, "max_reverse_speed", u->max_reverse_speed, "unit.max_reverse_speed", st);
    put_real(o, "max_turn_rate", u->max_turn_rate, "unit.max_turn_rate", st);
    return o;
}

/* The whole /v1/path body of *q, or NULL with st->field set. */
static json_t *query_json(const ap_client_query *q, build_state *st) {
    json_t *req = json_object();
    put_string(req, "map", q->map, "map", st);
    put(req, "start", pose_json(q->start, q->start_speed, "start", st), "start", st);
    put(req, "goal", pose_json(q->goal, q->goal_speed, "goal", st), "goal", st);
    put_object(req, "unit", unit_json(&q->unit, st), st);
    json_t *search = json_object();
    put_string(search, "algorithm", q->algorithm, "search.algorithm", st);
    put_int(search, "probe", q->probe, 1, "search.probe", st);
    put_int(search, "max_expansions", q->max_expansions, 0, "search.max_expansions", st);
    put_real(search, "weight", q->weight, "search.weight", st);
    put_object(req, "search", search, st);
    json_t *tol = json_object();
    put_real(tol, "position", q->tolerance_position, "goal_tolerance.position", st);
    put_real(tol, "heading", q->tolerance_heading, "goal_tolerance.heading", st);
    put_real(tol, "speed", q->tolerance_speed, "goal_tolerance.speed", st);
    put_object(req, "goal_tolerance", tol, st);
    json_t *samples = json_object();
    put_real(samples, "step", q->samples_step, "samples.step", st);
    put_real(samples, "dt", q->samples_dt, "samples.dt", st);
    put_object(req, "samples", samples, st);
    put_int(req, "deadline_ms", q->deadline_ms, 0, "deadline_ms", st);
    if (st->field) {
        json_decref(req);
        return NULL;
    }
    return req;
}

void ap_client_query_init(ap_client_query *query, const char *map, ap_client_pose start, ap_client_pose goal) {
    if (!query) return;
    *query = (ap_client_query){
        .map = map, .start = start, .goal = goal, .start_speed = NAN, .goal_speed = NAN,
        .unit = {.radius = NAN, .turning_radius = NAN, .size = -1, .reverse = -1, .max_speed = NAN,
                 .max_accel = NAN, .max_brake = NAN, .max_lateral_accel = NAN, .max_reverse_speed = NAN,
                 .max_turn_rate = NAN},
        .probe = -1, .max_expansions = -1, .weight = NAN, .tolerance_position = NAN, .tolerance_heading = NAN,
        .tolerance_speed = NAN, .samples_step = NAN, .samples_dt = NAN, .deadline_ms = -1};
}

ap_client_result ap_client_path_typed(ap_client *client, const ap_client_query *query, ap_client_answer *answer,
                                      ap_client_error *error) {
    build_state st = {0};
    if (!query || !query->map) {
        st.field = "map";
        st.why = "must not be NULL";
    }
    json_t *req = st.field ? NULL : query_json(query, &st);
    char *text = req ? json_dumps(req, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
    json_decref(req);
    if (!text) {
        if (error) memset(error, 0, sizeof *error);
        if (answer) memset(answer, 0, sizeof *answer);
        char msg[160];
        snprintf(msg, sizeof msg, "%s %s", st.field ? st.field : "the request", st.why ? st.why : "out of memory");
        set_error(error, "argument", msg, st.field ? st.field : "");
        return AP_CLIENT_E_ARGUMENT;
    }
    ap_client_result r = ap_client_path(client, text, answer, error);
    free(text);
    return r;
}

ap_client_result ap_client_path_query(ap_client *client, const char *map, ap_client_pose start,
                                      ap_client_pose goal, const ap_client_unit *unit,
                                      ap_client_answer *answer, ap_client_error *error) {
    ap_client_query q;
    ap_client_query_init(&q, map, start, goal);
    if (unit) {
        q.unit.radius = unit->radius;
        q.unit.turning_radius = unit->turning_radius;
    }
    return ap_client_path_typed(client, &q, answer, error);
}

/* v[0], v[1] of a 2-number array, else NaN. */
static void vec2_or_nan(json_t *obj, const char *key, double v[2]) {
    json_t *a = json_object_get(obj, key);
    for (int i = 0; i < 2; i++) {
        json_t *x = json_array_get(a, (size_t)i);
        v[i] = json_is_number(x) ? json_number_value(x) : NAN;
    }
}

int ap_client_answer_segment(const ap_client_answer *answer, size_t i, ap_client_segment *segment) {
    if (!answer || !segment) return -1;
    json_t *seg = json_array_get(json_object_get(answer->json, "segments"), i);
    const char *type = json_string_value(json_object_get(seg, "type"));
    if (!type) return -1;
    segment->type = type;
    vec2_or_nan(seg, "start", segment->start);
    vec2_or_nan(seg, "end", segment->end);
    vec2_or_nan(seg, "center", segment->center);
    segment->radius = number_or_nan(seg, "radius");
    segment->heading = number_or_nan(seg, "heading");
    segment->start_heading = number_or_nan(seg, "start_heading");
    segment->sweep = number_or_nan(seg, "sweep");
    segment->length = number_or_nan(seg, "length");
    segment->reverse = json_is_true(json_object_get(seg, "reverse"));
    segment->v_start = number_or_nan(seg, "v_start");
    segment->v_end = number_or_nan(seg, "v_end");
    segment->t_start = number_or_nan(seg, "t_start");
    segment->duration = number_or_nan(seg, "duration");
    return 0;
}
