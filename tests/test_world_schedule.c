/* The schedule: phases by the conflict rules, tasks cut on 16-row boundaries the same way for
 * every executor, a system's writes reaching every row, commands applied after their phase,
 * failures a system reports and failed applies, every refusal with its status, every
 * allocation failure of create and run, and no allocation once a frame has run. (Random
 * worlds and schedules on many executors: test_world_schedule_det.c.) */
#include <dod/dod.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "sched_check.h"
#include "world_check.h"

enum { C0, C1, C2, C3, C4, N_COMPS };
static const dod_component_desc COMPS[N_COMPS] = {
    { "c0", 4, 4 }, { "c1", 4, 4 }, { "c2", 8, 8 }, { "c3", 4, 4 }, { "c4", 16, 16 },
};
static const uint32_t IDS_01[] = { C0, C1 }, IDS_012[] = { C0, C1, C2 }, IDS_3[] = { C3 };
enum { A_BIG, A_SMALL, A_THREE, N_ARCHS };

/* A_BIG fixed at big_cap rows of {c0, c1, c2}; A_SMALL chunked {c0, c1} in 1 KiB blocks
 * (56 rows: not a multiple of the task rows); A_THREE chunked {c3}. */
static dod_world *make_world(uint32_t big_cap, const dod_allocator *alloc)
{
    const dod_archetype_desc archs[N_ARCHS] = {
        { "big", IDS_012, 3, big_cap, 0, 0, 0 },
        { "small", IDS_01, 2, 0, 1024, 0, 0 },
        { "three", IDS_3, 1, 0, 0, 0, 0 },
    };
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, archs, N_ARCHS, alloc);
    dod_world *w = NULL;
    CHECK_OK(dod_world_create(&w, &d));
    return w;
}

static void nop(const dod_system_task *t)
{
    (void)t;
}

/* What a step saw: its calls, the rows of A_SMALL and A_THREE then, its executor. */
typedef struct step_log {
    uint32_t calls, small, three;
    const dod_executor *exec;
    dod_status give; /* what it returns */
} step_log;

static dod_status step_count(dod_world *w, const dod_executor *exec, void *ctx)
{
    step_log *l = (step_log *)ctx;
    if (!l)
        return DOD_OK;
    l->calls++;
    l->small = dod_world_count(w, A_SMALL);
    l->three = dod_world_count(w, A_THREE);
    l->exec = exec;
    return l->give;
}

static dod_system_desc sys(const uint32_t *all, uint32_t n_all, const uint32_t *writes,
                           uint32_t n_writes)
{
    dod_system_desc d;
    memset(&d, 0, sizeof d);
    d.fn = nop;
    d.all = all, d.n_all = n_all;
    d.writes = writes, d.n_writes = n_writes;
    return d;
}

static dod_schedule *make_schedule(const dod_world *w, const dod_system_desc *systems, uint32_t n,
                                   uint32_t task_rows, const dod_allocator *alloc)
{
    dod_schedule_desc d = { .systems = systems, .n_systems = n, .task_rows = task_rows,
                            .alloc = alloc };
    dod_schedule *s = NULL;
    CHECK_OK(dod_schedule_create(&s, w, &d));
    return s;
}

static void test_phases(void)
{
    dod_world *w = make_world(64, NULL);
    static const uint32_t c0[] = { C0 }, c1[] = { C1 }, c2[] = { C2 }, c3[] = { C3 };
    dod_system_desc d[14];
    d[0] = sys(c0, 1, c0, 1);         /* writes c0                                  phase 0 */
    d[1] = sys(c1, 1, c1, 1);         /* writes c1: no conflict                     phase 0 */
    d[2] = sys(c0, 1, NULL, 0);       /* reads c0: d[0] writes it                   phase 1 */
    d[3] = sys(c0, 1, NULL, 0);       /* reads c0 too: readers do not conflict      phase 1 */
    d[4] = sys(c2, 1, c2, 1);         /* writes c2, looks c1 up: no conflict here   phase 1 */
    d[4].reads = c1, d[4].n_reads = 1;
    d[5] = sys(c1, 1, c1, 1);         /* writes c1, which d[4] looks up              phase 2 */
    d[6] = sys(c3, 1, c3, 1);         /* writes c3, records commands: joins          phase 2 */
    d[6].flags = DOD_SYSTEM_COMMANDS;
    d[7] = sys(c2, 1, NULL, 0);       /* reads c2: no conflict (commands do not close phase 2 */
    d[7].flags = DOD_SYSTEM_COMMANDS; /* a phase), and records too                    */
    d[8] = sys(c2, 1, c2, 1);         /* writes c2, d[7] reads it                    phase 3 */
    d[9] = sys(c2, 1, c2, 1);         /* writes c2 too: write/write                  phase 4 */
    d[9].flags = DOD_SYSTEM_SEQUENTIAL;
    d[10] = sys(c0, 1, NULL, 0);      /* reads c0: no conflict, but asks for a new   phase 5 */
    d[10].flags = DOD_SYSTEM_NEW_PHASE; /* phase (it sees the commands before it)     */
    d[11] = dod_step_desc("step", step_count, NULL); /* a step: alone              phase 6 */
    d[12] = sys(c1, 1, NULL, 0);      /* no conflict with d[10], but after a step    phase 7 */
    d[13] = dod_step_desc("last", step_count, NULL); /*                            phase 8 */
    dod_schedule *s = make_schedule(w, d, 14, 0, NULL);
    static const uint32_t want[14] = { 0, 0, 1, 1, 1, 2, 2, 2, 3, 4, 5, 6, 7, 8 };
    for (uint32_t i = 0; i < 14; ++i)
        CHECK_EQ(dod_schedule_phase_of(s, i), want[i]);
    CHECK_EQ(dod_schedule_phase_count(s), 9);
    CHECK_EQ(dod_schedule_phase_of(s, 14), UINT32_MAX);
    dod_schedule_destroy(s);

    /* A lookup of a component another system writes conflicts both ways round. */
    d[0] = sys(c0, 1, NULL, 0);
    d[0].reads = c1, d[0].n_reads = 1;
    d[1] = sys(c1, 1, c1, 1);
    s = make_schedule(w, d, 2, 0, NULL);
    CHECK_EQ(dod_schedule_phase_of(s, 1), 1);
    dod_schedule_destroy(s);
    /* An empty schedule: no phases, a run does nothing. */
    s = make_schedule(w, NULL, 0, 0, NULL);
    CHECK_EQ(dod_schedule_phase_count(s), 0);
    CHECK_OK(dod_schedule_run(s, w, NULL, NULL));
    dod_schedule_destroy(s);
    dod_world_destroy(w);
}

