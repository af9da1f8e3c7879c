/* Which systems are split across threads, and the run's frame argument (issue 26, 2b): a
 * system runs its tasks in order as one job unless it is flagged DOD_SYSTEM_PARALLEL (so it may
 * keep state outside the world), still beside the other systems of its phase; a parallel
 * system's tasks are jobs of their own; dod_schedule_run_with hands its frame to every task,
 * dod_schedule_run a NULL one; run_with's refusals and allocation failures. */
#include <dod/dod.h>
#include <string.h>
#include "check.h"
#include "sched_check.h"
#include "world_check.h"

enum { C0, C1, N_COMPS };
static const dod_component_desc COMPS[N_COMPS] = { { "c0", 4, 4 }, { "c1", 4, 4 } };
static const uint32_t IDS_01[] = { C0, C1 }, IDS_0[] = { C0 };
enum { A_FIXED, A_CHUNKED, N_ARCHS };
enum { ROWS = 16, N_FIXED = 40 * ROWS, N_CHUNKED = 300, MAX_LOG = 256 };

/* A_FIXED {c0, c1}, fixed; A_CHUNKED {c0}, chunked in 1 KiB blocks of 64 rows each. */
static dod_world *make_world(void)
{
    const dod_archetype_desc archs[N_ARCHS] = {
        { "fixed", IDS_01, 2, N_FIXED, 0, 0, 0 },
        { "chunked", IDS_0, 1, 0, 1024, 0, 0 },
    };
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, archs, N_ARCHS, NULL);
    dod_world *w = NULL;
    CHECK_OK(dod_world_create(&w, &d));
    CHECK_OK(dod_world_spawn_n(w, A_FIXED, N_FIXED, NULL));
    CHECK_OK(dod_world_spawn_n(w, A_CHUNKED, N_CHUNKED, NULL));
    return w;
}

/* What a system's tasks saw. n, rows and order (the order its tasks ran in) are written by
 * log_task, for a system that is not parallel or on an executor of one thread; hits and frame
 * by mark_task too, each task its own slots, for a parallel system on a pool. */
typedef struct task_log {
    uint32_t n, rows;
    uint32_t order[MAX_LOG];
    uint32_t hits[MAX_LOG];     /* by task */
    const void *frame[MAX_LOG]; /* by task */
} task_log;

static void mark_task(const dod_system_task *t)
{
    task_log *l = (task_log *)t->ctx;
    uint32_t k = t->task < MAX_LOG ? t->task : MAX_LOG - 1;
    l->hits[k]++;
    l->frame[k] = t->frame;
}

static void log_task(const dod_system_task *t)
{
    task_log *l = (task_log *)t->ctx;
    mark_task(t);
    if (l->n < MAX_LOG)
        l->order[l->n] = t->task;
    l->n++;
    l->rows += t->rows.n;
}

static dod_system_desc logger(const uint32_t *all, task_log *l, uint32_t flags)
{
    dod_system_desc d;
    memset(&d, 0, sizeof d);
    d.fn = log_task;
    d.ctx = l;
    d.all = all, d.n_all = 1;
    d.flags = flags;
    return d;
}

/* The tasks of a {c0} system at ROWS rows a task: per block of both archetypes, its rows
 * over ROWS, rounded up. */
static uint32_t tasks_of_c0(const dod_world *w)
{
    uint32_t n = 0, rows;
    for (uint32_t a = 0; a < N_ARCHS; ++a)
        for (uint32_t b = 0; (rows = dod_world_block(w, a, b, NULL)) != 0; ++b)
            n += (rows + ROWS - 1) / ROWS;
    return n;
}

static int in_order(const task_log *l)
{
    for (uint32_t i = 0; i < l->n && i < MAX_LOG; ++i)
        if (l->order[i] != i)
            return 0;
    return 1;
}

/* A default system and an explicitly sequential one, in one phase, run each as one job in task
 * order whatever the executor: on a pool of 3 their tasks are never split, so the logs (plain
 * writes into their ctx) do not race, and on executors running jobs backwards or shuffled
 * their tasks still come in order. A parallel one is split: backwards, its tasks come
 * backwards. In one pass a phase and in a pass per system alike. */
