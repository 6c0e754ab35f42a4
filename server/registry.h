/* registry.h — the set of maps the server answers for: a versioned, reference-counted registry.
 *
 * Each map id names its current version (ap_map_version): an immutable map with its tables, a number
 * (map_version) that increases by one per change of that id, and a reference count. A request acquires the
 * current version when it resolves the map (one reference, taken under the registry's mutex) and releases
 * it when its answer is written; replacing or deleting a map swaps the id's pointer under the same mutex
 * and drops the registry's own reference, so the old version is freed when its last in-flight request
 * releases it. Queries in flight finish on the version they started with.
 *
 * Why a short mutex rather than an RCU-like epoch: a lookup is a bsearch over a few entries plus an
 * increment, held for well under a microsecond; the readers are the HTTP threads (1 by default), so the
 * lock is practically uncontended, and the writer (the map-lifecycle thread, server/lifecycle.h) takes it
 * only to swap a pointer — never while parsing or building tables. A reference count also gives the exact
 * release point a slow-lane search needs (it may hold its version for seconds), which an epoch scheme
 * would have to get from every pool worker announcing quiescent states.
 *
 * Entry kinds: a Moving AI grid (AP_MAP_KIND_GRID, `map`, from "<id>.map") or a world of circles
 * (AP_MAP_KIND_CIRCLES, `circles`, from "<id>.circles.json"); one id names one map of either kind. Lookups,
 * versions, references and the folder rescan are the same for every kind.
 */
#ifndef AP_SERVER_REGISTRY_H
#define AP_SERVER_REGISTRY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../planner/world/map.h"
#include "../proto/circles.h"

typedef enum ap_map_kind {
    AP_MAP_KIND_GRID = 1, /* a Moving AI grid: ap_map_version.map */
    AP_MAP_KIND_CIRCLES,  /* a world of circles: ap_map_version.circles (proto/circles.h) */
} ap_map_kind;

/* Where a version came from: a file of the maps folder (with the stat figures the folder rescan compares),
 * or a client (PUT / PATCH: no file). */
typedef struct ap_map_source {
    bool from_file;
    int64_t size;     /* bytes */
    int64_t mtime_ns; /* modification time, ns since the epoch */
    uint64_t inode;   /* a file replaced by rename has a new inode even with the same size and mtime */
} ap_map_source;

/* One version of one map id. Immutable after it is published, except refs. */
typedef struct ap_map_version {
    atomic_uint refs;    /* the registry's one while current, plus one per holder (ap_registry_acquire) */
    uint64_t version;    /* map_version: 1 for an id's first version, +1 per change of that id */
    ap_map_kind kind;
    ap_map *map;         /* AP_MAP_KIND_GRID: owned, freed with the version; NULL otherwise */
    ap_circle_map circles; /* AP_MAP_KIND_CIRCLES: id and world (owned, freed with the version) */
    ap_map_source src;
} ap_map_version;

/* The id of a version, whatever its kind: borrowed from v, valid while a reference to v is held. Pure;
 * thread-safe (a published version is immutable). */
const char *ap_map_version_id(const ap_map_version *v);

/* An id the registry has seen: its current version (NULL after a delete: the slot keeps the id's version
 * counter, so a map deleted and added again continues its numbering). */
typedef struct ap_registry_slot {
    char id[AP_MAP_ID_MAX];
    ap_map_version *cur;
    uint64_t last_version;
} ap_registry_slot;

typedef struct ap_registry {
    pthread_mutex_t mu;      /* guards slots, n_slots, cap_slots, n */
    ap_registry_slot *slots; /* sorted by id (strcmp), tombstones included */
    size_t n_slots, cap_slots;
    size_t n;                /* ids with a current version */
    uint32_t max_nodes;      /* largest ap_map_node_count over the maps loaded at start (0 when none) */
    uint32_t capacity;       /* most nodes a map may have (the lanes' workspace capacity); 0 = no limit */
    size_t max_maps;         /* most ids with a current version (config max_maps); 0 = no limit */
    int errors;              /* files skipped at start (bad map, duplicate or picture id) plus 1 if the
                              * directory was unreadable */
} ap_registry;

/* An empty registry (no maps). Returns AP_OK, or AP_E_NOMEM when its mutex cannot be made. r is caller-owned;
 * free with ap_registry_free. Thread safety: before other threads use r. */
int ap_registry_init(ap_registry *r);

