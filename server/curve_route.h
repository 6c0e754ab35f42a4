/* curve_route.h — POST /v1/curve: parse, compute, encode, on the calling (HTTP) thread. */
#ifndef AP_SERVER_CURVE_ROUTE_H
#define AP_SERVER_CURVE_ROUTE_H

#include <stddef.h>

/* Answer a POST /v1/curve body of len bytes synchronously: a curve costs about a microsecond, so it needs no
 * lane or worker. *out gets a malloc'd NUL-terminated JSON body (caller frees; NULL only on allocation
 * failure) and *out_len its length. Returns the status the body answers (its HTTP status and wire code are
 * the error table's, proto/errors.h): AP_OK (200), AP_E_INVALID_JSON / AP_E_INVALID_REQUEST (400, error
 * body naming the field) or AP_E_INTERNAL (500). Thread-safe. Sources: Dubins (1957), Reeds & Shepp
 * (1990), Pinter (2001) Figures 5-6 — see planner/geom/dubins.h, reeds_shepp.h, curve.h. */
int ap_curve_route(const char *body, size_t len, char **out, size_t *out_len);

#endif
