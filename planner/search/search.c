/* search.c — the A* core: preallocated search matrix, generation stamps, the generic loop over the
 * domain's callbacks (core_loop.h with the single binary heap, open_heap.h; a 4-ary one for domains with
 * payload), time slicing, deadline and
 * cancellation, and the dispatch to a domain's own specialised loop (ap_domain.run).
 *
 * Source: Pinter, "Toward More Realistic Pathfinding" (Game Developer, 2001), section "A Faster
 * Implementation of the Standard A*" (fixed node matrix, no allocation per search, a "touched" mark instead
 * of clearing) and "Path Failure and Timeslicing" (bounded work per slice, resumable state).
 *
 * Open list. Pinter found an unsorted list faster than a tree for his 60x60 window; on whole Moving AI maps
 * open lists reach thousands of entries, so a heap (O(log n) pop, decrease-key through ws->pos) wins; a
 * binary one, as the 4-ary heap measured no faster. That, and every other choice in the loops and open
 * lists (inlined copies, 16-byte nodes, the branch-free sift-down, bucketed lists, generation stamps), is
 * backed by the benchmark diary in docs/search-measurements.md.
 */
#include "search.h"

#include <math.h>

#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../base/bigmem.h"
#include "../base/clock.h"
#include "../base/mem.h"
#include "../base/status.h"
#include "open_bucket.h"
#include "open_heap.h"


uint64_t ap_clock_ns(void)
{
    return ap_monotonic_ns();
}

bool ap_flag_take_until(atomic_flag *f, uint64_t until_ns)
{
    while (atomic_flag_test_and_set_explicit(f, memory_order_acquire)) {
        nanosleep(&(struct timespec){0, 1000000}, NULL);
        if (ap_deadline_passed(until_ns))
            return false;
    }
    return true;
}

uint64_t ap_build_until(uint64_t deadline_ns)
{
    const uint64_t now = ap_clock_ns();
    return deadline_ns == 0 || deadline_ns <= now ? deadline_ns : now + (deadline_ns - now) / 4 * 3;
}

/* Write one byte per 4 KiB page of p through a volatile pointer, keeping its value. A plain memset of a
 * fresh calloc block is legal to drop (the compiler turned malloc + memset(0) into calloc and removed the
 * touch, so a server started with 147 MB mapped instead of 345 and its first queries paid the faults);
 * volatile stores cannot be dropped. */
static void touch_pages(void *p, size_t bytes)
{
    volatile unsigned char *b = p;
    for (size_t off = 0; off < bytes; off += 4096)
        b[off] = b[off];
    if (bytes > 0)
        b[bytes - 1] = b[bytes - 1];
}

int ap_workspace_init(ap_workspace *ws, uint32_t capacity, int max_succ)
{
    memset(ws, 0, sizeof *ws);
    if (capacity == 0 || max_succ <= 0)
        return AP_E_INTERNAL;
    /* The node matrix, the largest array touched here (below), on huge pages where the system has them
     * (bigmem.h): its faults all taken now, none under a search. Only it: the positions on huge pages too
     * start 2 MiB-aligned as the nodes do, so a search's first nodes and positions share cache sets (the
     * kinodynamic bench's 1,000-iteration queries ran 6 % slower, alternated); the lazily touched open lists
     * keep small pages, whose first touch never waits for the kernel to assemble a huge one. The nodes zeroed:
     * gen 0 everywhere and the first search uses gen 1, so every node starts out stale. */
    ws->nodes = ap_big_malloc((size_t)capacity * sizeof *ws->nodes);
    if (ws->nodes != NULL)
        memset(ws->nodes, 0, (size_t)capacity * sizeof *ws->nodes);
    ws->open = malloc((size_t)capacity * sizeof *ws->open);
    ws->pos = malloc((size_t)capacity * sizeof *ws->pos);
    ws->succ = malloc((size_t)max_succ * sizeof *ws->succ);
    ws->bq = ap_open_bucket_new(capacity);
    if (ws->nodes == NULL || ws->open == NULL || ws->pos == NULL || ws->succ == NULL || ws->bq == NULL) {
        ap_workspace_free(ws);
        return AP_E_NOMEM;
    }
    /* Touch the randomly accessed arrays now: calloc/malloc leave large blocks unmapped, and the first
     * searches on a fresh workspace then paid a page fault per 4 KiB touched (60 short den520d queries:
     * median 6 us instead of 0.8). A server allocates its workspaces once at start, so this moves that cost
     * to start-up. */
    touch_pages(ws->nodes, (size_t)capacity * sizeof *ws->nodes);
    touch_pages(ws->pos, (size_t)capacity * sizeof *ws->pos);
    ws->capacity = capacity;
    ws->succ_cap = max_succ;
    return AP_OK;
}

