/* The plain scatter on several threads, with one row histogram per item block:
 *
 *   1. count   each block counts its items per row into its own histogram, checking the keys;
 *   2. total   each row chunk sums its rows over the blocks;
 *   3. place   a prefix sum over the chunk totals, then each chunk turns its histograms into
 *              cursors: row r's items from block 0 first, then block 1, ... (stable);
 *   4. scatter each block places its items through its own cursors.
 *
 * No counter is shared between tasks and no atomics are used; every task writes a disjoint
 * part of the histograms or the output, so the bytes match the single-thread build for any
 * thread count and any execution order. Used where the plain scatter beats the partitioned
 * build (few rows, clustered keys) and an executor is given. */
#include "csr_job.h"

#define CHUNKS_PER_THREAD 4u

typedef struct parallel_ctx {
    const dod__csr_job *job;
    uint32_t *hist;        /* [block][row] */
    uint32_t *chunk_total; /* [chunk] */
    uint32_t n_chunks;
    unsigned char bad[DOD__CSR_MAX_BLOCKS];
    uint32_t max_value[DOD__CSR_MAX_BLOCKS];
} parallel_ctx;

int dod__csr_parallel_scratch(const dod__csr_job *job, size_t *bytes)
{
    size_t hist, chunks = (size_t)DOD__CSR_MAX_BLOCKS * CHUNKS_PER_THREAD * sizeof(uint32_t);
    if (!dod__mul(job->n_rows, job->n_blocks, &hist) || !dod__mul(hist, sizeof(uint32_t), &hist) ||
        !dod__align_up(hist, &hist) || !dod__add(hist, chunks, bytes))
        return 0;
    return 1;
}

static uint32_t *hist_of(const parallel_ctx *c, uint32_t b)
{
    return c->hist + (size_t)b * c->job->n_rows;
}

/* Count n keys at stride into h; 0 at a key >= n_rows. */
static int count_piece(uint32_t *restrict h, uint32_t n_rows, const unsigned char *keys,
                      size_t stride, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i, keys += stride) {
        uint32_t key = dod__load_u32(keys);
        if (key >= n_rows)
            return 0;
        h[key]++;
    }
    return 1;
}

static void count_task(void *arg, uint32_t b)
{
    parallel_ctx *c = (parallel_ctx *)arg;
    const dod__csr_job *job = c->job;
    uint32_t lo, hi;
    dod__exec_share(job->n_items, job->n_blocks, b, &lo, &hi);
    uint32_t *restrict h = hist_of(c, b);
    memset(h, 0, (size_t)job->n_rows * sizeof *h);
    c->bad[b] = 0;
    uint32_t run = dod__csr_run_of(job, lo);
    for (uint32_t at = lo; at < hi;) {
        dod__csr_piece p = dod__csr_piece_at(job, &run, at, hi);
        if (!count_piece(h, job->n_rows, p.keys, job->key_stride, p.end - at)) {
            c->bad[b] = 1;
            return;
        }
        at = p.end;
    }
}

static void total_task(void *arg, uint32_t t)
{
    parallel_ctx *c = (parallel_ctx *)arg;
    const dod__csr_job *job = c->job;
    uint32_t lo, hi, sum = 0;
    dod__exec_share(job->n_rows, c->n_chunks, t, &lo, &hi);
    for (uint32_t b = 0; b < job->n_blocks; ++b) {
        const uint32_t *restrict h = hist_of(c, b);
        for (uint32_t r = lo; r < hi; ++r)
            sum += h[r];
    }
    c->chunk_total[t] = sum;
}

static void place_task(void *arg, uint32_t t)
{
    parallel_ctx *c = (parallel_ctx *)arg;
    const dod__csr_job *job = c->job;
    uint32_t lo, hi, running = c->chunk_total[t]; /* the chunk's start, after the prefix sum */
    dod__exec_share(job->n_rows, c->n_chunks, t, &lo, &hi);
    for (uint32_t r = lo; r < hi; ++r) {
        job->offsets[r] = running;
        for (uint32_t b = 0; b < job->n_blocks; ++b) {
            uint32_t *h = hist_of(c, b);
            uint32_t n = h[r];
            h[r] = running;
            running += n;
        }
    }
}

/* Place items [at, end) through the cursors: their values, or their numbers. */
static uint32_t scatter_piece(uint32_t *restrict cur, uint32_t *restrict items,
                              const dod__csr_job *job, const dod__csr_piece *p)
{
    const unsigned char *keys = p->keys;
    const size_t ks = job->key_stride;
    uint32_t max = 0;
    if (p->values) {
        const unsigned char *values = p->values;
        for (uint32_t i = p->at; i < p->end; ++i, keys += ks, values += job->value_stride) {
            uint32_t v = dod__load_u32(values);
            max = v > max ? v : max;
            items[cur[dod__load_u32(keys)]++] = v;
        }
    } else {
        for (uint32_t i = p->at; i < p->end; ++i, keys += ks)
            items[cur[dod__load_u32(keys)]++] = i;
    }
    return max;
}

static void scatter_task(void *arg, uint32_t b)
{
    parallel_ctx *c = (parallel_ctx *)arg;
    const dod__csr_job *job = c->job;
    uint32_t lo, hi, max = 0;
    dod__exec_share(job->n_items, job->n_blocks, b, &lo, &hi);
    uint32_t run = dod__csr_run_of(job, lo);
    for (uint32_t at = lo; at < hi;) {
        dod__csr_piece p = dod__csr_piece_at(job, &run, at, hi);
        uint32_t m = scatter_piece(hist_of(c, b), job->items, job, &p);
        max = m > max ? m : max;
        at = p.end;
    }
    c->max_value[b] = max;
}

dod_status dod__csr_build_parallel(const dod__csr_job *job, uint32_t *max_value)
{
    parallel_ctx c;
    size_t hist_bytes = (size_t)job->n_rows * job->n_blocks * sizeof(uint32_t);
    int ok = dod__align_up(hist_bytes, &hist_bytes);
    DOD_ASSERT(ok && job->exec && job->n_blocks <= DOD__CSR_MAX_BLOCKS);
    (void)ok;
    c.job = job;
    c.hist = (uint32_t *)job->scratch;
    c.chunk_total = (uint32_t *)(void *)((unsigned char *)job->scratch + hist_bytes);
    uint32_t chunks =
        dod__exec_tasks(job->exec, CHUNKS_PER_THREAD, DOD__CSR_MAX_BLOCKS * CHUNKS_PER_THREAD);
    c.n_chunks = job->n_rows < chunks ? (job->n_rows ? job->n_rows : 1) : chunks;

    dod__exec_run(job->exec, job->n_blocks, count_task, &c);
    for (uint32_t b = 0; b < job->n_blocks; ++b)
        DOD__REFUSE_IF(c.bad[b], DOD_E_RANGE);
    dod__exec_run(job->exec, c.n_chunks, total_task, &c);
    uint32_t running = 0;
    for (uint32_t t = 0; t < c.n_chunks; ++t) {
        uint32_t n = c.chunk_total[t];
        c.chunk_total[t] = running;
        running += n;
    }
    dod__exec_run(job->exec, c.n_chunks, place_task, &c);
    job->offsets[job->n_rows] = job->n_items;
    dod__exec_run(job->exec, job->n_blocks, scatter_task, &c);
    uint32_t m = 0;
    for (uint32_t b = 0; b < job->n_blocks; ++b)
        m = c.max_value[b] > m ? c.max_value[b] : m;
    *max_value = m;
    return DOD_OK;
}
