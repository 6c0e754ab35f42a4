/* runner.c — see runner.h. */
#include "runner.h"

#include <stdlib.h>

#if defined(__SANITIZE_ADDRESS__) /* GCC */
#define AP_TEST_NOFORK_DEFAULT 1
#elif defined(__has_feature) /* Clang */
#if __has_feature(address_sanitizer)
#define AP_TEST_NOFORK_DEFAULT 1
#endif
#endif

void ap_test_srunner_run(SRunner *sr)
{
#ifdef AP_TEST_NOFORK_DEFAULT
    if (getenv("CK_FORK") == NULL)
        srunner_set_fork_status(sr, CK_NOFORK);
#endif
    srunner_run_all(sr, CK_NORMAL);
}
