/* test_lifecycle.c — process life: --check-config verdicts, bad map files skipped, SIGTERM drains
 * in-flight searches and exits 0. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../util.h"
#include "harness.h"

Suite *lifecycle_suite(void);

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(check_config_verdicts)
{
    static char err[65536];
    const char *good[] = {"--check-config", "--maps", "config/maps", NULL};
    ck_assert_int_eq(ap_run_cli(good, 0, err, sizeof err), 0);

    char dir[] = "/tmp/arcpath-maps-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char p[256];
    snprintf(p, sizeof p, "%s/ok.map", dir);
    write_file(p, "type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n");
    snprintf(p, sizeof p, "%s/shortrow.map", dir);
    write_file(p, "type octile\nheight 2\nwidth 3\nmap\n...\n..\n");
    const char *bad[] = {"--check-config", "--maps", dir, NULL};
    ck_assert_int_eq(ap_run_cli(bad, 0, err, sizeof err), 1);
    /* The report names the file and the line of the short row. */
    ck_assert_msg(strstr(err, "shortrow.map:6") != NULL, "report does not name shortrow.map:6: %s", err);

    /* The server itself skips the bad map and serves the good one. */
    ap_srv s;
    ck_assert_int_eq(ap_srv_start(&s, dir, NULL, NULL), 0);
    ap_resp r;
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/ok", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 200);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_http(&s, "GET", "/v1/maps/shortrow", NULL, 0, NULL, &r), 0);
    ck_assert_int_eq(r.status, 404);
    ap_resp_free(&r);
    ck_assert_int_eq(ap_srv_stop(&s), 0);

    snprintf(p, sizeof p, "%s/ok.map", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/shortrow.map", dir);
    unlink(p);
    rmdir(dir);

    const char *badopt[] = {"--workers", "zero", NULL};
    ck_assert_int_eq(ap_run_cli(badopt, 0, err, sizeof err), 2);
    ck_assert_ptr_nonnull(strstr(err, "workers"));
}
END_TEST

typedef struct inflight {
    const ap_srv *srv;
    char body[512];
    long status;
    char result[32];
} inflight;

static void *send_one(void *arg)
{
    inflight *f = arg;
    ap_resp r;
    if (ap_post(f->srv, "/v1/path", f->body, &r) == 0) {
        f->status = r.status;
        json_t *j = ap_resp_json(&r);
        snprintf(f->result, sizeof f->result, "%s", json_string_value(json_object_get(j, "status")));
        json_decref(j);
    }
    ap_resp_free(&r);
    return NULL;
}

START_TEST(sigterm_answers_inflight_and_exits_zero)
{
    if (!ap_mai_dir) {
        ap_test_skip_no_data("shutdown test");
        return;
    }
    ap_srv s;
    const char *env[] = {"ARCPATH_WORKERS=1", NULL};
    ck_assert_int_eq(ap_srv_start(&s, ap_mai_dir, NULL, env), 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/Paris_1_1024.map.scen", ap_mai_dir);
    ap_test_scen *sc = NULL;
    size_t n = 0;
    ck_assert_int_eq(ap_test_load_scen(path, &sc, &n), 0);
    inflight f[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        const ap_test_scen *q = &sc[n - 1 - (size_t)i];
        f[i] = (inflight){.srv = &s};
        snprintf(f[i].body, sizeof f[i].body,
                 "{\"map\":\"Paris_1_1024\",\"start\":{\"x\":%d.5,\"y\":%d.5},\"goal\":{\"x\":%d.5,\"y\":%d.5},\"search\":{\"algorithm\":\"astar\"}}", q->sx,
                 q->sy, q->gx, q->gy);
        ck_assert_int_eq(pthread_create(&th[i], NULL, send_one, &f[i]), 0);
    }
    struct timespec ts = {0, 30 * 1000000L};
    nanosleep(&ts, NULL);
    ck_assert_int_eq(ap_srv_stop(&s), 0);
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        /* Every request that reached the server got an answer: a path, a timeout or not_ready. */
        ck_assert_msg(f[i].status == 200 || f[i].status == 503, "in-flight request %d: HTTP %ld", i, f[i].status);
        if (f[i].status == 200)
            ck_assert_msg(strcmp(f[i].result, "ok") == 0 || strcmp(f[i].result, "timeout") == 0, "result %s",
                          f[i].result);
    }
    free(sc);
}
END_TEST

Suite *lifecycle_suite(void)
{
    Suite *s = suite_create("lifecycle");
    TCase *tc = tcase_create("process");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, check_config_verdicts);
    tcase_add_test(tc, sigterm_answers_inflight_and_exits_zero);
    suite_add_tcase(s, tc);
    return s;
}
