/* map.c — Moving AI map parsing with strict validation; then the registered per-map tables (tables.h).
 *
 * Format: movingai.com "Benchmarks for Grid-Based Pathfinding" (Sturtevant 2012): four header lines
 * ("type octile", "height N", "width N", "map") and then exactly `height` rows of exactly `width` terrain
 * characters.
 */
#include "map.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/clock.h"
#include "../base/limits.h"
#include "../base/status.h"
#include "capability.h"
#include "region.h"
#include "tables.h"

/* Fill diag if the caller asked for one; returns status so error paths read `return fail(...)`. */
static int fail(ap_diag *d, int status, const char *label, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static int fail(ap_diag *d, int status, const char *label, int line, int col, const char *fmt, ...)
{
    if (d != NULL) {
        snprintf(d->file, sizeof d->file, "%s", label != NULL ? label : "");
        d->line = line;
        d->col = col;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(d->msg, sizeof d->msg, fmt, ap);
        va_end(ap);
    }
    return status;
}

/* Line cursor over a buffer that need not be NUL-terminated. A line ends at '\n'; one '\r' right before it
 * (or before the end of the buffer) belongs to the line ending, so CRLF files read like LF files and a
 * missing final newline is tolerated. */
typedef struct line_reader {
    const char *buf;
    size_t len, pos;
    int line; /* 1-based number of the line last returned */
} line_reader;

static bool next_line(line_reader *r, const char **s, size_t *n)
{
    if (r->pos >= r->len)
        return false;
    const char *p = r->buf + r->pos;
    size_t rem = r->len - r->pos;
    const char *nl = memchr(p, '\n', rem);
    size_t n0 = nl != NULL ? (size_t)(nl - p) : rem;
    r->pos += n0 + (nl != NULL ? 1 : 0);
    if (n0 > 0 && p[n0 - 1] == '\r')
        n0--;
    r->line++;
    *s = p;
    *n = n0;
    return true;
}

static bool line_is(const char *s, size_t n, const char *want)
{
    size_t wn = strlen(want);
    return n == wn && memcmp(s, want, wn) == 0;
}

/* Parse "<key> <positive integer>" exactly. Returns AP_OK, AP_E_MAP_FORMAT or AP_E_MAP_TOO_LARGE (value
 * above INT32_MAX); *col gets the 1-based column of the problem. */
static int parse_dim(const char *s, size_t n, const char *key, int32_t *out, int *col)
{
    size_t kn = strlen(key);
    if (n < kn + 1 || memcmp(s, key, kn) != 0 || s[kn] != ' ') {
        *col = 1;
        return AP_E_MAP_FORMAT;
    }
    size_t i = kn + 1;
    *col = (int)i + 1;
    if (i >= n)
        return AP_E_MAP_FORMAT;
    int64_t v = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            *col = (int)i + 1;
            return AP_E_MAP_FORMAT;
        }
        v = v * 10 + (s[i] - '0');
        if (v > INT32_MAX) {
            *col = (int)kn + 2;
            return AP_E_MAP_TOO_LARGE;
        }
    }
    if (v <= 0)
        return AP_E_MAP_FORMAT;
    *out = (int32_t)v;
    return AP_OK;
}

/* Index into AP_TERRAIN_CHARS for terrain that may carry a cost, AP_KIND_OUT for out-of-bounds terrain
 * ('@', 'O'), -1 for a character that is not terrain. */
#define AP_KIND_OUT 0xff
static int terrain_kind(unsigned char c)
{
    switch (c) {
    case '.':
        return 0;
    case 'G':
        return 1;
    case 'S':
        return 2;
    case 'T':
        return 3;
    case 'W':
        return 4;
    case '@':
    case 'O':
        return AP_KIND_OUT;
    default:
        return -1;
    }
}

/* The rule for map id among n rules of size bytes each, each starting with its map id (ap_terrain_costs,
 * ap_map_scale): the exact id first, else the first "*", else NULL. */
static const void *find_rule(const void *rules, size_t n, size_t size, const char *id)
{
    const char *any = NULL;
    for (size_t i = 0; rules != NULL && i < n; i++) {
        const char *map_id = (const char *)rules + i * size;
        if (strcmp(map_id, id) == 0)
            return map_id;
        if (strcmp(map_id, "*") == 0 && any == NULL)
            any = map_id;
    }
    return any;
}

