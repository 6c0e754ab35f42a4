/* json_scratch.c — jansson's allocations from a caller's buffer during one parse (json_scratch.h). */
#include "json_scratch.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <threads.h>

static _Thread_local ap_json_scratch *current;

/* jansson 2.14 does not survive a failed allocation: its parser then writes through a stale pointer or
 * trips an assertion, its dumper drops text and returns a malformed document as a success (a helper's
 * allocation-failure sweep). Past the point where it would, the process stops with a message instead, as
 * Redis's zmalloc does on out of memory; the planner's own allocations fail with AP_E_NOMEM. */
static _Noreturn void jansson_out_of_memory(size_t n)
{
    fprintf(stderr, "arcpath: out of memory: the JSON library could not allocate %zu bytes; it cannot recover "
                    "from that, so the process stops\n",
            n);
    abort();
}

static void *scratch_malloc(size_t n)
{
    ap_json_scratch *s = current;
    if (s != NULL) {
        size_t need = (n + 15u) & ~(size_t)15u;
        if (need >= n && need <= s->cap - s->used) {
            void *p = s->base + s->used;
            s->used += need;
            return p;
        }
    }
    void *p = malloc(n);
    if (p == NULL && n > 0)
        jansson_out_of_memory(n);
    return p;
}

static void scratch_free(void *p)
{
    ap_json_scratch *s = current;
    uintptr_t a = (uintptr_t)p;
    if (s != NULL && a >= (uintptr_t)s->base && a < (uintptr_t)s->base + s->cap)
        return; /* the whole buffer goes at the end of the scope */
    free(p);
}

static once_flag installed = ONCE_FLAG_INIT;

static void install(void)
{
    json_set_alloc_funcs(scratch_malloc, scratch_free);
}

void ap_json_scratch_install(void)
{
    call_once(&installed, install);
}

void ap_json_scratch_begin(ap_json_scratch *s, void *buf, size_t cap)
{
    ap_json_scratch_install();
    s->base = buf;
    s->cap = cap;
    s->used = 0;
    s->active = current == NULL;
    if (s->active)
        current = s;
}

void ap_json_scratch_end(ap_json_scratch *s)
{
    if (s->active)
        current = NULL;
    s->active = false;
}
