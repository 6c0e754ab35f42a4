/* search.h — one A* core over a small domain interface, on a preallocated search matrix.
 *
 * The domain (grid 8/4-connected today; jump points, directional (x, y, heading), kinodynamic later) says
 * what the states are, their successors with costs, and the heuristic; the core owns the open list,
 * g/f values, parents, generation stamps, time slicing and the deadline. A new domain is a new file in
 * planner/, never a new search loop (HOG2 / warthog style).
 *
 * Source: Pinter, "Toward More Realistic Pathfinding", section "A Faster Implementation of the Standard
 * A*": a fixed matrix with one node per state, no allocation per search, and a "touched" mark so the matrix
 * is never cleared; here the mark is a 32-bit generation stamp (a node is fresh unless node.gen == ws.gen),
 * so starting a search is O(1).
 */
#ifndef AP_SEARCH_H
#define AP_SEARCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One successor produced by a domain: node id and edge cost (tiles), h = heuristic to the goal (tiles). */
typedef struct ap_succ {
    uint32_t node;
    double cost;
} ap_succ;

/* A search domain. States are dense ids in [0, node_count). All callbacks must be thread-safe with respect
 * to other searches (they may only read ctx). */
typedef struct ap_domain {
    const void *ctx;
    uint32_t node_count; /* states are 0 .. node_count-1; the workspace capacity must be >= this */
    int max_succ;        /* most successors one expansion yields */
    /* Write the successors of node into out[0 .. max_succ-1]; return their number. */
    int (*successors)(const void *ctx, uint32_t node, ap_succ *out);
    /* Admissible, consistent estimate of the cost from node to goal (tiles). */
    double (*heuristic)(const void *ctx, uint32_t node, uint32_t goal);
} ap_domain;

/* One search-matrix entry (16 bytes: four per cache line, none straddles one). Pinter keeps 16-byte nodes
 * with float costs; we keep g in double so that costs over long paths (thousands of sqrt(2) steps) stay
 * exact to 1e-12, which the Moving AI optimal lengths (8 decimals) demand. The open-list position lives in
 * ws->pos (touched only by the heap and on decrease-key) and the JPS+ arrival direction in the open entry,
 * so relaxing an edge reads one 16-byte node (search.c has the measurements; was 24 bytes with both). */
typedef struct ap_node {
    double g;        /* cost from the start, tiles */
    uint32_t parent; /* node id of the parent, UINT32_MAX for the start */
    uint32_t gen;    /* generation stamp: the node is part of the current search iff gen == ws->gen */
} ap_node;

/* Open-list entry: f (tiles), g (tiles; breaks ties between equal f, larger g first; then the smaller node
 * id, except in the JPS+ copy: search.c open_before_total), node id, and a word
 * the core's specialised loops carry with the node until it is expanded (JPS+: the arrival direction). A
 * 16-byte variant with a float tie key measured no faster (search.c) and reorders equal-f nodes, so it was
 * dropped. */
typedef struct ap_open_entry {
    double f;
    double gtie;
    uint32_t node;
    uint32_t aux;
} ap_open_entry;

/* The 8-connected grid's bucketed open list (search.c): buckets per tile of f, ring size (a power of two
 * above 2 * sqrt(2) * AP_BQ_PER_TILE + 2: every open f lies within 2 * sqrt(2) of the lowest), entries per
 * chunk of a bag. */
enum { AP_BQ_PER_TILE = 64, AP_BQ_RING = 256, AP_BQ_CHUNK = 32 };

/* The JPS+ copy's buckets per tile of f: its ring spans 64 tiles, and a successor whose f lies beyond it
 * waits in an overflow heap (search.c). 4 measured best of 1-64 (search.c, seventh round). */
enum { AP_BQ_JPS_PER_TILE = 4 };

/* JPS+: the lowest bucket is kept sorted (pop without a sift) while it has at most this many entries, else
 * it is a heap (search.c; 16, 32, 64, 128 measured alike). */
enum { AP_BQ_SORTED_MAX = 32 };

/* One bucket of the grid's (or JPS+'s) open list that is not the current one: an unordered bag of entries
 * kept in chunks of AP_BQ_CHUNK entries (all full but the last). */
typedef struct ap_bq_bag {
    uint32_t last; /* chunk holding the newest entries, UINT32_MAX when the bag is empty */
    uint32_t fill; /* entries in that chunk */
} ap_bq_bag;

/* A search matrix ("workspace"): every piece of mutable search state. Caller-owned; one thread at a time.
 * Sized once for the largest map (node capacity) and reused by every search without clearing. */
