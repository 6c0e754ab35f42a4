/* profile.h — per-unit-profile tables for Directional A*: the edge list with its hit-check masks, built once
 * per (radius, turning radius, headings, neighbourhood, reverse) and shared read-only by every search.
 *
 * Source: Pinter, "Toward More Realistic Pathfinding" (Game Developer, 2001), "Legal Turns: The Directional
 * A* Algorithm": "Expanded searching to surrounding tiles" (Directional8/24/48 and DirTable), "Using a
 * hit-check table" (for each start heading, end heading and child offset, the cells the unit touches on
 * the way, as a bit field over a square around the origin), "Other options: backing up" (reverse headings).
 *
 * Edges. From a node at the centre of cell (0, 0) with heading index h0 (heading 2*pi*h0/H) to every cell
 * (dx, dy) with max(|dx|, |dy|) <= k (k = 1, 2, 3 for 8, 24, 48 neighbours) and every heading index h1:
 * the shortest Dubins path (Pinter's Figures 9-11 plus the CCC words). With reverse, also the shortest
 * Reeds-Shepp path when it drives backwards at all (so a forward edge is always available, and the search
 * picks by its penalised cost).
 *
 * Hit-check masks, conservative and exact: an edge's mask holds every cell whose closed square lies within
 * r + 1e-7 tiles of the curve (ap_segment_cells with a radius 1e-7 above the unit's, so that the exact
 * ap_segment_clear verdict on the same curve recomputed at absolute coordinates can never disagree through
 * rounding). Bit (dx + S) of row (dy + S) stands for cell (dx, dy) relative to the parent; the parent and
 * child cells themselves are included (cheap, and it makes a node's own clearance part of every edge into
 * it). Unlike Pinter's fixed 11x11 field, S is the largest extent of any edge (at most 31, one 64-bit word
 * per row); edges that would need more (only loops of turning radii far above 10 tiles) are dropped and
 * counted in `dropped`.
 *
 * Heuristic table. The per-profile table Pinter describes (curve length by distance and relative angle)
 * is exact only for goals at cell centres with compass headings; arcpath's directional domain instead
 * memoises the exact Dubins / Reeds-Shepp length to the actual goal pose per query (directional.c), which
 * costs one closed-form evaluation per distinct (offset, heading) visited. The edge lengths here are the
 * table part that every query shares.
 */
#ifndef AP_PROFILE_H
#define AP_PROFILE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a table depends on. Two keys are equal when every field is (doubles compared exactly). */
typedef struct ap_profile_key {
    double radius;         /* unit disc radius, tiles, 0 .. AP_MAX_UNIT_RADIUS */
    double turning_radius; /* tiles, > 0 */
    int headings;          /* 8 or 16 compass headings */
    int neighbours;        /* 8, 24 or 48 (Directional8/24/48) */
    bool reverse;          /* add Reeds-Shepp edges that drive backwards */
} ap_profile_key;

#define AP_EDGE_FIRST_REV 1u /* the edge's first piece is driven backwards */
#define AP_EDGE_LAST_REV 2u  /* its last piece is driven backwards (the child's direction bit) */
#define AP_EDGE_RS 4u        /* the curve is a Reeds-Shepp path (else Dubins) */

/* One edge of the directional lattice. Lengths in tiles, turn in radians. */
typedef struct ap_dir_edge {
    int8_t dx, dy;   /* child cell relative to the parent cell */
    uint8_t h1;      /* child heading index */
    uint8_t flags;   /* AP_EDGE_* */
    uint8_t row0;    /* first mask row (row y stands for dy = y - S) */
    uint8_t nrows;   /* rows row0 .. row0 + nrows - 1 may have bits */
    uint8_t cusps;   /* direction changes inside the curve (Reeds-Shepp only) */
    uint8_t pad;
    uint32_t rows;   /* index into ap_profile.rows of mask row row0 */
    float len_fwd;   /* length driven forwards */
    float len_rev;   /* length driven backwards */
    float turn;      /* total turning, sum of |sweep| */
} ap_dir_edge;

