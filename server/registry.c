/* registry.c — load a directory of Moving AI maps; sorted array + bsearch lookup. */
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
        size_t plen = strlen(dir) + 1 + strlen(names[i]->d_name) + 1;
        char *path = malloc(plen);
        if (!path) {
            rc = AP_E_NOMEM;
            free(names[i]);
            continue;
        }
        snprintf(path, plen, "%s/%s", dir, names[i]->d_name);
        free(names[i]);

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

void ap_registry_free(ap_registry *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++)
        ap_map_free(r->maps[i]);
    free(r->maps);
    memset(r, 0, sizeof *r);
}
