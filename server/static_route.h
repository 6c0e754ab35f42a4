/* static_route.h — GET / and the viewer's other files (server/static/), embedded in the binary at build
 * time by tools/embed-static.sh, so arcpathd needs no files at run time.
 *
 * The table is constant data: every function here is pure and thread-safe, and every pointer returned
 * points into static storage that lives as long as the process (callers must not free it).
 */
#ifndef AP_SERVER_STATIC_ROUTE_H
#define AP_SERVER_STATIC_ROUTE_H

#include <stddef.h>

struct MHD_Response;

/* One embedded file. */
typedef struct ap_static_file {
    const char *path;         /* URL path: "/" + the file's name, e.g. "/viewer.js" */
    const char *content_type; /* from the extension, e.g. "text/javascript; charset=utf-8" */
    const char *etag;         /* strong validator, quotes included: "\"CRC32-SIZE\"" of the file's bytes */
    const unsigned char *data;/* len bytes (followed by a NUL that is not part of the file) */
    size_t len;               /* bytes */
} ap_static_file;

/* The generated table ($(BUILD)/gen/static_files.c), ap_static_files_n entries. */
extern const ap_static_file ap_static_files[];
extern const size_t ap_static_files_n;

/* How long a browser may reuse a file without asking: "no-cache", i.e. always revalidate with the ETag
 * (a 304 costs a few bytes; the files change whenever arcpathd is rebuilt, and a stale viewer against a
 * newer API would mislead). */
#define AP_STATIC_CACHE_CONTROL "no-cache"

/* The file served at URL path url ("/" is "/index.html"), or NULL when none is (also for url NULL). The
 * query string is not part of url (libmicrohttpd strips it). */
const ap_static_file *ap_static_find(const char *url);

/* The HTTP status for a GET of f given the request's If-None-Match header value (NULL when absent): 304
 * when it lists f's ETag or is "*" (RFC 9110, 13.1.2: weak comparison, so W/"..." matches too), else 200. */
int ap_static_status(const ap_static_file *f, const char *if_none_match);

/* Add f's ETag and Cache-Control (AP_STATIC_CACHE_CONTROL) to resp, a response to a GET of f (200 or 304).
 * weak: the answer is (or a 200 would be) f's gzip-compressed copy, so the ETag is sent weak (W/"..."):
 * the same entity in another encoding, which If-None-Match's weak comparison still matches, while a
 * strong validator must name one byte sequence (RFC 9110, 8.8.1). NULL f or resp is ignored. */
void ap_static_add_headers(struct MHD_Response *resp, const ap_static_file *f, int weak);

/* The embedded files compressed once (gzip, AP_GZIP_LEVEL_STATIC), for clients that accept gzip
 * (server/gzip.h). */
typedef struct ap_static_gz {
    char *data; /* malloc'd gzip member, NULL when the file is under AP_GZIP_MIN_BYTES or does not shrink */
    size_t len;
} ap_static_gz;

/* Compress every embedded file: a new malloc'd array of ap_static_files_n entries, entry i for
 * ap_static_files[i] (free with ap_static_gzip_free). NULL when out of memory (then every file is sent
 * as it is). Takes a few milliseconds; call once at start. Thread-safe. */
ap_static_gz *ap_static_gzip_all(void);

/* Free what ap_static_gzip_all returned (NULL is ignored). */
void ap_static_gzip_free(ap_static_gz *gz);

#endif
