/* dod_world_reduce_rows: dod_reduce_rows over an index of row numbers, each index row's items read
 * in runs that lie in one block (src/graph/reduce_row.h adds them up, as dod_reduce_rows does:
 * the same bits). Rows are spread across tasks whole, so any executor gives the same results. */
#include <dod/world_index.h>
#include "exec_dispatch.h"
#include "reduce_row.h"
#include "world_layout.h"

enum { REDUCE_TASKS_PER_THREAD = 8, REDUCE_MAX_TASKS = 256 };

typedef struct world_reduce_job {
    const dod_csr *index;
    dod_world_rows rows; /* each task copies this reader */
    uint32_t component, offset, n_tasks;
    dod_reduce_out out;
} world_reduce_job;

static void world_reduce_task(void *arg, uint32_t t)
{
    const world_reduce_job *job = (const world_reduce_job *)arg;
    const uint32_t *offsets = job->index->offsets, *items = job->index->items;
    uint32_t r0, r1;
    dod__exec_share(job->index->n_rows, job->n_tasks, t, &r0, &r1);
    dod_world_rows r = job->rows;
    for (uint32_t row = r0; row < r1; ++row) {
        dod__reduce_acc a = dod__reduce_start();
        const uint32_t begin = offsets[row], end = offsets[row + 1];
        for (uint32_t at = begin, stop; at < end; at = stop) {
            stop = dod__world_rows_run(&r, items, at, end);
            const dod__world_field *f = &r.fields[job->component];
            dod__reduce_take(&a, r.base + (f->offset << r.scale) + job->offset, f->size,
                             items + at, stop - at, r.first);
        }
        dod__reduce_store(&job->out, row, a, end - begin);
    }
}

dod_status dod_world_reduce_rows(const dod_csr *index, const dod_world *w, const dod_query *q,
                                 uint32_t component, uint32_t offset, const dod_reduce_out *out,
                                 const dod_executor *exec)
{
    DOD__REFUSE_IF(!index || !w || !q || !out, DOD_E_INVALID);
    DOD__REFUSE_IF(q->tag != w->head.tag_hi, DOD_E_INVALID);
    DOD__REFUSE_IF(!dod__exec_usable(exec), DOD_E_INVALID);
    DOD__REFUSE_IF(component >= w->head.n_components, DOD_E_RANGE);
    DOD__REFUSE_IF(offset % 4 != 0 ||
                       (uint64_t)offset + sizeof(float) > dod__world_component_size(w, component),
                   DOD_E_INVALID);
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        DOD__REFUSE_IF(dod__query_matches(q, i) && w->arch[i].place->fields[component].offset == 0,
                       DOD_E_INVALID);
    world_reduce_job job;
    dod_status st = dod_world_rows_init(&job.rows, w, q);
    DOD_ASSERT(st == DOD_OK); /* w and q checked */
    (void)st;
    DOD__REFUSE_IF(index->item_bound > job.rows.count, DOD_E_RANGE);
    if (index->n_rows == 0)
        return DOD_OK;
    uint32_t tasks = dod__exec_tasks(exec, REDUCE_TASKS_PER_THREAD, REDUCE_MAX_TASKS);
    job.index = index;
    job.component = component;
    job.offset = offset;
    job.n_tasks = tasks < index->n_rows ? tasks : index->n_rows;
    job.out = *out;
    dod__exec_run(exec, job.n_tasks, world_reduce_task, &job);
    return DOD_OK;
}
