/* test_map.c — map parsing, strict validation with line/column diagnostics, region table. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../../planner/world/capability.h"
#include "../../../planner/world/map.h"
#include "../../../planner/grid/jps_sized.h"
#include "../../../planner/world/tables.h"
#include "../../../planner/base/status.h"
#include "../../util.h"
#include "../suites.h"

#define HDR "type octile\nheight 3\nwidth 4\nmap\n"

static int parse_lim(const char *text, const ap_map_opts *lim, ap_diag *d, ap_map **m)
{
    memset(d, 0, sizeof *d);
    return ap_map_parse("t", "label.map", text, strlen(text), lim, m, d);
}

START_TEST(valid_small)
{
    ap_map *m;
    ap_diag d;
    ck_assert_int_eq(parse_lim(HDR "....\n.@@.\nGSTW\n", NULL, &d, &m), AP_OK);
    ck_assert_int_eq(m->width, 4);
    ck_assert_int_eq(m->height, 3);
    ck_assert_int_eq(m->stride, 6);
    ck_assert_int_eq(m->passable_cells, 8);
    ck_assert(ap_map_passable(m, 0, 2));  /* G */
    ck_assert(ap_map_passable(m, 1, 2));  /* S */
    ck_assert(!ap_map_passable(m, 2, 2)); /* T */
    ck_assert(!ap_map_passable(m, 3, 2)); /* W */
    ck_assert(!ap_map_passable(m, 1, 1)); /* @ */
    ck_assert(!ap_map_passable(m, -1, 0));
    ck_assert(!ap_map_passable(m, 4, 0));
    ck_assert_int_eq(m->terrain[2 * 4 + 3], 'W');
    ck_assert_str_eq(m->id, "t");
    /* the padded border is blocked */
    for (int32_t x = -1; x <= 4; x++) {
        ck_assert_int_eq(m->pass[ap_map_index(m, x, -1)], 0);
        ck_assert_int_eq(m->pass[ap_map_index(m, x, 3)], 0);
    }
    ck_assert_uint_eq(ap_map_node_count(m), 6 * 5);
    const ap_map_table *rt = ap_map_find_table(m, "region");
    ck_assert_uint_eq(rt->bytes, 6 * 5 * sizeof(uint32_t));
    ck_assert(m->load_seconds >= 0.0 && rt->build_seconds >= 0.0);
    ap_map_free(m);
}
END_TEST

START_TEST(crlf_and_no_final_newline)
{
    ap_map *m;
    ap_diag d;
    ck_assert_int_eq(parse_lim("type octile\r\nheight 3\r\nwidth 4\r\nmap\r\n....\r\n.@@.\r\nGSTW\r\n", NULL, &d, &m),
                     AP_OK);
    ck_assert_int_eq(m->passable_cells, 8);
    ap_map_free(m);
    ck_assert_int_eq(parse_lim(HDR "....\n.@@.\nGSTW", NULL, &d, &m), AP_OK);
    ck_assert_int_eq(m->passable_cells, 8);
    ap_map_free(m);
    ck_assert_int_eq(parse_lim("type octile\r\nheight 3\r\nwidth 4\r\nmap\r\n....\r\n.@@.\r\nGSTW", NULL, &d, &m),
                     AP_OK);
    ap_map_free(m);
    /* trailing blank lines are tolerated, spaces and tabs on them too (they were "more rows than height") */
    ck_assert_int_eq(parse_lim(HDR "....\n.@@.\nGSTW\n\n\r\n", NULL, &d, &m), AP_OK);
    ap_map_free(m);
    ck_assert_int_eq(parse_lim(HDR "....\n.@@.\nGSTW\n   \n\t\r\n \t", NULL, &d, &m), AP_OK);
    ap_map_free(m);
    ck_assert_int_eq(parse_lim(HDR "....\n.@@.\nGSTW\n  .\n", NULL, &d, &m), AP_E_MAP_FORMAT);
    ck_assert_int_eq(d.line, 8);
}
END_TEST

typedef struct bad_case {
    const char *text;
    int status, line, col;
} bad_case;

