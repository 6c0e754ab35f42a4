/* search.h — one A* core over a small domain interface, on a preallocated search matrix.
 *
 * The domain (grid 8/4-connected, jump points, directional (x, y, heading), any-angle graphs, HAA*'s abstract
 * graph, kinodynamic (x, y, heading, speed) with a payload per state) says
 * what the states are, their successors with costs, and the heuristic; the core owns the open list,
 * g/f values, parents, generation stamps, time slicing and the deadline, and names no domain. A new domain
 * is a new file in planner/, never a hand-written search loop (HOG2 / warthog style): a domain that needs
 * its successors inlined instantiates the one loop template (core_loop.h) and hands it over as
 * ap_domain.run.
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

/* One successor produced by a domain: node id and edge cost (tiles). The heuristic is the domain's
 * heuristic callback, evaluated by the core only for new or improved nodes. */
typedef struct ap_succ {
    uint32_t node;
    double cost;
} ap_succ;

struct ap_search;

/* A search domain. States are dense ids in [0, node_count). All callbacks must be thread-safe with respect
 * to other searches (they may only read ctx). Fields after `heuristic` are optional: a domain set up with
 * a positional or designated initialiser leaves them zero, which means "none". */
typedef struct ap_domain {
    const void *ctx;
    uint32_t node_count; /* states are 0 .. node_count-1; the workspace capacity must be >= this */
    int max_succ;        /* most successors one expansion yields */
    /* Write the successors of node into out[0 .. max_succ-1]; return their number. */
    int (*successors)(const void *ctx, uint32_t node, ap_succ *out);
    /* Admissible, consistent estimate of the cost from node to goal (tiles). */
    double (*heuristic)(const void *ctx, uint32_t node, uint32_t goal);
    /* Optional: the domain's own specialised copy of the A* loop (its successors and heuristic inlined,
     * its own open-list policy), instantiated from planner/search/core_loop.h. ap_search_run calls it
     * instead of the generic loop. It must expand what the generic loop would over successors and
     * heuristic (same costs; the grid's also in the same order), with the same slicing, deadline and
     * cancel behaviour. A copy of a domain whose callbacks are replaced (a wrapper) must set run to NULL. */
    int (*run)(struct ap_search *s, uint64_t max_expansions);
    /* Optional per-node payload (e.g. the exact continuous pose a state was reached at, as Hybrid A*
     * keeps): payload_bytes per node of workspace memory, read with ap_search_payload. With
     * payload_bytes > 0 the core calls successors_payload instead of successors: it gets the expanded
     * node's payload (read-only) and writes one payload per successor into out_payload (successor k at
     * byte k * payload_bytes); the core copies successor k's payload to its node whenever that node gets
     * a new parent (new or improved), so a node's payload always belongs to its current best path. Runs
     * the generic loop (a domain with a run hook keeps payload_bytes 0). */
    size_t payload_bytes;
    int (*successors_payload)(const void *ctx, uint32_t node, const void *payload, ap_succ *out,
                              void *out_payload);
    /* Optional: set when one expansion may take milliseconds (an any-angle graph without its eager table
     * computes a corner's departures when the search first reaches it: 1-20 ms each on random512-10-0).
     * The generic loop then reads the clock and the cancel flag before every expansion instead of every
     * 256th (a clock read is ~20 ns), so a deadline is overrun by one expansion, not by 256 of them. Not
     * for domains with a run hook or a payload (their loops check every 256th). */
    bool costly;
} ap_domain;

/* One search-matrix entry (16 bytes: four per cache line, none straddles one). Pinter keeps 16-byte nodes
 * with float costs; we keep g in double so that costs over long paths (thousands of sqrt(2) steps) stay
 * exact to 1e-12, which the Moving AI optimal lengths (8 decimals) demand. The open-list position lives in
 * ws->pos (touched only by the heap and on decrease-key) and a jump-point arrival direction in the open entry,
 * so relaxing an edge reads one 16-byte node (was 24 bytes with both: docs/search-measurements.md, third
 * round). */
