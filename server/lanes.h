/* lanes.h — dispatch: the hand-off from the HTTP thread and the two search lanes on the libuv pool.
 *
 * Threads (see docs/ARCHITECTURE.md):
 *   - any thread (in the server: MHD's polling thread) calls ap_lanes_submit: the job goes on a locked inbox
 *     and uv_async_send wakes the loop (the only libuv call that is thread-safe); it may first call
 *     ap_lanes_run_inline to run a single query's fast slice itself, which needs no hand-off at all;
 *   - the loop thread (the one running uv_run on l->loop) owns every other field: admission, queues, slow
 *     slots, completion, drain. All ap_lanes_* functions other than ap_lanes_submit run on it;
 *   - pool workers run search slices (uv_queue_work) on workspaces; they touch only their job, the fast
 *     workspace pool (locked) and the atomic metrics.
 *
 * Lanes (Pinter, "Path Failure and Timeslicing": one matrix for the occasional slow, time-sliced search,
 * others for interspersed fast searches):
 *   fast: every admitted job first runs up to fast_budget expansions (a costly search: also at most
 *         AP_LANE_FAST_SLICE_NS) on a fast workspace (one per worker, taken from a locked pool, allocated once
 *         at start). Most queries end here.
 *   slow: a search still unfinished after fast_budget moves to one of slow_slots slow workspaces, which it
 *         owns until it finishes, and runs in slices of slow_slice expansions (a costly search: also at most
 *         AP_LANE_SLOW_SLICE_NS), one uv_queue_work turn each; while no other slow job waits, a turn goes on
 *         slicing up to slow_turn_ns (the server: AP_LANE_SLOW_SLICE_NS; each hop through the loop cost
 *         ~40 us beside ~0.2 ms of grid search: a fifth of a long search's time).
 *         Between turns it returns to the loop thread and is queued behind fast work already waiting in
 *         the pool; at most max(1, workers - 1) slow slices sit in the pool at once so that a worker stays
 *         free for fast queries.
 *
 * Completion: the worker that ends a job encodes its answer with proto/ into job->body (the loop thread
 * encodes the answers it makes itself: timeouts and refusals of waiting jobs), and on the loop thread the
 * pluggable done hook is called (the server resumes the MHD connection there; tests record the job).
 */
#ifndef AP_SERVER_LANES_H
#define AP_SERVER_LANES_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "../config/config.h"
#include "../planner/plan/plan.h"
#include "../proto/wire.h"
#include "metrics.h"

/* A slice's time bound beside its expansions (ap_plan_step_for): fast_budget and slow_slice expansions take
 * well under a millisecond on the grid, but an any_angle search without its map's table spends 1-20 ms an
 * expansion, and without these it held a fast worker for its whole deadline (2,000 such expansions: 2-40 s).
 * Read where the deadline is, after a slice's first expansion; only such costly searches take it (plan.h). */
#define AP_LANE_FAST_SLICE_NS 2000000ull  /* 2 ms */
#define AP_LANE_SLOW_SLICE_NS 10000000ull /* 10 ms */

/* One query of a batch job (POST /v1/paths). */
typedef struct ap_job_item {
    ap_query q;          /* validated (ap_query_check passed) when status == AP_OK */
    int status;          /* AP_OK: search it; any AP_E_*: answer this error for the item without searching */
    const char *message; /* errors only: message (NULL = the error table's), borrowed; must outlive the job */
    const char *field;   /* errors only: offending field relative to the item ("start.x"), or NULL; borrowed */
} ap_job_item;

/* One path query (or one batch of queries on one map) on its way through the lanes. Caller-owned (the HTTP layer embeds it in its per-request
 * context, next to the connection pointer and request id). Zero it with ap_job_init, fill the input
 * fields, submit; lanes owns the job from a successful ap_lanes_submit until it calls the done hook, after
 * which lanes never touches it again. */
