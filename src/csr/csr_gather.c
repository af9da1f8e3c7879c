/* The gather: copy payload columns into row order (dst[j] = src[items[j]]) so a query reads
 * each row's fields as a sequential stream instead of jumping through memory per item. The
 * columns of one source element usually share a cache line, so it should be fetched once. */
#include <dod/csr_build.h>
#include "exec_dispatch.h"
#include "internal.h"

#define GATHER_MIN_ITEMS 16384u /* per task: smaller pieces are not worth a thread */
#define TASKS_PER_THREAD 4u
#define MAX_TASKS 256u

#define CHUNK_ITEMS 2048u /* items per round over the columns: their source lines stay in L2 */

typedef struct gather_ctx {
    const dod_csr *csr;
    const dod_csr_column *cols;
    uint32_t n_cols, n_tasks;
} gather_ctx;

static void gather_u32(uint32_t *restrict dst, const unsigned char *restrict src, size_t stride,
                       const uint32_t *restrict items, uint32_t lo, uint32_t hi)
{
    for (uint32_t j = lo; j < hi; ++j)
        dst[j] = dod__load_u32(src + (size_t)items[j] * stride);
}

static void gather_u64(unsigned char *restrict dst, const unsigned char *restrict src,
                       size_t stride, const uint32_t *restrict items, uint32_t lo, uint32_t hi)
{
    for (uint32_t j = lo; j < hi; ++j)
        memcpy(dst + (size_t)j * 8, src + (size_t)items[j] * stride, 8);
}

/* 12 and 16 bytes: three or four 4-byte fields of a record moved as one (a grouped row record). */
static void gather_12(unsigned char *restrict dst, const unsigned char *restrict src, size_t stride,
                      const uint32_t *restrict items, uint32_t lo, uint32_t hi)
{
    for (uint32_t j = lo; j < hi; ++j)
        memcpy(dst + (size_t)j * 12, src + (size_t)items[j] * stride, 12);
}

static void gather_16(unsigned char *restrict dst, const unsigned char *restrict src, size_t stride,
                      const uint32_t *restrict items, uint32_t lo, uint32_t hi)
{
    for (uint32_t j = lo; j < hi; ++j)
        memcpy(dst + (size_t)j * 16, src + (size_t)items[j] * stride, 16);
}

static void gather_sized(unsigned char *restrict dst, const unsigned char *restrict src,
                         size_t stride, size_t size, const uint32_t *restrict items, uint32_t lo,
                         uint32_t hi)
{
    for (uint32_t j = lo; j < hi; ++j)
        memcpy(dst + (size_t)j * size, src + (size_t)items[j] * stride, size);
}

/* Up to 4 uint32 columns together, one pass: each source element is touched once. The column
 * pointers live in local arrays the stores cannot alias, so they stay in registers. */
static inline void gather_u32_n(uint32_t n, uint32_t *const d[4], const unsigned char *const s[4],
                                const size_t st[4], const uint32_t *restrict items, uint32_t lo,
                                uint32_t hi)
{
    for (uint32_t j = lo; j < hi; ++j) {
        size_t at = items[j];
        for (uint32_t k = 0; k < n; ++k)
            d[k][j] = dod__load_u32(s[k] + at * st[k]);
    }
}

static int gather_u32_columns(const gather_ctx *c, uint32_t lo, uint32_t hi)
{
    uint32_t *d[4];
    const unsigned char *s[4];
    size_t st[4];
    if (c->n_cols > 4)
        return 0;
    for (uint32_t k = 0; k < c->n_cols; ++k) {
        if (c->cols[k].size != 4)
            return 0;
        d[k] = (uint32_t *)c->cols[k].dst;
        s[k] = (const unsigned char *)c->cols[k].src;
        st[k] = c->cols[k].src_stride;
    }
    /* Constant counts, so each call unrolls its inner loop. */
    switch (c->n_cols) {
    case 1: gather_u32_n(1, d, s, st, c->csr->items, lo, hi); break;
    case 2: gather_u32_n(2, d, s, st, c->csr->items, lo, hi); break;
    case 3: gather_u32_n(3, d, s, st, c->csr->items, lo, hi); break;
    default: gather_u32_n(4, d, s, st, c->csr->items, lo, hi); break;
    }
    return 1;
}

/* Otherwise column by column over chunks of CHUNK_ITEMS items: the first column takes the cache misses
 * on the source, the others find the same lines in cache, and every inner loop is a simple
 * strided load with its pointers in registers. */
static void gather_task(void *arg, uint32_t t)
{
    gather_ctx *c = (gather_ctx *)arg;
    uint32_t lo, hi;
    dod__exec_share(c->csr->n_items, c->n_tasks, t, &lo, &hi);
    if (gather_u32_columns(c, lo, hi))
        return;
    const uint32_t *items = c->csr->items;
    for (uint32_t a = lo; a < hi; a += CHUNK_ITEMS) {
        uint32_t b = hi - a < CHUNK_ITEMS ? hi : a + CHUNK_ITEMS;
        for (uint32_t k = 0; k < c->n_cols; ++k) {
            const dod_csr_column *col = &c->cols[k];
            const unsigned char *src = (const unsigned char *)col->src;
            if (col->size == 4)
                gather_u32((uint32_t *)col->dst, src, col->src_stride, items, a, b);
            else if (col->size == 8)
                gather_u64((unsigned char *)col->dst, src, col->src_stride, items, a, b);
            else if (col->size == 12)
                gather_12((unsigned char *)col->dst, src, col->src_stride, items, a, b);
            else if (col->size == 16)
                gather_16((unsigned char *)col->dst, src, col->src_stride, items, a, b);
            else
                gather_sized((unsigned char *)col->dst, src, col->src_stride, col->size, items, a,
                             b);
        }
    }
}

dod_status dod_csr_gather(const dod_csr *csr, const dod_csr_column *cols, uint32_t n_cols,
                          uint64_t n_src, const dod_executor *exec)
{
    DOD__REFUSE_IF(!csr, DOD_E_INVALID);
    DOD__REFUSE_IF(!cols && n_cols > 0, DOD_E_INVALID);
    DOD__REFUSE_IF(!dod__exec_usable(exec), DOD_E_INVALID);
    for (uint32_t k = 0; k < n_cols; ++k) {
        const dod_csr_column *col = &cols[k];
        size_t bytes;
        DOD__REFUSE_IF(col->size == 0, DOD_E_INVALID);
        DOD__REFUSE_IF(col->src_stride < col->size, DOD_E_INVALID);
        DOD__REFUSE_IF(csr->n_items > 0 && (!col->dst || !col->src), DOD_E_INVALID);
        DOD__REFUSE_IF(!dod__mul(csr->n_items, col->size, &bytes), DOD_E_OVERFLOW);
    }
    DOD__REFUSE_IF(csr->item_bound > n_src, DOD_E_RANGE);
    if (csr->n_items == 0 || n_cols == 0)
        return DOD_OK;
    gather_ctx c;
    c.csr = csr;
    c.cols = cols;
    c.n_cols = n_cols;
    uint32_t most = csr->n_items / GATHER_MIN_ITEMS;
    uint32_t tasks = dod__exec_tasks(exec, TASKS_PER_THREAD, MAX_TASKS);
    tasks = tasks < most ? tasks : most;
    c.n_tasks = tasks ? tasks : 1;
    dod__exec_run(exec, c.n_tasks, gather_task, &c);
    return DOD_OK;
}