/* ---- tasks ---- */

typedef struct task_rec {
    uint32_t archetype, block, first_row, n, calls;
    const dod_entity *entities;
} task_rec;

typedef struct recorder {
    task_rec *rec; /* one per task index */
    uint32_t cap;
    uint32_t bad;  /* a task index past cap: the test's own sizing went wrong */
} recorder;

/* Records its task: each task writes its own slot, so no two threads share one. */
static void record_task(const dod_system_task *t)
{
    recorder *r = (recorder *)t->ctx;
    if (t->task >= r->cap) {
        r->bad = 1; /* only read after the run; a benign flag */
        return;
    }
    task_rec *x = &r->rec[t->task];
    x->archetype = t->rows.archetype;
    x->block = t->rows.block;
    x->first_row = t->rows.first_row;
    x->n = t->rows.n;
    x->entities = t->rows.entities;
    x->calls++;
}

/* The tasks of a {c0} reader with `flags` over a world of the three archetypes, on exec;
 * returns how many. */
static uint32_t tasks_of(dod_world *w, uint32_t task_rows, uint32_t flags,
                         const dod_executor *exec, task_rec *rec, uint32_t cap)
{
    static const uint32_t c0[] = { C0 };
    memset(rec, 0, cap * sizeof *rec);
    recorder r = { rec, cap, 0 };
    dod_system_desc d = sys(c0, 1, NULL, 0);
    d.fn = record_task;
    d.ctx = &r;
    d.flags = flags;
    dod_schedule *s = make_schedule(w, &d, 1, task_rows, NULL);
    CHECK_OK(dod_schedule_run(s, w, exec, NULL));
    dod_schedule_destroy(s);
    CHECK(!r.bad);
    uint32_t n = 0;
    while (n < cap && rec[n].calls)
        ++n;
    return n;
}

/* The tasks tile every block of the matched archetypes, in order, each cut at multiples of
 * task_rows from its block's start, each run once. */
static void check_tiling(const dod_world *w, uint32_t task_rows, const task_rec *rec, uint32_t n)
{
    uint32_t k = 0;
    for (uint32_t arch = 0; arch < N_ARCHS; ++arch) {
        if (arch == A_THREE)
            continue; /* no c0 */
        void *cols[4];
        for (uint32_t b = 0;; ++b) {
            uint32_t rows = dod_world_block(w, arch, b, cols);
            if (rows == 0)
                break;
            for (uint32_t first = 0; first < rows; first += task_rows, ++k) {
                uint32_t want = rows - first < task_rows ? rows - first : task_rows;
                CHECK(k < n);
                if (k >= n)
                    return;
                CHECK_EQ(rec[k].archetype, arch);
                CHECK_EQ(rec[k].block, b);
                CHECK_EQ(rec[k].first_row, first);
                CHECK_EQ(rec[k].first_row % 16, 0);
                CHECK_EQ(rec[k].n, want);
                CHECK_EQ(rec[k].calls, 1);
                CHECK(rec[k].entities == (const dod_entity *)cols[0] + first);
            }
        }
    }
    CHECK_EQ(k, n);
}

