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
 * Fifth round (2026-11-21, A* open list), arcpath-bench A*, median us over every scenario line, three
 * interleaved runs each (old / new), pinned to core 0 while another engineer benchmarked on core 1:
 *   - lazy deletion in the grid copy (no pos: a decrease-key pushes a second entry, pops skip entries whose
 *     g is no longer the node's, closed = g stored negated): Berlin 259 / 270 / 268 -> 386 / 375 / 381,
 *     Aftershock 1144 / 1125 / 1114 -> 1768 / 1743 / 1749. Dropped: decrease-keys are common on these grids
 *     (Aftershock: 43 M for 36 M expansions, 98% of them real improvements, not rounding steps), so the
 *     heap held twice the entries.
 *   - bucketed open list with every bucket a heap (a ring of 1 / K-tile buckets by f, decrease-key through
 *     the node's bucket and index): K = 64: Berlin 257 / 260 / 260 -> 285 / 284 / 287, den520d 218 / 219 /
 *     219 -> 227 / 228 / 231, brc202d 1090 / 1135 / 1063 -> 999 / 1032 / 992; K = 1, 4, 8, 16, 32 (one
 *     run each) slower than the single heap on Berlin too. Dropped: every push still sifts up, and a
 *     decrease-key that changes bucket is a removal plus a push.
 *   - kept: the same ring, but only the lowest bucket is a heap and the others are unordered bags that are
 *     heapified (Floyd) when they become the lowest ("Bucketed open list" below), K = 64, ring 256:
 *       Berlin_0_256     257 / 257 / 256  ->  205 / 205 / 207
 *       arena2           242 / 247 / 241  ->  198 / 204 / 203
 *       den520d          215 / 211 / 210  ->  180 / 180 / 180
 *       brc202d         1071 / 1105 / 1080 ->  888 / 868 / 876
 *       AR0011SR        1608 / 1606 / 1591 -> 1285 / 1278 / 1237
 *       Aftershock      1140 / 1121 / 1121 ->  862 / 861 / 888
 *       8room_000       2416 / 2419 / 2383 -> 1945 / 1844 / 1859
 *       random512-40-0  2007 / 1991 / 1978 -> 1797 / 1783 / 1793
 *       Paris_1_1024    4715 / 4512 / 4636 -> 3793 / 3909 / 3855
 *       maze512-32-0    9190 / 9232 / 9360 -> 6642 / 6722 / 6767
 *     (with the 12-byte bag entries below; the bitmap below changes none of these).
 *     Same expansions (mean per map equal to the last digit; totals differ by a few nodes through the
 *     node-id tie-break below), every line optimal. Bucket width against K = 16 (ring 64): K = 64 (kept)
 *     Berlin 206 / 204 / 205 -> 200 / 201 / 203, den520d 190 / 186 / 182 -> 174 / 174 / 179, Aftershock
 *     875 / 864 / 873 -> 837 / 843 / 853; K = 8 and K = 32 no better than 16; K = 128 (ring 512) against
 *     K = 64: Berlin 201 / 203 / 202 -> 205 / 206 / 209, den520d 177 / 175 / 177 -> 181 / 186 / 184.
 *   - the order made total (node id on equal f and g, open_before_total) so that the bucketed grid copy
 *     expands exactly what the generic copy does: with the three-key child choice branch-free, Berlin
 *     206 / 208 / 207 -> 225 / 221 / 219, Aftershock 883 / 870 / 874 -> 932 / 937 / 938 against the
 *     two-key order; with the node id behind a rarely taken branch (kept) 215 / 218 / 216 -> 211 / 211 /
 *     212 and 921 / 918 / 913 -> 893 / 898 / 901 against the branch-free three keys. JPS+ keeps two keys;
 *     sift_up / sift_down are always_inline now (with the order flag GCC kept sift_down out of line, which
 *     cost every copy); JPS+ against the previous commit: brc202d 50.6 / 40.8 / 40.8 -> 40.8 / 40.9 / 40.8,
 *     8room_000 260 / 261 / 261 -> 255 / 257 / 257. Online JPS runs the generic copy and pays for the third
 *     key: brc202d 58.1 / 57.8 / 57.8 -> 59.3 / 59.3 / 59.6, 8room_000 351 / 352 / 351 -> 363 / 356 / 359
 *     (the generic copy with two keys instead: 8room_000 358 / 356 / 360 -> 350 / 351 / 348), the price of
 *     the grid and generic copies expanding the same nodes.
 *   - bag entries as f + node (12 bytes, g read from the node when the bag is heapified) instead of full
 *     24-byte entries: Berlin 215 / 217 / 212 -> 212 / 207 / 207, Aftershock 950 / 906 / 861 -> 893 / 860 /
 *     861, brc202d 877 / 888 / 907 -> 890 / 875 / 890: no slower, half the memory; kept.
 *   - a bitmap of the non-empty bags (ws->bq_used), so ap_search_begin empties only those and bq_advance
 *     finds the next one with ctz instead of scanning the 256 slots: den520d short queries (below) median /
 *     mean us 0.8 / 1.4 (three runs alike) -> 0.6 / 1.2 (alike); all lines unchanged (Berlin 208 / 208 / 207
 *     -> 210 / 208 / 209, den520d 186 / 183 / 182 -> 185 / 182 / 183, Aftershock 880 / 872 / 850 -> 891 /
 *     866 / 855).
 *   - generation stamp (ap_search_begin) against clearing per search (on the 24-byte-bag build), den520d
 *     A*: short queries (scenario buckets 0-5, 60 lines repeated 20 times so the node pages are already
 *     mapped) median / mean us: stamp 0.8 / 1.6, 0.8 / 1.5, 0.8 / 1.3; memset of the domain's nodes (1 MB)
 *     16.8 / 17.8, 16.8 / 17.8, 16.9 / 17.8; touched list (append each new node, reset those at the next
 *     begin) 0.9 / 1.6, 0.8 / 1.4, 0.9 / 1.5. All lines: stamp 185 / 188 / 193, memset 207 / 206 / 203,
 *     touched 190 / 192 / 190; Berlin all lines: stamp 214 / 219 / 212, memset 235 / 235 / 231, touched
 *     223 / 222 / 221. The stamp stays (no extra store per node, no clearing). Note: on a fresh workspace
 *     the first searches pay page faults on the calloc'd node matrix (the 60 short lines once: median 6 us
 *     instead of 0.8).
 *
 * Sixth round (2026-11-21, JPS and JPS+; measured before the bucketed open list above was merged), same bench, loaded machine (another engineer's builds on the other core),
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
 *   - instrumented (not kept): per random512-40-0 query, 11350 new successors, 3140 already seen (575 of
 *     them improved), 11250 expansions of which 2170 held; 8room_000: 2233 new, 1755 seen, 2040
 *     expansions, 459 held.
 *
 * Seventh round (2026-11-21, JPS+ open list), arcpath-bench --alg jps_plus, median us over every scenario
 * line, interleaved runs (old / new), nothing else running but the machine's own noise (the same binary
 * moved by up to 5% between batches, so only interleaved figures are compared):
 *   - the grid copy's bucketed open list for JPS+ ("Bucketed open list" below): exact, with an overflow
 *     heap for an f beyond the ring (a jump raises f by up to twice its length) and the arrival direction
 *     in the bags (1 byte per node). Buckets per tile (ring of 256), three runs, random512-40-0: single
 *     heap 754 / 744 / 750, K = 4 692 / 702 / 703, 8 702 / 712 / 698, 16 700 / 705 / 708, 32 695 / 702 /
 *     696, 64 770 / 775 / 767; again: heap 747 / 720 / 720, K = 1 722 / 703 / 703, 2 705 / 699 / 692,
 *     4 680 / 674 / 677, 8 694 / 680 / 698; 8room_000 heap 157.5 / 157.4 / 155.3, K = 1 142.5 / 144.3 /
 *     143.1, 2 144.5 / 143.4 / 143.1, 4 141.5 / 140.7 / 141.6, 8 147.9 / 145.3 / 142.5; brc202d heap 27.1 /
 *     27.2 / 27.6, K = 1 26.0 / 26.2 / 26.5, 4 25.7 / 25.6 / 25.3, 8 26.4 / 26.3 / 25.8; Paris_1_1024 (two
 *     runs) 20.4 / 19.7 -> K = 4 19.4 / 18.8; Aftershock 9.7 / 9.5 -> 9.5 / 9.6. K = 4 kept
 *     (AP_BQ_JPS_PER_TILE). Same expansions on every map, every line optimal (also with K = 64, where most
 *     pushes go through the overflow). Instrumented (not kept), per query: random512-40-0 9750 pushes (360
 *     into the lowest bucket, none beyond the ring), 576 decrease-keys, 1234 bucket advances of 7.1
 *     entries on average; 8room_000 2088 pushes, 225 advances of 6.3; Paris_1_1024 342 pushes of which 74
 *     into the overflow, 97 advances of 2.1.
 *   - the held node is still worth it with buckets: without it random512-40-0 674 / 673 / 676 -> 724 /
 *     732 / 713, 8room_000 138.6 / 141.7 / 140.6 -> 147.8 / 147.6 / 146.3, brc202d 25.4 / 25.3 / 25.5 ->
 *     26.2 / 26.6 / 26.0.
 *   - then a prefetch of each entry's jump row and forced byte when its bucket becomes the heap:
 *     random512-40-0 709 / 692 / 702 -> 701 / 682 / 694, 8room_000 142.2 / 143.4 / 145.2 -> 140.4 / 142.3
 *     / 141.1, brc202d 25.6 / 25.7 / 25.6 -> 25.5 / 25.4 / 25.6 (kept, ~1%).
 *   - then the lowest bucket kept sorted (first out last) up to AP_BQ_SORTED_MAX = 32 entries, a heap
 *     beyond: a pop is one load, an insertion shifts a few entries. random512-40-0 678 / 685 / 687 -> 625 /
 *     621 / 640, 8room_000 144.2 / 141.0 / 145.4 -> 130.4 / 134.3 / 135.1, brc202d 26.7 / 25.5 / 25.6 ->
 *     25.6 / 24.6 / 24.9. Threshold (two runs): 16 639 / 632, 32 629 / 617, 64 618 / 622, 128 622 / 627
 *     on random512-40-0; 8room_000, maze512-1-0 and Paris_1_1024 alike too.
 *   - the three together against the previous commit, three runs each: random512-40-0 721 / 722 / 720 ->
 *     619 / 618 / 620, 8room_000 156.4 / 155.0 / 156.5 -> 132.2 / 132.0 / 132.0, brc202d 27.2 / 27.1 /
 *     27.6 -> 25.0 / 25.0 / 25.0, Paris_1_1024 19.8 / 20.0 / 20.2 -> 19.1 / 18.4 / 18.8, Aftershock
 *     9.6 / 9.5 / 9.4 -> 9.2 / 9.1 / 9.2, arena2 4.2 / 4.4 / 4.3 -> 4.0 / 4.2 / 4.0, den520d 4.0 / 4.0 /
 *     3.9 -> 3.8 / 3.7 / 3.9, Berlin_0_256 3.1 / 3.2 / 2.9 -> 2.9 / 2.8 / 3.0, AR0011SR 5.2 / 4.9 / 5.2 ->
 *     5.2 / 5.1 / 5.1; slower: maze512-32-0 3.5 / 3.2 / 3.3 -> 4.4 / 4.2 / 4.2 (60 expansions a query
 *     over long corridors: nearly every pop is a bucket advance, and the bags are emptied at each begin).
 *     Side effect on A* (bq_bag_add / bq_bag_remove now always_inline, bq_advance out of line as before):
 *     Berlin_0_256 207 / 204 / 204 -> 190 / 187 / 188, den520d 185 / 180 / 182 -> 170 / 170 / 169,
 *     Aftershock 891 / 884 / 898 -> 789 / 806 / 799. Online JPS unchanged (8room_000 250.7 / 251.1 ->
 *     250.6 / 251.3).
 *   - tried and dropped: counting the directions still to do (__builtin_popcount, a libgcc call without
 *     -mpopcnt, ~0.7% of the profile) only near the successor cap: random512-40-0 729 / 721 / 713 -> 747 /
 *     729 / 747 (layout); prefetching all successors' nodes before their rows: 677 / 679 / 680 -> 685 /
 *     683 / 686, rows after the relax loop 688 / 693 / 698; g kept in the bags (8 more bytes per node) and
 *     taken from the entry at expansion (the node not read): random512-40-0 686 / 682 / 680 -> 680 / 690 /
 *     680, 8room_000 142.2 / 141.5 / 142.6 -> 143.1 / 141.4 (one outlier dropped), brc202d 25.3 / 25.4 /
 *     25.3 -> 25.4 / 25.8 / 25.5.
 *   - perf (random512-40-0, before the sorted bucket): the first read of each new successor's node ~15%,
 *     the jump rows of the diagonal jump points walked through ~5%, bucket advances ~8%, the pop's
 *     sift-down ~11% (removed by the sorted bucket).
 */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../grid/grid.h"
#include "../grid/jps_impl.h"
#include "../base/status.h"


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
    /* Bags: every open node sits in at most one, all chunks but each bag's last are full, so capacity /
     * AP_BQ_CHUNK + AP_BQ_RING chunks always suffice. */
    ws->bq_chunks = capacity / AP_BQ_CHUNK + AP_BQ_RING + 1;
    ws->bq_f = malloc((size_t)ws->bq_chunks * AP_BQ_CHUNK * sizeof *ws->bq_f);
    ws->bq_node = malloc((size_t)ws->bq_chunks * AP_BQ_CHUNK * sizeof *ws->bq_node);
    ws->bq_link = malloc((size_t)ws->bq_chunks * sizeof *ws->bq_link);
    ws->bq_aux = malloc((size_t)ws->bq_chunks * AP_BQ_CHUNK * sizeof *ws->bq_aux);
    if (ws->nodes == NULL || ws->open == NULL || ws->pos == NULL || ws->succ == NULL || ws->bq_f == NULL ||
        ws->bq_node == NULL || ws->bq_link == NULL || ws->bq_aux == NULL) {
        ap_workspace_free(ws);
        return AP_E_NOMEM;
    }
    /* Touch the randomly accessed arrays now: calloc/malloc leave large blocks unmapped, and the first
     * searches on a fresh workspace then paid a page fault per 4 KiB touched (60 short den520d queries:
     * median 6 us instead of 0.8). A server allocates its workspaces once at start, so this moves that cost
     * to start-up. */
    memset(ws->nodes, 0, (size_t)capacity * sizeof *ws->nodes);
    memset(ws->pos, 0, (size_t)capacity * sizeof *ws->pos);
    for (uint32_t c = 0; c < ws->bq_chunks; c++)
        ws->bq_link[c] = c + 1 < ws->bq_chunks ? c + 1 : UINT32_MAX;
    ws->bq_free = 0;
    for (int b = 0; b < AP_BQ_RING; b++)
        ws->bq_bag[b] = (ap_bq_bag){UINT32_MAX, 0};
    memset(ws->bq_used, 0, sizeof ws->bq_used);
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
    free(ws->bq_f);
    free(ws->bq_node);
    free(ws->bq_link);
    free(ws->bq_aux);
    memset(ws, 0, sizeof *ws);
}

