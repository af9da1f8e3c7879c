/* The schedule's private layout, shared by src/world/world_schedule.c (create, validation, phases)
 * and src/world/world_run.c (tasks, jobs, running and applying). Not installed. */
#ifndef DOD_WORLD_SCHEDULE_H
#define DOD_WORLD_SCHEDULE_H

#include <dod/world_systems.h>
#include "world_layout.h"

#define DOD__SCHED_WORDS (DOD_WORLD_MAX_COMPONENTS / 64)

typedef struct dod__sched_system {
    dod_query query;               /* the archetypes it runs over */
    dod_system_fn fn;              /* NULL for a step */
    dod_step_fn step;              /* a step's function, else NULL */
    void *ctx;
    void (*typed_fn)(void);
    uint32_t flags;
    uint32_t phase;
    uint32_t rank;                 /* among its phase's recording systems, in order (those that
                                      record: DOD_SYSTEM_COMMANDS) */
    uint64_t writes[DOD__SCHED_WORDS]; /* components it writes */
    uint64_t reads[DOD__SCHED_WORDS];  /* components it reads: `all` less writes, and lookups */
} dod__sched_system;

#define DOD__SCHED_FUSED UINT32_MAX /* a task's system: every system of the phase matching it */

typedef struct dod__sched_task { /* rows first_row .. first_row + n - 1 of a block */
    uint32_t system;             /* its system, or DOD__SCHED_FUSED */
    uint32_t archetype, block, first_row, n;
    uint32_t index;              /* within its system, in block-and-row order; a fused task's
                                    within its archetype (a system's index adds the tasks of
                                    the archetypes before it that the system matches) */
} dod__sched_task;

typedef struct dod__sched_job {  /* what the executor runs: tasks first .. first + n - 1 */
    uint32_t first, n;
    dod_status status;           /* a failure its tasks reported (dod_system_task.status) */
} dod__sched_job;

struct dod_schedule {
    dod_allocator alloc;
    const dod_world *world;      /* the world it was made for, and that world's tag */
    uint32_t tag_hi;
    uint32_t n_systems;
    uint32_t n_phases;
    uint32_t task_rows;
    dod__sched_system *systems;  /* n_systems, in the schedule's allocation */
    uint32_t *phase_first;       /* phase p holds systems phase_first[p] .. phase_first[p + 1] - 1 */
    size_t bytes;                /* of the schedule's allocation */
    /* Reused from run to run (world_run.c): */
    int fused;                   /* one pass over a task's rows runs every system of the
                                    phase that matches them (not DOD_SCHEDULE_PASS_PER_SYSTEM) */
    dod__sched_task *tasks;
    uint32_t task_cap;
    dod__sched_job *jobs;
    uint32_t job_cap;
    uint32_t *task_base;         /* fused: [system of the phase][archetype], the system's tasks in
                                    the archetypes before it */
    uint32_t task_base_cap;
    dod_cmds *buffers;           /* buffer_cap buffers, every one initialised: a phase's job j
                                    records for its recording system of rank r into buffer
                                    r * n_jobs + j (so that applying them in order applies
                                    system by system, then task by task); cleared after the
                                    apply */
    uint32_t buffer_cap;
};

/* Free the run's lists (world_run.c). */
void dod__sched_free_lists(dod_schedule *s);

#endif /* DOD_WORLD_SCHEDULE_H */
