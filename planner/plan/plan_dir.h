/* plan_dir.h — the legal-turn plans behind plan.c: Directional8/24/48 (directional.h) and Pinter's hybrid
 * pipeline (Figure 20), with "auto" for turning units. plan.c calls these hooks; they keep their state in
 * the plan's malloc'd `dirp` so plan.c and the A* core stay as they are.
 *
 * Source: Pinter, "Toward More Realistic Pathfinding", "Legal Turns: The Directional A* Algorithm",
 * "A Better Smoothing Pass", "Path Failure and Timeslicing", "Performance and Hybrid Solutions".
 */
#ifndef AP_PLAN_DIR_H
#define AP_PLAN_DIR_H

#include <stdbool.h>
#include <stdint.h>

#include "plan.h"

/* True when q needs a legal-turn plan: directional8/24/48, hybrid, or auto with a turning radius > 0 on a
 * uniform-cost map (on a map with terrain costs auto runs A*). Pure; q->map may be NULL. */
bool ap_plan_dir_wanted(const ap_query *q);

/* The legal-turn part of ap_query_check: turning radius > 0 for directional8/24/48 and hybrid
 * ("unit.turning_radius"), headings 0|8|16 ("search.headings"), reverse_penalty 0 or in [1, 100]
 * ("unit.reverse_penalty"), turn_penalty in [0, 100] ("search.turn_penalty"), goal heading finite
 * ("goal.heading"); art_directions is checked by ap_query_check for every algorithm. Returns AP_OK or
 * AP_E_INVALID_REQUEST with *field set. Pure. */
int ap_plan_dir_check(const ap_query *q, const char **field);

/* Begin, step, move, finish and release a legal-turn plan (the ap_plan_* semantics of plan.h: time slices
 * of at most max_expansions, restart on another workspace). ap_plan_dir_result fills r's geometry for an
 * AP_OK plan: segments (G1, every arc of radius >= the turning radius), waypoints, grid_cost = the
 * search's path cost (tiles, penalties included), length, and clear = ap_segment_clear over every segment.
 * Thread: the plan's owner. */
int ap_plan_dir_begin(ap_plan *p, ap_workspace *ws);
int ap_plan_dir_step(ap_plan *p, uint64_t max_expansions);
int ap_plan_dir_move(ap_plan *p, ap_workspace *ws);
int ap_plan_dir_result(ap_plan *p, ap_result *r);
void ap_plan_dir_release(ap_plan *p);

#endif
