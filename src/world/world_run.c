/* Running a schedule: per phase, the task list cut from the world as it is, the jobs the
 * executor runs, and the commands applied after the phase; a step between phases is called with
 * the world. The lists are kept and reused. */
#include "exec_dispatch.h"
#include "world_schedule.h"

/* Grow *list (cap entries of size bytes) to hold n, geometrically; nothing changes on
 * failure. */
static dod_status grow_list(const dod_allocator *a, void **list, uint32_t *cap, uint32_t n, size_t size)
{
    if (n <= *cap)
        return DOD_OK;
    uint64_t want = (uint64_t)*cap + *cap / 2;
    if (want < n)
        want = n;
    if (want < 64)
        want = 64;
    if (want > UINT32_MAX)
        want = UINT32_MAX;
    size_t bytes = 0;
    DOD__REFUSE_IF(!dod__mul((size_t)want, size, &bytes), DOD_E_OVERFLOW);
    void *fresh = dod__alloc(a, bytes);
    DOD__REFUSE_IF(!fresh, DOD_E_NOMEM);
    if (*cap)
        memcpy(fresh, *list, (size_t)*cap * size);
    dod__free(a, *list, (size_t)*cap * size);
    *list = fresh;
    *cap = (uint32_t)want;
    return DOD_OK;
}

/* Room for n command buffers, the new ones initialised (bound to the schedule's world, on
 * its allocator; a buffer is a plain struct, so it moves with the list); nothing changes on
 * failure. */
static dod_status grow_buffers(dod_schedule *s, uint32_t n)
{
    uint32_t had = s->buffer_cap;
    dod_status st = grow_list(&s->alloc, (void **)&s->buffers, &s->buffer_cap, n, sizeof(dod_cmds));
    for (uint32_t i = had; st == DOD_OK && i < s->buffer_cap; ++i) {
        dod_status init = dod_cmds_init(&s->buffers[i], s->world, &s->alloc);
        DOD_ASSERT(init == DOD_OK); /* it refuses only NULLs */
        (void)init;
    }
    return st;
}

void dod__sched_free_lists(dod_schedule *s)
{
    for (uint32_t i = 0; i < s->buffer_cap; ++i)
        dod_cmds_free(&s->buffers[i]);
    dod__free(&s->alloc, s->buffers, (size_t)s->buffer_cap * sizeof(dod_cmds));
    dod__free(&s->alloc, s->tasks, (size_t)s->task_cap * sizeof *s->tasks);
    dod__free(&s->alloc, s->jobs, (size_t)s->job_cap * sizeof *s->jobs);
    dod__free(&s->alloc, s->task_base, (size_t)s->task_base_cap * sizeof *s->task_base);
    s->tasks = NULL;
    s->jobs = NULL;
    s->task_base = NULL;
    s->buffers = NULL;
    s->task_cap = s->job_cap = s->task_base_cap = s->buffer_cap = 0;
}

static int system_matches(const dod__sched_system *sys, uint32_t archetype)
{
    return dod__query_matches(&sys->query, archetype);
}

/* 1 when sys runs in its phase's one pass (the schedule fuses, and sys is parallel). */
static int in_one_pass(const dod_schedule *s, const dod__sched_system *sys)
{
    return s->fused && (sys->flags & DOD_SYSTEM_PARALLEL);
}

/* 1 when some system of phase p that runs in the one pass matches archetype k. */
static int one_pass_matches(const dod_schedule *s, uint32_t p, uint32_t k)
{
    for (uint32_t i = s->phase_first[p]; i < s->phase_first[p + 1]; ++i)
        if (in_one_pass(s, &s->systems[i]) && system_matches(&s->systems[i], k))
            return 1;
    return 0;
}

/* Tasks of a pass over the rows of a: per block holding rows, one per task_rows rows. */
static uint64_t tasks_of_archetype(const dod_schedule *s, const dod__world_arch *a)
{
    uint64_t n = 0;
    for (uint32_t b = 0; b < dod__world_used_blocks(a); ++b)
        n += (dod__world_block_rows(a, b) + (uint64_t)s->task_rows - 1) / s->task_rows;
    return n;
}

/* Tasks of phase p in the world as it is: those of the one pass over every archetype its
 * systems match, then those of each system with a pass of its own. */