/* a comes out of the open list before b: smaller f, and on equal f larger g (deeper nodes first, which
 * reaches the goal sooner among the many equal-f nodes of a grid). */
static inline bool open_before(const ap_open_entry *a, const ap_open_entry *b)
{
    return a->f < b->f || (a->f == b->f && a->gtie > b->gtie);
}

/* The same order made total by the node id (smaller first) on equal f and g, so the expansion order is a
 * function of the keys alone and the grid copy's bucketed open list expands exactly what the generic
 * copy's single heap does (test inlined_grid_matches_generic). The JPS+ copy keeps the cheaper open_before:
 * the third key cost it 4-7% (brc202d 40.6 -> 42.1 us, 8room_000 255 -> 273 us, medians of three runs). */
static inline bool open_before_total(const ap_open_entry *a, const ap_open_entry *b)
{
    return a->f < b->f || (a->f == b->f && (a->gtie > b->gtie || (a->gtie == b->gtie && a->node < b->node)));
}

static inline bool open_before_k(const ap_open_entry *a, const ap_open_entry *b, const bool total)
{
    return total ? open_before_total(a, b) : open_before(a, b);
}

static inline __attribute__((always_inline)) void sift_up(ap_workspace *ws, uint32_t i, const bool total)
{
    ap_open_entry *open = ws->open;
    uint32_t *pos = ws->pos;
    ap_open_entry e = open[i];
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!open_before_k(&e, &open[p], total))
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
 * jumps of the f comparisons. Same child chosen, same order as the branching form. With `total`
 * (open_before_total) equal f and g go to the node id through a branch: rare among siblings, so it
 * predicts well, where the branch-free three keys cost 7% (top of this file). */
