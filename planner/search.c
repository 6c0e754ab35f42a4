/* search.c — the A* core: preallocated search matrix, generation stamps, d-ary open list with
 * decrease-key, time slicing, deadline and cancellation.
 *
 * Source: Pinter, "Toward More Realistic Pathfinding" (Game Developer, 2001), section "A Faster
 * Implementation of the Standard A*" (fixed node matrix, no allocation per search, a "touched" mark instead
 * of clearing) and "Path Failure and Timeslicing" (bounded work per slice, resumable state).
 *
 * Open list. Pinter found an unsorted list faster than a tree for his 60x60 window; on whole Moving AI maps
 * open lists reach thousands of entries, so a heap (O(log n) pop, decrease-key through ws->pos) wins.
 * The heap is binary (the 4-ary variant was an AP_OPEN_ARITY switch, since removed). Measured with arcpath-bench --summary (A*, 8-connected, every
 * scenario line, -O2, 2-core Debian 12 box; two runs each, median / mean µs per query):
 *                 binary (2)                    4-ary
 *   den520d   308 / 469,  296 / 438      296 / 439,  298 / 435     (4698 mean expansions)
 *   arena2    370 / 605,  334 / 570      330 / 570,  334 / 579     (5704)
 *   brc202d  1520 / 1476, 1543 / 1457   1563 / 1450, 1528 / 1424   (15543)
 * The difference is within run-to-run noise (the cost is dominated by cache misses on the node matrix, not
 * by heap depth), so we keep the simpler binary heap the header documents.
 *
 * Second round (JPS change), same bench, quiet machine unless noted:
 *   - open entries 24 -> 16 bytes (float tie key) and the grid's successors + octile heuristic inlined
 *     into a copy of the loop (no call per expansion and per successor, no division per heuristic):
 *     den520d 297 / 432 -> 265 / 385, arena2 335 / 624 -> 295 / 499 (median / mean us).
 *   - 4-ary vs binary with 16-byte entries, two runs each: den520d 255 / 267 vs 257 / 253, arena2 293 / 297
 *     vs 313 / 294 (medians): noise again; binary kept.
 *   - 16-byte (float tie key) vs 24-byte (double g) entries, both inlined, loaded machine, two runs:
 *     den520d 280 / 285 vs 285 / 292, arena2 327 / 324 vs 322 / 297 (medians): no measurable gain, and the
 *     float key reorders equal-f nodes (a directional-search test depended on that order), so entries
 *     keep the exact double g. The gain above is the inlining.
 *   - 32-byte nodes (no node straddles a cache line) vs 24: den520d A* 298 / 290 vs 284 / 308, JPS+ 7.3 / 7.1
 *     vs 6.8 / 6.6 (medians, loaded machine): no gain; 24 kept.
 *   - JPS+: prefetching the next top's table row and node after each pop: den520d 6.8 / 6.3 -> 6.6 / 6.5,
 *     brc202d 44.6 / 47.1 -> 46.2 / 45.1 (medians, two runs): no gain, removed.
 *   - perf: the remaining A* time is the pop's sift-down (unpredictable f comparisons, node.heap writes).
 *   - bucketed queue: not tried. Octile f values are a + b*sqrt(2), so fixed-width buckets would order
 *     within a bucket arbitrarily and give up exact optimality unless each bucket is a heap again.
 *   - Pinter's 16-byte node (float g): rejected for precision (see ap_node); a 16-byte node with double g
 *     needs the heap index elsewhere (lazy deletion or a side array): not tried for lack of time.
 *
 * Third round (2026-11-21), arcpath-bench, median us per query over every scenario line, three interleaved
 * runs each (old / new), the other core busy with another engineer's job:
 *   - 16-byte node {g, parent, gen}: the heap index moved to the side array ws->pos (written by the heap,
 *     read only on a decrease-key, where "still open" is pos < open_len && open[pos].node == v, so a pop
 *     writes nothing for the closed flag) and the JPS+ arrival direction moved into the open entry's spare
 *     4 bytes (the entry stays 24 bytes). A*: Berlin_0_256 315 / 314 / 315 -> 308 / 310 / 309, den520d
 *     277 / 275 / 277 -> 262 / 264 / 263, arena2 310 / 316 / 311 -> 301 / 298 / 310, Aftershock
 *     1356 / 1356 / 1365 -> 1372 / 1321 / 1326.
 *   - then the sift-down's child chosen branch-free (sift_down): A* Berlin 305 / 302 / 310 -> 277 / 263 /
 *     263, Aftershock 1281 / 1306 / 1285 -> 1146 / 1146 / 1143, den520d 268 / 281 / 266 -> 234 / 214 / 214.
 *     Both together against the previous commit: A* Paris_1_1024 5202 / 4826 / 4937 -> 4516 / 4797 / 4716;
 *     JPS+ den520d 6.3 / 6.7 / 5.9 -> 5.5 / 5.5 / 5.5, brc202d 45.1 / 45.4 / 45.1 -> 40.5 / 41.7 / 40.9,
 *     Berlin 4.6 / 4.2 / 4.4 -> 3.7 / 3.6 / 3.7, Paris 29.1 / 27.3 / 28.9 -> 26.9 / 27.0 / 26.8,
 *     random512-40-0 1138 / 1140 / 1124 -> 994 / 982 / 993, Aftershock 13.9 / 14.5 / 14.3 -> 12.5 / 12.8 /
 *     13.1, 8room_000 307 / 309 / 317 -> 273 / 284 / 287.
 *   - tried and dropped: a bottom-up pop (hole to a leaf, then sift the last entry up; Wegener): Berlin
 *     254 / 259 / 257 -> 261 / 277 / 263, Aftershock 1099 / 1121 / 1126 -> 1111 / 1150 / 1124; prefetching
 *     the grandchildren in sift_down: Berlin 259 / 261 / 259 -> 272 / 268 / 272, Aftershock 1125 / 1111 /
 *     1135 -> 1187 / 1184 / 1203, JPS+ brc202d 41.8 / 41.6 / 41.3 -> 42.0 / 42.0 / 41.9.
 *     open_before itself branch-free (so sift_up's and sift_down's loop exits too): Berlin 265 / 261 / 269
 *     -> 281 / 280 / 280, Aftershock 1108 / 1119 / 1128 -> 1215 / 1259 / 1228, JPS+ brc202d 41.7 / 42.0 /
 *     41.8 -> 44.7 / 44.3 / 45.3 (the loop exits predict well as branches; only the child choice does not).
 *   - perf (JPS+ 8room_000): the hot spots are now the first touch of each successor's node (jump targets
 *     are far apart: a cache miss each) and the jump-table row of the expanded node, ~100 ns/expansion.
 *
 * Fourth round (2026-11-21), same bench, quiet machine, median us, three interleaved runs (old / new):
 *   - JPS+: the successors' heuristic computed only for new or improved nodes (jps_impl.h hands over the
 *     coordinates), and after generation a prefetch of each successor's node and of its jump-table row
 *     (the row is read when the node is expanded; the earlier prefetch after the pop came too late).
 *     8room_000 289 / 286 / 294 -> 251 / 267 / 260, Paris_1_1024 29.0 / 28.7 / 28.8 -> 24.1 / 24.4 / 24.5,
 *     random512-40-0 1071 / 999 / 995 -> 937 / 921 / 935; brc202d 41.8 / 41.7 / 41.5 -> 40.7 / 40.8 / 40.3,
 *     Aftershock 13.6 / 14.2 / 13.3 -> 13.0 / 12.8 / 12.7 (these two via an intermediate build, not
 *     interleaved directly). The node prefetch alone: 8room 294 / 298 / 303 -> 290 / 288 / 295. Online JPS
 *     is untouched (8room_000 367 / 369 / 372 -> 370 / 376 / 376: noise).
 *   - not tried for lack of time: the heap's pos[] writes (one random store per sift level) via lazy
 *     deletion for the JPS+ copy; a combined node + jump-row layout (needs search.h).
 *
 * Fifth round (2026-11-21), same bench, loaded machine (another engineer's builds on the other core),
 * taskset -c 1, median us, three interleaved runs (old / new), mean expansions old -> new:
 *   - JPS+ with intermediate (diagonal) jump points pruned (ICAPS 2014 section 4; jps_impl.h): brc202d
 *     39.7 / 40.5 / 40.6 -> 30.9 / 30.7 / 30.9 (557 -> 319 expansions), Paris_1_1024 24.4 / 23.9 / 24.2 ->
 *     22.9 / 22.5 / 22.9 (611 -> 282), random512-40-0 947 / 955 / 963 -> 907 / 906 / 918 (13474 -> 11250),
 *     Aftershock 12.6 / 12.7 / 12.7 -> 10.4 / 10.6 / 10.4 (231 -> 107), 8room_000 265 / 272 / 264 ->
 *     190 / 192 / 190 (3981 -> 2040), arena2 5.0 / 5.0 / 5.0 -> 4.9 / 4.9 / 4.7, den520d 5.4 / 5.5 / 5.4 ->
 *     4.4 / 4.3 / 4.4, Berlin_0_256 3.6 / 3.6 / 3.6 -> 3.4 / 3.3 / 3.3, maze512-32-0 4.5 / 4.5 / 4.4 ->
 *     3.8 / 3.8 / 3.7, AR0011SR 6.5 / 6.7 / 6.7 -> 5.6 / 5.7 / 5.7. Every scenario line still optimal.
 *   - then the held node (core_run): a new JPS+ successor whose f is no more than the expanded node's is
 *     an f-minimal node of the open list, so it is expanded next without a push and a pop (one held at a
 *     time; the others, and every improved node, go through the heap). Expansion counts move by under 1%
 *     (equal-f order). 8room_000 185 / 182 / 185 -> 173 / 169 / 171, random512-40-0 895 / 911 / 889 ->
 *     839 / 816 / 808, brc202d 30.6 / 31.1 / 30.9 -> 28.7 / 28.8 / 28.5, Paris_1_1024 23.7 / 22.7 / 22.5
 *     -> 21.8 / 22.4 / 22.4, Aftershock 10.5 / 10.1 / 10.0 -> 9.7 / 9.9 / 9.8, arena2 4.7 / 4.8 / 4.7 ->
 *     4.5 / 4.3 / 4.4, den520d 4.3 / 4.4 / 4.1 -> 4.1 / 4.1 / 4.1, Berlin_0_256 3.3 / 3.3 / 3.3 -> 3.1 /
 *     3.1 / 3.1, maze512-32-0 3.7 / 3.6 / 3.5 -> 3.5 / 3.4 / 3.4, AR0011SR 5.4 / 5.3 / 5.3 -> 5.2 / 5.2 /
 *     5.2.
 *   - tried and dropped (against the pruned build, same conditions): lazy deletion instead of
 *     decrease-key in the JPS+ copy (no pos[] writes; improved nodes pushed again, stale entries skipped
 *     on pop, closed marked by g = -inf, compaction when full): 8room_000 186 / 188 / 185 -> 196 / 200 /
 *     197, random512-40-0 893 / 884 / 897 -> 903 / 947 / 905, brc202d 31.0 / 30.1 / 29.8 -> 32.5 / 31.2 /
 *     31.3, Paris 22.6 / 22.9 / 23.4 -> 22.0 / 22.4 / 22.3 (the duplicates make the heap deeper). Prefetching
 *     each successor's node as soon as ap_jps_plus_expand emits it (instead of after the expansion):
 *     8room 186 / 185 / 206 -> 188 / 183 / 186, random 946 / 910 / 902 -> 895 / 872 / 893, brc202d
 *     30.3 / 31.1 / 31.1 -> 32.5 / 31.5 / 31.1: noise. Against the one-node hold: a stack of up to 16 held
 *     nodes: 8room 174 / 174 / 175 -> 172 / 175 / 173, random 815 / 809 / 837 -> 829 / 844 / 842; holding
 *     the deepest candidate (larger g swaps in, the old one is pushed): 8room 172 / 173 / 176 -> 172 / 170 /
 *     170, random 814 / 826 / 811 -> 805 / 826 / 798, brc202d 27.8 / 27.7 / 28.5 -> 28.0 / 28.0 / 28.0
 *     (within noise; the simpler form kept). The same hold in the 8-connected grid copy (A*): Berlin_0_256
 *     253 / 258 / 264 -> 262 / 261 / 259, den520d 218 / 219 / 221 -> 213 / 213 / 215; holding the deepest
 *     there: Berlin 263 / 266 / 260 -> 261 / 262 / 263, den520d 215 / 216 / 215 -> 221 / 223 / 218: no
 *     gain, so A* keeps the plain heap.
 *   - then JPS+ pruning from a forced-neighbour byte per cell (ap_jps_table.forced, built with the table;
 *     prefetched with the successor's row) instead of four passability reads on three rows:
 *     random512-40-0 821 / 847 / 835 -> 786 / 790 / 798, 8room_000 172 / 176 / 173 -> 169 / 170 / 170,
 *     brc202d 28.8 / 29.0 / 29.5 -> 28.0 / 29.0 / 28.3, Paris_1_1024 22.6 / 21.9 / 22.2 -> 22.1 / 21.9 /
 *     21.7, Aftershock 10.4 / 10.3 / 10.2 -> 10.1 / 10.1 / 10.3, arena2 4.6 / 4.6 / 4.5 -> 4.4 / 4.4 / 4.3,
 *     den520d 4.2 -> 4.1, Berlin_0_256 3.2 / 3.2 / 3.1 -> 3.1, maze512-32-0 3.8 / 3.7 / 3.7 -> 3.7 / 3.6 /
 *     3.5, AR0011SR 5.6 -> 5.5.
 *   - then the JPS+ distances read from a one-byte copy of the table (ap_jps_table.dist8, escape to the
 *     int16 table; kept only where at most 1% of the non-zero distances need it: random512-40-0 and
 *     8room_000 none, brc202d 0.3%, den520d 0.9%, Berlin_0_256 0.4%, arena2 0.02%; Aftershock 4%,
 *     AR0011SR 4%, maze512-32-0 2.1%, Paris_1_1024 10.5% keep int16): random512-40-0 766 / 765 / 773 ->
 *     741 / 743 / 730, 8room_000 166.0 / 165.5 / 166.5 -> 157.4 / 160.0 / 158.7, brc202d 28.1 / 29.1 /
 *     29.8 -> 28.3 / 28.9 / 29.0, den520d 4.3 / 4.2 / 4.1 -> 4.2 / 4.2 / 4.1, others unchanged. With the
 *     copy on every map (escapes everywhere): Aftershock 10.0 / 9.9 / 10.3 -> 10.4 / 10.4 / 10.5 (the
 *     escapes' second row read), hence the 1% rule.
 *   - tried and dropped (against the forced-byte build): a "seen" bit set per search (16 bytes per 64
 *     nodes, O(1) reset by a word generation) so a new successor's node is written without being read
 *     first: random512-40-0 751 / 760 / 757 -> 759 / 758 / 765, 8room_000 169 / 167 / 167 -> 172 / 172 /
 *     172 (nearly every new JPS+ node on those maps is expanded soon after, so its node miss only moves to
 *     the pop); a 4-ary heap for the JPS+ copy (its open list averages ~100 entries on random512-40-0,
 *     ~200 on 8room_000): random 759 / 750 / 749 -> 810 / 813 / 803, 8room 164 / 165 / 165 -> 174 / 172 /
 *     172; prefetching node, row and forced byte as ap_jps_plus_expand emits each successor: random 741 /
 *     786 / 752 / 751 / 759 -> 729 / 747 / 748 / 750 / 740, Paris 20.0 / 19.8 / 19.5 / 19.2 / 19.5 -> 18.9
 *     / 19.2 / 19.6 / 19.2 / 19.1 (~1%, and it would read the bound workspace inside jps_impl.h); the heap
 *     length kept in a local instead of ws->open_len: random 803 / 769 / 767 -> 770 / 778 / 815, A*
 *     Berlin_0_256 260 / 259 / 257 -> 263 / 263 / 265.
 *   - tried and dropped: a per-search "closed" bit set (as the seen set above) so a JPS+ successor
 *     already expanded is dropped without touching its node: random512-40-0 741 / 740 / 733 -> 789 / 795 /
 *     790, 8room_000 165 / 160 / 157 -> 180 / 178 / 177, brc202d 28.0 / 27.9 / 28.1 -> 31.0 / 31.3 / 30.6
 *     (seen successors' nodes are mostly still cached; the extra branch and bit writes cost more). An
 *     upper bound from the goal once generated (successors with f >= its g never recorded): random 764 /
 *     785 / 773 -> 770 / 776 / 756, 8room 161 / 162 / 161 -> 163 / 166 / 163 (the goal comes late). In
 *     sift_down, the chosen child's keys selected from the two loaded instead of loaded again: A* Berlin
 *     259 / 264 / 260 -> 320 / 324 / 321, JPS+ random 755 / 747 / 746 -> 929 / 922 / 919 (the selects
 *     became branches).
 *   - A*: every new successor with f no more than the expanded node's goes on a stack at the far end of
 *     the open array and is expanded before the heap's top (the one-node hold generalised; LIFO among
 *     equal f approximates "larger g first", +1.5 expansions per query on Berlin). Measured with the copies
 *     split into functions (ap_search_run; before the split, this change to the grid copy alone moved
 *     JPS+ random512-40-0 from 712 / 714 / 719 to 742 / 750 / 741 through code layout): A* Berlin_0_256
 *     260 / 261 / 262 -> 247 / 250 / 246, den520d 215 / 221 / 217 -> 208 / 212 / 209, arena2 241 / 240 /
 *     241 -> 233 / 235 / 233, brc202d 1078 / 1087 / 1074 -> 1061 / 1036 / 1039, Aftershock 1151 / 1162 /
 *     1162 -> 1079 / 1133 / 1106; JPS+ unchanged (random 730 / 734 / 763 -> 726 / 731 / 732). For JPS+ the
 *     stack measured no better than the single register-held node (above), which it keeps.
 *   - instrumented (not kept): per random512-40-0 query, 11350 new successors, 3140 already seen (575 of
 *     them improved), 11250 expansions of which 2170 held; 8room_000: 2233 new, 1755 seen, 2040
 *     expansions, 459 held.
 */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grid.h"
