/* arcpath_bench.c — planner benchmark over a Moving AI scenario file.
 *
 *   arcpath-bench --map M.map --scen S.scen --alg astar|jps|jps_plus|auto|any_angle [--connectivity 8|4]
 *                 [--summary] [--walkable exact|sampled] [--radius R | --size K] [--table-stats]
 *                 [--terrain T=COST[,...]] [--full [--smoothing none|los|taut]] [--repeat K]
 *
 * --repeat K (search mode) runs each line K times and prints the fastest time: every line then measured
 * with warm caches, whatever the lines before it touched (a disc's lines between the ones it answers are
 * often unreachable searches that sweep a whole component: single runs then time cold caches, BENCHMARKS.md
 * "JPS and JPS+ for discs").
 *
 * --size K plans a square unit of K x K cells (unit.size) whose top-left cell is the scenario's start (goal)
 * cell: start and goal are the footprints' centres.
 *
 * --full times the whole answer as the service builds it (begin, steps, finish: smoothing "los" for the
 * grid algorithms, the path for any_angle; no samples) and prints the answer's length in the cost column:
 * how any_angle and auto compare side by side (BENCHMARKS.md "Any-angle"). --smoothing picks the grid
 * answers' smoothing there (default los).
 *
 * --terrain gives the map terrain costs (map.h: T one of . G S T W, COST in [1, 1000]), e.g. "S=3,W=6" on
 * battleground: the scenario file's optimum is then not the weighted one, so only the timings mean much.
 *
 * --table-stats prints one line on stderr per table built at map load: "table\tNAME\tbytes\tB\tbuild_ms\tMS
 * \tbytes_per_cell\tX" (cells = width x height), then the search matrix's bytes per cell.
 * Search mode (any --alg) prints one TSV row per scenario line: id (line number in the .scen), expanded, time_ns (begin +
 * search, one reused workspace), cost (-1 when no path / invalid), optimal (the listed length).
 * --walkable benchmarks Listing 1 smoothing of each A* path with the exact or the sampled Walkable and
 * prints id, raw and smoothed waypoint counts, time_ns of the smoothing, smoothed length, and whether every
 * smoothed segment passes the exact test (the sampled Walkable can cut corners).
 * --summary adds one line on stderr: median and mean µs and mean expansions (or waypoints).
 * Uses only planner/.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../planner/world/collide.h"
#include "../../planner/world/grid_world.h"
#include "../../planner/world/map.h"
#include "../../planner/plan/plan.h"
#include "../../planner/plan/plan_kind.h"
#include "../../planner/plan/smooth.h"

typedef struct scen_line {
    int line;
    int sx, sy, gx, gy;
    double optimal;
} scen_line;

static int load_scen(const char *path, scen_line **out, size_t *n)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    char buf[1024];
    size_t cap = 1024, cnt = 0;
    scen_line *v = malloc(cap * sizeof *v);
    int lineno = 0;
    while (v != NULL && fgets(buf, sizeof buf, f) != NULL) {
        lineno++;
        if (strncmp(buf, "version", 7) == 0)
            continue;
        int bucket, w, h;
        char map[512];
        scen_line s = {.line = lineno};
        if (sscanf(buf, "%d %511s %d %d %d %d %d %d %lf", &bucket, map, &w, &h, &s.sx, &s.sy, &s.gx, &s.gy,
                   &s.optimal) != 9)
            continue;
        if (cnt == cap) {
            cap *= 2;
            scen_line *nv = realloc(v, cap * sizeof *v);
            if (nv == NULL) {
                free(v);
                v = NULL;
                break;
            }
            v = nv;
        }
        v[cnt++] = s;
    }
    fclose(f);
    if (v == NULL)
        return -1;
    *out = v;
    *n = cnt;
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void usage(void)
{
    fprintf(stderr, "usage: arcpath-bench --map M.map --scen S.scen --alg astar|jps|jps_plus|auto|any_angle\n"
                    "                     [--connectivity 8|4] [--summary] [--walkable exact|sampled] [--radius R | --size K]\n"
                    "                     [--table-stats] [--full [--smoothing none|los|taut]]\n"
                    "                     [--terrain T=COST[,T=COST...]] [--repeat K]\n");
}

/* --terrain "S=3,W=6": terrain costs for the map (map.h; T one of . G S T W, COST in [1, 1000], which the
 * map loader checks). Returns 0, or -1 for a malformed list. */
