/* test_profiles_route.c — the start-up preload of the config's unit profiles (server/profiles_route.h). */
#include "tests/check_fast.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/profiles_route.h"

Suite *profiles_route_suite(void);

/* A profile listed twice is built and cached once, logged as the same as the first entry, and its hits stay
 * 0 until a query uses it (the second entry counted a hit: a helper). */
START_TEST(duplicate_preload_counts_no_hit)
{
    static ap_profile_cache cache; /* zero: empty */
    static ap_config cfg;
    ap_config_defaults(&cfg);
    cfg.profiles[0] = (ap_config_profile){.radius = 0.0, .turning_radius = 1.5, .headings = 8, .neighbourhood = 8};
    cfg.profiles[1] = cfg.profiles[0];
    cfg.n_profiles = 2;
    char *log = NULL;
    size_t log_len = 0;
    FILE *f = open_memstream(&log, &log_len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(ap_profiles_preload(&cache, &cfg, f), 0);
    fclose(f);
    ck_assert_msg(strstr(log, "arcpathd: profile 1: radius 0, turning_radius 1.5, headings 8, neighbourhood 8: the same "
                              "as entry 0 (cached once)\n") != NULL,
                  "%s", log);
    size_t len = 0;
    char *body = ap_profiles_encode(&cache, &len);
    ck_assert_ptr_nonnull(body);
    ck_assert_msg(strstr(body, "\"count\":1") != NULL && strstr(body, "\"hits\":0") != NULL &&
                      strstr(body, "\"builds\":1") != NULL,
                  "%s", body);
    free(body);
    free(log);
    ap_profile_cache_clear(&cache);
}
END_TEST

Suite *profiles_route_suite(void)
{
    Suite *s = suite_create("server/profiles_route");
    TCase *tc = tcase_create("preload");
    tcase_add_test(tc, duplicate_preload_counts_no_hit);
    suite_add_tcase(s, tc);
    return s;
}