#include "jps_impl.h"
#include "status.h"


uint64_t ap_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int ap_workspace_init(ap_workspace *ws, uint32_t capacity, int max_succ)
{
    memset(ws, 0, sizeof *ws);
    if (capacity == 0 || max_succ <= 0)
        return AP_E_INTERNAL;
    /* calloc: gen 0 everywhere and the first search uses gen 1, so every node starts out stale. */
    ws->nodes = calloc(capacity, sizeof *ws->nodes);
    ws->open = malloc((size_t)capacity * sizeof *ws->open);
    ws->pos = malloc((size_t)capacity * sizeof *ws->pos);
    ws->succ = malloc((size_t)max_succ * sizeof *ws->succ);
    if (ws->nodes == NULL || ws->open == NULL || ws->pos == NULL || ws->succ == NULL) {
        ap_workspace_free(ws);
        return AP_E_NOMEM;
    }
    ws->capacity = capacity;
    ws->succ_cap = max_succ;
    return AP_OK;
}

void ap_workspace_free(ap_workspace *ws)
{
    if (ws == NULL)
        return;
    free(ws->nodes);
    free(ws->open);
    free(ws->pos);
    free(ws->succ);
    memset(ws, 0, sizeof *ws);
}

/* a comes out of the open list before b: smaller f, and on equal f larger g (deeper nodes first, which
 * reaches the goal sooner among the many equal-f nodes of a grid). */