size_t ap_workspace_bytes(const ap_workspace *ws)
{
    size_t b = (size_t)ws->capacity * (sizeof *ws->nodes + sizeof *ws->open + sizeof *ws->pos) +
               (size_t)ws->succ_cap * sizeof *ws->succ + ws->payload_cap;
    if (ws->bq != NULL)
        b += sizeof *ws->bq + (size_t)ws->bq->chunks * (AP_BQ_CHUNK * (sizeof *ws->bq->f + sizeof *ws->bq->node +
                                                                       sizeof *ws->bq->aux) +
                                                        sizeof *ws->bq->link);
    return b;
}

uint64_t ap_workspace_bytes_max(uint32_t capacity)
{
    const ap_workspace *ws = NULL; /* (only its member types are read: sizeof does not evaluate) */
    const uint64_t bag_entry = sizeof *ws->bq->f + sizeof *ws->bq->node + sizeof *ws->bq->aux;
    return (uint64_t)capacity * (sizeof *ws->nodes + sizeof *ws->open + sizeof *ws->pos + bag_entry);
}

void ap_workspace_free(ap_workspace *ws)
{
    if (ws == NULL)
        return;
    AP_FREE_ALL(ws->nodes, ws->open, ws->pos, ws->succ, ws->payload);
    ap_open_bucket_free(ws->bq);
    memset(ws, 0, sizeof *ws);
}

/* Room for the domain's payload (node_count + max_succ entries): allocated the first time, grown when a
 * domain needs more, kept otherwise, so a server's searches allocate nothing once warmed up. The old
 * contents are not kept (a payload belongs to one search). */
static int payload_reserve(ap_workspace *ws, const ap_domain *dom)
{
    const size_t need = ((size_t)dom->node_count + (size_t)dom->max_succ) * dom->payload_bytes;
    if (need <= ws->payload_cap)
        return AP_OK;
    free(ws->payload);
    ws->payload = malloc(need);
    ws->payload_cap = ws->payload != NULL ? need : 0;
    return ws->payload != NULL ? AP_OK : AP_E_NOMEM;
}

