/* render_route.c — bodies of the picture routes (render_route.h). */
#include "render_route.h"

#include <jansson.h>
#include <stdlib.h>

int ap_render_route_draw(const ap_map *m, const ap_render_answer *a, const ap_render_opts *o, char **out,
                         size_t *out_len, const char **ctype)
{
    ap_jbuf b;
    ap_wire_error err;
    ap_jbuf_init(&b, NULL, 0);
    int st = ap_render(m, a, o, &b, &err);
    if (st == AP_OK) {
        *out = ap_jbuf_take(&b, out_len);
        *ctype = ap_render_content_type(o->format);
        return *out != NULL ? AP_OK : AP_E_NOMEM;
    }
    ap_jbuf_free(&b);
    *ctype = "application/json";
    *out = ap_wire_encode_error(st, err.message[0] ? err.message : NULL, err.field, 0, 0, NULL, out_len);
    return st;
}

int ap_render_route_draw_json(const ap_map *m, const char *json, size_t len, const ap_render_opts *o, char **out,
                              size_t *out_len, const char **ctype)
{
    ap_render_answer a;
    ap_wire_error err;
    json_t *root = json_loadb(json, len, JSON_REJECT_DUPLICATES, NULL);
    int st = root != NULL ? ap_render_parse_answer(root, "answer", &a, &err) : AP_E_INTERNAL;
    json_decref(root);
    if (st != AP_OK) {
        *ctype = "application/json";
        *out = ap_wire_encode_error(AP_E_INTERNAL, NULL, NULL, 0, 0, NULL, out_len);
        return AP_E_INTERNAL;
    }
    st = ap_render_route_draw(m, &a, o, out, out_len, ctype);
    ap_render_answer_free(&a);
    return st;
}
