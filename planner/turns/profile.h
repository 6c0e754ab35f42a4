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
} ap_profile;

/* Check a key: radius finite in [0, AP_MAX_UNIT_RADIUS], turning radius finite in (0, AP_MAX_TURNING_RADIUS]
 * (limits.h), headings 8|16, neighbours 8|24|48. Returns true when valid. Pure. */
bool ap_profile_key_valid(const ap_profile_key *k);

/* Build the tables for key k. On success stores a new profile in *out (caller owns; ap_profile_free) and
 * returns AP_OK; AP_E_INVALID_REQUEST for an invalid key, AP_E_NOMEM on allocation failure. Cost: about
 * 1-30 ms for turning radii up to 4 tiles (Directional48 with 16 headings at R = 4: ~27 ms; with reverse
 * ~53 ms; tests/bench/bench_directional.c): quarter-turn and mirror symmetry, arcs enumerated in pieces
 * (profile.c). Thread-safe (no shared state). */
int ap_profile_build(const ap_profile_key *k, ap_profile **out);

/* ap_profile_build that gives up once CLOCK_MONOTONIC passes deadline_ns (ap_clock_ns; 0 = none), checked
 * every few milliseconds of work at most: returns AP_TIMEOUT with nothing allocated, so a query whose
 * deadline passes while its unit's tables are built answers on time (a new profile took 557 ms past a 1 ms
 * deadline). */
int ap_profile_build_until(const ap_profile_key *k, uint64_t deadline_ns, ap_profile **out);

/* Free a profile. NULL ignored. Not while a search may still read it. */
void ap_profile_free(ap_profile *p);

/* Heading in radians of heading index h for a profile with H headings: 2*pi*h/H, wrapped to [-pi, pi). */
double ap_profile_heading(int h, int H);

#define AP_PROFILE_CACHE_SLOTS 32

/* A bounded cache of built profiles. Lock-free publish with C11 atomics, so planner/ needs no threads or
 * mutexes and any number of worker threads may look up and insert at once: a slot goes from NULL to a
 * profile exactly once (compare-and-swap, release) and is read with acquire loads, so a reader sees a
 * fully built, immutable table. Profiles are never evicted while the cache lives (no reader can hold a
 * dangling pointer, which an LRU would need reference counts or locks to prevent); when all slots are taken
 * the caller gets a private build it must free (refuse-when-full, the work done per query). Two threads
 * missing the same key at once may both build it; the loser frees its copy and uses the winner's. */
typedef struct ap_profile_cache {
    _Atomic(ap_profile *) slot[AP_PROFILE_CACHE_SLOTS];
    atomic_uint_fast64_t hits[AP_PROFILE_CACHE_SLOTS]; /* lookups slot i answered (relaxed counters) */
    atomic_uint_fast64_t build_ns;                      /* wall time of every build ap_profile_get ran */
    atomic_uint_fast64_t builds;                        /* number of those builds */
} ap_profile_cache;

/* The process-wide cache used when a query names none (zero-initialised static storage). */
ap_profile_cache *ap_profile_cache_default(void);

/* Look up key k in cache c (built and published on a miss; c may be NULL = no caching). On success sets
 * *out and *owned: owned = true means the profile is private (cache full or NULL) and the caller must
 * ap_profile_free it; otherwise the cache owns it until ap_profile_cache_clear. Returns AP_OK or as
 * ap_profile_build. Thread-safe (lock-free). Also the way to preload profiles from the configuration.
 * Counts a hit on the slot when the key was already cached, and adds every build's time to c->build_ns
 * (private builds and builds that lost a publishing race included). */
int ap_profile_get(ap_profile_cache *c, const ap_profile_key *k, const ap_profile **out, bool *owned);

/* ap_profile_get whose build (on a miss) honours deadline_ns as ap_profile_build_until: AP_TIMEOUT, and
 * nothing published, when it passes first. A cached profile is returned whatever the deadline. */
int ap_profile_get_until(ap_profile_cache *c, const ap_profile_key *k, uint64_t deadline_ns, const ap_profile **out,
                         bool *owned);

/* Number of profiles in the cache and the bytes they hold. Thread-safe. */
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

/* Describe up to cap cached profiles in publication order into out (may be NULL when cap is 0); returns
 * how many are cached (may exceed cap). Thread-safe (acquire loads; a profile published meanwhile may or
 * may not be listed). */
size_t ap_profile_cache_list(ap_profile_cache *c, ap_profile_info *out, size_t cap);

/* Total wall time in seconds of every build ap_profile_get ran on c (monotonic: a Prometheus counter), and
 * in *builds (may be NULL) their number. Thread-safe. */
double ap_profile_cache_build_seconds(ap_profile_cache *c, uint64_t *builds);

/* Free every cached profile and empty the cache (counters kept). Not thread-safe: only when no search runs
 * (shutdown). */
void ap_profile_cache_clear(ap_profile_cache *c);

#endif
