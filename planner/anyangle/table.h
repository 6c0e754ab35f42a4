/* table.h — the "any_angle" per-map table kind (world/tables.h): the point unit's graph of a grid map
 * (ap_aa_graph_grid at r_u = 0: every convex corner, with the eager table of usable corner bitangents,
 * graph.h), built once at load on uniform-cost maps and shared read-only by every point-unit any_angle
 * query of the map; and the same graph for a disc of radius r, built on a query's first use of r (the
 * corners grown by r: Red Blob's "radius class", here the exact radius; in pieces over several queries when
 * their deadlines are short, ap_aa_table_graph_until) and kept for the map's lifetime, at most
 * AP_AA_TABLE_RADII radii per map (later radii: a lazy graph per query).
 *
 * Limits: built only for maps with at most AP_AA_TABLE_MAX_CORNERS convex corners (the point table: one
 * visibility scan per corner plus the lines the scans cannot rule out, den520d's 912 corners about 10 ms,
 * Paris_1_1024's 11,638 about 0.6 s; a disc's likewise, den520d at r = 0.5 about 20 ms, Paris_1_1024 about
 * 1 s; a turning unit's grown hugs, O(corners^2) line-of-sight tests, graph.h, only up to
 * AP_AA_TABLE_MAX_CORNERS_PAIRS corners) and kept only when
 * it holds at most AP_AA_TABLE_MAX_BYTES (the landmark distances included); a map beyond either gets no slot and its queries build a lazy graph
 * each (O(cells), departures computed as the search reaches corners). GET /v1/maps/{id} lists the slot
 * with its bytes, build time and "corners" count.
 *
 * Tile updates (world/patch.h): the kind's update makes the point graph of the new version from the previous
 * one with ap_aa_graph_grid_update (graph.h): the same corners in the same order and the same eager table
 * as a build (old corners kept and new ones merged in row-major order; the lines of two kept corners copied
 * unless they pass near a cell whose passability changed, whose verdict is the only input that can differ;
 * those and every line of a new corner tested again with the build's rule), so the slot's bytes and count
 * are the build's too. Above AP_AA_UPDATE_MAX_CELLS changed cells it is a full build; beyond the limits
 * the new version gets no slot, as after a build. The disc graphs start empty (built again on first use of
 * each radius), as after a build.
 */
#ifndef AP_AA_TABLE_H
#define AP_AA_TABLE_H

#include <stdatomic.h>

#include "../world/tables.h"
#include "graph.h"

#define AP_AA_TABLE_NAME "any_angle"
#define AP_AA_TABLE_MAX_CORNERS AP_AA_EAGER_AUTO_MAX
/* The limit for a turning unit's graph (grown hugs), whose table has no scan: O(corners^2) line tests. */
#define AP_AA_TABLE_MAX_CORNERS_PAIRS 4096
#define AP_AA_TABLE_MAX_BYTES (64u << 20)
#define AP_AA_TABLE_RADII 8
/* How many refused radii (a graph built and not kept: beyond the limits, the disc budget or the slots) a
 * map remembers, so that their later queries skip the build: ap_aa_table_graph answers NULL at once and
 * ap_aa_table_may_serve false. Beyond that many, later refused radii are built again by each query. */
#define AP_AA_TABLE_REFUSED 16
/* The most bytes a map's disc graphs hold together (all radii and turning units' grown graphs): a graph that
 * would take them beyond it is not kept (its query builds a lazy graph, as beyond the other limits).
 * Paris_1_1024 at r = 0.5: 43 MB, random512-40-0 42 MB; den520d 1.3 MB. */
#define AP_AA_TABLE_DISC_BYTES ((size_t)64 << 20)

/* The kind (listed in planner/plan/table_kinds.c): optional, uniform-cost maps only. */
extern const ap_table_kind ap_aa_table_kind;

/* The point graph held by an "any_angle" slot (a map table of this kind, borrowed). Pure; thread-safe. */
const ap_aa_graph *ap_aa_table_point(const ap_map_table *slot);

