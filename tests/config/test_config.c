/* test_config.c — defaults, the JSON file, ARCPATH_* variables, getopt_long options, their precedence, and
 * an error naming the culprit for every bad value. setenv/unsetenv do not leak between tests: the checked
 * fixture clean_env unsets every ARCPATH_* variable before each one (under AddressSanitizer the tests share
 * one process, tests/runner.h). */
#include "tests/check_fast.h"
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "config/units.h"
#include "config/version.h"
#include "planner/base/status.h"
#include "planner/world/map.h"
#include "planner/world/tables.h"
#include "tests/config/suites.h"
#include "tests/util.h"

/* Every variable config.c reads (--help must name each one). */
static const char *const all_env[] = {
    "ARCPATH_ACCESS_LOG",          "ARCPATH_ADMIN_TOKEN",
    "ARCPATH_CONFIG",              "ARCPATH_CORS_ORIGINS",
    "ARCPATH_DEFAULT_DEADLINE_MS", "ARCPATH_DRAIN_TIMEOUT_MS",
    "ARCPATH_FAST_BUDGET",         "ARCPATH_FAST_QUEUE",
    "ARCPATH_HTTP_THREADS",        "ARCPATH_IDLE_TIMEOUT_S",
    "ARCPATH_INLINE_FAST",         "ARCPATH_LISTEN",
    "ARCPATH_MAPS",                "ARCPATH_MAX_ANSWER_BYTES",
    "ARCPATH_MAX_BATCH",           "ARCPATH_MAX_BODY_BYTES",
    "ARCPATH_MAX_CONNECTIONS",     "ARCPATH_MAX_CONNECTIONS_PER_IP",
    "ARCPATH_MAX_DEADLINE_MS",     "ARCPATH_MAX_MAP_UPLOAD_BYTES",
    "ARCPATH_MAX_SAMPLES",         "ARCPATH_MAX_WORKSPACE_CELLS",
    "ARCPATH_POOL_NICE",           "ARCPATH_PROFILE_EVICTIONS_PER_MINUTE",
    "ARCPATH_REQUEST_TIMEOUT_MS",  "ARCPATH_SLOW_QUEUE",
    "ARCPATH_SLOW_SLICE",          "ARCPATH_SLOW_SLOTS",
    "ARCPATH_WORKERS",
};

extern char **environ;

/* Unset every ARCPATH_* variable (the caller's shell may set any, listed above or not). */
static void clean_env(void)
{
    for (;;) {
        char name[128] = "";
        for (char **e = environ; *e != NULL && name[0] == 0; e++) {
            const char *eq = strchr(*e, '=');
            if (strncmp(*e, "ARCPATH_", 8) == 0 && eq != NULL && (size_t)(eq - *e) < sizeof name)
                memcpy(name, *e, (size_t)(eq - *e));
        }
        if (name[0] == 0)
            return;
        unsetenv(name);
    }
}

/* A temp file holding text; returns its malloc'd path (caller unlinks and frees). */
static char *temp_file(const char *text)
{
    char *path = ap_test_temp_file("arcpath-config-test", text);
    ck_assert_ptr_nonnull(path);
    return path;
}

static void drop_file(char *path)
{
    unlink(path);
    free(path);
}

/* Every setting (not the provenance fields config_file / check_config) equal. */
static void assert_same_settings(const ap_config *a, const ap_config *b)
{
    ck_assert_str_eq(a->listen_host, b->listen_host);
    ck_assert_uint_eq(a->listen_port, b->listen_port);
    ck_assert_str_eq(a->maps_dir, b->maps_dir);
    ck_assert_int_eq(a->workers, b->workers);
    ck_assert_int_eq(a->slow_slots, b->slow_slots);
    ck_assert_int_eq(a->fast_queue, b->fast_queue);
    ck_assert_int_eq(a->slow_queue, b->slow_queue);
    ck_assert_uint_eq(a->fast_budget, b->fast_budget);
    ck_assert_uint_eq(a->slow_slice, b->slow_slice);
    ck_assert_int_eq(a->default_deadline_ms, b->default_deadline_ms);
    ck_assert_int_eq(a->max_deadline_ms, b->max_deadline_ms);
    ck_assert_uint_eq(a->max_body_bytes, b->max_body_bytes);
    ck_assert_int_eq(a->max_map_width, b->max_map_width);
    ck_assert_int_eq(a->max_map_height, b->max_map_height);
    ck_assert_int_eq(a->max_map_cells, b->max_map_cells);
    ck_assert_uint_eq(a->max_samples, b->max_samples);
    ck_assert_int_eq(a->drain_timeout_ms, b->drain_timeout_ms);
    ck_assert_int_eq(a->access_log, b->access_log);
    ck_assert_int_eq(a->max_connections, b->max_connections);
    ck_assert_int_eq(a->max_connections_per_ip, b->max_connections_per_ip);
    ck_assert_int_eq(a->idle_timeout_s, b->idle_timeout_s);
    ck_assert_int_eq(a->request_timeout_ms, b->request_timeout_ms);
    ck_assert_int_eq(a->profile_evictions_per_minute, b->profile_evictions_per_minute);
    ck_assert_uint_eq(a->n_profiles, b->n_profiles);
    for (size_t i = 0; i < a->n_profiles; i++) {
        ck_assert_double_eq(a->profiles[i].radius, b->profiles[i].radius);
        ck_assert_double_eq(a->profiles[i].turning_radius, b->profiles[i].turning_radius);
        ck_assert_int_eq(a->profiles[i].headings, b->profiles[i].headings);
        ck_assert_int_eq(a->profiles[i].neighbourhood, b->profiles[i].neighbourhood);
        ck_assert_int_eq(a->profiles[i].reverse, b->profiles[i].reverse);
    }
    ck_assert_uint_eq(a->n_cors_origins, b->n_cors_origins);
    for (size_t i = 0; i < a->n_cors_origins; i++)
        ck_assert_str_eq(a->cors_origins[i], b->cors_origins[i]);
    ck_assert_uint_eq(a->n_terrain, b->n_terrain);
    for (size_t i = 0; i < a->n_terrain; i++) {
        ck_assert_str_eq(a->terrain[i].map_id, b->terrain[i].map_id);
        for (int k = 0; k < AP_TERRAIN_KINDS; k++)
            ck_assert_double_eq(a->terrain[i].cost[k], b->terrain[i].cost[k]);
    }
    ck_assert_uint_eq(a->n_scales, b->n_scales);
    for (size_t i = 0; i < a->n_scales; i++) {
        ck_assert_str_eq(a->scales[i].map_id, b->scales[i].map_id);
        ck_assert_double_eq(a->scales[i].meters_per_tile, b->scales[i].meters_per_tile);
    }
    ck_assert_uint_eq(a->n_units, b->n_units);
    for (size_t i = 0; i < a->n_units; i++) {
        ck_assert_str_eq(a->units[i].name, b->units[i].name);
        ck_assert_uint_eq(a->units[i].has, b->units[i].has);
        ck_assert_double_eq(a->units[i].radius, b->units[i].radius);
        ck_assert_int_eq(a->units[i].size, b->units[i].size);
        ck_assert_uint_eq(a->units[i].capability, b->units[i].capability);
        ck_assert_double_eq(a->units[i].turning_radius, b->units[i].turning_radius);
        ck_assert(a->units[i].turning_metres == b->units[i].turning_metres);
    }
    ck_assert_uint_eq(a->n_capabilities, b->n_capabilities);
    ck_assert_mem_eq(a->capabilities, b->capabilities, a->n_capabilities);
    ck_assert_uint_eq(a->n_cap_costs, b->n_cap_costs);
    for (size_t i = 0; i < a->n_cap_costs; i++) {
        ck_assert_uint_eq(a->cap_costs[i].capability, b->cap_costs[i].capability);
        for (int k = 0; k < AP_TERRAIN_KINDS; k++)
            ck_assert_double_eq(a->cap_costs[i].cost[k], b->cap_costs[i].cost[k]);
    }
}

static int load_str(ap_config *c, const char *text, char *err, size_t errlen)
{
    return ap_config_load_buffer(c, "test.conf", text, strlen(text), err, errlen);
}

/* Run ap_config_load_args on a NULL-terminated word list (argv[0] prepended). */
static int args(ap_config *c, int *exit_now, char *err, size_t errlen, ...)
{
    char *argv[32];
    int argc = 0;
    va_list ap;
    argv[argc++] = "arcpathd";
    va_start(ap, errlen);
    for (char *w; (w = va_arg(ap, char *)) != NULL && argc < 31;)
        argv[argc++] = w;
    va_end(ap);
    argv[argc] = NULL;
    return ap_config_load_args(c, argc, argv, exit_now, err, errlen);
}

START_TEST(defaults)
{
    ap_config c;
    ap_config_defaults(&c);
    ck_assert_str_eq(c.listen_host, "127.0.0.1");
    ck_assert_uint_eq(c.listen_port, 8080);
    ck_assert_str_eq(c.maps_dir, "config/maps");
    ck_assert_int_eq(c.workers, 2);
    ck_assert_int_eq(c.slow_slots, 4);
    ck_assert_int_eq(c.fast_queue, 1024);
    ck_assert_int_eq(c.slow_queue, 64);
    ck_assert_uint_eq(c.fast_budget, 2000);
    ck_assert_uint_eq(c.slow_slice, 2000);
    ck_assert_int_eq(c.default_deadline_ms, 5000);
    ck_assert_int_eq(c.max_deadline_ms, 60000);
    ck_assert_uint_eq(c.max_body_bytes, 65536);
    ck_assert_int_eq(c.max_map_width, 4096);
    ck_assert_int_eq(c.max_map_height, 4096);
    ck_assert_int_eq(c.max_map_cells, 16777216);
    ck_assert_uint_eq(c.max_samples, 100000);
    ck_assert_int_eq(c.drain_timeout_ms, 10000);
    ck_assert_int_eq(c.max_connections, 512);
    ck_assert_int_eq(c.max_connections_per_ip, 64);
    ck_assert_int_eq(c.idle_timeout_s, 30);
    ck_assert_int_eq(c.request_timeout_ms, 10000);
    ck_assert_int_eq(c.profile_evictions_per_minute, 6);
    ck_assert_uint_eq(c.n_cors_origins, 0);
    ck_assert(c.access_log);
    ck_assert_str_eq(c.config_file, "");
    ck_assert(!c.check_config);
    char err[256];
    ck_assert_int_eq(ap_config_validate(&c, err, sizeof err), AP_OK);
}
END_TEST

