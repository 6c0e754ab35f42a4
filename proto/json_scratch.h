/* json_scratch.h — a caller's buffer for jansson's allocations while one request body is parsed and read.
 *
 * jansson allocates every object, member, number and lexer buffer of a parse with its own malloc and frees
 * them one by one in json_decref: some 27 malloc/free pairs for a short /v1/path body, a sixth of the
 * parse's instructions. Inside a scratch scope on a thread, jansson's allocations on that thread are cut
 * from the buffer instead (a bump pointer; freeing them is a no-op), and what does not fit falls back to
 * malloc. The allocator is installed once for the process (json_set_alloc_funcs): outside a scope, and on
 * other threads, it is malloc and free.
 *
 * Out of memory: jansson 2.14 cannot recover from a failed allocation (its parser may write through a stale
 * pointer, its dumper returns a malformed document as a success), so once the allocator is installed a
 * malloc that fails for jansson prints a message to stderr and aborts the process.
 *
 * The contract: every jansson value made inside the scope is released (json_decref) before
 * ap_json_scratch_end, and none is kept or handed to another thread; scopes do not nest (a second begin on
 * the same thread leaves the second scope inactive: plain malloc).
 */
#ifndef AP_PROTO_JSON_SCRATCH_H
#define AP_PROTO_JSON_SCRATCH_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ap_json_scratch {
    char *base;  /* the caller's buffer (16-byte aligned) */
    size_t cap;  /* its size in bytes */
    size_t used; /* bytes handed out so far */
    bool active; /* this scope is the thread's current one */
} ap_json_scratch;

/* Install the allocator (json_set_alloc_funcs) if it is not yet: call it before the process starts threads
 * that use jansson, so no thread sees the switch; ap_json_scratch_begin calls it too. Idempotent,
 * thread-safe. */
void ap_json_scratch_install(void);

/* Start a scope on this thread: jansson's allocations come from buf (cap bytes, aligned to 16, borrowed
 * until ap_json_scratch_end) until then, malloc when it is full. A scope already open on this thread leaves s
 * inactive. */
void ap_json_scratch_begin(ap_json_scratch *s, void *buf, size_t cap);

/* End the scope s began, on the thread that began it (nothing to do for an inactive one). Every value made inside
 * must be released; buf is the caller's again. */
void ap_json_scratch_end(ap_json_scratch *s);

#endif
