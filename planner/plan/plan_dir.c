/* plan_dir.c — the legal-turn plan kind (ap_plan_kind_turns, plan_kind.h): Directional8/24/48
 * (directional.h) and the hybrid pipeline (Pinter, Figure 20), with "auto" for turning units. Its state
 * (profiles, the directional domain, hybrid paths) lives in the plan's malloc'd kind_state.
 *
 * Hybrid (Pinter, "Performance and Hybrid Solutions", steps 1-6):
 *  1. 4-connected A* on the grid (time-sliced like any plan; failure = no path).
 *  2. Smoothing48 forward ("A Better Smoothing Pass"): a directional search whose nodes are (waypoint of
 *     that path, compass heading), neighbours the waypoints 1-3 ahead, edges from the Directional48 tables,
 *     heuristic favouring the path's own direction (remaining length along the path); it gives up once it
 *     expands a node 6 or more waypoints behind the farthest one reached. Success -> step 6.
 *  3. Smoothing48 backward, from the goal (headings reversed) toward the start.
 *  4. The farthest waypoints a (forward) and b (backward): more than 12 tiles apart in x or y -> failure;
 *     else step back along both until they are about (not more than) 12 apart.
 *  5. Directional8 from a's pose to b's pose (time-sliced on the workspace); failure -> failure.
 *  6. Final smoothing: Pinter's Listing 1 with the curved Walkable (the shortest Dubins curve between the
 *     kept poses, checked with the exact ap_world_segments_clear; between two free headings the straight
 *     line), made where the pipeline ends (hybrid_done).
 * "auto" for turning units runs the hybrid and, when it fails or its final curves are not clear, Directional24
 * (Pinter: "proceed from scratch with a slower, methodical search, such as the standard Directional24").
 *
 * Smoothing48 runs on the A* core through a small domain and single-expansion slices, so that the give-up
 * rule can watch the expansion order without a second search loop; it is bounded (it only visits the
 * path's waypoints), so it runs inside one step.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../hier/hier.h"
#include "../world/clearance.h"
#include "../world/grid_world.h"
#include "plan_kind.h"
#include "plan_steps.h"

#include "../geom/curve.h"
#include "../turns/directional.h"
#include "../geom/dubins.h"
#include "../turns/profile.h"
#include "../geom/reeds_shepp.h"
#include "../base/mem.h"

enum { K_DIR = 0, K_HYBRID = 1 };
enum { P_GRID = 0, P_DIR = 1, P_LEG = 2, P_DONE = 3, P_CORR = 4 };

#define AP_HYBRID_LEG_TILES 12 /* Pinter's step 4 */
#define AP_S48_GIVE_UP 6       /* Pinter: searching back six or more points fails */
/* Long range (start and goal beyond the directional window): the corridor's grid path keeps this much
 * clearance (tiles) where it can, at most the turning radius (room to turn; issue 9's "3 tiles of
 * clearance"), and the corridor spans this many turning radii plus AP_CORRIDOR_EXTRA cells on each side. */
#define AP_CORRIDOR_CLEARANCE 3.0
#define AP_CORRIDOR_RADII 2.0
#define AP_CORRIDOR_EXTRA 2
/* auto's escalation after a failed hybrid searches in the corridor from this distance (tiles) on, where it is
 * faster than Pinter's window (bench_longrange), even when the window would fit. */
#define AP_CORRIDOR_AUTO_TILES 64.0

typedef struct ap_plan_dir {
    int kind;
    bool auto_mode;
    int phase;
    ap_workspace *ws;
    const ap_profile *prof;   /* the directional search's profile (D8/24/48; D8 for hybrid legs); one
                               * reference held (ap_profile_release) */
    const ap_profile *prof48; /* hybrid: Smoothing48's; one reference held */
    ap_dir dir;
    bool dir_live;
    /* hybrid */
    double (*pts)[2];         /* the grid path: exact start, cell centres, exact goal */
    size_t n_pts;
    ap_pose *poses;           /* the legal chain of poses being assembled / the final one */
    bool *pose_free;          /* heading of that pose is free (exact start/goal without heading) */
    size_t n_poses;
    ap_pose *pre;             /* step 4-5: forward chain to a', backward chain from b' */
    size_t n_pre;
    ap_pose *post;
    size_t n_post;
    ap_segment *final_segs;   /* hybrid: step 6's curves, made where the pipeline ends (hybrid_done) */
    size_t n_final;
    double cost;
    /* long range (corridor mode, directional.h) */
    uint32_t grid_start, grid_goal; /* the query's start and goal cells (padded ids) */
    int far_neighbours;             /* the directional neighbourhood to run in the corridor */
    double corr_clearance;          /* the corridor grid path's disc clearance (tiles) */
    double (*corr)[2];              /* that path's waypoints (exact start, cell centres, exact goal) */
    size_t n_corr;
    int corr_half;                  /* corridor half-width (cells) */
    bool in_corridor;               /* the directional search runs in the corridor */
    bool corr_widened;              /* its retry in a corridor twice as wide was made */
    bool fine_headings;             /* its retry with 16 headings (the query asked for 8) was made */
} ap_plan_dir;

/* The unit's profile for this lattice, built (on a cache miss) within the plan's deadline and cached as the
 * query's admission hook allows; the caller holds one reference. */
/* The compass the directional search uses: the query's, or the fine one a corridor retry chose. */
static int want_headings(const ap_plan *p)
{
    const ap_plan_dir *dp = p->kind_state;
    return p->q.headings == AP_HEADINGS_FINE || dp->fine_headings ? AP_HEADINGS_FINE : AP_HEADINGS_COARSE;
}

static int get_profile(const ap_plan *p, int neighbours, bool reverse, const ap_profile **out)
{
    const ap_query *q = &p->q;
    ap_profile_key k = {q->unit_radius, q->turning_radius, want_headings(p), neighbours, reverse};
    return ap_profile_get_until(q->profiles ? q->profiles : ap_profile_cache_default(), &k, p->deadline_ns,
                                q->profile_admit, out, NULL);
}

static void drop_dir(ap_plan_dir *dp)
{
    if (dp->dir_live)
        ap_dir_free(&dp->dir);
    dp->dir_live = false;
}

static void turns_release(ap_plan *p)
{
    ap_plan_dir *dp = p->kind_state;
    if (dp == NULL)
        return;
    drop_dir(dp);
    ap_profile_release(dp->prof);
    ap_profile_release(dp->prof48);
    AP_FREE_ALL(dp->pts, dp->poses, dp->pose_free, dp->pre, dp->post, dp->corr, dp->final_segs, dp);
    p->kind_state = NULL;
}

/* ---- curves between poses ---------------------------------------------------------------------------- */

/* The move from pose a to pose b: both free = the straight line; a_free = any start heading (the reversed
 * arc+line from b), b_free = any
 * end heading (arc+line), else the shortest Dubins path. Returns the count, -1 when none exists. */
static int move_curve(const ap_pose *a, bool a_free, const ap_pose *b, bool b_free, double R, ap_segment *out)
{
    int tight = 0;
    if (a_free && b_free) { /* both headings free: the straight line is the shortest curve */
        out[0] = ap_segment_line(a->x, a->y, b->x, b->y);
        return 1;
    }
    if (a_free) {
        size_t n = ap_curve_arc_line(b->x, b->y, ap_angle_wrap(b->heading + M_PI), a->x, a->y, R, out, &tight);
        if (tight)
            return -1;
        ap_path_reverse(out, n);
        return (int)n;
    }
    if (b_free) {
        size_t n = ap_curve_arc_line(a->x, a->y, a->heading, b->x, b->y, R, out, &tight);
        return tight ? -1 : (int)n;
    }
    ap_dubins d;
    if (ap_dubins_shortest(a, b, R, &d) != 0)
        return -1;
    return (int)ap_dubins_segments(&d, b, out);
}

/* The shortest Dubins curve from a to b found from the other end (b to a, both headings turned round, then
 * driven back): as long as move_curve's, but where two words tie (the mirror loops between parallel poses
 * side by side) it can be the other one: the one a backward search checked. Returns the count or -1. */
static int reversed_curve(const ap_pose *a, const ap_pose *b, double R, ap_segment *out)
{
    const ap_pose ar = {a->x, a->y, ap_angle_wrap(a->heading + M_PI)};
    const ap_pose br = {b->x, b->y, ap_angle_wrap(b->heading + M_PI)};
    ap_dubins d;
    if (ap_dubins_shortest(&br, &ar, R, &d) != 0)
        return -1;
    const size_t n = ap_dubins_segments(&d, &ar, out);
    ap_path_reverse(out, n);
    return (int)n;
}