typedef struct ap_job ap_job;
struct ap_job {
    /* --- input, set by the submitter --- */
    ap_query q;           /* validated (ap_query_check passed); q.map set and outliving the job */
    uint64_t deadline_ns; /* absolute, ap_clock_ns() clock; 0 = none */
    void *user;           /* opaque to lanes (the server's request context) */
    /* batch: n_items queries answered in order in one body ({"status":"ok","map":map_id,"results":[...]});
     * items borrowed, outliving the job; NULL for a single query (q). Every item gets up to fast_budget
     * expansions in the fast lane; an item that needs more takes the rest of the batch to the slow lane;
     * a fast turn that has spent fast_budget expansions on finished items goes back to the end of the fast
     * queue, so a batch never holds a fast worker much longer than one query would. */
    ap_job_item *items;
    size_t n_items;
    const char *map_id;   /* batch, or a single query on a circle map: the map id written in the answer;
                           * borrowed */
    uint64_t map_version; /* the map's version (server/registry.h), written as "map_version"; 0 = none */
    const char *field_prefix; /* a single query's error fields are written after this ("query." for the
                               * query of POST /v1/render); NULL = none; borrowed, must outlive the job */
    /* Where the answer is written: optional caller storage set with ap_jbuf_init(&job->out, buf, cap)
     * before submitting (e.g. the request's arena); zeroed (ap_job_init) = the heap. */
    ap_jbuf out;
    /* A task instead of a search (q and items unused): work too slow for the HTTP thread that is not a
     * plan, e.g. drawing a picture (~0.1 s for a PNG of a 1024² map, seconds with a path of 10^5 cells). It
     * runs once on a pool thread in the slow lane (a slot, at most workers - 1 such threads at once, so a
     * thread stays free for fast searches; admitted, counted and refused when overloaded like a slow
     * search; the deadline is not checked) and writes the whole answer itself: any bytes into out, and
     * status and http_status. lanes encodes nothing for it, except an error answer when it never ran
     * (overloaded, cancelled, its client gone); it compresses what the task wrote when gzip_ok. */
    void (*task)(ap_job *job);
    /* Optional: has the client gone? Asked on the loop thread while the job waits for a slow slot and
     * between its slow slices (not in the fast lane, whose slice is short), and on the pool thread before
     * and after a task runs; true stops the job there and answers AP_E_CLIENT_CLOSED (a task's output is
     * dropped), and its slot goes to the next job. NULL = never asked. Must not block: the server peeks at
     * the connection's socket (server/http.c), which nothing else reads while the job is out. */
    bool (*client_gone)(const ap_job *job);
    /* The client takes gzip (Content-Encoding): an answer made on a worker (a query's, a batch's, a task's)
     * is compressed there too by ap_gzip_answer's rule (server/gzip.h), not on the HTTP thread; gzipped
     * then says so. */
    bool gzip_ok;
    /* A single query whose answer is not the client's yet (POST /v1/render's query: its picture can still be
     * refused, 503 or 413): its outcome is not counted in arcpath_path_answers_total here, only said in
     * outcome, for the caller to count once its own answer is made. */
    bool count_later;

    /* --- output, valid in and after the done hook --- */
    int status;           /* AP_OK, AP_NO_PATH, AP_TIMEOUT, or AP_E_* (AP_E_OVERLOADED when a lane was full) */
    int http_status;      /* HTTP status of body */
    char *body;           /* the JSON answer (NULL only if encoding ran out of memory) = out.p: inside the
                           * caller's storage, or malloc'd when out.heap (then the job's owner frees it,
                           * or hands it to MHD) */
    size_t body_len;
    bool gzipped;         /* body is the answer's gzip member (gzip_ok), in out's heap storage */
    ap_lane lane;         /* lane the job finished in */
    uint64_t queue_us;    /* hand-off -> first slice start (or -> completion if it never ran) */
    uint64_t search_us;   /* sum of slice wall times, including the move and path building */
    uint64_t expanded;    /* A* expansions, all slices and lanes */
    int outcome;          /* a single query answered ok, no_path or timeout: its ap_outcome (metrics.h);
                           * else AP_OUTCOME_COUNT */
    /* ap_clock_ns() timestamps for the stage metrics (metrics.h, ap_stage), 0 = not reached: */
    uint64_t t_submit_ns;  /* ap_lanes_submit */
    uint64_t t_admit_ns;   /* the loop thread took it from the inbox */
    uint64_t t_first_ns;   /* the first slice started on a worker */
    uint64_t t_back_ns;    /* the loop thread saw the last slice end */
    uint64_t t_encoded_ns; /* the answer was encoded, just before the done hook */
    uint64_t search_ns;    /* summed slice wall times */
    uint64_t encode_ns;    /* the answer encoded (and compressed) on its worker, right after its last slice
                            * (0: encoded on the loop or the submitting thread, t_back_ns .. t_encoded_ns) */

