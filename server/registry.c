/* registry.c — load a directory of Moving AI maps and circle maps; sorted arrays + bsearch lookup. */
#include "registry.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../planner/base/status.h"

static int has_map_suffix(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".map") == 0;
}

/* Ids ending in a picture suffix (".svg", ".png"): the routes of the map pictures take those paths. */
static int is_picture_name(const char *id)
{
    size_t n = strlen(id);
    return n > 4 && (strcmp(id + n - 4, ".svg") == 0 || strcmp(id + n - 4, ".png") == 0);
}

static int filter_maps(const struct dirent *d)
{
    /* Hidden files (editor swap files, ".map") are not maps anyone meant to serve. */
    return d->d_name[0] != '.' && has_map_suffix(d->d_name);
}

static int filter_circles(const struct dirent *d)
{
    size_t n = strlen(d->d_name), k = strlen(AP_CIRCLES_SUFFIX);
    return d->d_name[0] != '.' && n > k && strcmp(d->d_name + n - k, AP_CIRCLES_SUFFIX) == 0;
}

static int cmp_circle_map(const void *a, const void *b)
{
    return strcmp(((const ap_circle_map *)a)->id, ((const ap_circle_map *)b)->id);
}

static int cmp_key_circle_map(const void *key, const void *elem)
{
    return strcmp((const char *)key, ((const ap_circle_map *)elem)->id);
}

/* "dir/name", malloc'd; NULL when out of memory. */
static char *join_path(const char *dir, const char *name)
{
    size_t plen = strlen(dir) + 1 + strlen(name) + 1;
    char *path = malloc(plen);
    if (path != NULL)
        snprintf(path, plen, "%s/%s", dir, name);
    return path;
}

static int cmp_map_ptr(const void *a, const void *b)
{
    const ap_map *ma = *(const ap_map *const *)a;
    const ap_map *mb = *(const ap_map *const *)b;
    return strcmp(ma->id, mb->id);
}

static int cmp_key_map(const void *key, const void *elem)
{
    const ap_map *m = *(const ap_map *const *)elem;
    return strcmp((const char *)key, m->id);
}

static void report(FILE *errf, const char *file, int line, int col, const char *msg)
{
    fprintf(errf, "arcpathd: map error: %s:%d:%d: %s\n", file, line, col, msg);
}

/* The circle maps of dir (AP_CIRCLES_SUFFIX), after the grids: a bad file or an id a grid or an earlier
 * circle map has is reported and skipped, as for grids. */
static int load_circles(ap_registry *r, const char *dir, FILE *errf)
{
    struct dirent **names = NULL;
    int nn = scandir(dir, &names, filter_circles, alphasort);
    if (nn <= 0) {
        free(names);
        return AP_OK; /* an unreadable directory was reported by the grid pass */
    }
    int rc = AP_OK;
    r->circles = calloc((size_t)nn, sizeof *r->circles);
    if (!r->circles)
        rc = AP_E_NOMEM;
    for (int i = 0; i < nn; i++) {
        char *path = rc == AP_OK ? join_path(dir, names[i]->d_name) : NULL;
        free(names[i]);
        if (!path) {
            rc = AP_E_NOMEM;
            continue;
        }
        ap_circle_map c;
        ap_diag diag;
        memset(&diag, 0, sizeof diag);
        int st = ap_circle_map_load(path, &c, &diag);
        if (st == AP_E_NOMEM) {
            rc = AP_E_NOMEM;
        } else if (st != AP_OK) {
            report(errf, diag.file[0] ? diag.file : path, diag.line, diag.col,
                   diag.msg[0] ? diag.msg : ap_status_name(st));
            r->errors++;
        } else if (ap_registry_find(r, c.id) || ap_registry_find_circles(r, c.id)) {
            char msg[128];
            snprintf(msg, sizeof msg, "duplicate map id \"%s\" (skipped)", c.id);
            report(errf, path, 0, 0, msg);
            r->errors++;
            ap_circle_world_free(c.world);
        } else {
            r->circles[r->n_circles++] = c;
            qsort(r->circles, r->n_circles, sizeof *r->circles, cmp_circle_map);
        }
        free(path);
    }
    free(names);
    return rc;
}