int ap_search_begin(ap_search *s, ap_workspace *ws, const ap_domain *dom, uint32_t start, uint32_t goal,
                    uint64_t deadline_ns)
{
    memset(s, 0, sizeof *s);
    s->state = AP_E_INTERNAL;
    if (ws == NULL || dom == NULL || ws->nodes == NULL || dom->node_count > ws->capacity ||
        dom->max_succ > ws->succ_cap || start >= dom->node_count || goal >= dom->node_count ||
        (dom->payload_bytes > 0 && dom->successors_payload == NULL))
        return AP_E_INTERNAL;
    if (dom->payload_bytes > 0 && payload_reserve(ws, dom) != AP_OK)
        return s->state = AP_E_NOMEM;
    s->ws = ws;
    s->dom = dom;
    s->start = start;
    s->goal = goal;
    s->deadline_ns = deadline_ns;
    s->state = AP_IN_PROGRESS;

    /* O(1) reset: every node whose stamp differs from the new generation is stale. After 2^32 - 1 searches
     * the counter wraps; nodes stamped long ago could then look current, so clear once and restart at 1.
     * Measured against clearing per search (docs/search-measurements.md, fifth round): a memset of
     * den520d's nodes makes a short query 0.8 -> 16.8 us, a touched list is no faster. */
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

void *ap_search_payload(const ap_search *s, uint32_t node)
{
    return (char *)s->ws->payload + (size_t)node * s->dom->payload_bytes;
}

/* The generic loop: any domain, through its callbacks, on the single heap. */
#define CORE_NAME core_run_generic
#define CORE_SETUP                                                                                            \
    const ap_domain *dom = s->dom;                                                                            \
    ap_succ *succ = ws->succ;                                                                                 \
    const uint64_t check_mask = dom->costly ? 0 : 255u;
#define CORE_CHECK_MASK check_mask
#define CORE_EXPAND                                                                                           \
    {                                                                                                         \
        int ns = dom->successors(ctx, u, succ);                                                               \
        s->generated += (uint64_t)ns;                                                                         \
        for (int k = 0; k < ns; k++)                                                                          \
            CORE_RELAX(succ[k].node, g + succ[k].cost, dom->heuristic(ctx, v_, goal), 0);                     \
    }
#include "core_loop.h"

/* The generic loop for a domain with per-node payload: the successors' payloads are written to the scratch
 * after the node payloads, and successor k's is copied to its node whenever that node gets u as parent. */
#define CORE_NAME core_run_payload
#define CORE_HEAP4 1
#define CORE_SETUP                                                                                            \
    const ap_domain *dom = s->dom;                                                                            \
    ap_succ *succ = ws->succ;                                                                                 \
    const size_t pb = dom->payload_bytes;                                                                     \
    char *payload = ws->payload;                                                                              \
    char *spay = payload + (size_t)dom->node_count * pb;
#define CORE_ON_PARENT memcpy(payload + (size_t)v_ * pb, spay + (size_t)k * pb, pb)
#define CORE_EXPAND                                                                                           \
    {                                                                                                         \
        int ns = dom->successors_payload(ctx, u, payload + (size_t)u * pb, succ, spay);                      \
        s->generated += (uint64_t)ns;                                                                         \
        for (int k = 0; k < ns; k++)                                                                          \
            CORE_RELAX(succ[k].node, g + succ[k].cost, dom->heuristic(ctx, v_, goal), 0);                     \
    }
#include "core_loop.h"

int ap_search_run(ap_search *s, uint64_t max_expansions)
{
    if (s->state != AP_IN_PROGRESS)
        return s->state;
    if (s->dom->run != NULL)
        return s->dom->run(s, max_expansions);
    if (s->dom->payload_bytes > 0)
        return core_run_payload(s, max_expansions);
    return core_run_generic(s, max_expansions);
}

double ap_search_g(const ap_search *s, uint32_t node)
{
    const ap_node *n = &s->ws->nodes[node];
    return n->gen == s->ws->gen ? n->g : INFINITY;
}

size_t ap_search_path_to(const ap_search *s, uint32_t node, uint32_t *out, size_t cap)
{
    if (node >= s->dom->node_count || !(ap_search_g(s, node) < INFINITY))
        return 0;
    const ap_node *nodes = s->ws->nodes;
    size_t count = 0;
    for (uint32_t u = node; u != UINT32_MAX; u = nodes[u].parent)
        if (++count > s->dom->node_count)
            return 0;
    if (out == NULL || cap < count)
        return count;
    size_t i = count;
    for (uint32_t u = node; u != UINT32_MAX; u = nodes[u].parent)
        out[--i] = u;
    return count;
}

size_t ap_search_path(const ap_search *s, uint32_t *out, size_t cap)
{
    return s->state == AP_OK ? ap_search_path_to(s, s->goal, out, cap) : 0;
}

int ap_search_seed(ap_search *s, uint32_t node, uint32_t parent, double g, const void *payload)
{
    const ap_domain *dom = s->dom;
    ap_workspace *ws = s->ws;
    if (s->state != AP_IN_PROGRESS || dom->run != NULL || node >= dom->node_count || parent >= dom->node_count ||
        ws->nodes[parent].gen != ws->gen || !(g >= 0.0 && g <= DBL_MAX) ||
        (dom->payload_bytes > 0 && payload == NULL))
        return AP_E_INTERNAL;
    /* the heap relaxation of the loops (open_heap.h), with parent as the expanded node */
    ap_node *nodes = ws->nodes;
    ap_open_entry *open = ws->open;
    uint32_t *pos = ws->pos;
    const uint32_t gen = ws->gen, u = parent;
    const size_t pb = dom->payload_bytes;
    if (pb > 0) /* (the payload loop's 4-ary heap) */
        RELAX4(node, g, dom->heuristic(dom->ctx, v_, s->goal), 0, memcpy(ap_search_payload(s, v_), payload, pb));
    else
        RELAX(node, g, dom->heuristic(dom->ctx, v_, s->goal), 0, (void)0);
    return AP_OK;
}
