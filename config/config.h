/* config.h — arcpathd configuration: defaults < config file (JSON) < environment (ARCPATH_*) < command line.
 *
 * Every field has a documented default, unit and range (README "Configuration"). Loading functions never
 * exit the process; they return AP_OK or AP_E_CONFIG with a message naming the source (file:line:column,
 * the variable, or the option).
 */
#ifndef AP_CONFIG_H
#define AP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ap_config {
    char listen_host[64];       /* "127.0.0.1" */
    uint16_t listen_port;       /* 8080 */
    char maps_dir[1024];        /* "config/maps" */
    int workers;                /* 2; 1..64: libuv pool threads = fast workspaces */
    int slow_slots;             /* 4; 1..64: slow workspaces = slow searches in progress at once */
    int fast_queue;             /* 1024; 1..1e6: jobs waiting for the fast lane before 503 */
    int slow_queue;             /* 64; 1..1e5: searches waiting for a slow slot before 503 */
    uint64_t fast_budget;       /* 20000 expansions a search may run in the fast lane before moving to slow */
    uint64_t slow_slice;        /* 20000 expansions per slow slice */
    int default_deadline_ms;    /* 5000 */
    int max_deadline_ms;        /* 60000 */
    size_t max_body_bytes;      /* 65536 */
    int32_t max_map_width;      /* 4096 */
    int32_t max_map_height;     /* 4096 */
    int64_t max_map_cells;      /* 16777216 */
    size_t max_samples;         /* 100000 */
    int drain_timeout_ms;       /* 10000: how long shutdown waits for in-flight jobs */
    bool access_log;            /* true: one JSON line per request on stdout */
    char config_file[1024];     /* "" = none */
    bool check_config;          /* --check-config */
} ap_config;

/* Fill c with the built-in defaults. */
void ap_config_defaults(ap_config *c);

/* Apply a JSON config file (object with the keys above, e.g. {"listen": "127.0.0.1:8080", "workers": 2}).
 * Unknown keys and out-of-range values are errors. err/errlen receive "file:line:col: message". */
int ap_config_load_file(ap_config *c, const char *path, char *err, size_t errlen);

/* Apply ARCPATH_* environment variables (ARCPATH_LISTEN, ARCPATH_MAPS, ARCPATH_WORKERS, ...). */
int ap_config_load_env(ap_config *c, char *err, size_t errlen);

/* Parse argv with getopt_long: --listen HOST:PORT, --maps DIR, --workers N, --config FILE,
 * --check-config, --help, --version. Sets *exit_now to 1 (and returns AP_OK) after printing --help or
 * --version. The config file named by --config / ARCPATH_CONFIG is applied by ap_config_resolve. */
int ap_config_load_args(ap_config *c, int argc, char **argv, int *exit_now, char *err, size_t errlen);

/* The whole precedence chain: defaults, then the file (from --config, else ARCPATH_CONFIG, else none), then
 * env, then args. Returns AP_OK, or AP_E_CONFIG with err filled. */
int ap_config_resolve(ap_config *c, int argc, char **argv, int *exit_now, char *err, size_t errlen);

/* Write the effective config as one JSON line to f. */
void ap_config_print(const ap_config *c, void *file /* FILE* */);

#endif
