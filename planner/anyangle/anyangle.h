/* anyangle.h — exact Euclidean shortest paths among circles: A* over the tangent visibility graph.
 *
 * Source: Red Blob Games, "Circular Obstacle Pathfinding": the graph's nodes are points where surfing edges
 * (bitangents) touch circles, its edges surfing edges and hugging edges (arcs); "Generating the graph
 * lazily" (neighbours() computes a circle's surfing edges when A* first reaches it); "Cull cusped hugging
 * edges" (nodes annotated with the direction of travel, hugging only in that direction); "Crossing edge
 * culling". The search is the project's A* core (search.h) with h = Euclidean distance to the goal, raised
 * by ALT landmark bounds on graphs that have them (landmarks.h).
 *
 * The graph searched. Circles: the graph's hug circles (graph.h) plus the start and goal as radius-0
 * circles. A node is an arrival: "on circle c at point P, having come along the surfing edge from circle
 * i, travelling around c with sense s" (tangent.h); the start and the goal are nodes 0 and 1. From an
 * arrival on c with sense s, an edge goes to the arrival at the far end of every usable surfing edge that
 * leaves c with the same sense s (cusp culling: hugging only continues in the arrival's direction), costing
 * the hug along c from P to the surfing edge's start (sweep in [0, 2pi), radius R_c; on a radius-0 circle
 * the turn there must be at most pi in the sense s) plus the surfing edge's length. An edge is usable when
 * its hug arc and its line pass the graph's line-of-sight tests (graph.h; Red Blob "Surfing edge line of
 * sight" and "Hugging edge line of sight" with overlapping circles). Crossing-edge culling, stated exactly:
 * an edge is dropped when its surfing edge crosses the arrival's own incoming surfing edge properly (at one
 * point interior to both, tangent.h ap_segments_cross). That is safe: cutting the loop between the crossing
 * point and itself gives a strictly shorter path along pieces of the same two usable lines, so no shortest
 * path contains such a pair, whatever the path before the arrival was.
 *
 * Lazy and eager generation: a circle's departures for one sense (every usable bitangent to the other hug
 * circles) come from the graph's eager table when it has one (ap_aa_graph_precompute: grids always), else
 * they are computed when an arrival on the circle is first expanded (Red Blob's lazy neighbours()) and kept
 * for the rest of the query; the line to the goal, and the start's lines, are always per query.
 * Lazy line of sight (graphs with the eager table: the start's and the goal's lines; a lazy graph keeps
 * testing as it generates, as untested dead ends in a world of thousands of circles outgrew the node table):
 * a candidate's line is tested only when the arrival at its end is expanded, not when it is generated
 * (the test is most of a query's cost, and most generated arrivals are never expanded). This keeps every
 * answer: an arrival's id names its one incoming line, so an arrival whose line is blocked is a dead end
 * that stands for no path, and every other arrival keeps its cost. Lines to the goal end in a goal arrival
 * (one per circle and sense, at the goal with h = 0) whose one successor is the goal at cost 0. Node ids
 * are handed out as nodes are generated (a hash from (circle, origin circle, senses) to id); the A*
 * workspace is sized for AP_AA_NODES_START ids and, when a search runs out, grown four-fold and the search
 * rerun (up to AP_AA_NODES_MAX).
 *
 * Output: lines and arcs (path.h) from the start to the goal: G1 at every join (a surfing edge leaves an
 * arc along the arc's end heading), arcs of radius R_c (= r_obstacle + r_u), total length optimal in the
 * graph's model (graph.h). With h admissible and consistent (every edge is at least as long as the
 * straight distance it covers) the A* answer is the shortest path of the graph.
 *
 * Grid tables (a point unit's, and a disc's grid corners; graph.h): the start's lines go only to the corners
 * the visibility scan from the start returns, the goal's only from those the goal's scan returns (a superset
 * of the usable ones, graph.h's vis note), and the landmarks bound h. A disc's corner graph also skips the
 * arc test of hugs within a clear free quarter (hug_clear), takes departures in order along the quarter
 * (dep_sorted: those behind an arrival by binary search) and drops arrivals another covers: one expanded
 * before it on the same quarter that can hug on to its point at no more cost (anyangle.c dom_covers) — they
 * are neither pushed nor expanded, and departures a cheaper arrival ahead covers are not generated again.
 * Same lengths as without any of these (tests: test_landmarks.c, test_visibility.c, the oracles).
 *
 * Memory per query object (one thread at a time): per node id of capacity, the A* workspace (search.h,
 * 57 bytes) + node data (56 bytes) + 2 hash slots (14 bytes each: key, id, stamp); per circle 16 bytes of departure
 * bookkeeping; the departures computed in the query (56 bytes each, up to 2 (n + 1) per circle and sense
 * reached when lazy; the start's and one goal line per circle and sense reached when eager); on a disc's
 * corner graph 16 bytes per circle and 24 per arrival expanded for the dominance lists.
 */
