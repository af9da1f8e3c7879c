/* The index build's machinery, shared by csr_build.c and the strategies it runs
 * (csr_partition.c, csr_parallel.c, csr_rowsort.c); not installed. See docs/build.md. */
#ifndef DOD_CSR_JOB_H
#define DOD_CSR_JOB_H

#include <dod/csr_build.h>
#include "exec_dispatch.h"
#include "internal.h"

/* At most this many item blocks per build (more threads than that just share them). */
#define DOD__CSR_MAX_BLOCKS 64u

/* For a hot loop that must stay a function of its own: inlined into its caller, it shares the
 * registers with the caller's state and reloads its own from the stack every iteration. */
#if defined(__GNUC__)
#  define DOD__CSR_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#  define DOD__CSR_NOINLINE __declspec(noinline)
#else
#  define DOD__CSR_NOINLINE
#endif

/* One build, validated: item i has row key(i) and stores value(i) (i itself when values is
 * NULL). The strategies fill offsets[0 .. n_rows] and items[0 .. n_items) identically. */
typedef struct dod__csr_job {
    uint32_t n_rows, n_items;
    const unsigned char *keys;
    size_t key_stride;
    const unsigned char *values; /* NULL: the value of item i is i */
    size_t value_stride;
    uint32_t *offsets;           /* n_rows + 1 entries */
    uint32_t *items;             /* n_items entries */
    void *scratch;               /* at least the bytes the strategy's *_scratch asked for */
    const dod_executor *exec;    /* NULL: the calling thread */
    uint32_t n_blocks;           /* item blocks the passes split into (1 without exec) */
} dod__csr_job;

static inline uint32_t dod__csr_key(const dod__csr_job *job, uint32_t i)
{
    return dod__load_u32(job->keys + (size_t)i * job->key_stride);
}

static inline uint32_t dod__csr_value(const dod__csr_job *job, uint32_t i)
{
    return dod__load_u32(job->values + (size_t)i * job->value_stride);
}

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

/* The strategies. Each checks every key in the pass that first reads it and returns DOD_OK or
 * DOD_E_RANGE (a key >= n_rows; offsets, items and scratch are then garbage and the caller
 * discards them). *max_value receives the largest value stored, found in the pass that reads
 * the values (0 without values or items); the caller checks it against value_bound. Scratch
 * needs are computed first, overflow-checked (0: does not fit size_t). */
int dod__csr_partitioned_scratch(const dod__csr_job *job, size_t *bytes);
dod_status dod__csr_build_partitioned(const dod__csr_job *job, uint32_t *max_value);

int dod__csr_parallel_scratch(const dod__csr_job *job, size_t *bytes);
dod_status dod__csr_build_parallel(const dod__csr_job *job, uint32_t *max_value);

/* Sort every row's items ascending, parallel on exec. */
void dod__csr_sort_rows(uint32_t *offsets, uint32_t *items, uint32_t n_rows, uint32_t n_items,
                        const dod_executor *exec);

#endif /* DOD_CSR_JOB_H */
