/* mem.h — freeing a struct's owned arrays in one statement.
 *
 * Every table and query object of the planner owns a handful of malloc'd arrays; their free functions were
 * the same ladder of free() calls again and again. AP_FREE_ALL(a, b, c) frees each of its pointer
 * arguments (NULL ones included, as free does), in order. */
#ifndef AP_MEM_H
#define AP_MEM_H

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

#endif
