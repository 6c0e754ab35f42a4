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
#include <sys/types.h>

#define AP_MAP_ID_MAX 64 /* bytes, including the NUL; longer file names are rejected */

/* Where a load/parse problem is: file label, 1-based line and column (0 when not applicable). */
typedef struct ap_diag {
    char file[256];
    int line;
    int col;
    char msg[256];
} ap_diag;

/* Terrain that may carry a cost, in this order: plain ground '.', 'G', swamp 'S', trees 'T', water 'W'
 * (the Moving AI terrain letters; '@' and 'O' are out of bounds and never passable). */
#define AP_TERRAIN_KINDS 5
#define AP_TERRAIN_CHARS ".GSTW"
#define AP_TERRAIN_COST_MAX 1000.0 /* largest cost multiplier a terrain may carry */

/* Per-terrain costs for one map (Moving AI "weighted" maps; config key "terrain_costs"). cost[k] belongs
 * to AP_TERRAIN_CHARS[k]: a multiplier in [1, AP_TERRAIN_COST_MAX] on the length of every move into or out
 * of such a cell (a move between cells a and b of length 1 or sqrt 2 costs length * (cost(a) + cost(b)) / 2,
 * so A->B and B->A cost the same), or 0 for the default: 1 for '.', 'G', 'S'; blocked for 'T', 'W'. Giving
 * 'T' or 'W' a cost makes it passable. Costs >= 1 keep the octile distance an admissible, consistent
 * heuristic. */
typedef struct ap_terrain_costs {
    char map_id[AP_MAP_ID_MAX];      /* the map these costs are for; "*" = every map without its own entry */
    double cost[AP_TERRAIN_KINDS];
} ap_terrain_costs;

/* One map's scale (config key "meters_per_tile"): the side of one tile in metres, in
 * [AP_MIN_METERS_PER_TILE, AP_MAX_METERS_PER_TILE] (limits.h). Kinodynamic searches convert tiles to metres with it. */
typedef struct ap_map_scale {
    char map_id[AP_MAP_ID_MAX]; /* the map this scale is for; "*" = every map without its own entry */
    double meters_per_tile;
} ap_map_scale;

/* One map's tables left out (config key "skip_tables" in its per-map form): bits from ap_table_kind_skip_bit
 * (tables.h). */
typedef struct ap_map_skip {
    char map_id[AP_MAP_ID_MAX]; /* the map this entry is for; "*" = every map without its own entry */
    uint32_t tables;            /* ap_table_kind_skip_bit bits; 0 = every table built */
} ap_map_skip;

/* Load options: upper bounds a map file must respect (zero fields mean "use the default",
 * AP_MAP_DEFAULT_*) and terrain costs. */
typedef struct ap_map_opts {
    int32_t max_width;  /* cells; default 4096 */
    int32_t max_height; /* cells; default 4096 */
    int64_t max_cells;  /* width * height; default 16,777,216 */
    int64_t max_nodes;  /* (width + 2) * (height + 2), the nodes a search workspace must hold; 0: no limit
                         * (the server sets its workspaces' size once they exist, so a map no workspace could
                         * search is refused from its header, not after its tables are built) */
    const ap_terrain_costs *terrain; /* n_terrain rules, borrowed for the call; the one whose map_id is the
                                      * map's id applies, else the one with "*", else none (uniform) */
    size_t n_terrain;
    /* The terrain capabilities (capability.h: bit sets of AP_CAP_*, each 1 .. 15) that get per-capability
     * tables at load (tables.h AP_TABLE_PER_CAPABILITY: regions, clearance), borrowed for the call;
     * duplicates are ignored. n_capabilities == 0 means the default {AP_CAP_DEFAULT} = {ground, swamp}.
     * A value of 0 or above 15 is AP_E_MAP_FORMAT. */
    const uint8_t *capabilities;
    size_t n_capabilities;
    /* Terrain costs per capability (config key "capability_costs"; capability.h, view.h), borrowed for the
     * call: the costs a unit of that capability pays on this map, whatever the map's own terrain_costs.
     * A capability named here gets its tables at load even when not in capabilities. */
    const struct ap_capability_costs *cap_costs;
    size_t n_cap_costs;
    /* Scales per map id (ap_map_scale), borrowed for the call: the one whose map_id is the map's id
     * applies, else the one with "*", else 1 metre per tile. */
    const ap_map_scale *scales;
    size_t n_scales;
    /* Table kinds not built at load nor by tile updates (config key "skip_tables"): bits from
     * ap_table_kind_skip_bit (tables.h); a bit of a kind that is not AP_TABLE_SKIPPABLE is ignored. 0: every
     * table is built. The planner answers every query without such a table, slower or by a fallback
     * (any_angle builds a graph per query, jps_plus runs online JPS, hierarchical runs A*, auto answers
     * smoothed point queries with JPS+ and taut, turning units' corridors come from A*: config/README.md
     * "skip_tables").
     * Per-map entries in skips, when one applies, replace it for that map. */
    uint32_t skip_tables;
    /* Table kinds left out per map id (ap_map_skip), borrowed for the call: the entry whose map_id is the
     * map's id applies, else the one with "*", else skip_tables. */
    const ap_map_skip *skips;
    size_t n_skips;
} ap_map_opts;

