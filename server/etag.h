/* etag.h — entity tags (RFC 9110 8.8.3) and the conditional requests on them (13.1.1 If-Match, 13.1.2
 * If-None-Match, evaluated in the order of 13.2.2): the viewer's embedded files (static_route.h) and the maps'
 * versions (GET, PUT, PATCH, reload and DELETE of /v1/maps/{id}).
 *
 * A map version's ETag is "<map_version>.<boot>": boot is a tag of the server process (ap_http's etag_boot,
 * from its start time and pid), so a tag read from an earlier process, whose versions counted from 1 again,
 * matches no version of this one.
 * Pure functions; thread-safe.
 */
#ifndef AP_SERVER_ETAG_H
#define AP_SERVER_ETAG_H

#include <stdbool.h>
#include <stdint.h>

/* Room for a map ETag: quotes, 20 digits, a dot, 8 hex digits, NUL. */
#define AP_MAP_ETAG_MAX 40

/* True when the header value list (a comma-separated list of entity tags, each quoted, each possibly W/
 * weak) names etag (quotes included, strong). strong: RFC 9110 8.8.3.2's strong comparison (a weak tag in
 * the list never matches; If-Match), else the weak one (W/ ignored; If-None-Match). "*" is not a tag here:
 * see ap_etag_is_any. NULL list: false. */
bool ap_etag_list_has(const char *list, const char *etag, bool strong);

/* True when the header value is "*" (blanks around it allowed): "any current representation". */
bool ap_etag_is_any(const char *value);

/* The ETag of map version `version` (> 0) of the process tagged boot, into out (AP_MAP_ETAG_MAX bytes). */
void ap_map_etag(char out[AP_MAP_ETAG_MAX], uint64_t version, uint32_t boot);

/* The outcome of a request's preconditions (header values if_match and if_none_match, NULL when absent) on
 * a resource whose current ETag is `current` (NULL: it has no current representation): 200 to go on, 412
 * when If-Match fails (no current representation, or none of its tags matches strongly) or, for a method
 * that changes the resource (read_only false), when If-None-Match matches ("*" with a current
 * representation, or one of its tags weakly); 304 when If-None-Match matches on a GET or HEAD (read_only).
 * If-Match is evaluated first, then If-None-Match (RFC 9110 13.2.2). */
int ap_etag_precondition(const char *if_match, const char *if_none_match, const char *current, bool read_only);

#endif
