/* The partitioned build: a two-level counting sort that keeps every random write in cache.
 *
 *   1. count     each item block counts its items per coarse partition (key >> shift) and
 *                validates the keys;
 *   2. place     a prefix sum over (partition, block) gives every block its own run inside
 *                every partition: blocks in item order, so the result is stable;
 *   3. partition each block streams (key, value) pairs into its runs through one 64-byte
 *                write-combining line per partition, flushed whole with non-temporal stores;
 *   4. finish    each partition, small enough to sit in cache, is counting-sorted into its
 *                rows: the rows' offsets and the items are written only here.
 *
 * Blocks run on the executor in steps 1 and 3, partitions in step 4; every task writes its
 * own disjoint part of the scratch and the output, so no counter is shared and the bytes are
 * the same for any number of threads and any execution order. */
#include "csr_build_internal.h"

#if defined(__SSE2__) || defined(_M_X64)
#  include <emmintrin.h>
#  define HAVE_STREAM 1
#else
#  define HAVE_STREAM 0
#endif

/* Tuning, measured on the benchmark machine (docs/build.md). */
#define TARGET_PART_ITEMS 16384u /* a partition's pairs (8 bytes each) should fit in L2 */
#define MAX_PART_BITS 10u        /* at most 1024 partitions: the lines of one block fit in L1/L2 */
#define LINE_PAIRS 8u            /* 64 bytes of 8-byte pairs */
#define FINISH_TASKS_PER_THREAD 4u /* partitions are uneven (long tails): smaller tasks balance */

typedef struct layout {
    uint32_t shift, n_parts, n_blocks;
    size_t pairs, runs, cursors, part_start, lines, total; /* byte offsets into the scratch */
} layout;

static uint32_t log2_floor(uint64_t v)
{
    uint32_t r = 0;
    while (v >>= 1)
        r++;
    return r;
}

static int make_layout(uint32_t n_rows, uint32_t n_items, uint32_t n_blocks, layout *l)
{
    memset(l, 0, sizeof *l);
    /* Rows per partition: about TARGET_PART_ITEMS items each, at most 2^MAX_PART_BITS partitions. */
    uint64_t rows_for_target = n_items ? (uint64_t)TARGET_PART_ITEMS * n_rows / n_items : n_rows;
    uint32_t shift = log2_floor(rows_for_target ? rows_for_target : 1);
    uint32_t row_bits = n_rows > 1 ? log2_floor((uint64_t)n_rows - 1) + 1 : 0;
    if (row_bits > MAX_PART_BITS && shift < row_bits - MAX_PART_BITS)
        shift = row_bits - MAX_PART_BITS;
    if (shift > 31)
        shift = 31;
    l->shift = shift;
    l->n_parts = n_rows ? (uint32_t)((((uint64_t)n_rows - 1) >> shift) + 1) : 1;
    l->n_blocks = n_blocks;

    size_t cells = (size_t)l->n_parts * n_blocks, bytes, at = 0;
    l->pairs = at;
    if (!dod__mul(n_items, sizeof(uint64_t), &bytes) || !dod__add(at, bytes, &at) ||
        !dod__align_up(at, &at))
        return 0;
    l->runs = at;
    if (!dod__mul(cells, sizeof(uint32_t), &bytes) || !dod__add(at, bytes, &at))
        return 0;
    l->cursors = at;
    if (!dod__add(at, bytes, &at))
        return 0;
    l->part_start = at;
    if (!dod__mul((size_t)l->n_parts + 1, sizeof(uint32_t), &bytes) || !dod__add(at, bytes, &at) ||
        !dod__align_up(at, &at))
        return 0;
    l->lines = at;
    if (!dod__mul(cells, LINE_PAIRS * sizeof(uint64_t), &bytes) || !dod__add(at, bytes, &at))
        return 0;
    l->total = at;
    return 1;
}

int dod__csr_partitioned_scratch(const dod__csr_job *job, size_t *bytes)
{
    layout l;
    if (!make_layout(job->n_rows, job->n_items, job->n_blocks, &l))
        return 0;
    *bytes = l.total;
    return 1;
}

typedef struct ctx {
    const dod__csr_job *job;
    layout l;
    uint64_t *pairs;
    uint32_t *runs;       /* [block][partition]: where the block's run starts */
    uint32_t *cursors;    /* [block][partition]: the next slot of the run */
    uint32_t *part_start; /* [partition + 1] */
    uint64_t *lines;      /* [block][partition][LINE_PAIRS] */
    uint32_t n_finish_tasks;
    unsigned char bad[DOD__CSR_MAX_BLOCKS];
    uint32_t max_value[DOD__CSR_MAX_BLOCKS];
} ctx;