static uint64_t count_tasks_of_phase(const dod_schedule *s, const dod_world *w, uint32_t p)
{
    uint64_t n = 0;
    for (uint32_t k = 0; s->fused && k < w->n_archetypes; ++k)
        if (one_pass_matches(s, p, k))
            n += tasks_of_archetype(s, &w->arch[k]);
    for (uint32_t i = s->phase_first[p]; i < s->phase_first[p + 1]; ++i) {
        const dod__sched_system *sys = &s->systems[i];
        for (uint32_t k = 0; !in_one_pass(s, sys) && k < w->n_archetypes; ++k)
            if (system_matches(sys, k))
                n += tasks_of_archetype(s, &w->arch[k]);
    }
    return n;
}

/* Where a phase's tasks and jobs are being written. A job is consecutive tasks of one pass
 * holding at most task_rows rows together, or every task of a system that is not parallel. */
typedef struct task_writer {
    dod_schedule *s;
    uint32_t n_tasks, n_jobs;
    uint32_t job_rows;
    int job_open, sequential;
} task_writer;

/* A new pass (a system's, or the phase's one pass): its first task opens a job. */
static void start_pass(task_writer *tw, int sequential)
{
    tw->job_open = 0;
    tw->sequential = sequential;
}

/* The tasks of `system` (or DOD__SCHED_FUSED) over archetype k's rows, indexes from *index on;
 * returns how many. */
static uint32_t write_tasks(task_writer *tw, const dod_world *w, uint32_t system, uint32_t k,
                            uint32_t *index)
{
    dod_schedule *s = tw->s;
    const dod__world_arch *a = &w->arch[k];
    uint32_t written = 0;
    for (uint32_t b = 0; b < dod__world_used_blocks(a); ++b) {
        uint32_t rows = dod__world_block_rows(a, b);
        for (uint32_t first = 0; first < rows; first += s->task_rows) {
            uint32_t n = rows - first < s->task_rows ? rows - first : s->task_rows;
            dod__sched_task *t = &s->tasks[tw->n_tasks];
            t->system = system, t->archetype = k, t->block = b;
            t->first_row = first, t->n = n, t->index = (*index)++;
            if (!tw->job_open || (!tw->sequential && tw->job_rows + n > s->task_rows)) {
                dod__sched_job *j = &s->jobs[tw->n_jobs++];
                j->first = tw->n_tasks, j->n = 0, j->status = DOD_OK;
                tw->job_open = 1, tw->job_rows = 0;
            }
            s->jobs[tw->n_jobs - 1].n++;
            tw->job_rows += n;
            tw->n_tasks++;
            written++;
        }
    }
    return written;
}

/* Write phase p's tasks and jobs (the lists hold them): the one pass, archetype by archetype
 * (each archetype's tasks indexed from 0, and the table of each system's tasks before each
 * archetype filled), then each system with a pass of its own. Returns the number of jobs. */
static uint32_t fill_tasks_of_phase(dod_schedule *s, const dod_world *w, uint32_t p)
{
    task_writer tw = { s, 0, 0, 0, 0, 0 };
    uint32_t first = s->phase_first[p], n_arch = w->n_archetypes;
    if (s->fused) {
        start_pass(&tw, 0);
        for (uint32_t i = first; i < s->phase_first[p + 1]; ++i)
            s->task_base[(size_t)(i - first) * n_arch] = 0;
        for (uint32_t k = 0; k < n_arch; ++k) {
            uint32_t index = 0, n = 0;
            if (one_pass_matches(s, p, k))
                n = write_tasks(&tw, w, DOD__SCHED_FUSED, k, &index);
            for (uint32_t i = first; k + 1 < n_arch && i < s->phase_first[p + 1]; ++i) {
                uint32_t *base = &s->task_base[(size_t)(i - first) * n_arch + k];
                base[1] = base[0] + (system_matches(&s->systems[i], k) ? n : 0);
            }
        }
    }
    for (uint32_t i = first; i < s->phase_first[p + 1]; ++i) {
        const dod__sched_system *sys = &s->systems[i];
        if (in_one_pass(s, sys))
            continue;
        uint32_t index = 0;
        start_pass(&tw, (sys->flags & DOD_SYSTEM_PARALLEL) == 0);
        for (uint32_t k = 0; k < n_arch; ++k)
            if (system_matches(sys, k))
                write_tasks(&tw, w, i, k, &index);
    }
    return tw.n_jobs;
}