START_TEST(shipped_config_is_the_defaults)
{
    ap_config c, d;
    char err[512] = "";
    ap_config_defaults(&d);
    /* start from something else so that every key in the file must be there to get back to the defaults */
    ap_config_defaults(&c);
    ck_assert_int_eq(load_str(&c, "{\"listen\":\"10.0.0.1:1\",\"maps\":\"x\",\"workers\":9,\"slow_slots\":9,"
                                  "\"fast_queue\":9,\"slow_queue\":9,\"fast_budget\":999,\"slow_slice\":999,"
                                  "\"default_deadline_ms\":9,\"max_deadline_ms\":9,\"max_body_bytes\":9999,"
                                  "\"max_map_width\":9,\"max_map_height\":9,\"max_map_cells\":9,"
                                  "\"max_samples\":9,\"drain_timeout_ms\":9,\"access_log\":false,"
                                  "\"profiles\":[{\"turning_radius\":2}],\"terrain_costs\":{\"*\":{\"S\":2}},"
                                  "\"meters_per_tile\":{\"*\":3}}",
                              err, sizeof err),
                     AP_OK);
    ck_assert_msg(ap_config_load_file(&c, "config/arcpath.conf", err, sizeof err) == AP_OK, "%s", err);
    assert_same_settings(&c, &d);
    ck_assert_str_eq(c.config_file, "config/arcpath.conf");

    /* and it spells out every key: the effective config's keys are the file's (less the two that are not
     * settings: the file's own name and --check-config) */
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ap_config_print(&d, f);
    fclose(f);
    json_error_t je;
    json_t *eff = json_loads(buf, 0, &je), *file = json_load_file("config/arcpath.conf", 0, &je);
    ck_assert_ptr_nonnull(eff);
    ck_assert_msg(file != NULL, "config/arcpath.conf: %s", je.text);
    const char *key;
    json_t *v;
    json_object_foreach(eff, key, v) {
        if (strcmp(key, "config_file") != 0 && strcmp(key, "check_config") != 0)
            ck_assert_msg(json_object_get(file, key) != NULL, "config/arcpath.conf has no \"%s\"", key);
    }
    json_object_foreach(file, key, v) {
        ck_assert_msg(json_object_get(eff, key) != NULL, "config/arcpath.conf: \"%s\" is not a setting", key);
    }
    json_decref(eff);
    json_decref(file);
    free(buf);
}
END_TEST

START_TEST(file_values_applied)
{
    ap_config c;
    char err[512] = "";
    ap_config_defaults(&c);
    int rc = load_str(&c,
                      "{\"listen\": \"0.0.0.0:9090\", \"maps\": \"/srv/maps\", \"workers\": 64, \"slow_slots\": 1,\n"
                      " \"fast_queue\": 1000000, \"slow_queue\": 100000, \"fast_budget\": 100,\n"
                      " \"slow_slice\": 100000000, \"default_deadline_ms\": 1, \"max_deadline_ms\": 600000,\n"
                      " \"max_body_bytes\": 67108864, \"max_map_width\": 65536, \"max_map_height\": 1,\n"
                      " \"max_map_cells\": 1073741824, \"max_samples\": 10000000, \"drain_timeout_ms\": 0,\n"
                      " \"access_log\": false}",
                      err, sizeof err);
    ck_assert_msg(rc == AP_OK, "%s", err);
    ck_assert_str_eq(c.listen_host, "0.0.0.0");
    ck_assert_uint_eq(c.listen_port, 9090);
    ck_assert_str_eq(c.maps_dir, "/srv/maps");
    ck_assert_int_eq(c.workers, 64);
    ck_assert_int_eq(c.slow_slots, 1);
    ck_assert_int_eq(c.fast_queue, 1000000);
    ck_assert_int_eq(c.slow_queue, 100000);
    ck_assert_uint_eq(c.fast_budget, 100);
    ck_assert_uint_eq(c.slow_slice, 100000000);
    ck_assert_int_eq(c.default_deadline_ms, 1);
    ck_assert_int_eq(c.max_deadline_ms, 600000);
    ck_assert_uint_eq(c.max_body_bytes, 67108864);
    ck_assert_int_eq(c.max_map_width, 65536);
    ck_assert_int_eq(c.max_map_height, 1);
    ck_assert_int_eq(c.max_map_cells, 1073741824);
    ck_assert_uint_eq(c.max_samples, 10000000);
    ck_assert_int_eq(c.drain_timeout_ms, 0);
    ck_assert(!c.access_log);

    ck_assert_int_eq(load_str(&c, "{\"listen\": \"localhost:1\"}", err, sizeof err), AP_OK);
    ck_assert_str_eq(c.listen_host, "localhost");
    ck_assert_uint_eq(c.listen_port, 1);
    ck_assert_int_eq(load_str(&c, "{\"listen\": \"[::1]:65535\"}", err, sizeof err), AP_OK);
    ck_assert_str_eq(c.listen_host, "::1");
    ck_assert_uint_eq(c.listen_port, 65535);
    ck_assert_int_eq(load_str(&c, "{}", err, sizeof err), AP_OK);
    ck_assert_str_eq(c.listen_host, "::1"); /* an empty file changes nothing */
}
END_TEST

