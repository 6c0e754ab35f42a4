/* lanes.c — inbox, admission, fast and slow lanes, completion, drain. Threading rules in lanes.h. */
#include "lanes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../planner/search/search.h"
#include "gzip.h"
#include "poolthread.h"
#include "../planner/base/status.h"
#include "../proto/errors.h"
#include "../proto/json_in.h"

#define MAX_SUCC AP_PLAN_MAX_SUCC /* the most successors any plan domain yields (directional: plan.h) */
#define SWEEP_INTERVAL_MS 100

/* ---- small queue helpers (loop thread) ---------------------------------------------------------------- */

static void q_push(ap_job **head, ap_job **tail, ap_job *j)
{
    j->next = NULL;
    if (*tail)
        (*tail)->next = j;
    else
        *head = j;
    *tail = j;
}

static ap_job *q_pop(ap_job **head, ap_job **tail)
{
    ap_job *j = *head;
    if (j) {
        *head = j->next;
        if (!*head)
            *tail = NULL;
        j->next = NULL;
    }
    return j;
}

/* ---- workspace pool (workers) ------------------------------------------------------------------------- */

static ap_workspace *fast_take(ap_lanes *l)
{
    pthread_mutex_lock(&l->pool_mu);
    /* One fast workspace per pool thread, so this normally never waits; it can only when another ap_lanes
     * in the process sized the shared libuv pool larger (tests). Waiting is safe: holders never block. */
    while (l->n_fast_free == 0)
        pthread_cond_wait(&l->pool_cv, &l->pool_mu);
    ap_workspace *ws = l->fast_free[--l->n_fast_free];
    pthread_mutex_unlock(&l->pool_mu);
    return ws;
}

/* A free fast workspace, or NULL at once when all are taken (the inline path never waits). */
static ap_workspace *fast_try_take(ap_lanes *l)
{
    pthread_mutex_lock(&l->pool_mu);
    ap_workspace *ws = l->n_fast_free > 0 ? l->fast_free[--l->n_fast_free] : NULL;
    pthread_mutex_unlock(&l->pool_mu);
    return ws;
}

static void fast_release(ap_lanes *l, ap_workspace *ws)
{
    pthread_mutex_lock(&l->pool_mu);
    l->fast_free[l->n_fast_free++] = ws;
    pthread_cond_signal(&l->pool_cv);
    pthread_mutex_unlock(&l->pool_mu);
}

/* ---- plan helpers (worker) ---------------------------------------------------------------------------- */

static bool expired(const ap_lanes *l, const ap_job *j, uint64_t now)
{
    return atomic_load(&l->cancel) || (j->deadline_ns && now >= j->deadline_ns);
}

/* Has the job's client gone (ap_job.client_gone)? Loop thread, or the pool thread that holds the job (the
 * hook peeks at the suspended connection's socket, which nothing else reads meanwhile). */
static bool abandoned(const ap_job *j)
{
    return j->client_gone != NULL && j->client_gone(j);
}

/* Why a job waiting on the loop thread stops now: AP_TIMEOUT (expired or cancelled), AP_E_CLIENT_CLOSED,
 * or AP_OK (it goes on). */
static int stop_reason(const ap_lanes *l, const ap_job *j, uint64_t now)
{
    return expired(l, j, now) ? AP_TIMEOUT : abandoned(j) ? AP_E_CLIENT_CLOSED : AP_OK;
}

/* A fast slice's time bound, ns (ap_lanes_config.fast_slice_ns). */
static uint64_t fast_slice_ns(const ap_lanes *l)
{
    return l->cfg.fast_slice_ns != 0 ? l->cfg.fast_slice_ns : AP_LANE_FAST_SLICE_NS;
}

/* One slice of begun plan p: at most max_expansions expansions and about max_ns ns (both > 0). A plan
 * kind's step may end early at a phase boundary with budget and time to spare (the hybrid: its grid search
 * done and its next search begun); the slice then steps again with what is left. Before, the lanes took
 * that for a search that had outgrown the fast lane's budget, and every hybrid query (the default plan of
 * a turning unit) moved to the slow lane after some 50-80 expansions. Pool or submitting thread: the
 * plan's owner. */
static int step_slice(ap_plan *p, uint64_t max_expansions, uint64_t max_ns)
{
    const uint64_t e0 = ap_plan_expanded(p), end = ap_clock_ns() + max_ns;
    int st = ap_plan_step_for(p, max_expansions, max_ns);
    for (;;) {
        const uint64_t used = ap_plan_expanded(p) - e0, now = ap_clock_ns();
        if (st != AP_IN_PROGRESS || used >= max_expansions || now >= end)
            return st;
        st = ap_plan_step_for(p, max_expansions - used, end - now);
    }
}

/* The plan has left AP_IN_PROGRESS: build the result (path geometry for AP_OK) while still on the worker,
 * since path building is CPU work and must happen before the workspace is reused. */
static void finish_plan(ap_job *j, int st)
{
    memset(&j->result, 0, sizeof j->result);
    if (st == AP_OK || st == AP_NO_PATH || st == AP_TIMEOUT) {
        ap_plan_finish(&j->plan, &j->result);
    } else {
        /* ap_plan_begin refused the query (the HTTP thread checked it already, so this is rare). */
        j->result.status = st;
        ap_query_check(&j->q, &j->result.field);
        if (ap_plan_field(&j->plan) != NULL) /* refused while planning (e.g. directional window): the plan knows why */
            j->result.field = ap_plan_field(&j->plan);
        snprintf(j->result.message, sizeof j->result.message, "%s", ap_plan_message(&j->plan));
    }
    j->state = j->result.status == AP_IN_PROGRESS ? AP_E_INTERNAL : j->result.status;
}

static void finish_timeout_unsearched(ap_job *j)
{
    ap_plan_release(&j->plan); /* directional tables etc. of a plan abandoned between slices */
    memset(&j->result, 0, sizeof j->result);
    j->result.status = AP_TIMEOUT;
    j->result.expanded = j->t_first_ns ? ap_plan_expanded(&j->plan) : 0;
    j->state = AP_TIMEOUT;
}

/* A single query whose deadline passed while it waited between slow turns: one that ran slices answers
 * with what its kind found (ap_plan_stop: a kinodynamic search's fastest path so far), else timeout. The
 * thread that holds the job (its worker, or the loop while it waits). */