/* ---- Smoothing48 ------------------------------------------------------------------------------------- */

typedef struct s48 {
    const ap_map *map;  /* the lattice's blocked cells (hit-check masks) */
    ap_world world;     /* exact checks of computed curves */
    const ap_profile *prof;
    const double (*pts)[2];
    size_t n;
    ap_pose start, goal;
    bool start_free, goal_free;
    double tp, radius, R;
    int H;
    uint32_t start_node, goal_node;
    long maxidx;       /* farthest waypoint index expanded */
    long last_idx;     /* index of the node expanded last */
    uint32_t *best;    /* per waypoint index: the first (best f) node expanded there, UINT32_MAX = none */
    double *rem;       /* per waypoint index: remaining length along the path (chords of 3-waypoint hops) */
} s48;

static long s48_index(const s48 *s, uint32_t u)
{
    if (u == s->start_node)
        return 0;
    if (u == s->goal_node)
        return (long)s->n - 1;
    return (long)(u / (uint32_t)s->H);
}

static ap_pose s48_pose(const s48 *s, uint32_t u)
{
    if (u == s->start_node)
        return s->start;
    if (u == s->goal_node)
        return s->goal;
    size_t i = u / (uint32_t)s->H;
    return (ap_pose){s->pts[i][0], s->pts[i][1], ap_profile_heading((int)(u % (uint32_t)s->H), s->H)};
}

static double curve_cost(const ap_segment *segs, size_t n, double tp)
{
    double c = 0.0;
    for (size_t i = 0; i < n; i++)
        c += segs[i].length + (segs[i].type == AP_SEG_ARC ? tp * fabs(segs[i].sweep) : 0.0);
    return c;
}

static int s48_successors(const void *ctx, uint32_t u, ap_succ *out)
{
    s48 *s = (s48 *)ctx; /* per-plan context, one thread (see directional.c) */
    long i = s48_index(s, u);
    s->last_idx = i;
    if (i > s->maxidx)
        s->maxidx = i;
    if (s->best[i] == UINT32_MAX)
        s->best[i] = u;
    if (u == s->goal_node)
        return 0;
    ap_pose a = s48_pose(s, u);
    bool a_free = u == s->start_node && s->start_free;
    int k = 0;
    const ap_profile *p = s->prof;
    const int S = p->S;
    uint64_t blk[64];
    int32_t cx = (int32_t)floor(a.x), cy = (int32_t)floor(a.y);
    bool have_blk = false;
    for (long j = i + 1; j <= i + 3 && j < (long)s->n; j++) {
        if (j == (long)s->n - 1 || u == s->start_node) {
            /* Moves from the exact start or to the exact goal are computed in full. */
            for (int h = 0; h < (j == (long)s->n - 1 ? 1 : s->H); h++) {
                ap_pose b = j == (long)s->n - 1 ? s->goal
                                                 : (ap_pose){s->pts[j][0], s->pts[j][1], ap_profile_heading(h, s->H)};
                bool b_free = j == (long)s->n - 1 && s->goal_free;
                ap_segment segs[3];
                int n = move_curve(&a, a_free, &b, b_free, s->R, segs);
                if (n < 0 || !ap_world_segments_clear(&s->world, segs, (size_t)n, s->radius))
                    continue;
                uint32_t v = j == (long)s->n - 1 ? s->goal_node : (uint32_t)j * (uint32_t)s->H + (uint32_t)h;
                out[k++] = (ap_succ){v, curve_cost(segs, (size_t)n, s->tp)};
            }
            continue;
        }
        if (!have_blk) {
            for (int r = 0; r <= 2 * S; r++) {
                uint64_t row = 0;
                for (int c = 0; c <= 2 * S; c++)
                    if (!ap_map_passable(s->map, cx + c - S, cy + r - S))
                        row |= 1ull << c;
                blk[r] = row;
            }
            have_blk = true;
        }
        int dx = (int)floor(s->pts[j][0]) - cx, dy = (int)floor(s->pts[j][1]) - cy;
        int h0 = (int)(u % (uint32_t)s->H);
        for (uint32_t e = p->edge_first[h0]; e < p->edge_first[h0 + 1]; e++) {
            const ap_dir_edge *ed = &p->edges[e];
            if (ed->dx != dx || ed->dy != dy || (ed->flags & AP_EDGE_RS))
                continue;
            const uint64_t *m = p->rows + ed->rows;
            bool ok = true;
            for (int r = 0; r < ed->nrows && ok; r++)
                ok = (m[r] & blk[ed->row0 + r]) == 0;
            if (!ok)
                continue;
            out[k++] = (ap_succ){(uint32_t)j * (uint32_t)s->H + ed->h1, ed->len_fwd + s->tp * ed->turn};
        }
    }
    return k;
}

/* Deliberately not admissible (Pinter: "modify the cost heuristic to favor the direction of the original
 * path"): the remaining length ALONG the path (chords of 3-waypoint hops, about what the smoothed curves
 * cost) plus half a turning radius per radian off the path's direction three waypoints ahead. Smoothing48 is
 * a fast heuristic pass; validity never depends on it. Why not the straight distance to the goal: on a
 * path that bends around obstacles it underestimates more and more with depth, so f rises along the path
 * and A* goes back to other headings at earlier waypoints, which trips the six-waypoint give-up rule on
 * paths that are perfectly drivable (bench_directional, turning radius 1: the hybrid failed on 9 of 38
 * queries with it, on 1 with this). */
static double s48_heuristic(const void *ctx, uint32_t u, uint32_t goal)
{
    (void)goal;
    const s48 *s = ctx;
    ap_pose a = s48_pose(s, u);
    if (u == s->goal_node)
        return 0.0;
    if (u == s->start_node)
        return s->rem[0];
    size_t i = u / (uint32_t)s->H, j = i + 3 < s->n ? i + 3 : s->n - 1;
    double h = s->rem[i];
    double dir = atan2(s->pts[j][1] - a.y, s->pts[j][0] - a.x);
    return h + 0.5 * s->R * fabs(ap_angle_wrap(a.heading - dir));
}

/* Run Smoothing48 over pts (pts[0] = start, pts[n-1] = goal). On success writes the pose chain (start ..
 * goal) to *chain and returns AP_OK; on failure returns AP_NO_PATH with *chain = the chain to the farthest
 * waypoint reached (at least the start) and *far = its index. Other returns: AP_TIMEOUT, AP_E_*. */
static int smoothing48(ap_plan *p, const double (*pts)[2], size_t n, ap_pose start, bool start_free, ap_pose goal,
                       bool goal_free, ap_pose **chain, size_t *n_chain, long *far)
{
    ap_plan_dir *dp = p->kind_state;
    *chain = NULL;
    *n_chain = 0;
    *far = 0;
    const int H = dp->prof48->key.headings;
    s48 s = {.map = p->q.map, .prof = dp->prof48, .pts = pts, .n = n, .start = start, .goal = goal,
             .start_free = start_free, .goal_free = goal_free, .tp = p->q.turn_penalty,
             .radius = p->q.unit_radius, .R = p->q.turning_radius, .H = H};
    ap_map_world(p->q.map, &s.world);
    s.start_node = (uint32_t)n * (uint32_t)s.H;
    s.goal_node = s.start_node + 1;
    s.best = malloc(n * sizeof *s.best);
    s.rem = malloc(n * sizeof *s.rem);
    if (s.best == NULL || s.rem == NULL) {
        free(s.best);
        free(s.rem);
        return AP_E_NOMEM;
    }
    s.rem[n - 1] = 0.0;
    for (size_t i = n - 1; i-- > 0;) {
        size_t j = i + 3 < n ? i + 3 : n - 1;
        s.rem[i] = hypot(pts[j][0] - pts[i][0], pts[j][1] - pts[i][1]) + s.rem[j];
    }
    for (size_t i = 0; i < n; i++)
        s.best[i] = UINT32_MAX;
    ap_domain dom = {.ctx = &s, .node_count = s.goal_node + 1, .max_succ = 3 * s.H + 2, .successors = s48_successors,
                     .heuristic = s48_heuristic};
    ap_search srch;
    int st = ap_plan_search_begin(p, &srch, dp->ws, &dom, s.start_node, s.goal_node);
    if (st != AP_OK) {
        free(s.best);
        free(s.rem);
        return st;
    }
    while (srch.state == AP_IN_PROGRESS) {
        ap_search_run(&srch, 1);
        if (srch.state == AP_IN_PROGRESS && s.last_idx <= s.maxidx - AP_S48_GIVE_UP)
            srch.state = AP_NO_PATH;
    }
    p->expanded_before += srch.expanded;
    st = srch.state;
    uint32_t end = st == AP_OK ? s.goal_node : s.best[s.maxidx];
    if (st == AP_OK || st == AP_NO_PATH) {
        size_t len = 0;
        for (uint32_t u = end; u != UINT32_MAX; u = dp->ws->nodes[u].parent)
            len++;
        ap_pose *c = malloc(len * sizeof *c);
        if (c == NULL) {
            free(s.best);
            free(s.rem);
            return AP_E_NOMEM;
        }
        size_t i = len;
        for (uint32_t u = end; u != UINT32_MAX; u = dp->ws->nodes[u].parent)
            c[--i] = s48_pose(&s, u);
        *chain = c;
        *n_chain = len;
        *far = s48_index(&s, end);
    }
    free(s.best);
    free(s.rem);
    return st;
}