/* Bad values in a file: the message must start with "test.conf: " and name the key. */
static const struct {
    const char *json;
    const char *key;
} bad_file[] = {
    {"{\"workers\": 0}", "\"workers\""},
    {"{\"workers\": 65}", "\"workers\""},
    {"{\"workers\": \"2\"}", "\"workers\""},
    {"{\"workers\": 2.0}", "\"workers\""},
    {"{\"workers\": null}", "\"workers\""},
    {"{\"slow_slots\": 0}", "\"slow_slots\""},
    {"{\"slow_slots\": 65}", "\"slow_slots\""},
    {"{\"fast_queue\": 0}", "\"fast_queue\""},
    {"{\"fast_queue\": 1000001}", "\"fast_queue\""},
    {"{\"slow_queue\": 0}", "\"slow_queue\""},
    {"{\"slow_queue\": 100001}", "\"slow_queue\""},
    {"{\"fast_budget\": 99}", "\"fast_budget\""},
    {"{\"fast_budget\": 100000001}", "\"fast_budget\""},
    {"{\"slow_slice\": 99}", "\"slow_slice\""},
    {"{\"slow_slice\": -20000}", "\"slow_slice\""},
    {"{\"default_deadline_ms\": 0}", "\"default_deadline_ms\""},
    {"{\"default_deadline_ms\": 600001}", "\"default_deadline_ms\""},
    {"{\"max_deadline_ms\": 0}", "\"max_deadline_ms\""},
    {"{\"max_deadline_ms\": 600001}", "\"max_deadline_ms\""},
    {"{\"max_body_bytes\": 1023}", "\"max_body_bytes\""},
    {"{\"max_body_bytes\": 67108865}", "\"max_body_bytes\""},
    {"{\"max_map_width\": 0}", "\"max_map_width\""},
    {"{\"max_map_width\": 65537}", "\"max_map_width\""},
    {"{\"max_map_height\": 0}", "\"max_map_height\""},
    {"{\"max_map_height\": 65537}", "\"max_map_height\""},
    {"{\"max_map_cells\": 0}", "\"max_map_cells\""},
    {"{\"max_map_cells\": 1073741825}", "\"max_map_cells\""},
    {"{\"max_samples\": 0}", "\"max_samples\""},
    {"{\"max_samples\": 10000001}", "\"max_samples\""},
    {"{\"drain_timeout_ms\": -1}", "\"drain_timeout_ms\""},
    {"{\"drain_timeout_ms\": 600001}", "\"drain_timeout_ms\""},
    {"{\"max_connections\": 0}", "\"max_connections\""},
    {"{\"max_connections\": 100001}", "\"max_connections\""},
    {"{\"max_connections_per_ip\": 0}", "\"max_connections_per_ip\""},
    {"{\"profile_evictions_per_minute\": -1}", "\"profile_evictions_per_minute\""},
    {"{\"idle_timeout_s\": 0}", "\"idle_timeout_s\""},
    {"{\"idle_timeout_s\": 3601}", "\"idle_timeout_s\""},
    {"{\"request_timeout_ms\": 99}", "\"request_timeout_ms\""},
    {"{\"request_timeout_ms\": 600001}", "\"request_timeout_ms\""},
    {"{\"access_log\": 1}", "\"access_log\""},
    {"{\"access_log\": \"true\"}", "\"access_log\""},
    {"{\"listen\": 8080}", "\"listen\""},
    {"{\"listen\": \"8080\"}", "\"listen\""},
    {"{\"listen\": \"1.2.3.4\"}", "\"listen\""},
    {"{\"listen\": \"example.com:80\"}", "\"listen\""},
    {"{\"listen\": \"256.1.1.1:80\"}", "\"listen\""},
    {"{\"listen\": \"1.2.3.4:0\"}", "\"listen\""},
    {"{\"listen\": \"1.2.3.4:65536\"}", "\"listen\""},
    {"{\"listen\": \"1.2.3.4:\"}", "\"listen\""},
    {"{\"listen\": \"1.2.3.4:80x\"}", "\"listen\""},
    {"{\"listen\": \"1.2.3.4: 80\"}", "\"listen\""},
    {"{\"listen\": \":80\"}", "\"listen\""},
    {"{\"listen\": \"[::1]\"}", "\"listen\""},
    {"{\"listen\": \"[::1]8080\"}", "\"listen\""},
    {"{\"listen\": \"[1.2.3.4]:80\"}", "\"listen\""},
    {"{\"maps\": \"\"}", "\"maps\""},
    {"{\"maps\": 5}", "\"maps\""},
    {"{\"profiles\": {}}", "\"profiles\""},
    {"{\"profiles\": [5]}", "\"profiles[0]\""},
    {"{\"profiles\": [{\"radius\": 0.3}]}", "\"profiles[0].turning_radius\""},
    {"{\"profiles\": [{\"turning_radius\": 2}, {\"turning_radius\": 0}]}", "\"profiles[1].turning_radius\""},
    {"{\"profiles\": [{\"turning_radius\": 64.5}]}", "\"profiles[0].turning_radius\""},
    {"{\"profiles\": [{\"turning_radius\": 0.000999}]}", "\"profiles[0].turning_radius\": must be a number between 0.001"},
    {"{\"profiles\": [{\"turning_radius\": \"2\"}]}", "\"profiles[0].turning_radius\""},
    {"{\"profiles\": [{\"turning_radius\": 2, \"radius\": -0.1}]}", "\"profiles[0].radius\""},
    {"{\"profiles\": [{\"turning_radius\": 2, \"radius\": 16.5}]}", "\"profiles[0].radius\""},
    {"{\"profiles\": [{\"turning_radius\": 2}, {\"turning_radius\": 2, \"headings\": 12}]}",
     "\"profiles[1].headings\""},
    {"{\"profiles\": [{\"turning_radius\": 2, \"neighbourhood\": 16}]}", "\"profiles[0].neighbourhood\""},
    {"{\"profiles\": [{\"turning_radius\": 2, \"neighbourhood\": 24.5}]}", "\"profiles[0].neighbourhood\""},
    {"{\"profiles\": [{\"turning_radius\": 2, \"reverse\": 1}]}", "\"profiles[0].reverse\""},
    {"{\"profiles\": [{\"turning_radius\": 2, \"speed\": 1}]}", "\"profiles[0].speed\": unknown key"},
    {"{\"profiles\": [{\"turning_radius\": 1}, {\"turning_radius\": 1}, {\"turning_radius\": 1}, "
     "{\"turning_radius\": 1}, {\"turning_radius\": 1}, {\"turning_radius\": 1}, {\"turning_radius\": 1}, "
     "{\"turning_radius\": 1}, {\"turning_radius\": 1}, {\"turning_radius\": 1}, {\"turning_radius\": 1}, "
     "{\"turning_radius\": 1}, {\"turning_radius\": 1}, {\"turning_radius\": 1}, {\"turning_radius\": 1}, "
     "{\"turning_radius\": 1}, {\"turning_radius\": 1}]}",
     "at most 16"},
    {"{\"terrain_costs\": []}", "\"terrain_costs\""},
    {"{\"meters_per_tile\": 2}", "\"meters_per_tile\": must be an object"},
    {"{\"meters_per_tile\": {\"den520d\": 0}}", "\"meters_per_tile.den520d\": must be a number in [1e-06, 1000]"},
    {"{\"meters_per_tile\": {\"den520d\": 9.99e-7}}", "\"meters_per_tile.den520d\""},
    {"{\"meters_per_tile\": {\"den520d\": 5e-324}}", "\"meters_per_tile.den520d\""},
    {"{\"meters_per_tile\": {\"den520d\": -1}}", "\"meters_per_tile.den520d\""},
    {"{\"meters_per_tile\": {\"den520d\": 1000.5}}", "\"meters_per_tile.den520d\""},
    {"{\"meters_per_tile\": {\"*\": \"2\"}}", "\"meters_per_tile.*\""},
    {"{\"meters_per_tile\": {\"a/b\": 2}}", "\"meters_per_tile\": \"a/b\" is not a map id"},
    {"{\"terrain_costs\": {\"den520d\": 3}}", "\"terrain_costs.den520d\""},
    {"{\"terrain_costs\": {\"den520d\": {\"S\": 0.5}}}", "\"terrain_costs.den520d.S\""},
    {"{\"terrain_costs\": {\"den520d\": {\"S\": 1001}}}", "\"terrain_costs.den520d.S\""},
    {"{\"terrain_costs\": {\"den520d\": {\"W\": \"3\"}}}", "\"terrain_costs.den520d.W\""},
    {"{\"terrain_costs\": {\"den520d\": {\"@\": 3}}}", "\"terrain_costs.den520d.@\": not a terrain"},
    {"{\"terrain_costs\": {\"den520d\": {\"SW\": 3}}}", "\"terrain_costs.den520d.SW\""},
    {"{\"terrain_costs\": {\"a/b\": {\"S\": 3}}}", "\"a/b\" is not a map id"},
    {"{\"terrain_costs\": {\"\": {\"S\": 3}}}", "is not a map id"},
    {"{\"units\": []}", "\"units\": must be an object"},
    {"{\"units\": {\"tank\": 3}}", "\"units.tank\": must be an object"},
    {"{\"units\": {\"a b\": {}}}", "\"a b\" is not a unit kind name"},
    {"{\"units\": {\"tank\": {\"radius\": 17}}}", "\"units.tank.radius\": must be a number in [0, 16]"},
    {"{\"units\": {\"tank\": {\"capability\": [\"ground\", \"lava\"]}}}", "\"units.tank.capability[1]\": must be one of"},
    {"{\"units\": {\"tank\": {\"capability\": []}}}", "\"units.tank.capability\": must be a non-empty array"},
    {"{\"units\": {\"tank\": {\"size\": 0}}}", "\"units.tank.size\": must be an integer in [1, 64]"},
    {"{\"units\": {\"tank\": {\"size\": 2, \"radius\": 1}}}", "\"units.tank\": give \"size\""},
    {"{\"units\": {\"tank\": {\"speed\": 2}}}", "\"units.tank.speed\": unknown key"},
    {"{\"units\": {\"van\": {\"turning_radius\": 1e-9}}}", "\"units.van.turning_radius\": must be 0 or a number in [0.001, 64]"},
    {"{\"units\": {\"van\": {\"turning_radius\": 2, \"turning_radius_m\": 4}}}",
     "\"units.van.turning_radius_m\": give \"turning_radius\" (tiles) or \"turning_radius_m\" (metres), not both"},
    {"{\"units\": {\"van\": {\"turning_radius_m\": -1}}}", "\"units.van.turning_radius_m\": must be a number in [0, 64000]"},
    {"{\"units\": {\"van\": {\"max_reverse_speed\": 0}}}", "\"units.van.max_reverse_speed\": must be a number in [0.001, 1000]"},
    {"{\"units\": {\"van\": {\"max_turn_rate\": 101}}}", "\"units.van.max_turn_rate\": must be a number in [0.001, 100]"},
    {"{\"capabilities\": [[\"water\"], \"ground\"]}", "\"capabilities[1]\": must be a non-empty array"},
    {"{\"capabilities\": [[\"water\"], [\"ground\"], [\"water\"]]}",
     "\"capabilities[2]\": the same capability as \"capabilities[0]\""},
    {"{\"units\": {\"crate\": {\"size\": 2, \"turning_radius_m\": 5}}}",
     "\"units.crate\": a square unit (\"size\") has no \"turning_radius_m\" (it must be 0)"},
    {"{\"capability_costs\": {\"lava\": {\"S\": 2}}}", "\"lava\" is not a capability"},
    {"{\"capability_costs\": {\"water\": {\"S\": 2}}}", "\"capability_costs.water.S\": not a terrain of this capability"},
    {"{\"capability_costs\": {\"water\": {\"W\": 0.5}}}", "\"capability_costs.water.W\": must be a number in [1, 1000]"},
    {"{\"capability_costs\": {\"ground+swamp\": {}, \"swamp+ground\": {}}}",
     "the same capability as \"capability_costs.ground+swamp\""},
    /* the earlier key as written, not as the capability's name (it read "the same capability as" itself) */
    {"{\"capability_costs\": {\"water+ground\": {}, \"ground+water\": {}}}",
     "\"capability_costs.ground+water\": the same capability as \"capability_costs.water+ground\""},
    {"{\"cors_origins\": \"*\"}", "\"cors_origins\": must be an array"},
    {"{\"cors_origins\": [5]}", "\"cors_origins[0]\": must be a string"},
    {"{\"cors_origins\": [\"\"]}", "\"cors_origins[0]\": an origin is empty"},
    {"{\"cors_origins\": [\"ftp://a.example\"]}", "\"cors_origins[0]\": must start with http:// or https://"},
    {"{\"cors_origins\": [\"https://a.example/\"]}", "\"cors_origins[0]\": must be scheme://host[:port]"},
    {"{\"cors_origins\": [\"https://a.example/app\"]}", "\"cors_origins[0]\": must be scheme://host[:port]"},
    {"{\"cors_origins\": [\"https://A.example\"]}", "\"cors_origins[0]\": has a host that is not lowercase"},
    {"{\"cors_origins\": [\"https://a.Example\"]}", "\"cors_origins[0]\": must be scheme://host[:port]"},
    {"{\"cors_origins\": [\"https://\"]}", "\"cors_origins[0]\": has no host"},
    {"{\"cors_origins\": [\"http://a.example:0\"]}", "\"cors_origins[0]\": has a port"},
    {"{\"cors_origins\": [\"http://a.example:65536\"]}", "\"cors_origins[0]\": has a port"},
    {"{\"cors_origins\": [\"http://a.example:\"]}", "\"cors_origins[0]\": has a port"},
    {"{\"cors_origins\": [\"http://[::1\"]}", "\"cors_origins[0]\": has a malformed [IPv6] host"},
    /* entries a browser never sends, which would never match (taken before, a helper) */
    {"{\"cors_origins\": [\"http://[:::::]\"]}", "\"cors_origins[0]\": has a malformed [IPv6] host"},
    {"{\"cors_origins\": [\"http://a:0080\"]}", "\"cors_origins[0]\": has a port with a leading zero"},
    {"{\"cors_origins\": [\"http://a:80\"]}", "\"cors_origins[0]\": names the scheme's default port"},
    {"{\"cors_origins\": [\"https://a:443\"]}", "\"cors_origins[0]\": names the scheme's default port"},
    {"{\"cors_origins\": [\"null\"]}", "\"cors_origins[0]\": must start with"},
    {"{\"cors_origins\": [\"https://a.example\", \"*\"]}", "\"cors_origins[1]\": \"*\" must be the only entry"},
    {"{\"cors_origins\": [\"*\", \"https://a.example\"]}", "\"cors_origins[1]\": \"*\" must be the only entry"},
    {"{\"cors_origins\": [\"https://a.example\", \"https://a.example\"]}", "\"cors_origins[1]\": an origin is listed twice"},
    {"{\"cors_origins\": [\"http://a1\", \"http://a2\", \"http://a3\", \"http://a4\", \"http://a5\", \"http://a6\", "
     "\"http://a7\", \"http://a8\", \"http://a9\", \"http://a10\", \"http://a11\", \"http://a12\", \"http://a13\", "
     "\"http://a14\", \"http://a15\", \"http://a16\", \"http://a17\"]}",
     "\"cors_origins[16]\": at most 16 origins"},
    {"{\"foo\": 1}", "\"foo\": unknown key"},
    {"{\"Workers\": 2}", "\"Workers\": unknown key"},
    {"{\"workers\": 3, \"bogus\": true}", "\"bogus\": unknown key"},
};

