/* unit_kind.h — named unit kinds: a configured bundle of unit fields ("tank": radius, capability, turning
 * radius, ...) a request names as "unit": {"kind": "tank"}. The config reads them (config/config.c, key
 * "units"), the wire applies them (proto/wire.c); the planner sees only the resulting query fields.
 *
 * Precedence: a field the request gives wins over the kind's, which wins over the wire's default.
 */
#ifndef AP_UNIT_KIND_H
#define AP_UNIT_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"

#define AP_UNIT_KIND_NAME_MAX 32 /* bytes with the NUL: names are 1..31 of [A-Za-z0-9_.-] */

/* The unit fields a kind may set and a request may give (bit per field). */
enum {
    AP_UNIT_F_RADIUS = 1u << 0,          /* unit.radius */
    AP_UNIT_F_TURNING = 1u << 1,         /* unit.turning_radius */
    AP_UNIT_F_REVERSE = 1u << 2,         /* unit.reverse */
    AP_UNIT_F_REVERSE_PENALTY = 1u << 3, /* unit.reverse_penalty */
    AP_UNIT_F_CAPABILITY = 1u << 4,      /* unit.capability */
    AP_UNIT_F_SIZE = 1u << 5,            /* unit.size */
};

/* One kind. The values are those of ap_query's fields of the same meaning (plan.h); `has` says which of them
 * the kind sets. */
typedef struct ap_unit_kind {
    char name[AP_UNIT_KIND_NAME_MAX];
    unsigned has; /* AP_UNIT_F_* */
    double radius, turning_radius, reverse_penalty;
    bool reverse;
    uint8_t capability;
    int size;
} ap_unit_kind;

/* The kind called name among the n kinds, or NULL. Pure. */
const ap_unit_kind *ap_unit_kind_find(const ap_unit_kind *kinds, size_t n, const char *name);

/* Set every field of q that k sets and the request did not give (given: AP_UNIT_F_* bits). Pure. */
void ap_unit_kind_apply(const ap_unit_kind *k, unsigned given, ap_query *q);

#endif