/* ---- pipeline pieces --------------------------------------------------------------------------------- */

/* How far ahead (poses) and facing how many compass headings (plus the pose's direction) a free start looks
 * for one curve (free_start_shortcut). */
#define AP_FREE_START_AHEAD 6
#define AP_FREE_START_HEADINGS 8

/* A free start's chain leaves with whatever heading the grid path or a leg gave its first pose, and a bend
 * the unit could have made by facing elsewhere at the start becomes a loop (a metamorphic helper: 32.7 tiles
 * where facing 3 pi / 4 gives 9.65). So, as a second candidate for final_smoothing: the farthest of the next
 * AP_FREE_START_AHEAD poses that one clear curve from the start reaches, facing one of the compass headings or
 * that pose, shorter than the chain's curves up to it, replaces the poses between; the start then keeps that
 * heading. P, F: the chain's *n_io poses and free flags, changed in place. True when it changed the chain. */
static bool free_start_shortcut(ap_pose *P, bool *F, size_t *n_io, const ap_world *world, double R, double r)
{
    const size_t n = *n_io;
    if (n < 3 || !F[0])
        return false;
    const size_t tmax = n - 1 < AP_FREE_START_AHEAD ? n - 1 : AP_FREE_START_AHEAD;
    ap_segment tmp[3];
    double chain[AP_FREE_START_AHEAD + 1] = {0.0};
    for (size_t i = 1; i <= tmax; i++) {
        const int c = move_curve(&P[i - 1], F[i - 1], &P[i], F[i], R, tmp);
        chain[i] = c < 0 ? INFINITY : chain[i - 1] + ap_path_length(tmp, (size_t)c);
    }
    for (size_t t = tmax; t >= 2; t--) {
        double best = chain[t], heading = 0.0;
        bool found = false;
        for (int h = -1; h < AP_FREE_START_HEADINGS; h++) {
            const ap_pose a = {P[0].x, P[0].y,
                               h < 0 ? atan2(P[t].y - P[0].y, P[t].x - P[0].x)
                                     : ap_angle_wrap(h * (2.0 * M_PI / AP_FREE_START_HEADINGS))};
            const int c = move_curve(&a, false, &P[t], F[t], R, tmp);
            if (c < 0)
                continue;
            const double len = ap_path_length(tmp, (size_t)c);
            if (len < best - 1e-9 && ap_world_segments_clear(world, tmp, (size_t)c, r)) {
                best = len;
                heading = a.heading;
                found = true;
            }
        }
        if (found) {
            P[0].heading = heading;
            F[0] = false;
            memmove(&P[1], &P[t], (n - t) * sizeof *P);
            memmove(&F[1], &F[t], (n - t) * sizeof *F);
            *n_io = n - t + 1;
            return true;
        }
    }
    return false;
}

/* Pinter's Listing 1 with the curved Walkable over the chain P, F of *n poses (shortened in place, *n
 * updated); then the geometry into *segs_out (malloc'd). Returns AP_OK, AP_E_NOMEM or AP_E_INTERNAL. */
static int smooth_chain(const ap_plan *p, const ap_world *world, ap_pose *P, bool *F, size_t *n_io,
                        ap_segment **segs_out, size_t *n_out)
{
    const double R = p->q.turning_radius, r = p->q.unit_radius;
    size_t n = *n_io, k = 1;
    ap_segment tmp[3];
    for (size_t cur = 1; cur + 1 < n; cur++) {
        int c = move_curve(&P[k - 1], F[k - 1], &P[cur + 1], F[cur + 1], R, tmp);
        if (c >= 0 && ap_world_segments_clear(world, tmp, (size_t)c, r))
            continue; /* drop P[cur] */
        P[k] = P[cur];
        F[k] = F[cur];
        k++;
    }
    if (n >= 2) {
        P[k] = P[n - 1];
        F[k] = F[n - 1];
        k++;
    }
    *n_io = k;
    ap_segment *segs = malloc((k ? k : 1) * 3 * sizeof *segs);
    if (segs == NULL)
        return AP_E_NOMEM;
    size_t ns = 0;
    for (size_t i = 0; i + 1 < k; i++) {
        int c = move_curve(&P[i], F[i], &P[i + 1], F[i + 1], R, segs + ns);
        /* A pose kept at a free start or goal heading still carries the heading its search drove it with (a
         * Directional8 leg runs from a fixed one): when the curve re-fitted at the free end is not clear, the
         * search's own curve between the two poses is the one it checked. That curve, found forward, can be
         * the mirror of the one a backward search checked (two loops of one length, one of them past a wall
         * or the map's edge: a helper's arena query looped 2.5 tiles outside the map): then it is found from
         * the other end. */
        if (c >= 0 && !ap_world_segments_clear(world, segs + ns, (size_t)c, r)) {
            ap_segment alt[3];
            int f = F[i] || F[i + 1] ? move_curve(&P[i], false, &P[i + 1], false, R, alt) : -1;
            if (!(f >= 0 && ap_world_segments_clear(world, alt, (size_t)f, r)))
                f = reversed_curve(&P[i], &P[i + 1], R, alt);
            if (f >= 0 && ap_world_segments_clear(world, alt, (size_t)f, r)) {
                memcpy(segs + ns, alt, (size_t)f * sizeof *alt);
                c = f;
            }
        }
        if (c < 0) {
            free(segs);
            return AP_E_INTERNAL;
        }
        ns += (size_t)c;
    }
    *segs_out = segs;
    *n_out = ns;
    return AP_OK;
}

/* ---- corridor answers of units that reverse --------------------------------------------------------- */

/* The pose at the start of s (end: at its end): point and facing heading, in driving order. */
static ap_pose seg_pose(const ap_segment *s, bool end)
{
    if (!end)
        return (ap_pose){s->x0, s->y0, s->heading};
    return (ap_pose){s->x1, s->y1, ap_angle_wrap(s->type == AP_SEG_ARC ? s->heading + s->sweep : s->heading)};
}

/* A forward piece driven the other way round in time: the same curve from its end to its start, facing the
 * same way, so driven backwards (path.h ap_segment_drive's encoding of a reverse piece). */
static ap_segment backwards(const ap_segment *s)
{
    ap_segment b = *s;
    b.x0 = s->x1;
    b.y0 = s->y1;
    b.x1 = s->x0;
    b.y1 = s->y0;
    if (s->type == AP_SEG_ARC) {
        b.heading = ap_angle_wrap(s->heading + s->sweep);
        b.sweep = -s->sweep;
    }
    b.reverse = !s->reverse;
    return b;
}

/* What a corridor answer of a unit that reverses costs the way the directional search counts it: forward
 * tiles, backward tiles times the reverse penalty, AP_DIR_CHANGE_PENALTY a change of driving direction. */
static double drive_cost(const ap_segment *s, size_t n, double penalty)
{
    double c = 0.0;
    for (size_t i = 0; i < n; i++) {
        c += s[i].reverse ? penalty * s[i].length : s[i].length;
        if (i > 0 && s[i].reverse != s[i - 1].reverse)
            c += AP_DIR_CHANGE_PENALTY;
    }
    return c;
}

/* The Reeds-Shepp curve from a to b of least drive_cost (every word), into out (AP_RS_MAX_PIECES): its
 * count, or -1. */
static int rs_curve(const ap_pose *a, const ap_pose *b, double R, double penalty, ap_segment *out)
{
    double best = INFINITY;
    int nb = -1;
    ap_reeds_shepp w;
    ap_segment tmp[AP_RS_MAX_PIECES];
    for (size_t k = 0; k < ap_reeds_shepp_word_count(); k++) {
        if (ap_reeds_shepp_word_eval(k, a, b, R, &w) < 0.0)
            continue;
        const size_t n = ap_reeds_shepp_segments(&w, b, tmp);
        const double c = drive_cost(tmp, n, penalty);
        if (c < best) {
            best = c;
            nb = (int)n;
            memcpy(out, tmp, n * sizeof *tmp);
        }
    }
    return nb;
}