START_TEST(bad_file_value_is_named)
{
    ap_config c, d;
    char err[512] = "";
    ap_config_defaults(&c);
    ap_config_defaults(&d);
    ck_assert_int_eq(load_str(&c, bad_file[_i].json, err, sizeof err), AP_E_CONFIG);
    ck_assert_msg(strncmp(err, "test.conf: ", 11) == 0 && strstr(err, bad_file[_i].key) != NULL,
                  "%s: message \"%s\" does not name %s", bad_file[_i].json, err, bad_file[_i].key);
    assert_same_settings(&c, &d); /* all or nothing */
}
END_TEST

/* A message is one line whatever the file held: control characters in a key are printed as '?'. */
START_TEST(control_characters_in_messages)
{
    ap_config c;
    char err[512] = "";
    ap_config_defaults(&c);
    ck_assert_int_eq(load_str(&c, "{\"work\\ners\\u0007\": 2}", err, sizeof err), AP_E_CONFIG);
    ck_assert_msg(strcmp(err, "test.conf: \"work?ers?\": unknown key") == 0, "%s", err);
}
END_TEST

START_TEST(profiles_parsed)
{
    ap_config c;
    char err[512] = "";
    ap_config_defaults(&c);
    ck_assert_uint_eq(c.n_profiles, 0);
    ck_assert_msg(load_str(&c,
                           "{\"profiles\": [{\"turning_radius\": 2},"
                           " {\"radius\": 0.45, \"turning_radius\": 4, \"headings\": 16, \"neighbourhood\": 48,"
                           " \"reverse\": true}]}",
                           err, sizeof err) == AP_OK,
                  "%s", err);
    ck_assert_uint_eq(c.n_profiles, 2);
    /* defaults: radius 0, 8 headings, Directional24, forward only */
    ck_assert_double_eq(c.profiles[0].radius, 0.0);
    ck_assert_double_eq(c.profiles[0].turning_radius, 2.0);
    ck_assert_int_eq(c.profiles[0].headings, 8);
    ck_assert_int_eq(c.profiles[0].neighbourhood, 24);
    ck_assert(!c.profiles[0].reverse);
    ck_assert_double_eq(c.profiles[1].radius, 0.45);
    ck_assert_double_eq(c.profiles[1].turning_radius, 4.0);
    ck_assert_int_eq(c.profiles[1].headings, 16);
    ck_assert_int_eq(c.profiles[1].neighbourhood, 48);
    ck_assert(c.profiles[1].reverse);
    /* a later source replaces the list; an empty list clears it; a failed load leaves it alone */
    ck_assert_int_eq(load_str(&c, "{\"profiles\": [{\"turning_radius\": 1, \"neighbourhood\": 8}]}", err, sizeof err),
                     AP_OK);
    ck_assert_uint_eq(c.n_profiles, 1);
    ck_assert_int_eq(c.profiles[0].neighbourhood, 8);
    ck_assert_int_eq(load_str(&c, "{\"profiles\": [{\"turning_radius\": 3}, {\"headings\": 8}]}", err, sizeof err),
                     AP_E_CONFIG);
    ck_assert_uint_eq(c.n_profiles, 1);
    ck_assert_double_eq(c.profiles[0].turning_radius, 1.0);
    ck_assert_int_eq(load_str(&c, "{\"profiles\": []}", err, sizeof err), AP_OK);
    ck_assert_uint_eq(c.n_profiles, 0);
}
END_TEST

START_TEST(file_syntax_errors_have_positions)
{
    ap_config c;
    char err[512] = "";
    ap_config_defaults(&c);
    ck_assert_int_eq(load_str(&c, "{\n  \"workers\": 2,\n  \"listen\" \"x\"\n}\n", err, sizeof err), AP_E_CONFIG);
    ck_assert_msg(strncmp(err, "test.conf:3:14: ", 16) == 0, "%s", err);
    ck_assert_int_eq(c.workers, 2 /* the default: nothing applied */);

    ck_assert_int_eq(load_str(&c, "{\"workers\": 3,\n \"workers\": 4}", err, sizeof err), AP_E_CONFIG);
    ck_assert_msg(strncmp(err, "test.conf:2:", 12) == 0 && strstr(err, "duplicate") != NULL, "%s", err);

    ck_assert_int_eq(load_str(&c, "[1, 2]", err, sizeof err), AP_E_CONFIG);
    ck_assert_msg(strstr(err, "test.conf:") == err, "%s", err);
    ck_assert_int_eq(load_str(&c, "", err, sizeof err), AP_E_CONFIG);
    ck_assert_msg(strncmp(err, "test.conf:1:", 12) == 0, "%s", err);
    ck_assert_int_eq(load_str(&c, "{\"workers\": 2} {}", err, sizeof err), AP_E_CONFIG);
    ck_assert_int_eq(ap_config_load_buffer(&c, "x", NULL, 0, err, sizeof err), AP_E_CONFIG);
    /* a zero-size error buffer is allowed */
    ck_assert_int_eq(ap_config_load_buffer(&c, "x", "[", 1, NULL, 0), AP_E_CONFIG);
}
END_TEST

START_TEST(file_loading)
{
    ap_config c;
    char err[512] = "";
    ap_config_defaults(&c);
    ck_assert_int_eq(ap_config_load_file(&c, "/nonexistent/arcpath.conf", err, sizeof err), AP_E_CONFIG);
    ck_assert_msg(strstr(err, "/nonexistent/arcpath.conf: cannot open") == err, "%s", err);
    ck_assert_str_eq(c.config_file, "");

    char *path = temp_file("{\n\"workers\": 7,\n\"max_samples\": 0\n}\n");
    ck_assert_int_eq(ap_config_load_file(&c, path, err, sizeof err), AP_E_CONFIG);
    char want[256];
    snprintf(want, sizeof want, "%s: \"max_samples\"", path);
    ck_assert_msg(strstr(err, want) == err, "%s", err);
    ck_assert_int_eq(c.workers, 2);
    drop_file(path);

    path = temp_file("{\"workers\": 7}");
    ck_assert_int_eq(ap_config_load_file(&c, path, err, sizeof err), AP_OK);
    ck_assert_int_eq(c.workers, 7);
    ck_assert_str_eq(c.config_file, path);
    drop_file(path);

    /* a FIFO nobody writes to: an error at once (it held start-up at open() for ever: Check's timeout) */
    char fifo[64];
    snprintf(fifo, sizeof fifo, "/tmp/arcpath-conf-fifo-%d", (int)getpid());
    unlink(fifo);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(ap_config_load_file(&c, fifo, err, sizeof err), AP_E_CONFIG);
    ck_assert_msg(strncmp(err, fifo, strlen(fifo)) == 0, "%s", err);
    ck_assert_int_eq(c.workers, 7);
    unlink(fifo);
}
END_TEST

START_TEST(env_values_applied)
{
    ap_config c;
    char err[512] = "";
    clean_env();
    setenv("ARCPATH_CONFIG", "/etc/arcpath.conf", 1);
    setenv("ARCPATH_LISTEN", "10.1.2.3:81", 1);
    setenv("ARCPATH_MAPS", "/data/maps", 1);
    setenv("ARCPATH_WORKERS", "3", 1);
    setenv("ARCPATH_SLOW_SLOTS", "5", 1);
    setenv("ARCPATH_FAST_QUEUE", "6", 1);
    setenv("ARCPATH_SLOW_QUEUE", "7", 1);
    setenv("ARCPATH_FAST_BUDGET", "800", 1);
    setenv("ARCPATH_SLOW_SLICE", "900", 1);
    setenv("ARCPATH_DEFAULT_DEADLINE_MS", "1000", 1);
    setenv("ARCPATH_MAX_DEADLINE_MS", "1100", 1);
    setenv("ARCPATH_MAX_BODY_BYTES", "1200", 1);
    setenv("ARCPATH_MAX_SAMPLES", "1300", 1);
    setenv("ARCPATH_DRAIN_TIMEOUT_MS", "1400", 1);
    setenv("ARCPATH_ACCESS_LOG", "false", 1);
    setenv("ARCPATH_MAX_CONNECTIONS", "100", 1);
    setenv("ARCPATH_MAX_CONNECTIONS_PER_IP", "8", 1);
    setenv("ARCPATH_IDLE_TIMEOUT_S", "5", 1);
    setenv("ARCPATH_REQUEST_TIMEOUT_MS", "1500", 1);
    ap_config_defaults(&c);
    ck_assert_msg(ap_config_load_env(&c, err, sizeof err) == AP_OK, "%s", err);
    ck_assert_str_eq(c.config_file, "/etc/arcpath.conf");
    ck_assert_str_eq(c.listen_host, "10.1.2.3");
    ck_assert_uint_eq(c.listen_port, 81);
    ck_assert_str_eq(c.maps_dir, "/data/maps");
    ck_assert_int_eq(c.workers, 3);
    ck_assert_int_eq(c.slow_slots, 5);
    ck_assert_int_eq(c.fast_queue, 6);
    ck_assert_int_eq(c.slow_queue, 7);
    ck_assert_uint_eq(c.fast_budget, 800);
    ck_assert_uint_eq(c.slow_slice, 900);
    ck_assert_int_eq(c.default_deadline_ms, 1000);
    ck_assert_int_eq(c.max_deadline_ms, 1100);
    ck_assert_uint_eq(c.max_body_bytes, 1200);
    ck_assert_uint_eq(c.max_samples, 1300);
    ck_assert_int_eq(c.drain_timeout_ms, 1400);
    ck_assert(!c.access_log);
    ck_assert_int_eq(c.max_connections, 100);
    ck_assert_int_eq(c.max_connections_per_ip, 8);
    ck_assert_int_eq(c.idle_timeout_s, 5);
    ck_assert_int_eq(c.request_timeout_ms, 1500);

    const char *truthy[] = {"1", "true"}, *falsy[] = {"0", "false"};
    for (int i = 0; i < 2; i++) {
        setenv("ARCPATH_ACCESS_LOG", truthy[i], 1);
        ck_assert_int_eq(ap_config_load_env(&c, err, sizeof err), AP_OK);
        ck_assert(c.access_log);
        setenv("ARCPATH_ACCESS_LOG", falsy[i], 1);
        ck_assert_int_eq(ap_config_load_env(&c, err, sizeof err), AP_OK);
        ck_assert(!c.access_log);
    }

    clean_env();
    ap_config d;
    ap_config_defaults(&c);
    ap_config_defaults(&d);
    ck_assert_int_eq(ap_config_load_env(&c, err, sizeof err), AP_OK); /* nothing set: nothing changes */
    assert_same_settings(&c, &d);
}
END_TEST