/* ---- 1. count ---- */

static int count_keys(uint32_t *restrict hist, const unsigned char *keys, size_t stride,
                      uint32_t lo, uint32_t hi, uint32_t n_rows, uint32_t shift)
{
    for (uint32_t i = lo; i < hi; ++i) {
        uint32_t key = dod__load_u32(keys + (size_t)i * stride);
        if (key >= n_rows)
            return 0;
        hist[key >> shift]++;
    }
    return 1;
}

static void count_task(void *arg, uint32_t b)
{
    ctx *c = (ctx *)arg;
    const dod__csr_job *job = c->job;
    uint32_t lo, hi;
    dod__exec_share(job->n_items, c->l.n_blocks, b, &lo, &hi);
    uint32_t *hist = c->runs + (size_t)b * c->l.n_parts;
    memset(hist, 0, (size_t)c->l.n_parts * sizeof *hist);
    c->bad[b] = (unsigned char)!count_keys(hist, job->keys, job->key_stride, lo, hi, job->n_rows,
                                           c->l.shift);
}

/* ---- 2. place ---- */

static void place_runs(ctx *c)
{
    uint32_t running = 0, P = c->l.n_parts, B = c->l.n_blocks;
    for (uint32_t p = 0; p < P; ++p) {
        c->part_start[p] = running;
        for (uint32_t b = 0; b < B; ++b) {
            uint32_t n = c->runs[(size_t)b * P + p];
            c->runs[(size_t)b * P + p] = running;
            c->cursors[(size_t)b * P + p] = running;
            running += n;
        }
    }
    c->part_start[P] = running;
}

/* ---- 3. partition ---- */

/* Write one full 64-byte line; dst is 64-byte aligned. Non-temporal: it bypasses the cache,
 * which the scattered destination would only thrash. */
static void stream_line(uint64_t *dst, const uint64_t *src)
{
#if HAVE_STREAM
    __m128i *d = (__m128i *)(void *)dst;
    const __m128i *s = (const __m128i *)(const void *)src;
    _mm_stream_si128(d + 0, _mm_load_si128(s + 0));
    _mm_stream_si128(d + 1, _mm_load_si128(s + 1));
    _mm_stream_si128(d + 2, _mm_load_si128(s + 2));
    _mm_stream_si128(d + 3, _mm_load_si128(s + 3));
#else
    memcpy(dst, src, LINE_PAIRS * sizeof *dst);
#endif
}

static void stream_fence(void)
{
#if HAVE_STREAM
    _mm_sfence(); /* make the streamed lines visible before the pool reports the task done */
#endif
}

/* The line ending at slot `end` (a multiple of LINE_PAIRS) is complete: stream it when the run
 * owns all of it, else store just the run's part (the line's start belongs to the run before). */
static void flush_line(uint64_t *restrict pairs, const uint64_t *restrict line, uint32_t end,
                       uint32_t run_start)
{
    uint32_t first = end - LINE_PAIRS;
    if (first >= run_start) {
        stream_line(pairs + first, line);
        return;
    }
    for (uint32_t s = run_start; s < end; ++s)
        pairs[s] = line[s % LINE_PAIRS];
}

static void partition_block(ctx *c, uint32_t b, uint32_t lo, uint32_t hi)
{
    const dod__csr_job *job = c->job;
    const uint32_t P = c->l.n_parts, shift = c->l.shift;
    uint32_t *restrict cur = c->cursors + (size_t)b * P;
    const uint32_t *restrict run = c->runs + (size_t)b * P;
    uint64_t *restrict lines = c->lines + (size_t)b * P * LINE_PAIRS;
    uint64_t *restrict pairs = c->pairs;
    const unsigned char *keys = job->keys, *values = job->values;
    const size_t ks = job->key_stride, vs = job->value_stride;
    uint32_t max = 0;

    for (uint32_t i = lo; i < hi; ++i) {
        uint32_t key = dod__load_u32(keys + (size_t)i * ks);
        uint32_t v = values ? dod__load_u32(values + (size_t)i * vs) : i;
        max = v > max ? v : max;
        uint32_t p = key >> shift;
        uint32_t slot = cur[p]++;
        uint64_t *line = lines + (size_t)p * LINE_PAIRS;
        line[slot % LINE_PAIRS] = (uint64_t)key << 32 | v;
        if ((slot + 1) % LINE_PAIRS == 0)
            flush_line(pairs, line, slot + 1, run[p]);
    }
    /* The partial last line of every run, with ordinary stores. */
    for (uint32_t p = 0; p < P; ++p) {
        uint32_t end = cur[p], first = end - end % LINE_PAIRS;
        if (first < run[p])
            first = run[p];
        for (uint32_t s = first; s < end; ++s)
            pairs[s] = lines[(size_t)p * LINE_PAIRS + s % LINE_PAIRS];
    }
    stream_fence();
    c->max_value[b] = values ? max : 0;
}