static inline __attribute__((always_inline)) void sift_down(ap_workspace *ws, uint32_t i, const bool total)
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
            /* equal f and g (rare among siblings, so a predictable branch): the node id decides */
            if (total && __builtin_expect((a->f == b->f) & (a->gtie == b->gtie), 0))
                c += (uint32_t)(a->node < b->node);
            else
                c += (uint32_t)((a->f < b->f) | ((a->f == b->f) & (a->gtie > b->gtie)));
        }
        if (!open_before_k(&open[c], &e, total))
            break;
        open[i] = open[c];
        pos[open[i].node] = i;
        i = c;
    }
    open[i] = e;
    pos[e.node] = i;
}

/* Bucketed open list of the 8-connected grid copy (measured at the top of this file). With the consistent
 * octile heuristic the popped f never decreases and a successor's f is at most its parent's + 2 * sqrt(2),
 * so every open f lies in [f_min, f_min + 2 * sqrt(2)]: the open list splits into buckets of width
 * 1 / AP_BQ_PER_TILE by f, and a ring of AP_BQ_RING covers every live one. Only the lowest non-empty bucket,
 * bq_cur, is a heap (ws->open, the total order open_before_total); the ones above are unordered bags
 * (f and node; g is the node's), heapified once (Floyd) when bq_cur reaches them. Exact: a bucket holds
 * whole f values, so the pops come in the order a single heap gives. Most pushes are a bag append (no sift,
 * no compare) and pops sift down through the small lowest bucket only. An f that rounds below bq_cur (a
 * rounding step of the consistent heuristic) goes into the heap, which orders it exactly. A decrease-key
 * finds the node through its bucket (from its old f) and pos.
 *
 * The JPS+ copy (jp) uses the same list with wider buckets (1 / AP_BQ_JPS_PER_TILE) and its own order
 * (open_before, no node id): a jump can raise f by up to twice its length, beyond any fixed ring, so an f
 * beyond the ring goes to an overflow heap (ov_*, below), drained into the bags as bq_cur moves; bag
 * entries also keep the arrival direction (bq_aux). Its lowest bucket is small (about 7 entries on
 * random512-40-0), so up to AP_BQ_SORTED_MAX entries it is kept sorted (ws->bq_sorted, cur_insert,
 * cur_raise) and a pop takes the last entry without a sift. */