/* Initialise r with r->max_maps = max_maps (0 = no limit) and load every "*.map" file of dir, in name order,
 * with ap_map_load and the load options
 * opts (NULL = defaults: limits and uniform-cost maps), then every "*.circles.json" file (circle maps,
 * ap_circle_map_load; an id a grid map already has is a duplicate), each as version 1 of its id. A file that fails to
 * load is reported on errf (NULL = stderr) by ap_registry_report and skipped; a
 * duplicate id is reported the same way and skipped (the first, in name order, wins), and so is an id
 * ending in ".svg" or ".png" ("x.svg.map": GET /v1/maps/x.svg is the picture of map "x", so such a map could
 * not be reached; ap_registry_picture_id), and every file after the first max_maps maps (unread). r is
 * overwritten.
 * Returns AP_OK (even when some or all files were bad: see r->errors and r->n), AP_E_IO when dir cannot be
 * opened (reported on errf; r is empty but usable, and r->errors is 1), or AP_E_NOMEM (r is freed).
 * Thread safety: before other threads use r. */
int ap_registry_load(ap_registry *r, const char *dir, const ap_map_opts *opts, size_t max_maps, FILE *errf);

/* Report a map file's error on errf as "arcpathd: map error: FILE:LINE:COL: MESSAGE", the place as far as it
 * is known: LINE and COL (1-based) only when > 0 ("FILE:LINE: MESSAGE" without a column, "FILE: MESSAGE" for
 * what concerns the whole file: unreadable, a duplicate id, over max_maps). Control characters of FILE and
 * MESSAGE are written as '?' (one line each, always). Thread safety: locks errf for the line. */
void ap_registry_report(FILE *errf, const char *file, int line, int col, const char *msg);

/* True when id ends in a picture suffix (".svg", ".png"): the routes of the map pictures take such paths,
 * so no map may have such an id (the folder load and rescan skip it; PUT refuses it). Pure. */
bool ap_registry_picture_id(const char *id);

/* The current version of id with one reference taken for the caller, or NULL (unknown id, id NULL).
 * Release it with ap_map_version_release. O(log n) under the mutex. Any thread. */
ap_map_version *ap_registry_acquire(ap_registry *r, const char *id);

/* Drop one reference; the last one frees the version and its map. NULL is ignored. Any thread. */
void ap_map_version_release(ap_map_version *v);

/* Take one more reference on v (NULL is ignored), which the caller holds one of already; returns v. Release
 * it with ap_map_version_release. Any thread. */
ap_map_version *ap_map_version_hold(ap_map_version *v);

/* Publish m (owned by the registry from now on, also on failure) as the next version of m->id, from src
 * (NULL = a client's: no file). *version (if non-NULL) gets its map_version and *replaced (if non-NULL)
 * whether the id had a current version, which is released (freed when no request holds it). Returns AP_OK,
 * AP_E_MAP_TOO_LARGE when the map has more nodes than r->capacity (m freed; the id unchanged),
 * AP_E_MAP_LIMIT (proto/errors.h) when the id has no current version and r->max_maps ids have one (m
 * freed), or AP_E_NOMEM. Any thread. */
int ap_registry_publish(ap_registry *r, ap_map *m, const ap_map_source *src, uint64_t *version, bool *replaced);

/* ap_registry_publish of an edited version: m (owned, also on failure) becomes the next version of m->id only
 * while the id's current version is still base (the version the edits were applied to; base 0 never
 * matches). Else m is freed and AP_E_UNKNOWN_MAP returned: a DELETE on the HTTP thread removed the id while
 * the lifecycle thread applied the edits, and publishing would bring the deleted map back. The other
 * returns and *version as ap_registry_publish. Any thread. */
int ap_registry_publish_over(ap_registry *r, ap_map *m, uint64_t base, uint64_t *version);

/* A request's condition on an id's current version (a compare-and-set: server/etag.h's If-Match and
 * If-None-Match), checked under the registry's lock with the change it guards, so no other change can come
 * between. holds(c, current) says whether the change may go ahead, current being the id's current version
 * (0: none); on false the change is refused with AP_E_PRECONDITION_FAILED and c->seen gets current. */
typedef struct ap_registry_cond ap_registry_cond;
struct ap_registry_cond {
    bool (*holds)(const ap_registry_cond *c, uint64_t current);
    void *arg;     /* the caller's */
    uint64_t seen; /* out: the current version a refusal saw (0: none) */
};

/* Whether cond (NULL: none) holds for id's current version now; on false cond->seen gets that version (0:
 * none). A look that changes nothing: a change it guards asks again, under the lock, in
 * ap_registry_publish_if or ap_registry_remove_if. Any thread. */
bool ap_registry_cond_holds(ap_registry *r, const char *id, ap_registry_cond *cond);

/* ap_registry_publish (m non-NULL) or ap_registry_publish_circles (m NULL: c), and, base > 0, only over
 * version base as ap_registry_publish_over, and only when cond (NULL: none) holds for the current version:
 * else AP_E_PRECONDITION_FAILED, the map freed, nothing changed. An edit whose base is gone
 * (AP_E_UNKNOWN_MAP) and a new id past max_maps (AP_E_MAP_LIMIT) are refused before cond is asked (RFC 9110
 * 13.2.1: preconditions do not turn an answer that is no 2xx into a 412). The other returns as those. Any
 * thread. */
