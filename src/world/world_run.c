/* Running a schedule: per phase, the task list cut from the world as it is, the jobs the
 * executor runs, and the commands applied after the phase. The lists are kept and reused. */
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
    s->tasks = NULL;
    s->jobs = NULL;
    s->buffers = NULL;
    s->task_cap = s->job_cap = s->buffer_cap = 0;
}

static int system_matches(const dod__sched_system *sys, uint32_t archetype)
{
    return (int)(sys->query.archetypes[archetype / 64] >> (archetype % 64) & 1u);
}

/* Tasks of phase p in the world as it is: per system, per matched archetype, per block
 * holding rows, one task per task_rows rows from the block's start. */
static uint64_t count_tasks_of_phase(const dod_schedule *s, const dod_world *w, uint32_t p)
{
    uint64_t n = 0;
    for (uint32_t i = s->phase_first[p]; i < s->phase_first[p + 1]; ++i)
        for (uint32_t k = 0; k < w->n_archetypes; ++k) {
            const dod__world_arch *a = &w->arch[k];
            if (!system_matches(&s->systems[i], k))
                continue;
            for (uint32_t b = 0; b < dod__world_used_blocks(a); ++b)
                n += (dod__world_block_rows(a, b) + (uint64_t)s->task_rows - 1) / s->task_rows;
        }
    return n;
}

/* Write phase p's tasks and jobs (the lists hold them); returns the number of jobs, and in
 * *n_buffers the number of command buffers they record into (one per job of a system that
 * records commands). A job is consecutive tasks of one system holding at most task_rows rows
 * together, or every task of a sequential system. */
static uint32_t fill_tasks_of_phase(dod_schedule *s, const dod_world *w, uint32_t p,
                                    uint32_t *n_buffers)
{
    uint32_t n_tasks = 0, n_jobs = 0;
    *n_buffers = 0;
    for (uint32_t i = s->phase_first[p]; i < s->phase_first[p + 1]; ++i) {
        const dod__sched_system *sys = &s->systems[i];
        int sequential = (sys->flags & DOD_SYSTEM_SEQUENTIAL) != 0;
        int records = (sys->flags & DOD_SYSTEM_COMMANDS) != 0;
        uint32_t index = 0, job_rows = 0, job_open = 0;
        for (uint32_t k = 0; k < w->n_archetypes; ++k) {
            const dod__world_arch *a = &w->arch[k];
            if (!system_matches(sys, k))
                continue;
            for (uint32_t b = 0; b < dod__world_used_blocks(a); ++b) {
                uint32_t rows = dod__world_block_rows(a, b);
                for (uint32_t first = 0; first < rows; first += s->task_rows) {
                    uint32_t n = rows - first < s->task_rows ? rows - first : s->task_rows;
                    dod__sched_task *t = &s->tasks[n_tasks];
                    t->system = i, t->archetype = k, t->block = b;
                    t->first_row = first, t->n = n, t->index = index++;
                    if (!job_open || (!sequential && job_rows + n > s->task_rows)) {
                        dod__sched_job *j = &s->jobs[n_jobs++];
                        j->first = n_tasks, j->n = 0, j->status = DOD_OK;
                        j->buffer = records ? (*n_buffers)++ : UINT32_MAX;
                        job_open = 1, job_rows = 0;
                    }
                    s->jobs[n_jobs - 1].n++;
                    job_rows += n;
                    n_tasks++;
                }
            }
        }
    }
    return n_jobs;
}

typedef struct sched_run_ctx {
    dod_schedule *s;    /* a job writes only its own status */
    const dod_world *w;
} sched_run_ctx;

/* One job: its tasks in order, each a call of its system's fn. */
static void run_sched_job(void *arg, uint32_t index)
{
    const sched_run_ctx *c = (const sched_run_ctx *)arg;
    dod__sched_job *j = &c->s->jobs[index];
    dod_system_task t;
    for (uint32_t k = j->first; k < j->first + j->n; ++k) {
        const dod__sched_task *task = &c->s->tasks[k];
        const dod__sched_system *sys = &c->s->systems[task->system];
        dod__world_iter_rows(&t.rows, c->w, task->archetype, task->block, task->first_row,
                             task->n);
        t.world = c->w;
        t.cmds = j->buffer != UINT32_MAX ? &c->s->buffers[j->buffer] : NULL;
        t.status = &j->status;
        t.ctx = sys->ctx;
        t.typed_fn = sys->typed_fn;
        t.system = task->system;
        t.task = task->index;
        sys->fn(&t);
    }
}

/* Cut phase p into tasks and jobs, growing the lists and the buffers it needs (nothing has
 * run on failure). */
static dod_status plan_sched_phase(dod_schedule *s, const dod_world *w, uint32_t p,
                                   uint32_t *n_jobs, uint32_t *n_buffers)
{
    uint64_t n = count_tasks_of_phase(s, w, p);
    DOD__REFUSE_IF(n >= UINT32_MAX, DOD_E_OVERFLOW);
    dod_status st = grow_list(&s->alloc, (void **)&s->tasks, &s->task_cap, (uint32_t)n, sizeof *s->tasks);
    if (st == DOD_OK) /* at most one job a task */
        st = grow_list(&s->alloc, (void **)&s->jobs, &s->job_cap, (uint32_t)n, sizeof *s->jobs);
    if (st != DOD_OK)
        return st;
    *n_jobs = fill_tasks_of_phase(s, w, p, n_buffers);
    return grow_buffers(s, *n_buffers);
}

dod_status dod_schedule_run(dod_schedule *s, dod_world *w, const dod_executor *exec,
                            dod_apply_result *result)
{
    DOD__REFUSE_IF(!s || !w, DOD_E_INVALID);
    DOD__REFUSE_IF(w != s->world || w->head.tag_hi != s->tag_hi, DOD_E_INVALID);
    DOD__REFUSE_IF(!dod__exec_usable(exec), DOD_E_INVALID);
    sched_run_ctx c = { s, w };
    dod_apply_result sum = { 0, 0, 0 };
    dod_status st = DOD_OK;
    for (uint32_t p = 0; p < s->n_phases && st == DOD_OK; ++p) {
        uint32_t n_jobs = 0, n_buffers = 0;
        st = plan_sched_phase(s, w, p, &n_jobs, &n_buffers);
        if (st != DOD_OK)
            break;
        dod__exec_run(exec, n_jobs, run_sched_job, &c);
        for (uint32_t j = 0; j < n_jobs && st == DOD_OK; ++j)
            st = s->jobs[j].status; /* the first a system reported, in task order */
        if (n_buffers == 0)
            continue;
        /* The phase's recording system is its last; its buffers in job order. On a failure
         * the world is as it was before the apply, and the commands are dropped. */
        dod_apply_result r = { 0, 0, 0 };
        if (st == DOD_OK)
            st = dod_world_apply(w, s->buffers, n_buffers, &r);
        for (uint32_t i = 0; i < n_buffers; ++i)
            dod_cmds_clear(&s->buffers[i]);
        sum.applied += r.applied, sum.skipped += r.skipped, sum.missing += r.missing;
    }
    if (result)
        *result = sum;
    return st;
}