const ap_terrain_costs *ap_map_terrain_rule(const ap_map_opts *opts, const char *id)
{
    return opts != NULL ? find_rule(opts->terrain, opts->n_terrain, sizeof *opts->terrain, id) : NULL;
}

double ap_map_scale_of(const ap_map_opts *opts, const char *id)
{
    const ap_map_scale *s = opts != NULL ? find_rule(opts->scales, opts->n_scales, sizeof *opts->scales, id) : NULL;
    return s != NULL ? s->meters_per_tile : 1.0;
}

uint32_t ap_map_skip_of(const ap_map_opts *opts, const char *id)
{
    if (opts == NULL)
        return 0;
    const ap_map_skip *s = find_rule(opts->skips, opts->n_skips, sizeof *opts->skips, id);
    return s != NULL ? s->tables : opts->skip_tables;
}

/* Effective cost per kind: the defaults ('.', 'G', 'S' cost 1; trees and water blocked) overridden by the
 * rule. Returns AP_OK or AP_E_MAP_FORMAT (and the offending kind in *bad) for a cost out of range. */
static int resolve_costs(const ap_terrain_costs *rule, double cost_of[AP_TERRAIN_KINDS], int *bad)
{
    static const double defaults[AP_TERRAIN_KINDS] = {1.0, 1.0, 1.0, 0.0, 0.0};
    for (int k = 0; k < AP_TERRAIN_KINDS; k++) {
        double c = rule != NULL ? rule->cost[k] : 0.0;
        if (c != 0.0 && !(c >= 1.0 && c <= AP_TERRAIN_COST_MAX)) {
            *bad = k;
            return AP_E_MAP_FORMAT;
        }
        cost_of[k] = c != 0.0 ? c : defaults[k];
    }
    return AP_OK;
}

void ap_map_cost_range(ap_map *m, const int64_t present[AP_TERRAIN_KINDS])
{
    m->cost_min = m->cost_max = 1.0;
    bool first = true, weighted = false;
    for (int k = 0; k < AP_TERRAIN_KINDS; k++) {
        if (present[k] == 0 || m->cost_of[k] == 0.0)
            continue;
        double c = m->cost_of[k];
        weighted |= c != 1.0;
        m->cost_min = first || c < m->cost_min ? c : m->cost_min;
        m->cost_max = first || c > m->cost_max ? c : m->cost_max;
        first = false;
    }
    m->weighted = weighted;
}

void ap_map_cost_cell(ap_map *m, int32_t x, int32_t y)
{
    uint32_t i = ap_map_index(m, x, y);
    if (!m->pass[i]) {
        m->kind[i] = AP_KIND_OUT;
        m->cheap[i] = 0;
        return;
    }
    int k = terrain_kind(m->terrain[(size_t)y * (size_t)m->width + (size_t)x]);
    m->kind[i] = (uint8_t)k;
    m->cheap[i] = m->cost_of[k] == m->cost_min;
}

int ap_map_derive_costs(ap_map *m, const int64_t present[AP_TERRAIN_KINDS])
{
    ap_map_cost_range(m, present);
    if (!m->weighted)
        return AP_OK;
    size_t padded = ap_map_node_count(m);
    m->kind = malloc(padded);
    m->cheap = calloc(padded, 1);
    if (m->kind == NULL || m->cheap == NULL)
        return AP_E_NOMEM;
    memset(m->kind, AP_KIND_OUT, padded);
    for (int32_t y = 0; y < m->height; y++)
        for (int32_t x = 0; x < m->width; x++)
            ap_map_cost_cell(m, x, y);
    return AP_OK;
}

int ap_map_pass_bits(ap_map *m)
{
    const uint32_t W = (uint32_t)m->stride, H = (uint32_t)m->height + 2;
    const uint32_t rw = (W + 63) / 64, cw = (H + 63) / 64;
    const size_t words = (size_t)H * rw + (size_t)W * cw;
    if (m->pass_bits == NULL)
        m->pass_bits = calloc(words, sizeof *m->pass_bits);
    else
        memset(m->pass_bits, 0, words * sizeof *m->pass_bits);
    if (m->pass_bits == NULL) {
        m->pass_cols = NULL;
        return AP_E_NOMEM;
    }
    m->bits_row_words = rw;
    m->bits_col_words = cw;
    m->pass_cols = m->pass_bits + (size_t)H * rw;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++)
            if (m->pass[(size_t)y * W + x]) {
                m->pass_bits[(size_t)y * rw + x / 64] |= 1ull << (x % 64);
                m->pass_cols[(size_t)x * cw + y / 64] |= 1ull << (y % 64);
            }
    return AP_OK;
}