static void test_tasks(void)
{
    enum { BIG = 1u << 20, CAP = 70000 };
    dod_world *w = make_world(BIG, NULL);
    CHECK_OK(dod_world_spawn_n(w, A_BIG, BIG, NULL));
    CHECK_OK(dod_world_spawn_n(w, A_SMALL, 1000, NULL));
    CHECK_OK(dod_world_spawn_n(w, A_THREE, 10, NULL));
    dod_threadpool *p2 = NULL, *p3 = NULL;
    CHECK_OK(dod_threadpool_create(&p2, 2, NULL));
    CHECK_OK(dod_threadpool_create(&p3, 3, NULL));
    dod_executor e2 = dod_threadpool_executor(p2), e3 = dod_threadpool_executor(p3);
    sched_order_exec rev = { 0, NULL, NULL, 0, NULL, NULL };
    sched_order_exec shuf = { 7, &e3, NULL, 0, NULL, NULL };
    dod_executor er = sched_order_executor(&rev), es = sched_order_executor(&shuf);
    const dod_executor *execs[5] = { NULL, &e2, &e3, &er, &es };
    task_rec *first = (task_rec *)malloc(CAP * sizeof *first);
    task_rec *other = (task_rec *)malloc(CAP * sizeof *other);
    static const uint32_t rows[] = { 16, 48, 1024, 0 };
    /* a parallel system's tasks, and a default one's (one job): the same tasks */
    for (uint32_t r = 0; first && other && r < 8; ++r) {
        uint32_t task_rows = rows[r % 4] ? rows[r % 4] : DOD_SCHEDULE_TASK_ROWS;
        uint32_t flags = r < 4 ? DOD_SYSTEM_PARALLEL : 0u;
        uint32_t n = tasks_of(w, rows[r % 4], flags, NULL, first, CAP);
        check_tiling(w, task_rows, first, n);
        /* a fixed archetype of 1M rows, one block, is cut into many tasks */
        CHECK(n >= BIG / task_rows);
        for (int e = 1; e < 5; ++e) {
            CHECK_EQ(tasks_of(w, rows[r % 4], flags, execs[e], other, CAP), n);
            CHECK(memcmp(first, other, n * sizeof *first) == 0);
        }
    }
    free(first);
    free(other);
    free(rev.perm);
    free(shuf.perm);
    dod_threadpool_destroy(p2);
    dod_threadpool_destroy(p3);
    dod_world_destroy(w);
}

/* ---- a system's writes ---- */

/* c1 = c0 * 3 + the entity's index, over its rows. */
static void triple(const dod_system_task *t)
{
    const uint32_t *c0 = (const uint32_t *)dod_world_field(&t->rows, C0);
    uint32_t *c1 = (uint32_t *)dod_world_field(&t->rows, C1);
    for (uint32_t i = 0; i < t->rows.n; ++i)
        c1[i] = c0[i] * 3 + (uint32_t)t->rows.entities[i].bits;
}

/* c0 += 1, in a later phase (it conflicts with triple's read of c0). */
static void bump(const dod_system_task *t)
{
    uint32_t *c0 = (uint32_t *)dod_world_field(&t->rows, C0);
    for (uint32_t i = 0; i < t->rows.n; ++i)
        c0[i] += 1;
}

static void test_writes(void)
{
    enum { N = 5000 };
    dod_world *w = make_world(N, NULL);
    static dod_entity e[2 * N];
    CHECK_OK(dod_world_spawn_n(w, A_BIG, N, e));
    CHECK_OK(dod_world_spawn_n(w, A_SMALL, N, e + N));
    for (uint32_t i = 0; i < 2 * N; ++i)
        *(uint32_t *)dod_world_get(w, e[i], C0) = i;
    static const uint32_t c01[] = { C0, C1 }, c1[] = { C1 }, c0[] = { C0 };
    dod_system_desc d[2] = { sys(c01, 2, c1, 1), sys(c0, 1, c0, 1) };
    d[0].fn = triple, d[0].flags = DOD_SYSTEM_PARALLEL;
    d[1].fn = bump, d[1].flags = DOD_SYSTEM_PARALLEL;
    dod_threadpool *p = NULL;
    CHECK_OK(dod_threadpool_create(&p, 2, NULL));
    dod_executor ex = dod_threadpool_executor(p);
    dod_schedule *s = make_schedule(w, d, 2, 32, NULL);
    CHECK_EQ(dod_schedule_phase_count(s), 2);
    CHECK_OK(dod_schedule_run(s, w, &ex, NULL));
    CHECK_OK(dod_schedule_run(s, w, NULL, NULL));
    for (uint32_t i = 0; i < 2 * N; ++i) {
        CHECK_EQ(*(uint32_t *)dod_world_get(w, e[i], C0), i + 2);
        CHECK_EQ(*(uint32_t *)dod_world_get(w, e[i], C1), (i + 1) * 3 + (uint32_t)e[i].bits);
    }
    dod_schedule_destroy(s);
    dod_threadpool_destroy(p);
    dod_world_destroy(w);
}

/* ---- commands ---- */

typedef struct churn {
    uint32_t into;       /* the archetype it spawns into */
    uint32_t fail_task;  /* a task that reports DOD_E_RANGE, UINT32_MAX: none */
} churn;

/* Every row with c0 % 4 == 0 is despawned and replaced by a spawn into `into` with
 * c0 = its c0 + 1; rows with c0 % 4 == 1 move to A_THREE. A recording failure is reported. */
static void churn_system(const dod_system_task *t)
{
    const churn *ch = (const churn *)t->ctx;
    const uint32_t *c0 = (const uint32_t *)dod_world_field(&t->rows, C0);
    dod_status st = DOD_OK;
    for (uint32_t i = 0; i < t->rows.n && st == DOD_OK; ++i) {
        if (c0[i] % 4 == 0) {
            uint32_t v = c0[i] + 1;
            const void *values[3] = { &v, NULL, NULL };
            st = dod_cmds_despawn(t->cmds, t->rows.entities[i]);
            if (st == DOD_OK)
                st = dod_cmds_spawn(t->cmds, ch->into, values, NULL);
        } else if (c0[i] % 4 == 1) {
            st = dod_cmds_move(t->cmds, t->rows.entities[i], A_THREE);
        }
    }
    if (t->task == ch->fail_task)
        st = DOD_E_RANGE;
    if (st != DOD_OK)
        *t->status = st;
}

