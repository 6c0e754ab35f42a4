/* config.c — defaults < JSON config file < ARCPATH_* environment < command line.
 *
 * Every integer setting is described once in ap_int_fields (key, variable, range, where it lives), so the
 * file, the environment and the printer cannot disagree about names or ranges. Each loader works on a
 * copy and commits it only when every value was accepted, so a failed load never leaves half a config.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../planner/base/limits.h"
#include "../planner/base/status.h"
#include "../planner/world/capability.h"
#include "../planner/world/tables.h"
#include "fail.h"
#include "units.h"
#include "version.h"

#define AP_CONFIG_MAX_FILE_BYTES (1 << 20) /* a config file is a few hundred bytes; refuse anything absurd */

typedef enum ap_int_kind { AP_K_INT, AP_K_I32, AP_K_I64, AP_K_U64, AP_K_SIZE } ap_int_kind;

typedef struct ap_int_field {
    const char *key;  /* config-file key */
    const char *env;  /* environment variable, NULL = file only */
    ap_int_kind kind;
    size_t offset;    /* within ap_config */
    long long lo, hi; /* inclusive range */
    const char *help; /* what it sets, for --help */
} ap_int_field;

/* One row per integer key: the file parser, the environment reader, the effective config's JSON and --help
 * all read this table, so a new key shows up in every one of them. */
#define F(key, env, kind, member, lo, hi, help) {key, env, kind, offsetof(ap_config, member), lo, hi, help}
static const ap_int_field ap_int_fields[] = {
    F("workers", "ARCPATH_WORKERS", AP_K_INT, workers, 1, 64, "worker threads = fast-lane workspaces"),
    F("slow_slots", "ARCPATH_SLOW_SLOTS", AP_K_INT, slow_slots, 1, 64, "slow searches at once"),
    F("fast_queue", "ARCPATH_FAST_QUEUE", AP_K_INT, fast_queue, 1, 1000000, "fast-lane jobs queued or running before 503"),
    F("slow_queue", "ARCPATH_SLOW_QUEUE", AP_K_INT, slow_queue, 1, 100000, "slow-lane queue before 503"),
    F("fast_budget", "ARCPATH_FAST_BUDGET", AP_K_U64, fast_budget, 100, 100000000, "expansions before a search moves to the slow lane"),
    F("slow_slice", "ARCPATH_SLOW_SLICE", AP_K_U64, slow_slice, 100, 100000000, "expansions per slow slice"),
    F("default_deadline_ms", "ARCPATH_DEFAULT_DEADLINE_MS", AP_K_INT, default_deadline_ms, 1, 600000, "deadline of a request that gives none"),
    F("max_deadline_ms", "ARCPATH_MAX_DEADLINE_MS", AP_K_INT, max_deadline_ms, 1, 600000, "longest deadline a request gets"),
    F("max_body_bytes", "ARCPATH_MAX_BODY_BYTES", AP_K_SIZE, max_body_bytes, 1024, 64LL << 20, "request body cap (413 above)"),
    F("max_map_width", NULL, AP_K_I32, max_map_width, 1, 65536, "map width limit"),
    F("max_map_height", NULL, AP_K_I32, max_map_height, 1, 65536, "map height limit"),
    F("max_map_cells", NULL, AP_K_I64, max_map_cells, 1, 1LL << 30, "map cells limit"),
    F("max_samples", "ARCPATH_MAX_SAMPLES", AP_K_SIZE, max_samples, 1, 10000000, "most poses in one answer"),
    F("max_answer_bytes", "ARCPATH_MAX_ANSWER_BYTES", AP_K_SIZE, max_answer_bytes, 65536, 1LL << 30, "largest batch answer or picture"),
    F("drain_timeout_ms", "ARCPATH_DRAIN_TIMEOUT_MS", AP_K_INT, drain_timeout_ms, 0, 600000, "how long SIGTERM waits for searches in flight"),
    F("max_batch", "ARCPATH_MAX_BATCH", AP_K_SIZE, max_batch, 1, 100000, "most queries in one POST /v1/paths"),
    F("http_threads", "ARCPATH_HTTP_THREADS", AP_K_INT, http_threads, 1, 64, "HTTP polling threads"),
    F("pool_nice", "ARCPATH_POOL_NICE", AP_K_INT, pool_nice, 0, 19, "nice increment of the worker pool threads"),
    F("max_connections", "ARCPATH_MAX_CONNECTIONS", AP_K_INT, max_connections, 1, 100000, "connections open at once"),
    F("max_connections_per_ip", "ARCPATH_MAX_CONNECTIONS_PER_IP", AP_K_INT, max_connections_per_ip, 1, 100000, "connections from one address"),
    F("idle_timeout_s", "ARCPATH_IDLE_TIMEOUT_S", AP_K_INT, idle_timeout_s, 1, 3600, "close a connection silent this long"),
    F("request_timeout_ms", "ARCPATH_REQUEST_TIMEOUT_MS", AP_K_INT, request_timeout_ms, 100, 600000, "a request must arrive whole within"),
    F("profile_evictions_per_minute", "ARCPATH_PROFILE_EVICTIONS_PER_MINUTE", AP_K_INT,
      profile_evictions_per_minute, 0, 1000000, "unit profiles one client may evict a minute"),
    F("max_map_upload_bytes", "ARCPATH_MAX_MAP_UPLOAD_BYTES", AP_K_SIZE, max_map_upload_bytes, 1024, 1LL << 30, "largest map file PUT or cell edits PATCH accepts"),
    F("max_workspace_cells", "ARCPATH_MAX_WORKSPACE_CELLS", AP_K_I64, max_workspace_cells, 0, 1LL << 31, "search workspace nodes (0: the largest map's at start)"),
    F("max_maps", "ARCPATH_MAX_MAPS", AP_K_SIZE, max_maps, 1, 1000000, "most map ids loaded at once (409 map_limit above)"),
};
#undef F
#define AP_N_INT_FIELDS (sizeof ap_int_fields / sizeof ap_int_fields[0])

int ap_config_fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err != NULL && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
        /* one line on stderr whatever a key or value held (a key "a\nb" split the message in two) */
        for (char *p = err; *p != '\0'; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
    }
    return AP_E_CONFIG;
}