static inline uint32_t bq_bucket(const ap_workspace *ws, double f, const uint32_t per_tile)
{
    uint32_t b = (uint32_t)(f * per_tile);
    return b < ws->bq_cur ? ws->bq_cur : b;
}

/* jp (the JPS+ copy): bag entries also keep the arrival direction (bq_aux). */
static inline __attribute__((always_inline)) void bq_bag_add(ap_workspace *ws, uint32_t b, ap_open_entry e,
                                                             const bool jp)
{
    const uint32_t slot = b & (AP_BQ_RING - 1);
    ap_bq_bag *bag = &ws->bq_bag[slot];
    if (bag->last == UINT32_MAX || bag->fill == AP_BQ_CHUNK) {
        if (bag->last == UINT32_MAX)
            ws->bq_used[slot / 64] |= 1ull << (slot % 64);
        uint32_t c = ws->bq_free; /* never UINT32_MAX: see ap_workspace_init */
        ws->bq_free = ws->bq_link[c];
        ws->bq_link[c] = bag->last;
        bag->last = c;
        bag->fill = 0;
    }
    uint32_t i = bag->last * AP_BQ_CHUNK + bag->fill++;
    ws->bq_f[i] = e.f;
    ws->bq_node[i] = e.node;
    if (jp)
        ws->bq_aux[i] = (uint8_t)e.aux;
    ws->pos[e.node] = i;
    ws->bq_count++;
}