static const struct {
    const char *var, *value;
} bad_env[] = {
    {"ARCPATH_CONFIG", ""},
    {"ARCPATH_LISTEN", "8080"},
    {"ARCPATH_LISTEN", "1.2.3.4:99999"},
    {"ARCPATH_LISTEN", ""},
    {"ARCPATH_MAPS", ""},
    {"ARCPATH_WORKERS", ""},
    {"ARCPATH_WORKERS", "0"},
    {"ARCPATH_WORKERS", "65"},
    {"ARCPATH_WORKERS", "two"},
    {"ARCPATH_WORKERS", "2x"},
    {"ARCPATH_WORKERS", " 2"},
    {"ARCPATH_WORKERS", "+2"},
    {"ARCPATH_DRAIN_TIMEOUT_MS", "-0"}, /* 0 is in its range; "-0" is not a way to write it */
    {"ARCPATH_POOL_NICE", "-00"},
    {"ARCPATH_WORKERS", "-"},
    {"ARCPATH_LISTEN", "1.2.3.4:+80"},
    {"ARCPATH_WORKERS", "2 "},
    {"ARCPATH_WORKERS", "0x10"},
    {"ARCPATH_WORKERS", "2.0"},
    {"ARCPATH_WORKERS", "99999999999999999999999"},
    {"ARCPATH_SLOW_SLOTS", "0"},
    {"ARCPATH_FAST_QUEUE", "1000001"},
    {"ARCPATH_SLOW_QUEUE", "-1"},
    {"ARCPATH_FAST_BUDGET", "99"},
    {"ARCPATH_SLOW_SLICE", "100000001"},
    {"ARCPATH_DEFAULT_DEADLINE_MS", "0"},
    {"ARCPATH_MAX_DEADLINE_MS", "600001"},
    {"ARCPATH_MAX_BODY_BYTES", "1023"},
    {"ARCPATH_MAX_SAMPLES", "0"},
    {"ARCPATH_DRAIN_TIMEOUT_MS", "-5"},
    {"ARCPATH_ACCESS_LOG", "yes"},
    {"ARCPATH_ACCESS_LOG", ""},
    {"ARCPATH_ACCESS_LOG", "TRUE"},
    {"ARCPATH_CORS_ORIGINS", ""},
    {"ARCPATH_CORS_ORIGINS", "https://a.example,"},
    {"ARCPATH_CORS_ORIGINS", "https://a.example/"},
    {"ARCPATH_CORS_ORIGINS", "*, https://a.example"},
    {"ARCPATH_CORS_ORIGINS", "a.example"},
    {"ARCPATH_CORS_ORIGINS", "https://A.example"},
};

START_TEST(bad_env_value_is_named)
{
    ap_config c, d;
    char err[512] = "";
    clean_env();
    setenv("ARCPATH_WORKERS", "9", 1); /* a good value alongside must not be half-applied */
    setenv(bad_env[_i].var, bad_env[_i].value, 1);
    ap_config_defaults(&c);
    ap_config_defaults(&d);
    ck_assert_int_eq(ap_config_load_env(&c, err, sizeof err), AP_E_CONFIG);
    size_t n = strlen(bad_env[_i].var);
    ck_assert_msg(strncmp(err, bad_env[_i].var, n) == 0 && err[n] == ':', "%s=\"%s\": message \"%s\"",
                  bad_env[_i].var, bad_env[_i].value, err);
    assert_same_settings(&c, &d);
}
END_TEST

START_TEST(args_applied)
{
    ap_config c;
    char err[512] = "";
    int exit_now = -1;
    ap_config_defaults(&c);
    int rc = args(&c, &exit_now, err, sizeof err, "--listen", "0.0.0.0:8081", "--maps", "m", "--workers", "5",
                  "--config", "my.conf", "--check-config", NULL);
    ck_assert_msg(rc == AP_OK, "%s", err);
    ck_assert_int_eq(exit_now, 0);
    ck_assert_str_eq(c.listen_host, "0.0.0.0");
    ck_assert_uint_eq(c.listen_port, 8081);
    ck_assert_str_eq(c.maps_dir, "m");
    ck_assert_int_eq(c.workers, 5);
    ck_assert_str_eq(c.config_file, "my.conf");
    ck_assert(c.check_config);

    /* again, with --opt=value: getopt state is reset between calls */
    rc = args(&c, &exit_now, err, sizeof err, "--workers=6", "--listen=[::]:80", NULL);
    ck_assert_msg(rc == AP_OK, "%s", err);
    ck_assert_int_eq(c.workers, 6);
    ck_assert_str_eq(c.listen_host, "::");
    ck_assert_uint_eq(c.listen_port, 80);
    rc = args(&c, &exit_now, err, sizeof err, NULL);
    ck_assert_int_eq(rc, AP_OK);
    ck_assert_int_eq(c.workers, 6);
}
END_TEST

static const struct {
    const char *a, *b; /* b may be NULL */
    const char *named; /* must appear in the message */
} bad_args[] = {
    {"--workers", "0", "--workers"},
    {"--workers", "65", "--workers"},
    {"--workers", "x", "--workers"},
    {"--workers", "", "--workers"},
    {"--workers=3.5", NULL, "--workers"},
    {"--listen", "localhost", "--listen"},
    {"--listen", "1.2.3.4:0", "--listen"},
    {"--listen", "nohost:80", "--listen"},
    {"--maps", "", "--maps"},
    {"--config", "", "--config"},
    {"--listen", NULL, "--listen"}, /* missing argument */
    {"--bogus", NULL, "--bogus"},
    {"--bogus=1", NULL, "--bogus"},
    {"-x", NULL, "-x"},
    {"--check-config=yes", NULL, "--check-config"},
    {"--help=1", NULL, "'--help=1' does not take an argument"}, /* not "unknown option '-h'" */
    {"--version=1", NULL, "'--version=1' does not take an argument"},
    {"serve", NULL, "serve"}, /* positional */
    {"--c", NULL, "ambiguous option '--c': --config, --check-config"}, /* was "unknown option" */
    {"--c=x", NULL, "ambiguous option '--c=x': --config, --check-config"},
};

START_TEST(bad_arg_is_named)
{
    ap_config c, d;
    char err[512] = "";
    int exit_now = -1;
    ap_config_defaults(&c);
    ap_config_defaults(&d);
    /* an earlier good option must not be half-applied */
    int rc = args(&c, &exit_now, err, sizeof err, "--workers", "9", bad_args[_i].a, bad_args[_i].b, NULL);
    ck_assert_int_eq(rc, AP_E_CONFIG);
    ck_assert_msg(strstr(err, bad_args[_i].named) != NULL, "%s %s: message \"%s\"", bad_args[_i].a,
                  bad_args[_i].b ? bad_args[_i].b : "", err);
    assert_same_settings(&c, &d);
    ck_assert_int_eq(exit_now, 0);
    /* and the next call still works */
    ck_assert_int_eq(args(&c, &exit_now, err, sizeof err, "--workers", "3", NULL), AP_OK);
    ck_assert_int_eq(c.workers, 3);
}
END_TEST

/* Run load_args with stdout sent to a temp file; returns what was printed (malloc'd). */
static char *captured_args(const char *opt, int *exit_now, int *rc)
{
    char path[] = "/tmp/arcpath-config-out-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    dup2(fd, STDOUT_FILENO);
    ap_config c;
    char err[256];
    ap_config_defaults(&c);
    *rc = args(&c, exit_now, err, sizeof err, opt, "--workers", "0" /* never reached */, NULL);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    char *out = calloc(1, 16384);
    ck_assert_ptr_nonnull(out);
    ck_assert_int_ge(pread(fd, out, 16383, 0), 0);
    close(fd);
    unlink(path);
    return out;
}

START_TEST(help_and_version_exit_now)
{
    int exit_now = 0, rc = -1;
    char *out = captured_args("--help", &exit_now, &rc);
    ck_assert_int_eq(rc, AP_OK);
    ck_assert_int_eq(exit_now, 1);
    static const char *const mention[] = {"--listen", "--maps", "--workers", "--config", "--check-config",
                                          "--help", "--version"};
    for (size_t i = 0; i < sizeof mention / sizeof mention[0]; i++)
        ck_assert_msg(strstr(out, mention[i]) != NULL, "--help does not mention %s", mention[i]);
    for (size_t i = 0; i < sizeof all_env / sizeof all_env[0]; i++)
        ck_assert_msg(strstr(out, all_env[i]) != NULL, "--help does not mention %s", all_env[i]);
    free(out);

    out = captured_args("-h", &exit_now, &rc);
    ck_assert_int_eq(exit_now, 1);
    ck_assert(strstr(out, "usage: arcpathd") == out);
    free(out);

    out = captured_args("--version", &exit_now, &rc);
    ck_assert_int_eq(rc, AP_OK);
    ck_assert_int_eq(exit_now, 1);
    ck_assert_str_eq(out, "arcpathd " ARCPATH_VERSION "\n");
    ck_assert_str_eq(ARCPATH_VERSION, "0.1.0");
    free(out);

    out = captured_args("-V", &exit_now, &rc);
    ck_assert_int_eq(exit_now, 1);
    ck_assert_str_eq(out, "arcpathd 0.1.0\n");
    free(out);
}
END_TEST

START_TEST(precedence_defaults_file_env_args)
{
    ap_config c;
    char err[512] = "";
    int exit_now = -1;
    clean_env();
    char *file = temp_file("{\"workers\": 3, \"slow_slots\": 3, \"fast_queue\": 3, \"listen\": \"1.1.1.1:1\","
                           " \"maps\": \"file-maps\"}");
    char *argv[] = {"arcpathd", "--config", file, "--workers", "7", NULL};

    /* file only */
    ck_assert_msg(ap_config_resolve(&c, 3, argv, &exit_now, err, sizeof err) == AP_OK, "%s", err);
    ck_assert_int_eq(exit_now, 0);
    ck_assert_int_eq(c.workers, 3);
    ck_assert_int_eq(c.slow_slots, 3);
    ck_assert_int_eq(c.slow_queue, 64); /* default */
    ck_assert_str_eq(c.listen_host, "1.1.1.1");
    ck_assert_str_eq(c.config_file, file);

    /* env above file */
    setenv("ARCPATH_WORKERS", "5", 1);
    setenv("ARCPATH_SLOW_SLOTS", "5", 1);
    setenv("ARCPATH_MAPS", "env-maps", 1);
    ck_assert_msg(ap_config_resolve(&c, 3, argv, &exit_now, err, sizeof err) == AP_OK, "%s", err);
    ck_assert_int_eq(c.workers, 5);
    ck_assert_int_eq(c.slow_slots, 5);
    ck_assert_int_eq(c.fast_queue, 3);
    ck_assert_str_eq(c.maps_dir, "env-maps");

    /* args above env */
    ck_assert_msg(ap_config_resolve(&c, 5, argv, &exit_now, err, sizeof err) == AP_OK, "%s", err);
    ck_assert_int_eq(c.workers, 7);
    ck_assert_int_eq(c.slow_slots, 5);
    ck_assert_int_eq(c.fast_queue, 3);
    ck_assert_int_eq(c.slow_queue, 64);
    ck_assert_str_eq(c.listen_host, "1.1.1.1");

    /* ARCPATH_CONFIG names the file when --config does not */
    char *argv2[] = {"arcpathd", NULL};
    unsetenv("ARCPATH_WORKERS");
    setenv("ARCPATH_CONFIG", file, 1);
    ck_assert_msg(ap_config_resolve(&c, 1, argv2, &exit_now, err, sizeof err) == AP_OK, "%s", err);
    ck_assert_int_eq(c.workers, 3);
    ck_assert_str_eq(c.config_file, file);

    /* --config wins over ARCPATH_CONFIG */
    setenv("ARCPATH_CONFIG", "/nonexistent.conf", 1);
    ck_assert_msg(ap_config_resolve(&c, 3, argv, &exit_now, err, sizeof err) == AP_OK, "%s", err);
    ck_assert_str_eq(c.config_file, file);
    unsetenv("ARCPATH_CONFIG");
    drop_file(file);
}
END_TEST