static const bad_case bad_cases[] = {
    {"", AP_E_MAP_FORMAT, 1, 1},
    {"type octil\nheight 3\nwidth 4\nmap\n....\n....\n....\n", AP_E_MAP_FORMAT, 1, 1},
    {"type octile \nheight 3\nwidth 4\nmap\n", AP_E_MAP_FORMAT, 1, 1},
    {"type octile\n", AP_E_MAP_FORMAT, 2, 1},
    {"type octile\nwidth 4\nheight 3\nmap\n", AP_E_MAP_FORMAT, 2, 1},
    {"type octile\nheight x\nwidth 4\nmap\n", AP_E_MAP_FORMAT, 2, 8},
    {"type octile\nheight 3x\nwidth 4\nmap\n", AP_E_MAP_FORMAT, 2, 9},
    {"type octile\nheight -3\nwidth 4\nmap\n", AP_E_MAP_FORMAT, 2, 8},
    {"type octile\nheight 0\nwidth 4\nmap\n", AP_E_MAP_FORMAT, 2, 8},
    {"type octile\nheight \nwidth 4\nmap\n", AP_E_MAP_FORMAT, 2, 8},
    {"type octile\nheight 3 \nwidth 4\nmap\n", AP_E_MAP_FORMAT, 2, 9},
    {"type octile\nheight 99999999999\nwidth 4\nmap\n", AP_E_MAP_TOO_LARGE, 2, 8},
    {"type octile\nheight 3\nwidth 0\nmap\n", AP_E_MAP_FORMAT, 3, 7},
    {"type octile\nheight 3\nwidth four\nmap\n", AP_E_MAP_FORMAT, 3, 7},
    {"type octile\nheight 3\nwidth 4097\nmap\n", AP_E_MAP_TOO_LARGE, 3, 7},
    {"type octile\nheight 4097\nwidth 4\nmap\n", AP_E_MAP_TOO_LARGE, 2, 8},
    {"type octile\nheight 3\nwidth 4\nmapx\n....\n....\n....\n", AP_E_MAP_FORMAT, 4, 1},
    {"type octile\nheight 3\nwidth 4\n", AP_E_MAP_FORMAT, 4, 1},
    {HDR "....\n..X.\n....\n", AP_E_MAP_FORMAT, 6, 3},
    {HDR "....\n....\n...\xff\n", AP_E_MAP_FORMAT, 7, 4},
    {HDR "....\n..\r.\n....\n", AP_E_MAP_FORMAT, 6, 3},
    {HDR "....\n...\n....\n", AP_E_MAP_FORMAT, 6, 4},
    {HDR "....\n.....\n....\n", AP_E_MAP_FORMAT, 6, 5},
    {HDR "....\n\n....\n", AP_E_MAP_FORMAT, 6, 1},
    {HDR "....\n....\n", AP_E_MAP_FORMAT, 7, 1},
    {HDR "....\n....", AP_E_MAP_FORMAT, 7, 1},
    {HDR "....\n....\n....\n....\n", AP_E_MAP_FORMAT, 8, 1},
    {HDR "....\n....\n....\n\n@\n", AP_E_MAP_FORMAT, 9, 1},
    {"type octile\r\nheight 3\r\nwidth 4\r\nmap\r\n....\r\n...\r\n....\r\n", AP_E_MAP_FORMAT, 6, 4},
};

START_TEST(malformed)
{
    const bad_case *c = &bad_cases[_i];
    ap_map *m = (ap_map *)1;
    ap_diag d;
    int st = parse_lim(c->text, NULL, &d, &m);
    ck_assert_msg(st == c->status && d.line == c->line && d.col == c->col,
                  "case %d: got %s at %d:%d (%s), want %s at %d:%d", _i, ap_status_name(st), d.line, d.col, d.msg,
                  ap_status_name(c->status), c->line, c->col);
    ck_assert_ptr_null(m);
    ck_assert_str_eq(d.file, "label.map");
    ck_assert(strlen(d.msg) > 0);
}
END_TEST

START_TEST(limits)
{
    ap_map *m;
    ap_diag d;
    ap_map_opts lim = {.max_width = 3};
    ck_assert_int_eq(parse_lim(HDR "....\n....\n....\n", &lim, &d, &m), AP_E_MAP_TOO_LARGE);
    ck_assert_int_eq(d.line, 3);
    ck_assert_int_eq(d.col, 7);
    lim = (ap_map_opts){.max_height = 2};
    ck_assert_int_eq(parse_lim(HDR "....\n....\n....\n", &lim, &d, &m), AP_E_MAP_TOO_LARGE);
    ck_assert_int_eq(d.line, 2);
    ck_assert_int_eq(d.col, 8);
    lim = (ap_map_opts){.max_cells = 11};
    ck_assert_int_eq(parse_lim(HDR "....\n....\n....\n", &lim, &d, &m), AP_E_MAP_TOO_LARGE);
    ck_assert_int_eq(d.line, 3);
    lim = (ap_map_opts){.max_cells = 12};
    ck_assert_int_eq(parse_lim(HDR "....\n....\n....\n", &lim, &d, &m), AP_OK);
    ap_map_free(m);
    /* With limits raised to the type's maximum, the padded grid would overflow 32-bit node ids. */
    lim = (ap_map_opts){.max_width = INT32_MAX, .max_height = INT32_MAX, .max_cells = INT64_MAX};
    ck_assert_int_eq(parse_lim("type octile\nheight 2000000000\nwidth 2000000000\nmap\n", &lim, &d, &m),
                     AP_E_MAP_TOO_LARGE);
    ck_assert_int_eq(d.line, 3);
    ck_assert_int_eq(d.col, 7);
    ck_assert_int_eq(parse_lim("type octile\nheight 2147483647\nwidth 2147483647\nmap\n", &lim, &d, &m),
                     AP_E_MAP_TOO_LARGE);
}
END_TEST