#ifndef AP_ANYANGLE_H
#define AP_ANYANGLE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/path.h"
#include "graph.h"

#define AP_AA_NODES_START (1u << 12)
/* At most 2^22 node ids per query: about 590 MB at 141 bytes each (the memory note above). */
#define AP_AA_NODES_MAX (1u << 22)
/* What ap_aa_query_bind keeps of a query object's memory: node tables up to 2^16 ids (about 9 MB), a
 * workspace of that many or of the point domain's need on a point table of more corners (6 corners + 3
 * ids at 57 bytes, the workspace alone: Paris_1_1024's 11,638 corners about 4 MB, random512-40-0's 64,047
 * about 22 MB), and departure buffers up to 2^16 entries (3.5 MB). */
#define AP_AA_NODES_KEEP (1u << 16)
#define AP_AA_DEPS_KEEP ((size_t)1 << 16)
/* A path's line no longer than this times its ends' magnitude (|x| + |y|, at least 1) is rounding, not
 * geometry (~4,500 ulp): the answer leaves it out (ap_aa_result.segs). */
#define AP_AA_TINY_LINE 1e-12

typedef struct ap_aa_query ap_aa_query;

/* A query's answer: status AP_OK (segs[0 .. n_segs) from start to goal, length = their total, tiles; no
 * segments when start == goal), AP_NO_PATH, AP_TIMEOUT, AP_E_START_BLOCKED / AP_E_GOAL_BLOCKED (the point
 * fails the graph's test), AP_E_INVALID_REQUEST (non-finite point), AP_E_NOMEM (more than AP_AA_NODES_MAX
 * nodes or allocation failed). segs is owned by the query object and valid until its next search. */
typedef struct ap_aa_result {
    int status;
    double length;
    const ap_segment *segs;
    size_t n_segs;
    uint64_t expanded, generated; /* A* counters of the last (successful) run */
    uint32_t nodes;               /* node ids handed out */
    uint64_t crossings_culled;    /* edges dropped by crossing-edge culling */
    uint64_t dominated;           /* arrivals neither pushed nor expanded: another covers them (a disc's
                                   * corner graph, anyangle.c dom_covers) */
    uint64_t departure_lists;     /* (circle, sense) departure lists computed in this query, all runs: a run
                                   * begun again for a larger node table reuses the earlier runs' */
    /* With AP_OK and segments: every line of the answer passed the graph's own line test during this search
     * or the table's build, on the same end points and in the same direction (the point domain's table
     * lines, tested from their lower corner, by a rule that gives the same verdict both ways, graph.h
     * ap_aa_grid_point_line_ok), so ap_aa_graph_path_ok needs to test only the arcs (ap_aa_graph_arcs_ok).
     * arcs_verified: so are the arcs, each a hug within a corner's clear free quarter (graph.h hug_clear:
     * the quarter's one test covers every part of it), or there are none; the answer is then usable as it
     * stands. */
    bool verified, arcs_verified;
} ap_aa_result;

