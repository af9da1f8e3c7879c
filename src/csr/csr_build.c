/* Building the index: validation, the adaptive choice of strategy, the plain scatter (the
 * seed's hack 3: count, prefix sum, scatter) and the commit. The partitioned and parallel
 * strategies live in csr_partition.c and csr_parallel.c; see docs/build.md. */
#include "csr_job.h"
#include "csr_storage.h"

/* The adaptive rule's thresholds, measured on the benchmark machine (docs/build.md): the plain
 * scatter wins while its cursors stay in cache (few rows), or when the keys walk the rows in
 * order (the lines a key needs are cached or prefetched). */
#define PLAIN_MAX_ITEMS 65536u   /* fewer items do not repay partitioning: plain, 1 thread */
#define PLAIN_MAX_ROWS 131072u   /* 1 thread: the 512 KiB of cursors fit L2, plain wins */
#define ONE_THREAD_MAX_ROWS 32768u /* on threads: plain on 1 thread wins up to this many rows */
#define ONE_THREAD_MAX_ITEMS 1048576u /* ... and items: past them the parallel scatter wins (the
                                        strategy tick's 6.3M regiments by 1024 armies: 16 ms on
                                        3 threads, 24 on one) */
#define PARALLEL_MAX_ROWS 65536u /* on threads: the parallel plain scatter up to this many */
#define SAMPLE_WINDOWS 32u       /* sampled windows of consecutive keys, spread over the items */
#define SAMPLE_STEPS 32u         /* of this many steps from one key to the next */
#define CURSORS_PER_LINE 16u     /* 64-byte lines of 4-byte cursors */
#define FAR_MAX 8u               /* of 1024 sampled steps: at most 8 far ones ... */
#define FAR_MAX_IN_L2 128u       /* ... or 128 while the cursors fit L2 */
#define PARALLEL_MIN_ITEMS 32768u /* per block: ~130 us of work at the ~4 ns/item of small builds */

/* Pass 1, with validation: count each row's items into offsets[key + 1]. Returns 0 when a
 * key is out of range. The check is a predictable branch inside the pass, not a pass of its own;
 * two keys a step share it (gcc checks their larger one): 5.5 instructions an item against
 * hack 3's 5, where one key a step took 8 and ran 1.08 - 1.2x hack 3 when every key falls on
 * one row, the case where the pass is bound by instructions, not memory (docs/build.md).
 * (The three passes stay functions of their own: inlined, their loops share registers with the
 * build's state and reload pointers from the stack.) */
static DOD__CSR_NOINLINE int count_keys(uint32_t *restrict offsets, uint32_t n_rows,
                                        const unsigned char *keys, size_t stride, uint32_t n_items)
{
    uint32_t *restrict counts = offsets + 1;
    const unsigned char *p = keys;
    for (uint32_t pairs = n_items / 2; pairs > 0; --pairs, p += 2 * stride) {
        uint32_t k0 = dod__load_u32(p), k1 = dod__load_u32(p + stride);
        if (k0 >= n_rows || k1 >= n_rows)
            return 0;
        counts[k0]++;
        counts[k1]++;
    }
    if (n_items % 2) {
        uint32_t key = dod__load_u32(p);
        if (key >= n_rows)
            return 0;
        counts[key]++;
    }
    return 1;
}

/* Pass 2: turn counts into each row's start, shifted by one so pass 3 ends on offsets[r + 1]. */
static void exclusive_scan(uint32_t *restrict counts, uint32_t n_rows)
{
    uint32_t sum = 0;
    for (uint32_t r = 0; r < n_rows; ++r) {
        uint32_t c = counts[r];
        counts[r] = sum;
        sum += c;
    }
}

/* Pass 3: place each item; the cursors advance onto exactly offsets[1..n_rows]. */
static DOD__CSR_NOINLINE void scatter_items(uint32_t *restrict cursors, uint32_t *restrict items,
                                            const unsigned char *keys, size_t stride,
                                            uint32_t first, uint32_t end)
{
    for (uint32_t i = first; i < end; ++i, keys += stride)
        items[cursors[dod__load_u32(keys)]++] = i;
}

/* The same storing values; returns the largest. */
static DOD__CSR_NOINLINE uint32_t scatter_values(uint32_t *restrict cursors,
                                                uint32_t *restrict items, const unsigned char *keys,
                                                size_t stride, const unsigned char *values,
                                                size_t value_stride, uint32_t n_items)
{
    uint32_t max = 0;
    for (uint32_t i = 0; i < n_items; ++i) {
        uint32_t key = dod__load_u32(keys + (size_t)i * stride);
        uint32_t v = dod__load_u32(values + (size_t)i * value_stride);
        max = v > max ? v : max;
        items[cursors[key]++] = v;
    }
    return max;
}

