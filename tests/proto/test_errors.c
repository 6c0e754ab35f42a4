/* test_errors.c — the status table: every ap_status and ap_wire_status value has its HTTP status, wire code
 * and a message; names of both kinds. */
#include "tests/check_fast.h"
#include <string.h>

#include "planner/base/status.h"
#include "proto/errors.h"
#include "tests/proto/suites.h"

static const struct {
    int status;
    int http;
    const char *code;
} expected[] = {
    {AP_OK, 200, "ok"},
    {AP_NO_PATH, 200, "no_path"},
    {AP_TIMEOUT, 200, "timeout"},
    {AP_IN_PROGRESS, 500, "internal"},
    {AP_E_INVALID_REQUEST, 400, "invalid_request"},
    {AP_E_UNKNOWN_MAP, 404, "unknown_map"},
    {AP_E_OUT_OF_BOUNDS, 422, "out_of_bounds"},
    {AP_E_START_BLOCKED, 422, "start_blocked"},
    {AP_E_GOAL_BLOCKED, 422, "goal_blocked"},
    {AP_E_INTERNAL, 500, "internal"},
    {AP_E_NOMEM, 500, "internal"},
    {AP_E_IO, 500, "internal"},
    {AP_E_MAP_FORMAT, 500, "internal"},
    {AP_E_MAP_TOO_LARGE, 500, "internal"},
    {AP_E_CONFIG, 500, "internal"},
    {AP_E_INVALID_JSON, 400, "invalid_json"},
    {AP_E_PAYLOAD_TOO_LARGE, 413, "payload_too_large"},
    {AP_E_OVERLOADED, 503, "overloaded"},
    {AP_E_METHOD_NOT_ALLOWED, 405, "method_not_allowed"},
    {AP_E_NOT_FOUND, 404, "not_found"},
    {AP_E_NOT_READY, 503, "not_ready"},
    {AP_E_ANSWER_TOO_LARGE, 413, "answer_too_large"},
    {AP_E_BAD_REQUEST, 400, "bad_request"},
    {AP_E_NOT_IMPLEMENTED, 501, "not_implemented"},
    {AP_E_BAD_MAP, 400, "map_format"},
    {AP_E_MAP_REFUSED, 413, "map_too_large"},
    {AP_E_ADMIN_DISABLED, 403, "admin_disabled"},
    {AP_E_UNAUTHORIZED, 401, "unauthorized"},
    {AP_E_FORBIDDEN, 403, "forbidden"},
    {AP_E_CLIENT_CLOSED, 499, "client_closed"},
    {AP_E_HEADER_TOO_LARGE, 431, "header_too_large"},
    {AP_E_MAP_LIMIT, 409, "map_limit"},
    {AP_E_PRECONDITION_FAILED, 412, "precondition_failed"},
    {AP_E_UNSUPPORTED_MEDIA_TYPE, 415, "unsupported_media_type"},
};

START_TEST(every_status_has_its_row)
{
    ck_assert_int_eq(sizeof expected / sizeof expected[0], AP_ERROR_COUNT);
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        ck_assert_int_eq(expected[i].status, (int)i); /* the table above covers the enum in order */
        const ap_error_info *e = ap_error_lookup(expected[i].status);
        ck_assert_ptr_nonnull(e);
        ck_assert_msg(e->http == expected[i].http, "%s: http %d, want %d", ap_error_name(expected[i].status),
                      e->http, expected[i].http);
        ck_assert_str_eq(e->code, expected[i].code);
        ck_assert_ptr_nonnull(e->message);
        ck_assert_int_gt(strlen(e->message), 0);
    }
}
END_TEST

START_TEST(out_of_range_is_internal)
{
    const int bad[] = {-1, -1000, AP_ERROR_COUNT, AP_ERROR_COUNT + 1, 1 << 30};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const ap_error_info *e = ap_error_lookup(bad[i]);
        ck_assert_ptr_eq(e, ap_error_lookup(AP_E_INTERNAL));
        ck_assert_int_eq(e->http, 500);
        ck_assert_str_eq(e->code, "internal");
    }
}
END_TEST

START_TEST(wire_codes_are_status_names)
{
    /* Where a status reaches the wire under its own name, the planner's log name and the wire code agree,
     * so logs and responses can be grepped for the same word. */
    for (int s = 0; s < AP_ERROR_COUNT; s++) {
        const ap_error_info *e = ap_error_lookup(s);
        if (strcmp(e->code, "internal") != 0)
            ck_assert_str_eq(e->code, ap_error_name(s));
    }
}
END_TEST

START_TEST(names_of_both_kinds)
{
    /* The planner names only its own values; proto names both, agreeing with the planner on its values. */
    ck_assert_int_eq(AP_E_INVALID_JSON, AP_STATUS_COUNT);
    for (int s = 0; s < AP_STATUS_COUNT; s++)
        ck_assert_str_eq(ap_error_name(s), ap_status_name(s));
    ck_assert_str_eq(ap_error_name(AP_E_NOMEM), "nomem");
    ck_assert_str_eq(ap_error_name(AP_E_INVALID_JSON), "invalid_json");
    ck_assert_str_eq(ap_error_name(AP_E_NOT_READY), "not_ready");
    ck_assert_str_eq(ap_status_name(AP_E_NOT_READY), "unknown");
    ck_assert_str_eq(ap_error_name(AP_ERROR_COUNT), "unknown");
    ck_assert_str_eq(ap_error_name(-1), "unknown");
}
END_TEST

Suite *errors_suite(void)
{
    Suite *s = suite_create("proto/errors");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, every_status_has_its_row);
    tcase_add_test(tc, out_of_range_is_internal);
    tcase_add_test(tc, wire_codes_are_status_names);
    tcase_add_test(tc, names_of_both_kinds);
    suite_add_tcase(s, tc);
    return s;
}