/* Listing 1 over the poses between all the pieces of segs[0 .. n) with Reeds-Shepp curves of least
 * drive_cost, so a back-and-forth the search made (single backward pieces between forward runs, which
 * smooth_runs cannot touch) can go; kept neighbours keep the search's own piece between them. *out
 * (malloc'd) and *n_out, or AP_E_NOMEM. */
static int rs_smooth(const ap_plan *p, const ap_world *world, const ap_segment *segs, size_t n, double penalty,
                     ap_segment **out, size_t *n_out)
{
    const double R = p->q.turning_radius, r = p->q.unit_radius;
    ap_pose *P = malloc((n + 1) * sizeof *P);
    size_t *at = malloc((n + 1) * sizeof *at); /* kept poses' indices in the original chain */
    ap_segment *o = malloc((n ? n : 1) * AP_RS_MAX_PIECES * sizeof *o);
    if (P == NULL || at == NULL || o == NULL) {
        AP_FREE_ALL(P, at, o);
        return AP_E_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        P[i] = seg_pose(&segs[i], false);
    P[n] = seg_pose(&segs[n - 1], true);
    ap_segment tmp[AP_RS_MAX_PIECES];
    size_t k = 1;
    at[0] = 0;
    for (size_t cur = 1; cur < n; cur++) {
        const int c = rs_curve(&P[at[k - 1]], &P[cur + 1], R, penalty, tmp);
        if (c >= 0 && ap_world_segments_clear(world, tmp, (size_t)c, r))
            continue; /* drop pose cur */
        at[k++] = cur;
    }
    at[k++] = n;
    size_t no = 0;
    for (size_t i = 0; i + 1 < k; i++) {
        if (at[i + 1] == at[i] + 1) { /* neighbours: the search's own piece */
            o[no++] = segs[at[i]];
            continue;
        }
        const int c = rs_curve(&P[at[i]], &P[at[i + 1]], R, penalty, o + no);
        if (c < 0) { /* (it was found above; a curve that vanished: give up) */
            AP_FREE_ALL(P, at, o);
            *out = NULL;
            *n_out = 0;
            return AP_OK;
        }
        no += (size_t)c;
    }
    AP_FREE_ALL(P, at);
    if (no > 0) {
        o[0].x0 = segs[0].x0;
        o[0].y0 = segs[0].y0;
        o[no - 1].x1 = segs[n - 1].x1;
        o[no - 1].y1 = segs[n - 1].y1;
    }
    *out = o;
    *n_out = no;
    return AP_OK;
}

/* Listing 1 over each run of one driving direction of a corridor answer segs[0 .. *n) of a unit that may
 * reverse (the search's curves, weighted toward the corridor's middle): the poses between its pieces,
 * smoothed with forward Dubins curves; a backward run as the forward run from its end to its start, facing
 * the same way, then driven backwards. The cusps stay where the search put them. A run's smoothing is kept
 * when it is clear and shorter. Before, such answers kept the search's curves: on Paris_1_1024 400-550
 * pieces and 2-4.5 % longer than a forward-only unit's (a helper). *segs replaced (malloc'd); AP_OK or
 * AP_E_NOMEM. */
static int smooth_runs(const ap_plan *p, ap_segment **segs_io, size_t *n_io)
{
    const ap_segment *in = *segs_io;
    const size_t n = *n_io;
    ap_world world;
    ap_map_world(p->q.map, &world);
    const double r = p->q.unit_radius;
    ap_segment *out = malloc((n ? n : 1) * sizeof *out);
    ap_pose *P = malloc((n + 1) * sizeof *P);
    bool *F = calloc(n + 1, sizeof *F);
    if (out == NULL || P == NULL || F == NULL) {
        AP_FREE_ALL(out, P, F);
        return AP_E_NOMEM;
    }
    size_t k = 0;
    for (size_t i = 0, j; i < n; i = j) {
        bool turns = false;
        for (j = i; j < n && in[j].reverse == in[i].reverse; j++)
            turns |= in[j].type == AP_SEG_TURN;
        const size_t len = j - i;
        ap_segment *sm = NULL;
        size_t nsm = 0, m = len + 1;
        if (len >= 2 && !turns) {
            for (size_t t = 0; t < len; t++)
                P[t] = seg_pose(&in[i + t], false);
            P[len] = seg_pose(&in[j - 1], true);
            if (in[i].reverse) /* the same poses from the run's end to its start */
                for (size_t a = 0, b = len; a < b; a++, b--) {
                    const ap_pose t = P[a];
                    P[a] = P[b];
                    P[b] = t;
                }
            memset(F, 0, m * sizeof *F);
            if (smooth_chain(p, &world, P, F, &m, &sm, &nsm) != AP_OK)
                nsm = 0;
        }
        if (nsm > 0 && ap_world_segments_clear(&world, sm, nsm, r) &&
            ap_path_length(sm, nsm) < ap_path_length(in + i, len) - 1e-9) {
            if (k + nsm > n) { /* (a run's smoothing can have more pieces than the run: a Dubins curve each) */
                ap_segment *g = realloc(out, (k + nsm + (n - j)) * sizeof *out);
                if (g == NULL) {
                    AP_FREE_ALL(out, P, F, sm);
                    return AP_E_NOMEM;
                }
                out = g;
            }
            for (size_t t = 0; t < nsm; t++)
                out[k + t] = in[i].reverse ? backwards(&sm[nsm - 1 - t]) : sm[t];
            /* the run's ends as the search left them (the cusps' exact points) */
            out[k].x0 = in[i].x0;
            out[k].y0 = in[i].y0;
            out[k + nsm - 1].x1 = in[j - 1].x1;
            out[k + nsm - 1].y1 = in[j - 1].y1;
            k += nsm;
        } else {
            memcpy(out + k, in + i, len * sizeof *out);
            k += len;
        }
        free(sm);
    }
    AP_FREE_ALL(P, F);
    /* Across the runs too (Reeds-Shepp curves over every pose): kept when clear and cheaper by the search's
     * own measure than the runs smoothed one by one. */
    const double penalty = p->q.reverse_penalty != 0.0 ? p->q.reverse_penalty : AP_DEFAULT_REVERSE_PENALTY;
    ap_segment *rs = NULL;
    size_t nrs = 0;
    if (n >= 2 && rs_smooth(p, &world, in, n, penalty, &rs, &nrs) == AP_OK && nrs > 0 &&
        ap_world_segments_clear(&world, rs, nrs, r) &&
        drive_cost(rs, nrs, penalty) < drive_cost(out, k, penalty) - 1e-9) {
        free(out);
        out = rs;
        k = nrs;
        rs = NULL;
    }
    free(rs);
    free(*segs_io);
    *segs_io = out;
    *n_io = k;
    return AP_OK;
}

/* Order of joints for waypoints_on_path: by x, then y. */
static int joint_cmp(const void *a, const void *b)
{
    const double *u = a, *v = b;
    return u[0] < v[0] ? -1 : u[0] > v[0] ? 1 : u[1] < v[1] ? -1 : u[1] > v[1] ? 1 : 0;
}

/* Keep, of the search's waypoints w[0 .. *nw) (in path order), those the smoothed segs[0 .. ns) still pass
 * through: the first, the last, and each within 1e-9 tiles of a piece's end or start (smoothing keeps the
 * poses it keeps, up to the rounding of a backward piece's computed end). Without it a reverse corridor
 * answer's waypoints stayed the search's poses, off its smoothed curves, unlike every other legal-turn
 * answer's. *nw updated; AP_OK or AP_E_NOMEM. */
static int waypoints_on_path(double (*w)[2], size_t *nw, const ap_segment *segs, size_t ns)
{
    if (*nw <= 2 || ns == 0)
        return AP_OK;
    const size_t nj = 2 * ns;
    double(*joints)[2] = malloc(nj * sizeof *joints);
    if (joints == NULL)
        return AP_E_NOMEM;
    for (size_t i = 0; i < ns; i++) {
        joints[2 * i][0] = segs[i].x0;
        joints[2 * i][1] = segs[i].y0;
        joints[2 * i + 1][0] = segs[i].x1;
        joints[2 * i + 1][1] = segs[i].y1;
    }
    qsort(joints, nj, sizeof *joints, joint_cmp);
    const double tol = 1e-9;
    size_t k = 1;
    for (size_t i = 1; i + 1 < *nw; i++) {
        size_t lo = 0, hi = nj; /* the first joint with x >= w.x - tol */
        while (lo < hi) {
            const size_t mid = lo + (hi - lo) / 2;
            if (joints[mid][0] < w[i][0] - tol)
                lo = mid + 1;
            else
                hi = mid;
        }
        bool on = false;
        for (size_t j = lo; j < nj && joints[j][0] <= w[i][0] + tol && !on; j++)
            on = fabs(joints[j][1] - w[i][1]) <= tol;
        if (on) {
            w[k][0] = w[i][0];
            w[k][1] = w[i][1];
            k++;
        }
    }
    w[k][0] = w[*nw - 1][0];
    w[k][1] = w[*nw - 1][1];
    *nw = k + 1;
    free(joints);
    return AP_OK;
}

/* The final smoothing of dp->poses (smooth_chain). With a free start, also the chain after
 * free_start_shortcut, and the better of the two answers is kept (clear before not clear, then the shorter;
 * a tie keeps the plain one): the shortcut fixes the start's heading, which can cost Listing 1 a later skip
 * (a helper: 272 of 1,069 answers longer when it was taken alone). */
static int final_smoothing(ap_plan *p, ap_segment **segs_out, size_t *n_out)
{
    ap_plan_dir *dp = p->kind_state;
    const double R = p->q.turning_radius, r = p->q.unit_radius;
    ap_world world;
    ap_map_world(p->q.map, &world);
    const size_t n = dp->n_poses;
    ap_pose *P2 = NULL;
    bool *F2 = NULL;
    if (n >= 3 && dp->pose_free[0]) {
        P2 = malloc(n * sizeof *P2);
        F2 = malloc(n * sizeof *F2);
        if (P2 != NULL && F2 != NULL) {
            memcpy(P2, dp->poses, n * sizeof *P2);
            memcpy(F2, dp->pose_free, n * sizeof *F2);
        }
    }
    int st = smooth_chain(p, &world, dp->poses, dp->pose_free, &dp->n_poses, segs_out, n_out);
    if (st == AP_OK && P2 != NULL && F2 != NULL) {
        size_t n2 = n;
        ap_segment *s2 = NULL;
        size_t ns2 = 0;
        if (free_start_shortcut(P2, F2, &n2, &world, R, r) &&
            smooth_chain(p, &world, P2, F2, &n2, &s2, &ns2) == AP_OK) {
            const bool c1 = ap_world_segments_clear(&world, *segs_out, *n_out, r);
            const bool c2 = ap_world_segments_clear(&world, s2, ns2, r);
            if ((c2 && !c1) ||
                (c2 == c1 && ap_path_length(s2, ns2) < ap_path_length(*segs_out, *n_out) - 1e-9)) {
                free(*segs_out);
                *segs_out = s2;
                *n_out = ns2;
                s2 = NULL;
                memcpy(dp->poses, P2, n2 * sizeof *dp->poses);
                memcpy(dp->pose_free, F2, n2 * sizeof *dp->pose_free);
                dp->n_poses = n2;
            }
        }
        free(s2);
    }
    free(P2);
    free(F2);
    return st;
}

static int set_poses(ap_plan_dir *dp, const ap_pose *a, size_t na, const ap_pose *b, size_t nb, const ap_pose *c,
                     size_t nc, const ap_query *q)
{
    size_t n = na + nb + nc;
    free(dp->poses);
    free(dp->pose_free);
    dp->poses = malloc((n ? n : 1) * sizeof *dp->poses);
    dp->pose_free = calloc(n ? n : 1, sizeof *dp->pose_free);
    if (dp->poses == NULL || dp->pose_free == NULL)
        return AP_E_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < na; i++)
        dp->poses[k++] = a[i];
    for (size_t i = 0; i < nb; i++) {
        const bool at_prev = k > 0 && dp->poses[k - 1].x == b[i].x && dp->poses[k - 1].y == b[i].y;
        if (at_prev && k == 1 && !q->has_sheading)
            dp->poses[0].heading = b[i].heading; /* the free start: the heading its leg leaves with (dir_chain) */
        else if (!at_prev || dp->poses[k - 1].heading != b[i].heading)
            dp->poses[k++] = b[i];
    }
    for (size_t i = 0; i < nc; i++)
        if (k == 0 || dp->poses[k - 1].x != c[i].x || dp->poses[k - 1].y != c[i].y ||
            dp->poses[k - 1].heading != c[i].heading)
            dp->poses[k++] = c[i];
    dp->n_poses = k;
    dp->pose_free[0] = !q->has_sheading;
    dp->pose_free[k - 1] = !q->has_gheading;
    return AP_OK;
}

