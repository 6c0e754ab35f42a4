/* loglimit.h — a rate limit for log lines that clients can cause (libmicrohttpd's own messages: "Server
 * reached connection limit" for every connection over a cap, malformed requests, ...).
 *
 * Why: an attacker opening connections as fast as it can would otherwise make one stderr line each, and a
 * slow or full stderr (a pipe nobody reads, a stalled log collector) blocks the writing thread — the
 * HTTP thread, which then serves nobody. At most `burst` lines pass per `window_ns`; the rest are counted
 * and the first line of the next window says how many were dropped. Thread-safe (one mutex).
 */
#ifndef AP_SERVER_LOGLIMIT_H
#define AP_SERVER_LOGLIMIT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct ap_loglimit {
    pthread_mutex_t mu;
    uint64_t window_ns; /* length of a window, ns (> 0) */
    unsigned burst;     /* lines passed per window */
    uint64_t start_ns;  /* the current window's start */
    unsigned used;      /* lines passed in it */
    uint64_t dropped;   /* lines dropped since the last line passed */
    uint64_t dropped_total;
} ap_loglimit;

/* Set up l (caller-owned): burst lines per window_ns (0 is taken as 1 ns); release with ap_loglimit_destroy. Not
 * thread-safe: before other threads use l. */
void ap_loglimit_init(ap_loglimit *l, unsigned burst, uint64_t window_ns);

/* May a line be written at now_ns (ap_clock_ns)? True: write it, and when *dropped (may be NULL) is
 * non-zero say first that that many were dropped before it. False: drop it (counted). Thread-safe. */
bool ap_loglimit_take(ap_loglimit *l, uint64_t now_ns, uint64_t *dropped);

/* Lines dropped since start. Thread-safe. */
uint64_t ap_loglimit_dropped(ap_loglimit *l);

/* Release l's mutex. No other thread may be using l. */
void ap_loglimit_destroy(ap_loglimit *l);

#endif