/* What churn_system's commands do, as direct calls in row order: n rows of A_SMALL with c0 = i
 * (their handles in re), each row with c0 % 4 == 0 despawned and replaced by a spawn with c0 + 1,
 * each with c0 % 4 == 1 moved to A_THREE. */
static dod_world *churned_directly(uint32_t n, dod_entity *re)
{
    dod_world *ref = make_world(64, NULL);
    CHECK_OK(dod_world_spawn_n(ref, A_SMALL, n, re));
    for (uint32_t i = 0; i < n; ++i)
        *(uint32_t *)dod_world_get(ref, re[i], C0) = i;
    for (uint32_t i = 0; i < n; ++i) {
        if (i % 4 == 0) {
            dod_entity x;
            CHECK_OK(dod_world_despawn(ref, re[i]));
            CHECK_OK(dod_world_spawn(ref, A_SMALL, &x));
            *(uint32_t *)dod_world_get(ref, x, C0) = i + 1;
        } else if (i % 4 == 1) {
            CHECK_OK(dod_world_move(ref, re[i], A_THREE));
        }
    }
    return ref;
}

/* c0 of every row of A_SMALL, in order, into out. */
static uint32_t small_c0(const dod_world *w, uint32_t *out)
{
    uint32_t n = 0;
    void *cols[3];
    for (uint32_t b = 0;; ++b) {
        uint32_t rows = dod_world_block(w, A_SMALL, b, cols);
        if (rows == 0)
            break;
        memcpy(out + n, cols[1], rows * sizeof(uint32_t));
        n += rows;
    }
    return n;
}

static void test_commands(void)
{
    enum { N = 1000 };
    dod_world *w = make_world(64, NULL);
    static dod_entity e[N];
    CHECK_OK(dod_world_spawn_n(w, A_SMALL, N, e));
    for (uint32_t i = 0; i < N; ++i)
        *(uint32_t *)dod_world_get(w, e[i], C0) = i;
    static const uint32_t c0[] = { C0 }, c01[] = { C0, C1 }, c1[] = { C1 };
    churn ch = { A_SMALL, UINT32_MAX };
    dod_system_desc d[2] = { sys(c0, 1, NULL, 0), sys(c01, 2, c1, 1) };
    d[0].fn = churn_system, d[0].ctx = &ch;
    d[0].flags = DOD_SYSTEM_COMMANDS | DOD_SYSTEM_PARALLEL; /* a buffer a job */
    d[1].fn = triple; /* reads c0, writes c1: no conflict, but it asks for churn's commands */
    d[1].flags = DOD_SYSTEM_NEW_PHASE | DOD_SYSTEM_PARALLEL;
    dod_schedule *s = make_schedule(w, d, 2, 32, NULL);
    CHECK_EQ(dod_schedule_phase_of(s, 1), 1);

    /* A task reports a failure: nothing of the phase is applied, the run stops there. */
    ch.fail_task = 3;
    uint64_t snap = world_snap(w);
    dod_apply_result r = { 9, 9, 9 };
    CHECK_STATUS(dod_schedule_run(s, w, NULL, &r), DOD_E_RANGE);
    CHECK_EQ(world_snap(w), snap); /* churn only records; triple did not run */
    CHECK(r.applied == 0 && r.skipped == 0 && r.missing == 0);

    /* Then a run applies this run's commands only (the failed run's were dropped), and the
     * next phase sees the world they made. */
    ch.fail_task = UINT32_MAX;
    dod_threadpool *p = NULL;
    CHECK_OK(dod_threadpool_create(&p, 2, NULL));
    dod_executor ex = dod_threadpool_executor(p);
    CHECK_OK(dod_schedule_run(s, w, &ex, &r));
    CHECK_EQ(r.applied, N / 4 * 2 + N / 4); /* 250 despawns, 250 spawns, 250 moves */
    CHECK_EQ(r.skipped, 0);
    CHECK_EQ(dod_world_count(w, A_SMALL), N - N / 4);
    CHECK_EQ(dod_world_count(w, A_THREE), N / 4);
    /* the rows as the same direct calls, task by task in row order, leave them: */
    static dod_entity re[N];
    dod_world *ref = churned_directly(N, re);
    static uint32_t got[N], want[N];
    CHECK_EQ(small_c0(w, got), small_c0(ref, want));
    CHECK(memcmp(got, want, sizeof got) == 0);
    dod_world_destroy(ref);

    /* An apply that fails (spawns past a fixed capacity): the world as it was, the commands
     * dropped. */
    dod_schedule_destroy(s);
    void *cols[3];
    for (uint32_t b = 0; dod_world_block(w, A_SMALL, b, cols); ++b)
        memset(cols[1], 0, dod_world_block(w, A_SMALL, b, NULL) * sizeof(uint32_t)); /* c0 = 0 */
    ch.into = A_BIG; /* 64 rows fixed; 750 spawns do not fit */
    s = make_schedule(w, d, 1, 32, NULL);
    snap = world_snap(w);
    CHECK_STATUS(dod_schedule_run(s, w, &ex, &r), DOD_E_FULL);
    CHECK_EQ(world_snap(w), snap);
    CHECK(r.applied == 0);
    dod_schedule_destroy(s);
    dod_threadpool_destroy(p);
    dod_world_destroy(w);
}