static void finish_expired(ap_job *j)
{
    if (j->moved)
        finish_plan(j, ap_plan_stop(&j->plan));
    else
        finish_timeout_unsearched(j);
}

static void encode_answer(ap_lanes *l, ap_job *j, uint64_t now);

/* A job that ended on its worker is encoded there (a task's answer is its own), and gzip-compressed there
 * when asked, not on the loop thread or the HTTP thread: an answer grows with its path (a 1-wide spiral's
 * 261,632 cells: 28.8 MB, ~60 ms to write, ~50 ms to compress) or its batch (up to max_answer_bytes), and on
 * the loop it held up every other job's admission and hand-back meanwhile, on the HTTP thread every request
 * (helpers: /healthz waited 530 ms behind one such gzip, 134 ms behind a 32 MB batch's). */
static void encode_on_worker(ap_lanes *l, ap_job *j)
{
    if (j->state == AP_IN_PROGRESS)
        return;
    const uint64_t t0 = ap_clock_ns();
    encode_answer(l, j, t0);
    size_t n = 0;
    char *gz = j->gzip_ok && j->body != NULL ? ap_gzip_answer(j->body, j->body_len, &n) : NULL;
    if (gz != NULL) {
        ap_jbuf_adopt(&j->out, gz, n);
        j->body = gz;
        j->body_len = n;
        j->gzipped = true;
    }
    j->encode_ns = ap_clock_ns() - t0;
    j->encoded = true;
}

/* ---- batches (worker) --------------------------------------------------------------------------------- */

/* Bytes of items[i] answered by an error: its preset error, else answer_too_large (with the comma before it
 * unless it is the first). */
static size_t item_error_bytes(const ap_job *j, size_t i)
{
    char buf[1024];
    ap_jbuf b;
    ap_jbuf_init(&b, buf, sizeof buf);
    const ap_job_item *it = &j->items[i];
    if (it->status != AP_OK)
        ap_wire_write_batch_item_error(&b, i == 0, it->status, it->message, it->field);
    else
        ap_wire_write_batch_item_error(&b, i == 0, AP_E_ANSWER_TOO_LARGE, NULL, NULL);
    size_t n = b.len;
    ap_jbuf_free(&b);
    return n;
}

/* Bytes of the items from i on answered as errors, and of the end with the largest stats it can carry. */
static size_t batch_rest_bytes(const ap_job *j, size_t i)
{
    char buf[256];
    ap_jbuf b;
    ap_jbuf_init(&b, buf, sizeof buf);
    const ap_path_stats st = {.lane = "fast-and-slow-lanes", .queue_us = UINT64_MAX, .search_us = UINT64_MAX};
    ap_wire_write_batch_end(&b, UINT64_MAX, &st);
    size_t n = b.len;
    ap_jbuf_free(&b);
    for (; i < j->n_items; i++)
        n += item_error_bytes(j, i);
    return n;
}

size_t ap_lanes_batch_floor(ap_job *j)
{
    char buf[512];
    ap_jbuf b;
    ap_jbuf_init(&b, buf, sizeof buf);
    ap_wire_write_batch_begin(&b, j->map_id ? j->map_id : "", j->map_version);
    size_t n = b.len;
    ap_jbuf_free(&b);
    j->reserve = batch_rest_bytes(j, 0);
    return n + j->reserve;
}

/* The answer_too_large item error, and the body is full from here on. Always fits: its bytes are in
 * j->reserve. */
static void batch_write_full(ap_job *j)
{
    const size_t own = item_error_bytes(j, j->next_item);
    ap_wire_write_batch_item_error(&j->out, j->next_item == 0, AP_E_ANSWER_TOO_LARGE, NULL, NULL);
    j->reserve = j->reserve > own ? j->reserve - own : 0;
    j->answer_full = true;
}

/* A path answer's outcome (arcpath_path_answers_total), or AP_OUTCOME_COUNT for an error: errors are not
 * answers. */
static ap_outcome outcome_of(const ap_result *r)
{
    if (r->status == AP_OK)
        return r->capped ? AP_OUTCOME_CAPPED : r->probe ? AP_OUTCOME_PROBE : AP_OUTCOME_OK;
    if (r->status == AP_NO_PATH)
        return r->no_path_reason == AP_NO_PATH_UNREACHABLE   ? AP_OUTCOME_UNREACHABLE
               : r->no_path_reason == AP_NO_PATH_STATE_LIMIT ? AP_OUTCOME_STATE_LIMIT
                                                             : AP_OUTCOME_NOT_FOUND;
    return r->status == AP_TIMEOUT ? AP_OUTCOME_TIMEOUT : AP_OUTCOME_COUNT;
}

/* Count a single query's answer by its outcome. */
static void count_answer(const ap_lanes *l, const ap_result *r)
{
    const ap_outcome o = outcome_of(r);
    if (l != NULL && l->metrics != NULL && o != AP_OUTCOME_COUNT)
        ap_metrics_answer(l->metrics, o);
}

/* Count a batch's items, now that its 200 is made. */
static void count_batch_answers(const ap_lanes *l, const ap_job *j)
{
    if (l == NULL || l->metrics == NULL)
        return;
    for (int o = 0; o < AP_OUTCOME_COUNT; o++)
        ap_metrics_answers(l->metrics, (ap_outcome)o, j->item_outcomes[o]);
}

/* Write items[next_item]'s answer into the job's body and move on. An answer that leaves less room than the
 * items after it need as errors and the end (j->reserve less this item's own share) is taken back (the
 * bytes before it are kept) and the item answered answer_too_large, an error: not counted as an answer (it
 * was, as `ok`). Its expansions were searched and count in the batch's. */
static void batch_write_item(ap_job *j, const ap_result *r, ap_lane lane)
{
    ap_path_stats st = {.lane = ap_metrics_lane_name(lane),
                        .search_us = j->item_ns / 1000,
                        .sample_step = j->items[j->next_item].q.sample_step};
    const size_t cap = j->owner->cfg.max_answer_bytes, before = j->out.len;
    if (j->answer_full) {
        batch_write_full(j);
    } else {
        const size_t own = item_error_bytes(j, j->next_item), rest = j->reserve > own ? j->reserve - own : 0;
        ap_wire_write_batch_item(&j->out, j->next_item == 0, r, &st);
        if (cap != 0 && (j->out.len > cap || cap - j->out.len < rest) && !j->out.failed) {
            j->out.len = before;
            batch_write_full(j);
        } else {
            j->reserve = rest;
        }
    }
    const ap_outcome o = outcome_of(r);
    if (!j->answer_full && o != AP_OUTCOME_COUNT)
        j->item_outcomes[o]++;
    j->expanded += r->expanded;
    j->next_item++;
    j->item_active = false;
    j->item_ns = 0;
}

