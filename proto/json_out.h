/* json_out.h — the direct JSON writer: answers are written straight into a buffer, no jansson tree.
 *
 * Building a jansson tree and dumping it cost about 7 µs and a dozen mallocs per short answer, as much as
 * the search itself. This writer produces exactly what jansson's compact, insertion-ordered dump with
 * JSON_REAL_PRECISION(17) produced (same escaping, same number text), so clients see identical bytes.
 *
 * The caller writes punctuation and keys with AP_JBUF_LIT and values with the ap_jbuf_* writers. Errors are
 * sticky: after an allocation failure (or a non-finite number) every later write is a no-op and b->failed
 * stays set, so a whole answer is written first and checked once (ap_jbuf_status).
 *
 * Thread safety: a buffer belongs to one thread at a time; there is no shared state.
 */
#ifndef AP_PROTO_JSON_OUT_H
#define AP_PROTO_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../planner/base/path.h"
#include "../planner/plan/plan.h"

/* A growable output buffer. It starts on caller storage (a request arena, a stack buffer, or nothing) and
 * moves to the heap only when that is too small, so the hot path answers without touching malloc. */
typedef struct ap_jbuf {
    char *p;     /* the bytes written so far, NUL-terminated when len > 0 or p is storage */
    size_t len;  /* bytes written (without the NUL) */
    size_t cap;  /* bytes available at p */
    bool heap;   /* p was malloc'd by the writer: release with ap_jbuf_free (or take ownership of p) */
    bool failed; /* an allocation failed or a non-finite number was written: the output is unusable */
    bool bad_number; /* the failure was a non-finite number (a planner bug), not memory */
} ap_jbuf;

/* Write the decimal digits of v at out (at least 20 bytes; no sign, no NUL) and return how many (1..20).
 * The integer writer of ap_jbuf_int, for other hand-formatted text (the access log). Pure. */
size_t ap_u64_digits(char *out, uint64_t v);

/* Start b on storage (cap bytes, borrowed, may be NULL with cap 0). Pure. */
void ap_jbuf_init(ap_jbuf *b, char *storage, size_t cap);

/* Forget what was written and clear the failure flags (keeps the storage, heap or not). */
void ap_jbuf_reset(ap_jbuf *b);

/* Free heap storage, if any, and start b over on no storage. NULL is ignored. */
void ap_jbuf_free(ap_jbuf *b);

/* Replace b's contents (its heap storage freed) by the len malloc'd bytes at bytes, which b now owns as heap
 * storage: a finished answer re-encoded elsewhere (a gzip member; binary, not NUL-terminated, not to be
 * written on). The owner's thread. */
void ap_jbuf_adopt(ap_jbuf *b, char *bytes, size_t len);

/* Make room for n more bytes plus the NUL, moving to (or growing) heap storage when needed. Returns false,
 * with b->failed set, when b had already failed or the allocation fails. */
bool ap_jbuf_reserve(ap_jbuf *b, size_t n);

/* Append n bytes of s as they are (the caller makes them valid JSON text). */
static inline void ap_jbuf_raw(ap_jbuf *b, const char *s, size_t n)
{
    if ((b->failed || b->len + n + 1 > b->cap) && !ap_jbuf_reserve(b, n)) /* the test of reserve, inlined */
        return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

/* Append a string literal (JSON punctuation and keys). */
#define AP_JBUF_LIT(b, lit) ap_jbuf_raw((b), (lit), sizeof(lit) - 1)

/* A JSON string as jansson dumps it: '"' and '\\' escaped, \b \f \n \r \t by name, other control
 * characters as \u00XX, everything else (including '/' and non-ASCII) as is. Invalid UTF-8 becomes '?'
 * (jansson would have refused the string; a '?' keeps the answer well-formed). s NULL = "". */
void ap_jbuf_str(ap_jbuf *b, const char *s);

/* A JSON integer. */
void ap_jbuf_int(ap_jbuf *b, long long v);

/* A JSON integer from an unsigned counter, clamped to LLONG_MAX (jansson's json_int_t range). */
void ap_jbuf_u64(ap_jbuf *b, uint64_t v);

/* A JSON real as jansson writes it with precision 17: the "%.17g" text, with ".0" added when it has
 * neither '.' nor 'e', and the exponent without '+' or leading zeros; but -0 as 0.0 (jansson: -0.0; a
 * JavaScript client's Object.is, or its printing, would tell them apart). A non-finite d writes nothing
 * and fails b with b->bad_number set (json_real refused them). */
void ap_jbuf_real(ap_jbuf *b, double d);

/* A point [x, y] (two reals). */
void ap_jbuf_point(ap_jbuf *b, double x, double y);

/* The segment array of every answer that carries geometry (/v1/path, /v1/paths items, /v1/curve;
 * openapi Segment): "[" then, for each of the n segments, a line {"type":"line","start","end","heading",
 * "length"}, an arc {"type":"arc","start","end","center","radius","start_heading","sweep","length"} or a
 * turn on the spot {"type":"turn","start","end","start_heading","sweep","length"} (length 0), with
 * "reverse":true last on a segment driven backwards, then "]". segs may be NULL when n is 0. */
void ap_jbuf_segments(ap_jbuf *b, const ap_segment *segs, size_t n);

/* ap_jbuf_segments with each segment's speeds and times (kino/timing.h ap_seg_time: "v_start", "v_end" in m/s,
 * "t_start", "duration" in seconds) when timing is non-NULL (n entries). */
void ap_jbuf_segments_timed(ap_jbuf *b, const ap_segment *segs, const ap_seg_time *timing, size_t n);

/* AP_OK, or AP_E_NOMEM when b has failed (allocation failure or a non-finite number). */
int ap_jbuf_status(const ap_jbuf *b);

/* Hand over what a writer started on no storage (ap_jbuf_init(b, NULL, 0)) wrote: the malloc'd,
 * NUL-terminated text (the caller frees it), *len (if non-NULL) its length. Returns NULL, with the storage
 * freed and b reset, when b failed or nothing was written. */
char *ap_jbuf_take(ap_jbuf *b, size_t *len);

#endif
