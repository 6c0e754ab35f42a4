/* test_render.c — proto/render*.c: the strict answer parser, the SVG writer (exact output on a tiny map with
 * a hand-made answer: a line, a left arc, a right arc and a reverse piece), the arc flags, the frame, the
 * caps, and the PNG writer's header. */
#include "tests/check_fast.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "proto/render.h"

Suite *render_suite(void);

static const char *TINY = "type octile\nheight 5\nwidth 8\nmap\n@@@@@@@@\n@......@\n@..T...@\n@...S..@\n@@@@@@@@\n";

/* The hand-made answer: from (1.5, 1.5) facing +x, a line of 1, a left arc (heading increasing, sweep
 * +pi/2) about (2.5, 2.5), a right arc (sweep -pi/2) about (4.5, 2.5), then 1 tile backwards facing +x. */
static const char *ANSWER =
    "{\"status\":\"ok\",\"map\":\"tiny\",\"grid_cost\":4.8,\"length\":5.1415926535897931,\"clear\":true,"
    "\"waypoints\":[[1.5,1.5],[3.5,3.5]],\"segments\":["
    "{\"type\":\"line\",\"start\":[1.5,1.5],\"end\":[2.5,1.5],\"heading\":0.0,\"length\":1.0},"
    "{\"type\":\"arc\",\"start\":[2.5,1.5],\"end\":[3.5,2.5],\"center\":[2.5,2.5],\"radius\":1.0,"
    "\"start_heading\":0.0,\"sweep\":1.5707963267948966,\"length\":1.5707963267948966},"
    "{\"type\":\"arc\",\"start\":[3.5,2.5],\"end\":[4.5,3.5],\"center\":[4.5,2.5],\"radius\":1.0,"
    "\"start_heading\":1.5707963267948966,\"sweep\":-1.5707963267948966,\"length\":1.5707963267948966},"
    "{\"type\":\"line\",\"start\":[4.5,3.5],\"end\":[3.5,3.5],\"heading\":0.0,\"length\":1.0,\"reverse\":true}],"
    "\"samples\":[{\"d\":0.0,\"x\":1.5,\"y\":1.5,\"heading\":0.0},{\"d\":5.1415926535897931,\"x\":3.5,\"y\":3.5,"
    "\"heading\":0.0}],\"stats\":{\"expanded\":12,\"lane\":\"fast\",\"queue_us\":3,\"search_us\":40}}";

static ap_map *tiny_map(void)
{
    ap_map *m = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("tiny", "tiny", TINY, strlen(TINY), NULL, &m, &d), AP_OK);
    return m;
}

/* Parse text as an answer (prefix "answer"); returns the status, err filled. */
static int parse(const char *text, ap_render_answer *a, ap_wire_error *err)
{
    json_error_t je;
    json_t *j = json_loads(text, 0, &je);
    ck_assert_msg(j != NULL, "test JSON: %s", je.text);
    int st = ap_render_parse_answer(j, "answer", a, err);
    json_decref(j);
    return st;
}

/* Draw (map, answer text or NULL, opts) and return the malloc'd output (*len its length). */
static char *draw(const ap_map *m, const char *answer, const ap_render_opts *o, int want, size_t *len)
{
    ap_render_answer a;
    ap_wire_error err;
    if (answer != NULL)
        ck_assert_int_eq(parse(answer, &a, &err), AP_OK);
    ap_jbuf b;
    ap_jbuf_init(&b, NULL, 0);
    int st = ap_render(m, answer ? &a : NULL, o, &b, &err);
    ck_assert_msg(st == want, "ap_render: %d (%s), want %d", st, err.message, want);
    if (answer != NULL)
        ap_render_answer_free(&a);
    if (st != AP_OK) {
        ap_jbuf_free(&b);
        return NULL;
    }
    return ap_jbuf_take(&b, len);
}

