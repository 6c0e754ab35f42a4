/* bare_http.c — the HTTP ceiling arcpath is measured against (make bench, BENCHMARKS.md "Server"): a bare
 * libmicrohttpd handler in arcpathd's polling mode (one internal polling thread, epoll when available,
 * suspend/resume allowed, the same connection limits), answering every request with a fixed 300-byte JSON
 * body shaped like a short /v1/path answer. It reads and discards the request body, so wrk can send it the
 * same POST bodies it sends arcpathd.
 *
 * Usage: arcpath-bare-http PORT   (binds 127.0.0.1; runs until SIGINT/SIGTERM)
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 300 bytes: a short path answer's size and shape. */
static char body[301];

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **state)
{
    (void)cls, (void)url, (void)method, (void)version, (void)upload;
    if (*state == NULL) { /* first call: headers only */
        *state = body;
        return MHD_YES;
    }
    if (*upload_size != 0) { /* a body chunk: discard it */
        *upload_size = 0;
        return MHD_YES;
    }
    struct MHD_Response *r = MHD_create_response_from_buffer(300, body, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(r, "Content-Type", "application/json");
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s PORT\n", argv[0]);
        return 2;
    }
    int port = atoi(argv[1]);
    const char *head = "{\"status\":\"ok\",\"map\":\"den520d\",\"grid_cost\":12.242640687119286,\"length\":11.704699910719626,"
                       "\"clear\":true,\"waypoints\":[[12.5,30.5],[20.5,33.5]],\"segments\":[{\"type\":\"line\",\"x0\":12.5,"
                       "\"y0\":30.5,\"x1\":20.5,\"y1\":33.5}],\"stats\":{\"expanded\":9,\"lane\":\"fast\",\"queue_us\":0,";
    size_t n = strlen(head);
    memset(body, ' ', 300);
    memcpy(body, head, n);
    static const char tail[] = "\"search_us\":3}}\n"; /* JSON allows the spaces between */
    memcpy(body + 300 - (sizeof tail - 1), tail, sizeof tail - 1);
    body[300] = '\0';

    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
    flags |= MHD_is_feature_supported(MHD_FEATURE_EPOLL) == MHD_YES ? MHD_USE_EPOLL : MHD_USE_POLL;
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct MHD_Daemon *d = MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, handle, NULL, MHD_OPTION_SOCK_ADDR,
                                            (struct sockaddr *)&sa, MHD_OPTION_CONNECTION_LIMIT, 512u,
                                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, 64u, MHD_OPTION_CONNECTION_TIMEOUT,
                                            30u, MHD_OPTION_END);
    if (d == NULL) {
        fprintf(stderr, "arcpath-bare-http: cannot listen on 127.0.0.1:%d\n", port);
        return 1;
    }
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    int sig;
    sigwait(&set, &sig);
    MHD_stop_daemon(d);
    return 0;
}
