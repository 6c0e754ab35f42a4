/* suites.h — the Check suites of the planner test program (one per planner/ module). */
#ifndef AP_TEST_PLANNER_SUITES_H
#define AP_TEST_PLANNER_SUITES_H

#include <check.h>

#include "../../planner/map.h"

Suite *map_suite(void);
Suite *search_suite(void);
Suite *collide_suite(void);
Suite *smooth_suite(void);
Suite *curve_suite(void);
Suite *path_suite(void);
Suite *plan_suite(void);
Suite *scenarios_suite(void);
Suite *directional_suite(void);
Suite *jps_suite(void);
Suite *dubins_suite(void);
Suite *reeds_shepp_suite(void);

/* Parse a map held in a C string (test helper; aborts the test on failure). */
ap_map *ap_test_map_from_string(const char *text);

/* Deterministic pseudo-random numbers for reproducible samples (64-bit LCG, high bits). */
typedef struct ap_test_rng {
    unsigned long long s;
} ap_test_rng;
unsigned ap_test_rand(ap_test_rng *r);
double ap_test_rand01(ap_test_rng *r);

#endif