START_TEST(svg_exact)
{
    ap_map *m = tiny_map();
    ap_render_opts o = {.radius = 0.25, .algorithm = "directional8"};
    size_t len = 0;
    char *svg = draw(m, ANSWER, &o, AP_OK, &len);
    /* 8 x 5 tiles: the long side 1024 px would make a tile 128 px, so it is 32 px (px = 1/32 tile); the
     * caption's 43 characters need 43 x 0.62 x 12 + 8 = 327.9 px, so the picture is 328 px (10.2475 tiles)
     * wide, blank right of the map. */
    static const char *want =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"328\" height=\"178\" viewBox=\"0 0 10.2475 5.5625\">\n"
        "<title>tiny \xc2\xb7 directional8 \xc2\xb7 length 5.1416 \xc2\xb7 clear</title>\n"
        "<g shape-rendering=\"crispEdges\">\n"
        "<rect x=\"0\" y=\"0\" width=\"8\" height=\"5\" fill=\"#24292f\"/>\n"
        "<path fill=\"#ffffff\" d=\"M1 1h6v1h-6zM1 2h2v1h-2zM4 2h3v1h-3zM1 3h3v1h-3zM5 3h2v1h-2z\"/>\n"
        "<path fill=\"#d6e8c4\" d=\"M4 3h1v1h-1z\"/>\n"
        "<path fill=\"#2e7d32\" d=\"M3 2h1v1h-1z\"/>\n"
        "</g>\n"
        "<g fill=\"none\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n"
        "<path d=\"M1.5 1.5L2.5 1.5A1 1 0 0 1 3.5 2.5A1 1 0 0 0 4.5 3.5L3.5 3.5\" stroke=\"#0969da\" "
        "stroke-opacity=\"0.18\" stroke-width=\"0.5\"/>\n"
        "<path d=\"M1.5 1.5L2.5 1.5A1 1 0 0 1 3.5 2.5A1 1 0 0 0 4.5 3.5\" stroke=\"#0969da\" stroke-width=\"0.0781\"/>\n"
        "<path d=\"M4.5 3.5L3.5 3.5\" stroke=\"#cf222e\" stroke-width=\"0.0781\" stroke-dasharray=\"0.1875 0.125\"/>\n"
        "<path d=\"M1.5 1.375L1.5 1.625M3.5 3.375L3.5 3.625\" stroke=\"#24292f\" stroke-width=\"0.0375\"/>\n"
        "</g>\n"
        "<circle cx=\"1.5\" cy=\"1.5\" r=\"0.25\" fill=\"#1a7f37\" fill-opacity=\"0.2\"/>\n"
        "<path d=\"M1.5 1.5L2.3125 1.5M2.1251 1.6128L2.3125 1.5L2.1251 1.3872\" fill=\"none\" stroke=\"#1a7f37\" "
        "stroke-width=\"0.0781\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
        "<circle cx=\"1.5\" cy=\"1.5\" r=\"0.2656\" fill=\"#ffffff\"/>\n"
        "<circle cx=\"1.5\" cy=\"1.5\" r=\"0.2188\" fill=\"#1a7f37\"/>\n"
        "<text x=\"1.5\" y=\"1.5\" font-size=\"0.3125\" font-family=\"sans-serif\" font-weight=\"bold\" fill=\"#ffffff\" "
        "text-anchor=\"middle\" dominant-baseline=\"central\">S</text>\n"
        "<circle cx=\"3.5\" cy=\"3.5\" r=\"0.25\" fill=\"#cf222e\" fill-opacity=\"0.2\"/>\n"
        "<path d=\"M3.5 3.5L4.3125 3.5M4.1251 3.6128L4.3125 3.5L4.1251 3.3872\" fill=\"none\" stroke=\"#cf222e\" "
        "stroke-width=\"0.0781\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
        "<circle cx=\"3.5\" cy=\"3.5\" r=\"0.2656\" fill=\"#ffffff\"/>\n"
        "<circle cx=\"3.5\" cy=\"3.5\" r=\"0.2188\" fill=\"#cf222e\"/>\n"
        "<text x=\"3.5\" y=\"3.5\" font-size=\"0.3125\" font-family=\"sans-serif\" font-weight=\"bold\" fill=\"#ffffff\" "
        "text-anchor=\"middle\" dominant-baseline=\"central\">G</text>\n"
        "<rect x=\"8\" y=\"0\" width=\"2.2475\" height=\"5\" fill=\"#ffffff\"/>\n"
        "<rect x=\"0\" y=\"5\" width=\"10.2475\" height=\"0.5625\" fill=\"#ffffff\"/>\n"
        "<text x=\"0.125\" y=\"5.4063\" font-size=\"0.375\" font-family=\"sans-serif\" fill=\"#24292f\">"
        "tiny \xc2\xb7 directional8 \xc2\xb7 length 5.1416 \xc2\xb7 clear</text>\n"
        "</svg>\n";
    if (strcmp(svg, want) != 0) { /* Check's message cannot hold both documents: show the first difference */
        size_t i = 0;
        while (svg[i] == want[i])
            i++;
        ck_abort_msg("SVG differs at byte %zu: got \"%.60s\", want \"%.60s\"", i, svg + i, want + i);
    }
    ck_assert_uint_eq(len, strlen(want));
    /* The flags spelled out: the left arc (sweep > 0, heading increasing: SVG's positive-angle direction)
     * has sweep-flag 1, the right arc 0; neither is large (pi/2). */
    ck_assert_ptr_nonnull(strstr(svg, "A1 1 0 0 1 3.5 2.5"));
    ck_assert_ptr_nonnull(strstr(svg, "A1 1 0 0 0 4.5 3.5"));
    free(svg);
    ap_map_free(m);
}
END_TEST

/* The path drawing commands ("d") of one arc about (4, 2.5) of the given radius, starting straight above
 * (left turns) or below (right turns) the centre facing +x and sweeping `sweep` radians. */
static char *arc_svg(double sweep, double radius)
{
    ap_pose p = {4.0, sweep > 0 ? 2.5 - radius : 2.5 + radius, 0.0};
    ap_segment s = ap_segment_drive(&p, sweep > 0 ? 1 : -1, fabs(sweep) * radius, radius);
    ap_render_answer a = {.status = AP_OK, .length = s.length, .clear = true, .segs = &s, .n_segs = 1};
    ap_map *m = tiny_map();
    ap_render_opts o = {0};
    ap_jbuf b;
    ap_wire_error err;
    ap_jbuf_init(&b, NULL, 0);
    ck_assert_int_eq(ap_render(m, &a, &o, &b, &err), AP_OK);
    ap_map_free(m);
    const char *at = strstr(b.p, "<g fill=\"none\"");
    ck_assert_ptr_nonnull(at);
    at = strstr(at, "d=\"") + 3;
    char *out = strndup(at, (size_t)(strchr(at, '"') - at));
    ap_jbuf_free(&b);
    return out;
}