    /* --- private to lanes --- */
    ap_plan plan;
    ap_result result;
    bool inline_done;      /* the fast slice ran on the submitter's thread (ap_lanes_run_inline) */
    bool task_done;        /* task ran: out holds its answer */
    bool encoded;          /* its worker encoded the answer (body, status set): the loop only hands it back */
    size_t next_item;      /* batch: the first item not yet answered */
    bool item_active;      /* batch: plan holds items[next_item]'s unfinished search */
    bool requeue_fast;     /* batch: the fast turn ended on its budget; queue another fast turn */
    bool answer_full;      /* batch: the body reached max_answer_bytes; the rest answer answer_too_large */
    size_t reserve;        /* batch: bytes kept for the items from next_item on answered as errors (their
                            * own error, else answer_too_large) and for the end, so the body never passes
                            * max_answer_bytes (ap_lanes_batch_floor); an item's write takes its share out */
    uint64_t item_ns;      /* batch: search time of the active item so far */
    uint32_t item_outcomes[AP_OUTCOME_COUNT]; /* batch: items answered so far by outcome; they count in
                            * arcpath_path_answers_total only once the batch's 200 is made (a batch that
                            * ends 503 or 499 delivered none of them) */
    ap_workspace *slow_ws; /* the slow slot this job owns, if any */
    bool moved;            /* plan moved to slow_ws */
    uint32_t slow_turns;   /* pool turns it had in the slow lane */
    bool begin_slow;       /* not begun on the fast lane: its set-up (a batch: its next item's) is heavy
                            * (ap_query_setup_is_heavy) */
    int state;             /* plan state after the last slice */
    uv_work_t work;
    struct ap_lanes *owner;
    ap_job *next;
};

/* Reset a job to all-zero (call before filling the input fields): out on the heap, no task. Writes only *job:
 * any thread that owns the job. */
void ap_job_init(ap_job *job);

/* Called on the loop thread exactly once per submitted job, after its answer is in job->body.
 * The hook may free the job. */
typedef void (*ap_job_done_fn)(ap_job *job, void *arg);

/* Lane sizing, normally from the config (ap_lanes_config_from). */
typedef struct ap_lanes_config {
    int workers;          /* pool threads = fast workspaces, >= 1 */
    int slow_slots;       /* slow workspaces, >= 1 */
    int fast_queue;       /* most fast jobs queued-or-running; one more -> 503 overloaded */
    int slow_queue;       /* most slow jobs waiting for a slot; one more -> 503 overloaded */
    uint64_t fast_budget; /* expansions in the fast lane before a job moves to the slow lane (>= 1) */
    uint64_t slow_slice;  /* expansions per slow slice (>= 1) */
    uint64_t slow_turn_ns; /* while no other slow job waits, a slow job's pool turn runs slices on for up to
                            * this long, ns (the server: AP_LANE_SLOW_SLICE_NS); 0 = one slice a turn (tests
                            * whose searches must take long in slices of a few expansions) */
    uint64_t fast_slice_ns; /* a fast slice's time bound, ns; 0 = AP_LANE_FAST_SLICE_NS (the server's; tests
                             * that check which lane a query ends in set it far above their machine's
                             * noise) */
    int pool_nice;        /* added to the nice value of each pool thread (0 = none): the pool runs below
                           * the HTTP thread(s), which answer short queries inline */
    uint32_t capacity;    /* nodes per workspace: the registry's largest ap_map_node_count */
    size_t max_answer_bytes; /* batch answers: at most this many bytes. An item's answer that would leave
                              * too little room for the items after it answered as errors (ap_job.reserve)
                              * is taken back and answered answer_too_large, and so, without searching,
                              * is every item after it; 0 = no cap */
} ap_lanes_config;

/* Fill lc from the server config and the workspace capacity (nodes). Pure. */
void ap_lanes_config_from(ap_lanes_config *lc, const ap_config *c, uint32_t capacity);

typedef struct ap_lanes ap_lanes;
typedef void (*ap_lanes_drained_fn)(ap_lanes *l, void *arg);

/* The dispatcher. Caller-owned; treat the fields as private. */
struct ap_lanes {
    uv_loop_t *loop;
    ap_lanes_config cfg;
    ap_metrics *metrics; /* may be NULL */
    ap_job_done_fn done;
    void *done_arg;

    /* hand-off (inbox_mu) */
    pthread_mutex_t inbox_mu;
    ap_job *inbox_head, *inbox_tail;
    bool accepting;
    size_t outstanding;  /* submitted and not yet done (inbox included) */
    uv_async_t async;

    /* fast workspaces (pool_mu): taken and released by workers */
    pthread_mutex_t pool_mu;
    pthread_cond_t pool_cv;
    ap_workspace *fast_ws;
    ap_workspace **fast_free;
    int n_fast_free;

    /* slow lane (loop thread only) */
    ap_workspace *slow_ws;
    ap_workspace **slow_free;
    int n_slow_free;
    ap_job *pending_head, *pending_tail; /* waiting for a slow slot */
    int pending_n;
    ap_job *run_head, *run_tail;         /* own a slot, waiting for a pool turn */
    int run_n;
    int slow_in_pool, slow_in_pool_max;
    atomic_int slow_waiting;             /* run_n, set by the loop, read by workers: a slow job goes on
                                          * slicing in its turn while no other job with a slot waits for a
                                          * pool thread (one waiting for a slot gains nothing from the turn) */
    int fast_active;                     /* fast jobs queued-or-running in the pool */

