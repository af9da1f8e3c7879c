/* The seed article's data and its final hand-written build ("hack 3"), shared by the index
 * benchmarks so every program measures against the same baseline. */
#ifndef DOD_BENCH_REGIMENTS_H
#define DOD_BENCH_REGIMENTS_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct Regiment {
    uint32_t location;
    float health, mood, speed;
} Regiment;

typedef enum regiment_dist { DIST_LONGTAIL, DIST_UNIFORM, DIST_CLUSTERED, DIST_COUNT } regiment_dist;
const char *regiment_dist_name(regiment_dist d);

/* n_items regiments over n_rows locations, deterministic for (dist, n_rows, n_items):
 *   longtail:  location = perm[floor(n_rows * u^2)], u uniform in [0,1), perm a fixed
 *              random permutation: a few locations hold most regiments, scattered over the map;
 *   uniform:   location uniform in [0, n_rows);
 *   clustered: location = floor(i * n_rows / n_items) (sorted), then about 5% of the
 *              regiments moved to a uniform random location.
 * health, mood, speed uniform in [0,1) (health in [-0.1, 1)), so the seed's query skips some. */
void regiments_generate(Regiment *out, uint32_t n_items, uint32_t n_rows, regiment_dist dist);

/* A random permutation of 0..n-1 (for query_random), deterministic for n. */
void regiments_permutation(uint32_t *out, uint32_t n, uint64_t seed);

/* The seed's hack 3, as written there: offsets[n_rows + 1] counted shifted by one, prefix
 * sum in place, scatter. `offsets` and `blob` are caller-provided (n_rows + 1 and n_items). */
void hack3_build(uint32_t *offsets, uint32_t *blob, const Regiment *regiments, uint32_t n_items,
                 uint32_t n_rows);

/* The seed's query over one location: skip mood < 0.25 or health <= 0, sum speed. */
static inline float seed_query_row(const uint32_t *offsets, const uint32_t *items,
                                   const Regiment *regiments, uint32_t location)
{
    float travel_budget = 0.0f;
    const uint32_t begin = offsets[location], end = offsets[location + 1];
    for (uint32_t i = begin; i < end; ++i) {
        const Regiment *r = &regiments[items[i]];
        if (r->mood < 0.25f || r->health <= 0.0f)
            continue;
        travel_budget += r->speed;
    }
    return travel_budget;
}

/* The hot fields of a regiment, as a gather lays them out: one 12-byte record per item in row
 * order, so a row's payload is one sequential run of memory. */
typedef struct regiment_hms {
    float health, mood, speed;
} regiment_hms;

/* The seed's query over one row of gathered fields: the same test, read sequentially. */
static inline float grouped_query_row(const uint32_t *offsets, const regiment_hms *g,
                                      uint32_t row)
{
    float travel_budget = 0.0f;
    for (uint32_t j = offsets[row], end = offsets[row + 1]; j < end; ++j) {
        if (g[j].mood < 0.25f || g[j].health <= 0.0f)
            continue;
        travel_budget += g[j].speed;
    }
    return travel_budget;
}

#ifdef __cplusplus
}
#endif

#endif
