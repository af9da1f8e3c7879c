/* dod/csr.h: the jagged index (CSR, compressed sparse row) for "owner -> set of entities".
 *
 *   offsets[n_rows + 1]   row r is items[offsets[r] .. offsets[r + 1])
 *   items[n_items]        one blob, every row back to back
 *
 * Built by counting, prefix sum and scatter from one key per item (the seed's "hack 3"),
 * rebuilt every frame into the memory it already holds, copied for another thread with two
 * memcpy. Rows list their items in ascending order: the build is stable and deterministic.
 *
 * Thread safety: any number of threads may read an index (queries, dod_csr_copy from it, ...)
 * while no thread modifies it; build, reserve, shrink and free need exclusive access. */
#ifndef DOD_CSR_H
#define DOD_CSR_H

#include <dod/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The jagged index: a plain struct the caller owns (dod_csr_init, dod_csr_free). Read
 * n_rows, n_items, offsets and items directly (row r is items[offsets[r] .. offsets[r + 1]))
 * or through dod_csr_row_len / _row_begin / _row_end; only the library's calls change them. */
typedef struct dod_csr {
    uint32_t n_rows;   /* read-only for users */
    uint32_t n_items;  /* read-only */
    uint32_t *offsets; /* n_rows + 1 entries after a build; NULL after init */
    uint32_t *items;   /* n_items entries */
    /* private fields follow */
    uint32_t row_cap;   /* rows the row block holds (offsets and spare each row_cap + 1) */
    uint32_t item_cap;  /* entries the items block holds */
    uint32_t *spare;    /* second offsets array: a build counts here, then swaps it in */
    uint32_t *row_block;
    dod_allocator alloc;
    uint64_t item_bound;  /* 1 + the largest item stored (0 when empty): gathers check against it */
    void *scratch;        /* build scratch, at the end of the items block (NULL: none) */
    size_t scratch_bytes;
} dod_csr;

/* Prepare an empty index (n_rows == n_items == 0, offsets == items == NULL). Allocates
 * nothing and never fails (csr NULL: no-op). alloc NULL = the default heap; the allocator is
 * copied. */
DOD_API void dod_csr_init(dod_csr *csr, const dod_allocator *alloc);

/* Build the index: item i belongs to row key(i), the uint32_t at
 * (const char *)keys + i * key_stride (host byte order, any alignment). Afterwards
 * offsets[0] == 0, offsets[n_rows] == n_items, and row r holds, in ascending order, exactly
 * the items whose key is r. A rebuild whose sizes fit the capacity held allocates nothing;
 * the first build allocates at most two blocks.
 *
 * Errors, each leaving the index exactly as it was:
 *   DOD_E_INVALID   csr NULL, keys NULL with n_items > 0, key_stride < 4
 *   DOD_E_RANGE     some key >= n_rows
 *   DOD_E_OVERFLOW  n_rows == UINT32_MAX, or byte counts that do not fit size_t
 *   DOD_E_NOMEM     the allocator failed
 * 0 rows with 0 items is a valid empty index. */
DOD_API dod_status dod_csr_build(dod_csr *csr, uint32_t n_rows, const void *keys,
                                 size_t key_stride, uint32_t n_items);

/* Make dst an exact copy of src (the snapshot to hand another thread). dst keeps its own
 * allocator; when its capacity fits, nothing is allocated and the cost is a memcpy of the two
 * arrays. dst == src is a no-op. Errors (dst unchanged): DOD_E_INVALID, DOD_E_NOMEM. */
DOD_API dod_status dod_csr_copy(dod_csr *dst, const dod_csr *src);

/* Make sure dod_csr_build and dod_csr_copy of up to n_rows rows and n_items items allocate
 * nothing. (The partitioned and parallel builds of dod_csr_build_desc also need scratch: pass
 * them an arena, or the index keeps what its first such build took.) Contents are kept.
 * Errors (index unchanged): DOD_E_INVALID, DOD_E_OVERFLOW, DOD_E_NOMEM. */