static inline bool open_before(const ap_open_entry *a, const ap_open_entry *b)
{
    return a->f < b->f || (a->f == b->f && a->gtie > b->gtie);
}

static inline void sift_up(ap_workspace *ws, uint32_t i)
{
    ap_open_entry *open = ws->open;
    uint32_t *pos = ws->pos;
    ap_open_entry e = open[i];
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!open_before(&e, &open[p]))
            break;
        open[i] = open[p];
        pos[open[i].node] = i;
        i = p;
    }
    open[i] = e;
    pos[e.node] = i;
}

/* Binary-heap sift-down with the child chosen without a branch (measured at the top of this file): open_before's three comparisons are
 * combined with & and | (no short-circuit), so the compiler emits setcc/cmov instead of the unpredictable
 * jumps of the f comparisons. Same child chosen, same order as the branching form. */
static inline void sift_down(ap_workspace *ws, uint32_t i)
{
    ap_open_entry *open = ws->open;
    uint32_t *pos = ws->pos;
    const uint32_t len = ws->open_len;
    ap_open_entry e = open[i];
    for (;;) {
        uint32_t c = i * 2 + 1;
        if (c >= len)
            break;
        if (c + 1 < len) {
            const ap_open_entry *a = &open[c + 1], *b = &open[c];
            c += (uint32_t)((a->f < b->f) | ((a->f == b->f) & (a->gtie > b->gtie)));
        }
        if (!open_before(&open[c], &e))
            break;
        open[i] = open[c];
        pos[open[i].node] = i;
        i = c;
    }
    open[i] = e;
    pos[e.node] = i;
}

