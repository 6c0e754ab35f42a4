/* json_scratch.c — jansson's allocations from a caller's buffer during one parse (json_scratch.h). */
#include "json_scratch.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <threads.h>

static _Thread_local ap_json_scratch *current;

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
    return malloc(n);
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