int ap_map_derive_pass(ap_map *m)
{
    int64_t passable = 0, present[AP_TERRAIN_KINDS] = {0};
    for (int32_t y = 0; y < m->height; y++) {
        uint8_t *prow = m->pass + (size_t)(y + 1) * (size_t)m->stride + 1;
        const uint8_t *trow = m->terrain + (size_t)y * (size_t)m->width;
        for (int32_t x = 0; x < m->width; x++) {
            int k = terrain_kind(trow[x]);
            int open = k >= 0 && k != AP_KIND_OUT && m->cost_of[k] > 0.0;
            prow[x] = (uint8_t)open;
            passable += open;
            if (open)
                present[k]++;
        }
    }
    m->passable_cells = passable;
    /* AP_TERRAIN_CHARS ".GSTW": kinds 3 and 4 are trees and water, counted only where passable */
    m->pass_is_default_capability = present[3] == 0 && present[4] == 0;
    int st = ap_map_pass_bits(m);
    return st != AP_OK ? st : ap_map_derive_costs(m, present);
}

bool ap_map_id_valid(const char *id, size_t n)
{
    /* not hidden: the maps folder passes over hidden files (editors' leftovers), so an id ".x" loaded by a
     * reload would be removed again by the next rescan as "gone" */
    if (n == 0 || n >= AP_MAP_ID_MAX || id[0] == '.')
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                  c == '.' || c == '-';
        if (!ok)
            return false;
    }
    return true;
}

/* The four header lines and the size limits (opts; NULL = defaults), read from rd, which is left after the
 * "map" line. On AP_OK *width, *height are the map's size, within the limits and small enough for 32-bit
 * padded cell ids. Shared by ap_map_parse and ap_map_load, which checks a file's header before it reads
 * the body. */
static int parse_header(line_reader *rd, const char *label, const ap_map_opts *opts, int32_t *width_out,
                        int32_t *height_out, ap_diag *diag)
{
    int64_t max_w = opts != NULL && opts->max_width > 0 ? opts->max_width : AP_MAP_DEFAULT_MAX_WIDTH;
    int64_t max_h = opts != NULL && opts->max_height > 0 ? opts->max_height : AP_MAP_DEFAULT_MAX_HEIGHT;
    int64_t max_cells = opts != NULL && opts->max_cells > 0 ? opts->max_cells : AP_MAP_DEFAULT_MAX_CELLS;
    const char *s;
    size_t n;
    int col;
    int32_t width = 0, height = 0;

    if (!next_line(rd, &s, &n) || !line_is(s, n, "type octile"))
        return fail(diag, AP_E_MAP_FORMAT, label, 1, 1, "expected 'type octile'");
    if (!next_line(rd, &s, &n))
        return fail(diag, AP_E_MAP_FORMAT, label, 2, 1, "expected 'height N', found end of file");
    int st = parse_dim(s, n, "height", &height, &col);
    if (st != AP_OK)
        return fail(diag, st, label, rd->line, col,
                    st == AP_E_MAP_TOO_LARGE ? "height too large" : "expected 'height N' with N a positive integer");
    if (!next_line(rd, &s, &n))
        return fail(diag, AP_E_MAP_FORMAT, label, 3, 1, "expected 'width N', found end of file");
    st = parse_dim(s, n, "width", &width, &col);
    if (st != AP_OK)
        return fail(diag, st, label, rd->line, col,
                    st == AP_E_MAP_TOO_LARGE ? "width too large" : "expected 'width N' with N a positive integer");
    if (height > max_h)
        return fail(diag, AP_E_MAP_TOO_LARGE, label, 2, 8, "height %d above the limit %lld", (int)height,
                    (long long)max_h);
    if (width > max_w)
        return fail(diag, AP_E_MAP_TOO_LARGE, label, 3, 7, "width %d above the limit %lld", (int)width,
                    (long long)max_w);
    /* int32 operands, so the int64 products cannot overflow; node ids are uint32, so the padded grid must
     * fit in 32 bits whatever limits the configuration sets. */
    int64_t cells = (int64_t)width * height;
    int64_t padded = ((int64_t)width + 2) * ((int64_t)height + 2);
    if (cells > max_cells)
        return fail(diag, AP_E_MAP_TOO_LARGE, label, 3, 7, "%lld cells above the limit %lld", (long long)cells,
                    (long long)max_cells);
    if (padded > (int64_t)UINT32_MAX - 1 || (uint64_t)padded > SIZE_MAX / sizeof(uint32_t))
        return fail(diag, AP_E_MAP_TOO_LARGE, label, 3, 7, "map too large for 32-bit cell ids");
    if (opts != NULL && opts->max_nodes > 0 && padded > opts->max_nodes)
        return fail(diag, AP_E_MAP_TOO_LARGE, label, 3, 7,
                    "the map has more nodes, (width + 2) * (height + 2) = %lld, than the search workspaces hold "
                    "(%lld: max_workspace_cells, or the largest map's at start)",
                    (long long)padded, (long long)opts->max_nodes);
    if (!next_line(rd, &s, &n) || !line_is(s, n, "map"))
        return fail(diag, AP_E_MAP_FORMAT, label, 4, 1, "expected 'map'");
    *width_out = width;
    *height_out = height;
    return AP_OK;
}