static void set_int(ap_config *c, const ap_int_field *f, long long v)
{
    char *p = (char *)c + f->offset;
    switch (f->kind) {
    case AP_K_INT: *(int *)(void *)p = (int)v; break;
    case AP_K_I32: *(int32_t *)(void *)p = (int32_t)v; break;
    case AP_K_I64: *(int64_t *)(void *)p = (int64_t)v; break;
    case AP_K_U64: *(uint64_t *)(void *)p = (uint64_t)v; break;
    case AP_K_SIZE: *(size_t *)(void *)p = (size_t)v; break;
    }
}

static long long get_int(const ap_config *c, const ap_int_field *f)
{
    const char *p = (const char *)c + f->offset;
    switch (f->kind) {
    case AP_K_INT: return *(const int *)(const void *)p;
    case AP_K_I32: return *(const int32_t *)(const void *)p;
    case AP_K_I64: return *(const int64_t *)(const void *)p;
    case AP_K_U64: return (long long)*(const uint64_t *)(const void *)p;
    case AP_K_SIZE: return (long long)*(const size_t *)(const void *)p;
    }
    return 0;
}

/* Strict decimal: the whole string is digits, a '-' first at most and only before a value below 0 (strtoll
 * alone would also take leading blanks, a '+' and "-0", which slipped past ranges from 0 up), no overflow.
 * 0 on success. */
static int parse_ll(const char *s, long long *out)
{
    if (s == NULL || !((s[0] >= '0' && s[0] <= '9') || (s[0] == '-' && s[1] >= '0' && s[1] <= '9')))
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || (s[0] == '-' && v == 0))
        return -1;
    *out = v;
    return 0;
}

/* "HOST:PORT" with HOST an IPv4 literal or "localhost", or "[IPv6]:PORT". 0 on success; else why is set. */
static int parse_listen(const char *s, char host[64], uint16_t *port, const char **why)
{
    const char *colon, *hs;
    size_t hl;
    char h[64];
    if (s[0] == '[') {
        const char *rb = strchr(s, ']');
        if (rb == NULL || rb[1] != ':') {
            *why = "must be HOST:PORT or [IPv6]:PORT";
            return -1;
        }
        hs = s + 1;
        hl = (size_t)(rb - hs);
        colon = rb + 1;
    } else {
        colon = strrchr(s, ':');
        if (colon == NULL) {
            *why = "must be HOST:PORT";
            return -1;
        }
        hs = s;
        hl = (size_t)(colon - s);
    }
    if (hl == 0 || hl >= sizeof h) {
        *why = "host must be an IPv4 address, \"localhost\" or [IPv6 address]";
        return -1;
    }
    memcpy(h, hs, hl);
    h[hl] = '\0';
    unsigned char addr[16];
    bool ok = s[0] == '[' ? inet_pton(AF_INET6, h, addr) == 1
                          : (strcmp(h, "localhost") == 0 || inet_pton(AF_INET, h, addr) == 1);
    if (!ok) {
        *why = "host must be an IPv4 address, \"localhost\" or [IPv6 address]";
        return -1;
    }
    long long p;
    if (parse_ll(colon + 1, &p) != 0 || p < 1 || p > 65535) {
        *why = "port must be an integer between 1 and 65535";
        return -1;
    }
    memcpy(host, h, hl + 1);
    *port = (uint16_t)p;
    return 0;
}

/* A path setting (maps dir, config file): non-empty and fits. */
static int check_path(const char *s, size_t cap, const char **why)
{
    if (s[0] == '\0') {
        *why = "must not be empty";
        return -1;
    }
    if (strlen(s) >= cap) {
        *why = "is too long";
        return -1;
    }
    return 0;
}

void ap_config_defaults(ap_config *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->listen_host, sizeof c->listen_host, "%s", "127.0.0.1");
    c->listen_port = 8080;
    snprintf(c->maps_dir, sizeof c->maps_dir, "%s", "config/maps");
    c->workers = 2;
    c->slow_slots = 4;
    c->fast_queue = 1024;
    c->slow_queue = 64;
    c->fast_budget = 2000;
    c->slow_slice = 2000;
    c->default_deadline_ms = 5000;
    c->max_deadline_ms = 60000;
    c->max_body_bytes = 65536;
    c->max_map_width = 4096;
    c->max_map_height = 4096;
    c->max_map_cells = 16777216;
    c->max_samples = AP_DEFAULT_MAX_SAMPLES;
    c->max_answer_bytes = 32u << 20;
    c->drain_timeout_ms = 10000;
    c->access_log = true;
    c->max_batch = 256;
    c->http_threads = 1;
    c->pool_nice = 0;
    c->max_connections = 512;
    c->max_connections_per_ip = 64;
    c->idle_timeout_s = 30;
    c->request_timeout_ms = 10000;
    c->profile_evictions_per_minute = 6;
    c->inline_fast = true;
    c->max_map_upload_bytes = 16u << 20;
    c->max_workspace_cells = 0;
    c->max_maps = 4096;
    c->admin_token[0] = '\0';
    c->n_cors_origins = 0;
    c->skip_tables = 0;
    c->n_skips = 0;
    c->config_file[0] = '\0';
    c->check_config = false;
}

/* ---------------------------------------------------------------------------------------------------------
 * File */