START_TEST(svg_arc_flags)
{
    /* 1.25 pi to the left (heading increasing): large 1, sweep 1; the same to the right: large 1, sweep 0 */
    char *d = arc_svg(1.25 * M_PI, 1.0);
    ck_assert_str_eq(d, "M4 1.5A1 1 0 1 1 3.2929 3.2071");
    free(d);
    d = arc_svg(-1.25 * M_PI, 1.0);
    ck_assert_str_eq(d, "M4 3.5A1 1 0 1 0 3.2929 1.7929");
    free(d);
    /* beyond 1.5 pi: two halves, neither large; a full turn comes back to its start */
    d = arc_svg(2.0 * M_PI, 1.0);
    ck_assert_str_eq(d, "M4 1.5A1 1 0 0 1 4 3.5A1 1 0 0 1 4 1.5");
    free(d);
    d = arc_svg(-1.75 * M_PI, 2.0);
    ck_assert_str_eq(d, "M4 4.5A2 2 0 0 0 4.7654 0.6522A2 2 0 0 0 2.5858 3.9142");
    free(d);
    /* more than a full turn (a kinodynamic action of a tight radius may loop): four equal pieces, the last at
     * the end; 10 rad is 2 pi + 3.717, 30 rad draws as 2 pi + fmod(30, 2 pi) */
    d = arc_svg(10.0, 0.5);
    ck_assert_str_eq(d, "M4 2A0.5 0.5 0 0 1 4.2992 2.9006A0.5 0.5 0 0 1 3.5205 2.3582A0.5 0.5 0 0 1 4.469 2.3267"
                        "A0.5 0.5 0 0 1 3.728 2.9195");
    free(d);
    d = arc_svg(-30.0, 0.5);
    ck_assert_str_eq(d, "M4 3A0.5 0.5 0 0 0 4.1733 2.031A0.5 0.5 0 0 0 3.6749 2.8798A0.5 0.5 0 0 0 4.4367 2.2564"
                        "A0.5 0.5 0 0 0 3.506 2.5771");
    free(d);
}
END_TEST

/* base with the first occurrence of from replaced by to; parsing it must fail on field. */
static void bad_answer_of(const char *base, const char *from, const char *to, const char *field)
{
    const char *at = strstr(base, from);
    ck_assert_msg(at != NULL, "test: %s not in the answer", from);
    size_t n = strlen(base) - strlen(from) + strlen(to) + 1;
    char *text = malloc(n);
    snprintf(text, n, "%.*s%s%s", (int)(at - base), base, to, at + strlen(from));
    ap_render_answer a;
    ap_wire_error err;
    ck_assert_int_eq(parse(text, &a, &err), AP_E_INVALID_REQUEST);
    ck_assert_msg(strcmp(err.field, field) == 0, "%s -> %s: field %s (%s), want %s", from, to, err.field,
                  err.message, field);
    ck_assert_ptr_null(a.segs);
    free(text);
}

static void bad_answer(const char *from, const char *to, const char *field)
{
    bad_answer_of(ANSWER, from, to, field);
}