typedef struct sched_run_ctx {
    dod_schedule *s;    /* a job writes only its own status and buffers */
    const dod_world *w;
    uint32_t phase, n_jobs;
    const void *frame;  /* the run's frame argument */
} sched_run_ctx;

/* One call of system i over a task's rows, as its task number `index`, in job j. */
static void run_system(const sched_run_ctx *c, uint32_t i, const dod__sched_task *task,
                       uint32_t index, uint32_t j)
{
    const dod__sched_system *sys = &c->s->systems[i];
    dod_system_task t;
    dod__world_iter_rows(&t.rows, c->w, task->archetype, task->block, task->first_row, task->n);
    t.world = c->w;
    t.cmds = sys->flags & DOD_SYSTEM_COMMANDS ? &c->s->buffers[(size_t)sys->rank * c->n_jobs + j]
                                            : NULL;
    t.status = &c->s->jobs[j].status;
    t.ctx = sys->ctx;
    t.typed_fn = sys->typed_fn;
    t.system = i;
    t.task = index;
    t.frame = c->frame;
    sys->fn(&t);
}

/* One job: its tasks in order; a task of the one pass runs every system of the phase in the
 * pass that matches its archetype, in system order. */
static void run_sched_job(void *arg, uint32_t j)
{
    const sched_run_ctx *c = (const sched_run_ctx *)arg;
    const dod_schedule *s = c->s;
    const dod__sched_job *job = &s->jobs[j];
    uint32_t first = s->phase_first[c->phase], end = s->phase_first[c->phase + 1];
    for (uint32_t k = job->first; k < job->first + job->n; ++k) {
        const dod__sched_task *task = &s->tasks[k];
        if (task->system != DOD__SCHED_FUSED) {
            run_system(c, task->system, task, task->index, j);
            continue;
        }
        for (uint32_t i = first; i < end; ++i) {
            const dod__sched_system *sys = &s->systems[i];
            if (!in_one_pass(s, sys) || !system_matches(sys, task->archetype))
                continue;
            uint32_t before =
                s->task_base[(size_t)(i - first) * c->w->n_archetypes + task->archetype];
            run_system(c, i, task, before + task->index, j);
        }
    }
}

/* The recording systems of phase p. */
static uint32_t recorders_of_phase(const dod_schedule *s, uint32_t p)
{
    uint32_t n = 0;
    for (uint32_t i = s->phase_first[p]; i < s->phase_first[p + 1]; ++i)
        n += (s->systems[i].flags & DOD_SYSTEM_COMMANDS) != 0;
    return n;
}

/* Cut phase p into tasks and jobs, growing the lists and the buffers it needs (nothing has
 * run on failure); *n_buffers: n_jobs for each recording system. */
static dod_status plan_sched_phase(dod_schedule *s, const dod_world *w, uint32_t p,
                                   uint32_t *n_jobs, uint32_t *n_buffers)
{
    uint64_t n = count_tasks_of_phase(s, w, p);
    uint64_t bases = s->fused ? (uint64_t)(s->phase_first[p + 1] - s->phase_first[p]) *
                                    w->n_archetypes
                              : 0;
    DOD__REFUSE_IF(n >= UINT32_MAX, DOD_E_OVERFLOW);
    dod_status st = grow_list(&s->alloc, (void **)&s->tasks, &s->task_cap, (uint32_t)n, sizeof *s->tasks);
    if (st == DOD_OK) /* at most one job a task */
        st = grow_list(&s->alloc, (void **)&s->jobs, &s->job_cap, (uint32_t)n, sizeof *s->jobs);
    if (st == DOD_OK) /* at most 256 archetypes for each of fewer than 2^32 systems: fits */
        st = grow_list(&s->alloc, (void **)&s->task_base, &s->task_base_cap, (uint32_t)bases,
                       sizeof *s->task_base);
    if (st != DOD_OK)
        return st;
    *n_jobs = fill_tasks_of_phase(s, w, p);
    uint64_t buffers = (uint64_t)recorders_of_phase(s, p) * *n_jobs;
    DOD__REFUSE_IF(buffers >= UINT32_MAX, DOD_E_OVERFLOW);
    *n_buffers = (uint32_t)buffers;
    return grow_buffers(s, *n_buffers);
}

/* Change versions: the columns phase p's systems write, in every archetype holding rows they
 * run over, are stamped (before the systems run: the stamps are read by copies only). */
