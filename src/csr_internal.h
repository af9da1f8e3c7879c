/* Storage plumbing shared by the index's .c files; not installed.
 *
 * An index holds two blocks: the row block (two offsets arrays of row_cap + 1 entries, each
 * starting on a cache line: the live `offsets` and the `spare` a build counts into) and the
 * items block. Operations that may fail first get whatever new blocks they need into a
 * dod__csr_blocks, fill them, and only then commit, so a failure changes nothing. */
#ifndef DOD_CSR_INTERNAL_H
#define DOD_CSR_INTERNAL_H

#include <dod/csr.h>

typedef struct dod__csr_blocks {
    uint32_t *row_block; /* NULL: the held row block fits and is kept */
    uint32_t row_cap;
    uint32_t *items;     /* NULL: the held items block fits and is kept */
    uint32_t item_cap;
    void *scratch;       /* with a fresh items block: the scratch at its end (NULL: none) */
    size_t scratch_bytes;
} dod__csr_blocks;

/* Allocate the blocks the index lacks for n_rows rows and n_items items (n_rows < UINT32_MAX)
 * and scratch_bytes of build scratch. The scratch lives at the end of the items block (after
 * the items, on a cache line), so an index never holds more than two blocks; an items block
 * whose scratch is too small is remade. On failure nothing is allocated, the index untouched. */
dod_status dod__csr_prepare(const dod_csr *csr, uint32_t n_rows, uint32_t n_items,
                            size_t scratch_bytes, dod__csr_blocks *fresh);

/* Where the next offsets and items go: the fresh blocks, else the spare half and the held items. */
uint32_t *dod__csr_next_offsets(const dod_csr *csr, const dod__csr_blocks *fresh);
uint32_t *dod__csr_next_items(const dod_csr *csr, const dod__csr_blocks *fresh);

/* Where the build scratch is: the fresh items block's, else the held one (NULL: none). */
void *dod__csr_next_scratch(const dod_csr *csr, const dod__csr_blocks *fresh);

/* Give back fresh blocks after a failure. */
void dod__csr_discard(const dod_csr *csr, dod__csr_blocks *fresh);

/* Install the arrays dod__csr_next_* pointed to, with the new sizes; frees replaced blocks.
 * Sets item_bound to n_items (a value build then sets its own). */
void dod__csr_commit(dod_csr *csr, dod__csr_blocks *fresh, uint32_t n_rows, uint32_t n_items);

/* ---- The build machinery (csr_build.c, csr_partition.c, csr_parallel.c, csr_rowsort.c) ---- */
#include <dod/exec.h>
#include "internal.h"

/* Run task(arg, 0 .. n - 1) on exec, or on the calling thread when exec is NULL. */
static inline void dod__exec_run(const dod_executor *exec, uint32_t n,
                                 void (*task)(void *arg, uint32_t index), void *arg)
{
    if (exec) {
        exec->run(exec->ctx, n, task, arg);
        return;
    }
    for (uint32_t i = 0; i < n; ++i)
        task(arg, i);
}

/* At most this many item blocks per build (more threads than that just share them). */
#define DOD__CSR_MAX_BLOCKS 64u

/* How many tasks to cut work into: per_thread for each thread the executor runs at once
 * (threads counted up to DOD__CSR_MAX_BLOCKS), 1 on the calling thread. */
static inline uint32_t dod__csr_tasks(const dod_executor *exec, uint32_t per_thread)
{
    if (!exec || exec->n_threads <= 1)
        return 1;
    uint32_t t = exec->n_threads < DOD__CSR_MAX_BLOCKS ? exec->n_threads : DOD__CSR_MAX_BLOCKS;
    return t * per_thread;
}

/* One build, validated: item i has row key(i) and stores value(i) (i itself when values is
 * NULL). The strategies fill offsets[0 .. n_rows] and items[0 .. n_items) identically. */
typedef struct dod__csr_job {
    uint32_t n_rows, n_items;
    const unsigned char *keys;
    size_t key_stride;
    const unsigned char *values; /* NULL: the value of item i is i */
    size_t value_stride;
    uint32_t value_bound;        /* > 0: every value must be below it (only with values) */
    uint32_t *offsets;           /* n_rows + 1 entries */
    uint32_t *items;             /* n_items entries */
    void *scratch;               /* at least the bytes the strategy's *_scratch_bytes asked for */
    const dod_executor *exec;    /* NULL: the calling thread */
    uint32_t n_blocks;           /* item blocks the passes split into (1 without exec) */
} dod__csr_job;

/* The value of item i. */
static inline uint32_t dod__csr_value(const dod__csr_job *job, uint32_t i)
{
    return job->values ? dod__load_u32(job->values + (size_t)i * job->value_stride) : i;
}

/* Check the values of items [lo, hi) against job->value_bound (when > 0); *max gets the
 * largest (0 without values). Returns 0 on a value out of bound. */
int dod__csr_check_values(const dod__csr_job *job, uint32_t lo, uint32_t hi, uint32_t *max);

/* The first i in [0, n) with a[i] >= at, or n (a is non-decreasing): where a task's share of
 * rows or partitions begins. */
static inline uint32_t dod__csr_first_at(const uint32_t *a, uint32_t n, uint32_t at)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a[mid] < at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Item range [*lo, *hi) of block b out of n_blocks over n items (the same split everywhere). */
static inline void dod__csr_block_range(uint32_t n, uint32_t n_blocks, uint32_t b, uint32_t *lo,
                                        uint32_t *hi)
{
    *lo = (uint32_t)((uint64_t)n * b / n_blocks);
    *hi = (uint32_t)((uint64_t)n * (b + 1) / n_blocks);
}

/* Each strategy returns DOD_OK or DOD_E_RANGE (a bad key or value; offsets and items are
 * then garbage, scratch too, and the caller discards). *max_value receives the largest value
 * stored (only computed with values). Scratch needs are computed first, checked. */
int dod__csr_partitioned_scratch(uint32_t n_rows, uint32_t n_items, uint32_t n_blocks,
                                 size_t *bytes);
dod_status dod__csr_build_partitioned(const dod__csr_job *job, uint32_t *max_value);

int dod__csr_parallel_scratch(uint32_t n_rows, uint32_t n_blocks, size_t *bytes);
dod_status dod__csr_build_parallel(const dod__csr_job *job, uint32_t *max_value);

/* Sort every row's items ascending, parallel on exec. */
void dod__csr_sort_rows(uint32_t *offsets, uint32_t *items, uint32_t n_rows, uint32_t n_items,
                        const dod_executor *exec);

#endif /* DOD_CSR_INTERNAL_H */
