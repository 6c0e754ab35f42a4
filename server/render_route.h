/* render_route.h — the HTTP side of the pictures (POST /v1/render, GET /v1/maps/{id}.svg and .png): turn a
 * map and an answer (parsed, or the JSON text a /v1/path job wrote) into a response body and its
 * Content-Type. The drawing is proto's (proto/render.h); the request's way through the lanes is the
 * server's (server/http.c handle_render), the very path of POST /v1/path. */
#ifndef AP_SERVER_RENDER_ROUTE_H
#define AP_SERVER_RENDER_ROUTE_H

#include <stddef.h>

#include "../proto/render.h"

/* Draw map m and the answer a (NULL: the map alone) with options o. *out gets a malloc'd body (the
 * caller frees it; NULL only on allocation failure) of *out_len bytes and *ctype its Content-Type (static):
 * the picture (image/svg+xml or image/png) on AP_OK, else an error body (application/json): a view outside
 * the map (AP_E_INVALID_REQUEST, field "view.x1" / "view.y1"), a picture over o->max_bytes
 * (AP_E_ANSWER_TOO_LARGE, 413), AP_E_NOMEM / AP_E_INTERNAL. Returns the status the body answers.
 * Thread-safe; about a millisecond per 100,000 cells of the view, so the server calls it on a pool thread
 * (a lanes task, server/lanes.h), never on the HTTP thread. */
int ap_render_route_draw(const ap_map *m, const ap_render_answer *a, const ap_render_opts *o, char **out,
                         size_t *out_len, const char **ctype);

/* The same for the JSON text of a /v1/path answer (json, len bytes; what a job wrote), read with the
 * strict answer parser (ap_render_parse_answer), so a query drawn by POST /v1/render {"query"} is the very
 * picture of its answer drawn by {"map", "answer"}. An answer that does not parse is AP_E_INTERNAL (the
 * server wrote it). Thread-safe. */
int ap_render_route_draw_json(const ap_map *m, const char *json, size_t len, const ap_render_opts *o, char **out,
                              size_t *out_len, const char **ctype);

#endif
