/* fuzz.c — the JSON config-file parser (ap_config_load_buffer) on arbitrary bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "planner/base/status.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ap_config c, before;
    char err[512];
    ap_config_defaults(&c);
    before = c;
    err[0] = '\0';
    int rc = ap_config_load_buffer(&c, "fuzz.conf", (const char *)data, size, err, sizeof err);
    if (rc != AP_OK) {
        /* all or nothing, and a message naming the source */
        if (rc != AP_E_CONFIG || memcmp(&c, &before, sizeof c) != 0 || strncmp(err, "fuzz.conf:", 10) != 0)
            abort();
        return 0;
    }
    if (c.workers < 1 || c.workers > 64 || c.slow_slots < 1 || c.slow_slots > 64 || c.listen_port == 0 ||
        c.fast_budget < 100 || c.slow_slice < 100 || c.max_body_bytes < 1024 || c.max_map_cells < 1 ||
        c.max_samples < 1 || c.drain_timeout_ms < 0 || c.maps_dir[0] == '\0' ||
        memchr(c.listen_host, '\0', sizeof c.listen_host) == NULL)
        abort();
    (void)ap_config_validate(&c, err, sizeof err);
    static FILE *sink;
    if (sink == NULL && (sink = fopen("/dev/null", "w")) == NULL)
        abort();
    ap_config_print(&c, sink);
    return 0;
}