/* A built profile: immutable after ap_profile_build, shared read-only. */
typedef struct ap_profile {
    ap_profile_key key;
    int S;                       /* masks cover offsets -S .. S on both axes */
    int k;                       /* neighbourhood radius in cells: 1, 2 or 3 */
    uint32_t edge_first[17];     /* edges of start heading h0: edge_first[h0] .. edge_first[h0 + 1] - 1 */
    ap_dir_edge *edges;
    uint32_t n_edges;
    uint64_t *rows;              /* mask rows, one 64-bit word each (bit dx + S) */
    size_t n_rows;
    uint32_t dropped;            /* edges dropped because their sweep exceeds 31 cells */
    size_t bytes;                /* memory held (struct + edges + rows) */
    double build_seconds;        /* wall time of the build */
    atomic_uint refs;            /* references (ap_profile_get's callers and the cache's own; 1 after a
                                  * build): the one mutable field, dropped with ap_profile_release */
} ap_profile;

/* Check a key: radius finite in [0, AP_MAX_UNIT_RADIUS], turning radius finite in (0, AP_MAX_TURNING_RADIUS]
 * (limits.h), headings 8|16, neighbours 8|24|48. Returns true when valid. Pure. */
bool ap_profile_key_valid(const ap_profile_key *k);

/* Whether keys a and b are equal: every field, doubles compared exactly (what the cache looks keys up by).
 * Pure. */
bool ap_profile_key_equal(const ap_profile_key *a, const ap_profile_key *b);

/* Build the tables for key k. On success stores a new profile in *out (caller owns; ap_profile_free) and
 * returns AP_OK; AP_E_INVALID_REQUEST for an invalid key, AP_E_NOMEM on allocation failure. Cost: about
 * 1-30 ms for turning radii up to 4 tiles (Directional48 with 16 headings at R = 4: ~27 ms; with reverse
 * ~53 ms; tests/bench/bench_directional.c): quarter-turn and mirror symmetry, arcs enumerated in pieces
 * (profile.c). Thread-safe (no shared state). */
int ap_profile_build(const ap_profile_key *k, ap_profile **out);

/* ap_profile_build that gives up once CLOCK_MONOTONIC passes deadline_ns (ap_clock_ns; 0 = none), checked
 * every few milliseconds of work at most: returns AP_TIMEOUT with nothing allocated, so a query whose
 * deadline passes while its unit's tables are built answers on time (a new profile took 557 ms past a 1 ms
 * deadline). Otherwise as ap_profile_build (AP_OK with *out the caller's, AP_E_INVALID_REQUEST, AP_E_NOMEM; *out
 * NULL on every error). Thread-safe (no shared state). */
int ap_profile_build_until(const ap_profile_key *k, uint64_t deadline_ns, ap_profile **out);

/* Free a profile. NULL ignored. Not while a search may still read it. */
void ap_profile_free(ap_profile *p);

/* Heading in radians of heading index h for a profile with H headings: 2*pi*h/H, wrapped to [-pi, pi). Pure;
 * thread-safe. */
double ap_profile_heading(int h, int H);

#define AP_PROFILE_CACHE_SLOTS 32

/* A bounded LRU cache of built profiles, shared by every worker thread. A small spin lock (C11 atomic_flag,
 * so planner/ needs no thread library) guards the slots for a few loads and stores per lookup; a build never
 * runs under it. Profiles are reference-counted, so evicting the least recently used one while a search
 * still reads it is safe: the search's reference keeps it alive until ap_profile_release.
 * Why an admission hook: without one, any client could fill the cache with profiles nobody else uses and
 * evict everyone else's (a client sending 32 distinct unit shapes a second would make every other query
 * rebuild its tables). The server gives each query a hook that asks the client's budget (server/budget.h);
 * a refused build still answers the query, with a private profile that is not cached.
 * Zero-initialised storage is an empty cache. */
typedef struct ap_profile_cache {
    atomic_flag lock;                    /* guards slot, used, hits, inserted, tick, evictions, refused */
    ap_profile *slot[AP_PROFILE_CACHE_SLOTS];
    uint64_t used[AP_PROFILE_CACHE_SLOTS]; /* tick of slot i's last lookup or insertion (LRU order) */
    uint64_t hits[AP_PROFILE_CACHE_SLOTS]; /* lookups slot i answered since its profile was inserted */
    uint64_t inserted[AP_PROFILE_CACHE_SLOTS]; /* tick of slot i's insertion (ap_profile_cache_list's order) */
    uint64_t tick;
    uint64_t evictions;                  /* profiles dropped to make room for a new one */
    uint64_t refused;                    /* builds kept private because the admission hook said no */
    atomic_uint_fast64_t build_ns;       /* wall time of every build ap_profile_get ran */
    atomic_uint_fast64_t builds;         /* number of those builds */
} ap_profile_cache;