static ap_pose query_start(const ap_query *q)
{
    return (ap_pose){q->sx, q->sy, q->has_sheading ? q->sheading : 0.0};
}

static ap_pose query_goal(const ap_query *q)
{
    return (ap_pose){q->gx, q->gy, q->has_gheading ? q->gheading : 0.0};
}

/* Hold the Directional-neighbours profile in dp->prof (reverse headings only for a full search, phase P_DIR). */
static int ensure_profile(ap_plan *p, int neighbours, int phase)
{
    ap_plan_dir *dp = p->kind_state;
    if (dp->prof != NULL && dp->prof->key.neighbours == neighbours && dp->prof->key.headings == want_headings(p))
        return AP_OK;
    ap_profile_release(dp->prof);
    dp->prof = NULL;
    return get_profile(p, neighbours, p->q.reverse && phase == P_DIR, &dp->prof);
}

static ap_dir_query dir_query(const ap_plan *p, ap_pose a, bool a_heading, ap_pose b, bool b_heading)
{
    const ap_plan_dir *dp = p->kind_state;
    return (ap_dir_query){.map = p->q.map, .prof = dp->prof, .start = a, .start_heading = a_heading, .goal = b,
                          .goal_heading = b_heading,
                          .reverse_penalty = p->q.reverse_penalty != 0.0 ? p->q.reverse_penalty
                                                                         : AP_DEFAULT_REVERSE_PENALTY,
                          .change_penalty = AP_DIR_CHANGE_PENALTY, .turn_penalty = p->q.turn_penalty,
                          .capacity = dp->ws->capacity, .deadline_ns = p->deadline_ns};
}

/* The waypoints of the grid search just finished (ap_plan_cell_waypoints; malloc'd, count in *np), its
 * expansions counted; NULL when out of memory. */
static double (*finished_grid_path(ap_plan *p, size_t *np))[2]
{
    size_t n;
    p->expanded_before += p->search.expanded;
    p->has_search = false;
    uint32_t *nodes = ap_plan_path_nodes(&p->search, &n);
    if (nodes == NULL)
        return NULL;
    double(*w)[2] = ap_plan_cell_waypoints(&p->q, nodes, n, np);
    free(nodes);
    return w;
}

/* Start a directional search (Directional-neighbours profile) from pose a to pose b on dp->ws; in the
 * corridor around dp->corr when corridor is set. */
static int begin_dir_in(ap_plan *p, int neighbours, ap_pose a, bool a_heading, ap_pose b, bool b_heading, int phase,
                        bool corridor)
{
    ap_plan_dir *dp = p->kind_state;
    drop_dir(dp);
    int st = ensure_profile(p, neighbours, phase);
    if (st != AP_OK)
        return p->state = st;
    ap_dir_query dq = dir_query(p, a, a_heading, b, b_heading);
    if (corridor) {
        dq.corridor = (const double(*)[2])dp->corr;
        dq.corridor_n = dp->n_corr;
        dq.corridor_half = dp->corr_half;
    }
    const char *field = NULL;
    st = ap_dir_init(&dp->dir, &p->dom, &dq, &field);
    dp->dir_live = true;
    if (st == AP_TIMEOUT)
        return p->state = AP_TIMEOUT;
    if (st == AP_E_INVALID_REQUEST && corridor)
        return p->state = AP_NO_PATH; /* a valid query the corridor cannot serve: the search gives up */
    if (st != AP_OK) {
        p->field = field;
        snprintf(p->message, sizeof p->message, "%s", dp->dir.message);
        return p->state = st;
    }
    dp->phase = phase;
    p->start_node = dp->dir.start_node;
    p->goal_node = dp->dir.goal_node;
    return ap_plan_start_search(p, dp->ws);
}

static int begin_dir(ap_plan *p, int neighbours, ap_pose a, bool a_heading, ap_pose b, bool b_heading, int phase)
{
    return begin_dir_in(p, neighbours, a, a_heading, b, b_heading, phase, false);
}

static void fit_corridor(ap_plan *p);
static int begin_corridor_dir(ap_plan *p);

