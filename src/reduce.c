/* Segmented reductions: each row sequentially, rows in parallel. */
#include <dod/reduce.h>
#include <math.h>
#include "internal.h"

typedef struct reduce_job {
    const dod_csr *groups;
    const unsigned char *values;
    size_t stride;
    uint32_t n_values;
    dod_reduce_out out;
    uint32_t rows_per_task;
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

static float value_at(const unsigned char *values, size_t stride, uint32_t i)
{
    float v;
    memcpy(&v, values + (size_t)i * stride, sizeof v);
    return v;
}

static void reduce_row_range(const reduce_job *job, uint32_t r0, uint32_t r1)
{
    const uint32_t *offsets = job->groups->offsets, *items = job->groups->items;
    for (uint32_t r = r0; r < r1; ++r) {
        float sum = 0.0f, lo = INFINITY, hi = -INFINITY;
        const uint32_t begin = offsets[r], end = offsets[r + 1];
        for (uint32_t k = begin; k < end; ++k) {
            const float v = value_at(job->values, job->stride, items[k]);
            sum += v;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        if (job->out.sum)
            job->out.sum[r] = sum;
        if (job->out.min)
            job->out.min[r] = lo;
        if (job->out.max)
            job->out.max[r] = hi;
        if (job->out.mean)
            job->out.mean[r] = end > begin ? sum / (float)(end - begin) : 0.0f;
    }
}

static void task_rows(const reduce_job *job, uint32_t index, uint32_t *r0, uint32_t *r1)
{
    const uint32_t n_rows = job->groups->n_rows;
    uint64_t a = (uint64_t)index * job->rows_per_task, b = a + job->rows_per_task;
    *r0 = (uint32_t)(a < n_rows ? a : n_rows);
    *r1 = (uint32_t)(b < n_rows ? b : n_rows);
}

static void validate_task(void *arg, uint32_t index)
{
    reduce_job *job = (reduce_job *)arg;
    uint32_t r0, r1;
    task_rows(job, index, &r0, &r1);
    const uint32_t *offsets = job->groups->offsets;
    job->bad[index] = r1 > r0 && offsets[r1] > offsets[r0] &&
                      max_item(job->groups->items, offsets[r0], offsets[r1]) >= job->n_values;
}

static void reduce_task(void *arg, uint32_t index)
{
    const reduce_job *job = (const reduce_job *)arg;
    uint32_t r0, r1;
    task_rows(job, index, &r0, &r1);
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
    DOD__REFUSE_IF(exec && (!exec->run || exec->n_threads == 0), DOD_E_INVALID);
    const uint32_t n_rows = groups->n_rows;
    reduce_job job = { groups, (const unsigned char *)values, stride, n_values, *out, n_rows, 1,
                       NULL };
    int flags[MAX_TASKS];
    job.bad = flags;
    if (exec && exec->n_threads > 1 && n_rows > 1) {
        uint64_t want = (uint64_t)exec->n_threads * TASKS_PER_THREAD;
        uint32_t n_tasks = (uint32_t)(want < MAX_TASKS ? want : MAX_TASKS);
        n_tasks = n_tasks < n_rows ? n_tasks : n_rows;
        job.rows_per_task = (n_rows + n_tasks - 1) / n_tasks;
        job.n_tasks = (n_rows + job.rows_per_task - 1) / job.rows_per_task;
    }
    if (n_rows == 0)
        return DOD_OK;
    if (job.n_tasks > 1)
        exec->run(exec->ctx, job.n_tasks, validate_task, &job);
    else
        validate_task(&job, 0);
    for (uint32_t t = 0; t < job.n_tasks; ++t)
        DOD__REFUSE_IF(flags[t], DOD_E_RANGE);
    if (job.n_tasks > 1)
        exec->run(exec->ctx, job.n_tasks, reduce_task, &job);
    else
        reduce_task(&job, 0);
    return DOD_OK;
}
