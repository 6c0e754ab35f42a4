/* arcpath_client.c — see arcpath_client.h. HTTP by libcurl, JSON by jansson. */
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
    return AP_CLIENT_OK;
}

/* An error body {"error": {"code", "message", "field"}} into *error; a body of another shape still gives
 * AP_CLIENT_E_HTTP, with code "bad_answer" and the HTTP status in the message. */
static void parse_error(const body_buf *b, long http_status, ap_client_error *error) {
    if (!error) return;
    json_t *root = b->data ? json_loadb(b->data, b->len, 0, NULL) : NULL;
    json_t *err = json_object_get(root, "error");
    const char *code = json_string_value(json_object_get(err, "code"));
    if (code) {
        set_error(error, code, json_string_value(json_object_get(err, "message")),
                  json_string_value(json_object_get(err, "field")));
    } else {
        char msg[96];
        snprintf(msg, sizeof msg, "HTTP %ld without an arcpath error body", http_status);
        set_error(error, "bad_answer", msg, "");
    }
    json_decref(root);
}

/* Seconds the 503 answer's Retry-After asks for, or -1 when it has none (then it is not retried). */
static long retry_after_s(CURL *curl) {
    struct curl_header *h = NULL;
    if (curl_easy_header(curl, "Retry-After", 0, CURLH_HEADER, -1, &h) != CURLHE_OK) return -1;
    curl_off_t s = 0;
    if (curl_easy_getinfo(curl, CURLINFO_RETRY_AFTER, &s) != CURLE_OK || s < 0) return -1;
    return (long)s;
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

/* {"x", "y"[, "heading"]} */
static json_t *pose_json(ap_client_pose p) {
    json_t *o = json_pack("{s:f, s:f}", "x", p.x, "y", p.y);
    if (o && p.has_heading) json_object_set_new(o, "heading", json_real(p.heading));
    return o;
}

ap_client_result ap_client_path_query(ap_client *client, const char *map, ap_client_pose start,
                                      ap_client_pose goal, const ap_client_unit *unit,
                                      ap_client_answer *answer, ap_client_error *error) {
    json_t *req = map ? json_pack("{s:s, s:o, s:o}", "map", map, "start", pose_json(start), "goal", pose_json(goal))
                      : NULL;
    if (req && unit)
        json_object_set_new(req, "unit", json_pack("{s:f, s:f}", "radius", unit->radius, "turning_radius",
                                                   unit->turning_radius));
    char *text = req ? json_dumps(req, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
    json_decref(req);
    if (!text) {
        if (error) memset(error, 0, sizeof *error);
        if (answer) memset(answer, 0, sizeof *answer);
        set_error(error, "argument", map ? "out of memory" : "map must not be NULL", map ? "" : "map");
        return AP_CLIENT_E_ARGUMENT;
    }
    ap_client_result r = ap_client_path(client, text, answer, error);
    free(text);
    return r;
}