/* Long range, step 1 by the map's HAA* graph (hier.h, the "abstract corridor"): the refined path of
 * the smallest clearance class that holds a disc of radius dp->corr_clearance (class radius 1, 2 or 4: at
 * least that much room), in one call (a few cluster-sized searches and an abstract A*: ~1 ms on a 1024^2
 * map where Annotated A* over the whole map takes 5-15 ms). False when the graph cannot serve (no graph, no
 * class, no abstract path, a workspace too small for it): the caller runs Annotated A*. True otherwise, with
 * *st the plan's state: the corridor's directional search begun (AP_IN_PROGRESS), or its end. */
static bool corridor_by_graph(ap_plan *p, int *st)
{
    ap_plan_dir *dp = p->kind_state;
    const ap_map *m = p->q.map; /* the capability's view (plan.c): a view has no graph of its own */
    const ap_hier *h = ap_hier_of(m);
    const int cls = h != NULL ? ap_hier_class_of(h, dp->corr_clearance) : -1;
    if (cls < 0)
        return false;
    ap_hier_result r;
    const int hs = ap_hier_path(m, h, cls, dp->grid_start, dp->grid_goal, dp->ws, p->deadline_ns, &r);
    p->expanded_before += r.expanded;
    if (hs == AP_TIMEOUT || hs == AP_E_NOMEM) {
        *st = p->state = hs;
        return true;
    }
    if (hs != AP_OK)
        return false;
    free(dp->corr);
    dp->corr = ap_plan_cell_waypoints(&p->q, r.cells, r.n_cells, &dp->n_corr);
    free(r.cells);
    if (dp->corr == NULL) {
        *st = p->state = AP_E_NOMEM;
        return true;
    }
    fit_corridor(p);
    *st = begin_corridor_dir(p);
    return true;
}

/* Long range, step 1: an 8-connected grid path for a disc of radius dp->corr_clearance, from the map's HAA*
 * graph (corridor_by_graph) when it can serve, else by Annotated A* on the capability's clearance table (the
 * plain grid when the radius needs none or the map has no table). */
static int begin_corridor_path(ap_plan *p)
{
    ap_plan_dir *dp = p->kind_state;
    drop_dir(dp);
    int st;
    if (dp->corr_clearance > p->q.unit_radius && corridor_by_graph(p, &st)) /* (the retry at the unit's own
                                                                              * radius searches the grid) */
        return st;
    const ap_map *m = p->q.map;
    const ap_clearance_table *t = ap_clearance_of(m, m->capability);
    if (t != NULL && dp->corr_clearance >= AP_GRID_SIZED_MIN_RADIUS)
        st = ap_grid_domain_init_sized(&p->dom_ctx.grid, &p->dom, m, 8, dp->grid_goal, t, dp->corr_clearance);
    else
        st = ap_grid_domain_init(&p->dom_ctx.grid, &p->dom, m, 8, dp->grid_goal);
    if (st != AP_OK)
        return p->state = st;
    dp->phase = P_CORR;
    p->start_node = dp->grid_start;
    p->goal_node = dp->grid_goal;
    return ap_plan_start_search(p, dp->ws);
}

/* True when a search the planner chose (not a directionalN the query named) goes to the corridor at once:
 * start and goal AP_CORRIDOR_AUTO_TILES or more apart. */
static bool corridor_first(const ap_query *q)
{
    return hypot(q->gx - q->sx, q->gy - q->sy) >= AP_CORRIDOR_AUTO_TILES;
}

/* The whole query as one directional search: in Pinter's window when start and goal fit it, else in a
 * corridor around a grid path (any distance; directional.h corridor mode). */
static int begin_full_dir(ap_plan *p, int neighbours, bool far)
{
    ap_plan_dir *dp = p->kind_state;
    const ap_query *q = &p->q;
    int st = ensure_profile(p, neighbours, P_DIR);
    if (st != AP_OK)
        return p->state = st;
    ap_dir_query dq = dir_query(p, query_start(q), q->has_sheading, query_goal(q), q->has_gheading);
    if (!far && ap_dir_window_fits(&dq))
        return begin_dir(p, neighbours, dq.start, dq.start_heading, dq.goal, dq.goal_heading, P_DIR);
    dp->far_neighbours = neighbours;
    dp->corr_clearance = fmax(q->unit_radius, fmin(AP_CORRIDOR_CLEARANCE, q->turning_radius));
    dp->corr_half = (int)ceil(AP_CORRIDOR_RADII * q->turning_radius) + AP_CORRIDOR_EXTRA;
    return begin_corridor_path(p);
}

/* Long range, step 2: the corridor around the grid path just found, and the directional search in it. A
 * corridor with more cells than the workspace holds is narrowed (at least 1 cell each side). */
static int corridor_after_grid(ap_plan *p)
{
    ap_plan_dir *dp = p->kind_state;
    if (ap_deadline_passed(p->deadline_ns)) /* (the grid search ended at the deadline's edge) */
        return p->state = AP_TIMEOUT;
    free(dp->corr);
    dp->corr = finished_grid_path(p, &dp->n_corr);
    if (dp->corr == NULL)
        return p->state = AP_E_NOMEM;
    fit_corridor(p);
    return begin_corridor_dir(p);
}

/* Narrow dp->corr_half until the corridor surely fits the workspace (at least 1 cell each side): each step
 * of an 8-connected path adds at most 2 (2h + 1) - 1 cells to the corridor. */
static void fit_corridor(ap_plan *p)
{
    ap_plan_dir *dp = p->kind_state;
    uint64_t per_cell = (uint64_t)want_headings(p) * (p->q.reverse ? 2u : 1u);
    while (dp->corr_half > 1 &&
           (uint64_t)dp->n_corr * (uint64_t)(4 * dp->corr_half + 2) * per_cell + 2 > dp->ws->capacity)
        dp->corr_half--;
}

/* The directional search in the corridor; when the corridor has more cells than the workspace holds,
 * narrower ones, down to 1 cell each side (then the search gives up: no_path). */
static int begin_corridor_dir(ap_plan *p)
{
    ap_plan_dir *dp = p->kind_state;
    const ap_query *q = &p->q;
    dp->in_corridor = true;
    for (;;) {
        /* (each try builds a corridor and its lattice bound: tenths of a second around a path of 10^5
         * tiles) */
        if (ap_deadline_passed(p->deadline_ns))
            return p->state = AP_TIMEOUT;
        int st = begin_dir_in(p, dp->far_neighbours, query_start(q), q->has_sheading, query_goal(q),
                              q->has_gheading, P_DIR, true);
        if (st != AP_NO_PATH || dp->corr_half <= 1)
            return st;
        dp->corr_half--;
    }
}

/* Long range, step 3 when the search in the corridor found nothing: once more with 16 headings when it had
 * 8 (a wide turn often needs the finer compass: Paris_1_1024, turning radius 4), then once in a corridor
 * twice as wide (as far as the workspace allows). True when another search began. */
static bool retry_corridor(ap_plan *p)
{
    ap_plan_dir *dp = p->kind_state;
    if (!dp->in_corridor)
        return false;
    if (want_headings(p) != AP_HEADINGS_FINE) {
        dp->fine_headings = true;
        fit_corridor(p);
    } else if (!dp->corr_widened) {
        int was = dp->corr_half;
        dp->corr_widened = true;
        dp->corr_half *= 2;
        fit_corridor(p);
        if (dp->corr_half <= was)
            return false;
    } else {
        return false;
    }
    p->expanded_before += p->search.expanded;
    p->has_search = false;
    begin_corridor_dir(p);
    return true;
}

static int escalate_or_fail(ap_plan *p, int st)
{
    ap_plan_dir *dp = p->kind_state;
    if (dp->auto_mode && (st == AP_NO_PATH)) {
        dp->auto_mode = false;
        dp->kind = K_DIR;
        p->expanded_before += p->has_search ? p->search.expanded : 0;
        p->has_search = false;
        return begin_full_dir(p, 24, corridor_first(&p->q));
    }
    return p->state = st;
}

/* The hybrid pipeline ends (step 2, 3 or 5 made a chain of poses): step 6's curves now, kept for the answer.
 * The searches checked their own curves; Listing 1 re-fits those at a free start or goal heading (between
 * neighbouring cells, a 2-pose chain is nothing but such a curve), and a re-fitted curve can cut a wall. When
 * the curves are not clear, auto goes on to Directional24 (Pinter's fallback for a failed hybrid); a query
 * that named hybrid keeps them, its answer marked "clear": false. */
static int hybrid_done(ap_plan *p)
{
    ap_plan_dir *dp = p->kind_state;
    free(dp->final_segs);
    dp->final_segs = NULL;
    int st = final_smoothing(p, &dp->final_segs, &dp->n_final);
    if (st != AP_OK)
        return p->state = st;
    dp->phase = P_DONE;
    if (dp->auto_mode) {
        ap_world world;
        double rad;
        ap_plan_world(&p->q, false, &world, &rad);
        if (!ap_world_path_clear(&world, dp->final_segs, dp->n_final, p->q.sx, p->q.sy, rad)) {
            free(dp->final_segs);
            dp->final_segs = NULL;
            return escalate_or_fail(p, AP_NO_PATH);
        }
    }
    return p->state = AP_OK;
}