static dod_status build_plain(const dod__csr_job *job, uint32_t *max_value)
{
    memset(job->offsets, 0, ((size_t)job->n_rows + 1) * sizeof(uint32_t));
    uint32_t run = 0, max = 0;
    for (uint32_t at = 0; at < job->n_items;) {
        dod__csr_piece p = dod__csr_piece_at(job, &run, at, job->n_items);
        DOD__REFUSE_IF(!count_keys(job->offsets, job->n_rows, p.keys, job->key_stride, p.end - at),
                       DOD_E_RANGE);
        at = p.end;
    }
    exclusive_scan(job->offsets + 1, job->n_rows);
    run = 0;
    for (uint32_t at = 0; at < job->n_items;) {
        dod__csr_piece p = dod__csr_piece_at(job, &run, at, job->n_items);
        if (job->has_values) {
            uint32_t m = scatter_values(job->offsets + 1, job->items, p.keys, job->key_stride,
                                        p.values, job->value_stride, p.end - at);
            max = m > max ? m : max;
        } else {
            scatter_items(job->offsets + 1, job->items, p.keys, job->key_stride, at, p.end);
        }
        at = p.end;
    }
    *max_value = max;
    return DOD_OK;
}

/* The cursor line of item i's key. */
static uint32_t line_of(const dod__csr_job *job, uint32_t i)
{
    return dod__csr_key(job, i) / CURSORS_PER_LINE;
}

/* How many of SAMPLE_WINDOWS * SAMPLE_STEPS sampled steps from one key to the next are far:
 * their cursor line is neither the previous key's nor a neighbour of it (where the prefetcher
 * reaches). Each far step is a miss the plain scatter pays twice (the cursor and the row's
 * open line of items). Sorted, reverse sorted and one-row keys take none, runs of 64 equal keys
 * one in 64, the seed's clustered keys (5% moved) one in 10, uniform and few-row keys nearly
 * all (64 rows are few enough to stay cached, but the partitioned build still wins there). */
static uint32_t far_steps(const dod__csr_job *job)
{
    uint32_t far = 0;
    for (uint32_t w = 0; w < SAMPLE_WINDOWS; ++w) {
        uint32_t start =
            (uint32_t)((uint64_t)(job->n_items - SAMPLE_STEPS - 1) * w / (SAMPLE_WINDOWS - 1));
        uint32_t prev = line_of(job, start);
        for (uint32_t i = start + 1; i <= start + SAMPLE_STEPS; ++i) {
            uint32_t line = line_of(job, i);
            far += (line > prev ? line - prev : prev - line) > 1;
            prev = line;
        }
    }
    return far;
}

/* The adaptive rule (docs/build.md); may drop the build to one block. */
static dod_csr_build_strategy choose(const dod__csr_job *job, dod_csr_build_strategy strategy,
                                     uint32_t *n_blocks)
{
    if (strategy != DOD_CSR_BUILD_AUTO)
        return strategy;
    int threads = *n_blocks > 1;
    uint32_t one_thread_max_rows = threads ? ONE_THREAD_MAX_ROWS : PLAIN_MAX_ROWS;
    if (job->n_items < PLAIN_MAX_ITEMS ||
        (job->n_rows <= one_thread_max_rows && (!threads || job->n_items <= ONE_THREAD_MAX_ITEMS))) {
        *n_blocks = 1;
        return DOD_CSR_BUILD_PLAIN;
    }
    if (threads && job->n_rows <= PARALLEL_MAX_ROWS)
        return DOD_CSR_BUILD_PLAIN;
    uint32_t far_max = job->n_rows <= PLAIN_MAX_ROWS ? FAR_MAX_IN_L2 : FAR_MAX;
    if (far_steps(job) <= far_max)
        return DOD_CSR_BUILD_PLAIN;
    return DOD_CSR_BUILD_PARTITIONED;
}

/* One item block per thread, each of at least PARALLEL_MIN_ITEMS items. */
static uint32_t blocks_for(const dod_executor *exec, uint32_t n_items)
{
    uint32_t b = dod__exec_tasks(exec, 1, DOD__CSR_MAX_BLOCKS);
    uint32_t most = n_items / PARALLEL_MIN_ITEMS;
    b = b < most ? b : most;
    return b ? b : 1;
}

/* Its refusals name the call that took the desc. */
#define DESC_CALL "dod_csr_build_desc"
static dod_status check_desc(const dod_csr *csr, const dod_csr_desc *d)
{
    DOD__REFUSE_IF_IN(DESC_CALL, !csr, DOD_E_INVALID);
    DOD__REFUSE_IF_IN(DESC_CALL, !d, DOD_E_INVALID);
    DOD__REFUSE_IF_IN(DESC_CALL, !d->keys && d->n_items > 0, DOD_E_INVALID);
    DOD__REFUSE_IF_IN(DESC_CALL, d->key_stride && d->key_stride < 4, DOD_E_INVALID);
    DOD__REFUSE_IF_IN(DESC_CALL, d->value_stride && d->value_stride < 4, DOD_E_INVALID);
    DOD__REFUSE_IF_IN(DESC_CALL, (d->flags & ~DOD_CSR_BUILD_SORT_ROWS) != 0, DOD_E_INVALID);
    DOD__REFUSE_IF_IN(DESC_CALL, (unsigned)d->strategy > DOD_CSR_BUILD_PARTITIONED, DOD_E_INVALID);
    DOD__REFUSE_IF_IN(DESC_CALL, !dod__exec_usable(d->exec), DOD_E_INVALID);
    DOD__REFUSE_IF_IN(DESC_CALL, d->n_rows == UINT32_MAX, DOD_E_OVERFLOW);
    DOD__REFUSE_IF_IN(DESC_CALL, d->n_rows == 0 && d->n_items > 0, DOD_E_RANGE);
    return DOD_OK;
}

