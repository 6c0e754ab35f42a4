/* clock.h — the monotonic wall clock the planner times its work with (map load, table builds). */
#ifndef AP_CLOCK_H
#define AP_CLOCK_H

#include <time.h>

/* Seconds on CLOCK_MONOTONIC (arbitrary origin; only differences mean anything). Thread-safe. */
static inline double ap_monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