int ap_search_begin(ap_search *s, ap_workspace *ws, const ap_domain *dom, uint32_t start, uint32_t goal,
                    uint64_t deadline_ns)
{
    memset(s, 0, sizeof *s);
    s->state = AP_E_INTERNAL;
    if (ws == NULL || dom == NULL || ws->nodes == NULL || dom->node_count > ws->capacity ||
        dom->max_succ > ws->succ_cap || start >= dom->node_count || goal >= dom->node_count)
        return AP_E_INTERNAL;
    s->ws = ws;
    s->dom = dom;
    s->start = start;
    s->goal = goal;
    s->deadline_ns = deadline_ns;
    s->state = AP_IN_PROGRESS;

    /* O(1) reset: every node whose stamp differs from the new generation is stale. After 2^32 - 1 searches
     * the counter wraps; nodes stamped long ago could then look current, so clear once and restart at 1. */
    ws->gen++;
    if (ws->gen == 0) {
        memset(ws->nodes, 0, (size_t)ws->capacity * sizeof *ws->nodes);
        ws->gen = 1;
    }
    ws->open_len = 0;
    ap_node *n = &ws->nodes[start];
    n->g = 0.0;
    n->parent = UINT32_MAX;
    n->gen = ws->gen;
    /* aux UINT32_MAX: no arrival direction at the start */
    ws->open[0] = (ap_open_entry){dom->heuristic(dom->ctx, start, goal), 0.0, start, UINT32_MAX};
    ws->pos[start] = 0;
    ws->open_len = 1;
    return AP_OK;
}

