/* bits.h — private to planner/: counting set bits without the CPU's popcnt instruction.
 *
 * The project builds for plain x86-64 (no -mpopcnt, so the binaries run on every host of the kind), where
 * GCC's __builtin_popcount is a call into libgcc (__popcountdi2): it took 15 % of a long-range search's
 * corridor ranks and ~5 % of a JPS+ search's time on maze512-32-0 (its direction sets). The SWAR count below
 * is a dozen inlined integer instructions. */
#ifndef AP_BITS_H
#define AP_BITS_H

#include <stdint.h>

/* The number of set bits of x (0 .. 64). Pure. */
static inline uint32_t ap_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}

#endif