/* Despawns every row of task `ctx` points at, and on that task records a set of the wrong size,
 * without reporting it through t->status: the run finds it in the buffer (dod_cmds_status). */
static void despawn_and_misrecord(const dod_system_task *t)
{
    const uint32_t *bad_task = (const uint32_t *)t->ctx;
    for (uint32_t i = 0; i < t->rows.n; ++i)
        dod_cmds_despawn(t->cmds, t->rows.entities[i]);
    if (t->task == *bad_task) {
        uint64_t wide = 0;
        dod_cmds_set(t->cmds, t->rows.entities[0], C0, &wide, sizeof wide); /* c0 is 4 bytes */
    }
}

static void test_refused_record(void)
{
    dod_world *w = make_world(64, NULL);
    CHECK_OK(dod_world_spawn_n(w, A_SMALL, 500, NULL));
    static const uint32_t c0[] = { C0 };
    uint32_t bad_task = 2;
    dod_system_desc d = sys(c0, 1, NULL, 0);
    d.fn = despawn_and_misrecord, d.ctx = &bad_task;
    d.flags = DOD_SYSTEM_COMMANDS | DOD_SYSTEM_PARALLEL;
    dod_schedule *s = make_schedule(w, &d, 1, 32, NULL);
    uint64_t snap = world_snap(w);
    CHECK_STATUS(dod_schedule_run(s, w, NULL, NULL), DOD_E_INVALID);
    CHECK_EQ(world_snap(w), snap); /* nothing of the phase applied */
    bad_task = UINT32_MAX; /* the buffers were cleared: the next run applies its own */
    dod_apply_result r;
    CHECK_OK(dod_schedule_run(s, w, NULL, &r));
    CHECK_EQ(r.applied, 500);
    CHECK_EQ(dod_world_count(w, A_SMALL), 0);
    dod_schedule_destroy(s);
    dod_world_destroy(w);
}

/* ---- refusals ---- */

static dod_status create_one(const dod_world *w, const dod_system_desc *d, uint32_t task_rows)
{
    dod_schedule_desc sd = { .systems = d, .n_systems = 1, .task_rows = task_rows };
    dod_schedule *s = (dod_schedule *)&sd; /* a sentinel: a refusal leaves it as it was */
    dod_status st = dod_schedule_create(&s, w, &sd);
    if (st == DOD_OK)
        dod_schedule_destroy(s);
    else
        CHECK(s == (dod_schedule *)&sd);
    return st;
}

/* Two recording systems share a phase: both see the world as the phase began, and their
 * commands are applied system by system (churn's, then mover's), then a step sees them all
 * applied, and the next phase after it too. A step's failure stops the run. */
static void mover(const dod_system_task *t)
{
    const uint32_t *c0 = (const uint32_t *)dod_world_field(&t->rows, C0);
    dod_status st = DOD_OK;
    for (uint32_t i = 0; i < t->rows.n && st == DOD_OK; ++i)
        if (c0[i] % 4 == 2) /* rows churn leaves alone */
            st = dod_cmds_move(t->cmds, t->rows.entities[i], A_THREE);
    if (st != DOD_OK)
        *t->status = st;
}

static void test_steps_and_recorders(void)
{
    enum { N = 1000 };
    static const uint32_t c0[] = { C0 };
    for (uint32_t pass = 0; pass < 2; ++pass) {
        dod_world *w = make_world(64, NULL);
        static dod_entity e[N];
        CHECK_OK(dod_world_spawn_n(w, A_SMALL, N, e));
        for (uint32_t i = 0; i < N; ++i)
            *(uint32_t *)dod_world_get(w, e[i], C0) = i;
        churn ch = { A_SMALL, UINT32_MAX };
        step_log between = { 0, 0, 0, NULL, DOD_OK }, after = between;
        dod_system_desc d[4] = { sys(c0, 1, NULL, 0), sys(c0, 1, NULL, 0),
                                 dod_step_desc("between", step_count, &between),
                                 sys(c0, 1, NULL, 0) };
        d[0].fn = churn_system, d[0].ctx = &ch;
        d[0].flags = DOD_SYSTEM_COMMANDS | DOD_SYSTEM_PARALLEL;
        d[1].fn = mover, d[1].flags = DOD_SYSTEM_COMMANDS | DOD_SYSTEM_PARALLEL;
        d[3] = dod_step_desc("after", step_count, &after);
        dod_schedule_desc sd = { .systems = d, .n_systems = 4, .task_rows = 32,
                                 .flags = pass ? DOD_SCHEDULE_PASS_PER_SYSTEM : 0u };
        dod_schedule *s = NULL;
        CHECK_OK(dod_schedule_create(&s, w, &sd));
        CHECK_EQ(dod_schedule_phase_count(s), 3);
        CHECK(dod_schedule_phase_of(s, 0) == 0 && dod_schedule_phase_of(s, 1) == 0);
        dod_threadpool *p = NULL;
        CHECK_OK(dod_threadpool_create(&p, 3, NULL));
        dod_executor ex = dod_threadpool_executor(p);
        dod_apply_result r;
        CHECK_OK(dod_schedule_run(s, w, &ex, &r));
        /* 250 despawns and spawns and 250 moves by churn, 250 moves by mover */
        CHECK_EQ(r.applied, N / 4 * 4);
        CHECK(between.calls == 1 && between.small == N / 2 && between.three == N / 2);
        CHECK(between.exec == &ex && after.calls == 1);
        /* the same direct calls: churn's in row order, then mover's */
        static dod_entity re[N];
        dod_world *ref = churned_directly(N, re);
        for (uint32_t i = 0; i < N; ++i)
            if (i % 4 == 2)
                CHECK_OK(dod_world_move(ref, re[i], A_THREE));
        CHECK(world_same(w, ref));
        /* A step that fails stops the run there: the phase before it was applied, the step
         * after it is not called. */
        between.give = DOD_E_FULL;
        CHECK_STATUS(dod_schedule_run(s, w, NULL, &r), DOD_E_FULL);
        CHECK(between.calls == 2 && after.calls == 1 && between.exec == NULL);
        dod_world_destroy(ref);
        dod_threadpool_destroy(p);
        dod_schedule_destroy(s);
        dod_world_destroy(w);
    }
}