static void partition_task(void *arg, uint32_t b)
{
    ctx *c = (ctx *)arg;
    uint32_t lo, hi;
    dod__exec_share(c->job->n_items, c->l.n_blocks, b, &lo, &hi);
    partition_block(c, b, lo, hi);
}

/* ---- 4. finish ---- */

/* Counting sort of one partition into its rows [row_lo, row_hi): it owns offsets[row_lo + 1 ..
 * row_hi] (the hack-3 shift by one), so neighbouring partitions never write the same entry. */
static void finish_partition(uint32_t *restrict offsets1, uint32_t *restrict items,
                             const uint64_t *restrict pairs, uint32_t begin, uint32_t end,
                             uint32_t row_lo, uint32_t row_hi)
{
    memset(offsets1 + row_lo, 0, (size_t)(row_hi - row_lo) * sizeof *offsets1);
    for (uint32_t j = begin; j < end; ++j)
        offsets1[pairs[j] >> 32]++;
    uint32_t sum = begin;
    for (uint32_t r = row_lo; r < row_hi; ++r) {
        uint32_t n = offsets1[r];
        offsets1[r] = sum;
        sum += n;
    }
    for (uint32_t j = begin; j < end; ++j) {
        uint64_t pair = pairs[j];
        items[offsets1[pair >> 32]++] = (uint32_t)pair;
    }
}

static void finish_task(void *arg, uint32_t t)
{
    ctx *c = (ctx *)arg;
    const dod__csr_job *job = c->job;
    uint32_t lo, hi, P = c->l.n_parts;
    /* Task t takes the partitions that start inside its share of the items (the last task also
     * takes the empty partitions at the end), so the tasks cover every partition once. */
    dod__exec_share(job->n_items, c->n_finish_tasks, t, &lo, &hi);
    uint32_t p0 = t == 0 ? 0 : dod__csr_first_at(c->part_start, P, lo);
    uint32_t p1 = t + 1 == c->n_finish_tasks ? P : dod__csr_first_at(c->part_start, P, hi);
    for (uint32_t p = p0; p < p1; ++p) {
        uint32_t row_lo = p << c->l.shift;
        uint32_t row_hi = p + 1 == P ? job->n_rows : (p + 1) << c->l.shift;
        finish_partition(job->offsets + 1, job->items, c->pairs, c->part_start[p],
                         c->part_start[p + 1], row_lo, row_hi);
    }
}

dod_status dod__csr_build_partitioned(const dod__csr_job *job, uint32_t *max_value)
{
    ctx c;
    int ok = make_layout(job->n_rows, job->n_items, job->n_blocks, &c.l);
    DOD_ASSERT(ok && job->n_blocks <= DOD__CSR_MAX_BLOCKS);
    (void)ok;
    unsigned char *s = (unsigned char *)job->scratch;
    c.job = job;
    c.pairs = (uint64_t *)(void *)(s + c.l.pairs);
    c.runs = (uint32_t *)(void *)(s + c.l.runs);
    c.cursors = (uint32_t *)(void *)(s + c.l.cursors);
    c.part_start = (uint32_t *)(void *)(s + c.l.part_start);
    c.lines = (uint64_t *)(void *)(s + c.l.lines);

    dod__exec_run(job->exec, c.l.n_blocks, count_task, &c);
    for (uint32_t b = 0; b < c.l.n_blocks; ++b)
        DOD__REFUSE_IF(c.bad[b], DOD_E_RANGE);
    place_runs(&c);
    dod__exec_run(job->exec, c.l.n_blocks, partition_task, &c);
    uint32_t m = 0;
    for (uint32_t b = 0; b < c.l.n_blocks; ++b)
        m = c.max_value[b] > m ? c.max_value[b] : m;
    *max_value = m;
    uint32_t tasks = dod__exec_tasks(job->exec, FINISH_TASKS_PER_THREAD,
                                     DOD__CSR_MAX_BLOCKS * FINISH_TASKS_PER_THREAD);
    c.n_finish_tasks = tasks < c.l.n_parts ? tasks : c.l.n_parts;
    dod__exec_run(job->exec, c.n_finish_tasks, finish_task, &c);
    job->offsets[0] = 0;
    return DOD_OK;
}