/* The admission hook: may a build that finds the cache full evict its least recently used profile?
 * Called at most once per lookup, on the looking-up thread, without the cache's lock held; fn must be
 * thread-safe. */
typedef struct ap_profile_admit {
    bool (*fn)(void *arg);
    void *arg;
} ap_profile_admit;

/* Where the profile ap_profile_get_until returned came from. */
typedef enum ap_profile_source {
    AP_PROFILE_HIT = 0,  /* already cached */
    AP_PROFILE_CACHED,   /* built and put in a free slot */
    AP_PROFILE_EVICTED,  /* built and put in the least recently used slot, whose profile was dropped */
    AP_PROFILE_PRIVATE   /* built and not cached (no cache, or the admission hook refused an eviction) */
} ap_profile_source;

/* The process-wide cache used when a query names none (zero-initialised static storage): never NULL, never
 * freed (empty it with ap_profile_cache_clear). Thread-safe. */
ap_profile_cache *ap_profile_cache_default(void);

/* Look up key k in cache c (c may be NULL = no caching), building the profile on a miss within deadline_ns
 * (ap_profile_build_until; 0 = none) and caching it: in a free slot, else in place of the least recently
 * used profile when admit is NULL or admit->fn(admit->arg) says yes, else not at all (a private profile).
 * On AP_OK *out holds one reference for the caller, who must ap_profile_release it (whatever the source),
 * and *src (if non-NULL) says where it came from. Returns AP_OK, or as ap_profile_build_until
 * (AP_E_INVALID_REQUEST, AP_E_NOMEM, AP_TIMEOUT: nothing cached, *out NULL). A cached profile is returned
 * whatever the deadline. Counts hits per slot, evictions, refusals and every build's time (builds that lost
 * a race to publish the same key included). Thread-safe. Also the way to preload profiles from the
 * configuration. */
int ap_profile_get_until(ap_profile_cache *c, const ap_profile_key *k, uint64_t deadline_ns,
                         const ap_profile_admit *admit, const ap_profile **out, ap_profile_source *src);

/* ap_profile_get_until with no deadline and no admission hook: the same returns (AP_OK, AP_E_INVALID_REQUEST,
 * AP_E_NOMEM), the same reference for the caller to ap_profile_release. Thread-safe. */
int ap_profile_get(ap_profile_cache *c, const ap_profile_key *k, const ap_profile **out);

/* Is the profile of key k in cache c (NULL: no)? A look under the lock: no LRU update, no hit counted, no
 * build. For a server deciding where a query whose profile must first be built begins. Thread-safe. */
bool ap_profile_cache_has(ap_profile_cache *c, const ap_profile_key *k);

/* Drop one reference to p (from ap_profile_get*); the last one frees it. NULL is ignored. Thread-safe. */
void ap_profile_release(const ap_profile *p);

/* Number of profiles in the cache and in *bytes (may be NULL) the bytes they hold; 0 for a NULL c. Thread-safe
 * (under the cache's lock). */
size_t ap_profile_cache_stats(ap_profile_cache *c, size_t *bytes);

/* What GET /v1/profiles and the metrics show of one cached profile. */
typedef struct ap_profile_info {
    ap_profile_key key;
    size_t bytes;          /* memory held by the tables (ap_profile.bytes) */
    double build_seconds;  /* wall time of its build */
    uint64_t hits;         /* ap_profile_get lookups it answered from the cache */
    uint32_t n_edges;
    int S;                 /* mask half-width, cells */
} ap_profile_info;

/* Describe up to cap cached profiles in the order they were inserted (the oldest first: a new profile
 * takes an evicted one's slot, so slot order says nothing) into out (may be NULL when cap is 0); returns
 * how many are cached (may exceed cap). Thread-safe (a consistent snapshot under the cache's lock). */
size_t ap_profile_cache_list(ap_profile_cache *c, ap_profile_info *out, size_t cap);

/* Total wall time in seconds of every build ap_profile_get ran on c (monotonic: a Prometheus counter), and
 * in *builds (may be NULL) their number. Thread-safe. */
double ap_profile_cache_build_seconds(ap_profile_cache *c, uint64_t *builds);

/* Profiles evicted and builds refused admission so far (monotonic: Prometheus counters). Thread-safe. */
void ap_profile_cache_counts(ap_profile_cache *c, uint64_t *evictions, uint64_t *refused);

/* Drop the cache's reference to every cached profile and empty the cache (counters kept); profiles still
 * held by a search live until it releases them. Thread-safe. */
void ap_profile_cache_clear(ap_profile_cache *c);

#endif