START_TEST(resolve_errors)
{
    ap_config c;
    char err[512] = "";
    int exit_now = -1;
    clean_env();
    char *file = temp_file("{\"workers\": 3,\n \"unknown\": 1}");
    char *argv[] = {"arcpathd", "--config", file, NULL};
    ck_assert_int_eq(ap_config_resolve(&c, 3, argv, &exit_now, err, sizeof err), AP_E_CONFIG);
    ck_assert_msg(strstr(err, "\"unknown\": unknown key") != NULL && strstr(err, file) == err, "%s", err);
    drop_file(file);

    char *argv2[] = {"arcpathd", "--config", "/nonexistent/x.conf", NULL};
    ck_assert_int_eq(ap_config_resolve(&c, 3, argv2, &exit_now, err, sizeof err), AP_E_CONFIG);
    ck_assert_msg(strstr(err, "/nonexistent/x.conf") == err, "%s", err);

    char *argv3[] = {"arcpathd", NULL};
    setenv("ARCPATH_FAST_BUDGET", "1", 1);
    ck_assert_int_eq(ap_config_resolve(&c, 1, argv3, &exit_now, err, sizeof err), AP_E_CONFIG);
    ck_assert_msg(strstr(err, "ARCPATH_FAST_BUDGET") == err, "%s", err);
    unsetenv("ARCPATH_FAST_BUDGET");

    char *argv4[] = {"arcpathd", "--frobnicate", NULL};
    ck_assert_int_eq(ap_config_resolve(&c, 2, argv4, &exit_now, err, sizeof err), AP_E_CONFIG);
    ck_assert_msg(strstr(err, "--frobnicate") != NULL, "%s", err);

    /* cross-field: checked on the final result only, so a later source can repair an earlier one */
    setenv("ARCPATH_DEFAULT_DEADLINE_MS", "70000", 1);
    ck_assert_int_eq(ap_config_resolve(&c, 1, argv3, &exit_now, err, sizeof err), AP_E_CONFIG);
    ck_assert_msg(strstr(err, "default_deadline_ms") != NULL && strstr(err, "max_deadline_ms") != NULL, "%s", err);
    setenv("ARCPATH_MAX_DEADLINE_MS", "70000", 1);
    ck_assert_msg(ap_config_resolve(&c, 1, argv3, &exit_now, err, sizeof err) == AP_OK, "%s", err);
    ck_assert_int_eq(c.default_deadline_ms, 70000);

    char *argv5[] = {"arcpathd", "--version", "--bogus", NULL};
    int saved = dup(STDOUT_FILENO);
    FILE *null = fopen("/dev/null", "w");
    fflush(stdout);
    dup2(fileno(null), STDOUT_FILENO);
    int rc = ap_config_resolve(&c, 3, argv5, &exit_now, err, sizeof err);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    fclose(null);
    ck_assert_int_eq(rc, AP_OK);
    ck_assert_int_eq(exit_now, 1);
}
END_TEST

START_TEST(terrain_costs_parsed)
{
    ap_config c;
    char err[512] = "";
    ap_config_defaults(&c);
    ck_assert_uint_eq(c.n_terrain, 0);
    ck_assert_msg(load_str(&c, "{\"terrain_costs\": {\"swamps\": {\"S\": 3, \"W\": 7.5, \".\": 1}, \"*\": {\"T\": 10}}}",
                           err, sizeof err) == AP_OK,
                  "%s", err);
    ck_assert_uint_eq(c.n_terrain, 2);
    ck_assert_str_eq(c.terrain[0].map_id, "swamps");
    const double want0[AP_TERRAIN_KINDS] = {1.0, 0.0, 3.0, 0.0, 7.5}; /* ".GSTW"; 0 = default */
    for (int k = 0; k < AP_TERRAIN_KINDS; k++)
        ck_assert_double_eq(c.terrain[0].cost[k], want0[k]);
    ck_assert_str_eq(c.terrain[1].map_id, "*");
    ck_assert_double_eq(c.terrain[1].cost[3], 10.0);
    /* the rule lookup the map loader uses: exact id, else "*" */
    ap_map_opts o = {.terrain = c.terrain, .n_terrain = c.n_terrain};
    ck_assert_ptr_eq(ap_map_terrain_rule(&o, "swamps"), &c.terrain[0]);
    ck_assert_ptr_eq(ap_map_terrain_rule(&o, "den520d"), &c.terrain[1]);
    /* a later source replaces the whole object */
    ck_assert_int_eq(load_str(&c, "{\"terrain_costs\": {}}", err, sizeof err), AP_OK);
    ck_assert_uint_eq(c.n_terrain, 0);
}
END_TEST

/* "meters_per_tile": per map id and "*"; no entry means 1 metre per tile; the loader's lookup takes the exact
 * id, else "*"; a later source replaces the whole object. */
START_TEST(meters_per_tile_parsed)
{
    ap_config c;
    char err[512] = "";
    ap_config_defaults(&c);
    ck_assert_uint_eq(c.n_scales, 0);
    ap_map_opts none = {.scales = c.scales, .n_scales = c.n_scales};
    ck_assert_double_eq(ap_map_scale_of(&none, "den520d"), 1.0);
    ck_assert_double_eq(ap_map_scale_of(NULL, "den520d"), 1.0);
    ck_assert_msg(load_str(&c, "{\"meters_per_tile\": {\"city\": 2.5, \"*\": 1000}}", err, sizeof err) == AP_OK,
                  "%s", err);
    ck_assert_uint_eq(c.n_scales, 2);
    ck_assert_str_eq(c.scales[0].map_id, "city");
    ck_assert_double_eq(c.scales[0].meters_per_tile, 2.5);
    ck_assert_str_eq(c.scales[1].map_id, "*");
    ck_assert_double_eq(c.scales[1].meters_per_tile, 1000.0);
    ap_map_opts o = {.scales = c.scales, .n_scales = c.n_scales};
    ck_assert_double_eq(ap_map_scale_of(&o, "city"), 2.5);
    ck_assert_double_eq(ap_map_scale_of(&o, "den520d"), 1000.0);
    /* a map loaded with these options carries its scale */
    ap_map *m = NULL;
    ck_assert_int_eq(ap_map_parse("city", NULL, "type octile\nheight 1\nwidth 2\nmap\n..\n", 36, &o, &m, NULL), AP_OK);
    ck_assert_double_eq(m->meters_per_tile, 2.5);
    ap_map_free(m);
    ck_assert_int_eq(load_str(&c, "{\"meters_per_tile\": {}}", err, sizeof err), AP_OK);
    ck_assert_uint_eq(c.n_scales, 0);
}
END_TEST

/* "units", "capabilities" and "capability_costs": parsed into kinds (with the fields each sets), capability
 * bit sets and per-capability costs; a later source replaces them. */