START_TEST(bad_ids)
{
    ap_map *m;
    ap_diag d;
    const char *text = HDR "....\n....\n....\n";
    ck_assert_int_eq(ap_map_parse("a/b", "x", text, strlen(text), NULL, &m, &d), AP_E_MAP_FORMAT);
    ck_assert_int_eq(ap_map_parse("", "x", text, strlen(text), NULL, &m, &d), AP_E_MAP_FORMAT);
    ck_assert_int_eq(ap_map_parse("sp ace", "x", text, strlen(text), NULL, &m, &d), AP_E_MAP_FORMAT);
    char longid[80];
    memset(longid, 'a', 64);
    longid[64] = '\0';
    ck_assert_int_eq(ap_map_parse(longid, "x", text, strlen(text), NULL, &m, &d), AP_E_MAP_FORMAT);
    longid[63] = '\0';
    ck_assert_int_eq(ap_map_parse(longid, "x", text, strlen(text), NULL, &m, &d), AP_OK);
    ck_assert_str_eq(m->id, longid);
    ap_map_free(m);
    ck_assert_int_eq(ap_map_parse("Ok_id-1.v2", "x", text, strlen(text), NULL, &m, &d), AP_OK);
    ap_map_free(m);
}
END_TEST

/* text written to the file path and read from it (ap_map_load) and as a buffer (ap_map_parse): both refuse it
 * alike, saying the header does not end within its window; *d gets the file's diagnosis. */
static void header_too_long_both_ways(const char *path, const char *text, ap_diag *d)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    ap_map *m = NULL;
    ap_diag d2;
    ck_assert_int_eq(ap_map_load(path, NULL, &m, d), AP_E_MAP_FORMAT);
    ck_assert_int_eq(ap_map_parse("edge", "edge.map", text, strlen(text), NULL, &m, &d2), AP_E_MAP_FORMAT);
    ck_assert_str_eq(d2.msg, d->msg);
    ck_assert_msg(strstr(d->msg, "the header must end within the first 4096 bytes") != NULL, "%s", d->msg);
}

/* The loader reads the header first: a file larger than its header allows (here a sparse 1 GiB file
 * behind a valid 4 x 3 header, and one behind a header above the limits) is refused before its size is
 * allocated, and costs no memory; special files named *.map are reported, and a FIFO does not block. */
