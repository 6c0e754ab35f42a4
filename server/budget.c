/* budget.c — per-client token buckets (see budget.h). */
#include "budget.h"

#include <stdlib.h>
#include <string.h>

int ap_budget_init(ap_budget *b, int per_minute)
{
    memset(b, 0, sizeof *b);
    b->e = calloc(AP_BUDGET_CLIENTS, sizeof *b->e);
    if (b->e == NULL)
        return -1;
    pthread_mutex_init(&b->mu, NULL);
    b->burst = per_minute > 0 ? (double)per_minute : 0.0;
    b->per_ns = b->burst / 60e9;
    return 0;
}

/* FNV-1a over the address bytes: the table index. */
static size_t slot_of(const uint8_t *a, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ a[i]) * 16777619u;
    return h % AP_BUDGET_CLIENTS;
}

bool ap_budget_take(ap_budget *b, const void *addr, size_t len, uint64_t now_ns)
{
    if (b == NULL || b->e == NULL || len == 0)
        return false;
    if (len > AP_BUDGET_ADDR_MAX)
        len = AP_BUDGET_ADDR_MAX;
    pthread_mutex_lock(&b->mu);
    ap_budget_entry *e = &b->e[slot_of(addr, len)];
    if (e->len != len || memcmp(e->addr, addr, len) != 0) {
        memcpy(e->addr, addr, len);
        e->len = (uint8_t)len;
        e->tokens = b->burst;
        e->t_ns = now_ns;
    } else if (now_ns > e->t_ns) {
        e->tokens += (double)(now_ns - e->t_ns) * b->per_ns;
        if (e->tokens > b->burst)
            e->tokens = b->burst;
        e->t_ns = now_ns;
    }
    bool ok = e->tokens >= 1.0;
    if (ok)
        e->tokens -= 1.0;
    pthread_mutex_unlock(&b->mu);
    return ok;
}

void ap_budget_free(ap_budget *b)
{
    if (b == NULL || b->e == NULL)
        return;
    pthread_mutex_destroy(&b->mu);
    free(b->e);
    b->e = NULL;
}
