/* dod/world_systems.h: systems, and a schedule that runs them on a world in parallel with a
 * byte-identical result for any number of threads (docs/world.md, "Systems and the schedule").
 *
 * A system is a function run over the rows a query matches, with a declared access: the
 * components of `all` it writes (`writes`), the others of `all` it only reads, and the
 * components it reads by lookup (`reads`, dod_world_get on other entities). It is called once
 * per task: a range of rows of one block (the same shape as a dod_world_iter step), with a
 * read-only world for lookups and, when it declared DOD_SYSTEM_COMMANDS, a command buffer for
 * structural changes (spawn, despawn, move, set), applied after its phase.
 *
 * Phases. dod_schedule_create groups the systems, in their order, into phases: a system joins
 * the current phase when it conflicts with none of its systems (a conflict: a component one
 * writes and the other reads or writes, lookups included), unless it is flagged
 * DOD_SYSTEM_NEW_PHASE; a step (below) is a phase of its own. A run then, phase by phase: cuts
 * the phase's systems into tasks from the world as it is now, hands them all to the executor at
 * once (systems of a phase run at the same time, and so do the tasks of a DOD_SYSTEM_PARALLEL
 * system), waits, and applies the commands the phase recorded (dod_world_apply: the buffers of
 * the phase's first recording system in task order, then the next one's). The next phase sees
 * the world those commands made; systems of one phase see the world as the phase began, not
 * each other's commands. (Changed: a system that recorded commands used to close the phase it
 * joined, so the systems after it saw its commands applied; flag such a system
 * DOD_SYSTEM_NEW_PHASE.)
 *
 * Parallel systems. By default a system's tasks run in order as one job, on one thread at a
 * time (the system still runs alongside the other systems of its phase): it may write state
 * outside the world (a total in its ctx, a framebuffer) without a race. A system flagged
 * DOD_SYSTEM_PARALLEL promises it writes only its rows and its command buffer, and its tasks are
 * spread over the executor's threads. (Changed: a system used to be split across threads unless
 * flagged DOD_SYSTEM_SEQUENTIAL, so one that wrote outside the world raced silently; flecs and
 * Bevy also run a system's iteration on one thread unless it opts in. DOD_SYSTEM_SEQUENTIAL is
 * still accepted and is now the default. The cost on the ecs_benchmark frame of seven systems:
 * docs/world-measurements.md, "The parallel opt-in".)
 *
 * One pass. The systems of a phase do not conflict, so by default the DOD_SYSTEM_PARALLEL ones
 * share one pass: a task covers a range of rows and runs, one after another while those rows are
 * in cache, every parallel system of the phase whose query matches them (in system order): one
 * pass over memory per phase, where a pass per system reads the rows it shares with the others
 * again (DOD_SCHEDULE_PASS_PER_SYSTEM in the schedule desc's flags cuts tasks per system
 * instead; a system that is not parallel always has a pass of its own). Either way each system
 * sees the same rows and the result is the same, byte for byte.
 *
 * Steps. A step is a function that takes the world whole between two phases, after the commands
 * of the phase before it are applied, with the run's executor: the place for what is not a
 * system over rows (copying the world into a frame, building its indexes, publishing it), so a
 * game's frame is one dod_schedule_run. It is an entry of the systems array (dod_step_desc).
 *
 * Tasks. Per matched archetype (in id order), per block holding rows (in order), the block's
 * rows cut at multiples of task_rows from the block's start: a task never crosses a block, its
 * bounds fall on 16-row boundaries (no two tasks write one 64-byte line of a 4-byte
 * component), and a fixed archetype of a million rows, one block, is still many tasks. The
 * executor runs jobs: consecutive tasks batched up to task_rows rows (so the small blocks of a
 * chunked archetype do not cost a dispatch each), and every task of a system that is not
 * DOD_SYSTEM_PARALLEL as one job, in order (such a system runs in its own pass). Tasks, jobs and
 * their command buffers depend only on the world and the schedule, never on the executor or the
 * thread count.
 *
 * Determinism. Within a phase no system writes what another reads, a task writes only its
 * own rows, and lookups read only components nobody writes in the phase: every task computes
 * the same values whichever thread runs it and whenever. Commands are recorded into one
 * buffer per job, in row order, and applied in job order. So the same world, schedule and
 * calls give a byte-identical world (rows, handles, blocks) on a NULL executor, on 1, 2 or N
 * threads, and on an executor that runs the tasks in any order, in one pass or a pass per
 * system. A system breaks this (and races) if it writes through a pointer from dod_world_get,
 * is flagged DOD_SYSTEM_PARALLEL and writes anything outside its rows and its buffer (a total,
 * a framebuffer), or reads state another system of its phase writes outside the world.
 *
 * Per-frame values. dod_schedule_run_with passes one pointer, the run's `frame` (dt, the tick,
 * the frame's inputs), to every task of that run (t->frame), so systems need not share a
 * caller-owned ctx the caller rewrites between runs. Steps do not see it (dod_step_fn is
 * unchanged: a step gets its values through its ctx).
 *
 * Memory. A schedule holds its systems (152 bytes each, queries included), its task list
 * (24 bytes a task), its job list (12 bytes a job), for one pass a table of 4 bytes per system
 * of a phase and archetype, and per job one command buffer per recording system of the phase
 * (a 112-byte dod_cmds and the records it grew to: 16 bytes a command plus its payload,
 * dod/world_cmds.h). They grow geometrically to the largest frame seen and are reused: once a
 * frame has run, running it again allocates nothing (the buffers keep their capacity; the world
 * may still allocate blocks for what the commands spawn).
 *
 * Thread safety: a schedule is used by one thread at a time; dod_schedule_run needs exclusive
 * access to the world (it runs the systems, then changes the world). */