/* A task's number within its system, in block-and-row order: the same in one pass a phase as
 * in a pass per system, for systems over different archetypes. */
typedef struct task_seen {
    uint32_t n;
    uint32_t key[256]; /* task -> archetype << 24 | block << 12 | first row / 16 */
} task_seen;

static void note_task(const dod_system_task *t)
{
    task_seen *seen = (task_seen *)t->ctx;
    if (t->task < 256)
        seen->key[t->task] = t->rows.archetype << 24 | t->rows.block << 12 | t->rows.first_row / 16;
    seen->n++;
}

static void test_task_numbers(void)
{
    dod_world *w = make_world(200, NULL);
    CHECK_OK(dod_world_spawn_n(w, A_BIG, 150, NULL));
    CHECK_OK(dod_world_spawn_n(w, A_SMALL, 300, NULL)); /* 6 blocks of 56 */
    static const uint32_t c0[] = { C0 }, c2[] = { C2 }, c1[] = { C1 };
    task_seen seen[2][3];
    memset(seen, 0, sizeof seen);
    for (uint32_t pass = 0; pass < 2; ++pass) {
        dod_system_desc d[3] = { sys(c0, 1, NULL, 0), sys(c2, 1, NULL, 0), sys(c1, 1, NULL, 0) };
        for (uint32_t i = 0; i < 3; ++i) /* parallel: the one pass, unless pass per system */
            d[i].fn = note_task, d[i].ctx = &seen[pass][i], d[i].flags = DOD_SYSTEM_PARALLEL;
        dod_schedule_desc sd = { .systems = d, .n_systems = 3, .task_rows = 32,
                                 .flags = pass ? DOD_SCHEDULE_PASS_PER_SYSTEM : 0u };
        dod_schedule *s = NULL;
        CHECK_OK(dod_schedule_create(&s, w, &sd));
        CHECK_EQ(dod_schedule_phase_count(s), 1);
        CHECK_OK(dod_schedule_run(s, w, NULL, NULL));
        dod_schedule_destroy(s);
    }
    /* A_BIG: 150 rows in tasks of 32; A_SMALL: 300 rows in blocks of 64 rows, 2 tasks each */
    CHECK_EQ(seen[0][0].n, 5 + 10);
    CHECK_EQ(seen[0][1].n, 5);      /* only A_BIG has c2 */
    CHECK(memcmp(seen[0], seen[1], sizeof seen[0]) == 0);
    dod_world_destroy(w);
}

