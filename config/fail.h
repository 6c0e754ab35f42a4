/* fail.h — the one way config/ reports an error (config.c, units.c). Internal to config/. */
#ifndef AP_CONFIG_FAIL_H
#define AP_CONFIG_FAIL_H

#include <stddef.h>

/* Write the printf-style message to err (errlen bytes, NUL-terminated, cut to fit, control characters as
 * '?' so it stays one line; err NULL or errlen 0: nothing written) and return AP_E_CONFIG. Thread-safe (writes only err). */
__attribute__((format(printf, 3, 4))) int ap_config_fail(char *err, size_t errlen, const char *fmt, ...);

#endif
