/* clock.h — the monotonic wall clock the planner times its work with (map load, table builds). */
#ifndef AP_CLOCK_H
#define AP_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Seconds on CLOCK_MONOTONIC (arbitrary origin; only differences mean anything). Thread-safe. */
static inline double ap_monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Nanoseconds on CLOCK_MONOTONIC, as search.h's ap_clock_ns (its deadlines) gives them, for the layers
 * below the search (a table build that gives up at a query's deadline). Thread-safe. */
static inline uint64_t ap_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
