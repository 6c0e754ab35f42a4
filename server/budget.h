/* budget.h — a per-client budget: a token bucket for each client address, for costs one client must not be
 * able to impose on all others (today: evicting cached unit profiles, planner/turns/profile.h).
 *
 * Buckets live in a fixed table of AP_BUDGET_CLIENTS entries, direct-mapped by a hash of the address: no
 * allocation per client, and a flood of addresses cannot grow it. A client whose entry was taken over by
 * another address starts again with a full bucket — the table bounds memory, not an attacker with many
 * addresses (per-address limits never can). Thread-safe: one mutex, held for a few loads and stores.
 */
#ifndef AP_SERVER_BUDGET_H
#define AP_SERVER_BUDGET_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AP_BUDGET_CLIENTS 4096
#define AP_BUDGET_ADDR_MAX 16 /* bytes of an address kept: IPv4 4, IPv6 16 */

typedef struct ap_budget_entry {
    uint8_t addr[AP_BUDGET_ADDR_MAX];
    uint8_t len;     /* 0 = unused */
    double tokens;   /* 0 .. burst */
    uint64_t t_ns;   /* when tokens was last brought up to date */
} ap_budget_entry;

typedef struct ap_budget {
    pthread_mutex_t mu;
    double per_ns;            /* tokens added per nanosecond */
    double burst;             /* bucket size = the per-minute budget */
    ap_budget_entry *e;       /* AP_BUDGET_CLIENTS entries, owned */
} ap_budget;

/* Set up b (caller-owned) for per_minute tokens a minute per client, a full bucket (per_minute tokens) for a
 * new client; per_minute 0 (or below) = every take fails. Returns 0, or -1 when out of memory (nothing to free);
 * after 0 the table is b's (ap_budget_free). Not thread-safe: set up b before other threads use it. */
int ap_budget_init(ap_budget *b, int per_minute);

/* Take one token from the bucket of the client address addr (len bytes, 1..AP_BUDGET_ADDR_MAX; longer
 * addresses are cut) at time now_ns (ap_clock_ns). Returns true when the client had one. Thread-safe. */
bool ap_budget_take(ap_budget *b, const void *addr, size_t len, uint64_t now_ns);

/* Free the table. NULL is ignored. No other thread may be using b. */
void ap_budget_free(ap_budget *b);

#endif