#ifndef DOD_WORLD_SYSTEMS_H
#define DOD_WORLD_SYSTEMS_H

#include <dod/exec.h>
#include <dod/world_core.h>
#include <dod/world_cmds.h>
#include <dod/world_typed.h> /* DOD_QUERY and the list helpers DOD_SYSTEM expands */
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a system is called with, once per task. */
typedef struct dod_system_task {
    dod_world_iter rows;    /* this task's rows: rows.n, rows.archetype, rows.entities,
                               dod_world_field(&t->rows, c) / DOD_FIELD give its columns */
    const dod_world *world; /* read-only, for lookups (dod_world_get: read, never write) */
    dod_cmds *cmds;         /* this task's command buffer (shared, in order, by the tasks of
                               one job); NULL unless the system declared DOD_SYSTEM_COMMANDS */
    dod_status *status;     /* where the system reports a failure of its own: *t->status =
                               st. A refused record into t->cmds needs no report: the run
                               reads each buffer's dod_cmds_status. On either, the run applies
                               none of the phase's commands and returns the first failure in
                               job order (a job's reported status, then its buffers') */
    void *ctx;              /* the system desc's ctx */
    void (*typed_fn)(void); /* the system desc's typed_fn, passed through (the typed layer) */
    uint32_t system;        /* the system's index in the schedule */
    uint32_t task;          /* the task's index within the system this run, in block-and-row
                               order */
    const void *frame;      /* the run's frame argument (dod_schedule_run_with), the same for
                               every task of a run; NULL from dod_schedule_run. Read it, never
                               write through it (tasks of a run may run at once) */
} dod_system_task;

/* A system's function: called once per task with the task's rows (dod_system_desc.fn). */
typedef void (*dod_system_fn)(const dod_system_task *t);

/* Flags of a system. */
#define DOD_SYSTEM_COMMANDS 1u   /* it records structural commands (t->cmds), applied at the end
                                    of its phase */
#define DOD_SYSTEM_SEQUENTIAL 2u /* the default, said explicitly: its tasks run in order as one
                                    job, on one thread at a time, so it may also write state
                                    outside the world (a framebuffer, a total); it still runs
                                    alongside the other systems of its phase */
#define DOD_SYSTEM_NEW_PHASE 4u  /* it starts a new phase: it sees the commands of the systems
                                    before it applied */
#define DOD_SYSTEM_PARALLEL 8u   /* its tasks may run on several threads at once: it promises to
                                    write only its rows and its command buffer (nothing in its
                                    ctx, no global). Not with DOD_SYSTEM_SEQUENTIAL */

/* A step: called once, between the phase before it and the one after it, with the world (every
 * command before it applied; it may change the world, structurally too), the run's executor
 * (NULL: the calling thread) and its desc's ctx. A status other than DOD_OK stops the run,
 * which returns it; the step is responsible for what it changed. */
typedef dod_status (*dod_step_fn)(dod_world *w, const dod_executor *exec, void *ctx);

/* A system: its function, its query and its declared access (what the schedule forms phases
 * from), and its flags. Zero-initialise it and set what you need. */
typedef struct dod_system_desc {
    const char *name;                           /* for people and the error hook; not kept */
    dod_system_fn fn;
    void *ctx;
    void (*typed_fn)(void);
    const uint32_t *all;    uint32_t n_all;     /* the query: components it needs */
    const uint32_t *none;   uint32_t n_none;    /* components it must not have */
    const uint32_t *writes; uint32_t n_writes;  /* those of `all` it writes; the others it reads */
    const uint32_t *reads;  uint32_t n_reads;   /* components it reads by lookup (dod_world_get)
                                                   beyond `all`; none that it writes */
    uint32_t flags;                             /* DOD_SYSTEM_COMMANDS, DOD_SYSTEM_PARALLEL
                                                   or DOD_SYSTEM_SEQUENTIAL (the default),
                                                   DOD_SYSTEM_NEW_PHASE */
    dod_step_fn step;                           /* not NULL (and fn NULL): this entry is a step,
                                                   its own phase; the query, access and flags
                                                   must be empty. Made by dod_step_desc */
} dod_system_desc;