/* Take the entry at pool index i out of bucket b's bag: the bag's newest entry fills the hole. */
static inline __attribute__((always_inline)) void bq_bag_remove(ap_workspace *ws, uint32_t b, uint32_t i,
                                                                const bool jp)
{
    const uint32_t slot = b & (AP_BQ_RING - 1);
    ap_bq_bag *bag = &ws->bq_bag[slot];
    uint32_t j = bag->last * AP_BQ_CHUNK + --bag->fill;
    if (i != j) {
        ws->bq_f[i] = ws->bq_f[j];
        ws->bq_node[i] = ws->bq_node[j];
        if (jp)
            ws->bq_aux[i] = ws->bq_aux[j];
        ws->pos[ws->bq_node[i]] = i;
    }
    if (bag->fill == 0) {
        uint32_t c = bag->last;
        bag->last = ws->bq_link[c];
        bag->fill = bag->last == UINT32_MAX ? 0 : AP_BQ_CHUNK;
        if (bag->last == UINT32_MAX)
            ws->bq_used[slot / 64] &= ~(1ull << (slot % 64));
        ws->bq_link[c] = ws->bq_free;
        ws->bq_free = c;
    }
    ws->bq_count--;
}

/* JPS+ overflow: a binary min-heap by f of the entries whose bucket lies beyond the ring (bucket >= bq_cur +
 * AP_BQ_RING), kept at the top of ws->open growing down (entry k at open[capacity - 1 - k]; the heap and the
 * overflow together hold at most one entry per node, so they never meet). pos[v] is v's k while it is
 * there. Drained into the bags whenever bq_cur moves, so an entry is there iff its bucket is beyond the
 * ring: its old f tells a decrease-key where it is. */
static inline ap_open_entry *ov_at(ap_workspace *ws, uint32_t k)
{
    return &ws->open[ws->capacity - 1 - k];
}

static inline void ov_sift_up(ap_workspace *ws, uint32_t k)
{
    ap_open_entry e = *ov_at(ws, k);
    while (k > 0) {
        uint32_t p = (k - 1) / 2;
        if (!(e.f < ov_at(ws, p)->f))
            break;
        *ov_at(ws, k) = *ov_at(ws, p);
        ws->pos[ov_at(ws, k)->node] = k;
        k = p;
    }
    *ov_at(ws, k) = e;
    ws->pos[e.node] = k;
}

static inline void ov_sift_down(ap_workspace *ws, uint32_t k)
{
    const uint32_t len = ws->ov_len;
    ap_open_entry e = *ov_at(ws, k);
    for (;;) {
        uint32_t c = k * 2 + 1;
        if (c >= len)
            break;
        if (c + 1 < len && ov_at(ws, c + 1)->f < ov_at(ws, c)->f)
            c++;
        if (!(ov_at(ws, c)->f < e.f))
            break;
        *ov_at(ws, k) = *ov_at(ws, c);
        ws->pos[ov_at(ws, k)->node] = k;
        k = c;
    }
    *ov_at(ws, k) = e;
    ws->pos[e.node] = k;
}

static inline void ov_remove(ap_workspace *ws, uint32_t k)
{
    ws->ov_len--;
    if (k == ws->ov_len)
        return;
    const ap_open_entry e = *ov_at(ws, ws->ov_len);
    *ov_at(ws, k) = e;
    ov_sift_down(ws, k);
    if (ws->pos[e.node] == k) /* it did not move down: it may have to move up */
        ov_sift_up(ws, k);
}

/* JPS+: the lowest bucket, when it is small (ws->bq_sorted), is kept sorted with the first out last, so
 * a pop is open[--open_len] with no sift. Entry i moves towards the end while it goes before its
 * successor (a new or lowered entry). */
static inline void cur_raise(ap_workspace *ws, uint32_t i)
{
    ap_open_entry *open = ws->open;
    const uint32_t len = ws->open_len;
    const ap_open_entry e = open[i];
    while (i + 1 < len && open_before(&e, &open[i + 1])) {
        open[i] = open[i + 1];
        ws->pos[open[i].node] = i;
        i++;
    }
    open[i] = e;
    ws->pos[e.node] = i;
}

/* Add e to the sorted lowest bucket, or, beyond AP_BQ_SORTED_MAX entries, turn it into a heap (reversed:
 * a sorted array with the first out first is a heap) and push e there. */
static inline void cur_insert(ap_workspace *ws, ap_open_entry e)
{
    ap_open_entry *open = ws->open;
    uint32_t len = ws->open_len;
    if (len >= AP_BQ_SORTED_MAX) {
        for (uint32_t a = 0, b = len - 1; a < b; a++, b--) {
            ap_open_entry t = open[a];
            open[a] = open[b];
            open[b] = t;
        }
        for (uint32_t k = 0; k < len; k++)
            ws->pos[open[k].node] = k;
        ws->bq_sorted = false;
        open[len] = e;
        ws->open_len = len + 1;
        sift_up(ws, len, false);
        return;
    }
    uint32_t j = len;
    while (j > 0 && open_before(&open[j - 1], &e)) {
        open[j] = open[j - 1];
        ws->pos[open[j].node] = j;
        j--;
    }
    open[j] = e;
    ws->pos[e.node] = j;
    ws->open_len = len + 1;
}