/* Answer items that need no search: preset errors, and (when `timeout`) every remaining item. Stops at the
 * first item to search. */
static void batch_skip(ap_job *j, bool timeout)
{
    while (j->next_item < j->n_items) {
        const ap_job_item *it = &j->items[j->next_item];
        if (it->status == AP_OK && j->answer_full && !j->item_active) {
            /* no room left in the answer: not searched at all */
            batch_write_full(j);
            j->next_item++;
            continue;
        }
        if (it->status != AP_OK) {
            const size_t before = j->out.len;
            ap_wire_write_batch_item_error(&j->out, j->next_item == 0, it->status, it->message, it->field);
            const size_t own = j->out.len - before; /* in j->reserve: always fits */
            j->reserve = j->reserve > own ? j->reserve - own : 0;
            j->next_item++;
            j->item_active = false;
            continue;
        }
        if (!timeout)
            return;
        ap_result r;
        memset(&r, 0, sizeof r);
        r.status = AP_TIMEOUT;
        r.expanded = j->item_active ? ap_plan_expanded(&j->plan) : 0;
        batch_write_item(j, &r, j->lane);
    }
}

/* Finish the active item's plan (no longer in progress) and write its answer. */
static void batch_finish_item(ap_job *j, ap_lane lane)
{
    ap_result r;
    ap_plan_finish(&j->plan, &r);
    if (r.status == AP_IN_PROGRESS)
        r.status = AP_E_INTERNAL;
    batch_write_item(j, &r, lane);
    ap_result_free(&r);
}

/* The active item's deadline passed: its search stops with its kind's answer from what it found
 * (ap_plan_stop: a kinodynamic search's fastest path so far, "capped"), else timeout with what it spent, as
 * a single query's (finish_expired). Its plan must be on a workspace the job still holds: the worker's, or
 * the slow lane's once moved. */
static void batch_stop_item(ap_job *j, ap_lane lane)
{
    if (ap_plan_stop(&j->plan) == AP_OK) {
        batch_finish_item(j, lane);
    } else {
        ap_result r;
        memset(&r, 0, sizeof r);
        r.status = AP_TIMEOUT;
        r.expanded = ap_plan_expanded(&j->plan);
        batch_write_item(j, &r, lane);
    }
}

/* Run items on ws until they are all answered, one outgrows per_item expansions (left active), or
 * `total` expansions have been spent (0 = no total cap). Returns the job state: AP_OK when every item is
 * answered, else AP_IN_PROGRESS. */
static int batch_run(ap_lanes *l, ap_job *j, ap_workspace *ws, ap_lane lane, uint64_t per_item, uint64_t total)
{
    uint64_t spent = 0;
    /* the slow lane's slice time is shared by the items it reaches, as its expansions are */
    const uint64_t slice_ns = lane == AP_LANE_FAST ? fast_slice_ns(l) : AP_LANE_SLOW_SLICE_NS;
    const uint64_t slice_end = ap_clock_ns() + slice_ns;
    for (;;) {
        uint64_t now = ap_clock_ns();
        bool exp = expired(l, j, now);
        if (exp && j->item_active)
            batch_stop_item(j, lane);
        batch_skip(j, exp);
        if (j->next_item >= j->n_items)
            return AP_OK;
        if (total && spent >= total)
            return AP_IN_PROGRESS;
        if (!j->item_active && lane == AP_LANE_FAST && ap_query_setup_is_heavy(&j->items[j->next_item].q)) {
            j->begin_slow = true; /* its set-up would hold the fast worker: the batch goes on in the slow lane */
            return AP_IN_PROGRESS;
        }
        if (!j->item_active) {
            /* the item's search_us counts its set-up too, as a single query's does */
            const uint64_t b0 = ap_clock_ns();
            int st = ap_plan_begin(&j->plan, &j->items[j->next_item].q, ws, j->deadline_ns);
            j->item_ns += ap_clock_ns() - b0;
            ap_plan_set_cancel(&j->plan, &l->cancel);
            j->item_active = true;
            if (st != AP_IN_PROGRESS) {
                batch_finish_item(j, lane);
                continue;
            }
        }
        uint64_t before = ap_plan_expanded(&j->plan);
        /* On the fast lane every item gets its whole per-item budget (the total is only checked between
         * items); on the slow lane the slice is shared by the items it reaches. */
        uint64_t budget = per_item;
        if (lane == AP_LANE_SLOW && total && total - spent < budget)
            budget = total - spent;
        uint64_t t0 = ap_clock_ns();
        const uint64_t left = lane == AP_LANE_FAST ? slice_ns : (slice_end > t0 ? slice_end - t0 : 1);
        int st = step_slice(&j->plan, budget, left);
        const uint64_t t1 = ap_clock_ns();
        j->item_ns += t1 - t0;
        spent += ap_plan_expanded(&j->plan) - before;
        if (st != AP_IN_PROGRESS) {
            batch_finish_item(j, lane);
            continue;
        }
        if (lane == AP_LANE_FAST)
            return AP_IN_PROGRESS; /* outgrew its fast budget: the batch moves to the slow lane */
        if ((total && spent >= total) || t1 >= slice_end)
            return AP_IN_PROGRESS;
    }
}

static void batch_fast_work(ap_lanes *l, ap_job *j)
{
    uint64_t t0 = ap_clock_ns();
    if (!j->t_first_ns)
        j->t_first_ns = t0;
    if (j->next_item == 0 && j->out.len == 0)
        ap_wire_write_batch_begin(&j->out, j->map_id, j->map_version);
    ap_workspace *ws = fast_take(l);
    j->state = batch_run(l, j, ws, AP_LANE_FAST, l->cfg.fast_budget, l->cfg.fast_budget);
    /* Ended on the turn's total budget with the next item not started: another fast turn. Ended inside an
     * item: that item outgrew fast_budget, so the rest of the batch goes to the slow lane; so it does before
     * an item whose set-up is heavy (begin_slow). */
    j->requeue_fast = j->state == AP_IN_PROGRESS && !j->item_active && !j->begin_slow;
    fast_release(l, ws);
    j->search_ns += ap_clock_ns() - t0;
    encode_on_worker(l, j);
}

