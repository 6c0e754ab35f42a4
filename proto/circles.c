/* circles.c — the strict `<id>.circles.json` loader (circles.h), on json_in.h's readers. */
#include "circles.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../planner/base/status.h"
#include "json_in.h"

static int fail(ap_diag *diag, const char *file, int line, int col, const char *field, const char *msg)
{
    if (diag != NULL) {
        snprintf(diag->file, sizeof diag->file, "%s", file);
        diag->line = line;
        diag->col = col;
        /* The message quotes the JSON path itself (json_in.h's wording); field only says whether to add it. */
        if (field != NULL)
            snprintf(diag->msg, sizeof diag->msg, "\"%.63s\" %.180s", field, msg);
        else
            snprintf(diag->msg, sizeof diag->msg, "%.240s", msg);
    }
    return AP_E_MAP_FORMAT;
}

int ap_json_get_circles(const ap_json_reader *r, json_t *obj, const char *prefix, const char *key, bool required,
                        const ap_circle_limits *lim, ap_circle **out, size_t *n)
{
    static const char *const one[] = {"x", "y", "r", NULL};
    *out = NULL;
    *n = 0;
    json_t *arr;
    char path[64];
    int st;
    if ((st = ap_json_member(r, obj, prefix, key, required, &arr, path, sizeof path)) != AP_OK || arr == NULL)
        return st;
    if (!json_is_array(arr))
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path, "\"%s\" must be an array", path);
    size_t count = json_array_size(arr);
    if (count > lim->max_n)
        return ap_json_fail(r->err, AP_E_INVALID_REQUEST, path, "\"%s\" must hold at most %zu circles (got %zu)",
                            path, lim->max_n, count);
    ap_circle *c = malloc((count > 0 ? count : 1) * sizeof *c);
    if (c == NULL)
        return AP_E_NOMEM;
    for (size_t i = 0; i < count; i++) {
        char at[96]; /* path (< 64 bytes) and an index of at most 20 digits */
        snprintf(at, sizeof at, "%.63s[%zu]", path, i);
        json_t *o = json_array_get(arr, i);
        if (!json_is_object(o))
            st = ap_json_fail(r->err, AP_E_INVALID_REQUEST, at, "\"%s\" must be an object", at);
        else if ((st = ap_json_check_known(r, o, at, one)) == AP_OK &&
                 (st = ap_json_get_number(r, o, at, "x", true, -lim->coord, lim->coord, &c[i].x, NULL)) == AP_OK &&
                 (st = ap_json_get_number(r, o, at, "y", true, -lim->coord, lim->coord, &c[i].y, NULL)) == AP_OK &&
                 (st = ap_json_get_number(r, o, at, "r", true, 0.0, lim->r_max, &c[i].r, NULL)) == AP_OK &&
                 lim->r_positive && !(c[i].r > 0.0)) {
            char rp[112];
            ap_json_join_path(rp, sizeof rp, at, "r");
            st = ap_json_fail(r->err, AP_E_INVALID_REQUEST, rp, "\"%s\" must be above 0", rp);
        }
        if (st != AP_OK) {
            free(c);
            return st;
        }
    }
    *out = c;
    *n = count;
    return AP_OK;
}

/* Read the members into the circle array (w, h, c[0 .. *n)); json_in records the first problem. */
static int read_members(const ap_json_reader *r, json_t *root, double *w, double *h, ap_circle **c, size_t *n)
{
    static const char *const top[] = {"width", "height", "circles", NULL};
    static const ap_circle_limits lim = {AP_CIRCLES_MAX, 1e7, 1e7, false};
    int st;
    if ((st = ap_json_check_known(r, root, "", top)) != AP_OK ||
        /* (the range is ap_circle_world_create's, whose message says it: "in (0, 1e7]", 0 excluded) */
        (st = ap_json_get_number(r, root, "", "width", true, -INFINITY, INFINITY, w, NULL)) != AP_OK ||
        (st = ap_json_get_number(r, root, "", "height", true, -INFINITY, INFINITY, h, NULL)) != AP_OK)
        return st;
    return ap_json_get_circles(r, root, "", "circles", true, &lim, c, n);
}