/* One capability's terrain costs (ap_map_opts.cap_costs): cost[k] for AP_TERRAIN_CHARS[k], in
 * [1, AP_TERRAIN_COST_MAX], or 0 = default (the map's terrain_costs where they give one, else 1). Only the
 * capability's own terrains may carry a cost (the config refuses others; the loader ignores them). */
typedef struct ap_capability_costs {
    uint8_t capability; /* 1 .. 15 (capability.h) */
    double cost[AP_TERRAIN_KINDS];
} ap_capability_costs;

#define AP_MAP_DEFAULT_MAX_WIDTH 4096
#define AP_MAP_DEFAULT_MAX_HEIGHT 4096
#define AP_MAP_DEFAULT_MAX_CELLS (4096LL * 4096LL)

/* A table some planner module builds at load and keeps with the map (a generic slot, so new per-map tables
 * need no new ap_map fields). The kinds are registered (tables.h), not called by name: the loader runs each
 * kind's builder and fills the slot; map.c owns the slot array and calls free_fn on ap_map_free; the
 * module owns the content, which is immutable after load. Listed in the map info with name, bytes, build
 * time and, when count_name is set, the count under that name. */
typedef struct ap_map_table {
    const char *name;           /* static string, e.g. "region", "jps_plus" */
    void *data;                 /* module-specific (e.g. ap_jps_table) */
    size_t bytes;               /* bytes held by data */
    double build_seconds;       /* wall time to build it */
    void (*free_fn)(void *data);
    const char *count_name;     /* NULL, or what count counts (static, e.g. "regions") */
    uint64_t count;             /* e.g. the number of regions; 0 when count_name is NULL */
    uint8_t capability;         /* per-capability kinds (tables.h): the capability (1 .. 15) the table is
                                 * for, set before the build; 0 for other kinds */
    const struct ap_table_kind *kind; /* the registered kind that built it (tables.h) */
    bool incremental;           /* built by the kind's update from the previous version's table after a
                                 * tile update (patch.h), not from scratch; build_seconds is that update's */
} ap_map_table;

/* Room for the six map-wide kinds (region, jps_plus, jps_bits, jps_sized, any_angle, hier) and three
 * per-capability kinds (regions, clearance, view) for each of the 15 capabilities, with a few to spare (a
 * multiple of the seven slots a default uniform map gets: a test fills them all). */
#define AP_MAP_MAX_TABLES 63