static void batch_slow_work(ap_lanes *l, ap_job *j)
{
    uint64_t t0 = ap_clock_ns();
    if (j->item_active && !j->moved) {
        /* The item that outgrew the fast lane restarts on the slow workspace (see slow_work). */
        int st = ap_plan_move(&j->plan, j->slow_ws);
        ap_plan_set_cancel(&j->plan, &l->cancel);
        if (st != AP_IN_PROGRESS)
            batch_finish_item(j, AP_LANE_SLOW);
    }
    j->moved = true;
    j->state = batch_run(l, j, j->slow_ws, AP_LANE_SLOW, l->cfg.slow_slice, l->cfg.slow_slice);
    j->search_ns += ap_clock_ns() - t0;
    encode_on_worker(l, j);
}

/* A task job's one run (lanes.h task: a picture), on a slow-lane pool thread. */
static void run_task(ap_job *j)
{
    j->t_first_ns = ap_clock_ns();
    j->task(j);
    j->task_done = true;
    j->state = j->status == AP_IN_PROGRESS ? AP_E_INTERNAL : j->status;
    j->search_ns = ap_clock_ns() - j->t_first_ns;
}

static void fast_work(uv_work_t *w)
{
    ap_job *j = w->data;
    ap_lanes *l = j->owner;
    ap_pool_thread_setup(l->cfg.pool_nice);
    if (j->items) {
        batch_fast_work(l, j);
        return;
    }
    uint64_t t0 = ap_clock_ns();
    j->t_first_ns = t0;
    if (expired(l, j, t0)) {
        finish_timeout_unsearched(j);
        return;
    }
    if (ap_query_setup_is_heavy(&j->q)) {
        /* Its set-up alone (a long corridor's grid path, a large lattice bound) would hold this fast worker
         * for tens of milliseconds while short queries wait: it begins on the slow lane instead, where its
         * first slice starts (queue_us counts the wait for a slow slot). */
        j->begin_slow = true;
        j->t_first_ns = 0;
        j->state = AP_IN_PROGRESS;
        return;
    }
    ap_workspace *ws = fast_take(l);
    int st = ap_plan_begin(&j->plan, &j->q, ws, j->deadline_ns);
    ap_plan_set_cancel(&j->plan, &l->cancel);
    if (st == AP_IN_PROGRESS)
        st = step_slice(&j->plan, l->cfg.fast_budget, fast_slice_ns(l));
    if (st != AP_IN_PROGRESS)
        finish_plan(j, st);
    else
        j->state = AP_IN_PROGRESS;
    fast_release(l, ws);
    j->search_ns += ap_clock_ns() - t0;
    encode_on_worker(l, j);
}

static void slow_work(uv_work_t *w)
{
    ap_job *j = w->data;
    ap_lanes *l = j->owner;
    ap_pool_thread_setup(l->cfg.pool_nice);
    if (j->task) {
        /* A picture whose client has gone is not drawn, or not sent: 499 client_closed in the log and the
         * metrics, as a search's. A drawing cannot be stopped midway (one cairo stroke), so one that outlived
         * its client was logged and counted 200 ok, the bytes written to a closed socket (a helper). */
        if (!abandoned(j))
            run_task(j);
        if (abandoned(j)) {
            ap_jbuf_free(&j->out);
            j->task_done = false;
            j->state = AP_E_CLIENT_CLOSED;
        }
        encode_on_worker(l, j);
        return;
    }
    if (j->items) {
        batch_slow_work(l, j);
        return;
    }
    uint64_t t0 = ap_clock_ns();
    if (!j->t_first_ns)
        j->t_first_ns = t0; /* a query that began on the slow lane starts here */
    if (expired(l, j, t0)) {
        finish_expired(j);
        encode_on_worker(l, j);
        return;
    }
    int st;
    if (!j->moved) {
        /* The search restarts from scratch on the slow workspace: the fast workspace went back to the pool
         * the moment the fast slice ended, so that the next fast query never waits for a slow one. The
         * discarded work is at most fast_budget expansions; keeping it would mean copying a whole search
         * matrix (56 bytes per node of the largest map) or pinning a fast workspace for the slow search's
         * lifetime — exactly the starvation Pinter's second matrix exists to avoid. */
        st = j->begin_slow ? ap_plan_begin(&j->plan, &j->q, j->slow_ws, j->deadline_ns)
                           : ap_plan_move(&j->plan, j->slow_ws);
        ap_plan_set_cancel(&j->plan, &l->cancel);
        j->moved = true;
    } else {
        st = AP_IN_PROGRESS;
    }
    /* Slices of slow_slice expansions; more of them in this turn while no other slow job waits, up to
     * slow_turn_ns (the deadline is read inside the search, the client between turns). */
    j->slow_turns++;
    uint64_t slice_ns = AP_LANE_SLOW_SLICE_NS;
    while (st == AP_IN_PROGRESS) {
        st = step_slice(&j->plan, l->cfg.slow_slice, slice_ns);
        const uint64_t used = ap_clock_ns() - t0;
        if (atomic_load_explicit(&l->slow_waiting, memory_order_relaxed) != 0 || atomic_load(&l->cancel) ||
            used >= l->cfg.slow_turn_ns)
            break;
        /* a costly search's slice keeps to what is left of the turn (the turn stays within slow_turn_ns) */
        slice_ns = l->cfg.slow_turn_ns - used < AP_LANE_SLOW_SLICE_NS ? l->cfg.slow_turn_ns - used
                                                                       : AP_LANE_SLOW_SLICE_NS;
    }
    if (st != AP_IN_PROGRESS)
        finish_plan(j, st);
    else
        j->state = AP_IN_PROGRESS;
    j->search_ns += ap_clock_ns() - t0;
    encode_on_worker(l, j);
}

/* ---- completion (loop thread) ------------------------------------------------------------------------- */

static void maybe_drained(ap_lanes *l);