typedef struct ap_node {
    double g;        /* cost from the start, tiles */
    uint32_t parent; /* node id of the parent, UINT32_MAX for the start */
    uint32_t gen;    /* generation stamp: the node is part of the current search iff gen == ws->gen */
} ap_node;

/* Open-list entry: f (tiles), g (tiles; breaks ties between equal f, larger g first; then the smaller node
 * id, except under the wide bucketed policy: open_heap.h), node id, and a word the specialised loops carry
 * with the node until it is expanded (jump points: the arrival direction). A 16-byte variant with a float tie key
 * measured no faster and reorders equal-f nodes, so it was dropped (docs/search-measurements.md, second
 * round). */
typedef struct ap_open_entry {
    double f;
    double gtie;
    uint32_t node;
    uint32_t aux;
} ap_open_entry;

/* The bucketed open list's state (planner/search/open_bucket.h): private to the specialised loops. */
struct ap_open_bucket;

/* A search matrix ("workspace"): every piece of mutable search state. Caller-owned; one thread at a time.
 * Sized once for the largest map (node capacity) and reused by every search without clearing. */
typedef struct ap_workspace {
    ap_node *nodes;
    ap_open_entry *open; /* binary heap, 1 slot per node at most; under a bucketed open list only its
                          * lowest bucket (the wide policy's overflow heap grows down from the top:
                          * open_bucket.h) */
    uint32_t *pos;       /* per node: its index in open while it is open (bucketed: or its index in a
                          * bag, or its place in the overflow); stale once expanded (a node in the heap
                          * is open iff pos < open_len and open[pos].node is the node) */
    uint32_t open_len;
    uint32_t capacity;   /* nodes */
    uint32_t gen;        /* current generation; bumped by ap_search_begin */
    ap_succ *succ;       /* scratch for one expansion's successors */
    int succ_cap;
    struct ap_open_bucket *bq; /* the bucketed open list (bags, overflow), owned; opaque here */
    void *payload;       /* domain payload: payload_bytes per node, then one expansion's successor
                          * payloads (ap_search_begin); NULL until a domain asks for one */
    size_t payload_cap;  /* bytes at payload */
} ap_workspace;

/* Allocate a workspace for domains of up to `capacity` nodes and up to `max_succ` successors per expansion.
 * Returns AP_OK, AP_E_INTERNAL for capacity 0 or max_succ <= 0, or AP_E_NOMEM (ws left zeroed either way).
 * The caller owns ws and frees it with ap_workspace_free; thread-safe for distinct workspaces.
 * Memory: 16 + 4 + 24 + 13 bytes per node (node, pos, heap entry, bag entry of the bucketed open list: f, node,
 * arrival direction) plus about 100 KB (AP_BQ_RING + 1 spare chunks); no domain payload (ap_search_begin adds it
 * when a domain asks for one). The node matrix and the position array are written once here, so their pages are
 * mapped before the first search (O(capacity); a server does this at start). */
int ap_workspace_init(ap_workspace *ws, uint32_t capacity, int max_succ);

/* The bytes ws holds (node matrix, open lists, positions, successor scratch, payload), for memory budgets.
 * Pure; the thread that owns ws. */
size_t ap_workspace_bytes(const ap_workspace *ws);

/* The most bytes a workspace of `capacity` nodes comes to hold without a domain payload, before it is
 * allocated: the node matrix, positions and heap of ap_workspace_init and the bucketed open list's bags
 * when a search opens every node (16 + 4 + 24 + 13 bytes a node; the successor scratch and the bags' ring,
 * about 100 KB, left out). A domain payload (the kinodynamic search's 88 bytes a node) comes on top.
 * Pure, thread-safe; for memory budgets (arcpathd refuses workspaces that cannot fit at start). */
uint64_t ap_workspace_bytes_max(uint32_t capacity);