typedef struct ap_workspace {
    ap_node *nodes;
    ap_open_entry *open; /* binary heap, 1 slot per node at most; for the 8-connected grid and JPS+ only
                          * the lowest bucket of the bucketed open list (JPS+: its overflow heap
                          * grows down from the top, search.c) */
    uint32_t *pos;       /* per node: its index in open while it is open (grid, JPS+: or its index in
                          * bq_f while it sits in a bag; JPS+: or its place in the overflow); stale
                          * once expanded (a node in the lowest bucket is open iff pos < open_len and
                          * open[pos].node is the node) */
    uint32_t open_len;
    uint32_t capacity;   /* nodes */
    uint32_t gen;        /* current generation; bumped by ap_search_begin */
    ap_succ *succ;       /* scratch for one expansion's successors */
    int succ_cap;
    /* 8-connected grid and JPS+: the buckets above the current one (search.c, "Bucketed open list") */
    double *bq_f;             /* bag entries' f, in bq_chunks chunks of AP_BQ_CHUNK (g is the node's) */
    uint32_t *bq_node;        /* bag entries' node, same layout */
    uint32_t *bq_link;        /* per chunk: the bag's previous chunk, or the next free chunk */
    uint8_t *bq_aux;          /* JPS+: bag entries' arrival direction, same layout */
    uint32_t ov_len;          /* JPS+: entries in the overflow heap (top of open, search.c) */
    bool bq_sorted;           /* JPS+: open is sorted, first out last, instead of a heap */
    uint32_t bq_chunks;
    uint32_t bq_free;         /* first free chunk, UINT32_MAX when none */
    uint32_t bq_cur;          /* bucket held by open (f * AP_BQ_PER_TILE, JPS+ AP_BQ_JPS_PER_TILE, truncated) */
    uint32_t bq_count;        /* entries in the bags */
    ap_bq_bag bq_bag[AP_BQ_RING]; /* bucket b is bq_bag[b % AP_BQ_RING] */
    uint64_t bq_used[AP_BQ_RING / 64]; /* bit i: bq_bag[i] is not empty */
} ap_workspace;

/* Allocate a workspace for domains of up to `capacity` nodes and up to `max_succ` successors per expansion.
 * Returns AP_OK or AP_E_NOMEM (ws left zeroed). Memory: 16 + 4 + 24 + 13 bytes per node (node, pos, heap
 * entry, bag entry of the grid's and JPS+'s bucketed open list: f, node, JPS+ arrival direction) plus about
 * 100 KB (AP_BQ_RING + 1 spare chunks).
 * The node matrix and the position array are written once here, so their pages are mapped before the
 * first search (O(capacity); a server does this at start). */
int ap_workspace_init(ap_workspace *ws, uint32_t capacity, int max_succ);

/* Release a workspace's memory; ws may be zeroed or initialised. */
void ap_workspace_free(ap_workspace *ws);

/* One A* search in progress: begin, then run in slices until it is no longer AP_IN_PROGRESS. */
typedef struct ap_search {
    ap_workspace *ws;
    const ap_domain *dom;
    uint32_t start, goal;
    uint64_t deadline_ns; /* CLOCK_MONOTONIC ns (ap_clock_ns); 0 = none */
    const atomic_int *cancel; /* optional: when *cancel != 0 the search stops as AP_TIMEOUT */
    uint64_t expanded;    /* nodes taken off the open list so far */
    uint64_t generated;   /* successors looked at so far */
    int state;            /* AP_IN_PROGRESS until AP_OK / AP_NO_PATH / AP_TIMEOUT */
    double cost;          /* g of the goal when state == AP_OK */
} ap_search;

/* Start an A* search from start to goal on workspace ws (O(1) in the map size: bumps the generation stamp,
 * which measured far cheaper than clearing the matrix, search.c; for the 8-connected grid it also empties
 * the bags of the bucketed open list the previous search left, found through a bitmap).
 * Returns AP_OK when the search is ready to run, AP_E_INTERNAL when the domain needs more capacity than the
 * workspace has or an id is out of range. The search keeps pointers to ws and dom until it ends. */
int ap_search_begin(ap_search *s, ap_workspace *ws, const ap_domain *dom, uint32_t start, uint32_t goal,
                    uint64_t deadline_ns);

/* Expand at most max_expansions nodes (0 = no limit). Returns s->state: AP_IN_PROGRESS when the budget ran
 * out first (call again to continue), AP_OK when the goal was reached (s->cost is optimal for an admissible
 * consistent heuristic), AP_NO_PATH when the open list emptied, AP_TIMEOUT when the deadline passed or
 * *cancel was set (checked every 256 expansions). */
int ap_search_run(ap_search *s, uint64_t max_expansions);

/* After AP_OK: write the node ids from start to goal into out (up to cap) and return the path's node
 * count (which may exceed cap: call again with a bigger buffer). Returns 0 if the search did not succeed. */
size_t ap_search_path(const ap_search *s, uint32_t *out, size_t cap);

/* Monotonic clock in nanoseconds (CLOCK_MONOTONIC), for deadlines. Thread-safe. */
uint64_t ap_clock_ns(void);

#endif
