#include "regiments.h"
#include <stdlib.h>
#include <string.h>

const char *regiment_dist_name(regiment_dist d)
{
    switch (d) {
    case DIST_LONGTAIL: return "longtail";
    case DIST_UNIFORM: return "uniform";
    case DIST_CLUSTERED: return "clustered";
    case DIST_COUNT: break;
    }
    return "?";
}

static uint64_t next(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double unit(uint64_t *s)
{
    return (double)(next(s) >> 11) * (1.0 / 9007199254740992.0);
}

static uint32_t below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(((next(s) >> 32) * (uint64_t)n) >> 32);
}

void regiments_permutation(uint32_t *out, uint32_t n, uint64_t seed)
{
    uint64_t s = seed ^ ((uint64_t)n << 20);
    for (uint32_t i = 0; i < n; ++i)
        out[i] = i;
    for (uint32_t i = n; i > 1; --i) {
        uint32_t j = below(&s, i);
        uint32_t t = out[i - 1];
        out[i - 1] = out[j];
        out[j] = t;
    }
}

void regiments_generate(Regiment *out, uint32_t n_items, uint32_t n_rows, regiment_dist dist)
{
    uint64_t s = 0x5EED0000ull + (uint64_t)dist * 7919u + n_rows;
    uint32_t *perm = NULL;
    if (dist == DIST_LONGTAIL) {
        perm = (uint32_t *)malloc((size_t)n_rows * sizeof *perm);
        regiments_permutation(perm, n_rows, 12345);
    }
    for (uint32_t i = 0; i < n_items; ++i) {
        uint32_t loc;
        if (dist == DIST_LONGTAIL) {
            double u = unit(&s);
            uint32_t k = (uint32_t)((double)n_rows * u * u);
            loc = perm[k < n_rows ? k : n_rows - 1];
        } else if (dist == DIST_UNIFORM) {
            loc = below(&s, n_rows);
        } else {
            loc = (uint32_t)((uint64_t)i * n_rows / n_items);
            if (below(&s, 100) < 5)
                loc = below(&s, n_rows);
        }
        out[i].location = loc;
        out[i].health = (float)(unit(&s) * 1.1 - 0.1);
        out[i].mood = (float)unit(&s);
        out[i].speed = (float)unit(&s);
    }
    free(perm);
}

void hack3_build(uint32_t *offsets, uint32_t *blob, const Regiment *regiments, uint32_t n_items,
                 uint32_t n_rows)
{
    /* std::vector<unsigned> offsets(location_count + 1) zero-initialises. */
    memset(offsets, 0, ((size_t)n_rows + 1) * sizeof *offsets);
    uint32_t *offsets1 = &offsets[1];
    for (uint32_t r = 0; r < n_items; ++r)
        offsets1[regiments[r].location]++;
    uint32_t sum = 0;
    for (uint32_t i = 0; i < n_rows; ++i) {
        uint32_t count = offsets1[i];
        offsets1[i] = sum;
        sum += count;
    }
    for (uint32_t r = 0; r < n_items; ++r) {
        const uint32_t location = regiments[r].location;
        blob[offsets1[location]] = r;
        offsets1[location]++;
    }
}
