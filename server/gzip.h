/* gzip.h — Content-Encoding: gzip for answers (zlib, RFC 1952), and whether a request's Accept-Encoding
 * takes it (RFC 9110 12.5.3). Pure functions; no libmicrohttpd. */
#ifndef AP_SERVER_GZIP_H
#define AP_SERVER_GZIP_H

#include <stdbool.h>
#include <stddef.h>

/* Answers shorter than this many bytes are sent as they are: below about a kilobyte the gzip header and
 * trailer (18 bytes) and the CPU cost outweigh what is saved. */
#define AP_GZIP_MIN_BYTES 1024

/* The deflate level of answers compressed per request (1 = fastest .. 9 = smallest), chosen by measurement
 * (BENCHMARKS.md "gzip"): the 78 KB demo maze answer takes ~150 us at level 1 (to 9.5 KB) against ~940 us
 * at zlib's default 6 (to 6.9 KB); the HTTP thread that compresses the short answers also reads and answers
 * every request (a path answer made on a pool worker is compressed there, lanes.h gzip_ok). */
#define AP_GZIP_LEVEL 1

/* The level of the embedded files (viewer, openapi.*), compressed once when the server starts: zlib's
 * default, within 2 % of level 9's size at an eighth of its time (a few ms at start, BENCHMARKS.md). */
#define AP_GZIP_LEVEL_STATIC 6

/* True when an Accept-Encoding field value (NULL = the header is absent) accepts gzip: "gzip" or its alias
 * "x-gzip" listed with a q-value above 0 (no q = 1), or, when neither is listed, "*" with a q-value above
 * 0. Names and "q" are case-insensitive; a malformed q-value counts as 0 (not acceptable). Examples:
 * "gzip" -> true, "gzip;q=0" -> false, "br, gzip;q=0.5" -> true, "*;q=0.1" -> true, "*, gzip;q=0" ->
 * false, "identity" -> false. Pure; thread-safe. */
bool ap_gzip_accepted(const char *accept_encoding);

/* Compress in[0, len) into a new malloc'd gzip member (caller frees) at deflate level (1..9); *out_len gets
 * its size. Returns NULL when out of memory or zlib fails. Any thread (each call has its own zlib stream). */
char *ap_gzip_compress(const void *in, size_t len, int level, size_t *out_len);

/* An answer's gzip member, kept only when it is smaller: the malloc'd member (caller frees) with *out_len,
 * or NULL when in is shorter than AP_GZIP_MIN_BYTES, compressing does not shrink it, or out of memory (send
 * it as it is). At AP_GZIP_LEVEL. The one rule for answers compressed per request, on the HTTP thread or a
 * pool worker. Any thread. */
char *ap_gzip_answer(const void *in, size_t len, size_t *out_len);

#endif