START_TEST(units_parsed)
{
    ap_config c;
    char err[512] = "";
    ap_config_defaults(&c);
    ck_assert_uint_eq(c.n_units, 0);
    ck_assert_msg(load_str(&c,
                           "{\"units\": {\"tank\": {\"radius\": 0.9, \"capability\": [\"ground\"], "
                           "\"turning_radius\": 2}, \"crate\": {\"size\": 3, \"capability\": [\"water\", \"ground\"]}},"
                           " \"capabilities\": [[\"trees\"]], \"capability_costs\": {\"ground+swamp\": {\"S\": 2.5}}}",
                           err, sizeof err) == AP_OK,
                  "%s", err);
    ck_assert_uint_eq(c.n_units, 2);
    ck_assert_str_eq(c.units[0].name, "tank");
    ck_assert_uint_eq(c.units[0].has, AP_UNIT_F_RADIUS | AP_UNIT_F_CAPABILITY | AP_UNIT_F_TURNING);
    ck_assert_double_eq(c.units[0].radius, 0.9);
    ck_assert_uint_eq(c.units[0].capability, 1);
    ck_assert_double_eq(c.units[0].turning_radius, 2.0);
    ck_assert_str_eq(c.units[1].name, "crate");
    ck_assert_int_eq(c.units[1].size, 3);
    ck_assert_uint_eq(c.units[1].capability, 1 | 4);
    ck_assert_uint_eq(c.n_capabilities, 1);
    ck_assert_uint_eq(c.capabilities[0], 8);
    ck_assert_uint_eq(c.n_cap_costs, 1);
    ck_assert_uint_eq(c.cap_costs[0].capability, 3);
    ck_assert_double_eq(c.cap_costs[0].cost[2], 2.5);
    /* a kind applied to a query: the request's given fields win */
    ap_query q = {.unit_radius = 0.3};
    ap_unit_kind_apply(&c.units[0], AP_UNIT_F_RADIUS, &q);
    ck_assert_double_eq(q.unit_radius, 0.3);
    ck_assert_uint_eq(q.capability, 1);
    ck_assert_double_eq(q.turning_radius, 2.0);
    ck_assert_ptr_eq(ap_unit_kind_find(c.units, c.n_units, "crate"), &c.units[1]);
    /* the shape is taken whole: a request's disc replaces the crate's square, a request's square the tank's disc */
    ap_query dq = {.unit_radius = 0.4};
    ap_unit_kind_apply(&c.units[1], AP_UNIT_F_RADIUS, &dq);
    ck_assert_int_eq(dq.unit_size, 0);
    ck_assert_double_eq(dq.unit_radius, 0.4);
    ap_query bq = {.unit_size = 2};
    ap_unit_kind_apply(&c.units[0], AP_UNIT_F_SIZE, &bq);
    ck_assert_double_eq(bq.unit_radius, 0.0);
    ck_assert_int_eq(bq.unit_size, 2);
    ck_assert_uint_eq(bq.capability, 1);
    ck_assert_ptr_null(ap_unit_kind_find(c.units, c.n_units, "boat"));
    /* "turning_radius_m": metres, turned into tiles with the query's scale when applied (6 m at 2 m per tile:
     * 3 tiles); "turning_radius" stays tiles whatever the scale; the dump names the key it was given as */
    ck_assert_msg(load_str(&c, "{\"units\": {\"van\": {\"turning_radius_m\": 6, \"max_reverse_speed\": 3, "
                               "\"max_turn_rate\": 0.5}, \"cart\": {\"turning_radius\": 2}}}",
                           err, sizeof err) == AP_OK, "%s", err);
    ck_assert(c.units[0].turning_metres && !c.units[1].turning_metres);
    ck_assert_uint_eq(c.units[0].has, AP_UNIT_F_TURNING | AP_UNIT_F_MAX_REVERSE | AP_UNIT_F_MAX_TURN_RATE);
    ap_query sq = {.meters_per_tile = 2.0};
    ap_unit_kind_apply(&c.units[0], 0, &sq);
    ck_assert_double_eq(sq.turning_radius, 3.0);
    ck_assert_double_eq(sq.vehicle.max_reverse_speed, 3.0);
    ck_assert_double_eq(sq.vehicle.max_turn_rate, 0.5);
    ap_unit_kind_apply(&c.units[1], 0, &sq);
    ck_assert_double_eq(sq.turning_radius, 2.0);
    sq.turning_radius = 5.0; /* the request's own radius (given) is never scaled */
    ap_unit_kind_apply(&c.units[0], AP_UNIT_F_TURNING, &sq);
    ck_assert_double_eq(sq.turning_radius, 5.0);
    json_t *vj = ap_config_unit_kind_json(&c.units[0]);
    ck_assert_double_eq(json_real_value(json_object_get(vj, "turning_radius_m")), 6.0);
    ck_assert_double_eq(json_real_value(json_object_get(vj, "max_reverse_speed")), 3.0);
    ck_assert_double_eq(json_real_value(json_object_get(vj, "max_turn_rate")), 0.5);
    ck_assert_ptr_null(json_object_get(vj, "turning_radius"));
    json_decref(vj);
    ck_assert_int_eq(load_str(&c, "{\"units\": {}, \"capabilities\": []}", err, sizeof err), AP_OK);
    ck_assert_uint_eq(c.n_units, 0);
    ck_assert_uint_eq(c.n_capabilities, 0);
    ck_assert_uint_eq(c.n_cap_costs, 1);
}
END_TEST

/* cors_origins: exact origins or "*", from the file, replaced by ARCPATH_CORS_ORIGINS (comma-separated,
 * blanks around entries dropped); [] turns CORS off again. */
/* "skip_tables": the names of the tables the planner can do without, as bits (tables.h), for every map
 * (an array) or per map id (an object of arrays, "*" for the rest); anything else, a name twice or neither
 * form is an error naming the entry; [] builds every table again; the effective config printed at start
 * lists the names in the form given. */
START_TEST(skip_tables_parsed)
{
    ap_config c;
    char err[512] = "";
    clean_env();
    ap_config_defaults(&c);
    ck_assert_uint_eq(c.skip_tables, 0);
    ck_assert_msg(load_str(&c, "{\"skip_tables\": [\"any_angle\", \"hier\", \"jps_plus\"]}", err, sizeof err) == AP_OK,
                  "%s", err);
    ck_assert_uint_eq(c.skip_tables, ap_table_kind_skip_bit("any_angle") | ap_table_kind_skip_bit("hier") |
                                         ap_table_kind_skip_bit("jps_plus"));
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ap_config_print(&c, f);
    fclose(f);
    ck_assert_msg(strstr(buf, "\"skip_tables\":[\"jps_plus\",\"any_angle\",\"hier\"]") != NULL, "%s", buf);
    free(buf);
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"{\"skip_tables\": [\"hier\", \"clearance\"]}",
         "<t>: \"skip_tables[1]\": must be one of \"jps_plus\", \"jps_bits\", \"jps_sized\", \"any_angle\", \"hier\" (the "
         "tables the planner can do without)"},
        {"{\"skip_tables\": [\"region\"]}", "<t>: \"skip_tables[0]\": must be one of"},
        {"{\"skip_tables\": [7]}", "<t>: \"skip_tables[0]\": must be one of"},
        {"{\"skip_tables\": [\"hier\", \"hier\"]}", "<t>: \"skip_tables[1]\": a table is listed twice"},
        {"{\"skip_tables\": \"hier\"}", "<t>: \"skip_tables\": must be an array of table names, or an object of "
                                        "such arrays by map id {\"MAP_ID\": [\"any_angle\"], \"*\": []}"},
        /* the per-map form: entries name the map and the index */
        {"{\"skip_tables\": {\"city\": [\"hier\", \"view\"]}}", "<t>: \"skip_tables.city[1]\": must be one of \"jps_plus\""},
        {"{\"skip_tables\": {\"*\": [\"hier\"], \"city\": \"hier\"}}",
         "<t>: \"skip_tables.city\": must be an array of table names"},
        {"{\"skip_tables\": {\"city\": [\"jps_bits\", \"jps_bits\"]}}", "<t>: \"skip_tables.city[1]\": a table is listed twice"},
        {"{\"skip_tables\": {\"a/b\": []}}", "<t>: \"skip_tables\": \"a/b\" is not a map id"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        ck_assert_int_eq(ap_config_load_buffer(&c, "<t>", bad[i].text, strlen(bad[i].text), err, sizeof err),
                         AP_E_CONFIG);
        ck_assert_msg(strncmp(err, bad[i].msg, strlen(bad[i].msg)) == 0, "%s: %s", bad[i].text, err);
        ck_assert_uint_eq(c.skip_tables, ap_table_kind_skip_bit("any_angle") | ap_table_kind_skip_bit("hier") |
                                             ap_table_kind_skip_bit("jps_plus")); /* unchanged */
    }
    ck_assert_int_eq(load_str(&c, "{\"skip_tables\": []}", err, sizeof err), AP_OK);
    ck_assert_uint_eq(c.skip_tables, 0);

    /* the per-map form: one entry per map id and "*", each its own bits; printed as given */
    ck_assert_msg(load_str(&c, "{\"skip_tables\": {\"Paris_1_1024\": [\"any_angle\", \"hier\"], \"*\": [\"hier\"], "
                               "\"small\": []}}",
                           err, sizeof err) == AP_OK,
                  "%s", err);
    ck_assert_uint_eq(c.skip_tables, 0);
    ck_assert_uint_eq(c.n_skips, 3);
    ck_assert_str_eq(c.skips[0].map_id, "Paris_1_1024");
    ck_assert_uint_eq(c.skips[0].tables, ap_table_kind_skip_bit("any_angle") | ap_table_kind_skip_bit("hier"));
    ck_assert_str_eq(c.skips[1].map_id, "*");
    ck_assert_uint_eq(c.skips[1].tables, ap_table_kind_skip_bit("hier"));
    ck_assert_str_eq(c.skips[2].map_id, "small");
    ck_assert_uint_eq(c.skips[2].tables, 0);
    f = open_memstream(&buf, &size);
    ap_config_print(&c, f);
    fclose(f);
    ck_assert_msg(strstr(buf, "\"skip_tables\":{\"Paris_1_1024\":[\"any_angle\",\"hier\"],\"*\":[\"hier\"],\"small\":[]}") !=
                      NULL,
                  "%s", buf);
    free(buf);
    /* what the map loader makes of it (ap_map_skip_of): the map's own entry, else "*" */
    ap_map_opts o = {.skip_tables = c.skip_tables, .skips = c.skips, .n_skips = c.n_skips};
    ck_assert_uint_eq(ap_map_skip_of(&o, "Paris_1_1024"), c.skips[0].tables);
    ck_assert_uint_eq(ap_map_skip_of(&o, "small"), 0);
    ck_assert_uint_eq(ap_map_skip_of(&o, "den520d"), ap_table_kind_skip_bit("hier"));
    /* a bad per-map entry keeps the earlier value whole; an array afterwards replaces the object form */
    err[0] = '\0';
    ck_assert_int_eq(load_str(&c, "{\"skip_tables\": {\"x\": [\"hier\"], \"y\": [\"nope\"]}}", err, sizeof err),
                     AP_E_CONFIG);
    ck_assert_uint_eq(c.n_skips, 3);
    ck_assert_uint_eq(c.skips[0].tables, ap_table_kind_skip_bit("any_angle") | ap_table_kind_skip_bit("hier"));
    ck_assert_int_eq(load_str(&c, "{\"skip_tables\": [\"jps_bits\"]}", err, sizeof err), AP_OK);
    ck_assert_uint_eq(c.n_skips, 0);
    ck_assert_uint_eq(c.skip_tables, ap_table_kind_skip_bit("jps_bits"));
}
END_TEST

