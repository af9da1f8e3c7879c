/* Building the index from keys: count, prefix sum, scatter (the seed's hack 3). */
#include "csr_internal.h"
#include "internal.h"

/* Pass 1, with validation: count each row's items into offsets[key + 1]. Returns 0 when a
 * key is out of range. The check is a predictable branch inside the pass, not a pass of its own. */
static int count_keys(uint32_t *restrict offsets, uint32_t n_rows, const unsigned char *keys,
                      size_t stride, uint32_t n_items)
{
    uint32_t *restrict counts = offsets + 1;
    for (uint32_t i = 0; i < n_items; ++i) {
        uint32_t key = dod__load_u32(keys + (size_t)i * stride);
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
static void scatter_items(uint32_t *restrict cursors, uint32_t *restrict items,
                          const unsigned char *keys, size_t stride, uint32_t n_items)
{
    for (uint32_t i = 0; i < n_items; ++i) {
        uint32_t key = dod__load_u32(keys + (size_t)i * stride);
        items[cursors[key]++] = i;
    }
}

dod_status dod_csr_build(dod_csr *csr, uint32_t n_rows, const void *keys, size_t key_stride,
                         uint32_t n_items)
{
    if (!csr || (!keys && n_items > 0) || key_stride < sizeof(uint32_t))
        return DOD_E_INVALID;
    if (n_rows == UINT32_MAX)
        return DOD_E_OVERFLOW;
    if (n_rows == 0 && n_items > 0)
        return DOD_E_RANGE;

    dod__csr_blocks fresh;
    dod_status st = dod__csr_prepare(csr, n_rows, n_items, &fresh);
    if (st != DOD_OK)
        return st;
    uint32_t *offsets = dod__csr_next_offsets(csr, &fresh);
    uint32_t *items = dod__csr_next_items(csr, &fresh);
    const unsigned char *k = (const unsigned char *)keys;

    memset(offsets, 0, ((size_t)n_rows + 1) * sizeof(uint32_t));
    if (!count_keys(offsets, n_rows, k, key_stride, n_items)) {
        dod__csr_discard(csr, &fresh);
        return DOD_E_RANGE;
    }
    exclusive_scan(offsets + 1, n_rows);
    scatter_items(offsets + 1, items, k, key_stride, n_items);
    dod__csr_commit(csr, &fresh, n_rows, n_items);
    return DOD_OK;
}