/* "profiles": an array of profile objects; errors name the entry and the field ("profiles[2].headings"). */
static int apply_profiles(ap_config *c, const char *label, json_t *v, char *err, size_t errlen)
{
    if (!json_is_array(v))
        return ap_config_fail(err, errlen, "%s: \"profiles\": must be an array of profile objects", label);
    if (json_array_size(v) > AP_CONFIG_MAX_PROFILES)
        return ap_config_fail(err, errlen, "%s: \"profiles\": at most %d profiles", label, AP_CONFIG_MAX_PROFILES);
    size_t idx;
    json_t *e;
    json_array_foreach(v, idx, e) {
        ap_config_profile p = {0.0, 0.0, AP_HEADINGS_COARSE, 24, false};
        bool have_r = false;
        if (!json_is_object(e))
            return ap_config_fail(err, errlen, "%s: \"profiles[%zu]\": must be an object", label, idx);
        const char *k;
        json_t *x;
        json_object_foreach(e, k, x) {
            if (strcmp(k, "radius") == 0) {
                if (!json_is_number(x) || json_number_value(x) < 0.0 || json_number_value(x) > AP_MAX_UNIT_RADIUS)
                    return ap_config_fail(err, errlen,
                                          "%s: \"profiles[%zu].radius\": must be a number between 0 and %g", label, idx,
                                          AP_MAX_UNIT_RADIUS);
                p.radius = json_number_value(x);
            } else if (strcmp(k, "turning_radius") == 0) {
                if (!json_is_number(x) || !(json_number_value(x) >= AP_MIN_TURNING_RADIUS) ||
                    json_number_value(x) > AP_MAX_TURNING_RADIUS)
                    return ap_config_fail(err, errlen,
                                          "%s: \"profiles[%zu].turning_radius\": must be a number between %g and %g",
                                          label, idx, AP_MIN_TURNING_RADIUS, AP_MAX_TURNING_RADIUS);
                p.turning_radius = json_number_value(x);
                have_r = true;
            } else if (strcmp(k, "headings") == 0) {
                if (!json_is_integer(x) ||
                    (json_integer_value(x) != AP_HEADINGS_COARSE && json_integer_value(x) != AP_HEADINGS_FINE))
                    return ap_config_fail(err, errlen, "%s: \"profiles[%zu].headings\": must be 8 or 16", label, idx);
                p.headings = (int)json_integer_value(x);
            } else if (strcmp(k, "neighbourhood") == 0) {
                json_int_t n = json_is_integer(x) ? json_integer_value(x) : 0;
                if (n != 8 && n != 24 && n != 48)
                    return ap_config_fail(err, errlen, "%s: \"profiles[%zu].neighbourhood\": must be 8, 24 or 48",
                                          label, idx);
                p.neighbourhood = (int)n;
            } else if (strcmp(k, "reverse") == 0) {
                if (!json_is_boolean(x))
                    return ap_config_fail(err, errlen, "%s: \"profiles[%zu].reverse\": must be true or false", label,
                                          idx);
                p.reverse = json_is_true(x);
            } else {
                return ap_config_fail(err, errlen, "%s: \"profiles[%zu].%s\": unknown key", label, idx, k);
            }
        }
        if (!have_r)
            return ap_config_fail(err, errlen, "%s: \"profiles[%zu].turning_radius\": required", label, idx);
        c->profiles[idx] = p;
    }
    c->n_profiles = json_array_size(v);
    return AP_OK;
}

int ap_config_parse_costs(const char *label, const char *path, json_t *e, unsigned terrains,
                          double cost[AP_TERRAIN_KINDS], char *err, size_t errlen)
{
    if (!json_is_object(e))
        return ap_config_fail(err, errlen, "%s: \"%s\": must be an object {\"S\": 3, ...}", label, path);
    const char *k;
    json_t *x;
    json_object_foreach(e, k, x) {
        const char *at = strlen(k) == 1 ? strchr(AP_TERRAIN_CHARS, k[0]) : NULL;
        if (at == NULL)
            return ap_config_fail(
                err, errlen,
                "%s: \"%s.%.8s\": not a terrain that can carry a cost (one of . G S T W; '@' and 'O' are "
                "out of bounds)",
                label, path, k);
        if (!(ap_capability_of_terrain((unsigned char)k[0]) & terrains))
            return ap_config_fail(err, errlen, "%s: \"%s.%s\": not a terrain of this capability", label, path, k);
        double v = json_is_number(x) ? json_number_value(x) : 0.0;
        if (!(v >= 1.0 && v <= AP_TERRAIN_COST_MAX))
            return ap_config_fail(err, errlen, "%s: \"%s.%s\": must be a number in [1, %g]", label, path, k,
                                  AP_TERRAIN_COST_MAX);
        cost[at - AP_TERRAIN_CHARS] = v;
    }
    return AP_OK;
}

/* True when s[0, n) is a serialized web origin as browsers send it in Origin (RFC 6454 6.1): "http://" or
 * "https://", a host of lowercase letters, digits, '.', '-' (or a bracketed IPv6 literal that parses as
 * one), and an optional ":PORT" (1..65535, no leading zero, not the scheme's default, which browsers leave
 * out); no path, no trailing '/'. *why says what is wrong. An entry a browser never sends would never match,
 * silently ("http://a:0080", "http://[:::::]" were taken: a helper). */
static bool origin_valid(const char *s, size_t n, const char **why)
{
    size_t at = 0;
    if (n >= 7 && strncmp(s, "http://", 7) == 0)
        at = 7;
    else if (n >= 8 && strncmp(s, "https://", 8) == 0)
        at = 8;
    else {
        *why = "must start with http:// or https:// (or be \"*\" alone)";
        return false;
    }
    size_t host = at;
    if (at < n && s[at] == '[') {
        for (at++; at < n && (strchr("0123456789abcdef:.", s[at]) != NULL); at++)
            ;
        char v6[64];
        struct in6_addr a6;
        const size_t len6 = at - host - 1;
        if (at >= n || s[at] != ']' || at == host + 1 || len6 >= sizeof v6 ||
            (memcpy(v6, s + host + 1, len6), v6[len6] = '\0', inet_pton(AF_INET6, v6, &a6) != 1)) {
            *why = "has a malformed [IPv6] host";
            return false;
        }
        at++;
    } else {
        for (; at < n && ((s[at] >= 'a' && s[at] <= 'z') || (s[at] >= '0' && s[at] <= '9') || s[at] == '.' ||
                          s[at] == '-');
             at++)
            ;
    }
    if (at == host) {
        *why = at < n ? "has a host that is not lowercase letters, digits, '.' and '-'" : "has no host";
        return false;
    }
    if (at < n && s[at] == ':') {
        long port = 0;
        size_t digits = 0;
        for (at++; at < n && s[at] >= '0' && s[at] <= '9' && digits < 6; at++, digits++)
            port = port * 10 + (s[at] - '0');
        if (digits == 0 || port < 1 || port > 65535) {
            *why = "has a port that is not 1..65535";
            return false;
        }
        if (s[at - digits] == '0') {
            *why = "has a port with a leading zero, which a browser never sends";
            return false;
        }
        if (port == (s[4] == 's' ? 443 : 80)) {
            *why = "names the scheme's default port, which a browser leaves out of Origin";
            return false;
        }
    }
    if (at != n) {
        *why = "must be scheme://host[:port] exactly as a browser sends it (lowercase, no path or trailing '/')";
        return false;
    }
    return true;
}

/* Append origin s[0, n) to c's CORS list (checked: origin_valid or "*", length, count, "*" alone, no
 * duplicate). Returns 0, or -1 with *why set. */