static void test_split(void)
{
    dod_world *w = make_world();
    dod_threadpool *pool = NULL;
    CHECK_OK(dod_threadpool_create(&pool, 3, NULL));
    dod_executor pe = dod_threadpool_executor(pool);
    sched_order_exec rev = { 0, NULL, NULL, 0, NULL, NULL };
    sched_order_exec shuf = { 5, &pe, NULL, 0, NULL, NULL };
    dod_executor er = sched_order_executor(&rev), es = sched_order_executor(&shuf);
    const dod_executor *execs[4] = { NULL, &pe, &er, &es };
    static const uint32_t c0[] = { C0 };
    uint32_t n_tasks = tasks_of_c0(w);
    CHECK(n_tasks > N_FIXED / ROWS + N_CHUNKED / ROWS && n_tasks <= MAX_LOG); /* partial blocks */
    for (uint32_t pass = 0; pass < 2; ++pass)
        for (int e = 0; e < 4; ++e) {
            static task_log logs[3];
            memset(logs, 0, sizeof logs);
            dod_system_desc d[3] = { logger(c0, &logs[0], 0),
                                     logger(c0, &logs[1], DOD_SYSTEM_SEQUENTIAL),
                                     logger(c0, &logs[2], DOD_SYSTEM_PARALLEL) };
            /* the parallel logger only where one thread runs the jobs */
            uint32_t n = execs[e] == &pe || execs[e] == &es ? 2u : 3u;
            dod_schedule_desc sd = { .systems = d, .n_systems = n, .task_rows = ROWS,
                                     .flags = pass ? DOD_SCHEDULE_PASS_PER_SYSTEM : 0u };
            dod_schedule *s = NULL;
            CHECK_OK(dod_schedule_create(&s, w, &sd));
            CHECK_EQ(dod_schedule_phase_count(s), 1); /* readers: one phase, side by side */
            CHECK_OK(dod_schedule_run(s, w, execs[e], NULL));
            for (uint32_t i = 0; i < n; ++i) {
                CHECK_EQ(logs[i].n, n_tasks);
                CHECK_EQ(logs[i].rows, N_FIXED + N_CHUNKED);
            }
            CHECK(in_order(&logs[0]) && in_order(&logs[1]));
            if (execs[e] == &er) /* every parallel task a job of its own, run backwards */
                CHECK(logs[2].order[0] == n_tasks - 1 && logs[2].order[n_tasks - 1] == 0);
            if (execs[e] == NULL)
                CHECK(in_order(&logs[2]));
            dod_schedule_destroy(s);
        }
    free(rev.perm);
    free(shuf.perm);
    dod_threadpool_destroy(pool);
    dod_world_destroy(w);
}

/* What a step saw (a step gets its ctx, never the frame). */
static dod_status count_step(dod_world *w, const dod_executor *exec, void *ctx)
{
    (void)w, (void)exec;
    ++*(uint32_t *)ctx;
    return DOD_OK;
}

/* Every task of a run sees the frame given to dod_schedule_run_with, in every phase (a step
 * between them), a parallel system on a pool too; dod_schedule_run gives NULL. */
static void test_frame(void)
{
    dod_world *w = make_world();
    dod_threadpool *pool = NULL;
    CHECK_OK(dod_threadpool_create(&pool, 2, NULL));
    dod_executor pe = dod_threadpool_executor(pool);
    static const uint32_t c0[] = { C0 };
    static task_log logs[2];
    uint32_t steps = 0;
    dod_system_desc d[3] = { logger(c0, &logs[0], DOD_SYSTEM_PARALLEL),
                             dod_step_desc("between", count_step, &steps),
                             logger(c0, &logs[1], 0) };
    d[0].fn = mark_task; /* parallel, on a pool: its own slots only */
    uint32_t n_tasks = tasks_of_c0(w);
    dod_schedule_desc sd = { .systems = d, .n_systems = 3, .task_rows = ROWS };
    dod_schedule *s = NULL;
    CHECK_OK(dod_schedule_create(&s, w, &sd));
    CHECK_EQ(dod_schedule_phase_count(s), 3);
    const float dt[2] = { 0.5f, 0.25f };
    for (int run = 0; run < 3; ++run) {
        memset(logs, 0, sizeof logs);
        const void *want = run < 2 ? (const void *)&dt[run] : NULL;
        if (run < 2)
            CHECK_OK(dod_schedule_run_with(s, w, run ? &pe : NULL, want, NULL));
        else
            CHECK_OK(dod_schedule_run(s, w, &pe, NULL));
        CHECK_EQ(logs[1].n, n_tasks);
        for (uint32_t i = 0; i < 2; ++i)
            for (uint32_t k = 0; k < n_tasks; ++k)
                CHECK(logs[i].hits[k] == 1 && logs[i].frame[k] == want);
    }
    CHECK_EQ(steps, 3);
    dod_schedule_destroy(s);
    dod_threadpool_destroy(pool);
    dod_world_destroy(w);
}

/* dod_schedule_run_with refuses what dod_schedule_run refuses: nothing runs, the world and
 * *result are unchanged. */
