/* utf8.h — UTF-8 checks and safe copies for text that ends up in JSON strings.
 *
 * Messages, field names and map ids are written into JSON, where invalid UTF-8 must not appear (jansson's
 * json_string refuses it, and the direct writer would have to replace it). These helpers let every writer
 * of such text make the same decision. Pure functions: thread-safe, no allocation.
 */
#ifndef AP_PROTO_UTF8_H
#define AP_PROTO_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Length (1..4) of the valid UTF-8 sequence at s, where n >= 1 bytes are readable, or 0 if the bytes there
 * are not one (a stray continuation byte, a truncated sequence, an overlong form, a surrogate, or a code
 * point above U+10FFFF). s is only read. */
size_t ap_utf8_seq_len(const unsigned char *s, size_t n);

/* Whether the NUL-terminated s is entirely valid UTF-8 (NULL is not). */
bool ap_utf8_valid(const char *s);

/* Copy the NUL-terminated src into dst (size > 0 bytes, caller storage): each byte that does not start a
 * valid sequence becomes '?', and the copy stops at a character boundary when dst is full, so dst is always
 * valid, NUL-terminated UTF-8 of at most size - 1 bytes. src and dst must not overlap. */
void ap_utf8_copy(char *dst, size_t size, const char *src);

#endif
