/* open_heap.h — private to the A* loops (core_loop.h): the binary-heap open list over ws->open / ws->pos,
 * its two orders, node claiming and the heap RELAX step, and a 4-ary heap for the payload loop (RELAX4).
 * Not a public interface.
 *
 * Source: Pinter, "Toward More Realistic Pathfinding", "A Faster Implementation of the Standard A*" (a
 * heap open list with decrease-key on a preallocated node matrix). Why a binary heap, a branch-free child
 * choice and always_inline sifts: docs/search-measurements.md (first, third and fifth rounds). Why the
 * payload loop's is 4-ary: BENCHMARKS.md (fifteenth session; −2 % instructions on kinodynamic searches,
 * whose open lists hold thousands of entries and whose sifts dominate the core's share).
 */
#ifndef AP_OPEN_HEAP_H
#define AP_OPEN_HEAP_H

#include <stdbool.h>
#include <stdint.h>

#include "search.h"

/* a comes out of the open list before b: smaller f, and on equal f larger g (deeper nodes first, which
 * reaches the goal sooner among the many equal-f nodes of a grid). */
static inline bool open_before(const ap_open_entry *a, const ap_open_entry *b)
{
    return a->f < b->f || (a->f == b->f && a->gtie > b->gtie);
}

/* The same order made total by the node id (smaller first) on equal f and g, so the expansion order is a
 * function of the keys alone and the grid's bucketed loop expands exactly what the generic loop's single
 * heap does (test inlined_grid_matches_generic). The wide bucketed policy (open_bucket.h) keeps the
 * cheaper open_before: the third key cost the jump-point loop 4-7% (docs/search-measurements.md, fifth round). */
static inline bool open_before_total(const ap_open_entry *a, const ap_open_entry *b)
{
    return a->f < b->f || (a->f == b->f && (a->gtie > b->gtie || (a->gtie == b->gtie && a->node < b->node)));
}

/* open_before_total when total, else open_before (total is a constant in every loop, so the choice folds away).
 * Pure. */
static inline bool open_before_k(const ap_open_entry *a, const ap_open_entry *b, const bool total)
{
    return total ? open_before_total(a, b) : open_before(a, b);
}

/* Sift entry i (< ws->open_len) up a heap of `ary` children a node (2, or 4 for the payload loop): parent
 * (i - 1) / ary; order open_before_k(total); ws->pos follows every entry moved. Writes ws: the workspace's
 * thread only. */
static inline __attribute__((always_inline)) void sift_up_ary(ap_workspace *ws, uint32_t i, const bool total,
                                                              const uint32_t ary)
{
    ap_open_entry *open = ws->open;
    uint32_t *pos = ws->pos;
    ap_open_entry e = open[i];
    while (i > 0) {
        uint32_t p = (i - 1) / ary;
        if (!open_before_k(&e, &open[p], total))
            break;
        open[i] = open[p];
        pos[open[i].node] = i;
        i = p;
    }
    open[i] = e;
    pos[e.node] = i;
}

/* sift_up_ary on the binary heap. Writes ws: the workspace's thread only. */
static inline __attribute__((always_inline)) void sift_up(ap_workspace *ws, uint32_t i, const bool total)
{
    sift_up_ary(ws, i, total, 2);
}

/* Binary-heap sift-down with the child chosen without a branch: open_before's three comparisons are
 * combined with & and | (no short-circuit), so the compiler emits setcc/cmov instead of the unpredictable
 * jumps of the f comparisons. Same child chosen, same order as the branching form. With `total`
 * (open_before_total) equal f and g go to the node id through a branch: rare among siblings, so it
 * predicts well, where the branch-free three keys cost 7% (docs/search-measurements.md, fifth round). Entry i
 * (< ws->open_len) sinks; ws->pos follows every entry moved. Writes ws: the workspace's thread only. */
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

/* The 4-ary heap of the payload loop (search.c core_run_payload, ap_search_seed for payload domains): parent
 * (i - 1) / 4, children 4i + 1 .. 4i + 4; the same total order, so it pops the same entries in the same order
 * as the binary heap (the least under open_before_total is unique), over half the levels. Entry i (< ws->open_len)
 * rises or sinks, ws->pos following. Writes ws: the workspace's thread only. */
