/* How every module runs work on a dod_executor: one validation rule, one way to count and
 * split tasks, one dispatch. Not installed. (The pool's own seam is exec_internal.h; this
 * header stays free of any thread API, so every module may include it.) */
#ifndef DOD_EXEC_DISPATCH_H
#define DOD_EXEC_DISPATCH_H

#include <dod/exec.h>

/* The rule every call taking an executor applies: NULL (the calling thread) or an executor
 * with a run function and at least one thread; anything else is DOD_E_INVALID. */
static inline int dod__exec_usable(const dod_executor *exec)
{
    return !exec || (exec->run && exec->n_threads > 0);
}

/* How many tasks to cut work into: per_thread for each thread the executor runs at once,
 * at most max_tasks (>= 1), and 1 on the calling thread. */
static inline uint32_t dod__exec_tasks(const dod_executor *exec, uint32_t per_thread,
                                       uint32_t max_tasks)
{
    if (!exec || exec->n_threads <= 1)
        return 1;
    uint64_t n = (uint64_t)exec->n_threads * per_thread;
    return n < max_tasks ? (uint32_t)n : max_tasks;
}

/* Task t's share [*lo, *hi) of n things split into n_tasks nearly equal, ordered parts. */
static inline void dod__exec_share(uint32_t n, uint32_t n_tasks, uint32_t t, uint32_t *lo,
                                   uint32_t *hi)
{
    *lo = (uint32_t)((uint64_t)n * t / n_tasks);
    *hi = (uint32_t)((uint64_t)n * (t + 1) / n_tasks);
}

/* Run task(arg, 0 .. n - 1) on exec; a single task, or no executor, runs on the calling
 * thread (a pool wake-up would only add latency). */
static inline void dod__exec_run(const dod_executor *exec, uint32_t n,
                                 void (*task)(void *arg, uint32_t index), void *arg)
{
    if (exec && n > 1) {
        exec->run(exec->ctx, n, task, arg);
        return;
    }
    for (uint32_t i = 0; i < n; ++i)
        task(arg, i);
}

#endif /* DOD_EXEC_DISPATCH_H */