static int add_origin(ap_config *c, const char *s, size_t n, const char **why)
{
    if (n == 0) {
        *why = "an origin is empty";
        return -1;
    }
    if (n >= AP_CORS_ORIGIN_MAX) {
        *why = "an origin is longer than 255 bytes";
        return -1;
    }
    bool star = n == 1 && s[0] == '*';
    if (!star && !origin_valid(s, n, why))
        return -1;
    if (c->n_cors_origins >= AP_CONFIG_MAX_CORS) {
        *why = "at most 16 origins";
        return -1;
    }
    for (size_t i = 0; i < c->n_cors_origins; i++) {
        if (star || strcmp(c->cors_origins[i], "*") == 0) {
            *why = "\"*\" must be the only entry";
            return -1;
        }
        if (strlen(c->cors_origins[i]) == n && memcmp(c->cors_origins[i], s, n) == 0) {
            *why = "an origin is listed twice";
            return -1;
        }
    }
    memcpy(c->cors_origins[c->n_cors_origins], s, n);
    c->cors_origins[c->n_cors_origins][n] = '\0';
    c->n_cors_origins++;
    return 0;
}

/* "cors_origins": ["https://a.example", ...] or ["*"]; [] turns CORS off. */
static int apply_cors(ap_config *c, const char *label, json_t *v, char *err, size_t errlen)
{
    const char *why;
    if (!json_is_array(v))
        return ap_config_fail(err, errlen, "%s: \"cors_origins\": must be an array of origins or [\"*\"]", label);
    c->n_cors_origins = 0;
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *e = json_array_get(v, i);
        if (!json_is_string(e))
            return ap_config_fail(err, errlen, "%s: \"cors_origins[%zu]\": must be a string", label, i);
        if (add_origin(c, json_string_value(e), json_string_length(e), &why) != 0)
            return ap_config_fail(err, errlen, "%s: \"cors_origins[%zu]\": %s", label, i, why);
    }
    return AP_OK;
}

/* ARCPATH_CORS_ORIGINS: "https://a.example, https://b.example" or "*". */
static int apply_cors_env(ap_config *c, const char *v, const char **why)
{
    c->n_cors_origins = 0;
    for (const char *p = v;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        const char *end = strchr(p, ',');
        size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
        while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        if (add_origin(c, p, n, why) != 0)
            return -1;
        if (end == NULL)
            return 0;
        p = end + 1;
    }
}

/* An object keyed by map id or "*" (config keys "terrain_costs", "meters_per_tile"): at most
 * AP_CONFIG_MAX_TERRAIN entries, each key a map id by its characters (whether such a map is loaded is the
 * server's business: it warns). example shows the shape in the message. Returns AP_OK or AP_E_CONFIG. */
static int check_map_keys(const char *label, const char *key, json_t *v, const char *example, char *err,
                          size_t errlen)
{
    if (!json_is_object(v))
        return ap_config_fail(err, errlen, "%s: \"%s\": must be an object {%s}", label, key, example);
    if (json_object_size(v) > AP_CONFIG_MAX_TERRAIN)
        return ap_config_fail(err, errlen, "%s: \"%s\": at most %d maps", label, key, AP_CONFIG_MAX_TERRAIN);
    const char *id;
    json_t *e;
    json_object_foreach(v, id, e) {
        if (!ap_map_id_valid(id, strlen(id)) && strcmp(id, "*") != 0)
            return ap_config_fail(err, errlen,
                                  "%s: \"%s\": \"%.64s\" is not a map id (1..%d of [A-Za-z0-9_.-], the first not '.') or \"*\"", label,
                                  key, id, AP_MAP_ID_MAX - 1);
    }
    return AP_OK;
}

/* "terrain_costs": {"MAP_ID" | "*": {"S": 3, "W": 8, ...}}; errors name the map and the terrain. */
static int apply_terrain(ap_config *c, const char *label, json_t *v, char *err, size_t errlen)
{
    int rc = check_map_keys(label, "terrain_costs", v, "\"MAP_ID\": {\"S\": 3, ...}", err, errlen);
    if (rc != AP_OK)
        return rc;
    size_t n = 0;
    const char *id;
    json_t *e;
    json_object_foreach(v, id, e) {
        ap_terrain_costs t;
        memset(&t, 0, sizeof t);
        snprintf(t.map_id, sizeof t.map_id, "%s", id);
        char path[96];
        snprintf(path, sizeof path, "terrain_costs.%s", id);
        rc = ap_config_parse_costs(label, path, e, AP_CAP_ALL, t.cost, err, errlen);
        if (rc != AP_OK)
            return rc;
        c->terrain[n++] = t;
    }
    c->n_terrain = n;
    return AP_OK;
}

/* "meters_per_tile": {"MAP_ID" | "*": 2.5}: numbers in [AP_MIN_METERS_PER_TILE, AP_MAX_METERS_PER_TILE]; errors name
 * the map. */
static int apply_scales(ap_config *c, const char *label, json_t *v, char *err, size_t errlen)
{
    int rc = check_map_keys(label, "meters_per_tile", v, "\"MAP_ID\": 2.5, \"*\": 1", err, errlen);
    if (rc != AP_OK)
        return rc;
    size_t n = 0;
    const char *id;
    json_t *e;
    json_object_foreach(v, id, e) {
        double x = json_is_number(e) ? json_number_value(e) : 0.0;
        if (!(x >= AP_MIN_METERS_PER_TILE && x <= AP_MAX_METERS_PER_TILE))
            return ap_config_fail(err, errlen,
                                  "%s: \"meters_per_tile.%s\": must be a number in [%g, %g] (metres per tile)", label,
                                  id, AP_MIN_METERS_PER_TILE, AP_MAX_METERS_PER_TILE);
        ap_map_scale *s = &c->scales[n++];
        memset(s, 0, sizeof *s);
        snprintf(s->map_id, sizeof s->map_id, "%s", id);
        s->meters_per_tile = x;
    }
    c->n_scales = n;
    return AP_OK;
}

/* One array of skippable table names (tables.h) as bits in *bits; where names the array in messages
 * ("skip_tables", "skip_tables.MAP"). Returns AP_OK or AP_E_CONFIG. */
static int parse_skip_list(const char *label, const char *where, json_t *v, uint32_t *bits, char *err,
                           size_t errlen)
{
    if (!json_is_array(v))
        return ap_config_fail(err, errlen, "%s: \"%s\": must be an array of table names", label, where);
    *bits = 0;
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *e = json_array_get(v, i);
        const uint32_t b = json_is_string(e) ? ap_table_kind_skip_bit(json_string_value(e)) : 0;
        if (b == 0) {
            char names[256] = "";
            size_t nk, used = 0;
            const ap_table_kind *const *kinds = ap_table_kinds(&nk);
            for (size_t k = 0; k < nk && used < sizeof names; k++)
                if (kinds[k]->flags & AP_TABLE_SKIPPABLE)
                    used += (size_t)snprintf(names + used, sizeof names - used, "%s\"%s\"", used ? ", " : "",
                                             kinds[k]->name);
            return ap_config_fail(err, errlen,
                                  "%s: \"%s[%zu]\": must be one of %s (the tables the planner can do without)",
                                  label, where, i, names);
        }
        if (*bits & b)
            return ap_config_fail(err, errlen, "%s: \"%s[%zu]\": a table is listed twice", label, where, i);
        *bits |= b;
    }
    return AP_OK;
}