static inline __attribute__((always_inline)) void sift_up4(ap_workspace *ws, uint32_t i)
{
    sift_up_ary(ws, i, true, 4);
}

static inline __attribute__((always_inline)) void sift_down4(ap_workspace *ws, uint32_t i)
{
    ap_open_entry *open = ws->open;
    uint32_t *pos = ws->pos;
    const uint32_t len = ws->open_len;
    ap_open_entry e = open[i];
    for (;;) {
        const uint32_t c0 = i * 4 + 1;
        if (c0 >= len)
            break;
        uint32_t c = c0;
        const uint32_t end = c0 + 4 < len ? c0 + 4 : len;
        for (uint32_t k = c0 + 1; k < end; k++)
            if (open_before_total(&open[k], &open[c]))
                c = k;
        if (!open_before_total(&open[c], &e))
            break;
        open[i] = open[c];
        pos[open[i].node] = i;
        i = c;
    }
    open[i] = e;
    pos[e.node] = i;
}

/* First sight of a node in this search (its stamp is not the current generation gen): claim it with cost g
 * (tiles or the domain's unit) and the given parent and return true; false (nothing written) when the search
 * has seen it already (Pinter's "touched" mark as a generation stamp, search.h). Writes *nv: the workspace's
 * thread only. */
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
 * An improved node's f usually falls, but where the heuristic reads the node's payload (the kinodynamic
 * domain: the state the node was reached in) a lower g may come with a higher h and a higher f: the entry
 * then sinks instead of rising, so the open list stays a heap and pops its least entry.
 * Only the 16-byte node is read on the common paths (new node; not improved). pos[v] is read only when
 * ng < g: v is then still open unless it was expanded already (pos stale: beyond the heap or the slot now
 * holds another node), which a consistent heuristic allows only through a rounding step, as before.
 * ON_PARENT is a statement run whenever v gets u as its parent (new or improved; v_ names the node): the
 * payload copy of the payload loop, nothing elsewhere. Names from the loop: nodes, open, pos, ws, gen, u. */
#define RELAX_HEAP(V, NG, HV, AUX, ON_PARENT, UP, DOWN)                                                       \
    do {                                                                                                      \
        const uint32_t v_ = (V);                                                                              \
        const double ng_ = (NG);                                                                              \
        ap_node *nv_ = &nodes[v_];                                                                            \
        if (node_fresh(nv_, gen, ng_, u)) {                                                                   \
            ON_PARENT;                                                                                        \
            uint32_t i_ = ws->open_len++;                                                                     \
            open[i_] = (ap_open_entry){ng_ + (HV), ng_, v_, (AUX)};                                           \
            UP(ws, i_);                                                                                       \
        } else if (ng_ < nv_->g) {                                                                            \
            uint32_t i_ = pos[v_];                                                                            \
            if (i_ < ws->open_len && open[i_].node == v_) {                                                   \
                nv_->g = ng_;                                                                                 \
                nv_->parent = u;                                                                              \
                ON_PARENT;                                                                                    \
                open[i_].aux = (AUX);                                                                         \
                open[i_].gtie = ng_;                                                                          \
                const double of_ = open[i_].f;                                                                \
                open[i_].f = ng_ + (HV);                                                                      \
                if (open[i_].f > of_)                                                                         \
                    DOWN(ws, i_);                                                                             \
                else                                                                                          \
                    UP(ws, i_);                                                                               \
            }                                                                                                 \
        }                                                                                                     \
    } while (0)

/* The binary heap's and the 4-ary heap's (the payload loop's: sift_up4, sift_down4) RELAX: sift_up and
 * sift_down in the total order. Write ws: the workspace's thread only. */
static inline __attribute__((always_inline)) void sift_up2t(ap_workspace *ws, uint32_t i)
{
    sift_up(ws, i, true);
}
static inline __attribute__((always_inline)) void sift_down2t(ap_workspace *ws, uint32_t i)
{
    sift_down(ws, i, true);
}
#define RELAX(V, NG, HV, AUX, ON_PARENT) RELAX_HEAP(V, NG, HV, AUX, ON_PARENT, sift_up2t, sift_down2t)
#define RELAX4(V, NG, HV, AUX, ON_PARENT) RELAX_HEAP(V, NG, HV, AUX, ON_PARENT, sift_up4, sift_down4)

#endif