static void stamp_writes(const dod_schedule *s, dod_world *w, uint32_t p)
{
    for (uint32_t i = s->phase_first[p]; i < s->phase_first[p + 1]; ++i) {
        const dod__sched_system *sys = &s->systems[i];
        for (uint32_t k = 0; k < w->n_archetypes; ++k) {
            dod__world_arch *a = &w->arch[k];
            if (!system_matches(sys, k) || a->n_rows == 0)
                continue;
            for (uint32_t col = 0; col < a->n_cols; ++col)
                if (dod__bit_test(sys->writes, (uint32_t)a->cols[col].comp))
                    dod__world_column_changed(w, a, col);
        }
    }
}

/* The first failure of a phase's jobs, in job order: a status a system reported (t->status),
 * else a record one of the job's buffers refused (dod_cmds_status, in system order), so a
 * system need not check each dod_cmds_* call. */
static dod_status phase_failure(const dod_schedule *s, uint32_t n_jobs, uint32_t n_buffers)
{
    uint32_t recorders = n_jobs ? n_buffers / n_jobs : 0;
    for (uint32_t j = 0; j < n_jobs; ++j) {
        if (s->jobs[j].status != DOD_OK)
            return s->jobs[j].status;
        for (uint32_t r = 0; r < recorders; ++r) {
            dod_status st = dod_cmds_status(&s->buffers[(size_t)r * n_jobs + j]);
            if (st != DOD_OK)
                return st;
        }
    }
    return DOD_OK;
}

/* Run phase p's systems and apply what they recorded (in buffer order: system by system, then
 * job by job); *sum gains what the apply did. */
static dod_status run_phase(dod_schedule *s, dod_world *w, uint32_t p, const dod_executor *exec,
                            const void *frame, dod_apply_result *sum)
{
    uint32_t n_jobs = 0, n_buffers = 0;
    dod_status st = plan_sched_phase(s, w, p, &n_jobs, &n_buffers);
    if (st != DOD_OK)
        return st;
    stamp_writes(s, w, p);
    sched_run_ctx c = { s, w, p, n_jobs, frame };
    w->in_systems = 1; /* a debug build refuses direct structural calls meanwhile */
    dod__exec_run(exec, n_jobs, run_sched_job, &c);
    w->in_systems = 0;
    st = phase_failure(s, n_jobs, n_buffers);
    if (n_buffers == 0)
        return st;
    /* On a failure the world is as it was before the apply, and the commands are dropped. */
    dod_apply_result r = { 0, 0, 0 };
    if (st == DOD_OK)
        st = dod_world_apply(w, s->buffers, n_buffers, &r);
    for (uint32_t i = 0; i < n_buffers; ++i)
        dod_cmds_clear(&s->buffers[i]);
    sum->applied += r.applied, sum->skipped += r.skipped, sum->missing += r.missing;
    return st;
}

/* Both runs: `call` names the one the caller made in a debug build's report. */
static dod_status run_schedule(dod_schedule *s, dod_world *w, const dod_executor *exec,
                               const void *frame, dod_apply_result *result, const char *call)
{
    (void)call; /* a build without reports does not name it */
    DOD__REFUSE_IF_IN(call, !s || !w, DOD_E_INVALID);
    DOD__REFUSE_IF_IN(call, w != s->world || w->head.tag_hi != s->tag_hi, DOD_E_INVALID);
    DOD__REFUSE_IF_IN(call, !dod__exec_usable(exec), DOD_E_INVALID);
    DOD__WORLD_REFUSE_BUSY(w, call);
    dod_apply_result sum = { 0, 0, 0 };
    dod_status st = DOD_OK;
    for (uint32_t p = 0; p < s->n_phases && st == DOD_OK; ++p) {
        const dod__sched_system *first = &s->systems[s->phase_first[p]];
        st = first->step ? first->step(w, exec, first->ctx)
                         : run_phase(s, w, p, exec, frame, &sum);
    }
    if (result)
        *result = sum;
    return st;
}

dod_status dod_schedule_run(dod_schedule *s, dod_world *w, const dod_executor *exec,
                            dod_apply_result *result)
{
    return run_schedule(s, w, exec, NULL, result, "dod_schedule_run");
}

dod_status dod_schedule_run_with(dod_schedule *s, dod_world *w, const dod_executor *exec,
                                 const void *frame, dod_apply_result *result)
{
    return run_schedule(s, w, exec, frame, result, "dod_schedule_run_with");
}
