/* test_accesslog.c — the access log's buffer and non-blocking writer (server/accesslog.h) over a real pipe:
 * lines reach the reader whole and in order, each write ending at a line's end, a reader that stops reading
 * costs dropped lines (counted, then announced by one note line) and never a blocked writer, and a closed
 * reader is ignored. */
#include "tests/check_fast.h"
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../server/accesslog.h"

Suite *accesslog_suite(void);

/* A pipe of one page (it fills after 4096 bytes; its read end p[0] non-blocking) and l over its write end
 * p[1] with a buffer of cap bytes. */
static void log_over_pipe(int p[2], ap_accesslog *l, size_t cap)
{
    ck_assert_int_eq(pipe(p), 0);
    ck_assert_int_ne(fcntl(p[0], F_SETFL, O_NONBLOCK), -1);
    ck_assert_int_ge(fcntl(p[1], F_SETPIPE_SZ, 4096), 4096);
    ck_assert_int_eq(ap_accesslog_init(l, p[1], cap), 0);
}

/* Everything the pipe holds now (its read end non-blocking), appended to out (NUL-terminated). */
static size_t drain(int fd, char *out, size_t len, size_t cap)
{
    ssize_t k;
    while (len + 1 < cap && (k = read(fd, out + len, cap - 1 - len)) > 0)
        len += (size_t)k;
    out[len] = '\0';
    return len;
}

/* The reader reads again: drain and flush by turns (bounded) until nothing is pending, then drain. */
static size_t pump(ap_accesslog *l, int fd, char *out, size_t len, size_t cap)
{
    for (int round = 0; round < 100 && (l->out_off < l->out_len || l->len > 0); round++) {
        len = drain(fd, out, len, cap);
        ap_accesslog_flush(l, 0);
    }
    return drain(fd, out, len, cap);
}

START_TEST(lines_whole_drops_counted_and_announced)
{
    int p[2];
    ap_accesslog l;
    log_over_pipe(p, &l, 8192);
    /* 400 lines of 64 bytes (25,600 bytes): the pipe takes 4096 and the buffer 8192 of them; nothing is
     * read meanwhile, and no call blocks (a blocking write here would hang the test) */
    char line[80]; /* each line is 64 bytes; room for what -Wformat-truncation imagines */
    for (int i = 0; i < 400; i++) {
        snprintf(line, sizeof line, "{\"n\":%04d,\"pad\":\"%044d\"}\n", i, 0); /* 64 bytes with the newline */
        ap_accesslog_line(&l, line, 64);
        if (i % 50 == 49)
            ap_accesslog_flush(&l, 0);
    }
    ap_accesslog_flush(&l, 0);
    const uint64_t dropped = ap_accesslog_dropped(&l);
    ck_assert_uint_gt(dropped, 0);
    ck_assert_uint_lt(dropped, 400);
    /* the reader comes back: what was kept arrives, then the note, then new lines */
    static char got[65536];
    size_t len = 0;
    len = pump(&l, p[0], got, len, sizeof got);
    snprintf(line, sizeof line, "{\"n\":9999,\"pad\":\"%044d\"}\n", 0);
    ap_accesslog_line(&l, line, 64);
    len = pump(&l, p[0], got, len, sizeof got);
    /* every line kept is whole and in order; the kept ones and the dropped ones add up to 400 */
    int kept = 0, last = -1;
    for (const char *s = got; (s = strstr(s, "{\"n\":")) != NULL; s++) {
        const int n = atoi(s + 5);
        if (n == 9999)
            break;
        ck_assert_int_gt(n, last);
        ck_assert_ptr_nonnull(strchr(s, '\n'));
        ck_assert_int_eq((int)(strchr(s, '\n') - s), 63);
        last = n;
        kept++;
    }
    ck_assert_uint_eq((uint64_t)kept + dropped, 400);
    char note[64];
    snprintf(note, sizeof note, "{\"access_log_dropped\":%llu}\n{\"n\":9999", (unsigned long long)dropped);
    ck_assert_msg(strstr(got, note) != NULL, "no note before the next line: ...%s", got + (len > 200 ? len - 200 : 0));
    ck_assert_uint_eq(ap_accesslog_dropped(&l), dropped); /* the total stays */

    /* a closed reader: the pending lines are dropped on EPIPE (SIGPIPE ignored, as arcpathd does) */
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    close(p[0]);
    ap_accesslog_line(&l, line, 64);
    ap_accesslog_flush(&l, 0);
    ck_assert_uint_eq(l.len, 0);
    ck_assert_uint_eq(l.out_off, l.out_len);
    ck_assert_uint_eq(ap_accesslog_dropped(&l), dropped + 1); /* and counted (it was not: an ops helper) */
    signal(SIGPIPE, old);
    ap_accesslog_free(&l);
    close(p[1]);
}
END_TEST

