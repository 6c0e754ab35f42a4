/* accesslog.c — the access log's buffer and its non-blocking writer (accesslog.h). */
#include "accesslog.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int ap_accesslog_init(ap_accesslog *l, int fd, size_t cap)
{
    memset(l, 0, sizeof *l);
    if (cap < 4096)
        cap = 4096;
    l->buf = malloc(cap);
    l->out = malloc(cap);
    if (l->buf == NULL || l->out == NULL) {
        free(l->buf);
        free(l->out);
        l->buf = l->out = NULL; /* ap_accesslog_free then sees nothing to free (nor a mutex never made) */
        return -1;
    }
    struct stat st;
    /* Only what fills up and waits for its reader is polled: a pipe, a socket, a terminal. Anything else takes
     * everything at once: a regular file, /dev/null, and a descriptor that is not what it should be (a
     * closed stderr whose number libuv's epoll took: polled for POLLOUT it never was, and each flush waited
     * out its time, a reviewer), where a failing write drops the lines. */
    const bool known = fstat(fd, &st) == 0;
    l->whole = !known || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || (S_ISCHR(st.st_mode) && isatty(fd)));
    l->fd = fd;
    l->cap = cap;
    pthread_mutex_init(&l->mu, NULL);
    return 0;
}

void ap_accesslog_line(ap_accesslog *l, const char *line, size_t n)
{
    pthread_mutex_lock(&l->mu);
    if (l->dropped > 0) { /* say first how many were lost, once there is room for that and the line */
        char note[128];
        const int k = snprintf(note, sizeof note, l->note != NULL ? l->note : "{\"access_log_dropped\":%llu}\n",
                               (unsigned long long)l->dropped);
        if (k > 0 && l->len + (size_t)k + n <= l->cap) {
            memcpy(l->buf + l->len, note, (size_t)k);
            l->len += (size_t)k;
            l->dropped = 0;
        }
    }
    if (l->dropped == 0 && l->len + n <= l->cap) {
        memcpy(l->buf + l->len, line, n);
        l->len += n;
    } else {
        l->dropped++;
        l->dropped_total++;
    }
    pthread_mutex_unlock(&l->mu);
}

/* Drop what is pending to be written (the descriptor failed: a closed reader), counting its lines as dropped
 * (the flushing thread's; the count under mu). */
static void drop_pending(ap_accesslog *l)
{
    uint64_t lines = 0;
    for (size_t i = l->out_off; i < l->out_len; i++)
        lines += l->out[i] == '\n';
    l->out_off = l->out_len;
    pthread_mutex_lock(&l->mu);
    l->dropped_total += lines;
    pthread_mutex_unlock(&l->mu);
}

/* Milliseconds on the monotonic clock. */
static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void ap_accesslog_flush(ap_accesslog *l, int wait_ms)
{
    const int64_t end = now_ms() + (wait_ms > 0 ? wait_ms : 0);
    for (;;) {
        if (l->out_off == l->out_len) { /* take what the answering threads appended */
            pthread_mutex_lock(&l->mu);
            char *t = l->out;
            l->out = l->buf;
            l->out_len = l->len;
            l->out_off = 0;
            l->buf = t;
            l->len = 0;
            pthread_mutex_unlock(&l->mu);
            if (l->out_len == 0)
                return;
        }
        const int64_t left = end - now_ms();
        struct pollfd p = {.fd = l->fd, .events = POLLOUT};
        const int ready = l->whole ? 1 : poll(&p, 1, left > 0 ? (int)left : 0);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return; /* the reader is not reading: keep it pending (new lines fill buf, then drop) */
        if (!l->whole && (p.revents & (POLLERR | POLLNVAL))) {
            drop_pending(l); /* nowhere to write */
            continue;
        }
        /* at most PIPE_BUF bytes when poll said writable: such a write to a pipe never blocks; and up to a
         * line's end, so a reader that stops reading (or the exit's last 2 s running out) never leaves a
         * torn half line as the stream's end (a helper: the last line cut mid-string) */
        size_t n = l->out_len - l->out_off;
        if (!l->whole && n > PIPE_BUF) {
            const char *nl = memrchr(l->out + l->out_off, '\n', PIPE_BUF);
            n = nl != NULL ? (size_t)(nl - (l->out + l->out_off)) + 1 : PIPE_BUF; /* (a line over 4 KiB: cut) */
        }
        const ssize_t w = write(l->fd, l->out + l->out_off, n);
        if (w > 0)
            l->out_off += (size_t)w;
        else if (w < 0 && errno != EINTR && errno != EAGAIN)
            drop_pending(l); /* EPIPE (a closed reader) or another error */
    }
}

static ssize_t file_write(void *cookie, const char *buf, size_t n)
{
    ap_accesslog_line(cookie, buf, n);
    return (ssize_t)n; /* taken or dropped (counted): either way the stream goes on */
}

FILE *ap_accesslog_file(ap_accesslog *l)
{
    FILE *f = fopencookie(l, "w", (cookie_io_functions_t){.write = file_write});
    if (f != NULL)
        setvbuf(f, NULL, _IOLBF, 4096);
    return f;
}

uint64_t ap_accesslog_dropped(ap_accesslog *l)
{
    pthread_mutex_lock(&l->mu);
    const uint64_t d = l->dropped_total;
    pthread_mutex_unlock(&l->mu);
    return d;
}

void ap_accesslog_free(ap_accesslog *l)
{
    if (l->buf == NULL)
        return;
    pthread_mutex_destroy(&l->mu);
    free(l->buf);
    free(l->out);
    memset(l, 0, sizeof *l);
}
