/* dod/csr_build.h: the full index build (adaptive, partitioned, parallel, value builds) and
 * the gather that lays payload columns out in row order.
 *
 * dod_csr_build_desc is the general form of dod_csr_build: items may store a value of their
 * own (edges (src, dst) into neighbour lists), rows may be sorted, and the work may run on an
 * executor. Every strategy and every thread count produces the same bytes: row r lists, in
 * ascending item order, the value of each item whose key is r (or the rows sorted by value
 * when DOD_CSR_BUILD_SORT_ROWS is set). See docs/build.md for the algorithms and the choice rule. */
#ifndef DOD_CSR_BUILD_H
#define DOD_CSR_BUILD_H

#include <dod/arena.h>
#include <dod/csr.h>
#include <dod/exec.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How the build runs; every choice gives identical output. */
typedef enum dod_csr_build_strategy {
    DOD_CSR_BUILD_AUTO = 0,        /* choose from the sizes and a sample of the keys */
    DOD_CSR_BUILD_PLAIN,           /* count, prefix sum, scatter (the seed's hack 3) */
    DOD_CSR_BUILD_PARTITIONED      /* coarse partitions by the key's high bits, then a counting sort each */
} dod_csr_build_strategy;

/* flags */
#define DOD_CSR_BUILD_SORT_ROWS 1u /* sort each row's values ascending (adjacency sets, CSR canonical form) */

/* What dod_csr_build_desc builds and how: zero-initialise it and set the fields you need
 * (n_rows, n_items, keys at least). */
typedef struct dod_csr_desc { /* zero = default for every field */
    uint32_t n_rows, n_items;
    const void *keys;   size_t key_stride;   /* the row of each item, as in dod_csr_build (0 = 4) */
    const void *values; size_t value_stride; /* optional uint32 value stored for item i (default: i) (0 = 4) */
    const dod_executor *exec;                /* optional: build in parallel on it */
    uint32_t value_bound; /* when > 0 (and values given), every value must be < value_bound;
                           * a tight bound also lets the partitioned build keep each value in
                           * its 4-byte element instead of a second pool (docs/build.md) */
    uint32_t flags;       /* DOD_CSR_BUILD_SORT_ROWS */
    dod_csr_build_strategy strategy;
    dod_arena *scratch;   /* optional: where the partitioned and parallel builds take their
                           * scratch (rewound before the call returns); NULL = the index holds it */
} dod_csr_desc;

/* Build csr from desc. Keys and values are uint32_t in host byte order at any alignment.
 * A rebuild whose sizes fit the capacity held allocates nothing. The partitioned and parallel
 * strategies need scratch (about 4.7 bytes an item for the partitioned one): from desc->scratch
 * when given, a frame arena that already has the room after the first frame, else kept by
 * the index as part of its capacity (dod_csr_bytes counts it, dod_csr_shrink and
 * dod_csr_free return it). dod_csr_build never takes scratch: it is the plain strategy.
 *
 * Errors, each leaving the index exactly as it was:
 *   DOD_E_INVALID   csr or desc NULL, keys NULL with n_items > 0, key_stride or value_stride
 *                   in 1..3, flags or strategy unknown, exec with run NULL or 0 threads
 *   DOD_E_RANGE     some key >= n_rows, or some value >= value_bound
 *   DOD_E_OVERFLOW  n_rows == UINT32_MAX, or byte counts that do not fit size_t
 *   DOD_E_NOMEM     the allocator (or the scratch arena) failed
 * Thread safety: exclusive access to csr and to the scratch arena; keys and values are only
 * read. The executor's tasks touch disjoint parts of the output, so the result never depends
 * on their order. */
DOD_API dod_status dod_csr_build_desc(dod_csr *csr, const dod_csr_desc *desc);

/* One column for the gather: dst receives n_items elements of `size` bytes packed back to
 * back; element j is a copy of the `size` bytes at (const char *)src + items[j] * src_stride. */
typedef struct dod_csr_column {
    void *dst;
    const void *src;
    size_t src_stride;
    size_t size;
} dod_csr_column;

/* Copy n_cols columns into row order (dst[j] = src[items[j]] for every j < n_items) in one
 * pass over the items, so a row's payload becomes a sequential stream; parallel on exec when
 * given (NULL = the calling thread). n_src is how many elements every src holds: it must
 * exceed every item the index stores (the index remembers its largest, so this check is O(1)).
 * Errors (nothing written): DOD_E_INVALID (csr NULL, cols NULL with n_cols > 0, a column with
 * dst or src NULL while n_items > 0, size 0 or src_stride < size, exec with run NULL or 0
 * threads),
 * DOD_E_RANGE (an item >= n_src), DOD_E_OVERFLOW (n_items * size does not fit size_t).
 * Allocates nothing. Thread safety: reads csr only; any number may run at once. */
DOD_API dod_status dod_csr_gather(const dod_csr *csr, const dod_csr_column *cols, uint32_t n_cols,
                                  uint64_t n_src, const dod_executor *exec);

#ifdef __cplusplus
}
#endif

#endif /* DOD_CSR_BUILD_H */