/* "skip_tables": ["any_angle", "hier"] (every map) or {"MAP_ID" | "*": ["any_angle"]} (per map; a map
 * without an entry builds every table): skippable per-map tables not built (tables.h); [] builds every one. */
static int apply_skip_tables(ap_config *c, const char *label, json_t *v, char *err, size_t errlen)
{
    c->skip_tables = 0;
    c->n_skips = 0;
    if (json_is_array(v))
        return parse_skip_list(label, "skip_tables", v, &c->skip_tables, err, errlen);
    if (!json_is_object(v))
        return ap_config_fail(err, errlen,
                              "%s: \"skip_tables\": must be an array of table names, or an object of such arrays by "
                              "map id {\"MAP_ID\": [\"any_angle\"], \"*\": []}",
                              label);
    int rc = check_map_keys(label, "skip_tables", v, "\"MAP_ID\": [\"any_angle\"], \"*\": []", err, errlen);
    if (rc != AP_OK)
        return rc;
    const char *id;
    json_t *e;
    json_object_foreach(v, id, e) {
        ap_map_skip *k = &c->skips[c->n_skips];
        memset(k, 0, sizeof *k);
        snprintf(k->map_id, sizeof k->map_id, "%s", id);
        char where[96];
        snprintf(where, sizeof where, "skip_tables.%s", id);
        if ((rc = parse_skip_list(label, where, e, &k->tables, err, errlen)) != AP_OK) {
            c->n_skips = 0;
            return rc;
        }
        c->n_skips++;
    }
    return AP_OK;
}

/* An admin token: AP_CONFIG_ADMIN_TOKEN_MIN..MAX printable ASCII characters, no spaces (it travels in an
 * Authorization header). 0 when acceptable; else *why says why (never quoting the token). */
static int check_token(const char *t, const char **why)
{
    size_t n = 0;
    for (; t[n] != '\0'; n++) {
        if ((unsigned char)t[n] <= 0x20 || (unsigned char)t[n] >= 0x7f) {
            *why = "must be printable ASCII without spaces";
            return -1;
        }
    }
    if (n < AP_CONFIG_ADMIN_TOKEN_MIN || n > AP_CONFIG_ADMIN_TOKEN_MAX) {
        *why = "must be 16 to 256 characters long";
        return -1;
    }
    return 0;
}

static int apply_json(ap_config *c, const char *label, json_t *root, char *err, size_t errlen)
{
    const char *key;
    json_t *v;
    const char *why;
    json_object_foreach(root, key, v) {
        if (strcmp(key, "listen") == 0) {
            if (!json_is_string(v))
                return ap_config_fail(err, errlen, "%s: \"listen\": must be a string \"HOST:PORT\"", label);
            if (parse_listen(json_string_value(v), c->listen_host, &c->listen_port, &why) != 0)
                return ap_config_fail(err, errlen, "%s: \"listen\": %s (got \"%s\")", label, why, json_string_value(v));
            continue;
        }
        if (strcmp(key, "maps") == 0) {
            if (!json_is_string(v))
                return ap_config_fail(err, errlen, "%s: \"maps\": must be a string (a directory)", label);
            if (check_path(json_string_value(v), sizeof c->maps_dir, &why) != 0)
                return ap_config_fail(err, errlen, "%s: \"maps\": %s", label, why);
            snprintf(c->maps_dir, sizeof c->maps_dir, "%s", json_string_value(v));
            continue;
        }
        if (strcmp(key, "admin_token") == 0) {
            if (!json_is_string(v))
                return ap_config_fail(err, errlen, "%s: \"admin_token\": must be a string", label);
            if (check_token(json_string_value(v), &why) != 0)
                return ap_config_fail(err, errlen, "%s: \"admin_token\": %s", label, why);
            snprintf(c->admin_token, sizeof c->admin_token, "%s", json_string_value(v));
            continue;
        }
        if (strcmp(key, "access_log") == 0) {
            if (!json_is_boolean(v))
                return ap_config_fail(err, errlen, "%s: \"access_log\": must be true or false", label);
            c->access_log = json_is_true(v);
            continue;
        }
        if (strcmp(key, "profiles") == 0) {
            int rc = apply_profiles(c, label, v, err, errlen);
            if (rc != AP_OK)
                return rc;
            continue;
        }
        if (strcmp(key, "terrain_costs") == 0) {
            int rc = apply_terrain(c, label, v, err, errlen);
            if (rc != AP_OK)
                return rc;
            continue;
        }
        if (strcmp(key, "meters_per_tile") == 0) {
            int rc = apply_scales(c, label, v, err, errlen);
            if (rc != AP_OK)
                return rc;
            continue;
        }
        if (ap_config_is_unit_key(key)) {
            int rc = ap_config_apply_unit_key(c, label, key, v, err, errlen);
            if (rc != AP_OK)
                return rc;
            continue;
        }
        if (strcmp(key, "cors_origins") == 0) {
            int rc = apply_cors(c, label, v, err, errlen);
            if (rc != AP_OK)
                return rc;
            continue;
        }
        if (strcmp(key, "skip_tables") == 0) {
            int rc = apply_skip_tables(c, label, v, err, errlen);
            if (rc != AP_OK)
                return rc;
            continue;
        }
        if (strcmp(key, "inline_fast") == 0) {
            if (!json_is_boolean(v))
                return ap_config_fail(err, errlen, "%s: \"inline_fast\": must be true or false", label);
            c->inline_fast = json_is_true(v);
            continue;
        }
        const ap_int_field *f = NULL;
        for (size_t i = 0; i < AP_N_INT_FIELDS; i++)
            if (strcmp(key, ap_int_fields[i].key) == 0)
                f = &ap_int_fields[i];
        if (f == NULL)
            return ap_config_fail(err, errlen, "%s: \"%s\": unknown key", label, key);
        if (!json_is_integer(v) || json_integer_value(v) < f->lo || json_integer_value(v) > f->hi)
            return ap_config_fail(err, errlen, "%s: \"%s\": must be an integer between %lld and %lld", label, f->key,
                                  f->lo, f->hi);
        set_int(c, f, json_integer_value(v));
    }
    return AP_OK;
}