int ap_registry_load(ap_registry *r, const char *dir, const ap_map_opts *opts, FILE *errf)
{
    memset(r, 0, sizeof *r);
    if (!errf)
        errf = stderr;

    struct dirent **names = NULL;
    /* scandir + alphasort gives the documented, reproducible load order (and thus which duplicate wins). */
    int nn = scandir(dir, &names, filter_maps, alphasort);
    if (nn < 0) {
        report(errf, dir, 0, 0, strerror(errno));
        r->errors = 1;
        return AP_E_IO;
    }

    int rc = AP_OK;
    if (nn > 0) {
        r->maps = calloc((size_t)nn, sizeof *r->maps);
        if (!r->maps)
            rc = AP_E_NOMEM;
    }
    for (int i = 0; i < nn; i++) {
        if (rc != AP_OK) {
            free(names[i]);
            continue;
        }
        char *path = join_path(dir, names[i]->d_name);
        free(names[i]);
        if (!path) {
            rc = AP_E_NOMEM;
            continue;
        }

        /* Every *.map name is loaded, symlinks followed: a directory, FIFO or dangling link under a map's
         * name is reported as an error by the loader (ap_map_load), not skipped in silence. */
        ap_map *m = NULL;
        ap_diag diag;
        memset(&diag, 0, sizeof diag);
        int st_load = ap_map_load(path, opts, &m, &diag);
        if (st_load == AP_E_NOMEM) {
            rc = AP_E_NOMEM;
        } else if (st_load != AP_OK || !m) {
            report(errf, diag.file[0] ? diag.file : path, diag.line, diag.col,
                   diag.msg[0] ? diag.msg : ap_status_name(st_load));
            r->errors++;
        } else if (is_picture_name(m->id)) {
            /* GET /v1/maps/x.svg is the picture of map "x": a map named "x.svg" could not be reached. */
            char msg[256];
            snprintf(msg, sizeof msg, "map id \"%s\" ends in .svg or .png, which name the map pictures "
                     "(GET /v1/maps/{id}.svg, .png): rename the file (skipped)", m->id);
            report(errf, path, 0, 0, msg);
            r->errors++;
            ap_map_free(m);
            m = NULL;
        } else if (r->n > 0 && ap_registry_find(r, m->id)) {
            /* Names in one directory are unique, but ids are derived and could still collide; the map
             * already loaded stays, so the answer for an id never depends on a later file. */
            char msg[128];
            snprintf(msg, sizeof msg, "duplicate map id \"%s\" (skipped)", m->id);
            report(errf, path, 0, 0, msg);
            r->errors++;
            ap_map_free(m);
            m = NULL;
        } else {
            r->maps[r->n++] = m;
            /* Keep the array sorted as we go so the duplicate check above can bsearch; n is small. */
            qsort(r->maps, r->n, sizeof *r->maps, cmp_map_ptr);
            uint32_t nodes = ap_map_node_count(m);
            if (nodes > r->max_nodes)
                r->max_nodes = nodes;
        }
        free(path);
    }
    free(names);
    if (rc == AP_OK)
        rc = load_circles(r, dir, errf);
    if (rc != AP_OK)
        ap_registry_free(r);
    return rc;
}

const ap_map *ap_registry_find(const ap_registry *r, const char *id)
{
    if (!r || !r->n || !id)
        return NULL;
    ap_map *const *hit = bsearch(id, r->maps, r->n, sizeof *r->maps, cmp_key_map);
    return hit ? *hit : NULL;
}

const ap_circle_map *ap_registry_find_circles(const ap_registry *r, const char *id)
{
    if (!r || !r->n_circles || !id)
        return NULL;
    return bsearch(id, r->circles, r->n_circles, sizeof *r->circles, cmp_key_circle_map);
}

size_t ap_registry_count(const ap_registry *r)
{
    return r->n + r->n_circles;
}

void ap_registry_free(ap_registry *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++)
        ap_map_free(r->maps[i]);
    free(r->maps);
    for (size_t i = 0; i < r->n_circles; i++)
        ap_circle_world_free(r->circles[i].world);
    free(r->circles);
    memset(r, 0, sizeof *r);
}
