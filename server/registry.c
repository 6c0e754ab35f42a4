/* registry.c — map id -> current version (sorted slots + bsearch under a mutex); reference-counted versions
 * of grids and circle maps; the maps folder's load at start and its rescan (SIGHUP). */
#include "registry.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../planner/base/status.h"
#include "../proto/errors.h"

static int has_map_suffix(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".map") == 0;
}

bool ap_registry_picture_id(const char *id)
{
    size_t n = strlen(id);
    return n > 4 && (strcmp(id + n - 4, ".svg") == 0 || strcmp(id + n - 4, ".png") == 0);
}

static int filter_maps(const struct dirent *d)
{
    /* Hidden files (editor swap files, ".map") are not maps anyone meant to serve. */
    return d->d_name[0] != '.' && has_map_suffix(d->d_name);
}

static bool has_circles_suffix(const char *name)
{
    size_t n = strlen(name), k = strlen(AP_CIRCLES_SUFFIX);
    return n > k && strcmp(name + n - k, AP_CIRCLES_SUFFIX) == 0;
}

static int filter_circles(const struct dirent *d)
{
    return d->d_name[0] != '.' && has_circles_suffix(d->d_name);
}

/* s with its control characters (a line feed, an escape) as '?': a file name or a map file's letter could
 * otherwise write a line of its own into the log, or drive the operator's terminal (a helper forged an
 * "arcpathd: reload done" line with a file name). errf is locked by the caller. */
static void put_printable(FILE *errf, const char *s)
{
    for (; *s != '\0'; s++) {
        const unsigned char c = (unsigned char)*s;
        putc_unlocked(c < 0x20 || c == 0x7f ? '?' : (int)c, errf);
    }
}

void ap_registry_report(FILE *errf, const char *file, int line, int col, const char *msg)
{
    flockfile(errf); /* one line, whatever other threads write */
    fputs("arcpathd: map error: ", errf);
    put_printable(errf, file);
    if (line > 0 && col > 0)
        fprintf(errf, ":%d:%d", line, col);
    else if (line > 0)
        fprintf(errf, ":%d", line);
    fputs(": ", errf);
    put_printable(errf, msg);
    putc_unlocked('\n', errf);
    funlockfile(errf);
}

