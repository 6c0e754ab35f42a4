/* example.c — the README's first query through the C client: a path across the demo arena.
 *
 *   build/arcpath-client-example [BASE_URL [MAP]]     (defaults: http://127.0.0.1:8080, arena)
 *
 * Prints "status", "length", "grid_cost", "segments" and "clear" lines and exits 0; on an error prints
 * "error HTTP CODE: MESSAGE (field: FIELD)" and exits 1. tests/clients/run.sh checks both.
 */
#include "arcpath_client.h"

#include <curl/curl.h>
#include <stdio.h>

int main(int argc, char **argv) {
    const char *base = argc > 1 ? argv[1] : "http://127.0.0.1:8080";
    const char *map = argc > 2 ? argv[2] : "arena";
    ap_client *client = ap_client_init(base, 10000);
    if (!client) {
        fprintf(stderr, "arcpath-client-example: cannot make a client for %s\n", base);
        return 2;
    }
    ap_client_pose start = {.x = 3.5, .y = 3.5};
    ap_client_pose goal = {.x = 90.5, .y = 88.5};
    ap_client_answer answer;
    ap_client_error err;
    int rc = 0;
    if (ap_client_path_query(client, map, start, goal, NULL, &answer, &err) == AP_CLIENT_OK) {
        printf("status %s\nlength %.17g\ngrid_cost %.17g\nsegments %zu\nclear %s\n", answer.status,
               answer.length, answer.grid_cost, answer.segment_count, answer.clear == 1 ? "true" : "false");
        ap_client_answer_free(&answer);
    } else {
        printf("error %ld %s: %s (field: %s)\n", err.http_status, err.code, err.message, err.field);
        rc = 1;
    }
    ap_client_free(client);
    curl_global_cleanup();
    return rc;
}
