/* profiles_route.c — GET /v1/profiles and the profile preload (profiles_route.h). */
#include "profiles_route.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../planner/base/status.h"

char *ap_profiles_encode(ap_profile_cache *c, size_t *len)
{
    ap_profile_info info[AP_PROFILE_CACHE_SLOTS];
    size_t n = ap_profile_cache_list(c, info, AP_PROFILE_CACHE_SLOTS);
    if (n > AP_PROFILE_CACHE_SLOTS)
        n = AP_PROFILE_CACHE_SLOTS;
    uint64_t builds = 0;
    double build_s = ap_profile_cache_build_seconds(c, &builds);
    json_t *arr = json_array();
    size_t total = 0;
    for (size_t i = 0; arr != NULL && i < n; i++) {
        const ap_profile_info *p = &info[i];
        total += p->bytes;
        json_array_append_new(
            arr, json_pack("{s:f, s:f, s:i, s:i, s:b, s:I, s:I, s:f, s:I}", "radius", p->key.radius, "turning_radius",
                           p->key.turning_radius, "headings", p->key.headings, "neighbourhood", p->key.neighbours,
                           "reverse", (int)p->key.reverse, "edges", (json_int_t)p->n_edges, "bytes",
                           (json_int_t)p->bytes, "build_ms", p->build_seconds * 1e3, "hits", (json_int_t)p->hits));
    }
    json_t *o = json_pack("{s:o, s:I, s:I, s:I, s:I, s:f}", "profiles", arr, "count", (json_int_t)n, "bytes",
                          (json_int_t)total, "capacity", (json_int_t)AP_PROFILE_CACHE_SLOTS, "builds",
                          (json_int_t)builds, "build_ms", build_s * 1e3);
    char *body = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(o);
    if (body != NULL && len != NULL)
        *len = strlen(body);
    return body;
}

int ap_profiles_preload(ap_profile_cache *c, const ap_config *cfg, FILE *log)
{
    for (size_t i = 0; i < cfg->n_profiles; i++) {
        const ap_config_profile *cp = &cfg->profiles[i];
        ap_profile_key k = {cp->radius, cp->turning_radius, cp->headings, cp->neighbourhood, cp->reverse};
        /* the same key as an earlier entry: cached once; not asked again, which counted a hit no query made */
        size_t same = 0;
        for (const ap_config_profile *e = cfg->profiles; same < i; same++, e++) {
            const ap_profile_key ke = {e->radius, e->turning_radius, e->headings, e->neighbourhood, e->reverse};
            if (ap_profile_key_equal(&ke, &k))
                break;
        }
        if (same < i) {
            if (log)
                fprintf(log, "arcpathd: profile %zu: radius %g, turning_radius %g, headings %d, neighbourhood %d%s: "
                             "the same as entry %zu (cached once)\n",
                        i, k.radius, k.turning_radius, k.headings, k.neighbours, k.reverse ? ", reverse" : "", same);
            continue;
        }
        const ap_profile *p = NULL;
        ap_profile_source src = AP_PROFILE_PRIVATE;
        int st = ap_profile_get_until(c, &k, 0, NULL, &p, &src);
        if (st != AP_OK) {
            if (log)
                fprintf(log, "arcpathd: profile %zu (radius %g, turning_radius %g, headings %d, neighbourhood %d%s): "
                             "cannot build (%s)\n",
                        i, k.radius, k.turning_radius, k.headings, k.neighbours, k.reverse ? ", reverse" : "",
                        st == AP_E_NOMEM ? "out of memory" : "invalid profile");
            return -1;
        }
        if (log) {
            char tail[160];
            if (src == AP_PROFILE_HIT) /* the same key as an earlier entry: cached once, not built again */
                snprintf(tail, sizeof tail, "the same as an earlier entry (cached once)");
            else
                snprintf(tail, sizeof tail, "%u edges, %zu bytes, built in %.1f ms%s", p->n_edges, p->bytes,
                         p->build_seconds * 1e3,
                         src == AP_PROFILE_EVICTED ? " (cache full: evicted the least recently used)" : "");
            fprintf(log, "arcpathd: profile %zu: radius %g, turning_radius %g, headings %d, neighbourhood %d%s: %s\n",
                    i, k.radius, k.turning_radius, k.headings, k.neighbours, k.reverse ? ", reverse" : "", tail);
        }
        ap_profile_release(p);
    }
    return 0;
}