static void test_refusals(void)
{
    dod_world *w = make_world(64, NULL), *other = make_world(64, NULL);
    CHECK_OK(dod_world_spawn_n(w, A_BIG, 40, NULL));
    uint64_t snap = world_snap(w);
    static const uint32_t c0[] = { C0 }, c01[] = { C0, C1 }, c1[] = { C1 }, bad[] = { N_COMPS };
    /* One system's desc per case, and the status create must give. */
    static const struct {
        const uint32_t *all, *none, *writes, *reads;
        uint32_t n_all, n_none, n_writes, n_reads, flags, task_rows;
        dod_status want;
    } cases[] = {
        { c01, NULL, c0, NULL, 2, 0, 1, 0, 0, 0, DOD_OK },
        { NULL, NULL, NULL, NULL, 1, 0, 0, 0, 0, 0, DOD_E_INVALID },  /* all NULL, count 1 */
        { c0, NULL, NULL, NULL, 1, 1, 0, 0, 0, 0, DOD_E_INVALID },    /* none */
        { c0, NULL, NULL, NULL, 1, 0, 1, 0, 0, 0, DOD_E_INVALID },    /* writes */
        { c0, NULL, NULL, NULL, 1, 0, 0, 1, 0, 0, DOD_E_INVALID },    /* reads */
        { bad, NULL, NULL, NULL, 1, 0, 0, 0, 0, 0, DOD_E_RANGE },     /* ids past the world's */
        { c0, bad, NULL, NULL, 1, 1, 0, 0, 0, 0, DOD_E_RANGE },
        { c0, NULL, bad, NULL, 1, 0, 1, 0, 0, 0, DOD_E_RANGE },
        { c0, NULL, NULL, bad, 1, 0, 0, 1, 0, 0, DOD_E_RANGE },
        { c0, NULL, c1, NULL, 1, 0, 1, 0, 0, 0, DOD_E_INVALID },      /* a write not in all */
        { c01, c1, c1, NULL, 2, 1, 1, 0, 0, 0, DOD_E_INVALID },       /* one it also excludes */
        { c0, NULL, c0, c0, 1, 0, 1, 1, 0, 0, DOD_E_INVALID },        /* a lookup of a write */
        { c0, NULL, c0, NULL, 1, 0, 1, 0, 16, 0, DOD_E_INVALID },     /* unknown flags */
        { c0, NULL, c0, NULL, 1, 0, 1, 0, DOD_SYSTEM_PARALLEL, 0, DOD_OK },
        { c0, NULL, c0, NULL, 1, 0, 1, 0, DOD_SYSTEM_SEQUENTIAL, 0, DOD_OK },
        { c0, NULL, c0, NULL, 1, 0, 1, 0, DOD_SYSTEM_SEQUENTIAL | DOD_SYSTEM_PARALLEL, 0,
          DOD_E_INVALID },                                            /* both: contradictory */
        { c0, NULL, c0, NULL, 1, 0, 1, 0, 0, 8, DOD_E_INVALID },      /* task_rows % 16 */
        { c0, NULL, c0, NULL, 1, 0, 1, 0, 0, 17, DOD_E_INVALID },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        dod_system_desc d = sys(cases[i].all, cases[i].n_all, cases[i].writes, cases[i].n_writes);
        d.none = cases[i].none, d.n_none = cases[i].n_none;
        d.reads = cases[i].reads, d.n_reads = cases[i].n_reads;
        d.flags = cases[i].flags;
        CHECK_STATUS(create_one(w, &d, cases[i].task_rows), cases[i].want);
    }
    dod_system_desc d = sys(c0, 1, c0, 1);
    d.fn = NULL;
    CHECK_STATUS(create_one(w, &d, 0), DOD_E_INVALID);
    /* a step with anything of a system's */
    for (int k = 0; k < 5; ++k) {
        dod_system_desc st = dod_step_desc("step", step_count, NULL);
        switch (k) {
        case 0: st.fn = nop; break;
        case 1: st.all = c0, st.n_all = 1; break;
        case 2: st.writes = c0, st.n_writes = 1; break;
        case 3: st.flags = DOD_SYSTEM_COMMANDS; break;
        default: st.none = c0, st.n_none = 1; break;
        }
        CHECK_STATUS(create_one(w, &st, 0), DOD_E_INVALID);
    }
    dod_system_desc step = dod_step_desc("step", step_count, NULL);
    CHECK_OK(create_one(w, &step, 0));
    dod_schedule_desc bad_flags = { .systems = &step, .n_systems = 1, .flags = 2 };
    dod_schedule *none = NULL;
    CHECK_STATUS(dod_schedule_create(&none, w, &bad_flags), DOD_E_INVALID);
    CHECK(none == NULL);
    d.fn = nop;
    dod_schedule_desc sd = { .systems = NULL, .n_systems = 1 };
    dod_schedule *s = NULL;
    CHECK_STATUS(dod_schedule_create(&s, w, &sd), DOD_E_INVALID);
    CHECK(s == NULL);

    /* run: another world, unusable executors */
    s = make_schedule(w, &d, 1, 0, NULL);
    CHECK_STATUS(dod_schedule_run(s, other, NULL, NULL), DOD_E_INVALID);
    dod_executor no_run = { NULL, NULL, 1 }, no_threads = dod_threadpool_executor(NULL);
    CHECK_STATUS(dod_schedule_run(s, w, &no_run, NULL), DOD_E_INVALID);
    no_threads.run = sched_order_run;
    no_threads.n_threads = 0;
    CHECK_STATUS(dod_schedule_run(s, w, &no_threads, NULL), DOD_E_INVALID);
    CHECK_EQ(world_snap(w), snap);
    dod_schedule_destroy(s);
    dod_world_destroy(other);
    dod_world_destroy(w);
}

/* ---- memory ---- */

static void test_create_alloc_failures(void)
{
    dod_world *w = make_world(64, NULL);
    static const uint32_t c0[] = { C0 };
    dod_system_desc d[2] = { sys(c0, 1, c0, 1), sys(c0, 1, NULL, 0) };
    for (long k = 0;; ++k) {
        test_alloc ta;
        test_alloc_init(&ta);
        dod_allocator a = test_alloc_get(&ta);
        test_alloc_fail_after(&ta, k);
        dod_schedule_desc sd = { .systems = d, .n_systems = 2, .alloc = &a };
        dod_schedule *s = NULL;
        dod_status st = dod_schedule_create(&s, w, &sd);
        if (st == DOD_OK) {
            CHECK(k > 0);
            dod_schedule_destroy(s);
            CHECK_EQ(ta.live, 0);
            test_alloc_finish(&ta);
            break;
        }
        CHECK_STATUS(st, DOD_E_NOMEM);
        CHECK(s == NULL);
        CHECK_EQ(ta.live, 0);
        test_alloc_finish(&ta);
    }
    dod_world_destroy(w);
}