typedef struct ap_map {
    char id[AP_MAP_ID_MAX]; /* file name without ".map" */
    int32_t width;          /* cells (columns) */
    int32_t height;         /* cells (rows) */
    int32_t stride;         /* width + 2 */
    uint8_t *pass;          /* (width+2)*(height+2) bytes: 1 passable, 0 blocked; border blocked */
    /* pass again as bit lines (ap_map_pass_bits): bit x of padded row y at word y * bits_row_words + x / 64,
     * then bit y of padded column x at pass_cols[x * bits_col_words + y / 64]; 1 = passable. collide.c's line
     * test scans them 64 cells a word. NULL when not built (the byte loop serves). Owned by the map (a view:
     * by the view). */
    uint64_t *pass_bits, *pass_cols;
    uint32_t bits_row_words, bits_col_words;
    uint8_t *terrain;       /* width*height raw terrain characters ('.', 'G', '@', 'T', 'W', ...) */
    int64_t passable_cells; /* number of passable cells */
    /* Terrain costs (ap_terrain_costs). weighted is true when some passable cell costs other than 1; then
     * kind holds, per padded cell, the index into AP_TERRAIN_CHARS (0xff for blocked cells), cost_of the
     * multiplier per kind, and cheap the cells whose cost is cost_min (1) or not (0, blocked ones too).
     * On a uniform map kind and cheap are NULL and all costs are 1. JPS tables are built only for uniform
     * maps (jump point pruning assumes every move of a given length costs the same). */
    bool weighted;
    double cost_of[AP_TERRAIN_KINDS]; /* effective multiplier per kind (0 = blocked) */
    double cost_min, cost_max;        /* over the passable kinds present on the map; 1 and 1 when uniform */
    uint8_t *kind;
    uint8_t *cheap;
    /* Region-connectivity table (Pinter, "Path Failure and Timeslicing"; region.h): component id per
     * padded cell, 0 for blocked cells. With no corner cutting, 8-connected and 4-connected components
     * coincide (every legal diagonal step can be replaced by two orthogonal ones), so one table serves
     * both. It is the data of the "region" table slot, kept here too because every query reads it. */
    const uint32_t *region;
    uint32_t region_count;  /* that slot's count */
    /* Bit c (1 .. 15) set when capability c (capability.h) got its per-capability tables at load
     * (ap_map_opts.capabilities; by default only bit AP_CAP_DEFAULT). */
    uint16_t capabilities;
    /* No tree or water cell is passable, so the passable cells are exactly those of the default capability
     * (AP_CAP_DEFAULT = '.', 'G', 'S'): false only when terrain costs opened 'T' or 'W'. Read per query by
     * the sized-unit searches, so it is derived once here rather than by scanning the map. */
    bool pass_is_default_capability;
    /* The capability (capability.h, 1 .. 15) whose cells are exactly pass: on a loaded map {ground, swamp}
     * plus trees and water where the map's terrain costs open them; on a capability view (view.h) the
     * view's. Its clearance table serves sized units on this map (or view). */
    uint8_t capability;
    /* NULL on a loaded map. On a capability view (view.h): the loaded map it views. A view shares the
     * base's terrain letters and per-capability tables (ap_map_find_table finds them) but has its own
     * pass, region, cost and count fields, and none of the base's map-wide tables (JPS, which describe the
     * base's passability). Views are never freed with ap_map_free (their table slot owns them). */
    const struct ap_map *base;
    /* Per-capability terrain costs from ap_map_opts.cap_costs (0 = default), read by the view builder. */
    double cap_cost[16][AP_TERRAIN_KINDS];
    double meters_per_tile; /* metres per tile side (ap_map_opts.scales), > 0; 1 by default */
    uint32_t skip_tables;   /* ap_map_skip_of(opts, id) at load (optional kinds left out); kept by tile updates */
    double load_seconds;    /* wall time to parse the file (and derive the cost arrays) */
    /* Tables built at load by the registered kinds (tables.h; the list is planner/plan/table_kinds.c: today
     * "region", on uniform-cost maps "jps_plus" and "jps_bits", jps.h, per capability "region:<capability>"
     * and "clearance:<capability>", capability.h and clearance.h, then "jps_sized", "any_angle",
     * "view:<capability>" and "hier"), in registration order. A failed optional build leaves no slot. */
    ap_map_table tables[AP_MAP_MAX_TABLES];
    int n_tables;
} ap_map;

/* (Re)build m->pass_bits and m->pass_cols from m->pass (an existing block is reused: the size is the
 * map's). Returns AP_OK, or AP_E_NOMEM (then both are NULL and the line test uses the bytes). O(cells). The
 * block is owned by m (ap_map_free frees it). Writes m: not thread-safe on one map, so only while it is being
 * built or updated, before readers see it. */
