/* Segmented reductions: each row sequentially, rows in parallel. */
#include <dod/reduce.h>
#include "exec_dispatch.h"
#include "internal.h"
#include "reduce_row.h"

typedef struct reduce_job {
    const dod_csr *groups;
    const unsigned char *values;
    size_t stride;
    uint32_t n_values;
    dod_reduce_out out;
    uint32_t n_tasks;
    int *bad; /* validation: one flag per task */
} reduce_job;

/* The largest item in items[begin, end), 0 if empty. */
static uint32_t max_item(const uint32_t *restrict items, uint32_t begin, uint32_t end)
{
    uint32_t m = 0;
    for (uint32_t k = begin; k < end; ++k)
        m = items[k] > m ? items[k] : m;
    return m;
}

static void reduce_row_range(const reduce_job *job, uint32_t r0, uint32_t r1)
{
    const uint32_t *offsets = job->groups->offsets, *items = job->groups->items;
    for (uint32_t r = r0; r < r1; ++r) {
        dod__reduce_acc a = dod__reduce_start();
        const uint32_t begin = offsets[r], end = offsets[r + 1];
        dod__reduce_take(&a, job->values, job->stride, items + begin, end - begin, 0);
        dod__reduce_store(&job->out, r, a, end - begin);
    }
}

static void validate_task(void *arg, uint32_t index)
{
    reduce_job *job = (reduce_job *)arg;
    uint32_t r0, r1;
    dod__exec_share(job->groups->n_rows, job->n_tasks, index, &r0, &r1);
    const uint32_t *offsets = job->groups->offsets;
    job->bad[index] = r1 > r0 && offsets[r1] > offsets[r0] &&
                      max_item(job->groups->items, offsets[r0], offsets[r1]) >= job->n_values;
}

static void reduce_task(void *arg, uint32_t index)
{
    const reduce_job *job = (const reduce_job *)arg;
    uint32_t r0, r1;
    dod__exec_share(job->groups->n_rows, job->n_tasks, index, &r0, &r1);
    reduce_row_range(job, r0, r1);
}

/* Tasks per thread: enough to balance long-tailed rows, few enough to be cheap. */
enum { TASKS_PER_THREAD = 8, MAX_TASKS = 256 };

dod_status dod_reduce_rows(const dod_csr *groups, const void *values, size_t stride,
                           uint32_t n_values, const dod_reduce_out *out,
                           const dod_executor *exec)
{
    DOD__REFUSE_IF(!groups, DOD_E_INVALID);
    DOD__REFUSE_IF(!out, DOD_E_INVALID);
    DOD__REFUSE_IF(!values && n_values > 0, DOD_E_INVALID);
    DOD__REFUSE_IF(stride < sizeof(float), DOD_E_INVALID);
    DOD__REFUSE_IF(!dod__exec_usable(exec), DOD_E_INVALID);
    const uint32_t n_rows = groups->n_rows;
    if (n_rows == 0)
        return DOD_OK;
    uint32_t n_tasks = dod__exec_tasks(exec, TASKS_PER_THREAD, MAX_TASKS);
    reduce_job job = { groups, (const unsigned char *)values, stride, n_values, *out,
                       n_tasks < n_rows ? n_tasks : n_rows, NULL };
    int flags[MAX_TASKS];
    job.bad = flags;
    dod__exec_run(exec, job.n_tasks, validate_task, &job);
    for (uint32_t t = 0; t < job.n_tasks; ++t)
        DOD__REFUSE_IF(flags[t], DOD_E_RANGE);
    dod__exec_run(exec, job.n_tasks, reduce_task, &job);
    return DOD_OK;
}
