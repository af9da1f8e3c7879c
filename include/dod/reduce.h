/* dod/reduce.h: segmented reductions of a float column grouped by an index.
 *
 * Row r of `groups` (a dod_csr) lists the items of group r; the value of item i is the float at
 * (const char *)values + i * stride. For each row the reduction gives the sum, min, max and
 * mean of its items' values ("total health and average mood per army").
 *
 * Every row is reduced sequentially, in the row's item order; the executor only spreads whole
 * rows across threads. So the results are bit-identical for any executor and thread count. */
#ifndef DOD_REDUCE_H
#define DOD_REDUCE_H

#include <dod/base.h>
#include <dod/csr.h>
#include <dod/exec.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where the results go: arrays of groups->n_rows floats; any of them may be NULL (not wanted).
 * An empty row gets sum 0, min +infinity, max -infinity and mean 0. */
typedef struct dod_reduce_out {
    float *sum;
    float *min;
    float *max;
    float *mean;
} dod_reduce_out;

/* Reduce `values` (n_values floats at byte stride `stride`, any alignment) over the rows of
 * `groups`, on `exec` (NULL = the calling thread). NaN values propagate into sum and mean;
 * min and max skip them (they compare false).
 * Errors (nothing written): DOD_E_INVALID (groups or out NULL, values NULL with
 * n_values > 0, stride < 4, exec with a NULL run or 0 threads), DOD_E_RANGE (an item of
 * groups >= n_values).
 * Thread safety: reads groups and values; the output arrays must not overlap them. */
DOD_API dod_status dod_reduce_rows(const dod_csr *groups, const void *values, size_t stride,
                                   uint32_t n_values, const dod_reduce_out *out,
                                   const dod_executor *exec);

#ifdef __cplusplus
}
#endif

#endif /* DOD_REDUCE_H */
