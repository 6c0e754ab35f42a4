/* bigmem.h — a large array read at random (a search matrix's nodes) on transparent huge pages where the
 * kernel offers them.
 *
 * Why: a server writes its workspaces' node matrices at start (search.c: its searches then take no page
 * fault), 17 MB a workspace for a 1024² map. On 4 KiB pages that is about 4,000 page faults a workspace,
 * 0.1 s on the virtual machines of BENCHMARKS.md (a fault traps to the hypervisor), and a default server has
 * six workspaces; on 2 MiB pages it is about a dozen faults (a server on Paris_1_1024 and den520d listened
 * after 1.4 s instead of 1.9-2.2 s, alternated on 2026-12-07). Searches measured neither faster nor slower
 * (A* over Paris_1_1024's scenarios; the kinodynamic bench), alternated. Two such arrays indexed alike would
 * share cache sets (each starts 2 MiB-aligned): search.c keeps one there.
 * Linux gives huge pages to anonymous memory under transparent_hugepage "always", or "madvise" for memory
 * so marked (the setting of the machines here); elsewhere the hint does nothing and the pages stay small.
 */
#ifndef AP_BIGMEM_H
#define AP_BIGMEM_H

#include <stddef.h>
#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* Below this size an array is malloc'd as any other. */
#define AP_BIG_ARRAY_BYTES ((size_t)2 << 20)

/* An array of `bytes` (not zeroed; free with free()): from AP_BIG_ARRAY_BYTES up aligned to 2 MiB and marked
 * for transparent huge pages (madvise MADV_HUGEPAGE, where the system has it). NULL when out of memory.
 * Thread-safe as malloc is. */
static inline void *ap_big_malloc(size_t bytes)
{
    if (bytes < AP_BIG_ARRAY_BYTES)
        return malloc(bytes);
    void *p = NULL;
    if (posix_memalign(&p, AP_BIG_ARRAY_BYTES, bytes) != 0)
        return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    (void)madvise(p, bytes, MADV_HUGEPAGE); /* a hint: refused (EINVAL without THP), the pages stay small */
#endif
    return p;
}

#endif
