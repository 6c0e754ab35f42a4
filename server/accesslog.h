/* accesslog.h — the access log's buffer between the threads that answer requests and the file descriptor the
 * lines go to (stdout), written so that a log reader that stops reading never stops the server. The server's
 * messages on stderr use a second one the same way (ap_accesslog_file: a stdio stream over it; main.c).
 *
 * Lines are appended whole to a bounded buffer under a mutex (any thread; a memcpy, never a write(2)); the
 * loop thread writes the buffer out every 50 ms (ap_accesslog_flush), only as much as the descriptor takes
 * without blocking (poll(2) first, then at most PIPE_BUF bytes per write on a pipe, socket or terminal, up to
 * the last line's end in them, so a reader that stops never holds a torn line; all of it on a regular file
 * or another device, /dev/null say). When the buffer is full (the reader has stopped), new lines are dropped
 * and counted, and the first line that fits again is preceded by {"access_log_dropped":N}. Why not stdio: an
 * fflush on a full pipe blocks holding the FILE's lock, so every thread that logs waits with it (measured:
 * with stdout a pipe nobody read, /healthz stopped answering once ~128 KiB of log was pending). The
 * descriptor is never made O_NONBLOCK (its open file description may be shared with the parent). */
#ifndef AP_SERVER_ACCESSLOG_H
#define AP_SERVER_ACCESSLOG_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ap_accesslog {
    pthread_mutex_t mu;
    int fd;           /* where lines go */
    bool whole;       /* fd is a regular file: write what is pending at once */
    char *buf;        /* lines appended since the last swap (mu) */
    size_t len, cap;  /* bytes in buf; its size, the most that may be pending */
    char *out;        /* lines being written by the flushing thread (that thread only) */
    size_t out_len, out_off;
    uint64_t dropped;       /* lines dropped since the last note (mu) */
    uint64_t dropped_total; /* lines dropped since start (mu) */
    const char *note; /* the drop note, a printf format of one %llu ending in '\n'; NULL: the JSON
                       * {"access_log_dropped":N}. Set after ap_accesslog_init, before other threads use l. */
} ap_accesslog;

/* Set up l for descriptor fd (not owned; it stays blocking) with cap bytes of buffer (>= 4096; twice that is
 * allocated: one side fills while the other is written; a smaller cap is raised to 4096). Returns 0, or -1
 * when out of memory. l is caller-owned; after 0 release it with ap_accesslog_free. Not thread-safe: set up l
 * before any other thread uses it. */
int ap_accesslog_init(ap_accesslog *l, int fd, size_t cap);

/* Append one line (n bytes, ending in '\n') whole, or drop it when it does not fit. Thread-safe; never
 * blocks on the descriptor. */
void ap_accesslog_line(ap_accesslog *l, const char *line, size_t n);

/* Write out what is pending, as much as the descriptor takes without blocking; with wait_ms > 0 keep
 * waiting for it (poll) up to wait_ms in all (at exit). A write error other than EINTR/EAGAIN drops what is
 * pending (a closed reader: EPIPE, SIGPIPE being ignored), its lines counted in ap_accesslog_dropped (a
 * line already part written counts too). One flushing thread at a time (the loop's). */
void ap_accesslog_flush(ap_accesslog *l, int wait_ms);

/* A stdio stream whose lines go to l (ap_accesslog_line, whole lines: it is line-buffered), for the server's
 * messages on stderr: a thread that logs through it never blocks on the descriptor, so a stderr nobody reads
 * costs dropped lines, not the HTTP thread (libmicrohttpd's messages) or the loop (its signal handling).
 * NULL when out of memory. fclose it (which hands on what it holds) before ap_accesslog_free; as every
 * FILE, thread-safe. */
FILE *ap_accesslog_file(ap_accesslog *l);

/* Lines dropped since start. Thread-safe. */
uint64_t ap_accesslog_dropped(ap_accesslog *l);

/* Free l's buffers and lock and zero l (the descriptor is the caller's: not closed); an l never set up or
 * freed already is ignored. Flush first (ap_accesslog_flush) to keep what is pending; no other thread may
 * be using l. */
void ap_accesslog_free(ap_accesslog *l);

#endif