/* Encode the finished job's answer into job->out (single query or batch) and count its search. Loop
 * thread, or the submitter's thread for inline jobs. */
static void encode_answer(ap_lanes *l, ap_job *j, uint64_t now)
{
    j->queue_us = ((j->t_first_ns ? j->t_first_ns : now) - j->t_submit_ns) / 1000;
    j->search_us = j->search_ns / 1000;
    if (j->task_done) { /* the task wrote its own answer */
        j->status = j->state;
        j->body = j->out.failed ? NULL : j->out.p;
        j->body_len = j->out.failed ? 0 : j->out.len;
        if (j->body == NULL)
            j->http_status = 500;
        j->t_encoded_ns = ap_clock_ns();
        return;
    }
    j->status = j->state;
    if (j->task && j->status == AP_TIMEOUT)
        j->status = AP_E_NOT_READY; /* a task cancelled unrun (drain): no search answer to give */
    ap_path_stats st = {.lane = ap_metrics_lane_name(j->lane),
                        .queue_us = j->queue_us,
                        .search_us = j->search_us,
                        .sample_step = j->q.sample_step,
                        .map_version = j->map_version};
    int http = 200;
    if (j->items && (j->status == AP_OK || j->status == AP_TIMEOUT || j->status == AP_IN_PROGRESS)) {
        /* A batch is answered item by item; whatever is left now (the job timed out or was cancelled
         * while queued) answers "timeout". */
        if (j->out.len == 0)
            ap_wire_write_batch_begin(&j->out, j->map_id, j->map_version);
        if (j->next_item < j->n_items) {
            if (j->item_active) {
                ap_result r;
                memset(&r, 0, sizeof r);
                r.status = AP_TIMEOUT;
                r.expanded = ap_plan_expanded(&j->plan);
                batch_write_item(j, &r, j->lane);
            }
            batch_skip(j, true);
        }
        ap_wire_write_batch_end(&j->out, j->expanded, &st);
        j->status = AP_OK;
        count_batch_answers(l, j);
    } else if (j->items) {
        if (j->status == AP_E_CLIENT_CLOSED && j->item_active)
            j->expanded += ap_plan_expanded(&j->plan); /* the open item's search, stopped */
        ap_jbuf_reset(&j->out);
        ap_wire_write_error(&j->out, j->status, j->status == AP_E_NOT_READY ? AP_LANES_SHUTTING_DOWN : NULL, NULL, 0, 0,
                            &http);
    } else {
        j->expanded = j->result.expanded;
        j->outcome = AP_OUTCOME_COUNT;
        if (j->status == AP_OK || j->status == AP_NO_PATH || j->status == AP_TIMEOUT) {
            ap_wire_write_path(&j->out, j->q.map ? j->q.map->id : j->map_id ? j->map_id : "", &j->result, &st);
            j->outcome = outcome_of(&j->result);
            if (!j->count_later)
                count_answer(l, &j->result);
        }
        else {
            if (j->status == AP_E_CLIENT_CLOSED) /* its search stopped: what it expanded still counts */
                j->expanded = j->t_first_ns ? ap_plan_expanded(&j->plan) : 0;
            char named[128], msg[sizeof j->result.message + 32];
            ap_json_prefix_error(named, sizeof named, msg, sizeof msg, j->result.message, j->field_prefix,
                                 j->result.field);
            ap_wire_write_query_error(&j->out, j->status, msg[0] ? msg : NULL, named[0] ? named : NULL,
                                      j->map_version, &http);
        }
    }
    j->http_status = http;
    if (j->out.failed) {
        j->body = NULL;
        j->body_len = 0;
        j->http_status = 500;
    } else {
        j->body = j->out.p;
        j->body_len = j->out.len;
    }
    j->t_encoded_ns = ap_clock_ns();
    /* A job the slow lane refused (overloaded) searched in its fast slice only: counted there, with that
     * slice's expansions (it was counted as a slow-lane search of none). A task (a drawing) is no search:
     * one whose client left reaches here (a finished one returned above) and was observed as a slow one. */
    const bool refused = j->status == AP_E_OVERLOADED;
    if (l->metrics && !j->task && j->t_first_ns && j->search_ns)
        ap_metrics_observe_search(l->metrics, refused ? AP_LANE_FAST : j->lane, j->search_ns,
                                  refused ? ap_plan_expanded(&j->plan) : j->expanded);
    ap_result_free(&j->result);
    /* A plan begun in the fast lane and answered without a finish (overloaded in the slow lane, expired or
     * cancelled while waiting for a slot, a batch's open item) still holds its kind's memory. */
    ap_plan_release(&j->plan);
}

static void complete(ap_lanes *l, ap_job *j)
{
    uint64_t now = ap_clock_ns();
    j->t_back_ns = now;
    if (j->encoded)
        j->t_encoded_ns = now; /* (its worker's encode_ns counts as the encode stage) */
    else
        encode_answer(l, j, now);

    pthread_mutex_lock(&l->inbox_mu);
    l->outstanding--;
    pthread_mutex_unlock(&l->inbox_mu);
    l->done(j, l->done_arg); /* may free j */
    maybe_drained(l);
}

/* Answer j with status (and message, NULL = the code's default) without searching further. */
static void complete_msg(ap_lanes *l, ap_job *j, int status, const char *message)
{
    memset(&j->result, 0, sizeof j->result);
    j->result.status = status;
    if (message != NULL)
        snprintf(j->result.message, sizeof j->result.message, "%s", message);
    if (status == AP_TIMEOUT && j->t_first_ns)
        j->result.expanded = ap_plan_expanded(&j->plan);
    j->state = status;
    complete(l, j);
}

static void complete_with(ap_lanes *l, ap_job *j, int status)
{
    complete_msg(l, j, status, NULL);
}


static void overloaded(ap_lanes *l, ap_job *j, ap_lane lane)
{
    j->lane = lane;
    if (l->metrics)
        ap_metrics_overloaded(l->metrics, lane);
    complete_with(l, j, AP_E_OVERLOADED);
}

/* ---- slow lane (loop thread) -------------------------------------------------------------------------- */

static void slow_after(uv_work_t *w, int status);

