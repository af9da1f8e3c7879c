/* Sorting every row's items ascending (DOD_CSR_BUILD_SORT_ROWS): the canonical CSR form that
 * adjacency sets, scipy and Eigen expect. Rows are split over the executor by where they
 * start in the items, so each row is sorted by exactly one task. */
#include "csr_job.h"
#include <stdlib.h>

#define INSERTION_MAX 24u /* shorter rows: insertion sort beats qsort's call overhead */
#define TASKS_PER_THREAD 4u

static void insertion_sort(uint32_t *restrict v, uint32_t n)
{
    for (uint32_t i = 1; i < n; ++i) {
        uint32_t x = v[i], j = i;
        for (; j > 0 && v[j - 1] > x; --j)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

typedef struct rowsort_ctx {
    const uint32_t *offsets;
    uint32_t *items;
    uint32_t n_rows, n_items, n_tasks;
} rowsort_ctx;

static void sort_task(void *arg, uint32_t t)
{
    rowsort_ctx *c = (rowsort_ctx *)arg;
    uint32_t lo, hi;
    dod__exec_share(c->n_items, c->n_tasks, t, &lo, &hi);
    uint32_t r0 = t == 0 ? 0 : dod__csr_first_at(c->offsets, c->n_rows, lo);
    uint32_t r1 = t + 1 == c->n_tasks ? c->n_rows : dod__csr_first_at(c->offsets, c->n_rows, hi);
    for (uint32_t r = r0; r < r1; ++r) {
        uint32_t n = c->offsets[r + 1] - c->offsets[r];
        uint32_t *v = c->items + c->offsets[r];
        if (n <= INSERTION_MAX)
            insertion_sort(v, n);
        else
            qsort(v, n, sizeof *v, cmp_u32);
    }
}

void dod__csr_sort_rows(uint32_t *offsets, uint32_t *items, uint32_t n_rows, uint32_t n_items,
                        const dod_executor *exec)
{
    rowsort_ctx c;
    c.offsets = offsets;
    c.items = items;
    c.n_rows = n_rows;
    c.n_items = n_items;
    c.n_tasks = dod__exec_tasks(exec, TASKS_PER_THREAD, DOD__CSR_MAX_BLOCKS * TASKS_PER_THREAD);
    dod__exec_run(exec, c.n_tasks, sort_task, &c);
}