/* Relax the edge u -> v with new cost ng; h is computed only when v is new or improved (HV is an expression
 * evaluated lazily). Closed nodes are final: the heuristics are consistent. The heuristic is evaluated
 * again on a decrease-key rather than taken as f - g, which could drift by a rounding step.
 * Only the 16-byte node is read on the common paths (new node; not improved). pos[v] is read only when
 * ng < g: v is then still open unless it was expanded already (pos stale: beyond the heap or the slot now
 * holds another node), which a consistent heuristic allows only through a rounding step, as before. */
#define RELAX(V, NG, HV, AUX)                                                                                 \
    do {                                                                                                      \
        const uint32_t v_ = (V);                                                                              \
        const double ng_ = (NG);                                                                              \
        ap_node *nv_ = &nodes[v_];                                                                            \
        if (nv_->gen != gen) {                                                                                \
            nv_->gen = gen;                                                                                   \
            nv_->g = ng_;                                                                                     \
            nv_->parent = u;                                                                                  \
            const double f_ = ng_ + (HV);                                                                     \
            if (HOLD && hold == UINT32_MAX && f_ <= fu) {                                                     \
                hold = v_;                                                                                    \
                hold_aux = (AUX);                                                                             \
                hold_f = f_;                                                                                  \
            } else if (STACK && f_ <= fu) {                                                                   \
                open[--sp] = (ap_open_entry){f_, ng_, v_, (AUX)};                                             \
            } else {                                                                                          \
                uint32_t i_ = ws->open_len++;                                                                 \
                open[i_] = (ap_open_entry){f_, ng_, v_, (AUX)};                                               \
                sift_up(ws, i_);                                                                              \
            }                                                                                                 \
        } else if (ng_ < nv_->g) {                                                                            \
            uint32_t i_ = pos[v_];                                                                            \
            if (i_ < ws->open_len && open[i_].node == v_) {                                                   \
                nv_->g = ng_;                                                                                 \
                nv_->parent = u;                                                                              \
                open[i_].aux = (AUX);                                                                         \
                open[i_].gtie = ng_;                                                                          \
                open[i_].f = ng_ + (HV);                                                                      \
                sift_up(ws, i_);                                                                              \
            }                                                                                                 \
        }                                                                                                     \
    } while (0)