/* After the grid search: steps 2-5. */
static int hybrid_after_grid(ap_plan *p)
{
    ap_plan_dir *dp = p->kind_state;
    const ap_query *q = &p->q;
    size_t np;
    dp->pts = finished_grid_path(p, &np);
    if (dp->pts == NULL)
        return p->state = AP_E_NOMEM;
    dp->n_pts = np;
    if (!dp->prof48) {
        int st = get_profile(p, 48, false, &dp->prof48);
        if (st != AP_OK)
            return p->state = st;
    }
    /* Smoothing48 searches (waypoint, heading) nodes: a grid path too long for the workspace (a 1-wide
     * spiral corridor of 261,632 cells at 8 headings) is a failed hybrid, not a 500 from the search's
     * capacity check (a helper); auto goes on to Directional24's corridor, hybrid answers no_path with
     * reason state_limit (a larger workspace may find it). */
    if ((uint64_t)np * (uint64_t)dp->prof48->key.headings + 2 > dp->ws->capacity) {
        if (!dp->auto_mode)
            p->no_path_reason = AP_NO_PATH_STATE_LIMIT;
        return escalate_or_fail(p, AP_NO_PATH);
    }
    ap_pose start = query_start(q), goal = query_goal(q);
    ap_pose *fwd = NULL, *bwd = NULL;
    size_t nf = 0, nb = 0;
    long far_f = 0, far_b = 0;
    /* Step 2. */
    int st = smoothing48(p, (const double(*)[2])dp->pts, np, start, !q->has_sheading, goal, !q->has_gheading, &fwd,
                         &nf, &far_f);
    if (st == AP_OK) {
        st = set_poses(dp, fwd, nf, NULL, 0, NULL, 0, q);
        free(fwd);
        if (st != AP_OK)
            return p->state = st;
        return hybrid_done(p);
    }
    if (st != AP_NO_PATH) {
        free(fwd);
        return p->state = st;
    }
    /* Step 3: backwards, on the reversed list with reversed headings. */
    double(*rp)[2] = malloc(np * sizeof *rp);
    if (rp == NULL) {
        free(fwd);
        return p->state = AP_E_NOMEM;
    }
    for (size_t i = 0; i < np; i++) {
        rp[i][0] = dp->pts[np - 1 - i][0];
        rp[i][1] = dp->pts[np - 1 - i][1];
    }
    ap_pose rs = {goal.x, goal.y, ap_angle_wrap(goal.heading + M_PI)};
    ap_pose rg = {start.x, start.y, ap_angle_wrap(start.heading + M_PI)};
    st = smoothing48(p, (const double(*)[2])rp, np, rs, !q->has_gheading, rg, !q->has_sheading, &bwd, &nb, &far_b);
    free(rp);
    if (st != AP_OK && st != AP_NO_PATH) {
        free(fwd);
        free(bwd);
        return p->state = st;
    }
    /* Flip the backward chain into forward order and headings. */
    for (size_t i = 0; i < nb / 2; i++) {
        ap_pose t = bwd[i];
        bwd[i] = bwd[nb - 1 - i];
        bwd[nb - 1 - i] = t;
    }
    for (size_t i = 0; i < nb; i++)
        bwd[i].heading = ap_angle_wrap(bwd[i].heading + M_PI);
    if (st == AP_OK) {
        st = set_poses(dp, bwd, nb, NULL, 0, NULL, 0, q);
        free(fwd);
        free(bwd);
        if (st != AP_OK)
            return p->state = st;
        return hybrid_done(p);
    }
    /* Step 4: the failure points; fwd[nf-1] is at waypoint far_f, bwd[0] at np-1-far_b. Step back along both
     * chains while the points stay within 12 tiles of each other in x and y. */
    size_t ia = nf - 1, ib = 0;
    if (fabs(fwd[ia].x - bwd[ib].x) > AP_HYBRID_LEG_TILES || fabs(fwd[ia].y - bwd[ib].y) > AP_HYBRID_LEG_TILES) {
        free(fwd);
        free(bwd);
        return escalate_or_fail(p, AP_NO_PATH);
    }
    for (bool moved = true; moved;) {
        moved = false;
        if (ia > 0 && fabs(fwd[ia - 1].x - bwd[ib].x) <= AP_HYBRID_LEG_TILES &&
            fabs(fwd[ia - 1].y - bwd[ib].y) <= AP_HYBRID_LEG_TILES) {
            ia--;
            moved = true;
        }
        if (ib + 1 < nb && fabs(fwd[ia].x - bwd[ib + 1].x) <= AP_HYBRID_LEG_TILES &&
            fabs(fwd[ia].y - bwd[ib + 1].y) <= AP_HYBRID_LEG_TILES) {
            ib++;
            moved = true;
        }
    }
    free(dp->pre);
    free(dp->post);
    dp->pre = fwd;
    dp->n_pre = ia + 1;
    dp->post = bwd;
    dp->n_post = nb;
    /* Keep only bwd[ib ..]. */
    memmove(dp->post, bwd + ib, (nb - ib) * sizeof *bwd);
    dp->n_post = nb - ib;
    /* Step 5: Directional8 between them. The ends are exact start/goal poses when the chains did not leave
     * them (then their heading may be free). */
    bool a_heading = ia > 0 || q->has_sheading;
    bool b_heading = ib + 1 < nb || q->has_gheading;
    st = begin_dir(p, 8, dp->pre[dp->n_pre - 1], a_heading, dp->post[0], b_heading, P_LEG);
    if (st == AP_E_INVALID_REQUEST) {
        /* The leg's window does not fit the workspace (a small max_workspace_cells): the pipeline's own
         * stretch, not the client's query, so the hybrid has failed (auto goes on to Directional24, whose
         * corridor fits), not a 400 on a query that Directional24 answers (a helper) */
        p->field = NULL;
        p->message[0] = '\0';
        drop_dir(dp);
        return escalate_or_fail(p, AP_NO_PATH);
    }
    return st;
}

/* The poses of a directional node path (*n of them, start node first) into out, for the hybrid's chain: a
 * free start's pose takes the heading its path leaves with (ap_dir_leave_heading; the node's pose says 0),
 * and a node the free start faces in place, at the start point, is not a pose of its own. *n is updated. */
static void dir_chain(const ap_dir *d, const uint32_t *nodes, size_t *n, ap_pose *out)
{
    size_t k = 0;
    for (size_t i = 0; i < *n; i++) {
        out[k] = ap_dir_node_pose(d, nodes[i], NULL);
        if (i == 0 && *n >= 2 && nodes[0] == d->start_node)
            out[0].heading = ap_dir_leave_heading(d, nodes[1]);
        if (i == 1 && nodes[0] == d->start_node && out[1].x == out[0].x && out[1].y == out[0].y)
            continue;
        k++;
    }
    *n = k;
}

static int hybrid_after_leg(ap_plan *p)
{
    ap_plan_dir *dp = p->kind_state;
    size_t n;
    uint32_t *nodes = ap_plan_path_nodes(&p->search, &n);
    ap_pose *leg = malloc((n ? n : 1) * sizeof *leg);
    if (nodes == NULL || leg == NULL) {
        free(nodes);
        free(leg);
        return p->state = AP_E_NOMEM;
    }
    dir_chain(&dp->dir, nodes, &n, leg);
    free(nodes);
    int st = set_poses(dp, dp->pre, dp->n_pre, leg, n, dp->post, dp->n_post, &p->q);
    free(leg);
    p->expanded_before += p->search.expanded;
    p->has_search = false;
    drop_dir(dp);
    if (st != AP_OK)
        return p->state = st;
    return hybrid_done(p);
}

/* Long range, last step when the corridor failed twice: Pinter's window search, when start and goal fit it
 * (auto chose the corridor for speed; the window's search is the more thorough). True when it began. */
static bool corridor_to_window(ap_plan *p)
{
    ap_plan_dir *dp = p->kind_state;
    const ap_query *q = &p->q;
    if (!dp->in_corridor)
        return false;
    ap_dir_query dq = dir_query(p, query_start(q), q->has_sheading, query_goal(q), q->has_gheading);
    if (!ap_dir_window_fits(&dq))
        return false;
    dp->in_corridor = false;
    p->expanded_before += p->search.expanded;
    p->has_search = false;
    begin_dir(p, dp->far_neighbours, dq.start, dq.start_heading, dq.goal, dq.goal_heading, P_DIR);
    return true;
}