static void slow_release(ap_lanes *l, ap_job *j)
{
    if (j->slow_ws) {
        l->slow_free[l->n_slow_free++] = j->slow_ws;
        j->slow_ws = NULL;
    }
    if (l->metrics)
        ap_metrics_queue_add(l->metrics, AP_LANE_SLOW, -1);
}

/* Give free slots to waiting jobs, then feed the pool up to the slow cap. */
static void slow_pump(ap_lanes *l)
{
    uint64_t now = ap_clock_ns();
    while (l->n_slow_free > 0 && l->pending_head) {
        ap_job *j = q_pop(&l->pending_head, &l->pending_tail);
        l->pending_n--;
        const int stop = stop_reason(l, j, now);
        if (stop != AP_OK) {
            slow_release(l, j);
            complete_with(l, j, stop);
            continue;
        }
        j->slow_ws = l->slow_free[--l->n_slow_free];
        q_push(&l->run_head, &l->run_tail, j);
        l->run_n++;
    }
    while (l->slow_in_pool < l->slow_in_pool_max && l->run_head) {
        ap_job *j = q_pop(&l->run_head, &l->run_tail);
        l->run_n--;
        j->work.data = j;
        if (uv_queue_work(l->loop, &j->work, slow_work, slow_after) != 0) {
            slow_release(l, j);
            complete_with(l, j, AP_E_INTERNAL);
            continue;
        }
        l->slow_in_pool++;
    }
    atomic_store_explicit(&l->slow_waiting, l->run_n, memory_order_relaxed);
}

static void slow_admit(ap_lanes *l, ap_job *j)
{
    j->lane = AP_LANE_SLOW;
    if (atomic_load(&l->cancel)) {
        complete_with(l, j, AP_TIMEOUT);
        return;
    }
    if (abandoned(j)) {
        complete_with(l, j, AP_E_CLIENT_CLOSED);
        return;
    }
    if (l->n_slow_free == 0 && l->pending_n >= l->cfg.slow_queue) {
        overloaded(l, j, AP_LANE_SLOW);
        return;
    }
    if (l->metrics)
        ap_metrics_queue_add(l->metrics, AP_LANE_SLOW, 1);
    q_push(&l->pending_head, &l->pending_tail, j);
    l->pending_n++;
    slow_pump(l);
}

static void slow_after(uv_work_t *w, int status)
{
    ap_job *j = w->data;
    ap_lanes *l = j->owner;
    l->slow_in_pool--;
    if (status != 0 && j->state == AP_IN_PROGRESS)
        j->state = AP_E_INTERNAL;
    if (j->state != AP_IN_PROGRESS) {
        slow_release(l, j);
        complete(l, j);
    } else if (abandoned(j)) {
        /* its client will not read the answer: the slot is the next job's */
        slow_release(l, j);
        complete_with(l, j, AP_E_CLIENT_CLOSED);
    } else {
        /* Back of the run queue: fast work queued meanwhile is already ahead of it in the pool's FIFO. */
        q_push(&l->run_head, &l->run_tail, j);
        l->run_n++;
    }
    slow_pump(l);
}

/* ---- fast lane (loop thread) -------------------------------------------------------------------------- */

static void fast_after(uv_work_t *w, int status)
{
    ap_job *j = w->data;
    ap_lanes *l = j->owner;
    if (status == 0 && j->requeue_fast && !atomic_load(&l->cancel)) {
        /* A batch's fast turn spent its budget: back of the pool's queue, behind fast work waiting, still
         * counted in fast_active. */
        j->requeue_fast = false;
        if (uv_queue_work(l->loop, &j->work, fast_work, fast_after) == 0)
            return;
    }
    j->requeue_fast = false;
    l->fast_active--;
    if (l->metrics)
        ap_metrics_queue_add(l->metrics, AP_LANE_FAST, -1);
    if (status != 0 && j->state == AP_IN_PROGRESS)
        j->state = AP_E_INTERNAL;
    if (j->state == AP_IN_PROGRESS)
        slow_admit(l, j);
    else
        complete(l, j);
}

static void fast_admit(ap_lanes *l, ap_job *j)
{
    j->lane = AP_LANE_FAST;
    if (atomic_load(&l->cancel)) {
        complete_with(l, j, AP_TIMEOUT);
        return;
    }
    if (l->fast_active >= l->cfg.fast_queue) {
        overloaded(l, j, AP_LANE_FAST);
        return;
    }
    j->work.data = j;
    if (uv_queue_work(l->loop, &j->work, fast_work, fast_after) != 0) {
        complete_with(l, j, AP_E_INTERNAL);
        return;
    }
    l->fast_active++;
    if (l->metrics)
        ap_metrics_queue_add(l->metrics, AP_LANE_FAST, 1);
}

static void on_async(uv_async_t *a)
{
    ap_lanes *l = a->data;
    pthread_mutex_lock(&l->inbox_mu);
    ap_job *j = l->inbox_head;
    l->inbox_head = l->inbox_tail = NULL;
    pthread_mutex_unlock(&l->inbox_mu);
    /* uv_async_send coalesces wake-ups, so one callback may carry many jobs; admission is in FIFO order. */
    while (j) {
        ap_job *next = j->next;
        j->next = NULL;
        j->t_admit_ns = ap_clock_ns();
        if (j->inline_done || j->task)
            slow_admit(l, j); /* its fast slice already ran on the HTTP thread; or a picture: a 1024^2 map's
                               * PNG with a path of 261,632 cells and its samples takes 2 s, and three of
                               * them held both pool threads, every fast query waiting (a helper) */
        else
            fast_admit(l, j);
        j = next;
    }
}