static int parse_terrain(const char *spec, ap_terrain_costs *t)
{
    memset(t, 0, sizeof *t);
    snprintf(t->map_id, sizeof t->map_id, "*");
    const char *p = spec;
    while (*p != '\0') {
        const char *at = strchr(AP_TERRAIN_CHARS, *p);
        if (*p == '\0' || at == NULL || p[1] != '=')
            return -1;
        char *end;
        double c = strtod(p + 2, &end);
        if (end == p + 2 || (*end != ',' && *end != '\0'))
            return -1;
        t->cost[at - AP_TERRAIN_CHARS] = c;
        p = *end == ',' ? end + 1 : end;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *map_path = NULL, *scen_path = NULL, *alg = "astar", *walkable = NULL, *smoothing = "los";
    int connectivity = 8, summary = 0, table_stats = 0, full = 0, repeat = 1, opt;
    double radius = 0.0;
    int size = 0;
    ap_terrain_costs terrain;
    ap_map_opts opts = {0};
    static const struct option longopts[] = {{"map", required_argument, NULL, 'm'},
                                             {"scen", required_argument, NULL, 's'},
                                             {"alg", required_argument, NULL, 'a'},
                                             {"connectivity", required_argument, NULL, 'c'},
                                             {"walkable", required_argument, NULL, 'w'},
                                             {"radius", required_argument, NULL, 'r'},
                                             {"size", required_argument, NULL, 'z'},
                                             {"terrain", required_argument, NULL, 't'},
                                             {"summary", no_argument, NULL, 'S'},
                                             {"full", no_argument, NULL, 'F'},
                                             {"smoothing", required_argument, NULL, 'g'},
                                             {"table-stats", no_argument, NULL, 'T'},
                                             {"repeat", required_argument, NULL, 'R'},
                                             {NULL, 0, NULL, 0}};
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (opt) {
        case 'm':
            map_path = optarg;
            break;
        case 's':
            scen_path = optarg;
            break;
        case 'a':
            alg = optarg;
            break;
        case 'c':
            connectivity = atoi(optarg);
            break;
        case 'w':
            walkable = optarg;
            break;
        case 'r':
            radius = atof(optarg);
            break;
        case 'z':
            size = atoi(optarg);
            break;
        case 't':
            if (parse_terrain(optarg, &terrain) != 0) {
                usage();
                return 2;
            }
            opts.terrain = &terrain;
            opts.n_terrain = 1;
            break;
        case 'S':
            summary = 1;
            break;
        case 'F':
            full = 1;
            break;
        case 'g':
            smoothing = optarg;
            break;
        case 'T':
            table_stats = 1;
            break;
        case 'R':
            repeat = atoi(optarg);
            break;
        default:
            usage();
            return 2;
        }
    }
    if (optind != argc) {
        usage();
        return 2;
    }
    /* Grid algorithms from the planner's table (and auto, which is one for a unit without a turning radius). */
    const ap_algorithm_row *row = ap_algorithm_find(alg);
    ap_algorithm algorithm = AP_ALG_COUNT;
    if (row != NULL && (row->kind == &ap_plan_kind_grid || row->kind == &ap_plan_kind_auto ||
                        (full && row->kind == &ap_plan_kind_anyangle)))
        algorithm = row->id;
    if (map_path == NULL || scen_path == NULL || algorithm == AP_ALG_COUNT || repeat < 1 ||
        (connectivity != 4 && connectivity != 8) ||
        (walkable != NULL && strcmp(walkable, "exact") != 0 && strcmp(walkable, "sampled") != 0) ||
        (strcmp(smoothing, "none") != 0 && strcmp(smoothing, "los") != 0 && strcmp(smoothing, "taut") != 0)) {
        usage();
        return 2;
    }
    ap_map *m;
    ap_diag d;
    int st = ap_map_load(map_path, &opts, &m, &d);
    if (st != AP_OK) {
        fprintf(stderr, "%s:%d:%d: %s (%s)\n", d.file, d.line, d.col, d.msg, ap_status_name(st));
        return 1;
    }
    if (table_stats) {
        double cells = (double)m->width * (double)m->height;
        for (int i = 0; i < m->n_tables; i++)
            fprintf(stderr, "table\t%s\tbytes\t%zu\tbuild_ms\t%.3f\tbytes_per_cell\t%.2f\n", m->tables[i].name,
                    m->tables[i].bytes, m->tables[i].build_seconds * 1e3, (double)m->tables[i].bytes / cells);
        /* node, heap entry, ws->pos, bag entry (f + node + JPS+ arrival direction) of the bucketed open list */
        double ws_bytes = (double)ap_map_node_count(m) *
                          (double)(sizeof(ap_node) + sizeof(ap_open_entry) + sizeof(uint32_t) + sizeof(double) +
                                   sizeof(uint32_t) + sizeof(uint8_t));
        fprintf(stderr, "table\tsearch_matrix\tbytes\t%.0f\tbuild_ms\t0\tbytes_per_cell\t%.2f\n", ws_bytes,
                ws_bytes / cells);
        fprintf(stderr, "table\tmap_pass\tbytes\t%u\tbuild_ms\t0\tbytes_per_cell\t%.2f\n", ap_map_node_count(m),
                (double)ap_map_node_count(m) / cells);
    }
    scen_line *sc;
    size_t n;
    if (load_scen(scen_path, &sc, &n) != 0) {
        fprintf(stderr, "%s: cannot read scenarios\n", scen_path);
        ap_map_free(m);
        return 1;
    }
    ap_workspace ws;
    if (ap_workspace_init(&ws, ap_map_node_count(m), 8) != AP_OK) {
        fprintf(stderr, "out of memory\n");
        free(sc);
        ap_map_free(m);
        return 1;
    }
    uint64_t *times = malloc((n > 0 ? n : 1) * sizeof *times);
    double *pts = NULL;
    size_t pts_cap = 0;
    uint64_t sum_ns = 0, sum_work = 0;
    size_t done = 0;
    if (walkable == NULL)
        printf("id\texpanded\ttime_ns\tcost\toptimal\n");
    else
        printf("id\traw_waypoints\tsmoothed_waypoints\ttime_ns\tlength\texact_clear\n");
    for (size_t i = 0; i < n; i++) {
        const scen_line *s = &sc[i];
        const double c = size > 1 ? size / 2.0 : 0.5; /* the footprint's centre from its top-left cell */
        ap_query q = {.map = m,
                      .sx = s->sx + c,
                      .sy = s->sy + c,
                      .gx = s->gx + c,
                      .gy = s->gy + c,
                      .unit_radius = radius,
                      .unit_size = size > 1 ? size : 0,
                      .algorithm = algorithm,
                      .connectivity = connectivity,
                      .smoothing = !full                             ? AP_SMOOTH_NONE
                                   : strcmp(smoothing, "taut") == 0 ? AP_SMOOTH_TAUT
                                   : strcmp(smoothing, "los") == 0  ? AP_SMOOTH_LOS
                                                                    : AP_SMOOTH_NONE};
        ap_plan p;
        uint64_t t0 = ap_clock_ns();
        st = ap_plan_begin(&p, &q, &ws, 0);
        if (st == AP_IN_PROGRESS)
            st = ap_plan_step(&p, 0);
        uint64_t best = ap_clock_ns() - t0;
        for (int rep = 1; rep < repeat && !full && walkable == NULL; rep++) { /* --repeat: the fastest run */
            ap_plan_release(&p);
            const uint64_t r0 = ap_clock_ns();
            st = ap_plan_begin(&p, &q, &ws, 0);
            if (st == AP_IN_PROGRESS)
                st = ap_plan_step(&p, 0);
            const uint64_t r1 = ap_clock_ns();
            best = r1 - r0 < best ? r1 - r0 : best;
        }
        if (full) {
            uint64_t work = ap_plan_expanded(&p);
            ap_result r;
            st = ap_plan_finish(&p, &r);
            uint64_t t2 = ap_clock_ns();
            printf("%d\t%llu\t%llu\t%.8f\t%.8f\n", s->line, (unsigned long long)work,
                   (unsigned long long)(t2 - t0), st == AP_OK ? r.length : -1.0, s->optimal);
            ap_result_free(&r);
            times[done++] = t2 - t0;
            sum_ns += t2 - t0;
            sum_work += work;
            continue;
        }
        uint64_t t1 = t0 + best;
        uint64_t expanded = p.has_search ? p.search.expanded : 0;
        double cost = st == AP_OK ? (p.has_search ? p.search.cost : 0.0) : -1.0;
        if (walkable == NULL) {
            printf("%d\t%llu\t%llu\t%.8f\t%.8f\n", s->line, (unsigned long long)expanded,
                   (unsigned long long)(t1 - t0), cost, s->optimal);
            times[done++] = t1 - t0;
            sum_ns += t1 - t0;
            sum_work += expanded;
            continue;
        }
        if (st != AP_OK)
            continue;
        ap_result r;
        ap_plan_finish(&p, &r);
        size_t nw = r.n_waypoints;
        if (nw > pts_cap) {
            pts_cap = nw * 2;
            double *np = realloc(pts, pts_cap * 2 * sizeof *pts);
            if (np == NULL)
                return 1;
            pts = np;
        }
        memcpy(pts, r.waypoints, nw * 2 * sizeof *pts);
        double(*pp)[2] = (double(*)[2])pts;
        uint64_t s0 = ap_clock_ns();
        ap_world w;
        ap_map_world(m, &w);
        size_t k = strcmp(walkable, "exact") == 0 ? ap_smooth_los(&w, pp, nw, radius)
                                                  : ap_smooth_los_sampled(m, pp, nw, radius);
        uint64_t s1 = ap_clock_ns();
        double len = 0.0;
        int clear = 1;
        for (size_t j = 0; j + 1 < k; j++) {
            len += hypot(pp[j + 1][0] - pp[j][0], pp[j + 1][1] - pp[j][1]);
            if (!ap_line_clear(m, pp[j][0], pp[j][1], pp[j + 1][0], pp[j + 1][1], radius))
                clear = 0;
        }
        printf("%d\t%zu\t%zu\t%llu\t%.8f\t%d\n", s->line, nw, k, (unsigned long long)(s1 - s0), len, clear);
        times[done++] = s1 - s0;
        sum_ns += s1 - s0;
        sum_work += k;
        ap_result_free(&r);
    }
    if (summary && done > 0) {
        qsort(times, done, sizeof *times, cmp_u64);
        double med = done % 2 ? (double)times[done / 2] : 0.5 * (double)(times[done / 2 - 1] + times[done / 2]);
        fprintf(stderr, "%s: %zu queries, median %.1f us, mean %.1f us, mean %s %.1f\n", m->id, done, med / 1e3,
                (double)sum_ns / (double)done / 1e3, walkable == NULL ? "expansions" : "smoothed waypoints",
                (double)sum_work / (double)done);
    }
    free(times);
    free(pts);
    free(sc);
    ap_workspace_free(&ws);
    ap_map_free(m);
    return 0;
}
