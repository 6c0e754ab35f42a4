/* map.h — Moving AI grid maps: parsing, validation, and the per-map tables built at load.
 *
 * Coordinates: x = column, y = row (Moving AI); cell (x, y) spans [x, x+1) x [y, y+1), centre (x+0.5, y+0.5).
 * A loaded map is immutable and may be read by any number of threads at once without locks.
 *
 * Storage: passability is kept in a padded byte grid of (width + 2) x (height + 2) cells whose one-cell
 * border is blocked, so neighbour loops in the search never test bounds. The padded index of cell (x, y) is
 * (y + 1) * stride + (x + 1) with stride = width + 2; search domains use padded indices as node ids.
 */
#ifndef AP_MAP_H
#define AP_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AP_MAP_ID_MAX 64 /* bytes, including the NUL; longer file names are rejected */

/* Where a load/parse problem is: file label, 1-based line and column (0 when not applicable). */
typedef struct ap_diag {
    char file[256];
    int line;
    int col;
    char msg[256];
} ap_diag;

/* Upper bounds a map file must respect. Zero fields mean "use the default" (AP_MAP_DEFAULT_*). */
typedef struct ap_map_limits {
    int32_t max_width;  /* cells; default 4096 */
    int32_t max_height; /* cells; default 4096 */
    int64_t max_cells;  /* width * height; default 16,777,216 */
} ap_map_limits;

#define AP_MAP_DEFAULT_MAX_WIDTH 4096
#define AP_MAP_DEFAULT_MAX_HEIGHT 4096
#define AP_MAP_DEFAULT_MAX_CELLS (4096LL * 4096LL)

/* A table some planner module builds at load and keeps with the map (a generic slot, so new per-map tables
 * need no new ap_map fields): map.c owns the slot array and calls free_fn on ap_map_free; the module owns
 * the content, which is immutable after load. Listed in the map info with name, bytes and build time. */
typedef struct ap_map_table {
    const char *name;           /* static string, e.g. "jps_plus" */
    void *data;                 /* module-specific (e.g. ap_jps_table) */
    size_t bytes;               /* bytes held by data */
    double build_seconds;       /* wall time to build it */
    void (*free_fn)(void *data);
} ap_map_table;

#define AP_MAP_MAX_TABLES 4

typedef struct ap_map {
    char id[AP_MAP_ID_MAX]; /* file name without ".map" */
    int32_t width;          /* cells (columns) */
    int32_t height;         /* cells (rows) */
    int32_t stride;         /* width + 2 */
    uint8_t *pass;          /* (width+2)*(height+2) bytes: 1 passable, 0 blocked; border blocked */
    uint8_t *terrain;       /* width*height raw terrain characters ('.', 'G', '@', 'T', 'W', ...) */
    int64_t passable_cells; /* number of passable cells */
    /* Region-connectivity table (Pinter, "Path Failure and Timeslicing"): component id per padded cell,
     * 0 for blocked cells. With no corner cutting, 8-connected and 4-connected components coincide
     * (every legal diagonal step can be replaced by two orthogonal ones), so one table serves both. */
    uint32_t *region;
    uint32_t region_count;
    double load_seconds;    /* wall time to parse the file */
    double tables_seconds;  /* wall time to build the region table */
    size_t table_bytes;     /* bytes held by the region table */
    /* Further tables built at load (today: "jps_plus", jps.h). A failed optional build leaves no slot. */
    ap_map_table tables[AP_MAP_MAX_TABLES];
    int n_tables;
} ap_map;

/* Parse a Moving AI map held in memory.
 * id: map id (copied; must be 1..63 bytes of [A-Za-z0-9_.-]); file_label: name used in diagnostics.
 * buf/len: file contents (LF or CRLF; need not be NUL-terminated). lim: may be NULL for defaults.
 * On success stores a new map in *out (caller owns; free with ap_map_free) and returns AP_OK.
 * On failure returns AP_E_MAP_FORMAT, AP_E_MAP_TOO_LARGE or AP_E_NOMEM and, if diag != NULL, fills it
 * with file label, line, column and message. Builds the region table and the JPS+ jump table (jps.h;
 * optional: a map too large for it simply has none) before returning.
 * Thread-safe (no shared state). Format: movingai.com "Benchmarks for Grid-Based Pathfinding" (Sturtevant 2012).
 * Terrain: '.', 'G', 'S' passable; '@', 'O', 'T', 'W' blocked (water is blocked until a water capability). */
int ap_map_parse(const char *id, const char *file_label, const char *buf, size_t len,
                 const ap_map_limits *lim, ap_map **out, ap_diag *diag);

/* Read and parse the file at path; the id is the file's base name without ".map".
 * Returns as ap_map_parse, or AP_E_IO (diag says why) when the file cannot be read. */
int ap_map_load(const char *path, const ap_map_limits *lim, ap_map **out, ap_diag *diag);

/* The table slot named `name` (e.g. AP_JPS_TABLE_NAME), or NULL. Pure; thread-safe on a loaded map. */
const ap_map_table *ap_map_find_table(const ap_map *m, const char *name);

/* Free a map and its tables. NULL is ignored. Not safe while other threads still read the map. */
void ap_map_free(ap_map *m);

/* Padded index of cell (x, y); the cell must be within [-1, width] x [-1, height]. */
static inline uint32_t ap_map_index(const ap_map *m, int32_t x, int32_t y)
{
    return (uint32_t)((y + 1) * m->stride + (x + 1));
}

/* True when (x, y) is on the map and passable. Bounds-checked. */
static inline bool ap_map_passable(const ap_map *m, int32_t x, int32_t y)
{
    if (x < 0 || y < 0 || x >= m->width || y >= m->height)
        return false;
    return m->pass[ap_map_index(m, x, y)] != 0;
}

/* Cell coordinates of a padded index. */
static inline void ap_map_coords(const ap_map *m, uint32_t idx, int32_t *x, int32_t *y)
{
    *x = (int32_t)(idx % (uint32_t)m->stride) - 1;
    *y = (int32_t)(idx / (uint32_t)m->stride) - 1;
}

/* Number of padded cells ((width+2)*(height+2)): the node capacity a search workspace needs for this map. */
static inline uint32_t ap_map_node_count(const ap_map *m)
{
    return (uint32_t)m->stride * (uint32_t)(m->height + 2);
}

#endif