START_TEST(cors_origins_parsed)
{
    ap_config c;
    char err[512] = "";
    clean_env();
    ap_config_defaults(&c);
    ck_assert_uint_eq(c.n_cors_origins, 0); /* off by default */
    ck_assert_msg(load_str(&c, "{\"cors_origins\": [\"https://tools.example.com\", \"http://127.0.0.1:3000\", "
                               "\"http://[::1]:8080\", \"http://localhost\"]}", err, sizeof err) == AP_OK, "%s", err);
    ck_assert_uint_eq(c.n_cors_origins, 4);
    ck_assert_str_eq(c.cors_origins[0], "https://tools.example.com");
    ck_assert_str_eq(c.cors_origins[1], "http://127.0.0.1:3000");
    ck_assert_str_eq(c.cors_origins[2], "http://[::1]:8080");
    ck_assert_str_eq(c.cors_origins[3], "http://localhost");

    setenv("ARCPATH_CORS_ORIGINS", " https://a.example ,http://b.example:81", 1);
    ck_assert_msg(ap_config_load_env(&c, err, sizeof err) == AP_OK, "%s", err);
    ck_assert_uint_eq(c.n_cors_origins, 2);
    ck_assert_str_eq(c.cors_origins[0], "https://a.example");
    ck_assert_str_eq(c.cors_origins[1], "http://b.example:81");
    setenv("ARCPATH_CORS_ORIGINS", "*", 1);
    ck_assert_msg(ap_config_load_env(&c, err, sizeof err) == AP_OK, "%s", err);
    ck_assert_uint_eq(c.n_cors_origins, 1);
    ck_assert_str_eq(c.cors_origins[0], "*");

    ck_assert_int_eq(load_str(&c, "{\"cors_origins\": []}", err, sizeof err), AP_OK);
    ck_assert_uint_eq(c.n_cors_origins, 0);

    /* the whole chain: the environment wins over the file */
    char *path = temp_file("{\"cors_origins\": [\"https://file.example\"]}");
    setenv("ARCPATH_CONFIG", path, 1);
    unsetenv("ARCPATH_CORS_ORIGINS");
    int exit_now = -1;
    char *argv[] = {"arcpathd", NULL};
    ck_assert_msg(ap_config_resolve(&c, 1, argv, &exit_now, err, sizeof err) == AP_OK, "%s", err);
    ck_assert_uint_eq(c.n_cors_origins, 1);
    ck_assert_str_eq(c.cors_origins[0], "https://file.example");
    setenv("ARCPATH_CORS_ORIGINS", "https://env.example", 1);
    ck_assert_msg(ap_config_resolve(&c, 1, argv, &exit_now, err, sizeof err) == AP_OK, "%s", err);
    ck_assert_uint_eq(c.n_cors_origins, 1);
    ck_assert_str_eq(c.cors_origins[0], "https://env.example");
    drop_file(path);
}
END_TEST

START_TEST(print_one_json_line)
{
    ap_config c;
    char err[256];
    ap_config_defaults(&c);
    ck_assert_int_eq(load_str(&c,
                              "{\"listen\": \"[::1]:9000\", \"workers\": 9, \"max_map_cells\": 1073741824,"
                              " \"profiles\": [{\"radius\": 0.3, \"turning_radius\": 2.5, \"neighbourhood\": 48}],"
                              " \"terrain_costs\": {\"swamps\": {\"S\": 3.25, \"W\": 8}},"
                              " \"units\": {\"boat\": {\"radius\": 0.4, \"capability\": [\"water\"]}, \"crate\": {\"size\": 2}},"
                              " \"capabilities\": [[\"ground\", \"trees\"]], \"capability_costs\": {\"water\": {\"W\": 2}},"
                              " \"cors_origins\": [\"https://a.example\", \"http://[::1]:3000\"]}",
                              err, sizeof err),
                     AP_OK);
    c.check_config = true;
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ap_config_print(&c, f);
    fclose(f);
    ck_assert_int_gt(size, 2);
    ck_assert(buf[size - 1] == '\n');
    ck_assert(memchr(buf, '\n', size - 1) == NULL);
    /* numbers as typed, not in 17 digits (0.3 read 0.29999999999999999) */
    ck_assert_msg(strstr(buf, "{\"radius\":0.3,\"turning_radius\":2.5,") != NULL, "%s", buf);
    ck_assert_msg(strstr(buf, "\"radius\":0.4") != NULL && strstr(buf, "999999") == NULL, "%s", buf);
    json_error_t je;
    json_t *j = json_loads(buf, 0, &je);
    ck_assert_msg(j != NULL, "%s", je.text);
    ck_assert_str_eq(json_string_value(json_object_get(j, "listen")), "[::1]:9000");
    ck_assert_str_eq(json_string_value(json_object_get(j, "maps")), "config/maps");
    ck_assert_int_eq(json_integer_value(json_object_get(j, "workers")), 9);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "max_map_cells")), 1073741824);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "fast_budget")), 2000);
    ck_assert(json_is_true(json_object_get(j, "access_log")));
    ck_assert(json_is_true(json_object_get(j, "check_config")));
    ck_assert_uint_eq(json_array_size(json_object_get(j, "profiles")), 1);
    json_t *tc = json_object_get(json_object_get(j, "terrain_costs"), "swamps");
    ck_assert_uint_eq(json_object_size(tc), 2);
    ck_assert_double_eq(json_number_value(json_object_get(tc, "S")), 3.25);
    json_t *cors = json_object_get(j, "cors_origins");
    ck_assert_uint_eq(json_array_size(cors), 2);
    ck_assert_str_eq(json_string_value(json_array_get(cors, 1)), "http://[::1]:3000");
    ck_assert_uint_eq(json_object_size(j), 40); /* 38 settings + config_file + check_config (never admin_token) */

    /* what print writes (minus the provenance keys) loads back as a config file to the same settings */
    json_object_del(j, "config_file");
    json_object_del(j, "check_config");
    char *again = json_dumps(j, 0);
    ap_config d;
    ap_config_defaults(&d);
    ck_assert_msg(load_str(&d, again, err, sizeof err) == AP_OK, "%s", err);
    assert_same_settings(&c, &d);
    free(again);
    json_decref(j);
    free(buf);
}
END_TEST

/* admin_token: from the file or ARCPATH_ADMIN_TOKEN (the environment wins), 16..256 printable ASCII without
 * spaces; a refusal never quotes the token. The two size keys of the map lifecycle with their ranges. */
START_TEST(admin_token_and_upload_keys)
{
    ap_config c;
    char err[512];
    ap_config_defaults(&c);
    ck_assert_str_eq(c.admin_token, "");
    ck_assert_uint_eq(c.max_map_upload_bytes, 16777216);
    ck_assert_int_eq(c.max_workspace_cells, 0);
    ck_assert_int_eq(load_str(&c, "{\"admin_token\": \"file-token-0123456789\", \"max_map_upload_bytes\": 2048, "
                                  "\"max_workspace_cells\": 1000000}", err, sizeof err), AP_OK);
    ck_assert_str_eq(c.admin_token, "file-token-0123456789");
    ck_assert_uint_eq(c.max_map_upload_bytes, 2048);
    ck_assert_int_eq(c.max_workspace_cells, 1000000);
    ck_assert_int_eq(load_str(&c, "{\"admin_token\": \"short-secret\"}", err, sizeof err), AP_E_CONFIG);
    ck_assert_str_eq(err, "test.conf: \"admin_token\": must be 16 to 256 characters long");
    ck_assert_int_eq(load_str(&c, "{\"admin_token\": \"has a space 0123456789\"}", err, sizeof err), AP_E_CONFIG);
    ck_assert_str_eq(err, "test.conf: \"admin_token\": must be printable ASCII without spaces");
    ck_assert_int_eq(load_str(&c, "{\"admin_token\": 12}", err, sizeof err), AP_E_CONFIG);
    /* a syntax error in a file that holds the token never quotes the text near it (a tab in the token's
     * string: jansson's "near '\"TOPSECRET...'" printed it, a helper); elsewhere the quote stays */
    ck_assert_int_eq(load_str(&c, "{\"admin_token\": \"TOPSECRETTOKEN12345\t\"}", err, sizeof err), AP_E_CONFIG);
    ck_assert_msg(strstr(err, "TOPSECRET") == NULL, "%s", err);
    ck_assert_msg(strncmp(err, "test.conf:1:", 12) == 0 && strstr(err, "the file may hold admin_token") != NULL, "%s",
                  err);
    /* nor where the key is spelt with an escape (\u005f is '_') */
    ck_assert_int_eq(load_str(&c, "{\"admin\\u005ftoken\": \"TOPSECRETTOKEN12345\t\"}", err, sizeof err),
                     AP_E_CONFIG);
    ck_assert_msg(strstr(err, "TOPSECRET") == NULL, "%s", err);
    ck_assert_int_eq(load_str(&c, "{\"maps\": \"a\tb\"}", err, sizeof err), AP_E_CONFIG);
    ck_assert_msg(strstr(err, "near '") != NULL, "%s", err);
    ck_assert_int_eq(load_str(&c, "{\"max_map_upload_bytes\": 100}", err, sizeof err), AP_E_CONFIG);
    ck_assert_str_eq(c.admin_token, "file-token-0123456789"); /* a failed load changes nothing */

    setenv("ARCPATH_ADMIN_TOKEN", "env-token-0123456789abcdef", 1);
    setenv("ARCPATH_MAX_WORKSPACE_CELLS", "5000000", 1);
    ck_assert_int_eq(ap_config_load_env(&c, err, sizeof err), AP_OK);
    ck_assert_str_eq(c.admin_token, "env-token-0123456789abcdef");
    ck_assert_int_eq(c.max_workspace_cells, 5000000);
    setenv("ARCPATH_ADMIN_TOKEN", "tiny", 1);
    ck_assert_int_eq(ap_config_load_env(&c, err, sizeof err), AP_E_CONFIG);
    ck_assert_str_eq(err, "ARCPATH_ADMIN_TOKEN: must be 16 to 256 characters long");
    clean_env();
}
END_TEST

Suite *config_suite(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("config");
    tcase_add_checked_fixture(tc, clean_env, NULL);
    tcase_add_test(tc, defaults);
    tcase_add_test(tc, shipped_config_is_the_defaults);
    tcase_add_test(tc, file_values_applied);
    tcase_add_loop_test(tc, bad_file_value_is_named, 0, (int)(sizeof bad_file / sizeof bad_file[0]));
    tcase_add_test(tc, control_characters_in_messages);
    tcase_add_test(tc, profiles_parsed);
    tcase_add_test(tc, terrain_costs_parsed);
    tcase_add_test(tc, meters_per_tile_parsed);
    tcase_add_test(tc, file_syntax_errors_have_positions);
    tcase_add_test(tc, file_loading);
    tcase_add_test(tc, env_values_applied);
    tcase_add_loop_test(tc, bad_env_value_is_named, 0, (int)(sizeof bad_env / sizeof bad_env[0]));
    tcase_add_test(tc, args_applied);
    tcase_add_loop_test(tc, bad_arg_is_named, 0, (int)(sizeof bad_args / sizeof bad_args[0]));
    tcase_add_test(tc, help_and_version_exit_now);
    tcase_add_test(tc, precedence_defaults_file_env_args);
    tcase_add_test(tc, resolve_errors);
    tcase_add_test(tc, print_one_json_line);
    tcase_add_test(tc, units_parsed);
    tcase_add_test(tc, cors_origins_parsed);
    tcase_add_test(tc, skip_tables_parsed);
    tcase_add_test(tc, admin_token_and_upload_keys);
    suite_add_tcase(s, tc);
    return s;
}