/* The desc of a step (a zeroed desc but for these). */
static inline dod_system_desc dod_step_desc(const char *name, dod_step_fn step, void *ctx)
{
    dod_system_desc d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.step = step;
    d.ctx = ctx;
    return d;
}

/* What dod_schedule_create makes a schedule of: the systems in order, the rows per task, the
 * allocator and the flags. */
typedef struct dod_schedule_desc {
    const dod_system_desc *systems; uint32_t n_systems; /* in order; copied */
    uint32_t task_rows;          /* rows per task, a multiple of 16; 0 = DOD_SCHEDULE_TASK_ROWS */
    const dod_allocator *alloc;  /* NULL = the default heap */
    uint32_t flags;              /* DOD_SCHEDULE_PASS_PER_SYSTEM, or 0 */
} dod_schedule_desc;

/* dod_schedule_desc.flags: tasks are cut per system, each system a pass over its rows of its
 * own, instead of one pass a phase (see "One pass" above); the result is the same. */
#define DOD_SCHEDULE_PASS_PER_SYSTEM 1u

/* The default rows per task (measured: docs/world-measurements.md, "Task size"). */
#define DOD_SCHEDULE_TASK_ROWS 16384u

/* A schedule: the systems, their phases and the reusable task, job and command lists, opaque
 * (dod_schedule_create, dod_schedule_destroy). */
typedef struct dod_schedule dod_schedule; /* opaque */

/* Make a schedule of desc's systems for w (desc and its arrays are copied; names are not
 * kept) and form its phases. Allocates the schedule (systems, phases); the task list and
 * buffers come with the first run.
 * Errors (*s untouched, nothing leaked):
 *   DOD_E_INVALID  s, w or desc NULL; systems NULL with n_systems > 0; a system's fn NULL (or
 *                  both fn and step set), or all / none / writes / reads NULL with a count > 0;
 *                  a write not in `all`; a component in both `all` and `none`; a lookup (`reads`)
 *                  of a component it writes; a step with a query, access or flags; unknown
 *                  flags (a system's or the desc's); a system flagged both DOD_SYSTEM_PARALLEL
 *                  and DOD_SYSTEM_SEQUENTIAL; task_rows not a multiple of 16
 *   DOD_E_RANGE    a component id >= the world's n_components
 *   DOD_E_OVERFLOW the schedule's size does not fit size_t
 *   DOD_E_NOMEM    an allocation failed */
DOD_API dod_status dod_schedule_create(dod_schedule **s, const dod_world *w,
                                       const dod_schedule_desc *desc);

/* Run every system and step once, phase by phase (see the opening comment), on exec (NULL: the
 * calling thread, tasks in order); dod_schedule_run_with with a NULL frame. result (may be NULL;
 * untouched by a refusal) gets the sum over the run's applies that succeeded.
 * Errors:
 *   DOD_E_INVALID  s or w NULL; w is not the world the schedule was made for; exec with run
 *                  NULL or n_threads 0. Nothing ran; the world is unchanged.
 *   DOD_E_OVERFLOW a phase has more than UINT32_MAX - 1 tasks
 *   DOD_E_NOMEM    growing the task list or the buffers failed, before the phase's systems
 *                  ran: the phases before it have run and been applied
 *   a status a system reported (t->status), or a record its buffer refused (dod_cmds_status:
 *                  a refused dod_cmds_* call, DOD_E_NOMEM when a buffer could not grow), the
 *                  first in job order, or that of a failed
 *                  dod_world_apply (DOD_E_FULL, DOD_E_NOMEM ...): the phase's systems have
 *                  run (their writes stay), its commands are not applied (dod_world_apply is
 *                  all or nothing) and are dropped: the schedule's buffers are empty when the
 *                  run returns; later phases do not run
 *   a status a step returned: the phases before it have run; later phases do not run.
 * In every case the world is whole and the schedule may run again.
 * Invalidates what the applied commands invalidate (pointers to moved and despawned rows,
 * iterators). */
DOD_API dod_status dod_schedule_run(dod_schedule *s, dod_world *w, const dod_executor *exec,
                                    dod_apply_result *result);

/* dod_schedule_run, with `frame` (may be NULL; not copied, not kept after the call) handed to
 * every task of this run as t->frame: the per-frame values (dt, the tick) a system reads. The
 * systems only read it, from any of exec's threads; the caller must not change what it points
 * to until the call returns. Steps do not get it. Errors, invalidation and thread safety:
 * dod_schedule_run's. */
