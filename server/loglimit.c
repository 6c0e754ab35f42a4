/* loglimit.c — rate limit for log lines clients can cause (see loglimit.h). */
#include "loglimit.h"

#include <string.h>

void ap_loglimit_init(ap_loglimit *l, unsigned burst, uint64_t window_ns)
{
    memset(l, 0, sizeof *l);
    pthread_mutex_init(&l->mu, NULL);
    l->burst = burst;
    l->window_ns = window_ns > 0 ? window_ns : 1;
}

bool ap_loglimit_take(ap_loglimit *l, uint64_t now_ns, uint64_t *dropped)
{
    pthread_mutex_lock(&l->mu);
    if (now_ns - l->start_ns >= l->window_ns || now_ns < l->start_ns) {
        l->start_ns = now_ns;
        l->used = 0;
    }
    bool ok = l->used < l->burst;
    if (ok) {
        l->used++;
        if (dropped != NULL)
            *dropped = l->dropped;
        l->dropped = 0;
    } else {
        l->dropped++;
        l->dropped_total++;
    }
    pthread_mutex_unlock(&l->mu);
    return ok;
}

uint64_t ap_loglimit_dropped(ap_loglimit *l)
{
    pthread_mutex_lock(&l->mu);
    uint64_t n = l->dropped_total;
    pthread_mutex_unlock(&l->mu);
    return n;
}

void ap_loglimit_destroy(ap_loglimit *l)
{
    pthread_mutex_destroy(&l->mu);
}