/* Release a workspace's memory, payload included, and zero *ws; ws may be zeroed or initialised (NULL is
 * ignored). Only by the thread that owns ws, with no search on it in progress. */
void ap_workspace_free(ap_workspace *ws);

/* One A* search in progress: begin, then run in slices until it is no longer AP_IN_PROGRESS. */
typedef struct ap_search {
    ap_workspace *ws;
    const ap_domain *dom;
    uint32_t start, goal;
    uint64_t deadline_ns; /* CLOCK_MONOTONIC ns (ap_clock_ns); 0 = none */
    /* Optional, set by the caller before ap_search_run (0 = none; ap_search_begin zeroes it): CLOCK_MONOTONIC
     * ns at which the slice ends as if its expansions were spent (AP_IN_PROGRESS), read where the deadline
     * is (every 256th expansion, every one for a costly domain) and only after the slice's first expansion:
     * a time bound on a slice for domains whose expansions may be slow. */
    uint64_t slice_end_ns;
    const atomic_int *cancel; /* optional: when *cancel != 0 the search stops as AP_TIMEOUT */
    uint64_t expanded;    /* nodes taken off the open list so far */
    uint64_t generated;   /* successors looked at so far */
    int state;            /* AP_IN_PROGRESS until AP_OK / AP_NO_PATH / AP_TIMEOUT */
    double cost;          /* g of the goal when state == AP_OK */
} ap_search;

/* Start an A* search from start to goal on workspace ws (O(1) in the map size: bumps the generation stamp,
 * which measured far cheaper than clearing the matrix: docs/search-measurements.md, fifth round; a
 * bucketed loop empties the bags the previous search left when its first slice starts).
 * Payload (dom->payload_bytes > 0): the workspace's payload memory is allocated here the first time a
 * domain asks for one and grown when a later domain needs more (node_count + max_succ entries of
 * payload_bytes), never per search once big enough; its contents are undefined until written. The caller
 * writes the start node's payload (ap_search_payload(s, start)) before the first ap_search_run.
 * Returns AP_OK when the search is ready to run, AP_E_INTERNAL when the domain needs more capacity than the
 * workspace has, an id is out of range or a payload domain has no successors_payload, AP_E_NOMEM when the
 * payload memory cannot be had. The search keeps pointers to ws and dom (borrowed) until it ends. Not thread-safe
 * on ws: one search on a workspace at a time, its slices on one thread at a time. */
int ap_search_begin(ap_search *s, ap_workspace *ws, const ap_domain *dom, uint32_t start, uint32_t goal,
                    uint64_t deadline_ns);

/* Expand at most max_expansions nodes (0 = no limit) with the domain's run hook when it has one, else the
 * generic loop (Pinter, "A Faster Implementation of the Standard A*"; time slicing: "Path Failure and
 * Timeslicing"). Same thread rules as ap_search_begin. Returns s->state (unchanged once it is not
 * AP_IN_PROGRESS): AP_IN_PROGRESS when the budget ran
 * out first (call again to continue), AP_OK when the goal was reached (s->cost is optimal for an admissible
 * consistent heuristic), AP_NO_PATH when the open list emptied, AP_TIMEOUT when the deadline passed or
 * *cancel was set (checked every 256 expansions). */
int ap_search_run(ap_search *s, uint64_t max_expansions);