DOD_API dod_status dod_schedule_run_with(dod_schedule *s, dod_world *w, const dod_executor *exec,
                                         const void *frame, dod_apply_result *result);

/* Return every byte of the schedule to its allocator. NULL: no-op. */
DOD_API void dod_schedule_destroy(dod_schedule *s);

/* The number of phases (0 for NULL or no systems). */
DOD_API uint32_t dod_schedule_phase_count(const dod_schedule *s);

/* The phase of system (or step) `system` (phases count from 0); UINT32_MAX for NULL or an
 * index out of range. */
DOD_API uint32_t dod_schedule_phase_of(const dod_schedule *s, uint32_t system);

/* The typed system: DOD_SYSTEM(P, Q, LIST), after DOD_QUERY(P, Q, LIST) (dod/world_typed.h)
 * with the same list, generates
 *     dod_system_desc P_Q_system(void (*fn)(const P_Q_cols *c, const dod_system_task *t),
 *                                void *ctx, uint32_t flags)
 * a desc whose query and access are the list's (W written, R read, X excluded) and whose flags
 * are `flags` (DOD_SYSTEM_PARALLEL, DOD_SYSTEM_COMMANDS ... as in dod_system_desc): fn gets each
 * task's rows as typed columns (written ones `T *`, read ones `const T *`) and the task (for
 * t->frame, t->ctx, t->cmds, t->status). Add lookups to the desc's reads before creating the
 * schedule. DOD_QUERY_SYSTEM(P, Q, LIST) (below) declares the query and the system at once.
 *     #define MOVERS(W, R, X) W(position) R(velocity) X(frozen)
 *     DOD_QUERY_SYSTEM(game, movers, MOVERS)
 *     static void move(const game_movers_cols *c, const dod_system_task *t)
 *     {
 *         step(c->n, c->position, c->velocity, *(const float *)t->frame);  (restrict params)
 *     }
 *     dod_system_desc d = game_movers_system(move, NULL, DOD_SYSTEM_PARALLEL);
 *     ... dod_schedule_run_with(s, w, exec, &dt, NULL) each frame
 * fn travels in the desc's typed_fn and is called through P_Q_system_run, which fills the
 * columns from the task's rows: one call and a few loads more than an untyped system. */
#define DOD_SYSTEM(P, Q, LIST)                                                                 \
    typedef void (*P##_##Q##_system_fn)(const P##_##Q##_cols *c, const dod_system_task *t);    \
    DOD__GENERATED void P##_##Q##_system_run(const dod_system_task *t)                         \
    {                                                                                          \
        P##_##Q##_cols c;                                                                      \
        if (P##_##Q##_cols_of(&t->rows, &c))                                                   \
            ((P##_##Q##_system_fn)t->typed_fn)(&c, t);                                         \
    }                                                                                          \
    DOD__GENERATED dod_system_desc P##_##Q##_system(P##_##Q##_system_fn fn, void *ctx,         \
                                                    uint32_t flags)                            \
    {                                                                                          \
        static const uint32_t all[] = { DOD__WQ_IDS(P, LIST, 4) UINT32_MAX };                  \
        dod_system_desc d;                                                                     \
        memset(&d, 0, sizeof d);                                                               \
        d.name = #Q;                                                                           \
        d.fn = P##_##Q##_system_run;                                                           \
        d.ctx = ctx;                                                                           \
        d.typed_fn = (void (*)(void))fn;                                                       \
        d.all = all;                                                                           \
        d.n_all = P##_##Q##_n_writes + P##_##Q##_n_reads;                                      \
        d.none = P##_##Q##_excludes;                                                           \
        d.n_none = P##_##Q##_n_excludes;                                                       \
        d.writes = P##_##Q##_writes;                                                           \
        d.n_writes = P##_##Q##_n_writes;                                                       \
        d.flags = flags;                                                                       \
        return d;                                                                              \
    }

/* A system declared once: DOD_QUERY(P, Q, LIST) and DOD_SYSTEM(P, Q, LIST) from one list, so
 * the query and the system cannot drift apart. Generates both's names (P_Q_cols, P_Q_begin,
 * P_Q_next ..., P_Q_system); the same rules as DOD_QUERY's (file scope, no trailing semicolon,
 * once per P and Q in a translation unit, after DOD_WORLD(P, ...)). */
#define DOD_QUERY_SYSTEM(P, Q, LIST) DOD_QUERY(P, Q, LIST) DOD_SYSTEM(P, Q, LIST)

#ifdef __cplusplus
}
#endif

#endif /* DOD_WORLD_SYSTEMS_H */
