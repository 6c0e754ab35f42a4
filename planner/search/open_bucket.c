/* open_bucket.c — allocation of the bucketed open list (open_bucket.h) that every workspace carries. */
#include "open_bucket.h"
#include "../base/mem.h"

#include <stdlib.h>
#include <string.h>

ap_open_bucket *ap_open_bucket_new(uint32_t capacity)
{
    ap_open_bucket *bq = calloc(1, sizeof *bq);
    if (bq == NULL)
        return NULL;
    bq->chunks = capacity / AP_BQ_CHUNK + AP_BQ_RING + 1;
    bq->f = malloc((size_t)bq->chunks * AP_BQ_CHUNK * sizeof *bq->f);
    bq->node = malloc((size_t)bq->chunks * AP_BQ_CHUNK * sizeof *bq->node);
    bq->link = malloc((size_t)bq->chunks * sizeof *bq->link);
    bq->aux = malloc((size_t)bq->chunks * AP_BQ_CHUNK * sizeof *bq->aux);
    if (bq->f == NULL || bq->node == NULL || bq->link == NULL || bq->aux == NULL) {
        ap_open_bucket_free(bq);
        return NULL;
    }
    for (uint32_t c = 0; c < bq->chunks; c++)
        bq->link[c] = c + 1 < bq->chunks ? c + 1 : UINT32_MAX;
    bq->free_chunk = 0;
    for (int b = 0; b < AP_BQ_RING; b++)
        bq->bag[b] = (ap_bq_bag){UINT32_MAX, 0};
    memset(bq->used, 0, sizeof bq->used);
    return bq;
}

void ap_open_bucket_free(ap_open_bucket *bq)
{
    if (bq == NULL)
        return;
    AP_FREE_ALL(bq->f, bq->node, bq->link, bq->aux, bq);
}
