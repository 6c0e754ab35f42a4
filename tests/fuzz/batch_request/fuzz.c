/* fuzz.c — ap_wire_parse_batch_request (POST /v1/paths bodies) on arbitrary bytes, with the promises of
 * wire.h: a whole-batch error is invalid_json or invalid_request and encodable; an accepted batch holds
 * 1..max_items items, each either a query with finite numbers or its own encodable error; the batch answer
 * can be written for every item (ok items as no_path, error items as errors). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planner/plan/algorithms.h"
#include "proto/json_out.h"
#include "proto/wire.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/wire_error.h"

#define FUZZ_MAX_ITEMS 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ap_batch_request req;
    ap_wire_error err;
    int rc = ap_wire_parse_batch_request((const char *)data, size, FUZZ_MAX_ITEMS, &req, &err);
    if (rc != AP_OK) {
        if (req.items != NULL || req.n != 0)
            abort();
        ap_fuzz_check_wire_error(rc, &err);
        return 0;
    }
    size_t mlen = strnlen(req.map, sizeof req.map);
    if (mlen < 1 || mlen >= sizeof req.map || req.n < 1 || req.n > FUZZ_MAX_ITEMS || req.items == NULL)
        abort();
    if (req.deadline_ms != -1 && (req.deadline_ms < 1 || req.deadline_ms > 600000))
        abort();
    ap_jbuf b;
    ap_jbuf_init(&b, NULL, 0);
    ap_wire_write_batch_begin(&b, req.map, 1);
    for (size_t i = 0; i < req.n; i++) {
        const ap_batch_item *it = &req.items[i];
        if (it->status != AP_OK) {
            ap_fuzz_check_wire_error(it->status, &it->err);
            ap_wire_write_batch_item_error(&b, i == 0, it->status, it->err.message, it->err.field);
            continue;
        }
        const ap_query *q = &it->q;
        if (q->map != NULL || !isfinite(q->sx) || !isfinite(q->sy) || !isfinite(q->gx) || !isfinite(q->gy) ||
            !isfinite(q->unit_radius) || !isfinite(q->turning_radius) || !isfinite(q->sample_step) ||
            ap_algorithm_row_of(q->algorithm) == NULL)
            abort();
        ap_result r;
        memset(&r, 0, sizeof r);
        r.status = AP_NO_PATH;
        ap_wire_write_batch_item(&b, i == 0, &r, NULL);
    }
    ap_wire_write_batch_end(&b, 0, NULL);
    if (b.failed)
        abort(); /* every item's error message and the map id must be encodable */
    ap_jbuf_free(&b);
    ap_wire_batch_free(&req);
    return 0;
}
