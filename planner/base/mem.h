/* mem.h — freeing a struct's owned arrays in one statement.
 *
 * Every table and query object of the planner owns a handful of malloc'd arrays; their free functions were
 * the same ladder of free() calls again and again. AP_FREE_ALL(a, b, c) frees each of its pointer
 * arguments (NULL ones included, as free does), in order. ap_grow is the doubling growth of such an
 * array. */
#ifndef AP_MEM_H
#define AP_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

/* free() each of the n pointers of ptrs. Thread-safe as free is. */
static inline void ap_free_each(void *const *ptrs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(ptrs[i]);
}

/* Free every argument (pointers to malloc'd memory or NULL). */
#define AP_FREE_ALL(...)                                                                                      \
    ap_free_each((void *const[]){__VA_ARGS__}, sizeof((void *[]){__VA_ARGS__}) / sizeof(void *))

/* Make room for at least `need` elements of elem_size bytes in the malloc'd array *arr of capacity *cap
 * (elements): when it is smaller, grows it to max(2 * *cap, need, first) by realloc and updates both. On
 * failure *arr and *cap are unchanged (still owned by the caller) and false is returned. Thread-safe as
 * realloc is. */
static inline bool ap_grow(void **arr, size_t *cap, size_t need, size_t elem_size, size_t first)
{
    if (need <= *cap)
        return true;
    size_t n = *cap > 0 ? 2 * *cap : first;
    if (n < need)
        n = need;
    void *p = realloc(*arr, n * elem_size);
    if (p == NULL)
        return false;
    *arr = p;
    *cap = n;
    return true;
}

#endif