int ap_config_load_buffer(ap_config *c, const char *label, const char *buf, size_t len, char *err,
                          size_t errlen)
{
    json_error_t jerr;
    if (label == NULL)
        label = "<config>";
    json_t *root = json_loadb(buf ? buf : "", buf ? len : 0, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL) {
        /* jansson quotes the text near the fault ("near '...'"): in a file that holds admin_token that text can
         * be the token (a tab inside its string was quoted whole, a helper), which is never printed. A key
         * may spell it with escapes ("admin\u005ftoken", a helper), so a file with any \u escape counts too. */
        char *near = strstr(jerr.text, " near '");
        const bool secret =
            buf != NULL && (memmem(buf, len, "admin_token", 11) != NULL || memmem(buf, len, "\\u", 2) != NULL);
        if (secret && near != NULL)
            *near = '\0';
        return ap_config_fail(err, errlen, "%s:%d:%d: %s%s", label, jerr.line > 0 ? jerr.line : 1,
                              jerr.column > 0 ? jerr.column : 1, jerr.text,
                              secret && near != NULL ? " (the text near it is not shown: the file may hold admin_token)"
                                                     : "");
    }
    int rc;
    if (!json_is_object(root)) {
        rc = ap_config_fail(err, errlen, "%s:1:1: the config must be a JSON object", label);
    } else {
        ap_config tmp = *c;
        rc = apply_json(&tmp, label, root, err, errlen);
        if (rc == AP_OK)
            *c = tmp;
    }
    json_decref(root);
    return rc;
}

