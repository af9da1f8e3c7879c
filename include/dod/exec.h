/* dod/exec.h: the executor seam and a built-in thread pool.
 *
 * An executor runs task(arg, 0) .. task(arg, n_tasks - 1), possibly in parallel, and returns
 * when all are done. A game plugs its own job system in by filling the struct; dod's parallel
 * operations take a `const dod_executor *` (NULL = run on the calling thread). */
#ifndef DOD_EXEC_H
#define DOD_EXEC_H

#include <dod/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An executor: the caller fills it to plug its own job system in, or gets one from
 * dod_threadpool_executor. Passed by pointer to dod's parallel calls (NULL: the calling
 * thread), which refuse one whose run is NULL or whose n_threads is 0 (DOD_E_INVALID). */
typedef struct dod_executor {
    /* runs task(arg, 0) .. task(arg, n_tasks - 1), possibly in parallel, and returns when all are done */
    void (*run)(void *ctx, uint32_t n_tasks, void (*task)(void *arg, uint32_t index), void *arg);
    void *ctx;
    uint32_t n_threads; /* how many tasks it runs at once */
} dod_executor;

/* dod's own thread pool, opaque: dod_threadpool_create, dod_threadpool_destroy. */
typedef struct dod_threadpool dod_threadpool;

/* Start a pool of n_threads workers (the calling thread counts as one of them while it waits
 * in run). Errors: DOD_E_INVALID (pool NULL, n_threads 0), DOD_E_NOMEM, DOD_E_SYSTEM (a thread,
 * mutex or condition variable could not be made), DOD_E_OVERFLOW (the thread table does not fit size_t); on error *pool
 * is untouched and nothing leaks. */
DOD_API dod_status dod_threadpool_create(dod_threadpool **pool, uint32_t n_threads,
                                         const dod_allocator *alloc);

/* The executor view of a pool (n_threads as created). Its run() may be called from any
 * thread; concurrent calls on one pool are serialised (one job at a time), and a task must
 * not call run() on the pool that runs it (that would wait on itself). For a NULL pool: an
 * executor with run NULL, which every dod call that takes an executor refuses (DOD_E_INVALID). */
DOD_API dod_executor dod_threadpool_executor(dod_threadpool *pool);

/* Stop and join the workers and return the pool's memory; NULL is a no-op. No run() may be
 * in progress. */
DOD_API void dod_threadpool_destroy(dod_threadpool *pool);

#ifdef __cplusplus
}
#endif

#endif /* DOD_EXEC_H */
