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

/* A run of consecutive items whose keys (and values) lie at the job's strides: item
 * first + k has its key at keys + k * key_stride. A flat build (dod_csr_build_desc) is one
 * run; a build over the world's blocks (dod_world_index_build) is one run a block. */
typedef struct dod__csr_run {
    const unsigned char *keys;
    const unsigned char *values; /* NULL unless the job has values */
    uint32_t first;              /* the run's first item; it ends where the next run begins */
} dod__csr_run;

/* One build, validated: item i has row key(i) and stores value(i) (i itself when the job has
 * no values). The strategies fill offsets[0 .. n_rows] and items[0 .. n_items) identically. */
typedef struct dod__csr_job {
    uint32_t n_rows, n_items;
    const dod__csr_run *runs;    /* n_runs runs in item order, runs[0].first == 0 (none when
                                    n_items == 0) */
    uint32_t n_runs;
    size_t key_stride;
    int has_values;              /* 0: the value of item i is i */
    size_t value_stride;
    uint32_t value_bound;        /* > 0: every value is below it (checked after the build) */
    uint32_t *offsets;           /* n_rows + 1 entries */
    uint32_t *items;             /* n_items entries */
    void *scratch;               /* at least the bytes the strategy's *_scratch asked for */
    const dod_executor *exec;    /* NULL: the calling thread */
    uint32_t n_blocks;           /* item blocks the passes split into (1 without exec) */
} dod__csr_job;

/* The run holding item i (< n_items): the last whose first is <= i (0 without runs). */
static inline uint32_t dod__csr_run_of(const dod__csr_job *job, uint32_t i)
{
    uint32_t lo = 0, hi = job->n_runs ? job->n_runs - 1 : 0;
    while (lo < hi) {
        uint32_t mid = hi - (hi - lo) / 2;
        if (job->runs[mid].first <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Fetch the keys' and values' lines of items [from, to) (< n_items), across runs; *run is a
 * cursor at or before from's run, moved forward. A pass over many runs (the world's blocks)
 * calls this ahead of itself: the hardware prefetchers follow a stream within a block but must
 * find it again at every block, which costs 16 KiB blocks 1.4x a contiguous array. */
static inline void dod__csr_prefetch_items(const dod__csr_job *job, uint32_t *run, uint32_t from,
                                           uint32_t to)
{
    while (from < to) {
        while (*run + 1 < job->n_runs && job->runs[*run + 1].first <= from)
            ++*run;
        const dod__csr_run *r = &job->runs[*run];
        uint32_t run_end = *run + 1 < job->n_runs ? r[1].first : job->n_items;
        uint32_t end = to < run_end ? to : run_end;
        size_t at = from - r->first, n = end - from;
        size_t key_bytes = (n - 1) * job->key_stride + 4, value_bytes = (n - 1) * job->value_stride + 4;
        for (size_t b = 0; b < key_bytes + 63; b += 64)
            DOD__PREFETCH(r->keys + at * job->key_stride + (b < key_bytes ? b : key_bytes - 1));
        for (size_t b = 0; r->values && b < value_bytes + 63; b += 64)
            DOD__PREFETCH(r->values + at * job->value_stride + (b < value_bytes ? b : value_bytes - 1));
        from = end;
    }
}

/* Items [at, end) lying in one run, with the addresses of item at's key and value. */
typedef struct dod__csr_piece {
    uint32_t at, end;
    const unsigned char *keys, *values;
} dod__csr_piece;

/* The piece of [at, hi) (at < hi) that starts at item at, in run *run (the run holding at);
 * *run moves on to the next run when the piece reaches the end of its run. A pass over items
 * [lo, hi) is then:
 *     uint32_t run = dod__csr_run_of(job, lo);
 *     for (uint32_t at = lo; at < hi;) {
 *         dod__csr_piece p = dod__csr_piece_at(job, &run, at, hi);
 *         ... items p.at .. p.end - 1, keys from p.keys ...
 *         at = p.end;
 *     } */
static inline dod__csr_piece dod__csr_piece_at(const dod__csr_job *job, uint32_t *run, uint32_t at,
                                               uint32_t hi)
{
    const dod__csr_run *r = &job->runs[*run];
    uint32_t run_end = *run + 1 < job->n_runs ? r[1].first : job->n_items;
    dod__csr_piece p;
    p.at = at;
    p.end = run_end < hi ? run_end : hi;
    p.keys = r->keys + (size_t)(at - r->first) * job->key_stride;
    p.values = r->values ? r->values + (size_t)(at - r->first) * job->value_stride : NULL;
    if (p.end == run_end)
        ++*run;
    return p;
}

static inline uint32_t dod__csr_key(const dod__csr_job *job, uint32_t i)
{
    const dod__csr_run *r = &job->runs[dod__csr_run_of(job, i)];
    return dod__load_u32(r->keys + (size_t)(i - r->first) * job->key_stride);
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

/* Run a job whose runs, strides and has_values are set, for the sizes and options of d (its
 * keys, values and strides are not read): choose the strategy, take the scratch, build into
 * fresh or spare storage, commit. Errors as dod_csr_build_desc past its validation (DOD_E_RANGE,
 * DOD_E_OVERFLOW, DOD_E_NOMEM), the index unchanged. d is valid (check_desc's rules). */
dod_status dod__csr_build_job(dod_csr *csr, dod__csr_job *job, const dod_csr_desc *d);

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
