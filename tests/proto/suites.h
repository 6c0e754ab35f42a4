/* suites.h — the Check suites of test-proto, one per proto/ module. */
#ifndef AP_TEST_PROTO_SUITES_H
#define AP_TEST_PROTO_SUITES_H

#include "tests/check_fast.h"

Suite *errors_suite(void);      /* proto/errors.c */
Suite *wire_suite(void);        /* proto/wire.c: request parsing and response encoding */
Suite *curve_wire_suite(void);  /* proto/curve.c: POST /v1/curve parsing and encoding */
Suite *circles_file_suite(void); /* proto/circles.c: the <id>.circles.json loader */
Suite *json_suite(void);
Suite *render_suite(void);      /* proto/render*.c: the render request, the SVG and PNG writers */        /* proto/json_in.c, json_out.c, utf8.c: strict reading, direct writer */

#endif