/* A map file of `size` bytes whose header ends at byte `header` may hold rows of w characters plus CRLF and
 * AP_MAP_TRAILING_MAX bytes of blank lines after the grid: AP_OK, or AP_E_MAP_TOO_LARGE with diag. */
static int check_size(const char *label, size_t size, size_t header, int32_t w, int32_t h, ap_diag *diag)
{
    uint64_t most = (uint64_t)header + (uint64_t)h * ((uint64_t)w + 2) + AP_MAP_TRAILING_MAX;
    if ((uint64_t)size <= most)
        return AP_OK;
    return fail(diag, AP_E_MAP_TOO_LARGE, label, 0, 0,
                "file has %llu bytes; a %d x %d map has at most %llu (rows, line ends and %d bytes of blank lines "
                "after the grid)",
                (unsigned long long)size, (int)w, (int)h, (unsigned long long)most, AP_MAP_TRAILING_MAX);
}

/* parse_header's fault st (with diag) over rd, the first AP_MAP_HEADER_READ of total bytes, restated when
 * the window cut the line it failed on: the header is too long, not what the cut line looked like (a
 * zero-padded height cut to its zeros was "expected 'height N' with N a positive integer"). Returns st. */
static int header_fault(const line_reader *rd, size_t total, const char *label, int st, ap_diag *diag)
{
    /* (the window used up, whether it ended inside a line or just after one: a height line ending at its
     * last byte left "expected 'width N', found end of file", a reviewer) */
    if (total > rd->len && rd->pos >= rd->len)
        return fail(diag, AP_E_MAP_FORMAT, label, rd->line, 1, "the header must end within the first %d bytes",
                    AP_MAP_HEADER_READ);
    return st;
}

/* The grid of a map file: height rows of exactly width terrain characters from rd (left after the "map"
 * line), then only blank lines. Stores row y at terrain + y * width, or only checks the rows when terrain is
 * NULL. AP_OK, or AP_E_MAP_FORMAT with the line and column in diag. */
static int read_rows(line_reader *rd, const char *label, int32_t width, int32_t height, char *terrain,
                     ap_diag *diag)
{
    const char *s;
    size_t n;
    for (int32_t y = 0; y < height; y++) {
        if (!next_line(rd, &s, &n))
            return fail(diag, AP_E_MAP_FORMAT, label, rd->line + 1, 1, "expected %d rows, found %d", (int)height,
                        (int)y);
        size_t lim_n = n < (size_t)width ? n : (size_t)width;
        char *trow = terrain != NULL ? terrain + (size_t)y * (size_t)width : NULL;
        for (size_t x = 0; x < lim_n; x++) {
            unsigned char c = (unsigned char)s[x];
            if (terrain_kind(c) < 0) {
                if (c >= 0x20 && c < 0x7f)
                    return fail(diag, AP_E_MAP_FORMAT, label, rd->line, (int)x + 1, "unknown terrain character '%c'",
                                c);
                return fail(diag, AP_E_MAP_FORMAT, label, rd->line, (int)x + 1,
                            "unknown terrain character (byte 0x%02x)", c);
            }
            if (trow != NULL)
                trow[x] = (char)c;
        }
        if (n != (size_t)width)
            return fail(diag, AP_E_MAP_FORMAT, label, rd->line, (int)lim_n + 1, "row has %zu characters, expected %d",
                        n, (int)width);
    }
    /* Blank lines after the grid are tolerated (editors add them), spaces and tabs on them too (a line of
     * spaces was "more rows than height", a maploader helper); anything else is an extra row. */
    while (next_line(rd, &s, &n)) {
        size_t k = 0;
        while (k < n && (s[k] == ' ' || s[k] == '\t'))
            k++;
        if (k != n)
            return fail(diag, AP_E_MAP_FORMAT, label, rd->line, 1, "more rows than height %d", (int)height);
    }
    return AP_OK;
}