int ap_config_load_file(ap_config *c, const char *path, char *err, size_t errlen)
{
    const char *why;
    if (check_path(path ? path : "", sizeof c->config_file, &why) != 0)
        return ap_config_fail(err, errlen, "config file name %s", why);
    /* O_NONBLOCK: a FIFO with no writer must not hold start-up at open() for ever (it then reads as empty);
     * cleared before reading, so a pipe that has a writer (--config <(...)) is read to its end. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return ap_config_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (f == NULL) {
        int e = errno;
        close(fd);
        return ap_config_fail(err, errlen, "%s: cannot open: %s", path, strerror(e));
    }
    char *buf = malloc(AP_CONFIG_MAX_FILE_BYTES + 1);
    if (buf == NULL) {
        fclose(f);
        return ap_config_fail(err, errlen, "%s: out of memory", path);
    }
    size_t n = fread(buf, 1, AP_CONFIG_MAX_FILE_BYTES + 1, f);
    int rd_err = ferror(f);
    int saved = errno;
    fclose(f);
    int rc;
    if (rd_err)
        rc = ap_config_fail(err, errlen, "%s: read error: %s", path, strerror(saved));
    else if (n > AP_CONFIG_MAX_FILE_BYTES)
        rc = ap_config_fail(err, errlen, "%s: larger than %d bytes", path, AP_CONFIG_MAX_FILE_BYTES);
    else
        rc = ap_config_load_buffer(c, path, buf, n, err, errlen);
    free(buf);
    if (rc == AP_OK)
        snprintf(c->config_file, sizeof c->config_file, "%s", path);
    return rc;
}

/* ---------------------------------------------------------------------------------------------------------
 * Environment */

int ap_config_load_env(ap_config *c, char *err, size_t errlen)
{
    ap_config tmp = *c;
    const char *v, *why;

    if ((v = getenv("ARCPATH_CONFIG")) != NULL) {
        if (check_path(v, sizeof tmp.config_file, &why) != 0)
            return ap_config_fail(err, errlen, "ARCPATH_CONFIG: %s", why);
        snprintf(tmp.config_file, sizeof tmp.config_file, "%s", v);
    }
    if ((v = getenv("ARCPATH_LISTEN")) != NULL &&
        parse_listen(v, tmp.listen_host, &tmp.listen_port, &why) != 0)
        return ap_config_fail(err, errlen, "ARCPATH_LISTEN: %s (got \"%s\")", why, v);
    if ((v = getenv("ARCPATH_MAPS")) != NULL) {
        if (check_path(v, sizeof tmp.maps_dir, &why) != 0)
            return ap_config_fail(err, errlen, "ARCPATH_MAPS: %s", why);
        snprintf(tmp.maps_dir, sizeof tmp.maps_dir, "%s", v);
    }
    if ((v = getenv("ARCPATH_ADMIN_TOKEN")) != NULL) {
        if (check_token(v, &why) != 0)
            return ap_config_fail(err, errlen, "ARCPATH_ADMIN_TOKEN: %s", why);
        snprintf(tmp.admin_token, sizeof tmp.admin_token, "%s", v);
    }
    for (size_t i = 0; i < AP_N_INT_FIELDS; i++) {
        const ap_int_field *f = &ap_int_fields[i];
        long long n;
        if (f->env == NULL || (v = getenv(f->env)) == NULL)
            continue;
        if (parse_ll(v, &n) != 0 || n < f->lo || n > f->hi)
            return ap_config_fail(err, errlen, "%s: must be an integer between %lld and %lld (got \"%s\")", f->env,
                                  f->lo, f->hi, v);
        set_int(&tmp, f, n);
    }
    if ((v = getenv("ARCPATH_ACCESS_LOG")) != NULL) {
        if (strcmp(v, "1") == 0 || strcmp(v, "true") == 0)
            tmp.access_log = true;
        else if (strcmp(v, "0") == 0 || strcmp(v, "false") == 0)
            tmp.access_log = false;
        else
            return ap_config_fail(err, errlen, "ARCPATH_ACCESS_LOG: must be 0, 1, true or false (got \"%s\")", v);
    }
    if ((v = getenv("ARCPATH_INLINE_FAST")) != NULL) {
        if (strcmp(v, "1") == 0 || strcmp(v, "true") == 0)
            tmp.inline_fast = true;
        else if (strcmp(v, "0") == 0 || strcmp(v, "false") == 0)
            tmp.inline_fast = false;
        else
            return ap_config_fail(err, errlen, "ARCPATH_INLINE_FAST: must be 0, 1, true or false (got \"%s\")", v);
    }
    if ((v = getenv("ARCPATH_CORS_ORIGINS")) != NULL && apply_cors_env(&tmp, v, &why) != 0)
        return ap_config_fail(err, errlen, "ARCPATH_CORS_ORIGINS: %s (got \"%.300s\")", why, v);
    *c = tmp;
    return AP_OK;
}

/* ---------------------------------------------------------------------------------------------------------
 * Command line */

/* --help's lines of the integer keys with an environment variable (env) or of the file-only ones. */
static void print_int_fields(FILE *f, bool env)
{
    ap_config d;
    ap_config_defaults(&d);
    for (size_t i = 0; i < AP_N_INT_FIELDS; i++) {
        const ap_int_field *k = &ap_int_fields[i];
        if ((k->env != NULL) == env)
            fprintf(f, "  %-28s %s, %lld..%lld (default %lld)\n", env ? k->env : k->key, k->help, k->lo, k->hi,
                    get_int(&d, k));
    }
}

static void usage(FILE *f)
{
    fputs("usage: arcpathd [options]\n"
          "\n"
          "arcpathd " ARCPATH_VERSION " - path-planning HTTP service: grid, any-angle, turning and kinodynamic paths\n"
          "\n"
          "options:\n"
          "  --listen HOST:PORT  address to listen on (IPv4, localhost or [IPv6]); default 127.0.0.1:8080\n"
          "  --maps DIR          folder of Moving AI .map files (and .circles.json circle worlds) to load;\n"
          "                      default config/maps\n"
          "  --workers N         worker threads = fast-lane workspaces, 1..64; default 2\n"
          "  --config FILE       JSON config file (see config/arcpath.conf)\n"
          "  --check-config      load the config, every map and the preloaded unit profiles, print a report\n"
          "                      (stdout; the effective config as one JSON line on stderr, as at every\n"
          "                      start) and exit, 1 when a map or the memory check failed\n"
          "  -h, --help          print this help and exit\n"
          "  -V, --version       print the version and exit\n"
          "\n"
          "precedence: defaults < config file < environment < command line; a bad value anywhere exits 2\n"
          "(with --check-config too), the message naming the key or variable\n"
          "\n"
          "environment:\n"
          "  ARCPATH_CONFIG               config file (when --config is not given)\n"
          "  ARCPATH_LISTEN               HOST:PORT\n"
          "  ARCPATH_MAPS                 maps folder\n",
          f);
    /* the integer keys from their table, so none is left out */
    print_int_fields(f, true);
    fputs("  ARCPATH_ADMIN_TOKEN          bearer token of the map-changing routes (default none: they are off)\n"
          "  ARCPATH_ACCESS_LOG           0, 1, true or false (default true)\n"
          "  ARCPATH_INLINE_FAST          0, 1, true or false (default true): fast slices on the HTTP thread\n"
          "  ARCPATH_CORS_ORIGINS         origins allowed to call from a browser, comma-separated, or *\n"
          "                               (default none: CORS off)\n"
          "\n"
          "config-file-only keys:\n",
          f);
    print_int_fields(f, false);
    fputs("  profiles, terrain_costs, meters_per_tile, units, capabilities, capability_costs, skip_tables:\n"
          "                               see config/README.md\n",
          f);
}

enum { OPT_LISTEN = 256, OPT_MAPS, OPT_WORKERS, OPT_CONFIG, OPT_CHECK_CONFIG };

int ap_config_load_args(ap_config *c, int argc, char **argv, int *exit_now, char *err, size_t errlen)
{
    static const struct option longopts[] = {
        {"listen", required_argument, NULL, OPT_LISTEN},
        {"maps", required_argument, NULL, OPT_MAPS},
        {"workers", required_argument, NULL, OPT_WORKERS},
        {"config", required_argument, NULL, OPT_CONFIG},
        {"check-config", no_argument, NULL, OPT_CHECK_CONFIG},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    ap_config tmp = *c;
    const char *why;
    int opt;
    *exit_now = 0;
    if (argc < 1 || argv == NULL)
        return AP_OK;
    /* optind = 0 (not 1) makes glibc re-initialise getopt completely, including the position inside a
     * cluster of short options left over from an earlier call that stopped with an error. */
    optind = 0;
    opterr = 0;
    /* '+': stop at the first non-option instead of permuting argv, so stray words are reported below;
     * ':': report a missing argument as ':' rather than '?'. */
    while ((opt = getopt_long(argc, argv, "+:hV", longopts, NULL)) != -1) {
        switch (opt) {
        case OPT_LISTEN:
            if (parse_listen(optarg, tmp.listen_host, &tmp.listen_port, &why) != 0)
                return ap_config_fail(err, errlen, "--listen: %s (got \"%s\")", why, optarg);
            break;
        case OPT_MAPS:
            if (check_path(optarg, sizeof tmp.maps_dir, &why) != 0)
                return ap_config_fail(err, errlen, "--maps: %s", why);
            snprintf(tmp.maps_dir, sizeof tmp.maps_dir, "%s", optarg);
            break;
        case OPT_WORKERS: {
            long long n;
            if (parse_ll(optarg, &n) != 0 || n < 1 || n > 64)
                return ap_config_fail(err, errlen, "--workers: must be an integer between 1 and 64 (got \"%s\")",
                                      optarg);
            tmp.workers = (int)n;
            break;
        }
        case OPT_CONFIG:
            if (check_path(optarg, sizeof tmp.config_file, &why) != 0)
                return ap_config_fail(err, errlen, "--config: %s", why);
            snprintf(tmp.config_file, sizeof tmp.config_file, "%s", optarg);
            break;
        case OPT_CHECK_CONFIG:
            tmp.check_config = true;
            break;
        case 'h':
            usage(stdout);
            fflush(stdout);
            *exit_now = 1;
            return AP_OK;
        case 'V':
            fputs("arcpathd " ARCPATH_VERSION "\n", stdout);
            fflush(stdout);
            *exit_now = 1;
            return AP_OK;
        case ':':
            return ap_config_fail(err, errlen, "option '%s' requires an argument (see --help)", argv[optind - 1]);
        default:
            /* optopt: the short option character; for a long option given an argument it does not take
             * (only possible as --name=X), that option's val ('h' and 'V' for --help and --version, so the
             * argument, not optopt, tells the two cases apart); 0 for an unknown long option. */
            if (optopt > 0 && strncmp(argv[optind - 1], "--", 2) == 0 && strchr(argv[optind - 1], '=') != NULL)
                return ap_config_fail(err, errlen, "option '%s' does not take an argument (see --help)",
                                      argv[optind - 1]);
            if (optopt > 0)
                return ap_config_fail(err, errlen, "unknown option '-%c' (see --help)", optopt);
            if (strncmp(argv[optind - 1], "--", 2) == 0) {
                /* a prefix of two long options ("--c": --config, --check-config) is no unknown option */
                const char *name = argv[optind - 1] + 2;
                const size_t n = strcspn(name, "=");
                char which[96] = "";
                int hits = 0;
                for (const struct option *o = longopts; o->name != NULL; o++)
                    if (n > 0 && strncmp(o->name, name, n) == 0 && strlen(which) + strlen(o->name) + 5 < sizeof which)
                        snprintf(which + strlen(which), sizeof which - strlen(which), "%s--%s", hits++ ? ", " : "",
                                 o->name);
                if (hits > 1)
                    return ap_config_fail(err, errlen, "ambiguous option '%s': %s (see --help)", argv[optind - 1],
                                          which);
            }
            return ap_config_fail(err, errlen, "unknown option '%s' (see --help)", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return ap_config_fail(err, errlen, "unexpected argument '%s' (see --help)", argv[optind]);
    *c = tmp;
    return AP_OK;
}

/* The names of the table kinds in bits (ap_table_kind_skip_bit), in the kinds' order, as a new JSON array. */
static json_t *skip_names(uint32_t bits)
{
    json_t *a = json_array();
    size_t nk;
    const ap_table_kind *const *kinds = ap_table_kinds(&nk);
    for (size_t i = 0; i < nk && i < 32; i++)
        if (bits & (1u << i))
            json_array_append_new(a, json_string(kinds[i]->name));
    return a;
}

/* ---------------------------------------------------------------------------------------------------------
 * Whole chain */

int ap_config_validate(const ap_config *c, char *err, size_t errlen)
{
    if (c->default_deadline_ms > c->max_deadline_ms)
        return ap_config_fail(err, errlen, "default_deadline_ms (%d) must not exceed max_deadline_ms (%d)",
                              c->default_deadline_ms, c->max_deadline_ms);
    return AP_OK;
}

int ap_config_resolve(ap_config *c, int argc, char **argv, int *exit_now, char *err, size_t errlen)
{
    int rc;
    ap_config args;
    ap_config_defaults(c);
    /* The file sits below env and args, yet the args say which file: read them once into a scratch copy
     * just to learn --config (and to handle --help/--version before touching anything else). */
    ap_config_defaults(&args);
    if ((rc = ap_config_load_args(&args, argc, argv, exit_now, err, errlen)) != AP_OK || *exit_now)
        return rc;
    const char *file = args.config_file[0] != '\0' ? args.config_file : getenv("ARCPATH_CONFIG");
    if (file != NULL && file[0] != '\0' && (rc = ap_config_load_file(c, file, err, errlen)) != AP_OK)
        return rc;
    if ((rc = ap_config_load_env(c, err, errlen)) != AP_OK)
        return rc;
    if ((rc = ap_config_load_args(c, argc, argv, exit_now, err, errlen)) != AP_OK)
        return rc;
    return ap_config_validate(c, err, errlen);
}

void ap_config_print(const ap_config *c, void *file)
{
    FILE *f = file;
    char listen[96];
    if (strchr(c->listen_host, ':') != NULL)
        snprintf(listen, sizeof listen, "[%s]:%u", c->listen_host, (unsigned)c->listen_port);
    else
        snprintf(listen, sizeof listen, "%s:%u", c->listen_host, (unsigned)c->listen_port);
    json_t *o = json_object();
    json_object_set_new(o, "listen", json_string(listen));
    json_object_set_new(o, "maps", json_string(c->maps_dir));
    for (size_t i = 0; i < AP_N_INT_FIELDS; i++)
        json_object_set_new(o, ap_int_fields[i].key, json_integer(get_int(c, &ap_int_fields[i])));
    json_object_set_new(o, "access_log", json_boolean(c->access_log));
    json_object_set_new(o, "inline_fast", json_boolean(c->inline_fast));
    /* admin_token is never printed (the server logs only whether one is set). */
    json_t *profiles = json_array();
    for (size_t i = 0; i < c->n_profiles; i++) {
        const ap_config_profile *p = &c->profiles[i];
        json_array_append_new(profiles, json_pack("{s:f, s:f, s:i, s:i, s:b}", "radius", p->radius, "turning_radius",
                                                  p->turning_radius, "headings", p->headings, "neighbourhood",
                                                  p->neighbourhood, "reverse", (int)p->reverse));
    }
    json_object_set_new(o, "profiles", profiles);
    json_t *terrain = json_object();
    for (size_t i = 0; i < c->n_terrain; i++) {
        json_t *costs = json_object();
        for (int k = 0; k < AP_TERRAIN_KINDS; k++)
            if (c->terrain[i].cost[k] != 0.0)
                json_object_set_new(costs, (char[]){AP_TERRAIN_CHARS[k], '\0'}, json_real(c->terrain[i].cost[k]));
        json_object_set_new(terrain, c->terrain[i].map_id, costs);
    }
    json_object_set_new(o, "terrain_costs", terrain);
    json_t *scales = json_object();
    for (size_t i = 0; i < c->n_scales; i++)
        json_object_set_new(scales, c->scales[i].map_id, json_real(c->scales[i].meters_per_tile));
    json_object_set_new(o, "meters_per_tile", scales);
    ap_config_print_units(c, o);
    json_t *cors = json_array();
    for (size_t i = 0; i < c->n_cors_origins; i++)
        json_array_append_new(cors, json_string(c->cors_origins[i]));
    json_object_set_new(o, "cors_origins", cors);
    json_t *skip = skip_names(c->skip_tables);
    if (c->n_skips > 0) { /* the per-map form as given */
        json_decref(skip);
        skip = json_object();
        for (size_t i = 0; i < c->n_skips; i++)
            json_object_set_new(skip, c->skips[i].map_id, skip_names(c->skips[i].tables));
    }
    json_object_set_new(o, "skip_tables", skip);
    json_object_set_new(o, "config_file", json_string(c->config_file));
    json_object_set_new(o, "check_config", json_boolean(c->check_config));
    /* Paths that are not valid UTF-8 make json_string fail and the key go missing; the line is still
     * valid JSON, which matters more to log shippers than the missing key. Numbers in 16 significant digits:
     * jansson's 17 printed a configured radius of 0.3 as 0.29999999999999999; 16 give back every value typed
     * with up to 16 digits. */
    json_dumpf(o, f, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(16));
    fputc('\n', f);
    fflush(f);
    json_decref(o);
}
