/* route.h — the shape of an HTTP route table and its matcher: which methods a route takes, its path
 * pattern (exact, or with one {id} segment), its handler and its metric label; which route a request
 * goes to, and the Allow header of a 405. Pure (no I/O); the table itself is the server's
 * (server/http.c, ap_http_routes). The only libmicrohttpd item used is its handler return type. */
#ifndef AP_SERVER_ROUTE_H
#define AP_SERVER_ROUTE_H

#include <microhttpd.h>
#include <stddef.h>

/* HTTP methods as bits, so a route takes a set and a 405's Allow is a union. */
enum {
    AP_METHOD_GET = 1u,
    AP_METHOD_HEAD = 2u,
    AP_METHOD_POST = 4u,
    AP_METHOD_OPTIONS = 8u, /* answered by the server on every route (CORS preflights); in no route's set */
    AP_METHOD_PUT = 16u,
    AP_METHOD_DELETE = 32u,
    AP_METHOD_PATCH = 64u,
};

struct ap_req; /* the server's per-request state (server/http.c) */

/* A route's handler: called once the whole request (body included) is in, with id pointing at the {id}
 * segment of the path (NUL-terminated; NULL for exact patterns). It answers through the server's respond
 * functions, giving the status of the answer (ap_status / ap_wire_status) rather than leaving it to be read
 * back from the body, or hands the request to the lanes. Returns MHD_YES, or MHD_NO to drop the
 * connection. MHD's thread. */
typedef enum MHD_Result (*ap_route_fn)(struct ap_req *r, const char *id);

typedef struct ap_route {
    unsigned methods;   /* AP_METHOD_* bits the route answers; POST, PUT and PATCH requests have their body
                         * read */
    const char *pattern;/* "/v1/path", or with one "{id}": "/v1/maps/{id}", "/v1/maps/{id}/cells",
                         * "/v1/maps/{id}.svg" (which the longer pattern wins over "/v1/maps/{id}": see
                         * ap_route_find) */
    ap_route_fn handler;
    const char *label;  /* route label of arcpath_requests_total (metrics.h) */
    /* Optional: decides which paths the route takes instead of pattern (then only a description), for a
     * set no pattern names, such as the viewer's embedded files (static_route.h). Pure. */
    int (*match)(const char *path);
} ap_route;

/* The bit of an HTTP method name ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"; case-sensitive as
 * RFC 9110 says), 0 for any
 * other. Pure. */
unsigned ap_method_bit(const char *method);

/* True when path matches pattern: equal for an exact pattern; for a pattern with "{id}", path is the part
 * before it, a non-empty id, then exactly the part after it — which may continue the id's segment
 * ("/v1/maps/{id}.svg": the segment "den520d.svg" is the id "den520d" and ".svg"). *id (if non-NULL) gets
 * the start of the id inside path (NULL for exact patterns); its length is ap_route_id_len. Pure. */
int ap_route_matches(const char *pattern, const char *path, const char **id);

/* Length of the {id} that starts at id in a path pattern matched: up to the next '/' or the end, less the
 * part of pattern after "{id}" in the same segment (".svg"); 0 for NULL. Pure. */
size_t ap_route_id_len(const char *pattern, const char *id);

/* Route a request over table[0, n): returns the index of the most specific route whose pattern matches
 * path and whose methods include method (an AP_METHOD_* bit, 0 = unknown method), or, when none takes that
 * method, of the most specific route whose pattern (or match function) matches. The most specific is the
 * longest pattern (so "/v1/maps/{id}.svg" takes "/v1/maps/a.svg" from "/v1/maps/{id}"), then the first in
 * the table; a row with a match function is the least specific (the request is then answered 405, counted
 * under that route);
 * -1 when no pattern matches (404). *allowed gets the union of the methods of every matching route (0 when
 * none): the request is allowed when (method & *allowed) != 0. *id as ap_route_matches, for the returned
 * route. Pure; thread-safe. */
int ap_route_find(const ap_route *table, size_t n, unsigned method, const char *path, unsigned *allowed,
                  const char **id);

/* Write the Allow header value for a method set into buf (cap bytes, NUL-terminated, cut to fit): the
 * methods in the order GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS joined by ", " ("GET, HEAD", "POST",
 * "POST, OPTIONS"). Returns the length it needed.
 * Pure. */
size_t ap_route_allow(unsigned methods, char *buf, size_t cap);

#endif
