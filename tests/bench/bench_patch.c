/* bench_patch.c — tile updates (planner/world/patch.h): per table kind, the time to update the table from
 * the previous version's (ap_table_kind.update) beside the time to build it from scratch, for a door (one
 * cell toggled between '.' and '@'), a wall (a 4 x 4 block of cells set to '@', then opened again) and 16
 * scattered doors (16 single cells spread over the map: the same count as the wall, far apart).
 *
 * Usage: arcpath-bench-patch [-r repeats] MAP.map ...   (default 9 repeats; medians are printed)
 * Output: a TSV row per map, edit and table: map, edit, table, full_ms, update_ms, full/update, has_update
 * (whether the kind has an update; without one "update" is a full build too; a kind's update may still fall
 * back to its build for a large change), then the whole version: a fresh parse of the edited file beside
 * ap_map_patch (one direction of the change). The edits are placed at
 * `repeats` spread-out passable cells, the same ones for both timings.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../planner/base/clock.h"
#include "../../planner/base/status.h"
#include "../../planner/world/patch.h"

#define MAX_REPEATS 101

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* m's letters as a Moving AI file (malloc'd, *len bytes). */
static char *file_of(const ap_map *m, size_t *len)
{
    size_t w = (size_t)m->width, h = (size_t)m->height, cap = 96 + (w + 1) * h;
    char *buf = malloc(cap);
    if (buf == NULL)
        return NULL;
    int at = snprintf(buf, cap, "type octile\nheight %zu\nwidth %zu\nmap\n", h, w);
    for (size_t y = 0; y < h; y++) {
        memcpy(buf + at + y * (w + 1), m->terrain + y * w, w);
        buf[at + y * (w + 1) + w] = '\n';
    }
    *len = (size_t)at + (w + 1) * h;
    return buf;
}

/* The edit set `kind` (0 door, 1 wall, 2 scattered doors) at passable cell number `which` of `of` spread over
 * the map (scattered: 16 doors at cells which + k * of of 16 * of, k = 0..15). */
static size_t edits_at(const ap_map *m, int kind, int which, int of, ap_cell_edit *e)
{
    if (kind == 2) {
        for (int k = 0; k < 16; k++)
            edits_at(m, 0, which + k * of, 16 * of, &e[k]);
        return 16;
    }
    int64_t target = m->passable_cells * (2 * which + 1) / (2 * of), seen = 0;
    int cx = 0, cy = 0;
    for (int32_t y = 0; y < m->height; y++)
        for (int32_t x = 0; x < m->width; x++)
            if (m->pass[ap_map_index(m, x, y)] && seen++ == target) {
                cx = x;
                cy = y;
            }
    if (kind == 0) {
        e[0] = (ap_cell_edit){cx, cy, '@'};
        return 1;
    }
    size_t n = 0;
    for (int dy = 0; dy < 4; dy++)
        for (int dx = 0; dx < 4; dx++) {
            int x = cx + dx < m->width ? cx + dx : m->width - 1, y = cy + dy < m->height ? cy + dy : m->height - 1;
            e[n++] = (ap_cell_edit){x, y, '@'};
        }
    return n;
}

static void bench_map(const char *path, int repeats)
{
    ap_map *base = NULL;
    ap_diag d;
    if (ap_map_load(path, NULL, &base, &d) != AP_OK) {
        fprintf(stderr, "%s: %s\n", path, d.msg);
        exit(1);
    }
    static const char *const edit_names[3] = {"door (1 cell)", "wall (4x4 cells)", "16 doors (scattered)"};
    for (int kind = 0; kind < 3; kind++) {
        int nt = base->n_tables;
        double (*full)[MAX_REPEATS] = calloc((size_t)nt, sizeof *full);
        double (*upd)[MAX_REPEATS] = calloc((size_t)nt, sizeof *upd);
        double whole_full[MAX_REPEATS], whole_upd[MAX_REPEATS]; /* ap_map_parse vs ap_map_patch, ms */
        for (int r = 0; r < repeats; r++) {
            ap_cell_edit e[16], undo[16];
            size_t n = edits_at(base, kind, r, repeats, e);
            for (size_t i = 0; i < n; i++)
                undo[i] = (ap_cell_edit){e[i].x, e[i].y, (char)base->terrain[e[i].y * base->width + e[i].x]};
            ap_map *a = NULL, *b = NULL, *f = NULL;
            /* close (a from base), then open again (b from a): both directions of a change are timed */
            double t0 = ap_monotonic_seconds();
            int st = ap_map_patch(base, e, n, &a, &d);
            double t1 = ap_monotonic_seconds();
            if (st != AP_OK || ap_map_patch(a, undo, n, &b, &d) != AP_OK) {
                fprintf(stderr, "%s: patch: %s\n", path, d.msg);
                exit(1);
            }
            size_t len;
            char *text = file_of(a, &len);
            double t2 = ap_monotonic_seconds();
            st = text != NULL ? ap_map_parse(a->id, a->id, text, len, NULL, &f, &d) : AP_E_NOMEM;
            double t3 = ap_monotonic_seconds();
            if (st != AP_OK) {
                fprintf(stderr, "%s: parse: %s\n", path, d.msg);
                exit(1);
            }
            free(text);
            whole_upd[r] = (t1 - t0) * 1e3;
            whole_full[r] = (t3 - t2) * 1e3;
            for (int t = 0; t < nt && t < a->n_tables && t < f->n_tables; t++) {
                full[t][r] = f->tables[t].build_seconds * 1e3;
                upd[t][r] = 0.5 * (a->tables[t].build_seconds + b->tables[t].build_seconds) * 1e3;
            }
            ap_map_free(f);
            ap_map_free(b);
            ap_map_free(a);
        }
        const char *slash = strrchr(path, '/');
        for (int t = 0; t < nt; t++) {
            const ap_map_table *s = &base->tables[t];
            double fm = median(full[t], repeats), um = median(upd[t], repeats);
            printf("%s\t%s\t%s\t%.3f\t%.3f\t%.1f\t%s\n", slash ? slash + 1 : path, edit_names[kind], s->name, fm, um,
                   um > 0 ? fm / um : 0.0, s->kind != NULL && s->kind->update != NULL ? "yes" : "no");
        }
        double fm = median(whole_full, repeats), um = median(whole_upd, repeats);
        printf("%s\t%s\t(the whole new version: ap_map_parse / ap_map_patch)\t%.3f\t%.3f\t%.1f\t\n",
               slash ? slash + 1 : path, edit_names[kind], fm, um, um > 0 ? fm / um : 0.0);
        free(full);
        free(upd);
    }
    ap_map_free(base);
}

int main(int argc, char **argv)
{
    int repeats = 9, c;
    while ((c = getopt(argc, argv, "r:")) != -1) {
        if (c != 'r' || (repeats = atoi(optarg)) < 1 || repeats > MAX_REPEATS) {
            fprintf(stderr, "usage: %s [-r repeats (1..%d)] MAP.map ...\n", argv[0], MAX_REPEATS);
            return 2;
        }
    }
    printf("map\tedit\ttable\tfull_ms\tupdate_ms\tfull/update\thas_update\n");
    for (int i = optind; i < argc; i++)
        bench_map(argv[i], repeats);
    return 0;
}