/* ---- the kind --------------------------------------------------------------------------------------- */

static int turns_begin(ap_plan *p, const ap_algorithm_row *row, ap_workspace *ws)
{
    const ap_query *q = &p->q;
    ap_plan_dir *dp = calloc(1, sizeof *dp);
    if (dp == NULL)
        return p->state = AP_E_NOMEM;
    p->kind_state = dp;
    dp->ws = ws;
    if (ws == NULL || ws->succ_cap < AP_DIR_MAX_SUCC)
        return p->state = AP_E_INTERNAL;
    p->alg = row->id;
    /* Every curve is tested with the unit's exact swept disc (a point's too: closed, touching a blocked cell
     * is not clear) and starts or ends at the exact start or goal: where the unit itself overlaps an obstacle,
     * or a point lies on a blocked cell's edge, the map's edge or a circle, no curve can, and the search would
     * only answer no_path, after flooding its window or corridor. */
    const int fit = ap_plan_ends_fit(p, true);
    if (fit != AP_OK)
        return p->state = fit;
    dp->grid_start = p->start_node;
    dp->grid_goal = p->goal_node;
    ap_pose s = query_start(q), g = query_goal(q);
    /* Directional8/24/48: the row's variant is the neighbourhood. */
    if (row->variant != 0)
        return begin_full_dir(p, row->variant, false);
    /* Hybrid (and auto): step 1, the 4-connected grid search. Reversing units skip it: the pipeline is
     * forward-only (Pinter's), so they go straight to Directional24 with reverse headings. */
    dp->kind = K_HYBRID;
    dp->auto_mode = row->id == AP_ALG_AUTO; /* auto handed the plan over with its own row */
    if (q->reverse || q->map->weighted) {
        /* the hybrid's smoothing passes charge length alone: on terrain costs, Directional24 at once */
        dp->kind = K_DIR;
        return begin_full_dir(p, 24, corridor_first(q));
    }
    dp->phase = P_GRID;
    if (p->start_node == p->goal_node) {
        /* Start and goal share a cell: no grid path to smooth; a direct directional search. */
        dp->auto_mode = false;
        dp->kind = K_DIR;
        return begin_dir(p, 8, s, q->has_sheading, g, q->has_gheading, P_DIR);
    }
    int st = ap_grid_domain_init(&p->dom_ctx.grid, &p->dom, q->map, 4, p->goal_node);
    if (st != AP_OK)
        return p->state = st;
    return ap_plan_start_search(p, ws);
}

static int turns_step(ap_plan *p, uint64_t max_expansions)
{
    ap_plan_dir *dp = p->kind_state;
    int st = ap_search_run(&p->search, max_expansions);
    if (st == AP_IN_PROGRESS)
        return p->state = st;
    switch (dp->phase) {
    case P_GRID:
        if (st != AP_OK)
            return p->state = st;
        return hybrid_after_grid(p);
    case P_CORR:
        if (st == AP_NO_PATH && dp->corr_clearance > p->q.unit_radius) {
            /* no path with room to turn: the unit's own clearance */
            p->expanded_before += p->search.expanded;
            p->has_search = false;
            dp->corr_clearance = p->q.unit_radius;
            return begin_corridor_path(p);
        }
        if (st != AP_OK)
            return p->state = st;
        return corridor_after_grid(p);
    case P_LEG:
        if (st != AP_OK) {
            drop_dir(dp);
            return escalate_or_fail(p, st);
        }
        return hybrid_after_leg(p);
    default:
        if (st == AP_NO_PATH && (retry_corridor(p) || corridor_to_window(p)))
            return p->state;
        return p->state = st;
    }
}

static int turns_move(ap_plan *p, ap_workspace *ws)
{
    ap_plan_dir *dp = p->kind_state;
    dp->ws = ws;
    if (ws->succ_cap < AP_DIR_MAX_SUCC) {
        p->expanded_before += p->search.expanded;
        return p->state = AP_E_INTERNAL;
    }
    /* The search restarts from scratch, so does its expansion count that picks every AP_DIR_ANALYTIC_EVERY-th
     * expansion to try the final curve: kept, the answer depended on where the fast slice had stopped
     * (fast_budget 300 or a hybrid stage before: another path, 1 in 300 auto queries at the default). */
    dp->dir.expanded_seen = 0;
    /* The directional window was sized for the old workspace; a smaller one cannot hold it. */
    return ap_plan_search_move(p, ws);
}

static int turns_finish(ap_plan *p, ap_result *r)
{
    ap_plan_dir *dp = p->kind_state;
    const ap_query *q = &p->q;
    ap_segment *segs = NULL;
    size_t ns = 0;
    if (dp->in_corridor && !dp->prof->key.reverse && !q->map->weighted && ap_search_path(&p->search, NULL, 0) >= 3) {
        /* The corridor's search is weighted: Listing 1 over its poses takes back most of what that costs.
         * Forward units only (its curves are Dubins), and not on a direct start-goal curve: every curve it
         * keeps is then either checked by it or one of the search's own edges (the same curve: Dubins
         * between fixed poses, arc+line at a free end). */
        size_t n;
        uint32_t *nodes = ap_plan_path_nodes(&p->search, &n);
        ap_pose *chain = malloc((n ? n : 1) * sizeof *chain);
        if (nodes == NULL || chain == NULL) {
            free(nodes);
            free(chain);
            return AP_E_NOMEM;
        }
        dir_chain(&dp->dir, nodes, &n, chain);
        free(nodes);
        int st = set_poses(dp, chain, n, NULL, 0, NULL, 0, q);
        free(chain);
        if (st != AP_OK)
            return st;
        dp->kind = K_HYBRID;
        dp->phase = P_DONE;
    }
    if (dp->kind == K_DIR || dp->phase == P_DIR) {
        size_t n, nw;
        uint32_t *nodes = ap_plan_path_nodes(&p->search, &n);
        if (nodes == NULL)
            return AP_E_NOMEM;
        int st = ap_dir_path(&dp->dir, nodes, n, &segs, &ns, &r->waypoints, &nw);
        free(nodes);
        if (st == AP_OK && dp->in_corridor && dp->prof->key.reverse && !q->map->weighted) {
            st = smooth_runs(p, &segs, &ns);
            if (st == AP_OK)
                st = waypoints_on_path(r->waypoints, &nw, segs, ns);
        }
        if (st != AP_OK) {
            free(segs);
            return st;
        }
        r->n_waypoints = nw;
        r->grid_cost = p->search.cost;
    } else {
        int st = AP_OK;
        if (dp->final_segs != NULL) { /* made where the pipeline ended (hybrid_done) */
            segs = dp->final_segs;
            ns = dp->n_final;
            dp->final_segs = NULL;
        } else {
            st = final_smoothing(p, &segs, &ns);
        }
        if (st != AP_OK)
            return st;
        r->waypoints = malloc(dp->n_poses * sizeof *r->waypoints);
        if (r->waypoints == NULL) {
            free(segs);
            return AP_E_NOMEM;
        }
        for (size_t i = 0; i < dp->n_poses; i++) {
            r->waypoints[i][0] = dp->poses[i].x;
            r->waypoints[i][1] = dp->poses[i].y;
        }
        /* one waypoint per point: the chain can hold the goal cell's pose and a goal at its centre (two poses,
         * two headings, their curve of no length), which listed the goal twice (a helper) */
        r->n_waypoints = ap_waypoints_dedupe(r->waypoints, dp->n_poses);
        r->grid_cost = curve_cost(segs, ns, q->turn_penalty);
    }
    /* The last curve ends at the goal as sent: an arc's end is computed on its circle and may miss it by an
     * ulp or so (a helper's 1.4999999999999996 for a goal at 1.5), which art_directions then kept too. */
    if (ns > 0 && hypot(segs[ns - 1].x1 - q->gx, segs[ns - 1].y1 - q->gy) <= 1e-9 * fmax(1.0, fabs(q->gx) + fabs(q->gy))) {
        segs[ns - 1].x1 = q->gx;
        segs[ns - 1].y1 = q->gy;
    }
    ap_plan_set_segments(r, q, segs, ns);
    return AP_OK;
}

/* Not a cheap slice: an expansion tests curves against hit-check masks, and a unit profile's first query
 * builds its tables (tens of ms). */
/* Not complete either: the lattice searches a window and misses paths a finer lattice has (Pinter's Figure
 * 12); the hybrid gives up on far failure points. */
const ap_plan_kind ap_plan_kind_turns = {"turns",     turns_begin,   turns_step, turns_move,
                                         turns_finish, turns_release, false,      false,
                                         true,         false,      NULL,
                                         NULL};
