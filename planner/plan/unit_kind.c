/* unit_kind.c — named unit kinds (unit_kind.h). */
#include "unit_kind.h"

#include <string.h>

const ap_unit_kind *ap_unit_kind_find(const ap_unit_kind *kinds, size_t n, const char *name)
{
    for (size_t i = 0; name != NULL && i < n; i++)
        if (strcmp(kinds[i].name, name) == 0)
            return &kinds[i];
    return NULL;
}

void ap_unit_kind_apply(const ap_unit_kind *k, unsigned given, ap_query *q)
{
    const unsigned take = k->has & ~given;
    if (take & AP_UNIT_F_RADIUS)
        q->unit_radius = k->radius;
    if (take & AP_UNIT_F_TURNING)
        q->turning_radius = k->turning_radius;
    if (take & AP_UNIT_F_REVERSE)
        q->reverse = k->reverse;
    if (take & AP_UNIT_F_REVERSE_PENALTY)
        q->reverse_penalty = k->reverse_penalty;
    if (take & AP_UNIT_F_CAPABILITY)
        q->capability = k->capability;
    if (take & AP_UNIT_F_SIZE)
        q->unit_size = k->size;
}
