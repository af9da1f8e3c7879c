/* The built-in executor: a thread pool whose calling thread works alongside its workers.
 *
 * One job at a time: run() publishes (task, arg, n_tasks) under the mutex and bumps a
 * generation number; every thread, the caller included, then claims indices one by one under
 * the mutex until none are left. run() returns once every claimed index has finished. Tasks
 * are expected to be coarse (a block of items each), so a mutex per claim costs nothing
 * measurable and keeps the pool free of hand-rolled atomics. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#  define _POSIX_C_SOURCE 200809L
#endif
#include <dod/exec.h>
#include "exec_internal.h"
#include "internal.h"

#ifdef DOD_TEST_SEAMS
int (*dod__exec_start_thread)(dod__thread *, dod__thread_fn, void *) = dod__thread_start;
#  define START_THREAD dod__exec_start_thread
#else
#  define START_THREAD dod__thread_start
#endif

struct dod_threadpool {
    dod_allocator alloc;
    size_t bytes;          /* size of this block (the struct and its thread array) */
    uint32_t n_threads;    /* including the caller */
    uint32_t n_workers;    /* threads started: n_threads - 1 */
    dod__thread *workers;
    dod__mutex lock;
    dod__cond wake;        /* workers wait here for a new generation or stop */
    dod__cond idle;        /* run() waits here for the last task to finish */
    dod__mutex run_lock;   /* serialises run() calls from different threads */
    uint64_t generation;
    int stop;
    void (*task)(void *arg, uint32_t index);
    void *arg;
    uint32_t n_tasks, next, done;
};

/* Claim and run indices of the current job until none are left. Called with the lock held;
 * returns with it held. */
static void work(dod_threadpool *p)
{
    while (p->next < p->n_tasks) {
        uint32_t index = p->next++;
        void (*task)(void *, uint32_t) = p->task;
        void *arg = p->arg;
        dod__mutex_unlock(&p->lock);
        task(arg, index);
        dod__mutex_lock(&p->lock);
        if (++p->done == p->n_tasks)
            dod__cond_signal(&p->idle);
    }
}

static void worker_main(void *arg)
{
    dod_threadpool *p = (dod_threadpool *)arg;
    uint64_t seen = 0;
    dod__mutex_lock(&p->lock);
    for (;;) {
        while (!p->stop && p->generation == seen)
            dod__cond_wait(&p->wake, &p->lock);
        if (p->stop)
            break;
        seen = p->generation;
        work(p);
    }
    dod__mutex_unlock(&p->lock);
}

static void pool_run(void *ctx, uint32_t n_tasks, void (*task)(void *arg, uint32_t index),
                     void *arg)
{
    dod_threadpool *p = (dod_threadpool *)ctx;
    if (n_tasks == 0)
        return;
    if (p->n_workers == 0 || n_tasks == 1) {
        for (uint32_t i = 0; i < n_tasks; ++i)
            task(arg, i);
        return;
    }
    dod__mutex_lock(&p->run_lock);
    dod__mutex_lock(&p->lock);
    p->task = task;
    p->arg = arg;
    p->n_tasks = n_tasks;
    p->next = 0;
    p->done = 0;
    p->generation++;
    dod__cond_broadcast(&p->wake);
    work(p);
    while (p->done < p->n_tasks)
        dod__cond_wait(&p->idle, &p->lock);
    p->task = NULL;
    p->arg = NULL;
    dod__mutex_unlock(&p->lock);
    dod__mutex_unlock(&p->run_lock);
}

/* Stop and join the first `started` workers, then destroy the synchronisation objects. */
static void shut_down(dod_threadpool *p, uint32_t started)
{
    dod__mutex_lock(&p->lock);
    p->stop = 1;
    dod__cond_broadcast(&p->wake);
    dod__mutex_unlock(&p->lock);
    for (uint32_t i = 0; i < started; ++i)
        dod__thread_join(&p->workers[i]);
    dod__cond_destroy(&p->idle);
    dod__cond_destroy(&p->wake);
    dod__mutex_destroy(&p->run_lock);
    dod__mutex_destroy(&p->lock);
}

/* The pool's mutexes and conditions. On a failure the ones already made are destroyed again,
 * and the step that failed is named; NULL when all are made. */
static const char *init_sync(dod_threadpool *p)
{
    const char *failed = "initialising the lock failed";
    if (dod__mutex_init(&p->lock) != 0)
        return failed;
    failed = "initialising run_lock failed";
    if (dod__mutex_init(&p->run_lock) != 0)
        goto undo_lock;
    failed = "initialising the wake condition failed";
    if (dod__cond_init(&p->wake) != 0)
        goto undo_run_lock;
    failed = "initialising the idle condition failed";
    if (dod__cond_init(&p->idle) != 0)
        goto undo_wake;
    return NULL;
undo_wake:
    dod__cond_destroy(&p->wake);
undo_run_lock:
    dod__mutex_destroy(&p->run_lock);
undo_lock:
    dod__mutex_destroy(&p->lock);
    return failed;
}

dod_status dod_threadpool_create(dod_threadpool **pool, uint32_t n_threads,
                                 const dod_allocator *alloc)
{
    DOD__REFUSE_IF(!pool, DOD_E_INVALID);
    DOD__REFUSE_IF(n_threads == 0, DOD_E_INVALID);
    dod_allocator a = dod__allocator_or_heap(alloc);
    size_t head = 0, threads = 0, bytes = 0;
    DOD__REFUSE_IF(!dod__align_up(sizeof(dod_threadpool), &head), DOD_E_OVERFLOW);
    DOD__REFUSE_IF(!dod__mul((size_t)n_threads - 1, sizeof(dod__thread), &threads), DOD_E_OVERFLOW);
    DOD__REFUSE_IF(!dod__add(head, threads, &bytes), DOD_E_OVERFLOW);
    dod_threadpool *p = (dod_threadpool *)dod__alloc(&a, bytes);
    DOD__REFUSE_IF(!p, DOD_E_NOMEM);
    memset(p, 0, sizeof *p);
    p->alloc = a;
    p->bytes = bytes;
    p->n_threads = n_threads;
    p->workers = (dod__thread *)(void *)((unsigned char *)p + head);
    const char *failed = init_sync(p);
    if (failed) {
        dod__free(&a, p, bytes);
        return DOD__FAIL(DOD_E_SYSTEM, failed);
    }
    for (uint32_t i = 0; i + 1 < n_threads; ++i) {
        if (START_THREAD(&p->workers[i], worker_main, p) != 0) {
            shut_down(p, i);
            dod__free(&a, p, bytes);
            return DOD__FAIL(DOD_E_SYSTEM, "starting a worker thread failed");
        }
        p->n_workers = i + 1;
    }
    *pool = p;
    return DOD_OK;
}

dod_executor dod_threadpool_executor(dod_threadpool *pool)
{
    dod_executor e = { NULL, NULL, 0 }; /* NULL pool: an executor every call refuses */
    if (pool) {
        e.run = pool_run;
        e.ctx = pool;
        e.n_threads = pool->n_threads;
    }
    return e;
}

void dod_threadpool_destroy(dod_threadpool *pool)
{
    if (!pool)
        return;
    dod_allocator a = pool->alloc;
    size_t bytes = pool->bytes;
    shut_down(pool, pool->n_workers);
    dod__free(&a, pool, bytes);
}
