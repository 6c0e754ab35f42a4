/* example.c — the README's first query through the C client: a path across the demo arena; and a
 * kinodynamic query through the typed API (ap_client_path_typed).
 *
 *   build/arcpath-client-example [BASE_URL [MAP]]     (defaults: http://127.0.0.1:8080, arena)
 *   build/arcpath-client-example BASE_URL MAP kinodynamic [MAX_SPEED]
 *
 * The first prints "status", "length", "grid_cost", "segments" and "clear" lines and exits 0. The second
 * asks for the tank (the built-in vehicle kind turns on the spot; a config kind of that name replaces it:
 * config/demo.conf's, which `make run` serves, has a turning radius of 1.5 tiles, so its answer here has no
 * turn) from (5.5, 5.5) facing west to
 * (20.5, 12.5) at speed 0, goal_tolerance position 0.5 and speed 0.5, search.algorithm "kinodynamic" with
 * max_expansions 100000, samples every 0.5 s (and unit.max_speed MAX_SPEED m/s when given); it prints
 * "status", "length", "duration_s", "segments", "turns" (segments of type turn), "timed" (segments with
 * v_start, v_end, t_start and duration), "samples", "probe" and "clear" lines and exits 0.
 * On an error both print "error HTTP CODE: MESSAGE (field: FIELD)" (and " map_version N" when the error
 * names one: a 422) and exit 1. tests/clients/run.sh checks
 * them all.
 */
#include "arcpath_client.h"

#include <curl/curl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kinodynamic query, typed; max_speed NaN leaves unit.max_speed to the kind. */
static ap_client_result kinodynamic(ap_client *client, const char *map, double max_speed, ap_client_answer *answer,
                                    ap_client_error *err) {
    ap_client_query q;
    ap_client_query_init(&q, map, (ap_client_pose){.x = 5.5, .y = 5.5, .heading = 3.14159, .has_heading = 1},
                         (ap_client_pose){.x = 20.5, .y = 12.5});
    q.start_speed = 0;
    q.goal_speed = 0;
    q.unit.kind = "tank";
    q.unit.reverse = 0;
    q.unit.max_speed = max_speed;
    q.algorithm = "kinodynamic";
    q.max_expansions = 100000;
    q.tolerance_position = 0.5;
    q.tolerance_speed = 0.5;
    q.samples_dt = 0.5;
    return ap_client_path_typed(client, &q, answer, err);
}

static void print_kinodynamic(const ap_client_answer *answer) {
    size_t turns = 0, timed = 0;
    for (size_t i = 0; i < answer->segment_count; i++) {
        ap_client_segment s;
        if (ap_client_answer_segment(answer, i, &s) != 0) continue;
        turns += strcmp(s.type, "turn") == 0;
        timed += isfinite(s.v_start) && isfinite(s.v_end) && isfinite(s.t_start) && isfinite(s.duration);
    }
    printf("status %s\nlength %.17g\nduration_s %.17g\nsegments %zu\nturns %zu\ntimed %zu\nsamples %zu\nprobe %d\n"
           "clear %s\n", answer->status, answer->length, answer->duration_s, answer->segment_count, turns, timed,
           json_array_size(json_object_get(answer->json, "samples")), answer->probe,
           answer->clear == 1 ? "true" : "false");
}

int main(int argc, char **argv) {
    const char *base = argc > 1 ? argv[1] : "http://127.0.0.1:8080";
    const char *map = argc > 2 ? argv[2] : "arena";
    int kino = argc > 3 && strcmp(argv[3], "kinodynamic") == 0;
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
    ap_client_result r = kino ? kinodynamic(client, map, argc > 4 ? strtod(argv[4], NULL) : NAN, &answer, &err)
                              : ap_client_path_query(client, map, start, goal, NULL, &answer, &err);
    if (r == AP_CLIENT_OK) {
        if (kino)
            print_kinodynamic(&answer);
        else
            printf("status %s\nlength %.17g\ngrid_cost %.17g\nsegments %zu\nclear %s\n", answer.status,
                   answer.length, answer.grid_cost, answer.segment_count, answer.clear == 1 ? "true" : "false");
        ap_client_answer_free(&answer);
    } else {
        printf("error %ld %s: %s (field: %s)", err.http_status, err.code, err.message, err.field);
        if (err.map_version > 0)
            printf(" map_version %lld", err.map_version);
        printf("\n");
        rc = 1;
    }
    ap_client_free(client);
    curl_global_cleanup();
    return rc;
}
