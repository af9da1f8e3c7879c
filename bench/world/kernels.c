/* The loops every contender calls: the seed's update (position += movement), ecs_benchmark's
 * iterate (p += v * dt) and frag_iter (double the data). Small functions taking their columns
 * as restrict parameters: the form gcc and clang vectorise (vec_report.sh shows it). Raw
 * arrays, world blocks and query blocks all go through the same code, so the float operations
 * per entity are the same everywhere and the results compare bit for bit. */
#include "world_bench.h"

void step_move(uint32_t n, position *restrict p, const movement *restrict m)
{
    for (uint32_t i = 0; i < n; ++i) {
        p[i].x += m[i].x;
        p[i].y += m[i].y;
    }
}

void step_iterate(uint32_t n, position *restrict p, const velocity *restrict v, float dt)
{
    for (uint32_t i = 0; i < n; ++i) {
        p[i].x += v[i].x * dt;
        p[i].y += v[i].y * dt;
    }
}

void step_double(uint32_t n, data *restrict d)
{
    for (uint32_t i = 0; i < n; ++i)
        for (int k = 0; k < 12; ++k)
            d[i].v[k] *= 2.0f;
}