/* Insert node into the open list of a begun search as reached from parent at cost g (the caller's path cost
 * from the start, tiles or the domain's unit), with the domain's payload (payload_bytes bytes, copied; NULL
 * for a domain without payload): Schnieders' AIPATH, Algorithm 1's "openList <- INSERT(node)", so a search can
 * start from nodes found before it (a probing search's). It is the relaxation of the edge parent -> node: a node
 * new to the search is claimed and pushed with f = g + heuristic (the heuristic is asked after the payload is
 * written); an open node with a larger g gets the new parent, g and payload; otherwise nothing changes. The caller
 * keeps the parent chain meaningful: parent must already belong to this search (the start, or a node seeded
 * before), and a payload domain must ensure the search never gives parent another payload while node depends on it
 * (e.g. by seeding under ids no successor can produce: kino.h ap_kino_seed). Only before or between slices, for a
 * domain without a run hook (the specialised loops keep open lists of their own). Returns AP_OK, or AP_E_INTERNAL
 * (nothing changed) when the search is not in progress, the domain has a run hook, node or parent is out of range,
 * parent is not part of the search, g is not a finite number >= 0, or payload is NULL for a payload domain. Same
 * thread as the search; O(log open). */
int ap_search_seed(ap_search *s, uint32_t node, uint32_t parent, double g, const void *payload);

/* After AP_OK: write the node ids from start to goal into out (caller's, up to cap) and return the path's node
 * count (which may exceed cap: call again with a bigger buffer). Returns 0 if the search did not succeed.
 * Same thread as the search; O(path). */
size_t ap_search_path(const ap_search *s, uint32_t *out, size_t cap);

/* In any state of the search: the node ids from start to `node` along the parents as they stand (the best
 * path to node found so far), written and counted as ap_search_path does. Returns 0 when the search has not
 * reached node (ap_search_g is INFINITY) or its parents do not lead to the start within the domain's
 * node_count steps (they always do: a node's parent was set when its g became the parent's g plus a
 * positive cost). What a search stopped by an expansion cap returns as its best incumbent (plan_kino.c).
 * Same thread as the search; O(path). */
size_t ap_search_path_to(const ap_search *s, uint32_t node, uint32_t *out, size_t cap);

/* The payload of node (dom->payload_bytes bytes) in the search's workspace: written by the core whenever
 * the node gets a new parent, so after AP_OK the payloads along ap_search_path are those of the path found.
 * Only for a domain with payload_bytes > 0 and node < node_count; valid until the workspace is given to a
 * domain with a larger payload. Not thread-safe beyond the search's own thread. */
void *ap_search_payload(const ap_search *s, uint32_t node);

/* The cost from the start of node (< the domain's node_count) in s's search, tiles or the domain's unit:
 * final for every node the search has expanded under a consistent heuristic, so for every node it reached
 * once it has ended AP_NO_PATH (run to exhaustion with a zero heuristic it is Dijkstra's distance);
 * INFINITY for a node it has not reached. Same thread as the search; O(1). */
double ap_search_g(const ap_search *s, uint32_t node);

/* Monotonic clock in nanoseconds (CLOCK_MONOTONIC), for deadlines. Thread-safe. */
uint64_t ap_clock_ns(void);

/* Has deadline_ns (CLOCK_MONOTONIC ns, ap_clock_ns; 0 = none) passed? For work outside the search loops
 * that honours a deadline (table and profile builds, waits for another thread's build). Thread-safe. */
static inline bool ap_deadline_passed(uint64_t deadline_ns)
{
    return deadline_ns != 0 && ap_clock_ns() >= deadline_ns;
}

/* The time a query with deadline deadline_ns (CLOCK_MONOTONIC ns; 0 = none) gives a table built on first use
 * (the any_angle graphs of discs and turning units, anyangle/table.h; the JPS+ tables of sized units,
 * grid/jps_sized.h): three quarters of the way from now to its deadline, so that its answer without the
 * table (a lazy graph, online JPS, auto's other searches) has the last quarter; 0 (to the end) without a
 * deadline, and the deadline itself when it has passed. Reads the clock; thread-safe. */
uint64_t ap_build_until(uint64_t deadline_ns);

/* Take flag f (a table's one-build-at-a-time flag), trying again after 1 ms sleeps until the clock has passed
 * until_ns (0: no limit). True when taken (acquire order; clear it with release order). Thread-safe. */
bool ap_flag_take_until(atomic_flag *f, uint64_t until_ns);

#endif
