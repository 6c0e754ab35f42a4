/* core_loop.h — the one A* loop, instantiated in the manner of a C template: a .c file defines the
 * parameters below and includes this header, which defines the loop function CORE_NAME and #undefs the
 * parameters (so one file may instantiate it more than once). Private to the loops: planner/search/
 * (generic), and the domains that bring their own specialised copy through ap_domain.run.
 *
 * Source: Pinter, "Toward More Realistic Pathfinding" (Game Developer, 2001), "A Faster Implementation of
 * the Standard A*" (fixed node matrix, generation stamps instead of clearing) and "Path Failure and
 * Timeslicing" (bounded work per slice, resumable state); Hart, Nilsson & Raphael 1968 for A* itself.
 *
 * Why copies at all: a copy with the domain's successors and heuristic inlined saves a call per expansion
 * and per successor and a division per heuristic, and lets each domain pick its open list; one noinline
 * function per copy keeps one copy's edits from moving another's code layout (a 4% swing on the jump-point copy from an
 * edit to the grid copy alone). docs/search-measurements.md has the figures.
 *
 * Parameters (macros, defined before the #include):
 *   CORE_NAME          the loop's name: static int CORE_NAME(ap_search *s, uint64_t max_expansions),
 *                      fit for ap_domain.run
 *   CORE_EXPAND        the expansion of node u: a statement that generates u's successors, adds them to
 *                      s->generated and relaxes each with CORE_RELAX(V, NG, HV, AUX): node V reached at
 *                      cost NG (tiles) with heuristic expression HV (evaluated only when V is new or
 *                      improved; v_ names V inside it) and the word AUX the open entry carries to V's
 *                      expansion. In scope: s, ws, ctx, nodes, gen, goal, u, from (the popped entry's
 *                      aux), fu (its f), g (u's g), and the names CORE_SETUP declares.
 *   CORE_SETUP         optional: declarations run once per slice (domain fields copied to locals)
 *   CORE_BUCKET        optional, 0 or 1: the bucketed open list (open_bucket.h) instead of the single heap;
 *                      needs a consistent heuristic whose f rises by at most a bounded step per edge
 *   CORE_PER_TILE      with CORE_BUCKET: buckets per tile of f
 *   CORE_WIDE          optional, with CORE_BUCKET: the wide policy (overflow heap, sorted lowest bucket,
 *                      aux kept in the bags, two-key order)
 *   CORE_HOLD          optional, with CORE_BUCKET: hold one new successor whose f is no more than the
 *                      expanded node's and expand it next without the open list (valid A* order: it is an
 *                      f-minimal node; a held node is never improved, as that would need an open node of
 *                      smaller f, bar rounding, which is ignored as for closed nodes). Of several such
 *                      successors the one of largest g is held (the others go to the open list), the one
 *                      the open list's order (f, then larger g) would pop first: often the goal itself
 *   CORE_ON_PARENT     optional, single heap only: a statement run when node v_ gets u as its parent
 *   CORE_HEAP4         optional, 0 or 1, single heap only: the 4-ary heap (open_heap.h sift_up4) instead of
 *                      the binary one; ap_search_seed must relax on the same heap
 *   CORE_CHECK_MASK    optional: the cancel flag, the deadline and the slice's time bound are read when
 *                      (expanded & mask) == 0;
 *                      default 255u (every 256th expansion); the generic loop's per domain (ap_domain.costly)
 *   AP_BQ_PREFETCH     optional, see open_bucket.h (define before the first include of it)
 * Every copy has the same semantics as the generic one over the same successors and heuristic; with the
 * total order (all but the wide policy) it also expands the same nodes in the same order.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "../base/status.h"
#include "open_bucket.h"
#include "open_heap.h"
#include "search.h"

#ifndef CORE_BUCKET
#define CORE_BUCKET 0
#endif
#ifndef CORE_WIDE
#define CORE_WIDE 0
#endif
#ifndef CORE_HOLD
#define CORE_HOLD 0
#endif
#ifndef CORE_PER_TILE
#define CORE_PER_TILE 1
#endif
#ifndef CORE_SETUP
#define CORE_SETUP
#endif
#ifndef CORE_ON_PARENT
#define CORE_ON_PARENT ((void)0)
#endif
#ifndef CORE_HEAP4
#define CORE_HEAP4 0
#endif
#ifndef CORE_CHECK_MASK
#define CORE_CHECK_MASK 255u
#endif

#define CORE_CAT2(a, b) a##b
#define CORE_CAT(a, b) CORE_CAT2(a, b)

#if CORE_BUCKET
#define CORE_RELAX(V, NG, HV, AUX) RELAX_BQ(V, NG, HV, AUX, CORE_WIDE, CORE_PER_TILE, CORE_HOLD)

/* The instance's bq_advance (open_bucket.h: refill the open list from the next non-empty bucket), out of line,
 * as measured: the advance is rare next to pushes and pops (fifth and seventh rounds). Writes ws and bq: the
 * search's thread only. */