enum { CORE_GENERIC, CORE_GRID8, CORE_JPS_PLUS };

/* Octile distance from (x, y) to (gx, gy): max + (sqrt2 - 1) * min, the same expression as grid.c's. */
static inline double oct_h(int32_t x, int32_t y, int32_t gx, int32_t gy)
{
    int32_t ax = x - gx, ay = y - gy;
    ax = ax < 0 ? -ax : ax;
    ay = ay < 0 ? -ay : ay;
    return ax > ay ? (double)ax + (M_SQRT2 - 1.0) * (double)ay : (double)ay + (M_SQRT2 - 1.0) * (double)ax;
}

/* The one A* loop. `kind` is a compile-time constant at each call site, so the compiler makes one copy
 * that calls the domain through its function pointers (any domain: directional, JPS, 4-connected, ...) and
 * one with the 8-connected grid's successors and octile heuristic inlined (the domain is recognised by its
 * callbacks; grid.h). The grid copy generates exactly the successors, in the same order, with the same
 * costs as ap_grid_successors8; only its order among equal-f nodes differs (the stack below), so both
 * find optimal paths of the same cost, not always the same one.
 *
 * The JPS+ copy (jps_impl.h) likewise avoids the calls and divisions and keeps the arrival direction in
 * the open entry's aux, and holds one f-minimal new successor to expand next without the heap (valid A*
 * order: its f is no more than the expanded node's, which was the open list's minimum; a held node is
 * never improved, as that would need an open node of smaller f, bar rounding, which is ignored as for
 * closed nodes). The grid copy holds all of them, on a stack (same argument, LIFO among equal f).
 * Measurements: see the top of this file.
 */
