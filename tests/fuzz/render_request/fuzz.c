/* fuzz.c — ap_render_parse_request (POST /v1/render bodies) on arbitrary bytes, plus what the route does with
 * an accepted stored answer: drawn (ap_render) on a small map of this file's as SVG and PNG under a byte
 * cap. The parser's promises: an error is one the wire documents (wire_error.h); an accepted request is a
 * query (parsed as /v1/path parses it) or a finite, consistent answer; drawing it gives AP_OK, a refusal of
 * the view (AP_E_INVALID_REQUEST naming "view..."), or AP_E_ANSWER_TOO_LARGE, never anything else, and an
 * SVG that is NUL-free text. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "proto/render.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/small_map.h"
#include "tests/fuzz/wire_error.h"

/* A 16 x 12 map with every terrain letter, so every colour and run is drawn. */
static char render_cell(int x, int y)
{
    static const char *const rows[12] = {"................", ".@@@....TTTT....", ".@......T..T..O.",
                                         ".@..SSS.TTTT..O.", "....SSS.........", "..WWWW....GGGG..",
                                         "..WWWW....GGGG..", "................", "@@@@@@@@....@@@@",
                                         "................", ".....OOOO.......", "................"};
    return rows[y][x];
}

static const ap_map *the_map(void)
{
    static ap_map *m;
    if (m == NULL)
        m = ap_fuzz_small_map(16, 12, render_cell);
    return m;
}

static void draw(const ap_render_answer *a, ap_render_opts o, ap_render_format format)
{
    o.format = format;
    o.max_bytes = 1u << 20;
    ap_jbuf out;
    ap_jbuf_init(&out, NULL, 0);
    ap_wire_error err;
    const int st = ap_render(the_map(), a, &o, &out, &err);
    if (st == AP_E_INVALID_REQUEST) {
        if (strncmp(err.field, "view", 4) != 0)
            abort();
    } else if (st == AP_OK) {
        if (out.len == 0 || (format == AP_RENDER_SVG && memchr(out.p, '\0', out.len) != NULL))
            abort();
    } else if (st != AP_E_ANSWER_TOO_LARGE) {
        abort();
    }
    ap_jbuf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ap_render_request *req = malloc(sizeof *req); /* (large: a query's obstacles and corridor inline) */
    if (req == NULL)
        return 0;
    ap_wire_error err;
    const int rc = ap_render_parse_request((const char *)data, size, req, &err);
    if (rc != AP_OK) {
        ap_fuzz_check_wire_error(rc, &err);
        free(req);
        return 0;
    }
    if (err.status != AP_OK || req->opts.max_bytes != 0)
        abort();
    if (req->has_query) {
        if (req->query.q.map != NULL || strnlen(req->map, sizeof req->map) == 0)
            abort();
    } else {
        const ap_render_answer *a = &req->answer;
        if (a->status != AP_OK && a->status != AP_NO_PATH && a->status != AP_TIMEOUT)
            abort();
        if (!(req->opts.radius >= 0.0 && req->opts.radius <= AP_MAX_UNIT_RADIUS))
            abort();
        if (req->opts.has_view && !(req->opts.x0 < req->opts.x1 && req->opts.y0 < req->opts.y1))
            abort();
        draw(a, req->opts, AP_RENDER_SVG);
        draw(a, req->opts, AP_RENDER_PNG);
    }
    ap_render_request_free(req);
    free(req);
    return 0;
}