int ap_map_pass_bits(ap_map *m);

/* Bytes m's bit lines take (0 when not built). Pure. */
static inline size_t ap_map_pass_bits_bytes(const ap_map *m)
{
    return m->pass_bits == NULL ? 0
                                : ((size_t)(m->height + 2) * m->bits_row_words + (size_t)m->stride * m->bits_col_words) *
                                      sizeof *m->pass_bits;
}

/* Parse a Moving AI map held in memory.
 * id: map id (copied; must be 1..63 bytes of [A-Za-z0-9_.-], not starting with '.'); file_label: name used in diagnostics.
 * buf/len: file contents (LF or CRLF; need not be NUL-terminated).
 * opts: limits and terrain costs; may be NULL for defaults and a uniform map. Costs out of range (not 0
 * and not in [1, AP_TERRAIN_COST_MAX]) are AP_E_MAP_FORMAT.
 * On success stores a new map in *out (caller owns; free with ap_map_free) and returns AP_OK.
 * On failure returns AP_E_MAP_FORMAT, AP_E_MAP_TOO_LARGE or AP_E_NOMEM (AP_E_INTERNAL for buf NULL with len
 * > 0) and, if diag != NULL, fills it with file label, line, column and message. Builds the registered per-map tables (tables.h: the region
 * table and, on uniform-cost maps, the optional JPS tables, which a map too large for them simply lacks;
 * then per capability of opts->capabilities the region and clearance tables, capability.h, clearance.h)
 * before returning; a required table that cannot be built fails the load with its status. A capability
 * outside 1 .. 15 in opts is AP_E_MAP_FORMAT.
 * Thread-safe (no shared state). Format: movingai.com "Benchmarks for Grid-Based Pathfinding" (Sturtevant 2012).
 * Terrain: '.', 'G', 'S' passable; '@', 'O' blocked; 'T', 'W' blocked unless opts gives them a cost. */
int ap_map_parse(const char *id, const char *file_label, const char *buf, size_t len,
                 const ap_map_opts *opts, ap_map **out, ap_diag *diag);

/* How much of a file ap_map_load reads first to check the header (a valid header is some 40 bytes; the
 * header must end within it, read from a file or parsed from a buffer alike), and
 * how many bytes of blank lines after the grid it accepts (editors add a few; the limit bounds the file). */
#define AP_MAP_HEADER_READ 4096
#define AP_MAP_TRAILING_MAX 65536

/* Read and parse the file at path; the id is the file's base name without ".map". The header is read and
 * checked against opts' limits first, and the file's size against what such a map can hold (rows of width
 * characters with CRLF ends, plus AP_MAP_TRAILING_MAX bytes of blank lines), so an oversized or sparse
 * file costs no memory (AP_E_MAP_TOO_LARGE). Returns as ap_map_parse, or AP_E_IO (diag says why) when
 * the file cannot be read or is not a regular file (a directory, FIFO, socket or device named *.map; a
 * FIFO is opened without waiting for a writer); an id from the file name that is not valid (ap_map_id_valid)
 * is AP_E_MAP_FORMAT. On success *out is the caller's (free with ap_map_free); on failure it is NULL.
 * Thread-safe (no shared state). */
int ap_map_load(const char *path, const ap_map_opts *opts, ap_map **out, ap_diag *diag);

/* What the file loaders (ap_map_load, proto/circles.h ap_circles_load) share. What a file of st_mode `mode`
 * that is not a regular one is, for "not a regular file (a FIFO)": "a directory", "a FIFO", "a socket",
 * "a device" or "not a file". Pure. */
const char *ap_file_kind(mode_t mode);

/* Read up to want bytes from fd (fewer only at end of file) into buf; *got = bytes read. AP_OK or AP_E_IO
 * (errno set). A file that shrinks while read just ends early; the parser then says what is missing.
 * Thread-safe (the fd is the caller's). */
int ap_read_fully(int fd, char *buf, size_t want, size_t *got);