/* A query object for graph g (borrowed; must outlive it): caches, node table, A* workspace. Returns AP_OK
 * with *out the caller's (free with ap_aa_query_free), or AP_E_NOMEM (*out NULL). One thread at a time; g may
 * be shared by many query objects. */
int ap_aa_query_create(const ap_aa_graph *g, ap_aa_query **out);

/* Make q serve graph g (borrowed; must outlive q's use of it) from now on, keeping q's memory (node table,
 * hash, workspace, departure buffer) so a pool of query objects allocates nothing per query: the per-circle
 * arrays grow when g has more circles than q had room for, a node table grown beyond AP_AA_NODES_KEEP ids
 * is shrunk back to AP_AA_NODES_START, a departure buffer beyond AP_AA_DEPS_KEEP entries is dropped. Any
 * search in progress is abandoned and the cancel flag cleared. Returns AP_OK or AP_E_NOMEM (q may then only
 * be freed). Cost O(1) when nothing grows. One thread at a time. */
int ap_aa_query_bind(ap_aa_query *q, const ap_aa_graph *g);

/* Free a query object and everything it holds, the last answer's segments included (NULL is ignored). The
 * owner's thread. */
void ap_aa_query_free(ap_aa_query *q);

/* The bytes q holds (its arrays as sized now: node table, hash, workspace, per-circle and departure
 * buffers), for a pool's budget. Pure; the thread that owns q. */
size_t ap_aa_query_bytes(const ap_aa_query *q);

/* The shortest path from (sx, sy) to (gx, gy) (tiles) in q's graph; deadline_ns: CLOCK_MONOTONIC ns
 * (ap_clock_ns) after which the search gives up with AP_TIMEOUT, 0 = none. Returns out->status (the values
 * ap_aa_result lists); out->segs is owned by q, valid until q's next search. ap_aa_begin then ap_aa_run(q, 0,
 * out). Not thread-safe on q (its owner's thread); the graph is only read. */
int ap_aa_find(ap_aa_query *q, double sx, double sy, double gx, double gy, uint64_t deadline_ns,
               ap_aa_result *out);

/* The same search in slices (Pinter, "Path Failure and Timeslicing", as the grid plans run): ap_aa_begin
 * checks the ends and starts the search (out->status AP_IN_PROGRESS, or at once AP_OK for start == goal,
 * AP_E_START_BLOCKED, AP_E_GOAL_BLOCKED, AP_E_INVALID_REQUEST). ap_aa_run then expands at most
 * max_expansions nodes (0 = to the end) and returns AP_IN_PROGRESS (call again) or the final status, with
 * out filled as ap_aa_find fills it; out->expanded counts every run of this search (a run outgrowing the
 * node table restarts with four times the ids). out must be the same object across the calls. A begin that
 * ends at once, or a finished run, answers its status again on a later ap_aa_run. Thread as ap_aa_find. */
int ap_aa_begin(ap_aa_query *q, double sx, double sy, double gx, double gy, uint64_t deadline_ns,
                ap_aa_result *out);
int ap_aa_run(ap_aa_query *q, uint64_t max_expansions, ap_aa_result *out);

/* A cancel flag (NULL = none) the search polls with the deadline (search.h: a set flag ends it as
 * AP_TIMEOUT); kept for later searches of q. Thread: q's owner. */
void ap_aa_set_cancel(ap_aa_query *q, const atomic_int *cancel);

/* The time bound of the next ap_aa_run slices (search.h ap_search.slice_end_ns: CLOCK_MONOTONIC ns at which
 * a slice ends as AP_IN_PROGRESS; 0 = none), applied when the search's expansions are costly (a graph
 * without its eager table, ap_domain.costly); kept for restarted runs too. Thread: q's owner. */
void ap_aa_set_slice_end(ap_aa_query *q, uint64_t slice_end_ns);

#endif