int ap_map_parse(const char *id, const char *file_label, const char *buf, size_t len, const ap_map_opts *opts,
                 ap_map **out, ap_diag *diag)
{
    const char *label = file_label != NULL ? file_label : (id != NULL ? id : "");
    *out = NULL;
    if (id == NULL || !ap_map_id_valid(id, strlen(id)))
        return fail(diag, AP_E_MAP_FORMAT, label, 0, 0,
                    "invalid map id: must be 1..%d characters of [A-Za-z0-9_.-], the first not '.'", AP_MAP_ID_MAX - 1);
    if (buf == NULL && len > 0)
        return fail(diag, AP_E_INTERNAL, label, 0, 0, "no buffer");


    double cost_of[AP_TERRAIN_KINDS];
    int bad = 0;
    if (resolve_costs(ap_map_terrain_rule(opts, id), cost_of, &bad) != AP_OK)
        return fail(diag, AP_E_MAP_FORMAT, label, 0, 0, "terrain cost for '%c' must be 0 (default) or in [1, %g]",
                    AP_TERRAIN_CHARS[bad], AP_TERRAIN_COST_MAX);
    const double mpt = ap_map_scale_of(opts, id);
    if (!(mpt >= AP_MIN_METERS_PER_TILE && mpt <= AP_MAX_METERS_PER_TILE))
        return fail(diag, AP_E_MAP_FORMAT, label, 0, 0, "meters_per_tile must be in [%g, %g]", AP_MIN_METERS_PER_TILE,
                    AP_MAX_METERS_PER_TILE);
    /* Which capabilities get per-capability tables (tables.h): a bit per capability value 1 .. 15. */
    uint16_t caps = 1u << AP_CAP_DEFAULT;
    if (opts != NULL && opts->n_capabilities > 0) {
        caps = 0;
        for (size_t i = 0; i < opts->n_capabilities; i++) {
            if (opts->capabilities[i] == 0 || opts->capabilities[i] > AP_CAP_ALL)
                return fail(diag, AP_E_MAP_FORMAT, label, 0, 0, "capability %u is not a terrain set (1..15)",
                            (unsigned)opts->capabilities[i]);
            caps |= (uint16_t)(1u << opts->capabilities[i]);
        }
    }
    /* The map's own capability ('.', 'G', 'S' and whatever its terrain costs open: AP_TERRAIN_CHARS ".GSTW")
     * always gets its tables, so sized units are served on every map; so does every capability given costs. */
    const uint8_t own = (uint8_t)(AP_CAP_DEFAULT | (cost_of[3] > 0.0 ? AP_CAP_TREES : 0u) |
                                  (cost_of[4] > 0.0 ? AP_CAP_WATER : 0u));
    caps |= (uint16_t)(1u << own);
    for (size_t i = 0; opts != NULL && opts->cap_costs != NULL && i < opts->n_cap_costs; i++) {
        const ap_capability_costs *cc = &opts->cap_costs[i];
        if (cc->capability == 0 || cc->capability > AP_CAP_ALL)
            return fail(diag, AP_E_MAP_FORMAT, label, 0, 0, "capability %u is not a terrain set (1..15)",
                        (unsigned)cc->capability);
        for (int k = 0; k < AP_TERRAIN_KINDS; k++)
            if (cc->cost[k] != 0.0 && !(cc->cost[k] >= 1.0 && cc->cost[k] <= AP_TERRAIN_COST_MAX))
                return fail(diag, AP_E_MAP_FORMAT, label, 0, 0,
                            "capability %s: terrain cost for '%c' must be 0 (default) or in [1, %g]",
                            ap_capability_name(cc->capability), AP_TERRAIN_CHARS[k], AP_TERRAIN_COST_MAX);
        caps |= (uint16_t)(1u << cc->capability);
    }

    double t0 = ap_monotonic_seconds();
    /* The header within its first AP_MAP_HEADER_READ bytes, as ap_map_load reads it from a file: an upload
     * (PUT) of a header padded past them (height 000...0002) was taken while the same file was refused. */
    line_reader rd = {buf, len < AP_MAP_HEADER_READ ? len : AP_MAP_HEADER_READ, 0, 0};
    int32_t width = 0, height = 0;
    int st = parse_header(&rd, label, opts, &width, &height, diag);
    if (st != AP_OK)
        return header_fault(&rd, len, label, st, diag);
    /* the file's size first, then the header's end, in ap_map_load's order (a PUT and a reload of the same
     * bytes were answered 400 and 413) */
    if ((st = check_size(label, len, rd.pos, width, height, diag)) != AP_OK)
        return st;
    if (rd.len < len && buf[rd.pos - 1] != '\n') /* its "map" line cut by the window, not ended by a newline */
        return fail(diag, AP_E_MAP_FORMAT, label, 4, 1, "the header must end within the first %d bytes",
                    AP_MAP_HEADER_READ);
    rd.len = len;
    /* Too short to hold the rows (height rows of width characters, a line end between them): the grid is
     * read only to say where it ends, before the map's arrays are allocated, so an upload of a header
     * claiming 32768 x 32768 cells over an empty body does not reserve gigabytes for a 400. */
    if ((uint64_t)(len - rd.pos) < (uint64_t)height * ((uint64_t)width + 1) - 1) {
        line_reader probe = rd;
        if ((st = read_rows(&probe, label, width, height, NULL, diag)) != AP_OK)
            return st;
    }
    int64_t cells = (int64_t)width * height;
    int64_t padded = ((int64_t)width + 2) * ((int64_t)height + 2);

    ap_map *m = calloc(1, sizeof *m);
    if (m == NULL)
        return fail(diag, AP_E_NOMEM, label, 0, 0, "out of memory");
    snprintf(m->id, sizeof m->id, "%s", id);
    m->capabilities = caps;
    m->capability = own;
    m->meters_per_tile = mpt;
    m->skip_tables = ap_map_skip_of(opts, id);
    memcpy(m->cost_of, cost_of, sizeof m->cost_of);
    for (size_t i = 0; opts != NULL && opts->cap_costs != NULL && i < opts->n_cap_costs; i++)
        memcpy(m->cap_cost[opts->cap_costs[i].capability], opts->cap_costs[i].cost, sizeof m->cap_cost[0]);
    m->width = width;
    m->height = height;
    m->stride = width + 2;
    m->pass = calloc((size_t)padded, 1);
    m->terrain = malloc((size_t)cells);
    if (m->pass == NULL || m->terrain == NULL) {
        ap_map_free(m);
        return fail(diag, AP_E_NOMEM, label, 0, 0, "out of memory");
    }
    if ((st = read_rows(&rd, label, width, height, (char *)m->terrain, diag)) != AP_OK) {
        ap_map_free(m);
        return st;
    }
    st = ap_map_derive_pass(m);
    if (st != AP_OK) {
        ap_map_free(m);
        return fail(diag, st, label, 0, 0, "out of memory");
    }
    m->load_seconds = ap_monotonic_seconds() - t0;
    st = ap_map_attach_tables(m, NULL, NULL, 0, diag);
    if (st != AP_OK) {
        ap_map_free(m);
        if (diag != NULL)
            snprintf(diag->file, sizeof diag->file, "%s", label);
        return st;
    }
    *out = m;
    return AP_OK;
}