static inline __attribute__((always_inline)) void bq_push(ap_workspace *ws, ap_open_entry e, const bool jp,
                                                          const uint32_t per_tile)
{
    uint32_t b = bq_bucket(ws, e.f, per_tile);
    if (b == ws->bq_cur) {
        if (jp && ws->bq_sorted) {
            cur_insert(ws, e);
            return;
        }
        uint32_t i = ws->open_len++;
        ws->open[i] = e;
        sift_up(ws, i, !jp);
    } else if (jp && b - ws->bq_cur >= AP_BQ_RING) {
        uint32_t k = ws->ov_len++;
        *ov_at(ws, k) = e;
        ov_sift_up(ws, k);
    } else {
        bq_bag_add(ws, b, e, jp);
    }
}

/* Node e.node is in the open list with f = oldf (or closed): lower it to entry e. Returns false, changing
 * nothing, when the node is closed. A node whose bucket is above bq_cur is open (bq_cur has not reached it). */
static inline __attribute__((always_inline)) bool bq_decrease(ap_workspace *ws, double oldf, ap_open_entry e,
                                                              const bool jp, const uint32_t per_tile)
{
    const uint32_t ob = bq_bucket(ws, oldf, per_tile), i = ws->pos[e.node];
    if (ob == ws->bq_cur) {
        if (i >= ws->open_len || ws->open[i].node != e.node)
            return false;
        ws->open[i] = e;
        if (jp && ws->bq_sorted)
            cur_raise(ws, i);
        else
            sift_up(ws, i, !jp);
        return true;
    }
    const uint32_t nb = bq_bucket(ws, e.f, per_tile);
    if (jp && ob - ws->bq_cur >= AP_BQ_RING) {
        if (nb - ws->bq_cur >= AP_BQ_RING) {
            *ov_at(ws, i) = e;
            ov_sift_up(ws, i);
        } else {
            ov_remove(ws, i);
            bq_push(ws, e, jp, per_tile);
        }
        return true;
    }
    if (nb == ob) {
        ws->bq_f[i] = e.f;
        if (jp)
            ws->bq_aux[i] = (uint8_t)e.aux;
        return true;
    }
    bq_bag_remove(ws, ob, i, jp);
    bq_push(ws, e, jp, per_tile);
    return true;
}

/* The heap is empty and the bags (or the JPS+ overflow) are not: move bq_cur to the next non-empty bucket
 * and make its bag the heap. */
static inline __attribute__((always_inline)) void bq_advance(ap_workspace *ws, const bool jp,
                                                             const uint32_t per_tile, const ap_jps_domain *jd)
{
    const uint32_t cs = ws->bq_cur & (AP_BQ_RING - 1);
    if (!jp || ws->bq_count > 0) {
        /* the next non-empty bag after bq_cur's slot (whose bag is empty), cyclically, from the bitmap */
        uint32_t s = (cs + 1) & (AP_BQ_RING - 1), slot;
        uint64_t m = ws->bq_used[s / 64] & (~0ull << (s % 64));
        for (uint32_t w = s / 64;;) {
            if (m != 0) {
                slot = w * 64 + (uint32_t)__builtin_ctzll(m);
                break;
            }
            w = (w + 1) % (AP_BQ_RING / 64);
            m = ws->bq_used[w];
        }
        ws->bq_cur += (slot - cs) & (AP_BQ_RING - 1);
    } else {
        /* only the overflow is left: jump to its lowest bucket */
        ws->bq_cur = (uint32_t)(ov_at(ws, 0)->f * per_tile);
    }
    if (jp) {
        /* the ring moved: bring in the overflow entries it now covers */
        while (ws->ov_len > 0 && (uint32_t)(ov_at(ws, 0)->f * per_tile) - ws->bq_cur < AP_BQ_RING) {
            ap_open_entry e = *ov_at(ws, 0);
            ov_remove(ws, 0);
            bq_bag_add(ws, (uint32_t)(e.f * per_tile), e, true);
        }
    }
    const uint32_t slot = ws->bq_cur & (AP_BQ_RING - 1);
    ap_bq_bag *bag = &ws->bq_bag[slot];
    ws->bq_used[slot / 64] &= ~(1ull << (slot % 64));
    uint32_t n = 0, fill = bag->fill;
    for (uint32_t c = bag->last; c != UINT32_MAX;) {
        const double *f = &ws->bq_f[c * AP_BQ_CHUNK];
        const uint32_t *v = &ws->bq_node[c * AP_BQ_CHUNK];
        const uint8_t *a = &ws->bq_aux[c * AP_BQ_CHUNK];
        for (uint32_t k = 0; k < fill; k++, n++) {
            if (jp) {
                __builtin_prefetch(jd->jump8 != NULL ? (const void *)(jd->jump8 + (size_t)v[k] * 8)
                                                     : (const void *)(jd->jump + (size_t)v[k] * 8), 0, 3);
                __builtin_prefetch(jd->forced + v[k], 0, 3);
            }
            ws->open[n] = (ap_open_entry){f[k], ws->nodes[v[k]].g, v[k], jp ? a[k] : 0};
            ws->pos[v[k]] = n;
        }
        uint32_t prev = ws->bq_link[c];
        ws->bq_link[c] = ws->bq_free;
        ws->bq_free = c;
        c = prev;
        fill = AP_BQ_CHUNK;
    }
    *bag = (ap_bq_bag){UINT32_MAX, 0};
    ws->bq_count -= n;
    ws->open_len = n;
    if (jp && n <= AP_BQ_SORTED_MAX) {
        /* small: insertion sort, first out last */
        ap_open_entry *open = ws->open;
        for (uint32_t k = 1; k < n; k++) {
            const ap_open_entry e = open[k];
            uint32_t j = k;
            while (j > 0 && open_before(&open[j - 1], &e)) {
                open[j] = open[j - 1];
                j--;
            }
            open[j] = e;
        }
        for (uint32_t k = 0; k < n; k++)
            ws->pos[open[k].node] = k;
        ws->bq_sorted = true;
        return;
    }
    if (jp)
        ws->bq_sorted = false;
    for (uint32_t k = n / 2; k-- > 0;)
        sift_down(ws, k, !jp);
}

