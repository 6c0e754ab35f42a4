/* fuzz.h — the libFuzzer entry point every target in tests/fuzz/<name>/fuzz.c defines. */
#ifndef AP_TEST_FUZZ_H
#define AP_TEST_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Feed one input to the parser under test. Must not crash, leak or read outside data[0 .. size-1];
 * violated invariants abort(). Returns 0 (libFuzzer reserves other values). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