static __attribute__((noinline)) void CORE_CAT(CORE_NAME, _advance)(ap_workspace *ws, ap_open_bucket *bq,
                                                                    const void *ctx)
{
    bq_advance(ws, bq, CORE_WIDE, CORE_PER_TILE, ctx);
}
#elif CORE_HEAP4
#define CORE_RELAX(V, NG, HV, AUX) RELAX4(V, NG, HV, AUX, CORE_ON_PARENT)
#else
#define CORE_RELAX(V, NG, HV, AUX) RELAX(V, NG, HV, AUX, CORE_ON_PARENT)
#endif

/* The loop: expand at most max_expansions nodes (0 = no limit) of the begun search s, as ap_search_run does
 * (search.h; Pinter, "A Faster Implementation of the Standard A*" and "Path Failure and Timeslicing"). Returns
 * and stores s->state: AP_IN_PROGRESS when the budget or the slice's time (s->slice_end_ns) ran out, AP_OK (the
 * goal popped; s->cost its g), AP_NO_PATH (open list empty), AP_TIMEOUT (deadline passed or *cancel set, read
 * every CORE_CHECK_MASK + 1 expansions). Not thread-safe: one thread per search and workspace. */
static __attribute__((noinline)) int CORE_NAME(ap_search *s, uint64_t max_expansions)
{
    ap_workspace *ws = s->ws;
    ap_node *nodes = ws->nodes;
    ap_open_entry *open = ws->open;
#if CORE_BUCKET
    ap_open_bucket *bq = ws->bq;
    /* The first slice of a search: the bags still hold what the previous search on this list left. */
    if (s->expanded == 0)
        bq_begin(ws, bq, CORE_WIDE, CORE_PER_TILE);
#else
    const uint32_t *pos = ws->pos;
#endif
    const uint32_t gen = ws->gen;
    const uint32_t goal = s->goal;
    const void *ctx = s->dom->ctx;
    CORE_SETUP
    uint64_t done = 0;
    uint32_t hold = UINT32_MAX, hold_aux = 0;
    double hold_f = 0.0;
    (void)hold_aux;
    (void)hold_f;

    while (max_expansions == 0 || done < max_expansions) {
        if (ws->open_len == 0 && hold == UINT32_MAX) {
#if CORE_BUCKET
            if (bq->count != 0 || (CORE_WIDE && bq->ov_len != 0))
                CORE_CAT(CORE_NAME, _advance)(ws, bq, ctx);
            else
#endif
                return s->state = AP_NO_PATH;
        }
        /* Every 256 expansions (including the very first, so a deadline already past is honoured at once):
         * a clock read costs ~20 ns, an expansion ~50-100 ns, so this keeps the overhead well under 1%.
         * Every expansion for a costly domain (ap_domain.costly). */
        if ((s->expanded & (CORE_CHECK_MASK)) == 0) {
            if (s->cancel != NULL && atomic_load_explicit(s->cancel, memory_order_relaxed) != 0)
                return s->state = AP_TIMEOUT;
            if (s->deadline_ns != 0 || s->slice_end_ns != 0) {
                const uint64_t now = ap_clock_ns();
                if (s->deadline_ns != 0 && now >= s->deadline_ns)
                    return s->state = AP_TIMEOUT;
                /* The slice's time is up (after one expansion at least, so every slice makes progress):
                 * end it as if its expansions were spent (a held node goes back to the open list below). */
                if (s->slice_end_ns != 0 && done > 0 && now >= s->slice_end_ns)
                    break;
            }
        }
        uint32_t u, from;
        double fu;
        if (CORE_HOLD && hold != UINT32_MAX) {
            u = hold;
            from = hold_aux;
            fu = hold_f;
            hold = UINT32_MAX;
        }
#if CORE_WIDE
        else if (bq->sorted) {
            const ap_open_entry *t = &open[--ws->open_len];
            u = t->node;
            from = t->aux;
            fu = t->f;
        }
#endif
        else {
            u = open[0].node;
            from = open[0].aux;
            fu = open[0].f;
            ws->open_len--;
            if (ws->open_len > 0) {
                open[0] = open[ws->open_len];
                if (CORE_HEAP4)
                    sift_down4(ws, 0);
                else
                    sift_down(ws, 0, !CORE_WIDE);
            }
        }
        (void)from;
        (void)fu;
        s->expanded++;
        done++;
        if (u == goal) {
            s->cost = nodes[goal].g;
            return s->state = AP_OK;
        }
        const double g = nodes[u].g;
        CORE_EXPAND
    }
#if CORE_HOLD
    if (hold != UINT32_MAX) {
        /* The slice ends: the held node goes back to the open list, so the next slice finds it there. */
        bq_push(ws, bq, (ap_open_entry){hold_f, nodes[hold].g, hold, hold_aux}, CORE_WIDE, CORE_PER_TILE);
    }
#endif
    return s->state;
}

#undef CORE_RELAX
#undef CORE_NAME
#undef CORE_EXPAND
#undef CORE_SETUP
#undef CORE_BUCKET
#undef CORE_PER_TILE
#undef CORE_WIDE
#undef CORE_HOLD
#undef CORE_ON_PARENT
#undef CORE_HEAP4
#undef CORE_CHECK_MASK