static __attribute__((noinline)) void bq_advance_grid8(ap_workspace *ws)
{
    bq_advance(ws, false, AP_BQ_PER_TILE, NULL);
}

static __attribute__((noinline)) void bq_advance_jps_plus(ap_workspace *ws, const ap_jps_domain *jd)
{
    bq_advance(ws, true, AP_BQ_JPS_PER_TILE, jd);
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
     * the counter wraps; nodes stamped long ago could then look current, so clear once and restart at 1.
     * Measured against clearing per search (top of this file): a memset of den520d's nodes makes a short
     * query 0.8 -> 16.8 us, a touched list is no faster (0.8-0.9 us short, 1-4% slower on all lines). */
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
    const bool grid8 = ap_grid_is_octile_fast(dom);
    if (grid8 || ap_jps_is_plus(dom)) {
        /* Empty the bags an earlier search left (their chunks back to the free list): only the non-empty
         * ones (bitmap), so the work is bounded by what that search did, never a sweep of the pool. */
        for (int w = 0; w < AP_BQ_RING / 64; w++) {
            for (uint64_t m = ws->bq_used[w]; m != 0; m &= m - 1) {
                ap_bq_bag *bag = &ws->bq_bag[w * 64 + __builtin_ctzll(m)];
                while (bag->last != UINT32_MAX) {
                    uint32_t c = bag->last;
                    bag->last = ws->bq_link[c];
                    ws->bq_link[c] = ws->bq_free;
                    ws->bq_free = c;
                }
                bag->fill = 0;
            }
            ws->bq_used[w] = 0;
        }
        ws->bq_count = 0;
        ws->ov_len = 0;
        ws->bq_sorted = !grid8; /* JPS+: the start alone */
        ws->bq_cur = (uint32_t)(ws->open[0].f * (grid8 ? AP_BQ_PER_TILE : AP_BQ_JPS_PER_TILE));
    }
    return AP_OK;
}

/* First sight of a node in this search (its stamp is not the current generation): claim it with cost g
 * and the given parent and return true; false when the search has seen it already. */
static inline bool node_fresh(ap_node *nv, uint32_t gen, double g, uint32_t parent)
{
    if (nv->gen == gen)
        return false;
    nv->gen = gen;
    nv->g = g;
    nv->parent = parent;
    return true;
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
        if (node_fresh(nv_, gen, ng_, u)) {                                                                   \
            uint32_t i_ = ws->open_len++;                                                                     \
            open[i_] = (ap_open_entry){ng_ + (HV), ng_, v_, (AUX)};                                           \
            sift_up(ws, i_, true);                                                                            \
        } else if (ng_ < nv_->g) {                                                                            \
            uint32_t i_ = pos[v_];                                                                            \
            if (i_ < ws->open_len && open[i_].node == v_) {                                                   \
                nv_->g = ng_;                                                                                 \
                nv_->parent = u;                                                                              \
                open[i_].aux = (AUX);                                                                         \
                open[i_].gtie = ng_;                                                                          \
                open[i_].f = ng_ + (HV);                                                                      \
                sift_up(ws, i_, true);                                                                        \
            }                                                                                                 \
        }                                                                                                     \
    } while (0)

/* RELAX for the bucketed open lists (JPS a compile-time constant): the same steps; a decrease-key finds the
 * node through its old f (old g + h, bit for bit the f it was pushed with), which names its bucket. The
 * JPS+ copy (JPS true) first offers a new successor to the held node (core_run), and its entries carry the
 * arrival direction AUX; the grid copy passes AUX 0. */
