/* One row of a segmented reduction, shared by dod_reduce_rows (src/graph/reduce.c) and
 * dod_world_reduce_rows (src/world/world_gather.c), so both give the same bits: the values of a
 * row's items are added, compared and counted in item order. Not installed. */
#ifndef DOD_REDUCE_ROW_H
#define DOD_REDUCE_ROW_H

#include <dod/reduce.h>
#include <math.h>
#include <string.h>

/* What a row's items add up to so far. */
typedef struct dod__reduce_acc {
    float sum, lo, hi;
} dod__reduce_acc;

static inline dod__reduce_acc dod__reduce_start(void)
{
    dod__reduce_acc a = { 0.0f, INFINITY, -INFINITY };
    return a;
}

/* Take n items' values in order: item i's float at values + (items[k] - bias) * stride. */
static inline void dod__reduce_take(dod__reduce_acc *a, const unsigned char *values, size_t stride,
                                    const uint32_t *items, uint32_t n, uint32_t bias)
{
    float sum = a->sum, lo = a->lo, hi = a->hi;
    for (uint32_t k = 0; k < n; ++k) {
        float v;
        memcpy(&v, values + (size_t)(items[k] - bias) * stride, sizeof v);
        sum += v;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    a->sum = sum, a->lo = lo, a->hi = hi;
}

/* Row r's results, from its n items' values. */
static inline void dod__reduce_store(const dod_reduce_out *out, uint32_t r, dod__reduce_acc a,
                                     uint32_t n)
{
    if (out->sum)
        out->sum[r] = a.sum;
    if (out->min)
        out->min[r] = a.lo;
    if (out->max)
        out->max[r] = a.hi;
    if (out->mean)
        out->mean[r] = n ? a.sum / (float)n : 0.0f;
}

#endif /* DOD_REDUCE_ROW_H */