START_TEST(answer_parse_strict)
{
    ap_render_answer a;
    ap_wire_error err;
    ck_assert_int_eq(parse(ANSWER, &a, &err), AP_OK);
    ck_assert_uint_eq(a.n_segs, 4);
    ck_assert_uint_eq(a.n_samples, 2);
    ck_assert_int_eq(a.segs[1].type, AP_SEG_ARC);
    ck_assert_double_eq(a.segs[2].sweep, -1.5707963267948966);
    ck_assert(a.segs[3].reverse && !a.segs[2].reverse);
    ck_assert_str_eq(a.map, "tiny");
    ap_render_answer_free(&a);

    bad_answer("\"radius\":1.0,\"start_heading\":0.0", "\"radius\":0,\"start_heading\":0.0", "answer.segments[1].radius");
    bad_answer("\"radius\":1.0,\"start_heading\":1.57", "\"radius\":2.0,\"start_heading\":1.57", "answer.segments[2].radius");
    bad_answer("\"sweep\":-1.5707963267948966", "\"sweep\":1.5707963267948966", "answer.segments[2].sweep");
    bad_answer("\"sweep\":1.5707963267948966", "\"sweep\":7", "answer.segments[1].sweep");
    bad_answer("\"type\":\"arc\"", "\"type\":\"circle\"", "answer.segments[1].type");
    bad_answer("\"type\":\"line\",\"start\":[1.5", "\"start\":[1.5", "answer.segments[0].type");
    bad_answer("\"center\":[2.5,2.5],", "", "answer.segments[1].center");
    bad_answer("\"heading\":0.0,\"length\":1.0}", "\"heading\":0.0,\"length\":1.0,\"center\":[0,0]}",
               "answer.segments[0].center");
    bad_answer("\"length\":1.0,\"reverse\":true", "\"length\":1.0,\"reverse\":false", "answer.segments[3].reverse");
    bad_answer("\"end\":[2.5,1.5]", "\"end\":[2.5,1.6]", "answer.segments[0].length");
    bad_answer("\"start\":[4.5,3.5],\"end\":[3.5,3.5]", "\"start\":[4.5,3.6],\"end\":[3.5,3.6]",
               "answer.segments[3].start");
    bad_answer("\"start\":[1.5,1.5]", "\"start\":[1.5,1e7]", "answer.segments[0].start");
    bad_answer("\"start\":[1.5,1.5]", "\"start\":[1.5]", "answer.segments[0].start");
    bad_answer("\"segments\":[", "\"segments\":[3,", "answer.segments[0]");
    bad_answer("\"waypoints\":[[1.5,1.5],", "\"waypoints\":[[1.5,\"a\"],", "answer.waypoints[0]");
    bad_answer("{\"d\":0.0,\"x\":1.5", "{\"d\":0.0,\"q\":1,\"x\":1.5", "answer.samples[0].q");
    bad_answer("\"status\":\"ok\"", "\"status\":\"fine\"", "answer.status");
    bad_answer("\"clear\":true,", "", "answer.clear");
    bad_answer("\"lane\":\"fast\"", "\"lane\":\"medium\"", "answer.stats.lane");
    bad_answer("\"grid_cost\":4.8,", "\"grid_cost\":4.8,\"colour\":1,", "answer.colour");
    /* headings agree with the geometry: a line's points from start to end (a reverse one's from end to
     * start), an arc's start heading is its tangent turning toward its centre */
    bad_answer("\"heading\":0.0,\"length\":1.0}", "\"heading\":1.0,\"length\":1.0}", "answer.segments[0].heading");
    bad_answer("\"heading\":0.0,\"length\":1.0,\"reverse\"", "\"heading\":3.141592653589793,\"length\":1.0,\"reverse\"",
               "answer.segments[3].heading");
    bad_answer("\"start_heading\":0.0,\"sweep\":1.5707963267948966",
               "\"start_heading\":3.141592653589793,\"sweep\":1.5707963267948966", "answer.segments[1].start_heading");
    /* the answer's length is its segments' */
    bad_answer("\"length\":5.1415926535897931", "\"length\":5.0", "answer.length");
    /* probe and capped are present only as true; duration_s is seconds >= 0 */
    bad_answer("\"clear\":true,", "\"clear\":true,\"probe\":false,", "answer.probe");
    bad_answer("\"clear\":true,", "\"clear\":true,\"capped\":false,", "answer.capped");
    bad_answer("\"clear\":true,", "\"clear\":true,\"probe\":\"yes\",", "answer.probe");
    bad_answer("\"clear\":true,", "\"clear\":true,\"duration_s\":-1,", "answer.duration_s");
    /* a no_path answer has no geometry: its segments are unknown members */
    bad_answer("\"status\":\"ok\"", "\"status\":\"no_path\"", "answer.grid_cost");

    const char *np = "{\"status\":\"no_path\",\"map\":\"tiny\",\"reason\":\"unreachable\",\"stats\":{\"expanded\":0}}";
    ck_assert_int_eq(parse(np, &a, &err), AP_OK);
    ck_assert_int_eq(a.status, AP_NO_PATH);
    ck_assert_str_eq(a.reason, "unreachable");
    ap_render_answer_free(&a);
    /* every reason the path encoder writes is one a stored answer may carry (POST /v1/render draws a query's
     * own answer through this parser) */
    for (int reason = AP_NO_PATH_NOT_FOUND; reason <= AP_NO_PATH_STATE_LIMIT; reason++) {
        ap_result r;
        memset(&r, 0, sizeof r);
        r.status = AP_NO_PATH;
        r.no_path_reason = (ap_no_path_reason)reason;
        ap_path_stats st = {.lane = "fast"};
        char *text = ap_wire_encode_path("tiny", &r, &st, NULL);
        ck_assert_ptr_nonnull(text);
        ck_assert_msg(parse(text, &a, &err) == AP_OK, "%s: %s", text, err.message);
        ck_assert_ptr_nonnull(a.reason);
        ck_assert_ptr_nonnull(strstr(text, a.reason));
        ap_render_answer_free(&a);
        free(text);
    }
    /* an answer names its map's version (live maps); a stored one from before has none: both draw */
    ck_assert_int_eq(parse("{\"status\":\"no_path\",\"map\":\"tiny\",\"map_version\":7,\"stats\":{\"expanded\":0}}", &a, &err),
                     AP_OK);
    ap_render_answer_free(&a);
    ck_assert_int_eq(parse("{\"status\":\"no_path\",\"map\":\"tiny\",\"map_version\":0,\"stats\":{\"expanded\":0}}", &a, &err),
                     AP_E_INVALID_REQUEST);
    ck_assert_str_eq(err.field, "answer.map_version");
    ck_assert_int_eq(parse("{\"status\":\"timeout\",\"map\":\"tiny\",\"reason\":\"not_found\",\"stats\":{\"expanded\":0}}",
                           &a, &err), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(err.field, "answer.reason");
    ck_assert_int_eq(parse("[1]", &a, &err), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(err.field, "answer");
}
END_TEST

/* A kinodynamic answer with a turn on the spot (unit.max_turn_rate): a line, a quarter turn in place at
 * (2.5, 1.5), a line down. It parses strictly (a turn is a point with start_heading and sweep, length 0),
 * draws as the point it is (a zero-length "L" in SVG, the PNG too) and the goal arrow takes the heading
 * after the turn. */
static const char TURN_ANSWER[] =
    "{\"status\":\"ok\",\"map\":\"tiny\",\"grid_cost\":2.0,\"length\":2.0,\"clear\":true,\"duration_s\":3.0,"
    "\"waypoints\":[[1.5,1.5],[2.5,1.5],[2.5,1.5],[2.5,2.5]],\"segments\":["
    "{\"type\":\"line\",\"start\":[1.5,1.5],\"end\":[2.5,1.5],\"heading\":0.0,\"length\":1.0,"
    "\"v_start\":0,\"v_end\":0,\"t_start\":0,\"duration\":1},"
    "{\"type\":\"turn\",\"start\":[2.5,1.5],\"end\":[2.5,1.5],\"start_heading\":0.0,\"sweep\":1.5707963267948966,"
    "\"length\":0,\"v_start\":0,\"v_end\":0,\"t_start\":1,\"duration\":1},"
    "{\"type\":\"line\",\"start\":[2.5,1.5],\"end\":[2.5,2.5],\"heading\":1.5707963267948966,\"length\":1.0,"
    "\"v_start\":0,\"v_end\":0,\"t_start\":2,\"duration\":1}],"
    "\"stats\":{\"expanded\":3}}";

START_TEST(turn_on_the_spot_draws)
{
    ap_render_answer a;
    ap_wire_error err;
    ck_assert_int_eq(parse(TURN_ANSWER, &a, &err), AP_OK);
    ck_assert_uint_eq(a.n_segs, 3);
    ck_assert_int_eq(a.segs[1].type, AP_SEG_TURN);
    ck_assert_double_eq(a.segs[1].sweep, 1.5707963267948966);
    ck_assert_double_eq(a.segs[1].length, 0.0);
    ap_render_marker g = ap_render_marker_of(&a, true, 1.0 / 32);
    ck_assert_double_eq_tol(g.heading, M_PI / 2, 1e-15);
    ap_render_answer_free(&a);
    bad_answer_of(TURN_ANSWER, "\"end\":[2.5,1.5],\"start_heading\"", "\"end\":[2.5,1.6],\"start_heading\"", "answer.segments[1].end");
    bad_answer_of(TURN_ANSWER, "\"length\":0,", "\"length\":0.5,", "answer.segments[1].length");
    bad_answer_of(TURN_ANSWER, "\"sweep\":1.5707963267948966,", "\"sweep\":1.5707963267948966,\"radius\":1,", "answer.segments[1].radius");
    bad_answer_of(TURN_ANSWER, "\"start_heading\":0.0,\"sweep\"", "\"sweep\"", "answer.segments[1].start_heading");

    ap_map *m = tiny_map();
    ap_render_opts o = {.radius = 0.0, .algorithm = "kinodynamic"};
    size_t len = 0;
    char *svg = draw(m, TURN_ANSWER, &o, AP_OK, &len);
    ck_assert_ptr_nonnull(strstr(svg, "<path d=\"M1.5 1.5L2.5 1.5L2.5 1.5L2.5 2.5\" stroke=\"#0969da\""));
    /* the goal arrow points down (+y) from (2.5, 2.5): heading pi/2 after the turn */
    ck_assert_ptr_nonnull(strstr(svg, "<path d=\"M2.5 2.5L2.5 3.3125"));
    free(svg);
    o.format = AP_RENDER_PNG;
    char *png = draw(m, TURN_ANSWER, &o, AP_OK, &len);
    ck_assert_uint_gt(len, 8);
    ck_assert_int_eq(memcmp(png, "\x89PNG\r\n\x1a\n", 8), 0);
    free(png);
    ap_map_free(m);
}
END_TEST

/* Render request bodies: the two forms, and their errors with the field at fault. */
START_TEST(request_parse)
{
    ap_render_request rq;
    ap_wire_error err;
    const char *q = "{\"query\":{\"map\":\"tiny\",\"start\":{\"x\":1.5,\"y\":1.5},\"goal\":{\"x\":5.5,\"y\":1.5},"
                    "\"unit\":{\"radius\":0.3}},\"view\":{\"x0\":1,\"y0\":1,\"x1\":7,\"y1\":4},\"format\":\"png\"}";
    ck_assert_int_eq(ap_render_parse_request(q, strlen(q), &rq, &err), AP_OK);
    ck_assert(rq.has_query);
    ck_assert_str_eq(rq.map, "tiny");
    ck_assert_double_eq(rq.opts.radius, 0.3);
    ck_assert_str_eq(rq.opts.algorithm, "auto");
    ck_assert_int_eq(rq.opts.format, AP_RENDER_PNG);
    ck_assert(rq.opts.has_view && rq.opts.x1 == 7.0 && rq.opts.y0 == 1.0);
    ap_render_request_free(&rq);

    static const struct {
        const char *body;
        int status;
        const char *field;
    } bad[] = {
        {"{\"query\":{\"map\":\"tiny\",\"start\":{\"x\":\"a\",\"y\":1},\"goal\":{\"x\":1,\"y\":1}}}", AP_E_INVALID_REQUEST,
         "query.start.x"},
        {"{\"query\":{\"map\":\"tiny\",\"goal\":{\"x\":1,\"y\":1}}}", AP_E_INVALID_REQUEST, "query.start"},
        {"{\"query\":[]}", AP_E_INVALID_REQUEST, "query"},
        {"{\"query\":{\"map\":\"tiny\",\"start\":{\"x\":1,\"y\":1},\"goal\":{\"x\":1,\"y\":1}},\"radius\":1}",
         AP_E_INVALID_REQUEST, "radius"},
        {"{\"map\":\"tiny\"}", AP_E_INVALID_REQUEST, "answer"},
        {"{\"answer\":{}}", AP_E_INVALID_REQUEST, "map"},
        {"{\"map\":\"other\",\"answer\":{\"status\":\"timeout\",\"map\":\"tiny\",\"stats\":{\"expanded\":1}}}",
         AP_E_INVALID_REQUEST, "answer.map"},
        {"{\"map\":\"tiny\",\"answer\":{\"status\":\"timeout\",\"map\":\"tiny\",\"stats\":{\"expanded\":1}},"
         "\"algorithm\":\"quick\"}", AP_E_INVALID_REQUEST, "algorithm"},
        {"{\"map\":\"tiny\",\"answer\":{\"status\":\"timeout\",\"map\":\"tiny\",\"stats\":{\"expanded\":1}},"
         "\"radius\":17}", AP_E_INVALID_REQUEST, "radius"},
        {"{\"map\":\"tiny\",\"answer\":{\"status\":\"timeout\",\"map\":\"tiny\",\"stats\":{\"expanded\":1}},"
         "\"view\":{\"x0\":2,\"y0\":0,\"x1\":2,\"y1\":1}}", AP_E_INVALID_REQUEST, "view.x1"},
        {"{\"map\":\"tiny\",\"answer\":{\"status\":\"timeout\",\"map\":\"tiny\",\"stats\":{\"expanded\":1}},"
         "\"view\":{\"x0\":-1,\"y0\":0,\"x1\":2,\"y1\":1}}", AP_E_INVALID_REQUEST, "view.x0"},
        /* slivers under one pixel (at 32 pixels a tile here): a PNG of width 0 was a 500 */
        {"{\"map\":\"tiny\",\"answer\":{\"status\":\"timeout\",\"map\":\"tiny\",\"stats\":{\"expanded\":1}},"
         "\"view\":{\"x0\":0,\"y0\":0,\"x1\":1e-11,\"y1\":10}}", AP_E_INVALID_REQUEST, "view.x1"},
        {"{\"map\":\"tiny\",\"answer\":{\"status\":\"timeout\",\"map\":\"tiny\",\"stats\":{\"expanded\":1}},"
         "\"view\":{\"x0\":5,\"y0\":5,\"x1\":6,\"y1\":5.03}}", AP_E_INVALID_REQUEST, "view.y1"},
        {"{\"map\":\"tiny\",\"answer\":{\"status\":\"timeout\",\"map\":\"tiny\",\"stats\":{\"expanded\":1}},"
         "\"format\":\"gif\"}", AP_E_INVALID_REQUEST, "format"},
        {"{\"map\":\"tiny\",\"pretty\":true}", AP_E_INVALID_REQUEST, "pretty"},
        {"{\"map\":", AP_E_INVALID_JSON, ""},
    };
    /* one pixel wide is a picture */
    const char *sliver = "{\"map\":\"tiny\",\"answer\":{\"status\":\"timeout\",\"map\":\"tiny\",\"stats\":"
                         "{\"expanded\":1}},\"view\":{\"x0\":2,\"y0\":0,\"x1\":2.03125,\"y1\":1}}";
    ck_assert_int_eq(ap_render_parse_request(sliver, strlen(sliver), &rq, &err), AP_OK);
    ap_render_request_free(&rq);
    /* so is one tile, less than a pixel at the scale of a view 4096 tiles long (0.25 pixels a tile): the whole
     * of a map 1 x 4096, which its picture without a view draws, was refused as a view */
    const char *thin[] = {"{\"map\":\"tiny\",\"answer\":{\"status\":\"timeout\",\"map\":\"tiny\",\"stats\":"
                          "{\"expanded\":1}},\"view\":{\"x0\":0,\"y0\":0,\"x1\":1,\"y1\":4096}}",
                          "{\"map\":\"tiny\",\"answer\":{\"status\":\"timeout\",\"map\":\"tiny\",\"stats\":"
                          "{\"expanded\":1}},\"view\":{\"x0\":0,\"y0\":0,\"x1\":4096,\"y1\":1}}"};
    for (size_t i = 0; i < 2; i++) {
        ck_assert_int_eq(ap_render_parse_request(thin[i], strlen(thin[i]), &rq, &err), AP_OK);
        ap_render_request_free(&rq);
    }
    /* a query's message names its field as the field does (it said "unit.radius" beside "query.unit.radius") */
    const char *big = "{\"query\":{\"map\":\"tiny\",\"start\":{\"x\":1,\"y\":1},\"goal\":{\"x\":2,\"y\":2},"
                      "\"unit\":{\"radius\":\"x\"}}}";
    ck_assert_int_eq(ap_render_parse_request(big, strlen(big), &rq, &err), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(err.field, "query.unit.radius");
    ck_assert_msg(strncmp(err.message, "\"query.unit.radius\" ", 20) == 0, "%s", err.message);
    /* below a tile there, under a pixel: refused, the message naming the least */
    const char *thinner = "{\"map\":\"tiny\",\"answer\":{\"status\":\"timeout\",\"map\":\"tiny\",\"stats\":"
                          "{\"expanded\":1}},\"view\":{\"x0\":0,\"y0\":0,\"x1\":0.999,\"y1\":4096}}";
    ck_assert_int_eq(ap_render_parse_request(thinner, strlen(thinner), &rq, &err), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(err.field, "view.x1");
    ck_assert_msg(strstr(err.message, "at least 1 tiles here") != NULL, "%s", err.message);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int st = ap_render_parse_request(bad[i].body, strlen(bad[i].body), &rq, &err);
        ck_assert_msg(st == bad[i].status && strcmp(err.field, bad[i].field) == 0, "%s: %d %s (%s), want %d %s",
                      bad[i].body, st, err.field, err.message, bad[i].status, bad[i].field);
    }
}
END_TEST

START_TEST(view_frame_and_caps)
{
    ap_map *m = tiny_map();
    ap_render_opts o = {.has_view = true, .x0 = 1, .y0 = 1, .x1 = 9, .y1 = 4};
    ap_wire_error err;
    ck_assert_int_eq(ap_render_check_view(m, &o, &err), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(err.field, "view.x1");
    o.x1 = 7, o.y1 = 5.5;
    ck_assert_int_eq(ap_render_check_view(m, &o, &err), AP_E_INVALID_REQUEST);
    ck_assert_str_eq(err.field, "view.y1");
    o.y1 = 4.5;
    ck_assert_int_eq(ap_render_check_view(m, &o, &err), AP_OK);
    ap_render_frame f;
    ap_render_frame_of(m, NULL, &o, &f);
    ck_assert_double_eq(f.scale, 32.0);
    ck_assert_int_eq(f.width_px, 192);
    ck_assert_int_eq(f.height_px, 112 + 18);
    ck_assert_int_eq(f.cx0, 1);
    ck_assert_int_eq(f.cy1, 5);
    /* a cropped picture: the viewBox is the view */
    size_t len = 0;
    char *svg = draw(m, NULL, &o, AP_OK, &len);
    ck_assert_ptr_nonnull(strstr(svg, "width=\"192\" height=\"130\" viewBox=\"1 1 6 4.0625\""));
    ck_assert_ptr_nonnull(strstr(svg, "<title>tiny 8\xc3\x97" "5</title>"));
    free(svg);
    /* over the byte cap: answer_too_large */
    o.has_view = false;
    o.max_bytes = 300;
    ck_assert_ptr_null(draw(m, NULL, &o, AP_E_ANSWER_TOO_LARGE, &len));
    o.format = AP_RENDER_PNG;
    ck_assert_ptr_null(draw(m, NULL, &o, AP_E_ANSWER_TOO_LARGE, &len));
    /* a big map's long side is 1024 px */
    ap_map big = *m;
    big.width = 4096, big.height = 2048;
    ap_render_frame_of(&big, NULL, NULL, &f);
    ck_assert_double_eq(f.scale, 0.25);
    ck_assert_int_eq(f.width_px, 1024);
    ck_assert_int_eq(f.height_px, 512 + 18);
    ck_assert_double_eq(f.width, 4096.0);
    /* a strip 2 tiles wide, 200 high (5.12 px a tile: 10.24 px): its caption "tiny 2x200" (10 characters)
     * needs 10 x 0.62 x 12 + 8 = 82.4 px, so the picture is 83 px wide, the map on its left (was 11 px, the
     * caption cut after its first letter) */
    static char strip_text[64 + 3 * 200];
    int at = snprintf(strip_text, sizeof strip_text, "type octile\nheight 200\nwidth 2\nmap\n");
    for (int y = 0; y < 200; y++)
        at += snprintf(strip_text + at, sizeof strip_text - (size_t)at, "..\n");
    ap_map *sm = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("tiny", "tiny", strip_text, (size_t)at, NULL, &sm, &d), AP_OK);
    ap_map strip = *sm; /* (a copy whose id the last checks change; its cells are sm's) */
    ap_render_frame_of(&strip, NULL, NULL, &f);
    ck_assert_double_eq(f.scale, 5.12);
    ck_assert_double_eq_tol(f.width, 82.4 / 5.12, 1e-12);
    ck_assert_int_eq(f.width_px, 83);
    ck_assert_double_eq(f.x1, 2.0);
    o = (ap_render_opts){0};
    char *svg2 = draw(&strip, NULL, &o, AP_OK, &len);
    ck_assert_ptr_nonnull(strstr(svg2, "width=\"83\" height=\"1042\" viewBox=\"0 0 16.0938 203.5156\""));
    ck_assert_ptr_nonnull(strstr(svg2, "<rect x=\"2\" y=\"0\" width=\"14.0938\" height=\"200\" fill=\"#ffffff\"/>"));
    free(svg2);
    /* the longest id (63 characters): "<id> 2x200" needs 69 x 0.62 x 12 + 8 = 521.36 px; with a long algorithm
     * name and a long length, 141 characters would need 1,057 px: the picture stops at 1,024, the caption cut */
    memset(strip.id, 'x', sizeof strip.id - 1);
    strip.id[sizeof strip.id - 1] = '\0';
    ap_render_frame_of(&strip, NULL, NULL, &f);
    ck_assert_int_eq(f.width_px, 522);
    ap_render_answer lengthy = {.status = AP_OK, .length = 1e15, .clear = false};
    o.algorithm = "an_algorithm_name_of_forty_seven_characters_xyz";
    ap_render_frame_of(&strip, &lengthy, &o, &f);
    ck_assert_int_eq(f.width_px, 1024);
    ap_map_free(sm);
    ap_map_free(m);
}
END_TEST

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

START_TEST(png_header)
{
    ap_map *m = tiny_map();
    ap_render_opts o = {.format = AP_RENDER_PNG, .radius = 0.25};
    size_t len = 0;
    unsigned char *png = (unsigned char *)draw(m, ANSWER, &o, AP_OK, &len);
    ck_assert_uint_gt(len, 33);
    ck_assert_mem_eq(png, "\x89PNG\r\n\x1a\n", 8);
    ck_assert_mem_eq(png + 12, "IHDR", 4);
    ck_assert_uint_eq(be32(png + 16), 256);
    ck_assert_uint_eq(be32(png + 20), 178);
    free(png);
    ap_map_free(m);
}
END_TEST

/* The PNG's pixel (x, y) as 0xRRGGBB: png decoded by cairo. */
typedef struct png_src {
    const unsigned char *p;
    size_t len, at;
} png_src;

static cairo_status_t png_read(void *closure, unsigned char *data, unsigned int length)
{
    png_src *src = closure;
    if (src->len - src->at < length)
        return CAIRO_STATUS_READ_ERROR;
    memcpy(data, src->p + src->at, length);
    src->at += length;
    return CAIRO_STATUS_SUCCESS;
}

static uint32_t png_pixel(const unsigned char *png, size_t len, int x, int y)
{
    png_src src = {png, len, 0};
    cairo_surface_t *s = cairo_image_surface_create_from_png_stream(png_read, &src);
    ck_assert_int_eq(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    const unsigned char *row = cairo_image_surface_get_data(s) + (size_t)y * (size_t)cairo_image_surface_get_stride(s);
    uint32_t v;
    memcpy(&v, row + 4 * x, 4);
    cairo_surface_destroy(s);
    return v & 0xffffffu;
}

/* Geometry far from the view is drawn where it crosses the view: cairo keeps device coordinates in 24.8
 * fixed point, and a stored answer's line reaching 300,000 tiles (9.6e6 pixels at 32 a tile, past 2^23)
 * was dropped whole from the PNG while the SVG drew it (a helper); so was an arc of radius 500,000 through
 * the view. Both now cross the tiny map's row 1 in the path's blue. */
START_TEST(png_far_geometry)
{
    ap_map *m = tiny_map();
    ap_render_opts o = {.format = AP_RENDER_PNG};
    char ans[1024];
    const double X = 300000.0, R = 500000.0, w = 10.0 / R;
    snprintf(ans, sizeof ans,
             "{\"status\":\"ok\",\"map\":\"tiny\",\"grid_cost\":%.17g,\"length\":%.17g,\"clear\":true,"
             "\"waypoints\":[[1.5,1.5],[%.17g,1.5]],\"segments\":[{\"type\":\"line\",\"start\":[1.5,1.5],"
             "\"end\":[%.17g,1.5],\"heading\":0.0,\"length\":%.17g}],\"stats\":{\"expanded\":1}}",
             X - 1.5, X - 1.5, X, X, X - 1.5);
    size_t len = 0;
    unsigned char *png = (unsigned char *)draw(m, ans, &o, AP_OK, &len);
    for (int x = 130; x <= 250; x += 30)
        ck_assert_msg(png_pixel(png, len, x, 48) == 0x0969da, "line: pixel (%d, 48) is %06x", x, png_pixel(png, len, x, 48));
    free(png);
    /* the arc: from (1.5, 1.5) facing +x about (1.5, 1.5 + R), 10 tiles of it */
    const double ex = 1.5 + R * sin(w), ey = 1.5 + R - R * cos(w);
    snprintf(ans, sizeof ans,
             "{\"status\":\"ok\",\"map\":\"tiny\",\"grid_cost\":10,\"length\":10,\"clear\":true,"
             "\"waypoints\":[[1.5,1.5],[%.17g,%.17g]],\"segments\":[{\"type\":\"arc\",\"start\":[1.5,1.5],"
             "\"end\":[%.17g,%.17g],\"center\":[1.5,%.17g],\"radius\":%.17g,\"start_heading\":0.0,"
             "\"sweep\":%.17g,\"length\":10}],\"stats\":{\"expanded\":1}}",
             ex, ey, ex, ey, 1.5 + R, R, w);
    png = (unsigned char *)draw(m, ans, &o, AP_OK, &len);
    for (int x = 130; x <= 250; x += 30)
        ck_assert_msg(png_pixel(png, len, x, 48) == 0x0969da, "arc: pixel (%d, 48) is %06x", x, png_pixel(png, len, x, 48));
    free(png);
    ap_map_free(m);
}
END_TEST

/* Terrain runs merge equal neighbours of a row; T and W are tinted when the map's costs open them. */
START_TEST(terrain_runs_and_colours)
{
    ap_map *m = tiny_map();
    ck_assert_int_eq(ap_render_terrain_of(m, 0, 0), 6);
    ck_assert_int_eq(ap_render_terrain_of(m, 3, 2), 2);
    ck_assert_int_eq(ap_render_terrain_of(m, 4, 3), 1);
    ck_assert_int_eq(ap_render_terrain_of(m, 1, 1), 0);
    m->cost_of[3] = 2.0;
    ck_assert_int_eq(ap_render_terrain_of(m, 3, 2), 3);
    ap_render_frame f;
    ap_render_frame_of(m, NULL, NULL, &f);
    ck_assert_int_eq(ap_render_dominant_terrain(m, &f), 6); /* 22 border cells of 40 */
    ap_map_free(m);
}
END_TEST

Suite *render_suite(void)
{
    Suite *s = suite_create("proto/render");
    TCase *tc = tcase_create("render");
    tcase_add_test(tc, svg_exact);
    tcase_add_test(tc, svg_arc_flags);
    tcase_add_test(tc, answer_parse_strict);
    tcase_add_test(tc, turn_on_the_spot_draws);
    tcase_add_test(tc, request_parse);
    tcase_add_test(tc, view_frame_and_caps);
    tcase_add_test(tc, png_header);
    tcase_add_test(tc, png_far_geometry);
    tcase_add_test(tc, terrain_runs_and_colours);
    suite_add_tcase(s, tc);
    return s;
}
