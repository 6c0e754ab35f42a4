/* jps_loop.c — JPS+'s own copy of the A* loop (ap_domain.run of a JPS+ domain), instantiated from
 * planner/search/core_loop.h.
 *
 * Sources as jps.h (Harabor & Grastien ICAPS 2014 sections 4-5, Rabin GDC 2015). The copy avoids the
 * callback calls and divisions of the generic loop, keeps the arrival direction in the open entry's aux
 * (instead of recomputing it from the parent), holds one f-minimal new successor to expand next without
 * the open list, and uses the wide bucketed open list (4 buckets per tile, an overflow heap for far jumps,
 * the lowest bucket sorted while small). Figures for each choice: docs/search-measurements.md (fourth,
 * sixth and seventh rounds).
 */
#include "jps_impl.h"

/* When a bucket becomes the heap, start loading each entry's jump row and forced byte (read when the
 * entry is expanded). */
#define AP_BQ_PREFETCH(ctx, v)                                                                                \
    do {                                                                                                      \
        const ap_jps_domain *jdp_ = (ctx);                                                                    \
        __builtin_prefetch(jdp_->jump8 != NULL ? (const void *)(jdp_->jump8 + (size_t)(v) * 8)                \
                                               : (const void *)(jdp_->jump + (size_t)(v) * 8), 0, 3);         \
        AP_JPS_PREFETCH_MASK(jdp_, v);                                                                        \
    } while (0)
/* The pruning input of v: a disc's masks (jps_sized.h), else the forced byte. */
#define AP_JPS_PREFETCH_MASK(jd, v)                                                                           \
    __builtin_prefetch((jd)->succ8 != NULL ? (const void *)((jd)->succ8 + (size_t)(v) * 8)                    \
                                           : (const void *)((jd)->forced + (v)), 0, 3)

#define CORE_NAME jps_plus_run
#define CORE_BUCKET 1
#define CORE_WIDE 1
#define CORE_HOLD 1
#define CORE_PER_TILE AP_BQ_WIDE_PER_TILE
#define CORE_SETUP const ap_jps_domain *jd = ctx;
/* The arrival direction comes from the open entry's aux, coordinates from one division, and each
 * successor's heuristic from its coordinates. All successors are known before the first relax: start
 * their node loads together (jump targets are far apart, a cache miss each), then relax; h only for new
 * or improved nodes. */
#define CORE_EXPAND                                                                                           \
    {                                                                                                         \
        const uint32_t JS = jd->stride;                                                                       \
        const int32_t uy = (int32_t)(u / JS), ux = (int32_t)(u - (uint32_t)uy * JS);                          \
        ap_jps_succ_h sh[AP_JPS_PLUS_CAP];                                                                    \
        int ns = ap_jps_plus_expand(jd, u, ux, uy, from < 8 ? (int)from : -1, sh, AP_JPS_PLUS_CAP);           \
        s->generated += (uint64_t)ns;                                                                         \
        for (int k = 0; k < ns; k++) {                                                                        \
            __builtin_prefetch(&nodes[sh[k].node], 1, 3);                                                     \
            if (jd->jump8 != NULL)                                                                            \
                __builtin_prefetch(jd->jump8 + (size_t)sh[k].node * 8, 0, 3);                                 \
            else                                                                                              \
                __builtin_prefetch(jd->jump + (size_t)sh[k].node * 8, 0, 3);                                  \
            AP_JPS_PREFETCH_MASK(jd, sh[k].node);                                                             \
        }                                                                                                     \
        for (int k = 0; k < ns; k++)                                                                          \
            CORE_RELAX(sh[k].node, g + sh[k].cost, ap_jps_octile(sh[k].x, sh[k].y, jd->goal_px, jd->goal_py), \
                       (uint32_t)sh[k].dir);                                                                  \
    }
#include "../search/core_loop.h"

int ap_jps_plus_run(ap_search *s, uint64_t max_expansions)
{
    return jps_plus_run(s, max_expansions);
}
