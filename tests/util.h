/* util.h — shared helpers for the test programs: where the Moving AI data is, scenario files, tolerances. */
#ifndef AP_TEST_UTIL_H
#define AP_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>

/* One scenario line of a Moving AI .scen file. */
typedef struct ap_test_scen {
    int bucket;
    char map[128];      /* base name of the map file, e.g. "den520d.map" */
    int width, height;
    int sx, sy, gx, gy; /* cells; x = column, y = row */
    double optimal;     /* optimal 8-connected length listed in the file */
    int decimals;       /* digits after the decimal point as printed in the file */
    int line;           /* 1-based line number in the file */
} ap_test_scen;

/* The Moving AI folder: $ARCPATH_MOVINGAI, else ../shared/data/movingai relative to the working directory.
 * Returns NULL when it does not exist; then, when $ARCPATH_REQUIRE_DATA=1 (CI), prints why and exits 1. */
const char *ap_test_data_dir(void);

/* Print "SKIP: <what>: Moving AI data not found" (for tests that need the data). */
void ap_test_skip_no_data(const char *what);

/* Read a whole .scen file (both "version 1" tab and "version 1.0" space formats). *out is malloc'd.
 * Returns 0 on success, -1 on error (message on stderr). */
int ap_test_load_scen(const char *path, ap_test_scen **out, size_t *n);

/* Tolerance for comparing a computed cost with a scenario's listed optimum: one unit in the last printed
 * decimal (1e-8 for files that print 8 decimals, 1e-3 for "1234.567") plus 1e-9 plus 1e-9 x optimum (the
 * 8-decimal files carry generator rounding of up to 2.44e-10 x optimum; see util.c). Far stricter than the
 * 1e-4 relative / 0.01 absolute the benchmark's precision allows. */
double ap_test_tolerance(const ap_test_scen *s);

/* True under $ARCPATH_TEST_QUICK=1 (the sanitizer run): tests use smaller samples. */
bool ap_test_quick(void);

/* Names of every *.map file in dir that has a matching .scen, sorted; returns count; *out malloc'd array of
 * malloc'd strings (base names without ".map"). */
size_t ap_test_list_maps(const char *dir, char ***out);

/* The maps the sweeps over every Moving AI map visit: ap_test_list_maps(dir, out), less, in quick mode (the
 * sanitizer run), the maps of more than 512 x 512 cells (AcrosstheCape, Paris_1_1024: their loads alone take
 * seconds under the sanitizers, every sweep again) and every other one of the rest: half 0 keeps the 1st,
 * 3rd, ..., half 1 the 2nd, 4th, ... (the four sweeps take two halves each, so each map is still swept
 * twice under the sanitizers; the pass was bound by these sweeps, ~50 s of its planner shards). The plain
 * run sweeps them all; the loader's own test (tests/planner/world/test_map.c) loads every map in both runs.
 * Same ownership as ap_test_list_maps. */
size_t ap_test_sweep_maps(const char *dir, int half, char ***out);

/* Write text to a new file /tmp/<prefix>-XXXXXX (mkstemp) and return its malloc'd path, or NULL on error.
 * The caller unlinks and frees it. */
char *ap_test_temp_file(const char *prefix, const char *text);

/* Read a whole file into a malloc'd NUL-terminated buffer; NULL on error. */
char *ap_test_read_file(const char *path, size_t *len);

#endif