/* The point unit's shared graph of m, or NULL when m has no "any_angle" slot. Pure; thread-safe. */
const ap_aa_graph *ap_aa_table_of(const ap_map *m);

/* The shared eager graph of m for unit radius r (0: ap_aa_table_of; r > 0: the one published for exactly r,
 * else built now — within the table's limits, one visibility scan per corner and the lines it cannot rule
 * out, den520d at r = 0.5 about 20 ms, Paris_1_1024 about 1 s, to its end: ap_aa_table_graph_until for a
 * time limit — and published in a free slot), or NULL when m has no slot, r is not a valid radius
 * (graph.h), the graph is beyond the limits, or all AP_AA_TABLE_RADII slots hold other radii (known before
 * the build: no build then). The graph lives as long as m. Also NULL when the map's disc
 * graphs would then hold more than AP_AA_TABLE_DISC_BYTES. A radius refused once (built and not kept) is
 * NULL at once from then on (AP_AA_TABLE_REFUSED). Thread-safe: publish with C11 atomics; one build at a
 * time per map (a thread that finds another building sleeps in 1 ms steps until it is done, then takes
 * what it published or builds its own radius; ap_aa_table_graph_until gives up at a deadline). The map
 * info's bytes for the slot (the kind's live hook) count the point graph and the disc graphs published. */
const ap_aa_graph *ap_aa_table_graph(const ap_map *m, double r);

/* Would ap_aa_table_graph(m, r) give a graph: m has the slot and the graph for r is published, or r's graph
 * was not refused before (AP_AA_TABLE_REFUSED), a slot is free and the map's disc budget has room for one the
 * size of the point graph or of the largest disc graph built so far, whichever is larger (the same test the
 * build makes first)? A cheap look (no build); another thread may take the room before the build, and a
 * graph larger than that estimate may not fit where this says yes (such a build is refused and remembered,
 * so this says no for r from then on). Pure; thread-safe. */
bool ap_aa_table_may_serve(const ap_map *m, double r);

/* Would ap_aa_table_graph_until(m, r, grow, ...) build now: m has the slot, (r, grow) is not the point graph,
 * its graph is neither published nor refused, and ap_aa_table_may_serve's room test passes (a build may be
 * half done, kept for the next query). A cheap look, as ap_aa_table_may_serve: for a server to begin such
 * a query where a build of up to seconds holds no thread that short queries need. Pure; thread-safe. */
bool ap_aa_table_would_build(const ap_map *m, double r, double grow);

/* ap_aa_table_graph, also for a turning unit (turning.h): the graph whose tests run at radius r and whose
 * hug circles are grown by grow >= 0 beyond it (ap_aa_graph_grow_hugs), kept in the same slots under the key
 * (r, grow); grow 0 is ap_aa_table_graph(m, r). For grow > 0: O(corners^2) line-of-sight tests (no scan),
 * NULL above AP_AA_TABLE_MAX_CORNERS_PAIRS corners. Otherwise the same limits and NULL cases. Built in the
 * time a query can spare (until_ns: CLOCK_MONOTONIC ns, ap_clock_ns; 0 = none, ap_build_until): the build
 * runs until the graph is done or the clock has passed until_ns (checked after each step of
 * ap_aa_build_run: a circle's departures, a landmark's Dijkstra run, ...), and
 * an unfinished build is kept for the next query of the map that builds, which resumes it: a graph that
 * takes seconds is built over the time of several queries with short deadlines, none of which answers late
 * because of it. One build at a time per map: a query that finds another key's build unfinished finishes
 * and publishes that first (its memory is held until then), then starts its own if time is left. NULL also
 * when until_ns passes while another thread builds (the wait gives up) or has passed before this thread
 * would start building. Same thread safety. */
const ap_aa_graph *ap_aa_table_graph_until(const ap_map *m, double r, double grow, uint64_t until_ns);

#endif