/* Run s with the k-th allocation failing, k = 0, 1, ... until a run succeeds: each failure is
 * DOD_E_NOMEM and leaves the world as it was (the failures fall in the first phase, before
 * anything ran or was applied). Returns how many runs failed. */
static long walk_run_failures(dod_schedule *s, dod_world *w, test_alloc *ta)
{
    uint64_t snap = world_snap(w);
    long k = 0;
    for (;; ++k) {
        test_alloc_fail_after(ta, k);
        dod_status st = dod_schedule_run(s, w, NULL, NULL);
        if (st == DOD_OK)
            break;
        CHECK_STATUS(st, DOD_E_NOMEM);
        CHECK_EQ(world_snap(w), snap);
    }
    return k;
}

/* A run whose list growth fails changed nothing and can run again; then a run of the same
 * frame allocates nothing. */
static void test_run_alloc_failures(void)
{
    dod_world *w = make_world(4096, NULL);
    CHECK_OK(dod_world_spawn_n(w, A_BIG, 4000, NULL));
    CHECK_OK(dod_world_spawn_n(w, A_SMALL, 300, NULL));
    static const uint32_t c0[] = { C0 }, c01[] = { C0, C1 }, c1[] = { C1 };
    dod_system_desc d[2] = { sys(c01, 2, c1, 1), sys(c0, 1, c0, 1) };
    d[0].fn = triple, d[0].flags = DOD_SYSTEM_PARALLEL;
    d[1].fn = bump, d[1].flags = DOD_SYSTEM_PARALLEL;
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator a = test_alloc_get(&ta);
    dod_schedule *s = make_schedule(w, d, 2, 64, &a);
    CHECK(walk_run_failures(s, w, &ta) > 0);
    test_alloc_fail_after(&ta, -1);
    long calls = ta.calls;
    CHECK_OK(dod_schedule_run(s, w, NULL, NULL));
    CHECK_EQ(ta.calls, calls); /* the second frame: 0 allocations */
    dod_threadpool *p = NULL;
    CHECK_OK(dod_threadpool_create(&p, 2, NULL));
    dod_executor ex = dod_threadpool_executor(p);
    CHECK_OK(dod_schedule_run(s, w, &ex, NULL));
    CHECK_EQ(ta.calls, calls);
    dod_threadpool_destroy(p);
    dod_schedule_destroy(s);
    CHECK_EQ(ta.live, 0);
    test_alloc_finish(&ta);
    dod_world_destroy(w);
}

/* Every row with an even c0 gets c1 = c0 through its buffer: rows do not move, so every frame
 * records the same commands into the same buffers. A recording failure is reported. */
static void mark_system(const dod_system_task *t)
{
    const uint32_t *c0 = (const uint32_t *)dod_world_field(&t->rows, C0);
    dod_status st = DOD_OK;
    for (uint32_t i = 0; i < t->rows.n && st == DOD_OK; ++i)
        if (c0[i] % 2 == 0)
            st = dod_cmds_set(t->cmds, t->rows.entities[i], C1, &c0[i], sizeof c0[i]);
    if (st != DOD_OK)
        *t->status = st;
}

/* Every allocation of a run with commands (lists, buffers, the buffers' records) failed in
 * turn: DOD_E_NOMEM, the world as it was, nothing leaked; then the frame runs, and runs again
 * with no allocation. */
static void test_run_alloc_failures_commands(void)
{
    dod_world *w = make_world(64, NULL);
    static dod_entity e[300];
    CHECK_OK(dod_world_spawn_n(w, A_SMALL, 300, e));
    for (uint32_t i = 0; i < 300; ++i)
        *(uint32_t *)dod_world_get(w, e[i], C0) = i;
    static const uint32_t c0[] = { C0 };
    dod_system_desc d = sys(c0, 1, NULL, 0);
    d.fn = mark_system, d.flags = DOD_SYSTEM_COMMANDS | DOD_SYSTEM_PARALLEL; /* a buffer a job */
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator a = test_alloc_get(&ta);
    dod_schedule *s = make_schedule(w, &d, 1, 32, &a);
    CHECK(walk_run_failures(s, w, &ta) > 3); /* the lists, the buffers, and records */
    for (uint32_t i = 0; i < 300; ++i)
        CHECK_EQ(*(uint32_t *)dod_world_get(w, e[i], C1), i % 2 ? 0 : i);
    test_alloc_fail_after(&ta, -1);
    long calls = ta.calls;
    dod_apply_result r;
    for (int f = 0; f < 3; ++f) {
        CHECK_OK(dod_schedule_run(s, w, NULL, &r));
        CHECK_EQ(r.applied, 150);
    }
    CHECK_EQ(ta.calls, calls); /* 0 allocations a frame */
    dod_schedule_destroy(s);
    CHECK_EQ(ta.live, 0);
    test_alloc_finish(&ta);
    dod_world_destroy(w);
}

int main(void)
{
    test_phases();
    test_tasks();
    test_writes();
    test_commands();
    test_refused_record();
    test_steps_and_recorders();
    test_task_numbers();
    test_refusals();
    test_create_alloc_failures();
    test_run_alloc_failures();
    test_run_alloc_failures_commands();
    return check_summary("test_world_schedule");
}