/* True when the n bytes at id form a valid map id: 1..AP_MAP_ID_MAX-1 characters of [A-Za-z0-9_.-], the first
 * not '.' (the map
 * file's base name; config keys naming maps use the same rule). Pure; thread-safe. */
bool ap_map_id_valid(const char *id, size_t n);

/* The terrain-cost rule of opts that applies to map id (exact id first, then "*"), or NULL (no rule: the
 * map is uniform-cost). The result points into opts->terrain (borrowed). Pure; thread-safe. */
const ap_terrain_costs *ap_map_terrain_rule(const ap_map_opts *opts, const char *id);

/* The scale of map id under opts (ap_map_scale: exact id first, then "*"), or 1 when none applies or opts is
 * NULL. Metres per tile; not range-checked (ap_map_parse refuses a bad one). Pure; thread-safe. */
double ap_map_scale_of(const ap_map_opts *opts, const char *id);

/* The table kinds left out for map id under opts (ap_map_skip: exact id first, then "*", else
 * opts->skip_tables), as ap_table_kind_skip_bit bits; 0 when opts is NULL. Pure; thread-safe. */
uint32_t ap_map_skip_of(const ap_map_opts *opts, const char *id);

/* Cost of the move between adjacent passable padded cells a and b (orthogonal or diagonal neighbours):
 * len * (cost(a) + cost(b)) / 2 with len 1 or sqrt 2 (tiles) as given; exactly len on a uniform map.
 * Returns tiles times cost multiplier. Pure; thread-safe on a loaded map. The rule is ap_terrain_costs'
 * (the mean of the two cells, so moves cost the same both ways). */
static inline double ap_map_move_cost(const ap_map *m, uint32_t a, uint32_t b, double len)
{
    if (!m->weighted)
        return len;
    return len * 0.5 * (m->cost_of[m->kind[a]] + m->cost_of[m->kind[b]]);
}

/* Derive m's cost fields from m->cost_of, m->pass and m->terrain (present[k]: passable cells of terrain
 * AP_TERRAIN_CHARS[k]): weighted, cost_min, cost_max and, when weighted, the per-cell kind and cheap arrays
 * (malloc'd, stored in m: ap_map_free frees them on a loaded map, a view's slot on a view). The cheap mask is
 * what smoothing uses so a shortcut never crosses dearer terrain than the cells it replaces could. Returns
 * AP_OK or AP_E_NOMEM (m keeps whichever array was allocated, freed with it). Used by the loader and by
 * capability views (view.h). Writes m: not thread-safe on one map. */
int ap_map_derive_costs(ap_map *m, const int64_t present[AP_TERRAIN_KINDS]);

/* The first half of ap_map_derive_costs: weighted, cost_min and cost_max of m from m->cost_of and
 * present (as there), no arrays touched. Pure but for m; used by capability views' tile updates (view.h). */
void ap_map_cost_range(ap_map *m, const int64_t present[AP_TERRAIN_KINDS]);

/* The per-cell half: kind and cheap of map cell (x, y) (inside the map) from m->pass, m->terrain, cost_of
 * and cost_min, as ap_map_derive_costs sets them. m must be weighted with its arrays allocated. Writes m: not
 * thread-safe on one map (tile updates call it on their own copy). */
void ap_map_cost_cell(ap_map *m, int32_t x, int32_t y);

/* Derive m's passability from m->terrain and m->cost_of (the loader's rule: '.', 'G', 'S' and whatever
 * terrain the costs give a multiplier are passable, '@' and 'O' never): m->pass (allocated, border zero),
 * passable_cells, pass_is_default_capability, then the cost fields (ap_map_derive_costs). Returns AP_OK or
 * AP_E_NOMEM. Used by the loader (ap_map_parse) and by tile updates (patch.h). Not thread-safe on one map. */
int ap_map_derive_pass(ap_map *m);

/* The table slot named `name` (e.g. "region", AP_JPS_TABLE_NAME), or NULL. On a capability view (m->base
 * set) the base's per-capability slots only (a map-wide table describes the base's passability). The slot is
 * borrowed from m (or its base) and lives as long as the map. Pure; thread-safe on a loaded map. */
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