int ap_map_attach_tables(ap_map *m, const ap_map *prev, const ap_cell_pos *changed, size_t n, ap_diag *diag)
{
    const char *failed = "";
    int st = ap_map_update_tables(m, prev, changed, n, &failed);
    /* Every query reads the region table (plan.c), so it is not optional: a list of kinds without it is
     * a build defect, reported as such. */
    const ap_map_table *rt = ap_map_find_table(m, AP_REGION_TABLE_NAME);
    if (st == AP_OK && rt == NULL) {
        st = AP_E_INTERNAL;
        failed = AP_REGION_TABLE_NAME;
    }
    if (st != AP_OK)
        return fail(diag, st, m->id, 0, 0, "cannot build the %s table: %s", failed,
                    st == AP_E_NOMEM ? "out of memory" : ap_status_name(st));
    m->region = rt->data;
    m->region_count = (uint32_t)rt->count;
    return AP_OK;
}

const char *ap_file_kind(mode_t mode)
{
    return S_ISDIR(mode)                    ? "a directory"
           : S_ISFIFO(mode)                 ? "a FIFO"
           : S_ISSOCK(mode)                 ? "a socket"
           : S_ISCHR(mode) || S_ISBLK(mode) ? "a device"
                                            : "not a file";
}

int ap_read_fully(int fd, char *buf, size_t want, size_t *got)
{
    *got = 0;
    while (*got < want) {
        ssize_t r = read(fd, buf + *got, want - *got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return AP_E_IO;
        if (r == 0)
            break;
        *got += (size_t)r;
    }
    return AP_OK;
}

int ap_map_load(const char *path, const ap_map_opts *opts, ap_map **out, ap_diag *diag)
{
    *out = NULL;
    const char *base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    size_t bn = strlen(base);
    if (bn > 4 && memcmp(base + bn - 4, ".map", 4) == 0)
        bn -= 4;
    if (!ap_map_id_valid(base, bn))
        return fail(diag, AP_E_MAP_FORMAT, path, 0, 0,
                    "invalid map id from file name: must be 1..%d characters of [A-Za-z0-9_.-], the first not '.'",
                    AP_MAP_ID_MAX - 1);
    char id[AP_MAP_ID_MAX];
    memcpy(id, base, bn);
    id[bn] = '\0';

    /* O_NONBLOCK: opening a FIFO named *.map must not wait for a writer; cleared again before reading. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return fail(diag, AP_E_IO, path, 0, 0, "cannot open: %s", strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        close(fd);
        return fail(diag, AP_E_IO, path, 0, 0, "cannot stat: %s", strerror(e));
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        return fail(diag, AP_E_IO, path, 0, 0, "not a regular file (%s)", ap_file_kind(sb.st_mode));
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);

    /* The header first: its size and the limits bound the whole file, so a huge (or sparse) file is
     * refused before anything of its size is allocated. */
    size_t size = (size_t)sb.st_size;
    size_t head = size < AP_MAP_HEADER_READ ? size : AP_MAP_HEADER_READ;
    char *buf = malloc(head + 1);
    if (buf == NULL) {
        close(fd);
        return fail(diag, AP_E_NOMEM, path, 0, 0, "out of memory");
    }
    size_t len = 0;
    int st = ap_read_fully(fd, buf, head, &len);
    if (st == AP_OK) {
        line_reader rd = {buf, len, 0, 0};
        int32_t w = 0, h = 0;
        st = parse_header(&rd, path, opts, &w, &h, diag);
        if (st == AP_OK)
            st = check_size(path, size, rd.pos, w, h, diag);
        else
            st = header_fault(&rd, size, path, st, diag);
    } else {
        fail(diag, st, path, 0, 0, "read error: %s", strerror(errno));
    }
    if (st == AP_OK && size > head) {
        char *nb = realloc(buf, size + 1);
        if (nb == NULL) {
            st = fail(diag, AP_E_NOMEM, path, 0, 0, "out of memory");
        } else {
            buf = nb;
            size_t more = 0;
            st = ap_read_fully(fd, buf + len, size - len, &more);
            len += more;
            if (st != AP_OK)
                fail(diag, st, path, 0, 0, "read error: %s", strerror(errno));
        }
    }
    close(fd);
    if (st != AP_OK) {
        free(buf);
        return st;
    }
    st = ap_map_parse(id, path, buf, len, opts, out, diag);
    free(buf);
    return st;
}

const ap_map_table *ap_map_find_table(const ap_map *m, const char *name)
{
    if (m != NULL && m->base != NULL) {
        const ap_map_table *t = ap_map_find_table(m->base, name);
        return t != NULL && t->capability != 0 ? t : NULL;
    }
    for (int i = 0; m != NULL && i < m->n_tables; i++)
        if (strcmp(m->tables[i].name, name) == 0)
            return &m->tables[i];
    return NULL;
}

void ap_map_free(ap_map *m)
{
    if (m == NULL)
        return;
    for (int i = 0; i < m->n_tables; i++)
        if (m->tables[i].free_fn != NULL)
            m->tables[i].free_fn(m->tables[i].data);
    free(m->pass);
    free(m->pass_bits);
    free(m->terrain);
    free(m->kind);
    free(m->cheap);
    free(m);
}