static void test_run_with_refusals(void)
{
    dod_world *w = make_world(), *other = make_world();
    static const uint32_t c0[] = { C0 }, c1[] = { C1 };
    static task_log l;
    memset(&l, 0, sizeof l);
    dod_system_desc d = logger(c0, &l, DOD_SYSTEM_PARALLEL);
    d.all = c1, d.writes = c1, d.n_writes = 1; /* a writer: a run would stamp c1 */
    dod_schedule_desc sd = { .systems = &d, .n_systems = 1 };
    dod_schedule *s = NULL;
    CHECK_OK(dod_schedule_create(&s, w, &sd));
    float dt = 1.0f;
    dod_executor no_run = { NULL, NULL, 1 };
    sched_order_exec rev = { 0, NULL, NULL, 0, NULL, NULL };
    dod_executor no_threads = sched_order_executor(&rev);
    no_threads.n_threads = 0;
    uint64_t snap = world_snap(w);
    dod_apply_result r = { 7, 7, 7 };
    CHECK_STATUS(dod_schedule_run_with(NULL, w, NULL, &dt, &r), DOD_E_INVALID);
    CHECK_STATUS(dod_schedule_run_with(s, NULL, NULL, &dt, &r), DOD_E_INVALID);
    CHECK_STATUS(dod_schedule_run_with(s, other, NULL, &dt, &r), DOD_E_INVALID);
    CHECK_STATUS(dod_schedule_run_with(s, w, &no_run, &dt, &r), DOD_E_INVALID);
    CHECK_STATUS(dod_schedule_run_with(s, w, &no_threads, &dt, &r), DOD_E_INVALID);
    CHECK(r.applied == 7 && r.skipped == 7 && r.missing == 7);
    CHECK_EQ(l.n, 0);
    CHECK_EQ(world_snap(w), snap);
    CHECK_OK(dod_schedule_run_with(s, w, NULL, NULL, &r)); /* a NULL frame is a frame */
    CHECK(l.n == 1 && l.frame[0] == NULL); /* A_FIXED's rows, one task; A_CHUNKED lacks c1 */
    CHECK(r.applied == 0 && r.skipped == 0 && r.missing == 0);
    dod_schedule_destroy(s);
    dod_world_destroy(other);
    dod_world_destroy(w);
}

/* Every allocation of a run_with failed in turn (a default and a parallel system, each
 * recording: the lists and the buffers): DOD_E_NOMEM, the world as it was, then the frame
 * runs with its frame argument seen, and again with no allocation; nothing leaks. */
static void set_c1(const dod_system_task *t)
{
    const float *dt = (const float *)t->frame;
    uint32_t v = (uint32_t)(*dt * 4.0f);
    dod_status st = DOD_OK;
    for (uint32_t i = 0; i < t->rows.n && st == DOD_OK; ++i)
        st = dod_cmds_set(t->cmds, t->rows.entities[i], C1, &v, sizeof v);
    if (st != DOD_OK)
        *t->status = st;
}

static void test_run_with_alloc_failures(void)
{
    dod_world *w = make_world();
    static const uint32_t c01[] = { C0, C1 };
    dod_system_desc d[2];
    memset(d, 0, sizeof d);
    for (int i = 0; i < 2; ++i) {
        d[i].fn = set_c1;
        d[i].all = c01, d[i].n_all = 2;
        d[i].flags = DOD_SYSTEM_COMMANDS | (i ? DOD_SYSTEM_PARALLEL : 0u);
    }
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator a = test_alloc_get(&ta);
    dod_schedule_desc sd = { .systems = d, .n_systems = 2, .task_rows = ROWS, .alloc = &a };
    dod_schedule *s = NULL;
    CHECK_OK(dod_schedule_create(&s, w, &sd));
    float dt = 2.0f;
    uint64_t snap = world_snap(w);
    long k = 0;
    for (;; ++k) {
        test_alloc_fail_after(&ta, k);
        dod_status st = dod_schedule_run_with(s, w, NULL, &dt, NULL);
        if (st == DOD_OK)
            break;
        CHECK_STATUS(st, DOD_E_NOMEM);
        CHECK_EQ(world_snap(w), snap);
    }
    CHECK(k > 3); /* the task, job and base lists, the buffers, their records */
    test_alloc_fail_after(&ta, -1);
    long calls = ta.calls;
    dod_apply_result r;
    CHECK_OK(dod_schedule_run_with(s, w, NULL, &dt, &r));
    CHECK_EQ(r.applied, 2 * N_FIXED);
    CHECK_EQ(ta.calls, calls); /* 0 allocations a frame */
    dod_world_iter it;
    dod_query q;
    CHECK_OK(dod_query_init(&q, w, c01, 2, NULL, 0));
    dod_world_iter_init(&it, w, &q);
    uint32_t seen = 0;
    while (dod_world_next(&it))
        for (uint32_t i = 0; i < it.n; ++i, ++seen)
            CHECK_EQ(((const uint32_t *)dod_world_field(&it, C1))[i], 8);
    CHECK_EQ(seen, N_FIXED);
    dod_schedule_destroy(s);
    CHECK_EQ(ta.live, 0);
    test_alloc_finish(&ta);
    dod_world_destroy(w);
}

int main(void)
{
    test_split();
    test_frame();
    test_run_with_refusals();
    test_run_with_alloc_failures();
    return check_summary("test_world_schedule_split");
}