static inline __attribute__((always_inline)) int core_run(ap_search *s, uint64_t max_expansions, const int kind)
{
    ap_workspace *ws = s->ws;
    const ap_domain *dom = s->dom;
    ap_node *nodes = ws->nodes;
    ap_open_entry *open = ws->open;
    const uint32_t *pos = ws->pos;
    ap_succ *succ = ws->succ;
    const uint32_t gen = ws->gen;
    const uint32_t goal = s->goal;
    const void *ctx = dom->ctx;
    const ap_grid_domain *gd = ctx;
    const uint8_t *pass = kind == CORE_GRID8 ? gd->pass : NULL;
    const uint32_t S = kind == CORE_GRID8 ? gd->stride : 0;
    const int32_t gx = kind == CORE_GRID8 ? (int32_t)gd->goal_px : 0;
    const int32_t gy = kind == CORE_GRID8 ? (int32_t)gd->goal_py : 0;
    uint64_t done = 0;
    /* The held node (JPS+): a new successor whose f is no more than the expanded node's (so it is an
     * f-minimal node of the open list) is expanded next without passing through the heap. */
    const bool HOLD = kind == CORE_JPS_PLUS;
    uint32_t hold = UINT32_MAX, hold_aux = 0;
    double hold_f = 0.0;
    /* The 8-connected grid copy (A*) holds every such successor, on a stack at the far end of the open
     * array (open[sp .. capacity-1]; the heap and the stack never meet: each open node is in one of them). */
    const bool STACK = kind == CORE_GRID8;
    const uint32_t cap = ws->capacity;
    uint32_t sp = cap;

    while (max_expansions == 0 || done < max_expansions) {
        if (ws->open_len == 0 && hold == UINT32_MAX && sp == cap)
            return s->state = AP_NO_PATH;
        /* Every 256 expansions (including the very first, so a deadline already past is honoured at once):
         * a clock read costs ~20 ns, an expansion ~50-100 ns, so this keeps the overhead well under 1%. */
        if ((s->expanded & 255u) == 0) {
            if (s->cancel != NULL && atomic_load_explicit(s->cancel, memory_order_relaxed) != 0)
                return s->state = AP_TIMEOUT;
            if (s->deadline_ns != 0 && ap_clock_ns() >= s->deadline_ns)
                return s->state = AP_TIMEOUT;
        }
        uint32_t u, from;
        double fu;
        if (HOLD && hold != UINT32_MAX) {
            u = hold;
            from = hold_aux;
            fu = hold_f;
            hold = UINT32_MAX;
        } else if (STACK && sp < cap) {
            u = open[sp].node;
            from = open[sp].aux;
            fu = open[sp].f;
            sp++;
        } else {
            u = open[0].node;
            from = open[0].aux;
            fu = open[0].f;
            ws->open_len--;
            if (ws->open_len > 0) {
                open[0] = open[ws->open_len];
                sift_down(ws, 0);
            }
        }
        s->expanded++;
        done++;
        if (u == goal) {
            s->cost = nodes[goal].g;
            return s->state = AP_OK;
        }
        const double g = nodes[u].g;
        if (kind == CORE_GRID8) {
            /* One division per expansion gives u's coordinates; each neighbour's heuristic is then plain
             * integer arithmetic (octile: max + (sqrt2 - 1) * min), no call and no division. */
            const int32_t uy = (int32_t)(u / S), ux = (int32_t)(u - (uint32_t)uy * S);
            const uint32_t n = u - S, so = u + S, w = u - 1, e = u + 1;
            const int pn = pass[n], ps = pass[so], pw = pass[w], pe = pass[e];
            int k = 0;
            if (pn) {
                RELAX(n, g + 1.0, oct_h(ux, uy - 1, gx, gy), 0);
                k++;
            }
            if (ps) {
                RELAX(so, g + 1.0, oct_h(ux, uy + 1, gx, gy), 0);
                k++;
            }
            if (pw) {
                RELAX(w, g + 1.0, oct_h(ux - 1, uy, gx, gy), 0);
                k++;
            }
            if (pe) {
                RELAX(e, g + 1.0, oct_h(ux + 1, uy, gx, gy), 0);
                k++;
            }
            /* No corner cutting: a diagonal step needs both orthogonal neighbours passable. */
            if (pn && pw && pass[n - 1]) {
                RELAX(n - 1, g + M_SQRT2, oct_h(ux - 1, uy - 1, gx, gy), 0);
                k++;
            }
            if (pn && pe && pass[n + 1]) {
                RELAX(n + 1, g + M_SQRT2, oct_h(ux + 1, uy - 1, gx, gy), 0);
                k++;
            }
            if (ps && pw && pass[so - 1]) {
                RELAX(so - 1, g + M_SQRT2, oct_h(ux - 1, uy + 1, gx, gy), 0);
                k++;
            }
            if (ps && pe && pass[so + 1]) {
                RELAX(so + 1, g + M_SQRT2, oct_h(ux + 1, uy + 1, gx, gy), 0);
                k++;
            }
            s->generated += (uint64_t)k;
        } else if (kind == CORE_JPS_PLUS) {
            /* JPS+ (jps_impl.h): the arrival direction comes from the open entry's aux (set below),
             * coordinates from one division, and each successor's heuristic from its coordinates. */
            const ap_jps_domain *jd = ctx;
            const uint32_t JS = jd->stride;
            const int32_t uy = (int32_t)(u / JS), ux = (int32_t)(u - (uint32_t)uy * JS);
            ap_jps_succ_h sh[AP_JPS_PLUS_CAP];
            int ns = ap_jps_plus_expand(jd, u, ux, uy, from < 8 ? (int)from : -1, sh, AP_JPS_PLUS_CAP);
            s->generated += (uint64_t)ns;
            /* All successors are known before the first relax: start their node loads together (jump
             * targets are far apart, a cache miss each), then relax; h only for new or improved nodes. */
            for (int k = 0; k < ns; k++) {
                __builtin_prefetch(&nodes[sh[k].node], 1, 3);
                if (jd->jump8 != NULL)
                    __builtin_prefetch(jd->jump8 + (size_t)sh[k].node * 8, 0, 3);
                else
                    __builtin_prefetch(jd->jump + (size_t)sh[k].node * 8, 0, 3);
                __builtin_prefetch(jd->forced + sh[k].node, 0, 3);
            }
            for (int k = 0; k < ns; k++)
                RELAX(sh[k].node, g + sh[k].cost, ap_jps_octile(sh[k].x, sh[k].y, jd->goal_px, jd->goal_py),
                      (uint32_t)sh[k].dir);
        } else {
            int ns = dom->successors(ctx, u, succ);
            s->generated += (uint64_t)ns;
            for (int k = 0; k < ns; k++)
                RELAX(succ[k].node, g + succ[k].cost, dom->heuristic(ctx, v_, goal), 0);
        }
    }
    if (HOLD && hold != UINT32_MAX) {
        /* The slice ends: the held node goes back to the heap, so the next slice finds it there. */
        uint32_t i = ws->open_len++;
        open[i] = (ap_open_entry){hold_f, nodes[hold].g, hold, hold_aux};
        sift_up(ws, i);
    }
    while (STACK && sp < cap) {
        /* The same for the stack. */
        const ap_open_entry e = open[sp++];
        uint32_t i = ws->open_len++;
        open[i] = e;
        sift_up(ws, i);
    }
    return s->state;
}

