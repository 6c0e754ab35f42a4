/* fields.h — the wire names of the query fields the planner refuses a query on (dotted paths of the
 * /v1/path body), in one table: the validation pass (query_check.c) and the late refusals of a plan
 * (plan.c: more samples than max_samples) name fields only through it. */
#ifndef AP_PLAN_FIELDS_H
#define AP_PLAN_FIELDS_H

typedef enum ap_qfield {
    AP_QF_START, AP_QF_GOAL, AP_QF_START_HEADING, AP_QF_GOAL_HEADING, AP_QF_RADIUS, AP_QF_TURNING,
    AP_QF_REVERSE_PENALTY, AP_QF_ART, AP_QF_ALGORITHM, AP_QF_CONNECTIVITY, AP_QF_SMOOTHING,
    AP_QF_TURN_PENALTY, AP_QF_HEADINGS, AP_QF_SAMPLE_STEP, AP_QF_OBSTACLES, AP_QF_CAPABILITY, AP_QF_SIZE,
    AP_QF_START_SPEED, AP_QF_GOAL_SPEED, AP_QF_TOL_POSITION, AP_QF_TOL_HEADING, AP_QF_TOL_SPEED,
    AP_QF_MAX_EXPANSIONS, AP_QF_MAX_SPEED, AP_QF_SAMPLE_DT, AP_QF_MAX_REVERSE_SPEED, AP_QF_WEIGHT,
    AP_QF_CORRIDOR_WIDTH,
} ap_qfield;

/* The wire name of field f ("unit.turning_radius"); a static string. Pure. */
const char *ap_qfield_name(ap_qfield f);

#endif