static void report_diag(FILE *errf, const char *path, const ap_diag *diag, int st)
{
    ap_registry_report(errf, diag->file[0] ? diag->file : path, diag->line, diag->col, diag->msg[0] ? diag->msg : ap_status_name(st));
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

/* ---- versions ------------------------------------------------------------------------------------------ */

static void version_free(ap_map_version *v)
{
    if (v->kind == AP_MAP_KIND_GRID)
        ap_map_free(v->map);
    else
        ap_circle_world_free(v->circles.world);
    free(v);
}

const char *ap_map_version_id(const ap_map_version *v)
{
    return v->kind == AP_MAP_KIND_GRID ? v->map->id : v->circles.id;
}

void ap_map_version_release(ap_map_version *v)
{
    if (v != NULL && atomic_fetch_sub_explicit(&v->refs, 1, memory_order_acq_rel) == 1)
        version_free(v);
}

ap_map_version *ap_map_version_hold(ap_map_version *v)
{
    if (v != NULL)
        atomic_fetch_add_explicit(&v->refs, 1, memory_order_relaxed);
    return v;
}

/* ---- slots (under mu) ---------------------------------------------------------------------------------- */

/* Index of id's slot, or -(insertion point) - 1. */
static long slot_find(const ap_registry *r, const char *id)
{
    size_t lo = 0, hi = r->n_slots;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(id, r->slots[mid].id);
        if (c == 0)
            return (long)mid;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -(long)lo - 1;
}

/* id's slot, made (as a tombstone) when missing; NULL when out of memory. */
static ap_registry_slot *slot_get(ap_registry *r, const char *id)
{
    long i = slot_find(r, id);
    if (i >= 0)
        return &r->slots[i];
    size_t at = (size_t)(-i - 1);
    if (r->n_slots == r->cap_slots) {
        size_t cap = r->cap_slots ? r->cap_slots * 2 : 16;
        ap_registry_slot *ns = realloc(r->slots, cap * sizeof *ns);
        if (ns == NULL)
            return NULL;
        r->slots = ns;
        r->cap_slots = cap;
    }
    memmove(&r->slots[at + 1], &r->slots[at], (r->n_slots - at) * sizeof *r->slots);
    r->n_slots++;
    ap_registry_slot *s = &r->slots[at];
    memset(s, 0, sizeof *s);
    snprintf(s->id, sizeof s->id, "%s", id);
    return s;
}

/* ---- public -------------------------------------------------------------------------------------------- */

int ap_registry_init(ap_registry *r)
{
    memset(r, 0, sizeof *r);
    return pthread_mutex_init(&r->mu, NULL) == 0 ? AP_OK : AP_E_NOMEM;
}

ap_map_version *ap_registry_acquire(ap_registry *r, const char *id)
{
    if (r == NULL || id == NULL)
        return NULL;
    pthread_mutex_lock(&r->mu);
    long i = slot_find(r, id);
    ap_map_version *v = i >= 0 ? ap_map_version_hold(r->slots[i].cur) : NULL;
    pthread_mutex_unlock(&r->mu);
    return v;
}

/* Does cond (NULL: none) hold for version cur (NULL: none)? On false cond->seen records it. Under r->mu. */
static bool cond_holds(ap_registry_cond *cond, const ap_map_version *cur)
{
    if (cond == NULL || cond->holds(cond, cur != NULL ? cur->version : 0))
        return true;
    cond->seen = cur != NULL ? cur->version : 0;
    return false;
}

bool ap_registry_cond_holds(ap_registry *r, const char *id, ap_registry_cond *cond)
{
    pthread_mutex_lock(&r->mu);
    const long i = slot_find(r, id);
    const bool ok = cond_holds(cond, i >= 0 ? r->slots[i].cur : NULL);
    pthread_mutex_unlock(&r->mu);
    return ok;
}

/* Publish the new version v (kind and map set; owned) as the next of its id; with base > 0 only while the
 * id's current version is still base (else v is freed and AP_E_UNKNOWN_MAP returned), and only
 * when cond holds (else AP_E_PRECONDITION_FAILED). */
static int publish_version(ap_registry *r, ap_map_version *v, const ap_map_source *src, uint64_t base,
                           ap_registry_cond *cond, uint64_t *version, bool *replaced)
{
    atomic_init(&v->refs, 1); /* the registry's */
    if (src != NULL)
        v->src = *src;
    pthread_mutex_lock(&r->mu);
    long i = slot_find(r, ap_map_version_id(v));
    const bool is_new = i < 0 || r->slots[i].cur == NULL;
    if (base != 0 && (is_new || r->slots[i].cur->version != base)) {
        /* an edit: its base must still be current (no slot is made for an unknown id) */
        pthread_mutex_unlock(&r->mu);
        version_free(v);
        return AP_E_UNKNOWN_MAP;
    }
    if (is_new && r->max_maps != 0 && r->n >= r->max_maps) { /* (before slot_get: no tombstone for it) */
        pthread_mutex_unlock(&r->mu);
        version_free(v);
        return AP_E_MAP_LIMIT;
    }
    if (!cond_holds(cond, is_new ? NULL : r->slots[i].cur)) { /* (after the refusals that answer no 2xx) */
        pthread_mutex_unlock(&r->mu);
        version_free(v);
        return AP_E_PRECONDITION_FAILED;
    }
    ap_registry_slot *s = slot_get(r, ap_map_version_id(v));
    if (s == NULL) {
        pthread_mutex_unlock(&r->mu);
        version_free(v);
        return AP_E_NOMEM;
    }
    v->version = ++s->last_version;
    ap_map_version *old = s->cur;
    s->cur = v;
    if (old == NULL)
        r->n++;
    pthread_mutex_unlock(&r->mu);
    if (version != NULL)
        *version = v->version;
    if (replaced != NULL)
        *replaced = old != NULL;
    ap_map_version_release(old); /* outside the lock: the last reference frees a whole map */
    return AP_OK;
}

/* ap_registry_publish and ap_registry_publish_over: base 0 publishes whatever the id holds. */
static int publish_grid(ap_registry *r, ap_map *m, const ap_map_source *src, uint64_t base, ap_registry_cond *cond,
                        uint64_t *version, bool *replaced)
{
    if (r->capacity != 0 && ap_map_node_count(m) > r->capacity) {
        ap_map_free(m);
        return AP_E_MAP_TOO_LARGE;
    }
    ap_map_version *v = calloc(1, sizeof *v);
    if (v == NULL) {
        ap_map_free(m);
        return AP_E_NOMEM;
    }
    v->kind = AP_MAP_KIND_GRID;
    v->map = m;
    return publish_version(r, v, src, base, cond, version, replaced);
}

int ap_registry_publish(ap_registry *r, ap_map *m, const ap_map_source *src, uint64_t *version, bool *replaced)
{
    return publish_grid(r, m, src, 0, NULL, version, replaced);
}

int ap_registry_publish_over(ap_registry *r, ap_map *m, uint64_t base, uint64_t *version)
{
    return publish_grid(r, m, NULL, base != 0 ? base : UINT64_MAX, NULL, version, NULL);
}

static int publish_circles(ap_registry *r, ap_circle_map c, const ap_map_source *src, ap_registry_cond *cond,
                           uint64_t *version, bool *replaced)
{
    ap_map_version *v = calloc(1, sizeof *v);
    if (v == NULL) {
        ap_circle_world_free(c.world);
        return AP_E_NOMEM;
    }
    v->kind = AP_MAP_KIND_CIRCLES;
    v->circles = c;
    return publish_version(r, v, src, 0, cond, version, replaced);
}

int ap_registry_publish_circles(ap_registry *r, ap_circle_map c, const ap_map_source *src, uint64_t *version,
                                bool *replaced)
{
    return publish_circles(r, c, src, NULL, version, replaced);
}

int ap_registry_publish_if(ap_registry *r, ap_map *m, const ap_circle_map *c, const ap_map_source *src, uint64_t base,
                           ap_registry_cond *cond, uint64_t *version, bool *replaced)
{
    if (m == NULL)
        return publish_circles(r, *c, src, cond, version, replaced);
    return publish_grid(r, m, src, base, cond, version, replaced);
}

/* Remove id's current version if it is `only` (NULL: whatever it is) and cond (NULL: none) holds for it. */
static int remove_version(ap_registry *r, const char *id, const ap_map_version *only, ap_registry_cond *cond)
{
    pthread_mutex_lock(&r->mu);
    long i = slot_find(r, id);
    ap_map_version *old = i >= 0 ? r->slots[i].cur : NULL;
    if (old != NULL && (only == NULL || old == only)) {
        if (!cond_holds(cond, old)) {
            pthread_mutex_unlock(&r->mu);
            return AP_E_PRECONDITION_FAILED;
        }
        r->slots[i].cur = NULL;
        r->n--;
    } else {
        old = NULL;
    }
    pthread_mutex_unlock(&r->mu);
    if (old == NULL)
        return AP_E_UNKNOWN_MAP;
    ap_map_version_release(old);
    return AP_OK;
}

int ap_registry_remove(ap_registry *r, const char *id)
{
    return id != NULL ? remove_version(r, id, NULL, NULL) : AP_E_UNKNOWN_MAP;
}

int ap_registry_remove_if(ap_registry *r, const char *id, ap_registry_cond *cond)
{
    return id != NULL ? remove_version(r, id, NULL, cond) : AP_E_UNKNOWN_MAP;
}

int ap_registry_snapshot(ap_registry *r, ap_map_version ***out, size_t *n)
{
    *out = NULL;
    *n = 0;
    pthread_mutex_lock(&r->mu);
    ap_map_version **vs = r->n ? malloc(r->n * sizeof *vs) : NULL;
    if (r->n && vs == NULL) {
        pthread_mutex_unlock(&r->mu);
        return AP_E_NOMEM;
    }
    size_t k = 0;
    for (size_t i = 0; i < r->n_slots; i++)
        if (r->slots[i].cur != NULL)
            vs[k++] = ap_map_version_hold(r->slots[i].cur);
    pthread_mutex_unlock(&r->mu);
    *out = vs;
    *n = k;
    return AP_OK;
}

void ap_registry_snapshot_free(ap_map_version **vs, size_t n)
{
    for (size_t i = 0; vs != NULL && i < n; i++)
        ap_map_version_release(vs[i]);
    free(vs);
}

size_t ap_registry_count(ap_registry *r)
{
    pthread_mutex_lock(&r->mu);
    size_t n = r->n;
    pthread_mutex_unlock(&r->mu);
    return n;
}

bool ap_registry_full_for(ap_registry *r, const char *id)
{
    pthread_mutex_lock(&r->mu);
    long i = slot_find(r, id);
    const bool full = (i < 0 || r->slots[i].cur == NULL) && r->max_maps != 0 && r->n >= r->max_maps;
    pthread_mutex_unlock(&r->mu);
    return full;
}

void ap_registry_limit_message(char *buf, size_t n, const ap_registry *r, const char *id)
{
    snprintf(buf, n,
             "the server holds max_maps (%zu) maps: DELETE one before adding %s, or raise max_maps; nothing was "
             "changed",
             r->max_maps, id);
}

int ap_map_source_of(const char *path, ap_map_source *src)
{
    struct stat st;
    memset(src, 0, sizeof *src);
    if (stat(path, &st) != 0)
        return AP_E_IO;
    src->from_file = true;
    src->size = (int64_t)st.st_size;
    src->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000LL + (int64_t)st.st_mtim.tv_nsec;
    src->inode = (uint64_t)st.st_ino;
    return AP_OK;
}

static bool same_file(const ap_map_source *a, const ap_map_source *b)
{
    return a->from_file && b->from_file && a->size == b->size && a->mtime_ns == b->mtime_ns && a->inode == b->inode;
}

/* A map file's kind (by its suffix) and id (the name without it); false for other names, and for a name
 * whose id is too long, which gets the id "" (its loader reports it; cut to AP_MAP_ID_MAX - 1 it named
 * another file's map, so that map was never removed when its own file went). */
static bool file_kind(const char *name, ap_map_kind *kind, char id[AP_MAP_ID_MAX])
{
    size_t n = strlen(name), k;
    if (has_circles_suffix(name)) {
        *kind = AP_MAP_KIND_CIRCLES;
        k = strlen(AP_CIRCLES_SUFFIX);
    } else if (has_map_suffix(name)) {
        *kind = AP_MAP_KIND_GRID;
        k = 4;
    } else {
        return false;
    }
    n -= k;
    if (n >= AP_MAP_ID_MAX) {
        id[0] = '\0';
        return false;
    }
    memcpy(id, name, n);
    id[n] = '\0';
    return true;
}

static int filter_any(const struct dirent *d)
{
    return filter_maps(d) || filter_circles(d);
}

/* The map files of dir: grids first, then circle maps, each in name order (so a grid wins an id over a
 * circle map, and which duplicate wins is reproducible); *names as scandir's (free each and the array).
 * <0 when unreadable. */
static int list_files(const char *dir, struct dirent ***names)
{
    int nn = scandir(dir, names, filter_any, alphasort);
    for (int i = 1; i < nn; i++) { /* a stable insertion sort by kind: few files */
        struct dirent *d = (*names)[i];
        int j = i;
        while (j > 0 && has_circles_suffix((*names)[j - 1]->d_name) && !has_circles_suffix(d->d_name)) {
            (*names)[j] = (*names)[j - 1];
            j--;
        }
        (*names)[j] = d;
    }
    return nn;
}

/* Load the map file path of kind and publish it as its id's next version (capacity rules of publish). The
 * source is stamped before reading, so a write racing the load is seen as a change by the next rescan.
 * *parsed says whether the file loaded (so a failure after it is the publish's); loader errors are
 * reported on errf. */
static int load_and_publish(ap_registry *r, const char *path, ap_map_kind kind, const ap_map_opts *opts, FILE *errf,
                            uint64_t *version, bool *replaced, bool *parsed)
{
    ap_map_source src;
    ap_map_source_of(path, &src);
    ap_diag diag;
    memset(&diag, 0, sizeof diag);
    int st;
    ap_map *m = NULL;
    ap_circle_map c;
    if (kind == AP_MAP_KIND_GRID)
        st = ap_map_load(path, opts, &m, &diag);
    else
        st = ap_circle_map_load(path, opts, &c, &diag);
    *parsed = st == AP_OK;
    if (st != AP_OK) {
        report_diag(errf, path, &diag, st);
        return st;
    }
    return kind == AP_MAP_KIND_GRID ? ap_registry_publish(r, m, &src, version, replaced)
                                    : ap_registry_publish_circles(r, c, &src, version, replaced);
}

static const char picture_msg[] = "the map id ends in .svg or .png, which name the map pictures "
                                  "(GET /v1/maps/{id}.svg, .png): rename the file (skipped)";

/* The log line of a map file skipped because the registry is full (r->max_maps ids loaded). */
static void report_full(FILE *errf, const char *path, const ap_registry *r)
{
    char msg[160];
    snprintf(msg, sizeof msg, "the server holds max_maps (%zu) maps: not added (raise max_maps, or delete one)",
             r->max_maps);
    ap_registry_report(errf, path, 0, 0, msg);
}

int ap_registry_load(ap_registry *r, const char *dir, const ap_map_opts *opts, size_t max_maps, FILE *errf)
{
    if (ap_registry_init(r) != AP_OK)
        return AP_E_NOMEM;
    r->max_maps = max_maps;
    if (!errf)
        errf = stderr;

    struct dirent **names = NULL;
    /* scandir + alphasort gives the documented, reproducible load order (and thus which duplicate wins). */
    int nn = list_files(dir, &names);
    if (nn < 0) {
        ap_registry_report(errf, dir, 0, 0, strerror(errno));
        r->errors = 1;
        return AP_E_IO;
    }

    int rc = AP_OK;
    for (int i = 0; i < nn; i++) {
        char *path = rc == AP_OK ? join_path(dir, names[i]->d_name) : NULL;
        ap_map_kind kind = AP_MAP_KIND_GRID;
        char id[AP_MAP_ID_MAX];
        file_kind(names[i]->d_name, &kind, id);
        free(names[i]);
        if (path == NULL) {
            rc = AP_E_NOMEM;
            continue;
        }
        /* Every name is loaded, symlinks followed: a directory, FIFO or dangling link under a map's name is
         * reported as an error by the loader, not skipped in silence. */
        ap_map_version *dup = ap_registry_acquire(r, id);
        bool parsed = false;
        if (ap_registry_picture_id(id)) {
            /* GET /v1/maps/x.svg is the picture of map "x": a map named "x.svg" could not be reached. */
            ap_registry_report(errf, path, 0, 0, picture_msg);
            r->errors++;
        } else if (dup != NULL) {
            /* Names in one directory are unique, but an id may have a grid and a circle map: the grid,
             * loaded first, stays, so the answer for an id never depends on a later file. */
            char msg[128];
            snprintf(msg, sizeof msg, "duplicate map id \"%s\" (skipped)", id);
            ap_registry_report(errf, path, 0, 0, msg);
            r->errors++;
        } else if (ap_map_id_valid(id, strlen(id)) && ap_registry_full_for(r, id)) {
            /* (a name no map may have goes to the loader, which says so without reading the file: "raise
             * max_maps" would send the operator the wrong way, a helper) */
            report_full(errf, path, r);
            r->errors++;
        } else {
            int st = load_and_publish(r, path, kind, opts, errf, NULL, NULL, &parsed);
            if (st == AP_E_NOMEM)
                rc = AP_E_NOMEM;
            else if (st != AP_OK)
                r->errors++;
        }
        ap_map_version_release(dup);
        free(path);
    }
    free(names);
    /* The workspaces are sized at start for the largest grid loaded now. */
    ap_map_version **vs = NULL;
    size_t nv = 0;
    if (rc == AP_OK && ap_registry_snapshot(r, &vs, &nv) == AP_OK) {
        for (size_t i = 0; i < nv; i++)
            if (vs[i]->kind == AP_MAP_KIND_GRID && ap_map_node_count(vs[i]->map) > r->max_nodes)
                r->max_nodes = ap_map_node_count(vs[i]->map);
        ap_registry_snapshot_free(vs, nv);
    }
    if (rc != AP_OK)
        ap_registry_free(r);
    return rc;
}

/* True when names[0, n) holds the file of id for kind ("<id>.map" or "<id>.circles.json"). */
static bool listed(struct dirent **names, int n, const char *id, ap_map_kind kind)
{
    for (int i = 0; i < n; i++) {
        ap_map_kind k;
        char other[AP_MAP_ID_MAX];
        if (file_kind(names[i]->d_name, &k, other) && k == kind && strcmp(other, id) == 0)
            return true;
    }
    return false;
}

/* How many current versions came from a file of the maps folder (0 when the snapshot fails: the caller
 * then goes on as if none did). */
static size_t from_file_count(ap_registry *r)
{
    ap_map_version **vs = NULL;
    size_t nv = 0, n = 0;
    if (ap_registry_snapshot(r, &vs, &nv) != AP_OK)
        return 0;
    for (size_t i = 0; i < nv; i++)
        n += vs[i]->src.from_file;
    ap_registry_snapshot_free(vs, nv);
    return n;
}

/* Whether one of names[0, n) in dir is a regular file (links followed): what a rescan can load. Stops at the
 * first, so a folder of map files costs one stat. */
static bool any_regular_file(const char *dir, struct dirent **names, int n)
{
    bool found = false;
    for (int i = 0; i < n && !found; i++) {
        char *path = join_path(dir, names[i]->d_name);
        struct stat sb;
        found = path != NULL && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
        free(path);
    }
    return found;
}

int ap_registry_rescan(ap_registry *r, const char *dir, const ap_map_opts *opts, FILE *logf, ap_rescan_counts *counts)
{
    return ap_registry_rescan_until(r, dir, opts, logf, counts, NULL);
}

int ap_registry_rescan_until(ap_registry *r, const char *dir, const ap_map_opts *opts, FILE *logf,
                             ap_rescan_counts *counts, const atomic_bool *stop)
{
    ap_rescan_counts c = {0};
    if (!logf)
        logf = stderr;
    struct dirent **names = NULL;
    int nn = list_files(dir, &names);
    if (nn < 0) { /* the folder is gone or unreadable: nothing is removed, as for an empty one (below) */
        const int e = errno;
        const size_t kept = from_file_count(r);
        char msg[200];
        if (kept > 0)
            snprintf(msg, sizeof msg, "%s: kept the %zu maps loaded from the folder", strerror(e), kept);
        else
            snprintf(msg, sizeof msg, "%s", strerror(e));
        ap_registry_report(logf, dir, 0, 0, msg);
        if (counts)
            *counts = (ap_rescan_counts){.unchanged = (int)kept, .errors = 1};
        return AP_E_IO;
    }
    if (!any_regular_file(dir, names, nn)) {
        /* No map file at all while maps loaded from the folder are served: an unmounted volume's empty
         * mount point, or a copy caught half-way, far more often than an operator retiring every map at
         * once (DELETE does that). Removing them all would turn every replica unready at once. Names that
         * are no file (a directory, a FIFO, a dangling link called x.map) do not count as map files. */
        const size_t kept = from_file_count(r);
        if (kept > 0) {
            char msg[160];
            snprintf(msg, sizeof msg,
                     "no map file in the folder: kept the %zu maps loaded from it (DELETE /v1/maps/{id} removes one)",
                     kept);
            ap_registry_report(logf, dir, 0, 0, msg);
            for (int i = 0; i < nn; i++)
                free(names[i]);
            free(names);
            if (counts)
                *counts = (ap_rescan_counts){.unchanged = (int)kept, .errors = 1};
            return AP_OK;
        }
    }
    int rc = AP_OK, looked = 0;
    for (int i = 0; i < nn && rc == AP_OK; i++, looked++) {
        if (stop != NULL && atomic_load(stop)) { /* shutting down: the rest waits for the next start */
            fprintf(logf, "arcpathd: reload: stopped by the shutdown after %d of %d files; nothing removed\n",
                    looked, nn);
            break;
        }
        char *path = join_path(dir, names[i]->d_name);
        if (path == NULL) {
            rc = AP_E_NOMEM;
            break;
        }
        ap_map_kind kind = AP_MAP_KIND_GRID;
        char id[AP_MAP_ID_MAX];
        file_kind(names[i]->d_name, &kind, id);
        ap_map_source now;
        ap_map_version *cur = ap_registry_acquire(r, id);
        bool unchanged = cur != NULL && cur->kind == kind && ap_map_source_of(path, &now) == AP_OK &&
                         same_file(&cur->src, &now);
        /* A circle map whose id a grid of this folder has (grids go first): the grid stays. */
        bool shadowed = cur != NULL && kind == AP_MAP_KIND_CIRCLES && cur->kind == AP_MAP_KIND_GRID &&
                        cur->src.from_file && listed(names, nn, id, AP_MAP_KIND_GRID);
        uint64_t was = cur ? cur->version : 0;
        const bool was_from_file = cur != NULL && cur->src.from_file;
        const ap_map_kind was_kind = cur != NULL ? cur->kind : kind;
        ap_map_version_release(cur);
        if (ap_registry_picture_id(id) || shadowed) {
            ap_registry_report(logf, path, 0, 0, shadowed ? "a grid map has this id (skipped)" : picture_msg);
            c.errors++;
        } else if (unchanged) {
            c.unchanged++;
        } else if (ap_map_id_valid(id, strlen(id)) && ap_registry_full_for(r, id)) {
            /* (not read: it could not be added; an invalid name is the loader's to report, as at start) */
            report_full(logf, path, r);
            c.errors++;
        } else {
            uint64_t version = 0;
            bool replaced = false, parsed = false;
            int st = load_and_publish(r, path, kind, opts, logf, &version, &replaced, &parsed);
            if (st == AP_OK) {
                fprintf(logf, "arcpathd: reload: %s: %s, map_version %llu\n", id, replaced ? "replaced" : "added",
                        (unsigned long long)version);
                replaced ? c.replaced++ : c.added++;
            } else {
                if (parsed && st == AP_E_MAP_TOO_LARGE)
                    ap_registry_report(logf, path, 0, 0,
                           "the map has more nodes, (width + 2) * (height + 2), than the search workspaces hold "
                           "(max_workspace_cells)");
                if (st == AP_E_MAP_LIMIT)
                    report_full(logf, path, r);
                if (st == AP_E_NOMEM)
                    rc = AP_E_NOMEM;
                c.errors++;
                /* a version whose own file is gone is removed below: the failed file keeps nothing then */
                if (was && !(was_from_file && !listed(names, nn, id, was_kind)))
                    fprintf(logf, "arcpathd: reload: %s: kept map_version %llu\n", id, (unsigned long long)was);
            }
        }
        free(path);
    }
    /* Versions that came from a file of this folder which is gone (not after a stopped rescan: it did not
     * look at every file). */
    ap_map_version **vs = NULL;
    size_t nv = 0;
    if (rc == AP_OK && looked == nn && ap_registry_snapshot(r, &vs, &nv) != AP_OK)
        rc = AP_E_NOMEM;
    for (size_t i = 0; i < nv; i++) {
        const char *id = ap_map_version_id(vs[i]);
        if (vs[i]->src.from_file && !listed(names, nn, id, vs[i]->kind) && remove_version(r, id, vs[i], NULL) == AP_OK) {
            fprintf(logf, "arcpathd: reload: %s: removed (its file is gone)\n", id);
            c.removed++;
        }
    }
    ap_registry_snapshot_free(vs, nv);
    for (int i = 0; i < nn; i++)
        free(names[i]);
    free(names);
    if (counts)
        *counts = c;
    return rc;
}

void ap_registry_free(ap_registry *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_slots; i++)
        if (r->slots[i].cur != NULL)
            version_free(r->slots[i].cur);
    free(r->slots);
    pthread_mutex_destroy(&r->mu);
    memset(r, 0, sizeof *r);
}
