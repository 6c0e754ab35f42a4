/* suites.h — the Check suites of test-config. */
#ifndef AP_TEST_CONFIG_SUITES_H
#define AP_TEST_CONFIG_SUITES_H

#include "tests/check_fast.h"

Suite *config_suite(void); /* config/config.c */

#endif