/* A write ends at a line's end: when the reader stops (or the exit's last seconds run out) the pipe holds
 * whole lines only. Lines of 100 bytes, a pipe of one page: the write takes 40 lines (4,000 bytes), not
 * 4,096 bytes of which the last 96 were a torn line left as the stream's end (a helper). */
START_TEST(writes_end_at_line_ends)
{
    int p[2];
    ap_accesslog l;
    log_over_pipe(p, &l, 16384);
    char line[112];
    for (int i = 0; i < 100; i++) {
        snprintf(line, sizeof line, "{\"n\":%04d,\"pad\":\"%080d\"}\n", i, 0); /* 100 bytes with the newline */
        ap_accesslog_line(&l, line, 100);
    }
    ap_accesslog_flush(&l, 0); /* the pipe fills; the reader has not read */
    static char got[8192];
    const size_t len = drain(p[0], got, 0, sizeof got);
    ck_assert_uint_eq(len, 4000);
    ck_assert_int_eq(got[len - 1], '\n');
    const size_t rest = pump(&l, p[0], got, 0, sizeof got); /* the reader is back: the rest, whole */
    ck_assert_uint_eq(rest, 6000);
    ck_assert_ptr_nonnull(strstr(got, "{\"n\":0040,"));
    ap_accesslog_free(&l);
    close(p[0]);
    close(p[1]);
}
END_TEST

/* ap_accesslog_file: a stdio stream whose lines go to the buffer (never to the descriptor directly), and
 * the buffer's own drop note: 300 messages of 29 bytes into a 4096-byte buffer over a pipe nobody reads
 * return at once; when the reader comes back the kept ones arrive whole, then the note with the count. */
START_TEST(stream_lines_go_through_the_buffer)
{
    int p[2];
    ap_accesslog l;
    log_over_pipe(p, &l, 4096);
    l.note = "dropped %llu\n";
    FILE *f = ap_accesslog_file(&l);
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 300; i++)
        fprintf(f, "arcpathd: message %010d\n", i); /* 29 bytes with the newline */
    ck_assert_uint_eq(l.len, 4096 / 29 * 29); /* handed on line by line, whole, until the buffer is full */
    const uint64_t dropped = ap_accesslog_dropped(&l);
    ck_assert_uint_eq(dropped, 300 - 4096 / 29);
    static char got[16384];
    size_t len = pump(&l, p[0], got, 0, sizeof got);
    fprintf(f, "arcpathd: after\n");
    ck_assert_int_eq(fclose(f), 0);
    len = pump(&l, p[0], got, len, sizeof got);
    ck_assert_ptr_nonnull(strstr(got, "arcpathd: message 0000000140\n"));
    ck_assert_ptr_null(strstr(got, "arcpathd: message 0000000141\n"));
    char note[64];
    snprintf(note, sizeof note, "dropped %llu\narcpathd: after\n", (unsigned long long)dropped);
    ck_assert_msg(strstr(got, note) != NULL, "%s", got + (len > 100 ? len - 100 : 0));
    ap_accesslog_free(&l);
    close(p[0]);
    close(p[1]);
}
END_TEST

Suite *accesslog_suite(void)
{
    Suite *s = suite_create("server/accesslog");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, lines_whole_drops_counted_and_announced);
    tcase_add_test(tc, stream_lines_go_through_the_buffer);
    tcase_add_test(tc, writes_end_at_line_ends);
    suite_add_tcase(s, tc);
    return s;
}