    uv_timer_t sweep;  /* drops pending slow jobs whose deadline passed */
    uv_timer_t drain_timer;
    atomic_int cancel; /* polled by every plan (ap_plan_set_cancel); set at drain timeout */
    bool draining;
    ap_lanes_drained_fn drained;
    void *drained_arg;
    int handles_open;
};

/* Set up the lanes on loop (not yet running or running on this thread): allocates workers fast and
 * slow_slots slow workspaces of cfg->capacity nodes (AP_PLAN_MAX_SUCC successors a node) once — no allocation per search — and
 * starts the async handle and a sweep timer. Also sets UV_THREADPOOL_SIZE = workers with setenv (libuv reads
 * it once, when the first work is queued in the process, so this must run before any uv_queue_work and
 * while no other thread reads the environment: at start-up on the main thread). The pool is process-wide:
 * a second ap_lanes in the same process shares the pool sized by the first.
 * done(job, done_arg) is called on the loop thread for every finished job. metrics may be NULL.
 * Returns AP_OK, AP_E_NOMEM (nothing to free), or AP_E_INTERNAL when libuv refuses a handle. */
int ap_lanes_init(ap_lanes *l, uv_loop_t *loop, const ap_lanes_config *cfg, ap_metrics *metrics,
                  ap_job_done_fn done, void *done_arg);

/* Run a single-query job's fast slice right here, on the calling thread, instead of handing it over:
 * measurement showed the four thread hops of a hand-off (HTTP thread -> loop -> worker -> loop -> HTTP)
 * cost more than a short search itself (README "Performance"). Uses a free fast workspace without
 * waiting for one. Returns
 *   AP_OK           finished: the answer is in job->body (encoded, metrics counted); lanes never owned
 *                   the job and calls no done hook;
 *   AP_IN_PROGRESS  the search outgrew fast_budget: pass the job to ap_lanes_submit, which admits it
 *                   straight to the slow lane (the search restarts on a slow workspace, as always);
 *   AP_E_OVERLOADED every fast workspace is busy right now: submit the job as usual (nothing was done).
 * Any thread; the job must be a single query (no items) with its input filled. The slice is bounded by
 * fast_budget expansions, which is what keeps the caller's other connections waiting no longer than a
 * fast-lane worker would. */
int ap_lanes_run_inline(ap_lanes *l, ap_job *job);

/* The fewest bytes batch job j's answer can take: its start, every item answered by an error (an item's own
 * preset error, else answer_too_large) and its end with the largest stats. Above max_answer_bytes the batch
 * cannot be answered within the cap and is refused whole (the HTTP layer: 413 answer_too_large). j's items,
 * n_items, map_id and map_version must be set. Also sets j->reserve (all but the start), which
 * ap_lanes_submit would otherwise count again. O(n_items) small writes; j's owner's thread, before submit. */
size_t ap_lanes_batch_floor(ap_job *j);

/* Hand a job to the lanes. Any thread. Records the hand-off time. Returns AP_OK (done will be called
 * once, on the loop thread, possibly before this function returns to a non-loop caller) or
 * AP_E_NOT_READY when the lanes are draining or closed (the job was not taken; the caller answers). */
int ap_lanes_submit(ap_lanes *l, ap_job *job);

/* The message of a 503 not_ready during the drain (the lanes' and the HTTP layer's). */
#define AP_LANES_SHUTTING_DOWN "server is shutting down"

/* Begin shutdown (loop thread): refuse new submissions, answer the jobs waiting for a slow slot
 * AP_E_NOT_READY at once (503 not_ready: a load balancer resends them elsewhere), finish every other job
 * already submitted (running, or holding a slot), and once none is outstanding call drained(l, arg) on the
 * loop thread (possibly before returning). If jobs are still running after timeout_ms, the cancel flag every
 * plan polls is set (ap_lanes_cancel), so searches stop within 256 expansions and answer "timeout"; jobs
 * still queued then answer "timeout" without searching. */
void ap_lanes_drain(ap_lanes *l, int timeout_ms, ap_lanes_drained_fn drained, void *arg);

/* Cancel now (loop thread): set the cancel flag and answer every queued job "timeout". Running slices end
 * at their next cancel check. Used by ap_lanes_drain's timer and by a second shutdown signal. */
void ap_lanes_cancel(ap_lanes *l);

/* Jobs submitted and not yet done. Any thread. */
size_t ap_lanes_outstanding(ap_lanes *l);

/* Close the libuv handles (loop thread) so uv_run can return. Only when nothing is outstanding (after
 * drained, or before anything was submitted). Refuses further submissions. */
void ap_lanes_close(ap_lanes *l);

/* Free the workspaces and locks, after uv_run has returned (handles closed). NULL is ignored. */
void ap_lanes_free(ap_lanes *l);

#endif