START_TEST(load_checks_header_and_size_first)
{
    char dir[] = "/tmp/aptest-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char big[256], huge[256], fifo[256], sub[256], edge[256];
    snprintf(big, sizeof big, "%s/big.map", dir);
    snprintf(huge, sizeof huge, "%s/huge.map", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo.map", dir);
    snprintf(sub, sizeof sub, "%s/sub.map", dir);
    snprintf(edge, sizeof edge, "%s/edge.map", dir);
    FILE *f = fopen(big, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(HDR "....\n.@@.\nGSTW\n", f);
    fclose(f);
    ck_assert_int_eq(truncate(big, 1LL << 30), 0);
    f = fopen(huge, "wb");
    ck_assert_ptr_nonnull(f);
    fputs("type octile\nheight 5000\nwidth 5000\nmap\n", f);
    fclose(f);
    ck_assert_int_eq(truncate(huge, 1LL << 30), 0);
    struct rusage ru0, ru1;
    getrusage(RUSAGE_SELF, &ru0);
    ap_map *m = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_load(big, NULL, &m, &d), AP_E_MAP_TOO_LARGE);
    ck_assert_ptr_null(m);
    ck_assert_msg(strstr(d.msg, "file has 1073741824 bytes; a 4 x 3 map has at most") != NULL, "%s", d.msg);
    ck_assert_int_eq(ap_map_load(huge, NULL, &m, &d), AP_E_MAP_TOO_LARGE);
    ck_assert_str_eq(d.msg, "height 5000 above the limit 4096");
    ck_assert_int_eq(d.line, 2);
    getrusage(RUSAGE_SELF, &ru1);
    ck_assert_msg(ru1.ru_maxrss - ru0.ru_maxrss < 64 * 1024, "max RSS grew by %ld KiB", ru1.ru_maxrss - ru0.ru_maxrss);
    /* At the bound: the largest file a 4 x 3 map may be (CRLF rows, then 64 KiB of blank lines) loads. */
    f = fopen(edge, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(HDR "....\r\n.@@.\r\nGSTW\r\n", f);
    for (int k = 0; k < AP_MAP_TRAILING_MAX; k++)
        fputc('\n', f);
    fclose(f);
    ck_assert_int_eq(ap_map_load(edge, NULL, &m, &d), AP_OK);
    ck_assert_int_eq(m->passable_cells, 8);
    ap_map_free(m);
    m = NULL;
    f = fopen(edge, "ab");
    fputc('\n', f);
    fclose(f);
    ck_assert_int_eq(ap_map_load(edge, NULL, &m, &d), AP_E_MAP_TOO_LARGE);
    /* the same bytes as a buffer (PUT): refused alike (an upload took any number of blank lines) */
    size_t elen = 0;
    char *etext = ap_test_read_file(edge, &elen);
    ck_assert_ptr_nonnull(etext);
    ap_diag d3;
    ck_assert_int_eq(ap_map_parse("edge", "edge.map", etext, elen, NULL, &m, &d3), AP_E_MAP_TOO_LARGE);
    ck_assert_str_eq(d3.msg, d.msg);
    ck_assert_ptr_null(m);
    free(etext);
    /* A header padded past AP_MAP_HEADER_READ bytes (height 000...0002) is refused from a buffer (PUT) as from
     * a file (an upload was taken while the same file was refused); one that just ends inside them is read. */
    for (int over = 0; over <= 1; over++) {
        const char *tail = "2\nwidth 3\nmap\n";
        size_t zeros = AP_MAP_HEADER_READ - strlen("type octile\nheight ") - strlen(tail) + (size_t)over;
        size_t cap = AP_MAP_HEADER_READ + 64;
        char *text = malloc(cap);
        ck_assert_ptr_nonnull(text);
        int k = snprintf(text, cap, "type octile\nheight ");
        memset(text + k, '0', zeros);
        snprintf(text + k + zeros, cap - (size_t)k - zeros, "%s...\n...\n", tail);
        ck_assert_uint_eq(strstr(text, "map\n") + 4 - text, AP_MAP_HEADER_READ + (size_t)over);
        f = fopen(edge, "wb");
        fputs(text, f);
        fclose(f);
        ap_diag d2;
        int from_file = ap_map_load(edge, NULL, &m, &d);
        if (m != NULL)
            ap_map_free(m);
        m = NULL;
        int from_buffer = ap_map_parse("edge", "edge.map", text, strlen(text), NULL, &m, &d2);
        ck_assert_int_eq(from_file, over ? AP_E_MAP_FORMAT : AP_OK);
        ck_assert_int_eq(from_buffer, from_file);
        if (over)
            ck_assert_str_eq(d2.msg, d.msg);
        else
            ck_assert_int_eq(m->height, 2);
        ap_map_free(m);
        m = NULL;
        free(text);
    }
    /* Padded so far that the window cuts the height's own zeros: the header is said to be too long (it was
     * "expected 'height N' with N a positive integer", its N being 3), from a file and a buffer alike. */
    {
        size_t cap = AP_MAP_HEADER_READ + 256;
        char *text = malloc(cap);
        ck_assert_ptr_nonnull(text);
        int k = snprintf(text, cap, "type octile\nheight ");
        memset(text + k, '0', AP_MAP_HEADER_READ + 100);
        snprintf(text + k + AP_MAP_HEADER_READ + 100, cap - (size_t)k - AP_MAP_HEADER_READ - 100, "3\nwidth 4\nmap\n....\n....\n....\n");
        header_too_long_both_ways(edge, text, &d);
        ck_assert_int_eq(d.line, 2);
        free(text);
    }
    /* ... and one whose height line ends on the window's last byte, the width beyond it (it was "expected
     * 'width N', found end of file") */
    {
        const char *tail = "2\nwidth 3\nmap\n...\n...\n";
        size_t cap = AP_MAP_HEADER_READ + 64, pre = strlen("type octile\nheight ");
        char *text = malloc(cap);
        ck_assert_ptr_nonnull(text);
        memcpy(text, "type octile\nheight ", pre);
        memset(text + pre, '0', AP_MAP_HEADER_READ - pre - 2);
        snprintf(text + AP_MAP_HEADER_READ - 2, cap - AP_MAP_HEADER_READ + 2, "%s", tail);
        ck_assert_int_eq(text[AP_MAP_HEADER_READ - 1], '\n');
        header_too_long_both_ways(edge, text, &d);
        free(text);
    }
    /* special files */
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(ap_map_load(fifo, NULL, &m, &d), AP_E_IO);
    ck_assert_str_eq(d.msg, "not a regular file (a FIFO)");
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    ck_assert_int_eq(ap_map_load(sub, NULL, &m, &d), AP_E_IO);
    ck_assert_str_eq(d.msg, "not a regular file (a directory)");
    ck_assert_ptr_null(m);
    unlink(big);
    unlink(huge);
    unlink(fifo);
    unlink(edge);
    rmdir(sub);
    rmdir(dir);
}
END_TEST

/* A body too short for the rows its header claims is refused before the map's arrays are allocated: an
 * upload of "height 32768 / width 32768" over an empty body reserved 2 GiB of address space for its 400. The
 * same message as a longer truncated file's; a child process under an address-space limit 256 MiB above its
 * own size proves nothing of the claimed size was allocated (not under a sanitizer, whose shadow memory
 * needs terabytes of address space). */
START_TEST(short_body_is_refused_before_allocating)
{
    ap_map_opts lim = {.max_width = 65536, .max_height = 65536, .max_cells = 1LL << 30};
    const char *cases[][2] = {
        {"type octile\nheight 32768\nwidth 32768\nmap\n", "expected 32768 rows, found 0"},
        {"type octile\nheight 32768\nwidth 32768\nmap\n@@@\n", "row has 3 characters, expected 32768"},
        {"type octile\nheight 32768\nwidth 32768\nmap\n@@x", "unknown terrain character 'x'"},
        {"type octile\nheight 3\nwidth 2\nmap\n..\n..\n.", "row has 1 characters, expected 2"},
        {"type octile\nheight 3\nwidth 2\nmap\n..\n..", "expected 3 rows, found 2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ap_map *m = NULL;
        ap_diag d;
        ck_assert_int_eq(ap_map_parse("big", "big.map", cases[i][0], strlen(cases[i][0]), &lim, &m, &d),
                         AP_E_MAP_FORMAT);
        ck_assert_ptr_null(m);
        ck_assert_str_eq(d.msg, cases[i][1]);
    }
    /* the shortest body that holds the rows (no final newline) still loads */
    const char *fits = "type octile\nheight 3\nwidth 2\nmap\n..\n..\n..";
    ap_map *m = NULL;
    ap_diag d;
    ck_assert_int_eq(ap_map_parse("fits", "fits.map", fits, strlen(fits), &lim, &m, &d), AP_OK);
    ck_assert_int_eq(m->passable_cells, 6);
    ap_map_free(m);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        long pages = 0;
        FILE *f = fopen("/proc/self/statm", "r");
        if (f == NULL || fscanf(f, "%ld", &pages) != 1)
            _exit(3);
        fclose(f);
        struct rlimit rl;
        rl.rlim_cur = rl.rlim_max = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (256u << 20);
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(4);
        ap_map *cm = NULL;
        ap_diag cd;
        int rc = ap_map_parse("big", "big.map", cases[0][0], strlen(cases[0][0]), &lim, &cm, &cd);
        _exit(rc == AP_E_MAP_FORMAT && strcmp(cd.msg, cases[0][1]) == 0 ? 0 : rc == AP_E_NOMEM ? 1 : 2);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "child exit %d (1: out of memory: the arrays were allocated before the rows were read)",
                  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
#endif
}
END_TEST

START_TEST(load_file)
{
    char dir[] = "/tmp/aptest-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/small_1.map", dir);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(HDR "....\n.@@.\nGSTW\n", f);
    fclose(f);
    ap_map *m;
    ap_diag d;
    ck_assert_int_eq(ap_map_load(path, NULL, &m, &d), AP_OK);
    ck_assert_str_eq(m->id, "small_1");
    ck_assert_int_eq(m->passable_cells, 8);
    ap_map_free(m);
    char bad[256];
    snprintf(bad, sizeof bad, "%s/bad name.map", dir);
    f = fopen(bad, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(HDR "....\n", f);
    fclose(f);
    ck_assert_int_eq(ap_map_load(bad, NULL, &m, &d), AP_E_MAP_FORMAT);
    /* a malformed file reports its path as the label */
    char trunc[256];
    snprintf(trunc, sizeof trunc, "%s/trunc.map", dir);
    f = fopen(trunc, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(HDR "....\n", f);
    fclose(f);
    ck_assert_int_eq(ap_map_load(trunc, NULL, &m, &d), AP_E_MAP_FORMAT);
    ck_assert_str_eq(d.file, trunc);
    ck_assert_int_eq(d.line, 6);
    ck_assert_int_eq(d.col, 1);
    char missing[256];
    snprintf(missing, sizeof missing, "%s/missing.map", dir);
    ck_assert_int_eq(ap_map_load(missing, NULL, &m, &d), AP_E_IO);
    ck_assert_ptr_null(m);
    unlink(path);
    unlink(bad);
    unlink(trunc);
    rmdir(dir);
}
END_TEST

START_TEST(regions)
{
    /* A: the 2x2 block top left. B: the right side and bottom row. (2,2) touches A and B only diagonally with
     * both orthogonal cells blocked, so it is its own region; (0,4) is walled in. Ids follow row-major scan. */
    ap_map *m = ap_test_map_from_string("type octile\nheight 5\nwidth 5\nmap\n"
                                        "..@..\n"
                                        "..@..\n"
                                        "@@.@.\n"
                                        "@@@@.\n"
                                        ".@...\n");
    ck_assert_uint_eq(m->region_count, 4);
    const uint32_t *rg = m->region;
#define R(x, y) rg[ap_map_index(m, x, y)]
    ck_assert_uint_eq(R(0, 0), 1);
    ck_assert_uint_eq(R(1, 1), 1);
    ck_assert_uint_eq(R(0, 1), 1);
    ck_assert_uint_eq(R(3, 0), 2);
    ck_assert_uint_eq(R(4, 2), 2);
    ck_assert_uint_eq(R(2, 4), 2);
    ck_assert_uint_eq(R(2, 2), 3);
    ck_assert_uint_eq(R(0, 4), 4);
    ck_assert_uint_eq(R(2, 0), 0);
    ck_assert_uint_eq(R(-1, -1), 0);
#undef R
    ap_map_free(m);
}
END_TEST

/* Per-map tables come from the registered kinds (tables.h), in registration order; per-capability kinds
 * once per capability of the map (by default only {ground, swamp}, whose regions are the "region" table's
 * on a map where exactly '.', 'G' and 'S' are passable, so only its clearance gets a slot). */
START_TEST(registered_tables)
{
    size_t nk;
    const ap_table_kind *const *k = ap_table_kinds(&nk);
    ck_assert_uint_eq(nk, 9);
    ck_assert_str_eq(k[0]->name, "region");
    ck_assert_str_eq(k[0]->count_name, "regions");
    ck_assert_uint_eq(k[0]->flags, 0); /* required, every map */
    ck_assert_str_eq(k[1]->name, "jps_plus");
    ck_assert_str_eq(k[2]->name, "jps_bits");
    for (size_t i = 1; i < 3; i++)
        ck_assert_uint_eq(k[i]->flags, AP_TABLE_OPTIONAL | AP_TABLE_SKIPPABLE | AP_TABLE_UNIFORM);
    ck_assert_str_eq(k[3]->name, "region:<capability>");
    ck_assert_str_eq(k[3]->count_name, "regions");
    ck_assert_uint_eq(k[3]->flags, AP_TABLE_PER_CAPABILITY); /* required */
    ck_assert_str_eq(k[4]->name, "clearance:<capability>");
    ck_assert_ptr_null(k[4]->count_name);
    ck_assert_uint_eq(k[4]->flags, AP_TABLE_OPTIONAL | AP_TABLE_PER_CAPABILITY); /* not skippable: squares */
    ck_assert_str_eq(k[5]->name, "jps_sized");
    ck_assert_str_eq(k[5]->count_name, "thresholds");
    ck_assert_uint_eq(k[5]->flags, AP_TABLE_OPTIONAL | AP_TABLE_SKIPPABLE); /* filled on first use (jps_sized.h) */
    ck_assert_ptr_nonnull(k[5]->live);
    ck_assert_str_eq(k[6]->name, "any_angle");
    ck_assert_str_eq(k[6]->count_name, "corners");
    ck_assert_uint_eq(k[6]->flags, AP_TABLE_OPTIONAL | AP_TABLE_SKIPPABLE | AP_TABLE_UNIFORM);
    ck_assert_str_eq(k[7]->name, "view:<capability>");
    ck_assert_uint_eq(k[7]->flags, AP_TABLE_PER_CAPABILITY); /* required: the map as the capability sees it */
    ck_assert_str_eq(k[8]->name, "hier");
    ck_assert_str_eq(k[8]->count_name, "entrances");
    ck_assert_uint_eq(k[8]->flags, AP_TABLE_OPTIONAL | AP_TABLE_SKIPPABLE); /* the HAA* graph, after the clearance it reads */

    /* A uniform map: the three map-wide tables, the default capability's clearance (no view: the map is the
     * default capability's), the disc JPS slot (empty until a disc's first query) and the any-angle graph
     * (the wall's two convex corners at its ends); the region slot is what m->region points at, with its
     * count. */
    ap_map *m = ap_test_map_from_string(HDR "..@.\n..@.\n..@.\n");
    ck_assert_int_eq(m->n_tables, 7);
    ck_assert_str_eq(m->tables[6].name, "hier"); /* one cluster, no border: no entrance */
    ck_assert_uint_eq(m->tables[6].count, 0);
    ck_assert_str_eq(m->tables[3].name, "clearance:ground+swamp");
    ck_assert_str_eq(m->tables[4].name, "jps_sized");
    uint64_t thresholds = 99;
    ck_assert_uint_eq(k[5]->live(m->tables[4].data, &thresholds), m->tables[4].bytes);
    ck_assert_uint_eq(thresholds, 0);
    ck_assert_ptr_nonnull(ap_jps_sized_get(m, ap_clearance_of(m, 3), 200)); /* built now: counted from now on */
    ck_assert_uint_gt(k[5]->live(m->tables[4].data, &thresholds), m->tables[4].bytes + 24 * 4 * 7);
    ck_assert_uint_eq(thresholds, 1);
    ck_assert_str_eq(m->tables[5].name, "any_angle");
    ck_assert_uint_eq(m->tables[5].count, 0); /* the wall runs from edge to edge: no convex corner */
    ck_assert_ptr_nonnull(k[6]->live);
    ck_assert_uint_eq(m->tables[3].capability, 3);
    for (int i = 0; i < 3; i++) {
        ck_assert_str_eq(m->tables[i].name, k[i]->name);
        ck_assert_ptr_nonnull(m->tables[i].data);
        ck_assert_ptr_eq(m->tables[i].free_fn, k[i]->free_fn);
        ck_assert(m->tables[i].build_seconds >= 0.0);
    }
    ck_assert_ptr_eq(m->tables[0].data, m->region);
    ck_assert_uint_eq(m->tables[0].count, 2);
    ck_assert_uint_eq(m->region_count, 2);
    ck_assert_uint_eq(m->tables[0].bytes, 6 * 5 * sizeof(uint32_t));
    ck_assert_ptr_null(m->tables[1].count_name);
    /* JPS+: 8 int16 distances, 8 int8 copies and a forced-neighbour byte per padded cell, plus the header
     * (three pointers, the cell count padded, and the two counts behind the one-byte copy's rule). */
    ck_assert_uint_eq(m->tables[1].bytes, 3 * sizeof(void *) + 8 + 2 * sizeof(size_t) + 6 * 5 * 25);
    /* Building again adds the same seven slots until none is left (AP_MAP_MAX_TABLES is a multiple of
     * seven); then the required region kind fails with AP_E_INTERNAL and its name, and every slot built so
     * far stays with the map (freed below). */
    const char *failed = NULL;
    int st;
    while ((st = ap_map_build_tables(m, &failed)) == AP_OK)
        ck_assert_int_le(m->n_tables, AP_MAP_MAX_TABLES);
    ck_assert_int_eq(st, AP_E_INTERNAL);
    ck_assert_str_eq(failed, "region");
    ck_assert_int_eq(m->n_tables, AP_MAP_MAX_TABLES);
    ck_assert_int_eq(AP_MAP_MAX_TABLES % 7, 0);
    ck_assert_str_eq(m->tables[AP_MAP_MAX_TABLES - 2].name, "any_angle");
    ck_assert_str_eq(m->tables[AP_MAP_MAX_TABLES - 1].name, "hier");
    ap_map_free(m);

    /* A weighted map: the JPS kinds do not apply. */
    ap_terrain_costs swamp = {.map_id = "t", .cost = {0, 0, 2.0, 0, 0}};
    ap_map_opts o = {.terrain = &swamp, .n_terrain = 1};
    ap_diag d;
    ck_assert_int_eq(parse_lim(HDR "..S.\n....\n....\n", &o, &d, &m), AP_OK);
    ck_assert_int_eq(m->n_tables, 4);
    ck_assert_str_eq(m->tables[0].name, "region");
    ck_assert_str_eq(m->tables[1].name, "clearance:ground+swamp");
    ck_assert_str_eq(m->tables[2].name, "jps_sized"); /* a capability's view of a weighted map may be uniform */
    ck_assert_str_eq(m->tables[3].name, "hier"); /* HAA* serves weighted maps too (costs per move) */
    ap_map_free(m);

    /* An optional build that fails leaves no slot: 40000 columns do not fit JPS+'s int16 distances. */
    size_t w = 40000, len = 64 + w + 1;
    char *text = malloc(len);
    int at = snprintf(text, len, "type octile\nheight 1\nwidth %zu\nmap\n", w);
    memset(text + at, '.', w);
    text[at + (int)w] = '\0';
    ap_map_opts wide = {.max_width = (int32_t)w};
    ck_assert_int_eq(parse_lim(text, &wide, &d, &m), AP_OK);
    free(text);
    ck_assert_int_eq(m->n_tables, 6);
    ck_assert_str_eq(m->tables[5].name, "hier");
    ck_assert_str_eq(m->tables[0].name, "region");
    ck_assert_str_eq(m->tables[1].name, "jps_bits");
    ck_assert_str_eq(m->tables[2].name, "clearance:ground+swamp");
    ck_assert_str_eq(m->tables[3].name, "jps_sized"); /* empty; a disc's build there says too large */
    ck_assert_ptr_null(ap_jps_sized_get(m, ap_clearance_of(m, 3), 200));
    ck_assert_str_eq(m->tables[4].name, "any_angle");
    ck_assert_ptr_null(ap_map_find_table(m, "jps_plus"));
    ap_map_free(m);
}
END_TEST

START_TEST(status_names)
{
    ck_assert_str_eq(ap_status_name(AP_OK), "ok");
    ck_assert_str_eq(ap_status_name(AP_E_MAP_FORMAT), "map_format");
    ck_assert_str_eq(ap_status_name(AP_E_CONFIG), "config");
    ck_assert_str_eq(ap_status_name(-1), "unknown");
    ck_assert_str_eq(ap_status_name(AP_STATUS_COUNT), "unknown");
    for (int s = 0; s < AP_STATUS_COUNT; s++)
        ck_assert_str_ne(ap_status_name(s), "unknown");
}
END_TEST

START_TEST(all_data_maps_parse)
{
    const char *dir = ap_test_data_dir();
    if (dir == NULL) {
        ap_test_skip_no_data("map: all data maps parse");
        return;
    }
    char **names;
    size_t n = ap_test_list_maps(dir, &names);
    ck_assert_uint_gt(n, 0);
    /* Quick mode (make check's sanitizer pass) leaves out the any-angle graphs and HAA*'s, most of the load
     * time: that pass's integration tests load every map with every table in the sanitized arcpathd. */
    const ap_map_opts grid = ap_test_grid_opts();
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.map", dir, names[i]);
        ap_map *m;
        ap_diag d;
        int st = ap_map_load(path, ap_test_quick() ? &grid : NULL, &m, &d);
        ck_assert_msg(st == AP_OK, "%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
        ck_assert_str_eq(m->id, names[i]);
        ck_assert_int_gt(m->region_count, 0);
        ap_map_free(m);
        free(names[i]);
    }
    free(names);
}
END_TEST

/* Terrain costs (map.h): which rule applies, what becomes passable, the cost arrays, range errors. */
START_TEST(terrain_costs)
{
    const char *text = HDR "..SS\n.@W.\nGSTW\n";
    ap_map *m;
    ap_diag d;
    /* No rule: uniform; trees and water blocked; no cost arrays. */
    ck_assert_int_eq(parse_lim(text, NULL, &d, &m), AP_OK);
    ck_assert(!m->weighted && m->kind == NULL && m->cheap == NULL);
    ck_assert_int_eq(m->passable_cells, 8);
    ck_assert(ap_map_find_table(m, "jps_plus") != NULL);
    ap_map_free(m);

    /* The exact id wins over "*"; water gets a cost and becomes passable, trees stay blocked. */
    ap_terrain_costs rules[2] = {{.map_id = "*", .cost = {0, 0, 9.0, 0, 0}},
                                 {.map_id = "t", .cost = {0, 0, 3.0, 0, 5.5}}};
    ap_map_opts o = {.terrain = rules, .n_terrain = 2};
    ck_assert_ptr_eq(ap_map_terrain_rule(&o, "t"), &rules[1]);
    ck_assert_ptr_eq(ap_map_terrain_rule(&o, "other"), &rules[0]);
    ck_assert_ptr_null(ap_map_terrain_rule(NULL, "t"));
    ck_assert_int_eq(parse_lim(text, &o, &d, &m), AP_OK);
    ck_assert(m->weighted);
    ck_assert_int_eq(m->passable_cells, 10); /* + the two W cells */
    ck_assert(ap_map_passable(m, 2, 1) && ap_map_passable(m, 3, 2) && !ap_map_passable(m, 2, 2));
    ck_assert_double_eq(m->cost_min, 1.0);
    ck_assert_double_eq(m->cost_max, 5.5);
    ck_assert_double_eq(m->cost_of[2], 3.0);
    ck_assert_double_eq(m->cost_of[3], 0.0); /* T: blocked */
    uint32_t a = ap_map_index(m, 1, 0), b = ap_map_index(m, 2, 0), c = ap_map_index(m, 2, 1);
    ck_assert_int_eq(m->kind[b], 2);
    ck_assert_int_eq(m->kind[c], 4);
    ck_assert_int_eq(m->kind[ap_map_index(m, 1, 1)], 0xff); /* @ */
    ck_assert(m->cheap[a] && !m->cheap[b] && !m->cheap[c] && !m->cheap[ap_map_index(m, 1, 1)]);
    ck_assert_double_eq(ap_map_move_cost(m, a, b, 1.0), 2.0);            /* (1 + 3) / 2 */
    ck_assert_double_eq(ap_map_move_cost(m, b, c, M_SQRT2), M_SQRT2 * 4.25); /* (3 + 5.5) / 2 */
    ck_assert(ap_map_find_table(m, "jps_plus") == NULL);                 /* JPS is not valid here */
    ap_map_free(m);

    /* Costs of exactly 1 are not weighted: water is passable and JPS keeps its tables. */
    ap_terrain_costs one = {.map_id = "t", .cost = {0, 0, 0, 0, 1.0}};
    o = (ap_map_opts){.terrain = &one, .n_terrain = 1};
    ck_assert_int_eq(parse_lim(text, &o, &d, &m), AP_OK);
    ck_assert(!m->weighted && ap_map_passable(m, 2, 1));
    ck_assert(!m->pass_is_default_capability); /* open water: sized units cannot use ground+swamp tables */
    ck_assert(ap_map_find_table(m, "jps_plus") != NULL);
    ck_assert_double_eq(ap_map_move_cost(m, ap_map_index(m, 1, 0), ap_map_index(m, 2, 1), M_SQRT2), M_SQRT2);
    ap_map_free(m);

    /* A weighted terrain that is not on the map does not make it weighted. */
    ap_terrain_costs absent = {.map_id = "t", .cost = {0, 0, 0, 7.0, 0}};
    o = (ap_map_opts){.terrain = &absent, .n_terrain = 1};
    ck_assert_int_eq(parse_lim(HDR "....\n....\n....\n", &o, &d, &m), AP_OK);
    ck_assert(!m->weighted);
    ck_assert(m->pass_is_default_capability == ap_capability_is_map_pass(m, AP_CAP_DEFAULT));
    ck_assert(m->pass_is_default_capability);
    ap_map_free(m);

    /* Out of range: below 1, above the maximum, NaN. */
    const double bad[] = {0.5, AP_TERRAIN_COST_MAX * 2, NAN, -1.0};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ap_terrain_costs r = {.map_id = "t", .cost = {0, 0, bad[i], 0, 0}};
        o = (ap_map_opts){.terrain = &r, .n_terrain = 1};
        ck_assert_int_eq(parse_lim(text, &o, &d, &m), AP_E_MAP_FORMAT);
        ck_assert_ptr_null(m);
        ck_assert_msg(strstr(d.msg, "'S'") != NULL, "%s", d.msg);
    }
}
END_TEST

Suite *map_suite(void)
{
    Suite *s = suite_create("map");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, valid_small);
    tcase_add_test(tc, crlf_and_no_final_newline);
    tcase_add_loop_test(tc, malformed, 0, (int)(sizeof bad_cases / sizeof bad_cases[0]));
    tcase_add_test(tc, limits);
    tcase_add_test(tc, bad_ids);
    tcase_add_test(tc, load_file);
    tcase_add_test(tc, load_checks_header_and_size_first);
    tcase_add_test(tc, short_body_is_refused_before_allocating);
    tcase_add_test(tc, regions);
    tcase_add_test(tc, registered_tables);
    tcase_add_test(tc, terrain_costs);
    tcase_add_test(tc, status_names);
    suite_add_tcase(s, tc);
    TCase *td = tcase_create("data");
    tcase_set_timeout(td, 300);
    tcase_add_test(td, all_data_maps_parse);
    suite_add_tcase(s, td);
    return s;
}