int ap_circles_parse(const char *file_label, const char *buf, size_t len, ap_circle_world **out, ap_diag *diag)
{
    *out = NULL;
    ap_wire_error err;
    ap_json_reader r;
    ap_json_reader_init(&r, &err, AP_JSON_MAP_FILE);
    json_t *root = NULL;
    ap_circle *c = NULL;
    size_t n = 0;
    double w = 0.0, h = 0.0;
    int st = ap_json_load_object(&r, buf, len, &root);
    if (st == AP_OK)
        st = read_members(&r, root, &w, &h, &c, &n);
    json_decref(root);
    if (st == AP_E_NOMEM) {
        free(c);
        return st;
    }
    if (st != AP_OK) {
        free(c);
        return fail(diag, file_label, err.line, err.col, NULL, err.message);
    }
    char field[64], msg[128];
    st = ap_circle_world_create(w, h, c, n, out, field, sizeof field, msg, sizeof msg);
    free(c);
    if (st == AP_E_MAP_FORMAT)
        return fail(diag, file_label, 0, 0, field, msg);
    return st;
}

/* AP_E_IO with diag: why path cannot be read (errno e, or none when e is 0). */
static int io_fail(ap_diag *diag, const char *path, const char *what, int e)
{
    if (diag != NULL) {
        snprintf(diag->file, sizeof diag->file, "%s", path);
        diag->line = diag->col = 0;
        snprintf(diag->msg, sizeof diag->msg, "%s%s%s", what, e != 0 ? ": " : "", e != 0 ? strerror(e) : "");
    }
    return AP_E_IO;
}

int ap_circles_load(const char *path, ap_circle_world **out, ap_diag *diag)
{
    *out = NULL;
    /* O_NONBLOCK: a FIFO named *.circles.json must not wait for a writer (ap_map_load's rule); only a regular
     * file is read, and its size is known before anything is allocated. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return io_fail(diag, path, "cannot read", errno);
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        close(fd);
        return io_fail(diag, path, "cannot stat", e);
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        char what[64];
        snprintf(what, sizeof what, "not a regular file (%s)", ap_file_kind(sb.st_mode));
        return io_fail(diag, path, what, 0);
    }
    if ((uint64_t)sb.st_size > AP_CIRCLES_MAX_FILE_BYTES) {
        close(fd);
        if (diag != NULL) {
            snprintf(diag->file, sizeof diag->file, "%s", path);
            diag->line = diag->col = 0;
            snprintf(diag->msg, sizeof diag->msg, "file has %llu bytes; a circle map has at most %llu",
                     (unsigned long long)sb.st_size, (unsigned long long)AP_CIRCLES_MAX_FILE_BYTES);
        }
        return AP_E_MAP_TOO_LARGE;
    }
    const size_t size = (size_t)sb.st_size;
    char *buf = malloc(size > 0 ? size : 1);
    if (buf == NULL) {
        close(fd);
        return AP_E_NOMEM;
    }
    size_t len = 0;
    int st = ap_read_fully(fd, buf, size, &len); /* a file that shrank while read parses as what was there */
    const int e = errno;
    close(fd);
    st = st != AP_OK ? io_fail(diag, path, "cannot read", e) : ap_circles_parse(path, buf, len, out, diag);
    free(buf);
    return st;
}

static bool circle_map_id(const char *path, char out[AP_MAP_ID_MAX])
{
    const char *base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    size_t n = strlen(base), k = strlen(AP_CIRCLES_SUFFIX);
    if (n <= k || strcmp(base + n - k, AP_CIRCLES_SUFFIX) != 0 || !ap_map_id_valid(base, n - k))
        return false;
    memcpy(out, base, n - k);
    out[n - k] = '\0';
    return true;
}

int ap_circle_map_load(const char *path, const ap_map_opts *opts, ap_circle_map *out, ap_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (!circle_map_id(path, out->id)) {
        if (diag != NULL) {
            snprintf(diag->file, sizeof diag->file, "%s", path);
            diag->line = diag->col = 0;
            snprintf(diag->msg, sizeof diag->msg, "a circle map's id (its file name without \"%s\") must be 1 to %d "
                     "bytes of [A-Za-z0-9_.-], the first not '.'", AP_CIRCLES_SUFFIX, AP_MAP_ID_MAX - 1);
        }
        return AP_E_MAP_FORMAT;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int st = ap_circles_load(path, &out->world, diag);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->load_seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    out->meters_per_tile = ap_map_scale_of(opts, out->id);
    return st;
}