static void on_sweep(uv_timer_t *t)
{
    ap_lanes *l = t->data;
    if (!l->pending_head && !l->run_head)
        return;
    /* Pending slow jobs hold no slot, so their deadline is not checked by any search; answer the expired
     * ones (and those whose client has gone) now instead of when a slot frees, which can be up to
     * max_deadline_ms later. */
    uint64_t now = ap_clock_ns();
    ap_job *keep_head = NULL, *keep_tail = NULL, *j;
    while ((j = q_pop(&l->pending_head, &l->pending_tail))) {
        const int stop = stop_reason(l, j, now);
        if (stop != AP_OK) {
            l->pending_n--;
            slow_release(l, j);
            complete_with(l, j, stop);
        } else {
            q_push(&keep_head, &keep_tail, j);
        }
    }
    l->pending_head = keep_head;
    l->pending_tail = keep_tail;
    /* Jobs with a slot wait in the run queue while the pool's slow threads (workers - 1) run other slices,
     * and one slice can be long (a unit profile's build: seconds for a wide disc): queries behind it
     * answered timeout seconds past their deadline (a helper). Those due to stop are answered now. */
    keep_head = keep_tail = NULL;
    while ((j = q_pop(&l->run_head, &l->run_tail))) {
        const int stop = stop_reason(l, j, now);
        if (stop == AP_OK) {
            q_push(&keep_head, &keep_tail, j);
            continue;
        }
        l->run_n--;
        if (stop == AP_TIMEOUT && !j->items) {
            /* as slow_work would (here on the loop thread: no thread owns the plan while it waits), before
             * its workspace goes back */
            finish_expired(j);
            slow_release(l, j);
            complete(l, j);
        } else {
            /* a batch's item that ran slow slices stops as batch_run would stop it: a kinodynamic item that
             * had reached its goal answered timeout here where its single query answered capped (a helper);
             * the items after it answer timeout (encode_answer) */
            if (stop == AP_TIMEOUT && j->items && j->item_active && j->moved)
                batch_stop_item(j, AP_LANE_SLOW);
            slow_release(l, j);
            complete_with(l, j, stop);
        }
    }
    l->run_head = keep_head;
    l->run_tail = keep_tail;
    slow_pump(l); /* (slots freed above go to pending jobs; it also publishes slow_waiting) */
}

/* ---- public ------------------------------------------------------------------------------------------- */

void ap_job_init(ap_job *job)
{
    memset(job, 0, sizeof *job);
}

void ap_lanes_config_from(ap_lanes_config *lc, const ap_config *c, uint32_t capacity)
{
    memset(lc, 0, sizeof *lc);
    lc->workers = c->workers;
    lc->slow_slots = c->slow_slots;
    lc->fast_queue = c->fast_queue;
    lc->slow_queue = c->slow_queue;
    lc->fast_budget = c->fast_budget;
    lc->slow_slice = c->slow_slice;
    lc->slow_turn_ns = AP_LANE_SLOW_SLICE_NS;
    lc->pool_nice = c->pool_nice;
    lc->capacity = capacity;
    lc->max_answer_bytes = c->max_answer_bytes;
}

static void free_workspaces(ap_workspace *ws, int n)
{
    if (!ws)
        return;
    for (int i = 0; i < n; i++)
        ap_workspace_free(&ws[i]);
    free(ws);
}

int ap_lanes_init(ap_lanes *l, uv_loop_t *loop, const ap_lanes_config *cfg, ap_metrics *metrics,
                  ap_job_done_fn done, void *done_arg)
{
    memset(l, 0, sizeof *l);
    l->loop = loop;
    l->cfg = *cfg;
    if (l->cfg.workers < 1)
        l->cfg.workers = 1;
    if (l->cfg.slow_slots < 1)
        l->cfg.slow_slots = 1;
    if (l->cfg.fast_budget < 1)
        l->cfg.fast_budget = 1;
    if (l->cfg.slow_slice < 1)
        l->cfg.slow_slice = 1;
    if (l->cfg.capacity < 16)
        l->cfg.capacity = 16; /* no maps yet: keep valid (tiny) workspaces rather than special cases */
    l->metrics = metrics;
    l->done = done;
    l->done_arg = done_arg;
    l->slow_in_pool_max = l->cfg.workers > 1 ? l->cfg.workers - 1 : 1;
    l->accepting = true;

    char n[16];
    snprintf(n, sizeof n, "%d", l->cfg.workers);
    setenv("UV_THREADPOOL_SIZE", n, 1);

    int nf = l->cfg.workers, ns = l->cfg.slow_slots;
    l->fast_ws = calloc((size_t)nf, sizeof *l->fast_ws);
    l->fast_free = calloc((size_t)nf, sizeof *l->fast_free);
    l->slow_ws = calloc((size_t)ns, sizeof *l->slow_ws);
    l->slow_free = calloc((size_t)ns, sizeof *l->slow_free);
    int rc = (l->fast_ws && l->fast_free && l->slow_ws && l->slow_free) ? AP_OK : AP_E_NOMEM;
    for (int i = 0; rc == AP_OK && i < nf; i++) {
        rc = ap_workspace_init(&l->fast_ws[i], l->cfg.capacity, MAX_SUCC);
        if (rc == AP_OK)
            l->fast_free[l->n_fast_free++] = &l->fast_ws[i];
    }
    for (int i = 0; rc == AP_OK && i < ns; i++) {
        rc = ap_workspace_init(&l->slow_ws[i], l->cfg.capacity, MAX_SUCC);
        if (rc == AP_OK)
            l->slow_free[l->n_slow_free++] = &l->slow_ws[i];
    }
    if (rc != AP_OK) {
        free_workspaces(l->fast_ws, nf);
        free_workspaces(l->slow_ws, ns);
        free(l->fast_free);
        free(l->slow_free);
        memset(l, 0, sizeof *l);
        return AP_E_NOMEM;
    }

    pthread_mutex_init(&l->inbox_mu, NULL);
    pthread_mutex_init(&l->pool_mu, NULL);
    pthread_cond_init(&l->pool_cv, NULL);
    if (uv_async_init(loop, &l->async, on_async) != 0 || uv_timer_init(loop, &l->sweep) != 0 ||
        uv_timer_init(loop, &l->drain_timer) != 0) {
        ap_lanes_free(l);
        return AP_E_INTERNAL;
    }
    l->async.data = l;
    l->sweep.data = l;
    l->drain_timer.data = l;
    l->handles_open = 3;
    uv_timer_start(&l->sweep, on_sweep, SWEEP_INTERVAL_MS, SWEEP_INTERVAL_MS);
    uv_unref((uv_handle_t *)&l->sweep); /* never keeps the loop alive on its own */
    return AP_OK;
}