int ap_registry_publish_if(ap_registry *r, ap_map *m, const ap_circle_map *c, const ap_map_source *src, uint64_t base,
                           ap_registry_cond *cond, uint64_t *version, bool *replaced);

/* Publish a circle map c (its world owned by the registry from now on, also on failure) as the next version
 * of c.id, as ap_registry_publish (the workspace capacity does not apply: the any-angle search sizes its own
 * graph). */
int ap_registry_publish_circles(ap_registry *r, ap_circle_map c, const ap_map_source *src, uint64_t *version,
                                bool *replaced);

/* Remove id's current version (released as by a replacement). Returns AP_OK or AP_E_UNKNOWN_MAP. Any
 * thread. */
int ap_registry_remove(ap_registry *r, const char *id);

/* ap_registry_remove only when cond holds for the id's current version (ap_registry_cond): else
 * AP_E_PRECONDITION_FAILED and nothing changed. An id without a current version is AP_E_UNKNOWN_MAP whatever
 * cond says (RFC 9110 13.2.1: preconditions are not evaluated where the answer would not be a 2xx). */
int ap_registry_remove_if(ap_registry *r, const char *id, ap_registry_cond *cond);

/* Every current version, in id order, each with a reference taken: *out gets a malloc'd array of *n
 * (free it with ap_registry_snapshot_free). Returns AP_OK or AP_E_NOMEM. Any thread. */
int ap_registry_snapshot(ap_registry *r, ap_map_version ***out, size_t *n);

/* Release every version of a snapshot and free the array. NULL is ignored. Any thread (the snapshot's owner). */
void ap_registry_snapshot_free(ap_map_version **vs, size_t n);

/* Ids with a current version. Any thread. */
size_t ap_registry_count(ap_registry *r);

/* True when publishing id now would be refused with AP_E_MAP_LIMIT: id has no current version and r holds
 * r->max_maps (non-zero) ids. The lifecycle thread asks before it reads and builds a new map (seconds for a
 * large one), since it is the only thread that adds ids once serving. Any thread. */
bool ap_registry_full_for(ap_registry *r, const char *id);

/* The message of a 409 map_limit refusing id on r ("the server holds max_maps (N) maps: ..."), into buf of
 * n bytes (truncated, NUL-terminated). Pure but for reading r->max_maps. */
void ap_registry_limit_message(char *buf, size_t n, const ap_registry *r, const char *id);

/* The source stamp of the file at path (stat, following links) into *src (zeroed first): AP_OK, or AP_E_IO
 * (errno kept) when it cannot be stat'ed. Thread-safe. */
int ap_map_source_of(const char *path, ap_map_source *src);

/* What one folder rescan did (ap_registry_rescan). */
typedef struct ap_rescan_counts {
    int added, replaced, removed, unchanged, errors;
} ap_rescan_counts;

/* Bring r in line with the maps folder dir (SIGHUP): a "*.map" or "*.circles.json" file whose id has no
 * current version is added (a circle map whose id is a grid's is a duplicate: skipped); one whose id's current version came from a file with another size, mtime or inode, or from a
 * client (PUT/PATCH), is loaded and replaces it; an unchanged file is left alone; a current version that
 * came from a file of dir which is gone is removed. Versions made by clients whose id has no file are kept.
 * A folder with no map file at all (no regular file: a directory or FIFO named x.map is none) while versions
 * from its files are current changes nothing (an unmounted
 * volume's empty mount point looks like that): logged as an error, counted as 1 error and those versions
 * unchanged.
 * Files are parsed and their tables built on the calling thread with no lock held. A file that fails to
 * load (or is larger than r->capacity) keeps the id's old version; each change and each error is logged on
 * logf as "arcpathd: reload: ID: ..." (errors by ap_registry_report). counts
 * (if non-NULL) gets the figures. Returns AP_OK, AP_E_IO (dir unreadable: nothing changed), or
 * AP_E_NOMEM. Not reentrant: one caller at a time (the lifecycle thread). */
int ap_registry_rescan(ap_registry *r, const char *dir, const ap_map_opts *opts, FILE *logf, ap_rescan_counts *counts);

/* ap_registry_rescan that checks *stop (NULL: never) before each file: once it is set the rescan stops there,
 * logs how far it got and removes nothing (it did not see every file); what it published stays. The
 * lifecycle thread's, so a shutdown waits for one file's load, not the folder's. Same thread rules. */
int ap_registry_rescan_until(ap_registry *r, const char *dir, const ap_map_opts *opts, FILE *logf,
                             ap_rescan_counts *counts, const atomic_bool *stop);

/* Free every version (whatever references remain are the caller's bug) and reset r. Call after all
 * readers have stopped. NULL is ignored. */
void ap_registry_free(ap_registry *r);

#endif