/* Fill the job's arrays with the strategy; a value at or above value_bound (when > 0) is
 * refused here, on the largest value the strategy found while storing them. */
static dod_status run_strategy(const dod__csr_job *job, dod_csr_build_strategy strategy,
                               uint32_t value_bound, uint32_t *max_value)
{
    dod_status st;
    if (strategy == DOD_CSR_BUILD_PARTITIONED)
        st = dod__csr_build_partitioned(job, max_value);
    else if (job->n_blocks > 1)
        st = dod__csr_build_parallel(job, max_value);
    else
        st = build_plain(job, max_value);
    if (st != DOD_OK)
        return st;
    DOD__REFUSE_IF(job->has_values && value_bound > 0 && *max_value >= value_bound, DOD_E_RANGE);
    return DOD_OK;
}

dod_status dod__csr_build_job(dod_csr *csr, dod__csr_job *job, const dod_csr_desc *d)
{
    job->n_rows = d->n_rows;
    job->n_items = d->n_items;
    job->value_bound = d->value_bound;
    job->n_blocks = blocks_for(d->exec, d->n_items);
    dod_csr_build_strategy strategy = choose(job, d->strategy, &job->n_blocks);
    job->exec = job->n_blocks > 1 ? d->exec : NULL;

    size_t scratch = 0;
    int sized = 1;
    if (strategy == DOD_CSR_BUILD_PARTITIONED)
        sized = dod__csr_partitioned_scratch(job, &scratch);
    else if (job->n_blocks > 1)
        sized = dod__csr_parallel_scratch(job, &scratch);
    DOD__REFUSE_IF(!sized, DOD_E_OVERFLOW);

    /* Scratch from the caller's arena is taken first, so a failure there changes nothing. */
    dod_arena_mark mark = {0};
    void *arena_scratch = NULL;
    if (d->scratch && scratch > 0) {
        mark = dod_arena_get_mark(d->scratch);
        DOD__REFUSE_IF(dod_arena_push(d->scratch, scratch, DOD_ALIGN, &arena_scratch) != DOD_OK,
                       DOD_E_NOMEM);
    }
    dod__csr_blocks fresh;
    dod_status st = dod__csr_prepare(csr, d->n_rows, d->n_items, arena_scratch ? 0 : scratch, &fresh);
    if (st == DOD_OK) {
        job->offsets = dod__csr_next_offsets(csr, &fresh);
        job->items = dod__csr_next_items(csr, &fresh);
        job->scratch = arena_scratch ? arena_scratch : dod__csr_next_scratch(csr, &fresh);
        uint32_t max_value = 0;
        st = run_strategy(job, strategy, d->value_bound, &max_value);
        if (st == DOD_OK) {
            if (d->flags & DOD_CSR_BUILD_SORT_ROWS)
                dod__csr_sort_rows(job->offsets, job->items, d->n_rows, d->n_items, job->exec);
            dod__csr_commit(csr, &fresh, d->n_rows, d->n_items);
            if (job->has_values)
                csr->item_bound = (uint64_t)max_value + 1;
        } else {
            dod__csr_discard(csr, &fresh);
        }
    }
    if (arena_scratch)
        dod_arena_rewind(d->scratch, mark);
    return st;
}

dod_status dod_csr_build_desc(dod_csr *csr, const dod_csr_desc *d)
{
    dod_status st = check_desc(csr, d);
    if (st != DOD_OK)
        return st;
    dod__csr_run run;
    run.keys = (const unsigned char *)d->keys;
    run.values = d->n_items ? (const unsigned char *)d->values : NULL;
    run.first = 0;
    dod__csr_job job;
    memset(&job, 0, sizeof job);
    job.runs = &run;
    job.n_runs = d->n_items ? 1 : 0;
    job.key_stride = d->key_stride ? d->key_stride : 4;
    job.has_values = run.values != NULL;
    job.value_stride = d->value_stride ? d->value_stride : 4;
    return dod__csr_build_job(csr, &job, d);
}

dod_status dod_csr_build(dod_csr *csr, uint32_t n_rows, const void *keys, size_t key_stride,
                         uint32_t n_items)
{
    DOD__REFUSE_IF(key_stride < sizeof(uint32_t), DOD_E_INVALID);
    dod_csr_desc d;
    memset(&d, 0, sizeof d);
    d.n_rows = n_rows;
    d.n_items = n_items;
    d.keys = keys;
    d.key_stride = key_stride;
    d.strategy = DOD_CSR_BUILD_PLAIN; /* the smallest footprint: no scratch at all */
    return dod_csr_build_desc(csr, &d);
}