#define RELAX_BQ(V, NG, HV, AUX, JPS)                                                                         \
    do {                                                                                                      \
        const uint32_t v_ = (V);                                                                              \
        const double ng_ = (NG);                                                                              \
        ap_node *nv_ = &nodes[v_];                                                                            \
        if (node_fresh(nv_, gen, ng_, u)) {                                                                   \
            const double f_ = ng_ + (HV);                                                                     \
            if ((JPS) && hold == UINT32_MAX && f_ <= fu) {                                                    \
                hold = v_;                                                                                    \
                hold_aux = (AUX);                                                                             \
                hold_f = f_;                                                                                  \
            } else {                                                                                          \
                bq_push(ws, (ap_open_entry){f_, ng_, v_, (AUX)}, (JPS),                                       \
                        (JPS) ? AP_BQ_JPS_PER_TILE : AP_BQ_PER_TILE);                                         \
            }                                                                                                 \
        } else if (ng_ < nv_->g) {                                                                            \
            const double h_ = (HV);                                                                           \
            if (bq_decrease(ws, nv_->g + h_, (ap_open_entry){ng_ + h_, ng_, v_, (AUX)}, (JPS),                \
                            (JPS) ? AP_BQ_JPS_PER_TILE : AP_BQ_PER_TILE)) {                                   \
                nv_->g = ng_;                                                                                 \
                nv_->parent = u;                                                                              \
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
 * callbacks; grid.h). Same semantics for both: the grid copy generates exactly the successors, in the same
 * order, with the same costs as ap_grid_successors8, and its bucketed open list pops in the generic copy's
 * order (both use the total order open_before_total), so both expand the same nodes in the same order.
 *
 * The JPS+ copy (jps_impl.h) likewise avoids the calls and divisions and keeps the arrival direction in
 * the open entry's aux, and holds one f-minimal new successor to expand next without the heap (valid A*
 * order: its f is no more than the expanded node's, which was the open list's minimum; a held node is
 * never improved, as that would need an open node of smaller f, bar rounding, which is ignored as for
 * closed nodes). Its other successors go to the bucketed open list with overflow (above; the held node
 * goes there too when a slice ends). Measurements: see the top of this file.
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

    while (max_expansions == 0 || done < max_expansions) {
        if (ws->open_len == 0 && hold == UINT32_MAX) {
            if (kind == CORE_GRID8 && ws->bq_count != 0)
                bq_advance_grid8(ws);
            else if (kind == CORE_JPS_PLUS && (ws->bq_count != 0 || ws->ov_len != 0))
                bq_advance_jps_plus(ws, ctx);
            else
                return s->state = AP_NO_PATH;
        }
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
        } else if (kind == CORE_JPS_PLUS && ws->bq_sorted) {
            const ap_open_entry *t = &open[--ws->open_len];
            u = t->node;
            from = t->aux;
            fu = t->f;
        } else {
            u = open[0].node;
            from = open[0].aux;
            fu = open[0].f;
            ws->open_len--;
            if (ws->open_len > 0) {
                open[0] = open[ws->open_len];
                sift_down(ws, 0, kind != CORE_JPS_PLUS);
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
                RELAX_BQ(n, g + 1.0, oct_h(ux, uy - 1, gx, gy), 0, false);
                k++;
            }
            if (ps) {
                RELAX_BQ(so, g + 1.0, oct_h(ux, uy + 1, gx, gy), 0, false);
                k++;
            }
            if (pw) {
                RELAX_BQ(w, g + 1.0, oct_h(ux - 1, uy, gx, gy), 0, false);
                k++;
            }
            if (pe) {
                RELAX_BQ(e, g + 1.0, oct_h(ux + 1, uy, gx, gy), 0, false);
                k++;
            }
            /* No corner cutting: a diagonal step needs both orthogonal neighbours passable. */
            if (pn && pw && pass[n - 1]) {
                RELAX_BQ(n - 1, g + M_SQRT2, oct_h(ux - 1, uy - 1, gx, gy), 0, false);
                k++;
            }
            if (pn && pe && pass[n + 1]) {
                RELAX_BQ(n + 1, g + M_SQRT2, oct_h(ux + 1, uy - 1, gx, gy), 0, false);
                k++;
            }
            if (ps && pw && pass[so - 1]) {
                RELAX_BQ(so - 1, g + M_SQRT2, oct_h(ux - 1, uy + 1, gx, gy), 0, false);
                k++;
            }
            if (ps && pe && pass[so + 1]) {
                RELAX_BQ(so + 1, g + M_SQRT2, oct_h(ux + 1, uy + 1, gx, gy), 0, false);
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
                RELAX_BQ(sh[k].node, g + sh[k].cost, ap_jps_octile(sh[k].x, sh[k].y, jd->goal_px, jd->goal_py),
                         (uint32_t)sh[k].dir, true);
        } else {
            int ns = dom->successors(ctx, u, succ);
            s->generated += (uint64_t)ns;
            for (int k = 0; k < ns; k++)
                RELAX(succ[k].node, g + succ[k].cost, dom->heuristic(ctx, v_, goal), 0);
        }
    }
    if (HOLD && hold != UINT32_MAX) {
        /* The slice ends: the held node goes back to the heap, so the next slice finds it there. */
        bq_push(ws, (ap_open_entry){hold_f, nodes[hold].g, hold, hold_aux}, true, AP_BQ_JPS_PER_TILE);
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