DOD_API dod_status dod_csr_reserve(dod_csr *csr, uint32_t n_rows, uint32_t n_items);

/* Release capacity beyond the current sizes (an empty, never-built index holds nothing).
 * Errors (index unchanged): DOD_E_INVALID, DOD_E_NOMEM. */
DOD_API dod_status dod_csr_shrink(dod_csr *csr);

/* Make the index empty (0 rows, 0 items) but keep its capacity. NULL: no-op. */
DOD_API void dod_csr_clear(dod_csr *csr);

/* Return every byte to the allocator and leave an initialised empty index. NULL: no-op. */
DOD_API void dod_csr_free(dod_csr *csr);

/* 1 when a and b have the same rows with the same items, else 0 (capacity is not compared;
 * NULL equals only NULL). */
DOD_API int dod_csr_equal(const dod_csr *a, const dod_csr *b);

/* Check the invariants: offsets[0] == 0, offsets never decrease, offsets[n_rows] == n_items,
 * and, when item_bound > 0, every item < item_bound. O(n_rows + n_items).
 * Returns DOD_OK, DOD_E_INVALID (csr NULL) or DOD_E_CORRUPT. */
DOD_API dod_status dod_csr_check(const dod_csr *csr, uint64_t item_bound);

/* Bytes of memory the index holds: its capacity, both blocks, with any build or load scratch;
 * 0 for NULL. */
DOD_API size_t dod_csr_bytes(const dod_csr *csr);

/* The seed's query loop, spelled with these:
 *     const uint32_t *it = dod_csr_row_begin(&idx, loc), *end = dod_csr_row_end(&idx, loc);
 *     for (; it != end; ++it) { const Regiment *g = &regiments[*it]; ... }
 * `row` must be < n_rows (unchecked, as an array subscript is). */
static inline uint32_t dod_csr_row_len(const dod_csr *csr, uint32_t row)
{
    return csr->offsets[row + 1] - csr->offsets[row];
}

static inline const uint32_t *dod_csr_row_begin(const dod_csr *csr, uint32_t row)
{
    return csr->items + csr->offsets[row];
}

static inline const uint32_t *dod_csr_row_end(const dod_csr *csr, uint32_t row)
{
    return csr->items + csr->offsets[row + 1];
}

/* A walk over rows in an order the hardware cannot predict (a random permutation, a list of
 * selected rows) waits on two dependent misses a row: offsets[row], then the row's data. Call
 * this at step k of a loop over order[0 .. n), before visiting order[k]: it prefetches the
 * offsets of order[k + 2 * DOD_CSR_PREFETCH_AHEAD] and the first two cache lines of the row
 * data of order[k + DOD_CSR_PREFETCH_AHEAD], so both are in cache when the loop gets there.
 * row_data is indexed like items: csr->items itself (elem_size 4), or a column gathered into
 * row order by dod_csr_gather (elem_size its element size). A hint only: it never faults, and
 * compiles to nothing where the compiler has no prefetch. Measured on the 1M-row random query
 * (docs/build.md): about 3.5x faster over gathered columns. */
#define DOD_CSR_PREFETCH_AHEAD 8u

static inline void dod_csr_prefetch_rows(const dod_csr *csr, const uint32_t *order, uint32_t n,
                                         uint32_t k, const void *row_data, size_t elem_size)
{
    if (k + 2 * DOD_CSR_PREFETCH_AHEAD < n)
        DOD__PREFETCH(&csr->offsets[order[k + 2 * DOD_CSR_PREFETCH_AHEAD]]);
    if (k + DOD_CSR_PREFETCH_AHEAD < n) {
        const char *p = (const char *)row_data +
                        (size_t)csr->offsets[order[k + DOD_CSR_PREFETCH_AHEAD]] * elem_size;
        DOD__PREFETCH(p);
        DOD__PREFETCH(p + 64);
    }
}

#ifdef __cplusplus
}
#endif

#endif /* DOD_CSR_H */