/* One function per copy (not one function with three inlined loops): a change to one copy then leaves
 * the others' code layout alone, so A/B timings of one copy are not moved by edits to another (a 4%
 * swing on JPS+ random512-40-0 from an edit to the grid copy alone was measured before this split). */
static __attribute__((noinline)) int core_run_grid8(ap_search *s, uint64_t max_expansions)
{
    return core_run(s, max_expansions, CORE_GRID8);
}

static __attribute__((noinline)) int core_run_jps_plus(ap_search *s, uint64_t max_expansions)
{
    return core_run(s, max_expansions, CORE_JPS_PLUS);
}

static __attribute__((noinline)) int core_run_generic(ap_search *s, uint64_t max_expansions)
{
    return core_run(s, max_expansions, CORE_GENERIC);
}

int ap_search_run(ap_search *s, uint64_t max_expansions)
{
    if (s->state != AP_IN_PROGRESS)
        return s->state;
    if (ap_grid_is_octile_fast(s->dom))
        return core_run_grid8(s, max_expansions);
    if (ap_jps_is_plus(s->dom))
        return core_run_jps_plus(s, max_expansions);
    return core_run_generic(s, max_expansions);
}

size_t ap_search_path(const ap_search *s, uint32_t *out, size_t cap)
{
    if (s->state != AP_OK)
        return 0;
    const ap_node *nodes = s->ws->nodes;
    size_t count = 0;
    for (uint32_t u = s->goal; u != UINT32_MAX; u = nodes[u].parent)
        count++;
    if (out == NULL || cap < count)
        return count;
    size_t i = count;
    for (uint32_t u = s->goal; u != UINT32_MAX; u = nodes[u].parent)
        out[--i] = u;
    return count;
}