int ap_lanes_run_inline(ap_lanes *l, ap_job *job)
{
    ap_workspace *ws = fast_try_take(l);
    if (ws == NULL)
        return AP_E_OVERLOADED;
    uint64_t t0 = ap_clock_ns();
    job->owner = l;
    job->t_submit_ns = job->t_admit_ns = job->t_first_ns = t0;
    job->lane = AP_LANE_FAST;
    job->inline_done = true;
    if (expired(l, job, t0)) {
        fast_release(l, ws);
        finish_timeout_unsearched(job);
    } else {
        int st = ap_plan_begin(&job->plan, &job->q, ws, job->deadline_ns);
        ap_plan_set_cancel(&job->plan, &l->cancel);
        if (st == AP_IN_PROGRESS)
            st = step_slice(&job->plan, l->cfg.fast_budget, fast_slice_ns(l));
        if (st != AP_IN_PROGRESS && !ap_plan_finish_is_cheap(&job->plan)) {
            /* Its answer is long to build and write (a path of thousands of cells): not on this thread.
             * It is handed to the fast lane as if it had not run here, where a worker searches again (at
             * most fast_budget expansions), builds and encodes it. (Begun again on the slow lane, it
             * waited behind long slices there and answered timeout, or 503 with a small slow_queue.) */
            ap_plan_release(&job->plan);
            job->inline_done = false;
            job->t_first_ns = 0;
            job->search_ns = 0;
            fast_release(l, ws);
            job->state = AP_IN_PROGRESS;
            return AP_IN_PROGRESS;
        }
        if (st != AP_IN_PROGRESS)
            finish_plan(job, st);
        else
            job->state = AP_IN_PROGRESS;
        fast_release(l, ws);
    }
    uint64_t now = ap_clock_ns();
    job->search_ns += now - t0;
    if (job->state == AP_IN_PROGRESS)
        return AP_IN_PROGRESS;
    job->t_back_ns = now;
    encode_answer(l, job, now);
    return AP_OK;
}

int ap_lanes_submit(ap_lanes *l, ap_job *job)
{
    /* a batch's room for its items as errors (batch_write_item), unless ap_lanes_batch_floor counted it:
     * before the lock, O(n_items) */
    if (job->items != NULL && job->next_item == 0 && job->reserve == 0)
        job->reserve = batch_rest_bytes(job, 0);
    pthread_mutex_lock(&l->inbox_mu);
    if (!l->accepting) {
        pthread_mutex_unlock(&l->inbox_mu);
        return AP_E_NOT_READY;
    }
    if (!job->inline_done)
        job->t_submit_ns = ap_clock_ns();
    job->owner = l;
    job->next = NULL;
    if (l->inbox_tail)
        l->inbox_tail->next = job;
    else
        l->inbox_head = job;
    l->inbox_tail = job;
    l->outstanding++;
    /* Sent under the lock: the loop cannot complete this job (and so cannot drain and close the async
     * handle) before the send has happened. */
    uv_async_send(&l->async);
    pthread_mutex_unlock(&l->inbox_mu);
    return AP_OK;
}

size_t ap_lanes_outstanding(ap_lanes *l)
{
    pthread_mutex_lock(&l->inbox_mu);
    size_t n = l->outstanding;
    pthread_mutex_unlock(&l->inbox_mu);
    return n;
}

static void maybe_drained(ap_lanes *l)
{
    if (!l->draining || !l->drained || ap_lanes_outstanding(l) != 0)
        return;
    ap_lanes_drained_fn cb = l->drained;
    l->drained = NULL;
    uv_timer_stop(&l->drain_timer);
    cb(l, l->drained_arg);
}

static void on_drain_timeout(uv_timer_t *t)
{
    ap_lanes_cancel(t->data);
}

/* Answer every job waiting for a slow slot (they hold none) with status and message. */
static void answer_pending(ap_lanes *l, int status, const char *message)
{
    ap_job *j;
    while ((j = q_pop(&l->pending_head, &l->pending_tail))) {
        l->pending_n--;
        slow_release(l, j);
        complete_msg(l, j, status, message);
    }
}

void ap_lanes_cancel(ap_lanes *l)
{
    atomic_store(&l->cancel, 1);
    answer_pending(l, AP_TIMEOUT, NULL);
    ap_job *j;
    while ((j = q_pop(&l->run_head, &l->run_tail))) {
        l->run_n--;
        slow_release(l, j);
        complete_with(l, j, AP_TIMEOUT);
    }
    /* Jobs in the inbox are admitted by on_async, which answers them "timeout" now that cancel is set. */
}

void ap_lanes_drain(ap_lanes *l, int timeout_ms, ap_lanes_drained_fn drained, void *arg)
{
    pthread_mutex_lock(&l->inbox_mu);
    l->accepting = false;
    pthread_mutex_unlock(&l->inbox_mu);
    l->draining = true;
    l->drained = drained;
    l->drained_arg = arg;
    /* Jobs still waiting for a slow slot are answered 503 not_ready now, as a request arriving during the
     * drain is: a load balancer resends them to another replica at once. Left queued, each waited for a slot
     * the running searches hold (up to the whole drain), and was then cut at drain_timeout_ms and answered 200
     * "timeout", an answer no balancer retries (a helper: 11 s, expanded 0). */
    answer_pending(l, AP_E_NOT_READY, AP_LANES_SHUTTING_DOWN);
    if (timeout_ms <= 0)
        ap_lanes_cancel(l);
    else
        uv_timer_start(&l->drain_timer, on_drain_timeout, (uint64_t)timeout_ms, 0);
    maybe_drained(l);
}

static void on_closed(uv_handle_t *h)
{
    ap_lanes *l = h->data;
    l->handles_open--;
}

void ap_lanes_close(ap_lanes *l)
{
    pthread_mutex_lock(&l->inbox_mu);
    l->accepting = false;
    pthread_mutex_unlock(&l->inbox_mu);
    if (l->handles_open == 3) {
        uv_close((uv_handle_t *)&l->async, on_closed);
        uv_close((uv_handle_t *)&l->sweep, on_closed);
        uv_close((uv_handle_t *)&l->drain_timer, on_closed);
    }
}

void ap_lanes_free(ap_lanes *l)
{
    if (!l || !l->fast_ws)
        return;
    free_workspaces(l->fast_ws, l->cfg.workers);
    free_workspaces(l->slow_ws, l->cfg.slow_slots);
    free(l->fast_free);
    free(l->slow_free);
    pthread_mutex_destroy(&l->inbox_mu);
    pthread_mutex_destroy(&l->pool_mu);
    pthread_cond_destroy(&l->pool_cv);
    memset(l, 0, sizeof *l);
}
